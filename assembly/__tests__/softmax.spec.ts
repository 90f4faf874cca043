import {
  f32_softmax_rows, ref_softmax_rows, f32_log_softmax_rows, ref_log_softmax_rows,
} from "../kernels/softmax";

const DIMS: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 31, 33, 257];
const ROWS: StaticArray<i32> = [0, 1, 3, 5, 9];

describe("softmax", () => {
  test("f32_softmax_rows / f32_log_softmax_rows match ref, strided and in place", () => {
    for (let a = 0; a < ROWS.length; a++) {
      for (let b = 0; b < DIMS.length; b++) {
        for (let pad = 0; pad < 4; pad += 3) {
          const N = ROWS[a];
          const D = DIMS[b];
          const ld = D + pad;
          const x = allocF(N * ld);
          fillUniform(x, N * ld, -20, 20);
          const o = allocF(N * ld);
          const r = allocF(N * ld);
          f32_softmax_rows(o, ld, x, ld, N, D);
          ref_softmax_rows(r, ld, x, ld, N, D);
          for (let i = 0; i < N; i++) {
            expect<bool>(allclose(o + ((<usize>(i * ld)) << 2), r + ((<usize>(i * ld)) << 2), D, 1e-7, 1e-5)).toBe(true, "softmax N " + N.toString() + " D " + D.toString());
            // the padding columns are untouched
            for (let j = D; j < ld; j++) expect<f32>(getF(o, i * ld + j)).toBe(0);
            // rows sum to 1
            if (D > 0) {
              let s: f64 = 0;
              for (let j = 0; j < D; j++) s += <f64>getF(o, i * ld + j);
              expect<bool>(Math.abs(s - 1) < 1e-5).toBe(true, "row sum");
            }
          }
          expect<bool>(guardOk(o, N * ld)).toBe(true);
          f32_log_softmax_rows(o, ld, x, ld, N, D);
          ref_log_softmax_rows(r, ld, x, ld, N, D);
          for (let i = 0; i < N; i++) {
            expect<bool>(allclose(o + ((<usize>(i * ld)) << 2), r + ((<usize>(i * ld)) << 2), D, 1e-5, 1e-6)).toBe(true, "log_softmax");
          }
          expect<bool>(guardOk(o, N * ld)).toBe(true);
          // in place
          const ip = allocF(N * ld);
          copyF(ip, x, N * ld);
          f32_log_softmax_rows(ip, ld, ip, ld, N, D);
          for (let i = 0; i < N; i++) {
            expect<bool>(bitsEqual(ip + ((<usize>(i * ld)) << 2), o + ((<usize>(i * ld)) << 2), D)).toBe(true, "log_softmax in place");
          }
          copyF(ip, x, N * ld);
          f32_softmax_rows(ip, ld, ip, ld, N, D);
          f32_softmax_rows(o, ld, x, ld, N, D);
          for (let i = 0; i < N; i++) {
            expect<bool>(bitsEqual(ip + ((<usize>(i * ld)) << 2), o + ((<usize>(i * ld)) << 2), D)).toBe(true, "softmax in place");
          }
        }
      }
    }
  });

  test("different input and output strides (a span of a wider matrix)", () => {
    const N = 4;
    const D = 6;
    const x = allocF(N * 10);
    fillUniform(x, N * 10, -3, 3);
    const o = allocF(N * 7);
    const r = allocF(N * 7);
    f32_softmax_rows(o, 7, x + 8, 10, N, D);
    ref_softmax_rows(r, 7, x + 8, 10, N, D);
    expect<bool>(allclose(o, r, N * 7, 1e-7, 1e-5)).toBe(true);
    f32_log_softmax_rows(o, 7, x + 8, 10, N, D);
    ref_log_softmax_rows(r, 7, x + 8, 10, N, D);
    expect<bool>(allclose(o, r, N * 7, 1e-5, 1e-6)).toBe(true);
  });

  test("known values and extreme inputs", () => {
    const x = allocF(8);
    const o = allocF(8);
    // row 0: [0, ln 3] -> [1/4, 3/4]; row 1: huge logits stay finite
    setF(x, 0, 0); setF(x, 1, <f32>Math.log(3));
    setF(x, 2, 1000); setF(x, 3, 1000);
    setF(x, 4, -1e30); setF(x, 5, 0);
    setF(x, 6, -Infinity); setF(x, 7, 2);
    f32_softmax_rows(o, 2, x, 2, 4, 2);
    expect<bool>(Math.abs(<f64>getF(o, 0) - 0.25) < 1e-7).toBe(true);
    expect<bool>(Math.abs(<f64>getF(o, 1) - 0.75) < 1e-7).toBe(true);
    expect<f32>(getF(o, 2)).toBe(0.5);
    expect<f32>(getF(o, 3)).toBe(0.5);
    expect<f32>(getF(o, 4)).toBe(0);
    expect<f32>(getF(o, 5)).toBe(1);
    expect<f32>(getF(o, 6)).toBe(0);
    expect<f32>(getF(o, 7)).toBe(1);
    f32_log_softmax_rows(o, 2, x, 2, 4, 2);
    expect<bool>(Math.abs(<f64>getF(o, 0) - Math.log(0.25)) < 1e-6).toBe(true);
    expect<bool>(Math.abs(<f64>getF(o, 2) - Math.log(0.5)) < 1e-6).toBe(true);
    expect<f32>(getF(o, 4)).toBe(<f32>-1e30);
    expect<f32>(getF(o, 5)).toBe(0);
    expect<f32>(getF(o, 6)).toBe(-Infinity);
  });
});
