// An audit's inputs, settled once: auditPlan turns the caller's AuditOptions and the table into an
// AuditPlan with every default applied, every check of the call made (in the order the audit has
// always made them, with the same errors), the decision rule, the positive class and every seed the
// audit derives from its seed. The stages (stages/*.ts) read the plan and nothing else of the call:
// a default or a check of an option is here and nowhere in a stage.
//
// What the plan cannot settle before the data is scored is said as a rule, not left to a stage: the
// GANs' epochs and batch depend on how many rows they train on, known only after the model's
// decisions split off the held-out rows (gan.epochsFor, gan.batchFor).
// Core code: no Node imports.
import { check, EngineError } from '../engine/errors.js';
import { getColumn, type Table } from '../data/table.js';
import { checkModelClasses, type BlackBox } from '../models/blackbox.js';
import {
  decisionRule,
  labelValues,
  metricsSettings,
  modelOrPred,
  positiveOf,
  type DecisionRule,
  type Favourable,
} from '../methods/metrics/index.js';
import { checkFaleBins, FALE_DEFAULTS } from '../methods/fale/fale.js';
import { checkLucidEpochs, LUCID_DEFAULTS } from '../methods/lucid/invert.js';
import { checkGanBatch, checkGanEpochs } from '../models/lucidgan/model.js';
import { GAN_DEFAULTS } from '../models/lucidgan/config.js';
import { checkPointShare } from '../models/ctgan/transformer.js';
import { checkBinCount } from './bins.js';
import { checkGanSeeds, ganSeedsFor, surrogateSplitSeed, type ConditionMode } from './canonical.js';
import { CORRECTION_DEFAULTS, type Correction } from './correct.js';
import {
  AUDIT_DEFAULTS,
  DERIVED_SEEDS,
  ganBatchFor,
  ganEpochsFor,
  type AuditOptions,
  type StageEta,
} from './options.js';
import { GAN_SCHEDULES, type GanSchedule, type ScheduleDef } from './schedule.js';
import type { AuditProvenance } from './types.js';
import type { GanHandover, GanStore } from './gan-reuse.js';
import type { GanWorkers } from './gan-workers.js';
import type { AuditEstimate } from './gan-probe.js';
import { outputPlan, type OutputPlan } from './output-plan.js';

/**
 * Every seed of an audit, derived from its seed by DERIVED_SEEDS (and the GANs' by ganSeedsFor); meta.seeds lists those
 * used.
 */
export interface AuditSeeds {
  /** the audit's seed: LUCID's start and descent, the surrogate's training */
  audit: number;
  metrics: number;
  fale: number;
  checks: number;
  holdout: number;
  ganSample: number;
  separation: number;
  beyond: number;
  /** the surrogate of a predictions column: its hold-out split */
  surrogateSplit: number;
  /** one per GAN seed asked for: its training seed */
  gans: number[];
  /** one per GAN seed: the rows its stopping rule generates at each check */
  stopping: number[];
}

/** How the LUCID-GANs are trained and their sets drawn. */
export interface GanPlan {
  schedule: GanSchedule;
  scheduleDef: ScheduleDef;
  mode: 'paper' | 'consistency';
  pointShare: number;
  condition: ConditionMode;
  correct: Correction;
  /** candidates drawn per row of a main set by the correction (checked: at least 2) */
  candidates: number;
  /** the sets are drawn by rejection (when something scores them) */
  rejection: boolean;
  /** the most rows the GANs train on (a stratified sample beyond) */
  rowsMax: number;
  /** how many GANs train (different seeds; their seeds are the plan's seeds.gans) */
  count: number;
  /** the GAN batch for `rows` training rows: the one given, else ganBatchFor(rows) */
  batchFor(rows: number): number;
  /** the GAN epochs for `rows` training rows at `batch`: the ones given, else ganEpochsFor(rows, batch) */
  epochsFor(rows: number, batch: number): number;
}

