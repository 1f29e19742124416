#!/bin/sh
# bench/pgbench.sh -- `hivelite serve` next to a real PostgreSQL 15 under
# pgbench (issue 17): 16 clients run a custom script of partition pins in
# each of pgbench's query modes (simple, extended, prepared), first against
# hivelite serving a warehouse with a partitioned table, then against
# PostgreSQL holding the same rows in a plain table with an index on the
# partition keys.  Both servers run on loopback, in temporary directories,
# and are stopped at the end.  A measurement, not a test; see
# bench/README.md ("pgbench").
#
# Usage: bench/pgbench.sh [path/to/hivelite]   (default build/hivelite)
# Environment:
#   BENCH_SECONDS  seconds per pgbench run (default 20)
#   BENCH_CLIENTS  concurrent clients (default 16)
#   BENCH_DAYS, BENCH_HOURS, BENCH_ROWS  the table's shape: days x hours
#                  partitions of BENCH_ROWS rows (defaults 30, 24, 200)
# Needs Debian's postgresql (15: initdb, pg_ctl, postgres) and pgbench
# (postgresql-contrib).  As root, PostgreSQL runs as the user `postgres`.
set -eu
HL=$(realpath "${1:-build/hivelite}")
SECS=${BENCH_SECONDS:-20}
CLIENTS=${BENCH_CLIENTS:-16}
DAYS=${BENCH_DAYS:-30}
HOURS=${BENCH_HOURS:-24}
ROWS=${BENCH_ROWS:-200}
PGBIN=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)
[ -x "$PGBIN/postgres" ] || { echo "needs Debian's postgresql-15 (scripts/install-deps.sh)"; exit 1; }
command -v pgbench >/dev/null || { echo "needs pgbench (postgresql-contrib)"; exit 1; }

TMP=$(mktemp -d)
HLPID=""
PGUP=""
as_pg() { # PostgreSQL refuses to run as root: the Debian user postgres
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
  [ -n "$HLPID" ] && kill -TERM "$HLPID" 2>/dev/null && wait "$HLPID" 2>/dev/null || true
  [ -n "$PGUP" ] && as_pg "$PGBIN/pg_ctl" -D "$TMP/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
chmod 755 "$TMP"

# ---- the rows: dt (an int day, 20240101 + d), hr; one text file per
# partition for hivelite, one CSV of every row for PostgreSQL's COPY.
# v is a multiple of 0.25, so that sums are exact in both engines.
echo "generating $DAYS x $HOURS partitions of $ROWS rows"
awk -v days="$DAYS" -v hours="$HOURS" -v rows="$ROWS" -v dir="$TMP/t" -v all="$TMP/all.csv" 'BEGIN {
  id = 0
  for (d = 0; d < days; d++) for (h = 0; h < hours; h++) {
    p = sprintf("%s/dt=%d/hr=%d", dir, 20240101 + d, h)
    system("mkdir -p " p)
    f = p "/part-0.csv"
    for (r = 0; r < rows; r++) {
      id++
      v = (id * 7919 % 10007) / 4
      s = "s" (id % 97)
      print id "," v "," s > f
      print id "," v "," s "," 20240101 + d "," h > all
    }
    close(f)
  }
}'

"$HL" -w "$TMP/wh" -c "CREATE EXTERNAL TABLE t (id BIGINT, v DOUBLE, s STRING)
  PARTITIONED BY (dt INT, hr INT) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  STORED AS TEXTFILE LOCATION '$TMP/t'; MSCK REPAIR TABLE t;" >/dev/null

# ---- the script: one partition pin per transaction
cat > "$TMP/pin.sql" <<EOF
\\set d 20240101 + random(0, $((DAYS - 1)))
\\set h random(0, $((HOURS - 1)))
SELECT count(*), sum(v), max(s) FROM t WHERE dt = :d AND hr = :h;
EOF

# peak resident memory of a server, sampled every 0.2 s while pgbench runs:
# hivelite is one process; PostgreSQL the postmaster and all its backends
# (summed, shared buffers counted once per process that touched them)
rss_sum() { # KB of PID and its children
  ps -o rss= -p "$1" --ppid "$1" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}
