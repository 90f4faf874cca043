// Stage 7 of an audit: FALE per protected attribute — accumulated local effects of the model's
// features on a fairness measure, the unprivileged group being the attribute's group with the lowest
// selection rate among those that are not small. For a score, a class among k or a real value
// (outputFaleStage), the measure is the favourable class's rate or the mean prediction, the unprivileged
// group the one with the least favourable measure.
import { Rng } from '../../engine/rng.js';
import { fale, faleOutput, type FaleMeasure, type ProtectedCondition } from '../../methods/fale/index.js';
import type { FaleSection } from '../types.js';
import { fmtNum, fmtPct } from '../../data/text.js';
import { getColumn, type Table } from '../../data/table.js';
import { labelOf } from '../../models/classifier/preprocess.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import type { GroupView, MetricsStage } from './metrics.js';

export interface FaleStage {
  sections: FaleSection[];
  /** why FALE did not run, when it did not */
  skipped?: string;
}

export async function faleStage(ctx: AuditContext, ms: MetricsStage, gs: GanStage): Promise<FaleStage> {
  const { engine, plan, seedLog, caveats, progress } = ctx;
  const { model } = plan;
  const { views, features, predName, extra, attributes, mtable, positive, favourable, minGroupSize } = ms;
  const { scorer } = gs;
  const faleSections: FaleSection[] = [];
  let faleSkipped: string | undefined;
  if (!model) {
    faleSkipped = NO_MODEL;
    caveats.push({
      topic: 'model',
      text: `predictions column: no FALE and no LUCID (both need the model itself); ${
        scorer
          ? 'generated rows are scored by a surrogate of the predictions'
          : 'the validity of the generated rows is unknown'
      }`,
    });
  } else {
    const feats = faleFeatureNames(ctx, features, [predName, ...extra.map((e) => e.name)]);
    if (feats.length === 0) faleSkipped = NO_FEATURE;
    else {
      const rng = new Rng(engine, plan.seeds.fale);
      if (plan.fale.bootstrap > 0) seedLog['FALE bootstrap'] = plan.seeds.fale;
      for (let k = 0; k < views.length; k++) {
        progress('fale', k / views.length);
        const v = views[k];
        const attr = attributes.attributes.find((a) => a.column === v.attr.groupColumn)!;
        // the group with the lowest selection rate (the favourable outcome's rate) among groups that are not small
        const sel = attr.fourFifths.selectionRate;
        const pool = attr.groups.some((g) => !g.small) ? attr.groups.filter((g) => !g.small) : attr.groups;
        let low = pool[0];
        for (const g of pool) if ((sel[g.value] ?? Infinity) < (sel[low.value] ?? Infinity)) low = g;
        const unprivileged: ProtectedCondition[] = [{ column: v.attr.groupColumn, value: low.value }];
        const result = await fale(mtable, model, {
          label: plan.label,
          positive,
          protected: unprivileged,
          features: feats,
          exclude: [predName, ...extra.map((e) => e.name)],
          bins: plan.fale.bins,
          bootstrap: plan.fale.bootstrap,
          rng,
          favourable,
          minGroupSize,
          decision: plan.decision,
          modelClasses: plan.modelClasses,
          // the metrics stage has checked these scores against the label, and the report says it first
          checkFit: false,
        });
        const rate = fmtPct(sel[low.value], 1, '?');
        faleSections.push({
          attribute: v.attr.column,
          unprivileged,
          chosen:
            `lowest selection rate (the ${favourable === 'positive' ? 'positive' : 'negative'} decision's rate) ` +
            `among groups that are not small (${v.attr.groupColumn} = ${low.value}: ${rate}); everyone else is ` +
            `privileged`,
          result,
        });
      }
    }
  }
  return faleSkipped === undefined ? { sections: faleSections } : { sections: faleSections, skipped: faleSkipped };
}

const NO_MODEL =
  'the model is a predictions column; FALE calls the model on modified rows, so it needs a callable model';
const NO_FEATURE = 'the model reads no feature besides the protected ones';

/** The features FALE explains: the model's (else every column but the label), less the protected and `exclude`. */
function faleFeatureNames(ctx: AuditContext, features: string[] | null, exclude: readonly string[]): string[] {
  const { table, plan } = ctx;
  const protectedSet = new Set(plan.protected);
  return (features ?? table.columns.map((c) => c.name).filter((c) => c !== plan.label)).filter(
    (f) => !protectedSet.has(f) && !exclude.includes(f),
  );
}

/** What the audit of a score, a class among k or a real value hands FALE. */
export interface OutputFaleInput {
  kind: 'score' | 'multiclass' | 'regression';
  views: GroupView[];
  /** the data with the prediction column (`predName`: the class of a multiclass model, else the number) and the
   * binned protected columns */
  mtable: Table;
  predName: string;
  /** the model's features (null: every column but the label) */
  features: string[] | null;
  /** columns never explained (the binned protected columns, the prediction column) */
  exclude: string[];
  minGroupSize: number;
  /** score, regression: which end people want */
  direction?: 'higher' | 'lower';
  /** multiclass: the favourable class */
  favouredClass?: string;
}

