// lz4_hyparquet.mjs HIVELITE -- hivelite writes Parquet with the deprecated
// LZ4 codec (Hadoop framing), hyparquet reads.  Columns that are all NULL,
// all empty arrays or all empty strings give pages with nothing to
// compress (an empty dictionary page): they must read as well as columns
// with values, one row group per INSERT, dictionary and plain pages.
// Exit 0 when every file reads back as written.
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const hl = process.argv[2];
if (!hl || !fs.existsSync(hl)) { console.error('usage: lz4_hyparquet.mjs HIVELITE'); process.exit(2); }
const tmpBase = process.env.HIVELITE_TEST_TMP || os.tmpdir();
fs.mkdirSync(tmpBase, { recursive: true });
const dir = fs.mkdtempSync(path.join(tmpBase, 'lz4-hyparquet-'));
const wh = path.join(dir, 'wh');
let failures = 0;

function hive(sql) {
  const r = spawnSync(hl, ['-w', wh, '--format', 'csv', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) { console.error(`hivelite failed: ${sql}\n${r.stderr}`); process.exit(1); }
  return r.stdout;
}

const show = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));

// rows as arrays in column order (hyparquet leaves a NULL list out)
async function readAll(table, cols) {
  const files = fs.readdirSync(path.join(wh, table)).filter((f) => f.endsWith('.parquet')).sort();
  const rows = [];
  for (const f of files) {
    const buf = fs.readFileSync(path.join(wh, table, f));
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    try {
      rows.push(...await parquetReadObjects({ file, compressors }));
    } catch (e) {
      failures++;
      console.log(`FAIL ${table}/${f}: hyparquet: ${e.message}`);
    }
  }
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((r) => cols.map((c) => r[c] ?? null));
}

function same(what, got, want) {
  if (show(got) !== show(want)) {
    failures++;
    console.log(`FAIL ${what}\n  got:  ${show(got)}\n  want: ${show(want)}`);
  } else {
    console.log(`ok   ${what}`);
  }
}

// one file per INSERT
hive(`CREATE TABLE z (id INT, a INT, s STRING, e ARRAY<INT>, es STRING, v BIGINT)
      STORED AS PARQUET TBLPROPERTIES ('parquet.compression'='LZ4')`);
hive(`INSERT INTO z SELECT 1, CAST(NULL AS INT), CAST(NULL AS STRING), CAST(array() AS ARRAY<INT>), '', 10`);
hive(`INSERT INTO z VALUES (2, NULL, NULL, NULL, '', 20), (3, NULL, NULL, NULL, '', NULL)`);
hive(`INSERT INTO z SELECT 4, 7, 'x', array(1, 2), 'y', 40`);
same('hivelite reads its LZ4 rows',
  hive('SELECT * FROM z ORDER BY id').trim().split('\n'),
  ['id,a,s,e,es,v', '1,,,[],"",10', '2,,,,"",20', '3,,,,"",', '4,7,x,"[1,2]",y,40']);
same('hyparquet reads them (empty pages included)', await readAll('z', ['id', 'a', 's', 'e', 'es', 'v']), [
  [1, null, null, [], '', 10n],
  [2, null, null, null, '', 20n],
  [3, null, null, null, '', null],
  [4, 7, 'x', [1, 2], 'y', 40n],
]);

// many rows, several pages
hive(`CREATE TABLE big (id INT, n INT, t STRING) STORED AS PARQUET
      TBLPROPERTIES ('parquet.compression'='LZ4', 'parquet.page.size'='4096')`);
hive(`CREATE TABLE src (id INT)`);
fs.writeFileSync(path.join(wh, 'src', 'rows.txt'), Array.from({ length: 5000 }, (_, i) => `${i}\n`).join(''));
hive(`INSERT INTO big SELECT id, CASE WHEN id % 3 = 0 THEN NULL ELSE id * 7 END, concat('row ', CAST(id % 50 AS STRING)) FROM src`);
const big = await readAll('big', ['id', 'n', 't']);
const want = Array.from({ length: 5000 }, (_, i) => [i, i % 3 === 0 ? null : i * 7, `row ${i % 50}`]);
same('hyparquet reads 5000 LZ4 rows over several pages', big, want);

fs.rmSync(dir, { recursive: true, force: true });
if (failures) { console.log(`${failures} failed`); process.exit(1); }
console.log('all passed');
