// Module Web Worker of one kernel thread (started by web/worker.ts through webSpawn when the page is
// cross-origin isolated): receives its ThreadInit and runs the kernel loop. Bundled on its own
// (dist-web/thread-worker.js): it needs only src/engine/threads.ts, not the embedded wasm.
import { webThreadWorker } from '../src/engine/web-threads.js';

webThreadWorker();
