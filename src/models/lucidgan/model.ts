// LUCID-GAN (LUCID-GAN §3; spec §2.4): CTGAN conditioned on the audited model's prediction.
//
// The condition columns (e.g. `preds`) are taken out of the data before the transformer and fed
// raw to both networks: generator input [z | cond vector | raw conditions], critic input
// [row | cond vector | raw conditions] (PacGAN). WGAN-GP, one critic step per generator step, the
// generator loss −mean D(fake) + the conditional cross-entropy on the selected column's logits.
// The reference's bugs are fixed: cond-vector offsets are per column, sampling runs the generator
// in eval mode (batch norm on running statistics) without a graph, any number of condition rows
// works, and categories can be fixed without giving a condition value.
//
// Default mode, prediction consistency (surrogate.ts): a fixed surrogate s of the audited model,
// fitted on (transformed row, condition) pairs before training, adds λ·BCE(sigmoid(s(fake)), c) to
// the generator loss, over the batch and a set of probe rows conditioned at 0 or 1. `paper: true`
// trains as published (no surrogate, no probe rows; the same draws as before the mode existed).
//
// Core code: no Node imports. Every draw comes from one Rng, so the same seed and data give the
// same weights bit for bit (per kernel build).
import type { Engine, Tensor } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import * as o from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import { Adam } from '../../nn/adam.js';
import { buildParams, type ParamSet } from '../../nn/module.js';
import { columnWidth, DataTransformer, type InverseReport, type TransformerOptions } from '../ctgan/transformer.js';
import { unknownColumn, type Column, type Table } from '../../data/table.js';
import { applyActivation, Discriminator, Generator, gradientPenalty } from '../ctgan/networks.js';
import { CondSampler, type DiscreteColumn } from './sampler.js';
import { buildSurrogate, fitSurrogate, freezeSurrogate, type Surrogate, type SurrogateFit } from './surrogate.js';

export interface GanConfig {
  embedding: number;
  generatorDims: number[];
  discriminatorDims: number[];
  pac: number;
  batch: number;
  epochs: number;
  lr: number;
  betas: [number, number];
  weightDecay: number;
  penaltyLambda: number;
  tau: number;
}

export const GAN_DEFAULTS: GanConfig = {
  embedding: 128,
  generatorDims: [256, 256],
  discriminatorDims: [256, 256],
  pac: 10,
  batch: 500,
  epochs: 300,
  lr: 2e-4,
  betas: [0.5, 0.9],
  weightDecay: 1e-6,
  penaltyLambda: 10,
  tau: 0.2,
};

/** Weight λ of the prediction-consistency term (chosen on Adult; see docs/methods.md "LUCID-GAN"). */
export const CONSISTENCY_WEIGHT = 5;

/**
 * The training mode: 'consistency' (the default) adds λ·BCE(sigmoid(s(fake)), c) to the generator
 * loss, s a fixed surrogate of the audited model fitted on (transformed row, condition) pairs;
 * 'paper' is LUCID-GAN as published (no such term).
 */
export interface ConsistencySpec {
  mode: 'consistency' | 'paper';
  /** the condition column the surrogate predicts (consistency mode) */
  condition: string | null;
  weight: number;
  /** the surrogate's hidden width and weights (consistency mode) */
  hidden: number;
  weights: Float32Array | null;
}

export const PAPER_MODE: ConsistencySpec = { mode: 'paper', condition: null, weight: 0, hidden: 0, weights: null };

export interface GanEpoch {
  epoch: number;
  lossG: number;
  lossD: number;
  lossCond: number;
  seconds: number;
}

export interface FitOptions extends Partial<GanConfig> {
  /** numeric columns fed raw as conditions (e.g. ["preds"]); may be empty */
  conditions: string[];
  /** columns in the cond vector; default every categorical column (numeric ones listed here become categorical) */
  discrete?: string[];
  seed?: number;
  /** named in error messages (e.g. the data file) */
  where?: string;
  onEpoch?: (e: GanEpoch) => void;
  /** checked after every step; true ends training after the current step (the model is kept) */
  shouldStop?: () => boolean;
  /** the paper's training: no prediction-consistency term, no surrogate (default false) */
  paper?: boolean;
  /** the condition (values in [0, 1]) the consistency term ties rows to; default the first such condition */
  consistency?: string;
  /** λ of the consistency term (default CONSISTENCY_WEIGHT) */
  consistencyWeight?: number;
  /** numeric values held by at least this share of the rows become point masses (TransformerOptions.pointShare; 0: none) */
  pointShare?: number;
  /** stop on a quality criterion (see Checkpointing); `epochs` is then the budget */
  checkpoint?: Checkpointing;
}

export type FitStatus = 'done' | 'interrupted' | 'diverged';

export interface FitResult {
  model: LucidGan;
  status: FitStatus;
  /** for 'diverged': which loss and where */
  message?: string;
  /** the transformer's report (values clipped per numeric column) */
  clipped: Record<string, number>;
}

