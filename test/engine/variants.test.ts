// Both kernel builds load where supported and agree; the plain SIMD build always loads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initEngine } from '../../src/engine/engine.js';
import { relaxedSimdSupported } from '../../src/engine/wasm.js';
import { enableRelaxedSimd } from '../../src/node/engine.js';
import { assertClose, hostRng, randomArray } from '../helpers/engine.js';
import * as o from '../../src/autograd/ops/index.js';

describe('kernel variants', () => {
  it('the plain SIMD128 build always loads', async () => {
    const e = await initEngine({ variant: 'simd' });
    assert.equal(e.variant, 'simd');
  });

  it('relaxed SIMD (FMA) agrees with plain SIMD on a GEMM within float rounding', async (t) => {
    enableRelaxedSimd();
    if (!relaxedSimdSupported()) {
      t.skip('this runtime does not validate relaxed SIMD (set LUCID_SIMD=plain?)');
      return;
    }
    const plain = await initEngine({ variant: 'simd' });
    const relaxed = await initEngine({ variant: 'relaxed' });
    assert.equal(relaxed.variant, 'relaxed');
    const rnd = hostRng(5);
    const a = randomArray(37 * 300, rnd);
    const b = randomArray(300 * 29, rnd);
    const run = (e: typeof plain) => e.scope(() => o.matmul(e.tensor(a, [37, 300]), e.tensor(b, [300, 29])).toArray());
    assertClose(run(relaxed), run(plain), 1e-4, 1e-5, 'relaxed vs plain GEMM');
  });
});

describe('debug build', () => {
  it('turns a kernel assertion into an E_WASM error naming the kernel file', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = new Uint8Array(readFileSync(new URL('../../../build/debug.wasm', import.meta.url)));
    const e = await initEngine({ bytes });
    assert.equal(e.variant, 'custom');
    assert.throws(
      () => e.k.f32_gemm(0, 0, 2, 2, 2, 0, 2, 0, 2, 0.5, 0, 2, e.gemmWork), // beta must be 0 or 1
      (err: Error & { code?: string }) =>
        err.code === 'E_WASM' && /kernel assertion failed: .* at assembly\/kernels\/gemm\.ts:\d+:\d+/.test(err.message),
    );
  });
});
