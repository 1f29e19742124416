#!/usr/bin/python3
"""server_read2.py -- the further read methods of `hivelite metastore`
(src/hms_server/hms_read.c): table objects and metadata by name, type and
pattern, fields and schemas, partitions by partial values, by values, by
filter (the filter language evaluated with the keys' types: string, int,
date, decimal, bigint, smallint, tinyint, the default partition) and by
names in a request, the small calls clients make when they connect, the
framed transport (next to buffered clients; hostile frames close only
their connection), and the reply cap (hivelite.metastore.max_reply_bytes).

Driven by the Python clients Debian's thrift compiler generates from the
Hive 4 and Hive 2.3 IDLs (../shared/fixtures/hms), over Apache Thrift's
own transports; every answer compared with exact values.  Skip and fail
rules: hms_gen.py.
"""
import argparse
import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import hms_gen
from hms_gen import plain, raised

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--fixtures", required=True)
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_read2_", dir=base)
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


# p: keys of four types and the default partition (s NULL); q: bigint,
# smallint, tinyint keys
sql = """CREATE DATABASE sales;
CREATE TABLE sales.p (v INT COMMENT 'the v') PARTITIONED BY (s STRING, i INT, d DATE, m DECIMAL(5,2))
  STORED AS PARQUET;
INSERT INTO sales.p PARTITION (s='a', i=9, d='2024-01-02', m=1.50) VALUES (1);
INSERT INTO sales.p PARTITION (s='b', i=10, d='2024-01-10', m=2.25) VALUES (2);
INSERT INTO sales.p PARTITION (s='a', i=100, d='2023-12-31', m=10.00) VALUES (3);
INSERT INTO sales.p PARTITION (s, i, d, m) SELECT 4, CAST(NULL AS STRING), 7,
  CAST('2024-02-01' AS DATE), 3.00;
CREATE TABLE sales.q (v INT) PARTITIONED BY (b BIGINT, sm SMALLINT, t TINYINT);
ALTER TABLE sales.q ADD PARTITION (b=5000000000, sm=-3, t=1) PARTITION (b=7, sm=20, t=-1);
CREATE TABLE sales.txt (id INT COMMENT 'the id', name STRING) COMMENT 'a text table';
CREATE EXTERNAL TABLE sales.ext (x STRING) LOCATION '%s';
CREATE VIEW sales.v AS SELECT id FROM sales.txt;
ALTER TABLE sales.ext SET TBLPROPERTIES ('presto_view'='true', 'retention'='30');
ALTER TABLE sales.q SET TBLPROPERTIES ('retention'='90');
""" % EXT
subprocess.run([opts.hivelite, "-w", W, "-c", sql], check=True, stdout=subprocess.DEVNULL)

srv = None


def stop_server():
    if srv and srv.poll() is None:
        srv.kill()
        srv.wait()


atexit.register(stop_server)
srv, PORT = hms_gen.serve(opts.hivelite, W)
if PORT is None:
    print("FAIL: the server did not start")
    sys.exit(1)


def connect(S, framed=False, port=None):
    sock = TSocket.TSocket("127.0.0.1", port or PORT)
    sock.setTimeout(30000)
    trans = (TTransport.TFramedTransport if framed else TTransport.TBufferedTransport)(sock)
    trans.open()
    return S.Client(TBinaryProtocol.TBinaryProtocol(trans)), trans


def stop(proc, what):
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        rc = "still running"
    check("%s: SIGTERM exit status" % what, rc, 0)


P_NAMES = ["s=__HIVE_DEFAULT_PARTITION__/i=7/d=2024-02-01/m=3.00",
           "s=a/i=100/d=2023-12-31/m=10.00",
           "s=a/i=9/d=2024-01-02/m=1.50",
           "s=b/i=10/d=2024-01-10/m=2.25"]
DEF, A100, A9, B10 = P_NAMES
VALS = {DEF: ["__HIVE_DEFAULT_PARTITION__", "7", "2024-02-01", "3.00"],
        A100: ["a", "100", "2023-12-31", "10.00"],
        A9: ["a", "9", "2024-01-02", "1.50"],
        B10: ["b", "10", "2024-01-10", "2.25"]}


