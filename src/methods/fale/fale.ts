// FALE: fairness-aware accumulated local effects (Giannopoulos et al.; the athenarc reference's
// behaviour, except that each row keeps its own label: the reference assigns the labels after sorting
// the rows by bin, which scrambles them for the continuous EOD and AOD). For a feature, the
// change of a group-fairness statistic (unprivileged − privileged, the aif360 sign) computed
// within each bin's population when the feature moves from the bin's lower to its upper edge,
// accumulated and centred. Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import type { BlackBox } from '../../models/blackbox.js';
import { labelOf } from '../../models/classifier/preprocess.js';
import { csvField } from '../../data/csv-write.js';
import { byCodeUnit } from '../../data/text.js';
import {
  getColumn,
  selectRows,
  type CategoricalColumn,
  type Column,
  type NumericColumn,
  type Table,
} from '../../data/table.js';
import { categoricalOrder, linspace, percentilesSorted } from './order.js';
import type { Favourable } from '../metrics/definitions.js';
import { modelFit } from '../metrics/fit.js';
import { binaryLabel, decide, DECISION_DEFAULTS, positiveOf, ruleOf, type DecisionRule } from '../metrics/decision.js';
import { checkModelClasses, outputOf } from '../../models/contract.js';
import { outputWidth } from '../../models/output.js';
import { classOrderOf, directionOf, type Direction } from '../metrics/outputs.js';
import { classTarget } from '../metrics/targets.js';
import {
  checkMeasure,
  defaultMeasure,
  FALE_MEASURE_DEFS,
  measurePerPopulation,
  type FaleMeasure,
  type FaleMeasureDef,
  type FaleOutputKind,
} from './measures.js';

/** Confusion counts of one protected group within one population (weights are bootstrap multiplicities). */
export interface GroupStats {
  /** rows */
  n: number;
  /** rows whose label is positive */
  pos: number;
  /** rows predicted positive */
  predPos: number;
  /** label positive and predicted positive */
  tp: number;
  /** label negative and predicted positive */
  fp: number;
}

/** A fairness statistic of the unprivileged (`u`) and privileged (`p`) groups; null when undefined. */
export type FairnessMetric = (u: GroupStats, p: GroupStats) => number | null;
const rate = (a: number, b: number): number | null => (b > 0 ? a / b : null);

export interface FaleMetricDef {
  /** name in prose */
  label: string;
  /** the definition as the CLI's help prints it */
  formula: string;
  compute: FairnessMetric;
}

/**
 * The built-in metrics, aif360's sign: unprivileged − privileged. The one table of FALE's metrics:
 * the type, the CLI's choices and help text, and FALE_METRIC_FNS derive from it.
 */
export const FALE_METRIC_DEFS = {
  spd: {
    label: 'statistical parity difference',
    formula: 'P(yhat=1 | unpriv) - P(yhat=1 | priv)',
    // undefined when a group is absent
    compute: (u, p) => {
      const a = rate(u.predPos, u.n);
      const b = rate(p.predPos, p.n);
      return a === null || b === null ? null : a - b;
    },
  },
  eod: {
    label: 'equal opportunity difference',
    formula: 'TPR_unpriv - TPR_priv',
    // undefined when a group has no positive label
    compute: (u, p) => {
      const a = rate(u.tp, u.pos);
      const b = rate(p.tp, p.pos);
      return a === null || b === null ? null : a - b;
    },
  },
  aod: {
    label: 'average odds difference',
    formula: '((FPR_u - FPR_p) + (TPR_u - TPR_p)) / 2',
    // undefined when a group lacks positives or negatives
    compute: (u, p) => {
      const tu = rate(u.tp, u.pos);
      const tp = rate(p.tp, p.pos);
      const fu = rate(u.fp, u.n - u.pos);
      const fp = rate(p.fp, p.n - p.pos);
      return tu === null || tp === null || fu === null || fp === null ? null : 0.5 * (fu - fp + (tu - tp));
    },
  },
} as const satisfies Record<string, FaleMetricDef>;

export type FaleMetric = keyof typeof FALE_METRIC_DEFS;
/** The built-in metrics' names, in the table's order (the CLI's --metric choices). */
export const FALE_METRICS = Object.keys(FALE_METRIC_DEFS) as FaleMetric[];
/** Each built-in metric's function, by name. */
export const FALE_METRIC_FNS: Readonly<Record<FaleMetric, FairnessMetric>> = Object.fromEntries(
  FALE_METRICS.map((m) => [m, FALE_METRIC_DEFS[m].compute]),
) as Record<FaleMetric, FairnessMetric>;

/** One `column=value` condition; the unprivileged group is the rows meeting all of them. */
export interface ProtectedCondition {
  column: string;
  value: string;
}

export const FALE_DEFAULTS = {
  metric: 'spd' as FaleMetric,
  /** percentile levels linspace(0, 100, bins): the reference's 10 levels, ≤ 9 bins */
  bins: 10,
  threshold: DECISION_DEFAULTS.threshold,
  /** bins (categories) with fewer rows are undefined */
  minBin: 1,
  bootstrap: 0,
  confidence: 0.95,
};

