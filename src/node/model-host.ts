// Node layer: a JS-module model run in a worker thread (model-worker.js), so that one that never
// answers can be stopped. The worker imports the module and answers predict(table) with the
// in-process adapter (moduleBlackBox), so rows, batches, checks and messages are the same; the
// host only ships the table there and the predictions back, and keeps a watchdog: when the worker
// has been silent for the timeout while a load or a call of the module's predict is under way, it
// is terminated and the pending work fails with one E_INPUT line naming the file. A worker that
// crashes (an uncaught error, process.exit in the model) fails the same way.
//
// The worker is unref'd while idle, so a black box that is never used again does not keep the
// process alive; it is terminated when the black box is garbage-collected.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { EngineError, type ErrorCode } from '../engine/errors.js';
import { compact, type Column, type Table } from '../data/table.js';
import type { BlackBox, ModelOutput } from '../models/blackbox.js';
import type { MessagePort } from 'node:worker_threads';

import { MODEL_TIMEOUT_SECONDS, moduleClasses } from '../models/blackbox.js';
export { MODEL_TIMEOUT_SECONDS };

/** setTimeout's largest delay (about 24.8 days); longer limits mean "no limit" in practice. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface ModelWorkerData {
  file: string;
  batchSize?: number;
  /** the channel of requests and answers (the host can drain it synchronously before declaring a timeout) */
  port: MessagePort;
}

export type ToWorker = { id: number; table: Table };

interface Failure {
  code: string;
  message: string;
  /** not an EngineError: a bug in lucid, not in the model */
  internal: boolean;
}

export type ToHost =
  | { type: 'ready'; features?: string[]; positive?: string; output?: ModelOutput }
  | ({ type: 'load-error' } & Failure)
  | { type: 'call'; id: number; start: number; end: number }
  | { type: 'result'; id: number; predictions: Float64Array }
  | ({ type: 'error'; id: number } & Failure);

export interface ModuleWorkerOptions {
  /** rows per call of the module's predict (default 8192) */
  batchSize?: number;
  /** seconds one call of predict (or the import) may take before the worker is stopped (default 60) */
  timeout?: number;
}

const toError = (f: Failure): Error =>
  f.internal ? new Error(f.message) : new EngineError(f.code as ErrorCode, f.message);

/**
 * What the worker needs of `t`: the columns the module reads (all when it does not say, or when
 * one is missing, so the worker's error lists the table's columns), as compact copies.
 */
const plainTable = (t: Table, features: readonly string[] | undefined): Table => ({
  rows: t.rows,
  columns: (features?.every((f) => t.columns.some((c) => c.name === f))
    ? t.columns.filter((c) => features.includes(c.name))
    : t.columns
  ).map(
    (c): Column =>
      c.kind === 'numeric'
        ? { kind: 'numeric', name: c.name, values: compact(c.values) }
        : { kind: 'categorical', name: c.name, codes: compact(c.codes), categories: c.categories.slice() },
  ),
});

/** Terminates the worker of a black box that was garbage-collected (never while a call is pending: `holding`). */
const workers = new FinalizationRegistry<Worker>((w) => void w.terminate());

