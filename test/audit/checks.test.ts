// The checks of canonical sets against the real rows (src/audit/checks.ts): the direction statuses,
// the real shifts' bootstrap intervals, the median shift, fidelity and its noise floor.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import type { Table } from '../../src/data/table.js';
import {
  binnedVariable,
  categoricalVariable,
  cellVariable,
  fidelity,
  numericVariable,
  realSeparation,
  shiftChecks,
  tvLabels,
} from '../../src/audit/checks.js';
import { getEngine, hostRng } from '../helpers/engine.js';
import { cat, num } from '../helpers/tables.js';

/** n real rows: sex is Male with probability pMale among predicted-positive rows and pMaleNeg among negative ones. */
function realRows(
  n: number,
  nPos: number,
  pMalePos: number,
  pMaleNeg: number,
  seed: number,
): { table: Table; yhat: Uint8Array } {
  const rnd = hostRng(seed);
  const sex: string[] = [];
  const age: number[] = [];
  const yhat = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const pos = i < nPos;
    yhat[i] = pos ? 1 : 0;
    sex.push(rnd() < (pos ? pMalePos : pMaleNeg) ? 'Male' : 'Female');
    age.push(Math.round(20 + 40 * rnd() + (pos ? 10 : 0)));
  }
  return { table: { rows: n, columns: [cat('sex', sex), num('age', age)] }, yhat };
}

/** A generated set of n rows with the given share of Male and ages around `ageMid`. */
function set(n: number, pMale: number, ageMid: number, seed: number): Table {
  const rnd = hostRng(seed);
  const sex: string[] = [];
  const age: number[] = [];
  for (let i = 0; i < n; i++) {
    sex.push(rnd() < pMale ? 'Male' : 'Female');
    age.push(Math.round(ageMid - 20 + 40 * rnd()));
  }
  return { rows: n, columns: [cat('sex', sex), num('age', age)] };
}

