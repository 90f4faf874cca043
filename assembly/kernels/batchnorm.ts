// Batch-norm kernels (training mode): per-column statistics, the forward pass and its fused
// backward over a row-major (N×D) block, each also over a column block of a wider matrix (the `_ld`
// forms, row stride ld ≥ D) so that threads can split the columns. The scalar twins `ref_bn_*`
// accumulate in f64.

/**
 * Per-column batch statistics, two passes: mean[j] = Σ_i x[i,j] / N, var[j] = Σ_i (x[i,j] − mean[j])² / N
 * (biased). N = 0 gives NaN.
 */
export function f32_bn_stats(mean: usize, var_: usize, x: usize, N: i32, D: i32): void {
  f32_bn_stats_ld(mean, var_, x, N, D, D);
}

/** f32_bn_stats over D columns of a matrix with row stride ld ≥ D (a column block, for threads). */
export function f32_bn_stats_ld(mean: usize, var_: usize, x: usize, N: i32, D: i32, ld: i32): void {
  assert(N >= 0 && D >= 0 && ld >= D);
  const rb = <usize>ld << 2; // row stride
  const xEnd = x + <usize>N * rb;
  const nf = <f32>N;
  const nv = f32x4.splat(nf);
  let j = 0;
  for (; j + 8 <= D; j += 8) {
    const col = x + (<usize>j << 2);
    let s0 = f32x4.splat(0.0);
    let s1 = f32x4.splat(0.0);
    for (let p = col; p < xEnd; p += rb) {
      s0 = f32x4.add(s0, v128.load(p));
      s1 = f32x4.add(s1, v128.load(p, 16));
    }
    const mu0 = f32x4.div(s0, nv);
    const mu1 = f32x4.div(s1, nv);
    let q0 = f32x4.splat(0.0);
    let q1 = f32x4.splat(0.0);
    for (let p = col; p < xEnd; p += rb) {
      const d0 = f32x4.sub(v128.load(p), mu0);
      const d1 = f32x4.sub(v128.load(p, 16), mu1);
      q0 = f32x4.add(q0, f32x4.mul(d0, d0));
      q1 = f32x4.add(q1, f32x4.mul(d1, d1));
    }
    const o = <usize>j << 2;
    v128.store(mean + o, mu0);
    v128.store(mean + o, mu1, 16);
    v128.store(var_ + o, f32x4.div(q0, nv));
    v128.store(var_ + o, f32x4.div(q1, nv), 16);
  }
  for (; j + 4 <= D; j += 4) {
    const col = x + (<usize>j << 2);
    let s0 = f32x4.splat(0.0);
    for (let p = col; p < xEnd; p += rb) s0 = f32x4.add(s0, v128.load(p));
    const mu0 = f32x4.div(s0, nv);
    let q0 = f32x4.splat(0.0);
    for (let p = col; p < xEnd; p += rb) {
      const d0 = f32x4.sub(v128.load(p), mu0);
      q0 = f32x4.add(q0, f32x4.mul(d0, d0));
    }
    const o = <usize>j << 2;
    v128.store(mean + o, mu0);
    v128.store(var_ + o, f32x4.div(q0, nv));
  }
  for (; j < D; j++) {
    const col = x + (<usize>j << 2);
    let s: f32 = 0;
    for (let p = col; p < xEnd; p += rb) s += load<f32>(p);
    const mu = s / nf;
    let q: f32 = 0;
    for (let p = col; p < xEnd; p += rb) {
      const d = load<f32>(p) - mu;
      q += d * d;
    }
    store<f32>(mean + (<usize>j << 2), mu);
    store<f32>(var_ + (<usize>j << 2), q / nf);
  }
}

export function ref_bn_stats(mean: usize, var_: usize, x: usize, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0);
  for (let j = 0; j < D; j++) {
    let s: f64 = 0;
    for (let i = 0; i < N; i++) s += <f64>load<f32>(x + ((<usize>i * <usize>D + <usize>j) << 2));
    const mu = s / <f64>N;
    let q: f64 = 0;
    for (let i = 0; i < N; i++) {
      const d = <f64>load<f32>(x + ((<usize>i * <usize>D + <usize>j) << 2)) - mu;
      q += d * d;
    }
    store<f32>(mean + (<usize>j << 2), <f32>mu);
    store<f32>(var_ + (<usize>j << 2), <f32>(q / <f64>N));
  }
}