run() { # run NAME MODE PORT PID: pgbench, then "NAME MODE QPS PEAK_KB"
  peak=0
  pgbench -n -h 127.0.0.1 -p "$3" -U bench -c "$CLIENTS" -j 2 -T "$SECS" -M "$2" \
    -f "$TMP/pin.sql" bench > "$TMP/out" 2>&1 &
  bp=$!
  while kill -0 "$bp" 2>/dev/null; do
    m=$(rss_sum "$4"); [ "$m" -gt "$peak" ] && peak=$m
    sleep 0.2
  done
  if ! wait "$bp"; then cat "$TMP/out"; exit 1; fi
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$TMP/out")
  [ "${failed:-0}" = 0 ] || { cat "$TMP/out"; exit 1; }
  qps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$TMP/out")
  echo "$1 $2 $qps $peak" >> "$TMP/results"
  echo "  $1 -M $2: $qps queries/s, peak RSS $((peak / 1024)) MB"
}
answer() { # the pin's answer for (day, hour) from the server on PORT; the
  # sum printed by awk, as Hive and PostgreSQL print doubles differently
  psql -X -A -t -F ' ' -h 127.0.0.1 -p "$1" -U bench -d bench \
    -c "SELECT count(*), sum(v), max(s) FROM t WHERE dt = $2 AND hr = $3" |
    awk '{ printf "%s %.2f %s\n", $1, $2, $3 }'
}

# ---- hivelite
"$HL" serve -w "$TMP/wh" --auth trust --listen 127.0.0.1:0 2> "$TMP/hl.log" &
HLPID=$!
i=0
until grep -q "listening on" "$TMP/hl.log"; do
  i=$((i + 1)); [ $i -lt 100 ] || { cat "$TMP/hl.log"; exit 1; }; sleep 0.1
done
HLPORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$TMP/hl.log")

# ---- PostgreSQL 15: initdb in the temp dir, a free loopback port, no unix
# socket; the same rows in a plain table with an index on (dt, hr)
mkdir "$TMP/pg"
[ "$(id -u)" -ne 0 ] || chown postgres "$TMP/pg"
as_pg "$PGBIN/initdb" -D "$TMP/pg" -U bench --auth=trust -E UTF8 --no-locale >/dev/null
PGPORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg "$PGBIN/pg_ctl" -D "$TMP/pg" -l "$TMP/pg/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PGPORT -c unix_socket_directories='' -c max_connections=$((CLIENTS + 10))" \
  start >/dev/null
PGUP=1
PGPID=$(head -1 "$TMP/pg/postmaster.pid")
psql -X -q -h 127.0.0.1 -p "$PGPORT" -U bench -d postgres -c "CREATE DATABASE bench"
psql -X -q -h 127.0.0.1 -p "$PGPORT" -U bench -d bench <<EOF
CREATE TABLE t (id bigint, v double precision, s text, dt int, hr int);
\\copy t FROM '$TMP/all.csv' WITH (FORMAT csv)
CREATE INDEX t_dt_hr ON t (dt, hr);
VACUUM ANALYZE t;
EOF

# both hold the same rows: a few pins and the totals compared
for k in "20240101 0" "$((20240101 + DAYS - 1)) $((HOURS - 1))" "$((20240101 + DAYS / 2)) 7"; do
  set -- $k
  a=$(answer "$HLPORT" "$1" "$2"); b=$(answer "$PGPORT" "$1" "$2")
  [ "$a" = "$b" ] || { echo "answers differ for dt=$1 hr=$2: hivelite '$a', PostgreSQL '$b'"; exit 1; }
done
echo "same answers from both (e.g. dt=20240101 hr=0: $(answer "$HLPORT" 20240101 0))"

echo "pgbench: $CLIENTS clients, $SECS s per run, $(nproc) cores"
for mode in simple extended prepared; do
  run hivelite "$mode" "$HLPORT" "$HLPID"
  run postgresql "$mode" "$PGPORT" "$PGPID"
done

echo
echo "| mode | hivelite q/s | PostgreSQL 15 q/s | ratio | hivelite peak RSS | PostgreSQL peak RSS (all processes) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for mode in simple extended prepared; do
  awk -v m="$mode" '$2 == m && $1 == "hivelite" { hq = $3; hm = $4 }
    $2 == m && $1 == "postgresql" { pq = $3; pm = $4 }
    END { printf "| %s | %.0f | %.0f | %.2f | %d MB | %d MB |\n", m, hq, pq, hq / pq, hm / 1024, pm / 1024 }' \
    "$TMP/results"
done
