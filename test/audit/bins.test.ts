// Binning of numeric protected attributes: quantile and explicit edges, ties, edge inclusion.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assignBin, binValues, explicitBins, quantileBins } from '../../src/audit/bins.js';

describe('protected bins', () => {
  it('quantile edges (linear interpolation, numpy\'s default) and labels', () => {
    const b = quantileBins([8, 1, 2, 3, 4, 5, 6, 7], 4);
    assert.equal(b.method, 'quantile');
    assert.deepEqual(b.edges, [1, 2.75, 4.5, 6.25, 8]);
    assert.deepEqual(b.labels, ['[1, 2.75]', '(2.75, 4.5]', '(4.5, 6.25]', '(6.25, 8]']);
    assert.deepEqual(binValues([1, 2, 3, 4, 5, 6, 7, 8], b.edges).counts, [2, 2, 2, 2]);
  });

  it('ties: duplicate quantiles collapse into fewer bins; a constant column is one bin', () => {
    const b = quantileBins([1, 1, 1, 1, 1, 2, 3], 4);
    assert.deepEqual(b.edges, [1, 1.5, 3]);
    assert.deepEqual(binValues([1, 1, 1, 1, 1, 2, 3], b.edges).counts, [5, 2]);
    assert.deepEqual(quantileBins([4, 4, 4], 3).edges, [4, 4]);
    assert.deepEqual(binValues([4, 4, 4], [4, 4]).counts, [3]);
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
