// Metamorphic tests of the whole audit: the same decisions written another way. The
// group metrics must be identical (test/helpers/metamorphic.ts assertSameMetrics), and so must every
// real-row figure the canonical-set checks rest on; the GAN's own statements may move in size (each
// audit trains its GANs on rows it reads in its own order), but no stated direction may reverse, and
// the base audit states at least one, so that the check tests something.
// The GAN settings are small on purpose, stated here: 2 GAN seeds of 5 epochs, 300 rows per set, no
// intersection sets, no FALE bootstrap, the predictions column p (a surrogate scores the sets).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Table } from '../../src/data/table.js';
import type { Engine } from '../../src/engine/engine.js';
import { runAudit, type AuditOptions } from '../../src/audit/run.js';
import { statedPreferences } from '../../src/audit/findings.js';
import type { AuditResult } from '../../src/audit/types.js';
import { fale } from '../../src/methods/fale/index.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox, type BlackBox } from '../../src/models/blackbox.js';
import { getEngine } from '../helpers/engine.js';
import {
  assertSameMetrics,
  metamorphicTable,
  permuteRows,
  recode,
  renameColumns,
  reorderCategories,
  scaleColumn,
  type Correspondence,
} from '../helpers/metamorphic.js';

const SMALL: Partial<AuditOptions> = {
  seed: 1,
  ganEpochs: 5,
  ganSeeds: 2,
  n: 300,
  intersectionRows: 0,
  faleBootstrap: 0,
};
const EDGES = [18, 30, 45, 60, 80];

function audit(engine: Engine, t: Table, o: Partial<AuditOptions>): Promise<AuditResult> {
  return runAudit(engine, t, {
    label: 'approved',
    positive: 'yes',
    protected: ['sex', 'group', 'age'],
    protectedEdges: { age: EDGES },
    pred: 'p',
    ...SMALL,
    ...o,
  } as AuditOptions);
}

/** Every direction one audit states that the other states the other way round. */
function reversals(a: AuditResult, b: AuditResult, k: Correspondence): string[] {
  const colOf = k.column ?? ((c: string) => c);
  const valOf = k.value ?? ((_c: string, v: string) => v);
  const bs = new Map(statedPreferences(b.findings).map((s) => [`${s.feature}\u0000${s.value}`, s.direction]));
  return statedPreferences(a.findings)
    .filter((s) => {
      const d = bs.get(`${colOf(s.feature)}\u0000${valOf(s.feature, s.value)}`);
      return d !== undefined && d !== s.direction;
    })
    .map((s) => `${s.feature} = ${s.value}: ${s.direction} in one, the other way in the other`);
}

/**
 * The real rows' side of every checked protected value: the shift, its interval and its status are the data's, not the
 * GAN's, so they are identical.
 */
function assertSameRealShifts(a: AuditResult, b: AuditResult, k: Correspondence, where: string): void {
  const colOf = k.column ?? ((c: string) => c);
  const valOf = k.value ?? ((_c: string, v: string) => v);
  for (const s of a.checks.shifts.filter((x) => x.role !== 'feature')) {
    const t = b.checks.shifts.find(
      (x) => x.feature === colOf(s.feature) && x.value === (s.kind === 'median' ? 'median' : valOf(s.feature, s.value)),
    );
    assert.ok(t, `${where}: the check of ${s.feature} = ${s.value}`);
    // the median of a numeric attribute is in its units: scaled with it
    const f =
      s.kind === 'median' && k.value && s.real.shift !== null && t.real.shift !== null && s.real.shift !== 0
        ? t.real.shift / s.real.shift
        : 1;
    assert.deepEqual(
      [t.real.shift === null ? null : t.real.shift / f, t.real.positiveRows, t.real.negativeRows],
      [
        s.real.shift,
        k.recoded ? s.real.negativeRows : s.real.positiveRows,
        k.recoded ? s.real.positiveRows : s.real.negativeRows,
      ],
      `${where}: the real shift of ${s.feature} = ${s.value}`,
    );
  }
}

