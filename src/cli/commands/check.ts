// `lucid check`: the fairness gate for CI. Wiring only: read the policy, the data and the
// baseline (src/node/policy.ts), call checkOutputPolicy (src/audit/policy-output.ts: any output kind) and
// compareBaseline (src/audit/baseline.ts), write the
// Markdown, JUnit and JSON outputs, and only then raise PolicyFailure, which the one error handler
// turns into exit 3 (EXIT.policy).
import { Command, Option } from 'commander';
import {
  POLICY_DEFAULTS,
  requireNoCanonical,
  ruleMetricList,
  type CheckSettings,
  type Policy,
} from '../../audit/policy.js';
import { checkPolicyOnAudit, policyProtected, policyReferences } from '../../audit/policy-audit.js';
import { checkOutputPolicy, type OutputSettings } from '../../audit/policy-output.js';
import type { OutputKind } from '../../methods/metrics/outputs.js';
import { auditCommonValues, withAuditRunOptions } from '../audit-options.js';
import {
  finishPolicy,
  POLICY_OPTIONS,
  preparePolicyFiles,
  raiseIfFailed,
  type PolicyCliOptions,
} from '../policy-options.js';
import { auditWithProgress } from '../run-audit.js';
import { prepareOutDir, writeAudit } from '../../node/audit.js';
import { readColumns } from '../../node/columns.js';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { METRICS_DEFAULTS, modelOrPred, SUPPRESSION_OPTION } from '../../methods/metrics/index.js';
import { requireClean } from '../../node/csv.js';
import { initNodeEngine } from '../../node/engine.js';
import { loadBlackBox } from '../../node/blackbox.js';
import { requireBinary } from '../../models/contract.js';
import { readPolicyFile } from '../../node/policy.js';
import {
  FAIRNESS_OPTIONS,
  finiteNumber,
  formatOption,
  nonNegativeInt,
  OUTPUT_OPTIONS,
  positiveInt,
  readOptionsOf,
  THRESHOLD_OPTION,
  withDataOptions,
  type DataCliOptions,
} from '../options.js';
import { modelFilePhrase } from '../../models/adapters.js';

interface CheckCliOptions extends DataCliOptions, PolicyCliOptions {
  model?: string;
  out?: string;
  quiet?: boolean;
  data: string;
  policy: string;
  label?: string;
  positive?: string;
  favourable?: string;
  pred?: string;
  threshold?: number;
  output?: OutputKind;
  classOrder?: string[];
  toleranceUnits?: number;
  minGroup?: number;
  suppressBelow?: number;
  bootstrap: number;
  seed: number;
  format: 'markdown' | 'json';
  modelClasses?: Record<string, string>;
  allowInvertedScores?: boolean;
}

