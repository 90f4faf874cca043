// Calibration by group, for score predictions: does a score of 0.7 mean a 70% chance of the positive
// label in every group? Core code: no Node imports.
//   reliability: equal-width score bins; per bin the rows, the mean score and the share of positive labels;
//   ECE (expected calibration error) = Σ_b (n_b / n) · |share_b − mean score_b|, with a percentile
//   bootstrap interval (the group's rows resampled with replacement).
// ECE is biased upwards on few rows (every bin's |share − mean| is noisy); the interval shows how much.
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

/** Per group: the reliability bins and ECE of `score` (P(positive) in [0, 1]) against `y`. */
export function calibrationByGroup(values: readonly string[], gid: Int32Array, score: Float64Array, y: Uint8Array, bins: number, resamples: number, rng: Rng | undefined, confidence: number): GroupCalibration[] {
  const members = values.map(() => [] as number[]);
  for (let i = 0; i < gid.length; i++) if (gid[i] >= 0) members[gid[i]].push(i);
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
    if (rng && resamples > 0 && rows.length > 0) {
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