export interface GanHistory {
  lossG: number[];
  lossD: number[];
  lossCond: number[];
  /** consistency mode: the per-epoch consistency term (BCE, before λ) of the last step */
  lossConsistency?: number[];
  /** consistency mode: how the surrogate fits its training pairs */
  surrogate?: SurrogateFit;
  /** with FitOptions.checkpoint: every quality check, in order */
  checkpoints?: CheckpointRecord[];
  /** with FitOptions.checkpoint: where training ended and which weights it kept */
  stop?: StopRecord;
}

/**
 * Stopping on a quality criterion instead of a fixed epoch count (issue #19): every `every` generator
 * steps (at the end of the epoch that reaches them) the caller scores the generator as it stands,
 * lower being better (an audit: the distance of generated rows to real rows held out from training).
 * Training stops once `patience` checks in a row have not improved on the best score by at least
 * `minDelta` of it, or at the epoch budget; the best checkpoint's weights are kept. The score must
 * draw from its own Rng: the training stream is untouched, so checks do not change the trajectory.
 */
export interface Checkpointing {
  /** generator steps between checks (rounded up to whole epochs) */
  every: number;
  score: (model: LucidGan) => number;
  patience: number;
  /** a check counts as progress (resets the patience) when its score is below the last such score · (1 − minDelta); the kept weights are those of the lowest score, whatever minDelta */
  minDelta: number;
  /** no stop before this many steps (Infinity: train to the budget, keep the best check) */
  minSteps?: number;
}

export interface CheckpointRecord {
  /** generator steps done */
  steps: number;
  score: number;
  /** wall seconds of training so far, the checks' own time left out */
  seconds: number;
  /** wall seconds of this check */
  checkSeconds: number;
}

export interface StopRecord {
  /** steps trained, and the steps of the weights kept (the best check) */
  steps: number;
  keptSteps: number;
  keptScore: number;
  /** diverged / interrupted: training ended otherwise, and the best check's weights (if any) were kept */
  reason: 'no improvement' | 'budget' | 'diverged' | 'interrupted';
}

export interface SampleOptions {
  n: number;
  /** per condition column: a constant, or one value per generated row (length n; length 1 is a constant) */
  conditions?: Record<string, number | ArrayLike<number>>;
  /** (column, label) pairs set together in one cond vector */
  fix?: [string, string][];
  /**
   * cond vector when nothing is fixed: 'zero' (the paper's), 'empirical' (true frequencies: a random
   * training row's category in a random discrete column) or 'rows' (the same from the rows of `rows`)
   */
  condVector?: 'zero' | 'empirical' | 'rows';
  /**
   * One training row (index) per generated row: the conditions not given are that row's, and with
   * condVector 'rows' so is the cond vector. E.g. the rows the audited model scores positive, so the
   * generator is conditioned as in training on rows of the side it samples.
   */
  rows?: ArrayLike<number>;
  seed?: number;
  /**
   * Per numeric column, the range generated values are clipped into (default: the training rows'
   * range, stored in the transformer). An audit gives the range of all the rows it audits.
   */
  range?: Record<string, readonly [number, number]>;
}

export interface SampleResult {
  /** decoded rows with the condition columns appended */
  table: Table;
  /** with fix: training rows holding every fixed value, and their share */
  fixTraining?: { rows: number; share: number; rare: boolean };
  /** with fix: share of generated rows holding every fixed value */
  fixSatisfied?: number;
  /** conditions not given, drawn from training rows (names) */
  drawnConditions: string[];
  /** per numeric column, values clipped into its range; and the rows holding any */
  clipped: Record<string, number>;
  rowsClipped: number;
}

/** A fixed combination is called rare when fewer than this many training rows hold it … */
export const RARE_ROWS = 20;
/** … or when they are less than this share of the training rows. */
export const RARE_SHARE = 0.01;

export class LucidGan {
  readonly G: Generator;
  readonly params: ParamSet;
  /** consistency mode: the fixed surrogate of the audited model and the condition's index */
  readonly surrogate: { net: Surrogate; params: ParamSet; index: number } | null;
  readonly consistency: ConsistencySpec;

  constructor(
    readonly engine: Engine,
    readonly transformer: DataTransformer,
    readonly sampler: CondSampler,
    /** names of the condition columns, in input order */
    readonly conditionNames: string[],
    /** (rows, conditions) row-major: the raw training conditions */
    readonly conditionValues: Float64Array,
    readonly config: GanConfig,
    readonly seed: number,
    readonly history: GanHistory,
    /** the weights to load, or the generator to initialise them from */
    init: Float32Array | Rng,
    consistency: ConsistencySpec = PAPER_MODE,
  ) {
    const inputDim = config.embedding + sampler.condDim + conditionNames.length;
    this.G = new Generator(inputDim, config.generatorDims, transformer.outputDim);
    this.params = buildParams(engine, this.G, init instanceof Rng ? init : new Rng(engine, 0));
    if (!(init instanceof Rng)) this.params.restore(init);
    this.consistency = consistency;
    if (consistency.mode === 'consistency') {
      const index = conditionNames.indexOf(consistency.condition ?? '');
      check(index >= 0 && consistency.weights !== null, 'E_INPUT', () => `gan: the consistency condition "${String(consistency.condition)}" is not a condition of the model`);
      const s = buildSurrogate(engine, transformer.outputDim, consistency.hidden, consistency.weights);
      freezeSurrogate(s.net);
      this.surrogate = { ...s, index };
    } else this.surrogate = null;
  }

