// SIMD idioms shared by every kernel family: horizontal reductions, splats of constants and the
// f32x4 approximations of exp / log / log1p / tanh / sigmoid / softplus / sincos(2πu).
//
// Every vector approximation `*_v(x: v128)` has a scalar twin `*_s(x: f32)` that performs the SAME
// f32 operations in the same order, so a kernel's scalar tail gives bit-identical results to its
// vector lanes: a value's result never depends on its position or on the length of the array.
// (Only the bit pattern of NaN results may differ.)
//
// Accuracy (measured in assembly/__tests__/elementwise.spec.ts against f64 Math):
// exp, log, tanh, sigmoid, softplus stay well inside 2e-6 relative / 1e-6 absolute near zero.
// The polynomials are the Cephes single-precision ones (expf, logf, tanhf, sinf/cosf).

// ---------------------------------------------------------------------------------------------
// Horizontal reductions.

/** l0 + l1 + l2 + l3, computed as (l0 + l2) + (l1 + l3). */
// @ts-ignore: decorator
@inline export function hsum(v: v128): f32 {
  const s = f32x4.add(v, f32x4.shuffle(v, v, 2, 3, 0, 1));
  return f32x4.extract_lane(s, 0) + f32x4.extract_lane(s, 1);
}

/** max over the four lanes (NaN-propagating, like f32.max). */
// @ts-ignore: decorator
@inline export function hmax(v: v128): f32 {
  const s = f32x4.max(v, f32x4.shuffle(v, v, 2, 3, 0, 1));
  return max<f32>(f32x4.extract_lane(s, 0), f32x4.extract_lane(s, 1));
}

/** Splat of an f32 constant. */
// @ts-ignore: decorator
@inline export function splat(x: f32): v128 {
  return f32x4.splat(x);
}

/** Copy the sign bit of `s` onto `x` (x is expected non-negative). */
// @ts-ignore: decorator
@inline export function copysign_v(x: v128, s: v128): v128 {
  return v128.bitselect(s, x, i32x4.splat(0x80000000));
}

// ---------------------------------------------------------------------------------------------
// exp: Cephes expf. n = round(x·log2 e), r = x − n·ln2 (two-part ln2), e^r by a degree-7
// polynomial, times 2^n applied as two factors 2^(n>>1)·2^(n−(n>>1)) so that overflow gives +inf
// and underflow gives denormals / 0 exactly like expf. Input clamped to [-104, 89] (exp is 0 / inf
// beyond that anyway). NaN propagates.

// Round to nearest (ties to even) by adding and subtracting 1.5·2^23; for |v| < 2^22 the integer
// value is then also in the low mantissa bits: bits(v + MAGIC) − bits(MAGIC) = round(v).
// (Cheaper than f32x4.nearest + i32x4.trunc_sat_f32x4_s, which V8 expands into long sequences.)
const ROUND_MAGIC: f32 = 12582912.0;
const ROUND_MAGIC_BITS: i32 = 0x4b400000;

const EXP_LO: f32 = -104.0;
const EXP_HI: f32 = 89.0;
const LOG2E: f32 = 1.44269504088896341;
const LN2_HI: f32 = 0.693359375;
const LN2_LO: f32 = -2.12194440e-4;
const EXP_P0: f32 = 1.9875691500e-4;
const EXP_P1: f32 = 1.3981999507e-3;
const EXP_P2: f32 = 8.3334519073e-3;
const EXP_P3: f32 = 4.1665795894e-2;
const EXP_P4: f32 = 1.6666665459e-1;
const EXP_P5: f32 = 5.0000001201e-1;

// e^r of the reduced argument r = x − n·ln2, n = t − MAGIC = round(x·log2 e), by the Cephes
// polynomial (≈1e-7 relative); callers scale by 2^n in the way their domain allows.
// @ts-ignore: decorator
@inline function exp_reduced_v(x: v128, t: v128): v128 {
  const n = f32x4.sub(t, f32x4.splat(ROUND_MAGIC));
  let r = f32x4.sub(x, f32x4.mul(n, f32x4.splat(LN2_HI)));
  r = f32x4.sub(r, f32x4.mul(n, f32x4.splat(LN2_LO)));
  const z = f32x4.mul(r, r);
  let p = f32x4.add(f32x4.mul(f32x4.splat(EXP_P0), r), f32x4.splat(EXP_P1));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(EXP_P2));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(EXP_P3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(EXP_P4));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(EXP_P5));
  return f32x4.add(f32x4.add(f32x4.mul(p, z), r), f32x4.splat(1.0));
}

