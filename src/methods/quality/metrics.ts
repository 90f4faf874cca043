// Synthetic-data quality metrics, as SDMetrics defines them. Core code: no Node imports.
// Every score is in [0, 1], 1 the best. Real and synthetic columns are passed separately; categorical
// columns are compared by label (their codes are per-table), numeric NaN marks a missing value.
import { check } from '../../engine/errors.js';
import type { CategoricalColumn, Column, NumericColumn } from '../../data/table.js';

/** The label under which a missing categorical cell (code −1) or a missing number is counted. */
export const MISSING_LABEL = '(missing)';

/** Sorted copy of the non-NaN values. */
function sortedFinite(v: ArrayLike<number>): Float64Array {
  let k = 0;
  for (let i = 0; i < v.length; i++) if (!Number.isNaN(v[i])) k++;
  const out = new Float64Array(k);
  k = 0;
  for (let i = 0; i < v.length; i++) if (!Number.isNaN(v[i])) out[k++] = v[i];
  return out.sort();
}

/**
 * The two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs
 * (scipy.stats.ks_2samp's statistic). Missing values (NaN) are ignored; NaN when a side has no value.
 */
export function ksStatistic(real: ArrayLike<number>, synthetic: ArrayLike<number>): number {
  const a = sortedFinite(real);
  const b = sortedFinite(synthetic);
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return NaN;
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < n && j < m) {
    const x = a[i] <= b[j] ? a[i] : b[j];
    while (i < n && a[i] <= x) i++;
    while (j < m && b[j] <= x) j++;
    const gap = Math.abs(i / n - j / m);
    if (gap > d) d = gap;
  }
  return d;
}

/** SDMetrics KSComplement: 1 − the two-sample KS statistic. */
export function ksComplement(real: ArrayLike<number>, synthetic: ArrayLike<number>): number {
  return 1 - ksStatistic(real, synthetic);
}

/**
 * Category frequencies of the two columns over the union of their labels (real labels first, then synthetic-only ones).
 */
export function categoryFrequencies(
  real: CategoricalColumn,
  synthetic: CategoricalColumn,
): { labels: string[]; real: Float64Array; synthetic: Float64Array; syntheticOnly: string[] } {
  const enc = encodeCategorical(real, synthetic);
  const fr = new Float64Array(enc.labels.length);
  const fs = new Float64Array(enc.labels.length);
  for (const c of enc.real) fr[c]++;
  for (const c of enc.synthetic) fs[c]++;
  for (let k = 0; k < fr.length; k++) {
    fr[k] /= Math.max(1, enc.real.length);
    fs[k] /= Math.max(1, enc.synthetic.length);
  }
  const syntheticOnly = enc.labels.filter((_, k) => fr[k] === 0 && fs[k] > 0);
  return { labels: enc.labels, real: fr, synthetic: fs, syntheticOnly };
}

/** Total variation distance ½ Σ |p − q| of two frequency vectors of the same length. */
export function totalVariation(p: ArrayLike<number>, q: ArrayLike<number>): number {
  check(
    p.length === q.length,
    'E_ARG',
    () => `totalVariation: the frequency vectors have lengths ${p.length} and ${q.length}`,
  );
  let s = 0;
  for (let k = 0; k < p.length; k++) s += Math.abs(p[k] - q[k]);
  return s / 2;
}

/**
 * SDMetrics TVComplement: 1 − TVD of the category frequencies. Categories present only in the
 * synthetic data count (their real frequency is 0); a missing cell counts as its own category.
 */
export function tvComplement(real: CategoricalColumn, synthetic: CategoricalColumn): number {
  const f = categoryFrequencies(real, synthetic);
  return 1 - totalVariation(f.real, f.synthetic);
}

// ------------------------------------------------------------------------------------------------
// Correlation

/** Mid-ranks (ties get the mean of their ranks), 1-based. */
function ranks(v: Float64Array): Float64Array {
  const n = v.length;
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((x, y) => v[x] - v[y]);
  const r = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && v[idx[j + 1]] === v[idx[i]]) j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]] = mid;
    i = j + 1;
  }
  return r;
}

export type CorrelationMethod = 'pearson' | 'spearman';

/**
 * Pearson (or Spearman: Pearson of mid-ranks) correlation over the rows where both values are
 * present, as pandas' Series.corr. NaN when fewer than 2 such rows or when either is constant.
 */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>, method: CorrelationMethod = 'pearson'): number {
  check(x.length === y.length, 'E_ARG', () => `correlation: the columns have ${x.length} and ${y.length} rows`);
  let n = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i]) && !Number.isNaN(y[i])) n++;
  if (n < 2) return NaN;
  let a: Float64Array = new Float64Array(n);
  let b: Float64Array = new Float64Array(n);
  n = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) continue;
    a[n] = x[i];
    b[n++] = y[i];
  }
  if (method === 'spearman') {
    a = ranks(a);
    b = ranks(b);
  }
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return NaN;
  const r = sab / Math.sqrt(saa * sbb);
  return Math.max(-1, Math.min(1, r));
}

