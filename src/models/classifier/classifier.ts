// The built-in classifier: the model an audit can train in the engine itself, and the one LUCID
// inverts. An MLP of Linear + ReLU layers (hidden sizes given; none = logistic regression) with one
// output logit for P(label = positive), trained with binary cross-entropy on logits, Adam
// (torch semantics; weight decay added to the gradient), shuffled mini-batches drawn from the
// seeded Rng, and early stopping on a validation split (the best epoch's weights are restored).
// It carries its Preprocessor, so a saved model encodes raw tables itself.
//
// Determinism: every draw (validation split, initialisation, shuffles) comes from one Rng seeded
// by `seed`, so the same seed and data give the same weights bit for bit on a given kernel build.
// Core code: no Node imports.
import { bceWithLogits, relu } from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import type { Engine, Tensor } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { Adam } from '../../nn/adam.js';
import { Linear } from '../../nn/layers.js';
import { buildParams, Module, type ParamSet } from '../../nn/module.js';
import { getColumn, selectRows, type Table } from '../../data/table.js';
import { labelOf, Preprocessor } from './preprocess.js';
import { contentChecksum, verifyChecksum } from '../checksum.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';
import { byCodeUnit } from '../../data/text.js';

export const MODEL_FORMAT = 'lucid-wasm/classifier';
export const MODEL_VERSION = 1;

/** What fromJSON does with a model that has no checksum (written before model files had one). */
export interface FromJSONOptions {
  /** told why the model cannot be verified (one line naming `where`); without it such a model loads silently */
  unverified?: (message: string) => void;
}

/** Defaults chosen on the validation splits of Adult and COMPAS (tools/train-reference-models.mjs). */
export const TRAIN_DEFAULTS = {
  hidden: [64, 32] as number[],
  epochs: 200,
  batch: 128,
  /** Adam learning rate of an MLP */
  lr: 3e-4,
  /** and of logistic regression (hidden []), which converges slowly at the MLP's rate */
  lrLogistic: 1e-2,
  weightDecay: 1e-3,
  weightDecayLogistic: 0,
  seed: 0,
  valFraction: 0.2,
  patience: 20,
};

export interface EpochReport {
  epoch: number;
  /** mean BCE over the epoch's mini-batches */
  trainLoss: number;
  /** mean BCE on the validation rows after the epoch (NaN without validation) */
  valLoss: number;
  /** accuracy (threshold 0.5) on the validation rows after the epoch (NaN without validation) */
  valAccuracy: number;
}

export interface TrainOptions {
  /** the label column (categorical, or numeric codes read as labels) */
  label: string;
  /** the label value predicted as 1; default: the second of exactly two values in sorted order (required with more) */
  positive?: string;
  /** columns that are not features (the label never is) */
  drop?: string[];
  /** hidden layer sizes; [] = logistic regression (default [64, 32]) */
  hidden?: number[];
  /** most epochs (default 200) */
  epochs?: number;
  /** mini-batch rows (default 128) */
  batch?: number;
  /** Adam learning rate (default 3e-4; 1e-2 for logistic regression) */
  lr?: number;
  /** L2 weight decay added to the gradient (default 1e-3; 0 for logistic regression) */
  weightDecay?: number;
  /** seed of the validation split, initialisation and shuffles (default 0) */
  seed?: number;
  /** share of `table` held out for early stopping (default 0.2; 0 = no validation, train every epoch) */
  valFraction?: number;
  /**
   * a separate validation table (e.g. a reference split); when given, valFraction is ignored and `table` is all
   * training rows
   */
  validation?: Table;
  /** stop after this many epochs without a lower validation loss (default 20) */
  patience?: number;
  onEpoch?: (e: EpochReport) => void;
  /** prefix of error messages (e.g. the data file's name; default "train") */
  where?: string;
}