  get epochsDone(): number {
    return this.history.lossG.length;
  }

  dispose(): void {
    this.params.dispose();
    this.surrogate?.params.dispose();
  }

  /** Trains a LUCID-GAN on `table` (async: it yields between steps when `shouldStop` is given, so signals get through). */
  static async fit(engine: Engine, table: Table, opts: FitOptions): Promise<FitResult> {
    const { model, x, rng, clipped } = LucidGan.setup(engine, table, opts);
    try {
      const status = await train(model, x, rng, opts);
      return { model, status: status.status, message: status.message, clipped };
    } catch (e) {
      model.dispose();
      throw e;
    }
  }

  /** Everything before the first step: the transformer fit, the transformed data, the sampler and the untrained model (for benches and custom loops with GanTrainer). */
  static setup(engine: Engine, table: Table, opts: FitOptions): { model: LucidGan; x: Float32Array; rng: Rng; clipped: Record<string, number> } {
    const cfg: GanConfig = { ...GAN_DEFAULTS };
    for (const k of Object.keys(GAN_DEFAULTS) as (keyof GanConfig)[]) if (opts[k] !== undefined) (cfg as unknown as Record<string, unknown>)[k] = opts[k];
    validateConfig(cfg);
    const seed = opts.seed ?? 0;
    const where = opts.where ?? 'data';
    const rng = new Rng(engine, seed);
    const { data, conditions, discrete } = prepare(table, opts.conditions, opts.discrete, where);
    check(data.rows > 0, 'E_INPUT', () => `${where}: no rows to train on`);
    const tOpts: TransformerOptions = { seed };
    if (opts.pointShare !== undefined) tOpts.pointShare = opts.pointShare;
    const transformer = DataTransformer.fit(engine, data, tOpts);
    const { data: x, report } = transformer.transform(engine, data, rng);
    const sampler = buildSampler(transformer, data, discrete);
    const history: GanHistory = { lossG: [], lossD: [], lossCond: [] };
    let spec = PAPER_MODE;
    const which = chooseConsistency(opts, conditions, data.rows, where);
    if (which) {
      const nc = conditions.names.length;
      const target = new Float32Array(data.rows);
      for (let i = 0; i < data.rows; i++) target[i] = conditions.values[i * nc + which.index];
      const s = fitSurrogate(engine, x, data.rows, transformer.outputDim, target, seed);
      spec = { mode: 'consistency', condition: which.name, weight: which.weight, hidden: s.hidden, weights: s.weights };
      history.lossConsistency = [];
      history.surrogate = s.fit;
    }
    const model = new LucidGan(engine, transformer, sampler, conditions.names, conditions.values, cfg, seed, history, rng, spec);
    return { model, x, rng, clipped: report.clipped };
  }

