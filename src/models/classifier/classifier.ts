// The built-in model: the one an audit can train in the engine itself, and the one LUCID
// inverts. An MLP of Linear + ReLU layers (hidden sizes given; none = logistic regression) with, by
// the output it is trained for:
//   binary      one output logit for P(label = positive), binary cross-entropy on logits;
//   multiclass  k output logits, one per class, softmax cross-entropy (crossEntropy: −Σ_c t_c log softmax(z)_c);
//   regression  one linear output, mean squared error on the standardised target ((y − mean) / sd on the training
//               rows; the mean and sd are stored, so predictions are in the label's units).
// Trained with Adam (torch semantics; weight decay added to the gradient), shuffled mini-batches drawn from the
// seeded Rng, and early stopping on the validation loss (BCE, cross-entropy or MSE; the best epoch's weights are
// restored). It carries its Preprocessor, so a saved model encodes raw tables itself.
//
// Determinism: every draw (validation split, initialisation, shuffles) comes from one Rng seeded
// by `seed`, so the same seed and data give the same weights bit for bit on a given kernel build.
// Core code: no Node imports.
import { bceWithLogits, crossEntropy, mse, relu } from '../../autograd/ops/index.js';
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
import type { ModelOutput } from '../output.js';

export const MODEL_FORMAT = 'lucid-wasm/classifier';
/** The version of a binary classifier's file: its bytes are those of every binary model file written so far. */
export const MODEL_VERSION = 1;
/**
 * The version of a multiclass or regression model's file (which records its `output`): a reader of version 1 refuses
 * it with "version 2 is not supported"; this reader reads both.
 */
export const MODEL_VERSION_OUTPUTS = 2;

/** What the built-in model can be trained for (it gives no score on its own scale: a binary model's is P(positive)). */
export type BuiltinOutputKind = 'binary' | 'multiclass' | 'regression';
export const BUILTIN_OUTPUT_KINDS: readonly BuiltinOutputKind[] = ['binary', 'multiclass', 'regression'];

/** A regressor's target standardisation, fitted on the training rows: it predicts (y − mean) / sd. */
export interface TargetScale {
  readonly mean: number;
  readonly sd: number;
}

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
  /** mean loss over the epoch's mini-batches: BCE, cross-entropy, or MSE of the standardised target */
  trainLoss: number;
  /** the same loss on the validation rows after the epoch (NaN without validation) */
  valLoss: number;
  /**
   * accuracy on the validation rows after the epoch (binary: threshold 0.5; multiclass: the most probable class; NaN
   * for a regressor and without validation)
   */
  valAccuracy: number;
}

export interface TrainOptions {
  /** the label column (categorical, or numeric codes read as labels; numeric for a regressor) */
  label: string;
  /** what to train (default binary): a classifier of two classes or k, or a regressor of a numeric label */
  output?: BuiltinOutputKind;
  /**
   * binary only: the label value predicted as 1; default: the second of exactly two values in sorted order (required
   * with more)
   */
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

/** Linear + ReLU layers with one output (k logits for a multiclass model). */
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

/** Outputs of the network per kind: one logit (binary), k logits (multiclass), one standardised value (regression). */
const outWidth = (kind: BuiltinOutputKind, classes: readonly string[]): number =>
  kind === 'multiclass' ? classes.length : 1;

/** A row's class probabilities from its logits z[at … at+k): softmax, shifted by the row's maximum for stability. */
function softmaxRow(z: ArrayLike<number>, at: number, k: number, out: Float64Array, to: number): void {
  let max = -Infinity;
  for (let c = 0; c < k; c++) max = Math.max(max, z[at + c]);
  let sum = 0;
  for (let c = 0; c < k; c++) {
    const e = fdexp(z[at + c] - max);
    out[to + c] = e;
    sum += e;
  }
  for (let c = 0; c < k; c++) out[to + c] /= sum;
}

/** The index of the largest of p[at … at+k) (the first, on a tie). */
export function argmaxRow(p: ArrayLike<number>, at: number, k: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (p[at + c] > p[at + best]) best = c;
  return best;
}

/**
 * The label of a regressor's rows as numbers: a categorical label is a usage error (E_ARG), a missing value E_INPUT.
 */
function numericLabel(table: Table, label: string, where: string): Float64Array {
  const col = getColumn(table, label, where, 'label');
  check(
    col.kind === 'numeric',
    'E_ARG',
    () => `${where}: label column "${label}" holds labels, not numbers; a regression model needs a numeric label`,
  );
  const v = col.kind === 'numeric' ? col.values : new Float64Array(0);
  for (let i = 0; i < table.rows; i++)
    if (Number.isNaN(v[i]))
      throw new EngineError('E_INPUT', `${where}: label column "${label}", row ${i + 1}: missing value`);
  return Float64Array.from(v);
}

export class Classifier {
  private constructor(
    readonly preprocessor: Preprocessor,
    readonly label: string,
    /** a binary model's class predicted as 1 ("" for the other kinds) */
    readonly positive: string,
    /**
     * the label values seen in training, sorted: a binary model's (every value but `positive` counts as 0), a
     * multiclass model's classes in the order of its outputs; none for a regressor
     */
    readonly classes: readonly string[],
    readonly hidden: readonly number[],
    private readonly net: Mlp,
    /** the parameters, in one persistent block (order l0.weight, l0.bias, l1.weight, …) */
    readonly params: ParamSet,
    /** what it was trained for */
    readonly kind: BuiltinOutputKind = 'binary',
    /** a regressor's target standardisation (null for a classifier) */
    readonly target: TargetScale | null = null,
  ) {}

