// Threads: a pool of workers over one shared WebAssembly.Memory, and the threaded kernel table.
//
// Runtime-neutral (no Node imports): the pool takes a `spawn` function that starts one worker
// (worker_threads in src/node/threads.ts; a browser would pass a Web Worker spawner). Each worker
// instantiates the same compiled module against the same shared memory and runs `threadWorkerLoop`:
// it spins, then Atomics.waits, on a job counter in a small control block (Int32Array over a
// SharedArrayBuffer), claims parts of the job and runs the kernel on each part's arguments.
//
// The main thread splits a kernel call into parts (2 per thread), publishes them, claims and runs
// parts itself, then waits until every part is done (spinning briefly, then Atomics.wait). Each
// thread takes its own parts first and then any part left, so a worker the OS has not scheduled
// costs at most the part it holds, and the same rows tend to stay on the same core from one kernel
// to the next. Calls below a size threshold (THREAD_MIN) run on the main thread alone.
//
// Determinism: every split gives each output element to exactly one part, which computes it with
// the same sequence of operations as the single-threaded kernel (GEMM splits M or N along micro-
// kernel panels, so the k-blocking is unchanged; elementwise kernels split their range; batch-norm
// statistics split columns; Philox draws offset their counter; the VGM E-step's sums are per
// 256-sample block in the kernel itself and added in block order). Results are therefore
// bit-identical for any thread count, including reductions; no tolerance is needed.
// test/engine/threads.test.ts checks it at 1, 2 and 3 threads.
import type { Kernels } from './wasm.js';

/** What a worker needs to join the pool. Everything here is structured-cloneable. */
export interface ThreadInit {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  control: SharedArrayBuffer;
  /** 1..threads−1 (the main thread is 0). */
  index: number;
}

export interface ThreadHandle {
  terminate(): void;
}

/**
 * Starts one worker that calls `threadWorkerLoop(init)` (see src/node/threads.ts for Node);
 * `onError` reports a worker that failed to start or died.
 */
export type SpawnThread = (init: ThreadInit, onError: (e: unknown) => void) => ThreadHandle;

/**
 * Kernels a worker can run, by id. Order is the wire format between main thread and workers
 * (test/engine/kernel-abi.test.ts checks each against the module).
 */
export const KERNEL_NAMES = [
  'f32_gemm',
  'f32_binary',
  'f32_binary_scalar',
  'f32_binary_rows',
  'f32_binary_cols',
  'f32_axpy',
  'f32_scale',
  'f32_unary',
  'f32_leaky_relu',
  'f32_leaky_relu_bwd',
  'f32_copy',
  'f32_fill',
  'f32_adam',
  'f32_copy2d',
  'f32_softmax_rows',
  'f32_log_softmax_rows',
  'rng_uniform',
  'rng_normal',
  'rng_gumbel',
  'f32_bn_stats_ld',
  'f32_bn_fwd_ld',
  'f32_bn_bwd_ld',
  'f32_vgm_estep_blocks',
] as const;
type KernelName = (typeof KERNEL_NAMES)[number];
const KID = Object.fromEntries(KERNEL_NAMES.map((n, i) => [n, i])) as Record<KernelName, number>;

// Control block layout (Int32 indices). A job is a list of parts (same kernel, own arguments).
// Thread t first claims its own parts t, t + T, t + 2T, … (so consecutive kernels over the same
// rows tend to keep them on the same core), then any part still unclaimed: a thread the OS has
// descheduled (a busy machine) delays the job by at most the part it holds. Part arguments are
// Float64 (exact for i32 and f32 arguments).
const GEN = 0; // job generation, bumped by the main thread for each parallel call
const COMPLETED = 2; // parts finished in the current job
const READY = 3; // workers that have instantiated the module
const STOP = 4; // 1: workers exit their loop
const FAILED = 5; // a part's kernel threw
const NPARTS = 6; // parts in the current job
const KERNEL = 7; // kernel id of the current job
const SPIN_AT = 8; // spin iterations of an idle worker before it sleeps
const THREADS_AT = 9; // threads of the pool
const SLOT_BASE = 64; // bytes before the first part slot
const SLOT_F64 = 16; // up to 16 arguments
/** Most parts of one job. */
export const MAX_PARTS = 64;
/** Most threads of one pool (the control block has a slot per thread). */
export const MAX_THREADS = 256;
/** A thread count the pool can hold: an integer in 1..MAX_THREADS. */
export const isThreadCount = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= MAX_THREADS;
const WORK_BASE = (SLOT_BASE + MAX_PARTS * SLOT_F64 * 8) / 4; // Int32 index: each thread's GEMM packing buffer
// Claim word of each part: the job's tag while the part is open, tag | CLAIMED once a thread took
// it. A thread that woke late for an older job compares with its own (older) tag, so it can never
// take a part of a newer job.
const CLAIM_BASE = WORK_BASE + MAX_THREADS;
const CONTROL_BYTES = (CLAIM_BASE + MAX_PARTS) * 4;
const TAG_MASK = 0x3fffffff;
const CLAIMED = 0x40000000;
/** Argument that a thread replaces with its own scratch buffer (GEMM's `work`), per kernel id; −1: none. */
const WORK_ARG = KERNEL_NAMES.map((n) => (n === 'f32_gemm' ? 12 : -1));

