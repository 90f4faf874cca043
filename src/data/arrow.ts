// Arrow IPC files and streams to Tables through apache-arrow (the Arrow project's own JS reader, for
// every runtime). Core code: no Node imports. The stream format is read record batch by record batch
// as the bytes arrive; the file format (and Feather v2) is read whole by apache-arrow, then batch by batch.
//
// Type mapping (docs/data.md "Other formats"): Int8…Int64, Uint8…Uint64 and Float16/32/64 are numbers
// (a 64-bit integer beyond ±(2^53 − 1) is an error naming the row); Utf8 and Dictionary<Utf8> go
// through the same inference as a CSV cell (a dictionary's labels are trimmed and checked once);
// Bool becomes the labels "true"/"false"; null is a missing cell; dates, times, timestamps,
// durations, intervals, decimals, binary and nested (list, struct, map, union) columns are errors.
import { DataType, RecordBatchReader, type Data, type Field, type RecordBatch, type Vector } from 'apache-arrow';
import { EngineError, inputError } from '../engine/errors.js';
import { TableBuilder, type Cell, type FieldBatch, type SchemaOptions } from './schema.js';
import {
  checkNames,
  int64ToNumbers,
  messageOf,
  safeNumber,
  typedReport,
  type ByteSource,
  type ReadResult,
} from './typed-read.js';

type FieldType = 'number' | 'bigint' | 'dict' | 'cells';

function fieldType(file: string, f: Field): FieldType {
  const t = f.type;
  const name = JSON.stringify(f.name);
  if (DataType.isInt(t)) return t.bitWidth === 64 ? 'bigint' : 'number';
  if (DataType.isFloat(t)) return 'number';
  if (
    DataType.isUtf8(t) ||
    DataType.isLargeUtf8(t) ||
    DataType.isUtf8View(t) ||
    DataType.isBool(t) ||
    DataType.isNull(t)
  )
    return 'cells';
  if (DataType.isDictionary(t)) {
    const v = t.dictionary;
    if (DataType.isUtf8(v) || DataType.isLargeUtf8(v) || DataType.isInt(v) || DataType.isFloat(v)) return 'dict';
    throw inputError(
      `${file}: column ${name} is a dictionary of ${String(v)}; lucid reads dictionaries of text or numbers: --drop ` +
        `${f.name}`,
    );
  }
  if (
    DataType.isDate(t) ||
    DataType.isTime(t) ||
    DataType.isTimestamp(t) ||
    DataType.isDuration(t) ||
    DataType.isInterval(t)
  ) {
    throw inputError(
      `${file}: column ${name} holds dates or times (${String(t)}); lucid reads numbers, text and booleans: write it ` +
        `as text or as a number (a year, days since an origin) or --drop ${f.name}`,
    );
  }
  if (
    DataType.isList(t) ||
    DataType.isLargeList(t) ||
    DataType.isFixedSizeList(t) ||
    DataType.isStruct(t) ||
    DataType.isMap(t) ||
    DataType.isUnion(t)
  ) {
    throw inputError(
      `${file}: column ${name} is nested (${String(t)}); lucid reads flat columns of numbers, text and booleans: ` +
        `flatten it into columns or --drop ${f.name}`,
    );
  }
  throw inputError(
    `${file}: column ${name} has the Arrow type ${String(t)}, which lucid does not read (numbers, text, booleans and ` +
      `dictionaries of text are read); --drop ${f.name}`,
  );
}

const valid = (d: Data, i: number): boolean =>
  d.nullCount === 0 || ((d.nullBitmap[(d.offset + i) >> 3] >> ((d.offset + i) & 7)) & 1) === 1;

