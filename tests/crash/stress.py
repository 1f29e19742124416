#!/usr/bin/env python3
"""stress.py -- many writer and reader processes on one warehouse.

Usage: python3 tests/crash/stress.py --hivelite PATH [--seconds S] [--seed N]

Writers (one process per statement, each batch of rows carrying a batch id
b that no other write uses; every batch is ROWS rows):

  append     INSERT INTO ap                      (2 writers)
  newpart    INSERT INTO pt PARTITION (p='n<w>_<k>'), and DROP PARTITION of
             its own older partitions now and then
  overwrite  INSERT OVERWRITE TABLE pt PARTITION (p='o<w>')   (2 writers)
  dynamic    INSERT OVERWRITE TABLE pt PARTITION (p) into d0, d1, d2
  multi      FROM seq INSERT INTO TABLE ap ... INSERT INTO TABLE pt
             PARTITION (p='m') ...: one batch in both tables
  multipart  FROM seq INSERT INTO TABLE pt PARTITION (p='mp1') ... INSERT
             INTO TABLE pt PARTITION (p='mp2') ...: one batch in two
             partitions of one table

Readers run, with hivelite.threads 1 and 2 in turn, one statement that
counts every batch id over both tables:

  SELECT b, p, count(*) FROM (SELECT b, 'ap' AS p FROM ap
                              UNION ALL SELECT b, p FROM pt) x GROUP BY b, p

or, every other pair of reads, table ap alone (whose GROUP BY runs whole in
every scan thread), and
and check, against the writers' log (start and end time, exit status):

  * every batch seen is whole: ROWS rows in each table it was written to
    (a multi-insert: in both, or in neither), never doubled or partial;
  * no failed write is visible, nor one that started after the reader ended;
  * every append, multi-insert and new partition that committed before the
    reader started is visible (unless its partition's drop had started);
  * each overwritten partition (and the dynamic set) shows exactly one
    batch, not older than the last overwrite committed before the reader
    started; a dropped partition whose drop committed before is gone.

At the end (no writer running) the same holds with every write finished,
and count(*) from statistics equals a scan of each table.  A write may fail
only with 40001 or 55P03 (a reader only with 40001); any other error is a
violation.  Exit status 0 when there is none.  Standard library only.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROWS = 99  # three dynamic partitions of 33 rows each
RETRYABLE = ("ERROR 40001", "ERROR 55P03")


class Log:
    def __init__(self):
        self.lock = threading.Lock()
        self.writes = []  # dicts: kind, writer, b, part, start, end, ok, err
        self.reads = 0
        self.readings = []  # (seen, start, end, what), checked when every write is done
        self.read_retries = 0
        self.violations = []

    def add(self, rec):
        with self.lock:
            self.writes.append(rec)

    def violate(self, msg):
        with self.lock:
            if len(self.violations) < 200:
                self.violations.append(msg)


def hl_run(hl, wh, sql, timeout=300):
    return subprocess.run([hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                          capture_output=True, text=True, timeout=timeout)


def write_once(hl, wh, log, kind, writer, b, part, sql):
    t0 = time.time()
    r = hl_run(hl, wh, sql)
    t1 = time.time()
    ok = r.returncode == 0
    err = r.stderr.strip()
    if not ok and not err.startswith(RETRYABLE):
        log.violate("%s %s b=%d failed: %s" % (kind, writer, b, err[:300]))
    log.add({"kind": kind, "writer": writer, "b": b, "part": part, "start": t0, "end": t1,
             "ok": ok, "err": err})
    return ok


def select_seq(b):
    return "SELECT %d, i FROM seq" % b


def writer_loop(hl, wh, log, kind, idx, stop, rng):
    n = 0
    mine = []  # newpart: partitions created and not dropped
    while not stop.is_set():
        n += 1
        b = (idx + 1) * 10_000_000 + n
        name = "%s%d" % (kind, idx)
        if kind == "append":
            write_once(hl, wh, log, kind, name, b, None, "INSERT INTO ap " + select_seq(b))
        elif kind == "newpart":
            if mine and rng.random() < 0.3:
                part = mine.pop(rng.randrange(len(mine)))
                t0 = time.time()
                r = hl_run(hl, wh, "ALTER TABLE pt DROP PARTITION (p='%s')" % part)
                t1 = time.time()
                if r.returncode != 0 and not r.stderr.startswith(RETRYABLE):
                    log.violate("drop %s failed: %s" % (part, r.stderr.strip()[:300]))
                log.add({"kind": "drop", "writer": name, "b": 0, "part": part, "start": t0,
                         "end": t1, "ok": r.returncode == 0, "err": r.stderr.strip()})
                if r.returncode != 0:
                    mine.append(part)
                continue
            part = "n%d_%d" % (idx, n)
            if write_once(hl, wh, log, kind, name, b, part,
                          "INSERT INTO pt PARTITION (p='%s') %s" % (part, select_seq(b))):
                mine.append(part)
        elif kind == "overwrite":
            part = "o%d" % idx
            write_once(hl, wh, log, kind, name, b, part,
                       "INSERT OVERWRITE TABLE pt PARTITION (p='%s') %s" % (part, select_seq(b)))
        elif kind == "dynamic":
            write_once(hl, wh, log, kind, name, b, "d",
                       "SET hive.exec.dynamic.partition.mode=nonstrict; "
                       "INSERT OVERWRITE TABLE pt PARTITION (p) SELECT %d, i, "
                       "concat('d', cast(i %% 3 AS STRING)) FROM seq" % b)
        elif kind == "multipart":
            write_once(hl, wh, log, kind, name, b, "mp",
                       "FROM seq INSERT INTO TABLE pt PARTITION (p='mp1') SELECT %d, i "
                       "INSERT INTO TABLE pt PARTITION (p='mp2') SELECT %d, i" % (b, b))
        elif kind == "multi":
            write_once(hl, wh, log, kind, name, b, "m",
                       "FROM seq INSERT INTO TABLE ap SELECT %d, i "
                       "INSERT INTO TABLE pt PARTITION (p='m') SELECT %d, i" % (b, b))


READ_SQL = ("SELECT b, p, count(*) FROM (SELECT b, 'ap' AS p FROM ap UNION ALL "
            "SELECT b, p FROM pt) x GROUP BY b, p")
# one table: the aggregation runs whole in every thread (op_agg.c)
READ_AP_SQL = "SELECT b, 'ap', count(*) FROM ap GROUP BY b"


def parse_read(out):
    seen = {}  # b -> {table-or-partition: count}
    for line in out.split("\n"):
        if not line:
            continue
        b, p, c = line.split(",")
        seen.setdefault(int(b), {})[p] = int(c)
    return seen


def check(log, seen, rs, re_, writes, what, ap_only=False):
    """Checks one reading SEEN taken in [rs, re_] against WRITES (AP_ONLY:
    a reading of table ap alone)."""
    if ap_only:
        writes = [w for w in writes if w["kind"] in ("append", "multi")]
    by_b = {w["b"]: w for w in writes if w["b"]}
    for b, where in seen.items():
        w = by_b.get(b)
        if w is None:
            log.violate("%s: batch %d was never written (%r)" % (what, b, where))
            continue
        if not w["ok"]:
            log.violate("%s: failed %s write %d is visible: %r" % (what, w["kind"], b, where))
        if w["start"] > re_:
            log.violate("%s: %s write %d started after the read ended" % (what, w["kind"], b))
        if w["kind"] == "multi":
            want = {"ap": ROWS} if ap_only else {"ap": ROWS, "m": ROWS}
        elif w["kind"] == "append":
            want = {"ap": ROWS}
        elif w["kind"] == "multipart":
            want = {"mp1": ROWS, "mp2": ROWS}
        elif w["kind"] == "dynamic":
            want = {"d0": ROWS // 3, "d1": ROWS // 3, "d2": ROWS // 3}
        else:
            want = {w["part"]: ROWS}
        if where != want:
            log.violate("%s: %s batch %d is not whole: %r, want %r" % (what, w["kind"], b, where,
                                                                      want))
    # what must be there: committed before the read started
    dropped = {}  # part -> drop record (first drop that started before re_)
    for w in writes:
        if w["kind"] == "drop" and w["ok"]:
            dropped.setdefault(w["part"], w)
    last_over = {}  # overwrite writer -> latest committed before rs
    for w in writes:
        if not w["ok"] or w["end"] >= rs:
            continue
        if w["kind"] in ("append", "multi") + (() if ap_only else ("multipart",)) and \
                w["b"] not in seen:
            log.violate("%s: committed %s batch %d is missing" % (what, w["kind"], w["b"]))
        if w["kind"] == "newpart":
            d = dropped.get(w["part"])
            if w["b"] not in seen and (d is None or d["start"] > re_):
                log.violate("%s: committed new partition %s (batch %d) is missing" %
                            (what, w["part"], w["b"]))
        if w["kind"] in ("overwrite", "dynamic"):
            if w["writer"] not in last_over or last_over[w["writer"]]["end"] < w["end"]:
                last_over[w["writer"]] = w
    for part, d in dropped.items():
        if d["end"] < rs:
            for b, where in seen.items():
                if part in where:
                    log.violate("%s: partition %s is visible after its drop committed" %
                                (what, part))
    for writer, last in last_over.items():
        vis = [b for b in seen if by_b.get(b, {}).get("writer") == writer]
        if len(vis) != 1:
            log.violate("%s: %s: %d batches visible (%r), want exactly 1" % (what, writer,
                                                                            len(vis), vis))
        elif vis[0] < last["b"]:
            log.violate("%s: %s: batch %d visible, but %d had committed before the read" %
                        (what, writer, vis[0], last["b"]))


def reader_loop(hl, wh, log, idx, stop):
    k = 0
    while not stop.is_set():
        k += 1
        threads = 1 + (k + idx) % 2
        ap_only = (k // 2) % 2 == 1
        rs = time.time()
        r = hl_run(hl, wh, "SET hivelite.threads=%d; %s" % (threads,
                                                            READ_AP_SQL if ap_only else READ_SQL))
        re_ = time.time()
        if r.returncode != 0:
            if r.stderr.startswith("ERROR 40001"):
                with log.lock:
                    log.read_retries += 1
            else:
                log.violate("reader %d: %s" % (idx, r.stderr.strip()[:300]))
            continue
        with log.lock:
            log.reads += 1
            log.readings.append((parse_read(r.stdout), rs, re_,
                                 "read %d.%d (threads=%d%s)" % (idx, k, threads,
                                                                 ", ap" if ap_only else ""),
                                 ap_only))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--seconds", type=float, default=25)
    ap.add_argument("--readers", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    top = tempfile.mkdtemp(prefix="hl-stress-")
    wh = os.path.join(top, "wh")
    log = Log()
    try:
        vals = ", ".join("(%d)" % i for i in range(ROWS))
        r = hl_run(hl, wh, "CREATE TABLE seq (i INT); INSERT INTO seq VALUES %s; "
                   "CREATE TABLE ap (b BIGINT, i INT); "
                   "CREATE TABLE pt (b BIGINT, i INT) PARTITIONED BY (p STRING)" % vals)
        if r.returncode != 0:
            print("setup failed: %s" % r.stderr.strip())
            return 1
        with open(os.path.join(wh, ".hivelite", "config"), "a") as f:
            f.write("hivelite.lock.timeout=300\n")
        if hl_run(hl, wh, "SELECT count(*) FROM seq WHERE i >= 0").stdout.strip() != str(ROWS):
            print("setup failed: seq does not hold %d rows" % ROWS)
            return 1
        stop = threading.Event()
        rng = random.Random(seed)
        kinds = [("append", 0), ("append", 1), ("newpart", 2), ("overwrite", 3),
                 ("overwrite", 4), ("dynamic", 5), ("multi", 6), ("multipart", 7)]
        threads = [threading.Thread(target=writer_loop,
                                    args=(hl, wh, log, k, i, stop, random.Random(rng.random())))
                   for k, i in kinds]
        threads += [threading.Thread(target=reader_loop, args=(hl, wh, log, i, stop))
                    for i in range(args.readers)]
        t0 = time.time()
        for t in threads:
            t.start()
        while time.time() - t0 < args.seconds and not log.violations:
            time.sleep(0.2)
        stop.set()
        for t in threads:
            t.join()
        # every write finished: check what each reader saw against the log
        for seen, rs, re_, what, ap_only in log.readings:
            check(log, seen, rs, re_, log.writes, what, ap_only)
        rs = time.time()
        r = hl_run(hl, wh, READ_SQL)
        if r.returncode != 0:
            log.violate("final read: %s" % r.stderr.strip())
        else:
            check(log, parse_read(r.stdout), rs, time.time(), log.writes, "final read")
        for table in ("ap", "pt"):
            stat = hl_run(hl, wh, "SELECT count(*) FROM %s" % table).stdout.strip()
            scan = hl_run(hl, wh, "SELECT count(*) FROM %s WHERE i >= 0" % table).stdout.strip()
            if stat != scan:
                log.violate("%s: count(*) from statistics %s, a scan counts %s" % (table, stat,
                                                                                 scan))
        left = []
        for d, dirs, files in os.walk(wh):
            if os.path.basename(d) == ".hivelite":
                dirs[:] = []
                continue
            left += [os.path.join(d, x) for x in dirs + files if x.startswith(".hivelite-")]
        if left:
            log.violate("left behind: %r" % left[:5])
    finally:
        shutil.rmtree(top, ignore_errors=True)
    ok_writes = sum(1 for w in log.writes if w["ok"])
    print("stress: seed %d, %.0f s: %d writes (%d committed, %d refused with 40001/55P03), "
          "%d reads (%d retried with 40001), %d violations" %
          (seed, args.seconds, len(log.writes), ok_writes, len(log.writes) - ok_writes, log.reads,
           log.read_retries, len(log.violations)))
    for v in log.violations[:30]:
        print("VIOLATION " + v)
    return 1 if log.violations else 0


if __name__ == "__main__":
    sys.exit(main())
