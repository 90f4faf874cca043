// Big data: `lucid metrics` and `lucid fale` over a simulated file of --rows rows
// (default 10,000,000; written by the simulator into --dir, never committed), each measurement in a
// child process (bench/big-child.ts) that reports its own peak RSS and, as its baseline in the same
// process, the time to scan the file's bytes for line breaks. The formats: CSV, and Parquet and Arrow
// where the readers are present.
//
//   node dist/bench/big.js [--rows 10000000] [--columnar-rows 1000000] [--dir /tmp/lucid-big] [--tasks metrics,fale]
//     [--out bench/results]
//
// Writes big-data.json to --out; bench/lib/big-report.ts puts the table in BENCHMARKS.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const LUCID = fileURLToPath(new URL('../../bin/lucid.js', import.meta.url));

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
}

export interface BigRun {
  task: string;
  format: string;
  file: string;
  rows: number;
  bytes: number;
  baselineMs: number;
  ms: number;
  maxRssMB: number;
}

const rows = Number(arg('rows', '10000000'));
const dir = arg('dir', '/tmp/lucid-big');
const tasks = arg('tasks', 'metrics,fale').split(',');
const out = arg('out', 'bench/results');
mkdirSync(dir, { recursive: true });
const log = (m: string) => process.stderr.write(m + '\n');
const lucid = (...a: string[]) =>
  execFileSync(process.execPath, [LUCID, ...a], { stdio: ['ignore', 'ignore', 'inherit'] });

const csv = join(dir, `sim-${rows}.csv`);
if (!existsSync(csv)) {
  log(`writing ${csv} (the simulator, seed 0, with the planted rule's P(approved) as column p)`);
  lucid('dataset', 'export', 'sim', '--rows', String(rows), '--seed', '0', '--score', 'p', '--out', csv);
}
const model = join(dir, 'sim-model.json');
if (!existsSync(model)) {
  const train = join(dir, 'sim-train.csv');
  lucid('dataset', 'export', 'sim', '--rows', '20000', '--seed', '1', '--out', train);
  lucid('model', 'train', '--data', train, '--label', 'approved', '--positive', 'yes', '--seed', '0', '--out', model);
}
const files: { format: string; file: string; tasks?: string[] }[] = [{ format: 'csv', file: csv }];

// the first --columnar-rows rows (default 1,000,000) also as CSV, Parquet (written by DuckDB, snappy) and
// Arrow IPC (written by apache-arrow): read whole, not in chunks, so metrics only (docs/data.md "Large files")
const colRows = Number(arg('columnar-rows', '1000000'));
if (colRows > 0) {
  const base = join(dir, `sim-${colRows}`);
  if (!existsSync(`${base}.csv`)) {
    log(`writing ${base}.csv, .parquet, .arrow`);
    execFileSync('sh', ['-c', `head -n ${colRows + 1} '${csv}' > '${base}.csv'`]);
  }
  if (!existsSync(`${base}.parquet`)) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(
      `COPY (SELECT * FROM read_csv('${base}.csv', header = true, types = {'approved': 'VARCHAR', 'sex': 'VARCHAR', ` +
        `'group': 'VARCHAR'})) TO '${base}.parquet' (FORMAT parquet, COMPRESSION snappy)`,
    );
  }
  if (!existsSync(`${base}.arrow`)) {
    const { tableFromArrays, tableToIPC, vectorFromArray, Dictionary, Int32, Utf8 } = await import('apache-arrow');
    const { readCsv } = await import('../src/node/csv.js');
    const { table } = await readCsv(`${base}.csv`);
    const cols: Record<string, unknown> = {};
    for (const c of table.columns) {
      cols[c.name] =
        c.kind === 'numeric'
          ? c.values
          : vectorFromArray(
              Array.from(c.codes, (k) => c.categories[k]),
              new Dictionary(new Utf8(), new Int32()),
            );
    }
    writeFileSync(
      `${base}.arrow`,
      tableToIPC(tableFromArrays(cols as never) as unknown as Parameters<typeof tableToIPC>[0], 'file'),
    );
  }
  files.push(
    { format: 'csv', file: `${base}.csv`, tasks: ['metrics'] },
    { format: 'parquet', file: `${base}.parquet`, tasks: ['metrics'] },
    { format: 'arrow', file: `${base}.arrow`, tasks: ['metrics'] },
  );
}

const started = new Date().toISOString();
const load = { before: os.loadavg(), after: [] as number[] };
const runs: BigRun[] = [];
for (const task of tasks) {
  for (const f of files) {
    if (f.tasks && !f.tasks.includes(task)) continue;
    log(`${task} ${f.format} …`);
    const r = spawnSync(process.execPath, [join(here, 'big-child.js'), task, f.file, model], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (r.status !== 0) throw new Error(`${task} ${f.format}: exit ${r.status}: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!);
    const bytes = Number(execFileSync('stat', ['-L', '-c', '%s', f.file], { encoding: 'utf8' }));
    runs.push({
      task,
      format: f.format,
      file: f.file,
      rows: m.rows,
      bytes,
      baselineMs: m.baselineMs,
      ms: m.ms,
      maxRssMB: m.maxRssMB,
    });
    log(
      `  ${m.rows.toLocaleString('en-US')} rows in ${(m.ms / 1000).toFixed(1)} s ` +
        `(${Math.round(m.rows / (m.ms / 1000)).toLocaleString('en-US')} rows/s; byte scan ` +
        `${(m.baselineMs / 1000).toFixed(1)} s), peak RSS ${m.maxRssMB.toFixed(0)} MB`,
    );
  }
}
load.after = os.loadavg();
mkdirSync(out, { recursive: true });
const cpu = os.cpus()[0]?.model;
writeFileSync(
  join(out, 'big-data.json'),
  JSON.stringify({ started, node: process.version, cpu, load, rowsAsked: rows, runs }, null, 2) + '\n',
);
log(`wrote ${join(out, 'big-data.json')}`);
