// Deterministic log and exp for host-side float64 code. ECMAScript leaves the last bit
// of Math.log and Math.exp to the engine, and engines differ: Node 20's V8, the newer V8 of Deno and
// workerd, and Bun's JavaScriptCore disagree on about 5% of arguments, by one ulp. These are the
// algorithms of Sun's fdlibm 5.3 (e_log.c, e_exp.c), which Node 20's V8 uses for Math.log and
// Math.exp, written in plain float64 arithmetic and integer bit operations, which every engine
// rounds the same way (IEEE 754, no contraction into FMA in JavaScript). So every runtime gets Node
// 20's values, bit for bit (test/engine/fdlibm.test.ts checks them against Node's Math.* on a
// million arguments when it runs under Node 20).
//
// fdlibm: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed at SunSoft,
// a Sun Microsystems, Inc. business. Permission to use, copy, modify, and distribute this software
// is freely granted, provided that this notice is preserved.

const buf = new DataView(new ArrayBuffer(8));

const hi = (x: number): number => {
  buf.setFloat64(0, x);
  return buf.getInt32(0);
};
const lo = (x: number): number => {
  buf.setFloat64(0, x);
  return buf.getUint32(4);
};
const withHi = (x: number, h: number): number => {
  buf.setFloat64(0, x);
  buf.setInt32(0, h);
  return buf.getFloat64(0);
};
const fromWords = (h: number, l: number): number => {
  buf.setInt32(0, h);
  buf.setUint32(4, l);
  return buf.getFloat64(0);
};

const LN2_HI = fromWords(0x3fe62e42, 0xfee00000);
const LN2_LO = fromWords(0x3dea39ef, 0x35793c76);
const TWO54 = fromWords(0x43500000, 0);
const LG1 = fromWords(0x3fe55555, 0x55555593);
const LG2 = fromWords(0x3fd99999, 0x9997fa04);
const LG3 = fromWords(0x3fd24924, 0x94229359);
const LG4 = fromWords(0x3fcc71c5, 0x1d8e78af);
const LG5 = fromWords(0x3fc74664, 0x96cb03de);
const LG6 = fromWords(0x3fc39a09, 0xd078c69f);
const LG7 = fromWords(0x3fc2f112, 0xdf3e5244);

/** The natural logarithm, as fdlibm's __ieee754_log (Node 20's Math.log). */
export function log(x: number): number {
  let hx = hi(x);
  const lx = lo(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= TWO54;
    hx = hi(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i0 = (hx + 0x95f64) & 0x100000;
  x = withHi(x, hx | (i0 ^ 0x3ff00000)); // normalise x or x/2
  k += i0 >> 20;
  const f = x - 1.0;
  if ((0x000fffff & (2 + hx)) < 3) {
    // |f| < 2^-20
    if (f === 0) {
      if (k === 0) return 0;
      return k * LN2_HI + k * LN2_LO;
    }
    const R = f * f * (0.5 - 0.3333333333333333 * f);
    if (k === 0) return f - R;
    return k * LN2_HI - (R - k * LN2_LO - f);
  }
  const s = f / (2.0 + f);
  const dk = k;
  const z = s * s;
  let i = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  i |= j;
  const R = t2 + t1;
  if (i > 0) {
    const hfsq = 0.5 * f * f;
    if (k === 0) return f - (hfsq - s * (hfsq + R));
    return dk * LN2_HI - (hfsq - (s * (hfsq + R) + dk * LN2_LO) - f);
  }
  if (k === 0) return f - s * (f - R);
  return dk * LN2_HI - (s * (f - R) - dk * LN2_LO - f);
}

const O_THRESHOLD = fromWords(0x40862e42, 0xfefa39ef);
const U_THRESHOLD = fromWords(0xc0874910 | 0, 0xd52d3051);
const INV_LN2 = fromWords(0x3ff71547, 0x652b82fe);
const P1 = fromWords(0x3fc55555, 0x5555553e);
const P2 = fromWords(0xbf66c16c | 0, 0x16bebd93);
const P3 = fromWords(0x3f11566a, 0xaf25de2c);
const P4 = fromWords(0xbebbbd41 | 0, 0xc5d26bf1);
const P5 = fromWords(0x3e663769, 0x72bea4d0);
const TWO_M1000 = fromWords(0x01700000, 0);

/** e^x, as fdlibm's __ieee754_exp (Node 20's Math.exp). */
export function exp(x: number): number {
  let hx = hi(x);
  const xsb = (hx >>> 31) & 1;
  hx &= 0x7fffffff;
  if (hx >= 0x40862e42) {
    // |x| ≥ 709.78…: non-finite, overflow or underflow
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | lo(x)) !== 0) return x + x;
      return xsb === 0 ? x : 0;
    }
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0;
  }
  let hiPart = 0;
  let loPart = 0;
  let k = 0;
  if (hx > 0x3fd62e42) {
    // |x| > 0.5 ln2
    if (hx < 0x3ff0a2b2) {
      // and |x| < 1.5 ln2
      hiPart = xsb === 0 ? x - LN2_HI : x + LN2_HI;
      loPart = xsb === 0 ? LN2_LO : -LN2_LO;
      k = 1 - xsb - xsb;
    } else {
      k = Math.trunc(INV_LN2 * x + (xsb === 0 ? 0.5 : -0.5));
      const t = k;
      hiPart = x - t * LN2_HI; // t·LN2_HI is exact here
      loPart = t * LN2_LO;
    }
    x = hiPart - loPart;
  } else if (hx < 0x3e300000) {
    // |x| < 2^-28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2.0) - x);
  const y = 1 - (loPart - (x * c) / (2.0 - c) - hiPart);
  if (k >= -1021) {
    if (k === 1024) return y * 2.0 * fromWords(0x7fe00000, 0);
    return y * fromWords((0x3ff + k) << 20, 0);
  }
  return y * fromWords((0x3ff + k + 1000) << 20, 0) * TWO_M1000;
}
