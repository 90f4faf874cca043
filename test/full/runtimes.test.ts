// Deno and Bun: the library as a user gets it. `npm pack` the package, install the
// tarball into a fresh project, and run one runtime-neutral probe (test/fixtures/runtimes/probe.mjs:
// the simulator, group metrics, the data transformer, a tiny LucidGan fit and sampling, each stage
// as a SHA-256 over exact float bits) in Node, Deno and Bun (devDependencies), on 1 and 2 kernel
// threads, and in workerd and Chromium (the same probe, bundled from the installed package). Every
// digest must equal Node's single-threaded one, stage by stage (the host's log and exp are
// src/engine/fdlibm.ts, not the engine's Math.log and Math.exp, which differ). A slow suite (packing, installing and
// the runtimes take 16–60 s): it runs in `npm run test:full`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fullSkip } from '../helpers/full.js';
import { browserSkip, IN_CI, launch, ROOT, serve } from '../helpers/browser.js';

const PROBE = join(ROOT, 'test', 'fixtures', 'runtimes', 'probe.mjs');
const BIN = join(ROOT, 'node_modules', '.bin');

interface ProbeOut {
  runtime: string;
  digest: string;
  stages: Record<string, string>;
  threads: number;
  ms: number;
}

/**
 * The npm that runs this suite (npm_execpath, under `npm run test:full`), not the first `npm` on the
 * PATH: `npm run` puts node_modules/.bin first, and a dependency of as-pect brings npm 6 there, which
 * has no --pack-destination.
 */
function npm(args: string[], cwd: string) {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli)
    ? spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' })
    : spawnSync('npm', args, { cwd, encoding: 'utf8' });
}

/** How each runtime runs the probe from the project directory (npm dependencies resolve from its node_modules). */
const RUNTIMES: Record<string, { cmd: string; args: string[] }> = {
  node: { cmd: process.execPath, args: ['probe.mjs'] },
  deno: { cmd: join(BIN, 'deno'), args: ['run', '--allow-read', '--allow-env', 'probe.mjs'] },
  bun: { cmd: join(BIN, 'bun'), args: ['probe.mjs'] },
};

function runtimeSkip(name: string): string | false {
  const r = RUNTIMES[name];
  if (name === 'node') return false;
  const v = existsSync(r.cmd) ? spawnSync(r.cmd, ['--version'], { encoding: 'utf8', timeout: 30_000 }) : null;
  if (v && v.status === 0) return false;
  const msg =
    `${name} unavailable (${r.cmd}: ${v ? (v.error?.message ?? v.stderr.trim()) : 'missing'}; it is a ` +
    `devDependency)`;
  if (IN_CI) throw new Error(`${msg} (CI=true: the runtime tests must run in CI)`);
  return msg;
}

/** The stages whose digests differ from the reference's, for the message. */
function stageDiff(a: ProbeOut, b: ProbeOut): string {
  const diff = Object.keys(a.stages).filter((k) => a.stages[k] !== b.stages[k]);
  return diff.length ? `stages that differ: ${diff.join(', ')}` : 'no stage differs';
}

const skip = fullSkip();

