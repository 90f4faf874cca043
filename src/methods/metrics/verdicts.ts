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
import type { Counts, Favourable, MetricName } from './definitions.js';
import { betterOf, metricDef } from './definitions.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';

export type Verdict = 'flagged' | 'inconclusive' | 'pass' | 'too little data';
export const VERDICTS: readonly Verdict[] = ['flagged', 'inconclusive', 'pass', 'too little data'];

export interface Comparison {
  metric: MetricName;
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
  direction: 'disadvantaged' | 'advantaged' | 'differs' | null;
  /** why 'too little data' */
  reason?: string;
  /**
   * the group's four-fifths verdict beside this one: its selection rate over the most selected group's (the legal
   * yardstick, not itself a flag)
   */
  fourFifths?: { ratio: number | null; below: boolean; against: string | null };
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
export const DIRECTION_ARROW: Record<NonNullable<Comparison['direction']>, string> = {
  disadvantaged: '↓',
  advantaged: '↑',
  differs: '≠',
};
/** a flag's direction as its symbol ("≠" when it has none) */
export const arrowOf = (d: Comparison['direction']): string => DIRECTION_ARROW[d ?? 'differs'];

const CONCERN: Record<NonNullable<Comparison['direction']>, number> = { disadvantaged: 0, differs: 1, advantaged: 2 };

/**
 * Flags in the order a reader needs them: disadvantaged groups first, then "differs", then advantaged;
 * within each, the most significant (Holm-adjusted p), then the largest |log ratio| (Holm ties often).
 */
export function byConcern(a: Comparison, b: Comparison): number {
  return (
    CONCERN[a.direction ?? 'differs'] - CONCERN[b.direction ?? 'differs'] ||
    (a.pAdjusted ?? 1) - (b.pAdjusted ?? 1) ||
    Math.abs(b.logRatio ?? 0) - Math.abs(a.logRatio ?? 0)
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
  const base: Comparison = {
    metric,
    group,
    reference,
    rate,
    referenceRate,
    difference: rate === null || referenceRate === null ? null : rate - referenceRate,
    ratio: rate === null || referenceRate === null || referenceRate === 0 ? null : rate / referenceRate,
    counts: { x, n, xRef, nRef },
    logRatio: null,
    se: null,
    p: null,
    pAdjusted: null,
    level: null,
    interval: null,
    verdict: 'too little data',
    direction: null,
  };
  const ng = g.tp + g.fp + g.tn + g.fn;
  const nr = r.tp + r.fp + r.tn + r.fn;
  if (ng < s.minGroupSize) return { ...base, reason: `${group} has ${ng} rows (< ${s.minGroupSize})` };
  if (nr < s.minGroupSize)
    return {
      ...base,
      reason: `the reference ${reference} has ${nr} rows (< ${s.minGroupSize})${referenceNamed ? ', as named' : ''}`,
    };
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
  const delta = lr < edge ? edge - lr : lr > -edge ? lr + edge : 0;
  const p = outside && delta > 0 ? Math.min(1, 2 * normalCdf(-delta / se)) : 1;
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
 * Holm's step-down correction over every comparison with a p-value, in place: the adjusted p-value,
 * the comparison's corrected level and its interval, and the final verdict (flagged when outside the
 * band and p̃ ≤ α). Returns the number of comparisons in the family.
 */
export function correct(comparisons: Comparison[], alpha: number): number {
  const tested = comparisons.filter((c) => c.p !== null);
  const adjusted = holm(tested.map((c) => c.p!));
  tested.forEach((c, i) => {
    c.pAdjusted = adjusted[i];
    c.level = correctedLevel(alpha, c.p!, adjusted[i], tested.length);
    const z = normalQuantile(1 - c.level / 2);
    c.interval = { lo: fdexp(c.logRatio! - z * c.se!), hi: fdexp(c.logRatio! + z * c.se!) };
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
