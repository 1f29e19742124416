#!/bin/sh
# bench/partitions_big.sh -- a table of a million partitions (part 4 of
# bench/partitions.sh; a script, not a test).  BIG partitions (default
# 1,000,000) as 1,000 days x BIG/1,000 hours of one one-line text file each,
# written by tests/partitions/part_tree.py (the tree partitions.scale checks),
# registered by MSCK REPAIR; then each statement in a fresh process, best of
# RUNS (default 3) for time, peak RSS of that run (/usr/bin/time -f %M), and
# DuckDB (bench/node_modules) globbing the same files with
# hive_partitioning where it has an equivalent (one run each: it lists every
# file; the pin only, unless DUCK_ALL=1).  BIG_TREE=DIR reuses a tree
# written before (it takes minutes and ~8 GB of inodes and blocks).
# Usage: bench/partitions_big.sh [path/to/hivelite]
set -e
HL=${1:-build/hivelite}
HERE=$(cd "$(dirname "$0")" && pwd)
BIG=${BIG:-1000000}
RUNS=${RUNS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
W=$TMP/wh
N_HR=$(( BIG / 1000 ))
if [ -n "$BIG_TREE" ]; then
  ROOT=$BIG_TREE
else
  ROOT=$TMP/t
  s=$(date +%s)
  /usr/bin/python3 "$HERE/../tests/partitions/part_tree.py" "$ROOT" 1000 "$N_HR" --files
  echo "tree of $BIG partitions written in $(( $(date +%s) - s )) s"
fi
D1=2021-05-05
D2=2021-05-06

# "ms peakMB" of the best of RUNS runs of "$@" (output discarded)
measure() {
  b=999999999; m=0
  for r in $(seq 1 "$RUNS"); do
    s=$(date +%s%N)
    /usr/bin/time -f %M -o "$TMP/mem" "$@" >/dev/null
    e=$(date +%s%N)
    v=$(( (e - s) / 1000 ))
    if [ $v -lt $b ]; then b=$v; m=$(cat "$TMP/mem"); fi
  done
  echo "$(( b / 1000 )).$(( b % 1000 / 100 )) ms, $(( m / 1024 )) MB"
}
hl() { "$HL" -w "$W" --format csv -c "$1"; }
hlm() { measure "$HL" -w "$W" --format csv -c "$1"; }

# the machine's load, before and after: the times are wall-clock
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$HL" -w "$W" -c "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) LOCATION '$ROOT';" >/dev/null
s=$(date +%s%N)
/usr/bin/time -f "%M %U %S" -o "$TMP/mem" "$HL" -w "$W" --format csv -c "MSCK REPAIR TABLE t;" >/dev/null
e=$(date +%s%N)
set -- $(cat "$TMP/mem")
echo "| $BIG partitions | hivelite | DuckDB |"
echo "| --- | --- | --- |"
echo "| MSCK REPAIR TABLE (adds all) | $(( (e - s) / 1000000 )) ms, $(( $1 / 1024 )) MB (CPU $2 s user, $3 s sys) | |"
echo "| partitions registered | $("$HL" -w "$W" --format csv --no-header -c "SHOW PARTITIONS t;" | wc -l) | |"
RE_MSCK=$(RUNS=1 measure "$HL" -w "$W" --format csv -c "MSCK TABLE t;")
echo "| MSCK TABLE (nothing to add: walk, list, stat each) | $RE_MSCK | |"
echo "| start-up (SELECT 1) | $(hlm "SELECT 1;") | |"
PIN="SELECT count(*) FROM t WHERE dt='$D1' AND hr=5"
DUCK=
if [ -d "$HERE/node_modules/@duckdb/node-api" ]; then DUCK=1; fi
# DuckDB lists every file for every query (minutes at a million): one run
# each, and beyond the pin only with DUCK_ALL=1
duck() {
  if [ -z "$DUCK" ]; then echo "not installed (cd bench && npm install)"
  elif [ "$2" != pin ] && [ -z "$DUCK_ALL" ]; then echo "(DUCK_ALL=1)"
  else RUNS=1 measure node "$HERE/duckdb_pin.mjs" "$ROOT" "$1"; fi
}
echo "| pin \`dt='$D1' AND hr=5\` (1 file) | $(hlm "$PIN;") | $(duck "dt='$D1' AND hr=5" pin) |"
echo "| plan of the pin (EXPLAIN) | $(hlm "EXPLAIN $PIN;") | |"
echo "| pin on the INT key only \`hr=5\` (1,000 files, through the value index) | $(hlm "SELECT count(*) FROM t WHERE hr=5;") | $(duck "hr=5") |"
echo "| range \`dt BETWEEN '$D1' AND '$D2'\` (2,000 files) | $(hlm "SELECT count(*) FROM t WHERE dt BETWEEN '$D1' AND '$D2';") | $(duck "dt BETWEEN '$D1' AND '$D2'") |"
echo "| SHOW PARTITIONS t LIMIT 10 | $(hlm "SHOW PARTITIONS t LIMIT 10;") | |"
echo "| SHOW PARTITIONS t PARTITION (dt='$D1') LIMIT 10 | $(hlm "SHOW PARTITIONS t PARTITION (dt='$D1') LIMIT 10;") | |"
echo "| DROP PARTITION of one | $(RUNS=1 hlm "ALTER TABLE t DROP PARTITION (dt='$D1', hr=7);") | |"
echo "| ADD PARTITION of one | $(RUNS=1 hlm "ALTER TABLE t ADD PARTITION (dt='$D1', hr=7);") | |"
hl "ANALYZE TABLE t PARTITION (dt='$D1') COMPUTE STATISTICS;" >/dev/null
echo "| count(*) of a day from statistics (after ANALYZE of its 1,000) | $(hlm "SELECT count(*) FROM t WHERE dt='$D1';") | $(duck "dt='$D1'") |"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "answers: hivelite pin $(hl "$PIN;" | tail -1), day $(hl "SELECT count(*) FROM t WHERE dt='$D1';" | tail -1), range $(hl "SELECT count(*) FROM t WHERE dt BETWEEN '$D1' AND '$D2';" | tail -1)"
exit 0
