// Host-side maps over the one-hot groups of an encoded batch (n × dim, row-major), in place.
import type { LucidFeatureGroup } from './model.js';

/** Index of the first maximum of x[off .. off+w). */
export function argmax(x: ArrayLike<number>, off: number, w: number): number {
  let best = 0;
  let v = x[off];
  for (let j = 1; j < w; j++) {
    if (x[off + j] > v) {
      v = x[off + j];
      best = j;
    }
  }
  return best;
}

/** Replaces every categorical group of every row by the one-hot of its arg-max (first maximum on ties). */
export function snapOneHot(x: Float32Array, n: number, dim: number, groups: readonly LucidFeatureGroup[]): void {
  for (const g of groups) {
    if (g.kind !== 'categorical') continue;
    for (let i = 0; i < n; i++) {
      const off = i * dim + g.start;
      const k = argmax(x, off, g.width);
      for (let j = 0; j < g.width; j++) x[off + j] = j === k ? 1 : 0;
    }
  }
}

/**
 * Euclidean projection of every categorical group of every row onto the probability simplex
 * {v ≥ 0, Σv = 1} (Duchi et al. 2008: sort, find the threshold θ, v ← max(v − θ, 0)).
 * The order of the values within a group is kept, so the arg-max is unchanged.
 */
export function projectSimplex(x: Float32Array, n: number, dim: number, groups: readonly LucidFeatureGroup[]): void {
  const maxW = groups.reduce((a, g) => (g.kind === 'categorical' ? Math.max(a, g.width) : a), 0);
  const u = new Float64Array(maxW);
  for (const g of groups) {
    if (g.kind !== 'categorical') continue;
    const w = g.width;
    const us = u.subarray(0, w);
    for (let i = 0; i < n; i++) {
      const off = i * dim + g.start;
      for (let j = 0; j < w; j++) us[j] = x[off + j];
      us.sort();
      // descending scan over the sorted values (us is ascending)
      let cum = 0;
      let theta = 0;
      for (let r = 1; r <= w; r++) {
        const ur = us[w - r];
        cum += ur;
        const t = (cum - 1) / r;
        if (ur - t > 0) theta = t;
        else break;
      }
      for (let j = 0; j < w; j++) {
        const v = x[off + j] - theta;
        x[off + j] = v > 0 ? v : 0;
      }
    }
  }
}
