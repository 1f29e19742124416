// DuckDB globbing a dt=/hr= tree of one-line text files with
// hive_partitioning, counting the rows that WHERE keeps; prints the count
// and the query time in ms (process start is timed outside).
// Usage: node duckdb_pin.mjs ROOT "dt='2024-02-10' AND hr=17"
import { DuckDBInstance } from '@duckdb/node-api';
const [root, where] = process.argv.slice(2);
const t0 = performance.now();
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(
  `SELECT count(*) FROM read_csv('${root}/*/*/*.txt', hive_partitioning=true, header=false, columns={'v':'VARCHAR'}) WHERE ${where}`);
const t1 = performance.now();
console.log(`duckdb rows=${r.getRows()[0][0]} query_ms=${(t1 - t0).toFixed(1)}`);
