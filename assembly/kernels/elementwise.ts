// Elementwise kernels: fills, copies, binary maps (with scalar / row / column broadcasting),
// axpy, scaling, the unary map `f32_unary(op, …)` and the activation / mask helpers.
//
// Every kernel allows out == input (in place). The opcode switch happens once, outside the loops;
// each case instantiates an @inline loop template with a constant opcode, so every loop body is
// branch-free. Main loops go four lanes at a time, the tail element by element with the SAME
// arithmetic (see util/simd.ts), so a value's result does not depend on its position.

import {
  exp_v, exp_s, log_v, log_s, tanh_v, tanh_s, sigmoid_v, sigmoid_s, softplus_v, softplus_s,
} from "../util/simd";

// ---------------------------------------------------------------------------------------------
// Opcodes.

/** Binary opcodes (f32_binary, f32_binary_scalar, f32_binary_rows, f32_binary_cols). */
export enum BinaryOp {
  Add = 0,
  Sub = 1,
  Mul = 2,
  Div = 3,
  /** NaN-propagating, like torch.maximum */
  Max = 4,
  /** NaN-propagating, like torch.minimum */
  Min = 5,
}

// Internal: the swapped (s ∘ x) forms of the non-commutative ops.
const RSUB: i32 = 6;
const RDIV: i32 = 7;

/**
 * Unary opcodes of f32_unary(op, out, x, n):
 *
 *  | op | name       | out[i] =                                    |
 *  |----|------------|---------------------------------------------|
 *  |  0 | Neg        | −x                                          |
 *  |  1 | Relu       | max(x, 0)   (NaN stays NaN)                 |
 *  |  2 | Tanh       | tanh x                                      |
 *  |  3 | Sigmoid    | 1 / (1 + e^−x), stable for both signs       |
 *  |  4 | Exp        | e^x (overflow → +inf, underflow → 0)        |
 *  |  5 | Log        | ln x (0 → −inf, x < 0 → NaN)                |
 *  |  6 | Square     | x·x                                         |
 *  |  7 | Sqrt       | √x (x < 0 → NaN)                            |
 *  |  8 | Abs        | |x|                                         |
 *  |  9 | Softplus   | max(x, 0) + log1p(e^−|x|)                   |
 *  | 10 | Reciprocal | 1 / x                                       |
 *  | 11 | Sign       | 1 if x > 0, −1 if x < 0, 0 if x == ±0 or NaN |
 *
 * tanh / sigmoid / exp / log / softplus use the polynomial approximations of util/simd.ts
 * (within 2e-6 relative or 1e-6 absolute of the exact values); the others are exact.
 */
export enum UnaryOp {
  Neg = 0,
  Relu = 1,
  Tanh = 2,
  Sigmoid = 3,
  Exp = 4,
  Log = 5,
  Square = 6,
  Sqrt = 7,
  Abs = 8,
  Softplus = 9,
  Reciprocal = 10,
  Sign = 11,
}

/** Number of unary opcodes (valid ops are 0 … UNARY_OP_COUNT−1). */
export const UNARY_OP_COUNT: i32 = 12;

// ---------------------------------------------------------------------------------------------
// Loop templates (always called with a constant op so the compiler folds the op dispatch).

// @ts-ignore: decorator
@inline function binV(op: i32, a: v128, b: v128): v128 {
  if (op == BinaryOp.Add) return f32x4.add(a, b);
  if (op == BinaryOp.Sub) return f32x4.sub(a, b);
  if (op == BinaryOp.Mul) return f32x4.mul(a, b);
  if (op == BinaryOp.Div) return f32x4.div(a, b);
  if (op == BinaryOp.Max) return f32x4.max(a, b);
  if (op == BinaryOp.Min) return f32x4.min(a, b);
  if (op == RSUB) return f32x4.sub(b, a);
  return f32x4.div(b, a); // RDIV
}

// @ts-ignore: decorator
@inline function binS(op: i32, a: f32, b: f32): f32 {
  if (op == BinaryOp.Add) return a + b;
  if (op == BinaryOp.Sub) return a - b;
  if (op == BinaryOp.Mul) return a * b;
  if (op == BinaryOp.Div) return a / b;
  if (op == BinaryOp.Max) return max<f32>(a, b);
  if (op == BinaryOp.Min) return min<f32>(a, b);
  if (op == RSUB) return b - a;
  return b / a; // RDIV
}