export interface TrainResult {
  model: Classifier;
  history: EpochReport[];
  /** the epoch whose weights were kept (the last one without validation) */
  bestEpoch: number;
  /** true when `positive` was not given and the second label value was chosen */
  positiveDefaulted: boolean;
  /** rows trained on and held out */
  trainRows: number;
  valRows: number;
}

/** Linear + ReLU layers with one output logit. */
class Mlp extends Module {
  readonly layers: Linear[] = [];
  constructor(readonly sizes: readonly number[]) {
    super();
    for (let i = 0; i + 1 < sizes.length; i++)
      this.layers.push(this.child(`l${i}`, new Linear(sizes[i], sizes[i + 1])));
  }
  forward(x: Tensor): Tensor {
    let h = x;
    this.layers.forEach((l, i) => {
      h = l.forward(h);
      if (i + 1 < this.layers.length) h = relu(h);
    });
    return h;
  }
}

/**
 * Label values present in the rows (sorted numerically for a numeric column, by code unit otherwise) and per-row
 * labels.
 */
function labelValues(table: Table, label: string, where: string): { values: string[]; rows: string[] } {
  const col = getColumn(table, label, where, 'label');
  const rows = new Array<string>(table.rows);
  const seen = new Set<string>();
  for (let i = 0; i < table.rows; i++) {
    const l = labelOf(col, i);
    if (l === null) throw new EngineError('E_INPUT', `${where}: label column "${label}", row ${i + 1}: missing value`);
    rows[i] = l;
    seen.add(l);
  }
  const values = [...seen];
  if (col.kind === 'numeric') values.sort((a, b) => Number(a) - Number(b));
  else values.sort(byCodeUnit);
  return { values, rows };
}

const positiveIntArg = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Shortest decimal that reads back as the same float32 (so the model file is small and exact). */
function f32Text(v: number): number {
  for (let p = 1; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return s;
  }
  return v;
}

const PREDICT_CHUNK = 8192;

export class Classifier {
  private constructor(
    readonly preprocessor: Preprocessor,
    readonly label: string,
    readonly positive: string,
    /** the label values seen in training, sorted; every value but `positive` counts as 0 */
    readonly classes: readonly string[],
    readonly hidden: readonly number[],
    private readonly net: Mlp,
    /** the parameters, in one persistent block (order l0.weight, l0.bias, l1.weight, …) */
    readonly params: ParamSet,
  ) {}

  /** Input width D (the preprocessor's). */
  get dim(): number {
    return this.preprocessor.dim;
  }

  private static build(
    engine: Engine,
    pre: Preprocessor,
    label: string,
    positive: string,
    classes: string[],
    hidden: number[],
    rng: Rng,
  ): Classifier {
    const net = new Mlp([pre.dim, ...hidden, 1]);
    const params = buildParams(engine, net, rng);
    const model = new Classifier(pre, label, positive, classes, hidden.slice(), net, params);
    model.freeze();
    return model;
  }

  /** Parameters stop requiring gradients (so LUCID's graph reaches only its inputs). */
  private freeze(): void {
    for (const p of this.net.namedParams()) p.tensor.requiresGrad = false;
  }

  private unfreeze(): void {
    for (const p of this.net.namedParams()) p.tensor.requiresGrad = p.trainable;
  }

