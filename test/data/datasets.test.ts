// Adult and COMPAS: the reference preprocessing on small hand-made tables (always runs), then the
// loaders on the real files under LUCID_DATA_DIR (skipped, saying why, when the data is absent),
// then the UCI file variants (no header line, the "|1x3 Cross validator" line) on generated files.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { numpyPermutation } from '../../src/data/reference-split.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../../src/engine/errors.js';
import {
  ADULT_COLUMNS,
  adultDataset,
  adultNames,
  COMPAS_FEATURES,
  compasDataset,
  type Dataset,
  parseSplitIndices,
  prepareAdult,
  prepareCompas,
  recomputedAdultSplit,
  recomputedCompasSplit,
  splitText,
} from '../../src/data/datasets.js';
import {
  type CategoricalColumn,
  type Column,
  getColumn,
  type NumericColumn,
  type Table,
} from '../../src/data/table.js';
import { datasetAvailability, loadAdult, loadCompas, readAdultFiles, resolveDataDir } from '../../src/node/datasets.js';

// ── helpers ──────────────────────────────────────────────────────────────────────────────────────

/** A raw table as a reader with first-seen dictionaries would produce it; numbers stay text when asked. */
function rawTable(
  names: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  numeric: ReadonlySet<string>,
): Table {
  const columns = names.map((name, j): Column => {
    if (numeric.has(name))
      return {
        kind: 'numeric',
        name,
        values: Float64Array.from(rows, (r) => (r[j] === '?' || r[j] === '' ? NaN : Number(r[j]))),
      };
    const categories: string[] = [];
    const codes = Int32Array.from(rows, (r) => {
      const s = String(r[j]);
      let k = categories.indexOf(s);
      if (k < 0) k = categories.push(s) - 1;
      return k;
    });
    return { kind: 'categorical', name, codes, categories };
  });
  return { rows: rows.length, columns };
}

const labelsOf = (t: Table, name: string): string[] => {
  const c = getColumn(t, name) as CategoricalColumn;
  return Array.from(c.codes, (k) => c.categories[k]);
};
const isInputError = (re: RegExp) => (e: unknown) =>
  e instanceof EngineError && e.code === 'E_INPUT' && re.test(e.message);

const ADULT_NUMERIC = new Set(ADULT_COLUMNS.filter((c) => c.kind === 'numeric').map((c) => c.uci));
const UCI = ADULT_COLUMNS.map((c) => c.uci);
// five people, written as the UCI files write them (leading spaces after ", " included)
const ADULT_ROWS = [
  [
    39,
    ' State-gov',
    77516,
    ' Bachelors',
    13,
    ' Never-married',
    ' Adm-clerical',
    ' Not-in-family',
    ' White',
    ' Male',
    2174,
    0,
    40,
    ' United-States',
    ' <=50K',
  ],
  [
    50,
    ' Self-emp-not-inc',
    83311,
    ' Bachelors',
    13,
    ' Married-civ-spouse',
    ' Exec-managerial',
    ' Husband',
    ' White',
    ' Male',
    0,
    0,
    13,
    ' United-States',
    ' >50K',
  ],
  [
    38,
    ' Private',
    215646,
    ' HS-grad',
    9,
    ' Divorced',
    ' Handlers-cleaners',
    ' Not-in-family',
    ' White',
    ' Male',
    0,
    0,
    40,
    ' ?',
    ' <=50K',
  ],
  [
    53,
    ' Private',
    234721,
    ' 11th',
    7,
    ' Married-civ-spouse',
    ' Handlers-cleaners',
    ' Husband',
    ' Black',
    ' Male',
    0,
    0,
    40,
    ' Holand-Netherlands',
    ' <=50K',
  ],
  [
    28,
    ' Private',
    338409,
    ' Bachelors',
    13,
    ' Married-civ-spouse',
    ' Prof-specialty',
    ' Wife',
    ' Black',
    ' Female',
    0,
    0,
    40,
    ' Cuba',
    ' <=50K',
  ],
];
const ADULT_TEST_ROWS = [
  [
    25,
    'Private',
    226802,
    '11th',
    7,
    'Never-married',
    'Machine-op-inspct',
    'Own-child',
    'Black',
    'Male',
    0,
    0,
    40,
    'United-States',
    '<=50K.',
  ],
  [
    44,
    '?',
    160323,
    'Some-college',
    10,
    'Married-civ-spouse',
    '?',
    'Husband',
    'Black',
    'Male',
    7688,
    0,
    40,
    'United-States',
    '>50K.',
  ],
  [
    38,
    'Private',
    89814,
    'HS-grad',
    9,
    'Married-civ-spouse',
    'Farming-fishing',
    'Husband',
    'White',
    'Male',
    0,
    0,
    50,
    'United-States',
    '>50K.',
  ],
];

