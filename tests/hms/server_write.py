#!/usr/bin/python3
"""server_write.py -- the write methods and the lock service of `hivelite
metastore` (src/hms_server/hms_write.c, hms_lock.c), driven by the Python
clients Debian's thrift compiler generates from the Hive 4 and Hive 2.3
IDLs (../shared/fixtures/hms/hive4, hive2), over Apache Thrift's buffered
socket transport.

Each method's effect is read back through the get_* methods and through
hivelite's own SQL on the warehouse (SHOW PARTITIONS, SELECT over data
files the test writes into partition locations, DESCRIBE); each failure
(duplicates, unknown objects, bad types, bad values, shared locations,
other schemes) must give the exception the IDL declares, in its field,
and change nothing.  Locks: compatibility, WAITING and check_lock,
unlock, heartbeat, show_locks, and the timeout of a lock whose heartbeat
stops (hivelite.metastore.lock_timeout_s lowered in a second server).
Skip and fail rules: hms_gen.py.
"""
import argparse
import atexit
import os
import re
import select
import sqlite3
import subprocess
import sys
import tempfile
import time

import hms_gen

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--fixtures", required=True)
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
from thrift.Thrift import TApplicationException  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_write_", dir=base)
T4, S4 = hms_gen.load(opts.fixtures, "hive4", tmp)
T2, S2 = hms_gen.load(opts.fixtures, "hive2", tmp)
W = os.path.join(tmp, "wh")
EXT = os.path.join(tmp, "ext")
failures = []


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL %s\n  got:  %r\n  want: %r" % (what, got, want))
    else:
        print("ok   %s" % what)


def hl(sql):
    """hivelite's own view of the warehouse: stdout, or ERROR text."""
    r = subprocess.run([opts.hivelite, "-w", W, "--format", "tsv", "--no-header", "-c", sql],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.stdout.decode() if r.returncode == 0 else "ERROR " + r.stderr.decode()


subprocess.run([opts.hivelite, "-w", W, "-c", "CREATE DATABASE pre;"], check=True,
               stdout=subprocess.DEVNULL)

servers = []


def stop_servers():
    for s in servers:
        if s.poll() is None:
            s.kill()
            s.wait()


atexit.register(stop_servers)


def start_server():
    srv = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                           stdout=subprocess.PIPE)
    servers.append(srv)
    ready, _, _ = select.select([srv.stdout], [], [], 60)
    line = srv.stdout.readline().decode() if ready else ""
    m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
    if not m:
        print("FAIL: the server printed %r" % line)
        sys.exit(1)
    return srv, int(m.group(1))


srv, PORT = start_server()


def connect(S, port=None):
    sock = TSocket.TSocket("127.0.0.1", port or PORT)
    sock.setTimeout(30000)
    trans = TTransport.TBufferedTransport(sock)
    trans.open()
    return S.Client(TBinaryProtocol.TBinaryProtocol(trans)), trans


def plain(v):
    if hasattr(v, "thrift_spec"):
        d = {}
        for spec in type(v).thrift_spec:
            if spec is None:
                continue
            val = getattr(v, spec[2])
            if val is not None:
                d[spec[2]] = plain(val)
        return d
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def raised(fn, *args):
    try:
        fn(*args)
    except TApplicationException as e:
        return ["TApplicationException", e.type, e.message]
    except Exception as e:  # the generated exceptions
        return [type(e).__name__, getattr(e, "message", None)]
    return None


def exists(p):
    return os.path.isdir(p)


TEXT_IN = "org.apache.hadoop.mapred.TextInputFormat"
TEXT_OUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"


def mk_sd(T, cols, location=None):
    return T.StorageDescriptor(
        cols=[T.FieldSchema(name=n, type=t, comment=None) for n, t in cols],
        location=location, inputFormat=TEXT_IN, outputFormat=TEXT_OUT, compressed=False,
        numBuckets=-1,
        serdeInfo=T.SerDeInfo(serializationLib=LAZY, parameters={"field.delim": ","}),
        bucketCols=[], sortCols=[], parameters={})


def mk_table(T, db, name, cols, keys=(), location=None, ttype="MANAGED_TABLE", params=None):
    return T.Table(tableName=name, dbName=db, owner="tester", createTime=0, lastAccessTime=0,
                   retention=0, sd=mk_sd(T, cols, location),
                   partitionKeys=[T.FieldSchema(name=n, type=t) for n, t in keys],
                   parameters=params or {}, tableType=ttype)


def mk_part(T, db, tbl, values, location=None, params=None):
    return T.Partition(values=values, dbName=db, tableName=tbl, createTime=0, lastAccessTime=0,
                       sd=mk_sd(T, [("id", "int"), ("name", "string")], location),
                       parameters=params or {})


def counts_exact(what):
    """the metastore's kept partition counts (schema v9's part_counts) are
    each table's count(*) after the server's writes"""
    db = sqlite3.connect(os.path.join(W, ".hivelite", "metastore.db"))
    bad = db.execute("SELECT t.id, c.n, (SELECT count(*) FROM partitions p WHERE p.tbl_id = t.id) "
                     "FROM tbls t LEFT JOIN part_counts c ON c.tbl_id = t.id "
                     "WHERE c.n IS NOT (SELECT count(*) FROM partitions p WHERE p.tbl_id = t.id)"
                     ).fetchall()
    orphans = db.execute("SELECT count(*) FROM part_counts WHERE tbl_id NOT IN "
                         "(SELECT id FROM tbls)").fetchone()[0]
    db.close()
    check("partition counts exact " + what, (bad, orphans), ([], 0))


def part_names(c, db, tbl):
    return c.get_partition_names(db, tbl, -1)


c4, tr4 = connect(S4)
c2, tr2 = connect(S2)
DB1 = os.path.join(W, "db1.db")

# ------------------------------------------------------------ databases
check("create_database db1", c4.create_database(
    T4.Database(name="DB1", description="first", parameters={"a": "1"}, ownerName="tester")),
    None)
