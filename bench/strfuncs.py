#!/usr/bin/python3
"""strfuncs.py -- heavy string functions (issue 20): regexp_replace,
regexp_extract, get_json_object, split, concat_ws and lower in hivelite
against DuckDB's equivalents over the same rows.  A measurement, not a test.

The rows (id BIGINT, s STRING ~50 bytes of words and numbers, j STRING a
~70-byte JSON object, c STRING five comma-separated fields) are one
tab-separated file: an external text table in hivelite, read_csv in DuckDB.
Every query is `SELECT <aggregate of f(col)>` with one thread, so that both
engines evaluate every row and print one number, which must agree.  The
scan is charged to neither function: each function's cost is its query's
time minus the time of the same engine's `sum(length(col))` over the same
column.  Times are CPU times (the machine's cores are shared: wall times
swing with the neighbours' load).  hivelite: best of RUNS fresh processes
minus an empty query's;
DuckDB: best of RUNS runs inside one node process (bench/strfuncs.mjs)
over the file loaded into an in-memory table first, so neither its
start-up nor its CSV parse is counted (its scan rows are near zero).  Peak memory is the largest RSS of
the processes (/usr/bin/time -f %M; node's own is in DuckDB's figure).
The file is measured at ROWS rows, then grown to twice as many and measured
again: each function's cost should double.

Writes its section of bench/results.md between "<!-- strfuncs.sh: begin"
and "<!-- strfuncs.sh: end -->".
"""
import argparse
import datetime
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, hivelite expression, DuckDB expression, column); the first of a
# column is the scan baseline
QUERIES = [
    ("scan s", "sum(length(s))", "sum(length(s))", "s"),
    ("scan j", "sum(length(j))", "sum(length(j))", "j"),
    ("scan c", "sum(length(c))", "sum(length(c))", "c"),
    ("regexp_replace", "sum(length(regexp_replace(s, '[0-9]+', '#')))",
     "sum(length(regexp_replace(s, '[0-9]+', '#', 'g')))", "s"),
    ("regexp_extract", "sum(length(regexp_extract(s, 'id=([0-9]+)', 1)))",
     "sum(length(regexp_extract(s, 'id=([0-9]+)', 1)))", "s"),
    ("get_json_object", "sum(length(get_json_object(j, '$.user.name')))",
     "sum(length(json_extract_string(j, '$.user.name')))", "j"),
    ("split (regex)", "sum(size(split(c, ',')))", "sum(len(string_split_regex(c, ',')))", "c"),
    ("split vs str_split", "sum(size(split(c, ',')))", "sum(len(str_split(c, ',')))", "c"),
    ("concat_ws", "sum(length(concat_ws('-', s, c)))", "sum(length(concat_ws('-', s, c)))", "s"),
    ("lower", "sum(length(lower(s)))", "sum(length(lower(s)))", "s"),
]