  /**
   * Trains on `table` (features: every column but the label and `drop`). The preprocessor is fitted
   * on the training rows only; the validation rows (a seeded `valFraction` share, or `validation`)
   * choose the epoch whose weights are kept.
   */
  static train(engine: Engine, table: Table, opts: TrainOptions): TrainResult {
    const where = opts.where ?? 'train';
    const d = TRAIN_DEFAULTS;
    const hidden = opts.hidden ?? d.hidden;
    const epochs = opts.epochs ?? d.epochs;
    const batch = opts.batch ?? d.batch;
    const logistic = Array.isArray(hidden) && hidden.length === 0;
    const lr = opts.lr ?? (logistic ? d.lrLogistic : d.lr);
    const weightDecay = opts.weightDecay ?? (logistic ? d.weightDecayLogistic : d.weightDecay);
    const seed = opts.seed ?? d.seed;
    const valFraction = opts.validation ? 0 : (opts.valFraction ?? d.valFraction);
    const patience = opts.patience ?? d.patience;
    check(
      Array.isArray(hidden) && hidden.every(positiveIntArg),
      'E_ARG',
      () => `${where}: hidden sizes must be positive integers, got [${String(hidden)}]`,
    );
    check(positiveIntArg(epochs), 'E_ARG', () => `${where}: epochs must be a positive integer, got ${epochs}`);
    check(positiveIntArg(batch), 'E_ARG', () => `${where}: batch must be a positive integer, got ${batch}`);
    check(positiveIntArg(patience), 'E_ARG', () => `${where}: patience must be a positive integer, got ${patience}`);
    check(Number.isFinite(lr) && lr > 0, 'E_ARG', () => `${where}: lr must be a positive number, got ${lr}`);
    check(
      Number.isFinite(weightDecay) && weightDecay >= 0,
      'E_ARG',
      () => `${where}: weightDecay must be ≥ 0, got ${weightDecay}`,
    );
    check(
      Number.isSafeInteger(seed) && seed >= 0,
      'E_ARG',
      () => `${where}: seed must be a non-negative integer, got ${seed}`,
    );
    check(
      Number.isFinite(valFraction) && valFraction >= 0 && valFraction < 1,
      'E_ARG',
      () => `${where}: valFraction must be in [0, 1), got ${valFraction}`,
    );

    // Label and features.
    const { values: classes, rows: labels } = labelValues(table, opts.label, where);
    check(
      classes.length >= 2,
      'E_INPUT',
      () => `${where}: label column "${opts.label}" has only one value (${classes[0]}); a classifier needs two`,
    );
    let positive = opts.positive;
    const positiveDefaulted = positive === undefined;
    if (positive === undefined) {
      check(
        classes.length === 2,
        'E_ARG',
        () =>
          `${where}: label column "${opts.label}" has ${classes.length} values (${classes.join(', ')}); say which is ` +
          `positive (--positive)`,
      );
      positive = classes[1];
    }
    const pos = positive;
    check(
      classes.includes(pos),
      'E_ARG',
      () =>
        `${where}: positive value "${pos}" does not occur in label column "${opts.label}" (values: ` +
        `${classes.join(', ')})`,
    );
    // identifier-like columns (marked by the reader) are no features: left out, as the reader warned
    const drop = [
      ...(opts.drop ?? []),
      ...table.columns
        .filter((c) => c.kind === 'categorical' && c.identifier && !(opts.drop ?? []).includes(c.name))
        .map((c) => c.name),
    ];
    for (const c of drop) getColumn(table, c, where, 'drop');
    const features = table.columns.map((c) => c.name).filter((n) => n !== opts.label && !drop.includes(n));
    check(
      features.length > 0,
      'E_INPUT',
      () => `${where}: no feature columns left (the label is "${opts.label}", dropped: ${drop.join(', ') || 'none'})`,
    );

    // Split.
    const rng = new Rng(engine, seed);
    let trainIdx: Int32Array;
    let valIdx: Int32Array;
    if (valFraction > 0) {
      const perm = rng.permutation(table.rows);
      const nVal = Math.round(table.rows * valFraction);
      check(
        nVal >= 1 && table.rows - nVal >= 1,
        'E_INPUT',
        () => `${where}: ${table.rows} rows are too few to hold out a validation share of ${valFraction}`,
      );
      valIdx = perm.slice(0, nVal).sort();
      trainIdx = perm.slice(nVal).sort();
    } else {
      trainIdx = Int32Array.from({ length: table.rows }, (_, i) => i);
      valIdx = new Int32Array(0);
    }
    const trainTable = selectRows(table, trainIdx);
    const pre = Preprocessor.fit(trainTable, features, where);
    const D = pre.dim;
    const X = pre.encode(trainTable, where);
    const Y = new Float32Array(trainIdx.length);
    for (let i = 0; i < trainIdx.length; i++) Y[i] = labels[trainIdx[i]] === pos ? 1 : 0;

    let XV: Float32Array;
    let YV: Float32Array;
    if (opts.validation) {
      const v = opts.validation;
      XV = pre.encode(v, `${where} (validation table)`);
      const vl = labelValues(v, opts.label, `${where} (validation table)`).rows;
      YV = Float32Array.from(vl, (l) => (l === pos ? 1 : 0));
    } else {
      XV = pre.encode(selectRows(table, valIdx), where);
      YV = Float32Array.from(valIdx, (i) => (labels[i] === pos ? 1 : 0));
    }
    const nTrain = Y.length;
    const nVal = YV.length;

    const model = Classifier.build(engine, pre, opts.label, pos, classes, hidden, rng);
    model.unfreeze();
    const opt = new Adam(model.params.trainable, { lr, weightDecay });
    const history: EpochReport[] = [];
    let best = Infinity;
    let bestEpoch = 0;
    let bestWeights: Float32Array | null = null;
    let stale = 0;
    const xb = new Float32Array(batch * D);
    const yb = new Float32Array(batch);
    try {
      for (let epoch = 1; epoch <= epochs; epoch++) {
        const perm = rng.permutation(nTrain);
        let lossSum = 0;
        for (let s = 0; s < nTrain; s += batch) {
          const m = Math.min(batch, nTrain - s);
          for (let r = 0; r < m; r++) {
            const i = perm[s + r];
            xb.set(X.subarray(i * D, (i + 1) * D), r * D);
            yb[r] = Y[i];
          }
          lossSum += engine.scope(() => {
            const x = engine.empty([m, D]);
            x.data.set(xb.subarray(0, m * D));
            const y = engine.empty([m, 1]);
            y.data.set(yb.subarray(0, m));
            const loss = bceWithLogits(model.net.forward(x), y);
            opt.step(grad(loss, model.params.trainable));
            return loss.item() * m;
          });
        }
        const report: EpochReport = { epoch, trainLoss: lossSum / nTrain, valLoss: NaN, valAccuracy: NaN };
        if (nVal > 0) {
          const p = model.probaEncoded(engine, XV, nVal);
          let ll = 0;
          let ok = 0;
          for (let i = 0; i < nVal; i++) {
            const q = Math.min(Math.max(p[i], 1e-12), 1 - 1e-12);
            ll -= YV[i] === 1 ? fdlog(q) : fdlog(1 - q);
            ok += (p[i] > 0.5 ? 1 : 0) === YV[i] ? 1 : 0;
          }
          report.valLoss = ll / nVal;
          report.valAccuracy = ok / nVal;
        }
        history.push(report);
        opts.onEpoch?.(report);
        if (nVal === 0) {
          bestEpoch = epoch;
          continue;
        }
        if (report.valLoss < best) {
          best = report.valLoss;
          bestEpoch = epoch;
          bestWeights = model.params.snapshot();
          stale = 0;
        } else if (++stale >= patience) break;
      }
      if (bestWeights) model.params.restore(bestWeights);
    } catch (e) {
      model.dispose();
      throw e;
    } finally {
      opt.dispose();
      model.freeze();
    }
    return { model, history, bestEpoch, positiveDefaulted, trainRows: nTrain, valRows: nVal };
  }

