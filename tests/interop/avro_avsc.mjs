// avro_avsc.mjs HIVELITE -- Avro tables against npm avsc, both ways.
//
//   (a) avsc writes object container files (codecs null, deflate and
//       snappy -- snappyjs with the codec's CRC-32 -- with small blocks, so
//       many of them) holding every Avro type, the logical types hivelite
//       reads (decimal on bytes and fixed, date, timestamp-millis,
//       timestamp-micros; implemented here as avsc logical types) and NULLs
//       in many patterns; hivelite reads them through an EXTERNAL table
//       whose columns come from avro.schema.literal, and its rows, in file
//       order, must equal avsc's own reading of the file formatted as
//       hivelite prints values -- also with two threads sharing the file;
//   (b) hivelite writes tables of every Hive type, with NULLs, in each codec
//       avsc reads (null, deflate, snappy), and avsc reads them: the
//       records must equal what was inserted, and what hivelite reads back;
//   (u) unions of several branches both ways, with avsc's wrapped unions
//       naming each value's branch: an avsc file reads as UNIONTYPE with
//       Hive's tags, and hivelite's UNIONTYPE columns are written in the
//       branch of each tag under Hive's derived schema.
//
// Longs are BigInts (avsc's LongType.__with), so values past 2^53 -- and
// timestamp-micros -- round-trip exactly.  zstandard, xz and bzip2 are
// left to interop.avro_python: avsc has no codec for them and Node.js 20
// has no zstandard, xz or bzip2.  avsc writes the header schema as its
// types export it, which drops the maxLength of the varchar string: the
// file's vc is a plain string the table reads as VARCHAR(6).  Exit 0 when
// everything matches (KEEP=1 keeps the files).
import avro from 'avsc';
import snappy from 'snappyjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) {
  console.error('usage: avro_avsc.mjs HIVELITE');
  process.exit(2);
}
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'avro-avsc-'));
const wh = path.join(dir, 'wh');
let failures = 0;

// hivelite's TSV output as latin1 text: BINARY values print as raw bytes
function hive(sql, ok = true) {
  const r = spawnSync(hl, ['-w', wh, '--format', 'tsv', '--no-header', '-c', sql], {
    encoding: 'latin1',
    maxBuffer: 1 << 28,
  });
  if (ok && r.status !== 0) {
    console.error(`hivelite failed: ${sql.slice(0, 300)}\n${r.stderr}`);
    process.exit(1);
  }
  return r;
}
const lines = (out) => out.split('\n').slice(0, -1);

function same(what, got, want) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) {
    failures++;
    let i = 0;
    while (i < got.length && i < want.length && JSON.stringify(got[i]) === JSON.stringify(want[i])) i++;
    console.log(`FAIL ${what} (${got.length} vs ${want.length} items; first difference at ${i})`);
    console.log(`  got:  ${JSON.stringify(got[i])}\n  want: ${JSON.stringify(want[i])}`);
  } else {
    console.log(`ok   ${what}`);
  }
}

// ---- avsc with BigInt longs and the logical types

const BIGLONG = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(n);
    return b;
  },
  fromJSON: (x) => BigInt(x),
  toJSON: (n) => Number(n),
  isValid: (n) => typeof n === 'bigint' && n >= -(1n << 63n) && n < 1n << 63n,
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

// Set while a logical type over a long builds its underlying type, so that
// the type hook hands it the BigInt long too.
let logicalLong = false;

function typeHook(schema) {
  if (schema === 'long') return BIGLONG;
  if (schema && typeof schema === 'object' && !Array.isArray(schema) && schema.type === 'long') {
    if (logicalLong || !(schema.logicalType in LOGICAL)) {
      logicalLong = false;
      return BIGLONG;
    }
  }
  return undefined;
}

const pad = (n, w) => String(n).padStart(w, '0');

