// The kinds of model an auditor can bring, in one table. The BlackBox kind, the audit's record of
// its model, the file extensions the CLI accepts, the messages about a model file and the --model
// help of every command all read it, so a new kind of model is added here once and cannot be
// half-known (a kind the CLI loads but the help does not list, or an extension two kinds claim).
// Core code: no Node imports (src/node/blackbox.ts loads each file kind; the browser page its own).

export interface ModelAdapter {
  /** BlackBox.kind, and the audit's `meta.model.kind` */
  readonly kind: string;
  /** what the thing is in a message about its file: "<file>: model module not found" */
  readonly label: string;
  /** the kind as it reads before "model" in a message: "m.onnx is an ONNX model" */
  readonly kindName: string;
  /** how the --model help names a file of this kind: "model.json, a .mjs module or an .onnx file" */
  readonly describe?: string;
  /** what the message for an unknown extension offers: "expected a built-in model (.json), …" */
  readonly expects?: string;
  /** the file extensions of this kind, lower case with the dot; none for a kind that is not a file */
  readonly extensions: readonly string[];
  /** how a model of this kind says what it returns (binary, score, multiclass, regression: src/models/output.ts) */
  readonly output: string;
}

export const MODEL_ADAPTERS = [
  {
    kind: 'builtin',
    label: 'model file',
    kindName: 'built-in',
    describe: 'model.json',
    expects: 'a built-in model',
    extensions: ['.json'],
    output: 'the model file records it (lucid model train --output binary|multiclass|regression)',
  },
  {
    kind: 'module',
    label: 'model module',
    kindName: 'JS module',
    describe: 'a .mjs module',
    expects: 'a JS module exporting predict(rows)',
    // .ts, .mts and .cts load only when Node runs under a TypeScript loader (e.g. tsx)
    extensions: ['.mjs', '.js', '.cjs', '.ts', '.mts', '.cts'],
    output:
      "an export: output = 'score' or 'regression' (one number per row), or { kind: 'multiclass', classes: " +
      "['approve', 'refer', 'decline'] } (predict returns one probability per class and row); without it binary, " +
      'P(positive) per row',
  },
  {
    kind: 'onnx',
    label: 'ONNX model',
    kindName: 'ONNX',
    describe: 'an .onnx file',
    expects: 'an ONNX model',
    extensions: ['.onnx'],
    output:
      'the width of its output: K > 1 columns without "outputColumn" → multiclass, the classes named by the ' +
      'sidecar\'s "classes" (else 0 … K−1); else the sidecar\'s "outputKind" ("score", "regression"; default binary)',
  },
  // a column of the data holding P(positive) per row: given with --pred, so no file and no extension
  {
    kind: 'column',
    label: 'predictions column',
    kindName: 'predictions-column',
    extensions: [],
    // the inference is outputKindOf's (src/methods/metrics/outputs.ts)
    output:
      'inferred from the column against the label (or named with --output): values of the label → binary or ' +
      'multiclass; numbers in [0, 1] against two values → binary, other numbers → score; numbers against a ' +
      'numeric label → regression',
  },
] as const satisfies readonly ModelAdapter[];

export type ModelAdapterEntry = (typeof MODEL_ADAPTERS)[number];

/** Every kind of black box. */
export type BlackBoxKind = ModelAdapterEntry['kind'];

/** An adapter whose model comes as a file (it has extensions, a help phrase and an offer in messages). */
export type ModelFileAdapter = Extract<ModelAdapterEntry, { readonly extensions: readonly [string, ...string[]] }>;

/** The kinds of model that come as a file (given with --model). */
export type ModelFileKind = ModelFileAdapter['kind'];

function isFileAdapter(a: ModelAdapterEntry): a is ModelFileAdapter {
  return a.extensions.length > 0;
}

/** The adapters of models that come as files, in the table's order. */
export const MODEL_FILE_ADAPTERS: readonly ModelFileAdapter[] = MODEL_ADAPTERS.filter(isFileAdapter);

/** The registry's entry for `kind`. */
export function modelAdapter<K extends BlackBoxKind>(kind: K): Extract<ModelAdapterEntry, { kind: K }> {
  return MODEL_ADAPTERS.find((a) => a.kind === kind) as Extract<ModelAdapterEntry, { kind: K }>;
}

/** How a kind reads in a sentence ("ONNX"); a kind outside the registry (a caller's own adapter) reads as itself. */
export function kindName(kind: string): string {
  return MODEL_ADAPTERS.find((a) => a.kind === kind)?.kindName ?? kind;
}

/** The file adapter claiming the extension `ext` (".onnx", any case), or undefined. */
export function adapterForExtension(ext: string): ModelFileAdapter | undefined {
  const lower = ext.toLowerCase();
  return MODEL_FILE_ADAPTERS.find((a) => (a.extensions as readonly string[]).includes(lower));
}

/** The file adapter claiming a file name's extension ("Model.JSON": the built-in model), or undefined. */
export function adapterForFile(name: string): ModelFileAdapter | undefined {
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') ? adapterForExtension(name.slice(dot)) : undefined;
}

/** "a, b or c" (`last` = "or"), or with a serial comma "a, b, or c" (`last` = ", or"). */
function joinList(items: readonly string[], last: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')}${last.startsWith(',') ? last : ` ${last}`} ${items[items.length - 1]}`;
}

/** The files --model takes, for the help and messages: "model.json, a .mjs module or an .onnx file". */
export function modelFilePhrase(): string {
  return joinList(
    MODEL_FILE_ADAPTERS.map((a) => a.describe),
    'or',
  );
}

/** What the message for a file of no known kind offers: every file kind with its extensions. */
export function expectedModelFiles(): string {
  return joinList(
    MODEL_FILE_ADAPTERS.map((a) => `${a.expects} (${a.extensions.join(', ')})`),
    ', or',
  );
}

/**
 * What each kind of model returns and how it says so, one line per adapter (the --model help of every command that
 * calls a model): "  an .onnx file: the width of its output: …".
 */
export function modelOutputsHelp(): string {
  return [
    'What a model returns (binary, score, multiclass or regression), by kind of model:',
    ...MODEL_ADAPTERS.map((a) => `  ${'describe' in a ? a.describe : '--pred COLUMN'}: ${a.output}`),
  ].join('\n');
}