  /** Generates n rows: eval-mode batch norm, no graph, in batches. */
  sample(opts: SampleOptions): SampleResult {
    const { engine, sampler, config: cfg } = this;
    const n = opts.n;
    check(Number.isSafeInteger(n) && n > 0, 'E_ARG', () => `sample: n must be a positive integer, got ${n}`);
    const rng = new Rng(engine, opts.seed ?? 0);
    const nc = this.conditionNames.length;
    const given = opts.conditions ?? {};
    for (const k of Object.keys(given)) {
      check(this.conditionNames.includes(k), 'E_ARG', () => `sample: "${k}" is not a condition of this model; ${nc ? `its conditions are: ${this.conditionNames.join(', ')}` : 'it was trained without conditions'}`);
    }
    const condCols = this.conditionNames.map((name) => {
      const v = given[name];
      if (v === undefined) return null;
      const arr = typeof v === 'number' ? [v] : Array.from(v);
      check(arr.length === 1 || arr.length === n, 'E_ARG', () => `sample: condition "${name}" has ${arr.length} values; give one (a constant) or one per row (${n})`);
      arr.forEach((x, i) => check(Number.isFinite(x), 'E_ARG', () => `sample: condition "${name}" value ${i + 1} is ${x}, not a finite number`));
      return arr;
    });
    const drawn = this.conditionNames.filter((_, i) => condCols[i] === null);
    const mode = opts.condVector ?? 'zero';
    check(mode === 'zero' || mode === 'empirical' || mode === 'rows', 'E_ARG', () => `sample: condVector must be zero, empirical or rows, got ${String(mode)}`);
    const fromRows = opts.rows;
    check(mode !== 'rows' || fromRows !== undefined, 'E_ARG', () => 'sample: condVector rows needs the training rows (rows)');
    if (fromRows !== undefined) {
      check(fromRows.length === n, 'E_ARG', () => `sample: rows has ${fromRows.length} entries; give one training row per generated row (${n})`);
      for (let i = 0; i < n; i++) check(Number.isInteger(fromRows[i]) && fromRows[i] >= 0 && fromRows[i] < sampler.rows, 'E_ARG', () => `sample: rows[${i}] = ${fromRows[i]} is not a training row (0 … ${sampler.rows - 1})`);
      check(mode !== 'empirical', 'E_ARG', () => 'sample: condVector empirical draws its own rows; use rows with condVector zero or rows');
    }
    const fix = sampler.resolveFix(opts.fix ?? []);
    check(!(fix.length > 0 && mode !== 'zero'), 'E_ARG', () => `sample: fixed categories set the cond vector; --cond-vector ${mode} applies only when nothing is fixed`);
    const fixed = fix.length ? sampler.fixedCond(fix) : null;
    const matching = fix.length ? sampler.matchingRows(fix) : null;
    const cd = sampler.condDim;
    const d = this.transformer.outputDim;
    const out = new Float32Array(n * d);
    const condOut = this.conditionNames.map(() => new Float64Array(n));
    const spans = this.transformer.spans;
    const batch = Math.min(n, cfg.batch);
    this.G.eval();
    try {
      for (let start = 0; start < n; start += batch) {
        const b = Math.min(batch, n - start);
        engine.scope(() => engine.noGrad(() => {
          const z = rng.normal([b, cfg.embedding]);
          // cond vector and, for conditions not given, the training rows they are drawn from
          const cond = new Float32Array(b * cd);
          let rows: Int32Array | null = fromRows ? Int32Array.from({ length: b }, (_, i) => fromRows[start + i]) : null;
          if (fixed) {
            for (let i = 0; i < b; i++) cond.set(fixed, i * cd);
            if (drawn.length && !rows) {
              const u = rng.uniformHost(b);
              const pool = matching!.length > 0 ? matching! : null;
              rows = pool ? Int32Array.from(u, (x) => pool[Math.min(pool.length - 1, Math.floor(x * pool.length))]) : sampler.sampleAnyRows(b, u);
            }
          } else if (mode === 'empirical') {
            const e = sampler.sampleEmpirical(b, rng.uniformHost(2 * b));
            cond.set(e.cond);
            rows = e.row;
          } else if (mode === 'rows') cond.set(sampler.condOfRows(rows!, rng.uniformHost(b)).cond);
          else if (drawn.length && !rows) rows = sampler.sampleAnyRows(b, rng.uniformHost(b));
          const raw = new Float32Array(b * nc);
          for (let i = 0; i < b; i++) {
            for (let j = 0; j < nc; j++) {
              const given = condCols[j];
              const v = given ? given[given.length === 1 ? 0 : start + i] : this.conditionValues[rows![i] * nc + j];
              raw[i * nc + j] = v;
              condOut[j][start + i] = v;
            }
          }
          const parts = [z];
          if (cd > 0) parts.push(engine.tensor(cond, [b, cd]));
          if (nc > 0) parts.push(engine.tensor(raw, [b, nc]));
          const input = parts.length === 1 ? z : o.concat(parts, 1);
          const fake = applyActivation(this.G.forward(input), spans, rng, cfg.tau);
          out.set(fake.data, start * d);
        }));
      }
    } finally {
      this.G.train();
    }
    const report: InverseReport = { clipped: {}, rowsClipped: 0 };
    const decoded = this.transformer.inverse(out, n, { range: opts.range, report });
    // Restore the discrete columns' labels (numeric columns made discrete come back as their labels).
    const columns: Column[] = [...decoded.columns];
    this.conditionNames.forEach((name, j) => columns.push({ kind: 'numeric', name, values: condOut[j] }));
    const result: SampleResult = { table: { rows: n, columns }, drawnConditions: drawn, clipped: report.clipped, rowsClipped: report.rowsClipped };
    if (fix.length) {
      const rowsHolding = matching!.length;
      const share = rowsHolding / sampler.rows;
      result.fixTraining = { rows: rowsHolding, share, rare: rowsHolding < RARE_ROWS || share < RARE_SHARE };
      let ok = 0;
      const cols = fix.map((f) => {
        const name = sampler.columns[f.column].name;
        const col = decoded.columns.find((x) => x.name === name)!;
        const label = sampler.columns[f.column].categories[f.category];
        return col.kind === 'categorical' ? { codes: col.codes, code: col.categories.indexOf(label) } : { codes: new Int32Array(n), code: -1 };
      });
      for (let i = 0; i < n; i++) if (cols.every((c) => c.codes[i] === c.code)) ok++;
      result.fixSatisfied = ok / n;
    }
    return result;
  }
}

/** The condition the consistency term uses (null: the paper's mode, or no condition in [0, 1] when none was named). */
function chooseConsistency(opts: FitOptions, conditions: { names: string[]; values: Float64Array }, rows: number, where: string): { name: string; index: number; weight: number } | null {
  const weight = opts.consistencyWeight ?? CONSISTENCY_WEIGHT;
  if (opts.paper) {
    check(opts.consistency === undefined && opts.consistencyWeight === undefined, 'E_ARG', () => 'gan: --paper trains without the consistency term; drop --consistency and --consistency-weight');
    return null;
  }
  check(Number.isFinite(weight) && weight >= 0, 'E_ARG', () => `gan: the consistency weight must be a number ≥ 0, got ${weight}`);
  const nc = conditions.names.length;
  const inUnit = (j: number) => {
    for (let i = 0; i < rows; i++) {
      const v = conditions.values[i * nc + j];
      if (!(v >= 0 && v <= 1)) return false;
    }
    return true;
  };
  if (opts.consistency !== undefined) {
    const j = conditions.names.indexOf(opts.consistency);
    check(j >= 0, 'E_ARG', () => `${where}: the consistency condition "${opts.consistency}" is not a condition; the conditions are: ${conditions.names.join(', ') || 'none'}`);
    check(inUnit(j), 'E_ARG', () => `${where}: the consistency condition "${opts.consistency}" has values outside [0, 1]; it must be a probability (e.g. the model's P(positive)), or train with --paper`);
    return weight > 0 ? { name: opts.consistency, index: j, weight } : null;
  }
  if (weight === 0) return null;
  for (let j = 0; j < nc; j++) if (inUnit(j)) return { name: conditions.names[j], index: j, weight };
  return null;
}