// ── the reference preprocessing on small tables ──────────────────────────────────────────────────

describe('Adult preprocessing', () => {
  const prepared = () =>
    prepareAdult({
      train: rawTable(UCI, ADULT_ROWS, ADULT_NUMERIC),
      test: rawTable(UCI, ADULT_TEST_ROWS, ADULT_NUMERIC),
    });

  it("drops rows with '?', trims the ', ' spaces and strips the '.' from test labels", () => {
    const p = prepared();
    assert.equal(p.train.rows, 4);
    assert.equal(p.test.rows, 2);
    assert.deepEqual(p.dropped, { train: 1, test: 1 });
    assert.deepEqual(labelsOf(p.train, 'Income'), ['<=50K', '>50K', '<=50K', '<=50K']);
    assert.deepEqual(labelsOf(p.test, 'Income'), ['<=50K', '>50K']);
    assert.deepEqual(Array.from((getColumn(p.train, 'Age') as NumericColumn).values), [39, 50, 53, 28]);
  });

  it('uses the reference names by default and UCI names on request, features then label', () => {
    const p = prepared();
    assert.deepEqual(
      p.train.columns.map((c) => c.name),
      [
        'Age',
        'Workclass',
        'fnlwgt',
        'Education',
        'Education-Num',
        'Martial Status',
        'Occupation',
        'Relationship',
        'Race',
        'Sex',
        'Capital Gain',
        'Capital Loss',
        'Hours per week',
        'Country',
        'Income',
      ],
    );
    const u = prepareAdult(
      { train: rawTable(UCI, ADULT_ROWS, ADULT_NUMERIC), test: rawTable(UCI, ADULT_TEST_ROWS, ADULT_NUMERIC) },
      { naming: 'uci' },
    );
    assert.deepEqual(
      u.train.columns.map((c) => c.name),
      UCI,
    );
    assert.deepEqual(adultNames('uci').protected, ['race', 'sex', 'marital-status', 'relationship']);
    assert.deepEqual(adultNames().protected, ['Race', 'Sex', 'Martial Status', 'Relationship']);
  });

  it('shares one sorted dictionary per column between train and test (get_dummies over both)', () => {
    const p = prepared();
    for (const t of [p.train, p.test]) {
      assert.deepEqual((getColumn(t, 'Country') as CategoricalColumn).categories, [
        'Cuba',
        'Holand-Netherlands',
        'United-States',
      ]);
      assert.deepEqual((getColumn(t, 'Education') as CategoricalColumn).categories, ['11th', 'Bachelors', 'HS-grad']);
      assert.deepEqual((getColumn(t, 'Income') as CategoricalColumn).categories, ['<=50K', '>50K']);
    }
    assert.deepEqual(labelsOf(p.test, 'Country'), ['United-States', 'United-States']);
  });

  it('accepts numeric columns a reader kept as text, and says which cell is not a number', () => {
    const asText = prepareAdult({
      train: rawTable(UCI, ADULT_ROWS, new Set()),
      test: rawTable(UCI, ADULT_TEST_ROWS, new Set()),
    });
    assert.deepEqual(
      Array.from((getColumn(asText.train, 'fnlwgt') as NumericColumn).values),
      [77516, 83311, 234721, 338409],
    );
    const bad = ADULT_ROWS.map((r) => r.slice());
    bad[1][2] = 'lots';
    assert.throws(
      () =>
        prepareAdult(
          { train: rawTable(UCI, bad, new Set()), test: rawTable(UCI, ADULT_TEST_ROWS, ADULT_NUMERIC) },
          { where: { train: 'x/adult.data', test: 'x/adult.test' } },
        ),
      isInputError(/^x\/adult\.data: column "fnlwgt", row 2 of the table read: "lots" is not a number$/),
    );
  });

  it('rejects a wrong column count and an unknown label, naming the file', () => {
    const short = rawTable(
      UCI.slice(0, 14),
      ADULT_ROWS.map((r) => r.slice(0, 14)),
      ADULT_NUMERIC,
    );
    assert.throws(
      () => prepareAdult({ train: short, test: rawTable(UCI, ADULT_TEST_ROWS, ADULT_NUMERIC) }),
      isInputError(/^adult\.data: expected 15 columns .* found 14$/),
    );
    const odd = ADULT_TEST_ROWS.map((r) => r.slice());
    odd[0][14] = 'rich';
    assert.throws(
      () => prepareAdult({ train: rawTable(UCI, ADULT_ROWS, ADULT_NUMERIC), test: rawTable(UCI, odd, ADULT_NUMERIC) }),
      isInputError(/^adult\.test: the income label "rich" is neither <=50K nor >50K/),
    );
    assert.throws(
      () => adultNames('pandas' as never),
      (e: unknown) => e instanceof EngineError && e.code === 'E_ARG',
    );
  });
});

