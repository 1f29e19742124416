#!/usr/bin/env python3
"""part_counts.py -- the metastore's kept partition counts (issue 18).

Schema v9 keeps each table's partition count in `part_counts`, by triggers
on the partition rows (src/catalog/cat_schema.c), so that the checks which
need it (hivelite.max_partitions_per_table before ADD, MSCK and INSERT,
a snapshot's check, EXPLAIN's n/N) read one row instead of counting a
million.  After every kind of statement that adds, drops or moves
partitions -- ADD (one, several, IF NOT EXISTS), static and dynamic INSERT
and INSERT OVERWRITE, LOAD DATA, MSCK ADD / DROP / SYNC, RENAME PARTITION,
EXCHANGE PARTITION, DROP PARTITION (one, a range), table RENAME, DROP TABLE,
DROP DATABASE CASCADE, and statements refused by the cap -- this reads the
metastore file (python3's sqlite3) and requires every table's kept count to
be its count(*), with no row left for a dropped table; EXPLAIN's total
and the cap's refusals are checked where they show the count.  Schema
v10's n_tdates (the partitions whose first value is a text date, which
decides the incremental field of MSCK, ADD and CTAS) is checked the same
way against a recount by tdate() below, an independent reading of
util/partorder.c's formats; the tables' first values mix dates of several
formats, near-dates and the default partition.

Usage: python3 tests/partitions/part_counts.py --hivelite PATH [--keep]
Standard library only.
"""
import argparse
import calendar
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile


class Failure(Exception):
    pass


def eq(got, want, what):
    if got != want:
        raise Failure("%s\n  got:  %r\n  want: %r" % (what, got, want))


def run(hl, wh, sql, fail=None):
    """stdout lines of SQL; with FAIL, the statement must fail with that text in stderr"""
    p = subprocess.run([hl, "-w", wh, "--format", "tsv", "--no-header", "-c", sql],
                       capture_output=True, text=True, timeout=120)
    if fail is None and p.returncode != 0:
        raise Failure("%s failed: %s" % (sql, p.stderr))
    if fail is not None and (p.returncode == 0 or fail not in p.stderr):
        raise Failure("%s: want an error with %r, got rc %d: %s" % (sql, fail, p.returncode,
                                                                     p.stderr))
    return p.stdout.splitlines()


