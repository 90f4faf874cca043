// Fixtures shared by the tiers: seeded host data, lucid tensors, the tfjs-wasm backend (loaded
// lazily, only when a selected bench needs it) and the plain-JS GEMM baseline.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TF from '@tensorflow/tfjs-core';
import type { Engine, Shape, Tensor } from '../../src/engine/engine.js';

/** Deterministic uniform values in [lo, hi) (a 32-bit LCG; fixtures only, not the engine's Rng). */
export function hostUniform(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + ((hi - lo) * s) / 4294967296;
  }
  return out;
}

/** A heap tensor (outside every scope: the caller disposes it) holding `values`. */
export function heapTensor(engine: Engine, shape: Shape, values: Float32Array): Tensor {
  const t = engine.empty(shape);
  t.data.set(values);
  return t;
}

/** max |a − b| / max |b|: the relative disagreement of two results. */
export function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < b.length; i++) {
    num = Math.max(num, Math.abs(a[i] - b[i]));
    den = Math.max(den, Math.abs(b[i]));
  }
  return num / (den || 1);
}

// ---------------------------------------------------------------------------------------------
// tfjs-wasm

export type Tfjs = typeof TF;

let tfjsPromise: Promise<Tfjs> | null = null;

/** tfjs-core with the wasm backend (SIMD binary, one thread), initialised once. */
export function loadTfjs(): Promise<Tfjs> {
  tfjsPromise ??= (async () => {
    const tf = await import('@tensorflow/tfjs-core');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    // dist/bench/lib → the project root
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    wasm.setWasmPaths(path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/'));
    wasm.setThreadsCount(1);
    const ok = await tf.setBackend('wasm');
    if (!ok || tf.getBackend() !== 'wasm') throw new Error('tfjs: the wasm backend failed to initialise');
    await tf.ready();
    // Tier up the XNNPACK and transpose code before any timing (wasm has no on-stack replacement).
    const a = tf.tensor2d(hostUniform(96 * 96, 7), [96, 96]);
    for (let i = 0; i < 60; i++) {
      for (const [tA, tB] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const) {
        const c = tf.matMul(a, a, tA, tB);
        c.dataSync();
        c.dispose();
      }
      const t = tf.transpose(a);
      t.dataSync();
      t.dispose();
    }
    a.dispose();
    return tf;
  })();
  return tfjsPromise;
}

/** What the header prints about tfjs. */
export function tfjsInfo(tf: Tfjs): string {
  return (
    `tfjs-core ${tf.version_core} wasm backend (SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT')}, multithread ` +
    `${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')})`
  );
}

// ---------------------------------------------------------------------------------------------
// Plain-JS GEMM: the triple loop, in the cache-friendly order of each layout.

/** A: stored (M,K) or (K,M) when tA; B: stored (K,N) or (N,K) when tB; C (M,N) is overwritten. */
export function jsGemm(
  tA: boolean,
  tB: boolean,
  M: number,
  N: number,
  K: number,
  A: Float32Array,
  B: Float32Array,
  C: Float32Array,
): void {
  if (!tA && !tB) {
    // i-k-j: a row of C accumulates rows of B
    C.fill(0);
    for (let i = 0; i < M; i++) {
      const ci = i * N;
      for (let k = 0; k < K; k++) {
        const a = A[i * K + k];
        const bk = k * N;
        for (let j = 0; j < N; j++) C[ci + j] += a * B[bk + j];
      }
    }
  } else if (!tA && tB) {
    // i-j-k: dot products of rows of A and rows of B
    for (let i = 0; i < M; i++) {
      const ai = i * K;
      for (let j = 0; j < N; j++) {
        const bj = j * K;
        let s = 0;
        for (let k = 0; k < K; k++) s += A[ai + k] * B[bj + k];
        C[i * N + j] = s;
      }
    }
  } else if (tA && !tB) {
    // k-i-j: rank-1 updates from row k of A (stored K×M) and row k of B
    C.fill(0);
    for (let k = 0; k < K; k++) {
      const ak = k * M;
      const bk = k * N;
      for (let i = 0; i < M; i++) {
        const a = A[ak + i];
        const ci = i * N;
        for (let j = 0; j < N; j++) C[ci + j] += a * B[bk + j];
      }
    }
  } else {
    throw new Error('jsGemm: TT is not benchmarked');
  }
}

export const jsLoopName = (tA: boolean, tB: boolean) => (!tA && !tB ? 'loop ikj' : !tA ? 'loop ijk' : 'loop kij');

let jsWarm = false;
/** Optimises the JS loops (TurboFan) on small shapes before any timing. */
export function warmJsGemm(): void {
  if (jsWarm) return;
  jsWarm = true;
  const n = 48;
  const A = hostUniform(n * n, 3);
  const B = hostUniform(n * n, 4);
  const C = new Float32Array(n * n);
  for (let i = 0; i < 40; i++) {
    jsGemm(false, false, n, n, n, A, B, C);
    jsGemm(false, true, n, n, n, A, B, C);
    jsGemm(true, false, n, n, n, A, B, C);
  }
}
