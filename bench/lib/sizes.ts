// Every size the benches use, in one table: GEMM shapes, the Adult-sized CTGAN model, budgets.

export type Layout = 'NN' | 'NT' | 'TN';

export interface GemmShape {
  /** C(M×N) = op(A)(M×K) · op(B)(K×N) */
  M: number;
  K: number;
  N: number;
  /** Where the shape comes from. */
  note: string;
  /** Per-group budget override (big shapes need longer rounds to get more than one sample each). */
  budget?: Partial<Budget>;
}

/** The training shapes (CTGAN on Adult, each row's note says which layer) and the classic cube. */
export const GEMM_SHAPES: readonly GemmShape[] = [
  { M: 500, K: 278, N: 256, note: 'generator layer 2 (Residual, batch 500)' },
  { M: 500, K: 256, N: 256, note: 'hidden 256→256, batch 500' },
  { M: 50, K: 2510, N: 256, note: "critic layer 1 on the pac'd input (pac 10)" },
  { M: 1024, K: 1024, N: 1024, note: '1024³', budget: { roundTimeMs: 250 } },
];

export const GEMM_LAYOUTS: readonly Layout[] = ['NN', 'NT', 'TN'];

export const gemmName = (s: GemmShape, layout: Layout) => `gemm ${s.M}x${s.K}x${s.N} ${layout}`;
export const gemmFlops = (s: GemmShape) => 2 * s.M * s.N * s.K;

/** Ops tier. */
export const OPS = {
  linear: { batch: 500, inFeatures: 278, outFeatures: 256 },
  batchNorm: { batch: 500, features: 256 },
} as const;

/**
 * The Adult-sized CTGAN of the e2e tier: data dim 152 = 20 numeric columns encoded as
 * [tanh 1][softmax 5 modes] (120 columns) + categorical spans summing to 32; cond 98 + 1
 * prediction column; embedding 128; generator Residual(227→256), Residual(483→256),
 * Linear(739→152); critic with pac 10 on (50, 2510).
 */
export const CTGAN = {
  batch: 500,
  embedding: 128,
  condDim: 99,
  numericColumns: 20,
  modesPerNumeric: 5,
  categoricalSpans: [9, 7, 6, 5, 3, 2] as readonly number[],
  generatorDims: [256, 256] as readonly number[],
  criticDims: [256, 256] as readonly number[],
  pac: 10,
  leakySlope: 0.2,
  dropout: 0.5,
  tau: 0.2,
  penaltyLambda: 10,
  adam: { lr: 2e-4, betas: [0.5, 0.9] as [number, number], weightDecay: 1e-6 },
} as const;

export const ctganDataDim = (): number =>
  CTGAN.numericColumns * (1 + CTGAN.modesPerNumeric) + CTGAN.categoricalSpans.reduce((a, b) => a + b, 0);

/**
 * Figures quoted from earlier measurements of PyTorch and patched tfjs-wasm on this machine type (NOT measured by this
 * harness).
 */
export const E2E_REFERENCE_MS = {
  'pytorch-1.13-cpu-1t': 130,
  'tfjs-wasm-patched': 257,
  target: 65,
} as const;

/**
 * Sampling budget of a group. Each group runs `rounds` tinybench Benches over all its cases
 * (all engines of one shape in the same Bench, their order rotated each round); a case is
 * sampled for `roundTimeMs` per round, so about rounds × roundTimeMs in total.
 * A case whose first (probe) call takes longer than `slowMs` is "slow" (the JS loop, tfjs's
 * transpose flags at big shapes): it runs once per round, in at most
 * max(1, ⌊slowBudgetMs / probe⌋) rounds, and gets no warm-up beyond the probe.
 */
export interface Budget {
  rounds: number;
  roundTimeMs: number;
  warmupMs: number;
  slowMs: number;
  slowBudgetMs: number;
}

export const DEFAULT_BUDGET: Budget = {
  rounds: 5,
  roundTimeMs: 80,
  warmupMs: 150,
  slowMs: 250,
  slowBudgetMs: 6000,
};
