// The variational Gaussian mixture (VGM) CTGAN's data transformer fits to every numeric column:
// scikit-learn 1.2's BayesianGaussianMixture for 1-D data, re-derived from its maths, with
//   n_components 10, weight_concentration_prior_type 'dirichlet_process' (stick breaking),
//   weight_concentration_prior 0.001, covariance_type 'full' (a scalar variance in 1-D),
//   reg_covar 1e-6, mean_precision_prior 1, mean_prior = the data mean,
//   degrees_of_freedom_prior 1 (= n_features), covariance_prior = the data variance (ddof 1),
//   max_iter 100, tol 1e-3 on the change of the lower bound, n_init 1, init_params 'kmeans'.
//
// The model (Bishop §10.2 with a stick-breaking prior on the weights; sklearn's notation):
//   weights: v_k ~ Beta(1, α0), π_k = v_k Π_{j<k} (1 − v_j); posterior Beta(a_k, b_k) with
//            a_k = 1 + N_k, b_k = α0 + Σ_{j>k} N_j;
//   means:   μ_k | λ_k ~ N(m0, 1/(β0 λ_k)); posterior N(m_k, 1/(β_k λ_k)) with β_k = β0 + N_k,
//            m_k = (β0 m0 + N_k x̄_k)/β_k;
//   precisions: λ_k ~ Wishart(ν0, W0) (1-D: a Gamma); posterior ν_k = ν0 + N_k and covariance
//            (1/E[λ_k] scaled) σ²_k = (ψ0 + N_k S_k + N_k β0/β_k (x̄_k − m0)²)/ν_k, where
//            N_k = Σ_i r_ik + 10·eps, x̄_k = Σ_i r_ik x_i / N_k, S_k = Σ_i r_ik (x_i − x̄_k)²/N_k + reg_covar.
//   E-step:  log ρ_ik = E[log π_k] + E[log N(x_i | μ_k, λ_k⁻¹)]
//            = ψ(a_k) − ψ(a_k + b_k) + Σ_{j<k} (ψ(b_j) − ψ(a_j + b_j))
//              − ½ log 2π + log p_k − ½ log ν_k − ½ p_k² (x_i − m_k)² + ½ (log 2 + ψ(ν_k/2) − 1/β_k),
//            with p_k = 1/σ_k; r_ik = ρ_ik / Σ_j ρ_ij.
//   lower bound (sklearn's, up to constants): −Σ r log r − Σ_k log B_k − Σ_k (−log Beta(a_k, b_k))
//            − ½ Σ_k log β_k, with log B_k = −(ν_k (log p_k − ½ log ν_k) + ν_k ½ log 2 + lgamma(ν_k/2)).
// Iteration (sklearn's fit_predict): initialise with an M-step from one-hot k-means labels; then
// repeat E-step, M-step, lower bound until |Δ lower bound| < tol or max_iter iterations. The model
// is the parameters after the last M-step. sklearn's fit_predict then runs one more E-step only to
// label the samples; that changes no parameter, and `vgmPredict` gives those labels.
//
// Division of labour: the O(N·K) loops (E-step with logsumexp, M-step sufficient statistics,
// k-means assignment) are wasm kernels (assembly/kernels/mixture.ts); every O(K) update, the
// digamma/lgamma terms and the lower bound are f64 here. The kernels see the data standardised
// (z = (x − m0)/√ψ0, f32) so f32 keeps its digits for any column scale; the statistics come back as
// f64 sums and are mapped back to data units here, where all parameters live.
//
// k-means follows sklearn's KMeans(n_clusters = K, n_init = 1): k-means++ seeding with
// 2 + ⌊ln K⌋ greedy local trials, Lloyd iterations (max 300, tol 1e-4 × the data variance on the
// squared centre shift, or strict convergence when no label changes), empty clusters moved to the
// samples farthest from their centres, final labels from the final centres. Its random draws come
// from our seeded Rng, so the k-means solution (and hence the VGM) differs from sklearn's for the
// same seed number; the tests compare against the spread of sklearn's fits over several seeds and,
// with a shared deterministic initialisation, against sklearn's exact trajectory.
import type { Engine } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { log as fdlog } from '../../engine/fdlibm.js';

export interface VgmOptions {
  nComponents?: number;
  weightConcentrationPrior?: number;
  maxIter?: number;
  tol?: number;
  seed?: number;
}

