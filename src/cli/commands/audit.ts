// `lucid audit`: parse, validate, call auditFile and writeAudit, print what src/report/summary.ts makes of the result.
import { Command } from 'commander';
import { AUDIT_DEFAULTS, type AuditOptions } from '../../audit/run.js';
import type { AuditResult } from '../../audit/types.js';
import { CANONICAL_DEFAULTS } from '../../audit/canonical.js';
import { CORRECTION_DEFAULTS } from '../../audit/correct.js';
import { GAN_SCHEDULES, SCHEDULE_NAMES } from '../../audit/schedule.js';
import { EngineError } from '../../engine/errors.js';
import { prepareOutDir, writeAudit } from '../../node/audit.js';
import { auditAnyWithProgress } from '../run-audit.js';
import { initNodeEngine } from '../../node/engine.js';
import { AUDIT_SEED_HELP, auditCommonValues, withAuditRunOptions } from '../audit-options.js';
import {
  finishPolicy,
  POLICY_OPTIONS,
  preparePolicyFiles,
  raiseIfFailed,
  type PolicyCliOptions,
} from '../policy-options.js';
import { checkPolicyOnAudit, policyReferences, validateForAudit } from '../../audit/policy-audit.js';
import {
  POLICY_DEFAULTS,
  requireNoCanonical,
  type CheckResult,
  type CheckSettings,
  type Policy,
} from '../../audit/policy.js';
import { readPolicyFile } from '../../node/policy.js';
import {
  FAIRNESS_OPTIONS as F,
  OUTPUT_OPTIONS as O,
  withGroupComparisonOptions,
  fairnessValues,
  withDataOptions,
  type DataCliOptions,
  type FairnessCliOptions,
  names,
  nonNegativeInt,
  summaryFormat,
  DATA_FILE,
} from '../options.js';
import { directionsPhrase, judgedPhrase, METRICS_DEFAULTS, modelOrPred } from '../../methods/metrics/index.js';
import { modelFilePhrase } from '../../models/adapters.js';
import { auditJson, auditSummary, policyLine } from '../../report/summary.js';
import { isOutputAudit, type AnyAuditResult } from '../../audit/types.js';
import type { OutputKind } from '../../methods/metrics/outputs.js';

interface AuditCliOptions extends DataCliOptions, FairnessCliOptions, PolicyCliOptions {
  data: string;
  label: string;
  positive?: string;
  threshold?: number;
  protected: string[];
  model?: string;
  pred?: string;
  seed: number;
  format: 'text' | 'json';
  quiet?: boolean;
  out: string;
  output?: OutputKind;
  classOrder?: string[];
  toleranceUnits?: number;
  band?: string[];
  bandScale?: 'quantile' | 'units';
  class?: string[];
}

/**
 * The check's settings under an audit: the audit's inputs, the policy's (or the command line's) minGroup,
 * onInsufficient and margin.
 */
export function policySettings(policy: Policy, r: AuditResult, opts: { margin?: number }): CheckSettings {
  return {
    label: r.meta.label,
    positive: r.meta.positive,
    favourable: r.meta.favourable,
    pred: `the model's predictions (${r.meta.model.source})`,
    threshold: r.meta.threshold,
    minGroup: r.metrics.attributes.minGroupSize,
    suppressBelow: r.meta.suppressBelow ?? undefined,
    onInsufficient: policy.onInsufficient ?? POLICY_DEFAULTS.onInsufficient,
    margin: opts.margin ?? policy.margin ?? POLICY_DEFAULTS.margin,
    bootstrap: 0,
  };
}

/** A policy is checked on a binary audit: the other kinds' policies are not read by lucid audit yet. */
function binaryResult(r: AnyAuditResult): AuditResult {
  if (isOutputAudit(r))
    throw new EngineError(
      'E_ARG',
      `--policy checks a binary audit's group metrics and canonical sets; this audit's output is ` +
        `${r.meta.output.reason} ` +
        '(check its metrics with lucid check --data and a policy instead)',
    );
  return r;
}

