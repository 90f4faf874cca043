// How long an audit trains its LUCID-GANs. Two schedules, one table:
//   paper: the published schedule, a fixed step budget (AUDIT_DEFAULTS.ganSteps, about 50 epochs on
//          Adult), every real row in training;
//   fast:  the same budget as a ceiling, stopped on a quality criterion measured on real rows held
//          out from the GAN's training: the mean distance (KS for numbers, TV for categories; the
//          canonical-sets issue's fidelity, methods/quality/fidelity.ts) between rows generated on
//          each side and the held-out rows the model puts on that side. The best check's weights
//          are kept (models/lucidgan/config.ts Checkpointing).
// The held-out rows are split off by side (the model's decision), so both sides keep real rows to be
// measured against. Core code: no Node imports; every draw comes from a seeded Rng of its own.
import { check } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import type { Engine } from '../engine/engine.js';
import type { Table } from '../data/table.js';
import { selectRows } from '../data/table.js';
import type { Checkpointing, LucidGan, StopRecord } from '../models/lucidgan/model.js';
import { meanFidelity } from '../methods/quality/fidelity.js';
import { describeReuse, type GanReuse } from './gan-reuse.js';

export type GanSchedule = 'paper' | 'fast' | 'plateau';

export interface ScheduleDef {
  label: string;
  /** share of the rows held out from the GAN's training for the stopping rule (0: none, no stopping) */
  holdout: number;
  /** at most this many rows held out */
  maxHoldout: number;
  /** the generator's and the critic's hidden layers (default GAN_DEFAULTS': 256, 256) */
  dims?: number[];
  /**
   * stopping rule (Checkpointing): on held-out rows (`fast`) or on the sets drawn as the audit draws them (`plateau`)
   */
  stop?: 'held-out' | 'sets';
  every?: number;
  patience?: number;
  minDelta?: number;
  minSteps?: number;
  progressFrom?: Checkpointing['progressFrom'];
  acceptanceRise?: number;
  keep?: Checkpointing['keep'];
  /** what the checks read, in words (the report's training line) */
  checkedOn?: string;
}

/** The schedules (`--gan-schedule`); help text and the report read the labels from here. */
export const GAN_SCHEDULES: Record<GanSchedule, ScheduleDef> = {
  paper: { label: 'the published schedule: a fixed step budget, every row in training', holdout: 0, maxHoldout: 0 },
  fast: {
    label: 'the step budget as a ceiling, stopped when the fidelity to held-out real rows stops improving',
    holdout: 0.15,
    maxHoldout: 2000,
    stop: 'held-out',
    every: 150,
    patience: 2,
    minDelta: 0.02,
    minSteps: 300,
  },
  // EXPERIMENTS.md §12 (R2): chosen from the time-to-fidelity frontier by the rule declared before it ran
  plateau: {
    label:
      'the step budget as a ceiling, stopped when the sets (drawn as the audit draws them) stop getting closer to ' +
      'the training rows and their acceptance stops rising',
    holdout: 0,
    maxHoldout: 0,
    stop: 'sets',
    every: 150,
    patience: 2,
    minDelta: 0.02,
    minSteps: 300,
    progressFrom: 'lowest',
    acceptanceRise: 0.02,
    keep: 'last',
    checkedOn: 'the fidelity of its sets to its training rows and their acceptance',
  },
};

export const SCHEDULE_NAMES = Object.keys(GAN_SCHEDULES) as GanSchedule[];

export const SCHEDULE_DEFAULTS = {
  /** generated rows per side at each check */
  checkRows: 1000,
  /** fewer held-out rows on a side than this: that side is not measured (both: no stopping) */
  minSideRows: 20,
};

/** The rows of each side to train on and to hold out; `held` is empty when nothing can be held out. */
export interface HoldoutSplit {
  train: Int32Array;
  held: Int32Array;
}

/**
 * Splits the rows by the model's decision `yhat` (stratified): `share` of each side, at most `max`
 * rows in all, held out. A side too small to give SCHEDULE_DEFAULTS.minSideRows rows while keeping
 * `trainPerHeld` (default four) times as many to train on gives none; the frontier bench (EXPERIMENTS.md
 * §12) holds out 30% and asks for two.
 */