  /**
   * Logits (N, 1) of the positive class from encoded inputs x (N, D). Differentiable; the
   * parameters do not require gradients, so grad(…, [x]) reaches x only.
   */
  logits(x: Tensor): Tensor {
    check(
      x.rank === 2 && x.shape[1] === this.dim,
      'E_SHAPE',
      () => `classifier: input must be (N, ${this.dim}), got [${x.shape}]`,
    );
    return this.net.forward(x);
  }

  /** P(positive) per row of an encoded (n, D) matrix; no graph. */
  probaEncoded(engine: Engine, x: Float32Array, n: number): Float64Array {
    const D = this.dim;
    check(
      Number.isInteger(n) && n >= 0 && x.length === n * D,
      'E_SHAPE',
      () => `classifier: ${x.length} values are not ${n} rows of ${D}`,
    );
    const out = new Float64Array(n);
    engine.noGrad(() => {
      for (let s = 0; s < n; s += PREDICT_CHUNK) {
        const m = Math.min(PREDICT_CHUNK, n - s);
        engine.scope(() => {
          const t = engine.empty([m, D]);
          t.data.set(x.subarray(s * D, (s + m) * D));
          const z = this.net.forward(t).data;
          for (let i = 0; i < m; i++) out[s + i] = 1 / (1 + fdexp(-z[i]));
        });
      }
    });
    return out;
  }

