#!/usr/bin/env python3
"""isolation.py -- a query sees a table as of one committed state.

Usage: python3 tests/crash/isolation.py --hivelite PATH

1. Torn reads: a writer overwrites all four partitions of a table in a loop
   (version i puts 10 rows k = i*1000+j, ver = i into each), pausing inside
   its publish step (HIVELITE_PAUSE_AT=publish:<ms>, after the first file
   moved) to widen the window; meanwhile reader processes scan the table
   over and over (one query per process, and many queries back to back in
   one process).  Every answer must be exactly one written version: 40
   rows, one ver, the sum of that version.
2. A reader that starts while a write publishes waits, then sees the new
   version; with a short hivelite.lock.timeout it fails with 55P03 instead.
3. A write committed between a query's binding and its scan that added a
   partition makes the scan fail with 40001 (never a mix of two states).

Exit status 0 when all checks hold.  Standard library only.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

PARTS = ["d1", "d2", "d3", "d4"]
QUERY = "SELECT count(*), sum(k), min(ver), max(ver) FROM p"


def cmd(hl, wh, sql):
    return [hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql]


def run(hl, wh, sql, env=None, timeout=120):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run(cmd(hl, wh, sql), capture_output=True, text=True, env=e,
                          timeout=timeout)


def must(hl, wh, sql, env=None):
    r = run(hl, wh, sql, env)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (sql, r.stderr.strip()))
    return r.stdout


def overwrite_sql(i):
    rows = ", ".join("(%d, %d, '%s')" % (i * 1000 + j, i, d) for d in PARTS for j in range(10))
    return ("SET hive.exec.dynamic.partition.mode=nonstrict; "
            "INSERT OVERWRITE TABLE p PARTITION (dt) VALUES %s" % rows)


def expected(i):
    return "40,%d,%d,%d" % (len(PARTS) * sum(i * 1000 + j for j in range(10)), i, i)


def check_answers(lines, versions, failures, what):
    ok = {expected(i) for i in versions}
    bad = [ln for ln in lines if ln not in ok]
    if bad:
        failures.append("%s saw a state that was never committed: %r" % (what, bad[:5]))


def publishing(wh):
    """True once a write holds the publish lock (its trash directory exists)."""
    return bool(glob.glob(os.path.join(wh, "p", "dt=*", ".hivelite-trash-*")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl-iso-")
    failures = []
    try:
        wh = os.path.join(top, "wh")
        must(hl, wh, "CREATE TABLE p (k INT, ver INT) PARTITIONED BY (dt STRING)")
        must(hl, wh, overwrite_sql(0))
        if must(hl, wh, QUERY).strip() != expected(0):
            raise SystemExit("FAIL: setup: %s" % must(hl, wh, QUERY))

        # 1. torn reads, one query per reader process and many per process
        n_writes = 4
        writer = subprocess.Popen(
            ["sh", "-c", " && ".join(
                "'%s' -w '%s' -c \"%s\"" % (hl, wh, overwrite_sql(i))
                for i in range(1, n_writes + 1))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, HIVELITE_PAUSE_AT="publish:600"))
        batch = subprocess.Popen(cmd(hl, wh, "; ".join([QUERY] * 300)), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        answers, reads = [], 0
        while writer.poll() is None:
            r = run(hl, wh, QUERY)
            reads += 1
            if r.returncode != 0:
                failures.append("reader failed: %s" % r.stderr.strip())
                break
            answers.append(r.stdout.strip())
        out, errout = writer.communicate(timeout=300)
        if writer.returncode != 0:
            failures.append("writer failed: %s" % errout.strip())
        check_answers(answers, range(n_writes + 1), failures, "a reader process")
        out, errout = batch.communicate(timeout=300)
        if batch.returncode != 0:
            failures.append("batch reader failed: %s" % errout.strip())
        check_answers(out.split(), range(n_writes + 1), failures, "a batch of queries")
        if len(set(answers)) < 2:
            failures.append("the readers saw only %r: the test did not overlap the writes"
                            % sorted(set(answers)))
        if must(hl, wh, QUERY).strip() != expected(n_writes):
            failures.append("final state is not version %d" % n_writes)

        # 2. a reader during a publish waits for it (and sees the new state),
        #    or times out with 55P03
        v = n_writes + 1
        writer = subprocess.Popen(cmd(hl, wh, overwrite_sql(v)), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  env=dict(os.environ, HIVELITE_PAUSE_AT="publish:2500"))
        deadline = time.time() + 60
        while not publishing(wh) and time.time() < deadline and writer.poll() is None:
            time.sleep(0.02)
        if not publishing(wh):
            failures.append("the writer never reached its publish step")
        r = run(hl, wh, "SET hivelite.lock.timeout=0.3; " + QUERY)
        if r.returncode == 0 or "ERROR 55P03" not in r.stderr or '"default.p"' not in r.stderr:
            failures.append("a reader with a short timeout should fail with 55P03: rc=%d %s"
                            % (r.returncode, r.stderr.strip()))
        r = run(hl, wh, QUERY)
        if r.returncode != 0 or r.stdout.strip() != expected(v):
            failures.append("a reader that waited for the publish saw %r %s, want %r"
                            % (r.stdout.strip(), r.stderr.strip(), expected(v)))
        writer.communicate(timeout=120)

        # 3. a partition added between binding and scanning: 40001
        reader = subprocess.Popen(cmd(hl, wh, QUERY), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  env=dict(os.environ, HIVELITE_PAUSE_AT="scan:1500"))
        time.sleep(0.5)  # bound, pausing before its scan
        must(hl, wh, "INSERT INTO p PARTITION (dt='d5') VALUES (1, %d)" % v)
        out, errout = reader.communicate(timeout=120)
        if reader.returncode == 0 or "ERROR 40001" not in errout:
            failures.append("a scan planned before a partition was added should fail with "
                            "40001: rc=%d %s %s" % (reader.returncode, out.strip(),
                                                    errout.strip()))
        r = run(hl, wh, "SELECT count(*), sum(k) FROM p")
        if r.stdout.strip() != "41,%d" % (int(expected(v).split(",")[1]) + 1):
            failures.append("after the added partition: %r" % r.stdout.strip())

        # 4. a pinned scan (dt = '...': the catalog lists only that value)
        # checks only its own partitions again, so a partition of another
        # value added between binding and scanning does not fail it (the
        # count of the whole table would: 40001)
        reader = subprocess.Popen(cmd(hl, wh, "SELECT count(*) FROM p WHERE dt = 'd1'"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=dict(os.environ, HIVELITE_PAUSE_AT="scan:1500"))
        time.sleep(0.5)  # bound, pausing before its scan
        must(hl, wh, "INSERT INTO p PARTITION (dt='d7') VALUES (1, 1)")
        out, errout = reader.communicate(timeout=120)
        want = run(hl, wh, "SELECT count(*) FROM p WHERE dt = 'd1'").stdout.strip()
        if reader.returncode != 0 or out.strip() != want:
            failures.append("a scan pinned to d1 while d7 was added: rc=%d %r %s (want %r)"
                            % (reader.returncode, out.strip(), errout.strip(), want))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print("isolation: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
