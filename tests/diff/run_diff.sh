#!/bin/sh
# run_diff.sh HIVELITE [run_diff.mjs options...] -- the differential suite
# by hand (CTest runs the same through tests/npm_peer.sh): installs
# @duckdb/node-api into tests/diff/node_modules when missing, then runs
# run_diff.mjs against the given hivelite binary.
set -u
if [ $# -lt 1 ]; then
  echo "usage: $0 HIVELITE [options]" >&2
  exit 2
fi
hivelite=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../npm_peer.sh" "$here" run_diff.mjs --hivelite "$hivelite" "$@"
