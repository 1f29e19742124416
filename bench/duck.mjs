// bench/duck.mjs -- the DuckDB side of one benchmark query, in a process of
// its own so that bench/run.mjs times DuckDB's whole process exactly as it
// times hivelite's.
//
// Usage: node bench/duck.mjs DATADIR THREADS SQL
//
// Creates views named like the hivelite tables over the Parquet files of
// bench/gen.mjs (hive_partitioning with the partition keys typed as the
// hivelite tables declare them), runs SQL once and prints one JSON line:
// {"columns": [...], "rows": [[...]...], "query_ms": N} with every value as
// a string (null stays null) so the caller compares exact decimal text.
// query_ms covers only the query, not the process start nor the views.
// With BENCH_DUCK_MEMORY_LIMIT (e.g. 256MB) set, DuckDB runs under that
// memory_limit and spills to BENCH_DUCK_TEMP (bench/spill.sh).
import { DuckDBInstance } from '@duckdb/node-api';

const [data, threads, sql] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`SET threads=${Number(threads)}`);
if (process.env.BENCH_DUCK_MEMORY_LIMIT) {
  await con.run(`SET memory_limit='${process.env.BENCH_DUCK_MEMORY_LIMIT}'`);
  await con.run(`SET temp_directory='${process.env.BENCH_DUCK_TEMP}'`);
  await con.run('SET preserve_insertion_order=false');
}
const pq = (glob, types) =>
  `read_parquet('${data}/${glob}'` +
  (types ? `, hive_partitioning=true, hive_types={${types}})` : ', hive_partitioning=false)');
await con.run(
  `CREATE VIEW blocks AS SELECT * FROM ${pq('blocks/*/*.parquet', "'dt': VARCHAR")}`,
);
await con.run(
  `CREATE VIEW p4096 AS SELECT * FROM ${pq('p4096/*/*/*.parquet', "'dt': VARCHAR, 'hr': INTEGER")}`,
);
await con.run(
  `CREATE VIEW lineitem AS SELECT * FROM ${pq('lineitem/*/*.parquet', "'l_shipdate': DATE")}`,
);
await con.run(`CREATE VIEW part AS SELECT * FROM ${pq('part/*.parquet', null)}`);
const t0 = performance.now();
const r = await con.runAndReadAll(sql);
const rows = r.getRowsJson().map((row) => row.map((v) => (v === null ? null : String(v))));
const t1 = performance.now();
process.stdout.write(
  JSON.stringify({ columns: r.columnNames(), rows, query_ms: Number((t1 - t0).toFixed(2)) }) +
    '\n',
);
