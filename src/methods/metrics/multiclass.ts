// Group metrics of a multiclass output (approve / refer / decline): per class, one against the rest, the rate at which
// each group receives it and its two error rates, compared with the reference group by the binary test of
// verdicts.ts. A class c splits every row into "predicted c" or not and "labelled c" or not, a binary confusion
// matrix; the three rates are the positivity rate, FNR and FPR of METRIC_DEFS on it (no rate is defined here again).
// Whether more of class c favours a group comes from the class order (outputs.ts classSign): the most favourable class
// is a binary decision whose positive is favourable, the least favourable one whose positive is unfavourable, and a
// class between them (or any class without an order) has no direction, so its disparities "differ".
// References, intersections, unknown protected values, small groups and suppression follow groupMetrics; every
// comparison of a report (every class, rate, group and attribute) is one Holm family. Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import { getColumn, type Table } from '../../data/table.js';
import { isMissing } from '../../data/cells.js';
import { metricDef, type Counts, type MetricName } from './definitions.js';
import {
  attributes,
  chooseReference,
  countVerdicts,
  labelValues,
  metricsSettings,
  verdictsBeforeHolm,
} from './group-metrics.js';
import { classOrderOf, classSign } from './outputs.js';
import { stripComparison, suppressedGroups, suppressedText } from './suppress.js';
import type { OutputGroupOptions, VerdictsSummary } from './types.js';
import { compare, correct, wilsonInterval, type Comparison, type Verdict, type VerdictSettings } from './verdicts.js';

/**
 * The rates judged per class, each a metric of METRIC_DEFS on the class's one-against-the-rest matrix, with its words
 * for this output ("receive" is the positivity rate: the share of the group predicted the class).
 */
export const MULTICLASS_RATES = {
  positivity_rate: { short: 'receive', words: (c: string) => `rate of receiving ${c}` },
  fnr: { short: 'FNR', words: (c: string) => `FNR of ${c} (labelled ${c}, predicted another class)` },
  fpr: { short: 'FPR', words: (c: string) => `FPR of ${c} (labelled another class, predicted ${c})` },
} as const satisfies Partial<Record<MetricName, { short: string; words: (c: string) => string }>>;
export type MulticlassRate = keyof typeof MULTICLASS_RATES;
export const MULTICLASS_RATE_NAMES = Object.keys(MULTICLASS_RATES) as MulticlassRate[];

export interface MulticlassOptions extends OutputGroupOptions {
  /** the classes most favourable first (`--class-order`, from classOrderOf), or null: no class has a direction */
  classOrder: string[] | null;
}

/** One rate of one group: x of n rows, with its Wilson interval; every figure null when suppressed or n is 0. */
export interface ClassRate {
  rate: number | null;
  x: number | null;
  n: number | null;
  interval: { lo: number; hi: number } | null;
}

export interface MulticlassGroup {
  column: string;
  value: string;
  n: number;
  reference: boolean;
  /** fewer rows than minGroupSize, or suppressed */
  small: boolean;
  suppressed: boolean;
  /** confusion[l][p]: rows labelled classes[l] and predicted classes[p] (the report's class order); null suppressed */
  confusion: number[][] | null;
  /** per class of the report, in its order: the rate of receiving it and its one-against-the-rest error rates */
  classes: ({ class: string } & Record<MulticlassRate, ClassRate>)[];
}

/** A comparison of one class's rate (metric: positivity_rate, fnr or fpr of that class against the rest). */
export interface ClassComparison extends Comparison {
  class: string;
  /** +1 the most favourable class, −1 the least, 0 between them or without an order (direction "differs") */
  sign: 1 | -1 | 0;
}

export interface MulticlassAttribute {
  column: string;
  reference: { value: string; reason: string; source: 'given' | 'largest' };
  /** rows left out because a protected value is missing */
  unknown: number;
  groups: MulticlassGroup[];
  /** per group other than the reference, class and rate, in that order */
  comparisons: ClassComparison[];
}