# the text-date formats of util/partorder.c, by pattern letter
TDATE_FORMATS = ("yyyyMMdd", "yyyy-MM-dd", "yyyyMMddHH", "yyyyMMddHHmm", "yyyyMMddHHmmss",
                 "yyyy-MM-dd-HH", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss")


def tdate(v):
    """whether V is a text date: one of the formats, digits where its letters
    are, year 1900-2200, a real day, hour < 24, minute and second < 60"""
    if v is None:
        return False
    for f in TDATE_FORMATS:
        if len(f) != len(v):
            continue
        fields = {}
        ok = True
        for pc, vc in zip(f, v):
            if pc in "yMdHms":
                if not "0" <= vc <= "9":
                    ok = False
                    break
                fields[pc] = fields.get(pc, 0) * 10 + int(vc)
            elif pc != vc:
                ok = False
                break
        if not ok:
            continue
        y, mo, d = fields["y"], fields["M"], fields["d"]
        if not (1900 <= y <= 2200 and 1 <= mo <= 12 and d >= 1) or fields.get("H", 0) > 23 \
                or fields.get("m", 0) > 59 or fields.get("s", 0) > 59:
            continue
        if d > calendar.monthrange(y, mo)[1]:
            continue
        return True
    return False


def counts(wh):
    """{(db, table): (kept, count(*))} of every table, and orphan rows; the
    kept text-date counts must be the recount"""
    c = sqlite3.connect(os.path.join(wh, ".hivelite", "metastore.db"))
    got = {(d, t): (n, real) for d, t, n, real in c.execute(
        "SELECT d.name, t.name, c.n, (SELECT count(*) FROM partitions p WHERE p.tbl_id = t.id) "
        "FROM tbls t JOIN dbs d ON d.id = t.db_id LEFT JOIN part_counts c ON c.tbl_id = t.id")}
    for d, t, kept, tid in c.execute(
            "SELECT d.name, t.name, c.n_tdates, t.id FROM tbls t JOIN dbs d ON d.id = t.db_id "
            "LEFT JOIN part_counts c ON c.tbl_id = t.id").fetchall():
        real = sum(tdate(v) for (v,) in c.execute(
            "SELECT value FROM part_values WHERE tbl_id = ? AND idx = 0", (tid,)))
        eq(kept, real, "kept text-date count of %s.%s" % (d, t))
    orphans = c.execute("SELECT count(*) FROM part_counts WHERE tbl_id NOT IN "
                        "(SELECT id FROM tbls)").fetchone()[0]
    c.close()
    return got, orphans


def step(hl, wh, sql, want, fail=None):
    """runs SQL, then: every kept count is exact, and the partitioned
    tables' counts are WANT ({"db.t": n})"""
    out = run(hl, wh, sql, fail)
    got, orphans = counts(wh)
    eq(orphans, 0, "rows of dropped tables after " + sql)
    for (d, t), (n, real) in sorted(got.items()):
        eq(n, real, "kept count of %s.%s after %s" % (d, t, sql))
    eq({"%s.%s" % k: v[1] for k, v in got.items() if "%s.%s" % k in want or v[1]}, want,
       "partition counts after " + sql)
    return out


def check(hl, tmp):
    wh = os.path.join(tmp, "w")
    src = os.path.join(tmp, "src.txt")
    with open(src, "w") as f:
        f.write("1\n2\n")
    run(hl, wh, "CREATE DATABASE d2;")
    step(hl, wh, "CREATE TABLE t (v INT) PARTITIONED BY (dt STRING, hr INT);", {"default.t": 0})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='a', hr=1);", {"default.t": 1})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='a', hr=2) PARTITION (dt='a', hr=3);",
         {"default.t": 3})
    step(hl, wh, "ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt='a', hr=1) "
         "PARTITION (dt='a', hr=4);", {"default.t": 4})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='a', hr=1);", {"default.t": 4},
         fail="already exists")
    step(hl, wh, "INSERT INTO t PARTITION (dt='b', hr=1) VALUES (1);", {"default.t": 5})
    step(hl, wh, "INSERT INTO t PARTITION (dt, hr) VALUES (1, 'c', 1), (2, 'c', 2), "
         "(3, 'a', 1);", {"default.t": 7})
    step(hl, wh, "INSERT OVERWRITE TABLE t PARTITION (dt='c', hr) VALUES (1, 2), (2, 3);",
         {"default.t": 8})
    step(hl, wh, "LOAD DATA LOCAL INPATH '%s' INTO TABLE t PARTITION (dt='d', hr=1);" % src,
         {"default.t": 9})
    # EXPLAIN's n/N of a pin: N is the kept count
    plan = "\n".join(run(hl, wh, "EXPLAIN SELECT count(*) FROM t WHERE dt='a' AND hr=1;"))
    if "1/9" not in plan:
        raise Failure("EXPLAIN of a pin does not show 1/9:\n" + plan)
    # MSCK: directories made and removed behind the catalog's back
    tdir = os.path.join(wh, "t")
    for d in ("dt=m/hr=1", "dt=m/hr=2"):
        os.makedirs(os.path.join(tdir, d))
    step(hl, wh, "MSCK REPAIR TABLE t;", {"default.t": 11})
    shutil.rmtree(os.path.join(tdir, "dt=m"))
    step(hl, wh, "MSCK REPAIR TABLE t DROP PARTITIONS;", {"default.t": 9})
    os.makedirs(os.path.join(tdir, "dt=n", "hr=1"))
    shutil.rmtree(os.path.join(tdir, "dt=d"))
    step(hl, wh, "MSCK REPAIR TABLE t SYNC PARTITIONS;", {"default.t": 9})
    step(hl, wh, "ALTER TABLE t PARTITION (dt='n', hr=1) RENAME TO PARTITION (dt='n', hr=9);",
         {"default.t": 9})
    # EXCHANGE moves partitions from src to dest: one count down, one up
    step(hl, wh, "CREATE TABLE d2.u (v INT) PARTITIONED BY (dt STRING, hr INT);",
         {"default.t": 9, "d2.u": 0})
    step(hl, wh, "ALTER TABLE d2.u EXCHANGE PARTITION (dt='a') WITH TABLE t;",
         {"default.t": 5, "d2.u": 4})
    step(hl, wh, "ALTER TABLE t DROP PARTITION (dt='b', hr=1);", {"default.t": 4, "d2.u": 4})
    step(hl, wh, "ALTER TABLE t DROP IF EXISTS PARTITION (dt='zz', hr=1);",
         {"default.t": 4, "d2.u": 4})
    step(hl, wh, "ALTER TABLE d2.u DROP PARTITION (dt='a', hr < 3);", {"default.t": 4, "d2.u": 2})
    # the cap: ADD, INSERT and MSCK past it change nothing
    cap = "SET hivelite.max_partitions_per_table=4; "
    step(hl, wh, cap + "ALTER TABLE t ADD PARTITION (dt='x', hr=1);",
         {"default.t": 4, "d2.u": 2}, fail="max_partitions_per_table")
    step(hl, wh, cap + "INSERT INTO t PARTITION (dt, hr) VALUES (1, 'x', 1);",
         {"default.t": 4, "d2.u": 2}, fail="max_partitions_per_table")
    os.makedirs(os.path.join(tdir, "dt=x", "hr=1"))
    step(hl, wh, cap + "MSCK REPAIR TABLE t;", {"default.t": 4, "d2.u": 2},
         fail="max_partitions_per_table")
    step(hl, wh, "SET hivelite.max_partitions_per_table=5; MSCK REPAIR TABLE t;",
         {"default.t": 5, "d2.u": 2})
    # a table renamed keeps its count; a dropped one takes its row
    step(hl, wh, "ALTER TABLE t RENAME TO t2;", {"default.t2": 5, "d2.u": 2})
    step(hl, wh, "CREATE TABLE c PARTITIONED BY (dt STRING) AS SELECT v, dt FROM t2;",
         {"default.t2": 5, "d2.u": 2, "default.c": 1})
    step(hl, wh, "DROP TABLE t2;", {"d2.u": 2, "default.c": 1})
    step(hl, wh, "DROP DATABASE d2 CASCADE;", {"default.c": 1})



