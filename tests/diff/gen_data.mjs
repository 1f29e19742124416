// gen_data.mjs -- deterministic datasets for the differential suite.
//
// Writes text files that hivelite (as Hive text tables) and DuckDB (through
// read_csv / read_json with explicit column types) read identically, plus
// the two setup scripts that declare them:
//   OUT/data/<table>/...        the files (tab-separated, \N for NULL,
//                               except csv_t and json_t)
//   OUT/hive_setup.sql          CREATE EXTERNAL TABLE ... LOCATION, ADD PARTITION
//   OUT/duck_setup.sql          CREATE TABLE <name> AS SELECT * FROM read_csv(...)
// Everything comes from one seeded PRNG, so every run sees the same rows.
// Values stay inside ranges where Hive and DuckDB agree on purpose: no
// integer sum can overflow, no NaN/Infinity/-0.0, strings without tab,
// newline or backslash (the delimited tables have no escaping).
//
// Usage: node gen_data.mjs OUTDIR   (also imported by run_diff.mjs)

import fs from 'node:fs';
import path from 'node:path';

// mulberry32: small, fast and good enough for test data.
function make_rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

const NULL = null;
const pad = (n, w = 2) => String(n).padStart(w, '0');

function fmt_date(days) {
  const d = new Date(days * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
const day_of = (s) => Math.round(Date.parse(s + 'T00:00:00Z') / 86400000);

// A decimal with `scale` digits from an integer count of units.
function fmt_dec(units, scale) {
  const neg = units < 0n;
  let s = (neg ? -units : units).toString().padStart(scale + 1, '0');
  if (scale > 0) s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  return (neg ? '-' : '') + s;
}

// Table definitions: [name, hive type, duckdb type].
const T_ALL_COLS = [
  ['id', 'INT', 'INTEGER'],
  ['flag', 'BOOLEAN', 'BOOLEAN'],
  ['tiny', 'TINYINT', 'TINYINT'],
  ['small', 'SMALLINT', 'SMALLINT'],
  ['num', 'INT', 'INTEGER'],
  ['big', 'BIGINT', 'BIGINT'],
  ['dbl', 'DOUBLE', 'DOUBLE'],
  ['amt', 'DECIMAL(12,2)', 'DECIMAL(12,2)'],
  ['prec', 'DECIMAL(18,6)', 'DECIMAL(18,6)'],
  ['name', 'STRING', 'VARCHAR'],
  ['cat', 'STRING', 'VARCHAR'],
  ['day', 'DATE', 'DATE'],
  ['ts', 'TIMESTAMP', 'TIMESTAMP'],
];
const DIM_COLS = [
  ['k', 'INT', 'INTEGER'],
  ['label', 'STRING', 'VARCHAR'],
  ['weight', 'DOUBLE', 'DOUBLE'],
  ['grp', 'STRING', 'VARCHAR'],
  ['price', 'DECIMAL(8,3)', 'DECIMAL(8,3)'],
];
const SMALL_COLS = [
  ['sid', 'INT', 'INTEGER'],
  ['sname', 'STRING', 'VARCHAR'],
  ['sflag', 'BOOLEAN', 'BOOLEAN'],
];
const EMPTY_COLS = [
  ['k', 'INT', 'INTEGER'],
  ['label', 'STRING', 'VARCHAR'],
  ['weight', 'DOUBLE', 'DOUBLE'],
];
const PART_COLS = [
  ['id', 'BIGINT', 'BIGINT'],
  ['uid', 'INT', 'INTEGER'],
  ['amount', 'DECIMAL(10,2)', 'DECIMAL(10,2)'],
  ['score', 'DOUBLE', 'DOUBLE'],
  ['tag', 'STRING', 'VARCHAR'],
  ['ok', 'BOOLEAN', 'BOOLEAN'],
];
const PART_KEYS = [
  ['dt', 'DATE', 'DATE'],
  ['hr', 'INT', 'INTEGER'],
];
const CSV_COLS = [
  ['id', 'INT', 'INTEGER'],
  ['txt', 'STRING', 'VARCHAR'],
  ['val', 'DOUBLE', 'DOUBLE'],
];
const JSON_COLS = [
  ['id', 'INT', 'INTEGER'],
  ['name', 'STRING', 'VARCHAR'],
  ['score', 'DOUBLE', 'DOUBLE'],
  ['qty', 'BIGINT', 'BIGINT'],
  ['active', 'BOOLEAN', 'BOOLEAN'],
];

const WORDS = ['alpha', 'Bravo', 'charlie', 'delta', 'Echo', 'foxtrot', 'golf', 'hotel', 'india',
  'juliet', 'kilo', 'Lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra',
  'tango', 'a%b', 'x_y', 'O\'Brien', 'café', '日本', 'zulu 9', '  padded  ', 'UPPER', 'mixedCase',
  '123', '-4.5', 'a,b', 'q"uote'];
const CATS = ['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'b', 'b', 'b', 'b', 'c', 'c', 'd',
  'e', 'f', 'g', 'h', 'i', 'j'];

function gen_t_all(rng, n) {
  const rows = [];
  const d0 = day_of('2020-01-01');
  const special_days = ['1970-01-01', '1969-12-31', '2000-02-29', '2024-02-29', '1999-12-31'];
  for (let id = 1; id <= n; id++) {
    const nul = (p = 0.1) => rng.chance(p);
    const flag = nul() ? NULL : rng.chance(0.6);
    const tiny = nul() ? NULL : rng.chance(0.05) ? rng.pick([-128, 127, 0]) : rng.int(-100, 100);
    // skewed: 30% are 7, the rest a spread that half overlaps dim.k
    const small = nul() ? NULL : rng.chance(0.3) ? 7 : rng.int(-50, 200);
    const num = nul()
      ? NULL
      : rng.chance(0.05)
        ? 0
        : rng.chance(0.2)
          ? rng.int(-10, 10)
          : rng.int(-1000000, 1000000);
    const big = nul()
      ? NULL
      : rng.chance(0.02)
        ? rng.pick([-9000000000000, 9000000000000])
        : rng.int(-2000000, 2000000) * 1000003;
    const dbl = nul()
      ? NULL
      : rng.chance(0.05)
        ? 0
        : rng.chance(0.1)
          ? rng.int(-20, 20)
          : Math.round((rng.next() - 0.4) * 2e8) / 1e5;
    const amt = nul() ? NULL : fmt_dec(BigInt(rng.int(-9999999, 9999999)), 2);
    const prec = nul()
      ? NULL
      : fmt_dec(BigInt(rng.int(-999999, 999999)) * BigInt(rng.int(0, 1000000)), 6);
    let name;
    if (nul()) name = NULL;
    else if (rng.chance(0.05)) name = '';
    else if (rng.chance(0.5)) name = rng.pick(WORDS);
    else name = rng.pick(WORDS) + '_' + rng.int(0, 500);
    const cat = nul(0.05) ? NULL : rng.chance(0.02) ? '' : rng.pick(CATS);
    const day = nul()
      ? NULL
      : rng.chance(0.03)
        ? rng.pick(special_days)
        : fmt_date(d0 + rng.int(0, 6 * 365));
    let ts = NULL;
    if (!nul()) {
      const base = fmt_date(d0 + rng.int(0, 6 * 365));
      const hms = `${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}`;
      const f = rng.next();
      const frac = f < 0.4 ? '' : f < 0.7 ? '.' + pad(rng.int(0, 999), 3) : '.' + pad(rng.int(0, 999999), 6);
      ts = `${base} ${hms}${frac}`;
    }
    rows.push([id, flag, tiny, small, num, big, dbl, amt, prec, name, cat, day, ts]);
  }
  // shuffle so that id order is not file order
  for (let i = rows.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

function gen_dim(rng) {
  const rows = [];
  for (let k = 0; k < 120; k++) {
    const copies = k === 7 ? 3 : k % 10 === 3 ? 2 : 1; // duplicate keys
    for (let c = 0; c < copies; c++) {
      rows.push([
        k,
        rng.chance(0.1) ? NULL : `label_${k}_${c}`,
        rng.chance(0.1) ? NULL : Math.round(rng.next() * 1e6) / 1e3,
        rng.chance(0.05) ? NULL : rng.pick(['red', 'green', 'blue', 'black']),
        rng.chance(0.1) ? NULL : fmt_dec(BigInt(rng.int(-99999, 99999)), 3),
      ]);
    }
  }
  for (let i = 0; i < 10; i++) rows.push([NULL, `nullkey_${i}`, i * 1.5, 'red', '1.000']);
  return rows;
}

function gen_small(rng) {
  const rows = [];
  for (let sid = 1; sid <= 40; sid++) {
    rows.push([sid % 17 === 0 ? NULL : sid, rng.chance(0.1) ? NULL : rng.pick(['a', 'b', 'c', 'x', '']),
      rng.chance(0.1) ? NULL : rng.chance(0.5)]);
  }
  return rows;
}

// Partitions: [dt, hr, n_rows]; n_rows 0 = empty directory, -1 = one empty file.
const PARTITIONS = [
  ['2024-01-01', 0, 1500], ['2024-01-01', 6, 800], ['2024-01-01', 12, 2100], ['2024-01-01', 23, 5],
  ['2024-01-02', 0, 0], ['2024-01-02', 6, 1200], ['2024-01-02', 12, 1], ['2024-01-02', 23, 900],
  ['2024-01-03', 0, 700], ['2024-01-03', 6, -1], ['2024-01-03', 12, 2500], ['2024-01-04', 6, 300],
  ['2024-01-05', 0, 1000], ['2024-01-05', 23, 0], ['2023-12-31', 23, 450],
];

function gen_part_rows(rng, n, start_id) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push([
      start_id + i,
      rng.chance(0.1) ? NULL : rng.chance(0.4) ? rng.int(1, 5) : rng.int(1, 400),
      rng.chance(0.1) ? NULL : fmt_dec(BigInt(rng.int(-50000, 500000)), 2),
      rng.chance(0.1) ? NULL : Math.round(rng.next() * 1e7) / 1e4,
      rng.chance(0.1) ? NULL : rng.chance(0.05) ? '' : rng.pick(['web', 'app', 'api', 'batch', 'web', 'web']),
      rng.chance(0.1) ? NULL : rng.chance(0.5),
    ]);
  }
  return rows;
}

function text_line(row) {
  return row.map((v) => (v === NULL ? '\\N' : typeof v === 'boolean' ? String(v) : String(v))).join('\t');
}

function write_text(dir, name, rows) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), rows.map((r) => text_line(r) + '\n').join(''));
}

