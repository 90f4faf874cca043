// Models to audit: one interface over every form of black box an auditor brings (the built-in
// classifier, a JS module, an ONNX file, or only a column of predictions), and the one check every
// model's output goes through. Core code: no Node imports (src/node/blackbox.ts finds and loads
// files; the adapters here take what was loaded, so a browser can use them with its own loader).
//
// Rows in messages count from 1, in the order of the table handed to predict (for a CSV file read
// with a header: row r is line r + 1, unless the missing-value policy dropped rows).
import { check, EngineError } from '../engine/errors.js';
import type { Engine } from '../engine/engine.js';
import { unknownColumn, type Column, type Table } from '../data/table.js';
import type { Classifier } from './classifier/classifier.js';

export type BlackBoxKind = 'builtin' | 'module' | 'onnx' | 'column';

export interface BlackBox {
  readonly kind: BlackBoxKind;
  /** where the model came from (a file path, or "column "pred"") — every message starts with it */
  readonly source: string;
  /** the columns the model reads, when it says so (the built-in model, ONNX sidecars, modules exporting `features`) */
  readonly features?: readonly string[];
  /** P(positive class) per row of `table`, checked by `checkPredictions` */
  predict(table: Table): Promise<Float64Array>;
  /** set when the model is the built-in classifier, whose logit the engine can differentiate (LUCID) */
  readonly differentiable?: Classifier;
}

/** The longest wait, in seconds, for one call of a JS-module model's predict (or its import): --model-timeout's default, and the browser page's. */
export const MODEL_TIMEOUT_SECONDS = 60;

const SHOW_ROWS = 5;

function inputError(msg: string): EngineError {
  return new EngineError('E_INPUT', msg);
}

/** "rows 3, 17, 42, 50, 61, … (9 rows in all)" for 0-based positions `rows` (+ offset). */
function rowList(rows: number[], total: number, offset: number): string {
  const shown = rows.slice(0, SHOW_ROWS).map((r) => r + offset + 1);
  const more = total > shown.length ? ', …' : '';
  return total === 1 ? `row ${shown[0]}` : `rows ${shown.join(', ')}${more} (${total} rows in all)`;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
  if (Array.isArray(v)) return `[${v.slice(0, 3).map(describe).join(', ')}${v.length > 3 ? ', …' : ''}]`;
  if (v === null || v === undefined || typeof v !== 'object') return String(v);
  return 'an object';
}

/**
 * Validates a model's output: exactly `n` numbers (an Array or typed array), none NaN, every one a
 * probability in [0, 1]. Returns them as a new Float64Array. A failure is one E_INPUT line starting
 * with `source`, naming the first few offending rows (1-based) and how many there are in all.
 * `offset` shifts the row numbers (for a batch that starts at row offset + 1).
 */
