// Verdicts for group comparisons: flagged / inconclusive / pass / too little data, with a stated
// error rate. Pure functions; core code (no Node imports).
//
// ── The rule (fixed before the calibration runs; EXPERIMENTS.md §8) ────────────────────────────────
// A comparison is one metric m of one group g against the attribute's reference group r. Both rates
// are proportions x/n of disjoint sets of rows, so the ratio ρ = (x_g/n_g) / (x_r/n_r) has the
// log-ratio (Katz) standard error
//     se = sqrt(1/x_g − 1/n_g + 1/x_r − 1/n_r)
// (with 0.5 added to every count and 1 to every denominator when a count is 0 or equals its
// denominator, so that the log stays finite).
// The tolerance τ (default 0.8) is the band [τ, 1/τ]: a ratio inside it is no disparity worth a flag,
// in either direction (Aequitas' rule). The hypothesis tested is "the true ratio is inside the band";
// its p-value is 2·Φ(−δ/se), where δ is the distance of log ρ outside [log τ, −log τ] (p = 1 inside).
// Testing the band rather than ρ = 1 is what makes the false-alarm rate a statement about flags: a
// group whose true disparity is within the tolerance is flagged with probability at most α, however
// large the sample; a test of ρ = 1 alone would flag a true 0.9 given enough rows.
// The p-values of every comparison in one report (all attributes, groups, metrics and the
// intersection) are corrected together by Holm's step-down procedure, which bounds the chance of ANY
// false flag in the report (the family-wise error rate) by α = 1 − confidence (default 5%).
//   flagged          the ratio is outside the band and Holm rejects "inside the band" at α; equivalently
//                    the interval at the comparison's corrected level lies wholly outside the band;
//   inconclusive     outside the band, not significant at the corrected level;
//   pass             inside the band;
//   too little data  either group is small (fewer than --min-group rows) or the rate is undefined.
// The corrected level of a comparison is α·p/p̃ (p̃ its Holm-adjusted p-value): the interval
// exp(log ρ ± z·se) at that level excludes the band exactly when p̃ ≤ α, so the interval shown and the
// verdict always agree.
//
// ── Any estimator on either scale ───────────────────────────────────────────────────────────────────
// The same band test judges any estimate with a standard error (bandTest): on the log-ratio scale
// (band [log τ, −log τ]: AUCs, mean predictions, MAEs) or on the difference scale (band [−d, d] in the
// output's units: a mean residual, or any comparison with --tolerance-units). Such comparisons carry
// `scale`, `estimate` and `band` (absent on the binary ones, whose fields and bytes are unchanged); Holm
// corrects them in one family with the binary ones, and the interval of a difference is estimate ± z·se
// at the corrected level (a ratio's is exp(log ρ ± z·se)).
import type { Counts, Favourable, MetricName } from './definitions.js';
import { betterOf, metricDef } from './definitions.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';

/** What a flagged or inconclusive disparity means for the group. */
export type FlagDirection = 'disadvantaged' | 'advantaged' | 'differs';

export type Verdict = 'flagged' | 'inconclusive' | 'pass' | 'too little data';
export const VERDICTS: readonly Verdict[] = ['flagged', 'inconclusive', 'pass', 'too little data'];

/** The scale a comparison is tested on: the log of the ratio group / reference, or the difference group − reference. */
export type Scale = 'ratio' | 'difference';

/**
 * One comparison of a group with the reference. `M` is the metric's name: the binary metrics' (definitions.ts) by
 * default, the score and regression metrics' (output-definitions.ts) for those outputs.
 */
