#!/usr/bin/python3
"""codec_interop.py -- hivelite's Hive Metastore codec (src/hms/) against
Apache Thrift's own Python runtime and the code `thrift --gen py` generates
from the IDL fixtures (../shared/fixtures/hms/hive4 and hive2).

  * Table, Partition and Database values with every field of hivelite's
    subset set, plus fields hivelite does not decode (privileges,
    creationMetadata), serialized by TBinaryProtocol, decoded by
    hms_codec_tool and compared field by field;
  * of the write-method structs (hms_ddl.h): LockRequest,
    ShowLocksResponse and AddPartitionsRequest, the same way;
  * the reverse: hms_codec_tool's encoding read by the generated classes,
    compared field by field, and byte-identical to what Python writes for
    the same value;
  * calls: the generated clients' get_table (Hive 2.3; Hive 4 has only
    get_table_req), get_partition_names and get_all_databases (Hive 4),
    strict and old message headers, decoded by the tool; the tool's replies
    (values, declared exceptions, TApplicationException) read by the
    clients' recv_*; Python-written replies decoded by the tool; the tool's
    calls read by the generated argument structs.

Run by /usr/bin/python3 (Debian's python3-thrift lives there).  Exit 77
(skipped) without the fixtures, or without the thrift runtime or compiler
except under CI=true, where a missing runtime or compiler is a failure.  --write-corpus DIR also writes the
messages as seeds for tests/fuzz/fuzz_thrift.c (first byte: the decoder).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import hms_gen


ap = argparse.ArgumentParser()
ap.add_argument("--tool", required=True)
ap.add_argument("--fixtures", required=True)
ap.add_argument("--write-corpus")
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
from thrift.Thrift import TApplicationException, TMessageType, TType  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TTransport  # noqa: E402

base = os.environ.get("HIVELITE_TEST_TMP") or tempfile.gettempdir()
os.makedirs(base, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="hms_interop_", dir=base)
failures = []


T4, S4 = hms_gen.load(opts.fixtures, "hive4", tmp)
T2, S2 = hms_gen.load(opts.fixtures, "hive2", tmp)


def tool(*args, data=b""):
    p = subprocess.run([opts.tool] + list(args), input=data, capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("hms_codec_tool %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                                 p.stderr.decode()))
    return p.stdout


def plain(v, ttype, targs):
    """A generated value as JSON-like data, in hms_codec_tool's form."""
    if ttype == TType.STRUCT:
        return struct_plain(v)
    if ttype in (TType.LIST, TType.SET):
        return [plain(x, targs[0], targs[1]) for x in v]
    if ttype == TType.MAP:
        if targs[0] == TType.STRING:
            return {k: plain(x, targs[2], targs[3]) for k, x in v.items()}
        return [[plain(k, targs[0], targs[1]), plain(x, targs[2], targs[3])] for k, x in v.items()]
    return v


def struct_plain(o):
    d = {}
    for spec in type(o).thrift_spec:
        if spec is None:
            continue
        fid, ftype, name, fargs, _default = spec
        val = getattr(o, name)
        if val is not None:
            d[name] = plain(val, ftype, fargs)
    return d


def restrict(cls, d, drop=()):
    """D without the fields CLS does not have (recursively), and DROP."""
    specs = {s[2]: s for s in cls.thrift_spec if s is not None}
    out = {}
    for k, v in d.items():
        if k in drop or k not in specs:
            continue
        ftype, fargs = specs[k][1], specs[k][3]
        if ftype == TType.STRUCT:
            v = restrict(fargs[0], v)
        elif ftype == TType.LIST and fargs[0] == TType.STRUCT:
            v = [restrict(fargs[1][0], x) for x in v]
        out[k] = v
    return out


def ser(obj, strict=True):
    buf = TTransport.TMemoryBuffer()
    obj.write(TBinaryProtocol.TBinaryProtocol(buf, strictWrite=strict))
    return buf.getvalue()


def deser(cls, data):
    obj = cls()
    obj.read(TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(data)))
    return obj


def check(what, got, want):
    if got != want:
        failures.append(what)
        print("FAIL %s\n  got:  %s\n  want: %s" % (what, json.dumps(got, sort_keys=True),
                                                  json.dumps(want, sort_keys=True)))
    else:
        print("ok   %s" % what)


corpus = []  # (selector byte, bytes)


