// Time to quality (EXPERIMENTS.md §9): the quality of the canonical sets against the wall
// time of LUCID-GAN training, per schedule, on the Adult and COMPAS test splits. Quality is what the
// canonical-sets issue checks: the sets drawn as the default audit draws them (observed condition,
// rejection through the audited model, 1000 rows per side) and their mean fidelity (KS / TV) to the
// real rows the model puts on each side, every real row of the split; beside it the acceptance rate
// (validity before the rejection filter). Measuring costs time that is left out of the curve; a
// schedule's own stopping checks are counted in it.
//
// Time to fidelity (EXPERIMENTS.md §12; --frontier): five training configurations on the
// audit bench's three data sets, 30% of each set's rows held out of everything; every 150 steps
// (rounded up to whole epochs) the sets drawn as today's default audit draws them (matched condition,
// rejection, the linear correction from 4× candidates against the training rows of the side), scored
// against the held-out rows (eval fidelity) and the training rows (in-sample score); the stopping
// rules and §12.3's decision are read off the checks afterwards (lib/frontier-rules.ts).
//
//   node dist/bench/quality.js [--data adult,compas] [--seeds 3] [--audit-seed 0] [--schedules 'paper|fast'] [--threads
//     2] [--out bench/results]
//   node dist/bench/quality.js --frontier [--data adult,compas,sim1000x20] [--seeds 3] [--configs 'base|width 128']
//     [--threads 2] [--out bench/results]
//
// Writes time-to-quality.json and time-to-quality.svg (frontier: frontier.json and frontier.svg) to
// --out (bench/lib/report.ts puts the tables and the pictures in BENCHMARKS.md). Needs the data
// (LUCID_DATA_DIR); a data set that is absent is skipped, saying why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import type { Engine } from '../src/engine/engine.js';
import { initNodeEngine } from '../src/node/engine.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { selectRows, type Table } from '../src/data/table.js';
import { findDependencies, type Dependency } from '../src/data/dependencies.js';
import { findRelations, type Relation } from '../src/data/relations.js';
import { GAN_DEFAULTS, LucidGan, type FitOptions } from '../src/models/lucidgan/model.js';
import { GanTrainer } from '../src/models/lucidgan/train.js';
import {
  drawCanonical,
  drawSeed,
  ganSeedsFor,
  modelScorer,
  observedRanges,
  type DrawOptions,
} from '../src/audit/canonical.js';
import { AUDIT_DEFAULTS, DERIVED_SEEDS, ganBatchFor, ganEpochsFor } from '../src/audit/run.js';
import {
  checkpointing,
  GAN_SCHEDULES,
  heldOutScorer,
  holdoutSplit,
  trainingRows,
  type ScheduleDef,
} from '../src/audit/schedule.js';
import { CORRECTION_DEFAULTS, CORRECTION_HIDDEN } from '../src/audit/correct.js';
import { CORRECTION_ROUND } from '../src/audit/stages/draw-plan.js';
import { meanFidelity } from '../src/methods/quality/fidelity.js';
import { AUDIT_DATASETS, auditDatasetMissing, auditSetup, type AuditDataset } from './lib/audit-setup.js';
import {
  applyRules,
  decide,
  type Decision,
  type FrontierCheck,
  type Outcome,
  type RuleOutcome,
} from './lib/frontier-rules.js';
import { frontierSvg, timeToQualitySvg } from './lib/quality-svg.js';

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
  model: ReturnType<typeof builtinBlackBox>;
  /** the audit's protected columns (the draws' derivations keep them) */
  protectedColumns: string[];
  dispose: () => void;
}

const MEASURE_EVERY = 150;
const SET_ROWS = 1000;
const PRED = 'preds';
const THRESHOLD = 0.5;

/**
 * The audit bench's data sets (bench/lib/audit-setup.ts), each with its classifier trained; an absent one is skipped.
 */
