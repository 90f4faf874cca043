// Kernel threads: the threaded engine gives bit-identical results for any thread count (GEMM in
// every layout at odd shapes, the split elementwise kernels, a LUCID-GAN training run, a VGM fit),
// and falls back to the single-threaded engine where SharedArrayBuffer is missing.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initEngine, type Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { splitRange, THREAD_MIN } from '../../src/engine/threads.js';
import { simulate } from '../../src/data/simulator.js';
import { fitVgm } from '../../src/models/ctgan/vgm.js';
import { LucidGan } from '../../src/models/lucidgan/model.js';
import { GanTrainer } from '../../src/models/lucidgan/train.js';
import { initNodeEngine, resolveThreads } from '../../src/node/engine.js';
import { hostRng } from '../helpers/engine.js';

const sameBits = (a: ArrayLike<number>, b: ArrayLike<number>, what: string) => {
  const x = Float32Array.from(a),
    y = Float32Array.from(b);
  assert.equal(x.length, y.length, `${what}: length`);
  const u = new Uint32Array(x.buffer),
    v = new Uint32Array(y.buffer);
  for (let i = 0; i < u.length; i++)
    if (u[i] !== v[i]) assert.fail(`${what}: element ${i} is ${x[i]} with threads, ${y[i]} without`);
};

/** Runs fn with every size threshold at 0, so even tiny calls split across the threads. */
function forceSplit<T>(fn: () => T): T {
  const saved = { ...THREAD_MIN };
  THREAD_MIN.gemmMacs = 0;
  THREAD_MIN.elements = 0;
  try {
    return fn();
  } finally {
    Object.assign(THREAD_MIN, saved);
  }
}

const engines: Engine[] = [];
const engineWith = async (threads: number) => {
  const e = await initNodeEngine({ threads });
  engines.push(e);
  return e;
};
after(() => {
  for (const e of engines) e.close();
});

function fill(e: Engine, n: number, rnd: () => number, lo = -1, hi = 1) {
  const t = e.empty([n]);
  const d = t.data;
  for (let i = 0; i < n; i++) d[i] = lo + (hi - lo) * rnd();
  return t;
}

