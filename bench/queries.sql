-- bench/queries.sql -- the queries of bench/run.sh, run by hivelite and by
-- DuckDB (bench/duck.mjs: views of the same names over the same Parquet
-- files).  Each query starts with "-- name:"; "-- what:" describes it;
-- "-- ordered: yes" compares rows in order (the ORDER BY fixes it
-- completely), otherwise rows are compared as a multiset.  A line
-- "-- duckdb:" would start a DuckDB spelling of the query where the dialects
-- differ; none is needed so far.  Results stay small so that printing them
-- costs neither engine anything worth measuring.

-- name: blocks_pin
-- what: blocks, one-partition pin (1 of 449)
SELECT count(*), sum(n_tx), max(size), min(height) FROM blocks WHERE dt = '2023-09-17';

-- name: blocks_full
-- what: blocks, full count and sums
SELECT count(*), sum(n_tx), sum(fee), sum(size), max(difficulty) FROM blocks;

-- name: blocks_newest
-- what: blocks, newest first: ORDER BY dt DESC LIMIT 100
-- ordered: yes
SELECT dt, height, hash, n_tx FROM blocks ORDER BY dt DESC, height DESC LIMIT 100;

-- name: blocks_month
-- what: blocks, group by an expression of the partition key
-- ordered: yes
SELECT substr(dt, 1, 7) AS month, count(*), sum(fee), avg(n_tx)
FROM blocks GROUP BY substr(dt, 1, 7) ORDER BY month;

-- name: blocks_window
-- what: blocks, window: largest block of each day and its gap to the previous block
-- ordered: yes
SELECT dt, height, size, gap FROM (
  SELECT dt, height, size,
         time - lag(time) OVER (PARTITION BY dt ORDER BY height) AS gap,
         row_number() OVER (PARTITION BY dt ORDER BY size DESC, height) AS rn
  FROM blocks) b
WHERE rn = 1 ORDER BY dt DESC LIMIT 30;

-- name: p4096_pin
-- what: 4096-partition table, one-partition pin
SELECT count(*), sum(v), max(s) FROM p4096 WHERE dt = '2024-02-10' AND hr = 17;

-- name: p4096_full
-- what: 4096-partition table, full count and sums
SELECT count(*), sum(v), min(id), max(id) FROM p4096;

-- name: li_pin
-- what: lineitem, one-day pin (1 of 2,526)
SELECT count(*), sum(l_quantity), sum(l_extendedprice), max(l_comment)
FROM lineitem WHERE l_shipdate = DATE '1995-03-15';

-- name: li_count
-- what: lineitem, full count
SELECT count(*) FROM lineitem;

-- name: li_sums
-- what: lineitem, full-scan sums
SELECT count(*), sum(l_quantity), sum(l_extendedprice), sum(l_discount), sum(l_tax),
       min(l_orderkey), max(l_orderkey), sum(l_linenumber)
FROM lineitem;

-- name: li_q1
-- what: lineitem, TPC-H Q1 shape
-- ordered: yes
SELECT l_returnflag, l_linestatus,
       sum(l_quantity) AS sum_qty,
       sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty,
       avg(l_extendedprice) AS avg_price,
       avg(l_discount) AS avg_disc,
       count(*) AS count_order
FROM lineitem
WHERE l_shipdate <= DATE '1998-09-02'
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus;

-- name: li_q6
-- what: lineitem, TPC-H Q6 shape (range on the partition key plus column filters)
SELECT sum(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24;

-- name: li_selective
-- what: lineitem, selective filter on a non-key column (~0.0005% of rows)
-- ordered: yes
SELECT l_orderkey, l_linenumber, l_shipdate, l_quantity, l_extendedprice
FROM lineitem WHERE l_partkey = 4242
ORDER BY l_orderkey, l_linenumber;

-- name: li_like
-- what: lineitem, string filter over a wide column
SELECT count(*), sum(l_quantity) FROM lineitem
WHERE l_comment LIKE '%special pinto beans%';

-- name: li_newest
-- what: lineitem, newest first: ORDER BY partition DESC LIMIT 100
-- ordered: yes
SELECT l_shipdate, l_orderkey, l_linenumber, l_extendedprice
FROM lineitem ORDER BY l_shipdate DESC, l_orderkey DESC, l_linenumber DESC LIMIT 100;

-- name: li_groupby
-- what: lineitem, high-cardinality group by (200,000 x SCALE groups), top 10
-- ordered: yes
SELECT l_partkey, sum(l_quantity) AS q, count(*) AS n
FROM lineitem GROUP BY l_partkey ORDER BY q DESC, l_partkey LIMIT 10;

-- name: li_join_month
-- what: join lineitem (one month) x part, grouped by brand (TPC-H Q14 shape)
-- ordered: yes
SELECT p_brand, count(*) AS n, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem JOIN part ON l_partkey = p_partkey
WHERE l_shipdate >= DATE '1995-09-01' AND l_shipdate < DATE '1995-10-01'
GROUP BY p_brand ORDER BY p_brand;

-- name: li_join_full
-- what: join all of lineitem x part, grouped by part type
-- ordered: yes
SELECT p_type, count(*) AS n, sum(l_quantity) AS q
FROM lineitem JOIN part ON l_partkey = p_partkey
GROUP BY p_type ORDER BY p_type;

-- name: li_window
-- what: lineitem, window: top 3 lines by price per day over one month
-- ordered: yes
SELECT l_shipdate, l_orderkey, l_linenumber, l_extendedprice, rk FROM (
  SELECT l_shipdate, l_orderkey, l_linenumber, l_extendedprice,
         rank() OVER (PARTITION BY l_shipdate
                      ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber) AS rk
  FROM lineitem
  WHERE l_shipdate >= DATE '1996-02-01' AND l_shipdate < DATE '1996-03-01') x
WHERE rk <= 3 ORDER BY l_shipdate, rk;

-- name: li_double_groupby
-- what: lineitem, grouped DOUBLE sums and averages by ship mode (7 dictionary strings)
-- ordered: yes
SELECT l_shipmode, count(*) AS n, sum(CAST(l_extendedprice AS DOUBLE)) AS price,
       sum(CAST(l_extendedprice AS DOUBLE) * CAST(l_discount AS DOUBLE)) AS disc,
       avg(CAST(l_quantity AS DOUBLE)) AS qty
FROM lineitem GROUP BY l_shipmode ORDER BY l_shipmode;
