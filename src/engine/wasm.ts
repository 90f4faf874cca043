// Loading the kernel module: pick the relaxed-SIMD (FMA) build where the runtime validates it,
// else the plain SIMD128 build (tfjs-style feature detection). No Node-only imports here.
import { EngineError } from './errors.js';
import { RELAXED_MT_WASM_BASE64, RELAXED_WASM_BASE64, SIMD_MT_WASM_BASE64, SIMD_WASM_BASE64 } from './binaries.gen.js';

type Ptr = number;

/** The kernel ABI (assembly/index.ts). Booleans travel as 0/1. */
export interface Kernels {
  memory: WebAssembly.Memory;
  heap_base(): Ptr;
  // gemm.ts
  f32_gemm_work_bytes(): number;
  f32_gemm(
    tA: number,
    tB: number,
    M: number,
    N: number,
    K: number,
    A: Ptr,
    lda: number,
    B: Ptr,
    ldb: number,
    beta: number,
    C: Ptr,
    ldc: number,
    work: Ptr,
  ): void;
  ref_gemm(
    tA: number,
    tB: number,
    M: number,
    N: number,
    K: number,
    A: Ptr,
    lda: number,
    B: Ptr,
    ldb: number,
    beta: number,
    C: Ptr,
    ldc: number,
    work: Ptr,
  ): void;
  // layout.ts
  f32_copy2d(out: Ptr, ldo: number, x: Ptr, ldx: number, N: number, D: number): void;
  // elementwise.ts
  f32_fill(out: Ptr, n: number, v: number): void;
  f32_copy(out: Ptr, x: Ptr, n: number): void;
  f32_binary(op: number, out: Ptr, a: Ptr, b: Ptr, n: number): void;
  f32_binary_scalar(op: number, swap: number, out: Ptr, x: Ptr, s: number, n: number): void;
  f32_binary_rows(op: number, swap: number, out: Ptr, x: Ptr, v: Ptr, N: number, D: number): void;
  f32_binary_cols(op: number, swap: number, out: Ptr, x: Ptr, v: Ptr, N: number, D: number): void;
  f32_axpy(y: Ptr, x: Ptr, alpha: number, n: number): void;
  f32_scale(out: Ptr, x: Ptr, s: number, n: number): void;
  f32_unary(op: number, out: Ptr, x: Ptr, n: number): void;
  f32_leaky_relu(out: Ptr, x: Ptr, alpha: number, n: number): void;
  f32_leaky_relu_bwd(out: Ptr, dy: Ptr, x: Ptr, alpha: number, n: number): void;
  f32_mask_gt(out: Ptr, x: Ptr, thr: number, n: number): void;
  f32_dropout_mask(out: Ptr, u: Ptr, p: number, n: number): void;
  // reduce.ts
  f32_sum(out: Ptr, x: Ptr, n: number): void;
  f32_sum_rows(out: Ptr, x: Ptr, N: number, D: number): void;
  f32_sum_cols(out: Ptr, x: Ptr, N: number, D: number): void;
  // batchnorm.ts
  f32_bn_stats(mean: Ptr, variance: Ptr, x: Ptr, N: number, D: number): void;
  f32_bn_fwd(
    y: Ptr,
    xhat: Ptr,
    invstd: Ptr,
    x: Ptr,
    mean: Ptr,
    variance: Ptr,
    gamma: Ptr,
    beta: Ptr,
    eps: number,
    N: number,
    D: number,
  ): void;
  f32_bn_bwd(dx: Ptr, dgamma: Ptr, dbeta: Ptr, dy: Ptr, xhat: Ptr, invstd: Ptr, gamma: Ptr, N: number, D: number): void;
  // the same over D columns of matrices with row stride ld (column blocks, for threads)
  f32_bn_stats_ld(mean: Ptr, variance: Ptr, x: Ptr, N: number, D: number, ld: number): void;
  f32_bn_fwd_ld(
    y: Ptr,
    xhat: Ptr,
    invstd: Ptr,
    x: Ptr,
    mean: Ptr,
    variance: Ptr,
    gamma: Ptr,
    beta: Ptr,
    eps: number,
    N: number,
    D: number,
    ld: number,
  ): void;
  f32_bn_bwd_ld(
    dx: Ptr,
    dgamma: Ptr,
    dbeta: Ptr,
    dy: Ptr,
    xhat: Ptr,
    invstd: Ptr,
    gamma: Ptr,
    N: number,
    D: number,
    ld: number,
  ): void;
  // softmax.ts
  f32_softmax_rows(out: Ptr, ldo: number, x: Ptr, ldx: number, N: number, D: number): void;
  f32_log_softmax_rows(out: Ptr, ldo: number, x: Ptr, ldx: number, N: number, D: number): void;
  // optim.ts
  f32_adam(
    p: Ptr,
    g: Ptr,
    m: Ptr,
    v: Ptr,
    n: number,
    stepSize: number,
    beta1: number,
    beta2: number,
    eps: number,
    weightDecay: number,
    bc2sqrt: number,
  ): void;
  // mixture.ts (resp/logResp: (K×N) component-major; sums/stats: f64)
  f32_vgm_estep(
    resp: Ptr,
    logResp: Ptr,
    logNorm: Ptr,
    sums: Ptr,
    x: Ptr,
    N: number,
    K: number,
    means: Ptr,
    halfPrec: Ptr,
    consts: Ptr,
  ): void;
  /**
   * f32_vgm_estep over a block-aligned sample range (resp row stride ldr); per-block sums (2 f64 each) into partials.
   */
  f32_vgm_estep_blocks(
    resp: Ptr,
    logResp: Ptr,
    logNorm: Ptr,
    partials: Ptr,
    x: Ptr,
    N: number,
    K: number,
    means: Ptr,
    halfPrec: Ptr,
    consts: Ptr,
    ldr: number,
  ): void;
  ref_vgm_estep(
    resp: Ptr,
    logResp: Ptr,
    logNorm: Ptr,
    sums: Ptr,
    x: Ptr,
    N: number,
    K: number,
    means: Ptr,
    halfPrec: Ptr,
    consts: Ptr,
  ): void;
  f32_vgm_mstep(stats: Ptr, resp: Ptr, x: Ptr, N: number, K: number, shift: Ptr): void;
  ref_vgm_mstep(stats: Ptr, resp: Ptr, x: Ptr, N: number, K: number, shift: Ptr): void;
  f32_kmeans_assign(labels: Ptr, sums: Ptr, x: Ptr, N: number, centers: Ptr, K: number): number;
  ref_kmeans_assign(labels: Ptr, sums: Ptr, x: Ptr, N: number, centers: Ptr, K: number): number;
  // rng.ts
  rng_uniform(out: Ptr, n: number, key0: number, key1: number, ctr0: number, ctr1: number): void;
  rng_normal(out: Ptr, n: number, key0: number, key1: number, ctr0: number, ctr1: number): void;
  rng_gumbel(out: Ptr, n: number, key0: number, key1: number, ctr0: number, ctr1: number): void;
}

