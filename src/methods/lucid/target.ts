// LUCID towards a target of a model that is not a binary decision (issue #40): a class of a multiclass model, a band
// (or one value) of a regressor's prediction, or a band of a binary classifier's probability read as a score. The
// descent, its constraints and its output are invert's (invert.ts: descend); only the loss and the success differ.
// Core code: no Node imports.
//
// Losses, per sample, summed over the batch (each sample follows its own path, as in invert):
//   class c     −log softmax(z)_c, the class's cross-entropy on the k logits z;
//   band lo–hi  the squared distance of the model's raw output to the band (0 inside it), in the units the network
//               works in, so that the default learning rate fits whatever the label's units: a regressor's
//               standardised value ((y − mean) / sd), a probability's logit. A value v is the band [v, v].
import * as o from '../../autograd/ops/index.js';
import type { Engine, Tensor } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import { exp as fdexp, log as fdlog } from '../../engine/fdlibm.js';
import { inTarget, type OutputTarget } from '../metrics/targets.js';
import {
  descend,
  descentOptions,
  rawOutputs,
  type Descent,
  type InvertOptions,
  type LucidObjective,
} from './invert.js';
import type { LucidModel } from './model.js';

/**
 * A value target (a band [v, v]) is met within this share of the label's training standard deviation (regression),
 * or within this much probability (a classifier read as a score): a descent cannot land on a real number exactly.
 */
export const VALUE_TOLERANCE = { regressionSd: 0.1, probability: 0.01 } as const;

/** The most a band is narrowed on each side for the pull, in the network's units (a tenth of an sd, of a logit). */
const BAND_MARGIN = 0.1;

export interface TargetInvertOptions extends Omit<InvertOptions, 'prefer' | 'loss'> {
  /** the class or the band (in the output's units) to invert towards; a 'rest' target is refused */
  target: OutputTarget;
  /**
   * steps of the second phase, on the numeric inputs with every one-hot group snapped and held (default: as many as
   * `epochs`; 0 = none): the first phase reaches the target with fractional one-hot inputs, which snapping can undo
   */
  refine?: number;
  /**
   * how far outside the band (output units) a snapped output still counts as in it; default 0 for a band and
   * VALUE_TOLERANCE for a value (lo = hi)
   */
  tolerance?: number;
}

export interface TargetInvertResult extends Descent {
  target: OutputTarget;
  /**
   * what the model's output is read as: a class, a regressor's value, or a binary classifier's P(positive) as a score
   */
  output: 'multiclass' | 'regression' | 'score';
  /** the slack of the success test (output units; 0 for a class) */
  tolerance: number;
  /** per sample, 1 when its snapped output is in the target: the arg-max is the class, or the value in the band */
  hit: Uint8Array;
  /** the share of samples in the target after snapping */
  success: number;
}

/**
 * Why `model` cannot be inverted towards `target` (null when it can): a 'rest' target, or a target that does not fit
 * the model's output (a class needs a multiclass model, a band a regressor or a binary classifier read as a score).
 */
export function targetMismatch(model: LucidModel, target: OutputTarget): string | null {
  const kind = model.kind ?? 'binary';
  if (target.kind === 'rest')
    return (
      `the target "${target.label}" is the rest of another target, no one class or band a descent can pull ` +
      `towards; invert towards "${target.of.label}" instead`
    );
  if (target.kind === 'class') {
    if (kind !== 'multiclass') return `a class target needs a multiclass model; the model is ${kind}`;
    const classes = model.classes ?? [];
    if (classes[target.index] !== target.class)
      return `"${target.class}" is not a class of the model; its classes are: ${classes.join(', ')}`;
    return null;
  }
  if (kind === 'multiclass') return 'a band reads a real value or a score; the model is multiclass: name a class';
  if (kind === 'regression' && !model.target) return 'the regressor records no label standardisation';
  if (kind === 'binary' && (target.hi < 0 || target.lo > 1))
    return `the band [${target.lo}, ${target.hi}] lies outside [0, 1], the probabilities of a binary classifier`;
  return null;
}

/**
 * LUCID towards a class or a band: gradient descent on the model's input from uniform random starts (the options of
 * `invert`, but `prefer` and `loss`). Success is the share of samples whose output, with every one-hot group snapped to
 * its arg-max, is in the target (a value within the tolerance).
 * @example invertTowards(engine, model, { target: classTarget('b', model.classes, 'invert'), n: 500 })
 */
