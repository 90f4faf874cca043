// Node layer: CSV files to Tables and back, streamed through fast-csv (a 1 GB file never becomes
// 1 GB of JS strings: rows go straight into the column builders of src/data/schema.ts).
//
// Pipeline: file bytes → ByteGuard (BOM, UTF-8 validity, quoting, line numbers) → [whitespace runs
// to tabs] → fast-csv parse → row sink (header, TableBuilder). Settings come from the first 64 KiB,
// read separately, by csvSettings (src/data/csv-read.ts): the rule the browser page's reader uses too.
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, format } from 'fast-csv';
import { EngineError, inputError } from '../engine/errors.js';
import { DELIMITERS, type Delimiter } from '../data/csv-detect.js';
import { CSV_SAMPLE_BYTES, csvSettings, duplicateNameWarning, invalidUtf8 } from '../data/csv-read.js';
import { FastSplitter, type ByteDelimiter } from '../data/csv-fast.js';
import { QuoteScanner, WhitespaceCollapser, findInvalidUtf8, utf8CutTail } from '../data/csv-scan.js';
import { csvText, escapeFormula } from '../data/csv-write.js';
import { headerNames, TableBuilder, type ReadReport, type SchemaOptions } from '../data/schema.js';
import { ChunkedTableBuilder, CHUNK_ROWS } from '../data/chunks.js';
import type { Table } from '../data/table.js';

export type { ReadReport } from '../data/schema.js';

/**
 * The columns a command reads as a label, a protected attribute or a group must not be "numbers with a
 * few text cells": that silently turns an age into dozens of categories. One E_INPUT line naming the
 * column, the count and the first lines.
 */
export function requireClean(report: ReadReport, columns: readonly (string | undefined)[], what: string): void {
  for (const m of report.mostlyNumeric ?? []) {
    if (!columns.includes(m.column)) continue;
    throw inputError(
      `${report.file}: ${what} column "${m.column}" holds numbers, but ${m.textCells} of its values are not numbers ` +
        `(${report.unit ?? 'line'}${m.firstLines.length > 1 ? 's' : ''} ` +
        `${m.firstLines.join(', ')}${m.textCells > m.firstLines.length ? ', …' : ''}: ` +
        `${JSON.stringify(m.first)}); fix or blank them, or give --categorical ${m.column} if it really is a ` +
        `category`,
    );
  }
}

export interface ReadOptions extends SchemaOptions {
  /** ',' ';' '\t' or 'whitespace' (runs of spaces and tabs); detected when absent */
  delimiter?: Delimiter;
  /** whether line 1 names the columns; detected when absent */
  header?: boolean;
  /** column names: they replace the header's names, or name a headerless file's columns */
  columns?: readonly string[];
  /** lines at the start to ignore before the header or data (a preamble such as UCI's "|1x3 Cross validator") */
  skipLines?: number;
  /** called with the file's column names before any row is read (to check the names a command needs up front) */
  onColumns?: (names: readonly string[]) => void;
  /**
   * 'auto' (default): lines without quotes in a comma, semicolon or tab file are split by the fast
   * path (src/data/csv-fast.ts), and fast-csv parses from the first quote on; 'fast-csv': fast-csv
   * parses everything. Both give the same table, report and errors. The environment variable
   * LUCID_CSV_PARSER=fast-csv sets the default.
   */
  parser?: 'auto' | 'fast-csv';
}