/** Binary opcodes shared by the f32_binary* kernels. */
export const BinOp = { add: 0, sub: 1, mul: 2, div: 3, max: 4, min: 5 } as const;
/** Unary opcodes of f32_unary (kernels/elementwise.ts UnaryOp). */
export const UnOp = {
  neg: 0,
  relu: 1,
  tanh: 2,
  sigmoid: 3,
  exp: 4,
  log: 5,
  square: 6,
  sqrt: 7,
  abs: 8,
  softplus: 9,
  reciprocal: 10,
  sign: 11,
} as const;

export type Variant = 'simd' | 'relaxed' | 'custom';

function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export interface LoadOptions {
  /** 'auto' (default): relaxed SIMD where the runtime validates it, else plain SIMD. */
  variant?: 'auto' | 'simd' | 'relaxed';
  /** Instantiate these bytes instead of an embedded build (e.g. build/debug.wasm with assertions). */
  bytes?: Uint8Array<ArrayBuffer>;
  /**
   * Instantiate this precompiled module (e.g. one built from build/release.wasm). For runtimes that
   * forbid compiling wasm from bytes at run time, such as Cloudflare workerd, where the .wasm file is
   * declared as a module of the worker and imported as a WebAssembly.Module.
   */
  module?: WebAssembly.Module;
  /**
   * Load the shared-memory build (threads): the memory is a shared WebAssembly.Memory created here
   * (maximum 4 GiB) and imported by the module, so workers can instantiate the same module on it.
   * Ignored with `bytes` or `module`. Callers check sharedMemorySupported() first.
   */
  shared?: boolean;
}

