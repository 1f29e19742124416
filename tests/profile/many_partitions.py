#!/usr/bin/env python3
"""many_partitions.py -- PROFILE TABLE, incremental scans and newest-first
LIMIT on tables of thousands of partitions (issue 16, "Done means").

Usage: python3 tests/profile/many_partitions.py --hivelite PATH [--keep]

The partitions are written directly as Hive text files (\\x01 between
fields, \\N for NULL) and registered by MSCK REPAIR TABLE, which is far
faster than thousands of INSERTs.  Python keeps a model of every row, and
every assertion compares hivelite's answer with the model's, exactly:

a. a batch table (STRING `batch`, incremental kind batch) of 1,000 batches
   and junk values; after 1,500 new batches (some of them empty) an
   incremental scan reads exactly those 1,500 partitions (partitions_read
   + partitions_reused == 1500, rows_read == their rows, column counts,
   min/max/mean against the model), the checkpoint is the highest batch,
   junk is named in non_numeric_partitions_skipped; a second checkpoint
   name starts from nothing and takes every stored state (no partition
   read);
b. after one partition's file is rewritten, a full PROFILE reads one
   partition (partitions_read == 1) and its column rows equal those of a
   fresh `PROFILE TABLE t WHERE true` (every field exactly, mean, stddev
   and mean_length to 1e-9 relative; the quantiles and frequent values of
   the one column past the exact-distinct threshold against the model
   within the stated bounds), and the model's counts, nulls, min, max,
   means and distinct counts;
c. a text-date table (MSCK sets the field): 3,000 days in eight formats
   with holes, empty partitions and junk values; the first incremental
   scan reads every date partition and names five of the junk values; 60
   new days (holes, empties, hours after the checkpoint's hour) are read
   exactly; late files in old partitions (ANALYZE ... NOSCAN and INSERT
   INTO) and a back-filled hole are reported as
   late_rows_in_scanned_partitions naming five, and read whole WITH LATE;
   then nothing is late and nothing new;
d. `SELECT * FROM t LIMIT 10` returns the rows of the newest partitions
   (an empty newest one skipped), and EXPLAIN ANALYZE counts the
   partitions read, with one and two threads;
e. PROFILE ... LIMIT n counts exactly n rows, those of the newest
   partitions with the oldest one cut short (also with a WHERE);
f. `hivelite profile ... --format json` prints exactly what the SQL
   statement prints (stdout and stderr), for a full profile, --limit,
   --where and --incremental NAME --with-late (the latter on a copy of
   the warehouse, since an incremental scan moves its checkpoint);
g. a Parquet table of 2,000 partitions profiled by two threads, five
   times: each worker's scan once shared the session's Parquet footer
   cache, which is for one thread (a use-after-free or double free that
   the ASan build of make check catches most runs; the answer is checked
   too).
Standard library only.
"""
import argparse
import datetime
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

NULL = None


class Failure(Exception):
    pass


def check(cond, what, got=None, want=None):
    if not cond:
        msg = what
        if got is not None or want is not None:
            msg += "\n  got:  %r\n  want: %r" % (got, want)
        raise Failure(msg)


def eq(got, want, what):
    check(got == want, what, got, want)


def close(got, want, what, rel=1e-9):
    if got is None or want is None:
        eq(got, want, what)
        return
    check(abs(got - want) <= rel * max(1.0, abs(want)), what, got, want)


class Hive:
    def __init__(self, exe, wh):
        self.exe = exe
        self.wh = wh

    def raw(self, *sqls, fmt="json", wh=None):
        argv = [self.exe, "-w", wh or self.wh, "--format", fmt]
        for s in sqls:
            argv += ["-c", s]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise Failure("hivelite failed (%d) on %r:\n%s" % (p.returncode, sqls, p.stderr))
        return p.stdout, p.stderr

    def rows(self, *sqls):
        out, _ = self.raw(*sqls)
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def profile(self, sql, *pre):
        """(column rows by name, summary, warnings list, checkpoint, stderr)."""
        out, err = self.raw(*pre, sql)
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        check(lines and "rows_read" in lines[-1], "no summary row: %r" % out)
        summary = lines[-1]
        cols = {r["column"]: r for r in lines[:-1]}
        warnings = summary["warnings"]  # embedded JSON (hl_column_is_json)
        cp = summary["checkpoint"]
        return cols, summary, warnings, cp, err


