// The output an audit reads, settled before any work (plan.ts calls it): its kind (outputs.ts), why, and the
// direction that gives "disadvantaged" its meaning. A predictions column's kind is inferred by outputKindOf (or
// named by --output and checked to fit the columns); a model's is the output it declares (adapters say it), checked
// against --output and the label. The options of the other kinds are refused here, in the audit's words, so that a
// mistaken flag costs no model call. Core code: no Node imports.
import { check, EngineError } from '../engine/errors.js';
import { getColumn, type Table } from '../data/table.js';
import { outputOf, outputText, type BlackBox } from '../models/blackbox.js';
import { outputChoice } from '../methods/metrics/index.js';
import { classOrderOf, directionOf, type Direction, type OutputKind } from '../methods/metrics/outputs.js';
import type { AuditOptions } from './options.js';
import { parseBand, type BandSpec } from '../methods/metrics/targets.js';

/** The output kinds whose audit is the group metrics of outputMetrics alone (no binary decision to draw sets from). */
export type MetricsOnlyKind = Exclude<OutputKind, 'binary'>;

/** What the audit reads from the model or the predictions column. */
export interface OutputPlan {
  kind: OutputKind;
  /** one sentence, the summary's and the report's first line for the kinds other than binary */
  reason: string;
  /** score and regression: which end people want (--favourable higher|lower, default higher) */
  direction: Direction | null;
  /** multiclass: the classes most favourable first (--class-order), or null (every disparity "differs") */
  classOrder: string[] | null;
  /** score: the threshold view's cut as given (any finite number), or undefined: outputMetrics' default */
  threshold: number | undefined;
  /** regression: the band in the output's units (--tolerance-units) */
  toleranceUnits: number | undefined;
  /** score and regression: the bands of the canonical sets as given (--band, --band-scale); empty: the default */
  bands: BandSpec[];
  /** multiclass: the classes of the canonical sets as given (--class); empty: the class order's ends */
  targetClasses: string[];
}

/** The distinct values of a column as text, sorted (numbers as numbers). */
function distinctText(table: Table, name: string): string[] {
  const c = getColumn(table, name, 'audit', 'label');
  if (c.kind === 'numeric') {
    const s = new Set<number>();
    for (const x of c.values) if (!Number.isNaN(x)) s.add(x);
    return [...s].sort((a, b) => a - b).map(String);
  }
  const seen = new Uint8Array(c.categories.length);
  for (const k of c.codes) if (k >= 0) seen[k] = 1;
  return c.categories.filter((_, k) => seen[k]).sort();
}

/**
 * The kind of a model's output: the one it declares, which --output may confirm but not change, checked against the
 * label (a score needs a two-valued label, a multiclass model's classes must be the label's, a regressor a numeric
 * label with more than two values).
 */
function modelKind(table: Table, opts: AuditOptions, model: BlackBox): { kind: OutputKind; reason: string } {
  const declared = outputOf(model);
  const kind = declared.kind;
  check(
    opts.output === undefined || opts.output === kind,
    'E_ARG',
    () =>
      `audit: --output ${opts.output} does not fit the model: ${model.source} declares a ${outputText(declared)} ` +
      `output (drop --output, or audit a column of its predictions with --pred)`,
  );
  const values = distinctText(table, opts.label);
  const label = `the label "${opts.label}"`;
  if (kind === 'score')
    check(
      values.length === 2,
      'E_ARG',
      () =>
        `audit: ${model.source} returns a score, which is read against a two-valued label; ${label} has ` +
        `${values.length} values (${values.slice(0, 6).join(', ')})`,
    );
  if (kind === 'regression')
    check(
      getColumn(table, opts.label, 'audit', 'label').kind === 'numeric' && values.length > 2,
      'E_ARG',
      () =>
        `audit: ${model.source} returns a real value, which is read against a numeric label with more than two ` +
        `values; ${label} has ${values.length} (${values.slice(0, 6).join(', ')})`,
    );
  if (declared.kind === 'multiclass') {
    const foreign = declared.classes.filter((c) => !values.includes(c));
    check(
      foreign.length === 0,
      'E_ARG',
      () =>
        `audit: ${model.source} predicts the classes ${declared.classes.join(', ')}, but ${foreign.join(', ')} ` +
        `${foreign.length === 1 ? 'is not a value' : 'are not values'} of ${label} (${values.slice(0, 8).join(', ')})`,
    );
  }
  return {
    kind,
    reason:
      opts.output === kind
        ? `${kind}, as --output says and the model declares (${model.source}: ${outputText(declared)})`
        : `${kind}: the model declares it (${model.source}: ${outputText(declared)})`,
  };
}

/**
 * A predictions column's kind: outputChoice's (inferred with its reason, or --output checked against the columns).
 * Without --output, a column whose kind cannot be inferred is read as binary, as the audit always read it, so that its
 * errors stay the binary audit's own.
 */
