// Determinism: the same seed gives bit-identical weights after 100 steps of a small WGAN-GP GAN
// (generator with batch norm, PacGAN critic with dropout, gradient penalty, Gumbel-softmax).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grad } from '../../src/autograd/tape.js';
import * as o from '../../src/autograd/ops/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { initNodeEngine } from '../../src/node/engine.js';
import { Adam } from '../../src/nn/adam.js';
import { buildParams } from '../../src/nn/module.js';
import {
  applyActivation,
  Discriminator,
  Generator,
  gradientPenalty,
  type OutputSpan,
} from '../../src/models/ctgan/networks.js';

const SPANS: OutputSpan[] = [
  { kind: 'tanh', width: 1 },
  { kind: 'softmax', width: 3 },
  { kind: 'tanh', width: 1 },
  { kind: 'softmax', width: 2 },
];
const D = 7;
const Z = 8;
const BATCH = 20;

// Real data: rows drawn from the seeded generator too, so the whole run depends on one seed.
function trainGan(e: Engine, seed: number, steps: number): Float32Array[] {
  const rng = new Rng(e, seed);
  const G = new Generator(Z, [16, 16], D);
  const C = new Discriminator(D, [16, 16], 10);
  const gp = buildParams(e, G, rng);
  const cp = buildParams(e, C, rng);
  const gOpt = new Adam(gp.trainable, { lr: 2e-4, betas: [0.5, 0.9], weightDecay: 1e-6 });
  const cOpt = new Adam(cp.trainable, { lr: 2e-4, betas: [0.5, 0.9], weightDecay: 1e-6 });
  for (let s = 0; s < steps; s++) {
    e.scope(() => {
      const real = applyActivation(o.mul(rng.normal([BATCH, D]), 3), SPANS, rng);
      const fake = applyActivation(G.forward(rng.normal([BATCH, Z])), SPANS, rng);
      const lossC = o.add(
        o.neg(o.sub(o.mean(C.forward(real, rng)), o.mean(C.forward(fake.detach(), rng)))),
        gradientPenalty(C, real, fake, rng),
      );
      cOpt.step(grad(lossC, cp.trainable));
    });
    e.scope(() => {
      const fake = applyActivation(G.forward(rng.normal([BATCH, Z])), SPANS, rng);
      const lossG = o.neg(o.mean(C.forward(fake, rng)));
      gOpt.step(grad(lossG, gp.trainable));
    });
  }
  const out = [gp.snapshot(), cp.snapshot()];
  for (const x of [gp, cp, gOpt, cOpt]) x.dispose();
  return out;
}

const sameBits = (a: Float32Array, b: Float32Array) => {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

describe('determinism', () => {
  it('the same seed gives bit-identical GAN weights after 100 steps, in two separate engines', async () => {
    const [e1, e2] = [await initNodeEngine(), await initNodeEngine()];
    const a = trainGan(e1, 42, 100);
    const b = trainGan(e2, 42, 100);
    assert.ok(sameBits(a[0], b[0]), 'generator weights differ');
    assert.ok(sameBits(a[1], b[1]), 'critic weights differ');
    const c = trainGan(e1, 43, 100);
    assert.ok(!sameBits(a[0], c[0]), 'another seed should give other weights');
    assert.ok(a[0].every(Number.isFinite) && a[1].every(Number.isFinite), 'weights are finite');
  });
});
