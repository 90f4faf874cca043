// Fidelity beyond marginals: the figures the tabular-generation
// literature reports besides per-column shapes, each beside a noise floor measured on real rows alone.
// Core code: no Node imports. Every random draw comes from the Rng it is given.
//
// - pairTrendsWithFloor: SDMetrics' Column Pair Trends, the mean over column pairs of 1 − |ρ_real −
//   ρ_gen| / 2 (numeric pairs, Pearson) or 1 − TV of the pair's contingency table (other pairs, numeric
//   columns in equal-width bins of the real rows). Shapes alone say little (a generator sampling every
//   column independently scores ~99.6% on Adult); pair trends see relations between two columns. Its
//   floor: the same score between two bootstrap resamples of the real rows, one the size of the
//   generated rows and one the size of the real rows, i.e. what a generator drawing from the real
//   distribution itself would score. A similarity is bad when LOW, so the floor is the LOW quantile
//   (1 − quantile) of the replicates: a score below it is worse than sampling noise explains.
// - detectionScore: SDMetrics' Detection, 1 − (2·AUC − 1) clipped to [0, 1], the AUC of a logistic
//   regression telling real rows from generated ones, on rows it did not train on (1 = the classifier
//   cannot tell them apart). It sees every column at once, but only main effects: each numeric column
//   as z, z² (a shifted mean, a changed spread) and a missing indicator, each categorical column as its
//   one-hot categories. It cannot see a relation between two columns whose marginals are right (x = y
//   in the real rows, x and y independent in the generated ones): that is what pair trends are for.
//   Its floor: the same score between two disjoint halves of the real rows, the lowest of a few
//   replicates (each refits the classifier, so replicates are few; the minimum of 5 sits near the 17th
//   percentile of the real-vs-real distribution, a conservative low end).
// - privacyDcr: distance to the closest record. Each generated row's Gower-like distance to its closest
//   training row, against the same for real rows held out of training: a generator that memorised its
//   training rows puts its rows much closer to them (ratioP5 ≪ 1, exactShare > 0) than fresh real rows
//   are. Distance: mean over features of |a − b| / range_train (clipped to 1; 0 when the range is 0)
//   for numeric columns and a 0/1 mismatch for categorical ones; missing vs a value 1, both missing 0.
import { check } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import { selectRows, type CategoricalColumn, type Column, type NumericColumn, type Table } from '../../data/table.js';
import { quantileSorted } from '../../data/quantile.js';
import {
  binEdges,
  binValues,
  contingencySimilarity,
  correlationSimilarity,
  encodeColumn,
  labelSpace,
  type EncodedColumn,
} from './metrics.js';
import { pairTrend } from './pairs.js';

export interface BeyondFeature {
  name: string;
  kind: 'numeric' | 'categorical';
}

export const BEYOND_DEFAULTS = {
  /** bootstrap replicates of the pair-trend floor */
  pairReplicates: 50,
  /** the floor is the (1 − quantile) quantile of the replicates (a similarity: its low end) */
  pairQuantile: 0.95,
  /** equal-width bins of a numeric column in a mixed pair (SDMetrics' num_discrete_bins) */
  bins: 10,
  /** most pairs scored; above it a subset drawn with the rng */
  maxPairs: 200,
  /** detection: folds of the cross-fitting */
  folds: 2,
  /** detection: rows per class (the larger class is subsampled to the smaller anyway) */
  detectionMaxRows: 2000,
  /** detection: Newton iterations of the logistic regression (it stops earlier once converged) */
  epochs: 20,
  /** detection: real-vs-real replicates of the floor */
  detectionReplicates: 5,
  /** detection: L2 ridge on the weights (not the intercept), on the mean log-loss */
  ridge: 1e-3,
  /** detection: one-hot columns kept per categorical feature (the most frequent in training) before "other" */
  maxCategories: 50,
  /** DCR: generated and held-out rows compared (subsampled above it) */
  dcrMaxRows: 2000,
  /**
   * DCR: training rows searched (subsampled above it; 2000 generated + 2000 held-out rows against 16000 × 14 take about
   * 1 s)
   */
  dcrMaxTrain: 50000,
};

/** The column `f` of `t`, checked to exist with the feature's kind; `what` names the table in the error. */
function featureColumn(t: Table, f: BeyondFeature, what: string, where: string): Column {
  const c = t.columns.find((x) => x.name === f.name);
  check(
    c !== undefined,
    'E_ARG',
    () =>
      `${where}: the ${what} table has no column "${f.name}" (its columns: ` +
      `${t.columns.map((x) => x.name).join(', ') || 'none'})`,
  );
  check(
    c.kind === f.kind,
    'E_ARG',
    () => `${where}: column "${f.name}" of the ${what} table is ${c.kind}, the feature list says ${f.kind}`,
  );
  return c;
}

function checkFeatures(features: readonly BeyondFeature[], where: string): void {
  check(Array.isArray(features) && features.length > 0, 'E_ARG', () => `${where}: no features given`);
  const seen = new Set<string>();
  for (const f of features) {
    check(
      f.kind === 'numeric' || f.kind === 'categorical',
      'E_ARG',
      () => `${where}: feature "${f.name}" has kind ${String(f.kind)}, expected numeric or categorical`,
    );
    check(!seen.has(f.name), 'E_ARG', () => `${where}: feature "${f.name}" is listed twice`);
    seen.add(f.name);
  }
}

