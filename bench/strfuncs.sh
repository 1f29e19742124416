#!/bin/sh
# bench/strfuncs.sh [path/to/hivelite] [ROWS] -- heavy string functions
# (regexp_replace, regexp_extract, get_json_object, split, concat_ws,
# lower) in hivelite against DuckDB's equivalents over the same rows, at
# ROWS (default 1,000,000) and twice as many (issue 20); writes its section
# of bench/results.md.  A measurement, not a test (see bench/strfuncs.py).
# Use an optimized build.  Environment: BENCH_RUNS (default 5), BENCH_OUT
# (default bench/results.md).
set -e
HL=${1:-build/hivelite}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -d "$HERE/node_modules/@duckdb/node-api" ] ||
  (cd "$HERE" && npm install --no-audit --no-fund >/dev/null)
exec /usr/bin/python3 "$HERE/strfuncs.py" --hivelite "$HL" --rows "${2:-1000000}" \
  --runs "${BENCH_RUNS:-5}" --out "${BENCH_OUT:-$HERE/results.md}"
