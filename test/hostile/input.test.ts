// Nothing passes silently: oversized values, the same data options everywhere, identifier-like
// columns, look-alike numbers, degenerate audits and warning floods. Each case is one test, named.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsv } from '../../src/node/csv.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';
import { unwrapSummary } from '../helpers/unwrap.js';

const lucid = lucidCli();
const fx = simModelDir('lucid-hostile-');
const small = [
  '--gan-epochs',
  '2',
  '-n',
  '100',
  '--intersection-rows',
  '0',
  '--fale-bootstrap',
  '0',
  '--gan-seeds',
  '1',
  '--quiet',
];

/** The simulator file with extra columns: `extra(i)` gives the cells of row i (header first). */
function withColumns(name: string, header: string[], cell: (row: number) => string[]): string {
  const lines = readFileSync(fx.data, 'utf8').trim().split('\n');
  const out = lines.map((l, i) => [l, ...(i === 0 ? header : cell(i))].join(','));
  const file = join(fx.dir, name);
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

const oneLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('lucid: error:')).length === 1 && !/\n\s+at /.test(stderr);

describe('oversized values', () => {
  it('a 5 MB unquoted field: inspect refuses it as a size cap, in one line, fast', () => {
    const file = join(fx.dir, 'huge.csv');
    writeFileSync(file, `a,b\n1,x\n2,${'y'.repeat(5 << 20)}\n`);
    const t0 = Date.now();
    const r = lucid('inspect', '--data', file);
    assert.equal(r.status, 1);
    assert.ok(Date.now() - t0 < 20_000);
    assert.match(r.stderr, /huge\.csv: line 3: a value longer than 1 MiB, the most a cell may hold \(a size cap\)/);
    assert.ok(oneLine(r.stderr), r.stderr);
    assert.ok(r.stdout.length < 1000);
  });

  it('a 5 MB quoted, closed field: a size cap, not "a closing quote is probably missing"', () => {
    const file = join(fx.dir, 'huge-quoted.csv');
    writeFileSync(file, `a,b\n1,x\n2,"${'y'.repeat(5 << 20)}"\n`);
    const r = lucid('inspect', '--data', file);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /size cap/);
    assert.doesNotMatch(r.stderr, /closing quote/);
  });

  it(
    'a category label over --max-label-length (256): an ' + 'error naming the line and column; the option raises it',
    async () => {
      const file = join(fx.dir, 'long-label.csv');
      writeFileSync(file, `a,note\n1,short\n2,${'z'.repeat(300)}\n`);
      await assert.rejects(
        readCsv(file),
        /long-label\.csv: line 3, column "note": a category label of 300 characters, more than the 256 allowed \(a size cap; raise --max-label-length/,
      );
      const ok = await readCsv(file, { maxLabelLength: 400 });
      assert.equal(ok.table.rows, 2);
      const r = lucid('inspect', '--data', file, '--max-label-length', '400');
      assert.equal(r.status, 0, r.stderr);
    },
  );
});

describe('the same data options everywhere', () => {
  it(
    'an id column: audit, metrics, gan fit and model train read it (an identifier, left out with a warning); --drop ' +
      'id works on each',
    () => {
      const file = withColumns('with-id.csv', ['id'], (i) => [`cust-${String(i).padStart(6, '0')}`]);
      const a = lucid(
        'audit',
        '--data',
        file,
        '--label',
        'approved',
        '--protected',
        'group',
        '--model',
        fx.modelFile,
        ...small,
        '--out',
        join(fx.dir, 'audit-id'),
      );
      assert.equal(a.status, 0, a.stderr);
      assert.match(
        unwrapSummary(a.stderr),
        /column "id" looks like an identifier \(1200 distinct values in 1200 rows\): the GAN and the built-in model leave it out/,
      );
      const canon = readFileSync(join(fx.dir, 'audit-id', 'canonical-positive.csv'), 'utf8').split('\n')[0];
      assert.ok(!canon.split(',').includes('id'), 'the GAN does not generate the id');
      const ad = lucid(
        'audit',
        '--data',
        file,
        '--label',
        'approved',
        '--protected',
        'group',
        '--model',
        fx.modelFile,
        ...small,
        '--drop',
        'id',
        '--out',
        join(fx.dir, 'audit-drop'),
      );
      assert.equal(ad.status, 0, ad.stderr);
      assert.doesNotMatch(ad.stderr, /identifier/);
      for (const cmd of [
        ['metrics', '--label', 'approved', '--pred', 'approved', '--group', 'group'],
        ['model', 'train', '--label', 'approved', '--epochs', '1', '--quiet', '--out', join(fx.dir, 'm.json')],
        ['gan', 'fit', '--epochs', '1', '--quiet', '--out', join(fx.dir, 'g.lgan')],
      ]) {
        for (const extra of [[], ['--drop', 'id'], ['--max-categories', '5000']]) {
          const r = lucid(...cmd, '--data', file, ...extra);
          assert.equal(r.status, 0, `${cmd.join(' ')} ${extra.join(' ')}: ${r.stderr}`);
        }
      }
      // the built-in model trained on the file does not use the id as a feature
      const m = JSON.parse(readFileSync(join(fx.dir, 'm.json'), 'utf8'));
      assert.ok(!JSON.stringify(m.preprocessor ?? m).includes('"id"') || !(m.features ?? []).includes('id'));
    },
  );
});