/** Categorical columns of several tables as codes in one label space (−1 stays missing). */
function sharedCodes(cols: readonly CategoricalColumn[]): { codes: Int32Array[]; labels: string[] } {
  const { labels, level } = labelSpace();
  const codes = cols.map((c) => {
    const lut = c.categories.map(level);
    return Int32Array.from(c.codes, (k) => (k < 0 ? -1 : lut[k]));
  });
  return { codes, labels };
}

/** `n` bootstrap indices into 0 … N−1 from n uniforms. */
function bootstrapIndex(u: Float64Array, from: number, n: number, N: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(N - 1, Math.floor(u[from + i] * N));
  return out;
}

/** `k` of 0 … N−1 without replacement, ascending: drawn with `rng`, else evenly spaced. */
function subsample(N: number, k: number, rng?: Rng): Int32Array {
  if (k >= N) return Int32Array.from({ length: N }, (_, i) => i);
  if (rng) return rng.permutation(N).slice(0, k).sort();
  return Int32Array.from({ length: k }, (_, i) => Math.floor((i * N) / k));
}

// ------------------------------------------------------------------------------------------------
// Column Pair Trends with a noise floor

/**
 * 1 − TV of the 2-D contingency table of two encoded columns: the same figure as metrics.ts'
 * contingencySimilarity, counted in a dense La × Lb table when it is small (the floor's replicates
 * call it thousands of times), else by contingencySimilarity itself.
 */
function contingencyScore(a: EncodedColumn, b: EncodedColumn): number {
  const la = a.labels.length;
  const lb = b.labels.length;
  if (la * lb > 1 << 20) return contingencySimilarity(a, b);
  const n = a.real.length;
  const m = a.synthetic.length;
  if (n === 0 || m === 0) return NaN;
  const cells = new Float64Array(la * lb); // (La, Lb): P_real − P_gen
  for (let i = 0; i < n; i++) cells[a.real[i] * lb + b.real[i]] += 1 / n;
  for (let i = 0; i < m; i++) cells[a.synthetic[i] * lb + b.synthetic[i]] -= 1 / m;
  let tv = 0;
  for (let k = 0; k < cells.length; k++) tv += Math.abs(cells[k]);
  return 1 - tv / 2;
}

export interface PairTrendsOptions {
  /** bootstrap replicates of the floor (default 50) */
  replicates?: number;
  /** the floor is the (1 − quantile) quantile of the replicates (default 0.95: the 5th percentile) */
  quantile?: number;
  /** bins of a numeric column in a mixed pair (default 10) */
  bins?: number;
  /** most pairs scored (default 200); above it a subset drawn with the rng, the same for the floor */
  maxPairs?: number;
}

export interface PairTrendsWorst {
  a: string;
  b: string;
  similarity: number;
  /** numeric pairs: the Pearson correlations */
  realCorrelation?: number;
  generatedCorrelation?: number;
}

export interface PairTrendsResult {
  /**
   * mean over the scored pairs of the pair-trend similarity, in [0, 1] (1 = every pair's relation as in the real rows)
   */
  score: number;
  /** the (1 − quantile) quantile of the same score between two bootstrap resamples of the real rows */
  floor: number;
  floorMedian: number;
  /** pairs in the mean (a pair with an undefined correlation, e.g. a constant column, is left out) */
  pairs: number;
  /** pairs of features there are (before the maxPairs subset) */
  pairsTotal: number;
  /** up to 5 pairs with the lowest similarity, lowest first */
  worst: PairTrendsWorst[];
}

/** The encoded view of one column of a "real" and a "generated" row set (numeric values or shared codes). */
interface PairColumn {
  kind: 'numeric' | 'categorical';
  /** numeric: the values */
  realValues?: Float64Array;
  genValues?: Float64Array;
  /** levels for contingency tables (numeric: bins of the real values) */
  enc: EncodedColumn;
}

/**
 * One pair's similarity: CorrelationSimilarity for two numeric columns, else ContingencySimilarity (NaN when
 * undefined).
 */
function pairScore(x: PairColumn, y: PairColumn): { score: number; real?: number; generated?: number } {
  if (x.kind === 'numeric' && y.kind === 'numeric') {
    const c = correlationSimilarity(
      { x: x.realValues!, y: y.realValues! },
      { x: x.genValues!, y: y.genValues! },
      'pearson',
    );
    return { score: c.score, real: c.real, generated: c.synthetic };
  }
  return { score: contingencyScore(x.enc, y.enc) };
}

/**
 * SDMetrics' Column Pair Trends of `generated` against `real` over every pair of `features` (at most
 * `maxPairs`, a subset drawn with `rng` above it), with its noise floor (see the file comment).
 */