def vals(parts):
    return [p.values for p in parts]


def v(*names):
    return [VALS[n] for n in names]


c4, tr4 = connect(S4)
c2, tr2 = connect(S2)

# ---- tables by name, type, pattern
TXT_COLS = [{"name": "id", "type": "int", "comment": "the id"}, {"name": "name", "type": "string"}]
got = [plain(t) for t in c2.get_table_objects_by_name("sales", ["V", "txt", "nosuch", "txt", "p"])]
check("hive2 get_table_objects_by_name: names, sorted, each once, missing left out",
      [(t["tableName"], t["tableType"]) for t in got],
      [("p", "MANAGED_TABLE"), ("txt", "MANAGED_TABLE"), ("v", "VIRTUAL_VIEW")])
check("hive2 get_table_objects_by_name: a whole Table (txt)",
      {k: got[1][k] for k in ("dbName", "partitionKeys", "tableType", "temporary")}
      | {"cols": got[1]["sd"]["cols"], "location": got[1]["sd"]["location"],
         "comment": got[1]["parameters"].get("comment")},
      {"dbName": "sales", "partitionKeys": [], "tableType": "MANAGED_TABLE", "temporary": False,
       "cols": TXT_COLS, "location": "file:%s/sales.db/txt" % W, "comment": "a text table"})
check("hive2 get_table_objects_by_name: same Table as get_table",
      got[1], plain(c2.get_table("sales", "txt")))
check("hive2 get_table_objects_by_name(nosuch db): empty",
      c2.get_table_objects_by_name("nosuch", ["txt"]), [])
r = c4.get_table_objects_by_name_req(T4.GetTablesRequest(dbName="@hive#sales",
                                                         tblNames=["ext", "q"]))
check("hive4 get_table_objects_by_name_req",
      [plain(t) for t in r.tables],
      [plain(c4.get_table_req(T4.GetTableRequest(dbName="sales", tblName=n)).table)
       for n in ("ext", "q")])
r = c4.get_table_objects_by_name_req(T4.GetTablesRequest(dbName="sales", tablesPattern="t*|e*"))
check("hive4 get_table_objects_by_name_req: no names, tablesPattern",
      [t.tableName for t in r.tables], ["ext", "txt"])
r = c2.get_table_objects_by_name_req(T2.GetTablesRequest(dbName="sales", tblNames=["v"]))
check("hive2 get_table_objects_by_name_req", [t.tableName for t in r.tables], ["v"])
check("hive4 get_table_objects_by_name_req(nosuch db)",
      raised(c4.get_table_objects_by_name_req, T4.GetTablesRequest(dbName="nosuch",
                                                                   tblNames=["t"])),
      ["UnknownDBException", 'database "nosuch" does not exist'])
check("hive4 get_table_objects_by_name_req(catName spark)",
      raised(c4.get_table_objects_by_name_req,
             T4.GetTablesRequest(dbName="sales", tblNames=["t"], catName="spark")),
      ["UnknownDBException", "catalog spark does not exist"])

for c, ver in ((c4, "hive4"), (c2, "hive2")):
    check("%s get_tables_by_type MANAGED_TABLE" % ver,
          c.get_tables_by_type("sales", "*", "MANAGED_TABLE"), ["p", "q", "txt"])
    check("%s get_tables_by_type('.*', VIRTUAL_VIEW) (Trino's call)" % ver,
          c.get_tables_by_type("sales", ".*", "VIRTUAL_VIEW"), ["v"])
    check("%s get_tables_by_type('e*|T.T', no type)" % ver,
          c.get_tables_by_type("sales", "e*|T.T", ""), ["ext", "txt"])
    check("%s get_tables_by_type(nosuch db)" % ver,
          c.get_tables_by_type("nosuch", "*", "MANAGED_TABLE"), [])
meta4 = [plain(m) for m in c4.get_table_meta("sal*", "*", [])]
check("hive4 get_table_meta(sal*, *, [])", meta4,
      [{"dbName": "sales", "tableName": n, "tableType": t, "catName": "hive", **extra}
       for n, t, extra in (("ext", "EXTERNAL_TABLE", {}), ("p", "MANAGED_TABLE", {}),
                           ("q", "MANAGED_TABLE", {}),
                           ("txt", "MANAGED_TABLE", {"comments": "a text table"}),
                           ("v", "VIRTUAL_VIEW", {}))])