const HELP_AFTER =
  `
The policy (JSON; docs/ci.md has the whole format) lists rules, each a metric of an attribute (a column,
or an intersection "Sex×Race") with a threshold: {"metric": "four_fifths", "attribute": "Sex", "min": 0.8},
{"metric": "tpr_diff", "attribute": "Race", "maxAbs": 0.05} (differences are fractions: 0.05 = 5 pp).
The metrics: ${ruleMetricList()}.
A score, multiclass or regression output (--output, or inputs.output, else inferred and said) is checked on
the metrics of lucid metrics --output for its kind; a multiclass rule names its class ("class": "decline");
a rule on a metric the kind does not have is a usage error (docs/ci.md, "Scores, classes and real values").
Its "inputs" name the label, positive class and prediction column; --label, --positive, --pred and
--threshold override them. A rule is checked per group on the point value; the interval and the metrics
verdict are shown beside it. A group with fewer than --min-group rows (default ${METRICS_DEFAULTS.minGroupSize}), a ` +
  `small reference or an
undefined rate is "insufficient data": reported and skipped, a failure only with onInsufficient "fail".
--baseline (the JSON of an earlier lucid check --format json, or an audit.json): a value that moved
toward its threshold by more than --margin (default ${POLICY_DEFAULTS.margin}, or the rule's "margin") is a ` +
  `regression and fails.
Exit codes: 0 every check passes; 3 a check crosses its threshold or regressed (the outputs are written
first); 1 a data error; 2 a usage error (a malformed policy names the file and the JSON path).
Rules on canonical sets (canonical_shift of a protected value, canonical_validity of the two sets,
canonical_fidelity of a feature; docs/ci.md) need --model: lucid check then runs the audit of lucid audit
(the GAN options below; minutes on large data: --gan-schedule fast, --gan-rows) and checks every rule on
it; a canonical shift the audit's check finds contradicted by the real rows is insufficient data, never a
pass or a fail. Without a canonical rule it needs no model and runs no GAN.

Examples (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed; ` +
  `fairness.json and fairness-canonical.json are in examples/):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv
  lucid check --data scored.csv --policy fairness.json --junit report.xml --markdown summary.md   # exits 3: the ` +
  `model fails the four-fifths rule for sex and group
  lucid check --data scored.csv --policy fairness.json --format json > check.json   # exits 3; check.json is a ` +
  `baseline
  lucid check --data scored.csv --policy fairness.json --baseline check.json --margin 0.01   # exits 3, the same ` +
  `failures, no regression
  lucid check --data loans-test.csv --policy fairness-canonical.json --model loans.json --gan-schedule fast --out ` +
  `loans-audit   # exits 3: a canonical-set policy runs the audit; group fails the four-fifths rule
`;

