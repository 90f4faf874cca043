// The one place errors become messages and exit codes. No stack traces for users' mistakes.
import { InvalidArgumentError, CommanderError } from 'commander';
import { EngineError } from '../engine/errors.js';
import { PolicyFailure } from '../audit/policy.js';

/**
 * The one rule for exit codes, every command: 0 ok; 1 a data or model error (a malformed file, a failing
 * model, a bug); 2 a usage error (a misspelt or missing option, a bad value, a column name that is not
 * in the data, a missing or malformed policy file: EngineError E_ARG, UnknownColumnError included); 3 a
 * fairness policy that fails (`lucid check`: a PolicyFailure); 130 a run asked to stop (Ctrl-C, SIGTERM)
 * that wrote what it had, marked as interrupted (Interrupted), or a second signal that quit at once.
 */
export const EXIT = {
  ok: 0,
  runtime: 1,
  usage: 2,
  /**
   * `lucid check`: a check of the fairness policy crosses its threshold or regressed against the baseline
   * (PolicyFailure, raised after the outputs are written)
   */
  policy: 3,
  /**
   * the run was asked to stop (Ctrl-C, SIGTERM) and finished early: its output is written and marked (Interrupted), or
   * a second signal quit at once
   */
  interrupted: 130,
} as const;

export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * A command that finished early because it was asked to stop (cli/interrupt.ts): exit 130 after its output is written.
 */
export class Interrupted extends Error {
  constructor(
    message: string,
    readonly signal: StopSignal,
  ) {
    super(message);
    this.name = 'Interrupted';
  }
}

/** A commander error (unknown option, bad choice, missing argument, …) and the command it came from, "lucid audit". */
export class CommandLineError extends CommanderError {
  constructor(
    cause: CommanderError,
    readonly command: string,
  ) {
    super(cause.exitCode, cause.code, cause.message);
    this.name = 'CommandLineError';
  }
}

/**
 * Commander's error message as one `lucid:` line with a pointer to the command's help:
 * "error: unknown option '--protect'\n(Did you mean --protected?)" from `lucid audit` becomes
 * "lucid: error: unknown option '--protect' (did you mean --protected?); see lucid audit --help".
 */
export function commanderErrorLine(err: CommanderError, command = 'lucid'): string {
  if (err.code === 'commander.help')
    return `lucid: error: ${command} needs one of the commands listed above; see ${command} --help\n`;
  const text = err.message
    .replace(/^error: /, '')
    .replace(/\(Did you mean/g, '(did you mean')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ')
    .replace(/\.$/, '');
  return `lucid: error: ${text}; see ${command} --help\n`;
}

/**
 * What `err` becomes for a user: the text for stderr (one line, and the stack after it only when
 * `debug`; empty for --help and --version, which commander has printed) and the exit code. The CLI
 * (handleError) and the in-process fuzz corpus (test/hostile/fuzz.test.ts) both use it.
 */
export function describeError(err: unknown, debug = false): { text: string; exit: number } {
  const stack = debug && err instanceof Error && err.stack ? `${err.stack}\n` : '';
  if (err instanceof InvalidArgumentError || err instanceof CommanderError) {
    if (err.exitCode === 0) return { text: '', exit: EXIT.ok }; // --help, --version
    return {
      text: commanderErrorLine(err, err instanceof CommandLineError ? err.command : undefined),
      exit: EXIT.usage,
    };
  }
  if (err instanceof PolicyFailure) return { text: `lucid: ${err.message}\n`, exit: EXIT.policy };
  if (err instanceof Interrupted)
    return { text: `lucid: interrupted (${err.signal}): ${err.message}\n`, exit: EXIT.interrupted };
  if (err instanceof EngineError && err.code === 'E_STOPPED')
    return { text: `lucid: interrupted: ${err.message}\n`, exit: EXIT.interrupted };
  if (err instanceof EngineError) {
    return { text: `lucid: error: ${err.message}\n${stack}`, exit: err.code === 'E_ARG' ? EXIT.usage : EXIT.runtime };
  }
  const msg = err instanceof Error ? err.message : String(err);
  return {
    text: `lucid: internal error (please report it, with the output of --debug): ${msg.split('\n')[0]}\n${stack}`,
    exit: EXIT.runtime,
  };
}

/** Prints `err` as describeError says and exits with its code. */
export function handleError(err: unknown, debug = false): never {
  const { text, exit } = describeError(err, debug);
  if (text) process.stderr.write(text);
  process.exit(exit);
}