describe('shiftChecks', () => {
  it(
    "agrees when every seed has the data's sign and the size is consistent, overstates or understates when it is " +
      'not, disagrees when every seed shifts the other way, unsettled when the seeds differ; the pooled shift is ' +
      'the pooled shares',
    async () => {
      const engine = await getEngine();
      const { table, yhat } = realRows(4000, 1500, 0.8, 0.5, 1);
      const v = categoricalVariable(table, 'sex', 'protected');
      const good = [0, 1, 2].map((s) => ({
        positive: set(1000, 0.8, 50, 10 + s),
        negative: set(1000, 0.5, 40, 20 + s),
      }));
      const checks = shiftChecks([v], yhat, good, new Rng(engine, 0), { resamples: 300 });
      const male = checks.find((c) => c.value === 'Male')!;
      const female = checks.find((c) => c.value === 'Female')!;
      assert.equal(male.status, 'agrees');
      assert.equal(female.status, 'agrees');
      assert.equal(male.seedsWithDataSign, 3);
      assert.ok(male.real.shift! > 0.25 && male.real.shift! < 0.35, `real shift ${male.real.shift}`);
      assert.ok(male.real.lo! < male.real.shift! && male.real.shift! < male.real.hi!);
      assert.ok(Math.abs(male.pooled - (male.positive - male.negative)) < 1e-12);
      assert.ok(Math.abs(male.pooled + female.pooled) < 1e-12, 'two values: the shifts are opposite');
      assert.equal(male.canonical.length, 3);

      // the sign in every seed, the size not: twice the real shift (overstates), a sixth of it (understates)
      const big = [0, 1, 2].map((s) => ({
        positive: set(1000, 0.95, 50, 80 + s),
        negative: set(1000, 0.35, 40, 90 + s),
      }));
      const over = shiftChecks([v], yhat, big, new Rng(engine, 0), { resamples: 300 }).find((c) => c.value === 'Male')!;
      assert.equal(
        over.status,
        'overstates',
        `${over.pooled} against ${over.real.shift} [${over.real.lo}, ${over.real.hi}], se ${over.canonicalSe}`,
      );
      const small = [0, 1, 2].map((s) => ({
        positive: set(1000, 0.58, 50, 100 + s),
        negative: set(1000, 0.5, 40, 110 + s),
      }));
      const under = shiftChecks([v], yhat, small, new Rng(engine, 0), { resamples: 300 }).find(
        (c) => c.value === 'Male',
      )!;
      assert.equal(under.status, 'understates', `${under.pooled} against ${under.real.shift}`);
      assert.ok(over.canonicalSe! > 0.005 && over.canonicalSe! < 0.03, `the pooled sets' noise ${over.canonicalSe}`);
      // one seed reversed: the data decides, the sets do not settle it (not a disagreement: the seeds differ)
      const mixed = [...good.slice(0, 2), { positive: set(1000, 0.4, 50, 30), negative: set(1000, 0.6, 40, 31) }];
      const m2 = shiftChecks([v], yhat, mixed, new Rng(engine, 0), { resamples: 300 }).find((c) => c.value === 'Male')!;
      assert.equal(m2.status, 'unsettled');
      assert.equal(m2.seedsWithDataSign, 2);
      // every seed reversed
      const rev = [0, 1, 2].map((s) => ({
        positive: set(1000, 0.4, 50, 40 + s),
        negative: set(1000, 0.6, 40, 50 + s),
      }));
      assert.equal(
        shiftChecks([v], yhat, rev, new Rng(engine, 0), { resamples: 300 }).find((c) => c.value === 'Male')!.status,
        'disagrees',
      );
    },
  );

  it(
    'with --favourable negative every shift is taken from the favourable (negative) side: the same bits as the ' +
      'other coding of the same decisions',
    async () => {
      const engine = await getEngine();
      const { table, yhat } = realRows(3000, 1200, 0.8, 0.5, 4);
      const vars = [categoricalVariable(table, 'sex', 'protected'), numericVariable(table, 'age', 'feature')];
      const sets = [0, 1].map((s) => ({ positive: set(800, 0.75, 50, 60 + s), negative: set(800, 0.5, 40, 70 + s) }));
      const asNamed = shiftChecks(vars, yhat, sets, new Rng(engine, 5), { resamples: 200 });
      // the other coding: the decisions and the sets swap sides, the favourable decision is still the same rows'
      const flipped = Uint8Array.from(yhat, (x) => 1 - x);
      const other = shiftChecks(
        vars,
        flipped,
        sets.map((x) => ({ positive: x.negative, negative: x.positive })),
        new Rng(engine, 5),
        { resamples: 200, favourable: 'negative' },
      );
      assert.equal(other.length, asNamed.length);
      asNamed.forEach((a, i) => {
        const b = other[i];
        assert.equal(b.value, a.value);
        assert.deepEqual(
          [b.pooled, b.canonical, b.real.shift, b.real.lo, b.real.hi, b.real.se, b.status],
          [a.pooled, a.canonical, a.real.shift, a.real.lo, a.real.hi, a.real.se, a.status],
          `${a.feature} = ${a.value}`,
        );
      });
      const male = asNamed.find((c) => c.value === 'Male')!;
      assert.ok(male.pooled > 0 && male.status === 'agrees', 'Male is over-represented among the favourable decisions');
    },
  );

  it('a seed with an empty set has no shift: it can never agree, and fidelity counts the side as missing', async () => {
    const engine = await getEngine();
    const { table, yhat } = realRows(2000, 800, 0.2, 0.9, 12);
    const v = categoricalVariable(table, 'sex', 'protected');
    const empty: Table = { rows: 0, columns: [cat('sex', []), num('age', [])] };
    // one seed right, one with no positive rows at all
    const sets = [
      { positive: set(500, 0.2, 50, 1), negative: set(500, 0.9, 40, 2) },
      { positive: empty, negative: set(500, 0.9, 40, 3) },
    ];
    for (const c of shiftChecks([v, numericVariable(table, 'age', 'feature')], yhat, sets, new Rng(engine, 1), {
      resamples: 200,
    })) {
      assert.ok(Number.isNaN(c.canonical[1]), `${c.feature}=${c.value}: the empty seed's shift is NaN`);
      assert.notEqual(c.status, 'agrees', `${c.feature}=${c.value}`);
    }
    const m = shiftChecks([v], yhat, sets, new Rng(engine, 1), { resamples: 200 }).find((c) => c.value === 'Male')!;
    assert.equal(m.status, 'unsettled');
    assert.equal(m.seedsWithDataSign, 1);
    const none = [{ positive: empty, negative: set(500, 0.9, 40, 3) }];
    const f = fidelity(
      [
        { name: 'sex', kind: 'categorical' },
        { name: 'age', kind: 'numeric' },
      ],
      table,
      yhat,
      none,
      new Rng(engine, 2),
      { replicates: 20, emptyFails: true },
    );
    for (const x of f) {
      assert.equal(x.positive!.distance, 1);
      assert.equal(x.positive!.rows, 0);
      assert.equal(x.faithful, false, x.feature);
    }
    // without emptyFails (lucid quality: nothing was generated on that side), the side is left out
    assert.equal(
      fidelity([{ name: 'sex', kind: 'categorical' }], table, yhat, none, new Rng(engine, 2), { replicates: 20 })[0]
        .positive,
      null,
    );
  });

  it('is within noise when the real rows cannot tell the direction', async () => {
    const engine = await getEngine();
    // 30 rows, the same Male share on both sides: the interval covers 0
    const { table, yhat } = realRows(30, 12, 0.5, 0.5, 2);
    const v = categoricalVariable(table, 'sex', 'protected');
    const sets = [0, 1, 2].map((s) => ({ positive: set(500, 0.9, 50, 60 + s), negative: set(500, 0.1, 40, 70 + s) }));
    for (const c of shiftChecks([v], yhat, sets, new Rng(engine, 3), { resamples: 400 })) {
      assert.equal(c.status, 'within noise', `${c.value}: [${c.real.lo}, ${c.real.hi}]`);
      assert.ok(c.real.lo! <= 0 && c.real.hi! >= 0);
      assert.equal(c.seedsWithDataSign, 0);
    }
    // no predicted-positive row: the real shift is undefined
    const none = shiftChecks([v], new Uint8Array(30), sets, new Rng(engine, 3), { resamples: 10 });
    assert.ok(none.every((c) => c.real.shift === null && c.status === 'within noise' && c.real.positiveRows === 0));
  });

  it('gives a bootstrap interval of the width the normal approximation predicts', async () => {
    const engine = await getEngine();
    const { table, yhat } = realRows(3000, 1000, 0.6, 0.4, 4);
    const v = categoricalVariable(table, 'sex', 'protected');
    const c = shiftChecks(
      [v],
      yhat,
      [{ positive: set(100, 0.5, 50, 1), negative: set(100, 0.5, 40, 2) }],
      new Rng(engine, 5),
      { resamples: 1000 },
    ).find((x) => x.value === 'Male')!;
    const p1 = c.real.positive!,
      p0 = c.real.negative!;
    const se = Math.sqrt((p1 * (1 - p1)) / 1000 + (p0 * (1 - p0)) / 2000);
    const width = c.real.hi! - c.real.lo!;
    assert.ok(Math.abs(width / (2 * 1.96 * se) - 1) < 0.2, `width ${width} vs normal ${2 * 1.96 * se}`);
  });

  it('numeric features: decile bins of the real rows and the median shift', async () => {
    const engine = await getEngine();
    const { table, yhat } = realRows(2000, 800, 0.5, 0.5, 6);
    const v = numericVariable(table, 'age', 'feature');
    assert.ok(v.values.length >= 8 && v.values.length <= 10, v.values.join(' '));
    const sets = [{ positive: set(800, 0.5, 50, 7), negative: set(800, 0.5, 40, 8) }];
    const checks = shiftChecks([v], yhat, sets, new Rng(engine, 9), { resamples: 200 });
    const med = checks.find((c) => c.kind === 'median')!;
    assert.equal(med.value, 'median');
    // real ages: U(20, 60) + 10 on the positive side; medians 50 and 40
    assert.ok(Math.abs(med.real.shift! - 10) <= 2, `real median shift ${med.real.shift}`);
    assert.ok(Math.abs(med.pooled - 10) <= 2.5, `canonical median shift ${med.pooled}`);
    assert.equal(med.status, 'agrees');
    // the bins' shares sum to 1 on each side
    const bins = checks.filter((c) => c.kind === 'share');
    assert.ok(Math.abs(bins.reduce((s, c) => s + c.real.positive!, 0) - 1) < 1e-9);
    assert.ok(Math.abs(bins.reduce((s, c) => s + c.positive, 0) - 1) < 1e-9);
  });

  it('binned and cell variables code generated rows as the real ones', async () => {
    const { table } = realRows(50, 20, 0.5, 0.5, 10);
    const age = binnedVariable(table, 'age', 'protected', [0, 40, 100]);
    assert.deepEqual(age.values, ['[0, 40]', '(40, 100]']);
    const g: Table = { rows: 3, columns: [cat('sex', ['Male', 'Female', 'Other']), num('age', [-5, 40, 41])] };
    assert.deepEqual(Array.from(age.codeOf(g)), [0, 0, 1], 'clamped into the end bins');
    const sex = categoricalVariable(table, 'sex', 'protected');
    const cell = cellVariable(sex, age);
    assert.equal(cell.values.length, sex.values.length * 2);
    const codes = cell.codeOf(g);
    assert.equal(cell.values[codes[0]], 'Male & [0, 40]');
    assert.equal(codes[2], -1, 'an unknown category is no cell');
  });
});

