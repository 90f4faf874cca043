// Node layer: a model reference from the command line (`--model F`, `--pred COL`) to a BlackBox.
// Which extension is which kind is the registry's (src/models/adapters.ts); how each file kind is
// loaded is LOADERS below:
//
//   model.json            the built-in classifier (loadModel)
//   *.mjs, *.js, *.cjs    a JS module exporting predict(rows), run in a worker thread (model-host.ts) so a hang is
//     stopped
//   *.ts, *.mts, *.cts    the same, when Node runs under a TypeScript loader (e.g. tsx)
//   *.onnx                onnxruntime-node, else onnxruntime-web (optional packages, imported only here) + the sidecar
//     F.json
//   --pred COL            a column of the data holding P(positive) per row
//
// Every failure is one E_INPUT line naming the file (E_ARG for a wrong combination of options).
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Engine } from '../engine/engine.js';
import { EngineError, inputError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import { builtinBlackBox, columnBlackBox, type BlackBox } from '../models/blackbox.js';
import { modelOrPred } from '../methods/metrics/decision.js';
import { onnxBlackBox, onnxOutputWidth, onnxWidthDecides, parseOnnxSidecar, type OrtLike } from '../models/onnx.js';
import {
  adapterForExtension,
  expectedModelFiles,
  modelAdapter,
  modelFilePhrase,
  type ModelFileKind,
} from '../models/adapters.js';
import { loadModel } from './model-file.js';
import { loadModuleInWorker, MODEL_TIMEOUT_SECONDS } from './model-host.js';

export { MODEL_TIMEOUT_SECONDS };

export type { ModelFileKind };

/** The optional package that runs ONNX models. */
export const ONNX_RUNTIME_PACKAGE = 'onnxruntime-node';
export const ONNX_RUNTIME_WEB_PACKAGE = 'onnxruntime-web';

export interface LoadBlackBoxOptions {
  /** the sidecar of an .onnx model (default: the model's path + ".json", e.g. model.onnx.json) */
  sidecar?: string;
  /** imports onnxruntime (default: `import('onnxruntime-node')`); an injection point for tests and other runtimes */
  importOnnxRuntime?: () => Promise<unknown>;
  /** rows per call of a module's predict (default 8192) */
  batchSize?: number;
  /**
   * seconds a JS module may take to load and to answer one call of its predict (default
   * MODEL_TIMEOUT_SECONDS, 60); the module runs in a worker thread, stopped when it overruns
   */
  modelTimeout?: number;
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/** What kind of model a file is, by its extension. */
export function modelFileKind(file: string): ModelFileKind {
  const ext = extname(file).toLowerCase();
  const adapter = adapterForExtension(ext);
  if (adapter) return adapter.kind;
  throw inputError(`${file}: unknown kind of model (extension "${ext || 'none'}"); expected ${expectedModelFiles()}`);
}

async function requireFile(file: string, what = 'file'): Promise<void> {
  try {
    const st = await stat(file);
    if (st.isDirectory()) throw inputError(`${file}: is a directory, not a ${what}`);
  } catch (e) {
    if (e instanceof EngineError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw inputError(
      code === 'ENOENT' ? `${file}: ${what} not found` : `${file}: cannot read the ${what} (${code ?? firstLine(e)})`,
    );
  }
}

type Loader = (engine: Engine, file: string, opts: LoadBlackBoxOptions) => Promise<BlackBox>;

/**
 * How each kind of model file becomes a black box, once the file is known to exist. Keyed by the
 * registry's file kinds, so a kind added to MODEL_ADAPTERS without a loader does not compile.
 */
export const LOADERS: { readonly [K in ModelFileKind]: Loader } = {
  builtin: loadBuiltinBlackBox,
  module: (_engine, file, opts) => loadModuleBlackBox(file, opts),
  onnx: (_engine, file, opts) => loadOnnxBlackBox(file, opts),
};

/** Loads `file` as a black box: a built-in model.json, a JS module, or an .onnx model with its sidecar. */
export async function loadBlackBox(engine: Engine, file: string, opts: LoadBlackBoxOptions = {}): Promise<BlackBox> {
  const kind = modelFileKind(file);
  await requireFile(file, modelAdapter(kind).label);
  return LOADERS[kind](engine, file, opts);
}

async function loadBuiltinBlackBox(engine: Engine, file: string): Promise<BlackBox> {
  const model = await loadModel(engine, file).catch((e: unknown) => {
    // a sidecar is a .json too: say what it is rather than why it is not a model
    if (e instanceof EngineError && e.message.includes('"lucid-onnx-input"')) {
      throw inputError(`${file}: is the sidecar of an ONNX model; give the .onnx file as the model`);
    }
    throw e;
  });
  return builtinBlackBox(engine, model, file);
}

/**
 * The black box the options name: exactly one of `model` (a file) and `pred` (a column of `data`).
 * For `pred`, the predictions are checked now, so a bad value is reported before any work.
 */
export async function resolveBlackBox(
  engine: Engine,
  opts: { model?: string; pred?: string },
  data: Table,
  load: LoadBlackBoxOptions = {},
): Promise<BlackBox> {
  const which = modelOrPred(opts, {
    none: `no model: give --model FILE (${modelFilePhrase()}) or --pred COLUMN`,
    both: 'give either --model (a model to call) or --pred (a column of predictions), not both',
  });
  return which === 'pred'
    ? columnBlackBox(data, opts.pred as string)
    : loadBlackBox(engine, opts.model as string, load);
}

/**
 * A JS module in a worker thread: the same rows, batches, checks and messages as moduleBlackBox
 * in-process (the worker runs it), plus a timeout, so a model that never answers is an error.
 */
async function loadModuleBlackBox(file: string, opts: LoadBlackBoxOptions): Promise<BlackBox> {
  return loadModuleInWorker(file, { batchSize: opts.batchSize, timeout: opts.modelTimeout });
}

/** True when `e` says that the package `name` itself (not something it needs) could not be found. */
function isMissingPackage(e: unknown, name: string): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && new RegExp(`['"]${name}['"]`).test(firstLine(e))
  );
}

/** onnxruntime's API from its module namespace (ESM or CommonJS interop), or null. */
function ortFrom(ns: unknown): OrtLike | null {
  for (const o of [ns, (ns as { default?: unknown } | null)?.default]) {
    const r = o as Partial<OrtLike> | null | undefined;
    if (r && typeof r.Tensor === 'function' && typeof r.InferenceSession?.create === 'function') return r as OrtLike;
  }
  return null;
}

/**
 * Imports onnxruntime: onnxruntime-node (native, fastest) when installed, else onnxruntime-web
 * (WebAssembly; an optional dependency that `npm ci` installs, since it needs no download of its
 * own), else says how to install one. An injected importer replaces both (tests, other runtimes).
 */
export async function importOnnxRuntime(model: string, importer?: () => Promise<unknown>): Promise<OrtLike> {
  const candidates: [string, () => Promise<unknown>][] = importer
    ? [[ONNX_RUNTIME_PACKAGE, importer]]
    : // variable specifiers: both are optional
      [ONNX_RUNTIME_PACKAGE, ONNX_RUNTIME_WEB_PACKAGE].map((pkg) => [pkg, () => import(pkg)]);
  for (const [pkg, load] of candidates) {
    let ns: unknown;
    try {
      ns = await load();
    } catch (e) {
      if (isMissingPackage(e, pkg)) continue;
      throw inputError(`${model}: the package ${pkg} is installed but failed to load: ${firstLine(e)}`);
    }
    const ort = ortFrom(ns);
    if (!ort)
      throw inputError(
        `${model}: the package ${pkg} loaded but does not provide InferenceSession and Tensor; reinstall it`,
      );
    if (pkg === ONNX_RUNTIME_WEB_PACKAGE) {
      // one thread: no worker files to locate, and results do not depend on the machine
      const env = (ort as unknown as { env?: { wasm?: { numThreads?: number } } }).env;
      if (env?.wasm) env.wasm.numThreads = 1;
    }
    return ort;
  }
  throw inputError(
    `${model}: ONNX models run on the optional package ${ONNX_RUNTIME_PACKAGE} (or ${ONNX_RUNTIME_WEB_PACKAGE}), and ` +
      `neither is installed; install one with "npm install ${ONNX_RUNTIME_WEB_PACKAGE}" or "npm install ` +
      `${ONNX_RUNTIME_PACKAGE}" (ONNXRUNTIME_NODE_INSTALL=skip avoids its optional CUDA download)`,
  );
}

/** Reads and validates an ONNX model's sidecar. */
export async function readOnnxSidecar(file: string): Promise<ReturnType<typeof parseOnnxSidecar>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw inputError(
        `${file}: sidecar not found; an ONNX model needs a JSON file next to it that maps the data's columns to the ` +
          `model's input (see "Models to audit" in docs/models.md)`,
      );
    throw inputError(`${file}: cannot read the sidecar (${code ?? firstLine(e)})`);
  }
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw inputError(`${file}: the sidecar is not valid JSON (${firstLine(e)})`);
  }
  return parseOnnxSidecar(obj, file);
}

async function loadOnnxBlackBox(file: string, opts: LoadBlackBoxOptions): Promise<BlackBox> {
  // the sidecar first: a missing mapping is reported even where onnxruntime is not installed
  const sidecar = await readOnnxSidecar(opts.sidecar ?? `${file}.json`);
  const ort = await importOnnxRuntime(file, opts.importOnnxRuntime);
  let session: Awaited<ReturnType<typeof ort.InferenceSession.create>>;
  try {
    session = await ort.InferenceSession.create(new Uint8Array(await readFile(file)));
  } catch (e) {
    throw inputError(`${file}: onnxruntime cannot load the model: ${firstLine(e)}`);
  }
  // the kind may hang on the output's width (K > 1 columns: multiclass), which only a run tells
  const width = onnxWidthDecides(sidecar) ? await onnxOutputWidth(ort, session, sidecar) : undefined;
  return onnxBlackBox(ort, session, sidecar, file, { width });
}