check("hive2 get_table_meta(*, t*|v, [VIRTUAL_VIEW, MANAGED_TABLE])",
      [plain(m) for m in c2.get_table_meta("*", "t*|v", ["VIRTUAL_VIEW", "MANAGED_TABLE"])],
      [{"dbName": "sales", "tableName": "txt", "tableType": "MANAGED_TABLE",
        "comments": "a text table"},
       {"dbName": "sales", "tableName": "v", "tableType": "VIRTUAL_VIEW"}])
check("hive2 get_table_meta(default, *, [])", c2.get_table_meta("default", "*", []), [])

# get_table_names_by_filter over Hive's table fields
TF = "hive_filter_field_"
for c, ver in ((c4, "hive4"), (c2, "hive2")):
    check("%s get_table_names_by_filter(params__presto_view = \"true\") (Trino's views)" % ver,
          c.get_table_names_by_filter("sales", TF + 'params__presto_view = "true"', -1), ["ext"])
    check("%s get_table_names_by_filter(params__retention <> 30: only tables that have it)" % ver,
          c.get_table_names_by_filter("sales", TF + "params__retention <> '30'", -1), ["q"])
    check("%s get_table_names_by_filter(retention 30 or 90, max 1)" % ver,
          c.get_table_names_by_filter("sales", TF + "params__retention = '30' OR " + TF +
                                      "params__retention = '90'", 1), ["ext"])
    check("%s get_table_names_by_filter(last_access = 0 AND NOT params__comment LIKE 'a%%')" % ver,
          c.get_table_names_by_filter("sales", TF + "last_access__ = 0 AND NOT " + TF +
                                      "params__comment LIKE 'a%'", -1), [])
    check("%s get_table_names_by_filter(last_access = 0)" % ver,
          c.get_table_names_by_filter("sales", TF + "last_access__ = 0", -1),
          ["ext", "p", "q", "txt", "v"])
    check("%s get_table_names_by_filter(nosuch db)" % ver,
          raised(c.get_table_names_by_filter, "nosuch", TF + "last_access__ = 0", -1),
          ["UnknownDBException", 'database "nosuch" does not exist'])
    check("%s get_table_names_by_filter(a name that is no field)" % ver,
          raised(c.get_table_names_by_filter, "sales", "owner = 'x'", -1),
          ["MetaException", 'filter: "owner" is not a table field (hive_filter_field_owner__, '
           '_last_access__, _tableName__, _tableType__, _params__<key>)'])
    check("%s get_table_names_by_filter(no filter)" % ver,
          raised(c.get_table_names_by_filter, "sales", "", -1),
          ["InvalidOperationException", "get_table_names_by_filter needs a filter"])
check("hive4 get_table_names_by_filter(tableType__ = VIRTUAL_VIEW OR tableName__ LIKE 't.t')",
      c4.get_table_names_by_filter("sales", TF + "tableType__ = 'VIRTUAL_VIEW' OR " + TF +
                                   "tableName__ LIKE 't.t'", -1), ["txt", "v"])

# ---- fields and schemas
P_COLS = [{"name": "v", "type": "int", "comment": "the v"}]
P_KEYS = [{"name": "s", "type": "string"}, {"name": "i", "type": "int"},
          {"name": "d", "type": "date"}, {"name": "m", "type": "decimal(5,2)"}]
for c, T, ver in ((c4, T4, "hive4"), (c2, T2, "hive2")):
    check("%s get_fields(p)" % ver, plain(c.get_fields("sales", "p")), P_COLS)
    check("%s get_schema(p)" % ver, plain(c.get_schema("sales", "p")), P_COLS + P_KEYS)
    check("%s get_fields_with_environment_context(txt)" % ver,
          plain(c.get_fields_with_environment_context(
              "sales", "txt", T.EnvironmentContext(properties={"a": "b"}))), TXT_COLS)
    check("%s get_schema_with_environment_context(@hive#sales, v)" % ver,
          plain(c.get_schema_with_environment_context("@hive#sales", "v", None)),
          [{"name": "id", "type": "int"}])
    check("%s get_fields(nosuch table)" % ver, raised(c.get_fields, "sales", "nosuch"),
          ["UnknownTableException", 'table "sales.nosuch" does not exist'])
    check("%s get_schema(nosuch db)" % ver, raised(c.get_schema, "nosuch", "t"),
          ["UnknownDBException", 'database "nosuch" does not exist'])
