#!/usr/bin/env python3
"""spill_sweep.py -- spill subdirectories of dead processes are removed at
the next open of the warehouse, those of live processes never.

Usage: python3 tests/crash/spill_sweep.py --hivelite PATH

1. A process killed (SIGKILL) while its ORDER BY spills leaves its
   subdirectory of WAREHOUSE/.hivelite/tmp, named <pid>-<start>-<random>,
   holding no file (files are made with O_TMPFILE; where the file system
   lacks it, a file is unlinked once open, so at most one is left).
2. Beside it: the subdirectory of a live process (a `sleep` with its real
   pid and start time), one of a pid reused by another process (the live
   sleep's pid with another start time), one of a dead pid holding a file,
   and a directory of another name.
3. While a second hivelite process is stopped (SIGSTOP) in the middle of
   its own spilling sort, the warehouse is opened by a third: the dead and
   reused ones go; the live sleep's, the stopped process's, the other
   machine's and the foreign name stay.  The stopped process then finishes with the right answer and
   removes its own subdirectory.
Standard library only.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SORT = ("SET hivelite.threads=1; SET hivelite.memory_limit='2MB'; "
        "SELECT count(*) AS n, min(id) AS lo FROM (SELECT id FROM t ORDER BY s, id) q;")


def start_time(pid):
    with open("/proc/%d/stat" % pid) as f:
        text = f.read()
    return int(text[text.rindex(")") + 2:].split()[19])


def owner_tag():
    """The host and pid-namespace part of hivelite's subdirectory names."""
    host = "".join(c for c in socket.gethostname() if c.isalnum() or c in "._")[:64]
    ns = os.readlink("/proc/self/ns/pid")
    return "%s.%s" % (host, ns[ns.index("[") + 1:-1])


def has_tmpfile(d):
    """Whether files with no name can be made in D (hivelite's spill files
    are; elsewhere they are named and unlinked at once)."""
    try:
        os.close(os.open(d, os.O_TMPFILE | os.O_RDWR, 0o600))
        return True
    except (AttributeError, OSError):
        return False


def spill_dirs(tmp):
    return sorted(os.listdir(tmp)) if os.path.isdir(tmp) else []


def wait_for_subdir(tmp, pid, deadline):
    prefix = "%d-" % pid
    while time.time() < deadline:
        for name in spill_dirs(tmp):
            if name.startswith(prefix):
                return name
        time.sleep(0.002)
    return None


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    if not os.path.exists("/proc/self/stat"):
        print("skipped: no /proc")
        return 77
    top = tempfile.mkdtemp(prefix="hl_spill_sweep_")
    sleeper = None
    try:
        wh = os.path.join(top, "wh")
        data = os.path.join(top, "t")
        os.makedirs(data)
        with open(os.path.join(data, "f.txt"), "w") as f:
            for i in range(400000):
                f.write("%d\x01s%07d\n" % (i, (i * 7919) % 1000003))
        hl = [args.hivelite, "-w", wh, "--format", "csv", "-c"]
        subprocess.run(hl + ["CREATE EXTERNAL TABLE t (id INT, s STRING) LOCATION '%s';" % data],
                       check=True)
        tmp = os.path.join(wh, ".hivelite", "tmp")
        expect = "n,lo\n400000,0\n"

        # 1. killed while spilling
        p = subprocess.Popen(hl + [SORT], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        crashed = wait_for_subdir(tmp, p.pid, time.time() + 30)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        if not crashed:
            fail("the killed sort made no spill subdirectory")
        left_files = os.listdir(os.path.join(tmp, crashed))
        if has_tmpfile(tmp):
            if left_files:
                fail("the killed sort left files: %s" % left_files)
        elif len(left_files) > 1:
            # without O_TMPFILE a file has a name from its open to its
            # unlink: a kill in between leaves one, never more
            fail("the killed sort left files: %s" % left_files)

        # 2. the others
        sleeper = subprocess.Popen(["sleep", "60"])
        tag = owner_tag()
        live = "%d-%d-%s-live01" % (sleeper.pid, start_time(sleeper.pid), tag)
        reused = "%d-%d-%s-reuse1" % (sleeper.pid, start_time(sleeper.pid) + 12345, tag)
        dead = "%d-77-%s-dead01" % (p.pid, tag)  # the killed process's pid: gone
        # a dead pid, but of another machine sharing the warehouse: kept
        remote = "%d-77-elsewhere.1-remote" % p.pid
        if "-%s-" % tag not in crashed:
            fail("unexpected subdirectory name %s (tag %s)" % (crashed, tag))
        for name in (live, reused, dead, remote, "notes"):
            os.makedirs(os.path.join(tmp, name))
        with open(os.path.join(tmp, dead, "0.spill"), "w") as f:
            f.write("x" * 1000)

        # 3. a stopped spilling process while another opens the warehouse
        q = subprocess.Popen(hl + [SORT], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        own = wait_for_subdir(tmp, q.pid, time.time() + 30)
        q.send_signal(signal.SIGSTOP)
        if not own:
            q.send_signal(signal.SIGCONT)
            q.communicate()
            fail("the second sort made no spill subdirectory")
        r = subprocess.run(hl + ["SELECT 1 AS x;"], capture_output=True, text=True)
        if r.returncode != 0 or r.stdout != "x\n1\n":
            fail("open: %r %r" % (r.stdout, r.stderr))
        left = spill_dirs(tmp)
        want = sorted([live, own, remote, "notes"])
        q.send_signal(signal.SIGCONT)
        out, err = q.communicate()
        if left != want:
            fail("after the open: %s, expected %s" % (left, want))
        if q.returncode != 0 or out.decode() != expect:
            fail("the stopped sort: %r %r" % (out, err))
        if spill_dirs(tmp) != sorted([live, remote, "notes"]):
            fail("after the sort: %s" % spill_dirs(tmp))
        print("ok: dead and reused subdirectories removed at open; live ones kept")
        return 0
    finally:
        if sleeper:
            sleeper.kill()
            sleeper.wait()
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
