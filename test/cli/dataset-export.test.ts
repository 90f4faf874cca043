// `lucid dataset export` with --target (sim and adult) and --with (compas), through the built CLI: the columns
// written, the summary, and usage errors that name the valid choices. The Adult and COMPAS runs skip, saying why,
// when LUCID_DATA_DIR lacks the files.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIM_FEATURES } from '../../src/data/simulator.js';
import { ADULT_COLUMNS } from '../../src/data/datasets.js';
import { datasetAvailability } from '../../src/node/datasets.js';
import { lucid, STACK } from '../helpers/cli-fixtures.js';

let dir: string;
const header = (file: string): string[] => readFileSync(file, 'utf8').split('\n', 1)[0].split(',');
const ok = (r: ReturnType<typeof lucid>) => assert.equal(r.status, 0, r.stderr);
const usage = (r: ReturnType<typeof lucid>, re: RegExp) => {
  assert.equal(r.status, 2, `exit ${r.status}: ${r.stderr}`);
  assert.match(r.stderr, re);
  assert.doesNotMatch(r.stderr, STACK);
};

describe('lucid dataset export --target / --with', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-export-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sim: each target writes its label and its planted prediction, and says how to audit it', () => {
    const expect = {
      score: ['repaid', 'credit_score', /--output score --positive yes --favourable higher/],
      multiclass: ['merited', 'decision', /--output multiclass --class-order approve,refer,decline/],
      regression: ['merited_limit', 'offered_limit', /--output regression --favourable higher/],
    } as const;
    for (const [target, [label, pred, audit]] of Object.entries(expect)) {
      const out = join(dir, `${target}.csv`);
      const r = lucid('dataset', 'export', 'sim', '--target', target, '--rows', '300', '--out', out);
      ok(r);
      assert.deepEqual(header(out), [...SIM_FEATURES, label, pred]);
      assert.match(r.stdout.replace(/\s+/g, ' '), audit);
      const j = lucid(
        'dataset',
        'export',
        'sim',
        '--target',
        target,
        '--rows',
        '300',
        '--out',
        out,
        '--format',
        'json',
      );
      ok(j);
      assert.equal(JSON.parse(j.stdout).target, target);
    }
    // --score names the planted prediction
    const named = join(dir, 'named.csv');
    ok(lucid('dataset', 'export', 'sim', '--target', 'score', '--score', 'fico', '--rows', '50', '--out', named));
    assert.deepEqual(header(named).slice(-2), ['repaid', 'fico']);
  });

  it('sim: --target binary is the default table, byte for byte, with no target in the summary', () => {
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    const ra = lucid('dataset', 'export', 'sim', '--rows', '400', '--seed', '3', '--out', a, '--format', 'json');
    const rb = lucid('dataset', 'export', 'sim', '--target', 'binary', '--rows', '400', '--seed', '3', '--out', b);
    ok(ra);
    ok(rb);
    assert.equal(readFileSync(a, 'utf8'), readFileSync(b, 'utf8'));
    assert.deepEqual(header(a), [...SIM_FEATURES, 'approved']);
    assert.equal('target' in JSON.parse(ra.stdout), false);
  });

  it('usage errors name the valid targets and the data sets the options belong to', () => {
    const out = join(dir, 'x.csv');
    usage(
      lucid('dataset', 'export', 'sim', '--target', 'ordinal', '--out', out),
      /--target ordinal: unknown for sim; expected one of binary, score, multiclass, regression/,
    );
    usage(
      lucid('dataset', 'export', 'adult', '--target', 'score', '--out', out),
      /--target score: unknown for adult; expected one of income, hours, hours3/,
    );
    usage(lucid('dataset', 'export', 'compas', '--target', 'hours', '--out', out), /--target is for sim and adult/);
    usage(lucid('dataset', 'export', 'sim', '--with', 'decile_score', '--out', out), /--with is for compas/);
    usage(
      lucid('dataset', 'export', 'sim', '--target', 'regression', '--score', 'income', '--out', out),
      /--score income: the simulator already has a column of that name/,
    );
  });

  const adult = datasetAvailability('adult');
  const compas = datasetAvailability('compas');

  it('adult: --target hours and hours3 move Hours per week out of the features into the label', (t) => {
    if (!adult.available) return t.skip(`Adult data absent: ${adult.reason}`);
    const names = ADULT_COLUMNS.map((c) => c.reference);
    const features = names.filter((n) => n !== 'Hours per week');
    for (const [target, label] of [
      ['hours', 'Hours per week'],
      ['hours3', 'Hours class'],
    ] as const) {
      const out = join(dir, `adult-${target}.csv`);
      const r = lucid('dataset', 'export', 'adult', '--split', 'val', '--target', target, '--out', out);
      ok(r);
      assert.deepEqual(header(out), [...features, label]);
      assert.match(r.stdout, new RegExp(`label ${label};`));
    }
    const income = join(dir, 'adult-income.csv');
    ok(lucid('dataset', 'export', 'adult', '--split', 'val', '--target', 'income', '--out', income));
    assert.deepEqual(header(income), names);
  });

  it('compas: decile_score only with --with, beside the label, with how to leave it out of a model', (t) => {
    if (!compas.available) return t.skip(`COMPAS data absent: ${compas.reason}`);
    const plain = join(dir, 'compas.csv');
    ok(lucid('dataset', 'export', 'compas', '--out', plain));
    assert.ok(!header(plain).includes('decile_score'));
    const out = join(dir, 'compas-deciles.csv');
    const r = lucid('dataset', 'export', 'compas', '--with', 'decile_score', '--out', out);
    ok(r);
    assert.deepEqual(header(out).slice(-2), ['two_year_recid', 'decile_score']);
    assert.match(r.stdout.replace(/\s+/g, ' '), /--drop decile_score/);
    usage(lucid('dataset', 'export', 'compas', '--with', 'score_text', '--out', out), /it can add decile_score/);
  });
});
