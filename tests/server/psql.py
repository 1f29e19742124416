#!/usr/bin/python3
"""psql.py -- `hivelite serve` driven by psql (Debian's postgresql-client):
every Hive type in psql's aligned output, an error with psql's LINE/caret
from the position field, MSCK's warnings as WARNING lines (NoticeResponse),
a script with BEGIN/COMMIT and SET/SHOW under ON_ERROR_STOP, several
statements in one -c, and psql's \\l, \\dn, \\dt [PATTERN] (before and
after USE) and \\d of a table (answered by src/server/pg_catalog.c).  Every
output is compared whole.  Exit 77 without psql (1 under CI=true).
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Server, run_cli, tmpdir, unavailable  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()
if not shutil.which("psql"):
    unavailable("psql is not installed", "postgresql-client")

failures = []
wh = os.path.join(tmpdir("psql"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE DATABASE web; CREATE TABLE web.t (id INT, name STRING, score DOUBLE, "
        "amount DECIMAL(10,2), day DATE, ts TIMESTAMP, ok BOOLEAN, big BIGINT, "
        "tags ARRAY<STRING>, raw BINARY); "
        "INSERT INTO web.t VALUES (1, 'ann', 1.5, 10.25, '2024-01-02', '2024-01-02 03:04:05.5', "
        "true, 9000000000, array('a','b'), cast('hi' AS BINARY)), (2, NULL, -0.25, -3.00, NULL, "
        "'2024-12-31 23:59:59', false, -1, array(), NULL); "
        "CREATE TABLE web.p (x INT) PARTITIONED BY (k STRING)")
os.makedirs(os.path.join(wh, "web.db", "p", "junk"))
os.makedirs(os.path.join(wh, "web.db", "p", "k=1"))
srv = Server(opts.hivelite, wh, "--auth", "trust")
env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=str(srv.port), PGUSER="analyst",
           PGDATABASE="warehouse", PGCONNECT_TIMEOUT="10", PAGER="", PGSSLMODE="prefer")
env.pop("PGPASSWORD", None)


def psql(*args, stdin=None):
    p = subprocess.run(["psql", "-X"] + list(args), env=env, capture_output=True, text=True,
                       input=stdin, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


check("every type", psql("-c", "SELECT * FROM web.t ORDER BY id"), (0, """\
 id | name | score | amount |    day     |          ts           | ok |    big     |   tags    |  raw   
----+------+-------+--------+------------+-----------------------+----+------------+-----------+--------
  1 | ann  |   1.5 |  10.25 | 2024-01-02 | 2024-01-02 03:04:05.5 | t  | 9000000000 | ["a","b"] | \\x6869
  2 |      | -0.25 |  -3.00 |            | 2024-12-31 23:59:59   | f  |         -1 | []        | 
(2 rows)

""", ""))
check("error with position", psql("-c", "SELECT id FROM web.t WHERE nope = 1"), (1, "", """\
ERROR:  column "nope" does not exist in table "web.t"
LINE 1: SELECT id FROM web.t WHERE nope = 1
                                   ^
"""))
check("MSCK warning", psql("-c", "MSCK REPAIR TABLE web.p"), (0, """\
                   result                    
---------------------------------------------
 Partitions not in metastore:    p:k=1
 Repair: Added partition to metastore p:k=1
 Skipped 1 invalid partition directory: junk
(3 rows)

""", "WARNING:  Skipped junk: not a key=value directory name\n"))
script = """\
BEGIN;
SET application_name = 'etl';
SHOW application_name;
INSERT INTO web.t (id) VALUES (3);
COMMIT;
SELECT count(*) AS n FROM web.t;
SELECT * FROM nosuch;
SELECT 'not reached';
"""
check("script", psql("-v", "ON_ERROR_STOP=1", "-f", "-", stdin=script), (3, """\
BEGIN
SET
 application_name 
------------------
 etl
(1 row)

INSERT 0 1
COMMIT
 n 
---
 3
(1 row)

""", """\
psql:<stdin>:7: ERROR:  table "default.nosuch" does not exist
LINE 1: SELECT * FROM nosuch;
                      ^
"""))
check("two statements in -c", psql("-A", "-t", "-c", "USE web; SELECT max(id) FROM t"),
      (0, "USE\n3\n", ""))
check("\\l", psql("-c", "\\l"), (0, """\
                                          List of databases
   Name    |  Owner   | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges 
-----------+----------+----------+---------+-------+------------+-----------------+-------------------
 warehouse | hivelite | UTF8     | C       | C     |            | libc            | 
(1 row)

""", ""))
check("\\dn", psql("-c", "\\dn"), (0, """\
  List of schemas
  Name   |  Owner   
---------+----------
 default | hivelite
 web     | hivelite
(2 rows)

""", ""))
listing = """\
        List of relations
 Schema | Name | Type  |  Owner   
--------+------+-------+----------
 web    | p    | table | hivelite
 web    | t    | table | hivelite
(2 rows)

"""
check("\\dt web.*", psql("-c", "\\dt web.*"), (0, listing, ""))
check("\\dt in the current schema", psql("-c", "\\dt"), (0, "", "Did not find any relations.\n"))
check("USE then \\dt", psql("-c", "USE web", "-c", "\\dt", "-c", "SELECT current_schema()"),
      (0, "USE\n" + listing + """\
 current_schema 
----------------
 web
(1 row)

""", ""))
check("\\dt of a pattern", psql("-c", "\\dt web.t*"), (0, """\
        List of relations
 Schema | Name | Type  |  Owner   
--------+------+-------+----------
 web    | t    | table | hivelite
(1 row)

""", ""))
check("\\d web.t", psql("-c", "\\d web.t"), (0, """\
                             Table "web.t"
 Column |            Type             | Collation | Nullable | Default 
--------+-----------------------------+-----------+----------+---------
 id     | integer                     |           |          | 
 name   | text                        |           |          | 
 score  | double precision            |           |          | 
 amount | numeric(10,2)               |           |          | 
 day    | date                        |           |          | 
 ts     | timestamp without time zone |           |          | 
 ok     | boolean                     |           |          | 
 big    | bigint                      |           |          | 
 tags   | text                        |           |          | 
 raw    | bytea                       |           |          | 

""", ""))
check("\\d of a partitioned table", psql("-c", "\\d web.p")[1].splitlines()[3:5], [
    " x      | integer |           |          | ", " k      | text    |           |          | "])
check("\\d of nothing", psql("-c", "\\d web.nosuch"),
      (1, "", "Did not find any relation named \"web.nosuch\".\n"))

rc, log = srv.stop()
check("exit status", rc, 0)
for f in failures:
    print("FAIL " + f)
print("psql: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