export interface MulticlassReport {
  kind: 'multiclass';
  rows: number;
  label: string;
  pred: string;
  /** the classes as every table lists them: the class order when given, else the label's reading order */
  classes: string[];
  classOrder: string[] | null;
  /** the class order in words, or that without one every disparity "differs" */
  order: string;
  attributes: MulticlassAttribute[];
  verdicts: VerdictsSummary;
  /** the confidence of the rates' Wilson intervals (1 − α) */
  confidence: number;
  minGroupSize: number;
  suppressBelow: number | null;
  warnings: string[];
}

/** The class order in words, for the report. */
export function classOrderText(classes: readonly string[], order: readonly string[] | null): string {
  if (order === null)
    return (
      `no class order (--class-order, most favourable first): no class is favourable, so every disparity ` +
      `"differs" (no direction, neither disadvantaged nor advantaged)`
    );
  const between = classes.filter((c) => classSign(order, c) === 0);
  return (
    `class order (most favourable first): ${order.join(' > ')}; receiving ${order[0]} less often, or ` +
    `${order[order.length - 1]} more often, disadvantages a group` +
    (between.length
      ? `; ${between.join(', ')} ${between.length > 1 ? 'lie' : 'lies'} between them, so ${
          between.length > 1 ? 'their' : 'its'
        } disparities "differ" (no direction)`
      : '')
  );
}

/**
 * Each row's class index into `classes` from a column of the label or the predictions: numbers by their shortest
 * text. A missing cell or a value that is not a class is an E_INPUT error naming the column, the data row and the
 * value.
 */
function classIndex(table: Table, name: string, what: '--label' | '--pred', classes: readonly string[]): Int32Array {
  const col = getColumn(table, name, 'metrics', what);
  const at = new Map(classes.map((c, k) => [c, k]));
  const out = new Int32Array(table.rows);
  const whose = what === '--label' ? 'the label' : 'the prediction column';
  const missing = (i: number) =>
    new EngineError(
      'E_INPUT',
      `metrics: ${whose} "${name}" has a missing value in data row ${i + 1}; drop such rows first`,
    );
  const notClass = (v: string, i: number) =>
    new EngineError(
      'E_INPUT',
      `metrics: ${whose} "${name}" holds ${JSON.stringify(v)} at data row ${i + 1}, which is not a class of the ` +
        `label (${classes.join(', ')}); a multiclass output predicts one of the label's classes`,
    );
  if (col.kind === 'numeric') {
    const v = col.values;
    for (let i = 0; i < v.length; i++) {
      if (Number.isNaN(v[i])) throw missing(i);
      const k = at.get(String(v[i]));
      if (k === undefined) throw notClass(String(v[i]), i);
      out[i] = k;
    }
    return out;
  }
  // per category once, not per row (ten million rows): −1 missing, −2 not a class
  const byCode = col.categories.map((c) => (at.has(c) ? at.get(c)! : isMissing(c) ? -1 : -2));
  for (let i = 0; i < col.codes.length; i++) {
    const code = col.codes[i];
    const k = code < 0 ? -1 : byCode[code];
    if (k === -1) throw missing(i);
    if (k === -2) throw notClass(col.categories[code], i);
    out[i] = k;
  }
  return out;
}

/** The one-against-the-rest matrix of class c from a group's k×k confusion matrix (row-major at `o`). */
export function oneVsRest(m: ArrayLike<number>, k: number, c: number, o = 0): Counts {
  let labelled = 0;
  let predicted = 0;
  let n = 0;
  for (let j = 0; j < k; j++) {
    labelled += m[o + c * k + j];
    predicted += m[o + j * k + c];
  }
  for (let j = 0; j < k * k; j++) n += m[o + j];
  const tp = m[o + c * k + c];
  const fn = labelled - tp;
  const fp = predicted - tp;
  return { tp, fp, fn, tn: n - tp - fn - fp };
}

const NO_RATE: ClassRate = { rate: null, x: null, n: null, interval: null };

function rateOf(metric: MulticlassRate, c: Counts, confidence: number): ClassRate {
  const d = metricDef(metric);
  // the three rates do not depend on which outcome is favourable (none is `oriented`)
  const x = d.num(c, 'positive');
  const n = d.den(c, 'positive');
  return { rate: n > 0 ? x / n : null, x, n, interval: wilsonInterval(x, n, confidence) };
}

