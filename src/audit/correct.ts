// The classifier correction of a canonical set (EXPERIMENTS.md §11): a generator's rows
// differ from the real rows of their side in ways a classifier can see (a money column's spike at 0, a
// rare category drawn ten times too often). Importance resampling fixes much of that without making up
// rows: draw more candidates than wanted, weight each by a real-vs-generated classifier's odds
// w = p / (1 − p), which estimate the density ratio real / generated at that row, and keep the rows
// wanted drawn without replacement with probability ∝ w. This is the likelihood-free importance
// weighting of Grover et al. (NeurIPS 2019) and the discriminator-driven resampling of Azadi et al.
// (ICLR 2019), with the classifier trained outside the GAN. The set stays generated rows.
//
// Cross-fitting: the candidates are split in two folds, and each fold is weighted by a classifier
// trained on the other fold (a classifier never weights the rows it was trained on, which it would
// tell apart from real ones too well). Classes have equal counts (the larger subsampled), so the
// odds are the density ratio up to one constant, which the resampling ignores. Weights are capped at
// `cap` times their mean: a few rows the classifier is sure of cannot take over the set.
//
// The classifier is the built-in MLP (src/models/classifier) on the set's columns plus, for every
// numeric column, its decile bin of the real rows as a category: min-max scaling alone hides a spike
// at 0 and a long tail from a small network. Core code: no Node imports.
import type { Engine } from '../engine/engine.js';
import { check } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import { concatRows, selectRows, type CategoricalColumn, type Column, type Table } from '../data/table.js';
import { Classifier } from '../models/classifier/classifier.js';

/**
 * How a canonical set is corrected after its rejection draw: not at all, or by importance resampling
 * with the built-in MLP ('classifier') or with logistic regression on the same features ('linear': it
 * can reweight categories and decile bins, and their sums, but cannot single out rows; EXPERIMENTS.md
 * §11.6).
 */
export type Correction = 'none' | 'classifier' | 'linear';
export const CORRECTIONS: readonly Correction[] = ['none', 'classifier', 'linear'];
/** The classifier of each correction: hidden layer sizes (undefined: the MLP's default; []: logistic regression). */
export const CORRECTION_HIDDEN: Record<Exclude<Correction, 'none'>, number[] | undefined> = {
  classifier: undefined,
  linear: [],
};

export const CORRECTION_DEFAULTS = {
  /** candidates drawn (by rejection, as the set itself would be) per row wanted */
  factor: 4,
  /** real rows of the side the classifier sees, at most, per row wanted */
  realPerRow: 4,
  /** a weight is at most this many times the mean weight */
  cap: 20,
  /** quantile bins of each numeric column given to the classifier as a category */
  bins: 10,
  /** fewer real rows on the side than this: no correction (a classifier on fewer tells nothing) */
  minReal: 50,
};

/** What a correction did to one set. */
export interface CorrectionStats {
  /** candidates drawn and weighted */
  candidates: number;
  /**
   * the weights' effective sample size over the candidates, (Σw)² / Σw², as a share of the candidates (1: no
   * reweighting)
   */
  ess: number;
  /**
   * the candidates' mean classifier probability of "real" (0.5: the classifier cannot tell them apart); absent when
   * skipped
   */
  meanReal?: number;
  /** set when the set was not corrected, and why */
  skipped?: string;
}

/** The decile edges (distinct, interior) of a numeric column's values. */
function quantileEdges(v: Float64Array, bins: number): number[] {
  const s = Float64Array.from(v).sort();
  const edges: number[] = [];
  for (let b = 1; b < bins; b++) {
    const x = s[Math.min(s.length - 1, Math.floor((b * s.length) / bins))];
    if (edges.length === 0 || x > edges[edges.length - 1]) edges.push(x);
  }
  return edges;
}

/** `t` with one categorical column per numeric feature: its bin among `edges` (bin k: edges[k−1] ≤ x < edges[k]). */
function withBins(t: Table, edges: Map<string, number[]>, names: Map<string, string>): Table {
  const extra: Column[] = [];
  for (const c of t.columns) {
    const e = edges.get(c.name);
    if (c.kind !== 'numeric' || !e) continue;
    const codes = new Int32Array(t.rows);
    for (let i = 0; i < t.rows; i++) {
      let k = 0;
      while (k < e.length && c.values[i] >= e[k]) k++;
      codes[i] = k;
    }
    extra.push({
      kind: 'categorical',
      name: names.get(c.name)!,
      codes,
      categories: Array.from({ length: e.length + 1 }, (_, k) => String(k)),
    });
  }
  return { rows: t.rows, columns: [...t.columns, ...extra] };
}

/**
 * Importance weights w = p / (1 − p) of every candidate row (see the file comment), capped at `cap`
 * × their mean. real: (R, features) rows of the side; candidates: (M, features) generated rows of it;
 * features: the columns both hold that the classifier reads. Deterministic for the seed.
 */