// @ts-ignore: decorator
@inline function exp_reduced_s(x: f32, t: f32): f32 {
  const n = t - ROUND_MAGIC;
  let r = x - n * LN2_HI;
  r = r - n * LN2_LO;
  const z = r * r;
  let p = EXP_P0 * r + EXP_P1;
  p = p * r + EXP_P2;
  p = p * r + EXP_P3;
  p = p * r + EXP_P4;
  p = p * r + EXP_P5;
  return (p * z + r) + <f32>1.0;
}

// @ts-ignore: decorator
@inline export function exp_v(x0: v128): v128 {
  // pmax/pmin (one instruction each) keep a NaN x: they return their first operand unless the
  // comparison holds.
  const x = f32x4.pmin(f32x4.pmax(x0, f32x4.splat(EXP_LO)), f32x4.splat(EXP_HI));
  const t = f32x4.add(f32x4.mul(x, f32x4.splat(LOG2E)), f32x4.splat(ROUND_MAGIC));
  let y = exp_reduced_v(x, t);
  const ni = i32x4.sub(t, i32x4.splat(ROUND_MAGIC_BITS));
  const h = i32x4.shr_s(ni, 1);
  const s1 = i32x4.shl(i32x4.add(h, i32x4.splat(127)), 23);
  const s2 = i32x4.shl(i32x4.add(i32x4.sub(ni, h), i32x4.splat(127)), 23);
  y = f32x4.mul(f32x4.mul(y, s1), s2);
  return y;
}

// @ts-ignore: decorator
@inline export function exp_s(x0: f32): f32 {
  const xl = select<f32>(EXP_LO, x0, x0 < EXP_LO); // = f32x4.pmax(x0, lo)
  const x = select<f32>(EXP_HI, xl, EXP_HI < xl); // = f32x4.pmin(xl, hi)
  const t = x * LOG2E + ROUND_MAGIC;
  const y = exp_reduced_s(x, t);
  const ni = reinterpret<i32>(t) - ROUND_MAGIC_BITS;
  const h = ni >> 1;
  const s1 = reinterpret<f32>((h + 127) << 23);
  const s2 = reinterpret<f32>((ni - h + 127) << 23);
  return (y * s1) * s2;
}

// exp(x) for x in [−116, 0] only (the VGM E-step's domain): no input clamp, and 2^n (n ≤ 0, no
// underflow below 2^−126 before the polynomial's factor) applied as one factor instead of two.
// bits(t) − bits(MAGIC) = n; 2^n = bits((n + 127) << 23) = (bits(t) − MAGIC_BITS + 127) << 23.
// @ts-ignore: decorator
@inline export function expneg_v(x: v128): v128 {
  const t = f32x4.add(f32x4.mul(x, f32x4.splat(LOG2E)), f32x4.splat(ROUND_MAGIC));
  return f32x4.mul(exp_reduced_v(x, t), i32x4.shl(i32x4.sub(t, i32x4.splat(ROUND_MAGIC_BITS - 127)), 23));
}

// @ts-ignore: decorator
@inline export function expneg_s(x: f32): f32 {
  const t = x * LOG2E + ROUND_MAGIC;
  return exp_reduced_s(x, t) * reinterpret<f32>((reinterpret<i32>(t) - (ROUND_MAGIC_BITS - 127)) << 23);
}

// ---------------------------------------------------------------------------------------------
// log: Cephes logf. x = m·2^e with m in [√½, √2), log x = (m−1) − (m−1)²/2 + (m−1)³·P(m−1) + e·ln2.
// Denormal inputs are rescaled by 2^23 first. log(0) = −inf, log(x<0) = NaN, log(+inf) = +inf,
// log(NaN) = NaN.