/** Maps file-system errors to messages naming the file; anything else passes through. */
export function fsError(err: unknown, file: string): unknown {
  if (err instanceof EngineError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return inputError(`${file}: file not found`);
  if (code === 'EISDIR') return inputError(`${file}: is a directory, not a file`);
  if (code === 'EACCES' || code === 'EPERM') return inputError(`${file}: permission denied`);
  if (typeof code === 'string' && code.startsWith('E')) return inputError(`${file}: cannot read the file (${code})`);
  return err;
}

async function readHead(file: string): Promise<{ head: Uint8Array; size: number }> {
  const fh = await open(file, 'r');
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    const size = st.size;
    const buf = new Uint8Array(Math.min(size, CSV_SAMPLE_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { head: buf.subarray(0, bytesRead), size };
  } finally {
    await fh.close();
  }
}

/** A Buffer seen as a plain Uint8Array (no copy). */
function bytes(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Validates UTF-8 across chunk boundaries, strips a BOM, runs the QuoteScanner; passes bytes on. */
class ByteGuard extends Transform {
  private carry: Uint8Array = new Uint8Array(0);
  private first = true;
  /** bytes of a stripped BOM, so offsets in messages are file offsets */
  private base = 0;
  readonly scanner: QuoteScanner;

  constructor(
    readonly file: string,
    delimiter: Delimiter,
  ) {
    super();
    this.scanner = new QuoteScanner(file, delimiter);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      let b = bytes(chunk);
      if (this.carry.length) {
        const joined = new Uint8Array(this.carry.length + b.length);
        joined.set(this.carry);
        joined.set(b, this.carry.length);
        b = joined;
      }
      if (this.first && b.length >= 3) {
        this.first = false;
        if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
          b = b.subarray(3);
          this.base = 3;
        }
      }
      const cut = this.first ? b.length : utf8CutTail(b);
      this.carry = Uint8Array.from(b.subarray(b.length - cut));
      const out = this.check(b.subarray(0, b.length - cut));
      done(null, out.length > 0 ? out : undefined);
    } catch (e) {
      done(e as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      const rest = this.check(this.carry);
      this.scanner.end();
      done(null, rest.length > 0 ? rest : undefined);
    } catch (e) {
      done(e as Error);
    }
  }

  private check(b: Uint8Array): Buffer {
    if (!isUtf8(b)) {
      const bad = findInvalidUtf8(b);
      const offset = this.base + this.scanner.offset + bad;
      this.scanner.feed(b.subarray(0, bad));
      throw invalidUtf8(this.file, offset, this.scanner.line);
    }
    this.scanner.feed(b);
    return Buffer.from(b.buffer, b.byteOffset, b.length);
  }
}

class CollapseWhitespace extends Transform {
  private readonly c = new WhitespaceCollapser();
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const out = this.c.push(bytes(chunk));
    done(null, Buffer.from(out.buffer, out.byteOffset, out.length));
  }
}

/** Line breaks inside a row's fields (quoted values may span lines). */
function breaksIn(fields: readonly string[]): number {
  let k = 0;
  for (const f of fields) {
    if (f.indexOf('\n') < 0 && f.indexOf('\r') < 0) continue;
    k += f.match(/\r\n|\r|\n/g)!.length;
  }
  return k;
}

/**
 * Column names from the header row or the options, checked: as many as fields, none empty.
 * A header that repeats a name (ProPublica's COMPAS file does) keeps the first and renames the
 * later ones name.1, name.2, … as pandas does, with a warning; names given by --columns must be distinct.
 */
function columnNames(
  file: string,
  first: readonly string[],
  line: number,
  header: boolean,
  given: readonly string[] | undefined,
  warnings: string[],
): string[] {
  if (header && !given) {
    return headerNames(
      file,
      first,
      line,
      (n, renamed, i, j) =>
        warnings.push(
          duplicateNameWarning(file, line, n, renamed, i, j, ' (name the columns with --columns to choose)'),
        ),
      '; name every column with --columns',
    );
  }
  if (!given) return first.map((_, i) => `c${i + 1}`);
  if (given.length !== first.length) {
    throw inputError(
      `${file}: --columns gives ${given.length} name${given.length === 1 ? '' : 's'} but line ${line} has ` +
        `${first.length} fields`,
    );
  }
  const names = given.map((n) => n.trim());
  if (names.includes('')) throw inputError(`${file}: --columns has an empty name`);
  checkDistinct(names, (n) => `${file}: --columns names ${JSON.stringify(n)} twice`);
  return names;
}

function checkDistinct(names: readonly string[], msg: (name: string, first: number, second: number) => string): void {
  const seen = new Map<string, number>();
  names.forEach((n, j) => {
    const i = seen.get(n);
    if (i !== undefined) throw inputError(msg(n, i, j));
    seen.set(n, j);
  });
}

/**
 * Receives fast-csv's rows: skips blank lines, takes the header, feeds the TableBuilder (or, read in chunks, the
 * ChunkedTableBuilder, awaiting each chunk's consumer: backpressure).
 */
class RowSink extends Writable {
  /** line of the next row fast-csv delivers */
  line = 1;
  /** warnings about the header (renamed duplicate names) */
  readonly headerWarnings: string[] = [];
  builder: TableBuilder | null = null;
  chunked: ChunkedTableBuilder | null = null;
  headerLine = 0;
  headerFields: string[] = [];
  rowsSeen = 0;

  constructor(
    readonly file: string,
    readonly header: boolean,
    readonly opts: ReadOptions,
    readonly chunks?: { rows: number; onChunk: (t: Table) => void | Promise<void> },
  ) {
    super({ objectMode: true, highWaterMark: 256 });
  }

  override _write(fields: string[], _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    try {
      this.take(fields);
      if (this.pending.length) {
        this.drain().then(
          () => done(),
          (e: Error) => done(e),
        );
        return;
      }
      done();
    } catch (e) {
      done(e as Error);
    }
  }

  /** chunks completed but not yet handed to the consumer */
  private pending: Table[] = [];

  /** Hands the completed chunks to the consumer, one at a time (the reader waits: backpressure). */
  async drain(): Promise<void> {
    try {
      while (this.pending.length) await this.chunks!.onChunk(this.pending.shift()!);
    } catch (e) {
      // the consumer's error (a model that fails, say) passes through as it is, not as a read error
      this.consumerError = { error: e };
      throw e;
    }
  }

  consumerError: { error: unknown } | null = null;

  /** One row; `breaks`: the line breaks inside its fields (counted when absent). */
  take(fields: string[], breaks = breaksIn(fields)): void {
    const line = this.line;
    this.line += 1 + breaks;
    if (line <= (this.opts.skipLines ?? 0)) return;
    if (fields.length === 0 || (fields.length === 1 && fields[0].trim() === '')) return;
    if (!this.builder && !this.chunked) {
      const names = columnNames(this.file, fields, line, this.header, this.opts.columns, this.headerWarnings);
      this.opts.onColumns?.(names);
      if (this.chunks) this.chunked = new ChunkedTableBuilder(this.file, names, this.opts, this.chunks.rows);
      else this.builder = new TableBuilder(this.file, names, this.opts);
      if (this.header) {
        this.headerLine = line;
        this.headerFields = names;
        return;
      }
    }
    this.rowsSeen++;
    if (this.chunked) {
      const chunk = this.chunked.addRow(fields, line);
      if (chunk) this.pending.push(chunk);
      return;
    }
    this.builder!.addRow(fields, line);
  }
}

/**
 * The fast path (src/data/csv-fast.ts): splits the lines without quotes into the RowSink itself and
 * passes nothing on, until a line holds a quote; from that line on the bytes go on to fast-csv.
 */
class FastSplit extends Transform {
  private readonly splitter: FastSplitter;

  constructor(
    delimiter: ByteDelimiter,
    private readonly sink: RowSink,
  ) {
    super();
    this.splitter = new FastSplitter(delimiter, (fields) => sink.take(fields, 0));
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      if (this.splitter.handedOff) {
        done(null, chunk);
        return;
      }
      const rest = this.splitter.push(bytes(chunk));
      const out = rest && rest.length > 0 ? Buffer.from(rest.buffer, rest.byteOffset, rest.length) : undefined;
      // read in chunks: a table chunk this completed goes to its consumer before more bytes are read
      this.sink.drain().then(
        () => done(null, out),
        (e: Error) => done(e),
      );
    } catch (e) {
      done(e as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      this.splitter.end();
      this.sink.drain().then(
        () => done(),
        (e: Error) => done(e),
      );
    } catch (e) {
      done(e as Error);
    }
  }
}

function checkOptions(file: string, opts: ReadOptions): void {
  if (opts.parser !== undefined && opts.parser !== 'auto' && opts.parser !== 'fast-csv') {
    throw inputError(`${file}: parser must be 'auto' or 'fast-csv', got ${JSON.stringify(opts.parser)}`);
  }
  const skip = opts.skipLines ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0)
    throw inputError(`${file}: skipLines must be a non-negative integer, got ${skip}`);
  if (opts.delimiter !== undefined && !DELIMITERS.includes(opts.delimiter)) {
    throw inputError(
      `${file}: --delimiter must be one of comma, semicolon, tab, whitespace; got ${JSON.stringify(opts.delimiter)}`,
    );
  }
}

