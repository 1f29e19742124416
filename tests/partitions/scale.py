#!/usr/bin/env python3
"""scale.py -- MSCK, pruning, SHOW PARTITIONS, ADD and DROP on big
partitioned tables (issue 18, "a million partitions"), exactly and within a
memory limit, never timed.

Usage: python3 tests/partitions/scale.py --hivelite PATH [--parts N] [--keep]

a. MSCK over a generated tree of 3,000 partitions (dt x hr, one file each)
   with junk beside it: a file at the top, a directory that is not
   key=value, a wrong key, a value that is not an INT and a duplicate
   (hr=01 beside hr=1): exact counts of each kind of result line; after
   seven directories are removed, MSCK ... SYNC PARTITIONS drops exactly
   those seven, a second MSCK finds nothing, and count(*) reads the
   2,993 files left.
b. N partitions (default 100,000: 100 days x 1,000 hours, empty
   directories) registered by MSCK; then under hivelite.memory_limit=8MB,
   which a statement that loads every partition exceeds (53200): the plan
   of a pin reads 1 of N (EXPLAIN), a range of two days 2,000 of N,
   SHOW PARTITIONS ... LIMIT 3 and with a partial spec give exact names,
   DROP and ADD of one partition change exactly that one.  The MSCK's
   peak RSS is at most 64 MB over that of `SELECT 1` (before MSCK
   streamed it was 114 MB over at 100,000; not checked in a sanitizer
   build).
c. MSCK in batches of 7 (hivelite.msck.batch_size) gives exactly the
   output and the catalog of the default batch, with junk, a duplicate,
   partitions registered before and one whose directory is gone.
Standard library only.
"""
import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import part_tree  # noqa: E402


csv.field_size_limit(1 << 30)  # the MSCK line that lists every partition


class Failure(Exception):
    pass


def eq(got, want, what):
    if got != want:
        raise Failure("%s\n  got:  %r\n  want: %r" % (what, got, want))


def run(hl, wh, sql, ok=True):
    p = subprocess.run([hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                       capture_output=True, text=True, timeout=600)
    if ok and p.returncode != 0:
        raise Failure("%s failed: %s" % (sql, p.stderr))
    return p


def lines(hl, wh, sql):
    """The first column of each result row (csv: a line with a comma is quoted)."""
    return [row[0] for row in csv.reader(io.StringIO(run(hl, wh, sql).stdout))]


def peak_kb(hl, wh, sql):
    """Runs SQL in a fresh process under GNU time: its output lines and peak
    RSS in KB (a child of this interpreter would report the interpreter's
    peak in its own rusage; GNU time's child starts small)."""
    with tempfile.NamedTemporaryFile("r") as mem:
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", mem.name, hl, "-w", wh, "--format",
                            "csv", "--no-header", "-c", sql], capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0:
            raise Failure("%s failed: %s" % (sql, p.stderr))
        peak = int(mem.read().split()[-1])
    return [row[0] for row in csv.reader(io.StringIO(p.stdout))], peak


def sanitized(hl):
    with open(hl, "rb") as f:
        return b"__asan_init" in f.read()


def count_prefix(out, prefix):
    return sum(1 for line in out if line.startswith(prefix))