export function pairTrendsWithFloor(
  real: Table,
  generated: Table,
  features: readonly BeyondFeature[],
  rng: Rng,
  opts: PairTrendsOptions = {},
): PairTrendsResult {
  const where = 'pairTrendsWithFloor';
  const R = opts.replicates ?? BEYOND_DEFAULTS.pairReplicates;
  const q = opts.quantile ?? BEYOND_DEFAULTS.pairQuantile;
  const bins = opts.bins ?? BEYOND_DEFAULTS.bins;
  const maxPairs = opts.maxPairs ?? BEYOND_DEFAULTS.maxPairs;
  checkFeatures(features, where);
  check(features.length >= 2, 'E_ARG', () => `${where}: pair trends need at least 2 features, got ${features.length}`);
  check(Number.isSafeInteger(R) && R >= 1, 'E_ARG', () => `${where}: replicates must be a positive integer, got ${R}`);
  check(q >= 0 && q <= 1, 'E_ARG', () => `${where}: quantile must be in [0, 1], got ${q}`);
  check(Number.isInteger(bins) && bins >= 1, 'E_ARG', () => `${where}: bins must be a positive integer, got ${bins}`);
  check(
    Number.isSafeInteger(maxPairs) && maxPairs >= 1,
    'E_ARG',
    () => `${where}: maxPairs must be a positive integer, got ${maxPairs}`,
  );
  check(
    real.rows > 0 && generated.rows > 0,
    'E_ARG',
    () => `${where}: the real table has ${real.rows} rows and the generated one ${generated.rows}; both need rows`,
  );
  const rc = features.map((f) => featureColumn(real, f, 'real', where));
  const gc = features.map((f) => featureColumn(generated, f, 'generated', where));

  // the pairs (i < j), a subset drawn with the rng when there are more than maxPairs
  const all: [number, number][] = [];
  for (let i = 0; i < features.length; i++) for (let j = i + 1; j < features.length; j++) all.push([i, j]);
  const pairs =
    all.length > maxPairs ? Array.from(rng.permutation(all.length).slice(0, maxPairs).sort(), (k) => all[k]) : all;

  // the score: pairTrend of report.ts (the quality report's figure), each column encoded once
  const enc = features.map((_, k) => encodeColumn(rc[k], gc[k], bins));
  const scored: PairTrendsWorst[] = [];
  for (const [i, j] of pairs) {
    const p = pairTrend([rc[i], rc[j]], [gc[i], gc[j]], { bins, correlation: 'pearson', encoded: [enc[i], enc[j]] });
    if (p.score === null) continue;
    const w: PairTrendsWorst = { a: features[i].name, b: features[j].name, similarity: p.score };
    if (p.metric === 'CorrelationSimilarity') {
      w.realCorrelation = p.realCorrelation ?? NaN;
      w.generatedCorrelation = p.syntheticCorrelation ?? NaN;
    }
    scored.push(w);
  }
  const score = scored.length ? scored.reduce((s, w) => s + w.similarity, 0) / scored.length : NaN;
  const worst = scored
    .slice()
    .sort((x, y) => x.similarity - y.similarity)
    .slice(0, 5);

  // the floor: resample B (real.rows rows, the "real" side) and A (generated.rows rows) of the real rows,
  // whole rows so the pairs keep their relation; categorical labels as real-table codes (−1: own level)
  const N = real.rows;
  const m = generated.rows;
  const base = features.map((_, k) => {
    const c = rc[k];
    if (c.kind === 'numeric')
      return { values: c.values, codes: null as Int32Array | null, levels: 0, labels: [] as string[] };
    const L = c.categories.length;
    return {
      values: null as Float64Array | null,
      codes: Int32Array.from(c.codes, (x) => (x < 0 ? L : x)),
      levels: L + 1,
      labels: [...c.categories, '(missing)'],
    };
  });
  const reps = new Float64Array(R);
  for (let t = 0; t < R; t++) {
    const u = rng.uniformHost(N + m);
    const ib = bootstrapIndex(u, 0, N, N); // (N,) rows of the "real" resample
    const ia = bootstrapIndex(u, N, m, N); // (m,) rows of the "generated" resample
    const cols: PairColumn[] = base.map((b) => {
      if (b.values) {
        const rv = Float64Array.from(ib, (i) => b.values![i]);
        const gv = Float64Array.from(ia, (i) => b.values![i]);
        const edges = binEdges(rv, bins);
        const labels = new Array<string>(edges.length + 2).fill('');
        return {
          kind: 'numeric',
          realValues: rv,
          genValues: gv,
          enc: { real: binValues(rv, edges), synthetic: binValues(gv, edges), labels },
        };
      }
      const codes = b.codes!;
      return {
        kind: 'categorical',
        enc: {
          real: Int32Array.from(ib, (i) => codes[i]),
          synthetic: Int32Array.from(ia, (i) => codes[i]),
          labels: b.labels,
        },
      };
    });
    let s = 0;
    let k = 0;
    for (const [i, j] of pairs) {
      const v = pairScore(cols[i], cols[j]).score;
      if (Number.isFinite(v)) {
        s += v;
        k++;
      }
    }
    reps[t] = k ? s / k : NaN;
  }
  const sorted = reps.filter(Number.isFinite).sort();
  return {
    score,
    floor: quantileSorted(sorted, 1 - q),
    floorMedian: quantileSorted(sorted, 0.5),
    pairs: scored.length,
    pairsTotal: all.length,
    worst,
  };
}

// ------------------------------------------------------------------------------------------------
// Detection: a logistic regression telling real rows from generated ones

