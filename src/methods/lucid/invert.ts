// LUCID (Mazijn et al.): gradient descent on a classifier's INPUT until it gives the preferred
// class, from uniform random starting points. The result is a "canonical set": the inputs the model
// would most like to see for that outcome. Core code: runs in any JS runtime.
//
// Batched: all N samples are one (N, D) leaf tensor and one forward/backward per step. The loss is
// the SUM of the per-sample losses, so sample i's gradient is exactly its own per-sample gradient
// and each sample follows the reference's batch-size-1 SGD path whatever N is (the model has no
// cross-row interaction at inference). Gradients are taken with respect to the inputs only; the
// model's parameters are never differentiated nor changed.
import * as o from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import type { Engine, Tensor } from '../../engine/engine.js';
import { check } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { BinOp } from '../../engine/wasm.js';
import type { Column, Table } from '../../data/table.js';
import { checkGroups, type LucidFeatureGroup, type LucidModel, type Preference, resolvePreference } from './model.js';
import { projectSimplex, snapOneHot } from './project.js';
import { exp as fdexp } from '../../engine/fdlibm.js';

export type LucidLoss = 'prob-ce' | 'logit-ce';

export interface InvertOptions {
  /** A class label of the model, or 'positive' / 'negative'. The target is P(prefer) = 1. */
  prefer: string;
  /** Samples (default 1000). */
  n?: number;
  /** SGD steps per sample (default 200, the reference's). */
  epochs?: number;
  /** SGD learning rate (default 0.1, the reference's). */
  lr?: number;
  /** Starting points are drawn U[low, high) per input dimension (default [−1, 1], the reference's). */
  init?: { low: number; high: number };
  /**
   * 'prob-ce' (default, the reference's PyTorch loss): cross-entropy whose "logits" are the
   * probabilities [1 − p, p], i.e. a second softmax: softplus(1 − 2·p_prefer). Bounded below by
   * softplus(−1) ≈ 0.313 and its gradient fades as p → 1.
   * 'logit-ce': cross-entropy on the logit, −log p_prefer = softplus(−z_prefer) (BCE with logits
   * toward the preferred class; also what the reference's Keras variant computes).
   */
  loss?: LucidLoss;
  /**
   * After every update (and at the start), numeric inputs are clamped to [−1, 1] (or `bounds`) and one-hot inputs to
   * [0, 1].
   */
  clip?: boolean;
  /**
   * With `clip`: per numeric feature, the range (original units) to clamp it to instead of the
   * encoding's [−1, 1], e.g. the range of the audited rows. Needs the feature groups' min and max.
   */
  bounds?: Record<string, readonly [number, number]>;
  /** Decode numbers rounded to the decimals the model's training values had (integers stay integers). */
  round?: boolean;
  /** After every update (and at the start), each categorical group is projected onto the probability simplex. */
  projectOneHot?: boolean;
  /** Seed of the starting points (default 0). */
  seed?: number;
  /**
   * Record the reference's log: rows at epoch 1 and every multiple of traceEvery (0 = only epochs 1
   * and `epochs`, the reference's default), each holding the input BEFORE that epoch's update, plus
   * epoch `epochs` + 1: the last logged row snapped to one-hot (the reference's extra epoch).
   * Undefined: no trace.
   */
  traceEvery?: number;
}

export interface LucidTrace {
  /** The logged epochs, ascending; the last is `epochs + 1` (the snapped extra epoch). */
  epochs: number[];
  /** (N · L) × D, sample-major: the rows of sample i are i·L … i·L + L − 1, in the order of `epochs`. */
  encoded: Float32Array;
  /** P(prefer) of each logged row, in the same order. */
  pred: Float64Array;
  /** Decoded: columns sample (0-based), epoch, the features, pred. */
  table: Table;
}

