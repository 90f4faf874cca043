// The rows the LUCID-GANs train on when the data is big (`--gan-rows`): the metrics and the
// checks stream over every row, but a GAN trains on a stratified sample of AuditOptions.ganRows rows.
//
// Strata: the model's decision (the canonical sets are conditioned on it) crossed with the groups of
// every protected attribute (a numeric one binned as the audit bins it). Allocation: proportional,
// by largest remainder, so the sizes sum exactly to the sample size; when the sample has at least as
// many rows as there are non-empty strata, every non-empty stratum gets at least one row (each row
// such a stratum gets is taken from the stratum whose allocation most exceeds its proportional share).
// Within a stratum the rows are drawn uniformly without replacement (a partial Fisher–Yates shuffle on
// the seeded generator); the sample is returned in the data's row order.
// Core code: no Node imports.
import { check } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import type { Engine } from '../engine/engine.js';

/** How many rows each stratum gives: proportional to `sizes`, summing to `total` (see the file comment). */
export function allocate(sizes: readonly number[], total: number): number[] {
  const N = sizes.reduce((s, x) => s + x, 0);
  check(
    Number.isSafeInteger(total) && total >= 0 && total <= N,
    'E_ARG',
    () => `sample: cannot draw ${total} rows from ${N}`,
  );
  if (N === 0) return sizes.map(() => 0);
  const quota = sizes.map((n) => (total * n) / N);
  const a = quota.map((q) => Math.floor(q));
  // largest remainder first; ties to the earlier stratum
  let left = total - a.reduce((s, x) => s + x, 0);
  const order = quota.map((_, i) => i).sort((i, j) => quota[j] - a[j] - (quota[i] - a[i]) || i - j);
  for (const i of order) {
    if (left === 0) break;
    a[i]++;
    left--;
  }
  const nonEmpty = sizes.filter((n) => n > 0).length;
  if (total >= nonEmpty) {
    for (let i = 0; i < sizes.length; i++) {
      if (sizes[i] === 0 || a[i] > 0) continue;
      // the row comes from the stratum most above its share (that keeps at least one row)
      let from = -1;
      for (let j = 0; j < sizes.length; j++)
        if (a[j] > 1 && (from < 0 || a[j] - quota[j] > a[from] - quota[from])) from = j;
      a[from]--;
      a[i] = 1;
    }
  }
  return a;
}

export interface StratifiedSample {
  /** the sampled rows (indices into the data), ascending */
  rows: Int32Array;
  /** per stratum (in the order of `labels`): its rows in the data and in the sample */
  sizes: number[];
  taken: number[];
}

/**
 * A stratified sample of `total` of the rows: `stratum[i]` is row i's stratum (0 … strata − 1).
 * Deterministic for the seed.
 */
export function stratifiedSample(
  engine: Engine,
  stratum: Int32Array,
  strata: number,
  total: number,
  seed: number,
): StratifiedSample {
  const n = stratum.length;
  const sizes = new Array<number>(strata).fill(0);
  for (let i = 0; i < n; i++) sizes[stratum[i]]++;
  const taken = allocate(sizes, total);
  // the rows of each stratum, contiguous, in row order
  const start = new Int32Array(strata + 1);
  for (let s = 0; s < strata; s++) start[s + 1] = start[s] + sizes[s];
  const byStratum = new Int32Array(n);
  const fill = start.slice(0, strata);
  for (let i = 0; i < n; i++) byStratum[fill[stratum[i]]++] = i;
  const rng = new Rng(engine, seed);
  const out = new Int32Array(total);
  let o = 0;
  for (let s = 0; s < strata; s++) {
    const k = taken[s];
    if (k === 0) continue;
    const m = sizes[s];
    const base = start[s];
    // two float32 uniforms (24 bits each) per draw: an index that is uniform for strata of any size
    const u = rng.uniformHost(2 * k);
    for (let j = 0; j < k; j++) {
      const x = u[2 * j] + u[2 * j + 1] / 16777216;
      const r = j + Math.min(m - j - 1, Math.floor(x * (m - j)));
      const t = byStratum[base + j];
      byStratum[base + j] = byStratum[base + r];
      byStratum[base + r] = t;
      out[o++] = byStratum[base + j];
    }
  }
  out.sort();
  return { rows: out, sizes, taken };
}
