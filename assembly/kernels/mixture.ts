// 1-D Gaussian mixtures: the N-sized loops of the variational Bayesian Gaussian mixture (VGM,
// src/models/ctgan/vgm.ts) and of its k-means initialisation. The host does every O(K) parameter update
// in f64; these kernels do the O(N·K) work.
//
// Layout. Responsibilities are stored COMPONENT-MAJOR: resp is a row-major (K×N) matrix, row k
// holding component k for every sample, so the SIMD lanes run over four consecutive samples and
// every load and store is contiguous. (The host transposes when it hands (N, K) to a caller.)
//
// Precision, chosen per quantity:
// - x arrives as f32 values that the host has STANDARDISED in f64 (z = (x − mean)/std), so every
//   quantity a kernel sees is O(1) to O(√N) whatever the column's units (fnlwgt ~ 1e5, timestamps
//   ~ 1e9 would lose all their digits in raw f32).
// - The E-step per element, w = c_k − h_k·(z − m_k)², the row logsumexp and the responsibilities,
//   is f32x4 SIMD with the Cephes exp/log polynomials (≈1e-7 relative; exp specialised below to the
//   E-step's domain t ≤ 0). A responsibility is a probability: 1e-7 of it is far below anything the
//   mixture can resolve, and the per-element work (one exp per sample and component, 100
//   iterations) is what must be fast. (A double E-step would halve the lanes and need a longer
//   polynomial, for digits the f64 statistics and the test against sklearn show are not needed.)
// - Everything that is SUMMED over N is accumulated in f64 (f64x2 lanes): the per-component
//   sufficient statistics R_k = Σ r, S1_k = Σ r·d, S2_k = Σ r·d² (d = z − shift_k, products formed
//   in f64 from the f32 inputs), the Σ of the per-row log-normalisers (the score) and the Σ r·log r
//   entropy of the lower bound. sklearn works in f64 and its convergence test compares the change
//   of a lower bound of size O(N) with tol = 1e-3; an f32 accumulator over 15 000 rows would carry
//   errors of that size (and more) by itself, while f64 keeps the sums at the accuracy of the f32
//   terms (random errors, ≈1e-7·√N relative). The variance is accumulated CENTRED on a host-chosen
//   shift (the current component mean), so S2/R − (S1/R)² does not cancel catastrophically.
// - k-means distances are f32 (only the argmin matters); the per-cluster sums are f64.
//
// Every f32x4 expression has a scalar twin performing the same f32 operations in the same order
// (expneg_s/log_s mirror expneg_v/log_v), so per-element outputs (resp, logResp, logNorm, labels)
// are bitwise equal between the SIMD kernels and their ref_* twins; f64 sums differ only in the
// order of f64 additions.
//
// Measured agreement with sklearn (f64) from the same initialisation on Adult's six numeric
// columns (test/models/vgm.test.ts): weights ≤ 5e-5, means ≤ 2e-3σ, covariances ≤ 0.3%, mean
// log-likelihood ≤ 3e-6 nats/sample, lower bound ≤ 6 mnats over 15 060 samples.

import { expneg_s, expneg_v, log_s, log_v } from "../util/simd";

// ---------------------------------------------------------------------------------------------
// E-step.
//
// Three passes over the K components of each block of samples, with resp as the working buffer:
// (1) w = c − h·d² → resp, running max m; (2) t = w − m, e = exp(t) → resp (t → logResp when
// wanted), s = Σ e, q = Σ e·t; (3) r = e/s → resp (log r = t − log s → logResp). The row's
// Σ_k r·log r is q/s − log s (= Σ (e/s)(t − log s), as Σ e/s = 1), so log r need not be stored.
//
// e = exp(t) is flushed to 0 for t < T_FLUSH = −80 (r < 1.8e-35): every f32 value then stays
// normal (s ≤ K, so e/s ≥ e^−80/K > 1.2e-38), and denormal operands cost ~100 cycles each on x86
// (a column with narrow modes, like education-num, had most of its far-away components there).
// Such responsibilities are far below the 10·eps that sklearn adds to every N_k.

