// Browser data path: bytes of a picked file → Table, using only core modules (no fast-csv, no Node).
// CSV: the same rules as the Node reader (src/node/csv.ts): BOM, UTF-8 check, detected delimiter and
// header, trimmed cells, the missing-value policy 'keep'. Parquet, Arrow IPC and JSON Lines: the core
// readers of FORMATS (src/data/formats.ts), as readTable uses them in Node. The whole file is in
// memory (a browser upload).
import { EngineError } from '../src/engine/errors.js';
import { detectCsv, splitRecords } from '../src/data/csv-detect.js';
import { findInvalidUtf8, lineAt, sniffBytes } from '../src/data/csv-scan.js';
import { headerNames, TableBuilder } from '../src/data/schema.js';
import type { Table } from '../src/data/table.js';
import { FORMATS, formatByName, formatOfName, type FormatName } from '../src/data/formats.js';
import { bytesSource } from '../src/data/typed-read.js';
export { tableToCsv } from '../src/data/csv-write.js';

/** The file picker's accept list, from FORMATS (and the CSV MIME type). */
export const DATA_ACCEPT = [...FORMATS.flatMap((f) => f.extensions), 'text/csv'].join(',');

export interface ParsedData {
  table: Table;
  warnings: string[];
  format: FormatName;
  /** how the file was read, for the page: "delimiter ;", "Parquet" */
  how: string;
}

/** The format of an upload: its extension, else its first bytes (PAR1, ARROW1), else CSV. */
function formatOf(bytes: Uint8Array, name: string): FormatName {
  const byName = formatOfName(name);
  if (byName) return byName;
  const head = String.fromCharCode(...bytes.subarray(0, 6));
  return head.startsWith('PAR1') ? 'parquet' : head === 'ARROW1' ? 'arrow' : 'csv';
}

/** Reads an uploaded data file of any format in FORMATS; every problem is an E_INPUT EngineError naming the file. */
export async function parseDataBytes(buf: ArrayBuffer | Uint8Array, file: string): Promise<ParsedData> {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const format = formatOf(bytes, file);
  const f = formatByName(format);
  if (!f.read) {
    const csv = parseCsvBytes(bytes, file);
    const delim = csv.delimiter === '\t' ? 'tab' : csv.delimiter === 'whitespace' ? 'whitespace' : `"${csv.delimiter}"`;
    return { table: csv.table, warnings: csv.warnings, format, how: `delimiter ${delim}` };
  }
  const { table, report } = await f.read(bytesSource(bytes), file, { missing: 'keep' });
  if (table.columns.length < 2) throw inputError(`${file}: at least two columns are needed (found ${table.columns.length}: ${table.columns.map((c) => c.name).join(', ')})`);
  return { table, warnings: report.warnings, format, how: f.label.split(' (')[0] };
}

export interface ParsedCsv {
  table: Table;
  warnings: string[];
  delimiter: string;
  header: boolean;
}

const inputError = (msg: string) => new EngineError('E_INPUT', msg);

/** Parses a whole CSV file; every problem is an E_INPUT EngineError naming the file. */
export function parseCsvBytes(buf: ArrayBuffer | Uint8Array, file: string): ParsedCsv {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  if (bytes.length === 0) throw inputError(`${file}: the file is empty`);
  sniffBytes(bytes.subarray(0, 64 * 1024), file);
  if (bytes.indexOf(0) >= 0) throw inputError(`${file}: not a CSV file (it holds binary data)`);
  const bad = findInvalidUtf8(bytes);
  if (bad >= 0) throw inputError(`${file}: not valid UTF-8 at byte offset ${bad} (line ${lineAt(bytes, bad)}); save the file as UTF-8`);
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  return parseCsvText(text, file);
}

/** Parses CSV text (a BOM, if any, already removed or kept: both work). */
export function parseCsvText(text: string, file: string): ParsedCsv {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const det = detectCsv(body, { file, complete: true });
  const records = splitRecords(body, det.delimiter);
  if (records.length === 0) throw inputError(`${file}: the file holds only blank lines`);
  const first = records[0];
  let names: string[];
  let start = 0;
  if (det.header) {
    // a repeated name is renamed name.1, … silently here (the page lists the columns it found)
    names = headerNames(file, first, 1, () => {});
    start = 1;
  } else {
    names = first.map((_, i) => `c${i + 1}`);
  }
  if (names.length < 2) throw inputError(`${file}: not a CSV file with at least two columns (found ${names.length}: ${names.join(', ')})`);
  const builder = new TableBuilder(file, names, { missing: 'keep' });
  // line numbers: records do not carry them; count line breaks in the fields as we go (approximate for quoted breaks)
  for (let r = start; r < records.length; r++) builder.addRow(records[r], r + 1);
  if (builder.rowsRead === 0) throw inputError(`${file}: line 1 is a header (${names.join(', ')}) but no data rows follow`);
  const built = builder.finish();
  return { table: built.table, warnings: built.warnings, delimiter: det.delimiter, header: det.header };
}

/** Checks that `name` is a prediction column: numeric, every value in [0, 1]. Returns an error message or null. */
export function checkPredColumn(table: Table, name: string): string | null {
  const col = table.columns.find((c) => c.name === name);
  if (!col) return `no column named "${name}"`;
  if (col.kind !== 'numeric') {
    const sample = col.categories.slice(0, 3).map((s) => JSON.stringify(s)).join(', ');
    return `column "${name}" is not numeric (it holds ${sample}${col.categories.length > 3 ? ', …' : ''}); the predictions column must hold numbers in [0, 1] (probabilities or 0/1 decisions)`;
  }
  const v = col.values;
  for (let i = 0; i < v.length; i++) {
    if (!(v[i] >= 0 && v[i] <= 1)) {
      return `column "${name}" has the value ${v[i]} (row ${i + 1}), outside [0, 1]; the predictions column must hold probabilities or 0/1 decisions`;
    }
  }
  return null;
}
