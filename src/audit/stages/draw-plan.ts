// How an audit draws one side of a set from one GAN (stages 3 to 5b): the plan made once per audit in
// the GAN stage, whose plateau schedule checks the main sets as the audit will draw them, and used by
// `sets` (canonical-sets.ts). Its own file so that the GAN stage and the sets share it without a cycle.
import { selectRows, type Column, type Table } from '../../data/table.js';
import { findDependencies, type Dependency } from '../../data/dependencies.js';
import { findRelations, type Relation } from '../../data/relations.js';
import { drawCanonical, drawSeed, type CanonicalDraw, type ConditionMode, type Scorer } from '../canonical.js';
import { CORRECTION_HIDDEN, type Correction } from '../correct.js';
import type { AuditPlan } from '../plan.js';
import type { DecisionRule } from '../../methods/metrics/index.js';
import type { GroupView } from './metrics.js';
import type { LucidGan } from '../../models/lucidgan/model.js';

/** The correction's seed is drawSeed(GAN seed, purpose, CORRECTION_ROUND): a round no draw reaches. */
export const CORRECTION_ROUND = 999_983;

/**
 * How every side of every set is drawn, made once per audit in the GAN stage (its stopping checks draw
 * the main sets as the audit will) and used by `sets`: the exact dependencies and arithmetic relations
 * a drawn row must keep, the conditioning, the correction of the main sets and the scorer.
 */
export interface DrawPlan {
  dependencies: Dependency[];
  relations: Relation[];
  protectedColumns: Set<string>;
  condition: ConditionMode;
  predName: string;
  /** the GANs' training rows on each side (indices into ganTable): the matched condition's pools */
  sideRows: [Int32Array, Int32Array];
  /** the correction's real rows of each side (the GAN's columns), or null: no correction */
  realSide: [Table, Table] | null;
  correction: Correction;
  factor: number;
  features: string[];
  scorer: Scorer | null;
  /** how a score becomes the decision: the scorer's own rule, else the audit's */
  decision: DecisionRule;
  range: Record<string, [number, number]>;
}

export function drawPlan(
  plan: AuditPlan,
  o: {
    views: readonly GroupView[];
    predName: string;
    ganFeatureTable: Table;
    ganTable: Table;
    ganColumns: readonly Column[];
    negRows: Int32Array;
    posRows: Int32Array;
    scorer: Scorer | null;
    rejection: boolean;
    range: Record<string, [number, number]>;
  },
): DrawPlan {
  const { correct: correction, candidates: factor } = plan.gan;
  const features = o.ganColumns.map((c) => c.name);
  // the classifier correction (correct.ts) of the main sets: it reads the GAN's columns of the real rows of each side
  const realSide =
    correction !== 'none'
      ? ([o.negRows, o.posRows].map((r) =>
          selectRows(
            { rows: o.ganTable.rows, columns: o.ganTable.columns.filter((c) => features.includes(c.name)) },
            r,
          ),
        ) as [Table, Table])
      : null;
  return {
    dependencies: findDependencies(o.ganFeatureTable),
    relations: findRelations(o.ganFeatureTable),
    protectedColumns: new Set(o.views.map((v) => v.attr.column)),
    condition: plan.gan.condition,
    predName: o.predName,
    sideRows: [o.negRows, o.posRows],
    realSide,
    correction,
    factor,
    features,
    scorer: o.rejection ? o.scorer : null,
    decision: o.scorer?.decision ?? plan.decision,
    range: o.range,
  };
}

/** One side's draw from `gan` (GAN seed `ganSeed`); `log(name, seed)` hears every seed used. */
export function drawSide(
  plan: DrawPlan,
  gan: LucidGan,
  ganSeed: number,
  side: 0 | 1,
  fix: [string, string][],
  rows: number,
  purpose: number,
  log: (what: string, seed: number) => void,
): Promise<CanonicalDraw> {
  let correct:
    | { real: Table; features: readonly string[]; seed: number; factor: number; hidden?: number[] }
    | undefined;
  if (plan.realSide && fix.length === 0) {
    correct = {
      real: plan.realSide[side],
      features: plan.features,
      seed: drawSeed(ganSeed, purpose, CORRECTION_ROUND),
      factor: plan.factor,
      ...(plan.correction !== 'none' && CORRECTION_HIDDEN[plan.correction]
        ? { hidden: CORRECTION_HIDDEN[plan.correction] }
        : {}),
    };
    log('classifier correction', correct.seed);
  }
  return drawCanonical(gan, {
    side,
    condition: plan.condition,
    sideRows: plan.sideRows[side],
    predName: plan.predName,
    fix,
    rows,
    seedOf: (round) => {
      const s = drawSeed(ganSeed, purpose, round);
      log(`draw round ${round + 1}`, s);
      return s;
    },
    scorer: plan.scorer,
    decision: plan.decision,
    range: plan.range,
    dependencies: plan.dependencies,
    relations: plan.relations,
    protectedColumns: plan.protectedColumns,
    ...(correct ? { correct } : {}),
  });
}
