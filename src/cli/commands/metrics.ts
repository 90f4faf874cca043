// `lucid metrics`: parse, read the CSV, call groupMetrics, print.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Delimiter } from '../../data/csv-detect.js';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { formatMetricsCsv, formatMetricsTable, groupMetrics, METRICS_DEFAULTS } from '../../methods/metrics/index.js';
import { readCsv } from '../../node/csv.js';
import { initNodeEngine } from '../../node/engine.js';
import { delimiter, names, nonNegativeInt, unitInterval } from '../options.js';

function privilegedArg(value: string, prev: Record<string, string> = {}): Record<string, string> {
  const m = /^([^=]+?)\s*=\s*(.+)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected COLUMN=VALUE, e.g. sex=Male, got "${value}"`);
  return { ...prev, [m[1]]: m[2].trim() };
}

const collect = (value: string, prev: string[] = []) => [...prev, value];

interface MetricsCliOptions {
  data: string;
  label: string;
  positive?: string;
  pred: string;
  threshold: number;
  group: string[];
  intersect?: boolean;
  privileged?: Record<string, string>;
  bootstrap: number;
  seed: number;
  delimiter?: Delimiter;
  categorical?: string[];
  format: 'table' | 'json' | 'csv';
}

const HELP_AFTER = `
Per group: n, base rate P(y=1), positivity rate P(yhat=1), TPR, FPR, PPV (precision) and accuracy, as
fractions (JSON, CSV) or percentages (table). A rate whose denominator is empty (no positive labels,
no predicted positives) is undefined: null, never 0.
Disparities per metric: the difference unprivileged - privileged (aif360's sign), max - min over the
groups (fairlearn's difference) and the ratio unprivileged / privileged, flagged below 0.8 (the
four-fifths rule, meant for the positivity rate). The privileged group is --privileged, else the group
with the highest positivity rate (the output says which).
--pred: when every value is a value of the label, the column holds predicted labels (positive = the
--positive value); otherwise it must be numeric in [0, 1] and is a score, positive when > --threshold.
Groups with fewer than ${METRICS_DEFAULTS.minGroupSize} rows are warned about.

Examples:
  lucid model predict --model adult.json --data adult-test.csv --out scored.csv
  lucid metrics --data scored.csv --label income --pred preds --group sex --privileged sex=Male
  lucid metrics --data scored.csv --label income --pred preds --group sex --group race --intersect --bootstrap 1000 --format json
`;

export const metrics = new Command('metrics')
  .description('output-based group fairness metrics of a model\'s predictions: per-group rates, disparities (aif360 difference, fairlearn max - min, ratio with the four-fifths rule), bootstrap intervals')
  .requiredOption('--data <file>', 'the data (CSV) with the label, the predictions and the group columns')
  .requiredOption('--label <column>', 'the true label')
  .option('--positive <value>', 'the label value counted as positive (default: the second of exactly two values in sorted order)')
  .requiredOption('--pred <column>', 'the predictions: predicted labels, 0/1, or P(positive) in [0, 1]')
  .option('--threshold <t>', 'a score counts as positive when above this', unitInterval, METRICS_DEFAULTS.threshold)
  .requiredOption('--group <column>', 'a protected column (repeat for several)', collect)
  .option('--intersect', 'one attribute: the Cartesian product of the --group columns')
  .option('--privileged <column=value>', 'the privileged group of a column (repeat per column); default: the highest positivity rate', privilegedArg)
  .option('--bootstrap <n>', 'bootstrap resamples for 95% percentile intervals (0: none)', nonNegativeInt, 0)
  .option('--seed <n>', 'seed of the bootstrap resamples (same seed, same intervals)', nonNegativeInt, 0)
  .option('--delimiter <d>', 'comma, semicolon, tab or whitespace (default: detected)', delimiter)
  .option('--categorical <names>', 'columns read as categories even when they hold numbers', names)
  .addOption(new Option('--format <f>', 'output format').choices(['table', 'json', 'csv']).default('table'))
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: MetricsCliOptions) => {
    if (opts.group.includes(opts.label) || opts.group.includes(opts.pred)) {
      throw new EngineError('E_ARG', `--group ${opts.group.join(', ')} names the label or prediction column; give protected columns`);
    }
    const { table, report: read } = await readCsv(opts.data, { delimiter: opts.delimiter, categorical: opts.categorical });
    for (const w of read.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    const rng = opts.bootstrap > 0 ? new Rng(await initNodeEngine(), opts.seed) : undefined;
    const report = groupMetrics(table, {
      label: opts.label,
      positive: opts.positive,
      pred: opts.pred,
      threshold: opts.threshold,
      groups: opts.group,
      intersect: opts.intersect,
      privileged: opts.privileged,
      bootstrap: opts.bootstrap,
      rng,
    });
    for (const w of report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    const out = opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : opts.format === 'csv' ? formatMetricsCsv(report) : formatMetricsTable(report);
    process.stdout.write(out);
  });
