import {
  f32_sum, ref_sum, f32_sum_rows, ref_sum_rows, f32_sum_cols, ref_sum_cols,
} from "../kernels/reduce";

const DIMS: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 16, 31, 33, 257];
const ROWS: StaticArray<i32> = [0, 1, 3, 5, 9, 33, 257];

describe("sums", () => {
  test("f32_sum matches ref_sum (incl. the blocked path beyond 4096)", () => {
    const sizes: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 257, 4096, 4097, 10007];
    for (let k = 0; k < sizes.length; k++) {
      const n = sizes[k];
      const x = allocF(n);
      fillUniform(x, n, -1, 2);
      const o = allocF(1);
      const r = allocF(1);
      f32_sum(o, x, n);
      ref_sum(r, x, n);
      expect<bool>(allclose(o, r, 1, 1e-6 * <f64>n, 1e-6)).toBe(true, "n " + n.toString());
      expect<bool>(guardOk(o, 1)).toBe(true);
    }
    const x = allocF(5);
    for (let i = 0; i < 5; i++) setF(x, i, <f32>(i + 1));
    const o = allocF(1);
    f32_sum(o, x, 5);
    expect<f32>(getF(o, 0)).toBe(15);
    f32_sum(o, x, 0);
    expect<f32>(getF(o, 0)).toBe(0);
  });

  test("f32_sum_rows / f32_sum_cols match ref over N × D", () => {
    for (let a = 0; a < ROWS.length; a++) {
      for (let b = 0; b < DIMS.length; b++) {
        const N = ROWS[a];
        const D = DIMS[b];
        const x = allocF(N * D);
        fillUniform(x, N * D, -2, 3);
        const o = allocF(D);
        const r = allocF(D);
        f32_sum_rows(o, x, N, D);
        ref_sum_rows(r, x, N, D);
        expect<bool>(allclose(o, r, D, 1e-6 * <f64>N, 1e-6) && guardOk(o, D)).toBe(true, "sum_rows");
        const oc = allocF(N);
        const rc = allocF(N);
        f32_sum_cols(oc, x, N, D);
        ref_sum_cols(rc, x, N, D);
        expect<bool>(allclose(oc, rc, N, 1e-6 * <f64>D, 1e-6) && guardOk(oc, N)).toBe(true, "sum_cols");
      }
    }
  });

  test("known values: 2×3", () => {
    const x = allocF(6);
    for (let i = 0; i < 6; i++) setF(x, i, <f32>i); // [[0,1,2],[3,4,5]]
    const o = allocF(3);
    f32_sum_rows(o, x, 2, 3);
    expect<f32>(getF(o, 0)).toBe(3);
    expect<f32>(getF(o, 2)).toBe(7);
    f32_sum_cols(o, x, 2, 3);
    expect<f32>(getF(o, 0)).toBe(3);
    expect<f32>(getF(o, 1)).toBe(12);
  });
});
