// Node layer: the columns a command needs, read in chunks into one compact Table (#20: metrics over
// ten million rows). Only those columns are kept, as typed arrays sized once from a bound on the
// file's rows; only one chunk of text is ever in memory.
import { TableAppender, CHUNK_ROWS } from '../data/chunks.js';
import type { ChunkSource } from '../methods/fale/stream.js';
import { requireColumns, type Table } from '../data/table.js';
import { lineBound, readCsvChunks, type ReadOptions, type ReadReport } from './csv.js';

/**
 * Reads `columns` (option name → column names, as requireColumns takes them: a name the file lacks is
 * a usage error naming the option, with "did you mean") of the file at `path`.
 */
export async function readColumns(path: string, opts: ReadOptions, columns: Record<string, string | readonly (string | undefined)[] | undefined>, chunkRows: number = CHUNK_ROWS): Promise<{ table: Table; report: ReadReport }> {
  const wanted = [...new Set(Object.values(columns).flatMap((v) => (v === undefined ? [] : typeof v === 'string' ? [v] : v.filter((x): x is string => x !== undefined))))];
  const bound = await lineBound(path);
  let appender: TableAppender | null = null;
  const report = await readCsvChunks(
    path,
    {
      ...opts,
      keep: wanted,
      // the names checked against every column of the file before a row is read, so "did you mean" sees them all
      onColumns: (names) => requireColumns({ rows: 0, columns: names.map((name) => ({ kind: 'numeric', name, values: new Float64Array(0) })) }, path, columns),
    },
    (chunk) => {
      appender ??= new TableAppender(chunk.columns.map((c) => c.name), bound);
      appender.add(chunk);
    },
    chunkRows,
  );
  return { table: (appender as TableAppender | null)?.table() ?? { rows: 0, columns: [] }, report };
}

/**
 * A CSV file as a ChunkSource (src/methods/fale/stream.ts): every read streams the file from the
 * start. After the first read, `validate` sees its report (to refuse a label of "numbers with a few
 * text cells", say) before any later pass; `report` is that first read's.
 */
export function csvSource(path: string, opts: ReadOptions, validate?: (report: ReadReport) => void, chunkRows: number = CHUNK_ROWS): ChunkSource & { report: ReadReport | null } {
  const source = {
    report: null as ReadReport | null,
    async read(onChunk: (chunk: Table) => void | Promise<void>): Promise<void> {
      const report = await readCsvChunks(path, opts, onChunk, chunkRows);
      if (!source.report) {
        source.report = report;
        validate?.(report);
      }
    },
  };
  return source;
}
