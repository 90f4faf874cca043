// Output-based group metrics (`lucid metrics`), the implementation (index.ts is the module's face): per-group
// confusion-matrix rates (definitions.ts), differences and ratios against one reference group, a verdict per comparison
// with a stated error rate (verdicts.ts), the four-fifths rule, the LL144 impact table (impact.ts), calibration by
// group (calibration.ts), the disparity within legitimate strata (conditional.ts), and seeded percentile
// bootstrap CIs.
// Core code: no Node imports. The reference's Metrics(preds, targets) was called with its arguments
// swapped, so its "pr" is the label base rate and its "tpr" the precision; here both are
// computed from the right arguments and reported side by side (base_rate, positivity_rate, ppv, tpr).
import { check, EngineError } from '../../engine/errors.js';
import { getColumn, type Column, type Table } from '../../data/table.js';
import { medianOf, quantileSorted } from '../../data/quantile.js';
import { isMissing } from '../../data/cells.js';
import { byCodeUnit } from '../../data/text.js';
import { calibrationByGroup } from './calibration.js';
import { groupIds, type GroupIds } from './group-ids.js';
import { conditionalDisparity, strataOf } from './conditional.js';
import {
  FAVOURABLE,
  JUDGED_METRICS,
  METRICS,
  rates,
  type Counts,
  type Favourable,
  type MetricName,
  type Rates,
} from './definitions.js';
import { impactTable } from './impact.js';
import { modelFit } from './fit.js';
import { compare, correct, VERDICTS, type Comparison, type Verdict, type VerdictSettings } from './verdicts.js';
import { suppressAttribute, suppressedGroups } from './suppress.js';
import { decide, DECISION_DEFAULTS, positiveOf, ruleOf, type DecisionRule } from './decision.js';
import type {
  AttributeResult,
  Disparity,
  FourFifths,
  GroupMetricsOptions,
  GroupResult,
  Interval,
  MetricsReport,
  VerdictsSummary,
} from './types.js';

/**
 * How an intersection is named: its columns joined by ' × ' ("sex × group"), a group's values by ', ' ("Female, B").
 */
export const INTERSECTION_JOIN = { attributes: ' × ', values: ', ' } as const;

export const METRICS_DEFAULTS = {
  threshold: DECISION_DEFAULTS.threshold,
  /** "small": a group with fewer rows gets no verdict and is never a default reference (one setting, every command) */
  minGroupSize: 30,
  /** 1 − α, the family-wise error rate of a report's flags */
  confidence: 0.95,
  /** τ: ratios inside [τ, 1/τ] pass */
  tolerance: 0.8,
  /** the four-fifths rule: the legal yardstick shown beside the selection-rate verdict */
  fourFifths: 0.8,
  /** NYC LL144: categories under this share of the data are shown but left out of impact ratios */
  impactMinShare: 0.02,
  /** equal-width score bins of the calibration table */
  calibrationBins: 10,
  /** bootstrap resamples of the ECE interval (scores only) */
  calibrationResamples: 200,
  favourable: 'positive' as Favourable,
};

/**
 * A column's cells as codes into their text labels (no string per row: ten million rows stay typed
 * arrays): `code[i]` indexes `labels`, −1 for a missing cell. Numbers read as their shortest text.
 */
interface Coded {
  code: Int32Array;
  labels: string[];
}

function codedLabels(col: Column, what: string, allowMissing = false): Coded {
  let coded: Coded;
  if (col.kind === 'numeric') {
    const index = new Map<number, number>();
    const labels: string[] = [];
    const v = col.values;
    const code = new Int32Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (Number.isNaN(x)) {
        code[i] = -1;
        continue;
      }
      let k = index.get(x);
      if (k === undefined) {
        k = labels.length;
        index.set(x, k);
        labels.push(String(x));
      }
      code[i] = k;
    }
    coded = { code, labels };
  } else {
    // a protected value written as a missing token ('', '?', NA, …) is kept by the reader as a category
    // of its own; here it is unknown: left out of the attribute and counted (LL144's "unknown")
    const remap: number[] = col.categories.map((c) => (allowMissing && isMissing(c) ? -1 : 0));
    const labels: string[] = [];
    col.categories.forEach((c, k) => {
      if (remap[k] < 0) return;
      remap[k] = labels.length;
      labels.push(c);
    });
    // the column's own codes when nothing is renumbered (no copy of ten million codes)
    const identity = remap.every((r, k) => r === k);
    let code = col.codes;
    if (!identity) {
      code = new Int32Array(col.codes.length);
      for (let i = 0; i < code.length; i++) code[i] = col.codes[i] < 0 ? -1 : remap[col.codes[i]];
    }
    coded = { code, labels };
  }
  const miss = allowMissing ? -1 : coded.code.indexOf(-1);
  check(
    miss < 0,
    'E_INPUT',
    () => `metrics: ${what} "${col.name}" has a missing value in data row ${miss + 1}; drop such rows first`,
  );
  return coded;
}

