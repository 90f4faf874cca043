// The targets an audit of a score, a class or a real value contrasts (targets.ts): bands read in quantiles or units,
// the default top and bottom deciles, classes by the class order, the favoured side by the direction — and the same
// rows on each side whichever way the output is coded (a score negated and read "lower" gives the same two sets).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../src/engine/errors.js';
import {
  bandTarget,
  inTarget,
  parseBand,
  sidesOf,
  targetPair,
  type TargetPair,
} from '../../src/methods/metrics/targets.js';

const isArg = (e: unknown) => e instanceof EngineError && e.code === 'E_ARG';
/** 1 … 100 */
const hundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);

function pair(p: ReturnType<typeof targetPair>): TargetPair {
  assert.ok(!('none' in p), 'a pair is chosen');
  return p as TargetPair;
}

describe('targets: bands', () => {
  it('reads lo-hi, negative numbers and exponents, and refuses what is not a band', () => {
    assert.deepEqual(parseBand('0.9-1.0', 'quantile', 't'), { lo: 0.9, hi: 1, scale: 'quantile' });
    assert.deepEqual(parseBand('-3--1', 'units', 't'), { lo: -3, hi: -1, scale: 'units' });
    assert.deepEqual(parseBand(' 700 - 850 ', 'units', 't'), { lo: 700, hi: 850, scale: 'units' });
    assert.deepEqual(parseBand('1e3-2e3', 'units', 't'), { lo: 1000, hi: 2000, scale: 'units' });
    assert.throws(() => parseBand('0.9', 'quantile', 't'), isArg);
    assert.throws(() => parseBand('a-b', 'units', 't'), isArg);
    assert.throws(() => parseBand('0.5-0.1', 'quantile', 't'), /low end 0.5 is above its high end 0.1/);
    assert.throws(() => parseBand('700-850', 'quantile', 't'), /--band-scale units/);
  });

  it('cuts quantile bands from the outputs, ties included, and names them', () => {
    const top = bandTarget({ lo: 0.9, hi: 1, scale: 'quantile' }, hundred, 'score');
    assert.equal(top.kind, 'band');
    assert.match(top.label, /^top decile of score \(/);
    const inTop = Array.from(hundred).filter((v) => inTarget(top, v)).length;
    assert.equal(inTop, 10);
    const bottom = bandTarget({ lo: 0, hi: 0.1, scale: 'quantile' }, hundred, 'score');
    assert.match(bottom.label, /^bottom decile/);
    assert.equal(Array.from(hundred).filter((v) => inTarget(bottom, v)).length, 10);
    // a decile score: the bottom "decile" holds every row tied at its edge
    const deciles = Float64Array.from({ length: 100 }, (_, i) => (i < 30 ? 1 : 2 + (i % 9))).sort();
    const b = bandTarget({ lo: 0, hi: 0.1, scale: 'quantile' }, deciles, 'd');
    assert.equal(Array.from(deciles).filter((v) => inTarget(b, v)).length, 30);
    assert.match(b.label, /d = 1\)/);
    // the quantile ends 0 and 1 are open: an output beyond the audited ones (a generated row) is still in the band
    assert.ok(inTarget(top, 1e6) && inTarget(bottom, -1e6));
    assert.match(top.label, /90\.1 ≤ score ≤ 100\)/);
    const units = bandTarget({ lo: 20, hi: 30, scale: 'units' }, hundred, 'v');
    assert.equal(units.label, 'v in [20, 30]');
  });
});

