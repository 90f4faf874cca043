// Checks of the canonical sets against the real rows (issue #15; shared/spec/fairness-audits.md §1).
// Core code: no Node imports. Every draw comes from the Rng it is given.
//
// The positive canonical set estimates P(x | f(x) = 1), and the audit holds an empirical sample of the
// same distribution: the real rows the model scores positive (likewise negative). So every figure a
// canonical set gives can be checked against the data it came from.
//
// Fidelity, per feature and side: the distance between the generated set and the real rows the model
// scores on that side. Numeric columns: the two-sample Kolmogorov–Smirnov statistic; categorical ones:
// the total-variation distance. Both are "the largest difference in probability the two distributions
// give one event" (a threshold, or a set of categories), in [0, 1], and need no bins, so the same
// number means the same thing for every column (SDMetrics' KSComplement and TVComplement are 1 minus
// them). The GAN trained on these rows, so the figure is in-sample. Its noise floor: the same distance
// between two independent bootstrap resamples of the real rows on that side, one the size of the
// generated set and one the size of the real rows, i.e. what a generator drawing from the real
// distribution itself would score; the 95th percentile of CHECK_DEFAULTS.floorReplicates replicates.
//
// Direction, per value v of a checked feature (a category, a bin, or the median of a numeric one):
//   canonical shift = share(v | positive set) − share(v | negative set), for each GAN seed;
//   real shift      = share(v | predicted-positive rows) − share(v | predicted-negative rows), with a
//                     bootstrap percentile interval (rows resampled with replacement, both shares
//                     recomputed; CHECK_DEFAULTS.shiftResamples resamples).
// The median shift is median(positive) − median(negative) the same way. Status:
//   'within noise' — the real interval covers 0 (or a side has no real row): the data cannot tell the
//                    direction, so any canonical shift there is "generated only, not confirmed";
//   'agrees'       — the interval excludes 0 and every seed's canonical shift has the data's sign;
//   'disagrees'    — the interval excludes 0 and some seed's shift does not have the data's sign.
// Only 'agrees' may be stated as a preference.
import { check } from '../engine/errors.js';
import type { Rng } from '../engine/rng.js';
import type { Column, Table } from '../data/table.js';
import { ksStatistic } from '../methods/quality/metrics.js';
import { assignBin, binLabels, quantileBins, quantileSorted } from './bins.js';
import { cellLabels } from './distance.js';
import type { Distribution } from './types.js';

export const CHECK_DEFAULTS = {
  /** bootstrap resamples of the real shifts' intervals */
  shiftResamples: 1000,
  /** bootstrap replicates of each fidelity noise floor */
  floorReplicates: 200,
  /** two-sided level of the real shifts' intervals */
  confidence: 0.95,
  /** quantile of the noise-floor replicates a fidelity figure is read against */
  floorQuantile: 0.95,
  /**
   * A feature is faithfully generated on a side when its fidelity distance is at most
   * max(noise floor, this): no event (threshold or set of categories) whose probability the set
   * misstates by more than 10 points. Fixed before it was measured (EXPERIMENTS.md §7).
   */
  fidelityTolerance: 0.1,
  /** numeric features are checked on this many quantile bins of the real rows (deciles) */
  numericBins: 10,
  /** the features the findings name (by canonical JS) whose values are checked, besides the protected ones */
  topFeatures: 5,
};

export type ShiftStatus = 'agrees' | 'disagrees' | 'within noise';
export type FidelityMetric = 'KS' | 'TV';

/** One side of one feature's fidelity. */
export interface SideFidelity {
  /** KS or TV between the generated set (all seeds pooled) and the real rows on this side */
  distance: number;
  /** the same for each GAN seed's set alone */
  perSeed: number[];
  /** the noise floor: the `floorQuantile` quantile of the distance between two resamples of the real rows */
  floor: number;
  /** the median of those replicates */
  floorMedian: number;
  /** generated rows (pooled) and real rows on this side */
  rows: number;
  realRows: number;
}

export interface FeatureFidelity {
  feature: string;
  metric: FidelityMetric;
  /** null when no real row (or no generated row) is on that side */
  positive: SideFidelity | null;
  negative: SideFidelity | null;
  /** both sides within max(floor, fidelityTolerance) */
  faithful: boolean;
}

