// Reductions and their adjoint, expand. sumTo and expand are each other's gradient.
import { check } from '../../engine/errors.js';
import type { Shape, Tensor } from '../../engine/engine.js';
import { BinOp } from '../../engine/wasm.js';
import { defineOp } from '../tape.js';

const as2d = (s: Shape): [number, number] => (s.length === 0 ? [1, 1] : s.length === 1 ? [1, s[0]] : [s[0], s[1]]);
const same = (a: Shape, b: Shape) => a.length === b.length && a.every((d, i) => d === b[i]);

type ShapeAttrs = { shape: Shape };

// Sum x (N,D) down to a broadcast-compatible shape: (1,D)/(D) column sums, (N,1) row sums, scalar.
const SumTo = defineOp<ShapeAttrs>({
  name: 'sumTo',
  forward(_ctx, [x], { shape }) {
    const e = x.engine;
    const out = e.empty(shape);
    const [n, d] = as2d(x.shape);
    const [tn, td] = as2d(shape);
    if (tn === 1 && td === 1) e.k.f32_sum(out.ptr, x.ptr, x.size);
    else if (tn === 1) e.k.f32_sum_rows(out.ptr, x.ptr, n, d);
    else if (td === 1) e.k.f32_sum_cols(out.ptr, x.ptr, n, d);
    else e.k.f32_copy(out.ptr, x.ptr, x.size);
    return out;
  },
  backward: (ctx, dy) => [expand(dy, ctx.inputs[0].shape)],
});

// Broadcast x to `shape` (the adjoint of sumTo).
const Expand = defineOp<ShapeAttrs>({
  name: 'expand',
  forward(_ctx, [x], { shape }) {
    const e = x.engine;
    const out = e.empty(shape);
    const [n, d] = as2d(shape);
    const [xn, xd] = as2d(x.shape);
    if (x.size === 1) e.k.f32_fill(out.ptr, out.size, x.data[0]);
    else {
      e.k.f32_fill(out.ptr, out.size, 0);
      if (xn === 1) e.k.f32_binary_rows(BinOp.add, 0, out.ptr, out.ptr, x.ptr, n, d);
      else if (xd === 1) e.k.f32_binary_cols(BinOp.add, 0, out.ptr, out.ptr, x.ptr, n, d);
      else e.k.f32_copy(out.ptr, x.ptr, x.size);
    }
    return out;
  },
  backward: (ctx, dy) => [sumTo(dy, ctx.inputs[0].shape)],
});

/** Sums x over the broadcast dimensions so the result has `shape` (x itself when shapes agree). */
export function sumTo(x: Tensor, shape: Shape): Tensor {
  if (same(x.shape, shape)) return x;
  return SumTo([x], { shape });
}

/** Broadcasts x to `shape` (x itself when shapes agree). */
export function expand(x: Tensor, shape: Shape): Tensor {
  if (same(x.shape, shape)) return x;
  const [n, d] = as2d(shape);
  const [xn, xd] = as2d(x.shape);
  check(
    shape.length <= 2 && (xn === n || xn === 1) && (xd === d || xd === 1),
    'E_SHAPE',
    () => `expand: [${x.shape}] does not broadcast to [${shape}]`,
  );
  return Expand([x], { shape });
}

/**
 * Sum of all elements (no axis: shape []), or over one axis of a (N,D) tensor:
 * axis 0 → (D) (or (1,D) with keepDim), axis 1 → (N) (or (N,1) with keepDim).
 */
export function sum(x: Tensor, axis?: 0 | 1, keepDim = false): Tensor {
  if (axis === undefined) return SumTo([x], { shape: [] });
  check(x.rank === 2, 'E_SHAPE', () => `sum: axis ${axis} needs a (N, D) tensor, got [${x.shape}]`);
  const [n, d] = x.shape;
  if (axis === 0) {
    const r = SumTo([x], { shape: [1, d] });
    return keepDim ? r : r.rank === 2 ? reshapeKeep(r, [d]) : r;
  }
  const r = SumTo([x], { shape: [n, 1] });
  return keepDim ? r : reshapeKeep(r, [n]);
}

// reshape, without importing shape.ts (which imports this file).
const Reshape = defineOp<ShapeAttrs>({
  name: 'reshape',
  forward: (_ctx, [x], { shape }) => x.withShape(shape),
  backward: (ctx, dy) => [reshapeKeep(dy, ctx.inputs[0].shape)],
});

/** x with another shape of the same size (shares memory; the data is row-major contiguous). */
export function reshapeKeep(x: Tensor, shape: Shape): Tensor {
  check(
    shape.reduce((a, b) => a * b, 1) === x.size,
    'E_SHAPE',
    () => `reshape: cannot view [${x.shape}] as [${shape}]`,
  );
  if (same(x.shape, shape)) return x;
  return Reshape([x], { shape });
}