export function checkPredictions(p: ArrayLike<number>, n: number, source: string, offset = 0): Float64Array {
  const isTyped = ArrayBuffer.isView(p) && !(p instanceof DataView);
  if (!Array.isArray(p) && !isTyped) {
    const hint =
      p !== null && typeof p === 'object' && 'probabilities' in (p as object)
        ? ' (return the probabilities array itself, not an object holding it)'
        : '';
    throw inputError(`${source}: expected an array of ${n} probabilities, got ${describe(p)}${hint}`);
  }
  const span = offset > 0 ? ` (rows ${offset + 1}–${offset + n})` : '';
  check(p.length === n, 'E_INPUT', () => `${source}: returned ${p.length} predictions for ${n} rows${span}; expected one probability per row`);
  const out = new Float64Array(n);
  const nonNumber: number[] = [];
  const nan: number[] = [];
  const outside: number[] = [];
  let nonNumbers = 0;
  let nans = 0;
  let outsides = 0;
  let negative = false;
  for (let i = 0; i < n; i++) {
    const v = p[i] as unknown;
    if (typeof v !== 'number') {
      if (nonNumbers++ < SHOW_ROWS) nonNumber.push(i);
      continue;
    }
    if (Number.isNaN(v)) {
      if (nans++ < SHOW_ROWS) nan.push(i);
    } else if (!(v >= 0 && v <= 1)) {
      if (outsides++ < SHOW_ROWS) outside.push(i);
      if (v < 0) negative = true;
    }
    out[i] = v;
  }
  if (nonNumbers > 0) {
    const first = (p as unknown[])[nonNumber[0]];
    const hint = Array.isArray(first)
      ? '; return one probability of the positive class per row (for [p0, p1] pairs: rows.map(r => r[1]))'
      : '';
    throw inputError(`${source}: predictions must be numbers, but ${rowList(nonNumber, nonNumbers, offset)} ${nonNumbers === 1 ? 'is' : 'are'} not (row ${nonNumber[0] + offset + 1} is ${describe(first)})${hint}`);
  }
  if (nans > 0) throw inputError(`${source}: the prediction is NaN at ${rowList(nan, nans, offset)}`);
  if (outsides > 0) {
    const hint = negative ? '; these look like scores or logits: apply a sigmoid' : '';
    throw inputError(`${source}: predictions must be probabilities in [0, 1], but ${rowList(outside, outsides, offset)} ${outsides === 1 ? 'is' : 'are'} outside (row ${outside[0] + offset + 1} is ${out[outside[0]]})${hint}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The built-in classifier

/** The built-in classifier as a black box (differentiable, so LUCID can invert it). */
export function builtinBlackBox(engine: Engine, model: Classifier, source: string): BlackBox {
  return {
    kind: 'builtin',
    source,
    features: model.preprocessor.features.slice(),
    differentiable: model,
    predict: async (table) => checkPredictions(model.predictProba(engine, table, source), table.rows, source),
  };
}

// ---------------------------------------------------------------------------------------------
// A predictions column

/**
 * A column of the data that already holds the model's P(positive) per row (`--pred COL`). The
 * column is checked now (so a bad value is reported at load time), and `predict(t)` reads and
 * checks the column of the same name in `t`: a predictions column can only score the rows it came
 * with. `features` are the table's other columns.
 */
export function columnBlackBox(table: Table, name: string): BlackBox {
  const source = `predictions column "${name}"`;
  const read = (t: Table): Float64Array => {
    const col = t.columns.find((c) => c.name === name);
    if (!col) throw unknownColumn(name, t.columns.map((c) => c.name), 'the data', '--pred');
    if (col.kind === 'categorical') {
      const labels = col.categories.slice(0, 4).map((c) => JSON.stringify(c)).join(', ');
      throw inputError(`${source}: holds labels (${labels}${col.categories.length > 4 ? ', …' : ''}), not numbers; it must hold each row's probability of the positive class in [0, 1]`);
    }
    return checkPredictions(col.values, t.rows, source);
  };
  read(table);
  return {
    kind: 'column',
    source,
    features: table.columns.filter((c) => c.name !== name).map((c) => c.name),
    predict: async (t) => read(t),
  };
}

// ---------------------------------------------------------------------------------------------
// A JS module: `export function predict(rows)`

/** A row as a JS model sees it: numbers for numeric columns, labels for categorical ones (null when missing). */
export type Row = Record<string, number | string | null>;

/** What a model module must export (`predict`), and may (`features`: the columns its rows need). */
export interface ModelModule {
  predict(rows: Row[]): ArrayLike<number> | Promise<ArrayLike<number>>;
  features?: readonly string[];
}

/** Plain objects keyed by column name for rows [start, end) of `table`, with only `columns` (all when absent). */
export function tableRows(table: Table, columns?: readonly string[], start = 0, end = table.rows, where = 'rows'): Row[] {
  const cols: Column[] = columns
    ? columns.map((name) => {
        const c = table.columns.find((x) => x.name === name);
        check(c, 'E_INPUT', () => `${where}: the data lacks the column "${name}"; the columns are: ${table.columns.map((x) => x.name).join(', ')}`);
        return c;
      })
    : table.columns;
  const out: Row[] = new Array(end - start);
  for (let i = start; i < end; i++) {
    const row: Row = {};
    for (const c of cols) {
      if (c.kind === 'numeric') row[c.name] = Number.isNaN(c.values[i]) ? null : c.values[i];
      else row[c.name] = c.codes[i] < 0 ? null : c.categories[c.codes[i]];
    }
    out[i - start] = row;
  }
  return out;
}