/**
 * The ROC AUC of `scores` for `labels` (1 positive, 0 negative) by ranks: (Σ ranks of the positives −
 * n₁(n₁+1)/2) / (n₁·n₀), ties given their mean rank (so a tie counts ½). NaN when a class is empty.
 */
export function aucByRanks(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const n = scores.length;
  check(labels.length === n, 'E_ARG', () => `aucByRanks: ${n} scores but ${labels.length} labels`);
  let n1 = 0;
  for (let i = 0; i < n; i++) {
    check(labels[i] === 0 || labels[i] === 1, 'E_ARG', () => `aucByRanks: label ${i} is ${labels[i]}, expected 0 or 1`);
    check(!Number.isNaN(scores[i]), 'E_ARG', () => `aucByRanks: score ${i} is NaN`);
    n1 += labels[i];
  }
  const n0 = n - n1;
  if (n1 === 0 || n0 === 0) return NaN;
  const idx = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let sumPos = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && scores[idx[j + 1]] === scores[idx[i]]) j++;
    const mid = (i + j) / 2 + 1; // mean 1-based rank of the tie block
    for (let k = i; k <= j; k++) if (labels[idx[k]] === 1) sumPos += mid;
    i = j + 1;
  }
  return (sumPos - (n1 * (n1 + 1)) / 2) / (n1 * n0);
}

/** A feature's raw data over the pooled rows of one detection problem. */
type RawFeature =
  | { kind: 'numeric'; values: Float64Array }
  | { kind: 'categorical'; codes: Int32Array; levels: number };

/**
 * The design of one fold, fitted on its training rows: per row a fixed number of slots (the intercept,
 * 3 per numeric feature: z, z², missing; 1 per categorical feature: its one-hot column), each an
 * (index, value) pair, so X·w and XᵀWX cost O(slots) and O(slots²) per row instead of O(D) and O(D²).
 */
interface Design {
  /** columns of the dense design D (intercept first) */
  D: number;
  /** slots per row S */
  S: number;
  /** (rows, S) column indices and values, row-major */
  idx: Int32Array;
  val: Float64Array;
}

/** Fits the encoding on `train` (row indices into the pooled rows) and encodes `rows` with it. */
function fitDesign(raw: readonly RawFeature[], train: Int32Array, maxCategories: number): (rows: Int32Array) => Design {
  let D = 1;
  let S = 1;
  type Enc =
    | { kind: 'numeric'; at: number; mean: number; sd: number }
    | { kind: 'categorical'; col: Int32Array /* level → column, −1 none */ };
  const encs: Enc[] = raw.map((f) => {
    if (f.kind === 'numeric') {
      let s = 0;
      let k = 0;
      for (const i of train) {
        const v = f.values[i];
        if (!Number.isNaN(v)) {
          s += v;
          k++;
        }
      }
      const mean = k ? s / k : 0;
      let ss = 0;
      for (const i of train) {
        const v = f.values[i];
        if (!Number.isNaN(v)) ss += (v - mean) * (v - mean);
      }
      const sd = k ? Math.sqrt(ss / k) : 0;
      const e: Enc = { kind: 'numeric', at: D, mean, sd: sd > 0 ? sd : 1 };
      D += 3;
      S += 3;
      return e;
    }
    // the most frequent levels seen in training get a column (ties: the lower level), the other seen ones share "other"
    const counts = new Float64Array(f.levels);
    for (const i of train) counts[f.codes[i]]++;
    const seen = Array.from({ length: f.levels }, (_, l) => l).filter((l) => counts[l] > 0);
    seen.sort((a, b) => counts[b] - counts[a] || a - b);
    const col = new Int32Array(f.levels).fill(-1);
    seen.slice(0, maxCategories).forEach((l, k) => (col[l] = D + k));
    D += Math.min(seen.length, maxCategories);
    if (seen.length > maxCategories) {
      for (const l of seen.slice(maxCategories)) col[l] = D;
      D++;
    }
    S++;
    return { kind: 'categorical', col };
  });
  return (rows) => {
    const n = rows.length;
    const idx = new Int32Array(n * S);
    const val = new Float64Array(n * S);
    for (let r = 0; r < n; r++) {
      const i = rows[r];
      let s = r * S;
      idx[s] = 0;
      val[s++] = 1;
      for (let f = 0; f < raw.length; f++) {
        const e = encs[f];
        const x = raw[f];
        if (e.kind === 'numeric') {
          const v = (x as { values: Float64Array }).values[i];
          const miss = Number.isNaN(v);
          const z = miss ? 0 : (v - e.mean) / e.sd;
          idx[s] = e.at;
          val[s++] = z;
          idx[s] = e.at + 1;
          val[s++] = z * z;
          idx[s] = e.at + 2;
          val[s++] = miss ? 1 : 0;
        } else {
          const c = e.col[(x as { codes: Int32Array }).codes[i]];
          // a level unseen in training: all zeros (slot value 0 on the intercept column)
          idx[s] = c < 0 ? 0 : c;
          val[s++] = c < 0 ? 0 : 1;
        }
      }
    }
    return { D, S, idx, val };
  };
}

/** Linear predictor of every row of `X`: η = X·w, (n,). */
function linear(X: Design, w: Float64Array): Float64Array {
  const n = X.idx.length / X.S;
  const eta = new Float64Array(n);
  for (let r = 0, s = 0; r < n; r++) {
    let e = 0;
    for (let k = 0; k < X.S; k++, s++) e += X.val[s] * w[X.idx[s]];
    eta[r] = e;
  }
  return eta;
}

