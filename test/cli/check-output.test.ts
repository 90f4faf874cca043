// `lucid check` on score, multiclass and regression predictions through the real CLI: the simulator's tables
// (lucid dataset export sim --target), exit 0 on fair and 3 on direct with the failing group in the Markdown, the
// JSON result read back as a baseline of the same kind, and exit 2 for a rule on another kind's metric, a class not
// in the data and --output with --model; exit 1 for a baseline of another kind (a data file). Seconds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucid, STACK } from '../helpers/cli-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-check-output-'));
const f = (name: string) => join(dir, name);
const policy = (name: string, body: unknown) => {
  writeFileSync(f(name), JSON.stringify(body, null, 2));
  return f(name);
};
const usage = (r: { status: number | null; stderr: string }, msg: RegExp) => {
  assert.equal(r.status, EXIT.usage, r.stderr);
  assert.doesNotMatch(r.stderr, STACK);
  assert.match(r.stderr, msg);
};

describe('lucid check on the other output kinds', () => {
  before(() => {
    for (const target of ['multiclass', 'regression'])
      for (const bias of ['fair', 'direct']) {
        const r = lucid(
          'dataset',
          'export',
          'sim',
          '--target',
          target,
          '--bias',
          bias,
          '--rows',
          '3000',
          '--seed',
          '2',
          '--out',
          f(`${target}-${bias}.csv`),
        );
        assert.equal(r.status, 0, r.stderr);
      }
    policy('multi.json', {
      version: 1,
      inputs: { label: 'merited', pred: 'decision', output: 'multiclass', classOrder: ['approve', 'refer', 'decline'] },
      rules: [{ metric: 'class_positivity_rate_ratio', class: 'decline', attribute: 'group', max: 1.5 }],
    });
    policy('reg.json', {
      version: 1,
      inputs: { label: 'merited_limit', pred: 'offered_limit', favourable: 'higher' },
      rules: [{ metric: 'mean_prediction_ratio', attribute: 'group', min: 0.85 }],
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('multiclass: exit 0 on fair, 3 on direct with group B failing on decline; JUnit and JSON written', () => {
    const ok = lucid('check', '--data', f('multiclass-fair.csv'), '--policy', f('multi.json'));
    assert.equal(ok.status, EXIT.ok, ok.stderr + ok.stdout);
    assert.match(ok.stdout, /^## Fairness check: passed\n/);
    const bad = lucid(
      'check',
      '--data',
      f('multiclass-direct.csv'),
      '--policy',
      f('multi.json'),
      '--junit',
      f('m.xml'),
      '--format',
      'json',
    );
    assert.equal(bad.status, EXIT.policy, bad.stderr);
    const json = JSON.parse(bad.stdout) as {
      inputs: { output: { kind: string } };
      policy: { rules: { class?: string }[] };
      checks: Record<string, unknown>[];
    };
    assert.equal(json.inputs.output.kind, 'multiclass');
    assert.equal(json.policy.rules[0].class, 'decline');
    assert.deepEqual(
      json.checks.filter((c) => c.fails).map((c) => [c.group, c.class]),
      [['B', 'decline']],
    );
    assert.match(readFileSync(f('m.xml'), 'utf8'), /message="group = B: class_positivity_rate_ratio of decline /);
  });

  it(
    'regression, its kind inferred: exit 3 on direct; ' + '--baseline of the same kind compares, of another exits 1',
    () => {
      const fair = lucid('check', '--data', f('regression-fair.csv'), '--policy', f('reg.json'), '--format', 'json');
      assert.equal(fair.status, EXIT.ok, fair.stderr);
      writeFileSync(f('reg-base.json'), fair.stdout);
      const r = lucid(
        'check',
        '--data',
        f('regression-direct.csv'),
        '--policy',
        f('reg.json'),
        '--baseline',
        f('reg-base.json'),
      );
      assert.equal(r.status, EXIT.policy, r.stderr);
      assert.match(r.stdout, /inferred regression/);
      assert.match(r.stdout, /\| ❌ fail \| mean_prediction_ratio:group \| B \|/);
      assert.match(r.stderr, /1 regression against/);
      const other = lucid(
        'check',
        '--data',
        f('multiclass-fair.csv'),
        '--policy',
        policy('multi-same-ids.json', {
          version: 1,
          inputs: { label: 'merited', pred: 'decision' },
          rules: [{ metric: 'class_fnr', class: 'approve', attribute: 'group', max: 1 }],
        }),
        '--baseline',
        f('reg-base.json'),
      );
      assert.equal(other.status, EXIT.runtime, other.stderr);
      assert.match(
        other.stderr,
        /the baseline was checked on a regression output, this check is on a multiclass output/,
      );
    },
  );

  it("exit 2: a rule on another kind's metric, a class not in the data, --output with --model", () => {
    usage(
      lucid(
        'check',
        '--data',
        f('regression-fair.csv'),
        '--policy',
        policy('ff.json', {
          version: 1,
          inputs: { label: 'merited_limit', pred: 'offered_limit' },
          rules: [{ metric: 'four_fifths', attribute: 'group', min: 0.8 }],
        }),
      ),
      /rules\[0\]\.metric: rule "four_fifths:group": four_fifths is a metric of binary and score outputs; the output is regression/,
    );
    usage(
      lucid(
        'check',
        '--data',
        f('multiclass-fair.csv'),
        '--policy',
        policy('cls.json', {
          version: 1,
          inputs: { label: 'merited', pred: 'decision' },
          rules: [{ metric: 'class_fpr', class: 'Decline', attribute: 'group', max: 0.5 }],
        }),
      ),
      /rules\[0\]\.class: rule "class_fpr\[Decline\]:group" names the class "Decline"/,
    );
    usage(
      lucid(
        'check',
        '--data',
        f('regression-fair.csv'),
        '--policy',
        f('reg.json'),
        '--model',
        f('none.json'),
        '--output',
        'regression',
      ),
      /lucid check --model audits a binary decision/,
    );
  });
});
