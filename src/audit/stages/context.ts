// What every stage of an audit shares: the engine, the data, the plan (the call settled: plan.ts),
// and where the stages write what the report collects on the way (warnings, caveats, the seeds used,
// the timings, progress). run.ts makes one per audit; a stage reads it and returns its own
// result, which later stages take as arguments — nothing else passes between stages.
import type { Engine } from '../../engine/engine.js';
import { getColumn, type Column, type Table } from '../../data/table.js';
import type { LucidGan } from '../../models/lucidgan/model.js';
import type { Scorer } from '../canonical.js';
import type { AuditOptions, StageEta } from '../options.js';
import { auditPlan, type AuditPlan } from '../plan.js';
import type { AuditResult } from '../types.js';

export interface AuditContext {
  engine: Engine;
  table: Table;
  /** the call, settled: every default applied and every check made (plan.ts) */
  plan: AuditPlan;
  warnings: string[];
  caveats: AuditResult['caveats'];
  /** every seed used, by purpose, in the order used (meta.seeds) */
  seedLog: Record<string, number>;
  /** when the audit started (performance.now() or Date.now()) */
  started: number;
  /** milliseconds per stage, in the order run (meta.timings) */
  timings: Record<string, number>;
  /** closes the timing of `stage`: the time since the previous lap */
  lap(stage: string): void;
  /** plan.onProgress with the fraction clamped to [0, 1] */
  progress(stage: string, fraction: number, eta?: StageEta): void;
  /** what the audit disposes of however it ends (the GAN stage fills it as it goes) */
  owned: { gans: LucidGan[]; scorer: Scorer | null };
  /**
   * what scores generated rows when the caller says (the side scorer of a score's, class's or value's two targets:
   * stages/sides.ts); absent: the model, or a surrogate of the predictions column
   */
  scorer?: Scorer;
  /** the columns the audited model reads, when the plan has no model to say so (the side view: stages/sides.ts) */
  modelFeatures?: readonly string[];
  /**
   * the stage during which plan.shouldStop() was first seen true (null: never): the audit is then marked interrupted
   */
  stoppedIn: () => string | null;
}

export const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * The columns an audit can take as protected attributes, in the table's order: not the label, not the
 * predictions column (auditContext refuses both), not an identifier (text distinct on nearly every row,
 * as the reader marks it: every row its own group) and not one of `mostlyNumeric` (numbers with a few
 * text cells, which the CLI refuses as a protected column: src/node/csv.ts requireClean). The browser
 * page offers only these.
 */
export function protectedCandidates(
  table: Table,
  roles: { label: string; pred?: string | null; mostlyNumeric?: readonly string[] },
): string[] {
  const refused = new Set(roles.mostlyNumeric ?? []);
  return table.columns
    .filter(
      (c) =>
        c.name !== roles.label &&
        c.name !== roles.pred &&
        !(c.kind === 'categorical' && c.identifier) &&
        !refused.has(c.name),
    )
    .map((c) => c.name);
}

/** The column `name`, or the one unknown-column error (exit 2) naming it and listing those that exist. */
export function requireColumn(table: Table, name: string, what: string): Column {
  return getColumn(table, name, 'audit', what);
}

/**
 * Settles the call into its plan (every check before any work) and makes the audit's context; the clock starts here.
 */
export function auditContext(engine: Engine, table: Table, opts: AuditOptions): AuditContext {
  const tStart = now();
  const timings: Record<string, number> = {};
  let tStage = tStart;
  const plan = auditPlan(table, opts);
  // a stop request is noticed at the next progress report or at the end; it came during the stage
  // reported before (training that stops mid-epoch reports the next stage first)
  let stoppedIn: string | null = null;
  let lastStage = 'start';
  const noteStop = (stage: string) => {
    if (stoppedIn === null && plan.shouldStop?.()) stoppedIn = lastStage;
    lastStage = stage;
  };
  return {
    engine,
    table,
    plan,
    warnings: [],
    caveats: [],
    seedLog: { audit: plan.seed },
    timings,
    lap: (stage) => {
      const t = now();
      timings[stage] = Math.round(t - tStage);
      tStage = t;
    },
    progress: (stage, f, eta) => {
      noteStop(stage);
      plan.onProgress?.(stage, Math.min(1, Math.max(0, f)), eta);
    },
    owned: { gans: [], scorer: null },
    stoppedIn: () => {
      noteStop(lastStage);
      return stoppedIn;
    },
    started: tStart,
  };
}

/** Milliseconds since the context was made. */
export function elapsed(ctx: AuditContext): number {
  return now() - ctx.started;
}