/** Mean log-loss of labels y under η, plus (λ/2)‖w₁:‖² (the intercept unpenalised). */
function objective(eta: Float64Array, y: Uint8Array, w: Float64Array, lambda: number): number {
  let s = 0;
  for (let i = 0; i < eta.length; i++) {
    const z = y[i] ? -eta[i] : eta[i]; // loss log(1 + e^z)
    s += z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
  }
  let r = 0;
  for (let j = 1; j < w.length; j++) r += w[j] * w[j];
  return s / eta.length + (lambda / 2) * r;
}

/** Solves A x = b for a symmetric positive definite A (D, D) by Cholesky, in place of copies; null if not PD. */
function choleskySolve(A: Float64Array, b: Float64Array, D: number): Float64Array | null {
  const L = new Float64Array(D * D);
  for (let i = 0; i < D; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * D + j];
      for (let k = 0; k < j; k++) s -= L[i * D + k] * L[j * D + k];
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * D + i] = Math.sqrt(s);
      } else L[i * D + j] = s / L[j * D + j];
    }
  }
  const x = Float64Array.from(b);
  for (let i = 0; i < D; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= L[i * D + k] * x[k];
    x[i] = s / L[i * D + i];
  }
  for (let i = D - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < D; k++) s -= L[k * D + i] * x[k];
    x[i] = s / L[i * D + i];
  }
  return x;
}

/**
 * L2-penalised logistic regression by Newton's method with a backtracking line search, from w = 0, at
 * most `iterations` steps (stops once the Newton decrement is below 1e-10): deterministic. Returns w, (D,).
 */
