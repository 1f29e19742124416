#!/usr/bin/python3
"""protocol.py -- `hivelite serve` at the byte level (no client library):
startup (SSLRequest and GSSENCRequest answered N without TLS, the exact
ParameterStatus set, BackendKeyData, ReadyForQuery), simple queries with
several statements, EmptyQueryResponse, ErrorResponse fields (severity,
SQLSTATE, message, position), transaction status through BEGIN / error /
ROLLBACK, SET and SHOW of client settings, CancelRequest with the right and
a wrong key, malformed messages (2 GB length, unknown type: FATAL 08P01 and
close), --max-connections (53300), --idle-timeout (57P05), --auth trust
refused on a non-loopback address, and SIGTERM: a running statement
finishes, idle sessions get 57P01, exit status 0.
"""
import argparse
import os
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Raw, Server, fields, query_message, run_cli, tmpdir  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


def types(msgs):
    return b"".join(t for t, _ in msgs).decode()


def connect(port, **kw):
    c = Raw(port)
    c.startup(**kw)
    return c, c.until_ready()


wh = os.path.join(tmpdir("protocol"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE TABLE n (x INT); INSERT INTO n SELECT pos FROM (SELECT 1) d "
        "LATERAL VIEW posexplode(split(space(999), ' ')) t AS pos, v;")
srv = Server(opts.hivelite, wh, "--auth", "trust")

# ---- startup ----
c = Raw(srv.port)
c.send(struct.pack("!II", 8, 80877103))  # SSLRequest
check("SSLRequest without a certificate", c.byte(), b"N")
c.send(struct.pack("!II", 8, 80877104))  # GSSENCRequest
check("GSSENCRequest", c.byte(), b"N")
c.startup(extra=(("application_name", "proto"),))
msgs = c.until_ready()
check("startup message types", types(msgs), "R" + "S" * 13 + "KZ")
check("AuthenticationOk", msgs[0], (b"R", struct.pack("!I", 0)))
status = dict(tuple(x.decode() for x in body.split(b"\0")[:2]) for t, body in msgs if t == b"S")
check("ParameterStatus", status, {
    "server_version": "14.0 (hivelite 0.1.0)", "server_encoding": "UTF8",
    "client_encoding": "UTF8", "DateStyle": "ISO, MDY", "IntervalStyle": "postgres",
    "integer_datetimes": "on", "standard_conforming_strings": "on", "TimeZone": "UTC",
    "is_superuser": "off", "application_name": "proto",
    "default_transaction_read_only": "off", "in_hot_standby": "off",
    "session_authorization": "tester"})
pid, key = struct.unpack("!ii", msgs[-2][1])
check("ReadyForQuery idle", msgs[-1], (b"Z", b"I"))

# ---- simple query ----
c.send(query_message("SELECT 1 AS one; SELECT 'a' AS s, CAST(NULL AS INT) AS n"))
msgs = c.until_ready()
check("two statements", types(msgs), "TDCTDCZ")
check("RowDescription int", msgs[0][1], struct.pack("!H", 1) + b"one\0" +
      struct.pack("!IhIhih", 0, 0, 23, 4, -1, 0))
check("DataRow 1", msgs[1][1], struct.pack("!HI", 1, 1) + b"1")
check("CommandComplete", msgs[2][1], b"SELECT 1\0")
check("DataRow with NULL", msgs[4][1], struct.pack("!HI", 2, 1) + b"a" + struct.pack("!i", -1))
c.send(query_message("  -- only a comment\n ; ;"))
check("empty query", types(c.until_ready()), "IZ")
c.send(query_message("SELECT 1; SELECT * FROM nosuch; SELECT 2"))
msgs = c.until_ready()
check("error stops the query", types(msgs), "TDCEZ")
check("error fields", fields(msgs[3][1]), {
    "S": "ERROR", "V": "ERROR", "C": "42P01",
    "M": 'table "default.nosuch" does not exist', "P": "25"})
c.send(query_message("SELEC 1"))
err = fields(c.until_ready()[0][1])
check("syntax error code and position", (err["C"], err.get("P")), ("42601", "1"))

# ---- transaction status ----
c.send(query_message("BEGIN"))
msgs = c.until_ready()
check("BEGIN", msgs, [(b"C", b"BEGIN\0"), (b"Z", b"T")])
c.send(query_message("SELECT * FROM nosuch"))
check("error in a block", types(msgs := c.until_ready()) + msgs[-1][1].decode(), "EZE")
c.send(query_message("SELECT 1"))
msgs = c.until_ready()
check("aborted block refuses", (fields(msgs[0][1])["C"], msgs[-1][1]), ("25P02", b"E"))
c.send(query_message("COMMIT"))
check("COMMIT of an aborted block", c.until_ready(), [(b"C", b"ROLLBACK\0"), (b"Z", b"I")])
c.send(query_message("COMMIT"))
msgs = c.until_ready()
check("COMMIT outside a block warns", (types(msgs), fields(msgs[0][1])["C"]), ("NCZ", "25P01"))

# ---- client settings ----
c.send(query_message("SET application_name = 'tool two'; SHOW application_name"))
msgs = c.until_ready()
check("SET reports, SHOW answers", [m for m in msgs if m[0] != b"T"], [
    (b"S", b"application_name\0tool two\0"), (b"C", b"SET\0"),
    (b"D", struct.pack("!HI", 1, 8) + b"tool two"), (b"C", b"SHOW\0"), (b"Z", b"I")])
c.send(query_message("SET client_encoding TO 'LATIN1'"))
check("SET client_encoding LATIN1", fields(c.until_ready()[0][1])["C"], "22023")
c.send(query_message("SET extra_float_digits = 3; SHOW extra_float_digits; "
                     "SET hivelite.progress.delay_ms = 100"))
msgs = c.until_ready()
check("SET of a client and a hivelite setting", [m for m in msgs if m[0] in (b"C", b"D")], [
    (b"C", b"SET\0"), (b"D", struct.pack("!HI", 1, 1) + b"3"), (b"C", b"SHOW\0"),
    (b"C", b"SET\0")])

# ---- statement_timeout is hivelite.statement_timeout ----
c.send(query_message("SET statement_timeout = '200ms'; "
                     "SELECT count(*) FROM n a CROSS JOIN n b CROSS JOIN n c"))
msgs = c.until_ready()
check("statement_timeout", (types(msgs), fields(msgs[1][1])["C"], fields(msgs[1][1])["M"]),
      ("CEZ", "57014", "canceling statement due to statement timeout"))
c.send(query_message("SET statement_timeout TO 0"))
c.until_ready()

# ---- cancel ----
long_query = "SELECT count(*) FROM n a CROSS JOIN n b CROSS JOIN n c"
c.send(query_message(long_query))
time.sleep(0.3)
wrong = Raw(srv.port)
wrong.send(struct.pack("!IIii", 16, 80877102, pid, key ^ 1))
check("a CancelRequest is closed without a reply", wrong.closed(), True)
time.sleep(0.3)
right = Raw(srv.port)
right.send(struct.pack("!IIii", 16, 80877102, pid, key))
right.closed()
t0 = time.time()
msgs = c.until_ready()
check("cancelled query", (types(msgs), fields(msgs[0][1])["C"], fields(msgs[0][1])["M"]),
      ("EZ", "57014", "canceling statement due to user request"))

# ---- malformed input ----
bad = Raw(srv.port)
bad.startup()
bad.until_ready()
bad.send(b"Q" + struct.pack("!I", 0x7FFFFFF0))  # a 2 GB query
t, body = bad.read()
check("2 GB length", (t, fields(body)["C"]), (b"E", "08P01"))
check("closed after a 2 GB length", bad.closed(), True)
bad = Raw(srv.port)
bad.startup()
bad.until_ready()
bad.msg(b"!", b"junk")
t, body = bad.read()
check("unknown message type", (t, fields(body)), (b"E", {
    "S": "FATAL", "V": "FATAL", "C": "08P01", "M": "invalid frontend message type 33"}))
check("closed after an unknown type", bad.closed(), True)
bad = Raw(srv.port)
bad.send(struct.pack("!I", 3))  # a startup length below its own size
check("startup length 3", bad.closed(), True)
bad = Raw(srv.port)
bad.send(struct.pack("!II", 8, 0x00020000))  # protocol 2.0
t, body = bad.read()
check("protocol 2", fields(body)["C"], "0A000")
bad = Raw(srv.port)
bad.startup(user="")
check("no user", fields(bad.read()[1])["C"], "28000")

# ---- SIGTERM: a running statement finishes, idle sessions end with 57P01 ----
idle, _ = connect(srv.port)
c.send(query_message("SELECT count(*) FROM n a CROSS JOIN n b"))
time.sleep(0.2)
srv.terminate()
msgs = c.until_ready()
check("statement running at SIGTERM finishes", msgs[1:], [
    (b"D", struct.pack("!HI", 1, 7) + b"1000000"), (b"C", b"SELECT 1\0"), (b"Z", b"I")])
t, body = idle.read()
check("idle session at shutdown", (t, fields(body)["S"], fields(body)["C"]),
      (b"E", "FATAL", "57P01"))
rc, log = srv.stop()
check("exit status after SIGTERM", (rc, log.strip().splitlines()[-1]), (0, "shut down"))

# ---- limits ----
srv = Server(opts.hivelite, wh, "--auth", "trust", "--max-connections", "2",
             "--idle-timeout", "1")
a, _ = connect(srv.port)
b, _ = connect(srv.port)
third = Raw(srv.port)
third.startup()
t, body = third.read()
check("third connection of two", (t, fields(body)["C"], fields(body)["M"]),
      (b"E", "53300", "sorry, too many clients already"))
t0 = time.time()
t, body = a.read()
waited = time.time() - t0
check("idle timeout", (t, fields(body)["C"], 0.5 < waited < 3), (b"E", "57P05", True))
rc, _ = srv.stop()
check("exit status", rc, 0)

p = subprocess.run([opts.hivelite, "serve", "-w", wh, "--listen", "0.0.0.0:0", "--auth", "trust"],
                   capture_output=True, text=True, timeout=30)
check("trust on 0.0.0.0", (p.returncode, p.stderr.split(" on ")[0]),
      (1, "ERROR 28000: --auth trust is allowed only"))

for f in failures:
    print("FAIL " + f)
print("protocol: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
