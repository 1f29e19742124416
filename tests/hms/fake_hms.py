#!/usr/bin/python3
"""fake_hms.py -- an in-memory Hive Metastore for testing hivelite's
metastore client (src/hms_client/): the service code Debian's thrift
compiler generates from ../shared/fixtures/hms (hive4 or hive2), served
with Apache Thrift's Python runtime over the buffered (or --framed)
transport, backed by dicts.

It implements the methods the client calls (column statistics stored as
given, per table or partition and column), records every call it
receives (one JSON line per call in --log: the method and its arguments'
names), and injects faults at the Nth call of a named method:

  --fail METHOD:N:meta     answer a MetaException
  --fail METHOD:N:drop     close the connection without a reply
  --fail METHOD:N:garbage  answer bytes that are no Thrift message
  --fail METHOD:N:huge     answer a reply whose string claims 2 GB

N counts from the start, or from the last call of the method "fake_arm"
(which the test sends after its setup; answered UNKNOWN_METHOD).  With
--after-arm no fault fires before the first fake_arm (a setup that fails
is undone by hivelite, so it must not meet the faults meant for the test).

--version hive2 serves the Hive 2.3 IDL without get_table_req (a
pre-Hive-3 server: the client must fall back to get_table).  The port it
listens on is printed as "listening on PORT".  Skip rules: hms_gen.py.
"""
import argparse
import json
import os
import socket
import struct
import sys
import tempfile
import threading

import hms_gen

ap = argparse.ArgumentParser()
ap.add_argument("--fixtures", required=True)
ap.add_argument("--version", default="hive4", choices=["hive4", "hive2"])
ap.add_argument("--port", type=int, default=0)
ap.add_argument("--log", default=None)
ap.add_argument("--framed", action="store_true")
ap.add_argument("--fail", action="append", default=[])
ap.add_argument("--after-arm", action="store_true", help="faults only after the first fake_arm")
ap.add_argument("--default-location", required=True, help="the default database's directory")
opts = ap.parse_args()

hms_gen.require(opts.fixtures)
from thrift.Thrift import TApplicationException, TMessageType, TType  # noqa: E402
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

tmp = tempfile.mkdtemp(prefix="fake_hms_")
T, S = hms_gen.load(opts.fixtures, opts.version, tmp)

lock = threading.Lock()
armed = [not opts.after_arm]
counts = {}
faults = {}
for f in opts.fail:
    m, n, kind = f.split(":")
    faults[(m, int(n))] = kind
log = open(opts.log, "a") if opts.log else None

dbs = {"default": T.Database(name="default", description="Default Hive database",
                             locationUri="file:" + os.path.abspath(opts.default_location),
                             parameters={})}
tables = {}   # (db, name) -> Table
parts = {}    # (db, name) -> {partition name: Partition}
stats = {}    # (db, name, partition name or None) -> {column: ColumnStatisticsObj}
analyzed = {}  # the same key -> lastAnalyzed

ESC = set('"#%\'*/:=?\\\x7f{[]^')


def esc(v):
    return "".join("%%%02X" % ord(c) if c in ESC or ord(c) < 32 else c for c in v)


def pname(t, vals):
    return "/".join("%s=%s" % (esc(k.name.lower()), esc(v)) for k, v in zip(t.partitionKeys, vals))


def table(db, name):
    t = tables.get((db.lower(), name.lower()))
    if t is None:
        raise T.NoSuchObjectException(message="%s.%s table not found" % (db, name))
    return t


