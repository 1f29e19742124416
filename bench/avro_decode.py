#!/usr/bin/python3
"""avro_decode.py -- Avro decode throughput (issue 19): an Avro table in
hivelite against the same rows as Parquet in hivelite, and against Debian's
python3-avro reading the same Avro file.  A measurement, not a test.

The rows (ROWS, default 2,000,000: id BIGINT, v DOUBLE, s STRING of 50
distinct values, t STRING all distinct, n INT with every 4th NULL) are
written by hivelite itself from a text table into three tables: Avro with
codec null, Avro with snappy, Parquet (snappy).  Each file is one file of
many blocks or row groups.  hivelite runs

    SELECT sum(id), max(v), max(s), max(t), count(n) FROM <table>

which decodes every value of every column (aggregates whose per-thread
results merge exactly, so that two threads aggregate in parallel instead
of handing every row to one: op_agg.c), with one thread and with two
(hivelite.scan.split.size=1MB, so that the two threads share the one file:
Avro by pieces cut at sync markers, Parquet by row group); best of RUNS
fresh processes, minus the best of an empty query's (process start-up is
not charged to the decoder).  python3-avro iterates the records of each
Avro file with DataFileReader/DatumReader (timed inside the process, once:
it is slow).  Every engine's answer is checked against the generator's.

Writes its section of bench/results.md between the markers
"<!-- avro.sh: begin" and "<!-- avro.sh: end -->" (make bench keeps it).
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

import avro.datafile
import avro.io

HERE = os.path.dirname(os.path.abspath(__file__))
QUERY = "SELECT sum(id), max(v), max(s), max(t), count(n) FROM {}"


def hive(hl, wh, sql):
    p = subprocess.run([hl, "-w", wh, "--format", "tsv", "--no-header", "-c", sql],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"hivelite failed on {sql!r}: {p.stderr}")
    return p.stdout.strip()


def best_ms(hl, wh, sqls, runs):
    """The best of RUNS wall times of each of SQLS (run in turn, so that a
    burst of other work on the machine hits them alike) and its output."""
    best = [float("inf")] * len(sqls)
    outs = [None] * len(sqls)
    for _ in range(runs):
        for k, sql in enumerate(sqls):
            t0 = time.perf_counter()
            outs[k] = hive(hl, wh, sql)
            best[k] = min(best[k], (time.perf_counter() - t0) * 1000)
    return list(zip(best, outs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", default="build/hivelite")
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    n = args.rows
    t_start = time.perf_counter()
    load0 = loadavg()
    tmp = tempfile.mkdtemp(prefix="avro-bench-")
    wh = os.path.join(tmp, "wh")
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    try:
        with open(os.path.join(src, "rows.txt"), "w") as f:
            for i in range(n):
                nv = "\\N" if i % 4 == 3 else str(i % 1000)
                f.write(f"{i}\x01{i * 0.25}\x01s{i % 50:02d}\x01t{i:09d}\x01{nv}\n")
        hive(hl, wh, f"CREATE EXTERNAL TABLE src (id BIGINT, v DOUBLE, s STRING, t STRING, n INT) "
                     f"LOCATION '{src}'")
        cols = "(id BIGINT, v DOUBLE, s STRING, t STRING, n INT)"
        hive(hl, wh, f"CREATE TABLE av_null {cols} STORED AS AVRO TBLPROPERTIES ('avro.output.codec'='null')")
        hive(hl, wh, f"CREATE TABLE av_snappy {cols} STORED AS AVRO TBLPROPERTIES ('avro.output.codec'='snappy')")
        hive(hl, wh, f"CREATE TABLE pq {cols} STORED AS PARQUET")
        for t in ("av_null", "av_snappy", "pq"):
            hive(hl, wh, f"INSERT INTO {t} SELECT * FROM src")
        want = "\t".join([str(n * (n - 1) // 2), repr((n - 1) * 0.25), "s49", f"t{n - 1:09d}",
                          str(n - n // 4)])
        (base1, _), (base2, _) = best_ms(hl, wh, ["SET hivelite.threads=1; SELECT 1",
                                                  "SET hivelite.threads=2; SELECT 1"], args.runs)
        rows = []
        answers = []
        for t, what in (("av_null", "Avro, codec null"), ("av_snappy", "Avro, codec snappy"),
                        ("pq", "Parquet, snappy")):
            d = os.path.join(wh, t)
            files = [x for x in os.listdir(d) if not x.startswith((".", "_"))]
            size = sum(os.path.getsize(os.path.join(d, x)) for x in files)
            (one, out1), (two, out2) = best_ms(hl, wh, [
                "SET hivelite.threads=1; " + QUERY.format(t),
                "SET hivelite.threads=2; SET hivelite.scan.split.size=1048576; " + QUERY.format(t)],
                args.runs)
            for o in (out1, out2):
                # max(v) printed as Java prints doubles: compare it as a number
                got = o.split("\t")
                ok = got[0] == want.split("\t")[0] and got[2:] == want.split("\t")[2:] and \
                    abs(float(got[1]) - float(want.split("\t")[1])) <= 1e-9 * abs(float(want.split("\t")[1]))
                answers.append((t, ok, o))
            one -= base1
            two -= base2
            py = None
            if t.startswith("av_"):
                path = os.path.join(d, files[0])
                t0 = time.perf_counter()
                cnt = sid = 0
                with open(path, "rb") as fh:
                    for r in avro.datafile.DataFileReader(fh, avro.io.DatumReader()):
                        cnt += 1
                        sid += r["id"]
                py = (time.perf_counter() - t0) * 1000
                answers.append((t + " python3-avro", cnt == n and sid == n * (n - 1) // 2, f"{cnt} {sid}"))
            rows.append((what, len(files), size, one, two, py))
        wall = time.perf_counter() - t_start
        lines = emit(args, hl, n, rows, answers, base1, wall, (load0, loadavg()))
        print("\n".join(lines))
        text = open(args.out).read() if os.path.exists(args.out) else ""
        section = "\n".join(lines) + "\n"
        pat = re.compile(r"<!-- avro\.sh: begin.*?<!-- avro\.sh: end -->\n?", re.S)
        text = pat.sub(lambda m: section, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + section
        with open(args.out, "w") as f:
            f.write(text)
        if not all(ok for _, ok, _ in answers):
            sys.exit(1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def emit(args, hl, n, rows, answers, base1, wall, loads):
    mr = lambda ms: f"{n / ms / 1000:.2f}" if ms and ms > 0 else "-"
    ver = subprocess.run([hl, "--version"], capture_output=True, text=True).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    pq1 = next(r for r in rows if r[0].startswith("Parquet"))[3]
    L = ["<!-- avro.sh: begin (written by bench/avro.sh; make bench keeps this section) -->",
         "## Avro decode throughput (`bench/avro.sh`, issue 19)", "",
         f"Written by bench/avro.sh on {when}: {os.cpu_count()} cores, {cpu}; {ver}; "
         f"python3-avro {avro_version()}, Python {platform.python_version()}. {n:,} rows "
         "(id BIGINT, v DOUBLE, s STRING of 50 values, t STRING all distinct, n INT a quarter NULL) "
         "written by hivelite into one file per table. hivelite: "
         "`SELECT sum(id), max(v), max(s), max(t), count(n)`, which decodes every value, best of "
         f"{args.runs} fresh processes (one and two threads in turn) minus an empty query's "
         f"({base1:.1f} ms); two threads with "
         "`hivelite.scan.split.size=1048576`, so both share the one file (Avro by pieces cut at sync "
         "markers, Parquet by row group). python3-avro: every record of the same file through "
         "DataFileReader, timed in its process, once. Million rows per second:", "",
         "| table | files | bytes | hivelite 1 thread | hivelite 2 threads | vs Parquet (1 thread) "
         "| python3-avro | hivelite / python3-avro |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for what, nf, size, one, two, py in rows:
        vs_pq = f"{pq1 / one:.2f}" if pq1 > 0 and one > 0 else "-"
        vs_py = f"{py / one:.0f}x" if py and one > 0 else ""
        L.append(f"| {what} | {nf} | {size:,} | {mr(one)} | {mr(two)} | {vs_pq} | "
                 f"{mr(py) if py else ''} | {vs_py} |")
    L.append("")
    bad = [f"{t}: {o}" for t, ok, o in answers if not ok]
    L.append("Every answer (both thread counts, and python3-avro's row count and sum of id) equals "
             "the generator's." if not bad else "Wrong answers: " + "; ".join(bad))
    L.append("")
    L.append(f"Measured in {wall:.0f} s (generation and writing included); the machine's load "
             f"average was {loads[0]} at the start and {loads[1]} at the end (other work on the "
             "shared cores slows the two-thread runs first).")
    L.append("<!-- avro.sh: end -->")
    return L


def avro_version():
    try:
        from importlib.metadata import version
        return version("avro")
    except Exception:  # noqa: BLE001 -- only for the report
        return "?"


if __name__ == "__main__":
    main()