def check_tdates(hl, tmp):
    """every kind of partition statement on tables whose first values mix
    text dates (several formats), near-dates and the default partition;
    counts() compares the kept n_tdates with a recount after each, and the
    incremental field is set by the ADD / MSCK / CTAS that make the dates
    more than half"""
    wh = os.path.join(tmp, "wd")
    src = os.path.join(tmp, "src2.txt")
    with open(src, "w") as f:
        f.write("1\n")
    run(hl, wh, "CREATE DATABASE d2;")
    step(hl, wh, "CREATE TABLE t (v INT) PARTITIONED BY (dt STRING, hr INT);", {"default.t": 0})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='x', hr=1) PARTITION (dt='2024-02-30', hr=1) "
         "PARTITION (dt='2024013', hr=1);", {"default.t": 3})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='2024-01-01', hr=1);", {"default.t": 4})
    step(hl, wh, "ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt='2024-01-01', hr=1) "
         "PARTITION (dt='20240102', hr=1);", {"default.t": 5})
    step(hl, wh, "ALTER TABLE t ADD PARTITION (dt='2024-01-05', hr=1) "
         "PARTITION (dt='2024-01-01', hr=1);", {"default.t": 5}, fail="already exists")
    step(hl, wh, "INSERT INTO t PARTITION (dt='2024-01-03 10:00', hr=1) VALUES (1);",
         {"default.t": 6})
    step(hl, wh, "INSERT INTO t PARTITION (dt, hr) VALUES (1, NULL, 1), (2, '2024-01-04', 2), "
         "(3, 'y', 1);", {"default.t": 9})
    step(hl, wh, "INSERT OVERWRITE TABLE t PARTITION (dt='2024-01-04', hr) VALUES (1, 2), "
         "(2, 3);", {"default.t": 10})
    step(hl, wh, "LOAD DATA LOCAL INPATH '%s' INTO TABLE t PARTITION (dt='2024-01-06-07', hr=1);"
         % src, {"default.t": 11})
    tdir = os.path.join(wh, "t")
    for d in ("dt=2024-02-01/hr=1", "dt=2024-02-01/hr=2", "dt=q/hr=1"):
        os.makedirs(os.path.join(tdir, d))
    step(hl, wh, "MSCK REPAIR TABLE t;", {"default.t": 14})
    shutil.rmtree(os.path.join(tdir, "dt=2024-02-01"))
    step(hl, wh, "MSCK REPAIR TABLE t DROP PARTITIONS;", {"default.t": 12})
    os.makedirs(os.path.join(tdir, "dt=2024-02-02", "hr=1"))
    shutil.rmtree(os.path.join(tdir, "dt=q"))
    step(hl, wh, "MSCK REPAIR TABLE t SYNC PARTITIONS;", {"default.t": 12})
    # renames each way, and one that keeps the first value
    step(hl, wh, "ALTER TABLE t PARTITION (dt='x', hr=1) RENAME TO PARTITION (dt='2024-03-01', "
         "hr=1);", {"default.t": 12})
    step(hl, wh, "ALTER TABLE t PARTITION (dt='2024-01-01', hr=1) RENAME TO PARTITION (dt='z', "
         "hr=1);", {"default.t": 12})
    step(hl, wh, "ALTER TABLE t PARTITION (dt='z', hr=1) RENAME TO PARTITION (dt='z', hr=5);",
         {"default.t": 12})
    # the default partition renamed (its value stays NULL), a key's type
    step(hl, wh, "ALTER TABLE t SET DEFAULT PARTITION TO 'NOKEY';", {"default.t": 12})
    step(hl, wh, "ALTER TABLE t PARTITION COLUMN (hr BIGINT);", {"default.t": 12})
    step(hl, wh, "CREATE TABLE d2.u (v INT) PARTITIONED BY (dt STRING, hr BIGINT);",
         {"default.t": 12, "d2.u": 0})
    step(hl, wh, "ALTER TABLE d2.u EXCHANGE PARTITION (dt='2024-01-04') WITH TABLE t;",
         {"default.t": 10, "d2.u": 2})
    step(hl, wh, "ALTER TABLE t DROP PARTITION (dt='2024-03-01', hr=1);",
         {"default.t": 9, "d2.u": 2})
    step(hl, wh, "ALTER TABLE t DROP PARTITION (dt='y', hr=1);", {"default.t": 8, "d2.u": 2})
    step(hl, wh, "ALTER TABLE t DROP IF EXISTS PARTITION (dt='zz', hr=1);",
         {"default.t": 8, "d2.u": 2})
    step(hl, wh, "ALTER TABLE d2.u DROP PARTITION (dt='2024-01-04', hr < 3);",
         {"default.t": 8, "d2.u": 1})
    cap = "SET hivelite.max_partitions_per_table=8; "
    step(hl, wh, cap + "ALTER TABLE t ADD PARTITION (dt='2024-04-01', hr=1);",
         {"default.t": 8, "d2.u": 1}, fail="max_partitions_per_table")
    step(hl, wh, cap + "INSERT INTO t PARTITION (dt, hr) VALUES (1, '2024-04-01', 1);",
         {"default.t": 8, "d2.u": 1}, fail="max_partitions_per_table")
    os.makedirs(os.path.join(tdir, "dt=2024-04-01", "hr=1"))
    step(hl, wh, cap + "MSCK REPAIR TABLE t;", {"default.t": 8, "d2.u": 1},
         fail="max_partitions_per_table")
    step(hl, wh, "MSCK REPAIR TABLE t;", {"default.t": 9, "d2.u": 1})
    step(hl, wh, "ALTER TABLE t RENAME TO t2;", {"default.t2": 9, "d2.u": 1})
    step(hl, wh, "CREATE TABLE c PARTITIONED BY (dt STRING) AS SELECT v, dt FROM t2;",
         {"default.t2": 9, "d2.u": 1, "default.c": 3})
    # the field was set on t2 by an ADD or MSCK on the way; c (CTAS) has
    # the partitions of t2 that hold rows: two dates and the default
    for name in ("t2", "c"):
        eq(run(hl, wh, "SHOW TBLPROPERTIES %s ('hivelite.incremental.kind');" % name),
           ["date"], "incremental kind of " + name)
    step(hl, wh, "DROP TABLE t2;", {"d2.u": 1, "default.c": 3})
    step(hl, wh, "DROP DATABASE d2 CASCADE;", {"default.c": 3})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    base = os.environ.get("HIVELITE_TEST_TMP") or None
    if base:
        os.makedirs(base, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="hl-part-counts-", dir=base)
    try:
        check(args.hivelite, tmp)
        check_tdates(args.hivelite, tmp)
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