/** out[i] = a[i] ∘ b[i], i < n. */
// @ts-ignore: decorator
@inline function binLoop(op: i32, out: usize, a: usize, b: usize, n: i32): void {
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(out + o, binV(op, v128.load(a + o), v128.load(b + o)));
  }
  for (; o < nb; o += 4) {
    store<f32>(out + o, binS(op, load<f32>(a + o), load<f32>(b + o)));
  }
}

/** out[i] = x[i] ∘ s (op may be RSUB / RDIV for s ∘ x). */
// @ts-ignore: decorator
@inline function binScalarLoop(op: i32, out: usize, x: usize, s: f32, n: i32): void {
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const sv = f32x4.splat(s);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(out + o, binV(op, v128.load(x + o), sv));
  }
  for (; o < nb; o += 4) {
    store<f32>(out + o, binS(op, load<f32>(x + o), s));
  }
}

// @ts-ignore: decorator
@inline function unaryV(op: i32, x: v128): v128 {
  if (op == UnaryOp.Neg) return f32x4.neg(x);
  if (op == UnaryOp.Relu) return f32x4.max(x, f32x4.splat(0.0));
  if (op == UnaryOp.Tanh) return tanh_v(x);
  if (op == UnaryOp.Sigmoid) return sigmoid_v(x);
  if (op == UnaryOp.Exp) return exp_v(x);
  if (op == UnaryOp.Log) return log_v(x);
  if (op == UnaryOp.Square) return f32x4.mul(x, x);
  if (op == UnaryOp.Sqrt) return f32x4.sqrt(x);
  if (op == UnaryOp.Abs) return f32x4.abs(x);
  if (op == UnaryOp.Softplus) return softplus_v(x);
  if (op == UnaryOp.Reciprocal) return f32x4.div(f32x4.splat(1.0), x);
  // Sign: (x > 0) − (x < 0)
  const one = f32x4.splat(1.0);
  return f32x4.sub(
    v128.and(f32x4.gt(x, f32x4.splat(0.0)), one),
    v128.and(f32x4.lt(x, f32x4.splat(0.0)), one),
  );
}

// @ts-ignore: decorator
@inline function unaryS(op: i32, x: f32): f32 {
  if (op == UnaryOp.Neg) return -x;
  if (op == UnaryOp.Relu) return max<f32>(x, 0);
  if (op == UnaryOp.Tanh) return tanh_s(x);
  if (op == UnaryOp.Sigmoid) return sigmoid_s(x);
  if (op == UnaryOp.Exp) return exp_s(x);
  if (op == UnaryOp.Log) return log_s(x);
  if (op == UnaryOp.Square) return x * x;
  if (op == UnaryOp.Sqrt) return sqrt<f32>(x);
  if (op == UnaryOp.Abs) return abs<f32>(x);
  if (op == UnaryOp.Softplus) return softplus_s(x);
  if (op == UnaryOp.Reciprocal) return <f32>1.0 / x;
  return select<f32>(1, 0, x > 0) - select<f32>(1, 0, x < 0);
}

// @ts-ignore: decorator
@inline function unaryLoop(op: i32, out: usize, x: usize, n: i32): void {
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(out + o, unaryV(op, v128.load(x + o)));
  }
  for (; o < nb; o += 4) {
    store<f32>(out + o, unaryS(op, load<f32>(x + o)));
  }
}

/** Effective opcode of `swap ? s ∘ x : x ∘ s`. */
// @ts-ignore: decorator
@inline function swapped(op: i32, swap: i32): i32 {
  if (swap != 0) {
    if (op == BinaryOp.Sub) return RSUB;
    if (op == BinaryOp.Div) return RDIV;
  }
  return op;
}

// ---------------------------------------------------------------------------------------------
// Kernels.

/** out[i] = v, i < n. */
export function f32_fill(out: usize, n: i32, v: f32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const vv = f32x4.splat(v);
  let o: usize = 0;
  for (; o < n4; o += 16) v128.store(out + o, vv);
  for (; o < nb; o += 4) store<f32>(out + o, v);
}

export function ref_fill(out: usize, n: i32, v: f32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) store<f32>(out + (<usize>i << 2), v);
}

/** out[i] = x[i], i < n (overlap allowed: memmove semantics). */
export function f32_copy(out: usize, x: usize, n: i32): void {
  assert(n >= 0);
  memory.copy(out, x, <usize>n << 2);
}