/**
 * Batch-norm forward (training or eval): invstd[j] = 1/√(var[j] + eps);
 * xhat[i,j] = (x[i,j] − mean[j])·invstd[j]; y[i,j] = xhat[i,j]·gamma[j] + beta[j].
 * invstd, mean, var, gamma, beta: (D); x, xhat, y: (N×D). y or xhat may equal x.
 */
export function f32_bn_fwd(
  y: usize, xhat: usize, invstd: usize, x: usize, mean: usize, var_: usize,
  gamma: usize, beta: usize, eps: f32, N: i32, D: i32,
): void {
  f32_bn_fwd_ld(y, xhat, invstd, x, mean, var_, gamma, beta, eps, N, D, D);
}

/** f32_bn_fwd over D columns of matrices with row stride ld ≥ D (a column block, for threads). */
export function f32_bn_fwd_ld(
  y: usize, xhat: usize, invstd: usize, x: usize, mean: usize, var_: usize,
  gamma: usize, beta: usize, eps: f32, N: i32, D: i32, ld: i32,
): void {
  assert(N >= 0 && D >= 0 && ld >= D);
  const rb = <usize>D << 2; // bytes of the D columns
  const rs = <usize>ld << 2; // row stride
  const n4 = (<usize>D & ~3) << 2;
  const one = f32x4.splat(1.0);
  const ev = f32x4.splat(eps);
  let o: usize = 0;
  for (; o < n4; o += 16) {
    v128.store(invstd + o, f32x4.div(one, f32x4.sqrt(f32x4.add(v128.load(var_ + o), ev))));
  }
  for (; o < rb; o += 4) {
    store<f32>(invstd + o, <f32>1.0 / sqrt<f32>(load<f32>(var_ + o) + eps));
  }
  for (let i = 0; i < N; i++) {
    const ro = <usize>i * rs;
    const xr = x + ro;
    const hr = xhat + ro;
    const yr = y + ro;
    o = 0;
    for (; o < n4; o += 16) {
      const h = f32x4.mul(f32x4.sub(v128.load(xr + o), v128.load(mean + o)), v128.load(invstd + o));
      v128.store(hr + o, h);
      v128.store(yr + o, f32x4.add(f32x4.mul(h, v128.load(gamma + o)), v128.load(beta + o)));
    }
    for (; o < rb; o += 4) {
      const h = (load<f32>(xr + o) - load<f32>(mean + o)) * load<f32>(invstd + o);
      store<f32>(hr + o, h);
      store<f32>(yr + o, h * load<f32>(gamma + o) + load<f32>(beta + o));
    }
  }
}

export function ref_bn_fwd(
  y: usize, xhat: usize, invstd: usize, x: usize, mean: usize, var_: usize,
  gamma: usize, beta: usize, eps: f32, N: i32, D: i32,
): void {
  assert(N >= 0 && D >= 0);
  for (let j = 0; j < D; j++) {
    const jo = <usize>j << 2;
    store<f32>(invstd + jo, <f32>1.0 / Mathf.sqrt(load<f32>(var_ + jo) + eps));
  }
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < D; j++) {
      const jo = <usize>j << 2;
      const o = (<usize>i * <usize>D + <usize>j) << 2;
      const h = (load<f32>(x + o) - load<f32>(mean + jo)) * load<f32>(invstd + jo);
      store<f32>(xhat + o, h);
      store<f32>(y + o, h * load<f32>(gamma + jo) + load<f32>(beta + jo));
    }
  }
}

/**
 * Batch-norm backward (training mode, batch statistics):
 * dbeta[j] = Σ_i dy[i,j]; dgamma[j] = Σ_i dy[i,j]·xhat[i,j];
 * dx[i,j] = gamma[j]·invstd[j]/N · (N·dy[i,j] − dbeta[j] − xhat[i,j]·dgamma[j]).
 * dgamma, dbeta, invstd, gamma: (D); dx, dy, xhat: (N×D). dx may equal dy.
 */
export function f32_bn_bwd(
  dx: usize, dgamma: usize, dbeta: usize, dy: usize, xhat: usize,
  invstd: usize, gamma: usize, N: i32, D: i32,
): void {
  f32_bn_bwd_ld(dx, dgamma, dbeta, dy, xhat, invstd, gamma, N, D, D);
}

