// Ctrl-C (SIGINT) and SIGTERM (a cancelled CI job) during long work: the first one asks the work to
// stop at its next step (and says what will happen), a second one exits at once with 130. Work that
// was stopped early is not a result like the others: its command writes what it has, marked, and then
// exits 130 (Interrupted, mapped by the one error handler), never 0. The previous listeners are put
// back afterwards.
import { EXIT, type StopSignal } from './handle-error.js';

export { Interrupted, type StopSignal } from './handle-error.js';
const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

export interface InterruptScope {
  /** true once a first signal has come */
  shouldStop: () => boolean;
  /** the first signal, or null */
  signal: () => StopSignal | null;
  /** removes the handlers and puts the previous listeners back */
  end: () => void;
}

/**
 * Handles SIGINT and SIGTERM until `end()`: the first asks to stop (`message` says what happens), the
 * second exits at once with 130. `onFirst` runs on the first (e.g. to end a progress line).
 */
export function interruptScope(message: string, onFirst?: () => void): InterruptScope {
  let first: StopSignal | null = null;
  const previous = new Map(SIGNALS.map((s) => [s, process.listeners(s)]));
  for (const [s, ls] of previous) for (const l of ls) process.removeListener(s, l);
  const handler = (sig: StopSignal) => () => {
    if (first) process.exit(EXIT.interrupted);
    first = sig;
    onFirst?.();
    process.stderr.write(
      `lucid: interrupted (${sig}): ${message} (${sig === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once); ` +
        `the run will exit ${EXIT.interrupted}\n`,
    );
  };
  const handlers = new Map(SIGNALS.map((s) => [s, handler(s)]));
  for (const [s, h] of handlers) process.on(s, h);
  let ended = false;
  return {
    shouldStop: () => first !== null,
    signal: () => first,
    end: () => {
      if (ended) return;
      ended = true;
      for (const [s, h] of handlers) process.removeListener(s, h);
      for (const [s, ls] of previous) for (const l of ls) process.on(s, l);
    },
  };
}

/** Runs `work(shouldStop)` in an interrupt scope; returns its value and the signal that came, if any. */
export async function withInterrupt<T>(
  message: string,
  work: (shouldStop: () => boolean) => Promise<T>,
  onFirst?: () => void,
): Promise<{ value: T; signal: StopSignal | null }> {
  const scope = interruptScope(message, onFirst);
  try {
    const value = await work(scope.shouldStop);
    return { value, signal: scope.signal() };
  } finally {
    scope.end();
  }
}
