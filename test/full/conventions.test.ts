// The --format json runs of test/cli/conventions.test.ts too slow for `npm test` (a fixture's `slow`,
// e.g. lucid demo's three audits): the same check, under npm run test:full (LUCID_TEST_FULL=1).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliFixtures, lucid, programCommands, writeFixtureFiles } from '../helpers/cli-fixtures.js';
import { fullSkip } from '../helpers/full.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-conv-full-'));
const fixtures = cliFixtures(dir);
const slow = programCommands().filter((c) => fixtures[c.name]?.slow);

describe('CLI conventions: the slow --format json runs', { skip: fullSkip(), timeout: 1_800_000 }, () => {
  before(() => writeFixtureFiles(dir));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('there is at least one (lucid demo)', () => assert.ok(slow.some((c) => c.name === 'demo')));

  for (const { name } of slow) {
    it(`lucid ${name} --format json prints one JSON object on stdout`, () => {
      const r = lucid(...fixtures[name].args, '--format', 'json');
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(typeof j, 'object');
      assert.ok(Array.isArray(j.reports) && j.reports.length > 0, r.stdout);
    });
  }
});