export function invertTowards(engine: Engine, model: LucidModel, opts: TargetInvertOptions): TargetInvertResult {
  const v = descentOptions(opts);
  const { target } = opts;
  const why = targetMismatch(model, target);
  if (why !== null) throw new EngineError('E_ARG', `invert: ${why}`);
  const n = v.n;
  if (target.kind === 'class') {
    const k = model.classes!.length;
    const c = target.index;
    const idx = new Int32Array(n).fill(c);
    const objective: LucidObjective = {
      width: k,
      loss: (z) => o.crossEntropy(z, idx, 'sum'),
      value: (z, i) => softmaxAt(z, i * k, k, c),
    };
    const r = descend(engine, model, opts, v, objective, {
      refine: refineOf(opts, v.epochs),
      names: ['class_snapped'],
      columns: (_e, snapped) => [
        {
          kind: 'categorical',
          name: 'class_snapped',
          codes: argmaxRows(rawOutputs(engine, model, snapped, n), n, k),
          categories: model.classes!.slice(),
        },
      ],
    });
    const cls = r.table.columns[r.table.columns.length - 1];
    const hit = new Uint8Array(n);
    if (cls.kind === 'categorical') for (let i = 0; i < n; i++) hit[i] = cls.codes[i] === c ? 1 : 0;
    return finish(r, target, 'multiclass', 0, hit);
  }
  if (target.kind !== 'band') throw new EngineError('E_ARG', 'invert: a rest target cannot be inverted towards');
  const regression = model.kind === 'regression';
  const scale = model.target ?? { mean: 0, sd: 1 };
  // the band in the network's own units: a regressor's standardised value, a probability's logit
  const toRaw = regression ? (y: number) => (y - scale.mean) / scale.sd : logit;
  const lo = toRaw(target.lo);
  const hi = toRaw(target.hi);
  // The pull stops at the band's edge and approaches it from outside, never crossing it; so it aims at the band less
  // a margin on each side (a tenth of its width, at most BAND_MARGIN raw units), and an output that comes within the
  // margin of that inner band is in the band. A value (lo = hi) has no margin: its tolerance does that work.
  const m = Math.min(BAND_MARGIN, (hi - lo) / 10);
  const objective: LucidObjective = {
    width: 1,
    loss: (z) => bandLoss(z, lo + m, hi - m),
    value: regression ? (z, i) => z[i] * scale.sd + scale.mean : (z, i) => 1 / (1 + fdexp(-z[i])),
  };
  const tol =
    opts.tolerance ??
    (target.lo === target.hi
      ? regression
        ? VALUE_TOLERANCE.regressionSd * scale.sd
        : VALUE_TOLERANCE.probability
      : 0);
  check(Number.isFinite(tol) && tol >= 0, 'E_ARG', () => `invert: tolerance must be a number ≥ 0, got ${tol}`);
  const r = descend(engine, model, opts, v, objective, { refine: refineOf(opts, v.epochs) });
  const hit = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const y = r.predSnapped[i];
    // in the band as the audit reads it (an open end takes every output beyond it), or within the value's tolerance
    hit[i] = inTarget(target, y) || (y >= target.lo - tol && y <= target.hi + tol) ? 1 : 0;
  }
  return finish(r, target, regression ? 'regression' : 'score', tol, hit);
}

function refineOf(opts: TargetInvertOptions, epochs: number): number {
  const r = opts.refine ?? epochs;
  check(Number.isSafeInteger(r) && r >= 0, 'E_ARG', () => `invert: refine must be a non-negative integer, got ${r}`);
  return r;
}

function finish(
  r: Descent,
  target: OutputTarget,
  output: TargetInvertResult['output'],
  tolerance: number,
  hit: Uint8Array,
): TargetInvertResult {
  let ok = 0;
  for (const h of hit) ok += h;
  return { ...r, target, output, tolerance, hit, success: ok / hit.length };
}

/**
 * Σ_i d(z_i, [lo, hi])²: relu(lo − z)² + relu(z − hi)², an infinite end dropped (a probability band reaching 0 or 1).
 */
function bandLoss(z: Tensor, lo: number, hi: number): Tensor {
  const below = Number.isFinite(lo) ? o.sum(o.square(o.relu(o.sub(lo, z)))) : null;
  const above = Number.isFinite(hi) ? o.sum(o.square(o.relu(o.sub(z, hi)))) : null;
  if (below && above) return o.add(below, above);
  // a band [0, 1] of a probability holds every output: a zero loss that still reaches the input
  return below ?? above ?? o.sum(o.mul(z, 0));
}

/** log(p / (1 − p)), ±∞ at and beyond 0 and 1. */
function logit(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  return fdlog(p) - fdlog(1 - p);
}

/** softmax(z[at … at+k))_c, shifted by the row's maximum. */
function softmaxAt(z: ArrayLike<number>, at: number, k: number, c: number): number {
  let m = -Infinity;
  for (let j = 0; j < k; j++) m = Math.max(m, z[at + j]);
  let s = 0;
  for (let j = 0; j < k; j++) s += fdexp(z[at + j] - m);
  return fdexp(z[at + c] - m) / s;
}

/** The arg-max (first maximum) of each row of an (n, k) row-major matrix: the model's predicted class. */
function argmaxRows(z: Float32Array, n: number, k: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (z[i * k + j] > z[i * k + best]) best = j;
    out[i] = best;
  }
  return out;
}
