"""s3env.py -- the S3 test environment: s3rver (npm, tests/s3/package.json)
on loopback as the S3 API server the S3 storage backend's tests talk to,
and boto3 (Debian's python3-boto3, /usr/bin/python3) as an independent
client to prepare and check what hivelite did.

    import s3env
    s3env.require()                   # skip (77) or, under CI=true, fail
    with s3env.S3Server(tmpdir) as srv:
        s3 = srv.client()             # boto3, path-style, us-east-1
        srv.create_bucket("b")
        ... srv.endpoint, srv.access_key, srv.secret_key ...

Each S3Server is its own s3rver process in its own process group with its
own data directory under tmpdir, on a port the kernel chose (s3rver is
started with -p 0 and prints the port it bound, so there is no window in
which another process can take a port we picked).  It is stopped with its
whole process group on __exit__, and by atexit and SIGTERM as a last
resort, so a failing test leaves no server behind.  Facts about what
s3rver implements: README.md next to this file.
"""
import atexit
import fcntl
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
S3RVER_JS = os.path.join(HERE, "node_modules", "s3rver", "bin", "s3rver.js")
# s3rver's built-in account (lib/models/account.js)
ACCESS_KEY = "S3RVER"
SECRET_KEY = "S3RVER"
REGION = "us-east-1"

# servers still running, stopped at exit whatever happened to the test
_live = set()


def unavailable(why):
    """Exit 77 (CTest's SKIP_RETURN_CODE), or 1 under CI=true, where the
    S3 peer is the oracle that must run."""
    if os.environ.get("CI") == "true":
        print("FAIL: %s (CI=true: the S3 peer must run; scripts/install-deps.sh "
              "installs node, npm and python3-boto3)" % why, flush=True)
        sys.exit(1)
    print("SKIP: %s" % why, flush=True)
    sys.exit(77)