const T_FLUSH: f32 = -80.0;

// exp(t) for t in [T_FLUSH, 0] is util/simd.ts's expneg_v/expneg_s: Cephes expf specialised to
// non-positive inputs.

/**
 * One sample of the E-step in scalar f32, the same operations in the same order as one lane of
 * f32_vgm_estep (rp0/lp0: the sample's entries in resp/logResp, stride rowBytes; lp0 may be 0).
 * Returns (lse, Σ r·log r) in lanes 0 and 1.
 */
// @ts-ignore: decorator
@inline function estepRow(
  rp0: usize, lp0: usize, rowBytes: usize, xi: f32, K: i32, means: usize, halfPrec: usize, consts: usize,
): v128 {
  let mx: f32 = -Infinity;
  let rp = rp0;
  for (let k = 0; k < K; k++) {
    const ko = <usize>k << 2;
    const d = xi - load<f32>(means + ko);
    const w = load<f32>(consts + ko) - load<f32>(halfPrec + ko) * (d * d);
    store<f32>(rp, w);
    mx = select<f32>(w, mx, mx < w); // = f32x4.pmax(mx, w)
    rp += rowBytes;
  }
  let s: f32 = 0;
  let q: f32 = 0;
  rp = rp0;
  let lp = lp0;
  for (let k = 0; k < K; k++) {
    const t = load<f32>(rp) - mx;
    const e = select<f32>(0, expneg_s(select<f32>(T_FLUSH, t, t < T_FLUSH)), t < T_FLUSH);
    store<f32>(rp, e);
    if (lp0) store<f32>(lp, t);
    s = s + e;
    q = q + e * t;
    rp += rowBytes;
    lp += rowBytes;
  }
  const ls = log_s(s);
  const inv = <f32>1.0 / s;
  rp = rp0;
  lp = lp0;
  for (let k = 0; k < K; k++) {
    store<f32>(rp, load<f32>(rp) * inv);
    if (lp0) store<f32>(lp, load<f32>(lp) - ls);
    rp += rowBytes;
    lp += rowBytes;
  }
  return f32x4.replace_lane(f32x4.splat(mx + ls), 1, q * inv - ls);
}

/**
 * E-step of a 1-D mixture with per-component quadratic log-densities.
 * For each sample i and component k: w_ik = consts[k] − halfPrec[k]·(x_i − means[k])²;
 * with m_i = max_k w_ik and s_i = Σ_k exp(w_ik − m_i): lse_i = m_i + log s_i (the logsumexp),
 * resp[k,i] = exp(w_ik − m_i) / s_i, logResp[k,i] = (w_ik − m_i) − log s_i (w − m is exact for the
 * components that matter, so log r keeps its accuracy even when |w| is large).
 * Outputs: resp (K×N, required; also the working buffer), logResp (K×N) and logNorm (N) optional
 * (0 = not written), sums: two f64, sums[0] = Σ_i lse_i, sums[1] = Σ_i Σ_k r·log r (the negative
 * entropy, per row as q/s − log s, see above).
 * means, halfPrec, consts: (K) f32; x: (N) f32. K ≥ 1, halfPrec ≥ 0, finite inputs.
 * The sums are taken block by block (VGM_BLOCK samples from sample 0): each block's sum from zero,
 * then the blocks' sums in order, so that f32_vgm_estep_blocks on block-aligned row ranges (the
 * threaded engine) gives the same sums bit for bit.
 */
