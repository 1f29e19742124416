// write_duckdb.mjs HIVELITE -- hivelite writes, DuckDB reads.
//   1. a Parquet table (ZSTD) partitioned by a string and an int key,
//      filled by a dynamic-partition INSERT with NULLs, decimals,
//      timestamps and a NULL key (default partition): DuckDB's
//      read_parquet(..., hive_partitioning) must return exactly the rows
//      inserted, with the partition values from the directory names;
//   2. a delimited text table (Ctrl-A fields, \N for NULL) read with
//      DuckDB's CSV reader: the same rows as hivelite's own SELECT.
// Exit 0 when both match.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) { console.error('usage: write_duckdb.mjs HIVELITE'); process.exit(2); }
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'write-duck-'));
const wh = path.join(dir, 'wh');
let failures = 0;

function hive(sql) {
  const r = spawnSync(hl, ['-w', wh, '--format', 'csv', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) { console.error(`hivelite failed: ${sql}\n${r.stderr}`); process.exit(1); }
  return r.stdout;
}

const show = (rows) => JSON.stringify(rows, (k, v) => (typeof v === 'bigint' ? v.toString() : v));

function same(what, got, want) {
  if (show(got) !== show(want)) {
    failures++;
    console.log(`FAIL ${what}\n  got:  ${show(got)}\n  want: ${show(want)}`);
  } else {
    console.log(`ok   ${what}`);
  }
}

hive(`CREATE TABLE pt (k INT, v STRING, d DECIMAL(10,2), ts TIMESTAMP)
      PARTITIONED BY (dt STRING, n INT) STORED AS PARQUET
      TBLPROPERTIES ('parquet.compression'='ZSTD')`);
hive(`INSERT INTO pt PARTITION (dt, n) VALUES
      (1, 'a', 1.5, TIMESTAMP '2024-01-01 10:00:00', 'x', 1),
      (2, NULL, NULL, NULL, 'y', 2),
      (3, 'c', -2.25, TIMESTAMP '1999-12-31 23:59:59.123456', 'x', 1),
      (4, 'd', 0.01, TIMESTAMP '2024-02-29 00:00:00', 'x', NULL)`);
hive(`CREATE TABLE stage (k INT, v STRING, d DECIMAL(10,2), ts TIMESTAMP)`);
hive(`INSERT INTO stage VALUES (1, 'a', 1.5, TIMESTAMP '2024-01-01 10:00:00'),
      (3, 'c', -2.25, TIMESTAMP '1999-12-31 23:59:59.123456')`);
hive(`INSERT INTO pt PARTITION (dt='x', n=1) SELECT k + 10, v, d, ts FROM stage`);

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (v === null ? null : String(v))));

same('parquet rows and partition values',
  await rows(`SELECT k, v, d::VARCHAR, ts::VARCHAR, dt, n FROM read_parquet('${wh}/pt/*/*/*.parquet',
              hive_partitioning = true, hive_types = {'dt': VARCHAR, 'n': VARCHAR}) ORDER BY k`),
  [['1', 'a', '1.50', '2024-01-01 10:00:00', 'x', '1'],
   ['2', null, null, null, 'y', '2'],
   ['3', 'c', '-2.25', '1999-12-31 23:59:59.123456', 'x', '1'],
   // DuckDB reads Hive's default partition directory as NULL
   ['4', 'd', '0.01', '2024-02-29 00:00:00', 'x', null],
   ['11', 'a', '1.50', '2024-01-01 10:00:00', 'x', '1'],
   ['13', 'c', '-2.25', '1999-12-31 23:59:59.123456', 'x', '1']]);
same('parquet column types',
  await rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${wh}/pt/dt=x/n=1/*.parquet', hive_partitioning = false))`),
  [['k', 'INTEGER'], ['v', 'VARCHAR'], ['d', 'DECIMAL(10,2)'], ['ts', 'TIMESTAMP']]);

hive(`CREATE TABLE tt (k INT, v STRING, b BOOLEAN, dd DATE)`);
hive(`INSERT INTO tt VALUES (1, 'x,y', true, DATE '2024-01-02'), (2, NULL, NULL, NULL), (3, '', false, DATE '1970-01-01')`);
const mine = hive('SELECT k, v, b, dd FROM tt ORDER BY k').trim().split('\n').slice(1);
same('text rows as hivelite reads them', mine, ['1,"x,y",true,2024-01-02', '2,,,', '3,"",false,1970-01-01']);
same('text read by DuckDB (\\001 fields, \\N for NULL)',
  await rows(`SELECT * FROM read_csv('${wh}/tt/*', delim = '\x01', header = false, nullstr = '\\N', quote = '',
              columns = {'k': 'INTEGER', 'v': 'VARCHAR', 'b': 'BOOLEAN', 'dd': 'DATE'}) ORDER BY k`),
  [['1', 'x,y', 'true', '2024-01-02'], ['2', null, null, null], ['3', '', 'false', '1970-01-01']]);

fs.rmSync(dir, { recursive: true, force: true });
console.log(failures ? `${failures} failures` : 'all ok');
process.exit(failures ? 1 : 0);
