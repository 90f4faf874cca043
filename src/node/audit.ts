// Node layer of the audit: read a CSV and a model, run the audit (src/audit), and write the report
// folder (report.html, CSV and JSON of every table and canonical set, audit.json). Also the demo's
// index page linking several reports.
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { csvField } from '../data/csv-write.js';
import { requireColumns, type Table } from '../data/table.js';
import { runAudit, type AuditOptions } from '../audit/run.js';
import { withSeedColumn } from '../audit/canonical.js';
import type { AuditResult, CanonicalComparison, Distribution } from '../audit/types.js';
import { formatMetricsCsv } from '../methods/metrics/index.js';
import { faleCsv } from '../methods/fale/index.js';
import { demoIndexHtml, renderReport, type DemoIndexEntry } from '../report/index.js';
import { resolveBlackBox } from './blackbox.js';
import { requireClean, writeCsv, type ReadReport } from './csv.js';
import { readTable, type TableReadOptions as ReadOptions } from './read-table.js';
import { fileError, writeTextFile } from './json-file.js';
import { DirGanStore, readGanHandover } from './gan-cache.js';
import { withGanWorkers } from './gan-workers.js';
import { Sha256 } from '../data/sha256.js';

/**
 * The output folder, checked before any work (#33: a bad --out must not cost an audit), and not made
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
      if (e.code === 'ENOTDIR') throw new EngineError('E_ARG', `${flag} ${dir}: a part of the path is a file; ${expected}`);
      throw new EngineError('E_ARG', `${flag} ${dir}: cannot be read (${e.code ?? e.message}); ${expected}`);
    });
    if (st) {
      if (!st.isDirectory()) throw new EngineError('E_ARG', at === dir ? `${flag} ${dir}: is a file; ${expected}` : `${flag} ${dir}: ${at} is a file; ${expected}`);
      break;
    }
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  try {
    await access(at, constants.W_OK | constants.X_OK);
  } catch {
    throw new EngineError('E_ARG', `${flag} ${dir}: ${at === dir ? 'the folder' : `the folder ${at}`} cannot be written (permission denied); ${expected}`);
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
      if (!d.isDirectory()) throw new EngineError('E_ARG', `${flag} ${file}: ${dir} is a file, not a folder; expected a file path`);
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
    for await (const chunk of createReadStream(file)) { const b = chunk as Buffer; h.update(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)); }
  } catch (e) {
    throw fileError(e, file, 'read');
  }
  return { sha256: h.hex(), bytes: h.length };
}

/** A file name from any text: letters, digits, ".", "_", "-" and "=" kept, anything else "_". */
export function safeFileName(s: string): string {
  const t = s.replace(/[^A-Za-z0-9._=-]+/g, '_').replace(/^[.]+/, '_');
  return t.slice(0, 150) || '_';
}

/** JSON with typed arrays as plain arrays. */
const toJson = (obj: unknown, pretty = true): string =>
  JSON.stringify(obj, (_k, v: unknown) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v), pretty ? 2 : undefined) + '\n';

async function write(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (e) {
    throw fileError(e, file, 'write');
  }
}

interface TableRef {
  file: string;
  rows: number;
  columns: string[];
}

const ref = (file: string, t: Table): TableRef => ({ file, rows: t.rows, columns: t.columns.map((c) => c.name) });

/** distributions.csv: one line per (set, feature): rank, role, kind, js, and each series' n. */
function distributionsCsv(sets: { set: string; distributions: Distribution[] }[]): string {
  const lines = ['set,rank,feature,role,kind,js,bins,series'];
  for (const s of sets) {
    s.distributions.forEach((d, i) => {
      const bins = d.kind === 'numeric' ? (d.edges?.length ?? 1) - 1 : (d.categories?.length ?? 0);
      lines.push([s.set, i + 1, d.feature, d.role, d.kind, d.js, bins, d.series.map((x) => `${x.name} (n=${x.n})`).join('; ')].map(csvField).join(','));
    });
  }
  return lines.join('\n') + '\n';
}

