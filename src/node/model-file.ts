// Node layer: model files (JSON with a format tag and version, see Classifier.toJSON) and the two
// file-to-file operations behind `lucid model train` and `lucid model predict`.
import type { Engine } from '../engine/engine.js';
import { EngineError, UnknownColumnError } from '../engine/errors.js';
import { getColumn, requireColumns, type Column, type Table } from '../data/table.js';
import {
  argmaxRow,
  Classifier,
  type BuiltinOutputKind,
  type EpochReport,
  type TrainOptions,
  type TrainResult,
} from '../models/classifier/classifier.js';
import { MAX_CLASSES } from '../methods/metrics/outputs.js';
import { writeCsv, type ReadReport, type WriteOptions } from './csv.js';
import { readTable, type TableReadOptions as ReadOptions } from './read-table.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/** Writes a model as JSON (one object: format tag, version, checksum, label, preprocessing, layers). */
export async function saveModel(file: string, model: Classifier): Promise<void> {
  await writeJsonFile(file, model.toJSON());
}

export interface LoadModelOptions {
  /** where the warning about a model file without a checksum goes (default: a "lucid: warning:" line on stderr) */
  warn?: (message: string) => void;
}

const stderrWarning = (message: string) => {
  process.stderr.write(`lucid: warning: ${message}\n`);
};

/**
 * Reads a model file. Errors are E_INPUT and name the file: not found, not JSON, not a lucid-wasm
 * model (format tag), an unsupported version, the first bad field, or a checksum that does not match
 * (the file was changed or damaged after it was written). A file without a checksum (written before
 * model files had one) loads, with a warning that it cannot be verified.
 */
export async function loadModel(engine: Engine, file: string, opts: LoadModelOptions = {}): Promise<Classifier> {
  const json = await readJsonFile(
    file,
    (msg) => `${file}: not a JSON file (${msg}); a model file is what "lucid model train" writes`,
  );
  return Classifier.fromJSON(engine, json, file, { unverified: opts.warn ?? stderrWarning });
}

export interface TrainFileOptions extends Omit<TrainOptions, 'validation'> {
  data: string;
  out: string;
  read?: ReadOptions;
}

export interface TrainFileResult extends TrainResult {
  report: ReadReport;
  /** the kept epoch's validation figures (NaN without validation) */
  best: EpochReport;
  /** what was trained and why ("inferred multiclass: …", or as --output says) */
  output: TrainOutputChoice;
}

/** What `lucid model train` trains, with the reason it prints. */
export interface TrainOutputChoice {
  kind: BuiltinOutputKind;
  /** one sentence: 'inferred regression: the label "hours" holds 94 distinct numbers (more than 20)' */
  reason: string;
  /** whether --output named it */
  given: boolean;
}

/**
 * What to train for the label `col` when `--output` does not say: binary when --positive names a class (one against
 * the rest, as before output kinds) or the label has two values; a numeric label with more than MAX_CLASSES distinct
 * values (outputs.ts: hours per week, not a 1–5 rating) → regression; else more than two values → multiclass.
 */
export function trainOutputOf(
  col: Column,
  given: BuiltinOutputKind | undefined,
  positive: string | undefined,
): TrainOutputChoice {
  if (given !== undefined) return { kind: given, reason: `${given}, as --output says`, given: true };
  const distinct = new Set<string | number>();
  if (col.kind === 'numeric') for (const v of col.values) !Number.isNaN(v) && distinct.add(v);
  else for (const c of col.codes) c >= 0 && distinct.add(col.categories[c]);
  const n = distinct.size;
  const the = `the label "${col.name}"`;
  let kind: BuiltinOutputKind;
  let why: string;
  if (positive !== undefined) {
    kind = 'binary';
    why = `--positive names the class predicted as 1`;
  } else if (col.kind === 'numeric' && n > MAX_CLASSES) {
    kind = 'regression';
    why = `${the} holds ${n} distinct numbers, more than ${MAX_CLASSES}`;
  } else {
    kind = n > 2 ? 'multiclass' : 'binary';
    why = `${the} has ${n} value${n === 1 ? '' : 's'}`;
  }
  return { kind, reason: `inferred ${kind}: ${why} (choose with --output)`, given: false };
}

/** Reads a CSV file, trains a model on it (for `output`, or as trainOutputOf infers) and saves it to `out`. */
export async function trainModelFile(engine: Engine, opts: TrainFileOptions): Promise<TrainFileResult> {
  const { data, out, read, ...train } = opts;
  const { table, report } = await readTable(data, read ?? {});
  requireColumns(table, data, { '--label': train.label });
  const output = trainOutputOf(getColumn(table, train.label, data, 'label'), train.output, train.positive);
  if (output.kind !== 'binary' && train.positive !== undefined)
    throw new EngineError('E_ARG', `--positive is for a binary model; --output ${output.kind} has no positive class`);
  const result = Classifier.train(engine, table, { where: data, ...train, output: output.kind });
  try {
    await saveModel(out, result.model);
  } catch (e) {
    result.model.dispose();
    throw e;
  }
  const best = result.history.find((h) => h.epoch === result.bestEpoch) ?? result.history[result.history.length - 1];
  return { ...result, report, best, output };
}

