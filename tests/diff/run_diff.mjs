// run_diff.mjs -- differential SQL test runner: hivelite against DuckDB.
//
// Generates the datasets (gen_data.mjs) into a temporary directory, declares
// them to a fresh hivelite warehouse and to an in-memory DuckDB, runs every
// query of queries.sql (and known_failures.txt) in both engines and compares
// the rows: a multiset when the query has no top-level ORDER BY, the exact
// sequence otherwise.  DuckDB runs in this process (one connection for all
// queries); hivelite runs as one CLI process per query, --jobs at a time.
// The query file format is described in README.md.
//
// Usage: node run_diff.mjs --hivelite PATH [--queries FILE] [--known FILE]
//          [--pass 'LABEL=SQL-prefix']... [--jobs N] [--max-rss-mb N] [--filter TEXT]
//          [--keep] [--verbose]
// Exit: 0 every query outside known_failures.txt matched in every pass,
//       1 a mismatch or error, 2 bad usage.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generate } from './gen_data.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REL_TOL = 1e-9;

// Hive functions DuckDB spells differently, with the same meaning.
const DUCK_SHIMS = [
  'CREATE MACRO nvl(a, b) AS coalesce(a, b)',
];

// ---------------------------------------------------------------- arguments

function parse_args(argv) {
  const opt = {
    hivelite: null,
    queries: path.join(HERE, 'queries.sql'),
    known: path.join(HERE, 'known_failures.txt'),
    passes: [],
    jobs: 2,
    max_rss_mb: 2048,
    filter: null,
    keep: false,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--hivelite') opt.hivelite = val();
    else if (a === '--queries') opt.queries = val();
    else if (a === '--known') opt.known = val();
    else if (a === '--pass') {
      const v = val();
      const eq = v.indexOf('=');
      if (eq <= 0) usage('--pass needs LABEL=SQL');
      opt.passes.push({ label: v.slice(0, eq), prefix: v.slice(eq + 1) });
    } else if (a === '--jobs') opt.jobs = Math.max(1, parseInt(val(), 10) || 1);
    else if (a === '--max-rss-mb') opt.max_rss_mb = Math.max(0, parseInt(val(), 10) || 0);
    else if (a === '--filter') opt.filter = val();
    else if (a === '--keep') opt.keep = true;
    else if (a === '--verbose') opt.verbose = true;
    else usage(`unknown argument ${a}`);
  }
  if (!opt.hivelite) usage('--hivelite is required');
  if (opt.passes.length === 0) opt.passes.push({ label: 'default', prefix: '' });
  return opt;
}

function usage(msg) {
  console.error(`run_diff: ${msg}`);
  console.error("usage: node run_diff.mjs --hivelite PATH [--queries F] [--known F] " +
    "[--pass 'LABEL=SET k=v;']... [--jobs N] [--max-rss-mb N] [--filter TEXT] [--keep] [--verbose]");
  process.exit(2);
}

// ---------------------------------------------------------------- query file

// Blocks are separated by blank lines.  '#' lines are comments.  In a block,
// '-- section: NAME' names the following queries, '-- duckdb:' starts the
// DuckDB text (to the end of the block), '-- reason: TEXT' explains a known
// failure, '-- ordered' / '-- unordered' override ORDER BY detection and
// '-- abs_tol: X' allows an absolute difference X for numbers (a DECIMAL
// average against DuckDB's DOUBLE one).  Everything else is the Hive query.
export function parse_queries(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  let section = path.basename(file);
  let block = [];
  let block_line = 0;
  const flush = () => {
    if (block.length === 0) return;
    const q = { section, hive: [], duck: null, reason: null, ordered: null, abs_tol: 0, line: block_line };
    let in_duck = false;
    for (const ln of block) {
      const m = /^--\s*(section|duckdb|reason|ordered|unordered|abs_tol)\s*:?\s*(.*)$/.exec(ln);
      if (m) {
        const [, key, rest] = m;
        if (key === 'section') section = q.section = rest.trim();
        else if (key === 'duckdb') {
          in_duck = true;
          q.duck = rest ? [rest] : [];
        } else if (key === 'reason') q.reason = rest.trim();
        else if (key === 'ordered') q.ordered = true;
        else if (key === 'unordered') q.ordered = false;
        else if (key === 'abs_tol') q.abs_tol = Number(rest);
        continue;
      }
      (in_duck ? q.duck : q.hive).push(ln);
    }
    block = [];
    const strip = (lines) => lines.join('\n').trim().replace(/;\s*$/, '');
    q.hive = strip(q.hive);
    if (q.hive === '') return; // a section header alone
    q.duck = q.duck ? strip(q.duck) : null;
    out.push(q);
  };
  text.split('\n').forEach((ln, idx) => {
    if (/^\s*#/.test(ln)) return;
    if (ln.trim() === '') return flush();
    if (block.length === 0) block_line = idx + 1;
    block.push(ln.replace(/\s+$/, ''));
  });
  flush();
  const counts = {};
  for (const q of out) {
    counts[q.section] = (counts[q.section] || 0) + 1;
    q.id = `${q.section}.${counts[q.section]}`;
  }
  return out;
}

// Mechanical dialect translation for DuckDB when no '-- duckdb:' text is
// given: only spellings whose meaning is the same in both engines.
export function to_duckdb(sql) {
  return sql
    .replace(/\bLEFT\s+SEMI\s+JOIN\b/gi, 'SEMI JOIN')
    .replace(/\bLEFT\s+ANTI\s+JOIN\b/gi, 'ANTI JOIN')
    .replace(/\bDIV\b/g, '//')
    .replace(/<=>/g, ' IS NOT DISTINCT FROM ');
}

// Does the outermost query end with ORDER BY?  (Strings and parenthesised
// subqueries are skipped.)
export function has_top_order_by(sql) {
  let depth = 0;
  let flat = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const j = sql.indexOf(c, i + 1);
      i = j < 0 ? sql.length : j;
      flat += ' ';
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) flat += c;
  }
  return /\bORDER\s+BY\b/i.test(flat);
}