/** The exports of a loaded module, checked: `predict` (or `default.predict`, for CommonJS) and an optional `features`. */
export function asModelModule(ns: unknown, source: string): ModelModule {
  const o = ns as Record<string, unknown> | null;
  const def = o?.default as Record<string, unknown> | undefined;
  const host = typeof o?.predict === 'function' ? o : def && typeof def === 'object' && typeof def.predict === 'function' ? def : null;
  if (!host) {
    const names = o ? Object.keys(o).filter((k) => k !== 'default') : [];
    throw inputError(`${source}: the module does not export a function "predict" (its exports: ${names.length ? names.join(', ') : 'none'}); write \`export function predict(rows) { … }\` returning one probability per row`);
  }
  const features = host.features ?? o?.features;
  if (features !== undefined) {
    check(Array.isArray(features) && features.length > 0 && features.every((f) => typeof f === 'string'), 'E_INPUT', () => `${source}: the export "features" must be a non-empty array of column names`);
  }
  const fn = host.predict as ModelModule['predict'];
  return { predict: (rows) => fn.call(host, rows), features: features as string[] | undefined };
}

export interface ModuleOptions {
  /** rows per call of `predict` (default 8192), so a large table never becomes one huge array of objects */
  batchSize?: number;
}

/**
 * A JS model as a black box. `predict(rows)` gets plain objects keyed by column name (the module's
 * `features` when it exports them, else every column of the table), may be sync or async, and
 * must return one P(positive) per row as an array or typed array. A throw is rethrown as an
 * E_INPUT error naming the module and the rows of the failing call.
 */
