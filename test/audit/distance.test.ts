// Jensen–Shannon distance and the common-bin distributions of the audit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { commonEdges, distribution, jsDistance, rankDistributions } from '../../src/audit/distance.js';
import { cat, num } from '../helpers/tables.js';

describe('jsDistance (base 2)', () => {
  it('is 0 for identical distributions (also unnormalised) and 1 for disjoint ones', () => {
    assert.equal(jsDistance([0.2, 0.3, 0.5], [0.2, 0.3, 0.5]), 0);
    assert.equal(jsDistance([2, 3, 5], [0.2, 0.3, 0.5]), 0);
    assert.equal(jsDistance([1, 0], [0, 1]), 1);
    assert.equal(jsDistance([0.5, 0.5, 0, 0], [0, 0, 0.3, 0.7]), 1);
  });

  it('matches a hand-computed case: [1, 0] vs [0.5, 0.5]', () => {
    // m = [0.75, 0.25]; KL(p‖m) = log2(4/3); KL(q‖m) = ½log2(2/3) + ½log2(2); JSD = ½(KL + KL)
    const jsd = 0.5 * (Math.log2(4 / 3) + 0.5 * Math.log2(2 / 3) + 0.5);
    assert.ok(Math.abs(jsDistance([1, 0], [0.5, 0.5]) - Math.sqrt(jsd)) < 1e-12);
    assert.ok(Math.abs(Math.sqrt(jsd) - 0.557923) < 1e-6);
  });

  it('is symmetric and 0 when a side is empty', () => {
    assert.equal(jsDistance([0.1, 0.9], [0.6, 0.4]), jsDistance([0.6, 0.4], [0.1, 0.9]));
    assert.equal(jsDistance([0, 0], [0.5, 0.5]), 0);
  });
});

describe('distribution', () => {
  it('categorical: shares per category over the union of the series, in dictionary order', () => {
    const d = distribution(
      'sex',
      [
        { name: 'pos', column: cat('sex', ['M', 'M', 'M', 'F']) },
        { name: 'neg', column: cat('sex', ['F', 'F', 'X', 'F']) },
      ],
      'protected',
    );
    assert.deepEqual(d.categories, ['M', 'F', 'X']);
    assert.deepEqual(d.series[0].share, [0.75, 0.25, 0]);
    assert.deepEqual(d.series[1].share, [0, 0.75, 0.25]);
    assert.equal(d.series[0].n, 4);
    assert.ok(d.js > 0 && d.js < 1);
    assert.equal(d.role, 'protected');
  });

  it('numeric: common equal-width edges, shares sum to 1 per series, given edges are used as they are', () => {
    const a = num(
      'x',
      Array.from({ length: 200 }, (_, i) => i / 10),
    );
    const b = num(
      'x',
      Array.from({ length: 200 }, (_, i) => 30 + i / 10),
    );
    const d = distribution(
      'x',
      [
        { name: 'a', column: a },
        { name: 'b', column: b },
      ],
      'feature',
    );
    assert.equal(d.edges!.length, 21);
    for (const s of d.series) assert.ok(Math.abs(s.share.reduce((x, y) => x + y, 0) - 1) < 1e-12);
    assert.equal(d.js, 1);
    const e = distribution(
      'x',
      [
        { name: 'a', column: a },
        { name: 'b', column: b },
      ],
      'feature',
      { edges: [0, 20, 50] },
    );
    assert.deepEqual(e.edges, [0, 20, 50]);
    assert.deepEqual(e.series[0].share, [1, 0]);
    assert.equal(e.series[1].share[1], 1);
    assert.equal(e.js, 1);
  });

  it("commonEdges spans the series' 1st–99th percentiles; a constant gets one unit-wide bin", () => {
    const e = commonEdges([Float64Array.from({ length: 101 }, (_, i) => i)], 4);
    assert.deepEqual(e, [1, 25.5, 50, 74.5, 99]);
    assert.deepEqual(commonEdges([[3, 3, 3]]), [2.5, 3.5]);
  });

  it('rankDistributions: largest js first, ties by name', () => {
    const mk = (feature: string, js: number) => ({
      feature,
      js,
      kind: 'numeric' as const,
      series: [],
      role: 'feature' as const,
    });
    assert.deepEqual(
      rankDistributions([mk('b', 0.1), mk('a', 0.5), mk('c', 0.1)]).map((d) => d.feature),
      ['a', 'b', 'c'],
    );
  });
});
