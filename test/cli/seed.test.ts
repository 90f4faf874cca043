// One seed, said one way: `lucid audit --help` and `lucid demo --help` describe --seed with the same
// text (AUDIT_SEED_HELP), and a report's header qualifies every seed it names, so the audit's seed is
// never shown as a bare "seed 0" beside another seed (the demo's simulated data has its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AUDIT_SEED_HELP } from '../../src/cli/audit-options.js';
import { renderReport } from '../../src/report/index.js';
import { lucid } from '../helpers/cli-fixtures.js';
import { sampleAuditResult } from '../report/sample-audit.js';
import { namedSeeds } from '../helpers/seeds.js';

const flat = (s: string) => s.replace(/\s+/g, ' ');

test(
  '--seed has the same description in lucid audit --help and lucid demo --help, saying how the GAN seeds derive ' +
    'from it',
  () => {
    assert.match(AUDIT_SEED_HELP, /s \+ k × 1,000,003/);
    for (const cmd of ['audit', 'demo']) {
      const r = lucid(cmd, '--help');
      assert.equal(r.status, 0, r.stderr);
      assert.ok(
        flat(r.stdout).includes(AUDIT_SEED_HELP),
        `lucid ${cmd} --help does not describe --seed as the audit does:\n${r.stdout}`,
      );
    }
  },
);

test("the report's header names the audit's seed as such, and any other seed by what it seeds", () => {
  const r = sampleAuditResult();
  r.meta.seed = 5;
  r.meta.data.source = 'simulated loan decisions, direct bias (simulator seed 6)';
  const seeds = namedSeeds(renderReport(r));
  assert.ok(
    seeds.some(([w, n]) => w === 'audit' && n === 5),
    JSON.stringify(seeds),
  );
  assert.deepEqual(
    seeds.filter(([w]) => w !== 'audit' && w !== 'simulator'),
    [],
    'a seed named without saying what it seeds',
  );
  assert.deepEqual(
    seeds.filter(([w, n]) => w === 'audit' && n !== 5),
    [],
  );
});
