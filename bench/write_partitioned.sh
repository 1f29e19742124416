#!/bin/sh
# write_partitioned.sh HIVELITE [ROWS] -- the write benchmark of issue 5:
# a lineitem-like table of ROWS rows (default 20,000,000) written as Parquet
# partitioned by day (2,500 partitions) by hivelite (INSERT ... SELECT with
# dynamic partitions) and by DuckDB (COPY ... (FORMAT PARQUET, PARTITION_BY))
# from the same Ctrl-A delimited input.  Prints the wall-clock seconds of
# each.  Needs python3 and node with @duckdb/node-api (tests/interop).
# Run it on an otherwise idle machine; it writes ROWS * ~50 bytes of input
# and about as much output under ${TMPDIR:-/tmp}.
set -e
hl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rows=${2:-20000000}
here=$(cd "$(dirname "$0")" && pwd)
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
"$hl" -w "$wh" -c "CREATE TABLE src (orderkey BIGINT, partkey BIGINT, linenumber INT, price DOUBLE,
  discount DOUBLE, flag STRING, comment STRING, dayn INT);
  LOAD DATA LOCAL INPATH '$work/lineitem.txt' INTO TABLE src;
  CREATE TABLE li (orderkey BIGINT, partkey BIGINT, linenumber INT, price DOUBLE, discount DOUBLE,
  flag STRING, comment STRING) PARTITIONED BY (shipdate DATE) STORED AS PARQUET" >/dev/null
t0=$(date +%s.%N)
"$hl" -w "$wh" -c "SET hive.exec.max.dynamic.partitions=5000; INSERT INTO li PARTITION (shipdate)
  SELECT orderkey, partkey, linenumber, price, discount, flag, comment,
  date_add(DATE '1992-01-01', dayn) FROM src"
t1=$(date +%s.%N)
echo "hivelite: $(echo "$t1 - $t0" | bc) s"
cd "$here/../tests/interop"
node -e "
import('@duckdb/node-api').then(async ({DuckDBInstance}) => {
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  const t0 = Date.now();
  await c.run(\"COPY (SELECT orderkey, partkey, linenumber, price, discount, flag, comment, \" +
    \"DATE '1992-01-01' + dayn AS shipdate FROM read_csv('$work/lineitem.txt', delim='\\x01', \" +
    \"header=false, columns={'orderkey':'BIGINT','partkey':'BIGINT','linenumber':'INT', \" +
    \"'price':'DOUBLE','discount':'DOUBLE','flag':'VARCHAR','comment':'VARCHAR','dayn':'INT'})) \" +
    \"TO '$work/duck' (FORMAT PARQUET, PARTITION_BY (shipdate))\");
  console.log('duckdb: ' + (Date.now() - t0) / 1000 + ' s');
});"