export interface VgmModel {
  /** E[π_k] under the stick-breaking posterior, normalised (sklearn's weights_). */
  weights: Float64Array;
  /** posterior means m_k (sklearn's means_). */
  means: Float64Array;
  /** √σ²_k: the square root of each component's covariance (sklearn's covariances_). */
  stds: Float64Array;
  converged: boolean;
  /** iterations run (sklearn's n_iter_). */
  nIter: number;
  /** the lower bound of the last iteration (sklearn's lower_bound_; −Infinity when maxIter is 0). */
  lowerBound: number;
  /** σ²_k (exact; stds are their square roots). */
  covariances: Float64Array;
  /** Beta posterior of the sticks (sklearn's weight_concentration_[0], [1]). */
  weightConcentrationA: Float64Array;
  weightConcentrationB: Float64Array;
  /** β_k (sklearn's mean_precision_). */
  meanPrecision: Float64Array;
  /** ν_k (sklearn's degrees_of_freedom_). */
  degreesOfFreedom: Float64Array;
  /** The priors: m0 (the data mean), ψ0 (the data variance, ddof 1), α0, β0, ν0, reg_covar. */
  meanPrior: number;
  covariancePrior: number;
  weightConcentrationPrior: number;
  meanPrecisionPrior: number;
  degreesOfFreedomPrior: number;
  regCovar: number;
}

const EPS = 2.220446049250313e-16; // np.finfo(float64).eps
const REG_COVAR = 1e-6;
const MEAN_PRECISION_PRIOR = 1;
const DOF_PRIOR = 1; // n_features
const LOG_2PI = fdlog(2 * Math.PI);
const LN2 = Math.LN2;
/**
 * Rows per kernel call: the (K × CHUNK) f32 buffers stay in cache between E and M step (not a power of two: K rows at a
 * 2^k-byte stride would share cache sets).
 */
const CHUNK = 3000;
/** Standardised values are clamped here in predictions (a finite f32 E-step for any finite input). */
const Z_CLAMP = 1e6;
const KMEANS_MAX_ITER = 300;
const KMEANS_TOL = 1e-4;

// ---------------------------------------------------------------------------------------------
// Special functions (f64): digamma, lgamma, betaln.

/** ψ(x) for x > 0: recurrence up to x ≥ 10, then the asymptotic series (error < 1e-14). */
export function digamma(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  let r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  // 1/(12x²) − 1/(120x⁴) + 1/(252x⁶) − 1/(240x⁸) + 1/(132x¹⁰) − 691/(32760x¹²)
  const t = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132 - f * (691 / 32760))))));
  return r + fdlog(x) - 0.5 / x - t;
}

/** log Γ(x) for x > 0: recurrence up to x ≥ 10, then Stirling's series (error < 1e-14 absolute). */
export function lgamma(x: number): number {
  if (!(x > 0)) return x === 0 ? Infinity : NaN;
  let shift = 0;
  let prod = 1;
  while (x < 10) {
    prod *= x;
    x += 1;
    if (prod < 1e-280 || prod > 1e280) {
      shift += fdlog(prod);
      prod = 1;
    }
  }
  shift += fdlog(prod);
  const f = 1 / (x * x);
  // 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) − 691/(360360x¹¹)
  const s = (1 / 12 - f * (1 / 360 - f * (1 / 1260 - f * (1 / 1680 - f * (1 / 1188 - f * (691 / 360360)))))) / x;
  return (x - 0.5) * fdlog(x) - x + 0.5 * LOG_2PI + s - shift;
}

/** log B(a, b) = lgamma(a) + lgamma(b) − lgamma(a + b). */
export function betaln(a: number, b: number): number {
  return lgamma(a) + lgamma(b) - lgamma(a + b);
}

// ---------------------------------------------------------------------------------------------
// Validation.

function checkData(x: unknown, op: string): Float64Array | number[] {
  if (!(x instanceof Float64Array) && !(x instanceof Float32Array) && !Array.isArray(x)) {
    throw new EngineError('E_ARG', `${op}: x must be a Float64Array (or an array of numbers)`);
  }
  const a = x as Float64Array;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new EngineError('E_VALUE', `${op}: x[${i}] is ${String(v)}, not a finite number`);
    }
  }
  return a;
}

interface Settings {
  K: number;
  alpha0: number;
  maxIter: number;
  tol: number;
  seed: number;
}

