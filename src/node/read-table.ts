// Node layer: any data file to a Table. The format comes from the extension (FORMATS,
// src/data/formats.ts), else from the first bytes (PAR1, ARROW1), else CSV; `format` chooses it.
// CSV streams through fast-csv (csv.ts); the other formats are read by the runtime-neutral readers
// over a file-backed ByteSource: Parquet by parts (the footer, then one row group at a time), Arrow
// IPC and JSON Lines as a stream. Every report carries the SHA-256 of the file's bytes.
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { EngineError, inputError } from '../engine/errors.js';
import { FORMAT_NAMES, formatByName, formatOfName, type FormatName } from '../data/formats.js';
import { createHash } from 'node:crypto';
import type { ByteSource, ReadResult } from '../data/typed-read.js';
import { fsError, readCsv, type ReadOptions } from './csv.js';

export interface TableReadOptions extends ReadOptions {
  /** the file's format (default: by extension, else by its first bytes, else CSV) */
  format?: FormatName;
}

/** The options that only mean something for CSV, as the CLI spells them. */
const CSV_ONLY: [keyof ReadOptions, string][] = [
  ['delimiter', '--delimiter'],
  ['header', '--header/--no-header'],
  ['columns', '--columns'],
  ['skipLines', 'skipLines'],
  ['decimal', '--decimal'],
];

/** A ByteSource over an open file: slices read by position, chunks streamed from the start. */
function fileSource(path: string, fh: FileHandle, size: number): ByteSource {
  return {
    byteLength: size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = Math.min(end ?? size, size);
      const buf = new Uint8Array(Math.max(0, stop - start));
      let at = 0;
      while (at < buf.length) {
        const { bytesRead } = await fh.read(buf, at, buf.length - at, start + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return buf.buffer;
    },
    async *chunks(): AsyncIterable<Uint8Array> {
      for await (const b of createReadStream(path, { highWaterMark: 1 << 20 })) {
        const chunk = b as Buffer;
        yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    },
  };
}

async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  // node:crypto, not the core's Sha256 (the same digest, ~20× faster): the hash must not cost more than the read
  const h = createHash('sha256');
  let bytes = 0;
  for await (const b of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const chunk = b as Buffer;
    h.update(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    bytes += chunk.byteLength;
  }
  return { sha256: h.digest('hex'), bytes };
}

/** The format of `path`: `given`, else its extension, else its first bytes, else CSV. */
export function chooseFormat(path: string, head: Uint8Array, given?: FormatName): FormatName {
  if (given !== undefined) {
    if (!FORMAT_NAMES.includes(given))
      throw new EngineError(
        'E_ARG',
        `${path}: the input format must be one of ${FORMAT_NAMES.join(', ')}; got ${JSON.stringify(given)}`,
      );
    return given;
  }
  const byName = formatOfName(path);
  if (byName) return byName;
  const ascii = String.fromCharCode(...head.subarray(0, 6));
  if (ascii.startsWith('PAR1')) return 'parquet';
  if (ascii === 'ARROW1' || (head[0] === 0xff && head[1] === 0xff && head[2] === 0xff && head[3] === 0xff))
    return 'arrow';
  return 'csv';
}

/**
 * Reads a data file of any format in FORMATS into a Table, with the same schema inference,
 * missing-value policy and one-line errors as readCsv. CSV-only options (delimiter, header,
 * columns, skipLines, decimal) given for another format are an E_ARG error.
 */
export async function readTable(path: string, opts: TableReadOptions = {}): Promise<ReadResult> {
  const { format: given, ...read } = opts;
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw fsError(e, path);
  }
  try {
    const st = await fh.stat().catch((e: unknown) => {
      throw fsError(e, path);
    });
    if (st.isDirectory()) throw inputError(`${path}: is a directory, not a file`);
    const head = new Uint8Array(8);
    const { bytesRead } = await fh.read(head, 0, 8, 0);
    const format = chooseFormat(path, head.subarray(0, bytesRead), given);
    if (format === 'csv') {
      const r = await readCsv(path, read);
      return { table: r.table, report: { ...r.report, format: 'csv', unit: 'line' } };
    }
    const csvOnly = CSV_ONLY.filter(([k]) => read[k] !== undefined).map(([, flag]) => flag);
    if (csvOnly.length) {
      throw new EngineError(
        'E_ARG',
        `${path}: ${csvOnly.join(', ')} ${csvOnly.length === 1 ? 'is a CSV option' : 'are CSV options'}, but the ` +
          `file is read as ${formatByName(format).label.split(' (')[0]}; leave ` +
          `${csvOnly.length === 1 ? 'it' : 'them'} out`,
      );
    }
    const reader = formatByName(format).read!;
    const [r, hash] = await Promise.all([reader(fileSource(path, fh, st.size), path, read), hashFile(path)]);
    return { table: r.table, report: { ...r.report, ...hash } };
  } catch (e) {
    throw fsError(e, path);
  } finally {
    await fh.close();
  }
}