/** Pages of the shared memory: the builds declare 16 initial pages and a 65536-page (4 GiB) maximum (asconfig.json). */
const SHARED_INITIAL_PAGES = 16;
const SHARED_MAX_PAGES = 65536;

/**
 * True when this runtime can run the threaded engine: SharedArrayBuffer and Atomics exist (a browser
 * page needs cross-origin isolation for them) and a shared WebAssembly.Memory can be created.
 */
export function sharedMemorySupported(): boolean {
  try {
    if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return false;
    const m = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return m.buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** True when this runtime validates the relaxed-SIMD build (Node 20 needs --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported(): boolean {
  try {
    return WebAssembly.validate(fromBase64(RELAXED_WASM_BASE64));
  } catch {
    return false;
  }
}

export interface LoadedKernels {
  kernels: Kernels;
  variant: Variant;
  /** Set for the shared-memory build: the compiled module and its shared memory, for worker threads. */
  shared?: { module: WebAssembly.Module; memory: WebAssembly.Memory };
}

export async function loadKernels(opts: LoadOptions = {}): Promise<LoadedKernels> {
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  let variant: Variant;
  const shared = opts.shared === true && !opts.module && !opts.bytes;
  if (opts.module) {
    variant = 'custom';
  } else if (opts.bytes) {
    bytes = opts.bytes;
    variant = 'custom';
  } else {
    const want = opts.variant ?? 'auto';
    const relaxed = want === 'relaxed' || (want === 'auto' && relaxedSimdSupported());
    if (want === 'relaxed' && !relaxedSimdSupported()) {
      throw new EngineError(
        'E_WASM',
        'engine: variant "relaxed" requested but this runtime does not support relaxed SIMD (Node 20 needs ' +
          '--experimental-wasm-relaxed-simd)',
      );
    }
    bytes = fromBase64(
      relaxed
        ? shared
          ? RELAXED_MT_WASM_BASE64
          : RELAXED_WASM_BASE64
        : shared
          ? SIMD_MT_WASM_BASE64
          : SIMD_WASM_BASE64,
    );
    variant = relaxed ? 'relaxed' : 'simd';
  }
  if (bytes && !WebAssembly.validate(bytes)) {
    throw new EngineError(
      'E_WASM',
      'engine: this runtime cannot validate the wasm kernels (WebAssembly SIMD128 is required)',
    );
  }
  let memory: WebAssembly.Memory | null = null;
  // AssemblyScript passes its static strings as pointers to UTF-16 data with the byte length at ptr − 4.
  const str = (ptr: number): string => {
    if (!memory || ptr < 4 || ptr >= memory.buffer.byteLength) return `@${ptr}`;
    const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0];
    return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, Math.min(bytes >>> 1, 1024)));
  };
  const sharedMemory = shared
    ? new WebAssembly.Memory({ initial: SHARED_INITIAL_PAGES, maximum: SHARED_MAX_PAGES, shared: true })
    : null;
  const imports = {
    env: {
      ...(sharedMemory ? { memory: sharedMemory } : {}),
      abort(msg: number, file: number, line: number, col: number): never {
        throw new EngineError('E_WASM', `kernel assertion failed: ${str(msg)} at ${str(file)}:${line}:${col}`);
      },
    },
  };
  const module = opts.module ?? (await WebAssembly.compile(bytes as BufferSource));
  const instance = await WebAssembly.instantiate(module, imports);
  // The shared build imports its memory instead of exporting it; the ABI keeps `memory` on the kernels.
  const kernels = (sharedMemory
    ? { ...instance.exports, memory: sharedMemory }
    : instance.exports) as unknown as Kernels;
  memory = kernels.memory;
  return { kernels, variant, ...(sharedMemory ? { shared: { module, memory: sharedMemory } } : {}) };
}