// Two's complement big-endian bytes <-> BigInt
function bytesToBig(buf) {
  let v = 0n;
  for (const b of buf) v = (v << 8n) | BigInt(b);
  if (buf.length && buf[0] & 0x80) v -= 1n << BigInt(8 * buf.length);
  return v;
}
function bigToBytes(v, size) {
  let n = size;
  if (n === undefined) { // the fewest bytes that hold V
    n = 1;
    while (v < -(1n << BigInt(8 * n - 1)) || v >= 1n << BigInt(8 * n - 1)) n++;
  }
  const out = Buffer.alloc(n);
  let u = v < 0n ? v + (1n << BigInt(8 * n)) : v;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

// decimal: a string with exactly `scale` digits after the point, as hivelite prints it
class DecimalType extends avro.types.LogicalType {
  constructor(schema, opts) {
    super(schema, opts);
    this.precision = schema.precision;
    this.scale = schema.scale || 0;
    this.size = this.underlyingType.typeName === 'fixed' ? this.underlyingType.size : undefined;
  }
  _fromValue(buf) {
    const v = bytesToBig(buf);
    const neg = v < 0n;
    let s = (neg ? -v : v).toString().padStart(this.scale + 1, '0');
    if (this.scale) s = `${s.slice(0, -this.scale)}.${s.slice(-this.scale)}`;
    return (neg ? '-' : '') + s;
  }
  _toValue(str) {
    const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(str);
    const frac = (m[3] || '').padEnd(this.scale, '0');
    if (frac.length !== this.scale) throw new Error(`too many digits: ${str}`);
    const v = BigInt(m[2] + frac) * (m[1] ? -1n : 1n);
    return bigToBytes(v, this.size);
  }
  _resolve(type) {
    if (avro.Type.isType(type, 'logical:decimal') && type.scale === this.scale) return (x) => x;
    return undefined;
  }
  _export(attrs) {
    attrs.precision = this.precision;
    attrs.scale = this.scale;
  }
}

const DAY_MS = 86400000;
// date: 'YYYY-MM-DD'
class DateType extends avro.types.LogicalType {
  _fromValue(days) {
    return new Date(days * DAY_MS).toISOString().slice(0, 10);
  }
  _toValue(s) {
    return Math.round(Date.parse(`${s}T00:00:00Z`) / DAY_MS);
  }
  _resolve(type) {
    return avro.Type.isType(type, 'logical:date') ? (x) => x : undefined;
  }
}

// timestamps: 'YYYY-MM-DD HH:MM:SS[.fraction without trailing zeros]' of the
// UTC wall clock (hivelite applies no time zone), from BigInt counts
function tsClass(name, perSecond) {
  const per = BigInt(perSecond);
  const digits = String(perSecond).length - 1;
  return class extends avro.types.LogicalType {
    constructor(schema, opts) {
      logicalLong = true;
      super(schema, opts);
      logicalLong = false;
    }
    _fromValue(v) {
      let sec = v / per;
      let frac = v % per;
      if (frac < 0n) {
        frac += per;
        sec -= 1n;
      }
      const iso = new Date(Number(sec) * 1000).toISOString();
      let s = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
      if (frac) s += `.${pad(frac, digits)}`.replace(/0+$/, '');
      return s;
    }
    _toValue(s) {
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?$/.exec(s);
      const sec = BigInt(Date.parse(`${m[1]}T${m[2]}Z`) / 1000);
      return sec * per + BigInt((m[3] || '').padEnd(digits, '0') || '0');
    }
    _resolve(type) {
      return avro.Type.isType(type, `logical:${name}`) ? (x) => x : undefined;
    }
  };
}

const LOGICAL = {
  decimal: DecimalType,
  date: DateType,
  'timestamp-millis': tsClass('timestamp-millis', 1000),
  'timestamp-micros': tsClass('timestamp-micros', 1000000),
};
const TYPE_OPTS = () => ({ typeHook, logicalTypes: LOGICAL });
const typeOf = (schema) => avro.Type.forSchema(schema, TYPE_OPTS());

// CRC-32 (zlib's polynomial; zlib.crc32 needs Node.js 20.15)
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// the snappy codec: the block compressed, then the CRC-32 of the
// uncompressed bytes, big-endian
const CODECS_W = {
  null: (buf, cb) => cb(null, buf),
  deflate: zlib.deflateRaw,
  snappy: (buf, cb) => {
    const c = Buffer.from(snappy.compress(buf));
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(buf));
    cb(null, Buffer.concat([c, crc]));
  },
};
const CODECS_R = {
  null: (buf, cb) => cb(null, buf),
  deflate: zlib.inflateRaw,
  snappy: (buf, cb) => {
    try {
      const out = Buffer.from(snappy.uncompress(buf.subarray(0, buf.length - 4)));
      if (crc32(out) !== buf.readUInt32BE(buf.length - 4)) throw new Error('snappy CRC-32 mismatch');
      cb(null, out);
    } catch (e) {
      cb(e);
    }
  },
};

