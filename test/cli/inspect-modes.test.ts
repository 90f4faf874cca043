// `lucid inspect --modes`: the VGM modes the transformer will use, per numeric column.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostRng } from '../helpers/engine.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));

describe('lucid inspect --modes', () => {
  it('reports modes on both peaks of a bimodal column and none for a constant one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucid-modes-'));
    try {
      const rnd = hostRng(3);
      const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
      const lines = ['hours,site,version'];
      for (let i = 0; i < 2000; i++)
        lines.push(
          `${(rnd() < 0.4 ? 20 + normal() : 40 + 2 * normal()).toFixed(3)},${rnd() < 0.5 ? 'north' : 'south'},7`,
        );
      const file = join(dir, 'shifts.csv');
      writeFileSync(file, lines.join('\n') + '\n');
      const r = spawnSync(process.execPath, [bin, 'inspect', '--data', file, '--modes', '--format', 'json'], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      const hours = s.columns.find((c: { name: string }) => c.name === 'hours');
      const low = hours.modes.filter((m: { mean: number }) => Math.abs(m.mean - 20) < 3);
      const high = hours.modes.filter((m: { mean: number }) => Math.abs(m.mean - 40) < 5);
      assert.equal(low.length + high.length, hours.modes.length, JSON.stringify(hours.modes));
      const w = (ms: { weight: number }[]) => ms.reduce((a, m) => a + m.weight, 0);
      assert.ok(Math.abs(w(low) - 0.4) < 0.04 && Math.abs(w(high) - 0.6) < 0.04, JSON.stringify(hours.modes));
      assert.deepEqual(s.columns.find((c: { name: string }) => c.name === 'version').modes, []);
      assert.equal(s.columns.find((c: { name: string }) => c.name === 'site').modes, undefined);
      const table = spawnSync(process.execPath, [bin, 'inspect', '--data', file, '--modes'], { encoding: 'utf8' });
      assert.match(table.stdout, /hours +numeric +0 +min [\d.]+, max [\d.]+; \d+ modes: μ /);
      assert.match(table.stdout, /version +numeric +0 +min 7, max 7; no modes \(a single value\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
