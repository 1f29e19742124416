// node_pg.mjs HIVELITE -- `hivelite serve` with node-postgres (npm pg,
// tests/server/package.json, run by tests/npm_peer.sh): simple queries with
// pg's type parsers on every Hive type, named prepared statements over the
// extended protocol (Parse once, Bind/Execute twice), an error's code and
// position, MSCK's warning as a 'notice' event, and parameters ($1, text
// format, as pg sends them).  Exact values compared.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import assert from "node:assert/strict";
import pg from "pg";

process.env.TZ = "UTC"; // pg makes Date objects of dates and timestamps in local time
const hivelite = process.argv[2];
const base = process.env.HIVELITE_TEST_TMP || tmpdir();
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, "server-node-"));
const wh = path.join(dir, "wh");
execFileSync(hivelite, ["-w", wh, "-c",
  "CREATE DATABASE web; CREATE TABLE web.t (id INT, name STRING, score DOUBLE, " +
  "amount DECIMAL(10,2), day DATE, ts TIMESTAMP, ok BOOLEAN, big BIGINT, raw BINARY); " +
  "INSERT INTO web.t VALUES (1, 'ann', 1.5, 10.25, '2024-01-02', '2024-01-02 03:04:05.5', " +
  "true, 9000000000, cast('hi' AS BINARY)), (2, NULL, -0.25, -3.00, NULL, " +
  "'2024-12-31 23:59:59', false, -1, NULL); CREATE TABLE web.p (x INT) PARTITIONED BY (k STRING)"]);
mkdirSync(path.join(wh, "web.db", "p", "junk"), { recursive: true });

const server = spawn(hivelite, ["serve", "-w", wh, "--listen", "127.0.0.1:0", "--auth", "trust"],
  { stdio: ["ignore", "ignore", "pipe"] });
let log = "";
const port = await new Promise((resolve, reject) => {
  server.stderr.on("data", (d) => {
    log += d;
    const m = /listening on [^:]+:(\d+)/.exec(log);
    if (m) resolve(Number(m[1]));
  });
  server.on("exit", () => reject(new Error("server exited: " + log)));
});
const failures = [];
async function check(what, fn) {
  try {
    await fn();
  } catch (e) {
    failures.push(what + ": " + e.message);
  }
}

const client = new pg.Client({ host: "127.0.0.1", port, user: "node", database: "warehouse" });
await client.connect();
const want = [
  { id: 1, name: "ann", score: 1.5, amount: "10.25", day: "2024-01-02T00:00:00.000Z",
    ts: "2024-01-02T03:04:05.500Z", ok: true, big: "9000000000", raw: "hi" },
  { id: 2, name: null, score: -0.25, amount: "-3.00", day: null,
    ts: "2024-12-31T23:59:59.000Z", ok: false, big: "-1", raw: null },
];
const plain = (rows) => rows.map((r) => ({ ...r,
  day: r.day && r.day.toISOString(), ts: r.ts && r.ts.toISOString(),
  raw: r.raw && r.raw.toString() }));
await check("simple query", async () => {
  const r = await client.query("SELECT * FROM web.t ORDER BY id");
  assert.deepEqual(plain(r.rows), want);
  assert.deepEqual(r.fields.map((f) => f.dataTypeID), [23, 25, 701, 1700, 1082, 1114, 16, 20, 17]);
  assert.equal(r.command, "SELECT");
  assert.equal(r.rowCount, 2);
});
await check("named prepared statement, twice", async () => {
  for (let i = 0; i < 2; i++) {
    const r = await client.query({ name: "all_rows", text: "SELECT * FROM web.t ORDER BY id" });
    assert.deepEqual(plain(r.rows), want);
  }
});
await check("error code and position", async () => {
  await assert.rejects(client.query("SELECT id FROM web.t WHERE nope = 1"),
    (e) => e.code === "42703" && e.position === "28" && e.severity === "ERROR");
});
await check("parameters", async () => {
  const r = await client.query("SELECT id, name FROM web.t WHERE id = $1 AND ok = $2 AND day = $3",
    [1, true, "2024-01-02"]);
  assert.deepEqual(r.rows, [{ id: 1, name: "ann" }]);
  const v = await client.query("SELECT $1 + 1 AS n, $2 AS s, $3 AS z", [41, "it's", null]);
  assert.deepEqual(v.rows, [{ n: 42, s: "it's", z: null }]);
});
await check("notice", async () => {
  const notices = [];
  client.on("notice", (n) => notices.push([n.severity, n.message]));
  await client.query("MSCK REPAIR TABLE web.p");
  assert.deepEqual(notices, [["WARNING", "Skipped junk: not a key=value directory name"]]);
});
await check("usable after errors", async () => {
  const r = await client.query("SELECT count(*) AS n FROM web.t");
  assert.deepEqual(r.rows, [{ n: "2" }]);
});
await client.end();
server.kill("SIGTERM");
const code = await new Promise((resolve) => server.on("exit", (c) => resolve(c)));
if (code !== 0) failures.push("exit status " + code);
rmSync(dir, { recursive: true, force: true });
for (const f of failures) console.log("FAIL " + f);
console.log(`node_pg: ${failures.length} failure(s)`);
process.exit(failures.length ? 1 : 0);