describe('fidelity', () => {
  it(
    'is 0 for sets equal to the real rows on their side, ' + 'large for the wrong side, with a sensible noise floor',
    async () => {
      const engine = await getEngine();
      const n = 4000;
      const rnd = hostRng(11);
      const x = Array.from({ length: n }, () => rnd());
      const yhat = Uint8Array.from(x, (v) => (v > 0.6 ? 1 : 0));
      const g = x.map((v) => (v > 0.6 ? (rnd() < 0.8 ? 'a' : 'b') : rnd() < 0.3 ? 'a' : 'b'));
      const real: Table = { rows: n, columns: [num('x', x), cat('g', g)] };
      const side = (s: number) => {
        const idx = x.map((_, i) => i).filter((i) => yhat[i] === s);
        return {
          rows: idx.length,
          columns: [
            num(
              'x',
              idx.map((i) => x[i]),
            ),
            cat(
              'g',
              idx.map((i) => g[i]),
            ),
          ],
        } as Table;
      };
      const exact = fidelity(
        [
          { name: 'x', kind: 'numeric' },
          { name: 'g', kind: 'categorical' },
        ],
        real,
        yhat,
        [{ positive: side(1), negative: side(0) }],
        new Rng(engine, 0),
        { replicates: 300 },
      );
      for (const f of exact) {
        assert.equal(f.positive!.distance, 0, f.feature);
        assert.equal(f.negative!.distance, 0, f.feature);
        assert.ok(f.faithful);
      }
      assert.equal(exact[0].metric, 'KS');
      assert.equal(exact[1].metric, 'TV');
      // KS floor of two continuous samples of sizes m, r: about 1.36·sqrt((m + r)/(m r)) at 95%
      const pos = exact[0].positive!;
      const expect = 1.36 * Math.sqrt((pos.rows + pos.realRows) / (pos.rows * pos.realRows));
      assert.ok(Math.abs(pos.floor / expect - 1) < 0.15, `floor ${pos.floor} vs ${expect}`);
      assert.ok(pos.floorMedian < pos.floor);
      // the sides swapped: far from the real rows, not faithful
      const swapped = fidelity(
        [
          { name: 'x', kind: 'numeric' },
          { name: 'g', kind: 'categorical' },
        ],
        real,
        yhat,
        [{ positive: side(0), negative: side(1) }],
        new Rng(engine, 0),
        { replicates: 50 },
      );
      assert.equal(swapped[0].positive!.distance, 1, 'the x ranges do not overlap');
      assert.ok(Math.abs(swapped[1].positive!.distance - 0.5) < 0.06, `TV ${swapped[1].positive!.distance}`);
      assert.ok(swapped.every((f) => !f.faithful));
    },
  );

  it('tvLabels counts labels only one side holds', () => {
    assert.equal(tvLabels(['a', 'a', 'b', 'b'], ['a', 'a', 'b', 'b']), 0);
    assert.equal(tvLabels(['a', 'a'], ['c']), 1);
    assert.equal(tvLabels(['a', 'b'], ['a', 'c']), 0.5);
    assert.ok(Number.isNaN(tvLabels([], ['a'])));
  });
});