class Handler:
    def get_all_databases(self):
        return sorted(dbs)

    def get_database(self, name):
        if name.lower() not in dbs:
            raise T.NoSuchObjectException(message="Database %s not found" % name)
        return dbs[name.lower()]

    def create_database(self, database):
        if database.name.lower() in dbs:
            raise T.AlreadyExistsException(message="Database %s already exists" % database.name)
        dbs[database.name.lower()] = database

    def drop_database(self, name, deleteData, cascade):
        n = name.lower()
        if n not in dbs:
            raise T.NoSuchObjectException(message="Database %s not found" % name)
        mine = [k for k in tables if k[0] == n]
        if mine and not cascade:
            raise T.InvalidOperationException(message="Database %s is not empty" % name)
        for k in mine:
            del tables[k]
            parts.pop(k, None)
        del dbs[n]

    def get_all_tables(self, db_name):
        return sorted(k[1] for k in tables if k[0] == db_name.lower())

    def get_table(self, dbname, tbl_name):
        return table(dbname, tbl_name)

    def get_table_req(self, req):
        return T.GetTableResult(table=table(req.dbName, req.tblName))

    def create_table(self, tbl):
        k = (tbl.dbName.lower(), tbl.tableName.lower())
        if k[0] not in dbs:
            raise T.NoSuchObjectException(message="Database %s not found" % tbl.dbName)
        if k in tables:
            raise T.AlreadyExistsException(message="Table %s.%s already exists" % k)
        tables[k] = tbl
        parts[k] = {}

    def alter_table(self, dbname, tbl_name, new_tbl):
        k = (dbname.lower(), tbl_name.lower())
        table(dbname, tbl_name)
        nk = (new_tbl.dbName.lower(), new_tbl.tableName.lower())
        del tables[k]
        tables[nk] = new_tbl
        parts[nk] = parts.pop(k, {})

    def alter_table_with_environment_context(self, dbname, tbl_name, new_tbl, environment_context):
        self.alter_table(dbname, tbl_name, new_tbl)

    def drop_table(self, dbname, name, deleteData):
        table(dbname, name)
        k = (dbname.lower(), name.lower())
        del tables[k]
        parts.pop(k, None)

    def get_partition_names(self, db_name, tbl_name, max_parts):
        t = table(db_name, tbl_name)
        names = sorted(parts[(db_name.lower(), tbl_name.lower())])
        del t
        return names if max_parts < 0 else names[:max_parts]

    def get_num_partitions_by_filter(self, db_name, tbl_name, filter):
        table(db_name, tbl_name)
        if filter:  # the client only ever counts them all
            raise T.MetaException(message="filters are not supported by this test server")
        return len(parts[(db_name.lower(), tbl_name.lower())])

    def get_partition_names_ps(self, db_name, tbl_name, part_vals, max_parts):
        table(db_name, tbl_name)
        out = []
        for n, p in sorted(parts[(db_name.lower(), tbl_name.lower())].items()):
            if all(w == "" or w == v for w, v in zip(part_vals, p.values)):
                out.append(n)
        return out if max_parts < 0 else out[:max_parts]

    def get_partitions_by_names(self, db_name, tbl_name, names):
        table(db_name, tbl_name)
        ps = parts[(db_name.lower(), tbl_name.lower())]
        return [ps[n] for n in names if n in ps]

    def get_partition(self, db_name, tbl_name, part_vals):
        t = table(db_name, tbl_name)
        p = parts[(db_name.lower(), tbl_name.lower())].get(pname(t, part_vals))
        if p is None:
            raise T.NoSuchObjectException(message="partition values=%s" % part_vals)
        return p

    def add_partitions(self, new_parts):
        if not new_parts:
            return 0
        t = table(new_parts[0].dbName, new_parts[0].tableName)
        ps = parts[(t.dbName.lower(), t.tableName.lower())]
        names = [pname(t, p.values) for p in new_parts]
        for n in names:
            if n in ps or names.count(n) > 1:
                raise T.AlreadyExistsException(message="Partition already exists: %s" % n)
        for n, p in zip(names, new_parts):
            ps[n] = p
        return len(new_parts)

    def alter_partition(self, db_name, tbl_name, new_part):
        t = table(db_name, tbl_name)
        ps = parts[(db_name.lower(), tbl_name.lower())]
        n = pname(t, new_part.values)
        if n not in ps:
            raise T.InvalidOperationException(message="alter is not possible: %s" % n)
        ps[n] = new_part

    def drop_partition(self, db_name, tbl_name, part_vals, deleteData):
        t = table(db_name, tbl_name)
        ps = parts[(db_name.lower(), tbl_name.lower())]
        n = pname(t, part_vals)
        if n not in ps:
            raise T.NoSuchObjectException(message="partition values=%s" % part_vals)
        del ps[n]
        return True


    # column statistics: stored as given, replacing a column's earlier ones
    def _put_stats(self, cs, part_level):
        d = cs.statsDesc
        t = table(d.dbName, d.tableName)
        if bool(d.isTblLevel) == part_level:
            raise T.InvalidInputException(message="isTblLevel does not fit the method")
        k = (t.dbName.lower(), t.tableName.lower(), d.partName if part_level else None)
        if part_level and d.partName not in parts[k[:2]]:
            raise T.NoSuchObjectException(message="partition %s not found" % d.partName)
        cols = {c.name.lower() for c in t.sd.cols}
        for o in cs.statsObj:
            if o.colName.lower() not in cols:
                raise T.InvalidObjectException(message="no column %s" % o.colName)
        mine = stats.setdefault(k, {})
        for o in cs.statsObj:
            mine[o.colName.lower()] = o
        analyzed[k] = d.lastAnalyzed
        return True

    def update_table_column_statistics(self, stats_obj):
        return self._put_stats(stats_obj, False)

    def update_partition_column_statistics(self, stats_obj):
        return self._put_stats(stats_obj, True)

    def _get_stats(self, db_name, tbl_name, part_name, col_name):
        t = table(db_name, tbl_name)
        k = (t.dbName.lower(), t.tableName.lower(), part_name)
        o = stats.get(k, {}).get(col_name.lower())
        if o is None:
            raise T.NoSuchObjectException(message="no statistics of %s" % col_name)
        desc = T.ColumnStatisticsDesc(isTblLevel=part_name is None, dbName=t.dbName,
                                      tableName=t.tableName, partName=part_name,
                                      lastAnalyzed=analyzed.get(k))
        return T.ColumnStatistics(statsDesc=desc, statsObj=[o])

    def get_table_column_statistics(self, db_name, tbl_name, col_name):
        return self._get_stats(db_name, tbl_name, None, col_name)

    def get_partition_column_statistics(self, db_name, tbl_name, part_name, col_name):
        return self._get_stats(db_name, tbl_name, part_name, col_name)

    def get_partitions_statistics_req(self, request):
        t = table(request.dbName, request.tblName)
        out = {}
        for n in request.partNames:
            have = stats.get((t.dbName.lower(), t.tableName.lower(), n), {})
            objs = [have[c.lower()] for c in request.colNames if c.lower() in have]
            if objs:
                out[n] = objs
        return T.PartitionsStatsResult(partStats=out)

    def _delete_stats(self, db_name, tbl_name, part_name, col_name):
        t = table(db_name, tbl_name)
        have = stats.get((t.dbName.lower(), t.tableName.lower(), part_name), {})
        gone = list(have) if col_name is None else [c for c in have if c == col_name.lower()]
        if not gone:
            raise T.NoSuchObjectException(message="no statistics of %s" % col_name)
        for c in gone:
            del have[c]
        return True

    def delete_table_column_statistics(self, db_name, tbl_name, col_name, engine=None):
        return self._delete_stats(db_name, tbl_name, None, col_name)

    def delete_partition_column_statistics(self, db_name, tbl_name, part_name, col_name,
                                           engine=None):
        return self._delete_stats(db_name, tbl_name, part_name, col_name)


