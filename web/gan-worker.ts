// Module Web Worker of one LUCID-GAN seed trained side by side (started by web/worker.ts through
// webGanWorkers): a one-thread engine of its own (the embedded wasm; no shared memory needed).
import { initEngine } from '../src/engine/engine.js';
import { webGanWorker } from '../src/audit/gan-workers.js';

webGanWorker(() => initEngine({ variant: 'auto' }));
