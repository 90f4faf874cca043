// How a CSV file is read, one configuration for every runtime: the settings (BOM, UTF-8, delimiter,
// header, decimal mark) come from the file's first CSV_SAMPLE_BYTES by csvSettings, which the Node
// reader (src/node/csv.ts, streaming through fast-csv) and the whole-file reader below (the browser
// page's upload) both call, so the CLI and the page cannot read the same file two ways. Core code:
// no Node imports.
//
// readDataBytes reads a whole file of any format in FORMATS held in memory (a browser upload): CSV
// through csvSettings, splitRecords and the TableBuilder of src/data/schema.ts, the other formats
// through the core readers of FORMATS, as src/node/read-table.ts uses them over a file.
import { type EngineError, inputError } from '../engine/errors.js';
import type { DecimalMark } from './cells.js';
import { detectCsv, splitRecords, type Delimiter, type Detection } from './csv-detect.js';
import { findInvalidUtf8, lineAt, QuoteScanner, sniffBytes, utf8CutTail } from './csv-scan.js';
import { FORMATS, formatByName, formatOfName, type FormatName } from './formats.js';
import { headerNames, TableBuilder, type MostlyNumeric, type SchemaOptions } from './schema.js';
import type { Table } from './table.js';
import { bytesSource } from './typed-read.js';

/** The bytes at the start of a CSV file its settings are detected from. */
export const CSV_SAMPLE_BYTES = 64 * 1024;

export interface CsvSettingsOptions {
  /** given settings are used as they are; the others are detected */
  delimiter?: Delimiter;
  header?: boolean;
  decimal?: DecimalMark;
  /** lines at the start to ignore before the header or data */
  skipLines?: number;
}

export interface CsvSettings extends Detection {
  /** the decimal mark the cells are read with */
  decimal: DecimalMark;
}

/** The message for bytes that are not UTF-8, naming the file, the byte offset and the line. */
export function invalidUtf8(file: string, offset: number, line: number): EngineError {
  return inputError(
    `${file}: not valid UTF-8 at byte offset ${offset} (line ${line}); save the file as UTF-8 (it may be Latin-1 or ` +
      `Windows-1252)`,
  );
}

/** The text after its first `n` lines (LF, CRLF or CR ends). */
export function skipLines(text: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++) {
    const m = /\r\n|\n|\r/g;
    m.lastIndex = i;
    const hit = m.exec(text);
    i = hit ? hit.index + hit[0].length : text.length;
  }
  return text.slice(i);
}

/**
 * The settings a CSV file is read with, from its first bytes `head` (at most CSV_SAMPLE_BYTES; the
 * file has `size` bytes): a gzip, zip or UTF-16 file, an empty one or bytes that are not UTF-8 are an
 * E_INPUT error naming the file; the delimiter and header not given are detected (src/data/csv-detect.ts);
 * the decimal mark not given is '.' in a comma-delimited file and 'auto' in any other, where a column
 * whose numbers are all written with decimal commas is read as numbers (docs/data.md "Reading data").
 */
export function csvSettings(head: Uint8Array, size: number, file: string, opts: CsvSettingsOptions = {}): CsvSettings {
  if (size === 0) throw inputError(`${file}: the file is empty`);
  sniffBytes(head, file);
  const complete = head.length === size;
  const sample = complete ? head : head.subarray(0, head.length - utf8CutTail(head));
  const bad = findInvalidUtf8(sample);
  if (bad >= 0) throw invalidUtf8(file, bad, lineAt(sample, bad));
  const text = skipLines(new TextDecoder('utf-8', { ignoreBOM: true }).decode(sample), opts.skipLines ?? 0);
  const detection = detectCsv(text, { file, delimiter: opts.delimiter, header: opts.header, complete });
  return { ...detection, decimal: opts.decimal ?? (detection.delimiter === ',' ? '.' : 'auto') };
}

/** The 1-based line of each index in `at` (ascending) in `text`: LF, CRLF and CR each end a line. */
function lineNumbers(text: string, at: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let i = 0;
  for (const stop of at) {
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
    }
    out.push(line);
  }
  return out;
}

/**
 * The warning for a repeated column name in a header, renamed as pandas does; `hint` says how to name the columns
 * instead (the CLI's --columns).
 */
export function duplicateNameWarning(
  file: string,
  line: number,
  name: string,
  renamed: string,
  first: number,
  second: number,
  hint = '',
): string {
  return (
    `${file}: line ${line}: column name ${JSON.stringify(name)} appears twice (fields ${first + 1} and ` +
    `${second + 1}); the second is called ${JSON.stringify(renamed)}${hint}`
  );
}

export interface ParsedCsv {
  table: Table;
  warnings: string[];
  /** categorical columns most of whose values are numbers (ReadReport.mostlyNumeric) */
  mostlyNumeric: MostlyNumeric[];
  settings: CsvSettings;
}