export interface FaleOptions {
  label: string;
  /** the label value counted as positive (default: the second of exactly two values, sorted) */
  positive?: string;
  /** the unprivileged group: rows meeting every condition (e.g. sex=Female, or sex=Female and race=Black) */
  protected: ProtectedCondition[];
  /** a built-in metric name or a custom metric (default spd) */
  metric?: FaleMetric | FairnessMetric;
  /** the features to explain (default: every column but the label, the protected columns and `exclude`) */
  features?: string[];
  /** columns never explained nor used for the categorical ordering (e.g. a predictions column) */
  exclude?: string[];
  /** percentile levels linspace(0, 100, bins) for a numeric feature (default 10) */
  bins?: number;
  /** explicit edges, per feature name (sorted ascending, deduplicated); rows outside are left out */
  edges?: Record<string, number[]>;
  /** a row is predicted positive when P(positive) > threshold (default 0.5, as sklearn's predict) */
  threshold?: number;
  /** instead of `threshold`: the decision rule itself (metrics/decision.ts), as the audit's plan holds it */
  decision?: DecisionRule;
  /** bins / categories with fewer rows are reported undefined (default 1) */
  minBin?: number;
  /** categorical moves averaged count-weighted (ALEPlot) instead of the simple mean (the reference) */
  weighted?: boolean;
  /** groups with fewer rows are small (metrics' --min-group, default 30): a small group gets a warning */
  minGroupSize?: number;
  /**
   * whether the positive prediction is the favourable outcome (default 'positive'). A built-in metric is
   * taken on the favourable decision (with negative: spd is P(ŷ = favourable | unpriv) − P(ŷ = favourable | priv),
   * eod the same for the true rate of the favourable class), so below 0 the unprivileged group is
   * disadvantaged whichever value is named positive; a custom metric gets the counts as coded
   */
  favourable?: Favourable;
  /**
   * `--model-classes`: the model's classes as the data codes them (model class → label value); see checkModelClasses
   */
  modelClasses?: Record<string, string>;
  /** `--allow-inverted-scores`: scores that rank the label worse than chance are explained as given (metrics/fit.ts) */
  allowInvertedScores?: boolean;
  /**
   * check the model's scores on the rows as they are against the label first (default true; an audit has done it in its
   * metrics stage)
   */
  checkFit?: boolean;
  /** bootstrap replicates of the rows for percentile bands (default 0 = none); needs `rng` */
  bootstrap?: number;
  confidence?: number;
  rng?: Rng;
}

export interface FaleFeature {
  feature: string;
  kind: 'continuous' | 'categorical';
  /** continuous: the bin edges used (values[k] is at edges[k]; bin k+1 is (edges[k], edges[k+1]]) */
  edges?: number[];
  /** categorical: the categories in MDS order (values[k] is at categories[k]) */
  categories?: string[];
  /** accumulated, centred FALE at each edge / category */
  values: number[];
  /**
   * per bin (continuous: F_hi − F_lo; categorical: the move from the previous category, first = 0); null when undefined
   */
  deltas: (number | null)[];
  /** per bin (continuous) or category: rows in all, unprivileged and privileged */
  counts: { n: number[]; unprivileged: number[]; privileged: number[] };
  /** indices into `deltas` that are undefined (treated as 0 in the accumulation) */
  undefined: number[];
  /** rows outside explicit edges (continuous) */
  excluded?: number;
  /** bootstrap percentile band of `values` (null where fewer than half the replicates were defined) */
  ci?: { level: number; replicates: number; lower: (number | null)[]; upper: (number | null)[] };
}

/** What every FALE result says about the run: the metric, the groups, the rows. */
export interface FaleRunInfo {
  /** the binary metric's name, or the output measure's */
  metric: string;
  /** an output measure (a score, a class among k, a real value): its definition and units; absent for binary */
  measure?: FaleMeasureInfo;
  protected: ProtectedCondition[];
  label: string;
  /** binary: the positive class, the threshold and the favourable decision (absent for an output measure) */
  positive?: string;
  threshold?: number;
  favourable?: Favourable;
  /** how to read a value of the metric */
  reading: string;
  rows: number;
  /** the metric on all rows with the model's own predictions */
  overall: number | null;
  counts: { unprivileged: number; privileged: number };
}

/** An output measure as a result states it. */
export interface FaleMeasureInfo {
  name: FaleMeasure;
  label: string;
  formula: string;
  /** what a value is measured in */
  units: string;
  kind: FaleOutputKind;
  /** multiclass: the favourable class c */
  class?: string;
  /** score, regression: which end of the output people want */
  direction?: Direction;
}

export interface FaleResult extends FaleRunInfo {
  features: FaleFeature[];
  warnings: string[];
}

function argError(msg: string): EngineError {
  return new EngineError('E_ARG', msg);
}

/** Per-row binary label (1 = positive) and the positive value used. */
/** What a 1-D or 2-D FALE result says about its run; `u` marks the unprivileged rows. */
export function runInfo(
  table: Table,
  u: Uint8Array,
  opts: { protected: readonly ProtectedCondition[]; label: string; favourable?: Favourable },
  metric: FaleMetric | FairnessMetric,
  positive: string,
  decision: DecisionRule,
  overall: number | null,
): FaleRunInfo {
  const favourable = opts.favourable ?? 'positive';
  // spd, eod and aod (unprivileged − privileged) are taken on the favourable decision (faleSettings),
  // so they rise with the unprivileged group's favourable decisions whichever value is named positive
  const reading =
    typeof metric === 'function'
      ? 'a custom metric: read it as it was defined'
      : favourable === 'positive'
        ? 'taken on the favourable (positive) decision: below 0 the unprivileged group is disadvantaged'
        : 'taken on the favourable (negative) decision: below 0 the unprivileged group is disadvantaged';
  let nu = 0;
  for (let i = 0; i < table.rows; i++) nu += u[i];
  return {
    metric: typeof metric === 'function' ? 'custom' : metric,
    protected: opts.protected.map((c) => ({ ...c })),
    label: opts.label,
    positive,
    threshold: decision.threshold,
    favourable,
    reading,
    rows: table.rows,
    overall,
    counts: { unprivileged: nu, privileged: table.rows - nu },
  };
}

export function binaryLabels(
  table: Table,
  label: string,
  positive?: string,
): { y: Uint8Array; positive: string; values: string[] } {
  const col = getColumn(table, label, 'fale', '--label');
  const rows: string[] = new Array(table.rows);
  const seen = new Set<string>();
  for (let i = 0; i < table.rows; i++) {
    const l = labelOf(col, i);
    if (l === null) throw new EngineError('E_INPUT', `fale: label column "${label}", row ${i + 1}: missing value`);
    rows[i] = l;
    seen.add(l);
  }
  const values = [...seen];
  if (col.kind === 'numeric') values.sort((a, b) => Number(a) - Number(b));
  else values.sort(byCodeUnit);
  // the one rule for the positive class (metrics' positiveOf)
  const pos = positiveOf(values, positive, label, 'fale');
  return { y: binaryLabel(rows, pos), positive: pos, values };
}

/**
 * The model's classes against the data's before FALE calls it (metrics' one check; a mismatch would
 * reverse every curve): its recorded positive class, mapped by `modelClasses`, must be `positive`.
 */
export function checkFaleClasses(
  model: BlackBox,
  opts: Pick<FaleOptions, 'label' | 'positive' | 'modelClasses'>,
  values: readonly string[],
  positive: string,
): void {
  checkModelClasses(model, {
    label: opts.label,
    values,
    positive,
    positiveGiven: opts.positive !== undefined,
    classMap: opts.modelClasses,
  });
}