describe('threads', () => {
  it('splitRange covers [0, n) in aligned pieces', () => {
    assert.deepEqual(splitRange(10, 2, 4), [
      [0, 8],
      [8, 2],
    ]);
    assert.deepEqual(splitRange(256, 2, 8), [
      [0, 128],
      [128, 128],
    ]);
    assert.deepEqual(splitRange(3, 4, 4), [[0, 3]]);
    for (const [n, T, a] of [
      [500, 3, 4],
      [2510, 2, 8],
      [1, 2, 16],
      [97, 3, 1],
    ]) {
      const parts = splitRange(n, T, a);
      assert.ok(parts.length <= T);
      let at = 0;
      for (const [s, m] of parts) {
        assert.equal(s, at);
        assert.ok(m > 0);
        at += m;
      }
      assert.equal(at, n);
    }
  });

  it('starts threads − 1 workers; threads: 1 is the plain single-threaded engine', async () => {
    const e1 = await engineWith(1);
    const e3 = await engineWith(3);
    assert.equal(e1.threads, 1);
    assert.equal(e3.threads, 3);
    assert.ok(!(e1.k.memory.buffer instanceof SharedArrayBuffer));
    assert.ok(e3.k.memory.buffer instanceof SharedArrayBuffer);
    assert.equal(e3.variant, e1.variant);
    assert.equal(resolveThreads(5), 5);
  });

  it('GEMM: bit-identical for 1, 2 and 3 threads in every layout at odd shapes (split M and split N)', async () => {
    const es = [await engineWith(1), await engineWith(2), await engineWith(3)];
    const shapes: [number, number, number][] = [
      [37, 61, 129],
      [131, 259, 77],
      [9, 300, 17],
      [300, 9, 40],
      [500, 256, 278],
      [50, 256, 2510],
      [5, 3, 1000],
    ];
    for (const [M, N, K] of shapes) {
      for (const [tA, tB] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ]) {
        for (const beta of [0, 1]) {
          const outs = es.map((e) => {
            const rnd = hostRng(M * 7 + N * 13 + K);
            const A = fill(e, M * K, rnd),
              B = fill(e, K * N, rnd),
              C = fill(e, M * N, rnd);
            forceSplit(() =>
              e.k.f32_gemm(tA, tB, M, N, K, A.ptr, tA ? M : K, B.ptr, tB ? K : N, beta, C.ptr, N, e.gemmWork),
            );
            const out = C.toArray();
            for (const t of [A, B, C]) t.dispose();
            return out;
          });
          sameBits(outs[1], outs[0], `gemm ${M}x${K}x${N} tA${tA} tB${tB} beta${beta} 2 threads`);
          sameBits(outs[2], outs[0], `gemm ${M}x${K}x${N} tA${tA} tB${tB} beta${beta} 3 threads`);
        }
      }
    }
  });

  it('elementwise kernels: bit-identical split across 3 threads at odd sizes, in place too', async () => {
    const es = [await engineWith(1), await engineWith(3)];
    const N = 37,
      D = 71,
      n = N * D;
    const cases: [string, (e: Engine, o: number, a: number, b: number, c: number) => void][] = [
      ['binary div', (e, o, a, b) => e.k.f32_binary(3, o, a, b, n)],
      ['binary_scalar rsub', (e, o, a) => e.k.f32_binary_scalar(1, 1, o, a, 0.37, n)],
      ['binary_rows mul', (e, o, a, b) => e.k.f32_binary_rows(2, 0, o, a, b, N, D)],
      ['binary_cols div swap', (e, o, a, b) => e.k.f32_binary_cols(3, 1, o, a, b, N, D)],
      ['axpy', (e, o, a) => e.k.f32_axpy(o, a, -0.7, n)],
      ['scale', (e, o, a) => e.k.f32_scale(o, a, 1.3, n)],
      ['unary tanh', (e, o, a) => e.k.f32_unary(2, o, a, n)],
      ['unary exp in place', (e, _o, a) => e.k.f32_unary(4, a, a, n)],
      ['unary sigmoid', (e, o, a) => e.k.f32_unary(3, o, a, n)],
      ['leaky_relu', (e, o, a) => e.k.f32_leaky_relu(o, a, 0.2, n)],
      ['leaky_relu_bwd', (e, o, a, b) => e.k.f32_leaky_relu_bwd(o, a, b, 0.2, n)],
      ['copy', (e, o, a) => e.k.f32_copy(o, a, n)],
      ['fill', (e, o) => e.k.f32_fill(o, n, 2.5)],
      ['adam', (e, o, a, b, c) => e.k.f32_adam(o, a, b, c, n, 1e-3, 0.5, 0.9, 1e-8, 1e-6, 0.3)],
      ['copy2d', (e, o, a) => e.k.f32_copy2d(o + 8, D, a, D + 1, N - 2, D - 3)],
      ['softmax_rows', (e, o, a) => e.k.f32_softmax_rows(o, D, a + 4, D, N - 2, D - 2)],
      ['rng_normal', (e, o) => e.k.rng_normal(o, n, 17, -5, 3, 9)],
      ['rng_uniform, counter wraps into ctr1', (e, o) => e.k.rng_uniform(o, n, 1, 2, -100, 7)],
      ['rng_gumbel, odd n', (e, o) => e.k.rng_gumbel(o, n - 3, 5, 6, 0x7ffffff0, 0)],
      ['bn_stats', (e, o, a) => e.k.f32_bn_stats(o, o + 4 * D, a, N, D)],
      [
        'bn_fwd',
        (e, o, a, b, c) => e.k.f32_bn_fwd(o, a, b + 16 * D, c, b, b + 4 * D, b + 8 * D, b + 12 * D, 1e-5, N - 7, D),
      ],
      [
        'bn_fwd in place',
        (e, o, a, b) => e.k.f32_bn_fwd(a, a, o, a, b, b + 4 * D, b + 8 * D, b + 12 * D, 1e-5, N - 9, D),
      ],
      [
        'bn_bwd',
        (e, o, a, b, c) => e.k.f32_bn_bwd(o, c + 4 * (n - 2 * D), c + 4 * (n - D), a, b, c, c + 4 * D, N - 5, D),
      ],
      ['log_softmax_rows', (e, o, a) => e.k.f32_log_softmax_rows(o + 4, D + 1, a, D, N - 2, D - 5)],
    ];
    for (const [name, run] of cases) {
      const outs = es.map((e) => {
        const rnd = hostRng(11);
        const o = fill(e, n, rnd),
          a = fill(e, n, rnd),
          b = fill(e, n, rnd, 0.5, 2),
          c = fill(e, n, rnd, 0, 1);
        forceSplit(() => run(e, o.ptr, a.ptr, b.ptr, c.ptr));
        const out = [...o.toArray(), ...a.toArray(), ...b.toArray(), ...c.toArray()];
        for (const t of [o, a, b, c]) t.dispose();
        return out;
      });
      sameBits(outs[1], outs[0], name);
    }
  });

  it('LUCID-GAN: the same seed gives bit-identical losses, weights and samples with 1, 2 and 3 threads', async () => {
    const run = async (threads: number) => {
      const e = await engineWith(threads);
      const sim = simulate(new Rng(e, 3), { n: 600, bias: 'proxy' });
      const table = {
        rows: sim.table.rows,
        columns: [...sim.table.columns, { kind: 'numeric' as const, name: 'preds', values: sim.truth.probability }],
      };
      const { model, x, rng } = LucidGan.setup(e, table, { conditions: ['preds'], seed: 5, batch: 100 });
      return forceSplit(() => {
        const trainer = new GanTrainer(model, x, rng);
        const losses: number[] = [];
        for (let i = 0; i < 3; i++) {
          const l = trainer.step();
          losses.push(...Object.values(l).filter((v): v is number => typeof v === 'number'));
        }
        const weights = model.params.snapshot();
        const rows = model.sample({ n: 50, conditions: { preds: 1 }, seed: 2 }).table;
        const sample = rows.columns.flatMap((c) => (c.kind === 'numeric' ? Array.from(c.values) : Array.from(c.codes)));
        trainer.dispose();
        model.dispose();
        return { losses, weights, sample };
      });
    };
    const [a, b, c] = [await run(1), await run(2), await run(3)];
    assert.ok(a.losses.length >= 3);
    for (const [other, t] of [
      [b, 2],
      [c, 3],
    ] as const) {
      sameBits(other.losses, a.losses, `losses, ${t} threads`);
      sameBits(other.weights, a.weights, `generator weights, ${t} threads`);
      assert.deepEqual(other.sample, a.sample, `samples, ${t} threads`);
    }
  });

  it(
    'VGM E-step: bit-identical responsibilities, log-densities ' + 'and sums (block-ordered) with 1, 2 and 3 threads',
    async () => {
      const es = [await engineWith(1), await engineWith(2), await engineWith(3)];
      for (const [N, K] of [
        [3000, 10],
        [1001, 3],
        [257, 7],
        [5000, 1],
      ]) {
        const outs = es.map((e) => {
          const rnd = hostRng(N + K);
          const x = fill(e, N, rnd, -3, 3),
            means = fill(e, K, rnd, -2, 2),
            half = fill(e, K, rnd, 0.1, 4),
            consts = fill(e, K, rnd, -3, 0);
          const resp = e.empty([K * N]),
            logResp = e.empty([K * N]),
            logNorm = e.empty([N]),
            sums = e.empty([4]);
          forceSplit(() =>
            e.k.f32_vgm_estep(
              resp.ptr,
              logResp.ptr,
              logNorm.ptr,
              sums.ptr,
              x.ptr,
              N,
              K,
              means.ptr,
              half.ptr,
              consts.ptr,
            ),
          );
          const out = [
            ...resp.toArray(),
            ...logResp.toArray(),
            ...logNorm.toArray(),
            ...new Float64Array(sums.toArray().buffer),
          ];
          for (const t of [x, means, half, consts, resp, logResp, logNorm, sums]) t.dispose();
          return out;
        });
        for (const t of [1, 2]) assert.deepEqual(outs[t], outs[0], `estep N ${N} K ${K}, ${t + 1} threads`);
      }
    },
  );

  it('VGM fit: the same modes with 1 and 2 threads', async () => {
    const rnd = hostRng(4);
    const x = new Float64Array(3000);
    for (let i = 0; i < x.length; i++) x[i] = (i % 3) * 4 + rnd() + rnd();
    const [m1, m2] = await Promise.all([engineWith(1), engineWith(2)]).then((es) =>
      es.map((e) => forceSplit(() => fitVgm(e, x, { seed: 1 }))),
    );
    assert.deepEqual(m2, m1);
  });

  it(
    'falls back to the single-threaded engine, with the ' + 'same results, where SharedArrayBuffer is unavailable',
    async () => {
      const saved = globalThis.SharedArrayBuffer;
      let fallback: Engine;
      try {
        // @ts-expect-error: simulate a runtime without SharedArrayBuffer (a page without cross-origin isolation)
        delete globalThis.SharedArrayBuffer;
        fallback = await engineWith(2);
      } finally {
        globalThis.SharedArrayBuffer = saved;
      }
      assert.equal(fallback.threads, 1);
      assert.ok(!(fallback.k.memory.buffer instanceof SharedArrayBuffer));
      const threaded = await engineWith(2);
      assert.equal(threaded.threads, 2);
      const [M, N, K] = [120, 72, 333];
      const outs = [fallback, threaded].map((e) => {
        const rnd = hostRng(9);
        const A = fill(e, M * K, rnd),
          B = fill(e, K * N, rnd),
          C = e.empty([M * N]);
        forceSplit(() => e.k.f32_gemm(0, 1, M, N, K, A.ptr, K, B.ptr, K, 0, C.ptr, N, e.gemmWork));
        const out = C.toArray();
        for (const t of [A, B, C]) t.dispose();
        return out;
      });
      sameBits(outs[1], outs[0], 'gemm, fallback vs threads');
    },
  );

  it('falls back without a spawn function, and reports workers that fail to start', async () => {
    const noSpawn = await initEngine({ threads: 4 });
    assert.equal(noSpawn.threads, 1);
    await assert.rejects(
      initEngine({
        threads: 2,
        spawn: (_init, onError) => {
          queueMicrotask(() => onError(new Error('no workers here')));
          return { terminate() {} };
        },
      }),
      (e: Error & { code?: string }) => e.code === 'E_WASM' && /no workers here/.test(e.message),
    );
    await assert.rejects(initEngine({ threads: 0 }), /threads must be an integer/);
  });

  it('close() stops the workers and the engine keeps working on one thread', async () => {
    const e = await initNodeEngine({ threads: 2 });
    e.close();
    assert.equal(e.threads, 1);
    const t = e.tensor([1, 2, 3]);
    e.k.f32_scale(t.ptr, t.ptr, 2, 3);
    assert.deepEqual(Array.from(t.data), [2, 4, 6]);
    e.close();
  });
});
