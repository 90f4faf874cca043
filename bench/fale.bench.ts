// FALE tier: FALE (SPD, sex=Female) for every feature of the Adult test set (15060 rows) through
// the built-in MLP (hidden [64, 32]; a few epochs on the train split: the timing does not depend
// on the weights). The reference takes about 5 s with logistic
// regression on 13.5k rows (quoted, not measured). Without the Adult files the simulator's 15060
// rows stand in.
import type { Engine } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { simulate } from '../src/data/simulator.js';
import type { Table } from '../src/data/table.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { fale, type FaleOptions } from '../src/methods/fale/index.js';
import { datasetAvailability, loadAdult } from '../src/node/datasets.js';
import type { Group } from './lib/runner.js';

export const FALE_REFERENCE = { 'reference-s': 5, 'target-s': 1 } as const;

async function faleBenchData(
  engine: Engine,
  log: (m: string) => void,
): Promise<{ test: Table; model: Classifier; opts: FaleOptions; source: string }> {
  if (datasetAvailability('adult').available) {
    const ds = await loadAdult();
    const { model } = Classifier.train(engine, ds.splits.train, {
      label: 'Income',
      positive: '>50K',
      epochs: 3,
      valFraction: 0,
      seed: 0,
    });
    return {
      test: ds.splits.test,
      model,
      opts: { label: 'Income', positive: '>50K', protected: [{ column: 'Sex', value: 'Female' }] },
      source: 'Adult test set',
    };
  }
  log("  fale: Adult absent; using the simulator's 15060 rows");
  const sim = simulate(new Rng(engine, 1), { n: 15060, bias: 'proxy' }).table;
  const { model } = Classifier.train(engine, sim, {
    label: 'approved',
    positive: 'yes',
    epochs: 3,
    valFraction: 0,
    seed: 0,
  });
  return {
    test: sim,
    model,
    opts: { label: 'approved', positive: 'yes', protected: [{ column: 'sex', value: 'Female' }] },
    source: 'simulator (15060 rows)',
  };
}

/** `engineT`: a threaded engine; FALE then also runs there (its own model, same training), interleaved. */
export function faleGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  return [
    {
      tier: 'fale',
      name: 'fale every feature adult test mlp',
      unit: 'ms',
      async: true,
      budget: { rounds: 5 },
      async prepare() {
        const runs = [{ e: engine, d: await faleBenchData(engine, log) }];
        if (engineT) runs.push({ e: engineT, d: await faleBenchData(engineT, log) });
        return {
          cases: runs.map(({ e, d }) => {
            const bb = builtinBlackBox(e, d.model, 'mlp');
            const features = d.test.columns.filter(
              (c) => c.name !== d.opts.label && !d.opts.protected.some((p) => p.column === c.name),
            ).length;
            return {
              engine: 'lucid' as const,
              impl:
                `${e.threads} thread${e.threads > 1 ? 's' : ''} · ${features} features (continuous + categorical), ` +
                `MLP [64, 32] · ${d.source} · ${d.test.rows} rows`,
              extra: { threads: e.threads, reference: { ...FALE_REFERENCE, quoted: true } },
              fn: async () => void (await fale(d.test, bb, d.opts)),
            };
          }),
          dispose: () => {
            for (const r of runs) r.d.model.dispose();
          },
        };
      },
    },
  ];
}
