// Module Web Worker: runs the audit on the uploaded table (runAnyAudit, the same code as `lucid audit`:
// with a predictions column (--pred) the metrics, several LUCID-GANs, canonical sets drawn by rejection
// with a surrogate of the predictions, checked against the real rows, and the intersections; with a
// model file (a JS module exporting predict, or a built-in model.json, loaded here from its text) also
// FALE, and LUCID for model.json; for a score, a class among k or a real value, the group metrics of its kind and
// the canonical sets of two targets of the output) and renders the whole report. Also makes the page's sample data.
// Core modules only; nothing is fetched or sent anywhere.
// Threads: when the page is cross-origin isolated (SharedArrayBuffer available), the engine runs its
// kernels on several threads, each a nested module worker (thread-worker.js) over one shared
// WebAssembly.Memory; otherwise it runs on this worker alone, with the same results (bit for bit).
// GAN seeds side by side (SIDE_BY_SIDE_DEFAULT, or the page's ?gan-side-by-side=on|off): each in a nested module worker
// (gan-worker.js) with a one-thread engine of its own, one per core; they need no shared memory, so
// a page that is not cross-origin isolated still trains on several cores, with the same generators.
import { initEngine, type Engine } from '../src/engine/engine.js';
import { EngineError } from '../src/engine/errors.js';
import { Rng } from '../src/engine/rng.js';
import { webSpawn } from '../src/engine/web-threads.js';
import { engineText, type EngineInfo } from './engine-info.js';
import { runAnyAudit } from '../src/audit/run.js';
import { estimateAudit, type AuditEstimate } from '../src/audit/estimate.js';
import { SIDE_BY_SIDE_DEFAULT, webGanWorkers, type GanWorkers } from '../src/audit/gan-workers.js';
import type { StageEta } from '../src/audit/options.js';
import type { AnyAuditResult, AuditProvenance } from '../src/audit/types.js';
import type { OutputKind } from '../src/methods/metrics/outputs.js';
import type { BandScale } from '../src/methods/metrics/targets.js';
import { simulate } from '../src/data/simulator.js';
import type { Table } from '../src/data/table.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { asModelModule, builtinBlackBox, moduleBlackBox, type BlackBox } from '../src/models/blackbox.js';
import { adapterForFile } from '../src/models/adapters.js';
import { auditFiles, type AuditFile } from '../src/report/audit-files.js';
import { REPORT_FILE } from '../src/report/files.js';
import { zipStored } from '../src/data/zip.js';
import { safeFileName } from '../src/report/format.js';

export interface AuditRequest {
  type: 'audit';
  table: Table;
  /** where the data came from (the file name) */
  source: string;
  /** the predictions column; null when `model` scores the rows */
  pred: string | null;
  /**
   * the audited model, loaded in this worker (it never leaves the page): a JS module exporting
   * predict(rows) (and optionally features), the same contract as `lucid audit --model m.mjs`, or
   * a model.json of the built-in classifier (`lucid model train`), which LUCID can also invert
   */
  model?: { name: string; text: string };
  /** rows per intersectional canonical set and GAN seed (0: none) */
  intersectionRows: number;
  /** FALE bootstrap replicates (0: no bands) */
  faleBootstrap: number;
  label: string;
  /**
   * the label value that is the positive class (lucid audit --positive); null: the default, the second of two values
   */
  positive: string | null;
  /**
   * which outcome people want: positive|negative (whether the positive prediction is favourable) for a binary
   * decision, higher|lower for a score or a real value; null for a multiclass output (its class order says it)
   */
  favourable: 'positive' | 'negative' | 'higher' | 'lower' | null;
  /** the output's kind as chosen (lucid audit --output); absent: inferred from the columns or the model */
  output?: OutputKind;
  /** multiclass: the classes, most favourable first (--class-order) */
  classOrder?: string[];
  /** regression: the band in the output's units (--tolerance-units) */
  toleranceUnits?: number;
  /** score and regression: the bands of the canonical sets, lo-hi (--band, at most two) */
  bands?: string[];
  /** how the bands' numbers are read (--band-scale) */
  bandScale?: BandScale;
  /** multiclass: the classes of the canonical sets (--class, at most two) */
  targetClasses?: string[];
  /** lucid audit --allow-inverted-scores */
  allowInvertedScores: boolean;
  protected: string[];
  /** GAN epochs; null: the audit's default for the table's size */
  epochs: number | null;
  ganSeeds: number;
  seed: number;
  /** rows per canonical set and GAN seed */
  n: number;
  /** kernel threads wanted (the page's ?threads=N); 0 or absent: up to 4, one per core */
  threads?: number;
  /** groups and cells with fewer people show no figure (lucid audit --suppress-below); null: none */
  suppressBelow: number | null;
  /**
   * a score above this is the model's positive decision (lucid audit --threshold); null: not given (a score's cut is
   * then its default; multiclass and regression outputs take none)
   */
  threshold: number | null;
  /** the data and model files' SHA-256 (hashed by the page from their bytes) and the page's options */
  provenance: AuditProvenance;
}

