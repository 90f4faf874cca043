// Output-based group metrics (`lucid metrics`): per-group confusion-matrix rates, disparities in the
// aif360 and fairlearn conventions, the four-fifths rule, and seeded percentile bootstrap CIs.
// Core code: no Node imports. The reference's Metrics(preds, targets) was called with its arguments
// swapped (spec §2.3), so its "pr" is the label base rate and its "tpr" the precision; here both are
// computed from the right arguments and reported side by side (base_rate, positivity_rate, ppv, tpr).
import { check, EngineError } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import { getColumn, type Column, type Table } from '../../data/table.js';

export const METRICS = ['base_rate', 'positivity_rate', 'tpr', 'fpr', 'ppv', 'accuracy'] as const;
export type MetricName = (typeof METRICS)[number];

export const METRICS_DEFAULTS = {
  threshold: 0.5,
  /** groups with fewer rows than this are warned about */
  minGroupSize: 30,
  confidence: 0.95,
  fourFifths: 0.8,
};

export interface GroupMetricsOptions {
  label: string;
  /** the label value counted as positive; default: the second of exactly two values in sorted order */
  positive?: string;
  /** the prediction column: predicted labels (values of the label), 0/1, or P(positive) in [0, 1] */
  pred: string;
  /**
   * 'auto' (default): values of the label are read as predicted labels, anything else as scores;
   * 'scores': always P(positive) (a model's output, which may happen to be exactly 0 and 1)
   */
  predAs?: 'auto' | 'scores';
  /** a score column is read as predicted positive when score > threshold (default 0.5) */
  threshold?: number;
  /** the protected columns */
  groups: string[];
  /** one attribute: the Cartesian product of `groups` (non-empty cells only) */
  intersect?: boolean;
  /** column → privileged value; for an intersection every column must be given */
  privileged?: Record<string, string>;
  /** bootstrap resamples (0: none) */
  bootstrap?: number;
  /** the seeded generator the resamples are drawn from (required with bootstrap) */
  rng?: Rng;
  confidence?: number;
  minGroupSize?: number;
}

export type Rates = Record<MetricName, number | null>;

export interface Interval {
  lo: number | null;
  hi: number | null;
}

export interface GroupResult extends Rates {
  column: string;
  value: string;
  n: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  privileged: boolean;
  ci?: Record<MetricName, Interval>;
}

export interface Disparity {
  /** unprivileged − privileged, per unprivileged group value (aif360's sign) */
  difference: Record<string, number | null>;
  /** unprivileged / privileged; null when undefined or the privileged value is 0 */
  ratio: Record<string, number | null>;
  /** values whose ratio is below 0.8 (the four-fifths rule) */
  below_four_fifths: string[];
  /** max − min over the groups where the metric is defined (fairlearn's difference) */
  max_minus_min: number | null;
  ci?: { difference: Record<string, Interval>; ratio: Record<string, Interval>; max_minus_min: Interval };
}

export interface AttributeResult {
  column: string;
  privileged: { value: string; source: 'given' | 'highest positivity rate' };
  groups: GroupResult[];
  disparities: Record<MetricName, Disparity>;
}

