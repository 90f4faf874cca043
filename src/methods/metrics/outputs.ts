// What a model's output is, said once: the four output kinds an audit takes, how the kind is inferred
// from the label and the prediction column when it is not given, and the direction that says which
// outputs are favourable (so that "disadvantaged" keeps its meaning for every kind). The metrics of
// each kind (group-metrics.ts for binary decisions, score.ts, multiclass.ts and regression.ts for the
// others) and every command take the kind from here. Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import type { Column } from '../../data/table.js';
import { isMissing } from '../../data/cells.js';

// the kinds are declared where the models, a layer below, can say which they return
import type { OutputKind } from '../../models/output.js';
export type { OutputKind };

/** Which end of a score or a real value people want: a credit score 'higher', a risk score 'lower'. */
export type Direction = 'higher' | 'lower';
export const DIRECTIONS: readonly Direction[] = ['higher', 'lower'];

/** The one table of output kinds (habit 4): `--output`'s choices and help and the inference's words derive from it. */
export const OUTPUT_KINDS = {
  binary: {
    help: 'a decision between two label values: predicted labels, 0/1, or P(positive) in [0, 1] cut at --threshold',
    favourable: 'positive|negative: whether the --positive class is the outcome people want',
  },
  score: {
    help:
      'a score on any scale (a credit score, a risk decile) ranked against a two-valued label and read whole: ' +
      'AUC, distribution distances and the selection-rate ratio at every threshold, the --threshold cut as one view',
    favourable: 'higher|lower: which end of the score people want',
  },
  multiclass: {
    help:
      'one class among k (approve / refer / decline): per class, the rate each group receives it and its error ' +
      'rates',
    favourable: '--class-order, most favourable class first',
  },
  regression: {
    help: 'a real value (a salary offer, a credit limit): mean, median, bias and error per group',
    favourable: 'higher|lower: which end of the value people want',
  },
} as const satisfies Record<OutputKind, { help: string; favourable: string }>;
export const OUTPUT_KIND_NAMES = Object.keys(OUTPUT_KINDS) as OutputKind[];

/**
 * A label with more distinct values than this, all numbers, is a real value rather than a set of classes when the
 * predictions are numbers too (a 1–5 rating with integer predictions is multiclass; hours per week is regression).
 */
export const MAX_CLASSES = 20;

/** The output as the audit reads it, with how the kind was decided (printed, so that a wrong guess is seen). */
export interface OutputKindChoice {
  kind: OutputKind;
  /** one sentence: "inferred score: "decile" holds numbers outside [0, 1] and the label "recid" has two values" */
  reason: string;
  /** the label's distinct values in reading order (classes for multiclass; the two values for binary and score) */
  labelValues: string[];
}

/** The distinct values of a column that occur, as text (numbers in their shortest form). */
function valuesOf(col: Column): string[] {
  if (col.kind === 'numeric') {
    const s = new Set<number>();
    for (const x of col.values) if (!Number.isNaN(x)) s.add(x);
    return [...s].sort((a, b) => a - b).map(String);
  }
  const seen = new Uint8Array(col.categories.length);
  for (const k of col.codes) if (k >= 0) seen[k] = 1;
  // a missing token ('', '?', NA) the reader kept as a category is no value: never a class of its own
  return col.categories.filter((c, k) => seen[k] && !isMissing(c));
}

/**
 * Whether every value of `col` that occurs is one of `values` (text, as valuesOf writes it), stopping at the first
 * that is not: no set of a score column's ten million distinct numbers is built to find it is not a label.
 */
function allIn(col: Column, values: ReadonlySet<string>): boolean {
  if (col.kind === 'numeric') {
    // String(x) is a value exactly when x is the number of a value whose shortest form it is
    const nums = new Set<number>();
    for (const v of values) if (String(Number(v)) === v) nums.add(Number(v));
    for (const x of col.values) if (!Number.isNaN(x) && !nums.has(x)) return false;
    return true;
  }
  return valuesOf(col).every((v) => values.has(v));
}

const inUnit = (col: Column): boolean => {
  if (col.kind !== 'numeric') return false;
  for (const x of col.values) if (!Number.isNaN(x) && (x < 0 || x > 1)) return false;
  return true;
};

/**
 * The output kind of a prediction column against its label: `given` (`--output`) when named, checked to fit the
 * columns; else inferred:
 *   predicted values that are all values of the label → binary with two label values, multiclass with more
 *     (a numeric label with more than MAX_CLASSES values → regression);
 *   numbers against a two-valued label → binary when all in [0, 1] (P(positive), as always), else score;
 *   numbers against a numeric label with more than two values → regression.
 * Anything else is an E_ARG error that says what was found and what to give.
 */