/** What an audit is asked, settled: the stages' only view of the call. */
export interface AuditPlan {
  label: string;
  /** what the audit reads: its kind, why, and its direction (output-plan.ts) */
  output: OutputPlan;
  /** the positive class: the one given, else the second of a two-valued label ('' for multiclass and regression) */
  positive: string;
  /** whether the positive class was named (the model's recorded classes are checked against it) */
  positiveGiven: boolean;
  /** how a score becomes the decision (its threshold for a probability) */
  decision: DecisionRule;
  favourable: Favourable;
  protected: string[];
  protectedBins: number;
  /** explicit bin edges of numeric protected columns (each names a protected column) */
  protectedEdges: Record<string, number[]>;
  /** protected column → its reference group (each names a protected column) */
  reference: Record<string, string> | undefined;
  tolerance: number;
  minGroupSize: number;
  confidence: number;
  /** legitimate factors (each a column that is not protected, the label or the predictions) */
  legitimate: string[] | undefined;
  /** --suppress-below k, or undefined: none */
  suppressBelow: number | undefined;
  allowInvertedScores: boolean | undefined;
  allowSmall: boolean;
  /** the model to call; undefined when a predictions column is given */
  model: BlackBox | undefined;
  /** the predictions column, when one was given instead of a model */
  pred: string | undefined;
  modelClasses: Record<string, string> | undefined;
  /** where the data came from (the report's words) */
  source: string;
  provenance: AuditProvenance | undefined;
  seed: number;
  seeds: AuditSeeds;
  /** rows per canonical set and GAN seed */
  n: number;
  /** rows per side of an intersection's sets and GAN seed, at most (the conditional sets: exactly) */
  nInter: number;
  gan: GanPlan;
  fale: { bins: number; bootstrap: number };
  lucidEpochs: number;
  /** the caller's hooks and stores, as given */
  onProgress: ((stage: string, fraction: number, eta?: StageEta) => void) | undefined;
  onEstimate: ((e: AuditEstimate) => void) | undefined;
  shouldStop: (() => boolean) | undefined;
  ganCache: GanStore | undefined;
  ganSet: GanHandover | undefined;
  ganWorkers: GanWorkers | undefined;
}

/** The GAN options an audit and its estimate read (AuditOptions' gan* fields and rejection). */
export type GanOptions = Pick<
  AuditOptions,
  | 'ganRows'
  | 'ganSchedule'
  | 'ganSeeds'
  | 'ganCandidates'
  | 'ganMode'
  | 'ganPointShare'
  | 'ganCondition'
  | 'ganCorrect'
  | 'rejection'
  | 'ganBatch'
  | 'ganEpochs'
>;

/**
 * The GANs' part of the plan: checks the GAN options and settles their defaults, for the audit's plan
 * and for the estimate the browser page shows before an audit runs.
 */
export function ganPlan(opts: GanOptions): GanPlan {
  const rowsMax = opts.ganRows ?? AUDIT_DEFAULTS.ganRows;
  check(
    Number.isSafeInteger(rowsMax) && rowsMax > 0,
    'E_ARG',
    () => `audit: ganRows must be a positive integer, got ${rowsMax}`,
  );
  const schedule = opts.ganSchedule ?? AUDIT_DEFAULTS.ganSchedule;
  check(
    schedule in GAN_SCHEDULES,
    'E_ARG',
    () => `audit: ganSchedule must be one of ${Object.keys(GAN_SCHEDULES).join(', ')}, got ${String(schedule)}`,
  );
  const count = opts.ganSeeds ?? AUDIT_DEFAULTS.ganSeeds;
  checkGanSeeds(count);
  const candidates = opts.ganCandidates ?? CORRECTION_DEFAULTS.factor;
  check(
    Number.isSafeInteger(candidates) && candidates >= 2,
    'E_ARG',
    () => `audit: ganCandidates must be an integer of at least 2, got ${candidates}`,
  );
  const { ganBatch, ganEpochs } = opts;
  const pointShare = opts.ganPointShare ?? AUDIT_DEFAULTS.ganPointShare;
  checkPointShare(pointShare);
  if (ganBatch !== undefined) checkGanBatch(ganBatch, GAN_DEFAULTS.pac);
  if (ganEpochs !== undefined) checkGanEpochs(ganEpochs);
  return {
    schedule,
    scheduleDef: GAN_SCHEDULES[schedule],
    mode: opts.ganMode ?? AUDIT_DEFAULTS.ganMode,
    pointShare,
    condition: opts.ganCondition ?? AUDIT_DEFAULTS.ganCondition,
    correct: opts.ganCorrect ?? AUDIT_DEFAULTS.ganCorrect,
    candidates,
    rejection: opts.rejection ?? true,
    rowsMax,
    count,
    batchFor: (rows) => ganBatch ?? ganBatchFor(rows),
    epochsFor: (rows, batch) => ganEpochs ?? ganEpochsFor(rows, batch),
  };
}

