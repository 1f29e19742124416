#!/usr/bin/env python3
"""snapshot.py -- a statement reads one snapshot of each table, however
many scans and threads read it.

Usage: python3 tests/crash/snapshot.py --hivelite PATH [--seconds S]

An appender process adds batches, each one INSERT of 1000 rows (k =
0..999) with its own batch id b, written as one file: to a table without
partitions (t), then to one partition of a table with two (pt; the other
partition's files do not change).  Meanwhile reader processes (four at a
time) run each kind of statement in turn, eight statements per process (so
that the listing cache is exercised too):

  - GROUP BY b through the parallel aggregation (hivelite.threads=2: each
    thread reads every other file), and with one thread;
  - count(DISTINCT k) GROUP BY b, not parallel: the aggregation reads a
    parallel scan (op_parallel.c);
  - the table twice in one statement: UNION ALL of two scans, a self-join,
    a scalar subquery (it runs before the outer query's operators are
    built) whose count must equal the outer count;
  - a multi-insert whose two SELECTs read the table into two tables, which
    must then hold the same batches (FULL JOIN: each batch 1000 + 1000 -
    1000);
  - on pt, ORDER BY the partition key ... LIMIT (op_ordered.c: one scan per
    group of partitions, made while the query runs).

Every batch must count exactly 1000 rows in every answer (2000 for UNION
ALL): a statement whose scans or threads list the table separately while a
batch is published sees that batch twice or not at all.  Half the reader
processes pause 30 ms before a statement takes a table's reader lock
(HIVELITE_PAUSE_AT=scan:30), which widens every window between two
listings of one statement.  The run is bounded in time (--seconds per
table, default 10).  Before statements shared one snapshot (exec/snapshot.c)
the scalar subquery and the multi-insert read two states.

Exit status 0 when all checks hold.  Standard library only.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROWS = 1000
STMTS = 8  # statements per reader process
READERS = int(os.environ.get("SNAP_READERS", "4"))  # reader processes at a time

# name, SQL of one statement (q numbers it within its process), rows per
# batch; every statement returns "q,b,n" lines, and every n must be the
# rows per batch
QUERIES = [
    ("parallel aggregation",
     "SET hivelite.threads=2; SELECT {q}, b, count(k) FROM {t} GROUP BY b", ROWS),
    ("one thread", "SET hivelite.threads=1; SELECT {q}, b, count(k) FROM {t} GROUP BY b", ROWS),
    ("parallel scan",
     "SET hivelite.threads=2; SELECT {q}, b, count(k) + count(DISTINCT k) - {rows} FROM {t} "
     "GROUP BY b", ROWS),
    ("UNION ALL of the table twice",
     "SET hivelite.threads=2; SELECT {q}, b, count(k) FROM "
     "(SELECT b, k FROM {t} UNION ALL SELECT b, k FROM {t}) u GROUP BY b", 2 * ROWS),
    ("self-join",
     "SET hivelite.threads=2; SELECT {q}, x.b, count(y.k) FROM {t} x JOIN {t} y "
     "ON x.k = y.k AND x.b = y.b GROUP BY x.b", ROWS),
    ("scalar subquery over the table",
     "SET hivelite.threads=2; "
     "SELECT {q}, 0, count(k) - (SELECT count(k) FROM {t}) + {rows} FROM {t}", ROWS),
    ("multi-insert",
     "SET hivelite.threads=2; FROM {t} "
     "INSERT OVERWRITE TABLE {t}_c1_{r} SELECT b, count(k) GROUP BY b "
     "INSERT OVERWRITE TABLE {t}_c2_{r} SELECT b, count(k) GROUP BY b; "
     "SELECT {q}, coalesce(c1.b, c2.b), coalesce(c1.n, 0) + coalesce(c2.n, 0) - {rows} "
     "FROM {t}_c1_{r} c1 FULL JOIN {t}_c2_{r} c2 ON c1.b = c2.b", ROWS),
    ("ordered scan",
     "SET hivelite.threads=2; SELECT {q}, b, count(k) FROM "
     "(SELECT b, k FROM pt ORDER BY p DESC LIMIT 1000000) s GROUP BY b", ROWS),
]
ONLY = {"ordered scan": "pt"}  # queries of one table only


def cmd(hl, wh, sql):
    return [hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql]


def run(hl, wh, sql, env=None, timeout=300):
    e = dict(os.environ)
    e.pop("HIVELITE_PAUSE_AT", None)
    if env:
        e.update(env)
    return subprocess.run(cmd(hl, wh, sql), capture_output=True, text=True, env=e,
                          timeout=timeout)


def must(hl, wh, sql):
    r = run(hl, wh, sql)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s: %s" % (sql, r.stderr.strip()))
    return r.stdout


def appender(hl, wh, target, stop, out):
    """Appends batches 1, 2, ... (5 per process) until STOP is set."""
    b = 0
    while not stop.is_set():
        stmts = []
        for _ in range(5):
            b += 1
            stmts.append("INSERT INTO %s SELECT k, %d FROM src" % (target, b))
        r = run(hl, wh, "; ".join(stmts))
        if r.returncode != 0:
            out["error"] = "appender failed: %s" % r.stderr.strip()
            return
        out["batches"] = b


def answers(stdout, n):
    """The "q,b,n" lines of N statements: per statement, {b: [n, ...]}."""
    out = [{} for _ in range(n)]
    for line in stdout.split():
        q, b, cnt = line.split(",")
        out[int(q)].setdefault(b, []).append(int(cnt))
    return out


def wrong(answer, per_batch):
    """The batches of ANSWER that do not count PER_BATCH rows."""
    return ["b=%s: %s" % (b, "/".join(map(str, ns)))
            for b, ns in sorted(answer.items()) if ns != [per_batch]]


def reader(hl, wh, table, r, pause, stop, stats, lock):
    """Reader R: runs each query of QUERIES in turn over TABLE, STMTS
    statements per process, until STOP."""
    env = {"HIVELITE_PAUSE_AT": "scan:30"} if pause else None
    i = r
    while not stop.is_set():
        name, sql, per_batch = QUERIES[i % len(QUERIES)]
        i += 1
        if ONLY.get(name, table) != table:
            continue
        text = "; ".join(sql.format(t=table, rows=ROWS, q=q, r=r) for q in range(STMTS))
        p = run(hl, wh, text, env)
        with lock:
            if p.returncode != 0:
                stats["errors"].append("%s: %s" % (name, p.stderr.strip()))
                return
            for a in answers(p.stdout, STMTS):
                stats["reads"] += 1
                bad = wrong(a, per_batch)
                if bad:
                    stats["wrong_reads"] += 1
                    stats["by_query"][name] = stats["by_query"].get(name, 0) + 1
                    if len(stats["examples"]) < 8:
                        stats["examples"].append("%s: %s" % (name, ", ".join(bad[:3])))


def run_table(hl, wh, table, target, seconds, failures):
    must(hl, wh, "; ".join("CREATE TABLE %s_c%d_%d (b INT, n BIGINT)" % (table, c, r)
                           for c in (1, 2) for r in range(READERS)))
    stop = threading.Event()
    app = {}
    stats = {"reads": 0, "wrong_reads": 0, "by_query": {}, "examples": [], "errors": []}
    lock = threading.Lock()
    threads = [threading.Thread(target=appender, args=(hl, wh, target, stop, app))]
    for r in range(READERS):
        threads.append(threading.Thread(
            target=reader, args=(hl, wh, table, r, r % 2 == 1, stop, stats, lock)))
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    print("snapshot: %s: %d batches appended, %d reads, %d wrong %s"
          % (table, app.get("batches", 0), stats["reads"], stats["wrong_reads"],
             stats["by_query"] or ""))
    if "error" in app:
        failures.append(app["error"])
    failures.extend(stats["errors"])
    if stats["wrong_reads"]:
        failures.append("%s: %d of %d reads saw a batch twice or not at all, e.g. %s"
                        % (table, stats["wrong_reads"], stats["reads"],
                           "; ".join(stats["examples"])))
    if app.get("batches", 0) < 10 or stats["reads"] < 2 * len(QUERIES):
        failures.append("%s: the reads did not overlap the appends (%d batches, %d reads)"
                        % (table, app.get("batches", 0), stats["reads"]))
    # at rest every answer is right
    for name, sql, per in QUERIES:
        if ONLY.get(name, table) != table:
            continue
        bad = wrong(answers(must(hl, wh, sql.format(t=table, rows=ROWS, q=0, r=0)), 1)[0], per)
        if bad:
            failures.append("%s at rest: %s" % (name, ", ".join(bad[:3])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    top = tempfile.mkdtemp(prefix="hl-snap-")
    failures = []
    try:
        wh = os.path.join(top, "wh")
        values = ", ".join("(%d)" % k for k in range(ROWS))
        must(hl, wh, "CREATE TABLE src (k INT) STORED AS PARQUET; "
             "INSERT INTO src VALUES %s; "
             "CREATE TABLE t (k INT, b INT) STORED AS PARQUET; "
             "CREATE TABLE pt (k INT, b INT) PARTITIONED BY (p STRING) STORED AS PARQUET; "
             "INSERT INTO pt PARTITION (p='old') SELECT k, 0 FROM src; "
             "INSERT INTO pt PARTITION (p='new') SELECT k, -1 FROM src" % values)
        run_table(hl, wh, "t", "t", args.seconds, failures)
        run_table(hl, wh, "pt", "pt PARTITION (p='new')", args.seconds, failures)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print("snapshot: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