export interface InvertResult {
  preference: Preference;
  n: number;
  dim: number;
  /** The final inputs after `epochs` updates, N × D row-major (encoded space). */
  encoded: Float32Array;
  /** The final inputs with every one-hot group snapped to its arg-max. */
  snapped: Float32Array;
  /** P(prefer) at the final inputs. */
  pred: Float64Array;
  /** P(prefer) at the snapped final inputs. */
  predSnapped: Float64Array;
  /** Decoded final inputs (numerics in original units, categoricals by arg-max) plus columns pred and pred_snapped. */
  table: Table;
  /** Mean per-sample loss at each epoch, before that epoch's update. */
  loss: Float64Array;
  trace?: LucidTrace;
  /** Wall time of the descent (initialisation to the last update), milliseconds. */
  ms: number;
}

export const LUCID_DEFAULTS = {
  n: 1000,
  epochs: 200,
  lr: 0.1,
  init: { low: -1, high: 1 },
  loss: 'prob-ce' as LucidLoss,
  seed: 0,
};

const RESERVED = ['pred', 'pred_snapped', 'sample', 'epoch'];

/** The per-sample loss summed over the batch, from the (N, 1) logit z of P(positive). */
export function lucidLoss(z: Tensor, preference: Preference, loss: LucidLoss): Tensor {
  const s = preference.positive ? z : o.neg(z); // logit of P(prefer)
  if (loss === 'logit-ce') return o.sum(o.softplus(o.neg(s)));
  // CrossEntropyLoss(softmax-probabilities [1 − p, p], target "prefer") = softplus((1 − p) − p)
  return o.sum(o.softplus(o.sub(1, o.mul(o.sigmoid(s), 2))));
}

const sigmoid = (z: number) => 1 / (1 + fdexp(-z));

/** P(prefer) of n encoded rows through the model (one batch, no graph). */
export function preferProbability(
  engine: Engine,
  model: LucidModel,
  x: Float32Array,
  n: number,
  preference: Preference,
): Float64Array {
  return objectiveValues(engine, model, x, n, preferObjective(preference, 'prob-ce'));
}

/**
 * The loss of each sample and its gradient with respect to the input (for checks and tools):
 * one forward and one backward of the batch.
 */
export function inputGradient(
  engine: Engine,
  model: LucidModel,
  x: Float32Array,
  n: number,
  prefer: string,
  loss: LucidLoss = 'prob-ce',
): { loss: number; grad: Float32Array } {
  const preference = resolvePreference(model, prefer);
  const d = model.preprocessor.dim;
  return engine.scope(() => {
    const xt = engine.tensor(x, [n, d]);
    xt.requiresGrad = true;
    const l = lucidLoss(model.logits(xt), preference, loss);
    const [g] = grad(l, [xt]);
    return { loss: l.item(), grad: g.toArray() };
  });
}

function validate(opts: InvertOptions) {
  const n = opts.n ?? LUCID_DEFAULTS.n;
  const epochs = opts.epochs ?? LUCID_DEFAULTS.epochs;
  const lr = opts.lr ?? LUCID_DEFAULTS.lr;
  const init = opts.init ?? LUCID_DEFAULTS.init;
  const loss = opts.loss ?? LUCID_DEFAULTS.loss;
  const seed = opts.seed ?? LUCID_DEFAULTS.seed;
  check(Number.isSafeInteger(n) && n > 0, 'E_ARG', () => `invert: n must be a positive integer, got ${n}`);
  checkLucidEpochs(epochs);
  check(Number.isFinite(lr) && lr > 0, 'E_ARG', () => `invert: lr must be a positive number, got ${lr}`);
  check(
    Number.isFinite(init.low) && Number.isFinite(init.high) && init.low < init.high,
    'E_ARG',
    () => `invert: init range must be finite with low < high, got [${init.low}, ${init.high}]`,
  );
  check(
    loss === 'prob-ce' || loss === 'logit-ce',
    'E_ARG',
    () => `invert: loss must be prob-ce or logit-ce, got ${String(loss)}`,
  );
  check(
    Number.isSafeInteger(seed) && seed >= 0,
    'E_ARG',
    () => `invert: seed must be a non-negative integer, got ${seed}`,
  );
  const te = opts.traceEvery;
  check(
    te === undefined || (Number.isSafeInteger(te) && te >= 0),
    'E_ARG',
    () => `invert: traceEvery must be a non-negative integer, got ${te}`,
  );
  return { n, epochs, lr, init, loss, seed, traceEvery: te === undefined ? undefined : te === 0 ? epochs : te };
}