export function f32_vgm_estep(
  resp: usize, logResp: usize, logNorm: usize, sums: usize,
  x: usize, N: i32, K: i32, means: usize, halfPrec: usize, consts: usize,
): void {
  assert(N >= 0 && K >= 1);
  const rowBytes = <usize>N << 2;
  let sumL: f64 = 0;
  let sumE: f64 = 0;
  for (let b = 0; b < N; b += VGM_BLOCK) {
    const io = <usize>b << 2;
    const r = estepRange(resp + io, logResp ? logResp + io : 0, logNorm ? logNorm + io : 0, x + io, min(VGM_BLOCK, N - b), K, means, halfPrec, consts, rowBytes);
    sumL += f64x2.extract_lane(r, 0);
    sumE += f64x2.extract_lane(r, 1);
  }
  store<f64>(sums, sumL);
  store<f64>(sums, sumE, 8);
}

/** Samples per block of the E-step's sums (a multiple of 4). */
export const VGM_BLOCK: i32 = 256;

/**
 * f32_vgm_estep over samples [0, N) of a larger problem whose resp/logResp rows have stride ldr
 * samples (pointers at the first sample of the range, which starts on a VGM_BLOCK boundary):
 * writes each block's (Σ lse, Σ r·log r) as two f64 at partials + 16·block, for the host to add in
 * block order. For the threaded engine.
 */
export function f32_vgm_estep_blocks(
  resp: usize, logResp: usize, logNorm: usize, partials: usize,
  x: usize, N: i32, K: i32, means: usize, halfPrec: usize, consts: usize, ldr: i32,
): void {
  assert(N >= 0 && K >= 1 && ldr >= N);
  const rowBytes = <usize>ldr << 2;
  let out = partials;
  for (let b = 0; b < N; b += VGM_BLOCK) {
    const io = <usize>b << 2;
    v128.store(out, estepRange(resp + io, logResp ? logResp + io : 0, logNorm ? logNorm + io : 0, x + io, min(VGM_BLOCK, N - b), K, means, halfPrec, consts, rowBytes));
    out += 16;
  }
}

