import {
  f32_vgm_estep, ref_vgm_estep, f32_vgm_mstep, ref_vgm_mstep, f32_kmeans_assign, ref_kmeans_assign,
} from "../kernels/mixture";

const KS: StaticArray<i32> = [1, 2, 3, 5, 10];

function getD(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

function closeD(a: f64, b: f64, atol: f64, rtol: f64): bool {
  if (Math.abs(a - b) <= atol + rtol * Math.abs(b)) return true;
  log<string>("mismatch: " + a.toString() + " vs " + b.toString());
  return false;
}

/** Random mixture parameters in standardised units, as the host passes them. */
function fillParams(means: usize, hp: usize, cs: usize, K: i32): void {
  fillUniform(means, K, -2, 2);
  fillUniform(hp, K, 0.05, 8);
  fillUniform(cs, K, -4, 1);
}

describe("vgm E-step", () => {
  test("f32_vgm_estep matches ref_vgm_estep (bitwise per element, f64 sums) over N × K", () => {
    for (let a = 0; a < SIZES.length; a++) {
      for (let b = 0; b < KS.length; b++) {
        const N = SIZES[a];
        const K = KS[b];
        const x = allocF(N);
        fillUniform(x, N, -3, 3);
        const means = allocF(K);
        const hp = allocF(K);
        const cs = allocF(K);
        fillParams(means, hp, cs, K);
        const resp = allocF(K * N);
        const lr = allocF(K * N);
        const ln = allocF(N);
        const sums = allocF(4);
        const rresp = allocF(K * N);
        const rlr = allocF(K * N);
        const rln = allocF(N);
        const rsums = allocF(4);
        f32_vgm_estep(resp, lr, ln, sums, x, N, K, means, hp, cs);
        ref_vgm_estep(rresp, rlr, rln, rsums, x, N, K, means, hp, cs);
        const tag = "N " + N.toString() + " K " + K.toString();
        expect<bool>(bitsEqual(resp, rresp, K * N) && guardOk(resp, K * N)).toBe(true, "resp " + tag);
        expect<bool>(bitsEqual(lr, rlr, K * N) && guardOk(lr, K * N)).toBe(true, "logResp " + tag);
        expect<bool>(bitsEqual(ln, rln, N) && guardOk(ln, N)).toBe(true, "logNorm " + tag);
        expect<bool>(guardOk(sums, 4)).toBe(true, "sums guard");
        expect<bool>(closeD(getD(sums, 0), getD(rsums, 0), 1e-9, 1e-12)).toBe(true, "sum lse " + tag);
        expect<bool>(closeD(getD(sums, 1), getD(rsums, 1), 1e-9, 1e-12)).toBe(true, "sum r log r " + tag);

        // optional outputs: the same resp and sums without logResp / logNorm
        const resp2 = allocF(K * N);
        const sums2 = allocF(4);
        f32_vgm_estep(resp2, 0, 0, sums2, x, N, K, means, hp, cs);
        expect<bool>(bitsEqual(resp2, resp, K * N) && guardOk(resp2, K * N)).toBe(true, "resp without optional outputs");
        expect<bool>(getD(sums2, 0) == getD(sums, 0) && getD(sums2, 1) == getD(sums, 1)).toBe(true, "sums without optional outputs");
        ref_vgm_estep(resp2, 0, 0, sums2, x, N, K, means, hp, cs);
        expect<bool>(bitsEqual(resp2, resp, K * N)).toBe(true, "ref resp without optional outputs");

        // against f64 maths: rows of resp sum to 1, lse is the f64 logsumexp, sums add up
        let sl: f64 = 0;
        let se: f64 = 0;
        for (let i = 0; i < N; i++) {
          const xi = <f64>getF(x, i);
          let mx: f64 = -Infinity;
          for (let k = 0; k < K; k++) {
            const d = xi - <f64>getF(means, k);
            mx = Math.max(mx, <f64>getF(cs, k) - <f64>getF(hp, k) * d * d);
          }
          let s: f64 = 0;
          for (let k = 0; k < K; k++) {
            const d = xi - <f64>getF(means, k);
            s += Math.exp(<f64>getF(cs, k) - <f64>getF(hp, k) * d * d - mx);
          }
          const lse = mx + Math.log(s);
          expect<bool>(closeD(<f64>getF(ln, i), lse, 2e-5, 2e-6)).toBe(true, "lse vs f64 " + tag);
          let rs: f64 = 0;
          for (let k = 0; k < K; k++) {
            const d = xi - <f64>getF(means, k);
            const lr64 = <f64>getF(cs, k) - <f64>getF(hp, k) * d * d - lse;
            const r = <f64>getF(resp, k * N + i);
            expect<bool>(closeD(r, Math.exp(lr64), 1e-6, 1e-5)).toBe(true, "resp vs f64 " + tag);
            expect<bool>(closeD(<f64>getF(lr, k * N + i), lr64, 2e-5, 2e-6)).toBe(true, "logResp vs f64 " + tag);
            rs += r;
            se += Math.exp(lr64) * lr64;
          }
          expect<bool>(closeD(rs, 1, 1e-6, 0)).toBe(true, "row sum " + tag);
          sl += lse;
        }
        expect<bool>(closeD(getD(sums, 0), sl, 1e-4 * (1 + <f64>N), 1e-6)).toBe(true, "Σ lse vs f64 " + tag);
        expect<bool>(closeD(getD(sums, 1), se, 1e-5 * (1 + <f64>N), 1e-5)).toBe(true, "Σ r log r vs f64 " + tag);
      }
    }
  });

  test("known values: two equal components; a far outlier stays finite", () => {
    const x = allocF(5);
    const vals: StaticArray<f32> = [0, 1, -1, 100, 0.5];
    for (let i = 0; i < 5; i++) setF(x, i, vals[i]);
    const means = allocF(2);
    const hp = allocF(2);
    const cs = allocF(2);
    setF(means, 0, 0); setF(means, 1, 0);
    setF(hp, 0, 0.5); setF(hp, 1, 0.5);
    setF(cs, 0, <f32>Math.log(0.5)); setF(cs, 1, <f32>Math.log(0.5));
    const resp = allocF(10);
    const lr = allocF(10);
    const ln = allocF(5);
    const sums = allocF(4);
    f32_vgm_estep(resp, lr, ln, sums, x, 5, 2, means, hp, cs);
    for (let i = 0; i < 10; i++) expect<f32>(getF(resp, i)).toBe(0.5);
    // lse = log(0.5 + 0.5) − x²/2
    expect<bool>(closeD(<f64>getF(ln, 1), -0.5, 1e-6, 0)).toBe(true);
    expect<bool>(closeD(<f64>getF(ln, 3), -5000, 1e-3, 0)).toBe(true);
    // Σ r log r = 5 rows × 2 × 0.5·log 0.5
    expect<bool>(closeD(getD(sums, 1), 5 * Math.log(0.5), 1e-5, 0)).toBe(true);
    // separated components: each sample goes to its own
    setF(means, 1, 50);
    setF(x, 1, 50);
    f32_vgm_estep(resp, lr, ln, sums, x, 5, 2, means, hp, cs);
    expect<bool>(getF(resp, 0) > 0.999999 && getF(resp, 5 + 1) > 0.999999).toBe(true);
    expect<bool>(getF(resp, 5 + 3) > 0.999999).toBe(true, "x = 100 goes to the component at 50");
    expect<f32>(getF(resp, 3)).toBe(0, "r < e^-80 is flushed to exactly 0");
    expect<bool>(isFinite(getF(lr, 3)) && isFinite(getD(sums, 1))).toBe(true, "finite log-resp of an outlier");
  });
});

describe("vgm M-step statistics", () => {
  test("f32_vgm_mstep matches ref_vgm_mstep over N × K", () => {
    for (let a = 0; a < SIZES.length; a++) {
      for (let b = 0; b < KS.length; b++) {
        const N = SIZES[a];
        const K = KS[b];
        const x = allocF(N);
        fillUniform(x, N, -3, 3);
        const resp = allocF(K * N);
        fillWithZeros(resp, K * N, 0, 1);
        const shift = allocF(K);
        fillUniform(shift, K, -1, 1);
        const st = allocF(6 * K);
        const rst = allocF(6 * K);
        f32_vgm_mstep(st, resp, x, N, K, shift);
        ref_vgm_mstep(rst, resp, x, N, K, shift);
        expect<bool>(guardOk(st, 6 * K)).toBe(true, "guard");
        for (let j = 0; j < 3 * K; j++) {
          expect<bool>(closeD(getD(st, j), getD(rst, j), 1e-12 * (1 + <f64>N), 1e-12)).toBe(true, "stat " + j.toString() + " N " + N.toString() + " K " + K.toString());
        }
      }
    }
  });

  test("known values, and a large common offset does not cancel (centred form)", () => {
    // one component, resp 1: R = N, S1 = Σ(x − shift), S2 = Σ(x − shift)²
    const x = allocF(5);
    const vals: StaticArray<f32> = [1, 2, 3, 4, 10];
    for (let i = 0; i < 5; i++) setF(x, i, vals[i]);
    const resp = allocF(10);
    for (let i = 0; i < 5; i++) {
      setF(resp, i, 1);
      setF(resp, 5 + i, i < 2 ? 0.5 : 0);
    }
    const shift = allocF(2);
    setF(shift, 0, 4);
    setF(shift, 1, 0);
    const st = allocF(12);
    f32_vgm_mstep(st, resp, x, 5, 2, shift);
    expect<f64>(getD(st, 0)).toBe(5);
    expect<f64>(getD(st, 1)).toBe(1);
    expect<f64>(getD(st, 2)).toBe(0); // Σ(x − 4) = 0
    expect<f64>(getD(st, 3)).toBe(1.5); // 0.5·1 + 0.5·2
    expect<f64>(getD(st, 4)).toBe(50); // 9 + 4 + 1 + 0 + 36
    expect<f64>(getD(st, 5)).toBe(2.5); // 0.5·1 + 0.5·4
    // values near 1000 with spread 1e-2: centred at 1000 the variance is exact to f64
    const n = 257;
    const y = allocF(n);
    const r = allocF(n);
    for (let i = 0; i < n; i++) {
      setF(y, i, <f32>(1000 + (i % 2 == 0 ? 0.0078125 : -0.0078125)));
      setF(r, i, 1);
    }
    const sh = allocF(1);
    setF(sh, 0, 1000);
    const s1 = allocF(6);
    f32_vgm_mstep(s1, r, y, n, 1, sh);
    const R = getD(s1, 0);
    const m = getD(s1, 1) / R;
    const v = getD(s1, 2) / R - m * m;
    expect<bool>(closeD(v, 0.0078125 * 0.0078125 * (1 - 1 / (<f64>n * <f64>n)), 1e-18, 1e-12)).toBe(true, "centred variance");
  });
});

describe("k-means assignment", () => {
  test("f32_kmeans_assign matches ref_kmeans_assign (labels, sums, change count) over N × K", () => {
    for (let a = 0; a < SIZES.length; a++) {
      for (let b = 0; b < KS.length; b++) {
        const N = SIZES[a];
        const K = KS[b];
        const x = allocF(N);
        fillUniform(x, N, -3, 3);
        for (let i = 0; i < N; i += 5) setF(x, i, 0.5); // exact ties between the two centres at 0 and 1
        const c = allocF(K);
        fillUniform(c, K, -3, 3);
        setF(c, 0, 0);
        if (K > 1) setF(c, 1, 1);
        const lab = allocF(N);
        const rlab = allocF(N);
        for (let i = 0; i < N; i++) {
          store<i32>(lab + (<usize>i << 2), (i * 7) % K);
          store<i32>(rlab + (<usize>i << 2), (i * 7) % K);
        }
        const s = allocF(4 * K);
        const rs = allocF(4 * K);
        const ch = f32_kmeans_assign(lab, s, x, N, c, K);
        const rch = ref_kmeans_assign(rlab, rs, x, N, c, K);
        const tag = "N " + N.toString() + " K " + K.toString();
        expect<i32>(ch).toBe(rch, "changed " + tag);
        expect<bool>(bitsEqual(lab, rlab, N) && guardOk(lab, N)).toBe(true, "labels " + tag);
        expect<bool>(bitsEqual(s, rs, 4 * K) && guardOk(s, 4 * K)).toBe(true, "sums " + tag);
        // labels are the argmin (first on ties), counts add up to N
        let total: f64 = 0;
        for (let k = 0; k < K; k++) total += getD(s, k);
        expect<f64>(total).toBe(<f64>N);
        for (let i = 0; i < N; i++) {
          const l = load<i32>(lab + (<usize>i << 2));
          const xi = getF(x, i);
          const dl = (xi - getF(c, l)) * (xi - getF(c, l));
          for (let k = 0; k < K; k++) {
            const dk = (xi - getF(c, k)) * (xi - getF(c, k));
            expect<bool>(dk > dl || (dk == dl && k >= l)).toBe(true, "argmin " + tag);
          }
        }
        // a second pass changes nothing
        expect<i32>(f32_kmeans_assign(lab, s, x, N, c, K)).toBe(0, "stable " + tag);
      }
    }
  });

  test("known values", () => {
    const x = allocF(6);
    const vals: StaticArray<f32> = [0, 0.4, 0.5, 0.6, 9, 11];
    for (let i = 0; i < 6; i++) setF(x, i, vals[i]);
    const c = allocF(3);
    setF(c, 0, 0); setF(c, 1, 1); setF(c, 2, 10);
    const lab = allocF(6);
    const s = allocF(12);
    const ch = f32_kmeans_assign(lab, s, x, 6, c, 3);
    expect<i32>(ch).toBe(3); // labels start at 0: three of them change
    const want: StaticArray<i32> = [0, 0, 0, 1, 2, 2];
    for (let i = 0; i < 6; i++) expect<i32>(load<i32>(lab + (<usize>i << 2))).toBe(want[i]);
    expect<f64>(getD(s, 0)).toBe(3);
    expect<f64>(getD(s, 1)).toBe(1);
    expect<f64>(getD(s, 2)).toBe(2);
    expect<bool>(closeD(getD(s, 3), <f64>(<f32>0.4) + 0.5, 0, 1e-15)).toBe(true);
    expect<bool>(closeD(getD(s, 4), <f64>(<f32>0.6), 0, 1e-15)).toBe(true);
    expect<f64>(getD(s, 5)).toBe(20);
  });
});
