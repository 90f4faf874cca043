// The one table of group metrics (habit 4): every list of metrics — the JSON fields, the text and CSV
// columns, the report's tables, the verdicts — is derived from METRIC_DEFS. A new metric is one entry
// here plus its tests. Core code: no Node imports.
//
// Each metric is a proportion num / den of one group's confusion matrix (tp, fp, tn, fn), so every
// rate has a count behind it and a comparison of two groups is a comparison of two proportions
// (verdicts.ts). Directions: with a favourable positive outcome, a lower selection rate, TPR, FPR or
// FDR, or a higher TNR, FNR or FOR, disadvantages a group; with an unfavourable one the reverse; PPV
// and NPV have no favourable direction.

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
 * With `--favourable negative` the directed ones flip (a high-risk score: a higher FPR is worse for
 * the group), except the metrics taken on the favourable decision itself (`oriented`), whose
 * direction is the same whatever the coding.
 */
export type Better = 'higher' | 'lower' | null;

/** Which outcome of the positive class people want: 'positive' (a loan) or 'negative' (a high-risk score). */
export type Favourable = 'positive' | 'negative';
export const FAVOURABLE: readonly Favourable[] = ['positive', 'negative'];

/**
 * What a metric becomes when the same decisions are coded the other way (the other label value named
 * positive, --favourable flipped, scores 1 − p): `metric` is the counterpart that then holds the same
 * number, or, with `complement`, the counterpart holds 1 − this number. The one coding convention
 * (docs/methods.md "One decision, one verdict") is that the
 * judged metrics are closed under this map, so the same decisions get the same verdicts however the
 * label is coded.
 */
export interface Recoded {
  metric: string;
  complement?: true;
}

export interface MetricDef {
  /** short column header */
  short: string;
  /** name in prose */
  label: string;
  /** one line of help */
  help: string;
  /**
   * numerator and denominator of the rate from the group's confusion matrix (the positive class as named); `fav` for
   * the metrics taken on the favourable decision
   */
  num: (c: Counts, fav: Favourable) => number;
  den: (c: Counts, fav: Favourable) => number;
  better: Better;
  /** taken on the favourable decision (whatever value is named positive): `better` does not flip with --favourable */
  oriented?: true;
  /** gets a verdict (flags); base rate, positivity rate and accuracy are shown but not judged */
  judged: boolean;
  /** drawn in the report's per-group rate charts: the selection rate and the two error rates of equalised odds */
  chart?: true;
  /** the counterpart under the other coding of the same decisions */
  recoded: Recoded;
}

const all = (c: Counts) => c.tp + c.fp + c.tn + c.fn;
const labelPos = (c: Counts) => c.tp + c.fn;
const labelNeg = (c: Counts) => c.fp + c.tn;
const predPos = (c: Counts) => c.tp + c.fp;
const predNeg = (c: Counts) => c.tn + c.fn;
/** rows given the favourable decision */
const predFav = (c: Counts, fav: Favourable) => (fav === 'positive' ? predPos(c) : predNeg(c));

export const METRIC_DEFS = {
  base_rate: {
    short: 'base',
    label: 'base rate',
    help: 'share of rows whose label is positive (a property of the labels, not of the model)',
    num: labelPos,
    den: all,
    better: null,
    judged: false,
    recoded: { metric: 'base_rate', complement: true },
  },
  selection_rate: {
    short: 'sel',
    label: 'selection rate',
    help:
      'share of rows given the favourable decision (the positive prediction, or with --favourable negative the ' +
      'negative one): the rate the selection verdict, the four-fifths rule and LL144 judge, whichever value is ' +
      'named positive',
    num: predFav,
    den: all,
    better: 'higher',
    oriented: true,
    judged: true,
    chart: true,
    recoded: { metric: 'selection_rate' },
  },
  positivity_rate: {
    short: 'pos',
    label: 'positivity rate',
    help: 'share of rows the model predicts positive (shown; the verdict is on the selection rate)',
    num: predPos,
    den: all,
    better: 'higher',
    judged: false,
    recoded: { metric: 'positivity_rate', complement: true },
  },
  tpr: {
    short: 'TPR',
    label: 'TPR',
    help: 'true positive rate (recall): predicted positive among label-positive rows',
    num: (c) => c.tp,
    den: labelPos,
    better: 'higher',
    judged: true,
    chart: true,
    recoded: { metric: 'tnr' },
  },
  tnr: {
    short: 'TNR',
    label: 'TNR',
    help: 'true negative rate (specificity): predicted negative among label-negative rows (1 − FPR)',
    num: (c) => c.tn,
    den: labelNeg,
    better: 'lower',
    judged: true,
    recoded: { metric: 'tpr' },
  },
  fnr: {
    short: 'FNR',
    label: 'FNR',
    help: 'false negative rate: predicted negative among label-positive rows (1 − TPR)',
    num: (c) => c.fn,
    den: labelPos,
    better: 'lower',
    judged: true,
    recoded: { metric: 'fpr' },
  },
  fpr: {
    short: 'FPR',
    label: 'FPR',
    help: 'false positive rate: predicted positive among label-negative rows',
    num: (c) => c.fp,
    den: labelNeg,
    better: 'higher',
    judged: true,
    chart: true,
    recoded: { metric: 'fnr' },
  },
  ppv: {
    short: 'PPV',
    label: 'PPV',
    help: 'precision: label positive among predicted-positive rows',
    num: (c) => c.tp,
    den: predPos,
    better: null,
    judged: true,
    recoded: { metric: 'npv' },
  },
  fdr: {
    short: 'FDR',
    label: 'FDR',
    help: 'false discovery rate: label negative among predicted-positive rows (1 − PPV)',
    num: (c) => c.fp,
    den: predPos,
    better: 'higher',
    judged: true,
    recoded: { metric: 'for' },
  },
  npv: {
    short: 'NPV',
    label: 'NPV',
    help: 'negative predictive value: label negative among predicted-negative rows',
    num: (c) => c.tn,
    den: predNeg,
    better: null,
    judged: true,
    recoded: { metric: 'ppv' },
  },
  for: {
    short: 'FOR',
    label: 'FOR',
    help: 'false omission rate: label positive among predicted-negative rows (1 − NPV)',
    num: (c) => c.fn,
    den: predNeg,
    better: 'lower',
    judged: true,
    recoded: { metric: 'fdr' },
  },
  accuracy: {
    short: 'acc',
    label: 'accuracy',
    help: 'share of rows predicted correctly (describes the fit, not the treatment)',
    num: (c) => c.tp + c.tn,
    den: all,
    better: null,
    judged: false,
    recoded: { metric: 'accuracy' },
  },
} as const satisfies Record<string, MetricDef>;