function settings(opts: VgmOptions | undefined, op: string): Settings {
  const o = opts ?? {};
  if (typeof o !== 'object') throw new EngineError('E_ARG', `${op}: options must be an object`);
  const K = o.nComponents ?? 10;
  const alpha0 = o.weightConcentrationPrior ?? 0.001;
  const maxIter = o.maxIter ?? 100;
  const tol = o.tol ?? 1e-3;
  const seed = o.seed ?? 0;
  check(
    Number.isInteger(K) && K >= 1 && K <= 1000,
    'E_ARG',
    () => `${op}: nComponents must be an integer in [1, 1000], got ${K}`,
  );
  check(
    typeof alpha0 === 'number' && Number.isFinite(alpha0) && alpha0 > 0,
    'E_ARG',
    () => `${op}: weightConcentrationPrior must be a finite number > 0, got ${alpha0}`,
  );
  check(
    Number.isInteger(maxIter) && maxIter >= 0,
    'E_ARG',
    () => `${op}: maxIter must be a non-negative integer, got ${maxIter}`,
  );
  check(
    typeof tol === 'number' && Number.isFinite(tol) && tol >= 0,
    'E_ARG',
    () => `${op}: tol must be a finite number >= 0, got ${tol}`,
  );
  check(
    Number.isSafeInteger(seed) && seed >= 0,
    'E_ARG',
    () => `${op}: seed must be a non-negative integer, got ${seed}`,
  );
  return { K, alpha0, maxIter, tol, seed };
}

// ---------------------------------------------------------------------------------------------
// wasm buffers: views are made fresh at each use (an allocation may grow memory and detach them).

const f32At = (e: Engine, ptr: number, n: number) => new Float32Array(e.k.memory.buffer, ptr, n);
const f64At = (e: Engine, ptr: number, n: number) => new Float64Array(e.k.memory.buffer, ptr, n);
const i32At = (e: Engine, ptr: number, n: number) => new Int32Array(e.k.memory.buffer, ptr, n);
/** A scratch buffer of `bytes` bytes in the current scope. */
const scratch = (e: Engine, bytes: number): number => e.empty([Math.ceil(bytes / 4)]).ptr;

/** Data mean (compensated sum) and variance with ddof 1 (numpy's np.cov of a column). */
function moments(x: ArrayLike<number>): { mean: number; variance: number } {
  const n = x.length;
  let s = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const t = s + x[i];
    c += Math.abs(s) >= Math.abs(x[i]) ? s - t + x[i] : x[i] - t + s;
    s = t;
  }
  const mean = (s + c) / n;
  let q = 0;
  let cq = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    const y = d * d - cq;
    const t = q + y;
    cq = t - q - y;
    q = t;
  }
  return { mean, variance: n > 1 ? q / (n - 1) : 0 };
}

/** The standardisation the kernels work in: z = (x − m0)/scale. */
const scaleOf = (covariancePrior: number): number => (covariancePrior > 0 ? Math.sqrt(covariancePrior) : 1);

// ---------------------------------------------------------------------------------------------
// Parameters (f64, data units).

interface Params {
  K: number;
  a: Float64Array;
  b: Float64Array;
  beta: Float64Array;
  m: Float64Array;
  nu: Float64Array;
  cov: Float64Array;
}

interface Priors {
  alpha0: number;
  beta0: number;
  m0: number;
  nu0: number;
  psi0: number;
  reg: number;
}

/**
 * M-step from the kernel's sufficient statistics in standardised units (R, S1, S2 centred on
 * shift_k), sklearn's _estimate_weights / _estimate_means / _estimate_wishart_full.
 */
function mStep(p: Params, pr: Priors, stats: Float64Array, shift: Float32Array, scale: number): void {
  const K = p.K;
  const nk = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    const R = stats[k];
    const S1 = stats[K + k];
    const S2 = stats[2 * K + k];
    const n = R + 10 * EPS;
    const delta = S1 / n; // x̄_k − shift_k (standardised)
    const sz = Math.max(0, (S2 - 2 * delta * S1 + delta * delta * R) / n); // Σ r (z − x̄)² / N_k
    nk[k] = n;
    const xbar = pr.m0 + scale * (shift[k] + delta);
    const sk = scale * scale * sz + pr.reg;
    // means
    p.beta[k] = pr.beta0 + n;
    p.m[k] = (pr.beta0 * pr.m0 + n * xbar) / p.beta[k];
    // Wishart (1-D)
    p.nu[k] = pr.nu0 + n;
    const diff = xbar - pr.m0;
    p.cov[k] = (pr.psi0 + n * sk + ((n * pr.beta0) / p.beta[k]) * (diff * diff)) / p.nu[k];
  }
  // stick-breaking weights: a_k = 1 + N_k, b_k = α0 + Σ_{j>k} N_j
  let tail = 0;
  for (let k = K - 1; k >= 0; k--) {
    p.a[k] = 1 + nk[k];
    p.b[k] = pr.alpha0 + tail;
    tail += nk[k];
  }
}