/** fast-csv's own parse errors (the ByteGuard catches the known ones first) get the file and line. */
function mapParseError(err: unknown, file: string, line: number): unknown {
  if (err instanceof Error && !(err instanceof EngineError) && err.message.startsWith('Parse Error')) {
    return inputError(`${file}: line ${line} or after: cannot parse the CSV (${err.message.replace(/\s+/g, ' ')})`);
  }
  return err;
}

/** Detects the settings, then streams the file through the byte guard and fast-csv into a RowSink. */
async function parseCsv(path: string, opts: ReadOptions, chunks?: RowSink['chunks']) {
  const file = path;
  checkOptions(file, opts);
  let head: Uint8Array;
  let size: number;
  try {
    ({ head, size } = await readHead(path));
  } catch (e) {
    throw fsError(e, file);
  }
  // the settings, by the rule every reader shares (src/data/csv-read.ts)
  const detection = csvSettings(head, size, file, opts);
  const { delimiter, header, decimal, bom } = detection;
  const guard = new ByteGuard(file, delimiter);
  const sink = new RowSink(file, header, { ...opts, decimal }, chunks);
  const parser = parse({ delimiter: delimiter === 'whitespace' ? '\t' : delimiter, headers: false, quote: '"' });
  const general = (opts.parser ?? (process.env.LUCID_CSV_PARSER === 'fast-csv' ? 'fast-csv' : 'auto')) === 'fast-csv';
  const stages: NodeJS.ReadWriteStream[] =
    delimiter === 'whitespace'
      ? [guard, new CollapseWhitespace(), parser]
      : general
        ? [guard, parser]
        : [guard, new FastSplit(delimiter, sink), parser];
  // the provenance hash, over exactly the bytes parsed (AuditResult.meta.data.sha256)
  // (node:crypto's SHA-256: the same digest as src/data/sha256.ts, several times faster)
  const hasher = createHash('sha256');
  let hashed = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      hasher.update(chunk as unknown as NodeJS.ArrayBufferView);
      hashed += chunk.byteLength;
      cb(null, chunk);
    },
  });
  try {
    await pipeline([createReadStream(path), tap, ...stages, sink]);
  } catch (e) {
    if (sink.consumerError) throw sink.consumerError.error;
    throw mapParseError(fsError(e, file), file, sink.line);
  }
  if (!sink.builder && !sink.chunked) throw inputError(`${file}: the file holds only blank lines`);
  if (sink.rowsSeen === 0) {
    throw inputError(
      `${file}: line ${sink.headerLine} is a header (${sink.headerFields.join(', ')}) but no data rows follow` +
        (detection.detected.header ? '; if it is data, read it with --no-header' : ''),
    );
  }
  const base = {
    file,
    delimiter,
    header,
    bom,
    lineEnding: detection.lineEnding,
    detected: detection.detected,
    decimal,
    sha256: hasher.digest('hex'),
    bytes: hashed,
  };
  return { sink, base };
}

