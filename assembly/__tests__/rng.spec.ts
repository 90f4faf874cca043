import {
  philox_block, rng_uniform, ref_rng_uniform, rng_normal, ref_rng_normal, rng_gumbel, ref_rng_gumbel,
  rng_bits, ref_rng_bits,
} from "../kernels/rng";
import { log_s } from "../util/simd";

const K0: i32 = 0x12345678;
const K1: i32 = <i32>0x9abcdef0;

function kat(c0: u32, c1: u32, c2: u32, c3: u32, k0: u32, k1: u32, e0: u32, e1: u32, e2: u32, e3: u32): bool {
  const o = heap.alloc(16);
  philox_block(o, <i32>c0, <i32>c1, <i32>c2, <i32>c3, <i32>k0, <i32>k1);
  return load<u32>(o) == e0 && load<u32>(o, 4) == e1 && load<u32>(o, 8) == e2 && load<u32>(o, 12) == e3;
}

/** kind: 0 uniform, 1 normal, 2 gumbel, 3 bits */
function draw(kind: i32, out: usize, n: i32, ctr0: i32, ctr1: i32): void {
  if (kind == 0) rng_uniform(out, n, K0, K1, ctr0, ctr1);
  else if (kind == 1) rng_normal(out, n, K0, K1, ctr0, ctr1);
  else if (kind == 2) rng_gumbel(out, n, K0, K1, ctr0, ctr1);
  else rng_bits(out, n, K0, K1, ctr0, ctr1);
}

function drawRef(kind: i32, out: usize, n: i32, ctr0: i32, ctr1: i32): void {
  if (kind == 0) ref_rng_uniform(out, n, K0, K1, ctr0, ctr1);
  else if (kind == 1) ref_rng_normal(out, n, K0, K1, ctr0, ctr1);
  else if (kind == 2) ref_rng_gumbel(out, n, K0, K1, ctr0, ctr1);
  else ref_rng_bits(out, n, K0, K1, ctr0, ctr1);
}

function meanVar(p: usize, n: i32, mv: StaticArray<f64>): void {
  let s: f64 = 0;
  for (let i = 0; i < n; i++) s += <f64>getF(p, i);
  const m = s / <f64>n;
  let q: f64 = 0;
  for (let i = 0; i < n; i++) {
    const d = <f64>getF(p, i) - m;
    q += d * d;
  }
  mv[0] = m;
  mv[1] = q / <f64>(n - 1);
}

describe("Philox4x32-10", () => {
  test("known-answer vectors of Random123", () => {
    expect<bool>(kat(0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)).toBe(true);
    expect<bool>(kat(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
      0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)).toBe(true);
    expect<bool>(kat(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
      0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)).toBe(true);
  });

  test("rng_bits (SIMD, four blocks at a time) equals philox_block per block, with counter carries", () => {
    const ctrs: StaticArray<u32> = [0, 0, 7, 3, 0xfffffff0, 5, 0xfffffffe, 0xffffffff];
    const blk = heap.alloc(16);
    for (let c = 0; c < 4; c++) {
      const c0 = ctrs[2 * c];
      const c1 = ctrs[2 * c + 1];
      for (let k = 0; k < SIZES.length; k++) {
        const n = SIZES[k] + (k == SIZES.length - 1 ? 0 : 16); // also sizes past one SIMD group
        const o = allocF(n);
        rng_bits(o, n, K0, K1, <i32>c0, <i32>c1);
        expect<bool>(guardOk(o, n)).toBe(true);
        let ok = true;
        for (let i = 0; i < n; i++) {
          const b = <u32>(i >> 2);
          const lo = c0 + b;
          const carry: u32 = lo < c0 ? 1 : 0;
          const hi = c1 + carry;
          const c2: u32 = carry != 0 && hi == 0 ? 1 : 0;
          philox_block(blk, <i32>lo, <i32>hi, <i32>c2, 0, K0, K1);
          if (load<u32>(o + (<usize>i << 2)) != load<u32>(blk + (<usize>(i & 3) << 2))) ok = false;
        }
        expect<bool>(ok).toBe(true, "ctr " + c0.toString() + "," + c1.toString() + " n " + n.toString());
      }
    }
  });
});