def sd(T, n):
    skewed = T.SkewedInfo(skewedColNames=["name"], skewedColValues=[["a"], ["b"]],
                          skewedColValueLocationMaps={})
    return T.StorageDescriptor(
        cols=[T.FieldSchema(name="id", type="bigint", comment="the key"),
              T.FieldSchema(name="naïve", type="map<string,array<int>>", comment="日本語")],
        location="hdfs://nn:8020/warehouse/t%d" % n,
        inputFormat="org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
        outputFormat="org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
        compressed=True, numBuckets=-1,
        serdeInfo=T.SerDeInfo(name="t", serializationLib="org.apache.ParquetHiveSerDe",
                              parameters={"serialization.format": "1", "": "empty key"},
                              description="d", serializerClass="s", deserializerClass="ds",
                              serdeType=2),
        bucketCols=["id"], sortCols=[T.Order(col="id", order=0)],
        parameters={"k": "v"}, skewedInfo=skewed, storedAsSubDirectories=False)


privileges = T4.PrincipalPrivilegeSet(userPrivileges={"alice": [T4.PrivilegeGrantInfo(
    privilege="SELECT", createTime=1, grantor="admin", grantorType=1, grantOption=True)]})
table = T4.Table(
    tableName="t", dbName="default", owner="alice", createTime=1700000000, lastAccessTime=0,
    retention=2147483647, sd=sd(T4, 1),
    partitionKeys=[T4.FieldSchema(name="ds", type="string", comment=None)],
    parameters={"transient_lastDdlTime": "1700000000", "numRows": "42"},
    viewOriginalText="", viewExpandedText="select 1", tableType="EXTERNAL_TABLE",
    privileges=privileges, temporary=False, rewriteEnabled=True,
    creationMetadata=T4.CreationMetadata(catName="hive", dbName="default", tblName="t",
                                         tablesUsed={"default.u"}, validTxnList="1:2"),
    catName="hive", ownerType=2, writeId=-(2 ** 63), isStatsCompliant=True, accessType=-8,
    requiredReadCapabilities=["HIVEFULLACIDREAD"], requiredWriteCapabilities=[],
    id=2 ** 63 - 1, txnId=12)
partition = T4.Partition(
    values=["2024-01-01", "7"], dbName="default", tableName="t", createTime=-1,
    lastAccessTime=5, sd=sd(T4, 2), parameters={"totalSize": "1024"}, privileges=privileges,
    catName="hive", writeId=99, isStatsCompliant=False)
database = T4.Database(
    name="sales", description="Sales ☃", locationUri="s3a://b/sales.db",
    parameters={"owner": "bob"}, privileges=privileges, ownerName="bob", ownerType=1,
    catalogName="hive", createTime=1600000000, managedLocationUri="s3a://b/m.db", type=1,
    connector_name="c", remote_dbname="r")
NOT_DECODED = {"table": ("privileges", "creationMetadata", "colStats", "fileMetadata",
                         "dictionary"),
               "partition": ("privileges", "colStats", "fileMetadata"),
               "database": ("privileges",)}

for sel, kind, obj in ((0, "table", table), (1, "partition", partition),
                       (2, "database", database)):
    cls = type(obj)
    data = ser(obj)
    corpus.append((sel, data))
    want = restrict(cls, struct_plain(obj), NOT_DECODED[kind])
    got = json.loads(tool("decode", kind, data=data))
    check("python %s -> hivelite decode" % kind, got, want)
    ours = tool("encode", kind, data=json.dumps(want).encode())
    back = deser(cls, ours)
    check("hivelite %s encode -> python" % kind, struct_plain(back), want)
    check("hivelite %s encode == python's bytes" % kind, ours.hex(), ser(back).hex())
    # the Hive 2.3 classes read hivelite's encoding too, skipping what they lack
    cls2 = getattr(T2, cls.__name__)
    want2 = json.loads(json.dumps(want).replace('"isTransactional"', '"isAcid"'))
    check("hivelite %s encode -> python hive2" % kind, struct_plain(deser(cls2, ours)),
          restrict(cls2, want2))

# structs of the write methods (src/hms/hms_ddl.h): both directions, and
# Hive 2.3's classes read hivelite's Hive 4 encoding
lock_req = T4.LockRequest(component=[
    T4.LockComponent(type=1, level=2, dbname="db", tablename="t", operationType=6,
                     isTransactional=False, isDynamicPartitionWrite=True),
    T4.LockComponent(type=3, level=3, dbname="db", tablename="t", partitionname="p=1")],
    txnid=7, user="alice", hostname="h1", agentInfo="spark")
show = T4.ShowLocksResponse(locks=[T4.ShowLocksResponseElement(
    lockid=3, dbname="db", tablename="t", partname="p=1", state=2, type=3, txnid=9,
    lastheartbeat=1700000000000, acquiredat=1700000000001, user="u", hostname="h",
    heartbeatCount=4, agentInfo="a")])
add_req = T4.AddPartitionsRequest(dbName="db", tblName="t", parts=[partition], ifNotExists=True,
                                  needResult=False, catName="hive")
