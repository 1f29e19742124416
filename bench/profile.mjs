// bench/profile.mjs -- PROFILE TABLE next to DuckDB's SUMMARIZE on the
// 20M-row, 2,526-partition lineitem table (issue 16); bench/profile.sh
// prepares the build and the data and calls this.  See bench/README.md.
//
// Usage: node bench/profile.mjs --hivelite PATH --data DIR [--runs N]
//          [--threads N] [--out FILE]
//
// The lineitem files of bench/gen.mjs are hard-linked into a private
// directory (so that the new partition of the incremental step never
// touches the data set) and registered once in a template warehouse
// (CREATE EXTERNAL TABLE, MSCK, the incremental field l_shipdate of kind
// `value`: a DATE partition column).  Every hivelite measurement that
// needs a fresh catalog -- no stored profile states, no checkpoint -- runs
// on a copy of that template.  Each run of each step is a fresh process of
// each engine (hivelite CLI; node + @duckdb/node-api via bench/duck.mjs
// over the same files), alternating, under /usr/bin/time for the peak RSS;
// the figure is the median wall time of the whole process.
//
// Steps, per run:
//   select_limit     SELECT * FROM lineitem LIMIT 100 | the same
//   profile_limit    PROFILE TABLE lineitem LIMIT 100000, fresh catalog
//                    | SUMMARIZE SELECT * FROM lineitem LIMIT 100000
//   profile_full     PROFILE TABLE lineitem, fresh catalog (reads every
//                    partition, stores its states) | SUMMARIZE lineitem
//   profile_again    PROFILE TABLE lineitem again (merges the stored states)
//   profile_where    PROFILE TABLE lineitem WHERE true (never reuses nor
//                    stores states: the pure scan-and-profile cost)
//   limit_again      PROFILE TABLE lineitem LIMIT 100000 after the full one
//   incremental      after INCREMENTAL set the checkpoint, one new day
//                    (1998-12-02, a copy of 1998-12-01's file) added by
//                    ALTER TABLE ADD PARTITION: PROFILE TABLE lineitem
//                    INCREMENTAL | SUMMARIZE ... WHERE l_shipdate >
//                    DATE '1998-12-01'
//   one_partition    PROFILE TABLE lineitem WHERE l_shipdate = '1998-12-02'
//                    (the cost of one partition, for comparison)
// The profile's counts, nulls, min, max and mean are compared with
// SUMMARIZE's, and the distinct counts of both with count(DISTINCT) (one
// DuckDB query, untimed).  The report goes into the section of bench/
// results.md between the "profile.sh" markers (replaced; appended when
// absent).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const args = { runs: 3, threads: os.availableParallelism(), out: `${here}/results.md` };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!['hivelite', 'data', 'runs', 'threads', 'out'].includes(k)) {
    console.error(`profile.mjs: unknown option "${process.argv[i]}"`);
    process.exit(2);
  }
  args[k] = process.argv[i + 1];
}
if (!args.hivelite || !args.data) {
  console.error('usage: node bench/profile.mjs --hivelite PATH --data DIR [--runs N] ...');
  process.exit(2);
}
const hl = path.resolve(args.hivelite);
const data = path.resolve(args.data);
const runs = Math.max(1, Number(args.runs));
const threads = Math.max(1, Number(args.threads));
const gen = JSON.parse(fs.readFileSync(`${data}/gen.json`, 'utf8'));
const tmp = fs.mkdtempSync(path.join(path.dirname(data), '.hl-profile-bench-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- the files: lineitem hard-linked, the other tables by symlink --------
const files = `${tmp}/data`;
fs.mkdirSync(files);
for (const t of ['blocks', 'p4096', 'part']) fs.symlinkSync(`${data}/${t}`, `${files}/${t}`);
const cp = spawnSync('cp', ['-al', `${data}/lineitem`, `${files}/lineitem`]);
if (cp.status !== 0) throw new Error(`cp -al: ${cp.stderr}`);
const newDay = '1998-12-02';
const newDir = `${files}/lineitem/l_shipdate=${newDay}`;
const lastDir = `${files}/lineitem/l_shipdate=1998-12-01`;

// ---- processes ------------------------------------------------------------
function timed(argv) {
  const tf = `${tmp}/time.txt`;
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', tf, ...argv], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t0;
  const rssKb = Number(fs.readFileSync(tf, 'utf8').trim().split('\n').pop());
  if (r.status !== 0) throw new Error(`${argv.slice(0, 6).join(' ')} ...: ${r.stderr}`);
  return { ms, rss: rssKb / 1024, stdout: r.stdout, stderr: r.stderr };
}
const hlRun = (wh, sql) =>
  timed([hl, '-w', wh, '--format', 'json', '-c', `SET hivelite.threads=${threads}`, '-c', sql]);
const duckRun = (sql) => {
  const r = timed(['node', `${here}/duck.mjs`, files, String(threads), sql]);
  r.out = JSON.parse(r.stdout);
  return r;
};
const jsonLines = (text) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
// A PROFILE's column rows and summary.
function profileOut(text) {
  const lines = jsonLines(text);
  const summary = lines.pop();
  return { cols: lines, summary };
}

// ---- the template warehouse ---------------------------------------------
const template = `${tmp}/template`;
const ddl = `CREATE EXTERNAL TABLE lineitem (l_orderkey BIGINT, l_partkey BIGINT,
    l_suppkey BIGINT, l_linenumber INT, l_quantity DECIMAL(15,2),
    l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2),
    l_returnflag STRING, l_linestatus STRING, l_commitdate DATE, l_receiptdate DATE,
    l_shipinstruct STRING, l_shipmode STRING, l_comment STRING)
    PARTITIONED BY (l_shipdate DATE) STORED AS PARQUET LOCATION '${files}/lineitem'`;
timed([hl, '-w', template, '-c', ddl]);
const msck = timed([hl, '-w', template, '-c', 'MSCK REPAIR TABLE lineitem']);
timed([hl, '-w', template, '-c',
  "ALTER TABLE lineitem SET TBLPROPERTIES ('hivelite.incremental.field'='l_shipdate', " +
  "'hivelite.incremental.kind'='value')"]);
let nWh = 0;
function freshWarehouse() {
  const wh = `${tmp}/wh-${nWh++}`;
  fs.cpSync(template, wh, { recursive: true });
  return wh;
}

// ---- the runs -----------------------------------------------------------
const steps = {};
const record = (name, engine, r) => {
  steps[name] ??= { hl: [], duck: [] };
  steps[name][engine].push(r);
};
const summaries = {};
const t0 = performance.now();
for (let run = 0; run < runs; run++) {
  const a = freshWarehouse(), b = freshWarehouse();
  record('select_limit', 'hl', hlRun(a, 'SELECT * FROM lineitem LIMIT 100'));
  record('select_limit', 'duck', duckRun('SELECT * FROM lineitem LIMIT 100'));
  const ea = hlRun(a, 'EXPLAIN ANALYZE SELECT * FROM lineitem LIMIT 100').stdout;
  summaries.select_limit = (ea.match(/partitions read \d+ of \d+/) || ['?'])[0];

  let r = hlRun(a, 'PROFILE TABLE lineitem LIMIT 100000');
  record('profile_limit', 'hl', r);
  summaries.profile_limit = profileOut(r.stdout).summary;
  record('profile_limit', 'duck', duckRun('SUMMARIZE SELECT * FROM lineitem LIMIT 100000'));

  r = hlRun(b, 'PROFILE TABLE lineitem');
  record('profile_full', 'hl', r);
  summaries.profile_full = profileOut(r.stdout).summary;
  const full = profileOut(r.stdout);
  const sum = duckRun('SUMMARIZE SELECT * FROM lineitem');
  record('profile_full', 'duck', sum);
  steps.profile_full.answer = { hl: full.cols, duck: sum.out };

  r = hlRun(b, 'PROFILE TABLE lineitem');
  record('profile_again', 'hl', r);
  summaries.profile_again = profileOut(r.stdout).summary;
  steps.profile_again.answer = { hl: profileOut(r.stdout).cols, fresh: full.cols };

  r = hlRun(b, 'PROFILE TABLE lineitem WHERE true');
  record('profile_where', 'hl', r);
  summaries.profile_where = profileOut(r.stdout).summary;

  r = hlRun(b, 'PROFILE TABLE lineitem LIMIT 100000');
  record('limit_again', 'hl', r);
  summaries.limit_again = profileOut(r.stdout).summary;

  // the incremental step: a checkpoint, then one new day
  r = hlRun(b, 'PROFILE TABLE lineitem INCREMENTAL');
  summaries.incremental_first = profileOut(r.stdout).summary;
  fs.mkdirSync(newDir);
  for (const f of fs.readdirSync(lastDir)) fs.copyFileSync(`${lastDir}/${f}`, `${newDir}/${f}`);
  timed([hl, '-w', b, '-c', `ALTER TABLE lineitem ADD PARTITION (l_shipdate='${newDay}')`]);
  r = hlRun(b, 'PROFILE TABLE lineitem INCREMENTAL');
  record('incremental', 'hl', r);
  summaries.incremental = profileOut(r.stdout).summary;
  record('incremental', 'duck',
    duckRun("SUMMARIZE SELECT * FROM lineitem WHERE l_shipdate > DATE '1998-12-01'"));
  r = hlRun(b, `PROFILE TABLE lineitem WHERE l_shipdate = '${newDay}'`);
  record('one_partition', 'hl', r);
  summaries.one_partition = profileOut(r.stdout).summary;
  fs.rmSync(newDir, { recursive: true });
  fs.rmSync(a, { recursive: true });
  fs.rmSync(b, { recursive: true });
  console.log(`run ${run + 1}/${runs} done`);
}
const totalS = (performance.now() - t0) / 1000;

// ---- answers: the profile against SUMMARIZE and count(DISTINCT) ---------
const sumRows = steps.profile_full.answer.duck;
const duckCols = sumRows.columns;
const duckBy = {};
for (const row of sumRows.rows) {
  const o = {};
  duckCols.forEach((c, i) => (o[c] = row[i]));
  duckBy[o.column_name] = o;
}
const hlCols = steps.profile_full.answer.hl;
const names = hlCols.map((c) => c.column);
const exact = duckRun(
  `SELECT ${names.map((n) => `count(DISTINCT ${n})`).join(', ')}, count(*) FROM lineitem`,
).out.rows[0].map(Number);
const diffs = [];
const distinctRows = [];
const rel = (a, b) => Math.abs(a - b) / Math.max(1, Math.abs(b));
for (let i = 0; i < hlCols.length; i++) {
  const h = hlCols[i], d = duckBy[h.column];
  if (!d) { diffs.push(`${h.column}: not in SUMMARIZE`); continue; }
  const n = Number(d.count);
  const nulls = Math.round((Number(d.null_percentage) / 100) * n);
  if (h.count !== n) diffs.push(`${h.column}: count ${h.count} vs ${n}`);
  if (h.nulls !== nulls) diffs.push(`${h.column}: nulls ${h.nulls} vs ${nulls}`);
  if (String(h.min) !== String(d.min)) diffs.push(`${h.column}: min ${h.min} vs ${d.min}`);
  if (String(h.max) !== String(d.max)) diffs.push(`${h.column}: max ${h.max} vs ${d.max}`);
  if (h.mean !== null && d.avg !== null && !Number.isNaN(Number(d.avg)) &&
      rel(h.mean, Number(d.avg)) > 1e-9)
    diffs.push(`${h.column}: mean ${h.mean} vs ${d.avg}`);
  distinctRows.push({
    column: h.column,
    exact: exact[i],
    hl: h.distinct,
    hlExact: h.distinct_exact,
    duck: Number(d.approx_unique),
  });
}
// past the exact-distinct threshold the quantiles and frequent values are
// sketches, whose merge may differ from one pass (within their bounds)
const again = steps.profile_again.answer;
const sketched = again.fresh.filter((c) => !c.distinct_exact).map((c) => c.column);
for (let i = 0; i < again.hl.length; i++)
  for (const k of Object.keys(again.fresh[i])) {
    if (!again.fresh[i].distinct_exact && ['q25', 'q50', 'q75', 'top'].includes(k)) continue;
    const x = again.hl[i][k], y = again.fresh[i][k];
    // top is an embedded JSON array (hl_column_is_json): compared as text
    const same = typeof y === 'number' && !Number.isInteger(y) ? rel(x, y) <= 1e-9
      : typeof y === 'object' && y !== null ? JSON.stringify(x) === JSON.stringify(y) : x === y;
    if (!same) diffs.push(`merged profile ${again.hl[i].column}.${k}: ${x} vs fresh ${y}`);
  }
if (exact[names.length] !== 20000000 * gen.scale && gen.scale === 1)
  diffs.push(`count(*) ${exact[names.length]}`);

// ---- report ---------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f0 = (x) => (x === undefined || x === null ? '' : x.toFixed(0));
const what = {
  select_limit: ['`SELECT * FROM lineitem LIMIT 100`', 'the same'],
  profile_limit: ['`PROFILE TABLE lineitem LIMIT 100000`, fresh catalog',
    '`SUMMARIZE SELECT * FROM lineitem LIMIT 100000`'],
  profile_full: ['`PROFILE TABLE lineitem`, fresh catalog (reads all, stores states)',
    '`SUMMARIZE SELECT * FROM lineitem`'],
  profile_again: ['`PROFILE TABLE lineitem` again (stored states merged)', '(as above)'],
  profile_where: ['`PROFILE TABLE lineitem WHERE true` (no states read or stored)', '(as above)'],
  limit_again: ['`PROFILE TABLE lineitem LIMIT 100000` after the full profile', '(as above)'],
  incremental: ['`PROFILE TABLE lineitem INCREMENTAL` after one new day',
    "`SUMMARIZE ... WHERE l_shipdate > DATE '1998-12-01'`"],
  one_partition: [`\`PROFILE TABLE lineitem WHERE l_shipdate = '${newDay}'\``, ''],
};
const dup = { profile_again: 'profile_full', profile_where: 'profile_full',
  limit_again: 'profile_limit' };
const sumText = (s) =>
  typeof s === 'string' ? s : s ? `${s.rows_read.toLocaleString('en-US')} rows; ${s.partitions_read} read, ` +
    `${s.partitions_reused} reused of ${s.partitions_total}` : '';
const table = [
  ['step', 'hivelite', 'ms', 'peak MB', 'DuckDB', 'ms', 'peak MB', 'ratio', 'hivelite summary'],
  ['---', '---', '---:', '---:', '---', '---:', '---:', '---:', '---'],
];
const figures = {};
for (const name of Object.keys(what)) {
  const s = steps[name];
  const d = s.duck.length ? s.duck : steps[dup[name]]?.duck || [];
  const hm = median(s.hl.map((x) => x.ms)), hr = Math.max(...s.hl.map((x) => x.rss));
  const dm = d.length ? median(d.map((x) => x.ms)) : null;
  const dr = d.length ? Math.max(...d.map((x) => x.rss)) : null;
  figures[name] = { hm, hr, dm, dr };
  table.push([name, what[name][0], f0(hm), f0(hr), what[name][1], f0(dm), f0(dr),
    dm ? (hm / dm).toFixed(2) : '', sumText(summaries[name])]);
}
const dtable = [
  ['column', 'count(DISTINCT)', 'PROFILE distinct', 'error', 'SUMMARIZE approx_unique', 'error'],
  ['---', '---:', '---:', '---:', '---:', '---:'],
];
const pct = (a, b) => `${((100 * (a - b)) / b).toFixed(2)} %`;
for (const r of distinctRows)
  dtable.push([r.column, r.exact.toLocaleString('en-US'),
    `${r.hl.toLocaleString('en-US')}${r.hlExact ? ' (exact)' : ''}`, pct(r.hl, r.exact),
    r.duck.toLocaleString('en-US'), pct(r.duck, r.exact)]);
const base = { hl: timed([hl, '-w', template, '-c', 'SELECT 1']), duck: duckRun('SELECT 1') };
const md = (rows) => rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
const when = new Date().toISOString().replace('T', ' ').replace(/\..*/, ' UTC');
const L = [];
L.push('<!-- profile.sh: begin (written by bench/profile.sh; make bench keeps this section) -->');
L.push('## PROFILE TABLE vs DuckDB SUMMARIZE (`bench/profile.sh`, issue 16)', '');
L.push(
  `Written by bench/profile.sh on ${when}: ${os.availableParallelism()} cores, ` +
    `${os.cpus()[0]?.model || 'unknown CPU'}; ` +
    `${spawnSync(hl, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ` +
    `DuckDB ${gen.duckdb_version}. lineitem at scale ${gen.scale}: ` +
    `${gen.tables.lineitem.rows.toLocaleString('en-US')} rows in 2,526 day partitions ` +
    `(snappy Parquet, one file a day), MSCK ${f0(msck.ms)} ms. ${threads} threads in both ` +
    `engines; median of ${runs} runs, each a fresh process (start-up included), ` +
    'alternating; peak RSS by /usr/bin/time (max over the runs); ratio = hivelite / DuckDB. ' +
    `Baseline \`SELECT 1\`: hivelite ${f0(base.hl.ms)} ms / ${f0(base.hl.rss)} MB, ` +
    `DuckDB in node ${f0(base.duck.ms)} ms / ${f0(base.duck.rss)} MB.`,
);
L.push('', md(table), '');
L.push(
  'The incremental field is `l_shipdate` with kind `value` (a DATE partition column: plan/incr.h ' +
    'allows `date`/`batch` only on a STRING first partition column). The first INCREMENTAL scan ' +
    `(no checkpoint) read ${sumText(summaries.incremental_first)}; after ALTER TABLE ADD ` +
    `PARTITION of ${newDay} the next one is pruned to \`l_shipdate > DATE '1998-12-01'\` by the ` +
    'planner and reads that one partition.',
);
L.push('', 'Distinct counts of the full profile against `count(DISTINCT)` (DuckDB, untimed):', '');
L.push(md(dtable), '');
L.push(diffs.length
  ? `Differences: ${diffs.join('; ')}.`
  : 'Every column\'s count, nulls, min, max and mean equal SUMMARIZE\'s (the mean to 1e-9); ' +
    'the profile merged from stored states equals the fresh one field for field ' +
    '(floating-point fields to 1e-9), except the quantiles and frequent values of the ' +
    `columns past the exact-distinct threshold (${sketched.join(', ')}), sketches whose ` +
    'merge differs from one pass within their bounds. Both list the partition column ' +
    '`l_shipdate` (PROFILE from the partitions\' row counts, reading nothing for it).');
L.push('', `Measured in ${totalS.toFixed(0)} s.`);
L.push('<!-- profile.sh: end -->', '');
const section = L.join('\n');
const out = path.resolve(args.out);
let text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
const re = /<!-- profile\.sh: begin[\s\S]*?<!-- profile\.sh: end -->\n?/;
text = re.test(text) ? text.replace(re, section) : text.replace(/\n*$/, '\n\n') + section;
fs.writeFileSync(out, text);
console.log(section);
process.exitCode = diffs.length ? 1 : 0;