// Writes RECORDS as the schema SCHEMA (JSON) into FILE with CODEC.
function writeAvsc(file, schema, records, codec, blockSize) {
  return new Promise((resolve, reject) => {
    const enc = new avro.streams.BlockEncoder(typeOf(schema), { codec, codecs: CODECS_W, blockSize });
    const out = fs.createWriteStream(file);
    enc.on('error', reject);
    out.on('error', reject);
    out.on('finish', resolve);
    enc.pipe(out);
    for (const r of records) enc.write(r);
    enc.end();
  });
}

// Reads FILE with avsc: {type: the writer schema's type, codec, records}.
function readAvsc(file) {
  return new Promise((resolve, reject) => {
    const out = { type: null, codec: null, records: [] };
    const dec = new avro.streams.BlockDecoder({ codecs: CODECS_R, parseHook: (s) => typeOf(s) });
    dec.on('metadata', (type, codec) => {
      out.type = type;
      out.codec = codec;
    });
    dec.on('data', (r) => out.records.push(r));
    dec.on('error', reject);
    dec.on('end', () => resolve(out));
    fs.createReadStream(file).on('error', reject).pipe(dec);
  });
}

// ---- values as hivelite prints them (util/value.c, TSV), by avsc type

const u8 = (s) => Buffer.from(s, 'utf8').toString('latin1');

// Java's Double.toString, as hivelite prints doubles (finite values)
function javaDouble(d) {
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const a = Math.abs(d);
  if (a >= 1e-3 && a < 1e7) {
    const s = String(d);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mant, exp] = d.toExponential().split('e');
  return `${mant.includes('.') ? mant : `${mant}.0`}E${Number(exp)}`;
}

function fmt(t, v, top) {
  if (v === null || v === undefined) return top ? 'NULL' : 'null';
  const n = t.typeName;
  if (n.startsWith('union')) return fmt(t.types.find((x) => x.typeName !== 'null'), v, top);
  if (n.startsWith('logical:')) return u8(v); // top-level columns only here
  switch (n) {
    case 'boolean':
    case 'int':
      return String(v);
    case 'abstract:long':
      return v.toString();
    case 'float':
    case 'double':
      return javaDouble(v);
    case 'string':
    case 'enum':
      return u8(top ? v : JSON.stringify(v));
    case 'bytes':
    case 'fixed':
      return v.toString('latin1');
    case 'array':
      return `[${v.map((x) => fmt(t.itemsType, x, false)).join(',')}]`;
    case 'map':
      return `{${Object.keys(v).map((k) => `${u8(JSON.stringify(k))}:${fmt(t.valuesType, v[k], false)}`).join(',')}}`;
    case 'record':
      return `{${t.fields.map((f) => `${u8(JSON.stringify(f.name))}:${fmt(f.type, v[f.name], false)}`).join(',')}}`;
    default:
      throw new Error(`no format for ${n}`);
  }
}
const row = (t, r) => t.fields.map((f) => fmt(f.type, r[f.name], true)).join('\t');
const sqlStr = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

// ---- (a) avsc writes, hivelite reads

const ALL = {
  type: 'record',
  name: 'All',
  namespace: 't.avsc',
  fields: [
    { name: 'b', type: ['null', 'boolean'] },
    { name: 'i', type: ['int', 'null'] },
    { name: 'l', type: ['null', 'long'] },
    { name: 'f', type: ['null', 'float'] },
    { name: 'd', type: ['null', 'double'] },
    { name: 's', type: ['null', 'string'] },
    { name: 'by', type: ['null', 'bytes'] },
    { name: 'e', type: ['null', { type: 'enum', name: 'Suit', symbols: ['HEARTS', 'SPADES', 'CLUBS'] }] },
    { name: 'fx', type: ['null', { type: 'fixed', name: 'F3', size: 3 }] },
    { name: 'dec', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 20, scale: 4 }] },
    {
      name: 'decf',
      type: ['null', { type: 'fixed', name: 'D9', size: 9, logicalType: 'decimal', precision: 20, scale: 2 }],
    },
    { name: 'dt', type: ['null', { type: 'int', logicalType: 'date' }] },
    { name: 'tsm', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }] },
    { name: 'tsu', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
    { name: 'vc', type: ['null', { type: 'string', logicalType: 'varchar', maxLength: 6 }] },
    { name: 'arr', type: ['null', { type: 'array', items: ['null', 'long'] }] },
    { name: 'm', type: ['null', { type: 'map', values: ['null', 'double'] }] },
    {
      name: 'rec',
      type: [
        'null',
        {
          type: 'record',
          name: 'Inner',
          fields: [
            { name: 'x', type: 'int' },
            { name: 'y', type: ['null', 'string'] },
            { name: 'z', type: { type: 'array', items: 'float' } },
          ],
        },
      ],
    },
    { name: 'req', type: 'string' },
    { name: 'reql', type: 'long' },
    { name: 'reqb', type: 'bytes' },
  ],
};
const NULLABLE = ALL.fields.filter((f) => Array.isArray(f.type)).map((f) => f.name);

