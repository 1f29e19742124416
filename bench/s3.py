#!/usr/bin/python3
"""s3.py -- Hive tables on S3 against the same tables on local disk (issue
15), a script, not a test.

s3rver (npm, tests/s3/package.json) runs on loopback behind
tests/s3/fault_proxy.py, which here injects nothing and only counts the
requests by kind.  In one run, side by side:

  insert    INSERT OVERWRITE of ROWS rows (default 2,000,000) from a local
            text table into a Parquet table of PARTS partitions (default
            4,096) by dynamic partitioning: once into a local table, once
            into a table on S3
  pin       SELECT count(*), sum(v) of one partition (best of RUNS)
  scan      SELECT count(*), sum(v) over every partition (best of RUNS)

The reads run twice: on loopback as is, and with LATENCY ms (default 20)
added before every request by the proxy, as a network round trip to S3
would -- s3rver on loopback answers in about 2 ms on one core, so only
with a latency does it show whether requests overlap: "in flight" is
requests x latency / time, the average number of requests waiting at once.

For each: the wall time of the whole hivelite process, its peak memory
(max RSS), and the S3 requests it made by kind.  The targets of the
issue: a pin makes a handful of requests (no LIST of the table prefix),
and the full scan overlaps its requests (requests / time > 1 / latency).

Usage: /usr/bin/python3 bench/s3.py [--hivelite build/hivelite]
       [--rows 2000000] [--parts 4096] [--runs 3]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "s3"))
import s3env  # noqa: E402
from fault_proxy import FaultProxy  # noqa: E402
from hltest import write_config  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", default=os.path.join(here, "..", "build", "hivelite"))
ap.add_argument("--rows", type=int, default=2000000)
ap.add_argument("--parts", type=int, default=4096)
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--latency-ms", type=int, default=20)
opts = ap.parse_args()
HL = os.path.abspath(opts.hivelite)
s3env.require()


def timed(wh, sql):
    """(seconds, max RSS in MB, stdout) of one hivelite process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen([HL, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                             stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)  # its own peak memory
        dt = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.exit("failed: %s\n%s" % (sql, err.read().decode()))
        return dt, ru.ru_maxrss / 1024.0, out.read().decode().strip()


def fmt_counts(c):
    keep = {k: v for k, v in sorted(c.items()) if v}
    return ", ".join("%s %d" % kv for kv in keep.items()) or "none"


tmp = tempfile.mkdtemp(prefix="bench_s3_")
try:
    with s3env.S3Server(tmp) as srv, FaultProxy(srv.endpoint) as px:
        srv.create_bucket("bench")
        wh = os.path.join(tmp, "wh")
        write_config(wh, px.endpoint)
        data = os.path.join(tmp, "rows.txt")
        with open(data, "w") as f:
            for i in range(opts.rows):
                f.write("%d\t%d\t%s\n" % (i % opts.parts, i, "v%07d" % (i * 7 % 1000003)))
        setup = ("CREATE TABLE src (p INT, v BIGINT, s STRING) ROW FORMAT DELIMITED "
                 "FIELDS TERMINATED BY '\\t'; LOAD DATA LOCAL INPATH '%s' INTO TABLE src; "
                 "CREATE TABLE loc (v BIGINT, s STRING) PARTITIONED BY (p INT) STORED AS PARQUET; "
                 "CREATE DATABASE s3db LOCATION 's3://bench/s3db.db'; "
                 "CREATE TABLE s3db.t (v BIGINT, s STRING) PARTITIONED BY (p INT) "
                 "STORED AS PARQUET; SET hive.exec.max.dynamic.partitions=100000; "
                 "SET hive.exec.max.dynamic.partitions.pernode=100000" % data)
        timed(wh, setup)
        cfg = ("SET hive.exec.max.dynamic.partitions=100000; "
               "SET hive.exec.max.dynamic.partitions.pernode=100000; ")
        results = []
        kinds = ("head", "get", "list", "put", "create_mpu", "put_part", "complete",
                 "delete", "delete_objects", "list_uploads", "abort")

        def latency(ms):
            # a round trip of MS ms before every request, as over a network
            px.set_rules([{"kind": k, "every": True, "fault": "delay", "seconds": ms / 1000.0}
                          for k in kinds] if ms else [])

        timed(wh, "CREATE TABLE s3db.t2 LIKE s3db.t")
        for name, table, ms in (("local", "loc", 0), ("S3", "s3db.t", 0),
                                ("S3", "s3db.t2", opts.latency_ms)):
            px.reset()
            latency(ms)
            dt, rss, _ = timed(wh, cfg + "INSERT OVERWRITE TABLE %s PARTITION (p) "
                                         "SELECT v, s, p FROM src" % table)
            label = "insert %d rows into %d partitions" % (opts.rows, opts.parts)
            label += " (%d ms per request)" % ms if ms else " (loopback)"
            results.append((label, name, dt, rss, px.counts() if name == "S3" else {}))
        latency(0)
        pin_p = opts.parts // 2
        for lat in (0, opts.latency_ms):
            for what, where in (("pin", "WHERE p = %d" % pin_p), ("full scan", "")):
                cases = [("local", "loc", "")] if lat == 0 else []
                cases += [("S3", "s3db.t", "")]
                if lat and what == "full scan":
                    cases.append(("S3, 1 thread", "s3db.t", "SET hivelite.threads=1; "))
                want = None
                for name, table, pre in cases:
                    best = None
                    # the one-thread case at a latency is there to compare with:
                    # one run of it is enough (it is slow by design)
                    for _ in range(1 if pre else opts.runs):
                        px.reset()
                        latency(lat)
                        dt, rss, out = timed(wh, pre + "SELECT count(*), sum(v) FROM %s %s"
                                             % (table, where))
                        counts = px.counts()
                        if best is None or dt < best[0]:
                            best = (dt, rss, counts, out)
                    if want is None:
                        want = best[3]
                    elif best[3] != want:
                        sys.exit("%s differs: %s %s, %s" % (what, name, best[3], want))
                    label = what + (" (%d ms per request)" % lat if lat else " (loopback)")
                    results.append((label, name, best[0], best[1],
                                    best[2] if table != "loc" else {}))
        px.set_rules([])
        print("| operation | storage | time | peak RSS | S3 requests |")
        print("|---|---|---|---|---|")
        for what, name, dt, rss, counts in results:
            n = sum(counts.values()) if counts else 0
            inflight = ""
            m = re.search(r"\((\d+) ms per request\)", what)
            if m and n and dt > 0:
                inflight = " (%.1f in flight)" % (n * int(m.group(1)) / 1000.0 / dt)
            print("| %s | %s | %.3f s | %.0f MB | %s%s |" % (
                what, name, dt, rss, fmt_counts(counts) if counts else "-", inflight))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
