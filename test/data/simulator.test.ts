// The bias simulator: determinism, column kinds, the shapes that make a VGM matter, and each planted
// effect visible in plain statistics. "Residual" below is a group's observed approval rate minus the
// rate the legitimate score alone predicts (mean σ(L)): ≈ 0 when the group is treated like everyone
// else with the same qualifications, clearly negative when it is penalised.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { EngineError } from '../../src/engine/errors.js';
import { type BiasKind, simulate, simulatorScores, type Simulation } from '../../src/data/simulator.js';
import { type CategoricalColumn, type Column, getColumn, type NumericColumn } from '../../src/data/table.js';
import { getEngine } from '../helpers/engine.js';

const N = 40_000;
const SEED = 7;
// Sampling error of a residual in a group of ≥ 6000 rows is below 0.007; planted effects are ≥ 0.1.
const NULL_TOL = 0.025;
const EFFECT = 0.1;

let engine: Engine;
const sims = new Map<BiasKind, Simulation>();
const sim = (bias: BiasKind): Simulation => {
  let s = sims.get(bias);
  if (!s) sims.set(bias, (s = simulate(new Rng(engine, SEED), { n: N, bias })));
  return s;
};

const cat = (s: Simulation, name: string) => getColumn(s.table, name) as CategoricalColumn;
const num = (s: Simulation, name: string) => getColumn(s.table, name) as NumericColumn;
/** row predicate "column = label" */
const is = (s: Simulation, name: string, label: string) => {
  const c = cat(s, name);
  const k = c.categories.indexOf(label);
  assert.ok(k >= 0, `${name} has no category ${label}`);
  return (i: number) => c.codes[i] === k;
};
const and =
  (...ps: ((i: number) => boolean)[]) =>
  (i: number) =>
    ps.every((p) => p(i));

function rates(s: Simulation, pred: (i: number) => boolean): { n: number; rate: number; residual: number } {
  const y = cat(s, 'approved');
  const yes = y.categories.indexOf('yes');
  const L = s.truth.legitimateScore;
  let n = 0;
  let pos = 0;
  let expected = 0;
  for (let i = 0; i < s.table.rows; i++) {
    if (!pred(i)) continue;
    n++;
    if (y.codes[i] === yes) pos++;
    expected += 1 / (1 + Math.exp(-L[i]));
  }
  return { n, rate: pos / n, residual: (pos - expected) / n };
}

const near0 = (r: { residual: number }, what: string) =>
  assert.ok(Math.abs(r.residual) < NULL_TOL, `${what}: residual ${r.residual.toFixed(3)} should be ≈ 0`);
const depressed = (r: { residual: number }, what: string) =>
  assert.ok(r.residual < -EFFECT, `${what}: residual ${r.residual.toFixed(3)} should be < −${EFFECT}`);