check("hive4 get_fields_req",
      plain(c4.get_fields_req(T4.GetFieldsRequest(dbName="sales", tblName="p")).fields), P_COLS)
check("hive4 get_schema_req",
      plain(c4.get_schema_req(T4.GetSchemaRequest(catName="hive", dbName="sales",
                                                  tblName="p")).fields), P_COLS + P_KEYS)
check("hive4 get_schema_req(nosuch)",
      raised(c4.get_schema_req, T4.GetSchemaRequest(dbName="sales", tblName="nosuch")),
      ["UnknownTableException", 'table "sales.nosuch" does not exist'])

# ---- partitions by partial values, by values, with auth
for c, ver in ((c4, "hive4"), (c2, "hive2")):
    check("%s get_partition_names_ps([a])" % ver,
          c.get_partition_names_ps("sales", "p", ["a"], -1), [A100, A9])
    check("%s get_partition_names_ps(['', '10'])" % ver,
          c.get_partition_names_ps("sales", "p", ["", "10"], -1), [B10])
    check("%s get_partition_names_ps([default name])" % ver,
          c.get_partition_names_ps("sales", "p", ["__HIVE_DEFAULT_PARTITION__"], -1), [DEF])
    check("%s get_partition_names_ps([], max 2)" % ver,
          c.get_partition_names_ps("sales", "p", [], 2), [DEF, A100])
    check("%s get_partitions_ps([a, 9])" % ver,
          vals(c.get_partitions_ps("sales", "p", ["a", "9"], -1)), v(A9))
    check("%s get_partitions_ps_with_auth(['', '', '', '2.25'])" % ver,
          vals(c.get_partitions_ps_with_auth("sales", "p", ["", "", "", "2.25"], -1, "u", ["g"])),
          v(B10))
    check("%s get_partitions_with_auth(max 3)" % ver,
          vals(c.get_partitions_with_auth("sales", "p", 3, "u", [])), v(DEF, A100, A9))
    check("%s get_partitions_ps(5 values)" % ver,
          raised(c.get_partitions_ps, "sales", "p", ["a", "", "", "", ""], -1),
          ["MetaException", "5 partition values given for sales.p, which has 4 partition keys"])
    check("%s get_partition_names_ps(nosuch)" % ver,
          raised(c.get_partition_names_ps, "sales", "nosuch", [], -1),
          ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])
    check("%s get_partitions_ps_with_auth(nosuch)" % ver,
          raised(c.get_partitions_ps_with_auth, "sales", "nosuch", [], -1, "u", []),
          ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])
    check("%s get_partition by values = get_partition_by_name" % ver,
          plain(c.get_partition("sales", "p", VALS[B10])),
          plain(c.get_partition_by_name("sales", "p", B10)))
    check("%s get_partition_with_auth(default partition)" % ver,
          plain(c.get_partition_with_auth("sales", "p", VALS[DEF], "u", ["g"])),
          plain(c.get_partition_by_name("sales", "p", DEF)))
    check("%s get_partition(missing)" % ver,
          raised(c.get_partition, "sales", "p", ["a", "9", "2024-01-02", "9.99"]),
          ["NoSuchObjectException", "partition (a, 9, 2024-01-02, 9.99) of sales.p does not exist"])
    check("%s get_partition(3 values)" % ver,
          raised(c.get_partition, "sales", "p", ["a", "9", "2024-01-02"]),
          ["MetaException", "3 partition values given for sales.p, which has 4 partition keys"])
