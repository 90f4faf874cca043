// Fidelity beyond marginals: the AUC by ranks against hand-computed values; detection,
// pair trends and distance to the closest record under known differences between real and generated
// rows (matched, shifted, widened, a pair relation broken, copied rows), each beside its noise floor.
// Every table is drawn from a seeded Rng, so every figure is the same on every run.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import { concatRows, selectRows, type Table } from '../../src/data/table.js';
import {
  aucByRanks,
  copyShareSe,
  detectionScore,
  pairTrendsWithFloor,
  privacyDcr,
  privacyHolds,
  PRIVACY_RULE,
  type BeyondFeature,
} from '../../src/methods/quality/beyond.js';
import { pairTrend } from '../../src/methods/quality/report.js';
import { getEngine, rejectsEngineError } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

let engine: Engine;
before(async () => {
  engine = await getEngine();
});

const close = (a: number, b: number, what: string, tol = 1e-12) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a}, expected ${b}`);

interface Draw {
  /** added to v */
  shift?: number;
  /** v's spread multiplied by it */
  spread?: number;
  /** y drawn independently of x (same marginal) instead of y = x + 0.1·noise */
  yIndependent?: boolean;
  /** c2 drawn independently of c1 (same marginal) instead of c2 = c1 */
  cIndependent?: boolean;
}

/**
 * n rows: x ~ N(0, 1), y = x + 0.1·N(0, 1) (corr ≈ 0.995), v ~ N(0, 1) and w ~ Exp(1) independent,
 * c1 uniform over a/b/c, c2 = c1, g = "hi" when x > 0 else "lo" (a mixed pair with x). Options break
 * one piece each (the shift and spread act on v, a column no other one is related to: shifting x alone
 * would move x − y, which a linear classifier separates perfectly).
 */
function draw(rng: Rng, n: number, o: Draw = {}): Table {
  const z = rng.normalHost(3 * n);
  const u = rng.uniformHost(3 * n);
  const x = new Array<number>(n);
  const y = new Array<number>(n);
  const v = new Array<number>(n);
  const w = new Array<number>(n);
  const c1: string[] = [];
  const c2: string[] = [];
  const g: string[] = [];
  const abc = ['a', 'b', 'c'];
  for (let i = 0; i < n; i++) {
    const base = z[i];
    x[i] = base;
    v[i] = z[2 * n + i] * (o.spread ?? 1) + (o.shift ?? 0);
    // an independent y has y's marginal: N(0, 1 + 0.01)
    y[i] = o.yIndependent ? z[n + i] * Math.sqrt(1.01) : base + 0.1 * z[n + i];
    w[i] = -Math.log(1 - u[i]);
    c1.push(abc[Math.min(2, Math.floor(u[n + i] * 3))]);
    c2.push(o.cIndependent ? abc[Math.min(2, Math.floor(u[2 * n + i] * 3))] : c1[i]);
    g.push(base > 0 ? 'hi' : 'lo');
  }
  return table(
    num('x', x),
    num('y', y),
    num('v', v),
    num('w', w),
    cat('c1', c1, abc),
    cat('c2', c2, abc),
    cat('g', g, ['lo', 'hi']),
  );
}

const FEATURES: BeyondFeature[] = [
  { name: 'x', kind: 'numeric' },
  { name: 'y', kind: 'numeric' },
  { name: 'v', kind: 'numeric' },
  { name: 'w', kind: 'numeric' },
  { name: 'c1', kind: 'categorical' },
  { name: 'c2', kind: 'categorical' },
  { name: 'g', kind: 'categorical' },
];

describe('aucByRanks', () => {
  it('perfect separation 1, reversed 0, all tied ½', () => {
    assert.equal(aucByRanks([1, 2, 3, 4], [0, 0, 1, 1]), 1);
    assert.equal(aucByRanks([1, 2, 3, 4], [1, 1, 0, 0]), 0);
    assert.equal(aucByRanks([5, 5, 5, 5], [0, 1, 0, 1]), 0.5);
  });
  it('hand-computed: 3 of 4 pairs ordered; a tie counts ½', () => {
    // positives .35 and .8 against negatives .1 and .4: .35>.1, .35<.4, .8>.1, .8>.4 → 3/4 (sklearn's example)
    close(aucByRanks([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]), 0.75, 'sklearn example');
    // positives 2 and 3 against negatives 1 and 2: 1 + ½ + 1 + 1 → 3.5/4
    close(aucByRanks([1, 2, 2, 3], [0, 0, 1, 1]), 0.875, 'tie');
    // unbalanced: positive 2 against negatives 1, 3, 4 → 1/3
    close(aucByRanks([1, 2, 3, 4], [0, 1, 0, 0]), 1 / 3, 'one positive');
  });
  it('a missing class is NaN; bad labels or lengths are E_ARG errors', async () => {
    assert.ok(Number.isNaN(aucByRanks([1, 2], [1, 1])));
    await rejectsEngineError(() => aucByRanks([1, 2], [1]), 'E_ARG', [/2 scores but 1 labels/]);
    await rejectsEngineError(() => aucByRanks([1, 2], [0, 2]), 'E_ARG', [/label 1 is 2/]);
  });
});

describe('detectionScore', () => {
  it('matched rows score near 1 with a comparable floor; a 2-SD shift scores near 0', () => {
    const real = draw(new Rng(engine, 1), 3000);
    const same = draw(new Rng(engine, 2), 3000);
    const shifted = draw(new Rng(engine, 3), 3000, { shift: 2 });
    const m = detectionScore(real, same, FEATURES, new Rng(engine, 10));
    assert.ok(m.score >= 0.7, `matched: score ${m.score} (AUC ${m.auc})`);
    assert.ok(
      m.floor >= 0.6 && m.floor <= 1 && m.floorMedian >= m.floor,
      `matched: floor ${m.floor}, median ${m.floorMedian}`,
    );
    assert.ok(Math.abs(m.score - m.floorMedian) < 0.25, `matched: score ${m.score} vs floor median ${m.floorMedian}`);
    assert.equal(m.rowsReal, 2000);
    assert.equal(m.rowsGenerated, 2000);
    assert.equal(m.heldOut, 4000);
    assert.equal(m.floorRows, 1500);
    const s = detectionScore(real, shifted, FEATURES, new Rng(engine, 10));
    // one column shifted by 2 SD: AUC Φ(2/√2) ≈ 0.92 at best, score ≈ 0.16
    assert.ok(s.score <= 0.2, `shifted: score ${s.score} (AUC ${s.auc})`);
    assert.ok(s.auc >= 0.88, `shifted: AUC ${s.auc}`);
    assert.ok(s.score < s.floor, 'shifted: below the floor');
  });

  it('a doubled spread (same mean) is seen through z²; a broken pair relation is not (pair trends see it)', () => {
    const real = draw(new Rng(engine, 1), 3000);
    const same = draw(new Rng(engine, 2), 3000);
    const wide = draw(new Rng(engine, 4), 3000, { spread: 2 });
    const broken = draw(new Rng(engine, 5), 3000, { cIndependent: true, yIndependent: true });
    const m = detectionScore(real, same, FEATURES, new Rng(engine, 11), { replicates: 2 });
    const w = detectionScore(real, wide, FEATURES, new Rng(engine, 11), { replicates: 2 });
    assert.ok(w.score < m.score - 0.3 && w.score < w.floor, `wide: ${w.score}, matched ${m.score}, floor ${w.floor}`);
    // main effects only: c2 = c1 vs c2 independent of c1, and y = x vs y independent of x, have the same
    // marginals, so the logistic regression cannot tell them apart (documented limitation) …
    const b = detectionScore(real, broken, FEATURES, new Rng(engine, 11), { replicates: 2 });
    assert.ok(b.score >= 0.7, `broken pairs: detection ${b.score} (AUC ${b.auc})`);
    // … while pair trends put it far below their floor
    const p = pairTrendsWithFloor(real, broken, FEATURES, new Rng(engine, 12), { replicates: 20 });
    assert.ok(p.score < p.floor - 0.05, `broken pairs: pair trends ${p.score}, floor ${p.floor}`);
  });

  it('the same seed gives the same result object; folds and rows follow the options', () => {
    const real = draw(new Rng(engine, 1), 700);
    const gen = draw(new Rng(engine, 6), 500, { shift: 0.3 });
    const a = detectionScore(real, gen, FEATURES, new Rng(engine, 42), { folds: 3 });
    const b = detectionScore(real, gen, FEATURES, new Rng(engine, 42), { folds: 3 });
    assert.deepStrictEqual(a, b);
    // the larger class is cut to the smaller; the floor's halves to ⌊700 / 2⌋
    assert.equal(a.rowsReal, 500);
    assert.equal(a.floorRows, 350);
    const c = detectionScore(real, gen, FEATURES, new Rng(engine, 43), { folds: 3, maxRows: 200 });
    assert.equal(c.rowsReal, 200);
    assert.equal(c.heldOut, 400);
    assert.notDeepStrictEqual(a, c);
  });

  it('missing cells and unseen categories are encoded (indicator, all zeros), not errors', () => {
    const real = draw(new Rng(engine, 1), 400);
    const gen = draw(new Rng(engine, 7), 400);
    const gx = gen.columns.find((c) => c.name === 'x')!;
    // half of x missing in generated only
    if (gx.kind === 'numeric') for (let i = 0; i < 400; i += 2) gx.values[i] = NaN;
    const r = detectionScore(real, gen, FEATURES, new Rng(engine, 1), { replicates: 1 });
    // the missing indicator alone separates half the generated rows: AUC ≥ ~0.75
    assert.ok(r.auc > 0.7, `missing: AUC ${r.auc}`);
    const gc = gen.columns.find((c) => c.name === 'c1')!;
    if (gc.kind === 'categorical') {
      gc.categories.push('z');
      for (let i = 0; i < 400; i += 3) gc.codes[i] = 3;
    }
    const u = detectionScore(real, gen, FEATURES, new Rng(engine, 1), { replicates: 1 });
    assert.ok(Number.isFinite(u.auc) && u.score >= 0 && u.score <= 1);
  });

  it('a feature missing from a table, or of another kind, is an E_ARG error naming both', async () => {
    const real = draw(new Rng(engine, 1), 50);
    const gen: Table = { rows: 50, columns: real.columns.filter((c) => c.name !== 'w') };
    await rejectsEngineError(() => detectionScore(real, gen, FEATURES, new Rng(engine, 1)), 'E_ARG', [
      /generated table/,
      /"w"/,
    ]);
    await rejectsEngineError(
      () => detectionScore(real, real, [{ name: 'x', kind: 'categorical' }], new Rng(engine, 1)),
      'E_ARG',
      [/"x"/, /real table is numeric/],
    );
    await rejectsEngineError(() => detectionScore(real, real, FEATURES, new Rng(engine, 1), { folds: 1 }), 'E_ARG', [
      /folds/,
    ]);
  });
});

describe('pairTrendsWithFloor', () => {
  it('matched rows score near 1, above the low floor; the score is report.ts pairTrend averaged', () => {
    const real = draw(new Rng(engine, 1), 3000);
    const same = draw(new Rng(engine, 2), 2000);
    const r = pairTrendsWithFloor(real, same, FEATURES, new Rng(engine, 20));
    assert.ok(r.score >= 0.95, `score ${r.score} (floor ${r.floor}, median ${r.floorMedian})`);
    assert.ok(r.score >= r.floor, `score ${r.score} below floor ${r.floor}`);
    assert.ok(
      r.floor <= r.floorMedian && r.floorMedian <= 1 && r.floor > 0.9,
      `floor ${r.floor}, median ${r.floorMedian}`,
    );
    assert.equal(r.pairs, 21);
    assert.equal(r.pairsTotal, 21);
    // the same figure as the quality report's pair trends, pair by pair
    let s = 0;
    for (let i = 0; i < FEATURES.length; i++) {
      for (let j = i + 1; j < FEATURES.length; j++) {
        const col = (t: Table, k: number) => t.columns.find((c) => c.name === FEATURES[k].name)!;
        s += pairTrend([col(real, i), col(real, j)], [col(same, i), col(same, j)]).score!;
      }
    }
    close(r.score, s / 21, 'mean of pairTrend', 1e-12);
    // a table against itself: 1
    close(pairTrendsWithFloor(real, real, FEATURES, new Rng(engine, 20), { replicates: 3 }).score, 1, 'self', 1e-12);
  });

  it('y independent of x: the score falls below the floor and the worst pair is (x, y)', () => {
    const real = draw(new Rng(engine, 1), 3000);
    const gen = draw(new Rng(engine, 2), 2000, { yIndependent: true });
    const r = pairTrendsWithFloor(real, gen, FEATURES, new Rng(engine, 21));
    assert.ok(r.score < r.floor, `score ${r.score}, floor ${r.floor}`);
    assert.equal(r.worst.length, 5);
    const w = r.worst[0];
    assert.deepEqual([w.a, w.b], ['x', 'y']);
    // 1 − |0.995 − 0| / 2 ≈ 0.50
    assert.ok(Math.abs(w.similarity - 0.5) < 0.05, `similarity ${w.similarity}`);
    assert.ok(
      w.realCorrelation! > 0.99 && Math.abs(w.generatedCorrelation!) < 0.1,
      `${w.realCorrelation} ${w.generatedCorrelation}`,
    );
    for (let k = 1; k < r.worst.length; k++)
      assert.ok(r.worst[k].similarity >= r.worst[k - 1].similarity, 'worst: lowest first');
  });

  it('maxPairs: a seeded subset of the pairs, the same for the same seed', () => {
    const real = draw(new Rng(engine, 1), 300);
    const gen = draw(new Rng(engine, 2), 200);
    const a = pairTrendsWithFloor(real, gen, FEATURES, new Rng(engine, 5), { maxPairs: 4, replicates: 5 });
    const b = pairTrendsWithFloor(real, gen, FEATURES, new Rng(engine, 5), { maxPairs: 4, replicates: 5 });
    assert.equal(a.pairs, 4);
    assert.equal(a.pairsTotal, 21);
    assert.deepStrictEqual(a, b);
  });

  it('bad arguments are E_ARG errors naming the table and feature', async () => {
    const real = draw(new Rng(engine, 1), 50);
    const gen: Table = { rows: 50, columns: real.columns.filter((c) => c.name !== 'g') };
    await rejectsEngineError(() => pairTrendsWithFloor(real, gen, FEATURES, new Rng(engine, 1)), 'E_ARG', [
      /generated table has no column "g"/,
    ]);
    await rejectsEngineError(() => pairTrendsWithFloor(real, real, FEATURES.slice(0, 1), new Rng(engine, 1)), 'E_ARG', [
      /at least 2 features/,
    ]);
  });
});

describe('privacyDcr', () => {
  const CONT: BeyondFeature[] = [
    { name: 'x', kind: 'numeric' },
    { name: 'y', kind: 'numeric' },
    { name: 'w', kind: 'numeric' },
  ];

  it('hand-computed distances: range-scaled numeric, 0/1 categorical, missing vs a value 1', () => {
    const train = table(num('x', [0, 10]), cat('c', ['a', 'b']));
    const f: BeyondFeature[] = [
      { name: 'x', kind: 'numeric' },
      { name: 'c', kind: 'categorical' },
    ];
    // (5, a): to (0, a) (0.5 + 0) / 2, to (10, b) (0.5 + 1) / 2 → 0.25
    const r = privacyDcr(train, table(num('x', [NaN]), cat('c', ['b'])), table(num('x', [5]), cat('c', ['a'])), f);
    close(r.generated.median, 0.25, 'generated');
    // (missing, b): to (10, b) (1 + 0) / 2 → 0.5
    close(r.heldOut.median, 0.5, 'held-out');
    close(r.ratioP5, 0.5, 'ratio');
    assert.equal(r.generated.exactShare, 0);
    // a value beyond the training range counts at most 1; an unseen label is a mismatch
    const far = privacyDcr(train, train, table(num('x', [100]), cat('c', ['z'])), f);
    close(far.generated.p5, 1, 'far');
    assert.equal(far.heldOut.exactShare, 1);
    assert.equal(far.heldOut.p5, 0);
  });

  it('copies of training rows: exact share 1, p5 0; fresh draws: the ratio near 1', () => {
    const train = draw(new Rng(engine, 1), 4000);
    const heldOut = draw(new Rng(engine, 2), 1500);
    const rng = new Rng(engine, 30);
    const copies = selectRows(
      train,
      Int32Array.from(rng.uniformHost(1000), (u) => Math.floor(u * 4000)),
    );
    const c = privacyDcr(train, heldOut, copies, FEATURES, new Rng(engine, 31));
    assert.equal(c.generated.exactShare, 1);
    assert.equal(c.generated.p5, 0);
    assert.equal(c.generated.median, 0);
    assert.ok(c.heldOut.p5 > 0 && c.heldOut.exactShare === 0, `held-out p5 ${c.heldOut.p5}`);
    assert.equal(c.ratioP5, 0);
    assert.deepEqual(c.rows, { train: 4000, heldOut: 1500, generated: 1000 });

    const fresh = draw(new Rng(engine, 3), 2500);
    const f = privacyDcr(train, heldOut, fresh, CONT, new Rng(engine, 31));
    assert.ok(f.ratioP5 >= 0.5 && f.ratioP5 <= 2, `fresh: ratio ${f.ratioP5}`);
    assert.ok(f.heldOut.p5 > 0 && f.heldOut.median >= f.heldOut.p5 && f.generated.exactShare === 0);
    assert.equal(f.rows.generated, 2000, 'generated rows cut to maxRows');
    // half copies, half fresh: the exact share and the ratio say so
    const half = privacyDcr(
      train,
      heldOut,
      concatRows([
        copies,
        selectRows(
          fresh,
          Int32Array.from({ length: 1000 }, (_, i) => i),
        ),
      ]),
      FEATURES,
    );
    assert.ok(Math.abs(half.generated.exactShare - 0.5) < 1e-12, `half: ${half.generated.exactShare}`);
    assert.equal(half.generated.p5, 0);
  });

  it("privacyHolds: copies beyond the margin and the two shares' noise, or a small p5 ratio, fail (§11.4)", () => {
    const s = (exactShare: number, p5 = 0.1) => ({ p5, median: 0.2, exactShare });
    // continuous data: no copies held out, 3% generated at 2,000 rows: beyond 1 point + 1.645 se (se 0.38 points)
    assert.equal(
      privacyHolds({ generated: s(0.03), heldOut: s(0), ratioP5: 1, rows: { generated: 2000, heldOut: 2000 } }),
      false,
    );
    assert.equal(
      privacyHolds({ generated: s(0.012), heldOut: s(0), ratioP5: 1, rows: { generated: 2000, heldOut: 2000 } }),
      true,
    );
    // discrete data (EXPERIMENTS.md §11.4's COMPAS audit): 94.9% against 93.5% at 2,000 rows each is within noise of
    // the margin
    const compas = {
      generated: s(0.949, 0),
      heldOut: s(0.935, 0),
      ratioP5: 1,
      rows: { generated: 2000, heldOut: 2000 },
    };
    assert.ok(Math.abs(copyShareSe(compas) - Math.sqrt((0.949 * 0.051 + 0.935 * 0.065) / 2000)) < 1e-15);
    assert.equal(privacyHolds(compas), true);
    // … but not 98% against 93.5%
    assert.equal(privacyHolds({ ...compas, generated: s(0.98, 0) }), false);
    // without counts the margin alone decides (no noise allowance)
    assert.equal(privacyHolds({ generated: s(0.949, 0), heldOut: s(0.935, 0), ratioP5: 1 }), false);
    // the p5 ratio
    assert.equal(
      privacyHolds({
        generated: s(0, 0.05),
        heldOut: s(0, 0.1),
        ratioP5: PRIVACY_RULE.p5Ratio - 0.01,
        rows: { generated: 2000, heldOut: 2000 },
      }),
      false,
    );
    assert.equal(privacyHolds(null), true);
  });

  it('maxTrain subsamples the training rows and says so; deterministic without an rng', () => {
    const train = draw(new Rng(engine, 1), 1000);
    const gen = draw(new Rng(engine, 2), 300);
    const a = privacyDcr(train, gen, gen, CONT, undefined, { maxTrain: 200, maxRows: 100 });
    assert.equal(a.rows.train, 200);
    assert.equal(a.trainTotal, 1000);
    assert.equal(a.trainSubsampled, true);
    assert.deepStrictEqual(a, privacyDcr(train, gen, gen, CONT, undefined, { maxTrain: 200, maxRows: 100 }));
    // generated = held-out: the same figures, ratio 1
    assert.deepStrictEqual(a.generated, a.heldOut);
    assert.equal(a.ratioP5, 1);
  });

  it('a feature missing from the held-out table is an E_ARG error naming it', async () => {
    const t = draw(new Rng(engine, 1), 20);
    const h: Table = { rows: 20, columns: t.columns.slice(1) };
    await rejectsEngineError(() => privacyDcr(t, h, t, CONT), 'E_ARG', [/held-out table has no column "x"/]);
  });
});