d = plain(c4.get_database("db1"))
check("get_database db1", (d["name"], d["description"], d["locationUri"], d["parameters"],
                           d.get("ownerName")),
      ("db1", "first", "file:" + DB1, {"a": "1"}, "tester"))
check("db1 directory made", exists(DB1), True)
check("create_database duplicate", raised(c4.create_database, T4.Database(name="db1")),
      ["AlreadyExistsException", 'database "db1" already exists'])
check("create_database bad name", raised(c4.create_database, T4.Database(name="a.b")),
      ["InvalidObjectException",
       "database name \"a.b\" holds '.' (not allowed in a database name)"])
# an S3 location is kept as written (normalised below the bucket); a
# database on S3 has no directory to make
check("create_database s3 location",
      c4.create_database(T4.Database(name="s3db", locationUri="s3a://bucket/x//y/")), None)
check("s3 location stored", c4.get_database("s3db").locationUri, "s3a://bucket/x/y")
check("drop_database s3db", c4.drop_database("s3db", False, False), None)
check("databases after failures", c4.get_all_databases(), ["db1", "default", "pre"])
DB2 = os.path.join(tmp, "elsewhere", "db2")
check("create_database db2 at a location (hive2 client)", c2.create_database(
    T2.Database(name="db2", description="", locationUri="file://" + DB2, parameters={})), None)
check("db2 location", (plain(c2.get_database("db2"))["locationUri"], exists(DB2)),
      ("file:" + DB2, True))
check("alter_database db1", c4.alter_database("db1", T4.Database(
    name="db1", description="changed", parameters={"b": "2"}, ownerName="tester")), None)
d = plain(c4.get_database("db1"))
check("alter_database read back", (d["description"], d["parameters"], d["locationUri"]),
      ("changed", {"b": "2"}, "file:" + DB1))
check("alter_database missing", raised(c4.alter_database, "nosuch", T4.Database(name="nosuch")),
      ["NoSuchObjectException", 'database "nosuch" does not exist'])
check("create_database_req (hive4)", (c4.create_database_req(T4.CreateDatabaseRequest(
    databaseName="db3", parameters={"p": "q"})), plain(c4.get_database("db3"))["parameters"],
    exists(os.path.join(W, "db3.db"))), (None, {"p": "q"}, True))
check("drop_database_req (hive4)", (c4.drop_database_req(T4.DropDatabaseRequest(
    name="db3", ignoreUnknownDb=False, deleteData=True, cascade=False)),
    exists(os.path.join(W, "db3.db"))), (None, False))
check("drop_database_req ignoreUnknownDb", c4.drop_database_req(T4.DropDatabaseRequest(
    name="db3", ignoreUnknownDb=True, deleteData=True, cascade=False)), None)
check("drop_database_req unknown", raised(c4.drop_database_req, T4.DropDatabaseRequest(
    name="db3", ignoreUnknownDb=False, deleteData=True, cascade=False)),
    ["NoSuchObjectException", 'database "db3" does not exist'])
check("DESCRIBE DATABASE db1", hl("DESCRIBE DATABASE db1;"),
      "db1\tchanged\t%s\ttester\tUSER\t\n" % DB1)

# --------------------------------------------------------------- tables
T1 = os.path.join(DB1, "t")
check("create_table db1.t (hive2)", c2.create_table(mk_table(
    T2, "db1", "T", [("id", "INT"), ("name", "string")], [("ds", "string"), ("h", "int")],
    params={"k": "v"})), None)
t = plain(c2.get_table("db1", "t"))
check("get_table db1.t", (t["tableType"], t["sd"]["location"], t["sd"]["cols"],
                          t["partitionKeys"], t["parameters"], t["owner"]),
      ("MANAGED_TABLE", "file:" + T1,
       [{"name": "id", "type": "int"}, {"name": "name", "type": "string"}],
       [{"name": "ds", "type": "string"}, {"name": "h", "type": "int"}], {"k": "v"}, "tester"))
check("db1.t directory made", exists(T1), True)
check("create_table duplicate", raised(c2.create_table, mk_table(T2, "db1", "t", [("x", "int")])),
      ["AlreadyExistsException", 'table "db1.t" already exists'])
check("create_table bad type", raised(c4.create_table, mk_table(T4, "db1", "bad", [("x", "intx")])),
      ["InvalidObjectException", 'column "x": type "intx": unknown type "intx"'])
check("create_table bad decimal", raised(c4.create_table, mk_table(
    T4, "db1", "bad", [("x", "decimal(50,2)")]))[0], "InvalidObjectException")
check("create_table unknown db",
      raised(c4.create_table, mk_table(T4, "nosuch", "x", [("x", "int")])),
      ["NoSuchObjectException", 'database "nosuch" does not exist'])
check("create_table materialized view",
      raised(c4.create_table, mk_table(T4, "db1", "mv", [("x", "int")], ttype="MATERIALIZED_VIEW")),
      ["InvalidObjectException", 'table type "MATERIALIZED_VIEW" is not one hivelite has '
       '(MANAGED_TABLE, EXTERNAL_TABLE, VIRTUAL_VIEW)'])
check("create_table hdfs location",
      raised(c4.create_table, mk_table(T4, "db1", "h", [("x", "int")], location="hdfs://nn/x")),
      ["InvalidObjectException", 'location "hdfs://nn/x": hivelite stores only local paths '
       '(file: URIs or absolute paths) and S3 locations (s3://, s3a://, s3n://) so far'])
check("create_table shared location",
      raised(c4.create_table, mk_table(T4, "db1", "e2", [("x", "int")], location="file:" + T1,
                                       ttype="EXTERNAL_TABLE")),
      ["InvalidObjectException", 'location "%s" is already the location of table db1.t' % T1])
check("tables after failures", c4.get_all_tables("db1"), ["t"])
check("no directory for failed tables", sorted(os.listdir(DB1)), ["t"])
os.makedirs(EXT)
with open(os.path.join(EXT, "f.txt"), "w") as f:
    f.write("7,x\n8,y\n")
