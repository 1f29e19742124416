#!/usr/bin/env python3
"""readonly.py -- a warehouse whose metastore cannot be written is read, and
nothing is left behind.

Usage: python3 tests/crash/readonly.py --hivelite PATH

A read-only metastore used to be opened read-write: SQLite created its
-wal and -shm files with the permissions of the read-only database file
(a 0444 -shm kept the warehouse unwritable after its permissions were
restored), and on a read-only file system (or with a read-only metastore
directory) the warehouse could not be read at all.  For each way of making
the metastore read-only that this machine allows, this test checks:

1. queries answer (the table, SHOW TABLES, a view);
2. statements that change the metastore fail with exactly
   "ERROR 25006: metastore "..." is read-only (...)" and touch no data;
3. no file or directory was created or changed anywhere in the warehouse;
4. once writable again, writes work, and the -wal/-shm files are gone
   after the process ends;
5. changes still in the write-ahead log (a process holding the metastore
   open) are read; with the -shm file missing, the error says what to do;
6. a write killed mid-way (HIVELITE_CRASH_AT=pending) cannot be repaired
   read-only: the open fails saying so, and a writable open repairs it;
7. (permission bits only) a -wal/-shm of ours that nobody may write, as
   older versions left them, gets the metastore's bits back.

The read-only conditions: a read-only bind mount in a private mount
namespace (root, `unshare -m`), `chattr +i` on the metastore file or on
its directory (root; root ignores permission bits), or chmod 0444/0555
(non-root).  Prints "skipped: ..." and exits 77 when none is available.
Standard library only.
"""
import argparse
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Mode:
    """One way of making the metastore read-only."""

    def __init__(self, name, top):
        self.name = name
        self.top = top
        self.saved = {}

    def cmd(self, argv):
        if self.name == "rofs":
            # the whole test directory read-only, in a mount namespace of its own
            return ["unshare", "-m", "sh", "-c",
                    'mount --bind -o ro "$0" "$0" && exec "$@"', self.top] + argv
        return argv

    def lock(self, paths):
        for p in paths:
            if self.name == "immutable":
                subprocess.run(["chattr", "+i", p], check=True)
            elif self.name == "chmod":
                self.saved[p] = stat.S_IMODE(os.stat(p).st_mode)
                os.chmod(p, 0o555 if os.path.isdir(p) else 0o444)

    def unlock(self, paths):
        for p in paths:
            if self.name == "immutable":
                subprocess.run(["chattr", "-i", p], check=True)
            elif self.name == "chmod" and p in self.saved:
                os.chmod(p, self.saved.pop(p))


def available_modes(top):
    """The modes this machine supports, and why others are not."""
    modes, why = [], []
    probe = os.path.join(top, "probe")
    os.makedirs(probe)
    if os.geteuid() != 0:
        modes.append("chmod")
    else:
        why.append("chmod: root ignores permission bits")
        if shutil.which("unshare"):
            r = subprocess.run(["unshare", "-m", "sh", "-c",
                                'mount --bind -o ro "$0" "$0" && ! touch "$0/x" 2>/dev/null',
                                probe], capture_output=True)
            if r.returncode == 0:
                modes.append("rofs")
            else:
                why.append("rofs: no read-only bind mount in a private namespace")
        else:
            why.append("rofs: no unshare")
        f = os.path.join(probe, "f")
        open(f, "w").close()
        if shutil.which("chattr") and subprocess.run(["chattr", "+i", f],
                                                     capture_output=True).returncode == 0:
            ro = not os.access(f, os.W_OK)
            subprocess.run(["chattr", "-i", f], check=True)
            if ro:
                modes.append("immutable")
            else:
                why.append("immutable: access() ignores the flag")
        else:
            why.append("immutable: chattr +i is not supported here")
    shutil.rmtree(probe)
    return modes, why


