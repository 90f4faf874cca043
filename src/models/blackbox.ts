// Models to audit: the adapters that make each form of model an auditor brings a BlackBox (the
// built-in classifier, a JS module, a column of predictions here; an ONNX session in onnx.ts),
// with the BlackBox contract and the check of every output (contract.ts) and the registry of kinds
// (adapters.ts) re-exported, so this module stays the one import for all of them. Core code: no
// Node imports (src/node/blackbox.ts finds and loads files; the adapters here take what was
// loaded, so a browser can use them with its own loader).
import { check, inputError } from '../engine/errors.js';
import type { Engine } from '../engine/engine.js';
import { unknownColumn, type Column, type Table } from '../data/table.js';
import type { Classifier } from './classifier/classifier.js';
import { checkPredictions, type BlackBox, type ModelClasses } from './contract.js';
import { BINARY_OUTPUT, outputWidth, parseModelOutput, type ModelOutput } from './output.js';

export type { BlackBoxKind } from './adapters.js';
export {
  checkModelClasses,
  checkPredictions,
  outputOf,
  PROBABILITY_SUM_TOLERANCE,
  type BlackBox,
  type ModelClasses,
} from './contract.js';
export {
  BINARY_OUTPUT,
  outputText,
  outputWidth,
  parseModelOutput,
  type ModelOutput,
  type OutputKind,
} from './output.js';
export * from './onnx.js';

/**
 * The longest wait, in seconds, for one call of a JS-module model's predict (or its import): --model-timeout's default,
 * and the browser page's.
 */
export const MODEL_TIMEOUT_SECONDS = 60;

// ---------------------------------------------------------------------------------------------
// The built-in classifier

/**
 * The built-in model as a black box, with the output its file records. Every kind is differentiable (LUCID inverts a
 * binary classifier's logit towards a class, a multiclass one's logits towards a class, a regressor's value towards a
 * band); a binary classifier names its positive class, a multiclass one returns its class probabilities (N×k), a
 * regressor its values in the label's units.
 */
export function builtinBlackBox(engine: Engine, model: Classifier, source: string): BlackBox {
  const output = model.modelOutput;
  const features = model.preprocessor.features.slice();
  if (output.kind !== 'binary') {
    return {
      kind: 'builtin',
      source,
      features,
      output,
      differentiable: model,
      predict: async (table) =>
        checkPredictions(model.predictOutput(engine, table, source), table.rows, source, 0, output),
    };
  }
  return {
    kind: 'builtin',
    source,
    features,
    output,
    differentiable: model,
    classes: {
      positive: model.positive,
      values: model.classes.slice(),
      label: model.label,
      recordedIn: 'the model file records',
    },
    predict: async (table) => checkPredictions(model.predictProba(engine, table, source), table.rows, source),
  };
}

// ---------------------------------------------------------------------------------------------
// A predictions column

/**
 * A column of the data that already holds the model's P(positive) per row (`--pred COL`), or, when the metrics layer
 * has inferred another `output` for it (outputKindOf), its score or real value per row. The
 * column is checked now (so a bad value is reported at load time), and `predict(t)` reads and
 * checks the column of the same name in `t`: a predictions column can only score the rows it came
 * with. `features` are the table's other columns. (A column of predicted classes is read by the metrics layer as
 * labels; it is not a black box's class probabilities.)
 */
export function columnBlackBox(table: Table, name: string, output: ModelOutput = BINARY_OUTPUT): BlackBox {
  check(
    output.kind !== 'multiclass',
    'E_ARG',
    () => `predictions column "${name}": a column holds one number per row, not a multiclass model's probabilities`,
  );
  const source = `predictions column "${name}"`;
  const read = (t: Table): Float64Array => {
    const col = t.columns.find((c) => c.name === name);
    if (!col)
      throw unknownColumn(
        name,
        t.columns.map((c) => c.name),
        'the data',
        '--pred',
      );
    if (col.kind === 'categorical') {
      const labels = col.categories
        .slice(0, 4)
        .map((c) => JSON.stringify(c))
        .join(', ');
      throw inputError(
        `${source}: holds labels (${labels}${col.categories.length > 4 ? ', …' : ''}), not numbers; it must hold ` +
          (output.kind === 'binary'
            ? `each row's probability of the positive class in [0, 1]`
            : `each row's ${output.kind === 'score' ? 'score' : 'predicted value'}`),
      );
    }
    return checkPredictions(col.values, t.rows, source, 0, output);
  };
  read(table);
  return {
    kind: 'column',
    source,
    ...(output.kind !== 'binary' ? { output } : {}),
    features: table.columns.filter((c) => c.name !== name).map((c) => c.name),
    predict: async (t) => read(t),
  };
}

// ---------------------------------------------------------------------------------------------
// A JS module: `export function predict(rows)`

/** A row as a JS model sees it: numbers for numeric columns, labels for categorical ones (null when missing). */
export type Row = Record<string, number | string | null>;

/** What a module's predict may return: one number per row, or (multiclass) one array of k probabilities per row. */
export type ModulePredictions = ArrayLike<number> | ArrayLike<ArrayLike<number>>;