/** The labels that occur (a category no row holds is not a value). */
function present(c: Coded): string[] {
  const seen = new Uint8Array(c.labels.length);
  for (let i = 0; i < c.code.length; i++) if (c.code[i] >= 0) seen[c.code[i]] = 1;
  return c.labels.filter((_, k) => seen[k]);
}

/** An interval label's lower edge ("[16, 30]", "(30, 50]" → 16, 30), or NaN. */
const lowerEdge = (label: string): number => {
  const m = /^[[(]\s*(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|-inf|-∞)\s*,/i.exec(label);
  return m ? (/inf|∞/i.test(m[1]) ? -Infinity : Number(m[1])) : NaN;
};

/** Distinct values in reading order: numbers and numeric bins by value, text by code unit. */
function distinct(values: readonly string[], numeric: boolean): string[] {
  const s = [...new Set(values)];
  if (numeric) return s.sort((a, b) => Number(a) - Number(b));
  // binned numbers ("[16, 30]", "(30, 50]") sort by their lower edge, a closed bin before an open one at the same edge
  if (s.length > 0 && s.every((v) => !Number.isNaN(lowerEdge(v))))
    return s.sort(
      (a, b) => lowerEdge(a) - lowerEdge(b) || (a[0] === '[' ? -1 : 1) - (b[0] === '[' ? -1 : 1) || byCodeUnit(a, b),
    );
  return s.sort(byCodeUnit);
}

/**
 * A numeric column's values, every one a finite number: an E_ARG error when the column holds text (naming the first
 * such row and `flag`), an E_INPUT error at a missing or infinite cell (naming its data row). The score and
 * regression metrics read their scores, predictions and real-valued labels through it.
 */
export function numericColumn(table: Table, name: string, flag: string, what: string): Float64Array {
  const c = getColumn(table, name, 'metrics', flag);
  if (c.kind !== 'numeric') {
    const row = c.codes.findIndex((k) => k >= 0 && !Number.isFinite(Number(c.categories[k])));
    throw new EngineError(
      'E_ARG',
      `metrics: ${what} "${name}" (${flag}) must hold numbers; it holds ${JSON.stringify(
        c.categories[c.codes[Math.max(0, row)]] ?? '',
      )} at data row ${Math.max(0, row) + 1}`,
    );
  }
  const v = c.values;
  const bad = v.findIndex((x) => !Number.isFinite(x));
  check(
    bad < 0,
    'E_INPUT',
    () =>
      `metrics: ${what} "${name}" has ${Number.isNaN(v[bad]) ? 'a missing value' : `the value ${v[bad]}`} in data ` +
      `row ${bad + 1}; drop such rows first`,
  );
  return v instanceof Float64Array ? v : Float64Array.from(v);
}

/** The label's values that occur, in reading order (numbers by value, text by code unit). */
export function labelValues(table: Table, label: string, where = 'metrics'): string[] {
  const lc = getColumn(table, label, where, '--label');
  return distinct(present(codedLabels(lc, 'the label')), lc.kind === 'numeric');
}

/** y (0/1), ŷ (0/1) per row, the scores when the column holds them, and how they were read. */
function outcomes(table: Table, opts: GroupMetricsOptions, rule: DecisionRule) {
  const lc = getColumn(table, opts.label, 'metrics', '--label');
  const pc = getColumn(table, opts.pred, 'metrics', '--pred');
  const labels = codedLabels(lc, 'the label');
  const values = distinct(present(labels), lc.kind === 'numeric');
  const positive = positiveOf(values, opts.positive, opts.label);
  const negative = values.length === 2 ? values.find((v) => v !== positive)! : null;
  const n = table.rows;
  const y = new Uint8Array(n);
  const posCode = labels.labels.indexOf(positive);
  for (let i = 0; i < n; i++) y[i] = labels.code[i] === posCode ? 1 : 0;
  const yhat = new Uint8Array(n);
  if (pc.kind === 'categorical') {
    const preds = codedLabels(pc, 'the prediction column');
    const predValues = present(preds);
    if (opts.predAs !== 'scores' && predValues.every((v) => values.includes(v))) {
      const predPos = preds.labels.indexOf(positive);
      for (let i = 0; i < n; i++) yhat[i] = preds.code[i] === predPos ? 1 : 0;
      return { y, yhat, positive, negative, predKind: 'labels' as const, score: null };
    }
    const row = preds.code.findIndex((k) => !values.includes(preds.labels[k]));
    throw new EngineError(
      'E_INPUT',
      `metrics: the prediction column "${opts.pred}" holds ${JSON.stringify(preds.labels[preds.code[row]])} at row ` +
        `${row + 1}, which is neither a value of the label (${values.join(', ')}) nor a score in [0, 1]`,
    );
  }
  // numbers: no string per row (ten million scores): a value is a label value when its shortest text is one
  const v = pc.values;
  const miss = v.findIndex((x) => Number.isNaN(x));
  check(
    miss < 0,
    'E_INPUT',
    () =>
      `metrics: the prediction column "${pc.name}" has a missing value in data row ${miss + 1}; drop such rows first`,
  );
  const asLabel = new Map<number, string>();
  for (const l of values) if (String(Number(l)) === l) asLabel.set(Number(l), l);
  let allLabels = opts.predAs !== 'scores';
  for (let i = 0; allLabels && i < n; i++) if (!asLabel.has(v[i])) allLabels = false;
  if (allLabels) {
    for (let i = 0; i < n; i++) yhat[i] = asLabel.get(v[i]) === positive ? 1 : 0;
    return { y, yhat, positive, negative, predKind: 'labels' as const, score: null };
  }
  // a score rule takes any finite number (score.ts's threshold view); a probability must be in [0, 1]
  const notScore = rule.kind === 'score' ? (x: number) => !Number.isFinite(x) : (x: number) => !(x >= 0 && x <= 1);
  let row = -1;
  for (let i = 0; i < n && row < 0; i++) if (notScore(v[i]) && !asLabel.has(v[i])) row = i;
  for (let i = 0; i < n && row < 0; i++) if (notScore(v[i])) row = i;
  if (row >= 0)
    throw new EngineError(
      'E_INPUT',
      `metrics: the prediction column "${opts.pred}" holds ${JSON.stringify(String(v[row]))} at row ${row + 1}, ` +
        `which is neither a value of the label (${values.join(', ')}) nor a ${
          rule.kind === 'score' ? 'finite score' : 'score in [0, 1]'
        }`,
    );
  yhat.set(decide(rule, v));
  return { y, yhat, positive, negative, predKind: 'scores' as const, score: v };
}

export interface Attr {
  column: string;
  values: string[];
  /** per row: group index, −1 when a protected value is missing */
  gid: GroupIds;
  unknown: number;
  given?: string;
}

/**
 * The attributes of `opts.groups` (or their intersection) with each row's group and the rows of unknown value; the
 * score and regression metrics take them from here too.
 */
export function attributes(
  table: Table,
  opts: Pick<GroupMetricsOptions, 'groups' | 'reference' | 'privileged' | 'intersect'>,
): Attr[] {
  check(opts.groups.length > 0, 'E_ARG', () => 'metrics: give at least one --group column');
  const cols = opts.groups.map((g) => {
    const c = getColumn(table, g, 'metrics', '--group');
    const coded = codedLabels(c, 'the group column', true);
    const values = distinct(present(coded), c.kind === 'numeric');
    // code → index into the sorted values
    const rank = new Int32Array(coded.labels.length).fill(-1);
    const at = new Map(values.map((v, k) => [v, k]));
    coded.labels.forEach((l, k) => (rank[k] = at.get(l) ?? -1));
    return { name: g, coded, values, rank };
  });
  const ref = opts.reference ?? opts.privileged ?? {};
  for (const k of Object.keys(ref))
    check(
      opts.groups.includes(k),
      'E_ARG',
      () => `metrics: --reference ${k}=${ref[k]} names a column that is not a --group (${opts.groups.join(', ')})`,
    );
  const build = (column: string, gid: GroupIds, values: string[], given?: string): Attr => {
    let unknown = 0;
    for (let i = 0; i < gid.length; i++) if (gid[i] < 0) unknown++;
    if (given !== undefined)
      check(
        values.includes(given),
        'E_ARG',
        () => `metrics: the reference group "${given}" of ${column} has no rows; the groups are: ${values.join('; ')}`,
      );
    return { column, values, gid, unknown, given };
  };
  const gidOf = (c: (typeof cols)[number]) => {
    const gid = groupIds(table.rows, c.values.length);
    for (let i = 0; i < gid.length; i++) gid[i] = c.coded.code[i] < 0 ? -1 : c.rank[c.coded.code[i]];
    return gid;
  };
  for (const c of cols) {
    check(
      c.values.length > 0,
      'E_INPUT',
      () =>
        `metrics: the group column "${c.name}" has no value in any of its ${table.rows} rows (every cell is missing);` +
        ` it cannot be audited`,
    );
  }
  if (!opts.intersect || cols.length === 1) {
    return cols.map((c) => build(c.name, gidOf(c), c.values, ref[c.name]));
  }
  // Cartesian order (first column slowest), cells with no rows left out: a row's cell is its mixed-radix index
  const gids = cols.map(gidOf);
  const cell = new Float64Array(table.rows);
  for (let i = 0; i < table.rows; i++) {
    let k = 0;
    for (let j = 0; j < cols.length; j++) {
      const g = gids[j][i];
      if (g < 0) {
        k = -1;
        break;
      }
      k = k * cols[j].values.length + g;
    }
    cell[i] = k;
  }
  const used = [...new Set(cell)].filter((k) => k >= 0).sort((a, b) => a - b);
  const keyOf = (k: number) => {
    const parts: string[] = [];
    for (let j = cols.length - 1; j >= 0; j--) {
      const m = cols[j].values.length;
      parts.unshift(cols[j].values[k % m]);
      k = Math.floor(k / m);
    }
    return parts.join(INTERSECTION_JOIN.values);
  };
  const keys = used.map(keyOf);
  const index = new Map(used.map((k, j) => [k, j]));
  const gid = groupIds(table.rows, keys.length);
  for (let i = 0; i < table.rows; i++) gid[i] = cell[i] < 0 ? -1 : index.get(cell[i])!;
  const givenCols = cols.filter((c) => ref[c.name] !== undefined);
  check(
    givenCols.length === 0 || givenCols.length === cols.length,
    'E_ARG',
    () => `metrics: with --intersect give --reference for every --group column (${opts.groups.join(', ')}) or for none`,
  );
  const given = givenCols.length ? cols.map((c) => ref[c.name]).join(INTERSECTION_JOIN.values) : undefined;
  return [build(opts.groups.join(INTERSECTION_JOIN.attributes), gid, keys, given)];
}

function countsOf(attr: Attr, y: Uint8Array, yhat: Uint8Array, rows: ArrayLike<number> | null): Float64Array {
  // per group: tp, fp, tn, fn
  const c = new Float64Array(attr.values.length * 4);
  const n = rows ? rows.length : y.length;
  for (let k = 0; k < n; k++) {
    const i = rows ? rows[k] : k;
    if (attr.gid[i] < 0) continue;
    const o = attr.gid[i] * 4 + (y[i] ? (yhat[i] ? 0 : 3) : yhat[i] ? 1 : 2);
    c[o]++;
  }
  return c;
}

const countsAt = (c: Float64Array, g: number): Counts => ({
  tp: c[4 * g],
  fp: c[4 * g + 1],
  tn: c[4 * g + 2],
  fn: c[4 * g + 3],
});
const sizeAt = (c: Float64Array, g: number) => c[4 * g] + c[4 * g + 1] + c[4 * g + 2] + c[4 * g + 3];

/**
 * The one rule for references (every command): the named group, else the largest group that is not
 * small (first in sorted order on a tie); when every group is small, the largest, and then no
 * comparison gets a verdict.
 */
export function chooseReference(
  values: readonly string[],
  sizes: readonly number[],
  minGroupSize: number,
  given?: string,
  suppressed?: readonly boolean[],
): { index: number; value: string; reason: string; source: 'given' | 'largest' } {
  const small = (g: number) => sizes[g] < minGroupSize || suppressed?.[g] === true;
  if (given !== undefined) {
    const index = values.indexOf(given);
    const n = sizes[index];
    if (suppressed?.[index])
      return {
        index,
        value: given,
        source: 'given',
        reason:
          'named by the user; suppressed (fewer rows than the suppression threshold), so its comparisons get no ' +
          'verdict and show no figure',
      };
    return {
      index,
      value: given,
      source: 'given',
      reason: `named by the user; n = ${n}${
        n < minGroupSize ? `, small (fewer than ${minGroupSize} rows), so its comparisons get no verdict` : ''
      }`,
    };
  }
  let best = -1;
  for (let g = 0; g < values.length; g++) if (!small(g) && (best < 0 || sizes[g] > sizes[best])) best = g;
  if (best >= 0)
    return {
      index: best,
      value: values[best],
      source: 'largest',
      reason: `the largest group that is not small; n = ${sizes[best]}, small means fewer than ${minGroupSize} rows`,
    };
  let any = 0;
  for (let g = 1; g < values.length; g++) if (sizes[g] > sizes[any]) any = g;
  if (suppressed?.[any])
    return {
      index: any,
      value: values[any],
      source: 'largest',
      reason:
        `the largest group, suppressed; every group has fewer than ${minGroupSize} rows or is suppressed, so no ` +
        `comparison gets a verdict`,
    };
  return {
    index: any,
    value: values[any],
    source: 'largest',
    reason:
      `the largest group, n = ${sizes[any]}; every group has fewer than ${minGroupSize} rows, so no comparison ` +
      `gets a verdict`,
  };
}

function disparities(
  groupRates: Rates[],
  sizes: readonly number[],
  values: string[],
  p: number,
  minGroupSize: number,
  suppressed?: readonly boolean[],
): Record<MetricName, Disparity> {
  const out = {} as Record<MetricName, Disparity>;
  for (const m of METRICS) {
    const pv = groupRates[p][m];
    const difference: Record<string, number | null> = {};
    const ratio: Record<string, number | null> = {};
    let lo = Infinity;
    let hi = -Infinity;
    let defined = 0;
    groupRates.forEach((r, g) => {
      const v = r[m];
      if (v !== null && sizes[g] >= minGroupSize && !suppressed?.[g]) {
        defined++;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      if (g === p) return;
      difference[values[g]] = v === null || pv === null ? null : v - pv;
      ratio[values[g]] = v === null || pv === null || pv === 0 ? null : v / pv;
    });
    out[m] = { difference, ratio, max_minus_min: defined >= 2 ? hi - lo : null };
  }
  return out;
}

/** The four-fifths rule on the selection rate (the favourable outcome's rate), among groups that are not small. */
function fourFifthsOf(
  values: readonly string[],
  gr: Rates[],
  sizes0: readonly number[],
  minGroupSize: number,
  ff: number,
  suppressed?: readonly boolean[],
): FourFifths {
  // a suppressed group is small here: never the most selected, no ratio
  const sizes = sizes0.map((n, g) => (suppressed?.[g] ? -1 : n));
  const sel = gr.map((r) => r.selection_rate);
  let top = -1;
  sel.forEach((v, g) => {
    if (v !== null && sizes[g] >= minGroupSize && (top < 0 || v > sel[top]!)) top = g;
  });
  const selectionRate: Record<string, number | null> = {};
  const ratio: Record<string, number | null> = {};
  const below: string[] = [];
  values.forEach((v, g) => {
    selectionRate[v] = sel[g];
    const q = top >= 0 && sizes[g] >= minGroupSize && sel[g] !== null && sel[top]! > 0 ? sel[g]! / sel[top]! : null;
    ratio[v] = q;
    if (q !== null && q < ff) below.push(v);
  });
  return { reference: top >= 0 ? values[top] : null, selectionRate, ratio, below };
}

/** Every value in [0, 1]: a score that can be read as P(positive). */
export function inUnit(v: ArrayLike<number>): boolean {
  for (let i = 0; i < v.length; i++) if (!(v[i] >= 0 && v[i] <= 1)) return false;
  return true;
}

/** numpy's default (linear) percentile of sorted values (null when there are none). */
const percentile = (sorted: number[], q: number): number | null =>
  sorted.length === 0 ? null : quantileSorted(sorted, q);

function interval(samples: (number | null)[], confidence: number): Interval {
  const s = samples.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const a = (1 - confidence) / 2;
  return { lo: percentile(s, a), hi: percentile(s, 1 - a) };
}

/**
 * What Holm corrects together: reports whose attributes hold comparisons (of any metric, on either scale) and whose
 * `verdicts` state the family. A binary MetricsReport is one; so are the score and regression reports.
 */
export interface JudgedReport {
  attributes: readonly { comparisons: Comparison<string>[] }[];
  verdicts: { alpha: number; correction: string; comparisons: number; counts: Record<Verdict, number> };
}

/**
 * Holm's correction over every comparison of the given reports together (one family: an audit's
 * attributes and their intersection; a score's threshold view and its AUCs), in place. Each report's `verdicts` then
 * states the family: `family` words it ("the threshold view's and the AUC comparisons") when given.
 */
export function correctTogether(reports: JudgedReport[], family?: string): void {
  const all = reports.flatMap((r) => r.attributes.flatMap((a) => a.comparisons));
  const alpha = reports[0]?.verdicts.alpha ?? 1 - METRICS_DEFAULTS.confidence;
  for (const c of all) if (c.p !== null) c.verdict = c.p < 1 ? 'inconclusive' : 'pass';
  const m = correct(all, alpha);
  for (const r of reports) {
    r.verdicts.comparisons = m;
    r.verdicts.correction =
      family !== undefined
        ? `Holm over the ${m} comparisons of ${family} together`
        : reports.length > 1
          ? `Holm over the ${m} comparisons of ${reports.length} tables together (every attribute, group, metric and ` +
            `the intersection)`
          : `Holm over the ${m} comparisons of this table (every attribute, group and metric)`;
    r.verdicts.counts = countVerdicts(r.attributes.flatMap((a) => a.comparisons));
  }
}

/** The verdict counts of several reports of one family together (an audit's attributes and intersection). */
export function familyCounts(reports: readonly (MetricsReport | null)[]): Record<Verdict, number> {
  return countVerdicts(reports.flatMap((r) => (r ? r.attributes.flatMap((a) => a.comparisons) : [])));
}

export function countVerdicts(cs: readonly Comparison<string>[]): Record<Verdict, number> {
  const out = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const c of cs) out[c.verdict]++;
  return out;
}

/**
 * A report's verdicts summary on the ratio band [τ, 1/τ] before the Holm correction (correctTogether and its
 * kin fill in the correction, the number of comparisons and the counts); `test` names the report's test.
 */
export function verdictsBeforeHolm(tolerance: number, alpha: number, test: string): VerdictsSummary {
  return {
    tolerance,
    band: [tolerance, 1 / tolerance],
    alpha,
    correction: '',
    comparisons: 0,
    test,
    counts: countVerdicts([]),
  };
}

/** The group metrics' settings with their defaults, each checked: the audit's plan checks them before any work. */
export function metricsSettings(
  opts: Pick<GroupMetricsOptions, 'confidence' | 'tolerance' | 'favourable' | 'minGroupSize' | 'suppressBelow'>,
): { confidence: number; tolerance: number; favourable: Favourable; minGroupSize: number; suppressBelow: number } {
  const confidence = opts.confidence ?? METRICS_DEFAULTS.confidence;
  check(confidence > 0 && confidence < 1, 'E_ARG', () => `metrics: confidence must be in (0, 1), got ${confidence}`);
  const tolerance = opts.tolerance ?? METRICS_DEFAULTS.tolerance;
  check(
    tolerance > 0 && tolerance < 1,
    'E_ARG',
    () => `metrics: tolerance must be in (0, 1) (0.8 means ratios inside [0.8, 1.25] pass), got ${tolerance}`,
  );
  const favourable = opts.favourable ?? METRICS_DEFAULTS.favourable;
  check(
    FAVOURABLE.includes(favourable),
    'E_ARG',
    () => `metrics: favourable must be positive or negative, got ${String(favourable)}`,
  );
  const minGroupSize = opts.minGroupSize ?? METRICS_DEFAULTS.minGroupSize;
  check(
    Number.isSafeInteger(minGroupSize) && minGroupSize >= 0,
    'E_ARG',
    () => `metrics: the small-group threshold must be a non-negative integer, got ${minGroupSize}`,
  );
  const suppressBelow = opts.suppressBelow ?? 0;
  check(
    Number.isSafeInteger(suppressBelow) && suppressBelow >= 0,
    'E_ARG',
    () => `metrics: the suppression threshold must be a non-negative integer, got ${suppressBelow}`,
  );
  return { confidence, tolerance, favourable, minGroupSize, suppressBelow };
}

/**
 * Per-group rates and disparities for every --group attribute (or their intersection), each
 * comparison against the reference with its verdict (verdicts.ts), the four-fifths rule, the LL144
 * impact table, calibration by group (scores) and, with `legitimate`, the conditional disparity.
 * Rows whose protected value is missing are left out of that attribute and counted (`unknown`).
 * Bootstrap: `bootstrap` resamples of all rows with replacement, drawn from `rng`; the reference
 * stays fixed; percentile intervals over the resamples where the statistic is defined.
 */
export function groupMetrics(table: Table, opts: GroupMetricsOptions): MetricsReport {
  const rule = ruleOf(opts, 'metrics');
  const threshold = rule.threshold;
  const B = opts.bootstrap ?? 0;
  check(
    Number.isSafeInteger(B) && B >= 0,
    'E_ARG',
    () => `metrics: bootstrap must be a non-negative integer, got ${B}`,
  );
  check(B === 0 || opts.rng, 'E_ARG', () => 'metrics: bootstrap needs a seeded rng');
  const { confidence, tolerance, favourable, minGroupSize, suppressBelow: k } = metricsSettings(opts);
  check(table.rows > 0, 'E_INPUT', () => 'metrics: the data has no rows');
  const { y, yhat, positive, negative, predKind, score } = outcomes(table, opts, rule);
  // the model's fit first: scores that rank the label worse than chance stop here (fit.ts)
  const fit = modelFit(y, yhat, score, {
    positive,
    negative,
    favourable,
    label: opts.label,
    what:
      opts.predWhat ??
      (predKind === 'scores' ? `the scores in "${opts.pred}"` : `the predicted labels in "${opts.pred}"`),
    allowInverted: opts.allowInvertedScores,
  });
  const attrs = attributes(table, opts);
  const warnings: string[] = [];
  const settings: VerdictSettings = { tolerance, alpha: 1 - confidence, minGroupSize, favourable };
  const strata = opts.legitimate?.length ? strataOf(table, opts.legitimate, 'metrics') : null;
  if (opts.legitimate)
    for (const l of opts.legitimate)
      check(!opts.groups.includes(l), 'E_ARG', () => `metrics: --legitimate ${l} is also a --group column`);

  // the selected rows for the impact table: the favourable decision, or (scores) the favourable side of the median
  let median: number | null = null;
  const hit = new Uint8Array(table.rows);
  if (score) {
    median = medianOf(score);
    for (let i = 0; i < table.rows; i++)
      hit[i] = favourable === 'positive' ? (score[i] > median! ? 1 : 0) : score[i] < median! ? 1 : 0;
  } else {
    for (let i = 0; i < table.rows; i++) hit[i] = favourable === 'positive' ? yhat[i] : 1 - yhat[i];
  }
  const selected = new Uint8Array(table.rows);
  for (let i = 0; i < table.rows; i++) selected[i] = favourable === 'positive' ? yhat[i] : 1 - yhat[i];

  // per attribute, per group: suppressed (fewer than k rows; suppress.ts)
  const supp: boolean[][] = [];
  const results: AttributeResult[] = attrs.map((a) => {
    const c = countsOf(a, y, yhat, null);
    const sizes = a.values.map((_, g) => sizeAt(c, g));
    const sup = suppressedGroups(sizes, k);
    supp.push(sup);
    const gr = a.values.map((_, g) => rates(c[4 * g], c[4 * g + 1], c[4 * g + 2], c[4 * g + 3], favourable));
    const ref = chooseReference(a.values, sizes, minGroupSize, a.given, sup);
    const groups: GroupResult[] = a.values.map((v, g) => ({
      column: a.column,
      value: v,
      n: sizes[g],
      ...countsAt(c, g),
      reference: g === ref.index,
      small: sizes[g] < minGroupSize || sup[g],
      suppressed: sup[g],
      ...gr[g],
    }));
    const small = groups.filter((g) => g.n < minGroupSize);
    const suppressedHere = groups.filter((g) => g.suppressed);
    if (suppressedHere.length)
      warnings.push(
        `${a.column}: ${suppressedHere.length} group${suppressedHere.length > 1 ? 's have' : ' has'} fewer than ${k} ` +
          `rows (${suppressedHere
            .slice(0, 4)
            .map((g) => g.value)
            .join(', ')}${suppressedHere.length > 4 ? ', …' : ''}): suppressed, no rate, count or verdict shown`,
      );
    if (small.length)
      warnings.push(
        `${a.column}: ${small.length} group${small.length > 1 ? 's have' : ' has'} fewer than ${minGroupSize} rows (` +
          `${small
            .slice(0, 4)
            .map((g) => `${g.value}: ${g.n}`)
            .join(', ')}${small.length > 4 ? ', …' : ''}); ${small.length > 1 ? 'they get' : 'it gets'} no verdict`,
      );
    // one line per attribute and kind, not one per group (an integer column can have dozens)
    const list = (gs: GroupResult[]) =>
      `${gs
        .slice(0, 4)
        .map((g) => g.value)
        .join(', ')}${gs.length > 4 ? ` and ${gs.length - 4} more` : ''}`;
    // not for a suppressed group: "no positive labels" is a count of positives
    const noPos = groups.filter((g) => g.tpr === null && !g.suppressed);
    const noPred = groups.filter((g) => g.ppv === null && !g.suppressed);
    if (noPos.length)
      warnings.push(`${a.column} = ${list(noPos)}: no positive labels, TPR and FNR are undefined (null)`);
    if (noPred.length)
      warnings.push(`${a.column} = ${list(noPred)}: no predicted positives, PPV and FDR are undefined (null)`);
    if (a.unknown > 0) warnings.push(`${a.column}: ${a.unknown} rows have no value and are left out of its tables`);
    const comparisons: Comparison[] = [];
    a.values.forEach((v, g) => {
      if (g === ref.index) return;
      for (const m of JUDGED_METRICS)
        comparisons.push(
          compare(m, v, countsAt(c, g), ref.value, countsAt(c, ref.index), settings, ref.source === 'given'),
        );
    });
    const ff = fourFifthsOf(a.values, gr, sizes, minGroupSize, METRICS_DEFAULTS.fourFifths, sup);
    // the legal yardstick beside every verdict of the group: its selection rate against the most selected group
    for (const c of comparisons)
      c.fourFifths = { ratio: ff.ratio[c.group], below: ff.below.includes(c.group), against: ff.reference };
    return {
      column: a.column,
      reference: { value: ref.value, reason: ref.reason, source: ref.source },
      unknown: a.unknown,
      groups,
      disparities: disparities(gr, sizes, a.values, ref.index, minGroupSize, sup),
      comparisons,
      fourFifths: ff,
      impact: impactTable(
        a.values,
        a.gid,
        hit,
        score ? 'scoring rate' : 'selection rate',
        median,
        METRICS_DEFAULTS.impactMinShare,
      ),
      // calibration reads the score as P(positive): only scores in [0, 1] (score.ts states why it is absent)
      calibration:
        score && inUnit(score)
          ? calibrationByGroup(
              a.values,
              a.gid,
              score,
              y,
              METRICS_DEFAULTS.calibrationBins,
              opts.rng ? METRICS_DEFAULTS.calibrationResamples : 0,
              opts.rng,
              confidence,
            )
          : null,
      conditional: strata
        ? conditionalDisparity(a.values, a.gid, selected, ref.index, strata, opts.legitimate!, confidence)
        : null,
    };
  });

  if (B > 0) {
    const n = table.rows;
    // samples[attr][group][metric] and disparity samples, one entry per resample
    const gs = attrs.map((a) => a.values.map(() => METRICS.map(() => [] as (number | null)[])));
    const ds = attrs.map((a) =>
      METRICS.map(() => ({
        diff: a.values.map(() => [] as (number | null)[]),
        ratio: a.values.map(() => [] as (number | null)[]),
        mm: [] as (number | null)[],
      })),
    );
    const rows = new Int32Array(n);
    for (let b = 0; b < B; b++) {
      const u = opts.rng!.uniformHost(n);
      for (let i = 0; i < n; i++) rows[i] = Math.min(n - 1, Math.floor(u[i] * n));
      attrs.forEach((a, ai) => {
        const c = countsOf(a, y, yhat, rows);
        const sizes = a.values.map((_, g) => sizeAt(c, g));
        const gr = a.values.map((_, g) => rates(c[4 * g], c[4 * g + 1], c[4 * g + 2], c[4 * g + 3], favourable));
        const p = a.values.indexOf(results[ai].reference.value);
        const d = disparities(gr, sizes, a.values, p, minGroupSize, supp[ai]);
        METRICS.forEach((m, mi) => {
          gr.forEach((r, g) => {
            gs[ai][g][mi].push(r[m]);
            if (g !== p) {
              ds[ai][mi].diff[g].push(d[m].difference[a.values[g]]);
              ds[ai][mi].ratio[g].push(d[m].ratio[a.values[g]]);
            }
          });
          ds[ai][mi].mm.push(d[m].max_minus_min);
        });
      });
    }
    results.forEach((res, ai) => {
      res.groups.forEach((g, gi) => {
        g.ci = {} as Record<MetricName, Interval>;
        METRICS.forEach((m, mi) => (g.ci![m] = interval(gs[ai][gi][mi], confidence)));
      });
      METRICS.forEach((m, mi) => {
        const ci = {
          difference: {} as Record<string, Interval>,
          ratio: {} as Record<string, Interval>,
          max_minus_min: interval(ds[ai][mi].mm, confidence),
        };
        attrs[ai].values.forEach((v, g) => {
          if (v === res.reference.value) return;
          ci.difference[v] = interval(ds[ai][mi].diff[g], confidence);
          ci.ratio[v] = interval(ds[ai][mi].ratio[g], confidence);
        });
        res.disparities[m].ci = ci;
      });
    });
  }

  // at the source: nothing of a suppressed group leaves this function (suppress.ts)
  if (k > 0) results.forEach((res, ai) => suppressAttribute(res, supp[ai], k));

  const report: MetricsReport = {
    rows: table.rows,
    label: opts.label,
    positive,
    favourable,
    pred: opts.pred,
    predKind,
    threshold: predKind === 'scores' ? threshold : null,
    fit,
    attributes: results,
    verdicts: verdictsBeforeHolm(
      tolerance,
      1 - confidence,
      'log-ratio (Katz) test of "the ratio is inside the band", two-sided p = 2Φ(−δ/se), δ the distance of the ' +
        'log ratio outside the band',
    ),
    bootstrap:
      B > 0
        ? {
            resamples: B,
            seed: opts.rng!.seed,
            confidence,
            method: 'percentile, rows resampled with replacement, reference group fixed',
          }
        : null,
    minGroupSize,
    suppressBelow: k > 0 ? k : null,
    warnings,
  };
  correctTogether([report]);
  return report;
}
