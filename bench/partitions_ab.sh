#!/bin/sh
# bench/partitions_ab.sh -- two hivelite builds side by side on one big
# partitioned table (a script, not a test): the statements of
# partitions_big.sh that do not scan much (start-up, a pin, its EXPLAIN,
# SHOW PARTITIONS ... LIMIT 10, a range of two days, DROP and ADD of one
# partition), each in a fresh process, the two sides alternating so that a
# shared machine's load falls on both alike; best of RUNS (default 3) by
# wall time, with that run's CPU time (user + system, from wait4) and peak
# RSS.  Each side has its own warehouse holding table t (dt STRING, hr INT)
# as partitions_big.sh registers it (copy one warehouse: a side's binary
# migrates its copy at the first open).  D1 and D2 (default 2021-05-05 and
# 2021-05-06) are the dt values the statements use: s005 and s006 for a
# tree written with part_tree.py --text.  MSCK_ROOT=DIR (the table's
# location, shared by both sides) adds MSCK REPAIR TABLE of one new
# directory, made before each round (best of MSCK_RUNS, default 1: each
# walks the whole tree).
# Usage: bench/partitions_ab.sh OLD_HIVELITE OLD_WAREHOUSE NEW_HIVELITE NEW_WAREHOUSE
set -e
[ $# -eq 4 ] || { echo "usage: $0 OLD_HIVELITE OLD_WH NEW_HIVELITE NEW_WH" >&2; exit 2; }
RUNS=${RUNS:-3}
D1=${D1:-2021-05-05}
D2=${D2:-2021-05-06}

# "wall_us cpu_us maxrss_kb" of one run of SIDE (1 old, 2 new) with SQL
one() {
  if [ "$1" = 1 ]; then hl=$OLD_HL wh=$OLD_WH; else hl=$NEW_HL wh=$NEW_WH; fi
  /usr/bin/python3 -c '
import os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = p.stderr.read()
_, status, ru = os.wait4(p.pid, 0)
wall = time.perf_counter() - t
if status != 0:
    sys.exit("failed: %r: %s" % (sys.argv[1:], err.decode()))
print(int(wall * 1e6), int((ru.ru_utime + ru.ru_stime) * 1e6), ru.ru_maxrss)
' "$hl" -w "$wh" --format csv -c "$2"
}
fmt() { # wall_us cpu_us rss_kb
  echo "$(( $1 / 1000 )).$(( $1 % 1000 / 100 )) ms (CPU $(( $2 / 1000 )).$(( $2 % 1000 / 100 )) ms), $(( $3 / 1024 )) MB"
}
# best of RUNS of each SQL ($2, and $3 after it in the same round when
# given: DROP then ADD, so that each run has work); prints rows for both
best() {
  label=$1 sql=$2 label2=$3 sql2=$4
  b1="999999999999 0 0" b2=$b1 c1=$b1 c2=$b1
  for r in $(seq 1 "$RUNS"); do
    for side in 1 2; do
      x=$(one $side "$sql")
      [ "${x%% *}" -lt "${b1%% *}" ] && [ $side = 1 ] && b1=$x
      [ "${x%% *}" -lt "${b2%% *}" ] && [ $side = 2 ] && b2=$x
      if [ -n "$sql2" ]; then
        x=$(one $side "$sql2")
        [ "${x%% *}" -lt "${c1%% *}" ] && [ $side = 1 ] && c1=$x
        [ "${x%% *}" -lt "${c2%% *}" ] && [ $side = 2 ] && c2=$x
      fi
    done
  done
  echo "| $label | $(fmt $b1) | $(fmt $b2) |"
  if [ -n "$sql2" ]; then echo "| $label2 | $(fmt $c1) | $(fmt $c2) |"; fi
}
OLD_HL=$1 OLD_WH=$2 NEW_HL=$3 NEW_WH=$4
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| partitions | old | new |"
echo "| --- | --- | --- |"
PIN="SELECT count(*) FROM t WHERE dt='$D1' AND hr=5;"
best "start-up (\`SELECT 1\`)" "SELECT 1;"
best "pin \`dt='$D1' AND hr=5\`" "$PIN"
best "EXPLAIN of the pin" "EXPLAIN $PIN"
best "SHOW PARTITIONS t LIMIT 10" "SHOW PARTITIONS t LIMIT 10;"
best "SHOW PARTITIONS t PARTITION (dt='$D1') LIMIT 10" "SHOW PARTITIONS t PARTITION (dt='$D1') LIMIT 10;"
best "range \`dt BETWEEN '$D1' AND '$D2'\`" "SELECT count(*) FROM t WHERE dt BETWEEN '$D1' AND '$D2';"
best "DROP PARTITION of one" "ALTER TABLE t DROP PARTITION (dt='$D1', hr=7);" \
  "ADD PARTITION of one" "ALTER TABLE t ADD PARTITION (dt='$D1', hr=7);"
if [ -n "$MSCK_ROOT" ]; then
  # a table of exactly the default cap (1,000,000) must be let grow
  MSCK="SET hivelite.max_partitions_per_table=2000000; MSCK REPAIR TABLE t;"
  b1="999999999999 0 0" b2=$b1
  for r in $(seq 1 "${MSCK_RUNS:-1}"); do
    mkdir -p "$MSCK_ROOT/dt=$D1/hr=$((100000 + r))"
    x=$(one 1 "$MSCK")
    [ "${x%% *}" -lt "${b1%% *}" ] && b1=$x
    x=$(one 2 "$MSCK")
    [ "${x%% *}" -lt "${b2%% *}" ] && b2=$x
  done
  echo "| MSCK REPAIR TABLE t (one new directory) | $(fmt $b1) | $(fmt $b2) |"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
