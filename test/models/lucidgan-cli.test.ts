// `lucid gan fit` and `lucid gan sample` as a user runs them, on a simulated CSV file.
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
import { getEngine } from '../helpers/engine.js';
import { lucidSignalled } from '../helpers/sim-model.js';
import { unwrapSummary } from '../helpers/unwrap.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lucid-gan-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'scored.csv');
const modelFile = join(dir, 'm.lgan');

before(async () => {
  const engine = await getEngine();
  const sim = simulate(new Rng(engine, 3), { n: 300, bias: 'intersectional' });
  await writeCsv(data, {
    rows: sim.table.rows,
    columns: [...sim.table.columns, { kind: 'numeric', name: 'preds', values: sim.truth.probability }],
  });
});

describe('lucid gan fit / sample', () => {
  it('fit: one JSON line per epoch on stderr without a TTY, the model file written', () => {
    const r = lucid(
      'gan',
      'fit',
      '--data',
      data,
      '--condition',
      'preds',
      '--epochs',
      '2',
      '--batch',
      '50',
      '--seed',
      '1',
      '--out',
      modelFile,
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 2);
    lines.forEach((l, i) => {
      const e = JSON.parse(l);
      assert.deepEqual(Object.keys(e), ['epoch', 'loss_g', 'loss_d', 'loss_cond', 'seconds']);
      assert.equal(e.epoch, i + 1);
      assert.ok(Number.isFinite(e.loss_g) && Number.isFinite(e.loss_d) && e.loss_cond > 0 && e.seconds >= 0);
    });
    assert.match(
      unwrapSummary(r.stdout),
      /^lucid: trained LUCID-GAN for 2 epochs on 300 rows in \d+\.\d s \(conditions: preds; discrete: sex, group, neighbourhood, education, approved\)$/m,
    );
    const json = JSON.parse(readFileSync(modelFile, 'utf8'));
    assert.equal(json.format, 'lucid-wasm/lucid-gan');
    assert.equal(json.version, 2);
    assert.equal(json.payload.provenance, null);
    assert.equal(json.payload.generators.length, 1);
    assert.equal(json.payload.generators[0].seed, 1);
    assert.equal(json.payload.generators[0].history.lossG.length, 2);
  });

  it('fit --quiet prints no progress; the same seed writes the same file', () => {
    const again = join(dir, 'again.lgan');
    const r = lucid(
      'gan',
      'fit',
      '--data',
      data,
      '--condition',
      'preds',
      '--epochs',
      '2',
      '--batch',
      '50',
      '--seed',
      '1',
      '--quiet',
      '--out',
      again,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(readFileSync(again, 'utf8'), readFileSync(modelFile, 'utf8'));
  });

  it('sample: decoded rows with the condition column, fix report, same seed same rows', async () => {
    const out = join(dir, 'pos.csv');
    const args = [
      'gan',
      'sample',
      '--model',
      modelFile,
      '-n',
      '120',
      '--condition',
      'preds=1',
      '--fix',
      'sex=Female',
      '--fix',
      'group=B',
      '--seed',
      '4',
      '--out',
      out,
    ];
    const r = lucid(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      unwrapSummary(r.stdout),
      /^lucid: sex=Female, group=B: \d+ of 300 training rows \(\d+\.\d%\); \d+\.\d% of the generated rows hold every fixed value$/m,
    );
    assert.match(unwrapSummary(r.stdout), /lucid: wrote .*pos\.csv: 120 rows/);
    const { table } = await readCsv(out);
    assert.equal(table.rows, 120);
    assert.deepEqual(
      table.columns.map((c) => c.name),
      [
        'age',
        'sex',
        'group',
        'neighbourhood',
        'education',
        'hours_per_week',
        'income',
        'debt_ratio',
        'approved',
        'preds',
      ],
    );
    const first = readFileSync(out, 'utf8');
    assert.equal(lucid(...args).status, 0);
    assert.equal(readFileSync(out, 'utf8'), first);
    // numbers inside the training range (the condition column is given, not generated); the JSON summary says how many
    // were clipped
    const j = JSON.parse(lucid(...args, '--format', 'json').stdout);
    assert.ok(Number.isInteger(j.rowsClipped) && j.rowsClipped >= 0 && typeof j.clipped.age === 'number');
    const train = (await readCsv(data)).table;
    for (const c of table.columns) {
      const real = train.columns.find((x) => x.name === c.name);
      if (c.name !== 'preds' && c.kind === 'numeric' && real?.kind === 'numeric')
        assert.ok(
          c.values.every((v) => v >= Math.min(...real.values) && v <= Math.max(...real.values)),
          c.name,
        );
    }
  });

  it('sample: per-row condition values, the empirical cond vector, a drawn condition', async () => {
    const out = join(dir, 'rows.csv');
    const r = lucid(
      'gan',
      'sample',
      '--model',
      modelFile,
      '-n',
      '3',
      '--condition',
      'preds=0,0.5,1',
      '--cond-vector',
      'empirical',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    const { table } = await readCsv(out);
    const p = table.columns.find((c) => c.name === 'preds')!;
    assert.ok(p.kind === 'numeric');
    assert.deepEqual(Array.from(p.values), [0, 0.5, 1]);
    const d = lucid('gan', 'sample', '--model', modelFile, '-n', '5', '--out', out);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stderr, /lucid: note: preds not given; drawn from training rows/);
  });

  it('bad arguments and files are one-line errors with the usage (2) or runtime (1) exit code', () => {
    const out = join(dir, 'x.csv');
    const cases: [string[], number, RegExp][] = [
      [
        ['gan', 'fit', '--data', data, '--condition', 'preds', '--batch', '55', '--out', join(dir, 'x.lgan')],
        2,
        /lucid: error: gan: batch must be a positive multiple of pac = 10, got 55/,
      ],
      [
        ['gan', 'fit', '--data', data, '--condition', 'score', '--out', join(dir, 'x.lgan')],
        2,
        /condition "score" is not a column; the columns are: age, sex/,
      ],
      [['gan', 'fit', '--data', join(dir, 'nope.csv'), '--out', join(dir, 'x.lgan')], 1, /nope\.csv/],
      [
        ['gan', 'sample', '--model', modelFile, '-n', '5', '--fix', 'race=Black', '--out', out],
        2,
        /lucid: error: fix: "race" is not a discrete column of this model; the discrete columns are: sex, group, neighbourhood, education, approved/,
      ],
      [
        ['gan', 'sample', '--model', modelFile, '-n', '5', '--fix', 'sex=female', '--out', out],
        2,
        /"female" is not a category of "sex"; its categories are: /,
      ],
      [
        ['gan', 'sample', '--model', modelFile, '-n', '5', '--condition', 'preds=high', '--out', out],
        2,
        /expected COLUMN=VALUE/,
      ],
      [
        ['gan', 'sample', '--model', modelFile, '-n', '5', '--condition', 'preds=1,0', '--out', out],
        2,
        /condition "preds" has 2 values; give one \(a constant\) or one per row \(5\)/,
      ],
      [
        ['gan', 'sample', '--model', modelFile, '-n', '5', '--cond-vector', 'full', '--out', out],
        2,
        /Allowed choices are zero, empirical/,
      ],
      [
        ['gan', 'sample', '--model', data, '-n', '5', '--out', out],
        1,
        /scored\.csv: not a LUCID-GAN model file: not JSON/,
      ],
    ];
    for (const [args, status, re] of cases) {
      const r = lucid(...args);
      assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
    }
    const truncated = join(dir, 'cut.lgan');
    writeFileSync(truncated, readFileSync(modelFile, 'utf8').slice(0, 500));
    const r = lucid('gan', 'sample', '--model', truncated, '-n', '5', '--out', out);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cut\.lgan: not a LUCID-GAN model file: the JSON ends early \(truncated file\?\)/);
  });

  it(
    'Ctrl-C ends training after the current step, saves a ' + 'checkpoint, and exits 130 (stopped early is not a pass)',
    async () => {
      const out = join(dir, 'int.lgan');
      // once: a second Ctrl-C quits without saving
      const { code, stdout, stderr } = await lucidSignalled(
        ['gan', 'fit', '--data', data, '--condition', 'preds', '--epochs', '100000', '--batch', '50', '--out', out],
        (e) => e.includes('"epoch":2,'),
        'SIGINT',
      );
      assert.equal(code, 130, stderr);
      assert.match(
        stderr,
        /lucid: interrupted \(SIGINT\): finishing the current step and saving a checkpoint to .*int\.lgan/,
      );
      assert.match(stderr, /lucid: interrupted at epoch \d+, step \d of 6; saved the checkpoint/);
      assert.match(
        stderr,
        /lucid: interrupted \(SIGINT\): training stopped after \d+ of 100000 epochs; the checkpoint is written to .*int\.lgan\n$/,
      );
      assert.match(stdout, /lucid: wrote .*int\.lgan/);
      const r = lucid(
        'gan',
        'sample',
        '--model',
        out,
        '-n',
        '4',
        '--condition',
        'preds=1',
        '--out',
        join(dir, 'int.csv'),
      );
      assert.equal(r.status, 0, r.stderr);
    },
  );

  it('--help explains the cond-vector modes and proxy analysis', () => {
    const s = lucid('gan', 'sample', '--help').stdout;
    assert.match(s, /zero {7}all zeros/);
    assert.match(s, /empirical {2}true frequencies/);
    assert.match(s, /Proxy analysis/);
    assert.match(lucid('gan', 'fit', '--help').stdout, /Proxy analysis: .*extra\n?.*columns in the data file/s);
  });
});
