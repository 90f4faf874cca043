// The three data sets of the end-to-end audit bench (bench/audit.bench.ts, run by bench/audit-child.ts):
// the data each audit runs on, the options it is given (nothing but what the README walkthrough and
// experiments/canonical-checks.mjs give; every other option is AUDIT_DEFAULTS at run time) and the
// built-in classifier it audits.
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import type { AuditOptions } from '../../src/audit/run.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { datasetAvailability, loadAdult, loadCompas } from '../../src/node/datasets.js';
import { simulate } from '../../src/data/simulator.js';
import type { CategoricalColumn, Column, NumericColumn, Table } from '../../src/data/table.js';

export type AuditDataset = 'adult' | 'compas' | 'sim1000x20';
export const AUDIT_DATASETS: readonly AuditDataset[] = ['adult', 'compas', 'sim1000x20'];

/** What each data set is, in one line (the bench's rows and BENCHMARKS.md). */
export const AUDIT_DATASET_TEXT: Record<AuditDataset, string> = {
  adult:
    'Adult test split (15,060 rows, 15 columns); built-in MLP [64, 32] trained on the train split (validation: the ' +
    'val split); protected Sex, Race, Age (edges 16, 30, 50, 90)',
  compas:
    'COMPAS test split (1,235 rows, 6 columns); built-in MLP [64, 32] trained on the train split, positive ' +
    'two_year_recid = 0; protected sex, race, age_cat',
  sim1000x20:
    "simulated, 1,000 rows × 20 columns (the bias simulator's 9, direct bias, + 11 seeded noise columns); built-in " +
    'logistic regression trained on 1,000 other simulated rows; protected sex, group',
};

/** The audit-time targets, on 2 threads. */
export const AUDIT_TARGET_MS: Record<AuditDataset, number> = { adult: 15_000, compas: 5_000, sim1000x20: 8_000 };
export const ADULT_RSS_TARGET_MIB = 300;

/** Why a data set cannot run here, or null when it can. */
export function auditDatasetMissing(name: AuditDataset): string | null {
  if (name === 'sim1000x20') return null;
  const a = datasetAvailability(name);
  return a.available ? null : a.reason;
}

/** Rows of the simulated set for the audit (seed 0) and for training its classifier (seed 1). */
export const SIM_ROWS = 1000;
export const SIM_AUDIT_SEED = 0;
export const SIM_TRAIN_SEED = 1;
/** uniforms drawn per row for the noise columns (15 used; a multiple of 4 keeps the Philox stream aligned) */
const UNIFORMS = 16;

/**
 * 1000 rows × 20 columns: the bias simulator's 8 features and its label `approved` (direct bias, seed
 * `seed`), plus 11 noise columns drawn from the same seeded Rng after the simulator's draws (so the
 * table is bit-identical for a seed): 6 numeric (normal, bimodal, log-normal, counts, uniform integers,
 * income times noise) and 5 categorical (3, 4, 6, 8 and 12 categories, unequal shares). The simulator
 * has no option for extra features; the noise columns widen the GAN's transformer as a 20-column data
 * set would, and carry no signal (x_income_scaled aside, which follows income).
 */
