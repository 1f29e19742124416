#!/usr/bin/python3
"""load.py -- `hivelite serve` under load: CLIENTS concurrent psycopg2
connections (default 64, one thread each) for SECONDS (default 30) on
loopback, mixing INSERTs, partition pins and full scans of one partitioned
table, every answer checked against what it must see.

Invariants that cannot flake whatever the interleaving:
- writer k alone writes partition p=k, in batches of 1 to 3 rows with
  consecutive seq numbers; after each INSERT it knows the partition's exact
  row count: cursor.rowcount must be the batch size, and its own pin
  `SELECT count(*), count(DISTINCT seq), max(seq) WHERE p = k` must give
  exactly (n, n, n - 1) (a write is visible to the next statement);
- a reader's count of partition k lies between writer k's committed count
  when the read started and its started count when the read ended, and
  is one of the counts after a whole batch (a write is atomic: no reader
  sees part of a batch);
- a scan's per-partition counts (GROUP BY p) obey the same bounds, one
  snapshot for all partitions, and its total is their sum;
- at the end every partition holds exactly what its writer committed.
Errors: 40001 and 55P03 (a write waiting too long for the table's lock)
are retried and counted; any other error fails the test.  The server must
exit 0 on SIGTERM.  `make load` runs it longer (LOAD_SECONDS).
Exit 77 when psycopg2 is missing (1 under CI=true).
"""
import argparse
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import Server, run_cli, tmpdir, unavailable  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--hivelite", required=True)
ap.add_argument("--build-dir")
ap.add_argument("--seconds", type=float, default=30)
ap.add_argument("--clients", type=int, default=64)
opts = ap.parse_args()
try:
    import psycopg2
except ImportError as e:
    unavailable("psycopg2 is not installed (%s)" % e, "python3-psycopg2")

