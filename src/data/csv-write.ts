// Table → CSV text, runtime-neutral: the one place cells become text. The Node writer
// (src/node/csv.ts, streaming through fast-csv) formats cells here too, and the browser page and the
// edge worker use tableToCsv, so all three write the same bytes for the same table. Every CSV the
// tool writes (tables, metrics, FALE, distributions) goes through csvText or csvField, so every one is
// safe to open in a spreadsheet (see escapeFormula).
import type { Column, Table } from './table.js';

/**
 * The shortest text that parses back to the same float64 (JS's Number→String is exactly that; −0 keeps its sign); NaN
 * is an empty cell.
 */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return '';
  return Object.is(v, -0) ? '-0' : String(v);
}

/** Row r of column c as unquoted text ('' for a missing cell), exactly as held: for display; a CSV writes csvText. */
export function cellText(c: Column, r: number): string {
  if (c.kind === 'numeric') return formatNumber(c.values[r]);
  return c.codes[r] < 0 ? '' : c.categories[c.codes[r]];
}

/** A plain decimal number such as -3.5, +2, -1e-3 or .5: a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell made safe to open in a spreadsheet (CSV injection, as OWASP advises): text that begins
 * with `=`, `+`, `-`, `@`, a tab or a carriage return, which Excel, LibreOffice or Google Sheets could
 * run as a formula (`=cmd|' /C calc'!A0`), gets a single quote in front (`'=cmd|' /C calc'!A0`), so it
 * is shown as text. A plain number (-3.5, +2, -1e-3) is left alone, so numbers stay numbers. The
 * quoting a delimiter, quote or line break needs comes after, as for any cell. lucid's reader does not
 * remove the quote: reading the file back gives the escaped text.
 */
export function escapeFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

/**
 * Row r of column c as a CSV cell before quoting: numbers as formatNumber writes them, labels through escapeFormula.
 */
export function csvText(c: Column, r: number): string {
  return c.kind === 'numeric' ? formatNumber(c.values[r]) : escapeFormula(cellText(c, r));
}

/** Quoted when it holds a comma, a quote or a line break (fast-csv's rule for the comma delimiter). */
function quote(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One comma-separated field: '' for a missing value, String() of a number or a boolean (never
 * escaped: a numeric column stays numeric), a text through escapeFormula; then quoted as `quote` does.
 */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  return quote(typeof v === 'string' ? escapeFormula(v) : String(v));
}

/** A table as comma-separated text: the header line, then one line per row, every line ending in \n. */
export function tableToCsv(table: Table): string {
  const cols = table.columns;
  const lines = [cols.map((c) => quote(escapeFormula(c.name))).join(',')];
  for (let r = 0; r < table.rows; r++) lines.push(cols.map((c) => quote(csvText(c, r))).join(','));
  return lines.join('\n') + '\n';
}