/**
 * Per group of a view (the groups in `v.values`' order): rows and the mean of `value` over them (`value` null: the
 * row is left out, a missing group label too).
 */
function groupMeans(v: GroupView, value: (i: number) => number): { value: string; n: number; mean: number }[] {
  const idx = new Map(v.values.map((g, k) => [g, k]));
  const n = new Float64Array(v.values.length);
  const sum = new Float64Array(v.values.length);
  v.dataLabels.forEach((g, i) => {
    const k = idx.get(g);
    const x = value(i);
    // a row without an output (NaN) says nothing about its group's measure
    if (k === undefined || Number.isNaN(x)) return;
    n[k]++;
    sum[k] += x;
  });
  return v.values.map((g, k) => ({ value: g, n: n[k], mean: n[k] > 0 ? sum[k] / n[k] : Number.NaN }));
}

/**
 * FALE of a score, a class among k or a real value, per protected attribute: the unprivileged group is the group that
 * is not small (all groups when every one is) with the least favourable measure on the audited rows — the lowest rate
 * of the favourable class, the lowest mean prediction when higher is favourable, the highest when lower is — and
 * everyone else privileged. A real value gets no second section of the mean residual (prediction − label): a row's
 * label does not move with the feature, so its FALE curves are the mean prediction's exactly (only its overall value
 * differs, which the group metrics' bias already gives). Skipped (with the reason) without a callable model, without a
 * feature to explain, and without the favourable class (multiclass) or the direction (score, regression).
 */
export async function outputFaleStage(ctx: AuditContext, o: OutputFaleInput): Promise<FaleStage> {
  const { engine, plan, seedLog, progress } = ctx;
  const { model } = plan;
  if (!model) return { sections: [], skipped: NO_MODEL };
  const feats = faleFeatureNames(ctx, o.features, [o.predName, ...o.exclude]);
  if (feats.length === 0) return { sections: [], skipped: NO_FEATURE };
  if (o.kind === 'multiclass' && o.favouredClass === undefined)
    return {
      sections: [],
      skipped: 'a multiclass output needs its favourable class (the first of the class order) for FALE',
    };
  if (o.kind !== 'multiclass' && o.direction === undefined)
    return { sections: [], skipped: `a ${o.kind} output needs its direction (higher or lower favourable) for FALE` };
  const pred = getColumn(o.mtable, o.predName);
  // the per-row measure on the audited rows, as the prediction column holds it: the favourable class received (1/0),
  // else the prediction itself
  const value =
    o.kind === 'multiclass'
      ? (i: number) => (labelOf(pred, i) === o.favouredClass ? 1 : 0)
      : (i: number) => (pred.kind === 'numeric' ? pred.values[i] : Number(labelOf(pred, i)));
  // a lower measure is less favourable for a class rate and a higher-favourable output, a higher one otherwise
  const worse = o.kind !== 'multiclass' && o.direction === 'lower' ? 1 : -1;
  const measure: FaleMeasure = o.kind === 'multiclass' ? 'class-rate' : 'mean-prediction';
  const what =
    o.kind === 'multiclass'
      ? `lowest rate of the favourable class ${o.favouredClass}`
      : `${worse > 0 ? 'highest' : 'lowest'} mean prediction (${o.direction} is favourable)`;
  const rng = new Rng(engine, plan.seeds.fale);
  if (plan.fale.bootstrap > 0) seedLog['FALE bootstrap'] = plan.seeds.fale;
  const sections: FaleSection[] = [];
  for (let k = 0; k < o.views.length; k++) {
    progress('fale', k / o.views.length);
    const v = o.views[k];
    const groups = groupMeans(v, value).filter((g) => g.n > 0);
    const pool = groups.some((g) => g.n >= o.minGroupSize) ? groups.filter((g) => g.n >= o.minGroupSize) : groups;
    let low = pool[0];
    for (const g of pool) if (worse * (g.mean - low.mean) > 0) low = g;
    const unprivileged: ProtectedCondition[] = [{ column: v.attr.groupColumn, value: low.value }];
    const shown = o.kind === 'multiclass' ? fmtPct(low.mean, 1, '?') : fmtNum(low.mean);
    const result = await faleOutput(o.mtable, model, {
      label: plan.label,
      protected: unprivileged,
      features: feats,
      exclude: [o.predName, ...o.exclude],
      bins: plan.fale.bins,
      bootstrap: plan.fale.bootstrap,
      rng,
      minGroupSize: o.minGroupSize,
      measure,
      favouredClass: o.favouredClass,
      direction: o.direction,
    });
    sections.push({
      attribute: v.attr.column,
      unprivileged,
      chosen:
        `${what} among groups that are not small (${v.attr.groupColumn} = ${low.value}: ${shown}); everyone ` +
        `else is privileged`,
      result,
    });
  }
  return { sections };
}
