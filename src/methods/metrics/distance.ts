// The estimators of the score and regression metrics, from their textbook definitions: two-sample distances of
// distributions (Kolmogorov–Smirnov, Wasserstein-1), the AUC with Hanley & McNeil's standard error, means with
// their standard errors and the standard errors of the comparisons (Welch; the delta method for a log ratio of
// means), and the seeded percentile bootstrap of a statistic of two samples. Pure functions on typed arrays; core
// code (no Node imports).
import type { Rng } from '../../engine/rng.js';
import { log as fdlog } from '../../engine/fdlibm.js';
import { quantileSorted } from '../../data/quantile.js';

/** Ascending copy. */
export const sortedCopy = (v: ArrayLike<number>): Float64Array => Float64Array.from(v).sort();

/**
 * The two-sample Kolmogorov–Smirnov statistic sup_x |F_a(x) − F_b(x)| of two samples in ascending order: the
 * empirical CDFs compared after each distinct value (a merge of the sorted samples). 0 when either is empty.
 */
export function ksSorted(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = a.length;
  const nb = b.length;
  if (na === 0 || nb === 0) return 0;
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < na && j < nb) {
    const x = Math.min(a[i], b[j]);
    while (i < na && a[i] === x) i++;
    while (j < nb && b[j] === x) j++;
    d = Math.max(d, Math.abs(i / na - j / nb));
  }
  return d;
}

/**
 * The Wasserstein-1 distance ∫ |F_a(x) − F_b(x)| dx of two samples in ascending order (in the values' units): the
 * CDF gap times the width of each step between consecutive values of the merged samples. 0 when either is empty.
 */
export function wassersteinSorted(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = a.length;
  const nb = b.length;
  if (na === 0 || nb === 0) return 0;
  let i = 0;
  let j = 0;
  let w = 0;
  let x = Math.min(a[0], b[0]);
  while (i < na || j < nb) {
    while (i < na && a[i] === x) i++;
    while (j < nb && b[j] === x) j++;
    if (i === na && j === nb) break;
    const next = Math.min(i < na ? a[i] : Infinity, j < nb ? b[j] : Infinity);
    w += Math.abs(i / na - j / nb) * (next - x);
    x = next;
  }
  return w;
}

/** An AUC with its standard error and the class sizes behind it. */
export interface AucSe {
  /** P(a label-positive row scores above a label-negative one) + ½ P(tie) (Mann–Whitney U / (n1·n2)) */
  value: number;
  /** Hanley & McNeil's standard error, symmetrised over which class is positive (aucSe) */
  se: number;
  positives: number;
  negatives: number;
}

/**
 * The AUC of scores `pos` (label-positive rows) against `neg` (label-negative), both ascending: the Mann–Whitney
 * count of pairs ranked right, ties counting ½, over n1·n2. Null when either class is empty.
 */
export function aucSorted(pos: ArrayLike<number>, neg: ArrayLike<number>): AucSe | null {
  const n1 = pos.length;
  const n2 = neg.length;
  if (n1 === 0 || n2 === 0) return null;
  // for each positive: the negatives below it plus half those equal to it (two pointers over the sorted samples)
  let below = 0;
  let upTo = 0;
  let twice = 0;
  for (let i = 0; i < n1; i++) {
    const x = pos[i];
    while (below < n2 && neg[below] < x) below++;
    if (upTo < below) upTo = below;
    while (upTo < n2 && neg[upTo] <= x) upTo++;
    twice += below + upTo;
  }
  const value = twice / 2 / (n1 * n2);
  return { value, se: aucSe(value, n1, n2), positives: n1, negatives: n2 };
}

/**
 * Hanley & McNeil's (1982) standard error of an AUC A from n1 positives and n2 negatives, with
 * Q1 = A/(2 − A) and Q2 = 2A²/(1 + A):
 *     var = [A(1 − A) + (n1 − 1)(Q1 − A²) + (n2 − 1)(Q2 − A²)] / (n1·n2).
 * Their exponential model gives Q1 to the positives and Q2 to the negatives; which class is named positive is a
 * coding choice, so the variance here is the mean over the two assignments,
 *     [A(1 − A) + ((n1 + n2)/2 − 1)(Q1 + Q2 − 2A²)] / (n1·n2),
 * equal to theirs when n1 = n2 and the same however the label is coded (the same outputs, the same verdict).
 */