/** f32_bn_bwd over D columns of matrices with row stride ld ≥ D (a column block, for threads). */
export function f32_bn_bwd_ld(
  dx: usize, dgamma: usize, dbeta: usize, dy: usize, xhat: usize,
  invstd: usize, gamma: usize, N: i32, D: i32, ld: i32,
): void {
  assert(N >= 0 && D >= 0 && ld >= D);
  const rb = <usize>D << 2; // bytes of the D columns
  const rs = <usize>ld << 2; // row stride
  const off = xhat - dy; // walk both matrices with one pointer
  const dyEnd = dy + <usize>N * rs;
  let j = 0;
  // Pass 1: column sums, 8 columns at a time (4 accumulators + 4 loads).
  for (; j + 8 <= D; j += 8) {
    let b0 = f32x4.splat(0.0);
    let b1 = f32x4.splat(0.0);
    let g0 = f32x4.splat(0.0);
    let g1 = f32x4.splat(0.0);
    for (let p = dy + (<usize>j << 2); p < dyEnd; p += rs) {
      const d0 = v128.load(p);
      const d1 = v128.load(p, 16);
      b0 = f32x4.add(b0, d0);
      b1 = f32x4.add(b1, d1);
      g0 = f32x4.add(g0, f32x4.mul(d0, v128.load(p + off)));
      g1 = f32x4.add(g1, f32x4.mul(d1, v128.load(p + off, 16)));
    }
    const o = <usize>j << 2;
    v128.store(dbeta + o, b0);
    v128.store(dbeta + o, b1, 16);
    v128.store(dgamma + o, g0);
    v128.store(dgamma + o, g1, 16);
  }
  for (; j + 4 <= D; j += 4) {
    let b0 = f32x4.splat(0.0);
    let g0 = f32x4.splat(0.0);
    for (let p = dy + (<usize>j << 2); p < dyEnd; p += rs) {
      const d0 = v128.load(p);
      b0 = f32x4.add(b0, d0);
      g0 = f32x4.add(g0, f32x4.mul(d0, v128.load(p + off)));
    }
    const o = <usize>j << 2;
    v128.store(dbeta + o, b0);
    v128.store(dgamma + o, g0);
  }
  for (; j < D; j++) {
    let b: f32 = 0;
    let g: f32 = 0;
    for (let p = dy + (<usize>j << 2); p < dyEnd; p += rs) {
      const d = load<f32>(p);
      b += d;
      g += d * load<f32>(p + off);
    }
    store<f32>(dbeta + (<usize>j << 2), b);
    store<f32>(dgamma + (<usize>j << 2), g);
  }
  // Pass 2: dx, row by row.
  const nf = <f32>N;
  const nv = f32x4.splat(nf);
  const n4 = (<usize>D & ~3) << 2;
  for (let i = 0; i < N; i++) {
    const ro = <usize>i * rs;
    const dyr = dy + ro;
    const hr = xhat + ro;
    const dxr = dx + ro;
    let o: usize = 0;
    for (; o < n4; o += 16) {
      const k = f32x4.div(f32x4.mul(v128.load(gamma + o), v128.load(invstd + o)), nv);
      let t = f32x4.sub(f32x4.mul(nv, v128.load(dyr + o)), v128.load(dbeta + o));
      t = f32x4.sub(t, f32x4.mul(v128.load(hr + o), v128.load(dgamma + o)));
      v128.store(dxr + o, f32x4.mul(k, t));
    }
    for (; o < rb; o += 4) {
      const k = (load<f32>(gamma + o) * load<f32>(invstd + o)) / nf;
      let t = nf * load<f32>(dyr + o) - load<f32>(dbeta + o);
      t = t - load<f32>(hr + o) * load<f32>(dgamma + o);
      store<f32>(dxr + o, k * t);
    }
  }
}

export function ref_bn_bwd(
  dx: usize, dgamma: usize, dbeta: usize, dy: usize, xhat: usize,
  invstd: usize, gamma: usize, N: i32, D: i32,
): void {
  assert(N >= 0 && D >= 0);
  for (let j = 0; j < D; j++) {
    let b: f64 = 0;
    let g: f64 = 0;
    for (let i = 0; i < N; i++) {
      const o = (<usize>i * <usize>D + <usize>j) << 2;
      b += <f64>load<f32>(dy + o);
      g += <f64>load<f32>(dy + o) * <f64>load<f32>(xhat + o);
    }
    store<f32>(dbeta + (<usize>j << 2), <f32>b);
    store<f32>(dgamma + (<usize>j << 2), <f32>g);
  }
  const nf = <f32>N;
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < D; j++) {
      const jo = <usize>j << 2;
      const o = (<usize>i * <usize>D + <usize>j) << 2;
      const k = load<f32>(gamma + jo) * load<f32>(invstd + jo) / nf;
      store<f32>(dx + o, k * (nf * load<f32>(dy + o) - load<f32>(dbeta + jo) - load<f32>(xhat + o) * load<f32>(dgamma + jo)));
    }
  }
}