/**
 * Spin iterations before Atomics.wait (about 10 ns each): a worker between two kernels of one
 * training step picks up the next job without a futex wake-up. Workers read it from the control
 * block, so it can be tuned from the main thread (ThreadPool.spin).
 */
const SPIN = 20000;

type Fn = (...a: number[]) => unknown;

/**
 * Thread `self` of T claims and runs parts of job `gen`, its own first, until none is left
 * (`work`: this thread's GEMM packing buffer). Each part runs exactly once: claims are
 * compare-exchanges on the part's (tag) word.
 */
function runParts(
  ctl: Int32Array,
  slots: Float64Array,
  fns: readonly Fn[],
  gen: number,
  work: number,
  self: number,
  T: number,
): void {
  const tag = gen & TAG_MASK;
  const n = Atomics.load(ctl, NPARTS);
  for (let pass = 0; pass < 2; pass++) {
    for (let j = 0; j < n; j++) {
      const i = pass === 0 ? self + j * T : j;
      if (i >= n) break;
      if (Atomics.compareExchange(ctl, CLAIM_BASE + i, tag, tag | CLAIMED) !== tag) continue;
      const kid = Atomics.load(ctl, KERNEL);
      const fn = fns[kid];
      const o = i * SLOT_F64;
      if (WORK_ARG[kid] >= 0) slots[o + WORK_ARG[kid]] = work; // the part is this thread's alone now
      try {
        fn(
          slots[o],
          slots[o + 1],
          slots[o + 2],
          slots[o + 3],
          slots[o + 4],
          slots[o + 5],
          slots[o + 6],
          slots[o + 7],
          slots[o + 8],
          slots[o + 9],
          slots[o + 10],
          slots[o + 11],
          slots[o + 12],
          slots[o + 13],
          slots[o + 14],
          slots[o + 15],
        );
      } catch {
        Atomics.store(ctl, FAILED, 1);
      }
      if (Atomics.add(ctl, COMPLETED, 1) + 1 === n) Atomics.notify(ctl, COMPLETED);
    }
  }
}

/**
 * The worker side: instantiate the module on the shared memory, report ready, then run jobs until
 * STOP. Blocks its thread (a worker does nothing else).
 */
export async function threadWorkerLoop(init: ThreadInit): Promise<void> {
  const imports = {
    env: {
      memory: init.memory,
      abort(): never {
        throw new Error('kernel assertion failed in a worker thread');
      },
    },
  };
  const instance = await WebAssembly.instantiate(init.module, imports);
  const ex = instance.exports as unknown as Record<string, Fn>;
  const fns = KERNEL_NAMES.map((n) => ex[n]);
  const ctl = new Int32Array(init.control);
  const slots = new Float64Array(init.control, SLOT_BASE, MAX_PARTS * SLOT_F64);
  let seen = Atomics.load(ctl, GEN);
  Atomics.add(ctl, READY, 1);
  Atomics.notify(ctl, READY);
  for (;;) {
    let spins = 0;
    let gen: number;
    const spin = Atomics.load(ctl, SPIN_AT);
    while ((gen = Atomics.load(ctl, GEN)) === seen) {
      if (++spins >= spin) {
        Atomics.wait(ctl, GEN, seen);
        spins = 0;
      }
    }
    seen = gen;
    if (Atomics.load(ctl, STOP) !== 0) return;
    runParts(
      ctl,
      slots,
      fns,
      gen,
      Atomics.load(ctl, WORK_BASE + init.index) >>> 0,
      init.index,
      Atomics.load(ctl, THREADS_AT),
    );
  }
}

