// The contract every model adapter meets: the BlackBox it returns (whatever the model is: the
// built-in classifier, a JS module, an ONNX file, a column of predictions), and checkPredictions,
// the one check every model's output goes through. A file of its own so that each adapter
// (blackbox.ts, onnx.ts) imports it without importing the others. Core code: no Node imports.
//
// Rows in messages count from 1, in the order of the table handed to predict (for a CSV file read
// with a header: row r is line r + 1, unless the missing-value policy dropped rows).
import { check, EngineError, inputError } from '../engine/errors.js';
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
  /**
   * what the model says of its classes, when it can (the built-in model, an ONNX sidecar, a module exporting
   * `positive`): checked against the data before it is called (checkModelClasses)
   */
  readonly classes?: ModelClasses;
}

/**
 * The classes a model records: the one whose probability it gives, and where it can say, all of them and the label they
 * came from.
 */
export interface ModelClasses {
  /** the class whose probability predict returns */
  readonly positive: string;
  /** every class it knows (the built-in model: the label values seen in training) */
  readonly values?: readonly string[];
  /** the label column it was trained on (informational: the data may name it otherwise) */
  readonly label?: string;
  /** where the model says so, for messages: "model.json records" */
  readonly recordedIn: string;
}

/**
 * Before a model is called: the class it gives the probability of (mapped by `classMap`, model class →
 * data value, `--model-classes`) must be the data's positive class, else every direction of the audit
 * would reverse silently. A mismatch is a usage error naming both; a class map naming classes or values
 * that do not exist is one too. A model that says nothing of its classes passes (its scores are checked
 * after scoring instead: fit.ts).
 */
export function checkModelClasses(
  model: Pick<BlackBox, 'source' | 'classes'>,
  data: {
    label: string;
    values: readonly string[];
    positive: string;
    positiveGiven: boolean;
    classMap?: Readonly<Record<string, string>>;
  },
): void {
  const map = data.classMap;
  const c = model.classes;
  if (map) {
    check(
      c !== undefined,
      'E_ARG',
      () =>
        `--model-classes: ${model.source} records no classes to map (only a built-in model, an ONNX sidecar's ` +
        `"positive" or a module exporting \`positive\` does)`,
    );
    for (const [from, to] of Object.entries(map)) {
      check(
        !c!.values || c!.values.includes(from) || from === c!.positive,
        'E_ARG',
        () =>
          `--model-classes ${from}=${to}: "${from}" is not a class of ${model.source} (its classes: ` +
          `${(c!.values ?? [c!.positive]).join(', ')})`,
      );
      check(
        data.values.includes(to),
        'E_ARG',
        () =>
          `--model-classes ${from}=${to}: "${to}" is not a value of the label "${data.label}" (its values: ` +
          `${data.values.join(', ')})`,
      );
    }
    const targets = Object.values(map);
    check(
      new Set(targets).size === targets.length,
      'E_ARG',
      () =>
        `--model-classes: two of the model's classes map to the same value (${Object.entries(map)
          .map(([a, b]) => `${a}=${b}`)
          .join(',')})`,
    );
  }
  if (!c) return;
  const mapped = map?.[c.positive] ?? c.positive;
  const via = map?.[c.positive] !== undefined ? ` (mapped to "${mapped}" by --model-classes)` : '';
  if (!data.values.includes(mapped)) {
    const example =
      c.values && c.values.length === data.values.length
        ? c.values.map((v, i) => `${v}=${data.values[i]}`).join(',')
        : `${c.positive}=<value>`;
    throw new EngineError(
      'E_ARG',
      `${model.source}: ${c.recordedIn} the positive class "${c.positive}"${via}, which is not a value of the label ` +
        `"${data.label}" (its values: ${data.values.join(', ')}); if the data codes the model's classes ` +
        `otherwise, map them with --model-classes (e.g. ${example}, model class = data value)`,
    );
  }
  if (mapped !== data.positive) {
    throw new EngineError(
      'E_ARG',
      `${model.source}: ${c.recordedIn} the positive class "${c.positive}"${via}: it gives the probability of ` +
        `"${mapped}", but the positive class here is "${data.positive}"` +
        `${data.positiveGiven ? '' : ' (the default: the second of the label’s two values)'}; its scores would ` +
        `be read as the probability of "${data.positive}" and every direction would reverse. Audit with ` +
        `--positive ${JSON.stringify(mapped)} (and --favourable negative if "${mapped}" is the unfavourable ` +
        `outcome), or use a model trained with "${data.positive}" as its positive class`,
    );
  }
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
  check(
    p.length === n,
    'E_INPUT',
    () => `${source}: returned ${p.length} predictions for ${n} rows${span}; expected one probability per row`,
  );
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
    throw inputError(
      `${source}: predictions must be numbers, but ${rowList(nonNumber, nonNumbers, offset)} ` +
        `${nonNumbers === 1 ? 'is' : 'are'} not (row ${nonNumber[0] + offset + 1} is ${describe(first)})${hint}`,
    );
  }
  if (nans > 0) throw inputError(`${source}: the prediction is NaN at ${rowList(nan, nans, offset)}`);
  if (outsides > 0) {
    const hint = negative ? '; these look like scores or logits: apply a sigmoid' : '';
    throw inputError(
      `${source}: predictions must be probabilities in [0, 1], but ${rowList(outside, outsides, offset)} ` +
        `${outsides === 1 ? 'is' : 'are'} outside (row ${outside[0] + offset + 1} is ${out[outside[0]]})${hint}`,
    );
  }
  return out;
}
