// profile_duckdb.mjs HIVELITE -- PROFILE TABLE checked against DuckDB.
//
// hivelite builds the tables (data generated here with a seeded PRNG,
// staged as a text file, LOAD DATA, then INSERT ... SELECT with dynamic
// partitions: 40,000 rows into three tables in about a second, far faster
// than parsing VALUES lists); DuckDB reads the same files (read_parquet / read_csv with
// hive_partitioning) and computes every metric independently:
//   1. exact metrics (every column has <= 1024 distinct values, so
//      distinct, quantiles and the top 5 are exact) of a Parquet and a text
//      table, partitions of several files, INT BIGINT DOUBLE DECIMAL STRING
//      DATE TIMESTAMP BOOLEAN: the whole table, PARTITION (spec), WHERE,
//      both, and LIMIT on a table of one file per partition (newest
//      partition first, rows in file order: DuckDB's file_row_number);
//   2. estimates over many seeds (5,000..200,000 distinct BIGINT, STRING
//      and DOUBLE values in 4 partitions, so sketches are merged): distinct
//      within 3 stated errors (distinct_error), quantile ranks within the
//      stated rank error (profile.h: HL_PROF_QUANTILE_RANK_ERR = 0.02 of n,
//      the distance of the reported value's rank interval from the position
//      q * (n - 1)), frequent-value counts never above the truth nor more
//      than n / 33 below it (Misra-Gries, 32 counters), and a value more
//      frequent than the fifth reported count + n / 33 reported;
//   3. a re-profile after one partition changed reads that partition only
//      and equals a fresh read (PROFILE ... WHERE true).
// Prints ok/FAIL lines and the largest errors measured; exit 1 on a FAIL.
//
// What is compared, as vector/profile.h documents it:
//  - count = rows, nulls = NULL rows, distinct = count(DISTINCT c) (a NaN
//    is one value in both; -0.0 and 0.0 are one value in both);
//  - DOUBLE: NaN is left out of min, max, mean, stddev, quantiles, zeros
//    and negatives (DuckDB: FILTER (WHERE NOT isnan(c)); DuckDB itself sorts
//    NaN above +inf); +-Infinity take part in min, max, quantiles, zeros and
//    negatives and are left out of mean and stddev (FILTER NOT isinf);
//  - mean = avg, stddev = stddev_samp, relative 1e-9; integer and decimal
//    means must not overflow (BIGINT extremes are in the data);
//  - q25/q50/q75 = the value at 0-based sorted position floor(q * (n - 1))
//    of the non-NULL (non-NaN) values, taken with row_number() in DuckDB.
//    DuckDB's quantile_disc(q) is not that: it takes position
//    ceil(q * n) - 1 (n = 7, q = 0.75: 5, not 4), so it is not used;
//  - lengths = length() in characters (code points), strings compared
//    bytewise (DuckDB's default collation), top 5 = count desc, value asc.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) { console.error('usage: profile_duckdb.mjs HIVELITE'); process.exit(2); }
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'profile-duck-'));
const wh = path.join(dir, 'wh');
const t0 = Date.now();
let failures = 0;

// the bounds vector/profile.h states
const DISTINCT_REL_ERR = 1.04 / 64; // profile.h HL_PROF_DISTINCT_REL_ERR (2^12 registers)
const QUANTILE_RANK_ERR = 0.02; // profile.h HL_PROF_QUANTILE_RANK_ERR
const TOP_K = 32; // profile.h HL_PROF_TOP_K

function run(sql, format) {
  const r = spawnSync(hl, ['-w', wh, '--format', format, '-c', sql],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) { console.error(`hivelite failed: ${sql}\n${r.stderr}`); process.exit(1); }
  return r.stdout;
}
const hive = (sql) => run(sql, 'csv');

// PROFILE ... as { cols: {name: row}, summary }
function profile(sql) {
  const lines = run(sql, 'json').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const cols = {};
  let summary = null;
  for (const o of lines) {
    if ('column' in o) cols[o.column] = o;
    else summary = o;
  }
  return { cols, summary };
}

function check(what, problems) {
  if (problems.length) {
    failures++;
    console.log(`FAIL ${what}`);
    for (const p of problems.slice(0, 12)) console.log(`  ${p}`);
  } else {
    console.log(`ok   ${what}`);
  }
}

