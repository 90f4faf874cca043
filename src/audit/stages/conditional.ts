// Stage 5b of an audit: the paper's intersectional protocol. For each categorical protected A and
// observed value a: positive and negative sets with A = a fixed; every other categorical protected B's
// distribution in them (EXPERIMENTS.md §2.6).
import type { ConditionalComparison, Distribution } from '../types.js';
import { distribution } from '../distance.js';
import type { Sets } from './canonical-sets.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import { fixableColumns } from './intersections.js';
import type { MetricsStage } from './metrics.js';

/** undefined when fewer than two protected attributes are categories the GAN can fix (or nInter is 0). */
export async function conditionalStage(
  ctx: AuditContext,
  ms: MetricsStage,
  gs: GanStage,
  s: Sets,
): Promise<ConditionalComparison[] | undefined> {
  const { nInter } = ctx.plan;
  const { views } = ms;
  const { drawPair, roleOf } = s;
  const discrete = fixableColumns(gs);
  let conditional: ConditionalComparison[] | undefined;
  const fixableViews = views.filter((v) => v.attr.kind === 'categorical' && discrete.has(v.attr.column));
  if (nInter > 0 && fixableViews.length >= 2) {
    conditional = [];
    let k = 0;
    for (const A of fixableViews) {
      for (const a of A.values) {
        const fix: [string, string][] = [[A.attr.column, a]];
        const pair = await drawPair(fix, nInter, 1_000_000 + 2 * k++, `conditional-${A.attr.column}=${a}`);
        const distributions: Distribution[] = [];
        for (const B of fixableViews) {
          if (B === A) continue;
          const pc = pair.positive.columns.find((c) => c.name === B.attr.column);
          const nc = pair.negative.columns.find((c) => c.name === B.attr.column);
          if (!pc || !nc) continue;
          distributions.push(
            distribution(
              B.attr.column,
              [
                { name: 'positive canonical', column: pc },
                { name: 'negative canonical', column: nc },
              ],
              roleOf(B.attr.column),
            ),
          );
        }
        const c: ConditionalComparison = {
          fixed: [A.attr.column, a],
          rows: Math.min(pair.positive.rows, pair.negative.rows),
          distributions,
        };
        const ft = pair.perSeed[0].positive.fixTraining;
        if (ft) c.fixTraining = ft;
        const kept = pair.positive.rows + pair.negative.rows;
        const held = pair.perSeed.reduce(
          (s, d) =>
            s +
            (d.positive.fixSatisfied ?? 0) * d.positive.table.rows +
            (d.negative.fixSatisfied ?? 0) * d.negative.table.rows,
          0,
        );
        c.fixSatisfied = kept > 0 ? held / kept : 0;
        conditional.push(c);
      }
    }
  }
  return conditional;
}
