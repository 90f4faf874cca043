// The core in a non-Node runtime: Cloudflare's workerd (npm package `workerd`) serves
// examples/edge-worker, bundled by tools/build-edge.mjs, with a LUCID-GAN model trained and saved
// here. The canonical sets it samples must be the very CSV text Node produces from the same model
// file and seed with the same (plain SIMD128) kernels. Skipped only when the workerd binary is
// missing or does not run on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { initEngine, type Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { LucidGan } from '../../src/models/lucidgan/model.js';
import { loadGan, saveGan } from '../../src/node/gan-file.js';
import { tableToCsv } from '../../src/data/csv-write.js';
import { IN_CI } from '../helpers/browser.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const N = 100;

/** The workerd binary from the npm package, or why there is none. */
function findWorkerd(): { bin: string; version: string } | { missing: string } {
  let bin: string;
  try {
    const mod = createRequire(join(root, 'package.json'))('workerd') as { default?: string } | string;
    bin = typeof mod === 'string' ? mod : String(mod.default);
  } catch (e) {
    return { missing: `the workerd npm package is not installed (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!existsSync(bin)) return { missing: `the workerd binary ${bin} does not exist` };
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) return { missing: `${bin} --version failed: ${r.error?.message ?? r.stderr.trim()}` };
  return { bin, version: r.stdout.trim() };
}

const found = findWorkerd();
const skip = 'missing' in found ? `workerd unavailable: ${found.missing}` : false;
// CI installs the devDependency: there a missing workerd is a failure, not a skip
if (skip && IN_CI) throw new Error(`${skip} (CI=true: the edge test must run in CI)`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

describe("workerd: the core samples canonical sets in Cloudflare's runtime", { skip }, () => {
  let dir: string;
  let engine: Engine;
  let server: ChildProcess | null = null;
  let log = '';
  let base: string;
  let columns: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-edge-'));
    // Node side with the plain SIMD kernels, the build the worker gets (no relaxed-SIMD FMA).
    engine = await initEngine({ variant: 'simd' });
    const t0 = performance.now();
    const sim = simulate(new Rng(engine, 1), { n: 300, bias: 'proxy' });
    const table: Table = {
      rows: sim.table.rows,
      columns: [...sim.table.columns, { kind: 'numeric', name: 'preds', values: sim.truth.probability }],
    };
    columns = table.columns.map((c) => c.name);
    const fit = await LucidGan.fit(engine, table, {
      embedding: 16,
      generatorDims: [32, 32],
      discriminatorDims: [32, 32],
      batch: 50,
      pac: 10,
      conditions: ['preds'],
      epochs: 2,
      seed: 7,
    });
    const modelFile = join(dir, 'trained.lgan');
    await saveGan(modelFile, fit.model, fit.status);
    fit.model.dispose();
    const t1 = performance.now();
    const { buildEdge } = (await import(pathToFileURL(join(root, 'tools', 'build-edge.mjs')).href)) as {
      buildEdge(o: { outDir: string; model: string }): Promise<{ config: string; bytes: number }>;
    };
    const bundle = await buildEdge({ outDir: dir, model: modelFile });
    const t2 = performance.now();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { bin } = found as { bin: string };
    server = spawn(bin, ['serve', bundle.config, '--socket-addr', `http=127.0.0.1:${port}`], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    let exited: string | null = null;
    server.on('exit', (code, sig) => (exited = `workerd exited (${code ?? sig}): ${log.trim()}`));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (exited) assert.fail(exited);
      try {
        const r = await fetch(`${base}/info`, { signal: AbortSignal.timeout(2000) });
        if (r.ok) break;
        assert.fail(`GET /info: ${r.status} ${await r.text()} ${log}`);
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        if (Date.now() > deadline) assert.fail(`workerd did not answer within 20 s: ${log.trim()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const t3 = performance.now();
    console.log(
      `${found && 'version' in found ? found.version : ''}: train+save ${(t1 - t0).toFixed(0)} ms, bundle ` +
        `${(bundle.bytes / 1024).toFixed(0)} KiB in ${(t2 - t1).toFixed(0)} ms, serve+first answer ` +
        `${(t3 - t2).toFixed(0)} ms`,
    );
  });

  after(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      const t = setTimeout(() => server!.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(t);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reports the model and that the kernels came in as a precompiled module', async () => {
    const info = (await (await fetch(`${base}/info`)).json()) as {
      columns: string[];
      conditions: string[];
      variant: string;
    };
    assert.deepEqual(info.conditions, ['preds']);
    assert.deepEqual(
      info.columns,
      columns.filter((c) => c !== 'preds'),
    );
    assert.equal(info.variant, 'custom');
  });

  for (const pred of [1, 0]) {
    it(`GET /sample?n=${N}&pred=${pred}&seed=0 gives the rows Node gives, bit for bit`, async () => {
      const t0 = performance.now();
      const r = await fetch(`${base}/sample?n=${N}&pred=${pred}&seed=0`);
      const text = await r.text();
      const ms = performance.now() - t0;
      assert.equal(r.status, 200, text);
      assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
      const lines = text.trimEnd().split('\n');
      assert.equal(lines.length, N + 1, 'header + n rows');
      assert.deepEqual(lines[0].split(','), columns);
      for (const line of lines.slice(1)) {
        const cells = line.split(',');
        assert.equal(cells.length, columns.length, line);
        assert.equal(Number(cells[columns.indexOf('preds')]), pred);
      }
      const model = await loadGan(engine, join(dir, 'model.lgan'));
      try {
        // the library's CSV text (test/data/csv.test.ts checks it is writeCsv's bytes)
        const expected = tableToCsv(model.sample({ n: N, seed: 0, conditions: { preds: pred } }).table);
        assert.equal(text, expected);
      } finally {
        model.dispose();
      }
      console.log(
        `pred=${pred}: ${N} rows in ${ms.toFixed(0)} ms over HTTP (worker: ${r.headers.get('x-lucid-sample-ms')} ms ` +
          `sampling)`,
      );
    });
  }

  it('different seeds give different rows; bad queries are 400 with the error', async () => {
    const a = await (await fetch(`${base}/sample?n=20&pred=1&seed=0`)).text();
    const b = await (await fetch(`${base}/sample?n=20&pred=1&seed=1`)).text();
    assert.notEqual(a, b);
    const bad = await fetch(`${base}/sample?n=abc`);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /^E_ARG: n must be an integer/);
    const fix = await fetch(`${base}/sample?n=5&fix=nope:x`);
    assert.equal(fix.status, 400);
  });
});

describe('initEngine({ module }): a precompiled kernel module (how workerd gets the kernels)', () => {
  it('runs the same kernels as the embedded plain SIMD build', async () => {
    const { SIMD_WASM_BASE64 } = await import('../../src/engine/binaries.gen.js');
    const module = await WebAssembly.compile(Uint8Array.from(atob(SIMD_WASM_BASE64), (c) => c.charCodeAt(0)));
    const a = await initEngine({ module });
    const b = await initEngine({ variant: 'simd' });
    assert.equal(a.variant, 'custom');
    assert.deepEqual(new Rng(a, 5).uniformHost(64), new Rng(b, 5).uniformHost(64));
  });
});
