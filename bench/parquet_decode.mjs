// parquet_decode.mjs HIVELITE [ROWS] -- Parquet decode throughput, hivelite
// against DuckDB (single-threaded: SET threads = 1) on the same snappy
// files written by DuckDB, one column kind per file: int64, double,
// dictionary strings, plain strings, nullable int64.  Each engine runs
// SELECT sum(c) (numbers) or max(c) (strings) FROM file, so every value
// is decoded (DuckDB answers count(c) from the statistics),
// best of 5; hivelite's time is its process minus an empty query's, so
// process start-up is not charged to the decoder.  Prints rows/s and the
// ratio hivelite/DuckDB (above 1: hivelite is faster).  Not a test.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
const rows = Number(process.argv[3] || 10000000);
if (!hl || !fs.existsSync(hl)) { console.error('usage: parquet_decode.mjs HIVELITE [ROWS]'); process.exit(2); }
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-decode-'));
const wh = path.join(dir, 'wh');
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run('SET threads = 1');

// [generator, aggregate]: an aggregate DuckDB cannot answer from the
// footer statistics (it does for count(c)), so every value is decoded
const kinds = {
  int64: [`(i * 2654435761) % 1000000000000`, 'sum(c)'],
  double: [`random()`, 'sum(c)'],
  dict_string: [`['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'][i % 8 + 1] || (i % 37)::VARCHAR`, 'max(c)'],
  plain_string: [`md5(i::VARCHAR)`, 'max(c)'],
  nullable_int64: [`CASE WHEN i % 4 = 0 THEN NULL ELSE i * 3 END`, 'sum(c)'],
};

function hiveMs(sql) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    const p = spawnSync(hl, ['-w', wh, '--format', 'csv', '-c', `SET hivelite.threads=1; ${sql}`], { encoding: 'utf8' });
    const t1 = process.hrtime.bigint();
    if (p.status !== 0) { console.error(p.stderr); process.exit(1); }
    best = Math.min(best, Number(t1 - t0) / 1e6);
  }
  return best;
}
async function duckMs(sql) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    await con.runAndReadAll(sql);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

const base = hiveMs('SELECT 1;');
console.log(`rows per file: ${rows}; hivelite start-up ${base.toFixed(1)} ms (subtracted)`);
console.log('kind             hivelite Mrows/s   DuckDB Mrows/s   ratio');
for (const [kind, [expr, agg]] of Object.entries(kinds)) {
  const f = path.join(dir, `${kind}.parquet`);
  await con.run(`COPY (SELECT ${expr} AS c FROM range(${rows}) t(i)) TO '${f}' (FORMAT PARQUET, COMPRESSION SNAPPY)`);
  const sql = `SELECT ${agg} FROM parquet.\`${f}\`;`;
  const h = spawnSync(hl, ['-w', wh, '--format', 'csv', '-c', sql], { encoding: 'utf8' }).stdout.split('\n')[1];
  const d = String((await con.runAndReadAll(`SELECT ${agg} FROM read_parquet('${f}')`)).getRows()[0][0]);
  if (Number(h) !== Number(d) && h !== d) { console.error(`${kind}: hivelite counts ${h}, DuckDB ${d}`); process.exit(1); }
  const hm = Math.max(hiveMs(sql) - base, 0.001);
  const dm = await duckMs(`SELECT ${agg} FROM read_parquet('${f}')`);
  const hr = rows / hm / 1000, dr = rows / dm / 1000;
  console.log(`${kind.padEnd(16)} ${hr.toFixed(1).padStart(16)} ${dr.toFixed(1).padStart(16)} ${(hr / dr).toFixed(2).padStart(7)}`);
}
fs.rmSync(dir, { recursive: true, force: true });