function columnKind(table: Table, opts: AuditOptions, pred: string): { kind: OutputKind; reason: string } {
  const pick = { label: opts.label, pred, output: opts.output, positive: opts.positive };
  if (opts.output !== undefined) return outputChoice(table, pick);
  try {
    return outputChoice(table, pick);
  } catch (e) {
    if (e instanceof EngineError && e.code === 'E_ARG') return { kind: 'binary', reason: 'binary' };
    throw e;
  }
}

/**
 * The audit's output, settled and checked (see the file's head). `threshold` is the caller's --threshold when it
 * was given (a score's cut is on its own scale; a binary audit reads it as it always did).
 */
export function outputPlan(table: Table, opts: AuditOptions, model: BlackBox | undefined, pred: string | undefined) {
  const { kind, reason } = model ? modelKind(table, opts, model) : columnKind(table, opts, pred!);
  const refuse = (flag: string, given: unknown, kinds: string) =>
    check(given === undefined, 'E_ARG', () => `audit: ${flag} is for ${kinds} outputs; this one is ${reason}`);
  const plan: OutputPlan = {
    kind,
    reason,
    direction: null,
    classOrder: null,
    threshold: undefined,
    toleranceUnits: undefined,
    bands: [],
    targetClasses: [],
  };
  if (kind !== 'score' && kind !== 'regression') {
    refuse('--band', opts.bands?.length ? opts.bands : undefined, 'score and regression');
    refuse('--band-scale', opts.bandScale, 'score and regression');
  } else {
    const given = opts.bands ?? [];
    check(
      opts.bandScale === undefined || given.length > 0,
      'E_ARG',
      () => `audit: --band-scale reads --band; give a band (the default deciles are quantiles)`,
    );
    check(given.length <= 2, 'E_ARG', () => `audit: --band is given at most twice (two bands to contrast)`);
    plan.bands = given.map((b) => parseBand(b, opts.bandScale ?? 'quantile', 'audit'));
  }
  if (kind !== 'multiclass')
    refuse('--class', opts.targetClasses?.length ? opts.targetClasses : undefined, 'multiclass');
  else {
    const given = opts.targetClasses ?? [];
    check(given.length <= 2, 'E_ARG', () => `audit: --class is given at most twice (two classes to contrast)`);
    plan.targetClasses = [...given];
  }
  if (kind !== 'regression') refuse('--tolerance-units', opts.toleranceUnits, 'regression');
  if (kind !== 'multiclass') refuse('--class-order', opts.classOrder, 'multiclass');
  if (kind === 'regression' || kind === 'multiclass') {
    refuse('--threshold', opts.threshold, 'binary and score');
    refuse('--positive', opts.positive, 'binary and score');
    refuse('--legitimate', opts.legitimate, 'binary and score');
    refuse('--model-classes', opts.modelClasses, 'binary');
  }
  switch (kind) {
    case 'binary': {
      // the words of scores and real values are named as such; any other word is the group metrics' to refuse
      const f = opts.favourable;
      check(
        f !== 'higher' && f !== 'lower',
        'E_ARG',
        () =>
          `audit: --favourable ${f} is for scores and real values; a binary decision takes --favourable positive or ` +
          `negative (whether the --positive class is the outcome people want)`,
      );
      break;
    }
    case 'score':
      refuse('--model-classes', opts.modelClasses, 'binary');
      plan.direction = directionOf('score', opts.favourable);
      check(
        opts.threshold === undefined || Number.isFinite(opts.threshold),
        'E_ARG',
        () => `audit: --threshold must be a finite number, got ${opts.threshold}`,
      );
      plan.threshold = opts.threshold;
      break;
    case 'regression':
      plan.direction = directionOf('regression', opts.favourable);
      check(
        opts.toleranceUnits === undefined || (Number.isFinite(opts.toleranceUnits) && opts.toleranceUnits > 0),
        'E_ARG',
        () => `audit: --tolerance-units must be a positive number, got ${opts.toleranceUnits}`,
      );
      plan.toleranceUnits = opts.toleranceUnits;
      break;
    case 'multiclass': {
      check(
        opts.favourable === undefined,
        'E_ARG',
        () =>
          `audit: --favourable is for binary decisions, scores and real values; a multiclass output takes ` +
          `--class-order, most favourable class first`,
      );
      // the classes: the label's, and a model's own (a class it predicts that no row is labelled with)
      const classes = distinctText(table, opts.label);
      if (model) {
        const o = outputOf(model);
        if (o.kind === 'multiclass') for (const c of o.classes) if (!classes.includes(c)) classes.push(c);
      }
      plan.classOrder = classOrderOf(classes, opts.classOrder);
      for (const c of plan.targetClasses)
        check(
          classes.includes(c),
          'E_ARG',
          () => `audit: --class "${c}" is not a class of the output; its classes are: ${classes.join(', ')}`,
        );
      break;
    }
  }
  return plan;
}
