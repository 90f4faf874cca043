// Stage 7 of an audit: FALE per protected attribute — accumulated local effects of the model's
// features on a fairness measure, the unprivileged group being the attribute's group with the lowest
// selection rate among those that are not small.
import { Rng } from '../../engine/rng.js';
import { fale, type ProtectedCondition } from '../../methods/fale/index.js';
import type { FaleSection } from '../types.js';
import { fmtPct } from '../../data/text.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import type { MetricsStage } from './metrics.js';

export interface FaleStage {
  sections: FaleSection[];
  /** why FALE did not run, when it did not */
  skipped?: string;
}

export async function faleStage(ctx: AuditContext, ms: MetricsStage, gs: GanStage): Promise<FaleStage> {
  const { engine, table, plan, seedLog, caveats, progress } = ctx;
  const { model } = plan;
  const { views, features, predName, extra, attributes, mtable, positive, favourable, minGroupSize } = ms;
  const { scorer } = gs;
  const faleSections: FaleSection[] = [];
  let faleSkipped: string | undefined;
  if (!model) {
    faleSkipped =
      'the model is a predictions column; FALE calls the model on modified rows, so it needs a callable model';
    caveats.push({
      topic: 'model',
      text: `predictions column: no FALE and no LUCID (both need the model itself); ${
        scorer
          ? 'generated rows are scored by a surrogate of the predictions'
          : 'the validity of the generated rows is unknown'
      }`,
    });
  } else {
    const protectedSet = new Set(plan.protected);
    const feats = (features ?? table.columns.map((c) => c.name).filter((c) => c !== plan.label)).filter(
      (f) => !protectedSet.has(f) && f !== predName && !extra.some((e) => e.name === f),
    );
    if (feats.length === 0) faleSkipped = 'the model reads no feature besides the protected ones';
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
