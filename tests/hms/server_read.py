#!/usr/bin/python3
"""server_read.py -- `hivelite metastore` (src/hms_server/) driven by the
Python clients Debian's thrift compiler generates from the Hive 4 and the
Hive 2.3 IDL (../shared/fixtures/hms/hive4, hive2), over Apache Thrift's
buffered socket transport, the peer's own runtime.

A warehouse made with hivelite (a database, a text table, a partitioned
Parquet table whose third partition is ORC, an external table, a view) is
served on 127.0.0.1:0; every read method the server has is called and its
answer compared field by field with exact values; then the fallbacks
(UNKNOWN_METHOD on the same connection, the oneway fb303 shutdown),
`@hive#db` names, NoSuchObjectException, hostile bytes (truncated message,
garbage header, a 2 GB length: the server keeps serving), and SIGTERM
(exit 0).  Skip and fail rules: hms_gen.py.
"""
import argparse
import atexit
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import hms_gen

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--fixtures", required=True)
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
from thrift.Thrift import TApplicationException, TType  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_server_", dir=base)
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


t0 = int(time.time())
sql = """CREATE DATABASE sales COMMENT 'the sales' WITH DBPROPERTIES ('team'='s');
CREATE TABLE sales.txt (id INT COMMENT 'the id', name STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
INSERT INTO sales.txt VALUES (1, 'a'), (2, 'b');
CREATE TABLE sales.pq (v BIGINT, d DECIMAL(10,2)) PARTITIONED BY (ds STRING, h INT)
  STORED AS PARQUET TBLPROPERTIES ('k'='v');
INSERT INTO sales.pq PARTITION (ds='2024-01-01', h=1) VALUES (1, 1.5);
INSERT INTO sales.pq PARTITION (ds='2024-01-02', h=2) VALUES (2, 2.5);
ALTER TABLE sales.pq ADD PARTITION (ds='2024-01-03', h=3);
ALTER TABLE sales.pq PARTITION (ds='2024-01-03', h=3) SET FILEFORMAT ORC;
CREATE EXTERNAL TABLE sales.ext (x STRING) STORED AS ORC LOCATION '%s';
CREATE VIEW sales.v AS SELECT id FROM sales.txt;
""" % EXT
subprocess.run([opts.hivelite, "-w", W, "-c", sql], check=True, stdout=subprocess.DEVNULL)
t1 = int(time.time())

srv = None


def stop_server():
    if srv and srv.poll() is None:
        srv.kill()
        srv.wait()


atexit.register(stop_server)
srv = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.PIPE)
ready, _, _ = select.select([srv.stdout], [], [], 60)
line = srv.stdout.readline().decode() if ready else ""
m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
if not m:
    print("FAIL: the server printed %r" % line)
    srv.kill()
    sys.exit(1)
PORT = int(m.group(1))


def connect(S):
    sock = TSocket.TSocket("127.0.0.1", PORT)
    sock.setTimeout(30000)
    trans = TTransport.TBufferedTransport(sock)
    trans.open()
    return S.Client(TBinaryProtocol.TBinaryProtocol(trans)), trans


def plain(v, ttype=None, targs=None):
    """A generated value as plain data: structs as dicts of their set fields."""
    if hasattr(v, "thrift_spec"):
        d = {}
        for spec in type(v).thrift_spec:
            if spec is None:
                continue
            _fid, ftype, name, fargs, _default = spec
            val = getattr(v, name)
            if val is not None:
                d[name] = plain(val, ftype, fargs)
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


def created(d):
    """Checks createTime lies in the run of the setup, replaces it by "T"."""
    if "createTime" in d:
        ok = t0 <= d["createTime"] <= t1
        d["createTime"] = "T" if ok else d["createTime"]
    return d


TEXT_IN = "org.apache.hadoop.mapred.TextInputFormat"
TEXT_OUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"
PQ_IN = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"
PQ_OUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"
PQ_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
ORC_IN = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat"
ORC_OUT = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat"
ORC_SERDE = "org.apache.hadoop.hive.ql.io.orc.OrcSerde"
SKEW = {"skewedColNames": [], "skewedColValues": [], "skewedColValueLocationMaps": {}}