const HELP_AFTER =
  `
The audit, in order: the model's predictions on the data; group metrics per protected attribute and
their intersection; --gan-seeds LUCID-GANs (CTGAN conditioned on the predictions, trained as published)
on the data with the predictions (the label column left out); the positive and negative canonical sets
(-n rows per GAN seed each, pooled), drawn by rejection: a generated row is kept only when the model
(with --pred: a surrogate fitted to the column) scores it on its side and it contradicts no exact
dependency of the data, at most ${CANONICAL_DEFAULTS.drawCap} rows drawn per row wanted (a set that hits the cap is ` +
  `smaller
and says so; it is never padded); the proxy view for protected columns the model does not read; the
checks of the sets against the real rows; for each pair of categorical protected attributes and each
combination of their values, sets with both values fixed (per side and seed, ` +
  `${AUDIT_DEFAULTS.intersectionBudget.perRealRow}× the combination's real rows on
that side over the seeds, at least ${AUDIT_DEFAULTS.intersectionBudget.minRows}, at most --intersection-rows) and a ` +
  `heatmap;
LUCID (built-in models only, projected onto the data's range); FALE per protected attribute against its
group with the lowest selection rate among groups that are not small (callable models only).

Verdicts (docs/methods.md "Group metrics"): every group is compared with its attribute's reference (--reference,
else the largest group that is not small) on ${judgedPhrase()}.
Ratios inside [t, 1/t] pass (--tolerance t, default ${METRICS_DEFAULTS.tolerance}); outside, a ratio is flagged when ` +
  `a test of
"inside the band" rejects after Holm's correction over every comparison of the report (attributes and
intersection; family-wise error 5%), else inconclusive; groups under --min-group rows get "too little
data". ${directionsPhrase()} The report says, per attribute,
whether the model reads it and which features carry the disparity (docs/methods.md "Why a group is flagged").

The checks (docs/methods.md "How an audit checks its canonical sets"): fidelity per feature and side (KS for
numbers, total variation for categories, between a set and the real rows the model scores on that side,
beside a bootstrap noise floor); for every protected value, every value of the top features and every
heat-map cell, the canonical shift of each GAN seed against the real shift and its interval at the
verdicts' corrected level (Holm over every checked value): agrees, disagrees or within noise. A value is stated as ` +
  `favoured or disfavoured only when the
data and every seed agree; disagreements are said as such, never as preferences. Generated numbers are
clipped into the observed range of the audited rows and keep the data's decimals.

Numeric protected attributes (e.g. age) are grouped into quantile bins (--protected-bins, default
${AUDIT_DEFAULTS.protectedBins}) or explicit edges (--protected-edges Age=16,30,50,90; bins (a, b], the first ` +
  `includes a).
Distributions: numeric features on 20 equal-width bins spanning the sets' 1st–99th percentiles;
categorical ones by category share; Jensen–Shannon distance with base-2 logs (0 same, 1 disjoint).
GAN epochs (default): about ${AUDIT_DEFAULTS.ganSteps} generator steps (${AUDIT_DEFAULTS.ganStepsFewRows} on at most ` +
  `${AUDIT_DEFAULTS.fewRows} rows, EXPERIMENTS.md §7.2), i.e.
steps / (rows / batch), within [${AUDIT_DEFAULTS.minEpochs}, ${AUDIT_DEFAULTS.maxEpochs}], for each of the ` +
  `--gan-seeds GANs (Adult's 15,060 test rows: 50 epochs each).

--gan-schedule: how long the GANs train. ${SCHEDULE_NAMES.map((k) => `${k}: ${GAN_SCHEDULES[k].label}`).join('; ')}.
The fast schedule holds ${Math.round(100 * GAN_SCHEDULES.fast.holdout)}% of the rows (at most ` +
  `${GAN_SCHEDULES.fast.maxHoldout}) out of training and checks every ${GAN_SCHEDULES.fast.every} steps ` +
  `(EXPERIMENTS.md §9).
The plateau schedule checks every ${GAN_SCHEDULES.plateau.every} steps: the main sets drawn as the audit draws them, ` +
  `their fidelity to the
training rows and their acceptance; it stops after ${GAN_SCHEDULES.plateau.patience} checks with neither ` +
  `${100 * GAN_SCHEDULES.plateau.minDelta!}% closer than the closest so far
nor ${100 * GAN_SCHEDULES.plateau.acceptanceRise!} points more acceptance than the highest, not before ` +
  `${GAN_SCHEDULES.plateau.minSteps} steps, and keeps the weights it stops
with (EXPERIMENTS.md §12). Default ${AUDIT_DEFAULTS.ganSchedule}.
--gan-mode is the loss, a separate choice.

--gan-rows n (default ${AUDIT_DEFAULTS.ganRows.toLocaleString('en-US')}): data with more rows than n gives each GAN ` +
  `a stratified sample of exactly n rows,
drawn with its own seed: strata are the model's decision × every protected attribute's groups (numeric ones
binned as above), sized in proportion to the data (largest remainder), every non-empty stratum at least
one row when n allows. The fast schedule holds its rows out of the sample. The metrics, the checks of the
sets against the real rows, the intersections, FALE and the clipping ranges use every row; the GAN's
transformer (its mixtures, --gan-point-share) is fitted on the rows it trains on. Adult's 15,060 rows and
COMPAS are not sampled by default.

--gan-condition: how the generator is conditioned when the sets are drawn. extreme (the paper's): the
prediction condition exactly 1 or 0 and an all-zero cond vector; observed: the condition of each row is
the score of a real row the model puts on that side; matched: a real row of the side gives both its
score and, as training does, its category in a random discrete column. Default ${AUDIT_DEFAULTS.ganCondition} ` +
  `(EXPERIMENTS.md §7.2, §11).

--gan-correct: classifier draws --gan-candidates (default ${CORRECTION_DEFAULTS.factor}) × the rows of each main set ` +
  `(by rejection, as above) and keeps
the rows wanted, drawn without replacement with probability ∝ p / (1 − p), where p is the probability
a real-vs-generated classifier (the built-in MLP, with each number's decile bin; trained on the other
half of the candidates against at most ${CORRECTION_DEFAULTS.realPerRow}× as many real rows of the side) gives the ` +
  `row of being
real; weights capped at ${CORRECTION_DEFAULTS.cap}× their mean. The rows stay generated. Intersections and ` +
  `conditional sets are
not corrected; a side with fewer than ${CORRECTION_DEFAULTS.minReal} real rows is not either. linear: the same with ` +
  `logistic regression
(it reweights categories and bins but cannot single out rows). Default ${AUDIT_DEFAULTS.ganCorrect} (EXPERIMENTS.md ` +
  `§11).

--gan-mode: paper (default) trains LUCID-GAN as published. consistency adds the prediction-consistency
term of lucid gan fit: on the bias simulator its sets collapse onto a few kinds of rows, so the
protected-group mix of a FAIR model's sets swings by ±0.4–0.8 between seeds (EXPERIMENTS.md §2).

--pred: the model is only a column of its predictions: no LUCID, no FALE, no proxy inference (the
model's inputs are unknown); generated rows are scored by a surrogate (the built-in classifier fitted
to the column's decisions; its agreement on held-out rows is reported).

Scores, classes and real values (--output, else inferred from the label and --pred, or the output a
--model declares; the summary's and the report's first line says which and why): --favourable
higher|lower for a score or a real value, --class-order (most favourable class first) for classes,
--tolerance-units d for a real value's band in its units; --threshold cuts a score's threshold view on
its own scale (default: its median). The audit is then the group metrics of the kind, with verdicts
and the report (lucid metrics --help says what each kind computes; a score's report draws its
selection-rate ratios across thresholds); the canonical sets, LUCID, FALE and the intersections' sets
read a binary decision and are not run (the report says so).

--policy fairness.json (docs/ci.md; with --baseline, --margin, --markdown, --junit as lucid check has them):
after the report is written, every rule is checked on the audit (output rules on its group metrics,
canonical_shift / canonical_validity / canonical_fidelity on its canonical sets and their checks); a
failing policy exits 3, after every file is written. A rule's attribute must be among --protected.

Output folder: report.html, metrics.{csv,json}, metrics-intersection.{csv,json},
canonical-{positive,negative}.csv (with gan_seed), intersection-<A>=<a>-<B>=<b>-{positive,negative}.csv,
distributions.{csv,json}, lucid-{canonical,start}.csv, fale-<attr>.{csv,json}, protected-bins.json,
audit.json (everything, with tables as file references; the checks under "checks", what the report
states under "findings").

Examples (loans-train.csv and loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model train --data loans-train.csv --label approved --positive yes --out loans.json
  lucid audit --data loans-test.csv --label approved --positive yes --protected sex,group,age \\
    --protected-edges age=18,30,50,90 --model loans.json --out loans-audit
`;

