// Layers: modules that own parameters and compose ops. No layer has a backward of its own.
import type { Tensor } from '../engine/engine.js';
import { check } from '../engine/errors.js';
import type { Rng } from '../engine/rng.js';
import {
  batchNormEval,
  batchNormTrain,
  concat,
  dropout,
  leakyRelu,
  linear,
  relu,
  tanh,
} from '../autograd/ops/index.js';
import { Module, type Param } from './module.js';

/** y = x·Wᵀ + b; torch's layout and default initialisation U(±1/√in). x: (N, in) → (N, out). */
export class Linear extends Module {
  readonly W: Param;
  readonly b: Param | null;
  constructor(
    readonly inFeatures: number,
    readonly outFeatures: number,
    bias = true,
  ) {
    super();
    check(
      Number.isInteger(inFeatures) && inFeatures > 0 && Number.isInteger(outFeatures) && outFeatures > 0,
      'E_ARG',
      () => `Linear: feature counts must be positive integers, got ${inFeatures} → ${outFeatures}`,
    );
    const bound = 1 / Math.sqrt(inFeatures);
    this.W = this.param('weight', [outFeatures, inFeatures], { kind: 'uniform', bound });
    this.b = bias ? this.param('bias', [outFeatures], { kind: 'uniform', bound }) : null;
  }
  forward(x: Tensor): Tensor {
    return linear(x, this.W.tensor, this.b?.tensor);
  }
}

/**
 * BatchNorm1d as torch: training mode normalises with batch statistics and updates the running
 * statistics (momentum 0.1, unbiased variance); eval mode uses the running statistics.
 */
export class BatchNorm1d extends Module {
  readonly gamma: Param;
  readonly beta: Param;
  readonly runningMean: Param;
  readonly runningVar: Param;
  constructor(
    readonly features: number,
    readonly eps = 1e-5,
    readonly momentum = 0.1,
  ) {
    super();
    this.gamma = this.param('weight', [features], { kind: 'const', value: 1 });
    this.beta = this.param('bias', [features], { kind: 'const', value: 0 });
    this.runningMean = this.buffer('running_mean', [features], 0);
    this.runningVar = this.buffer('running_var', [features], 1);
  }
  forward(x: Tensor): Tensor {
    if (!this.training) {
      return batchNormEval(
        x,
        this.gamma.tensor,
        this.beta.tensor,
        this.runningMean.tensor,
        this.runningVar.tensor,
        this.eps,
      );
    }
    const { y, mean, variance } = batchNormTrain(x, this.gamma.tensor, this.beta.tensor, this.eps);
    const k = x.engine.k;
    const n = x.shape[0];
    const m = this.momentum;
    const rm = this.runningMean.tensor;
    const rv = this.runningVar.tensor;
    // running = (1 − m)·running + m·batch, with the unbiased variance as torch does.
    k.f32_scale(rm.ptr, rm.ptr, 1 - m, rm.size);
    k.f32_axpy(rm.ptr, mean.ptr, m, rm.size);
    k.f32_scale(rv.ptr, rv.ptr, 1 - m, rv.size);
    k.f32_axpy(rv.ptr, variance.ptr, (m * n) / (n - 1), rv.size);
    return y;
  }
}

/** Dropout with a seeded mask in training mode; identity in eval mode. */
export class Dropout extends Module {
  constructor(readonly p: number) {
    super();
    check(p >= 0 && p < 1, 'E_ARG', () => `Dropout: p must be in [0, 1), got ${p}`);
  }
  forward(x: Tensor, rng: Rng): Tensor {
    return this.training ? dropout(x, this.p, rng) : x;
  }
}

/** CTGAN's residual block: out = concat(relu(bn(linear(x))), x). (N, in) → (N, out + in). */
export class Residual extends Module {
  readonly fc: Linear;
  readonly bn: BatchNorm1d;
  constructor(
    readonly inFeatures: number,
    readonly outFeatures: number,
  ) {
    super();
    this.fc = this.child('fc', new Linear(inFeatures, outFeatures));
    this.bn = this.child('bn', new BatchNorm1d(outFeatures));
  }
  forward(x: Tensor): Tensor {
    return concat([relu(this.bn.forward(this.fc.forward(x))), x], 1);
  }
}

export { leakyRelu, relu, tanh };
