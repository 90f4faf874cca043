// Entry point of one kernel worker thread (spawned by src/node/threads.ts).
import { workerData } from 'node:worker_threads';
import { threadWorkerLoop, type ThreadInit } from '../engine/threads.js';

await threadWorkerLoop(workerData as ThreadInit);
