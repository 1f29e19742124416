#!/bin/sh
# demo.sh -- a short, real hivelite session over a Hive-layout dataset.
#
# Usage: scripts/demo.sh PATH/TO/hivelite      (run by `make demo`)
#
# Lays out, in a temporary directory, what a Hive/Spark job typically leaves
# behind: an external ctrl-A delimited text table partitioned by dt/hr, with a
# _SUCCESS marker and a junk tmp_backup/ directory that partition discovery
# must ignore, plus one partition stored outside the table directory.  Then
# it registers the table, discovers partitions with MSCK REPAIR TABLE, and
# queries it, echoing every statement before its output.  Each statement
# runs in its own hivelite process (the warehouse holds all state), and the
# script stops with a non-zero status at the first failing statement.
set -eu

if [ "$#" -ne 1 ]; then
  echo "usage: $0 PATH/TO/hivelite" >&2
  exit 2
fi
HIVELITE=$1
if [ ! -x "$HIVELITE" ]; then
  echo "demo.sh: $HIVELITE is not an executable file (build first: make build)" >&2
  exit 2
fi

DEMO=$(mktemp -d "${TMPDIR:-/tmp}/hivelite-demo.XXXXXX")
trap 'rm -rf "$DEMO"' EXIT INT TERM
WAREHOUSE=$DEMO/warehouse
TABLE_DIR=$DEMO/lake/sales/events
ARCHIVE_DIR=$DEMO/archive/events-2023-12-31-23

# One ctrl-A delimited row: id, name, amount, ts.
row() {
  printf '%s\001%s\001%s\001%s\n' "$1" "$2" "$3" "$4"
}

# --- the dataset ---------------------------------------------------------
mkdir -p "$TABLE_DIR/dt=2024-01-01/hr=09" "$TABLE_DIR/dt=2024-01-01/hr=12" \
  "$TABLE_DIR/dt=2024-01-01/hr=18" "$TABLE_DIR/dt=2024-01-02/hr=12" \
  "$TABLE_DIR/tmp_backup" "$ARCHIVE_DIR"
{
  row 1 alice 19.99 '2024-01-01 09:05:00'
  row 2 bob 5.00 '2024-01-01 09:47:13'
} >"$TABLE_DIR/dt=2024-01-01/hr=09/part-00000"
{
  row 3 carol 120.50 '2024-01-01 12:00:01'
  row 4 dave 7.25 '2024-01-01 12:30:00'
  row 5 erin 42.00 '2024-01-01 12:59:59'
} >"$TABLE_DIR/dt=2024-01-01/hr=12/part-00000"
{
  row 6 frank 3.10 '2024-01-01 18:15:00'
  row 7 grace 88.80 '2024-01-01 18:45:30'
} >"$TABLE_DIR/dt=2024-01-01/hr=18/part-00000"
{
  row 8 heidi 15.00 '2024-01-02 12:10:00'
  row 9 ivan 0.99 '2024-01-02 12:20:00'
} >"$TABLE_DIR/dt=2024-01-02/hr=12/part-00000"
: >"$TABLE_DIR/_SUCCESS"
row 999 stale 1.00 '2023-01-01 00:00:00' >"$TABLE_DIR/tmp_backup/old-copy"
row 10 judy 61.00 '2023-12-31 23:59:00' >"$ARCHIVE_DIR/part-00000"

echo "Dataset laid out under $DEMO:"
(cd "$DEMO" && find lake archive -type f | sort | sed 's/^/  /')
echo

# --- the session ---------------------------------------------------------
run() {
  printf 'hivelite> %s\n' "$1"
  "$HIVELITE" -w "$WAREHOUSE" -c "$1"
  echo
}

QUERY="SELECT id, amount FROM sales.events WHERE dt = '2024-01-01' AND hr >= 12 LIMIT 10;"

run "CREATE DATABASE sales;"
run "CREATE EXTERNAL TABLE sales.events (id BIGINT, name STRING, amount DECIMAL(10,2), ts TIMESTAMP)
  PARTITIONED BY (dt STRING, hr INT)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\001'
  STORED AS TEXTFILE
  LOCATION '$TABLE_DIR';"
run "MSCK REPAIR TABLE sales.events;"
run "ALTER TABLE sales.events ADD PARTITION (dt = '2023-12-31', hr = 23) LOCATION '$ARCHIVE_DIR';"
run "SHOW PARTITIONS sales.events;"
run "$QUERY"
run "EXPLAIN $QUERY"
run "SELECT count(*) FROM sales.events;"
run "DESCRIBE FORMATTED sales.events;"

echo "demo finished: every statement succeeded"