/** E[log π_k] under the stick-breaking posterior (sklearn's _estimate_log_weights). */
function logWeights(p: Params): Float64Array {
  const out = new Float64Array(p.K);
  let acc = 0;
  for (let k = 0; k < p.K; k++) {
    const ds = digamma(p.a[k] + p.b[k]);
    out[k] = digamma(p.a[k]) - ds + acc;
    acc += digamma(p.b[k]) - ds;
  }
  return out;
}

/** The kernel's E-step inputs (standardised units): means, ½·precision, constants. */
function eStepInputs(
  p: Params,
  m0: number,
  scale: number,
  means: Float32Array,
  halfPrec: Float32Array,
  consts: Float32Array,
): void {
  const lw = logWeights(p);
  const logScale = fdlog(scale);
  for (let k = 0; k < p.K; k++) {
    const prec = 1 / p.cov[k]; // p_k² (sklearn's precisions_cholesky_ squared)
    const logPc = -0.5 * fdlog(p.cov[k]);
    const c =
      lw[k] - 0.5 * LOG_2PI + logPc - 0.5 * fdlog(p.nu[k]) + 0.5 * (LN2 + digamma(0.5 * p.nu[k]) - 1 / p.beta[k]);
    means[k] = (p.m[k] - m0) / scale;
    halfPrec[k] = 0.5 * prec * scale * scale;
    consts[k] = c + logScale; // the density of z = (x − m0)/scale
  }
}

/** sklearn's _compute_lower_bound (n_features 1), given Σ r log r of the E-step. */
function lowerBound(p: Params, sumRLogR: number): number {
  let logWishart = 0;
  let logNormWeight = 0;
  let logBeta = 0;
  for (let k = 0; k < p.K; k++) {
    const ldpc = -0.5 * fdlog(p.cov[k]) - 0.5 * fdlog(p.nu[k]);
    logWishart += -(p.nu[k] * ldpc + p.nu[k] * 0.5 * LN2 + lgamma(0.5 * p.nu[k]));
    logNormWeight -= betaln(p.a[k], p.b[k]);
    logBeta += fdlog(p.beta[k]);
  }
  return -sumRLogR - logWishart - logNormWeight - 0.5 * logBeta;
}

/** sklearn's weights_: E[v_k] Π_{j<k} E[1 − v_j], normalised. */
function expectedWeights(a: Float64Array, b: Float64Array): Float64Array {
  const K = a.length;
  const w = new Float64Array(K);
  let stick = 1;
  let s = 0;
  for (let k = 0; k < K; k++) {
    const t = a[k] + b[k];
    w[k] = (a[k] / t) * stick;
    stick *= b[k] / t;
    s += w[k];
  }
  for (let k = 0; k < K; k++) w[k] /= s;
  return w;
}

// ---------------------------------------------------------------------------------------------
// k-means (sklearn's KMeans, n_init 1) on the standardised data.

/** k-means++ seeding (sklearn's _kmeans_plusplus with 2 + ⌊ln K⌋ local trials); returns centres. */
function kmeansPlusPlus(z: Float32Array, K: number, u: Float64Array): Float64Array {
  const N = z.length;
  const trials = 2 + Math.floor(fdlog(K));
  const centres = new Float64Array(K);
  let ui = 0;
  const first = Math.min(N - 1, Math.floor(u[ui++] * N));
  centres[0] = z[first];
  const closest = new Float64Array(N);
  let pot = 0;
  for (let i = 0; i < N; i++) {
    const d = z[i] - centres[0];
    closest[i] = d * d;
    pot += closest[i];
  }
  const cum = new Float64Array(N);
  const cand = new Float64Array(N);
  const best = new Float64Array(N);
  for (let c = 1; c < K; c++) {
    let s = 0;
    for (let i = 0; i < N; i++) {
      s += closest[i];
      cum[i] = s;
    }
    let bestPot = Infinity;
    let bestVal = 0;
    for (let t = 0; t < trials; t++) {
      const r = u[ui++] * pot;
      // searchsorted (side left): the first i with cum[i] >= r
      let lo = 0;
      let hi = N;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cum[mid] < r) lo = mid + 1;
        else hi = mid;
      }
      const id = Math.min(lo, N - 1);
      const v = z[id];
      let cp = 0;
      for (let i = 0; i < N; i++) {
        const d = z[i] - v;
        const m = Math.min(closest[i], d * d);
        cand[i] = m;
        cp += m;
      }
      if (cp < bestPot) {
        bestPot = cp;
        bestVal = v;
        best.set(cand);
      }
    }
    pot = bestPot;
    closest.set(best);
    centres[c] = bestVal;
  }
  return centres;
}

/**
 * Lloyd's k-means from the given centres; leaves the final labels in the wasm buffer `labels`.
 * zPtr/labels/sums/centresPtr are wasm buffers of N f32, N i32, 2K f64, K f32.
 */
