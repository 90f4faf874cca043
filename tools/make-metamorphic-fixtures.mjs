#!/usr/bin/env node
// Writes test/fixtures/metamorphic/loans.parquet: the metamorphic suites' base rows
// (test/helpers/metamorphic.ts metamorphicTable) as Parquet by another library's writer (DuckDB,
// zstd), since lucid-wasm reads Parquet but writes none. The suites write the CSV, semicolon CSV,
// Arrow and JSON Lines forms themselves, and check that this file still holds the same rows (run
// this again if the simulator changes). Run at development time after `npm run build`; the output
// is committed.
//   node tools/make-metamorphic-fixtures.mjs
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { csvText, metamorphicTable } from '../dist/test/helpers/metamorphic.js';

const out = fileURLToPath(new URL('../test/fixtures/metamorphic/loans.parquet', import.meta.url));
const engine = await initNodeEngine();
const tmp = await mkdtemp(path.join(tmpdir(), 'lucid-mm-'));
const csv = path.join(tmp, 'loans.csv');
await writeFile(csv, csvText(metamorphicTable(engine), ',', false));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
/** @param {string} p */
const q = (p) => p.replaceAll("'", "''");
await con.run(
  `COPY (SELECT * FROM read_csv('${q(csv)}', header = true, types = {'approved': 'VARCHAR'})) TO '${q(out)}' (FORMAT ` +
    `parquet, COMPRESSION zstd)`,
);
con.closeSync?.();
await rm(tmp, { recursive: true, force: true });
console.log(`wrote ${path.relative(process.cwd(), out)}`);