// ---- seeded PRNG (mulberry32) ----
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const randint = (rnd, lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
function randBig(rnd, bits) { // signed, |v| < 2^bits
  const hi = BigInt(Math.floor(rnd() * 2 ** (bits - 31)));
  const lo = BigInt(Math.floor(rnd() * 2 ** 31));
  const v = (hi << 31n) | lo;
  return rnd() < 0.5 ? -v : v;
}
const pad = (n, w) => String(n).padStart(w, '0');
function dateText(days) {
  const d = new Date(days * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}
function tsText(sec, micros) {
  const d = new Date(sec * 1000);
  let s = `${dateText(Math.floor(sec / 86400))} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  if (micros) s += '.' + pad(micros, 6);
  return s;
}
const dayOf = (y, m, d) => Math.round(Date.UTC(y, m - 1, d) / 86400000);
const ALPHA = ['a', 'b', 'c', 'x', 'Z', 'M', '0', '7', ' ', '-', 'é', 'ß', '日', '本', '😀', 'ñ'];
function randWord(rnd, maxLen) {
  const n = randint(rnd, 0, maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHA[Math.floor(rnd() * ALPHA.length)];
  return s;
}

const duck = await (await DuckDBInstance.create(':memory:')).connect();
await duck.run('SET threads = 2');
const dq = async (sql) => (await duck.runAndReadAll(sql)).getRowObjects();

// ==========================================================================
// 1. exact metrics
// ==========================================================================
const COLS = [
  ['i', 'INT', 'int'], ['b', 'BIGINT', 'int'], ['d', 'DOUBLE', 'double'], ['m', 'DECIMAL(12,2)', 'dec'],
  ['s', 'STRING', 'str'], ['dt', 'DATE', 'date'], ['ts', 'TIMESTAMP', 'ts'], ['f', 'BOOLEAN', 'bool'],
];
const DUCK_TYPE = { INT: 'INTEGER', BIGINT: 'BIGINT', DOUBLE: 'DOUBLE', 'DECIMAL(12,2)': 'DECIMAL(12,2)',
  STRING: 'VARCHAR', DATE: 'DATE', TIMESTAMP: 'TIMESTAMP', BOOLEAN: 'BOOLEAN' };
const N_EXACT = 40000, N_PARTS = 6, N_BATCH = 3;

function exactData() {
  const rnd = prng(20240616);
  const bPool = [0n, 1n, -1n, 9223372036854775807n, -9223372036854775808n, 4611686018427387904n,
    -4611686018427387904n];
  while (bPool.length < 400) bPool.push(randBig(rnd, 50));
  const dPool = ['NaN', 'Infinity', '-Infinity', '-0.0'];
  const mPool = ['0.00', '-0.01', '9999999999.99', '-9999999999.99'];
  while (mPool.length < 500) {
    const cents = BigInt(Math.floor(rnd() * 1e12)) * (rnd() < 0.3 ? -1n : 1n);
    const a = cents < 0n ? -cents : cents;
    mPool.push(`${cents < 0n ? '-' : ''}${a / 100n}.${pad(a % 100n, 2)}`);
  }
  const sPool = ['', 'a', ' ', 'ß', '😀'];
  while (sPool.length < 300) sPool.push(randWord(rnd, 14));
  const dtPool = [dayOf(1900, 1, 1), dayOf(2100, 12, 31), dayOf(1970, 1, 1), dayOf(2024, 2, 29)];
  while (dtPool.length < 400) dtPool.push(randint(rnd, dayOf(1900, 1, 1), dayOf(2100, 12, 31)));
  const tsPool = [tsText(0, 0), tsText(-1, 999999), tsText(dayOf(2024, 2, 29) * 86400 + 45000, 500000)];
  while (tsPool.length < 500) {
    const r = rnd();
    tsPool.push(tsText(randint(rnd, -631152000, 3786912000), r < 0.4 ? 0 : r < 0.7 ? randint(rnd, 0, 999) * 1000 : randint(rnd, 0, 999999)));
  }
  const skew = (pool) => pool[Math.floor(pool.length * rnd() ** 2)];
  const lines = [];
  for (let r = 0; r < N_EXACT; r++) {
    const k = Math.min(N_PARTS - 1, Math.floor(Math.sqrt(rnd()) * N_PARTS)); // more rows in newer partitions
    const nul = (p) => rnd() < p;
    let d;
    const u = rnd();
    if (u < 0.004) d = dPool[0];
    else if (u < 0.006) d = dPool[1];
    else if (u < 0.008) d = dPool[2];
    else if (u < 0.02) d = dPool[3];
    else d = String(randint(rnd, -400, 400) / 8);
    const f = [
      nul(0.05) ? null : String(randint(rnd, -300, 300)),
      nul(0.03) ? null : String(skew(bPool)),
      nul(0.04) ? null : d,
      nul(0.05) ? null : skew(mPool),
      nul(0.05) ? null : skew(sPool),
      nul(0.03) ? null : dateText(skew(dtPool)),
      nul(0.03) ? null : skew(tsPool),
      nul(0.1) ? null : rnd() < 0.6 ? 'true' : 'false',
      String(k), String(randint(rnd, 0, N_BATCH - 1)),
    ];
    lines.push(f.map((v) => (v === null ? '\\N' : v)).join('\x01'));
  }
  return lines.join('\n') + '\n';
}

const colDefs = COLS.map(([n, t]) => `${n} ${t}`).join(', ');
const colList = COLS.map(([n]) => n).join(', ');
fs.mkdirSync(dir, { recursive: true });
const stageFile = path.join(dir, 'stage.txt');
fs.writeFileSync(stageFile, exactData());
hive(`CREATE TABLE stage (${colDefs}, k INT, batch INT);
      LOAD DATA LOCAL INPATH '${stageFile}' INTO TABLE stage;
      CREATE TABLE pq (${colDefs}) PARTITIONED BY (k INT) STORED AS PARQUET;
      CREATE TABLE tt (${colDefs}) PARTITIONED BY (k INT);
      CREATE TABLE lt (${colDefs}) PARTITIONED BY (k INT) STORED AS PARQUET;
      ${[...Array(N_BATCH).keys()].map((j) => `INSERT INTO pq PARTITION (k) SELECT ${colList}, k FROM stage WHERE batch = ${j};
      INSERT INTO tt PARTITION (k) SELECT ${colList}, k FROM stage WHERE batch = ${j};`).join('\n')}
      INSERT INTO lt PARTITION (k) SELECT ${colList}, k FROM stage;`);
console.log(`# tables built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const filesIn = (t, k) => fs.readdirSync(path.join(wh, t, `k=${k}`)).filter((f) => !f.startsWith('.') && !f.startsWith('_'));
check('pq and tt: every partition holds several files, lt one',
  [...Array(N_PARTS).keys()].flatMap((k) => [
    ...(filesIn('pq', k).length === N_BATCH ? [] : [`pq k=${k}: ${filesIn('pq', k).length} files`]),
    ...(filesIn('tt', k).length === N_BATCH ? [] : [`tt k=${k}: ${filesIn('tt', k).length} files`]),
    ...(filesIn('lt', k).length === 1 ? [] : [`lt k=${k}: ${filesIn('lt', k).length} files`]),
  ]));

const duckCols = `{${COLS.map(([n, t]) => `'${n}': '${DUCK_TYPE[t]}'`).join(', ')}}`;
const source = {
  pq: `read_parquet('${wh}/pq/*/*', hive_partitioning = true, hive_types = {'k': INTEGER})`,
  lt: `read_parquet('${wh}/lt/*/*', hive_partitioning = true, hive_types = {'k': INTEGER}, file_row_number = true)`,
  tt: `read_csv('${wh}/tt/*/*', delim = '\x01', header = false, nullstr = '\\N', quote = '', escape = '',
               auto_detect = false, hive_partitioning = true, hive_types = {'k': INTEGER}, columns = ${duckCols})`,
};
const stageSource = `read_csv('${wh}/stage/*', delim = '\x01', header = false, nullstr = '\\N', quote = '', escape = '',
  auto_detect = false, columns = {${COLS.map(([n, t]) => `'${n}': '${DUCK_TYPE[t]}'`).join(', ')}, 'k': 'INTEGER', 'batch': 'INTEGER'})`;

// DuckDB's answer for one column of relation REL (a parenthesised query).
async function duckColumn(rel, name, kind) {
  const c = `"${name}"`;
  const ok = kind === 'double' ? `NOT isnan(${c})` : 'true';
  const fin = kind === 'double' ? `NOT isnan(${c}) AND NOT isinf(${c})` : 'true';
  const asText = (e) => (kind === 'double' ? `(${e})::DOUBLE` : `(${e})::VARCHAR`);
  const num = ['int', 'double', 'dec'].includes(kind);
  const str = kind === 'str';
  const [a] = await dq(`SELECT count(*)::BIGINT AS count, (count(*) - count(${c}))::BIGINT AS nulls,
      count(DISTINCT ${c})::BIGINT AS distinct,
      ${asText(`min(${c}) FILTER (WHERE ${ok})`)} AS min, ${asText(`max(${c}) FILTER (WHERE ${ok})`)} AS max
      ${num ? `, avg(${c}::DOUBLE) FILTER (WHERE ${fin}) AS mean, stddev_samp(${c}::DOUBLE) FILTER (WHERE ${fin}) AS stddev,
               count(*) FILTER (WHERE ${c} = 0 AND ${ok})::BIGINT AS zeros,
               count(*) FILTER (WHERE ${c} < 0 AND ${ok})::BIGINT AS negatives` : ''}
      ${str ? `, min(length(${c}))::BIGINT AS min_length, max(length(${c}))::BIGINT AS max_length,
               avg(length(${c})) AS mean_length, count(*) FILTER (WHERE ${c} = '')::BIGINT AS empty` : ''}
      FROM ${rel} x`);
  if (!['str', 'bool'].includes(kind)) {
    const [q] = await dq(`WITH o AS (SELECT ${c} AS v, row_number() OVER (ORDER BY ${c}) - 1 AS pos, count(*) OVER () AS n
        FROM ${rel} x WHERE ${c} IS NOT NULL AND ${ok})
      SELECT ${[25, 50, 75].map((p) => `${asText(`max(v) FILTER (WHERE pos = floor(${p / 100} * (n - 1)))`)} AS q${p}`).join(', ')} FROM o`);
    Object.assign(a, q);
  }
  a.top = (await dq(`SELECT ${asText(c)} AS value, count(*)::BIGINT AS count FROM ${rel} x WHERE ${c} IS NOT NULL
      GROUP BY ${c} ORDER BY count(*) DESC, ${c} ASC LIMIT 5`));
  return a;
}

const relClose = (a, b, tol) => a === b || Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b));
const jnum = (v) => (v === null || v === undefined ? null : typeof v === 'bigint' ? Number(v) : v);
// a hivelite value text against DuckDB's (DOUBLE as a number, else text)
function sameValue(kind, got, want) {
  if (got === null || want === null || want === undefined) return got === null && (want === null || want === undefined);
  if (kind === 'double') {
    const g = Number(got);
    return (Number.isNaN(g) && Number.isNaN(want)) || g === want;
  }
  return got === want;
}
const showv = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));

