// The shared text forms of numbers: each form's exact string, its sign and its missing text, since
// the report, the CLI's summaries and the page all print through them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  byCodeUnit,
  fmtJs,
  fmtPct,
  fmtPp,
  fmtPpSigned,
  fmtRatio,
  jsText,
  MISSING,
  pctTable,
  pctText,
} from '../../src/data/text.js';

test('MISSING: the report dash, the summaries words, the tables hyphen', () => {
  assert.deepEqual(MISSING, { report: '—', text: 'n/a', table: '-' });
});

test('fmtPct: one decimal and a % by default; decimals, unit and missing text as asked', () => {
  assert.equal(fmtPct(0.4567), '45.7%');
  assert.equal(fmtPct(0), '0.0%');
  assert.equal(fmtPct(1), '100.0%');
  assert.equal(fmtPct(0.5, 0), '50%');
  assert.equal(fmtPct(0.12345, 2, MISSING.text, ''), '12.35');
  for (const v of [null, undefined, NaN, Infinity]) assert.equal(fmtPct(v), '—');
  assert.equal(fmtPct(null, 1, 'none'), 'none');
});

test('pctText and pctTable: the CLI text and the aligned table cell', () => {
  assert.equal(pctText(0.4567), '45.7%');
  assert.equal(pctText(-0.021), '-2.1%');
  assert.equal(pctText(null), 'n/a');
  assert.equal(pctText(NaN), 'n/a');
  assert.equal(pctTable(0.4567), '45.7');
  assert.equal(pctTable(undefined), '-');
});

test('fmtPp: a sign, ± when the rounded value is 0, an ASCII minus', () => {
  assert.equal(fmtPp(0.032), '+3.2 pp');
  assert.equal(fmtPp(-0.005), '-0.5 pp');
  assert.equal(fmtPp(0), '±0.0 pp');
  assert.equal(fmtPp(0.0004), '±0.0 pp');
  assert.equal(fmtPp(-0.0004), '±0.0 pp');
  assert.equal(fmtPp(0.01234, 2), '+1.23 pp');
  assert.equal(fmtPp(null), '—');
  assert.equal(fmtPp(NaN, 1, 'n/a'), 'n/a');
});

test('fmtPpSigned: "−" for a minus, "±" only for exactly 0, the size alone unsigned', () => {
  assert.equal(fmtPpSigned(0.032), '+3.2 pp');
  assert.equal(fmtPpSigned(-0.005), '−0.5 pp');
  assert.equal(fmtPpSigned(0), '±0.0 pp');
  // not rounded first: a tiny shift keeps its sign
  assert.equal(fmtPpSigned(0.0004), '+0.0 pp');
  assert.equal(fmtPpSigned(-0.0004), '−0.0 pp');
  assert.equal(fmtPpSigned(-0.01234, 2), '−1.23 pp');
  assert.equal(fmtPpSigned(-0.005, 2, MISSING.text, false), '0.50 pp');
  for (const v of [null, undefined, NaN, -Infinity]) assert.equal(fmtPpSigned(v), 'n/a');
  assert.equal(fmtPpSigned(null, 1, MISSING.report), '—');
});

test('fmtRatio and fmtJs: two and three decimals', () => {
  assert.equal(fmtRatio(0.734), '0.73');
  assert.equal(fmtRatio(1), '1.00');
  assert.equal(fmtRatio(null), '—');
  assert.equal(fmtRatio(NaN, MISSING.text), 'n/a');
  assert.equal(fmtJs(0.12345), '0.123');
  assert.equal(fmtJs(0), '0.000');
  assert.equal(fmtJs(undefined), '—');
  assert.equal(jsText(0.0456), '0.046');
  assert.equal(jsText(null), 'n/a');
});

test('byCodeUnit: UTF-16 code-unit order, not the locale', () => {
  assert.deepEqual(['b', 'é', 'a', 'Z', 'B', '10', '9'].sort(byCodeUnit), ['10', '9', 'B', 'Z', 'a', 'b', 'é']);
  assert.equal(byCodeUnit('x', 'x'), 0);
});