// ---------------------------------------------------------------- hivelite

// Runs CMD; kills it after TIMEOUT_MS, or as soon as its resident memory
// passes MAX_RSS_MB (polled from /proc), so that a runaway query cannot take
// the shared machine down with it.
function run_process(cmd, args, timeout_ms, max_rss_mb = 0) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    let timed_out = false;
    let rss_exceeded = 0;
    const timer = setTimeout(() => {
      timed_out = true;
      child.kill('SIGKILL');
    }, timeout_ms);
    const poll = max_rss_mb > 0
      ? setInterval(() => {
        let status;
        try {
          status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        } catch {
          return; // exited, or no /proc
        }
        const m = /VmRSS:\s+(\d+) kB/.exec(status);
        if (m && Number(m[1]) > max_rss_mb * 1024) {
          rss_exceeded = Math.round(Number(m[1]) / 1024);
          child.kill('SIGKILL');
        }
      }, 100)
      : null;
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      resolve({
        code,
        signal,
        timed_out,
        rss_exceeded,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

// RFC 4180 as hivelite writes it: NULL is an empty unquoted field, the empty
// string is "".
export function parse_csv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  const n = text.length;
  if (n === 0) return rows;
  for (;;) {
    let val;
    if (text[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const j = text.indexOf('"', i);
        if (j < 0) throw new Error('unterminated quote in hivelite CSV output');
        s += text.slice(i, j);
        if (text[j + 1] === '"') {
          s += '"';
          i = j + 2;
        } else {
          i = j + 1;
          break;
        }
      }
      val = s;
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      const s = text.slice(i, j);
      val = s === '' ? null : s;
      i = j;
    }
    row.push(val);
    if (i >= n) {
      rows.push(row);
      break;
    }
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    rows.push(row);
    row = [];
    if (i >= n) break;
  }
  return rows;
}

async function run_hivelite(opt, warehouse, prefix, sql) {
  const r = await run_process(opt.hivelite, ['-w', warehouse, '--format', 'csv', '-c', prefix + sql + ';'],
    60000, opt.max_rss_mb);
  if (r.rss_exceeded) return { error: `killed: resident memory reached ${r.rss_exceeded} MB (limit ${opt.max_rss_mb} MB)` };
  if (r.timed_out) return { error: 'timed out after 60 s' };
  if (r.code !== 0) return { error: `exit ${r.code ?? r.signal}: ${r.stderr.trim()}` };
  if (r.stderr.trim() !== '') return { error: `stderr: ${r.stderr.trim()}` };
  let rows;
  try {
    rows = parse_csv(r.stdout);
  } catch (e) {
    return { error: e.message };
  }
  if (rows.length === 0) return { error: 'no header in output' };
  return { header: rows[0], rows: rows.slice(1) };
}

// ---------------------------------------------------------------- DuckDB

let duck_api = null;

async function duck_open(setup_sql) {
  duck_api = await import('@duckdb/node-api');
  const inst = await duck_api.DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  for (const stmt of setup_sql.concat(DUCK_SHIMS)) await conn.run(stmt);
  return conn;
}

// Kinds drive the comparison: int, float, decimal, bool, date, ts, str.
function duck_kind(type) {
  const T = duck_api.DuckDBTypeId;
  switch (type.typeId) {
    case T.BOOLEAN:
      return 'bool';
    case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.BIGINT: case T.HUGEINT:
    case T.UTINYINT: case T.USMALLINT: case T.UINTEGER: case T.UBIGINT: case T.UHUGEINT:
      return 'int';
    case T.FLOAT: case T.DOUBLE:
      return 'float';
    case T.DECIMAL:
      return 'decimal';
    case T.DATE:
      return 'date';
    case T.TIMESTAMP: case T.TIMESTAMP_S: case T.TIMESTAMP_MS: case T.TIMESTAMP_NS:
      return 'ts';
    default:
      return 'str';
  }
}

async function run_duck(conn, sql) {
  try {
    const r = await conn.runAndReadAll(sql);
    const kinds = r.columnTypes().map(duck_kind);
    const rows = r.getRows().map((row) => row.map((v) => {
      if (v === null || v === undefined) return null;
      if (typeof v === 'boolean') return v ? 'true' : 'false';
      if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v);
      return String(v); // bigint, decimal, date, timestamp and strings
    }));
    return { kinds, header: r.columnNames(), rows };
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

// ---------------------------------------------------------------- comparison

// Timestamps: 'YYYY-MM-DD HH:MM:SS[.f]' with trailing fraction zeros dropped.
function canon_ts(s) {
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?$/.exec(s);
  if (!m) return s;
  const frac = (m[3] || '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${frac ? '.' + frac : ''}`;
}

// An exact decimal as [BigInt unscaled, scale], or null if s is not one.
function parse_exact(s) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && !m[3])) return null;
  const frac = m[3] || '';
  let v = BigInt((m[2] || '0') + frac);
  if (m[1] === '-') v = -v;
  return [v, frac.length];
}