want_b10 = plain(c4.get_partition_by_name("sales", "p", B10))
want_b10.pop("createTime")
got_b10 = plain(c4.get_partition("sales", "p", VALS[B10]))
got_b10.pop("createTime")
check("hive4 get_partition: the whole Partition",
      got_b10,
      {"values": VALS[B10], "dbName": "sales", "tableName": "p", "lastAccessTime": 0,
       "sd": {"cols": P_COLS, "location": "file:%s/sales.db/p/%s" % (W, B10),
              "inputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
              "outputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
              "compressed": False, "numBuckets": -1,
              "serdeInfo": {"serializationLib":
                            "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
                            "parameters": {"serialization.format": "1"}},
              "bucketCols": [], "sortCols": [], "parameters": {},
              "skewedInfo": {"skewedColNames": [], "skewedColValues": [],
                             "skewedColValueLocationMaps": {}},
              "storedAsSubDirectories": False},
       "parameters": want_b10["parameters"], "catName": "hive", "writeId": -1})
# Hive 4's request forms of the same
r = c4.get_partition_req(T4.GetPartitionRequest(dbName="sales", tblName="p",
                                                partVals=VALS[A9]))
check("hive4 get_partition_req", plain(r.partition),
      plain(c4.get_partition_by_name("sales", "p", A9)))
check("hive4 get_partition_req(missing)",
      raised(c4.get_partition_req, T4.GetPartitionRequest(dbName="sales", tblName="p",
                                                          partVals=["x", "1", "2024-01-01",
                                                                    "1"])),
      ["NoSuchObjectException", "partition (x, 1, 2024-01-01, 1) of sales.p does not exist"])
r = c4.get_partition_names_ps_req(T4.GetPartitionNamesPsRequest(
    catName="hive", dbName="sales", tblName="p", partValues=["a"], maxParts=1))
check("hive4 get_partition_names_ps_req", r.names, [A100])
r = c4.get_partitions_ps_with_auth_req(T4.GetPartitionsPsWithAuthRequest(
    dbName="sales", tblName="p", partVals=["", "", "", ""], userName="u", groupNames=["g"]))
check("hive4 get_partitions_ps_with_auth_req", vals(r.partitions), v(*P_NAMES))
r = c4.get_partitions_ps_with_auth_req(T4.GetPartitionsPsWithAuthRequest(
    dbName="sales", tblName="p", partNames=[B10, A100, "s=z/i=1/d=2024-01-01/m=1.00"]))
check("hive4 get_partitions_ps_with_auth_req(partNames)", vals(r.partitions), v(A100, B10))
check("hive4 get_partitions_ps_with_auth_req(catName spark)",
      raised(c4.get_partitions_ps_with_auth_req,
             T4.GetPartitionsPsWithAuthRequest(catName="spark", dbName="sales", tblName="p")),
      ["NoSuchObjectException", "catalog spark does not exist"])
check("hive4 get_partitions_by_filter_req",
      vals(c4.get_partitions_by_filter_req(T4.GetPartitionsByFilterRequest(
          dbName="sales", tblName="p", filter="d >= '2024-01-02' AND s <> 'b'", maxParts=-1))),
      v(A9))
check("hive4 get_partitions_by_filter_req(bad filter)",
      raised(c4.get_partitions_by_filter_req, T4.GetPartitionsByFilterRequest(
          dbName="sales", tblName="p", filter="s =")),
      ["MetaException", "partition filter: a literal was expected at the end of the filter"])
r = c4.get_partitions_by_names_req(T4.GetPartitionsByNamesRequest(
    db_name="sales", tbl_name="p", names=[B10, "s=x/i=1/d=2024-01-01/m=1.00", DEF]))
check("hive4 get_partitions_by_names_req", vals(r.partitions), v(B10, DEF))
check("hive4 get_partitions_by_names_req(nosuch)",
      raised(c4.get_partitions_by_names_req,
             T4.GetPartitionsByNamesRequest(db_name="sales", tbl_name="nosuch", names=[])),
      ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])