describe('the packed library in Node, Deno, Bun, workerd and Chromium gives byte-identical results', {
  skip,
  timeout: 900_000,
}, () => {
  let dir: string;
  let project: string;
  const results: Record<string, ProbeOut> = {};

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-runtimes-'));
    project = join(dir, 'project');
    mkdirSync(project);
    const t0 = performance.now();
    // the build is already there (npm test / test:full run after it): no prepare script
    const pack = npm(['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], ROOT);
    assert.equal(pack.status, 0, pack.stderr);
    const tarball = join(dir, (JSON.parse(pack.stdout) as { filename: string }[])[0].filename);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'lucid-runtimes-probe', private: true, type: 'module' }),
    );
    const inst = npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
    assert.equal(inst.status, 0, `npm install ${tarball}:\n${inst.stdout}${inst.stderr}`);
    copyFileSync(PROBE, join(project, 'probe.mjs'));
    console.log(`packed and installed ${tarball} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function probe(name: string, threads: number): ProbeOut {
    const r = RUNTIMES[name];
    const args = threads > 1 ? [...r.args, '--threads', String(threads)] : r.args;
    const t0 = performance.now();
    // LUCID_SIMD=plain: the threaded engine through lucid-wasm/node takes the plain SIMD build too
    const p = spawnSync(r.cmd, args, {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, LUCID_SIMD: 'plain', NO_COLOR: '1' },
    });
    assert.equal(p.status, 0, `${name} ${args.join(' ')}: ${p.error?.message ?? ''}\n${p.stdout}\n${p.stderr}`);
    const out = JSON.parse(p.stdout.trim().split('\n').pop()!) as ProbeOut;
    console.log(
      `${out.runtime}, ${threads} thread(s): ${out.digest} (probe ${out.ms} ms, process ` +
        `${(performance.now() - t0).toFixed(0)} ms)`,
    );
    return out;
  }

  for (const name of Object.keys(RUNTIMES)) {
    for (const threads of [1, 2]) {
      const what =
        threads > 1
          ? `${name}, ${threads} threads: the digest of ${name} on 1 thread`
          : name === 'node'
            ? 'node, 1 thread: the reference digest'
            : `${name}, 1 thread: every stage as in Node`;
      it(what, { skip: runtimeSkip(name) }, () => {
        const out = probe(name, threads);
        results[`${name}/${threads}`] = out;
        assert.equal(out.threads, threads, `${name} ran the engine on ${out.threads} thread(s), asked for ${threads}`);
        if (threads > 1) {
          const one = results[`${name}/1`];
          assert.ok(one, `${name} on 1 thread ran first`);
          assert.deepEqual(out.stages, one.stages, `${out.runtime}: 2 threads vs 1: ${stageDiff(out, one)}`);
          return;
        }
        checkAgainstReferences(out);
      });
    }
  }

  /** Every stage of every runtime against Node's single-threaded run, bit for bit. */
  function checkAgainstReferences(out: ProbeOut): void {
    const node = results['node/1'];
    assert.ok(node, 'the Node reference ran first');
    assert.deepEqual(out.stages, node.stages, `${out.runtime} vs ${node.runtime}: ${stageDiff(out, node)}`);
    assert.equal(out.digest, node.digest);
  }

  /** The probe bundled from the installed package (esbuild), for the runtimes without npm resolution. */
  async function bundle(entry: string, outfile: string, platform: 'browser' | 'neutral'): Promise<void> {
    const esbuild = (await import('esbuild')) as typeof import('esbuild');
    await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'esm',
      platform,
      target: 'es2022',
      absWorkingDir: project,
      nodePaths: [join(project, 'node_modules')],
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      external: ['lucid-wasm/node', './kernels.wasm'],
      logLevel: 'warning',
    });
  }

  const workerdBin = ((): string | null => {
    try {
      const mod = createRequire(join(ROOT, 'package.json'))('workerd') as { default?: string } | string;
      const bin = typeof mod === 'string' ? mod : String(mod.default);
      return existsSync(bin) && spawnSync(bin, ['--version'], { timeout: 10_000 }).status === 0 ? bin : null;
    } catch {
      return null;
    }
  })();

  it('workerd: the probe (kernels as a precompiled module) gives the same digest', {
    skip: workerdBin ? false : IN_CI ? false : 'workerd unavailable',
  }, async () => {
    assert.ok(workerdBin, 'workerd must run in CI');
    const w = join(dir, 'workerd');
    mkdirSync(w);
    writeFileSync(
      join(project, 'edge-entry.mjs'),
      `import { runProbe } from './probe.mjs';\nimport kernels from './kernels.wasm';\nexport default { async ` +
        `fetch() { return Response.json({ runtime: 'workerd', ...(await runProbe({ init: { module: kernels } })) ` +
        `}); } };\n`,
    );
    await bundle(join(project, 'edge-entry.mjs'), join(w, 'worker.js'), 'neutral');
    // the plain SIMD kernels as the installed package embeds them
    const gen = readFileSync(
      join(project, 'node_modules', 'lucid-wasm', 'dist', 'src', 'engine', 'binaries.gen.js'),
      'utf8',
    );
    const m = /SIMD_WASM_BASE64 = "([A-Za-z0-9+/=]+)"/.exec(gen);
    assert.ok(m, 'SIMD_WASM_BASE64 in the installed package');
    writeFileSync(join(w, 'kernels.wasm'), new Uint8Array(Buffer.from(m[1], 'base64')));
    writeFileSync(
      join(w, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = ( services = [ (name = "probe", worker = .w) ], sockets = [ (name = "http", address = ` +
        `"127.0.0.1:0", http = (), service = "probe") ] );
const w :Workerd.Worker = ( modules = [ (name = "worker.js", esModule = embed "worker.js"), (name = "kernels.wasm", ` +
        `wasm = embed "kernels.wasm") ], compatibilityDate = "2025-01-01" );
`,
    );
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        const p = typeof a === 'object' && a ? a.port : 0;
        s.close(() => resolve(p));
      });
    });
    let log = '';
    const server: ChildProcess = spawn(
      workerdBin!,
      ['serve', join(w, 'config.capnp'), '--socket-addr', `http=127.0.0.1:${port}`],
      { cwd: w, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    try {
      let out: ProbeOut | null = null;
      const deadline = Date.now() + 60_000;
      while (!out) {
        try {
          const r = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
          const text = await r.text();
          assert.equal(r.status, 200, `${text}\n${log}`);
          out = JSON.parse(text) as ProbeOut;
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          if (Date.now() > deadline || server.exitCode !== null) assert.fail(`workerd did not answer: ${log}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      console.log(`workerd: ${out.digest} (probe ${out.ms} ms)`);
      checkAgainstReferences(out);
    } finally {
      server.kill('SIGTERM');
    }
  });

  const chromium = browserSkip();
  it('Chromium: the probe, bundled for the browser, gives the same digest on the page', {
    skip: chromium ?? false,
  }, async () => {
    const web = join(dir, 'web');
    mkdirSync(web);
    await bundle(join(project, 'probe.mjs'), join(web, 'probe.js'), 'browser');
    writeFileSync(join(web, 'index.html'), '<!doctype html><meta charset="utf-8"><title>probe</title>');
    const server = await serve(web);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}index.html`);
      const out = (await page.evaluate(async () => {
        const m = (await import('/probe.js' as string)) as { runProbe(): Promise<object> };
        return {
          runtime: `chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? ''}`,
          ...(await m.runProbe()),
        };
      })) as ProbeOut;
      console.log(`${out.runtime}: ${out.digest} (probe ${out.ms} ms)`);
      checkAgainstReferences(out);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
