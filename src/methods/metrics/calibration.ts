// Calibration by group, for score predictions: does a score of 0.7 mean a 70% chance of the positive
// label in every group? Core code: no Node imports.
//   reliability: equal-width score bins; per bin the rows, the mean score and the share of positive labels;
//   ECE (expected calibration error) = Σ_b (n_b / n) · |share_b − mean score_b|, with a percentile
//   bootstrap interval (the group's rows resampled with replacement).
// ECE is biased upwards on few rows (every bin's |share − mean| is noisy); the interval shows how much.
// A group of more than BIG_GROUP rows whose every (bin, label) cell holds at least BIG_CELL rows is
// resampled by cells, not rows (a row bootstrap of ten million rows costs minutes of random memory
// access): the Poisson bootstrap's count of each cell, c ~ Poisson(m), and the sum of the c scores drawn
// from the cell, both by their normal approximations N(m, m) and N(c·mean, c·var), which at these counts
// differ from the exact draws by far less than the interval's width. Smaller groups keep the exact
// row bootstrap (and their seeded bytes).
import type { Rng } from '../../engine/rng.js';
import { quantileSorted } from '../../data/quantile.js';

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

/** Groups with more rows may be resampled by cells (see the top of the file) … */
export const BIG_GROUP = 200_000;
/** … when every non-empty (bin, label) cell holds at least this many rows. */
export const BIG_CELL = 1_000;

/** Per (bin, label) cell of a group: rows, mean score and the scores' variance; null when a non-empty cell is under BIG_CELL rows. */
function cellsOf(score: Float64Array, y: Uint8Array, rows: ArrayLike<number>, bins: number): { n: Float64Array; mean: Float64Array; sd: Float64Array; pos: Uint8Array } | null {
  const C = 2 * bins;
  const n = new Float64Array(C);
  const sum = new Float64Array(C);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const c = 2 * Math.min(bins - 1, Math.floor(score[i] * bins)) + y[i];
    n[c]++;
    sum[c] += score[i];
  }
  const mean = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    if (n[c] > 0 && n[c] < BIG_CELL) return null;
    mean[c] = n[c] > 0 ? sum[c] / n[c] : 0;
  }
  // the variance in a second pass about the mean (no cancellation)
  const ss = new Float64Array(C);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const c = 2 * Math.min(bins - 1, Math.floor(score[i] * bins)) + y[i];
    const d = score[i] - mean[c];
    ss[c] += d * d;
  }
  const sd = new Float64Array(C);
  for (let c = 0; c < C; c++) sd[c] = n[c] > 1 ? Math.sqrt(ss[c] / n[c]) : 0;
  const pos = new Uint8Array(C);
  for (let c = 0; c < C; c++) pos[c] = c % 2;
  return { n, mean, sd, pos };
}

/** One cell-level Poisson-bootstrap ECE from two standard normals per cell (`z`: 2·cells values). */
function cellEce(cells: NonNullable<ReturnType<typeof cellsOf>>, z: Float64Array, bins: number): number {
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
      const count = Math.max(0, Math.round(m + Math.sqrt(m) * z[2 * c]));
      nb += count;
      sb += count * cells.mean[c] + Math.sqrt(count) * cells.sd[c] * z[2 * c + 1];
      pb += l * count;
    }
    total += nb;
    if (nb > 0) e += Math.abs(pb - sb);
  }
  return total > 0 ? e / total : 0;
}

/** Per group: the reliability bins and ECE of `score` (P(positive) in [0, 1]) against `y`. */
export function calibrationByGroup(values: readonly string[], gid: Int32Array, score: Float64Array, y: Uint8Array, bins: number, resamples: number, rng: Rng | undefined, confidence: number): GroupCalibration[] {
  // each group's rows, as typed arrays (ten million rows: no JS array of numbers)
  const sizes = new Int32Array(values.length);
  for (let i = 0; i < gid.length; i++) if (gid[i] >= 0) sizes[gid[i]]++;
  const members = values.map((_, g) => new Int32Array(sizes[g]));
  const fill = new Int32Array(values.length);
  for (let i = 0; i < gid.length; i++) if (gid[i] >= 0) members[gid[i]][fill[gid[i]]++] = i;
  return values.map((v, g) => {
    const rows = members[g];
    const out: ReliabilityBin[] = [];
    for (let b = 0; b < bins; b++) out.push({ lo: b / bins, hi: (b + 1) / bins, n: 0, meanScore: null, positiveShare: null });
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
      for (let r = 0; r < resamples; r++) stats.push(cellEce(cells, rng.normalHost(4 * bins), bins));
      stats.sort((a, b) => a - b);
      ci = { lo: quantileSorted(stats, (1 - confidence) / 2), hi: quantileSorted(stats, 1 - (1 - confidence) / 2) };
    } else if (rng && resamples > 0 && rows.length > 0) {
      const sample = new Int32Array(rows.length);
      const stats: number[] = [];
      for (let r = 0; r < resamples; r++) {
        const u = rng.uniformHost(rows.length);
        for (let k = 0; k < rows.length; k++) sample[k] = rows[Math.min(rows.length - 1, Math.floor(u[k] * rows.length))];
        stats.push(ece(score, y, sample, bins)!);
      }
      stats.sort((a, b) => a - b);
      ci = { lo: quantileSorted(stats, (1 - confidence) / 2), hi: quantileSorted(stats, 1 - (1 - confidence) / 2) };
    }
    return { group: v, n: rows.length, bins: out, ece: ece(score, y, rows, bins), ci };
  });
}