export interface PredictFileOptions {
  model: string;
  data: string;
  out: string;
  /**
   * name of the appended column (default "preds", the name LUCID-GAN conditions on): P(positive), the predicted
   * value, or a multiclass model's predicted class (its probabilities follow as `<column>_<class>`)
   */
  column?: string;
  read?: ReadOptions;
  write?: WriteOptions;
  /** the warning about a model file without a checksum (default: stderr), as in loadModel */
  warn?: (message: string) => void;
}

export interface PredictFileResult {
  model: Classifier;
  report: ReadReport;
  rows: number;
  column: string;
  /** every appended column: `column`, then a multiclass model's probability columns in its classes' order */
  columns: string[];
  /** share of rows with P(positive) > 0.5 (NaN for a multiclass model or a regressor) */
  positiveRate: number;
  /** a multiclass model's share of rows predicted as each class, in its classes' order */
  classShares?: number[];
  /** a regressor's mean prediction */
  mean?: number;
}

/** The probability column of class `c` next to a predicted-class column `column`. */
export const classColumnName = (column: string, c: string): string => `${column}_${c}`;

/**
 * Reads a model and a CSV file, appends its predictions per row and writes the table to `out`: P(positive) as
 * `column` (binary); the value (regression); the most probable class as `column` and each class's probability as
 * `<column>_<class>` (multiclass).
 */
export async function predictModelFile(engine: Engine, opts: PredictFileOptions): Promise<PredictFileResult> {
  const column = opts.column ?? 'preds';
  if (column.trim() === '') throw new EngineError('E_ARG', 'predict: the output column name is empty');
  const model = await loadModel(engine, opts.model, { warn: opts.warn });
  try {
    // The model's categorical features are read as labels even when they look like numbers.
    const categorical = model.preprocessor.groups.filter((g) => g.kind === 'categorical').map((g) => g.name);
    const read: ReadOptions = {
      ...opts.read,
      categorical: [
        ...(opts.read?.categorical ?? []),
        ...categorical.filter((c) => !(opts.read?.drop ?? []).includes(c)),
      ],
    };
    const { table, report } = await readTable(opts.data, read).catch((e: unknown) => {
      // a model column the file lacks is reported as the model's need, not as a bad --categorical
      if (e instanceof UnknownColumnError && categorical.includes(e.column))
        return readTable(opts.data, opts.read ?? {});
      throw e;
    });
    // Under 'keep' (the default) the reader drops a row with a missing number; here that would leave the
    // output a row short of the input and misaligned with it, so it is an error, as an unseen category is.
    if (report.missing.policy === 'keep' && report.missing.rowsDropped > 0) {
      const c = report.missing.columns.find((x) => x.rowsDropped > 0)!;
      const n = report.missing.rowsDropped;
      throw new EngineError(
        'E_INPUT',
        `${opts.data}: ${report.unit ?? 'line'} ${c.firstLine}, column "${c.name}": missing value (${n} ` +
          `row${n === 1 ? '' : 's'} with a missing number); predict writes one prediction per input row: fill ` +
          `the values, or pass --missing drop to leave such rows out`,
      );
    }
    const k = model.kind === 'multiclass' ? model.classes.length : 0;
    const names = [column, ...model.classes.slice(0, k).map((c) => classColumnName(column, c))];
    for (const name of names) {
      if (table.columns.some((c) => c.name === name)) {
        throw new EngineError(
          'E_ARG',
          `${opts.data}: already has a column "${name}"; name the predictions column with --column` +
            (name === column ? '' : ` (a multiclass model also appends ${names.slice(1).join(', ')})`),
        );
      }
    }
    const p = model.predictOutput(engine, table, opts.data);
    const n = table.rows;
    let added: Column[];
    let positiveRate = NaN;
    let classShares: number[] | undefined;
    let mean: number | undefined;
    if (model.kind === 'multiclass') {
      const codes = new Int32Array(n);
      const counts = new Array<number>(k).fill(0);
      for (let i = 0; i < n; i++) counts[(codes[i] = argmaxRow(p, i * k, k))]++;
      classShares = counts.map((c) => (n ? c / n : NaN));
      added = [
        { kind: 'categorical', name: column, codes, categories: model.classes.slice() },
        ...model.classes.map(
          (_c, j): Column => ({
            kind: 'numeric',
            name: names[j + 1],
            values: Float64Array.from({ length: n }, (_, i) => p[i * k + j]),
          }),
        ),
      ];
    } else {
      added = [{ kind: 'numeric', name: column, values: p }];
      if (model.kind === 'binary') {
        let pos = 0;
        for (const v of p) pos += v > 0.5 ? 1 : 0;
        positiveRate = n ? pos / n : NaN;
      } else {
        let s = 0;
        for (const v of p) s += v;
        mean = n ? s / n : NaN;
      }
    }
    const outTable: Table = { rows: n, columns: [...table.columns, ...added] };
    // the input's delimiter when it can be written (a whitespace-separated file becomes comma-separated)
    const delimiter = opts.write?.delimiter ?? (report.delimiter === 'whitespace' ? ',' : report.delimiter);
    await writeCsv(opts.out, outTable, { ...opts.write, delimiter });
    return {
      model,
      report,
      rows: n,
      column,
      columns: names,
      positiveRate,
      ...(classShares ? { classShares } : {}),
      ...(mean !== undefined ? { mean } : {}),
    };
  } catch (e) {
    model.dispose();
    throw e;
  }
}
