// Fidelity of generated rows to real ones (a canonical set estimates the real rows on
// its side of the decision, so the real rows check it): per column,
// the distance between the generated rows and the real rows they estimate, beside its noise floor.
// Core code: no Node imports. Every draw comes from the Rng it is given.
//
// Numeric columns: the two-sample Kolmogorov–Smirnov statistic; categorical ones: the total-variation
// distance. Both are "the largest difference in probability the two distributions give one event"
// (a threshold, or a set of categories), in [0, 1], and need no bins, so the same number means the
// same thing for every column (SDMetrics' KSComplement and TVComplement are 1 minus them). The noise
// floor: the same distance between two independent bootstrap resamples of the real rows, one the size
// of the generated rows and one the size of the real rows, i.e. what a generator drawing from the real
// distribution itself would score; the FIDELITY_DEFAULTS.floorQuantile quantile of
// FIDELITY_DEFAULTS.floorReplicates replicates.
//
// Sides: an audit compares its positive canonical set with the real rows the model scores positive, and
// its negative set with those it scores negative (`yhat`); `lucid quality` without a model compares
// every synthetic row with every real row (one side).
import { check } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import { cellLabels, type Column, type Table } from '../../data/table.js';
import { quantileSorted } from '../../data/quantile.js';
import { ksStatistic } from './metrics.js';

export const FIDELITY_DEFAULTS = {
  /** bootstrap replicates of each noise floor */
  floorReplicates: 200,
  /** quantile of the noise-floor replicates a fidelity figure is read against */
  floorQuantile: 0.95,
  /**
   * A column is faithfully generated on a side when its distance is at most max(noise floor, this):
   * no event (threshold or set of categories) whose probability the rows misstate by more than 10
   * points. Fixed before it was measured (EXPERIMENTS.md §7).
   */
  tolerance: 0.1,
};

export type FidelityMetric = 'KS' | 'TV';

const colOf = (t: Table, name: string): Column | undefined => t.columns.find((c) => c.name === name);

export function numbersOf(c: Column | undefined, rows: number): Float64Array {
  if (!c) return new Float64Array(rows).fill(NaN);
  if (c.kind === 'numeric') return c.values;
  return Float64Array.from(c.codes, (k) => (k < 0 ? NaN : Number(c.categories[k])));
}

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
  /** both sides within max(floor, FIDELITY_DEFAULTS.tolerance) */
  faithful: boolean;
}

/** Ranks of the distinct finite values (sorted), and each value's rank (−1 for NaN). */
export function rankCodes(v: Float64Array): { distinct: Float64Array; code: Int32Array } {
  const distinct = Float64Array.from(new Set(Array.from(v).filter(Number.isFinite))).sort();
  const at = new Map<number, number>();
  distinct.forEach((x, i) => at.set(x, i));
  return { distinct, code: Int32Array.from(v, (x) => (Number.isFinite(x) ? at.get(x)! : -1)) };
}

/** Rows of `t`'s column `name` as numbers (numeric kind) or labels (categorical kind), concatenated over tables. */
function gather(
  tables: readonly Table[],
  name: string,
  kind: 'numeric' | 'categorical',
): { nums: Float64Array; labels: string[] } {
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
  let na = 0,
    nb = 0;
  for (const l of a)
    if (l !== '') {
      ca.set(l, (ca.get(l) ?? 0) + 1);
      na++;
    }
  for (const l of b)
    if (l !== '') {
      cb.set(l, (cb.get(l) ?? 0) + 1);
      nb++;
    }
  if (na === 0 || nb === 0) return NaN;
  let s = 0;
  for (const l of new Set([...ca.keys(), ...cb.keys()])) s += Math.abs((ca.get(l) ?? 0) / na - (cb.get(l) ?? 0) / nb);
  return s / 2;
}

/**
 * Replicates of the distance between two bootstrap resamples of `codes` (values 0 … k−1, sizes m and
 * r): KS over the ordered codes (numeric) or TV (categorical).
 */
