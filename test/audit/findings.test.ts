// What an audit states from its checks (src/audit/findings.ts): preferences only where the data and every
// seed agree; disagreements and generated-only values said as such; the ranking names faithful features only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FeatureFidelity, ShiftCheck } from '../../src/audit/checks.js';
import type { Distribution } from '../../src/audit/types.js';
import { buildFindings, FINDINGS_DEFAULTS, statedPreferences } from '../../src/audit/findings.js';

const d = (feature: string, js: number, role: Distribution['role'] = 'feature'): Distribution => ({ feature, kind: 'categorical', categories: ['a'], series: [{ name: 'p', share: [1], n: 1 }, { name: 'n', share: [1], n: 1 }], js, role });
const fid = (feature: string, faithful: boolean): FeatureFidelity => ({ feature, metric: 'TV', positive: { distance: faithful ? 0.02 : 0.4, perSeed: [], floor: 0.03, floorMedian: 0.02, rows: 10, realRows: 10 }, negative: null, faithful });
function check(feature: string, value: string, seeds: number[], lo: number, hi: number, role: Distribution['role'] = 'protected'): ShiftCheck {
  const real = (lo + hi) / 2;
  const s = lo > 0 ? 1 : hi < 0 ? -1 : 0;
  const w = s === 0 ? 0 : seeds.filter((x) => Math.sign(x) === s).length;
  return { feature, role, value, kind: 'share', canonical: seeds, pooled: seeds.reduce((a, b) => a + b, 0) / seeds.length, positive: 0, negative: 0, real: { shift: real, lo, hi, positiveRows: 10, negativeRows: 10, positive: 0, negative: 0 }, status: s === 0 ? 'within noise' : w === seeds.length ? 'agrees' : 'disagrees', seedsWithDataSign: w };
}

describe('buildFindings', () => {
  it('states a preference only when the data and every seed agree; says disagreements and generated-only values apart', () => {
    const checks = [
      check('age', 'young', [-0.1, -0.12, -0.09], -0.15, -0.08), // agrees, disfavoured
      check('age', 'old', [0.1, 0.12, 0.09], 0.08, 0.15), // agrees, favoured
      check('age', 'middle', [0.05, 0.02, 0.03], -0.2, -0.1), // the reversed finding: disagrees
      check('age', 'rare', [0.03, 0.04, 0.02], -0.05, 0.1), // the data cannot tell; seeds agree: generated only
      check('age', 'noisy', [0.03, -0.04, 0.02], -0.05, 0.1), // neither
      check('sex', 'F', [-0.2, 0.01, -0.1], -0.2, -0.1), // one seed off: disagrees
    ];
    const f = buildFindings([d('age', 0.3, 'protected'), d('sex', 0.2, 'protected')], [fid('age', true), fid('sex', true)], checks, ['age', 'sex']);
    const age = f.protected.find((x) => x.feature === 'age')!;
    assert.deepEqual(age.favoured.map((v) => v.value), ['old']);
    assert.deepEqual(age.disfavoured.map((v) => v.value), ['young']);
    assert.deepEqual(age.disagreements.map((v) => v.value), ['middle']);
    assert.deepEqual(age.generatedOnly.map((v) => v.value), ['rare']);
    const sex = f.protected.find((x) => x.feature === 'sex')!;
    assert.deepEqual(sex.favoured.concat(sex.disfavoured), []);
    assert.deepEqual(sex.disagreements.map((v) => v.value), ['F']);
    assert.deepEqual(statedPreferences(f), [{ feature: 'age', value: 'old', direction: 'favoured' }, { feature: 'age', value: 'young', direction: 'disfavoured' }]);
    assert.deepEqual(age.favoured[0].canonical, { pooled: checks[1].pooled, min: 0.09, max: 0.12, seeds: [0.1, 0.12, 0.09] });
  });

  it('the words follow the sign of the shifts, which checks.ts takes from the favourable side whatever the coding', () => {
    // with --favourable negative a value over-represented in the positive (high-risk) set has a negative shift (checks.test.ts)
    const checks = [check('race', 'A', [-0.2, -0.22, -0.18], -0.25, -0.15), check('race', 'B', [0.2, 0.22, 0.18], 0.15, 0.25)];
    const f = buildFindings([d('race', 0.3, 'protected')], [fid('race', true)], checks, ['race'], 'negative');
    assert.equal(f.favourable, 'negative');
    assert.deepEqual(f.protected[0].favoured.map((v) => v.value), ['B']);
    assert.deepEqual(f.protected[0].disfavoured.map((v) => v.value), ['A']);
    // the same shifts under --favourable positive read the same way: the favourable setting changes the shifts, not the words
    const p = buildFindings([d('race', 0.3, 'protected')], [fid('race', true)], checks, ['race']);
    assert.deepEqual(p.protected[0].favoured.map((v) => v.value), ['B']);
  });

  it('one seed is never enough for "generated only"', () => {
    const f = buildFindings([d('g', 0.3, 'protected')], [fid('g', true)], [check('g', 'v', [0.2], -0.1, 0.3)], ['g']);
    assert.deepEqual(f.protected[0].generatedOnly, []);
  });

  it('names the first features by JS whose sets are faithful; unfaithful ones ranked above them are listed apart', () => {
    const ranked = [d('a', 0.9), d('b', 0.8), d('p', 0.75, 'protected'), d('c', 0.7), d('e', 0.6), d('f', 0.5), d('g', 0.4), d('h', 0.3), d('i', 0.2)];
    const fids = ['a', 'b', 'c', 'e', 'f', 'g', 'h', 'i'].map((x) => fid(x, !['b', 'e'].includes(x)));
    const f = buildFindings(ranked, fids, [], ['p']);
    assert.equal(FINDINGS_DEFAULTS.named, 5);
    assert.deepEqual(f.named.map((x) => x.feature), ['a', 'c', 'f', 'g', 'h']);
    assert.deepEqual(f.unfaithful.map((x) => x.feature), ['b', 'e']);
    assert.deepEqual(f.protected.map((x) => x.feature), ['p']);
    assert.match(f.rankingRule, /faithful/);
  });
});
