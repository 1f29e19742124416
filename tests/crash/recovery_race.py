#!/usr/bin/env python3
"""recovery_race.py -- recovery never undoes a write that reached its commit.

Usage: python3 tests/crash/recovery_race.py --hivelite PATH

Recovery at open repairs the writes of dead processes.  It used to read the
intent list first and check each owner afterwards, so a writer that was
pending when the list was read, then committed and exited, was taken for
dead and its committed files were rolled back.

1. deterministic: an INSERT pauses while publishing (HIVELITE_PAUSE_AT=
   publish:2500); a second process opens the warehouse and pauses in
   recovery right after listing the intents (HIVELITE_PAUSE_AT=recover:
   4000), so the INSERT commits and exits while recovery holds a stale
   list.  The INSERT's row must be there, and count(*) from statistics must
   equal a scan.
2. an overwrite killed at every step from 'locked' to 'cleanup' leaves its
   lock to a dead process; a process that had opened the warehouse before
   (so its recovery at open saw nothing) then overwrites the table: it must
   repair the dead write before it plans its own, so that only its row is
   left, also after the next open's recovery.

Exit status 0 when all checks hold.  Standard library only.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run(hl, wh, sql, env=None):
    e = dict(os.environ)
    e.pop("HIVELITE_CRASH_AT", None)
    e.pop("HIVELITE_PAUSE_AT", None)
    if env:
        e.update(env)
    return subprocess.run([hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                          capture_output=True, text=True, env=e, timeout=120)


def start(hl, wh, sql, env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.Popen([hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)


def must(hl, wh, sql):
    r = run(hl, wh, sql)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (sql, r.stderr.strip()))
    return r.stdout


def rows_and_count(hl, wh):
    rows = sorted(must(hl, wh, "SELECT a FROM t").split())
    count = must(hl, wh, "SELECT count(*) FROM t").strip()
    return rows, count


def wait_published(wh, table_dir, n_files, deadline=20):
    """Waits until TABLE_DIR holds N_FILES visible files (the paused INSERT
    published its file)."""
    t0 = time.time()
    while time.time() - t0 < deadline:
        names = [f for f in os.listdir(table_dir) if not f.startswith((".", "_"))]
        if len(names) >= n_files:
            return True
        time.sleep(0.05)
    return False


def case_deterministic(hl, top, failures):
    wh = os.path.join(top, "det")
    must(hl, wh, "CREATE TABLE t (a INT); INSERT INTO t VALUES (1)")
    ins = start(hl, wh, "INSERT INTO t VALUES (2)", {"HIVELITE_PAUSE_AT": "publish:2500"})
    if not wait_published(wh, os.path.join(wh, "t"), 2):
        failures.append("deterministic: the INSERT never published")
    opener = start(hl, wh, "SELECT 1", {"HIVELITE_PAUSE_AT": "recover:4000"})
    _, ierr = ins.communicate(timeout=60)
    _, oerr = opener.communicate(timeout=60)
    if ins.returncode != 0 or opener.returncode != 0:
        failures.append("deterministic: exit %d/%d: %s %s" % (ins.returncode, opener.returncode,
                                                               ierr.strip(), oerr.strip()))
    rows, count = rows_and_count(hl, wh)
    if rows != ["1", "2"] or count != "2":
        failures.append("deterministic: rows %r, count(*) %s; want ['1', '2'], 2" % (rows, count))
    left = [f for f in os.listdir(os.path.join(wh, "t")) if f.startswith(".hivelite")]
    if left:
        failures.append("deterministic: left behind %r" % left)


def case_next_writer_repairs(hl, top, failures):
    """A process that opened the warehouse before a writer died (so its own
    recovery at open saw nothing) finds the dead writer's lock when it
    writes: it must repair the dead write first."""
    for step in ["locked", "pending", "trash", "publish", "synced", "before_commit", "committed",
                 "cleanup"]:
        wh = os.path.join(top, "next-" + step)
        must(hl, wh, "CREATE TABLE t (a INT); INSERT INTO t VALUES (1); CREATE TABLE w (a INT)")
        # opens now, then waits 1.5 s in the scan of w, then overwrites t:
        # were it to plan over the dead write's files without repairing it,
        # a later recovery would put the dead write's old rows back
        late = start(hl, wh, "SELECT count(*) FROM w; INSERT OVERWRITE TABLE t VALUES (7)",
                     {"HIVELITE_PAUSE_AT": "scan:1500"})
        time.sleep(0.4)
        r = run(hl, wh, "INSERT OVERWRITE TABLE t VALUES (5)", {"HIVELITE_CRASH_AT": step})
        _, lerr = late.communicate(timeout=120)
        if r.returncode != -9:
            failures.append("next writer %s: not killed (exit %d)" % (step, r.returncode))
            continue
        if late.returncode != 0:
            failures.append("next writer %s: %s" % (step, lerr.strip()))
            continue
        rows, count = rows_and_count(hl, wh)
        want = ["7"]
        if rows != want or count != str(len(want)):
            failures.append("next writer %s: rows %r, count(*) %s; want %r" % (step, rows, count,
                                                                           want))
        left = [f for f in os.listdir(os.path.join(wh, "t")) if f.startswith(".hivelite")]
        if left:
            failures.append("next writer %s: left behind %r" % (step, left))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl-rrace-")
    failures = []
    try:
        case_deterministic(hl, top, failures)
        case_next_writer_repairs(hl, top, failures)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print("recovery_race: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