const LONGS = [0n, 1n, -1n, (1n << 53n) + 1n, -(1n << 63n), (1n << 63n) - 1n, 1234567890123456789n];
const DOUBLES = [0.5, -1.25, 1e300, -2.5e-8, 123456789.125, 1e-3, 9999999.5];

function allRecord(k) {
  const r = {
    b: k % 2 === 0,
    i: k * 7 - 1000,
    l: LONGS[k % LONGS.length] || BigInt(k) * 3n,
    f: k % 2 ? 0.5 + k : -0.25 - k,
    d: DOUBLES[k % DOUBLES.length] * (k % 3 ? 1 : -1),
    s: `s,${k} ué€`,
    by: Buffer.from([65 + (k % 26), 0x80 + (k % 64), 1]),
    e: ['HEARTS', 'SPADES', 'CLUBS'][k % 3],
    fx: Buffer.from([1, 0xfe, 65 + (k % 26)]),
    dec: `${k % 2 ? '-' : ''}${k * 1013}.${pad(k % 10000, 4)}`,
    decf: `${k % 3 ? '' : '-'}${BigInt(k) * 1000000000007n}.${pad(k % 100, 2)}`,
    dt: new Date(Date.UTC(1969, 11, 20) + k * 3 * DAY_MS).toISOString().slice(0, 10),
    tsm: `${new Date(Date.UTC(2024, 1, 29, 23, 59, 58) + k * 1001).toISOString().slice(0, 10)} ${new Date(Date.UTC(2024, 1, 29, 23, 59, 58) + k * 1001).toISOString().slice(11, 23)}`.replace(/\.?0+$/, ''),
    tsu: `${new Date(Date.UTC(1901, 0, 1) + k * 60000).toISOString().slice(0, 10)} ${new Date(Date.UTC(1901, 0, 1) + k * 60000).toISOString().slice(11, 19)}.${pad((k * 37) % 1000000, 6)}`.replace(/\.?0+$/, ''),
    vc: `v${k % 1000}`,
    arr: k % 3 ? [BigInt(k), null, -(1n << 60n) - BigInt(k)] : [],
    m: k % 2 ? { a: k + 0.5, b: null } : {},
    rec: { x: k, y: k % 2 ? null : `y${k}`, z: [0.5, k + 0.25] },
    req: `r${k}`,
    reql: -(BigInt(k) << 40n),
    reqb: Buffer.from([k % 7]),
  };
  // every nullable field NULL in every 4th row; otherwise field j is NULL
  // in rows where (7k + 3j) % 11 == 0, so that the rows hold many patterns
  NULLABLE.forEach((name, j) => {
    if (k % 4 === 3 || (7 * k + 3 * j) % 11 === 0) r[name] = null;
  });
  return r;
}