async function settings(engine: Engine, names: string[], log: (m: string) => void): Promise<Setting[]> {
  const out: Setting[] = [];
  for (const name of names) {
    if (!(AUDIT_DATASETS as readonly string[]).includes(name))
      throw new Error(`unknown data set ${name}; the data sets are: ${AUDIT_DATASETS.join(', ')}`);
    const missing = auditDatasetMissing(name as AuditDataset);
    if (missing) {
      log(`quality: ${name} skipped: the data is absent (${missing})`);
      continue;
    }
    const setup = await auditSetup(engine, name as AuditDataset);
    const clf = setup.train(engine);
    out.push({
      name,
      table: setup.table,
      label: setup.options.label,
      model: builtinBlackBox(engine, clf, setup.modelText),
      protectedColumns: setup.options.protected,
      dispose: () => clf.dispose(),
    });
  }
  return out;
}

/** Everything the audit prepares before training, for one setting. */
async function prepare(s: Setting) {
  const scores = await s.model.predict(s.table);
  const yhat = Uint8Array.from(scores, (p) => (p > THRESHOLD ? 1 : 0));
  const features = s.table.columns.filter((c) => c.name !== s.label && !(c.kind === 'categorical' && c.identifier));
  if (features.some((c) => c.name === PRED))
    throw new Error(`${s.name}: a column is named ${PRED}, the bench's condition`);
  const featureTable: Table = { rows: s.table.rows, columns: features };
  const ganTable: Table = {
    rows: s.table.rows,
    columns: [...features, { kind: 'numeric', name: PRED, values: Float64Array.from(scores) }],
  };
  return {
    yhat,
    features,
    featureTable,
    ganTable,
    range: observedRanges(featureTable),
    scorer: modelScorer(s.model, { kind: 'probability', threshold: THRESHOLD }),
  };
}
type Prepared = Awaited<ReturnType<typeof prepare>>;

/**
 * How a pair of sets is drawn: the sides' training rows to condition on, and what else the draw is given (§12: today's
 * audit).
 */
interface DrawSpec {
  scorer: Prepared['scorer'];
  range: Record<string, readonly [number, number]>;
  /** the GAN's training rows on each side, [negative, positive] */
  sideRows: [Int32Array, Int32Array];
  dependencies?: readonly Dependency[];
  relations?: readonly Relation[];
  protectedColumns?: ReadonlySet<string>;
  /** the correction of a side's set, as the audit's main sets are corrected (purpose: the draw's) */
  correct?: (side: 0 | 1, purpose: number) => DrawOptions['correct'];
}

/**
 * Both sets of one GAN, 1000 rows a side, with the audit's sampling seeds for GAN seed `seed`; the acceptance of each
 * side.
 */
async function drawSets(
  gan: LucidGan,
  d: DrawSpec,
  seed: number,
): Promise<{ sets: { positive: Table; negative: Table }; acceptance: [number, number]; ess: [number, number] }> {
  const tables: Table[] = [];
  const acceptance: [number, number] = [0, 0];
  const ess: [number, number] = [NaN, NaN];
  for (const side of [1, 0] as const) {
    // the audit's main sets: purpose 0 for the positive set, 1 for the negative one (canonical-sets.ts drawPair)
    const purpose = 1 - side;
    const correct = d.correct?.(side, purpose);
    const r = await drawCanonical(gan, {
      side,
      condition: AUDIT_DEFAULTS.ganCondition,
      sideRows: d.sideRows[side],
      predName: PRED,
      fix: [],
      rows: SET_ROWS,
      seedOf: (round) => drawSeed(seed, purpose, round),
      scorer: d.scorer,
      decision: d.scorer.decision,
      range: d.range,
      dependencies: d.dependencies ?? [],
      relations: d.relations,
      protectedColumns: d.protectedColumns,
      ...(correct ? { correct } : {}),
    });
    tables[side] = r.table;
    acceptance[1 - side] = r.stats.acceptance ?? NaN;
    // the correction's effective sample share (NaN: no correction, or skipped)
    if (r.stats.correction && !r.stats.correction.skipped) ess[1 - side] = r.stats.correction.ess;
  }
  return { sets: { positive: tables[1], negative: tables[0] }, acceptance, ess };
}