export function ref_copy(out: usize, x: usize, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) store<f32>(out + (<usize>i << 2), load<f32>(x + (<usize>i << 2)));
}

/** out[i] = a[i] ∘ b[i] (op: BinaryOp). */
export function f32_binary(op: i32, out: usize, a: usize, b: usize, n: i32): void {
  assert(n >= 0 && op >= 0 && op <= 5);
  switch (op) {
    case BinaryOp.Add: binLoop(BinaryOp.Add, out, a, b, n); break;
    case BinaryOp.Sub: binLoop(BinaryOp.Sub, out, a, b, n); break;
    case BinaryOp.Mul: binLoop(BinaryOp.Mul, out, a, b, n); break;
    case BinaryOp.Div: binLoop(BinaryOp.Div, out, a, b, n); break;
    case BinaryOp.Max: binLoop(BinaryOp.Max, out, a, b, n); break;
    case BinaryOp.Min: binLoop(BinaryOp.Min, out, a, b, n); break;
    default: break;
  }
}

// @ts-ignore: decorator
@inline function refBin(op: i32, a: f32, b: f32): f32 {
  switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return max<f32>(a, b);
    case 5: return min<f32>(a, b);
    default: return NaN;
  }
}

export function ref_binary(op: i32, out: usize, a: usize, b: usize, n: i32): void {
  assert(n >= 0 && op >= 0 && op <= 5);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, refBin(op, load<f32>(a + o), load<f32>(b + o)));
  }
}

/** out[i] = swap ? s ∘ x[i] : x[i] ∘ s. */
export function f32_binary_scalar(op: i32, swap: i32, out: usize, x: usize, s: f32, n: i32): void {
  assert(n >= 0 && op >= 0 && op <= 5);
  switch (swapped(op, swap)) {
    case BinaryOp.Add: binScalarLoop(BinaryOp.Add, out, x, s, n); break;
    case BinaryOp.Sub: binScalarLoop(BinaryOp.Sub, out, x, s, n); break;
    case BinaryOp.Mul: binScalarLoop(BinaryOp.Mul, out, x, s, n); break;
    case BinaryOp.Div: binScalarLoop(BinaryOp.Div, out, x, s, n); break;
    case BinaryOp.Max: binScalarLoop(BinaryOp.Max, out, x, s, n); break;
    case BinaryOp.Min: binScalarLoop(BinaryOp.Min, out, x, s, n); break;
    case RSUB: binScalarLoop(RSUB, out, x, s, n); break;
    case RDIV: binScalarLoop(RDIV, out, x, s, n); break;
    default: break;
  }
}

export function ref_binary_scalar(op: i32, swap: i32, out: usize, x: usize, s: f32, n: i32): void {
  assert(n >= 0 && op >= 0 && op <= 5);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const xi = load<f32>(x + o);
    store<f32>(out + o, swap != 0 ? refBin(op, s, xi) : refBin(op, xi, s));
  }
}

// @ts-ignore: decorator
@inline function rowsLoop(op: i32, swap: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  const rb = <usize>D << 2;
  for (let i = 0; i < N; i++) {
    const xr = x + <usize>i * rb;
    const or = out + <usize>i * rb;
    if (swap != 0) binLoop(op, or, v, xr, D);
    else binLoop(op, or, xr, v, D);
  }
}

/** out[i,j] = swap ? v[j] ∘ x[i,j] : x[i,j] ∘ v[j]; x, out: (N×D), v: (D). */
export function f32_binary_rows(op: i32, swap: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && op >= 0 && op <= 5);
  switch (op) {
    case BinaryOp.Add: rowsLoop(BinaryOp.Add, swap, out, x, v, N, D); break;
    case BinaryOp.Sub: rowsLoop(BinaryOp.Sub, swap, out, x, v, N, D); break;
    case BinaryOp.Mul: rowsLoop(BinaryOp.Mul, swap, out, x, v, N, D); break;
    case BinaryOp.Div: rowsLoop(BinaryOp.Div, swap, out, x, v, N, D); break;
    case BinaryOp.Max: rowsLoop(BinaryOp.Max, swap, out, x, v, N, D); break;
    case BinaryOp.Min: rowsLoop(BinaryOp.Min, swap, out, x, v, N, D); break;
    default: break;
  }
}

