// A Cloudflare Worker (runs in workerd) that samples LUCID-GAN canonical sets from a saved model.
//
//   GET /sample?n=100&pred=1&seed=0   → the n generated rows as CSV (text/csv)
//   GET /info                         → the model's columns and conditions as JSON
//
// `pred` is the value of the model's first condition (e.g. the audited model's P(positive),
// "preds"); leave it out to draw the conditions from the training rows. `fix=column:label`
// (repeatable) fixes categories. The same model, seed and query give the same rows, bit for bit,
// as `LucidGan.sample` with the plain SIMD kernels in Node (`LUCID_SIMD=plain`).
//
// workerd does not let code compile WebAssembly from bytes at run time ("Wasm code generation
// disallowed by embedder"), so the kernels come in as a wasm module declared in config.capnp and
// reach the engine through initEngine({ module }). The model file is a text module. Only the core
// (src/ outside src/node and src/cli) is imported: no Node built-ins.
import { initEngine, type Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { ganFromJSON } from '../../src/models/lucidgan/format.js';
import type { LucidGan } from '../../src/models/lucidgan/model.js';
import { tableToCsv } from '../../src/data/csv-write.js';
// Declared as modules of the worker in config.capnp (left external by tools/build-edge.mjs).
import kernels from './kernels.wasm';
import modelText from './model.lgan';

let ready: Promise<{ engine: Engine; model: LucidGan }> | null = null;

function load(): Promise<{ engine: Engine; model: LucidGan }> {
  ready ??= (async () => {
    const engine = await initEngine({ module: kernels });
    const model = ganFromJSON(engine, JSON.parse(modelText), 'model.lgan');
    return { engine, model };
  })();
  return ready;
}

function intParam(url: URL, name: string, dflt: number, max: number): number {
  const s = url.searchParams.get(name);
  if (s === null) return dflt;
  const v = Number(s);
  if (!Number.isSafeInteger(v) || v < 0 || v > max)
    throw new EngineError('E_ARG', `${name} must be an integer in [0, ${max}], got ${JSON.stringify(s)}`);
  return v;
}

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== 'GET') return new Response('only GET\n', { status: 405 });
  const { engine, model } = await load();
  if (url.pathname === '/info') {
    return Response.json({
      columns: model.transformer.columns.map((c) => c.name),
      conditions: model.conditionNames,
      variant: engine.variant,
    });
  }
  if (url.pathname !== '/sample') {
    return new Response('GET /sample?n=100&pred=1&seed=0 (CSV) or /info (JSON)\n', { status: 404 });
  }
  const n = intParam(url, 'n', 100, 100_000);
  const seed = intParam(url, 'seed', 0, 0xffffffff);
  const conditions: Record<string, number> = {};
  const pred = url.searchParams.get('pred');
  if (pred !== null) {
    if (model.conditionNames.length === 0)
      throw new EngineError('E_ARG', 'pred: this model was trained without conditions');
    conditions[model.conditionNames[0]] = Number(pred);
  }
  const fix = url.searchParams.getAll('fix').map((f): [string, string] => {
    const i = f.indexOf(':');
    if (i < 1) throw new EngineError('E_ARG', `fix must be column:label, got ${JSON.stringify(f)}`);
    return [f.slice(0, i), f.slice(i + 1)];
  });
  const t0 = Date.now();
  const { table, fixSatisfied } = model.sample({ n, seed, conditions, fix });
  const headers: Record<string, string> = {
    'content-type': 'text/csv; charset=utf-8',
    'x-lucid-sample-ms': String(Date.now() - t0),
    'x-lucid-variant': engine.variant,
  };
  // with fix: the share of rows that hold every fixed value (a short-trained model may miss some)
  if (fixSatisfied !== undefined) headers['x-lucid-fix-satisfied'] = String(fixSatisfied);
  return new Response(tableToCsv(table), { headers });
}

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (e) {
      if (e instanceof EngineError) return new Response(`${e.code}: ${e.message}\n`, { status: 400 });
      return new Response(`internal error: ${e instanceof Error ? e.message : String(e)}\n`, { status: 500 });
    }
  },
};
