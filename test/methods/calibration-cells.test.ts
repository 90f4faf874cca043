// The ECE interval of a group over BIG_GROUP rows, resampled by (bin, label) cells: it holds the point
// ECE, and it agrees with a row bootstrap of the same group (computed here the slow way) to within
// a fraction of its width; the same seed gives the same bytes.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import { BIG_GROUP, calibrationByGroup } from '../../src/methods/metrics/calibration.js';
import { quantileSorted } from '../../src/data/quantile.js';
import { getEngine } from '../helpers/engine.js';

describe('ECE interval by cells (groups over BIG_GROUP rows)', () => {
  let engine: Engine;
  const n = BIG_GROUP + 50_000;
  const score = new Float64Array(n);
  const y = new Uint8Array(n);
  before(async () => {
    engine = await getEngine();
    const u = new Rng(engine, 11).uniformHost(2 * n);
    // miscalibrated: P(y = 1 | s) = s², so the ECE is well above 0; few rows near 1 with y = 0 (small cells)
    for (let i = 0; i < n; i++) {
      score[i] = u[i];
      y[i] = u[n + i] < u[i] * u[i] ? 1 : 0;
    }
  });

  it('holds the point ECE, agrees with a row bootstrap, and repeats with the seed', () => {
    const gid = new Int32Array(n);
    const [a] = calibrationByGroup(['g'], gid, score, y, 10, 200, new Rng(engine, 3), 0.95);
    const [b] = calibrationByGroup(['g'], gid, score, y, 10, 200, new Rng(engine, 3), 0.95);
    assert.deepEqual(a, b);
    assert.ok(a.ci && a.ece !== null);
    assert.ok(a.ci.lo! <= a.ece && a.ece <= a.ci.hi!, `${a.ece} in [${a.ci.lo}, ${a.ci.hi}]`);
    // the row bootstrap, 100 resamples
    const rng = new Rng(engine, 4);
    const stats: number[] = [];
    for (let r = 0; r < 100; r++) {
      const w = rng.uniformHost(n);
      const cnt = new Float64Array(10);
      const s = new Float64Array(10);
      const p = new Float64Array(10);
      for (let k = 0; k < n; k++) {
        const i = Math.min(n - 1, Math.floor(w[k] * n));
        const bin = Math.min(9, Math.floor(score[i] * 10));
        cnt[bin]++;
        s[bin] += score[i];
        p[bin] += y[i];
      }
      let e = 0;
      for (let bin = 0; bin < 10; bin++) e += Math.abs(p[bin] - s[bin]);
      stats.push(e / n);
    }
    stats.sort((x, z) => x - z);
    const lo = quantileSorted(stats, 0.025);
    const hi = quantileSorted(stats, 0.975);
    const width = hi - lo;
    assert.ok(
      Math.abs(a.ci.lo! - lo) < 0.5 * width && Math.abs(a.ci.hi! - hi) < 0.5 * width,
      `cells [${a.ci.lo}, ${a.ci.hi}] vs rows [${lo}, ${hi}]`,
    );
  });
});
