// Module Web Worker: trains LUCID-GAN on the uploaded table (conditioned on the predictions column)
// and samples the positive (pred = 1) and negative (pred = 0) canonical sets. Core modules only.
// Threads: when the page is cross-origin isolated (SharedArrayBuffer available), the engine runs its
// kernels on several threads, each a nested module worker (thread-worker.js) over one shared
// WebAssembly.Memory; otherwise it runs on this worker alone, with the same results (bit for bit).
import { initEngine, type Engine } from '../src/engine/engine.js';
import { EngineError } from '../src/engine/errors.js';
import { webSpawn } from '../src/engine/web-threads.js';
import { engineText, type EngineInfo } from './engine-info.js';
import { LucidGan } from '../src/models/lucidgan/model.js';
import type { Table } from '../src/data/table.js';

export interface TrainRequest {
  type: 'train';
  table: Table;
  pred: string;
  epochs: number;
  seed: number;
  /** rows per canonical set */
  n: number;
  /** kernel threads wanted (the page's ?threads=N); 0 or absent: up to 4, one per core */
  threads?: number;
}

export type WorkerMessage =
  | { type: 'ready'; engine: EngineInfo }
  | { type: 'status'; text: string }
  | { type: 'progress'; epoch: number; epochs: number; lossG: number; lossD: number }
  | { type: 'done'; status: string; message?: string; epochs: number; seconds: number; positive: Table; negative: Table; engine: EngineInfo }
  | { type: 'error'; message: string };

const post = (m: WorkerMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

/** Most threads the page starts on its own (more rarely pays at the page's table sizes). */
const AUTO_THREADS_MAX = 4;
const THREADS_MAX = 16;

let current: { wanted: number; engine: Promise<{ e: Engine; info: EngineInfo }> } | null = null;
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
    const single = async (note: string) => {
      const e = await initEngine({ variant: 'auto' });
      return { e, info: { variant: e.variant, threads: 1, crossOriginIsolated: isolated, note } };
    };
    if (!isolated || typeof SharedArrayBuffer === 'undefined') return single('the page is not cross-origin isolated');
    if (threads < 2) return single(wanted === 1 ? 'the page asked for 1 thread' : 'one core');
    try {
      const e = await initEngine({ variant: 'auto', threads, spawn: webSpawn(new URL('./thread-worker.js', import.meta.url)) });
      return { e, info: { variant: e.variant, threads: e.threads, crossOriginIsolated: isolated, ...(e.threads < 2 ? { note: 'shared memory unavailable' } : {}) } };
    } catch (err) {
      return single(`the thread workers did not start: ${errorText(err)}`);
    }
  };
  current = { wanted, engine: start() };
  return current.engine;
}

async function train(req: TrainRequest): Promise<void> {
  stop = false;
  const { e, info } = await engine(req.threads ?? 0);
  post({ type: 'status', text: `engine ready (${engineText(info)}); preparing the data…` });
  const t0 = performance.now();
  // batch: a multiple of pac (10), at most the default 500 and about the number of rows
  const batch = Math.max(10, Math.min(500, Math.ceil(req.table.rows / 10) * 10));
  const r = await LucidGan.fit(e, req.table, {
    conditions: [req.pred],
    epochs: req.epochs,
    seed: req.seed,
    batch,
    // the published training, as lucid audit's default (the consistency term collapses the sets: EXPERIMENTS.md §2)
    paper: true,
    where: 'data',
    onEpoch: (ep) => post({ type: 'progress', epoch: ep.epoch, epochs: req.epochs, lossG: ep.lossG, lossD: ep.lossD }),
    shouldStop: () => stop,
  });
  const model = r.model;
  try {
    if (r.status === 'diverged') throw new EngineError('E_VALUE', r.message ?? 'training diverged');
    if (model.epochsDone === 0) throw new EngineError('E_ARG', 'training was cancelled before the first epoch ended');
    post({ type: 'status', text: 'sampling the canonical sets…' });
    const positive = model.sample({ n: req.n, conditions: { [req.pred]: 1 }, seed: req.seed }).table;
    const negative = model.sample({ n: req.n, conditions: { [req.pred]: 0 }, seed: req.seed + 1 }).table;
    const seconds = (performance.now() - t0) / 1000;
    post({ type: 'done', status: r.status, message: r.message, epochs: model.epochsDone, seconds, positive, negative, engine: info });
  } finally {
    model.dispose();
  }
}

self.onmessage = (ev: MessageEvent<TrainRequest | { type: 'cancel' } | { type: 'init'; threads?: number }>) => {
  const m = ev.data;
  if (m.type === 'cancel') {
    stop = true;
    return;
  }
  if (m.type === 'init') {
    engine(m.threads ?? 0).then(
      ({ info }) => post({ type: 'ready', engine: info }),
      (err: unknown) => post({ type: 'error', message: errorText(err) }),
    );
    return;
  }
  if (m.type === 'train') {
    train(m).catch((err: unknown) => post({ type: 'error', message: errorText(err) }));
  }
};

function errorText(err: unknown): string {
  if (err instanceof EngineError) return err.message;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
