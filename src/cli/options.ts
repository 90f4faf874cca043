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
