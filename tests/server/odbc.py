#!/usr/bin/python3
"""odbc.py -- `hivelite serve` through psqlODBC (Debian's odbc-postgresql
under unixODBC, driven by pyodbc of /usr/bin/python3), compared with the
same calls on a real PostgreSQL 15 (pgserver.Postgres) holding the same
table: a query with parameters, SQLTables (cursor.tables) and SQLColumns
(cursor.columns) with and without patterns, SQLPrimaryKeys (none), and the
queries the driver sends when it connects.  The driver is loaded by path,
so no odbcinst.ini entry is needed.
"""
import argparse
import datetime
import decimal
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Postgres, Raw, Server, query_message, run_cli, tmpdir, unavailable  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()

try:
    import pyodbc
except ImportError:
    unavailable("pyodbc is not installed", "python3-pyodbc")
drivers = glob.glob("/usr/lib/*/odbc/psqlodbcw.so")
if not drivers:
    unavailable("psqlODBC is not installed", "odbc-postgresql unixodbc")

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


wh = os.path.join(tmpdir("odbc"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE DATABASE sales; "
        "CREATE TABLE sales.t (id BIGINT, name STRING, amount DECIMAL(10,2), ts TIMESTAMP, "
        "d DATE) PARTITIONED BY (dt STRING); "
        "INSERT INTO sales.t PARTITION (dt='2024-01-01') VALUES "
        "(1, 'a', 1.50, TIMESTAMP '2024-01-01 10:00:00', DATE '2024-01-01'), "
        "(2, 'b', 2.50, TIMESTAMP '2024-01-01 11:00:00', DATE '2024-01-02'); "
        "CREATE TABLE sales.other_t (x INT);")
hl = Server(opts.hivelite, wh, "--auth", "trust")
pg = Postgres("odbc")
c = Raw(pg.port)
c.startup(user="tester", database="postgres")
c.until_ready()
c.send(query_message(
    "CREATE SCHEMA sales; "
    "CREATE TABLE sales.t (id bigint, name text, amount numeric(10,2), ts timestamp, d date, "
    "dt text); "
    "INSERT INTO sales.t VALUES (1, 'a', 1.50, '2024-01-01 10:00:00', '2024-01-01', "
    "'2024-01-01'), (2, 'b', 2.50, '2024-01-01 11:00:00', '2024-01-02', '2024-01-01'); "
    "CREATE TABLE sales.other_t (x int);"))
if any(t == b"E" for t, _ in c.until_ready()):
    sys.exit("PostgreSQL setup failed")
c.close()


def session(port):
    cn = pyodbc.connect("DRIVER=%s;SERVER=127.0.0.1;PORT=%d;DATABASE=postgres;UID=tester;PWD=x"
                        % (drivers[0], port), autocommit=True, timeout=30)
    return cn, cn.cursor()


def answers(port):
    cn, cur = session(port)
    out = {}
    out["parameters"] = [tuple(r) for r in cur.execute(
        "SELECT id, name, amount, ts, d FROM sales.t WHERE dt = ? AND id >= ? ORDER BY id",
        "2024-01-01", 1).fetchall()]
    out["described columns"] = [d[:2] for d in cur.description]
    out["tables in sales"] = sorted(tuple(r) for r in cur.tables(schema="sales"))
    out["tables like t"] = sorted(tuple(r) for r in cur.tables(table="t", schema="sales"))
    out["tables like %_t"] = sorted(tuple(r) for r in cur.tables(table="%_t", schema="sales"))
    # psqlODBC adds the table's OID after the ODBC columns (its 23rd field):
    # hivelite's are made up (docs/server.md), so that field is left out
    out["columns of t"] = [tuple(r)[:22] + tuple(r)[23:]
                           for r in cur.columns(table="t", schema="sales")]
    out["columns like a%"] = [r.column_name for r in cur.columns(table="t", schema="sales",
                                                                 column="a%")]
    out["primary keys"] = [tuple(r) for r in cur.primaryKeys("t", schema="sales")]
    cn.close()
    return out


try:
    got = answers(hl.port)
    want = answers(pg.port)
    for k in want:
        check(k, got.get(k), want[k])
    # and the answers are the rows themselves, not just equal
    check("parameterized rows", got["parameters"], [
        (1, "a", decimal.Decimal("1.50"), datetime.datetime(2024, 1, 1, 10, 0),
         datetime.date(2024, 1, 1)),
        (2, "b", decimal.Decimal("2.50"), datetime.datetime(2024, 1, 1, 11, 0),
         datetime.date(2024, 1, 2))])
    check("column names of t", [r[3] for r in got["columns of t"]],
          ["id", "name", "amount", "ts", "d", "dt"])
finally:
    code, log = hl.stop()
    pg.stop()
check("server exit status", code, 0)
if failures:
    print("\n".join(failures))
    print("FAILED: %d differences" % len(failures))
    sys.exit(1)
print("OK: psqlODBC answered the same from hivelite and PostgreSQL 15")
