// Node layer: model files (JSON with a format tag and version, see Classifier.toJSON) and the two
// file-to-file operations behind `lucid model train` and `lucid model predict`.
import type { Engine } from '../engine/engine.js';
import { EngineError, UnknownColumnError } from '../engine/errors.js';
import { requireColumns, type Column, type Table } from '../data/table.js';
import { Classifier, type EpochReport, type TrainOptions, type TrainResult } from '../models/classifier/classifier.js';
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
}

/** Reads a CSV file, trains a classifier on it and saves the model to `out`. */
export async function trainModelFile(engine: Engine, opts: TrainFileOptions): Promise<TrainFileResult> {
  const { data, out, read, ...train } = opts;
  const { table, report } = await readTable(data, read ?? {});
  requireColumns(table, data, { '--label': train.label });
  const result = Classifier.train(engine, table, { where: data, ...train });
  try {
    await saveModel(out, result.model);
  } catch (e) {
    result.model.dispose();
    throw e;
  }
  const best = result.history.find((h) => h.epoch === result.bestEpoch) ?? result.history[result.history.length - 1];
  return { ...result, report, best };
}

export interface PredictFileOptions {
  model: string;
  data: string;
  out: string;
  /** name of the appended column (default "preds", the name LUCID-GAN conditions on) */
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
  /** share of rows with P(positive) > 0.5 */
  positiveRate: number;
}

/** Reads a model and a CSV file, appends P(positive) per row as `column`, and writes the table to `out`. */
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
    if (table.columns.some((c) => c.name === column)) {
      throw new EngineError(
        'E_ARG',
        `${opts.data}: already has a column "${column}"; name the predictions column with --column`,
      );
    }
    const p = model.predictProba(engine, table, opts.data);
    const col: Column = { kind: 'numeric', name: column, values: p };
    const outTable: Table = { rows: table.rows, columns: [...table.columns, col] };
    // the input's delimiter when it can be written (a whitespace-separated file becomes comma-separated)
    const delimiter = opts.write?.delimiter ?? (report.delimiter === 'whitespace' ? ',' : report.delimiter);
    await writeCsv(opts.out, outTable, { ...opts.write, delimiter });
    let pos = 0;
    for (const v of p) pos += v > 0.5 ? 1 : 0;
    return { model, report, rows: table.rows, column, positiveRate: table.rows ? pos / table.rows : NaN };
  } catch (e) {
    model.dispose();
    throw e;
  }
}
