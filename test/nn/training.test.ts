// Training works, and a long training loop does not grow memory.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grad } from '../../src/autograd/tape.js';
import * as o from '../../src/autograd/ops/index.js';
import { Rng } from '../../src/engine/rng.js';
import { Adam } from '../../src/nn/adam.js';
import { Linear } from '../../src/nn/layers.js';
import { buildParams, Module } from '../../src/nn/module.js';
import type { Engine, Tensor } from '../../src/engine/engine.js';
import { getEngine, hostRng } from '../helpers/engine.js';

class Mlp extends Module {
  readonly l1: Linear;
  readonly l2: Linear;
  constructor(din: number, h: number, dout: number) {
    super();
    this.l1 = this.child('l1', new Linear(din, h));
    this.l2 = this.child('l2', new Linear(h, dout));
  }
  forward(x: Tensor): Tensor {
    return this.l2.forward(o.relu(this.l1.forward(x)));
  }
}

// Two interleaved spirals-free but nonlinear classes: label = [x0·x1 > 0] (XOR of signs).
function xorData(n: number, seed: number) {
  const rnd = hostRng(seed);
  const x = new Float64Array(n * 2);
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    x[2 * i] = rnd() * 2 - 1;
    x[2 * i + 1] = rnd() * 2 - 1;
    y.push(x[2 * i] * x[2 * i + 1] > 0 ? 1 : 0);
  }
  return { x, y };
}

function trainXor(e: Engine, steps: number, onStep?: (step: number) => void) {
  const model = new Mlp(2, 32, 2);
  const params = buildParams(e, model, new Rng(e, 1));
  const opt = new Adam(params.trainable, { lr: 1e-2 });
  const { x, y } = xorData(512, 2);
  const curve: number[] = [];
  for (let s = 0; s < steps; s++) {
    e.scope(() => {
      const b = (s * 64) % 512;
      const xb = e.tensor(x.subarray(2 * b, 2 * (b + 64)), [64, 2]);
      const loss = o.crossEntropy(model.forward(xb), y.slice(b, b + 64));
      opt.step(grad(loss, params.trainable));
      curve.push(loss.item());
    });
    onStep?.(s);
  }
  const acc = e.scope(() => {
    const logits = model.forward(e.tensor(x, [512, 2])).data;
    let ok = 0;
    for (let i = 0; i < 512; i++) ok += (logits[2 * i + 1] > logits[2 * i] ? 1 : 0) === y[i] ? 1 : 0;
    return ok / 512;
  });
  params.dispose();
  opt.dispose();
  return { curve, acc };
}

describe('training', async () => {
  const e = await getEngine();

  it('an MLP learns XOR: cross-entropy below 0.15 and accuracy above 95% within 600 steps', () => {
    const { curve, acc } = trainXor(e, 600);
    const last = curve.slice(-20).reduce((a, b) => a + b, 0) / 20;
    assert.ok(curve[0] > 0.6, `initial loss ${curve[0]} should be near ln 2`);
    assert.ok(last < 0.15, `final loss ${last}`);
    assert.ok(acc > 0.95, `accuracy ${acc}`);
  });

  it('10,000 training steps do not grow memory', () => {
    let bytesAt100 = 0;
    let liveAt100 = 0;
    trainXor(e, 10_000, (s) => {
      if (s === 100) {
        bytesAt100 = e.memoryBytes;
        liveAt100 = e.heap.liveBytes;
      }
      if (s > 100 && s % 1000 === 0) {
        assert.equal(e.memoryBytes, bytesAt100, `wasm memory grew by step ${s}`);
        assert.equal(e.heap.liveBytes, liveAt100, `live heap bytes changed by step ${s}`);
        assert.equal(e.arena.chunkCount, 1, 'the scratch arena settled into one chunk');
      }
    });
    assert.ok(bytesAt100 > 0);
  });
});