function floorReplicates(
  codes: Int32Array,
  k: number,
  m: number,
  r: number,
  metric: FidelityMetric,
  R: number,
  rng: Rng,
): Float64Array {
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
      let fa = 0,
        fb = 0;
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
 * each feature's kind; `sets` each GAN seed's positive and negative set. A side without real rows is
 * null; a side with real rows and no generated ones is null too, or with `emptyFails` distance 1 and
 * not faithful. A seed's own figure is NaN when its set is empty.
 */
export function fidelity(
  features: readonly { name: string; kind: 'numeric' | 'categorical' }[],
  real: Table,
  yhat: Uint8Array,
  sets: readonly { positive: Table; negative: Table }[],
  rng: Rng,
  opts: { replicates?: number; quantile?: number; tolerance?: number; emptyFails?: boolean } = {},
): FeatureFidelity[] {
  const R = opts.replicates ?? FIDELITY_DEFAULTS.floorReplicates;
  const q = opts.quantile ?? FIDELITY_DEFAULTS.floorQuantile;
  const tol = opts.tolerance ?? FIDELITY_DEFAULTS.tolerance;
  check(Number.isSafeInteger(R) && R >= 1, 'E_ARG', () => `fidelity: replicates must be a positive integer, got ${R}`);
  check(yhat.length === real.rows, 'E_SHAPE', () => `fidelity: ${yhat.length} predictions for ${real.rows} real rows`);
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
      // with emptyFails (an audit: both sets are meant to exist), a side the data has and the sets do not is as far as
      // it gets
      const none = (realRows: number): SideFidelity | null =>
        opts.emptyFails && realRows > 0
          ? { distance: 1, perSeed: tables.map(() => NaN), floor: NaN, floorMedian: NaN, rows: 0, realRows }
          : null;
      let codes: Int32Array;
      let k: number;
      let distance: number;
      let perSeed: number[];
      // the generated rows and the real rows with a value
      let rows: number;
      let realRows: number;
      if (metric === 'KS') {
        const rv = Float64Array.from(idx, (i) => all.nums[i]).filter(Number.isFinite);
        const gv = gen.nums.filter(Number.isFinite);
        if (rv.length === 0) return null;
        if (gv.length === 0) return none(rv.length);
        distance = ksStatistic(rv, gv);
        perSeed = tables.map((t) => ksStatistic(rv, gather([t], f.name, 'numeric').nums));
        const rk = rankCodes(rv);
        codes = rk.code;
        k = rk.distinct.length;
        rows = gv.length;
        realRows = rv.length;
      } else {
        const rl = idx.map((i) => all.labels[i]).filter((l) => l !== '');
        const gl = gen.labels.filter((l) => l !== '');
        if (rl.length === 0) return null;
        if (gl.length === 0) return none(rl.length);
        distance = tvLabels(rl, gl);
        perSeed = tables.map((t) => tvLabels(rl, gather([t], f.name, 'categorical').labels));
        const index = new Map<string, number>();
        codes = Int32Array.from(rl, (l) => {
          let c = index.get(l);
          if (c === undefined) index.set(l, (c = index.size));
          return c;
        });
        k = index.size;
        rows = gl.length;
        realRows = rl.length;
      }
      const reps = floorReplicates(codes, k, rows, realRows, metric, R, rng).sort();
      return {
        distance,
        perSeed,
        floor: quantileSorted(reps, q),
        floorMedian: quantileSorted(reps, 0.5),
        rows,
        realRows,
      };
    };
    const positive = side(1);
    const negative = side(0);
    const ok = (s: SideFidelity | null) => s === null || s.distance <= Math.max(s.floor, tol);
    return {
      feature: f.name,
      metric,
      positive,
      negative,
      faithful: ok(positive) && ok(negative) && (positive !== null || negative !== null),
    };
  });
}

/**
 * The mean distance over features and both sides (a side without real or generated rows left out):
 * the one-number fidelity of EXPERIMENTS.md §7.1, without noise floors (the GAN's stopping rule and
 * the time-to-quality bench). NaN when nothing can be measured.
 */
export function meanFidelity(
  features: readonly { name: string; kind: 'numeric' | 'categorical' }[],
  real: Table,
  yhat: Uint8Array,
  sets: readonly { positive: Table; negative: Table }[],
): number {
  check(yhat.length === real.rows, 'E_SHAPE', () => `fidelity: ${yhat.length} predictions for ${real.rows} real rows`);
  const rowsOn = [0, 1].map((side) => {
    const idx: number[] = [];
    for (let i = 0; i < yhat.length; i++) if (yhat[i] === side) idx.push(i);
    return idx;
  });
  let sum = 0;
  let count = 0;
  for (const f of features) {
    const all = gather([real], f.name, f.kind);
    for (const s of [0, 1] as const) {
      const idx = rowsOn[s];
      if (idx.length === 0) continue;
      const gen = gather(
        sets.map((x) => (s === 1 ? x.positive : x.negative)),
        f.name,
        f.kind,
      );
      let d: number;
      if (f.kind === 'numeric') {
        const rv = Float64Array.from(idx, (i) => all.nums[i]).filter(Number.isFinite);
        const gv = gen.nums.filter(Number.isFinite);
        d = rv.length && gv.length ? ksStatistic(rv, gv) : NaN;
      } else
        d = tvLabels(
          idx.map((i) => all.labels[i]),
          gen.labels,
        );
      if (Number.isFinite(d)) {
        sum += d;
        count++;
      }
    }
  }
  return count ? sum / count : NaN;
}
