// conditionalGaps (EXPERIMENTS.md §2.6) and cellParityGaps (§2.9), on hand-made numbers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cellParityGaps, conditionalGaps, decide, fairBands, type GapStat } from '../../src/audit/flags.js';
import type { AuditResult, Distribution } from '../../src/audit/types.js';

const dist = (feature: string, categories: string[], pos: number[], neg: number[], n = 100): Distribution => ({
  feature,
  kind: 'categorical',
  categories,
  series: [
    { name: 'positive canonical', share: pos, n },
    { name: 'negative canonical', share: neg, n },
  ],
  js: 0,
  role: 'protected',
});

describe('conditionalGaps', () => {
  it('gives d = positive share − negative share per (A = a, B = v), with the binomial sd of two 100-row shares', () => {
    const r: Pick<AuditResult, 'conditional'> = {
      conditional: [
        {
          fixed: ['sex', 'Female'],
          rows: 100,
          fixSatisfied: 0.9,
          distributions: [dist('group', ['A', 'B'], [0.8, 0.2], [0.6, 0.4])],
        },
        { fixed: ['group', 'B'], rows: 100, distributions: [dist('sex', ['Female', 'Male'], [0.5, 0.5], [0.5, 0.5])] },
      ],
    };
    const g = conditionalGaps(r);
    assert.deepEqual(
      g.map((x) => x.key),
      ['sex=Female → group=A', 'sex=Female → group=B', 'group=B → sex=Female', 'group=B → sex=Male'],
    );
    // sex=Female → group=B: 0.2 − 0.4 = −0.2; pooled p = 0.3; sd = sqrt(0.3·0.7·(1/100 + 1/100)) = sqrt(0.0042)
    const fb = g[1];
    assert.ok(Math.abs(fb.d - -0.2) < 1e-12);
    assert.ok(Math.abs(fb.sdBinomial - Math.sqrt(0.0042)) < 1e-12);
    assert.ok(Math.abs(g[0].d - 0.2) < 1e-12);
    // group=B → sex=Female: 0, p = 0.5: sd = sqrt(0.25 · 0.02) = sqrt(0.005)
    assert.equal(g[2].d, 0);
    assert.ok(Math.abs(g[2].sdBinomial - Math.sqrt(0.005)) < 1e-12);
  });

  it('is empty without conditional sets, and skips numeric distributions', () => {
    assert.deepEqual(conditionalGaps({}), []);
    const numeric: Distribution = {
      feature: 'age',
      kind: 'numeric',
      edges: [0, 1, 2],
      series: [
        { name: 'p', share: [0.5, 0.5], n: 10 },
        { name: 'n', share: [0.5, 0.5], n: 10 },
      ],
      js: 0,
      role: 'protected',
    };
    assert.deepEqual(
      conditionalGaps({ conditional: [{ fixed: ['sex', 'Male'], rows: 10, distributions: [numeric] }] }),
      [],
    );
  });

  it('is judged with the same band and K = 3 as the canonical gaps', () => {
    // fair runs: d = −0.05, −0.10, −0.15 → mean −0.10, sd 0.05 (3·sd = 0.15)
    const key = 'sex=Female → group=B';
    const fair: GapStat[][] = [-0.05, -0.1, -0.15].map((d) => [{ key, d, sdBinomial: 0.01 }]);
    const band = fairBands(fair).get(key)!;
    assert.ok(Math.abs(band.mean - -0.1) < 1e-12);
    assert.ok(Math.abs(band.sd - 0.05) < 1e-12);
    const g = conditionalGaps({
      conditional: [
        { fixed: ['sex', 'Female'], rows: 100, distributions: [dist('group', ['A', 'B'], [0.8, 0.2], [0.6, 0.4])] },
      ],
    })[1];
    // h = max(3 · 0.05, 3 · sqrt(0.0042)) = 3 · 0.0648… = 0.1944…; lower = −0.2944…; d = −0.2 is not below it
    const dec = decide(g, band)!;
    assert.ok(Math.abs(dec.halfWidth - 3 * Math.sqrt(0.0042)) < 1e-12);
    assert.equal(dec.flagged, false);
    // the same gap with 1000-row sets: σ_bin = sqrt(0.00042) → 3σ = 0.0615 < 3·sd = 0.15; lower −0.25; d = −0.3 is
    // flagged
    const big = conditionalGaps({
      conditional: [
        {
          fixed: ['sex', 'Female'],
          rows: 1000,
          distributions: [dist('group', ['A', 'B'], [0.75, 0.25], [0.45, 0.55], 1000)],
        },
      ],
    })[1];
    assert.ok(Math.abs(big.d - -0.3) < 1e-12);
    const dec2 = decide(big, band)!;
    assert.ok(Math.abs(dec2.lower - -0.25) < 1e-12);
    assert.equal(dec2.flagged, true);
  });
});

describe('cellParityGaps', () => {
  const heatmap = {
    rowAttribute: 'sex',
    colAttribute: 'group',
    rowValues: ['Female', 'Male'],
    colValues: ['A', 'B'],
    // 100 rows: Female&A 40 (rate 0.25), Female&B 10 (0.1), Male&A 30 (0.3), Male&B 20 (0.0); empty cells skipped
    n: [
      [40, 10],
      [30, 20],
    ],
    selectionRate: [
      [0.25, 0.1],
      [0.3, 0],
    ] as (number | null)[][],
  };
  it("gives each cell's positivity minus the rest of the rows', with the binomial sd of the two counts", () => {
    const g = cellParityGaps({ intersections: [{ heatmap }] });
    assert.deepEqual(
      g.map((x) => x.key),
      ['sex=Female & group=A', 'sex=Female & group=B', 'sex=Male & group=A', 'sex=Male & group=B'],
    );
    // positives: 10 + 1 + 9 + 0 = 20 of 100. Female&B: 0.1 − 19/90; pooled 0.2, sd = sqrt(0.16 (1/10 + 1/90))
    assert.ok(Math.abs(g[1].d - (0.1 - 19 / 90)) < 1e-12);
    assert.ok(Math.abs(g[1].sdBinomial - Math.sqrt(0.16 * (1 / 10 + 1 / 90))) < 1e-12);
    // Male&B: 0 − 20/80
    assert.ok(Math.abs(g[3].d - -0.25) < 1e-12);
  });
  it('skips empty cells and a cell holding every row', () => {
    const g = cellParityGaps({
      intersections: [
        {
          heatmap: {
            ...heatmap,
            n: [
              [0, 0],
              [100, 0],
            ],
            selectionRate: [
              [null, null],
              [0.2, null],
            ],
          },
        },
      ],
    });
    assert.deepEqual(g, []);
  });
});
