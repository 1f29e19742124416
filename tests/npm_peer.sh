#!/bin/sh
# npm_peer.sh DIR SCRIPT.mjs [ARGS...] -- runs a comparison against a peer
# from npm (DuckDB's @duckdb/node-api for tests/interop/*.mjs and
# tests/diff/run_diff.mjs, hyparquet for lz4_hyparquet.mjs, avsc for
# avro_avsc.mjs) with node, after
# installing DIR/package.json into DIR/node_modules when that is missing or
# older than package.json.  When node, npm or the packages cannot be had the
# test is skipped (exit 77, CTest's SKIP_RETURN_CODE) -- except under
# CI=true, where the peer is the oracle that must run: then it fails (exit
# 1) and says why.
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
    echo "FAIL: $1 (CI=true: the oracle must run; scripts/install-deps.sh installs node)"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

command -v node >/dev/null 2>&1 || unavailable "node is not installed"
command -v flock >/dev/null 2>&1 || unavailable "flock (util-linux) is not installed"

# ctest -j runs several peers of one DIR at once.  One npm install at a time
# per DIR, and nobody loads the packages while another install rewrites
# them: a native module replaced under a running node dies with SIGBUS
# (what CI saw when two tests installed into a fresh checkout together).
# The lock is held only for install and load check; the tests then run in
# parallel.
install_and_check() {
  stamp=$dir/node_modules/.package-lock.json
  if [ ! -f "$stamp" ] || [ "$dir/package.json" -nt "$stamp" ]; then
    command -v npm >/dev/null 2>&1 || unavailable "npm is not installed"
    (cd "$dir" && npm install --no-audit --no-fund >/dev/null 2>&1) ||
      unavailable "npm install of $dir/package.json failed (offline?)"
  fi
  if grep -q '@duckdb/node-api' "$dir/package.json"; then
    (cd "$dir" && node -e "import('@duckdb/node-api').catch(() => process.exit(1))") ||
      unavailable "@duckdb/node-api does not load on this machine"
  fi
}
exec 9>"$dir/.npm-install.lock"
flock 9 || unavailable "cannot lock $dir/.npm-install.lock"
install_and_check
flock -u 9
exec 9>&-
exec node "$dir/$script" "$@"
