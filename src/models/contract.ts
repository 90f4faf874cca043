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
import { BINARY_OUTPUT, type ModelOutput } from './output.js';

export interface BlackBox {
  readonly kind: BlackBoxKind;
  /** where the model came from (a file path, or "column "pred"") — every message starts with it */
  readonly source: string;
  /** the columns the model reads, when it says so (the built-in model, ONNX sidecars, modules exporting `features`) */
  readonly features?: readonly string[];
  /**
   * What predict returns (ModelOutput: binary, score, multiclass with its classes, regression), as the model
   * declares it (each adapter's `output` line in adapters.ts says how); absent means binary, as for every model
   * before output kinds existed. Read it with outputOf.
   */
  readonly output?: ModelOutput;
  /**
   * Per row of `table`, checked by `checkPredictions` against `output`: P(positive class) (binary), a score or a real
   * value (one number per row), or a multiclass model's k class probabilities, row-major (N×k)
   */
  predict(table: Table): Promise<Float64Array>;
  /** set when the model is the built-in classifier, whose logit the engine can differentiate (LUCID) */
  readonly differentiable?: Classifier;
  /**
   * what the model says of its classes, when it can (the built-in model, an ONNX sidecar, a module exporting
   * `positive`): checked against the data before it is called (checkModelClasses)
   */
  readonly classes?: ModelClasses;
}

/** What a black box returns: its declared output, binary when it declares none. */
export function outputOf(box: Pick<BlackBox, 'output'>): ModelOutput {
  return box.output ?? BINARY_OUTPUT;
}

/**
 * Stops a command that reads P(positive) (FALE, LUCID, validity, the audit) when the model returns something else: a
 * score, k class probabilities or a real value would be read as probabilities and give garbage or crash. One E_ARG
 * line naming the model, its kind and the command that measures that kind.
 */
