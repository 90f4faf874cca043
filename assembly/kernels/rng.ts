// Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC'11), the generator torch uses on CUDA.
//
// key = (key0, key1), counter = the 128-bit (ctr0, ctr1, 0, 0) + block index (with carries).
// Value i of a call comes from block ⌊i/4⌋, lane i mod 4, so a call with n values consumes ⌈n/4⌉
// blocks, and value i does not depend on n (a prefix of a longer draw equals a shorter draw).
// The host advances its counter by ⌈n/4⌉ blocks per call. key0 … ctr1 are i32 carrying u32 bits.
//
// Transforms of the 32-bit lane x:
//   uniform  u = (x >>> 8)·2^-24                      ∈ [0, 1)
//   normal   Box–Muller per lane pair (0,1) and (2,3) of a block, with u = ((x >>> 8) + 1)·2^-24
//            ∈ (0, 1]: z_even = √(−2 ln u_even)·cos(2π u_odd), z_odd = √(−2 ln u_even)·sin(2π u_odd)
//   gumbel   g = −ln(−ln u), u = ((x >>> 9) + 0.5)·2^-23 ∈ [2^-24, 1 − 2^-24] (exact in f32, so
//            strictly inside (0, 1) and g is always finite)
// The main loop runs four blocks at a time in SIMD (lanes = blocks, transposed at the end); the
// tail runs the same arithmetic in scalar form, so results are bit-identical wherever a block falls.

import { log_v, log_s, sincos2pi_v, sincos2pi_s } from "../util/simd";

const M0: u32 = 0xD2511F53;
const M1: u32 = 0xCD9E8D57;
const W0: u32 = 0x9E3779B9;
const W1: u32 = 0xBB67AE85;
const TWO_M24: f32 = 5.9604644775390625e-8; // 2^-24
const TWO_M23: f32 = 1.1920928955078125e-7; // 2^-23

const KIND_UNIFORM = 0;
const KIND_NORMAL = 1;
const KIND_GUMBEL = 2;
const KIND_BITS = 3;

// ---------------------------------------------------------------------------------------------
// Scalar Philox4x32-10: one block, returned as a v128 of four u32 lanes.

// @ts-ignore: decorator
@inline function philox_s(c0: u32, c1: u32, c2: u32, c3: u32, k0: u32, k1: u32): v128 {
  for (let r = 0; r < 10; r++) {
    const p0 = <u64>M0 * <u64>c0;
    const p1 = <u64>M1 * <u64>c2;
    const n0 = <u32>(p1 >>> 32) ^ c1 ^ k0;
    const n2 = <u32>(p0 >>> 32) ^ c3 ^ k1;
    c1 = <u32>p1;
    c3 = <u32>p0;
    c0 = n0;
    c2 = n2;
    k0 += W0;
    k1 += W1;
  }
  let v = i32x4.splat(c0);
  v = i32x4.replace_lane(v, 1, c1);
  v = i32x4.replace_lane(v, 2, c2);
  v = i32x4.replace_lane(v, 3, c3);
  return v;
}

/** Philox4x32-10 of one block: out4 (4 u32) = philox(counter (c0,c1,c2,c3), key (k0,k1)). */
export function philox_block(out4: usize, c0: i32, c1: i32, c2: i32, c3: i32, k0: i32, k1: i32): void {
  v128.store(out4, philox_s(<u32>c0, <u32>c1, <u32>c2, <u32>c3, <u32>k0, <u32>k1));
}

// ---------------------------------------------------------------------------------------------
// Transforms (vector and scalar twins).

// @ts-ignore: decorator
@inline function unif_v(x: v128): v128 {
  return f32x4.mul(f32x4.convert_i32x4_u(i32x4.shr_u(x, 8)), f32x4.splat(TWO_M24));
}
// @ts-ignore: decorator
@inline function unif_s(x: u32): f32 {
  return <f32>(x >>> 8) * TWO_M24;
}
// @ts-ignore: decorator
@inline function open1_v(x: v128): v128 {
  return f32x4.mul(f32x4.convert_i32x4_u(i32x4.add(i32x4.shr_u(x, 8), i32x4.splat(1))), f32x4.splat(TWO_M24));
}
// @ts-ignore: decorator
@inline function open1_s(x: u32): f32 {
  return <f32>((x >>> 8) + 1) * TWO_M24;
}
// @ts-ignore: decorator
@inline function gumbel_v(x: v128): v128 {
  const u = f32x4.mul(
    f32x4.add(f32x4.convert_i32x4_u(i32x4.shr_u(x, 9)), f32x4.splat(0.5)),
    f32x4.splat(TWO_M23),
  );
  return f32x4.neg(log_v(f32x4.neg(log_v(u))));
}
// @ts-ignore: decorator
@inline function gumbel_s(x: u32): f32 {
  const u = (<f32>(x >>> 9) + <f32>0.5) * TWO_M23;
  return -log_s(-log_s(u));
}
// @ts-ignore: decorator
@inline function bmRadius_v(x: v128): v128 {
  return f32x4.sqrt(f32x4.mul(f32x4.splat(-2.0), log_v(open1_v(x))));
}
// @ts-ignore: decorator
@inline function bmRadius_s(x: u32): f32 {
  return sqrt<f32>(<f32>-2.0 * log_s(open1_s(x)));
}