describe('metamorphic: the audit, canonical sets included', () => {
  let engine: Engine;
  let t: Table;
  let base: AuditResult;
  before(async () => {
    engine = await getEngine();
    t = metamorphicTable(engine);
    base = await audit(engine, t, {});
  });

  it('the base audit states a direction (group B disfavoured), so that "no reversal" tests something', () => {
    const stated = statedPreferences(base.findings);
    assert.ok(stated.length >= 1, JSON.stringify(stated));
    assert.ok(
      stated.some((s) => s.feature === 'group' && s.value === 'B' && s.direction === 'disfavoured'),
      JSON.stringify(stated),
    );
  });

  it('the label coded the other way: the same metrics, the same real shifts, no direction reversed', async () => {
    const r = await audit(engine, recode(t, 'approved', 'p', 'denied', 'p_deny'), {
      label: 'denied',
      positive: 'yes',
      favourable: 'negative',
      pred: 'p_deny',
    });
    const k: Correspondence = { recoded: true };
    assertSameMetrics(base.metrics.attributes, r.metrics.attributes, k, 'recoded');
    assertSameMetrics(base.metrics.intersection!, r.metrics.intersection!, k, 'recoded (intersection)');
    assertSameRealShifts(base, r, k, 'recoded');
    assert.deepEqual(reversals(base, r, k), []);
    // and the recoded audit states the base's direction itself: a shift taken from the wrong side would make every seed
    // disagree
    assert.ok(
      statedPreferences(r.findings).some(
        (s) => s.feature === 'group' && s.value === 'B' && s.direction === 'disfavoured',
      ),
      JSON.stringify(statedPreferences(r.findings)),
    );
    // the heat map: the same selection rates, cell by cell
    assert.deepEqual(
      r.intersections.map((x) => x.heatmap.selectionRate),
      base.intersections.map((x) => x.heatmap.selectionRate),
    );
  });

  it(
    'the rows permuted, the columns renamed and every dictionary reordered: the same metrics and real shifts, no ' +
      'direction reversed',
    async () => {
      const names: Record<string, string> = {
        sex: 'Sex (self-reported)',
        group: 'grp/ethnicité',
        age: 'Age at application',
        approved: 'Approved?',
        p: 'score %',
      };
      const moved = reorderCategories(renameColumns(permuteRows(t, 5).table, names));
      const r = await audit(engine, moved, {
        label: names.approved,
        pred: names.p,
        protected: [names.sex, names.group, names.age],
        protectedEdges: { [names.age]: EDGES },
      });
      const k: Correspondence = {
        column: (c) => (c === 'age (binned)' ? `${names.age} (binned)` : (names[c] ?? c)),
        reordered: true,
      };
      assertSameMetrics(base.metrics.attributes, r.metrics.attributes, k, 'moved');
      assertSameRealShifts(base, r, k, 'moved');
      assert.deepEqual(reversals(base, r, k), []);
    },
  );

  it(
    'a numeric protected column in other units (age in ' + 'months, its edges × 12): the same verdicts, bin for bin',
    async () => {
      const r = await audit(engine, scaleColumn(t, 'age', 12), { protectedEdges: { age: EDGES.map((e) => 12 * e) } });
      const labels = base.protected.find((p) => p.column === 'age')!.bins!.labels;
      const scaled = r.protected.find((p) => p.column === 'age')!.bins!.labels;
      assert.notDeepEqual(scaled, labels);
      const k: Correspondence = {
        value: (c, v) => (c === 'age (binned)' || c === 'age' ? (scaled[labels.indexOf(v)] ?? v) : v),
      };
      assertSameMetrics(base.metrics.attributes, r.metrics.attributes, k, 'months');
      assertSameMetrics(base.metrics.intersection!, r.metrics.intersection!, k, 'months (intersection)');
      assertSameRealShifts(base, r, k, 'months');
      assert.deepEqual(reversals(base, r, k), []);
    },
  );

  it(
    'FALE on the other coding (a model giving P(denied) = 1 ' +
      '− P(approved), --favourable negative): the same curves',
    async () => {
      const { model: clf } = Classifier.train(engine, t, {
        label: 'approved',
        positive: 'yes',
        drop: ['p'],
        hidden: [],
        epochs: 10,
        valFraction: 0,
        seed: 2,
      });
      try {
        const m = builtinBlackBox(engine, clf, 'model.json');
        const inverse: BlackBox = {
          kind: 'module',
          source: 'deny.mjs',
          features: m.features,
          predict: async (x) => Float64Array.from(await m.predict(x), (v) => 1 - v),
        };
        const opts = {
          protected: [{ column: 'group', value: 'B' }],
          features: ['income', 'education'],
          exclude: ['p'],
          bins: 6,
        };
        for (const metric of ['spd', 'eod', 'aod'] as const) {
          const a = await fale(t, m, { ...opts, label: 'approved', positive: 'yes', metric });
          const b = await fale(recode(t, 'approved', 'p', 'denied', 'p_deny'), inverse, {
            ...opts,
            label: 'denied',
            positive: 'yes',
            favourable: 'negative',
            metric,
            exclude: ['p_deny'],
          });
          assert.equal(b.overall, a.overall, `${metric}: overall`);
          assert.deepEqual(
            b.features.map((f) => f.values),
            a.features.map((f) => f.values),
            `${metric}: the curves`,
          );
          assert.ok(
            a.overall !== null && a.overall < 0,
            `${metric}: group B is disadvantaged (${a.overall}), below 0 in both codings`,
          );
        }
      } finally {
        clf.dispose();
      }
    },
  );
});
