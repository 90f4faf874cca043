// Bundles the edge-worker example (examples/edge-worker) for Cloudflare workerd into dist-edge/:
//   worker.js     the worker and the core it imports, one ES module (esbuild; no Node built-ins:
//                 the build fails if any import reaches one)
//   kernels.wasm  the plain SIMD128 kernels, the same bytes the engine embeds as SIMD_WASM_BASE64
//                 (workerd has no relaxed-SIMD guarantee, and it cannot compile wasm from bytes at
//                 run time, so the module is declared in the config instead)
//   config.capnp  the workerd configuration
//   model.lgan    the model to serve, when --model <file> is given
//
//   node tools/build-edge.mjs [--out dist-edge] [--model path/to/model.lgan]
// As a module: `await buildEdge({ outDir, model })` returns the paths and the bundle size.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const example = join(root, 'examples', 'edge-worker');

/** The plain SIMD build as embedded in the engine (src/engine/binaries.gen.ts, from build/release.wasm). */
function simdWasm() {
  const gen = readFileSync(join(root, 'src', 'engine', 'binaries.gen.ts'), 'utf8');
  const m = /SIMD_WASM_BASE64 = "([A-Za-z0-9+/=]+)"/.exec(gen);
  if (!m) throw new Error('build-edge: SIMD_WASM_BASE64 not found in src/engine/binaries.gen.ts (run npm run build)');
  return new Uint8Array(Buffer.from(m[1], 'base64'));
}

/** @param {{ outDir?: string, model?: string }} [opts] where to write, and the model.lgan to put next to the worker */
export async function buildEdge({ outDir = join(root, 'dist-edge'), model } = {}) {
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  const worker = join(outDir, 'worker.js');
  await build({
    entryPoints: [join(example, 'worker.ts')],
    outfile: worker,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['./kernels.wasm', './model.lgan'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  const wasm = join(outDir, 'kernels.wasm');
  writeFileSync(wasm, simdWasm());
  const config = join(outDir, 'config.capnp');
  copyFileSync(join(example, 'config.capnp'), config);
  let modelOut = null;
  if (model) {
    modelOut = join(outDir, 'model.lgan');
    if (resolve(model) !== modelOut) copyFileSync(model, modelOut);
  }
  return {
    outDir,
    worker,
    wasm,
    config,
    model: modelOut,
    bytes: readFileSync(worker).length,
    ms: performance.now() - t0,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  /** @param {string} name */
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = opt('--out');
  const r = await buildEdge({ outDir: out ? resolve(out) : undefined, model: opt('--model') });
  console.log(
    `wrote ${r.worker} (${(r.bytes / 1024).toFixed(0)} KiB), ${r.wasm}, ` +
      `${r.config}${r.model ? `, ${r.model}` : ' (no --model: put a model.lgan next to them)'} in ` +
      `${r.ms.toFixed(0)} ms`,
  );
}