def sd(cols, location, inf, outf, serde, serde_params=None):
    d = {"cols": cols, "inputFormat": inf, "outputFormat": outf, "compressed": False,
         "numBuckets": -1, "serdeInfo": {"serializationLib": serde,
                                         "parameters": serde_params or {}},
         "bucketCols": [], "sortCols": [], "parameters": {}, "skewedInfo": SKEW,
         "storedAsSubDirectories": False}
    if location is not None:
        d["location"] = location
    return {k: v for k, v in d.items() if v is not None}


def col(name, type_, comment=None):
    d = {"name": name, "type": type_}
    if comment is not None:
        d["comment"] = comment
    return d


PQ_COLS = [col("v", "bigint"), col("d", "decimal(10,2)")]

# ---- databases (Hive 4 client)
c4, tr4 = connect(S4)
check("get_all_databases", c4.get_all_databases(), ["default", "sales"])
check("get_databases('sa*')", c4.get_databases("sa*"), ["sales"])
check("get_databases('x*|DEF*')", c4.get_databases("x*|DEF*"), ["default"])
check("get_databases('@hive#sal*')", c4.get_databases("@hive#sal*"), ["sales"])
check("get_database(sales)", plain(c4.get_database("sales")),
      {"name": "sales", "description": "the sales", "locationUri": "file:%s/sales.db" % W,
       "parameters": {"team": "s"}, "catalogName": "hive"})
check("get_database(@hive#default)", plain(c4.get_database("@hive#default"))["locationUri"],
      "file:%s" % W)
check("get_database(@spark#sales)", raised(c4.get_database, "@spark#sales"),
      ["NoSuchObjectException", 'catalog of "@spark#sales" does not exist'])
check("get_database(nosuch)", raised(c4.get_database, "nosuch"),
      ["NoSuchObjectException", 'database "nosuch" does not exist'])

# ---- tables
check("get_all_tables(sales)", c4.get_all_tables("sales"), ["ext", "pq", "txt", "v"])
check("get_all_tables(@hive#sales)", c4.get_all_tables("@hive#sales"), ["ext", "pq", "txt", "v"])
check("get_all_tables(nosuch)", c4.get_all_tables("nosuch"), [])
check("get_tables(sales, 'p*|T*')", c4.get_tables("sales", "p*|T*"), ["pq", "txt"])
# the metastore's patterns are Hive's regular-expression form: '.' is any
# one character, ".*" any sequence (Trino sends ".*")
check("get_tables(sales, '.*')", c4.get_tables("sales", ".*"), ["ext", "pq", "txt", "v"])
check("get_tables(sales, 't.t')", c4.get_tables("sales", "t.t"), ["txt"])
check("get_databases('.*')", c4.get_databases(".*"), ["default", "sales"])


def table(client, req, db, name):
    if req:
        r = client.get_table_req(T4.GetTableRequest(dbName=db, tblName=name))
        return created(plain(r.table))
    return created(plain(client.get_table(db, name)))


STATS = {"COLUMN_STATS_ACCURATE": '{"BASIC_STATS":"true"}'}


def stats(files, rows, size, raw):
    return dict(STATS, numFiles=str(files), numRows=str(rows), totalSize=str(size),
                rawDataSize=str(raw))


INCR_DS = {"hivelite.incremental.field": "ds", "hivelite.incremental.kind": "date"}


def tbl(name, sd_, keys, params, ttype, tid, **extra):
    d = {"tableName": name, "dbName": "sales", "createTime": "T", "lastAccessTime": 0,
         "retention": 0, "sd": sd_, "partitionKeys": keys, "parameters": params,
         "tableType": ttype, "temporary": False, "rewriteEnabled": False, "catName": "hive",
         "id": tid}
    d.update(extra)
    return d


