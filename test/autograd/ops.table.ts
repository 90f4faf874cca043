// The one table of op tests. Each row: forward against a float64 reference, a finite-difference
// gradcheck of every input, and (gradgrad: true) a gradgradcheck, for every op on the WGAN-GP
// gradient-penalty path.
import type { Engine, Tensor } from '../../src/engine/engine.js';
import * as o from '../../src/autograd/ops/index.js';
import { hostRng } from '../helpers/engine.js';
import * as f from '../helpers/ref.js';

export interface InputSpec {
  shape: number[];
  lo?: number;
  hi?: number;
  /** keep |x| ≥ this (away from kinks of relu/leakyRelu/abs) */
  gap?: number;
}

export interface Row {
  name: string;
  inputs: InputSpec[];
  op: (e: Engine, xs: Tensor[]) => Tensor;
  ref: (xs: f.R[]) => f.R;
  gradgrad?: boolean;
  /** false for ops without a gradient to check (none so far) */
  grad?: boolean;
}

const M = (shape: number[], lo = -1, hi = 1, gap = 0): InputSpec => ({ shape, lo, hi, gap });

// Constant data shared by an engine op and its reference.
function constant(seed: number, n: number, fn: (u: number) => number): number[] {
  const rnd = hostRng(seed);
  return Array.from({ length: n }, () => fn(rnd()));
}
const mask = constant(7, 15, (u) => (u < 0.5 ? 0 : 2)); // dropout p = 0.5
const gumbel = constant(8, 12, (u) => -Math.log(-Math.log(Math.min(Math.max(u, 1e-6), 1 - 1e-6))));
const classes = [2, 0, 3];
const probsTarget = constant(9, 12, (u) => u);
const rowsum = (a: number[], _rows: number, d: number) =>
  a.map((v, i) => v / a.slice(Math.floor(i / d) * d, Math.floor(i / d) * d + d).reduce((s, x) => s + x, 0));
const soft = rowsum(probsTarget, 3, 4);
const bits = constant(10, 12, (u) => (u < 0.5 ? 0 : 1));

// op(x⊙w)⊙w: the incoming gradient of op depends on w, so the second derivative runs through
// the op's backward with respect to that gradient as well as with respect to x.
const unaryGG = (
  name: string,
  op: (x: Tensor) => Tensor,
  ref: (v: number) => number,
  lo = -1,
  hi = 1,
  gap = 0,
): Row => ({
  name: `${name}(x⊙w)⊙w`,
  inputs: [M([3, 4], lo, hi, gap), M([3, 4], 0.5, 1.5)],
  op: (_e, [x, w]) => o.mul(op(o.mul(x, w)), w),
  ref: ([x, w]) => f.mul(f.map(f.mul(x, w), ref), w),
  gradgrad: true,
});

