// Threads tier: where splitting a kernel across threads starts to pay. Each group runs one call at
// one size on the single-threaded engine and on the threaded one with the size thresholds at 0
// (so the call is split whatever its size); THREAD_MIN in src/engine/threads.ts is set from these.
import type { Engine } from '../src/engine/engine.js';
import { THREAD_MIN } from '../src/engine/threads.js';
import { hostUniform, heapTensor } from './lib/fixtures.js';
import type { Case, Group } from './lib/runner.js';

const ELEMENTWISE_SIZES = [8192, 32768, 131072, 524288];
const GEMM_SIZES: [number, number, number][] = [
  [64, 64, 64],
  [128, 128, 64],
  [128, 128, 128],
  [256, 256, 128],
];

/**
 * Thresholds at 0 for the group's lifetime (set in prepare, restored in dispose), so the timed
 * closures measure the split call alone. The one-thread engine has no pool and never reads them.
 */
function forceSplits(): () => void {
  const saved = { ...THREAD_MIN };
  THREAD_MIN.elements = 0;
  THREAD_MIN.gemmMacs = 0;
  return () => {
    Object.assign(THREAD_MIN, saved);
  };
}

export function threadGroups(engine: Engine, engineT?: Engine): Group[] {
  if (!engineT) return [];
  const T = engineT.threads;
  const groups: Group[] = [];
  for (const n of ELEMENTWISE_SIZES) {
    groups.push({
      tier: 'threads',
      name: `threads binary add n ${n}`,
      unit: 'ms',
      prepare() {
        const mk = (e: Engine) => ({
          a: heapTensor(e, [n], hostUniform(n, 1)),
          b: heapTensor(e, [n], hostUniform(n, 2)),
          c: e.empty([n]),
        });
        const x = mk(engine),
          y = mk(engineT);
        const restore = forceSplits();
        const cases: Case[] = [
          {
            engine: 'lucid',
            impl: 'f32_binary add, 1 thread',
            fn: () => engine.k.f32_binary(0, x.c.ptr, x.a.ptr, x.b.ptr, n),
          },
          {
            engine: 'lucid',
            impl: `f32_binary add, split over ${T} threads`,
            extra: { threads: T },
            fn: () => engineT.k.f32_binary(0, y.c.ptr, y.a.ptr, y.b.ptr, n),
          },
        ];
        return {
          cases,
          dispose: () => {
            restore();
            for (const t of [x.a, x.b, x.c, y.a, y.b, y.c]) t.dispose();
          },
        };
      },
    });
  }
  for (const [M, K, N] of GEMM_SIZES) {
    groups.push({
      tier: 'threads',
      name: `threads gemm ${M}x${K}x${N} NN`,
      unit: 'ms',
      prepare() {
        const mk = (e: Engine) => ({
          a: heapTensor(e, [M, K], hostUniform(M * K, 3)),
          b: heapTensor(e, [K, N], hostUniform(K * N, 4)),
          c: e.empty([M, N]),
        });
        const x = mk(engine),
          y = mk(engineT);
        const restore = forceSplits();
        const cases: Case[] = [
          {
            engine: 'lucid',
            impl: 'f32_gemm, 1 thread',
            fn: () => engine.k.f32_gemm(0, 0, M, N, K, x.a.ptr, K, x.b.ptr, N, 0, x.c.ptr, N, engine.gemmWork),
          },
          {
            engine: 'lucid',
            impl: `f32_gemm, split over ${T} threads`,
            extra: { threads: T },
            fn: () => engineT.k.f32_gemm(0, 0, M, N, K, y.a.ptr, K, y.b.ptr, N, 0, y.c.ptr, N, engineT.gemmWork),
          },
        ];
        return {
          cases,
          dispose: () => {
            restore();
            for (const t of [x.a, x.b, x.c, y.a, y.b, y.c]) t.dispose();
          },
        };
      },
    });
  }
  return groups;
}
