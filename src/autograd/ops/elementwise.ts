// Elementwise ops with numpy broadcasting over rank ≤ 2: forward kernels, backward written in ops.
//
// Broadcasting: shapes align on the right; a dimension of 1 (or a missing one) repeats.
// Supported pairs, in 2-D terms: equal shapes, (N,D)∘(1,D) rows, (N,D)∘(N,1) columns, and
// anything ∘ scalar; a number operand acts as a constant scalar.
import { check } from '../../engine/errors.js';
import type { Shape, Tensor } from '../../engine/engine.js';
import { BinOp, UnOp } from '../../engine/wasm.js';
import { defineOp, type Op } from '../tape.js';
import { sumTo } from './reduce.js';

export type Operand = Tensor | number;

const as2d = (s: Shape): [number, number] => (s.length === 0 ? [1, 1] : s.length === 1 ? [1, s[0]] : [s[0], s[1]]);

/** The broadcast shape of a and b, or an E_SHAPE error naming the op. */
export function broadcastShape(op: string, a: Shape, b: Shape): Shape {
  check(
    a.length <= 2 && b.length <= 2,
    'E_SHAPE',
    () => `${op}: tensors of rank > 2 are not supported ([${a}] and [${b}])`,
  );
  const r = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < r; i++) {
    const da = a[a.length - r + i] ?? 1;
    const db = b[b.length - r + i] ?? 1;
    check(da === db || da === 1 || db === 1, 'E_SHAPE', () => `${op}: shapes [${a}] and [${b}] do not broadcast`);
    out.push(da === 1 ? db : da);
  }
  return out;
}

type BinAttrs = { code: number; name: string };

// out = a ∘ b for tensors a, b (broadcast).
function binaryForward(a: Tensor, b: Tensor, code: number, name: string): Tensor {
  const e = a.engine;
  const shape = broadcastShape(name, a.shape, b.shape);
  const out = e.empty(shape);
  const [n, d] = as2d(shape);
  const [an, ad] = as2d(a.shape);
  const [bn, bd] = as2d(b.shape);
  const k = e.k;
  if (an === bn && ad === bd) k.f32_binary(code, out.ptr, a.ptr, b.ptr, out.size);
  else if (b.size === 1) k.f32_binary_scalar(code, 0, out.ptr, a.ptr, b.data[0], out.size);
  else if (a.size === 1) k.f32_binary_scalar(code, 1, out.ptr, b.ptr, a.data[0], out.size);
  else if (bn === 1 && an === n && ad === d) k.f32_binary_rows(code, 0, out.ptr, a.ptr, b.ptr, n, d);
  else if (an === 1 && bn === n && bd === d) k.f32_binary_rows(code, 1, out.ptr, b.ptr, a.ptr, n, d);
  else if (bd === 1 && ad === d && an === n) k.f32_binary_cols(code, 0, out.ptr, a.ptr, b.ptr, n, d);
  else if (ad === 1 && bd === d && bn === n) k.f32_binary_cols(code, 1, out.ptr, b.ptr, a.ptr, n, d);
  else {
    // (1,D)∘(N,1): materialise a as rows, then broadcast b over columns.
    k.f32_fill(out.ptr, out.size, 0);
    k.f32_binary_rows(BinOp.add, 0, out.ptr, out.ptr, a.ptr, n, d);
    k.f32_binary_cols(code, 0, out.ptr, out.ptr, b.ptr, n, d);
  }
  return out;
}

