// The CLI as a user runs it: `lucid demo`, bad arguments, unknown commands.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('lucid CLI', () => {
  it('demo trains the self-check MLP: the loss falls below 0.1 and the same seed repeats exactly', () => {
    const a = lucid('demo', '--steps', '600', '--seed', '3', '--json');
    assert.equal(a.status, 0, a.stderr);
    const r = JSON.parse(a.stdout);
    assert.equal(r.steps, 600);
    assert.ok(r.curve[0][1] > r.curve.at(-1)[1], 'loss decreases');
    assert.ok(r.curve.at(-1)[1] < 0.1, `final loss ${r.curve.at(-1)[1]}`);
    assert.ok(r.testAccuracy > 0.95, `held-out accuracy ${r.testAccuracy}`);
    const b = JSON.parse(lucid('demo', '--steps', '600', '--seed', '3', '--json').stdout);
    assert.deepEqual(b.curve, r.curve);
  });

  it('demo prints a readable loss curve', () => {
    const r = lucid('demo', '--steps', '150');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /engine self-check/);
    assert.match(r.stdout, /step +150 +loss \d\.\d{4}/);
  });

  it('a bad argument exits 2 with a message naming it, no stack trace', () => {
    const r = lucid('demo', '--steps', 'many');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--steps <n>' argument 'many' is invalid/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });

  it('an unknown command exits 2', () => {
    const r = lucid('frobnicate');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown command 'frobnicate'/);
  });
});