/**
 * Reads a CSV file into a Table. Settings not given in `opts` are detected from the first 64 KiB;
 * every problem is an E_INPUT EngineError whose one-line message names the file, line and column.
 */
export async function readCsv(path: string, opts: ReadOptions = {}): Promise<{ table: Table; report: ReadReport }> {
  const { sink, base } = await parseCsv(path, opts);
  const builder = sink.builder!;
  const built = builder.finish();
  const kept = new Set(built.table.columns.map((c) => c.name));
  const report: ReadReport = {
    ...base,
    fileColumns: builder.names.slice(),
    dropped: builder.names.filter((n) => !kept.has(n)),
    rowsRead: built.rowsRead,
    rowsKept: built.table.rows,
    missing: built.missing,
    warnings: [...sink.headerWarnings, ...built.warnings],
    mostlyNumeric: built.mostlyNumeric,
  };
  return { table: built.table, report };
}

/**
 * Reads a CSV file as a stream of chunks of `chunkRows` rows (src/data/chunks.ts: the first chunk's
 * column kinds, global category codes), awaiting `onChunk` for each before reading on. Only a chunk is
 * in memory at a time. The report is that of readCsv, its warnings those of the first chunk.
 */
export async function readCsvChunks(
  path: string,
  opts: ReadOptions,
  onChunk: (chunk: Table) => void | Promise<void>,
  chunkRows: number = CHUNK_ROWS,
): Promise<ReadReport> {
  const { sink, base } = await parseCsv(path, opts, { rows: chunkRows, onChunk });
  const chunked = sink.chunked!;
  const { last, build } = chunked.finish();
  if (last) await onChunk(last);
  const kept = new Set(build.columns.map((c) => c.name));
  return {
    ...base,
    fileColumns: chunked.names.slice(),
    dropped: chunked.names.filter((n) => !kept.has(n)),
    rowsRead: build.rowsRead,
    rowsKept: build.rowsKept,
    missing: build.missing,
    warnings: [...sink.headerWarnings, ...build.warnings],
    mostlyNumeric: build.mostlyNumeric,
  };
}

