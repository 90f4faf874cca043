import { f32_adam, ref_adam } from "../kernels/optim";

/** The host's per-step scalars (f64), as torch computes them. */
function stepSize(lr: f64, b1: f64, t: i32): f64 {
  return lr / (1.0 - Math.pow(b1, <f64>t));
}
function bc2sqrt(b2: f64, t: i32): f64 {
  return Math.sqrt(1.0 - Math.pow(b2, <f64>t));
}

describe("f32_adam", () => {
  test("matches ref_adam bitwise at every size, for both lerp branches, with and without weight decay", () => {
    const betas1: StaticArray<f64> = [0.9, 0.5];
    const wds: StaticArray<f32> = [0, 0.01];
    for (let bi = 0; bi < 2; bi++) {
      for (let wi = 0; wi < 2; wi++) {
        for (let k = 0; k < SIZES.length; k++) {
          const n = SIZES[k];
          const p = allocF(n); const g = allocF(n); const m = allocF(n); const v = allocF(n);
          fillUniform(p, n, -1, 1);
          fillUniform(m, n, -0.1, 0.1);
          fillUniform(v, n, 0, 0.01);
          const rp = allocF(n); const rm = allocF(n); const rv = allocF(n);
          copyF(rp, p, n); copyF(rm, m, n); copyF(rv, v, n);
          for (let t = 1; t <= 3; t++) {
            fillUniform(g, n, -2, 2);
            const ss = <f32>stepSize(1e-3, betas1[bi], t);
            const bc = <f32>bc2sqrt(0.999, t);
            f32_adam(p, g, m, v, n, ss, betas1[bi], 0.999, 1e-8, wds[wi], bc);
            ref_adam(rp, g, rm, rv, n, ss, betas1[bi], 0.999, 1e-8, wds[wi], bc);
          }
          expect<bool>(bitsEqual(p, rp, n) && guardOk(p, n)).toBe(true, "p n " + n.toString());
          expect<bool>(bitsEqual(m, rm, n) && guardOk(m, n)).toBe(true, "m");
          expect<bool>(bitsEqual(v, rv, n) && guardOk(v, n)).toBe(true, "v");
        }
      }
    }
  });

  test("a constant gradient moves each parameter by lr per step (hand-computed)", () => {
    // m_t/(1−β1^t) = g and √(v_t/(1−β2^t)) = |g|, so p_t = p_0 − t·lr·sign(g) (up to eps).
    const n = 9;
    const p = allocF(n); const g = allocF(n); const m = allocF(n); const v = allocF(n);
    for (let i = 0; i < n; i++) {
      setF(p, i, 1);
      setF(g, i, i % 2 == 0 ? 0.5 : -3);
    }
    for (let t = 1; t <= 5; t++) {
      f32_adam(p, g, m, v, n, <f32>stepSize(0.1, 0.9, t), 0.9, 0.999, 1e-8, 0, <f32>bc2sqrt(0.999, t));
      for (let i = 0; i < n; i++) {
        const expected = 1.0 - 0.1 * <f64>t * (i % 2 == 0 ? 1.0 : -1.0);
        expect<bool>(Math.abs(<f64>getF(p, i) - expected) < 2e-6).toBe(true, "t " + t.toString());
      }
    }
    // first step by hand: m = 0.1·g, v = 0.001·g², denom = |g| + 1e-8 … p = 1 − 0.1
    expect<bool>(Math.abs(<f64>getF(m, 0) - 0.5 * (1.0 - Math.pow(0.9, 5))) < 1e-6).toBe(true);
    expect<bool>(Math.abs(<f64>getF(v, 1) - 9.0 * (1.0 - Math.pow(0.999, 5))) < 1e-7).toBe(true);
  });

  test("agrees with an f64 model of torch's Adam (β=(0.5, 0.9), weight decay) over 10 steps", () => {
    const n = 37;
    const p = allocF(n); const g = allocF(n); const m = allocF(n); const v = allocF(n);
    fillUniform(p, n, -1, 1);
    const P = new StaticArray<f64>(n);
    const Mv = new StaticArray<f64>(n);
    const V = new StaticArray<f64>(n);
    for (let i = 0; i < n; i++) P[i] = <f64>getF(p, i);
    const lr = 2e-4, b1 = 0.5, b2 = 0.9, eps = 1e-8, wd: f64 = 1e-2;
    for (let t = 1; t <= 10; t++) {
      fillUniform(g, n, -1, 1);
      f32_adam(p, g, m, v, n, <f32>stepSize(lr, b1, t), b1, b2, <f32>eps, <f32>wd, <f32>bc2sqrt(b2, t));
      for (let i = 0; i < n; i++) {
        const gi = <f64>getF(g, i) + wd * P[i];
        Mv[i] = b1 * Mv[i] + (1 - b1) * gi;
        V[i] = b2 * V[i] + (1 - b2) * gi * gi;
        const den = Math.sqrt(V[i]) / bc2sqrt(b2, t) + eps;
        P[i] -= stepSize(lr, b1, t) * Mv[i] / den;
      }
    }
    let maxErr: f64 = 0;
    for (let i = 0; i < n; i++) {
      maxErr = Math.max(maxErr, Math.abs(<f64>getF(p, i) - P[i]));
      expect<bool>(Math.abs(<f64>getF(m, i) - Mv[i]) <= 1e-6 * (1 + Math.abs(Mv[i]))).toBe(true, "m");
      expect<bool>(Math.abs(<f64>getF(v, i) - V[i]) <= 1e-6 * V[i] + 1e-12).toBe(true, "v");
    }
    expect<bool>(maxErr < 2e-7).toBe(true, "p max err " + maxErr.toString());
  });

  test("weight decay 0 leaves an infinite parameter's gradient alone", () => {
    const p = allocF(4); const g = allocF(4); const m = allocF(4); const v = allocF(4);
    setF(p, 0, Infinity);
    setF(g, 0, 1);
    f32_adam(p, g, m, v, 4, 1e-3, 0.9, 0.999, 1e-8, 0, <f32>bc2sqrt(0.999, 1));
    expect<bool>(isFinite(getF(m, 0))).toBe(true);
    expect<f32>(getF(p, 0)).toBe(Infinity);
  });
});
