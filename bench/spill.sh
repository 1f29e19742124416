#!/bin/sh
# spill.sh [HIVELITE] -- issue 18's spilling benchmark: under a memory
# limit (BENCH_LIMIT, default 256MB) an ORDER BY of every row of lineitem
# (20,000,000 x BENCH_SCALE rows of bench/gen.mjs), a join of lineitem
# with itself (its build side is all of lineitem, far more than the limit)
# and a GROUP BY of its 20,000,000 distinct (l_orderkey, l_linenumber),
# reduced to a checksum, and a collect_list (DuckDB: list) of l_partkey
# GROUP BY l_orderkey % 50 (few keys, whose lists grow past the limit),
# its sizes summed (BENCH_QUERIES: which of "sort join group collect" to
# run, default "sort join group"),
# by hivelite (hivelite.memory_limit, spilling to WAREHOUSE/.hivelite/tmp)
# and by DuckDB (memory_limit and temp_directory, through bench/duck.mjs),
# alternating, BENCH_RUNS times each (default 1).  Prints per query and
# engine the wall-clock seconds and peak RSS (/usr/bin/time -f %M) of the
# whole process, and checks the answers: the sorted rows byte for byte
# (both written as CSV to files), the join's count and sums exactly.
# Defaults: BENCH_SCALE=1, BENCH_DATA=bench/data/scale-$BENCH_SCALE
# (generated when missing), HIVELITE=build/hivelite, threads: each engine's
# default (all cores).  Writes about 2 x 1.2 GB of sorted CSV and the spill
# files of both engines under ${TMPDIR:-/tmp}.
set -e
here=$(cd "$(dirname "$0")" && pwd)
hl=${1:-${HIVELITE:-$here/../build/hivelite}}
hl=$(cd "$(dirname "$hl")" && pwd)/$(basename "$hl")
scale=${BENCH_SCALE:-1}
data=${BENCH_DATA:-$here/data/scale-$scale}
limit=${BENCH_LIMIT:-256MB}
runs=${BENCH_RUNS:-1}
queries=${BENCH_QUERIES:-sort join group}
threads=$(nproc)
[ -d "$here/node_modules/@duckdb" ] || (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
if [ ! -f "$data/gen.json" ]; then
  echo "generating the data sets at scale $scale into $data"
  node "$here/gen.mjs" "$data" "$scale"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/hl-spill-XXXXXX")
trap 'rm -rf "$work"' EXIT
wh="$work/wh"
"$hl" -w "$wh" -c "CREATE EXTERNAL TABLE lineitem (l_orderkey BIGINT, l_partkey BIGINT,
    l_suppkey BIGINT, l_linenumber INT, l_quantity DECIMAL(15,2),
    l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2),
    l_returnflag STRING, l_linestatus STRING, l_commitdate DATE, l_receiptdate DATE,
    l_shipinstruct STRING, l_shipmode STRING, l_comment STRING)
    PARTITIONED BY (l_shipdate DATE) STORED AS PARQUET LOCATION '$data/lineitem';
    MSCK REPAIR TABLE lineitem;" >/dev/null

# a total order (l_orderkey, l_linenumber is unique), so the two files
# must be equal byte for byte
cols="l_orderkey, l_partkey, l_linenumber, l_quantity, l_extendedprice, l_shipdate, l_comment"
sort_sql="SELECT $cols FROM lineitem ORDER BY l_partkey, l_orderkey, l_linenumber"
join_sql="SELECT count(*) AS n, sum(pk) AS sum_partkey, sum(sk) AS sum_suppkey, max(c) AS max_comment
  FROM (SELECT a.l_partkey AS pk, b.l_suppkey AS sk, b.l_comment AS c
        FROM lineitem a JOIN lineitem b
        ON a.l_orderkey = b.l_orderkey AND a.l_linenumber = b.l_linenumber) q"