export interface RealShift {
  /** the point estimate on all rows (null when a side has no real row) */
  shift: number | null;
  lo: number | null;
  hi: number | null;
  /** real rows on each side */
  positiveRows: number;
  negativeRows: number;
  /** the share (or median) on each side */
  positive: number | null;
  negative: number | null;
}

export interface ShiftCheck {
  feature: string;
  role: Distribution['role'];
  /** a category, a bin label, or "median" */
  value: string;
  kind: 'share' | 'median';
  /** the canonical shift of each GAN seed's sets (in `seeds` order) */
  canonical: number[];
  /** the canonical shift of all seeds' sets pooled */
  pooled: number;
  /** the shares (or medians) in the pooled positive and negative sets */
  positive: number;
  negative: number;
  real: RealShift;
  status: ShiftStatus;
  /** seeds whose canonical shift has the sign of the real shift (0 when the real shift has none) */
  seedsWithDataSign: number;
}

/** A feature as the checks see it: each row's value index, for the real rows and for any generated set. */
export interface CheckVariable {
  feature: string;
  role: Distribution['role'];
  values: string[];
  /** value index of each real row (−1: missing) */
  real: Int32Array;
  codeOf(t: Table): Int32Array;
  /** numeric features: the raw values, for the median shift */
  numeric?: { real: Float64Array; of(t: Table): Float64Array };
}

const colOf = (t: Table, name: string): Column | undefined => t.columns.find((c) => c.name === name);

function numbersOf(c: Column | undefined, rows: number): Float64Array {
  if (!c) return new Float64Array(rows).fill(NaN);
  if (c.kind === 'numeric') return c.values;
  return Float64Array.from(c.codes, (k) => (k < 0 ? NaN : Number(c.categories[k])));
}

/** A categorical feature: its values are the labels the real rows hold, in dictionary order. */
export function categoricalVariable(real: Table, feature: string, role: Distribution['role']): CheckVariable {
  const col = colOf(real, feature);
  check(col !== undefined, 'E_ARG', () => `checks: "${feature}" is not a column of the data`);
  const labels = cellLabels(col!);
  const values: string[] = [];
  const index = new Map<string, number>();
  if (col!.kind === 'categorical') for (const l of col!.categories) if (!index.has(l)) index.set(l, -1);
  for (const l of labels) if (l !== '' && !index.has(l)) index.set(l, -1);
  const present = new Set(labels);
  for (const l of index.keys()) if (present.has(l)) {
    index.set(l, values.length);
    values.push(l);
  }
  const code = (ls: string[]) => Int32Array.from(ls, (l) => index.get(l) ?? -1);
  return { feature, role, values, real: code(labels), codeOf: (t) => code(cellLabels(colOf(t, feature) ?? { kind: 'categorical', name: feature, codes: new Int32Array(t.rows).fill(-1), categories: [] })) };
}

/** A numeric feature on given bins (a protected attribute's edges), values outside clamped to the end bins. */
export function binnedVariable(real: Table, feature: string, role: Distribution['role'], edges: readonly number[], labels: readonly string[] = binLabels(edges), withMedian = true): CheckVariable {
  const r = numbersOf(colOf(real, feature), real.rows);
  const bin = (v: Float64Array) => Int32Array.from(v, (x) => assignBin(x, edges, true));
  const of = (t: Table) => numbersOf(colOf(t, feature), t.rows);
  const v: CheckVariable = { feature, role, values: labels.slice(), real: bin(r), codeOf: (t) => bin(of(t)) };
  if (withMedian) v.numeric = { real: r, of };
  return v;
}

/** A numeric feature on the quantile bins (deciles by default) of the real rows, with its median. */
export function numericVariable(real: Table, feature: string, role: Distribution['role'], bins = CHECK_DEFAULTS.numericBins): CheckVariable {
  const r = numbersOf(colOf(real, feature), real.rows);
  const b = quantileBins(r, bins);
  return binnedVariable(real, feature, role, b.edges, b.labels, true);
}

