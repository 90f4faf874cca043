// Entry point of one GAN training worker (spawned by src/node/gan-workers.ts): a one-thread engine of
// its own, then jobs one at a time (trainGanJob), each epoch and the result posted back; a 'stop'
// message ends the current job after its step (the fit yields between steps, so the message gets in).
import { parentPort } from 'node:worker_threads';
import type { Engine } from '../engine/engine.js';
import { jobFailure, trainGanJob } from '../audit/gan-workers.js';
import { initNodeEngine } from './engine.js';
import type { ToGanHost, ToGanWorker } from './gan-workers.js';

const port = parentPort!;
const post = (m: ToGanHost) => port.postMessage(m);
let engine: Engine | null = null;
let stop = false;

port.on('message', (m: ToGanWorker) => {
  if (m.type === 'stop') {
    stop = true;
    return;
  }
  stop = false;
  void (async () => {
    try {
      engine ??= await initNodeEngine({ threads: 1 });
      const result = await trainGanJob(engine, m.job, (epoch) => post({ type: 'epoch', epoch }), () => stop);
      post({ type: 'result', result });
    } catch (e) {
      post({ type: 'error', failure: jobFailure(e) });
    }
  })();
});
