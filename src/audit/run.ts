// runAudit: one call from data and a model (or a predictions column) to everything the report
// shows — group metrics, LUCID-GAN canonical sets (main, proxy view, intersections), LUCID, FALE,
// distributions with Jensen–Shannon distances, validity and caveats. Core code: no Node imports,
// so it runs in a browser or a worker as well; src/node/audit.ts writes the files.
//
// This file is the orchestrator only: each stage is one module of src/audit/stages/, which reads the
// audit's context (stages/context.ts: the plan, the call settled by plan.ts) and the results of the stages before it,
// and returns its own. A new stage is its module, one line here, and its field of StageResults (stages/result.ts).
//
// The canonical sets come from several LUCID-GANs (one per GAN seed), drawn by rejection
// (src/audit/canonical.ts) and checked against the real rows (src/audit/checks.ts); what the report
// states about them is decided from those checks (src/audit/findings.ts).
//
// Every draw is seeded from the plan's seeds (plan.ts, all derived from opts.seed) through the
// project's Rng: the same data, model and options give the same result (timings aside).
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import type { AuditOptions } from './options.js';
import type { AnyAuditResult, AuditResult } from './types.js';
import { auditContext, elapsed, type AuditContext } from './stages/context.js';
import { outputStage } from './stages/output.js';
import { check } from '../engine/errors.js';
import { metricsStage, refuseDegenerate, suppression } from './stages/metrics.js';
import { ganStage } from './stages/gan.js';
import { canonicalStage, sets } from './stages/canonical-sets.js';
import { checksStage } from './stages/checks.js';
import { intersectionsStage } from './stages/intersections.js';
import { conditionalStage } from './stages/conditional.js';
import { lucidStage } from './stages/lucid.js';
import { faleStage } from './stages/fale.js';
import { auditResult } from './stages/result.js';

export {
  AUDIT_DEFAULTS,
  AUDIT_VERSION,
  DERIVED_SEEDS,
  ganBatchFor,
  ganEpochsFor,
  ganStepsFor,
  type AuditOptions,
} from './options.js';
export { metricsStage, type MetricsStage } from './stages/metrics.js';
export { auditContext } from './stages/context.js';
export { auditPlan, type AuditPlan } from './plan.js';
export { intersectionPowerCaveat } from './stages/intersections.js';
export { lucidStart } from './stages/lucid.js';

/**
 * Audits a model (or a column of its predictions) on `table`. See AuditResult (types.ts) for what
 * comes back; the steps: score the data, group metrics, LUCID-GAN conditioned on the predictions,
 * the positive/negative canonical sets, the proxy view, intersections, LUCID, FALE, caveats.
 */
export async function runAudit(engine: Engine, table: Table, opts: AuditOptions): Promise<AuditResult> {
  const ctx = auditContext(engine, table, opts);
  check(
    ctx.plan.output.kind === 'binary',
    'E_ARG',
    () =>
      `audit: the output is ${ctx.plan.output.reason}; this command audits binary decisions only (lucid audit ` +
      `audits every kind)`,
  );
  return binaryAudit(ctx);
}

/**
 * Audits a model (or a column of its predictions) whatever its output: a binary decision as runAudit does, a score,
 * a class among k or a real value by its group metrics alone (stages/output.ts; OutputAuditResult says what is not
 * run).
 */
export async function runAnyAudit(engine: Engine, table: Table, opts: AuditOptions): Promise<AnyAuditResult> {
  const ctx = auditContext(engine, table, opts);
  return ctx.plan.output.kind === 'binary' ? binaryAudit(ctx) : outputStage(ctx, opts, binaryAudit);
}

/**
 * The binary audit's stages. `setsOnly` (the two targets of a score, class or value: stages/sides.ts) runs every stage
 * but LUCID and FALE, which the caller runs on the output itself; their sections then say so.
 */
export async function binaryAudit(ctx: AuditContext, setsOnly?: { lucid: string; fale: string }): Promise<AuditResult> {
  const { lap, progress, plan, table } = ctx;
  try {
    // 1–2. predictions, groups, group metrics and their verdicts, attribution
    progress('score', 0);
    const ms = await metricsStage(ctx);
    lap('metrics');
    const supp = suppression(table, ms);
    if (ms.attributes.predKind === 'scores') ctx.seedLog['group metrics (calibration intervals)'] = plan.seeds.metrics;
    refuseDegenerate(plan, ms);
    // asked to stop before the GANs train: nothing worth a report yet (the rest would run on an untrained generator)
    if (plan.shouldStop?.())
      throw new EngineError('E_STOPPED', 'audit: stopped before the LUCID-GAN training began; nothing was written');
    // 3. LUCID-GAN, one per GAN seed (and the surrogate that scores a predictions column's sets)
    const gs = await ganStage(ctx, ms);
    lap('gan');
    // 4. the main canonical sets, the proxy view; 4b. the sets checked against the real rows
    const s = sets(ctx, ms, gs, supp);
    const cs = await canonicalStage(ctx, ms, gs, s);
    lap('canonical');
    const ch = checksStage(ctx, ms, gs, cs, s, supp);
    lap('checks');
    // 5. intersections; 5b. the paper's protocol, one category fixed
    const intersections = await intersectionsStage(ctx, ms, gs, cs, ch, s, supp);
    lap('intersections');
    const conditional = await conditionalStage(ctx, ms, gs, s);
    lap('conditional');
    // 6. LUCID; 7. FALE
    const lucid = setsOnly ? { ran: false, reason: setsOnly.lucid } : lucidStage(ctx, ms, gs);
    lap('lucid');
    const fale = setsOnly ? { sections: [], skipped: setsOnly.fale } : await faleStage(ctx, ms, gs);
    lap('fale');
    progress('done', 1);
    ctx.timings.total = Math.round(elapsed(ctx));
    return auditResult(ctx, { ms, gs, sets: s, cs, ch, intersections, conditional, lucid, fale });
  } finally {
    for (const g of ctx.owned.gans) g.dispose();
    ctx.owned.scorer?.dispose?.();
  }
}
