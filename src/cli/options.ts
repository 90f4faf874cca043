// Argument parsers for commander: each throws InvalidArgumentError with a message naming the value.
import { InvalidArgumentError } from 'commander';
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
