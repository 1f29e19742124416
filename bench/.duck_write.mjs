import { DuckDBInstance } from '@duckdb/node-api';
const [threads, from, to] = process.argv.slice(2);
const c = await (await DuckDBInstance.create(':memory:')).connect();
await c.run(`SET threads=${threads}`);
await c.run(`COPY (SELECT orderkey, partkey, linenumber, price, discount, flag, comment,
  DATE '1992-01-01' + dayn AS shipdate FROM ${from}) TO '${to}'
  (FORMAT PARQUET, PARTITION_BY (shipdate))`);