export function holdoutSplit(
  engine: Engine,
  yhat: Uint8Array,
  share: number,
  max: number,
  seed: number,
  trainPerHeld = 4,
): HoldoutSplit {
  check(share >= 0 && share < 1, 'E_ARG', () => `schedule: the held-out share must be in [0, 1), got ${share}`);
  const n = yhat.length;
  const total = Math.min(max, Math.round(share * n));
  const held: number[] = [];
  const rng = new Rng(engine, seed);
  for (const side of [1, 0]) {
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (yhat[i] === side) rows.push(i);
    const k = n > 0 ? Math.round((total * rows.length) / n) : 0;
    if (k < SCHEDULE_DEFAULTS.minSideRows || rows.length - k < trainPerHeld * k) continue;
    const perm = rng.permutation(rows.length);
    for (let j = 0; j < k; j++) held.push(rows[perm[j]]);
  }
  held.sort((a, b) => a - b);
  const isHeld = new Uint8Array(n);
  for (const i of held) isHeld[i] = 1;
  const train: number[] = [];
  for (let i = 0; i < n; i++) if (!isHeld[i]) train.push(i);
  return { train: Int32Array.from(train), held: Int32Array.from(held) };
}

/**
 * The GANs' training rows under a schedule (indices into the audited rows), the rows held out for its
 * stopping rule (null: none), and the training rows on each side as indices into the training rows
 * ([negative, positive]: the observed condition's pools). The audit and the time-to-quality bench share it.
 */
export function trainingRows(
  engine: Engine,
  yhat: Uint8Array,
  def: ScheduleDef,
  seed: number,
): { rows: Int32Array; held: Int32Array | null; side: [Int32Array, Int32Array] } {
  const split = def.holdout > 0 ? holdoutSplit(engine, yhat, def.holdout, def.maxHoldout, seed) : null;
  const held = split && split.held.length > 0 ? split : null;
  const rows = held ? held.train : Int32Array.from({ length: yhat.length }, (_, i) => i);
  const onSide = (v: number) => Int32Array.from(rows.keys()).filter((i) => yhat[rows[i]] === v);
  return { rows, held: held ? held.held : null, side: [onSide(0), onSide(1)] };
}

/**
 * The stopping rule's score of a GAN: rows generated on each side, conditioned as the audit draws its
 * sets (the prediction condition of a training row of that side), against the held-out real rows of
 * that side; the mean over features and sides of KS / TV (lower is better).
 */
export function heldOutScorer(o: {
  features: readonly { name: string; kind: 'numeric' | 'categorical' }[];
  /** the held-out real rows and the model's decision on each */
  held: Table;
  heldYhat: Uint8Array;
  /** the GAN's training rows on each side (indices into its training table) */
  trainSide: [Int32Array, Int32Array];
  range: Record<string, readonly [number, number]>;
  seed: number;
  rows?: number;
}): (gan: LucidGan) => number {
  const m = o.rows ?? SCHEDULE_DEFAULTS.checkRows;
  return (gan) => meanFidelity(o.features, o.held, o.heldYhat, [{ positive: side(gan, 1), negative: side(gan, 0) }]);
  function side(gan: LucidGan, s: 0 | 1): Table {
    const pool = o.trainSide[s];
    // a side with no held-out rows is not measured (meanFidelity skips it): generate nothing for it
    if (pool.length === 0 || !o.heldYhat.some((y) => y === s))
      return selectRows(gan.sample({ n: 1, seed: o.seed, range: o.range }).table, []);
    // the same rows and noise at every check: the score moves with the weights only
    const u = new Rng(gan.engine, o.seed + s).uniformHost(m);
    const rows = Int32Array.from(u, (x) => pool[Math.min(pool.length - 1, Math.floor(x * pool.length))]);
    return gan.sample({ n: m, rows, condVector: 'zero', seed: o.seed + 7 + s, range: o.range }).table;
  }
}

/** Checkpointing for a schedule, or null when it does not stop early (or nothing could be held out). */
export function checkpointing(def: ScheduleDef, score: Checkpointing['score'] | null): Checkpointing | null {
  if (def.stop === undefined || score === null) return null;
  return {
    every: def.every!,
    patience: def.patience!,
    minDelta: def.minDelta!,
    minSteps: def.minSteps,
    score,
    ...(def.progressFrom ? { progressFrom: def.progressFrom } : {}),
    ...(def.acceptanceRise !== undefined ? { acceptanceRise: def.acceptanceRise } : {}),
    ...(def.keep ? { keep: def.keep } : {}),
  };
}

