// Shape ops: reshape (a view), column concat/slice and their adjoint pad. CTGAN's residual block
// concatenates along columns; PacGAN's grouping is a reshape.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import { defineOp, type Op } from '../tape.js';
import { reshapeKeep } from './reduce.js';

/** x viewed with another shape of the same size (no copy). One dimension may be −1. */
export function reshape(x: Tensor, shape: number[]): Tensor {
  const free = shape.indexOf(-1);
  if (free >= 0) {
    const known = shape.reduce((a, d, i) => (i === free ? a : a * d), 1);
    check(known > 0 && x.size % known === 0, 'E_SHAPE', () => `reshape: cannot view [${x.shape}] as [${shape}]`);
    shape = shape.map((d, i) => (i === free ? x.size / known : d));
  }
  return reshapeKeep(x, shape);
}

type SliceAttrs = { start: number; end: number };
type PadAttrs = { start: number; total: number };

// x[:, start:end] of a (N, D) tensor.
const SliceCols: Op<SliceAttrs> = defineOp<SliceAttrs>({
  name: 'sliceCols',
  forward(_ctx, [x], { start, end }) {
    const [n, d] = x.shape;
    const out = x.engine.empty([n, end - start]);
    x.engine.k.f32_copy2d(out.ptr, end - start, x.ptr + start * 4, d, n, end - start);
    return out;
  },
  backward: (ctx, dy) => [PadCols([dy], { start: ctx.attrs.start, total: ctx.inputs[0].shape[1] })],
});

// The adjoint of sliceCols: dy placed at columns start.. of a zero (N, total) tensor.
const PadCols: Op<PadAttrs> = defineOp<PadAttrs>({
  name: 'padCols',
  forward(_ctx, [x], { start, total }) {
    const [n, w] = x.shape;
    const out = x.engine.zeros([n, total]);
    x.engine.k.f32_copy2d(out.ptr + start * 4, total, x.ptr, w, n, w);
    return out;
  },
  backward: (ctx, dy) => [SliceCols([dy], { start: ctx.attrs.start, end: ctx.attrs.start + ctx.inputs[0].shape[1] })],
});

/** Columns start..end−1 of a (N, D) tensor. */
export function sliceCols(x: Tensor, start: number, end: number): Tensor {
  check(x.rank === 2, 'E_SHAPE', () => `sliceCols: x must be (N, D), got [${x.shape}]`);
  check(
    Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= x.shape[1],
    'E_ARG',
    () => `sliceCols: columns ${start}..${end} out of range for [${x.shape}]`,
  );
  return SliceCols([x], { start, end });
}

// Concatenation along columns of (N, Dᵢ) tensors.
const ConcatCols: Op<undefined> = defineOp<undefined>({
  name: 'concatCols',
  forward(_ctx, xs) {
    const n = xs[0].shape[0];
    const total = xs.reduce((a, x) => a + x.shape[1], 0);
    const out = xs[0].engine.empty([n, total]);
    let off = 0;
    for (const x of xs) {
      x.engine.k.f32_copy2d(out.ptr + off * 4, total, x.ptr, x.shape[1], n, x.shape[1]);
      off += x.shape[1];
    }
    return out;
  },
  backward(ctx, dy) {
    let off = 0;
    return ctx.inputs.map((x, i) => {
      const w = x.shape[1];
      const g = ctx.needsGrad[i] ? SliceCols([dy], { start: off, end: off + w }) : null;
      off += w;
      return g;
    });
  },
});

// Concatenation along rows (axis 0) of (Nᵢ, D) tensors: a contiguous copy.
const ConcatRows: Op<undefined> = defineOp<undefined>({
  name: 'concatRows',
  forward(_ctx, xs) {
    const d = xs[0].shape[1];
    const out = xs[0].engine.empty([xs.reduce((a, x) => a + x.shape[0], 0), d]);
    let off = 0;
    for (const x of xs) {
      x.engine.k.f32_copy(out.ptr + off * 4, x.ptr, x.size);
      off += x.size;
    }
    return out;
  },
  backward(ctx, dy) {
    let row = 0;
    return ctx.inputs.map((x, i) => {
      const r = x.shape[0];
      const g = ctx.needsGrad[i] ? sliceRows(dy, row, row + r) : null;
      row += r;
      return g;
    });
  },
});

// Rows start..end−1 of a (N, D) tensor (a contiguous copy).
const SliceRows: Op<SliceAttrs> = defineOp<SliceAttrs>({
  name: 'sliceRows',
  forward(_ctx, [x], { start, end }) {
    const d = x.shape[1];
    const out = x.engine.empty([end - start, d]);
    x.engine.k.f32_copy(out.ptr, x.ptr + start * d * 4, (end - start) * d);
    return out;
  },
  backward(ctx, dy) {
    const [n] = ctx.inputs[0].shape;
    const { start, end } = ctx.attrs;
    const parts: Tensor[] = [];
    const d = dy.shape[1];
    if (start > 0) parts.push(dy.engine.zeros([start, d]));
    parts.push(dy);
    if (end < n) parts.push(dy.engine.zeros([n - end, d]));
    return [parts.length === 1 ? dy : ConcatRows(parts, undefined)];
  },
});

/** Rows start..end−1 of a (N, D) tensor. */
export function sliceRows(x: Tensor, start: number, end: number): Tensor {
  check(x.rank === 2, 'E_SHAPE', () => `sliceRows: x must be (N, D), got [${x.shape}]`);
  check(
    Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= x.shape[0],
    'E_ARG',
    () => `sliceRows: rows ${start}..${end} out of range for [${x.shape}]`,
  );
  return SliceRows([x], { start, end });
}

/** Concatenates (N, Dᵢ) tensors along axis 1 (default) or (Nᵢ, D) tensors along axis 0. */
export function concat(xs: Tensor[], axis: 0 | 1 = 1): Tensor {
  check(xs.length > 0, 'E_ARG', () => 'concat: no tensors');
  for (const [i, x] of xs.entries()) {
    check(x.rank === 2, 'E_SHAPE', () => `concat: tensor ${i} must be 2-D, got [${x.shape}]`);
    const other = 1 - axis;
    check(
      x.shape[other] === xs[0].shape[other],
      'E_SHAPE',
      () => `concat: tensor ${i} has shape [${x.shape}], incompatible with [${xs[0].shape}] along axis ${axis}`,
    );
  }
  return axis === 1 ? ConcatCols(xs, undefined) : ConcatRows(xs, undefined);
}
