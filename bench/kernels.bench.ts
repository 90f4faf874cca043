// Kernels tier: raw f32_gemm against tfjs-wasm's matMul and a plain-JS loop, GFLOP/s, at the
// training shapes in the layouts NN, NT, TN. All engines of one shape and layout share a group,
// so they are sampled interleaved.
import type { Engine } from '../src/engine/engine.js';
import { hostUniform, heapTensor, jsGemm, jsLoopName, loadTfjs, relErr, warmJsGemm } from './lib/fixtures.js';
import type { Case, Group } from './lib/runner.js';
import { GEMM_LAYOUTS, GEMM_SHAPES, gemmFlops, gemmName, type GemmShape, type Layout } from './lib/sizes.js';

/** `engineT`: a threaded engine (threads > 1) whose f32_gemm runs as a second lucid case, interleaved. */
export function kernelGroups(engine: Engine, engineT?: Engine): Group[] {
  const groups: Group[] = [];
  for (const shape of GEMM_SHAPES) {
    for (const layout of GEMM_LAYOUTS) {
      groups.push({
        tier: 'kernels',
        name: gemmName(shape, layout),
        unit: 'GFLOP/s',
        flops: gemmFlops(shape),
        budget: shape.budget,
        prepare: () => prepareGemm(engine, shape, layout, engineT),
      });
    }
  }
  return groups;
}

async function prepareGemm(engine: Engine, shape: GemmShape, layout: Layout, engineT?: Engine) {
  const { M, N, K } = shape;
  const tA = layout === 'TN';
  const tB = layout === 'NT';
  // Stored shapes: A (M,K) or (K,M); B (K,N) or (N,K). Same values for every engine.
  const aShape: [number, number] = tA ? [K, M] : [M, K];
  const bShape: [number, number] = tB ? [N, K] : [K, N];
  const aHost = hostUniform(M * K, 11 + M);
  const bHost = hostUniform(K * N, 23 + N);

  // lucid: the raw kernel on heap tensors, with the engine's packing buffer.
  const A = heapTensor(engine, aShape, aHost);
  const B = heapTensor(engine, bShape, bHost);
  const C = engine.empty([M, N]);
  const k = engine.k;
  const lda = aShape[1];
  const ldb = bShape[1];
  const work = engine.gemmWork;
  const cases: Case[] = [
    {
      engine: 'lucid',
      impl: 'f32_gemm',
      fn: () => k.f32_gemm(tA ? 1 : 0, tB ? 1 : 0, M, N, K, A.ptr, lda, B.ptr, ldb, 0, C.ptr, N, work),
    },
  ];
  // lucid with threads: the same call on the threaded engine's kernel table (split M or N).
  const threaded = engineT
    ? { A: heapTensor(engineT, aShape, aHost), B: heapTensor(engineT, bShape, bHost), C: engineT.empty([M, N]) }
    : null;
  if (engineT && threaded) {
    const kT = engineT.k;
    const { A: AT, B: BT, C: CT } = threaded;
    cases.push({
      engine: 'lucid',
      impl: `f32_gemm ×${engineT.threads} threads`,
      extra: { threads: engineT.threads },
      fn: () => kT.f32_gemm(tA ? 1 : 0, tB ? 1 : 0, M, N, K, AT.ptr, lda, BT.ptr, ldb, 0, CT.ptr, N, engineT.gemmWork),
    });
  }

  // tfjs-wasm: the transpose flags, and (NT/TN) explicit tf.transpose + NN matMul.
  const tf = await loadTfjs();
  const ta = tf.tensor2d(aHost, aShape);
  const tb = tf.tensor2d(bHost, bShape);
  let tfOut: Float32Array | null = null;
  cases.push({
    engine: 'tfjs-wasm',
    impl: layout === 'NN' ? 'matMul' : `matMul(${tA ? 'transposeA' : 'transposeB'})`,
    fn: () => {
      const c = tf.matMul(ta, tb, tA, tB);
      tfOut = c.dataSync() as Float32Array;
      c.dispose();
    },
  });
  if (layout !== 'NN') {
    cases.push({
      engine: 'tfjs-wasm',
      impl: 'transpose+matMul',
      fn: () => {
        const c = tf.tidy(() => tf.matMul(tA ? tf.transpose(ta) : ta, tB ? tf.transpose(tb) : tb));
        c.dataSync();
        c.dispose();
      },
    });
  }

  // plain JS
  warmJsGemm();
  const jsC = new Float32Array(M * N);
  cases.push({
    engine: 'js',
    impl: jsLoopName(tA, tB),
    fn: () => jsGemm(tA, tB, M, N, K, aHost, bHost, jsC),
  });

  return {
    cases,
    check: () => {
      const ours = C.toArray();
      const e1 = relErr(ours, jsC);
      const e2 = tfOut ? relErr(ours, tfOut) : 0;
      if (threaded) {
        const t = threaded.C.toArray();
        if (t.some((v, i) => !Object.is(v, ours[i])))
          return 'results disagree: lucid with threads is not bit-identical to one thread';
      }
      return e1 > 1e-4 || e2 > 1e-4
        ? `results disagree: lucid vs js ${e1.toExponential(2)}, lucid vs tfjs ${e2.toExponential(2)}`
        : null;
    },
    dispose: () => {
      A.dispose();
      B.dispose();
      C.dispose();
      if (threaded) for (const t of [threaded.A, threaded.B, threaded.C]) t.dispose();
      ta.dispose();
      tb.dispose();
    },
  };
}