/** SDMetrics CorrelationSimilarity: 1 − |ρ_real − ρ_syn| / 2 (NaN when a correlation is undefined). */
export function correlationSimilarity(
  real: { x: ArrayLike<number>; y: ArrayLike<number> },
  synthetic: { x: ArrayLike<number>; y: ArrayLike<number> },
  method: CorrelationMethod = 'pearson',
): { score: number; real: number; synthetic: number } {
  const r = correlation(real.x, real.y, method);
  const s = correlation(synthetic.x, synthetic.y, method);
  return { score: 1 - Math.abs(r - s) / 2, real: r, synthetic: s };
}

// ------------------------------------------------------------------------------------------------
// Contingency

/** A column of both tables as integer levels in one shared space (for contingency tables). */
export interface EncodedColumn {
  real: Int32Array;
  synthetic: Int32Array;
  /** one label per level */
  labels: string[];
}

/** A label space that grows as labels are met: `level` gives a label's code, new labels the next one, in `labels`. */
export function labelSpace(): { labels: string[]; level: (label: string) => number } {
  const labels: string[] = [];
  const id = new Map<string, number>();
  const level = (label: string): number => {
    let k = id.get(label);
    if (k === undefined) {
      k = labels.length;
      id.set(label, k);
      labels.push(label);
    }
    return k;
  };
  return { labels, level };
}

/**
 * Categories by label: the real table's labels first (in its order), then labels only the synthetic table has; a
 * missing cell is its own level.
 */
export function encodeCategorical(real: CategoricalColumn, synthetic: CategoricalColumn): EncodedColumn {
  const { labels, level } = labelSpace();
  const map = (col: CategoricalColumn): Int32Array => {
    const byCode = col.categories.map(level);
    let missing = -1;
    const out = new Int32Array(col.codes.length);
    for (let i = 0; i < out.length; i++) {
      const c = col.codes[i];
      if (c >= 0) out[i] = byCode[c];
      else {
        if (missing < 0) missing = level(MISSING_LABEL);
        out[i] = missing;
      }
    }
    return out;
  };
  const r = map(real);
  const s = map(synthetic);
  return { real: r, synthetic: s, labels };
}

/**
 * The edges SDMetrics bins a numeric column with before a contingency table: numpy's
 * histogram_bin_edges of the real values (`bins` equal-width bins over [min, max]; ±0.5 around a
 * constant), with the outer edges opened to −∞ and +∞. Returns the `bins − 1` inner edges.
 */
export function binEdges(real: ArrayLike<number>, bins = 10): Float64Array {
  check(Number.isInteger(bins) && bins >= 1, 'E_ARG', () => `binEdges: bins must be a positive integer, got ${bins}`);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < real.length; i++) {
    const v = real[i];
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return new Float64Array(0);
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  const edges = new Float64Array(bins - 1);
  const step = (hi - lo) / bins;
  for (let k = 1; k < bins; k++) edges[k - 1] = lo + k * step;
  return edges;
}

/** Bin index of each value under right-closed bins (a, b] (pandas.cut); NaN gets its own level `edges.length + 1`. */
export function binValues(v: ArrayLike<number>, edges: Float64Array): Int32Array {
  const out = new Int32Array(v.length);
  const e = edges.length;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (Number.isNaN(x)) {
      out[i] = e + 1;
      continue;
    }
    // number of edges strictly below x
    let lo = 0;
    let hi = e;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (edges[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}

/** A numeric column of both tables in `bins` equal-width bins of the real data (SDMetrics' discretisation). */
export function encodeNumeric(real: NumericColumn, synthetic: NumericColumn, bins = 10): EncodedColumn {
  const edges = binEdges(real.values, bins);
  const fmt = (x: number) => String(Number(x.toPrecision(4)));
  const labels: string[] = [];
  for (let k = 0; k <= edges.length; k++)
    labels.push(`(${k === 0 ? '-inf' : fmt(edges[k - 1])}, ${k === edges.length ? 'inf' : fmt(edges[k])}]`);
  labels.push(MISSING_LABEL);
  return { real: binValues(real.values, edges), synthetic: binValues(synthetic.values, edges), labels };
}

/** Either kind of column as shared levels (numeric columns binned). */
export function encodeColumn(real: Column, synthetic: Column, bins = 10): EncodedColumn {
  check(
    real.kind === synthetic.kind,
    'E_INPUT',
    () => `column "${real.name}" is ${real.kind} in the real data but ${synthetic.kind} in the synthetic data`,
  );
  return real.kind === 'numeric'
    ? encodeNumeric(real, synthetic as NumericColumn, bins)
    : encodeCategorical(real, synthetic as CategoricalColumn);
}

function jointFrequencies(a: Int32Array, b: Int32Array, width: number): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const key = a[i] * width + b[i];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * SDMetrics ContingencySimilarity: 1 − ½ Σ_cells |P_real(a, b) − P_syn(a, b)| over the normalised
 * 2-D contingency tables of two encoded columns (cells seen in either table).
 */
export function contingencySimilarity(a: EncodedColumn, b: EncodedColumn): number {
  const width = b.labels.length;
  const n = a.real.length;
  const m = a.synthetic.length;
  if (n === 0 || m === 0) return NaN;
  const r = jointFrequencies(a.real, b.real, width);
  const s = jointFrequencies(a.synthetic, b.synthetic, width);
  let tv = 0;
  for (const [key, c] of r) tv += Math.abs(c / n - (s.get(key) ?? 0) / m);
  for (const [key, c] of s) if (!r.has(key)) tv += c / m;
  return 1 - tv / 2;
}