// Samples [0, n) (pointers at the first), component stride rowBytes: returns f64x2(Σ lse, Σ r·log r).
// @ts-ignore: decorator
@inline function estepRange(
  resp: usize, logResp: usize, logNorm: usize, x: usize, N: i32, K: i32,
  means: usize, halfPrec: usize, consts: usize, rowBytes: usize,
): v128 {
  const n4 = <i32>(<u32>N & ~3);
  let accL0 = f64x2.splat(0);
  let accL1 = f64x2.splat(0);
  let accE0 = f64x2.splat(0);
  let accE1 = f64x2.splat(0);
  const one = f32x4.splat(1.0);
  let i = 0;
  for (; i < n4; i += 4) {
    const io = <usize>i << 2;
    const xv = v128.load(x + io);
    // pass 1: w → resp, row maxima
    let mx = f32x4.splat(-Infinity);
    let rp = resp + io;
    for (let k = 0; k < K; k++) {
      const ko = <usize>k << 2;
      const d = f32x4.sub(xv, v128.load32_splat(means + ko));
      const w = f32x4.sub(v128.load32_splat(consts + ko), f32x4.mul(v128.load32_splat(halfPrec + ko), f32x4.mul(d, d)));
      v128.store(rp, w);
      mx = f32x4.pmax(mx, w); // one maxps (no NaN can occur: the host passes finite data)
      rp += rowBytes;
    }
    // pass 2: t = w − max, e = exp(t) → resp, Σ e, Σ e·t
    let s = f32x4.splat(0.0);
    let q = f32x4.splat(0.0);
    rp = resp + io;
    let lp = logResp + io;
    for (let k = 0; k < K; k++) {
      const t = f32x4.sub(v128.load(rp), mx);
      const far = f32x4.lt(t, f32x4.splat(T_FLUSH));
      const e = v128.andnot(expneg_v(f32x4.pmax(t, f32x4.splat(T_FLUSH))), far); // exp never sees t < −80
      v128.store(rp, e);
      if (logResp) v128.store(lp, t);
      s = f32x4.add(s, e);
      q = f32x4.add(q, f32x4.mul(e, t));
      rp += rowBytes;
      lp += rowBytes;
    }
    const ls = log_v(s);
    const inv = f32x4.div(one, s);
    // pass 3: r = e / Σe (log r = t − log Σe)
    rp = resp + io;
    if (logResp) {
      lp = logResp + io;
      for (let k = 0; k < K; k++) {
        v128.store(rp, f32x4.mul(v128.load(rp), inv));
        v128.store(lp, f32x4.sub(v128.load(lp), ls));
        rp += rowBytes;
        lp += rowBytes;
      }
    } else {
      for (let k = 0; k < K; k++) {
        v128.store(rp, f32x4.mul(v128.load(rp), inv));
        rp += rowBytes;
      }
    }
    const lse = f32x4.add(mx, ls);
    const ent = f32x4.sub(f32x4.mul(q, inv), ls);
    if (logNorm) v128.store(logNorm + io, lse);
    accL0 = f64x2.add(accL0, f64x2.promote_low_f32x4(lse));
    accL1 = f64x2.add(accL1, f64x2.promote_low_f32x4(f32x4.shuffle(lse, lse, 2, 3, 2, 3)));
    accE0 = f64x2.add(accE0, f64x2.promote_low_f32x4(ent));
    accE1 = f64x2.add(accE1, f64x2.promote_low_f32x4(f32x4.shuffle(ent, ent, 2, 3, 2, 3)));
  }
  let sumL = (f64x2.extract_lane(accL0, 0) + f64x2.extract_lane(accL0, 1)) + (f64x2.extract_lane(accL1, 0) + f64x2.extract_lane(accL1, 1));
  let sumE = (f64x2.extract_lane(accE0, 0) + f64x2.extract_lane(accE0, 1)) + (f64x2.extract_lane(accE1, 0) + f64x2.extract_lane(accE1, 1));
  for (; i < N; i++) {
    const io = <usize>i << 2;
    const le = estepRow(resp + io, logResp ? logResp + io : 0, rowBytes, load<f32>(x + io), K, means, halfPrec, consts);
    const lse = f32x4.extract_lane(le, 0);
    if (logNorm) store<f32>(logNorm + io, lse);
    sumL += <f64>lse;
    sumE += <f64>f32x4.extract_lane(le, 1);
  }
  return f64x2.replace_lane(f64x2.splat(sumL), 1, sumE);
}

export function ref_vgm_estep(
  resp: usize, logResp: usize, logNorm: usize, sums: usize,
  x: usize, N: i32, K: i32, means: usize, halfPrec: usize, consts: usize,
): void {
  assert(N >= 0 && K >= 1);
  const rowBytes = <usize>N << 2;
  let sumL: f64 = 0;
  let sumE: f64 = 0;
  for (let i = 0; i < N; i++) {
    const io = <usize>i << 2;
    const le = estepRow(resp + io, logResp ? logResp + io : 0, rowBytes, load<f32>(x + io), K, means, halfPrec, consts);
    const lse = f32x4.extract_lane(le, 0);
    if (logNorm) store<f32>(logNorm + io, lse);
    sumL += <f64>lse;
    sumE += <f64>f32x4.extract_lane(le, 1);
  }
  store<f64>(sums, sumL);
  store<f64>(sums, sumE, 8);
}

// ---------------------------------------------------------------------------------------------
// M-step sufficient statistics.

/**
 * Per component k, over the samples i (d = x_i − shift[k], products and sums in f64):
 * stats[k] = Σ_i r_ki, stats[K + k] = Σ_i r_ki·d, stats[2K + k] = Σ_i r_ki·d².
 * resp: (K×N) f32; x: (N) f32; shift: (K) f32; stats: (3K) f64, written.
 */
