// Time to quality (issue #19, EXPERIMENTS.md §9): the quality of the canonical sets against the wall
// time of LUCID-GAN training, per schedule, on the Adult and COMPAS test splits. Quality is what the
// canonical-sets issue checks: the sets drawn as the default audit draws them (observed condition,
// rejection through the audited model, 1000 rows per side) and their mean fidelity (KS / TV) to the
// real rows the model puts on each side, every real row of the split; beside it the acceptance rate
// (validity before the rejection filter). Measuring costs time that is left out of the curve; a
// schedule's own stopping checks are counted in it.
//
//   node dist/bench/quality.js [--data adult,compas] [--seeds 3] [--audit-seed 0] [--schedules 'paper|fast'] [--threads 2] [--out bench/results]
//
// Writes time-to-quality.json and time-to-quality.svg to --out (bench/lib/report.ts puts the table
// and the picture in BENCHMARKS.md). Needs the data (LUCID_DATA_DIR); a data set that is absent is
// skipped, saying why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import type { Engine } from '../src/engine/engine.js';
import { initNodeEngine } from '../src/node/engine.js';
import { datasetAvailability, loadAdult, loadCompas } from '../src/node/datasets.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { selectRows, type Table } from '../src/data/table.js';
import { LucidGan, type FitOptions } from '../src/models/lucidgan/model.js';
import { GanTrainer } from '../src/models/lucidgan/train.js';
import { drawCanonical, drawSeed, ganSeedsFor, modelScorer, observedRanges } from '../src/audit/canonical.js';
import { AUDIT_DEFAULTS, DERIVED_SEEDS, ganBatchFor, ganEpochsFor } from '../src/audit/run.js';
import { checkpointing, GAN_SCHEDULES, heldOutScorer, trainingRows, type ScheduleDef } from '../src/audit/schedule.js';
import { meanFidelity } from '../src/methods/quality/fidelity.js';
import { timeToQualitySvg } from './lib/quality-svg.js';

export interface QualityPoint {
  steps: number;
  /** training wall seconds so far (measurement left out; a schedule's own checks counted) */
  seconds: number;
  fidelity: number;
  /** acceptance of the rejection draw, positive and negative side */
  acceptance: [number, number];
}

export interface QualityRun {
  data: string;
  schedule: string;
  seed: number;
  points: QualityPoint[];
  /** the weights the schedule ends with (fast: the kept check's) */
  final: QualityPoint;
  stoppedAt?: number;
}

interface Setting {
  name: string;
  table: Table;
  label: string;
  positive: string;
  model: ReturnType<typeof builtinBlackBox>;
  dispose: () => void;
}

const MEASURE_EVERY = 150;
const SET_ROWS = 1000;

async function settings(engine: Engine, names: string[], log: (m: string) => void): Promise<Setting[]> {
  const out: Setting[] = [];
  for (const name of names) {
    const avail = datasetAvailability(name === 'adult' ? 'adult' : 'compas');
    if (!avail.available) {
      log(`quality: ${name} skipped: the data is absent (${avail.reason})`);
      continue;
    }
    const ds = name === 'adult' ? await loadAdult() : await loadCompas();
    const clf = Classifier.train(engine, ds.splits.train, { label: ds.label, positive: ds.favourable, validation: ds.splits.val, seed: 0 }).model;
    out.push({ name, table: ds.splits.test, label: ds.label, positive: ds.favourable, model: builtinBlackBox(engine, clf, `built-in MLP trained on the ${name} train split`), dispose: () => clf.dispose() });
  }
  return out;
}

/** Everything the audit prepares before training, for one setting. */
async function prepare(engine: Engine, s: Setting) {
  const scores = await s.model.predict(s.table);
  const yhat = Uint8Array.from(scores, (p) => (p > 0.5 ? 1 : 0));
  const features = s.table.columns.filter((c) => c.name !== s.label && !(c.kind === 'categorical' && c.identifier));
  const featureTable: Table = { rows: s.table.rows, columns: features };
  const ganTable: Table = { rows: s.table.rows, columns: [...features, { kind: 'numeric', name: 'preds', values: Float64Array.from(scores) }] };
  return { yhat, features, featureTable, ganTable, range: observedRanges(featureTable), scorer: modelScorer(s.model, 0.5) };
}

