// A tiny float64 reference for the op table: plain loops, no cleverness, rank ≤ 2.
export interface R {
  shape: number[];
  data: Float64Array;
}

export const r = (shape: number[], data: ArrayLike<number>): R => ({ shape, data: Float64Array.from(data) });
const as2d = (s: number[]): [number, number] => (s.length === 0 ? [1, 1] : s.length === 1 ? [1, s[0]] : [s[0], s[1]]);

function bshape(a: number[], b: number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const da = a[a.length - n + i] ?? 1;
    const db = b[b.length - n + i] ?? 1;
    out.push(da === 1 ? db : da);
  }
  return out;
}

function at(x: R, i: number, j: number): number {
  const [n, d] = as2d(x.shape);
  return x.data[(n === 1 ? 0 : i) * d + (d === 1 ? 0 : j)];
}

export function bin(a: R | number, b: R | number, f: (x: number, y: number) => number): R {
  const A = typeof a === 'number' ? r([], [a]) : a;
  const B = typeof b === 'number' ? r([], [b]) : b;
  const shape = bshape(A.shape, B.shape);
  const [n, d] = as2d(shape);
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) out[i * d + j] = f(at(A, i, j), at(B, i, j));
  return { shape, data: out };
}

export const add = (a: R | number, b: R | number) => bin(a, b, (x, y) => x + y);
export const sub = (a: R | number, b: R | number) => bin(a, b, (x, y) => x - y);
export const mul = (a: R | number, b: R | number) => bin(a, b, (x, y) => x * y);
export const div = (a: R | number, b: R | number) => bin(a, b, (x, y) => x / y);
export const map = (a: R, f: (x: number) => number): R => ({ shape: a.shape, data: a.data.map(f) });

export function matmul(a: R, b: R, tA = false, tB = false): R {
  const m = tA ? a.shape[1] : a.shape[0];
  const k = tA ? a.shape[0] : a.shape[1];
  const n = tB ? b.shape[0] : b.shape[1];
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) {
        const av = tA ? a.data[p * a.shape[1] + i] : a.data[i * a.shape[1] + p];
        const bv = tB ? b.data[j * b.shape[1] + p] : b.data[p * b.shape[1] + j];
        s += av * bv;
      }
      out[i * n + j] = s;
    }
  }
  return { shape: [m, n], data: out };
}

export function sum(x: R, axis?: 0 | 1, keep = false): R {
  if (axis === undefined) return r([], [x.data.reduce((a, b) => a + b, 0)]);
  const [n, d] = x.shape;
  if (axis === 0) {
    const o = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) o[j] += x.data[i * d + j];
    return { shape: keep ? [1, d] : [d], data: o };
  }
  const o = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) o[i] += x.data[i * d + j];
  return { shape: keep ? [n, 1] : [n], data: o };
}

export const mean = (x: R, axis?: 0 | 1, keep = false): R => {
  const s = sum(x, axis, keep);
  const c = axis === undefined ? x.data.length : x.shape[axis];
  return map(s, (v) => v / c);
};

export function logSoftmax(x: R): R {
  const [n, d] = x.shape;
  const o = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let m = -Infinity;
    for (let j = 0; j < d; j++) m = Math.max(m, x.data[i * d + j]);
    let s = 0;
    for (let j = 0; j < d; j++) s += Math.exp(x.data[i * d + j] - m);
    const l = Math.log(s) + m;
    for (let j = 0; j < d; j++) o[i * d + j] = x.data[i * d + j] - l;
  }
  return { shape: x.shape, data: o };
}

export const softmax = (x: R): R => map(logSoftmax(x), Math.exp);

export function concatCols(xs: R[]): R {
  const n = xs[0].shape[0];
  const total = xs.reduce((a, x) => a + x.shape[1], 0);
  const o = new Float64Array(n * total);
  let off = 0;
  for (const x of xs) {
    const d = x.shape[1];
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) o[i * total + off + j] = x.data[i * d + j];
    off += d;
  }
  return { shape: [n, total], data: o };
}

export function sliceCols(x: R, s: number, e: number): R {
  const [n, d] = x.shape;
  const o = new Float64Array(n * (e - s));
  for (let i = 0; i < n; i++) for (let j = s; j < e; j++) o[i * (e - s) + j - s] = x.data[i * d + j];
  return { shape: [n, e - s], data: o };
}

export const reshape = (x: R, shape: number[]): R => ({ shape, data: x.data });

/** Training-mode batch norm over rows. */
export function batchNorm(x: R, g: R, b: R, eps = 1e-5): R {
  const [n, d] = x.shape;
  const o = new Float64Array(n * d);
  for (let j = 0; j < d; j++) {
    let m = 0;
    for (let i = 0; i < n; i++) m += x.data[i * d + j];
    m /= n;
    let v = 0;
    for (let i = 0; i < n; i++) v += (x.data[i * d + j] - m) ** 2;
    v /= n;
    const inv = 1 / Math.sqrt(v + eps);
    for (let i = 0; i < n; i++) o[i * d + j] = (x.data[i * d + j] - m) * inv * g.data[j] + b.data[j];
  }
  return { shape: x.shape, data: o };
}

export const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));
export const softplus = (v: number) => Math.max(v, 0) + Math.log1p(Math.exp(-Math.abs(v)));
export const leaky = (a: number) => (v: number) => (v > 0 ? v : a * v);

export function rowNorm(x: R): R {
  const [n, d] = x.shape;
  const o = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += x.data[i * d + j] ** 2;
    o[i] = Math.sqrt(s);
  }
  return { shape: [n, 1], data: o };
}

/** Gradient of sum(f(xs)·w) w.r.t. every input by central differences. */
export function fdGrad(f: (xs: R[]) => R, xs: R[], w: Float64Array, h = 1e-6): Float64Array[] {
  const L = (ys: R[]) => {
    const y = f(ys).data;
    let s = 0;
    for (let i = 0; i < y.length; i++) s += y[i] * w[i];
    return s;
  };
  return xs.map((x, k) => {
    const g = new Float64Array(x.data.length);
    for (let i = 0; i < x.data.length; i++) {
      const plus = xs.map((y, m) => (m === k ? { shape: y.shape, data: y.data.slice() } : y));
      const minus = xs.map((y, m) => (m === k ? { shape: y.shape, data: y.data.slice() } : y));
      plus[k].data[i] += h;
      minus[k].data[i] -= h;
      g[i] = (L(plus) - L(minus)) / (2 * h);
    }
    return g;
  });
}