function fitLogistic(X: Design, y: Uint8Array, lambda: number, iterations: number): Float64Array {
  const { D, S, idx, val } = X;
  const n = y.length;
  let w = new Float64Array(D);
  let eta = linear(X, w);
  let f = objective(eta, y, w, lambda);
  const H = new Float64Array(D * D); // (D, D), upper triangle accumulated then mirrored
  const g = new Float64Array(D); // (D,)
  for (let it = 0; it < iterations; it++) {
    H.fill(0);
    g.fill(0);
    for (let r = 0, s0 = 0; r < n; r++, s0 += S) {
      const p = 1 / (1 + Math.exp(-eta[r]));
      const res = p - y[r];
      const h = p * (1 - p);
      for (let a = 0; a < S; a++) {
        const va = val[s0 + a];
        if (va === 0) continue;
        const ia = idx[s0 + a];
        g[ia] += res * va;
        const hv = h * va;
        for (let b = a; b < S; b++) {
          const vb = val[s0 + b];
          if (vb === 0) continue;
          const ib = idx[s0 + b];
          if (ia <= ib) H[ia * D + ib] += hv * vb;
          else H[ib * D + ia] += hv * vb;
        }
      }
    }
    for (let j = 0; j < D; j++) {
      g[j] = g[j] / n + (j > 0 ? lambda * w[j] : 0);
      for (let k = j; k < D; k++) {
        const v = H[j * D + k] / n + (j === k ? (j > 0 ? lambda : 0) + 1e-10 : 0);
        H[j * D + k] = v;
        H[k * D + j] = v;
      }
    }
    let step = choleskySolve(H, g, D);
    if (!step) {
      for (let j = 0; j < D; j++) H[j * D + j] += 1e-6;
      step = choleskySolve(H, g, D);
      if (!step) break;
    }
    let dec = 0; // Newton decrement gᵀH⁻¹g
    for (let j = 0; j < D; j++) dec += g[j] * step[j];
    if (!(dec > 1e-10)) break;
    let t = 1;
    let accepted = false;
    for (let half = 0; half < 30; half++, t /= 2) {
      const w2 = new Float64Array(D);
      for (let j = 0; j < D; j++) w2[j] = w[j] - t * step[j];
      const eta2 = linear(X, w2);
      const f2 = objective(eta2, y, w2, lambda);
      if (f2 <= f - 1e-4 * t * dec) {
        w = w2;
        eta = eta2;
        f = f2;
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
  }
  return w;
}

export interface DetectionOptions {
  /** folds of the cross-fitting (default 2): every row is scored by a model that did not train on it */
  folds?: number;
  /** rows per class (default 2000; subsampled with the rng, the larger class to the smaller's size) */
  maxRows?: number;
  /** Newton iterations at most (default 20) */
  epochs?: number;
  /** real-vs-real replicates of the floor (default 5) */
  replicates?: number;
}

export interface DetectionResult {
  /** AUC of the pooled held-out scores (generated rows the positives) */
  auc: number;
  /** 1 − (2·AUC − 1) clipped to [0, 1]: 1 = indistinguishable, 0 = perfectly told apart */
  score: number;
  /** the lowest score of `replicates` real-vs-real problems (two disjoint halves of the real rows) */
  floor: number;
  floorMedian: number;
  /** rows per class in the floor's problems (min(rows per class, ⌊real rows / 2⌋)) */
  floorRows: number;
  /** rows of each class used */
  rowsReal: number;
  rowsGenerated: number;
  /** rows scored by a model that did not train on them (all of them: 2 × rows per class) */
  heldOut: number;
}

/**
 * AUC of k-fold cross-fitted logistic regression on `raw` (pooled rows, labels y): each fold's model and
 * encoding fitted on the other folds, its held-out rows scored, the scores pooled. Folds are
 * stratified: `fold[i]` given.
 */
function crossFittedAuc(
  raw: readonly RawFeature[],
  y: Uint8Array,
  fold: Int32Array,
  k: number,
  lambda: number,
  iterations: number,
): number {
  const n = y.length;
  const eta = new Float64Array(n); // (n,) held-out linear predictors
  for (let f = 0; f < k; f++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < n; i++) (fold[i] === f ? test : train).push(i);
    const tr = Int32Array.from(train);
    const te = Int32Array.from(test);
    const encode = fitDesign(raw, tr, BEYOND_DEFAULTS.maxCategories);
    const w = fitLogistic(
      encode(tr),
      Uint8Array.from(tr, (i) => y[i]),
      lambda,
      iterations,
    );
    const e = linear(encode(te), w);
    te.forEach((i, r) => (eta[i] = e[r]));
  }
  return aucByRanks(eta, y);
}

/** The detection problem of rows `ia` of table A (label 0) and `ib` of table B (label 1), folds stratified. */
function detectionProblem(
  features: readonly BeyondFeature[],
  colsA: readonly Column[],
  colsB: readonly Column[],
  ia: Int32Array,
  ib: Int32Array,
  k: number,
): { raw: RawFeature[]; y: Uint8Array; fold: Int32Array } {
  const na = ia.length;
  const nb = ib.length;
  const raw = features.map((f, j): RawFeature => {
    const a = colsA[j];
    const b = colsB[j];
    if (f.kind === 'numeric') {
      const values = new Float64Array(na + nb);
      for (let i = 0; i < na; i++) values[i] = (a as NumericColumn).values[ia[i]];
      for (let i = 0; i < nb; i++) values[na + i] = (b as NumericColumn).values[ib[i]];
      return { kind: 'numeric', values };
    }
    const sh = sharedCodes([a as CategoricalColumn, b as CategoricalColumn]);
    const miss = sh.labels.length; // a missing cell: its own level
    const codes = new Int32Array(na + nb);
    for (let i = 0; i < na; i++) codes[i] = sh.codes[0][ia[i]] < 0 ? miss : sh.codes[0][ia[i]];
    for (let i = 0; i < nb; i++) codes[na + i] = sh.codes[1][ib[i]] < 0 ? miss : sh.codes[1][ib[i]];
    return { kind: 'categorical', codes, levels: miss + 1 };
  });
  const y = new Uint8Array(na + nb);
  y.fill(1, na);
  // ia and ib come in random order: the i-th row of each class goes to fold i mod k (stratified)
  const fold = new Int32Array(na + nb);
  for (let i = 0; i < na; i++) fold[i] = i % k;
  for (let i = 0; i < nb; i++) fold[na + i] = i % k;
  return { raw, y, fold };
}

const detectionFigure = (auc: number) => Math.max(0, Math.min(1, 1 - (2 * auc - 1)));

/**
 * SDMetrics' Detection of `generated` against `real` with a logistic regression (see the file comment),
 * with its real-vs-real floor. Deterministic for a given rng state.
 */
export function detectionScore(
  real: Table,
  generated: Table,
  features: readonly BeyondFeature[],
  rng: Rng,
  opts: DetectionOptions = {},
): DetectionResult {
  const where = 'detectionScore';
  const k = opts.folds ?? BEYOND_DEFAULTS.folds;
  const maxRows = opts.maxRows ?? BEYOND_DEFAULTS.detectionMaxRows;
  const iterations = opts.epochs ?? BEYOND_DEFAULTS.epochs;
  const R = opts.replicates ?? BEYOND_DEFAULTS.detectionReplicates;
  checkFeatures(features, where);
  check(Number.isSafeInteger(k) && k >= 2, 'E_ARG', () => `${where}: folds must be an integer ≥ 2, got ${k}`);
  check(
    Number.isSafeInteger(maxRows) && maxRows >= 1,
    'E_ARG',
    () => `${where}: maxRows must be a positive integer, got ${maxRows}`,
  );
  check(
    Number.isSafeInteger(iterations) && iterations >= 1,
    'E_ARG',
    () => `${where}: epochs must be a positive integer, got ${iterations}`,
  );
  check(
    Number.isSafeInteger(R) && R >= 0,
    'E_ARG',
    () => `${where}: replicates must be a non-negative integer, got ${R}`,
  );
  const rc = features.map((f) => featureColumn(real, f, 'real', where));
  const gc = features.map((f) => featureColumn(generated, f, 'generated', where));
  const n = Math.min(maxRows, real.rows, generated.rows);
  check(
    n >= k,
    'E_ARG',
    () =>
      `${where}: ${k} folds need at least ${k} rows per class; the real table has ${real.rows} rows and the ` +
      `generated one ${generated.rows}`,
  );
  const lambda = BEYOND_DEFAULTS.ridge;

  // the real-vs-generated problem: n rows of each, in random order (so fold i mod k is a random split)
  const ir = rng.permutation(real.rows).slice(0, n);
  const ig = rng.permutation(generated.rows).slice(0, n);
  const main = detectionProblem(features, rc, gc, ir, ig, k);
  const auc = crossFittedAuc(main.raw, main.y, main.fold, k, lambda, iterations);

  // the floor: two disjoint halves of the real rows, each of min(n, ⌊rows/2⌋) rows
  const h = Math.min(n, Math.floor(real.rows / 2));
  const reps: number[] = [];
  if (h >= k) {
    for (let t = 0; t < R; t++) {
      const p = rng.permutation(real.rows);
      const pr = detectionProblem(features, rc, rc, p.slice(0, h), p.slice(h, 2 * h), k);
      reps.push(detectionFigure(crossFittedAuc(pr.raw, pr.y, pr.fold, k, lambda, iterations)));
    }
  }
  const sorted = Float64Array.from(reps).sort();
  return {
    auc,
    score: detectionFigure(auc),
    floor: sorted.length ? sorted[0] : NaN,
    floorMedian: quantileSorted(sorted, 0.5),
    floorRows: h >= k ? h : 0,
    rowsReal: n,
    rowsGenerated: n,
    heldOut: 2 * n,
  };
}

// ------------------------------------------------------------------------------------------------
// Privacy: distance to the closest training record

export interface DcrOptions {
  /** generated rows and held-out rows compared, each (default 2000; subsampled with the rng, else evenly spaced) */
  maxRows?: number;
  /** training rows searched (default 50000; subsampled above it, reported in `rows`) */
  maxTrain?: number;
}

export interface DcrSummary {
  /** 5th percentile and median of the rows' distances to their closest training row, in [0, 1] */
  p5: number;
  median: number;
  /** share of rows at distance 0 (a copy of a training row on every feature) */
  exactShare: number;
}

export interface DcrResult {
  generated: DcrSummary;
  heldOut: DcrSummary;
  /**
   * generated p5 / held-out p5 (1 when both are 0, Infinity when only the held-out one is): ≪ 1 means memorised rows
   */
  ratioP5: number;
  /** rows compared (after subsampling) */
  rows: { train: number; heldOut: number; generated: number };
  /** training rows there were; trainSubsampled when fewer were searched */
  trainTotal: number;
  trainSubsampled: boolean;
}

/**
 * Each generated row's and each held-out row's Gower-like distance to its closest `train` row (see the
 * file comment), summarised. Brute force with an early exit once a row's running sum reaches the best
 * so far (categorical features first: a mismatch adds a whole 1).
 */
export function privacyDcr(
  train: Table,
  heldOut: Table,
  generated: Table,
  features: readonly BeyondFeature[],
  rng?: Rng,
  opts: DcrOptions = {},
): DcrResult {
  const where = 'privacyDcr';
  const maxRows = opts.maxRows ?? BEYOND_DEFAULTS.dcrMaxRows;
  const maxTrain = opts.maxTrain ?? BEYOND_DEFAULTS.dcrMaxTrain;
  checkFeatures(features, where);
  check(
    Number.isSafeInteger(maxRows) && maxRows >= 1,
    'E_ARG',
    () => `${where}: maxRows must be a positive integer, got ${maxRows}`,
  );
  check(
    Number.isSafeInteger(maxTrain) && maxTrain >= 1,
    'E_ARG',
    () => `${where}: maxTrain must be a positive integer, got ${maxTrain}`,
  );
  check(train.rows > 0, 'E_ARG', () => `${where}: the train table has no rows`);
  const tc = features.map((f) => featureColumn(train, f, 'train', where));
  const hc = features.map((f) => featureColumn(heldOut, f, 'held-out', where));
  const gc = features.map((f) => featureColumn(generated, f, 'generated', where));

  const it = subsample(train.rows, maxTrain, rng);
  const ih = subsample(heldOut.rows, maxRows, rng);
  const ig = subsample(generated.rows, maxRows, rng);
  const num = features.map((_, j) => j).filter((j) => features[j].kind === 'numeric');
  const cat = features.map((_, j) => j).filter((j) => features[j].kind === 'categorical');
  const dn = num.length;
  const dc = cat.length;

  // numeric: values / range of the training column (NaN kept); categorical: codes in one label space (−1 missing)
  const scale = num.map((j) => {
    const v = (tc[j] as NumericColumn).values;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < v.length; i++) {
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
    }
    return hi > lo ? 1 / (hi - lo) : 0;
  });
  const shared = cat.map((j) => sharedCodes([tc[j], hc[j], gc[j]] as CategoricalColumn[]).codes);
  const pack = (which: 0 | 1 | 2, cols: readonly Column[], rows: Int32Array) => {
    const n = rows.length;
    const xn = new Float64Array(n * dn); // (n, dn) scaled numeric values
    const xc = new Int32Array(n * dc); // (n, dc) shared codes
    for (let r = 0; r < n; r++) {
      const i = rows[r];
      for (let a = 0; a < dn; a++) {
        const v = (cols[num[a]] as NumericColumn).values[i];
        xn[r * dn + a] = scale[a] === 0 && !Number.isNaN(v) ? 0 : v * scale[a];
      }
      for (let a = 0; a < dc; a++) xc[r * dc + a] = shared[a][which][i];
    }
    return { n, xn, xc };
  };
  const T = pack(0, tc, it);
  const H = pack(1, hc, ih);
  const G = pack(2, gc, ig);
  const d = features.length;

  /** (q.n,) each query row's distance (mean over features) to its closest training row */
  const closest = (Q: { n: number; xn: Float64Array; xc: Int32Array }): Float64Array => {
    const out = new Float64Array(Q.n);
    for (let r = 0; r < Q.n; r++) {
      const qc = r * dc;
      const qn = r * dn;
      let best = Infinity;
      for (let t = 0; t < T.n && best > 0; t++) {
        let s = 0;
        const tcBase = t * dc;
        for (let a = 0; a < dc && s < best; a++) if (Q.xc[qc + a] !== T.xc[tcBase + a]) s += 1;
        if (s >= best) continue;
        const tnBase = t * dn;
        for (let a = 0; a < dn; a++) {
          const x = Q.xn[qn + a];
          const y = T.xn[tnBase + a];
          let e: number;
          if (Number.isNaN(x) || Number.isNaN(y)) e = Number.isNaN(x) && Number.isNaN(y) ? 0 : 1;
          else {
            e = x > y ? x - y : y - x;
            if (e > 1) e = 1;
          }
          s += e;
          if (s >= best) break;
        }
        if (s < best) best = s;
      }
      out[r] = best / d;
    }
    return out;
  };
  const summary = (dist: Float64Array): DcrSummary => {
    const sorted = dist.slice().sort();
    let exact = 0;
    for (const v of sorted) if (v === 0) exact++;
    return {
      p5: quantileSorted(sorted, 0.05),
      median: quantileSorted(sorted, 0.5),
      exactShare: sorted.length ? exact / sorted.length : NaN,
    };
  };
  const g = summary(closest(G));
  const h = summary(closest(H));
  const ratioP5 = h.p5 === 0 ? (g.p5 === 0 ? 1 : Infinity) : g.p5 / h.p5;
  return {
    generated: g,
    heldOut: h,
    ratioP5,
    rows: { train: T.n, heldOut: H.n, generated: G.n },
    trainTotal: train.rows,
    trainSubsampled: T.n < train.rows,
  };
}