  /** P(label = positive) per row of a raw table (its feature columns are encoded by the preprocessor). */
  predictProba(engine: Engine, table: Table, where = 'predict'): Float64Array {
    return this.probaEncoded(engine, this.preprocessor.encode(table, where), table.rows);
  }

  /** Accuracy (threshold 0.5) and mean log-loss on a table holding the label column. */
  evaluate(
    engine: Engine,
    table: Table,
    where = 'evaluate',
  ): { rows: number; accuracy: number; logLoss: number; positiveRate: number } {
    const p = this.predictProba(engine, table, where);
    const labels = labelValues(table, this.label, where).rows;
    let ok = 0;
    let ll = 0;
    let predPos = 0;
    for (let i = 0; i < p.length; i++) {
      const y = labels[i] === this.positive ? 1 : 0;
      const q = Math.min(Math.max(p[i], 1e-12), 1 - 1e-12);
      ll -= y ? fdlog(q) : fdlog(1 - q);
      ok += (p[i] > 0.5 ? 1 : 0) === y ? 1 : 0;
      predPos += p[i] > 0.5 ? 1 : 0;
    }
    return { rows: p.length, accuracy: ok / p.length, logLoss: ll / p.length, positiveRate: predPos / p.length };
  }

  /**
   * The model as plain JSON (weights in torch's (out, in) layout, row-major, exact float32 values),
   * with a checksum over every other field (src/models/checksum.ts) that fromJSON verifies.
   */
  toJSON(): object {
    const sizes = [this.dim, ...this.hidden, 1];
    const json: Record<string, unknown> = {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      checksum: '',
      label: this.label,
      positive: this.positive,
      classes: this.classes.slice(),
      hidden: this.hidden.slice(),
      preprocessor: this.preprocessor.toJSON(),
      layers: this.net.layers.map((l, i) => ({
        in: sizes[i],
        out: sizes[i + 1],
        weight: Array.from(l.W.tensor.data, f32Text),
        bias: Array.from(l.b!.tensor.data, f32Text),
      })),
    };
    json.checksum = contentChecksum(json);
    return json;
  }