check("create_table_with_environment_context external", c4.create_table_with_environment_context(
    mk_table(T4, "db1", "e", [("id", "int"), ("name", "string")], location="file:" + EXT,
             ttype="EXTERNAL_TABLE", params={"EXTERNAL": "TRUE"}),
    T4.EnvironmentContext(properties={"x": "y"})), None)
check("external table read by hivelite", hl("SELECT * FROM db1.e ORDER BY id;"), "7\tx\n8\ty\n")
check("create_table_req (hive4)", c4.create_table_req(T4.CreateTableRequest(
    table=mk_table(T4, "db1", "r", [("x", "bigint")]))), None)
check("create_table_req read back", plain(c4.get_table_req(
    T4.GetTableRequest(dbName="db1", tblName="r")).table)["sd"]["location"],
    "file:" + os.path.join(DB1, "r"))
c4.create_table_req(T4.CreateTableRequest(table=mk_table(T4, "db1", "q", [("x", "int")])))
check("drop_table_req (hive4)", (c4.drop_table_req(T4.DropTableRequest(
    dbName="db1", tableName="q", deleteData=True)), exists(os.path.join(DB1, "q"))), (None, False))
M = os.path.join(DB1, "m")
c4.create_table(mk_table(T4, "db1", "m", [("x", "int")]))
c4.create_table(mk_table(T4, "db1", "inner", [("x", "int")], location="file:" + M + "/inner",
                         ttype="EXTERNAL_TABLE"))
check("drop_table of a directory holding another table's", raised(c4.drop_table, "db1", "m", True),
      ["MetaException", 'cannot remove "%s": it holds the location "%s/inner" of table db1.inner'
       % (M, M)])
check("nothing dropped", (c4.get_all_tables("db1"), exists(M + "/inner")),
      (["e", "inner", "m", "r", "t"], True))
c4.drop_table("db1", "inner", True)
check("then it goes", (c4.drop_table("db1", "m", True), exists(M)), (None, False))
check("drop_table_req of another catalog", raised(c4.drop_table_req, T4.DropTableRequest(
    catalogName="spark", dbName="db1", tableName="r")),
    ["MetaException", "catalog spark does not exist"])

vt = mk_table(T4, "db1", "v", [("id", "int")], ttype="VIRTUAL_VIEW")
vt.sd.location = None
vt.viewOriginalText = "SELECT id FROM db1.e"
vt.viewExpandedText = "SELECT `e`.`id` FROM `db1`.`e`"
check("create_table VIRTUAL_VIEW", c4.create_table(vt), None)
check("view read by hivelite", hl("SELECT * FROM db1.v ORDER BY id;"), "7\n8\n")
check("drop_table view", c4.drop_table("db1", "v", True), None)
check("view data untouched", sorted(os.listdir(EXT)), ["f.txt"])

# ----------------------------------------------------------- partitions
P1 = os.path.join(T1, "ds=2024-01-01", "h=1")
p = plain(c4.add_partition(mk_part(T4, "db1", "t", ["2024-01-01", "01"])))
check("add_partition", (p["values"], p["sd"]["location"], p["dbName"], p["tableName"]),
      (["2024-01-01", "1"], "file:" + P1, "db1", "t"))
check("add_partition directory", exists(P1), True)
with open(os.path.join(P1, "d.txt"), "w") as f:
    f.write("1,a\n2,b\n")
CUSTOM = os.path.join(tmp, "custom_p")
check("add_partitions", c2.add_partitions([
    mk_part(T2, "db1", "t", ["2024-01-02", "2"]),
    mk_part(T2, "db1", "t", ["2024-01-03", "3"], location="file:" + CUSTOM)]), 2)
with open(os.path.join(CUSTOM, "d.txt"), "w") as f:
    f.write("3,c\n")
check("SELECT over the partitions", hl("SELECT id, name, ds, h FROM db1.t ORDER BY id;"),
      "1\ta\t2024-01-01\t1\n2\tb\t2024-01-01\t1\n3\tc\t2024-01-03\t3\n")
before = part_names(c4, "db1", "t")
check("add_partitions duplicate (all or none)", raised(c2.add_partitions, [
    mk_part(T2, "db1", "t", ["2024-01-09", "9"]), mk_part(T2, "db1", "t", ["2024-01-02", "2"])]),
    ["AlreadyExistsException", 'partition "ds=2024-01-02/h=2" already exists in table t'])
check("nothing added", (part_names(c4, "db1", "t"),
                        exists(os.path.join(T1, "ds=2024-01-09"))), (before, False))
with open(os.path.join(T1, "ds=2024-01-10"), "w") as f:  # a file where a directory must go
    f.write("x")
r = raised(c2.add_partitions, [mk_part(T2, "db1", "t", ["2024-01-09", "9"]),
                               mk_part(T2, "db1", "t", ["2024-01-10", "10"])])
check("add_partitions whose directory cannot be made", r,
      ["MetaException", 'could not create directory "%s": Not a directory'
       % os.path.join(T1, "ds=2024-01-10")])
check("its other directory was removed again, nothing added",
      (exists(os.path.join(T1, "ds=2024-01-09")), part_names(c4, "db1", "t")), (False, before))
os.remove(os.path.join(T1, "ds=2024-01-10"))
check("add_partition bad value", raised(c4.add_partition,
                                        mk_part(T4, "db1", "t", ["2024-01-01", "x"])),
      ["InvalidObjectException",
       'invalid value "x" for partition column "h" of type int'])
check("add_partition wrong arity", raised(c4.add_partition, mk_part(T4, "db1", "t", ["a"])),
      ["InvalidObjectException",
       'table "db1.t" has 2 partition columns, 1 values were given'])
check("add_partition shared location", raised(c4.add_partition, mk_part(
    T4, "db1", "t", ["2024-01-08", "8"], location="file:" + CUSTOM)),
    ["InvalidObjectException", 'location "%s" of partition "ds=2024-01-08/h=8" is already the '
     'location of partition "ds=2024-01-03/h=3" of table "db1.t"' % CUSTOM])