/**
 * How the privacy check reads (its rule fixed before it was measured; its noise added by
 * EXPERIMENTS.md §11.4): no sign of copied rows unless the generated rows hold more than `copyMargin`
 * more exact copies of a training row than the held-out rows do, by more than `z` standard errors of
 * the difference of the two shares (one-sided 95%: on discrete data most fresh rows are copies too, and
 * the two shares differ by chance), or their 5th-percentile distance is under `p5Ratio` times the
 * held-out rows'.
 */
export const PRIVACY_RULE = { copyMargin: 0.01, p5Ratio: 0.9, z: 1.645 };

/** The binomial standard error of generated − held-out exact-copy shares at the rows compared (0 without counts). */
export function copyShareSe(p: {
  generated: DcrSummary;
  heldOut: DcrSummary;
  rows?: { heldOut: number; generated: number };
}): number {
  if (!p.rows || p.rows.generated <= 0 || p.rows.heldOut <= 0) return 0;
  const g = p.generated.exactShare;
  const h = p.heldOut.exactShare;
  return Math.sqrt((g * (1 - g)) / p.rows.generated + (h * (1 - h)) / p.rows.heldOut);
}

/**
 * Whether a privacy result shows no sign of copied rows (PRIVACY_RULE); a ratio null or Infinity (held-out p5 0,
 * generated not) passes.
 */