# LockRequest 6-8 (Hive 4 only) are not decoded; Hive 2.3 calls
# LockComponent's field 7 (the same bool) isAcid
for kind, obj, drop in (("lock_request", lock_req,
                         ("zeroWaitReadEnabled", "exclusiveCTAS", "locklessReadsEnabled")),
                        ("show_locks_response", show, ()),
                        ("add_partitions_request", add_req, ())):
    cls = type(obj)
    data = ser(obj)
    want = restrict(cls, struct_plain(obj), drop)
    if kind == "add_partitions_request":
        want["parts"] = [restrict(T4.Partition, x, NOT_DECODED["partition"])
                         for x in want["parts"]]
    check("python %s -> hivelite decode" % kind, json.loads(tool("decode", kind, data=data)), want)
    ours = tool("encode", kind, data=json.dumps(want).encode())
    back = deser(cls, ours)
    for f in drop:  # the runtime fills in the IDL's defaults of absent fields
        setattr(back, f, None)
    check("hivelite %s encode -> python" % kind, struct_plain(back), want)
    check("hivelite %s encode == python's bytes" % kind, ours.hex(), ser(back).hex())
    cls2 = getattr(T2, cls.__name__)
    want2 = restrict(cls2, want)
    for i, comp in enumerate(want2.get("component", [])):
        comp["isAcid"] = want["component"][i]["isTransactional"]
    check("hivelite %s encode -> python hive2" % kind, struct_plain(deser(cls2, ours)), want2)

# map<list<string>, string>: the generated Python code writes it (tuple
# keys) but cannot read it back (a list is no dict key), so one direction
table.sd.skewedInfo.skewedColValueLocationMaps = {("a",): "/w/t/name=a", ("b", "c"): "/w/x"}
check("python skewedColValueLocationMaps -> hivelite decode",
      json.loads(tool("decode", "table", data=ser(table)))["sd"]["skewedInfo"],
      {"skewedColNames": ["name"], "skewedColValues": [["a"], ["b"]],
       "skewedColValueLocationMaps": [[["a"], "/w/t/name=a"], [["b", "c"], "/w/x"]]})
corpus.append((0, ser(table)))
table.sd.skewedInfo.skewedColValueLocationMaps = {}

table_plain = restrict(T4.Table, struct_plain(table), NOT_DECODED["table"])


def client(S, strict=True):
    buf = TTransport.TMemoryBuffer()
    return S.Client(TBinaryProtocol.TBinaryProtocol(buf, strictWrite=strict)), buf


def recv(S, data):
    c = S.Client(TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(data)))
    return c


# ---- calls written by the generated clients, decoded by hivelite
c, buf = client(S2)
c._seqid = 41
c.send_get_table("default", "t")
corpus.append((11, buf.getvalue()))
check("hive2 client get_table call", json.loads(tool("call-decode", data=buf.getvalue())),
      {"name": "get_table", "type": 1, "seqid": 41, "db": "default", "tbl": "t"})
c, buf = client(S2, strict=False)
c.send_get_table("default", "t")
check("hive2 client get_table call, old header",
      json.loads(tool("call-decode", data=buf.getvalue())),
      {"name": "get_table", "type": 1, "seqid": 0, "db": "default", "tbl": "t"})
c, buf = client(S4)
c._seqid = 7
c.send_get_partition_names("default", "t", 500)
corpus.append((12, buf.getvalue()))
check("hive4 client get_partition_names call",
      json.loads(tool("call-decode", data=buf.getvalue())),
      {"name": "get_partition_names", "type": 1, "seqid": 7, "db": "default", "tbl": "t",
       "max_parts": 500})
c, buf = client(S4)
c.send_get_all_databases()
corpus.append((10, buf.getvalue()))
check("hive4 client get_all_databases call", json.loads(tool("call-decode", data=buf.getvalue())),
      {"name": "get_all_databases", "type": 1, "seqid": 0})

# ---- calls written by hivelite, read as a Python server would
for method, S, args, fields in (
        ("get_table", S2, {"db": "d", "tbl": "t"}, {"dbname": "d", "tbl_name": "t"}),
        ("get_partition_names", S4, {"db": "d", "tbl": "t", "max_parts": -1},
         {"db_name": "d", "tbl_name": "t", "max_parts": -1}),
        ("get_all_databases", S4, {}, {})):
    ours = tool("call", method, "3", data=json.dumps(args).encode())
    proto = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(ours))
    name, mtype, seqid = proto.readMessageBegin()
    a = getattr(S, method + "_args")()
    a.read(proto)
    check("hivelite %s call -> python" % method, [name, mtype, seqid, struct_plain(a)],
          [method, TMessageType.CALL, 3, fields])
    c, buf = client(S)
    c._seqid = 3
    getattr(c, "send_" + method)(*[fields[k] for k in fields])
    check("hivelite %s call == python's bytes" % method, ours.hex(), buf.getvalue().hex())

