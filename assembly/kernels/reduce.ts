// Sums over a contiguous row-major (N×D) block: of all elements, per column, per row. Batch norm,
// which reduces per column too, has its own file (batchnorm.ts).
//
// Sums accumulate in f32x4 lanes (several independent vector accumulators) over blocks of at most
// SUM_BLOCK elements; the per-block partial sums are added in f64. The scalar twins accumulate in f64.

import { hsum } from "../util/simd";

/** Elements summed in f32 lanes before the partial sum is folded into the f64 total. */
const SUM_BLOCK: i32 = 4096;

/** Sum of x[0..n) in f32 lanes (4 vector accumulators), n ≤ a few thousand. */
// @ts-ignore: decorator
@inline function sumBlock(x: usize, n: i32): f32 {
  const nb = <usize>n << 2;
  const n16 = (<usize>n & ~15) << 2;
  const n4 = (<usize>n & ~3) << 2;
  let a0 = f32x4.splat(0.0);
  let a1 = f32x4.splat(0.0);
  let a2 = f32x4.splat(0.0);
  let a3 = f32x4.splat(0.0);
  let o: usize = 0;
  for (; o < n16; o += 64) {
    a0 = f32x4.add(a0, v128.load(x + o));
    a1 = f32x4.add(a1, v128.load(x + o, 16));
    a2 = f32x4.add(a2, v128.load(x + o, 32));
    a3 = f32x4.add(a3, v128.load(x + o, 48));
  }
  for (; o < n4; o += 16) a0 = f32x4.add(a0, v128.load(x + o));
  let s = hsum(f32x4.add(f32x4.add(a0, a1), f32x4.add(a2, a3)));
  for (; o < nb; o += 4) s += load<f32>(x + o);
  return s;
}

/** Sum of x[0..n) of any length: f32-lane blocks, f64 total. */
// @ts-ignore: decorator
@inline function sumRange(x: usize, n: i32): f32 {
  if (n <= SUM_BLOCK) return sumBlock(x, n);
  let total: f64 = 0;
  for (let i = 0; i < n; i += SUM_BLOCK) {
    total += <f64>sumBlock(x + (<usize>i << 2), min<i32>(SUM_BLOCK, n - i));
  }
  return <f32>total;
}

/** out[0] = Σ x[i]. */
export function f32_sum(out: usize, x: usize, n: i32): void {
  assert(n >= 0);
  store<f32>(out, sumRange(x, n));
}

export function ref_sum(out: usize, x: usize, n: i32): void {
  assert(n >= 0);
  let s: f64 = 0;
  for (let i = 0; i < n; i++) s += <f64>load<f32>(x + (<usize>i << 2));
  store<f32>(out, <f32>s);
}

/** Column sums: out[j] = Σ_i x[i,j]; out: (D). */
export function f32_sum_rows(out: usize, x: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0);
  const rb = <usize>D << 2;
  const xEnd = x + <usize>N * rb;
  let j = 0;
  // 16 columns at a time: 4 accumulators + 4 loads in registers.
  for (; j + 16 <= D; j += 16) {
    let a0 = f32x4.splat(0.0);
    let a1 = f32x4.splat(0.0);
    let a2 = f32x4.splat(0.0);
    let a3 = f32x4.splat(0.0);
    for (let p = x + (<usize>j << 2); p < xEnd; p += rb) {
      a0 = f32x4.add(a0, v128.load(p));
      a1 = f32x4.add(a1, v128.load(p, 16));
      a2 = f32x4.add(a2, v128.load(p, 32));
      a3 = f32x4.add(a3, v128.load(p, 48));
    }
    const o = out + (<usize>j << 2);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
  }
  for (; j + 4 <= D; j += 4) {
    let a0 = f32x4.splat(0.0);
    for (let p = x + (<usize>j << 2); p < xEnd; p += rb) a0 = f32x4.add(a0, v128.load(p));
    v128.store(out + (<usize>j << 2), a0);
  }
  for (; j < D; j++) {
    let s: f32 = 0;
    for (let p = x + (<usize>j << 2); p < xEnd; p += rb) s += load<f32>(p);
    store<f32>(out + (<usize>j << 2), s);
  }
}

export function ref_sum_rows(out: usize, x: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0);
  for (let j = 0; j < D; j++) {
    let s: f64 = 0;
    for (let i = 0; i < N; i++) s += <f64>load<f32>(x + ((<usize>i * <usize>D + <usize>j) << 2));
    store<f32>(out + (<usize>j << 2), <f32>s);
  }
}

/** Row sums: out[i] = Σ_j x[i,j]; out: (N). */
export function f32_sum_cols(out: usize, x: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0);
  const rb = <usize>D << 2;
  for (let i = 0; i < N; i++) {
    store<f32>(out + (<usize>i << 2), sumRange(x + <usize>i * rb, D));
  }
}

export function ref_sum_cols(out: usize, x: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0);
  for (let i = 0; i < N; i++) {
    let s: f64 = 0;
    for (let j = 0; j < D; j++) s += <f64>load<f32>(x + ((<usize>i * <usize>D + <usize>j) << 2));
    store<f32>(out + (<usize>i << 2), <f32>s);
  }
}