export interface WrittenAudit {
  dir: string;
  report: string;
  files: string[];
}

/**
 * Writes the audit folder `dir` (created if needed): report.html, metrics.{json,csv},
 * metrics-intersection.{json,csv}, canonical-{positive,negative}.csv, one pair of CSVs per
 * intersection set, distributions.{csv,json} (with the conditional sets of AuditResult.conditional as
 * "conditional-<A>=<a>"), lucid-{canonical,start}.csv, fale-<attr>.{json,csv},
 * protected-bins.json and audit.json (the whole result with tables as file references).
 */
export async function writeAudit(dir: string, result: AuditResult): Promise<WrittenAudit> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fileError(e, dir, 'create');
  }
  const files: string[] = [];
  const put = async (name: string, text: string) => {
    await write(join(dir, name), text);
    files.push(name);
  };
  const putTable = async (name: string, t: Table) => {
    await writeCsv(join(dir, name), t);
    files.push(name);
    return ref(name, t);
  };
  const { metrics } = result;
  await put('metrics.json', toJson(metrics.attributes));
  await put('metrics.csv', formatMetricsCsv(metrics.attributes));
  if (metrics.intersection) {
    await put('metrics-intersection.json', toJson(metrics.intersection));
    await put('metrics-intersection.csv', formatMetricsCsv(metrics.intersection));
  }
  const setRefs = async (c: CanonicalComparison, stem: string) => ({
    ...c,
    positive: await putTable(`${stem}-positive.csv`, withSeedColumn(c, 'positive')),
    negative: await putTable(`${stem}-negative.csv`, withSeedColumn(c, 'negative')),
  });
  const canonical = await setRefs(result.canonical, 'canonical');
  const intersections = [];
  for (const it of result.intersections) {
    const sets = [];
    for (const s of it.sets) sets.push(await setRefs(s, safeFileName(s.name)));
    intersections.push({ ...it, sets });
  }
  const distSets = [
    { set: 'canonical', distributions: result.canonical.distributions },
    ...result.intersections.flatMap((it) => it.sets.map((s) => ({ set: s.name, distributions: s.distributions }))),
    // the paper's protocol: one protected category fixed (set "conditional-<A>=<a>"; shares in distributions.json)
    ...(result.conditional ?? []).map((c) => ({ set: `conditional-${c.fixed[0]}=${c.fixed[1]}`, distributions: c.distributions })),
    ...(result.lucid.distributions ? [{ set: 'lucid', distributions: result.lucid.distributions }] : []),
  ];
  await put('distributions.csv', distributionsCsv(distSets));
  await put('distributions.json', toJson(distSets));
  const lucid: Record<string, unknown> = { ...result.lucid };
  if (result.lucid.canonical) lucid.canonical = await putTable('lucid-canonical.csv', result.lucid.canonical);
  if (result.lucid.start) lucid.start = await putTable('lucid-start.csv', result.lucid.start);
  const fale = [];
  for (const f of result.fale) {
    const stem = `fale-${safeFileName(f.attribute)}`;
    await put(`${stem}.json`, toJson(f));
    await put(`${stem}.csv`, faleCsv(f.result));
    fale.push({ ...f, files: [`${stem}.json`, `${stem}.csv`] });
  }
  await put('protected-bins.json', toJson(result.protected.map((p) => ({ column: p.column, groupColumn: p.groupColumn, kind: p.kind, inModel: p.inModel, bins: p.bins ?? null }))));
  const report = 'report.html';
  await put(report, renderReport(result));
  files.push('audit.json');
  const summary = { ...result, canonical, intersections, lucid, fale, files };
  await write(join(dir, 'audit.json'), toJson(summary));
  return { dir, report: join(dir, report), files };
}

