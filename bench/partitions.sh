#!/bin/sh
# bench/partitions.sh -- partition-management benchmarks (a script, not a test).
#   1. MSCK REPAIR of 4,096 partitions (64 days x 64 hours), one file each
#   2. a one-partition pin on that table in a fresh process: planning time
#      (EXPLAIN) and the whole process, next to DuckDB globbing the same
#      files with hive_partitioning (bench/node_modules, `npm install` here)
#   3. a projected date table with a ten-year daily range pinned to one day
#   4. a table of BIG partitions (default 1,000,000: 1,000 days x 1,000
#      hours, one one-line file each; BIG=0 skips it): MSCK REPAIR, a pin,
#      SHOW PARTITIONS ... LIMIT 10, a range of two days, DROP and ADD of
#      one partition, count(*) from statistics, each a fresh process with
#      its time and peak memory, next to DuckDB globbing the same files
#      (bench/partitions_big.sh)
# Usage: bench/partitions.sh [path/to/hivelite]   (default build/hivelite)
set -e
HL=${1:-build/hivelite}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
W=$TMP/wh
ms() { date +%s%N; }
mkdir -p "$TMP/t"
i=0
for d in $(seq 1 64); do
  dt=$(printf '2024-%02d-%02d' $(( (d - 1) / 28 + 1 )) $(( (d - 1) % 28 + 1 )))
  for h in $(seq 0 63); do
    mkdir -p "$TMP/t/dt=$dt/hr=$h"
    echo "$dt-$h" > "$TMP/t/dt=$dt/hr=$h/part-0.txt"
  done
done
"$HL" -w "$W" -c "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) LOCATION '$TMP/t';" >/dev/null
"$HL" -w "$W" -c "CREATE EXTERNAL TABLE p (v STRING) PARTITIONED BY (dt STRING) LOCATION '$TMP/p' TBLPROPERTIES ('projection.enabled'='true', 'projection.dt.type'='date', 'projection.dt.range'='2015-01-01,2024-12-31', 'projection.dt.format'='yyyy-MM-dd');" >/dev/null
mkdir -p "$TMP/p/dt=2020-02-29"; echo x > "$TMP/p/dt=2020-02-29/f.txt"

best() { # best of 5 runs of "$@", in ms
  b=999999
  for r in 1 2 3 4 5; do
    s=$(ms); "$@" >/dev/null; e=$(ms)
    v=$(( (e - s) / 1000 )); [ $v -lt $b ] && b=$v
  done
  echo "$(( b / 1000 )).$(( b % 1000 / 100 ))"
}

s=$(ms)
"$HL" -w "$W" --format csv -c "MSCK REPAIR TABLE t;" >/dev/null
e=$(ms)
echo "MSCK REPAIR adding 4,096 partitions: $(( (e - s) / 1000000 )) ms (whole process incl. start-up, --format csv)"
# the same repair printed as a table (the printer no longer pads every line
# to the 100 KB report line): drop the partitions and repair again
"$HL" -w "$W" --format csv -c "ALTER TABLE t DROP PARTITION (hr >= 0);" >/dev/null
s=$(ms)
"$HL" -w "$W" -c "MSCK REPAIR TABLE t;" >/dev/null
e=$(ms)
echo "MSCK REPAIR adding 4,096 partitions, table format: $(( (e - s) / 1000000 )) ms (whole process)"
echo "partitions registered: $("$HL" -w "$W" -c "SHOW PARTITIONS t;" --format csv --no-header | wc -l)"
# the repair alone, without the process: a second MSCK that finds nothing
echo "re-check (MSCK, nothing to add) of 4,096 partitions: $(best "$HL" -w "$W" --format csv -c "MSCK TABLE t;") ms best of 5 (whole process)"
echo "hivelite process start (SELECT 1): $(best "$HL" -w "$W" -c "SELECT 1;") ms best of 5"
echo "hivelite pin, planning only (EXPLAIN, fresh process): $(best "$HL" -w "$W" -c "EXPLAIN SELECT count(*) FROM t WHERE dt='2024-02-10' AND hr=17;") ms best of 5"
echo "hivelite pin, whole process: $(best "$HL" -w "$W" -c "SELECT count(*) FROM t WHERE dt='2024-02-10' AND hr=17;") ms best of 5"
echo "hivelite projected 10-year daily table pinned to one day, whole process: $(best "$HL" -w "$W" -c "SELECT count(*) FROM p WHERE dt='2020-02-29';") ms best of 5"
"$HL" -w "$W" --format csv -c "EXPLAIN SELECT count(*) FROM p WHERE dt='2020-02-29';" | grep partitions
if [ -d "$HERE/node_modules/@duckdb/node-api" ]; then
  echo "duckdb (node, hive_partitioning glob) pin, whole process: $(best node "$HERE/duckdb_pin.mjs" "$TMP/t" "dt='2024-02-10' AND hr=17") ms best of 5"
  node "$HERE/duckdb_pin.mjs" "$TMP/t" "dt='2024-02-10' AND hr=17"
else
  echo "duckdb: not installed (cd bench && npm install)"
fi
[ "${BIG:-1000000}" -gt 0 ] && sh "$HERE/partitions_big.sh" "$HL"
exit 0
