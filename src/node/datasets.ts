// Node layer for the reference data sets: finding the files, reading them with the streaming CSV
// reader, and handing the tables to the core preprocessing (src/data/datasets.ts).
//
// Where the files are: `opts.dataDir`, else the LUCID_DATA_DIR environment variable, else
// ../shared/data next to the package root. Inside it, each file is looked for in its data set's
// folder first (adult/adult.data, the layout of the shared copy) and then at the top level. The
// files are read, never written, and never belong in the repository.
//
// Adult file variants. The UCI originals have no header line and adult.test begins with the line
// "|1x3 Cross validator"; the shared copies add a header. The first line of each file is inspected
// before reading: a line starting with '|' is UCI's comment and is skipped; a first line whose first
// field is not a number is a header and is skipped. Columns are then taken by position, as the
// reference does (it passes names= to pandas), so the header's spelling does not matter.
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { check, EngineError } from '../engine/errors.js';
import {
  ADULT_COLUMNS,
  adultDataset,
  type AdultNaming,
  COMPAS_COLUMNS_READ,
  compasDataset,
  type Dataset,
  parseSplitIndices,
  prepareAdult,
  prepareCompas,
  type PreparedAdult,
  type PreparedCompas,
  adultNotReference,
  compasNotReference,
  recomputedAdultSplit,
  recomputedCompasSplit,
  type SplitIndices,
  type SplitProvenance,
} from '../data/datasets.js';
import { REFERENCE_SPLIT } from '../data/reference-split.js';
import { TableBuilder } from '../data/schema.js';
import type { Table } from '../data/table.js';
import { readCsv } from './csv.js';

export type DatasetName = 'adult' | 'compas';

export interface DataDirOptions {
  /** the folder holding adult/, compas/ and split_indices.json (overrides LUCID_DATA_DIR) */
  dataDir?: string;
}

/** ../shared/data relative to the package root (this file is dist/src/node/datasets.js). */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../../shared/data', import.meta.url));

/** The data folder and where the choice came from (for messages). */
export function resolveDataDir(opts: DataDirOptions = {}): { dir: string; from: string } {
  if (opts.dataDir) return { dir: resolve(opts.dataDir), from: 'the dataDir option' };
  const env = process.env.LUCID_DATA_DIR;
  if (env) return { dir: resolve(env), from: 'LUCID_DATA_DIR' };
  return { dir: DEFAULT_DATA_DIR, from: 'the default (LUCID_DATA_DIR is not set)' };
}

const FILES: Record<DatasetName, Record<string, string>> = {
  adult: { train: 'adult/adult.data', test: 'adult/adult.test' },
  compas: { data: 'compas/compas-scores-two-years.csv' },
};
/**
 * The reference splits: optional; without the file they are recomputed (data/reference-split.ts), and the report says
 * which.
 */
const SPLITS_FILE = 'split_indices.json';