describe('targets: the pair', () => {
  it('defaults to the top and bottom deciles, the favourable end first', () => {
    const hi = pair(targetPair({ kind: 'score', output: 's', values: hundred, direction: 'higher', where: 't' }));
    assert.match(hi.favoured.label, /^top decile/);
    assert.match(hi.other.label, /^bottom decile/);
    assert.ok(hi.ordered);
    const lo = pair(targetPair({ kind: 'score', output: 's', values: hundred, direction: 'lower', where: 't' }));
    assert.match(lo.favoured.label, /^bottom decile/);
    const s = sidesOf(lo, hundred);
    assert.equal(s[0], 1);
    assert.equal(s[99], 0);
    assert.equal(s[50], 2);
  });

  it('puts the same rows on each side when the output is negated and read the other way', () => {
    // skewed values with ties: the coding must not move a row
    const v = Float64Array.from({ length: 500 }, (_, i) => Math.round(Math.exp((i % 37) / 9) * 10) / 10);
    const neg = v.map((x) => -x);
    for (const bands of [undefined, [parseBand('0.8-1', 'quantile', 't'), parseBand('0-0.3', 'quantile', 't')]]) {
      const a = pair(
        targetPair({ kind: 'regression', output: 'y', values: v, direction: 'higher', where: 't', bands }),
      );
      const flipped = bands?.map((b) => ({ ...b, lo: 1 - b.hi, hi: 1 - b.lo }));
      const b = pair(
        targetPair({ kind: 'regression', output: 'y', values: neg, direction: 'lower', where: 't', bands: flipped }),
      );
      assert.deepEqual(sidesOf(a, v), sidesOf(b, neg));
    }
  });

  it('takes one band against the rest, and refuses overlapping bands and a third', () => {
    const one = pair(
      targetPair({
        kind: 'score',
        output: 's',
        values: hundred,
        direction: 'higher',
        where: 't',
        bands: [parseBand('0.4-0.6', 'quantile', 't')],
      }),
    );
    const s = sidesOf(one, hundred);
    assert.equal(s.filter((x) => x === 2).length, 0, 'one band and the rest cover every row');
    // the rest holds the higher outputs too: its mean (50.5 − the band's) ties roughly; either way both sides exist
    assert.ok(s.includes(1) && s.includes(0));
    // two bands that touch (above and below the median): the shared point's rows go to the favoured side
    const halves = pair(
      targetPair({
        kind: 'score',
        output: 's',
        values: hundred,
        direction: 'lower',
        where: 't',
        bands: [parseBand('0.5-1', 'quantile', 't'), parseBand('0-0.5', 'quantile', 't')],
      }),
    );
    const hs = sidesOf(halves, hundred);
    assert.equal(hs.filter((x) => x === 2).length, 0);
    assert.equal(hs.filter((x) => x === 1).length, 50, 'the lower half is favoured, the median point with it');
    const few = Float64Array.from({ length: 100 }, (_, i) => (i < 95 ? 5 : 6));
    assert.throws(
      () => targetPair({ kind: 'score', output: 's', values: few, direction: 'higher', where: 't' }),
      /overlap in units: the output has few distinct values/,
    );
    const b = parseBand('0-0.1', 'quantile', 't');
    assert.throws(
      () =>
        targetPair({ kind: 'score', output: 's', values: hundred, direction: 'higher', where: 't', bands: [b, b, b] }),
      /at most twice/,
    );
  });

  it('reads classes by the class order, or as named, and says when it cannot choose', () => {
    const classes = ['approve', 'refer', 'decline'];
    const values = Float64Array.from([0, 1, 2, 2, 1, 0, 2]);
    const byOrder = pair(
      targetPair({
        kind: 'multiclass',
        output: 'd',
        values,
        classes,
        classOrder: ['approve', 'refer', 'decline'],
        where: 't',
      }),
    );
    assert.equal(byOrder.favoured.label, 'class approve');
    assert.equal(byOrder.other.label, 'class decline');
    assert.deepEqual(Array.from(sidesOf(byOrder, values)), [1, 2, 0, 0, 2, 1, 0]);
    // named the other way round: the order still puts the more favourable class on side 1
    const named = pair(
      targetPair({
        kind: 'multiclass',
        output: 'd',
        values,
        classes,
        classOrder: ['approve', 'refer', 'decline'],
        classNames: ['decline', 'refer'],
        where: 't',
      }),
    );
    assert.equal(named.favoured.label, 'class refer');
    const rest = pair(
      targetPair({ kind: 'multiclass', output: 'd', values, classes, classNames: ['refer'], where: 't' }),
    );
    assert.equal(rest.ordered, false);
    assert.deepEqual(Array.from(sidesOf(rest, values)), [0, 1, 0, 0, 1, 0, 0]);
    const none = targetPair({ kind: 'multiclass', output: 'd', values, classes, where: 't' });
    assert.ok('none' in none && /--class-order/.test(none.none));
    assert.throws(
      () => targetPair({ kind: 'multiclass', output: 'd', values, classes, classNames: ['maybe'], where: 't' }),
      /"maybe" is not a class/,
    );
    assert.throws(
      () => targetPair({ kind: 'score', output: 's', values: hundred, classNames: ['a'], where: 't' }),
      isArg,
    );
  });
});
