#!/bin/sh
# bench/profile.sh -- PROFILE TABLE next to DuckDB's SUMMARIZE on the
# lineitem table (issue 16): SELECT * ... LIMIT 100, PROFILE ... LIMIT
# 100000, a full PROFILE fresh and again (stored states), and an
# incremental profile after one new partition.  Builds hivelite in Release
# mode, generates the data sets if they are missing (bench/gen.mjs), runs
# bench/profile.mjs and writes its section of bench/results.md.  Not part
# of make check.  See bench/README.md.
#
# Environment:
#   BENCH_SCALE    lineitem = 20,000,000 x BENCH_SCALE rows (default 1)
#   BENCH_DATA     data directory (default bench/data/scale-$BENCH_SCALE)
#   BENCH_RUNS     runs of each step (default 3)
#   BENCH_THREADS  threads of both engines (default nproc)
#   BENCH_OUT      report file (default bench/results.md)
#   HIVELITE       a hivelite binary to use instead of building build-bench/
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
scale=${BENCH_SCALE:-1}
data=${BENCH_DATA:-$here/data/scale-$scale}

if [ -z "$HIVELITE" ]; then
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
exec node "$here/profile.mjs" --hivelite "$HIVELITE" --data "$data" \
  --runs "${BENCH_RUNS:-3}" --threads "${BENCH_THREADS:-$(nproc)}" \
  --out "${BENCH_OUT:-$here/results.md}"
