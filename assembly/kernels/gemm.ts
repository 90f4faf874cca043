// GEMM: C(M×N) = op(A)·op(B) + beta·C in the three layouts training needs (NN, NT, TN; TT too).
//
// GotoBLAS shape: op(A) is packed into MR-row panels and op(B) into NR-column panels, KC deep,
// with zero padding at the edges; a 4×8 register-blocked micro-kernel walks the panels.
// The transposition happens inside packing (each layout reads its source row by row), so
// A·Bᵀ and Aᵀ·B run at the speed of A·B and autodiff never materialises a transpose.
//
// Why 4×8 and no k-unrolling: V8 hoists every load of the
// loop body above the arithmetic, so registers = 4 A splats + 2 B vectors + 8 accumulators
// + 1 temporary = 15, exactly the xmm registers V8 leaves us. Any bigger tile or unroll spills.
//
// Not here: validation (the host checks shapes), threading (src/engine/threads.ts splits M or N
// along these panels and calls this kernel once per part).

// Panel geometry. KC·NR floats of B (8 KiB) stay in L1 across all A panels of a block;
// MC·KC floats of A (120 KiB) stay in L2.
const MR: i32 = 4;
const NR: i32 = 8;
const KC: i32 = 256;
const MC: i32 = 120; // multiple of MR
const NC: i32 = 1024; // multiple of NR

const PACK_A_FLOATS: i32 = MC * KC;
const PACK_B_FLOATS: i32 = NC * KC;
const TILE_FLOATS: i32 = MR * NR;

/** Bytes of the host-owned packing buffer `work` that f32_gemm needs (independent of the shape). */
export function f32_gemm_work_bytes(): i32 {
  return (PACK_A_FLOATS + PACK_B_FLOATS + TILE_FLOATS) << 2;
}

@inline function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) {
    return f32x4.relaxed_madd(a, b, c);
  } else {
    return f32x4.add(c, f32x4.mul(a, b));
  }
}

// 4×4 transpose of the rows r0..r3 into columns, stored at dst, dst+s, dst+2s, dst+3s (bytes).
@inline function transpose4_store(r0: v128, r1: v128, r2: v128, r3: v128, dst: usize, s: usize): void {
  const t0 = v128.shuffle<f32>(r0, r1, 0, 4, 1, 5); // r0[0] r1[0] r0[1] r1[1]
  const t1 = v128.shuffle<f32>(r2, r3, 0, 4, 1, 5); // r2[0] r3[0] r2[1] r3[1]
  const t2 = v128.shuffle<f32>(r0, r1, 2, 6, 3, 7);
  const t3 = v128.shuffle<f32>(r2, r3, 2, 6, 3, 7);
  v128.store(dst, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
  v128.store(dst + s, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7));
  v128.store(dst + 2 * s, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5));
  v128.store(dst + 3 * s, v128.shuffle<f32>(t2, t3, 2, 3, 6, 7));
}

// Pack op(A)[i0:i0+mc, k0:k0+kc] into ceil(mc/MR) panels; panel p holds, for each k, the MR
// values op(A)[i0+p·MR+r, k0+k] (zero past row mc).
// dst: (ceil(mc/MR), kc, MR)
function packA(transA: bool, A: usize, lda: i32, i0: i32, k0: i32, mc: i32, kc: i32, dst: usize): void {
  const panelBytes = <usize>(kc * MR) << 2;
  for (let p = 0; p < mc; p += MR) {
    const rows = min(MR, mc - p);
    const d = dst + <usize>(p / MR) * panelBytes;
    if (transA) {
      // op(A)[i,k] = A[k,i]: each k gives MR contiguous floats of stored row k.
      let src = A + ((<usize>k0 * lda + i0 + p) << 2);
      const step = <usize>lda << 2;
      if (rows == MR) {
        for (let k = 0; k < kc; k++) {
          v128.store(d + (<usize>k << 4), v128.load(src));
          src += step;
        }
      } else {
        for (let k = 0; k < kc; k++) {
          const o = d + (<usize>k << 4);
          v128.store(o, f32x4.splat(0));
          for (let r = 0; r < rows; r++) store<f32>(o + (<usize>r << 2), load<f32>(src + (<usize>r << 2)));
          src += step;
        }
      }
    } else {
      // op(A)[i,k] = A[i,k]: read 4 stored rows × 4 k and transpose into the panel.
      const base = A + ((<usize>(i0 + p) * lda + k0) << 2);
      const rs = <usize>lda << 2;
      if (rows == MR) {
        let k = 0;
        for (; k + 4 <= kc; k += 4) {
          const s = base + (<usize>k << 2);
          transpose4_store(v128.load(s), v128.load(s + rs), v128.load(s + 2 * rs), v128.load(s + 3 * rs), d + (<usize>k << 4), 16);
        }
        for (; k < kc; k++) {
          const s = base + (<usize>k << 2);
          const o = d + (<usize>k << 4);
          store<f32>(o, load<f32>(s));
          store<f32>(o, load<f32>(s + rs), 4);
          store<f32>(o, load<f32>(s + 2 * rs), 8);
          store<f32>(o, load<f32>(s + 3 * rs), 12);
        }
      } else {
        memory.fill(d, 0, panelBytes);
        for (let r = 0; r < rows; r++) {
          const s = base + <usize>r * rs;
          for (let k = 0; k < kc; k++) store<f32>(d + (<usize>(k * MR + r) << 2), load<f32>(s + (<usize>k << 2)));
        }
      }
    }
  }
}

