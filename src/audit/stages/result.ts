// The last step of an audit: every stage's result in one AuditResult, with the provenance (meta)
// that makes it reproducible: the data and model, the options that shaped it, every seed used.
import { checkRelations } from '../../data/relations.js';
import { AUDIT_VERSION } from '../options.js';
import type { AuditInterruption, AuditResult, ConditionalComparison, LucidSection } from '../types.js';
import type { CanonicalStage, Sets } from './canonical-sets.js';
import type { ChecksStage } from './checks.js';
import type { AuditContext } from './context.js';
import type { FaleStage } from './fale.js';
import type { GanStage } from './gan.js';
import type { MetricsStage } from './metrics.js';

/** What the stages found, by stage. */
export interface StageResults {
  ms: MetricsStage;
  gs: GanStage;
  sets: Sets;
  cs: CanonicalStage;
  ch: ChecksStage;
  intersections: AuditResult['intersections'];
  conditional: ConditionalComparison[] | undefined;
  lucid: LucidSection;
  fale: FaleStage;
}

/**
 * The audit's record of a stop request (Ctrl-C, SIGTERM: the caller's shouldStop), or null: where it
 * came, what was cut short, in one sentence the report and the summary put first.
 */
/** The stages as the interruption's sentence names them (the stage names of AuditOptions.onProgress). */
const STAGE_WORDS: Record<string, string> = {
  start: 'the start',
  score: 'the scoring',
  metrics: 'the group metrics',
  surrogate: "the surrogate's training",
  gan: 'the LUCID-GAN training',
  canonical: 'the drawing of the canonical sets',
  checks: 'the checks against the real rows',
  intersections: 'the intersections',
  conditional: 'the conditional sets',
  lucid: 'LUCID',
  fale: 'FALE',
  done: 'the end',
};

export function interruption(
  stage0: string | null,
  epochsDone: number[],
  seedsAsked: number,
  epochsAsked: number,
  cut: boolean,
): AuditInterruption | null {
  if (stage0 === null) return null;
  const stage = STAGE_WORDS[stage0] ?? stage0;
  const gan =
    `${epochsDone.length} of ${seedsAsked} LUCID-GAN${seedsAsked === 1 ? '' : 's'} trained (epochs ` +
    `${epochsDone.join(', ')} of ${epochsAsked})`;
  const text = cut
    ? `INTERRUPTED during ${stage}: the audit was finished early with ${gan}; its canonical sets, their checks, the ` +
      `intersections and LUCID come from under-trained generators and are not the audit asked for (the group ` +
      `metrics are complete). Run it again to completion before relying on it.`
    : `INTERRUPTED during ${stage}, after the GANs had finished (${gan}): the audit ran to the end, but it was asked ` +
      `to stop; run it again if any doubt remains.`;
  return {
    stage: stage0,
    signal: null,
    gan: { seedsAsked, seedsTrained: epochsDone.length, epochsAsked, epochsDone },
    cutShort: cut,
    text,
  };
}

/** The audited data as meta.data records it (every audit's, binary or not): where, how big, its hash or why none. */
export function dataMeta(ctx: AuditContext): AuditResult['meta']['data'] {
  const { plan, table } = ctx;
  const provenance = plan.provenance;
  return {
    source: plan.source,
    rows: table.rows,
    columns: table.columns.map((c) => c.name),
    sha256: provenance?.dataSha256 ?? null,
    bytes: provenance?.dataBytes ?? null,
    ...(provenance?.dataSha256
      ? {}
      : { note: provenance?.dataNote ?? 'no file hash: the caller gave the table, not the file it was read from' }),
  };
}

/** The audited model as meta.model records it: the model's kind and source, or the predictions column's. */
export function modelMeta(
  ctx: AuditContext,
  predName: string,
  features: string[] | null,
): AuditResult['meta']['model'] {
  const { model, provenance } = ctx.plan;
  return {
    kind: model ? model.kind : 'column',
    source: model ? model.source : `predictions column "${predName}"`,
    features,
    differentiable: model?.differentiable !== undefined,
    sha256: model ? (provenance?.modelSha256 ?? null) : null,
    ...(model
      ? provenance?.modelSha256
        ? {}
        : { note: 'no file hash: the caller gave the model, not its file' }
      : { note: 'a predictions column: there is no model file to hash (the column is part of the data file)' }),
  };
}

export function auditResult(ctx: AuditContext, r: StageResults): AuditResult {
  const { engine, table, plan, timings, seedLog, caveats, warnings } = ctx;
  const { seed, provenance } = plan;
  const { views, features, predName, positive, favourable, attributes, intersection, attribution } = r.ms;
  const {
    gans,
    seedsAsked,
    seeds,
    epochs,
    batch,
    ganTable,
    schedule,
    held,
    sample,
    strataNames,
    scorer,
    rejection,
    range,
  } = r.gs;
  const { dependencies, relations, derivations } = r.sets;
  const { canonical, proxy } = r.cs;
  const { fid, shifts, cells, findings, beyond } = r.ch;
  const { intersections, conditional, lucid, fale } = r;
  const result: AuditResult = {
    meta: {
      tool: 'lucid-wasm',
      version: AUDIT_VERSION,
      variant: engine.variant,
      created: new Date().toISOString(),
      seed,
      data: dataMeta(ctx),
      label: plan.label,
      positive,
      favourable,
      threshold: plan.decision.threshold,
      model: modelMeta(ctx, predName, features),
      gan: {
        epochs,
        mode: gans[0].consistency.mode,
        rows: ganTable.rows,
        seeds,
        epochsDone: gans.map((g) => g.epochsDone),
        rejection: rejection && scorer !== null,
        schedule,
        heldOut: held ? held.length : 0,
        batch,
        stops: gans.map((g) => g.history.stop ?? null),
        ganRows: plan.gan.rowsMax,
        sample: sample
          ? {
              rows: sample.rows.length,
              of: table.rows,
              strata: strataNames,
              strataCount: sample.nonEmpty,
              represented: sample.represented,
            }
          : null,
        reused: r.gs.reused,
        sampling: {
          condition: plan.gan.condition,
          pointShare: plan.gan.pointShare,
          correct: plan.gan.correct,
          ...(plan.gan.correct !== 'none' ? { candidates: plan.gan.candidates } : {}),
        },
      },
      timings,
      command: provenance?.command ?? { via: 'api' },
      seeds: seedLog,
      suppressBelow: attributes.suppressBelow,
      interrupted: interruption(
        ctx.stoppedIn(),
        gans.map((g) => g.epochsDone),
        seedsAsked,
        epochs,
        r.gs.interrupted,
      ),
    },
    protected: views.map((v) => v.attr),
    metrics: { attributes, intersection },
    attribution,
    canonical,
    checks: {
      seeds,
      fidelity: fid,
      shifts,
      cells,
      dependencies: dependencies.map((d) => ({ from: d.from, to: d.to })),
      relations: checkRelations(dependencies, relations, derivations, r.gs.ganFeatureTable, canonical),
      beyond,
      ranges: range,
      ...(scorer?.agreement ? { surrogate: scorer.agreement } : {}),
    },
    findings,
    proxy,
    intersections,
    ...(conditional ? { conditional } : {}),
    lucid,
    fale: fale.sections,
    caveats,
    warnings: [...warnings, ...attributes.warnings.filter((w) => !w.endsWith('no verdict'))],
  };
  if (fale.skipped !== undefined) result.faleSkipped = fale.skipped;
  return result;
}
