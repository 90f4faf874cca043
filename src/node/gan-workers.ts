// Node layer of GAN seeds side by side (src/audit/gan-workers.ts): up to `size` worker_threads, each
// running gan-worker.js with a one-thread engine of its own, started when a job first needs one and
// reused for the next. A worker is ref'd while it trains (the audit waits on it) and unref'd when idle,
// so a pool that is never closed does not keep the process alive. The stop request is passed on by
// polling the audit's shouldStop. A worker that dies fails its job with one line, never silently.
import { Worker } from 'node:worker_threads';
import type { Column, Table } from '../data/table.js';
import { failureError, type GanJob, type GanJobFailure, type GanJobResult, type GanWorkers } from '../audit/gan-workers.js';
import type { GanEpoch } from '../models/lucidgan/config.js';

export type ToGanWorker = { type: 'job'; job: GanJob } | { type: 'stop' };
export type ToGanHost = { type: 'epoch'; epoch: GanEpoch } | { type: 'result'; result: GanJobResult } | { type: 'error'; failure: GanJobFailure };

/** How often a running job asks the audit's shouldStop (ms). */
const STOP_POLL_MS = 100;

/** A typed array that is its buffer's only view; otherwise a compact copy (cloning a view copies its whole buffer). */
const compact = <T extends Float64Array | Int32Array>(a: T): T => (a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : (a.slice() as T));
const plain = (t: Table): Table => ({
  rows: t.rows,
  columns: t.columns.map((c): Column => (c.kind === 'numeric' ? { ...c, values: compact(c.values) } : { ...c, codes: compact(c.codes), categories: c.categories.slice() })),
});

export class NodeGanWorkers implements GanWorkers {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private closed = false;

  constructor(readonly size: number) {}

  train(job: GanJob, onEpoch: (e: GanEpoch) => void, shouldStop?: () => boolean): Promise<GanJobResult> {
    if (this.closed) return Promise.reject(new Error('GAN workers: used after close()'));
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    return new Promise<GanJobResult>((resolve, reject) => {
      const poll = shouldStop ? setInterval(() => {
        if (shouldStop()) {
          worker.postMessage({ type: 'stop' } satisfies ToGanWorker);
          clearInterval(poll);
        }
      }, STOP_POLL_MS) : undefined;
      const done = (release: boolean) => {
        clearInterval(poll);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (release && !this.closed) {
          worker.unref();
          this.idle.push(worker);
        }
      };
      const onMessage = (m: ToGanHost) => {
        if (m.type === 'epoch') onEpoch(m.epoch);
        else if (m.type === 'result') {
          done(true);
          resolve(m.result);
        } else {
          done(true);
          reject(failureError(m.failure));
        }
      };
      const onError = (e: unknown) => {
        done(false);
        this.drop(worker);
        reject(new Error(`a GAN training worker failed: ${e instanceof Error ? e.message : String(e)}`));
      };
      const onExit = (code: number) => {
        done(false);
        this.all.delete(worker);
        reject(new Error(`a GAN training worker exited (code ${code}) before its generator was trained`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ type: 'job', job: { ...job, table: plain(job.table) } } satisfies ToGanWorker);
    });
  }

  close(): void {
    this.closed = true;
    for (const w of this.all) void w.terminate();
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./gan-worker.js', import.meta.url));
    this.all.add(worker);
    return worker;
  }

  private drop(worker: Worker): void {
    this.all.delete(worker);
    void worker.terminate();
  }
}