export function requireBinary(box: Pick<BlackBox, 'output' | 'source'>, command: string): void {
  const kind = outputOf(box).kind;
  if (kind === 'binary') return;
  throw new EngineError(
    'E_ARG',
    `${box.source}: is a ${kind} model; lucid ${command} reads a binary classifier's P(positive); write its ` +
      `predictions (lucid model predict --model ${box.source} --data FILE --out scored.csv) and measure them: lucid ` +
      `metrics --data scored.csv --pred <column> --output ${kind}`,
  );
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
 * Validates a model's output for `n` rows as its declared `output` says (default binary), and returns it as a new
 * Float64Array:
 *   binary                exactly `n` numbers (an Array or typed array), none NaN, every one a probability in [0, 1];
 *   score, regression     exactly `n` finite numbers;
 *   multiclass (k classes) `n` arrays of k, or one flat row-major array of n×k, each a probability in [0, 1], each
 *                         row summing to 1 within 1e-6 (returned flat, N×k).
 * A failure is one E_INPUT line starting with `source`, naming the first few offending rows (1-based; for multiclass
 * the row and the class) and how many there are in all. `offset` shifts the row numbers (for a batch that starts at
 * row offset + 1).
 */
export function checkPredictions(
  p: ArrayLike<number> | ArrayLike<ArrayLike<number>>,
  n: number,
  source: string,
  offset = 0,
  output: ModelOutput = BINARY_OUTPUT,
): Float64Array {
  if (output.kind === 'multiclass') return checkClassProbabilities(p, n, source, offset, output.classes);
  if (output.kind !== 'binary') return checkValues(p as ArrayLike<number>, n, source, offset, output.kind);
  return checkProbabilities(p as ArrayLike<number>, n, source, offset);
}

/** The predictions of a binary model: P(positive) per row (checkPredictions). */
function checkProbabilities(p: ArrayLike<number>, n: number, source: string, offset: number): Float64Array {
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

/** The argument is an array (or typed array) at all; else one line saying what was returned instead. */
function requireArray(p: unknown, source: string, what: string): void {
  const isTyped = ArrayBuffer.isView(p) && !(p instanceof DataView);
  if (Array.isArray(p) || isTyped) return;
  throw inputError(`${source}: expected ${what}, got ${describe(p)}`);
}

/** A score or a real value per row: `n` finite numbers (checkPredictions). */
function checkValues(
  p: ArrayLike<number>,
  n: number,
  source: string,
  offset: number,
  kind: 'score' | 'regression',
): Float64Array {
  const one = kind === 'score' ? 'score' : 'value';
  requireArray(p, source, `an array of ${n} ${one}s (a ${kind} output: one number per row)`);
  const span = offset > 0 ? ` (rows ${offset + 1}–${offset + n})` : '';
  check(
    p.length === n,
    'E_INPUT',
    () => `${source}: returned ${p.length} predictions for ${n} rows${span}; expected one ${one} per row (${kind})`,
  );
  const out = new Float64Array(n);
  const bad: number[] = [];
  let bads = 0;
  for (let i = 0; i < n; i++) {
    const v = p[i] as unknown;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      if (bads++ < SHOW_ROWS) bad.push(i);
      continue;
    }
    out[i] = v;
  }
  if (bads > 0) {
    const first = (p as ArrayLike<unknown>)[bad[0]];
    throw inputError(
      `${source}: a ${kind} output must be one finite number per row, but ${rowList(bad, bads, offset)} ` +
        `${bads === 1 ? 'is' : 'are'} not (row ${bad[0] + offset + 1} is ${describe(first)})`,
    );
  }
  return out;
}

/** How far a row's class probabilities may sum from 1 (float32 softmax outputs are within about 1e-7). */
export const PROBABILITY_SUM_TOLERANCE = 1e-6;

/**
 * A multiclass model's class probabilities (checkPredictions): `n` rows of k = classes.length, given as n arrays of k
 * or one flat row-major array of n×k; returned flat.
 */
function checkClassProbabilities(
  p: ArrayLike<number> | ArrayLike<ArrayLike<number>>,
  n: number,
  source: string,
  offset: number,
  classes: readonly string[],
): Float64Array {
  const k = classes.length;
  const shape =
    `${n} rows of ${k} class probabilities (${classes.join(', ')}): ${n} arrays of ${k}, or one flat array of ` +
    `${n}×${k}`;
  requireArray(p, source, shape);
  const span = offset > 0 ? ` (rows ${offset + 1}–${offset + n})` : '';
  const nested = n > 0 && p.length === n && Array.isArray(p[0]);
  check(
    nested || p.length === n * k,
    'E_INPUT',
    () => `${source}: returned ${p.length} predictions for ${n} rows${span}; expected ${shape}`,
  );
  const out = new Float64Array(n * k);
  const rowAt = (i: number): string => `row ${i + offset + 1}`;
  for (let i = 0; i < n; i++) {
    let row: ArrayLike<unknown>;
    let at = 0;
    if (nested) {
      const r = (p as ArrayLike<unknown>)[i];
      const isRow = Array.isArray(r) || (ArrayBuffer.isView(r) && !(r instanceof DataView));
      if (!isRow || (r as ArrayLike<unknown>).length !== k)
        throw inputError(
          `${source}: ${rowAt(i)} is ${describe(r)}; a multiclass output gives ${k} probabilities per row ` +
            `(${classes.join(', ')})`,
        );
      row = r as ArrayLike<unknown>;
    } else {
      row = p as ArrayLike<unknown>;
      at = i * k;
    }
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const v = row[at + c];
      const where = `${rowAt(i)}, class "${classes[c]}"`;
      if (typeof v !== 'number')
        throw inputError(`${source}: ${where}: the probability is ${describe(v)}, not a number`);
      if (Number.isNaN(v)) throw inputError(`${source}: ${where}: the probability is NaN`);
      if (!(v >= 0 && v <= 1))
        throw inputError(
          `${source}: ${where}: ${v} is not a probability in [0, ` +
            `1]${v < 0 ? '; these look like logits: apply a softmax' : ''}`,
        );
      out[i * k + c] = v;
      sum += v;
    }
    if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE))
      throw inputError(
        `${source}: ${rowAt(i)}: the class probabilities (${classes.join(', ')}) sum to ${sum}, not 1 (within ` +
          `${PROBABILITY_SUM_TOLERANCE}); return each row's probabilities of every class, e.g. a softmax`,
      );
  }
  return out;
}