export const check = withAuditRunOptions(
  withDataOptions(
    new Command('check')
      .description(
        'a fairness gate for CI: check a policy of thresholds per metric and attribute on a predictions column (no ' +
          'model, no GAN), optionally against a baseline; exit 3 when a check fails; Markdown and JUnit XML ' +
          'outputs',
      )
      .requiredOption('--data <file>', 'the data (CSV) with the label, the predictions and the attribute columns'),
  )
    .addOption(POLICY_OPTIONS.policy().makeOptionMandatory())
    .option('--label <column>', "the true label (default: the policy's inputs.label)")
    .option(
      '--positive <value>',
      "the label value that is the positive class (default: the policy's inputs.positive, else the second of exactly " +
        'two values)',
    )
    .addOption(
      new Option(
        '--favourable <which>',
        "whether the positive class is the outcome people want (default: the policy's inputs.favourable, else " +
          'positive); a score or a real value: higher or lower, which end people want (default higher)',
      ).choices(['positive', 'negative', 'higher', 'lower']),
    )
    .option(
      '--pred <column>',
      "the predictions: predicted labels, 0/1, or P(positive) in [0, 1] (default: the policy's inputs.pred); a " +
        'score, a class or a real value (--output)',
    )
    .addOption(
      new Option(
        `${THRESHOLD_OPTION.flag} <p>`,
        `${THRESHOLD_OPTION.help} (default: the policy's inputs.threshold, else ${METRICS_DEFAULTS.threshold}); a ` +
          "score's any number, the cut of its threshold view (default: its median outside [0, 1])",
      ).argParser(finiteNumber),
    )
    .addOption(OUTPUT_OPTIONS.output())
    .addOption(OUTPUT_OPTIONS.classOrder())
    .addOption(OUTPUT_OPTIONS.toleranceUnits())
    .addOption(
      new Option(
        '--min-group <n>',
        `groups with fewer rows are small: insufficient data (default: the policy's minGroup, else ` +
          `${METRICS_DEFAULTS.minGroupSize})`,
      ).argParser(nonNegativeInt),
    )
    .addOption(
      new Option(
        `${SUPPRESSION_OPTION.flag} <k>`,
        `${SUPPRESSION_OPTION.help}; such groups are insufficient data`,
      ).argParser(positiveInt),
    )
    .addOption(POLICY_OPTIONS.baseline())
    .addOption(POLICY_OPTIONS.margin())
    .addOption(POLICY_OPTIONS.markdown())
    .addOption(POLICY_OPTIONS.junit())
    .option(
      '--model <file>',
      `the model (${modelFilePhrase()}): required by rules on canonical sets; lucid check then runs the audit of ` +
        `lucid audit (its GAN options below) and checks every rule on it`,
    )
    .addOption(FAIRNESS_OPTIONS.modelClasses())
    .addOption(FAIRNESS_OPTIONS.allowInvertedScores())
    .option('--out <dir>', "with --model: also write the audit's report folder there")
    .option('--quiet', 'with --model: no progress on stderr')
    .option(
      '--bootstrap <n>',
      'bootstrap resamples for intervals of differences (0: none; ratios of judged metrics have a Katz interval ' +
        'without it)',
      nonNegativeInt,
      0,
    )
    .option(
      '--seed <n>',
      'seed of the bootstrap resamples (with --model: of every draw of the audit)',
      nonNegativeInt,
      0,
    )
    .addOption(
      formatOption(
        ['markdown'],
        'markdown',
        'what stdout shows: the Markdown summary, or json (the result, which --baseline reads)',
      ),
    )
    .addHelpText('after', HELP_AFTER),
).action(async (opts: CheckCliOptions) => {
  const started = Date.now();
  const policy = await readPolicyFile(opts.policy);
  const label = opts.label ?? policy.inputs.label;
  const pred = opts.pred ?? policy.inputs.pred;
  if (label === undefined) throw new EngineError('E_ARG', `give --label, or "inputs": {"label": …} in ${policy.file}`);
  // a policy's predictions column gives way to --model; --pred with --model is the error
  modelOrPred(
    { model: opts.model, pred: opts.model !== undefined ? opts.pred : pred },
    {
      none: `give --pred, or "inputs": {"pred": …} in ${policy.file}`,
      both: 'give --model (the audit scores the data with it) or --pred, not both',
    },
  );
  // each output kind has its own defaults: the kind, the direction and a score's cut pass on as given
  const out: OutputSettings = {
    output: opts.output ?? policy.inputs.output,
    favourable: opts.favourable ?? policy.inputs.favourable,
    threshold: opts.threshold ?? policy.inputs.threshold,
    classOrder: opts.classOrder ?? policy.inputs.classOrder,
    toleranceUnits: opts.toleranceUnits ?? policy.inputs.toleranceUnits,
  };
  const binaryFavourable = out.favourable === 'positive' || out.favourable === 'negative' ? out.favourable : undefined;
  const settings: CheckSettings = {
    label,
    positive: opts.positive ?? policy.inputs.positive,
    favourable: binaryFavourable ?? METRICS_DEFAULTS.favourable,
    pred: pred ?? `the model's predictions (${opts.model})`,
    threshold: out.threshold ?? METRICS_DEFAULTS.threshold,
    minGroup: opts.minGroup ?? policy.minGroup ?? METRICS_DEFAULTS.minGroupSize,
    suppressBelow: opts.suppressBelow ?? policy.suppressBelow,
    onInsufficient: policy.onInsufficient ?? POLICY_DEFAULTS.onInsufficient,
    margin: opts.margin ?? policy.margin ?? POLICY_DEFAULTS.margin,
    bootstrap: opts.bootstrap,
    allowInvertedScores: opts.allowInvertedScores === true,
  };
  // every path before any work (an audit, with --model): the baseline, the Markdown and JUnit files, the report folder
  const early = await preparePolicyFiles(opts);
  if (opts.model !== undefined && opts.out !== undefined) await prepareOutDir(opts.out);
  if (opts.model !== undefined) {
    // the audit of lucid audit reads a binary decision: the other kinds are checked on their predictions
    const other = (['output', 'classOrder', 'toleranceUnits'] as const).filter((k) => out[k] !== undefined);
    if (
      (out.output !== undefined && out.output !== 'binary') ||
      other.some((k) => k !== 'output') ||
      binaryFavourable !== out.favourable
    )
      throw new EngineError(
        'E_ARG',
        `lucid check --model audits a binary decision; for a score, multiclass or regression model, write its ` +
          `predictions (lucid model predict --out scored.csv) and check them: lucid check --data scored.csv --pred ` +
          `<column> --output <kind>`,
      );
    if (settings.threshold < 0 || settings.threshold > 1)
      throw new EngineError(
        'E_ARG',
        `--threshold ${settings.threshold}: the audit's cut of P(positive) is in [0, 1] (a score's own scale is ` +
          `checked with --pred and --output score)`,
      );
    return checkWithModel(opts, policy, settings, started, early);
  }
  requireNoCanonical(policy, 'lucid check without --model');
  if (opts.modelClasses !== undefined)
    throw new EngineError('E_ARG', '--model-classes belongs to --model (it maps the classes a model file records)');
  for (const k of ['out', 'quiet'] as const)
    if (opts[k] !== undefined) throw new EngineError('E_ARG', `--${k} belongs to --model (an audit)`);
  // only the columns checked, read in chunks into typed arrays (ten million rows fit in memory this way)
  const { table, report: read } = await readColumns(opts.data, readOptionsOf(opts), {
    [opts.label ? '--label' : `${policy.file} inputs.label`]: label,
    [opts.pred ? '--pred' : `${policy.file} inputs.pred`]: pred,
    ...Object.fromEntries(policy.rules.map((r) => [`${policy.file}: ${r.path}.attribute`, r.columns])),
  });
  requireClean(read, [label, pred, ...policy.rules.flatMap((r) => r.columns)], 'the label, prediction or attribute');
  for (const w of read.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
  if (settings.bootstrap > 0) settings.rng = new Rng(await initNodeEngine(), opts.seed);
  // a score's and a real value's metrics need a seeded generator, bootstrap or not (a binary check never reads it)
  out.rng = settings.rng ?? new Rng(await initNodeEngine(), opts.seed);
  const result = checkOutputPolicy(table, policy, settings, out, opts.data);
  const markdown = await finishPolicy(result, policy, settings, opts, started, early);
  process.stdout.write(opts.format === 'json' ? JSON.stringify(result, null, 2) + '\n' : markdown);
  raiseIfFailed(result);
});

/** lucid check --model: the audit of lucid audit (its options, the policy's inputs), then every rule checked on it. */
async function checkWithModel(
  opts: CheckCliOptions,
  policy: Policy,
  settings: CheckSettings,
  started: number,
  early: { baseline?: unknown },
): Promise<void> {
  const protectedColumns = policyProtected(policy);
  if (!protectedColumns.length)
    throw new EngineError(
      'E_ARG',
      `${policy.file}: no rule names a protected attribute; an audit needs one (a canonical_shift or output rule on ` +
        `a column)`,
    );
  const engine = await initNodeEngine();
  const common = auditCommonValues(opts);
  // the audit reads P(positive): a model of another kind is refused before the data is read, as by lucid fale (a
  // load of its own, since the audit loads the model inside; the cost is a model's load beside a GAN's training)
  requireBinary(
    await loadBlackBox(engine, opts.model as string, { modelTimeout: common.modelTimeout }),
    'check --model',
  );
  const result = await auditWithProgress(
    engine,
    {
      ...common,
      label: settings.label,
      positive: settings.positive,
      favourable: settings.favourable,
      threshold: settings.threshold,
      minGroupSize: settings.minGroup,
      suppressBelow: settings.suppressBelow,
      reference: policyReferences(policy),
      protected: protectedColumns,
      allowInvertedScores: settings.allowInvertedScores,
    },
    { label: 'check', quiet: opts.quiet },
    async (out) => {
      const written = opts.out ? await writeAudit(opts.out, out.result) : null;
      const result = checkPolicyOnAudit(out.result, policy, settings, opts.data);
      if (written) result.audit!.out = written.report;
      const markdown = await finishPolicy(result, policy, settings, opts, started, early);
      process.stdout.write(opts.format === 'json' ? JSON.stringify(result, null, 2) + '\n' : markdown);
      return result;
    },
  );
  raiseIfFailed(result);
}
