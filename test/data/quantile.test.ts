// medianOf (no sorted copy) against quantileSorted of a sorted copy: ties, negatives, zeros of both
// signs, odd and even lengths, a few thousand seeded arrays.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { medianOf, quantileSorted } from '../../src/data/quantile.js';
import { hostRng } from '../helpers/engine.js';

describe('medianOf', () => {
  it('equals the median of a sorted copy, bit for bit', () => {
    const rnd = hostRng(7);
    for (let t = 0; t < 3000; t++) {
      const n = 1 + Math.floor(rnd() * 60);
      const v = Float64Array.from({ length: n }, () => {
        const r = rnd();
        return r < 0.3 ? Math.round(rnd() * 4) / 4 : r < 0.4 ? -rnd() * 1e3 : r < 0.45 ? -0 : rnd();
      });
      const want = quantileSorted(Float64Array.from(v).sort(), 0.5);
      assert.equal(medianOf(v), want, `${Array.from(v)}`);
    }
    assert.ok(Number.isNaN(medianOf(new Float64Array(0))));
  });
});