/**
 * What a model module must export (`predict`), and may (`features`: the columns its rows need; `positive`: the class
 * whose probability predict returns, checked against the audit's --positive; `output`: what predict returns,
 * parseModelOutput's forms, binary without it).
 */
export interface ModelModule {
  predict(rows: Row[]): ModulePredictions | Promise<ModulePredictions>;
  features?: readonly string[];
  positive?: string;
  output?: ModelOutput;
}

/** Plain objects keyed by column name for rows [start, end) of `table`, with only `columns` (all when absent). */
export function tableRows(
  table: Table,
  columns?: readonly string[],
  start = 0,
  end = table.rows,
  where = 'rows',
): Row[] {
  const cols: Column[] = columns
    ? columns.map((name) => {
        const c = table.columns.find((x) => x.name === name);
        check(
          c,
          'E_INPUT',
          () =>
            `${where}: the data lacks the column "${name}"; the columns are: ` +
            `${table.columns.map((x) => x.name).join(', ')}`,
        );
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

/**
 * The exports of a loaded module, checked: `predict` (or `default.predict`, for CommonJS) and an optional `features`.
 */
export function asModelModule(ns: unknown, source: string): ModelModule {
  const o = ns as Record<string, unknown> | null;
  const def = o?.default as Record<string, unknown> | undefined;
  const host =
    typeof o?.predict === 'function'
      ? o
      : def && typeof def === 'object' && typeof def.predict === 'function'
        ? def
        : null;
  if (!host) {
    const names = o ? Object.keys(o).filter((k) => k !== 'default') : [];
    throw inputError(
      `${source}: the module does not export a function "predict" (its exports: ` +
        `${names.length ? names.join(', ') : 'none'}); write \`export function predict(rows) { … }\` returning ` +
        `one probability per row`,
    );
  }
  const features = host.features ?? o?.features;
  if (features !== undefined) {
    check(
      Array.isArray(features) && features.length > 0 && features.every((f) => typeof f === 'string'),
      'E_INPUT',
      () => `${source}: the export "features" must be a non-empty array of column names`,
    );
  }
  const positive = host.positive ?? o?.positive;
  check(
    positive === undefined || (typeof positive === 'string' && positive !== ''),
    'E_INPUT',
    () =>
      `${source}: the export "positive" must be the label value whose probability predict returns (a non-empty string)`,
  );
  const declared = host.output ?? o?.output;
  const output = declared === undefined ? undefined : parseModelOutput(declared, `${source}: the export "output"`);
  check(
    positive === undefined || output === undefined || output.kind === 'binary' || output.kind === 'score',
    'E_INPUT',
    () =>
      `${source}: the export "positive" names the class a binary model or a score favours, but the export ` +
      `"output" says ${output!.kind}; drop one of them`,
  );
  const fn = host.predict as ModelModule['predict'];
  return {
    predict: (rows) => fn.call(host, rows),
    features: features as string[] | undefined,
    positive: positive as string | undefined,
    ...(output !== undefined ? { output } : {}),
  };
}

/** A module's classes from its `positive` export. */
export const moduleClasses = (positive: string): ModelClasses => ({ positive, recordedIn: 'the module exports' });

export interface ModuleOptions {
  /** rows per call of `predict` (default 8192), so a large table never becomes one huge array of objects */
  batchSize?: number;
}

/**
 * A JS model as a black box. `predict(rows)` gets plain objects keyed by column name (the module's
 * `features` when it exports them, else every column of the table), may be sync or async, and
 * must return what its `output` export says (without one, one P(positive) per row) as an array or typed array
 * (checkPredictions). A throw is rethrown as an E_INPUT error naming the module and the rows of the failing call.
 */
export function moduleBlackBox(mod: ModelModule, source: string, opts: ModuleOptions = {}): BlackBox {
  const batch = opts.batchSize ?? 8192;
  check(
    Number.isInteger(batch) && batch > 0,
    'E_ARG',
    () => `moduleBlackBox: batchSize must be a positive integer, got ${batch}`,
  );
  return {
    kind: 'module',
    source,
    features: mod.features?.slice(),
    ...(mod.positive !== undefined ? { classes: moduleClasses(mod.positive) } : {}),
    ...(mod.output !== undefined ? { output: mod.output } : {}),
    predict: async (table) => {
      const n = table.rows;
      const output = mod.output ?? BINARY_OUTPUT;
      const k = outputWidth(output);
      const out = new Float64Array(n * k);
      for (let start = 0; start < n; start += batch) {
        const end = Math.min(n, start + batch);
        const rows = tableRows(table, mod.features, start, end, source);
        let p: ModulePredictions;
        try {
          p = await mod.predict(rows);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          const span = start === 0 && end === n ? '' : ` (rows ${start + 1}–${end})`;
          throw inputError(`${source}: predict threw${span}: ${msg.split('\n')[0]}`);
        }
        out.set(checkPredictions(p, end - start, `${source}: predict`, start, output), start * k);
      }
      return out;
    },
  };
}
