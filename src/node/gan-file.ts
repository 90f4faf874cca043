// Node layer for LUCID-GAN: the .lgan model file (see src/models/lucidgan/format.ts) and the two
// file-to-file operations behind `lucid gan fit` and `lucid gan sample`.
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { ganFromJSON, ganToJSON } from '../models/lucidgan/format.js';
import { LucidGan, type FitOptions, type FitResult, type FitStatus, type SampleOptions, type SampleResult } from '../models/lucidgan/model.js';
import { readCsv, writeCsv, type ReadOptions, type ReadReport } from './csv.js';

function fileError(e: unknown, file: string, verb: string): unknown {
  if (e instanceof EngineError) return e;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new EngineError('E_INPUT', `${file}: file not found`);
  if (code === 'EISDIR') return new EngineError('E_INPUT', `${file}: is a directory, not a file`);
  if (code === 'EACCES' || code === 'EPERM') return new EngineError('E_INPUT', `${file}: permission denied`);
  if (typeof code === 'string') return new EngineError('E_INPUT', `${file}: cannot ${verb} the file (${code})`);
  return e;
}

/** Writes the model file (through a temporary file and a rename, so a crash never leaves half a file). */
export async function saveGan(file: string, model: LucidGan, status: FitStatus = 'done'): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, `${JSON.stringify(ganToJSON(model, status))}\n`);
    await rename(tmp, file);
  } catch (e) {
    throw fileError(e, file, 'write');
  }
}

/** Reads a model file; every problem (missing, truncated, corrupt, foreign, other version) is one E_INPUT line naming it. */
export async function loadGan(engine: Engine, file: string): Promise<LucidGan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw fileError(e, file, 'read');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    const truncated = text.trim() !== '' && (/end of (JSON )?input|Unterminated/i.test(msg) || (at !== null && Number(at[1]) >= text.trimEnd().length));
    throw new EngineError('E_INPUT', `${file}: not a LUCID-GAN model file: ${truncated ? 'the JSON ends early (truncated file?)' : `not JSON (${(e as Error).message})`}`);
  }
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

/** Reads a CSV file, fits a LUCID-GAN and writes the model file (also after an interruption or divergence: the last good state). */
export async function fitGanFile(engine: Engine, opts: FitFileOptions): Promise<FitFileResult> {
  const { data, out, read, ...fit } = opts;
  const { table, report } = await readCsv(data, read ?? {});
  const r = await LucidGan.fit(engine, table, { ...fit, where: data });
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
export async function sampleGanFile(engine: Engine, opts: SampleFileOptions): Promise<SampleResult & { model: LucidGan }> {
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