check("add_partition unknown table", raised(c4.add_partition, mk_part(T4, "db1", "zz", ["a", "1"])),
      ["InvalidObjectException", 'table "db1.zz" does not exist'])
r = c4.add_partitions_req(T4.AddPartitionsRequest(
    dbName="db1", tblName="t", ifNotExists=True, needResult=True,
    parts=[mk_part(T4, "db1", "t", ["2024-01-02", "2"]),
           mk_part(T4, "db1", "t", ["2024-01-04", "4"])]))
check("add_partitions_req ifNotExists", [x.values for x in r.partitions], [["2024-01-04", "4"]])
r = c4.add_partitions_req(T4.AddPartitionsRequest(
    dbName="db1", tblName="t", ifNotExists=False, needResult=False,
    parts=[mk_part(T4, "db1", "t", ["2024-01-05", "5"])]))
check("add_partitions_req needResult=false", plain(r), {})
check("add_partitions_req duplicate", raised(c4.add_partitions_req, T4.AddPartitionsRequest(
    dbName="db1", tblName="t", ifNotExists=False,
    parts=[mk_part(T4, "db1", "t", ["2024-01-05", "5"])])),
    ["AlreadyExistsException", 'partition "ds=2024-01-05/h=5" already exists in table t'])
p = plain(c2.append_partition("db1", "t", ["2024-01-06", "6"]))
check("append_partition", (p["values"], p["sd"]["location"],
                           exists(os.path.join(T1, "ds=2024-01-06", "h=6"))),
      (["2024-01-06", "6"], "file:" + os.path.join(T1, "ds=2024-01-06", "h=6"), True))
p = plain(c4.append_partition_by_name("db1", "t", "ds=a%2Fb/h=7"))
check("append_partition_by_name (escaped)", (p["values"], p["sd"]["location"]),
      (["a/b", "7"], "file:" + os.path.join(T1, "ds=a%2Fb", "h=7")))
check("append_partition duplicate", raised(c2.append_partition, "db1", "t", ["2024-01-06", "6"]),
      ["AlreadyExistsException", 'partition "ds=2024-01-06/h=6" already exists in table t'])
check("append_partition_by_name bad name",
      raised(c4.append_partition_by_name, "db1", "t", "ds=x"),
      ["InvalidObjectException",
       'partition name "ds=x" does not name the partition columns of "db1.t"'])
check("SHOW PARTITIONS", hl("SHOW PARTITIONS db1.t;"),
      "ds=2024-01-01/h=1\nds=2024-01-02/h=2\nds=2024-01-03/h=3\nds=2024-01-04/h=4\n"
      "ds=2024-01-05/h=5\nds=2024-01-06/h=6\nds=a%2Fb/h=7\n")

# alter_partition: parameters (basic statistics stored as given)
pp = c4.get_partition_by_name("db1", "t", "ds=2024-01-01/h=1")
pp.parameters = {"numRows": "2", "totalSize": "8"}
check("alter_partition", c4.alter_partition("db1", "t", pp), None)
check("alter_partition read back",
      plain(c4.get_partition_by_name("db1", "t", "ds=2024-01-01/h=1"))["parameters"],
      {"numRows": "2", "totalSize": "8"})
pa = c2.get_partition_by_name("db1", "t", "ds=2024-01-02/h=2")
pb = c2.get_partition_by_name("db1", "t", "ds=2024-01-04/h=4")
pa.parameters = {"x": "1"}
pb.parameters = {"x": "2"}
check("alter_partitions", c2.alter_partitions("db1", "t", [pa, pb]), None)
check("alter_partitions read back", [x.parameters for x in c2.get_partitions_by_names(
    "db1", "t", ["ds=2024-01-02/h=2", "ds=2024-01-04/h=4"])], [{"x": "1"}, {"x": "2"}])
missing = mk_part(T2, "db1", "t", ["2030-01-01", "1"])
NOPART = 'partition (\'2030-01-01\', \'1\') of table "db1.t" does not exist'
pa.parameters = {"x": "changed"}
check("alter_partitions missing one (all or none)",
      raised(c2.alter_partitions, "db1", "t", [pa, missing]),
      ["InvalidOperationException", NOPART])
check("nothing altered", c2.get_partition_by_name("db1", "t", "ds=2024-01-02/h=2").parameters,
      {"x": "1"})
check("alter_partition missing", raised(c4.alter_partition, "db1", "t", missing),
      ["InvalidOperationException", NOPART])
pq = c4.get_partition_by_name("db1", "t", "ds=2024-01-04/h=4")
pq.parameters = {"x": "req"}
check("alter_partitions_req (hive4)", plain(c4.alter_partitions_req(T4.AlterPartitionsRequest(
    dbName="db1", tableName="t", partitions=[pq]))), {})
check("alter_partitions_req read back",
      c4.get_partition_by_name("db1", "t", "ds=2024-01-04/h=4").parameters, {"x": "req"})

# rename_partition: a managed partition at its default path moves
newp = mk_part(T4, "db1", "t", ["2024-01-06", "60"])
check("rename_partition", c4.rename_partition("db1", "t", ["2024-01-06", "6"], newp), None)
check("rename_partition moved the directory",
      (exists(os.path.join(T1, "ds=2024-01-06", "h=6")),
       exists(os.path.join(T1, "ds=2024-01-06", "h=60"))), (False, True))
check("rename_partition read back", plain(c4.get_partition_by_name(
    "db1", "t", "ds=2024-01-06/h=60"))["sd"]["location"],
    "file:" + os.path.join(T1, "ds=2024-01-06", "h=60"))
check("rename_partition_req (hive4) there and back", (
    plain(c4.rename_partition_req(T4.RenamePartitionRequest(
        dbName="db1", tableName="t", partVals=["2024-01-06", "60"],
        newPart=mk_part(T4, "db1", "t", ["2024-01-06", "61"])))),
    exists(os.path.join(T1, "ds=2024-01-06", "h=61")),
    c4.rename_partition("db1", "t", ["2024-01-06", "61"], newp),
    exists(os.path.join(T1, "ds=2024-01-06", "h=60"))), ({}, True, None, True))