# ---- replies written by hivelite, read by the generated clients
rep = tool("reply", "get_table", "41", data=json.dumps({"success": table_plain}).encode())
corpus.append((14, rep))
check("hivelite get_table reply -> hive2 client",
      struct_plain(recv(S2, rep).recv_get_table()), restrict(T2.Table, table_plain))


def raised(fn):
    try:
        fn()
    except Exception as e:  # the generated exceptions and TApplicationException
        return [type(e).__name__, getattr(e, "type", None), e.message]
    return None


rep = tool("reply", "get_table", "1", data=b'{"exc_id": 2, "message": "no table t"}')
check("hivelite get_table NoSuchObjectException -> client",
      raised(recv(S2, rep).recv_get_table), ["NoSuchObjectException", None, "no table t"])
rep = tool("reply", "get_table", "1", data=b'{"exc_id": 1, "message": "broken"}')
check("hivelite get_table MetaException -> client", raised(recv(S2, rep).recv_get_table),
      ["MetaException", None, "broken"])
rep = tool("reply", "get_table", "1",
           data=b'{"app_type": 1, "message": "Invalid method name: \'get_table\'"}')
corpus.append((14, rep))
check("hivelite TApplicationException -> client", raised(recv(S2, rep).recv_get_table),
      ["TApplicationException", 1, "Invalid method name: 'get_table'"])
rep = tool("reply", "get_partition_names", "7", data=b'{"success": ["ds=1", "ds=2"]}')
corpus.append((15, rep))
check("hivelite get_partition_names reply -> hive4 client",
      recv(S4, rep).recv_get_partition_names(), ["ds=1", "ds=2"])
rep = tool("reply", "get_partition_names", "7", data=b'{"exc_id": 1, "message": "no t"}')
check("hivelite get_partition_names exception 1 -> hive4 client",
      raised(recv(S4, rep).recv_get_partition_names), ["NoSuchObjectException", None, "no t"])
rep = tool("reply", "get_all_databases", "0", data=b'{"success": ["default", "sales"]}')
corpus.append((13, rep))
check("hivelite get_all_databases reply -> hive4 client",
      recv(S4, rep).recv_get_all_databases(), ["default", "sales"])


# ---- replies written by Python (as a metastore does), decoded by hivelite
def py_reply(S, method, seqid, result=None, app=None):
    buf = TTransport.TMemoryBuffer()
    proto = TBinaryProtocol.TBinaryProtocol(buf)
    proto.writeMessageBegin(method, TMessageType.EXCEPTION if app else TMessageType.REPLY,
                            seqid)
    (app or result).write(proto)
    proto.writeMessageEnd()
    return buf.getvalue()


rep = py_reply(S4, "get_table", 5, S2.get_table_result(success=table))
check("python get_table reply -> hivelite",
      json.loads(tool("reply-decode", "get_table", "5", data=rep)), {"success": table_plain})
rep = py_reply(S2, "get_table", 5,
               S2.get_table_result(o2=T2.NoSuchObjectException(message="gone")))
check("python get_table exception -> hivelite",
      json.loads(tool("reply-decode", "get_table", "5", data=rep)),
      {"exc_id": 2, "message": "gone"})
rep = py_reply(S4, "get_partition_names", 9,
               app=TApplicationException(TApplicationException.UNKNOWN_METHOD, "nope"))
check("python TApplicationException -> hivelite",
      json.loads(tool("reply-decode", "get_partition_names", "9", data=rep)),
      {"app_type": 1, "message": "nope"})
rep = py_reply(S4, "get_partition_names", 9,
               S4.get_partition_names_result(success=["a=1"] * 3))
check("python get_partition_names reply -> hivelite",
      json.loads(tool("reply-decode", "get_partition_names", "9", data=rep)),
      {"success": ["a=1"] * 3})
rep = py_reply(S4, "get_all_databases", 2, S4.get_all_databases_result(success=[]))
check("python get_all_databases reply -> hivelite",
      json.loads(tool("reply-decode", "get_all_databases", "2", data=rep)), {"success": []})

if opts.write_corpus:
    os.makedirs(opts.write_corpus, exist_ok=True)
    for i, (sel, data) in enumerate(corpus):
        with open(os.path.join(opts.write_corpus, "seed-%02d" % i), "wb") as f:
            f.write(bytes([sel]) + data)

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print("%d failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("all passed")
