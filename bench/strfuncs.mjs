// bench/strfuncs.mjs -- the DuckDB side of bench/strfuncs.py: one query over
// the tab-separated rows file, in a process of its own (so that its peak
// memory is that query's), run RUNS times; prints one JSON line
// {"value": "...", "best_ms": N} (CPU ms) with the query's one value as text.
//
// Usage: node bench/strfuncs.mjs ROWSFILE RUNS THREADS EXPR
// EXPR is evaluated over t(id, s, j, c), the file loaded into an in-memory
// table before the clock starts: DuckDB's CSV parse varies from run to run
// by more than the cheaper functions cost, so only the query is timed.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, runs, threads, expr] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET threads=${Number(threads)}`);
// every field is text; no quoting, as in the hivelite table's delimited rows
await con.run(
  `CREATE TABLE t AS SELECT * FROM read_csv('${file}', delim='\t', quote='', escape='', ` +
    `header=false, columns={'id': 'BIGINT', 's': 'VARCHAR', 'j': 'VARCHAR', 'c': 'VARCHAR'})`,
);
let best = Infinity;
let value = null;
for (let k = 0; k < Number(runs); k++) {
  // CPU time of the process (every thread), as bench/strfuncs.py takes
  // hivelite's: wall time on the shared cores swings with the neighbours
  const t0 = process.cpuUsage();
  const r = await con.runAndReadAll(`SELECT ${expr} FROM t`);
  const d = process.cpuUsage(t0);
  const ms = (d.user + d.system) / 1000;
  value = String(r.getRows()[0][0]);
  best = Math.min(best, ms);
}
process.stdout.write(JSON.stringify({ value, best_ms: Number(best.toFixed(2)) }) + '\n');
