// Node layer of the audit: read a CSV and a model, run the audit (src/audit), and write the report
// folder (report.html, CSV and JSON of every table and canonical set, audit.json), each file's name
// and text as src/report made them. Also the demo's index page linking several reports.
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { requireColumns, type Table } from '../data/table.js';
import { runAnyAudit, runAudit, type AuditOptions } from '../audit/run.js';
import { checkProtectedEdges } from '../audit/plan.js';
import type { AnyAuditResult, AuditResult } from '../audit/types.js';
import { auditFiles } from '../report/audit-files.js';
import { REPORT_FILE } from '../report/files.js';
import { DEMO_INDEX_FILE, demoIndexHtml, type DemoIndexEntry } from '../report/demo-index.js';
import type { WrittenAudit } from '../report/summary.js';

export type { WrittenAudit };
import { resolveBlackBox } from './blackbox.js';
import { requireClean, type ReadReport } from './csv.js';
import { readTable, type TableReadOptions as ReadOptions } from './read-table.js';
import { fileError, writeTextFile } from './json-file.js';
import { DirGanStore, readGanHandover } from './gan-cache.js';
import { withGanWorkers } from './gan-workers.js';
import { Sha256 } from '../data/sha256.js';

/**
 * The output folder, checked before any work (a bad --out must not cost an audit), and not made
 * yet (a usage error found later leaves nothing behind): an existing folder that can be written, or a
 * path whose nearest existing folder can be written (writeAudit creates the rest). A file there, or on
 * the path, is a usage error saying that a folder was expected.
 */
export async function prepareOutDir(dir: string, flag = '--out'): Promise<void> {
  const expected = 'expected a folder to write the report in (it is created if it does not exist)';
  let at = dir;
  for (;;) {
    const st = await stat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      if (e.code === 'ENOTDIR')
        throw new EngineError('E_ARG', `${flag} ${dir}: a part of the path is a file; ${expected}`);
      throw new EngineError('E_ARG', `${flag} ${dir}: cannot be read (${e.code ?? e.message}); ${expected}`);
    });
    if (st) {
      if (!st.isDirectory())
        throw new EngineError(
          'E_ARG',
          at === dir ? `${flag} ${dir}: is a file; ${expected}` : `${flag} ${dir}: ${at} is a file; ${expected}`,
        );
      break;
    }
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  try {
    await access(at, constants.W_OK | constants.X_OK);
  } catch {
    throw new EngineError(
      'E_ARG',
      `${flag} ${dir}: ${at === dir ? 'the folder' : `the folder ${at}`} cannot be written (permission denied); ` +
        `${expected}`,
    );
  }
}

/**
 * An output file given by `flag` (--markdown, --junit), checked before any work: not a folder, and the
 * nearest folder on its path that exists (the rest is created when it is written) is a folder that
 * can be written.
 */
export async function requireWritableFile(file: string, flag: string): Promise<void> {
  const st = await stat(file).catch(() => null);
  if (st?.isDirectory()) throw new EngineError('E_ARG', `${flag} ${file}: is a folder; expected a file to write`);
  let dir = dirname(file);
  for (;;) {
    const d = await stat(dir).catch(() => null);
    if (d) {
      if (!d.isDirectory())
        throw new EngineError('E_ARG', `${flag} ${file}: ${dir} is a file, not a folder; expected a file path`);
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  // the file is written through a temporary file in its folder and a rename: the folder must be writable
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new EngineError('E_ARG', `${flag} ${file}: the folder ${dir} cannot be written (permission denied)`);
  }
}

/** SHA-256 of a file's bytes (the core's pure-TS hash, so the CLI and the browser page agree). */
export async function fileSha256(file: string): Promise<{ sha256: string; bytes: number }> {
  const h = new Sha256();
  try {
    for await (const chunk of createReadStream(file)) {
      const b = chunk as Buffer;
      h.update(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    }
  } catch (e) {
    throw fileError(e, file, 'read');
  }
  return { sha256: h.hex(), bytes: h.length };
}

async function write(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (e) {
    throw fileError(e, file, 'write');
  }
}

/**
 * Writes the audit folder `dir` (created if needed): the files of auditFiles (planned by
 * src/report/sections.ts, the list the browser page offers too), one at a time, report.html among
 * them and audit.json last.
 */
export async function writeAudit(dir: string, result: AnyAuditResult): Promise<WrittenAudit> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fileError(e, dir, 'create');
  }
  const files: string[] = [];
  for (const f of auditFiles(result)) {
    await write(join(dir, f.name), f.text);
    files.push(f.name);
  }
  return { dir, report: join(dir, REPORT_FILE), files };
}