/**
 * The model's scores on every row as it is, against the label (metrics/fit.ts): scores that rank it
 * worse than chance stop FALE (unless allowInvertedScores); a weak model is a warning.
 */
export function faleFitWarnings(
  y: Uint8Array,
  p: ArrayLike<number>,
  decision: DecisionRule,
  values: readonly string[],
  positive: string,
  opts: Pick<FaleOptions, 'label' | 'favourable' | 'allowInvertedScores' | 'checkFit'>,
  source: string,
): string[] {
  if (opts.checkFit === false) return [];
  const yhat = decide(decision, p);
  const negative = values.length === 2 ? values.find((v) => v !== positive)! : null;
  const fit = modelFit(y, yhat, p, {
    positive,
    negative,
    favourable: opts.favourable ?? 'positive',
    label: opts.label,
    what: `the scores of ${source}`,
    allowInverted: opts.allowInvertedScores,
  });
  return fit.weak.map((w) => `a weak model: ${w}`);
}

/**
 * 1 for a row of the unprivileged group (meets every condition), 0 otherwise. With `hits` (one count
 * per condition, added to) a condition no row meets is no error: a chunk of a file may hold none.
 */
export function unprivilegedMask(table: Table, conds: readonly ProtectedCondition[], hits?: number[]): Uint8Array {
  check(conds.length > 0, 'E_ARG', () => 'fale: give the unprivileged group, e.g. --protected sex=Female');
  const mask = new Uint8Array(table.rows).fill(1);
  conds.forEach((c, j) => {
    const col = getColumn(table, c.column, 'fale', '--protected');
    let n = 0;
    for (let i = 0; i < table.rows; i++) {
      const l = labelOf(col, i);
      const ok = col.kind === 'numeric' ? l !== null && Number(l) === Number(c.value) : l === c.value;
      if (!ok) mask[i] = 0;
      else n++;
    }
    if (hits) hits[j] += n;
    else if (n === 0) throw noRowHas(table, c);
  });
  return mask;
}

/** The error for a --protected value no row holds. */
export function noRowHas(table: Table, c: ProtectedCondition): EngineError {
  const col = getColumn(table, c.column);
  const vals = col.kind === 'categorical' ? col.categories.slice(0, 8).join(', ') : 'numbers';
  return argError(`fale: --protected ${c.column}=${c.value}: no row has that value; the column holds ${vals}`);
}

/** FALE's number of percentile levels (at most one fewer bins): an integer of at least 2. */
export function checkFaleBins(levels: number): void {
  check(Number.isInteger(levels) && levels >= 2, 'E_ARG', () => `fale: bins must be an integer ≥ 2, got ${levels}`);
}

/**
 * Continuous bin edges: numpy.percentile(x, linspace(0, 100, levels)) with linear interpolation,
 * deduplicated (at most levels − 1 bins), as the reference.
 */
export function percentileEdges(values: ArrayLike<number>, levels = FALE_DEFAULTS.bins): number[] {
  checkFaleBins(levels);
  // the values but NaN, sorted: typed arrays only (ten million values: no JS array of them)
  let m = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) m++;
  const s = new Float64Array(m);
  for (let i = 0, j = 0; i < values.length; i++) if (!Number.isNaN(values[i])) s[j++] = values[i];
  s.sort();
  check(s.length > 0, 'E_INPUT', () => 'fale: the feature has no values');
  const e = percentilesSorted(s, linspace(0, 100, levels));
  const out: number[] = [];
  for (const v of e) if (out.length === 0 || v !== out[out.length - 1]) out.push(v);
  return out;
}

/**
 * Bin index (0-based) of each value for right-closed bins (e_k, e_{k+1}] with the lowest edge
 * included in the first bin; −1 outside [e_0, e_K] (or NaN).
 */
export function assignBins(values: ArrayLike<number>, edges: readonly number[]): Int32Array {
  const K = edges.length - 1;
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (!(x >= edges[0] && x <= edges[K]) || K < 1) {
      out[i] = -1;
      continue;
    }
    let lo = 1;
    let hi = K;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x <= edges[mid]) hi = mid;
      else lo = mid + 1;
    }
    out[i] = lo - 1;
  }
  return out;
}

/**
 * A copy of `table` restricted to `rows`, with `feature` replaced by `newValue(row)` (numeric value or category code).
 */
export function modifiedTable(table: Table, rows: Int32Array, feature: string, newValue: (j: number) => number): Table {
  const t = selectRows(table, rows);
  const c = t.columns.find((col) => col.name === feature);
  if (c) {
    const out = c.kind === 'numeric' ? c.values : c.codes; // the copy's own array: overwrite it
    for (let j = 0; j < rows.length; j++) out[j] = newValue(j);
  }
  return t;
}

export const emptyStats = (): GroupStats => ({ n: 0, pos: 0, predPos: 0, tp: 0, fp: 0 });

/**
 * The metric per population: rows[j] belongs to population pop[j] (−1 = none), with label y,
 * hard prediction yhat[j], group mask u, and weight w[row] (bootstrap multiplicity; 1 when absent).
 */
export function metricPerPopulation(
  metric: FairnessMetric,
  P: number,
  rows: Int32Array,
  pop: Int32Array,
  yhat: Uint8Array,
  y: Uint8Array,
  u: Uint8Array,
  w: Float64Array | null,
  minSize: number,
): (number | null)[] {
  const su = Array.from({ length: P }, emptyStats);
  const sp = Array.from({ length: P }, emptyStats);
  for (let j = 0; j < rows.length; j++) {
    const k = pop[j];
    if (k < 0) continue;
    const r = rows[j];
    const wt = w ? w[r] : 1;
    if (wt === 0) continue;
    const s = u[r] ? su[k] : sp[k];
    s.n += wt;
    if (y[r]) s.pos += wt;
    if (yhat[j]) {
      s.predPos += wt;
      if (y[r]) s.tp += wt;
      else s.fp += wt;
    }
  }
  return su.map((a, k) => {
    if (a.n + sp[k].n < minSize) return null;
    const v = metric(a, sp[k]);
    return v === null || !Number.isFinite(v) ? null : v;
  });
}