/** bit-for-bit equality of two typed arrays (NaN payloads and −0 included) */
function sameBits(x: Float64Array | Int32Array, y: Float64Array | Int32Array): boolean {
  const a = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const b = new Uint8Array(y.buffer, y.byteOffset, y.byteLength);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function sameColumn(a: Column, b: Column): boolean {
  if (a.kind !== b.kind || a.name !== b.name) return false;
  if (a.kind === 'numeric') return sameBits(a.values, (b as NumericColumn).values);
  return (
    a.categories.join('\u0000') === (b as CategoricalColumn).categories.join('\u0000') &&
    sameBits(a.codes, (b as CategoricalColumn).codes)
  );
}

describe('bias simulator', () => {
  before(async () => {
    engine = await getEngine();
  });

  it('has the documented columns, kinds and sorted dictionaries', () => {
    const s = sim('fair');
    assert.equal(s.table.rows, N);
    assert.deepEqual(
      s.table.columns.map((c) => `${c.name}:${c.kind}`),
      [
        'age:numeric',
        'sex:categorical',
        'group:categorical',
        'neighbourhood:categorical',
        'education:categorical',
        'hours_per_week:numeric',
        'income:numeric',
        'debt_ratio:numeric',
        'approved:categorical',
      ],
    );
    assert.equal(s.label, 'approved');
    assert.equal(s.favourable, 'yes');
    assert.deepEqual(s.protected, ['sex', 'group']);
    for (const c of s.table.columns) {
      if (c.kind === 'categorical') {
        assert.deepEqual(c.categories, c.categories.slice().sort(), `${c.name} categories sorted`);
        assert.ok(
          c.codes.every((k) => k >= 0 && k < c.categories.length),
          `${c.name} codes in range`,
        );
      } else {
        assert.ok(c.values.every(Number.isFinite), `${c.name} finite`);
      }
    }
    assert.deepEqual(cat(s, 'neighbourhood').categories, [
      'Eastfield',
      'Hillcrest',
      'Northgate',
      'Riverside',
      'Southport',
      'Westbrook',
    ]);
    assert.deepEqual(cat(s, 'education').categories, ['Bachelor', 'Doctorate', 'Master', 'Secondary', 'Vocational']);
  });

  it(
    'the same seed gives a bit-identical table; another ' + 'seed does not; features do not depend on the bias kind',
    () => {
      const a = simulate(new Rng(engine, 11), { n: 5000, bias: 'proxy' });
      const b = simulate(new Rng(engine, 11), { n: 5000, bias: 'proxy' });
      const c = simulate(new Rng(engine, 12), { n: 5000, bias: 'proxy' });
      const d = simulate(new Rng(engine, 11), { n: 5000, bias: 'direct' });
      assert.ok(
        a.table.columns.every((col, j) => sameColumn(col, b.table.columns[j])),
        'same seed, same table',
      );
      assert.ok(!sameColumn(a.table.columns[6], c.table.columns[6]), 'another seed, another income column');
      // the same people under another rule: every feature identical, only the decisions differ
      assert.ok(a.table.columns.slice(0, -1).every((col, j) => sameColumn(col, d.table.columns[j])));
      assert.ok(!sameColumn(a.table.columns.at(-1)!, d.table.columns.at(-1)!));
    },
  );

  it('drawing in blocks does not change the stream: the first rows of a longer run equal a shorter run', () => {
    const short = simulate(new Rng(engine, 5), { n: 100, bias: 'fair' });
    const long = simulate(new Rng(engine, 5), { n: 9000, bias: 'fair' });
    for (const [j, col] of short.table.columns.entries()) {
      const l = long.table.columns[j];
      for (let i = 0; i < 100; i++) {
        const x = col.kind === 'numeric' ? col.values[i] : col.codes[i];
        const y = l.kind === 'numeric' ? l.values[i] : l.codes[i];
        assert.equal(x, y, `${col.name} row ${i}`);
      }
    }
  });

  it('numerics: age and hours are bimodal with a deep trough, income and debt are right-skewed', () => {
    const s = sim('fair');
    const histogram = (v: Float64Array, lo: number, width: number, bins: number) => {
      const h = new Array<number>(bins).fill(0);
      for (const x of v) {
        const b = Math.floor((x - lo) / width);
        if (b >= 0 && b < bins) h[b]++;
      }
      return h;
    };
    // age in 4-year bins from 18: modes near 30 and 54, trough near 42
    const age = histogram(num(s, 'age').values, 18, 4, 15);
    const youngPeak = Math.max(...age.slice(0, 5));
    const oldPeak = Math.max(...age.slice(7, 12));
    const trough = Math.min(...age.slice(5, 8));
    assert.ok(trough < 0.35 * Math.min(youngPeak, oldPeak), `age: trough ${trough} vs peaks ${youngPeak}, ${oldPeak}`);
    // hours in 4-hour bins: part-time near 20, full-time near 41
    const hours = histogram(num(s, 'hours_per_week').values, 0, 4, 20);
    const part = Math.max(...hours.slice(4, 6));
    const full = Math.max(...hours.slice(9, 12));
    const gap = Math.min(...hours.slice(6, 9));
    assert.ok(gap < 0.25 * Math.min(part, full), `hours: gap ${gap} vs peaks ${part}, ${full}`);
    for (const name of ['income', 'debt_ratio']) {
      const v = num(s, name).values;
      let mean = 0;
      for (const x of v) mean += x / v.length;
      let m2 = 0;
      let m3 = 0;
      for (const x of v) {
        m2 += (x - mean) ** 2 / v.length;
        m3 += (x - mean) ** 3 / v.length;
      }
      const skew = m3 / m2 ** 1.5;
      assert.ok(skew > 1, `${name}: skewness ${skew.toFixed(2)} should be > 1`);
      assert.ok(
        v.every((x) => x > 0),
        `${name} positive`,
      );
    }
  });

  it('neighbourhood is a strong proxy for group', () => {
    const s = sim('fair');
    const red = (i: number) => is(s, 'neighbourhood', 'Eastfield')(i) || is(s, 'neighbourhood', 'Southport')(i);
    const share = (g: string) => {
      const inG = is(s, 'group', g);
      let n = 0;
      let r = 0;
      for (let i = 0; i < s.table.rows; i++) {
        if (!inG(i)) continue;
        n++;
        if (red(i)) r++;
      }
      return r / n;
    };
    assert.ok(share('B') > 0.75 && share('A') < 0.15, `P(redlined | B) ${share('B')}, P(redlined | A) ${share('A')}`);
  });

  it('fair: raw rates differ by group and sex, but only through legitimate features', () => {
    const s = sim('fair');
    assert.deepEqual(s.truth.penalised, []);
    assert.ok(!s.truth.reads.includes('group') && !s.truth.reads.includes('sex'));
    const A = rates(s, is(s, 'group', 'A'));
    const B = rates(s, is(s, 'group', 'B'));
    const F = rates(s, is(s, 'sex', 'Female'));
    const M = rates(s, is(s, 'sex', 'Male'));
    assert.ok(A.rate - B.rate > 0.02, `A ${A.rate} vs B ${B.rate}: the structural education gap shows in raw rates`);
    assert.ok(M.rate - F.rate > 0.02, `M ${M.rate} vs F ${F.rate}: part-time work shows in raw rates`);
    for (const [what, r] of Object.entries({ A, B, F, M })) near0(r, what);
    near0(rates(s, and(is(s, 'sex', 'Female'), is(s, 'group', 'B'))), 'Female∧B');
  });

  it('direct: group B is penalised at equal qualifications, group A is not', () => {
    const s = sim('direct');
    assert.ok(s.truth.reads.includes('group'));
    depressed(rates(s, is(s, 'group', 'B')), 'B');
    near0(rates(s, is(s, 'group', 'A')), 'A');
    // within the same neighbourhoods too: the rule reads group itself
    const red = (i: number) => is(s, 'neighbourhood', 'Eastfield')(i) || is(s, 'neighbourhood', 'Southport')(i);
    near0(rates(s, and(red, is(s, 'group', 'A'))), 'A in redlined zones');
    depressed(
      rates(
        s,
        and((i) => !red(i), is(s, 'group', 'B')),
      ),
      'B elsewhere',
    );
  });

  it('proxy: the rule never reads group or sex, yet group B is hurt, through neighbourhood only', () => {
    const s = sim('proxy');
    assert.ok(
      !s.truth.reads.includes('group') && !s.truth.reads.includes('sex') && s.truth.reads.includes('neighbourhood'),
    );
    // Swap both protected columns for their opposites: the scores must not move by a single bit.
    const flipped = {
      rows: s.table.rows,
      columns: s.table.columns.map((c) =>
        c.name === 'group' || c.name === 'sex' ? { ...c, codes: (c as CategoricalColumn).codes.map((k) => 1 - k) } : c,
      ),
    };
    const before = simulatorScores(s.table, { bias: 'proxy' });
    const after = simulatorScores(flipped, { bias: 'proxy' });
    assert.deepEqual(after.score, before.score);
    assert.deepEqual(before.score, s.truth.score);
    // …whereas the direct rule does move
    assert.notDeepEqual(
      simulatorScores(flipped, { bias: 'direct' }).score,
      simulatorScores(s.table, { bias: 'direct' }).score,
    );

    depressed(rates(s, is(s, 'group', 'B')), 'B overall');
    const red = (i: number) => is(s, 'neighbourhood', 'Eastfield')(i) || is(s, 'neighbourhood', 'Southport')(i);
    // conditional on neighbourhood the groups are treated alike
    const redA = rates(s, and(red, is(s, 'group', 'A')));
    const redB = rates(s, and(red, is(s, 'group', 'B')));
    depressed(redA, 'A in redlined zones');
    assert.ok(
      Math.abs(redA.residual - redB.residual) < NULL_TOL,
      `redlined zones: A ${redA.residual} vs B ${redB.residual}`,
    );
    near0(
      rates(
        s,
        and((i) => !red(i), is(s, 'group', 'B')),
      ),
      'B elsewhere',
    );
    near0(
      rates(
        s,
        and((i) => !red(i), is(s, 'group', 'A')),
      ),
      'A elsewhere',
    );
  });

  it('intersectional: only women of group B are depressed', () => {
    const s = sim('intersectional');
    assert.deepEqual(s.truth.disadvantaged, [{ sex: 'Female', group: 'B' }]);
    depressed(rates(s, and(is(s, 'sex', 'Female'), is(s, 'group', 'B'))), 'Female∧B');
    near0(rates(s, and(is(s, 'sex', 'Male'), is(s, 'group', 'B'))), 'Male∧B');
    near0(rates(s, and(is(s, 'sex', 'Female'), is(s, 'group', 'A'))), 'Female∧A');
    near0(rates(s, and(is(s, 'sex', 'Male'), is(s, 'group', 'A'))), 'Male∧A');
  });

  it('threshold decisions approve exactly when the score is positive; strength 0 equals fair', () => {
    const t = simulate(new Rng(engine, 3), { n: 3000, bias: 'direct', decision: 'threshold' });
    const y = getColumn(t.table, 'approved') as CategoricalColumn;
    for (let i = 0; i < t.table.rows; i++) assert.equal(y.codes[i] === 1, t.truth.score[i] > 0);
    const zero = simulate(new Rng(engine, 3), { n: 3000, bias: 'direct', strength: 0 });
    const fair = simulate(new Rng(engine, 3), { n: 3000, bias: 'fair' });
    assert.ok(sameColumn(zero.table.columns.at(-1)!, fair.table.columns.at(-1)!));
    assert.match(t.truth.rule, /1\.5·\[group ∈ \{B\}\]/);
  });

  it('rejects bad options with E_ARG naming the argument', () => {
    const bad = (opts: object, re: RegExp) =>
      assert.throws(
        () => simulate(new Rng(engine, 1), opts as never),
        (e: unknown) => e instanceof EngineError && e.code === 'E_ARG' && re.test(e.message),
      );
    bad({ n: 0, bias: 'fair' }, /simulate: n must be an integer/);
    bad({ n: 2.5, bias: 'fair' }, /n must be an integer/);
    bad({ n: 10, bias: 'racist' }, /bias must be one of fair, direct, proxy, intersectional, got racist/);
    bad({ n: 10, bias: 'direct', strength: -1 }, /strength must be a finite number ≥ 0/);
    bad({ n: 10, bias: 'direct', decision: 'vote' }, /decision must be 'sample' or 'threshold'/);
  });
});
