#!/usr/bin/python3
"""pg_compare.py -- `hivelite serve` against a real PostgreSQL 15 (Debian's,
started by the test on a free loopback port, pgserver.Postgres): the same
byte-level client script runs against both servers, and the answers are
compared where PostgreSQL's behaviour is the reference: the ParameterStatus
set at startup, ErrorResponse fields (severity, SQLSTATE, position) of
syntax errors and unknown names, RowDescription type OIDs, lengths and
typmods of every mapped type, text and binary results of each type (the
binary ones pgJDBC asks for), ParameterDescription, EmptyQueryResponse,
several statements in one simple query with an error in the middle, and
transaction status bytes, command tags and warnings through BEGIN / COMMIT
/ ROLLBACK.  Where hivelite differs on purpose, the check names the
difference and says why.  Both servers are stopped at the end, also when a
check fails (PostgreSQL is killed with the test if the test dies).
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Postgres, Raw, Server, fields, query_message, run_cli, tmpdir  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  hivelite   %r\n  PostgreSQL %r" % (what, got, want))


# ---- the same rows in both: every mapped type, and a small table ----
HIVE_TYPES = ("b BOOLEAN, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, n DECIMAL(10,2), "
              "s STRING, vc VARCHAR(5), c CHAR(3), dt DATE, ts TIMESTAMP, by BINARY")
PG_TYPES = ("b boolean, si smallint, i int, bi bigint, f real, d double precision, "
            "n numeric(10,2), s text, vc varchar(5), c char(3), dt date, ts timestamp, by bytea")
ROW = ("true, 7, 123456, 1234567890123, 1.5, -2.25, 12.34, 'abc', 'xy', 'ab', "
       "DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789', %s")
wh = os.path.join(tmpdir("compare"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE TABLE ty (%s); INSERT INTO ty SELECT %s; "
        "CREATE TABLE t (a INT, s STRING); INSERT INTO t VALUES (1, 'x');"
        % (HIVE_TYPES, ROW % "CAST('bin' AS BINARY)"))
hl = Server(opts.hivelite, wh, "--auth", "trust")
pg = Postgres("compare")
servers = {"hivelite": hl, "postgresql": pg}


def connect(name):
    c = Raw(servers[name].port)
    c.startup(user="tester", database="postgres", extra=(("application_name", "cmp"),))
    return c, c.until_ready()


def simple(c, sql):
    c.send(query_message(sql))
    return c.until_ready()


def summary(msgs):
    """What the comparison looks at: message types, error and notice
    severity / SQLSTATE / position, command tags, transaction status."""
    out = []
    for t, body in msgs:
        if t in (b"E", b"N"):
            f = fields(body)
            out.append((t.decode(), f.get("S"), f.get("V"), f.get("C"), f.get("P")))
        elif t == b"C":
            out.append(("C", body.rstrip(b"\0").decode()))
        elif t == b"Z":
            out.append(("Z", body.decode()))
        else:
            out.append(t.decode())
    return out


def cstr(s):
    return s.encode() + b"\0"


def msg(t, body):
    return t + struct.pack("!I", len(body) + 4) + body


def extended(c, sql, params=(), result_binary=False, types=()):
    """Parse (parameter type OIDs TYPES, else unspecified), Describe
    statement, Bind (text parameters; results binary if asked), Execute,
    Sync."""
    fmt = struct.pack("!HH", 1, 1) if result_binary else struct.pack("!H", 0)
    bind = b"\0\0" + struct.pack("!HH", 0, len(params))
    for p in params:
        bind += struct.pack("!I", len(p)) + p.encode()
    parse = b"\0" + cstr(sql) + struct.pack("!H", len(types)) + b"".join(
        struct.pack("!I", t) for t in types)
    c.send(msg(b"P", parse) + msg(b"D", b"S\0") +
           msg(b"B", bind + fmt) + msg(b"E", b"\0" + struct.pack("!I", 0)) + msg(b"S", b""))
    return c.until_ready()


def row_description(body):
    """(name, type OID, type length, typmod, format) of each field; table OID
    and column number left out: hivelite has no table OIDs (docs/server.md)."""
    n = struct.unpack("!H", body[:2])[0]
    out, body = [], body[2:]
    for _ in range(n):
        end = body.index(b"\0")
        name = body[:end].decode()
        _table, _col, oid, size, mod, fmt = struct.unpack("!IhIhih", body[end + 1:end + 19])
        out.append((name, oid, size, mod, fmt))
        body = body[end + 19:]
    return out


def data_row(body):
    n = struct.unpack("!H", body[:2])[0]
    out, body = [], body[2:]
    for _ in range(n):
        size = struct.unpack("!i", body[:4])[0]
        out.append(None if size < 0 else body[4:4 + size])
        body = body[4 + max(size, 0):]
    return out


def first(msgs, t):
    return next(body for mt, body in msgs if mt == t)


conns, startup = {}, {}
for name in servers:
    conns[name], startup[name] = connect(name)
pc = conns["postgresql"]
setup = simple(pc, "CREATE TABLE ty (%s); INSERT INTO ty VALUES (%s); "
               "CREATE TABLE t (a int, s text); INSERT INTO t VALUES (1, 'x');"
               % (PG_TYPES, ROW % "'bin'::bytea"))
if any(t == b"E" for t, _ in setup):
    sys.exit("PostgreSQL setup failed: %r" % setup)


def both(fn):
    return {name: fn(conns[name]) for name in servers}


try:
    # ---- startup: the same ParameterStatus names; the values PostgreSQL's
    # except server_version (hivelite names itself) and is_superuser (the
    # test's PostgreSQL user is the superuser; hivelite sessions are not)
    status = {}
    for name, msgs in startup.items():
        status[name] = dict(tuple(x.decode() for x in body.split(b"\0")[:2])
                            for t, body in msgs if t == b"S")
    check("ParameterStatus names", sorted(status["hivelite"]), sorted(status["postgresql"]))
    for k, v in status["postgresql"].items():
        if k not in ("server_version", "is_superuser"):
            check("ParameterStatus %s" % k, status["hivelite"].get(k), v)
    check("server_version is a 14 or later number",
          int(status["hivelite"].get("server_version", "0").split(".")[0]) >= 14, True)
    check("message types of the startup", summary(startup["hivelite"])[-2:],
          summary(startup["postgresql"])[-2:])

    # ---- errors: severity (S, and V the untranslated one), SQLSTATE and
    # the position in the query string
    for sql in ("SELEC 1", "SELECT 1 +", "SELECT nosuch FROM t", "SELECT a FROM nosuch",
                "SELECT a, s FROM t WHERE nosuch = 1"):
        got = both(lambda c: summary(simple(c, sql)))
        check("error of %r" % sql, got["hivelite"], got["postgresql"])
    # ... and at Parse in the extended protocol
    got = both(lambda c: summary(extended(c, "SELECT nosuch FROM t")))
    check("error at Parse", got["hivelite"], got["postgresql"])

    # ---- RowDescription and results of every mapped type
    got = both(lambda c: simple(c, "SELECT * FROM ty"))
    check("RowDescription of every type", row_description(first(got["hivelite"], b"T")),
          row_description(first(got["postgresql"], b"T")))
    check("text results of every type", data_row(first(got["hivelite"], b"D")),
          data_row(first(got["postgresql"], b"D")))
    got = both(lambda c: extended(c, "SELECT * FROM ty", result_binary=True))
    hb, pb = (data_row(first(got[n], b"D")) for n in ("hivelite", "postgresql"))
    for (name, *_), h, p in zip(row_description(first(got["postgresql"], b"T")), hb, pb):
        check("binary result of %s" % name, h, p)
    check("extended query message types", summary(got["hivelite"]), summary(got["postgresql"]))

    # ---- parameters: the type ParameterDescription gives, and the answer
    got = both(lambda c: extended(c, "SELECT s FROM t WHERE a = $1", params=("1",)))
    check("ParameterDescription", first(got["hivelite"], b"t"), first(got["postgresql"], b"t"))
    check("parameterized query", summary(got["hivelite"]), summary(got["postgresql"]))
    check("parameterized answer", first(got["hivelite"], b"D"), first(got["postgresql"], b"D"))

    # a parameter no context types: text for both, known at Describe
    got = both(lambda c: extended(c, "SELECT $1 AS p", params=("x",)))
    check("ParameterDescription of SELECT $1", first(got["hivelite"], b"t"),
          first(got["postgresql"], b"t"))
    check("RowDescription of SELECT $1", row_description(first(got["hivelite"], b"T")),
          row_description(first(got["postgresql"], b"T")))
    check("answer of SELECT $1", summary(got["hivelite"]), summary(got["postgresql"]))

    # timestamptz parameters (pgJDBC's setTimestamp with a zone, psycopg's
    # aware datetimes): the instant, in the session's TimeZone (UTC)
    for v in ("2024-02-29 12:34:56.789+00", "2024-02-29 14:34:56.789+02",
              "2024-02-29 07:04:56.789-05:30"):
        got = both(lambda c: extended(c, "SELECT i FROM ty WHERE ts = $1", params=(v,),
                                      types=(1184,)))
        check("timestamptz parameter %s" % v, summary(got["hivelite"]), summary(got["postgresql"]))

    # ---- EmptyQueryResponse: simple and extended
    for sql in ("", ";", "  -- nothing\n"):
        got = both(lambda c: summary(simple(c, sql)))
        check("simple query %r" % sql, got["hivelite"], got["postgresql"])
    got = both(lambda c: summary(extended(c, "")))
    check("extended empty query", got["hivelite"], got["postgresql"])

    # ---- several statements with an error in the middle: the statements
    # before it ran and answered, the rest skipped, the position counted in
    # the whole string
    sql = "SELECT 1; SELECT nosuch FROM t; SELECT 3"
    got = both(lambda c: summary(simple(c, sql)))
    check("error in the middle of %r" % sql, got["hivelite"], got["postgresql"])
    # A syntax error in the middle differs on purpose: PostgreSQL parses the
    # whole string before running any of it, hivelite parses each statement
    # when it runs (a statement may name a table an earlier one creates, and
    # the library binds names when it prepares), so SELECT 1 has answered.
    sql = "SELECT 1; SELEC 2; SELECT 3"
    got = both(lambda c: summary(simple(c, sql)))
    check("PostgreSQL: a syntax error in the middle runs nothing", got["postgresql"],
          [("E", "ERROR", "ERROR", "42601", "11"), ("Z", "I")])
    check("hivelite: a syntax error in the middle", got["hivelite"],
          ["T", "D", ("C", "SELECT 1"), ("E", "ERROR", "ERROR", "42601", "11"), ("Z", "I")])

    # ---- transaction status bytes, command tags and warnings
    script = ["BEGIN", "SELECT 1", "COMMIT",
              "BEGIN", "ROLLBACK",
              "START TRANSACTION", "SELECT nosuch FROM t", "SELECT 1", "COMMIT",
              "BEGIN", "SELECT nosuch FROM t", "ROLLBACK",
              "COMMIT", "ROLLBACK", "BEGIN", "BEGIN", "END",
              "BEGIN; SELECT 1", "COMMIT", "SELECT 1; BEGIN; SELECT 2; COMMIT"]
    got = both(lambda c: [summary(simple(c, sql)) for sql in script])
    for sql, h, p in zip(script, got["hivelite"], got["postgresql"]):
        check("transaction step %r" % sql, h, p)
finally:
    for c in conns.values():
        c.close()
    code, log = hl.stop()
    pg_code = pg.stop()

check("hivelite exit status", code, 0)
check("PostgreSQL exit status", pg_code, 0)
if failures:
    print("\n".join(failures))
    print("FAILED: %d differences" % len(failures))
    sys.exit(1)
print("OK: hivelite and PostgreSQL 15 answered the same")
