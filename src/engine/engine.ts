// The engine: one wasm instance, its memory owners, and tensor handles over that memory.
//
// Lifetimes. A tensor created inside `engine.scope(fn)` lives in the scratch arena and dies when
// the scope closes (reading it afterwards throws E_LIFETIME instead of returning garbage). A tensor
// created outside every scope is a heap block owned by the caller (`dispose()`). Parameters live in
// persistent `Block`s (see nn/module.ts), one contiguous block per model, as in llm.c.
import { check, EngineError } from './errors.js';
import { Arena, Heap, type Scope } from './memory.js';
import { type Kernels, type LoadOptions, loadKernels, sharedMemorySupported, type Variant } from './wasm.js';
import {
  isThreadCount,
  MAX_THREADS,
  PARTIALS_BYTES,
  type SpawnThread,
  threadedKernels,
  ThreadPool,
} from './threads.js';

export type Shape = readonly number[];

export const sizeOf = (shape: Shape): number => shape.reduce((a, b) => a * b, 1);

/** A contiguous persistent region holding several tensors (parameters, their gradients, Adam moments). */
export class Block {
  alive = true;
  constructor(
    readonly engine: Engine,
    readonly ptr: number,
    readonly bytes: number,
  ) {}
  dispose(): void {
    if (!this.alive) throw new EngineError('E_LIFETIME', 'block: disposed twice');
    this.alive = false;
    this.engine.heap.release(this.ptr);
  }
}

type Owner = Scope | Block | { heap: true; alive: boolean };

/**
 * What the engine knows of the autodiff node that produced a tensor: its inputs. The tape
 * (autograd/tape.ts, a layer above) writes every node, as its Node, which extends this; declaring
 * the field's type here keeps the engine from importing the tape.
 */
export interface TapeNode {
  readonly inputs: readonly Tensor[];
}

export class Tensor {
  requiresGrad = false;
  /** The op that produced this tensor while gradients were being recorded. */
  node: TapeNode | null = null;
  readonly size: number;

  constructor(
    readonly engine: Engine,
    readonly ptr: number,
    readonly shape: Shape,
    private readonly owner: Owner,
  ) {
    this.size = sizeOf(shape);
  }

  get rank(): number {
    return this.shape.length;
  }

  get alive(): boolean {
    return this.owner.alive;
  }

  /** A fresh Float32Array view over this tensor's memory (never cache it across allocations). */
  get data(): Float32Array {
    if (!this.owner.alive) {
      throw new EngineError(
        'E_LIFETIME',
        `tensor of shape [${this.shape}] used after its scope ended or it was disposed`,
      );
    }
    return this.engine.view(this.ptr, this.size);
  }

  toArray(): Float32Array {
    return this.data.slice();
  }

  item(): number {
    check(this.size === 1, 'E_SHAPE', () => `item: tensor has ${this.size} elements, expected 1`);
    return this.data[0];
  }

  /** Same memory, no gradient history. */
  detach(): Tensor {
    return new Tensor(this.engine, this.ptr, this.shape, this.owner);
  }

  /** Same memory, another shape (the autodiff-aware version is ops.reshape). */
  withShape(shape: Shape): Tensor {
    check(sizeOf(shape) === this.size, 'E_SHAPE', () => `reshape: cannot view [${this.shape}] as [${shape}]`);
    return new Tensor(this.engine, this.ptr, shape, this.owner);
  }

  dispose(): void {
    const o = this.owner;
    if ('heap' in o) {
      if (!o.alive) throw new EngineError('E_LIFETIME', 'tensor: disposed twice');
      o.alive = false;
      this.engine.heap.release(this.ptr);
    } else {
      throw new EngineError(
        'E_LIFETIME',
        'tensor: only tensors created outside every scope can be disposed; scope tensors die with their scope',
      );
    }
  }

  toString(): string {
    return `Tensor[${this.shape}]`;
  }
}

export class Engine {
  readonly heap: Heap;
  readonly arena: Arena;
  /** GEMM packing buffer, persistent. */
  readonly gemmWork: number;
  /** Whether ops record the graph (false inside noGrad and inside first-order backward). */
  recording = true;
  /** The kernel table: the wasm exports, or their threaded forms (same signatures, same results). */
  readonly k: Kernels;
  /** The single-threaded wasm exports (also what `k` is without threads). */
  readonly kernels1: Kernels;
  private pool: ThreadPool | null = null;

  constructor(
    k: Kernels,
    readonly variant: Variant,
  ) {
    this.k = k;
    this.kernels1 = k;
    this.heap = new Heap(k.memory, k.heap_base());
    this.arena = new Arena(this.heap);
    this.gemmWork = this.heap.alloc(k.f32_gemm_work_bytes());
  }

  /** Threads running kernels (1: the single-threaded engine). */
  get threads(): number {
    return this.pool ? this.pool.threads : 1;
  }