// every field of hivelite's row ROW for a column of KIND against DuckDB's D
function compareColumn(kind, row, d) {
  const bad = [];
  const eq = (f, g, w) => { if (g !== w) bad.push(`${row.column}.${f}: got ${showv(g)} want ${showv(w)}`); };
  const num = ['int', 'double', 'dec'].includes(kind);
  const str = kind === 'str';
  eq('count', row.count, jnum(d.count));
  eq('nulls', row.nulls, jnum(d.nulls));
  eq('distinct', row.distinct, jnum(d.distinct));
  eq('distinct_exact', row.distinct_exact, true);
  eq('distinct_error', row.distinct_error, 0);
  for (const f of ['min', 'max', ...(['str', 'bool'].includes(kind) ? [] : ['q25', 'q50', 'q75'])])
    if (!sameValue(kind, row[f], d[f])) bad.push(`${row.column}.${f}: got ${showv(row[f])} want ${showv(d[f])}`);
  for (const f of ['mean', 'stddev', ...(str ? ['mean_length'] : [])]) {
    const w = num || f === 'mean_length' ? jnum(d[f]) : null;
    if (w === null ? row[f] !== null : row[f] === null || !relClose(row[f], w, 1e-9))
      bad.push(`${row.column}.${f}: got ${row[f]} want ${w}`);
  }
  for (const f of ['zeros', 'negatives']) eq(f, row[f], num ? jnum(d[f]) : null);
  // no non-NULL string: the lengths are NULL, the count of empty strings 0
  // (as DuckDB's count FILTER says)
  for (const f of ['min_length', 'max_length', 'empty']) eq(f, row[f], str ? jnum(d[f]) : null);
  if (['str', 'bool'].includes(kind)) for (const f of ['q25', 'q50', 'q75']) eq(f, row[f], null);
  const top = row.top === null ? [] : row.top; // embedded JSON (hl_column_is_json)
  const topOk = top.length === d.top.length &&
    top.every((t, i) => sameValue(kind, t.value, d.top[i].value) && t.count === jnum(d.top[i].count));
  if (!topOk) bad.push(`${row.column}.top: got ${showv(top)} want ${showv(d.top)}`);
  return bad;
}

