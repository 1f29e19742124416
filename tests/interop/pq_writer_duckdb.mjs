// pq_writer_duckdb.mjs GEN -- round trip of the hivelite Parquet writer
// through DuckDB.  Runs GEN (pq_write_gen) into a temporary directory, then
// for every FILE.parquet it wrote:
//   1. DuckDB's column types must be the Hive types' counterparts (so the
//      logical types are read as meant: INT(8) -> TINYINT, TIMESTAMP without
//      UTC adjustment -> TIMESTAMP, DECIMAL(p,s), STRING -> VARCHAR, ...);
//   2. every value DuckDB reads must equal FILE.expect.jsonl (canonical
//      form documented in pq_write_gen.c: exact integers, decimals by
//      unscaled value, dates in days, timestamps in microseconds, floats
//      by value, strings and blobs byte for byte, nested values in order);
//   3. for integer and string columns, equality and range predicates must
//      count the same rows as the expected data, so row-group statistics
//      that DuckDB uses to skip data cannot be wrong without failing here.
// Exit 0 when every file passes.
import { DuckDBInstance, DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBListValue,
  DuckDBMapValue, DuckDBStructValue, DuckDBTimestampValue } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const gen = process.argv[2];
if (!gen || !fs.existsSync(gen)) { console.error('usage: pq_writer_duckdb.mjs PQ_WRITE_GEN'); process.exit(2); }
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'pqw-duck-'));
const g = spawnSync(gen, [dir], { encoding: 'utf8' });
if (g.status !== 0) { console.error(`pq_write_gen failed: ${g.stderr}`); process.exit(1); }

// Hive type text -> DuckDB type text.
function duckType(s) {
  let i = 0;
  const word = () => { const m = /^[a-z_0-9]+/i.exec(s.slice(i)); i += m[0].length; return m[0].toLowerCase(); };
  function type() {
    const id = word();
    let args = '';
    if (s[i] === '(') { const j = s.indexOf(')', i); args = s.slice(i, j + 1); i = j + 1; }
    const kids = [], names = [];
    if (s[i] === '<') {
      i++;
      for (;;) {
        if (id === 'struct') { const m = /^[^:]+/.exec(s.slice(i)); names.push(m[0]); i += m[0].length + 1; }
        kids.push(type());
        if (s[i++] === ',') continue;
        break;
      }
    }
    switch (id) {
      case 'boolean': return 'BOOLEAN';
      case 'tinyint': return 'TINYINT';
      case 'smallint': return 'SMALLINT';
      case 'int': return 'INTEGER';
      case 'bigint': return 'BIGINT';
      case 'float': return 'FLOAT';
      case 'double': return 'DOUBLE';
      case 'decimal': return `DECIMAL${args.replace(/\s/g, '')}`;
      case 'string': case 'varchar': case 'char': return 'VARCHAR';
      case 'binary': return 'BLOB';
      case 'date': return 'DATE';
      case 'timestamp': return 'TIMESTAMP';
      case 'array': return `${kids[0]}[]`;
      case 'map': return `MAP(${kids[0]}, ${kids[1]})`;
      case 'struct': return `STRUCT(${names.map((n, k) => `"${n}" ${kids[k]}`).join(', ')})`;
      default: return `?${id}`;
    }
  }
  return type();
}

// DuckDB value -> the canonical form of pq_write_gen.c.
const hex = (bytes) => Buffer.from(bytes).toString('hex');
function canon(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return v; // compared by value below
  if (typeof v === 'string') return 'x:' + hex(Buffer.from(v, 'utf8'));
  if (v instanceof DuckDBBlobValue) return 'x:' + hex(v.bytes);
  if (v instanceof DuckDBDecimalValue) return String(v.value);
  if (v instanceof DuckDBDateValue) return String(v.days);
  if (v instanceof DuckDBTimestampValue) return String(v.micros);
  if (v instanceof DuckDBListValue) return v.items.map(canon);
  if (v instanceof DuckDBStructValue) return Object.values(v.entries).map(canon);
  if (v instanceof DuckDBMapValue) return v.entries.map((e) => [canon(e.key), canon(e.value)]);
  return `?${typeof v}:${String(v)}`;
}