const SQRTH: f32 = 0.707106781186547524;
const MIN_NORMAL: f32 = 1.17549435e-38;
const TWO23: f32 = 8388608.0;
const LOG_P0: f32 = 7.0376836292e-2;
const LOG_P1: f32 = -1.1514610310e-1;
const LOG_P2: f32 = 1.1676998740e-1;
const LOG_P3: f32 = -1.2420140846e-1;
const LOG_P4: f32 = 1.4249322787e-1;
const LOG_P5: f32 = -1.6668057665e-1;
const LOG_P6: f32 = 2.0000714765e-1;
const LOG_P7: f32 = -2.4999993993e-1;
const LOG_P8: f32 = 3.3333331174e-1;

// @ts-ignore: decorator
@inline export function log_v(x: v128): v128 {
  const den = f32x4.lt(x, f32x4.splat(MIN_NORMAL));
  const xs = v128.bitselect(f32x4.mul(x, f32x4.splat(TWO23)), x, den);
  let e = i32x4.add(
    i32x4.sub(i32x4.shr_u(xs, 23), i32x4.splat(126)),
    v128.and(den, i32x4.splat(-23)),
  );
  let m = v128.or(v128.and(xs, i32x4.splat(0x007fffff)), i32x4.splat(0x3f000000));
  const small = f32x4.lt(m, f32x4.splat(SQRTH));
  e = i32x4.add(e, small); // small lanes are -1
  m = f32x4.add(f32x4.sub(m, f32x4.splat(1.0)), v128.and(m, small));
  const ef = f32x4.convert_i32x4_s(e);
  const z = f32x4.mul(m, m);
  let p = f32x4.add(f32x4.mul(f32x4.splat(LOG_P0), m), f32x4.splat(LOG_P1));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P2));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P3));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P4));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P5));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P6));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P7));
  p = f32x4.add(f32x4.mul(p, m), f32x4.splat(LOG_P8));
  let y = f32x4.mul(f32x4.mul(p, m), z);
  y = f32x4.add(y, f32x4.mul(f32x4.splat(LN2_LO), ef));
  y = f32x4.add(y, f32x4.mul(f32x4.splat(-0.5), z));
  let r = f32x4.add(m, y);
  r = f32x4.add(r, f32x4.mul(f32x4.splat(LN2_HI), ef));
  // specials: x<0 or NaN -> NaN, 0 -> -inf, +inf -> +inf
  r = v128.bitselect(r, f32x4.splat(NaN), f32x4.ge(x, f32x4.splat(0.0)));
  r = v128.bitselect(f32x4.splat(-Infinity), r, f32x4.eq(x, f32x4.splat(0.0)));
  r = v128.bitselect(x, r, f32x4.eq(x, f32x4.splat(Infinity)));
  return r;
}

// @ts-ignore: decorator
@inline export function log_s(x: f32): f32 {
  const den = x < MIN_NORMAL;
  const xs = select<f32>(x * TWO23, x, den);
  const bits = reinterpret<i32>(xs);
  let e = ((bits >>> 23) - 126) + select<i32>(-23, 0, den);
  let m = reinterpret<f32>((bits & 0x007fffff) | 0x3f000000);
  const small = m < SQRTH;
  e = e - <i32>small;
  m = (m - <f32>1.0) + select<f32>(m, 0, small);
  const ef = <f32>e;
  const z = m * m;
  let p = LOG_P0 * m + LOG_P1;
  p = p * m + LOG_P2;
  p = p * m + LOG_P3;
  p = p * m + LOG_P4;
  p = p * m + LOG_P5;
  p = p * m + LOG_P6;
  p = p * m + LOG_P7;
  p = p * m + LOG_P8;
  let y = (p * m) * z;
  y = y + LN2_LO * ef;
  y = y + <f32>-0.5 * z;
  let r = m + y;
  r = r + LN2_HI * ef;
  r = select<f32>(r, NaN, x >= 0);
  r = select<f32>(-Infinity, r, x == 0);
  r = select<f32>(x, r, x == Infinity);
  return r;
}

// ---------------------------------------------------------------------------------------------
// log1p for t >= 0 (used by softplus): u = 1 + t; log1p t = t when u == 1, else log(u)·t/(u−1)
// (the classic correction that recovers the bits of t lost in 1 + t).

