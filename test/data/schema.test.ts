// Kind inference, overrides, the missing-value policies and their counts, category limits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMissing, parseNumber } from '../../src/data/cells.js';
import { TableBuilder, type SchemaOptions } from '../../src/data/schema.js';
import type { CategoricalColumn, NumericColumn } from '../../src/data/table.js';

/** Builds from CSV-ish text (comma-split, header on line 1). */
function build(text: string, opts: SchemaOptions = {}) {
  const [head, ...rows] = text.trim().split('\n');
  const b = new TableBuilder('t.csv', head.split(','), opts);
  rows.forEach((r, i) => b.addRow(r.split(','), i + 2));
  return b.finish();
}
const num = (r: ReturnType<typeof build>, j: number) => r.table.columns[j] as NumericColumn;
const cat = (r: ReturnType<typeof build>, j: number) => r.table.columns[j] as CategoricalColumn;
const labels = (c: CategoricalColumn) => Array.from(c.codes, (k) => c.categories[k]);
const fails = (fn: () => unknown, message: string) =>
  assert.throws(fn, (e: Error & { code?: string }) => {
    assert.equal(e.code, 'E_INPUT');
    assert.equal(e.message, message);
    return true;
  });

describe('cells', () => {
  it('missing tokens, compared after trimming', () => {
    for (const s of ['', '?', 'NA', 'NaN', 'null', 'None', ' ? ', '  ']) assert.ok(isMissing(s), JSON.stringify(s));
    for (const s of ['na', 'n/a', '-', '0', 'NULL']) assert.ok(!isMissing(s), s);
  });

  it('numbers are finite decimals only', () => {
    for (const [s, v] of [
      ['1', 1],
      ['-0.5', -0.5],
      ['+2', 2],
      ['.5', 0.5],
      ['5.', 5],
      ['1e3', 1000],
      ['1.5E-3', 0.0015],
    ] as const)
      assert.equal(parseNumber(s), v, s);
    for (const s of ['0x10', 'Infinity', '1,5', '1 000', '1e999', '5%', 'one', ''])
      assert.ok(Number.isNaN(parseNumber(s)), s);
  });
});

describe('kind inference and overrides', () => {
  it('numeric when every non-missing cell is a number, else categorical (labels trimmed, first-seen order)', () => {
    const r = build('age,sex,zip\n39, Male,1234\n41,Female ,1234\n40,Male,x1\n');
    assert.deepEqual(Array.from(num(r, 0).values), [39, 41, 40]);
    assert.deepEqual(cat(r, 1).categories, ['Male', 'Female']);
    assert.deepEqual(labels(cat(r, 2)), ['1234', '1234', 'x1']);
  });

  it('--categorical keeps numbers as labels; --numeric makes a non-number an error naming line, column, value', () => {
    const r = build('code,v\n01,1\n1,2\n01,3\n', { categorical: ['code'] });
    assert.deepEqual(cat(r, 0).categories, ['01', '1']);
    fails(
      () => build('a,v\n1,2\n3,x\n', { numeric: ['v'] }),
      't.csv: line 3, column "v": "x" is not a number, but --numeric names this column',
    );
  });

  it('an all-missing column is categorical', () => {
    const r = build('a,b\n1,?\n2,?\n');
    assert.equal(r.table.columns[1].kind, 'categorical');
  });

  it('--drop removes columns; options naming absent columns list the columns that exist', () => {
    const r = build('a,b,c\n1,2,3\n4,5,6\n', { drop: ['b'] });
    assert.deepEqual(
      r.table.columns.map((c) => c.name),
      ['a', 'c'],
    );
    assert.throws(
      () => build('a,b\n1,2\n', { categorical: ['z'] }),
      (e: Error & { code?: string }) =>
        e.code === 'E_ARG' && e.message === 't.csv: --categorical "z" is not a column; the columns are: a, b',
    );
  });

  it('keep reads only the columns it names (less --drop); an unknown name gets the did-you-mean error', () => {
    const r = build('age,sex,income\n1,M,3\n4,F,6\n', { keep: ['income', 'age'] });
    assert.deepEqual(
      r.table.columns.map((c) => c.name),
      ['age', 'income'],
    );
    assert.deepEqual(
      build('a,b,c\n1,2,3\n', { keep: ['a', 'b'], drop: ['b'] }).table.columns.map((c) => c.name),
      ['a'],
    );
    assert.throws(
      () => build('age,sex\n1,M\n', { keep: ['agee'] }),
      (e: Error & { code?: string }) =>
        e.code === 'E_ARG' &&
        e.message === 't.csv: keep "agee" is not a column (did you mean "age"?); the columns are: age, sex',
    );
    fails(
      () => build('a,b\n1,2\n', { keep: ['a'], drop: ['a'] }),
      't.csv: keep names no column that --drop leaves (a, b)',
    );
  });

  it('a ragged row names its line and both field counts', () => {
    fails(
      () => build('a,b\n1,2\n3\n'),
      't.csv: line 3 has 1 field, expected 2; a value holding the delimiter must be quoted',
    );
  });
});