function exact_equal(a, b) {
  const x = parse_exact(a);
  const y = parse_exact(b);
  if (!x || !y) return null;
  const scale = Math.max(x[1], y[1]);
  return x[0] * 10n ** BigInt(scale - x[1]) === y[0] * 10n ** BigInt(scale - y[1]);
}

function num_of(s) {
  if (s === 'NaN') return NaN;
  if (s === 'Infinity' || s === '+Infinity' || s === 'inf') return Infinity;
  if (s === '-Infinity' || s === '-inf') return -Infinity;
  const x = Number(s);
  return s.trim() === '' ? NaN : x;
}

function float_equal(a, b, abs_tol) {
  const x = num_of(a);
  const y = num_of(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y) && a === b;
  if (x === y) return true;
  const diff = Math.abs(x - y);
  return diff <= abs_tol || diff <= REL_TOL * Math.max(Math.abs(x), Math.abs(y));
}

function value_equal(kind, h, d, abs_tol) {
  if (h === null || d === null) return h === d;
  switch (kind) {
    case 'int':
    case 'decimal': {
      const e = exact_equal(h, d);
      if (e === true) return true;
      // one side exact, the other a double (Hive and DuckDB type some
      // expressions differently): compare as numbers
      return e === null || abs_tol > 0 ? float_equal(h, d, abs_tol) : false;
    }
    case 'float':
      return float_equal(h, d, abs_tol);
    case 'ts':
      return canon_ts(h) === canon_ts(d);
    default:
      return h === d;
  }
}