/** meta.gan.sample: the stratified sample the GANs trained on (sample.ts), null when they saw every row. */
export interface GanSampleRecord {
  rows: number;
  of: number;
  strata: readonly string[];
  strataCount: number;
  represented: number;
}

/**
 * The rows the GANs trained on, in words: "15,060 rows", or with a sample "a stratified sample of 50,000
 * of 10,000,000 rows (strata: decision × Sex × Race)"; under the fast schedule, which holds rows out of
 * the sample, "48,000 rows of a stratified sample of …".
 */
export function describeGanRows(g: { rows: number; sample?: GanSampleRecord | null }): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const s = g.sample;
  if (!s) return `${n(g.rows)} rows`;
  const missing =
    s.represented < s.strataCount
      ? `; ${n(s.strataCount - s.represented)} of its ${n(s.strataCount)} strata have no row`
      : '';
  const what = `a stratified sample of ${n(s.rows)} of ${n(s.of)} rows (strata: ${s.strata.join(' × ')}${missing})`;
  return g.rows === s.rows ? what : `${n(g.rows)} rows of ${what}`;
}

/** One line on how the GANs trained, from an audit's meta.gan (the CLI summary and the report say the same). */
export function describeGanTraining(g: {
  epochs: number;
  mode: string;
  rows: number;
  seeds: readonly number[];
  epochsDone: readonly number[];
  schedule?: GanSchedule;
  heldOut?: number;
  batch?: number;
  stops?: readonly (StopRecord | null)[];
  sample?: GanSampleRecord | null;
  sampling?: { condition: string; pointShare: number; correct: string; candidates?: number };
  reused?: GanReuse | null;
}): string {
  const how = g.sampling ? `; ${describeSampling(g.sampling)}` : '';
  const reused = g.reused ? `; ${describeReuse(g.reused)}` : '';
  return describeTraining(g) + reused + how;
}

/** How the sets were drawn, in words (the condition mode, point masses, the correction). */
export function describeSampling(s: {
  condition: string;
  pointShare: number;
  correct: string;
  candidates?: number;
}): string {
  const points = s.pointShare > 0 ? `point masses ≥ ${+(100 * s.pointShare).toFixed(2)}%` : 'no point masses';
  const corr =
    s.correct === 'none' ? 'no correction' : `${s.correct} correction from ${s.candidates ?? '?'}× candidates`;
  return `sets: ${s.condition} condition, ${points}, ${corr}`;
}

function describeTraining(g: Parameters<typeof describeGanTraining>[0]): string {
  const seeds = `${g.seeds.length} seed${g.seeds.length === 1 ? '' : 's'}`;
  const base = `LUCID-GAN (${g.mode} loss) × ${seeds} on ${describeGanRows(g)}`;
  const epochsText = () =>
    g.epochsDone.length && g.epochsDone.every((e) => e === g.epochs)
      ? `${g.epochs} epochs`
      : `${g.epochsDone.join(', ')} of ${g.epochs} epochs`;
  const def = g.schedule ? GAN_SCHEDULES[g.schedule] : undefined;
  if (!def?.stop) return `${base}, ${epochsText()} (the published schedule)`;
  if (def.stop === 'held-out' && !g.heldOut)
    return `${base}, ${epochsText()} (fast schedule, but too few rows to hold any out, so no stopping rule)`;
  const stops = g.stops ?? [];
  const budget = g.batch ? Math.max(1, Math.floor(g.rows / g.batch)) * g.epochs : null;
  // one entry per seed, in seed order; a seed without a record (none expected) shows its epochs
  const per = g.seeds.map((_, k) => {
    const s = stops[k] ?? null;
    if (!s) return `${g.epochsDone[k] ?? '?'} epochs, no record`;
    const why = s.reason === 'no improvement' ? 'stopped' : s.reason === 'budget' ? 'the whole budget' : s.reason;
    return def.keep === 'last' ? `${s.steps} steps (${why})` : `${s.steps} steps (${why}), step ${s.keptSteps} kept`;
  });
  const on =
    def.stop === 'held-out'
      ? `the fidelity to ${(g.heldOut ?? 0).toLocaleString('en-US')} held-out rows`
      : def.checkedOn!;
  return (
    `${base}, checked every ${def.every} steps on ${on}${budget ? ` (budget ${budget} steps)` : ''}: ` +
    `${per.join('; ')}`
  );
}