describe('COMPAS preprocessing', () => {
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
    'priors_count',
    'two_year_recid',
  ];
  const rows = [
    [1, 'Male', 'Greater than 45', 'Other', 0, -1, 'F', 0, 'Low', 0, 0],
    // no days_b: dropped, as pandas' NaN comparison does
    [2, 'Male', '25 - 45', 'African-American', 0, '', 'F', 1, 'Low', 0, 1],
    [3, 'Female', 'Less than 25', 'African-American', 4, 30, 'M', 1, 'Low', 4, 1],
    [4, 'Male', 'Less than 25', 'Caucasian', 1, 31, 'F', 0, 'Medium', 1, 0], // days 31: out
    [5, 'Male', '25 - 45', 'Caucasian', 2, -30, 'O', 0, 'High', 2, 0], // ordinary traffic offence: out
    [6, 'Female', '25 - 45', 'Hispanic', 3, 0, 'F', -1, 'High', 3, 0], // is_recid −1: out
    [7, 'Male', '25 - 45', 'Asian', 5, 2, 'M', 0, 'N/A', 5, 0], // no score: out
    [8, 'Male', '25 - 45', 'Asian', 7, 2, 'M', 0, 'High', 7, 1],
  ];
  const raw = () =>
    rawTable(names, rows, new Set(['id', 'priors_count', 'days_b_screening_arrest', 'is_recid', 'two_year_recid']));

  it('applies the ProPublica filter and keeps the five features and the label, sorted', () => {
    const p = prepareCompas(raw());
    assert.deepEqual(Array.from(p.ids), [1, 3, 8]);
    assert.equal(p.rawRows, 8);
    assert.deepEqual(
      p.table.columns.map((c) => `${c.name}:${c.kind}`),
      [
        ...COMPAS_FEATURES.map((f) => `${f}:${f === 'priors_count' ? 'numeric' : 'categorical'}`),
        'two_year_recid:categorical',
      ],
    );
    assert.deepEqual((getColumn(p.table, 'race') as CategoricalColumn).categories, [
      'African-American',
      'Asian',
      'Other',
    ]);
    assert.deepEqual(labelsOf(p.table, 'two_year_recid'), ['0', '1', '1']);
    assert.deepEqual(Array.from((getColumn(p.table, 'priors_count') as NumericColumn).values), [0, 4, 7]);
  });

  it('names the missing column and the label problem', () => {
    const t = raw();
    const noRace = { rows: t.rows, columns: t.columns.filter((c) => c.name !== 'race') };
    assert.throws(
      () => prepareCompas(noRace, { where: 'c.csv' }),
      isInputError(/^c\.csv: no column "race" .*; the file has: id, sex/),
    );
    const r2 = rows.map((r) => r.slice());
    r2[0][10] = 2;
    assert.throws(
      () => prepareCompas(rawTable(names, r2, new Set(['id', 'priors_count', 'days_b_screening_arrest', 'is_recid']))),
      isInputError(/two_year_recid must be 0 or 1; found 2/),
    );
  });

  it('splits by the reference positions and refuses rows that are not the reference ones', () => {
    const p = prepareCompas(raw());
    const d = compasDataset(p, { n: 3, ids: [1, 3, 8], train: [2, 0], val: [1], test: [] });
    assert.deepEqual(Array.from((getColumn(d.splits.train, 'priors_count') as NumericColumn).values), [7, 0]);
    assert.equal(d.splits.test.rows, 0);
    assert.equal(d.favourable, '0');
    // an audit reads COMPAS as a risk score: positive = reoffended, the unfavourable outcome
    assert.deepEqual(d.audit, { positive: '1', favourable: 'negative' });
    assert.throws(
      () => compasDataset(p, { n: 3, ids: [1, 4, 8], train: [0, 1, 2], val: [], test: [] }),
      isInputError(/filtered row 1 has id 3, the reference's has id 4/),
    );
    assert.throws(
      () => compasDataset(p, { n: 4, ids: [1, 3, 8, 9], train: [0, 1, 2, 3], val: [], test: [] }),
      isInputError(/keeps 3 of 8 rows, the reference kept 4/),
    );
  });
});