async function measure(gan: LucidGan, p: Awaited<ReturnType<typeof prepare>>, sideRows: [Int32Array, Int32Array], seed: number): Promise<Omit<QualityPoint, 'steps' | 'seconds'>> {
  const sets = { positive: null as Table | null, negative: null as Table | null };
  const acceptance: [number, number] = [0, 0];
  for (const side of [1, 0] as const) {
    const d = await drawCanonical(gan, { side, condition: AUDIT_DEFAULTS.ganCondition, sideRows: sideRows[side], predName: 'preds', fix: [], rows: SET_ROWS, seedOf: (r) => drawSeed(seed, 0 + (1 - side), r), scorer: p.scorer, threshold: 0.5, range: p.range, dependencies: [] });
    sets[side === 1 ? 'positive' : 'negative'] = d.table;
    acceptance[1 - side] = d.stats.acceptance ?? NaN;
  }
  const fidelity = meanFidelity(p.features.map((c) => ({ name: c.name, kind: c.kind })), p.featureTable, p.yhat, [{ positive: sets.positive!, negative: sets.negative! }]);
  return { fidelity, acceptance };
}

/** One GAN seed under one schedule, measured every MEASURE_EVERY steps and at the end. */
async function run(engine: Engine, s: Setting, p: Awaited<ReturnType<typeof prepare>>, scheduleName: string, def: ScheduleDef, ganSeed: number, auditSeed: number, log: (m: string) => void): Promise<QualityRun> {
  const train = trainingRows(engine, p.yhat, def, DERIVED_SEEDS.holdout(auditSeed));
  const rows = train.rows;
  const table = train.held ? selectRows(p.ganTable, rows) : p.ganTable;
  const side = train.side;
  const batch = ganBatchFor(table.rows);
  const epochs = ganEpochsFor(table.rows, batch);
  const dims = def.dims ? { generatorDims: def.dims, discriminatorDims: def.dims } : {};
  const opts: FitOptions = { conditions: ['preds'], epochs, batch, seed: ganSeed, paper: true, ...dims };
  const points: QualityPoint[] = [];
  let excluded = 0; // measurement seconds inside the training wall time
  const t0 = performance.now();
  const wall = () => (performance.now() - t0) / 1000 - excluded;
  const point = async (gan: LucidGan, steps: number): Promise<QualityPoint> => {
    const t = performance.now();
    const q = await measure(gan, p, side, ganSeed);
    excluded += (performance.now() - t) / 1000;
    return { steps, seconds: 0, ...q };
  };
  if (train.held) {
    const held = selectRows(s.table, train.held);
    const heldYhat = Uint8Array.from(train.held, (i) => p.yhat[i]);
    const score = heldOutScorer({ features: p.features.map((c) => ({ name: c.name, kind: c.kind })), held, heldYhat, trainSide: side, range: p.range, seed: DERIVED_SEEDS.stopping(ganSeed) });
    // the curve's points are measured at each check (their time left out); measuring is async, so the
    // model's weights at each check are copied and measured after training
    const snaps: { steps: number; seconds: number; weights: Float32Array }[] = [];
    const cp = checkpointing(def, (g) => {
      const v = score(g);
      const t = performance.now();
      snaps.push({ steps: 0, seconds: wall(), weights: g.params.snapshot() });
      excluded += (performance.now() - t) / 1000;
      return v;
    })!;
    const fit = await LucidGan.fit(engine, table, { ...opts, checkpoint: cp });
    const history = fit.model.history;
    const kept = fit.model.params.snapshot();
    history.checkpoints!.forEach((c, i) => (snaps[i].steps = c.steps));
    for (const sn of snaps) {
      fit.model.params.restore(sn.weights);
      points.push({ ...(await measure(fit.model, p, side, ganSeed)), steps: sn.steps, seconds: sn.seconds });
    }
    fit.model.params.restore(kept);
    if (!history.stop) throw new Error(`${s.name} ${scheduleName} seed ${ganSeed}: training ended with status ${fit.status} (${fit.message ?? 'no message'}), without a stopping record`);
    const stop = history.stop;
    const keptPoint = points.find((x) => x.steps === stop.keptSteps) ?? points[points.length - 1];
    const final = { ...keptPoint, seconds: points[points.length - 1].seconds };
    fit.model.dispose();
    log(`  ${s.name} ${scheduleName} seed ${ganSeed}: stopped at ${stop.steps} steps, kept ${stop.keptSteps}; fidelity ${final.fidelity.toFixed(3)} in ${final.seconds.toFixed(1)} s`);
    return { data: s.name, schedule: scheduleName, seed: ganSeed, points, final, stoppedAt: stop.steps };
  }
  const { model, x, rng } = LucidGan.setup(engine, table, opts);
  const trainer = new GanTrainer(model, x, rng);
  try {
    const total = epochs * trainer.steps;
    for (let done = 0; done < total; ) {
      const next = Math.min(total, (Math.floor(done / MEASURE_EVERY) + 1) * MEASURE_EVERY);
      for (; done < next; done++) trainer.step();
      const seconds = wall();
      const q = await point(model, done);
      points.push({ ...q, seconds });
    }
  } finally {
    trainer.dispose();
  }
  model.dispose();
  const final = points[points.length - 1];
  log(`  ${s.name} ${scheduleName} seed ${ganSeed}: ${final.steps} steps; fidelity ${final.fidelity.toFixed(3)} in ${final.seconds.toFixed(1)} s`);
  return { data: s.name, schedule: scheduleName, seed: ganSeed, points, final };
}