# ---- writing partitions ------------------------------------------------------
def text_field(v):
    if v is None:
        return "\\N"
    return str(v)


def write_rows(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write("\x01".join(text_field(v) for v in r) + "\n")


def hive_escape(v):
    """Hive's escapePathName for the characters our values hold."""
    return "".join("%%%02X" % ord(c) if c in ':%/="#\'*?\\{[]^' else c for c in v)


class Blocked:
    """Old partition directories replaced by plain files while a scan runs:
    a scan that lists one fails ("Not a directory"), so a scan that passes
    never listed them."""

    def __init__(self, dirs):
        self.dirs = dirs

    def __enter__(self):
        for d in self.dirs:
            os.rename(d, d + ".away")
            with open(d, "w") as f:
                f.write("not a partition directory\n")

    def __exit__(self, *exc):
        for d in self.dirs:
            os.remove(d)
            os.rename(d + ".away", d)


# ---- the model's profile of one column ------------------------------------------
def model_col(values, kind):
    """Exact profile fields of VALUES (None = NULL); kind int|dec|str."""
    vals = [v for v in values if v is not None]
    out = {"count": len(values), "nulls": len(values) - len(vals)}
    distinct = set(vals)
    out["distinct"] = len(distinct)
    if not vals:
        return out
    if kind == "str":
        out["min"], out["max"] = min(vals), max(vals)
        lens = [len(v) for v in vals]
        out["min_length"], out["max_length"] = min(lens), max(lens)
        out["mean_length"] = sum(lens) / len(lens)
        out["empty"] = sum(1 for v in vals if v == "")
    else:
        lo, hi = min(vals), max(vals)
        if kind == "dec":  # cents
            out["min"], out["max"] = "%.2f" % (lo / 100), "%.2f" % (hi / 100)
            out["mean"] = sum(vals) / 100 / len(vals)
        else:
            out["min"], out["max"] = str(lo), str(hi)
            out["mean"] = sum(vals) / len(vals)
        out["zeros"] = sum(1 for v in vals if v == 0)
        out["negatives"] = sum(1 for v in vals if v < 0)
    return out


def check_col(got, want, what, exact_distinct=None):
    if exact_distinct is None:  # exact up to HL_PROF_EXACT_MAX distinct values
        exact_distinct = want["distinct"] <= 1024
    for k, w in want.items():
        g = got.get(k)
        if k == "distinct" and not exact_distinct:
            # HyperLogLog: within three stated standard errors
            err = got["distinct_error"]
            check(not got["distinct_exact"] and abs(g - w) <= 3 * err * w + 1,
                  "%s: distinct %r not within 3 x %r of %r" % (what, g, err, w))
        elif k in ("mean", "mean_length"):
            close(g, w, "%s: %s" % (what, k))
        else:
            eq(g, w, "%s: %s" % (what, k))
    if exact_distinct:
        eq(got["distinct_exact"], True, what + ": distinct_exact")


FLOAT_FIELDS = ("mean", "stddev", "mean_length", "distinct_error")


def same_profile(got, want, what, loose=()):
    """Column rows of two profiles: equal, floats to 1e-9, LOOSE fields skipped."""
    eq(sorted(got), sorted(want), what + ": columns")
    for c in want:
        for k in want[c]:
            if k in loose and c in loose[k]:
                continue
            if k in FLOAT_FIELDS:
                close(got[c][k], want[c][k], "%s: %s.%s" % (what, c, k))
            else:
                eq(got[c][k], want[c][k], "%s: %s.%s" % (what, c, k))


def rank_ok(sorted_vals, q, text, bound=0.01):
    """Whether TEXT (a reported quantile) has a rank within BOUND of Q."""
    v = int(text)
    n = len(sorted_vals)
    lo = sum(1 for x in sorted_vals if x < v)
    hi = sum(1 for x in sorted_vals if x <= v)
    target = q * n
    return lo - bound * n - 1 <= target <= hi + bound * n + 1


# ---- (a), (b): batches ------------------------------------------------------------
WORDS = ["w%02d" % i for i in range(40)]


class Batches:
    def __init__(self, root, rng):
        self.root = root
        self.rng = rng
        self.parts = {}  # batch value -> rows [(id, b, s, v)]
        self.next_id = 1

    def add(self, value, n_rows):
        d = os.path.join(self.root, "batch=" + value)
        os.makedirs(d, exist_ok=True)
        rows = []
        b = int(value) if value.isdigit() and len(value) < 10 else -1
        for _ in range(n_rows):
            i = self.next_id
            self.next_id += 1
            r = self.rng.random()
            s = None if r < 0.1 else "" if r < 0.15 else self.rng.choice(WORDS)
            v = None if i % 17 == 0 else (i * 37) % 800 - 200  # cents
            rows.append((i, b, s, v))
        if n_rows:
            write_rows(os.path.join(d, "000000_0"),
                       [(i, b, s, None if v is None else "%.2f" % (v / 100)) for i, b, s, v in rows])
        self.parts[value] = rows

    def model(self, values):
        rows = [r for v in values for r in self.parts[v]]
        return rows, {
            "id": model_col([r[0] for r in rows], "int"),
            "b": model_col([r[1] for r in rows], "int"),
            "s": model_col([r[2] for r in rows], "str"),
            "v": model_col([r[3] for r in rows], "dec"),
        }


def junk_warning(code, column, noun, names):
    """The expected warning for junk partition values NAMES (catalog name order)."""
    vals = sorted(names, key=lambda v: (column + "=" + hive_escape(v)).encode())
    shown = ", ".join("'%s'" % v for v in vals[:5])
    more = ", ..." if len(vals) > 5 else ""
    return {"code": code,
            "message": 'partitions of column "%s" whose values are not %s were left out (%d): %s%s'
                       % (column, noun, len(vals), shown, more)}


def late_warning(cp, names, with_late):
    names = sorted(names, key=lambda n: n.encode())
    n = len(names)
    return {"code": "late_rows_in_scanned_partitions",
            "message": "%d partition%s at or before checkpoint '%s' received rows after it was "
                       "scanned%s: %s%s"
                       % (n, "s" if n > 1 else "", cp,
                          " (read again: WITH LATE)" if with_late else
                          " (not read; WITH LATE reads them)",
                          ", ".join("'%s'" % x for x in names[:5]), ", ..." if n > 5 else "")}


def test_batches(h, data, rng):
    root = os.path.join(data, "bt")
    bt = Batches(root, rng)
    old = [str(b) for b in range(1, 1001)]
    for b in old:
        bt.add(b, 0 if b in ("7", "500") else rng.randint(1, 4))
    junk = ["x1", "-5", "12abc", "batch_old", "1e3", "99999999999999999"]
    for j in junk:
        bt.add(j, 2)
    h.raw("CREATE EXTERNAL TABLE bt (id BIGINT, b INT, s STRING, v DECIMAL(12,2))"
          " PARTITIONED BY (batch STRING) STORED AS TEXTFILE LOCATION '%s'"
          " TBLPROPERTIES ('hivelite.incremental.field'='batch',"
          " 'hivelite.incremental.kind'='batch')" % root,
          "MSCK REPAIR TABLE bt")
    jw = junk_warning("non_numeric_partitions_skipped", "batch", "batch numbers", junk)

    cols, s, w, cp, _ = h.profile("PROFILE TABLE bt INCREMENTAL AS 'a'")
    rows, want = bt.model(old)
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"], s["partitions_total"]),
       (1000, 0, len(rows), 1006), "(a) first scan: partitions read, reused, rows, total")
    eq(w, [jw], "(a) first scan: warnings")
    eq(cp, {"name": "a", "field": "batch", "kind": "batch", "value": "1000", "previous": None},
       "(a) first scan: checkpoint")
    for c in ("b", "s", "v"):
        check_col(cols[c], want[c], "(a) first scan: " + c)
    check_col(cols["id"], want["id"], "(a) first scan: id")

    # 1,500 new batches, some empty; in name order they interleave with the
    # old ones ("1001" < "101"), in number order all follow them
    new = [str(b) for b in range(1001, 2501)]
    for b in new:
        bt.add(b, 0 if int(b) % 97 == 0 else rng.randint(1, 4))
    h.raw("MSCK REPAIR TABLE bt")
    with Blocked([os.path.join(root, "batch=" + b) for b in ("1", "3", "101", "999", "1000")]):
        cols, s, w, cp, _ = h.profile("PROFILE TABLE bt INCREMENTAL AS 'a'")
    rows, want = bt.model(new)
    eq(s["partitions_read"] + s["partitions_reused"], 1500,
       "(a) after 1,500 new batches: partitions read + reused")
    eq((s["partitions_read"], s["rows_read"], s["partitions_total"]), (1500, len(rows), 2506),
       "(a) after 1,500 new batches: partitions read, rows read, total")
    eq(w, [jw], "(a) after 1,500 new batches: warnings (junk only, nothing late)")
    eq(cp, {"name": "a", "field": "batch", "kind": "batch", "value": "2500", "previous": "1000"},
       "(a) after 1,500 new batches: checkpoint")
    for c in ("b", "s", "v"):
        check_col(cols[c], want[c], "(a) new batches: " + c)
    check_col(cols["id"], want["id"], "(a) new batches: id")

    # nothing new: nothing read, the checkpoint stays
    _, s, w, cp, _ = h.profile("PROFILE TABLE bt INCREMENTAL AS 'a'")
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"]), (0, 0, 0),
       "(a) nothing new: read")
    eq((cp["value"], cp["previous"]), ("2500", "2500"), "(a) nothing new: checkpoint")

    # another name starts from nothing, and every partition's state is stored
    cols, s, w, cp, _ = h.profile("PROFILE TABLE bt INCREMENTAL AS 'b'")
    rows, want = bt.model(old + new)
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"]), (0, 2500, len(rows)),
       "(a) checkpoint 'b': every state reused")
    eq((cp["name"], cp["value"], cp["previous"]), ("b", "2500", None), "(a) checkpoint 'b'")
    for c in ("id", "b", "s", "v"):
        check_col(cols[c], want[c], "(a) checkpoint 'b': " + c)

    # ---- (b) one partition changes: a full profile reads that one
    everything = old + new + junk
    _, s, _, _, _ = h.profile("PROFILE TABLE bt")  # the junk partitions get states too
    eq((s["partitions_read"], s["partitions_reused"]), (len(junk), 2500), "(b) first full profile")
    _, s, _, _, _ = h.profile("PROFILE TABLE bt")
    eq((s["partitions_read"], s["partitions_reused"], s["total_rows_source"]),
       (0, 2506, "exact"), "(b) second full profile: all reused")
    # rewrite batch 1234 with other rows: a new highest v and a new word
    bt.next_id = 10 ** 6
    bt.add("1234", 5)
    bt.parts["1234"][0] = (bt.parts["1234"][0][0], 1234, "zz-new", 999999)
    r = bt.parts["1234"]
    write_rows(os.path.join(root, "batch=1234", "000000_0"),
               [(i, b, s_, None if v is None else "%.2f" % (v / 100)) for i, b, s_, v in r])
    cols, s, _, _, _ = h.profile("PROFILE TABLE bt")
    rows, want = bt.model(everything)
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"], s["total_rows"]),
       (1, 2505, len(rows), len(rows)), "(b) after one partition changed: read one")
    fresh, fs, _, _, _ = h.profile("PROFILE TABLE bt WHERE true")
    eq((fs["partitions_read"], fs["partitions_reused"], fs["rows_read"]), (2506, 0, len(rows)),
       "(b) WHERE true reads every partition")
    # past the exact-distinct threshold the quantiles and frequent values
    # are sketches whose merges may differ from one pass: checked against
    # the model below
    high = [c for c in want if want[c]["distinct"] > 1024]
    eq(high, ["id", "b"], "(b) the columns past the exact threshold")
    same_profile(cols, fresh, "(b) merged vs fresh",
                 loose={k: high for k in ("q25", "q50", "q75", "top")})
    for c in ("b", "s", "v"):
        check_col(cols[c], want[c], "(b) model: " + c)
    check_col(cols["id"], want["id"], "(b) model: id", exact_distinct=False)
    eq(cols["v"]["max"], "9999.99", "(b) the changed partition's new maximum")
    for c, idx in (("id", 0), ("b", 1)):
        vals = sorted(x[idx] for x in rows)
        counts = {}
        for x in vals:
            counts[x] = counts.get(x, 0) + 1
        for prof in (cols, fresh):
            for q, k in ((0.25, "q25"), (0.5, "q50"), (0.75, "q75")):
                check(rank_ok(vals, q, prof[c][k]), "(b) %s %s %s off by more than 1%% in rank"
                      % (c, k, prof[c][k]))
            # Misra-Gries counts are lower bounds
            for t in (prof[c]["top"] or []):
                check(t["count"] <= counts.get(int(t["value"]), 0),
                      "(b) %s top count %r above the true %r" % (c, t, counts.get(int(t["value"]))))


