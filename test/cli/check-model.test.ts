// `lucid check --model` and `lucid audit --policy`: rules on canonical sets need an audit, run here on
// the simulator's 1,200 rows with tiny settings (1 GAN seed, 1 epoch, 100 rows per set, no
// intersections, no FALE bootstrap): seconds, not minutes. The canonical_shift, canonical_validity and
// canonical_fidelity values are the audit's (audit.json), a value the data contradicts is insufficient
// data, and audit --policy writes its report before it exits 3.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucid } from '../helpers/cli-fixtures.js';
import { simModelDir } from '../helpers/sim-model.js';
import { xmlWellFormed } from '../helpers/check-data.js';
import { SHIFT_STATUS_WORDS, type ShiftStatus } from '../../src/audit/checks.js';

const f = simModelDir('lucid-check-model-');
const TINY = [
  '--gan-epochs',
  '1',
  '--gan-seeds',
  '1',
  '-n',
  '100',
  '--intersection-rows',
  '0',
  '--fale-bootstrap',
  '0',
  '--quiet',
];
const RULES = [
  { id: 'shift', metric: 'canonical_shift', attribute: 'sex', maxAbs: 0.5 },
  { id: 'valid', metric: 'canonical_validity', min: 0.01 },
  { id: 'fid', metric: 'canonical_fidelity', attribute: 'income', max: 1 },
  { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.01 },
];
const policy = (name: string, rules: unknown[]) => {
  const p = join(f.dir, name);
  writeFileSync(p, JSON.stringify({ version: 1, inputs: { label: 'approved', positive: 'yes' }, rules }, null, 2));
  return p;
};

describe('canonical-set rules', () => {
  it('lucid check without --model: a usage error naming the rule', () => {
    const r = lucid('check', '--data', f.data, '--policy', policy('c.json', RULES), '--pred', 'approved');
    assert.equal(r.status, EXIT.usage, r.stderr);
    assert.match(
      r.stderr,
      /rules\[0\]\.metric: rule "shift" is a canonical_shift rule \(and 2 more canonical-set rules\)[^\n]*give --model <file>/,
    );
  });

  it('lucid check --model: runs the audit, checks every rule on it, writes its folder with --out', () => {
    const t = Date.now();
    const r = lucid(
      'check',
      '--data',
      f.data,
      '--policy',
      policy('c.json', RULES),
      '--model',
      f.modelFile,
      '--out',
      join(f.dir, 'aud'),
      '--format',
      'json',
      '--junit',
      join(f.dir, 'c.xml'),
      ...TINY,
    );
    assert.equal(r.status, EXIT.ok, r.stderr + r.stdout.slice(0, 2000));
    const j = JSON.parse(r.stdout);
    const audit = JSON.parse(readFileSync(join(f.dir, 'aud', 'audit.json'), 'utf8'));
    const by = (rule: string) => j.checks.filter((c: { rule: string }) => c.rule === rule);
    // canonical_shift: the pooled canonical shift of each value, as the audit's checks give it
    for (const c of by('shift')) {
      const k = audit.checks.shifts.find(
        (x: { feature: string; value: string; kind: string }) =>
          x.feature === 'sex' && x.value === c.group && x.kind === 'share',
      );
      assert.equal(c.value, k.pooled);
      assert.ok(c.context.startsWith(SHIFT_STATUS_WORDS[k.status as ShiftStatus]), `${c.context} (${k.status})`);
      // a value the data contradicts, whose seeds differ in sign or whose size the sets misstate is insufficient data
      assert.equal(
        c.status === 'insufficient data',
        ['disagrees', 'unsettled', 'overstates', 'understates'].includes(k.status),
        `${c.group}: ${k.status} → ${c.status}`,
      );
      if (k.status === 'disagrees') assert.match(c.reason, /^contradicted by the data: /);
      if (k.status === 'overstates' || k.status === 'understates')
        assert.match(c.reason, new RegExp(`^the canonical sets ${k.status.slice(0, -1)} the size`));
    }
    assert.deepEqual(
      by('valid').map((c: { group: string }) => c.group),
      ['positive set', 'negative set'],
    );
    const fid = audit.checks.fidelity.find((x: { feature: string }) => x.feature === 'income');
    assert.deepEqual(
      by('fid').map((c: { value: number }) => c.value),
      [fid.positive.distance, fid.negative.distance],
    );
    assert.equal(by('ff').length > 0, true);
    assert.equal(xmlWellFormed(readFileSync(join(f.dir, 'c.xml'), 'utf8')), null);
    assert.ok(Date.now() - t < 15_000, `${Date.now() - t} ms`);
  });

  it('lucid audit --policy: the report first, then the Markdown and JUnit, then exit 3', () => {
    const out = join(f.dir, 'aud2');
    const p = policy('strict.json', [
      ...RULES,
      { id: 'strict-valid', metric: 'canonical_validity', min: 1, groups: ['positive'] },
      { id: 'strict-fid', metric: 'canonical_fidelity', attribute: 'income', max: 0 },
    ]);
    const r = lucid(
      'audit',
      '--data',
      f.data,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--protected',
      'sex',
      '--model',
      f.modelFile,
      '--out',
      out,
      '--policy',
      p,
      '--markdown',
      join(f.dir, 's.md'),
      ...TINY,
    );
    assert.equal(r.status, EXIT.policy, r.stderr);
    assert.match(r.stderr, /lucid: fairness policy failed: \d+ of \d+ checks cross/);
    assert.ok(existsSync(join(out, 'report.html')) && existsSync(join(out, 'audit.json')));
    const md = readFileSync(join(f.dir, 's.md'), 'utf8');
    assert.match(md, /^## Fairness check: FAILED/);
    assert.match(md, /\| ❌ fail \| strict-fid \| positive set \|/);
    assert.match(r.stdout, /policy .*strict\.json: FAILED/);
    // usage errors before the GAN: a rule on a column that is not protected
    const u = lucid(
      'audit',
      '--data',
      f.data,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--protected',
      'sex',
      '--model',
      f.modelFile,
      '--out',
      out,
      '--policy',
      policy('u.json', [{ metric: 'canonical_shift', attribute: 'group', maxAbs: 0.1 }]),
      ...TINY,
    );
    assert.equal(u.status, EXIT.usage, u.stderr);
    assert.match(u.stderr, /rules\[0\]\.attribute: "group" is not among the audit's --protected \(sex\)/);
  });
});