# ---- the filter language, with types
FILTERS = [
    # integers compare as numbers: 10 > 9 and 100 > 9 (as strings "10" < "9")
    ("i > 9", [A100, B10]),
    ("9 < i", [A100, B10]),
    ("i >= 9 AND i <= 10", [A9, B10]),
    ("i = 9", [A9]),
    ('i = "9"', [A9]),
    ("i != 9", [DEF, A100, B10]),
    ("i <> 100", [DEF, A9, B10]),
    ("i BETWEEN 10 AND 100", [A100, B10]),
    ("i NOT BETWEEN 9 AND 10", [DEF, A100]),
    ("(i) IN (7, 100)", [DEF, A100]),
    ("i in (7,100)", [DEF, A100]),
    ("i NOT IN (7, 100)", [A9, B10]),
    # strings bytewise; the default partition matches no comparison
    ("s = 'a'", [A100, A9]),
    ("s != 'a'", [B10]),
    ("s > 'a'", [B10]),
    ("s < 'b'", [A100, A9]),
    ("NOT s = 'a'", [B10]),
    ("NOT (s = 'a') OR i = 7", [DEF, B10]),
    ("s like 'a%'", [A100, A9]),
    ("s LIKE '.*'", [A100, A9, B10]),
    ("s LIKE \"_\" AND NOT i > 50", [A9, B10]),
    ("s NOT LIKE 'a'", [B10]),
    # dates as dates: bare, quoted and DATE literals
    ("d > 2024-01-01", [DEF, A9, B10]),
    ("d < '2024-01-05'", [A100, A9]),
    ("d BETWEEN date '2024-01-02' AND DATE '2024-01-10'", [A9, B10]),
    ("d = '2024-1-2'", [A9]),
    # decimals exactly, whatever the literal's scale
    ("m = 1.5", [A9]),
    ("m > 2", [DEF, A100, B10]),
    ("m >= '2.250'", [DEF, A100, B10]),
    ("m < 10", [DEF, A9, B10]),
    ("m IN (10, 3)", [DEF, A100]),
    # nesting, precedence (AND binds tighter), keywords in any case
    ("s = 'b' OR s = 'a' AND i > 50", [A100, B10]),
    ("(s = 'b' OR s = 'a') and i > 50", [A100]),
    ("((((i = 9))))", [A9]),
    ("", P_NAMES),
]
for f, want in FILTERS:
    check("hive4 get_partitions_by_filter(%s)" % f,
          [p.values for p in c4.get_partitions_by_filter("sales", "p", f, -1)],
          [VALS[n] for n in want])
    check("hive2 get_num_partitions_by_filter(%s)" % f,
          c2.get_num_partitions_by_filter("sales", "p", f), len(want))
check("hive2 get_partitions_by_filter(i > 9, max 1)",
      vals(c2.get_partitions_by_filter("sales", "p", "i > 9", 1)), v(A100))
Q_FILTERS = [("b > 10", ["5000000000"]), ("b < 5000000001 AND b > 6", ["5000000000", "7"]),
             ("sm < 0", ["5000000000"]), ("sm > 3", ["7"]), ("t = -1", ["7"]),
             ("t >= -1", ["5000000000", "7"]), ("b = 5000000000", ["5000000000"])]
for f, want in Q_FILTERS:
    check("hive4 get_partitions_by_filter(q, %s)" % f,
          [p.values[0] for p in c4.get_partitions_by_filter("sales", "q", f, -1)], want)
BAD = [
    ("i >", "partition filter: a literal was expected at the end of the filter"),
    ("i > 9 AND", "partition filter: a partition key, a literal, NOT or '(' was expected at "
     "the end of the filter"),
    ("(i > 9", "partition filter: ')' was expected at the end of the filter"),
    ("i > 9)", 'partition filter: AND, OR or the end was expected at character 6 (")")'),
    ("s = 'a", 'partition filter: unterminated string at character 5 ("\'a")'),
    ("i ~ 9", 'partition filter: unexpected character at character 3 ("~")'),
    ("x = 1", 'partition filter: "x" is not a partition key of the table'),
    ("i > 'abc'", "partition filter: 'abc' is not a value of type int (partition key \"i\")"),
    ("d = 'yesterday'",
     "partition filter: 'yesterday' is not a value of type date (partition key \"d\")"),
    ("i BETWEEN 1 OR 2", 'partition filter: AND was expected in BETWEEN at character 13 ("OR")'),
    ("i NOT = 1", 'partition filter: BETWEEN, IN or LIKE was expected after NOT at character 7 '
     '("=")'),
    ("i IN ()", 'partition filter: a literal was expected at character 7 (")")'),
    ("(" * 70 + "i = 1" + ")" * 70, "partition filter: nested deeper than 64 levels"),
    ("NOT " * 70 + "i = 1", "partition filter: nested deeper than 64 levels"),
]
for f, msg in BAD:
    check("hive4 get_partitions_by_filter(%r): MetaException" % f[:30],
          raised(c4.get_partitions_by_filter, "sales", "p", f, -1), ["MetaException", msg])
