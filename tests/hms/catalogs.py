#!/usr/bin/python3
"""catalogs.py -- named catalogs across two warehouses: a second hivelite
warehouse (W2) is served by `hivelite metastore` on 127.0.0.1:0 and
attached to the first (W1) with CREATE CATALOG ... 'type'='hms'.

Checked with exact output: SHOW CATALOGS (IsCurrent follows SWITCH),
SHOW DATABASES FROM / SHOW TABLES FROM the attached catalog, SWITCH and
unqualified names there, three-part names of both catalogs in one join,
INSERT INTO internal.db.t SELECT ... FROM hive.db.s and CTAS from the
attached catalog, DESCRIBE and SHOW PARTITIONS of catalog.db.t,
ALTER CATALOG of the current catalog (it stays current), SHOW CREATE CATALOG, a catalog nothing listens on (08001 where it is used,
not at CREATE), DROP CATALOG and then every use of it (3D000), and
`-m thrift://...` (the catalog `hive`, current from the start).  Exit 77
(skipped) while the build has no Hive Metastore client; 1 under CI=true.
"""
import argparse
import atexit
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
opts = ap.parse_args()

base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_catalogs_", dir=base)
W1 = os.path.join(tmp, "w1")
W2 = os.path.join(tmp, "w2")
failures = []