/** The schedules the bench compares: the audit's two, and candidates named here only. */
export const BENCH_SCHEDULES: Record<string, ScheduleDef> = {
  paper: GAN_SCHEDULES.paper,
  fast: GAN_SCHEDULES.fast,
  'fast, width 128': { ...GAN_SCHEDULES.fast, dims: [128, 128] },
  // EXPERIMENTS.md §9.3's candidates (declared after §9.2 missed on Adult's acceptance)
  'fast, width 128, ≥ 900 steps': { ...GAN_SCHEDULES.fast, dims: [128, 128], minSteps: 900 },
  'width 128, whole budget, best check kept': { ...GAN_SCHEDULES.fast, dims: [128, 128], minSteps: Infinity },
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const arg = (k: string, d: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : d;
  };
  const names = arg('--data', 'adult,compas').split(',');
  const seeds = Number(arg('--seeds', '3'));
  const threads = Number(arg('--threads', String(os.availableParallelism())));
  const only = arg('--schedules', Object.keys(BENCH_SCHEDULES).join('|')).split('|');
  const outDir = arg('--out', 'bench/results');
  const auditSeed = Number(arg('--audit-seed', '0'));
  const log = (m: string) => process.stderr.write(m + '\n');
  const unknown = only.filter((n) => !(n in BENCH_SCHEDULES));
  if (unknown.length) throw new Error(`unknown schedule ${unknown.join(', ')}; the schedules are: ${Object.keys(BENCH_SCHEDULES).join(' | ')}`);
  const engine = await initNodeEngine({ threads });
  const runs: QualityRun[] = [];
  const started = new Date().toISOString();
  const load0 = os.loadavg();
  for (const s of await settings(engine, names, log)) {
    const p = await prepare(engine, s);
    for (const seed of ganSeedsFor(auditSeed, seeds)) {
      for (const name of only) runs.push(await run(engine, s, p, name, BENCH_SCHEDULES[name], seed, auditSeed, log));
    }
    s.dispose();
  }
  mkdirSync(outDir, { recursive: true });
  const doc = { started, auditSeed, threads, node: process.version, cpu: os.cpus()[0]?.model, load: { before: load0, after: os.loadavg() }, measureEvery: MEASURE_EVERY, setRows: SET_ROWS, runs };
  writeFileSync(join(outDir, 'time-to-quality.json'), JSON.stringify(doc, null, 1) + '\n');
  writeFileSync(join(outDir, 'time-to-quality.svg'), timeToQualitySvg(runs));
  log(`quality: wrote ${join(outDir, 'time-to-quality.json')} and time-to-quality.svg`);
}

if (process.argv[1] && process.argv[1].endsWith('quality.js')) {
  main().catch((e) => {
    process.stderr.write(`quality: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