check("rename_partition onto an existing one", raised(
    c4.rename_partition, "db1", "t", ["2024-01-06", "60"], mk_part(T4, "db1", "t",
                                                                   ["2024-01-05", "5"])),
    ["InvalidOperationException", 'partition "ds=2024-01-05/h=5" already exists in table t'])

# drops
P4 = os.path.join(T1, "ds=2024-01-04")
check("drop_partition deleteData", c4.drop_partition("db1", "t", ["2024-01-04", "4"], True), True)
check("drop_partition removed the directory", exists(P4), False)
check("drop_partition_by_name keep data",
      c2.drop_partition_by_name("db1", "t", "ds=2024-01-05/h=5", False), True)
check("drop_partition_by_name kept the directory",
      exists(os.path.join(T1, "ds=2024-01-05", "h=5")), True)
NOPART = 'partition (\'2030-01-01\', \'1\') of table "db1.t" does not exist'
check("drop_partition missing",
      raised(c4.drop_partition, "db1", "t", ["2030-01-01", "1"], True),
      ["NoSuchObjectException", NOPART])
check("rename_partition onto a kept directory", raised(
    c4.rename_partition, "db1", "t", ["2024-01-06", "60"], mk_part(T4, "db1", "t",
                                                                   ["2024-01-05", "5"])),
    ["InvalidOperationException", 'cannot rename partition: "%s" exists already'
     % os.path.join(T1, "ds=2024-01-05", "h=5")])
r = c4.drop_partitions_req(T4.DropPartitionsRequest(
    dbName="db1", tblName="t", deleteData=True, needResult=True,
    parts=T4.RequestPartsSpec(names=["ds=2024-01-03/h=3", "ds=2030-01-01/h=1"])))
check("drop_partitions_req", [x.values for x in r.partitions], [["2024-01-03", "3"]])
check("drop_partitions_req kept a location outside the table", exists(CUSTOM), True)
check("drop_partitions_req ifExists=false", raised(c4.drop_partitions_req, T4.DropPartitionsRequest(
    dbName="db1", tblName="t", ifExists=False,
    parts=T4.RequestPartsSpec(names=["ds=2030-01-01/h=1"]))),
    ["NoSuchObjectException", NOPART])
check("SHOW PARTITIONS after drops", hl("SHOW PARTITIONS db1.t;"),
      "ds=2024-01-01/h=1\nds=2024-01-02/h=2\nds=2024-01-06/h=60\nds=a%2Fb/h=7\n")
counts_exact("after adds, appends, renames and drops")
check("get_num_partitions_by_filter (the kept count)",
      c4.get_num_partitions_by_filter("db1", "t", ""), 4)

# alter_table: a new column, a parameter, then a rename (the directory moves)
t = c4.get_table_req(T4.GetTableRequest(dbName="db1", tblName="t")).table
t.sd.cols.append(T4.FieldSchema(name="extra", type="double"))
t.parameters["k2"] = "v2"
check("alter_table_with_cascade", c4.alter_table_with_cascade("db1", "t", t, True), None)
check("alter_table read back", [c.name for c in c4.get_table_req(
    T4.GetTableRequest(dbName="db1", tblName="t")).table.sd.cols], ["id", "name", "extra"])
check("cascade reached the partitions", [c.name for c in c4.get_partition_by_name(
    "db1", "t", "ds=2024-01-01/h=1").sd.cols], ["id", "name", "extra"])
t2 = c4.get_table_req(T4.GetTableRequest(dbName="db1", tblName="t")).table
t2.partitionKeys = t2.partitionKeys[:1]
check("alter_table partition keys", raised(c4.alter_table, "db1", "t", t2),
      ["InvalidOperationException", 'the partition columns of "db1.t" cannot change'])
t3 = c2.get_table("db1", "t")
t3.tableName = "t_renamed"
check("alter_table rename", c2.alter_table("db1", "t", t3), None)
T1R = os.path.join(DB1, "t_renamed")
check("rename moved the directory", (exists(T1), exists(T1R)), (False, True))
check("SELECT after rename", hl("SELECT id, name, extra, ds, h FROM db1.t_renamed ORDER BY id;"),
      "1\ta\tNULL\t2024-01-01\t1\n2\tb\tNULL\t2024-01-01\t1\n")
check("alter_table missing", raised(c2.alter_table, "db1", "nosuch", t3),
      ["InvalidOperationException", 'table "db1.nosuch" does not exist'])

# drop_table
check("drop_table external deleteData", c4.drop_table("db1", "e", True), None)
check("external data kept", sorted(os.listdir(EXT)), ["f.txt"])
check("drop_table managed deleteData", c2.drop_table_with_environment_context(
    "db1", "t_renamed", True, T2.EnvironmentContext(properties={})), None)
check("managed data removed", exists(T1R), False)
check("partition outside the table kept", exists(CUSTOM), True)
check("drop_table missing", raised(c4.drop_table, "db1", "t_renamed", True),
      ["NoSuchObjectException", 'table "db1.t_renamed" does not exist'])
check("SHOW TABLES IN db1", hl("SHOW TABLES IN db1;"), "r\n")
counts_exact("after drop_table")

# drop_database
check("drop_database non-empty", raised(c4.drop_database, "db1", True, False),
      ["InvalidOperationException",
       'database "db1" is not empty: it holds tables (cascade is false)'])
check("drop_database default", raised(c4.drop_database, "default", True, True),
      ["InvalidOperationException", "cannot drop the default database"])
check("drop_database cascade deleteData", c4.drop_database("db1", True, True), None)
check("db1 directory removed", exists(DB1), False)
check("drop_database keeps data without deleteData", (c2.drop_database("db2", False, True),
                                                      exists(DB2)), (None, True))