/**
 * Holm over every comparison of the given multiclass reports together (one family: an audit's attributes and their
 * intersection), in place, as correctTogether does for binary reports.
 */
export function correctMulticlassTogether(reports: MulticlassReport[]): void {
  const all = reports.flatMap((r) => r.attributes.flatMap((a) => a.comparisons));
  const alpha = reports[0]?.verdicts.alpha ?? 0.05;
  for (const c of all) if (c.p !== null) c.verdict = c.p < 1 ? 'inconclusive' : 'pass';
  const m = correct(all, alpha);
  for (const r of reports) {
    r.verdicts.comparisons = m;
    r.verdicts.correction =
      reports.length > 1
        ? `Holm over the ${m} comparisons of ${reports.length} tables together (every attribute, group, class, rate ` +
          `and the intersection)`
        : `Holm over the ${m} comparisons of this table (every attribute, group, class and rate)`;
    r.verdicts.counts = countVerdicts(r.attributes.flatMap((a) => a.comparisons));
  }
}

/** The verdict counts of several multiclass reports of one family together. */
export function multiclassFamilyCounts(reports: readonly (MulticlassReport | null)[]): Record<Verdict, number> {
  return countVerdicts(reports.flatMap((r) => (r ? r.attributes.flatMap((a) => a.comparisons) : [])));
}

/** "a, b, c and 2 more" */
const list = (xs: readonly string[]) =>
  `${xs.slice(0, 4).join(', ')}${xs.length > 4 ? ` and ${xs.length - 4} more` : ''}`;

/**
 * Per class, per group of every --group attribute (or their intersection): the rate of receiving the class and its
 * FNR and FPR one against the rest, with counts, Wilson intervals and each group's confusion matrix; every rate
 * compared with the reference group's (verdicts.ts compare), directed by the class order, all corrected by Holm.
 */