def case_msck(hl, tmp):
    root = os.path.join(tmp, "a")
    part_tree.write(root, 30, 100, True)
    open(os.path.join(root, "stray.txt"), "w").close()
    os.mkdir(os.path.join(root, "notakey"))
    os.makedirs(os.path.join(root, "dt=2020-01-01", "minute=3"))
    os.makedirs(os.path.join(root, "dt=2020-01-02", "hr=x"))
    os.makedirs(os.path.join(root, "dt=2020-01-03", "hr=01"))
    wh = os.path.join(tmp, "wa")
    run(hl, wh, "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) "
                "LOCATION '%s';" % root)
    out = lines(hl, wh, "MSCK REPAIR TABLE t;")
    eq(count_prefix(out, "Repair: Added partition to metastore t:"), 3000, "a: partitions added")
    eq(count_prefix(out, "Partitions not in metastore:"), 1, "a: the list line")
    eq(len(out[[i for i, l in enumerate(out)
                 if l.startswith("Partitions not in metastore:")][0]].split("\t")) - 1, 3000,
       "a: names in the list line")
    eq([l for l in out if l.startswith("Duplicate")],
       ["Duplicate partition directories for t:dt=2020-01-03/hr=1: kept dt=2020-01-03/hr=1, "
        "ignored dt=2020-01-03/hr=01"], "a: the duplicate")
    eq([l for l in out if l.startswith("Skipped")],
       ["Skipped 4 invalid partition directories: dt=2020-01-01/minute=3, dt=2020-01-02/hr=x, "
        "notakey, stray.txt"], "a: the junk")
    eq(lines(hl, wh, "SELECT count(*) FROM t;"), ["3000"], "a: rows")
    gone = [("2020-01-%02d" % (d + 1), h) for d, h in
            [(0, 0), (0, 99), (4, 50), (9, 7), (17, 1), (29, 98), (29, 99)]]
    for dt, h in gone:
        shutil.rmtree(os.path.join(root, "dt=" + dt, "hr=%d" % h))
    out = lines(hl, wh, "MSCK REPAIR TABLE t SYNC PARTITIONS;")
    eq(sorted(l for l in out if l.startswith("Repair: Dropped")),
       sorted("Repair: Dropped partition from metastore default.t:dt=%s/hr=%d" % g for g in gone),
       "a: dropped by SYNC")
    eq(count_prefix(out, "Repair: Added"), 0, "a: nothing added by SYNC")
    out = lines(hl, wh, "MSCK TABLE t;")
    eq([l for l in out if not l.startswith(("Skipped", "Duplicate"))], [], "a: in step")
    eq(lines(hl, wh, "SELECT count(*) FROM t;"), ["2993"], "a: rows after SYNC")


def case_batched(hl, tmp):
    """MSCK in batches of 7 (hivelite.msck.batch_size) against the default
    batch: the same output line for line and the same catalog, with junk,
    a duplicate, partitions registered before and one whose directory is
    gone (SYNC)."""
    root = os.path.join(tmp, "c")
    part_tree.write(root, 12, 25, False)
    os.mkdir(os.path.join(root, "notakey"))
    os.makedirs(os.path.join(root, "dt=2020-01-05", "hr=007"))
    os.makedirs(os.path.join(root, "dt=2020-01-06", "hr=y"))
    outs = []
    for batch in ("", "SET hivelite.msck.batch_size=7; "):
        wh = os.path.join(tmp, "wc%d" % len(outs))
        run(hl, wh, "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) "
                    "LOCATION '%s';" % root)
        run(hl, wh, "ALTER TABLE t ADD PARTITION (dt='2020-01-03', hr=4) "
                    "PARTITION (dt='2020-01-09', hr=24) PARTITION (dt='2019-12-31', hr=1);")
        shutil.rmtree(os.path.join(root, "dt=2019-12-31"))
        got = [lines(hl, wh, batch + "MSCK TABLE t;"),
               lines(hl, wh, batch + "MSCK REPAIR TABLE t SYNC PARTITIONS;"),
               lines(hl, wh, "SHOW PARTITIONS t;"),
               lines(hl, wh, batch + "MSCK TABLE t;")]
        outs.append(got)
    unbatched, batched = outs
    eq(batched, unbatched, "c: batched MSCK differs from the unbatched one")
    out = unbatched[1]
    eq(count_prefix(out, "Repair: Added partition to metastore t:"), 298, "c: added")
    eq([l for l in out if l.startswith("Repair: Dropped")],
       ["Repair: Dropped partition from metastore default.t:dt=2019-12-31/hr=1"], "c: dropped")
    eq(len(unbatched[2]), 300, "c: registered")
    eq(unbatched[2][:3], ["dt=2020-01-01/hr=0", "dt=2020-01-01/hr=1", "dt=2020-01-01/hr=10"],
       "c: first names")
    eq([l for l in unbatched[3] if not l.startswith(("Skipped", "Duplicate"))], [],
       "c: in step after the repair")