describe('look-alike numbers', () => {
  it(
    'decimal commas with ";" as the delimiter are read ' + 'as numbers, and said; --decimal . keeps them as text',
    async () => {
      const file = join(fx.dir, 'comma.csv');
      const rows = ['income;rate;city'];
      for (let i = 0; i < 60; i++)
        rows.push(`${1000 + i},${String(i % 100).padStart(2, '0')};0,${i % 10};${i % 2 ? 'Delft' : 'Gouda'}`);
      writeFileSync(file, rows.join('\n') + '\n');
      const r = await readCsv(file);
      const income = r.table.columns.find((c) => c.name === 'income')!;
      assert.equal(income.kind, 'numeric');
      assert.equal((income as { values: Float64Array }).values[1], 1001.01);
      assert.equal(r.table.columns.find((c) => c.name === 'rate')!.kind, 'numeric');
      assert.ok(
        r.report.warnings.some((w) =>
          /column "income" is read with decimal commas \(line 2: "1000,00" is 1000\)/.test(w),
        ),
        r.report.warnings.join('\n'),
      );
      const text = await readCsv(file, { decimal: '.' });
      assert.equal(text.table.columns.find((c) => c.name === 'income')!.kind, 'categorical');
      const cli = lucid('inspect', '--data', file, '--format', 'json');
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stderr, /decimal commas/);
    },
  );

  it(
    'a numeric column with a few text values: a warning with the count and first lines; as a protected or label ' +
      'column, an error',
    () => {
      const file = withColumns('age-text.csv', ['age2'], (i) => [i === 5 || i === 9 ? 'abc' : String(20 + (i % 40))]);
      const ins = lucid('inspect', '--data', file);
      assert.equal(ins.status, 0);
      assert.match(
        ins.stderr,
        /column "age2" is categorical because 2 of its 1200 values are not numbers \(the first on lines 6, 10: "abc"\)/,
      );
      const m = lucid('metrics', '--data', file, '--label', 'approved', '--pred', 'approved', '--group', 'age2');
      assert.equal(m.status, 1);
      assert.match(
        m.stderr,
        /the label, prediction or --group column "age2" holds numbers, but 2 of its values are not numbers \(lines 6, 10: "abc"\)/,
      );
      assert.ok(oneLine(m.stderr), m.stderr);
      const a = lucid(
        'audit',
        '--data',
        file,
        '--label',
        'approved',
        '--protected',
        'age2',
        '--model',
        fx.modelFile,
        ...small,
        '--out',
        join(fx.dir, 'never'),
      );
      assert.equal(a.status, 1);
      assert.match(a.stderr, /protected column "age2" holds numbers/);
      assert.ok(!existsSync(join(fx.dir, 'never')));
    },
  );
});

describe('degenerate audits', () => {
  it('a model that never predicts one class: an error, no report', () => {
    const file = withColumns('const.csv', ['always'], () => ['yes']);
    const r = lucid(
      'audit',
      '--data',
      file,
      '--label',
      'approved',
      '--protected',
      'group',
      '--pred',
      'always',
      ...small,
      '--out',
      join(fx.dir, 'never-const'),
    );
    assert.equal(r.status, 1);
    assert.match(r.stderr, /the model decides all 1200 rows positive: there is no negative canonical set to draw/);
    assert.ok(!existsSync(join(fx.dir, 'never-const', 'report.html')));
  });

  it('a 3-row file: refused (an audit needs 100 rows); metrics give no verdict at all', () => {
    const all = readFileSync(fx.data, 'utf8').trim().split('\n');
    const col = all[0].split(',').indexOf('approved');
    // the first three rows, one of them approved, so that the label has both values
    const lines = all.slice(0, 4).map((l, i) =>
      i === 1
        ? l
            .split(',')
            .map((v, j) => (j === col ? 'yes' : v))
            .join(',')
        : l,
    );
    const file = join(fx.dir, 'three.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const r = lucid(
      'audit',
      '--data',
      file,
      '--label',
      'approved',
      '--protected',
      'group',
      '--pred',
      'approved',
      ...small,
      '--out',
      join(fx.dir, 'never-3'),
    );
    assert.equal(r.status, 1);
    assert.match(r.stderr, /the data has 3 rows; an audit needs at least 100 .*--allow-small runs it anyway/);
    const m = lucid(
      'metrics',
      '--data',
      file,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--pred',
      'approved',
      '--group',
      'group',
      '--format',
      'json',
    );
    assert.equal(m.status, 0, m.stderr);
    const j = JSON.parse(m.stdout);
    assert.equal(j.verdicts.counts.flagged, 0);
    assert.equal(j.attributes[0].fourFifths.below.length, 0);
  });

  it('a protected column that is entirely missing: an error naming it, not a group with an empty name', () => {
    const file = withColumns('empty-prot.csv', ['region'], () => ['']);
    const m = lucid('metrics', '--data', file, '--label', 'approved', '--pred', 'approved', '--group', 'region');
    assert.equal(m.status, 1);
    assert.match(m.stderr, /the group column "region" has no value in any of its 1200 rows/);
    const a = lucid(
      'audit',
      '--data',
      file,
      '--label',
      'approved',
      '--protected',
      'region',
      '--pred',
      'approved',
      ...small,
      '--out',
      join(fx.dir, 'never-e'),
    );
    assert.equal(a.status, 1);
    assert.match(a.stderr, /"region" has no value in any of its 1200 rows/);
  });
});

describe('no warning floods', () => {
  it('a numeric --group (integer ages) gives one line per kind, not one per value', () => {
    const m = lucid('metrics', '--data', fx.data, '--label', 'approved', '--pred', 'approved', '--group', 'age');
    assert.equal(m.status, 0, m.stderr);
    const warnings = m.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('lucid: warning:'));
    assert.ok(warnings.length <= 3, warnings.join('\n'));
    assert.match(m.stderr, /age: \d+ groups have fewer than 30 rows \(/);
  });
});