  /** Input width D (the preprocessor's). */
  get dim(): number {
    return this.preprocessor.dim;
  }

  /** What predictOutput returns, as a black box declares it (src/models/output.ts). */
  get modelOutput(): ModelOutput {
    if (this.kind === 'multiclass') return { kind: 'multiclass', classes: this.classes.slice() };
    return { kind: this.kind };
  }

  private static build(
    engine: Engine,
    pre: Preprocessor,
    label: string,
    positive: string,
    classes: string[],
    hidden: number[],
    rng: Rng,
    kind: BuiltinOutputKind = 'binary',
    target: TargetScale | null = null,
  ): Classifier {
    const net = new Mlp([pre.dim, ...hidden, outWidth(kind, classes)]);
    const params = buildParams(engine, net, rng);
    const model = new Classifier(pre, label, positive, classes, hidden.slice(), net, params, kind, target);
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
   * Trains on `table` (features: every column but the label and `drop`) for `opts.output` (default binary). The
   * preprocessor (and a regressor's target scale) is fitted on the training rows only; the validation rows (a seeded
   * `valFraction` share, or `validation`) choose the epoch whose weights are kept.
   */
  static train(engine: Engine, table: Table, opts: TrainOptions): TrainResult {
    const where = opts.where ?? 'train';
    const d = TRAIN_DEFAULTS;
    const kind = opts.output ?? 'binary';
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
      BUILTIN_OUTPUT_KINDS.includes(kind),
      'E_ARG',
      () => `${where}: output must be one of ${BUILTIN_OUTPUT_KINDS.join(', ')}, got ${String(kind)}`,
    );
    check(
      kind === 'binary' || opts.positive === undefined,
      'E_ARG',
      () => `${where}: --positive names the class of a binary model; a ${kind} model has none`,
    );
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
    let classes: string[] = [];
    let labels: string[] = [];
    let values: Float64Array = new Float64Array(0);
    let pos = '';
    let positiveDefaulted = false;
    if (kind === 'regression') values = numericLabel(table, opts.label, where);
    else {
      ({ values: classes, rows: labels } = labelValues(table, opts.label, where));
      check(
        classes.length >= 2,
        'E_INPUT',
        () => `${where}: label column "${opts.label}" has only one value (${classes[0]}); a classifier needs two`,
      );
    }
    if (kind === 'binary') {
      let positive = opts.positive;
      positiveDefaulted = positive === undefined;
      if (positive === undefined) {
        check(
          classes.length === 2,
          'E_ARG',
          () =>
            `${where}: label column "${opts.label}" has ${classes.length} values (${classes.join(', ')}); say which ` +
            `is positive (--positive)`,
        );
        positive = classes[1];
      }
      pos = positive;
      check(
        classes.includes(pos),
        'E_ARG',
        () =>
          `${where}: positive value "${pos}" does not occur in label column "${opts.label}" (values: ` +
          `${classes.join(', ')})`,
      );
    }
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

    // Targets: 0/1 (binary), the class's index (multiclass), the standardised value (regression).
    let target: TargetScale | null = null;
    if (kind === 'regression') {
      // population mean and sd of the training rows (a regressor fitted to z-scores keeps every target near 1)
      let mean = 0;
      for (const i of trainIdx) mean += values[i];
      mean /= trainIdx.length;
      let ss = 0;
      for (const i of trainIdx) ss += (values[i] - mean) ** 2;
      const sd = Math.sqrt(ss / trainIdx.length);
      check(
        sd > 0 && Number.isFinite(sd),
        'E_INPUT',
        () => `${where}: label column "${opts.label}" takes one value (${mean}) on the training rows; nothing to learn`,
      );
      target = { mean, sd };
    }
    const classIndex = new Map(classes.map((c, i) => [c, i]));
    const t = target;
    const codeOf = (l: string, where2: string, row: number): number => {
      if (kind === 'binary') return l === pos ? 1 : 0;
      const k = classIndex.get(l);
      if (k === undefined)
        throw new EngineError(
          'E_INPUT',
          `${where2}: label column "${opts.label}", row ${row + 1}: class "${l}" does not occur in the training rows ` +
            `(classes: ${classes.join(', ')})`,
        );
      return k;
    };
    const Y = new Float32Array(trainIdx.length);
    for (let i = 0; i < trainIdx.length; i++)
      Y[i] = t ? (values[trainIdx[i]] - t.mean) / t.sd : codeOf(labels[trainIdx[i]], where, trainIdx[i]);

    let XV: Float32Array;
    let YV: Float32Array;
    if (opts.validation) {
      const v = opts.validation;
      const vWhere = `${where} (validation table)`;
      XV = pre.encode(v, vWhere);
      if (t) YV = Float32Array.from(numericLabel(v, opts.label, vWhere), (y) => (y - t.mean) / t.sd);
      else YV = Float32Array.from(labelValues(v, opts.label, vWhere).rows, (l, i) => codeOf(l, vWhere, i));
    } else {
      XV = pre.encode(selectRows(table, valIdx), where);
      YV = Float32Array.from(valIdx, (i) => (t ? (values[i] - t.mean) / t.sd : codeOf(labels[i], where, i)));
    }
    const nTrain = Y.length;
    const nVal = YV.length;

    const model = Classifier.build(engine, pre, opts.label, pos, classes, hidden, rng, kind, target);
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
            let loss: Tensor;
            if (kind === 'multiclass') loss = crossEntropy(model.net.forward(x), yb.subarray(0, m));
            else {
              const y = engine.empty([m, 1]);
              y.data.set(yb.subarray(0, m));
              loss = kind === 'binary' ? bceWithLogits(model.net.forward(x), y) : mse(model.net.forward(x), y);
            }
            opt.step(grad(loss, model.params.trainable));
            return loss.item() * m;
          });
        }
        const report: EpochReport = { epoch, trainLoss: lossSum / nTrain, valLoss: NaN, valAccuracy: NaN };
        if (nVal > 0) Object.assign(report, model.validationLoss(engine, XV, YV));
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
   * The loss of the encoded rows `x` against their targets `y` (training's codes: 0/1, class indices, standardised
   * values), and the accuracy of a classifier (NaN for a regressor).
   */
  private validationLoss(engine: Engine, x: Float32Array, y: Float32Array): { valLoss: number; valAccuracy: number } {
    const n = y.length;
    let loss = 0;
    let ok = 0;
    if (this.kind === 'binary') {
      const p = this.probaEncoded(engine, x, n);
      for (let i = 0; i < n; i++) {
        const q = Math.min(Math.max(p[i], 1e-12), 1 - 1e-12);
        loss -= y[i] === 1 ? fdlog(q) : fdlog(1 - q);
        ok += (p[i] > 0.5 ? 1 : 0) === y[i] ? 1 : 0;
      }
      return { valLoss: loss / n, valAccuracy: ok / n };
    }
    if (this.kind === 'multiclass') {
      const k = this.classes.length;
      const p = this.outputEncoded(engine, x, n);
      for (let i = 0; i < n; i++) {
        loss -= fdlog(Math.max(p[i * k + y[i]], 1e-12));
        ok += argmaxRow(p, i * k, k) === y[i] ? 1 : 0;
      }
      return { valLoss: loss / n, valAccuracy: ok / n };
    }
    const z = this.rawEncoded(engine, x, n);
    for (let i = 0; i < n; i++) loss += (z[i] - y[i]) ** 2;
    return { valLoss: loss / n, valAccuracy: NaN };
  }

  /**
   * Logits (N, 1) of the positive class from encoded inputs x (N, D) (a multiclass model's: (N, k); a regressor's
   * standardised value: (N, 1)). Differentiable; the parameters do not require gradients, so grad(…, [x]) reaches x
   * only.
   */
  logits(x: Tensor): Tensor {
    check(
      x.rank === 2 && x.shape[1] === this.dim,
      'E_SHAPE',
      () => `classifier: input must be (N, ${this.dim}), got [${x.shape}]`,
    );
    return this.net.forward(x);
  }

  /** The network's outputs per row of an encoded (n, D) matrix, row-major (n, width); no graph. */
  private rawEncoded(engine: Engine, x: Float32Array, n: number): Float64Array {
    const D = this.dim;
    const W = outWidth(this.kind, this.classes);
    check(
      Number.isInteger(n) && n >= 0 && x.length === n * D,
      'E_SHAPE',
      () => `classifier: ${x.length} values are not ${n} rows of ${D}`,
    );
    const out = new Float64Array(n * W);
    engine.noGrad(() => {
      for (let s = 0; s < n; s += PREDICT_CHUNK) {
        const m = Math.min(PREDICT_CHUNK, n - s);
        engine.scope(() => {
          const t = engine.empty([m, D]);
          t.data.set(x.subarray(s * D, (s + m) * D));
          out.set(this.net.forward(t).data.subarray(0, m * W), s * W);
        });
      }
    });
    return out;
  }

  /** P(positive) per row of an encoded (n, D) matrix; no graph. A binary model's only. */
  probaEncoded(engine: Engine, x: Float32Array, n: number): Float64Array {
    check(
      this.kind === 'binary',
      'E_ARG',
      () => `classifier: a ${this.kind} model gives no P(positive); use predictOutput`,
    );
    const z = this.rawEncoded(engine, x, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = 1 / (1 + fdexp(-z[i]));
    return out;
  }

  /**
   * What the model predicts per row of an encoded (n, D) matrix, as modelOutput says: P(positive) (binary), the k
   * class probabilities row-major (n, k) (multiclass, a softmax of the logits), the value in the label's units
   * (regression). No graph.
   */
  outputEncoded(engine: Engine, x: Float32Array, n: number): Float64Array {
    if (this.kind === 'binary') return this.probaEncoded(engine, x, n);
    const z = this.rawEncoded(engine, x, n);
    if (this.kind === 'regression') {
      const { mean, sd } = this.target!;
      return z.map((v) => v * sd + mean);
    }
    const k = this.classes.length;
    const out = new Float64Array(n * k);
    for (let i = 0; i < n; i++) softmaxRow(z, i * k, k, out, i * k);
    return out;
  }

  /** P(label = positive) per row of a raw table (its feature columns are encoded by the preprocessor). */
  predictProba(engine: Engine, table: Table, where = 'predict'): Float64Array {
    return this.probaEncoded(engine, this.preprocessor.encode(table, where), table.rows);
  }

  /** outputEncoded for the rows of a raw table (its feature columns are encoded by the preprocessor). */
  predictOutput(engine: Engine, table: Table, where = 'predict'): Float64Array {
    return this.outputEncoded(engine, this.preprocessor.encode(table, where), table.rows);
  }

  /**
   * On a table holding the label column: a classifier's accuracy (binary: threshold 0.5; multiclass: the most
   * probable class) and mean log-loss, and a binary model's share predicted positive (NaN otherwise); a regressor's
   * root mean squared error in the label's units (`rmse`; accuracy, log-loss and positive rate NaN).
   */
  evaluate(
    engine: Engine,
    table: Table,
    where = 'evaluate',
  ): { rows: number; accuracy: number; logLoss: number; positiveRate: number; rmse?: number } {
    if (this.kind === 'regression') {
      const v = this.predictOutput(engine, table, where);
      const y = numericLabel(table, this.label, where);
      let ss = 0;
      for (let i = 0; i < v.length; i++) ss += (v[i] - y[i]) ** 2;
      return { rows: v.length, accuracy: NaN, logLoss: NaN, positiveRate: NaN, rmse: Math.sqrt(ss / v.length) };
    }
    const labels = labelValues(table, this.label, where).rows;
    if (this.kind === 'multiclass') {
      const k = this.classes.length;
      const p = this.predictOutput(engine, table, where);
      let ok = 0;
      let ll = 0;
      for (let i = 0; i < labels.length; i++) {
        const c = this.classes.indexOf(labels[i]);
        ll -= fdlog(Math.max(c < 0 ? 0 : p[i * k + c], 1e-12));
        ok += argmaxRow(p, i * k, k) === c ? 1 : 0;
      }
      return { rows: labels.length, accuracy: ok / labels.length, logLoss: ll / labels.length, positiveRate: NaN };
    }
    const p = this.predictProba(engine, table, where);
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
   * with a checksum over every other field (src/models/checksum.ts) that fromJSON verifies. A binary model is
   * written as version 1, byte for byte as before output kinds; a multiclass or regression model as version 2, with
   * its `output`, its classes (multiclass) or its target's mean and sd (regression).
   */
  toJSON(): object {
    const sizes = [this.dim, ...this.hidden, outWidth(this.kind, this.classes)];
    const head: Record<string, unknown> =
      this.kind === 'binary'
        ? {
            format: MODEL_FORMAT,
            version: MODEL_VERSION,
            checksum: '',
            label: this.label,
            positive: this.positive,
            classes: this.classes.slice(),
          }
        : {
            format: MODEL_FORMAT,
            version: MODEL_VERSION_OUTPUTS,
            checksum: '',
            output: this.kind,
            label: this.label,
            ...(this.kind === 'multiclass'
              ? { classes: this.classes.slice() }
              : { target: { mean: this.target!.mean, sd: this.target!.sd } }),
          };
    const json: Record<string, unknown> = {
      ...head,
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
   * Rebuilds a model from toJSON's output (version 1: a binary classifier; version 2: any output, as its `output`
   * says), validating every field; a bad one is an E_INPUT error naming `where` and the field. Then the checksum:
   * one that does not match the content (a weight changed after the file was written, still valid JSON) is an
   * E_INPUT error; none at all (a file from before model files had one) loads, and `opts.unverified` is told.
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
    if (o.version !== MODEL_VERSION && o.version !== MODEL_VERSION_OUTPUTS) {
      throw new EngineError(
        'E_INPUT',
        `${where}: model format version ${JSON.stringify(o.version)} is not supported (this lucid-wasm reads ` +
          `versions ${MODEL_VERSION} and ${MODEL_VERSION_OUTPUTS})`,
      );
    }
    let kind: BuiltinOutputKind = 'binary';
    if (o.version === MODEL_VERSION_OUTPUTS) {
      if (!BUILTIN_OUTPUT_KINDS.includes(o.output as BuiltinOutputKind))
        bad('output', `must be one of ${BUILTIN_OUTPUT_KINDS.map((k) => `"${k}"`).join(', ')} (version 2)`);
      kind = o.output as BuiltinOutputKind;
    } else if (o.output !== undefined) bad('output', 'belongs to version 2 files; a version 1 file is binary');
    if (typeof o.label !== 'string' || o.label === '') bad('label', 'must be a column name');
    let classes: string[] = [];
    let positive = '';
    let target: TargetScale | null = null;
    if (kind === 'regression') {
      const tg = o.target as Record<string, unknown> | undefined;
      const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
      if (typeof tg !== 'object' || tg === null || !finite(tg.mean) || !finite(tg.sd) || !((tg.sd as number) > 0))
        bad('target', 'must be { mean, sd } with a finite mean and a positive sd (the label standardisation)');
      target = { mean: tg!.mean as number, sd: tg!.sd as number };
    } else {
      const cls = o.classes;
      if (
        !Array.isArray(cls) ||
        cls.length < 2 ||
        !cls.every((c) => typeof c === 'string') ||
        new Set(cls).size !== cls.length
      )
        bad('classes', 'must be an array of at least two distinct labels');
      classes = (cls as string[]).slice();
      if (kind === 'binary') {
        if (typeof o.positive !== 'string' || !classes.includes(o.positive))
          bad('positive', 'must be one of the classes');
        positive = o.positive as string;
      }
    }
    const hidden = o.hidden;
    if (!Array.isArray(hidden) || !hidden.every(positiveIntArg)) bad('hidden', 'must be an array of positive integers');
    const pre = Preprocessor.fromJSON(o.preprocessor, where);
    if (pre.features.includes(o.label as string)) bad('preprocessor.features', `holds the label "${String(o.label)}"`);
    const sizes = [pre.dim, ...(hidden as number[]), outWidth(kind, classes)];
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
      positive,
      classes,
      (hidden as number[]).slice(),
      new Rng(engine, 0),
      kind,
      target,
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