function validateConfig(c: GanConfig): void {
  const posInt = (v: number) => Number.isSafeInteger(v) && v > 0;
  check(posInt(c.embedding), 'E_ARG', () => `gan: embedding must be a positive integer, got ${c.embedding}`);
  check(c.generatorDims.every(posInt) && c.discriminatorDims.every(posInt), 'E_ARG', () => 'gan: layer sizes must be positive integers');
  check(posInt(c.pac), 'E_ARG', () => `gan: pac must be a positive integer, got ${c.pac}`);
  check(posInt(c.batch) && c.batch % c.pac === 0, 'E_ARG', () => `gan: batch must be a positive multiple of pac = ${c.pac}, got ${c.batch}`);
  check(Number.isSafeInteger(c.epochs) && c.epochs >= 0, 'E_ARG', () => `gan: epochs must be a non-negative integer, got ${c.epochs}`);
  check(c.lr > 0 && c.tau > 0 && c.penaltyLambda >= 0 && c.weightDecay >= 0, 'E_ARG', () => 'gan: lr and tau must be > 0, penaltyLambda and weightDecay ≥ 0');
}

/** Splits the table into the modelled data (discrete columns made categorical) and the raw conditions. */
function prepare(table: Table, conditionNames: string[], discreteNames: string[] | undefined, where: string): {
  data: Table;
  conditions: { names: string[]; values: Float64Array };
  discrete: Set<string>;
} {
  const names = table.columns.map((c) => c.name);
  const find = (name: string, what: string) => {
    const col = table.columns.find((c) => c.name === name);
    if (!col) throw unknownColumn(name, names, where, what);
    return col;
  };
  check(new Set(conditionNames).size === conditionNames.length, 'E_ARG', () => `${where}: a condition column is given twice`);
  const condCols = conditionNames.map((name) => {
    const col = find(name, 'condition');
    check(col.kind === 'numeric', 'E_ARG', () => `${where}: condition "${name}" must be a numeric column (e.g. the model's P(positive)); it holds labels`);
    for (let i = 0; i < table.rows; i++) check(Number.isFinite(col.values[i]), 'E_INPUT', () => `${where}: condition "${name}" has no number at row ${i + 1}`);
    return col;
  });
  const nc = condCols.length;
  const values = new Float64Array(table.rows * nc);
  condCols.forEach((col, j) => {
    if (col.kind === 'numeric') for (let i = 0; i < table.rows; i++) values[i * nc + j] = col.values[i];
  });
  const discrete = new Set(discreteNames ?? table.columns.filter((c) => c.kind === 'categorical' && !conditionNames.includes(c.name)).map((c) => c.name));
  for (const name of discrete) {
    find(name, 'discrete column');
    check(!conditionNames.includes(name), 'E_ARG', () => `${where}: "${name}" cannot be both a condition and a discrete column`);
  }
  const columns = table.columns.filter((c) => !conditionNames.includes(c.name)).map((c) => (discrete.has(c.name) && c.kind === 'numeric' ? asCategorical(c) : c));
  check(columns.length > 0, 'E_INPUT', () => `${where}: no columns left to model besides the conditions`);
  return { data: { rows: table.rows, columns }, conditions: { names: conditionNames.slice(), values }, discrete };
}

/** A numeric column as labels (its values' shortest decimal forms, in numeric order). */
function asCategorical(col: Column & { kind: 'numeric' }): Column {
  const distinct = Array.from(new Set(col.values)).sort((a, b) => a - b);
  const index = new Map(distinct.map((v, i) => [v, i]));
  return { kind: 'categorical', name: col.name, categories: distinct.map((v) => String(v)), codes: Int32Array.from(col.values, (v) => (Number.isNaN(v) ? -1 : index.get(v)!)) };
}

function buildSampler(transformer: DataTransformer, data: Table, discrete: Set<string>): CondSampler {
  const cols: DiscreteColumn[] = [];
  let at = 0;
  for (const info of transformer.columns) {
    if (info.kind === 'numeric') at += columnWidth(info);
    else if (info.kind === 'categorical') {
      if (discrete.has(info.name)) {
        const col = data.columns.find((c) => c.name === info.name)!;
        if (col.kind !== 'categorical') throw new EngineError('E_INPUT', `gan: column "${info.name}" changed kind`);
        const lut = col.categories.map((l) => info.categories.indexOf(l));
        cols.push({ name: info.name, categories: info.categories.slice(), codes: Int32Array.from(col.codes, (k) => lut[k]), dataOffset: at });
      }
      at += info.categories.length;
    }
  }
  return new CondSampler(cols, data.rows);
}

