// Binning of numeric protected attributes: quantile and explicit edges, ties, edge inclusion.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assignBin, binValues, explicitBins, quantileBins } from '../../src/audit/bins.js';

describe('protected bins', () => {
  it("quantile edges (linear interpolation, numpy's default) and labels", () => {
    const b = quantileBins([8, 1, 2, 3, 4, 5, 6, 7], 4);
    assert.equal(b.method, 'quantile');
    assert.deepEqual(b.edges, [1, 2.75, 4.5, 6.25, 8]);
    assert.deepEqual(b.labels, ['[1, 2.75]', '(2.75, 4.5]', '(4.5, 6.25]', '(6.25, 8]']);
    assert.deepEqual(binValues([1, 2, 3, 4, 5, 6, 7, 8], b.edges).counts, [2, 2, 2, 2]);
  });

  it('ties: duplicate quantiles collapse into fewer bins', () => {
    const v = [1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6];
    const b = quantileBins(v, 4);
    assert.deepEqual(b.edges, [1, 3.5, 6]);
    assert.deepEqual(binValues(v, b.edges).counts, [8, 3]);
  });

  it('at most k distinct values (a coded category, a constant): one bin per value, labelled by the value', () => {
    // sex coded 1 / 2: quantile edges would give the single bin [1, 2] and no group to compare
    const sex = [2, 1, 1, 2, 2, 1, 2, 1, 1];
    const b = quantileBins(sex, 4);
    assert.deepEqual(b.edges, [1, 1.5, 2]);
    assert.deepEqual(b.labels, ['1', '2']);
    // a generated value between two codes goes to the nearer one
    assert.deepEqual(
      [0.3, 1.2, 1.6, 2].map((x) => assignBin(x, b.edges, true)),
      [0, 0, 1, 1],
    );
    assert.deepEqual(binValues(sex, b.edges).counts, [5, 4]);
    assert.deepEqual(Array.from(binValues(sex, b.edges).codes), [1, 0, 0, 1, 1, 0, 1, 0, 0]);
    const three = quantileBins([0, 5, 0, 9.5, 5], 3);
    assert.deepEqual(three.labels, ['0', '5', '9.5']);
    assert.deepEqual(three.edges, [0, 2.5, 7.25, 9.5]);
    // labels stay distinct where rounding would merge them
    assert.deepEqual(quantileBins([0.12341, 0.12342, 0.5], 3).labels, ['0.12341', '0.12342', '0.5']);
    assert.deepEqual(binValues([0, 5, 0, 9.5, 5], three.edges).counts, [2, 2, 1]);
    // a constant: one bin
    const c = quantileBins([4, 4, 4], 3);
    assert.deepEqual(c.edges, [4, 4]);
    assert.deepEqual(c.labels, ['4']);
    assert.deepEqual(binValues([4, 4, 4], c.edges).counts, [3]);
    // one more distinct value than bins: quantiles again
    assert.equal(quantileBins([1, 2, 3, 4, 5], 4).labels[0], '[1, 2]');
  });

  it('edge inclusion: bins are (a, b], the first also holds its lower edge', () => {
    const e = [17, 30, 50, 90];
    assert.equal(assignBin(17, e), 0);
    assert.equal(assignBin(30, e), 0);
    assert.equal(assignBin(30.0001, e), 1);
    assert.equal(assignBin(50, e), 1);
    assert.equal(assignBin(90, e), 2);
    assert.equal(assignBin(16.9, e), -1);
    assert.equal(assignBin(91, e), -1);
    assert.equal(assignBin(91, e, true), 2);
    assert.equal(assignBin(3, e, true), 0);
    assert.equal(assignBin(NaN, e, true), -1);
  });

  it('explicit edges: labels, and a clear error for too few or non-increasing edges', () => {
    const b = explicitBins([17, 30, 50, 90]);
    assert.equal(b.method, 'explicit');
    assert.deepEqual(b.labels, ['[17, 30]', '(30, 50]', '(50, 90]']);
    assert.throws(() => explicitBins([5]), /at least two edges/);
    assert.throws(() => explicitBins([1, 3, 3]), /increase strictly/);
    assert.throws(() => explicitBins([1, NaN]), /not a finite number/);
  });
});