export const auditCommand = withGroupComparisonOptions(
  withAuditRunOptions(
    withDataOptions(
      new Command('audit')
        .description(
          'audit a model for unfairness: group metrics, LUCID-GAN canonical sets (with the proxy view and ' +
            'intersections), LUCID and FALE, in one HTML report',
        )
        .requiredOption('--data <file>', `the audit data (${DATA_FILE}) with the label and the protected columns`),
    )
      .requiredOption('--label <column>', 'the true label column')
      .addOption(F.positive())
      .addOption(O.favourable())
      .addOption(O.threshold())
      // what the predictions are (settled in the audit's plan: src/audit/output-plan.ts); lucid check, which runs
      // the audit with --model, has these options of its own for its policies
      .addOption(O.output())
      .addOption(O.classOrder())
      .addOption(O.toleranceUnits())
      .addOption(O.band())
      .addOption(O.bandScale())
      .addOption(O.targetClass())
      .requiredOption(
        '--protected <names>',
        'protected columns, comma-separated (categorical, or numeric: binned)',
        names,
      )
      .option('--model <file>', `the audited model (${modelFilePhrase()})`)
      .option(
        '--pred <column>',
        "instead of --model: a column holding the model's predictions (P(positive), 0/1 or labels)",
      )
      .addOption(F.modelClasses())
      .addOption(F.allowInvertedScores()),
  ).option('--seed <n>', AUDIT_SEED_HELP, nonNegativeInt, 0),
)
  .addOption(summaryFormat())
  .addOption(
    POLICY_OPTIONS.policy(
      "after the report is written, check this fairness policy (docs/ci.md) against the audit's group metrics and " +
        'canonical sets; exit 3 when it fails',
    ),
  )
  .addOption(POLICY_OPTIONS.baseline())
  .addOption(POLICY_OPTIONS.margin())
  .addOption(POLICY_OPTIONS.markdown())
  .addOption(POLICY_OPTIONS.junit())
  .option('--quiet', 'no progress on stderr')
  .requiredOption('--out <dir>', 'the folder to write the report and files to (created if needed)')
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: AuditCliOptions) => {
    const started = Date.now();
    modelOrPred(opts, {
      none: 'give --model FILE (the model to audit) or --pred COLUMN (a column of its predictions)',
      both: 'give either --model or --pred, not both',
    });
    for (const k of ['baseline', 'margin', 'markdown', 'junit'] as const)
      if (opts[k] !== undefined && !opts.policy)
        throw new EngineError('E_ARG', `--${k} belongs to --policy: give --policy fairness.json`);
    // the policy is read and checked against the audit's options before the GAN trains: a usage error costs no minutes
    const policy = opts.policy ? await readPolicyFile(opts.policy) : null;
    if (policy) validateForAudit(policy, opts.protected);
    // every path before any work: the output folder, the baseline, the Markdown and JUnit files
    await prepareOutDir(opts.out);
    const early = policy ? await preparePolicyFiles(opts) : {};
    if (policy && opts.pred !== undefined)
      requireNoCanonical(policy, 'lucid audit --pred (the generated rows are scored by a surrogate, not the model)');
    const fair = fairnessValues(opts);
    const reference = policy ? policyReferences(policy, fair.reference) : fair.reference;
    const engine = await initNodeEngine();
    const check = await auditAnyWithProgress(
      engine,
      {
        ...auditCommonValues(opts),
        label: opts.label,
        positive: opts.positive,
        // a binary decision's cut in [0, 1] (default 0.5), or a score's on its own scale (default its median)
        threshold: opts.threshold,
        output: opts.output,
        classOrder: opts.classOrder,
        toleranceUnits: opts.toleranceUnits,
        bands: opts.band,
        bandScale: opts.bandScale,
        targetClasses: opts.class,
        ...fair,
        // the output's kind reads --favourable (positive|negative, or higher|lower) with its own default
        favourable: opts.favourable as AuditOptions['favourable'],
        reference,
        protected: opts.protected,
        pred: opts.pred,
      },
      { quiet: opts.quiet },
      async (out) => {
        const written = await writeAudit(opts.out, out.result);
        // the policy after the report is written (no lost work); its failure is raised last, after stdout
        let check: CheckResult | null = null;
        if (policy) {
          const settings = policySettings(policy, binaryResult(out.result), opts);
          check = checkPolicyOnAudit(binaryResult(out.result), policy, settings, opts.data);
          check.audit!.out = written.report;
          await finishPolicy(check, policy, settings, opts, started, early);
        }
        if (opts.format === 'json') process.stdout.write(auditJson(out.result, written, check));
        else process.stdout.write(auditSummary(out.result, written) + (check ? policyLine(check, opts.markdown) : ''));
        return check;
      },
    );
    if (check) raiseIfFailed(check);
  });