// @ts-ignore: decorator
@inline export function log1p_pos_v(t: v128): v128 {
  const u = f32x4.add(t, f32x4.splat(1.0));
  const d = f32x4.sub(u, f32x4.splat(1.0));
  const r = f32x4.mul(log_v(u), f32x4.div(t, d));
  return v128.bitselect(t, r, f32x4.eq(d, f32x4.splat(0.0)));
}

// @ts-ignore: decorator
@inline export function log1p_pos_s(t: f32): f32 {
  const u = t + <f32>1.0;
  const d = u - <f32>1.0;
  const r = log_s(u) * (t / d);
  return select<f32>(t, r, d == 0);
}

// ---------------------------------------------------------------------------------------------
// tanh: Cephes tanhf. |x| < 0.625: odd polynomial x + x³·P(x²); otherwise 1 − 2/(e^{2|x|} + 1)
// with the sign of x (saturates to ±1: exp overflows to +inf for large |x|).

const TANH_P0: f32 = -5.70498872745e-3;
const TANH_P1: f32 = 2.06390887954e-2;
const TANH_P2: f32 = -5.37397155531e-2;
const TANH_P3: f32 = 1.33314422036e-1;
const TANH_P4: f32 = -3.33332819422e-1;
const TANH_SPLIT: f32 = 0.625;

// @ts-ignore: decorator
@inline export function tanh_v(x: v128): v128 {
  const a = f32x4.abs(x);
  const z = f32x4.mul(x, x);
  let p = f32x4.add(f32x4.mul(f32x4.splat(TANH_P0), z), f32x4.splat(TANH_P1));
  p = f32x4.add(f32x4.mul(p, z), f32x4.splat(TANH_P2));
  p = f32x4.add(f32x4.mul(p, z), f32x4.splat(TANH_P3));
  p = f32x4.add(f32x4.mul(p, z), f32x4.splat(TANH_P4));
  const small = f32x4.add(f32x4.mul(f32x4.mul(p, z), x), x);
  const s = exp_v(f32x4.add(a, a));
  const big = f32x4.sub(f32x4.splat(1.0), f32x4.div(f32x4.splat(2.0), f32x4.add(s, f32x4.splat(1.0))));
  return v128.bitselect(copysign_v(big, x), small, f32x4.ge(a, f32x4.splat(TANH_SPLIT)));
}

// @ts-ignore: decorator
@inline export function tanh_s(x: f32): f32 {
  const a = abs<f32>(x);
  const z = x * x;
  let p = TANH_P0 * z + TANH_P1;
  p = p * z + TANH_P2;
  p = p * z + TANH_P3;
  p = p * z + TANH_P4;
  const small = (p * z) * x + x;
  const s = exp_s(a + a);
  const big = <f32>1.0 - <f32>2.0 / (s + <f32>1.0);
  return select<f32>(copysign<f32>(big, x), small, a >= TANH_SPLIT);
}

// ---------------------------------------------------------------------------------------------
// sigmoid, stable on both sides: e = exp(−|x|); x ≥ 0: 1/(1+e), x < 0: e/(1+e).

// @ts-ignore: decorator
@inline export function sigmoid_v(x: v128): v128 {
  const e = exp_v(f32x4.neg(f32x4.abs(x)));
  const d = f32x4.add(e, f32x4.splat(1.0));
  const num = v128.bitselect(f32x4.splat(1.0), e, f32x4.ge(x, f32x4.splat(0.0)));
  return f32x4.div(num, d);
}

// @ts-ignore: decorator
@inline export function sigmoid_s(x: f32): f32 {
  const e = exp_s(-abs<f32>(x));
  const d = e + <f32>1.0;
  const num = select<f32>(1.0, e, x >= 0);
  return num / d;
}

// ---------------------------------------------------------------------------------------------
// softplus, stable: max(x, 0) + log1p(exp(−|x|)).

// @ts-ignore: decorator
@inline export function softplus_v(x: v128): v128 {
  const e = exp_v(f32x4.neg(f32x4.abs(x)));
  return f32x4.add(f32x4.max(x, f32x4.splat(0.0)), log1p_pos_v(e));
}

// @ts-ignore: decorator
@inline export function softplus_s(x: f32): f32 {
  const e = exp_s(-abs<f32>(x));
  return max<f32>(x, 0) + log1p_pos_s(e);
}

