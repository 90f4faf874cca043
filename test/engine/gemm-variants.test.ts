// The GEMM of each kernel build that loads here (plain SIMD, relaxed-SIMD FMA) against its scalar
// twin ref_gemm, through the host: the as-pect sweep covers the build it compiles itself (plain SIMD
// with assertions), this covers the shipped release builds.
import { describe, it } from 'node:test';
import { initEngine } from '../../src/engine/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { relaxedSimdSupported } from '../../src/engine/wasm.js';
import { enableRelaxedSimd } from '../../src/node/engine.js';
import { assertClose, hostRng, randomArray } from '../helpers/engine.js';

const SIZES = [0, 1, 3, 4, 5, 7, 8, 9, 31, 33, 257];

function sweep(e: Engine): void {
  const rnd = hostRng(11);
  const k = e.k;
  for (const [M, N, K] of [
    ...SIZES.map((s) => [s, 9, 33]),
    ...SIZES.map((s) => [5, s, 17]),
    ...SIZES.map((s) => [7, 31, s]),
    [127, 1031, 300],
  ]) {
    for (let layout = 0; layout < 4; layout++) {
      const tA = layout & 1;
      const tB = (layout >> 1) & 1;
      for (const beta of [0, 1]) {
        e.scope(() => {
          const a = e.tensor(randomArray(M * K, rnd), [M * K]);
          const b = e.tensor(randomArray(K * N, rnd), [K * N]);
          const c0 = randomArray(M * N, rnd);
          const c = e.tensor(c0, [M * N]);
          const r = e.tensor(c0, [M * N]);
          k.f32_gemm(tA, tB, M, N, K, a.ptr, tA ? M : K, b.ptr, tB ? K : N, beta, c.ptr, N, e.gemmWork);
          k.ref_gemm(tA, tB, M, N, K, a.ptr, tA ? M : K, b.ptr, tB ? K : N, beta, r.ptr, N, e.gemmWork);
          assertClose(
            c.data,
            r.data,
            1e-5 * (K + 1),
            1e-5,
            `${e.variant} gemm ${M}x${N}x${K} tA=${tA} tB=${tB} beta=${beta}`,
          );
        });
      }
    }
  }
}

describe('release GEMM builds vs the scalar twin', () => {
  it('plain SIMD128 build', async () => sweep(await initEngine({ variant: 'simd' })));
  it('relaxed-SIMD (FMA) build', async (t) => {
    enableRelaxedSimd();
    if (!relaxedSimdSupported()) return t.skip('relaxed SIMD does not load in this runtime');
    sweep(await initEngine({ variant: 'relaxed' }));
  });
});
