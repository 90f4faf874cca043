// Shared test fixtures: one engine per test file, seeded host data, closeness checks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { initNodeEngine } from '../../src/node/engine.js';

let engine: Promise<Engine> | null = null;

export function getEngine(): Promise<Engine> {
  engine ??= initNodeEngine();
  return engine;
}

/** Deterministic host-side generator for test data (mulberry32). */
export function hostRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomArray(n: number, rnd: () => number, lo = -1, hi = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * rnd();
  return out;
}

/** Largest violation of |a − b| ≤ atol + rtol·|b| (≤ 0 means all close), with its index. */
export function closeness(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol: number) {
  assert.equal(actual.length, expected.length, 'length');
  let worst = -Infinity;
  let at = -1;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i];
    const b = expected[i];
    const v = Number.isNaN(a) || Number.isNaN(b) ? Infinity : Math.abs(a - b) - (atol + rtol * Math.abs(b));
    if (v > worst) {
      worst = v;
      at = i;
    }
  }
  return { worst, at };
}

export function assertClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  atol: number,
  rtol: number,
  what: string,
): void {
  const { worst, at } = closeness(actual, expected, atol, rtol);
  if (worst > 0) {
    assert.fail(`${what}: element ${at} is ${actual[at]}, expected ${expected[at]} (atol ${atol}, rtol ${rtol})`);
  }
}

/** A JSON fixture from test/fixtures. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  const file = fileURLToPath(new URL(`../../../test/fixtures/${name}`, import.meta.url));
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** `fn` rejects with a one-line EngineError of `code` whose message matches every pattern; returns the message. */
export async function rejectsEngineError(fn: () => unknown, code: string, patterns: RegExp[]): Promise<string> {
  let err: unknown;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof EngineError, `expected an EngineError, got ${String(err)}`);
  assert.equal(err.code, code, err.message);
  for (const p of patterns) assert.match(err.message, p);
  assert.ok(!err.message.includes('\n'), `one line: ${err.message}`);
  return err.message;
}
