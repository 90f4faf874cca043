// The audit of a score, a class among k or a real value (the plan's output kind other than binary): the model's
// output per row (a multiclass model's most probable class; a score or a real value as it is), the protected
// attributes' groups (a numeric one binned, as for binary audits), outputMetrics' typed report with its verdicts, and
// the canonical sets of two targets of the output (stages/sides.ts); `notRun` says what did not run, and why.
import { Rng } from '../../engine/rng.js';
import type { Column, Table } from '../../data/table.js';
import { outputMetrics } from '../../methods/metrics/index.js';
import { outputOf } from '../../models/blackbox.js';
import { inData } from '../plan.js';
import { dataMeta, interruption, modelMeta } from './result.js';
import type { AuditInterruption, LucidSection, MetricsOnlyReport, OutputAuditResult, SidesSection } from '../types.js';
import type { OutputTarget } from '../../methods/metrics/targets.js';
import { observedRanges } from '../canonical.js';
import { lucidTargetSection } from './lucid.js';
import { AUDIT_VERSION } from '../options.js';
import { elapsed, requireColumn, type AuditContext } from './context.js';
import { groupViews } from './metrics.js';
import { outputFaleStage } from './fale.js';
import { freeName, sidesStage, type BinaryStages } from './sides.js';
import type { AuditOptions } from '../options.js';

/**
 * The one sentence the report and the summary give for what an output audit did not run, each part with its reason
 * (the canonical sets' skip, LUCID's reason, FALE's); a stage absent from `r` is said not run. Empty when all ran.
 */
export function notRunText(r: Pick<OutputAuditResult, 'sides' | 'lucid' | 'fale' | 'faleSkipped'>): string {
  const parts: string[] = [];
  if (!r.sides) parts.push('the canonical sets (LUCID-GAN) and their checks');
  else if ('skipped' in r.sides) parts.push(`the canonical sets (LUCID-GAN) and their checks: ${r.sides.skipped}`);
  if (!r.lucid) parts.push('LUCID');
  else if (!r.lucid.ran) parts.push(`LUCID: ${r.lucid.reason ?? 'no reason given'}`);
  if (!r.fale) parts.push('FALE');
  else if (!r.fale.length) parts.push(`FALE: ${r.faleSkipped ?? 'no attribute'}`);
  return parts.length ? `Not run: ${parts.join('; ')}.` : '';
}

/** The canonical sets' favoured target, or null when they chose none. */
const favouredTarget = (s: SidesSection | { skipped: string }): OutputTarget | null =>
  'pair' in s ? s.pair.favoured : null;

/**
 * The model's output as one column: a multiclass model's N×k probabilities become the class of each row's largest
 * probability (the first on a tie: the model's class order decides, as argmax does), a score or a real value is
 * kept as it is.
 */
async function modelColumn(ctx: AuditContext, name: string): Promise<Column> {
  const model = ctx.plan.model!;
  const p = await model.predict(ctx.table);
  const out = outputOf(model);
  if (out.kind !== 'multiclass') return { kind: 'numeric', name, values: Float64Array.from(p) };
  const k = out.classes.length;
  const codes = new Int32Array(ctx.table.rows);
  for (let i = 0; i < codes.length; i++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (p[i * k + c] > p[i * k + best]) best = c;
    codes[i] = best;
  }
  return { kind: 'categorical', name, codes, categories: [...out.classes] };
}

