// How an audit draws its canonical sets (src/audit/canonical.ts): rejection by a scorer, the draw cap
// (never padded), exact dependencies and arithmetic relations derived (rejected where they cannot be), numbers clipped
// into the observed range, the condition modes, seeds; and the exact dependencies themselves
// (src/data/dependencies.ts).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import type { Table } from '../../src/data/table.js';
import { LucidGan } from '../../src/models/lucidgan/model.js';
import {
  CANONICAL_DEFAULTS,
  drawCanonical,
  drawSeed,
  ganSeedsFor,
  observedRanges,
  type DrawOptions,
  type Scorer,
} from '../../src/audit/canonical.js';
import { contradictions, findDependencies } from '../../src/data/dependencies.js';
import { relationBreaks } from '../../src/data/relations.js';
import { getEngine, hostRng } from '../helpers/engine.js';
import { cat, num } from '../helpers/tables.js';

let engine: Engine;
let gan: LucidGan;
let data: Table;
let yhat: Uint8Array;
const EDU = ['school', 'college', 'degree'];

before(async () => {
  engine = await getEngine();
  const rnd = hostRng(5);
  const n = 600;
  const age: number[] = [];
  const edu: string[] = [];
  const years: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = 20 + Math.floor(45 * rnd());
    const e = Math.floor(3 * rnd());
    age.push(a);
    edu.push(EDU[e]);
    years.push(10 + 3 * e); // education-years is a function of education
    p.push(Math.min(0.99, Math.max(0.01, (a - 20) / 45 + 0.2 * (rnd() - 0.5))));
  }
  data = { rows: n, columns: [num('age', age), cat('education', edu), num('years', years)] };
  yhat = Uint8Array.from(p, (v) => (v > 0.5 ? 1 : 0));
  gan = (
    await LucidGan.fit(
      engine,
      { rows: n, columns: [...data.columns, num('preds', p)] },
      { conditions: ['preds'], epochs: 3, batch: 100, seed: 1, paper: true },
    )
  ).model;
});

const scorer = (f: (t: Table, i: number) => number): Scorer => ({
  kind: 'model',
  source: 'test',
  decision: { kind: 'probability', threshold: 0.5 },
  score: async (t) => Float64Array.from({ length: t.rows }, (_, i) => f(t, i)),
});
const ageOf = (t: Table, i: number) => (t.columns.find((c) => c.name === 'age') as { values: Float64Array }).values[i];
const rowsOf = (side: number) => Int32Array.from(yhat.keys()).filter((i) => yhat[i] === side);

function opts(o: Partial<DrawOptions>): DrawOptions {
  return {
    side: 1,
    condition: 'extreme',
    sideRows: rowsOf(1),
    predName: 'preds',
    fix: [],
    rows: 200,
    seedOf: (r) => drawSeed(1, 0, r),
    scorer: null,
    decision: { kind: 'probability', threshold: 0.5 },
    range: observedRanges(data),
    dependencies: [],
    ...o,
  };
}