const schemaText = JSON.stringify(ALL);
const N_A = { null: 3000, deflate: 2000, snappy: 2000 };
for (const codec of ['null', 'deflate', 'snappy']) {
  const d = path.join(dir, `a_${codec}`);
  fs.mkdirSync(d);
  const file = path.join(d, 'part-0.avro');
  const recs = Array.from({ length: N_A[codec] }, (_, k) => allRecord(k));
  await writeAvsc(file, ALL, recs, codec, 8192);
  const back = await readAvsc(file);
  same(`(a) ${codec}: avsc reads its own file`, back.records.length, recs.length);
  const want = back.records.map((r) => row(back.type, r));
  hive(`CREATE EXTERNAL TABLE a_${codec} STORED AS AVRO LOCATION '${d}'
        TBLPROPERTIES ('avro.schema.literal'=${sqlStr(schemaText)})`);
  same(`(a) ${codec}: hivelite reads avsc's rows, in file order`,
    lines(hive(`SET hivelite.threads=1; SELECT * FROM a_${codec}`).stdout), want);
  same(`(a) ${codec}: two threads sharing the file read the same`,
    lines(hive(`SET hivelite.threads=2; SET hivelite.scan.split.size=1; SELECT * FROM a_${codec}`).stdout), want);
  same(`(a) ${codec}: count(*)`, hive(`SELECT count(*) FROM a_${codec}`).stdout.trim(), String(recs.length));
  const sel = recs.filter((r) => r.b === true);
  same(`(a) ${codec}: a filtered aggregate over longs past 2^53`,
    hive(`SELECT count(*), sum(i), count(l), sum(reql) FROM a_${codec} WHERE b`).stdout.trim(),
    [sel.length, sel.reduce((a, r) => a + (r.i ?? 0), 0), sel.filter((r) => r.l !== null).length,
      sel.reduce((a, r) => a + r.reql, 0n)].join('\t'));
}
same('(a) DESCRIBE: the types from the schema',
  lines(hive('DESCRIBE a_null').stdout).map((l) => l.split('\t').slice(0, 2).join(' ')),
  ['b boolean', 'i int', 'l bigint', 'f float', 'd double', 's string', 'by binary', 'e string', 'fx binary',
    'dec decimal(20,4)', 'decf decimal(20,2)', 'dt date', 'tsm timestamp', 'tsu timestamp', 'vc varchar(6)',
    'arr array<bigint>', 'm map<string,double>', 'rec struct<x:int,y:string,z:array<float>>', 'req string',
    'reql bigint', 'reqb binary']);

// ---- (b) hivelite writes, avsc reads

const HIVE_COLS = 'b BOOLEAN, ti TINYINT, si SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, s STRING, '
  + 'vc VARCHAR(4), c CHAR(3), bi BINARY, dec DECIMAL(20,4), dt DATE, ts TIMESTAMP, '
  + 'arr ARRAY<STRING>, m MAP<STRING,BIGINT>, st STRUCT<p:INT,q:ARRAY<DOUBLE>>';
const HIVE_ROWS = [
  "(true, 1, 300, 70000, 9007199254740993, 1.5, -2.25, 'a' 'b,c', 'abcdef', 'x', CAST('bin' AS BINARY), "
  + "12345678.9012, '2001-09-09', '2001-09-09 01:46:40.123', array('p', NULL), map('k', 1, 'n', NULL), "
  + "named_struct('p', 5, 'q', array(0.5)))",
  '(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)',
  "(false, -128, -32768, -2147483648, -9223372036854775808, -0.5, 1e300, '', '', '', CAST('' AS BINARY), "
  + "-0.0001, '1900-01-01', '1900-01-01 00:00:00', array(), map(), named_struct('p', NULL, 'q', NULL))",
  "(NULL, 7, NULL, 8, 9223372036854775807, NULL, 2.5e-8, 'ué', NULL, 'é', NULL, 0, '2262-04-11', "
  + "'1969-12-31 23:59:59.999', array(NULL), map('x', -9223372036854775808), named_struct('p', -1, 'q', array()))",
];
// what avsc must read, as hivelite prints it (timestamps are millisecond
// precision, as Hive writes them)
const HIVE_WANT = [
  ['true', '1', '300', '70000', '9007199254740993', '1.5', '-2.25', 'ab,c', 'abcd', 'x  ', 'bin',
    '12345678.9012', '2001-09-09', '2001-09-09 01:46:40.123', '["p",null]', '{"k":1,"n":null}',
    '{"p":5,"q":[0.5]}'],
  Array(17).fill('NULL'),
  ['false', '-128', '-32768', '-2147483648', '-9223372036854775808', '-0.5', '1.0E300', '', '', '   ', '',
    '-0.0001', '1900-01-01', '1900-01-01 00:00:00', '[]', '{}', '{"p":null,"q":null}'],
  ['NULL', '7', 'NULL', '8', '9223372036854775807', 'NULL', '2.5E-8', 'ué', 'NULL', 'é  ', 'NULL',
    '0.0000', '2262-04-11', '1969-12-31 23:59:59.999', '[null]', '{"x":-9223372036854775808}',
    '{"p":-1,"q":[]}'],
].map((r) => u8(r.join('\t')));