export const rows: Row[] = [
  // elementwise and broadcasting (sub/mul/sum/mean/sqrt/square are on the penalty path)
  {
    name: 'add',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.add(a, b),
    ref: ([a, b]) => f.add(a, b),
    gradgrad: true,
  },
  {
    name: 'add row-broadcast (N,D)+(D)',
    inputs: [M([3, 4]), M([4])],
    op: (_e, [a, b]) => o.add(a, b),
    ref: ([a, b]) => f.add(a, b),
    gradgrad: true,
  },
  {
    name: 'add col-broadcast (N,1)+(N,D)',
    inputs: [M([3, 1]), M([3, 4])],
    op: (_e, [a, b]) => o.add(a, b),
    ref: ([a, b]) => f.add(a, b),
  },
  { name: 'add scalar', inputs: [M([3, 4])], op: (_e, [a]) => o.add(a, 0.5), ref: ([a]) => f.add(a, 0.5) },
  {
    name: 'sub',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.mul(o.sub(a, b), o.sub(a, b)),
    ref: ([a, b]) => f.mul(f.sub(a, b), f.sub(a, b)),
    gradgrad: true,
  },
  {
    name: 'sub broadcast (N,D)−(1,D)',
    inputs: [M([3, 4]), M([1, 4])],
    op: (_e, [a, b]) => o.sub(a, b),
    ref: ([a, b]) => f.sub(a, b),
    gradgrad: true,
  },
  { name: 'rsub scalar', inputs: [M([3, 4])], op: (_e, [a]) => o.sub(1, a), ref: ([a]) => f.sub(1, a) },
  {
    name: 'mul',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.mul(a, b),
    ref: ([a, b]) => f.mul(a, b),
    gradgrad: true,
  },
  {
    name: 'mul col-broadcast (N,D)·(N,1)',
    inputs: [M([3, 4]), M([3, 1])],
    op: (_e, [a, b]) => o.mul(a, b),
    ref: ([a, b]) => f.mul(a, b),
    gradgrad: true,
  },
  { name: 'mul scalar', inputs: [M([3, 4])], op: (_e, [a]) => o.mul(a, -3), ref: ([a]) => f.mul(a, -3) },
  {
    name: 'div',
    inputs: [M([3, 4]), M([3, 4], 0.5, 2)],
    op: (_e, [a, b]) => o.div(a, b),
    ref: ([a, b]) => f.div(a, b),
    gradgrad: true,
  },
  {
    name: 'div scalar/x',
    inputs: [M([3, 4], 0.5, 2)],
    op: (_e, [a]) => o.div(2, a),
    ref: ([a]) => f.div(2, a),
    gradgrad: true,
  },
  { name: 'neg', inputs: [M([3, 4])], op: (_e, [a]) => o.neg(a), ref: ([a]) => f.map(a, (v) => -v) },
  unaryGG('square', o.square, (v) => v * v),
  unaryGG('sqrt', o.sqrt, Math.sqrt, 0.5, 2),
  unaryGG('exp', o.exp, Math.exp),
  unaryGG('log', o.log, Math.log, 0.5, 2),
  unaryGG('tanh', o.tanh, Math.tanh, -2, 2),
  unaryGG('sigmoid', o.sigmoid, f.sigmoid, -3, 3),
  unaryGG('softplus', o.softplus, f.softplus, -3, 3),
  unaryGG('leakyRelu', (x) => o.leakyRelu(x, 0.2), f.leaky(0.2), -1, 1, 0.15),
  unaryGG('relu', o.relu, (v) => Math.max(v, 0), -1, 1, 0.15),
  unaryGG('abs', o.abs, Math.abs, -1, 1, 0.15),
  {
    name: 'clampMin',
    inputs: [M([3, 4], -1, 1, 0.15)],
    op: (_e, [a]) => o.clampMin(a, 0.05),
    ref: ([a]) => f.map(a, (v) => Math.max(v, 0.05)),
  },
  // reductions (sum/mean on the penalty path)
  {
    name: 'sum',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.sum(o.mul(a, b)),
    ref: ([a, b]) => f.sum(f.mul(a, b)),
    gradgrad: true,
  },
  { name: 'sum axis 0', inputs: [M([3, 4])], op: (_e, [a]) => o.sum(a, 0), ref: ([a]) => f.sum(a, 0), gradgrad: true },
  {
    name: 'sum axis 1 keepDim',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.mul(o.sum(o.mul(a, b), 1, true), a),
    ref: ([a, b]) => f.mul(f.sum(f.mul(a, b), 1, true), a),
    gradgrad: true,
  },
  {
    name: 'mean',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.mean(o.mul(a, b)),
    ref: ([a, b]) => f.mean(f.mul(a, b)),
    gradgrad: true,
  },
  { name: 'mean axis 0', inputs: [M([3, 4])], op: (_e, [a]) => o.mean(a, 0), ref: ([a]) => f.mean(a, 0) },
  // linear algebra (the critic's layers)
  {
    name: 'matmul NN',
    inputs: [M([3, 4]), M([4, 5])],
    op: (_e, [a, b]) => o.matmul(a, b),
    ref: ([a, b]) => f.matmul(a, b),
    gradgrad: true,
  },
  {
    name: 'matmul NT',
    inputs: [M([3, 4]), M([5, 4])],
    op: (_e, [a, b]) => o.matmul(a, b, { transB: true }),
    ref: ([a, b]) => f.matmul(a, b, false, true),
    gradgrad: true,
  },
  {
    name: 'matmul TN',
    inputs: [M([4, 3]), M([4, 5])],
    op: (_e, [a, b]) => o.matmul(a, b, { transA: true }),
    ref: ([a, b]) => f.matmul(a, b, true, false),
    gradgrad: true,
  },
  {
    name: 'matmul TT',
    inputs: [M([4, 3]), M([5, 4])],
    op: (_e, [a, b]) => o.matmul(a, b, { transA: true, transB: true }),
    ref: ([a, b]) => f.matmul(a, b, true, true),
    gradgrad: true,
  },
  {
    name: 'linear',
    inputs: [M([3, 4]), M([5, 4]), M([5])],
    op: (_e, [x, W, b]) => o.linear(x, W, b),
    ref: ([x, W, b]) => f.add(f.matmul(x, W, false, true), b),
    gradgrad: true,
  },
  {
    name: 'critic block linear→leakyRelu→dropout→linear',
    inputs: [M([3, 4]), M([5, 4]), M([5]), M([1, 5])],
    op: (e, [x, W, b, W2]) =>
      o.linear(o.mul(o.leakyRelu(o.linear(x, W, b), 0.2), e.tensor(mask.slice(0, 15), [3, 5])), W2),
    ref: ([x, W, b, W2]) =>
      f.matmul(
        f.mul(f.map(f.add(f.matmul(x, W, false, true), b), f.leaky(0.2)), f.r([3, 5], mask.slice(0, 15))),
        W2,
        false,
        true,
      ),
    gradgrad: true,
  },
  // shape (reshape is PacGAN's grouping)
  {
    name: 'reshape (pac grouping)',
    inputs: [M([4, 3]), M([2, 6])],
    op: (_e, [x, w]) => o.mul(o.reshape(x, [2, -1]), w),
    ref: ([x, w]) => f.mul(f.reshape(x, [2, 6]), w),
    gradgrad: true,
  },
  {
    name: 'dropout mask',
    inputs: [M([3, 4])],
    op: (e, [x]) => o.mul(x, e.tensor(mask.slice(0, 12), [3, 4])),
    ref: ([x]) => f.mul(x, f.r([3, 4], mask.slice(0, 12))),
    gradgrad: true,
  },
  {
    name: 'concat cols',
    inputs: [M([3, 2]), M([3, 3])],
    op: (_e, [a, b]) => o.concat([a, b]),
    ref: ([a, b]) => f.concatCols([a, b]),
  },
  {
    name: 'sliceCols',
    inputs: [M([3, 5])],
    op: (_e, [a]) => o.sliceCols(a, 1, 4),
    ref: ([a]) => f.sliceCols(a, 1, 4),
    gradgrad: true,
  },
  {
    name: 'sliceRows + concat rows',
    inputs: [M([4, 3])],
    op: (_e, [a]) => o.concat([o.sliceRows(a, 2, 4), o.sliceRows(a, 0, 1)], 0),
    ref: ([a]) => f.r([3, 3], [...a.data.slice(6, 12), ...a.data.slice(0, 3)]),
  },
  // norms (the penalty's ‖∇‖)
  {
    name: 'rowNorm',
    inputs: [M([3, 4]), M([3, 4], 0.5, 1.5)],
    op: (_e, [x, w]) => o.rowNorm(o.mul(x, w)),
    ref: ([x, w]) => f.rowNorm(f.mul(x, w)),
    gradgrad: true,
  },
  {
    name: 'penalty (‖x‖ − 1)² mean',
    inputs: [M([3, 4])],
    op: (_e, [x]) => o.mean(o.square(o.sub(o.rowNorm(x), 1))),
    ref: ([x]) => f.mean(f.map(f.rowNorm(x), (v) => (v - 1) ** 2)),
    gradgrad: true,
  },
  // softmax family (generator output, conditional loss)
  {
    name: 'softmax',
    inputs: [M([3, 4], -2, 2)],
    op: (_e, [x]) => o.softmax(x),
    ref: ([x]) => f.softmax(x),
    gradgrad: true,
  },
  {
    name: 'logSoftmax',
    inputs: [M([3, 4], -2, 2)],
    op: (_e, [x]) => o.logSoftmax(x),
    ref: ([x]) => f.logSoftmax(x),
    gradgrad: true,
  },
  {
    name: 'gumbelSoftmax τ=0.2',
    inputs: [M([3, 4], -1, 1)],
    op: (e, [x]) => o.gumbelSoftmax(x, 0.2, e.tensor(gumbel, [3, 4])),
    ref: ([x]) => f.softmax(f.div(f.add(x, f.r([3, 4], gumbel)), 0.2)),
  },
  // batch norm: fused kernel, first order only
  {
    name: 'batchNorm (train)',
    inputs: [M([5, 3], -2, 2), M([3], 0.5, 1.5), M([3])],
    op: (_e, [x, g, b]) => o.batchNormTrain(x, g, b).y,
    ref: ([x, g, b]) => f.batchNorm(x, g, b),
  },
  {
    name: 'batchNorm (eval)',
    inputs: [M([5, 3], -2, 2), M([3], 0.5, 1.5), M([3])],
    op: (e, [x, g, b]) => o.batchNormEval(x, g, b, e.tensor([0.1, -0.2, 0.3]), e.tensor([0.5, 1.5, 2])),
    ref: ([x, g, b]) =>
      f.add(
        f.mul(
          f.div(
            f.sub(x, f.r([3], [0.1, -0.2, 0.3])),
            f.map(f.r([3], [0.5, 1.5, 2]), (v) => Math.sqrt(v + 1e-5)),
          ),
          g,
        ),
        b,
      ),
    gradgrad: true,
  },
  // losses
  {
    name: 'crossEntropy (logits, class indices)',
    inputs: [M([3, 4], -2, 2)],
    op: (_e, [x]) => o.crossEntropy(x, classes),
    ref: ([x]) => {
      const l = f.logSoftmax(x);
      return f.r([], [-(l.data[2] + l.data[4] + l.data[11]) / 3]);
    },
    gradgrad: true,
  },
  {
    name: 'crossEntropy (logits, target probabilities)',
    inputs: [M([3, 4], -2, 2)],
    op: (e, [x]) => o.crossEntropy(x, e.tensor(soft, [3, 4])),
    ref: ([x]) => f.mul(f.sum(f.mul(f.r([3, 4], soft), f.logSoftmax(x))), -1 / 3),
  },
  {
    name: 'crossEntropyProbs (probabilities in)',
    inputs: [M([3, 4], 0.1, 0.9)],
    op: (_e, [p]) => o.crossEntropyProbs(p, classes),
    ref: ([p]) => f.r([], [-(Math.log(p.data[2]) + Math.log(p.data[4]) + Math.log(p.data[11])) / 3]),
  },
  {
    name: 'bceWithLogits',
    inputs: [M([3, 4], -3, 3)],
    op: (e, [x]) => o.bceWithLogits(x, e.tensor(bits, [3, 4])),
    ref: ([x]) => f.mean(f.bin(x, f.r([3, 4], bits), (v, y) => f.softplus(v) - v * y)),
  },
  {
    name: 'bce (probabilities)',
    inputs: [M([3, 4], 0.1, 0.9)],
    op: (e, [p]) => o.bce(p, e.tensor(bits, [3, 4])),
    ref: ([p]) => f.mean(f.bin(p, f.r([3, 4], bits), (v, y) => -(y * Math.log(v) + (1 - y) * Math.log(1 - v)))),
  },
  {
    name: 'mse',
    inputs: [M([3, 4]), M([3, 4])],
    op: (_e, [a, b]) => o.mse(a, b),
    ref: ([a, b]) => f.mean(f.map(f.sub(a, b), (v) => v * v)),
    gradgrad: true,
  },
];