async function compareProfile(what, p, rel, expectSummary) {
  const bad = [];
  const names = Object.keys(p.cols);
  // the data columns, then the partition key (profiled from the partitions)
  const cols = [...COLS, ['k', 'INT', 'int']];
  if (names.join(',') !== cols.map(([n]) => n).join(','))
    bad.push(`columns ${names.join(',')}`);
  for (const [n, t, kind] of cols) {
    const row = p.cols[n];
    if (!row) continue;
    if (row.type !== t.toLowerCase()) bad.push(`${n}.type ${row.type}`);
    bad.push(...compareColumn(kind, row, await duckColumn(rel, n, kind)));
  }
  const [{ n }] = await dq(`SELECT count(*)::BIGINT AS n FROM ${rel} x`);
  if (p.summary.rows_read !== Number(n)) bad.push(`summary.rows_read ${p.summary.rows_read} want ${n}`);
  for (const [f, w] of Object.entries(expectSummary || {}))
    if (p.summary[f] !== w) bad.push(`summary.${f} ${showv(p.summary[f])} want ${showv(w)}`);
  check(`${what} (${n} rows)`, bad);
}

// why DuckDB's quantile_disc is not the oracle: position ceil(q * n) - 1
{
  const got = (await dq(`SELECT n, quantile_disc(v, 0.25)::INT AS a, quantile_disc(v, 0.5)::INT AS b, quantile_disc(v, 0.75)::INT AS c
      FROM (SELECT n, unnest(range(n)) AS v FROM range(1, 12) t(n)) GROUP BY n ORDER BY n`))
    .map((r) => [r.a, r.b, r.c].join(',')).join(' ');
  const ceil = [...Array(11).keys()].map((i) => [0.25, 0.5, 0.75].map((q) => Math.ceil(q * (i + 1)) - 1).join(',')).join(' ');
  check("DuckDB's quantile_disc(q) takes position ceil(q * n) - 1, not floor(q * (n - 1))", got === ceil ? [] : [got]);
}