/** LUCID's epochs of descent: a positive integer. */
export function checkLucidEpochs(epochs: number): void {
  check(
    Number.isSafeInteger(epochs) && epochs > 0,
    'E_ARG',
    () => `invert: epochs must be a positive integer, got ${epochs}`,
  );
}

/**
 * What a descent pulls towards, over the model's raw outputs z = model.logits(x), (N, width) row-major: one logit
 * (binary), k logits (multiclass) or one standardised value (regression).
 */
export interface LucidObjective {
  /** outputs per row of model.logits */
  width: number;
  /** (N, width) raw outputs → the per-sample loss summed over the batch (so each sample follows its own path) */
  loss(z: Tensor): Tensor;
  /** the output reported for sample i (columns pred, pred_snapped, the trace's pred) from the raw outputs z */
  value(z: ArrayLike<number>, i: number): number;
}

/** A descent's result, whatever its objective. */
export type Descent = Omit<InvertResult, 'preference'>;

/** The binary objective: P(prefer) = 1 under `loss`; the reported output is P(prefer). */
function preferObjective(preference: Preference, loss: LucidLoss): LucidObjective {
  return {
    width: 1,
    loss: (z) => lucidLoss(z, preference, loss),
    value: (z, i) => sigmoid(preference.positive ? z[i] : -z[i]),
  };
}

/**
 * Runs LUCID on a differentiable binary classifier.
 * @example const r = invert(engine, model, { prefer: '>50K', n: 1000 }); // r.table: the canonical set
 */
export function invert(engine: Engine, model: LucidModel, opts: InvertOptions): InvertResult {
  const v = validate(opts);
  check(
    (model.kind ?? 'binary') === 'binary',
    'E_ARG',
    () => `invert: the model is a ${model.kind} model; --prefer reads a binary classifier (invert towards a target)`,
  );
  const preference = resolvePreference(model, opts.prefer);
  return { preference, ...descend(engine, model, opts, v, preferObjective(preference, v.loss)) };
}

/** Checks and defaults of the options a descent of any objective reads (everything but prefer and loss). */
export function descentOptions(opts: Omit<InvertOptions, 'prefer'>): ReturnType<typeof validate> {
  return validate({ ...opts, prefer: '' });
}

/**
 * LUCID's descent towards `objective` (checked options `v`; `opts` for the constraints and rounding), with the
 * output columns pred and pred_snapped (and `extra` columns after them, whose names are reserved too).
 *
 * `extra.refine` > 0 adds a second phase after the `epochs` steps: every one-hot group is snapped to its arg-max and
 * held there while the numeric inputs take `refine` more steps (their gradient only, the same constraints), so that a
 * narrow target (a band, a middle class) reached by fractional one-hot inputs is reached again by valid ones. The loss
 * curve and the trace run on through it (epochs `epochs` + 1 … `epochs` + `refine`). Binary invert has none.
 */