export function outputKindOf(label: Column, pred: Column, given?: OutputKind): OutputKindChoice {
  const labels = valuesOf(label);
  const lset = new Set(labels);
  const predsAreLabels = allIn(pred, lset);
  const numericLabel = label.kind === 'numeric';
  const where = `the prediction column "${pred.name}"`;
  const two = labels.length === 2;
  const manyNumbers = numericLabel && labels.length > MAX_CLASSES;
  let kind: OutputKind;
  let why: string;
  if (predsAreLabels && !manyNumbers && labels.length >= 2) {
    kind = two ? 'binary' : 'multiclass';
    why = `${where} holds values of the label "${label.name}", which has ${labels.length} values`;
  } else if (pred.kind === 'numeric' && two) {
    kind = inUnit(pred) ? 'binary' : 'score';
    why = inUnit(pred)
      ? `${where} holds numbers in [0, 1] (P(positive)) and the label "${label.name}" has two values`
      : `${where} holds numbers outside [0, 1] and the label "${label.name}" has two values`;
  } else if (pred.kind === 'numeric' && numericLabel && labels.length > 2) {
    kind = 'regression';
    why = `${where} and the label "${label.name}" hold numbers (${labels.length} distinct label values)`;
  } else {
    throw new EngineError(
      'E_ARG',
      `${where} (${pred.kind === 'numeric' ? 'numbers' : `values such as ${valuesOf(pred).slice(0, 3).join(', ')}`}) ` +
        `does not fit the label "${label.name}" (${labels.length} values: ${labels.slice(0, 6).join(', ')}): give ` +
        `predicted labels, a score against a two-valued label, or numbers against a numeric label (--output ` +
        `${OUTPUT_KIND_NAMES.join('|')})`,
    );
  }
  if (given === undefined || given === kind) {
    return {
      kind,
      reason: given === undefined ? `inferred ${kind}: ${why}` : `${kind}, as --output says (${why})`,
      labelValues: labels,
    };
  }
  // a named kind overrides the guess where the columns allow it
  const fits: Record<OutputKind, boolean> = {
    binary: two && (predsAreLabels || inUnit(pred)),
    score: two && pred.kind === 'numeric',
    multiclass: predsAreLabels && labels.length >= 2,
    regression: pred.kind === 'numeric' && numericLabel,
  };
  check(
    fits[given],
    'E_ARG',
    () =>
      `--output ${given} does not fit the columns: ${why}; ${given} needs ${
        given === 'binary'
          ? 'a two-valued label and predicted labels or P(positive) in [0, 1]'
          : given === 'score'
            ? 'a two-valued label and numeric predictions'
            : given === 'multiclass'
              ? 'predictions that are values of the label'
              : 'a numeric label and numeric predictions'
      }`,
  );
  return { kind: given, reason: `${given}, as --output says (inferred would be ${kind}: ${why})`, labelValues: labels };
}

/**
 * The favourable direction of a score or a real value from `--favourable`: higher or lower, which must be given. A
 * default would audit a risk score (a high decile predicts reoffending) the wrong way round without a word, its
 * advantaged groups named disadvantaged; the binary words are refused with the kind's own words.
 */
export function directionOf(kind: 'score' | 'regression', given: string | undefined): Direction {
  const what = kind === 'score' ? 'score' : 'value';
  check(
    given !== undefined,
    'E_ARG',
    () =>
      `a ${kind} output needs --favourable higher or lower: which end of the ${what} people want (${
        kind === 'score'
          ? 'a credit score: higher; a risk score: lower'
          : 'a salary or a credit limit: higher; a price or a fine: lower'
      })`,
  );
  check(
    given === 'higher' || given === 'lower',
    'E_ARG',
    () =>
      `--favourable ${given} is for binary decisions; a ${kind} output takes --favourable higher or lower (which end ` +
      `of the ${what} people want)`,
  );
  return given as Direction;
}

/**
 * The classes of a multiclass output in `--class-order` (most favourable first): every class of the label and the
 * predictions exactly once. Without an order, null: every class's disparity is then "differs" (no direction).
 */
export function classOrderOf(classes: readonly string[], given: readonly string[] | undefined): string[] | null {
  if (given === undefined) return null;
  const seen = new Set<string>();
  for (const c of given) {
    check(!seen.has(c), 'E_ARG', () => `--class-order names "${c}" twice`);
    seen.add(c);
    check(
      classes.includes(c),
      'E_ARG',
      () => `--class-order names "${c}", which is not a class of the label; its classes are: ${classes.join(', ')}`,
    );
  }
  const missing = classes.filter((c) => !seen.has(c));
  check(
    missing.length === 0,
    'E_ARG',
    () => `--class-order must name every class, most favourable first; it leaves out: ${missing.join(', ')}`,
  );
  return [...given];
}

/**
 * What receiving class `c` means for a group under `order`: +1 the most favourable class (more of it favours the
 * group), −1 the least favourable, 0 a class between them or no order (a disparity "differs").
 */
export function classSign(order: readonly string[] | null, c: string): 1 | -1 | 0 {
  if (order === null || order.length < 2) return 0;
  if (order[0] === c) return 1;
  if (order[order.length - 1] === c) return -1;
  return 0;
}
