// `lucid check`: the fairness gate for CI (#20 item 3). Wiring only: read the policy, the data and the
// baseline (src/node/policy.ts), call checkPolicy and compareBaseline (src/audit/policy.ts), write the
// Markdown, JUnit and JSON outputs, and only then raise PolicyFailure, which the one error handler
// turns into exit 3 (EXIT.policy).
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkPolicy, compareBaseline, failureLine, POLICY_DEFAULTS, PolicyFailure, ruleMetricList, type CheckSettings } from '../../audit/policy.js';
import { checkJunit, checkMarkdown } from '../../audit/policy-format.js';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { METRICS_DEFAULTS, SUPPRESSION_OPTION, THRESHOLD_OPTION } from '../../methods/metrics/index.js';
import { readCsv, requireClean } from '../../node/csv.js';
import { initNodeEngine } from '../../node/engine.js';
import { readBaselineFile, readPolicyFile, writeTextFile } from '../../node/policy.js';
import { requireColumns } from '../../data/table.js';
import { formatOption, nonNegativeInt, positiveInt, readOptionsOf, unitInterval, withDataOptions, type DataCliOptions } from '../options.js';

interface CheckCliOptions extends DataCliOptions {
  data: string;
  policy: string;
  label?: string;
  positive?: string;
  favourable?: 'positive' | 'negative';
  pred?: string;
  threshold?: number;
  minGroup?: number;
  suppressBelow?: number;
  baseline?: string;
  margin?: number;
  markdown?: string;
  junit?: string;
  bootstrap: number;
  seed: number;
  format: 'markdown' | 'json';
}

function margin(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0) throw new InvalidArgumentError(`expected a number ≥ 0, e.g. 0.02, got "${value}"`);
  return v;
}

const HELP_AFTER = `
The policy (JSON; docs/ci.md has the whole format) lists rules, each a metric of an attribute (a column,
or an intersection "Sex×Race") with a threshold: {"metric": "four_fifths", "attribute": "Sex", "min": 0.8},
{"metric": "tpr_diff", "attribute": "Race", "maxAbs": 0.05} (differences are fractions: 0.05 = 5 pp).
The metrics: ${ruleMetricList()}.
Its "inputs" name the label, positive class and prediction column; --label, --positive, --pred and
--threshold override them. A rule is checked per group on the point value; the interval and the metrics
verdict are shown beside it. A group with fewer than --min-group rows (default ${METRICS_DEFAULTS.minGroupSize}), a small reference or an
undefined rate is "insufficient data": reported and skipped, a failure only with onInsufficient "fail".
--baseline (the JSON of an earlier lucid check --format json, or an audit.json): a value that moved
toward its threshold by more than --margin (default ${POLICY_DEFAULTS.margin}, or the rule's "margin") is a regression and fails.
Exit codes: 0 every check passes; 3 a check crosses its threshold or regressed (the outputs are written
first); 1 a data error; 2 a usage error (a malformed policy names the file and the JSON path).
Rules on canonical sets (a LUCID-GAN) are not supported yet: lucid check needs no model and runs no GAN.

Examples (adult.json and adult-test.csv as in the README; fairness.json is examples/fairness.json):
  lucid model predict --model adult.json --data adult-test.csv --out scored.csv
  lucid check --data scored.csv --policy fairness.json --junit report.xml --markdown summary.md   # exits 3: the model fails the four-fifths rule for Sex
  lucid check --data scored.csv --policy fairness.json --format json > check.json   # exits 3; check.json is a baseline
  lucid check --data scored.csv --policy fairness.json --baseline check.json --margin 0.01   # exits 3, the same failures, no regression
`;

