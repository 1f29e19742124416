"""pgserver.py -- shared by the tests of `hivelite serve` (tests/server/*.py):
starting the server on a free loopback port, a real PostgreSQL 15 as the
peer of the comparisons (Postgres), a raw protocol client for the
byte-level checks, and the skip rule for missing peers.

Every server started here listens on 127.0.0.1 with port 0 (the kernel picks
a free one; the server prints "listening on HOST:PORT") and is stopped with
SIGTERM at the end of the test, or killed if the test dies first.
"""
import atexit
import ctypes
import os
import pwd
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

_started = []


def unavailable(why, packages):
    if os.environ.get("CI") == "true":
        print("FAIL: %s (CI=true: the peer must run; scripts/install-deps.sh installs %s)"
              % (why, packages))
        sys.exit(1)
    print("SKIP: %s" % why)
    sys.exit(77)


def tmpdir(tag):
    base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
    os.makedirs(base, exist_ok=True)
    d = tempfile.mkdtemp(prefix="server-%s-" % tag, dir=base)
    atexit.register(shutil.rmtree, d, True)
    return d


class Server:
    """`hivelite serve -w WAREHOUSE ARGS...` on 127.0.0.1:<free port>."""

    def __init__(self, hivelite, warehouse, *args):
        self.cmd = [hivelite, "serve", "-w", warehouse, "--listen", "127.0.0.1:0"] + list(args)
        self.proc = subprocess.Popen(self.cmd, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        _started.append(self.proc)
        self.log = b""
        deadline = time.time() + 30
        while b"listening on " not in self.log:
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError("server did not start: %r" % (self.log + self.proc.stderr.read()
                                                                 if self.proc.poll() is not None
                                                                 else self.log))
            r, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if r:
                self.log += os.read(self.proc.stderr.fileno(), 4096)
        line = self.log.split(b"listening on ", 1)[1].split(b"\n", 1)[0].decode()
        self.host, port = line.rsplit(":", 1)
        self.port = int(port)

    def terminate(self):
        """SIGTERM without waiting (stop() then only waits)."""
        self.signalled = True
        self.proc.send_signal(signal.SIGTERM)

    def stop(self, timeout=60):
        """SIGTERM; returns (exit status, everything the server logged)."""
        if not getattr(self, "signalled", False):
            self.proc.send_signal(signal.SIGTERM)
        try:
            rest = self.proc.stderr.read()
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rest = b""
        _started.remove(self.proc)
        self.log += rest
        return self.proc.returncode, self.log.decode(errors="replace")


PG_BIN = "/usr/lib/postgresql/15/bin"


def _as_user(user):
    """preexec_fn: drop root to USER (PostgreSQL refuses to run as root),
    then ask for SIGKILL when the test process dies, so that a killed test
    (a ctest timeout) leaves no server behind.  The death signal is set after
    the change of user, which would clear it."""
    def run():
        if user is not None:
            pw = pwd.getpwnam(user)
            os.setgroups([])
            os.setgid(pw.pw_gid)
            os.setuid(pw.pw_uid)
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    return run


class Postgres:
    """Debian's PostgreSQL 15: initdb in a fresh directory (trust, user
    `tester`), the postmaster on 127.0.0.1:<free port> with no unix socket,
    stopped by stop() or when the test exits (killed if it dies first).  As
    root it runs as the Debian user postgres."""

    def __init__(self, tag):
        if not os.path.exists(os.path.join(PG_BIN, "postgres")):
            unavailable("PostgreSQL 15 is not installed (%s)" % PG_BIN, "postgresql-15")
        user = None
        if os.getuid() == 0:
            try:
                user = pwd.getpwnam("postgres").pw_name
            except KeyError:
                unavailable("running as root and there is no user postgres to run PostgreSQL as",
                            "postgresql-15")
        self.dir = tempfile.mkdtemp(prefix="server-pg15-%s-" % tag)
        atexit.register(shutil.rmtree, self.dir, True)
        data = os.path.join(self.dir, "data")
        os.mkdir(data, 0o700)
        if user is not None:
            os.chown(self.dir, pwd.getpwnam(user).pw_uid, -1)
            os.chown(data, pwd.getpwnam(user).pw_uid, -1)
        subprocess.run([os.path.join(PG_BIN, "initdb"), "-D", data, "-U", "tester",
                        "--auth=trust", "-E", "UTF8", "--no-locale"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       preexec_fn=_as_user(user), cwd=self.dir)
        for _ in range(5):  # the free port may be taken between probe and bind
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
            s.close()
            self.host = "127.0.0.1"
            log = open(os.path.join(self.dir, "log"), "wb")
            self.proc = subprocess.Popen(
                [os.path.join(PG_BIN, "postgres"), "-D", data, "-p", str(self.port),
                 "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                 "-c", "TimeZone=UTC", "-c", "fsync=off"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=_as_user(user), cwd=self.dir)
            log.close()
            _started.append(self.proc)
            deadline = time.time() + 30
            while self.proc.poll() is None and time.time() < deadline:
                if self._ready():
                    return
                time.sleep(0.1)
            self.proc.kill()
            self.proc.wait()
            _started.remove(self.proc)
        with open(os.path.join(self.dir, "log"), errors="replace") as f:
            raise RuntimeError("PostgreSQL did not start: %s" % f.read())

    def _ready(self):
        """A session starts: the port may accept before the server takes
        sessions (FATAL 57P03 "the database system is starting up")."""
        try:
            c = Raw(self.port, self.host)
            c.startup(user="tester", database="postgres")
            ok = c.until_ready()[-1] == (b"Z", b"I")
            c.close()
            return ok
        except (OSError, EOFError):
            return False

    def stop(self):
        """Fast shutdown (SIGINT); returns the exit status."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _started.remove(self.proc)
        return self.proc.returncode


def _cleanup():
    for p in _started:
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(_cleanup)


def run_cli(hivelite, warehouse, sql):
    """Runs SQL with the hivelite CLI (setup of tables)."""
    subprocess.run([hivelite, "-w", warehouse, "-c", sql], check=True,
                   stdout=subprocess.DEVNULL)


class Raw:
    """A protocol-3.0 client at the byte level: messages as (type, body)."""

    def __init__(self, port, host="127.0.0.1"):
        self.s = socket.create_connection((host, port), timeout=30)
        self.buf = b""

    def send(self, data):
        self.s.sendall(data)

    def msg(self, t, body=b""):
        self.send(t + struct.pack("!I", len(body) + 4) + body)

    def startup(self, user="tester", database="db", extra=()):
        body = struct.pack("!I", 196608)
        for k, v in (("user", user), ("database", database)) + tuple(extra):
            body += k.encode() + b"\0" + v.encode() + b"\0"
        body += b"\0"
        self.send(struct.pack("!I", len(body) + 4) + body)

    def _fill(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk

    def byte(self):
        self._fill(1)
        b, self.buf = self.buf[:1], self.buf[1:]
        return b

    def read(self):
        self._fill(5)
        t = self.buf[:1]
        n = struct.unpack("!I", self.buf[1:5])[0]
        self._fill(1 + n)
        body, self.buf = self.buf[5:1 + n], self.buf[1 + n:]
        return t, body

    def until_ready(self):
        """Messages up to and including ReadyForQuery."""
        out = []
        while True:
            t, body = self.read()
            out.append((t, body))
            if t == b"Z":
                return out

    def closed(self):
        """True when the server closed the connection (after any messages)."""
        try:
            while True:
                self.read()
        except (EOFError, ConnectionResetError):
            return True

    def close(self):
        self.s.close()


def fields(body):
    """ErrorResponse / NoticeResponse fields as {code: text}."""
    out = {}
    while body and body[:1] != b"\0":
        code = body[:1].decode()
        end = body.index(b"\0", 1)
        out[code] = body[1:end].decode()
        body = body[end + 1:]
    return out


def query_message(sql):
    return b"Q" + struct.pack("!I", len(sql.encode()) + 5) + sql.encode() + b"\0"