describe('drawCanonical', () => {
  it('keeps only the rows the scorer puts on the side, and reports the acceptance rate', async () => {
    const d = await drawCanonical(gan, opts({ scorer: scorer((t, i) => (ageOf(t, i) > 40 ? 0.9 : 0.1)) }));
    assert.equal(d.table.rows, 200);
    assert.equal(d.stats.kept, 200);
    for (let i = 0; i < d.table.rows; i++) assert.ok(ageOf(d.table, i) > 40);
    assert.ok(d.scores!.every((s) => s > 0.5));
    assert.ok(d.stats.drawn > 200 && d.stats.acceptance! > 0 && d.stats.acceptance! < 1, JSON.stringify(d.stats));
    assert.equal(d.stats.capped, false);
    // the same seeds give the same rows
    const again = await drawCanonical(gan, opts({ scorer: scorer((t, i) => (ageOf(t, i) > 40 ? 0.9 : 0.1)) }));
    assert.deepEqual(
      Array.from((again.table.columns[0] as { values: Float64Array }).values),
      Array.from((d.table.columns[0] as { values: Float64Array }).values),
    );
  });

  it('stops at the draw cap and returns fewer rows, never padded with rows off side', async () => {
    const none = await drawCanonical(gan, opts({ scorer: scorer(() => 0.1), rows: 50 }));
    assert.equal(none.table.rows, 0);
    assert.equal(none.stats.capped, true);
    assert.equal(none.stats.drawn, 50 * CANONICAL_DEFAULTS.drawCap);
    assert.equal(none.stats.acceptance, 0);
    assert.deepEqual(
      none.table.columns.map((c) => c.name),
      ['age', 'education', 'years', 'preds'],
      'an empty set keeps its columns',
    );
    // rare acceptance: some rows, fewer than wanted, all on side
    const rare = await drawCanonical(
      gan,
      opts({ scorer: scorer((t, i) => (ageOf(t, i) >= 63 ? 0.9 : 0.1)), rows: 400, cap: 1000 }),
    );
    assert.ok(rare.stats.capped && rare.table.rows < 400 && rare.stats.drawn === 1000, JSON.stringify(rare.stats));
    for (let i = 0; i < rare.table.rows; i++) assert.ok(ageOf(rare.table, i) >= 63);
  });

  it(
    "writes a dependency's column from its determinant rather than rejecting rows, and keeps numbers inside the " +
      'observed range',
    async () => {
      const deps = findDependencies(data);
      assert.ok(
        deps.some((x) => x.from === 'education' && x.to === 'years'),
        JSON.stringify(deps.map((x) => [x.from, x.to])),
      );
      const raw = await drawCanonical(gan, opts({ rows: 300 }));
      assert.ok(
        contradictions(deps, raw.table).rows.some((x) => x === 1),
        'a 3-epoch generator writes contradicting pairs',
      );
      const d = await drawCanonical(gan, opts({ dependencies: deps, rows: 300 }));
      assert.equal(d.stats.contradicting, 0, 'derived: nothing to reject');
      assert.equal(d.stats.drawn, raw.stats.drawn, `no row was rejected: ${JSON.stringify(d.stats)}`);
      assert.equal(
        contradictions(deps, d.table).rows.reduce((a, b) => a + b, 0),
        0,
      );
      // the same draw: the generated columns other than the derived one are the raw ones
      assert.deepEqual(
        Array.from((d.table.columns[0] as { values: Float64Array }).values),
        Array.from((raw.table.columns[0] as { values: Float64Array }).values),
      );
      const [lo, hi] = observedRanges(data).age;
      assert.ok((d.table.columns[0] as { values: Float64Array }).values.every((v) => v >= lo && v <= hi));
      assert.ok(d.stats.clippedRows >= 0);
    },
  );

  it('rejects rows contradicting a dependency it cannot derive (into a fixed column)', async () => {
    const back = findDependencies(data).filter((x) => x.from === 'years' && x.to === 'education');
    assert.equal(back.length, 1);
    const d = await drawCanonical(gan, opts({ dependencies: back, rows: 200, fix: [['education', 'degree']] }));
    assert.ok(d.stats.contradicting > 0, JSON.stringify(d.stats));
    assert.equal(
      contradictions(back, d.table).rows.reduce((a, b) => a + b, 0),
      0,
      'none is kept',
    );
  });

  it(
    'keeps an arithmetic relation by writing its target, ' + 'and rejects rows whose derived number leaves the range',
    async () => {
      // total = age + years on every real row: a 3-epoch generator knows nothing of it
      const rel = {
        target: 'total',
        terms: [
          { column: 'age', coef: 1 },
          { column: 'years', coef: 1 },
        ],
        intercept: 0,
        decimals: 0,
        rows: 600,
        holds: 600,
      };
      const age = (data.columns[0] as { values: Float64Array }).values;
      const years = (data.columns[2] as { values: Float64Array }).values;
      const total = Array.from(age, (a, i) => a + years[i]);
      const withTotal: Table = {
        rows: data.rows,
        columns: [...data.columns, { kind: 'numeric', name: 'total', values: Float64Array.from(total) }],
      };
      const g2 = (
        await LucidGan.fit(
          engine,
          {
            rows: data.rows,
            columns: [
              ...withTotal.columns,
              { kind: 'numeric', name: 'preds', values: Float64Array.from(yhat, (y) => (y ? 0.9 : 0.1)) },
            ],
          },
          { conditions: ['preds'], epochs: 3, batch: 100, seed: 2, paper: true },
        )
      ).model;
      const range = observedRanges(withTotal);
      const o = { ...opts({ rows: 300 }), range };
      const raw = await drawCanonical(g2, o);
      assert.ok(
        relationBreaks(rel, raw.table).breaks > 0.5 * raw.table.rows,
        `the generator alone breaks it: ${JSON.stringify(relationBreaks(rel, raw.table))}`,
      );
      const d = await drawCanonical(g2, { ...o, relations: [rel] });
      assert.equal(relationBreaks(rel, d.table).breaks, 0);
      assert.equal(d.stats.kept, 300);
      // a range narrower than the derived totals: those rows are rejected, never clipped (which would break the
      // relation)
      const narrow: [number, number] = [range.total[0], (range.total[0] + range.total[1]) / 2];
      const n = await drawCanonical(g2, { ...o, range: { ...range, total: narrow }, relations: [rel] });
      assert.ok(n.stats.derivedOutOfRange! > 0, JSON.stringify(n.stats));
      const tc = (n.table.columns.find((c) => c.name === 'total') as { values: Float64Array }).values;
      assert.ok(n.table.rows > 0 && tc.every((v) => v >= narrow[0] && v <= narrow[1]));
      assert.equal(relationBreaks(rel, n.table).breaks, 0);
    },
  );

  it('observed and matched conditioning draw the prediction condition from the real rows of the side', async () => {
    const side = rowsOf(1);
    const p = new Set(Array.from(side, (i) => gan.conditionValues[i] as number));
    for (const condition of ['observed', 'matched'] as const) {
      const d = await drawCanonical(gan, opts({ condition, rows: 100 }));
      const preds = (d.table.columns.find((c) => c.name === 'preds') as { values: Float64Array }).values;
      assert.ok(
        preds.every((v) => p.has(v)),
        `${condition}: every condition is a positive row's score`,
      );
      assert.ok(preds.every((v) => v > 0.5));
    }
    const e = await drawCanonical(gan, opts({ rows: 50 }));
    assert.ok(
      (e.table.columns.find((c) => c.name === 'preds') as { values: Float64Array }).values.every((v) => v === 1),
      'extreme: exactly 1',
    );
    // with a fixed category, the rows conditioned on hold it when any positive row does
    const f = await drawCanonical(gan, opts({ condition: 'matched', rows: 100, fix: [['education', 'degree']] }));
    const edu = data.columns[1] as { codes: Int32Array; categories: string[] };
    const holding = new Set(
      Array.from(side)
        .filter((i) => edu.categories[edu.codes[i]] === 'degree')
        .map((i) => gan.conditionValues[i]),
    );
    assert.ok(
      (f.table.columns.find((c) => c.name === 'preds') as { values: Float64Array }).values.every((v) => holding.has(v)),
    );
    assert.ok(f.fixTraining && f.fixSatisfied! >= 0);
  });

  it("GAN seeds and draw seeds: the audit's seed first, streams that do not collide", () => {
    assert.deepEqual(ganSeedsFor(7, 3), [7, 7 + CANONICAL_DEFAULTS.seedStride, 7 + 2 * CANONICAL_DEFAULTS.seedStride]);
    assert.throws(() => ganSeedsFor(0, 0), /ganSeeds must be a positive integer/);
    const seen = new Set<number>();
    for (const g of ganSeedsFor(0, 3))
      for (let p = 0; p < 40; p++) for (let r = 0; r < 5; r++) seen.add(drawSeed(g, p, r));
    assert.equal(seen.size, 3 * 40 * 5);
    assert.ok([...seen].every((x) => Number.isSafeInteger(x) && x >= 0));
    assert.ok(Number.isSafeInteger(drawSeed(2 ** 40 + 3, 1, 1)));
  });
});

