// GAN seeds side by side (EXPERIMENTS.md §12.8). An audit's LUCID-GANs are independent
// fits of one table with different seeds, so with spare cores they can train at the same time, each
// in a worker with an engine of its own. The engine gives the same bits at any thread count
// (src/engine/threads.ts), so a generator trained in a one-thread worker is byte-identical to the one
// the audit's own engine would have trained: side by side changes the time, never a figure.
//
// Core code (no Node imports): the job and its result are structured-cloneable; `ganWorkerBody` is what a
// worker runs, `GanWorkerPool` the audit's side over any worker API, and a runtime layer gives the way
// to start one worker (Node: src/node/gan-workers.ts, worker_threads; a browser: web/worker.ts, Web
// Workers).
import { EngineError, type ErrorCode } from '../engine/errors.js';
import type { Engine } from '../engine/engine.js';
import { compact, type Column, type Table } from '../data/table.js';
import { LucidGan, type FitOptions, type FitStatus, type GanEpoch } from '../models/lucidgan/model.js';
import { ganSetFromJSON, ganToJSON } from '../models/lucidgan/format.js';
import { probeGan, type GanProbe } from './gan-probe.js';

/**
 * Whether audits train GAN seeds side by side when they have 2 or more threads, by default. Decided
 * by EXPERIMENTS.md §12.8's rule on the bench (`--gan-side-by-side` overrides it).
 */
export const SIDE_BY_SIDE_DEFAULT = true;

/** One LUCID-GAN fit to run in a worker: the training rows and the fit's options (no callbacks, no stopping check). */
export interface GanJob {
  table: Table;
  fit: Omit<FitOptions, 'onEpoch' | 'shouldStop' | 'checkpoint'>;
}

/** What a worker hands back: the trained generator as its file's JSON (ganToJSON), and how training ended. */
export interface GanJobResult {
  json: object;
  status: FitStatus;
  message?: string;
}

/** An error of a worker's fit, as it crosses to the audit's thread (an EngineError keeps its code). */
export interface GanJobFailure {
  code: ErrorCode | null;
  message: string;
}

/**
 * Trains GANs in workers, side by side (given by the runtime layer; the audit calls `train` for
 * several jobs at once and waits for them all).
 */
export interface GanWorkers {
  /** how many jobs run at once (one core each) */
  readonly size: number;
  /**
   * Trains one job in a worker. `onEpoch` hears each epoch; `shouldStop` is asked while it trains,
   * and true ends it after the current step (the result is then 'interrupted', the model kept).
   */
  train(job: GanJob, onEpoch: (e: GanEpoch) => void, shouldStop?: () => boolean): Promise<GanJobResult>;
  /** times the estimate's probe (gan-probe.ts) of `job` in a worker, at a worker's pace */
  probe(job: GanJob): Promise<GanProbe>;
  /** ends the workers (idempotent) */
  close(): void;
}

/**
 * The worker's side: fits `job` on `engine` (a one-thread engine of the worker's own) and returns the generator as
 * JSON.
 */
export async function trainGanJob(
  engine: Engine,
  job: GanJob,
  onEpoch: (e: GanEpoch) => void,
  shouldStop: () => boolean,
): Promise<GanJobResult> {
  const fit = await LucidGan.fit(engine, job.table, { ...job.fit, onEpoch, shouldStop });
  try {
    return {
      json: ganToJSON(fit.model, fit.status),
      status: fit.status,
      ...(fit.message !== undefined ? { message: fit.message } : {}),
    };
  } finally {
    fit.model.dispose();
  }
}

/** What the audit's side sends a worker: a job, or the request to end the current one after its step. */
export type ToGanWorker = { type: 'job'; job: GanJob } | { type: 'probe'; job: GanJob } | { type: 'stop' };
/** What a worker sends back: each epoch, then the result (or the probe's) or the error. */
export type ToGanHost =
  | { type: 'epoch'; epoch: GanEpoch }
  | { type: 'result'; result: GanJobResult }
  | { type: 'probed'; probe: GanProbe }
  | { type: 'error'; failure: GanJobFailure };

