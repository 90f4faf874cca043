// Module Web Worker: trains LUCID-GAN on the uploaded table (conditioned on the predictions column)
// and samples the positive (pred = 1) and negative (pred = 0) canonical sets. Core modules only.
import { initEngine, type Engine } from '../src/engine/engine.js';
import { EngineError } from '../src/engine/errors.js';
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
}

export type WorkerMessage =
  | { type: 'ready'; variant: string }
  | { type: 'status'; text: string }
  | { type: 'progress'; epoch: number; epochs: number; lossG: number; lossD: number }
  | { type: 'done'; status: string; message?: string; epochs: number; seconds: number; positive: Table; negative: Table; variant: string }
  | { type: 'error'; message: string };

const post = (m: WorkerMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

let enginePromise: Promise<Engine> | null = null;
let stop = false;

function engine(): Promise<Engine> {
  enginePromise ??= initEngine({ variant: 'auto' });
  return enginePromise;
}

async function train(req: TrainRequest): Promise<void> {
  stop = false;
  const e = await engine();
  post({ type: 'status', text: `engine ready (${e.variant === 'relaxed' ? 'relaxed SIMD' : 'SIMD128'}); preparing the data…` });
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
    post({ type: 'done', status: r.status, message: r.message, epochs: model.epochsDone, seconds, positive, negative, variant: e.variant });
  } finally {
    model.dispose();
  }
}

self.onmessage = (ev: MessageEvent<TrainRequest | { type: 'cancel' } | { type: 'init' }>) => {
  const m = ev.data;
  if (m.type === 'cancel') {
    stop = true;
    return;
  }
  if (m.type === 'init') {
    engine().then(
      (e) => post({ type: 'ready', variant: e.variant }),
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
