// Calibration by group, for score predictions: does a score of 0.7 mean a 70% chance of the positive
// label in every group? Core code: no Node imports.
//   reliability: equal-width score bins; per bin the rows, the mean score and the share of positive labels;
//   ECE (expected calibration error) = Σ_b (n_b / n) · |share_b − mean score_b|, with a percentile
//   bootstrap interval (the group's rows resampled with replacement).
// ECE is biased upwards on few rows (every bin's |share − mean| is noisy); the interval shows how much.
// A group of more than BIG_GROUP rows is resampled by (bin, label) cells, not rows (a row bootstrap of
// ten million rows costs minutes of random memory access). It is the Poisson bootstrap: each cell's
// count of draws is Poisson(m) for its m rows, and the scores drawn are the sum of that many draws
// from the cell's scores. A cell of at least BIG_CELL rows takes both by their normal approximations,
// N(m, m) and N(c·mean, c·var), which at such counts differ from the exact draws by far less than the
// interval's width; a smaller cell draws them exactly (the count by inversion from m < 30 on, else by
// its normal approximation; then the scores one by one). Smaller groups keep the exact row bootstrap
// (and their seeded bytes).
import type { GroupIds } from './group-ids.js';
import type { Rng } from '../../engine/rng.js';
import { quantileSorted } from '../../data/quantile.js';
import { exp } from '../../engine/fdlibm.js';

export interface ReliabilityBin {
  lo: number;
  hi: number;
  n: number;
  meanScore: number | null;
  positiveShare: number | null;
}

export interface GroupCalibration {
  group: string;
  n: number;
  bins: ReliabilityBin[];
  ece: number | null;
  ci: { lo: number | null; hi: number | null } | null;
  /** fewer rows than --suppress-below: no bins, no ECE (suppress.ts) */
  suppressed?: boolean;
}

function ece(score: Float64Array, y: Uint8Array, rows: ArrayLike<number>, bins: number): number | null {
  if (rows.length === 0) return null;
  const n = new Float64Array(bins);
  const s = new Float64Array(bins);
  const p = new Float64Array(bins);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const b = Math.min(bins - 1, Math.floor(score[i] * bins));
    n[b]++;
    s[b] += score[i];
    p[b] += y[i];
  }
  let e = 0;
  for (let b = 0; b < bins; b++) if (n[b] > 0) e += Math.abs(p[b] - s[b]);
  return e / rows.length;
}

/** Groups with more rows are resampled by cells (see the top of the file) … */
export const BIG_GROUP = 200_000;
/** … and a cell with at least this many rows by normal approximations. */
export const BIG_CELL = 1_000;

interface Cells {
  n: Float64Array;
  mean: Float64Array;
  sd: Float64Array;
  /** the scores of each cell under BIG_CELL rows (null for the big ones) */
  scores: (Float64Array | null)[];
}

/**
 * Per (bin, label) cell of a group (cell 2·bin + label): rows, mean score, the scores' SD, and a small cell's scores.
 */
function cellsOf(score: Float64Array, y: Uint8Array, rows: ArrayLike<number>, bins: number): Cells {
  const C = 2 * bins;
  const cellOf = (i: number) => 2 * Math.min(bins - 1, Math.floor(score[i] * bins)) + y[i];
  const n = new Float64Array(C);
  const sum = new Float64Array(C);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const c = cellOf(i);
    n[c]++;
    sum[c] += score[i];
  }
  const mean = new Float64Array(C);
  for (let c = 0; c < C; c++) mean[c] = n[c] > 0 ? sum[c] / n[c] : 0;
  // the variance in a second pass about the mean (no cancellation); the small cells' scores kept
  const ss = new Float64Array(C);
  const scores = Array.from(n, (m) => (m > 0 && m < BIG_CELL ? new Float64Array(m) : null));
  const fill = new Int32Array(C);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const c = cellOf(i);
    const d = score[i] - mean[c];
    ss[c] += d * d;
    const s = scores[c];
    if (s) s[fill[c]++] = score[i];
  }
  const sd = new Float64Array(C);
  for (let c = 0; c < C; c++) sd[c] = n[c] > 1 ? Math.sqrt(ss[c] / n[c]) : 0;
  return { n, mean, sd, scores };
}