check("hive2 get_num_partitions_by_filter(bad): MetaException",
      raised(c2.get_num_partitions_by_filter, "sales", "p", "i >"),
      ["MetaException", "partition filter: a literal was expected at the end of the filter"])
check("hive4 get_partitions_by_filter(nosuch)",
      raised(c4.get_partitions_by_filter, "sales", "nosuch", "i > 1", -1),
      ["NoSuchObjectException", 'table "sales.nosuch" does not exist'])
check("after malformed filters the connection serves",
      c4.get_partition_names("sales", "p", -1), P_NAMES)
# a long OR chain and a long IN list: n-ary nodes, no deep recursion
long_or = " OR ".join("i = %d" % k for k in range(20000))
check("hive4 get_num_partitions_by_filter(20000 ORs)",
      c4.get_num_partitions_by_filter("sales", "p", long_or), 4)
long_in = "i IN (%s)" % ", ".join(str(k) for k in range(50000, 0, -1))
check("hive4 get_num_partitions_by_filter(IN of 50000)",
      c4.get_num_partitions_by_filter("sales", "p", long_in), 4)

# ---- the calls made on connecting and planning
for c, ver in ((c4, "hive4"), (c2, "hive2")):
    check("%s set_ugi" % ver, c.set_ugi("alice", ["g1", "g2"]), ["g1", "g2", "alice"])
    check("%s getMetaConf(known)" % ver, c.getMetaConf("hive.metastore.batch.retrieve.max"),
          "300")
    check("%s getMetaConf(unknown)" % ver, raised(c.getMetaConf, "x.y"),
          ["MetaException", "x.y is not a metastore setting hivelite knows"])
    check("%s get_config_value(unknown)" % ver,
          c.get_config_value("hive.exec.dynamic.partition", "true"), "true")
    check("%s get_config_value(known)" % ver,
          c.get_config_value("hive.metastore.try.direct.sql", "true"), "false")
    check("%s get_all_functions" % ver, plain(c.get_all_functions()), {"functions": []})
    check("%s get_functions" % ver, c.get_functions("sales", "*"), [])
    check("%s get_function" % ver, raised(c.get_function, "sales", "f"),
          ["NoSuchObjectException", "function sales.f does not exist"])
    check("%s get_current_notificationEventId" % ver,
          plain(c.get_current_notificationEventId()), {"eventId": 0})
check("hive4 get_partitions_by_expr: UNKNOWN_METHOD (clients fall back)",
      raised(c4.get_partitions_by_expr, T4.PartitionsByExprRequest(dbName="sales",
                                                                   tblName="p", expr=b"x")),
      ["TApplicationException", 1, "Invalid method name: 'get_partitions_by_expr'"])
check("hive4 after UNKNOWN_METHOD", c4.get_tables_by_type("sales", "q", ""), ["q"])
tr4.close()
tr2.close()

# ---- framed transport: told apart per connection from the first bytes
cf, trf = connect(S4, framed=True)
cb, trb = connect(S2)
check("framed: get_all_databases", cf.get_all_databases(), ["default", "sales"])
check("framed: get_partitions_by_filter", vals(cf.get_partitions_by_filter("sales", "p", "i > 9",
                                                                           -1)), v(A100, B10))
check("framed: an exception", raised(cf.get_fields, "sales", "nosuch"),
      ["UnknownTableException", 'table "sales.nosuch" does not exist'])
check("buffered next to framed", cb.get_partition_names_ps("sales", "p", ["b"], -1), [B10])
check("framed: still serving", cf.get_tables_by_type("sales", "*", "EXTERNAL_TABLE"), ["ext"])
trf.close()
trb.close()