// Order for the multiset comparison: NULL first, numbers numerically, the
// rest bytewise.  Each side is sorted on its own values; rows then compare
// pairwise, so doubles that differ within the tolerance still line up.
function sort_rows(kinds, rows) {
  const keys = rows.map((r) => r.map((v, c) => {
    if (v === null) return null;
    const k = kinds[c];
    if (k === 'int' || k === 'float' || k === 'decimal') {
      const x = num_of(v);
      return Number.isNaN(x) ? v : x;
    }
    if (k === 'ts') return canon_ts(v);
    return v;
  }));
  const idx = rows.map((_, i) => i);
  idx.sort((a, b) => {
    const ka = keys[a];
    const kb = keys[b];
    for (let c = 0; c < ka.length; c++) {
      const x = ka[c];
      const y = kb[c];
      if (x === y) continue;
      if (x === null) return -1;
      if (y === null) return 1;
      if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  });
  return idx.map((i) => rows[i]);
}

function fmt_row(row) {
  return '(' + row.map((v) => (v === null ? 'NULL' : JSON.stringify(v))).join(', ') + ')';
}

// Returns null when equal, else a short description of the first difference.
function compare(q, h, d) {
  if (h.error) return `hivelite error: ${h.error}`;
  if (d.error) return `DuckDB error: ${d.error}`;
  if (h.header.length !== d.kinds.length) {
    return `column count: hivelite ${h.header.length} (${h.header}), DuckDB ${d.kinds.length} (${d.header})`;
  }
  for (const r of h.rows) {
    if (r.length !== h.header.length) return `hivelite row with ${r.length} fields: ${fmt_row(r)}`;
  }
  const ordered = q.ordered ?? has_top_order_by(q.hive);
  let hr = h.rows;
  let dr = d.rows;
  if (!ordered) {
    hr = sort_rows(d.kinds, hr);
    dr = sort_rows(d.kinds, dr);
  }
  const n = Math.max(hr.length, dr.length);
  for (let i = 0; i < n; i++) {
    const a = hr[i];
    const b = dr[i];
    if (!a || !b || a.some((v, c) => !value_equal(d.kinds[c], v, b[c], q.abs_tol))) {
      const what = hr.length !== dr.length ? `row count hivelite ${hr.length} vs DuckDB ${dr.length}; ` : '';
      return `${what}first difference at ${ordered ? '' : 'sorted '}row ${i + 1}: hivelite ` +
        `${a ? fmt_row(a) : '(none)'} vs DuckDB ${b ? fmt_row(b) : '(none)'}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- main

async function pool(items, jobs, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

async function main() {
  const opt = parse_args(process.argv.slice(2));
  const t0 = Date.now();
  let queries = parse_queries(opt.queries);
  let known = fs.existsSync(opt.known) ? parse_queries(opt.known) : [];
  known.forEach((q) => (q.known = true));
  if (opt.filter) {
    const f = opt.filter;
    queries = queries.filter((q) => q.id.includes(f) || q.hive.includes(f));
    known = known.filter((q) => q.id.includes(f) || q.hive.includes(f));
  }
  const all = queries.concat(known);

  const tmp_root = process.env.HIVELITE_TEST_TMP || os.tmpdir();
  fs.mkdirSync(tmp_root, { recursive: true });
  const work = fs.mkdtempSync(path.join(tmp_root, 'hl-diff-'));
  let exit_code = 0;
  try {
    generate(work);
    const warehouse = path.join(work, 'wh');
    const setup = await run_process(opt.hivelite, ['-w', warehouse, '-f', path.join(work, 'hive_setup.sql')],
      120000);
    if (setup.code !== 0) throw new Error(`hivelite setup failed: ${setup.stderr.trim()}`);
    const duck_setup = fs.readFileSync(path.join(work, 'duck_setup.sql'), 'utf8').split('\n')
      .filter((s) => s.trim() !== '');
    const conn = await duck_open(duck_setup);

    // DuckDB answers first (one connection, sequential), then hivelite per pass.
    const duck = [];
    for (const q of all) duck.push(await run_duck(conn, q.duck ?? to_duckdb(q.hive)));
    const t_duck = Date.now();

    for (const pass of opt.passes) {
      const tp = Date.now();
      const hive = await pool(all, opt.jobs, (q) => run_hivelite(opt, warehouse, pass.prefix, q.hive));
      let pass_n = 0;
      const failed = [];
      const known_failing = [];
      const known_passing = [];
      all.forEach((q, i) => {
        const diff = compare(q, hive[i], duck[i]);
        if (q.known) (diff ? known_failing : known_passing).push([q, diff]);
        else if (diff) failed.push([q, diff]);
        else pass_n++;
        if (opt.verbose) console.log(`${diff ? (q.known ? 'KNOWN' : 'FAIL') : 'ok  '} ${q.id}`);
      });
      const label = opt.passes.length > 1 || pass.prefix ? ` [pass ${pass.label}]` : '';
      for (const [q, diff] of failed) {
        console.log(`FAIL${label} ${q.id} (${path.basename(opt.queries)}:${q.line})\n  hive:   ${q.hive.replace(/\n/g, ' ')}`);
        if (q.duck) console.log(`  duckdb: ${q.duck.replace(/\n/g, ' ')}`);
        console.log(`  ${diff}`);
      }
      for (const [q] of known_passing) {
        console.log(`KNOWN FAILURE NOW PASSES${label} (remove from ${path.basename(opt.known)}:${q.line}): ` +
          q.hive.replace(/\n/g, ' '));
      }
      if (opt.verbose) {
        for (const [q, diff] of known_failing) console.log(`known failure ${q.id}: ${q.reason}\n  ${diff}`);
      }
      console.log(`diff${label}: ${pass_n}/${queries.length} queries match DuckDB, ${failed.length} failed; ` +
        `known failures: ${known_failing.length} still failing, ${known_passing.length} now pass ` +
        `(${((Date.now() - tp) / 1000).toFixed(1)} s)`);
      if (failed.length > 0) exit_code = 1;
    }
    console.log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s (DuckDB ${((t_duck - t0) / 1000).toFixed(1)} s ` +
      'including data generation and setup)');
  } finally {
    if (opt.keep) console.log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
  return exit_code;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`run_diff: ${e.stack || e.message}`);
  process.exit(1);
});
