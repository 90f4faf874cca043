// What every command promises (issue 7 §7): --help with a worked example, --format json where it
// returns data, exit codes 0 / 1 (runtime) / 2 (usage), and no stack trace without --debug.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const STACK = /\n\s+at .*:\d+:\d+/;

const COMMANDS = [
  ['audit'], ['dataset', 'export'], ['demo'], ['fale'], ['gan', 'fit'], ['gan', 'sample'], ['inspect'], ['invert'], ['metrics'],
  ['model', 'train'], ['model', 'predict'], ['quality'], ['selfcheck'],
];

describe('CLI conventions', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-conv-'));
    // 60 rows: x numeric, g categorical, y label; learnable from x
    const lines = ['x,g,y'];
    for (let i = 0; i < 60; i++) lines.push(`${(i / 6).toFixed(2)},${i % 3 === 0 ? 'a' : 'b'},${i >= 30 ? 'yes' : 'no'}`);
    writeFileSync(join(dir, 'd.csv'), lines.join('\n') + '\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const cmd of COMMANDS) {
    it(`lucid ${cmd.join(' ')} --help exits 0 and shows a worked example`, () => {
      const r = lucid(...cmd, '--help');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /Examples?:\n\s+lucid /, `no worked example in lucid ${cmd.join(' ')} --help`);
    });
  }

  it('--format json prints one JSON object (model train, model predict, invert)', () => {
    const model = join(dir, 'm.json');
    const t = lucid('model', 'train', '--data', join(dir, 'd.csv'), '--label', 'y', '--epochs', '5', '--quiet', '--format', 'json', '--out', model);
    assert.equal(t.status, 0, t.stderr);
    const tj = JSON.parse(t.stdout);
    assert.equal(tj.out, model);
    assert.equal(tj.positive, 'yes');
    const p = lucid('model', 'predict', '--model', model, '--data', join(dir, 'd.csv'), '--format', 'json', '--out', join(dir, 'p.csv'));
    assert.equal(p.status, 0, p.stderr);
    assert.equal(JSON.parse(p.stdout).rows, 60);
    const v = lucid('invert', '--model', model, '--prefer', 'yes', '-n', '20', '--epochs', '10', '--format', 'json', '--out', join(dir, 'c.csv'));
    assert.equal(v.status, 0, v.stderr);
    assert.equal(JSON.parse(v.stdout).samples, 20);
  });

  it('dataset export sim writes the simulator\'s table; an unknown data set is a usage error', () => {
    const out = join(dir, 'sim.csv');
    const r = lucid('dataset', 'export', 'sim', '--bias', 'proxy', '--rows', '200', '--seed', '4', '--format', 'json', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.rows, 200);
    assert.ok(j.columns.includes('neighbourhood') && j.columns.includes('approved'));
    const again = lucid('dataset', 'export', 'sim', '--bias', 'proxy', '--rows', '200', '--seed', '4', '--out', join(dir, 'sim2.csv'));
    assert.equal(again.status, 0);
    assert.equal(readFileSync(out, 'utf8'), readFileSync(join(dir, 'sim2.csv'), 'utf8'));
    const bad = lucid('dataset', 'export', 'iris', '--out', join(dir, 'x.csv'));
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unknown data set "iris"/);
  });

  it('exit codes: 2 for usage errors, 1 for runtime errors; no stack trace unless --debug', () => {
    const usage = lucid('model', 'train', '--data', join(dir, 'd.csv'));
    assert.equal(usage.status, 2);
    assert.doesNotMatch(usage.stderr, STACK);
    const runtime = lucid('model', 'predict', '--model', join(dir, 'missing.json'), '--data', join(dir, 'd.csv'), '--out', join(dir, 'x.csv'));
    assert.equal(runtime.status, 1, runtime.stderr);
    assert.match(runtime.stderr, /missing\.json/);
    assert.doesNotMatch(runtime.stderr, STACK);
    const debug = lucid('--debug', 'model', 'predict', '--model', join(dir, 'missing.json'), '--data', join(dir, 'd.csv'), '--out', join(dir, 'x.csv'));
    assert.equal(debug.status, 1);
    assert.match(debug.stderr, STACK);
  });
});