def hostile(what, data):
    """DATA on its own connection: closed without an answer, and the server
    serves the next connection."""
    import socket
    sk = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    sk.sendall(data)
    sk.shutdown(socket.SHUT_WR)
    got = b""
    try:
        while True:
            chunk = sk.recv(65536)
            if not chunk:
                break
            got += chunk
    except OSError:
        pass
    sk.close()
    cn, trn = connect(S4, framed=True)
    check("framed %s: closed without an answer, the next is served" % what,
          [got, cn.get_all_databases()], [b"", ["default", "sales"]])
    trn.close()


hostile("frame of 2 GB", b"\x7f\xff\xff\xff" + b"x" * 64)
hostile("frame of 0 bytes", b"\x00\x00\x00\x00")
hostile("garbage in a frame", b"\x00\x00\x00\x08" + b"\x80\x01\x00\x01\xff\xff\xff\xff")
hostile("frame cut short", b"\x00\x00\x01\x00\x80\x01\x00\x01")
stop(srv, "server")

# ---- the reply cap: 1024 bytes fit about two partitions of sales.p
cfg = os.path.join(W, ".hivelite", "config")
with open(cfg, "w") as fh:
    fh.write("hivelite.metastore.max_reply_bytes=1024\n")
srv, PORT = hms_gen.serve(opts.hivelite, W)
c4, tr4 = connect(S4)
c2, tr2 = connect(S2)
capmsg = ("%d partitions of sales.p make a reply larger than 1024 bytes "
          "(hivelite.metastore.max_reply_bytes): list them with get_partition_names and "
          "fetch them in batches with get_partitions_by_names")
check("cap: get_partitions", raised(c4.get_partitions, "sales", "p", -1),
      ["MetaException", capmsg % 4])
check("cap: get_partitions with max_parts 1 fits", vals(c4.get_partitions("sales", "p", 1)),
      v(DEF))
check("cap: hive2 get_partitions_by_filter",
      raised(c2.get_partitions_by_filter, "sales", "p", "i > 0", -1),
      ["MetaException", capmsg % 4])
check("cap: get_partitions_ps_with_auth (MetaException in field 2)",
      raised(c4.get_partitions_ps_with_auth, "sales", "p", [], -1, "u", []),
      ["MetaException", capmsg % 4])
check("cap: get_partitions_by_names",
      raised(c4.get_partitions_by_names, "sales", "p", P_NAMES),
      ["MetaException", capmsg % 4])
check("cap: get_partitions_by_names_req",
      raised(c4.get_partitions_by_names_req, T4.GetPartitionsByNamesRequest(
          db_name="sales", tbl_name="p", names=P_NAMES[:3])), ["MetaException", capmsg % 3])
check("cap: names still whole", c4.get_partition_names("sales", "p", -1), P_NAMES)
tmsg = ("5 tables of sales make a reply larger than 1024 bytes "
        "(hivelite.metastore.max_reply_bytes): ask for fewer at a time")
check("cap: get_table_objects_by_name_req",
      raised(c4.get_table_objects_by_name_req, T4.GetTablesRequest(dbName="sales")),
      ["MetaException", tmsg])
check("cap: hive2 get_table_objects_by_name (no declared exception: INTERNAL_ERROR)",
      raised(c2.get_table_objects_by_name, "sales", ["ext", "p", "q", "txt", "v"]),
      ["TApplicationException", 6, tmsg])
check("cap: one table fits",
      [t.tableName for t in c2.get_table_objects_by_name("sales", ["q"])], ["q"])
check("cap: batches of one fit",
      [vals(c4.get_partitions_by_names("sales", "p", [n]))[0] for n in P_NAMES],
      [VALS[n] for n in P_NAMES])
tr4.close()
tr2.close()
stop(srv, "cap server")
with open(cfg, "w") as fh:
    fh.write("hivelite.metastore.max_reply_bytes=100\n")
p = subprocess.run([opts.hivelite, "metastore", "-w", W, "--listen", "127.0.0.1:0"],
                   capture_output=True)
check("cap: 100 refused", [p.returncode, p.stderr.decode()],
      [1, "ERROR 22023: hivelite.metastore.max_reply_bytes must be between 1024 and "
          "104857600\n"])
os.remove(cfg)

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("all passed")