# ---- (c), (d), (e): text dates -------------------------------------------------------
FORMATS = [
    ("yyyyMMdd", "%Y%m%d", False),
    ("yyyy-MM-dd", "%Y-%m-%d", False),
    ("yyyyMMddHH", "%Y%m%d%H", True),
    ("yyyy-MM-dd-HH", "%Y-%m-%d-%H", True),
    ("yyyyMMddHHmm", "%Y%m%d%H%M", True),
    ("yyyyMMddHHmmss", "%Y%m%d%H%M%S", True),
    ("yyyy-MM-dd HH:mm", "%Y-%m-%d %H:%M", True),
    ("yyyy-MM-dd HH:mm:ss", "%Y-%m-%d %H:%M:%S", True),
]
EPOCH = datetime.datetime(1970, 1, 1)


class Dates:
    def __init__(self, root, rng):
        self.root = root
        self.rng = rng
        self.parts = {}  # value -> {"t": seconds, "rows": [...], "name": partition name}

    def add(self, when, fmt, n_rows):
        value = when.strftime(fmt)
        name = "ds=" + hive_escape(value)
        d = os.path.join(self.root, name)
        os.makedirs(d, exist_ok=True)
        t = int((when - EPOCH).total_seconds())
        rows = [self.row(t, k) for k in range(n_rows)]
        if rows:
            write_rows(os.path.join(d, "000000_0"), rows)
        self.parts[value] = {"t": t, "rows": rows, "name": name, "dir": d}
        return value

    def row(self, t, k):
        r = self.rng.random()
        s = None if r < 0.08 else "" if r < 0.12 else self.rng.choice(WORDS)
        return (t, k, s)

    def newest_first(self, values):
        return sorted(values, key=lambda v: -self.parts[v]["t"])


