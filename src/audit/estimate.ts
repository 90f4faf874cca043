// The time an audit will take, told before it trains. Most of an audit is training
// its LUCID-GANs (EXPERIMENTS.md §12.7: 93–96% of the default audit), and a GAN step's time depends on
// the machine, the engine's threads and the widths, not on the values: so the estimate times a few real
// training steps of a GAN with the audit's configuration on a slice of the rows (gan-probe.ts, about a
// second or less), where the GANs will train (the audit's engine, a side-by-side worker or both), and
// multiplies. The VGM fits that start each GAN are timed on the slice and scaled by the rows. Core code:
// no Node imports; the probe leaves nothing behind, so an audit's figures do not depend on whether it
// was estimated.
import type { Engine } from '../engine/engine.js';
import type { Column, Table } from '../data/table.js';
import { selectRows } from '../data/table.js';
import type { FitOptions } from '../models/lucidgan/model.js';
import { probeGan, probeSlice, type AuditEstimate, type GanProbe } from './gan-probe.js';
export type { AuditEstimate } from './gan-probe.js';
import { sideBySide, type GanWorkers } from './gan-workers.js';
import type { AuditOptions } from './options.js';
import { ganPlan } from './plan.js';

export const ESTIMATE_DEFAULTS = {
  /** the GANs' share of a default audit's time (EXPERIMENTS.md §12.7: 0.93 Adult, 0.96 COMPAS and the simulated set) */
  ganShare: 0.94,
};

/** How an audit's GANs will train: their rows (with the condition column last) and configuration. */
export interface GanPlanShape {
  ganTable: Table;
  condition: string;
  seeds: number;
  epochs: number;
  batch: number;
  fit: Omit<FitOptions, 'conditions' | 'epochs' | 'batch' | 'seed' | 'onEpoch' | 'shouldStop' | 'checkpoint'>;
  ceiling: boolean;
}

/**
 * Times the probe (gan-probe.ts) where the GANs will train, and scales it to the whole training: the
 * seeds of whole side-by-side waves (`workers`) at a worker's pace, a wave taking one GAN's time; the
 * rest at the audit's engine's pace.
 */
export async function estimateGans(engine: Engine, plan: GanPlanShape, workers?: GanWorkers): Promise<AuditEstimate> {
  const t = plan.ganTable;
  const slice = probeSlice(t, plan.batch);
  const fit: FitOptions = { ...plan.fit, conditions: [plan.condition], epochs: 1, batch: plan.batch };
  const waves = workers ? sideBySide(plan.seeds, workers.size) : [];
  const inWaves = waves.reduce((n, w) => n + w.length, 0);
  // the engine's probe first: a worker that has just finished its own still holds a core for a while (its clean-up),
  // which slows the engine's threads
  const onEngine = inWaves < plan.seeds ? probeGan(engine, slice, fit) : null;
  const worker = waves.length && workers ? await workers.probe({ table: slice, fit }) : null;
  const steps = Math.max(1, Math.floor(t.rows / plan.batch));
  const perGan = (p: GanProbe | null) =>
    p ? p.setupSeconds * (t.rows / p.rows) + plan.epochs * steps * p.stepSeconds : 0;
  const ganSeconds = waves.length * perGan(worker) + (plan.seeds - inWaves) * perGan(onEngine);
  return {
    seconds: ganSeconds / ESTIMATE_DEFAULTS.ganShare,
    ganSeconds,
    ceiling: plan.ceiling,
    what:
      `${plan.seeds} LUCID-GAN${plan.seeds === 1 ? '' : 's'} × ${plan.epochs} epochs of ${steps} ` +
      `step${steps === 1 ? '' : 's'}`,
    probes: { engine: onEngine, worker },
  };
}

/**
 * The estimate of the default audit of `table` with `opts`, before anything runs (the browser page
 * shows it before Run): the GANs' rows are taken as the audit takes them (every column but the label,
 * the predictions and identifiers; at most ganRows rows), with a condition column of their own.
 */
export async function estimateAudit(
  engine: Engine,
  table: Table,
  opts: Pick<
    AuditOptions,
    | 'label'
    | 'pred'
    | 'ganSeeds'
    | 'ganEpochs'
    | 'ganBatch'
    | 'ganRows'
    | 'ganSchedule'
    | 'ganMode'
    | 'ganPointShare'
    | 'ganWorkers'
  >,
): Promise<AuditEstimate> {
  const gan = ganPlan(opts);
  const schedule = gan.scheduleDef;
  const cols: Column[] = table.columns.filter(
    (c) => c.name !== opts.label && c.name !== opts.pred && !(c.kind === 'categorical' && c.identifier),
  );
  const kept = Math.round(Math.min(table.rows, gan.rowsMax) * (1 - schedule.holdout));
  const condition = '__lucid_estimate_condition__';
  const base: Table = {
    rows: table.rows,
    columns: [...cols, { kind: 'numeric', name: condition, values: new Float64Array(table.rows).fill(0.5) }],
  };
  const ganTable =
    kept >= table.rows
      ? base
      : selectRows(
          base,
          Int32Array.from({ length: kept }, (_, i) => Math.floor((i * table.rows) / kept)),
        );
  const batch = gan.batchFor(ganTable.rows);
  return estimateGans(
    engine,
    {
      ganTable,
      condition,
      seeds: gan.count,
      epochs: gan.epochsFor(ganTable.rows, batch),
      batch,
      fit: {
        paper: gan.mode === 'paper',
        pointShare: gan.pointShare,
        ...(schedule.dims ? { generatorDims: schedule.dims, discriminatorDims: schedule.dims } : {}),
      },
      ceiling: schedule.stop !== undefined,
    },
    schedule.stop ? undefined : opts.ganWorkers,
  );
}