/** Loads the JS module `file` in a worker thread and returns it as a black box (kind "module"). */
export function loadModuleInWorker(file: string, opts: ModuleWorkerOptions = {}): Promise<BlackBox> {
  const seconds = opts.timeout ?? MODEL_TIMEOUT_SECONDS;
  if (!(seconds > 0))
    throw new EngineError('E_ARG', `the model timeout must be a positive number of seconds, got ${seconds}`);
  const delay = Math.min(MAX_DELAY_MS, Math.ceil(seconds * 1000));
  const { port1: port, port2 } = new MessageChannel();
  const data: ModelWorkerData = { file, batchSize: opts.batchSize, port: port2 };
  const worker = new Worker(new URL('./model-worker.js', import.meta.url), { workerData: data, transferList: [port2] });

  const pending = new Map<number, { resolve: (p: Float64Array) => void; reject: (e: unknown) => void; rows: number }>();
  let loading: { resolve: (b: BlackBox) => void; reject: (e: unknown) => void } | null = null;
  let dead: Error | null = null;
  let nextId = 1;
  let doing = ''; // the call of predict under way, for the messages
  let timer: ReturnType<typeof setTimeout> | undefined;
  // written, never read: it keeps the black box reachable while a call is pending (see `workers`)
  // biome-ignore lint/correctness/noUnusedVariables: read by no one on purpose, as said above
  let holding: BlackBox | null = null;

  const busy = () => loading !== null || pending.size > 0;
  const during = () => (loading ? 'while loading' : pending.size > 0 ? `during ${doing}` : 'between calls');

  /** (Re)arms the watchdog while something is pending, and keeps the process alive only then. */
  const watch = () => {
    clearTimeout(timer);
    timer = undefined;
    if (dead) return;
    if (!busy()) {
      holding = null;
      worker.unref();
      port.unref();
      return;
    }
    worker.ref();
    port.ref();
    timer = setTimeout(expired, delay);
  };
  const expired = () => {
    timer = undefined;
    // an answer may be waiting behind a busy main thread: take it before calling the model stuck
    let drained = false;
    for (let r = receiveMessageOnPort(port); r; r = receiveMessageOnPort(port)) {
      onMessage(r.message as ToHost);
      drained = true;
    }
    if (drained || dead || !busy()) return;
    const what = !loading
      ? `did not answer within ${seconds} s (${doing})`
      : `did not load within ${seconds} s (its top-level code did not finish)`;
    fail(
      new EngineError(
        'E_INPUT',
        `${file}: the model ${what} and was stopped; it may be stuck in an endless loop or waiting on a promise that ` +
          `never settles; if it is only slow, raise the limit with --model-timeout <seconds>`,
      ),
    );
  };
  /** The worker is gone (or being stopped): everything pending, and every later call, fails with `e`. */
  const fail = (e: Error) => {
    if (dead) return;
    dead = e;
    clearTimeout(timer);
    port.close();
    void worker.terminate();
    loading?.reject(e);
    loading = null;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };

  const onMessage = (m: ToHost) => {
    if (dead) return;
    switch (m.type) {
      case 'ready': {
        const box: BlackBox = {
          kind: 'module',
          source: file,
          features: m.features,
          ...(m.positive !== undefined ? { classes: moduleClasses(m.positive) } : {}),
          ...(m.output !== undefined ? { output: m.output } : {}),
          predict: (table) => {
            if (dead) return Promise.reject(dead);
            const id = nextId++;
            const request: ToWorker = { id, table: plainTable(table, m.features) };
            return new Promise<Float64Array>((resolve, reject) => {
              port.postMessage(request);
              if (pending.size === 0) doing = `predict on ${table.rows} rows`;
              pending.set(id, { resolve, reject, rows: table.rows });
              holding = box;
              watch();
            });
          },
        };
        workers.register(box, worker);
        loading?.resolve(box);
        loading = null;
        watch();
        return;
      }
      case 'load-error':
        fail(toError(m));
        return;
      case 'call': {
        const rows = pending.get(m.id)?.rows ?? m.end;
        doing =
          m.start === 0 && m.end === rows
            ? `predict on ${rows} rows`
            : `predict on rows ${m.start + 1}–${m.end} of ${rows}`;
        watch();
        return;
      }
      case 'result':
      case 'error': {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.type === 'result') p?.resolve(m.predictions);
        else p?.reject(toError(m));
        watch();
        return;
      }
    }
  };
  port.on('message', onMessage);
  worker.on('error', (e) => {
    const msg = (
      e instanceof Error ? `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message}` : String(e)
    ).split('\n')[0];
    fail(new EngineError('E_INPUT', `${file}: the model crashed its worker thread ${during()}: uncaught ${msg}`));
  });
  worker.on('exit', (code) => {
    // 13: the thread's event loop emptied under an unsettled top-level await (the module's)
    if (loading && code === 13)
      fail(
        new EngineError(
          'E_INPUT',
          `${file}: cannot load the module: its top-level code awaits a promise that never settles`,
        ),
      );
    fail(
      new EngineError(
        'E_INPUT',
        `${file}: the model ended its worker thread (exit code ${code}) ${during()}; predict must return its ` +
          `predictions, not exit`,
      ),
    );
  });

  return new Promise<BlackBox>((resolve, reject) => {
    loading = { resolve, reject };
    watch();
  });
}