def test_dates(h, data, rng, hl_exe, tmp):
    root = os.path.join(data, "dd")
    dd = Dates(root, rng)
    start = datetime.datetime(2016, 1, 1)
    dates, holes, empties = [], [], []
    for day in range(3000):
        when = start + datetime.timedelta(days=day)
        if rng.random() < 0.08:
            holes.append(when)
            continue
        era = min(day // 375, 7)
        name, fmt, hourly = FORMATS[era]
        n = 0 if rng.random() < 0.05 else rng.randint(1, 4)
        if hourly:  # one or two partitions a day, at distinct hours and minutes
            for hr in sorted(rng.sample(range(1, 24), rng.randint(1, 2))):
                v = dd.add(when + datetime.timedelta(hours=hr, minutes=rng.randint(0, 59) *
                                                     (fmt.count("%M") > 0)), fmt, n)
                dates.append(v)
                if n == 0:
                    empties.append(v)
        else:
            v = dd.add(when, fmt, n)
            dates.append(v)
            if n == 0:
                empties.append(v)
    check(len(dates) > 2000 and empties, "the generator made too few partitions")
    junk = ["test", "unknown", "2019-02-30", "latest", "20191301", "tmp"]
    for j in junk:
        d = os.path.join(root, "ds=" + j)
        os.makedirs(d, exist_ok=True)
        write_rows(os.path.join(d, "000000_0"), [(1, 0, "junk")])
    h.raw("CREATE EXTERNAL TABLE dd (t BIGINT, k INT, s STRING) PARTITIONED BY (ds STRING)"
          " STORED AS TEXTFILE LOCATION '%s'" % root, "MSCK REPAIR TABLE dd")
    props = h.rows("SHOW TBLPROPERTIES dd ('hivelite.incremental.field')")
    eq(props, [{"prpt_value": "ds"}], "(c) MSCK set the text-date field")
    jw = junk_warning("non_date_partitions_skipped", "ds", "dates", junk)
    total = len(dates) + len(junk)

    def model(values):
        rows = [r for v in values for r in dd.parts[v]["rows"]]
        return rows, {"t": model_col([r[0] for r in rows], "int"),
                      "k": model_col([r[1] for r in rows], "int"),
                      "s": model_col([r[2] for r in rows], "str")}

    cols, s, w, cp, _ = h.profile("PROFILE TABLE dd INCREMENTAL")
    rows, want = model(dates)
    newest = dd.newest_first(dates)[0]
    eq((s["partitions_read"] + s["partitions_reused"], s["rows_read"], s["partitions_total"]),
       (len(dates), len(rows), total), "(c) first scan: every date partition")
    eq(w, [jw], "(c) first scan: junk named")
    eq(cp, {"name": "default", "field": "ds", "kind": "date", "value": newest, "previous": None},
       "(c) first scan: checkpoint")
    check_col(cols["t"], want["t"], "(c) first scan: t")
    check_col(cols["k"], want["k"], "(c) first scan: k")
    check_col(cols["s"], want["s"], "(c) first scan: s")

    # 60 new days after the newest (its day first: hours after its hour),
    # holes, empty days, then an empty newest partition
    last = EPOCH + datetime.timedelta(seconds=dd.parts[newest]["t"])
    new = []
    fmts = [FORMATS[2], FORMATS[0], FORMATS[3], FORMATS[1], FORMATS[5]]
    when = last + datetime.timedelta(hours=1)
    if last.hour < 23:
        new.append(dd.add(datetime.datetime(last.year, last.month, last.day, 23), "%Y%m%d%H", 2))
    day0 = datetime.datetime(last.year, last.month, last.day) + datetime.timedelta(days=1)
    for i in range(60):
        when = day0 + datetime.timedelta(days=i)
        if i % 11 == 5:
            continue  # a hole
        name, fmt, hourly = fmts[i % len(fmts)]
        if hourly:
            when += datetime.timedelta(hours=6)
        new.append(dd.add(when, fmt, 0 if i % 13 == 7 else rng.randint(1, 4)))
    newest_new = dd.add(day0 + datetime.timedelta(days=60), "%Y%m%d", 0)  # empty
    new.append(newest_new)
    check(len(new) >= 55, "new days")
    # late rows in old partitions: files dropped in (the metastore learns of
    # them by ANALYZE ... NOSCAN), an INSERT INTO, and a back-filled hole
    old_full = [v for v in dates if dd.parts[v]["rows"]]
    late = rng.sample(old_full[:-50], 5)
    for v in late[:4]:
        p = dd.parts[v]
        extra = [dd.row(p["t"], 100 + k) for k in range(3)]
        write_rows(os.path.join(p["dir"], "000001_0"), extra)
        p["rows"] = p["rows"] + extra
    ins = late[4]
    ins_row = (dd.parts[ins]["t"], 200, "inserted")
    hole = holes[len(holes) // 2]
    backfill = dd.add(hole, "%Y%m%d", 2)
    new_junk = "test2"
    d = os.path.join(root, "ds=" + new_junk)
    os.makedirs(d)
    write_rows(os.path.join(d, "000000_0"), [(1, 0, "junk")])
    junk.append(new_junk)
    h.raw("MSCK REPAIR TABLE dd")
    stmts = ["ANALYZE TABLE dd PARTITION (ds='%s') COMPUTE STATISTICS NOSCAN" % v for v in late[:4]]
    stmts.append("INSERT INTO dd PARTITION (ds='%s') VALUES (%d, %d, '%s')"
                 % ((ins,) + ins_row))
    h.raw(*stmts)
    dd.parts[ins]["rows"] = dd.parts[ins]["rows"] + [ins_row]
    total = len(dates) + len(new) + 1 + len(junk)
    jw = junk_warning("non_date_partitions_skipped", "ds", "dates", junk)
    late_names = [dd.parts[v]["name"] for v in late] + [dd.parts[backfill]["name"]]

    blocked = [dd.parts[v]["dir"] for v in dd.newest_first(dates)[:3] + dates[:2]
               if v not in late]
    with Blocked(blocked):
        cols, s, w, cp, err = h.profile("PROFILE TABLE dd INCREMENTAL")
    rows, want = model(new)
    eq((s["partitions_read"] + s["partitions_reused"], s["rows_read"], s["partitions_total"]),
       (len(new), len(rows), total), "(c) after new days: exactly the new partitions")
    eq(w, [jw, late_warning("default", late_names, False)], "(c) after new days: warnings")
    eq(cp, {"name": "default", "field": "ds", "kind": "date", "value": newest_new,
            "previous": newest}, "(c) after new days: checkpoint")
    for c in ("t", "k", "s"):
        check_col(cols[c], want[c], "(c) new days: " + c)
    check("WARNING: late_rows_in_scanned_partitions: 6 partitions" in err,
          "(c) the late warning on stderr: %r" % err)

    lates = late + [backfill]
    cols, s, w, cp, _ = h.profile("PROFILE TABLE dd INCREMENTAL WITH LATE")
    rows, want = model(lates)
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"]), (6, 0, len(rows)),
       "(c) WITH LATE reads the late partitions whole")
    eq(w, [jw, late_warning("default", late_names, True)], "(c) WITH LATE: warnings")
    eq((cp["value"], cp["previous"]), (newest_new, newest_new), "(c) WITH LATE: checkpoint")
    for c in ("t", "k", "s"):
        check_col(cols[c], want[c], "(c) WITH LATE: " + c)

    _, s, w, cp, _ = h.profile("PROFILE TABLE dd INCREMENTAL")
    eq((s["partitions_read"], s["partitions_reused"], s["rows_read"], w), (0, 0, 0, [jw]),
       "(c) afterwards: nothing new, nothing late")

    dates_all = dates + new + [backfill]
    order = dd.newest_first(dates_all)

    # ---- (d) SELECT * ... LIMIT 10: newest partitions first
    want_rows, touched = [], 0
    for v in order:
        if len(want_rows) >= 10:
            break
        if dd.parts[v]["rows"]:
            touched += 1
        for r in dd.parts[v]["rows"]:
            if len(want_rows) < 10:
                want_rows.append({"t": r[0], "k": r[1], "s": r[2], "ds": v})
    check(not dd.parts[order[0]]["rows"], "the newest partition is empty")
    for threads in (1, 2):
        got = h.rows("SET hivelite.threads=%d" % threads, "SELECT * FROM dd LIMIT 10")
        eq(got, want_rows, "(d) SELECT * LIMIT 10, %d thread(s)" % threads)
        out, _ = h.raw("SET hivelite.threads=%d" % threads,
                       "EXPLAIN ANALYZE SELECT * FROM dd LIMIT 10", fmt="csv")
        m = re.search(r"actual: partitions read (\d+) of (\d+)", out)
        check(m, "(d) EXPLAIN ANALYZE has no partitions line: %r" % out)
        eq((int(m.group(1)), int(m.group(2))), (touched, total),
           "(d) EXPLAIN ANALYZE partitions read, %d thread(s)" % threads)

    # ---- (e) PROFILE ... LIMIT n: exactly n rows, newest partitions first
    def newest_rows(n, pred):
        """The rows a LIMIT n takes, the units it passes, whether it cuts one."""
        taken, units, cut = [], 0, False
        for v in order + junk_order:
            if len(taken) >= n:
                break
            units += 1
            rows = [r for r in parts_rows(v) if pred(r)]
            cut = len(rows) > n - len(taken)
            taken += rows[:n - len(taken)]
        return taken, units, cut

    junk_order = sorted(junk, key=lambda v: ("ds=" + v).encode())

    def parts_rows(v):
        return dd.parts[v]["rows"] if v in dd.parts else [(1, 0, "junk")]

    for n, where, pred in ((1000, "", lambda r: True), (999, "", lambda r: True),
                           (37, " WHERE k = 0", lambda r: r[1] == 0),
                           (10 ** 6, "", lambda r: True)):
        taken, units, cut = newest_rows(n, pred)
        check(len(taken) == n or n == 10 ** 6, "(e) model")
        cols, s, _, _, _ = h.profile("PROFILE TABLE dd%s LIMIT %d" % (where, n))
        eq((s["rows_read"], cols["t"]["count"]), (len(taken), len(taken)),
           "(e) PROFILE%s LIMIT %d: rows" % (where, n))
        # every whole unit's stored state is merged, the cut one is read;
        # a WHERE reads every unit it passes
        read = units if where else (1 if cut else 0) + (len(junk) if n == 10 ** 6 else 0)
        eq((s["partitions_read"], s["partitions_reused"]), (read, units - read),
           "(e) PROFILE%s LIMIT %d: partitions read, reused" % (where, n))
        check_col(cols["t"], model_col([r[0] for r in taken], "int"),
                  "(e) LIMIT %d: t" % n)
        check_col(cols["k"], model_col([r[1] for r in taken], "int"), "(e) LIMIT %d: k" % n)
        check_col(cols["s"], model_col([r[2] for r in taken], "str"), "(e) LIMIT %d: s" % n)

    # ---- (f) the CLI prints what the SQL prints
    def cli(*args, wh=None):
        p = subprocess.run([hl_exe, "profile", "-w", wh or h.wh] + list(args),
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise Failure("hivelite profile %r failed: %s" % (args, p.stderr))
        return p.stdout, p.stderr

    h.raw("PROFILE TABLE dd")  # every state stored: the next ones reuse them all
    for sql, args in (("PROFILE TABLE default.dd", []),
                      ("PROFILE TABLE default.dd LIMIT 500", ["--limit", "500"]),
                      ("PROFILE TABLE default.dd WHERE k > 1", ["--where", "k > 1"])):
        want_out = h.raw(sql)
        got_out = cli("default.dd", "--format", "json", *args)
        eq(got_out, want_out, "(f) hivelite profile %s" % " ".join(args))
        check(want_out[0].count("\n") == 5, "(f) three data columns, the key and a summary: %r" % want_out[0])
    # an incremental scan moves its checkpoint: one copy of the warehouse
    # each, both after a new day and a late file
    extra = dd.add(day0 + datetime.timedelta(days=61), "%Y%m%d", 3)
    p = dd.parts[late[0]]
    write_rows(os.path.join(p["dir"], "000002_0"), [dd.row(p["t"], 300)])
    h.raw("MSCK REPAIR TABLE dd",
          "ANALYZE TABLE dd PARTITION (ds='%s') COMPUTE STATISTICS NOSCAN" % late[0])
    copy = os.path.join(tmp, "wh-copy")
    shutil.copytree(h.wh, copy)
    want_out = h.raw("PROFILE TABLE default.dd INCREMENTAL AS 'default' WITH LATE")
    got_out = cli("default.dd", "--incremental", "default", "--with-late", "--format", "json",
                  wh=copy)
    eq(got_out, want_out, "(f) hivelite profile --incremental default --with-late")
    check("late_rows_in_scanned_partitions: 1 partition" in want_out[1],
          "(f) the late file is reported: %r" % want_out[1])
    check("\"value\":\"%s\"" % extra in want_out[0], "(f) the checkpoint is the new day")


# ---- (g): Parquet partitions read by PROFILE's worker threads ---------------------
def test_parquet_threads(h, data):
    # one Parquet file written by hivelite, copied into 2,000 partitions
    h.raw("CREATE TABLE pq1 (x INT, y STRING) STORED AS PARQUET",
          "INSERT INTO pq1 VALUES (1, 'a'), (2, 'b'), (3, NULL), (-4, '')")
    src = os.path.join(h.wh, "pq1")
    files = [f for f in os.listdir(src) if not f.startswith((".", "_"))]
    eq(len(files), 1, "(g) one Parquet file")
    root = os.path.join(data, "pq")
    for p in range(2000):
        os.makedirs(os.path.join(root, "p=%d" % p))
        shutil.copyfile(os.path.join(src, files[0]), os.path.join(root, "p=%d" % p, "f.parquet"))
    h.raw("CREATE EXTERNAL TABLE pq (x INT, y STRING) PARTITIONED BY (p INT) STORED AS PARQUET"
          " LOCATION '%s'" % root, "MSCK REPAIR TABLE pq")
    want_x = model_col([1, 2, 3, -4] * 2000, "int")
    want_y = model_col(["a", "b", None, ""] * 2000, "str")
    for i in range(5):  # WHERE true: every partition read, none stored
        cols, s, _, _, _ = h.profile("PROFILE TABLE pq WHERE true", "SET hivelite.threads=2")
        eq((s["partitions_read"], s["rows_read"]), (2000, 8000), "(g) run %d: read" % i)
        check_col(cols["x"], want_x, "(g) run %d: x" % i)
        check_col(cols["y"], want_y, "(g) run %d: y" % i)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = ap.parse_args()
    exe = os.path.abspath(a.hivelite)
    tmp = tempfile.mkdtemp(prefix="hl-profile-")
    try:
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        h = Hive(exe, os.path.join(tmp, "wh"))
        rng = random.Random(16)
        test_batches(h, data, rng)
        test_dates(h, data, rng, exe, tmp)
        test_parquet_threads(h, data)
    except Failure as e:
        print("FAIL: %s" % e)
        if a.keep:
            print("kept %s" % tmp)
        return 1
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
