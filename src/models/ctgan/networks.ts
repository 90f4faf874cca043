// CTGAN's networks (Xu et al. 2019; LUCID-GAN §3): a residual generator, a PacGAN critic, and
// the WGAN-GP gradient penalty. Written from the papers; the shapes follow CTGAN's defaults.
//
// Dimension letters: N batch rows, P = N / pac packs, D data width, C condition width.
import type { Tensor } from '../../engine/engine.js';
import { check } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import * as o from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import { Dropout, Linear, Residual } from '../../nn/layers.js';
import { Module } from '../../nn/module.js';

/** z: (N, embedding + C) → residual blocks, each concatenating its input → Linear → (N, D) raw outputs. */
export class Generator extends Module {
  readonly blocks: Residual[] = [];
  readonly out: Linear;
  constructor(
    readonly inputDim: number,
    hidden: readonly number[],
    readonly dataDim: number,
  ) {
    super();
    let width = inputDim;
    hidden.forEach((h, i) => {
      this.blocks.push(this.child(`residual${i}`, new Residual(width, h)));
      width += h;
    });
    this.out = this.child('out', new Linear(width, dataDim));
  }
  forward(z: Tensor): Tensor {
    let h = z;
    for (const b of this.blocks) h = b.forward(h);
    return this.out.forward(h);
  }
}

/**
 * PacGAN critic: x (N, D') is grouped into (N/pac, pac·D') → [Linear → LeakyReLU(0.2) → Dropout(0.5)]* → Linear →
 * (N/pac, 1).
 */
export class Discriminator extends Module {
  readonly layers: { fc: Linear; drop: Dropout }[] = [];
  readonly out: Linear;
  constructor(
    readonly inputDim: number,
    hidden: readonly number[],
    readonly pac = 10,
    readonly slope = 0.2,
    dropout = 0.5,
  ) {
    super();
    let width = inputDim * pac;
    hidden.forEach((h, i) => {
      this.layers.push({
        fc: this.child(`fc${i}`, new Linear(width, h)),
        drop: this.child(`drop${i}`, new Dropout(dropout)),
      });
      width = h;
    });
    this.out = this.child('out', new Linear(width, 1));
  }
  forward(x: Tensor, rng: Rng): Tensor {
    check(
      x.rank === 2 && x.shape[1] === this.inputDim,
      'E_SHAPE',
      () => `Discriminator: input [${x.shape}] must have ${this.inputDim} columns`,
    );
    check(
      x.shape[0] % this.pac === 0,
      'E_SHAPE',
      () => `Discriminator: batch of ${x.shape[0]} rows is not a multiple of pac = ${this.pac}`,
    );
    let h = o.reshape(x, [x.shape[0] / this.pac, -1]);
    for (const { fc, drop } of this.layers) h = drop.forward(o.leakyRelu(fc.forward(h), this.slope), rng);
    return this.out.forward(h);
  }
}

/**
 * WGAN-GP penalty λ·mean_p((‖∇ D(x̂)_p‖₂ − 1)²) on x̂ = α·real + (1 − α)·fake, with one α per pack
 * (so the packed rows of x̂ mix real and fake consistently). Differentiable w.r.t. the critic's
 * parameters: the inner gradient is taken with createGraph.
 */
export function gradientPenalty(critic: Discriminator, real: Tensor, fake: Tensor, rng: Rng, lambda = 10): Tensor {
  const n = real.shape[0];
  const packs = n / critic.pac;
  check(
    Number.isInteger(packs) && fake.shape[0] === n,
    'E_SHAPE',
    () =>
      `gradientPenalty: real [${real.shape}] and fake [${fake.shape}] must have the same multiple of pac = ` +
      `${critic.pac} rows`,
  );
  // Mix in the packed view (P, pac·D): one α per pack is then a column broadcast.
  const alpha = rng.uniform([packs, 1]);
  const realP = o.reshape(real.detach(), [packs, -1]);
  const fakeP = o.reshape(fake.detach(), [packs, -1]);
  const interp = o.add(o.mul(realP, alpha), o.mul(fakeP, o.sub(1, alpha)));
  interp.requiresGrad = true;
  const y = critic.forward(o.reshape(interp, [n, -1]), rng);
  const [g] = grad(y, [interp], { createGraph: true });
  return o.mul(o.mean(o.square(o.sub(o.rowNorm(g), 1))), lambda);
}

/** A span of generator output columns and its activation. */
export interface OutputSpan {
  kind: 'tanh' | 'softmax';
  width: number;
}

/** tanh on scalar spans, Gumbel-softmax (τ) on mode/category spans, concatenated back. logits: (N, D). */
export function applyActivation(logits: Tensor, spans: readonly OutputSpan[], rng: Rng, tau = 0.2): Tensor {
  const total = spans.reduce((a, s) => a + s.width, 0);
  check(
    logits.shape[1] === total,
    'E_SHAPE',
    () => `applyActivation: logits have ${logits.shape[1]} columns, spans cover ${total}`,
  );
  let at = 0;
  const parts = spans.map((s) => {
    const x = o.sliceCols(logits, at, at + s.width);
    at += s.width;
    return s.kind === 'tanh' ? o.tanh(x) : o.gumbelSoftmax(x, tau, rng.gumbel(x.shape));
  });
  return parts.length === 1 ? parts[0] : o.concat(parts);
}