export function ref_binary_rows(op: i32, swap: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && op >= 0 && op <= 5);
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < D; j++) {
      const o = (<usize>i * <usize>D + <usize>j) << 2;
      const xi = load<f32>(x + o);
      const vj = load<f32>(v + (<usize>j << 2));
      store<f32>(out + o, swap != 0 ? refBin(op, vj, xi) : refBin(op, xi, vj));
    }
  }
}

// @ts-ignore: decorator
@inline function colsLoop(op: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  const rb = <usize>D << 2;
  for (let i = 0; i < N; i++) {
    binScalarLoop(op, out + <usize>i * rb, x + <usize>i * rb, load<f32>(v + (<usize>i << 2)), D);
  }
}

/** out[i,j] = swap ? v[i] ∘ x[i,j] : x[i,j] ∘ v[i]; x, out: (N×D), v: (N). */
export function f32_binary_cols(op: i32, swap: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && op >= 0 && op <= 5);
  switch (swapped(op, swap)) {
    case BinaryOp.Add: colsLoop(BinaryOp.Add, out, x, v, N, D); break;
    case BinaryOp.Sub: colsLoop(BinaryOp.Sub, out, x, v, N, D); break;
    case BinaryOp.Mul: colsLoop(BinaryOp.Mul, out, x, v, N, D); break;
    case BinaryOp.Div: colsLoop(BinaryOp.Div, out, x, v, N, D); break;
    case BinaryOp.Max: colsLoop(BinaryOp.Max, out, x, v, N, D); break;
    case BinaryOp.Min: colsLoop(BinaryOp.Min, out, x, v, N, D); break;
    case RSUB: colsLoop(RSUB, out, x, v, N, D); break;
    case RDIV: colsLoop(RDIV, out, x, v, N, D); break;
    default: break;
  }
}

export function ref_binary_cols(op: i32, swap: i32, out: usize, x: usize, v: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && op >= 0 && op <= 5);
  for (let i = 0; i < N; i++) {
    const vi = load<f32>(v + (<usize>i << 2));
    for (let j = 0; j < D; j++) {
      const o = (<usize>i * <usize>D + <usize>j) << 2;
      const xi = load<f32>(x + o);
      store<f32>(out + o, swap != 0 ? refBin(op, vi, xi) : refBin(op, xi, vi));
    }
  }
}

/** y[i] += alpha·x[i]. */
export function f32_axpy(y: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const av = f32x4.splat(alpha);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(y + o, f32x4.add(v128.load(y + o), f32x4.mul(av, v128.load(x + o))));
  }
  for (; o < nb; o += 4) store<f32>(y + o, load<f32>(y + o) + alpha * load<f32>(x + o));
}

export function ref_axpy(y: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(y + o, load<f32>(y + o) + alpha * load<f32>(x + o));
  }
}

/** out[i] = x[i]·s. */
export function f32_scale(out: usize, x: usize, s: f32, n: i32): void {
  assert(n >= 0);
  binScalarLoop(BinaryOp.Mul, out, x, s, n);
}

export function ref_scale(out: usize, x: usize, s: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, load<f32>(x + o) * s);
  }
}

/** out[i] = f(x[i]) for f = UnaryOp `op`. */
export function f32_unary(op: i32, out: usize, x: usize, n: i32): void {
  assert(n >= 0 && op >= 0 && op < UNARY_OP_COUNT);
  switch (op) {
    case UnaryOp.Neg: unaryLoop(UnaryOp.Neg, out, x, n); break;
    case UnaryOp.Relu: unaryLoop(UnaryOp.Relu, out, x, n); break;
    case UnaryOp.Tanh: unaryLoop(UnaryOp.Tanh, out, x, n); break;
    case UnaryOp.Sigmoid: unaryLoop(UnaryOp.Sigmoid, out, x, n); break;
    case UnaryOp.Exp: unaryLoop(UnaryOp.Exp, out, x, n); break;
    case UnaryOp.Log: unaryLoop(UnaryOp.Log, out, x, n); break;
    case UnaryOp.Square: unaryLoop(UnaryOp.Square, out, x, n); break;
    case UnaryOp.Sqrt: unaryLoop(UnaryOp.Sqrt, out, x, n); break;
    case UnaryOp.Abs: unaryLoop(UnaryOp.Abs, out, x, n); break;
    case UnaryOp.Softplus: unaryLoop(UnaryOp.Softplus, out, x, n); break;
    case UnaryOp.Reciprocal: unaryLoop(UnaryOp.Reciprocal, out, x, n); break;
    case UnaryOp.Sign: unaryLoop(UnaryOp.Sign, out, x, n); break;
    default: break;
  }
}

