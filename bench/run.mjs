// bench/run.mjs -- runs bench/queries.sql in hivelite and in DuckDB side by
// side and reports the ratios (bench/run.sh prepares the build and the data
// and calls this; see bench/README.md).
//
// Usage: node bench/run.mjs --hivelite PATH --data DIR [--runs N]
//          [--threads 1,2] [--only name,name] [--out FILE]
//
// Every run of a query is a fresh process of each engine (hivelite CLI;
// node + @duckdb/node-api via bench/duck.mjs), alternating between the two,
// with the files warm in the page cache: the figure is the median wall time
// of the whole process, start-up included.  Each process runs under
// /usr/bin/time for its peak RSS.  Besides, each engine's own time for the
// query alone is recorded: DuckDB's from inside its process, hivelite's
// from one EXPLAIN ANALYZE run.  Every query's answer is compared between
// the engines (exact for integers and equal-scale decimals, to the printed
// precision or 1e-9 relative otherwise); a difference is reported as a
// mismatch.  These are measurements, not assertions: the exit status is 1
// only when an engine fails or the answers differ.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const args = { runs: 5, threads: `1,${os.availableParallelism()}`, out: `${here}/results.md` };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!['hivelite', 'data', 'runs', 'threads', 'only', 'out'].includes(k)) {
    console.error(`run.mjs: unknown option "${process.argv[i]}"`);
    process.exit(2);
  }
  args[k] = process.argv[i + 1];
}
if (!args.hivelite || !args.data) {
  console.error('usage: node bench/run.mjs --hivelite PATH --data DIR [--runs N] ...');
  process.exit(2);
}
const hl = path.resolve(args.hivelite);
const data = path.resolve(args.data);
const runs = Math.max(1, Number(args.runs));
const threadModes = [...new Set(args.threads.split(',').map(Number))];
const gen = JSON.parse(fs.readFileSync(`${data}/gen.json`, 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hl-bench-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- queries -------------------------------------------------------------
function parseQueries(text) {
  const out = [];
  for (const block of text.split(/^-- name: */m).slice(1)) {
    const lines = block.split('\n');
    const q = { name: lines[0].trim(), what: '', ordered: false, hl: [], duck: null };
    let target = q.hl;
    for (const line of lines.slice(1)) {
      const m = line.match(/^-- (what|ordered|duckdb):\s*(.*)$/);
      if (m && m[1] === 'what') q.what = m[2];
      else if (m && m[1] === 'ordered') q.ordered = m[2] === 'yes';
      else if (m && m[1] === 'duckdb') target = q.duck = [];
      else if (!line.startsWith('--')) target.push(line);
    }
    const clean = (l) => l.join('\n').trim().replace(/;$/, '');
    q.hl = clean(q.hl);
    q.duck = q.duck ? clean(q.duck) : q.hl;
    out.push(q);
  }
  return out;
}
let queries = parseQueries(fs.readFileSync(`${here}/queries.sql`, 'utf8'));
if (args.only) {
  const only = args.only.split(',');
  queries = queries.filter((q) => only.includes(q.name));
}

// ---- processes -----------------------------------------------------------
// Runs argv under /usr/bin/time; returns wall ms, peak RSS in MB, output.
function timed(argv) {
  const tf = `${tmp}/time.txt`;
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', tf, ...argv], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t0;
  const rssKb = Number(fs.readFileSync(tf, 'utf8').trim().split('\n').pop());
  return { ms, rss: rssKb / 1024, status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const hlRun = (sql, threads) =>
  timed([hl, '-w', wh, '--format', 'csv', '--no-header', '-c', `SET hivelite.threads=${threads}`,
    '-c', sql]);
const duckRun = (sql, threads) => timed(['node', `${here}/duck.mjs`, data, String(threads), sql]);

// RFC 4180 as hivelite prints it: an unquoted empty field is NULL.
function parseCsv(text) {
  const rows = [];
  let row = [], i = 0;
  while (i < text.length) {
    let v;
    if (text[i] === '"') {
      v = '';
      i++;
      for (;;) {
        const j = text.indexOf('"', i);
        if (j < 0) throw new Error('unterminated quote in hivelite output');
        v += text.slice(i, j);
        i = j + 1;
        if (text[i] === '"') { v += '"'; i++; } else break;
      }
    } else {
      let j = i;
      while (j < text.length && text[j] !== ',' && text[j] !== '\n') j++;
      v = j === i ? null : text.slice(i, j);
      i = j;
    }
    row.push(v);
    if (text[i] === ',') i++;
    else { rows.push(row); row = []; i++; }
  }
  return rows;
}

// ---- answer comparison ---------------------------------------------------
const plain = /^-?\d+(\.\d+)?$/;
function sameValue(a, b) {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  const na = Number(a), nb = Number(b);
  if (Number.isNaN(na) || Number.isNaN(nb) || a.trim() === '' || b.trim() === '') return false;
  const pa = plain.test(a), pb = plain.test(b);
  const scale = (s) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);
  if (pa && pb && scale(a) === scale(b)) return false; // same exact type: text must match
  const diff = Math.abs(na - nb), mag = Math.max(Math.abs(na), Math.abs(nb));
  if (diff <= 1e-9 * mag) return true;
  // One side rounded to fewer digits, at least four (Hive's avg(DECIMAL)
  // keeps the scale + 4 where DuckDB answers a DOUBLE).
  if (pa && pb) {
    const s = Math.min(scale(a), scale(b));
    return s >= 4 && diff <= 0.5 * 10 ** -s * (1 + 1e-9);
  }
  return false;
}
function compare(q, hlRows, duckRows) {
  const key = (r) => JSON.stringify(r);
  const a = q.ordered ? hlRows : [...hlRows].sort((x, y) => (key(x) < key(y) ? -1 : 1));
  const b = q.ordered ? duckRows : [...duckRows].sort((x, y) => (key(x) < key(y) ? -1 : 1));
  if (a.length !== b.length) return `row count ${a.length} vs DuckDB ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i].length !== b[i].length) return `row ${i + 1}: ${a[i].length} vs ${b[i].length} columns`;
    for (let j = 0; j < a[i].length; j++)
      if (!sameValue(a[i][j], b[i][j]))
        return `row ${i + 1} col ${j + 1}: hivelite ${JSON.stringify(a[i][j])} vs DuckDB ${JSON.stringify(b[i][j])}`;
  }
  return null;
}

// ---- setup: a hivelite warehouse over the generated files ----------------
const wh = `${tmp}/wh`;
const ddl = {
  blocks: `CREATE EXTERNAL TABLE blocks (hash STRING, height BIGINT, time BIGINT, size INT,
    n_tx INT, fee BIGINT, difficulty DOUBLE) PARTITIONED BY (dt STRING)
    STORED AS PARQUET LOCATION '${data}/blocks'`,
  p4096: `CREATE EXTERNAL TABLE p4096 (id BIGINT, v INT, s STRING)
    PARTITIONED BY (dt STRING, hr INT) STORED AS PARQUET LOCATION '${data}/p4096'`,
  lineitem: `CREATE EXTERNAL TABLE lineitem (l_orderkey BIGINT, l_partkey BIGINT,
    l_suppkey BIGINT, l_linenumber INT, l_quantity DECIMAL(15,2),
    l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2),
    l_returnflag STRING, l_linestatus STRING, l_commitdate DATE, l_receiptdate DATE,
    l_shipinstruct STRING, l_shipmode STRING, l_comment STRING)
    PARTITIONED BY (l_shipdate DATE) STORED AS PARQUET LOCATION '${data}/lineitem'`,
  part: `CREATE EXTERNAL TABLE part (p_partkey BIGINT, p_name STRING, p_brand STRING,
    p_type STRING, p_size INT, p_retailprice DECIMAL(15,2))
    STORED AS PARQUET LOCATION '${data}/part'`,
};
const setup = [];
for (const [name, sql] of Object.entries(ddl)) {
  const c = timed([hl, '-w', wh, '-c', sql]);
  if (c.status !== 0) throw new Error(`hivelite: ${name}: ${c.stderr}`);
  if (name !== 'part') {
    const m = timed([hl, '-w', wh, '--format', 'csv', '-c', `MSCK REPAIR TABLE ${name}`]);
    if (m.status !== 0) throw new Error(`hivelite: MSCK ${name}: ${m.stderr}`);
    const n = hlRun(`SHOW PARTITIONS ${name}`, 1).stdout.trim().split('\n').length;
    setup.push({ name, partitions: n, ms: m.ms });
    console.log(`setup: MSCK REPAIR TABLE ${name}: ${n} partitions, ${m.ms.toFixed(0)} ms (whole process)`);
  }
}

// ---- measurements --------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function measure(hlSql, duckSql, threads) {
  const h = [], d = [];
  for (let r = 0; r < runs; r++) {
    h.push(hlRun(hlSql, threads));
    d.push(duckRun(duckSql, threads));
  }
  for (const x of h) if (x.status !== 0) return { error: `hivelite: ${x.stderr.trim()}` };
  for (const x of d) if (x.status !== 0) return { error: `DuckDB: ${x.stderr.trim().split('\n')[0]}` };
  const duckOut = d.map((x) => JSON.parse(x.stdout));
  return {
    hlMs: median(h.map((x) => x.ms)),
    duckMs: median(d.map((x) => x.ms)),
    hlRss: Math.max(...h.map((x) => x.rss)),
    duckRss: Math.max(...d.map((x) => x.rss)),
    duckQueryMs: median(duckOut.map((o) => o.query_ms)),
    hlRows: parseCsv(h[h.length - 1].stdout),
    duckRows: duckOut[duckOut.length - 1].rows,
  };
}
function hlEngineMs(sql, threads) {
  const r = hlRun(`EXPLAIN ANALYZE ${sql}`, threads);
  const m = r.stdout.match(/Result: \d+ rows? in ([\d.]+) ms/);
  return m ? Number(m[1]) : null;
}

const base = {};
for (const t of threadModes) base[t] = measure('SELECT 1', 'SELECT 1', t);
console.log(
  `baseline (SELECT 1): hivelite ${base[threadModes[0]].hlMs.toFixed(1)} ms ` +
    `${base[threadModes[0]].hlRss.toFixed(1)} MB; DuckDB (node) ` +
    `${base[threadModes[0]].duckMs.toFixed(1)} ms ${base[threadModes[0]].duckRss.toFixed(1)} MB`,
);

const results = [];
const mismatches = [];
const t0 = performance.now();
for (const q of queries) {
  const res = { q, by: {} };
  for (const t of threadModes) {
    const m = measure(q.hl, q.duck, t);
    if (!m.error) {
      m.hlEngineMs = hlEngineMs(q.hl, t);
      m.diff = compare(q, m.hlRows, m.duckRows);
      if (m.diff) mismatches.push(`${q.name} (threads=${t}): ${m.diff}`);
    } else {
      mismatches.push(`${q.name} (threads=${t}): ${m.error}`);
    }
    res.by[t] = m;
    const f = (x) => (x === null || x === undefined ? '-' : x.toFixed(1));
    console.log(
      m.error
        ? `${q.name} threads=${t}: ERROR ${m.error}`
        : `${q.name} threads=${t}: hivelite ${f(m.hlMs)} ms, DuckDB ${f(m.duckMs)} ms, ` +
            `ratio ${(m.hlMs / m.duckMs).toFixed(2)}; engine ${f(m.hlEngineMs)} vs ` +
            `${f(m.duckQueryMs)} ms; RSS ${f(m.hlRss)} vs ${f(m.duckRss)} MB; ` +
            (m.diff ? `MISMATCH ${m.diff}` : 'same answer'),
    );
  }
  results.push(res);
}
const totalS = (performance.now() - t0) / 1000;

// ---- report --------------------------------------------------------------
const f1 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(1));
const f0 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(0));
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : '-');
const hdr1 = ['query'];
const sep = ['---'];
for (const t of threadModes) {
  hdr1.push(`hl ms (${t}t)`, `duck ms (${t}t)`, `ratio (${t}t)`);
  sep.push('---:', '---:', '---:');
}
hdr1.push('hl MB', 'duck MB', 'answer');
sep.push('---:', '---:', '---');
const table1 = [hdr1, sep];
const table2 = [['query'], ['---']];
for (const t of threadModes) {
  table2[0].push(`hl engine ms (${t}t)`, `duck engine ms (${t}t)`, `ratio (${t}t)`);
  table2[1].push('---:', '---:', '---:');
}
for (const { q, by } of results) {
  const r1 = [q.name], r2 = [q.name];
  let answer = 'same';
  for (const t of threadModes) {
    const m = by[t];
    if (m.error) { r1.push('error', 'error', '-'); r2.push('-', '-', '-'); answer = 'ERROR'; continue; }
    r1.push(f0(m.hlMs), f0(m.duckMs), ratio(m.hlMs, m.duckMs));
    r2.push(f1(m.hlEngineMs), f1(m.duckQueryMs), ratio(m.hlEngineMs, m.duckQueryMs));
    if (m.diff) answer = 'MISMATCH';
  }
  const all = by[threadModes[threadModes.length - 1]];
  r1.push(f0(all.hlRss), f0(all.duckRss), answer);
  table1.push(r1);
  table2.push(r2);
}
const md = (rows) => rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
const cpu = os.cpus()[0]?.model || 'unknown CPU';
const when = new Date().toISOString().replace('T', ' ').replace(/\..*/, ' UTC');
const lines = [];
lines.push('# hivelite vs DuckDB: benchmark results', '');
lines.push(
  `Written by \`make bench\` (bench/run.sh) on ${when}: ${os.availableParallelism()} cores (nproc), ` +
    `${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()}; ` +
    `${spawnSync(hl, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ` +
    `DuckDB ${gen.duckdb_version} (@duckdb/node-api, node ${process.version}).`,
);
lines.push('');
lines.push(
  `Data: scale ${gen.scale} -- ` +
    Object.entries(gen.tables).map(([n, t]) => `${n} ${t.rows.toLocaleString('en-US')} rows`).join(', ') +
    `; generated in ${gen.total_seconds} s. Each figure is the median of ${runs} runs, each run a ` +
    'fresh process of each engine (alternating), files warm in the page cache.',
);
lines.push('');
lines.push('## Whole process (start-up included), ms; ratio = hivelite / DuckDB (below 1: hivelite faster)');
lines.push('');
lines.push(md(table1));
lines.push('');
lines.push(
  `"hl MB" / "duck MB": peak RSS with ${threadModes[threadModes.length - 1]} threads (max over the runs). ` +
    `Baseline \`SELECT 1\`: hivelite ${f1(base[threadModes[0]].hlMs)} ms / ${f1(base[threadModes[0]].hlRss)} MB, ` +
    `DuckDB in node ${f1(base[threadModes[0]].duckMs)} ms / ${f1(base[threadModes[0]].duckRss)} MB ` +
    '(node itself accounts for most of that: subtract it to compare the engines alone).',
);
lines.push('');
lines.push('## The query alone, ms');
lines.push('');
lines.push(
  'hivelite: the time EXPLAIN ANALYZE reports (one run); DuckDB: the median time of the query ' +
    'inside its process (runAndReadAll, after the views exist).',
);
lines.push('');
lines.push(md(table2));
lines.push('');
lines.push('## Setup');
lines.push('');
for (const s of setup)
  lines.push(`- MSCK REPAIR TABLE ${s.name}: ${s.partitions} partitions in ${f0(s.ms)} ms (whole process)`);
lines.push('');
lines.push('## Answers');
lines.push('');
if (mismatches.length === 0) lines.push(`All ${results.length} queries: the same answer in both engines, every thread count.`);
else for (const m of mismatches) lines.push(`- ${m}`);
lines.push('');
lines.push('## Queries', '');
for (const q of queries) lines.push(`- \`${q.name}\`: ${q.what}`);
lines.push('', `Measured in ${totalS.toFixed(0)} s.`, '');
// the sections other scripts write (bench/profile.sh, bench/avro.sh:
// between their markers) are kept
const prev = fs.existsSync(path.resolve(args.out)) ? fs.readFileSync(path.resolve(args.out), 'utf8') : '';
for (const name of ['profile', 'avro']) {
  const kept = prev.match(new RegExp(`<!-- ${name}\\.sh: begin[\\s\\S]*?<!-- ${name}\\.sh: end -->\\n?`));
  if (kept) lines.push(kept[0].endsWith('\n') ? kept[0] : `${kept[0]}\n`);
}
fs.writeFileSync(path.resolve(args.out), lines.join('\n'));
console.log('\n' + md(table1) + '\n\n' + md(table2) + '\n');
console.log(mismatches.length ? `MISMATCHES:\n${mismatches.join('\n')}` : 'all answers match');
console.log(`measured in ${totalS.toFixed(0)} s; written to ${args.out}`);
process.exitCode = mismatches.length ? 1 : 0;