const isFiniteAll = (...xs: number[]) => xs.every(Number.isFinite);

/** Consistency mode: probe rows per generator step, as a share of the batch. */
export const PROBE_SHARE = 0.5;

export interface StepLosses {
  lossD: number;
  penalty: number;
  lossG: number;
  lossCond: number;
  /** consistency mode: the consistency term (BCE, before λ) */
  lossConsistency?: number;
}

/**
 * One model's training state: the critic, both optimizers and the transformed data. `step()` runs
 * one critic step and one generator step (the bench times epochs of it).
 */
export class GanTrainer {
  readonly D: Discriminator;
  readonly steps: number;
  private readonly dParams: ParamSet;
  private readonly optG: Adam;
  private readonly optD: Adam;
  private readonly discreteCols: { data: number; cond: number; width: number }[];

  constructor(readonly model: LucidGan, readonly x: Float32Array, readonly rng: Rng) {
    const { engine, sampler, config: cfg } = model;
    const d = model.transformer.outputDim;
    this.D = new Discriminator(d + sampler.condDim + model.conditionNames.length, cfg.discriminatorDims, cfg.pac);
    this.dParams = buildParams(engine, this.D, rng);
    const adam = { lr: cfg.lr, betas: cfg.betas, weightDecay: cfg.weightDecay };
    this.optG = new Adam(model.params.trainable, adam);
    this.optD = new Adam(this.dParams.trainable, adam);
    this.discreteCols = sampler.columns.map((c, j) => ({ data: c.dataOffset, cond: sampler.condOffset[j], width: c.categories.length }));
    this.steps = Math.max(Math.floor(sampler.rows / cfg.batch), 1);
  }

  dispose(): void {
    this.optG.dispose();
    this.optD.dispose();
    this.dParams.dispose();
  }

  private rowsOf(idx: Int32Array): Float32Array {
    const d = this.model.transformer.outputDim;
    const out = new Float32Array(idx.length * d);
    for (let i = 0; i < idx.length; i++) out.set(this.x.subarray(idx[i] * d, idx[i] * d + d), i * d);
    return out;
  }

  private condsOf(idx: Int32Array): Float32Array {
    const nc = this.model.conditionNames.length;
    const raw = this.model.conditionValues;
    const out = new Float32Array(idx.length * nc);
    for (let i = 0; i < idx.length; i++) for (let j = 0; j < nc; j++) out[i * nc + j] = raw[idx[i] * nc + j];
    return out;
  }

  /** Σ over discrete columns of the cross-entropy of the picked column's logits, per row, / B (CTGAN's). */
  private condLoss(raw: Tensor, cond: Tensor): Tensor {
    let total: Tensor | null = null;
    for (const c of this.discreteCols) {
      const ce = o.crossEntropy(o.sliceCols(raw, c.data, c.data + c.width), o.sliceCols(cond, c.cond, c.cond + c.width), 'sum');
      total = total ? o.add(total, ce) : ce;
    }
    return o.div(total!, raw.shape[0]);
  }

  /**
   * Consistency mode: PROBE_SHARE·B extra generator rows whose consistency condition is 0 or 1 with
   * equal odds (training rows rarely hold the extremes canonical sets are drawn at; on Adult this
   * beat conditions drawn uniformly from [0, 1]), half
   * with a zero cond vector (the paper's default for canonical sets), half with a training draw;
   * other conditions come from training rows.
   */
  private probe(): { input: Tensor; target: Tensor } {
    const { model, rng } = this;
    const { engine, sampler, config: cfg } = model;
    const s = model.surrogate!;
    const n = Math.max(2, Math.round(cfg.batch * PROBE_SHARE));
    const cd = sampler.condDim;
    const nc = model.conditionNames.length;
    const z = rng.normal([n, cfg.embedding]);
    const cond = new Float32Array(n * cd);
    const half = n >> 1;
    if (sampler.discreteCount > 0) cond.set(sampler.sampleTraining(n - half, rng.uniformHost(2 * (n - half))).cond, half * cd);
    const raw = this.condsOf(sampler.sampleAnyRows(n, rng.uniformHost(n)));
    const u = rng.uniformHost(n);
    const target = new Float32Array(n);
    for (let i = 0; i < n; i++) raw[i * nc + s.index] = target[i] = u[i] < 0.5 ? 0 : 1;
    return { input: cat(z, cd > 0 ? engine.tensor(cond, [n, cd]) : null, engine.tensor(raw, [n, nc])), target: engine.tensor(target, [n, 1]) };
  }