/** Candidate paths of one file: in its data-set folder, then at the top of the data folder. */
function candidates(dir: string, rel: string): string[] {
  const base = rel.split('/').pop()!;
  return rel === base ? [join(dir, rel)] : [join(dir, rel), join(dir, base)];
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export interface Availability {
  available: boolean;
  dir: string;
  /** role → path found (`splits` only when split_indices.json is there) */
  files: Record<string, string>;
  /** why not, when not: which paths were tried and how to point elsewhere */
  reason: string;
}

/** Whether a data set's files are present (tests use this to skip with `reason`). */
export function datasetAvailability(name: DatasetName, opts: DataDirOptions = {}): Availability {
  const { dir, from } = resolveDataDir(opts);
  const files: Record<string, string> = {};
  const missing: string[] = [];
  for (const [role, rel] of Object.entries(FILES[name])) {
    const tried = candidates(dir, rel);
    const found = tried.find(isFile);
    if (found) files[role] = found;
    else missing.push(`${rel.split('/').pop()} (tried ${tried.join(', ')})`);
  }
  const splits = candidates(dir, SPLITS_FILE).find(isFile);
  if (splits) files.splits = splits;
  const reason =
    missing.length === 0
      ? ''
      : `${name}: ${missing.join('; ')} not found in the data folder ${dir}, chosen by ${from}` +
        (existsSync(dir) ? '' : ' (the folder does not exist)') +
        `; set LUCID_DATA_DIR to the folder holding adult/ and compas/ (where to get them: docs/data.md, "Get the ` +
        `data")`;
  return { available: missing.length === 0, dir, files, reason };
}

function requireFiles(name: DatasetName, opts: DataDirOptions): Record<string, string> {
  const a = datasetAvailability(name, opts);
  check(a.available, 'E_INPUT', () => a.reason);
  return a.files;
}

/**
 * The splits of a data set: the reference's from split_indices.json when the data folder holds it,
 * else the same positions recomputed (data/reference-split.ts), which are the reference's only on its
 * rows: `notReference` says why the rows are not (then the split is said to be a seeded one).
 */
function splitsFor<K extends DatasetName>(
  name: K,
  files: Record<string, string>,
  ref: SplitIndices | null,
  recompute: () => SplitIndices[K],
  notReference: string | null,
): { splits: SplitIndices[K]; split: SplitProvenance } {
  if (ref) return { splits: ref[name], split: { kind: 'file', file: files.splits } };
  const seed = REFERENCE_SPLIT.seed;
  return {
    splits: recompute(),
    split: notReference ? { kind: 'seeded', seed, why: notReference } : { kind: 'recomputed', seed },
  };
}

/** The reference splits, validated. */
export async function readSplitIndices(file: string): Promise<SplitIndices> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new EngineError('E_INPUT', `${file}: cannot read the reference splits: ${(e as Error).message}`);
  }
  return parseSplitIndices(json, file);
}

// ── Adult ────────────────────────────────────────────────────────────────────────────────────────