export function aucSe(A: number, n1: number, n2: number): number {
  const q1 = A / (2 - A);
  const q2 = (2 * A * A) / (1 + A);
  const v = (A * (1 - A) + ((n1 + n2) / 2 - 1) * (q1 + q2 - 2 * A * A)) / (n1 * n2);
  return Math.sqrt(Math.max(0, v));
}

/** Mean and sample variance (n − 1) of values; variance 0 for one value, NaN mean for none. */
export function meanVar(v: ArrayLike<number>): { n: number; mean: number; variance: number } {
  const n = v.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += v[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = v[i] - mean;
    ss += d * d;
  }
  return { n, mean, variance: n > 1 ? ss / (n - 1) : 0 };
}

/** Welch's standard error of a difference of two means: sqrt(s_a²/n_a + s_b²/n_b). */
export function welchSe(a: { n: number; variance: number }, b: { n: number; variance: number }): number {
  return Math.sqrt(a.variance / a.n + b.variance / b.n);
}

/**
 * The delta-method standard error of log(m_a / m_b), two independent means of positive values:
 * sqrt(s_a²/(n_a·m_a²) + s_b²/(n_b·m_b²)) (var log m ≈ var m / m²).
 */
export function logRatioSe(
  a: { n: number; mean: number; variance: number },
  b: { n: number; mean: number; variance: number },
): number {
  return Math.sqrt(a.variance / (a.n * a.mean * a.mean) + b.variance / (b.n * b.mean * b.mean));
}

/** log(a / b) as the verdicts test it (fdlibm's log: the same bits on every platform). */
export const logRatio = (a: number, b: number): number => fdlog(a) - fdlog(b);

/**
 * A seeded bootstrap interval of a distance `stat(a, b)` ≥ 0 between two samples, each resampled with replacement
 * within itself (the groups' sizes fixed), `B` times from `rng`; the samples are passed to `stat` in ascending order.
 * The basic (reverse percentile) interval [2d − q_hi, 2d − q_lo], clipped at 0, not the percentile one: a distance's
 * plug-in estimate d is biased upward (two samples of one distribution lie apart by chance, and resampling adds more),
 * so the percentile interval sits above d and can exclude 0 for two groups drawn alike; the basic interval turns that
 * bias back. Null with no resamples or an empty sample.
 */
export function bootstrapTwo(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  stat: (a: Float64Array, b: Float64Array) => number,
  B: number,
  rng: Rng,
  confidence: number,
): { lo: number; hi: number } | null {
  if (B <= 0 || a.length === 0 || b.length === 0) return null;
  const d = stat(Float64Array.from(a).sort(), Float64Array.from(b).sort());
  const out = new Float64Array(B);
  const ra = new Float64Array(a.length);
  const rb = new Float64Array(b.length);
  for (let k = 0; k < B; k++) {
    resample(a, ra, rng);
    resample(b, rb, rng);
    out[k] = stat(ra.sort(), rb.sort());
  }
  const q = percentileInterval(out, confidence);
  return { lo: Math.max(0, 2 * d - q.hi), hi: Math.max(0, 2 * d - q.lo) };
}

/** A seeded percentile bootstrap interval of `stat(v*)` (v resampled with replacement, ascending), as bootstrapTwo. */
export function bootstrapOne(
  v: ArrayLike<number>,
  stat: (v: Float64Array) => number,
  B: number,
  rng: Rng,
  confidence: number,
): { lo: number; hi: number } | null {
  if (B <= 0 || v.length === 0) return null;
  const out = new Float64Array(B);
  const r = new Float64Array(v.length);
  for (let k = 0; k < B; k++) {
    resample(v, r, rng);
    out[k] = stat(r.sort());
  }
  return percentileInterval(out, confidence);
}

function resample(v: ArrayLike<number>, into: Float64Array, rng: Rng): void {
  const n = v.length;
  const u = rng.uniformHost(n);
  for (let i = 0; i < n; i++) into[i] = v[Math.min(n - 1, Math.floor(u[i] * n))];
}

function percentileInterval(samples: Float64Array, confidence: number): { lo: number; hi: number } {
  samples.sort();
  const a = (1 - confidence) / 2;
  return { lo: quantileSorted(samples, a), hi: quantileSorted(samples, 1 - a) };
}
