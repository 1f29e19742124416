#!/usr/bin/python3
"""jdbc.py -- `hivelite serve` driven by pgJDBC (Debian's
libpostgresql-jdbc-java) through tests/server/java/PgPeer.java: a plain
query with every type, a PreparedStatement executed seven times (past
pgJDBC's prepareThreshold of 5 it uses a named server statement and binary
results), a fetch size inside a transaction (Execute with a row limit and
PortalSuspended), an error's SQLSTATE, parameters of every type (setInt
... setBytes, setNull; pgJDBC sends several in binary), past the threshold
too, an INSERT with a parameter, update counts (1, 1, 2 rows); and DatabaseMetaData's
getSchemas, getTables, getColumns (types and sizes pgJDBC derives from the
attribute rows) and getPrimaryKeys (none: Hive tables have no keys).  The output is compared whole.
Classes are compiled into --build-dir once per source and JDK version.
Exit 77 without javac/java or the jar (1 under CI=true).
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Server, run_cli, tmpdir, unavailable  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = "/usr/share/java/postgresql.jar"
ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir", required=True)
opts = ap.parse_args()
if not shutil.which("javac") or not shutil.which("java") or not os.path.isfile(JAR):
    unavailable("javac, java or %s is missing" % JAR,
                "openjdk-17-jdk-headless libpostgresql-jdbc-java")

src = os.path.join(HERE, "java", "PgPeer.java")
classes = os.path.join(opts.build_dir, "jdbc-classes")
stamp = hashlib.sha256(open(src, "rb").read() + subprocess.run(
    ["javac", "-version"], capture_output=True).stderr + subprocess.run(
    ["javac", "-version"], capture_output=True).stdout).hexdigest()
stamp_file = os.path.join(classes, "stamp")
if not (os.path.isfile(stamp_file) and open(stamp_file).read() == stamp):
    os.makedirs(classes, exist_ok=True)
    subprocess.run(["nice", "javac", "-J-Xmx512m", "-J-XX:TieredStopAtLevel=1", "-cp", JAR,
                    "-d", classes, src], check=True)
    with open(stamp_file, "w") as fh:
        fh.write(stamp)

wh = os.path.join(tmpdir("jdbc"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE DATABASE web; CREATE TABLE web.t (id INT, small SMALLINT, name STRING, "
        "score DOUBLE, amount DECIMAL(12,3), day DATE, ts TIMESTAMP, ok BOOLEAN, big BIGINT, "
        "raw BINARY); INSERT INTO web.t VALUES (1, 7, 'ann', 1.5, 12345.678, '2024-01-02', "
        "'2024-01-02 03:04:05.123456', true, 9000000000, cast('hi' AS BINARY)), "
        "(2, -7, NULL, -0.1, -0.001, '1999-12-31', '1970-01-01 00:00:00', false, -9000000000, "
        "NULL); CREATE TABLE web.many (x INT); INSERT INTO web.many VALUES (1), (2), (3), (4), "
        "(5)")
srv = Server(opts.hivelite, wh, "--auth", "trust")
p = subprocess.run(["java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Duser.timezone=UTC",
                    "-cp", classes + os.pathsep + JAR, "PgPeer", str(srv.port)],
                   capture_output=True, text=True, timeout=240)
rows = ("1|ann|1.5|12345.678|2024-01-02|2024-01-02 03:04:05.123456|true|9000000000|hi|7\n"
        "2|null|-0.1|-0.001|1999-12-31|1970-01-01 00:00:00.0|false|-9000000000|null|-7\n")
want = ("server PostgreSQL 14\n"
        "types id:int4 small:int2 name:text score:float8 amount:numeric day:date ts:timestamp "
        "ok:bool big:int8 raw:bytea\n" + rows +
        "".join("execution %d\n%s" % (i, rows) for i in range(1, 8)) +
        "fetched 5 rows, sum 15\n"
        'error 42P01 ERROR: table "web.nosuch" does not exist\n'
        + "".join("parameters %d: 1/ann\n" % i for i in range(1, 8)) +
        "select it's 42 null\n"
        "insert with a parameter 1\n"
        "update count 1\n"
        "update count of two rows 2\n"
        "count 9\n")
failures = []
if (p.returncode, p.stdout) != (0, want):
    failures.append("PgPeer output:\n--- got (exit %d)\n%s%s--- want\n%s"
                    % (p.returncode, p.stdout, p.stderr, want))
p = subprocess.run(["java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Duser.timezone=UTC",
                    "-cp", classes + os.pathsep + JAR, "PgPeer", str(srv.port), "metadata"],
                   capture_output=True, text=True, timeout=240)
col = "column COLUMN_NAME=%s DATA_TYPE=%s TYPE_NAME=%s COLUMN_SIZE=%s DECIMAL_DIGITS=%s " \
      "NULLABLE=1 ORDINAL_POSITION=%d\n"
cols = [("id", 4, "int4", 10, 0), ("small", 5, "int2", 5, 0), ("name", 12, "text", 2147483647, 0),
        ("score", 8, "float8", 17, 17), ("amount", 2, "numeric", 12, 3), ("day", 91, "date", 13, 0),
        ("ts", 93, "timestamp", 29, 6), ("ok", -7, "bool", 1, 0), ("big", -5, "int8", 19, 0),
        ("raw", -2, "bytea", 2147483647, 0)]
want = ("schema TABLE_SCHEM=default\nschema TABLE_SCHEM=web\n"
        "table TABLE_SCHEM=web TABLE_NAME=many TABLE_TYPE=TABLE\n"
        "table TABLE_SCHEM=web TABLE_NAME=t TABLE_TYPE=TABLE\n" +
        "".join(col % (c + (i + 1,)) for i, c in enumerate(cols)) + "metadata done\n")
if (p.returncode, p.stdout) != (0, want):
    failures.append("PgPeer metadata output:\n--- got (exit %d)\n%s%s--- want\n%s"
                    % (p.returncode, p.stdout, p.stderr, want))
# DBeaver's navigator queries (their shapes, sent through pgJDBC)
p = subprocess.run(["java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Duser.timezone=UTC",
                    "-cp", classes + os.pathsep + JAR, "PgPeer", str(srv.port), "dbeaver"],
                   capture_output=True, text=True, timeout=240)
oids = (16, 17, 20, 21, 23, 25, 700, 701, 1042, 1043, 1082, 1114, 1700)
names = ("bool", "bytea", "int8", "int2", "int4", "text", "float4", "float8", "bpchar",
         "varchar", "date", "timestamp", "numeric")
want = ("session current_schema=default session_user=jdbc\n"
        "database warehouse allowconn=true template=false\n"
        "schema nspname=default nspowner=10\nschema nspname=pg_catalog nspowner=10\n"
        "schema nspname=web nspowner=10\n"
        "table relname=many relkind=r relhasindex=f\ntable relname=t relkind=r relhasindex=f\n"
        "one table relname=many\n" +
        "".join("column t.%s type=%d num=%d mod=%d notnull=false table=true\n"
                % (c[0], oid, i + 1, mod) for i, (c, oid, mod) in enumerate(zip(
                    cols, (23, 21, 25, 701, 1700, 1082, 1114, 16, 20, 17),
                    (-1, -1, -1, -1, 12 * 65536 + 3 + 4, -1, -1, -1, -1, -1)))) +
        "columns of the schema 11\n"
        "types " + " ".join("%d:%s" % x for x in zip(oids, names)) + "\n"
        "dbeaver done\n")
if (p.returncode, p.stdout) != (0, want):
    failures.append("PgPeer dbeaver output:\n--- got (exit %d)\n%s%s--- want\n%s"
                    % (p.returncode, p.stdout, p.stderr, want))
rc, _ = srv.stop()
if rc != 0:
    failures.append("exit status %d" % rc)
for f in failures:
    print("FAIL " + f)
print("jdbc: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
