// The output kinds: inference from the columns, a named kind checked against them, the directions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Column } from '../../src/data/table.js';
import { classOrderOf, classSign, directionOf, outputKindOf } from '../../src/methods/metrics/outputs.js';

const num = (name: string, v: number[]): Column => ({ kind: 'numeric', name, values: Float64Array.from(v) });
const cat = (name: string, v: string[]): Column => {
  const categories = [...new Set(v)].sort();
  return { kind: 'categorical', name, categories, codes: Int32Array.from(v, (x) => categories.indexOf(x)) };
};

test('inference: binary, score, multiclass, regression', () => {
  assert.equal(outputKindOf(cat('y', ['no', 'yes', 'no']), cat('p', ['yes', 'no', 'no'])).kind, 'binary');
  assert.equal(outputKindOf(num('y', [0, 1, 1]), num('p', [0.2, 0.9, 0.5])).kind, 'binary');
  const s = outputKindOf(num('y', [0, 1, 1]), num('decile', [1, 10, 4]));
  assert.equal(s.kind, 'score');
  assert.match(s.reason, /^inferred score: .*"decile".*outside \[0, 1\]/);
  assert.equal(outputKindOf(cat('t', ['a', 'b', 'c']), cat('p', ['c', 'a', 'a'])).kind, 'multiclass');
  assert.equal(outputKindOf(num('t', [1, 2, 3, 2]), num('p', [3, 3, 1, 2])).kind, 'multiclass');
  const hours = Array.from({ length: 40 }, (_, i) => 20 + i);
  assert.equal(
    outputKindOf(
      num('h', hours),
      num(
        'p',
        hours.map((x) => x + 0.5),
      ),
    ).kind,
    'regression',
  );
  // integer predictions of a label with many numeric values: still regression
  assert.equal(outputKindOf(num('h', hours), num('p', hours)).kind, 'regression');
  assert.equal(outputKindOf(num('t', [1, 2, 3]), num('p', [1.5, 2.2, 3.1])).kind, 'regression');
});

test('inference: columns that fit no kind are an error that says what to give', () => {
  assert.throws(() => outputKindOf(cat('t', ['a', 'b', 'c']), num('p', [0.1, 0.2, 0.3])), /--output binary\|score/);
  assert.throws(() => outputKindOf(cat('y', ['no', 'yes']), cat('p', ['maybe', 'no'])), /does not fit the label "y"/);
});

test('a named kind overrides the guess where the columns allow it, and says what it would have inferred', () => {
  const c = outputKindOf(num('y', [0, 1, 1]), num('p', [0.2, 0.9, 0.5]), 'score');
  assert.equal(c.kind, 'score');
  assert.match(c.reason, /as --output says \(inferred would be binary/);
  assert.throws(() => outputKindOf(num('y', [0, 1, 1]), num('p', [0.2, 0.9, 3]), 'binary'), /--output binary does not/);
  assert.throws(() => outputKindOf(cat('y', ['a', 'b']), num('p', [1, 2]), 'regression'), /numeric label/);
});

test('directions and class order', () => {
  // no default: a risk score audited as if high were favourable would name its advantaged groups disadvantaged
  assert.throws(() => directionOf('score', undefined), /a score output needs --favourable higher or lower/);
  assert.equal(directionOf('score', 'higher'), 'higher');
  assert.equal(directionOf('regression', 'lower'), 'lower');
  assert.throws(() => directionOf('score', 'negative'), /takes --favourable higher or lower/);
  assert.deepEqual(classOrderOf(['a', 'b', 'c'], ['c', 'a', 'b']), ['c', 'a', 'b']);
  assert.equal(classOrderOf(['a', 'b'], undefined), null);
  assert.throws(() => classOrderOf(['a', 'b', 'c'], ['a', 'b']), /leaves out: c/);
  assert.throws(() => classOrderOf(['a', 'b'], ['a', 'a', 'b']), /twice/);
  assert.throws(() => classOrderOf(['a', 'b'], ['a', 'z']), /not a class/);
  assert.deepEqual(
    ['approve', 'refer', 'decline'].map((c) => classSign(['approve', 'refer', 'decline'], c)),
    [1, 0, -1],
  );
  assert.equal(classSign(null, 'approve'), 0);
});
