// Node layer of GAN seeds side by side (src/audit/gan-workers.ts): each worker is a worker_threads
// Worker running gan-worker.js. A worker is ref'd while it trains (the audit waits on it) and unref'd
// when idle, so a pool that is never closed does not keep the process alive.
import { Worker } from 'node:worker_threads';
import type { Engine } from '../engine/engine.js';
import {
  GanWorkerPool,
  SIDE_BY_SIDE_DEFAULT,
  type GanWorkerEndpoint,
  type GanWorkers,
  type ToGanHost,
  type ToGanWorker,
} from '../audit/gan-workers.js';

function spawnNodeGanWorker(): GanWorkerEndpoint {
  const worker = new Worker(new URL('./gan-worker.js', import.meta.url));
  worker.unref();
  let onMessage: ((m: ToGanHost) => void) | null = null;
  let onFailure: ((e: Error) => void) | null = null;
  worker.on('message', (m: ToGanHost) => onMessage?.(m));
  worker.on('error', (e: unknown) => onFailure?.(e instanceof Error ? e : new Error(String(e))));
  worker.on('exit', (code) => onFailure?.(new Error(`the worker exited (code ${code})`)));
  return {
    post: (m: ToGanWorker) => worker.postMessage(m),
    listen: (m, f) => {
      onMessage = m;
      onFailure = f;
    },
    busy: (b) => (b ? worker.ref() : worker.unref()),
    terminate: () => void worker.terminate(),
  };
}

/** Up to `size` GAN workers of this process. */
export class NodeGanWorkers extends GanWorkerPool {
  constructor(size: number) {
    super(size, spawnNodeGanWorker);
  }
}

/**
 * Runs `run` with GAN workers when side by side is on (`on`, default SIDE_BY_SIDE_DEFAULT) and the
 * engine has 2 or more threads (one worker per thread), closing them however it ends.
 */
export async function withGanWorkers<T>(
  engine: Engine,
  on: boolean | undefined,
  run: (w: GanWorkers | undefined) => Promise<T>,
): Promise<T> {
  const workers = (on ?? SIDE_BY_SIDE_DEFAULT) && engine.threads >= 2 ? new NodeGanWorkers(engine.threads) : undefined;
  try {
    return await run(workers);
  } finally {
    workers?.close();
  }
}