want = {
    "txt": tbl("txt", sd([col("id", "int", "the id"), col("name", "string")],
                         "file:%s/sales.db/txt" % W, TEXT_IN, TEXT_OUT, LAZY,
                         {"field.delim": ",", "serialization.format": ","}),
               [], stats(1, 2, 8, 6), "MANAGED_TABLE", 1),
    "pq": tbl("pq", sd(PQ_COLS, "file:%s/sales.db/pq" % W, PQ_IN, PQ_OUT, PQ_SERDE,
                       {"serialization.format": "1"}),
              [col("ds", "string"), col("h", "int")],
              # ADD PARTITION of text dates made ds the incremental field
              dict(stats(2, 2, 1022, 4), k="v", **INCR_DS),
              "MANAGED_TABLE", 2),
    "ext": tbl("ext", sd([col("x", "string")], "file:%s" % EXT, ORC_IN, ORC_OUT, ORC_SERDE,
                         {"serialization.format": "1"}),
               [], {"EXTERNAL": "TRUE"}, "EXTERNAL_TABLE", 3),
    "v": tbl("v", sd([col("id", "int")], None, None, None, None), [], {}, "VIRTUAL_VIEW", 4,
             viewOriginalText="SELECT id FROM sales.txt",
             viewExpandedText="SELECT id FROM sales.txt"),
}
# the generated classes fill defaults of fields the server leaves unset
# (Hive 4: ownerType USER, writeId -1); the server sends no owner here
for w in want.values():
    w["sd"]["serdeInfo"] = {k: v for k, v in w["sd"]["serdeInfo"].items() if v is not None}
    w.update(ownerType=1, writeId=-1)
for name in ("txt", "pq", "ext", "v"):
    check("hive4 get_table_req(sales, %s)" % name, table(c4, True, "sales", name), want[name])
check("hive4 get_table_req(@hive#sales, txt)", table(c4, True, "@hive#sales", "txt"),
      want["txt"])
check("hive4 get_table_req(sales, nosuch)", raised(table, c4, True, "sales", "nosuch"),
      ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])
check("hive4 get_table_req(nosuch, t)", raised(table, c4, True, "nosuch", "t"),
      ["NoSuchObjectException", 'database "nosuch" does not exist'])
check("hive4 get_table_req(catName=spark)",
      raised(c4.get_table_req, T4.GetTableRequest(dbName="sales", tblName="txt",
                                                   catName="spark")),
      ["NoSuchObjectException", "catalog spark does not exist"])


def part(values, loc, sd_, params):
    return {"values": values, "dbName": "sales", "tableName": "pq", "createTime": "T",
            "lastAccessTime": 0, "sd": dict(sd_, location="file:%s/sales.db/pq/%s" % (W, loc)),
            "parameters": params, "catName": "hive", "writeId": -1}


PQ_SD = sd(PQ_COLS, None, PQ_IN, PQ_OUT, PQ_SERDE, {"serialization.format": "1"})
ORC_SD = sd(PQ_COLS, None, ORC_IN, ORC_OUT, ORC_SERDE, {"serialization.format": "1"})
NAMES = ["ds=2024-01-01/h=1", "ds=2024-01-02/h=2", "ds=2024-01-03/h=3"]
PARTS = [part(["2024-01-01", "1"], NAMES[0], PQ_SD, stats(1, 1, 511, 2)),
         part(["2024-01-02", "2"], NAMES[1], PQ_SD, stats(1, 1, 511, 2)),
         part(["2024-01-03", "3"], NAMES[2], ORC_SD, {})]


def parts(lst):
    return [created(plain(p)) for p in lst]


check("hive4 get_partition_names", c4.get_partition_names("sales", "pq", -1), NAMES)
check("hive4 get_partition_names max 2", c4.get_partition_names("@hive#sales", "pq", 2),
      NAMES[:2])
check("hive4 get_partition_names(txt)", c4.get_partition_names("sales", "txt", -1), [])
check("hive4 get_partition_names(nosuch)", raised(c4.get_partition_names, "sales", "no", -1),
      ["NoSuchObjectException", 'table "sales.no" does not exist'])
check("hive4 get_partitions", parts(c4.get_partitions("sales", "pq", -1)), PARTS)
check("hive4 get_partitions max 1", parts(c4.get_partitions("sales", "pq", 1)), PARTS[:1])
check("hive4 get_partitions(nosuch)", raised(c4.get_partitions, "sales", "no", -1),
      ["NoSuchObjectException", 'table "sales.no" does not exist'])
check("hive4 get_partitions_by_names",
      parts(c4.get_partitions_by_names("sales", "pq", [NAMES[2], "ds=x/h=0", NAMES[0]])),
      [PARTS[2], PARTS[0]])
check("hive4 get_partitions_by_names(nosuch)",
      raised(c4.get_partitions_by_names, "sales", "no", NAMES),
      ["NoSuchObjectException", 'table "sales.no" does not exist'])