/** The estimate of an audit before it runs (audit/estimate.ts), for the options the page shows. */
export interface EstimateRequest {
  type: 'estimate';
  /** the page's number of the request (the answer carries it; -1 is the run's own estimate) */
  id: number;
  table: Table;
  label: string;
  pred: string | null;
  ganSeeds: number;
  epochs: number | null;
  threads?: number;
}

/** The page's sample data: simulated loan decisions with a planted bias, and a model's predictions. */
export interface SampleRequest {
  type: 'sample';
  seed: number;
  rows: number;
}

/** What the sample data is (the page shows it). */
export const SAMPLE = {
  file: 'sample-loans.csv',
  label: 'approved',
  pred: 'preds',
  protected: ['sex', 'group'],
  rows: 1000,
  about:
    "simulated loan decisions: the decision rule penalises group = B (direct bias); preds is a logistic model's " +
    'P(approved) trained on another simulated draw',
};

export type WorkerMessage =
  | { type: 'ready'; engine: EngineInfo }
  | { type: 'status'; text: string }
  /** around every call of a JS-module model (its import, each predict): the page stops a model that does not return */
  | { type: 'model-call'; state: 'start' | 'end'; what: string }
  | { type: 'progress'; stage: string; fraction: number; eta?: StageEta }
  /**
   * the estimate of the options' audit (id of the request), or of the running audit (id -1); null when it could not be
   * made
   */
  | { type: 'estimate'; id: number; estimate: AuditEstimate | null }
  | { type: 'sample'; table: Table; file: string; label: string; pred: string; protected: string[]; about: string }
  | {
      type: 'done';
      seconds: number;
      engine: EngineInfo;
      /** a binary audit (AuditResult) or one of a score, classes or a real value (OutputAuditResult) */
      result: AnyAuditResult;
      /** the whole report (HTML), as `lucid audit` writes it: the page shows it */
      reportHtml: string;
      /** the files `lucid audit --out` writes (auditFiles), report.html among them: the page offers each */
      files: AuditFile[];
      /** the same files as a zip archive, in a folder `folder` */
      zip: Uint8Array;
      folder: string;
    }
  | { type: 'error'; message: string };

