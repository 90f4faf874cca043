// What the page's engine runs on, shared by the page (main.ts) and the training worker (worker.ts).

/** The engine's kernel threads and, at 1 thread, why. */
export interface EngineInfo {
  variant: string;
  threads: number;
  crossOriginIsolated: boolean;
  /** why the engine is single-threaded, when it is */
  note?: string;
  /** GAN seeds trained at once, each in a worker of its own (audit/gan-workers.ts; 1: one after another) */
  ganWorkers: number;
}

/**
 * "relaxed SIMD, 2 threads" or "SIMD128, 1 thread (the page is not cross-origin isolated); GAN seeds side by side, 2 at
 * once".
 */
export function engineText(info: EngineInfo): string {
  const simd = info.variant === 'relaxed' ? 'relaxed SIMD' : 'SIMD128';
  const gans = info.ganWorkers >= 2 ? `; GAN seeds side by side, ${info.ganWorkers} at once` : '';
  return (
    `${simd}, ${info.threads === 1 ? `1 thread${info.note ? ` (${info.note})` : ''}` : `${info.threads} threads`}` +
    `${gans}`
  );
}