/** Cumulative sum from 0 (undefined deltas add 0). */
export function accumulate(deltas: (number | null)[], withZero: boolean): number[] {
  const a: number[] = withZero ? [0] : [];
  let s = 0;
  for (const d of deltas) {
    s += d ?? 0;
    a.push(s);
  }
  return a;
}

/** Continuous centring: subtract Σ n_k·(A_{k−1} + A_k)/2 / Σ n_k (PyALE / ALEPlot). */
export function centreContinuous(acc: number[], n: number[]): number[] {
  let num = 0;
  let den = 0;
  for (let k = 0; k < n.length; k++) {
    num += (n[k] * (acc[k] + acc[k + 1])) / 2;
    den += n[k];
  }
  const c = den > 0 ? num / den : 0;
  return acc.map((v) => v - c);
}

/** Categorical centring: subtract the frequency-weighted mean Σ n_j·A_j / Σ n_j (the reference). */
export function centreCategorical(acc: number[], n: number[]): number[] {
  let num = 0;
  let den = 0;
  for (let k = 0; k < n.length; k++) {
    num += n[k] * acc[k];
    den += n[k];
  }
  const c = den > 0 ? num / den : 0;
  return acc.map((v) => v - c);
}

/** Bootstrap multiplicities of `n` rows (n draws with replacement). */
function bootstrapWeights(rng: Rng, n: number): Float64Array {
  const u = rng.uniformHost(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[Math.min(n - 1, Math.floor(u[i] * n))]++;
  return w;
}

function quantile(sorted: number[], q: number): number {
  const h = q * (sorted.length - 1);
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (h - lo);
}

/** Percentile band over replicate value vectors (null where under half of them were fully defined). */
function band(
  reps: (number[] | null)[],
  level: number,
  points: number,
): { lower: (number | null)[]; upper: (number | null)[] } {
  const lower: (number | null)[] = [];
  const upper: (number | null)[] = [];
  const ok = reps.filter((r): r is number[] => r !== null);
  for (let k = 0; k < points; k++) {
    if (ok.length < Math.max(1, reps.length / 2)) {
      lower.push(null);
      upper.push(null);
      continue;
    }
    const v = ok.map((r) => r[k]).sort((a, b) => a - b);
    lower.push(quantile(v, (1 - level) / 2));
    upper.push(quantile(v, 1 - (1 - level) / 2));
  }
  return { lower, upper };
}

/** A per-row outcome of the model: a binary decision (0/1) or a measure's per-row value. */
export type Outcomes = Uint8Array | Float64Array;

/**
 * What FALE accumulates, whatever the output: the per-row outcome read from the model's output on some rows, and the
 * statistic per population of those rows. A binary metric's outcome is the decision (binaryStatistic); an output
 * measure's is its per-row value (faleOutput).
 */
export interface FaleStatistic {
  /** the outcome of each of `rows` (indices into the table) from the model's output on them (`pred`, row-major) */
  outcome(pred: Float64Array, rows: Int32Array): Outcomes;
  /** the statistic per population: rows[j] in population pop[j] (−1 none), outcome[j]; w bootstrap weights */
  perPopulation(
    P: number,
    rows: Int32Array,
    pop: Int32Array,
    outcome: Outcomes,
    u: Uint8Array,
    w: Float64Array | null,
    minSize: number,
  ): (number | null)[];
}

/**
 * A binary metric as a FaleStatistic: the decision of `decision` and the metric on the confusion counts against `y`.
 */
export function binaryStatistic(metric: FairnessMetric, decision: DecisionRule, y: Uint8Array): FaleStatistic {
  return {
    outcome: (pred) => decide(decision, pred),
    perPopulation: (P, rows, pop, yhat, u, w, minSize) =>
      metricPerPopulation(metric, P, rows, pop, yhat as Uint8Array, y, u, w, minSize),
  };
}

interface Ctx {
  table: Table;
  model: BlackBox;
  stat: FaleStatistic;
  u: Uint8Array;
  minBin: number;
  replicates: Float64Array[];
  level: number;
  base: Outcomes;
  others: Column[];
  weighted: boolean;
  bins: number;
}

async function continuousFale(ctx: Ctx, col: NumericColumn, explicit?: number[]): Promise<FaleFeature> {
  const { table, u } = ctx;
  let edges: number[];
  if (explicit) {
    edges = [...new Set(explicit)].sort((a, b) => a - b);
    check(edges.length >= 2, 'E_ARG', () => `fale: --edges for "${col.name}" needs at least two distinct values`);
  } else {
    edges = percentileEdges(col.values, ctx.bins);
  }
  const K = edges.length - 1;
  const bin = assignBins(col.values, edges);
  const members: number[] = [];
  for (let i = 0; i < table.rows; i++) if (bin[i] >= 0) members.push(i);
  const excluded = table.rows - members.length;
  const m = members.length;
  // one call: the members at their bin's lower edge, then at its upper edge (labels stay with their rows)
  const rows = new Int32Array(2 * m);
  const pop = new Int32Array(2 * m);
  for (let j = 0; j < m; j++) {
    rows[j] = rows[m + j] = members[j];
    pop[j] = pop[m + j] = bin[members[j]];
  }
  const mod = modifiedTable(table, rows, col.name, (j) => (j < m ? edges[pop[j]] : edges[pop[j] + 1]));
  const yhat: Outcomes = K >= 1 && m > 0 ? ctx.stat.outcome(await ctx.model.predict(mod), rows) : new Uint8Array(0);
  const lo = { rows: rows.subarray(0, m), pop: pop.subarray(0, m), yhat: yhat.subarray(0, m) };
  const hi = { rows: rows.subarray(m), pop: pop.subarray(m), yhat: yhat.subarray(m) };

  const n = new Array<number>(K).fill(0);
  const nu = new Array<number>(K).fill(0);
  for (const r of members) {
    n[bin[r]]++;
    if (u[r]) nu[bin[r]]++;
  }
  const deltasFor = (w: Float64Array | null): (number | null)[] => {
    const fLo = ctx.stat.perPopulation(K, lo.rows, lo.pop, lo.yhat, u, w, ctx.minBin);
    const fHi = ctx.stat.perPopulation(K, hi.rows, hi.pop, hi.yhat, u, w, ctx.minBin);
    return fLo.map((a, k) => (a === null || fHi[k] === null ? null : (fHi[k] as number) - a));
  };
  const deltas = deltasFor(null);
  const values = centreContinuous(accumulate(deltas, true), n);
  const out: FaleFeature = {
    feature: col.name,
    kind: 'continuous',
    edges,
    values,
    deltas,
    counts: { n, unprivileged: nu, privileged: n.map((x, k) => x - nu[k]) },
    undefined: deltas.flatMap((d, k) => (d === null ? [k] : [])),
  };
  if (explicit) out.excluded = excluded;
  if (ctx.replicates.length > 0) {
    const reps = ctx.replicates.map((w) => {
      const d = deltasFor(w);
      if (d.some((x, k) => x === null && deltas[k] !== null)) return null;
      const nw = new Array<number>(K).fill(0);
      for (const r of members) nw[bin[r]] += w[r];
      return centreContinuous(accumulate(d, true), nw);
    });
    out.ci = { level: ctx.level, replicates: reps.length, ...band(reps, ctx.level, K + 1) };
  }
  return out;
}

/**
 * A categorical feature's deltas from the metric per category as it is (`fOrig`, K values) and per
 * move (`fMoved`: 2j up from category j, 2j + 1 down from it): the first is 0; then the move up
 * into j and the move down out of it, averaged (count-weighted with `weighted`), or the one defined.
 */
export function categoricalDeltas(
  fOrig: (number | null)[],
  fMoved: (number | null)[],
  n: readonly number[],
  weighted: boolean,
): (number | null)[] {
  const d: (number | null)[] = [0];
  for (let j = 1; j < fOrig.length; j++) {
    const upMoved = fMoved[2 * (j - 1)];
    const downMoved = fMoved[2 * j + 1];
    const up = upMoved === null || fOrig[j - 1] === null ? null : upMoved - (fOrig[j - 1] as number);
    const down = downMoved === null || fOrig[j] === null ? null : (fOrig[j] as number) - downMoved;
    if (up === null && down === null) d.push(null);
    else if (up === null) d.push(down);
    else if (down === null) d.push(up);
    else if (weighted) d.push((n[j - 1] * up + n[j] * down) / (n[j - 1] + n[j]));
    else d.push((up + down) / 2);
  }
  return d;
}

async function categoricalFale(ctx: Ctx, col: CategoricalColumn): Promise<FaleFeature> {
  const { table, u } = ctx;
  const present = new Int32Array(col.categories.length);
  for (let i = 0; i < table.rows; i++) if (col.codes[i] >= 0) present[col.codes[i]]++;
  const cats: number[] = [];
  present.forEach((c, k) => {
    if (c > 0) cats.push(k);
  });
  const { order } = categoricalOrder(
    table,
    col,
    cats,
    ctx.others.filter((c) => c.name !== col.name),
  );
  const K = order.length;
  const rank = new Int32Array(col.categories.length).fill(-1);
  order.forEach((c, j) => (rank[c] = j));
  // moved rows: each row of category j moved up to j+1 and down to j−1
  const mv: number[] = [];
  const mvPop: number[] = [];
  const mvTo: number[] = [];
  for (let i = 0; i < table.rows; i++) {
    const j = col.codes[i] >= 0 ? rank[col.codes[i]] : -1;
    if (j < 0) continue;
    if (j + 1 < K) {
      mv.push(i);
      mvPop.push(2 * j); // population "up from j"
      mvTo.push(order[j + 1]);
    }
    if (j > 0) {
      mv.push(i);
      mvPop.push(2 * j + 1); // population "down from j"
      mvTo.push(order[j - 1]);
    }
  }
  const rows = Int32Array.from(mv);
  const pop = Int32Array.from(mvPop);
  const yhat: Outcomes =
    rows.length > 0
      ? ctx.stat.outcome(await ctx.model.predict(modifiedTable(table, rows, col.name, (j) => mvTo[j])), rows)
      : new Uint8Array(0);
  // the original predictions, per category
  const allRows = new Int32Array(table.rows);
  const catPop = new Int32Array(table.rows);
  for (let i = 0; i < table.rows; i++) {
    allRows[i] = i;
    catPop[i] = col.codes[i] >= 0 ? rank[col.codes[i]] : -1;
  }
  const n = new Array<number>(K).fill(0);
  const nu = new Array<number>(K).fill(0);
  for (let i = 0; i < table.rows; i++) {
    if (catPop[i] < 0) continue;
    n[catPop[i]]++;
    if (u[i]) nu[catPop[i]]++;
  }
  const deltasFor = (w: Float64Array | null, nn: number[]): (number | null)[] => {
    const fOrig = ctx.stat.perPopulation(K, allRows, catPop, ctx.base, u, w, ctx.minBin);
    const fMoved = ctx.stat.perPopulation(2 * K, rows, pop, yhat, u, w, ctx.minBin);
    return categoricalDeltas(fOrig, fMoved, nn, ctx.weighted);
  };
  const deltas = deltasFor(null, n);
  const values = centreCategorical(accumulate(deltas.slice(1), true), n);
  const out: FaleFeature = {
    feature: col.name,
    kind: 'categorical',
    categories: order.map((c) => col.categories[c]),
    values,
    deltas,
    counts: { n, unprivileged: nu, privileged: n.map((x, k) => x - nu[k]) },
    undefined: deltas.flatMap((d, k) => (d === null ? [k] : [])),
  };
  if (ctx.replicates.length > 0) {
    const reps = ctx.replicates.map((w) => {
      const nw = new Array<number>(K).fill(0);
      for (let i = 0; i < table.rows; i++) if (catPop[i] >= 0) nw[catPop[i]] += w[i];
      const d = deltasFor(w, nw);
      if (d.some((x, k) => x === null && deltas[k] !== null)) return null;
      return centreCategorical(accumulate(d.slice(1), true), nw);
    });
    out.ci = { level: ctx.level, replicates: reps.length, ...band(reps, ctx.level, K) };
  }
  return out;
}

/** The metric, decision rule and minimum bin of fale() and faleStream(), checked. */
export function faleSettings(opts: Pick<FaleOptions, 'metric' | 'threshold' | 'decision' | 'minBin' | 'favourable'>): {
  metricOpt: FaleMetric | FairnessMetric;
  metric: FairnessMetric;
  decision: DecisionRule;
  minBin: number;
} {
  const metricOpt = opts.metric ?? FALE_DEFAULTS.metric;
  const builtin = typeof metricOpt === 'function' ? null : FALE_METRIC_FNS[metricOpt];
  check(
    typeof metricOpt === 'function' || builtin,
    'E_ARG',
    () => `fale: unknown metric "${String(metricOpt)}"; expected ${FALE_METRICS.join(', ')}`,
  );
  const favourable = opts.favourable ?? 'positive';
  check(
    favourable === 'positive' || favourable === 'negative',
    'E_ARG',
    () => `fale: favourable must be positive or negative, got ${String(favourable)}`,
  );
  // a built-in metric is taken on the favourable decision (one coding convention: the same decisions
  // coded the other way give the same curve); a custom one gets the counts as the label is coded
  const metric = builtin ? onFavourable(builtin, favourable) : (metricOpt as FairnessMetric);
  const decision = ruleOf(opts, 'fale');
  return { metricOpt, metric, decision, minBin: opts.minBin ?? FALE_DEFAULTS.minBin };
}

/**
 * A group's counts with the favourable decision and its label counted as positive: with --favourable
 * negative the roles of the two classes swap (rows, label-positive rows, predicted-positive rows,
 * true and false positives of the other class).
 */
export function favourableStats(s: GroupStats): GroupStats {
  return { n: s.n, pos: s.n - s.pos, predPos: s.n - s.predPos, tp: s.n - s.pos - s.fp, fp: s.pos - s.tp };
}

/**
 * `metric` computed on the favourable decision: as it is with --favourable positive, on the swapped counts with
 * negative.
 */
export function onFavourable(metric: FairnessMetric, favourable: Favourable): FairnessMetric {
  return favourable === 'positive' ? metric : (u, p) => metric(favourableStats(u), favourableStats(p));
}

/**
 * The features FALE explains (the options', else every model input but the label, the protected and
 * excluded columns) and the columns the categorical order reads (`candidates`), checked against the
 * table's columns (for data read in chunks: its first chunk).
 */
export function featurePlan(
  table: Table,
  model: BlackBox,
  opts: Pick<FaleOptions, 'label' | 'protected' | 'exclude' | 'features' | 'edges'>,
): { candidates: Column[]; features: string[] } {
  const protectedCols = new Set(opts.protected.map((c) => c.column));
  const exclude = new Set([opts.label, ...(opts.exclude ?? [])]);
  const modelCols = model.features ? new Set(model.features) : null;
  const candidates = table.columns.filter((c) => !exclude.has(c.name) && (!modelCols || modelCols.has(c.name)));
  const features = opts.features ?? candidates.filter((c) => !protectedCols.has(c.name)).map((c) => c.name);
  check(features.length > 0, 'E_ARG', () => 'fale: no feature to explain');
  for (const f of features) {
    getColumn(table, f, 'fale', '--feature');
    check(!exclude.has(f), 'E_ARG', () => `fale: "${f}" is the label (or excluded); it cannot be a feature`);
  }
  for (const f of Object.keys(opts.edges ?? {})) {
    check(features.includes(f), 'E_ARG', () => `fale: edges given for "${f}", which is not among the features`);
    check(getColumn(table, f).kind === 'numeric', 'E_ARG', () => `fale: edges given for the categorical column "${f}"`);
  }
  return { candidates, features };
}

/**
 * FALE of each feature of `table` for `model` (called on modified rows). Numeric columns are
 * continuous features, categorical columns categorical ones. Undefined bins (a group absent, no
 * positives for TPR, fewer than `minBin` rows) have a null delta and add 0 to the accumulation.
 */
export async function fale(table: Table, model: BlackBox, opts: FaleOptions): Promise<FaleResult> {
  const { metricOpt, metric, decision, minBin } = faleSettings(opts);
  const { B, level } = bootstrapSettings(opts);
  const { y, positive, values } = binaryLabels(table, opts.label, opts.positive);
  checkFaleClasses(model, opts, values, positive);
  const u = unprivilegedMask(table, opts.protected);
  const plan = featurePlan(table, model, opts);
  const scores = await model.predict(table);
  const fitWarnings = faleFitWarnings(y, scores, decision, values, positive, opts, model.source);
  const stat = binaryStatistic(metric, decision, y);
  const all = new Int32Array(table.rows).map((_, i) => i);
  const base = stat.outcome(scores, all);
  const overall = stat.perPopulation(1, all, new Int32Array(table.rows), base, u, null, 1)[0];
  const info = runInfo(table, u, opts, metricOpt, positive, decision, overall);
  return faleFeatures(table, model, opts, { stat, u, base, minBin, B, level, plan, warnings: fitWarnings }, info);
}

/** FALE's bootstrap settings, checked: replicates and the band's level. */
function bootstrapSettings(opts: Pick<FaleOptions, 'bootstrap' | 'confidence' | 'rng'>): { B: number; level: number } {
  const B = opts.bootstrap ?? 0;
  check(Number.isInteger(B) && B >= 0, 'E_ARG', () => `fale: bootstrap must be a non-negative integer, got ${B}`);
  check(B === 0 || opts.rng, 'E_ARG', () => 'fale: bootstrap needs an rng (a seeded Rng)');
  const level = opts.confidence ?? FALE_DEFAULTS.confidence;
  check(level > 0 && level < 1, 'E_ARG', () => `fale: confidence must be in (0, 1), got ${level}`);
  return { B, level };
}

/** What FALE of every feature needs, prepared by fale() or faleOutput(). */
interface Prepared {
  stat: FaleStatistic;
  u: Uint8Array;
  /** the outcome of every row as it is (the categorical features' populations read it) */
  base: Outcomes;
  minBin: number;
  B: number;
  level: number;
  plan: { candidates: Column[]; features: string[] };
  warnings: string[];
}

/** FALE of each planned feature with the prepared statistic; the result is `info` with the features and warnings. */
async function faleFeatures<I extends FaleRunInfo>(
  table: Table,
  model: BlackBox,
  opts: Pick<FaleOptions, 'rng' | 'weighted' | 'bins' | 'minGroupSize' | 'edges'>,
  prep: Prepared,
  info: I,
): Promise<I & { features: FaleFeature[]; warnings: string[] }> {
  const { u, B } = prep;
  const replicates = Array.from({ length: B }, () => bootstrapWeights(opts.rng as Rng, table.rows));
  const ctx: Ctx = {
    table,
    model,
    stat: prep.stat,
    u,
    minBin: prep.minBin,
    replicates,
    level: prep.level,
    base: prep.base,
    others: prep.plan.candidates,
    weighted: opts.weighted ?? false,
    bins: opts.bins ?? FALE_DEFAULTS.bins,
  };
  const warnings: string[] = prep.warnings;
  warnings.push(...smallGroupWarnings(u, opts.minGroupSize));
  const out: FaleFeature[] = [];
  for (const f of prep.plan.features) {
    const col = getColumn(table, f);
    const r =
      col.kind === 'numeric' ? await continuousFale(ctx, col, opts.edges?.[f]) : await categoricalFale(ctx, col);
    warnings.push(...featureWarnings(f, r));
    out.push(r);
  }
  return { ...info, features: out, warnings };
}

/** The one definition of a small group (metrics' --min-group, default 30): FALE still runs, and says so. */
function smallGroupWarnings(u: Uint8Array, minGroupSize: number | undefined): string[] {
  const minGroup = minGroupSize ?? 30;
  const warnings: string[] = [];
  let nu = 0;
  for (let i = 0; i < u.length; i++) nu += u[i];
  if (nu < minGroup)
    warnings.push(`the unprivileged group has ${nu} rows (< ${minGroup}, small): its FALE curves are unreliable`);
  if (u.length - nu < minGroup)
    warnings.push(`everyone else is ${u.length - nu} rows (< ${minGroup}, small): the FALE curves are unreliable`);
  return warnings;
}

/** FALE of a model whose output is a score, a class among k or a real value (FALE_MEASURE_DEFS). */
export interface FaleOutputOptions
  extends Omit<
    FaleOptions,
    | 'positive'
    | 'metric'
    | 'threshold'
    | 'decision'
    | 'favourable'
    | 'modelClasses'
    | 'allowInvertedScores'
    | 'checkFit'
  > {
  /** the measure (default: the kind's first, class-rate or mean-prediction); one that does not fit the kind is E_ARG */
  measure?: FaleMeasure;
  /** multiclass: the favourable class c (default: the first of `classOrder`) */
  favouredClass?: string;
  /** multiclass: every class of the model, most favourable first (`--class-order`) */
  classOrder?: readonly string[];
  /** score, regression: which end of the output people want (required: it says which sign disadvantages) */
  direction?: Direction;
}

/** The measure of an output FALE and how to read it. */
export interface FaleOutputSetup {
  stat: FaleStatistic;
  measure: FaleMeasureInfo;
  reading: string;
}

/**
 * The measure for `model`'s output kind, checked (a measure that does not fit the kind, a multiclass model without a
 * favourable class, a score or real value without a direction, a residual on a label that is not numbers: E_ARG or
 * E_INPUT naming it), as a FaleStatistic reading the label where the measure needs it.
 */
export function outputSetup(
  table: Table,
  model: BlackBox,
  opts: Pick<FaleOutputOptions, 'label' | 'measure' | 'favouredClass' | 'classOrder' | 'direction'>,
): FaleOutputSetup {
  const out = outputOf(model);
  check(
    out.kind !== 'binary',
    'E_ARG',
    () =>
      `fale: ${model.source} is a binary classifier; its measures are the binary metrics (--metric ` +
      `${FALE_METRICS.join('|')}), not --measure`,
  );
  const kind = out.kind as FaleOutputKind;
  const name = checkMeasure(opts.measure ?? defaultMeasure(kind), kind);
  const def: FaleMeasureDef = FALE_MEASURE_DEFS[name];
  let favoured = -1;
  let favouredClass: string | undefined;
  let direction: Direction | undefined;
  let units: string;
  let reading: string;
  if (out.kind === 'multiclass') {
    const order = classOrderOf(out.classes, opts.classOrder ? [...opts.classOrder] : undefined);
    favouredClass = opts.favouredClass ?? order?.[0];
    check(
      favouredClass !== undefined,
      'E_ARG',
      () =>
        `fale: a multiclass model needs its favourable class: --class C or --class-order (most favourable first); ` +
        `its classes are: ${out.classes.join(', ')}`,
    );
    const t = classTarget(favouredClass as string, out.classes, 'fale');
    favoured = t.kind === 'class' ? t.index : -1;
    units = `a difference of two rates of class ${favouredClass} (fractions of rows, in [-1, 1])`;
    reading = `below 0 the unprivileged group receives the favourable class ${favouredClass} less often`;
  } else {
    direction = directionOf(kind as 'score' | 'regression', opts.direction);
    const what = kind === 'score' ? "the score's units" : `the units of the label "${opts.label}"`;
    units = what;
    const bad = direction === 'higher' ? 'below' : 'above';
    reading =
      name === 'mean-residual'
        ? `${bad} 0 the model's errors (prediction - label) put the unprivileged group on the unfavourable side ` +
          `(${direction} is favourable) more than the privileged group; the curves are the mean prediction's (a ` +
          `row's label does not move with the feature, so it cancels in every bin's change): only the overall ` +
          `value differs`
        : `${bad} 0 the unprivileged group's mean prediction is on the unfavourable side (${direction} is favourable)`;
  }
  let y: Float64Array | null = null;
  if (def.needsLabel) {
    const col = getColumn(table, opts.label, 'fale', '--label');
    check(
      col.kind === 'numeric',
      'E_ARG',
      () => `fale: --measure ${name} needs a numeric label; "${opts.label}" holds categories`,
    );
    const values = (col as NumericColumn).values;
    for (let i = 0; i < table.rows; i++)
      if (Number.isNaN(values[i]))
        throw new EngineError('E_INPUT', `fale: label column "${opts.label}", row ${i + 1}: missing value`);
    y = values;
  }
  const width = outputWidth(out);
  const stat: FaleStatistic = {
    outcome: (pred, rows) => {
      const o = { pred, width, favoured };
      const v = new Float64Array(rows.length);
      for (let j = 0; j < rows.length; j++) v[j] = def.value(o, j, y ? y[rows[j]] : Number.NaN);
      return v;
    },
    perPopulation: (P, rows, pop, v, u, w, minSize) =>
      measurePerPopulation(def.compute, P, rows, pop, v, u, w, minSize),
  };
  const measure: FaleMeasureInfo = { name, label: def.label, formula: def.formula, units, kind };
  if (favouredClass !== undefined) measure.class = favouredClass;
  if (direction !== undefined) measure.direction = direction;
  return { stat, measure, reading };
}

/** What an output FALE result says about its run (faleOutput, fale2dOutput). */
export function outputRunInfo(
  table: Table,
  u: Uint8Array,
  opts: { protected: readonly ProtectedCondition[]; label: string },
  setup: FaleOutputSetup,
  overall: number | null,
): FaleRunInfo {
  let nu = 0;
  for (let i = 0; i < table.rows; i++) nu += u[i];
  return {
    metric: setup.measure.name,
    measure: setup.measure,
    protected: opts.protected.map((c) => ({ ...c })),
    label: opts.label,
    reading: setup.reading,
    rows: table.rows,
    overall,
    counts: { unprivileged: nu, privileged: table.rows - nu },
  };
}

/**
 * FALE of each feature for a model whose output is a score, a class among k or a real value: fale()'s bins, moves,
 * accumulation, centring and bootstrap, with the measure (FALE_MEASURE_DEFS) in place of a binary metric.
 */
export async function faleOutput(table: Table, model: BlackBox, opts: FaleOutputOptions): Promise<FaleResult> {
  const setup = outputSetup(table, model, opts);
  const minBin = opts.minBin ?? FALE_DEFAULTS.minBin;
  const { B, level } = bootstrapSettings(opts);
  getColumn(table, opts.label, 'fale', '--label');
  const u = unprivilegedMask(table, opts.protected);
  const plan = featurePlan(table, model, opts);
  const all = new Int32Array(table.rows).map((_, i) => i);
  const base = setup.stat.outcome(await model.predict(table), all);
  const overall = setup.stat.perPopulation(1, all, new Int32Array(table.rows), base, u, null, 1)[0];
  const info = outputRunInfo(table, u, opts, setup, overall);
  return faleFeatures(table, model, opts, { stat: setup.stat, u, base, minBin, B, level, plan, warnings: [] }, info);
}

/** What one feature's FALE says of itself (undefined bins or moves, collapsed edges), for the result's warnings. */
export function featureWarnings(f: string, r: FaleFeature): string[] {
  const warnings: string[] = [];
  if (r.undefined.length > 0)
    warnings.push(
      `${f}: the metric is undefined in ${r.undefined.length} ${r.kind === 'continuous' ? 'bin' : 'move'}(s) (a ` +
        `group absent, no positives for TPR/FPR, or under --min-bin rows); they add 0`,
    );
  if (r.kind === 'continuous' && (r.edges as number[]).length <= 2)
    warnings.push(
      `${f}: the percentiles collapse to ${(r.edges as number[]).length} edge(s); the reference skips such features`,
    );
  return warnings;
}

/**
 * CSV: one line per plotted point. Continuous point 0 is the minimum edge (delta and counts
 * empty); point k ≥ 1 is bin k, at its upper edge. Categorical point k is category k.
 */
export function faleCsv(r: FaleResult): string {
  const head = [
    'feature',
    'kind',
    'point',
    'x',
    'value',
    'delta',
    'n',
    'n_unprivileged',
    'n_privileged',
    'undefined',
    'ci_lower',
    'ci_upper',
  ];
  // an output measure's name and units on every line (a binary metric's CSV keeps its columns)
  const m = r.measure;
  if (m) head.push('measure', 'units');
  const lines = [head.join(',')];
  for (const f of r.features) {
    const cont = f.kind === 'continuous';
    f.values.forEach((v, k) => {
      const b = cont ? k - 1 : k; // index into deltas / counts
      const has = b >= 0;
      lines.push(
        [
          f.feature,
          f.kind,
          k,
          cont ? (f.edges as number[])[k] : (f.categories as string[])[k],
          v,
          has ? f.deltas[b] : null,
          has ? f.counts.n[b] : null,
          has ? f.counts.unprivileged[b] : null,
          has ? f.counts.privileged[b] : null,
          has ? (f.deltas[b] === null ? 'true' : 'false') : null,
          f.ci?.lower[k],
          f.ci?.upper[k],
          ...(m ? [m.name, m.units] : []),
        ]
          .map(csvField)
          .join(','),
      );
    });
  }
  return lines.join('\n') + '\n';
}

/** One (feature, subgroup) pair of the reference's ranking. */
export interface RankedSubgroup {
  feature: string;
  /** a bin, labelled by its upper edge and interval, or a category */
  subgroup: string;
  /** the accumulated, centred FALE value there (not the per-bin Δ, as the reference) */
  value: number;
  /** rows in the subgroup */
  size: number;
  score: number;
}

/**
 * The reference's subgroup ranking (`get_fale_metric`): for every (feature, bin or category) with
 * centred FALE value f and size s, score = |f| / max|f| · b + (s / N) · (10 − b), trade-off
 * b ∈ [0, 10] (10: only the effect, 0: only the size); max|f| over every pair listed, N the rows.
 * Sorted by score, descending (ties keep feature, then bin order).
 */
export function rankSubgroups(r: FaleResult, b = 5): RankedSubgroup[] {
  check(b >= 0 && b <= 10, 'E_ARG', () => `fale: the ranking trade-off b must be in [0, 10], got ${b}`);
  const out: RankedSubgroup[] = [];
  for (const f of r.features) {
    f.counts.n.forEach((size, k) => {
      if (f.kind === 'continuous') {
        const e = f.edges as number[];
        out.push({
          feature: f.feature,
          subgroup: `${k === 0 ? '[' : '('}${e[k]}, ${e[k + 1]}]`,
          value: f.values[k + 1],
          size,
          score: 0,
        });
      } else {
        out.push({ feature: f.feature, subgroup: (f.categories as string[])[k], value: f.values[k], size, score: 0 });
      }
    });
  }
  const maxAbs = out.reduce((m, x) => Math.max(m, Math.abs(x.value)), 0);
  for (const x of out) x.score = (maxAbs > 0 ? Math.abs(x.value) / maxAbs : 0) * b + (x.size / r.rows) * (10 - b);
  return out
    .map((x, i) => ({ x, i }))
    .sort((p, q) => q.x.score - p.x.score || p.i - q.i)
    .map((p) => p.x);
}