export function descend(
  engine: Engine,
  model: LucidModel,
  opts: Omit<InvertOptions, 'prefer'>,
  v: ReturnType<typeof validate>,
  objective: LucidObjective,
  extra?: {
    names?: readonly string[];
    columns?(encoded: Float32Array, snapped: Float32Array): Column[];
    refine?: number;
  },
): Descent {
  const { n, lr, init, seed, traceEvery } = v;
  const first = v.epochs;
  const refine = extra?.refine ?? 0;
  const epochs = first + refine;
  const pre = model.preprocessor;
  checkGroups(pre);
  const d = pre.dim;
  const featureNames = pre.groups.map((g) => g.name);
  for (const r of [...RESERVED, ...(extra?.names ?? [])]) {
    check(
      !featureNames.includes(r),
      'E_INPUT',
      () => `invert: the model has a feature named "${r}", which the output needs for its own column`,
    );
  }
  const groups = pre.groups;
  const hasCategorical = groups.some((g) => g.kind === 'categorical');
  const k = engine.k;
  const w = objective.width;

  const logged = (e: number) => traceEvery !== undefined && (e === 1 || e % traceEvery === 0);
  const traceX: Float32Array[] = [];
  const tracePred: Float64Array[] = [];
  const traceEpochs: number[] = [];
  const lossCurve = new Float64Array(epochs);

  const t0 = now();
  const x = engine.empty([n, d]); // heap: lives across the steps' scopes
  const bounds = opts.clip ? clipBounds(engine, groups, d, opts.bounds) : null;
  let numericOnly: Tensor | null = null;
  try {
    // Starting points U[low, high) from the seeded generator (row i is the same for every n).
    new Rng(engine, seed).fill('rng_uniform', x);
    k.f32_scale(x.ptr, x.ptr, init.high - init.low, x.size);
    k.f32_binary_scalar(BinOp.add, 0, x.ptr, x.ptr, init.low, x.size);
    const constrain = () => {
      if (bounds) {
        k.f32_binary_rows(BinOp.max, 0, x.ptr, x.ptr, bounds.lo.ptr, n, d);
        k.f32_binary_rows(BinOp.min, 0, x.ptr, x.ptr, bounds.hi.ptr, n, d);
      }
      if (opts.projectOneHot && hasCategorical) projectSimplex(x.data, n, d, groups);
    };
    constrain();

    // the second phase's gradient mask: 1 on numeric inputs, 0 on one-hot ones (1, D)
    if (refine > 0) numericOnly = numericMask(engine, groups, d);
    for (let e = 1; e <= epochs; e++) {
      if (e === first + 1) snapOneHot(x.data, n, d, groups);
      engine.scope(() => {
        const xv = x.detach();
        xv.requiresGrad = true;
        const z = model.logits(xv);
        check(
          z.size === n * w,
          'E_SHAPE',
          () => `invert: the model's logits have shape [${z.shape}], expected [${n},${w}]`,
        );
        const l = objective.loss(z);
        lossCurve[e - 1] = l.item() / n;
        if (logged(e)) {
          traceEpochs.push(e);
          traceX.push(x.toArray());
          const zv = z.data;
          const p = new Float64Array(n);
          for (let i = 0; i < n; i++) p[i] = objective.value(zv, i);
          tracePred.push(p);
        }
        const [g] = grad(l, [xv]);
        if (e > first) k.f32_binary_rows(BinOp.mul, 0, g.ptr, g.ptr, numericOnly!.ptr, n, d);
        k.f32_axpy(x.ptr, g.ptr, -lr, x.size);
        if (e > first) {
          if (bounds) {
            k.f32_binary_rows(BinOp.max, 0, x.ptr, x.ptr, bounds.lo.ptr, n, d);
            k.f32_binary_rows(BinOp.min, 0, x.ptr, x.ptr, bounds.hi.ptr, n, d);
          }
        } else constrain();
      });
    }
    const ms = now() - t0;
    const encoded = x.toArray();
    check(
      encoded.every(Number.isFinite),
      'E_VALUE',
      () => 'invert: the inputs diverged to a non-finite value; lower --lr or use --clip',
    );
    const snapped = encoded.slice();
    snapOneHot(snapped, n, d, groups);
    const pred = objectiveValues(engine, model, encoded, n, objective);
    const predSnapped = objectiveValues(engine, model, snapped, n, objective);
    const decoded = pre.decode(encoded, n, { round: opts.round === true });
    const table: Table = {
      rows: n,
      columns: [
        ...decoded.columns,
        num('pred', pred),
        num('pred_snapped', predSnapped),
        ...(extra?.columns ? extra.columns(encoded, snapped) : []),
      ],
    };
    const result: Descent = { n, dim: d, encoded, snapped, pred, predSnapped, table, loss: lossCurve, ms };
    if (traceEvery !== undefined)
      result.trace = buildTrace(engine, model, objective, n, d, traceEpochs, traceX, tracePred, epochs);
    return result;
  } finally {
    x.dispose();
    bounds?.lo.dispose();
    bounds?.hi.dispose();
    numericOnly?.dispose();
  }
}

