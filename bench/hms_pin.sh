#!/bin/sh
# bench/hms_pin.sh -- planning a one-partition pin on a 100,000-partition
# table through the Hive Metastore API, hivelite as server (`hivelite
# metastore`) and as client (`-m thrift://`), next to the same pin on the
# embedded catalog; and listing every partition name through it.
# (A script, not a test.)  Usage: bench/hms_pin.sh [path/to/hivelite]
set -e
HL=${1:-build/hivelite}
TMP=$(mktemp -d)
SRV=
trap '[ -n "$SRV" ] && kill $SRV; rm -rf "$TMP"' EXIT
ms() { date +%s%N; }
best() { # best of 5 runs of "$@", in ms
  b=999999999
  for r in 1 2 3 4 5; do
    s=$(ms); "$@" >/dev/null; e=$(ms)
    v=$(( (e - s) / 1000 )); [ $v -lt $b ] && b=$v
  done
  echo "$(( b / 1000 )).$(( b % 1000 / 100 ))"
}
/usr/bin/python3 - "$TMP/t" <<'PY'
import os, sys
for d in range(1000):
    for h in range(100):
        os.makedirs("%s/dt=d%04d/hr=%d" % (sys.argv[1], d, h))
PY
W=$TMP/w1
"$HL" -w "$W" -c "CREATE EXTERNAL TABLE t (v STRING) PARTITIONED BY (dt STRING, hr INT) LOCATION '$TMP/t'; MSCK REPAIR TABLE t;" >/dev/null
echo "partitions: $("$HL" -w "$W" -c "SELECT count(*) FROM (SHOW PARTITIONS t) x;" --format csv --no-header 2>/dev/null || "$HL" -w "$W" -c "SHOW PARTITIONS t;" --format csv --no-header | wc -l)"
"$HL" metastore -w "$W" --listen 127.0.0.1:0 > "$TMP/listen" &
SRV=$!
while ! grep -q listening "$TMP/listen"; do sleep 0.1; done
URI=thrift://$(sed 's/listening on //' "$TMP/listen")
Q="EXPLAIN SELECT count(*) FROM t WHERE dt='d0500' AND hr=17;"
echo "pin, embedded catalog (EXPLAIN, whole process): $(best "$HL" -w "$W" -c "$Q") ms best of 5"
echo "pin through the metastore API (EXPLAIN, whole process): $(best "$HL" -w "$TMP/w2" -m "$URI" -c "$Q") ms best of 5"
echo "SHOW PARTITIONS through the metastore API (whole process): $(best "$HL" -w "$TMP/w2" -m "$URI" --format csv -c "SHOW PARTITIONS t;") ms best of 5"
echo "hivelite process start (SELECT 1) attached: $(best "$HL" -w "$TMP/w2" -m "$URI" -c "SELECT 1;") ms best of 5"
"$HL" -w "$TMP/w2" -m "$URI" --format csv -c "$Q" | grep partitions
