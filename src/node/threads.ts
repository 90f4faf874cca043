// Node layer of the kernel threads: one worker_threads Worker per extra thread, running
// thread-worker.js (the runtime-neutral loop in src/engine/threads.ts). Workers are unref'd, so an
// engine that is never closed does not keep the process alive.
import { Worker } from 'node:worker_threads';
import type { SpawnThread } from '../engine/threads.js';

export const spawnNodeThread: SpawnThread = (init, onError) => {
  const worker = new Worker(new URL('./thread-worker.js', import.meta.url), { workerData: init });
  worker.on('error', onError);
  worker.on('exit', (code) => {
    if (code !== 0) onError(new Error(`worker thread exited with code ${code}`));
  });
  worker.unref();
  return { terminate: () => void worker.terminate() };
};
