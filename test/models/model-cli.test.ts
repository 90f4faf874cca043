// `lucid model train` and `lucid model predict` as a user runs them, on a simulated CSV file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { readCsv, writeCsv } from '../../src/node/csv.js';
import { loadModel } from '../../src/node/model-file.js';
import { getEngine } from '../helpers/engine.js';
import { unwrapSummary } from '../helpers/unwrap.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lucid-model-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'loans.csv');
const semi = join(dir, 'loans-semicolon.csv');
const modelFile = join(dir, 'model.json');

before(async () => {
  const engine = await getEngine();
  await writeCsv(data, simulate(new Rng(engine, 5), { n: 1500, bias: 'proxy' }).table);
  await writeCsv(semi, simulate(new Rng(engine, 6), { n: 300, bias: 'proxy' }).table, { delimiter: ';' });
});

describe('lucid model train / predict', () => {
  it('train: progress on stderr, the chosen positive class, validation accuracy and the file written', () => {
    const r = lucid(
      'model',
      'train',
      '--data',
      data,
      '--label',
      'approved',
      '--hidden',
      '16',
      '--epochs',
      '15',
      '--seed',
      '2',
      '--out',
      modelFile,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^ {2}epoch {4}1 {2}train loss \d\.\d{4} {2}val loss \d\.\d{4} {2}val accuracy \d+\.\d%$/m);
    assert.match(
      r.stderr,
      /lucid: note: positive class "yes" \(the second of the label's values "no", "yes" in sorted order; choose with --positive\)/,
    );
    assert.match(
      unwrapSummary(r.stdout),
      /^lucid: trained MLP 19 → 16 → 1 for "approved" = "yes" on 1200 rows in \d+\.\d s$/m,
    );
    assert.match(
      unwrapSummary(r.stdout),
      /kept epoch \d+ of \d+ \(lowest validation loss\): validation accuracy \d+\.\d%, loss \d\.\d{4} on 300 held-out rows/,
    );
    assert.ok(
      unwrapSummary(r.stdout).includes(
        `lucid: wrote ${modelFile} (features: age, sex, group, neighbourhood, education, hours_per_week, income, ` +
          `debt_ratio)`,
      ),
    );
    const json = JSON.parse(readFileSync(modelFile, 'utf8'));
    assert.equal(json.format, 'lucid-wasm/classifier');
    assert.deepEqual(json.hidden, [16]);
  });

  it('train options reach the library: --hidden none, --positive, --drop, --val-fraction 0, --quiet', () => {
    const out = join(dir, 'logistic.json');
    const r = lucid(
      'model',
      'train',
      '--data',
      data,
      '--label',
      'approved',
      '--positive',
      'no',
      '--drop',
      'group,sex',
      '--hidden',
      'none',
      '--epochs',
      '3',
      '--val-fraction',
      '0',
      '--quiet',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(
      unwrapSummary(r.stdout),
      /trained logistic regression on 15 inputs for "approved" = "no" on 1500 rows/,
    );
    assert.match(unwrapSummary(r.stdout), /3 epochs, no validation split; final training loss \d\.\d{4}/);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(json.preprocessor.features, [
      'age',
      'neighbourhood',
      'education',
      'hours_per_week',
      'income',
      'debt_ratio',
    ]);
    assert.equal(json.positive, 'no');
  });

  it('multiclass and regression: the inferred kind is said, predict writes the class and its probabilities', () => {
    const mc = join(dir, 'mc.json');
    let r = lucid(
      'model',
      'train',
      '--data',
      data,
      '--label',
      'education',
      '--hidden',
      '8',
      '--epochs',
      '3',
      '--quiet',
      '--out',
      mc,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stderr,
      'lucid: note: inferred multiclass: the label "education" has 5 values (choose with --output)\n',
    );
    assert.match(
      unwrapSummary(r.stdout),
      /trained MLP \d+ → 8 → 5, a multiclass model of "education" \(5 classes: Bachelor, Doctorate, Master, Secondary, Vocational\)/,
    );
    assert.match(unwrapSummary(r.stdout), /validation accuracy \d+\.\d%, cross-entropy \d\.\d{4} on 300 held-out rows/);
    const out = join(dir, 'mc.csv');
    r = lucid('model', 'predict', '--model', mc, '--data', data, '--column', 'edu', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.ok(lines[0].endsWith(',edu,edu_Bachelor,edu_Doctorate,edu_Master,edu_Secondary,edu_Vocational'), lines[0]);
    const cells = lines[1].split(',').slice(-6);
    const p = cells.slice(1).map(Number);
    assert.ok(Math.abs(p.reduce((a, b) => a + b) - 1) < 1e-9);
    assert.equal(cells[0], ['Bachelor', 'Doctorate', 'Master', 'Secondary', 'Vocational'][p.indexOf(Math.max(...p))]);

    // invert reads a multiclass model towards a class (--target-class), not a binary classifier's --prefer
    r = lucid('invert', '--model', mc, '--prefer', 'Master', '--out', join(dir, 'inv.csv'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--prefer reads a binary classifier; .*mc\.json is a multiclass model: give --target-class/);
    // the commands that read P(positive) refuse a multiclass model, as a usage error naming it and saying what to do
    for (const extra of [[], ['--bootstrap', '2']]) {
      r = lucid(
        'fale',
        '--model',
        mc,
        '--data',
        data,
        '--label',
        'approved',
        '--positive',
        'yes',
        '--protected',
        'sex=Female',
        ...extra,
      );
      assert.equal(r.status, 2, r.stderr);
      // lucid fale takes a multiclass model with a --measure (issue #40): the binary flags are what it refuses
      assert.match(
        r.stderr,
        /fale: --positive reads a binary decision; \S*mc\.json is a multiclass model: give --measure class-rate/,
      );
    }
    r = lucid('quality', '--real', data, '--synthetic', data, '--model', mc, '--condition', 'approved');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /mc\.json: is a multiclass model; lucid quality reads/);
    const policy = join(dir, 'policy.json');
    writeFileSync(
      policy,
      JSON.stringify({
        version: 1,
        inputs: { label: 'approved', positive: 'yes' },
        rules: [{ metric: 'selection_rate_ratio', attribute: 'sex', min: 0.8 }],
      }),
    );
    r = lucid('check', '--model', mc, '--data', data, '--policy', policy, '--quiet');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /mc\.json: is a multiclass model; lucid check --model reads/);

    const rg = join(dir, 'rg.json');
    r = lucid(
      'model',
      'train',
      '--data',
      data,
      '--label',
      'income',
      '--hidden',
      'none',
      '--epochs',
      '3',
      '--quiet',
      '--out',
      rg,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stderr,
      /^lucid: note: inferred regression: the label "income" holds \d+ distinct numbers, more than 20/,
    );
    assert.match(
      unwrapSummary(r.stdout),
      /trained linear regression on \d+ inputs, a regression model of "income"[\s\S]* validation RMSE [\d.]+ \(the label's units/,
    );
    r = lucid('model', 'predict', '--model', rg, '--data', data, '--out', join(dir, 'rg.csv'), '--format', 'json');
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.output, 'regression');
    assert.ok(json.mean > 10 && json.mean < 200, `mean income ${json.mean}`);
    // a real value read as P(positive) gave a zero gap and an AUC of 0: the binary flags are refused (issue #40: lucid
    // fale takes a regression model with a --measure)
    r = lucid(
      'fale',
      '--model',
      rg,
      '--data',
      data,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--protected',
      'sex=Female',
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /fale: --positive reads a binary decision; \S*rg\.json is a regression model: give --measure mean-prediction\|mean-residual/,
    );
  });

  it('predict appends P(positive), keeps the columns and the delimiter, and matches the library', async () => {
    const out = join(dir, 'scored.csv');
    const r = lucid('model', 'predict', '--model', modelFile, '--data', semi, '--column', 'p_yes', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      unwrapSummary(r.stdout),
      new RegExp(
        `lucid: wrote ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: 300 rows with column "p_yes" = P\\(approved = ` +
          `"yes"\\); \\d+\\.\\d% above 0\\.5`,
      ),
    );
    const text = readFileSync(out, 'utf8');
    assert.ok(
      text.startsWith('age;sex;group;neighbourhood;education;hours_per_week;income;debt_ratio;approved;p_yes\n'),
    );
    const engine = await getEngine();
    const scored = (await readCsv(out)).table;
    const original = (await readCsv(semi)).table;
    const model = await loadModel(engine, modelFile);
    const expected = model.predictProba(engine, original);
    const col = scored.columns.find((c) => c.name === 'p_yes');
    assert.ok(col && col.kind === 'numeric');
    assert.deepEqual(col.values, expected);
    model.dispose();
  });

  it('bad arguments exit 2 with one message', () => {
    const cases: [string[], RegExp][] = [
      [
        ['model', 'train', '--data', data, '--label', 'approved', '--hidden', '64,x', '--out', modelFile],
        /option '--hidden <sizes>' argument '64,x' is invalid\. expected layer sizes such as 64,32/,
      ],
      [
        ['model', 'train', '--data', data, '--label', 'approved', '--val-fraction', '1', '--out', modelFile],
        /argument '1' is invalid\. expected a share in \[0, 1\)/,
      ],
      [
        ['model', 'train', '--data', data, '--label', 'approved', '--epochs', '0', '--out', modelFile],
        /argument '0' is invalid\. expected a positive integer/,
      ],
      [['model', 'train', '--data', data, '--out', modelFile], /required option '--label <column>' not specified/],
      [
        [
          'model',
          'train',
          '--data',
          data,
          '--label',
          'neighbourhood',
          '--output',
          'regression',
          '--out',
          join(dir, 'x.json'),
        ],
        /^lucid: error: .*loans\.csv: label column "neighbourhood" holds labels, not numbers; a regression model needs a numeric label\n$/,
      ],
      [
        [
          'model',
          'train',
          '--data',
          data,
          '--label',
          'neighbourhood',
          '--output',
          'multiclass',
          '--positive',
          'Hillcrest',
          '--out',
          join(dir, 'x.json'),
        ],
        /^lucid: error: --positive is for a binary model; --output multiclass has no positive class\n$/,
      ],
      [
        ['model', 'train', '--data', data, '--label', 'approved', '--output', 'ordinal', '--out', join(dir, 'x.json')],
        /argument 'ordinal' is invalid\. Allowed choices are binary, multiclass, regression/,
      ],
      [
        ['model', 'predict', '--model', modelFile, '--data', data, '--column', 'approved', '--out', join(dir, 'y.csv')],
        /^lucid: error: .*loans\.csv: already has a column "approved"; name the predictions column with --column\n$/,
      ],
      [
        ['model', 'predict', '--data', data, '--out', join(dir, 'y.csv')],
        /required option '--model <file>' not specified/,
      ],
      [['model', 'fit'], /unknown command 'fit'/],
    ];
    for (const [args, msg] of cases) {
      const r = lucid(...args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, msg);
    }
  });

  it(
    'a misspelt --label is a usage error (exit 2, one line); input errors exit 1 with one line: missing model file, ' +
      'corrupt model, missing feature column',
    () => {
      const one = (args: string[], expected: string, status = 1) => {
        const r = lucid(...args);
        assert.equal(r.status, status, r.stderr);
        assert.equal(r.stderr, `lucid: error: ${expected}\n`);
      };
      one(
        ['model', 'train', '--data', data, '--label', 'decision', '--out', join(dir, 'z.json')],
        `${data}: --label "decision" is not a column; the columns are: age, sex, group, neighbourhood, education, ` +
          `hours_per_week, income, debt_ratio, approved`,
        2,
      );
      one(
        ['model', 'predict', '--model', join(dir, 'none.json'), '--data', data, '--out', join(dir, 'y.csv')],
        `${join(dir, 'none.json')}: file not found`,
      );
      const corrupt = join(dir, 'corrupt.json');
      writeFileSync(corrupt, JSON.stringify({ format: 'lucid-wasm/classifier', version: 1 }));
      one(
        ['model', 'predict', '--model', corrupt, '--data', data, '--out', join(dir, 'y.csv')],
        `${corrupt}: field "label" must be a column name`,
      );
      const partial = join(dir, 'partial.csv');
      writeFileSync(partial, 'age,sex,income\n30,Male,40\n');
      one(
        ['model', 'predict', '--model', modelFile, '--data', partial, '--out', join(dir, 'y.csv')],
        `${partial}: the data lacks the columns "group", "neighbourhood", "education", "hours_per_week", ` +
          `"debt_ratio"; the columns are: age, sex, income`,
      );
      const unseen = join(dir, 'unseen.csv');
      writeFileSync(
        unseen,
        'age,sex,group,neighbourhood,education,hours_per_week,income,debt_ratio\n30,Male,A,Atlantis,Master,40,50,0.2\n',
      );
      one(
        ['model', 'predict', '--model', modelFile, '--data', unseen, '--out', join(dir, 'y.csv')],
        `${unseen}: column "neighbourhood", row 1: category "Atlantis" was not seen in training (known: Eastfield, ` +
          `Hillcrest, Northgate, Riverside, Southport, Westbrook)`,
      );
      // a missing number: an error naming line and column (the default), or a left-out row on request
      const holes = join(dir, 'holes.csv');
      writeFileSync(
        holes,
        'age,sex,group,neighbourhood,education,hours_per_week,income,debt_ratio\n30,Male,A,Northgate,Master,40,50,' +
          '0.2\n31,Female,B,Northgate,Master,,50,0.2\n32,Male,A,Northgate,Master,NaN,50,0.2\n',
      );
      one(
        ['model', 'predict', '--model', modelFile, '--data', holes, '--out', join(dir, 'y.csv')],
        `${holes}: line 3, column "hours_per_week": missing value (2 rows with a missing number); predict writes one ` +
          `prediction per input row: fill the values, or pass --missing drop to leave such rows out`,
      );
      const r = lucid(
        'model',
        'predict',
        '--model',
        modelFile,
        '--data',
        holes,
        '--missing',
        'drop',
        '--out',
        join(dir, 'y.csv'),
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stderr,
        /lucid: warning: 2 rows with missing values left out \(--missing drop\): the output has 1 row, not 3/,
      );
      assert.equal(readFileSync(join(dir, 'y.csv'), 'utf8').trim().split('\n').length, 2);
    },
  );
});