// ---------------------------------------------------------------------------------------------
// cos(2πu), sin(2πu) for u in [0, 1] (Box–Muller). Exact reduction on u: q = round(4u),
// f = u − q/4 ∈ [−1/8, 1/8] (exact), a = 2π·f ∈ [−π/4, π/4], Cephes sinf/cosf polynomials,
// then rotation by the quadrant q mod 4.

const TWO_PI: f32 = 6.28318530717958648;
const SIN_P0: f32 = -1.9515295891e-4;
const SIN_P1: f32 = 8.3321608736e-3;
const SIN_P2: f32 = -1.6666654611e-1;
const COS_P0: f32 = 2.443315711809948e-5;
const COS_P1: f32 = -1.388731625493765e-3;
const COS_P2: f32 = 4.166664568298827e-2;

/** sin(2πu) lanes if wantSin, else cos(2πu) (wantSin must be a compile-time constant). */
// @ts-ignore: decorator
@inline export function sincos2pi_v(u: v128, wantSin: bool): v128 {
  const tq = f32x4.add(f32x4.mul(u, f32x4.splat(4.0)), f32x4.splat(ROUND_MAGIC));
  const q = f32x4.sub(tq, f32x4.splat(ROUND_MAGIC));
  const f = f32x4.sub(u, f32x4.mul(q, f32x4.splat(0.25)));
  const a = f32x4.mul(f, f32x4.splat(TWO_PI));
  const z = f32x4.mul(a, a);
  let sp = f32x4.add(f32x4.mul(f32x4.splat(SIN_P0), z), f32x4.splat(SIN_P1));
  sp = f32x4.add(f32x4.mul(sp, z), f32x4.splat(SIN_P2));
  const s = f32x4.add(f32x4.mul(f32x4.mul(sp, z), a), a);
  let cp = f32x4.add(f32x4.mul(f32x4.splat(COS_P0), z), f32x4.splat(COS_P1));
  cp = f32x4.add(f32x4.mul(cp, z), f32x4.splat(COS_P2));
  const c = f32x4.add(f32x4.sub(f32x4.mul(f32x4.mul(cp, z), z), f32x4.mul(f32x4.splat(0.5), z)), f32x4.splat(1.0));
  const qi = i32x4.sub(tq, i32x4.splat(ROUND_MAGIC_BITS));
  const odd = i32x4.eq(v128.and(qi, i32x4.splat(1)), i32x4.splat(1));
  // q mod 4: 0 (c, s), 1 (−s, c), 2 (−c, −s), 3 (s, −c)
  if (wantSin) {
    const v = v128.bitselect(c, s, odd);
    const neg = i32x4.eq(v128.and(qi, i32x4.splat(2)), i32x4.splat(2));
    return v128.xor(v, v128.and(neg, i32x4.splat(0x80000000)));
  } else {
    const v = v128.bitselect(s, c, odd);
    const neg = i32x4.eq(v128.and(i32x4.add(qi, i32x4.splat(1)), i32x4.splat(2)), i32x4.splat(2));
    return v128.xor(v, v128.and(neg, i32x4.splat(0x80000000)));
  }
}

// @ts-ignore: decorator
@inline export function sincos2pi_s(u: f32, wantSin: bool): f32 {
  const tq = u * <f32>4.0 + ROUND_MAGIC;
  const q = tq - ROUND_MAGIC;
  const f = u - q * <f32>0.25;
  const a = f * TWO_PI;
  const z = a * a;
  let sp = SIN_P0 * z + SIN_P1;
  sp = sp * z + SIN_P2;
  const s = (sp * z) * a + a;
  let cp = COS_P0 * z + COS_P1;
  cp = cp * z + COS_P2;
  const c = (((cp * z) * z) - <f32>0.5 * z) + <f32>1.0;
  const qi = reinterpret<i32>(tq) - ROUND_MAGIC_BITS;
  const odd = (qi & 1) == 1;
  if (wantSin) {
    const v = select<f32>(c, s, odd);
    return select<f32>(-v, v, (qi & 2) == 2);
  } else {
    const v = select<f32>(s, c, odd);
    return select<f32>(-v, v, ((qi + 1) & 2) == 2);
  }
}