def tree(root):
    """Every path under ROOT with its type, size and permission bits."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode),
                                              0 if stat.S_ISDIR(st.st_mode) else st.st_size)
    return out


class Checker:
    def __init__(self, hl):
        self.hl = hl
        self.failures = []

    def run(self, mode, wh, sql):
        argv = [self.hl, "-w", wh, "--format", "csv", "-c", sql]
        return subprocess.run(mode.cmd(argv) if mode else argv, capture_output=True,
                              text=True, timeout=120)

    def expect(self, what, mode, wh, sql, stdout=None, stderr=None, rc=0):
        r = self.run(mode, wh, sql)
        bad = r.returncode != rc or (stdout is not None and r.stdout != stdout) or \
            (stderr is not None and r.stderr != stderr) or (stderr is None and rc == 0 and r.stderr)
        if bad:
            self.failures.append("%s: %s\n  exit %d (want %d)\n  stdout %r (want %r)\n"
                                 "  stderr %r (want %r)" % (what, sql, r.returncode, rc,
                                                            r.stdout, stdout, r.stderr, stderr))
        return r

    def check(self, what, cond, detail=""):
        if not cond:
            self.failures.append("%s %s" % (what, detail))


def setup(c, wh):
    c.expect("setup", None, wh,
             "CREATE TABLE t (a INT, s STRING) PARTITIONED BY (k STRING); "
             "INSERT INTO t PARTITION (k) VALUES (1, 'one', 'x'), (2, 'two', 'y'); "
             "CREATE VIEW v AS SELECT a FROM t WHERE k = 'y'")


ROWS = "a,s,k\n1,one,x\n2,two,y\n"


def read_only_error(ms):
    return ('ERROR 25006: metastore "%s" is read-only (the file, its directory or its -wal/-shm '
            'files are not writable): this statement needs to change it (line 1, column 1)\n'
            % ms)


def scenario(c, top, mode_name, what):
    """WHAT: "file" (the metastore file), "dir" (its directory) or "fs" (rofs)."""
    base = os.path.join(top, "%s-%s" % (mode_name, what))
    os.makedirs(base)
    mode = Mode(mode_name, base)
    wh = os.path.join(base, "wh")
    meta = os.path.join(wh, ".hivelite")
    ms = os.path.join(meta, "metastore.db")
    label = "%s/%s" % (mode_name, what)
    setup(c, wh)
    before = tree(wh)
    c.check(label + ": setup left a -wal/-shm", not any(k.startswith(".hivelite/metastore.db-")
                                                        for k in before), repr(sorted(before)))
    locked = {"file": [ms], "dir": [meta], "fs": []}[what]
    mode.lock(locked)
    try:
        c.expect(label + ": select", mode, wh, "SELECT a, s, k FROM t ORDER BY a", stdout=ROWS)
        c.expect(label + ": show tables", mode, wh, "SHOW TABLES", stdout="tab_name\nt\nv\n")
        c.expect(label + ": view", mode, wh, "SELECT * FROM v", stdout="a\n2\n")
        for sql in ("INSERT INTO t PARTITION (k='z') VALUES (3, 'three')",
                    "INSERT OVERWRITE TABLE t PARTITION (k='x') VALUES (9, 'nine')",
                    "CREATE TABLE u (a INT)", "DROP TABLE t",
                    "ALTER TABLE t ADD PARTITION (k='w')"):
            c.expect(label + ": write", mode, wh, sql, stdout="", stderr=read_only_error(ms), rc=1)
        c.expect(label + ": select after writes", mode, wh, "SELECT a, s, k FROM t ORDER BY a",
                 stdout=ROWS)
    finally:
        mode.unlock(locked)
    after = tree(wh)
    c.check(label + ": the read-only runs changed the warehouse", after == before,
            "\n  before %r\n  after  %r" % (sorted(before.items()), sorted(after.items())))
    # writable again: writes work (a leftover -shm that nobody may write
    # used to make them fail), and nothing stays beside the metastore
    c.expect(label + ": write after", None, wh,
             "INSERT INTO t PARTITION (k='z') VALUES (3, 'three')")
    c.expect(label + ": select after", None, wh, "SELECT a, s, k FROM t ORDER BY a",
             stdout=ROWS + "3,three,z\n")
    c.check(label + ": -wal/-shm left behind", sorted(os.listdir(meta)) == ["locks", "metastore.db"],
            repr(sorted(os.listdir(meta))))


HOLDER = r"""
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
i = c.execute("SELECT id FROM dbs WHERE name = 'default'").fetchone()[0]
c.execute("INSERT INTO db_params (db_id, idx, key, value) VALUES (?, 99, 'probe', 'in-wal')", (i,))
print("ready", flush=True)
sys.stdin.readline()
c.close()
"""


def wal_scenario(c, top, mode_name):
    """Changes in the write-ahead log of a process that holds the metastore
    open are read; without the -shm file the error names what is missing."""
    base = os.path.join(top, "%s-wal" % mode_name)
    os.makedirs(base)
    mode = Mode(mode_name, base)
    wh = os.path.join(base, "wh")
    ms = os.path.join(wh, ".hivelite", "metastore.db")
    label = "%s/wal" % mode_name
    setup(c, wh)
    want = ("db_name,comment,location,owner_name,owner_type,parameters\n"
            "default,Default Hive database,%s,\"\",USER,{probe=in-wal}\n" % wh)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, ms], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        c.check(label + ": holder", holder.stdout.readline().strip() == "ready")
        c.check(label + ": the WAL holds frames", os.path.getsize(ms + "-wal") > 0)
        mode.lock([ms])
        try:
            c.expect(label + ": read through the WAL", mode, wh,
                     "DESCRIBE DATABASE EXTENDED default", stdout=want)
            c.expect(label + ": select", mode, wh, "SELECT a, s, k FROM t ORDER BY a",
                     stdout=ROWS)
        finally:
            mode.unlock([ms])
        # the holder dies without checkpointing, and the -shm goes missing
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        os.unlink(ms + "-shm")
        mode.lock([ms])
        try:
            c.expect(label + ": no -shm", mode, wh, "SELECT a FROM t", stdout="",
                     stderr='ERROR 58030: could not open read-only metastore "%s": its '
                            'write-ahead log "%s-wal" holds changes that cannot be read '
                            'without the missing "%s-shm" file; open the warehouse once '
                            'with write access\n' % (ms, ms, ms), rc=1)
        finally:
            mode.unlock([ms])
        c.expect(label + ": writable open recovers the WAL", None, wh,
                 "DESCRIBE DATABASE EXTENDED default", stdout=want)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def recovery_scenario(c, top, mode_name):
    """A write killed mid-way must be repaired before anything is read, and
    that needs write access: the open says so; a writable open repairs it."""
    base = os.path.join(top, "%s-recovery" % mode_name)
    os.makedirs(base)
    mode = Mode(mode_name, base)
    wh = os.path.join(base, "wh")
    ms = os.path.join(wh, ".hivelite", "metastore.db")
    label = "%s/recovery" % mode_name
    setup(c, wh)
    env = dict(os.environ, HIVELITE_CRASH_AT="pending")
    r = subprocess.run([c.hl, "-w", wh, "-c", "INSERT INTO t PARTITION (k='x') VALUES (5, 'five')"],
                       capture_output=True, text=True, env=env, timeout=120)
    c.check(label + ": the write was killed", r.returncode == -signal.SIGKILL, repr(r))
    before = tree(wh)
    mode.lock([ms] if mode_name != "rofs" else [])
    try:
        c.expect(label + ": open", mode, wh, "SELECT a FROM t", stdout="",
                 stderr="ERROR 25006: a write cut short by a crash must be repaired first: "
                        "metastore \"%s\" is read-only (the file, its directory or its "
                        "-wal/-shm files are not writable): this statement needs to change "
                        "it\n" % ms, rc=1)
    finally:
        mode.unlock([ms] if mode_name != "rofs" else [])
    # the file side of the repair (removing the dead write's staging
    # directory) is idempotent and may be done already; nothing else moved
    def visible(t):
        return {k: v for k, v in t.items() if ".hivelite-staging-" not in k}
    c.check(label + ": the read-only open changed the warehouse", visible(tree(wh)) == visible(before))
    c.expect(label + ": repaired by a writable open", None, wh,
             "SELECT a, s, k FROM t ORDER BY a", stdout=ROWS)


def leftover_scenario(c, top):
    """Permission bits only (not root): a -shm and -wal that nobody may write,
    as a read-only open of an older hivelite left them, get the metastore's
    bits back, so the warehouse is writable once the metastore is."""
    base = os.path.join(top, "chmod-leftover")
    os.makedirs(base)
    wh = os.path.join(base, "wh")
    meta = os.path.join(wh, ".hivelite")
    ms = os.path.join(meta, "metastore.db")
    setup(c, wh)
    for side in ("-shm", "-wal"):
        open(ms + side, "w").close()
        os.chmod(ms + side, 0o444)
    c.expect("chmod/leftover: write", None, wh,
             "INSERT INTO t PARTITION (k='z') VALUES (3, 'three')")
    c.expect("chmod/leftover: select", None, wh, "SELECT a, s, k FROM t ORDER BY a",
             stdout=ROWS + "3,three,z\n")
    c.check("chmod/leftover: -wal/-shm left behind",
            sorted(os.listdir(meta)) == ["locks", "metastore.db"], repr(sorted(os.listdir(meta))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = os.path.realpath(tempfile.mkdtemp(prefix="hl-ro-"))
    try:
        modes, why = available_modes(top)
        if not modes:
            print("skipped: no way to make a read-only metastore here (%s)" % "; ".join(why))
            return SKIP
        c = Checker(hl)
        for m in modes:
            for what in (["fs"] if m == "rofs" else ["file", "dir"]):
                scenario(c, top, m, what)
            wal_scenario(c, top, m)
            recovery_scenario(c, top, m)
            if m == "chmod":
                leftover_scenario(c, top)
        for f in c.failures:
            print("FAIL", f)
        print("readonly: modes %s%s -- %s" % (", ".join(modes),
                                              " (not: %s)" % "; ".join(why) if why else "",
                                              "FAILED" if c.failures else "ok"))
        return 1 if c.failures else 0
    finally:
        # nothing stays immutable, whatever failed
        if os.geteuid() == 0 and shutil.which("chattr"):
            subprocess.run(["chattr", "-R", "-i", top], capture_output=True)
        for d, dirs, files in os.walk(top):
            for n in dirs:
                try:
                    os.chmod(os.path.join(d, n), 0o755)
                except OSError:
                    pass
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