export function moduleBlackBox(mod: ModelModule, source: string, opts: ModuleOptions = {}): BlackBox {
  const batch = opts.batchSize ?? 8192;
  check(Number.isInteger(batch) && batch > 0, 'E_ARG', () => `moduleBlackBox: batchSize must be a positive integer, got ${batch}`);
  return {
    kind: 'module',
    source,
    features: mod.features?.slice(),
    predict: async (table) => {
      const n = table.rows;
      const out = new Float64Array(n);
      for (let start = 0; start < n; start += batch) {
        const end = Math.min(n, start + batch);
        const rows = tableRows(table, mod.features, start, end, source);
        let p: ArrayLike<number>;
        try {
          p = await mod.predict(rows);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          const span = start === 0 && end === n ? '' : ` (rows ${start + 1}–${end})`;
          throw inputError(`${source}: predict threw${span}: ${msg.split('\n')[0]}`);
        }
        out.set(checkPredictions(p, end - start, `${source}: predict`, start), start);
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// ONNX: the input mapping (sidecar JSON) and a runtime-independent adapter over an inference session

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
  /** the ONNX output holding the probabilities (default: the model's first output) */
  output?: string;
  /** for an (N, K) output with K > 1, the column holding P(positive) (required then) */
  outputColumn?: number;
  /** element type of the input tensor (default float32) */
  dtype: 'float32' | 'float64';
  /** informational: the label column and its positive class */
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
  if (o.outputColumn !== undefined && !(Number.isInteger(o.outputColumn) && (o.outputColumn as number) >= 0)) bad('outputColumn', 'must be a non-negative integer');
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
      if (!Array.isArray(cats) || cats.length === 0 || !cats.every((x) => typeof x === 'string')) bad(`${f}.categories`, 'must be a non-empty array of labels');
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
    check(col, 'E_INPUT', () => `${where}: the data lacks the column "${spec.name}" the sidecar maps; the columns are: ${table.columns.map((c) => c.name).join(', ')}`);
    const missing = (i: number): EngineError => inputError(`${where}: column "${spec.name}", row ${i + 1}: missing value`);
    if (spec.type === 'numeric') {
      let values: ArrayLike<number>;
      if (col.kind === 'numeric') values = col.values;
      else {
        const parsed = col.categories.map((s) => (NUMBER.test(s.trim()) ? Number(s) : NaN));
        const v = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          const k = col.codes[i];
          if (k < 0) throw missing(i);
          if (Number.isNaN(parsed[k])) throw inputError(`${where}: column "${spec.name}", row ${i + 1}: "${col.categories[k]}" is not a number, and the sidecar maps this column as numeric`);
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
      if (k === undefined) throw inputError(`${where}: column "${spec.name}", row ${i + 1}: category "${label}" is not in the sidecar's categories (${spec.categories.join(', ')})`);
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
 * An ONNX model (an inference session of onnxruntime) as a black box. Checks now that the
 * sidecar's input and output exist in the model; each `predict` encodes the table as the sidecar
 * says, runs the session in batches, and takes P(positive) from the output: shape (N), (N, 1), or
 * (N, K) with the sidecar's `outputColumn`.
 */
export function onnxBlackBox(ort: OrtLike, session: OrtSessionLike, sc: OnnxSidecar, source: string, opts: { batchSize?: number } = {}): BlackBox {
  const inputs = session.inputNames;
  const outputs = session.outputNames;
  let input = sc.input;
  if (input === undefined) {
    check(inputs.length === 1, 'E_INPUT', () => `${source}: the model has ${inputs.length} inputs (${inputs.join(', ')}); the sidecar must name one in "input"`);
    input = inputs[0];
  }
  const inputName = input;
  check(inputs.includes(inputName), 'E_INPUT', () => `${source}: the sidecar's input "${inputName}" is not an input of the model (its inputs: ${inputs.join(', ')})`);
  const outputName = sc.output ?? outputs[0];
  check(outputName !== undefined && outputs.includes(outputName), 'E_INPUT', () => `${source}: the sidecar's output "${String(outputName)}" is not an output of the model (its outputs: ${outputs.join(', ')})`);
  const batch = opts.batchSize ?? 65536;
  const D = sc.width;
  return {
    kind: 'onnx',
    source,
    features: sc.columns.map((c) => c.name),
    predict: async (table) => {
      const n = table.rows;
      const x = encodeForOnnx(table, sc, source);
      const out = new Float64Array(n);
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
          throw inputError(`${source}: onnxruntime failed to run the model on ${m} rows of ${D} inputs (is the sidecar's mapping the model's input?): ${msg.split('\n')[0]}`);
        }
        const t = result[outputName];
        check(t, 'E_INPUT', () => `${source}: the model returned no output "${outputName}"`);
        const dims = t.dims;
        const values = t.data;
        check(ArrayBuffer.isView(values), 'E_INPUT', () => `${source}: output "${outputName}" is not a numeric tensor (${t.type ?? typeof values}); export the model with plain tensor outputs (for skl2onnx: zipmap=False)`);
        const k = dims.length === 1 ? 1 : dims.length === 2 ? dims[1] : -1;
        check(k >= 1 && dims[0] === m, 'E_INPUT', () => `${source}: output "${outputName}" has shape [${dims.join(', ')}]; expected [${m}], [${m}, 1] or [${m}, K]`);
        let col = 0;
        if (k > 1) {
          check(sc.outputColumn !== undefined, 'E_INPUT', () => `${source}: output "${outputName}" has ${k} columns; the sidecar must say which holds P(positive) in "outputColumn"`);
          col = sc.outputColumn;
          check(col < k, 'E_INPUT', () => `${source}: the sidecar's outputColumn ${col} is not a column of output "${outputName}" (it has ${k})`);
        }
        const v = values as unknown as ArrayLike<number>;
        const p = new Float64Array(m);
        for (let i = 0; i < m; i++) p[i] = Number(v[i * k + col]);
        out.set(checkPredictions(p, m, source, start), start);
      }
      return out;
    },
  };
}