  /** One critic step and one generator step. A non-finite loss skips the update it belongs to. */
  step(): StepLosses {
    const { model, rng, D } = this;
    const { engine, sampler, config: cfg, G } = model;
    const d = model.transformer.outputDim;
    const cd = sampler.condDim;
    const nc = model.conditionNames.length;
    const B = cfg.batch;
    const spans = model.transformer.spans;
    // ---- critic step
    const dLoss = engine.scope(() => {
      const z = rng.normal([B, cfg.embedding]);
      let c1: Tensor | null = null, c2: Tensor | null = null;
      let realIdx: Int32Array;
      let fakeCond: Float32Array;
      if (sampler.discreteCount > 0) {
        const draw = sampler.sampleTraining(B, rng.uniformHost(2 * B));
        const rows = sampler.sampleRows(draw.column, draw.category, rng.uniformHost(B));
        const perm = rng.permutation(B);
        const cond2 = new Float32Array(B * cd);
        realIdx = new Int32Array(B);
        for (let i = 0; i < B; i++) {
          cond2.set(draw.cond.subarray(perm[i] * cd, perm[i] * cd + cd), i * cd);
          realIdx[i] = rows[perm[i]];
        }
        c1 = engine.tensor(draw.cond, [B, cd]);
        c2 = engine.tensor(cond2, [B, cd]);
        fakeCond = this.condsOf(rows); // the conditions of the rows matching c1, un-permuted
      } else {
        realIdx = sampler.sampleAnyRows(B, rng.uniformHost(B));
        const perm = rng.permutation(B);
        fakeCond = this.condsOf(Int32Array.from(perm, (p) => realIdx[p]));
      }
      const pFake = nc ? engine.tensor(fakeCond, [B, nc]) : null;
      const pReal = nc ? engine.tensor(this.condsOf(realIdx), [B, nc]) : null;
      const fake = engine.noGrad(() => applyActivation(G.forward(cat(z, c1, pFake)), spans, rng, cfg.tau));
      const fakeCat = cat(fake, c1, pFake);
      const realCat = cat(engine.tensor(this.rowsOf(realIdx), [B, d]), c2, pReal);
      const yFake = D.forward(fakeCat, rng);
      const yReal = D.forward(realCat, rng);
      const wd = o.neg(o.sub(o.mean(yReal), o.mean(yFake)));
      const penalty = gradientPenalty(D, realCat, fakeCat, rng, cfg.penaltyLambda);
      const total = o.add(wd, penalty);
      const lossD = wd.item();
      const pen = penalty.item();
      if (isFiniteAll(lossD, pen)) this.optD.step(grad(total, this.dParams.trainable));
      return { lossD, pen };
    });
    if (!isFiniteAll(dLoss.lossD, dLoss.pen)) return { lossD: dLoss.lossD, penalty: dLoss.pen, lossG: NaN, lossCond: NaN };
    // ---- generator step
    const gLoss = engine.scope(() => {
      const z = rng.normal([B, cfg.embedding]);
      let c1: Tensor | null = null;
      let rows: Int32Array;
      if (sampler.discreteCount > 0) {
        const draw = sampler.sampleTraining(B, rng.uniformHost(2 * B));
        rows = sampler.sampleRows(draw.column, draw.category, rng.uniformHost(B));
        c1 = engine.tensor(draw.cond, [B, cd]);
      } else rows = sampler.sampleAnyRows(B, rng.uniformHost(B));
      const p = nc ? engine.tensor(this.condsOf(rows), [B, nc]) : null;
      const s = model.surrogate;
      const probe = s ? this.probe() : null;
      // consistency mode: the probe rows run through the generator with the batch, then only the consistency term sees them
      const rawAll = G.forward(probe ? o.concat([cat(z, c1, p), probe.input], 0) : cat(z, c1, p));
      const fakeAll = applyActivation(rawAll, spans, rng, cfg.tau);
      const raw = probe ? o.sliceRows(rawAll, 0, B) : rawAll;
      const fake = probe ? o.sliceRows(fakeAll, 0, B) : fakeAll;
      const y = D.forward(cat(fake, c1, p), rng);
      const adv = o.neg(o.mean(y));
      const ce = c1 ? this.condLoss(raw, c1) : null;
      let total = ce ? o.add(adv, ce) : adv;
      let lossConsistency: number | undefined;
      if (s) {
        // λ·BCE(sigmoid(s(fake)), c): the fixed surrogate's score of each generated row against its condition
        const c = o.concat([o.sliceCols(p!, s.index, s.index + 1), probe!.target], 0);
        const term = o.bceWithLogits(s.net.forward(fakeAll), c);
        lossConsistency = term.item();
        total = o.add(total, o.mul(term, model.consistency.weight));
      }
      const lossG = total.item();
      const lossCond = ce ? ce.item() : 0;
      if (isFiniteAll(lossG, lossCond)) this.optG.step(grad(total, model.params.trainable));
      return { lossG, lossCond, lossConsistency };
    });
    return { lossD: dLoss.lossD, penalty: dLoss.pen, ...gLoss };
  }
}

/** [a | cond | raw] with empty parts left out */
function cat(a: Tensor, cond: Tensor | null, raw: Tensor | null): Tensor {
  const parts = [a];
  if (cond) parts.push(cond);
  if (raw) parts.push(raw);
  return parts.length === 1 ? a : o.concat(parts, 1);
}

