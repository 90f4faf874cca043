// Adult's derived targets (hours, hours3) and COMPAS's decile_score kept beside the label, on small hand-made tables
// (always run); the same on the real files under LUCID_DATA_DIR, skipped with the reason when they are absent.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../src/engine/errors.js';
import {
  ADULT_COLUMNS,
  ADULT_TARGETS,
  adultTargetTable,
  COMPAS_FEATURES,
  compasDataset,
  type Dataset,
  HOURS_CLASSES,
  prepareCompas,
} from '../../src/data/datasets.js';
import {
  type CategoricalColumn,
  type Column,
  getColumn,
  type NumericColumn,
  type Table,
} from '../../src/data/table.js';
import { datasetAvailability, loadAdult, loadCompas } from '../../src/node/datasets.js';

const labelsOf = (t: Table, name: string): string[] => {
  const c = getColumn(t, name) as CategoricalColumn;
  return Array.from(c.codes, (k) => c.categories[k]);
};
const numbersOf = (t: Table, name: string): number[] => Array.from((getColumn(t, name) as NumericColumn).values);

/** An Adult-shaped table in a naming: every column numeric 0 but Hours per week and the income label. */
function adultTable(naming: 'reference' | 'uci', hours: number[]): Table {
  const columns = ADULT_COLUMNS.map((spec): Column => {
    const name = spec[naming];
    if (spec.uci === 'hours-per-week') return { kind: 'numeric', name, values: Float64Array.from(hours) };
    if (spec.uci === 'income')
      return {
        kind: 'categorical',
        name,
        codes: Int32Array.from(hours, (_, i) => i % 2),
        categories: ['<=50K', '>50K'],
      };
    return { kind: 'numeric', name, values: new Float64Array(hours.length) };
  });
  return { rows: hours.length, columns };
}

