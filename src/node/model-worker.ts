// Entry point of the worker thread that runs a JS-module model (spawned by src/node/model-host.ts;
// the two talk over workerData.port), so that a model which never answers (a promise that never settles, a synchronous
// endless loop) can be stopped. It imports the module, checks its exports (asModelModule) and answers each
// `predict` request with moduleBlackBox, exactly as in-process: same rows, same batches, same
// checks, same messages. Before each call of the module's predict it tells the host which rows
// the call covers, so the host's timeout is per call.
import { workerData } from 'node:worker_threads';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import { asModelModule, moduleBlackBox, type Row } from '../models/blackbox.js';
import type { ModelWorkerData, ToHost, ToWorker } from './model-host.js';

const { file, batchSize, port } = workerData as ModelWorkerData;

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];

const post = (m: ToHost, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

function failure(e: unknown): { code: string; message: string; internal: boolean } {
  if (e instanceof EngineError) return { code: e.code, message: e.message, internal: false };
  return { code: 'E_INPUT', message: firstLine(e), internal: true };
}

/** The module's import failure as the one line the in-process loader gave. */
function importFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    return (
      `${file}: Node cannot import TypeScript directly; compile the model to .mjs (or run lucid under a TypeScript ` +
      `loader such as tsx)`
    );
  }
  const kind = e instanceof SyntaxError ? 'SyntaxError: ' : '';
  return `${file}: cannot load the module: ${kind}${firstLine(e)}`;
}

try {
  let ns: unknown;
  try {
    ns = await import(pathToFileURL(resolve(file)).href);
  } catch (e) {
    throw new EngineError('E_INPUT', importFailure(e));
  }
  const mod = asModelModule(ns, file);
  let id = 0; // the request being answered (calls of one request are sequential)
  let start = 0; // its rows so far
  const counted = {
    features: mod.features,
    positive: mod.positive,
    output: mod.output,
    predict: (rows: Row[]) => {
      post({ type: 'call', id, start, end: start + rows.length });
      start += rows.length;
      return mod.predict(rows);
    },
  };
  const box = moduleBlackBox(counted, file, { batchSize });
  // requests are answered one at a time, so `id` and `start` belong to the one in flight
  let queue = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    queue = queue.then(async () => {
      id = m.id;
      start = 0;
      try {
        const p = await box.predict(m.table as Table);
        post({ type: 'result', id: m.id, predictions: p }, [p.buffer as ArrayBuffer]);
      } catch (e) {
        post({ type: 'error', id: m.id, ...failure(e) });
      }
    });
  });
  post({
    type: 'ready',
    features: mod.features ? [...mod.features] : undefined,
    positive: mod.positive,
    ...(mod.output !== undefined ? { output: mod.output } : {}),
  });
} catch (e) {
  post({ type: 'load-error', ...failure(e) });
}
