// The probe behind an audit's estimate (estimate.ts): a few real LUCID-GAN training steps with the
// audit's configuration, timed on a slice of its rows, on whatever engine runs them (the audit's, or a
// side-by-side worker's one-thread engine: gan-workers.ts). Core code: no Node imports; the probe draws
// only from its own seeded Rng and frees everything it made.
import type { Engine } from '../engine/engine.js';
import type { Table } from '../data/table.js';
import { selectRows } from '../data/table.js';
import { LucidGan, type FitOptions } from '../models/lucidgan/model.js';
import { GanTrainer } from '../models/lucidgan/train.js';

export const PROBE_DEFAULTS = {
  /** rows of the probe's slice (at least 4 batches) */
  rows: 1000,
  /**
   * untimed steps first, at least this many and for at least warmupMs (the engine's threads and the JIT warm up: the
   * first steps of a process run slower)
   */
  warmup: 2,
  warmupMs: 150,
  /** timed steps: the probe takes their median (a garbage collection or a busy core in one step moves it little) */
  steps: 7,
};

/** What the probe measured: the setup (the VGM fits, the transform, the model) of `rows` rows, and one step. */
export interface GanProbe {
  setupSeconds: number;
  rows: number;
  stepSeconds: number;
}

/** Evenly spaced rows of `t`, as many as the probe reads for batches of `batch`. */
export function probeSlice(t: Table, batch: number): Table {
  const rows = Math.min(t.rows, Math.max(PROBE_DEFAULTS.rows, 4 * batch));
  return rows === t.rows
    ? t
    : selectRows(
        t,
        Int32Array.from({ length: rows }, (_, i) => Math.floor((i * t.rows) / rows)),
      );
}

/**
 * Sets up a GAN on `slice` with `fit` and times its training steps (the median of PROBE_DEFAULTS.steps, after the
 * warm-up).
 */
export function probeGan(engine: Engine, slice: Table, fit: FitOptions): GanProbe {
  const t0 = performance.now();
  const { model, x, rng } = LucidGan.setup(engine, slice, { ...fit, seed: 0, where: "the estimate's probe" });
  const setupSeconds = (performance.now() - t0) / 1000;
  const trainer = new GanTrainer(model, x, rng);
  try {
    const warm = performance.now();
    for (let s = 0; s < PROBE_DEFAULTS.warmup || performance.now() - warm < PROBE_DEFAULTS.warmupMs; s++)
      trainer.step();
    const times: number[] = [];
    for (let s = 0; s < PROBE_DEFAULTS.steps; s++) {
      const t1 = performance.now();
      trainer.step();
      times.push((performance.now() - t1) / 1000);
    }
    times.sort((a, b) => a - b);
    return { setupSeconds, rows: slice.rows, stepSeconds: times[times.length >> 1] };
  } finally {
    trainer.dispose();
    model.dispose();
  }
}

/** An audit's time, estimated before its GANs train. */
export interface AuditEstimate {
  /** the whole audit, and its GAN training, in seconds */
  seconds: number;
  ganSeconds: number;
  /** a ceiling: a stopping rule may end training sooner */
  ceiling: boolean;
  /** what is trained, in words ("3 LUCID-GANs × 50 epochs of 32 steps") */
  what: string;
  /** the probe on the audit's engine, and in a side-by-side worker (null: not needed) */
  probes: { engine: GanProbe | null; worker: GanProbe | null };
}