/** The cells of two variables (e.g. a heat map's): values "a & b". */
export function cellVariable(a: CheckVariable, b: CheckVariable): CheckVariable {
  const values: string[] = [];
  for (const x of a.values) for (const y of b.values) values.push(`${x} & ${y}`);
  const join = (ca: Int32Array, cb: Int32Array) => Int32Array.from(ca, (x, i) => (x < 0 || cb[i] < 0 ? -1 : x * b.values.length + cb[i]));
  return { feature: `${a.feature} × ${b.feature}`, role: a.role === 'feature' ? b.role : a.role, values, real: join(a.real, b.real), codeOf: (t) => join(a.codeOf(t), b.codeOf(t)) };
}

/** Shares per value of the rows with `side` (yhat ∈ {0, 1}) or of a whole set (side −1). */
function shares(codes: Int32Array, k: number, yhat: Uint8Array | null, side: number): { share: Float64Array; n: number } {
  const counts = new Float64Array(k);
  let n = 0;
  for (let i = 0; i < codes.length; i++) {
    if (yhat && yhat[i] !== side) continue;
    const c = codes[i];
    if (c < 0) continue;
    counts[c]++;
    n++;
  }
  if (n > 0) for (let j = 0; j < k; j++) counts[j] /= n;
  return { share: counts, n };
}

function median(v: ArrayLike<number>): number {
  const s = Float64Array.from(Array.from(v).filter(Number.isFinite)).sort();
  return s.length ? quantileSorted(s, 0.5) : NaN;
}

/** Ranks of the distinct finite values (sorted), and each value's rank (−1 for NaN). */
function rankCodes(v: Float64Array): { distinct: Float64Array; code: Int32Array } {
  const distinct = Float64Array.from(new Set(Array.from(v).filter(Number.isFinite))).sort();
  const at = new Map<number, number>();
  distinct.forEach((x, i) => at.set(x, i));
  return { distinct, code: Int32Array.from(v, (x) => (Number.isFinite(x) ? at.get(x)! : -1)) };
}

/** The value at sorted position `pos` (0-based) of a multiset given by counts over sorted distinct values. */
function valueAt(counts: Float64Array, distinct: Float64Array, pos: number): number {
  let cum = 0;
  for (let j = 0; j < counts.length; j++) {
    cum += counts[j];
    if (pos < cum) return distinct[j];
  }
  return NaN;
}

/** The median of such a multiset of n values (numpy's linear interpolation, as quantileSorted). */
function medianOfCounts(counts: Float64Array, distinct: Float64Array, n: number): number {
  if (n === 0) return NaN;
  const pos = 0.5 * (n - 1);
  const lo = Math.floor(pos);
  const a = valueAt(counts, distinct, lo);
  return pos === lo ? a : a + (valueAt(counts, distinct, lo + 1) - a) * (pos - lo);
}

const sign = (x: number): number => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * The direction check of every value of every variable: canonical shifts per seed against the real
 * shift and its bootstrap interval (see the file comment). `sets` holds each GAN seed's positive and
 * negative set; `yhat` the model's decision on each real row.
 */