export const check = withDataOptions(new Command('check')
  .description('a fairness gate for CI: check a policy of thresholds per metric and attribute on a predictions column (no model, no GAN), optionally against a baseline; exit 3 when a check fails; Markdown and JUnit XML outputs')
  .requiredOption('--data <file>', 'the data (CSV) with the label, the predictions and the attribute columns'))
  .requiredOption('--policy <policy-file>', 'the policy (JSON): rules of thresholds per metric and attribute (docs/ci.md)')
  .option('--label <column>', 'the true label (default: the policy\'s inputs.label)')
  .option('--positive <value>', 'the label value that is the positive class (default: the policy\'s inputs.positive, else the second of exactly two values)')
  .addOption(new Option('--favourable <which>', 'whether the positive class is the outcome people want (default: the policy\'s inputs.favourable, else positive)').choices(['positive', 'negative']))
  .option('--pred <column>', 'the predictions: predicted labels, 0/1, or P(positive) in [0, 1] (default: the policy\'s inputs.pred)')
  .addOption(new Option(`${THRESHOLD_OPTION.flag} <p>`, `${THRESHOLD_OPTION.help} (default: the policy's inputs.threshold, else ${METRICS_DEFAULTS.threshold})`).argParser(unitInterval))
  .addOption(new Option('--min-group <n>', `groups with fewer rows are small: insufficient data (default: the policy's minGroup, else ${METRICS_DEFAULTS.minGroupSize})`).argParser(nonNegativeInt))
  .addOption(new Option(`${SUPPRESSION_OPTION.flag} <k>`, `${SUPPRESSION_OPTION.help}; such groups are insufficient data`).argParser(positiveInt))
  .option('--baseline <file>', 'an earlier result (lucid check --format json, or an audit.json): also fail on a regression beyond --margin')
  .addOption(new Option('--margin <x>', `how far a value may move toward its threshold before it is a regression (default: the policy's margin, else ${POLICY_DEFAULTS.margin}; a rule's own margin wins)`).argParser(margin))
  .option('--markdown <path>', 'also write the Markdown summary there (e.g. for $GITHUB_STEP_SUMMARY)')
  .option('--junit <path>', 'also write a JUnit XML file there: one testcase per rule and group')
  .option('--bootstrap <n>', 'bootstrap resamples for intervals of differences (0: none; ratios of judged metrics have a Katz interval without it)', nonNegativeInt, 0)
  .option('--seed <n>', 'seed of the bootstrap resamples', nonNegativeInt, 0)
  .addOption(formatOption(['markdown'], 'markdown', 'what stdout shows: the Markdown summary, or json (the result, which --baseline reads)'))
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: CheckCliOptions) => {
    const started = Date.now();
    const policy = await readPolicyFile(opts.policy);
    const label = opts.label ?? policy.inputs.label;
    const pred = opts.pred ?? policy.inputs.pred;
    if (label === undefined) throw new EngineError('E_ARG', `give --label, or "inputs": {"label": …} in ${policy.file}`);
    if (pred === undefined) throw new EngineError('E_ARG', `give --pred, or "inputs": {"pred": …} in ${policy.file}`);
    const settings: CheckSettings = {
      label,
      positive: opts.positive ?? policy.inputs.positive,
      favourable: opts.favourable ?? policy.inputs.favourable ?? METRICS_DEFAULTS.favourable,
      pred,
      threshold: opts.threshold ?? policy.inputs.threshold ?? METRICS_DEFAULTS.threshold,
      minGroup: opts.minGroup ?? policy.minGroup ?? METRICS_DEFAULTS.minGroupSize,
      suppressBelow: opts.suppressBelow ?? policy.suppressBelow,
      onInsufficient: policy.onInsufficient ?? POLICY_DEFAULTS.onInsufficient,
      margin: opts.margin ?? policy.margin ?? POLICY_DEFAULTS.margin,
      bootstrap: opts.bootstrap,
    };
    const { table, report: read } = await readCsv(opts.data, readOptionsOf(opts));
    requireColumns(table, opts.data, { [opts.label ? '--label' : `${policy.file} inputs.label`]: label, [opts.pred ? '--pred' : `${policy.file} inputs.pred`]: pred });
    requireClean(read, [label, pred, ...policy.rules.flatMap((r) => r.columns)], 'the label, prediction or attribute');
    for (const w of read.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    if (settings.bootstrap > 0) settings.rng = new Rng(await initNodeEngine(), opts.seed);
    const result = checkPolicy(table, policy, settings, opts.data);
    if (opts.baseline) compareBaseline(result, policy, await readBaselineFile(opts.baseline, policy, settings), settings);
    const markdown = checkMarkdown(result);
    if (opts.markdown) await writeTextFile(opts.markdown, markdown);
    if (opts.junit) await writeTextFile(opts.junit, checkJunit(result, (Date.now() - started) / 1000));
    process.stdout.write(opts.format === 'json' ? JSON.stringify(result, null, 2) + '\n' : markdown);
    if (!result.passed) throw new PolicyFailure(failureLine(result), result.counts);
  });
