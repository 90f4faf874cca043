// Binning of numeric protected attributes (e.g. age): quantile edges by default, or explicit edges.
// Core code: no Node imports.
//
// Convention (as ProtectedAttribute.bins documents): k + 1 increasing edges; bin i is
// (edges[i], edges[i+1]], the first bin also includes edges[0]. Labels read "[17, 30]" for the
// first bin and "(30, 50]" for the others, so a label says exactly which values it holds; a column of
// few distinct values has a bin per value, labelled by the value (quantileBins).
import { check } from '../engine/errors.js';

export interface Bins {
  method: 'quantile' | 'explicit';
  edges: number[];
  labels: string[];
}

export { quantileSorted } from '../data/quantile.js';
import { quantileSorted } from '../data/quantile.js';

const finiteSorted = (values: ArrayLike<number>): Float64Array =>
  Float64Array.from(Array.from(values).filter(Number.isFinite)).sort();

/** Shortest readable form of an edge (up to 4 significant digits after rounding float noise). */
export function formatEdge(x: number): string {
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

/** Labels of the bins of `edges`: "[e0, e1]", then "(e1, e2]", … */
export function binLabels(edges: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < edges.length; i++)
    out.push(`${i === 0 ? '[' : '('}${formatEdge(edges[i])}, ${formatEdge(edges[i + 1])}]`);
  return out;
}

/** The number of bins a numeric protected column is cut into: a positive integer. */
export function checkBinCount(k: number): void {
  check(
    Number.isSafeInteger(k) && k >= 1,
    'E_ARG',
    () => `bins: the number of bins must be a positive integer, got ${k}`,
  );
}

/**
 * Quantile bins: edges at the i/k quantiles (i = 0 … k) of the finite values, duplicates removed
 * (heavy ties give fewer than k bins). A column with at most k distinct values (a coded category such
 * as sex = 1 / 2, a constant) gets one bin per value instead, labelled by the value: its quantiles
 * would merge values into one bin, and a coded category has no order between its codes to bin by.
 * Its edges are v0, the midpoints between neighbouring values, and v(m−1): each value has a bin of its
 * own, and a generated value between two codes (0.3 between 0 and 1) goes to the nearer one.
 */
export function quantileBins(values: ArrayLike<number>, k: number): Bins {
  checkBinCount(k);
  const s = finiteSorted(values);
  check(s.length > 0, 'E_INPUT', () => 'bins: no finite value to bin');
  const distinct: number[] = [];
  for (const v of s) {
    if (distinct.length === 0 || v > distinct[distinct.length - 1]) distinct.push(v);
    if (distinct.length > k) break;
  }
  if (distinct.length <= k) {
    const edges =
      distinct.length === 1
        ? [distinct[0], distinct[0]]
        : [distinct[0], ...distinct.slice(1).map((v, i) => (distinct[i] + v) / 2), distinct[distinct.length - 1]];
    // labels are group names: two values that round alike (0.12341, 0.12342) keep their full form
    const short = distinct.map(formatEdge);
    const labels = new Set(short).size === short.length ? short : distinct.map(String);
    return { method: 'quantile', edges, labels };
  }
  const edges: number[] = [];
  for (let i = 0; i <= k; i++) {
    const e = i === 0 ? s[0] : i === k ? s[s.length - 1] : quantileSorted(s, i / k);
    if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
  }
  return { method: 'quantile', edges, labels: binLabels(edges) };
}

/** Explicit edges: at least two, finite and strictly increasing. */
export function explicitBins(edges: readonly number[], what = 'edges'): Bins {
  check(edges.length >= 2, 'E_ARG', () => `${what}: give at least two edges, got ${edges.length}`);
  for (let i = 0; i < edges.length; i++) {
    check(Number.isFinite(edges[i]), 'E_ARG', () => `${what}: edge ${i + 1} is ${edges[i]}, not a finite number`);
    check(
      i === 0 || edges[i] > edges[i - 1],
      'E_ARG',
      () => `${what}: the edges must increase strictly (${edges.join(', ')})`,
    );
  }
  return { method: 'explicit', edges: edges.slice(), labels: binLabels(edges) };
}

/**
 * The bin of x: i with edges[i] < x ≤ edges[i+1] (x = edges[0] is in bin 0). Values outside the
 * edges give −1, or the nearest end bin with `clamp` (generated values a little past the data's range).
 */
export function assignBin(x: number, edges: readonly number[], clamp = false): number {
  const k = edges.length - 1;
  if (!Number.isFinite(x)) return -1;
  if (x < edges[0] || x > edges[k]) return clamp ? (x < edges[0] ? 0 : k - 1) : -1;
  // smallest i with x ≤ edges[i + 1]
  let lo = 0;
  let hi = k - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x <= edges[mid + 1]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Bin codes of every value (−1 outside the edges unless `clamp`) and rows per bin. */
export function binValues(
  values: ArrayLike<number>,
  edges: readonly number[],
  clamp = false,
): { codes: Int32Array; counts: number[]; outside: number } {
  const codes = new Int32Array(values.length);
  const counts = new Array<number>(edges.length - 1).fill(0);
  let outside = 0;
  for (let i = 0; i < values.length; i++) {
    const b = assignBin(values[i], edges, clamp);
    codes[i] = b;
    if (b >= 0) counts[b]++;
    else outside++;
  }
  return { codes, counts, outside };
}