describe("Adult's derived targets", () => {
  const hours = [20, 34, 35, 40, 45, 46, 99, 1];

  it('income returns the table as it is', () => {
    const t = adultTable('reference', hours);
    assert.equal(adultTargetTable(t, 'income'), t);
  });

  it('hours: Hours per week leaves the features and is the label, last; Income stays as a feature', () => {
    for (const naming of ['reference', 'uci'] as const) {
      const t = adultTargetTable(adultTable(naming, hours), 'hours', naming);
      const names = ADULT_COLUMNS.map((c) => c[naming]);
      const hoursName = ADULT_TARGETS.hours.label[naming];
      assert.deepEqual(
        t.columns.map((c) => c.name),
        [...names.filter((n) => n !== hoursName), hoursName],
      );
      assert.deepEqual(numbersOf(t, hoursName), hours);
    }
  });

  it('hours3: part-time under 35, full-time 35 to 45, long over 45, sorted dictionary, Hours per week gone', () => {
    for (const naming of ['reference', 'uci'] as const) {
      const t = adultTargetTable(adultTable(naming, hours), 'hours3', naming);
      const label = ADULT_TARGETS.hours3.label[naming];
      assert.equal(t.columns.at(-1)!.name, label);
      assert.ok(!t.columns.some((c) => c.name === ADULT_TARGETS.hours.label[naming]));
      assert.equal(t.columns.length, ADULT_COLUMNS.length);
      assert.deepEqual(labelsOf(t, label), [
        'part-time',
        'part-time',
        'full-time',
        'full-time',
        'full-time',
        'long',
        'long',
        'part-time',
      ]);
      // the dictionary holds every class even when a table lacks one
      assert.deepEqual(
        (getColumn(adultTargetTable(adultTable(naming, [40]), 'hours3', naming), label) as CategoricalColumn)
          .categories,
        ['full-time', 'long', 'part-time'],
      );
    }
    assert.deepEqual(
      HOURS_CLASSES.map((c) => c.name),
      ['part-time', 'full-time', 'long'],
    );
    assert.match(ADULT_TARGETS.hours3.audit, /--class-order long,full-time,part-time/);
  });

  it('names the valid targets and a missing hours column', () => {
    const t = adultTable('reference', hours);
    assert.throws(
      () => adultTargetTable(t, 'age' as 'hours'),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'E_ARG' &&
        /target must be one of income, hours, hours3, got age/.test(e.message),
    );
    // a uci table read with the reference's names has no "Hours per week"
    assert.throws(
      () => adultTargetTable(adultTable('uci', hours), 'hours3', 'reference'),
      (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && /"Hours per week"/.test(e.message),
    );
  });
});

describe("COMPAS's decile_score beside the label", () => {
  // the ProPublica header names decile_score twice: the first is kept, like pandas
  const names = [
    'id',
    'sex',
    'age_cat',
    'race',
    'priors_count',
    'days_b_screening_arrest',
    'c_charge_degree',
    'is_recid',
    'score_text',
    'decile_score',
    'decile_score',
    'two_year_recid',
  ];
  const rows = [
    [1, 'Male', 'Greater than 45', 'Other', 0, -1, 'F', 0, 'Low', 1, 9, 0],
    [2, 'Male', '25 - 45', 'Asian', 0, 31, 'F', 1, 'Low', 2, 9, 1], // days 31: out
    [3, 'Female', 'Less than 25', 'Asian', 4, 30, 'M', 1, 'High', 8, 9, 1],
    [8, 'Male', '25 - 45', 'Asian', 7, 2, 'M', 0, 'Medium', 5, 9, 1],
  ];
  const raw = (cols = names): Table => ({
    rows: rows.length,
    columns: cols.map((name, j): Column => {
      if (typeof rows[0][j] === 'number')
        return { kind: 'numeric', name, values: Float64Array.from(rows, (r) => Number(r[j])) };
      const categories = [...new Set(rows.map((r) => String(r[j])))];
      return {
        kind: 'categorical',
        name,
        codes: Int32Array.from(rows, (r) => categories.indexOf(String(r[j]))),
        categories,
      };
    }),
  });

  it('keeps the first decile_score for the filtered rows, apart from the features and the label', () => {
    const p = prepareCompas(raw());
    assert.deepEqual(
      p.table.columns.map((c) => c.name),
      [...COMPAS_FEATURES, 'two_year_recid'],
    );
    assert.deepEqual(numbersOf(p.extra, 'decile_score'), [1, 8, 5]);
    const d = compasDataset(p, { n: 3, ids: [1, 3, 8], train: [2, 0], val: [1], test: [] });
    assert.deepEqual(numbersOf(d.extra!.splits.train, 'decile_score'), [5, 1]);
    assert.deepEqual(numbersOf(d.extra!.splits.val, 'decile_score'), [8]);
    assert.equal(d.extra!.splits.test.rows, 0);
    assert.deepEqual(d.features, COMPAS_FEATURES);
  });

  it('a file without decile_score gives no extra columns', () => {
    const without = raw().columns.filter((c) => c.name !== 'decile_score');
    const p = prepareCompas({ rows: rows.length, columns: without });
    assert.equal(p.extra.columns.length, 0);
    assert.equal(compasDataset(p, { n: 3, ids: [1, 3, 8], train: [0, 1, 2], val: [], test: [] }).extra, undefined);
  });
});

describe('the targets on the real files', () => {
  const adult = datasetAvailability('adult');
  const compas = datasetAvailability('compas');
  let a: Dataset;
  let c: Dataset;
  before(async () => {
    if (adult.available) a = await loadAdult();
    if (compas.available) c = await loadCompas();
  });

  it('Adult test split: hours3 classes from Hours per week, counts that add up', (t) => {
    if (!adult.available) return t.skip(`Adult data absent: ${adult.reason}`);
    const h = numbersOf(a.splits.test, 'Hours per week');
    const t3 = adultTargetTable(a.splits.test, 'hours3');
    const classes = labelsOf(t3, 'Hours class');
    const count = (p: (x: number) => boolean) => h.filter(p).length;
    const n = (k: string) => classes.filter((x) => x === k).length;
    assert.equal(
      n('part-time'),
      count((x) => x < 35),
    );
    assert.equal(
      n('full-time'),
      count((x) => x >= 35 && x <= 45),
    );
    assert.equal(
      n('long'),
      count((x) => x > 45),
    );
    assert.equal(t3.rows, 15060);
    // measured on the UCI test file: 2334 / 9295 / 3431
    assert.deepEqual([n('part-time'), n('full-time'), n('long')], [2334, 9295, 3431]);
  });

  it('COMPAS: decile_score 1–10 on every one of the 6172 rows, the default features unchanged', (t) => {
    if (!compas.available) return t.skip(`COMPAS data absent: ${compas.reason}`);
    assert.ok(c.extra, 'the ProPublica file has decile_score');
    const d = numbersOf(c.extra.source, 'decile_score');
    assert.equal(d.length, 6172);
    assert.ok(d.every((x) => Number.isInteger(x) && x >= 1 && x <= 10));
    assert.equal(c.extra.splits.test.rows, 1235);
    assert.deepEqual(c.features, COMPAS_FEATURES);
    for (const split of Object.values(c.splits)) assert.ok(!split.columns.some((x) => x.name === 'decile_score'));
  });
});