function lloyd(
  e: Engine,
  zPtr: number,
  z: Float32Array,
  N: number,
  K: number,
  init: Float64Array,
  labels: number,
  sums: number,
  centresPtr: number,
): void {
  const variance = (() => {
    let m = 0;
    for (let i = 0; i < N; i++) m += z[i];
    m /= N;
    let q = 0;
    for (let i = 0; i < N; i++) q += (z[i] - m) * (z[i] - m);
    return q / N;
  })();
  const tol = variance * KMEANS_TOL;
  const centres = Float64Array.from(init);
  i32At(e, labels, N).fill(-1);
  let strict = false;
  for (let it = 0; it < KMEANS_MAX_ITER; it++) {
    f32At(e, centresPtr, K).set(centres);
    const changed = e.k.f32_kmeans_assign(labels, sums, zPtr, N, centresPtr, K);
    const s = f64At(e, sums, 2 * K);
    const count = s.slice(0, K);
    const total = s.slice(K, 2 * K);
    const old = f32At(e, centresPtr, K).slice();
    relocateEmpty(e, z, N, K, labels, old, count, total);
    let shift = 0;
    for (let k = 0; k < K; k++) {
      const c = count[k] > 0 ? total[k] / count[k] : total[k];
      shift += (c - old[k]) * (c - old[k]);
      centres[k] = c;
    }
    if (changed === 0) {
      strict = true;
      break;
    }
    if (shift <= tol) break;
  }
  if (!strict) {
    f32At(e, centresPtr, K).set(centres);
    e.k.f32_kmeans_assign(labels, sums, zPtr, N, centresPtr, K);
  }
}

/**
 * sklearn's _relocate_empty_clusters_dense: each empty cluster takes one of the samples farthest from their centres.
 */