def case_scale(hl, tmp, n_parts):
    n_hr = 1000 if n_parts >= 1000 else n_parts
    n_dt = max(1, n_parts // n_hr)
    total = n_dt * n_hr
    root = os.path.join(tmp, "b")
    part_tree.write(root, n_dt, n_hr, False)
    wh = os.path.join(tmp, "wb")
    run(hl, wh, "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) "
                "LOCATION '%s';" % root)
    out, peak = peak_kb(hl, wh, "MSCK REPAIR TABLE t;")
    eq(count_prefix(out, "Repair: Added"), total, "b: partitions added")
    _, base = peak_kb(hl, wh, "SELECT 1;")
    if not sanitized(hl) and peak - base > 64 * 1024:
        raise Failure("b: MSCK of %d partitions peaked %d KB over the start's %d KB"
                      % (total, peak - base, base))
    small = "SET hivelite.memory_limit=8MB; "
    d1, d2 = part_tree.day(n_dt // 2), part_tree.day(n_dt // 2 + 1)
    plan = lines(hl, wh, small + "EXPLAIN SELECT v FROM t WHERE dt = '%s' AND hr = 5;" % d1)
    eq([l.strip() for l in plan if "partitions:" in l], ["partitions: 1/%d" % total],
       "b: a pin's plan")
    plan = lines(hl, wh, small + "EXPLAIN SELECT v FROM t WHERE dt BETWEEN '%s' AND '%s';"
                 % (d1, d2))
    eq([l.strip() for l in plan if "partitions:" in l],
       ["partitions: %d/%d" % (2 * n_hr, total)], "b: a range's plan")
    eq(lines(hl, wh, small + "SELECT count(*) FROM t WHERE dt = '%s' AND hr = 5;" % d1), ["0"],
       "b: a pin")
    first = part_tree.day(0)
    eq(lines(hl, wh, small + "SHOW PARTITIONS t LIMIT 3;"),
       ["dt=%s/hr=0" % first, "dt=%s/hr=1" % first, "dt=%s/hr=10" % first], "b: SHOW ... LIMIT")
    eq(lines(hl, wh, small + "SHOW PARTITIONS t PARTITION (dt='%s') LIMIT 2;" % d1),
       ["dt=%s/hr=0" % d1, "dt=%s/hr=1" % d1], "b: SHOW ... PARTITION (dt) LIMIT")
    run(hl, wh, small + "ALTER TABLE t DROP PARTITION (dt='%s', hr=7);" % d1)
    eq(lines(hl, wh, small + "SHOW PARTITIONS t PARTITION (dt='%s', hr=7);" % d1), [],
       "b: the dropped one")
    eq(len(lines(hl, wh, small + "SHOW PARTITIONS t PARTITION (dt='%s');" % d1)), n_hr - 1,
       "b: its neighbours")
    run(hl, wh, small + "ALTER TABLE t ADD PARTITION (dt='%s', hr=7);" % d1)
    eq(lines(hl, wh, small + "SHOW PARTITIONS t PARTITION (dt='%s', hr=7);" % d1),
       ["dt=%s/hr=7" % d1], "b: added back")
    eq(lines(hl, wh, "SELECT count(*) FROM (SELECT DISTINCT dt, hr FROM t) x;"), ["0"],
       "b: empty partitions")
    plan = lines(hl, wh, "EXPLAIN SELECT v FROM t;")
    eq([l.strip() for l in plan if "partitions:" in l],
       ["partitions: %d/%d" % (total, total)], "b: every partition")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--parts", type=int, default=100000)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hl-scale-")
    try:
        case_msck(args.hivelite, tmp)
        case_batched(args.hivelite, tmp)
        case_scale(args.hivelite, tmp, args.parts)
    except Failure as e:
        print("FAIL " + str(e))
        return 1
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
