// Row-wise softmax / log-softmax over a strided (N×D) block: row i of x starts at x + i·ldx
// floats, row i of out at out + i·ldo. Numerically stable (the row maximum is subtracted first).
// out may equal x (with ldo == ldx), so spans of a wider matrix can be normalised in place.
// A row holding +inf or NaN gives NaN, a row of all −inf gives NaN (as torch does).

import { hsum, hmax, exp_v, exp_s, log_s } from "../util/simd";

/** max of row[0..D) (−inf for D = 0). */
// @ts-ignore: decorator
@inline function rowMax(r: usize, D: i32): f32 {
  const nb = <usize>D << 2;
  const n8 = (<usize>D & ~7) << 2;
  const n4 = (<usize>D & ~3) << 2;
  let m0 = f32x4.splat(-Infinity);
  let m1 = f32x4.splat(-Infinity);
  let o: usize = 0;
  for (; o < n8; o += 32) {
    m0 = f32x4.max(m0, v128.load(r + o));
    m1 = f32x4.max(m1, v128.load(r + o, 16));
  }
  for (; o < n4; o += 16) m0 = f32x4.max(m0, v128.load(r + o));
  let m = hmax(f32x4.max(m0, m1));
  for (; o < nb; o += 4) m = max<f32>(m, load<f32>(r + o));
  return m;
}

/** out[j] = exp(x[j] − m) (if store) and returns Σ_j exp(x[j] − m). */
// @ts-ignore: decorator
@inline function expShiftSum(out: usize, r: usize, D: i32, m: f32, doStore: bool): f32 {
  const nb = <usize>D << 2;
  const n4 = (<usize>D & ~3) << 2;
  const mv = f32x4.splat(m);
  let acc = f32x4.splat(0.0);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    const e = exp_v(f32x4.sub(v128.load(r + o), mv));
    if (doStore) v128.store(out + o, e);
    acc = f32x4.add(acc, e);
  }
  let s = hsum(acc);
  for (; o < nb; o += 4) {
    const e = exp_s(load<f32>(r + o) - m);
    if (doStore) store<f32>(out + o, e);
    s += e;
  }
  return s;
}

/** out[i,j] = exp(x[i,j] − max_j x[i,·]) / Σ_j exp(x[i,j] − max). */
export function f32_softmax_rows(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && (N <= 1 || (ldo >= D && ldx >= D)));
  const nb = <usize>D << 2;
  const n4 = (<usize>D & ~3) << 2;
  for (let i = 0; i < N; i++) {
    const r = x + ((<usize>i * <usize>ldx) << 2);
    const w = out + ((<usize>i * <usize>ldo) << 2);
    const m = rowMax(r, D);
    const s = expShiftSum(w, r, D, m, true);
    const inv: f32 = <f32>1.0 / s;
    const iv = f32x4.splat(inv);
    let o: usize = 0;
    for (; o < n4; o += 16) v128.store(w + o, f32x4.mul(v128.load(w + o), iv));
    for (; o < nb; o += 4) store<f32>(w + o, load<f32>(w + o) * inv);
  }
}

export function ref_softmax_rows(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && (N <= 1 || (ldo >= D && ldx >= D)));
  for (let i = 0; i < N; i++) {
    const r = x + ((<usize>i * <usize>ldx) << 2);
    const w = out + ((<usize>i * <usize>ldo) << 2);
    let m: f32 = -Infinity;
    for (let j = 0; j < D; j++) m = Mathf.max(m, load<f32>(r + (<usize>j << 2)));
    let s: f64 = 0;
    for (let j = 0; j < D; j++) {
      const e = Math.exp(<f64>load<f32>(r + (<usize>j << 2)) - <f64>m);
      store<f32>(w + (<usize>j << 2), <f32>e);
      s += e;
    }
    for (let j = 0; j < D; j++) {
      const o = w + (<usize>j << 2);
      store<f32>(o, <f32>(<f64>load<f32>(o) / s));
    }
  }
}

/** out[i,j] = (x[i,j] − max) − log Σ_j exp(x[i,j] − max). */
export function f32_log_softmax_rows(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && (N <= 1 || (ldo >= D && ldx >= D)));
  const nb = <usize>D << 2;
  const n4 = (<usize>D & ~3) << 2;
  for (let i = 0; i < N; i++) {
    const r = x + ((<usize>i * <usize>ldx) << 2);
    const w = out + ((<usize>i * <usize>ldo) << 2);
    const m = rowMax(r, D);
    const ls = log_s(expShiftSum(0, r, D, m, false));
    const mv = f32x4.splat(m);
    const lv = f32x4.splat(ls);
    let o: usize = 0;
    for (; o < n4; o += 16) v128.store(w + o, f32x4.sub(f32x4.sub(v128.load(r + o), mv), lv));
    for (; o < nb; o += 4) store<f32>(w + o, (load<f32>(r + o) - m) - ls);
  }
}

export function ref_log_softmax_rows(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && (N <= 1 || (ldo >= D && ldx >= D)));
  for (let i = 0; i < N; i++) {
    const r = x + ((<usize>i * <usize>ldx) << 2);
    const w = out + ((<usize>i * <usize>ldo) << 2);
    let m: f32 = -Infinity;
    for (let j = 0; j < D; j++) m = Mathf.max(m, load<f32>(r + (<usize>j << 2)));
    let s: f64 = 0;
    for (let j = 0; j < D; j++) s += Math.exp(<f64>load<f32>(r + (<usize>j << 2)) - <f64>m);
    const ls = Math.log(s);
    for (let j = 0; j < D; j++) {
      const o = (<usize>j << 2);
      store<f32>(w + o, <f32>(<f64>load<f32>(r + o) - <f64>m - ls));
    }
  }
}