function relocateEmpty(
  e: Engine,
  z: Float32Array,
  N: number,
  K: number,
  labels: number,
  old: Float32Array,
  count: Float64Array,
  total: Float64Array,
): void {
  const empty: number[] = [];
  for (let k = 0; k < K; k++) if (count[k] === 0) empty.push(k);
  if (empty.length === 0) return;
  const lab = i32At(e, labels, N);
  const dist = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const d = z[i] - old[lab[i]];
    dist[i] = d * d;
  }
  // the empty.length farthest samples, farthest first (ties: lowest index)
  const far: number[] = [];
  const taken = new Uint8Array(N);
  for (let j = 0; j < empty.length; j++) {
    let bi = -1;
    for (let i = 0; i < N; i++) if (!taken[i] && (bi < 0 || dist[i] > dist[bi])) bi = i;
    taken[bi] = 1;
    far.push(bi);
  }
  for (let j = 0; j < empty.length; j++) {
    const i = far[j];
    const from = lab[i];
    total[from] -= z[i];
    count[from] -= 1;
    total[empty[j]] = z[i];
    count[empty[j]] = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Fitting.

/**
 * Fits the VGM to a 1-D sample (sklearn's BayesianGaussianMixture.fit with the settings at the top
 * of this file). Throws E_VALUE on NaN/Infinity in x and E_ARG when x has fewer samples than
 * components (or fewer than 2).
 */
export function fitVgm(engine: Engine, x: Float64Array, opts?: VgmOptions): VgmModel {
  return fit(engine, x, null, opts, 'fitVgm');
}

/**
 * fitVgm with the k-means initialisation replaced by given labels (one-hot initial
 * responsibilities, label in [0, nComponents)): for comparisons with sklearn from the same start.
 */
export function fitVgmFromLabels(
  engine: Engine,
  x: Float64Array,
  labels: ArrayLike<number>,
  opts?: VgmOptions,
): VgmModel {
  return fit(engine, x, labels, opts, 'fitVgmFromLabels');
}

function fit(
  engine: Engine,
  x0: Float64Array,
  initLabels: ArrayLike<number> | null,
  opts: VgmOptions | undefined,
  op: string,
): VgmModel {
  const x = checkData(x0, op);
  const st = settings(opts, op);
  const K = st.K;
  const N = x.length;
  check(N >= 2, 'E_ARG', () => `${op}: x has ${N} sample${N === 1 ? '' : 's'}; the mixture needs at least 2`);
  check(
    N >= K,
    'E_ARG',
    () =>
      `${op}: x has ${N} samples but nComponents is ${K}; the mixture needs at least as many samples as components ` +
      `(sklearn raises the same error)`,
  );
  if (initLabels) {
    check(initLabels.length === N, 'E_ARG', () => `${op}: labels has length ${initLabels.length}, x has ${N}`);
    for (let i = 0; i < N; i++) {
      const l = initLabels[i];
      check(
        Number.isInteger(l) && l >= 0 && l < K,
        'E_ARG',
        () => `${op}: labels[${i}] is ${l}, not an integer in [0, ${K})`,
      );
    }
  }
  const { mean, variance } = moments(x);
  const pr: Priors = {
    alpha0: st.alpha0,
    beta0: MEAN_PRECISION_PRIOR,
    m0: mean,
    nu0: DOF_PRIOR,
    psi0: variance,
    reg: REG_COVAR,
  };
  const scale = scaleOf(variance);
  const p: Params = {
    K,
    a: new Float64Array(K),
    b: new Float64Array(K),
    beta: new Float64Array(K),
    m: new Float64Array(K),
    nu: new Float64Array(K),
    cov: new Float64Array(K),
  };
  // k-means++ draws first (Rng allocates in its own scope), all at once.
  const uniforms = initLabels ? null : new Rng(engine, st.seed).uniformHost(1 + (K - 1) * (2 + Math.floor(fdlog(K))));
  let converged = false;
  let nIter = 0;
  let lb = -Infinity;

  engine.scope(() => {
    const zPtr = scratch(engine, 4 * N);
    const labels = scratch(engine, 4 * N);
    const chunk = Math.min(N, CHUNK);
    const resp = scratch(engine, 4 * K * chunk);
    const sums = scratch(engine, 8 * Math.max(2, 2 * K));
    const stats = scratch(engine, 8 * 3 * K);
    const kin = scratch(engine, 4 * 3 * K); // means | halfPrec | consts (f32)
    const z = f32At(engine, zPtr, N);
    for (let i = 0; i < N; i++) z[i] = (x[i] - mean) / scale;
    const zHost = z.slice();

    // initial responsibilities: one-hot labels
    if (initLabels) {
      i32At(engine, labels, N).set(initLabels);
    } else {
      const centres = kmeansPlusPlus(zHost, K, uniforms!);
      lloyd(engine, zPtr, zHost, N, K, centres, labels, sums, kin);
    }
    const acc = new Float64Array(3 * K);
    {
      // M-step from one-hot responsibilities, chunk by chunk, shifted at 0
      const lab = i32At(engine, labels, N).slice();
      f32At(engine, kin, K).fill(0);
      for (let i0 = 0; i0 < N; i0 += chunk) {
        const n = Math.min(chunk, N - i0);
        const r = f32At(engine, resp, K * n);
        r.fill(0);
        for (let i = 0; i < n; i++) r[lab[i0 + i] * n + i] = 1;
        engine.k.f32_vgm_mstep(stats, resp, zPtr + 4 * i0, n, K, kin);
        const s = f64At(engine, stats, 3 * K);
        for (let j = 0; j < 3 * K; j++) acc[j] += s[j];
      }
      mStep(p, pr, acc, new Float32Array(K), scale);
    }

    const means = new Float32Array(K);
    const halfPrec = new Float32Array(K);
    const consts = new Float32Array(K);
    for (let it = 1; it <= st.maxIter; it++) {
      const prev = lb;
      eStepInputs(p, mean, scale, means, halfPrec, consts);
      const kv = f32At(engine, kin, 3 * K);
      kv.set(means, 0);
      kv.set(halfPrec, K);
      kv.set(consts, 2 * K);
      acc.fill(0);
      let ent = 0;
      for (let i0 = 0; i0 < N; i0 += chunk) {
        const n = Math.min(chunk, N - i0);
        engine.k.f32_vgm_estep(resp, 0, 0, sums, zPtr + 4 * i0, n, K, kin, kin + 4 * K, kin + 8 * K);
        ent += f64At(engine, sums, 2)[1];
        engine.k.f32_vgm_mstep(stats, resp, zPtr + 4 * i0, n, K, kin);
        const s = f64At(engine, stats, 3 * K);
        for (let j = 0; j < 3 * K; j++) acc[j] += s[j];
      }
      mStep(p, pr, acc, means, scale);
      lb = lowerBound(p, ent);
      nIter = it;
      if (Math.abs(lb - prev) < st.tol) {
        converged = true;
        break;
      }
    }
  });

  return {
    weights: expectedWeights(p.a, p.b),
    means: p.m,
    stds: p.cov.map(Math.sqrt),
    converged,
    nIter,
    lowerBound: lb,
    covariances: p.cov,
    weightConcentrationA: p.a,
    weightConcentrationB: p.b,
    meanPrecision: p.beta,
    degreesOfFreedom: p.nu,
    meanPrior: mean,
    covariancePrior: variance,
    weightConcentrationPrior: st.alpha0,
    meanPrecisionPrior: MEAN_PRECISION_PRIOR,
    degreesOfFreedomPrior: DOF_PRIOR,
    regCovar: REG_COVAR,
  };
}

// ---------------------------------------------------------------------------------------------
// Using a fitted model.

function paramsOf(model: VgmModel): Params {
  return {
    K: model.means.length,
    a: model.weightConcentrationA,
    b: model.weightConcentrationB,
    beta: model.meanPrecision,
    m: model.means,
    nu: model.degreesOfFreedom,
    cov: model.covariances,
  };
}

/**
 * Runs the E-step over x in chunks; `onChunk(i0, n, resp)` sees each chunk's (K × n) responsibilities.
 * Returns Σ_i log p(x_i).
 */
function eStepOver(
  engine: Engine,
  model: VgmModel,
  x: ArrayLike<number>,
  onChunk: ((i0: number, n: number, resp: Float32Array) => void) | null,
): number {
  const p = paramsOf(model);
  const K = p.K;
  const N = x.length;
  const m0 = model.meanPrior;
  const scale = scaleOf(model.covariancePrior);
  const means = new Float32Array(K);
  const halfPrec = new Float32Array(K);
  const consts = new Float32Array(K);
  eStepInputs(p, m0, scale, means, halfPrec, consts);
  let total = 0;
  engine.scope(() => {
    const chunk = Math.max(1, Math.min(N, CHUNK));
    const zPtr = scratch(engine, 4 * chunk);
    const resp = scratch(engine, 4 * K * chunk);
    const sums = scratch(engine, 16);
    const kin = scratch(engine, 12 * K);
    const kv = f32At(engine, kin, 3 * K);
    kv.set(means, 0);
    kv.set(halfPrec, K);
    kv.set(consts, 2 * K);
    for (let i0 = 0; i0 < N; i0 += chunk) {
      const n = Math.min(chunk, N - i0);
      const z = f32At(engine, zPtr, n);
      for (let i = 0; i < n; i++) {
        const v = (x[i0 + i] - m0) / scale;
        z[i] = v > Z_CLAMP ? Z_CLAMP : v < -Z_CLAMP ? -Z_CLAMP : v;
      }
      engine.k.f32_vgm_estep(resp, 0, 0, sums, zPtr, n, K, kin, kin + 4 * K, kin + 8 * K);
      total += f64At(engine, sums, 2)[0];
      if (onChunk) onChunk(i0, n, f32At(engine, resp, K * n));
    }
  });
  return total - N * fdlog(scale);
}

/** Responsibilities (N, K) row-major, as sklearn's predict_proba. */
export function vgmPredictProba(engine: Engine, model: VgmModel, x: Float64Array): Float64Array {
  const xs = checkData(x, 'vgmPredictProba');
  const K = model.means.length;
  const out = new Float64Array(xs.length * K);
  eStepOver(engine, model, xs, (i0, n, r) => {
    for (let k = 0; k < K; k++) {
      const row = k * n;
      for (let i = 0; i < n; i++) out[(i0 + i) * K + k] = r[row + i];
    }
  });
  return out;
}

/** The most probable component of each sample (sklearn's predict; fit_predict's labels on the training data). */
export function vgmPredict(engine: Engine, model: VgmModel, x: Float64Array): Int32Array {
  const xs = checkData(x, 'vgmPredict');
  const K = model.means.length;
  const out = new Int32Array(xs.length);
  eStepOver(engine, model, xs, (i0, n, r) => {
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let k = 1; k < K; k++) if (r[k * n + i] > r[best * n + i]) best = k;
      out[i0 + i] = best;
    }
  });
  return out;
}