describe('findDependencies', () => {
  it(
    'finds A → B only where every A value with two or more ' + 'rows holds one B, and not by chance among rare values',
    () => {
      const rnd = hostRng(9);
      const n = 500;
      const a = Array.from({ length: n }, () => ['x', 'y', 'z'][Math.floor(3 * rnd())]);
      const b = a.map((v) => (v === 'x' ? 'one' : 'two')); // a → b, not b → a
      const c = Array.from({ length: n }, () => (rnd() < 0.5 ? 'p' : 'q')); // independent
      const id = Array.from({ length: n }, (_, i) => `id${i}`); // an identifier determines everything
      const t: Table = { rows: n, columns: [cat('a', a), cat('b', b), cat('c', c), cat('id', id)] };
      const deps = findDependencies(t).map((d) => `${d.from}→${d.to}`);
      assert.deepEqual(deps, ['a→b']);
      // one contradicting row breaks it
      const b2 = b.slice();
      b2[7] = b2[7] === 'one' ? 'two' : 'one';
      assert.deepEqual(findDependencies({ rows: n, columns: [cat('a', a), cat('b', b2)] }), []);
      // generated rows: the contradicting ones are marked
      const g: Table = { rows: 3, columns: [cat('a', ['x', 'y', 'w']), cat('b', ['two', 'two', 'one'])] };
      const r = contradictions(findDependencies(t), g);
      assert.deepEqual(Array.from(r.rows), [1, 0, 0], 'an A value never seen is not checked');
      assert.deepEqual(r.perDependency, [1]);
    },
  );
});
