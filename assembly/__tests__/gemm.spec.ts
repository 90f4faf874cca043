// f32_gemm against its scalar twin ref_gemm: every layout, beta 0 and 1, sizes around the
// 4×8 tile, the KC=256 depth block, the MC=120 and NC=1024 blocks, and padded leading dimensions.
import { f32_gemm, f32_gemm_work_bytes, ref_gemm } from "../kernels/gemm";
import { f32_copy2d, ref_copy2d } from "../kernels/layout";

const WORK = heap.alloc(<usize>f32_gemm_work_bytes());

// One case: C = op(A)·op(B) + beta·C with leading dimensions padded by `pad`.
function gemmCase(tA: bool, tB: bool, M: i32, N: i32, K: i32, beta: f32, pad: i32): bool {
  const lda = (tA ? M : K) + pad;
  const ldb = (tB ? K : N) + pad;
  const ldc = N + pad;
  const aRows = tA ? K : M;
  const bRows = tB ? N : K;
  const A = allocF(aRows * lda);
  const B = allocF(bRows * ldb);
  const C = allocF(M * ldc);
  const R = allocF(M * ldc);
  fillUniform(A, aRows * lda, -1, 1);
  fillUniform(B, bRows * ldb, -1, 1);
  fillUniform(C, M * ldc, -1, 1);
  copyF(R, C, M * ldc);
  f32_gemm(tA, tB, M, N, K, A, lda, B, ldb, beta, C, ldc, WORK);
  ref_gemm(tA, tB, M, N, K, A, lda, B, ldb, beta, R, ldc, WORK);
  // Summation order differs (blocked k), so compare with a tolerance that grows with K.
  const ok = allclose(C, R, M * ldc, 1e-5 * <f64>(K + 1), 1e-5) && guardOk(C, M * ldc);
  if (!ok) log<string>("gemm case tA=" + tA.toString() + " tB=" + tB.toString() + " M=" + M.toString() + " N=" + N.toString() + " K=" + K.toString() + " beta=" + beta.toString());
  heap.free(R); heap.free(C); heap.free(B); heap.free(A);
  return ok;
}

const SMALL: StaticArray<i32> = [0, 1, 3, 4, 5, 7, 8, 9, 31, 33];
const DEPTH: StaticArray<i32> = [0, 1, 3, 5, 9, 33, 257];

describe("f32_gemm", () => {
  it("matches ref_gemm in every layout at awkward M, N, K", () => {
    for (let l = 0; l < 4; l++) {
      const tA = (l & 1) != 0, tB = (l & 2) != 0;
      for (let i = 0; i < SMALL.length; i++) {
        for (let j = 0; j < SMALL.length; j++) {
          for (let k = 0; k < DEPTH.length; k++) {
            const beta: f32 = <f32>((i + j + k) & 1);
            expect<bool>(gemmCase(tA, tB, SMALL[i], SMALL[j], DEPTH[k], beta, 0)).toBe(true);
          }
        }
      }
    }
  });

  it("handles a prime above 256 in each dimension and padded leading dimensions", () => {
    for (let l = 0; l < 4; l++) {
      const tA = (l & 1) != 0, tB = (l & 2) != 0;
      expect<bool>(gemmCase(tA, tB, 257, 9, 5, 0, 0)).toBe(true);
      expect<bool>(gemmCase(tA, tB, 7, 257, 5, 1, 0)).toBe(true);
      expect<bool>(gemmCase(tA, tB, 5, 9, 257, 0, 3)).toBe(true);
      expect<bool>(gemmCase(tA, tB, 33, 31, 33, 1, 5)).toBe(true);
    }
  });

  it("crosses the MC, NC and KC blocking boundaries", () => {
    expect<bool>(gemmCase(false, false, 127, 1031, 9, 0, 0)).toBe(true);
    expect<bool>(gemmCase(true, false, 121, 17, 520, 1, 0)).toBe(true);
    expect<bool>(gemmCase(false, true, 9, 1025, 300, 0, 1)).toBe(true);
  });

  it("with beta = 0 ignores NaN already in C", () => {
    const A = allocF(12), B = allocF(12), C = allocF(9);
    fillUniform(A, 12, -1, 1);
    fillUniform(B, 12, -1, 1);
    for (let i = 0; i < 9; i++) setF(C, i, NaN);
    f32_gemm(false, false, 3, 3, 4, A, 4, B, 3, 0, C, 3, WORK);
    for (let i = 0; i < 9; i++) expect<bool>(isNaN(getF(C, i))).toBe(false);
  });
});

describe("f32_copy2d", () => {
  it("matches ref_copy2d at awkward widths with strides", () => {
    for (let i = 0; i < SIZES.length; i++) {
      for (let j = 0; j < SIZES.length; j++) {
        const N = SIZES[i], D = SIZES[j];
        const ldx = D + 3, ldo = D + 5;
        const X = allocF(N * ldx), O = allocF(N * ldo), R = allocF(N * ldo);
        fillUniform(X, N * ldx, -1, 1);
        f32_copy2d(O, ldo, X, ldx, N, D);
        ref_copy2d(R, ldo, X, ldx, N, D);
        expect<bool>(bitsEqual(O, R, N * ldo) && guardOk(O, N * ldo)).toBe(true);
        heap.free(R); heap.free(O); heap.free(X);
      }
    }
  });
});
