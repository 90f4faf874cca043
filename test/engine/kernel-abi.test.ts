// The host's mirrors of the kernel ABI (src/engine/wasm.ts: the Kernels interface, BinOp, UnOp;
// src/engine/threads.ts: KERNEL_NAMES) are written by hand beside assembly/. This test holds them
// to the compiled module: every declared kernel is exported with the declared arity, every opcode
// has the module's value, every host-callable kernel is declared and called, every SIMD kernel has
// its scalar twin, and the four builds export the same ABI.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  RELAXED_MT_WASM_BASE64,
  RELAXED_WASM_BASE64,
  SIMD_MT_WASM_BASE64,
  SIMD_WASM_BASE64,
} from '../../src/engine/binaries.gen.js';
import { BinOp, loadKernels, UnOp } from '../../src/engine/wasm.js';
import { KERNEL_NAMES } from '../../src/engine/threads.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The functions the Kernels interface declares, with their parameter counts. */
function declared(): Map<string, number> {
  const text = readFileSync(join(root, 'src/engine/wasm.ts'), 'utf8');
  const start = text.indexOf('export interface Kernels {');
  assert.ok(start >= 0, 'src/engine/wasm.ts: no `export interface Kernels {`');
  const body = text.slice(start, text.indexOf('\n}\n', start));
  const out = new Map<string, number>();
  // a parameter list laid over several lines ends in a comma
  for (const m of body.matchAll(/^\s+(\w+)\(([^)]*)\)\s*:/gm))
    out.set(m[1], m[2].split(',').filter((p) => p.trim() !== '').length);
  return out;
}

const KINDS = ['function', 'table', 'memory', 'global'] as const;

/**
 * The export section of a wasm binary, read without compiling it (Node 20 compiles the relaxed-SIMD
 * builds only behind a flag): `{kind, name}` per export, in the module's order.
 */
function exportsOf(b64: string): { kind: string; name: string }[] {
  const b = Buffer.from(b64, 'base64');
  let at = 8; // magic and version
  const leb = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const c = b[at++];
      v += (c & 0x7f) * 2 ** shift;
      shift += 7;
      if (c < 0x80) return v;
    }
  };
  while (at < b.length) {
    const id = b[at++];
    const size = leb();
    const end = at + size;
    if (id === 7) {
      const out: { kind: string; name: string }[] = [];
      for (let n = leb(); n > 0; n--) {
        const len = leb();
        const name = b.subarray(at, at + len).toString('utf8');
        at += len;
        out.push({ kind: KINDS[b[at++]] ?? 'tag', name });
        leb(); // index
      }
      return out;
    }
    at = end;
  }
  return [];
}

/** Exports that are not kernels a host calls: only the as-pect specs and the SIMD kernels' internals use them. */
const SPEC_ONLY = new Set(['philox_block', 'rng_bits']);
/**
 * SIMD kernels without a `ref_` twin of their own, and why: f32_gemm_work_bytes is a size, not a
 * kernel; the `_ld` forms and f32_vgm_estep_blocks are the column-block/sample-block forms of a
 * kernel whose twin compares with them (f32_bn_*, f32_vgm_estep).
 */
const NO_TWIN = new Set([
  'f32_gemm_work_bytes',
  'f32_bn_stats_ld',
  'f32_bn_fwd_ld',
  'f32_bn_bwd_ld',
  'f32_vgm_estep_blocks',
]);

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

function srcFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? srcFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the kernel ABI', () => {
  const fns = new Set(
    exportsOf(SIMD_WASM_BASE64)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name),
  );

  it('the export reader agrees with the runtime on the plain SIMD build', () => {
    const viaRuntime = WebAssembly.Module.exports(
      new WebAssembly.Module(new Uint8Array(Buffer.from(SIMD_WASM_BASE64, 'base64'))),
    );
    assert.deepEqual(
      exportsOf(SIMD_WASM_BASE64),
      viaRuntime.map((e) => ({ kind: e.kind, name: e.name })),
    );
  });

  it('the four builds (SIMD, relaxed SIMD, and their shared-memory forms) export the same names', () => {
    const names = (b64: string) =>
      exportsOf(b64)
        .filter((e) => e.kind !== 'memory')
        .map((e) => `${e.kind} ${e.name}`)
        .sort();
    const base = names(SIMD_WASM_BASE64);
    for (const [what, b64] of [
      ['relaxed', RELAXED_WASM_BASE64],
      ['simd-mt', SIMD_MT_WASM_BASE64],
      ['relaxed-mt', RELAXED_MT_WASM_BASE64],
    ] as const)
      assert.deepEqual(names(b64), base, what);
  });

  it('every kernel the Kernels interface declares is exported, with the declared number of arguments', async () => {
    const { kernels } = await loadKernels({ variant: 'simd' });
    const k = kernels as unknown as Record<string, unknown>;
    const decl = declared();
    assert.ok(decl.size > 30, `parsed only ${decl.size} declarations`);
    for (const [name, arity] of decl) {
      assert.equal(typeof k[name], 'function', `Kernels declares ${name}, which the module does not export`);
      assert.equal(
        (k[name] as (...a: unknown[]) => unknown).length,
        arity,
        `${name}: declared with ${arity} arguments, exported with ${(k[name] as () => void).length}`,
      );
    }
  });

  it(
    'every exported kernel the host may call is declared, and every declared kernel but the scalar twins is called ' +
      'from src/',
    () => {
      const decl = declared();
      const undeclared = [...fns].filter((n) => !n.startsWith('ref_') && !SPEC_ONLY.has(n) && !decl.has(n));
      assert.deepEqual(
        undeclared,
        [],
        'exported, not in the Kernels interface (declare them in src/engine/wasm.ts, or list them as spec-only here)',
      );
      const code = srcFiles(join(root, 'src'))
        .filter((f) => !f.endsWith('engine/wasm.ts') && !f.endsWith('binaries.gen.ts'))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      const unused = [...decl.keys()].filter(
        (n) => n !== 'memory' && !n.startsWith('ref_') && !new RegExp(`\\b${n}\\b`).test(code),
      );
      assert.deepEqual(
        unused,
        [],
        'declared kernels nothing in src/ calls (wire them in or delete them from assembly/, wasm.ts and threads.ts)',
      );
    },
  );

  it('every SIMD kernel has its scalar twin ref_<op>, and every twin a kernel', () => {
    const simd = [...fns].filter((n) => n.startsWith('f32_'));
    const missing = simd.filter((n) => !NO_TWIN.has(n) && !fns.has(`ref_${n.slice(4)}`));
    assert.deepEqual(missing, [], 'SIMD kernels without a ref_ twin');
    const orphans = [...fns].filter(
      (n) =>
        n.startsWith('ref_') && !fns.has(`f32_${n.slice(4)}`) && !fns.has(`rng_${n.slice(4)}`) && !fns.has(n.slice(4)),
    );
    assert.deepEqual(orphans, [], 'ref_ twins of no kernel');
    for (const n of NO_TWIN) assert.ok(fns.has(n), `NO_TWIN lists ${n}, which is not exported`);
  });

  it("BinOp and UnOp hold the module's opcodes, one for one", async () => {
    const { kernels } = await loadKernels({ variant: 'simd' });
    const k = kernels as unknown as Record<string, WebAssembly.Global>;
    const globals = exportsOf(SIMD_WASM_BASE64)
      .filter((e) => e.kind === 'global')
      .map((e) => e.name);
    for (const [mirror, en] of [
      [BinOp, 'BinaryOp'],
      [UnOp, 'UnaryOp'],
    ] as const) {
      const inModule = globals.filter((g) => g.startsWith(`${en}.`)).sort();
      assert.deepEqual(
        Object.keys(mirror)
          .map((key) => `${en}.${capital(key)}`)
          .sort(),
        inModule,
        `${en}: the host mirror's names`,
      );
      for (const [key, v] of Object.entries(mirror))
        assert.equal(v, k[`${en}.${capital(key)}`].value, `${en}.${capital(key)}`);
    }
    assert.equal(Object.keys(UnOp).length, k.UNARY_OP_COUNT.value, 'UNARY_OP_COUNT');
  });

  it('every kernel the thread pool can run is exported and declared, once', () => {
    const decl = declared();
    assert.equal(new Set(KERNEL_NAMES).size, KERNEL_NAMES.length, 'KERNEL_NAMES repeats a name');
    for (const n of KERNEL_NAMES) {
      assert.ok(fns.has(n), `KERNEL_NAMES: ${n} is not exported`);
      assert.ok(decl.has(n), `KERNEL_NAMES: ${n} is not declared in Kernels`);
    }
  });
});
