#!/bin/sh
# write_partitioned.sh HIVELITE [ROWS] [THREADS...] -- the write benchmark of
# issues 5 and 18: a lineitem-like table of ROWS rows (default 20,000,000)
# written as Parquet partitioned by day (2,500 partitions), from a text table
# and from a Parquet table, by hivelite (INSERT OVERWRITE ... SELECT with a
# dynamic partition) and by DuckDB (COPY ... TO (FORMAT PARQUET,
# PARTITION_BY)), at each thread count (default: 1 2; hivelite.threads and
# DuckDB's SET threads).  Both engines read the same input files: the
# Ctrl-A delimited text, and the Parquet files hivelite wrote for the
# Parquet table.  For every case the two engines run alternately, each in a
# fresh process, and the script prints wall-clock seconds and peak memory
# (/usr/bin/time -f %M) of each and their ratios.  Needs python3, bc,
# /usr/bin/time and node with @duckdb/node-api (bench/package.json: npm
# install runs when node_modules is missing).  It writes ROWS * ~50 bytes of
# input and about as much output under ${TMPDIR:-/tmp}.
set -e
hl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rows=${2:-20000000}
shift
[ $# -gt 0 ] && shift
threads=${*:-1 2}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$here/node_modules/@duckdb/node-api" ] || (cd "$here" && npm install --no-audit --no-fund >/dev/null)
work=$(mktemp -d "${TMPDIR:-/tmp}/hl-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work/lineitem.txt" "$rows" <<'PY'
import sys
path, rows = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    for i in range(rows):
        f.write("%d\x01%d\x01%d\x01%.2f\x01%.2f\x01%s\x01comment %d\x01%d\n" % (
            i, i % 200000, i % 7, (i % 10000) / 3.0, (i % 11) / 100.0, "AF"[i % 2], i % 1000,
            (i * 7919) % 2500))
PY
wh="$work/wh"
cols="orderkey BIGINT, partkey BIGINT, linenumber INT, price DOUBLE, discount DOUBLE, flag STRING,
  comment STRING"
"$hl" -w "$wh" -c "CREATE TABLE src ($cols, dayn INT);
  LOAD DATA LOCAL INPATH '$work/lineitem.txt' INTO TABLE src;
  CREATE TABLE src_pq ($cols, dayn INT) STORED AS PARQUET;
  INSERT INTO src_pq SELECT * FROM src;
  CREATE TABLE li ($cols) PARTITIONED BY (shipdate DATE) STORED AS PARQUET" >/dev/null
pq_dir="$wh/src_pq"
sel="orderkey, partkey, linenumber, price, discount, flag, comment"
soh=$(printf '\001')
csv="read_csv('$work/lineitem.txt', delim='$soh', header=false, columns={'orderkey':'BIGINT',
  'partkey':'BIGINT','linenumber':'INT','price':'DOUBLE','discount':'DOUBLE','flag':'VARCHAR',
  'comment':'VARCHAR','dayn':'INT'})"
# DuckDB's side, run from bench/ so that node finds @duckdb/node-api
duck_js="import { DuckDBInstance } from '@duckdb/node-api';
const c = await (await DuckDBInstance.create(':memory:')).connect();
await c.run('SET threads=' + process.env.DUCK_THREADS);
await c.run('COPY (SELECT $sel, DATE \\'1992-01-01\\' + dayn AS shipdate FROM ' +
  process.env.DUCK_FROM + ') TO \\'' + process.env.DUCK_TO +
  '\\' (FORMAT PARQUET, PARTITION_BY (shipdate))');"
# run NAME CMD...: wall seconds and peak KB of CMD into $secs and $kb
run() {
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o "$work/mem" "$@" >/dev/null
  t1=$(date +%s.%N)
  secs=$(echo "$t1 - $t0" | bc)
  kb=$(tail -1 "$work/mem")
}

printf '| source | threads | hivelite s | hivelite MB | DuckDB s | DuckDB MB | time ratio | memory ratio |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for n in $threads; do
  for source in text parquet; do
    if [ $source = text ]; then table=src from="$csv"; else table=src_pq from="read_parquet('$pq_dir/*.parquet')"; fi
    run "$hl" -w "$wh" -c "SET hivelite.threads=$n; SET hive.exec.max.dynamic.partitions=5000;
      INSERT OVERWRITE TABLE li PARTITION (shipdate)
      SELECT $sel, date_add(DATE '1992-01-01', dayn) FROM $table"
    hs=$secs hk=$kb
    rm -rf "$work/duck"
    run env -C "$here" DUCK_THREADS="$n" DUCK_FROM="$from" DUCK_TO="$work/duck" \
      node --input-type=module -e "$duck_js"
    ds=$secs dk=$kb
    printf '| %s | %d | %.2f | %d | %.2f | %d | %.2f | %.2f |\n' $source "$n" "$hs" $((hk / 1024)) \
      "$ds" $((dk / 1024)) "$(echo "$hs / $ds" | bc -l)" "$(echo "$hk / $dk" | bc -l)"
  done
done
files=$(find "$wh/li" -type f -name '*.parquet' | wc -l)
parts=$(find "$wh/li" -mindepth 1 -maxdepth 1 -type d -name 'shipdate=*' | wc -l)
echo "hivelite's last write: $files files in $parts partitions"
