// The classifier's preprocessing: reference order and names, min-max to [−1, 1] fitted on the table
// given (the training split) only, the encode/decode round trip, serialisation, and the errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../src/engine/errors.js';
import { Preprocessor } from '../../src/models/classifier/preprocess.js';
import { cat, num, table } from '../helpers/tables.js';

// colour's dictionary is in first-seen order and holds a label no row uses ("violet")
const train = table(
  cat('colour', ['red', 'blue', 'red', 'green'], ['red', 'blue', 'green', 'violet']),
  num('age', [20, 30, 40, 60]),
  cat('sex', ['M', 'F', 'F', 'M']),
  num('hours', [10, 10, 10, 10]),
  cat('label', ['y', 'n', 'n', 'y']),
);
const features = ['colour', 'age', 'sex', 'hours'];

describe('Preprocessor', () => {
  it(
    'numeric features first, then one-hot groups in feature order, categories sorted; the dictionary decides the ' +
      'width',
    () => {
      const p = Preprocessor.fit(train, features);
      assert.deepEqual(p.features, features);
      assert.equal(p.dim, 2 + 4 + 2);
      assert.deepEqual(p.columnNames, [
        'age',
        'hours',
        'colour+blue',
        'colour+green',
        'colour+red',
        'colour+violet',
        'sex+F',
        'sex+M',
      ]);
      assert.deepEqual(
        p.groups.map((g) => [g.name, g.kind, g.start, g.width]),
        [
          ['age', 'numeric', 0, 1],
          ['hours', 'numeric', 1, 1],
          ['colour', 'categorical', 2, 4],
          ['sex', 'categorical', 6, 2],
        ],
      );
      assert.deepEqual([p.groups[0].min, p.groups[0].max], [20, 60]);
    },
  );

  it('encodes min-max to [−1, 1] (a constant column to −1) and one-hot', () => {
    const p = Preprocessor.fit(train, features);
    const x = p.encode(train);
    assert.deepEqual(Array.from(x.subarray(0, 8)), [-1, -1, 0, 0, 1, 0, 0, 1]);
    assert.deepEqual(Array.from(x.subarray(8, 16)), [-0.5, -1, 1, 0, 0, 0, 1, 0]);
    assert.equal(x[3 * 8], 1);
  });

  it('the scaling is fitted on the table given only: other tables may fall outside [−1, 1]', () => {
    const p = Preprocessor.fit(train, features);
    const test = table(
      cat('colour', ['green', 'blue']),
      num('age', [10, 100]),
      cat('sex', ['F', 'M']),
      num('hours', [10, 12]),
      cat('label', ['n', 'y']),
    );
    const x = p.encode(test);
    assert.equal(x[0], -1.5); // age 10 → (10 − 20)·2/40 − 1
    assert.equal(x[8], 3.0); // age 100
    assert.equal(x[1], -1);
    assert.equal(x[9], 3); // hours: a range of 0 is treated as 1 (scikit-learn), so 12 → (12 − 10)·2/1 − 1
  });

  it('decode inverts encode: numerics in original units, categoricals by arg-max, feature order', () => {
    const p = Preprocessor.fit(train, features);
    const t = p.decode(p.encode(train), 4);
    assert.deepEqual(
      t.columns.map((c) => c.name),
      features,
    );
    const age = t.columns[1];
    assert.ok(age.kind === 'numeric');
    assert.deepEqual(Array.from(age.values), [20, 30, 40, 60]);
    const colour = t.columns[0];
    assert.ok(colour.kind === 'categorical');
    assert.deepEqual(
      Array.from(colour.codes, (k) => colour.categories[k]),
      ['red', 'blue', 'red', 'green'],
    );
    // soft inputs: the arg-max wins; numerics leave the range unclipped; round uses the fitted decimals
    const soft = Float32Array.from([0.123, 0, 0.2, 0.7, 0.1, 0.3, 0.6, 0.4]);
    const s = p.decode(soft, 1);
    assert.ok(s.columns[0].kind === 'categorical' && s.columns[0].codes[0] === 1);
    assert.ok(s.columns[1].kind === 'numeric' && Math.abs(s.columns[1].values[0] - (20 + (1.123 / 2) * 40)) < 1e-5);
    const r = p.decode(soft, 1, { round: true });
    assert.ok(r.columns[1].kind === 'numeric' && r.columns[1].values[0] === 42);
  });

  it('reads numbers stored as labels and labels stored as numbers', () => {
    const p = Preprocessor.fit(table(num('age', [1, 3]), cat('code', ['5', '7'])), ['age', 'code']);
    const other = table(cat('age', ['2', '3']), num('code', [7, 5]));
    assert.deepEqual(Array.from(p.encode(other)), [0, 0, 1, 1, 1, 0]);
  });

  it('toJSON / fromJSON round trip', () => {
    const p = Preprocessor.fit(train, features);
    const q = Preprocessor.fromJSON(JSON.parse(JSON.stringify(p.toJSON())), 'm.json');
    assert.deepEqual(q.groups, p.groups);
    assert.deepEqual(Array.from(q.encode(train)), Array.from(p.encode(train)));
  });

  it('errors: unseen category, missing columns, NaN, missing label, non-number', () => {
    const p = Preprocessor.fit(train, features);
    const err = (fn: () => unknown, msg: string) =>
      assert.throws(fn, (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && e.message === msg);
    const other = (colour: string[], age: number[]) =>
      table(cat('colour', colour), num('age', age), cat('sex', ['F', 'M']), num('hours', [1, 2]));
    err(
      () => p.encode(other(['red', 'pink'], [1, 2]), 'new.csv'),
      'new.csv: column "colour", row 2: category "pink" was not seen in training (known: blue, green, red, violet)',
    );
    err(
      () => p.encode(other(['red', 'red'], [1, NaN])),
      'encode: column "age", row 2: missing value (NaN); a model needs a number in every row',
    );
    err(
      () => p.encode(table(num('age', [1]), cat('x', ['a']))),
      'encode: the data lacks the columns "colour", "sex", "hours"; the columns are: age, x',
    );
    err(
      () =>
        p.encode({
          rows: 1,
          columns: [
            { kind: 'categorical', name: 'colour', codes: Int32Array.of(-1), categories: ['red'] },
            num('age', [1]),
            cat('sex', ['F']),
            num('hours', [1]),
          ],
        }),
      'encode: column "colour", row 1: missing value',
    );
    err(
      () => p.encode(table(cat('colour', ['red']), cat('age', ['old']), cat('sex', ['F']), num('hours', [1]))),
      'encode: column "age", row 1: "old" is not a number, and the model reads this column as numbers',
    );
    err(
      () => Preprocessor.fit(table(num('age', [1, NaN])), ['age']),
      'preprocess: column "age", row 2: missing value (NaN); a model needs a number in every row',
    );
  });

  it('fromJSON names the bad field', () => {
    const good = Preprocessor.fit(train, features).toJSON() as { groups: Record<string, unknown>[] };
    const bad = (mutate: (o: { features: unknown; groups: Record<string, unknown>[] }) => void, msg: string) => {
      const o = JSON.parse(JSON.stringify(good));
      mutate(o);
      assert.throws(
        () => Preprocessor.fromJSON(o, 'm.json'),
        (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && e.message === msg,
      );
    };
    bad((o) => (o.features = []), 'm.json: field "preprocessor.features" must be a non-empty array of column names');
    bad((o) => (o.groups[0].max = 'x'), 'm.json: field "preprocessor.groups[0].max" must be a finite number ≥ min');
    bad(
      (o) => (o.groups[2].width = 3),
      'm.json: field "preprocessor.groups[2].width" must be 4 (the number of categories)',
    );
    bad((o) => (o.groups[3].start = 7), 'm.json: field "preprocessor.groups[3].start" must be 6');
    bad((o) => o.groups.pop(), 'm.json: field "preprocessor.groups" must be an array of 4 groups (one per feature)');
    bad(
      (o) => (o.groups[1].kind = 'ordinal'),
      'm.json: field "preprocessor.groups[1].kind" must be "numeric" or "categorical"',
    );
  });
});
