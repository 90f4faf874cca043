// `lucid invert` on a multiclass and a regression built-in model through the real CLI (issue #40): tiny models trained
// on the simulator's tables, inverted towards a class, a quantile band, a band in units and a value; the CSV's columns
// and the summary's success read back against the model's own predictions of the canonical rows; exit 2 naming the
// option for a target that does not fit the model, an unknown class, a quantile band outside [0, 1] or without --data;
// a binary model keeps --prefer. Seconds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucid, STACK } from '../helpers/cli-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-invert-target-'));
const f = (name: string) => join(dir, name);
const ok = (r: { status: number | null; stderr: string; stdout: string }) => {
  assert.equal(r.status, 0, r.stderr);
  return r;
};
const usage = (r: { status: number | null; stderr: string }, msg: RegExp) => {
  assert.equal(r.status, EXIT.usage, r.stderr);
  assert.doesNotMatch(r.stderr, STACK);
  assert.match(r.stderr, msg);
};
/** A CSV's column by name (no quoted fields in these files). */
const column = (file: string, name: string): string[] => {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const j = lines[0].split(',').indexOf(name);
  assert.ok(j >= 0, `${file} has no column ${name}`);
  return lines.slice(1).map((l) => l.split(',')[j]);
};
const small = ['-n', '200', '--epochs', '80', '--format', 'json'];

describe('lucid invert towards a class, a band, a value', () => {
  before(() => {
    for (const target of ['multiclass', 'regression'])
      ok(
        lucid(
          'dataset',
          'export',
          'sim',
          '--target',
          target,
          '--bias',
          'direct',
          '--rows',
          '400',
          '--seed',
          '1',
          '--out',
          f(`${target}.csv`),
        ),
      );
    ok(lucid('dataset', 'export', 'sim', '--bias', 'direct', '--rows', '400', '--seed', '1', '--out', f('binary.csv')));
    const train = ['--hidden', '16', '--epochs', '30', '--lr', '0.003', '--quiet'];
    ok(
      lucid(
        'model',
        'train',
        '--data',
        f('multiclass.csv'),
        '--label',
        'decision',
        '--drop',
        'merited',
        '--out',
        f('mc.json'),
        ...train,
      ),
    );
    ok(
      lucid(
        'model',
        'train',
        '--data',
        f('regression.csv'),
        '--label',
        'offered_limit',
        '--drop',
        'merited_limit',
        '--out',
        f('rg.json'),
        ...train,
      ),
    );
    ok(
      lucid(
        'model',
        'train',
        '--data',
        f('binary.csv'),
        '--label',
        'approved',
        '--positive',
        'yes',
        '--out',
        f('b.json'),
        ...train,
      ),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a multiclass model towards a class: most snapped rows are predicted that class, as the summary says', () => {
    const r = ok(
      lucid('invert', '--model', f('mc.json'), '--target-class', 'refer', ...small, '--out', f('refer.csv')),
    );
    const s = JSON.parse(r.stdout);
    assert.equal(s.target, 'class refer');
    assert.equal(s.class, 'refer');
    assert.ok(s.success > 0.8, `success ${s.success}`);
    const cls = column(f('refer.csv'), 'class_snapped');
    assert.equal(cls.length, 200);
    assert.equal(cls.filter((c) => c === 'refer').length / 200, s.success);
    // the model's own prediction of the written rows agrees (numbers as written, categoricals decoded)
    ok(
      lucid(
        'model',
        'predict',
        '--model',
        f('mc.json'),
        '--data',
        f('refer.csv'),
        '--column',
        'again',
        '--out',
        f('refer-pred.csv'),
      ),
    );
    const again = column(f('refer-pred.csv'), 'again');
    let same = 0;
    for (let i = 0; i < 200; i++) if (again[i] === cls[i]) same++;
    assert.ok(same >= 190, `${same} of 200 rows predicted the same class after writing`);
  });

  it('a regression model towards a quantile band, a band in units and a value', () => {
    const r = ok(
      lucid(
        'invert',
        '--model',
        f('rg.json'),
        '--band',
        '0.9-1',
        '--data',
        f('regression.csv'),
        ...small,
        '--out',
        f('top.csv'),
      ),
    );
    const s = JSON.parse(r.stdout);
    assert.match(s.target, /^top decile of offered_limit/);
    assert.ok(s.success > 0.8, `success ${s.success}`);
    const pred = column(f('top.csv'), 'pred_snapped').map(Number);
    // the top decile is open above: a sample beyond the highest audited prediction is in it
    assert.deepEqual(s.open, { below: false, above: true });
    assert.equal(pred.filter((y) => y >= s.lo).length / 200, s.success);

    const u = JSON.parse(
      ok(
        lucid(
          'invert',
          '--model',
          f('rg.json'),
          '--band',
          '5000-6000',
          '--band-scale',
          'units',
          ...small,
          '--out',
          f('units.csv'),
        ),
      ).stdout,
    );
    assert.deepEqual([u.lo, u.hi, u.tolerance], [5000, 6000, 0]);
    assert.ok(u.success > 0.8, `success ${u.success}`);

    const v = JSON.parse(
      ok(lucid('invert', '--model', f('rg.json'), '--target-value', '9000', ...small, '--out', f('value.csv'))).stdout,
    );
    assert.equal(v.target, 'offered_limit = 9000');
    assert.ok(v.tolerance > 0);
    assert.ok(v.success > 0.8, `success ${v.success}`);
    const near = column(f('value.csv'), 'pred_snapped').filter((y) => Math.abs(Number(y) - 9000) <= v.tolerance);
    assert.equal(near.length / 200, v.success);
  });

  it('exit 2 naming the option: a target of another kind, an unknown class, a quantile band out of range', () => {
    const inv = (...a: string[]) => lucid('invert', ...a, '-n', '5', '--epochs', '2', '--out', f('x.csv'));
    usage(
      inv('--model', f('mc.json'), '--prefer', 'refer'),
      /--prefer reads a binary classifier; .*mc\.json is a multiclass/,
    );
    usage(
      inv('--model', f('mc.json'), '--target-class', 'maybe'),
      /--target-class "maybe" is not a class of .*approve, decline, refer/,
    );
    usage(inv('--model', f('mc.json'), '--band', '0.1-0.2'), /--band reads a regression model; .*give --target-class/);
    usage(inv('--model', f('mc.json')), /is a multiclass model: give --target-class/);
    usage(inv('--model', f('rg.json'), '--target-class', 'refer'), /--target-class reads a multiclass model/);
    usage(
      inv('--model', f('rg.json'), '--band', '0.9-1.2', '--data', f('regression.csv')),
      /--band "0\.9-1\.2" is read in quantiles, which lie in \[0, 1\]/,
    );
    usage(inv('--model', f('rg.json'), '--band', '0.9-1'), /--band "0\.9-1" is read in quantiles .*give --data/);
    usage(inv('--model', f('rg.json'), '--band', '0.9-1', '--target-value', '3'), /one of --target-value and --band/);
    usage(inv('--model', f('rg.json'), '--target-value', '3', '--loss', 'logit-ce'), /--loss chooses a binary/);
    usage(
      inv('--model', f('b.json'), '--target-class', 'yes'),
      /--target-class reads a multiclass model; .*b\.json is a binary classifier: give --prefer/,
    );
    usage(inv('--model', f('b.json')), /b\.json is a binary classifier: give --prefer <label>/);
    // a binary model keeps --prefer
    ok(inv('--model', f('b.json'), '--prefer', 'yes'));
  });
});