describe("rng kernels", () => {
  test("match their scalar twins (uniform and bits bitwise; normal, gumbel within 1e-5)", () => {
    for (let kind = 0; kind < 4; kind++) {
      for (let k = 0; k < SIZES.length; k++) {
        const n = SIZES[k] + 13;
        const o = allocF(n);
        const r = allocF(n);
        draw(kind, o, n, 11, 2);
        drawRef(kind, r, n, 11, 2);
        const ok = kind == 0 || kind == 3 ? bitsEqual(o, r, n) : allclose(o, r, n, 1e-5, 1e-5);
        expect<bool>(ok && guardOk(o, n)).toBe(true, "kind " + kind.toString() + " n " + n.toString());
      }
    }
  });

  test("value i does not depend on n (prefix property), and the counter advances by ⌈n/4⌉ blocks", () => {
    const big = 257;
    for (let kind = 0; kind < 4; kind++) {
      const full = allocF(big);
      draw(kind, full, big, 3, 0);
      for (let k = 0; k < SIZES.length; k++) {
        const n = SIZES[k];
        const o = allocF(n);
        draw(kind, o, n, 3, 0);
        expect<bool>(bitsEqual(o, full, n) && guardOk(o, n)).toBe(true, "prefix kind " + kind.toString());
      }
      for (let off = 1; off < 40; off += 3) { // start at block off: values from 4·off on
        const n = big - 4 * off;
        const o = allocF(n);
        draw(kind, o, n, 3 + off, 0);
        expect<bool>(bitsEqual(o, full + (<usize>(4 * off) << 2), n)).toBe(true, "offset kind " + kind.toString());
      }
    }
  });

  test("different keys and counters give different streams", () => {
    const a = allocF(64);
    const b = allocF(64);
    rng_uniform(a, 64, 1, 0, 0, 0);
    rng_uniform(b, 64, 2, 0, 0, 0);
    let same = 0;
    for (let i = 0; i < 64; i++) if (getF(a, i) == getF(b, i)) same++;
    expect<bool>(same < 2).toBe(true);
    rng_uniform(b, 64, 1, 0, 0, 1);
    same = 0;
    for (let i = 0; i < 64; i++) if (getF(a, i) == getF(b, i)) same++;
    expect<bool>(same < 2).toBe(true);
  });

  test("statistics over 1e5 draws", () => {
    const n = 100000;
    const o = allocF(n);
    const mv = new StaticArray<f64>(2);

    rng_uniform(o, n, 42, 7, 0, 0);
    meanVar(o, n, mv);
    let lo: f32 = Infinity, hi: f32 = -Infinity;
    for (let i = 0; i < n; i++) { lo = min(lo, getF(o, i)); hi = max(hi, getF(o, i)); }
    log<string>("uniform mean " + mv[0].toString() + " var " + mv[1].toString() + " min " + lo.toString() + " max " + hi.toString());
    expect<bool>(Math.abs(mv[0] - 0.5) < 0.005).toBe(true);
    expect<bool>(Math.abs(mv[1] - 1.0 / 12.0) < 0.002).toBe(true);
    expect<bool>(lo >= 0 && hi < 1).toBe(true);

    rng_normal(o, n, 42, 7, 0, 0);
    meanVar(o, n, mv);
    let tail = 0;
    let finite = true;
    for (let i = 0; i < n; i++) {
      if (Mathf.abs(getF(o, i)) > 2) tail++;
      if (!isFinite(getF(o, i))) finite = false;
    }
    log<string>("normal mean " + mv[0].toString() + " var " + mv[1].toString() + " P(|z|>2) " + (<f64>tail / <f64>n).toString());
    expect<bool>(finite).toBe(true);
    expect<bool>(Math.abs(mv[0]) < 0.015).toBe(true);
    expect<bool>(Math.abs(mv[1] - 1.0) < 0.025).toBe(true);
    expect<bool>(Math.abs(<f64>tail / <f64>n - 0.0455) < 0.004).toBe(true);

    rng_gumbel(o, n, 42, 7, 0, 0);
    meanVar(o, n, mv);
    finite = true;
    for (let i = 0; i < n; i++) if (!isFinite(getF(o, i))) finite = false;
    log<string>("gumbel mean " + mv[0].toString() + " var " + mv[1].toString());
    expect<bool>(finite).toBe(true);
    expect<bool>(Math.abs(mv[0] - 0.5772156649) < 0.02).toBe(true);
    expect<bool>(Math.abs(mv[1] - Math.PI * Math.PI / 6.0) < 0.06).toBe(true);
  });

  test("the transforms stay finite at the extreme lanes (u32 0 and 0xffffffff) and over 4e5 draws", () => {
    // gumbel: u = ((x >>> 9) + 0.5)·2^-23 ∈ {2^-24, 1 − 2^-24} at the extremes
    const uLo: f32 = <f32>0.5 * <f32>1.1920928955078125e-7;
    const uHi: f32 = (<f32>8388607 + <f32>0.5) * <f32>1.1920928955078125e-7;
    expect<bool>(uHi < 1).toBe(true);
    expect<bool>(isFinite(-log_s(-log_s(uLo))) && isFinite(-log_s(-log_s(uHi)))).toBe(true);
    expect<bool>(Math.abs(<f64>-log_s(-log_s(uHi)) - 16.635532333438686) < 1e-4).toBe(true);
    // normal: u = ((x >>> 8) + 1)·2^-24 ∈ {2^-24, 1}: radius √(−2 ln u) finite, 0 at u = 1
    expect<f32>(log_s(1)).toBe(0);
    expect<bool>(isFinite(sqrt<f32>(<f32>-2.0 * log_s(<f32>5.9604644775390625e-8)))).toBe(true);
    const n = 400000;
    const o = allocF(n);
    rng_gumbel(o, n, 9, 9, 123, 0);
    let ok = true;
    for (let i = 0; i < n; i++) if (!isFinite(getF(o, i))) ok = false;
    rng_normal(o, n, 9, 9, 123, 0);
    for (let i = 0; i < n; i++) if (!isFinite(getF(o, i))) ok = false;
    expect<bool>(ok).toBe(true);
  });
});