export function f32_vgm_mstep(stats: usize, resp: usize, x: usize, N: i32, K: i32, shift: usize): void {
  assert(N >= 0 && K >= 0);
  const rowBytes = <usize>N << 2;
  const n4 = <i32>(<u32>N & ~3);
  for (let k = 0; k < K; k++) {
    const row = resp + <usize>k * rowBytes;
    const shf = <f64>load<f32>(shift + (<usize>k << 2));
    const sv = f64x2.splat(shf);
    let r0 = f64x2.splat(0);
    let r1 = f64x2.splat(0);
    let a0 = f64x2.splat(0);
    let a1 = f64x2.splat(0);
    let q0 = f64x2.splat(0);
    let q1 = f64x2.splat(0);
    let i = 0;
    for (; i < n4; i += 4) {
      const io = <usize>i << 2;
      const rv = v128.load(row + io);
      const xv = v128.load(x + io);
      const rl = f64x2.promote_low_f32x4(rv);
      const rh = f64x2.promote_low_f32x4(f32x4.shuffle(rv, rv, 2, 3, 2, 3));
      const dl = f64x2.sub(f64x2.promote_low_f32x4(xv), sv);
      const dh = f64x2.sub(f64x2.promote_low_f32x4(f32x4.shuffle(xv, xv, 2, 3, 2, 3)), sv);
      const rdl = f64x2.mul(rl, dl);
      const rdh = f64x2.mul(rh, dh);
      r0 = f64x2.add(r0, rl);
      r1 = f64x2.add(r1, rh);
      a0 = f64x2.add(a0, rdl);
      a1 = f64x2.add(a1, rdh);
      q0 = f64x2.add(q0, f64x2.mul(rdl, dl));
      q1 = f64x2.add(q1, f64x2.mul(rdh, dh));
    }
    let R = (f64x2.extract_lane(r0, 0) + f64x2.extract_lane(r0, 1)) + (f64x2.extract_lane(r1, 0) + f64x2.extract_lane(r1, 1));
    let S1 = (f64x2.extract_lane(a0, 0) + f64x2.extract_lane(a0, 1)) + (f64x2.extract_lane(a1, 0) + f64x2.extract_lane(a1, 1));
    let S2 = (f64x2.extract_lane(q0, 0) + f64x2.extract_lane(q0, 1)) + (f64x2.extract_lane(q1, 0) + f64x2.extract_lane(q1, 1));
    for (; i < N; i++) {
      const io = <usize>i << 2;
      const r = <f64>load<f32>(row + io);
      const d = <f64>load<f32>(x + io) - shf;
      const rd = r * d;
      R += r;
      S1 += rd;
      S2 += rd * d;
    }
    const ko = <usize>k << 3;
    store<f64>(stats + ko, R);
    store<f64>(stats + ko + (<usize>K << 3), S1);
    store<f64>(stats + ko + (<usize>K << 4), S2);
  }
}

export function ref_vgm_mstep(stats: usize, resp: usize, x: usize, N: i32, K: i32, shift: usize): void {
  assert(N >= 0 && K >= 0);
  for (let k = 0; k < K; k++) {
    const shf = <f64>load<f32>(shift + (<usize>k << 2));
    let R: f64 = 0;
    let S1: f64 = 0;
    let S2: f64 = 0;
    for (let i = 0; i < N; i++) {
      const r = <f64>load<f32>(resp + ((<usize>k * <usize>N + <usize>i) << 2));
      const d = <f64>load<f32>(x + (<usize>i << 2)) - shf;
      R += r;
      S1 += r * d;
      S2 += r * d * d;
    }
    const ko = <usize>k << 3;
    store<f64>(stats + ko, R);
    store<f64>(stats + ko + (<usize>K << 3), S1);
    store<f64>(stats + ko + (<usize>K << 4), S2);
  }
}

// ---------------------------------------------------------------------------------------------
// k-means (Lloyd) assignment step.

