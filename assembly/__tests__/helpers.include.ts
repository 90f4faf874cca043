// Shared helpers for the kernel specs, included in every spec by as-pect.config.js and declared
// @global, so specs use them without importing.
// Memory comes from heap.alloc of the stub runtime; every buffer gets GUARD trailing floats set to
// a sentinel so a kernel writing past its end is caught by guardOk().

// @ts-ignore: decorator
@global @lazy export const SIZES: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 31, 33, 257];
// @ts-ignore: decorator
@global export const GUARD: i32 = 4;
// @ts-ignore: decorator
@global export const SENTINEL: f32 = -12345.5;

// @ts-ignore: decorator
@global export let lcgState: u32 = 0x2545f491;

// @ts-ignore: decorator
@global export function reseed(s: u32): void {
  lcgState = s;
}

/** Deterministic uniform f32 in [0, 1). */
// @ts-ignore: decorator
@global export function rnd(): f32 {
  lcgState = lcgState * 1664525 + 1013904223;
  return <f32>(lcgState >>> 8) * <f32>5.9604644775390625e-8;
}

/** n floats (+ guard), filled with 0 and the guard sentinel. */
// @ts-ignore: decorator
@global export function allocF(n: i32): usize {
  const p = heap.alloc(<usize>(n + GUARD) << 2);
  for (let i = 0; i < n; i++) store<f32>(p + (<usize>i << 2), 0);
  for (let i = 0; i < GUARD; i++) store<f32>(p + (<usize>(n + i) << 2), SENTINEL);
  return p;
}

// @ts-ignore: decorator
@global export function guardOk(p: usize, n: i32): bool {
  for (let i = 0; i < GUARD; i++) {
    if (reinterpret<u32>(load<f32>(p + (<usize>(n + i) << 2))) != reinterpret<u32>(SENTINEL)) return false;
  }
  return true;
}

// @ts-ignore: decorator
@global export function getF(p: usize, i: i32): f32 {
  return load<f32>(p + (<usize>i << 2));
}

// @ts-ignore: decorator
@global export function setF(p: usize, i: i32, v: f32): void {
  store<f32>(p + (<usize>i << 2), v);
}

/** Uniform fill in [lo, hi). */
// @ts-ignore: decorator
@global export function fillUniform(p: usize, n: i32, lo: f32, hi: f32): void {
  for (let i = 0; i < n; i++) setF(p, i, lo + (hi - lo) * rnd());
}

/** Uniform fill with some exact zeros sprinkled in (every 7th element). */
// @ts-ignore: decorator
@global export function fillWithZeros(p: usize, n: i32, lo: f32, hi: f32): void {
  for (let i = 0; i < n; i++) setF(p, i, i % 7 == 3 ? 0 : lo + (hi - lo) * rnd());
}

// @ts-ignore: decorator
@global export function copyF(dst: usize, src: usize, n: i32): void {
  for (let i = 0; i < n; i++) setF(dst, i, getF(src, i));
}

/** NaN == NaN, ±inf equal only to itself, else |a − b| ≤ atol + rtol·|b|. */
// @ts-ignore: decorator
@global export function close1(a: f32, b: f32, atol: f64, rtol: f64): bool {
  if (isNaN(a) || isNaN(b)) return isNaN(a) && isNaN(b);
  if (!isFinite(a) || !isFinite(b)) return a == b;
  return Math.abs(<f64>a - <f64>b) <= atol + rtol * Math.abs(<f64>b);
}

/** allclose over n floats; logs the first mismatch. atol = rtol = 0 means bitwise-equal values (±0 equal). */
// @ts-ignore: decorator
@global export function allclose(actual: usize, expected: usize, n: i32, atol: f64, rtol: f64): bool {
  for (let i = 0; i < n; i++) {
    const a = getF(actual, i);
    const b = getF(expected, i);
    if (!close1(a, b, atol, rtol)) {
      log<string>("mismatch at " + i.toString() + ": " + a.toString() + " vs " + b.toString());
      return false;
    }
  }
  return true;
}

/** Bitwise equality of n 32-bit words (NaN payloads ignored). */
// @ts-ignore: decorator
@global export function bitsEqual(a: usize, b: usize, n: i32): bool {
  for (let i = 0; i < n; i++) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>i << 2));
    if (x != y) {
      const fx = reinterpret<f32>(x);
      const fy = reinterpret<f32>(y);
      if (isNaN(fx) && isNaN(fy)) continue;
      log<string>("bits differ at " + i.toString() + ": " + fx.toString() + " vs " + fy.toString());
      return false;
    }
  }
  return true;
}
