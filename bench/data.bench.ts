// Data tier: the VGM fit per Adult numeric column, the whole transformer fit on the Adult test
// set (15060 rows), and CSV read throughput. sklearn / CTGAN figures are quoted from the issue
// (measured on this machine type, not in this process); the CSV read has in-process baselines.
import { createReadStream, mkdtempSync, rmSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStream } from 'fast-csv';
import type { Engine } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { fitVgm } from '../src/models/ctgan/vgm.js';
import { DataTransformer } from '../src/models/ctgan/transformer.js';
import { simulate } from '../src/data/simulator.js';
import type { Table } from '../src/data/table.js';
import { readCsv, writeCsv } from '../src/node/csv.js';
import { datasetAvailability, loadAdult } from '../src/node/datasets.js';
import type { Group } from './lib/runner.js';

/** Quoted from the issue (sklearn 1.2 BayesianGaussianMixture; CTGAN DataTransformer), not measured here. */
export const DATA_REFERENCE = {
  'sklearn-bgm-per-adult-column-s': [1.2, 1.8],
  'ctgan-transformer-fit-adult-test-s': [6.5, 10.5],
  'target-transformer-fit-ms': 1000,
} as const;

const CSV_ROWS = 200_000;

export async function dataGroups(engine: Engine, log: (m: string) => void): Promise<Group[]> {
  const groups: Group[] = [];
  const adult = datasetAvailability('adult');
  if (!adult.available) {
    log(`  data: Adult benches skipped (${adult.reason})`);
  } else {
    let test: Table | null = null;
    const adultTest = async () => (test ??= (await loadAdult()).splits.test);
    for (const name of ['Age', 'fnlwgt', 'Education-Num', 'Capital Gain', 'Capital Loss', 'Hours per week']) {
      groups.push({
        tier: 'data',
        name: `data vgm fit adult ${name}`,
        unit: 'ms',
        budget: { rounds: 3, roundTimeMs: 300, warmupMs: 300, slowMs: Infinity },
        async prepare() {
          const col = (await adultTest()).columns.find((c) => c.name === name);
          if (col?.kind !== 'numeric') throw new Error(`Adult has no numeric column ${name}`);
          return {
            cases: [
              {
                engine: 'lucid' as const,
                impl: 'fitVgm (10 components, DP prior)',
                extra: { reference: { 'sklearn-s': DATA_REFERENCE['sklearn-bgm-per-adult-column-s'], quoted: true } },
                fn: () => void fitVgm(engine, col.values, { seed: 0 }),
              },
            ],
          };
        },
      });
    }
    groups.push({
      tier: 'data',
      name: 'data transformer fit adult test',
      unit: 'ms',
      budget: { rounds: 3, roundTimeMs: 1500, warmupMs: 1000, slowMs: Infinity },
      async prepare() {
        const t = await adultTest();
        return {
          cases: [
            {
              engine: 'lucid' as const,
              impl: `DataTransformer.fit (${t.rows} rows, ${t.columns.length} columns)`,
              extra: {
                reference: {
                  'ctgan-s': DATA_REFERENCE['ctgan-transformer-fit-adult-test-s'],
                  'target-ms': DATA_REFERENCE['target-transformer-fit-ms'],
                  quoted: true,
                },
              },
              fn: () => void DataTransformer.fit(engine, t, { seed: 0 }),
            },
          ],
        };
      },
    });
  }

  // CSV read: a simulated loan file of CSV_ROWS rows, read by readCsv (detection, checks, schema,
  // columnar storage) against fast-csv's parser alone and a naive split, in the same process.
  let dir = '';
  let file = '';
  groups.push({
    tier: 'data',
    name: `data csv read ${CSV_ROWS} rows`,
    unit: 'MB/s',
    async: true,
    budget: { rounds: 5 },
    async prepare() {
      dir = mkdtempSync(join(tmpdir(), 'lucid-bench-'));
      file = join(dir, 'loans.csv');
      const sim = simulate(new Rng(engine, 1), { n: CSV_ROWS, bias: 'fair' });
      await writeCsv(file, sim.table);
      return {
        cases: [
          { engine: 'lucid' as const, impl: 'readCsv', fn: async () => void (await readCsv(file)) },
          {
            engine: 'js' as const,
            impl: 'fast-csv parse only',
            fn: () =>
              new Promise<void>((resolve, reject) => {
                let rows = 0;
                parseStream(createReadStream(file))
                  .on('data', () => rows++)
                  .on('error', reject)
                  .on('end', () => resolve());
              }),
          },
          {
            engine: 'js' as const,
            impl: 'readFileSync + split',
            fn: () =>
              void readFileSync(file, 'utf8')
                .split('\n')
                .map((l) => l.split(',')),
          },
        ],
        bytes: statSync(file).size,
        dispose: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  });

  // CSV read in rows/s (target: ≥ 300,000 rows/s from CSV): the simulator's loan file
  // (9 columns: numbers and short labels, as `lucid metrics` reads) through readCsv end to end, the
  // fast path against the general path (fast-csv for every line) in the same process.
  let rdir = '';
  groups.push({
    tier: 'data',
    name: `data csv read rows/s ${CSV_ROWS} rows`,
    unit: 'rows/s',
    async: true,
    budget: { rounds: 7 },
    async prepare() {
      rdir = mkdtempSync(join(tmpdir(), 'lucid-bench-'));
      const f = join(rdir, 'loans.csv');
      const sim = simulate(new Rng(engine, 1), { n: CSV_ROWS, bias: 'fair' });
      await writeCsv(f, sim.table);
      return {
        cases: [
          { engine: 'lucid' as const, impl: 'readCsv (fast path)', fn: async () => void (await readCsv(f)) },
          {
            engine: 'lucid' as const,
            impl: 'readCsv parser fast-csv',
            baseline: true,
            fn: async () => void (await readCsv(f, { parser: 'fast-csv' })),
          },
          {
            engine: 'js' as const,
            impl: 'fast-csv parse only',
            fn: () =>
              new Promise<void>((resolve, reject) => {
                parseStream(createReadStream(f))
                  .on('data', () => {})
                  .on('error', reject)
                  .on('end', () => resolve());
              }),
          },
        ],
        rows: CSV_ROWS,
        dispose: () => rmSync(rdir, { recursive: true, force: true }),
      };
    },
  });
  return groups;
}
