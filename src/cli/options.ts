// Argument parsers for commander: each throws InvalidArgumentError with a message naming the value.
import { InvalidArgumentError, Option } from 'commander';
import { parseDelimiter, type Delimiter } from '../data/csv-detect.js';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/** An integer ≥ 2 (bins, levels). */
export function intAtLeast2(value: string): number {
  const n = positiveInt(value);
  if (n < 2) throw new InvalidArgumentError(`expected an integer ≥ 2, got "${value}"`);
  return n;
}

/** A probability threshold in [0, 1]; an empty value is an error, not 0. */
export function unitInterval(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0 || v > 1) throw new InvalidArgumentError(`expected a number in [0, 1], got "${value}"`);
  return v;
}

/** Comma-separated numbers, at least two (bin edges); an empty item is an error, not 0. */
export function numberList(value: string): number[] | null {
  const items = value.split(',').map((s) => s.trim());
  if (items.length < 2 || items.some((s) => s === '' || !Number.isFinite(Number(s)))) return null;
  return items.map(Number);
}

/** --delimiter: comma, semicolon, tab or whitespace (or the characters themselves). */
export function delimiter(value: string): Delimiter {
  const d = parseDelimiter(value);
  if (!d) throw new InvalidArgumentError(`expected comma, semicolon, tab or whitespace (or , ; \\t), got "${value}"`);
  return d;
}

/** A comma-separated list of column names. */
export function names(value: string): string[] {
  const list = value.split(',').map((s) => s.trim());
  if (list.some((s) => s === '')) throw new InvalidArgumentError(`expected comma-separated column names, got "${value}"`);
  return list;
}

/** `--format text|json` for commands whose result is a summary of files written. */
export const summaryFormat = () => new Option('--format <f>', 'text, or json: the summary as one JSON object on stdout').choices(['text', 'json']).default('text');

/** Prints a command's summary: the text lines, or `json` as one JSON object with --format json. */
export function printSummary(format: string | undefined, lines: string[], json: object): void {
  process.stdout.write(format === 'json' ? JSON.stringify(json, null, 2) + '\n' : lines.map((l) => `${l}\n`).join(''));
}
