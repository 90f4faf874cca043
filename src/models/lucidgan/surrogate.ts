// The prediction-consistency surrogate (LUCID-GAN's default mode; `--paper` turns it off).
//
// Before GAN training, a small MLP s(x) (D → hidden → 1, ReLU) is fitted to the audited model's
// predictions on the GAN's own training rows: x is the transformed row in the GAN's data space
// (tanh scalars, one-hot modes, one-hot categories), the target the condition value in [0, 1]
// (soft targets, binary cross-entropy on logits, Adam, seeded shuffles, Gaussian input noise). It needs only the
// predictions the GAN is given, never the model. During training it stays fixed, and the generator
// loss gains λ·BCE(sigmoid(s(fake)), c): generated rows are pushed to be scored as conditioned.
//
// Core code: no Node imports. Its draws come from its own Rng (seeded from the GAN's seed), so the
// GAN's own draws are the same in both modes.
import type { Engine, Tensor } from '../../engine/engine.js';
import { Rng } from '../../engine/rng.js';
import * as o from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import { Adam } from '../../nn/adam.js';
import { Linear } from '../../nn/layers.js';
import { buildParams, Module, type ParamSet } from '../../nn/module.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';

export const SURROGATE_DEFAULTS = {
  hidden: 64,
  epochs: 10,
  /** at least this many steps (more epochs on small data: 300 rows are one step an epoch) */
  minSteps: 500,
  batch: 256,
  lr: 1e-3,
  /** std of the Gaussian noise added to the inputs while fitting (on Adult, 10 epochs, validity at
   * preds=1 rose from 78% without noise to 86% at 0.1, 90% at 0.2, 97% at 0.3 and fell to 92% at 0.5) */
  noise: 0.3,
};

/** How the surrogate fits its training pairs (recorded in the model's history). */
export interface SurrogateFit {
  /** mean BCE on the training pairs after fitting */
  bce: number;
  /** the lowest BCE possible on them (the mean entropy of the soft targets) */
  bceFloor: number;
  /** mean squared error of sigmoid(s(x)) against the targets */
  mse: number;
  /** share of rows on the same side of 0.5 as the target */
  agreement: number;
  epochs: number;
  /** input noise std while fitting */
  noise: number;
}

/** D → hidden → 1 with a ReLU. */
export class Surrogate extends Module {
  readonly l0: Linear;
  readonly l1: Linear;
  constructor(
    readonly inputDim: number,
    readonly hidden: number,
  ) {
    super();
    this.l0 = this.child('l0', new Linear(inputDim, hidden));
    this.l1 = this.child('l1', new Linear(hidden, 1));
  }
  /** logits (N, 1) */
  forward(x: Tensor): Tensor {
    return this.l1.forward(o.relu(this.l0.forward(x)));
  }
}

/** A surrogate's network and parameters with the given weights; its parameters never require gradients. */
export function buildSurrogate(
  engine: Engine,
  inputDim: number,
  hidden: number,
  weights: Float32Array | null,
  rng?: Rng,
): { net: Surrogate; params: ParamSet } {
  const net = new Surrogate(inputDim, hidden);
  const params = buildParams(engine, net, rng ?? new Rng(engine, 0));
  if (weights) params.restore(weights);
  return { net, params };
}

export function freezeSurrogate(net: Surrogate): void {
  for (const p of net.namedParams()) p.tensor.requiresGrad = false;
}

/** Fits s on (x rows, targets in [0, 1]); returns its weights and the fit. */
export function fitSurrogate(
  engine: Engine,
  x: Float32Array,
  rows: number,
  d: number,
  target: Float32Array,
  seed: number,
): { weights: Float32Array; hidden: number; fit: SurrogateFit } {
  const cfg = SURROGATE_DEFAULTS;
  // Its own stream (the GAN's draws stay the same in both modes).
  const rng = new Rng(engine, (seed ^ 0x5a17e) >>> 0);
  const { net, params } = buildSurrogate(engine, d, cfg.hidden, null, rng);
  const opt = new Adam(params.trainable, { lr: cfg.lr });
  const batch = Math.min(cfg.batch, rows);
  const steps = Math.max(1, Math.floor(rows / batch));
  const epochs = Math.max(cfg.epochs, Math.ceil(cfg.minSteps / steps));
  const xb = new Float32Array(batch * d);
  const yb = new Float32Array(batch);
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const perm = rng.permutation(rows);
      for (let s = 0; s < steps; s++) {
        for (let i = 0; i < batch; i++) {
          const r = perm[s * batch + i];
          xb.set(x.subarray(r * d, r * d + d), i * d);
          yb[i] = target[r];
        }
        engine.scope(() => {
          // Gaussian input noise smooths s, so the generator cannot satisfy it with rows the audited model scores
          // otherwise
          let xin = engine.tensor(xb, [batch, d]);
          if (cfg.noise > 0) xin = o.add(xin, o.mul(rng.normal([batch, d]), cfg.noise));
          const loss = o.bceWithLogits(net.forward(xin), engine.tensor(yb, [batch, 1]));
          if (Number.isFinite(loss.item())) opt.step(grad(loss, params.trainable));
        });
      }
    }
    // the fit on every training pair
    let bce = 0,
      floor = 0,
      mse = 0,
      agree = 0;
    const chunk = 4096;
    for (let start = 0; start < rows; start += chunk) {
      const b = Math.min(chunk, rows - start);
      const logits = engine.scope(() =>
        engine.noGrad(() => net.forward(engine.tensor(x.subarray(start * d, (start + b) * d), [b, d])).data.slice()),
      );
      for (let i = 0; i < b; i++) {
        const z = logits[i];
        const y = target[start + i];
        const p = 1 / (1 + fdexp(-z));
        bce += Math.max(z, 0) - z * y + Math.log1p(fdexp(-Math.abs(z)));
        floor += (y > 0 ? -y * fdlog(y) : 0) + (y < 1 ? -(1 - y) * fdlog(1 - y) : 0);
        mse += (p - y) ** 2;
        if (p > 0.5 === y > 0.5) agree++;
      }
    }
    return {
      weights: params.snapshot(),
      hidden: cfg.hidden,
      fit: {
        bce: bce / rows,
        bceFloor: floor / rows,
        mse: mse / rows,
        agreement: agree / rows,
        epochs,
        noise: cfg.noise,
      },
    };
  } finally {
    opt.dispose();
    params.dispose();
  }
}
