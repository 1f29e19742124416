// DuckDB globbing the same files with hive_partitioning, pinned to one
// partition; prints the query time in ms (process start is timed outside).
import { DuckDBInstance } from '@duckdb/node-api';
const [root, dt, hr] = process.argv.slice(2);
const t0 = performance.now();
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(
  `SELECT count(*) FROM read_csv('${root}/*/*/*.txt', hive_partitioning=true, header=false, columns={'v':'VARCHAR'}) WHERE dt='${dt}' AND hr=${hr}`);
const t1 = performance.now();
console.log(`duckdb rows=${r.getRows()[0][0]} query_ms=${(t1 - t0).toFixed(1)}`);