const post = (m: WorkerMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

/** Most threads the page starts on its own (more rarely pays at the page's table sizes). */
const AUTO_THREADS_MAX = 4;
const THREADS_MAX = 16;

let current: { wanted: number; engine: Promise<{ e: Engine; info: EngineInfo }> } | null = null;
/** GAN seeds side by side (the page's ?gan-side-by-side=on|off; default SIDE_BY_SIDE_DEFAULT) */
let sideBySideWanted = SIDE_BY_SIDE_DEFAULT;
let stop = false;

/** Starts (or reuses) the engine for `wanted` threads (0: auto). Falls back to one thread when threads cannot run. */
function engine(wanted = 0): Promise<{ e: Engine; info: EngineInfo }> {
  if (current && current.wanted === wanted) return current.engine;
  const previous = current;
  const start = async () => {
    if (previous) (await previous.engine.catch(() => null))?.e.close();
    const isolated = (self as unknown as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    const cores = Math.max(1, navigator.hardwareConcurrency || 1);
    const threads = wanted > 0 ? Math.min(wanted, THREADS_MAX) : Math.min(cores, AUTO_THREADS_MAX);
    // GAN seeds side by side (audit/gan-workers.ts): a worker per core, shared memory or not; none when the page asked
    // for 1 thread
    const ganWorkers = (engineThreads: number) =>
      sideBySideWanted && wanted !== 1 ? Math.max(engineThreads, Math.min(threads, cores)) : 1;
    const single = async (note: string) => {
      const e = await initEngine({ variant: 'auto' });
      return {
        e,
        info: { variant: e.variant, threads: 1, crossOriginIsolated: isolated, note, ganWorkers: ganWorkers(1) },
      };
    };
    if (!isolated || typeof SharedArrayBuffer === 'undefined') return single('the page is not cross-origin isolated');
    if (threads < 2) return single(wanted === 1 ? 'the page asked for 1 thread' : 'one core');
    try {
      const e = await initEngine({
        variant: 'auto',
        threads,
        spawn: webSpawn(new URL('./thread-worker.js', import.meta.url)),
      });
      return {
        e,
        info: {
          variant: e.variant,
          threads: e.threads,
          crossOriginIsolated: isolated,
          ...(e.threads < 2 ? { note: 'shared memory unavailable' } : {}),
          ganWorkers: ganWorkers(e.threads),
        },
      };
    } catch (err) {
      return single(`the thread workers did not start: ${errorText(err)}`);
    }
  };
  current = { wanted, engine: start() };
  return current.engine;
}

/** The model file as a black box: model.json (the built-in classifier) or a JS module, imported from a Blob URL. */
async function loadModel(
  e: Engine,
  m: { name: string; text: string },
): Promise<{ box: BlackBox; dispose: () => void }> {
  if (adapterForFile(m.name)?.kind === 'builtin') {
    let obj: unknown;
    try {
      obj = JSON.parse(m.text);
    } catch (err) {
      throw new EngineError(
        'E_INPUT',
        `${m.name}: not a JSON file (${errorText(err)}); a model file is what "lucid model train" writes`,
      );
    }
    const clf = Classifier.fromJSON(e, obj, m.name, { unverified: (msg) => post({ type: 'status', text: msg }) });
    return { box: builtinBlackBox(e, clf, m.name), dispose: () => clf.dispose() };
  }
  const url = URL.createObjectURL(new Blob([m.text], { type: 'text/javascript' }));
  let ns: unknown;
  try {
    ns = await watched('loading it', () => import(/* @vite-ignore */ url));
  } catch (err) {
    throw new EngineError('E_INPUT', `${m.name}: cannot load the JS module: ${errorText(err)}`);
  } finally {
    URL.revokeObjectURL(url);
  }
  const mod = asModelModule(ns, m.name);
  return {
    box: moduleBlackBox({ ...mod, predict: (rows) => watched('one call of predict', () => mod.predict(rows)) }, m.name),
    dispose: () => {},
  };
}

/**
 * Runs a call into the user's module between 'model-call' messages. A module stuck in an endless
 * loop blocks this worker, so it cannot time itself out: the page times the call and terminates the
 * worker (what --model-timeout does for lucid audit).
 */
async function watched<T>(what: string, f: () => T | Promise<T>): Promise<T> {
  post({ type: 'model-call', state: 'start', what });
  try {
    return await f();
  } finally {
    post({ type: 'model-call', state: 'end', what });
  }
}

async function audit(req: AuditRequest): Promise<void> {
  stop = false;
  const { e, info } = await engine(req.threads ?? 0);
  post({ type: 'status', text: `engine ready (${engineText(info)}); preparing the data…` });
  const model = req.model ? await loadModel(e, req.model) : null;
  try {
    await auditWith(e, info, req, model?.box);
  } finally {
    model?.dispose();
  }
}

async function auditWith(e: Engine, info: EngineInfo, req: AuditRequest, model: BlackBox | undefined): Promise<void> {
  const t0 = performance.now();
  const ganWorkers = pageGanWorkers(info);
  try {
    await auditOn(e, info, req, model, t0, ganWorkers);
  } finally {
    ganWorkers?.close();
  }
}

async function auditOn(
  e: Engine,
  info: EngineInfo,
  req: AuditRequest,
  model: BlackBox | undefined,
  t0: number,
  ganWorkers: GanWorkers | undefined,
): Promise<void> {
  const result = await runAnyAudit(e, req.table, {
    ...(ganWorkers ? { ganWorkers } : {}),
    label: req.label,
    ...(req.positive !== null ? { positive: req.positive } : {}),
    ...(req.favourable !== null ? { favourable: req.favourable } : {}),
    // what the output is and its targets, as lucid audit's --output, --class-order, --tolerance-units, --band,
    // --band-scale and --class give them (the audit's plan checks them against the kind: src/audit/output-plan.ts)
    ...(req.output !== undefined ? { output: req.output } : {}),
    ...(req.classOrder !== undefined ? { classOrder: req.classOrder } : {}),
    ...(req.toleranceUnits !== undefined ? { toleranceUnits: req.toleranceUnits } : {}),
    ...(req.bands !== undefined ? { bands: req.bands } : {}),
    ...(req.bandScale !== undefined ? { bandScale: req.bandScale } : {}),
    ...(req.targetClasses !== undefined ? { targetClasses: req.targetClasses } : {}),
    allowInvertedScores: req.allowInvertedScores,
    protected: req.protected,
    ...(model ? { model } : { pred: req.pred ?? undefined }),
    source: req.source,
    seed: req.seed,
    n: req.n,
    ganSeeds: req.ganSeeds,
    ...(req.epochs !== null ? { ganEpochs: req.epochs } : {}),
    intersectionRows: req.intersectionRows,
    faleBootstrap: req.faleBootstrap,
    ...(req.suppressBelow !== null ? { suppressBelow: req.suppressBelow } : {}),
    ...(req.threshold !== null ? { threshold: req.threshold } : {}),
    provenance: req.provenance,
    onProgress: (stage, fraction, eta) => post({ type: 'progress', stage, fraction, ...(eta ? { eta } : {}) }),
    onEstimate: (estimate) => post({ type: 'estimate', id: -1, estimate }),
    shouldStop: () => stop,
  });
  const seconds = (performance.now() - t0) / 1000;
  // the audit folder, as the CLI writes it: each file, and all of them in one zip (made here, off the page's thread)
  const files = [...auditFiles(result)];
  const folder = `${safeFileName(req.source.replace(/\.[^.]*$/, '') || 'data')}-audit`;
  const zip = zipStored(
    files.map((f) => ({ name: `${folder}/${f.name}`, data: f.text })),
    new Date(result.meta.created),
  );
  post(
    {
      type: 'done',
      seconds,
      engine: info,
      result,
      reportHtml: files.find((f) => f.name === REPORT_FILE)!.text,
      files,
      zip,
      folder,
    },
    [zip.buffer],
  );
}

async function estimate(req: EstimateRequest): Promise<void> {
  const { e, info } = await engine(req.threads ?? 0);
  // timed where the run will train: with GAN workers, in one of them
  const ganWorkers = pageGanWorkers(info);
  try {
    // an estimate that cannot be made (options the audit will refuse, say) is not shown: Run says what is wrong
    const got = await estimateAudit(e, req.table, {
      label: req.label,
      pred: req.pred ?? undefined,
      ganSeeds: req.ganSeeds,
      ...(req.epochs !== null ? { ganEpochs: req.epochs } : {}),
      ...(ganWorkers ? { ganWorkers } : {}),
    }).catch(() => null);
    post({ type: 'estimate', id: req.id, estimate: got });
  } finally {
    ganWorkers?.close();
  }
}

/** The page's GAN workers (one per core it trains on), or none. */
const pageGanWorkers = (info: EngineInfo): GanWorkers | undefined =>
  info.ganWorkers >= 2 ? webGanWorkers(new URL('./gan-worker.js', import.meta.url), info.ganWorkers) : undefined;

async function sample(req: SampleRequest): Promise<void> {
  const { e } = await engine(0);
  const data = simulate(new Rng(e, req.seed + 1), { n: req.rows, bias: 'direct' });
  const train = simulate(new Rng(e, req.seed), { n: req.rows, bias: 'direct' });
  const model = Classifier.train(e, train.table, {
    label: data.label,
    positive: data.favourable,
    hidden: [],
    epochs: 40,
    valFraction: 0,
    seed: req.seed,
  }).model;
  try {
    const p = model.predictProba(e, data.table);
    const table: Table = {
      rows: data.table.rows,
      columns: [
        ...data.table.columns,
        { kind: 'numeric', name: SAMPLE.pred, values: Float64Array.from(p, (v) => Math.round(v * 1000) / 1000) },
      ],
    };
    post({
      type: 'sample',
      table,
      file: SAMPLE.file,
      label: SAMPLE.label,
      pred: SAMPLE.pred,
      protected: SAMPLE.protected,
      about: SAMPLE.about,
    });
  } finally {
    model.dispose();
  }
}

self.onmessage = (
  ev: MessageEvent<
    | AuditRequest
    | EstimateRequest
    | SampleRequest
    | { type: 'cancel' }
    | { type: 'init'; threads?: number; sideBySide?: boolean }
  >,
) => {
  const m = ev.data;
  if (m.type === 'cancel') {
    stop = true;
    return;
  }
  if (m.type === 'init') {
    sideBySideWanted = m.sideBySide ?? SIDE_BY_SIDE_DEFAULT;
    engine(m.threads ?? 0).then(
      ({ info }) => post({ type: 'ready', engine: info }),
      (err: unknown) => post({ type: 'error', message: errorText(err) }),
    );
    return;
  }
  const run =
    m.type === 'audit' ? audit(m) : m.type === 'sample' ? sample(m) : m.type === 'estimate' ? estimate(m) : null;
  run?.catch((err: unknown) => post({ type: 'error', message: errorText(err) }));
};

function errorText(err: unknown): string {
  if (err instanceof EngineError) return err.message;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
