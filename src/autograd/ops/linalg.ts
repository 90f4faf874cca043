// Matrix products. The transposes live in GEMM flags (packing), never in materialised copies,
// so every backward product runs at full speed.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import { defineOp, type Op } from '../tape.js';
import { add } from './elementwise.js';

type MatAttrs = { tA: boolean; tB: boolean };

// C = op(A)·op(B). A: (M,K) or stored (K,M) when tA; B: (K,N) or stored (N,K) when tB.
const MatMul: Op<MatAttrs> = defineOp<MatAttrs>({
  name: 'matmul',
  forward(_ctx, [a, b], { tA, tB }) {
    const e = a.engine;
    const m = tA ? a.shape[1] : a.shape[0];
    const k = tA ? a.shape[0] : a.shape[1];
    const n = tB ? b.shape[0] : b.shape[1];
    const c = e.empty([m, n]);
    e.k.f32_gemm(tA ? 1 : 0, tB ? 1 : 0, m, n, k, a.ptr, a.shape[1], b.ptr, b.shape[1], 0, c.ptr, n, e.gemmWork);
    return c;
  },
  backward(ctx, dc) {
    const [a, b] = ctx.inputs;
    const { tA, tB } = ctx.attrs;
    // d op(A) = dC·op(B)ᵀ and d op(B) = op(A)ᵀ·dC, each folded back through its own transpose.
    const da = !ctx.needsGrad[0]
      ? null
      : tA
        ? MatMul([b, dc], { tA: tB, tB: true })
        : MatMul([dc, b], { tA: false, tB: !tB });
    const db = !ctx.needsGrad[1]
      ? null
      : tB
        ? MatMul([dc, a], { tA: true, tB: tA })
        : MatMul([a, dc], { tA: !tA, tB: false });
    return [da, db];
  },
});

/**
 * Matrix product op(a)·op(b) of 2-D tensors; `transA`/`transB` read a or b transposed.
 * @example matmul(x, W, { transB: true }) // x: (N, in), W: (out, in) → (N, out)
 */
export function matmul(a: Tensor, b: Tensor, opts: { transA?: boolean; transB?: boolean } = {}): Tensor {
  const tA = opts.transA ?? false;
  const tB = opts.transB ?? false;
  check(a.rank === 2, 'E_SHAPE', () => `matmul: a must be 2-D, got [${a.shape}]`);
  check(b.rank === 2, 'E_SHAPE', () => `matmul: b must be 2-D, got [${b.shape}]`);
  const ka = tA ? a.shape[0] : a.shape[1];
  const kb = tB ? b.shape[1] : b.shape[0];
  check(
    ka === kb,
    'E_SHAPE',
    () =>
      `matmul: inner dimensions differ: op(a) is [${tA ? [a.shape[1], a.shape[0]] : a.shape}], op(b) is ` +
      `[${tB ? [b.shape[1], b.shape[0]] : b.shape}]`,
  );
  return MatMul([a, b], { tA, tB });
}

/** x·Wᵀ + b with torch's layout. x: (N, in), W: (out, in), b: (out) → (N, out). */
export function linear(x: Tensor, W: Tensor, b?: Tensor): Tensor {
  check(W.rank === 2, 'E_SHAPE', () => `linear: W must be (out, in), got [${W.shape}]`);
  check(
    x.rank === 2 && x.shape[1] === W.shape[1],
    'E_SHAPE',
    () => `linear: x is [${x.shape}] but W expects ${W.shape[1]} input features`,
  );
  const y = matmul(x, W, { transB: true });
  if (!b) return y;
  check(b.size === W.shape[0], 'E_SHAPE', () => `linear: bias has ${b.size} elements, expected ${W.shape[0]}`);
  return add(y, b);
}
