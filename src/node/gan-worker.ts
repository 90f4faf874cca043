// Entry point of one GAN training worker (spawned by src/node/gan-workers.ts): the runtime-neutral body
// (src/audit/gan-workers.ts) on a one-thread engine of its own.
import { parentPort } from 'node:worker_threads';
import { ganWorkerBody, type ToGanHost } from '../audit/gan-workers.js';
import { initNodeEngine } from './engine.js';

const port = parentPort!;
port.on(
  'message',
  ganWorkerBody(
    () => initNodeEngine({ threads: 1 }),
    (m: ToGanHost) => port.postMessage(m),
  ),
);
