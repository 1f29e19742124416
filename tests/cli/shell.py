#!/usr/bin/env python3
"""shell.py -- the interactive shell on a terminal (a pty), end to end.

Usage: python3 tests/cli/shell.py --hivelite PATH

Checks, each against exact text:
1. Ctrl-C during a long query cancels it: "ERROR 57014: canceling
   statement due to user request", the prompt comes back and the next
   statement runs;
2. Ctrl-C at the prompt discards the line being typed (and the pending
   lines of an unfinished statement) and shows a fresh prompt;
3. a cancelled INSERT leaves the table as it was, no file behind;
4. each statement is in the history file as soon as it is entered: the
   shell is SIGKILLed and the file holds them; Ctrl-D exits cleanly and
   leaves each entry once;
5. a long INSERT draws a progress line on a terminal's stderr and erases
   it; with stderr a file nothing is drawn;
6. MSCK's skipped directories are "WARNING: ..." lines.
Standard library only.
"""
import argparse
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# 1,000 rows: their triple cross join (10^9 rows) runs for minutes
SETUP = (
    "CREATE TABLE n (x INT);"
    " INSERT INTO n SELECT pos FROM (SELECT 1) d"
    " LATERAL VIEW posexplode(split(space(999), ' ')) t AS pos, v;"
    " CREATE TABLE t (x INT); CREATE TABLE big (x INT);"
    " CREATE TABLE w (x INT) PARTITIONED BY (k INT);"
)
LONG_QUERY = b"SELECT count(*) FROM n a CROSS JOIN n b CROSS JOIN n c;"
CANCELLED = b"ERROR 57014: canceling statement due to user request\r\n"
PROMPT = b"hivelite> "


class Failure(Exception):
    pass


class Shell:
    """One hivelite shell on a pty."""

    def __init__(self, hivelite, warehouse, home):
        env = dict(os.environ, HOME=home, TERM="xterm")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(hivelite, [hivelite, "-w", warehouse], env)
        self.buf = b""

    def expect(self, pattern, timeout=30):
        """Returns the output up to and including PATTERN."""
        end = time.time() + timeout
        while pattern not in self.buf:
            left = end - time.time()
            ready = select.select([self.fd], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise Failure("timeout waiting for %r; output so far: %r" % (pattern, self.buf))
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                raise Failure("shell ended waiting for %r; output: %r" % (pattern, self.buf))
            self.buf += data
        i = self.buf.index(pattern) + len(pattern)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def send(self, data):
        # as a person types: input sent the moment a prompt appears can
        # reach the terminal before libedit has put it in raw mode; text is
        # then echoed twice and a ^D may be lost (the shell before this
        # test did the same)
        time.sleep(0.2)
        os.write(self.fd, data)

    def run(self, line, timeout=30):
        """Types LINE, returns the output up to the next prompt."""
        self.send(line + b"\r")
        return self.expect(PROMPT, timeout)

    def kill(self):
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def check(cond, what, got):
    if not cond:
        raise Failure("%s; got %r" % (what, got))


def test_cancel_and_prompt(sh):
    sh.send(LONG_QUERY + b"\r")
    time.sleep(1.0)
    sh.send(b"\x03")
    out = sh.expect(PROMPT, timeout=20)
    check(out.endswith(b"^C\r\n" + CANCELLED + PROMPT), "Ctrl-C should cancel the query", out)
    out = sh.run(b"SELECT count(*) AS c FROM n;")
    check(b"| 1000 |" in out and b"ERROR" not in out, "the next statement should run", out)

    # at the prompt: the typed text is dropped, not run later
    sh.send(b"SELECT 'partial")
    time.sleep(0.3)
    sh.send(b"\x03")
    out = sh.expect(PROMPT)
    check(out.endswith(b"SELECT 'partial\r\n" + PROMPT) and b"ERROR" not in out,
          "Ctrl-C should clear the line", out)
    # and the pending lines of a statement that spans several
    sh.send(b"SELECT 1\r")
    sh.expect(b"        > ")
    sh.send(b"\x03")
    out = sh.expect(PROMPT)
    check(out == b"\r\n" + PROMPT, "Ctrl-C should drop the pending lines", out)
    out = sh.run(b"SELECT 2 AS two;")
    check(
        out.endswith(b"SELECT 2 AS two;\r\n+-----+\r\n| two |\r\n+-----+\r\n|   2 |\r\n"
                     b"+-----+\r\n(1 row)\r\n" + PROMPT) and b"ERROR" not in out,
        "only the new statement should run",
        out,
    )


def test_cancelled_insert(sh, warehouse):
    sh.send(b"INSERT INTO t SELECT a.x FROM n a CROSS JOIN n b CROSS JOIN n c;\r")
    time.sleep(1.5)
    sh.send(b"\x03")
    out = sh.expect(PROMPT, timeout=20)
    check(out.endswith(CANCELLED + PROMPT), "Ctrl-C should cancel the INSERT", out)
    out = sh.run(b"SELECT count(*) AS c FROM t;")
    check(b"| 0 |" in out, "the cancelled INSERT should add no row", out)
    left = os.listdir(os.path.join(warehouse, "t"))
    check(left == [], "the cancelled INSERT should leave no file", left)


def test_warnings(sh, warehouse):
    os.mkdir(os.path.join(warehouse, "w", "junk"))
    out = sh.run(b"MSCK TABLE w;")
    check(
        b"WARNING: Skipped junk: not a key=value directory name\r\n" in out,
        "MSCK should warn about the skipped directory",
        out,
    )


def test_clean_exit(sh):
    """Ctrl-D at the prompt ends the shell with status 0."""
    try:
        sh.expect(PROMPT)
        sh.run(b"SELECT 3;")
        sh.send(b"\x04")  # send() waits a little: a ^D typed ahead can be lost
        end = time.time() + 20
        while time.time() < end:
            pid, status = os.waitpid(sh.pid, os.WNOHANG)
            if pid:
                check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
                      "Ctrl-D should exit 0", status)
                return
            time.sleep(0.05)
        os.kill(sh.pid, signal.SIGKILL)
        os.waitpid(sh.pid, 0)
        raise Failure("Ctrl-D should end the shell")
    finally:
        os.close(sh.fd)


