// The page's lines above the report (pageView, and anyPageView for a score, classes or a real value) and the
// summary's policy line (policyLine), as exact strings: the page and the CLI show them verbatim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anyPageView, pageView } from '../../src/report/page.js';
import { outputAuditHeadline } from '../../src/report/output-html.js';
import { runAnyAudit } from '../../src/audit/run.js';
import { isOutputAudit, type OutputAuditResult } from '../../src/audit/types.js';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import type { OutputTarget } from '../../src/methods/metrics/targets.js';
import { getEngine } from '../helpers/engine.js';
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

// a score audited by its group metrics (runAnyAudit), with and without the canonical sets of its two targets
async function scoreAudit(): Promise<OutputAuditResult> {
  const engine = await getEngine();
  const sim = simulate(new Rng(engine, 5), { n: 300, bias: 'direct', target: 'score' });
  const r = await runAnyAudit(engine, sim.table, {
    label: 'repaid',
    positive: 'yes',
    pred: 'credit_score',
    favourable: 'higher',
    protected: ['group'],
    source: 'score.csv',
    ganSeeds: 1,
    ganEpochs: 1,
    n: 50,
  });
  assert.ok(isOutputAudit(r), 'a score is audited as one');
  return r;
}

test('anyPageView: a score says its kind, its headline, and why it has no canonical sets', async () => {
  const r = await scoreAudit();
  // 300 rows: the default deciles hold 61, fewer than the audit of their sets needs
  assert.ok(r.sides && 'skipped' in r.sides);
  const v = anyPageView(r, 2);
  assert.equal(v.summary, `Audited 300 rows in 2.0 s: output ${r.meta.output.reason}; ${outputAuditHeadline(r)}.`);
  assert.match(
    v.summary,
    /^Audited 300 rows in 2\.0 s: output inferred score: .*; headline: group = B is disadvantaged/,
  );
  assert.equal(v.checks, `No canonical sets: ${r.sides.skipped}`);
  assert.deepEqual([v.cancelled, v.checksOk, v.disagreements, v.unfaithful], [false, false, 0, 0]);
});

test("anyPageView: a score's canonical sets: its two targets, then the checks of their binary audit", async () => {
  const r = await scoreAudit();
  const sets = sampleAuditResult();
  const band = (lo: number, hi: number): OutputTarget => ({
    kind: 'band',
    lo,
    hi,
    spec: { lo, hi, scale: 'units' },
    label: `credit_score in [${lo}, ${hi}]`,
  });
  r.sides = {
    pair: { favoured: band(700, 850), other: band(300, 600), ordered: true, why: 'as given' },
    rows: { favoured: 80, other: 90, neither: 130 },
    sideColumn: 'canonical_side',
    audit: sets,
  };
  const v = anyPageView(r, 2);
  assert.equal(
    v.summary,
    `Audited 300 rows in 2.0 s: output ${r.meta.output.reason}; ${outputAuditHeadline(r)}. Canonical sets of ` +
      'credit_score in [700, 850] (80 rows, positive) against credit_score in [300, 600] (90 rows, negative): ' +
      'LUCID-GAN 300 epochs × 3 seeds; 1000 positive and 1000 negative rows.',
  );
  // the checks are the sets' binary audit's, word for word
  assert.equal(v.checks, pageView(sets, 2).checks);
  assert.deepEqual([v.checksOk, v.disagreements, v.unfaithful], [false, 1, 1]);
  // a binary audit reads as pageView says
  assert.deepEqual(anyPageView(sets, 2), pageView(sets, 2));
});
