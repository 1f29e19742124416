#!/usr/bin/python3
"""hms.py -- planning through the Hive Metastore API (issue 14), a script,
not a test.

A table of N partitions (default 100,000: dt STRING x hr INT, one row in the
pinned partition) is made in warehouse W1 with the embedded metastore, and
W1 is served by `hivelite metastore`.  Each figure is the best of RUNS fresh
processes, measured side by side in this one run:

  pin       SELECT of one partition (dt = '...' AND hr = 5), whole process
  plan      EXPLAIN of the same query (planning only)
  names     SHOW PARTITIONS (every partition name)

once with the embedded catalog (`hivelite -w W1`) and once through Thrift
(`hivelite -w W2 -m thrift://...`: client and server both hivelite); the
names are also listed by Apache Thrift's own Python client
(get_partition_names, generated from the Hive 4 IDL), the peer's view of
the server.  Peak memory (max RSS) of the client processes and of the
server are reported too.

Usage: /usr/bin/python3 bench/hms.py [--hivelite build/hivelite]
       [--partitions 100000] [--runs 5] [--fixtures ../shared/fixtures/hms]
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
ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", default=os.path.join(here, "..", "build", "hivelite"))
ap.add_argument("--partitions", type=int, default=100000)
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--fixtures", default=os.path.join(here, "..", "..", "shared", "fixtures", "hms"))
opts = ap.parse_args()
HL = os.path.abspath(opts.hivelite)

tmp = tempfile.mkdtemp(prefix="bench_hms_")
W1, W2 = os.path.join(tmp, "w1"), os.path.join(tmp, "w2")
N = opts.partitions
HOURS = 24
days = (N + HOURS - 1) // HOURS
PIN_DAY = "d%06d" % (days // 2)

t0 = time.time()
with open(os.path.join(tmp, "make.sql"), "w") as f:
    f.write("CREATE TABLE big (v STRING) PARTITIONED BY (dt STRING, hr INT) STORED AS TEXTFILE;\n")
    batch = []
    made = 0
    for d in range(days):
        for h in range(HOURS):
            if made == N:
                break
            batch.append("PARTITION (dt='d%06d', hr=%d)" % (d, h))
            made += 1
            if len(batch) == 1000:
                f.write("ALTER TABLE big ADD %s;\n" % " ".join(batch))
                batch = []
    if batch:
        f.write("ALTER TABLE big ADD %s;\n" % " ".join(batch))
    f.write("INSERT INTO big PARTITION (dt='%s', hr=5) VALUES ('pinned');\n" % PIN_DAY)
subprocess.run([HL, "-w", W1, "-f", os.path.join(tmp, "make.sql")], check=True,
               stdout=subprocess.DEVNULL)
print("made %d partitions in %.0f s" % (N, time.time() - t0), file=sys.stderr)

srv = subprocess.Popen([HL, "metastore", "-w", W1, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", srv.stdout.readline().decode())
if not m:
    sys.exit("the metastore server did not start")
URI = "thrift://127.0.0.1:%s" % m.group(1)

PIN = "SELECT * FROM big WHERE dt = '%s' AND hr = 5" % PIN_DAY


def run(args, want=None):
    """Best wall time (ms) of RUNS fresh processes, and their peak RSS (MB,
    GNU time's %M)."""
    best, rss = None, 0
    tfile = os.path.join(tmp, "time.out")
    for _ in range(opts.runs):
        s = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tfile] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        e = (time.perf_counter() - s) * 1000
        if p.returncode != 0:
            sys.exit("%s failed: %s" % (" ".join(args), p.stderr.decode()))
        if want is not None and want not in p.stdout.decode():
            sys.exit("%s: %r not in the output" % (" ".join(args), want))
        with open(tfile) as f:
            rss = max(rss, int(f.read().split()[-1]))
        best = e if best is None else min(best, e)
    return best, rss / 1024


embedded = ["-w", W1]
thrift = ["-w", W2, "-m", URI]
rows = []
for name, sql, want in (("pin", PIN, "pinned"), ("plan", "EXPLAIN " + PIN, "partitions: 1/%d" % N),
                        ("names", "SHOW PARTITIONS big", "dt=%s/hr=5" % PIN_DAY)):
    e_ms, e_mb = run([HL] + embedded + ["-c", sql], want)
    t_ms, t_mb = run([HL] + thrift + ["-c", sql], want)
    rows.append((name, e_ms, e_mb, t_ms, t_mb))

peer = None
try:
    sys.path.insert(0, os.path.join(here, "..", "tests", "hms"))
    import hms_gen
    T4, S4 = hms_gen.load(os.path.abspath(opts.fixtures), "hive4", tmp)
    from thrift.protocol import TBinaryProtocol
    from thrift.transport import TSocket, TTransport
    sock = TSocket.TSocket("127.0.0.1", int(m.group(1)))
    trans = TTransport.TBufferedTransport(sock)
    client = S4.Client(TBinaryProtocol.TBinaryProtocol(trans))
    trans.open()
    best = None
    for _ in range(opts.runs):
        s = time.perf_counter()
        names = client.get_partition_names("default", "big", -1)
        e = (time.perf_counter() - s) * 1000
        best = e if best is None else min(best, e)
    assert len(names) == N, len(names)
    peer = best
    trans.close()
except Exception as ex:  # the peer is optional: say why it is missing
    print("no Python Thrift peer: %s" % ex, file=sys.stderr)

with open("/proc/%d/status" % srv.pid) as f:
    srv_mb = int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1)) / 1024
srv.terminate()
srv.wait()
shutil.rmtree(tmp)

print("| %d partitions, best of %d | embedded catalog | peak MB | through Thrift (hivelite server) | peak MB | ratio |" % (N, opts.runs))
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name, e_ms, e_mb, t_ms, t_mb in rows:
    print("| %s | %.1f ms | %.0f | %.1f ms | %.0f | %.2f |" % (name, e_ms, e_mb, t_ms, t_mb, t_ms / e_ms))
if peer is not None:
    print("| get_partition_names by Apache Thrift's Python client | | | %.1f ms | | |" % peer)
print("| server peak memory | | | | %.0f | |" % srv_mb)
