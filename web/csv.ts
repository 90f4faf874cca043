// Browser CSV path: bytes of a picked file → Table, using only core modules (no fast-csv, no Node).
// Same rules as the Node reader (src/node/csv.ts): BOM, UTF-8 check, detected delimiter and header,
// trimmed cells, the missing-value policy 'keep'. The whole file is in memory (a browser upload).
import { EngineError } from '../src/engine/errors.js';
import { detectCsv, splitRecords } from '../src/data/csv-detect.js';
import { findInvalidUtf8, lineAt, sniffBytes } from '../src/data/csv-scan.js';
import { TableBuilder } from '../src/data/schema.js';
import type { Column, Table } from '../src/data/table.js';

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
    names = first.map((f) => f.trim());
    const empty = names.indexOf('');
    if (empty >= 0) throw inputError(`${file}: line 1: field ${empty + 1} has no column name`);
    names = dedupe(names);
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

function dedupe(names: string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  return names.map((n) => {
    if (!seen.has(n)) {
      seen.add(n);
      return n;
    }
    let k = 1;
    while (taken.has(`${n}.${k}`)) k++;
    const renamed = `${n}.${k}`;
    taken.add(renamed);
    return renamed;
  });
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

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function cellText(c: Column, r: number): string {
  if (c.kind === 'numeric') {
    const v = c.values[r];
    return Number.isNaN(v) ? '' : Object.is(v, -0) ? '-0' : String(v);
  }
  return c.codes[r] < 0 ? '' : c.categories[c.codes[r]];
}

/** A Table as CSV text (header line, comma-separated, quoted where needed, LF line ends). */
export function tableToCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvField(c.name)).join(',')];
  for (let r = 0; r < table.rows; r++) lines.push(table.columns.map((c) => csvField(cellText(c, r))).join(','));
  return lines.join('\n') + '\n';
}
