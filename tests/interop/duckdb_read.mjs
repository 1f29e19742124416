// duckdb_read.mjs HIVELITE -- DuckDB writes, hivelite reads.
//   1. one file per codec (SNAPPY, ZSTD, GZIP, UNCOMPRESSED) of 10,000 rows
//      in row groups of 2,048 (the last one partial): nullable INT/BIGINT,
//      dictionary strings with NULLs, plain strings, doubles, booleans,
//      dates, decimals.  DuckDB pads the last bit-packed run of a page past
//      the page's values, which the reader must ignore (pq_rle.c).  Every
//      row read by hivelite through SELECT FROM parquet.`file` must equal
//      DuckDB's own rendering of the same file;
//   2. a directory written with PARTITION_BY: hivelite reads the key
//      directories as STRING columns and returns the same rows;
//   3. hivelite tables written with each parquet.compression read in
//      DuckDB with that codec recorded in the file, and the same rows.
// Exit 0 when everything matches.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) { console.error('usage: duckdb_read.mjs HIVELITE'); process.exit(2); }
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'duck-read-'));
const wh = path.join(dir, 'wh');
let failures = 0;

function hive(sql) {
  const r = spawnSync(hl, ['-w', wh, '--format', 'csv', '-c', sql],
                      { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) { console.error(`hivelite failed: ${sql}\n${r.stderr}`); process.exit(1); }
  return r.stdout.trimEnd().split('\n');
}

function same(what, got, want) {
  if (got.length !== want.length) {
    failures++;
    console.log(`FAIL ${what}: ${got.length} lines, want ${want.length}`);
    return;
  }
  for (let i = 0; i < got.length; i++) {
    if (got[i] !== want[i]) {
      failures++;
      console.log(`FAIL ${what}: line ${i}\n  got:  ${got[i]}\n  want: ${want[i]}`);
      return;
    }
  }
  console.log(`ok   ${what} (${got.length - 1} rows)`);
}

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run('SET threads = 1');
// Rows as hivelite's CSV prints them (values are chosen to need no quoting):
// header line, then NULL as an empty field.
async function csv(sql) {
  const res = await con.runAndReadAll(sql);
  const lines = [res.columnNames().join(',')];
  for (const r of res.getRows()) lines.push(r.map((v) => (v === null ? '' : String(v))).join(','));
  return lines;
}

const gen = `SELECT i::INT AS id,
    CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 7)::INT END AS n,
    CASE WHEN i % 7 = 0 THEN NULL ELSE i::BIGINT * 1000000007 END AS big,
    CASE WHEN i % 11 = 0 THEN NULL ELSE ['red', 'green', 'blue', 'cyan', 'magenta'][i % 5 + 1] END AS color,
    CASE WHEN i % 13 = 0 THEN NULL ELSE 'plain-' || (i * 31 % 9973) END AS s,
    i * 0.25 AS d,
    CASE WHEN i % 17 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
    DATE '2020-01-01' + (i % 1000)::INT AS dt,
    (i * 1.01)::DECIMAL(12, 2) AS dec
  FROM range(10000) t(i)`;
const cols = 'id, n, big, color, s, d, b, dt, dec';
// (ORDER BY t.id below: a bare id would be the VARCHAR alias)
const render = `id::VARCHAR AS id, n::VARCHAR AS n, big::VARCHAR AS big, color, s,
  d::VARCHAR AS d, b::VARCHAR AS b, dt::VARCHAR AS dt, dec::VARCHAR AS dec`;

for (const codec of ['SNAPPY', 'ZSTD', 'GZIP', 'UNCOMPRESSED']) {
  const f = path.join(dir, `duck_${codec}.parquet`);
  await con.run(`COPY (${gen}) TO '${f}' (FORMAT PARQUET, COMPRESSION ${codec}, ROW_GROUP_SIZE 2048)`);
  const rgs = (await csv(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${f}')`))[1];
  same(`${codec}: all rows (${rgs} row groups)`,
    hive(`SELECT ${cols} FROM parquet.\`${f}\` ORDER BY id`),
    await csv(`SELECT ${render} FROM read_parquet('${f}') t ORDER BY t.id`));
  // statistics-based skipping must not change results
  same(`${codec}: filtered`,
    hive(`SELECT id, color FROM parquet.\`${f}\` WHERE id BETWEEN 4000 AND 4100 AND color = 'blue' ORDER BY id`),
    await csv(`SELECT id::VARCHAR AS id, color FROM read_parquet('${f}') t WHERE t.id BETWEEN 4000 AND 4100 AND color = 'blue' ORDER BY t.id`));
  same(`${codec}: aggregates over nullable columns`,
    hive(`SELECT count(n), count(big), count(color), count(s), count(b), sum(n) FROM parquet.\`${f}\``),
    ['_c0,_c1,_c2,_c3,_c4,_c5',
      (await csv(`SELECT count(n), count(big), count(color), count(s), count(b), sum(n) FROM read_parquet('${f}')`))[1]]);
}

// a hive-partitioned directory; the keys read as STRING
const pdir = path.join(dir, 'parted');
await con.run(`COPY (SELECT *, (id % 3)::VARCHAR AS k1, CASE WHEN id % 2 = 0 THEN 'even' ELSE 'odd' END AS k2 FROM (${gen}))
               TO '${pdir}' (FORMAT PARQUET, PARTITION_BY (k1, k2), ROW_GROUP_SIZE 1000)`);
same('partitioned directory',
  hive(`SELECT ${cols}, k1, k2 FROM parquet.\`${pdir}\` ORDER BY id`),
  await csv(`SELECT ${render}, k1::VARCHAR AS k1, k2 FROM read_parquet('${pdir}/*/*/*.parquet', hive_partitioning = true) t ORDER BY t.id`));
same('partitioned directory, pruned',
  hive(`SELECT count(*), min(id), max(id) FROM parquet.\`${pdir}\` WHERE k1 = '2' AND k2 = 'odd'`),
  ['_c0,_c1,_c2', (await csv(`SELECT count(*), min(id), max(id) FROM (${gen}) WHERE id % 3 = 2 AND id % 2 = 1`))[1]]);

// hivelite writes each codec; DuckDB sees the codec and the same rows
const codecs = { SNAPPY: 'SNAPPY', ZSTD: 'ZSTD', GZIP: 'GZIP', LZ4_RAW: 'LZ4_RAW', UNCOMPRESSED: 'UNCOMPRESSED', BROTLI: 'BROTLI' };
const src = path.join(dir, 'duck_SNAPPY.parquet');
for (const [prop, name] of Object.entries(codecs)) {
  const t = `w_${prop.toLowerCase()}`;
  hive(`CREATE TABLE ${t} LIKE PARQUET '${src}' STORED AS PARQUET
        TBLPROPERTIES ('parquet.compression'='${prop}', 'parquet.block.size'='65536')`);
  hive(`INSERT INTO ${t} SELECT * FROM parquet.\`${src}\``);
  const glob = `${wh}/${t}/*.parquet`;
  same(`hivelite ${prop}: codec in the file`,
    await csv(`SELECT DISTINCT compression FROM parquet_metadata('${glob}')`), ['compression', name]);
  same(`hivelite ${prop}: rows read by DuckDB`,
    await csv(`SELECT ${render} FROM read_parquet('${glob}') t ORDER BY t.id`),
    await csv(`SELECT ${render} FROM read_parquet('${src}') t ORDER BY t.id`));
  same(`hivelite ${prop}: rows read by hivelite`,
    hive(`SELECT ${cols} FROM ${t} ORDER BY id`),
    await csv(`SELECT ${render} FROM read_parquet('${src}') t ORDER BY t.id`));
}

fs.rmSync(dir, { recursive: true, force: true });
console.log(failures ? `${failures} failures` : 'all ok');
process.exit(failures ? 1 : 0);
