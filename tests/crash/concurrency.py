#!/usr/bin/env python3
"""concurrency.py -- several hivelite processes writing one warehouse at once.

Usage: python3 tests/crash/concurrency.py --hivelite PATH

1. N processes append to one table (and to one new partition of another)
   in parallel, several statements each: every row must be kept, and the
   statistics must count them all.
2. Overwrites of one partition are serialized by the catalog write lock:
   a writer that holds the lock (paused inside its commit with
   HIVELITE_PAUSE_AT) makes a second one with a short hivelite.lock.timeout
   fail with SQLSTATE 55P03 and a message naming the table, and makes a
   third one with the default timeout wait and then win; the partition then
   holds exactly the rows of the last overwrite.
3. A writer killed while holding the lock does not block the next one.

Exit status 0 when all checks hold.  Standard library only.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

N_PROCS = 6
N_STMTS = 4


def cmd(hl, wh, sql):
    return [hl, "-w", wh, "--format", "csv", "-c", sql]


def run(hl, wh, sql, env=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run(cmd(hl, wh, sql), capture_output=True, text=True, env=e, timeout=120)


def must(hl, wh, sql):
    r = run(hl, wh, sql)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (sql, r.stderr.strip()))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl-conc-")
    failures = []
    try:
        wh = os.path.join(top, "wh")
        must(hl, wh, "CREATE TABLE a (k INT, who STRING)")
        must(hl, wh, "CREATE TABLE pa (k INT) PARTITIONED BY (dt STRING)")
        # 1. parallel appends: each process runs its statements in one -c
        procs = []
        for p in range(N_PROCS):
            sql = "; ".join(
                "INSERT INTO a VALUES (%d, 'p%d'); INSERT INTO pa PARTITION (dt='new') VALUES (%d)"
                % (p * 100 + i, p, p * 100 + i) for i in range(N_STMTS))
            procs.append(subprocess.Popen(cmd(hl, wh, sql), stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
        for pr in procs:
            out, errout = pr.communicate(timeout=300)
            if pr.returncode != 0:
                failures.append("append process failed: %s" % errout.strip())
        want = sorted(str(p * 100 + i) for p in range(N_PROCS) for i in range(N_STMTS))
        got = sorted(must(hl, wh, "SELECT k FROM a").split("\n")[1:-1])
        if got != want:
            failures.append("parallel appends: got %d rows %r, want %d" % (len(got), got, len(want)))
        got = sorted(must(hl, wh, "SELECT k FROM pa").split("\n")[1:-1])
        if got != want:
            failures.append("parallel appends into a new partition: got %r" % got)
        n = must(hl, wh, "SHOW TBLPROPERTIES a ('numRows')").split("\n")[1]
        if n != str(len(want)):
            failures.append("numRows of a is %s, want %d" % (n, len(want)))
        parts = must(hl, wh, "SHOW PARTITIONS pa").split("\n")[1:-1]
        if parts != ["dt=new"]:
            failures.append("partitions of pa: %r" % parts)

        # 2. overwrites serialized by the lock
        holder = subprocess.Popen(
            cmd(hl, wh, "INSERT OVERWRITE TABLE pa PARTITION (dt='new') VALUES (1)"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, HIVELITE_PAUSE_AT="pending:2500"))
        time.sleep(1.0)  # the holder is inside its commit by now
        r = run(hl, wh, "SET hivelite.lock.timeout=0.2; "
                "INSERT OVERWRITE TABLE pa PARTITION (dt='new') VALUES (2)")
        if r.returncode == 0 or "ERROR 55P03" not in r.stderr or '"default.pa"' not in r.stderr:
            failures.append("second overwrite should time out on the lock: rc=%d %s"
                            % (r.returncode, r.stderr.strip()))
        waiter = subprocess.Popen(
            cmd(hl, wh, "INSERT OVERWRITE TABLE pa PARTITION (dt='new') VALUES (3)"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for pr, what in ((holder, "holder"), (waiter, "waiter")):
            out, errout = pr.communicate(timeout=120)
            if pr.returncode != 0:
                failures.append("%s overwrite failed: %s" % (what, errout.strip()))
        got = must(hl, wh, "SELECT k FROM pa").split("\n")[1:-1]
        if got != ["3"]:
            failures.append("after serialized overwrites pa holds %r, want ['3']" % got)

        # 3. a writer killed while holding the lock: the next one proceeds
        r = run(hl, wh, "INSERT OVERWRITE TABLE pa PARTITION (dt='new') VALUES (4)",
                env={"HIVELITE_CRASH_AT": "pending"})
        if r.returncode != -9:
            failures.append("the crash injection did not kill the writer (rc=%d)" % r.returncode)
        r = run(hl, wh, "SET hivelite.lock.timeout=5; "
                "INSERT OVERWRITE TABLE pa PARTITION (dt='new') VALUES (5)")
        if r.returncode != 0:
            failures.append("a dead holder's lock blocked the next writer: %s" % r.stderr.strip())
        got = must(hl, wh, "SELECT k FROM pa").split("\n")[1:-1]
        if got != ["5"]:
            failures.append("after the killed writer pa holds %r, want ['5']" % got)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print("concurrency: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
