// The CLI as a user runs it: `lucid selfcheck` (the engine self-check), `lucid demo`, bad arguments, unknown commands.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unwrapSummary } from '../helpers/unwrap.js';
import { namedSeeds } from '../helpers/seeds.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('lucid CLI', () => {
  it('selfcheck trains the self-check MLP: the loss falls below 0.1 and the same seed repeats exactly', () => {
    const a = lucid('selfcheck', '--steps', '600', '--seed', '3', '--json');
    assert.equal(a.status, 0, a.stderr);
    const r = JSON.parse(a.stdout);
    assert.equal(r.steps, 600);
    assert.ok(r.curve[0][1] > r.curve.at(-1)[1], 'loss decreases');
    assert.ok(r.curve.at(-1)[1] < 0.1, `final loss ${r.curve.at(-1)[1]}`);
    assert.ok(r.testAccuracy > 0.95, `held-out accuracy ${r.testAccuracy}`);
    // --format json, as every command takes it; --json is its old name and gives the same
    const b = JSON.parse(lucid('selfcheck', '--steps', '600', '--seed', '3', '--format', 'json').stdout);
    assert.deepEqual(b.curve, r.curve);
  });

  it('selfcheck prints a readable loss curve', () => {
    const r = lucid('selfcheck', '--steps', '150');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /engine self-check/);
    assert.match(r.stdout, /step +150 +loss \d\.\d{4}/);
  });

  it('a bad argument exits 2 with a message naming it, no stack trace', () => {
    const r = lucid('selfcheck', '--steps', 'many');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--steps <n>' argument 'many' is invalid/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });

  it('demo audits three simulated models (direct, proxy, intersectional bias) and links the reports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucid-demo-'));
    try {
      const r = lucid('demo', '--out', dir, '--gan-epochs', '2', '--quiet');
      assert.equal(r.status, 0, r.stderr);
      for (const kind of ['direct', 'proxy', 'intersectional']) {
        assert.match(r.stdout, new RegExp(`${kind} +.*report\\.html`));
        assert.ok(existsSync(join(dir, kind, 'report.html')), kind);
        const a = JSON.parse(readFileSync(join(dir, kind, 'audit.json'), 'utf8'));
        assert.equal(a.planted[0].kind, kind);
        assert.ok(a.planted[0].disadvantaged.length > 0);
      }
      // the header names the audit's seed and the simulator's, each as such (demo --seed 0: audit 0, audited rows 1)
      const seeds = namedSeeds(readFileSync(join(dir, 'direct', 'report.html'), 'utf8'));
      assert.deepEqual(
        seeds.filter(([w]) => w !== 'audit' && w !== 'simulator'),
        [],
        JSON.stringify(seeds),
      );
      assert.ok(
        seeds.some(([w, n]) => w === 'audit' && n === 0) && seeds.some(([w, n]) => w === 'simulator' && n === 1),
        JSON.stringify(seeds),
      );
      assert.match(unwrapSummary(r.stdout), /planted: proxy: .*neighbourhood.*disadvantaged: group=B/);
      assert.match(unwrapSummary(r.stdout), /disadvantaged: sex=Female & group=B/);
      // what it found against what was planted, and where to look
      assert.match(
        unwrapSummary(r.stdout),
        /found: group = B flagged disadvantaged: selection rate \d+\.\d% vs \d+\.\d% for A \(x0\.\d\d\)/,
      );
      assert.match(unwrapSummary(r.stdout), /found: sex × group = Female, B flagged disadvantaged: selection rate/);
      // the planted rule against the trained model, in one sentence
      assert.match(
        unwrapSummary(r.stdout),
        /The planted rule reads 4 columns \(income, education, debt_ratio, group\); the model trained on its decisions reads 8 \(age, sex, neighbourhood and hours_per_week too\), so its decisions can differ by sex/,
      );
      assert.match(r.stdout, /open .*index\.html in a browser/);
      const proxy = JSON.parse(readFileSync(join(dir, 'proxy', 'audit.json'), 'utf8'));
      assert.deepEqual(proxy.proxy.columns, ['sex', 'group']);
      // the index: per report what was planted, what the audit found and whether they match (the found line's decision)
      const index = readFileSync(join(dir, 'index.html'), 'utf8');
      const items = index.split('<li><a href="').slice(1);
      assert.deepEqual(
        items.map((x) => x.slice(0, x.indexOf('"'))),
        ['direct/report.html', 'proxy/report.html', 'intersectional/report.html'],
      );
      for (const item of items) {
        assert.match(item, /<p>planted: [^<]+ disadvantaged, by the rule S = /);
        assert.match(item, /<p class="why">The planted rule reads \d columns/);
        assert.match(item, /<li class="(found|missed)">(✓ found|✗ missed): /);
        assert.match(
          item,
          /<strong>(✓ the audit finds what was planted|✗ the audit misses what was planted)<\/strong>/,
        );
      }
      assert.match(items[0], /✓ found: group = B is flagged disadvantaged: selection rate/);
      assert.match(items[2], /✓ found: sex × group = Female, B is flagged disadvantaged: selection rate/);
      const found = (unwrapSummary(r.stdout).match(/found: [^\n]*/g) ?? []).map((l) => !l.includes('MISSED'));
      assert.match(
        index,
        new RegExp(`The audit finds what was planted in ${found.filter((x) => x).length} of 3 reports\\.`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('demo --dataset adult without the data is a runtime error (exit 1) naming LUCID_DATA_DIR', () => {
    const r = spawnSync(process.execPath, [bin, 'demo', '--dataset', 'adult', '--out', join(tmpdir(), 'lucid-never')], {
      encoding: 'utf8',
      env: { ...process.env, LUCID_DATA_DIR: join(tmpdir(), 'lucid-no-such-dir') },
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /LUCID_DATA_DIR/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });

  it('an unknown command exits 2', () => {
    const r = lucid('frobnicate');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown command 'frobnicate'/);
  });
});