  /** Attaches a started pool (initEngine does this); the hot kernels then split across its threads. */
  attachPool(pool: ThreadPool): void {
    for (let t = 1; t < pool.threads; t++) pool.setWork(t, this.heap.alloc(this.kernels1.f32_gemm_work_bytes()));
    this.pool = pool;
    (this as { k: Kernels }).k = threadedKernels(this.kernels1, pool, this.heap.alloc(PARTIALS_BYTES));
  }

  /** Stops the worker threads (the engine keeps working on one thread). Idempotent. */
  close(): void {
    if (!this.pool) return;
    this.pool.close();
    this.pool = null;
    (this as { k: Kernels }).k = this.kernels1;
  }

  /** The one place typed-array views over wasm memory are made (memory.grow detaches old ones). */
  view(ptr: number, len: number): Float32Array {
    return new Float32Array(this.k.memory.buffer, ptr, len);
  }

  /** Uninitialised tensor in the current scope (or on the heap outside every scope). */
  empty(shape: Shape): Tensor {
    for (const d of shape) {
      check(Number.isInteger(d) && d >= 0, 'E_SHAPE', () => `tensor: invalid shape [${shape}]`);
    }
    const bytes = sizeOf(shape) * 4;
    const scope = this.arena.current;
    if (scope) return new Tensor(this, this.arena.alloc(bytes), shape, scope);
    return new Tensor(this, this.heap.alloc(bytes), shape, { heap: true, alive: true });
  }

  /** A tensor at a fixed place inside a persistent block. */
  inBlock(block: Block, byteOffset: number, shape: Shape): Tensor {
    check(byteOffset + sizeOf(shape) * 4 <= block.bytes, 'E_ARG', () => 'block: tensor does not fit');
    return new Tensor(this, block.ptr + byteOffset, shape, block);
  }

  block(bytes: number): Block {
    return new Block(this, this.heap.alloc(bytes), bytes);
  }

  zeros(shape: Shape): Tensor {
    return this.full(shape, 0);
  }

  ones(shape: Shape): Tensor {
    return this.full(shape, 1);
  }

  full(shape: Shape, value: number): Tensor {
    const t = this.empty(shape);
    this.k.f32_fill(t.ptr, t.size, value);
    return t;
  }

  /** Copies host values into a new tensor. NaN/Infinity are rejected: they are never silently trained on. */
  tensor(values: ArrayLike<number>, shape?: Shape): Tensor {
    const sh = shape ?? [values.length];
    check(sizeOf(sh) === values.length, 'E_SHAPE', () => `tensor: ${values.length} values do not fill shape [${sh}]`);
    for (let i = 0; i < values.length; i++) {
      if (!Number.isFinite(values[i]))
        throw new EngineError('E_VALUE', `tensor: value ${i} is ${values[i]}, not a finite number`);
    }
    const t = this.empty(sh);
    t.data.set(values);
    return t;
  }

  /** Runs fn in a scratch scope; every tensor it allocates is released when it returns. */
  scope<T>(fn: () => T): T {
    const s = this.arena.open();
    try {
      const r = fn();
      if (r instanceof Promise)
        throw new EngineError('E_ARG', 'scope: fn must be synchronous (await outside the scope)');
      return r;
    } finally {
      this.arena.close(s);
    }
  }

  /** Runs fn without recording the graph. */
  noGrad<T>(fn: () => T): T {
    const prev = this.recording;
    this.recording = false;
    try {
      return fn();
    } finally {
      this.recording = prev;
    }
  }

  /** Bytes of wasm memory (grows, never shrinks). */
  get memoryBytes(): number {
    return this.heap.memoryBytes;
  }
}

export interface EngineOptions extends LoadOptions {
  /**
   * Kernel threads (default 1). Above 1 the engine loads the shared-memory build and starts
   * threads − 1 workers with `spawn`; without `spawn`, without SharedArrayBuffer (a browser page
   * without cross-origin isolation, some edge runtimes), or with `bytes`/`module`, it falls back
   * to the single-threaded engine, which gives the same results.
   */
  threads?: number;
  /** Starts one worker thread (Node: src/node/threads.ts). */
  spawn?: SpawnThread;
}

export async function initEngine(opts: EngineOptions = {}): Promise<Engine> {
  const threads = opts.threads ?? 1;
  check(
    isThreadCount(threads),
    'E_ARG',
    () => `engine: threads must be an integer in 1..${MAX_THREADS}, got ${threads}`,
  );
  const wantThreads = threads > 1 && opts.spawn !== undefined && !opts.bytes && !opts.module && sharedMemorySupported();
  const { kernels, variant, shared } = await loadKernels({ ...opts, shared: wantThreads });
  const engine = new Engine(kernels, variant);
  if (wantThreads && shared && opts.spawn) {
    const pool = new ThreadPool(threads, shared.module, shared.memory, opts.spawn);
    try {
      await pool.ready();
      engine.attachPool(pool);
    } catch (e) {
      pool.close();
      throw new EngineError(
        'E_WASM',
        `engine: could not start ${threads - 1} worker threads: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  return engine;
}