function csv_field(v) {
  if (v === NULL) return '';
  const s = String(v);
  return /[",\n]/.test(s) || s === '' ? '"' + s.replace(/"/g, '""') + '"' : s;
}

const sq = (s) => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
const duck_sq = (s) => "'" + s.replace(/'/g, "''") + "'";

function hive_cols(cols) {
  return cols.map(([n, h]) => `${n} ${h}`).join(', ');
}
function duck_struct(cols) {
  return '{' + cols.map(([n, , d]) => `'${n}': '${d}'`).join(', ') + '}';
}

export function generate(out) {
  const rng = make_rng(20240611);
  const data = path.join(out, 'data');
  fs.rmSync(data, { recursive: true, force: true });
  const hive = [];
  const duck = [];
  const text_opts = "delim='\\t', header=false, quote='', escape='', nullstr='\\N', auto_detect=false";

  const add_text_table = (name, cols, files) => {
    const dir = path.join(data, name);
    fs.mkdirSync(dir, { recursive: true });
    files.forEach(([fname, rows]) => write_text(dir, fname, rows));
    hive.push(`CREATE EXTERNAL TABLE ${name} (${hive_cols(cols)}) ROW FORMAT DELIMITED ` +
      `FIELDS TERMINATED BY '\\t' STORED AS TEXTFILE LOCATION ${sq(dir)};`);
    duck.push(`CREATE TABLE ${name} AS SELECT * FROM read_csv(${duck_sq(dir + '/*.txt')}, ` +
      `${text_opts}, columns=${duck_struct(cols)});`);
  };

  // t_all: 12000 rows in three files of uneven size (crosses 2048-row batches)
  const all = gen_t_all(rng, 12000);
  add_text_table('t_all', T_ALL_COLS, [
    ['part-0.txt', all.slice(0, 5000)], ['part-1.txt', all.slice(5000, 7001)],
    ['part-2.txt', all.slice(7001)],
  ]);
  add_text_table('dim', DIM_COLS, [['dim.txt', gen_dim(rng)]]);
  add_text_table('small', SMALL_COLS, [['small.txt', gen_small(rng)]]);
  add_text_table('empty_t', EMPTY_COLS, [['empty.txt', []]]);

  // part: Hive layout dt=/hr=, including empty partitions
  const pdir = path.join(data, 'part');
  fs.mkdirSync(pdir, { recursive: true });
  hive.push(`CREATE EXTERNAL TABLE part (${hive_cols(PART_COLS)}) PARTITIONED BY ` +
    `(${hive_cols(PART_KEYS)}) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' ` +
    `STORED AS TEXTFILE LOCATION ${sq(pdir)};`);
  let next_id = 1;
  for (const [dt, hr, n] of PARTITIONS) {
    const dir = path.join(pdir, `dt=${dt}`, `hr=${hr}`);
    fs.mkdirSync(dir, { recursive: true });
    if (n < 0) fs.writeFileSync(path.join(dir, '000000_0'), '');
    if (n > 0) {
      const rows = gen_part_rows(rng, n, next_id);
      next_id += n;
      const half = Math.floor(n / 2);
      write_text(dir, '000000_0', rows.slice(0, half));
      write_text(dir, '000001_0', rows.slice(half));
    }
    hive.push(`ALTER TABLE part ADD PARTITION (dt='${dt}', hr=${hr});`);
  }
  duck.push(`CREATE TABLE part AS SELECT ${PART_COLS.map((c) => c[0]).join(', ')}, dt, hr FROM ` +
    `read_csv(${duck_sq(pdir + '/*/*/*')}, ${text_opts}, columns=${duck_struct(PART_COLS)}, ` +
    `hive_partitioning=true, hive_types={'dt': 'DATE', 'hr': 'INTEGER'});`);

  // csv_t: OpenCSVSerde, quoted fields with separators, quotes and newlines
  {
    const dir = path.join(data, 'csv_t');
    fs.mkdirSync(dir, { recursive: true });
    const lines = [];
    for (let id = 1; id <= 3000; id++) {
      const txt = rng.chance(0.1)
        ? 'line one\nline two'
        : rng.pick(WORDS) + (rng.chance(0.3) ? ', and "more"' : '');
      const val = rng.chance(0.1) ? NULL : Math.round((rng.next() - 0.5) * 1e6) / 1e2;
      lines.push([id, txt, val].map(csv_field).join(',') + '\n');
    }
    fs.writeFileSync(path.join(dir, 'data.csv'), lines.join(''));
    hive.push(`CREATE EXTERNAL TABLE csv_t (${hive_cols(CSV_COLS)}) ROW FORMAT SERDE ` +
      `'org.apache.hadoop.hive.serde2.OpenCSVSerde' STORED AS TEXTFILE LOCATION ${sq(dir)};`);
    duck.push(`CREATE TABLE csv_t AS SELECT * FROM read_csv(${duck_sq(dir + '/*.csv')}, ` +
      `delim=',', header=false, quote='"', escape='"', auto_detect=false, ` +
      `columns=${duck_struct(CSV_COLS)});`);
  }

  // json_t: JsonSerDe, missing keys and explicit nulls
  {
    const dir = path.join(data, 'json_t');
    fs.mkdirSync(dir, { recursive: true });
    const lines = [];
    for (let id = 1; id <= 3000; id++) {
      const o = { id };
      if (!rng.chance(0.1)) o.name = rng.chance(0.1) ? null : rng.pick(WORDS);
      if (!rng.chance(0.1)) o.score = Math.round((rng.next() - 0.3) * 1e5) / 1e3;
      if (!rng.chance(0.1)) o.qty = rng.int(-1e9, 1e9) * 1000;
      if (!rng.chance(0.1)) o.active = rng.chance(0.5);
      lines.push(JSON.stringify(o) + '\n');
    }
    fs.writeFileSync(path.join(dir, 'data.json'), lines.join(''));
    hive.push(`CREATE EXTERNAL TABLE json_t (${hive_cols(JSON_COLS)}) ROW FORMAT SERDE ` +
      `'org.apache.hadoop.hive.serde2.JsonSerDe' STORED AS TEXTFILE LOCATION ${sq(dir)};`);
    duck.push(`CREATE TABLE json_t AS SELECT * FROM read_json(${duck_sq(dir + '/*.json')}, ` +
      `format='newline_delimited', columns=${duck_struct(JSON_COLS)});`);
  }

  fs.writeFileSync(path.join(out, 'hive_setup.sql'), hive.join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'duck_setup.sql'), duck.join('\n') + '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error('usage: node gen_data.mjs OUTDIR');
    process.exit(2);
  }
  generate(process.argv[2]);
}
