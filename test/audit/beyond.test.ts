// The audit's fidelity beyond single columns (src/audit/stages/beyond.ts): per side, pair trends and
// detection within their noise for rows drawn like the real ones, copies of training rows caught by the
// privacy check against held-out rows (or halves when every row trained the GANs), and the caveats.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { selectRows, type Table } from '../../src/data/table.js';
import { beyondCaveats, beyondMarginals } from '../../src/audit/stages/beyond.js';
import type { AuditResult } from '../../src/audit/types.js';
import { getEngine, hostRng } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

let engine: Engine;
before(async () => {
  engine = await getEngine();
});

/** n rows: x, y = x + noise, a group column tied to x, and the decision x > 0. */
function rowsLike(n: number, seed: number): { t: Table; yhat: Uint8Array } {
  const rnd = hostRng(seed);
  const x: number[] = [];
  const y: number[] = [];
  const g: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = Math.round((rnd() * 2 - 1) * 1000) / 100;
    x.push(u);
    y.push(Math.round((u + (rnd() - 0.5)) * 100) / 100);
    g.push(rnd() < 0.3 + (u > 0 ? 0.3 : 0) ? 'a' : 'b');
  }
  return {
    t: table(num('x', x), num('y', y), cat('g', g, ['a', 'b'])),
    yhat: Uint8Array.from(x, (v) => (v > 0 ? 1 : 0)),
  };
}

const features = [
  { name: 'x', kind: 'numeric' as const },
  { name: 'y', kind: 'numeric' as const },
  { name: 'g', kind: 'categorical' as const },
];
const side = (t: Table, yhat: Uint8Array, s: number) =>
  selectRows(
    t,
    Array.from(yhat.keys()).filter((i) => yhat[i] === s),
  );

describe('beyondMarginals', () => {
  it(
    'fresh rows drawn like the real ones: within noise, no sign of copying; against held-out rows when there are ' +
      'some',
    () => {
      const { t, yhat } = rowsLike(1200, 1);
      const fresh = rowsLike(1200, 2);
      const gen = { positive: side(fresh.t, fresh.yhat, 1), negative: side(fresh.t, fresh.yhat, 0) };
      const ganRows = Int32Array.from({ length: 900 }, (_, i) => i); // the last 300 rows held out
      const b = beyondMarginals(t, features, yhat, gen, ganRows, new Rng(engine, 5));
      for (const s of [b.positive!, b.negative!]) {
        assert.ok(s.pairTrends.score >= s.pairTrends.floor - 0.01, JSON.stringify(s.pairTrends));
        assert.ok(s.detection.score > 0.6, JSON.stringify(s.detection));
        assert.equal(s.privacy!.against, 'held out of training');
        assert.ok(s.privacy!.rows.heldOut > 100 && s.privacy!.rows.heldOut < 200, JSON.stringify(s.privacy!.rows));
      }
      const caveats: AuditResult['caveats'] = [];
      beyondCaveats(caveats, b);
      assert.deepEqual(
        caveats.filter((c) => c.topic === 'privacy'),
        [],
      );
      // the same stream gives the same figures
      assert.deepEqual(beyondMarginals(t, features, yhat, gen, ganRows, new Rng(engine, 5)), b);
    },
  );

  it('copies of the training rows are caught; halves when every row trained the GANs', () => {
    const { t, yhat } = rowsLike(1200, 3);
    const all = Int32Array.from({ length: t.rows }, (_, i) => i);
    const copies = { positive: side(t, yhat, 1), negative: side(t, yhat, 0) };
    const b = beyondMarginals(t, features, yhat, copies, all, new Rng(engine, 6));
    assert.equal(b.positive!.privacy!.against, 'halves');
    assert.ok(b.positive!.privacy!.generated.exactShare > 0.3, JSON.stringify(b.positive!.privacy));
    const caveats: AuditResult['caveats'] = [];
    beyondCaveats(caveats, b);
    const priv = caveats.filter((c) => c.topic === 'privacy');
    assert.equal(priv.length, 2, JSON.stringify(caveats));
    assert.match(
      priv[0].text,
      /^the positive canonical set's rows are closer to the real rows the GANs trained on than real rows of the other half are: [\d.]+% exact copies/,
    );
  });

  it(
    'rows whose columns no longer vary together: pair ' + 'trends and detection below their floors, said in caveats',
    () => {
      const { t, yhat } = rowsLike(1500, 7);
      const rnd = hostRng(8);
      // x and g as in the data, y shuffled (its marginal kept, its tie to x gone) and shifted
      const broken = (s: Table): Table => {
        const y = (s.columns[1] as { values: Float64Array }).values;
        const perm = Array.from(y.keys()).sort(() => rnd() - 0.5);
        return {
          rows: s.rows,
          columns: [
            s.columns[0],
            num(
              'y',
              perm.map((k) => y[k] + 3),
            ),
            s.columns[2],
          ],
        };
      };
      const gen = { positive: broken(side(t, yhat, 1)), negative: broken(side(t, yhat, 0)) };
      const b = beyondMarginals(
        t,
        features,
        yhat,
        gen,
        Int32Array.from({ length: 1000 }, (_, i) => i),
        new Rng(engine, 9),
      );
      assert.ok(b.positive!.pairTrends.score < b.positive!.pairTrends.floor, JSON.stringify(b.positive!.pairTrends));
      assert.ok(b.positive!.detection.score < b.positive!.detection.floor, JSON.stringify(b.positive!.detection));
      const caveats: AuditResult['caveats'] = [];
      beyondCaveats(caveats, b);
      assert.ok(
        caveats.some((c) =>
          /^the positive canonical set's pair trends score [\d.]+, below their noise floor [\d.]+ .*worst: x × y/.test(
            c.text,
          ),
        ),
        JSON.stringify(caveats),
      );
      assert.ok(caveats.some((c) => /^a classifier tells the negative canonical set from the real rows/.test(c.text)));
    },
  );

  it('a side with too few real rows is left out', () => {
    const { t } = rowsLike(300, 4);
    const yhat = new Uint8Array(t.rows).fill(1);
    yhat[0] = 0;
    const b = beyondMarginals(
      t,
      features,
      yhat,
      { positive: t, negative: t },
      Int32Array.from({ length: t.rows }, (_, i) => i),
      new Rng(engine, 1),
    );
    assert.equal(b.negative, null);
    assert.ok(b.positive !== null);
  });
});