class Drop(Exception):
    pass


def record(name, args):
    if log:
        log.write(json.dumps([name, args]) + "\n")
        log.flush()


def summary(args):
    """The call's arguments as plain data for the log (names, values)."""
    out = {}
    for spec in type(args).thrift_spec or ():
        if spec is None:
            continue
        v = getattr(args, spec[2])
        if isinstance(v, (str, int, bool)) or v is None:
            out[spec[2]] = v
        elif isinstance(v, list) and all(isinstance(x, str) for x in v):
            out[spec[2]] = v
        elif hasattr(v, "statsDesc"):  # ColumnStatistics: where, and each column's kind
            d = v.statsDesc
            out[spec[2]] = {"tbl": d.isTblLevel, "part": d.partName, "engine": getattr(v, "engine", None),
                            "cols": [[o.colName, o.colType,
                                      next(a for a in vars(o.statsData) if getattr(o.statsData, a)
                                           is not None)] for o in v.statsObj]}
        elif hasattr(v, "partNames"):  # PartitionsStatsRequest
            out[spec[2]] = [v.dbName, v.tblName, v.colNames, v.partNames]
        elif hasattr(v, "tblName"):
            out[spec[2]] = [v.dbName, v.tblName]
        elif isinstance(v, list):
            out[spec[2]] = len(v)
        else:
            out[spec[2]] = type(v).__name__
    return out


