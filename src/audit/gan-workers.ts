// GAN seeds side by side (issue #36; EXPERIMENTS.md §12.8). An audit's LUCID-GANs are independent
// fits of one table with different seeds, so with spare cores they can train at the same time, each
// in a worker with an engine of its own. The engine gives the same bits at any thread count
// (src/engine/threads.ts), so a generator trained in a one-thread worker is byte-identical to the one
// the audit's own engine would have trained: side by side changes the time, never a figure.
//
// Core code (no Node imports): the job and its result are structured-cloneable, `trainGanJob` is what
// a worker runs, and `GanWorkers` is what a runtime layer gives the audit (Node: src/node/gan-workers.ts).
import { EngineError, type ErrorCode } from '../engine/errors.js';
import type { Engine } from '../engine/engine.js';
import type { Table } from '../data/table.js';
import { LucidGan, type FitOptions, type FitStatus, type GanEpoch } from '../models/lucidgan/model.js';
import { ganSetFromJSON, ganToJSON } from '../models/lucidgan/format.js';

/**
 * Whether audits train GAN seeds side by side when they have 2 or more threads, by default. Decided
 * by EXPERIMENTS.md §12.8's rule on the bench (`--gan-side-by-side` overrides it).
 */
export const SIDE_BY_SIDE_DEFAULT = false;

/** One LUCID-GAN fit to run in a worker: the training rows and the fit's options (no callbacks, no stopping check). */
export interface GanJob {
  table: Table;
  fit: Omit<FitOptions, 'onEpoch' | 'shouldStop' | 'checkpoint'>;
}

/** What a worker hands back: the trained generator as its file's JSON (ganToJSON), and how training ended. */
export interface GanJobResult {
  json: object;
  status: FitStatus;
  message?: string;
}

/** An error of a worker's fit, as it crosses to the audit's thread (an EngineError keeps its code). */
export interface GanJobFailure {
  code: ErrorCode | null;
  message: string;
}

/**
 * Trains GANs in workers, side by side (given by the runtime layer; the audit calls `train` for
 * several jobs at once and waits for them all).
 */
export interface GanWorkers {
  /** how many jobs run at once (one core each) */
  readonly size: number;
  /**
   * Trains one job in a worker. `onEpoch` hears each epoch; `shouldStop` is asked while it trains,
   * and true ends it after the current step (the result is then 'interrupted', the model kept).
   */
  train(job: GanJob, onEpoch: (e: GanEpoch) => void, shouldStop?: () => boolean): Promise<GanJobResult>;
  /** ends the workers (idempotent) */
  close(): void;
}

/** The worker's side: fits `job` on `engine` (a one-thread engine of the worker's own) and returns the generator as JSON. */
export async function trainGanJob(engine: Engine, job: GanJob, onEpoch: (e: GanEpoch) => void, shouldStop: () => boolean): Promise<GanJobResult> {
  const fit = await LucidGan.fit(engine, job.table, { ...job.fit, onEpoch, shouldStop });
  try {
    return { json: ganToJSON(fit.model, fit.status), status: fit.status, ...(fit.message !== undefined ? { message: fit.message } : {}) };
  } finally {
    fit.model.dispose();
  }
}

/** A worker's error as it crosses threads. */
export function jobFailure(e: unknown): GanJobFailure {
  return e instanceof EngineError ? { code: e.code, message: e.message } : { code: null, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

/** The error the audit raises for a worker's failure (an EngineError keeps its code; anything else is a bug, said as one). */
export function failureError(f: GanJobFailure): Error {
  return f.code !== null ? new EngineError(f.code, f.message) : new Error(`a GAN training worker failed: ${f.message}`);
}

/** The generator a worker trained, on the audit's engine. */
export function jobModel(engine: Engine, r: GanJobResult, where: string): LucidGan {
  return ganSetFromJSON(engine, r.json, where).members[0].model;
}

/**
 * Which of `seeds` GAN seeds train side by side with `size` workers: whole waves of `size` (at most
 * the seeds), in seed order; the rest (fewer than a wave) train on the audit's engine with all its
 * threads, which is faster for a lone seed than one core. Empty when there is nothing to run side by side.
 */
export function sideBySide(seeds: number, size: number): number[][] {
  const width = Math.min(size, seeds);
  if (width < 2) return [];
  const waves: number[][] = [];
  for (let k = 0; k + width <= seeds; k += width) waves.push(Array.from({ length: width }, (_, j) => k + j));
  return waves;
}
