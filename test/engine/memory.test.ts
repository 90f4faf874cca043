// Memory owners: heap blocks, scratch scopes, views after growth, and tensors outliving scopes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Heap } from '../../src/engine/memory.js';
import { getEngine } from '../helpers/engine.js';

describe('heap', () => {
  it('reuses and coalesces freed blocks', () => {
    const mem = new WebAssembly.Memory({ initial: 1 });
    const h = new Heap(mem, 1024);
    const a = h.alloc(100);
    const b = h.alloc(100);
    const c = h.alloc(100);
    h.release(a);
    h.release(b);
    assert.equal(h.alloc(150), a, 'a and b coalesced into one block that fits 150 bytes');
    h.release(c);
    assert.throws(() => h.release(c), /not a live block/);
  });

  it('grows the memory when it must', () => {
    const mem = new WebAssembly.Memory({ initial: 1 });
    const h = new Heap(mem, 0);
    h.alloc(200_000);
    assert.ok(mem.buffer.byteLength >= 200_000);
  });
});

describe('engine memory', async () => {
  const e = await getEngine();

  it('views made after memory.grow see the data written before it', () => {
    const t = e.tensor([1, 2, 3]);
    const before = e.memoryBytes;
    const big = e.empty([4_000_000]); // forces memory.grow
    assert.ok(e.memoryBytes > before);
    assert.deepEqual([...t.data], [1, 2, 3]);
    big.dispose();
    t.dispose();
  });

  it('a tensor used after its scope ended is an error, not garbage', () => {
    let leaked: ReturnType<typeof e.tensor> | null = null;
    e.scope(() => {
      leaked = e.tensor([1, 2]);
    });
    assert.throws(
      () => leaked!.data,
      (err: Error & { code?: string }) => err.code === 'E_LIFETIME' && /after its scope ended/.test(err.message),
    );
  });

  it('scope tensors cannot be disposed, heap tensors only once', () => {
    e.scope(() => {
      assert.throws(() => e.zeros([2]).dispose(), /die with their scope/);
    });
    const t = e.zeros([2]);
    t.dispose();
    assert.throws(() => t.dispose(), /disposed twice/);
  });

  it('nested scopes release in order', () => {
    e.scope(() => {
      const outer = e.ones([3]);
      e.scope(() => {
        e.zeros([1000]);
      });
      const again = e.full([3], 7);
      assert.deepEqual([...outer.data], [1, 1, 1]);
      assert.deepEqual([...again.data], [7, 7, 7]);
    });
  });

  it('rejects NaN and shape mismatches at the edge', () => {
    assert.throws(() => e.tensor([1, NaN]), /value 1 is NaN/);
    assert.throws(() => e.tensor([1, 2, 3], [2, 2]), /3 values do not fill shape \[2,2\]/);
  });
});