/** The protected-edges rule: edges only for protected columns; `words` is the caller's error for column `c`. */
export function checkProtectedEdges(
  edges: Record<string, unknown>,
  protectedColumns: readonly string[],
  words: (c: string) => string,
): void {
  for (const c of Object.keys(edges)) check(protectedColumns.includes(c), 'E_ARG', () => words(c));
}

/** Rethrows an input error of `f` with the data's name in front (the metrics' errors on the data's columns). */
export function inData<T>(source: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EngineError && e.code === 'E_INPUT') throw new EngineError('E_INPUT', `${source}: ${e.message}`);
    throw e;
  }
}

/**
 * The audit's plan: checks the call before any work (sizes, seed, the protected, label and predictions
 * columns, the model's classes, too few rows, the threshold, the references, the legitimate columns,
 * the GAN options) and settles every default.
 */
export function auditPlan(table: Table, opts: AuditOptions): AuditPlan {
  const seed = opts.seed ?? 0;
  check(
    Number.isSafeInteger(seed) && seed >= 0,
    'E_ARG',
    () => `audit: seed must be a non-negative integer, got ${seed}`,
  );
  const n = opts.n ?? AUDIT_DEFAULTS.n;
  const nInter = opts.intersectionRows ?? AUDIT_DEFAULTS.intersectionRows;
  check(Number.isSafeInteger(n) && n > 0, 'E_ARG', () => `audit: n must be a positive integer, got ${n}`);
  check(
    Number.isSafeInteger(nInter) && nInter >= 0,
    'E_ARG',
    () => `audit: intersectionRows must be a non-negative integer, got ${nInter}`,
  );
  check(table.rows > 0, 'E_INPUT', () => 'audit: the data has no rows');
  check(opts.protected.length > 0, 'E_ARG', () => 'audit: name at least one protected column');
  check(
    new Set(opts.protected).size === opts.protected.length,
    'E_ARG',
    () => `audit: a protected column is named twice (${opts.protected.join(', ')})`,
  );

  // a model of kind 'column' is a predictions column in a model's clothes: it is not called
  const model = opts.model && opts.model.kind !== 'column' ? opts.model : undefined;
  const pred = opts.pred ?? undefined;
  modelOrPred(
    { model, pred },
    {
      none: 'audit: give a model to call or the name of a predictions column (pred)',
      both: 'audit: give either a model or a predictions column, not both',
    },
  );
  getColumn(table, opts.label, 'audit', 'label');
  for (const p of opts.protected) {
    getColumn(table, p, 'audit', 'protected column');
    check(
      p !== opts.label && p !== pred,
      'E_ARG',
      () => `audit: "${p}" is the label or the predictions column; name protected columns`,
    );
  }
  if (pred !== undefined) getColumn(table, pred, 'audit', 'predictions column');
  const protectedEdges = opts.protectedEdges ?? {};
  checkProtectedEdges(
    protectedEdges,
    opts.protected,
    (c) =>
      `audit: protected edges name "${c}", which is not among the protected columns (${opts.protected.join(', ')})`,
  );
  const source = opts.source ?? 'data';
  const output = outputPlan(table, opts, model, pred);
  const binary = output.kind === 'binary';
  // the positive class: for a model, checked against the model's classes before it is called (a
  // mismatch reverses every direction); for a predictions column, below
  let modelPositive: string | undefined;
  if (model && binary) {
    const values = labelValues(table, opts.label, 'audit');
    modelPositive = positiveOf(values, opts.positive, opts.label, 'audit');
    checkModelClasses(model, {
      label: opts.label,
      values,
      positive: modelPositive,
      positiveGiven: opts.positive !== undefined,
      classMap: opts.modelClasses,
    });
  } else if (!model)
    check(
      opts.modelClasses === undefined,
      'E_ARG',
      () =>
        'audit: --model-classes maps the classes of a model; a predictions column has none (its scores are checked ' +
        'against the label instead)',
    );
  const minRows = AUDIT_DEFAULTS.minRows;
  check(
    opts.allowSmall || table.rows >= minRows,
    'E_INPUT',
    () =>
      `audit: the data has ${table.rows} rows; an audit needs at least ${minRows} (a GAN, the checks and the ` +
      `verdicts cannot work on fewer); --allow-small runs it anyway, every small group marked`,
  );

  // a score's threshold is on its own scale (output.threshold); the binary rule keeps its default there
  const decision = decisionRule(binary ? opts.threshold : undefined, 'audit');
  // the later stages' own checks, made here so a bad value stops the audit before any work, in their words
  const metrics = metricsSettings({ ...opts, favourable: binary ? (opts.favourable as Favourable) : undefined });
  const protectedBins = opts.protectedBins ?? AUDIT_DEFAULTS.protectedBins;
  checkBinCount(protectedBins);
  const faleBins = opts.faleBins ?? FALE_DEFAULTS.bins;
  checkFaleBins(faleBins);
  const lucidEpochs = opts.lucidEpochs ?? LUCID_DEFAULTS.epochs;
  checkLucidEpochs(lucidEpochs);
  for (const c of Object.keys(opts.reference ?? {}))
    check(
      opts.protected.includes(c),
      'E_ARG',
      () =>
        `audit: the reference names "${c}", which is not among the protected columns (${opts.protected.join(', ')})`,
    );
  for (const c of opts.legitimate ?? []) {
    getColumn(table, c, 'audit', 'legitimate column');
    check(
      !opts.protected.includes(c) && c !== opts.label && c !== pred,
      'E_ARG',
      () => `audit: the legitimate column "${c}" is a protected, label or predictions column`,
    );
  }
  // a predictions column's label is read as the group metrics read it: its errors are theirs, an
  // input error naming the data (as the audit has always reported them, after the checks above)
  const positive =
    modelPositive ??
    (output.kind === 'multiclass' || output.kind === 'regression'
      ? ''
      : inData(source, () =>
          positiveOf(labelValues(table, opts.label, 'metrics'), opts.positive, opts.label, 'metrics'),
        ));

  const gan = ganPlan(opts);
  const gans = ganSeedsFor(seed, gan.count);

  return {
    label: opts.label,
    output,
    positive,
    positiveGiven: opts.positive !== undefined,
    decision,
    favourable: metrics.favourable,
    protected: opts.protected,
    protectedBins,
    protectedEdges,
    reference: opts.reference,
    tolerance: metrics.tolerance,
    minGroupSize: metrics.minGroupSize,
    confidence: metrics.confidence,
    legitimate: opts.legitimate,
    suppressBelow: opts.suppressBelow,
    allowInvertedScores: opts.allowInvertedScores,
    allowSmall: opts.allowSmall === true,
    model,
    pred,
    modelClasses: opts.modelClasses,
    source,
    provenance: opts.provenance,
    seed,
    seeds: {
      audit: seed,
      metrics: DERIVED_SEEDS.metrics(seed),
      fale: DERIVED_SEEDS.fale(seed),
      checks: DERIVED_SEEDS.checks(seed),
      holdout: DERIVED_SEEDS.holdout(seed),
      ganSample: DERIVED_SEEDS.ganSample(seed),
      separation: DERIVED_SEEDS.separation(seed),
      beyond: DERIVED_SEEDS.beyond(seed),
      surrogateSplit: surrogateSplitSeed(seed),
      gans,
      stopping: gans.map(DERIVED_SEEDS.stopping),
    },
    n,
    nInter,
    gan,
    fale: { bins: faleBins, bootstrap: opts.faleBootstrap ?? AUDIT_DEFAULTS.faleBootstrap },
    lucidEpochs,
    onProgress: opts.onProgress,
    onEstimate: opts.onEstimate,
    shouldStop: opts.shouldStop,
    ganCache: opts.ganCache,
    ganSet: opts.ganSet,
    ganWorkers: opts.ganWorkers,
  };
}