export interface AuditFileOptions
  extends Omit<AuditOptions, 'model' | 'source' | 'ganCache' | 'ganSet' | 'ganWorkers'> {
  /**
   * train the GAN seeds side by side in workers when the engine has 2 or more threads (default SIDE_BY_SIDE_DEFAULT;
   * `--gan-side-by-side`)
   */
  ganSideBySide?: boolean;
  /** the audit data (CSV) */
  data: string;
  /** the folder of trained generators reused and kept (gan-cache.ts; `--gan-cache`); absent or null: no cache */
  ganCacheDir?: string | null;
  /** a file of trained generators to use instead of training (`--gan`; it must fit the audit) */
  gan?: string;
  /** write the audit's set of generators (trained or reused) to this file (`--gan-save`) */
  ganSave?: string;
  /** a model file, of a kind in src/models/adapters.ts (model.json, a JS module, an .onnx file); or `pred` */
  model?: string;
  /** seconds a JS-module model may take to load and to answer one call of predict (default 60) */
  modelTimeout?: number;
  read?: ReadOptions;
}

/** Reads the CSV, loads the model (or checks the predictions column) and runs the audit of a binary decision. */
export function auditFile(engine: Engine, opts: AuditFileOptions): Promise<{ result: AuditResult; read: ReadReport }> {
  return auditFileWith(engine, opts, runAudit);
}

/**
 * As auditFile, for an output of any kind (`lucid audit`): a score, multiclass or regression output gets its group
 * metrics (runAnyAudit).
 */
export function auditAnyFile(
  engine: Engine,
  opts: AuditFileOptions,
): Promise<{ result: AnyAuditResult; read: ReadReport }> {
  return auditFileWith(engine, opts, runAnyAudit);
}

async function auditFileWith<R extends AnyAuditResult>(
  engine: Engine,
  opts: AuditFileOptions,
  run: (engine: Engine, table: Table, opts: AuditOptions) => Promise<R>,
): Promise<{ result: R; read: ReadReport }> {
  const {
    data,
    model: modelFile,
    modelTimeout,
    read,
    ganCacheDir,
    gan: ganFile,
    ganSave,
    ganSideBySide,
    ...rest
  } = opts;
  if (ganSave) await requireWritableFile(ganSave, '--gan-save');
  const ganSet = ganFile !== undefined ? await readGanHandover(ganFile) : undefined;
  const { table, report } = await readTable(data, read ?? {});
  requireClean(report, [rest.label, rest.pred, ...rest.protected], 'the label, predictions or protected');
  requireColumns(table, data, {
    '--label': rest.label,
    '--protected': rest.protected,
    '--pred': rest.pred,
    '--legitimate': rest.legitimate,
    '--reference': Object.keys(rest.reference ?? {}),
  });
  checkProtectedEdges(
    rest.protectedEdges ?? {},
    rest.protected,
    (c) => `--protected-edges names "${c}", which is not among --protected (${rest.protected.join(', ')})`,
  );
  const model =
    modelFile !== undefined ? await resolveBlackBox(engine, { model: modelFile }, table, { modelTimeout }) : undefined;
  // provenance: the data file's hash over the bytes the reader parsed, the model file's over its bytes
  const modelHash = modelFile !== undefined ? await fileSha256(modelFile) : undefined;
  const provenance = {
    ...rest.provenance,
    ...(report.sha256 ? { dataSha256: report.sha256, dataBytes: report.bytes } : {}),
    ...(modelHash ? { modelSha256: modelHash.sha256 } : {}),
  };
  // trained generators: a file handed over (read before any work), else the cache (a store without a folder when only
  // --gan-save asks for the set)
  const store = ganSet === undefined && (ganCacheDir || ganSave) ? new DirGanStore(ganCacheDir ?? null) : undefined;
  const result = await withGanWorkers(engine, ganSideBySide, (ganWorkers) =>
    run(engine, table, {
      ...rest,
      model,
      source: data,
      provenance,
      ...(ganSet ? { ganSet } : {}),
      ...(store ? { ganCache: store } : {}),
      ...(ganWorkers ? { ganWorkers } : {}),
    }),
  );
  if (ganSave) {
    const text = ganSet ? JSON.stringify(ganSet.json) : store?.last;
    if (text) {
      await mkdir(dirname(ganSave), { recursive: true });
      await writeTextFile(ganSave, text, 0o600);
    } else
      result.warnings.push(`--gan-save ${ganSave}: no complete set of generators to write (training was cut short)`);
  }
  // rows the reader's missing-value policy left out: said in the report, not only on the terminal
  const m = report.missing;
  if (m.rowsDropped > 0) {
    const cols = m.columns
      .filter((c) => c.rowsDropped > 0)
      .map((c) => `"${c.name}"`)
      .join(', ');
    result.warnings.push(
      `${data}: ${m.rowsDropped} row${m.rowsDropped === 1 ? '' : 's'} with a missing value (in ${cols}; first on ` +
        `${report.unit ?? 'line'} ${m.firstDroppedLines[0]}) left out by --missing ${m.policy}: the audit covers ` +
        `${table.rows} of ${table.rows + m.rowsDropped} rows`,
    );
  }
  return { result, read: report };
}

/** The demo's index page (demoIndexHtml): per report what was planted, what the audit found and whether they match. */
export async function writeDemoIndex(dir: string, entries: readonly DemoIndexEntry[]): Promise<string> {
  const html = demoIndexHtml(entries);
  await mkdir(dir, { recursive: true });
  const file = join(dir, DEMO_INDEX_FILE);
  await write(file, html);
  return file;
}