export interface Comparison<M extends string = MetricName> {
  metric: M;
  /** the compared group's value */
  group: string;
  /** the reference group's value */
  reference: string;
  rate: number | null;
  referenceRate: number | null;
  /** rate − reference rate (aif360's sign) */
  difference: number | null;
  /** rate / reference rate; null when the reference rate is 0 or either is undefined */
  ratio: number | null;
  /** numerators and denominators behind the two rates; null when either group is suppressed (suppress.ts) */
  counts: { x: number; n: number; xRef: number; nRef: number } | null;
  /** log ρ as tested (with the zero-count correction when it applied); null with too little data */
  logRatio: number | null;
  /** its standard error */
  se: number | null;
  /** two-sided p-value of "the ratio is inside the band" (1 inside); null with too little data */
  p: number | null;
  /** Holm-adjusted p-value over the report's family */
  pAdjusted: number | null;
  /** the comparison's corrected level α·p/p̃ (the interval's confidence is 1 − level) */
  level: number | null;
  /** ratio interval at the corrected level */
  interval: { lo: number; hi: number } | null;
  verdict: Verdict;
  /** for a flagged or inconclusive comparison: what the disparity means for the group */
  direction: FlagDirection | null;
  /** why 'too little data' */
  reason?: string;
  /**
   * the group's four-fifths verdict beside this one: its selection rate over the most selected group's (the legal
   * yardstick, not itself a flag)
   */
  fourFifths?: { ratio: number | null; below: boolean; against: string | null };
  /** the scale tested (absent on binary comparisons: the log ratio of two proportions) */
  scale?: Scale;
  /**
   * the estimate tested: the log ratio (ratio scale) or the difference in the output's units; null with too little data
   */
  estimate?: number | null;
  /** the band on the tested scale: [log τ, −log τ] or [−d, d] */
  band?: [number, number];
  /** the rows behind the two values (score and regression comparisons; binary ones have `counts`) */
  sizes?: { n: number; nRef: number };
}

export interface VerdictSettings {
  /** τ in (0, 1): the band is [τ, 1/τ] */
  tolerance: number;
  /** α: the family-wise error rate of the report's flags */
  alpha: number;
  minGroupSize: number;
  favourable: Favourable;
}

/** Φ(x), the standard normal CDF, via erfc (Numerical Recipes' erfc; relative error < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    fdexp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - r / 2 : r / 2;
}

/** Φ⁻¹(p) for p in (0, 1) (Acklam's rational approximation, one Newton step on normalCdf). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p <= 0 ? -Infinity : Infinity;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * fdlog(p));
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - lo) {
    const q = Math.sqrt(-2 * fdlog(1 - p));
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const e = normalCdf(x) - p;
  return x - e * Math.sqrt(2 * Math.PI) * fdexp((x * x) / 2);
}

/** The symbol of a flag's direction, wherever a flag is written (text, tables, charts, headlines). */
export const DIRECTION_ARROW: Record<FlagDirection, string> = {
  disadvantaged: '↓',
  advantaged: '↑',
  differs: '≠',
};
/** a flag's direction as its symbol ("≠" when it has none) */
export const arrowOf = (d: FlagDirection | null): string => DIRECTION_ARROW[d ?? 'differs'];

const CONCERN: Record<FlagDirection, number> = { disadvantaged: 0, differs: 1, advantaged: 2 };

/**
 * Flags in the order a reader needs them: disadvantaged groups first, then "differs", then advantaged;
 * within each, the most significant (Holm-adjusted p), then the largest |log ratio| (Holm ties often).
 */
export function byConcern(a: Comparison<string>, b: Comparison<string>): number {
  // a difference's size is read against its band's half-width, so that it sorts with log ratios
  const size = (c: Comparison<string>) =>
    c.scale === 'difference' ? Math.abs(c.estimate ?? 0) / Math.max(c.band![1], 1e-300) : Math.abs(c.logRatio ?? 0);
  return (
    CONCERN[a.direction ?? 'differs'] - CONCERN[b.direction ?? 'differs'] ||
    (a.pAdjusted ?? 1) - (b.pAdjusted ?? 1) ||
    size(b) - size(a)
  );
}

/**
 * The Wilson score interval of a proportion x / n at `confidence` (two-sided): unlike the normal
 * (Wald) interval it stays inside [0, 1] and keeps its width at 0 and n, where small groups live.
 * Null when n is 0.
 */
export function wilsonInterval(x: number, n: number, confidence = 0.95): { lo: number; hi: number } | null {
  if (!(n > 0) || !(x >= 0) || x > n) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = x / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // x = 0 and x = n have exact ends (the formula gives them only up to rounding)
  return { lo: x === 0 ? 0 : Math.max(0, centre - half), hi: x === n ? 1 : Math.min(1, centre + half) };
}