export function classifierWeights(
  engine: Engine,
  real: Table,
  candidates: Table,
  features: readonly string[],
  seed: number,
  opts: { realMax?: number; cap?: number; bins?: number; hidden?: number[] } = {},
): { weights: Float64Array; meanReal: number } {
  check(features.length > 0, 'E_ARG', () => 'correct: no features to classify on');
  check(
    candidates.rows >= 4 && real.rows >= 2,
    'E_ARG',
    () => `correct: too few rows (${real.rows} real, ${candidates.rows} candidates)`,
  );
  const rng = new Rng(engine, seed);
  const cap = opts.cap ?? CORRECTION_DEFAULTS.cap;
  const label = '__lucid_real__';
  const used = new Set([...real.columns.map((c) => c.name), ...candidates.columns.map((c) => c.name), label]);
  // one bin column per numeric feature, named so that it clashes with no column
  const edges = new Map<string, number[]>();
  const names = new Map<string, string>();
  for (const f of features) {
    const c = real.columns.find((x) => x.name === f);
    if (c?.kind !== 'numeric') continue;
    let name = `${f} (bin)`;
    while (used.has(name)) name += '_';
    used.add(name);
    names.set(f, name);
    edges.set(f, quantileEdges(c.values, opts.bins ?? CORRECTION_DEFAULTS.bins));
  }
  const keep = (t: Table): Table => ({
    rows: t.rows,
    columns: features.map((f) => t.columns.find((c) => c.name === f)!),
  });
  const realRows = selectRows(
    keep(real),
    rng.permutation(real.rows).subarray(0, Math.min(real.rows, opts.realMax ?? real.rows)),
  );
  const realT = withBins(realRows, edges, names);
  const candT = withBins(keep(candidates), edges, names);
  // two folds by position (the candidates are independent draws, in no order that matters)
  const folds = [0, 1].map((f) =>
    Int32Array.from({ length: Math.floor((candidates.rows + 1 - f) / 2) }, (_, i) => 2 * i + f),
  );
  const weights = new Float64Array(candidates.rows);
  let realSum = 0;
  for (const f of [0, 1]) {
    const other = folds[1 - f];
    const m = Math.min(realT.rows, other.length);
    const r = selectRows(realT, rng.permutation(realT.rows).subarray(0, m));
    const g = selectRows(candT, other.subarray(0, m));
    const y: CategoricalColumn = {
      kind: 'categorical',
      name: label,
      codes: new Int32Array(2 * m).fill(1, 0, m),
      categories: ['generated', 'real'],
    };
    const both = concatRows([r, g], 'correction');
    const fit = Classifier.train(
      engine,
      { rows: both.rows, columns: [...both.columns, y] },
      {
        label,
        positive: 'real',
        seed: seed + 1 + f,
        where: 'canonical set correction',
        ...(opts.hidden ? { hidden: opts.hidden } : {}),
      },
    );
    try {
      const p = fit.model.predictProba(engine, selectRows(candT, folds[f]), 'canonical set correction');
      folds[f].forEach((row, i) => {
        const q = Math.min(1 - 1e-6, Math.max(1e-6, p[i]));
        realSum += q;
        weights[row] = q / (1 - q);
      });
    } finally {
      fit.model.dispose();
    }
  }
  let mean = 0;
  for (const w of weights) mean += w;
  mean /= weights.length;
  for (let i = 0; i < weights.length; i++) weights[i] = Math.min(weights[i], cap * mean);
  return { weights, meanReal: realSum / candidates.rows };
}

/**
 * `n` distinct indices drawn without replacement with probability ∝ `weights` (Efraimidis and Spirakis'
 * keys u^(1/w): the n largest), in increasing order. Rows of weight 0 come last, in index order.
 */
export function weightedSample(engine: Engine, weights: Float64Array, n: number, seed: number): Int32Array {
  check(
    Number.isSafeInteger(n) && n >= 0 && n <= weights.length,
    'E_ARG',
    () => `correct: cannot draw ${n} of ${weights.length} rows`,
  );
  const u = new Rng(engine, seed).uniformHost(weights.length);
  // log key = ln(u) / w: larger is kept; a zero weight gets −∞
  const key = Float64Array.from(weights, (w, i) =>
    w > 0 ? Math.log(Math.max(u[i], Number.MIN_VALUE)) / w : -Infinity,
  );
  const order = Int32Array.from({ length: weights.length }, (_, i) => i).sort((a, b) => key[b] - key[a] || a - b);
  return order.subarray(0, n).sort();
}

/** Effective sample size share (Σw)² / (M · Σw²) of weights over M rows. */
export function essShare(weights: Float64Array): number {
  let s = 0;
  let s2 = 0;
  for (const w of weights) {
    s += w;
    s2 += w * w;
  }
  return s2 > 0 ? (s * s) / (weights.length * s2) : 0;
}
