#!/bin/sh
# bench/parquet_decode.sh [path/to/hivelite] [ROWS] -- Parquet decode
# throughput against DuckDB single-threaded (a script, not a test; see
# parquet_decode.mjs).  Needs node and @duckdb/node-api (`npm install` in
# bench/).  Use a release build (-DCMAKE_BUILD_TYPE=RelWithDebInfo).
set -e
HL=${1:-build/hivelite}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -d "$HERE/node_modules/@duckdb/node-api" ] || (cd "$HERE" && npm install --no-audit --no-fund >/dev/null)
exec node "$HERE/parquet_decode.mjs" "$HL" "${2:-10000000}"
