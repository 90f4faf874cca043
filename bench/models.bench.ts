// Models tier: LUCID (1000 samples × 200 gradient steps through an Adult-shaped MLP [64, 32] with
// seeded random weights: the cost of a step does not depend on the weights; see
// tools/time-lucid.mjs) at one thread and with threads, and the built-in classifier's training
// (MLP [64, 32], batch 128, 10 epochs on the Adult train split, no validation; the simulator's rows
// without the data).
import type { Engine } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { simulate } from '../src/data/simulator.js';
import type { Table } from '../src/data/table.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { invert } from '../src/methods/lucid/invert.js';
import { datasetAvailability, loadAdult } from '../src/node/datasets.js';
import type { Case, Group } from './lib/runner.js';

export const LUCID_BENCH = { n: 1000, epochs: 200 } as const;
export const CLASSIFIER_BENCH_EPOCHS = 10;
/** Quoted from the LUCID reference (PyTorch, one sample at a time): 9 s for 100 samples. Not measured here. */
export const LUCID_REFERENCE = { 'pytorch-100-samples-s': 9 } as const;

/** The built-in classifier's default network over Adult's encoding (104 inputs), seeded random weights. */
export function adultShapedModel(engine: Engine): Classifier {
  const numerics = ['Age', 'fnlwgt', 'Education-Num', 'Capital Gain', 'Capital Loss', 'Hours per week'];
  const cats: [string, number][] = [
    ['Workclass', 7],
    ['Education', 16],
    ['Martial Status', 7],
    ['Occupation', 14],
    ['Relationship', 6],
    ['Race', 5],
    ['Sex', 2],
    ['Country', 41],
  ];
  const groups: Record<string, unknown>[] = [];
  let start = 0;
  for (const name of numerics)
    groups.push({ name, kind: 'numeric', start: start++, width: 1, min: 0, max: 100, decimals: 0 });
  for (const [name, w] of cats) {
    groups.push({
      name,
      kind: 'categorical',
      start,
      width: w,
      categories: Array.from({ length: w }, (_, i) => `c${i}`),
    });
    start += w;
  }
  const sizes = [start, 64, 32, 1];
  const u = new Rng(engine, 1).uniformHost(sizes.slice(1).reduce((a, s, i) => a + s * sizes[i] + s, 0));
  let k = 0;
  const draw = (len: number, fanIn: number) => Array.from({ length: len }, () => (2 * u[k++] - 1) / Math.sqrt(fanIn));
  const layers = sizes
    .slice(1)
    .map((out, i) => ({ in: sizes[i], out, weight: draw(out * sizes[i], sizes[i]), bias: draw(out, sizes[i]) }));
  const json = {
    format: 'lucid-wasm/classifier',
    version: 1,
    label: 'Income',
    positive: '>50K',
    classes: ['<=50K', '>50K'],
    hidden: [64, 32],
    preprocessor: { features: [...numerics.slice(0, 1), ...cats.map((c) => c[0]), ...numerics.slice(1)], groups },
    layers,
  };
  return Classifier.fromJSON(engine, json, 'adult-shaped model');
}

export function modelGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  const engines = engineT ? [engine, engineT] : [engine];
  const threads = (e: Engine) => `${e.threads} thread${e.threads > 1 ? 's' : ''}`;
  return [
    {
      tier: 'models',
      name: `lucid invert ${LUCID_BENCH.n}x${LUCID_BENCH.epochs} adult-shaped mlp`,
      unit: 'ms',
      async: true,
      budget: { rounds: 3 },
      prepare() {
        const models = engines.map((e) => ({ e, model: adultShapedModel(e) }));
        return {
          cases: models.map(
            ({ e, model }): Case => ({
              engine: 'lucid',
              impl:
                `${threads(e)} · invert(), ${LUCID_BENCH.n} samples × ${LUCID_BENCH.epochs} steps, MLP [64, 32], D ` +
                `${model.dim}`,
              extra: { threads: e.threads, reference: { ...LUCID_REFERENCE, quoted: true } },
              fn: async () =>
                void invert(e, model, { prefer: 'positive', n: LUCID_BENCH.n, epochs: LUCID_BENCH.epochs, seed: 0 }),
            }),
          ),
          dispose: () => {
            for (const m of models) m.model.dispose();
          },
        };
      },
    },
    {
      tier: 'models',
      name: `classifier train ${CLASSIFIER_BENCH_EPOCHS} epochs`,
      unit: 'ms',
      async: true,
      budget: { rounds: 3 },
      async prepare() {
        let table: Table;
        let opts: { label: string; positive: string };
        let source: string;
        if (datasetAvailability('adult').available) {
          table = (await loadAdult()).splits.train;
          opts = { label: 'Income', positive: '>50K' };
          source = `Adult train split (${table.rows} rows)`;
        } else {
          log("  classifier: Adult absent; using the simulator's 30000 rows");
          table = simulate(new Rng(engine, 1), { n: 30000, bias: 'proxy' }).table;
          opts = { label: 'approved', positive: 'yes' };
          source = 'simulator (30000 rows)';
        }
        const t = table;
        return {
          cases: [
            {
              engine: 'lucid',
              impl:
                `Classifier.train, MLP [64, 32], batch 128, ${CLASSIFIER_BENCH_EPOCHS} epochs, no validation · ` +
                `${source}`,
              fn: async () =>
                Classifier.train(engine, t, {
                  ...opts,
                  epochs: CLASSIFIER_BENCH_EPOCHS,
                  valFraction: 0,
                  seed: 0,
                }).model.dispose(),
            },
          ],
        };
      },
    },
  ];
}