/**
 * Reads a whole CSV file held in memory with the settings csvSettings gives (the delimiter and header
 * detected), the schema options of `opts` (missing-value policy 'keep' by default, as lucid audit's
 * --missing); every problem is an E_INPUT EngineError naming the file.
 */
export function readCsvBytes(buf: ArrayBuffer | Uint8Array, file: string, opts: SchemaOptions = {}): ParsedCsv {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const settings = csvSettings(bytes.subarray(0, CSV_SAMPLE_BYTES), bytes.length, file, { decimal: opts.decimal });
  // the Node reader's byte checks, in its order: UTF-8 up to the first bad byte, then quoting and NUL bytes
  // (QuoteScanner)
  const bom = settings.bom ? 3 : 0;
  const scanner = new QuoteScanner(file, settings.delimiter);
  const bad = findInvalidUtf8(bytes);
  if (bad >= 0) {
    scanner.feed(bytes.subarray(bom, Math.max(bom, bad)));
    throw invalidUtf8(file, bad, scanner.line);
  }
  scanner.feed(bytes.subarray(bom));
  scanner.end();
  const body = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(bom));
  const starts: number[] = [];
  const records = splitRecords(body, settings.delimiter, Infinity, true, starts);
  const lines = lineNumbers(body, starts);
  if (records.length === 0) throw inputError(`${file}: the file holds only blank lines`);
  const first = records[0];
  let names: string[];
  let start = 0;
  const warnings: string[] = [];
  if (settings.header) {
    names = headerNames(file, first, lines[0], (n, renamed, i, j) =>
      warnings.push(duplicateNameWarning(file, lines[0], n, renamed, i, j)),
    );
    start = 1;
  } else {
    names = first.map((_, i) => `c${i + 1}`);
  }
  if (names.length < 2)
    throw inputError(`${file}: not a CSV file with at least two columns (found ${names.length}: ${names.join(', ')})`);
  const builder = new TableBuilder(file, names, { missing: 'keep', ...opts, decimal: settings.decimal });
  for (let r = start; r < records.length; r++) builder.addRow(records[r], lines[r]);
  if (builder.rowsRead === 0)
    throw inputError(`${file}: line ${lines[0]} is a header (${names.join(', ')}) but no data rows follow`);
  const built = builder.finish();
  return {
    table: built.table,
    warnings: [...warnings, ...built.warnings],
    mostlyNumeric: built.mostlyNumeric,
    settings,
  };
}

export interface ParsedData {
  table: Table;
  warnings: string[];
  /**
   * the columns read as categories because of a few text cells among numbers (refused as a label, predictions or
   * protected column)
   */
  mostlyNumeric: string[];
  format: FormatName;
  /** how the file was read, for the page: "delimiter ";"", "Apache Parquet" */
  how: string;
}

/** The format of a file in memory: its name's extension, else its first bytes (PAR1, ARROW1), else CSV. */
function formatOf(bytes: Uint8Array, name: string): FormatName {
  const byName = formatOfName(name);
  if (byName) return byName;
  const head = String.fromCharCode(...bytes.subarray(0, 6));
  return head.startsWith('PAR1') ? 'parquet' : head === 'ARROW1' ? 'arrow' : 'csv';
}

/**
 * Reads a whole data file of any format in FORMATS held in memory; every problem is an E_INPUT EngineError naming the
 * file.
 */
export async function readDataBytes(buf: ArrayBuffer | Uint8Array, file: string): Promise<ParsedData> {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const format = formatOf(bytes, file);
  const f = formatByName(format);
  if (!f.read) {
    const csv = readCsvBytes(bytes, file);
    const d = csv.settings.delimiter;
    const delim = d === '\t' ? 'tab' : d === 'whitespace' ? 'whitespace' : `"${d}"`;
    return {
      table: csv.table,
      warnings: csv.warnings,
      mostlyNumeric: csv.mostlyNumeric.map((m) => m.column),
      format,
      how: `delimiter ${delim}`,
    };
  }
  const { table, report } = await f.read(bytesSource(bytes), file, { missing: 'keep' });
  if (table.columns.length < 2)
    throw inputError(
      `${file}: at least two columns are needed (found ${table.columns.length}: ` +
        `${table.columns.map((c) => c.name).join(', ')})`,
    );
  return {
    table,
    warnings: report.warnings,
    mostlyNumeric: (report.mostlyNumeric ?? []).map((m) => m.column),
    format,
    how: f.label.split(' (')[0],
  };
}

/** The file picker's accept list, from FORMATS (and the CSV MIME type). */
export const DATA_ACCEPT = [...FORMATS.flatMap((f) => f.extensions), 'text/csv'].join(',');
