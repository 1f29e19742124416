// bench/gen.mjs -- generates the benchmark datasets of bench/run.sh.
//
// Usage: node bench/gen.mjs OUTDIR [SCALE]
//
// DuckDB writes every table as Parquet (COPY ... (FORMAT PARQUET,
// PARTITION_BY ...)) into hive-style k=v directories, so hivelite and DuckDB
// read the very same files.  Values come from integer arithmetic on the row
// number only (no random(), no hash()), so a given SCALE always yields the
// same rows whatever the DuckDB version; only the order of rows inside a file
// may vary with DuckDB's threads, which no benchmark query depends on.
//
//   blocks    449 daily partitions (dt STRING), a few hundred rows a day:
//             a Bitcoin-blocks-like table (hash, height, time, size, n_tx,
//             fee, difficulty); fixed size, SCALE does not apply
//   p4096     4,096 partitions (dt STRING x hr INT, 64 x 64), 50 rows each
//   lineitem  TPC-H-like lineitem of 20,000,000 x SCALE rows partitioned by
//             l_shipdate DATE over 2,526 days (1992-01-02 .. 1998-12-01)
//   part      200,000 x SCALE rows (at least 1,000), unpartitioned, the small
//             side of the joins
//
// OUTDIR/gen.json records the scale, the row counts and the time each table
// took, and tells bench/run.sh that the data set is complete.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';

const out = path.resolve(process.argv[2] || 'bench/data');
const scale = Number(process.argv[3] || process.env.BENCH_SCALE || 1);
if (!(scale > 0)) {
  console.error(`gen.mjs: bad scale "${process.argv[3]}"`);
  process.exit(2);
}
const liRows = Math.max(1000, Math.round(20000000 * scale));
const partRows = Math.max(1000, Math.round(200000 * scale));

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
// Generation may use every core; the memory cap keeps the partitioned COPY
// of the big table from taking the machine (it spills instead).
await con.run(`SET memory_limit='${process.env.BENCH_GEN_MEMORY || '3GB'}'`);
await con.run(`SET temp_directory='${out}/.tmp'`);
// One Parquet file per partition, each one row group, as a Hive table
// written by one task per partition looks: DuckDB's defaults would close and
// reopen files beyond 100 open ones and flush every 524,288 buffered rows,
// leaving several files of a few hundred rows per partition.  The big table
// is written in batches of days below the flush threshold instead.
const flushRows = 4000000;
await con.run('SET partitioned_write_max_open_files=10000');
await con.run(`SET partitioned_write_flush_threshold=${flushRows}`);

const info = { scale, tables: {} };
// Writes SELECT into OUT/NAME; with `batches`, once per WHERE clause of
// the list (disjoint sets of partitions) into the same directory.
async function copy(name, select, partitionBy, rows, batches = ['TRUE']) {
  const t0 = performance.now();
  const dir = `${out}/${name}`;
  const opts = partitionBy
    ? `FORMAT PARQUET, PARTITION_BY (${partitionBy}), COMPRESSION SNAPPY, OVERWRITE_OR_IGNORE`
    : 'FORMAT PARQUET, COMPRESSION SNAPPY';
  const target = partitionBy ? dir : `${dir}/part-0.parquet`;
  if (!partitionBy) fs.mkdirSync(dir, { recursive: true });
  for (const where of batches)
    await con.run(`COPY (SELECT * FROM (${select}) WHERE ${where}) TO '${target}' (${opts})`);
  const s = (performance.now() - t0) / 1000;
  info.tables[name] = { rows, seconds: Number(s.toFixed(2)) };
  console.log(`gen: ${name}: ${rows} rows in ${s.toFixed(1)} s`);
}

// blocks: day d (0..448) has 250 + (d*37 % 100) blocks; heights are
// consecutive over the days, about ten minutes apart.
await copy(
  'blocks',
  `WITH days AS (
     SELECT d, 250 + (d * 37) % 100 AS n FROM range(449) t(d)),
   starts AS (
     SELECT d, n, sum(n) OVER (ORDER BY d) - n AS first FROM days),
   b AS (
     SELECT d, first + j AS height, j, n FROM starts, range(n) r(j))
   SELECT md5(height::VARCHAR) || md5((height * 7)::VARCHAR) AS hash,
          height::BIGINT AS height,
          (1672531200 + d * 86400 + j * (86400 // n))::BIGINT AS time,
          (200000 + (height * 7919) % 1800000)::INTEGER AS size,
          (1 + (height * 104729) % 4000)::INTEGER AS n_tx,
          ((height * 48271) % 50000000)::BIGINT AS fee,
          (35364065900457.0 * (1.0 + (d // 14) * 0.03))::DOUBLE AS difficulty,
          strftime(DATE '2023-01-01' + d::INTEGER, '%Y-%m-%d') AS dt
   FROM b`,
  'dt',
  null,
);