export interface MetricsReport {
  rows: number;
  label: string;
  positive: string;
  pred: string;
  /** how the prediction column was read */
  predKind: 'labels' | 'scores';
  threshold: number | null;
  attributes: AttributeResult[];
  bootstrap: { resamples: number; seed: number; confidence: number; method: string } | null;
  minGroupSize: number;
  warnings: string[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function labelsOf(col: Column, what: string): (string | null)[] {
  const out: (string | null)[] = new Array(col.kind === 'numeric' ? col.values.length : col.codes.length);
  if (col.kind === 'numeric') {
    for (let i = 0; i < out.length; i++) out[i] = Number.isNaN(col.values[i]) ? null : String(col.values[i]);
  } else {
    for (let i = 0; i < out.length; i++) out[i] = col.codes[i] < 0 ? null : col.categories[col.codes[i]];
  }
  const miss = out.indexOf(null);
  check(miss < 0, 'E_INPUT', () => `metrics: ${what} "${col.name}" has a missing value in data row ${miss + 1}; drop such rows first`);
  return out;
}

function distinct(values: (string | null)[], numeric: boolean): string[] {
  const s = [...new Set(values as string[])];
  return numeric ? s.sort((a, b) => Number(a) - Number(b)) : s.sort(byCodeUnit);
}

/** y (0/1), ŷ (0/1) per row, and how they were read. */
function outcomes(table: Table, opts: GroupMetricsOptions, threshold: number) {
  const lc = getColumn(table, opts.label, 'metrics --label');
  const pc = getColumn(table, opts.pred, 'metrics --pred');
  const labels = labelsOf(lc, 'the label');
  const values = distinct(labels, lc.kind === 'numeric');
  let positive = opts.positive;
  if (positive === undefined) {
    check(values.length === 2, 'E_ARG', () => `metrics: the label "${opts.label}" has ${values.length} values (${values.slice(0, 8).join(', ')}); name the positive one with --positive`);
    positive = values[1];
  }
  check(values.includes(positive), 'E_ARG', () => `metrics: --positive "${positive}" is not a value of the label "${opts.label}"; its values are: ${values.join(', ')}`);
  const n = table.rows;
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) y[i] = labels[i] === positive ? 1 : 0;
  const yhat = new Uint8Array(n);
  const preds = labelsOf(pc, 'the prediction column');
  const predValues = distinct(preds, pc.kind === 'numeric');
  if (opts.predAs !== 'scores' && predValues.every((v) => values.includes(v))) {
    for (let i = 0; i < n; i++) yhat[i] = preds[i] === positive ? 1 : 0;
    return { y, yhat, positive, predKind: 'labels' as const };
  }
  const isScore = (v: string) => pc.kind === 'numeric' && Number(v) >= 0 && Number(v) <= 1;
  if (!predValues.every(isScore)) {
    const row = preds.findIndex((v) => v !== null && !values.includes(v) && !isScore(v));
    throw new EngineError('E_INPUT', `metrics: the prediction column "${opts.pred}" holds ${JSON.stringify(preds[row])} at row ${row + 1}, which is neither a value of the label (${values.join(', ')}) nor a score in [0, 1]`);
  }
  const v = (pc as { values: Float64Array }).values;
  for (let i = 0; i < n; i++) yhat[i] = v[i] > threshold ? 1 : 0;
  return { y, yhat, positive, predKind: 'scores' as const };
}

/** The rates of one confusion matrix; a rate with an empty denominator is null. */
export function rates(tp: number, fp: number, tn: number, fn: number): Rates {
  const n = tp + fp + tn + fn;
  const div = (a: number, b: number) => (b === 0 ? null : a / b);
  return {
    base_rate: div(tp + fn, n),
    positivity_rate: div(tp + fp, n),
    tpr: div(tp, tp + fn),
    fpr: div(fp, fp + tn),
    ppv: div(tp, tp + fp),
    accuracy: div(tp + tn, n),
  };
}

interface Attr {
  column: string;
  values: string[];
  /** per row: group index */
  gid: Int32Array;
  given?: string;
}

function attributes(table: Table, opts: GroupMetricsOptions): Attr[] {
  check(opts.groups.length > 0, 'E_ARG', () => 'metrics: give at least one --group column');
  const cols = opts.groups.map((g) => {
    const c = getColumn(table, g, 'metrics --group');
    return { name: g, labels: labelsOf(c, 'the group column') as string[], numeric: c.kind === 'numeric' };
  });
  const priv = opts.privileged ?? {};
  for (const k of Object.keys(priv)) check(opts.groups.includes(k), 'E_ARG', () => `metrics: --privileged ${k}=${priv[k]} names a column that is not a --group (${opts.groups.join(', ')})`);
  const build = (column: string, keyOf: (i: number) => string, sortKeys: string[], given?: string): Attr => {
    const values = sortKeys;
    const index = new Map(values.map((v, k) => [v, k]));
    const gid = new Int32Array(table.rows);
    for (let i = 0; i < table.rows; i++) gid[i] = index.get(keyOf(i))!;
    if (given !== undefined) check(index.has(given), 'E_ARG', () => `metrics: privileged group "${given}" of ${column} has no rows; the groups are: ${values.join('; ')}`);
    return { column, values, gid, given };
  };
  if (!opts.intersect || cols.length === 1) {
    return cols.map((c) => build(c.name, (i) => c.labels[i], distinct(c.labels, c.numeric), priv[c.name]));
  }
  const per = cols.map((c) => distinct(c.labels, c.numeric));
  const keyOf = (i: number) => cols.map((c) => c.labels[i]).join(', ');
  const present = new Set<string>();
  for (let i = 0; i < table.rows; i++) present.add(keyOf(i));
  // Cartesian order (first column slowest), cells with no rows left out
  let combos: string[][] = [[]];
  for (const vs of per) combos = combos.flatMap((p) => vs.map((v) => [...p, v]));
  const keys = combos.map((c) => c.join(', ')).filter((k) => present.has(k));
  const givenCols = cols.filter((c) => priv[c.name] !== undefined);
  check(givenCols.length === 0 || givenCols.length === cols.length, 'E_ARG', () => `metrics: with --intersect give --privileged for every --group column (${opts.groups.join(', ')}) or for none`);
  const given = givenCols.length ? cols.map((c) => priv[c.name]).join(', ') : undefined;
  return [build(opts.groups.join(' × '), keyOf, keys, given)];
}

function countsOf(attr: Attr, y: Uint8Array, yhat: Uint8Array, rows: ArrayLike<number> | null): Float64Array {
  // per group: tp, fp, tn, fn
  const c = new Float64Array(attr.values.length * 4);
  const n = rows ? rows.length : y.length;
  for (let k = 0; k < n; k++) {
    const i = rows ? rows[k] : k;
    const o = attr.gid[i] * 4 + (y[i] ? (yhat[i] ? 0 : 3) : yhat[i] ? 1 : 2);
    c[o]++;
  }
  return c;
}

function disparities(groupRates: Rates[], values: string[], p: number, fourFifths: number): Record<MetricName, Disparity> {
  const out = {} as Record<MetricName, Disparity>;
  for (const m of METRICS) {
    const pv = groupRates[p][m];
    const difference: Record<string, number | null> = {};
    const ratio: Record<string, number | null> = {};
    const below: string[] = [];
    let lo = Infinity;
    let hi = -Infinity;
    let defined = 0;
    groupRates.forEach((r, g) => {
      const v = r[m];
      if (v !== null) {
        defined++;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      if (g === p) return;
      difference[values[g]] = v === null || pv === null ? null : v - pv;
      const q = v === null || pv === null || pv === 0 ? null : v / pv;
      ratio[values[g]] = q;
      if (q !== null && q < fourFifths) below.push(values[g]);
    });
    out[m] = { difference, ratio, below_four_fifths: below, max_minus_min: defined >= 2 ? hi - lo : null };
  }
  return out;
}

/** numpy's default (linear) percentile of sorted values. */
function percentile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function interval(samples: (number | null)[], confidence: number): Interval {
  const s = samples.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const a = (1 - confidence) / 2;
  return { lo: percentile(s, a), hi: percentile(s, 1 - a) };
}

/**
 * Per-group rates and disparities for every --group attribute (or their intersection). The
 * privileged group is the given one, else the group with the highest positivity rate (first in
 * sorted order on a tie). Bootstrap: `bootstrap` resamples of all rows with replacement, drawn
 * from `rng`; the privileged group stays fixed; percentile intervals over the resamples where the
 * statistic is defined.
 */
export function groupMetrics(table: Table, opts: GroupMetricsOptions): MetricsReport {
  const threshold = opts.threshold ?? METRICS_DEFAULTS.threshold;
  check(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1, 'E_ARG', () => `metrics: threshold must be in [0, 1], got ${threshold}`);
  const B = opts.bootstrap ?? 0;
  check(Number.isSafeInteger(B) && B >= 0, 'E_ARG', () => `metrics: bootstrap must be a non-negative integer, got ${B}`);
  check(B === 0 || opts.rng, 'E_ARG', () => 'metrics: bootstrap needs a seeded rng');
  const confidence = opts.confidence ?? METRICS_DEFAULTS.confidence;
  check(confidence > 0 && confidence < 1, 'E_ARG', () => `metrics: confidence must be in (0, 1), got ${confidence}`);
  const minGroupSize = opts.minGroupSize ?? METRICS_DEFAULTS.minGroupSize;
  check(table.rows > 0, 'E_INPUT', () => 'metrics: the data has no rows');
  const { y, yhat, positive, predKind } = outcomes(table, opts, threshold);
  const attrs = attributes(table, opts);
  const warnings: string[] = [];
  const ff = METRICS_DEFAULTS.fourFifths;

  const results: AttributeResult[] = attrs.map((a) => {
    const c = countsOf(a, y, yhat, null);
    const gr = a.values.map((_, g) => rates(c[4 * g], c[4 * g + 1], c[4 * g + 2], c[4 * g + 3]));
    let p = a.given !== undefined ? a.values.indexOf(a.given) : 0;
    if (a.given === undefined) gr.forEach((r, g) => { if (r.positivity_rate! > gr[p].positivity_rate!) p = g; });
    const groups: GroupResult[] = a.values.map((v, g) => {
      const n = c[4 * g] + c[4 * g + 1] + c[4 * g + 2] + c[4 * g + 3];
      if (n < minGroupSize) warnings.push(`${a.column} = ${v} has only ${n} rows (< ${minGroupSize}): its rates are unreliable`);
      return { column: a.column, value: v, n, tp: c[4 * g], fp: c[4 * g + 1], tn: c[4 * g + 2], fn: c[4 * g + 3], privileged: g === p, ...gr[g] };
    });
    for (const g of groups) {
      if (g.tpr === null) warnings.push(`${a.column} = ${g.value}: no positive labels, TPR is undefined (null)`);
      if (g.ppv === null) warnings.push(`${a.column} = ${g.value}: no predicted positives, PPV is undefined (null)`);
    }
    return {
      column: a.column,
      privileged: { value: a.values[p], source: a.given !== undefined ? 'given' : 'highest positivity rate' },
      groups,
      disparities: disparities(gr, a.values, p, ff),
    };
  });

  if (B > 0) {
    const n = table.rows;
    // samples[attr][group][metric] and disparity samples, one entry per resample
    const gs = attrs.map((a) => a.values.map(() => METRICS.map(() => [] as (number | null)[])));
    const ds = attrs.map((a) => METRICS.map(() => ({ diff: a.values.map(() => [] as (number | null)[]), ratio: a.values.map(() => [] as (number | null)[]), mm: [] as (number | null)[] })));
    const rows = new Int32Array(n);
    for (let b = 0; b < B; b++) {
      const u = opts.rng!.uniformHost(n);
      for (let i = 0; i < n; i++) rows[i] = Math.min(n - 1, Math.floor(u[i] * n));
      attrs.forEach((a, ai) => {
        const c = countsOf(a, y, yhat, rows);
        const gr = a.values.map((_, g) => rates(c[4 * g], c[4 * g + 1], c[4 * g + 2], c[4 * g + 3]));
        const p = a.values.indexOf(results[ai].privileged.value);
        const d = disparities(gr, a.values, p, ff);
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
        const ci = { difference: {} as Record<string, Interval>, ratio: {} as Record<string, Interval>, max_minus_min: interval(ds[ai][mi].mm, confidence) };
        attrs[ai].values.forEach((v, g) => {
          if (v === res.privileged.value) return;
          ci.difference[v] = interval(ds[ai][mi].diff[g], confidence);
          ci.ratio[v] = interval(ds[ai][mi].ratio[g], confidence);
        });
        res.disparities[m].ci = ci;
      });
    });
  }

  return {
    rows: table.rows,
    label: opts.label,
    positive,
    pred: opts.pred,
    predKind,
    threshold: predKind === 'scores' ? threshold : null,
    attributes: results,
    bootstrap: B > 0 ? { resamples: B, seed: opts.rng!.seed, confidence, method: 'percentile, rows resampled with replacement, privileged group fixed' } : null,
    minGroupSize,
    warnings,
  };
}

export { formatMetricsTable, formatMetricsCsv } from './format.js';