// Pack op(B)[k0:k0+kc, j0:j0+nc] into ceil(nc/NR) panels; panel q holds, for each k, the NR
// values op(B)[k0+k, j0+q·NR+c] (zero past column nc).
// dst: (ceil(nc/NR), kc, NR)
function packB(transB: bool, B: usize, ldb: i32, k0: i32, j0: i32, kc: i32, nc: i32, dst: usize): void {
  const panelBytes = <usize>(kc * NR) << 2;
  for (let q = 0; q < nc; q += NR) {
    const cols = min(NR, nc - q);
    const d = dst + <usize>(q / NR) * panelBytes;
    if (!transB) {
      // op(B)[k,j] = B[k,j]: each k gives NR contiguous floats of stored row k.
      let src = B + ((<usize>k0 * ldb + j0 + q) << 2);
      const step = <usize>ldb << 2;
      if (cols == NR) {
        for (let k = 0; k < kc; k++) {
          const o = d + (<usize>k << 5);
          v128.store(o, v128.load(src));
          v128.store(o, v128.load(src, 16), 16);
          src += step;
        }
      } else {
        for (let k = 0; k < kc; k++) {
          const o = d + (<usize>k << 5);
          v128.store(o, f32x4.splat(0));
          v128.store(o, f32x4.splat(0), 16);
          for (let c = 0; c < cols; c++) store<f32>(o + (<usize>c << 2), load<f32>(src + (<usize>c << 2)));
          src += step;
        }
      }
    } else {
      // op(B)[k,j] = B[j,k]: read 4 stored rows (= 4 columns of op(B)) × 4 k and transpose.
      const base = B + ((<usize>(j0 + q) * ldb + k0) << 2);
      const rs = <usize>ldb << 2;
      if (cols == NR) {
        let k = 0;
        for (; k + 4 <= kc; k += 4) {
          const s = base + (<usize>k << 2);
          const o = d + (<usize>k << 5);
          transpose4_store(v128.load(s), v128.load(s + rs), v128.load(s + 2 * rs), v128.load(s + 3 * rs), o, 32);
          const s4 = s + 4 * rs;
          transpose4_store(v128.load(s4), v128.load(s4 + rs), v128.load(s4 + 2 * rs), v128.load(s4 + 3 * rs), o + 16, 32);
        }
        for (; k < kc; k++) {
          const s = base + (<usize>k << 2);
          const o = d + (<usize>k << 5);
          for (let c = 0; c < NR; c++) store<f32>(o + (<usize>c << 2), load<f32>(s + <usize>c * rs));
        }
      } else {
        memory.fill(d, 0, panelBytes);
        for (let c = 0; c < cols; c++) {
          const s = base + <usize>c * rs;
          for (let k = 0; k < kc; k++) store<f32>(d + (<usize>(k * NR + c) << 2), load<f32>(s + (<usize>k << 2)));
        }
      }
    }
  }
}

// The 4×8 micro-kernel: C[0:4, 0:8] (row stride ldc floats) = (acc ? C : 0) + Σ_k a[k,:]ᵀ·b[k,:].
// a: (kc, 4) packed panel, b: (kc, 8) packed panel. Kept small and separate so V8 tiers it up early.
function micro4x8(kc: i32, a: usize, b: usize, C: usize, ldc: i32, acc: bool): void {
  const rs = <usize>ldc << 2;
  const c0 = C, c1 = C + rs, c2 = C + 2 * rs, c3 = C + 3 * rs;
  let x00: v128, x01: v128, x10: v128, x11: v128, x20: v128, x21: v128, x30: v128, x31: v128;
  if (acc) {
    x00 = v128.load(c0); x01 = v128.load(c0, 16);
    x10 = v128.load(c1); x11 = v128.load(c1, 16);
    x20 = v128.load(c2); x21 = v128.load(c2, 16);
    x30 = v128.load(c3); x31 = v128.load(c3, 16);
  } else {
    x00 = f32x4.splat(0); x01 = x00; x10 = x00; x11 = x00;
    x20 = x00; x21 = x00; x30 = x00; x31 = x00;
  }
  const aEnd = a + (<usize>kc << 4);
  while (a < aEnd) {
    const b0 = v128.load(b);
    const b1 = v128.load(b, 16);
    const a0 = v128.load32_splat(a);
    const a1 = v128.load32_splat(a, 4);
    const a2 = v128.load32_splat(a, 8);
    const a3 = v128.load32_splat(a, 12);
    x00 = madd(a0, b0, x00); x01 = madd(a0, b1, x01);
    x10 = madd(a1, b0, x10); x11 = madd(a1, b1, x11);
    x20 = madd(a2, b0, x20); x21 = madd(a2, b1, x21);
    x30 = madd(a3, b0, x30); x31 = madd(a3, b1, x31);
    a += 16;
    b += 32;
  }
  v128.store(c0, x00); v128.store(c0, x01, 16);
  v128.store(c1, x10); v128.store(c1, x11, 16);
  v128.store(c2, x20); v128.store(c2, x21, 16);
  v128.store(c3, x30); v128.store(c3, x31, 16);
}

