// LUCID-GAN (LUCID-GAN §3): CTGAN conditioned on the audited model's prediction. This
// file is the model: setting it up for a table (the transformer fit, the sampler, the surrogate),
// sampling, and LucidGan.fit, which hands the training to the trainer (train.ts: the critic, the
// optimizers, the losses and the epoch loop). Settings and training records are in config.ts.
//
// The condition columns (e.g. `preds`) are taken out of the data before the transformer and fed
// raw to both networks: generator input [z | cond vector | raw conditions], critic input
// [row | cond vector | raw conditions] (PacGAN). The reference's bugs are fixed: cond-vector offsets
// are per column, sampling runs the generator in eval mode (batch norm on running statistics)
// without a graph, any number of condition rows works, and categories can be fixed without giving a
// condition value.
//
// Default mode, prediction consistency (surrogate.ts): a fixed surrogate s of the audited model,
// fitted on (transformed row, condition) pairs before training, adds λ·BCE(sigmoid(s(fake)), c) to
// the generator loss, over the batch and a set of probe rows conditioned at 0 or 1. `paper: true`
// trains as published (no surrogate, no probe rows; the same draws as before the mode existed).
//
// Core code: no Node imports. Every draw comes from one Rng, so the same seed and data give the
// same weights bit for bit (per kernel build).
import type { Engine } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import * as o from '../../autograd/ops/index.js';
import { buildParams, type ParamSet } from '../../nn/module.js';
import { columnWidth, DataTransformer, type InverseReport, type TransformerOptions } from '../ctgan/transformer.js';
import { unknownColumn, type Column, type Table } from '../../data/table.js';
import { applyActivation, Generator } from '../ctgan/networks.js';
import { CondSampler, type DiscreteColumn } from './sampler.js';
import { buildSurrogate, fitSurrogate, freezeSurrogate, type Surrogate } from './surrogate.js';
import type {
  Checkpointing as CheckpointingOf,
  ConsistencySpec,
  FitStatus,
  GanConfig,
  GanEpoch,
  GanHistory,
} from './config.js';
import { CONSISTENCY_WEIGHT, GAN_DEFAULTS, PAPER_MODE } from './config.js';
import { train } from './train.js';

export { CONSISTENCY_WEIGHT, GAN_DEFAULTS, PAPER_MODE } from './config.js';
export type {
  CheckpointRecord,
  ConsistencySpec,
  FitStatus,
  GanConfig,
  GanEpoch,
  GanHistory,
  StopRecord,
} from './config.js';
/** Checkpointed stopping of a LucidGan fit (config.ts). */
export type Checkpointing = CheckpointingOf<LucidGan>;

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
  /**
   * numeric values held by at least this share of the rows become point masses (TransformerOptions.pointShare; 0: none)
   */
  pointShare?: number;
  /** stop on a quality criterion (see Checkpointing); `epochs` is then the budget */
  checkpoint?: Checkpointing;
}

export interface FitResult {
  model: LucidGan;
  status: FitStatus;
  /** for 'diverged': which loss and where */
  message?: string;
  /** the transformer's report (values clipped per numeric column) */
  clipped: Record<string, number>;
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
      check(
        index >= 0 && consistency.weights !== null,
        'E_INPUT',
        () => `gan: the consistency condition "${String(consistency.condition)}" is not a condition of the model`,
      );
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

  /**
   * Trains a LUCID-GAN on `table` (async: when `shouldStop` is given it is read every step, and training yields to the
   * event loop every YIELD_EVERY_MS, so signals get through).
   */
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

