// The contract every model adapter meets: the BlackBox it returns (whatever the model is: the
// built-in classifier, a JS module, an ONNX file, a column of predictions), and checkPredictions,
// the one check every model's output goes through. A file of its own so that each adapter
// (blackbox.ts, onnx.ts) imports it without importing the others. Core code: no Node imports.
//
// Rows in messages count from 1, in the order of the table handed to predict (for a CSV file read
// with a header: row r is line r + 1, unless the missing-value policy dropped rows).
import { check, inputError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import type { Classifier } from './classifier/classifier.js';
import type { BlackBoxKind } from './adapters.js';

export interface BlackBox {
  readonly kind: BlackBoxKind;
  /** where the model came from (a file path, or "column "pred"") — every message starts with it */
  readonly source: string;
  /** the columns the model reads, when it says so (the built-in model, ONNX sidecars, modules exporting `features`) */
  readonly features?: readonly string[];
  /** P(positive class) per row of `table`, checked by `checkPredictions` */
  predict(table: Table): Promise<Float64Array>;
  /** set when the model is the built-in classifier, whose logit the engine can differentiate (LUCID) */
  readonly differentiable?: Classifier;
}

const SHOW_ROWS = 5;

/** "rows 3, 17, 42, 50, 61, … (9 rows in all)" for 0-based positions `rows` (+ offset). */
function rowList(rows: number[], total: number, offset: number): string {
  const shown = rows.slice(0, SHOW_ROWS).map((r) => r + offset + 1);
  const more = total > shown.length ? ', …' : '';
  return total === 1 ? `row ${shown[0]}` : `rows ${shown.join(', ')}${more} (${total} rows in all)`;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
  if (Array.isArray(v)) return `[${v.slice(0, 3).map(describe).join(', ')}${v.length > 3 ? ', …' : ''}]`;
  if (v === null || v === undefined || typeof v !== 'object') return String(v);
  return 'an object';
}

/**
 * Validates a model's output: exactly `n` numbers (an Array or typed array), none NaN, every one a
 * probability in [0, 1]. Returns them as a new Float64Array. A failure is one E_INPUT line starting
 * with `source`, naming the first few offending rows (1-based) and how many there are in all.
 * `offset` shifts the row numbers (for a batch that starts at row offset + 1).
 */
export function checkPredictions(p: ArrayLike<number>, n: number, source: string, offset = 0): Float64Array {
  const isTyped = ArrayBuffer.isView(p) && !(p instanceof DataView);
  if (!Array.isArray(p) && !isTyped) {
    const hint =
      p !== null && typeof p === 'object' && 'probabilities' in (p as object)
        ? ' (return the probabilities array itself, not an object holding it)'
        : '';
    throw inputError(`${source}: expected an array of ${n} probabilities, got ${describe(p)}${hint}`);
  }
  const span = offset > 0 ? ` (rows ${offset + 1}–${offset + n})` : '';
  check(p.length === n, 'E_INPUT', () => `${source}: returned ${p.length} predictions for ${n} rows${span}; expected one probability per row`);
  const out = new Float64Array(n);
  const nonNumber: number[] = [];
  const nan: number[] = [];
  const outside: number[] = [];
  let nonNumbers = 0;
  let nans = 0;
  let outsides = 0;
  let negative = false;
  for (let i = 0; i < n; i++) {
    const v = p[i] as unknown;
    if (typeof v !== 'number') {
      if (nonNumbers++ < SHOW_ROWS) nonNumber.push(i);
      continue;
    }
    if (Number.isNaN(v)) {
      if (nans++ < SHOW_ROWS) nan.push(i);
    } else if (!(v >= 0 && v <= 1)) {
      if (outsides++ < SHOW_ROWS) outside.push(i);
      if (v < 0) negative = true;
    }
    out[i] = v;
  }
  if (nonNumbers > 0) {
    const first = (p as unknown[])[nonNumber[0]];
    const hint = Array.isArray(first)
      ? '; return one probability of the positive class per row (for [p0, p1] pairs: rows.map(r => r[1]))'
      : '';
    throw inputError(`${source}: predictions must be numbers, but ${rowList(nonNumber, nonNumbers, offset)} ${nonNumbers === 1 ? 'is' : 'are'} not (row ${nonNumber[0] + offset + 1} is ${describe(first)})${hint}`);
  }
  if (nans > 0) throw inputError(`${source}: the prediction is NaN at ${rowList(nan, nans, offset)}`);
  if (outsides > 0) {
    const hint = negative ? '; these look like scores or logits: apply a sigmoid' : '';
    throw inputError(`${source}: predictions must be probabilities in [0, 1], but ${rowList(outside, outsides, offset)} ${outsides === 1 ? 'is' : 'are'} outside (row ${outside[0] + offset + 1} is ${out[outside[0]]})${hint}`);
  }
  return out;
}
