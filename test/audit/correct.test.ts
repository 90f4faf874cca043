// The classifier correction of a canonical set (src/audit/correct.ts): importance resampling by a
// real-vs-generated classifier's odds, cross-fitted, weights capped; and drawCanonical with it.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import type { CategoricalColumn, NumericColumn, Table } from '../../src/data/table.js';
import { classifierWeights, CORRECTION_DEFAULTS, essShare, weightedSample } from '../../src/audit/correct.js';
import { drawCanonical, drawSeed, observedRanges } from '../../src/audit/canonical.js';
import { LucidGan } from '../../src/models/lucidgan/model.js';
import { tvLabels } from '../../src/methods/quality/fidelity.js';
import { getEngine, hostRng } from '../helpers/engine.js';
import { cat, num } from '../helpers/tables.js';

let engine: Engine;
before(async () => {
  engine = await getEngine();
});

/** n rows: a category (share of "b": pb) and an amount that is 0 with probability p0, else uniform on [100, 1000). */
function rows(n: number, pb: number, p0: number, seed: number): Table {
  const rnd = hostRng(seed);
  const kind: string[] = [];
  const amount: number[] = [];
  for (let i = 0; i < n; i++) {
    kind.push(rnd() < pb ? 'b' : 'a');
    amount.push(rnd() < p0 ? 0 : 100 + Math.floor(900 * rnd()));
  }
  return { rows: n, columns: [cat('kind', kind, ['a', 'b']), num('amount', amount)] };
}
const labels = (t: Table, name: string) => {
  const c = t.columns.find((x) => x.name === name) as CategoricalColumn;
  return Array.from(c.codes, (k) => c.categories[k]);
};
const zeroShare = (t: Table) => {
  const v = (t.columns.find((x) => x.name === 'amount') as NumericColumn).values;
  return v.filter((x) => x === 0).length / v.length;
};

describe('weightedSample', () => {
  it('draws n distinct rows in order, the same for the same seed, and favours heavy rows in proportion', () => {
    const w = Float64Array.from({ length: 2000 }, (_, i) => (i < 1000 ? 3 : 1));
    const a = weightedSample(engine, w, 400, 7);
    assert.equal(a.length, 400);
    assert.equal(new Set(a).size, 400);
    for (let i = 1; i < a.length; i++) assert.ok(a[i] > a[i - 1]);
    assert.deepEqual(weightedSample(engine, w, 400, 7), a);
    assert.notDeepEqual(weightedSample(engine, w, 400, 8), a);
    // 400 of 2000 without replacement at weights 3:1: about 3/4 heavy (a little less, as heavy rows run out first)
    const heavy = a.filter((i) => i < 1000).length / 400;
    assert.ok(heavy > 0.68 && heavy < 0.8, `heavy share ${heavy}`);
  });
  it('takes rows of weight 0 only when the others run out, and checks n', () => {
    const w = Float64Array.from([0, 1, 0, 1, 1]);
    assert.deepEqual(Array.from(weightedSample(engine, w, 3, 1)), [1, 3, 4]);
    assert.equal(weightedSample(engine, w, 5, 1).length, 5);
    assert.throws(() => weightedSample(engine, w, 6, 1), /cannot draw 6 of 5/);
  });
  it('essShare is 1 for equal weights and 1/M for one weight', () => {
    assert.equal(essShare(Float64Array.from([2, 2, 2, 2])), 1);
    assert.equal(essShare(Float64Array.from([0, 0, 5, 0])), 0.25);
  });
});

