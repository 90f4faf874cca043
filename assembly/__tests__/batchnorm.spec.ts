import {
  f32_bn_stats, ref_bn_stats, f32_bn_fwd, ref_bn_fwd, f32_bn_bwd, ref_bn_bwd,
} from "../kernels/batchnorm";

const DIMS: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 16, 31, 33, 257];
const ROWS: StaticArray<i32> = [0, 1, 3, 5, 9, 33, 257];

describe("batch norm", () => {
  test("f32_bn_stats matches ref (two-pass, biased) incl. a large offset", () => {
    for (let a = 1; a < ROWS.length; a++) {
      for (let b = 0; b < DIMS.length; b++) {
        const N = ROWS[a];
        const D = DIMS[b];
        const x = allocF(N * D);
        fillUniform(x, N * D, 1000, 1001); // mean ≫ std: a one-pass formula would cancel
        const mu = allocF(D);
        const va = allocF(D);
        const rmu = allocF(D);
        const rva = allocF(D);
        f32_bn_stats(mu, va, x, N, D);
        ref_bn_stats(rmu, rva, x, N, D);
        expect<bool>(allclose(mu, rmu, D, 0, 1e-6) && guardOk(mu, D)).toBe(true, "mean");
        expect<bool>(allclose(va, rva, D, 1e-6, 1e-3) && guardOk(va, D)).toBe(true, "var");
      }
    }
    const x = allocF(8);
    const vals: StaticArray<f32> = [1, 10, 2, 20, 3, 30, 6, 40]; // columns [1,2,3,6], [10,20,30,40]
    for (let i = 0; i < 8; i++) setF(x, i, vals[i]);
    const mu = allocF(2);
    const va = allocF(2);
    f32_bn_stats(mu, va, x, 4, 2);
    expect<f32>(getF(mu, 0)).toBe(3);
    expect<f32>(getF(mu, 1)).toBe(25);
    expect<f32>(getF(va, 0)).toBe(3.5);
    expect<f32>(getF(va, 1)).toBe(125);
  });

  test("f32_bn_fwd matches ref bitwise; f32_bn_bwd matches ref and sums of dx vanish", () => {
    for (let a = 1; a < ROWS.length; a++) {
      for (let b = 0; b < DIMS.length; b++) {
        const N = ROWS[a];
        const D = DIMS[b];
        const x = allocF(N * D);
        fillUniform(x, N * D, -3, 5);
        const mu = allocF(D);
        const va = allocF(D);
        f32_bn_stats(mu, va, x, N, D);
        const gamma = allocF(D);
        const beta = allocF(D);
        fillUniform(gamma, D, 0.5, 1.5);
        fillUniform(beta, D, -1, 1);
        const y = allocF(N * D);
        const h = allocF(N * D);
        const inv = allocF(D);
        const ry = allocF(N * D);
        const rh = allocF(N * D);
        const rinv = allocF(D);
        f32_bn_fwd(y, h, inv, x, mu, va, gamma, beta, 1e-5, N, D);
        ref_bn_fwd(ry, rh, rinv, x, mu, va, gamma, beta, 1e-5, N, D);
        expect<bool>(bitsEqual(y, ry, N * D) && guardOk(y, N * D)).toBe(true, "y");
        expect<bool>(bitsEqual(h, rh, N * D) && guardOk(h, N * D)).toBe(true, "xhat");
        expect<bool>(bitsEqual(inv, rinv, D) && guardOk(inv, D)).toBe(true, "invstd");

        const dy = allocF(N * D);
        fillUniform(dy, N * D, -1, 1);
        const dx = allocF(N * D);
        const dg = allocF(D);
        const db = allocF(D);
        const rdx = allocF(N * D);
        const rdg = allocF(D);
        const rdb = allocF(D);
        f32_bn_bwd(dx, dg, db, dy, h, inv, gamma, N, D);
        ref_bn_bwd(rdx, rdg, rdb, dy, h, inv, gamma, N, D);
        expect<bool>(allclose(db, rdb, D, 1e-5 * <f64>N, 1e-5) && guardOk(db, D)).toBe(true, "dbeta");
        expect<bool>(allclose(dg, rdg, D, 1e-5 * <f64>N, 1e-5) && guardOk(dg, D)).toBe(true, "dgamma");
        expect<bool>(allclose(dx, rdx, N * D, 1e-4, 1e-4) && guardOk(dx, N * D)).toBe(true, "dx");
        // Σ_i dx[i,j] = 0 (the mean is subtracted out)
        for (let j = 0; j < D; j++) {
          let s: f64 = 0;
          let m: f64 = 0;
          for (let i = 0; i < N; i++) {
            s += <f64>getF(dx, i * D + j);
            m = Math.max(m, Math.abs(<f64>getF(dx, i * D + j)));
          }
          if (Math.abs(s) > 1e-4 * (m + 1) * <f64>N) {
            log<string>("sum dx " + s.toString());
            expect<bool>(false).toBe(true);
          }
        }
        // in place: dx over dy
        f32_bn_bwd(dy, dg, db, dy, h, inv, gamma, N, D);
        expect<bool>(bitsEqual(dy, dx, N * D)).toBe(true, "in place");
      }
    }
  });

  test("f32_bn_bwd agrees with a finite difference of the training-mode forward", () => {
    const N = 6;
    const D = 3;
    const x = allocF(N * D);
    fillUniform(x, N * D, -2, 2);
    const gamma = allocF(D);
    const beta = allocF(D);
    fillUniform(gamma, D, 0.5, 1.5);
    fillUniform(beta, D, -1, 1);
    const w = allocF(N * D); // loss = Σ w·y
    fillUniform(w, N * D, -1, 1);
    const mu = allocF(D);
    const va = allocF(D);
    const y = allocF(N * D);
    const h = allocF(N * D);
    const inv = allocF(D);
    f32_bn_stats(mu, va, x, N, D);
    f32_bn_fwd(y, h, inv, x, mu, va, gamma, beta, 1e-5, N, D);
    const dx = allocF(N * D);
    const dg = allocF(D);
    const db = allocF(D);
    f32_bn_bwd(dx, dg, db, w, h, inv, gamma, N, D);
    // f64 forward for the finite difference
    for (let k = 0; k < N * D; k++) {
      const eps = 1e-4;
      let lp: f64 = 0;
      let lm: f64 = 0;
      for (let sgn = 0; sgn < 2; sgn++) {
        const dlt = sgn == 0 ? eps : -eps;
        let loss: f64 = 0;
        for (let j = 0; j < D; j++) {
          let m: f64 = 0;
          for (let i = 0; i < N; i++) m += <f64>getF(x, i * D + j) + (i * D + j == k ? dlt : 0);
          m /= <f64>N;
          let v: f64 = 0;
          for (let i = 0; i < N; i++) {
            const d = <f64>getF(x, i * D + j) + (i * D + j == k ? dlt : 0) - m;
            v += d * d;
          }
          v /= <f64>N;
          for (let i = 0; i < N; i++) {
            const xv = <f64>getF(x, i * D + j) + (i * D + j == k ? dlt : 0);
            const yv = (xv - m) / Math.sqrt(v + 1e-5) * <f64>getF(gamma, j) + <f64>getF(beta, j);
            loss += yv * <f64>getF(w, i * D + j);
          }
        }
        if (sgn == 0) lp = loss; else lm = loss;
      }
      const fd = (lp - lm) / (2 * eps);
      expect<bool>(Math.abs(fd - <f64>getF(dx, k)) < 1e-3 * (1 + Math.abs(fd))).toBe(true, "dx[" + k.toString() + "]");
    }
  });
});