  /**
   * Rebuilds a model from toJSON's output, validating every field; a bad one is an E_INPUT error naming
   * `where` and the field. Then the checksum: one that does not match the content (a weight changed
   * after the file was written, still valid JSON) is an E_INPUT error; none at all (a file from before
   * model files had one) loads, and `opts.unverified` is told.
   */
  static fromJSON(engine: Engine, obj: unknown, where: string, opts: FromJSONOptions = {}): Classifier {
    const bad = (field: string, what: string): never => {
      throw new EngineError('E_INPUT', `${where}: field "${field}" ${what}`);
    };
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
      throw new EngineError('E_INPUT', `${where}: not a lucid-wasm model (expected a JSON object)`);
    const o = obj as Record<string, unknown>;
    if (o.format !== MODEL_FORMAT) {
      throw new EngineError(
        'E_INPUT',
        `${where}: not a lucid-wasm model (format is ${o.format === undefined ? 'missing' : JSON.stringify(o.format)}` +
          `, expected "${MODEL_FORMAT}")`,
      );
    }
    if (o.version !== MODEL_VERSION) {
      throw new EngineError(
        'E_INPUT',
        `${where}: model format version ${JSON.stringify(o.version)} is not supported (this lucid-wasm reads version ` +
          `${MODEL_VERSION})`,
      );
    }
    if (typeof o.label !== 'string' || o.label === '') bad('label', 'must be a column name');
    const classes = o.classes;
    if (
      !Array.isArray(classes) ||
      classes.length < 2 ||
      !classes.every((c) => typeof c === 'string') ||
      new Set(classes).size !== classes.length
    )
      bad('classes', 'must be an array of at least two distinct labels');
    if (typeof o.positive !== 'string' || !(classes as string[]).includes(o.positive))
      bad('positive', 'must be one of the classes');
    const hidden = o.hidden;
    if (!Array.isArray(hidden) || !hidden.every(positiveIntArg)) bad('hidden', 'must be an array of positive integers');
    const pre = Preprocessor.fromJSON(o.preprocessor, where);
    if (pre.features.includes(o.label as string)) bad('preprocessor.features', `holds the label "${String(o.label)}"`);
    const sizes = [pre.dim, ...(hidden as number[]), 1];
    const layers = o.layers;
    if (!Array.isArray(layers) || layers.length !== sizes.length - 1)
      bad('layers', `must be an array of ${sizes.length - 1} layers (hidden sizes [${String(hidden)}] and one output)`);
    const values: Float32Array[] = [];
    (layers as unknown[]).forEach((l, i) => {
      const f = `layers[${i}]`;
      if (typeof l !== 'object' || l === null || Array.isArray(l)) bad(f, 'must be an object');
      const layer = l as Record<string, unknown>;
      const [nIn, nOut] = [sizes[i], sizes[i + 1]];
      if (layer.in !== nIn) bad(`${f}.in`, `must be ${nIn}`);
      if (layer.out !== nOut) bad(`${f}.out`, `must be ${nOut}`);
      const w = layer.weight;
      const b = layer.bias;
      const finite = (a: unknown, len: number) =>
        Array.isArray(a) && a.length === len && a.every((v) => typeof v === 'number' && Number.isFinite(v));
      if (!finite(w, nIn * nOut))
        bad(`${f}.weight`, `must be an array of ${nIn * nOut} finite numbers (${nOut}×${nIn}), got ${describe(w)}`);
      if (!finite(b, nOut)) bad(`${f}.bias`, `must be an array of ${nOut} finite numbers, got ${describe(b)}`);
      values.push(Float32Array.from(w as number[]), Float32Array.from(b as number[]));
    });
    const sum = verifyChecksum(o.checksum, contentChecksum(o));
    if (sum === 'mismatch') {
      throw new EngineError(
        'E_INPUT',
        `${where}: checksum mismatch: the model file was changed or damaged after it was written; train the model ` +
          `again (lucid model train)`,
      );
    }
    if (sum === 'missing')
      opts.unverified?.(
        `${where}: the model file has no checksum (written by an older lucid-wasm), so a change or damage cannot be ` +
          `detected; train it again (lucid model train) to add one`,
      );
    const model = Classifier.build(
      engine,
      pre,
      o.label as string,
      o.positive as string,
      (classes as string[]).slice(),
      (hidden as number[]).slice(),
      new Rng(engine, 0),
    );
    const all = new Float32Array(values.reduce((a, v) => a + v.length, 0));
    let off = 0;
    for (const v of values) {
      all.set(v, off);
      off += v.length;
    }
    model.params.restore(all);
    return model;
  }

  /** Releases the parameter block. */
  dispose(): void {
    this.params.dispose();
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) {
    const badAt = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
    return badAt >= 0 ? `${JSON.stringify(v[badAt])} at position ${badAt}` : `${v.length} numbers`;
  }
  return v === undefined ? 'nothing' : typeof v;
}