/** The main thread's side of the pool. */
export class ThreadPool {
  readonly control: SharedArrayBuffer;
  private readonly ctl: Int32Array;
  private readonly slots: Float64Array;
  private readonly handles: ThreadHandle[] = [];
  private closed = false;
  private error: unknown = null;
  private gen = 0;
  /** Atomics.wait is not allowed on a browser's main thread; there the pool spins. */
  private readonly canBlock: boolean;

  constructor(
    readonly threads: number,
    module: WebAssembly.Module,
    memory: WebAssembly.Memory,
    spawn: SpawnThread,
  ) {
    this.control = new SharedArrayBuffer(CONTROL_BYTES);
    this.ctl = new Int32Array(this.control);
    this.slots = new Float64Array(this.control, SLOT_BASE, MAX_PARTS * SLOT_F64);
    let canBlock = true;
    try {
      Atomics.wait(this.ctl, STOP, 1, 0); // throws where the thread may not block
    } catch {
      canBlock = false;
    }
    this.canBlock = canBlock;
    Atomics.store(this.ctl, SPIN_AT, SPIN);
    Atomics.store(this.ctl, THREADS_AT, threads);
    try {
      for (let t = 1; t < threads; t++)
        this.handles.push(
          spawn({ module, memory, control: this.control, index: t }, (e) => {
            this.error ??= e;
          }),
        );
    } catch (e) {
      this.close();
      throw e;
    }
  }

  get readyCount(): number {
    return Atomics.load(this.ctl, READY);
  }

