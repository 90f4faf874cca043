// Node layer: data files read in chunks, for data that does not fit in memory as one Table
// (metrics and FALE over ten million rows). A CSV file streams: only one chunk of text is in memory
// at a time. Parquet, Arrow IPC and JSON Lines files are read whole by readTable (src/node/read-table.ts),
// keeping only the columns asked for (a Parquet file reads only those columns' pages); they are
// not chunked yet.
import { open } from 'node:fs/promises';
import { TableAppender, CHUNK_ROWS } from '../data/chunks.js';
import { requireColumns, type Table } from '../data/table.js';
import { UnknownColumnError } from '../engine/errors.js';
import type { ChunkSource } from '../methods/fale/stream.js';
import { lineBound, readCsvChunks, type ReadReport } from './csv.js';
import { chooseFormat, readTable, type TableReadOptions } from './read-table.js';

type Wanted = Record<string, string | readonly (string | undefined)[] | undefined>;

/** The names of a file's columns checked against the options that name them, "did you mean" included. */
const checkNames = (path: string, wanted: Wanted) => (names: readonly string[]) =>
  requireColumns(
    { rows: 0, columns: names.map((name) => ({ kind: 'numeric', name, values: new Float64Array(0) })) },
    path,
    wanted,
  );

/** The file's format as readTable would choose it (its extension, else its first bytes). */
async function formatOf(path: string, given: TableReadOptions['format']): Promise<string> {
  if (given) return given;
  let head = new Uint8Array(0);
  try {
    const fh = await open(path, 'r');
    try {
      const b = new Uint8Array(8);
      const { bytesRead } = await fh.read(b, 0, 8, 0);
      head = b.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    // readTable reports a missing or unreadable file, with its message
  }
  return chooseFormat(path, head);
}

/**
 * Reads the columns `wanted` names (option name → column names, as requireColumns takes them: a name
 * the file lacks is a usage error naming the option, with "did you mean", before any row is read)
 * into one compact Table: typed arrays sized once from a bound on the file's rows.
 */
export async function readColumns(
  path: string,
  opts: TableReadOptions,
  wanted: Wanted,
  chunkRows: number = CHUNK_ROWS,
): Promise<{ table: Table; report: ReadReport }> {
  const keep = [
    ...new Set(
      Object.values(wanted).flatMap((v) =>
        v === undefined ? [] : typeof v === 'string' ? [v] : v.filter((x): x is string => x !== undefined),
      ),
    ),
  ];
  const { format, ...read } = opts;
  if ((await formatOf(path, format)) !== 'csv') {
    // the reader checks `keep` before any row; a name it lacks is reported with the option that named it
    return readTable(path, { ...opts, keep }).catch((e: unknown) => {
      if (e instanceof UnknownColumnError) checkNames(path, wanted)(e.available);
      throw e;
    });
  }
  const bound = await lineBound(path);
  let appender: TableAppender | null = null;
  const report = await readCsvChunks(
    path,
    { ...read, keep, onColumns: checkNames(path, wanted) },
    (chunk) => {
      appender ??= new TableAppender(
        chunk.columns.map((c) => c.name),
        bound,
      );
      appender.add(chunk);
    },
    chunkRows,
  );
  return {
    table: (appender as TableAppender | null)?.table() ?? { rows: 0, columns: [] },
    report: { ...report, format: 'csv', unit: 'line' },
  };
}

/**
 * A data file as a ChunkSource (src/methods/fale/stream.ts): every read streams a CSV file from the
 * start, a chunk at a time (another format: the whole table, read once, as one chunk). After the
 * first read, `validate` sees its report (to refuse a label of "numbers with a few text cells", say)
 * before any later pass.
 */
export function fileSource(
  path: string,
  opts: TableReadOptions & { onColumns?: (names: readonly string[]) => void },
  validate?: (report: ReadReport) => void,
  chunkRows: number = CHUNK_ROWS,
): ChunkSource & { report: ReadReport | null } {
  let whole: Table | null = null;
  const source = {
    report: null as ReadReport | null,
    async read(onChunk: (chunk: Table) => void | Promise<void>): Promise<void> {
      let report: ReadReport;
      const { format, ...read } = opts;
      if (whole) {
        await onChunk(whole);
        return;
      }
      if ((await formatOf(path, format)) !== 'csv') {
        const r = await readTable(path, opts);
        opts.onColumns?.(r.report.fileColumns);
        whole = r.table;
        report = r.report;
        await onChunk(whole);
      } else {
        report = { ...(await readCsvChunks(path, read, onChunk, chunkRows)), format: 'csv', unit: 'line' };
      }
      if (!source.report) {
        source.report = report;
        validate?.(report);
      }
    },
  };
  return source;
}