  /**
   * Everything before the first step: the transformer fit, the transformed data, the sampler and the untrained model
   * (for benches and custom loops with GanTrainer).
   */
  static setup(
    engine: Engine,
    table: Table,
    opts: FitOptions,
  ): { model: LucidGan; x: Float32Array; rng: Rng; clipped: Record<string, number> } {
    const cfg: GanConfig = { ...GAN_DEFAULTS };
    for (const k of Object.keys(GAN_DEFAULTS) as (keyof GanConfig)[])
      if (opts[k] !== undefined) (cfg as unknown as Record<string, unknown>)[k] = opts[k];
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
    const model = new LucidGan(
      engine,
      transformer,
      sampler,
      conditions.names,
      conditions.values,
      cfg,
      seed,
      history,
      rng,
      spec,
    );
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
      check(
        this.conditionNames.includes(k),
        'E_ARG',
        () =>
          `sample: "${k}" is not a condition of this model; ${
            nc ? `its conditions are: ${this.conditionNames.join(', ')}` : 'it was trained without conditions'
          }`,
      );
    }
    const condCols = this.conditionNames.map((name) => {
      const v = given[name];
      if (v === undefined) return null;
      const arr = typeof v === 'number' ? [v] : Array.from(v);
      check(
        arr.length === 1 || arr.length === n,
        'E_ARG',
        () => `sample: condition "${name}" has ${arr.length} values; give one (a constant) or one per row (${n})`,
      );
      arr.forEach((x, i) =>
        check(
          Number.isFinite(x),
          'E_ARG',
          () => `sample: condition "${name}" value ${i + 1} is ${x}, not a finite number`,
        ),
      );
      return arr;
    });
    const drawn = this.conditionNames.filter((_, i) => condCols[i] === null);
    const mode = opts.condVector ?? 'zero';
    check(
      mode === 'zero' || mode === 'empirical' || mode === 'rows',
      'E_ARG',
      () => `sample: condVector must be zero, empirical or rows, got ${String(mode)}`,
    );
    const fromRows = opts.rows;
    check(
      mode !== 'rows' || fromRows !== undefined,
      'E_ARG',
      () => 'sample: condVector rows needs the training rows (rows)',
    );
    if (fromRows !== undefined) {
      check(
        fromRows.length === n,
        'E_ARG',
        () => `sample: rows has ${fromRows.length} entries; give one training row per generated row (${n})`,
      );
      for (let i = 0; i < n; i++)
        check(
          Number.isInteger(fromRows[i]) && fromRows[i] >= 0 && fromRows[i] < sampler.rows,
          'E_ARG',
          () => `sample: rows[${i}] = ${fromRows[i]} is not a training row (0 … ${sampler.rows - 1})`,
        );
      check(
        mode !== 'empirical',
        'E_ARG',
        () => 'sample: condVector empirical draws its own rows; use rows with condVector zero or rows',
      );
    }
    const fix = sampler.resolveFix(opts.fix ?? []);
    check(
      !(fix.length > 0 && mode !== 'zero'),
      'E_ARG',
      () => `sample: fixed categories set the cond vector; --cond-vector ${mode} applies only when nothing is fixed`,
    );
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
        engine.scope(() =>
          engine.noGrad(() => {
            const z = rng.normal([b, cfg.embedding]);
            // cond vector and, for conditions not given, the training rows they are drawn from
            const cond = new Float32Array(b * cd);
            let rows: Int32Array | null = fromRows
              ? Int32Array.from({ length: b }, (_, i) => fromRows[start + i])
              : null;
            if (fixed) {
              for (let i = 0; i < b; i++) cond.set(fixed, i * cd);
              if (drawn.length && !rows) {
                const u = rng.uniformHost(b);
                const pool = matching!.length > 0 ? matching! : null;
                rows = pool
                  ? Int32Array.from(u, (x) => pool[Math.min(pool.length - 1, Math.floor(x * pool.length))])
                  : sampler.sampleAnyRows(b, u);
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
          }),
        );
      }
    } finally {
      this.G.train();
    }
    const report: InverseReport = { clipped: {}, rowsClipped: 0 };
    const decoded = this.transformer.inverse(out, n, { range: opts.range, report });
    // Restore the discrete columns' labels (numeric columns made discrete come back as their labels).
    const columns: Column[] = [...decoded.columns];
    this.conditionNames.forEach((name, j) => columns.push({ kind: 'numeric', name, values: condOut[j] }));
    const result: SampleResult = {
      table: { rows: n, columns },
      drawnConditions: drawn,
      clipped: report.clipped,
      rowsClipped: report.rowsClipped,
    };
    if (fix.length) {
      const rowsHolding = matching!.length;
      const share = rowsHolding / sampler.rows;
      result.fixTraining = { rows: rowsHolding, share, rare: rowsHolding < RARE_ROWS || share < RARE_SHARE };
      let ok = 0;
      const cols = fix.map((f) => {
        const name = sampler.columns[f.column].name;
        const col = decoded.columns.find((x) => x.name === name)!;
        const label = sampler.columns[f.column].categories[f.category];
        return col.kind === 'categorical'
          ? { codes: col.codes, code: col.categories.indexOf(label) }
          : { codes: new Int32Array(n), code: -1 };
      });
      for (let i = 0; i < n; i++) if (cols.every((c) => c.codes[i] === c.code)) ok++;
      result.fixSatisfied = ok / n;
    }
    return result;
  }
}

/** The condition the consistency term uses (null: the paper's mode, or no condition in [0, 1] when none was named). */
function chooseConsistency(
  opts: FitOptions,
  conditions: { names: string[]; values: Float64Array },
  rows: number,
  where: string,
): { name: string; index: number; weight: number } | null {
  const weight = opts.consistencyWeight ?? CONSISTENCY_WEIGHT;
  if (opts.paper) {
    check(
      opts.consistency === undefined && opts.consistencyWeight === undefined,
      'E_ARG',
      () => 'gan: --paper trains without the consistency term; drop --consistency and --consistency-weight',
    );
    return null;
  }
  check(
    Number.isFinite(weight) && weight >= 0,
    'E_ARG',
    () => `gan: the consistency weight must be a number ≥ 0, got ${weight}`,
  );
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
    check(
      j >= 0,
      'E_ARG',
      () =>
        `${where}: the consistency condition "${opts.consistency}" is not a condition; the conditions are: ` +
        `${conditions.names.join(', ') || 'none'}`,
    );
    check(
      inUnit(j),
      'E_ARG',
      () =>
        `${where}: the consistency condition "${opts.consistency}" has values outside [0, 1]; it must be a ` +
        `probability (e.g. the model's P(positive)), or train with --paper`,
    );
    return weight > 0 ? { name: opts.consistency, index: j, weight } : null;
  }
  if (weight === 0) return null;
  for (let j = 0; j < nc; j++) if (inUnit(j)) return { name: conditions.names[j], index: j, weight };
  return null;
}

