// Quantiles of sorted numbers, as numpy computes them by default. Core code: no Node imports.

/** Linear-interpolation quantile (numpy's default) of sorted values at q in [0, 1]. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * quantileSorted(sorted copy of `values`, 0.5) without the sorted copy (ten million scores: 80 MB
 * saved): the two middle order statistics found by counting the values per bucket of their top 16
 * bits in an order-preserving key, then sorting only the values of the buckets that hold them. The
 * values must have no NaN.
 */
export function medianOf(values: Float64Array): number {
  const n = values.length;
  if (n === 0) return NaN;
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  // the top 16 bits of the float's bits, flipped so that unsigned order is numeric order
  const bucket = (i: number) => {
    const hi = words[2 * i + 1];
    return (hi & 0x80000000 ? ~hi : hi | 0x80000000) >>> 16;
  };
  const counts = new Float64Array(65536);
  for (let i = 0; i < n; i++) counts[bucket(i)]++;
  const pos = 0.5 * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  // the buckets holding ranks lo and hi, and the rank where the first begins
  let seen = 0;
  let b0 = -1;
  let b1 = -1;
  let start = 0;
  for (let b = 0; b < 65536 && b1 < 0; b++) {
    if (b0 < 0 && seen + counts[b] > lo) {
      b0 = b;
      start = seen;
    }
    if (seen + counts[b] > hi) b1 = b;
    seen += counts[b];
  }
  let m = 0;
  for (let b = b0; b <= b1; b++) m += counts[b];
  const picked = new Float64Array(m);
  for (let i = 0, j = 0; i < n; i++) {
    const b = bucket(i);
    if (b >= b0 && b <= b1) picked[j++] = values[i];
  }
  picked.sort();
  const a = picked[lo - start];
  const c = picked[hi - start];
  return a + (c - a) * (pos - lo);
}