/** Scalar transform of one block (lanes = the block's four u32) into four output values. */
// @ts-ignore: decorator
@inline function transformBlock_s(kind: i32, b: v128): v128 {
  const x0 = <u32>i32x4.extract_lane(b, 0);
  const x1 = <u32>i32x4.extract_lane(b, 1);
  const x2 = <u32>i32x4.extract_lane(b, 2);
  const x3 = <u32>i32x4.extract_lane(b, 3);
  if (kind == KIND_BITS) return b;
  let r0: f32, r1: f32, r2: f32, r3: f32;
  if (kind == KIND_UNIFORM) {
    r0 = unif_s(x0); r1 = unif_s(x1); r2 = unif_s(x2); r3 = unif_s(x3);
  } else if (kind == KIND_GUMBEL) {
    r0 = gumbel_s(x0); r1 = gumbel_s(x1); r2 = gumbel_s(x2); r3 = gumbel_s(x3);
  } else {
    const ra = bmRadius_s(x0);
    const ua = open1_s(x1);
    const rb = bmRadius_s(x2);
    const ub = open1_s(x3);
    r0 = ra * sincos2pi_s(ua, false);
    r1 = ra * sincos2pi_s(ua, true);
    r2 = rb * sincos2pi_s(ub, false);
    r3 = rb * sincos2pi_s(ub, true);
  }
  let v = f32x4.splat(r0);
  v = f32x4.replace_lane(v, 1, r1);
  v = f32x4.replace_lane(v, 2, r2);
  v = f32x4.replace_lane(v, 3, r3);
  return v;
}

// ---------------------------------------------------------------------------------------------
// The generator loop: four blocks per SIMD iteration, then the remaining blocks one by one.