export function shiftChecks(vars: readonly CheckVariable[], yhat: Uint8Array, sets: readonly { positive: Table; negative: Table }[], rng: Rng, opts: { resamples?: number; confidence?: number } = {}): ShiftCheck[] {
  const R = opts.resamples ?? CHECK_DEFAULTS.shiftResamples;
  const conf = opts.confidence ?? CHECK_DEFAULTS.confidence;
  check(Number.isSafeInteger(R) && R >= 1, 'E_ARG', () => `checks: resamples must be a positive integer, got ${R}`);
  check(conf > 0 && conf < 1, 'E_ARG', () => `checks: confidence must be in (0, 1), got ${conf}`);
  check(sets.length > 0, 'E_ARG', () => 'checks: give at least one seed\'s canonical sets');
  const N = yhat.length;
  for (const v of vars) check(v.real.length === N, 'E_SHAPE', () => `checks: "${v.feature}" has ${v.real.length} real rows, the predictions ${N}`);

  // the canonical side: per seed and pooled
  interface Canon { perSeed: number[][]; pooled: number[]; pos: number[]; neg: number[] }
  const canon: Canon[] = vars.map((v) => {
    const k = v.values.length;
    const perSeed = v.values.map(() => [] as number[]);
    const sumPos = new Float64Array(k), sumNeg = new Float64Array(k);
    let tp = 0, tn = 0;
    const medPos: number[] = [], medNeg: number[] = [];
    const medSeed: number[] = [];
    for (const s of sets) {
      const p = shares(v.codeOf(s.positive), k, null, -1);
      const q = shares(v.codeOf(s.negative), k, null, -1);
      for (let j = 0; j < k; j++) {
        perSeed[j].push(p.share[j] - q.share[j]);
        sumPos[j] += p.share[j] * p.n;
        sumNeg[j] += q.share[j] * q.n;
      }
      tp += p.n;
      tn += q.n;
      if (v.numeric) {
        const a = Array.from(v.numeric.of(s.positive));
        const b = Array.from(v.numeric.of(s.negative));
        medPos.push(...a);
        medNeg.push(...b);
        medSeed.push(median(a) - median(b));
      }
    }
    const pos = Array.from(sumPos, (x) => (tp > 0 ? x / tp : NaN));
    const neg = Array.from(sumNeg, (x) => (tn > 0 ? x / tn : NaN));
    const pooled = pos.map((x, j) => x - neg[j]);
    if (v.numeric) {
      perSeed.push(medSeed);
      const mp = median(medPos), mn = median(medNeg);
      pos.push(mp);
      neg.push(mn);
      pooled.push(mp - mn);
    }
    return { perSeed, pooled, pos, neg };
  });

  // the real side: point estimates and bootstrap replicates
  const ranks = vars.map((v) => (v.numeric ? rankCodes(v.numeric.real) : null));
  // per variable: real point estimates
  const point = vars.map((v, i) => {
    const k = v.values.length;
    const p = shares(v.real, k, yhat, 1);
    const q = shares(v.real, k, yhat, 0);
    const out = { pos: Array.from(p.share), neg: Array.from(q.share), nPos: p.n, nNeg: q.n };
    if (v.numeric) {
      const rk = ranks[i]!;
      const cp = new Float64Array(rk.distinct.length), cn = new Float64Array(rk.distinct.length);
      let a = 0, b = 0;
      for (let r = 0; r < N; r++) {
        const c = rk.code[r];
        if (c < 0) continue;
        if (yhat[r]) { cp[c]++; a++; } else { cn[c]++; b++; }
      }
      out.pos.push(medianOfCounts(cp, rk.distinct, a));
      out.neg.push(medianOfCounts(cn, rk.distinct, b));
    }
    return out;
  });
  const reps = vars.map((v) => Array.from({ length: v.values.length + (v.numeric ? 1 : 0) }, () => new Float64Array(R)));
  const idx = new Int32Array(N);
  for (let r = 0; r < R; r++) {
    const u = rng.uniformHost(N);
    for (let i = 0; i < N; i++) idx[i] = Math.min(N - 1, Math.floor(u[i] * N));
    vars.forEach((v, vi) => {
      const k = v.values.length;
      const cp = new Float64Array(k), cn = new Float64Array(k);
      let a = 0, b = 0;
      for (let i = 0; i < N; i++) {
        const row = idx[i];
        const c = v.real[row];
        if (c < 0) continue;
        if (yhat[row]) { cp[c]++; a++; } else { cn[c]++; b++; }
      }
      for (let j = 0; j < k; j++) reps[vi][j][r] = a > 0 && b > 0 ? cp[j] / a - cn[j] / b : NaN;
      if (v.numeric) {
        const rk = ranks[vi]!;
        const mp = new Float64Array(rk.distinct.length), mn = new Float64Array(rk.distinct.length);
        let x = 0, y = 0;
        for (let i = 0; i < N; i++) {
          const row = idx[i];
          const c = rk.code[row];
          if (c < 0) continue;
          if (yhat[row]) { mp[c]++; x++; } else { mn[c]++; y++; }
        }
        reps[vi][k][r] = x > 0 && y > 0 ? medianOfCounts(mp, rk.distinct, x) - medianOfCounts(mn, rk.distinct, y) : NaN;
      }
    });
  }

  const out: ShiftCheck[] = [];
  const alpha = 1 - conf;
  vars.forEach((v, vi) => {
    const names = v.numeric ? [...v.values, 'median'] : v.values;
    names.forEach((value, j) => {
      const pt = point[vi];
      const defined = pt.nPos > 0 && pt.nNeg > 0;
      const shift = defined ? pt.pos[j] - pt.neg[j] : null;
      const sorted = Float64Array.from(Array.from(reps[vi][j]).filter(Number.isFinite)).sort();
      const lo = defined && sorted.length ? quantileSorted(sorted, alpha / 2) : null;
      const hi = defined && sorted.length ? quantileSorted(sorted, 1 - alpha / 2) : null;
      const c = canon[vi];
      const perSeed = c.perSeed[j];
      const s = lo !== null && hi !== null && (lo > 0 || hi < 0) ? sign(shift ?? 0) : 0;
      const withSign = s === 0 ? 0 : perSeed.filter((x) => sign(x) === s).length;
      const status: ShiftStatus = s === 0 ? 'within noise' : withSign === perSeed.length ? 'agrees' : 'disagrees';
      out.push({
        feature: v.feature,
        role: v.role,
        value,
        kind: value === 'median' && j === v.values.length ? 'median' : 'share',
        canonical: perSeed.slice(),
        pooled: c.pooled[j],
        positive: c.pos[j],
        negative: c.neg[j],
        real: { shift, lo, hi, positiveRows: pt.nPos, negativeRows: pt.nNeg, positive: pt.nPos > 0 ? pt.pos[j] : null, negative: pt.nNeg > 0 ? pt.neg[j] : null },
        status,
        seedsWithDataSign: withSign,
      });
    });
  });
  return out;
}