export function privacyHolds(
  p: {
    generated: DcrSummary;
    heldOut: DcrSummary;
    ratioP5: number | null;
    rows?: { heldOut: number; generated: number };
  } | null,
): boolean {
  if (!p) return true;
  const ratio = p.ratioP5 === null ? Infinity : p.ratioP5;
  return (
    p.generated.exactShare <= p.heldOut.exactShare + PRIVACY_RULE.copyMargin + PRIVACY_RULE.z * copyShareSe(p) &&
    ratio >= PRIVACY_RULE.p5Ratio
  );
}

/**
 * privacyDcr as the audit and `lucid quality` state it: `halves` when the reference was half the training rows; ratioP5
 * null for Infinity (JSON).
 */
export interface PrivacyCheck extends Omit<DcrResult, 'ratioP5'> {
  ratioP5: number | null;
  halves: boolean;
}

/**
 * privacyDcr of `generated` against `heldOut`, or, when there are none (null), against one half of
 * `train` (a permutation drawn with `rng`) with the other half as the training rows.
 */
export function privacyCheck(
  train: Table,
  heldOut: Table | null,
  generated: Table,
  features: readonly BeyondFeature[],
  rng: Rng,
): PrivacyCheck {
  let t = train;
  let h = heldOut;
  if (h === null) {
    const perm = rng.permutation(train.rows);
    const half = Math.floor(train.rows / 2);
    t = selectRows(train, Array.from(perm.subarray(0, half)));
    h = selectRows(train, Array.from(perm.subarray(half)));
  }
  const dcr = privacyDcr(t, h, generated, features, rng);
  return { ...dcr, ratioP5: Number.isFinite(dcr.ratioP5) ? dcr.ratioP5 : null, halves: heldOut === null };
}