export function simulated20(
  engine: Engine,
  seed: number,
  rows = SIM_ROWS,
): { table: Table; label: string; positive: string; protected: string[] } {
  const rng = new Rng(engine, seed);
  const sim = simulate(rng, { n: rows, bias: 'direct' });
  const U = rng.uniformHost(rows * UNIFORMS);
  const income = (sim.table.columns.find((c) => c.name === 'income') as NumericColumn).values;
  const num = (name: string, f: (u: number, i: number) => number): NumericColumn => ({
    kind: 'numeric',
    name,
    values: Float64Array.from({ length: rows }, (_, i) => f(UNIFORMS * i, i)),
  });
  const normal = (u1: number, u2: number) => Math.sqrt(-2 * Math.log(Math.max(u1, 1e-12))) * Math.cos(2 * Math.PI * u2);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const cat = (name: string, k: number, at: number): CategoricalColumn => {
    // unequal shares: category j has weight 1 / (j + 1)
    const w = Array.from({ length: k }, (_, j) => 1 / (j + 1));
    const total = w.reduce((a, b) => a + b, 0);
    const codes = new Int32Array(rows);
    for (let i = 0; i < rows; i++) {
      let u = U[UNIFORMS * i + at] * total;
      let j = 0;
      while (j < k - 1 && u >= w[j]) u -= w[j++];
      codes[i] = j;
    }
    return {
      kind: 'categorical',
      name,
      codes,
      categories: Array.from({ length: k }, (_, j) => `${name.slice(2)}_${String.fromCharCode(97 + j)}`),
    };
  };
  const extra: Column[] = [
    num('x_normal', (u) => r3(normal(U[u], U[u + 1]))),
    num('x_bimodal', (u) => r3((U[u + 2] < 0.4 ? -2 : 3) + 0.7 * normal(U[u + 3], U[u + 4]))),
    num('x_lognormal', (u) => r3(Math.exp(1 + 0.8 * normal(U[u + 5], U[u + 6])))),
    num('x_count', (u) => Math.floor(-Math.log(Math.max(U[u + 7], 1e-12)) * 3)),
    num('x_uniform', (u) => Math.floor(U[u + 8] * 101)),
    num('x_income_scaled', (u, i) => r3(income[i] * (0.5 + U[u + 9]))),
    cat('c_three', 3, 10),
    cat('c_four', 4, 11),
    cat('c_six', 6, 12),
    cat('c_eight', 8, 13),
    cat('c_twelve', 12, 14),
  ];
  // features, the noise columns, then the label last (as the loaders order them)
  const cols = sim.table.columns;
  const label = cols.find((c) => c.name === sim.label)!;
  const table: Table = { rows, columns: [...cols.filter((c) => c !== label), ...extra, label] };
  return { table, label: sim.label, positive: sim.favourable, protected: sim.protected.slice() };
}

/** The audited table, the audit's options (no model yet) and the classifier's training (train/validation tables). */
export interface AuditSetup {
  table: Table;
  options: Omit<AuditOptions, 'model'>;
  train(engine: Engine): Classifier;
  modelText: string;
}

export async function auditSetup(engine: Engine, name: AuditDataset): Promise<AuditSetup> {
  if (name === 'adult') {
    const ds = await loadAdult();
    return {
      table: ds.splits.test,
      options: {
        label: ds.label,
        positive: ds.favourable,
        protected: ['Sex', 'Race', 'Age'],
        protectedEdges: { Age: [16, 30, 50, 90] },
        seed: 0,
        source: 'Adult test split',
      },
      train: (e) =>
        Classifier.train(e, ds.splits.train, {
          label: ds.label,
          positive: ds.favourable,
          validation: ds.splits.val,
          seed: 0,
        }).model,
      modelText: 'built-in MLP trained on the Adult train split',
    };
  }
  if (name === 'compas') {
    const ds = await loadCompas();
    // as experiments/canonical-checks.mjs: the model's and the audit's positive class is two_year_recid = 0 (no
    // recidivism)
    return {
      table: ds.splits.test,
      options: {
        label: ds.label,
        positive: '0',
        protected: ['sex', 'race', 'age_cat'],
        seed: 0,
        source: 'COMPAS test split',
      },
      train: (e) =>
        Classifier.train(e, ds.splits.train, { label: ds.label, positive: '0', validation: ds.splits.val, seed: 0 })
          .model,
      modelText: 'built-in MLP trained on the COMPAS train split',
    };
  }
  const audit = simulated20(engine, SIM_AUDIT_SEED);
  return {
    table: audit.table,
    options: {
      label: audit.label,
      positive: audit.positive,
      protected: audit.protected,
      seed: 0,
      source: 'simulated 1000 × 20',
    },
    train: (e) => {
      const t = simulated20(e, SIM_TRAIN_SEED);
      // as lucid demo's simulated models: logistic regression, 40 epochs, no validation split
      return Classifier.train(e, t.table, {
        label: t.label,
        positive: t.positive,
        hidden: [],
        epochs: 40,
        valFraction: 0,
        seed: 0,
      }).model;
    },
    modelText: 'built-in logistic regression trained on 1000 other simulated rows',
  };
}
