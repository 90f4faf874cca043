// `lucid metrics`: parse, read the CSV, call groupMetrics, print.
import { Command } from 'commander';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import {
  directionsPhrase,
  formatMetricsCsv,
  formatMetricsTable,
  formatMulticlassCsv,
  formatMulticlassTable,
  formatOutputCsv,
  formatRegressionTable,
  formatScoreTable,
  judgedPhrase,
  METRIC_DEFS,
  METRICS,
  METRICS_DEFAULTS,
  outputMetrics,
  outputMetricsHelp,
  REGRESSION_DEFAULTS,
  SCORE_DEFAULTS,
} from '../../methods/metrics/index.js';
import type { OutputKind } from '../../methods/metrics/outputs.js';
import { requireClean } from '../../node/csv.js';
import { readColumns } from '../../node/columns.js';
import { initNodeEngine } from '../../node/engine.js';
import {
  FAIRNESS_OPTIONS as F,
  OUTPUT_OPTIONS as O,
  withGroupComparisonOptions,
  readOptionsOf,
  withDataOptions,
  type DataCliOptions,
  type FairnessCliOptions,
  fairnessValues,
  formatOption,
  nonNegativeInt,
  DATA_FILE,
} from '../options.js';
import { TEXT_WIDTH, wrapText } from '../../report/format.js';

const collect = (value: string, prev: string[] = []) => [...prev, value];

interface MetricsCliOptions extends FairnessCliOptions, DataCliOptions {
  data: string;
  label: string;
  positive?: string;
  pred: string;
  threshold?: number;
  output?: OutputKind;
  classOrder?: string[];
  toleranceUnits?: number;
  group: string[];
  intersect?: boolean;
  bootstrap?: number;
  seed: number;
  format: 'table' | 'json' | 'csv';
}

const HELP_AFTER =
  `
Per group: n, ${METRICS.map((m) =>
    METRIC_DEFS[m].short === METRIC_DEFS[m].label
      ? METRIC_DEFS[m].label
      : `${METRIC_DEFS[m].label} (${METRIC_DEFS[m].short})`,
  ).join(', ')}, as fractions
(JSON, CSV) or percentages (table). The selection rate is the favourable decision's rate (the positive
prediction, or with --favourable negative the negative one). A rate whose denominator is empty (no
positive labels, no predicted positives) is undefined: null, never 0.
The reference: --reference, else the largest group that is not small (fewer than --min-group rows, default
${METRICS_DEFAULTS.minGroupSize}); the output says which and why. Differences are group - reference (aif360's sign), ` +
  `ratios
group / reference.
Verdicts, for every group, reference and judged metric (${judgedPhrase()}): pass when
the ratio is inside [t, 1/t] (--tolerance t, default ${METRICS_DEFAULTS.tolerance}); outside, flagged when a ` +
  `log-ratio test of "the
ratio is inside the band" rejects after Holm's correction over every comparison of the output
(family-wise error 1 - confidence = 5%), else inconclusive; too little data for a small group or an
undefined rate. ${directionsPhrase()}
One decision, one verdict: the same decisions coded the other way (the other --positive, --favourable
flipped, scores 1 - p with --threshold 1 - t) get the same verdicts, references and directions, TPR's
verdict becoming TNR's, FNR's FPR's, PPV's NPV's and FDR's FOR's (docs/methods.md). (A score exactly
on the threshold is the one exception: p > t and 1 - p > 1 - t both leave it out.)
Also: the four-fifths rule (selection rate over the most selected group that is not small; the legal
yardstick), the NYC Local Law 144 impact table (categories under 2% of rows left out; for scores the
scoring rate on the favourable side of the median), calibration by group for scores (ECE with a bootstrap interval), ` +
  `and
with --legitimate the selection-rate ratio within strata of those columns (Mantel-Haenszel).
--pred: when every value is a value of the label, the column holds predicted labels (positive = the
--positive value); otherwise it must be numeric in [0, 1] and is a score, positive when > --threshold.
Rows with no value in a --group column are left out of that column's tables and counted.

Other outputs (--output, else inferred from the label and --pred; the first line says which and why):
score: a numeric score against a two-valued label, --favourable higher|lower. The binary metrics above at
--threshold (any number; default 0.5 for scores in [0, 1], else the median score, moved halfway to the next
score when rows hold it, so that the coding rule holds) are its threshold view
(calibration only for scores in [0, 1]), and per group:
${wrapText(outputMetricsHelp('score'), 104, 4)}
  and the selection-rate ratio halfway between adjacent distinct scores (up to ${SCORE_DEFAULTS.maxDistinct}), ` +
  `else at the 5%, 10%, ..., 95%
  quantiles, with pointwise intervals (the curve in JSON). The AUC comparisons and the threshold view are
  one Holm family.
regression: a numeric prediction against a numeric label, --favourable higher|lower; the band a ratio
(--tolerance) or in the output's units (--tolerance-units d). Per group:
${wrapText(outputMetricsHelp('regression'), 104, 4)}
Intervals: normal for means; seeded bootstrap for medians (percentile) and distances (basic, clipped at 0;
--bootstrap, default ${SCORE_DEFAULTS.bootstrap} for scores, ${REGRESSION_DEFAULTS.bootstrap} for real values).
multiclass: predicted classes against a label with more than two values, --class-order naming the classes
most favourable first. Per class (one against the rest) and group: the rate of receiving the class, its FNR
and its FPR, compared with the reference; receiving the most favourable class more favours a group, the
least favourable disadvantages it, a class between them (or every class without --class-order) "differs".

Examples (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv
  lucid metrics --data scored.csv --label approved --positive yes --pred preds --group sex --reference sex=Male
  lucid metrics --data scored.csv --label approved --positive yes --pred preds --group sex --group group --intersect ` +
  `--bootstrap 1000 --format json
`;