def read_history(path):
    """The entries of a libedit history file (vis-encoded lines)."""
    with open(path, "rb") as f:
        lines = f.read().decode().split("\n")
    check(lines[0] == "_HiStOrY_V2_", "history file header", lines[:1])
    return [l.replace("\\040", " ") for l in lines[1:] if l]


def test_progress(hivelite, warehouse, home):
    sh = Shell(hivelite, warehouse, home)
    try:
        sh.expect(PROMPT)
        sh.run(b"SET hivelite.progress.delay_ms=1;")
        # 10 million rows: long enough for the throttled line (one every
        # 100 ms) to be drawn after the scan's, however fast the write
        out = sh.run(b"INSERT INTO big SELECT a.x FROM n a CROSS JOIN n b"
                     b" CROSS JOIN (SELECT x FROM n WHERE x < 10) c;", timeout=240)
        check(b"\rinsert: " in out and b" rows\x1b[K" in out, "a progress line should be drawn", out)
        check(out.endswith(b"\r\x1b[K" + PROMPT), "the progress line should be erased", out)
    finally:
        sh.kill()
    # stderr a file: no progress
    with tempfile.TemporaryFile() as err:
        rc = subprocess.run(
            [hivelite, "-w", warehouse, "-c",
             "SET hivelite.progress.delay_ms=1; INSERT INTO big SELECT a.x FROM n a CROSS JOIN n b;"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, timeout=300,
        ).returncode
        err.seek(0)
        text = err.read()
    check(rc == 0 and text == b"", "no progress on a file", (rc, text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    args = ap.parse_args()
    hivelite = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl_shell_")
    warehouse = os.path.join(top, "wh")
    home = os.path.join(top, "home")
    os.mkdir(home)
    try:
        subprocess.run([hivelite, "-w", warehouse, "-c", SETUP], check=True,
                       stdout=subprocess.DEVNULL, timeout=120)
        sh = Shell(hivelite, warehouse, home)
        try:
            sh.expect(PROMPT)
            test_cancel_and_prompt(sh)
            test_cancelled_insert(sh, warehouse)
            test_warnings(sh, warehouse)
        finally:
            sh.kill()  # no clean exit: the history must already be written
        entries = read_history(os.path.join(home, ".hivelite_history"))
        want = [
            LONG_QUERY.decode(),
            "SELECT count(*) AS c FROM n;",
            "SELECT 2 AS two;",
            "INSERT INTO t SELECT a.x FROM n a CROSS JOIN n b CROSS JOIN n c;",
            "SELECT count(*) AS c FROM t;",
            "MSCK TABLE w;",
        ]
        check(entries == want, "the history should hold every statement once", entries)
        # a clean exit (Ctrl-D) rewrites the file: the same entries, once each
        test_clean_exit(Shell(hivelite, warehouse, home))
        entries = read_history(os.path.join(home, ".hivelite_history"))
        check(entries == want + ["SELECT 3;"], "history after a clean exit", entries)
        test_progress(hivelite, warehouse, home)
    except (Failure, subprocess.SubprocessError) as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