describe('split_indices.json validation', () => {
  const good = () => ({
    adult: { n_train_after_dropna: 3, train: [2, 0], val: [1] },
    compas: { n_filtered: 2, ids_of_filtered_rows: [5, 9], train: [1], val: [], test: [0] },
  });
  it('accepts a partition and rejects overlaps, gaps and bad entries', () => {
    const s = parseSplitIndices(good());
    assert.deepEqual(s.adult, { nTrain: 3, train: [2, 0], val: [1] });
    const overlap = good();
    overlap.adult.val = [0];
    assert.throws(
      () => parseSplitIndices(overlap, 's.json'),
      isInputError(/^s\.json: adult: position 0 appears twice \(in val\)$/),
    );
    const gap = good();
    gap.compas.test = [];
    assert.throws(() => parseSplitIndices(gap), isInputError(/compas: the splits cover 1 of 2 rows/));
    const beyond = good();
    beyond.adult.train = [2, 7];
    assert.throws(() => parseSplitIndices(beyond), isInputError(/adult\.train has position 7, beyond the 3 rows/));
    const text = good() as { adult: { train: unknown[] } };
    text.adult.train = ['2', 0];
    assert.throws(
      () => parseSplitIndices(text),
      isInputError(/adult\.train\[0\] must be a non-negative integer, got "2"/),
    );
    assert.throws(() => parseSplitIndices([]), isInputError(/the file must be an object/));
  });
  it('adultDataset refuses a train file whose row count the splits do not index', () => {
    const p = prepareAdult({
      train: rawTable(UCI, ADULT_ROWS, ADULT_NUMERIC),
      test: rawTable(UCI, ADULT_TEST_ROWS, ADULT_NUMERIC),
    });
    assert.throws(
      () => adultDataset(p, { nTrain: 3, train: [0, 1], val: [2] }),
      isInputError(/4 rows remain after dropping rows with '\?', but the reference splits index 3/),
    );
    const d = adultDataset(p, { nTrain: 4, train: [3, 1], val: [0, 2] });
    assert.deepEqual(labelsOf(d.splits.train, 'Income'), ['<=50K', '>50K']);
    assert.equal(d.splits.test, p.test);
  });
});

// ── the loaders on the real files ────────────────────────────────────────────────────────────────

/** Percentage of `favourable` labels among rows where `column` = `value`, and the row count. */
function baseRate(
  t: Table,
  label: string,
  favourable: string,
  column?: string,
  value?: string,
): { n: number; pct: number } {
  const y = getColumn(t, label) as CategoricalColumn;
  const yes = y.categories.indexOf(favourable);
  const g = column ? (getColumn(t, column) as CategoricalColumn) : null;
  const k = g ? g.categories.indexOf(value!) : -1;
  let n = 0;
  let pos = 0;
  for (let i = 0; i < t.rows; i++) {
    if (g && g.codes[i] !== k) continue;
    n++;
    if (y.codes[i] === yes) pos++;
  }
  return { n, pct: Math.round((1000 * pos) / n) / 10 };
}