/** Rows of `t`'s column `name` as numbers (numeric kind) or labels (categorical kind), concatenated over tables. */
function gather(tables: readonly Table[], name: string, kind: 'numeric' | 'categorical'): { nums: Float64Array; labels: string[] } {
  if (kind === 'numeric') {
    const parts = tables.map((t) => numbersOf(colOf(t, name), t.rows));
    const nums = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      nums.set(p, at);
      at += p.length;
    }
    return { nums, labels: [] };
  }
  const labels: string[] = [];
  for (const t of tables) {
    const c = colOf(t, name);
    labels.push(...(c ? cellLabels(c) : new Array<string>(t.rows).fill('')));
  }
  return { nums: new Float64Array(0), labels };
}

/** Total variation between two label lists (missing cells, '', left out), over the union of their labels. */
export function tvLabels(a: readonly string[], b: readonly string[]): number {
  const ca = new Map<string, number>();
  const cb = new Map<string, number>();
  let na = 0, nb = 0;
  for (const l of a) if (l !== '') { ca.set(l, (ca.get(l) ?? 0) + 1); na++; }
  for (const l of b) if (l !== '') { cb.set(l, (cb.get(l) ?? 0) + 1); nb++; }
  if (na === 0 || nb === 0) return NaN;
  let s = 0;
  for (const l of new Set([...ca.keys(), ...cb.keys()])) s += Math.abs((ca.get(l) ?? 0) / na - (cb.get(l) ?? 0) / nb);
  return s / 2;
}

/**
 * Replicates of the distance between two bootstrap resamples of `codes` (values 0 … k−1, sizes m and
 * r): KS over the ordered codes (numeric) or TV (categorical).
 */
function floorReplicates(codes: Int32Array, k: number, m: number, r: number, metric: FidelityMetric, R: number, rng: Rng): Float64Array {
  const n = codes.length;
  const out = new Float64Array(R);
  const a = new Float64Array(k);
  const b = new Float64Array(k);
  for (let t = 0; t < R; t++) {
    a.fill(0);
    b.fill(0);
    const u = rng.uniformHost(m + r);
    for (let i = 0; i < m; i++) a[codes[Math.min(n - 1, Math.floor(u[i] * n))]]++;
    for (let i = 0; i < r; i++) b[codes[Math.min(n - 1, Math.floor(u[m + i] * n))]]++;
    let d = 0;
    if (metric === 'KS') {
      let fa = 0, fb = 0;
      for (let j = 0; j < k; j++) {
        fa += a[j] / m;
        fb += b[j] / r;
        d = Math.max(d, Math.abs(fa - fb));
      }
    } else {
      for (let j = 0; j < k; j++) d += Math.abs(a[j] / m - b[j] / r);
      d /= 2;
    }
    out[t] = d;
  }
  return out;
}

