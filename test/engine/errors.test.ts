// Validation at the edge: shape and argument errors name the op and the argument.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as o from '../../src/autograd/ops/index.js';
import { Linear } from '../../src/nn/layers.js';
import { Adam } from '../../src/nn/adam.js';
import { getEngine } from '../helpers/engine.js';

const fails = (fn: () => unknown, code: string, re: RegExp) =>
  assert.throws(fn, (err: Error & { code?: string }) => {
    assert.equal(err.code, code, err.message);
    assert.match(err.message, re);
    return true;
  });

describe('argument errors', async () => {
  const e = await getEngine();
  it('name the op and the argument', () => {
    e.scope(() => {
      const a = e.zeros([3, 4]);
      fails(() => o.matmul(a, e.zeros([3, 4])), 'E_SHAPE', /^matmul: inner dimensions differ/);
      fails(() => o.matmul(e.zeros([4]), a), 'E_SHAPE', /^matmul: a must be 2-D/);
      fails(() => o.add(a, e.zeros([3, 5])), 'E_SHAPE', /^add: shapes \[3,4\] and \[3,5\] do not broadcast/);
      fails(() => o.linear(a, e.zeros([5, 3])), 'E_SHAPE', /^linear: x is \[3,4\] but W expects 3 input features/);
      fails(() => o.sliceCols(a, 2, 9), 'E_ARG', /^sliceCols: columns 2\.\.9 out of range/);
      fails(() => o.concat([a, e.zeros([2, 4])]), 'E_SHAPE', /^concat: tensor 1 has shape \[2,4\]/);
      fails(() => o.crossEntropy(a, [0, 1, 7]), 'E_ARG', /^crossEntropy: target 2 is 7, not a class index in \[0, 4\)/);
      fails(() => o.reshape(a, [5, -1]), 'E_SHAPE', /^reshape: cannot view \[3,4\] as \[5,-1\]/);
      fails(() => o.leakyRelu(a, NaN), 'E_ARG', /^leakyRelu: alpha is NaN/);
      fails(() => o.mul(a, Infinity), 'E_VALUE', /^mul: scalar operand is Infinity/);
      fails(() => o.gumbelSoftmax(a, 0, a), 'E_ARG', /^gumbelSoftmax: tau must be > 0/);
      fails(
        () => o.batchNormTrain(e.zeros([1, 4]), e.ones([4]), e.zeros([4])),
        'E_SHAPE',
        /^batchNorm: training mode needs more than one row/,
      );
      fails(() => o.mse(a, e.zeros([4, 3])), 'E_SHAPE', /^mse: input \[3,4\] and target \[4,3\] differ/);
    });
    fails(() => new Linear(0, 3), 'E_ARG', /^Linear: feature counts must be positive integers/);
    fails(() => new Adam([e.zeros([2])], { lr: -1 }), 'E_ARG', /^Adam: lr must be > 0/);
  });
});