/** The first two lines of a file (BOM and line ends removed), read without loading the whole file. */
function leadingLines(file: string): [string, string] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = new Uint8Array(16384);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const lines = new TextDecoder()
      .decode(buf.subarray(0, n))
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 2);
    return [lines[0] ?? '', lines[1] ?? ''];
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new EngineError(
      'E_INPUT',
      `${file}: cannot read: ${code === 'ENOENT' ? 'file not found' : (code ?? (e as Error).message)}`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What precedes the data in an Adult file: UCI's '|…' comment line, a header line, both or neither. */
export function adultPreamble(file: string): { comment: boolean; header: boolean } {
  const [first, second] = leadingLines(file);
  check(
    first.trim() !== '',
    'E_INPUT',
    () => `${file}: the first line is empty; expected a data row, a header, or UCI's "|1x3 Cross validator" line`,
  );
  const comment = first.startsWith('|');
  const field = (comment ? second : first).split(',')[0].trim();
  return { comment, header: field !== '' && !Number.isFinite(Number(field)) };
}

/**
 * How the reader sees an Adult file: 15 positional columns, kinds fixed, rows with a missing cell dropped (the
 * reference's dropna).
 */
const ADULT_SCHEMA = {
  numeric: ADULT_COLUMNS.filter((c) => c.kind === 'numeric').map((c) => c.uci),
  categorical: ADULT_COLUMNS.filter((c) => c.kind === 'categorical').map((c) => c.uci),
  missing: 'drop' as const,
};

async function readAdultFile(file: string): Promise<{ table: Table; dropped: number }> {
  const pre = adultPreamble(file);
  const columns = ADULT_COLUMNS.map((c) => c.uci);
  if (!pre.comment) {
    const { table, report } = await readCsv(file, { delimiter: ',', header: pre.header, columns, ...ADULT_SCHEMA });
    return { table, dropped: report.missing.rowsDropped };
  }
  // readCsv reads every line as CSV and has no option to skip one that is not, like UCI's
  // "|1x3 Cross validator". UCI Adult lines are plain comma-separated fields without quotes, so they
  // are split here and fed to the reader's own TableBuilder: the same trimming, missing-value tokens,
  // kinds and messages (with the file's real line numbers) as readCsv.
  const builder = new TableBuilder(file, columns, ADULT_SCHEMA);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  let skip = 1 + (pre.header ? 1 : 0);
  try {
    for await (const raw of lines) {
      line++;
      const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (skip > 0 || text.trim() === '') {
        if (text.trim() !== '') skip--;
        continue;
      }
      check(
        !text.includes('"'),
        'E_INPUT',
        () =>
          `${file}: line ${line} holds a quote; the UCI Adult format has none (read a quoted file without the "|" ` +
          `line)`,
      );
      builder.addRow(text.split(','), line);
    }
  } catch (e) {
    if (e instanceof EngineError) throw e;
    throw new EngineError(
      'E_INPUT',
      `${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  check(
    builder.rowsRead > 0,
    'E_INPUT',
    () => `${file}: no data rows after the "|" line${pre.header ? ' and the header' : ''}`,
  );
  const built = builder.finish();
  return { table: built.table, dropped: built.missing.rowsDropped };
}

/** adult.data and adult.test (any of the variants above) read and preprocessed, without splitting. */
export async function readAdultFiles(
  files: { train: string; test: string },
  opts: { naming?: AdultNaming } = {},
): Promise<PreparedAdult> {
  const [train, test] = await Promise.all([readAdultFile(files.train), readAdultFile(files.test)]);
  const prepared = prepareAdult({ train: train.table, test: test.table }, { naming: opts.naming, where: files });
  // the reader already dropped the rows with a missing cell; count them with any the core dropped
  prepared.dropped.train += train.dropped;
  prepared.dropped.test += test.dropped;
  return prepared;
}

/**
 * UCI Adult with the reference preprocessing and splits: train 24129 / val 6033 from adult.data
 * (30162 rows after dropping '?'), test 15060 (adult.test).
 */
export async function loadAdult(opts: DataDirOptions & { naming?: AdultNaming } = {}): Promise<Dataset> {
  const files = requireFiles('adult', opts);
  // the small split file first: a broken one fails before 5 MB are parsed
  const ref = files.splits ? await readSplitIndices(files.splits) : null;
  const prepared = await readAdultFiles({ train: files.train, test: files.test }, opts);
  const { splits, split } = splitsFor(
    'adult',
    files,
    ref,
    () => recomputedAdultSplit(prepared.train.rows),
    adultNotReference(prepared, `${files.train} and ${files.test}`),
  );
  return adultDataset(prepared, splits, opts.naming, files.train, split);
}

// ── COMPAS ───────────────────────────────────────────────────────────────────────────────────────

/**
 * The header of compas-scores-two-years.csv names decile_score and priors_count twice, which readCsv
 * rightly refuses; the names are given to it instead, with pandas' ".1" suffix on repeats (pandas
 * keeps the first under the plain name, and so does the preprocessing).
 */
function compasColumnNames(file: string): string[] {
  const [header] = leadingLines(file);
  const seen = new Map<string, number>();
  return header.split(',').map((raw) => {
    const name = raw.trim().replace(/^"(.*)"$/, '$1');
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    return k === 0 ? name : `${name}.${k}`;
  });
}

/** compas-scores-two-years.csv read, filtered and reduced to the default columns, without splitting. */
export async function readCompasFile(file: string): Promise<PreparedCompas> {
  const names = compasColumnNames(file);
  const { table, report } = await readCsv(file, {
    delimiter: ',',
    header: true,
    columns: names,
    // Only the columns the preprocessing reads: the others hold names, dates and free text, and
    // their gaps would make the reader drop rows. A missing numeric cell still drops its row; among
    // these columns that happens only for days_b_screening_arrest, which the filter drops anyway.
    drop: names.filter((n) => !COMPAS_COLUMNS_READ.includes(n)),
    missing: 'keep',
  });
  return prepareCompas(table, { where: file, rawRows: report.rowsRead });
}

/** ProPublica COMPAS with the reference filter (6172 rows) and splits: train 3949 / val 988 / test 1235. */
export async function loadCompas(opts: DataDirOptions = {}): Promise<Dataset> {
  const files = requireFiles('compas', opts);
  const ref = files.splits ? await readSplitIndices(files.splits) : null;
  const prepared = await readCompasFile(files.data);
  const { splits, split } = splitsFor(
    'compas',
    files,
    ref,
    () => recomputedCompasSplit(prepared.ids),
    compasNotReference(prepared, files.data),
  );
  return compasDataset(prepared, splits, files.data, split);
}
