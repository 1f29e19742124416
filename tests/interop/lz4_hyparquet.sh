#!/bin/sh
# lz4_hyparquet.sh HIVELITE -- CTest driver of lz4_hyparquet.mjs: Parquet
# files that hivelite writes with the deprecated LZ4 codec (Hadoop framing)
# must read in hyparquet, an independent reader (DuckDB has no LZ4 codec,
# only LZ4_RAW).  Installs the test peers into tests/interop/node_modules
# when missing; exits 77 (skipped) when node or npm is missing or the
# install fails (no network).
dir=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
if [ ! -d "$dir/node_modules/hyparquet" ] || [ ! -d "$dir/node_modules/hyparquet-compressors" ]; then
  command -v npm >/dev/null 2>&1 || { echo "npm not found: skipped"; exit 77; }
  (cd "$dir" && npm install --no-audit --no-fund >/dev/null 2>&1) ||
    { echo "npm install failed (offline?): skipped"; exit 77; }
fi
exec node "$dir/lz4_hyparquet.mjs" "$@"
