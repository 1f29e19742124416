#!/usr/bin/env python3
"""crash_matrix.py -- SIGKILL fault injection over every write kind.

Usage: python3 tests/crash/crash_matrix.py --hivelite PATH [--keep]

For each write kind (append, overwrite of one partition, overwrite of a
whole table, dynamic-partition overwrite, also of a bucketed table, CTAS,
LOAD DATA, TRUNCATE, DROP PARTITION, DROP TABLE, DROP DATABASE CASCADE,
RENAME of a table and of a partition, EXCHANGE PARTITION) and each step of the commit protocol (src/txn/txn.h),
the write runs with HIVELITE_CRASH_AT=<step>, which makes the process kill itself with SIGKILL
at that step.  Then the warehouse is opened again (which runs recovery) and
the test checks that:

  * the table holds exactly the rows before the write or exactly the rows
    after it (compared as sorted lists, row for row), and the partitions
    are exactly the old or the new ones, consistently with the rows;
  * no staging or trash directory and no stray file is left anywhere in
    the warehouse (every file is one that the old or new state reads).

With --random N it kills N writes instead: a random write kind each time,
killed at a random step or by SIGKILL after a random delay (0-80 ms,
wherever the write then is), checked the same way; runs that finish before
the kill are checked too but do not count.

Exit status 0 when every case holds, 1 otherwise.  Standard library only.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

STEPS = ["staged", "file", "locked", "pending", "trash", "publish", "synced", "before_commit",
         "committed", "cleanup"]

SETUP = [
    "CREATE TABLE u (k INT, v STRING)",
    "INSERT INTO u VALUES (1, 'a'), (2, 'b')",
    "INSERT INTO u VALUES (3, 'c')",
    "CREATE TABLE p (k INT, v STRING) PARTITIONED BY (dt STRING)",
    "INSERT INTO p PARTITION (dt='d1') VALUES (1, 'a'), (2, 'b')",
    "INSERT INTO p PARTITION (dt='d1') VALUES (3, 'c')",
    "INSERT INTO p PARTITION (dt='d2') VALUES (4, 'd')",
    "ALTER TABLE p ADD PARTITION (dt='d3') LOCATION '${TMP}/custom_d3'",
    "INSERT INTO p PARTITION (dt='d3') VALUES (5, 'e')",
    "CREATE TABLE b (k INT, v STRING) PARTITIONED BY (dt STRING) CLUSTERED BY (k) SORTED BY (v) "
    "INTO 4 BUCKETS",
    "INSERT INTO b PARTITION (dt='d1') VALUES (1, 'a'), (2, 'b'), (5, 'c')",
    "CREATE TABLE q (k INT, v STRING) PARTITIONED BY (dt STRING)",
    "CREATE DATABASE s",
    "CREATE TABLE s.x (k INT)",
    "INSERT INTO s.x VALUES (1), (2)",
]

# (name, statement, table to check)
CASES = [
    ("append", "INSERT INTO u SELECT k + 10, v FROM u", "u"),
    ("append_new_partition", "INSERT INTO p PARTITION (dt='d9') SELECT k, v FROM u", "p"),
    ("overwrite_partition", "INSERT OVERWRITE TABLE p PARTITION (dt='d1') VALUES (9, 'z')", "p"),
    ("overwrite_custom_location",
     "INSERT OVERWRITE TABLE p PARTITION (dt='d3') VALUES (8, 'y')", "p"),
    ("overwrite_table", "INSERT OVERWRITE TABLE u SELECT k * 2, v FROM u WHERE k > 1", "u"),
    ("dynamic_overwrite",
     "SET hive.exec.dynamic.partition.mode=nonstrict; "
     "INSERT OVERWRITE TABLE p PARTITION (dt) SELECT k, v, concat('d', cast(k AS STRING)) "
     "FROM u", "p"),
    # bucketed: one file per bucket and partition, through the same commit
    ("bucketed_dynamic_overwrite",
     "SET hive.exec.dynamic.partition.mode=nonstrict; "
     "INSERT OVERWRITE TABLE b PARTITION (dt) SELECT k, v, concat('d', cast(k % 2 AS STRING)) "
     "FROM u", "b"),
    ("ctas", "CREATE TABLE c AS SELECT k, v FROM u WHERE k < 3", "c"),
    ("load", "LOAD DATA LOCAL INPATH '${TMP}/load.txt' INTO TABLE u", "u"),
    ("load_overwrite", "LOAD DATA LOCAL INPATH '${TMP}/load.txt' OVERWRITE INTO TABLE u", "u"),
    # without LOCAL the source file is moved: a rollback must put it back
    ("load_move_new_partition",
     "LOAD DATA INPATH '${TMP}/load.txt' INTO TABLE p PARTITION (dt='d7')", "p"),
    ("truncate_partition", "TRUNCATE TABLE p PARTITION (dt='d1')", "p"),
    ("truncate_table", "TRUNCATE TABLE u", "u"),
    # drops and renames are write transactions too (txn.h: drop targets, moves)
    ("drop_partition", "ALTER TABLE p DROP PARTITION (dt='d1')", "p"),
    ("drop_partition_custom_location", "ALTER TABLE p DROP PARTITION (dt='d3')", "p"),
    ("drop_table", "DROP TABLE u", "u"),
    ("drop_partitioned_table", "DROP TABLE p", "p"),
    ("drop_database_cascade", "DROP DATABASE s CASCADE", "s.x"),
    ("rename_table", "ALTER TABLE u RENAME TO u2", "u|u2"),
    ("rename_partitioned_table", "ALTER TABLE p RENAME TO p2", "p|p2"),
    ("rename_partition", "ALTER TABLE p PARTITION (dt='d2') RENAME TO PARTITION (dt='d5')", "p"),
    ("exchange_partition", "ALTER TABLE q EXCHANGE PARTITION (dt='d2') WITH TABLE p", "p|q"),
]


def run(hl, wh, sql, env=None, check=True):
    e = dict(os.environ)
    e.pop("HIVELITE_CRASH_AT", None)
    if env:
        e.update(env)
    r = subprocess.run([hl, "-w", wh, "--format", "csv", "-c", sql], capture_output=True,
                       text=True, env=e, timeout=60)
    if check and r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (sql, r.returncode, r.stderr.strip()))
    return r


def state(hl, wh, table):
    """(rows, partitions) of TABLE, or None when it does not exist (one
    process: reopening the warehouse is what runs recovery).  'a|b': the
    states of both tables (a rename)."""
    if "|" in table:
        return tuple(state(hl, wh, t) for t in table.split("|"))
    sql = "SELECT * FROM %s" % table
    if table in ("p", "p2", "q"):
        sql += "; SHOW PARTITIONS p"
    r = run(hl, wh, sql, check=False)
    if r.returncode != 0:
        if "does not exist" in r.stderr:
            return None
        raise RuntimeError("%s failed: %s" % (sql, r.stderr.strip()))
    lines = r.stdout.split("\n")[1:]
    parts = []
    if table in ("p", "p2", "q"):
        cut = lines.index("partition")
        lines, parts = lines[:cut], sorted(lines[cut + 1:])
    return sorted(lines), parts


def files_under(root):
    out = set()
    for d, dirs, files in os.walk(root):
        if os.path.basename(d) == ".hivelite":
            dirs[:] = []
            continue
        for f in files:
            out.add(os.path.relpath(os.path.join(d, f), root))
        for x in dirs:
            out.add(os.path.relpath(os.path.join(d, x), root) + "/")
    return out


def hidden_leftovers(root):
    bad = []
    for d, dirs, files in os.walk(root):
        if os.path.basename(d) == ".hivelite":
            dirs[:] = []
            continue
        for x in dirs + files:
            if x.startswith(".hivelite-staging") or x.startswith(".hivelite-trash"):
                bad.append(os.path.join(d, x))
    return bad


def verify(hl, wh, tmpl, table, before, after, before_files, after_files):
    """None when the warehouse holds the old or the new state with no
    leftovers, else what is wrong."""
    got = state(hl, wh, table)  # reopening recovers
    leftovers = hidden_leftovers(tmpl)
    now = files_under(tmpl)
    if got == before:
        files_ok = now == before_files
    elif got == after:
        # new file names are unique per write: compare the shape
        files_ok = len(now) == len(after_files)
    else:
        files_ok = False
    if got in (before, after) and not leftovers and files_ok:
        return None, got == before
    return ("%s%s%s" % (
        "" if got in (before, after) else "state %r is neither %r nor %r; " % (got, before, after),
        "leftovers %r; " % leftovers if leftovers else "",
        "" if files_ok else "files %r" % sorted(now ^ (before_files if got == before
                                                        else after_files)))), got == before


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--only", default=None)
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="instead of the matrix: random write kinds killed at random "
                    "moments (a random step, or SIGKILL after a random delay) until N "
                    "runs were killed (writes that finish first do not count)")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl-crash-")
    failures = 0
    n = 0
    try:
        tmpl = os.path.join(top, "template")
        os.makedirs(tmpl)
        for sql in SETUP:
            run(hl, os.path.join(tmpl, "wh"), sql.replace("${TMP}", os.path.join(tmpl)))
        wh = os.path.join(tmpl, "wh")
        refs = {}

        def fresh(ref):
            if os.path.exists(tmpl + ".run"):
                shutil.rmtree(tmpl + ".run")
            shutil.copytree(ref, tmpl + ".run", symlinks=True)
            os.rename(tmpl, tmpl + ".orig")
            os.rename(tmpl + ".run", tmpl)
            with open(os.path.join(tmpl, "load.txt"), "w") as f:
                f.write("100\x01loaded\n101\x01loaded\n")

        def restore():
            shutil.rmtree(tmpl)
            os.rename(tmpl + ".orig", tmpl)

        # the expected states of each case: before, and after a clean run
        # (the catalog stores absolute paths: every case runs at the
        # template's paths, swapped in place)
        for name, sql, table in CASES:
            if args.only and name != args.only:
                continue
            ref = os.path.join(top, "ref-" + name)
            shutil.copytree(tmpl, ref, symlinks=True)
            stmt = sql.replace("${TMP}", tmpl)
            fresh(ref)
            before = state(hl, wh, table)
            before_files = files_under(tmpl)
            run(hl, wh, stmt)
            after = state(hl, wh, table)
            after_files = files_under(tmpl)
            restore()
            if before == after:
                print("FAIL %s: the write changes nothing, the case tests nothing" % name)
                failures += 1
                continue
            refs[name] = (ref, stmt, table, before, after, before_files, after_files)
        if args.random:
            seed = args.seed if args.seed is not None else random.randrange(1 << 30)
            rng = random.Random(seed)
            names = sorted(refs)
            outcomes = {"old": 0, "new": 0, "not killed": 0}
            i = 0
            while outcomes["old"] + outcomes["new"] < args.random and i < 4 * args.random:
                i += 1
                name = rng.choice(names)
                ref, stmt, table, before, after, before_files, after_files = refs[name]
                fresh(ref)
                e = dict(os.environ)
                e.pop("HIVELITE_CRASH_AT", None)
                if rng.random() < 0.5:
                    how = "step " + rng.choice(STEPS)
                    e["HIVELITE_CRASH_AT"] = how[5:]
                    p = subprocess.Popen([hl, "-w", wh, "-c", stmt], env=e,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    p.wait(timeout=60)
                else:
                    delay = rng.uniform(0, 0.08)
                    how = "after %.0f ms" % (delay * 1000)
                    p = subprocess.Popen([hl, "-w", wh, "-c", stmt], env=e,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    time.sleep(delay)
                    p.kill()
                    p.wait(timeout=60)
                killed = p.returncode == -9
                problem, old = verify(hl, wh, tmpl, table, before, after, before_files,
                                      after_files)
                n += 1
                if problem:
                    failures += 1
                    print("FAIL kill %d: %s %s (killed=%s): %s" % (i, name, how, killed, problem))
                outcomes["not killed" if not killed else "old" if old else "new"] += 1
                restore()
            print("random kills: seed %d, %d runs (%d killed: %d left the old state, %d the "
                  "new; %d finished first), %d violations" %
                  (seed, n, outcomes["old"] + outcomes["new"], outcomes["old"], outcomes["new"],
                   outcomes["not killed"], failures))
            return 1 if failures else 0
        for name, (ref, stmt, table, before, after, before_files, after_files) in refs.items():
            for step in STEPS:
                n += 1
                fresh(ref)
                r = run(hl, wh, stmt, env={"HIVELITE_CRASH_AT": step}, check=False)
                killed = r.returncode == -9
                problem, old = verify(hl, wh, tmpl, table, before, after, before_files,
                                      after_files)
                if problem:
                    failures += 1
                    print("FAIL %s at %s (killed=%s): %s" % (name, step, killed, problem))
                else:
                    print("ok   %s at %-13s -> %s%s" % (name, step, "old" if old else "new",
                                                      "" if killed else " (step not reached)"))
                restore()
        print("%d cases, %d failures" % (n, failures))
    finally:
        if args.keep:
            print("kept", top)
        else:
            shutil.rmtree(top, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