RETRY = ("40001", "55P03")
N = opts.clients
N_WRITERS = max(1, N // 4)
N_SCANNERS = max(1, N // 4)

wh = os.path.join(tmpdir("load"), "wh")
run_cli(opts.hivelite, wh,
        "CREATE DATABASE ld; CREATE TABLE ld.t (w INT, seq INT) PARTITIONED BY (p INT);")
srv = Server(opts.hivelite, wh, "--auth", "trust", "--max-connections", str(N + 8))
dsn = "host=127.0.0.1 port=%d user=load dbname=warehouse connect_timeout=30" % srv.port

lock = threading.Lock()
committed = [0] * N_WRITERS  # rows of partition k whose INSERT returned
started = [0] * N_WRITERS    # rows of partition k whose INSERT was sent
batch_ends = [{0} for _ in range(N_WRITERS)]  # counts after whole batches
failures = []
stats = {"insert": 0, "pin": 0, "scan": 0, "retry 40001": 0, "retry 55P03": 0}
deadline = time.time() + opts.seconds


def fail(msg):
    with lock:
        if len(failures) < 20:
            failures.append(msg)


def bump(key):
    with lock:
        stats[key] += 1


def bounds(k):
    with lock:
        return committed[k], started[k]


def seen_ok(k, count, lo, hi):
    with lock:
        whole = count in batch_ends[k]
    return lo <= count <= hi and whole


def execute(cur, sql, args=None):
    """Runs SQL; True when done, False when it must be retried (a
    documented error, counted); other errors fail the test."""
    try:
        cur.execute(sql, args)
        return True
    except psycopg2.Error as e:
        if e.pgcode in RETRY:
            bump("retry " + e.pgcode)
            return False
        fail("%s %r: %s %s" % (sql, args, e.pgcode, str(e).strip()))
        raise


def writer(k, conn):
    cur = conn.cursor()
    n = 0
    rnd = random.Random(k)
    while time.time() < deadline:
        size = rnd.randint(1, 3)
        values = ", ".join("(%d, %d)" % (k, n + i) for i in range(size))
        with lock:
            started[k] = n + size
            batch_ends[k].add(n + size)
        if not execute(cur, "INSERT INTO ld.t PARTITION (p=%d) VALUES %s" % (k, values)):
            with lock:  # not written: the batch end stays possible no more
                started[k] = n
                batch_ends[k].discard(n + size)
            continue
        if cur.rowcount != size:
            fail("writer %d: rowcount %r for %d rows" % (k, cur.rowcount, size))
        n += size
        with lock:
            committed[k] = n
        bump("insert")
        # its own partition, until a read is not refused (40001)
        for _ in range(1000):
            if execute(cur, "SELECT count(*), count(DISTINCT seq), max(seq) FROM ld.t "
                       "WHERE p = %s", (k,)):
                break
        else:
            fail("writer %d: its partition's read refused 1000 times" % k)
            return
        got = cur.fetchone()
        if got != (n, n, n - 1):
            fail("writer %d: its partition holds %r, want %r" % (k, got, (n, n, n - 1)))


def pinner(i, conn):
    cur = conn.cursor()
    rnd = random.Random(1000 + i)
    while time.time() < deadline:
        k = rnd.randrange(N_WRITERS)
        lo, _ = bounds(k)
        if not execute(cur, "SELECT count(*) FROM ld.t WHERE p = %s", (k,)):
            continue
        (count,) = cur.fetchone()
        _, hi = bounds(k)
        if not seen_ok(k, count, lo, hi):
            fail("pin of partition %d: %d rows, committed %d before, started %d after"
                 % (k, count, lo, hi))
        bump("pin")


def scanner(i, conn):
    cur = conn.cursor()
    while time.time() < deadline:
        before = [bounds(k)[0] for k in range(N_WRITERS)]
        if not execute(cur, "SELECT p, c, sum(c) OVER () FROM (SELECT p, count(*) AS c FROM ld.t "
                   "GROUP BY p) s"):
            continue
        rows = cur.fetchall()
        after = [bounds(k)[1] for k in range(N_WRITERS)]
        counts = {p: c for p, c, _ in rows}
        total = sum(counts.values())
        if any(t != total for _, _, t in rows):
            fail("scan: totals %r, want %d" % ([t for _, _, t in rows], total))
        if set(counts) - set(range(N_WRITERS)):
            fail("scan: unknown partitions %r" % sorted(counts))
        for k in range(N_WRITERS):
            c = counts.get(k, 0)
            if not seen_ok(k, c, before[k], after[k]):
                fail("scan of partition %d: %d rows, committed %d before, started %d after"
                     % (k, c, before[k], after[k]))
        bump("scan")


def client(role, i):
    try:
        conn = psycopg2.connect(dsn)
        conn.autocommit = True
    except psycopg2.Error as e:
        fail("connect: %s" % e)
        return
    try:
        role(i, conn)
    except psycopg2.Error:
        pass  # recorded by execute
    except Exception as e:  # noqa: BLE001 -- a bug of the test itself is a failure too
        fail("%s %d: %r" % (role.__name__, i, e))
    finally:
        conn.close()


roles = ([(writer, k) for k in range(N_WRITERS)] + [(scanner, i) for i in range(N_SCANNERS)] +
         [(pinner, i) for i in range(N - N_WRITERS - N_SCANNERS)])
threads = [threading.Thread(target=client, args=r) for r in roles]
for t in threads:
    t.start()
for t in threads:
    t.join(opts.seconds + 240)
if any(t.is_alive() for t in threads):
    fail("a client did not finish within 240 s of the end")

# the final state: every partition exactly as its writer left it
conn = psycopg2.connect(dsn)
conn.autocommit = True
cur = conn.cursor()
cur.execute("SELECT p, count(*), count(DISTINCT seq), min(w), max(w) FROM ld.t GROUP BY p "
            "ORDER BY p")
want = [(k, committed[k], committed[k], k, k) for k in range(N_WRITERS) if committed[k]]
got = cur.fetchall()
if got != want:
    fail("final partitions:\n  got  %r\n  want %r" % (got, want))
conn.close()
if stats["insert"] < N_WRITERS or stats["pin"] < 1 or stats["scan"] < 1:
    fail("too little ran: %r" % stats)
code, log = srv.stop()
if code != 0:
    fail("server exit %d:\n%s" % (code, log))
print("load: %d clients (%d writers, %d scanners), %.0f s: %r"
      % (N, N_WRITERS, N_SCANNERS, opts.seconds, stats))
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
