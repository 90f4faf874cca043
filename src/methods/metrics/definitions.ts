// The one table of group metrics (habit 4): every list of metrics — the JSON fields, the text and CSV
// columns, the report's tables, the verdicts — is derived from METRIC_DEFS. A new metric is one entry
// here plus its tests. Core code: no Node imports.
//
// Each metric is a proportion num / den of one group's confusion matrix (tp, fp, tn, fn), so every
// rate has a count behind it and a comparison of two groups is a comparison of two proportions
// (verdicts.ts). Directions follow ../shared/spec/fairness-audits.md §2.

/** The counts of one group's confusion matrix. */
export interface Counts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/**
 * What a higher value means for the group, when the positive prediction is the favourable outcome:
 *   'higher' — a higher value favours the group (more favourable decisions or errors);
 *   'lower'  — a higher value disadvantages it;
 *   null     — no direction (a property of the labels or of the model's calibration per group).
 * With `--favourable negative` the directed ones flip (a high-risk score: a higher positivity rate
 * is worse for the group).
 */
export type Better = 'higher' | 'lower' | null;

export interface MetricDef {
  /** short column header */
  short: string;
  /** name in prose */
  label: string;
  /** one line of help */
  help: string;
  num: (c: Counts) => number;
  den: (c: Counts) => number;
  better: Better;
  /** gets a verdict (flags); base rate and accuracy are shown but describe the labels or the fit, not treatment */
  judged: boolean;
  /** drawn in the report's per-group rate charts: the selection rate and the two error rates of equalised odds */
  chart?: true;
}

const all = (c: Counts) => c.tp + c.fp + c.tn + c.fn;
const labelPos = (c: Counts) => c.tp + c.fn;
const labelNeg = (c: Counts) => c.fp + c.tn;
const predPos = (c: Counts) => c.tp + c.fp;
const predNeg = (c: Counts) => c.tn + c.fn;

export const METRIC_DEFS = {
  base_rate: { short: 'base', label: 'base rate', help: 'share of rows whose label is positive (a property of the labels, not of the model)', num: labelPos, den: all, better: null, judged: false },
  positivity_rate: { short: 'pos', label: 'positivity rate', help: 'share of rows the model predicts positive', num: predPos, den: all, better: 'higher', judged: true, chart: true },
  tpr: { short: 'TPR', label: 'TPR', help: 'true positive rate (recall): predicted positive among label-positive rows', num: (c) => c.tp, den: labelPos, better: 'higher', judged: true, chart: true },
  fnr: { short: 'FNR', label: 'FNR', help: 'false negative rate: predicted negative among label-positive rows (1 − TPR)', num: (c) => c.fn, den: labelPos, better: 'lower', judged: true },
  fpr: { short: 'FPR', label: 'FPR', help: 'false positive rate: predicted positive among label-negative rows', num: (c) => c.fp, den: labelNeg, better: 'higher', judged: true, chart: true },
  ppv: { short: 'PPV', label: 'PPV', help: 'precision: label positive among predicted-positive rows', num: (c) => c.tp, den: predPos, better: null, judged: true },
  fdr: { short: 'FDR', label: 'FDR', help: 'false discovery rate: label negative among predicted-positive rows (1 − PPV)', num: (c) => c.fp, den: predPos, better: null, judged: true },
  npv: { short: 'NPV', label: 'NPV', help: 'negative predictive value: label negative among predicted-negative rows', num: (c) => c.tn, den: predNeg, better: null, judged: true },
  for: { short: 'FOR', label: 'FOR', help: 'false omission rate: label positive among predicted-negative rows (1 − NPV)', num: (c) => c.fn, den: predNeg, better: 'lower', judged: true },
  accuracy: { short: 'acc', label: 'accuracy', help: 'share of rows predicted correctly (describes the fit, not the treatment)', num: (c) => c.tp + c.tn, den: all, better: null, judged: false },
} as const satisfies Record<string, MetricDef>;

export type MetricName = keyof typeof METRIC_DEFS;
export const METRICS = Object.keys(METRIC_DEFS) as MetricName[];
/** the metrics that get verdicts */
export const JUDGED_METRICS = METRICS.filter((m) => METRIC_DEFS[m].judged);
/** the metrics of the report's per-group rate charts */
export const CHARTED_METRICS = METRICS.filter((m) => 'chart' in METRIC_DEFS[m]);

/** Which outcome of the positive class people want: 'positive' (a loan) or 'negative' (a high-risk score). */
export type Favourable = 'positive' | 'negative';
export const FAVOURABLE: readonly Favourable[] = ['positive', 'negative'];

/** The direction of `m` under `favourable`: what a higher value means for the group. */
export function betterOf(m: MetricName, favourable: Favourable): Better {
  const b = (METRIC_DEFS[m] as MetricDef).better;
  if (b === null || favourable === 'positive') return b;
  return b === 'higher' ? 'lower' : 'higher';
}

/** A sentence on how to read a difference in `m`. */
export function guidance(m: MetricName, favourable: Favourable): string {
  const b = betterOf(m, favourable);
  const L = (METRIC_DEFS[m] as MetricDef).label;
  if (b === null) return m === 'base_rate' ? 'the base rate describes the labels, not the model: shown, not judged' : m === 'accuracy' ? 'accuracy describes the fit, not who is favoured: shown, not judged' : `a different ${L} means the model's decisions mean something different for the group (calibration); neither direction is favourable`;
  return b === 'higher' ? `a lower ${L} disadvantages the group` : `a higher ${L} disadvantages the group`;
}

export type Rates = Record<MetricName, number | null>;

/** The rates of one confusion matrix; a rate with an empty denominator is null. */
export function rates(tp: number, fp: number, tn: number, fn: number): Rates {
  const c = { tp, fp, tn, fn };
  const out = {} as Rates;
  for (const m of METRICS) {
    const d = METRIC_DEFS[m].den(c);
    out[m] = d === 0 ? null : METRIC_DEFS[m].num(c) / d;
  }
  return out;
}