const featureKinds = (p: Prepared) => p.features.map((c) => ({ name: c.name, kind: c.kind }));

async function measure(
  gan: LucidGan,
  p: Prepared,
  sideRows: [Int32Array, Int32Array],
  seed: number,
): Promise<Omit<QualityPoint, 'steps' | 'seconds'>> {
  const { sets, acceptance } = await drawSets(gan, { scorer: p.scorer, range: p.range, sideRows }, seed);
  return { fidelity: meanFidelity(featureKinds(p), p.featureTable, p.yhat, [sets]), acceptance };
}

/**
 * Trains a LUCID-GAN step by step, `total(stepsPerEpoch)` steps in all, and stops for `check` after the
 * steps `next(done, stepsPerEpoch)` names (and at the end); the wall seconds handed to a check are the
 * training's, every check's time left out. A non-finite loss ends training (the audit's trainer calls
 * it divergence): the message says where, and no further check is made.
 */
async function trainStepped(
  engine: Engine,
  table: Table,
  opts: FitOptions,
  plan: { total: (perEpoch: number) => number; next: (done: number, perEpoch: number) => number },
  check: (gan: LucidGan, steps: number, seconds: number) => Promise<void>,
): Promise<{ stepsPerEpoch: number; total: number; diverged?: string }> {
  const { model, x, rng } = LucidGan.setup(engine, table, opts);
  const trainer = new GanTrainer(model, x, rng);
  const stepsPerEpoch = trainer.steps;
  const total = plan.total(stepsPerEpoch);
  let excluded = 0;
  const t0 = performance.now();
  try {
    for (let done = 0; done < total; ) {
      const next = Math.min(total, plan.next(done, stepsPerEpoch));
      for (; done < next; done++) {
        const l = trainer.step();
        if (![l.lossD, l.penalty, l.lossG, l.lossCond].every(Number.isFinite))
          return {
            stepsPerEpoch,
            total,
            diverged:
              `a non-finite loss at step ${done + 1} (loss_d ${l.lossD}, penalty ${l.penalty}, loss_g ${l.lossG}, ` +
              `loss_cond ${l.lossCond})`,
          };
      }
      const seconds = (performance.now() - t0) / 1000 - excluded;
      const t = performance.now();
      await check(model, done, seconds);
      excluded += (performance.now() - t) / 1000;
    }
    return { stepsPerEpoch, total };
  } finally {
    trainer.dispose();
    model.dispose();
  }
}

