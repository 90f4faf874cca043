// The page's lines above the report (pageView) and the summary's policy line (policyLine), as exact
// strings: the page and the CLI show them verbatim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageView } from '../../src/report/page.js';
import { policyLine } from '../../src/report/summary.js';
import type { CheckResult } from '../../src/audit/policy.js';
import type { AuditInterruption } from '../../src/audit/types.js';
import { sampleAuditResult } from './sample-audit.js';

const stop = (cutShort: boolean): AuditInterruption => ({
  stage: 'gan',
  signal: null,
  gan: { seedsAsked: 2, seedsTrained: 1, epochsAsked: 300, epochsDone: [120] },
  cutShort,
  text: 'INTERRUPTED during the GAN training',
});

test('pageView: the summary line and the checks paragraph of a completed audit', () => {
  const v = pageView(sampleAuditResult(), 12.345);
  assert.equal(v.cancelled, false);
  assert.equal(
    v.summary,
    'Audited 3000 rows in 12.3 s: LUCID-GAN 300 epochs × 3 seeds; 1000 positive and 1000 negative rows.',
  );
  assert.equal(
    v.checks,
    'The canonical sets shift the other way from the data on 1 value (age = (28, 37]): those are not findings. ' +
      'They misrepresent 1 of 7 features against the real rows (capital-gain); those are not named as findings.',
  );
  assert.equal(v.checksOk, false);
  assert.equal(v.disagreements, 1);
  assert.equal(v.unfaithful, 1);
});

test('pageView: nothing found reads as one sentence', () => {
  const r = sampleAuditResult();
  for (const c of r.checks.shifts) c.status = 'agrees';
  for (const f of r.checks.fidelity) f.faithful = true;
  const v = pageView(r, 1);
  assert.equal(
    v.checks,
    'Every checked figure agrees with the real rows or the real rows cannot tell; the sets generate every feature ' +
      'faithfully.',
  );
  assert.deepEqual([v.checksOk, v.disagreements, v.unfaithful], [true, 0, 0]);
});

test('pageView: an audit whose GAN training was cut short reads as cancelled', () => {
  const r = sampleAuditResult();
  r.meta.interrupted = stop(true);
  const v = pageView(r, 3);
  assert.equal(v.cancelled, true);
  assert.equal(
    v.summary,
    'Audited 3000 rows in 3.0 s (cancelled: the sets come from the GANs trained so far): LUCID-GAN 300 epochs × 3 ' +
      'seeds; 1000 positive and 1000 negative rows.',
  );
});

test('pageView: a stop after the GANs had finished is not a cancelled training', () => {
  const r = sampleAuditResult();
  r.meta.interrupted = stop(false);
  assert.equal(pageView(r, 3).cancelled, false);
});

const check = (over: Partial<CheckResult>): CheckResult =>
  ({
    policy: { file: 'fairness.json', version: 1, rules: [] },
    passed: true,
    counts: { checks: 6, pass: 5, fail: 0, insufficient: 1, regressed: 0, failing: 0 },
    baseline: null,
    ...over,
  }) as unknown as CheckResult;

test('policyLine: the verdict and the counts, the regressions with a baseline, the summary file', () => {
  assert.equal(
    policyLine(check({})),
    '  policy fairness.json: passed: 5 pass, 0 fail, 1 with insufficient data of 6 checks\n',
  );
  assert.equal(
    policyLine(
      check({
        passed: false,
        counts: { checks: 6, pass: 3, fail: 2, insufficient: 1, regressed: 2, failing: 2 },
        baseline: {} as CheckResult['baseline'],
      }),
      'out/check.md',
    ),
    // past TEXT_WIDTH the line wraps with a hanging indent
    '  policy fairness.json: FAILED: 3 pass, 2 fail, 1 with insufficient data, 2 regressed of 6 checks (summary:\n' +
      '      out/check.md)\n',
  );
});