export interface AuditFileOptions extends Omit<AuditOptions, 'model' | 'source' | 'ganCache' | 'ganSet' | 'ganWorkers'> {
  /** train the GAN seeds side by side in workers when the engine has 2 or more threads (default SIDE_BY_SIDE_DEFAULT; `--gan-side-by-side`) */
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

/** Reads the CSV, loads the model (or checks the predictions column) and runs the audit. */
export async function auditFile(engine: Engine, opts: AuditFileOptions): Promise<{ result: AuditResult; read: ReadReport }> {
  const { data, model: modelFile, modelTimeout, read, ganCacheDir, gan: ganFile, ganSave, ganSideBySide, ...rest } = opts;
  if ((modelFile === undefined) === (rest.pred === undefined)) {
    throw new EngineError('E_ARG', 'give exactly one of --model (a model to call) and --pred (a column of predictions)');
  }
  if (ganSave) await requireWritableFile(ganSave, '--gan-save');
  const ganSet = ganFile !== undefined ? await readGanHandover(ganFile) : undefined;
  const { table, report } = await readTable(data, read ?? {});
  requireClean(report, [rest.label, rest.pred, ...rest.protected], 'the label, predictions or protected');
  requireColumns(table, data, { '--label': rest.label, '--protected': rest.protected, '--pred': rest.pred, '--legitimate': rest.legitimate, '--reference': Object.keys(rest.reference ?? {}) });
  for (const c of Object.keys(rest.protectedEdges ?? {})) {
    if (!rest.protected.includes(c)) throw new EngineError('E_ARG', `--protected-edges names "${c}", which is not among --protected (${rest.protected.join(', ')})`);
  }
  const model = modelFile !== undefined ? await resolveBlackBox(engine, { model: modelFile }, table, { modelTimeout }) : undefined;
  // provenance: the data file's hash over the bytes the reader parsed, the model file's over its bytes
  const modelHash = modelFile !== undefined ? await fileSha256(modelFile) : undefined;
  const provenance = { ...rest.provenance, ...(report.sha256 ? { dataSha256: report.sha256, dataBytes: report.bytes } : {}), ...(modelHash ? { modelSha256: modelHash.sha256 } : {}) };
  // trained generators: a file handed over (read before any work), else the cache (a store without a folder when only --gan-save asks for the set)
  const store = ganSet === undefined && (ganCacheDir || ganSave) ? new DirGanStore(ganCacheDir ?? null) : undefined;
  const result = await withGanWorkers(engine, ganSideBySide, (ganWorkers) => runAudit(engine, table, { ...rest, model, source: data, provenance, ...(ganSet ? { ganSet } : {}), ...(store ? { ganCache: store } : {}), ...(ganWorkers ? { ganWorkers } : {}) }));
  if (ganSave) {
    const text = ganSet ? JSON.stringify(ganSet.json) : store?.last;
    if (text) {
      await mkdir(dirname(ganSave), { recursive: true });
      await writeTextFile(ganSave, text, 0o600);
    }
    else result.warnings.push(`--gan-save ${ganSave}: no complete set of generators to write (training was cut short)`);
  }
  // rows the reader's missing-value policy left out: said in the report, not only on the terminal
  const m = report.missing;
  if (m.rowsDropped > 0) {
    const cols = m.columns.filter((c) => c.rowsDropped > 0).map((c) => `"${c.name}"`).join(', ');
    result.warnings.push(`${data}: ${m.rowsDropped} row${m.rowsDropped === 1 ? '' : 's'} with a missing value (in ${cols}; first on ${report.unit ?? 'line'} ${m.firstDroppedLines[0]}) left out by --missing ${m.policy}: the audit covers ${table.rows} of ${table.rows + m.rowsDropped} rows`);
  }
  return { result, read: report };
}

/** The demo's index page (demoIndexHtml): per report what was planted, what the audit found and whether they match. */
export async function writeDemoIndex(dir: string, entries: readonly DemoIndexEntry[]): Promise<string> {
  const html = demoIndexHtml(entries);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'index.html');
  await write(file, html);
  return file;
}
