#!/bin/sh
# duckdb_read.sh HIVELITE -- CTest driver of duckdb_read.mjs: Parquet files
# written by DuckDB (nullable columns, dictionary strings, several row
# groups, codecs, hive-partitioned directories) must read identically in
# hivelite through SELECT FROM parquet.`path`.  Exits 77 (skipped) when node
# or @duckdb/node-api is unavailable.
dir=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
if [ ! -d "$dir/node_modules/@duckdb/node-api" ]; then
  command -v npm >/dev/null 2>&1 || { echo "npm not found: skipped"; exit 77; }
  (cd "$dir" && npm install --no-audit --no-fund >/dev/null 2>&1) ||
    { echo "npm install failed (offline?): skipped"; exit 77; }
fi
exec node "$dir/duckdb_read.mjs" "$@"