/** A GAN's batch: a positive multiple of its pac. */
export function checkGanBatch(batch: number, pac: number): void {
  check(
    Number.isSafeInteger(batch) && batch > 0 && batch % pac === 0,
    'E_ARG',
    () => `gan: batch must be a positive multiple of pac = ${pac}, got ${batch}`,
  );
}

/** A GAN's epochs: a non-negative integer. */
export function checkGanEpochs(epochs: number): void {
  check(
    Number.isSafeInteger(epochs) && epochs >= 0,
    'E_ARG',
    () => `gan: epochs must be a non-negative integer, got ${epochs}`,
  );
}

function validateConfig(c: GanConfig): void {
  const posInt = (v: number) => Number.isSafeInteger(v) && v > 0;
  check(posInt(c.embedding), 'E_ARG', () => `gan: embedding must be a positive integer, got ${c.embedding}`);
  check(
    c.generatorDims.every(posInt) && c.discriminatorDims.every(posInt),
    'E_ARG',
    () => 'gan: layer sizes must be positive integers',
  );
  check(posInt(c.pac), 'E_ARG', () => `gan: pac must be a positive integer, got ${c.pac}`);
  checkGanBatch(c.batch, c.pac);
  checkGanEpochs(c.epochs);
  check(
    c.lr > 0 && c.tau > 0 && c.penaltyLambda >= 0 && c.weightDecay >= 0,
    'E_ARG',
    () => 'gan: lr and tau must be > 0, penaltyLambda and weightDecay ≥ 0',
  );
}

/** Splits the table into the modelled data (discrete columns made categorical) and the raw conditions. */
function prepare(
  table: Table,
  conditionNames: string[],
  discreteNames: string[] | undefined,
  where: string,
): {
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
  check(
    new Set(conditionNames).size === conditionNames.length,
    'E_ARG',
    () => `${where}: a condition column is given twice`,
  );
  const condCols = conditionNames.map((name) => {
    const col = find(name, 'condition');
    check(
      col.kind === 'numeric',
      'E_ARG',
      () => `${where}: condition "${name}" must be a numeric column (e.g. the model's P(positive)); it holds labels`,
    );
    for (let i = 0; i < table.rows; i++)
      check(
        Number.isFinite(col.values[i]),
        'E_INPUT',
        () => `${where}: condition "${name}" has no number at row ${i + 1}`,
      );
    return col;
  });
  const nc = condCols.length;
  const values = new Float64Array(table.rows * nc);
  condCols.forEach((col, j) => {
    if (col.kind === 'numeric') for (let i = 0; i < table.rows; i++) values[i * nc + j] = col.values[i];
  });
  const discrete = new Set(
    discreteNames ??
      table.columns.filter((c) => c.kind === 'categorical' && !conditionNames.includes(c.name)).map((c) => c.name),
  );
  for (const name of discrete) {
    find(name, 'discrete column');
    check(
      !conditionNames.includes(name),
      'E_ARG',
      () => `${where}: "${name}" cannot be both a condition and a discrete column`,
    );
  }
  const columns = table.columns
    .filter((c) => !conditionNames.includes(c.name))
    .map((c) => (discrete.has(c.name) && c.kind === 'numeric' ? asCategorical(c) : c));
  check(columns.length > 0, 'E_INPUT', () => `${where}: no columns left to model besides the conditions`);
  return { data: { rows: table.rows, columns }, conditions: { names: conditionNames.slice(), values }, discrete };
}

/** A numeric column as labels (its values' shortest decimal forms, in numeric order). */
function asCategorical(col: Column & { kind: 'numeric' }): Column {
  const distinct = Array.from(new Set(col.values)).sort((a, b) => a - b);
  const index = new Map(distinct.map((v, i) => [v, i]));
  return {
    kind: 'categorical',
    name: col.name,
    categories: distinct.map((v) => String(v)),
    codes: Int32Array.from(col.values, (v) => (Number.isNaN(v) ? -1 : index.get(v)!)),
  };
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
        cols.push({
          name: info.name,
          categories: info.categories.slice(),
          codes: Int32Array.from(col.codes, (k) => lut[k]),
          dataOffset: at,
        });
      }
      at += info.categories.length;
    }
  }
  return new CondSampler(cols, data.rows);
}
