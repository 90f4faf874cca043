// Percentiles (numpy's default linear interpolation) and the categorical ordering of ALEPlot / the
// FALE reference: summed KS / TV distances between categories, reduced to 1-D by classical MDS.
// Core code: no Node imports.
import type { Column, Table } from '../../data/table.js';

/** numpy.linspace(start, stop, num) with the endpoint exact, as numpy computes it. */
export function linspace(start: number, stop: number, num: number): number[] {
  if (num === 1) return [start];
  const step = (stop - start) / (num - 1);
  const out: number[] = [];
  for (let i = 0; i < num; i++) out.push(i * step + start);
  out[num - 1] = stop;
  return out;
}

/**
 * numpy.percentile(x, q) with method="linear" (the default), for already sorted, NaN-free `sorted`
 * and levels `q` in [0, 100]. numpy's lerp: a + (b − a)·t for t < 0.5, b − (b − a)·(1 − t) otherwise.
 */
export function percentilesSorted(sorted: ArrayLike<number>, q: readonly number[]): number[] {
  const n = sorted.length;
  return q.map((level) => {
    const h = (level / 100) * (n - 1);
    const lo = Math.min(Math.max(Math.floor(h), 0), n - 1);
    const hi = Math.min(lo + 1, n - 1);
    const t = h - lo;
    const a = sorted[lo];
    const b = sorted[hi];
    const d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
  });
}

/** numpy.percentile(x, q) for any order of `x` (NaN values are ignored). */
export function percentiles(x: ArrayLike<number>, q: readonly number[]): number[] {
  const s = Float64Array.from(Array.from(x).filter((v) => !Number.isNaN(v))).sort();
  return percentilesSorted(s, q);
}

/** Eigen-decomposition of a symmetric matrix (cyclic Jacobi): eigenvalues and column eigenvectors. */
export function symmetricEigen(a: number[][]): { values: number[]; vectors: number[][] } {
  const n = a.length;
  const m = a.map((r) => r.slice());
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += m[i][j] * m[i][j];
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(m[p][q]) < 1e-300) continue;
        const theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const mkp = m[k][p];
          const mkq = m[k][q];
          m[k][p] = c * mkp - s * mkq;
          m[k][q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < n; k++) {
          const mpk = m[p][k];
          const mqk = m[q][k];
          m[p][k] = c * mpk - s * mqk;
          m[q][k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: m.map((r, i) => r[i]), vectors: v };
}

/**
 * Classical (Torgerson) MDS to one dimension, as R's cmdscale(d, k = 1): double-centre −½·D², take
 * the eigenvector of the largest eigenvalue, scaled by √λ. The sign is fixed so that the first
 * item's coordinate is not above the last one's (the order is only defined up to reversal, and
 * FALE values do not depend on it).
 */
export function classicalMds1(d: number[][]): number[] {
  const n = d.length;
  if (n <= 1) return new Array<number>(n).fill(0);
  const sq = d.map((r) => r.map((x) => x * x));
  const rowMean = sq.map((r) => r.reduce((s, x) => s + x, 0) / n);
  const all = rowMean.reduce((s, x) => s + x, 0) / n;
  const b = sq.map((r, i) => r.map((x, j) => -0.5 * (x - rowMean[i] - rowMean[j] + all)));
  const { values, vectors } = symmetricEigen(b);
  let best = 0;
  for (let i = 1; i < n; i++) if (values[i] > values[best]) best = i;
  const scale = Math.sqrt(Math.max(values[best], 0));
  const coord = vectors.map((row) => row[best] * scale);
  if (coord[0] > coord[n - 1]) for (let i = 0; i < n; i++) coord[i] = -coord[i];
  return coord;
}

/**
 * The order of the categories `cats` (codes of `feature`'s dictionary) for categorical ALE / FALE:
 * between two categories, the sum over every column in `others` of the Kolmogorov–Smirnov distance
 * of the two categories' ECDFs at 100 global quantiles (numeric column) or the total-variation
 * distance ½·Σ|p − q| of the two categories' frequency tables (categorical column); then classical
 * MDS to 1-D and a stable sort by the coordinate. Returns the codes in order and the distance matrix.
 */
export function categoricalOrder(
  table: Table,
  feature: Column & { kind: 'categorical' },
  cats: number[],
  others: readonly Column[],
): { order: number[]; distances: number[][] } {
  const K = cats.length;
  const pos = new Map<number, number>();
  cats.forEach((c, i) => pos.set(c, i));
  const rowsOf: number[][] = cats.map(() => []);
  for (let i = 0; i < table.rows; i++) {
    const k = pos.get(feature.codes[i]);
    if (k !== undefined) rowsOf[k].push(i);
  }
  const d = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  for (const col of others) {
    if (col.kind === 'numeric') {
      const q = percentiles(col.values, linspace(0, 100, 100));
      // ECDF of each category at each quantile point
      const ecdf = rowsOf.map((rows) => {
        const v = Float64Array.from(rows.map((r) => col.values[r]).filter((x) => !Number.isNaN(x))).sort();
        let j = 0;
        return q.map((point) => {
          while (j < v.length && v[j] <= point) j++;
          return v.length ? j / v.length : 0;
        });
      });
      for (let a = 0; a < K; a++) {
        for (let b = a + 1; b < K; b++) {
          let ks = 0;
          for (let t = 0; t < q.length; t++) ks = Math.max(ks, Math.abs(ecdf[a][t] - ecdf[b][t]));
          d[a][b] += ks;
          d[b][a] += ks;
        }
      }
    } else {
      const L = col.categories.length;
      const freq = rowsOf.map((rows) => {
        const f = new Float64Array(L);
        let n = 0;
        for (const r of rows) {
          const c = col.codes[r];
          if (c >= 0) {
            f[c]++;
            n++;
          }
        }
        if (n > 0) for (let l = 0; l < L; l++) f[l] /= n;
        return f;
      });
      for (let a = 0; a < K; a++) {
        for (let b = a + 1; b < K; b++) {
          let tv = 0;
          for (let l = 0; l < L; l++) tv += Math.abs(freq[a][l] - freq[b][l]);
          d[a][b] += tv / 2;
          d[b][a] += tv / 2;
        }
      }
    }
  }
  const coord = classicalMds1(d);
  const idx = cats.map((_, i) => i).sort((x, y) => coord[x] - coord[y] || x - y);
  return { order: idx.map((i) => cats[i]), distances: d };
}