// @ts-ignore: decorator
@inline function rngLoop(kind: i32, out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  const nblocks = (n + 3) >>> 2;
  const c0base = <u32>ctr0;
  const c1base = <u32>ctr1;
  const m0 = i32x4.splat(M0);
  const m1 = i32x4.splat(M1);
  let b = 0;
  // Full groups of four blocks (16 values) whose every value lies inside [0, n).
  const full = n >>> 4;
  for (let gi = 0; gi < full; gi++, b += 4) {
    let c0 = i32x4.add(i32x4.splat(c0base + <u32>b), v128(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0));
    const carry = i32x4.lt_u(c0, i32x4.splat(c0base));
    let c1 = i32x4.sub(i32x4.splat(c1base), carry);
    let c2 = i32x4.sub(i32x4.splat(0), v128.and(carry, i32x4.eq(c1, i32x4.splat(0))));
    let c3 = i32x4.splat(0);
    let k0 = <u32>key0;
    let k1 = <u32>key1;
    for (let r = 0; r < 10; r++) {
      const lo0 = i32x4.mul(c0, m0);
      const hi0 = i32x4.shuffle(i64x2.extmul_low_i32x4_u(c0, m0), i64x2.extmul_high_i32x4_u(c0, m0), 1, 3, 5, 7);
      const lo1 = i32x4.mul(c2, m1);
      const hi1 = i32x4.shuffle(i64x2.extmul_low_i32x4_u(c2, m1), i64x2.extmul_high_i32x4_u(c2, m1), 1, 3, 5, 7);
      c0 = v128.xor(v128.xor(hi1, c1), i32x4.splat(k0));
      c2 = v128.xor(v128.xor(hi0, c3), i32x4.splat(k1));
      c1 = lo1;
      c3 = lo0;
      k0 += W0;
      k1 += W1;
    }
    // lanes of cj = lane j of the four blocks: transform, then transpose to block order.
    let z0: v128, z1: v128, z2: v128, z3: v128;
    if (kind == KIND_UNIFORM) {
      z0 = unif_v(c0); z1 = unif_v(c1); z2 = unif_v(c2); z3 = unif_v(c3);
    } else if (kind == KIND_GUMBEL) {
      z0 = gumbel_v(c0); z1 = gumbel_v(c1); z2 = gumbel_v(c2); z3 = gumbel_v(c3);
    } else if (kind == KIND_NORMAL) {
      const ra = bmRadius_v(c0);
      const ua = open1_v(c1);
      const rb = bmRadius_v(c2);
      const ub = open1_v(c3);
      z0 = f32x4.mul(ra, sincos2pi_v(ua, false));
      z1 = f32x4.mul(ra, sincos2pi_v(ua, true));
      z2 = f32x4.mul(rb, sincos2pi_v(ub, false));
      z3 = f32x4.mul(rb, sincos2pi_v(ub, true));
    } else {
      z0 = c0; z1 = c1; z2 = c2; z3 = c3;
    }
    const t0 = i32x4.shuffle(z0, z1, 0, 4, 1, 5);
    const t1 = i32x4.shuffle(z2, z3, 0, 4, 1, 5);
    const t2 = i32x4.shuffle(z0, z1, 2, 6, 3, 7);
    const t3 = i32x4.shuffle(z2, z3, 2, 6, 3, 7);
    const o = out + (<usize>b << 4);
    v128.store(o, i32x4.shuffle(t0, t1, 0, 1, 4, 5));
    v128.store(o, i32x4.shuffle(t0, t1, 2, 3, 6, 7), 16);
    v128.store(o, i32x4.shuffle(t2, t3, 0, 1, 4, 5), 32);
    v128.store(o, i32x4.shuffle(t2, t3, 2, 3, 6, 7), 48);
  }
  // Remaining blocks, scalar Philox + scalar transform; the last block may be partial.
  for (; b < nblocks; b++) {
    const c0 = c0base + <u32>b;
    const carry: u32 = c0 < c0base ? 1 : 0;
    const c1 = c1base + carry;
    const c2: u32 = carry != 0 && c1 == 0 ? 1 : 0;
    const v = transformBlock_s(kind, philox_s(c0, c1, c2, 0, <u32>key0, <u32>key1));
    const o = out + (<usize>b << 4);
    const rem = n - (b << 2);
    if (rem >= 4) {
      v128.store(o, v);
    } else {
      store<u32>(o, i32x4.extract_lane(v, 0));
      if (rem > 1) store<u32>(o, i32x4.extract_lane(v, 1), 4);
      if (rem > 2) store<u32>(o, i32x4.extract_lane(v, 2), 8);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Kernels.

/** out[i] = uniform f32 in [0, 1), i < n. */
export function rng_uniform(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  rngLoop(KIND_UNIFORM, out, n, key0, key1, ctr0, ctr1);
}

/** out[i] = standard normal f32 (Box–Muller), i < n. */
export function rng_normal(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  rngLoop(KIND_NORMAL, out, n, key0, key1, ctr0, ctr1);
}

/** out[i] = standard Gumbel f32, −ln(−ln u), i < n. */
export function rng_gumbel(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  rngLoop(KIND_GUMBEL, out, n, key0, key1, ctr0, ctr1);
}

/** out[i] = the raw u32 lane i (same stream layout as the float generators), i < n. */
export function rng_bits(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  rngLoop(KIND_BITS, out, n, key0, key1, ctr0, ctr1);
}

// ---------------------------------------------------------------------------------------------
// Scalar twins: one Philox block per value, Math / Mathf transcendental functions.

// @ts-ignore: decorator
@inline function refLane(i: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32, lane: i32): u32 {
  const b = <u32>(i >>> 2);
  const c0 = <u32>ctr0 + b;
  const carry: u32 = c0 < <u32>ctr0 ? 1 : 0;
  const c1 = <u32>ctr1 + carry;
  const c2: u32 = carry != 0 && c1 == 0 ? 1 : 0;
  const v = philox_s(c0, c1, c2, 0, <u32>key0, <u32>key1);
  switch (lane) {
    case 0: return <u32>i32x4.extract_lane(v, 0);
    case 1: return <u32>i32x4.extract_lane(v, 1);
    case 2: return <u32>i32x4.extract_lane(v, 2);
    default: return <u32>i32x4.extract_lane(v, 3);
  }
}

export function ref_rng_uniform(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const x = refLane(i, key0, key1, ctr0, ctr1, i & 3);
    store<f32>(out + (<usize>i << 2), <f32>(<f64>(x >>> 8) / 16777216.0));
  }
}

export function ref_rng_normal(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const pair = (i & 3) & ~1; // lane of the radius
    const u1 = <f64>((refLane(i, key0, key1, ctr0, ctr1, pair) >>> 8) + 1) / 16777216.0;
    const u2 = <f64>((refLane(i, key0, key1, ctr0, ctr1, pair + 1) >>> 8) + 1) / 16777216.0;
    const r = Math.sqrt(-2.0 * Math.log(u1));
    const t = 2.0 * Math.PI * u2;
    store<f32>(out + (<usize>i << 2), <f32>((i & 1) == 0 ? r * Math.cos(t) : r * Math.sin(t)));
  }
}

export function ref_rng_gumbel(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    const x = refLane(i, key0, key1, ctr0, ctr1, i & 3);
    const u = (<f64>(x >>> 9) + 0.5) / 8388608.0;
    store<f32>(out + (<usize>i << 2), <f32>-Math.log(-Math.log(u)));
  }
}

export function ref_rng_bits(out: usize, n: i32, key0: i32, key1: i32, ctr0: i32, ctr1: i32): void {
  assert(n >= 0);
  for (let i = 0; i < n; i++) {
    store<u32>(out + (<usize>i << 2), refLane(i, key0, key1, ctr0, ctr1, i & 3));
  }
}