const dictionarySizes = (t: Table) =>
  Object.fromEntries(
    t.columns.filter((c) => c.kind === 'categorical').map((c) => [c.name, (c as CategoricalColumn).categories.length]),
  );

describe('the reference split recomputed (split_indices.json absent)', () => {
  it("gives numpy's RandomState(seed).permutation(n), the draw under sklearn's train_test_split", () => {
    const golden = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../test/fixtures/numpy-permutation.json', import.meta.url)), 'utf8'),
    ) as { cases: { seed: number; n: number; permutation: number[] }[] };
    assert.ok(golden.cases.length >= 5);
    for (const c of golden.cases)
      assert.deepEqual(Array.from(numpyPermutation(c.n, c.seed)), c.permutation, `seed ${c.seed}, n ${c.n}`);
  });

  it("equals split_indices.json position for position (Adult's train file, COMPAS's filtered rows)", (t) => {
    const a = datasetAvailability('adult');
    if (!a.files.splits) return t.skip(`split_indices.json absent: ${a.dir}`);
    const ref = parseSplitIndices(JSON.parse(readFileSync(a.files.splits, 'utf8')));
    assert.deepEqual(recomputedAdultSplit(ref.adult.nTrain), ref.adult);
    assert.deepEqual(recomputedCompasSplit(ref.compas.ids), ref.compas);
  });

  it('is said wherever the split is named', () => {
    assert.match(
      splitText({ kind: 'recomputed', seed: 1234 }),
      /the reference split, recomputed \(split_indices\.json absent: train_test_split with seed 1234/,
    );
    assert.match(
      splitText({ kind: 'file', file: '/d/split_indices.json' }),
      /the reference split \(\/d\/split_indices\.json\)/,
    );
  });

  it(
    'loadCompas and loadAdult recompute it, the same rows as the file, when the data folder has no ' +
      'split_indices.json',
    async (t) => {
      const c = datasetAvailability('compas');
      const ad = datasetAvailability('adult');
      if (!c.available || !ad.available || !c.files.splits)
        return t.skip(`Adult, COMPAS or split_indices.json absent: ${c.reason || ad.reason || c.dir}`);
      const dir = mkdtempSync(join(tmpdir(), 'lucid-nosplit-'));
      try {
        mkdirSync(join(dir, 'compas'));
        mkdirSync(join(dir, 'adult'));
        copyFileSync(c.files.data, join(dir, 'compas', 'compas-scores-two-years.csv'));
        copyFileSync(ad.files.train, join(dir, 'adult', 'adult.data'));
        copyFileSync(ad.files.test, join(dir, 'adult', 'adult.test'));
        const x = await loadCompas({ dataDir: dir });
        const ref = await loadCompas();
        assert.deepEqual(x.split, { kind: 'recomputed', seed: 1234 });
        assert.deepEqual(ref.split, { kind: 'file', file: c.files.splits });
        for (const s of ['train', 'val', 'test'] as const) assert.deepEqual(x.splits[s], ref.splits[s]);
        const a = await loadAdult({ dataDir: dir });
        assert.deepEqual(a.split, { kind: 'recomputed', seed: 1234 });
        assert.deepEqual([a.splits.train.rows, a.splits.val.rows, a.splits.test.rows], [24129, 6033, 15060]);
        // files that are not the reference's get the same draw, said to be a seeded split, not the reference's
        writeFileSync(
          join(dir, 'adult', 'adult.data'),
          readFileSync(ad.files.train, 'utf8').split('\n').slice(0, 1001).join('\n') + '\n',
        );
        const cut = await loadAdult({ dataDir: dir });
        assert.equal(cut.split.kind, 'seeded');
        assert.match(
          splitText(cut.split),
          /^a seeded split in the reference's proportions \(seed 1234\), not the reference's: .*adult\.data and .*adult\.test gives \d+ training and 15060 test rows after dropping '\?', the UCI files 30162 and 15060$/,
        );
        const lines = readFileSync(c.files.data, 'utf8').split('\n');
        writeFileSync(join(dir, 'compas', 'compas-scores-two-years.csv'), lines.slice(0, 3001).join('\n') + '\n');
        const cc = await loadCompas({ dataDir: dir });
        assert.equal(cc.split.kind, 'seeded');
        assert.match(splitText(cc.split), /keeps \d+ rows after the ProPublica filter, the reference 6172$/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('loadAdult on the UCI files', () => {
  const avail = datasetAvailability('adult');
  let d: Dataset;
  before(async () => {
    if (avail.available) d = await loadAdult();
  });

  it('gives the reference shapes: 30162 → 24129 train / 6033 val, 15060 test, 14 features + label', (t) => {
    if (!avail.available) return t.skip(`Adult data absent: ${avail.reason}`);
    assert.equal(d.source.rows, 30162);
    assert.deepEqual(
      { train: d.splits.train.rows, val: d.splits.val.rows, test: d.splits.test.rows },
      { train: 24129, val: 6033, test: 15060 },
    );
    const columns = [
      'Age',
      'Workclass',
      'fnlwgt',
      'Education',
      'Education-Num',
      'Martial Status',
      'Occupation',
      'Relationship',
      'Race',
      'Sex',
      'Capital Gain',
      'Capital Loss',
      'Hours per week',
      'Country',
    ];
    assert.deepEqual(d.features, columns);
    assert.equal(d.label, 'Income');
    assert.equal(d.favourable, '>50K');
    assert.deepEqual(d.audit, { positive: '>50K', favourable: 'positive' });
    for (const split of Object.values(d.splits)) {
      assert.deepEqual(
        split.columns.map((c) => c.name),
        [...columns, 'Income'],
      );
      // the reference's 98 dummies: Workclass 7, Education 16, Martial Status 7, Occupation 14, Relationship 6, Race 5,
      // Sex 2, Country 41
      assert.deepEqual(dictionarySizes(split), {
        Workclass: 7,
        Education: 16,
        'Martial Status': 7,
        Occupation: 14,
        Relationship: 6,
        Race: 5,
        Sex: 2,
        Country: 41,
        Income: 2,
      });
      assert.equal(split.columns.filter((c) => c.kind === 'numeric').length, 6);
    }
    assert.deepEqual((getColumn(d.splits.test, 'Income') as CategoricalColumn).categories, ['<=50K', '>50K']);
    assert.deepEqual((getColumn(d.splits.test, 'Martial Status') as CategoricalColumn).categories.slice(0, 3), [
      'Divorced',
      'Married-AF-spouse',
      'Married-civ-spouse',
    ]);
  });

  it('takes the split rows from the reference positions (train[0] is dropna row 4743, val[0] row 29869)', (t) => {
    if (!avail.available) return t.skip(`Adult data absent: ${avail.reason}`);
    const fnl = (tb: Table, i: number) => (getColumn(tb, 'fnlwgt') as NumericColumn).values[i];
    assert.equal(fnl(d.splits.train, 0), fnl(d.source, 4743));
    assert.equal(fnl(d.splits.val, 0), fnl(d.source, 29869));
    // the first rows of both files, as written in them
    assert.equal(fnl(d.source, 0), 77516);
    assert.equal(fnl(d.splits.test, 0), 226802);
  });

  it(
    'matches the reference base rates of >50K (Table 1): ' + 'test Male 31.0% / Female 11.3%, train file 31.4% / 11.4%',
    (t) => {
      if (!avail.available) return t.skip(`Adult data absent: ${avail.reason}`);
      const rate = (tb: Table, c?: string, v?: string) => baseRate(tb, 'Income', '>50K', c, v);
      assert.deepEqual(rate(d.splits.test, 'Sex', 'Male'), { n: 10147, pct: 31.0 });
      assert.deepEqual(rate(d.splits.test, 'Sex', 'Female'), { n: 4913, pct: 11.3 });
      assert.equal(Math.round(rate(d.splits.test).pct), 25); // 24.57%
      assert.deepEqual(rate(d.splits.test, 'Relationship', 'Husband'), { n: 6203, pct: 45.6 });
      assert.deepEqual(rate(d.splits.test, 'Race', 'Black'), { n: 1411, pct: 11.9 });
      assert.equal(rate(d.source, 'Sex', 'Male').pct, 31.4);
      assert.equal(rate(d.source, 'Sex', 'Female').pct, 11.4);
    },
  );
});

describe('loadCompas on the ProPublica file', () => {
  const avail = datasetAvailability('compas');
  let d: Dataset;
  before(async () => {
    if (avail.available) d = await loadCompas();
  });

  it('keeps the 6172 reference rows and gives 3949 / 988 / 1235 with the five default features', (t) => {
    if (!avail.available) return t.skip(`COMPAS data absent: ${avail.reason}`);
    assert.equal(d.source.rows, 6172);
    assert.deepEqual(
      { train: d.splits.train.rows, val: d.splits.val.rows, test: d.splits.test.rows },
      { train: 3949, val: 988, test: 1235 },
    );
    assert.deepEqual(d.features, ['c_charge_degree', 'race', 'age_cat', 'sex', 'priors_count']);
    assert.equal(d.label, 'two_year_recid');
    for (const split of Object.values(d.splits)) {
      assert.deepEqual(
        split.columns.map((c) => c.name),
        [...d.features, 'two_year_recid'],
      );
      // the reference's 1 numeric + 13 dummies
      assert.deepEqual(dictionarySizes(split), { c_charge_degree: 2, race: 6, age_cat: 3, sex: 2, two_year_recid: 2 });
    }
    assert.deepEqual((getColumn(d.source, 'race') as CategoricalColumn).categories, [
      'African-American',
      'Asian',
      'Caucasian',
      'Hispanic',
      'Native American',
      'Other',
    ]);
    assert.deepEqual((getColumn(d.source, 'age_cat') as CategoricalColumn).categories, [
      '25 - 45',
      'Greater than 45',
      'Less than 25',
    ]);
  });

  it('has the reference base rates: recidivism 45.5%; test split by race and sex as in §4.1', (t) => {
    if (!avail.available) return t.skip(`COMPAS data absent: ${avail.reason}`);
    assert.equal(baseRate(d.source, 'two_year_recid', '1').pct, 45.5);
    const noRecid = (c: string, v: string) => baseRate(d.splits.test, 'two_year_recid', '0', c, v);
    assert.deepEqual(noRecid('race', 'African-American'), { n: 610, pct: 49.2 });
    assert.deepEqual(noRecid('race', 'Caucasian'), { n: 438, pct: 61.9 });
    assert.deepEqual(noRecid('race', 'Hispanic'), { n: 112, pct: 62.5 });
    assert.deepEqual(noRecid('sex', 'Male'), { n: 1007, pct: 53.6 });
    assert.deepEqual(noRecid('sex', 'Female'), { n: 228, pct: 62.7 });
  });
});

// ── file variants and file errors, on generated files ────────────────────────────────────────────

describe('Adult file variants', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-adult-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const line = (r: readonly (string | number)[]) => r.map((x) => String(x).trim()).join(', ');
  const HEADER =
    'age, workclass, fnlwgt, education, education-num, marital-status, occupation, relationship, race, sex, ' +
    'capital-gain, capital-loss, hours-per-week, native-country, Y';
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const trainLines = ADULT_ROWS.map(line);
  const testLines = ADULT_TEST_ROWS.map(line);

  const bits = (p: Awaited<ReturnType<typeof readAdultFiles>>) =>
    JSON.stringify(
      [p.train, p.test].map((t) =>
        t.columns.map((c) => (c.kind === 'numeric' ? Array.from(c.values) : [c.categories, Array.from(c.codes)])),
      ),
    );

  it(
    'reads the header copies, the UCI originals (no header, ' +
      '"|1x3 Cross validator", blank last line) and CRLF alike',
    async () => {
      const shared = await readAdultFiles({
        train: write('h.data', [HEADER, ...trainLines].join('\n') + '\n'),
        test: write('h.test', [HEADER, ...testLines].join('\n') + '\n'),
      });
      const uci = await readAdultFiles({
        train: write('uci.data', trainLines.join('\n') + '\n\n'),
        test: write('uci.test', ['|1x3 Cross validator', ...testLines].join('\n') + '\n\n'),
      });
      const crlf = await readAdultFiles({
        train: write('crlf.data', '\uFEFF' + trainLines.join('\r\n') + '\r\n'),
        test: write('crlf.test', ['|1x3 Cross validator', HEADER, ...testLines].join('\r\n') + '\r\n'),
      });
      assert.equal(shared.train.rows, 4);
      assert.equal(shared.test.rows, 2);
      assert.deepEqual(shared.dropped, { train: 1, test: 1 });
      assert.deepEqual(uci.dropped, { train: 1, test: 1 });
      assert.equal(bits(uci), bits(shared));
      assert.equal(bits(crlf), bits(shared));
      assert.deepEqual(labelsOf(uci.test, 'Income'), ['<=50K', '>50K']);
    },
  );

  it('names the file and line of a malformed row, whichever path reads it', async () => {
    const ragged = write(
      'ragged.test',
      ['|1x3 Cross validator', testLines[0], '44, Private, 1', testLines[2]].join('\n'),
    );
    const ok = write('ok.data', trainLines.join('\n'));
    await assert.rejects(
      readAdultFiles({ train: ok, test: ragged }),
      isInputError(/ragged\.test: line 3 has 3 fields, expected 15/),
    );
    const notNum = write('nan.data', [trainLines[0], trainLines[1].replace('83311', 'many')].join('\n'));
    const okTest = write('ok.test', testLines.join('\n'));
    await assert.rejects(
      readAdultFiles({ train: notNum, test: okTest }),
      isInputError(/nan\.data: line 2, column "fnlwgt": "many" is not a number/),
    );
    await assert.rejects(
      readAdultFiles({ train: ok, test: join(dir, 'nope.test') }),
      isInputError(/nope\.test: (cannot read: )?file not found/),
    );
  });

  it(
    'a missing data folder or file says which paths were ' + 'tried and that LUCID_DATA_DIR can point elsewhere',
    async () => {
      const empty = mkdtempSync(join(dir, 'empty-'));
      const a = datasetAvailability('adult', { dataDir: empty });
      assert.equal(a.available, false);
      assert.match(
        a.reason,
        new RegExp(`adult\\.data \\(tried ${join(empty, 'adult', 'adult.data')}, ${join(empty, 'adult.data')}\\)`),
      );
      assert.match(
        a.reason,
        /set LUCID_DATA_DIR to the folder holding adult\/ and compas\/ \(where to get them: docs\/data\.md, "Get the data"\)/,
      );
      await assert.rejects(
        loadAdult({ dataDir: empty }),
        isInputError(/adult: adult\.data .* not found in the data folder .* chosen by the dataDir option/),
      );
      await assert.rejects(
        loadCompas({ dataDir: join(empty, 'nowhere') }),
        isInputError(/compas-scores-two-years\.csv .*\(the folder does not exist\); set LUCID_DATA_DIR/),
      );
    },
  );

  it('LUCID_DATA_DIR overrides the default folder, and the option overrides both', () => {
    const saved = process.env.LUCID_DATA_DIR;
    try {
      process.env.LUCID_DATA_DIR = dir;
      assert.deepEqual(resolveDataDir(), { dir, from: 'LUCID_DATA_DIR' });
      assert.equal(resolveDataDir({ dataDir: join(dir, 'x') }).dir, join(dir, 'x'));
      delete process.env.LUCID_DATA_DIR;
      assert.match(resolveDataDir().dir, /shared[\\/]data$/);
    } finally {
      if (saved === undefined) delete process.env.LUCID_DATA_DIR;
      else process.env.LUCID_DATA_DIR = saved;
    }
  });

  it('a malformed split_indices.json is an input error naming the file', async (t) => {
    const real = datasetAvailability('adult');
    if (!real.available) return t.skip(`Adult data absent: ${real.reason}`);
    // a data folder with the real Adult files but a broken split file
    const fake = mkdtempSync(join(dir, 'split-'));
    copyFileSync(real.files.train, join(fake, 'adult.data'));
    copyFileSync(real.files.test, join(fake, 'adult.test'));
    writeFileSync(join(fake, 'split_indices.json'), '{"adult": ');
    await assert.rejects(
      loadAdult({ dataDir: fake }),
      isInputError(/split_indices\.json: cannot read the reference splits: .*JSON/),
    );
  });
});