/**
 * Fidelity of every feature (see the file comment): per side, the generated sets (each seed's and all
 * pooled) against the real rows the model scores on that side, with the noise floor. `features` gives
 * each feature's kind; `sets` each GAN seed's positive and negative set.
 */
export function fidelity(features: readonly { name: string; kind: 'numeric' | 'categorical' }[], real: Table, yhat: Uint8Array, sets: readonly { positive: Table; negative: Table }[], rng: Rng, opts: { replicates?: number; quantile?: number; tolerance?: number } = {}): FeatureFidelity[] {
  const R = opts.replicates ?? CHECK_DEFAULTS.floorReplicates;
  const q = opts.quantile ?? CHECK_DEFAULTS.floorQuantile;
  const tol = opts.tolerance ?? CHECK_DEFAULTS.fidelityTolerance;
  check(Number.isSafeInteger(R) && R >= 1, 'E_ARG', () => `checks: replicates must be a positive integer, got ${R}`);
  check(yhat.length === real.rows, 'E_SHAPE', () => `checks: ${yhat.length} predictions for ${real.rows} real rows`);
  const rowsOn = [0, 1].map((side) => {
    const idx: number[] = [];
    for (let i = 0; i < yhat.length; i++) if (yhat[i] === side) idx.push(i);
    return idx;
  });
  return features.map((f) => {
    const metric: FidelityMetric = f.kind === 'numeric' ? 'KS' : 'TV';
    const all = gather([real], f.name, f.kind);
    const side = (s: 0 | 1): SideFidelity | null => {
      const idx = rowsOn[s];
      const tables = sets.map((x) => (s === 1 ? x.positive : x.negative));
      const gen = gather(tables, f.name, f.kind);
      let codes: Int32Array;
      let k: number;
      let distance: number;
      let perSeed: number[];
      if (metric === 'KS') {
        const rv = Float64Array.from(idx, (i) => all.nums[i]).filter(Number.isFinite);
        const gv = gen.nums.filter(Number.isFinite);
        if (rv.length === 0 || gv.length === 0) return null;
        distance = ksStatistic(rv, gv);
        perSeed = tables.map((t) => ksStatistic(rv, gather([t], f.name, 'numeric').nums));
        const rk = rankCodes(rv);
        codes = rk.code;
        k = rk.distinct.length;
        const reps = floorReplicates(codes, k, gv.length, rv.length, metric, R, rng).sort();
        return { distance, perSeed, floor: quantileSorted(reps, q), floorMedian: quantileSorted(reps, 0.5), rows: gv.length, realRows: rv.length };
      }
      const rl = idx.map((i) => all.labels[i]).filter((l) => l !== '');
      const gl = gen.labels.filter((l) => l !== '');
      if (rl.length === 0 || gl.length === 0) return null;
      distance = tvLabels(rl, gl);
      perSeed = tables.map((t) => tvLabels(rl, gather([t], f.name, 'categorical').labels));
      const index = new Map<string, number>();
      codes = Int32Array.from(rl, (l) => {
        let c = index.get(l);
        if (c === undefined) index.set(l, (c = index.size));
        return c;
      });
      k = index.size;
      const reps = floorReplicates(codes, k, gl.length, rl.length, metric, R, rng).sort();
      return { distance, perSeed, floor: quantileSorted(reps, q), floorMedian: quantileSorted(reps, 0.5), rows: gl.length, realRows: rl.length };
    };
    const positive = side(1);
    const negative = side(0);
    const ok = (s: SideFidelity | null) => s === null || s.distance <= Math.max(s.floor, tol);
    return { feature: f.name, metric, positive, negative, faithful: ok(positive) && ok(negative) && (positive !== null || negative !== null) };
  });
}
