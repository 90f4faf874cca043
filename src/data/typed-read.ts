// What the typed-format readers (Parquet, Arrow IPC, JSON Lines) share: their byte source, report and
// messages. Core code: no Node imports.
import { type EngineError, inputError } from '../engine/errors.js';
import type { FormatName } from './format-name.js';
import type { BuildResult, ReadReport, SchemaOptions, TableBuilder } from './schema.js';
import type { Table } from './table.js';

/**
 * Where a reader gets its bytes: random access (hyparquet's AsyncBuffer: byteLength and slice, so a
 * Parquet file is read by parts, never whole) and a stream from the start (Arrow IPC, JSON Lines).
 */
export interface ByteSource {
  byteLength: number;
  slice(start: number, end?: number): Promise<ArrayBuffer> | ArrayBuffer;
  chunks(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** A ByteSource over bytes in memory (a browser upload, a test). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) => bytes.slice(start, end).buffer,
    chunks: () => [bytes],
  };
}

export interface ReadResult {
  table: Table;
  report: ReadReport;
}

/** A reader of one format: the bytes of `file` (the name messages give) into a Table. */
export type FormatReader = (src: ByteSource, file: string, opts: SchemaOptions) => Promise<ReadResult>;

/** The first line of an error's message (a library's message, quoted inside ours). */
export function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

/** The ReadReport of a non-CSV reader (the CSV-only settings get neutral values: no delimiter, header, BOM). */
export function typedReport(
  file: string,
  format: FormatName,
  builder: TableBuilder,
  built: BuildResult,
  extra: Partial<ReadReport> = {},
): ReadReport {
  const kept = new Set(built.table.columns.map((c) => c.name));
  return {
    file,
    format,
    unit: builder.unit,
    delimiter: ',',
    header: true,
    bom: false,
    lineEnding: 'LF',
    detected: { delimiter: false, header: false },
    fileColumns: builder.names.slice(),
    dropped: builder.names.filter((n) => !kept.has(n)),
    rowsRead: built.rowsRead,
    rowsKept: built.table.rows,
    missing: built.missing,
    warnings: built.warnings,
    mostlyNumeric: built.mostlyNumeric,
    decimal: '.',
    ...extra,
  };
}

/** Column names as a file gives them: none empty, none repeated (a typed format has no header line to rename). */
export function checkNames(file: string, names: readonly string[]): void {
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (n.trim() === '') throw inputError(`${file}: column ${i + 1} has no name`);
    if (seen.has(n)) throw inputError(`${file}: the column name ${JSON.stringify(n)} appears twice`);
    seen.add(n);
  });
}

/** The E_INPUT error for a 64-bit integer beyond ±(2^53 − 1), naming the file, row and column. */
export function unsafeInteger(b: bigint, file: string, row: number, column: string): EngineError {
  return inputError(
    `${file}: row ${row}, column ${JSON.stringify(column)}: the integer ${b} is beyond ±9007199254740991 (2^53 − 1), ` +
      `the range lucid holds exactly as a number; divide it down or --drop ${column} if it is an identifier`,
  );
}

/**
 * A bigint as a number, or unsafeInteger's error. Number(b) rounds monotonically and 2^53 is a
 * double, so |Number(b)| > 2^53 − 1 exactly when b is beyond the safe range.
 */
export function safeNumber(b: bigint, file: string, row: number, column: string): number {
  const v = Number(b);
  if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) throw unsafeInteger(b, file, row, column);
  return v;
}

/**
 * 64-bit integers (little-endian, as Arrow and typed arrays hold them) as numbers without making a
 * bigint per value: hi·2^32 + lo is exact within the safe range and rounds past it. NaN where `valid`
 * says a cell is null. An integer beyond ±(2^53 − 1) is unsafeInteger's error.
 */
export function int64ToNumbers(
  src: BigInt64Array | BigUint64Array,
  n: number,
  valid: ((i: number) => boolean) | null,
  file: string,
  firstRow: number,
  column: string,
): Float64Array {
  const words = new Int32Array(src.buffer, src.byteOffset, 2 * n);
  const unsigned = src instanceof BigUint64Array;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (valid && !valid(i)) {
      out[i] = NaN;
      continue;
    }
    const hi = words[2 * i + 1];
    const v = (unsigned ? hi >>> 0 : hi) * 4294967296 + (words[2 * i] >>> 0);
    if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER)
      throw unsafeInteger(src[i], file, firstRow + i, column);
    out[i] = v;
  }
  return out;
}