/** The audit of an output of a kind other than binary (see the file's head). */
export async function outputStage(
  ctx: AuditContext,
  options: AuditOptions,
  stages: BinaryStages,
): Promise<OutputAuditResult> {
  const { engine, table, plan, warnings, caveats, lap, progress, seedLog, timings } = ctx;
  const { model, provenance } = plan;
  const kind = plan.output.kind as MetricsOnlyReport['kind'];
  progress('score', 0);
  const predName = plan.pred ?? freeName(table, 'preds');
  const predCol = model ? await modelColumn(ctx, predName) : requireColumn(table, predName, 'predictions column');
  const features = model?.features ? [...model.features] : null;
  lap('score');
  const {
    views,
    extra,
    warnings: binWarnings,
  } = groupViews(table, plan, (c) => (features ? features.includes(c) : null));
  warnings.push(...binWarnings);
  const base = model ? [...table.columns, predCol] : table.columns.slice();
  const mtable: Table = { rows: table.rows, columns: [...base, ...extra] };
  const groupCols = views.map((v) => v.attr.groupColumn);
  // keyed by the metrics' group column (a numeric attribute's binned column)
  const reference: Record<string, string> = {};
  for (const v of views)
    if (plan.reference?.[v.attr.column] !== undefined) reference[v.attr.groupColumn] = plan.reference[v.attr.column];
  const o = plan.output;
  seedLog['group metrics (bootstrap intervals)'] = plan.seeds.metrics;
  const report = inData(plan.source, () =>
    outputMetrics(mtable, {
      label: plan.label,
      pred: predName,
      output: kind,
      ...(kind === 'score' ? { positive: plan.positive, threshold: o.threshold, legitimate: plan.legitimate } : {}),
      favourable: o.direction ?? undefined,
      classOrder: o.classOrder ?? undefined,
      toleranceUnits: o.toleranceUnits,
      groups: groupCols,
      reference,
      tolerance: plan.tolerance,
      minGroupSize: plan.minGroupSize,
      confidence: plan.confidence,
      suppressBelow: plan.suppressBelow,
      allowInvertedScores: kind === 'score' ? plan.allowInvertedScores : undefined,
      rng: new Rng(engine, plan.seeds.metrics),
    }),
  ) as MetricsOnlyReport;
  // the plan's reason is the audit's (a model's declaration, or the column's inference), not "as --output says"
  report.output = { ...report.output, reason: o.reason };
  if ('output' in report.report) report.report.output = report.output;
  lap('metrics');
  for (const a of report.report.attributes) {
    const small = a.groups.filter((g) => g.n < plan.minGroupSize);
    if (small.length)
      caveats.push({
        topic: 'small-group',
        text:
          `${a.column}: ${small.length === 1 ? `${small[0].value} has` : `${small.length} groups have`} fewer ` +
          `than ${plan.minGroupSize} rows (${small
            .slice(0, 5)
            .map((g) => `${g.value}: ${g.n}`)
            .join(', ')}${small.length > 5 ? ', …' : ''}); small groups get no verdict`,
      });
  }
  // the canonical sets of two targets of the output (stages/sides.ts)
  const edges: Record<string, number[]> = {};
  for (const v of views) if (v.attr.bins) edges[v.attr.column] = v.attr.bins.edges.slice();
  const sides = await sidesStage(ctx, { kind, predCol, predInTable: !model, options, stages, edges });
  lap('sets');
  if ('skipped' in sides) caveats.push({ topic: 'other', text: `no canonical sets: ${sides.skipped}` });
  // LUCID towards the favoured target, through the model (a differentiable built-in one)
  progress('lucid', 0);
  // a stop request (Ctrl-C) ends the audit after the sets: what ran is reported, marked interrupted
  const STOPPED = 'the audit was asked to stop before it';
  const stop = plan.shouldStop?.() === true;
  const lucid: LucidSection = stop
    ? { ran: false, reason: STOPPED }
    : favouredTarget(sides)
      ? lucidTargetSection(engine, model, favouredTarget(sides)!, {
          n: plan.n,
          epochs: plan.lucidEpochs,
          seed: plan.seeds.audit,
          range: observedRanges(table),
          roleOf: (c) => (views.some((v) => v.attr.column === c) ? 'protected' : 'feature'),
        })
      : { ran: false, reason: 'no target to invert towards: the canonical sets chose none (see their reason)' };
  if (lucid.ran) seedLog['LUCID (uniform start and descent)'] = plan.seeds.audit;
  lap('lucid');
  // FALE on the output's measure: the favoured class's rate (the sets' favoured class, else the class order's first)
  progress('fale', 0);
  const favoured = favouredTarget(sides);
  const fale = stop
    ? { sections: [], skipped: STOPPED }
    : await outputFaleStage(ctx, {
        kind,
        views,
        mtable,
        predName,
        features,
        exclude: extra.map((e) => e.name),
        minGroupSize: plan.minGroupSize,
        direction: o.direction ?? undefined,
        favouredClass: favoured?.kind === 'class' ? favoured.class : (o.classOrder?.[0] ?? undefined),
      });
  lap('fale');
  progress('done', 1);
  timings.total = Math.round(elapsed(ctx));
  return {
    kind,
    meta: {
      tool: 'lucid-wasm',
      version: AUDIT_VERSION,
      variant: engine.variant,
      created: new Date().toISOString(),
      seed: plan.seed,
      data: dataMeta(ctx),
      label: plan.label,
      output: { kind, reason: o.reason, favourable: report.output.favourable },
      positive: kind === 'score' ? plan.positive : null,
      model: modelMeta(ctx, predName, features),
      timings,
      command: provenance?.command ?? { via: 'api' },
      seeds: seedLog,
      suppressBelow: plan.suppressBelow ?? null,
      interrupted: outputInterruption(sides, ctx.stoppedIn()),
    },
    protected: views.map((v) => v.attr),
    metrics: report,
    notRun: notRunText({ sides, lucid, fale: fale.sections, faleSkipped: fale.skipped }),
    sides,
    lucid,
    fale: fale.sections,
    ...(fale.skipped === undefined ? {} : { faleSkipped: fale.skipped }),
    caveats,
    warnings: [
      ...warnings,
      ...report.report.warnings,
      ...('audit' in sides ? sides.audit.warnings.map((w) => `canonical sets: ${w}`) : []),
    ],
  };
}

/**
 * An output audit's record of a stop request: its canonical sets' (whose GANs it cut short), or, for a request seen
 * after them or without them, one made at `stage`; null when none came.
 */
export function outputInterruption(
  sides: SidesSection | { skipped: string },
  stage: string | null,
): AuditInterruption | null {
  const meta = 'audit' in sides ? sides.audit.meta : null;
  if (meta?.interrupted) return meta.interrupted;
  if (stage === null) return null;
  const gan = meta?.gan;
  return interruption(stage, gan?.epochsDone ?? [], gan?.seeds.length ?? 0, gan?.epochs ?? 0, false);
}