check("drop_database missing", raised(c4.drop_database, "db1", True, True),
      ["NoSuchObjectException", 'database "db1" does not exist'])
check("SHOW DATABASES", hl("SHOW DATABASES;"), "default\npre\n")
counts_exact("after drop_database")

# ----------------------------------------------------------- statistics
STATS_COLS = [("b", "boolean"), ("i", "bigint"), ("d", "double"), ("dc", "decimal(10,2)"),
              ("dt", "date"), ("s", "string"), ("bin", "binary")]
check("create_table pre.st", c4.create_table(mk_table(T4, "pre", "st", STATS_COLS, [("p", "string")])),
      None)
c4.append_partition("pre", "st", ["1"])


def data(T, **kw):
    return T.ColumnStatisticsData(**kw)


def objs(T):
    return [
        T.ColumnStatisticsObj("b", "boolean", data(T, booleanStats=T.BooleanColumnStatsData(
            numTrues=3, numFalses=2, numNulls=1))),
        T.ColumnStatisticsObj("I", "bigint", data(T, longStats=T.LongColumnStatsData(
            lowValue=-5, highValue=70, numNulls=0, numDVs=4))),
        T.ColumnStatisticsObj("d", "double", data(T, doubleStats=T.DoubleColumnStatsData(
            lowValue=0.5, highValue=2.25, numNulls=2, numDVs=3))),
        T.ColumnStatisticsObj("dc", "decimal(10,2)", data(T, decimalStats=T.DecimalColumnStatsData(
            lowValue=T.Decimal(scale=2, unscaled=(-1250).to_bytes(2, "big", signed=True)),
            highValue=T.Decimal(scale=2, unscaled=(99999).to_bytes(3, "big", signed=True)),
            numNulls=0, numDVs=7))),
        T.ColumnStatisticsObj("dt", "date", data(T, dateStats=T.DateColumnStatsData(
            lowValue=T.Date(19723), highValue=T.Date(19724), numNulls=0, numDVs=2))),
        T.ColumnStatisticsObj("s", "string", data(T, stringStats=T.StringColumnStatsData(
            maxColLen=9, avgColLen=4.5, numNulls=1, numDVs=5))),
        T.ColumnStatisticsObj("bin", "binary", data(T, binaryStats=T.BinaryColumnStatsData(
            maxColLen=16, avgColLen=8.0, numNulls=0))),
    ]


def desc(T, part=None):
    return T.ColumnStatisticsDesc(isTblLevel=part is None, dbName="pre", tableName="st",
                                  partName=part, lastAnalyzed=1700000000)


check("update_table_column_statistics", c4.update_table_column_statistics(
    T4.ColumnStatistics(statsDesc=desc(T4), statsObj=objs(T4))), True)
WANT = [
    {"colName": "b", "colType": "boolean", "statsData": {"booleanStats": {
        "numTrues": 3, "numFalses": 2, "numNulls": 1}}},
    {"colName": "i", "colType": "bigint", "statsData": {"longStats": {
        "lowValue": -5, "highValue": 70, "numNulls": 0, "numDVs": 4}}},
    {"colName": "d", "colType": "double", "statsData": {"doubleStats": {
        "lowValue": 0.5, "highValue": 2.25, "numNulls": 2, "numDVs": 3}}},
    {"colName": "dc", "colType": "decimal(10,2)", "statsData": {"decimalStats": {
        "lowValue": {"scale": 2, "unscaled": b"\xfb\x1e"},
        "highValue": {"scale": 2, "unscaled": b"\x01\x86\x9f"}, "numNulls": 0, "numDVs": 7}}},
    {"colName": "dt", "colType": "date", "statsData": {"dateStats": {
        "lowValue": {"daysSinceEpoch": 19723}, "highValue": {"daysSinceEpoch": 19724},
        "numNulls": 0, "numDVs": 2}}},
    {"colName": "s", "colType": "string", "statsData": {"stringStats": {
        "maxColLen": 9, "avgColLen": 4.5, "numNulls": 1, "numDVs": 5}}},
    {"colName": "bin", "colType": "binary", "statsData": {"binaryStats": {
        "maxColLen": 16, "avgColLen": 8.0, "numNulls": 0}}},
]
check("get_table_column_statistics (hive2)", plain(c2.get_table_column_statistics("pre", "st", "I")),
      {"statsDesc": {"isTblLevel": True, "dbName": "pre", "tableName": "st",
                     "lastAnalyzed": 1700000000}, "statsObj": [WANT[1]]})
check("get_table_statistics_req", plain(c4.get_table_statistics_req(T4.TableStatsRequest(
    dbName="pre", tblName="st", colNames=[c for c, _ in STATS_COLS] + ["nostats"]))),
    {"tableStats": WANT})
check("statistics seen by hivelite (DESCRIBE FORMATTED pre.st dc)",
      hl("DESCRIBE FORMATTED pre.st dc;"),
      "col_name\tdc\ndata_type\tdecimal(10,2)\nmin\t-12.50\nmax\t999.99\nnum_nulls\t0\n"
      "distinct_count\t7\navg_col_len\t\nmax_col_len\t\nnum_trues\t\nnum_falses\t\n"
      "bitVector\t\ncomment\t\n")
check("statistics seen by hivelite (DESCRIBE FORMATTED pre.st b)",
      hl("DESCRIBE FORMATTED pre.st b;"),
      "col_name\tb\ndata_type\tboolean\nmin\t\nmax\t\nnum_nulls\t1\ndistinct_count\t\n"
      "avg_col_len\t\nmax_col_len\t\nnum_trues\t3\nnum_falses\t2\nbitVector\t\n"
      "comment\t\n")
check("update_partition_column_statistics", c2.update_partition_column_statistics(
    T2.ColumnStatistics(statsDesc=desc(T2, "p=1"), statsObj=objs(T2)[1:2])), True)