const Binary = defineOp<BinAttrs>({
  name: 'binary',
  forward: (_ctx, [a, b], { code, name }) => binaryForward(a, b, code, name),
  backward(ctx, dy) {
    const [a, b] = ctx.inputs;
    const [ga, gb] = ctx.needsGrad;
    switch (ctx.attrs.code) {
      case BinOp.add:
        return [ga ? sumTo(dy, a.shape) : null, gb ? sumTo(dy, b.shape) : null];
      case BinOp.sub:
        return [ga ? sumTo(dy, a.shape) : null, gb ? sumTo(neg(dy), b.shape) : null];
      case BinOp.mul:
        return [ga ? sumTo(mul(dy, b), a.shape) : null, gb ? sumTo(mul(dy, a), b.shape) : null];
      case BinOp.div:
        return [ga ? sumTo(div(dy, b), a.shape) : null, gb ? sumTo(neg(div(mul(dy, ctx.out), b)), b.shape) : null];
      default:
        throw new Error(`binary: no gradient for opcode ${ctx.attrs.code}`);
    }
  },
});

type ScalarAttrs = { code: number; s: number; swap: boolean };

// out = x ∘ s (or s ∘ x when swap) with a constant number s.
const BinaryScalar = defineOp<ScalarAttrs>({
  name: 'binaryScalar',
  forward(_ctx, [x], { code, s, swap }) {
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_binary_scalar(code, swap ? 1 : 0, out.ptr, x.ptr, s, x.size);
    return out;
  },
  backward(ctx, dy) {
    const { code, s, swap } = ctx.attrs;
    switch (code) {
      case BinOp.add:
        return [dy];
      case BinOp.sub:
        return [swap ? neg(dy) : dy];
      case BinOp.mul:
        return [mul(dy, s)];
      case BinOp.div:
        return [swap ? neg(div(mul(dy, ctx.out), ctx.inputs[0])) : div(dy, s)];
      default:
        throw new Error(`binaryScalar: no gradient for opcode ${code}`);
    }
  },
});

function binary(name: string, code: number, a: Operand, b: Operand): Tensor {
  if (typeof a === 'number' && typeof b === 'number') throw new Error(`${name}: at least one operand must be a tensor`);
  if (typeof b === 'number') {
    check(Number.isFinite(b), 'E_VALUE', () => `${name}: scalar operand is ${b}`);
    return BinaryScalar([a as Tensor], { code, s: b, swap: false });
  }
  if (typeof a === 'number') {
    check(Number.isFinite(a), 'E_VALUE', () => `${name}: scalar operand is ${a}`);
    return BinaryScalar([b], { code, s: a, swap: true });
  }
  broadcastShape(name, a.shape, b.shape);
  return Binary([a, b], { code, name });
}

/** a + b (broadcast). */
export const add = (a: Operand, b: Operand) => binary('add', BinOp.add, a, b);
/** a − b (broadcast). */
export const sub = (a: Operand, b: Operand) => binary('sub', BinOp.sub, a, b);
/** a · b (broadcast). */
export const mul = (a: Operand, b: Operand) => binary('mul', BinOp.mul, a, b);
/** a / b (broadcast). */
export const div = (a: Operand, b: Operand) => binary('div', BinOp.div, a, b);

// Unary maps whose derivative is written with other ops (so all of them are twice-differentiable).
function unaryOp(name: string, code: number, rule: (dy: Tensor, x: Tensor, y: Tensor) => Tensor) {
  const op = defineOp<undefined>({
    name,
    forward(_ctx, [x]) {
      const out = x.engine.empty(x.shape);
      x.engine.k.f32_unary(code, out.ptr, x.ptr, x.size);
      return out;
    },
    backward: (ctx, dy) => [rule(dy, ctx.inputs[0], ctx.out)],
  });
  return (x: Tensor) => op([x], undefined);
}