describe('missing-value policies', () => {
  const text = 'age,sex,income\n39,Male,1\n?,Female,2\n41,?,3\n42,NA,\n43,Female,5\n';

  it('keep: rows with a missing number are dropped, a missing label is its own category', () => {
    const r = build(text);
    assert.equal(r.table.rows, 3);
    assert.deepEqual(Array.from(num(r, 0).values), [39, 41, 43]);
    assert.deepEqual(labels(cat(r, 1)), ['Male', '?', 'Female']);
    // 'NA' only occurred in a dropped row, so it is not a category
    assert.deepEqual(cat(r, 1).categories, ['Male', 'Female', '?']);
    assert.deepEqual(r.missing, {
      policy: 'keep',
      cells: 4,
      rowsDropped: 2,
      firstDroppedLines: [3, 5],
      columns: [
        { name: 'age', kind: 'numeric', cells: 1, firstLine: 3, rowsDropped: 1, keptAs: [] },
        { name: 'sex', kind: 'categorical', cells: 2, firstLine: 4, rowsDropped: 0, keptAs: ['?', 'NA'] },
        { name: 'income', kind: 'numeric', cells: 1, firstLine: 5, rowsDropped: 1, keptAs: [] },
      ],
    });
  });

  it('drop: every row with a missing cell goes', () => {
    const r = build(text, { missing: 'drop' });
    assert.deepEqual(Array.from(num(r, 0).values), [39, 43]);
    assert.equal(r.missing.rowsDropped, 3);
    assert.deepEqual(r.missing.firstDroppedLines, [3, 4, 5]);
    assert.deepEqual(
      r.missing.columns.map((c) => [c.name, c.cells, c.rowsDropped]),
      [
        ['age', 1, 1],
        ['sex', 2, 2],
        ['income', 1, 1],
      ],
    );
  });

  it('error: stops at the first missing cell', () => {
    fails(() => build(text, { missing: 'error' }), 't.csv: line 3, column "age": missing value "?" (--missing error)');
    fails(
      () => build('a,b\n1,\n', { missing: 'error' }),
      't.csv: line 2, column "b": missing value "" (--missing error)',
    );
  });
});

describe('category limits and warnings', () => {
  it('a categorical column over maxCategories is an error that suggests --drop or grouping', () => {
    fails(
      () => build('id,v\na,1\nb,2\nc,3\n', { maxCategories: 2 }),
      't.csv: column "id" has more than 2 distinct values (the 3rd, "c", is on line 4); an identifier or free text ' +
        'cannot be a category: remove it with --drop id, group its values into fewer categories, or raise ' +
        '--max-categories',
    );
  });

  it('a numeric column may have any number of distinct values', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i * 0.5},${i % 3}`).join('\n');
    const r = build(`x,g\n${rows}\n`, { maxCategories: 10 });
    assert.equal(r.table.rows, 5000);
    assert.equal(num(r, 0).values[4999], 2499.5);
    assert.equal(r.table.columns[1].kind, 'numeric');
  });

  it('a single-valued column is a warning saying the GAN excludes it', () => {
    const r = build('a,b\n1,x\n2,x\n');
    assert.deepEqual(r.warnings, [
      't.csv: column "b" has the single value "x" in every row; the GAN will exclude it (it carries no information)',
    ]);
  });
});
