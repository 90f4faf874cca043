// Table → CSV text, runtime-neutral: the one place cells become text. The Node writer
// (src/node/csv.ts, streaming through fast-csv) formats cells here too, and the browser page and the
// edge worker use tableToCsv, so all three write the same bytes for the same table.
import type { Column, Table } from './table.js';

/** The shortest text that parses back to the same float64 (JS's Number→String is exactly that; −0 keeps its sign); NaN is an empty cell. */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return '';
  return Object.is(v, -0) ? '-0' : String(v);
}

/** Row r of column c as unquoted text ('' for a missing cell). */
export function cellText(c: Column, r: number): string {
  if (c.kind === 'numeric') return formatNumber(c.values[r]);
  return c.codes[r] < 0 ? '' : c.categories[c.codes[r]];
}

/** Quoted when it holds a comma, a quote or a line break (fast-csv's rule for the comma delimiter). */
function quote(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One comma-separated field: '' for a missing value, String() of a number, quoted as `quote` does. */
export function csvField(v: string | number | null | undefined): string {
  return v === null || v === undefined ? '' : quote(String(v));
}

/** A table as comma-separated text: the header line, then one line per row, every line ending in \n. */
export function tableToCsv(table: Table): string {
  const cols = table.columns;
  const lines = [cols.map((c) => quote(c.name)).join(',')];
  for (let r = 0; r < table.rows; r++) lines.push(cols.map((c) => quote(cellText(c, r))).join(','));
  return lines.join('\n') + '\n';
}
