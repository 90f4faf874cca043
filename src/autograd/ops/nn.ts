// Neural-network ops: batch normalisation and dropout.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import type { Rng } from '../../engine/rng.js';
import { BinOp, UnOp } from '../../engine/wasm.js';
import { defineOp } from '../tape.js';
import { add, mul, sub } from './elementwise.js';

type BnAttrs = { eps: number };

// Training-mode batch norm over the rows of x (N, D) with the batch statistics mean/var (D)
// computed by the caller. Forward and backward are fused kernels; the backward is first-order
// only (twice: false), which CTGAN's generator needs and the critic's penalty path never reaches.
const BatchNormTrain = defineOp<BnAttrs>({
  name: 'batchNorm',
  twice: false,
  forward(ctx, [x, gamma, beta, mean, variance], { eps }) {
    const e = x.engine;
    const [n, d] = x.shape;
    const y = e.empty([n, d]);
    const xhat = e.empty([n, d]);
    const invstd = e.empty([d]);
    e.k.f32_bn_fwd(y.ptr, xhat.ptr, invstd.ptr, x.ptr, mean.ptr, variance.ptr, gamma.ptr, beta.ptr, eps, n, d);
    ctx.saved.push(xhat, invstd);
    return y;
  },
  backward(ctx, dy) {
    const e = dy.engine;
    const [x, gamma] = ctx.inputs;
    const [xhat, invstd] = ctx.saved;
    const [n, d] = x.shape;
    const dx = e.empty([n, d]);
    const dgamma = e.empty([d]);
    const dbeta = e.empty([d]);
    e.k.f32_bn_bwd(dx.ptr, dgamma.ptr, dbeta.ptr, dy.ptr, xhat.ptr, invstd.ptr, gamma.ptr, n, d);
    return [dx, dgamma, dbeta, null, null];
  },
});

export interface BatchNormResult {
  y: Tensor;
  /** Batch mean (D) and biased batch variance (D), for the running statistics. */
  mean: Tensor;
  variance: Tensor;
}

/** Batch norm with batch statistics: y = (x − mean) / √(var + eps) · gamma + beta. x: (N, D), gamma/beta: (D). */
export function batchNormTrain(x: Tensor, gamma: Tensor, beta: Tensor, eps = 1e-5): BatchNormResult {
  check(x.rank === 2, 'E_SHAPE', () => `batchNorm: x must be (N, D), got [${x.shape}]`);
  const [n, d] = x.shape;
  check(n > 1, 'E_SHAPE', () => `batchNorm: training mode needs more than one row per batch, got ${n}`);
  check(
    gamma.size === d && beta.size === d,
    'E_SHAPE',
    () => `batchNorm: gamma/beta must have ${d} elements, got ${gamma.size}/${beta.size}`,
  );
  const e = x.engine;
  const mean = e.empty([d]);
  const variance = e.empty([d]);
  e.k.f32_bn_stats(mean.ptr, variance.ptr, x.ptr, n, d);
  const y = BatchNormTrain([x, gamma, beta, mean, variance], { eps });
  return { y, mean, variance };
}

/** Batch norm with fixed (running) statistics; composed of ops, so differentiable to any order. */
export function batchNormEval(
  x: Tensor,
  gamma: Tensor,
  beta: Tensor,
  runningMean: Tensor,
  runningVar: Tensor,
  eps = 1e-5,
): Tensor {
  check(
    x.rank === 2 && gamma.size === x.shape[1],
    'E_SHAPE',
    () => `batchNorm: x [${x.shape}] does not match ${gamma.size} features`,
  );
  const e = x.engine;
  const invstd = e.empty([x.shape[1]]);
  e.k.f32_binary_scalar(BinOp.add, 0, invstd.ptr, runningVar.ptr, eps, invstd.size);
  e.k.f32_unary(UnOp.sqrt, invstd.ptr, invstd.ptr, invstd.size);
  e.k.f32_unary(UnOp.reciprocal, invstd.ptr, invstd.ptr, invstd.size);
  return add(mul(mul(sub(x, runningMean.detach()), invstd), gamma), beta);
}

/** The dropout mask: 1/(1−p) with probability 1−p, else 0 (a constant for autodiff). */
export function dropoutMask(rng: Rng, shape: readonly number[], p: number): Tensor {
  check(p >= 0 && p < 1, 'E_ARG', () => `dropout: p must be in [0, 1), got ${p}`);
  const u = rng.uniform(shape);
  rng.engine.k.f32_dropout_mask(u.ptr, u.ptr, p, u.size);
  return u;
}

/** x ⊙ mask with a seeded mask (training) — differentiable to any order since the mask is constant. */
export function dropout(x: Tensor, p: number, rng: Rng): Tensor {
  if (p === 0) return x;
  return mul(x, dropoutMask(rng, x.shape, p));
}