describe('correctShiftChecks', () => {
  it('Holm over every check; the interval at the corrected level decides the status', async () => {
    const { correctShiftChecks } = await import('../../src/audit/checks.js');
    const mk = (shift: number, se: number, canonical: number[]) =>
      ({
        feature: 'f',
        role: 'feature',
        value: 'v',
        kind: 'share',
        canonical,
        pooled: canonical[0],
        positive: 0,
        negative: 0,
        canonicalSe: 0.01,
        real: { shift, lo: null, hi: null, se, positiveRows: 100, negativeRows: 100, positive: null, negative: null },
        status: 'agrees',
        seedsWithDataSign: 0,
      }) as unknown as import('../../src/audit/checks.js').ShiftCheck;
    // z = 10 (significant anywhere), z ≈ 2.2 twice (p ≈ 0.03: significant alone, not after Holm over 4), a disagreement
    // at z = 10
    const strong = mk(0.1, 0.01, [0.08, 0.12]);
    const weak = mk(0.022, 0.01, [0.02, 0.03]);
    const against = mk(-0.1, 0.01, [0.05, 0.02]);
    const weak2 = mk(0.0215, 0.01, [0.02, 0.03]);
    const m = correctShiftChecks([[strong, weak, weak2], [against]], 0.05);
    assert.equal(m, 4);
    assert.equal(weak2.status, 'within noise');
    assert.equal(strong.status, 'agrees');
    assert.equal(weak.status, 'within noise');
    assert.ok(weak.real.lo! < 0 && weak.real.hi! > 0, 'its interval at the corrected level covers 0');
    assert.equal(against.status, 'disagrees');
    assert.ok(strong.real.level! < 0.05 && strong.real.level! > 0);
    // alone, the weak check is significant at 5%
    const alone = mk(0.022, 0.01, [0.02, 0.03]);
    correctShiftChecks([[alone]], 0.05);
    assert.equal(alone.status, 'agrees');
  });
});

