// Second derivatives, and the refusal to differentiate a once-differentiable op twice.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grad, requireGrad } from '../../src/autograd/tape.js';
import * as o from '../../src/autograd/ops/index.js';
import { getEngine } from '../helpers/engine.js';

describe('higher-order gradients', async () => {
  const e = await getEngine();

  it('d²(x³)/dx² = 6x and d³/dx³ = 6', () => {
    e.scope(() => {
      const x = requireGrad(e.tensor([-1.5, 0.5, 2]));
      const y = o.sum(o.mul(o.mul(x, x), x));
      const [g1] = grad(y, [x], { createGraph: true });
      assert.deepEqual([...g1.data], [6.75, 0.75, 12]);
      const [g2] = grad(o.sum(g1), [x], { createGraph: true });
      assert.deepEqual([...g2.data], [-9, 3, 12]);
      const [g3] = grad(o.sum(g2), [x]);
      assert.deepEqual([...g3.data], [6, 6, 6]);
    });
  });

  it('batchNorm (fused, first-order) refuses a second derivative instead of returning wrong numbers', () => {
    e.scope(() => {
      const x = requireGrad(e.tensor([0.1, -0.4, 0.9, 1.2, -0.3, 0.5], [3, 2]));
      const g = e.ones([2]);
      const b = e.zeros([2]);
      const y = o.sum(o.square(o.batchNormTrain(x, g, b).y));
      const [dx] = grad(y, [x], { createGraph: true });
      assert.ok(dx.data.every(Number.isFinite), 'the first derivative is still available');
      assert.throws(
        () => grad(o.sum(o.square(dx)), [x]),
        (err: Error & { code?: string }) =>
          err.code === 'E_GRAD' && /batchNorm: not twice-differentiable/.test(err.message),
      );
    });
  });

  it('without createGraph the gradient is a constant', () => {
    e.scope(() => {
      const x = requireGrad(e.tensor([1, 2]));
      const [g] = grad(o.sum(o.square(x)), [x]);
      assert.equal(g.requiresGrad, false);
      assert.throws(() => grad(o.sum(g), [x]), /does not depend on any tensor that requires a gradient/);
    });
  });

  it('inputs that do not influence the output get zero gradients', () => {
    e.scope(() => {
      const x = requireGrad(e.tensor([1, 2]));
      const w = requireGrad(e.tensor([3, 4]));
      const [gx, gw] = grad(o.sum(o.square(x)), [x, w]);
      assert.deepEqual([...gx.data], [2, 4]);
      assert.deepEqual([...gw.data], [0, 0]);
    });
  });
});
