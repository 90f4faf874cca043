// What an audit states from its checks (src/audit/findings.ts): preferences only where the data and every
// seed agree; disagreements and generated-only values said as such; the ranking names faithful features only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { shiftStatus, type FeatureFidelity, type ShiftCheck } from '../../src/audit/checks.js';
import type { Distribution } from '../../src/audit/types.js';
import { buildFindings, FINDINGS_DEFAULTS, statedFrom, statedPreferences } from '../../src/audit/findings.js';

const d = (feature: string, js: number, role: Distribution['role'] = 'feature'): Distribution => ({
  feature,
  kind: 'categorical',
  categories: ['a'],
  series: [
    { name: 'p', share: [1], n: 1 },
    { name: 'n', share: [1], n: 1 },
  ],
  js,
  role,
});
const fid = (feature: string, faithful: boolean): FeatureFidelity => ({
  feature,
  metric: 'TV',
  positive: { distance: faithful ? 0.02 : 0.4, perSeed: [], floor: 0.03, floorMedian: 0.02, rows: 10, realRows: 10 },
  negative: null,
  faithful,
});
function check(
  feature: string,
  value: string,
  seeds: number[],
  lo: number,
  hi: number,
  role: Distribution['role'] = 'protected',
): ShiftCheck {
  const real = (lo + hi) / 2;
  const s = lo > 0 ? 1 : hi < 0 ? -1 : 0;
  const w = s === 0 ? 0 : seeds.filter((x) => Math.sign(x) === s).length;
  const pooled = seeds.reduce((a, b) => a + b, 0) / seeds.length;
  return {
    feature,
    role,
    value,
    kind: 'share',
    canonical: seeds,
    pooled,
    positive: 0,
    negative: 0,
    canonicalSe: 0.01,
    real: { shift: real, lo, hi, positiveRows: 10, negativeRows: 10, positive: 0, negative: 0 },
    ...shiftStatus(seeds, pooled, 0.01, { lo, hi }, s, 1.96),
    seedsWithDataSign: w,
  };
}

