#!/bin/sh
# duckdb_oracle.sh DIR SCRIPT.mjs [ARGS...] -- runs a DuckDB comparison
# (tests/interop/*.mjs, tests/diff/run_diff.mjs) with node, after installing
# @duckdb/node-api into DIR/node_modules (from DIR/package.json) when it is
# missing.  When node, npm or the package cannot be had the test is skipped
# (exit 77, CTest's SKIP_RETURN_CODE) -- except under CI=true, where DuckDB
# is the oracle that must run: then it fails (exit 1) and says why.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 DIR SCRIPT.mjs [ARGS...]" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
script=$2
shift 2

unavailable() {
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: $1 (CI=true: the DuckDB oracle must run; scripts/install-deps.sh installs node)"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

command -v node >/dev/null 2>&1 || unavailable "node is not installed"
if [ ! -f "$dir/node_modules/@duckdb/node-api/package.json" ]; then
  command -v npm >/dev/null 2>&1 || unavailable "npm is not installed"
  (cd "$dir" && npm install --no-audit --no-fund >/dev/null 2>&1) ||
    unavailable "npm install of @duckdb/node-api failed (offline?)"
fi
(cd "$dir" && node -e "import('@duckdb/node-api').catch(() => process.exit(1))") ||
  unavailable "@duckdb/node-api does not load on this machine"
exec node "$dir/$script" "$@"