/**
 * The body of a GAN worker: `listen` hands it each message; it trains one job at a time on the
 * one-thread engine `engine()` makes (once), posting each epoch and then the result or the error.
 * A 'stop' ends the current job after its step (the fit yields to the event loop, so it gets in).
 */
export function ganWorkerBody(engine: () => Promise<Engine>, post: (m: ToGanHost) => void): (m: ToGanWorker) => void {
  let made: Promise<Engine> | null = null;
  let stop = false;
  return (m) => {
    if (m.type === 'stop') {
      stop = true;
      return;
    }
    stop = false;
    void (async () => {
      try {
        made ??= engine();
        if (m.type === 'probe')
          return post({ type: 'probed', probe: probeGan(await made, m.job.table, m.job.fit as FitOptions) });
        const result = await trainGanJob(
          await made,
          m.job,
          (epoch) => post({ type: 'epoch', epoch }),
          () => stop,
        );
        post({ type: 'result', result });
      } catch (e) {
        post({ type: 'error', failure: jobFailure(e) });
      }
    })();
  };
}

/** One started worker, as the pool sees it (the runtime layer wraps its worker API in this). */
export interface GanWorkerEndpoint {
  post(m: ToGanWorker): void;
  /**
   * sets (or, with null, clears) the handlers of the worker's messages and of its failure (it died or could not start)
   */
  listen(onMessage: ((m: ToGanHost) => void) | null, onFailure: ((e: Error) => void) | null): void;
  /** the worker is training (true) or idle (false): Node keeps the process alive only for a busy one */
  busy(b: boolean): void;
  terminate(): void;
}

/** How often a running job asks the audit's shouldStop (ms). */
export const STOP_POLL_MS = 100;

/** `t` with compact arrays, for sending to a worker */
export const plainTable = (t: Table): Table => ({
  rows: t.rows,
  columns: t.columns.map(
    (c): Column =>
      c.kind === 'numeric'
        ? { ...c, values: compact(c.values) }
        : { ...c, codes: compact(c.codes), categories: c.categories.slice() },
  ),
});

/**
 * The audit's side: up to `size` workers, started (by `spawn`) when a job first needs one and reused
 * for the next. A stop request is passed on by polling the audit's shouldStop. A worker that dies
 * fails its job with one line, never silently, and is not reused.
 */
export class GanWorkerPool implements GanWorkers {
  private readonly idle: GanWorkerEndpoint[] = [];
  private readonly all = new Set<GanWorkerEndpoint>();
  private closed = false;

  constructor(
    readonly size: number,
    private readonly spawn: () => GanWorkerEndpoint,
  ) {}

  train(job: GanJob, onEpoch: (e: GanEpoch) => void, shouldStop?: () => boolean): Promise<GanJobResult> {
    return this.request(
      { type: 'job', job: { ...job, table: plainTable(job.table) } },
      (m) => (m.type === 'result' ? m.result : undefined),
      onEpoch,
      shouldStop,
    );
  }

  probe(job: GanJob): Promise<GanProbe> {
    return this.request({ type: 'probe', job: { ...job, table: plainTable(job.table) } }, (m) =>
      m.type === 'probed' ? m.probe : undefined,
    );
  }