def timed(cmd):
    """Run CMD under /usr/bin/time; (CPU ms, peak KB, stdout).  CPU time
    (user + system of every process reaped meanwhile: /usr/bin/time and its
    child) rather than wall time: the cores are shared, and a busy
    neighbour stretches wall times by more than the cheaper functions cost."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"failed: {cmd!r}: {p.stderr}")
    cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000
    return cpu, int(p.stderr.strip().splitlines()[-1]), p.stdout.strip()


def hive(hl, wh, sql, runs):
    best, peak, out = float("inf"), 0, None
    for _ in range(runs):
        ms, kb, out = timed([hl, "-w", wh, "--format", "tsv", "--no-header", "-c",
                             "SET hivelite.threads=1; " + sql])
        best, peak = min(best, ms), max(peak, kb)
    return best, peak, out


def duck(rows, expr, runs):
    _, kb, out = timed(["node", os.path.join(HERE, "strfuncs.mjs"), rows, str(runs), "1", expr])
    r = json.loads(out)
    return r["best_ms"], kb, r["value"]


def write_rows(f, lo, hi):
    for i in range(lo, hi):
        s = f"User-{i % 1000} Visited /Page/{i % 97}/Item?id={i}&ref=Mail on Day {i % 31}"
        j = f'{{"user":{{"id":{i},"name":"n{i % 1000}"}},"tags":["a","b"],"score":{i % 100}}}'
        c = f"{i % 7},{i % 11},x{i},y,z"
        f.write(f"{i}\t{s}\t{j}\t{c}\n")


def measure(hl, wh, rows, runs):
    empty, _, _ = hive(hl, wh, "SELECT 1", runs)
    res = {}
    for name, he, de, col in QUERIES:
        h_ms, h_kb, h_out = hive(hl, wh, f"SELECT {he} FROM t", runs)
        d_ms, d_kb, d_out = duck(rows, de, runs)
        res[name] = (h_ms - empty, h_kb, h_out, d_ms, d_kb, d_out, col)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", default="build/hivelite")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    args = ap.parse_args()
    hl = os.path.abspath(args.hivelite)
    n = args.rows
    t_start = time.perf_counter()
    tmp = tempfile.mkdtemp(prefix="strfuncs-bench-")
    try:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        rows = os.path.join(src, "rows.txt")
        wh = os.path.join(tmp, "wh")
        with open(rows, "w") as f:
            write_rows(f, 0, n)
        subprocess.run([hl, "-w", wh, "-c",
                        "CREATE EXTERNAL TABLE t (id BIGINT, s STRING, j STRING, c STRING) "
                        "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' "
                        f"LOCATION '{src}'"], check=True)
        one = measure(hl, wh, rows, args.runs)
        with open(rows, "a") as f:
            write_rows(f, n, 2 * n)
        two = measure(hl, wh, rows, args.runs)
        lines = emit(hl, n, args.runs, one, two, time.perf_counter() - t_start)
        print("\n".join(lines))
        text = open(args.out).read() if os.path.exists(args.out) else ""
        section = "\n".join(lines) + "\n"
        pat = re.compile(r"<!-- strfuncs\.sh: begin.*?<!-- strfuncs\.sh: end -->\n?", re.S)
        text = pat.sub(lambda m: section, text) if pat.search(text) else \
            text.rstrip("\n") + "\n\n" + section
        with open(args.out, "w") as f:
            f.write(text)
        if any(r[2] != r[5] for res in (one, two) for r in res.values()):
            sys.exit(1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def emit(hl, n, runs, one, two, wall):
    ver = subprocess.run([hl, "--version"], capture_output=True, text=True).stdout.strip()
    duckver = subprocess.run(["node", "-e", "import('@duckdb/node-api').then(m=>"
                              "console.log(m.version ? m.version() : '?'))"],
                             capture_output=True, text=True, cwd=HERE).stdout.strip() or "?"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    L = ["<!-- strfuncs.sh: begin (written by bench/strfuncs.sh; make bench keeps this section) -->",
         "## String functions (`bench/strfuncs.sh`, issue 20)", "",
         f"Written by bench/strfuncs.sh on {when}: {os.cpu_count()} cores; {ver}; DuckDB {duckver}. "
         f"One thread each, CPU time (user + system), best of {runs}; a function's time is its query's minus the same "
         "engine's `sum(length(col))` scan of its column (the scan rows show the scans "
         "themselves); peak RSS of the process in MB (DuckDB's includes node). "
         f"{n:,} rows, then {2 * n:,} (x2 is the ratio of the two function times):", "",
         "| function | hivelite ms | DuckDB ms | hivelite / DuckDB | hivelite x2 | DuckDB x2 "
         "| hivelite MB | DuckDB MB |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, _, _, col in QUERIES:
        h1, hk, _, d1, dk, _, _ = one[name]
        h2, hk2, _, d2, dk2, _, _ = two[name]
        if name.startswith("scan"):
            L.append(f"| {name} | {h1:.0f} | {d1:.0f} | {h1 / d1:.2f} | {h2 / h1:.2f} | "
                     f"{d2 / d1:.2f} | {hk2 // 1024} | {dk2 // 1024} |")
            continue
        base1, base2 = one["scan " + col], two["scan " + col]
        fh1, fd1 = h1 - base1[0], d1 - base1[3]
        fh2, fd2 = h2 - base2[0], d2 - base2[3]
        ratio = lambda a, b: f"{a / b:.2f}" if b > 0 and a > 0 else "-"
        L.append(f"| {name} | {fh1:.0f} | {fd1:.0f} | {ratio(fh1, fd1)} | {ratio(fh2, fh1)} | "
                 f"{ratio(fd2, fd1)} | {hk2 // 1024} | {dk2 // 1024} |")
    L.append("")
    bad = [f"{k}: {r[2]} vs {r[5]}" for res in (one, two) for k, r in res.items() if r[2] != r[5]]
    L.append("Both engines' answers agree on every query." if not bad else
             "Answers differ: " + "; ".join(bad))
    L.append(f"Measured in {wall:.0f} s, generation included.")
    L.append("<!-- strfuncs.sh: end -->")
    return L


if __name__ == "__main__":
    main()