// the records of every data file of TABLE, in file-name order
async function readTable(table) {
  const d = path.join(wh, table);
  const files = fs.readdirSync(d).filter((f) => !f.startsWith('.') && !f.startsWith('_')).sort();
  const out = { codecs: [], rows: [], records: [], type: null };
  for (const f of files) {
    try {
      const r = await readAvsc(path.join(d, f));
      out.codecs.push(r.codec);
      out.type = r.type;
      out.records.push(...r.records);
      out.rows.push(...r.records.map((x) => row(r.type, x)));
    } catch (e) {
      failures++;
      console.log(`FAIL ${table}/${f}: avsc: ${e.message}`);
    }
  }
  return out;
}

for (const codec of ['null', 'deflate', 'snappy']) {
  hive(`CREATE TABLE b_${codec} (${HIVE_COLS}) STORED AS AVRO TBLPROPERTIES ('avro.output.codec'='${codec}')`);
  hive(`INSERT INTO b_${codec} VALUES ${HIVE_ROWS.join(', ')}`);
  const got = await readTable(`b_${codec}`);
  same(`(b) ${codec}: the files say their codec`, got.codecs, [codec]);
  same(`(b) ${codec}: avsc reads what was inserted`, got.rows, HIVE_WANT);
  same(`(b) ${codec}: ... and what hivelite reads back`, lines(hive(`SELECT * FROM b_${codec}`).stdout), HIVE_WANT);
}

// many rows in many blocks: hivelite -> avsc, longs past 2^53
hive(`CREATE TABLE src (id BIGINT) STORED AS TEXTFILE`);
fs.writeFileSync(path.join(wh, 'src', 'rows.txt'), Array.from({ length: 60000 }, (_, i) => `${i}\n`).join(''));
for (const codec of ['deflate', 'snappy']) {
  hive(`CREATE TABLE big_${codec} (k BIGINT, s STRING, n DOUBLE) STORED AS AVRO
        TBLPROPERTIES ('avro.output.codec'='${codec}')`);
  hive(`INSERT INTO big_${codec} SELECT id * 1000000000000 + 1, concat('row', CAST(id AS STRING)),
        CASE WHEN id % 3 = 0 THEN NULL ELSE id / 4 END FROM src`);
  const got = await readTable(`big_${codec}`);
  const ks = got.records.map((r) => r.k);
  const want = Array.from({ length: 60000 }, (_, i) => BigInt(i) * 1000000000000n + 1n);
  same(`(b) ${codec}: avsc reads 60000 rows of many blocks`, ks.length, 60000);
  same(`(b) ${codec}: ... every long exactly, in order`, ks.map(String), want.map(String));
  same(`(b) ${codec}: ... and the NULLs`, got.records.filter((r) => r.n === null).length, 20000);
}

// ---- (u) unions of several branches, with avsc's wrapped unions ({branch: value}) so that the
// branch of each value is explicit (int or long, float or double: what python3-avro cannot tell)

const WRAPPED = () => ({ ...TYPE_OPTS(), wrapUnions: true });
function readWrapped(file) {
  return new Promise((resolve, reject) => {
    const out = { schema: null, records: [] };
    const dec = new avro.streams.BlockDecoder({ codecs: CODECS_R, parseHook: (s) => avro.Type.forSchema(s, WRAPPED()) });
    dec.on('metadata', (type) => { out.schema = type.schema(); });
    dec.on('data', (r) => out.records.push(r));
    dec.on('error', reject);
    dec.on('end', () => resolve(out));
    fs.createReadStream(file).on('error', reject).pipe(dec);
  });
}
const big = (x) => JSON.parse(JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? `${v}n` : v)));