// p4096: 64 days x 64 hours, 50 rows each.
await copy(
  'p4096',
  `SELECT (dd * 3200 + hh * 50 + k)::BIGINT AS id,
          ((dd * 3200 + hh * 50 + k) * 2654435761 % 1000)::INTEGER AS v,
          'row-' || ((dd * 3200 + hh * 50 + k) % 977)::VARCHAR AS s,
          strftime(DATE '2024-01-01' + dd::INTEGER, '%Y-%m-%d') AS dt,
          hh::INTEGER AS hr
   FROM range(64) a(dd), range(64) b(hh), range(50) c(k)`,
  'dt, hr',
  4096 * 50,
);

// lineitem: four lines per order; the ship day mixes the order number so
// every day (partition) gets a share of rows.  Written in batches of days of
// about flushRows / 2 rows (each batch scans the row numbers again, which
// costs little next to computing and writing the columns).
const days = 2526;
const perBatch = Math.max(1, Math.floor(days / Math.ceil((liRows * 2) / flushRows)));
const liBatches = [];
for (let lo = 0; lo < days; lo += perBatch)
  liBatches.push(`l_shipdate >= DATE '1992-01-02' + ${lo} AND l_shipdate < DATE '1992-01-02' + ${lo + perBatch}`);
await copy(
  'lineitem',
  `WITH g AS (
     SELECT i, i // 4 AS o, ((i // 4) * 48271 + (i % 4) * 7) % ${days} AS day
     FROM range(${liRows}) t(i)),
   v AS (
     SELECT i, o, day,
            (i * 7919 + 13) % ${partRows} + 1 AS partkey,
            (i * 2654435761) % 50 + 1 AS qty,
            DATE '1992-01-02' + day::INTEGER AS ship
     FROM g)
   SELECT (o * 3 + 1)::BIGINT AS l_orderkey,
          partkey::BIGINT AS l_partkey,
          ((i * 31) % 10000 + 1)::BIGINT AS l_suppkey,
          (i % 4 + 1)::INTEGER AS l_linenumber,
          qty::DECIMAL(15,2) AS l_quantity,
          (qty * (90000 + (partkey % 20001)) / 100)::DECIMAL(15,2) AS l_extendedprice,
          (((i * 40503) % 11) / 100)::DECIMAL(15,2) AS l_discount,
          (((i * 69069) % 9) / 100)::DECIMAL(15,2) AS l_tax,
          CASE WHEN ship + ((i * 13) % 30 + 1)::INTEGER <= DATE '1995-06-17'
               THEN (['R', 'A'])[(i * 7) % 2 + 1] ELSE 'N' END AS l_returnflag,
          CASE WHEN ship > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
          ship + ((i * 17) % 61 - 30)::INTEGER AS l_commitdate,
          ship + ((i * 13) % 30 + 1)::INTEGER AS l_receiptdate,
          (['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[(i * 3) % 4 + 1]
            AS l_shipinstruct,
          (['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[(i * 5) % 7 + 1]
            AS l_shipmode,
          (['carefully', 'quickly', 'furiously', 'slyly', 'blithely', 'ironic'])[(i * 11) % 6 + 1]
            || ' ' ||
          (['final', 'regular', 'special', 'pending', 'express', 'bold', 'even'])[(i * 13) % 7 + 1]
            || ' ' ||
          (['deposits', 'requests', 'packages', 'accounts', 'theodolites', 'pinto beans',
            'instructions', 'foxes'])[(i * 17) % 8 + 1]
            || ' ' ||
          (['sleep', 'wake', 'haggle', 'nag', 'use', 'boost', 'detect', 'integrate',
            'cajole'])[(i * 19) % 9 + 1] AS l_comment,
          ship AS l_shipdate
   FROM v`,
  'l_shipdate',
  liRows,
  liBatches,
);

await copy(
  'part',
  `SELECT p::BIGINT AS p_partkey,
          'part ' || p::VARCHAR AS p_name,
          'Brand#' || ((p % 5) + 1)::VARCHAR || ((p // 5) % 5 + 1)::VARCHAR AS p_brand,
          (['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'])[(p * 7) % 6 + 1]
            || ' ' ||
          (['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'])[(p * 3) % 5 + 1]
            AS p_type,
          ((p * 37) % 50 + 1)::INTEGER AS p_size,
          ((90000 + (p % 20001)) / 100)::DECIMAL(15,2) AS p_retailprice
   FROM range(1, ${partRows} + 1) t(p)`,
  null,
  partRows,
);

// blocks' size comes from its generator: count it (the others are exact).
const nb = await con.runAndReadAll(`SELECT count(*) FROM read_parquet('${out}/blocks/*/*.parquet')`);
info.tables.blocks.rows = Number(nb.getRows()[0][0]);
fs.rmSync(`${out}/.tmp`, { recursive: true, force: true });
info.duckdb_version = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
info.total_seconds = Number(
  Object.values(info.tables)
    .reduce((a, t) => a + t.seconds, 0)
    .toFixed(2),
);
fs.writeFileSync(`${out}/gen.json`, JSON.stringify(info, null, 2) + '\n');
console.log(`gen: done in ${info.total_seconds} s -> ${out}`);
