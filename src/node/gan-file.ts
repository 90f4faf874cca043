// Node layer for LUCID-GAN: the .lgan model file (see src/models/lucidgan/format.ts) and the two
// file-to-file operations behind `lucid gan fit` and `lucid gan sample`.
import type { Engine } from '../engine/engine.js';
import { ganFromJSON, ganToJSON } from '../models/lucidgan/format.js';
import {
  LucidGan,
  type FitOptions,
  type FitResult,
  type FitStatus,
  type SampleOptions,
  type SampleResult,
} from '../models/lucidgan/model.js';
import { requireColumns, withoutIdentifiers } from '../data/table.js';
import { writeCsv, type ReadReport } from './csv.js';
import { readTable, type TableReadOptions as ReadOptions } from './read-table.js';
import { fileError, readJsonFile, writeJsonFile } from './json-file.js';

/** Writes the model file (through a temporary file and a rename, so a crash never leaves half a file). */
export async function saveGan(file: string, model: LucidGan, status: FitStatus = 'done'): Promise<void> {
  await writeJsonFile(file, ganToJSON(model, status));
}

/**
 * Reads a model file; every problem (missing, truncated, corrupt, foreign, other version) is one E_INPUT line naming
 * it.
 */
export async function loadGan(engine: Engine, file: string): Promise<LucidGan> {
  const json = await readJsonFile(
    file,
    (msg, truncated) =>
      `${file}: not a LUCID-GAN model file: ` +
      `${truncated ? 'the JSON ends early (truncated file?)' : `not JSON (${msg})`}`,
  );
  return ganFromJSON(engine, json, file);
}

export interface FitFileOptions extends Omit<FitOptions, 'where'> {
  data: string;
  out: string;
  read?: ReadOptions;
}

export interface FitFileResult extends FitResult {
  report: ReadReport;
}

/**
 * Reads a CSV file, fits a LUCID-GAN and writes the model file (also after an interruption or divergence: the last good
 * state).
 */
export async function fitGanFile(engine: Engine, opts: FitFileOptions): Promise<FitFileResult> {
  const { data, out, read, ...fit } = opts;
  const { table, report } = await readTable(data, read ?? {});
  requireColumns(table, data, {
    '--condition': fit.conditions,
    '--discrete': fit.discrete,
    '--consistency': fit.consistency,
  });
  // identifier-like columns are left out (the reader's warning says so and how to keep one)
  const r = await LucidGan.fit(engine, withoutIdentifiers(table).table, { ...fit, where: data });
  try {
    await saveGan(out, r.model, r.status);
  } catch (e) {
    r.model.dispose();
    throw e;
  }
  return { ...r, report };
}

export interface SampleFileOptions extends SampleOptions {
  model: string;
  out: string;
}

/** Loads a model file, samples and writes the rows as CSV. */
export async function sampleGanFile(
  engine: Engine,
  opts: SampleFileOptions,
): Promise<SampleResult & { model: LucidGan }> {
  const { model: file, out, ...sample } = opts;
  const model = await loadGan(engine, file);
  try {
    const r = model.sample(sample);
    try {
      await writeCsv(out, r.table);
    } catch (e) {
      throw fileError(e, out, 'write');
    }
    return { ...r, model };
  } catch (e) {
    model.dispose();
    throw e;
  }
}
