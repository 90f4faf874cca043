// ONNX models: the input mapping (the sidecar JSON next to the .onnx file) and a
// runtime-independent adapter over an inference session. The runtime itself (onnxruntime-node or
// onnxruntime-web) is the caller's: src/node/blackbox.ts imports and hands it in, so this file is
// core code (no Node imports) and a browser can pass its own.
import { check, type EngineError, inputError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import { checkPredictions, type BlackBox } from './contract.js';
import { MODEL_OUTPUT_KINDS, outputText, type ModelOutput, type OutputKind } from './output.js';

/** How one table column becomes model inputs. */
export type OnnxColumn =
  | { name: string; type: 'numeric'; scale: number; offset: number }
  | { name: string; type: 'onehot'; categories: string[] }
  | { name: string; type: 'ordinal'; categories: string[] };

/** The sidecar (model.onnx.json): which columns, in which order, encoded how; and which input and output to use. */
export interface OnnxSidecar {
  format: 'lucid-onnx-input';
  version: 1;
  /** the ONNX input to feed (default: the model's only input) */
  input?: string;
  /** the ONNX output holding the predictions (default: the model's first output) */
  output?: string;
  /** for an (N, K) output with K > 1 read as one number per row, the column holding it (P(positive), a score, …) */
  outputColumn?: number;
  /**
   * what the output holds (default: binary, or multiclass for an (N, K) output with K > 2, or named classes, and no
   * outputColumn);
   * named so because "output" already names the ONNX output
   */
  outputKind?: OutputKind;
  /** a multiclass output's class names, in the order of its K columns (default: "0" … "K−1") */
  classes?: string[];
  /** element type of the input tensor (default float32) */
  dtype: 'float32' | 'float64';
  /**
   * the label column (informational) and the positive class whose probability the output gives (checked against the
   * audit's --positive before the model is called)
   */
  label?: string;
  positive?: string;
  columns: OnnxColumn[];
  /** the input width: the sum of the columns' widths */
  width: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a parsed sidecar; a bad field is one E_INPUT line naming `where` and the field. */
export function parseOnnxSidecar(obj: unknown, where: string): OnnxSidecar {
  const bad = (field: string, what: string): never => {
    throw inputError(`${where}: field "${field}" ${what}`);
  };
  if (!isRecord(obj)) bad('(top level)', 'must be an object');
  const o = obj as Record<string, unknown>;
  if (o.format !== 'lucid-onnx-input') bad('format', 'must be "lucid-onnx-input"');
  if (o.version !== 1) bad('version', 'must be 1');
  for (const f of ['input', 'output', 'label', 'positive'] as const) {
    if (o[f] !== undefined && (typeof o[f] !== 'string' || o[f] === '')) bad(f, 'must be a non-empty string');
  }
  if (o.outputColumn !== undefined && !(Number.isInteger(o.outputColumn) && (o.outputColumn as number) >= 0))
    bad('outputColumn', 'must be a non-negative integer');
  const kind = o.outputKind;
  if (kind !== undefined && !(MODEL_OUTPUT_KINDS as readonly unknown[]).includes(kind))
    bad(
      'outputKind',
      `must be one of ${MODEL_OUTPUT_KINDS.map((k) => `"${k}"`).join(', ')}, got ${JSON.stringify(kind)}`,
    );
  const cls = o.classes;
  if (cls !== undefined) {
    if (
      !Array.isArray(cls) ||
      cls.length < 2 ||
      !cls.every((c) => typeof c === 'string' && c !== '') ||
      new Set(cls).size !== cls.length
    )
      bad('classes', "must be an array of at least two distinct class names (the output's columns, in order)");
    if (kind !== undefined && kind !== 'multiclass')
      bad('classes', `names the classes of a multiclass output, not ${kind}`);
    if (o.outputColumn !== undefined) bad('classes', 'and "outputColumn" exclude each other (all columns, or one)');
  }
  if (kind === 'multiclass' && o.outputColumn !== undefined)
    bad('outputColumn', 'picks one column; a multiclass output reads them all');
  if (o.positive !== undefined && (kind === 'multiclass' || kind === 'regression' || cls !== undefined))
    bad('positive', 'names the class of a binary output or a score; this output is multiclass or regression');
  const dtype = o.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') bad('dtype', 'must be "float32" or "float64"');
  if (!Array.isArray(o.columns) || o.columns.length === 0) bad('columns', 'must be a non-empty array');
  const columns: OnnxColumn[] = [];
  const seen = new Set<string>();
  let width = 0;
  (o.columns as unknown[]).forEach((ci, i) => {
    const f = `columns[${i}]`;
    if (!isRecord(ci)) bad(f, 'must be an object');
    const c = ci as Record<string, unknown>;
    if (typeof c.name !== 'string' || c.name === '') bad(`${f}.name`, 'must be a column name');
    const name = c.name as string;
    if (seen.has(name)) bad(`${f}.name`, `repeats the column "${name}"`);
    seen.add(name);
    if (c.type === 'numeric') {
      const scale = c.scale ?? 1;
      const offset = c.offset ?? 0;
      if (typeof scale !== 'number' || !Number.isFinite(scale)) bad(`${f}.scale`, 'must be a finite number');
      if (typeof offset !== 'number' || !Number.isFinite(offset)) bad(`${f}.offset`, 'must be a finite number');
      columns.push({ name, type: 'numeric', scale: scale as number, offset: offset as number });
      width += 1;
    } else if (c.type === 'onehot' || c.type === 'ordinal') {
      const cats = c.categories;
      if (!Array.isArray(cats) || cats.length === 0 || !cats.every((x) => typeof x === 'string'))
        bad(`${f}.categories`, 'must be a non-empty array of labels');
      if (new Set(cats as string[]).size !== (cats as string[]).length) bad(`${f}.categories`, 'repeats a label');
      columns.push({ name, type: c.type, categories: (cats as string[]).slice() });
      width += c.type === 'onehot' ? (cats as string[]).length : 1;
    } else bad(`${f}.type`, 'must be "numeric", "onehot" or "ordinal"');
  });
  return {
    format: 'lucid-onnx-input',
    version: 1,
    input: o.input as string | undefined,
    output: o.output as string | undefined,
    outputColumn: o.outputColumn as number | undefined,
    ...(kind !== undefined ? { outputKind: kind as OutputKind } : {}),
    ...(cls !== undefined ? { classes: (cls as string[]).slice() } : {}),
    dtype: dtype as 'float32' | 'float64',
    label: o.label as string | undefined,
    positive: o.positive as string | undefined,
    columns,
    width,
  };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** (N, width) row-major encoding of `table` as the sidecar says; errors name the column, row and value. */
export function encodeForOnnx(table: Table, sc: OnnxSidecar, where: string): Float64Array {
  const n = table.rows;
  const D = sc.width;
  const out = new Float64Array(n * D);
  let at = 0;
  for (const spec of sc.columns) {
    const col = table.columns.find((c) => c.name === spec.name);
    check(
      col,
      'E_INPUT',
      () =>
        `${where}: the data lacks the column "${spec.name}" the sidecar maps; the columns are: ` +
        `${table.columns.map((c) => c.name).join(', ')}`,
    );
    const missing = (i: number): EngineError =>
      inputError(`${where}: column "${spec.name}", row ${i + 1}: missing value`);
    if (spec.type === 'numeric') {
      let values: ArrayLike<number>;
      if (col.kind === 'numeric') values = col.values;
      else {
        const parsed = col.categories.map((s) => (NUMBER.test(s.trim()) ? Number(s) : NaN));
        const v = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          const k = col.codes[i];
          if (k < 0) throw missing(i);
          if (Number.isNaN(parsed[k]))
            throw inputError(
              `${where}: column "${spec.name}", row ${i + 1}: "${col.categories[k]}" is not a number, and the ` +
                `sidecar maps this column as numeric`,
            );
          v[i] = parsed[k];
        }
        values = v;
      }
      for (let i = 0; i < n; i++) {
        const x = values[i];
        if (Number.isNaN(x)) throw missing(i);
        out[i * D + at] = x * spec.scale + spec.offset;
      }
      at += 1;
      continue;
    }
    const index = new Map(spec.categories.map((c, k) => [c, k]));
    const labelAt = (i: number): string | null => {
      if (col.kind === 'categorical') return col.codes[i] < 0 ? null : col.categories[col.codes[i]];
      return Number.isNaN(col.values[i]) ? null : String(col.values[i]);
    };
    for (let i = 0; i < n; i++) {
      const label = labelAt(i);
      if (label === null) throw missing(i);
      const k = index.get(label);
      if (k === undefined)
        throw inputError(
          `${where}: column "${spec.name}", row ${i + 1}: category "${label}" is not in the sidecar's categories ` +
            `(${spec.categories.join(', ')})`,
        );
      if (spec.type === 'onehot') out[i * D + at + k] = 1;
      else out[i * D + at] = k;
    }
    at += spec.type === 'onehot' ? spec.categories.length : 1;
  }
  return out;
}

/** The parts of onnxruntime's API the adapter uses (onnxruntime-node and onnxruntime-web share it). */
export interface OrtTensorLike {
  readonly dims: readonly number[];
  readonly data: unknown;
  readonly type?: string;
}
export interface OrtSessionLike {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensorLike>>;
}
export interface OrtLike {
  Tensor: new (type: 'float32' | 'float64', data: Float32Array | Float64Array, dims: readonly number[]) => unknown;
  InferenceSession: { create(pathOrBytes: string | Uint8Array): Promise<OrtSessionLike> };
}

/**
 * What an ONNX model returns, from its sidecar and the width K of its output (1 for a shape (N)): the sidecar's
 * "outputKind" when given; else multiclass when the output has K > 2 columns and no "outputColumn" picks one (or the
 * sidecar names "classes"), binary otherwise. K = 2 stays binary unless the sidecar says multiclass: it is
 * scikit-learn's usual export of a binary classifier, [P(class 0), P(class 1)], and reading it as two classes would
 * audit the wrong thing; predict then asks which column holds P(positive) ("outputColumn"). A multiclass output's
 * "positive" is refused, as parseOnnxSidecar refuses it beside a declared multiclass or regression kind. A multiclass
 * output's classes are the sidecar's "classes", or without
 * them the column indices "0" … "K−1" (which match a label coded 0 … K−1, as scikit-learn's encoders code it; other
 * labels then read as classes the model does not know). A width that does not fit is one E_INPUT line.
 */
export function onnxOutputOf(sc: OnnxSidecar, k: number, source: string): ModelOutput {
  const kind: OutputKind =
    sc.outputKind ?? (sc.outputColumn === undefined && (k > 2 || sc.classes !== undefined) ? 'multiclass' : 'binary');
  if (kind !== 'multiclass') return { kind };
  check(
    sc.positive === undefined,
    'E_INPUT',
    () =>
      `${source}: the sidecar names "positive" ${JSON.stringify(sc.positive)}, but the output has ${k} columns, read ` +
      `as a multiclass model's class probabilities; drop "positive", or give "outputColumn" (the column holding ` +
      `P(positive))`,
  );
  check(
    k > 1,
    'E_INPUT',
    () => `${source}: the output has one column, but a multiclass model gives one probability per class (K > 1)`,
  );
  const classes = sc.classes ?? Array.from({ length: k }, (_, c) => String(c));
  check(
    classes.length === k,
    'E_INPUT',
    () =>
      `${source}: the sidecar names ${classes.length} classes (${classes.join(', ')}), but the output has ${k} columns`,
  );
  return { kind, classes };
}

/** Whether the sidecar leaves the output's kind to its width (onnxOutputOf), so the width must be learnt first. */
export function onnxWidthDecides(sc: OnnxSidecar): boolean {
  return (
    sc.outputColumn === undefined &&
    sc.classes === undefined &&
    (sc.outputKind === undefined || sc.outputKind === 'multiclass')
  );
}

/**
 * The width K of an ONNX model's output (1 for a shape (N)), learnt by running it on one row of zeros (the runtime's
 * API gives no output shapes before a run); undefined when that run fails or its output is not (N) or (N, K), so that
 * predict reports the failure on the data, with the rows, as it always has.
 */
export async function onnxOutputWidth(
  ort: OrtLike,
  session: OrtSessionLike,
  sc: OnnxSidecar,
): Promise<number | undefined> {
  const inputName = sc.input ?? session.inputNames[0];
  const outputName = sc.output ?? session.outputNames[0];
  // a sidecar naming what the model lacks: onnxBlackBox says so, with the model's names
  if (
    (sc.input === undefined && session.inputNames.length !== 1) ||
    !session.inputNames.includes(inputName) ||
    !session.outputNames.includes(outputName)
  )
    return undefined;
  const D = sc.width;
  const data = sc.dtype === 'float32' ? new Float32Array(D) : new Float64Array(D);
  try {
    const dims = (await session.run({ [inputName]: new ort.Tensor(sc.dtype, data, [1, D]) }))[outputName]?.dims;
    if (dims?.length === 1) return 1;
    if (dims?.length === 2 && dims[1] >= 1) return dims[1];
  } catch {
    // the same run on the data says what is wrong, naming the rows
  }
  return undefined;
}

/**
 * An ONNX model (an inference session of onnxruntime) as a black box. Checks now that the
 * sidecar's input and output exist in the model; its output is onnxOutputOf's for `opts.width`, the output's width
 * (onnxOutputWidth; without it, the width the sidecar implies: its classes' count, else 1). Each `predict` encodes
 * the table as the sidecar says, runs the session in batches, and takes from the output one number per row (shape
 * (N), (N, 1), or (N, K) with the sidecar's `outputColumn`) or, multiclass, the K class probabilities of each row.
 */
export function onnxBlackBox(
  ort: OrtLike,
  session: OrtSessionLike,
  sc: OnnxSidecar,
  source: string,
  opts: { batchSize?: number; width?: number } = {},
): BlackBox {
  const inputs = session.inputNames;
  const outputs = session.outputNames;
  let input = sc.input;
  if (input === undefined) {
    check(
      inputs.length === 1,
      'E_INPUT',
      () =>
        `${source}: the model has ${inputs.length} inputs (${inputs.join(', ')}); the sidecar must name one in "input"`,
    );
    input = inputs[0];
  }
  const inputName = input;
  check(
    inputs.includes(inputName),
    'E_INPUT',
    () =>
      `${source}: the sidecar's input "${inputName}" is not an input of the model (its inputs: ${inputs.join(', ')})`,
  );
  const outputName = sc.output ?? outputs[0];
  check(
    outputName !== undefined && outputs.includes(outputName),
    'E_INPUT',
    () =>
      `${source}: the sidecar's output "${String(outputName)}" is not an output of the model (its outputs: ` +
      `${outputs.join(', ')})`,
  );
  const batch = opts.batchSize ?? 65536;
  const D = sc.width;
  const output = onnxOutputOf(sc, opts.width ?? sc.classes?.length ?? 1, source);
  const K = output.kind === 'multiclass' ? output.classes.length : 1;
  return {
    kind: 'onnx',
    source,
    features: sc.columns.map((c) => c.name),
    ...(output.kind !== 'binary' ? { output } : {}),
    ...(sc.positive !== undefined
      ? { classes: { positive: sc.positive, label: sc.label, recordedIn: 'its sidecar records' } }
      : {}),
    predict: async (table) => {
      const n = table.rows;
      const x = encodeForOnnx(table, sc, source);
      const out = new Float64Array(n * K);
      for (let start = 0; start < n; start += batch) {
        const end = Math.min(n, start + batch);
        const m = end - start;
        const slice = x.subarray(start * D, end * D);
        const data = sc.dtype === 'float32' ? Float32Array.from(slice) : Float64Array.from(slice);
        let result: Record<string, OrtTensorLike>;
        try {
          result = await session.run({ [inputName]: new ort.Tensor(sc.dtype, data, [m, D]) });
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          throw inputError(
            `${source}: onnxruntime failed to run the model on ${m} rows of ${D} inputs (is the sidecar's mapping ` +
              `the model's input?): ${msg.split('\n')[0]}`,
          );
        }
        const t = result[outputName];
        check(t, 'E_INPUT', () => `${source}: the model returned no output "${outputName}"`);
        const dims = t.dims;
        const values = t.data;
        check(
          ArrayBuffer.isView(values),
          'E_INPUT',
          () =>
            `${source}: output "${outputName}" is not a numeric tensor (${t.type ?? typeof values}); export the ` +
            `model with plain tensor outputs (for skl2onnx: zipmap=False)`,
        );
        const k = dims.length === 1 ? 1 : dims.length === 2 ? dims[1] : -1;
        check(
          k >= 1 && dims[0] === m,
          'E_INPUT',
          () =>
            `${source}: output "${outputName}" has shape [${dims.join(', ')}]; expected [${m}], [${m}, 1] or [${m}, K]`,
        );
        if (output.kind === 'multiclass') {
          check(
            k === K,
            'E_INPUT',
            () => `${source}: output "${outputName}" has ${k} columns, but the model is ${outputText(output)}`,
          );
          const v = values as unknown as ArrayLike<number>;
          const p = new Float64Array(m * K);
          for (let i = 0; i < m * K; i++) p[i] = Number(v[i]);
          out.set(checkPredictions(p, m, source, start, output), start * K);
          continue;
        }
        let col = 0;
        if (k > 1) {
          check(
            sc.outputColumn !== undefined,
            'E_INPUT',
            () =>
              `${source}: output "${outputName}" has ${k} columns; the sidecar must say which holds P(positive) in ` +
              `"outputColumn"`,
          );
          col = sc.outputColumn;
          check(
            col < k,
            'E_INPUT',
            () =>
              `${source}: the sidecar's outputColumn ${col} is not a column of output "${outputName}" (it has ${k})`,
          );
        }
        const v = values as unknown as ArrayLike<number>;
        const p = new Float64Array(m);
        for (let i = 0; i < m; i++) p[i] = Number(v[i * k + col]);
        out.set(checkPredictions(p, m, source, start, output), start);
      }
      return out;
    },
  };
}
