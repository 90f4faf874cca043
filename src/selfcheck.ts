// The engine self-check behind `lucid selfcheck` (and the library's runSelfCheck): train a small MLP
// on generated data (a disc inside a square) with the wasm kernels, autodiff and Adam, and report its
// loss curve and accuracy. Runs in any JS runtime.
import * as o from './autograd/ops/index.js';
import { grad } from './autograd/tape.js';
import type { Engine, Tensor } from './engine/engine.js';
import { check } from './engine/errors.js';
import { Rng } from './engine/rng.js';
import { Adam } from './nn/adam.js';
import { Linear } from './nn/layers.js';
import { buildParams, Module } from './nn/module.js';

export interface SelfCheckOptions {
  steps?: number;
  seed?: number;
  /** Called every `every` steps with the mean loss since the last call. */
  onProgress?: (step: number, loss: number) => void;
  every?: number;
}

export interface SelfCheckResult {
  variant: string;
  steps: number;
  /** (step, mean cross-entropy over the preceding window) */
  curve: [number, number][];
  trainAccuracy: number;
  testAccuracy: number;
  ms: number;
}

class Mlp extends Module {
  readonly l1 = this.child('l1', new Linear(2, 32));
  readonly l2 = this.child('l2', new Linear(32, 32));
  readonly l3 = this.child('l3', new Linear(32, 2));
  forward(x: Tensor): Tensor {
    return this.l3.forward(o.tanh(this.l2.forward(o.relu(this.l1.forward(x)))));
  }
}

// Two concentric rings with label noise free: label 1 inside radius 0.6 of the unit square.
function rings(rng: Rng, n: number): { x: Float64Array; y: number[] } {
  const u = rng.uniformHost(2 * n);
  const x = new Float64Array(2 * n);
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    x[2 * i] = u[2 * i] * 2 - 1;
    x[2 * i + 1] = u[2 * i + 1] * 2 - 1;
    y.push(Math.hypot(x[2 * i], x[2 * i + 1]) < 0.6 ? 1 : 0);
  }
  return { x, y };
}

export function runSelfCheck(engine: Engine, opts: SelfCheckOptions = {}): SelfCheckResult {
  const steps = opts.steps ?? 1500;
  const seed = opts.seed ?? 0;
  const every = opts.every ?? 100;
  check(Number.isInteger(steps) && steps > 0, 'E_ARG', () => `demo: steps must be a positive integer, got ${steps}`);
  const t0 = Date.now();
  const rng = new Rng(engine, seed);
  const train = rings(rng, 2048);
  const test = rings(rng, 1024);
  const model = new Mlp();
  const params = buildParams(engine, model, rng);
  const opt = new Adam(params.trainable, { lr: 5e-3 });
  const batch = 128;
  const curve: [number, number][] = [];
  let acc = 0;
  let count = 0;
  try {
    for (let s = 1; s <= steps; s++) {
      const b = ((s - 1) * batch) % 2048;
      engine.scope(() => {
        const xb = engine.tensor(train.x.subarray(2 * b, 2 * (b + batch)), [batch, 2]);
        const loss = o.crossEntropy(model.forward(xb), train.y.slice(b, b + batch));
        opt.step(grad(loss, params.trainable));
        acc += loss.item();
        count++;
      });
      if (s % every === 0 || s === steps) {
        curve.push([s, acc / count]);
        opts.onProgress?.(s, acc / count);
        acc = 0;
        count = 0;
      }
    }
    const accuracy = (d: { x: Float64Array; y: number[] }) =>
      engine.scope(() => {
        const logits = model.forward(engine.tensor(d.x, [d.y.length, 2])).data;
        let ok = 0;
        d.y.forEach((yi, i) => (ok += (logits[2 * i + 1] > logits[2 * i] ? 1 : 0) === yi ? 1 : 0));
        return ok / d.y.length;
      });
    return {
      variant: engine.variant,
      steps,
      curve,
      trainAccuracy: accuracy(train),
      testAccuracy: accuracy(test),
      ms: Date.now() - t0,
    };
  } finally {
    params.dispose();
    opt.dispose();
  }
}