check("get_partitions_statistics_req", plain(c4.get_partitions_statistics_req(
    T4.PartitionsStatsRequest(dbName="pre", tblName="st", colNames=["i", "d"],
                              partNames=["p=1", "p=2"]))),
    {"partStats": {"p=1": [WANT[1]]}})
check("get_partition_column_statistics", plain(c4.get_partition_column_statistics(
    "pre", "st", "p=1", "i"))["statsObj"], [WANT[1]])
check("update unknown column", raised(c4.update_table_column_statistics, T4.ColumnStatistics(
    statsDesc=desc(T4), statsObj=[T4.ColumnStatisticsObj("zz", "bigint", objs(T4)[1].statsData)])),
    ["InvalidObjectException", 'column "zz" of table "pre.st" does not exist (statistics are '
     'kept for data columns)'])
check("update wrong kind", raised(c4.update_table_column_statistics, T4.ColumnStatistics(
    statsDesc=desc(T4), statsObj=[T4.ColumnStatisticsObj("s", "string", objs(T4)[1].statsData)])),
    ["InvalidObjectException",
     'statistics of kind 2 do not fit column "s" of type string'])
check("failed update changed nothing",
      plain(c4.get_table_column_statistics("pre", "st", "s"))["statsObj"], [WANT[5]])
check("update unknown table", raised(c4.update_table_column_statistics, T4.ColumnStatistics(
    statsDesc=T4.ColumnStatisticsDesc(isTblLevel=True, dbName="pre", tableName="nosuch"),
    statsObj=objs(T4)[:1])), ["NoSuchObjectException", 'table "pre.nosuch" does not exist'])
check("update unknown partition", raised(c4.update_partition_column_statistics,
                                         T4.ColumnStatistics(statsDesc=desc(T4, "p=9"),
                                                             statsObj=objs(T4)[:1])),
      ["NoSuchObjectException", 'partition "p=9" of table "pre.st" does not exist'])
check("delete_table_column_statistics", c4.delete_table_column_statistics("pre", "st", "i", "hive"),
      True)
check("deleted statistics are gone", raised(c4.get_table_column_statistics, "pre", "st", "i"),
      ["NoSuchObjectException", 'no statistics of column "i" of pre.st'])
check("delete again", raised(c2.delete_table_column_statistics, "pre", "st", "i"),
      ["NoSuchObjectException", 'no statistics of column "i" of pre.st'])
check("delete_partition_column_statistics",
      c2.delete_partition_column_statistics("pre", "st", "p=1", "i"), True)
check("update_table_column_statistics_req", plain(c4.update_table_column_statistics_req(
    T4.SetPartitionsStatsRequest(colStats=[T4.ColumnStatistics(statsDesc=desc(T4),
                                                               statsObj=objs(T4)[1:2])]))),
    {"result": True})
check("set_aggr_stats_for (hive2)", c2.set_aggr_stats_for(T2.SetPartitionsStatsRequest(
    colStats=[T2.ColumnStatistics(statsDesc=desc(T2, "p=1"), statsObj=objs(T2)[2:3])])), True)
check("read back after set_aggr_stats_for", (
    plain(c4.get_table_column_statistics("pre", "st", "i"))["statsObj"],
    plain(c4.get_partition_column_statistics("pre", "st", "p=1", "d"))["statsObj"]),
    ([WANT[1]], [WANT[2]]))
c4.append_partition("pre", "st", ["2"])
c4.update_partition_column_statistics(T4.ColumnStatistics(statsDesc=desc(T4, "p=1"),
                                                          statsObj=objs(T4)[1:2]))
c4.update_partition_column_statistics(T4.ColumnStatistics(
    statsDesc=desc(T4, "p=2"), statsObj=[T4.ColumnStatisticsObj("i", "bigint", data(
        T4, longStats=T4.LongColumnStatsData(lowValue=-10, highValue=20, numNulls=3,
                                             numDVs=9)))]))
check("get_aggr_stats_for (hive2)", plain(c2.get_aggr_stats_for(T2.PartitionsStatsRequest(
    dbName="pre", tblName="st", colNames=["i", "d"], partNames=["p=1", "p=2", "p=9"]))),
    {"colStats": [
        {"colName": "i", "colType": "bigint", "statsData": {"longStats": {
            "lowValue": -10, "highValue": 70, "numNulls": 3, "numDVs": 9}}},
        WANT[2]], "partsFound": 1})

# ---------------------------------------------------------- hostile bytes
def raw_call(name, body):
    """A strict CALL message NAME with the argument bytes BODY, framed by
    nothing (buffered transport); returns what the server answered before
    it closed the connection (b"" when it closed at once)."""
    import socket
    import struct
    msg = struct.pack(">iI", -2147418112 | 1, len(name)) + name.encode() + struct.pack(">i", 1)
    sk = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    sk.sendall(msg + body)
    sk.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        b = sk.recv(65536)
        if not b:
            break
        got += b
    sk.close()
    return got


# create_table with a Table whose column list says 2**30 elements
check("create_table with a huge list count",
      raw_call("create_table", bytes([12, 0, 1, 12, 0, 7, 15, 0, 1, 12, 0x40, 0, 0, 0])), b"")
# a LockRequest without its required user and hostname
check("lock without required fields",
      raw_call("lock", bytes([12, 0, 1, 15, 0, 1, 12, 0, 0, 0, 0, 0, 0])), b"")
# drop_partitions_req cut in the middle of its table name
check("truncated drop_partitions_req",
      raw_call("drop_partitions_req", bytes([12, 0, 1, 11, 0, 1, 0, 0, 0, 9, 0x61])), b"")
check("the server still serves", c4.get_all_databases(), ["default", "pre"])

# ---------------------------------------------------------------- locks
def comp(T, typ, level, db, tbl=None, part=None):
    return T.LockComponent(type=typ, level=level, dbname=db, tablename=tbl, partitionname=part)


def lock(c, T, *comps):
    return c.lock(T.LockRequest(component=list(comps), user="u", hostname="h"))


def state(c, T, lid):
    return c.check_lock(T.CheckLockRequest(lockid=lid)).state


