// The data transformer: widths and spans, round trip, serialisation, and its errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DataTransformer, type NumericInfo } from '../../src/models/ctgan/transformer.js';
import type { Table } from '../../src/data/table.js';
import { Rng } from '../../src/engine/rng.js';
import { getEngine, hostRng } from '../helpers/engine.js';

// Two numeric columns (one bimodal, one skewed), one categorical, one constant.
function table(n: number, seed: number): Table {
  const rnd = hostRng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const hours = new Float64Array(n);
  const income = new Float64Array(n);
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    hours[i] = rnd() < 0.3 ? 20 + 2 * normal() : 40 + 3 * normal();
    income[i] = Math.exp(10 + 0.5 * normal());
    codes[i] = Math.floor(rnd() * 3);
  }
  return {
    rows: n,
    columns: [
      { kind: 'numeric', name: 'hours', values: hours },
      { kind: 'categorical', name: 'job', codes, categories: ['clerk', 'nurse', 'welder'] },
      { kind: 'numeric', name: 'income', values: income },
      { kind: 'categorical', name: 'country', codes: new Int32Array(n), categories: ['NL'] },
    ],
  };
}

describe('data transformer', async () => {
  const e = await getEngine();
  const t = table(3000, 1);
  const tr = DataTransformer.fit(e, t, { seed: 7 });

  it('keeps modes at both peaks of the bimodal column, with their weights, and lays out spans as CTGAN does', () => {
    const hours = tr.columns[0];
    assert.equal(hours.kind, 'numeric');
    if (hours.kind !== 'numeric') return;
    // A Dirichlet-process mixture may split one peak over several components (sklearn does too);
    // what matters is that kept modes sit on the peaks and carry the peaks' mass.
    let low = 0;
    let high = 0;
    for (const k of hours.modes) {
      const mu = hours.vgm.means[k];
      assert.ok(Math.abs(mu - 20) < 4 || Math.abs(mu - 40) < 6, `kept mode at ${mu} is on neither peak`);
      if (Math.abs(mu - 20) < 4) low += hours.vgm.weights[k];
      else high += hours.vgm.weights[k];
    }
    assert.ok(Math.abs(low - 0.3) < 0.03 && Math.abs(high - 0.7) < 0.03, `peak weights ${low}, ${high}`);
    assert.deepEqual(tr.constantColumns, ['country']);
    const spans = tr.spans;
    assert.deepEqual(spans.slice(0, 3), [
      { kind: 'tanh', width: 1 },
      { kind: 'softmax', width: hours.modes.length },
      { kind: 'softmax', width: 3 },
    ]);
    assert.equal(
      tr.outputDim,
      spans.reduce((a, s) => a + s.width, 0),
    );
  });

  it('round-trips: numerics within 1e-4 relative (unclipped values), categoricals exactly', () => {
    const { data, report } = tr.transform(e, t, new Rng(e, 3));
    const back = tr.inverse(data, t.rows);
    assert.equal(back.columns.length, 4);
    for (const j of [0, 2]) {
      const a = t.columns[j];
      const b = back.columns[j];
      assert.ok(a.kind === 'numeric' && b.kind === 'numeric');
      let bad = 0;
      for (let i = 0; i < t.rows; i++) if (Math.abs(b.values[i] - a.values[i]) > 1e-4 * Math.abs(a.values[i])) bad++;
      assert.equal(bad, report.clipped[a.name], `${a.name}: rows off by more than 1e-4 are exactly the clipped ones`);
      assert.ok(report.clipped[a.name] <= t.rows * 0.001, `${a.name}: ${report.clipped[a.name]} values clipped`);
    }
    const job = back.columns[1];
    assert.ok(job.kind === 'categorical' && t.columns[1].kind === 'categorical');
    assert.deepEqual([...job.codes], [...(t.columns[1] as { codes: Int32Array }).codes]);
    const country = back.columns[3];
    assert.ok(country.kind === 'categorical' && country.categories[0] === 'NL' && country.codes.every((c) => c === 0));
  });

  it('learns the decimals of regular columns: whole numbers come back whole, and round-trip exactly', () => {
    const rnd = hostRng(9);
    const n = 2000;
    const age = Float64Array.from({ length: n }, () => 18 + Math.floor(rnd() * 60));
    const price = Float64Array.from(
      { length: n },
      () => Math.round((rnd() < 0.5 ? 9.99 : 24.5) * 100 + rnd() * 300) / 100,
    );
    const t2: Table = {
      rows: n,
      columns: [
        { kind: 'numeric', name: 'age', values: age },
        { kind: 'numeric', name: 'price', values: price },
      ],
    };
    const tr2 = DataTransformer.fit(e, t2, { seed: 1 });
    assert.deepEqual(
      tr2.columns.map((c) => (c.kind === 'numeric' ? c.decimals : -1)),
      [0, 2],
    );
    const { data, report } = tr2.transform(e, t2, new Rng(e, 2));
    const back = tr2.inverse(data, n);
    for (const [j, name] of ['age', 'price'].entries()) {
      const a = t2.columns[j] as { values: Float64Array };
      const b = back.columns[j] as { values: Float64Array };
      let differ = 0;
      for (let i = 0; i < n; i++) if (a.values[i] !== b.values[i]) differ++;
      assert.ok(differ <= report.clipped[name], `${name}: ${differ} values differ, ${report.clipped[name]} clipped`);
    }
    const gen = new Float32Array(data.length);
    for (let i = 0; i < gen.length; i++) gen[i] = data[i] + (i % 7 === 0 ? 0.0123 : 0);
    const ages = (tr2.inverse(gen, n).columns[0] as { values: Float64Array }).values;
    assert.ok(
      ages.every((v) => Number.isInteger(v)),
      'generated ages are whole years',
    );
  });

  it('keeps generated numbers inside the observed range (or a given one) and counts what it clipped', () => {
    const rnd = hostRng(21);
    const n = 1500;
    // a skewed amount of money: mostly 0, some large, never negative; an age in [19, 75]
    const money = Float64Array.from({ length: n }, () => (rnd() < 0.85 ? 0 : Math.round(500 + 20000 * rnd() ** 3)));
    const age = Float64Array.from({ length: n }, () => 19 + Math.floor(rnd() * 57));
    const t3: Table = {
      rows: n,
      columns: [
        { kind: 'numeric', name: 'money', values: money },
        { kind: 'numeric', name: 'age', values: age },
      ],
    };
    const tr3 = DataTransformer.fit(e, t3, { seed: 3 });
    const ranges = tr3.columns.map((c) => (c.kind === 'numeric' ? c.range : null));
    assert.deepEqual(ranges, [
      [0, Math.max(...money)],
      [Math.min(...age), Math.max(...age)],
    ]);
    // rows far outside the training distribution: scalars at ±1 in every mode
    const d = tr3.outputDim;
    const gen = new Float32Array(n * d);
    const rg = hostRng(22);
    for (let i = 0; i < gen.length; i++) gen[i] = 2 * rg() - 1;
    const report = { clipped: {} as Record<string, number>, rowsClipped: 0 };
    const back = tr3.inverse(gen, n, { report });
    const m = (back.columns[0] as { values: Float64Array }).values;
    const a = (back.columns[1] as { values: Float64Array }).values;
    assert.ok(
      m.every((v) => v >= 0 && v <= Math.max(...money)),
      'no negative money',
    );
    assert.ok(
      a.every((v) => v >= Math.min(...age) && v <= Math.max(...age) && Number.isInteger(v)),
      'ages inside the data and whole',
    );
    const outside = (vals: Float64Array, lo: number, hi: number) => vals.filter((v) => v <= lo || v >= hi).length;
    assert.ok(report.clipped.money > 0 && report.clipped.age > 0, JSON.stringify(report));
    assert.ok(report.clipped.money <= outside(m, 0, Math.max(...money)), 'a clipped value sits at a range end');
    assert.ok(
      report.rowsClipped >= Math.max(report.clipped.money, report.clipped.age) &&
        report.rowsClipped <= report.clipped.money + report.clipped.age,
    );
    // a given range wins (an audit gives the range of all its rows)
    const wide = tr3.inverse(gen, n, { range: { age: [10, 90] } });
    assert.ok(
      (wide.columns[1] as { values: Float64Array }).values.some((v) => v < 19),
      'the wider range lets lower ages through',
    );
    // the range is saved and read back; a corrupt one is refused
    const json = JSON.parse(JSON.stringify(tr3.toJSON()));
    assert.deepEqual((DataTransformer.fromJSON(json).columns[1] as { range?: number[] }).range, ranges[1]);
    json.columns[1].range = [5, 1];
    assert.throws(
      () => DataTransformer.fromJSON(json, 'm.lgan'),
      /m\.lgan: the data transformer is corrupt \(column "age" has an invalid range\)/,
    );
    // a file written before ranges existed still loads, and clips nothing
    delete json.columns[1].range;
    const old = DataTransformer.fromJSON(json);
    const r2 = { clipped: {} as Record<string, number>, rowsClipped: 0 };
    old.inverse(gen, n, { report: r2 });
    assert.equal(r2.clipped.age, 0);
  });

  it('point masses (pointShare 0.05): a value held by ≥ 5% of the rows is its own mode, given back exactly', () => {
    const rnd = hostRng(31);
    const n = 2000;
    // 90% zeros and a long tail (money), and hours heaped on 40
    const money = Float64Array.from({ length: n }, () => (rnd() < 0.9 ? 0 : Math.round(1000 + 9000 * rnd())));
    const hours = Float64Array.from({ length: n }, () => (rnd() < 0.45 ? 40 : 10 + Math.floor(60 * rnd())));
    const t4: Table = {
      rows: n,
      columns: [
        { kind: 'numeric', name: 'money', values: money },
        { kind: 'numeric', name: 'hours', values: hours },
      ],
    };
    const tr4 = DataTransformer.fit(e, t4, { seed: 4, pointShare: 0.05 });
    const [m, h] = tr4.columns as NumericInfo[];
    assert.deepEqual(m.points, [0]);
    assert.deepEqual(h.points, [40]);
    assert.equal(tr4.spans[1].width, 1 + m.modes.length, 'the softmax span holds the point, then the modes');
    const { data } = tr4.transform(e, t4, new Rng(e, 5));
    const d = tr4.outputDim;
    for (let i = 0; i < n; i++) {
      if (money[i] !== 0) continue;
      assert.equal(data[i * d], 0, 'scalar 0 on a point');
      assert.equal(data[i * d + 1], 1, 'one-hot on the point slot');
    }
    const back = tr4.inverse(data, n);
    assert.deepEqual(
      Array.from((back.columns[0] as { values: Float64Array }).values).filter((v) => v === 0).length,
      Array.from(money).filter((v) => v === 0).length,
      'every zero comes back exactly',
    );
    // generated rows whose slot is the point give the point, whatever their scalar
    const gen = data.slice();
    for (let i = 0; i < n; i++) gen[i * d] = 0.7;
    const g = (tr4.inverse(gen, n).columns[1] as { values: Float64Array }).values;
    for (let i = 0; i < n; i++) if (hours[i] === 40) assert.equal(g[i], 40);
    // saved and read back; without points (an old file, or pointShare 0) nothing changes
    const again = DataTransformer.fromJSON(JSON.parse(JSON.stringify(tr4.toJSON())));
    assert.deepEqual((again.columns[0] as NumericInfo).points, [0]);
    const off = DataTransformer.fit(e, t4, { seed: 4 });
    assert.equal((off.columns[0] as NumericInfo).points, undefined, 'none by default (EXPERIMENTS.md §7.3)');
    assert.throws(() => DataTransformer.fit(e, t4, { pointShare: 1 }), /pointShare must be in \[0, 1\)/);
    const json = JSON.parse(JSON.stringify(tr4.toJSON()));
    json.columns[0].points = ['x'];
    assert.throws(
      () => DataTransformer.fromJSON(json, 'p.lgan'),
      /p\.lgan: the data transformer is corrupt \(column "money" has invalid point masses\)/,
    );
    // a column of few values, each frequent: all points, no mixture modes
    const few = Float64Array.from({ length: n }, (_, i) => [1, 2, 3][i % 3]);
    const tr5 = DataTransformer.fit(
      e,
      { rows: n, columns: [{ kind: 'numeric', name: 'k', values: few }] },
      { seed: 1, pointShare: 0.05 },
    );
    assert.deepEqual([(tr5.columns[0] as NumericInfo).points, (tr5.columns[0] as NumericInfo).modes], [[1, 2, 3], []]);
    const r5 = tr5.inverse(
      tr5.transform(e, { rows: n, columns: [{ kind: 'numeric', name: 'k', values: few }] }, new Rng(e, 1)).data,
      n,
    );
    assert.deepEqual(Array.from((r5.columns[0] as { values: Float64Array }).values), Array.from(few));
  });

  it('every transformed row has one hot mode per numeric column and scalars within ±0.99', () => {
    const { data } = tr.transform(e, t, new Rng(e, 4));
    const d = tr.outputDim;
    for (let i = 0; i < t.rows; i++) {
      let at = i * d;
      for (const s of tr.spans) {
        const span = data.subarray(at, at + s.width);
        if (s.kind === 'tanh') assert.ok(Math.abs(span[0]) <= 0.99);
        else
          assert.ok(
            span.every((v) => v === 0 || v === 1) && span.reduce((a, v) => a + v, 0) === 1,
            `row ${i}: not one-hot`,
          );
        at += s.width;
      }
    }
  });

  it('the same seed gives the same matrix; a serialised transformer transforms identically', () => {
    const a = tr.transform(e, t, new Rng(e, 5)).data;
    const back = DataTransformer.fromJSON(JSON.parse(JSON.stringify(tr.toJSON())));
    const b = back.transform(e, t, new Rng(e, 5)).data;
    assert.deepEqual(b, a);
  });

  it('rejects unseen categories, missing columns and corrupt model files with clear messages', () => {
    const other: Table = {
      ...t,
      columns: t.columns.map((c) =>
        c.name === 'job'
          ? { kind: 'categorical', name: 'job', codes: new Int32Array(t.rows).fill(0), categories: ['pilot'] }
          : c,
      ),
    };
    assert.throws(
      () => tr.transform(e, other, new Rng(e, 1)),
      /column "job", row 1: category "pilot" was not seen when the transformer was fitted/,
    );
    assert.throws(
      () => tr.transform(e, { rows: t.rows, columns: t.columns.slice(1) }, new Rng(e, 1)),
      /no column "hours" \(it has: job, income, country\)/,
    );
    assert.throws(
      () => DataTransformer.fromJSON({ format: 'something else' }),
      /the data transformer is corrupt \(not a lucid-wasm data transformer\)/,
    );
    const json = JSON.parse(JSON.stringify(tr.toJSON()));
    json.columns[0].modes = [99];
    assert.throws(
      () => DataTransformer.fromJSON(json, 'model.lgan'),
      /model\.lgan: the data transformer is corrupt \(column "hours" has invalid modes\)/,
    );
  });
});