const [{ n: stageRows }] = await dq(`SELECT count(*)::BIGINT AS n FROM ${stageSource}`);
check('DuckDB reads the staging file as hivelite loaded it', Number(stageRows) === N_EXACT ? [] : [`${stageRows} rows`]);

const WHERE = `i >= 0 AND (f OR d < 1.5) AND s <> 'a'`;
for (const t of ['pq', 'tt']) {
  const all = `(SELECT * FROM ${source[t]})`;
  await compareProfile(`${t}: PROFILE TABLE`, profile(`PROFILE TABLE ${t};`), all,
    { partitions_read: N_PARTS, partitions_reused: 0, partitions_total: N_PARTS, total_rows: N_EXACT, total_rows_source: 'exact' });
  await compareProfile(`${t}: PROFILE TABLE again (stored states merged)`, profile(`PROFILE TABLE ${t};`), all,
    { partitions_read: 0, partitions_reused: N_PARTS, total_rows: N_EXACT });
  await compareProfile(`${t}: PARTITION (k=2)`, profile(`PROFILE TABLE ${t} PARTITION (k=2);`),
    `(SELECT * FROM ${source[t]} WHERE k = 2)`, { partitions_total: N_PARTS });
  await compareProfile(`${t}: WHERE ${WHERE}`, profile(`PROFILE TABLE ${t} WHERE ${WHERE};`),
    `(SELECT * FROM ${source[t]} WHERE ${WHERE})`, { partitions_read: N_PARTS, partitions_reused: 0 });
  await compareProfile(`${t}: PARTITION (k=4) WHERE ${WHERE}`, profile(`PROFILE TABLE ${t} PARTITION (k=4) WHERE ${WHERE};`),
    `(SELECT * FROM ${source[t]} WHERE k = 4 AND ${WHERE})`, { partitions_read: 1 });
}

// LIMIT: lt has one file per partition; newest partitions (highest k)
// first, rows in file order, the oldest partition read cut short
{
  const counts = (await dq(`SELECT k, count(*)::BIGINT AS n FROM ${source.lt} GROUP BY k ORDER BY k DESC`)).map((r) => Number(r.n));
  const limits = [1, 777, counts[0], counts[0] + counts[1] + 1234, N_EXACT - 1, N_EXACT + 10];
  for (const n of limits) {
    await compareProfile(`lt: LIMIT ${n}`, profile(`PROFILE TABLE lt LIMIT ${n};`),
      `(SELECT * FROM ${source.lt} ORDER BY k DESC, file_row_number LIMIT ${n})`);
  }
  await compareProfile(`lt: WHERE ${WHERE} LIMIT 9000`, profile(`PROFILE TABLE lt WHERE ${WHERE} LIMIT 9000;`),
    `(SELECT * FROM ${source.lt} WHERE ${WHERE} ORDER BY k DESC, file_row_number LIMIT 9000)`);
  await compareProfile('lt: PARTITION (k=1) LIMIT 500', profile('PROFILE TABLE lt PARTITION (k=1) LIMIT 500;'),
    `(SELECT * FROM ${source.lt} WHERE k = 1 ORDER BY file_row_number LIMIT 500)`);
}
console.log(`# exact part done at ${((Date.now() - t0) / 1000).toFixed(1)} s`);