export type MetricName = keyof typeof METRIC_DEFS;
export const METRICS = Object.keys(METRIC_DEFS) as MetricName[];
/** the metrics that get verdicts */
export const JUDGED_METRICS = METRICS.filter((m) => METRIC_DEFS[m].judged);
/** the metrics of the report's per-group rate charts */
export const CHARTED_METRICS = METRICS.filter((m) => 'chart' in METRIC_DEFS[m]);

/** The metric's definition, widened to MetricDef (optional fields readable). */
export const metricDef = (m: MetricName): MetricDef => METRIC_DEFS[m] as MetricDef;

/** What `m` becomes under the other coding of the same decisions (see Recoded). */
export function recodedMetric(m: MetricName): { metric: MetricName; complement: boolean } {
  const r = metricDef(m).recoded;
  return { metric: r.metric as MetricName, complement: r.complement === true };
}

/** The direction of `m` under `favourable`: what a higher value means for the group. */
export function betterOf(m: MetricName, favourable: Favourable): Better {
  const d = metricDef(m);
  const b = d.better;
  if (b === null || favourable === 'positive' || d.oriented) return b;
  return b === 'higher' ? 'lower' : 'higher';
}

/** A sentence on how to read a difference in `m`. */
export function guidance(m: MetricName, favourable: Favourable): string {
  const b = betterOf(m, favourable);
  const L = metricDef(m).label;
  if (b === null)
    return m === 'base_rate'
      ? 'the base rate describes the labels, not the model: shown, not judged'
      : m === 'accuracy'
        ? 'accuracy describes the fit, not who is favoured: shown, not judged'
        : `a different ${L} means the model's decisions mean something different for the group (calibration); ` +
          `neither direction is favourable`;
  if (!metricDef(m).judged)
    return `the ${L} is shown, not judged: the verdict is on the selection rate (the favourable decision's rate)`;
  return b === 'higher' ? `a lower ${L} disadvantages the group` : `a higher ${L} disadvantages the group`;
}

export type Rates = Record<MetricName, number | null>;

/** The rates of one confusion matrix; a rate with an empty denominator is null. */
export function rates(tp: number, fp: number, tn: number, fn: number, fav: Favourable): Rates {
  const c = { tp, fp, tn, fn };
  const out = {} as Rates;
  for (const m of METRICS) {
    const def = metricDef(m);
    const d = def.den(c, fav);
    out[m] = d === 0 ? null : def.num(c, fav) / d;
  }
  return out;
}

/** "a, b and c" */
const andList = (xs: readonly string[]): string =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const orList = (xs: readonly string[]): string =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;

/** The judged metrics in prose, from the table: "the selection rate, TPR, TNR, … and FOR". */
export function judgedPhrase(): string {
  return andList(
    JUDGED_METRICS.map((m) =>
      metricDef(m).label === metricDef(m).label.toLowerCase() ? `the ${metricDef(m).label}` : metricDef(m).label,
    ),
  );
}

/**
 * How the judged metrics read, from the table, for --help and the report: which direction
 * disadvantages a group under --favourable positive, what flips with negative, what has no direction.
 */
export function directionsPhrase(): string {
  const judged = JUDGED_METRICS.map(metricDef);
  const oriented = judged.filter((d) => d.oriented).map((d) => `the ${d.label}`);
  const lower = judged.filter((d) => !d.oriented && d.better === 'higher').map((d) => d.label);
  const higher = judged.filter((d) => !d.oriented && d.better === 'lower').map((d) => d.label);
  const none = judged.filter((d) => d.better === null).map((d) => d.label);
  return (
    `${andList(oriented)} ${oriented.length > 1 ? 'are' : 'is'} taken on the favourable decision whatever value is ` +
    `named positive: a lower one disadvantages a group. With --favourable positive (the default) a lower ` +
    `${orList(lower)} and a higher ${orList(higher)} disadvantage a group; with negative the reverse. ` +
    `${andList(none)} have no favourable direction ("differs").`
  );
}
