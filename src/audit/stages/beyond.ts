// Part of stage 4b: the canonical sets' fidelity beyond single columns (the figures the
// tabular-generation literature reports, as SDMetrics defines them), per side of the decision, each
// figure beside its noise floor from real rows alone (src/methods/quality/beyond.ts):
//   - pair trends: SDMetrics' Column Pair Trends between the pooled set and the real rows the model
//     scores on that side (every such row: all of them trained the GANs unless held out);
//   - detection: a logistic regression telling those real rows from the set's rows, scored on rows it
//     did not train on;
//   - privacy: each generated row's distance to the closest real row the GANs trained on, against the
//     same distance for real rows the GANs did not train on (the stopping rule's held-out rows and the
//     rows outside the GANs' sample). When fewer than BEYOND_AUDIT.minHeldOut such rows are on a side
//     (every row trained the GANs), the side's rows are split in halves: the generated rows' distance to
//     one half against the other half's, both halves trained on. Copies of training rows still show
//     (a generator that copies its rows copies rows of the first half), but the check says so.
// Core code: no Node imports.
import { Rng } from '../../engine/rng.js';
import { selectRows, type Table } from '../../data/table.js';
import { pctText } from '../../data/text.js';
import {
  detectionScore,
  pairTrendsWithFloor,
  privacyCheck,
  privacyHolds,
  type BeyondFeature,
} from '../../methods/quality/beyond.js';
import type { AuditResult, BeyondCheck, BeyondSide } from '../types.js';

export { privacyHolds };

export const BEYOND_AUDIT = {
  /** fewest held-out real rows on a side for the privacy check to use them (else halves) */
  minHeldOut: 50,
  /** fewest real rows on a side for any of the three figures */
  minRows: 20,
};

/**
 * The three figures on each side: `generated` the pooled sets, `yhat` the model's decision on every row
 * of `table`, `ganRows` the rows the GANs trained on.
 */
export function beyondMarginals(
  table: Table,
  features: readonly BeyondFeature[],
  yhat: Uint8Array,
  generated: { positive: Table; negative: Table },
  ganRows: Int32Array,
  rng: Rng,
): BeyondCheck {
  const trained = new Uint8Array(table.rows);
  for (const i of ganRows) trained[i] = 1;
  const cols = features.map((f) => f.name);
  const only = (t: Table): Table => ({
    rows: t.rows,
    columns: cols.map((n) => t.columns.find((c) => c.name === n)!).filter((c) => c !== undefined),
  });
  const side = (s: 0 | 1): BeyondSide | null => {
    const gen = only(s === 1 ? generated.positive : generated.negative);
    const rows: number[] = [];
    for (let i = 0; i < table.rows; i++) if (yhat[i] === s) rows.push(i);
    if (rows.length < BEYOND_AUDIT.minRows || gen.rows < BEYOND_AUDIT.minRows) return null;
    const real = only(selectRows(table, rows));
    const pairTrends = pairTrendsWithFloor(real, gen, features, rng);
    const detection = detectionScore(real, gen, features, rng);
    const held = rows.filter((i) => trained[i] === 0);
    const halves = held.length < BEYOND_AUDIT.minHeldOut;
    const check = halves
      ? privacyCheck(real, null, gen, features, rng)
      : privacyCheck(
          only(
            selectRows(
              table,
              rows.filter((i) => trained[i] === 1),
            ),
          ),
          only(selectRows(table, held)),
          gen,
          features,
          rng,
        );
    const { halves: _, ...rest } = check;
    const privacy = { ...rest, against: halves ? ('halves' as const) : ('held out of training' as const) };
    return { realRows: rows.length, generatedRows: gen.rows, pairTrends, detection, privacy };
  };
  return { positive: side(1), negative: side(0) };
}

/** The stage's entry: its own random stream (`seed`: the plan's seeds.beyond), logged. */
export function beyondStage(
  engine: Rng['engine'],
  seed: number,
  seedLog: Record<string, number>,
  table: Table,
  features: readonly BeyondFeature[],
  yhat: Uint8Array,
  generated: { positive: Table; negative: Table },
  ganRows: Int32Array,
): BeyondCheck {
  seedLog['fidelity beyond single columns (pair-trend floors, detection folds, privacy halves)'] = seed;
  return beyondMarginals(table, features, yhat, generated, ganRows, new Rng(engine, seed));
}

/** Caveats from the figures: a side below a noise floor, and rows closer to training rows than held-out rows are. */
export function beyondCaveats(caveats: AuditResult['caveats'], b: BeyondCheck): void {
  const f3 = (x: number) => x.toFixed(3);
  for (const name of ['positive', 'negative'] as const) {
    const s = b[name];
    if (!s) continue;
    const pt = s.pairTrends;
    if (pt.score < pt.floor) {
      const w = pt.worst[0];
      caveats.push({
        topic: 'fidelity',
        text:
          `the ${name} canonical set's pair trends score ${f3(pt.score)}, below their noise floor ${f3(pt.floor)} ` +
          `(two samples of the real rows): how columns vary together is not ` +
          `reproduced${w ? ` (worst: ${w.a} × ${w.b}, ${f3(w.similarity)})` : ''}`,
      });
    }
    const d = s.detection;
    if (d.score < d.floor)
      caveats.push({
        topic: 'fidelity',
        text:
          `a classifier tells the ${name} canonical set from the real rows on that side (detection score ` +
          `${f3(d.score)}, AUC ${f3(d.auc)}, on rows it did not train on; two halves of the real rows score ` +
          `${f3(d.floor)} or more)`,
      });
    const p = s.privacy;
    if (p && !privacyHolds(p)) {
      caveats.push({
        topic: 'privacy',
        text:
          `the ${name} canonical set's rows are closer to the real rows the GANs trained on than real rows ` +
          `${p.against === 'halves' ? 'of the other half' : 'held out of training'} are: ` +
          `${pctText(p.generated.exactShare)} exact copies (held-out rows ` +
          `${pctText(p.heldOut.exactShare)}), 5th percentile of the distance ` +
          `${p.ratioP5 === null ? 'n/a' : `${p.ratioP5.toFixed(2)}×`} the held-out rows'; rows may be memorised: ` +
          `do not publish the sets`,
      });
    }
  }
}