check("hive4 get_partition_by_name",
      created(plain(c4.get_partition_by_name("sales", "pq", NAMES[1]))), PARTS[1])
check("hive4 get_partition_by_name(missing)",
      raised(c4.get_partition_by_name, "sales", "pq", "ds=x/h=0"),
      ["NoSuchObjectException", "partition ds=x/h=0 of sales.pq does not exist"])

# ---- fallbacks on the same connection
check("hive4 get_tables_ext: UNKNOWN_METHOD",
      raised(c4.get_tables_ext, T4.GetTablesExtRequest(catalog="hive", database="sales",
                                                       tableNamePattern="*",
                                                       requestedFields=1)),
      ["TApplicationException", 1, "Invalid method name: 'get_tables_ext'"])
check("hive4 get_role_names: UNKNOWN_METHOD", raised(c4.get_role_names),
      ["TApplicationException", 1, "Invalid method name: 'get_role_names'"])
check("hive4 after UNKNOWN_METHOD the connection serves", c4.get_all_databases(),
      ["default", "sales"])
c4.shutdown()  # fb303's oneway shutdown: no reply, nothing happens
check("hive4 after the oneway shutdown the connection serves",
      c4.get_all_tables("sales"), ["ext", "pq", "txt", "v"])
tr4.close()

# ---- the Hive 2.3 client (Spark's): get_table, exception ids of its IDL
c2, tr2 = connect(S2)
want2 = {}
for name, w in want.items():
    w2 = {k: v for k, v in w.items() if k not in ("catName", "ownerType", "writeId", "id")}
    want2[name] = w2
for name in ("txt", "pq", "ext", "v"):
    check("hive2 get_table(sales, %s)" % name, table(c2, False, "sales", name), want2[name])
check("hive2 get_table_req(sales, pq)",
      created(plain(c2.get_table_req(T2.GetTableRequest(dbName="sales", tblName="pq")).table)),
      want2["pq"])
check("hive2 get_table(sales, nosuch)", raised(c2.get_table, "sales", "nosuch"),
      ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])
check("hive2 get_database(default)", plain(c2.get_database("default")),
      {"name": "default", "description": "Default Hive database",
       "locationUri": "file:%s" % W, "parameters": {}})
check("hive2 get_all_databases", c2.get_all_databases(), ["default", "sales"])
check("hive2 get_partition_names", c2.get_partition_names("sales", "pq", -1), NAMES)
# Hive 2.3 declares get_partition_names throws (1: MetaException) only
check("hive2 get_partition_names(nosuch)", raised(c2.get_partition_names, "sales", "no", -1),
      ["MetaException", 'table "sales.no" does not exist'])
parts2 = [{k: v for k, v in p.items() if k not in ("catName", "writeId")} for p in PARTS]
check("hive2 get_partitions_by_names",
      parts(c2.get_partitions_by_names("sales", "pq", NAMES[1:])), parts2[1:])
check("hive2 get_partitions", parts(c2.get_partitions("sales", "pq", -1)), parts2)
check("hive2 get_role_names: UNKNOWN_METHOD", raised(c2.get_role_names),
      ["TApplicationException", 1, "Invalid method name: 'get_role_names'"])
check("hive2 after UNKNOWN_METHOD", c2.get_tables("sales", "e*"), ["ext"])
tr2.close()


# ---- many clients at once: each thread its own connection, interleaved
def worker(out, i):
    try:
        c, tr = connect(S4)
        res = []
        for _ in range(10):
            res.append(table(c, True, "sales", "pq") == want["pq"])
            res.append(parts(c.get_partitions("sales", "pq", -1)) == PARTS)
        tr.close()
        out[i] = all(res)
    except Exception as e:  # reported as a failure below
        out[i] = repr(e)


results = [None] * 6
threads = [threading.Thread(target=worker, args=(results, i)) for i in range(6)]
for th in threads:
    th.start()
for th in threads:
    th.join()
check("6 concurrent clients, 20 calls each", results, [True] * 6)


# ---- hostile bytes: each on its own connection, then the server still serves
def hostile(what, data):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except OSError:
        pass
    s.close()
    c, tr = connect(S4)
    check("%s: closed without an answer, server serves the next connection" % what,
          [got, c.get_all_databases()], [b"", ["default", "sales"]])
    tr.close()


