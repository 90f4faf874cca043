// Where one LUCID-GAN epoch's time goes, kernel by kernel: the evidence behind the kernel-fusion
// decisions, written into BENCHMARKS.md by `--write`. The profile runs on an engine of its own (one
// thread), whose kernel table is replaced by timed wrappers; the measured engines are not touched.
import type { Kernels } from '../../src/engine/wasm.js';
import { initNodeEngine } from '../../src/node/engine.js';
import { LucidGan } from '../../src/models/lucidgan/model.js';
import { GanTrainer } from '../../src/models/lucidgan/train.js';
import { ganBenchTable } from '../gan.bench.js';

export interface KernelTime {
  kernel: string;
  ms: number;
  calls: number;
}

export interface EpochProfile {
  /** wall time of the profiled epoch (with the timing wrappers) */
  epochMs: number;
  /** the same epoch's steps */
  steps: number;
  /** per kernel, slowest first */
  kernels: KernelTime[];
  source: string;
  /** the Adult data was absent: the simulator's rows stood in */
  simulated: boolean;
}

/**
 * The fusion candidates considered, each with the kernels whose work it would merge. The time of
 * those kernels is an upper bound on what the fusion could save (a fusion still does the arithmetic;
 * it saves passes over memory and calls).
 */
export const FUSION_CANDIDATES: { candidate: string; kernels: string[]; note: string }[] = [
  {
    candidate: 'linear + bias + activation forward',
    kernels: ['f32_binary_rows', 'f32_unary', 'f32_leaky_relu'],
    note:
      'the GEMM stays; the bias is a row-broadcast add, ReLU a unary op (the columns count every row-broadcast and ' +
      'unary op, not only these)',
  },
  {
    candidate: 'batch-norm forward and backward in one pass each',
    kernels: ['f32_bn_stats', 'f32_bn_fwd', 'f32_bn_bwd'],
    note: 'already one kernel each way (statistics + normalise forward, one backward)',
  },
  {
    candidate: 'one Adam call over all parameters',
    kernels: ['f32_adam'],
    note: 'one call per parameter tensor per step now',
  },
  {
    candidate: 'the packed critic input path',
    kernels: ['f32_copy2d'],
    note: 'every strided copy (concat and slice forward and backward), not only the critic input',
  },
];

/** One warm-up epoch, then one timed epoch of the paper-mode training on the bench's Adult table. */
export async function profileEpoch(log: (m: string) => void): Promise<EpochProfile> {
  const engine = await initNodeEngine({ threads: 1 });
  const { table, source, simulated } = await ganBenchTable(engine, log);
  const { model, x, rng } = LucidGan.setup(engine, table, { conditions: ['preds'], seed: 0, paper: true });
  const trainer = new GanTrainer(model, x, rng);
  try {
    for (let i = 0; i < trainer.steps; i++) trainer.step();
    const times = new Map<string, KernelTime>();
    const plain = engine.k;
    const timed = { ...plain } as Record<string, unknown>;
    for (const [name, f] of Object.entries(plain)) {
      if (typeof f !== 'function') continue;
      const t: KernelTime = { kernel: name, ms: 0, calls: 0 };
      times.set(name, t);
      timed[name] = (...a: unknown[]) => {
        const t0 = performance.now();
        try {
          return (f as (...a: unknown[]) => unknown)(...a);
        } finally {
          t.ms += performance.now() - t0;
          t.calls++;
        }
      };
    }
    // this engine is the profile's own: swapping its kernel table affects nothing else
    Object.defineProperty(engine, 'k', { value: timed as unknown as Kernels });
    const t0 = performance.now();
    for (let i = 0; i < trainer.steps; i++) trainer.step();
    const epochMs = performance.now() - t0;
    const kernels = [...times.values()].filter((t) => t.calls > 0).sort((a, b) => b.ms - a.ms);
    return { epochMs, steps: trainer.steps, kernels, source, simulated };
  } finally {
    trainer.dispose();
    model.dispose();
  }
}
