#!/usr/bin/python3
"""py_drivers.py -- `hivelite serve` with Debian's psycopg2 and psycopg 3 (the
drivers of /usr/bin/python3): every Hive type as the Python value each
driver makes of it (text results, and psycopg 3's binary results, which
exercise the binary encoders), cursor.description type codes, errors as the
driver's exception classes with SQLSTATE and position, MSCK's warnings in
connection.notices, commit/rollback with autocommit off, psycopg2's client-
side parameters (strings with quotes and backslashes inserted and read back
exactly: the server's strings are standard; cursor.rowcount of INSERT,
INSERT OVERWRITE and CREATE TABLE AS), psycopg 3's server-side parameters of every type in text
and binary (WHERE, SELECT list, INSERT; a bad integer is 22P02), and
connection.cancel() of a long query
(57014).  Exit 77 when a driver is missing (1 under CI=true).
"""
import argparse
import datetime
import os
import sys
import threading
import time
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Server, run_cli, tmpdir, unavailable  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()
try:
    import psycopg2
    import psycopg2.errors
    import psycopg
except ImportError as e:
    unavailable("psycopg2 or psycopg is not installed (%s)" % e, "python3-psycopg2 python3-psycopg")

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


wh = os.path.join(tmpdir("psycopg"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE DATABASE web; CREATE TABLE web.t (id INT, small SMALLINT, name STRING, "
        "score DOUBLE, ratio FLOAT, amount DECIMAL(12,3), day DATE, ts TIMESTAMP, ok BOOLEAN, "
        "big BIGINT, code VARCHAR(8), raw BINARY); "
        "INSERT INTO web.t VALUES (1, 7, 'ann', 1.5, 0.5, 12345.678, '2024-01-02', "
        "'2024-01-02 03:04:05.123456', true, 9000000000, 'x1', cast('hi' AS BINARY)), "
        "(2, -7, NULL, -0.1, -2.25, -0.001, '1999-12-31', '1970-01-01 00:00:00', false, "
        "-9000000000, NULL, NULL); "
        "CREATE TABLE web.p (x INT) PARTITIONED BY (k STRING); "
        "CREATE TABLE n (x INT); INSERT INTO n SELECT pos FROM (SELECT 1) d "
        "LATERAL VIEW posexplode(split(space(999), ' ')) t AS pos, v;")
os.makedirs(os.path.join(wh, "web.db", "p", "junk"))
srv = Server(opts.hivelite, wh, "--auth", "trust")
dsn = "host=127.0.0.1 port=%d user=py dbname=warehouse connect_timeout=10" % srv.port
QUERY = "SELECT * FROM web.t ORDER BY id"
ROWS = [
    (1, 7, "ann", 1.5, 0.5, Decimal("12345.678"), datetime.date(2024, 1, 2),
     datetime.datetime(2024, 1, 2, 3, 4, 5, 123456), True, 9000000000, "x1", b"hi"),
    (2, -7, None, -0.1, -2.25, Decimal("-0.001"), datetime.date(1999, 12, 31),
     datetime.datetime(1970, 1, 1), False, -9000000000, None, None),
]
OIDS = [23, 21, 25, 701, 700, 1700, 1082, 1114, 16, 20, 1043, 17]


def plain(rows):
    return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in rows]


# ---- psycopg2 ----
c = psycopg2.connect(dsn)
cur = c.cursor()
cur.execute(QUERY)
check("psycopg2 rows", plain(cur.fetchall()), ROWS)
check("psycopg2 type codes", [d.type_code for d in cur.description], OIDS)
check("psycopg2 column names", [d.name for d in cur.description][:3], ["id", "small", "name"])
c.rollback()
# Hive's interval types go out as text (OID 25) in Hive's printed form:
# PostgreSQL's interval (1186) would print "1 day 02:03:04.5"
cur.execute("SELECT interval '1 02:03:04.5' day to second AS d, interval '-1-2' year to month AS m, "
            "date '2012-01-31' + interval '1' month AS x")
check("psycopg2 intervals", cur.fetchall(),
      [("1 02:03:04.500000000", "-1-2", datetime.date(2012, 2, 29))])
check("psycopg2 interval type codes", [d.type_code for d in cur.description], [25, 25, 1082])
c.rollback()
try:
    cur.execute("SELECT * FROM web.nosuch")
    failures.append("psycopg2: no error")
except psycopg2.errors.UndefinedTable as e:
    check("psycopg2 error", (e.pgcode, e.diag.statement_position, e.diag.message_primary),
          ("42P01", "15", 'table "web.nosuch" does not exist'))
c.rollback()
# an error with a hint (ErrorResponse field H) and no detail (field D)
try:
    cur.execute("SET hivelite.storage.allowed_locations=/nonexistent-allowed")
    cur.execute("CREATE EXTERNAL TABLE web.outside (v STRING) LOCATION '/nonexistent-outside'")
    failures.append("psycopg2: no allowlist error")
except psycopg2.Error as e:
    check("psycopg2 error hint", (e.pgcode, e.diag.message_detail, e.diag.message_hint),
          ("42501", None, "Add the location to hivelite.storage.allowed_locations, or leave the "
           "setting empty to allow every location."))
c.rollback()
cur.execute("SET hivelite.storage.allowed_locations=")
c.commit()
cur.execute("SELECT id FROM web.t WHERE name = %s", ("ann",))
check("psycopg2 client-side parameter", cur.fetchall(), [(1,)])
c.commit()
# psycopg2 quotes parameters itself, for standard_conforming_strings=on:
# 'it''s', backslashes as they are; every string reads back byte for byte
STRINGS = ["it's", "a\\b", "c\\", "'", "''", "\\'", "x\\ny", "tab\there", "line\nfeed",
           "semi\\'; SELECT 1", '"q"', "\u00fc\u20ac", "", "--x", "/*y*/", "E'z'"]
cur.execute("CREATE TABLE web.s (id INT, v STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
            "ESCAPED BY '\\'")  # one backslash: standard strings
for i, v in enumerate(STRINGS):
    cur.execute("INSERT INTO web.s VALUES (%s, %s)", (i, v))
    check("psycopg2 rowcount of INSERT %d" % i, cur.rowcount, 1)
cur.execute("INSERT INTO web.s SELECT id + 100, v FROM web.s WHERE id < 3")
check("psycopg2 rowcount of INSERT SELECT", cur.rowcount, 3)
cur.execute("INSERT OVERWRITE TABLE web.s SELECT id, v FROM web.s WHERE id < 100")
check("psycopg2 rowcount of INSERT OVERWRITE", cur.rowcount, len(STRINGS))
cur.execute("CREATE TABLE web.s2 STORED AS PARQUET AS SELECT * FROM web.s")
check("psycopg2 rowcount of CREATE TABLE AS", cur.rowcount, len(STRINGS))
cur.execute("DROP TABLE web.s2")
check("psycopg2 rowcount of DROP TABLE", cur.rowcount, -1)
c.commit()
cur.execute("SELECT v FROM web.s WHERE id >= %s ORDER BY id", (0,))
check("psycopg2 quoted strings read back", [r[0] for r in cur.fetchall()], STRINGS)
cur.execute("SELECT id FROM web.s WHERE v = %s", ("semi\\'; SELECT 1",))
check("psycopg2 quoted string in WHERE", cur.fetchall(), [(9,)])
cur.execute("SELECT E'a\\tb\\\\', 'a\\tb', E'it\\'s', 'x''y'")
check("psycopg2 E'' and standard literals", cur.fetchall(), [("a\tb\\", "a\\tb", "it's", "x'y")])
c.commit()
cur.execute("MSCK REPAIR TABLE web.p")
check("psycopg2 notices", c.notices, ["WARNING:  Skipped junk: not a key=value directory name\n"])
c.commit()
c.autocommit = True
cur.execute("SHOW transaction_isolation")
check("psycopg2 SHOW", cur.fetchall(), [("read committed",)])
threading.Timer(0.5, c.cancel).start()
t0 = time.time()
try:
    cur.execute("SELECT count(*) FROM n a CROSS JOIN n b CROSS JOIN n c")
    failures.append("psycopg2: the long query was not cancelled")
except psycopg2.errors.QueryCanceled as e:
    check("psycopg2 cancel", (e.pgcode, str(e).strip(), time.time() - t0 < 20),
          ("57014", "canceling statement due to user request", True))
cur.execute("SELECT 1")
check("psycopg2 after cancel", cur.fetchall(), [(1,)])
c.close()

# ---- psycopg 3 ----
with psycopg.connect(dsn) as c:
    check("psycopg text rows", plain(c.execute(QUERY).fetchall()), ROWS)
    cur = c.cursor(binary=True)
    cur.execute(QUERY)
    check("psycopg binary rows", plain(cur.fetchall()), ROWS)
    check("psycopg type codes", [d.type_code for d in cur.description], OIDS)
    c.rollback()
    # server-side parameters, text and binary, every type
    args = (1, 7, "ann", 1.5, Decimal("12345.678"), datetime.date(2024, 1, 2),
            datetime.datetime(2024, 1, 2, 3, 4, 5, 123456), True, 9000000000, b"hi")
    where = ("SELECT id FROM web.t WHERE id = %s AND small = %s AND name = %s AND score = %s "
             "AND amount = %s AND day = %s AND ts = %s AND ok = %s AND big = %s AND raw = %s")
    check("psycopg text parameters", c.execute(where, args).fetchall(), [(1,)])
    check("psycopg binary parameters",
          c.cursor(binary=True).execute(where.replace("%s", "%b"), args).fetchall(), [(1,)])
    check("psycopg parameters as values",
          plain(c.execute("SELECT %s, %s, %s, %s, %s", (41, "it's", 2.5, False, None)).fetchall()),
          [(41, "it's", 2.5, False, None)])
    check("psycopg binary parameters as values",
          plain(c.cursor(binary=True).execute(
              "SELECT %b, %b, %b, %b", (Decimal("-12.5"), b"xy", datetime.date(2020, 2, 3),
                                         datetime.datetime(2020, 1, 1, 1, 2, 3, 456))).fetchall()),
          [(Decimal("-12.5"), b"xy", datetime.date(2020, 2, 3),
            datetime.datetime(2020, 1, 1, 1, 2, 3, 456))])
    check("psycopg rowcount of INSERT with parameters (extended protocol)",
          c.execute("INSERT INTO web.t (id, name) VALUES (%s, %s)", (3, "o'neil")).rowcount, 1)
    check("psycopg INSERT with parameters",
          c.execute("SELECT name FROM web.t WHERE id = %s", (3,)).fetchall(), [("o'neil",)])
    try:
        c.execute("SELECT id FROM web.t WHERE id = %s", ("x1",))
        failures.append("psycopg: no error for a bad parameter")
    except psycopg.Error as e:
        check("psycopg bad integer parameter", (e.sqlstate, str(e)),
              ("22P02", "invalid input syntax for an integer in bind parameter 1"))
    c.rollback()
    try:
        c.execute("SELECT nope FROM web.t")
        failures.append("psycopg: no error")
    except psycopg.errors.UndefinedColumn as e:
        check("psycopg error", (e.sqlstate, e.diag.statement_position), ("42703", "8"))
    c.rollback()
    check("psycopg after errors", c.execute("SELECT count(*) FROM web.t").fetchone(), (3,))

rc, _ = srv.stop()
check("exit status", rc, 0)
for f in failures:
    print("FAIL " + f)
print("py_drivers: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