// Expected (from JSON) vs DuckDB canonical: null when equal, else where.
function diff(want, got, where) {
  if (want === null || got === null) return want === got ? null : `${where}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`;
  if (typeof got === 'number') {
    const w = want === 'nan' ? NaN : Number(want);
    if (Number.isNaN(w) && Number.isNaN(got)) return null;
    return w === got ? null : `${where}: want ${want} got ${got}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${where}: want ${JSON.stringify(want).slice(0, 200)} got ${JSON.stringify(got).slice(0, 200)}`;
    for (let k = 0; k < want.length; k++) { const d = diff(want[k], got[k], `${where}[${k}]`); if (d) return d; }
    return null;
  }
  return want === got ? null : `${where}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`;
}

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run("SET TimeZone='UTC'");
const q = (s) => s.replace(/'/g, "''");

async function count(file, where) {
  const r = await con.runAndReadAll(`SELECT count(*) FROM read_parquet('${q(file)}') WHERE ${where}`);
  return Number(r.getRows()[0][0]);
}

async function checkFile(base) {
  const file = path.join(dir, `${base}.parquet`);
  const lines = fs.readFileSync(path.join(dir, `${base}.expect.jsonl`), 'utf8').split('\n').filter((l) => l.length);
  const head = JSON.parse(lines[0]);
  const rows = lines.slice(1).map((l) => JSON.parse(l));
  let r;
  try {
    r = await con.runAndReadAll(`SELECT * FROM read_parquet('${q(file)}')`);
  } catch (e) { return `duckdb: ${String(e.message).split('\n')[0]}`; }
  const names = r.columnNames(), types = r.columnTypes().map(String);
  if (JSON.stringify(names) !== JSON.stringify(head.names)) return `names ${JSON.stringify(names)}`;
  for (let c = 0; c < names.length; c++)
    if (types[c] !== duckType(head.types[c])) return `column "${names[c]}": duckdb type ${types[c]}, want ${duckType(head.types[c])}`;
  const got = r.getRows();
  if (got.length !== rows.length) return `row count ${got.length}, want ${rows.length}`;
  for (let i = 0; i < rows.length; i++)
    for (let c = 0; c < names.length; c++) {
      const d = diff(rows[i][c], canon(got[i][c]), `row ${i} "${names[c]}"`);
      if (d) return d;
    }
  // Predicates over statistics: probe the smallest, largest and a middle
  // value of integer and string columns.
  for (let c = 0; c < names.length; c++) {
    const t = head.types[c];
    const isInt = /^(tinyint|smallint|int|bigint)$/.test(t), isStr = /^(string|varchar)/.test(t);
    if (!isInt && !isStr) continue;
    const vals = rows.map((row) => row[c]).filter((v) => v !== null);
    if (!vals.length) {
      if (await count(file, `"${names[c]}" IS NOT NULL`) !== 0) return `"${names[c]}" IS NOT NULL count`;
      continue;
    }
    const key = isInt ? (v) => BigInt(v) : (v) => Buffer.from(v.slice(2), 'hex');
    const cmp = (a, b) => isInt ? (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) : Buffer.compare(key(a), key(b));
    const sorted = [...vals].sort(cmp);
    const lit = (v) => isInt ? String(v) : `'${q(key(v).toString('utf8'))}'`;
    const probes = [sorted[0], sorted[sorted.length - 1], sorted[sorted.length >> 1]];
    for (const p of probes) {
      const wantEq = vals.filter((v) => cmp(v, p) === 0).length;
      const gotEq = await count(file, `"${names[c]}" = ${lit(p)}`);
      if (gotEq !== wantEq) return `"${names[c]}" = ${lit(p)}: ${gotEq} rows, want ${wantEq}`;
      const wantGe = vals.filter((v) => cmp(v, p) >= 0).length;
      const gotGe = await count(file, `"${names[c]}" >= ${lit(p)}`);
      if (gotGe !== wantGe) return `"${names[c]}" >= ${lit(p)}: ${gotGe} rows, want ${wantGe}`;
    }
    const wantNull = rows.length - vals.length;
    if (await count(file, `"${names[c]}" IS NULL`) !== wantNull) return `"${names[c]}" IS NULL count`;
  }
  return null;
}

let failures = 0, total = 0;
for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.parquet')).sort()) {
  const base = f.slice(0, -'.parquet'.length);
  total++;
  const res = await checkFile(base);
  if (res) failures++;
  console.log(`${res ? 'FAIL' : 'ok  '} ${f}${res ? ': ' + res : ''}`);
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(`${total - failures} of ${total} hivelite-written files read back identically by DuckDB`);
process.exit(failures || !total ? 1 : 0);
