// Web Worker layer of the kernel threads (browsers, Deno, any runtime with module Web Workers): one
// module Worker per extra thread, running a script that calls webThreadWorker(). Runtime-neutral:
// only the Web `Worker` API and postMessage, no DOM. The ThreadInit (a WebAssembly.Module, a shared
// WebAssembly.Memory and a SharedArrayBuffer) is structured-cloned to the worker, which needs a
// cross-origin-isolated context in a browser (COOP: same-origin and COEP: require-corp); check
// `crossOriginIsolated` / sharedMemorySupported() first, or let initEngine fall back to one thread.
//
// The thread that owns the pool blocks in Atomics.wait between parts, which a browser allows in a
// worker but not on a page's main thread (there the pool spins): start threaded engines in a worker.
import { threadWorkerLoop, type SpawnThread, type ThreadInit } from './threads.js';

/** What a thread worker posts back when it could not start (the loop itself never returns a result). */
interface ThreadFailure {
  type: 'thread-error';
  message: string;
}

/**
 * A SpawnThread that starts each thread as `new Worker(url, { type: 'module' })`; the script at `url`
 * must call webThreadWorker() (dist-web/thread-worker.js in the browser page).
 */
export function webSpawn(url: string | URL): SpawnThread {
  return (init, onError) => {
    const worker = new Worker(url, { type: 'module', name: `lucid-thread-${init.index}` });
    worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      onError(new Error(`thread worker ${init.index}: ${ev.message || `could not load ${String(url)}`}`));
    };
    worker.onmessageerror = () =>
      onError(new Error(`thread worker ${init.index}: a message could not be deserialized`));
    worker.onmessage = (ev: MessageEvent<ThreadFailure>) => {
      if (ev.data?.type === 'thread-error') onError(new Error(`thread worker ${init.index}: ${ev.data.message}`));
    };
    worker.postMessage(init);
    return { terminate: () => worker.terminate() };
  };
}

/**
 * The body of a thread worker script: waits for its ThreadInit, then runs the kernel loop (blocking
 * this worker until the pool closes). A failure to start is posted back to the spawner.
 */
export function webThreadWorker(): void {
  const scope = globalThis as unknown as {
    onmessage: ((ev: MessageEvent<ThreadInit>) => void) | null;
    postMessage(m: ThreadFailure): void;
  };
  scope.onmessage = (ev) => {
    scope.onmessage = null;
    threadWorkerLoop(ev.data).catch((e: unknown) => {
      scope.postMessage({ type: 'thread-error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    });
  };
}
