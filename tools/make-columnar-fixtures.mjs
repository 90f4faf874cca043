#!/usr/bin/env node
// Writes test/fixtures/columnar/: the same small table as CSV, Parquet (DuckDB's writer: snappy and
// zstd, dictionary-encoded strings), Arrow IPC (apache-arrow's JS writer: file and stream formats,
// a Dictionary<Utf8> column) and JSON Lines, plus files for the error tests (int64 beyond 2^53,
// nested columns, truncated files). Written by other libraries' writers on purpose: our readers are
// tested on files we did not write. Run once at development time; the output is committed.
//   node tools/make-columnar-fixtures.mjs
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, Dictionary, Float64, Int32, Int64, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dir = fileURLToPath(new URL('../test/fixtures/columnar/', import.meta.url));
await mkdir(dir, { recursive: true });

// id: BIGINT (int64) beyond 2^32; age: INTEGER with a null; income: DOUBLE with a null; sex: text with
// two labels (dictionary-encoded); grp: text with a null and the CSV missing token "NA"; code: numbers
// written as text (inferred numeric, as in a CSV); approved: BOOLEAN; score: a model's P(approved).
const rows = [
  [5000000001n, 34, 52000.5, 'Male', 'A', '1', true, 0.81],
  [5000000002n, 51, 61000.25, 'Female', 'B', '2', false, 0.35],
  [5000000003n, null, 38000, 'Female', 'A', '3', true, 0.62],
  [5000000004n, 29, null, 'Male', null, '1', false, 0.2],
  [5000000005n, 45, 70500.75, 'Male', 'NA', '2', true, 0.9],
  [5000000006n, 62, 44000, 'Female', 'B', '3', false, 0.41],
  [5000000007n, 38, 59000.5, 'Male', 'A', '1', true, 0.77],
  [5000000008n, 23, 21000, 'Female', 'A', '2', false, 0.15],
];
const cols = ['id', 'age', 'income', 'sex', 'grp', 'code', 'approved', 'score'];
/** @param {bigint | number | string | boolean | null} v */
const sql = (v) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v}'` : String(v));

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(
  `CREATE TABLE t (id BIGINT, age INTEGER, income DOUBLE, sex VARCHAR, grp VARCHAR, code VARCHAR, approved BOOLEAN, ` +
    `score DOUBLE)`,
);
await con.run(`INSERT INTO t VALUES ${rows.map((r) => `(${r.map(sql).join(', ')})`).join(', ')}`);
/** @param {string} f */
const at = (f) => path.join(dir, f).replaceAll("'", "''");
await con.run(`COPY t TO '${at('people.csv')}' (FORMAT csv, HEADER true)`);
await con.run(`COPY t TO '${at('people.parquet')}' (FORMAT parquet, COMPRESSION snappy)`);
await con.run(`COPY t TO '${at('people-zstd.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
await con.run(`COPY t TO '${at('people-gzip.parquet')}' (FORMAT parquet, COMPRESSION gzip)`);
await con.run(
  `COPY (SELECT id, 9007199254740993::BIGINT * (id = 5000000003)::BIGINT + id AS big FROM t) TO ` +
    `'${at('int64-unsafe.parquet')}' (FORMAT parquet)`,
);
await con.run(`COPY (SELECT id, [age, age] AS ages FROM t) TO '${at('nested-list.parquet')}' (FORMAT parquet)`);
await con.run(
  `COPY (SELECT id, {'a': age, 'b': sex} AS person FROM t) TO '${at('nested-struct.parquet')}' (FORMAT parquet)`,
);
await con.run(
  `COPY (SELECT id, DATE '2020-01-01' + age::INTEGER AS day FROM t) TO '${at('date.parquet')}' (FORMAT parquet)`,
);
// the browser page's fixture as Parquet (test/browser/page.test.ts uploads it)
const loans = fileURLToPath(new URL('../test/fixtures/web/loans-300.csv', import.meta.url)).replaceAll("'", "''");
await con.run(
  `COPY (SELECT * FROM read_csv('${loans}', header = true, types = {'approved': 'VARCHAR'})) TO ` +
    `'${at('loans-300.parquet')}' (FORMAT parquet, COMPRESSION zstd)`,
);
con.closeSync?.();

// Arrow IPC through apache-arrow's writer
/** @param {number} j */
const col = (j) => rows.map((r) => r[j]);
const table = new Table({
  id: vectorFromArray(col(0), new Int64()),
  age: vectorFromArray(col(1), new Int32()),
  income: vectorFromArray(col(2), new Float64()),
  sex: vectorFromArray(col(3), new Dictionary(new Utf8(), new Int32())),
  grp: vectorFromArray(col(4), new Dictionary(new Utf8(), new Int32())),
  code: vectorFromArray(col(5), new Utf8()),
  approved: vectorFromArray(col(6), new Bool()),
  score: vectorFromArray(col(7), new Float64()),
});
await writeFile(path.join(dir, 'people.arrow'), tableToIPC(table, 'file'));
await writeFile(path.join(dir, 'people.arrows'), tableToIPC(table, 'stream'));
const unsafe = new Table({ id: vectorFromArray([1n, 2n, 9007199254740993n], new Int64()) });
await writeFile(path.join(dir, 'int64-unsafe.arrow'), tableToIPC(unsafe, 'file'));

// JSON Lines (JSON.stringify: the writer every runtime has)
const json = rows.map((r) =>
  JSON.stringify(Object.fromEntries(cols.map((c, j) => [c, typeof r[j] === 'bigint' ? Number(r[j]) : r[j]]))),
);
await writeFile(path.join(dir, 'people.jsonl'), json.join('\n') + '\n');

// truncated (corrupt) copies
const parquet = await readFile(path.join(dir, 'people.parquet'));
await writeFile(
  path.join(dir, 'truncated.parquet'),
  new Uint8Array(parquet.subarray(0, Math.floor(parquet.length / 2))),
);
const arrow = await readFile(path.join(dir, 'people.arrow'));
await writeFile(path.join(dir, 'truncated.arrow'), new Uint8Array(arrow.subarray(0, Math.floor(arrow.length / 2))));
await rm(path.join(dir, '.tmp'), { force: true, recursive: true });
console.log(`make-columnar-fixtures: wrote ${dir}`);
