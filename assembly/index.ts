// The kernel ABI of lucid-wasm: every export is a plain numeric function over raw pointers.
//
// Conventions (one rule for every kernel, so the host never has to guess):
// - Pointers are byte offsets into the one linear memory; sizes are element counts (i32).
// - Matrices are row-major f32 with an explicit leading dimension where a kernel takes one.
// - A kernel WRITES its output (it never accumulates) unless its name ends in `_acc`
//   or it takes a `beta` argument. Accumulating into gradients is the host tape's job.
// - Elementwise kernels allow out == input (in place); other aliasing is not allowed.
// - Kernels validate nothing beyond `assert` (debug build only). The host validates.
// - Kernels hold no global state, so they can later run on shared memory from several threads.
// - Every SIMD kernel `f32_<op>` has a scalar twin `ref_<op>` in the same file; the
//   as-pect specs in assembly/__tests__ compare the two at awkward sizes.
//
// Dimension letters: N rows (batch), D columns (features), M/N/K for GEMM (C: M×N, inner K).
export * from "./kernels/gemm";
export * from "./kernels/elementwise";
export * from "./kernels/reduce";
export * from "./kernels/batchnorm";
export * from "./kernels/softmax";
export * from "./kernels/optim";
export * from "./kernels/rng";
export * from "./kernels/layout";
export * from "./kernels/mixture";

/** First free byte after the static data; the host's allocator owns everything above it. */
export function heap_base(): usize {
  return __heap_base;
}