// Edge tile (mr < 4 or nr < 8): run the micro-kernel on a 4×8 scratch tile and copy the valid part.
function microEdge(kc: i32, a: usize, b: usize, C: usize, ldc: i32, acc: bool, mr: i32, nr: i32, tile: usize): void {
  if (acc) {
    for (let r = 0; r < mr; r++) {
      for (let c = 0; c < nr; c++) store<f32>(tile + (<usize>(r * NR + c) << 2), load<f32>(C + (<usize>(r * ldc + c) << 2)));
    }
  }
  micro4x8(kc, a, b, tile, NR, acc);
  for (let r = 0; r < mr; r++) {
    for (let c = 0; c < nr; c++) store<f32>(C + (<usize>(r * ldc + c) << 2), load<f32>(tile + (<usize>(r * NR + c) << 2)));
  }
}

/**
 * C = op(A)·op(B) + beta·C, with beta ∈ {0, 1}.
 * shapes: op(A): (M, K), op(B): (K, N), C: (M, N) with row stride ldc.
 * transA: A is stored (K, M) with row stride lda, else (M, K). transB: B is stored (N, K), else (K, N).
 * work: f32_gemm_work_bytes() bytes owned by the caller (not shared between concurrent calls).
 */
export function f32_gemm(
  transA: bool, transB: bool, M: i32, N: i32, K: i32,
  A: usize, lda: i32, B: usize, ldb: i32, beta: f32, C: usize, ldc: i32, work: usize,
): void {
  assert(M >= 0 && N >= 0 && K >= 0);
  assert(beta == 0 || beta == 1);
  if (M == 0 || N == 0) return;
  if (K == 0) {
    if (beta == 0) {
      for (let i = 0; i < M; i++) memory.fill(C + (<usize>i * ldc << 2), 0, <usize>N << 2);
    }
    return;
  }
  const packedA = work;
  const packedB = work + (<usize>PACK_A_FLOATS << 2);
  const tile = packedB + (<usize>PACK_B_FLOATS << 2);
  for (let jc = 0; jc < N; jc += NC) {
    const nc = min(NC, N - jc);
    for (let pc = 0; pc < K; pc += KC) {
      const kc = min(KC, K - pc);
      const acc = pc > 0 || beta != 0;
      packB(transB, B, ldb, pc, jc, kc, nc, packedB);
      for (let ic = 0; ic < M; ic += MC) {
        const mc = min(MC, M - ic);
        packA(transA, A, lda, ic, pc, mc, kc, packedA);
        for (let jr = 0; jr < nc; jr += NR) {
          const nr = min(NR, nc - jr);
          const pb = packedB + (<usize>(jr * kc) << 2);
          for (let ir = 0; ir < mc; ir += MR) {
            const mr = min(MR, mc - ir);
            const pa = packedA + (<usize>(ir * kc) << 2);
            const c = C + (<usize>((ic + ir) * ldc + jc + jr) << 2);
            if (mr == MR && nr == NR) micro4x8(kc, pa, pb, c, ldc, acc);
            else microEdge(kc, pa, pb, c, ldc, acc, mr, nr, tile);
          }
        }
      }
    }
  }
}

/** Scalar twin of f32_gemm (the test oracle): the textbook triple loop, f32 accumulation in k order. */
export function ref_gemm(
  transA: bool, transB: bool, M: i32, N: i32, K: i32,
  A: usize, lda: i32, B: usize, ldb: i32, beta: f32, C: usize, ldc: i32, work: usize,
): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s: f32 = 0;
      for (let k = 0; k < K; k++) {
        const a = transA ? load<f32>(A + (<usize>(k * lda + i) << 2)) : load<f32>(A + (<usize>(i * lda + k) << 2));
        const b = transB ? load<f32>(B + (<usize>(j * ldb + k) << 2)) : load<f32>(B + (<usize>(k * ldb + j) << 2));
        s += a * b;
      }
      const p = C + (<usize>(i * ldc + j) << 2);
      store<f32>(p, beta == 0 ? s : load<f32>(p) + s);
    }
  }
}
