// GAN tier: LUCID-GAN's training epoch and sampling on the Adult test set (15060 rows, batch 500,
// one thread). The audited model is a logistic Classifier trained on
// the train split (its P(>50K) is the condition `preds`); without the Adult files, the simulator's
// 15060 rows and its true probabilities stand in, and every row says so: the label starts with
// "SIMULATED rows (not Adult)", the JSON rows carry `source` and `simulated: true`, and BENCHMARKS.md
// marks the cells. PyTorch figures are quoted from the issue.
import type { Engine } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { simulate } from '../src/data/simulator.js';
import type { Table } from '../src/data/table.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { LucidGan } from '../src/models/lucidgan/model.js';
import { GanTrainer } from '../src/models/lucidgan/train.js';
import { datasetAvailability, loadAdult } from '../src/node/datasets.js';
import type { Group } from './lib/runner.js';

/** Quoted from the issue (PyTorch 1.13 CPU, one thread, this machine type), not measured here. */
export const GAN_REFERENCE = {
  'pytorch-epoch-s': 4.2,
  'pytorch-sample-1000-s': 0.07,
  'target-epoch-s': 2.1,
  /** With 2 threads. */
  'target-epoch-2t-s': 1.2,
  'target-sample-1000-s': 0.02,
} as const;

/**
 * The GAN benches' table: `source` says what it is; `simulated`: the Adult files were absent and the simulator's rows
 * stand in.
 */
export interface GanBenchTable {
  table: Table;
  source: string;
  simulated: boolean;
}

let benchTable: Promise<GanBenchTable> | null = null;

/**
 * The Adult test set with `preds` from a logistic model trained on the train split (or the simulator's
 * stand-in), built once per process: the table is host data (read, never written, by the GAN set-ups)
 * and the model trains to the same numbers on any engine, so every engine can share it.
 */
export function ganBenchTable(engine: Engine, log: (m: string) => void): Promise<GanBenchTable> {
  return (benchTable ??= buildGanBenchTable(engine, log));
}

async function buildGanBenchTable(engine: Engine, log: (m: string) => void): Promise<GanBenchTable> {
  const adult = datasetAvailability('adult');
  if (adult.available) {
    const ds = await loadAdult();
    const { model } = Classifier.train(engine, ds.splits.train, {
      label: 'Income',
      positive: '>50K',
      hidden: [],
      validation: ds.splits.val,
      seed: 0,
    });
    const preds = model.predictProba(engine, ds.splits.test);
    model.dispose();
    const test = ds.splits.test;
    return {
      table: { rows: test.rows, columns: [...test.columns, { kind: 'numeric', name: 'preds', values: preds }] },
      source: 'Adult test set, preds of a logistic model',
      simulated: false,
    };
  }
  log(
    `  gan: ! the Adult data is absent (${adult.reason}); the GAN benches train on the simulator's 15060 rows ` +
      `instead, and every row says so`,
  );
  const sim = simulate(new Rng(engine, 1), { n: 15060, bias: 'proxy' });
  return {
    table: {
      rows: sim.table.rows,
      columns: [...sim.table.columns, { kind: 'numeric', name: 'preds', values: sim.truth.probability }],
    },
    source: 'simulator (15060 rows), true probabilities; the Adult data is absent',
    simulated: true,
  };
}

/** `engineT`: a threaded engine; the epoch then runs on both engines, interleaved (same seed, same results). */
export function ganGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  type State = { model: LucidGan; trainer: GanTrainer; source: string; simulated: boolean };
  const dataNote = (s: State) => (s.simulated ? `SIMULATED rows (not Adult) · ${s.source}` : s.source);
  let state: State | null = null;
  // paper: the published training (no consistency term), as the PyTorch reference and `lucid audit` train
  const build = async (e: Engine, paper = false): Promise<State> => {
    const { table, source, simulated } = await ganBenchTable(e, log);
    const { model, x, rng } = LucidGan.setup(e, table, { conditions: ['preds'], seed: 0, paper });
    return { model, trainer: new GanTrainer(model, x, rng), source, simulated };
  };
  const setup = async () => (state ??= await build(engine));
  const epochCase = (s: State, threads: number) => ({
    engine: 'lucid' as const,
    impl: `${threads} thread${threads > 1 ? 's' : ''} · ${s.trainer.steps} steps (critic + generator) · ${dataNote(s)}`,
    extra: {
      threads,
      source: s.source,
      simulated: s.simulated,
      reference: {
        'pytorch-s': GAN_REFERENCE['pytorch-epoch-s'],
        'target-s': threads > 1 ? GAN_REFERENCE['target-epoch-2t-s'] : GAN_REFERENCE['target-epoch-s'],
        quoted: true,
      },
    },
    fn: async () => {
      for (let i = 0; i < s.trainer.steps; i++) s.trainer.step();
    },
  });
  /** One epoch at 1 thread and, with `engineT`, at its thread count; `paper` selects the training. */
  // rounds: the paper-mode epoch carries the targets, so it gets more samples (best and median of 7)
  const epochGroup = (name: string, paper: boolean): Group => ({
    tier: 'gan',
    name,
    unit: 'ms',
    async: true,
    budget: { rounds: paper ? 7 : 3 },
    async prepare() {
      const owned: State[] = [];
      const s = paper ? await build(engine, true) : await setup();
      if (paper) owned.push(s);
      const cases = [epochCase(s, 1)];
      if (engineT) {
        const t = await build(engineT, paper);
        owned.push(t);
        cases.push(epochCase(t, engineT.threads));
      }
      return {
        cases,
        dispose: () => {
          for (const o of owned) {
            o.trainer.dispose();
            o.model.dispose();
          }
        },
      };
    },
  });
  return [
    epochGroup('gan epoch adult test batch 500 consistency', false),
    epochGroup('gan epoch adult test batch 500 paper', true),
    {
      tier: 'gan',
      name: 'gan sample 1000 rows',
      unit: 'ms',
      budget: { rounds: 5, roundTimeMs: 300, warmupMs: 200 },
      async prepare() {
        const s = await setup();
        return {
          cases: [
            {
              engine: 'lucid' as const,
              impl: `LucidGan.sample (preds=1, zero cond vector, decoded) · ${dataNote(s)}`,
              extra: {
                source: s.source,
                simulated: s.simulated,
                reference: {
                  'pytorch-s': GAN_REFERENCE['pytorch-sample-1000-s'],
                  'target-s': GAN_REFERENCE['target-sample-1000-s'],
                  quoted: true,
                },
              },
              fn: () => void s.model.sample({ n: 1000, conditions: { preds: 1 }, seed: 1 }),
            },
          ],
          dispose: () => {
            s.trainer.dispose();
            s.model.dispose();
            state = null;
          },
        };
      },
    },
  ];
}
