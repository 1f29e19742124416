#!/bin/sh
# bench/avro.sh [path/to/hivelite] [ROWS] -- Avro decode throughput in
# hivelite (codecs null and snappy) against the same rows as Parquet in
# hivelite and against Debian's python3-avro reading the same file (issue
# 19); writes its section of bench/results.md.  A measurement, not a test
# (see bench/avro_decode.py).  Use an optimized build (RelWithDebInfo or
# Release).  Environment: BENCH_RUNS (default 5), BENCH_OUT (default
# bench/results.md).
set -e
HL=${1:-build/hivelite}
HERE=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 -c 'import avro' 2>/dev/null || {
  echo "python3-avro is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
}
exec /usr/bin/python3 "$HERE/avro_decode.py" --hivelite "$HL" --rows "${2:-2000000}" \
  --runs "${BENCH_RUNS:-5}" --out "${BENCH_OUT:-$HERE/results.md}"