/** Poisson(m) by inversion of one uniform (m < 30: e^−m is far from underflow). */
function poisson(m: number, u: number): number {
  let p = exp(-m);
  let f = p;
  let k = 0;
  while (u > f && k < 1000) {
    k++;
    p *= m / k;
    f += p;
  }
  return k;
}

/** One Poisson-bootstrap ECE of a group by cells (see the top of the file). */
function cellEce(cells: Cells, rng: Rng, bins: number): number {
  const z = rng.normalHost(4 * bins);
  const u = rng.uniformHost(2 * bins);
  let total = 0;
  let e = 0;
  for (let b = 0; b < bins; b++) {
    let nb = 0;
    let sb = 0;
    let pb = 0;
    for (let l = 0; l < 2; l++) {
      const c = 2 * b + l;
      const m = cells.n[c];
      if (m === 0) continue;
      const count = m < 30 ? poisson(m, u[c]) : Math.max(0, Math.round(m + Math.sqrt(m) * z[2 * c]));
      const small = cells.scores[c];
      if (small) {
        const pick = rng.uniformHost(count);
        for (let k = 0; k < count; k++) sb += small[Math.min(small.length - 1, Math.floor(pick[k] * small.length))];
      } else {
        sb += count * cells.mean[c] + Math.sqrt(count) * cells.sd[c] * z[2 * c + 1];
      }
      nb += count;
      pb += l * count;
    }
    total += nb;
    if (nb > 0) e += Math.abs(pb - sb);
  }
  return total > 0 ? e / total : 0;
}

/** Per group: the reliability bins and ECE of `score` (P(positive) in [0, 1]) against `y`. */
export function calibrationByGroup(
  values: readonly string[],
  gid: GroupIds,
  score: Float64Array,
  y: Uint8Array,
  bins: number,
  resamples: number,
  rng: Rng | undefined,
  confidence: number,
): GroupCalibration[] {
  // each group's rows, as typed arrays (ten million rows: no JS array of numbers)
  const sizes = new Int32Array(values.length);
  for (let i = 0; i < gid.length; i++) if (gid[i] >= 0) sizes[gid[i]]++;
  const members = values.map((_, g) => new Int32Array(sizes[g]));
  const fill = new Int32Array(values.length);
  for (let i = 0; i < gid.length; i++) if (gid[i] >= 0) members[gid[i]][fill[gid[i]]++] = i;
  return values.map((v, g) => {
    const rows = members[g];
    const out: ReliabilityBin[] = [];
    for (let b = 0; b < bins; b++)
      out.push({ lo: b / bins, hi: (b + 1) / bins, n: 0, meanScore: null, positiveShare: null });
    for (const i of rows) {
      const bin = out[Math.min(bins - 1, Math.floor(score[i] * bins))];
      bin.n++;
      bin.meanScore = (bin.meanScore ?? 0) + score[i];
      bin.positiveShare = (bin.positiveShare ?? 0) + y[i];
    }
    for (const bin of out) {
      if (bin.n > 0) {
        bin.meanScore! /= bin.n;
        bin.positiveShare! /= bin.n;
      }
    }
    let ci: GroupCalibration['ci'] = null;
    const cells = rng && resamples > 0 && rows.length > BIG_GROUP ? cellsOf(score, y, rows, bins) : null;
    if (rng && cells) {
      const stats: number[] = [];
      for (let r = 0; r < resamples; r++) stats.push(cellEce(cells, rng, bins));
      stats.sort((a, b) => a - b);
      ci = { lo: quantileSorted(stats, (1 - confidence) / 2), hi: quantileSorted(stats, 1 - (1 - confidence) / 2) };
    } else if (rng && resamples > 0 && rows.length > 0) {
      const sample = new Int32Array(rows.length);
      const stats: number[] = [];
      for (let r = 0; r < resamples; r++) {
        const u = rng.uniformHost(rows.length);
        for (let k = 0; k < rows.length; k++)
          sample[k] = rows[Math.min(rows.length - 1, Math.floor(u[k] * rows.length))];
        stats.push(ece(score, y, sample, bins)!);
      }
      stats.sort((a, b) => a - b);
      ci = { lo: quantileSorted(stats, (1 - confidence) / 2), hi: quantileSorted(stats, 1 - (1 - confidence) / 2) };
    }
    return { group: v, n: rows.length, bins: out, ece: ece(score, y, rows, bins), ci };
  });
}