/** One column of a record batch as the builder takes it. */
function batchField(file: string, name: string, type: FieldType, vec: Vector, firstRow: number): FieldBatch {
  const n = vec.length;
  const d = vec.data.length === 1 ? vec.data[0] : null;
  const plain = d !== null && d.offset === 0 && d.values !== undefined;
  if (type === 'number') {
    // typed values in place (Float16 is stored as Uint16 bits: read through get)
    if (plain && !(DataType.isFloat(d.type) && d.type.precision === 0)) {
      const src = d.values as ArrayLike<number>;
      if (d.nullCount === 0 && src instanceof Float64Array)
        return { type: 'number', values: src.length === n ? src : src.subarray(0, n) };
      const out = new Float64Array(n);
      if (d.nullCount === 0) for (let i = 0; i < n; i++) out[i] = src[i];
      else for (let i = 0; i < n; i++) out[i] = valid(d, i) ? src[i] : NaN;
      return { type: 'number', values: out };
    }
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = vec.get(i) as number | null;
      out[i] = v === null ? NaN : v;
    }
    return { type: 'number', values: out };
  }
  if (type === 'bigint' && plain && (d.values instanceof BigInt64Array || d.values instanceof BigUint64Array)) {
    return {
      type: 'number',
      values: int64ToNumbers(d.values, n, d.nullCount === 0 ? null : (i) => valid(d, i), file, firstRow, name),
    };
  }
  if (type === 'bigint') {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = plain
        ? valid(d, i)
          ? (d.values as BigInt64Array | BigUint64Array)[i]
          : null
        : (vec.get(i) as bigint | null);
      out[i] = v === null ? NaN : safeNumber(v, file, firstRow + i, name);
    }
    return { type: 'number', values: out };
  }
  if (type === 'dict' && plain && d.dictionary) {
    const dict = d.dictionary;
    const labels: string[] = new Array<string>(dict.length);
    for (let k = 0; k < dict.length; k++) {
      const v = dict.get(k) as unknown;
      labels[k] =
        v === null || v === undefined
          ? ''
          : typeof v === 'bigint'
            ? String(safeNumber(v, file, firstRow, name))
            : String(v);
    }
    const idx = d.values as ArrayLike<number>;
    const codes = new Int32Array(n);
    if (d.nullCount === 0 && !(idx instanceof BigInt64Array)) codes.set(idx);
    else for (let i = 0; i < n; i++) codes[i] = valid(d, i) ? Number(idx[i]) : -1;
    return { type: 'dict', codes, labels };
  }
  const cells: Cell[] = new Array<Cell>(n);
  for (let i = 0; i < n; i++) {
    const v = vec.get(i) as unknown;
    cells[i] =
      v === null || v === undefined
        ? null
        : typeof v === 'bigint'
          ? safeNumber(v, file, firstRow + i, name)
          : (v as Cell);
  }
  return { type: 'cells', values: cells };
}

function arrowError(file: string, e: unknown): unknown {
  if (e instanceof EngineError) return e;
  return inputError(`${file}: not an Arrow IPC file or stream, or a damaged one (${messageOf(e)})`);
}

/** Arrow IPC magic "ARROW1" at the start (file format) or a stream's continuation marker 0xFFFFFFFF. */
function looksLikeArrow(head: Uint8Array): boolean {
  const magic = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31];
  if (head.length >= 6 && magic.every((b, i) => head[i] === b)) return true;
  return head.length >= 4 && head[0] === 0xff && head[1] === 0xff && head[2] === 0xff && head[3] === 0xff;
}

/**
 * Reads an Arrow IPC file or stream into a Table; every problem is one E_INPUT line naming the file (and the row and
 * column where there is one).
 */
export async function readArrow(src: ByteSource, file: string, opts: SchemaOptions = {}): Promise<ReadResult> {
  if (src.byteLength === 0) throw inputError(`${file}: the file is empty`);
  const head = new Uint8Array(await src.slice(0, Math.min(8, src.byteLength)));
  if (!looksLikeArrow(head))
    throw inputError(`${file}: not an Arrow IPC file or stream (it does not start with ARROW1 or a stream message)`);
  let builder: TableBuilder | null = null;
  let types: FieldType[] = [];
  let names: string[] = [];
  let rowStart = 0;
  const drop = new Set(opts.drop ?? []);
  try {
    // the file format is read whole by apache-arrow in any case: one read, no joining of chunks; the stream format as
    // it arrives
    const fileFormat = head[0] === 0x41;
    const chunks = fileFormat ? [new Uint8Array(await src.slice(0, src.byteLength))] : src.chunks();
    const reader = await (Symbol.asyncIterator in chunks
      ? RecordBatchReader.from(chunks as AsyncIterable<Uint8Array>)
      : RecordBatchReader.from(concat(chunks as Iterable<Uint8Array>)));
    await reader.open();
    const fields = reader.schema.fields;
    names = fields.map((f) => f.name);
    checkNames(file, names);
    types = fields.map((f) => (drop.has(f.name) ? 'cells' : fieldType(file, f)));
    builder = new TableBuilder(file, names, opts, {
      unit: 'row',
      numberFields: types.map((t) => t === 'number' || t === 'bigint'),
    });
    for await (const batch of reader as AsyncIterable<RecordBatch>) {
      const rows = batch.numRows;
      if (rows === 0) continue;
      const fb: FieldBatch[] = names.map((n, j) =>
        drop.has(n) ? { type: 'cells', values: [] } : batchField(file, n, types[j], batch.getChildAt(j)!, rowStart + 1),
      );
      builder.addBatch(fb, rows, rowStart + 1);
      rowStart += rows;
    }
  } catch (e) {
    throw arrowError(file, e);
  }
  if (!builder) throw inputError(`${file}: holds no Arrow schema`);
  if (builder.rowsRead === 0) throw inputError(`${file}: the file has columns (${names.join(', ')}) but no data rows`);
  const built = builder.finish();
  return { table: built.table, report: typedReport(file, 'arrow', builder, built) };
}

function concat(parts: Iterable<Uint8Array>): Uint8Array {
  const list = [...parts];
  if (list.length === 1) return list[0];
  const out = new Uint8Array(list.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of list) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
