#!/usr/bin/python3
"""memory_limit.py -- `hivelite serve --memory-limit SIZE`: every session
runs with that hivelite.memory_limit (a statement needing more fails with
53200, another session's small statements still run), a session cannot
change it (SET and RESET of hivelite.memory_limit: 42501; SET without a
value shows it), a bare RESET keeps the server's settings (the limit and
standard string literals), and a size the engine does not read stops the
server before it listens.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Raw, Server, fields, query_message, tmpdir  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
opts = ap.parse_args()

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


def connect(port):
    c = Raw(port)
    c.startup(user="tester", database="wh")
    c.until_ready()
    return c


def run(c, sql):
    """(error SQLSTATE or None, first column of the rows, command tags)"""
    c.send(query_message(sql))
    err, rows, tags = None, [], []
    for t, body in c.until_ready():
        if t == b"E":
            err = err or fields(body)["C"]
        elif t == b"D":
            n = int.from_bytes(body[2:6], "big", signed=True)
            rows.append(body[6:6 + n].decode() if n >= 0 else None)
        elif t == b"C":
            tags.append(body.rstrip(b"\0").decode())
    return err, rows, tags


# 200,000 strings to sort: more than 1 MB on one thread
BIG = ("SELECT pos FROM (SELECT 1) d LATERAL VIEW posexplode(split(space(199999), ' ')) t "
       "AS pos, v ORDER BY concat('x', pos) LIMIT 1")
wh = os.path.join(tmpdir("memlimit"), "wh")
srv = Server(opts.hivelite, wh, "--auth", "trust", "--memory-limit", "1MB")
try:
    a, b = connect(srv.port), connect(srv.port)
    check("SET shows the server's limit", run(a, "SET hivelite.memory_limit"),
          (None, ["hivelite.memory_limit='1MB'"], ["SELECT 1"]))
    check("a statement over the limit", run(a, "SET hivelite.threads=1; " + BIG)[0], "53200")
    check("the other session's small statement", run(b, "SELECT 1 + 1"), (None, ["2"], ["SELECT 1"]))
    for sql in ("SET hivelite.memory_limit='100GB'", "SET hivelite.memory_limit = 2GB",
                "set HIVELITE.MEMORY_LIMIT=2GB", "RESET hivelite.memory_limit"):
        check("refused: %s" % sql, run(a, sql)[0], "42501")
    check("bare RESET", run(a, "RESET"), (None, [], ["RESET"]))
    check("limit after RESET", run(a, "SET hivelite.memory_limit")[1],
          ["hivelite.memory_limit='1MB'"])
    check("still over the limit after RESET", run(a, "SET hivelite.threads=1; " + BIG)[0], "53200")
    check("standard strings after RESET", run(a, "SELECT 'it''s'")[1], ["it's"])
    a.close()
    b.close()
finally:
    code, log = srv.stop()
check("exit status", code, 0)

# a size the engine refuses: no listening, exit 1, the reason
for bad in ("lots", "1MB'; DROP DATABASE x"):
    p = subprocess.run([opts.hivelite, "serve", "-w", wh, "--auth", "trust", "--listen",
                        "127.0.0.1:0", "--memory-limit", bad], capture_output=True, text=True,
                       timeout=60)
    check("--memory-limit %r: exit status" % bad, p.returncode, 1)
    check("--memory-limit %r: reason" % bad, "--memory-limit" in p.stderr and
          "listening" not in p.stderr, True)

if failures:
    print("\n".join(failures))
    print("FAILED: %d" % len(failures))
    sys.exit(1)
print("memory_limit: OK")
