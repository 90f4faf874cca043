// Parquet files to Tables through hyparquet (a well-kept reader that runs in every runtime) and
// hyparquet-compressors (snappy, gzip, zstd, brotli, lz4). Core code: no Node imports; the file is
// read by parts through the ByteSource (hyparquet's AsyncBuffer), one row group at a time, so memory
// holds one row group's decoded columns plus the Table being built.
//
// Type mapping (docs/data.md "Other formats"): INT32, INT64, FLOAT, DOUBLE and DECIMAL columns are
// numbers (an INT64 beyond ±(2^53 − 1) is an error naming the row); BOOLEAN becomes the labels
// "true"/"false"; strings go through the same inference as a CSV cell; null is a missing cell;
// dates, times, timestamps, INT96, binary and nested (list, map, struct) columns are errors.
import { parquetMetadataAsync, parquetRead, parquetSchema, type FileMetaData, type SchemaTree } from 'hyparquet';
import { EngineError, inputError } from '../engine/errors.js';
import { TableBuilder, type Cell, type FieldBatch, type SchemaOptions } from './schema.js';
import { checkNames, messageOf, safeNumber, typedReport, type ByteSource, type ReadResult } from './typed-read.js';

type FieldType = 'number' | 'cells';

const TIME_TYPES = new Set(['DATE', 'TIME_MILLIS', 'TIME_MICROS', 'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS', 'INTERVAL']);
const TIME_LOGICAL = new Set(['DATE', 'TIME', 'TIMESTAMP', 'INTERVAL']);
const TEXT_TYPES = new Set(['UTF8', 'ENUM', 'JSON']);
const TEXT_LOGICAL = new Set(['STRING', 'ENUM', 'JSON', 'UUID']);

/** How a top-level Parquet column is read, or an E_INPUT error naming the file and column. */
function fieldType(file: string, node: SchemaTree): FieldType {
  const e = node.element;
  const name = JSON.stringify(e.name);
  const logical = (e.logical_type as { type?: string } | undefined)?.type;
  if (node.children.length > 0 || e.repetition_type === 'REPEATED') {
    const what =
      e.converted_type === 'LIST' || logical === 'LIST'
        ? 'a list'
        : e.converted_type === 'MAP' || logical === 'MAP'
          ? 'a map'
          : node.children.length > 0
            ? 'a struct'
            : 'repeated';
    throw inputError(
      `${file}: column ${name} is nested (${what}); lucid reads flat columns of numbers, text and booleans: flatten ` +
        `it into columns or --drop ${e.name}`,
    );
  }
  if (
    (e.converted_type && TIME_TYPES.has(e.converted_type)) ||
    (logical && TIME_LOGICAL.has(logical)) ||
    e.type === 'INT96'
  ) {
    throw inputError(
      `${file}: column ${name} holds dates or times (${logical ?? e.converted_type ?? e.type}); lucid reads numbers, ` +
        `text and booleans: write it as text or as a number (a year, days since an origin) or --drop ${e.name}`,
    );
  }
  if (e.converted_type === 'DECIMAL' || logical === 'DECIMAL' || logical === 'FLOAT16') return 'number';
  switch (e.type) {
    case 'BOOLEAN':
      return 'cells';
    case 'INT32':
    case 'INT64':
    case 'FLOAT':
    case 'DOUBLE':
      return 'number';
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if ((e.converted_type && TEXT_TYPES.has(e.converted_type)) || (logical && TEXT_LOGICAL.has(logical)))
        return 'cells';
      throw inputError(
        `${file}: column ${name} holds binary data (${e.type} without a string type); lucid reads numbers, text and ` +
          `booleans: --drop ${e.name}`,
      );
    default:
      throw inputError(
        `${file}: column ${name} has the Parquet type ${String(e.type)}, which lucid does not read; --drop ${e.name}`,
      );
  }
}