export function multiclassMetrics(table: Table, opts: MulticlassOptions): MulticlassReport {
  const { confidence, tolerance, minGroupSize, suppressBelow: k } = metricsSettings(opts);
  check(table.rows > 0, 'E_INPUT', () => 'metrics: the data has no rows');
  // a missing label cell is no class: classIndex below names its row
  const labelClasses = labelValues(table, opts.label).filter((c) => !isMissing(c));
  check(
    labelClasses.length >= 2,
    'E_INPUT',
    () =>
      `metrics: the label "${opts.label}" has ${labelClasses.length} class (${labelClasses.join(', ')}); a ` +
      `multiclass output needs at least two`,
  );
  // validated here too: an order built for other data must still name every class of this label exactly once
  const order = opts.classOrder === null ? null : classOrderOf(labelClasses, opts.classOrder);
  const classes = order ?? labelClasses;
  const K = classes.length;
  const yl = classIndex(table, opts.label, '--label', classes);
  const yp = classIndex(table, opts.pred, '--pred', classes);
  const attrs = attributes(table, opts);
  const warnings: string[] = [];
  const signs = classes.map((c) => classSign(order, c));

  const predicted = new Float64Array(K);
  for (let i = 0; i < yp.length; i++) predicted[yp[i]]++;
  const never = classes.filter((_, c) => predicted[c] === 0);
  if (never.length)
    warnings.push(
      `the prediction column "${opts.pred}" never predicts ${list(never)}: every group receives ` +
        `${never.length > 1 ? 'them' : 'it'} at 0%, and every row labelled ` +
        `${never.length > 1 ? 'one of them' : 'it'} is missed (FNR 100%)`,
    );

  const results: MulticlassAttribute[] = attrs.map((a) => {
    const G = a.values.length;
    // per group, the k×k confusion matrix, row-major (label, prediction)
    const m = new Float64Array(G * K * K);
    for (let i = 0; i < table.rows; i++) {
      const g = a.gid[i];
      if (g >= 0) m[g * K * K + yl[i] * K + yp[i]]++;
    }
    const sizes = a.values.map((_, g) => {
      let n = 0;
      for (let j = 0; j < K * K; j++) n += m[g * K * K + j];
      return n;
    });
    const sup = suppressedGroups(sizes, k);
    const ref = chooseReference(a.values, sizes, minGroupSize, a.given, sup);
    const ovr = (g: number, c: number) => oneVsRest(m, K, c, g * K * K);
    const groups: MulticlassGroup[] = a.values.map((v, g) => ({
      column: a.column,
      value: v,
      n: sizes[g],
      reference: g === ref.index,
      small: sizes[g] < minGroupSize || sup[g],
      suppressed: sup[g],
      confusion: sup[g]
        ? null
        : classes.map((_, l) => Array.from(m.subarray(g * K * K + l * K, g * K * K + (l + 1) * K))),
      classes: classes.map((cls, c) => {
        const counts = ovr(g, c);
        const out = { class: cls } as MulticlassGroup['classes'][number];
        for (const r of MULTICLASS_RATE_NAMES) out[r] = sup[g] ? NO_RATE : rateOf(r, counts, confidence);
        return out;
      }),
    }));

    const small = groups.filter((x) => x.n < minGroupSize);
    const suppressedHere = groups.filter((x) => x.suppressed);
    if (suppressedHere.length)
      warnings.push(
        `${a.column}: ${suppressedHere.length} group${suppressedHere.length > 1 ? 's have' : ' has'} fewer than ${k} ` +
          `rows (${list(suppressedHere.map((x) => x.value))}): suppressed, no rate, count or verdict shown`,
      );
    if (small.length)
      warnings.push(
        `${a.column}: ${small.length} group${small.length > 1 ? 's have' : ' has'} fewer than ${minGroupSize} rows (` +
          `${list(small.map((x) => `${x.value}: ${x.n}`))}); ${small.length > 1 ? 'they get' : 'it gets'} no verdict`,
      );
    classes.forEach((cls, c) => {
      // not for a suppressed group: "no rows labelled c" is a count
      const none = groups.filter((x) => !x.suppressed && x.classes[c].fnr.n === 0).map((x) => x.value);
      if (none.length)
        warnings.push(`${a.column} = ${list(none)}: no rows labelled ${cls}, the FNR of ${cls} is undefined (null)`);
    });
    if (a.unknown > 0) warnings.push(`${a.column}: ${a.unknown} rows have no value and are left out of its tables`);

    const comparisons: ClassComparison[] = [];
    a.values.forEach((v, g) => {
      if (g === ref.index) return;
      classes.forEach((cls, c) => {
        const sign = signs[c];
        // the least favourable class is a binary decision whose positive (receiving it) is unfavourable
        const settings: VerdictSettings = {
          tolerance,
          alpha: 1 - confidence,
          minGroupSize,
          favourable: sign === -1 ? 'negative' : 'positive',
        };
        for (const r of MULTICLASS_RATE_NAMES) {
          const cmp = compare(r, v, ovr(g, c), ref.value, ovr(ref.index, c), settings, ref.source === 'given');
          const tagged: ClassComparison = { ...cmp, class: cls, sign };
          if (sign === 0 && tagged.direction !== null) tagged.direction = 'differs';
          if (sup[ref.index]) stripComparison(tagged, `the reference ${ref.value} is ${suppressedText(k)}`, true);
          else if (sup[g]) stripComparison(tagged, `${v} is ${suppressedText(k)}`, false);
          comparisons.push(tagged);
        }
      });
    });
    return {
      column: a.column,
      reference: { value: ref.value, reason: ref.reason, source: ref.source },
      unknown: a.unknown,
      groups,
      comparisons,
    };
  });

  const report: MulticlassReport = {
    kind: 'multiclass',
    rows: table.rows,
    label: opts.label,
    pred: opts.pred,
    classes,
    classOrder: order,
    order: classOrderText(classes, order),
    attributes: results,
    verdicts: verdictsBeforeHolm(
      tolerance,
      1 - confidence,
      'log-ratio (Katz) test of "the ratio is inside the band" on each class against the rest, two-sided ' +
        'p = 2Φ(−δ/se), δ the distance of the log ratio outside the band',
    ),
    confidence,
    minGroupSize,
    suppressBelow: k > 0 ? k : null,
    warnings,
  };
  correctMulticlassTogether([report]);
  return report;
}
