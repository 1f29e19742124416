#!/usr/bin/python3
"""auth.py -- who may connect to `hivelite serve`: `hivelite passwd` writes
SCRAM-SHA-256 verifiers (never the password; an update replaces the line
with a fresh salt), --auth FILE accepts the right password from psql and
psycopg2 (PGPASSWORD / password=) and refuses a wrong one and an unknown
user with the same 28P01 message, a client that does not answer the
challenge gets nothing run; TLS with a certificate openssl makes here
(sslmode=require and verify-full), a cleartext password only inside TLS
(--auth-cleartext: SCRAM still outside it), and the configurations that are
refused.  Exit 77 without psql, psycopg2 or openssl (1 under CI=true).
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Raw, Server, fields, query_message, tmpdir, unavailable  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()
if not shutil.which("psql") or not shutil.which("openssl"):
    unavailable("psql or openssl is not installed", "postgresql-client openssl")
try:
    import psycopg2
except ImportError:
    unavailable("psycopg2 is not installed", "python3-psycopg2")

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


d = tmpdir("auth")
wh = os.path.join(d, "wh")
users = os.path.join(d, "users")


def passwd(user, password):
    p = subprocess.run([opts.hivelite, "passwd", users, user], input=password + "\n",
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr


check("passwd alice", passwd("alice", "s3cret"), (0, ""))
check("passwd bob", passwd("bob", "other pass"), (0, ""))
first = open(users).read()
check("passwd alice again", passwd("alice", "s3cret"), (0, ""))
text = open(users).read()
lines = text.splitlines()
check("users file shape", [re.sub(r":SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}"
                                  r":[A-Za-z0-9+/=]{44}$", ":V", l) for l in lines],
      ["bob:V", "alice:V"])
check("no password in the file", "s3cret" in text or "other pass" in text, False)
check("a new salt on update", [l for l in first.splitlines() if l.startswith("alice")][0] in lines,
      False)
check("file mode", oct(os.stat(users).st_mode & 0o777), "0o600")
check("passwd of a bad name", passwd("a:b", "x"),
      (1, "ERROR 22023: a user name must be 1 to 200 characters without ':' or '#'\n"))

srv = Server(opts.hivelite, wh, "--auth", users)
base_env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=str(srv.port), PGDATABASE="warehouse",
                PGCONNECT_TIMEOUT="10", PGSSLMODE="disable")
base_env.pop("PGPASSWORD", None)


def psql(user, password, sql="SELECT 1 AS one", **env):
    e = dict(base_env, PGUSER=user, **env)
    if password is not None:
        e["PGPASSWORD"] = password
    p = subprocess.run(["psql", "-X", "-w", "-A", "-t", "-c", sql], env=e, capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout, re.sub(r"^psql: error: connection to server at [^,]+, "
                                          r"port \d+ failed: ", "", p.stderr)


check("SCRAM, right password", psql("alice", "s3cret"), (0, "1\n", ""))
check("SCRAM, the other user", psql("bob", "other pass"), (0, "1\n", ""))
bad = (2, "", 'FATAL:  password authentication failed for user "alice"\n')
check("SCRAM, wrong password", psql("alice", "wrong"), bad)
check("SCRAM, unknown user", psql("mallory", "s3cret"),
      (2, "", 'FATAL:  password authentication failed for user "mallory"\n'))
check("no password", psql("alice", None), (2, "", "fe_sendauth: no password supplied\n"))
c = psycopg2.connect(host="127.0.0.1", port=srv.port, user="alice", password="s3cret",
                     dbname="x", sslmode="disable")
cur = c.cursor()
cur.execute("SELECT 40 + 2")
check("psycopg2 SCRAM", cur.fetchall(), [(42,)])
c.close()
try:
    psycopg2.connect(host="127.0.0.1", port=srv.port, user="bob", password="s3cret", dbname="x",
                     sslmode="disable")
    failures.append("psycopg2 with a wrong password connected")
except psycopg2.OperationalError as e:
    check("psycopg2 wrong password", str(e).strip().splitlines()[-1].split(" failed: ")[-1],
          'FATAL:  password authentication failed for user "bob"')
# a client that skips the exchange: the challenge, then FATAL, nothing run
raw = Raw(srv.port)
raw.startup(user="alice")
t, body = raw.read()
check("SASL challenge", (t, body), (b"R", struct.pack("!I", 10) + b"SCRAM-SHA-256\0\0"))
raw.send(query_message("CREATE DATABASE sneaked"))
t, body = raw.read()
check("a query instead of a password", (t, fields(body)["C"]), (b"E", "08P01"))
check("closed", raw.closed(), True)
check("nothing ran", os.path.exists(os.path.join(wh, "sneaked.db")), False)
rc, _ = srv.stop()
check("exit status", rc, 0)

# ---- TLS ----
cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
srv = Server(opts.hivelite, wh, "--auth", users, "--tls-cert", cert, "--tls-key", key,
             "--auth-cleartext")
base_env["PGPORT"] = str(srv.port)
check("TLS required, cleartext inside", psql("alice", "s3cret", PGSSLMODE="require"),
      (0, "1\n", ""))
check("TLS verify-full", psql("alice", "s3cret", PGSSLMODE="verify-full", PGHOST="localhost",
                              PGSSLROOTCERT=cert), (0, "1\n", ""))
check("TLS, wrong password", psql("alice", "nope", PGSSLMODE="require"), bad)
check("no TLS: SCRAM", psql("alice", "s3cret", PGSSLMODE="disable"), (0, "1\n", ""))
c = psycopg2.connect(host="127.0.0.1", port=srv.port, user="bob", password="other pass",
                     dbname="x", sslmode="require")
check("psycopg2 over TLS", (c.info.ssl_in_use, c.info.ssl_attribute("protocol")[:4]),
      (True, "TLSv"))
c.close()
raw = Raw(srv.port)
raw.startup(user="alice")
check("plain connection gets SCRAM, not cleartext", raw.read()[1][:4], struct.pack("!I", 10))
raw.close()
rc, _ = srv.stop()
check("exit status (TLS)", rc, 0)

# ---- refused configurations ----
def serve_fails(*args):
    p = subprocess.run([opts.hivelite, "serve", "-w", wh, "--listen", "127.0.0.1:0"] + list(args),
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stderr.splitlines()[0] if p.stderr else ""


check("cleartext without TLS", serve_fails("--auth", users, "--auth-cleartext"),
      (1, "ERROR 22023: --auth-cleartext needs --tls-cert: a password is sent in clear only "
          "over TLS"))
check("no --auth", serve_fails()[0], 2)
check("missing users file", serve_fails("--auth", os.path.join(d, "none")),
      (1, 'ERROR 58030: cannot read the users file "%s": No such file or directory'
          % os.path.join(d, "none")))
check("cert without key", serve_fails("--auth", "trust", "--tls-cert", cert),
      (1, "ERROR 22023: --tls-cert and --tls-key go together"))
for f in failures:
    print("FAIL " + f)
print("auth: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