class Processor(S.Processor):
    def __init__(self, handler, conn):
        S.Processor.__init__(self, handler)
        self.conn = conn
        if opts.version == "hive2":
            self._processMap.pop("get_table_req", None)

    def process(self, iprot, oprot):
        name, _type, seqid = iprot.readMessageBegin()
        with lock:
            n = counts[name] = counts.get(name, 0) + 1
            fault = faults.get((name, n)) if armed[0] else None
            if name == "fake_arm":  # the test's setup is done: count from here
                counts.clear()
                armed[0] = True
            if name not in self._processMap:
                iprot.skip(TType.STRUCT)
                iprot.readMessageEnd()
                record(name, "UNKNOWN_METHOD")
                x = TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                          "Invalid method name: '%s'" % name)
                oprot.writeMessageBegin(name, TMessageType.EXCEPTION, seqid)
                x.write(oprot)
                oprot.writeMessageEnd()
                oprot.trans.flush()
                return
            args = getattr(S, name + "_args")()
            args.read(iprot)
            iprot.readMessageEnd()
            record(name, summary(args))
            if fault in ("drop", "garbage", "huge"):
                raw = b""
                if fault == "garbage":
                    raw = b"\x00\x01garbage that is no thrift message\xff" * 4
                elif fault == "huge":  # a reply whose string says 2 GB, then nothing
                    raw = struct.pack(">iI", -2147418110, 0x7FFFFFF0) + b"abc"
                if raw:
                    self.conn.sendall(raw)
                raise Drop()
            if fault == "meta":
                result = getattr(S, name + "_result")()
                for spec in result.thrift_spec:
                    if spec and spec[1] == TType.STRUCT and spec[3][0] is T.MetaException:
                        setattr(result, spec[2],
                                T.MetaException(message="injected failure of %s" % name))
                        break
                oprot.writeMessageBegin(name, TMessageType.REPLY, seqid)
                result.write(oprot)
                oprot.writeMessageEnd()
                oprot.trans.flush()
                return
            # the generated process_NAME reads the args itself: hand it a
            # protocol that replays them
            buf = TTransport.TMemoryBuffer()
            args.write(TBinaryProtocol.TBinaryProtocol(buf))
            replay = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(buf.getvalue()))
            self._processMap[name](self, seqid, replay, oprot)


def serve(conn):
    sock = TSocket.TSocket()
    sock.handle = conn
    trans = TTransport.TFramedTransport(sock) if opts.framed else TTransport.TBufferedTransport(sock)
    proto = TBinaryProtocol.TBinaryProtocol(trans)
    proc = Processor(Handler(), conn)
    try:
        while True:
            proc.process(proto, proto)
    except (TTransport.TTransportException, Drop, EOFError, ConnectionError):
        pass
    finally:
        conn.close()


srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", opts.port))
srv.listen(16)
print("listening on %d" % srv.getsockname()[1], flush=True)
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