# 20M groups (the key is unique), each with a decimal sum, a count and a
# decimal max; the outer query folds them into exact integers both engines
# print alike
group_sql="SELECT count(*) AS n, CAST(sum(q) * 100 AS BIGINT) AS sum_q, sum(c) AS sum_c,
  CAST(sum(mx) * 100 AS BIGINT) AS sum_max, sum(ok * 8 + ln) AS keys
  FROM (SELECT l_orderkey AS ok, l_linenumber AS ln, sum(l_quantity) AS q, count(*) AS c,
        max(l_extendedprice) AS mx FROM lineitem GROUP BY l_orderkey, l_linenumber) t"
# 50 groups of 400,000 values each (some 640 MB of lists in hivelite's
# memory): the lists' lengths and the keys summed, the same in both
collect_sql="SELECT count(*) AS n, sum(size(l)) AS items, sum(g) AS keys
  FROM (SELECT l_orderkey % 50 AS g, collect_list(l_partkey) AS l FROM lineitem GROUP BY l_orderkey % 50) t"
collect_duck="SELECT count(*) AS n, sum(len(l)) AS items, sum(g) AS keys
  FROM (SELECT l_orderkey % 50 AS g, list(l_partkey) AS l FROM lineitem GROUP BY l_orderkey % 50) t"

# same_answer NAME HL_CSV DUCK_JSON: the one row of both equal
same_answer() {
  node -e '
    const fs = require("fs");
    const h = fs.readFileSync(process.argv[1], "utf8").trim().split("\n")[1];
    const d = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).rows[0].join(",");
    if (h !== d) { console.log(process.argv[3] + " answers differ: " + h + " / " + d); process.exit(1); }
    console.log(process.argv[3].padEnd(6) + " same answer " + h);' "$2" "$3" "$1"
}

# hl_run NAME SQL OUT: hivelite, timed; rows to OUT
hl_run() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$hl" -w "$wh" --format csv \
    -c "SET hivelite.memory_limit='$limit'; $2" > "$3"
  read -r secs kb < "$work/time"
  printf '%-6s hivelite %8.2f s %7d MB\n' "$1" "$secs" $((kb / 1024))
  test -z "$(ls -A "$wh/.hivelite/tmp" 2>/dev/null)" || { echo "spill files left"; exit 1; }
}
# duck_run NAME SQL OUT: DuckDB through duck.mjs, timed; its JSON to OUT
duck_run() {
  rm -rf "$work/duck-tmp"
  (cd "$here" && BENCH_DUCK_MEMORY_LIMIT="$limit" BENCH_DUCK_TEMP="$work/duck-tmp" \
    /usr/bin/time -f "%e %M" -o "$work/time" node duck.mjs "$data" "$threads" "$2" > "$3")
  read -r secs kb < "$work/time"
  printf '%-6s DuckDB   %8.2f s %7d MB\n' "$1" "$secs" $((kb / 1024))
}

echo "memory limit $limit, $threads threads, lineitem at scale $scale"
r=0
while [ $r -lt "$runs" ]; do
  case " $queries " in *" sort "*)
    hl_run sort "$sort_sql" "$work/hl-sort.csv"
    duck_run sort "COPY ($sort_sql) TO '$work/duck-sort.csv' (HEADER false)" "$work/duck-sort.json"
    tail -n +2 "$work/hl-sort.csv" | cmp - "$work/duck-sort.csv"
    echo "sort   same $(wc -l < "$work/duck-sort.csv") rows"
    rm -f "$work/hl-sort.csv" "$work/duck-sort.csv" ;;
  esac
  case " $queries " in *" join "*)
    hl_run join "$join_sql" "$work/hl-join.csv"
    duck_run join "$join_sql" "$work/duck-join.json"
    same_answer join "$work/hl-join.csv" "$work/duck-join.json" ;;
  esac
  case " $queries " in *" group "*)
    hl_run group "$group_sql" "$work/hl-group.csv"
    duck_run group "$group_sql" "$work/duck-group.json"
    same_answer group "$work/hl-group.csv" "$work/duck-group.json" ;;
  esac
  case " $queries " in *" collect "*)
    hl_run collect "$collect_sql" "$work/hl-collect.csv"
    duck_run collect "$collect_duck" "$work/duck-collect.json"
    same_answer collect "$work/hl-collect.csv" "$work/duck-collect.json" ;;
  esac
  r=$((r + 1))
done