// ==========================================================================
// 3. merged == fresh after one partition changed
// ==========================================================================
function sameProfiles(a, b, approxQuantiles) {
  const bad = [];
  for (const [n, row] of Object.entries(a.cols)) {
    const o = b.cols[n];
    if (!o) { bad.push(`${n} missing`); continue; }
    for (const f of ['count', 'nulls', 'distinct', 'distinct_exact', 'distinct_error', 'min', 'max', 'zeros',
      'negatives', 'min_length', 'max_length', 'empty', ...(approxQuantiles ? [] : ['q25', 'q50', 'q75', 'top'])])
      if (JSON.stringify(row[f]) !== JSON.stringify(o[f])) bad.push(`${n}.${f}: merged ${showv(row[f])} fresh ${showv(o[f])}`);
    for (const f of ['mean', 'stddev', 'mean_length'])
      if ((row[f] === null) !== (o[f] === null) || (row[f] !== null && !relClose(row[f], o[f], 1e-9)))
        bad.push(`${n}.${f}: merged ${row[f]} fresh ${o[f]}`);
  }
  return bad;
}
for (const t of ['pq', 'tt']) {
  hive(`INSERT INTO ${t} PARTITION (k=3) SELECT ${colList} FROM stage WHERE k = 5 AND batch = 1`);
  const merged = profile(`PROFILE TABLE ${t};`);
  const fresh = profile(`PROFILE TABLE ${t} WHERE true;`);
  check(`${t}: after an INSERT into k=3 PROFILE reads 1 partition, reuses ${N_PARTS - 1}`,
    merged.summary.partitions_read === 1 && merged.summary.partitions_reused === N_PARTS - 1 &&
    fresh.summary.partitions_read === N_PARTS ? [] : [`merged ${showv(merged.summary)} fresh ${showv(fresh.summary)}`]);
  check(`${t}: merged profile == fresh profile (WHERE true)`, sameProfiles(merged, fresh, false));
  await compareProfile(`${t}: merged profile after the INSERT`, merged, `(SELECT * FROM ${source[t]})`,
    { total_rows_source: 'exact' });
}