/** One GAN seed under one schedule, measured every MEASURE_EVERY steps and at the end. */
async function run(
  engine: Engine,
  s: Setting,
  p: Prepared,
  scheduleName: string,
  def: ScheduleDef,
  ganSeed: number,
  auditSeed: number,
  log: (m: string) => void,
): Promise<QualityRun> {
  const train = trainingRows(engine, p.yhat, def, DERIVED_SEEDS.holdout(auditSeed));
  const rows = train.rows;
  const table = train.held ? selectRows(p.ganTable, rows) : p.ganTable;
  const side = train.side;
  const batch = ganBatchFor(table.rows);
  const epochs = ganEpochsFor(table.rows, batch);
  const dims = def.dims ? { generatorDims: def.dims, discriminatorDims: def.dims } : {};
  const opts: FitOptions = { conditions: [PRED], epochs, batch, seed: ganSeed, paper: true, ...dims };
  const points: QualityPoint[] = [];
  if (train.held) {
    let excluded = 0; // measurement seconds inside the training wall time
    const t0 = performance.now();
    const wall = () => (performance.now() - t0) / 1000 - excluded;
    const held = selectRows(s.table, train.held);
    const heldYhat = Uint8Array.from(train.held, (i) => p.yhat[i]);
    const score = heldOutScorer({
      features: featureKinds(p),
      held,
      heldYhat,
      trainSide: side,
      range: p.range,
      seed: DERIVED_SEEDS.stopping(ganSeed),
    });
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
    if (!history.stop)
      throw new Error(
        `${s.name} ${scheduleName} seed ${ganSeed}: training ended with status ${fit.status} ` +
          `(${fit.message ?? 'no message'}), without a stopping record`,
      );
    const stop = history.stop;
    const keptPoint = points.find((x) => x.steps === stop.keptSteps) ?? points[points.length - 1];
    const final = { ...keptPoint, seconds: points[points.length - 1].seconds };
    fit.model.dispose();
    log(
      `  ${s.name} ${scheduleName} seed ${ganSeed}: stopped at ${stop.steps} steps, kept ${stop.keptSteps}; fidelity ` +
        `${final.fidelity.toFixed(3)} in ${final.seconds.toFixed(1)} s`,
    );
    return { data: s.name, schedule: scheduleName, seed: ganSeed, points, final, stoppedAt: stop.steps };
  }
  const trained = await trainStepped(
    engine,
    table,
    opts,
    {
      total: (perEpoch) => epochs * perEpoch,
      next: (done) => (Math.floor(done / MEASURE_EVERY) + 1) * MEASURE_EVERY,
    },
    async (gan, steps, seconds) => {
      points.push({ ...(await measure(gan, p, side, ganSeed)), steps, seconds });
    },
  );
  if (trained.diverged) throw new Error(`${s.name} ${scheduleName} seed ${ganSeed}: ${trained.diverged}`);
  const final = points[points.length - 1];
  log(
    `  ${s.name} ${scheduleName} seed ${ganSeed}: ${final.steps} steps; fidelity ${final.fidelity.toFixed(3)} in ` +
      `${final.seconds.toFixed(1)} s`,
  );
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

// ---- time to fidelity (EXPERIMENTS.md §12) ----

/** A training configuration of §12.1: layer width, batch (times ganBatchFor's), learning rate of both networks. */
export interface FrontierConfig {
  dims?: number[];
  batchTimes?: number;
  lr?: number;
}

/** §12.1's five configurations; `base` is today's default. */
export const FRONTIER_CONFIGS: Record<string, FrontierConfig> = {
  base: {},
  'width 128': { dims: [128, 128] },
  'batch 2×': { batchTimes: 2 },
  'lr 5×': { lr: 5 * GAN_DEFAULTS.lr },
  'width 128, lr 5×': { dims: [128, 128], lr: 5 * GAN_DEFAULTS.lr },
};

/**
 * §12.1: the share of each setting's rows held out of everything, split by the model's decision with a seed of its own.
 */
export const FRONTIER_HOLDOUT = {
  share: 0.3,
  seed: drawSeed(0, 9_000_036, 0),
  seedText: 'drawSeed(0, 9_000_036, 0)',
  trainPerHeld: 2,
};

export interface FrontierRun {
  data: string;
  config: string;
  seed: number;
  batch: number;
  lr: number;
  dims: number[];
  epochs: number;
  stepsPerEpoch: number;
  /** the steps trained to: the base configuration's budget, in whole epochs of this batch */
  budget: number;
  /** the 1-minute load average when the run started */
  load: number;
  checks: FrontierCheck[];
  diverged?: string;
  rules: RuleOutcome[];
}

/**
 * One setting split for §12: the GANs' 70% of the rows, the 30% held out, and how the audit would draw from GANs
 * trained on the 70%.
 */
function frontierSplit(engine: Engine, s: Setting, p: Prepared) {
  const split = holdoutSplit(
    engine,
    p.yhat,
    FRONTIER_HOLDOUT.share,
    Infinity,
    FRONTIER_HOLDOUT.seed,
    FRONTIER_HOLDOUT.trainPerHeld,
  );
  const heldOn = [0, 1].map((v) => split.held.filter((i) => p.yhat[i] === v).length);
  if (heldOn.some((n) => n === 0))
    throw new Error(`${s.name}: the 30% split holds out no row on one side (${heldOn.join(', ')})`);
  const trainFeatures = selectRows(p.featureTable, split.train);
  const trainYhat = Uint8Array.from(split.train, (i) => p.yhat[i]);
  const sideRows: [Int32Array, Int32Array] = [0, 1].map((v) =>
    Int32Array.from(trainYhat.keys()).filter((i) => trainYhat[i] === v),
  ) as [Int32Array, Int32Array];
  // the audit finds the data's dependencies, relations and ranges on the rows it trains on; here the held-out rows stay
  // out of them too
  const realSide = sideRows.map((r) => selectRows(trainFeatures, r));
  const featureNames = p.features.map((c) => c.name);
  const correction = AUDIT_DEFAULTS.ganCorrect;
  const fixed = {
    scorer: p.scorer,
    range: observedRanges(trainFeatures),
    sideRows,
    dependencies: findDependencies(trainFeatures),
    relations: findRelations(trainFeatures),
    protectedColumns: new Set(s.protectedColumns),
  };
  const draw = (ganSeed: number): DrawSpec => ({
    ...fixed,
    correct:
      correction === 'none'
        ? undefined
        : (side, purpose) => ({
            real: realSide[side],
            features: featureNames,
            seed: drawSeed(ganSeed, purpose, CORRECTION_ROUND),
            factor: CORRECTION_DEFAULTS.factor,
            ...(CORRECTION_HIDDEN[correction] ? { hidden: CORRECTION_HIDDEN[correction] } : {}),
          }),
  });
  const ganTable = selectRows(p.ganTable, split.train);
  const held = {
    features: selectRows(p.featureTable, split.held),
    yhat: Uint8Array.from(split.held, (i) => p.yhat[i]),
  };
  const baseBatch = ganBatchFor(ganTable.rows);
  const budget = ganEpochsFor(ganTable.rows, baseBatch) * Math.max(1, Math.floor(ganTable.rows / baseBatch));
  return {
    ganTable,
    trainFeatures,
    trainYhat,
    held,
    draw,
    baseBatch,
    budget,
    heldOn,
    info: {
      rows: p.yhat.length,
      trainRows: split.train.length,
      heldRows: split.held.length,
      heldNegative: heldOn[0],
      heldPositive: heldOn[1],
      baseBatch,
      budget,
    },
  };
}
type FrontierSplit = ReturnType<typeof frontierSplit>;

/**
 * One GAN seed under one configuration: trained to the base budget, checked every 150 steps rounded up to whole epochs.
 */
async function frontierRun(
  engine: Engine,
  s: Setting,
  p: Prepared,
  f: FrontierSplit,
  name: string,
  c: FrontierConfig,
  ganSeed: number,
  log: (m: string) => void,
): Promise<FrontierRun> {
  const rows = f.ganTable.rows;
  const pac = GAN_DEFAULTS.pac;
  // batch 2×: at most half the training rows, a multiple of pac
  const batch = c.batchTimes
    ? Math.max(pac, Math.min(c.batchTimes * f.baseBatch, Math.floor(rows / 2 / pac) * pac))
    : f.baseBatch;
  const perEpoch = Math.max(1, Math.floor(rows / batch));
  // the base configuration's step budget, in whole epochs of this batch
  const epochs = Math.max(1, Math.round(f.budget / perEpoch));
  const lr = c.lr ?? GAN_DEFAULTS.lr;
  const dims = c.dims ?? GAN_DEFAULTS.generatorDims;
  const opts: FitOptions = {
    conditions: [PRED],
    epochs,
    batch,
    lr,
    seed: ganSeed,
    paper: true,
    pointShare: AUDIT_DEFAULTS.ganPointShare,
    generatorDims: dims,
    discriminatorDims: dims,
  };
  const spec = f.draw(ganSeed);
  const kinds = featureKinds(p);
  const checks: FrontierCheck[] = [];
  const load = os.loadavg()[0];
  const trained = await trainStepped(
    engine,
    f.ganTable,
    opts,
    {
      total: (pe) => epochs * pe,
      // every MEASURE_EVERY steps after the last check, rounded up to whole epochs
      next: (done, pe) => Math.ceil((done + MEASURE_EVERY) / pe) * pe,
    },
    async (gan, steps, seconds) => {
      const t = performance.now();
      const { sets, acceptance, ess } = await drawSets(gan, spec, ganSeed);
      const inSample = meanFidelity(kinds, f.trainFeatures, f.trainYhat, [sets]);
      const checkSeconds = (performance.now() - t) / 1000;
      checks.push({
        steps,
        seconds,
        checkSeconds,
        eval: meanFidelity(kinds, f.held.features, f.held.yhat, [sets]),
        inSample,
        acceptance,
        ess,
      });
    },
  );
  const total = trained.total;
  if (checks.length === 0)
    throw new Error(`${s.name} ${name} seed ${ganSeed}: no check (${trained.diverged ?? 'no steps'})`);
  const rules = applyRules(checks, total);
  const last = checks[checks.length - 1];
  log(
    `  ${s.name} ${name} seed ${ganSeed}: batch ${batch}, ${total} ` +
      `steps${trained.diverged ? ` (diverged: ${trained.diverged})` : ''}; at the end eval ` +
      `${last.eval.toFixed(3)}, in-sample ${last.inSample.toFixed(3)}, acceptance ` +
      `${(100 * last.acceptance[0]).toFixed(0)}% / ${(100 * last.acceptance[1]).toFixed(0)}% in ` +
      `${last.seconds.toFixed(1)} s (+ ${checks.reduce((a, x) => a + x.checkSeconds, 0).toFixed(1)} s of checks; ` +
      `load ${load.toFixed(2)})`,
  );
  return {
    data: s.name,
    config: name,
    seed: ganSeed,
    batch,
    lr,
    dims,
    epochs,
    stepsPerEpoch: trained.stepsPerEpoch,
    budget: total,
    load,
    checks,
    ...(trained.diverged ? { diverged: trained.diverged } : {}),
    rules,
  };
}

/** Every run's rule outcomes, in the form §12.3's decision reads. */
export function frontierOutcomes(runs: readonly FrontierRun[]): Outcome[] {
  return runs.flatMap((r) =>
    r.rules.map((o) => ({
      setting: r.data,
      config: r.config,
      rule: o.rule,
      seed: r.seed,
      eval: o.eval,
      acceptance: (o.acceptance[0] + o.acceptance[1]) / 2,
      seconds: o.seconds,
    })),
  );
}

export interface FrontierDoc {
  started: string;
  finished?: string;
  command: string;
  threads: number;
  node: string;
  cpu?: string;
  load: { before: number[]; after?: number[] };
  holdout: { share: number; seed: number; seedText: string };
  every: number;
  setRows: number;
  settings: Record<string, ReturnType<typeof frontierSplit>['info']>;
  runs: FrontierRun[];
  decision?: Decision;
}

async function frontier(
  engine: Engine,
  names: string[],
  seeds: number,
  configs: string[],
  outDir: string,
  doc: FrontierDoc,
  log: (m: string) => void,
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const write = () => writeFileSync(join(outDir, 'frontier.json'), JSON.stringify(doc, null, 1) + '\n');
  for (const s of await settings(engine, names, log)) {
    const p = await prepare(s);
    const f = frontierSplit(engine, s, p);
    doc.settings[s.name] = f.info;
    log(
      `quality --frontier: ${s.name}: ${f.info.trainRows} training rows, ${f.info.heldRows} held out (${f.heldOn[1]} ` +
        `positive, ${f.heldOn[0]} negative); base batch ${f.baseBatch}, budget ${f.budget} steps`,
    );
    // for each GAN seed, every configuration in turn: the machine's load falls alike on all of them
    for (const seed of ganSeedsFor(0, seeds)) {
      for (const name of configs) {
        doc.runs.push(await frontierRun(engine, s, p, f, name, FRONTIER_CONFIGS[name], seed, log));
        write();
      }
    }
    s.dispose();
  }
  doc.decision = decide(frontierOutcomes(doc.runs));
  doc.finished = new Date().toISOString();
  doc.load.after = os.loadavg();
  write();
  writeFileSync(join(outDir, 'frontier.svg'), frontierSvg(doc.runs));
  log(`quality --frontier: ${doc.decision.text}`);
  log(`quality --frontier: wrote ${join(outDir, 'frontier.json')} and frontier.svg`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const arg = (k: string, d: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : d;
  };
  const isFrontier = argv.includes('--frontier');
  const names = arg('--data', isFrontier ? AUDIT_DATASETS.join(',') : 'adult,compas').split(',');
  const seeds = Number(arg('--seeds', '3'));
  const threads = Number(arg('--threads', String(os.availableParallelism())));
  const outDir = arg('--out', 'bench/results');
  const log = (m: string) => process.stderr.write(m + '\n');
  if (isFrontier) {
    const configs = arg('--configs', Object.keys(FRONTIER_CONFIGS).join('|')).split('|');
    const unknown = configs.filter((n) => !(n in FRONTIER_CONFIGS));
    if (unknown.length)
      throw new Error(
        `unknown configuration ${unknown.join(', ')}; the configurations are: ` +
          `${Object.keys(FRONTIER_CONFIGS).join(' | ')}`,
      );
    if (!configs.includes('base')) throw new Error('--configs must include base, the reference');
    const engine = await initNodeEngine({ threads });
    const doc: FrontierDoc = {
      started: new Date().toISOString(),
      command: ['node', 'dist/bench/quality.js', ...argv].map((x) => (/^[\w.,/=-]+$/.test(x) ? x : `'${x}'`)).join(' '),
      threads,
      node: process.version,
      cpu: os.cpus()[0]?.model,
      load: { before: os.loadavg() },
      holdout: { share: FRONTIER_HOLDOUT.share, seed: FRONTIER_HOLDOUT.seed, seedText: FRONTIER_HOLDOUT.seedText },
      every: MEASURE_EVERY,
      setRows: SET_ROWS,
      settings: {},
      runs: [],
    };
    return frontier(engine, names, seeds, configs, outDir, doc, log);
  }
  const only = arg('--schedules', Object.keys(BENCH_SCHEDULES).join('|')).split('|');
  const auditSeed = Number(arg('--audit-seed', '0'));
  const unknown = only.filter((n) => !(n in BENCH_SCHEDULES));
  if (unknown.length)
    throw new Error(
      `unknown schedule ${unknown.join(', ')}; the schedules are: ${Object.keys(BENCH_SCHEDULES).join(' | ')}`,
    );
  const engine = await initNodeEngine({ threads });
  const runs: QualityRun[] = [];
  const started = new Date().toISOString();
  const load0 = os.loadavg();
  for (const s of await settings(engine, names, log)) {
    const p = await prepare(s);
    for (const seed of ganSeedsFor(auditSeed, seeds)) {
      for (const name of only) runs.push(await run(engine, s, p, name, BENCH_SCHEDULES[name], seed, auditSeed, log));
    }
    s.dispose();
  }
  mkdirSync(outDir, { recursive: true });
  const doc = {
    started,
    auditSeed,
    threads,
    node: process.version,
    cpu: os.cpus()[0]?.model,
    load: { before: load0, after: os.loadavg() },
    measureEvery: MEASURE_EVERY,
    setRows: SET_ROWS,
    runs,
  };
  writeFileSync(join(outDir, 'time-to-quality.json'), JSON.stringify(doc, null, 1) + '\n');
  writeFileSync(join(outDir, 'time-to-quality.svg'), timeToQualitySvg(runs));
  log(`quality: wrote ${join(outDir, 'time-to-quality.json')} and time-to-quality.svg`);
}

if (process.argv[1]?.endsWith('quality.js')) {
  main().catch((e) => {
    process.stderr.write(`quality: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
