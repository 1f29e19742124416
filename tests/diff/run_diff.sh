#!/bin/sh
# run_diff.sh -- CTest entry point of the differential suite (tests/diff).
# Installs @duckdb/node-api into tests/diff/node_modules when it is missing,
# then runs run_diff.mjs against the given hivelite binary.  Exit 77 (CTest
# SKIP_RETURN_CODE) only when node/npm are absent or the install fails.
# Usage: run_diff.sh HIVELITE [run_diff.mjs options...]
set -u
if [ $# -lt 1 ]; then
  echo "usage: $0 HIVELITE [options]" >&2
  exit 2
fi
hivelite=$1
shift
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi
if [ ! -f "$here/node_modules/@duckdb/node-api/package.json" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "SKIP: npm is not installed"
    exit 77
  fi
  if ! (cd "$here" && npm install --no-audit --no-fund >/dev/null 2>&1); then
    echo "SKIP: npm install of @duckdb/node-api failed"
    exit 77
  fi
fi
if ! (cd "$here" && node -e "import('@duckdb/node-api').catch(() => process.exit(1))"); then
  echo "SKIP: @duckdb/node-api does not load on this machine"
  exit 77
fi
exec node "$here/run_diff.mjs" --hivelite "$hivelite" "$@"