/** Mean log-likelihood per sample under the fitted mixture, as sklearn's score(). */
export function vgmScore(engine: Engine, model: VgmModel, x: Float64Array): number {
  const xs = checkData(x, 'vgmScore');
  check(xs.length > 0, 'E_ARG', () => 'vgmScore: x is empty');
  return eStepOver(engine, model, xs, null) / xs.length;
}

/** Indices of the components with weight > threshold (CTGAN keeps these modes). */
export function activeModes(model: VgmModel, threshold = 0.005): number[] {
  const out: number[] = [];
  for (let k = 0; k < model.weights.length; k++) if (model.weights[k] > threshold) out.push(k);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Serialisation.

const FORMAT = 'lucid-vgm';
const VERSION = 1;
const ARRAYS = [
  'weights',
  'means',
  'stds',
  'covariances',
  'weightConcentrationA',
  'weightConcentrationB',
  'meanPrecision',
  'degreesOfFreedom',
] as const;

export function vgmToJSON(model: VgmModel): object {
  const o: Record<string, unknown> = { format: FORMAT, version: VERSION, nComponents: model.means.length };
  for (const k of ARRAYS) o[k] = Array.from(model[k]);
  o.converged = model.converged;
  o.nIter = model.nIter;
  o.lowerBound = Number.isFinite(model.lowerBound) ? model.lowerBound : null; // JSON has no −Infinity
  o.meanPrior = model.meanPrior;
  o.covariancePrior = model.covariancePrior;
  o.weightConcentrationPrior = model.weightConcentrationPrior;
  o.meanPrecisionPrior = model.meanPrecisionPrior;
  o.degreesOfFreedomPrior = model.degreesOfFreedomPrior;
  o.regCovar = model.regCovar;
  return o;
}

export function vgmFromJSON(obj: unknown): VgmModel {
  const bad = (msg: string): never => {
    throw new EngineError('E_INPUT', `vgm model: ${msg}`);
  };
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) bad('expected a JSON object');
  const o = obj as Record<string, unknown>;
  if (o.format !== FORMAT) bad(`"format" must be "${FORMAT}", got ${JSON.stringify(o.format)}`);
  if (o.version !== VERSION)
    bad(`unsupported "version" ${JSON.stringify(o.version)} (this build reads version ${VERSION})`);
  const K = o.nComponents;
  if (typeof K !== 'number' || !Number.isInteger(K) || K < 1 || K > 1000)
    bad(`"nComponents" must be an integer in [1, 1000], got ${JSON.stringify(K)}`);
  /** sign: 'any' | '>= 0' | '> 0' */
  const arr = (name: (typeof ARRAYS)[number], sign: 'any' | '>= 0' | '> 0'): Float64Array => {
    const v = o[name];
    if (!Array.isArray(v) || v.length !== K) bad(`"${name}" must be an array of ${K} numbers`);
    const a = v as unknown[];
    const out = new Float64Array(K as number);
    for (let i = 0; i < a.length; i++) {
      const e = a[i];
      if (typeof e !== 'number' || !Number.isFinite(e))
        bad(`"${name}"[${i}] is ${JSON.stringify(e)}, not a finite number`);
      if ((sign === '> 0' && !((e as number) > 0)) || (sign === '>= 0' && (e as number) < 0))
        bad(`"${name}"[${i}] is ${e}, must be ${sign}`);
      out[i] = e as number;
    }
    return out;
  };
  const num = (name: string, positive: boolean): number => {
    const v = o[name];
    if (typeof v !== 'number' || !Number.isFinite(v))
      bad(`"${name}" must be a finite number, got ${JSON.stringify(v)}`);
    if (positive && !((v as number) > 0)) bad(`"${name}" must be > 0, got ${v}`);
    return v as number;
  };
  const weights = arr('weights', '>= 0');
  const sw = weights.reduce((s, w) => s + w, 0);
  if (Math.abs(sw - 1) > 1e-6) bad(`"weights" sum to ${sw}, not 1`);
  const model: VgmModel = {
    weights,
    means: arr('means', 'any'),
    stds: arr('stds', '> 0'),
    converged: (() => {
      if (typeof o.converged !== 'boolean') bad('"converged" must be true or false');
      return o.converged as boolean;
    })(),
    nIter: (() => {
      const n = o.nIter;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        bad(`"nIter" must be a non-negative integer, got ${JSON.stringify(n)}`);
      return n as number;
    })(),
    lowerBound: o.lowerBound === null ? -Infinity : num('lowerBound', false),
    covariances: arr('covariances', '> 0'),
    weightConcentrationA: arr('weightConcentrationA', '> 0'),
    weightConcentrationB: arr('weightConcentrationB', '> 0'),
    meanPrecision: arr('meanPrecision', '> 0'),
    degreesOfFreedom: arr('degreesOfFreedom', '> 0'),
    meanPrior: num('meanPrior', false),
    covariancePrior: (() => {
      const v = num('covariancePrior', false);
      if (v < 0) bad(`"covariancePrior" must be >= 0, got ${v}`);
      return v;
    })(),
    weightConcentrationPrior: num('weightConcentrationPrior', true),
    meanPrecisionPrior: num('meanPrecisionPrior', true),
    degreesOfFreedomPrior: num('degreesOfFreedomPrior', true),
    regCovar: num('regCovar', false),
  };
  for (let k = 0; k < model.stds.length; k++) {
    const s = Math.sqrt(model.covariances[k]);
    if (Math.abs(model.stds[k] - s) > 1e-9 * s)
      bad(`"stds"[${k}] = ${model.stds[k]} is not the square root of "covariances"[${k}] = ${model.covariances[k]}`);
  }
  return model;
}