describe('buildFindings', () => {
  it(
    "states the data's direction only when every seed shifts the same way; the size is the sets' only where it is " +
      "consistent with the data's, else the real rows'; disagreements, unsettled and generated-only values apart",
    () => {
      const checks = [
        check('age', 'young', [-0.1, -0.12, -0.09], -0.15, -0.08), // agrees in sign and size, disfavoured
        check('age', 'old', [0.1, 0.12, 0.09], 0.08, 0.15), // agrees, favoured
        check('age', 'mid-old', [0.4, 0.45, 0.5], 0.08, 0.15), // every seed's sign, twice the size: overstates
        check('age', 'mid-young', [-0.02, -0.01, -0.015], -0.2, -0.1), // the sign, a fraction of the size: understates
        check('age', 'middle', [0.05, 0.02, 0.03], -0.2, -0.1), // every seed the other way: disagrees
        check('age', 'rare', [0.03, 0.04, 0.02], -0.05, 0.1), // the data cannot tell; seeds agree: generated only
        check('age', 'noisy', [0.03, -0.04, 0.02], -0.05, 0.1), // neither
        check('sex', 'F', [-0.2, 0.01, -0.1], -0.2, -0.1), // one seed off: unsettled, not a disagreement
      ];
      const f = buildFindings(
        [d('age', 0.3, 'protected'), d('sex', 0.2, 'protected')],
        [fid('age', true), fid('sex', true)],
        checks,
        ['age', 'sex'],
      );
      const age = f.protected.find((x) => x.feature === 'age')!;
      assert.deepEqual(
        age.favoured.map((v) => [v.value, v.status]),
        [
          ['old', 'agrees'],
          ['mid-old', 'overstates'],
        ],
      );
      assert.deepEqual(
        age.disfavoured.map((v) => [v.value, v.status]),
        [
          ['mid-young', 'understates'],
          ['young', 'agrees'],
        ],
      );
      assert.deepEqual(
        age.disagreements.map((v) => v.value),
        ['middle'],
      );
      assert.deepEqual(
        age.generatedOnly.map((v) => v.value),
        ['rare'],
      );
      const sex = f.protected.find((x) => x.feature === 'sex')!;
      assert.deepEqual(sex.favoured.concat(sex.disfavoured, sex.disagreements), []);
      assert.deepEqual(
        sex.unsettled.map((v) => v.value),
        ['F'],
      );
      // the figure stated: the sets' where they agree in size, the real rows' where they misstate it
      assert.deepEqual(statedPreferences(f), [
        { feature: 'age', value: 'old', direction: 'favoured', status: 'agrees', from: 'canonical' },
        { feature: 'age', value: 'mid-old', direction: 'favoured', status: 'overstates', from: 'real' },
        { feature: 'age', value: 'mid-young', direction: 'disfavoured', status: 'understates', from: 'real' },
        { feature: 'age', value: 'young', direction: 'disfavoured', status: 'agrees', from: 'canonical' },
      ]);
      assert.deepEqual(age.favoured[0].canonical, {
        pooled: checks[1].pooled,
        min: 0.09,
        max: 0.12,
        seeds: [0.1, 0.12, 0.09],
        se: 0.01,
      });
      // a misrepresented attribute: every figure from the real rows, never the sets' (one confidence statement)
      const u = buildFindings([d('age', 0.3, 'protected')], [fid('age', false)], checks, ['age']);
      assert.ok(
        [...u.protected[0].favoured, ...u.protected[0].disfavoured].every(
          (v) => statedFrom(v, u.protected[0].faithful) === 'real',
        ),
      );
    },
  );

  it(
    'the words follow the sign of the shifts, which checks.ts ' + 'takes from the favourable side whatever the coding',
    () => {
      // with --favourable negative a value over-represented in the positive (high-risk) set has a negative shift
      // (checks.test.ts)
      const checks = [
        check('race', 'A', [-0.2, -0.22, -0.18], -0.25, -0.15),
        check('race', 'B', [0.2, 0.22, 0.18], 0.15, 0.25),
      ];
      const f = buildFindings([d('race', 0.3, 'protected')], [fid('race', true)], checks, ['race'], 'negative');
      assert.equal(f.favourable, 'negative');
      assert.deepEqual(
        f.protected[0].favoured.map((v) => v.value),
        ['B'],
      );
      assert.deepEqual(
        f.protected[0].disfavoured.map((v) => v.value),
        ['A'],
      );
      // the same shifts under --favourable positive read the same way: the favourable setting changes the shifts, not
      // the words
      const p = buildFindings([d('race', 0.3, 'protected')], [fid('race', true)], checks, ['race']);
      assert.deepEqual(
        p.protected[0].favoured.map((v) => v.value),
        ['B'],
      );
    },
  );

  it('one seed is never enough for "generated only"', () => {
    const f = buildFindings([d('g', 0.3, 'protected')], [fid('g', true)], [check('g', 'v', [0.2], -0.1, 0.3)], ['g']);
    assert.deepEqual(f.protected[0].generatedOnly, []);
  });

  it(
    "names features in the real rows' order (beyond chance, faithful sets); the canonical order is context; a real " +
      'top-3 feature is never dropped silently',
    () => {
      // the canonical sets rank them a, b, c, …; the real rows rank c, b, a, …
      const ranked = [
        d('a', 0.9),
        d('b', 0.8),
        d('p', 0.75, 'protected'),
        d('c', 0.7),
        d('e', 0.6),
        d('f', 0.5),
        d('g', 0.4),
        d('h', 0.3),
        d('i', 0.2),
        d('j', 0.1),
      ];
      const sep = (feature: string, js: number, beyondChance = true) => ({
        feature,
        js,
        lo: js - 0.01,
        hi: js + 0.01,
        chance: 0.02,
        beyondChance,
      });
      const separation = [
        sep('c', 0.5),
        sep('b', 0.45),
        sep('a', 0.4),
        sep('e', 0.3),
        sep('f', 0.2),
        sep('g', 0.15),
        sep('h', 0.1, false),
        sep('i', 0.08),
        sep('j', 0.07),
      ];
      const fids = ['a', 'b', 'c', 'e', 'f', 'g', 'h', 'i', 'j'].map((x) => fid(x, !['b', 'e'].includes(x)));
      const f = buildFindings(ranked, fids, [], ['p'], 'positive', separation);
      assert.equal(FINDINGS_DEFAULTS.named, 5);
      assert.deepEqual(
        f.named.map((x) => x.feature),
        ['c', 'a', 'f', 'g', 'i'],
      );
      assert.deepEqual(
        f.unfaithful.map((x) => x.feature),
        ['b', 'e'],
      );
      assert.deepEqual(
        f.ranking.map((x) => [x.feature, x.realRank, x.canonicalRank, x.named, x.why]),
        [
          ['c', 1, 3, true, null],
          ['b', 2, 2, false, 'misrepresented by the canonical sets'],
          ['a', 3, 1, true, null],
          ['e', 4, 4, false, 'misrepresented by the canonical sets'],
          ['f', 5, 5, true, null],
          ['g', 6, 6, true, null],
          ['h', 7, 7, false, 'within chance'],
          ['i', 8, 8, true, null],
          ['j', 9, 9, false, null],
        ],
      );
      assert.deepEqual(
        f.protected.map((x) => x.feature),
        ['p'],
      );
      assert.match(f.rankingRule, /real rows' separation/);
      // a pooled JS outside its seeds' range is marked, to be explained
      const out = buildFindings(
        [{ ...d('a', 0.43), jsSeeds: [0.438, 0.449, 0.44] }],
        [fid('a', true)],
        [],
        [],
        'positive',
        [sep('a', 0.3)],
      );
      assert.equal(out.named[0].js.outsideSeeds, true);
    },
  );
});
