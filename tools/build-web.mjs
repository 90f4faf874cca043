#!/usr/bin/env node
// Builds the static browser page into dist-web/: esbuild bundles web/main.ts and web/worker.ts (the
// core TS sources and the embedded wasm, src/engine/binaries.gen.ts), web/thread-worker.ts (one
// kernel thread: src/engine/threads.ts only) and web/gan-worker.ts (one LUCID-GAN seed trained side
// by side, with the embedded wasm) as ES modules for browsers, and copies index.html and
// style.css. Run `npm run build` first (it generates binaries.gen.ts).
// The bundle must not pull in any Node built-in: platform 'browser' makes esbuild fail on one.
//
// Module workers and wasm need http:// (not file://): `node tools/build-web.mjs --serve [port]` builds,
// then serves dist-web/ on http://127.0.0.1:port/ (default 8080) until Ctrl-C, cross-origin isolated
// (COOP: same-origin, COEP: require-corp), so the engine runs threaded (SharedArrayBuffer); add
// --no-isolation to serve without those headers (the single-threaded fallback).
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'dist-web');
const web = path.join(root, 'web');

try {
  await stat(path.join(root, 'src/engine/binaries.gen.ts'));
} catch {
  console.error(
    'build-web: src/engine/binaries.gen.ts is missing; run `npm run build` first (it builds and embeds the wasm)',
  );
  process.exit(1);
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const t0 = performance.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'web/main.ts',
    worker: 'web/worker.ts',
    'thread-worker': 'web/thread-worker.ts',
    'gan-worker': 'web/gan-worker.ts',
  },
  outdir: out,
  bundle: true,
  format: 'esm',
  // the Parquet, Arrow and JSON Lines readers (src/data/formats.ts imports them on first use) go into
  // chunks of their own, loaded only when such a file is picked
  splitting: true,
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  minify: process.env.LUCID_WEB_MINIFY === '1',
  metafile: true,
  logLevel: 'warning',
  // nothing is external: a Node built-in anywhere in the graph is a resolve error, never a silent shim
  external: [],
});
const nodeImports = Object.values(result.metafile.inputs).flatMap((i) =>
  i.imports.filter((x) => x.path.startsWith('node:') || (x.external && !x.path.startsWith('.'))),
);
if (nodeImports.length) {
  console.error(
    `build-web: the browser bundle imports Node or external modules: ${nodeImports.map((x) => x.path).join(', ')}`,
  );
  process.exit(1);
}
await copyFile(path.join(web, 'index.html'), path.join(out, 'index.html'));
await copyFile(path.join(web, 'style.css'), path.join(out, 'style.css'));
const ENTRIES = ['main.js', 'worker.js', 'thread-worker.js', 'gan-worker.js'];
const entries = new Set(ENTRIES);
const chunks = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js') && !entries.has(path.basename(f)));
const chunkBytes = (await Promise.all(chunks.map(async (f) => (await stat(path.join(root, f))).size))).reduce(
  (a, b) => a + b,
  0,
);
const sizes = await Promise.all(
  ENTRIES.map(async (f) => `${f} ${((await stat(path.join(out, f))).size / 1024).toFixed(0)} KiB`),
);
sizes.push(
  `${chunks.length} chunks ${(chunkBytes / 1024).toFixed(0)} KiB (shared code, and the Parquet, Arrow and JSON Lines ` +
    `readers loaded on first use)`,
);
console.log(`build-web: wrote dist-web/ (${sizes.join(', ')}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  const port = Number(process.argv[serveAt + 1] ?? 8080) || 8080;
  const isolation = process.argv.includes('--no-isolation')
    ? {}
    : { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
  /** @type {Record<string, string>} */
  const types = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.map': 'application/json',
  };
  http
    .createServer(async (req, res) => {
      const p = path.resolve(out, `.${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
      const file = p === out ? path.join(out, 'index.html') : p;
      if (!file.startsWith(out + path.sep)) return res.writeHead(403).end();
      try {
        const body = await readFile(file);
        res
          .writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', ...isolation })
          .end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
    })
    .listen(port, '127.0.0.1', () =>
      console.log(
        `build-web: serving dist-web/ on http://127.0.0.1:${port}/ (${Object.keys(isolation).length ? 'cross-origin isolated: threads' : 'not cross-origin isolated: one thread'}; Ctrl-C to stop)`,
      ),
    );
}