  /** Resolves when every worker has instantiated the module; rejects after timeoutMs. */
  async ready(timeoutMs = 20000): Promise<void> {
    const t0 = Date.now();
    while (this.readyCount < this.threads - 1) {
      if (this.error !== null) throw this.error instanceof Error ? this.error : new Error(String(this.error));
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`threads: ${this.readyCount} of ${this.threads - 1} workers started within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /**
   * Runs kernel `name` once per entry of `parts` (its arguments), the parts shared out among this
   * thread and the workers; `main` is this thread's instance of the kernel. Returns when every part
   * has finished. `work`: this thread's GEMM packing buffer (workers use theirs, see setWork).
   */
  run(name: KernelName, main: Fn, parts: number[][], work = 0): void {
    if (this.closed) throw new Error('threads: pool is closed');
    const n = parts.length;
    if (n > MAX_PARTS) throw new Error(`threads: ${n} parts, at most ${MAX_PARTS}`);
    const ctl = this.ctl;
    const slots = this.slots;
    for (let i = 0; i < n; i++) {
      const p = parts[i];
      const o = i * SLOT_F64;
      for (let j = 0; j < p.length; j++) slots[o + j] = p[j];
    }
    const gen = (this.gen = (this.gen + 1) & TAG_MASK) || (this.gen = 1);
    Atomics.store(ctl, KERNEL, KID[name]);
    Atomics.store(ctl, NPARTS, n);
    Atomics.store(ctl, COMPLETED, 0);
    for (let i = 0; i < n; i++) Atomics.store(ctl, CLAIM_BASE + i, gen); // open the parts
    Atomics.store(ctl, GEN, gen);
    Atomics.notify(ctl, GEN);
    const fns = this.mainFns;
    fns[KID[name]] = main;
    runParts(ctl, slots, fns, gen, work, 0, this.threads);
    let spins = 0;
    let done: number;
    while ((done = Atomics.load(ctl, COMPLETED)) < n) {
      if (this.canBlock && ++spins >= SPIN) {
        Atomics.wait(ctl, COMPLETED, done, 1000);
        spins = 0;
      }
    }
    if (Atomics.load(ctl, FAILED) !== 0) {
      Atomics.store(ctl, FAILED, 0);
      throw new Error(`threads: kernel ${name} failed in a worker thread`);
    }
  }

  /** Spin iterations of an idle worker before it sleeps (default SPIN). */
  get spin(): number {
    return Atomics.load(this.ctl, SPIN_AT);
  }

  set spin(n: number) {
    Atomics.store(this.ctl, SPIN_AT, Math.max(0, Math.floor(n)));
  }

  /** Sets worker `index`'s GEMM packing buffer (before the first job). */
  setWork(index: number, ptr: number): void {
    Atomics.store(this.ctl, WORK_BASE + index, ptr | 0);
  }

  private readonly mainFns: Fn[] = KERNEL_NAMES.map(() => () => undefined);

  /** Stops and terminates the workers. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.ctl, STOP, 1);
    Atomics.add(this.ctl, GEN, 1);
    Atomics.notify(this.ctl, GEN);
    for (const h of this.handles) h.terminate();
  }
}

/**
 * How a call is cut: `partsPerThread` pieces per thread (claimed as described above; each GEMM piece
 * repacks the operand it shares, 2–5 % for 4 pieces at the training shapes), and the sizes below
 * which a call stays on the main thread. Measured with `npm run bench -- threads` (2 cores, worker
 * awake): split f32_binary is even at 8k elements and 1.3× faster at 32k; split f32_gemm is 1.5×
 * faster at 64³ (262k multiply-adds).
 */
export const THREAD_MIN = {
  partsPerThread: 2,
  /** M·N·K multiply-adds. */
  gemmMacs: 1 << 18,
  /** Elements of an elementwise kernel. */
  elements: 1 << 15,
};

/** Bytes of the per-block sums buffer threadedKernels needs (E-steps up to 4096 blocks of 256 samples). */
export const PARTIALS_BYTES = 4096 * 16;
const NR = 8; // GEMM micro-kernel columns (assembly/kernels/gemm.ts); N splits use 2·NR = one cache line
const MR = 4; // GEMM micro-kernel rows
const CHUNK = 16; // elementwise split granularity (one 64-byte line)

/** Split [0, n) into at most T ranges, each a multiple of `align` except the last. */
export function splitRange(n: number, T: number, align: number): [number, number][] {
  const step = Math.ceil(n / T / align) * align;
  const out: [number, number][] = [];
  for (let a = 0; a < n; a += step) out.push([a, Math.min(step, n - a)]);
  return out;
}

/**
 * The kernel table of a threaded engine: the hot kernels split their work across the pool; every
 * other kernel is the wasm export itself. Same signatures, same results (bit for bit).
 * Workers' GEMM packing buffers are set with pool.setWork; this thread uses the caller's `work`.
 * `partials`: PARTIALS_BYTES of wasm memory for the E-step's per-block sums.
 */
export function threadedKernels(k: Kernels, pool: ThreadPool, partials: number): Kernels {
  const P = () => Math.min(MAX_PARTS, pool.threads * THREAD_MIN.partsPerThread);
  const t = { ...k } as Kernels; // a copy: the wasm exports object itself is frozen
  const base = k as unknown as Record<KernelName, (...a: number[]) => unknown>;
  const over = t as unknown as Record<string, unknown>;

  over.f32_gemm = (
    tA: number,
    tB: number,
    M: number,
    N: number,
    K: number,
    A: number,
    lda: number,
    B: number,
    ldb: number,
    beta: number,
    C: number,
    ldc: number,
    w: number,
  ): void => {
    if (M * N * K < THREAD_MIN.gemmMacs) {
      k.f32_gemm(tA, tB, M, N, K, A, lda, B, ldb, beta, C, ldc, w);
      return;
    }
    // Split the dimension whose split duplicates the smaller packing: splitting N makes every
    // thread pack all of op(A) (M·K); splitting M makes every thread pack all of op(B) (K·N).
    const parts: number[][] = [];
    if (N > M) {
      for (const [j0, nj] of splitRange(N, P(), 2 * NR)) {
        const Bj = B + 4 * (tB ? j0 * ldb : j0);
        parts.push([tA, tB, M, nj, K, A, lda, Bj, ldb, beta, C + 4 * j0, ldc]);
      }
    } else {
      for (const [i0, mi] of splitRange(M, P(), MR)) {
        const Ai = A + 4 * (tA ? i0 : i0 * lda);
        parts.push([tA, tB, mi, N, K, Ai, lda, B, ldb, beta, C + 4 * i0 * ldc, ldc]);
      }
    }
    if (parts.length < 2) k.f32_gemm(tA, tB, M, N, K, A, lda, B, ldb, beta, C, ldc, w);
    else pool.run('f32_gemm', base.f32_gemm, parts, w);
  };

  /**
   * The common split: below `small(a)` the plain kernel runs; otherwise argument `lenAt` is cut by
   * splitRange into parts aligned to `align`, each pointer argument [i, strideAt] advanced by
   * 4·start·(a[strideAt], or 1 when strideAt < 0) bytes, and kernel `run` runs the parts (with a[ldAt]
   * appended when ldAt ≥ 0: the `_ld` forms' full row stride).
   */
  const split = (
    name: string,
    ptrs: [number, number][],
    lenAt: number,
    align: number,
    small: (a: number[]) => boolean,
    run = name as KernelName,
    ldAt = -1,
  ) => {
    const fn = (k as unknown as Record<string, Fn>)[name];
    const fnRun = base[run];
    over[name] = (...a: number[]): void => {
      if (small(a)) {
        fn(...a);
        return;
      }
      const parts: number[][] = [];
      for (const [s, m] of splitRange(a[lenAt], P(), align)) {
        const p = a.slice();
        for (const [i, st] of ptrs) p[i] = a[i] + 4 * s * (st < 0 ? 1 : a[st]);
        p[lenAt] = m;
        if (ldAt >= 0) p.push(a[ldAt]);
        parts.push(p);
      }
      pool.run(run, fnRun, parts);
    };
  };

  // Elementwise kernels over n contiguous elements: split the range (pointer arguments offset).
  const elementwise = (name: KernelName, ptrs: number[], nAt: number) =>
    split(
      name,
      ptrs.map((i): [number, number] => [i, -1]),
      nAt,
      CHUNK,
      (a) => a[nAt] < THREAD_MIN.elements,
    );
  elementwise('f32_binary', [1, 2, 3], 4); // (op, out, a, b, n)
  elementwise('f32_binary_scalar', [2, 3], 5); // (op, swap, out, x, s, n)
  elementwise('f32_axpy', [0, 1], 3); // (y, x, alpha, n)
  elementwise('f32_scale', [0, 1], 3); // (out, x, s, n)
  elementwise('f32_unary', [1, 2], 3); // (op, out, x, n)
  elementwise('f32_leaky_relu', [0, 1], 3); // (out, x, alpha, n)
  elementwise('f32_leaky_relu_bwd', [0, 1, 2], 4); // (out, dy, x, alpha, n)
  elementwise('f32_copy', [0, 1], 2); // (out, x, n)
  elementwise('f32_fill', [0], 1); // (out, n, v)
  elementwise('f32_adam', [0, 1, 2, 3], 4); // (p, g, m, v, n, …)

  // Row-broadcast kernels (op, swap, out, x, v, N, D): split the rows (x, out advance by whole rows).
  // f32_binary_rows: v has D entries (one per column), shared by every row.
  split(
    'f32_binary_rows',
    [
      [2, 6],
      [3, 6],
    ],
    5,
    1,
    (a) => a[5] * a[6] < THREAD_MIN.elements,
  );
  // f32_binary_cols: v has N entries (one per row).
  split(
    'f32_binary_cols',
    [
      [2, 6],
      [3, 6],
      [4, -1],
    ],
    5,
    1,
    (a) => a[5] * a[6] < THREAD_MIN.elements,
  );

  // Strided row kernels (out, ldo, x, ldx, N, D): split the rows.
  const strided = (name: KernelName) =>
    split(
      name,
      [
        [0, 1],
        [2, 3],
      ],
      4,
      1,
      (a) => a[4] * a[5] < THREAD_MIN.elements,
    );
  strided('f32_copy2d');
  strided('f32_softmax_rows');
  strided('f32_log_softmax_rows');

  // Philox draws (out, n, key0, key1, ctr0, ctr1): value i comes from block ⌊i/4⌋ whatever the call's
  // n, so a part starting at value s (a multiple of 16) starts its counter s/4 blocks later. The
  // carry goes into ctr1; a carry out of ctr1 (a counter past 2^64 blocks) is not propagated.
  const rng = (name: KernelName) => {
    const fn = base[name];
    over[name] = (out: number, n: number, key0: number, key1: number, ctr0: number, ctr1: number): void => {
      if (n < THREAD_MIN.elements) {
        fn(out, n, key0, key1, ctr0, ctr1);
        return;
      }
      const parts: number[][] = [];
      for (const [s, m] of splitRange(n, P(), CHUNK)) {
        const c = (ctr0 >>> 0) + s / 4;
        const wrap = c >= 2 ** 32;
        parts.push([out + 4 * s, m, key0, key1, (wrap ? c - 2 ** 32 : c) | 0, wrap ? (ctr1 + 1) | 0 : ctr1]);
      }
      pool.run(name, fn, parts);
    };
  };
  rng('rng_uniform');
  rng('rng_normal');
  rng('rng_gumbel');

  // Batch norm over (N, D): split the columns (each column's sums are one thread's, in row order,
  // as on one thread); the parts run the `_ld` forms with the full row stride D.
  const COLS = 16; // one cache line of a row, so no two threads write the same line
  const bn = (
    name: 'f32_bn_stats' | 'f32_bn_fwd' | 'f32_bn_bwd',
    ld: KernelName,
    colPtrs: number[],
    NAt: number,
    DAt: number,
  ) =>
    split(
      name,
      colPtrs.map((i): [number, number] => [i, -1]),
      DAt,
      COLS,
      (a) => a[NAt] * a[DAt] < THREAD_MIN.elements || a[DAt] < 2 * COLS,
      ld,
      DAt,
    );
  bn('f32_bn_stats', 'f32_bn_stats_ld', [0, 1, 2], 3, 4); // (mean, var, x, N, D)
  // (y, xhat, invstd, x, mean, variance, gamma, beta, eps, N, D)
  bn('f32_bn_fwd', 'f32_bn_fwd_ld', [0, 1, 2, 3, 4, 5, 6, 7], 9, 10);
  bn('f32_bn_bwd', 'f32_bn_bwd_ld', [0, 1, 2, 3, 4, 5, 6], 7, 8); // (dx, dgamma, dbeta, dy, xhat, invstd, gamma, N, D)

  // VGM E-step (K×N responsibilities, component-major): split the samples on block boundaries; each
  // part writes its blocks' sums, added here in block order, which is the kernel's own order, so the
  // sums are bit-identical to one thread's.
  const estepBlocks = base.f32_vgm_estep_blocks;
  // the kernel's block size (assembly/kernels/mixture.ts exports it): parts must start on its boundaries
  const VGM_BLOCK = (k as unknown as { VGM_BLOCK: WebAssembly.Global }).VGM_BLOCK.value as number;
  over.f32_vgm_estep = (
    resp: number,
    logResp: number,
    logNorm: number,
    sums: number,
    x: number,
    N: number,
    K: number,
    means: number,
    halfPrec: number,
    consts: number,
  ): void => {
    const blocks = Math.ceil(N / VGM_BLOCK);
    if (N * K < THREAD_MIN.elements || blocks < 2 || blocks * 16 > PARTIALS_BYTES) {
      k.f32_vgm_estep(resp, logResp, logNorm, sums, x, N, K, means, halfPrec, consts);
      return;
    }
    const parts: number[][] = [];
    for (const [i0, n] of splitRange(N, P(), VGM_BLOCK)) {
      parts.push([
        resp + 4 * i0,
        logResp ? logResp + 4 * i0 : 0,
        logNorm ? logNorm + 4 * i0 : 0,
        partials + 16 * (i0 / VGM_BLOCK),
        x + 4 * i0,
        n,
        K,
        means,
        halfPrec,
        consts,
        N,
      ]);
    }
    pool.run('f32_vgm_estep_blocks', estepBlocks, parts);
    const buf = k.memory.buffer;
    const b = new Float64Array(buf, partials, 2 * blocks);
    let sumL = 0;
    let sumE = 0;
    for (let i = 0; i < blocks; i++) {
      sumL += b[2 * i];
      sumE += b[2 * i + 1];
    }
    const out = new Float64Array(buf, sums, 2);
    out[0] = sumL;
    out[1] = sumE;
  };

  for (const n of KERNEL_NAMES) {
    if (typeof base[n] !== 'function') throw new Error(`threads: the kernels have no ${n}`);
    if (!n.endsWith('_ld') && !n.endsWith('_blocks') && over[n] === base[n])
      throw new Error(`threads: no threaded form for ${n}`);
  }
  return t;
}
