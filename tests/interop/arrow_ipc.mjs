// arrow_ipc.mjs HIVELITE -- `hivelite --format arrow` read by the npm
// apache-arrow package (the reference JavaScript implementation of the
// Arrow IPC format).  For queries over every Hive type -- NULLs at every
// level, edge values, nested lists, maps and structs, a Parquet table and
// a text table of several record batches -- the stream must parse, its
// schema must carry the Arrow types include/hivelite.h documents, and
// every value, read from the arrays' own buffers (validity bits, offsets,
// values), must be exactly the one `--format json` prints for the same
// query: the Arrow values are formatted with hivelite's printing rules
// and compared with the JSON's text token for token.  Also: an empty
// result (schema, no batches) and a script of two queries (two streams).
// Exit 0 when everything matches.
import * as arrow from 'apache-arrow';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) {
  console.error('usage: arrow_ipc.mjs HIVELITE');
  process.exit(2);
}
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'arrow-ipc-'));
const wh = path.join(dir, 'wh');
let failures = 0;

function run(format, sql) {
  const r = spawnSync(hl, ['-w', wh, '--format', format, '-c', sql], {
    encoding: format === 'arrow' ? 'buffer' : 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) {
    console.error(`hivelite --format ${format} failed: ${sql}\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
}

function check(what, ok, detail) {
  if (ok) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}${detail ? `\n  ${detail}` : ''}`);
  }
}

// --- the JSON side: one flat object per line; each value's raw text

function jsonTokens(line) {
  const out = [];
  let i = 1; // after '{'
  const str = () => {
    const s = i;
    i++;
    while (line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
    i++;
    return line.slice(s, i);
  };
  while (line[i] !== '}') {
    const key = JSON.parse(str());
    i++; // ':'
    let tok;
    if (line[i] === '"') {
      tok = str();
    } else {
      const s = i;
      while (line[i] !== ',' && line[i] !== '}') i++;
      tok = line.slice(s, i);
    }
    out.push([key, tok]);
    if (line[i] === ',') i++;
  }
  return out;
}

// --- the Arrow side: values formatted as hivelite prints them

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isValid(d, i) {
  if (d.typeId === arrow.Type.Null) return false;
  if (!d.nullCount || !d.nullBitmap || d.nullBitmap.length === 0) return true;
  const j = d.offset + i;
  return (d.nullBitmap[j >> 3] & (1 << (j & 7))) !== 0;
}

function jsonString(s) {
  let o = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"') o += '\\"';
    else if (ch === '\\') o += '\\\\';
    else if (ch === '\n') o += '\\n';
    else if (ch === '\r') o += '\\r';
    else if (ch === '\t') o += '\\t';
    else if (ch === '\b') o += '\\b';
    else if (ch === '\f') o += '\\f';
    else if (c < 0x20) o += `\\u${c.toString(16).padStart(4, '0')}`;
    else o += ch;
  }
  return `${o}"`;
}

// Java's Double.toString of the shortest digits (hl_format_double)
function javaDouble(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x < 0 ? '-Infinity' : 'Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [m, e] = Math.abs(x).toExponential().split('e');
  const digits = m.replace('.', '');
  const exp = Number(e);
  const sign = x < 0 ? '-' : '';
  if (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e7) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${sign}${int}.${frac || '0'}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exp}`;
}

const pad = (n, w) => String(n).padStart(w, '0');

function civil(days) {
  // days since 1970-01-01 -> [y, m, d], proleptic Gregorian
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

function fmtDate(days) {
  const [y, m, d] = civil(days);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

function fmtTimestamp(micros) {
  const day = 86400000000n;
  let days = micros / day;
  let rem = micros % day;
  if (rem < 0n) {
    rem += day;
    days -= 1n;
  }
  const r = Number(rem);
  const secs = Math.floor(r / 1e6);
  const frac = r % 1e6;
  let s = `${fmtDate(Number(days))} ${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}`;
  if (frac) s += `.${pad(frac, 6).replace(/0+$/, '')}`;
  return s;
}

function fmtDecimal(d, i) {
  const w = d.values; // Uint32Array, four little-endian words a value
  const j = (d.offset + i) * 4;
  let v = 0n;
  for (let k = 3; k >= 0; k--) v = (v << 32n) | BigInt(w[j + k]);
  if (v >= 1n << 127n) v -= 1n << 128n;
  const neg = v < 0n;
  const scale = d.type.scale;
  let digits = (neg ? -v : v).toString().padStart(scale + 1, '0');
  if (scale) digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return (neg ? '-' : '') + digits;
}

function bytesOf(d, i) {
  const o = d.valueOffsets;
  return d.values.subarray(o[d.offset + i], o[d.offset + i + 1]);
}

// the text of row I of D: top level as hl_column_text, nested as Hive
// prints values inside complex ones
function fmt(d, i, nested) {
  if (!isValid(d, i)) return nested ? 'null' : null;
  const j = d.offset + i;
  const t = d.type;
  switch (d.typeId) {
    case arrow.Type.Bool:
      return (d.values[j >> 3] & (1 << (j & 7))) !== 0 ? 'true' : 'false';
    case arrow.Type.Int:
      return String(d.values[j]);
    case arrow.Type.Float:
      return javaDouble(d.values[j]);
    case arrow.Type.Decimal:
      return fmtDecimal(d, i);
    case arrow.Type.Utf8: {
      const s = utf8.decode(bytesOf(d, i));
      return nested ? jsonString(s) : s;
    }
    case arrow.Type.Binary:
      return utf8.decode(bytesOf(d, i));
    case arrow.Type.Date: {
      const s = fmtDate(d.values[j]);
      return nested ? `"${s}"` : s;
    }
    case arrow.Type.Timestamp: {
      const s = fmtTimestamp(BigInt(d.values[j]));
      return nested ? `"${s}"` : s;
    }
    case arrow.Type.List: {
      const o = d.valueOffsets;
      const items = [];
      for (let k = o[j]; k < o[j + 1]; k++) items.push(fmt(d.children[0], k, true));
      return `[${items.join(',')}]`;
    }
    case arrow.Type.Map: {
      const o = d.valueOffsets;
      const e = d.children[0];
      const items = [];
      for (let k = o[j]; k < o[j + 1]; k++) items.push(`${fmt(e.children[0], k, true)}:${fmt(e.children[1], k, true)}`);
      return `{${items.join(',')}}`;
    }
    case arrow.Type.Struct: {
      const items = t.children.map((f, c) => `${jsonString(f.name)}:${fmt(d.children[c], j, true)}`);
      return `{${items.join(',')}}`;
    }
    default:
      throw new Error(`unexpected Arrow type ${t}`);
  }
}

// compares one top-level value with the JSON token printed for it
function sameValue(d, i, tok) {
  const text = fmt(d, i, false);
  if (tok === 'null') return text === null;
  if (text === null) return false;
  if (d.typeId === arrow.Type.Float && tok[0] !== '"') {
    // the JSON prints the shortest text that reads back: read it back
    const v = d.values[d.offset + i];
    const back = Number(tok);
    return d.type.precision === arrow.Precision.SINGLE ? Math.fround(back) === v : back === v;
  }
  if (tok[0] === '"') return JSON.parse(tok) === text;
  return tok === text; // numbers and booleans, bare
}

// every row of TABLE against the JSON lines; returns the rows compared
function compare(what, table, jsonText) {
  const lines = jsonText.split('\n').filter((l) => l.length);
  let rows = 0;
  let bad = null;
  const cols = table.schema.fields.map((f, c) => table.getChildAt(c));
  let r = 0;
  for (const batch of table.batches) {
    for (let i = 0; i < batch.numRows; i++, r++) {
      const toks = jsonTokens(lines[r] ?? '{}');
      cols.forEach((col, c) => {
        const name = table.schema.fields[c].name;
        const d = batch.getChildAt(c).data[0];
        const tok = toks[c] && toks[c][0] === name ? toks[c][1] : undefined;
        if (!bad && (tok === undefined || !sameValue(d, i, tok)))
          bad = `row ${r} column ${name}: arrow ${JSON.stringify(fmt(d, i, false))}, json ${tok}`;
      });
      rows++;
    }
  }
  if (!bad && rows !== lines.length) bad = `${rows} rows in Arrow, ${lines.length} in JSON`;
  check(`${what} (${rows} rows, ${table.batches.length} batches)`, !bad, bad);
  return rows;
}

function both(what, sql, setup = '') {
  const json = run('json', setup + sql);
  const ipc = run('arrow', setup + sql);
  let table;
  try {
    table = arrow.tableFromIPC(ipc);
  } catch (e) {
    check(`${what}: the stream parses`, false, e.message);
    return null;
  }
  compare(what, table, json);
  return table;
}

const typeText = (f) => `${f.name}:${f.type}${f.nullable ? '' : ' not null'}`;

// ---- every type, NULLs at every level, from literals

const LITERALS = `
SELECT 1 AS k, true AS b, -128Y AS t, 32767S AS sm, -2147483648 AS i,
       9223372036854775807L AS l, CAST(1.1 AS FLOAT) AS f, 0.1D AS d,
       CAST(-12345678901234567890.125 AS DECIMAL(38,3)) AS dec,
       CAST(0.5 AS DECIMAL(3,2)) AS dsmall, 'héllo "q"\\t\\\\' AS str,
       CAST('vv' AS VARCHAR(5)) AS vc, CAST('c' AS CHAR(3)) AS ch,
       DATE '1969-12-31' AS dt, TIMESTAMP '1970-01-01 00:00:01.000002' AS ts,
       CAST('xyz' AS BINARY) AS bin, array(1, NULL, 3) AS arr,
       map('a', 1, 'b', NULL) AS m, map(7, 'seven') AS mi,
       named_struct('a', 1, 'b', 'x', 'c', array(DATE '2020-02-29')) AS st,
       array(map('k', named_struct('x', 1.5D, 'y', TIMESTAMP '2001-02-03 04:05:06.7'))) AS deep,
       array(CAST(1.25 AS DECIMAL(5,2)), NULL) AS adec, NULL AS n
UNION ALL
SELECT 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, CAST(NULL AS array<int>), CAST(NULL AS map<string,int>),
       CAST(NULL AS map<int,string>), CAST(NULL AS struct<a:int,b:string,c:array<date>>),
       CAST(NULL AS array<map<string,struct<x:double,y:timestamp>>>),
       CAST(NULL AS array<decimal(5,2)>), NULL
UNION ALL
SELECT 3, false, 127Y, -32768S, 2147483647, -9223372036854775807L, CAST(-3.4e38 AS FLOAT),
       -1e300D, CAST(-0.001 AS DECIMAL(38,3)), CAST(-9.99 AS DECIMAL(3,2)), '', CAST('' AS VARCHAR(5)),
       CAST('abcd' AS CHAR(3)), DATE '2024-02-29', TIMESTAMP '1969-12-31 23:59:59.5',
       CAST('' AS BINARY), CAST(array() AS array<int>), CAST(map() AS map<string,int>),
       map(-1, NULL), named_struct('a', CAST(NULL AS INT), 'b', NULL, 'c', CAST(NULL AS array<date>)),
       array(CAST(NULL AS map<string,struct<x:double,y:timestamp>>), map('z', CAST(NULL AS struct<x:double,y:timestamp>))),
       CAST(array() AS array<decimal(5,2)>), NULL
`;

const lit = both('literals, every type', `SELECT * FROM (${LITERALS}) u ORDER BY k`);
if (lit) {
  const want = [
    'k:Int32', 'b:Bool', 't:Int8', 'sm:Int16', 'i:Int32', 'l:Int64', 'f:Float32', 'd:Float64',
    'dec:Decimal[38e+3]', 'dsmall:Decimal[3e+2]', 'str:Utf8', 'vc:Utf8', 'ch:Utf8',
    'dt:Date32<DAY>', 'ts:Timestamp<MICROSECOND>', 'bin:Binary', 'arr:List<Int32>',
    'm:Map<{key:Utf8, value:Int32}>', 'mi:Map<{key:Int32, value:Utf8}>',
    'st:Struct<{a:Int32, b:Utf8, c:List<Date32<DAY>>}>',
    'deep:List<Map<{key:Utf8, value:Struct<{x:Float64, y:Timestamp<MICROSECOND>}>}>>',
    'adec:List<Decimal[5e+2]>', 'n:Null',
  ];
  const got = lit.schema.fields.map((f) => `${f.name}:${f.type}`);
  check('schema: the documented Arrow types', JSON.stringify(got) === JSON.stringify(want),
    `got ${JSON.stringify(got)}`);
  const m = lit.schema.fields.find((f) => f.name === 'm');
  const entries = m.type.children[0];
  const flags = [
    lit.schema.fields.every((f) => f.nullable),
    !entries.nullable,
    !entries.type.children[0].nullable,
    entries.type.children[1].nullable,
    m.type.keysSorted === false,
    lit.schema.fields.find((f) => f.name === 'ts').type.timezone == null,
  ];
  check('schema: nullability, map keys, no time zone', flags.every(Boolean), JSON.stringify(flags));
  // the edge values as numbers, not only as text
  const row0 = lit.get(0);
  check('int64 and decimal values exactly', row0.l === 9223372036854775807n &&
    fmtDecimal(lit.getChild('dec').data[0], 0) === '-12345678901234567890.125', `l=${row0.l}`);
}

// ---- a Parquet table: values as the scan's vectors hold them

run('csv', `CREATE TABLE pq (k INT, s STRING, dec DECIMAL(10,2), ts TIMESTAMP, a ARRAY<STRING>,
             m MAP<STRING,BIGINT>, st STRUCT<x:INT,y:STRING>) STORED AS PARQUET`);
run('csv', `INSERT INTO pq SELECT 1, 'one', 1.50, TIMESTAMP '2024-01-02 03:04:05', array('a', NULL),
             map('x', 10L), named_struct('x', 1, 'y', 'why')
           UNION ALL SELECT 2, NULL, NULL, NULL, NULL, NULL, NULL
           UNION ALL SELECT 3, 'three', -0.01, TIMESTAMP '1900-01-01 00:00:00', CAST(array() AS array<string>),
             map('p', NULL, 'q', -5L), named_struct('x', CAST(NULL AS INT), 'y', CAST(NULL AS STRING))`);
both('a Parquet table', 'SELECT * FROM pq ORDER BY k');
both('a Parquet table, filtered (selection vectors)', "SELECT k, s, a FROM pq WHERE k <> 2 ORDER BY k");

// ---- a text table over three files: several record batches

const textDir = path.join(dir, 'nums');
fs.mkdirSync(textDir, { recursive: true });
let v = 1;
for (let f = 0; f < 3; f++) {
  const lines = [];
  for (let r = 0; r < 3000; r++, v++) lines.push(`${v}\t${v % 3 === 0 ? '\\N' : `s${v}`}\t${v / 8}`);
  fs.writeFileSync(path.join(textDir, `part-${f}.txt`), `${lines.join('\n')}\n`);
}
run('csv', `CREATE EXTERNAL TABLE nums (v INT, s STRING, d DOUBLE) ROW FORMAT DELIMITED
            FIELDS TERMINATED BY '\\t' STORED AS TEXTFILE LOCATION '${textDir}'`);
const many = both('several batches', 'SELECT v, s, d FROM nums ORDER BY v',
  'SET hivelite.arrow.batch_rows=1000; ');
if (many) check('several batches: more than one RecordBatch', many.batches.length > 1,
  `${many.batches.length} batches`);
const one = both('one batch by default', 'SELECT v, s FROM nums ORDER BY v');
if (one) check('one batch by default: exactly one RecordBatch', one.batches.length === 1,
  `${one.batches.length} batches`);

// ---- an empty result: the schema alone

const empty = both('an empty result', 'SELECT v, s FROM nums WHERE v < 0');
if (empty) check('an empty result: schema, no rows', empty.numRows === 0 &&
  empty.schema.fields.map(typeText).join(',') === 'v:Int32,s:Utf8');

// ---- two queries: two streams, one after the other

{
  const ipc = run('arrow', "SELECT 1 AS a; CREATE DATABASE IF NOT EXISTS x; SELECT 'z' AS b, DATE '2000-01-01' AS c");
  const tables = [];
  try {
    for (const reader of arrow.RecordBatchReader.readAll(ipc)) tables.push(new arrow.Table(reader.readAll()));
  } catch (e) {
    check('two results: two streams', false, e.message);
  }
  const shape = tables.map((t) => `${t.schema.fields.map(typeText).join(',')}=${t.numRows}`);
  check('two results: two streams', JSON.stringify(shape) === JSON.stringify(['a:Int32=1', 'b:Utf8,c:Date32<DAY>=1']),
    JSON.stringify(shape));
}

fs.rmSync(dir, { recursive: true, force: true });
if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('all Arrow IPC streams read back as --format json prints them');