/** −x */
export const neg: (x: Tensor) => Tensor = unaryOp('neg', UnOp.neg, (dy) => neg(dy));
/** eˣ */
export const exp: (x: Tensor) => Tensor = unaryOp('exp', UnOp.exp, (dy, _x, y) => mul(dy, y));
/** ln x */
export const log: (x: Tensor) => Tensor = unaryOp('log', UnOp.log, (dy, x) => div(dy, x));
/** x² */
export const square: (x: Tensor) => Tensor = unaryOp('square', UnOp.square, (dy, x) => mul(dy, mul(x, 2)));
/** √x (the gradient at 0 is infinite, as in torch) */
export const sqrt: (x: Tensor) => Tensor = unaryOp('sqrt', UnOp.sqrt, (dy, _x, y) => div(dy, mul(y, 2)));
/** tanh x */
export const tanh: (x: Tensor) => Tensor = unaryOp('tanh', UnOp.tanh, (dy, _x, y) => mul(dy, sub(1, square(y))));
/** 1 / (1 + e⁻ˣ) */
export const sigmoid: (x: Tensor) => Tensor = unaryOp('sigmoid', UnOp.sigmoid, (dy, _x, y) =>
  mul(dy, mul(y, sub(1, y))),
);
/** log(1 + eˣ), computed stably */
export const softplus: (x: Tensor) => Tensor = unaryOp('softplus', UnOp.softplus, (dy, x) => mul(dy, sigmoid(x)));
/** |x| (gradient sign(x), 0 at 0) */
export const abs: (x: Tensor) => Tensor = unaryOp('abs', UnOp.abs, (dy, x) => mul(dy, constUnary(x, UnOp.sign)));
/** max(x, 0): the gradient multiplies by the constant mask [x > 0]. */
export const relu: (x: Tensor) => Tensor = unaryOp('relu', UnOp.relu, (dy, x) => mul(dy, gtMask(x, 0)));

// A value that autodiff treats as a constant (no graph).
function constUnary(x: Tensor, code: number): Tensor {
  const out = x.engine.empty(x.shape);
  x.engine.k.f32_unary(code, out.ptr, x.ptr, x.size);
  return out;
}

/** [x > thr] as 0/1 floats; a constant for autodiff (its derivative is zero almost everywhere). */
export function gtMask(x: Tensor, thr: number): Tensor {
  const out = x.engine.empty(x.shape);
  x.engine.k.f32_mask_gt(out.ptr, x.ptr, thr, x.size);
  return out;
}

/** max(x, lo); the gradient passes where x > lo (torch's clamp_min). */
export const clampMin = (x: Tensor, lo: number): Tensor => ClampMin([x], { lo });
const ClampMin = defineOp<{ lo: number }>({
  name: 'clampMin',
  forward(_ctx, [x], { lo }) {
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_binary_scalar(BinOp.max, 0, out.ptr, x.ptr, lo, x.size);
    return out;
  },
  backward: (ctx, dy) => [mul(dy, gtMask(ctx.inputs[0], ctx.attrs.lo))],
});

type LeakyAttrs = { alpha: number };

/** x > 0 ? x : alpha·x */
export function leakyRelu(x: Tensor, alpha = 0.2): Tensor {
  check(Number.isFinite(alpha), 'E_ARG', () => `leakyRelu: alpha is ${alpha}`);
  return LeakyRelu([x], { alpha });
}
const LeakyRelu = defineOp<LeakyAttrs>({
  name: 'leakyRelu',
  forward(_ctx, [x], { alpha }) {
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_leaky_relu(out.ptr, x.ptr, alpha, x.size);
    return out;
  },
  backward: (ctx, dy) => [LeakyReluGrad([dy, ctx.inputs[0]], ctx.attrs)],
});
// d/dx leakyRelu as a fused kernel; itself linear in dy, and x only selects the slope
// (derivative zero almost everywhere), so it stays differentiable to any order (torch's
// leaky_relu_backward row).
const LeakyReluGrad: Op<LeakyAttrs> = defineOp<LeakyAttrs>({
  name: 'leakyReluGrad',
  forward(_ctx, [dy, x], { alpha }) {
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_leaky_relu_bwd(out.ptr, dy.ptr, x.ptr, alpha, x.size);
    return out;
  },
  backward: (ctx, ddx) => [LeakyReluGrad([ddx, ctx.inputs[1]], ctx.attrs), null],
});
