// What one text cell spells: missing, a decimal number, a number with a decimal comma. Below the
// schema and the CSV detector, which both read cells (and would otherwise import each other).
// Core code: no Node imports.

export const MISSING_TOKENS: readonly string[] = ['', '?', 'NA', 'NaN', 'null', 'None'];
const MISSING = new Set(MISSING_TOKENS);

/** True when an already trimmed cell is one of MISSING_TOKENS (the builders' hot path: no trim). */
export const isMissingTrimmed = (cell: string): boolean => MISSING.has(cell);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when the cell (trimmed or not) is one of MISSING_TOKENS. */
export function isMissing(cell: string): boolean {
  return MISSING.has(cell.trim());
}

const COMMA_DECIMAL = /^[+-]?(?:\d+(?:,\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?|,\d+)$/;

/**
 * The number a trimmed cell spells with a decimal comma ('1000,00', '0,5', '1.234,5' with dots
 * grouping thousands, or a plain integer), or NaN. '0.5' is not one: with decimal commas a dot groups.
 */
export function parseCommaNumber(cell: string): number {
  if (!COMMA_DECIMAL.test(cell)) return NaN;
  const v = Number(cell.replace(/\./g, '').replace(',', '.'));
  return Number.isFinite(v) ? v : NaN;
}

/**
 * How numbers are written: '.' decimals, ',' decimals, or 'auto' (a column whose numbers all read with commas, at least
 * one with a comma, is read so, and said).
 */
export type DecimalMark = '.' | ',' | 'auto';

/** The finite number a trimmed cell spells in decimal notation, or NaN (hex, 'Infinity', '1,5' are not numbers). */
export function parseNumber(cell: string): number {
  if (!DECIMAL.test(cell)) return NaN;
  const v = Number(cell);
  return Number.isFinite(v) ? v : NaN;
}

/**
 * The number in [0, 1] a text spells (as JavaScript's Number reads it, surrounding spaces allowed), or null: a
 * threshold or share typed by a person.
 */
export function unitIntervalOf(text: string): number | null {
  const v = Number(text);
  return text.trim() === '' || !Number.isFinite(v) || v < 0 || v > 1 ? null : v;
}
