#!/usr/bin/env python3
"""typed_pins.py -- pins on INT and DATE partition keys (issue 18): the
planner asks the catalog's value index for the canonical text of the value
and for the ranges where other spellings sort (src/plan/pin.c), so a pin
must still find partitions stored as '05' or '2021-5-5' (a Hive Metastore
client may register them; Hive compares the typed values: '05' and '5' are
both the INT 5, '2021-5-5' is DATE '2021-05-05').  The stored values are
respelled directly in the metastore file (python3's sqlite3), the way such
a client would have left them; every answer is Hive's.

Usage: python3 tests/partitions/typed_pins.py --hivelite PATH [--keep]
Standard library only.
"""
import argparse
import csv
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile


class Failure(Exception):
    pass


def eq(got, want, what):
    if got != want:
        raise Failure("%s\n  got:  %r\n  want: %r" % (what, got, want))


def rows(hl, wh, sql):
    p = subprocess.run([hl, "-w", wh, "--format", "csv", "--no-header", "-c", sql],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise Failure("%s failed: %s" % (sql, p.stderr))
    return [",".join(r) for r in csv.reader(io.StringIO(p.stdout))]


# v, hr, d as written; then the stored text of some is respelled
PARTS = [(1, 5, "2021-05-05"), (2, 6, "2021-05-06"), (3, 50, "2021-05-15"),
         (4, 7, "2021-01-07"), (5, 8, "2021-01-08"), (6, 0, "2021-01-09"),
         (7, 55, "2021-01-10")]
RESPELL = {4: ("05", "2021-5-5"), 5: ("5", "2021-05-5"), 6: ("00", "2021-5-05")}


def respell(db):
    c = sqlite3.connect(db)
    for v, (hr, d) in RESPELL.items():
        (pid,) = c.execute("SELECT p.id FROM partitions p JOIN part_values w ON w.part_id = p.id "
                           "WHERE w.idx = 0 AND w.value = ?", (str(PARTS[v - 1][1]),)).fetchone()
        vals = b"\x01" + hr.encode() + b"\x00\x01" + d.encode() + b"\x00"
        c.execute("UPDATE partitions SET vals = ?, name = ? WHERE id = ?",
                  (vals, "hr=%s/d=%s" % (hr, d), pid))
        c.execute("UPDATE part_values SET value = ? WHERE part_id = ? AND idx = 0", (hr, pid))
        c.execute("UPDATE part_values SET value = ? WHERE part_id = ? AND idx = 1", (d, pid))
    c.commit()
    c.close()


def check(hl, tmp):
    wh = os.path.join(tmp, "w")
    rows(hl, wh, "CREATE TABLE t (v INT) PARTITIONED BY (hr INT, d DATE);")
    rows(hl, wh, " ".join("INSERT INTO t PARTITION (hr=%d, d='%s') VALUES (%d);" % (h, d, v)
                          for v, h, d in PARTS))
    q = "SELECT v, hr, d FROM t WHERE %s ORDER BY v;"
    # canonical only: the exact probe
    eq(rows(hl, wh, q % "hr = 5"), ["1,5,2021-05-05"], "canonical INT pin")
    eq(rows(hl, wh, q % "d = DATE '2021-05-06'"), ["2,6,2021-05-06"], "canonical DATE pin")
    respell(os.path.join(wh, ".hivelite", "metastore.db"))
    eq(rows(hl, wh, "SHOW PARTITIONS t;"),
       ["hr=00/d=2021-5-05", "hr=05/d=2021-5-5", "hr=5/d=2021-05-05", "hr=5/d=2021-05-5",
        "hr=50/d=2021-05-15", "hr=55/d=2021-01-10", "hr=6/d=2021-05-06"], "respelled")
    # '05' and '5' are both 5; 50 and 55 (sorting right after '5') are not
    eq(rows(hl, wh, q % "hr = 5"), ["1,5,2021-05-05", "4,5,2021-05-05", "5,5,2021-05-05"],
       "INT pin over '05' and '5'")
    eq(rows(hl, wh, q % "5 = hr"), ["1,5,2021-05-05", "4,5,2021-05-05", "5,5,2021-05-05"],
       "INT pin, constant first")
    eq(rows(hl, wh, q % "hr = 0"), ["6,0,2021-05-05"], "INT pin over '00'")
    eq(rows(hl, wh, q % "hr = 50"), ["3,50,2021-05-15"], "INT pin of 50")
    eq(rows(hl, wh, q % "hr = 9"), [], "INT pin of nothing")
    eq(rows(hl, wh, q % "d = DATE '2021-05-05'"),
       ["1,5,2021-05-05", "4,5,2021-05-05", "5,5,2021-05-05", "6,0,2021-05-05"],
       "DATE pin over '2021-5-5', '2021-05-5', '2021-5-05'")
    eq(rows(hl, wh, q % "hr = 5 AND d = DATE '2021-05-05'"),
       ["1,5,2021-05-05", "4,5,2021-05-05", "5,5,2021-05-05"], "both keys pinned")
    eq(rows(hl, wh, q % "hr = 0 AND d = DATE '2021-05-05'"), ["6,0,2021-05-05"],
       "both keys, respelled both")
    eq(rows(hl, wh, "SELECT count(*) FROM t WHERE hr = 5;"), ["3"], "count of the INT pin")
    eq(rows(hl, wh, "SELECT count(*) FROM t WHERE hr = 5 OR hr = 0;"), ["4"], "no pin: filter")
    # partition specs pin the same way (SHOW PARTITIONS, DROP PARTITION)
    eq(rows(hl, wh, "SHOW PARTITIONS t PARTITION (hr=5);"),
       ["hr=05/d=2021-5-5", "hr=5/d=2021-05-05", "hr=5/d=2021-05-5"], "spec on the INT key")
    eq(rows(hl, wh, "SHOW PARTITIONS t PARTITION (hr=5, d='2021-05-05');"),
       ["hr=05/d=2021-5-5", "hr=5/d=2021-05-05", "hr=5/d=2021-05-5"], "spec on both keys")
    rows(hl, wh, "ALTER TABLE t DROP PARTITION (hr=0);")
    eq(rows(hl, wh, "SHOW PARTITIONS t;"),
       ["hr=05/d=2021-5-5", "hr=5/d=2021-05-05", "hr=5/d=2021-05-5", "hr=50/d=2021-05-15",
        "hr=55/d=2021-01-10", "hr=6/d=2021-05-06"], "DROP of the one stored as '00'")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivelite", required=True)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hl-pins-")
    try:
        check(args.hivelite, tmp)
    except Failure as e:
        print("FAIL " + str(e))
        return 1
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