export const metrics = withGroupComparisonOptions(
  withDataOptions(
    new Command('metrics')
      .description(
        "output-based group fairness metrics of a model's predictions: per-group rates, ratios to a reference with " +
          'verdicts (a stated family-wise error), the four-fifths rule, LL144 impact ratios, calibration by ' +
          'group, bootstrap intervals',
      )
      .requiredOption('--data <file>', `the data (${DATA_FILE}) with the label, the predictions and the group columns`),
  )
    .requiredOption('--label <column>', 'the true label')
    .addOption(F.positive())
    .addOption(O.favourable())
    .requiredOption(
      '--pred <column>',
      'the predictions: predicted labels, 0/1, or P(positive) in [0, 1]; a score, a class or a real value (--output)',
    )
    .addOption(O.output())
    .addOption(O.classOrder())
    .addOption(O.toleranceUnits())
    .addOption(O.threshold())
    .requiredOption('--group <column>', 'a protected column (repeat for several)', collect)
    .option('--intersect', 'one attribute: the Cartesian product of the --group columns')
    .addOption(F.allowInvertedScores()),
)
  .option(
    '--bootstrap <n>',
    `bootstrap resamples for 95% percentile intervals (0: none; default 0 for binary decisions, ` +
      `${SCORE_DEFAULTS.bootstrap} for the medians and distances of scores and real values)`,
    nonNegativeInt,
  )
  .option('--seed <n>', 'seed of the bootstrap resamples (same seed, same intervals)', nonNegativeInt, 0)
  .addOption(formatOption(['table', 'json', 'csv'], 'table'))
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: MetricsCliOptions) => {
    if (opts.group.includes(opts.label) || opts.group.includes(opts.pred)) {
      throw new EngineError(
        'E_ARG',
        `--group ${opts.group.join(', ')} names the label or prediction column; give protected columns`,
      );
    }
    // streamed: only these columns are kept, as typed arrays (ten million rows fit; docs/data.md "Large files")
    const { table, report: read } = await readColumns(opts.data, readOptionsOf(opts), {
      '--label': opts.label,
      '--pred': opts.pred,
      '--group': opts.group,
      '--legitimate': opts.legitimate,
      '--reference': Object.keys(fairnessValues(opts).reference ?? {}),
    });
    requireClean(read, [opts.label, opts.pred, ...opts.group], 'the label, prediction or --group');
    for (const w of read.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    // the seeded generator: bootstrap intervals, and the ECE intervals of score predictions
    const rng = new Rng(await initNodeEngine(), opts.seed);
    const result = outputMetrics(table, {
      label: opts.label,
      positive: opts.positive,
      pred: opts.pred,
      output: opts.output,
      classOrder: opts.classOrder,
      threshold: opts.threshold,
      toleranceUnits: opts.toleranceUnits,
      groups: opts.group,
      intersect: opts.intersect,
      ...fairnessValues(opts),
      // the kind reads --favourable itself (positive|negative or higher|lower; its own default)
      favourable: opts.favourable,
      bootstrap: opts.bootstrap,
      rng,
    });
    for (const w of result.report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    let out: string;
    if (result.kind === 'binary') {
      // the binary output keeps its bytes: its report is as it always was
      const report = result.report;
      out =
        opts.format === 'json'
          ? JSON.stringify(report, null, 2) + '\n'
          : opts.format === 'csv'
            ? formatMetricsCsv(report)
            : wrapText(formatMetricsTable(report, TEXT_WIDTH));
    } else if (result.kind === 'multiclass') {
      out =
        opts.format === 'json'
          ? JSON.stringify({ output: result.output, ...result.report }, null, 2) + '\n'
          : opts.format === 'csv'
            ? formatMulticlassCsv(result.report)
            : wrapText(`output: ${result.output.reason}\n${formatMulticlassTable(result.report)}`);
    } else {
      out =
        opts.format === 'json'
          ? JSON.stringify(result.report, null, 2) + '\n'
          : opts.format === 'csv'
            ? formatOutputCsv(result)
            : wrapText(
                result.kind === 'score'
                  ? formatScoreTable(result, TEXT_WIDTH)
                  : formatRegressionTable(result, TEXT_WIDTH),
              );
    }
    process.stdout.write(out);
  });
