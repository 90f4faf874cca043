// EXPERIMENTS.md §14.1's rules (experiments/sets-truth-rule.mjs) on hand-made side views: what counts as the sets
// naming the planted feature (a stated value, in the disfavoured direction, where the rule reads it) and what counts as
// a false statement (the population's shift the other way or within ±0.02).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

const rules = await import(new URL('../../../experiments/sets-truth-rule.mjs', import.meta.url).href);

interface Value {
  value: string;
  status: string;
  pooled: number;
  real: number;
}
const value = (v: Value) => ({
  value: v.value,
  status: v.status,
  canonical: { pooled: v.pooled },
  real: { shift: v.real },
});
const feature = (name: string, favoured: Value[], disfavoured: Value[]) => ({
  feature: name,
  favoured: favoured.map(value),
  disfavoured: disfavoured.map(value),
});
/** a check of checks.shifts or checks.cells: real interval [lo, hi] */
const check = (f: string, v: string, status: string, pooled: number, lo: number, hi: number) => ({
  feature: f,
  value: v,
  kind: 'share',
  status,
  pooled,
  canonical: [pooled],
  real: { shift: (lo + hi) / 2, lo, hi },
});
const B = (status = 'agrees'): Value => ({ value: 'B', status, pooled: -0.4, real: -0.35 });
const A = (status = 'agrees'): Value => ({ value: 'A', status, pooled: 0.4, real: 0.35 });

function side(o: { protected?: unknown[]; named?: unknown[]; shifts?: unknown[]; cells?: unknown[] }) {
  return {
    findings: { protected: o.protected ?? [], named: o.named ?? [] },
    checks: { shifts: o.shifts ?? [], cells: o.cells ?? [] },
  };
}

describe('sets-truth rules (EXPERIMENTS.md §14.1)', () => {
  it('direct: group = B stated disfavoured among the protected findings, whatever its stated status', () => {
    for (const status of ['agrees', 'overstates', 'understates']) {
      const s = side({
        protected: [feature('group', [A(status)], [B(status)])],
        shifts: [check('group', 'A', status, 0.4, 0.3, 0.5), check('group', 'B', status, -0.4, -0.5, -0.3)],
      });
      assert.deepEqual(rules.named('direct', s), { hit: true, first: true, groupB: true }, status);
    }
    // not stated (findings list no direction), or stated the other way, or only as a named feature: a miss
    assert.equal(rules.named('direct', side({ protected: [feature('group', [], [])] })).hit, false);
    assert.equal(rules.named('direct', side({ protected: [feature('group', [B()], [A()])] })).hit, false);
    assert.equal(rules.named('direct', side({ named: [feature('group', [A()], [B()])] })).hit, false);
  });

  it('proxy: the proxy column named with a redlined zone disfavoured; group = B reported beside it', () => {
    const zone = (v: string, pooled: number): Value => ({ value: v, status: 'agrees', pooled, real: pooled });
    const hood = feature('neighbourhood', [zone('Westbrook', 0.1)], [zone('Southport', -0.2)]);
    const shifts = [
      check('neighbourhood', 'Westbrook', 'agrees', 0.1, 0.05, 0.15),
      check('neighbourhood', 'Southport', 'agrees', -0.2, -0.3, -0.1),
      check('neighbourhood', 'Hillcrest', 'within noise', -0.25, -0.1, 0.05),
    ];
    const r = rules.named('proxy', side({ named: [hood], protected: [feature('group', [], [])], shifts }));
    // Hillcrest's pooled shift is lower than Southport's: named, but the planted zone is not the first
    assert.deepEqual(r, { hit: true, first: false, groupB: false });
    const other = feature('neighbourhood', [], [zone('Hillcrest', -0.2)]);
    assert.equal(rules.named('proxy', side({ named: [other] })).hit, false);
    // the proxy column among the protected findings only (not named): a miss
    assert.equal(rules.named('proxy', side({ protected: [hood] })).hit, false);
  });

  it('intersectional: the cell Female & B with a stated status and its real interval below 0', () => {
    const cells = (status: string, lo: number, hi: number) => [
      check('sex × group', 'Female & B', status, -0.3, lo, hi),
      check('sex × group', 'Male & B', 'agrees', -0.1, -0.2, -0.05),
      check('sex × group', 'Male & A', 'agrees', 0.3, 0.2, 0.4),
    ];
    assert.deepEqual(rules.named('intersectional', side({ cells: cells('agrees', -0.4, -0.2) })), {
      hit: true,
      first: true,
      groupB: false,
    });
    for (const status of ['within noise', 'disagrees', 'unsettled'])
      assert.equal(rules.named('intersectional', side({ cells: cells(status, -0.4, -0.2) })).hit, false, status);
    // stated, but the real rows put it on the favoured side
    assert.equal(rules.named('intersectional', side({ cells: cells('agrees', 0.1, 0.2) })).hit, false);
  });

  it('false statements: judged features only, the population the other way or within ±0.02', () => {
    const s = side({
      protected: [
        feature('group', [A()], [B()]),
        feature('sex', [{ value: 'Male', status: 'agrees', pooled: 0.05, real: 0.05 }], []),
      ],
      named: [feature('education', [{ value: 'Master', status: 'agrees', pooled: 0.3, real: 0.3 }], [])],
      cells: [check('sex × group', 'Female & A', 'agrees', 0.1, 0.05, 0.15)],
    });
    const stated = rules.statedValues(s);
    assert.deepEqual(
      stated.map(
        (x: { feature: string; value: string; direction: string }) => `${x.feature}=${x.value} ${x.direction}`,
      ),
      [
        'group=A favoured',
        'group=B disfavoured',
        'sex=Male favoured',
        'education=Master favoured',
        'sex × group=Female & A favoured',
      ],
    );
    const population = {
      'group=A': 0.3,
      'group=B': -0.3,
      'sex=Male': 0.015,
      'sex × group=Female & A': -0.05,
    };
    const falses = rules.falseStatements(stated, population);
    // sex = Male within ±0.02, the cell the other way; education is not judged; group backed both ways
    assert.deepEqual(
      falses.map((x: { feature: string; value: string }) => `${x.feature}=${x.value}`),
      ['sex=Male', 'sex × group=Female & A'],
    );
    // a stated value the population lacks is false
    assert.equal(rules.falseStatements(stated, { 'group=A': 0.3 }).length, 3);
    assert.equal(
      rules.falseStatements(stated, { ...population, 'sex=Male': 0.03, 'sex × group=Female & A': 0.03 }).length,
      0,
    );
  });
});
