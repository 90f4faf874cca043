// Errors raised at the host boundary. Every message names the op (or component) and the argument.

export type ErrorCode =
  | 'E_SHAPE' // shapes do not agree
  | 'E_ARG' // an argument is out of range or of the wrong kind
  | 'E_VALUE' // a value is not finite or otherwise unusable
  | 'E_LIFETIME' // a tensor was used after its scratch scope ended, or freed twice
  | 'E_GRAD' // autodiff cannot do what was asked (e.g. second derivative of a once-differentiable op)
  | 'E_WASM' // the wasm module failed to load or a kernel assertion fired
  | 'E_INPUT' // bad user input (files, CSV, model files)
  | 'E_STOPPED'; // the caller asked the work to stop before it had anything worth writing (exit 130 in the CLI)

export class EngineError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}

/**
 * A column name that is not in the data (a misspelt --label, --protected, --group, --drop, …): a usage
 * error like a misspelt option (code E_ARG, exit 2). Raised only through unknownColumn (data/table.ts),
 * so every command words it the same way: where (the file), the column, close names, every column.
 */
export class UnknownColumnError extends EngineError {
  readonly column: string;
  readonly available: readonly string[];
  constructor(message: string, column: string, available: readonly string[]) {
    super('E_ARG', message);
    this.name = 'UnknownColumnError';
    this.column = column;
    this.available = available;
  }
}

/** The error for bad input (a file's content, a model's output): one line, the message as given. */
export function inputError(msg: string): EngineError {
  return new EngineError('E_INPUT', msg);
}

/** Throws an EngineError when `cond` is false; `msg` is lazy so passing checks cost nothing. */
export function check(cond: unknown, code: ErrorCode, msg: () => string): asserts cond {
  if (!cond) throw new EngineError(code, msg());
}
