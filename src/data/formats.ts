// The input formats, one table (FORMATS): the CLI's help, readTable's choice by extension, the
// browser page's file picker and docs/data.md derive from it. Core code: no Node imports; the
// readers take bytes or async byte sources, src/node/read-table.ts gives them files.
import type { FormatName } from './format-name.js';
import type { FormatReader } from './typed-read.js';

export type { FormatName };

export interface Format {
  name: FormatName;
  label: string;
  /** lower-case, with the dot; the first is the usual one */
  extensions: readonly string[];
  /**
   * The runtime-neutral reader. CSV has none here: Node streams it through fast-csv
   * (src/node/csv.ts readCsv), the browser page reads the upload whole (src/data/csv-read.ts); both
   * take their settings from csvSettings there.
   */
  read: FormatReader | null;
}

/** One table per extension point: a new format is one row here and its reader module. */
export const FORMATS: readonly Format[] = [
  {
    name: 'csv',
    label: 'CSV (delimited text: comma, semicolon, tab or spaces)',
    extensions: ['.csv', '.tsv', '.txt', '.data'],
    read: null,
  },
  // readers load on first use: a page or command that reads only CSV never loads hyparquet or apache-arrow
  {
    name: 'parquet',
    label: 'Apache Parquet (uncompressed, snappy, gzip, zstd, brotli, lz4)',
    extensions: ['.parquet', '.pq'],
    read: async (src, file, opts) => (await import('./parquet.js')).readParquet(src, file, opts),
  },
  {
    name: 'arrow',
    label: 'Apache Arrow IPC (file and stream formats, Feather v2)',
    extensions: ['.arrow', '.feather', '.ipc', '.arrows'],
    read: async (src, file, opts) => (await import('./arrow.js')).readArrow(src, file, opts),
  },
  {
    name: 'jsonl',
    label: 'JSON Lines (one object per line)',
    extensions: ['.jsonl', '.ndjson'],
    read: async (src, file, opts) => (await import('./jsonl.js')).readJsonLines(src, file, opts),
  },
];

export const FORMAT_NAMES: readonly FormatName[] = FORMATS.map((f) => f.name);

export function formatByName(name: FormatName): Format {
  return FORMATS.find((f) => f.name === name)!;
}

/** The format a file name's extension says, or null. */
export function formatOfName(name: string): FormatName | null {
  const lower = name.toLowerCase();
  for (const f of FORMATS) if (f.extensions.some((e) => lower.endsWith(e))) return f.name;
  return null;
}

/** Every extension, comma-separated (an <input accept> list). */
export function acceptList(): string {
  return FORMATS.flatMap((f) => f.extensions).join(',');
}

/** One line per format for --help and docs: "csv: CSV (…): .csv .tsv …". */
export function formatsHelp(): string {
  return FORMATS.map((f) => `${f.name} (${f.extensions.join(' ')}): ${f.label}`).join('; ');
}