describe('classifierWeights', () => {
  it('weights a distorted generator back towards the real rows, in categories and at a point mass', () => {
    const real = rows(1500, 0.2, 0.6, 1);
    // the generator: too many "b" (50% against 20%) and too few zeros (20% against 60%)
    const cand = rows(4000, 0.5, 0.2, 2);
    const { weights, meanReal } = classifierWeights(engine, real, cand, ['kind', 'amount'], 11);
    assert.equal(weights.length, cand.rows);
    assert.ok(weights.every((w) => w > 0 && Number.isFinite(w)));
    let mean = 0;
    for (const w of weights) mean += w / weights.length;
    assert.ok(Math.max(...weights) <= CORRECTION_DEFAULTS.cap * mean * (1 + 1e-12));
    assert.ok(meanReal < 0.5, `the candidates look generated: ${meanReal}`);
    const pick = weightedSample(engine, weights, 1000, 3);
    const kept: Table = {
      rows: 1000,
      columns: cand.columns.map((c) =>
        c.kind === 'numeric'
          ? { ...c, values: Float64Array.from(pick, (i) => c.values[i]) }
          : { ...c, codes: Int32Array.from(pick, (i) => c.codes[i]) },
      ),
    };
    const before = tvLabels(labels(cand, 'kind'), labels(real, 'kind'));
    const after = tvLabels(labels(kept, 'kind'), labels(real, 'kind'));
    assert.ok(after < before / 2, `TV of kind ${before} → ${after}`);
    assert.ok(
      Math.abs(zeroShare(kept) - 0.6) < Math.abs(zeroShare(cand) - 0.6) / 2,
      `zeros ${zeroShare(cand)} → ${zeroShare(kept)} (real 0.6)`,
    );
    // deterministic for the seed
    assert.deepEqual(classifierWeights(engine, real, cand, ['kind', 'amount'], 11).weights, weights);
  });
  it('logistic regression (the linear correction) also weights the categories and the point mass back', () => {
    const real = rows(1500, 0.2, 0.6, 1);
    const cand = rows(4000, 0.5, 0.2, 2);
    const { weights } = classifierWeights(engine, real, cand, ['kind', 'amount'], 11, { hidden: [] });
    const pick = weightedSample(engine, weights, 1000, 3);
    const kept: Table = {
      rows: 1000,
      columns: cand.columns.map((c) =>
        c.kind === 'numeric'
          ? { ...c, values: Float64Array.from(pick, (i) => c.values[i]) }
          : { ...c, codes: Int32Array.from(pick, (i) => c.codes[i]) },
      ),
    };
    assert.ok(
      tvLabels(labels(kept, 'kind'), labels(real, 'kind')) < tvLabels(labels(cand, 'kind'), labels(real, 'kind')) / 2,
    );
    assert.ok(
      Math.abs(zeroShare(kept) - 0.6) < Math.abs(zeroShare(cand) - 0.6) / 2,
      `zeros ${zeroShare(cand)} → ${zeroShare(kept)}`,
    );
    assert.notDeepEqual(weights, classifierWeights(engine, real, cand, ['kind', 'amount'], 11).weights, 'not the MLP');
  });
  it('leaves a generator the classifier cannot tell from the real rows close to unweighted', () => {
    const real = rows(1500, 0.3, 0.5, 3);
    const cand = rows(4000, 0.3, 0.5, 4);
    const { weights, meanReal } = classifierWeights(engine, real, cand, ['kind', 'amount'], 5);
    assert.ok(Math.abs(meanReal - 0.5) < 0.06, `meanReal ${meanReal}`);
    assert.ok(essShare(weights) > 0.8, `ess ${essShare(weights)}`);
  });
  it('names what it lacks', () => {
    const t = rows(10, 0.5, 0.5, 1);
    assert.throws(() => classifierWeights(engine, t, t, [], 1), /no features/);
    assert.throws(() => classifierWeights(engine, rows(1, 0.5, 0.5, 1), t, ['kind'], 1), /too few rows/);
  });
});

describe('drawCanonical with the classifier correction', () => {
  it(
    'draws factor × rows candidates, keeps rows of them, ' +
      'reports the correction, and skips it with too few real rows',
    async () => {
      const rnd = hostRng(9);
      const n = 400;
      const data = rows(n, 0.3, 0.5, 6);
      const p = Float64Array.from({ length: n }, () => rnd());
      const gan = (
        await LucidGan.fit(
          engine,
          { rows: n, columns: [...data.columns, { kind: 'numeric', name: 'preds', values: p }] },
          { conditions: ['preds'], epochs: 3, batch: 100, seed: 1, paper: true },
        )
      ).model;
      try {
        const sideRows = Int32Array.from({ length: n }, (_, i) => i).filter((i) => p[i] > 0.5);
        const real: Table = {
          rows: sideRows.length,
          columns: data.columns.map((c) =>
            c.kind === 'numeric'
              ? { ...c, values: Float64Array.from(sideRows, (i) => c.values[i]) }
              : { ...c, codes: Int32Array.from(sideRows, (i) => c.codes[i]) },
          ),
        };
        const o = {
          side: 1 as const,
          condition: 'observed' as const,
          sideRows,
          predName: 'preds',
          fix: [],
          rows: 150,
          seedOf: (r: number) => drawSeed(1, 0, r),
          scorer: null,
          decision: { kind: 'probability' as const, threshold: 0.5 },
          range: observedRanges(data),
          dependencies: [],
        };
        const d = await drawCanonical(gan, { ...o, correct: { real, features: ['kind', 'amount'], seed: 21 } });
        assert.equal(d.table.rows, 150);
        assert.equal(d.stats.kept, 150);
        assert.equal(d.stats.correction!.candidates, 150 * CORRECTION_DEFAULTS.factor);
        assert.equal(d.stats.correction!.skipped, undefined);
        assert.ok(d.stats.correction!.ess > 0 && d.stats.correction!.ess <= 1);
        // the kept rows are candidates: the uncorrected draw of factor × rows holds them
        const all = await drawCanonical(gan, { ...o, rows: 150 * CORRECTION_DEFAULTS.factor });
        const key = (t: Table, i: number) =>
          t.columns.map((c) => (c.kind === 'numeric' ? c.values[i] : c.categories[c.codes[i]])).join('|');
        const pool = new Set(Array.from({ length: all.table.rows }, (_, i) => key(all.table, i)));
        for (let i = 0; i < d.table.rows; i++) assert.ok(pool.has(key(d.table, i)));
        const few: Table = {
          rows: 20,
          columns: real.columns.map((c) =>
            c.kind === 'numeric' ? { ...c, values: c.values.slice(0, 20) } : { ...c, codes: c.codes.slice(0, 20) },
          ),
        };
        const s = await drawCanonical(gan, { ...o, correct: { real: few, features: ['kind', 'amount'], seed: 21 } });
        assert.equal(s.table.rows, 150);
        assert.match(s.stats.correction!.skipped!, /20 real rows/);
      } finally {
        gan.dispose();
      }
    },
  );
});
