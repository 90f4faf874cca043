// `lucid check` through the real CLI: its exit codes (0 pass, 3 a policy fails or regressed, 1 a data
// error, 2 a usage error: a malformed policy naming the file and the JSON path, an unknown metric with
// "did you mean", an unknown attribute column), and the Markdown, JUnit and JSON outputs, written
// before it exits 3. Small generated CSVs (test/helpers/check-data.ts), no model, no GAN: seconds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucid, STACK } from '../helpers/cli-fixtures.js';
import { gateCsv, WORSE, xmlWellFormed } from '../helpers/check-data.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-check-'));
const f = (name: string) => join(dir, name);
const policy = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => {
  writeFileSync(
    f(name),
    JSON.stringify({ version: 1, inputs: { label: 'y', positive: 'yes', pred: 'pred' }, rules, ...extra }, null, 2),
  );
  return f(name);
};
const oneLine = (r: { stderr: string }) => {
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, STACK);
};

describe('lucid check', () => {
  before(() => {
    writeFileSync(f('d.csv'), gateCsv());
    writeFileSync(f('worse.csv'), gateCsv(WORSE));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exit 0 when every check passes: the Markdown on stdout, small groups listed as insufficient data', () => {
    const p = policy('pass.json', [
      { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5 },
      { metric: 'tpr_diff', attribute: 'sex', reference: 'M', maxAbs: 0.2 },
    ]);
    const r = lucid('check', '--data', f('d.csv'), '--policy', p);
    assert.equal(r.status, EXIT.ok, r.stderr);
    assert.match(r.stdout, /^## Fairness check: passed\n/);
    assert.match(r.stdout, /⚠️ insufficient data: X has 5 rows \(fewer than 30\)/);
  });

  it('exit 3 when a threshold is crossed, after writing the Markdown, the JUnit XML and the JSON', () => {
    const p = policy('fail.json', [{ id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.8 }]);
    const r = lucid(
      'check',
      '--data',
      f('d.csv'),
      '--policy',
      p,
      '--markdown',
      f('out/summary.md'),
      '--junit',
      f('out/report.xml'),
      '--format',
      'json',
    );
    assert.equal(r.status, EXIT.policy, r.stderr);
    assert.equal(
      r.stderr,
      `lucid: fairness policy failed: 1 of 3 checks crosses a threshold (${p} on ${f('d.csv')})\n`,
    );
    const j = JSON.parse(r.stdout);
    assert.equal(j.tool, 'lucid check');
    assert.equal(j.passed, false);
    assert.match(readFileSync(f('out/summary.md'), 'utf8'), /^## Fairness check: FAILED/);
    const xml = readFileSync(f('out/report.xml'), 'utf8');
    assert.equal(xmlWellFormed(xml), null);
    assert.match(xml, /<failure type="threshold" message="sex = F: four_fifths 0\.600, outside ≥ 0\.800">/);
    writeFileSync(f('base.json'), r.stdout);
  });

  it('--baseline: exit 3 on a regression beyond --margin though no threshold is crossed; 0 with a wider margin', () => {
    // four-fifths of F: 0.6 in base.json, 0.5 in worse.csv; the threshold 0.5 still passes
    const p = policy('loose.json', [{ id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5 }]);
    const r = lucid(
      'check',
      '--data',
      f('worse.csv'),
      '--policy',
      p,
      '--baseline',
      f('base.json'),
      '--junit',
      f('reg.xml'),
    );
    assert.equal(r.status, EXIT.policy, r.stderr);
    assert.match(r.stderr, /0 of 3 checks cross a threshold, 1 regression against .*base\.json/);
    assert.match(r.stdout, /\| ❌ regressed \| ff \| F \| 0\.600 \| 0\.500 \| −0\.100 \| \+0\.100 \(margin 0\.02\) \|/);
    assert.match(readFileSync(f('reg.xml'), 'utf8'), /<failure type="regression"/);
    const ok = lucid(
      'check',
      '--data',
      f('worse.csv'),
      '--policy',
      p,
      '--baseline',
      f('base.json'),
      '--margin',
      '0.15',
    );
    assert.equal(ok.status, EXIT.ok, ok.stderr);
  });

  it(
    'exit 2: neither a predictions column nor --model; ' + '--pred with --model (a policy pred gives way to --model)',
    () => {
      const rules = [{ metric: 'tpr', attribute: 'sex', min: 0.5 }];
      writeFileSync(f('nopred.json'), JSON.stringify({ version: 1, inputs: { label: 'y', positive: 'yes' }, rules }));
      const none = lucid('check', '--data', f('d.csv'), '--policy', f('nopred.json'));
      assert.equal(none.status, EXIT.usage, none.stderr);
      assert.equal(none.stderr, `lucid: error: give --pred, or "inputs": {"pred": …} in ${f('nopred.json')}\n`);
      const both = lucid(
        'check',
        '--data',
        f('d.csv'),
        '--policy',
        policy('both.json', rules),
        '--model',
        'm.json',
        '--pred',
        'pred',
      );
      assert.equal(both.status, EXIT.usage, both.stderr);
      assert.equal(both.stderr, 'lucid: error: give --model (the audit scores the data with it) or --pred, not both\n');
    },
  );

  it('exit 2: a malformed policy file names the file (and the JSON path of the bad entry)', () => {
    writeFileSync(f('broken.json'), '{ "version": 1, "rules": [ { "metric": "tpr", } ] }');
    const r = lucid('check', '--data', f('d.csv'), '--policy', f('broken.json'));
    assert.equal(r.status, EXIT.usage, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`^lucid: error: ${f('broken.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`),
    );
    oneLine(r);
    const p = policy('badkey.json', [
      { metric: 'tpr', attribute: 'sex', min: 0.5 },
      { metric: 'fpr_ratio', attribute: 'sex', min: 'high' },
    ]);
    const k = lucid('check', '--data', f('d.csv'), '--policy', p);
    assert.equal(k.status, EXIT.usage);
    assert.equal(k.stderr, `lucid: error: ${p}: rules[1].min: expected a number, got "high"\n`);
    const missing = lucid('check', '--data', f('d.csv'), '--policy', f('nowhere.json'));
    assert.equal(missing.status, EXIT.usage);
    assert.match(missing.stderr, /nowhere\.json: file not found/);
  });

  it(
    'exit 2: an unknown metric says "did you mean"; an unknown attribute column names the policy path and the close ' +
      'column',
    () => {
      const m = lucid(
        'check',
        '--data',
        f('d.csv'),
        '--policy',
        policy('m.json', [
          { metric: 'tpr', attribute: 'sex', min: 0.5 },
          { metric: 'four_fifth', attribute: 'sex', min: 0.8 },
        ]),
      );
      assert.equal(m.status, EXIT.usage);
      assert.match(
        m.stderr,
        /^lucid: error: .*m\.json: rules\[1\]\.metric: "four_fifth" is not a metric \(did you mean "four_fifths"\?\)/,
      );
      oneLine(m);
      const a = lucid(
        'check',
        '--data',
        f('d.csv'),
        '--policy',
        policy('a.json', [{ metric: 'tpr', attribute: 'Race', min: 0.5 }]),
      );
      assert.equal(a.status, EXIT.usage);
      assert.equal(
        a.stderr,
        `lucid: error: ${f('d.csv')}: ${f('a.json')}: rules[0].attribute "Race" is not a column (did you mean ` +
          `"race"?); the columns are: sex, race, y, pred\n`,
      );
      const g = lucid(
        'check',
        '--data',
        f('d.csv'),
        '--policy',
        policy('gan.json', [{ metric: 'canonical_shift', attribute: 'sex', max: 0.1 }]),
      );
      assert.equal(g.status, EXIT.usage);
      assert.match(
        g.stderr,
        /rules\[0\]\.metric: rule "canonical_shift:sex" is a canonical_shift rule: it needs the canonical sets of a LUCID-GAN, which lucid check without --model cannot make: give --model <file>/,
      );
      oneLine(g);
    },
  );

  it('exit 1: a malformed data file or baseline names it; the outputs of a failed run are not written', () => {
    writeFileSync(f('bad.csv'), Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0x61]));
    const p = policy('ok.json', [{ metric: 'tpr', attribute: 'sex', min: 0.1 }]);
    const d = lucid('check', '--data', f('bad.csv'), '--policy', p, '--junit', f('never.xml'));
    assert.equal(d.status, EXIT.runtime, d.stderr);
    assert.match(d.stderr, /bad\.csv/);
    oneLine(d);
    assert.equal(existsSync(f('never.xml')), false);
    writeFileSync(f('notbase.json'), '{"tool": "something else"}');
    const b = lucid('check', '--data', f('d.csv'), '--policy', p, '--baseline', f('notbase.json'));
    assert.equal(b.status, EXIT.runtime, b.stderr);
    assert.match(b.stderr, /notbase\.json: not a baseline/);
  });

  it("the command line overrides the policy's inputs; without a label anywhere it is a usage error", () => {
    writeFileSync(
      f('noinputs.json'),
      JSON.stringify({ version: 1, rules: [{ metric: 'selection_rate', attribute: 'race', min: 0.1 }] }),
    );
    const r = lucid(
      'check',
      '--data',
      f('d.csv'),
      '--policy',
      f('noinputs.json'),
      '--label',
      'y',
      '--positive',
      'yes',
      '--pred',
      'pred',
      '--format',
      'json',
    );
    assert.equal(r.status, EXIT.ok, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).checks.map((c: { group: string }) => c.group),
      ['A', 'B'],
    );
    const u = lucid('check', '--data', f('d.csv'), '--policy', f('noinputs.json'));
    assert.equal(u.status, EXIT.usage);
    assert.match(u.stderr, /give --label, or "inputs": \{"label": …\} in /);
  });
});