/** A comparison's figures with nothing tested yet: the verdict 'too little data' until a test says otherwise. */
function untested<M extends string>(
  metric: M,
  group: string,
  reference: string,
  rate: number | null,
  referenceRate: number | null,
  counts: Comparison['counts'],
): Comparison<M> {
  return {
    metric,
    group,
    reference,
    rate,
    referenceRate,
    difference: rate === null || referenceRate === null ? null : rate - referenceRate,
    ratio: rate === null || referenceRate === null || referenceRate === 0 ? null : rate / referenceRate,
    counts,
    logRatio: null,
    se: null,
    p: null,
    pAdjusted: null,
    level: null,
    interval: null,
    verdict: 'too little data',
    direction: null,
  };
}

/** Why a comparison gets no verdict when the group or its reference has fewer rows than the minimum (null: neither). */
function tooSmall(
  group: string,
  n: number,
  reference: string,
  nRef: number,
  s: { minGroupSize: number },
  referenceNamed: boolean,
): string | null {
  if (n < s.minGroupSize) return `${group} has ${n} rows (< ${s.minGroupSize})`;
  if (nRef < s.minGroupSize)
    return `the reference ${reference} has ${nRef} rows (< ${s.minGroupSize})${referenceNamed ? ', as named' : ''}`;
  return null;
}

/**
 * One comparison of `metric` between a group's counts and the reference's, before correction
 * (pAdjusted, level, interval and the final verdict come from `correct`).
 */
export function compare(
  metric: MetricName,
  group: string,
  g: Counts,
  reference: string,
  r: Counts,
  s: VerdictSettings,
  referenceNamed = false,
): Comparison {
  const def = metricDef(metric);
  const x = def.num(g, s.favourable);
  const n = def.den(g, s.favourable);
  const xRef = def.num(r, s.favourable);
  const nRef = def.den(r, s.favourable);
  const rate = n > 0 ? x / n : null;
  const referenceRate = nRef > 0 ? xRef / nRef : null;
  const base = untested(metric, group, reference, rate, referenceRate, { x, n, xRef, nRef });
  const small = tooSmall(group, g.tp + g.fp + g.tn + g.fn, reference, r.tp + r.fp + r.tn + r.fn, s, referenceNamed);
  if (small) return { ...base, reason: small };
  if (rate === null || referenceRate === null)
    return {
      ...base,
      reason: `the ${def.label} is undefined (no rows in its denominator) for ${rate === null ? group : reference}`,
    };
  const fix = x === 0 || x === n || xRef === 0 || xRef === nRef;
  const [a, an, b, bn] = fix ? [x + 0.5, n + 1, xRef + 0.5, nRef + 1] : [x, n, xRef, nRef];
  const lr = fdlog(a / an) - fdlog(b / bn);
  const se = Math.sqrt(1 / a - 1 / an + 1 / b - 1 / bn);
  const edge = fdlog(s.tolerance);
  const outside =
    base.ratio === null ? lr < edge || lr > -edge : base.ratio < s.tolerance || base.ratio > 1 / s.tolerance;
  const p = outside ? bandTest(lr, se, edge, -edge).p : 1;
  const better = betterOf(metric, s.favourable);
  const low = base.ratio !== null ? base.ratio < 1 : lr < 0;
  const direction = !outside
    ? null
    : better === null
      ? 'differs'
      : (better === 'higher') === low
        ? 'disadvantaged'
        : 'advantaged';
  return { ...base, logRatio: lr, se, p, verdict: outside ? 'inconclusive' : 'pass', direction };
}

/**
 * The band test of one estimate with standard error `se`: the two-sided p-value of "the true value is inside
 * [lo, hi]", 2·Φ(−δ/se) with δ the estimate's distance outside the band (p = 1 inside; an interval-null test,
 * whose size is at most α at every true value inside the band). `outside` is whether the estimate is.
 */
export function bandTest(estimate: number, se: number, lo: number, hi: number): { outside: boolean; p: number } {
  const delta = estimate < lo ? lo - estimate : estimate > hi ? estimate - hi : 0;
  return { outside: delta > 0, p: delta > 0 ? Math.min(1, 2 * normalCdf(-delta / se)) : 1 };
}

/** What an estimator hands to `judge`: the two values, the tested estimate on its scale and its standard error. */
export interface Estimate {
  /** the group's value and the reference's (an AUC, a mean prediction) */
  value: number | null;
  referenceValue: number | null;
  /** log(value / reference) on the ratio scale, value − reference on the difference scale; null when undefined */
  estimate: number | null;
  se: number | null;
  /** why the estimate is undefined (a group with no positives, a zero mean); with a null estimate */
  undefinedReason?: string;
}

