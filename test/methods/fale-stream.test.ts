// FALE over chunks (faleStream) against fale() on the whole table: the same edges, counts, deltas and
// values bit for bit, for continuous and categorical features, at chunk sizes that do not divide the
// rows; the categorical order from an evenly spaced sample when there are more rows than it holds.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { selectRows, type Table } from '../../src/data/table.js';
import { moduleBlackBox, type BlackBox, type Row } from '../../src/models/blackbox.js';
import { fale, faleStream, type ChunkSource } from '../../src/methods/fale/index.js';
import { getEngine } from '../helpers/engine.js';

/** `t` read as chunks of `size` rows (the chunks share the table's categories: global codes, as the readers give). */
function chunksOf(t: Table, size: number): ChunkSource & { reads: number } {
  const src = {
    reads: 0,
    async read(onChunk: (c: Table) => void | Promise<void>) {
      src.reads++;
      for (let s = 0; s < t.rows; s += size) {
        const idx = Int32Array.from({ length: Math.min(size, t.rows - s) }, (_, i) => s + i);
        await onChunk(selectRows(t, idx));
      }
    },
  };
  return src;
}

describe('faleStream: FALE over chunks', () => {
  let t: Table;
  let model: BlackBox;
  before(async () => {
    const engine = await getEngine();
    t = simulate(new Rng(engine, 3), { n: 2500, bias: 'direct' }).table;
    const features = ['age', 'income', 'debt_ratio', 'education', 'group', 'neighbourhood'];
    const edu: Record<string, number> = { 'High school': 0, Vocational: 1, Bachelor: 2, Master: 3, Doctorate: 4 };
    // a row-wise model: each prediction depends on its row only, whatever the batch
    model = moduleBlackBox(
      {
        features,
        predict: (rows: Row[]) =>
          rows.map(
            (r) =>
              1 /
              (1 +
                Math.exp(
                  -(
                    Math.log(Number(r.income) / 40) -
                    3 * (Number(r.debt_ratio) - 0.25) +
                    0.3 * (edu[String(r.education)] ?? 0) -
                    (r.group === 'B' ? 1 : 0) +
                    0.01 * (Number(r.age) - 40)
                  ),
                )),
          ),
      },
      'test model',
    );
  });

  for (const size of [2500, 613, 100]) {
    it(`equals fale() on the whole table, chunks of ${size} rows`, async () => {
      const opts = {
        label: 'approved',
        positive: 'yes',
        protected: [{ column: 'group', value: 'B' }],
        features: ['income', 'age', 'education', 'neighbourhood'],
        metric: 'eod' as const,
      };
      const whole = await fale(t, model, opts);
      const src = chunksOf(t, size);
      const streamed = await faleStream(src, model, opts);
      const { stream, ...rest } = streamed;
      assert.deepEqual(rest, whole);
      assert.equal(stream.chunks, Math.ceil(2500 / size));
      // a pass for the rows, one per continuous feature's edges, one scoring the rows as they are, one with the moved
      // rows
      assert.equal(stream.passes, 5);
      assert.equal(src.reads, 5);
      assert.deepEqual(stream.orderSample, { rows: 2500, of: 2500 });
    });
  }

  it('explicit edges: rows outside are counted as excluded, as fale() does', async () => {
    const opts = {
      label: 'approved',
      protected: [{ column: 'sex', value: 'Female' }],
      features: ['income'],
      edges: { income: [20, 40, 80, 160] },
    };
    const whole = await fale(t, model, opts);
    const { stream, ...rest } = await faleStream(chunksOf(t, 777), model, opts);
    assert.deepEqual(rest, whole);
    assert.equal(stream.passes, 3);
  });

  it(
    'more rows than the order sample: the categorical ' + 'order comes from an evenly spaced sample, and says so',
    async () => {
      const opts = {
        label: 'approved',
        positive: 'yes',
        protected: [{ column: 'group', value: 'B' }],
        features: ['education'],
        orderRows: 500,
      };
      const r = await faleStream(chunksOf(t, 400), model, opts);
      assert.deepEqual(r.stream.orderSample, { rows: 500, of: 2500 });
      const f = r.features[0];
      assert.equal(f.kind, 'categorical');
      // every row is counted, whatever the sample
      assert.equal(
        f.counts.n.reduce((a, b) => a + b, 0),
        2500,
      );
    },
  );

  it('refuses a bootstrap, and a --protected value no chunk holds', async () => {
    await assert.rejects(
      faleStream(chunksOf(t, 500), model, {
        label: 'approved',
        protected: [{ column: 'group', value: 'B' }],
        bootstrap: 10,
      } as never),
      /bootstrap bands need the rows in memory/,
    );
    await assert.rejects(
      faleStream(chunksOf(t, 500), model, {
        label: 'approved',
        protected: [{ column: 'group', value: 'Z' }],
        features: ['income'],
      }),
      /--protected group=Z: no row has that value/,
    );
  });

  it(
    'a file sorted by label and a category first seen late: still equal to fale() (the positive label and the ' +
      "categories are the whole file's)",
    async () => {
      // rows sorted so the first chunks hold no positive label, and "Doctorate" rows come last
      const order = Array.from({ length: t.rows }, (_, i) => i);
      const lab = t.columns.find((c) => c.name === 'approved')!;
      const edu = t.columns.find((c) => c.name === 'education')!;
      const key = (i: number) =>
        (lab.kind === 'categorical' ? lab.categories[lab.codes[i]] : '') +
        (edu.kind === 'categorical' && edu.categories[edu.codes[i]] === 'Doctorate' ? 'z' : 'a');
      order.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
      const sorted = selectRows(t, Int32Array.from(order));
      const opts = {
        label: 'approved',
        positive: 'yes',
        protected: [{ column: 'group', value: 'B' }],
        features: ['education', 'income'],
      };
      const whole = await fale(sorted, model, opts);
      const { stream, ...rest } = await faleStream(chunksOf(sorted, 300), model, opts);
      assert.deepEqual(rest, whole);
      assert.equal(stream.chunks, Math.ceil(2500 / 300));
    },
  );
});