  /**
   * Sends `message` to an idle (or new) worker and settles with the answer `answer` picks out, or the worker's error.
   */
  private request<T>(
    message: ToGanWorker,
    answer: (m: ToGanHost) => T | undefined,
    onEpoch?: (e: GanEpoch) => void,
    shouldStop?: () => boolean,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error('GAN workers: used after close()'));
    let worker: GanWorkerEndpoint;
    try {
      worker = this.idle.pop() ?? this.started();
    } catch (e) {
      return Promise.reject(
        new Error(`a GAN training worker could not start: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    worker.busy(true);
    return new Promise<T>((resolve, reject) => {
      const poll = shouldStop
        ? setInterval(() => {
            if (shouldStop()) {
              worker.post({ type: 'stop' });
              clearInterval(poll);
            }
          }, STOP_POLL_MS)
        : undefined;
      const done = (reuse: boolean) => {
        clearInterval(poll);
        worker.listen(null, null);
        worker.busy(false);
        if (reuse && !this.closed) this.idle.push(worker);
        else {
          this.all.delete(worker);
          worker.terminate();
        }
      };
      worker.listen(
        (m) => {
          if (m.type === 'epoch') return onEpoch?.(m.epoch);
          done(true);
          const got = answer(m);
          if (got !== undefined) resolve(got);
          else
            reject(
              m.type === 'error'
                ? failureError(m.failure)
                : new Error(`a GAN training worker answered "${m.type}" to "${message.type}"`),
            );
        },
        (e) => {
          done(false);
          reject(new Error(`a GAN training worker failed before it finished: ${e.message}`));
        },
      );
      worker.post(message);
    });
  }

  close(): void {
    this.closed = true;
    for (const w of this.all) w.terminate();
    this.all.clear();
    this.idle.length = 0;
  }

  private started(): GanWorkerEndpoint {
    const w = this.spawn();
    this.all.add(w);
    return w;
  }
}

/** A worker's error as it crosses threads. */
export function jobFailure(e: unknown): GanJobFailure {
  return e instanceof EngineError
    ? { code: e.code, message: e.message }
    : { code: null, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

/**
 * The error the audit raises for a worker's failure (an EngineError keeps its code; anything else is a bug, said as
 * one).
 */
export function failureError(f: GanJobFailure): Error {
  return f.code !== null ? new EngineError(f.code, f.message) : new Error(`a GAN training worker failed: ${f.message}`);
}

/** The generator a worker trained, on the audit's engine. */
export function jobModel(engine: Engine, r: GanJobResult, where: string): LucidGan {
  return ganSetFromJSON(engine, r.json, where).members[0].model;
}

/**
 * Which of `seeds` GAN seeds train side by side with `size` workers: whole waves of `size` (at most
 * the seeds), in seed order; the rest (fewer than a wave) train on the audit's engine with all its
 * threads, which is faster for a lone seed than one core. Empty when there is nothing to run side by side.
 */
export function sideBySide(seeds: number, size: number): number[][] {
  const width = Math.min(size, seeds);
  if (width < 2) return [];
  const waves: number[][] = [];
  for (let k = 0; k + width <= seeds; k += width) waves.push(Array.from({ length: width }, (_, j) => k + j));
  return waves;
}

/**
 * GAN workers as module Web Workers (browsers, Deno): the script at `url` must call webGanWorker().
 * Unlike the kernel threads, they need no shared memory, so a page that is not cross-origin isolated
 * can still train its GAN seeds on several cores.
 */
export function webGanWorkers(url: string | URL, size: number): GanWorkerPool {
  return new GanWorkerPool(size, () => {
    const worker = new Worker(url, { type: 'module', name: 'lucid-gan' });
    let onMessage: ((m: ToGanHost) => void) | null = null;
    let onFailure: ((e: Error) => void) | null = null;
    worker.onmessage = (ev: MessageEvent<ToGanHost>) => onMessage?.(ev.data);
    worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      onFailure?.(new Error(ev.message || `could not load ${String(url)}`));
    };
    worker.onmessageerror = () => onFailure?.(new Error('a message could not be deserialized'));
    return {
      post: (m) => worker.postMessage(m),
      listen: (m, f) => {
        onMessage = m;
        onFailure = f;
      },
      busy: () => {},
      terminate: () => worker.terminate(),
    };
  });
}

/** The body of a GAN worker script in a Web Worker: a one-thread engine (the embedded wasm) and ganWorkerBody. */
export function webGanWorker(engine: () => Promise<Engine>): void {
  const scope = globalThis as unknown as {
    onmessage: ((ev: MessageEvent<ToGanWorker>) => void) | null;
    postMessage(m: ToGanHost): void;
  };
  const body = ganWorkerBody(engine, (m) => scope.postMessage(m));
  scope.onmessage = (ev) => body(ev.data);
}