/** The settings of `judge`: the scale and its band, the metric's direction, the small-group rule. */
export interface JudgeSettings {
  scale: Scale;
  /** the band on the tested scale: [log τ, −log τ] for ratios, [−d, d] for differences */
  band: [number, number];
  /** what a higher value means for the group (after the output's favourable direction): null → "differs" */
  better: 'higher' | 'lower' | null;
  minGroupSize: number;
}

/**
 * One comparison of any estimator on either scale, before correction (as `compare` is for two proportions):
 * too little data for a small group (fewer than minGroupSize rows) or an undefined estimate; else the band test,
 * and for an estimate outside the band its direction. `rate`/`referenceRate` hold the two values, `difference` and
 * `ratio` their difference and ratio; `logRatio` the tested log ratio on the ratio scale (null on the difference
 * scale, where `estimate` is the tested difference).
 */
export function judge<M extends string>(
  metric: M,
  group: string,
  n: number,
  reference: string,
  nRef: number,
  e: Estimate,
  s: JudgeSettings,
  referenceNamed = false,
): Comparison<M> {
  const { value, referenceValue } = e;
  const base: Comparison<M> = {
    ...untested(metric, group, reference, value, referenceValue, null),
    scale: s.scale,
    estimate: null,
    band: s.band,
    sizes: { n, nRef },
  };
  const small = tooSmall(group, n, reference, nRef, s, referenceNamed);
  if (small) return { ...base, reason: small };
  if (e.estimate === null || e.se === null || !Number.isFinite(e.estimate) || !(e.se >= 0))
    return { ...base, reason: e.undefinedReason ?? `the ${metric} is undefined for ${group} or ${reference}` };
  const { outside, p } = bandTest(e.estimate, e.se, s.band[0], s.band[1]);
  const low = e.estimate < 0;
  const direction = !outside
    ? null
    : s.better === null
      ? 'differs'
      : (s.better === 'higher') === low
        ? 'disadvantaged'
        : 'advantaged';
  return {
    ...base,
    logRatio: s.scale === 'ratio' ? e.estimate : null,
    estimate: e.estimate,
    se: e.se,
    p,
    verdict: outside ? 'inconclusive' : 'pass',
    direction,
  };
}

/**
 * Holm's step-down correction over every comparison with a p-value, in place: the adjusted p-value,
 * the comparison's corrected level and its interval, and the final verdict (flagged when outside the
 * band and p̃ ≤ α). Returns the number of comparisons in the family.
 */
export function correct(comparisons: Comparison<string>[], alpha: number): number {
  const tested = comparisons.filter((c) => c.p !== null);
  const adjusted = holm(tested.map((c) => c.p!));
  tested.forEach((c, i) => {
    c.pAdjusted = adjusted[i];
    c.level = correctedLevel(alpha, c.p!, adjusted[i], tested.length);
    const z = normalQuantile(1 - c.level / 2);
    c.interval =
      c.scale === 'difference'
        ? { lo: c.estimate! - z * c.se!, hi: c.estimate! + z * c.se! }
        : { lo: fdexp(c.logRatio! - z * c.se!), hi: fdexp(c.logRatio! + z * c.se!) };
    if (c.verdict !== 'pass') c.verdict = c.pAdjusted <= alpha ? 'flagged' : 'inconclusive';
  });
  return tested.length;
}

/** Holm's step-down adjusted p-values, in the order given: p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j)). */
export function holm(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((_, i) => i).sort((a, b) => ps[a] - ps[b]);
  const out = new Array<number>(m);
  let run = 0;
  order.forEach((i, k) => {
    run = Math.max(run, Math.min(1, (m - k) * ps[i]));
    out[i] = run;
  });
  return out;
}

/** The per-comparison level α·p/p̃ at which a test-inverting interval agrees with Holm's decision (α/m when p is 0). */
export function correctedLevel(alpha: number, p: number, pAdjusted: number, m: number): number {
  return p > 0 && pAdjusted > 0 ? (alpha * p) / pAdjusted : alpha / Math.max(1, m);
}