def run(wh, sql, extra=()):
    p = subprocess.run([opts.hivelite, "-w", wh, *extra, "--format", "csv", "-c", sql],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL %s\n  got:  %r\n  want: %r" % (what, got, want))
    else:
        print("ok   %s" % what)


def ok(what, wh, sql, want, extra=()):
    check(what, run(wh, sql, extra), (0, want, ""))


def err(what, wh, sql, want_err, extra=()):
    rc, out, e = run(wh, sql, extra)
    check(what, (rc, e), (1, want_err + "\n"))


rc, out, e = run(W2, """CREATE DATABASE s;
CREATE TABLE s.ev (id INT, name STRING) PARTITIONED BY (dt STRING);
INSERT INTO s.ev PARTITION (dt='a') VALUES (1, 'x'), (2, 'y');
INSERT INTO s.ev PARTITION (dt='b') VALUES (3, 'z');
CREATE TABLE s.names (id INT, label STRING);
INSERT INTO s.names VALUES (2, 'two');
CREATE VIEW s.v AS SELECT e.id, n.label FROM s.ev e JOIN s.names n ON e.id = n.id;""")
check("W2 set up", (rc, e), (0, ""))
rc, out, e = run(W1, """CREATE TABLE names (id INT, label STRING);
INSERT INTO names VALUES (1, 'one'), (3, 'three');
CREATE TABLE copy (id INT, name STRING, dt STRING);""")
check("W1 set up", (rc, e), (0, ""))

srv = None


def stop_server():
    if srv and srv.poll() is None:
        srv.kill()
        srv.wait()


atexit.register(stop_server)
srv = subprocess.Popen([opts.hivelite, "metastore", "-w", W2, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.PIPE)
ready, _, _ = select.select([srv.stdout], [], [], 60)
line = srv.stdout.readline().decode() if ready else ""
m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
if not m:
    print("FAIL: the server printed %r" % line)
    sys.exit(1)
URI = "thrift://127.0.0.1:%s" % m.group(1)

ok("CREATE CATALOG", W1,
   "CREATE CATALOG Hive2 COMMENT 'the other warehouse' PROPERTIES ('type'='hms', "
   "'hive.metastore.uris'='%s', 'hive.metastore.client.socket.timeout'='30');" % URI, "")

# Until src/hms_client is part of the build, opening an hms catalog is
# 0A000: skipped (77), but failed under CI=true like the other interop tests.
rc, out, e = run(W1, "SHOW DATABASES FROM hive2;")
if "which is not built in yet" in e:
    print("SKIP: %s" % e.strip())
    stop_server()
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)
ok("SHOW DATABASES FROM", W1, "SHOW DATABASES FROM hive2;", "database_name\ndefault\ns\n")
ok("SHOW TABLES FROM catalog.db", W1, "SHOW TABLES FROM HIVE2.s;", "tab_name\nev\nnames\nv\n")
ok("SELECT catalog.db.t", W1, "SELECT * FROM hive2.s.ev ORDER BY id;",
   "id,name,dt\n1,x,a\n2,y,a\n3,z,b\n")
ok("join across catalogs", W1,
   "SELECT e.id, n.label, e.dt FROM hive2.s.ev e JOIN internal.default.names n "
   "ON e.id = n.id ORDER BY e.id;",
   "id,label,dt\n1,one,a\n3,three,b\n")
ok("join: unqualified names are the current catalog's", W1,
   "SELECT n.label FROM names n LEFT SEMI JOIN hive2.s.ev e ON n.id = e.id ORDER BY n.label;",
   "label\none\nthree\n")
# W1 has no database s: the view must read W2's s.names
ok("a view of the attached catalog reads its own catalog", W1,
   "SELECT * FROM hive2.s.v;", "id,label\n2,two\n")
ok("DESCRIBE catalog.db.t", W1, "DESCRIBE hive2.s.ev;",
   'col_name,data_type,comment\nid,int,""\nname,string,""\ndt,string,""\n"",,\n'
   '# Partition Information,,\n# col_name,data_type,comment\ndt,string,""\n')
ok("SHOW PARTITIONS catalog.db.t", W1, "SHOW PARTITIONS hive2.s.ev;", "partition\ndt=a\ndt=b\n")

rc, out, e = run(W1, "SWITCH hive2; SHOW CATALOGS;")
rows = [r.split(",") for r in out.splitlines()]
check("SHOW CATALOGS after SWITCH",
      (rc, e, [[r[0], r[1], r[2], r[3], r[6]] for r in rows]),
      (0, "", [["CatalogId", "CatalogName", "Type", "IsCurrent", "Comment"],
               ["0", "internal", "internal", '""', "the embedded metastore"],
               ["1", "hive2", "hms", "yes", "the other warehouse"]]))
ok("SWITCH: unqualified names in the attached catalog", W1,
   "SWITCH hive2; SHOW DATABASES; USE s; SHOW TABLES; SELECT count(*) AS n FROM ev; "
   "SELECT label FROM internal.default.names ORDER BY label;",
   "database_name\ndefault\ns\ntab_name\nev\nnames\nv\nn\n3\nlabel\none\nthree\n")
ok("USE catalog.db, and back", W1,
   "USE hive2.s; SELECT count(*) AS n FROM ev; USE internal.default; SELECT count(*) AS n FROM names; "
   "SWITCH hive2; SELECT count(*) AS n FROM ev;",
   "n\n3\nn\n2\nn\n3\n")
err("USE catalog.missing_db", W1, "USE hive2.nope;",
    'ERROR 3F000: database "nope" does not exist in catalog "hive2" (line 1, column 11)')
ok("INSERT INTO internal SELECT FROM the attached catalog", W1,
   "INSERT INTO internal.default.copy SELECT * FROM hive2.s.ev; "
   "SELECT * FROM copy ORDER BY id;",
   "id,name,dt\n1,x,a\n2,y,a\n3,z,b\n")
ok("CTAS from the attached catalog", W1,
   "CREATE TABLE c2 AS SELECT id, name FROM hive2.s.ev WHERE id > 1; SELECT * FROM c2 ORDER BY id;",
   "id,name\n2,y\n3,z\n")
ok("REFRESH on the attached catalog", W1,
   "REFRESH CATALOG hive2; REFRESH DATABASE hive2.s; REFRESH TABLE hive2.s.ev; "
   "SELECT count(*) AS n FROM hive2.s.ev;", "n\n3\n")
err("REFRESH TABLE of a missing table", W1, "REFRESH TABLE hive2.s.nope;",
    'ERROR 42P01: table "s.nope" does not exist (line 1, column 15)')
ok("ALTER CATALOG of the current catalog keeps it current", W1,
   "SWITCH hive2; USE s; ALTER CATALOG hive2 MODIFY COMMENT 'the other warehouse'; "
   "SELECT count(*) AS n FROM ev;", "n\n3\n")
ok("SHOW CREATE CATALOG", W1, "SHOW CREATE CATALOG hive2;",
   'Catalog,CreateCatalog\nhive2,"CREATE CATALOG `hive2`\nCOMMENT \'the other warehouse\'\n'
   "PROPERTIES (\n  'type' = 'hms',\n  'hive.metastore.uris' = '%s',\n"
   "  'hive.metastore.client.socket.timeout' = '30'\n)\"\n" % URI)

# a catalog nothing listens on: CREATE stores it, the first use fails
ok("CREATE CATALOG of a dead metastore", W1,
   "CREATE CATALOG dead PROPERTIES ('type'='hms', 'hive.metastore.uris'='thrift://127.0.0.1:1');",
   "")
rc, out, e = run(W1, "SELECT * FROM dead.s.t;")
check("a dead metastore is 08001 where it is used",
      (rc, e.startswith("ERROR 08001: catalog \"dead\": "), e.endswith("(line 1, column 15)\n")),
      (1, True, True))
ok("DROP CATALOG dead", W1, "DROP CATALOG dead;", "")

# -m thrift://...: the catalog `hive`, current at start, beside internal
ok("-m: SHOW DATABASES in hive", W1, "SHOW DATABASES; SELECT count(*) AS n FROM s.ev;",
   "database_name\ndefault\ns\nn\n3\n", ("-m", URI))
rc, out, e = run(W1, "SHOW CATALOGS;", ("-m", URI))
check("-m: SHOW CATALOGS", (rc, e, [r.split(",")[:4] for r in out.splitlines()]),
      (0, "", [["CatalogId", "CatalogName", "Type", "IsCurrent"],
               ["0", "internal", "internal", '""'], ["", "hive", "hms", "yes"],
               ["1", "hive2", "hms", '""']]))
ok("-m: internal by name", W1, "SELECT count(*) AS n FROM internal.default.copy;", "n\n3\n",
   ("-m", URI))
err("-m: the session's catalog cannot be dropped", W1, "DROP CATALOG hive;",
    'ERROR 0A000: catalog "hive" is attached for this session (-m) and cannot be dropped '
    "(line 1, column 14)", ("-m", URI))

# DROP CATALOG, then every use of the name is 3D000
ok("DROP CATALOG", W1, "SWITCH hive2; DROP CATALOG hive2; SHOW CATALOGS LIKE 'hive%'; "
   "SELECT count(*) AS n FROM names;",
   "CatalogId,CatalogName,Type,IsCurrent,CreateTime,LastUpdateTime,Comment\nn\n2\n")
err("dropped: SELECT", W1, "SELECT * FROM hive2.s.ev;",
    'ERROR 3D000: catalog "hive2" does not exist (line 1, column 15)')
err("dropped: SWITCH", W1, "SWITCH hive2;",
    'ERROR 3D000: catalog "hive2" does not exist (line 1, column 8)')
err("dropped: INSERT", W1, "INSERT INTO hive2.s.ev PARTITION (dt='c') VALUES (9, 'q');",
    'ERROR 3D000: catalog "hive2" does not exist (line 1, column 13)')
err("dropped: SHOW TABLES", W1, "SHOW TABLES FROM hive2.s;",
    'ERROR 3D000: catalog "hive2" does not exist (line 1, column 18)')

stop_server()
if failures:
    print("%d failed: %s" % (len(failures), ", ".join(failures)))
    print("kept %s" % tmp)
    sys.exit(1)
shutil.rmtree(tmp, ignore_errors=True)
print("all passed")
