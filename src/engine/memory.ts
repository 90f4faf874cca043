// Who owns each byte of wasm memory.
//
// - Heap: a first-fit free-list allocator over everything above __heap_base. It hands out
//   persistent blocks (parameters, gradients, optimizer state, the GEMM packing buffer) and the
//   chunks of the scratch arena. It grows the memory when it must.
// - Arena: per-step temporaries. A bump pointer over chunks taken from the heap; scopes nest, and
//   closing a scope releases everything allocated in it. After the first step has reached its
//   high-water mark the arena keeps one chunk of that size, so a training loop stops growing memory.
//
// Views: `memory.grow` detaches every typed array over the old buffer, so views are never cached;
// they all come from `view()` below, which reads `memory.buffer` afresh.
import { EngineError } from './errors.js';

const ALIGN = 64; // one cache line; also keeps every v128 access aligned
const PAGE = 65536;

const alignUp = (n: number, a: number) => Math.ceil(n / a) * a;

export class Heap {
  private readonly memory: WebAssembly.Memory;
  private top: number; // end of the region handed out so far
  private free: { ptr: number; size: number }[] = []; // sorted by ptr, coalesced
  private readonly sizes = new Map<number, number>(); // live block → size
  liveBytes = 0;

  constructor(memory: WebAssembly.Memory, base: number) {
    this.memory = memory;
    this.top = alignUp(base, ALIGN);
  }

  alloc(bytes: number): number {
    const size = alignUp(Math.max(bytes, 1), ALIGN);
    for (let i = 0; i < this.free.length; i++) {
      const b = this.free[i];
      if (b.size >= size) {
        const ptr = b.ptr;
        if (b.size === size) this.free.splice(i, 1);
        else {
          b.ptr += size;
          b.size -= size;
        }
        this.sizes.set(ptr, size);
        this.liveBytes += size;
        return ptr;
      }
    }
    // A free block at the very end can be extended instead of left behind.
    const last = this.free[this.free.length - 1];
    let ptr = this.top;
    if (last && last.ptr + last.size === this.top) {
      ptr = last.ptr;
      this.free.pop();
    }
    const end = ptr + size;
    if (end > this.memory.buffer.byteLength) {
      const pages = Math.ceil((end - this.memory.buffer.byteLength) / PAGE);
      try {
        this.memory.grow(pages);
      } catch {
        throw new EngineError('E_WASM', `heap: out of wasm memory growing by ${pages} pages for a ${size}-byte block`);
      }
    }
    this.top = end;
    this.sizes.set(ptr, size);
    this.liveBytes += size;
    return ptr;
  }

  release(ptr: number): void {
    const size = this.sizes.get(ptr);
    if (size === undefined)
      throw new EngineError('E_LIFETIME', `heap: release of a pointer that is not a live block (${ptr})`);
    this.sizes.delete(ptr);
    this.liveBytes -= size;
    // insert sorted, then coalesce with neighbours
    let i = 0;
    while (i < this.free.length && this.free[i].ptr < ptr) i++;
    this.free.splice(i, 0, { ptr, size });
    if (i + 1 < this.free.length && ptr + size === this.free[i + 1].ptr) {
      this.free[i].size += this.free[i + 1].size;
      this.free.splice(i + 1, 1);
    }
    if (i > 0 && this.free[i - 1].ptr + this.free[i - 1].size === ptr) {
      this.free[i - 1].size += this.free[i].size;
      this.free.splice(i, 1);
    }
  }

  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }
}

/** A scope of the arena: tensors allocated in it die when it closes. */
export class Scope {
  alive = true;
  constructor(readonly mark: { chunk: number; offset: number; used: number }) {}
}

export class Arena {
  private chunks: { ptr: number; size: number }[] = [];
  private chunk = 0; // index of the current chunk
  private offset = 0; // bytes used in the current chunk
  private used = 0; // bytes used in all chunks before the current one, plus offset
  private highWater = 0;
  private readonly scopes: Scope[] = [];

  constructor(
    private readonly heap: Heap,
    private readonly minChunk = 1 << 20,
  ) {}

  alloc(bytes: number): number {
    const size = alignUp(Math.max(bytes, 1), ALIGN);
    while (this.chunk < this.chunks.length) {
      const c = this.chunks[this.chunk];
      if (this.offset + size <= c.size) {
        const ptr = c.ptr + this.offset;
        this.offset += size;
        this.used += size;
        this.highWater = Math.max(this.highWater, this.used);
        return ptr;
      }
      this.used += c.size - this.offset; // the tail of a chunk is skipped, not reused in this step
      this.chunk++;
      this.offset = 0;
    }
    const csize = Math.max(this.minChunk, size, alignUp(this.highWater, ALIGN));
    this.chunks.push({ ptr: this.heap.alloc(csize), size: csize });
    return this.alloc(bytes);
  }

  get scopeDepth(): number {
    return this.scopes.length;
  }

  get current(): Scope | undefined {
    return this.scopes[this.scopes.length - 1];
  }

  open(): Scope {
    const s = new Scope({ chunk: this.chunk, offset: this.offset, used: this.used });
    this.scopes.push(s);
    return s;
  }

  close(s: Scope): void {
    const top = this.scopes.pop();
    if (top !== s) throw new EngineError('E_LIFETIME', 'arena: scopes must close in the order they opened');
    s.alive = false;
    this.chunk = s.mark.chunk;
    this.offset = s.mark.offset;
    this.used = s.mark.used;
    if (this.scopes.length === 0) this.compact();
  }

  // With every scope closed, replace several chunks by one that holds the whole high-water mark,
  // so the next step allocates from a single chunk and memory stops growing.
  private compact(): void {
    if (this.chunks.length > 1) {
      for (const c of this.chunks) this.heap.release(c.ptr);
      const size = alignUp(this.highWater, ALIGN);
      this.chunks = [{ ptr: this.heap.alloc(size), size }];
    }
    this.chunk = 0;
    this.offset = 0;
    this.used = 0;
  }

  get bytesInUse(): number {
    return this.used;
  }

  get chunkCount(): number {
    return this.chunks.length;
  }
}