describe('realSeparation', () => {
  it(
    "the real rows' JS between the two sides, with a bootstrap interval; beyond chance for a feature that separates " +
      'them, not for one that does not',
    async () => {
      const engine = await getEngine();
      const { table, yhat } = realRows(3000, 1200, 0.8, 0.5, 21);
      // a column independent of the decision
      const rnd = hostRng(22);
      const noise = cat(
        'noise',
        Array.from({ length: 3000 }, () => (rnd() < 0.5 ? 'a' : 'b')),
      );
      const t = { rows: 3000, columns: [...table.columns, noise] };
      const vars = [
        categoricalVariable(t, 'sex', 'protected'),
        categoricalVariable(t, 'noise', 'feature'),
        numericVariable(t, 'age', 'feature'),
      ];
      const s = realSeparation(vars, yhat, new Rng(engine, 4), { resamples: 100, permutations: 20 });
      const [sex, nz, age] = s;
      assert.ok(sex.beyondChance && sex.lo <= sex.js && sex.js <= sex.hi, JSON.stringify(sex));
      assert.ok(sex.js > 0.2 && sex.js < 0.4, `sex ${sex.js}`);
      assert.ok(age.beyondChance, JSON.stringify(age));
      assert.equal(nz.beyondChance, false, JSON.stringify(nz));
      assert.ok(nz.chance > 0 && nz.js < 0.1);
      // seeded: the same bits again
      assert.deepEqual(realSeparation(vars, yhat, new Rng(engine, 4), { resamples: 100, permutations: 20 }), s);
    },
  );
});