export function ref_unary(op: i32, out: usize, x: usize, n: i32): void {
  assert(n >= 0 && op >= 0 && op < UNARY_OP_COUNT);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const v = load<f32>(x + o);
    let r: f32;
    switch (op) {
      case UnaryOp.Neg: r = -v; break;
      case UnaryOp.Relu: r = v > 0 ? v : (v != v ? v : 0); break;
      case UnaryOp.Tanh: r = Mathf.tanh(v); break;
      case UnaryOp.Sigmoid: r = <f32>(1.0 / (1.0 + Math.exp(-<f64>v))); break;
      case UnaryOp.Exp: r = Mathf.exp(v); break;
      case UnaryOp.Log: r = Mathf.log(v); break;
      case UnaryOp.Square: r = v * v; break;
      case UnaryOp.Sqrt: r = Mathf.sqrt(v); break;
      case UnaryOp.Abs: r = Mathf.abs(v); break;
      case UnaryOp.Softplus: r = Mathf.max(v, 0) + Mathf.log1p(Mathf.exp(-Mathf.abs(v))); break;
      case UnaryOp.Reciprocal: r = 1 / v; break;
      default: r = v > 0 ? 1 : (v < 0 ? -1 : 0); break;
    }
    store<f32>(out + o, r);
  }
}

/** out[i] = x[i] > 0 ? x[i] : alpha·x[i]. */
export function f32_leaky_relu(out: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const zero = f32x4.splat(0.0);
  const av = f32x4.splat(alpha);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    const v = v128.load(x + o);
    v128.store(out + o, v128.bitselect(v, f32x4.mul(v, av), f32x4.gt(v, zero)));
  }
  for (; o < nb; o += 4) {
    const v = load<f32>(x + o);
    store<f32>(out + o, select<f32>(v, v * alpha, v > 0));
  }
}

export function ref_leaky_relu(out: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const v = load<f32>(x + o);
    store<f32>(out + o, v > 0 ? v : v * alpha);
  }
}

/** out[i] = x[i] > 0 ? dy[i] : alpha·dy[i]. */
export function f32_leaky_relu_bwd(out: usize, dy: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const zero = f32x4.splat(0.0);
  const av = f32x4.splat(alpha);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    const g = v128.load(dy + o);
    v128.store(out + o, v128.bitselect(g, f32x4.mul(g, av), f32x4.gt(v128.load(x + o), zero)));
  }
  for (; o < nb; o += 4) {
    const g = load<f32>(dy + o);
    store<f32>(out + o, select<f32>(g, g * alpha, load<f32>(x + o) > 0));
  }
}

export function ref_leaky_relu_bwd(out: usize, dy: usize, x: usize, alpha: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const g = load<f32>(dy + o);
    store<f32>(out + o, load<f32>(x + o) > 0 ? g : g * alpha);
  }
}

/** out[i] = x[i] > thr ? 1 : 0. */
export function f32_mask_gt(out: usize, x: usize, thr: f32, n: i32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const tv = f32x4.splat(thr);
  const one = f32x4.splat(1.0);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(out + o, v128.and(f32x4.gt(v128.load(x + o), tv), one));
  }
  for (; o < nb; o += 4) store<f32>(out + o, select<f32>(1, 0, load<f32>(x + o) > thr));
}

export function ref_mask_gt(out: usize, x: usize, thr: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, load<f32>(x + o) > thr ? 1 : 0);
  }
}

/** out[i] = u[i] ≥ p ? 1/(1−p) : 0 (u uniform in [0,1): inverted-dropout mask). */
export function f32_dropout_mask(out: usize, u: usize, p: f32, n: i32): void {
  assert(n >= 0);
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const scale: f32 = <f32>1.0 / (<f32>1.0 - p);
  const pv = f32x4.splat(p);
  const sv = f32x4.splat(scale);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(out + o, v128.and(f32x4.ge(v128.load(u + o), pv), sv));
  }
  for (; o < nb; o += 4) store<f32>(out + o, select<f32>(scale, 0, load<f32>(u + o) >= p));
}

export function ref_dropout_mask(out: usize, u: usize, p: f32, n: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, load<f32>(u + o) >= p ? <f32>1.0 / (<f32>1.0 - p) : 0);
  }
}
