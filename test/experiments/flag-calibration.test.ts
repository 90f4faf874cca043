// EXPERIMENTS.md §8 in miniature: the calibration script runs, and on two fixed seeds a fair model gets
// no false alarm while the direct bias is found in both (seeded, so the same every run); coded the
// other way (§8.3), the same comparisons are flagged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../experiments/flag-calibration.mjs', import.meta.url));

test('flag calibration (EXPERIMENTS.md §8): fair seeds 0–1 without false alarms, direct bias found', () => {
  const out = mkdtempSync(join(tmpdir(), 'lucid-flags-'));
  try {
    const run = spawnSync(
      process.execPath,
      [script, 'run', '--kinds', 'fair,direct', '--seeds', '0-1', '--population', '20000', '--out', out],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    const other = spawnSync(
      process.execPath,
      [
        script,
        'run',
        '--kinds',
        'fair,direct',
        '--seeds',
        '0-1',
        '--population',
        '20000',
        '--coding',
        'recoded',
        '--out',
        out,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(other.status, 0, other.stderr);
    const an = spawnSync(process.execPath, [script, 'analyse', '--out', out], { encoding: 'utf8' });
    assert.equal(an.status, 0, an.stderr);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    assert.match(summary, /\| fair \| 2000 \| 2 \| 0\/2 \(0%\) \|/);
    assert.match(summary, /\| direct \| 2000 \| 2 \| 0\/2 \(0%\) \| 2\/2 \(100%\) \| 2\/2 \(100%\) \|/);
    assert.match(summary, /Coded the other way: 4 of 4 runs flag exactly the same comparisons/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
