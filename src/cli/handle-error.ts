// The one place errors become messages and exit codes. No stack traces for users' mistakes.
import { InvalidArgumentError, CommanderError } from 'commander';
import { EngineError } from '../engine/errors.js';

/** 0 ok, 1 runtime error (bad data, a failing model, a bug), 2 usage error (arguments). */
export const EXIT = { ok: 0, runtime: 1, usage: 2 } as const;

/** Prints `err` as one line (with the stack after it only when `debug`) and exits with its code. */
export function handleError(err: unknown, debug = false): never {
  const stack = debug && err instanceof Error && err.stack ? `${err.stack}\n` : '';
  if (err instanceof InvalidArgumentError || err instanceof CommanderError) {
    // commander has already printed its message
    process.exit(err.exitCode === 0 ? 0 : EXIT.usage);
  }
  if (err instanceof EngineError) {
    process.stderr.write(`lucid: error: ${err.message}\n${stack}`);
    process.exit(err.code === 'E_ARG' ? EXIT.usage : EXIT.runtime);
  }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(`lucid: internal error (please report it, with the output of --debug): ${msg.split('\n')[0]}\n${stack}`);
  process.exit(EXIT.runtime);
}