// ==========================================================================
// 2. estimates over many seeds
// ==========================================================================
const APPROX = [['b', 'BIGINT'], ['s', 'STRING'], ['x', 'DOUBLE']];
const N_SEEDS = 24;
const worst = { distinct: 0, rank: 0, top: 0 };
let heavy = 0; // frequent values the Misra-Gries bound obliged PROFILE to report
const approxDir = path.join(dir, 'approx');
fs.mkdirSync(approxDir);
let approxFresh = null;
for (let seed = 1; seed <= N_SEEDS; seed++) {
  const rnd = prng(7919 * seed);
  const distinct = Math.round(5000 * 40 ** rnd()); // log-uniform in [5000, 200000]
  // each column: every value of its pool once, then skewed repeats; shuffled
  const column = (gen) => {
    const pool = new Set();
    while (pool.size < distinct) pool.add(gen());
    const vals = [...pool];
    const extra = Math.floor(distinct * (0.2 + 1.3 * rnd()));
    for (let i = 0; i < extra; i++) vals.push(vals[Math.floor(vals.length * rnd() ** 3)]);
    for (let i = vals.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [vals[i], vals[j]] = [vals[j], vals[i]];
    }
    return vals;
  };
  const cb = column(() => String(randBig(rnd, 62)));
  const cs = column(() => randWord(rnd, 3) + Math.floor(rnd() * 1e9).toString(36) + randWord(rnd, 4));
  const cx = column(() => String((rnd() - 0.3) * 10 ** randint(rnd, 0, 8)));
  const rows = Math.max(cb.length, cs.length, cx.length);
  const parts = [[], [], [], []];
  for (let r = 0; r < rows; r++) {
    const v = [cb[r], cs[r], cx[r]].map((x) => (x === undefined || rnd() < 0.01 ? '\\N' : x));
    parts[Math.floor(rnd() * 4)].push(v.join('\x01'));
  }
  const t = `a${seed}`;
  const loads = parts.map((lines, p) => {
    const f = path.join(approxDir, `${t}_${p}.txt`);
    fs.writeFileSync(f, lines.join('\n') + '\n');
    return `LOAD DATA LOCAL INPATH '${f}' INTO TABLE ${t} PARTITION (p=${p});`;
  });
  hive(`CREATE TABLE ${t} (${APPROX.map(([n, ty]) => `${n} ${ty}`).join(', ')}) PARTITIONED BY (p INT); ${loads.join(' ')}`);
  const pr = profile(`PROFILE TABLE ${t};`);
  const rel = `read_csv('${wh}/${t}/*/*', delim = '\x01', header = false, nullstr = '\\N', quote = '', escape = '',
    auto_detect = false, hive_partitioning = true, columns = {${APPROX.map(([n, ty]) => `'${n}': '${DUCK_TYPE[ty]}'`).join(', ')}})`;
  const bad = [];
  const notes = [];
  for (const [n, ty] of APPROX) {
    const row = pr.cols[n];
    const c = `"${n}"`;
    const [d] = await dq(`SELECT count(*)::BIGINT AS count, count(${c})::BIGINT AS nn, count(DISTINCT ${c})::BIGINT AS distinct,
        ${ty === 'DOUBLE' ? 'min(x)::DOUBLE AS min, max(x)::DOUBLE AS max' : `min(${c})::VARCHAR AS min, max(${c})::VARCHAR AS max`}
        FROM ${rel}`);
    const exact = Number(d.distinct), nn = Number(d.nn);
    if (row.count !== Number(d.count) || row.nulls !== Number(d.count) - nn) bad.push(`${n}: count/nulls ${row.count}/${row.nulls}`);
    if (!sameValue(ty === 'DOUBLE' ? 'double' : 'x', row.min, d.min) || !sameValue(ty === 'DOUBLE' ? 'double' : 'x', row.max, d.max))
      bad.push(`${n}: min/max ${row.min}/${row.max} want ${d.min}/${d.max}`);
    if (row.distinct_exact !== false || row.distinct_error !== DISTINCT_REL_ERR)
      bad.push(`${n}: distinct_exact ${row.distinct_exact} distinct_error ${row.distinct_error}`);
    const relErr = Math.abs(row.distinct - exact) / exact;
    worst.distinct = Math.max(worst.distinct, relErr / DISTINCT_REL_ERR);
    if (relErr > 3 * row.distinct_error) bad.push(`${n}: distinct ${row.distinct} exact ${exact} (${(relErr * 100).toFixed(3)} %)`);
    notes.push(`${n} ${exact}:${((row.distinct - exact) / exact * 100).toFixed(2)}%`);
    // a DOUBLE as a string cast: DuckDB reads 0.1234 as a DECIMAL literal,
    // whose conversion to DOUBLE can be an ulp off
    const lit = (v) => (ty === 'DOUBLE' ? `'${v}'::DOUBLE` : `${v}::BIGINT`);
    if (ty !== 'STRING') {
      // the reported value's rank interval [lo, hi) among the n non-NULL
      // values against the position q * (n - 1)
      const [r] = await dq(`SELECT ${[25, 50, 75].map((p) => `count(*) FILTER (WHERE ${c} < ${lit(row[`q${p}`])})::BIGINT AS lo${p},
          count(*) FILTER (WHERE ${c} <= ${lit(row[`q${p}`])})::BIGINT AS hi${p}`).join(', ')} FROM ${rel}`);
      for (const p of [25, 50, 75]) {
        const lo = Number(r[`lo${p}`]), hi = Number(r[`hi${p}`]), target = (p / 100) * (nn - 1);
        const e = Math.max(0, lo - target, target - (hi - 1)) / nn;
        worst.rank = Math.max(worst.rank, e);
        if (hi === lo || e > QUANTILE_RANK_ERR) bad.push(`${n}.q${p} = ${row[`q${p}`]}: rank [${lo}, ${hi}) of ${nn}, error ${e}`);
      }
    }
    // frequent values: reported counts are lower bounds of the true counts
    const top = row.top;
    // at most five; fewer when the summary's counters cannot tell more values
    // apart (near-uniform data: the heavy-hitter check below still binds)
    if (top.length > 5) bad.push(`${n}: ${top.length} frequent values`);
    const truth = await dq(`SELECT ${ty === 'DOUBLE' ? c : `${c}::VARCHAR`} AS v, count(*)::BIGINT AS n FROM ${rel}
        WHERE ${c} IN (${top.map((tv) => (ty === 'STRING' ? `'${tv.value.replaceAll("'", "''")}'` : lit(tv.value))).join(', ')}) GROUP BY ${c}`);
    for (const tv of top) {
      const hit = truth.find((x) => sameValue(ty === 'DOUBLE' ? 'double' : 'x', tv.value, x.v));
      const tc = hit ? Number(hit.n) : 0;
      worst.top = Math.max(worst.top, (tc - tv.count) / nn);
      if (tv.count > tc) bad.push(`${n}: frequent ${tv.value} count ${tv.count} > true ${tc}`);
      if (tc - tv.count > nn / (TOP_K + 1)) bad.push(`${n}: frequent ${tv.value} count ${tv.count}, true ${tc}: more than n/${TOP_K + 1} under`);
    }
    // a value more frequent than the 5th reported count plus the
    // undercount bound has a counter above that count: it is reported
    const floor5 = top.length ? top[top.length - 1].count : 0;
    for (const h of await dq(`SELECT ${ty === 'DOUBLE' ? c : `${c}::VARCHAR`} AS v, count(*)::BIGINT AS n FROM ${rel}
        WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY count(*) DESC LIMIT 5`)) {
      if (Number(h.n) > floor5 + nn / (TOP_K + 1) && !top.some((tv) => sameValue(ty === 'DOUBLE' ? 'double' : 'x', tv.value, h.v)))
        bad.push(`${n}: ${h.v} (${h.n} rows) missing from the frequent values ${showv(top)}`);
      if (Number(h.n) > floor5 + nn / (TOP_K + 1)) heavy++;
    }
  }
  check(`seed ${seed}: ${rows} rows, ${notes.join(' ')}`, bad);
  if (seed === 1) approxFresh = t;
}
console.log(`# max distinct error: ${worst.distinct.toFixed(3)} x the stated ${DISTINCT_REL_ERR} (bound 3)`);
console.log(`# max quantile rank error: ${worst.rank.toFixed(5)} of n (bound ${QUANTILE_RANK_ERR})`);
console.log(`# max frequent-value undercount: ${worst.top.toFixed(5)} of n (Misra-Gries with ${TOP_K} counters: <= ${(1 / (TOP_K + 1)).toFixed(5)}); ${heavy} values had to be reported`);

// merged == fresh for sketch states: HyperLogLog registers merge exactly
{
  const t = approxFresh;
  const f = path.join(approxDir, 'late.txt');
  fs.writeFileSync(f, '1\x01late\x011.5\n-7\x01\x01-2\n\\N\x01\\N\x01\\N\n');
  hive(`LOAD DATA LOCAL INPATH '${f}' INTO TABLE ${t} PARTITION (p=2)`);
  const merged = profile(`PROFILE TABLE ${t};`);
  const fresh = profile(`PROFILE TABLE ${t} WHERE true;`);
  check(`${t}: after a LOAD into p=2 PROFILE reads 1 partition, reuses 3`,
    merged.summary.partitions_read === 1 && merged.summary.partitions_reused === 3 ? [] : [showv(merged.summary)]);
  check(`${t}: merged sketch profile == fresh profile (counts, min/max, HLL distinct, lengths, moments)`,
    sameProfiles(merged, fresh, true));
}

// Parquet written by DuckDB: the columns its statistics answer (one value
// per file, all NULL) are taken from them without decoding, and every
// metric still equals DuckDB's own answer over the same files
{
  const dk = path.join(dir, 'dk');
  await duck.run(`COPY (SELECT i % 3 AS k, 'const' || (i % 3) AS s, NULL::BIGINT AS n,
      CASE WHEN i % 7 = 0 THEN NULL ELSE 42 END AS a, (i * 7919) % 500 - 250 AS v,
      DATE '2024-05-01' + (i % 3)::INT AS dt FROM range(30000) t(i))
    TO '${dk}' (FORMAT PARQUET, PARTITION_BY (k))`);
  hive(`CREATE EXTERNAL TABLE dk (s STRING, n BIGINT, a INT, v BIGINT, dt DATE) PARTITIONED BY (k BIGINT)
    STORED AS PARQUET LOCATION '${dk}'; MSCK REPAIR TABLE dk;`);
  const p = profile('PROFILE TABLE dk;');
  const rel = `(SELECT * FROM read_parquet('${dk}/*/*.parquet', hive_partitioning = true, hive_types = {'k': BIGINT}))`;
  const bad = [];
  for (const [n, kind] of [['s', 'str'], ['n', 'int'], ['a', 'int'], ['v', 'int'], ['dt', 'date'], ['k', 'int']])
    bad.push(...compareColumn(kind, p.cols[n], await duckColumn(rel, n, kind)));
  const meta = p.summary.from_metadata.map((m) => `${m.column}:${m.metrics}:${m.files}:${m.chunks}`).join(' ');
  if (meta !== 's:all:3:3 n:all:3:3 a:all:3:3 dt:all:3:3') bad.push(`from_metadata ${meta}`);
  check(`DuckDB-written Parquet: s, n, a, dt from statistics (${meta}), all metrics as DuckDB's`, bad);
}

fs.rmSync(dir, { recursive: true, force: true });
console.log(`# ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(failures ? `${failures} failures` : 'all ok');
process.exit(failures ? 1 : 0);