/** The model's raw outputs of n encoded rows, (n, width) row-major (one batch, no graph). */
export function rawOutputs(engine: Engine, model: LucidModel, x: Float32Array, n: number): Float32Array {
  const d = model.preprocessor.dim;
  check(x.length === n * d, 'E_SHAPE', () => `invert: ${x.length} values are not ${n} rows of ${d} inputs`);
  if (n === 0) return new Float32Array(0);
  return engine.scope(() => engine.noGrad(() => model.logits(engine.tensor(x, [n, d])).toArray()));
}

/** The objective's output of n encoded rows through the model (one batch, no graph). */
function objectiveValues(
  engine: Engine,
  model: LucidModel,
  x: Float32Array,
  n: number,
  objective: LucidObjective,
): Float64Array {
  const d = model.preprocessor.dim;
  check(x.length === n * d, 'E_SHAPE', () => `invert: ${x.length} values are not ${n} rows of ${d} inputs`);
  const out = new Float64Array(n);
  if (n === 0) return out;
  engine.scope(() =>
    engine.noGrad(() => {
      const z = model.logits(engine.tensor(x, [n, d])).data;
      for (let i = 0; i < n; i++) out[i] = objective.value(z, i);
    }),
  );
  return out;
}

function numericMask(engine: Engine, groups: readonly LucidFeatureGroup[], d: number): Tensor {
  const m = new Float32Array(d);
  for (const g of groups) if (g.kind === 'numeric') m[g.start] = 1;
  return engine.tensor(m, [1, d]);
}

function clipBounds(
  engine: Engine,
  groups: readonly LucidFeatureGroup[],
  d: number,
  given?: Record<string, readonly [number, number]>,
): { lo: Tensor; hi: Tensor } {
  const lo = new Float32Array(d);
  const hi = new Float32Array(d);
  for (const g of groups) {
    for (let j = g.start; j < g.start + g.width; j++) {
      lo[j] = g.kind === 'numeric' ? -1 : 0;
      hi[j] = 1;
    }
    const b = given?.[g.name];
    if (g.kind === 'numeric' && b) {
      check(
        g.min !== undefined && g.max !== undefined,
        'E_ARG',
        () => `invert: bounds for "${g.name}" need the encoding's min and max, which the model does not give`,
      );
      // x ↦ 2(x − min)/(max − min) − 1, as the encoding (a constant feature maps to −1)
      const span = g.max! - g.min! || 1;
      lo[g.start] = Math.fround((2 * (b[0] - g.min!)) / span - 1);
      hi[g.start] = Math.fround((2 * (b[1] - g.min!)) / span - 1);
    }
  }
  return { lo: engine.tensor(lo, [1, d]), hi: engine.tensor(hi, [1, d]) };
}

function buildTrace(
  engine: Engine,
  model: LucidModel,
  objective: LucidObjective,
  n: number,
  d: number,
  epochs: number[],
  xs: Float32Array[],
  preds: Float64Array[],
  total: number,
): LucidTrace {
  // The reference's extra epoch: the last LOGGED row, snapped to one-hot and evaluated again.
  const extra = xs[xs.length - 1].slice();
  snapOneHot(extra, n, d, model.preprocessor.groups);
  xs.push(extra);
  preds.push(objectiveValues(engine, model, extra, n, objective));
  epochs.push(total + 1);
  const L = epochs.length;
  const encoded = new Float32Array(n * L * d);
  const pred = new Float64Array(n * L);
  const sample = new Float64Array(n * L);
  const epoch = new Float64Array(n * L);
  for (let i = 0; i < n; i++) {
    for (let l = 0; l < L; l++) {
      const r = i * L + l;
      encoded.set(xs[l].subarray(i * d, (i + 1) * d), r * d);
      pred[r] = preds[l][i];
      sample[r] = i;
      epoch[r] = epochs[l];
    }
  }
  const decoded = model.preprocessor.decode(encoded, n * L);
  const table: Table = {
    rows: n * L,
    columns: [num('sample', sample), num('epoch', epoch), ...decoded.columns, num('pred', pred)],
  };
  return { epochs, encoded, pred, table };
}

const num = (name: string, values: Float64Array): Column => ({ kind: 'numeric', name, values });

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