/** A decoded column chunk (numbers, bigints or nulls) as numbers with NaN for missing. */
function toNumbers(file: string, column: string, data: ArrayLike<unknown>, firstRow: number): Float64Array {
  if (data instanceof Float64Array) return data;
  const out = new Float64Array(data.length);
  if (
    data instanceof Float32Array ||
    data instanceof Int32Array ||
    data instanceof Uint32Array ||
    data instanceof Int16Array ||
    data instanceof Int8Array ||
    data instanceof Uint16Array ||
    data instanceof Uint8Array
  ) {
    out.set(data);
    return out;
  }
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    out[i] =
      typeof v === 'number'
        ? v
        : typeof v === 'bigint'
          ? safeNumber(v, file, firstRow + i, column)
          : v === null || v === undefined
            ? NaN
            : Number(v);
  }
  return out;
}

function concatChunks(parts: { rowStart: number; data: ArrayLike<unknown> }[]): ArrayLike<unknown> {
  if (parts.length === 1) return parts[0].data;
  parts.sort((a, b) => a.rowStart - b.rowStart);
  const out: unknown[] = [];
  for (const p of parts) for (let i = 0; i < p.data.length; i++) out.push(p.data[i]);
  return out;
}

/**
 * hyparquet-compressors, loaded on the first read: importing it compiles a small wasm module (snappy),
 * which an edge runtime that forbids compiling wasm at run time (workerd) refuses, so importing the
 * library must not load it.
 */
let compressors: Promise<Record<string, unknown>> | null = null;
function compressorsOf(): Promise<Record<string, unknown>> {
  compressors ??= import('hyparquet-compressors').then((m) => m.compressors as Record<string, unknown>);
  return compressors;
}

/** Library errors (a damaged file) become one line naming the file; ours pass through. */
function parquetError(file: string, e: unknown): unknown {
  if (e instanceof EngineError) return e;
  return inputError(`${file}: not a Parquet file, or a damaged one (${messageOf(e)})`);
}

/**
 * Reads a Parquet file into a Table, one row group at a time; every problem is one E_INPUT line naming the file (and
 * the row and column where there is one).
 */
export async function readParquet(src: ByteSource, file: string, opts: SchemaOptions = {}): Promise<ReadResult> {
  if (src.byteLength === 0) throw inputError(`${file}: the file is empty`);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(src);
  } catch (e) {
    throw parquetError(file, e);
  }
  const fields = parquetSchema(metadata).children;
  const names = fields.map((f) => f.element.name);
  checkNames(file, names);
  const drop = new Set(opts.drop ?? []);
  // dropped columns are neither checked nor read
  const types = fields.map((f) => (drop.has(f.element.name) ? 'cells' : fieldType(file, f)));
  const builder = new TableBuilder(file, names, opts, { unit: 'row', numberFields: types.map((t) => t === 'number') });
  const read = names.filter((n) => !drop.has(n));
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    if (rows === 0) continue;
    const parts = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>(read.map((n) => [n, []]));
    try {
      await parquetRead({
        file: src,
        metadata,
        compressors: await compressorsOf(),
        columns: read,
        rowStart,
        rowEnd: rowStart + rows,
        onChunk: (c) =>
          parts.get(c.columnName)?.push({ rowStart: c.rowStart, data: c.columnData as ArrayLike<unknown> }),
      });
    } catch (e) {
      throw parquetError(file, e);
    }
    const batch: FieldBatch[] = names.map((n, j) => {
      if (drop.has(n)) return { type: 'cells', values: [] };
      const data = concatChunks(parts.get(n)!);
      if (data.length !== rows)
        throw inputError(
          `${file}: column ${JSON.stringify(n)} has ${data.length} values in a row group of ${rows} rows (a damaged ` +
            `file)`,
        );
      return types[j] === 'number'
        ? { type: 'number', values: toNumbers(file, n, data, rowStart + 1) }
        : { type: 'cells', values: data as ArrayLike<Cell> };
    });
    builder.addBatch(batch, rows, rowStart + 1);
    rowStart += rows;
  }
  if (builder.rowsRead === 0) throw inputError(`${file}: the file has columns (${names.join(', ')}) but no data rows`);
  const built = builder.finish();
  return { table: built.table, report: typedReport(file, 'parquet', builder, built) };
}