call = TTransport.TMemoryBuffer()
S4.Client(TBinaryProtocol.TBinaryProtocol(call)).send_get_table_req(
    T4.GetTableRequest(dbName="sales", tblName="txt"))
call = call.getvalue()
hostile("truncated message", call[:len(call) - 5])
hostile("garbage header", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
hostile("2 GB string length", b"\x80\x01\x00\x01\x00\x00\x00\x09get_table\x00\x00\x00\x01"
        b"\x0b\x00\x01\x7f\xff\xff\xff" + b"x" * 64)
hostile("2 GB name length", b"\x80\x01\x00\x01\x7f\xff\xff\xf0get")
hostile("a reply where a call belongs",
        b"\x80\x01\x00\x02\x00\x00\x00\x03abc\x00\x00\x00\x01\x00")

# ---- SIGTERM: a connection open, the server exits 0
c4, tr4 = connect(S4)
check("before SIGTERM", c4.get_all_databases(), ["default", "sales"])
srv.send_signal(signal.SIGTERM)
try:
    rc = srv.wait(timeout=30)
except subprocess.TimeoutExpired:
    rc = "still running"
check("SIGTERM: exit status", rc, 0)
tr4.close()

# ---- the idle timeout closes a silent connection; SIGINT also stops it
srv = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0",
                        "--idle-timeout", "1"], stdout=subprocess.PIPE)
m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", srv.stdout.readline().decode())
PORT = int(m.group(1)) if m else 0
c4, tr4 = connect(S4)
check("idle timeout: a call in time", c4.get_all_databases(), ["default", "sales"])
time.sleep(2.5)
check("idle timeout: the silent connection was closed",
      raised(c4.get_all_databases), ["TTransportException", "TSocket read 0 bytes"])
tr4.close()
srv.send_signal(signal.SIGINT)
try:
    rc = srv.wait(timeout=30)
except subprocess.TimeoutExpired:
    rc = "still running"
check("SIGINT: exit status", rc, 0)

# ---- hivelite.metastore.max_connections (here 2, from the warehouse's
# config file): a third client waits in the backlog until one closes
cfg = os.path.join(W, ".hivelite", "config")
with open(cfg, "a") as f:
    f.write("hivelite.metastore.max_connections=2\n")
srv = subprocess.Popen([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.PIPE)
m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", srv.stdout.readline().decode())
PORT = int(m.group(1)) if m else 0
ca, tra = connect(S4)
cb, trb = connect(S4)
check("cap: first two served", [ca.get_all_databases(), cb.get_all_databases()],
      [["default", "sales"], ["default", "sales"]])
sock = TSocket.TSocket("127.0.0.1", PORT)
sock.setTimeout(1500)
trc = TTransport.TBufferedTransport(sock)
trc.open()  # the kernel's backlog accepts the connection
cc = S4.Client(TBinaryProtocol.TBinaryProtocol(trc))
cc.send_get_all_databases()
try:
    cc.recv_get_all_databases()
    waited = "answered"
except Exception:
    waited = "waiting"
check("cap: the third waits", waited, "waiting")
trc.close()
tra.close()
cd, trd = connect(S4)  # a slot is free again once a connection closed
check("cap: served after one closed", cd.get_all_databases(), ["default", "sales"])
trb.close()
trd.close()
srv.send_signal(signal.SIGTERM)
try:
    rc = srv.wait(timeout=30)
except subprocess.TimeoutExpired:
    rc = "still running"
check("cap: SIGTERM exit status", rc, 0)
with open(cfg, "w") as f:
    f.write("hivelite.metastore.max_connections=70000\n")
p = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                   capture_output=True)
check("cap: 70000 refused", [p.returncode, p.stderr.decode()],
      [1, "ERROR 22023: hivelite.metastore.max_connections must be between 1 and 65536\n"])
os.remove(cfg)

# ---- the command line: a bad address is usage (2), one not to bind is 1
p = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "9083"],
                   capture_output=True)
check("--listen without a host", [p.returncode, p.stderr.decode().splitlines()[0]],
      [2, 'hivelite: option "--listen" requires HOST:PORT'])
p = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "localhost:0"],
                   capture_output=True)
check("--listen with a host name", [p.returncode, p.stderr.decode()],
      [1, "ERROR 22023: metastore: not an IPv4 address: localhost\n"])

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("all passed")
