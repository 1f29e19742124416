#!/bin/sh
# bench/run.sh -- the analytic benchmark of issue 4 (`make bench`): builds
# hivelite in Release mode, generates the data sets if they are missing
# (bench/gen.mjs), then runs bench/queries.sql in hivelite and DuckDB side by
# side (bench/run.mjs), single-threaded and with every core, and writes
# bench/results.md.  See bench/README.md.
#
# Environment:
#   BENCH_SCALE    lineitem = 20,000,000 x BENCH_SCALE rows (default 1)
#   BENCH_DATA     data directory (default bench/data/scale-$BENCH_SCALE;
#                  reused while its gen.json says it is complete)
#   BENCH_RUNS     runs of each query per engine and thread count (default 3)
#   BENCH_ONLY     comma-separated query names to run (default all)
#   BENCH_OUT      report file (default bench/results.md)
#   HIVELITE       a hivelite binary to use instead of building build-bench/
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
scale=${BENCH_SCALE:-1}
data=${BENCH_DATA:-$here/data/scale-$scale}
runs=${BENCH_RUNS:-3}
out=${BENCH_OUT:-$here/results.md}

if [ -z "$HIVELITE" ]; then
  # -O3 makes gcc report maybe-uninitialized false positives in a few files
  # that -O2 (make build) does not: warn about them here, don't fail.
  cmake -S "$root" -B "$root/build-bench" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_C_FLAGS=-g" >/dev/null
  cmake --build "$root/build-bench" -j "${JOBS:-2}" --target hivelite_cli >/dev/null 2>&1 ||
    cmake --build "$root/build-bench" -j "${JOBS:-2}" --target hivelite_cli
  HIVELITE=$root/build-bench/hivelite
fi
if [ ! -d "$here/node_modules/@duckdb/node-api" ]; then
  (cd "$here" && npm install --no-audit --no-fund >/dev/null)
fi
if [ ! -f "$data/gen.json" ]; then
  echo "generating the data sets at scale $scale into $data"
  node "$here/gen.mjs" "$data" "$scale"
fi
exec node "$here/run.mjs" --hivelite "$HIVELITE" --data "$data" --runs "$runs" \
  --out "$out" ${BENCH_ONLY:+--only "$BENCH_ONLY"}