LT, LL, LS = T4.LockType, T4.LockLevel, T4.LockState
r1 = lock(c4, T4, comp(T4, LT.SHARED_READ, LL.TABLE, "pre", "x"))
r2 = lock(c2, T2, comp(T2, LT.SHARED_READ, LL.TABLE, "pre", "x"))
r3 = lock(c4, T4, comp(T4, LT.EXCLUSIVE, LL.TABLE, "pre", "x"))
r4 = lock(c4, T4, comp(T4, LT.SHARED_READ, LL.TABLE, "pre", "x"))
check("two readers and a writer", [(r.lockid, r.state) for r in (r1, r2, r3, r4)],
      [(1, LS.ACQUIRED), (2, LS.ACQUIRED), (3, LS.WAITING), (4, LS.WAITING)])
check("check_lock while readers hold it", state(c4, T4, 3), LS.WAITING)
c4.unlock(T4.UnlockRequest(lockid=1))
check("one reader left", state(c4, T4, 3), LS.WAITING)
c2.unlock(T2.UnlockRequest(lockid=2))
check("exclusive granted", (state(c4, T4, 3), state(c4, T4, 4)), (LS.ACQUIRED, LS.WAITING))
s = c4.show_locks(T4.ShowLocksRequest())
check("show_locks", [(e.lockid, e.dbname, e.tablename, e.state, e.type, e.user, e.hostname)
                     for e in s.locks],
      [(3, "pre", "x", LS.ACQUIRED, LT.EXCLUSIVE, "u", "h"),
       (4, "pre", "x", LS.WAITING, LT.SHARED_READ, "u", "h")])
c4.unlock(T4.UnlockRequest(lockid=3))
check("queued reader granted", state(c4, T4, 4), LS.ACQUIRED)
r5 = lock(c4, T4, comp(T4, LT.SHARED_WRITE, LL.PARTITION, "pre", "x", "p=1"))
r6 = lock(c4, T4, comp(T4, LT.SHARED_WRITE, LL.PARTITION, "pre", "x", "p=2"))
r7 = lock(c4, T4, comp(T4, LT.SHARED_WRITE, LL.PARTITION, "pre", "x", "p=1"))
check("writers of partitions", [r.state for r in (r5, r6, r7)],
      [LS.ACQUIRED, LS.ACQUIRED, LS.WAITING])
r8 = lock(c4, T4, comp(T4, LT.EXCLUSIVE, LL.DB, "PRE"))
check("database exclusive waits for table locks", r8.state, LS.WAITING)
r9 = lock(c4, T4, comp(T4, LT.SHARED_READ, LL.TABLE, "pre", "other"))
check("a later reader waits behind the database lock", r9.state, LS.WAITING)
for lid in (4, 5, 6, 7):
    c4.unlock(T4.UnlockRequest(lockid=lid))
check("database lock granted", (state(c4, T4, 8), state(c4, T4, 9)), (LS.ACQUIRED, LS.WAITING))
check("heartbeat", c4.heartbeat(T4.HeartbeatRequest(lockid=8)), None)
check("unlock unknown", raised(c4.unlock, T4.UnlockRequest(lockid=99)),
      ["NoSuchLockException", "No such lock: 99 (it was released or timed out)"])
check("check_lock unknown", raised(c2.check_lock, T2.CheckLockRequest(lockid=99)),
      ["NoSuchLockException", "No such lock: 99 (it was released or timed out)"])
check("heartbeat unknown", raised(c2.heartbeat, T2.HeartbeatRequest(lockid=99)),
      ["NoSuchLockException", "No such lock: 99 (it was released or timed out)"])
check("lock with a txnid", raised(lambda: c4.lock(T4.LockRequest(
    component=[comp(T4, LT.SHARED_READ, LL.DB, "pre")], txnid=5, user="u", hostname="h"))),
    ["NoSuchTxnException",
     "hivelite's metastore has no transactions: only locks without a txnid are served"])
many = [comp(T4, LT.SHARED_READ, LL.PARTITION, "pre", "x", "p=%d" % i) for i in range(100001)]
check("a lock of too many components", raised(lambda: lock(c4, T4, *many)),
      ["TApplicationException", 6, "too many locks or lock components are held or waiting"])
c4.unlock(T4.UnlockRequest(lockid=8))
c4.unlock(T4.UnlockRequest(lockid=9))
check("no locks left", c4.show_locks(T4.ShowLocksRequest()).locks, [])
tr4.close()
tr2.close()

# timeout: a second server on the warehouse with hivelite.metastore.lock_timeout_s=1
srv.terminate()
check("first server exit", srv.wait(30), 0)
os.makedirs(os.path.join(W, ".hivelite"), exist_ok=True)
with open(os.path.join(W, ".hivelite", "config"), "a") as f:
    f.write("hivelite.metastore.lock_timeout_s=1\n")
srv, port = start_server()
c, tr = connect(S4, port)
a = lock(c, T4, comp(T4, LT.EXCLUSIVE, LL.TABLE, "pre", "x"))
b = lock(c, T4, comp(T4, LT.EXCLUSIVE, LL.TABLE, "pre", "x"))
check("second exclusive waits", (a.state, b.state), (LS.ACQUIRED, LS.WAITING))
for _ in range(6):  # 2.4 s: b keeps polling (a heartbeat), a does not
    time.sleep(0.4)
    last = state(c, T4, b.lockid)
check("the silent holder timed out, the waiter got it", last, LS.ACQUIRED)
check("timed-out lock is unknown", raised(c.check_lock, T4.CheckLockRequest(lockid=a.lockid))[0],
      "NoSuchLockException")
for _ in range(5):
    time.sleep(0.4)
    c.heartbeat(T4.HeartbeatRequest(lockid=b.lockid))
check("heartbeats keep a lock", state(c, T4, b.lockid), LS.ACQUIRED)
tr.close()
srv.terminate()
check("second server exit", srv.wait(30), 0)

if failures:
    print("%d failures: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("all passed")
