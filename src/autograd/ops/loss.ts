// Losses, all composed of differentiable ops.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import { defineOp } from '../tape.js';
import { add, clampMin, div, log, mul, neg, softplus, sqrt, square, sub } from './elementwise.js';
import { mean } from './mean.js';
import { sum } from './reduce.js';
import { logSoftmax } from './softmax.js';

export type Reduction = 'mean' | 'sum' | 'none';

/** Class targets: indices (one per row) or a (N, C) tensor of target probabilities. */
export type Target = Tensor | ArrayLike<number>;

function targetMatrix(op: string, target: Target, n: number, c: number, like: Tensor): Tensor {
  if (!(target instanceof Object && 'shape' in target)) {
    const idx = target as ArrayLike<number>;
    check(idx.length === n, 'E_SHAPE', () => `${op}: ${idx.length} targets for ${n} rows`);
    const t = like.engine.zeros([n, c]);
    const v = t.data;
    for (let i = 0; i < n; i++) {
      const k = idx[i];
      check(
        Number.isInteger(k) && k >= 0 && k < c,
        'E_ARG',
        () => `${op}: target ${i} is ${k}, not a class index in [0, ${c})`,
      );
      v[i * c + k] = 1;
    }
    return t;
  }
  const t = target as Tensor;
  check(
    t.rank === 2 && t.shape[0] === n && t.shape[1] === c,
    'E_SHAPE',
    () => `${op}: target [${t.shape}] does not match input [${n},${c}]`,
  );
  return t;
}

function reduce(x: Tensor, reduction: Reduction): Tensor {
  return reduction === 'none' ? x : reduction === 'sum' ? sum(x) : mean(x);
}

/** Cross-entropy of logits (N, C) against class indices or target probabilities: −Σ_c t_c log softmax(x)_c per row. */
export function crossEntropy(logits: Tensor, target: Target, reduction: Reduction = 'mean'): Tensor {
  check(logits.rank === 2, 'E_SHAPE', () => `crossEntropy: logits must be (N, C), got [${logits.shape}]`);
  const [n, c] = logits.shape;
  const t = targetMatrix('crossEntropy', target, n, c, logits);
  return reduce(neg(sum(mul(t, logSoftmax(logits)), 1)), reduction);
}

/** Cross-entropy of probabilities (N, C) (clamped at 1e-12 before the log) against indices or target probabilities. */
export function crossEntropyProbs(probs: Tensor, target: Target, reduction: Reduction = 'mean'): Tensor {
  check(probs.rank === 2, 'E_SHAPE', () => `crossEntropyProbs: probs must be (N, C), got [${probs.shape}]`);
  const [n, c] = probs.shape;
  const t = targetMatrix('crossEntropyProbs', target, n, c, probs);
  return reduce(neg(sum(mul(t, log(clampMin(probs, 1e-12))), 1)), reduction);
}

const sameShape = (op: string, a: Tensor, b: Tensor) =>
  check(
    a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]),
    'E_SHAPE',
    () => `${op}: input [${a.shape}] and target [${b.shape}] differ`,
  );

/** Binary cross-entropy on logits: softplus(x) − x·y, stable for any x. */
export function bceWithLogits(logits: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  sameShape('bceWithLogits', logits, target);
  return reduce(sub(softplus(logits), mul(logits, target)), reduction);
}

/** Binary cross-entropy on probabilities (clamped to [1e-12, 1 − 1e-12] inside the logs). */
export function bce(probs: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  sameShape('bce', probs, target);
  const pos = mul(target, log(clampMin(probs, 1e-12)));
  const negative = mul(sub(1, target), log(clampMin(sub(1, probs), 1e-12)));
  return reduce(neg(add(pos, negative)), reduction);
}

/** Mean squared error. */
export function mse(input: Tensor, target: Tensor, reduction: Reduction = 'mean'): Tensor {
  sameShape('mse', input, target);
  return reduce(square(sub(input, target)), reduction);
}

// ‖x_i‖ per row. The gradient x/‖x‖ is written with a floor on the norm so that a zero row gets
// gradient 0 (torch's choice) instead of 0/0; it is still an expression in ops, so twice-differentiable.
const RowNorm = defineOp<undefined>({
  name: 'rowNorm',
  forward: (_ctx, [x]) => x.engine.noGrad(() => sqrt(sum(square(x), 1, true))),
  backward: (ctx, dy) => [mul(dy, div(ctx.inputs[0], clampMin(ctx.out, 1e-30)))],
});

/** Euclidean norm of each row of a (N, D) tensor → (N, 1). */
export function rowNorm(x: Tensor): Tensor {
  check(x.rank === 2, 'E_SHAPE', () => `rowNorm: x must be (N, D), got [${x.shape}]`);
  return RowNorm([x], undefined);
}
