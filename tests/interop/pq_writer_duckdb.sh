#!/bin/sh
# pq_writer_duckdb.sh PQ_WRITE_GEN -- CTest driver of the DuckDB round trip
# of the Parquet writer (pq_writer_duckdb.mjs).  Installs @duckdb/node-api
# into tests/interop/node_modules when missing; exits 77 (skipped) when node
# or npm is missing or the install fails (no network).
dir=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
if [ ! -d "$dir/node_modules/@duckdb/node-api" ]; then
  command -v npm >/dev/null 2>&1 || { echo "npm not found: skipped"; exit 77; }
  (cd "$dir" && npm install --no-audit --no-fund >/dev/null 2>&1) ||
    { echo "npm install failed (offline?): skipped"; exit 77; }
fi
exec node "$dir/pq_writer_duckdb.mjs" "$@"