def _install():
    """npm install of tests/s3/package.json into tests/s3/node_modules when
    that is missing or older than package.json -- the rule of
    tests/npm_peer.sh, under the same per-directory lock file, so that
    parallel tests install once and never load a half-written tree."""
    stamp = os.path.join(HERE, "node_modules", ".package-lock.json")
    with open(os.path.join(HERE, ".npm-install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (not os.path.exists(stamp) or
                os.path.getmtime(os.path.join(HERE, "package.json")) >
                os.path.getmtime(stamp)):
            if not shutil.which("npm"):
                unavailable("npm is not installed")
            r = subprocess.run(["npm", "install", "--no-audit", "--no-fund"],
                               cwd=HERE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                unavailable("npm install of %s/package.json failed (offline?)" % HERE)
        if not os.path.exists(S3RVER_JS):
            unavailable("s3rver is missing from %s/node_modules" % HERE)


def require():
    """Everything the S3 tests need, or skip/fail as unavailable() says."""
    if not shutil.which("node"):
        unavailable("node is not installed")
    try:
        import boto3  # noqa: F401
        import botocore.config  # noqa: F401
    except ImportError:
        unavailable("python3-boto3 is not installed (for %s)" % sys.executable)
    _install()


def node_major():
    out = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    m = re.match(r"v(\d+)", out.strip())
    return int(m.group(1)) if m else 0


def _die_with_parent():
    # in the child before exec: SIGTERM when the test process dies, even by
    # SIGKILL (CTest's TIMEOUT), when neither atexit nor a handler can run
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _stop_all():
    for srv in list(_live):
        srv.stop()


atexit.register(_stop_all)


def _on_term(signum, frame):
    _stop_all()
    sys.exit(128 + signum)


# atexit does not run when the test is terminated by a signal (CTest's
# TIMEOUT, a user's kill): turn SIGTERM into an exit, unless the test
# installed a handler of its own.
if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
    signal.signal(signal.SIGTERM, _on_term)


class S3Server:
    """One s3rver on 127.0.0.1:<free port> with its data in tmpdir/name.

    s3rver checks no Signature V4 (README.md): put fault_proxy.FaultProxy
    with verify_sigv4 in front of it to have signatures checked.
    strict=False passes --allow-mismatched-signatures, which only relaxes
    its Signature V2 check; vhost=False passes --no-vhost-buckets."""

    def __init__(self, tmpdir, name="s3rver", strict=True, vhost=True,
                 start_timeout=30.0, tls=None):
        self.datadir = os.path.join(tmpdir, name)
        self.tls = tls  # (key file, certificate file): https
        self.logpath = os.path.join(tmpdir, name + ".log")
        self.strict = strict
        self.vhost = vhost
        self.start_timeout = start_timeout
        self.proc = None
        self.port = None
        self.host = "127.0.0.1"
        self.access_key = ACCESS_KEY
        self.secret_key = SECRET_KEY
        self.region = REGION

    @property
    def endpoint(self):
        return "%s://%s:%d" % ("https" if self.tls else "http", self.host, self.port)

    def argv(self):
        # Node >= 17 links OpenSSL 3, where DES (s3rver's cipher for
        # ListObjectsV2 continuation tokens) is in the legacy provider:
        # without it a truncated listing fails with 500 InternalError.
        argv = ["node"]
        if node_major() >= 17:
            argv.append("--openssl-legacy-provider")
        argv += [S3RVER_JS, "-d", self.datadir, "-a", self.host, "-p", "0"]
        if not self.strict:
            argv.append("--allow-mismatched-signatures")
        if not self.vhost:
            argv.append("--no-vhost-buckets")
        if self.tls:
            argv += ["--key", self.tls[0], "--cert", self.tls[1]]
        return argv

    def start(self):
        os.makedirs(self.datadir, exist_ok=True)
        log = open(self.logpath, "ab")
        # stdout is a pipe: its first line names the port; afterwards a
        # thread copies s3rver's request log from it into logpath.
        self.proc = subprocess.Popen(self.argv(), stdout=subprocess.PIPE,
                                     stderr=log, stdin=subprocess.DEVNULL,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        _live.add(self)
        log.close()
        deadline = time.monotonic() + self.start_timeout
        buf = b""
        fd = self.proc.stdout.fileno()
        while self.port is None:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise RuntimeError("s3rver did not start within %.0f s (log: %s)"
                                   % (self.start_timeout, self.logpath))
            r, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not r:
                if self.proc.poll() is not None:
                    break
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
            m = re.search(rb"S3rver listening on [^:\s]+:(\d+)", buf)
            if m:
                self.port = int(m.group(1))
        if self.port is None:
            rc = self.proc.poll()
            self.stop()
            raise RuntimeError("s3rver exited (%s) before listening: %r (log: %s)"
                               % (rc, buf[-500:], self.logpath))
        self._drain(buf)
        self._wait_ready(deadline)
        return self

    def _drain(self, first):
        # s3rver writes a line per request to stdout; copy them to the log
        # so the pipe never fills and a failing test can show them.
        def run(out, path, first):
            with open(path, "ab") as f:
                f.write(first)
                for line in iter(out.readline, b""):
                    f.write(line)
                    f.flush()
        t = threading.Thread(target=run, args=(self.proc.stdout, self.logpath, first),
                             daemon=True)
        t.start()

    def _wait_ready(self, deadline):
        # the socket is bound before the line is printed; one anonymous GET /
        # (403 AccessDenied for an unsigned request) proves it answers HTTP
        ctx = None
        if self.tls:
            import ssl
            ctx = ssl.create_default_context(cafile=self.tls[1])
        while True:
            try:
                urllib.request.urlopen(self.endpoint + "/", timeout=2, context=ctx).close()
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("s3rver on %s does not answer" % self.endpoint)
                time.sleep(0.05)

    def stop(self):
        """SIGTERM to the process group, SIGKILL after 5 s; idempotent."""
        p = self.proc
        if p is None:
            return
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        # children of the group that outlived the leader
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if p.stdout:
            p.stdout.close()
        self.proc = None
        _live.discard(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def client(self, endpoint=None, retries=None, access_key=None, secret_key=None,
               **config):
        """A boto3 S3 client for this server (or for endpoint, e.g. a
        fault proxy in front of it): path-style addressing, us-east-1,
        Signature V4.  retries: the number of attempts in all
        (botocore's total_max_attempts, "standard" retry mode) (None = botocore's default); access_key/secret_key
        replace s3rver's (to test refusals); config: further botocore
        Config arguments."""
        import boto3
        from botocore.config import Config
        cfg = dict(s3={"addressing_style": "path"}, signature_version="s3v4",
                   connect_timeout=5, read_timeout=15)
        if retries is not None:
            cfg["retries"] = {"total_max_attempts": retries, "mode": "standard"}
        cfg.update(config)
        return boto3.session.Session().client(
            "s3", endpoint_url=endpoint or self.endpoint, region_name=self.region,
            aws_access_key_id=access_key or self.access_key,
            aws_secret_access_key=secret_key or self.secret_key,
            verify=self.tls[1] if self.tls and not endpoint else None,
            config=Config(**cfg))

    def create_bucket(self, name):
        self.client().create_bucket(Bucket=name)
        return name