async function train(model: LucidGan, x: Float32Array, rng: Rng, opts: FitOptions): Promise<{ status: FitStatus; message?: string }> {
  const trainer = new GanTrainer(model, x, rng);
  const steps = trainer.steps;
  let good = model.params.snapshot();
  const yieldNow = opts.shouldStop ? () => new Promise<void>((r) => setTimeout(r, 0)) : null;
  const push = (l: StepLosses) => {
    model.history.lossG.push(l.lossG);
    model.history.lossD.push(l.lossD);
    model.history.lossCond.push(l.lossCond);
    if (model.history.lossConsistency) model.history.lossConsistency.push(l.lossConsistency ?? NaN);
  };
  const cp = opts.checkpoint;
  if (cp) {
    check(Number.isSafeInteger(cp.every) && cp.every > 0, 'E_ARG', () => `gan: checkpoint.every must be a positive integer, got ${cp.every}`);
    check(Number.isSafeInteger(cp.patience) && cp.patience > 0, 'E_ARG', () => `gan: checkpoint.patience must be a positive integer, got ${cp.patience}`);
    check(cp.minDelta >= 0 && cp.minDelta < 1, 'E_ARG', () => `gan: checkpoint.minDelta must be in [0, 1), got ${cp.minDelta}`);
    model.history.checkpoints = [];
  }
  check(cp?.minSteps === undefined || cp.minSteps >= 0, 'E_ARG', () => `gan: checkpoint.minSteps must be a non-negative number, got ${cp!.minSteps}`);
  /** the lowest finite score so far and its weights (kept at the end) */
  let best: { score: number; steps: number; weights: Float32Array } | null = null;
  /** the score of the last check that counted as progress (patience is measured from it) */
  let progressScore = Infinity;
  let waits = 0;
  let stepsDone = 0;
  let nextCheck = cp ? cp.every : Infinity;
  let trainSeconds = 0;
  const bestSteps = (): number | null => (cp && best ? best.steps : null);
  /** ends a checkpointed run: the best check's weights back in the model (when there is one), and the record */
  const finish = (reason: StopRecord['reason'], current: { score: number; steps: number } | null): void => {
    if (!cp) return;
    if (best && best.steps !== stepsDone) model.params.restore(best.weights);
    const kept = best ?? current ?? { score: NaN, steps: stepsDone };
    model.history.stop = { steps: stepsDone, keptSteps: kept.steps, keptScore: kept.score, reason };
  };
  /** the check after an epoch; true: stop */
  const checkpoint = (weights: Float32Array, last: boolean): boolean => {
    const t = performance.now();
    const score = cp!.score(model);
    const checkSeconds = (performance.now() - t) / 1000;
    model.history.checkpoints!.push({ steps: stepsDone, score, seconds: trainSeconds, checkSeconds });
    nextCheck = stepsDone + cp!.every;
    // a score that cannot be computed (NaN) is no evidence either way: it neither resets nor uses up the patience
    if (Number.isFinite(score)) {
      if (best === null || score < best.score) best = { score, steps: stepsDone, weights };
      if (score < progressScore * (1 - cp!.minDelta)) {
        progressScore = score;
        waits = 0;
      } else waits++;
    }
    const stop = waits >= cp!.patience && stepsDone >= (cp!.minSteps ?? 0);
    if (stop || last) finish(stop ? 'no improvement' : 'budget', { score, steps: stepsDone });
    return stop;
  };
  try {
    for (let epoch = 1; epoch <= model.config.epochs; epoch++) {
      const t0 = performance.now();
      let last: StepLosses | null = null;
      for (let step = 0; step < steps; step++) {
        const l = trainer.step();
        const bad = !isFiniteAll(l.lossD, l.penalty) ? `loss_d is ${isFiniteAll(l.lossD) ? `finite but the gradient penalty is ${l.penalty}` : l.lossD}` : !isFiniteAll(l.lossG) ? `loss_g is ${l.lossG}` : !isFiniteAll(l.lossCond) ? `loss_cond is ${l.lossCond}` : null;
        if (bad) {
          model.params.restore(good);
          finish('diverged', null);
          return { status: 'diverged', message: `training diverged at epoch ${epoch}, step ${step + 1}: ${bad}; kept the weights of ${bestSteps() !== null ? `the best check (step ${bestSteps()})` : `the last completed epoch (${epoch - 1})`}` };
        }
        last = l;
        if (yieldNow) {
          await yieldNow();
          if (opts.shouldStop!()) {
            push(l);
            finish('interrupted', null);
            return { status: 'interrupted', message: `interrupted at epoch ${epoch}, step ${step + 1} of ${steps}` };
          }
        }
      }
      const w = model.params.snapshot();
      if (!w.every(Number.isFinite)) {
        model.params.restore(good);
        finish('diverged', null);
        return { status: 'diverged', message: `training diverged at epoch ${epoch}: a generator weight is not finite; kept the weights of ${bestSteps() !== null ? `the best check (step ${bestSteps()})` : `epoch ${epoch - 1}`}` };
      }
      good = w;
      // CTGAN reports the last step's losses of each epoch.
      push(last!);
      const seconds = (performance.now() - t0) / 1000;
      stepsDone += steps;
      trainSeconds += seconds;
      opts.onEpoch?.({ epoch, lossG: last!.lossG, lossD: last!.lossD, lossCond: last!.lossCond, seconds });
      const lastEpoch = epoch === model.config.epochs;
      if (cp && (stepsDone >= nextCheck || lastEpoch) && checkpoint(w, lastEpoch)) break;
    }
    return { status: 'done' };
  } finally {
    trainer.dispose();
  }
}