/**
 * labels[i] = argmin_k (x_i − centers[k])² (f32; ties go to the lowest k). Returns how many labels
 * differ from what labels held before the call. sums: (2K) f64, written: sums[k] = number of samples
 * in cluster k, sums[K + k] = Σ of their x (in sample order). labels: (N) i32; centers: (K) f32.
 */
export function f32_kmeans_assign(labels: usize, sums: usize, x: usize, N: i32, centers: usize, K: i32): i32 {
  assert(N >= 0 && K >= 1);
  const Kb = <usize>K << 3;
  for (let k = 0; k < K; k++) {
    store<f64>(sums + (<usize>k << 3), 0);
    store<f64>(sums + Kb + (<usize>k << 3), 0);
  }
  const n4 = <i32>(<u32>N & ~3);
  let changed = 0;
  let i = 0;
  for (; i < n4; i += 4) {
    const io = <usize>i << 2;
    const xv = v128.load(x + io);
    let best = f32x4.splat(Infinity);
    let idx = i32x4.splat(0);
    for (let k = 0; k < K; k++) {
      const d = f32x4.sub(xv, v128.load32_splat(centers + (<usize>k << 2)));
      const d2 = f32x4.mul(d, d);
      const lt = f32x4.lt(d2, best);
      best = v128.bitselect(d2, best, lt);
      idx = v128.bitselect(i32x4.splat(k), idx, lt);
    }
    const old = v128.load(labels + io);
    v128.store(labels + io, idx);
    // lanes that changed are −1 in the comparison mask
    const ne = i32x4.ne(old, idx);
    changed -= (i32x4.extract_lane(ne, 0) + i32x4.extract_lane(ne, 1)) + (i32x4.extract_lane(ne, 2) + i32x4.extract_lane(ne, 3));
    scatterOne(sums, Kb, i32x4.extract_lane(idx, 0), f32x4.extract_lane(xv, 0));
    scatterOne(sums, Kb, i32x4.extract_lane(idx, 1), f32x4.extract_lane(xv, 1));
    scatterOne(sums, Kb, i32x4.extract_lane(idx, 2), f32x4.extract_lane(xv, 2));
    scatterOne(sums, Kb, i32x4.extract_lane(idx, 3), f32x4.extract_lane(xv, 3));
  }
  for (; i < N; i++) changed += assignOne(labels, sums, Kb, x, i, centers, K);
  return changed;
}

// @ts-ignore: decorator
@inline function scatterOne(sums: usize, Kb: usize, label: i32, xi: f32): void {
  const o = sums + (<usize>label << 3);
  store<f64>(o, load<f64>(o) + 1);
  store<f64>(o + Kb, load<f64>(o + Kb) + <f64>xi);
}

/** Scalar assignment of sample i; returns 1 when its label changed. */
// @ts-ignore: decorator
@inline function assignOne(labels: usize, sums: usize, Kb: usize, x: usize, i: i32, centers: usize, K: i32): i32 {
  const io = <usize>i << 2;
  const xi = load<f32>(x + io);
  let best: f32 = Infinity;
  let idx = 0;
  for (let k = 0; k < K; k++) {
    const d = xi - load<f32>(centers + (<usize>k << 2));
    const d2 = d * d;
    if (d2 < best) {
      best = d2;
      idx = k;
    }
  }
  const old = load<i32>(labels + io);
  store<i32>(labels + io, idx);
  scatterOne(sums, Kb, idx, xi);
  return old != idx ? 1 : 0;
}

export function ref_kmeans_assign(labels: usize, sums: usize, x: usize, N: i32, centers: usize, K: i32): i32 {
  assert(N >= 0 && K >= 1);
  const Kb = <usize>K << 3;
  for (let k = 0; k < K; k++) {
    store<f64>(sums + (<usize>k << 3), 0);
    store<f64>(sums + Kb + (<usize>k << 3), 0);
  }
  let changed = 0;
  for (let i = 0; i < N; i++) changed += assignOne(labels, sums, Kb, x, i, centers, K);
  return changed;
}