/**
 * An upper bound of a text file's rows: its line breaks plus one (a quick pass over the bytes, for sizing arrays once).
 */
export async function lineBound(path: string): Promise<number> {
  let n = 1;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      let i = chunk.indexOf(10);
      while (i >= 0) {
        n++;
        i = chunk.indexOf(10, i + 1);
      }
    }
  } catch (e) {
    throw fsError(e, path);
  }
  return n;
}

export interface WriteOptions {
  /** ',' (default), ';' or '\t' */
  delimiter?: ',' | ';' | '\t';
  /** write the column names as line 1 (default true) */
  header?: boolean;
}

function* rowsOf(table: Table): Generator<string[]> {
  const cols = table.columns;
  for (let r = 0; r < table.rows; r++) yield cols.map((c) => csvText(c, r));
}

/**
 * Writes a Table as CSV through fast-csv's formatter: numbers in their shortest round-trip form,
 * labels exactly but for a label (or column name) a spreadsheet would run as a formula, which gets a
 * leading ' (escapeFormula, src/data/csv-write.ts), quoted when they hold the delimiter, a quote or a
 * line break. A stream given as `dest` is left open.
 */
export async function writeCsv(
  dest: string | NodeJS.WritableStream,
  table: Table,
  opts: WriteOptions = {},
): Promise<void> {
  const delimiter = opts.delimiter ?? ',';
  if (![',', ';', '\t'].includes(delimiter)) {
    throw new EngineError('E_ARG', `writeCsv: delimiter must be ',', ';' or a tab, got ${JSON.stringify(delimiter)}`);
  }
  const names = table.columns.map((c) => escapeFormula(c.name));
  const formatter = format<string[], string[]>({
    delimiter,
    headers: names,
    writeHeaders: opts.header ?? true,
    includeEndRowDelimiter: true,
  });
  const source = Readable.from(rowsOf(table));
  if (typeof dest === 'string') {
    try {
      await pipeline(source, formatter, createWriteStream(dest));
    } catch (e) {
      throw fsError(e, dest);
    }
    return;
  }
  await pipeline(source, formatter, dest, { end: false });
}