const U = {
  type: 'record', name: 'U', namespace: 't.js',
  fields: [
    { name: 'k', type: 'int' },
    { name: 'a', type: ['null', 'int', 'long'] },
    { name: 'b', type: ['float', 'double', 'string'] },
    { name: 'c', type: { type: 'array', items: ['null', { type: 'enum', name: 'E', symbols: ['X', 'Y'] }, 'boolean'] } },
    { name: 'd', type: { type: 'map', values: ['long', 'null', { type: 'record', name: 'P', fields: [{ name: 'q', type: 'int' }] }] } },
  ],
};
const U_RECS = [
  { k: 1, a: { int: 5 }, b: { float: 1.5 }, c: [null, { 't.js.E': 'Y' }, { boolean: false }], d: { x: { long: 1n << 60n } } },
  { k: 2, a: { long: 5n }, b: { double: 1.5 }, c: [], d: { n: null, p: { 't.js.P': { q: -3 } } } },
  { k: 3, a: null, b: { string: 's' }, c: [{ 't.js.E': 'X' }], d: {} },
];
const U_ROWS = [
  '1\t{0:5}\t{0:1.5}\t[null,{0:"Y"},{1:false}]\t{"x":{0:1152921504606846976}}',
  '2\t{1:5}\t{1:1.5}\t[]\t{"n":null,"p":{1:{"q":-3}}}',
  '3\tNULL\t{2:"s"}\t[{0:"X"}]\t{}',
];
{
  const d = path.join(dir, 'u_avsc');
  fs.mkdirSync(d);
  await new Promise((resolve, reject) => {
    const enc = new avro.streams.BlockEncoder(avro.Type.forSchema(U, WRAPPED()), { codec: 'deflate', codecs: CODECS_W });
    const out = fs.createWriteStream(path.join(d, 'f.avro'));
    enc.on('error', reject);
    out.on('finish', resolve);
    enc.pipe(out);
    for (const r of U_RECS) enc.write(r);
    enc.end();
  });
  hive(`CREATE EXTERNAL TABLE u_avsc STORED AS AVRO LOCATION '${d}' TBLPROPERTIES ('avro.schema.literal'=${sqlStr(JSON.stringify(U))})`);
  same('(u) avsc unions read by hivelite (tags: the branches other than null)', lines(hive('SELECT * FROM u_avsc ORDER BY k').stdout), U_ROWS);
  same('(u) ... DESCRIBE', lines(hive('DESCRIBE u_avsc').stdout).map((l) => l.split('\t')[1]),
    ['int', 'uniontype<int,bigint>', 'uniontype<float,double,string>', 'array<uniontype<string,boolean>>',
      'map<string,uniontype<bigint,struct<q:int>>>']);

  // hivelite writes UNIONTYPE columns, avsc reads the branch of each value
  hive(`CREATE TABLE u_hl (k INT, a UNIONTYPE<INT, BIGINT>, b UNIONTYPE<FLOAT, DOUBLE, STRING>, c ARRAY<UNIONTYPE<BOOLEAN, STRING>>) STORED AS AVRO TBLPROPERTIES ('avro.output.codec'='snappy')`);
  hive(`INSERT INTO u_hl VALUES (1, create_union(0, 5, 5L), create_union(0, CAST(1.5 AS FLOAT), 1.5D, 's'), array(create_union(0, true, 'x'), NULL)),
        (2, create_union(1, 5, 9223372036854775807L), create_union(1, CAST(1.5 AS FLOAT), 1.5D, 's'), array(create_union(1, true, 'x'))),
        (3, NULL, create_union(2, CAST(1.5 AS FLOAT), 1.5D, 's'), NULL)`);
  const hd = path.join(wh, 'u_hl');
  const recs = [];
  let schema = null;
  for (const f of fs.readdirSync(hd).filter((x) => !x.startsWith('.') && !x.startsWith('_')).sort()) {
    const r = await readWrapped(path.join(hd, f));
    schema = r.schema;
    recs.push(...r.records);
  }
  recs.sort((x, y) => x.k.int - y.k.int);
  same('(u) the derived schema: Hive\'s ["null", alternatives...]', schema.fields.map((f) => f.type), [
    ['null', 'int'], ['null', 'int', 'long'], ['null', 'float', 'double', 'string'],
    ['null', { type: 'array', items: ['null', 'boolean', 'string'] }]]);
  same('(u) avsc reads each value in the branch of its tag', big(recs), big([
    { k: { int: 1 }, a: { int: 5 }, b: { float: 1.5 }, c: { array: [{ boolean: true }, null] } },
    { k: { int: 2 }, a: { long: 9223372036854775807n }, b: { double: 1.5 }, c: { array: [{ string: 'x' }] } },
    { k: { int: 3 }, a: null, b: { string: 's' }, c: null },
  ]));
}

if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('ok: avsc interop (codecs null, deflate, snappy; both directions)');
