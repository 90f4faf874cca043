// `lucid quality`: parse, read both CSV files, resolve the model, call qualityReport, print.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Delimiter } from '../../data/csv-detect.js';
import { EngineError } from '../../engine/errors.js';
import type { CorrelationMethod } from '../../methods/quality/metrics.js';
import { formatQuality, qualityReport, QUALITY_DEFAULTS, type QualityCondition } from '../../methods/quality/index.js';
import { resolveBlackBox } from '../../node/blackbox.js';
import { requireBinary } from '../../models/contract.js';
import { readTable, type TableReadOptions as ReadOptions } from '../../node/read-table.js';
import { requireColumns } from '../../data/table.js';
import { initNodeEngine } from '../../node/engine.js';
import { modelTimeoutOption } from '../model-timeout.js';
import {
  formatOption,
  intAtLeast2,
  names,
  nonNegativeInt,
  positiveInt,
  readOptionsOf,
  withDataOptions,
  type DataCliOptions,
  DATA_FILE,
} from '../options.js';
import { Rng } from '../../engine/rng.js';
import { modelFilePhrase } from '../../models/adapters.js';
import { wrapText } from '../../report/format.js';

/** --condition NAME or NAME=VALUE with VALUE a prediction in [0, 1], not 0.5. */
function conditionArg(value: string): QualityCondition {
  const m = /^([^=]+?)\s*(?:=\s*(.*))?$/.exec(value.trim());
  if (!m || m[1].trim() === '')
    throw new InvalidArgumentError(`expected COLUMN or COLUMN=VALUE, e.g. preds=1, got "${value}"`);
  if (m[2] === undefined) return { column: m[1] };
  const v = Number(m[2]);
  if (m[2].trim() === '' || !Number.isFinite(v) || v < 0 || v > 1)
    throw new InvalidArgumentError(
      `expected COLUMN=VALUE with VALUE a prediction in [0, 1], e.g. preds=1, got "${value}"`,
    );
  if (v === 0.5)
    throw new InvalidArgumentError(
      `${m[1]}=0.5 is on the threshold: validity needs rows generated above 0.5 (e.g. =1) or below (e.g. =0)`,
    );
  return { column: m[1], value: v };
}

interface QualityCliOptions extends DataCliOptions {
  modelTimeout: number;
  real: string;
  synthetic: string;
  model?: string;
  pred?: string;
  condition?: QualityCondition;
  ignore?: string[];
  bins: number;
  correlation: CorrelationMethod;
  top: number;
  delimiter?: Delimiter;
  numeric?: string[];
  categorical?: string[];
  format: 'table' | 'json';
  seed: number;
  heldOut?: string;
}

const HELP_AFTER =
  `
Scores (SDMetrics' conventions; each in [0, 1], 1 = the synthetic data looks like the real data):
  column shapes       per column: KS-complement (1 - the two-sample Kolmogorov-Smirnov statistic) for a
                      numeric column, TV-complement (1 - total variation distance of the category
                      frequencies; categories only the synthetic data has count) for a categorical one
  column-pair trends  per pair of columns: correlation similarity 1 - |rho_real - rho_synthetic| / 2 for
                      two numeric columns, contingency similarity (1 - TVD of the joint frequency tables)
                      otherwise, with a numeric column cut into --bins equal-width bins of its real range
                      (the outer bins open-ended)
  overall             the mean of the two means
Columns are matched by name: each must be in both files, of the same kind.

Fidelity (lucid audit's measure, src/methods/quality/fidelity.ts): per column, the KS statistic (numeric)
or total-variation distance (categorical) between the synthetic rows and the real ones, 0 = the same;
beside it its noise floor, the 95th percentile of the same distance between two bootstrap resamples of
the real rows of the two files' sizes (--seed). With --model and a condition, the rows generated
positive are compared with the real rows the model scores positive, and likewise negative (what a
canonical set estimates); otherwise every synthetic row with every real row. A column is marked when
a side is beyond max(noise floor, 0.1).

Relations: the real rows' exact dependencies (a column that is a function of another) and arithmetic
identities (e.g. age = education + experience + 6 on at least 99% of the rows), with the share of real
and synthetic rows breaking each.

Beyond single columns, each beside its noise floor (the same figure between two samples of the real
rows): pair trends (the mean of the column-pair scores above, its floor from bootstrap resamples);
detection, 1 - (2 AUC - 1) of a logistic regression telling real from synthetic rows, on rows it did not
train on (1 = cannot tell them apart; its floor: two halves of the real rows); privacy, each synthetic
row's distance to the closest real row against the same for --held-out rows the generator did not train
on (without --held-out: half the real rows against the other half); "no sign of copying" when the
synthetic rows hold at most 1 point more exact copies and their 5th-percentile distance is at least 0.9x
the held-out rows'.

Validity (with --model or --pred): of the synthetic rows generated at a prediction above 0.5 (e.g.
--condition preds=1), the share the audited model scores above 0.5; of rows generated below 0.5, the
share it scores below. --model scores the synthetic rows with the model; --pred COLUMN reads the scores
from a column of the synthetic file (e.g. written by lucid model predict). The condition is given
(--condition preds=1) or read per row from the synthetic file's column (--condition preds; the default
when the file has a "preds" column, as lucid gan sample writes). The condition and --pred columns are
not compared.

Examples (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed; ` +
  `positive.csv a canonical set):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv
  lucid gan fit --data scored.csv --condition preds --epochs 50 --out loans.lgan
  lucid gan sample --model loans.lgan -n 1000 --condition preds=1 --out positive.csv
  lucid quality --real loans-test.csv --synthetic positive.csv --model loans.json --condition preds=1
  lucid quality --real loans-test.csv --synthetic positive.csv --ignore approved,preds --format json
`;

export const quality = withDataOptions(
  new Command('quality')
    .description(
      'how closely synthetic rows (e.g. a LUCID-GAN canonical set) follow the real data, column by column and pair ' +
        'by pair, and how many the audited model scores as conditioned (validity)',
    )
    .requiredOption('--real <file>', `the real data (${DATA_FILE})`)
    .requiredOption(
      '--synthetic <file>',
      `the synthetic data (${DATA_FILE}) with the same columns (the data options apply to both files)`,
    ),
)
  .option('--model <file>', `the audited model (${modelFilePhrase()}): scores the synthetic rows for validity`)
  .option('--pred <column>', "instead of --model: the synthetic file's column holding the model's P(positive) per row")
  .option(
    '--condition <spec>',
    `what the synthetic rows were generated at: COLUMN=VALUE (e.g. ${QUALITY_DEFAULTS.conditionColumn}=1), or COLUMN ` +
      `to read it per row (default: the column "${QUALITY_DEFAULTS.conditionColumn}" when the synthetic file has ` +
      `it)`,
    conditionArg,
  )
  .option('--ignore <names>', 'columns to leave out of the comparison, comma-separated', names)
  .option('--bins <n>', 'equal-width bins of a numeric column in a mixed pair', intAtLeast2, QUALITY_DEFAULTS.bins)
  .addOption(
    new Option('--correlation <method>', 'correlation of numeric pairs')
      .choices(['pearson', 'spearman'])
      .default(QUALITY_DEFAULTS.correlation),
  )
  .option('--top <n>', 'worst pairs to list in the table form', positiveInt, 10)
  .addOption(modelTimeoutOption())
  .addOption(formatOption(['table', 'json'], 'table'))
  .option(
    '--held-out <file>',
    `real rows the generator did not train on (${DATA_FILE}, the real data's columns): the privacy check's reference ` +
      `(default: half of --real against the other half)`,
  )
  .option('--seed <n>', "seed of the noise floors' bootstrap draws", nonNegativeInt, 0)
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: QualityCliOptions) => {
    const condColumn = opts.condition?.column ?? QUALITY_DEFAULTS.conditionColumn;
    if (opts.pred !== undefined && opts.pred === condColumn) {
      throw new EngineError(
        'E_ARG',
        `--pred ${opts.pred} names the condition column (the prediction each row was generated at); give the column ` +
          `holding the model's scores of the synthetic rows, or --model`,
      );
    }
    const read: ReadOptions = readOptionsOf(opts);
    const real = await readTable(opts.real, read);
    const synthetic = await readTable(opts.synthetic, read);
    const heldOut = opts.heldOut !== undefined ? await readTable(opts.heldOut, read) : undefined;
    // a constant condition column is expected in a synthetic file (lucid gan sample at preds=1): no warning for it
    const expected = (w: string) => w.includes(`column ${JSON.stringify(condColumn)} has the single value`);
    for (const w of [...real.report.warnings, ...synthetic.report.warnings.filter((x) => !expected(x))])
      process.stderr.write(`lucid: warning: ${w}\n`);
    requireColumns(synthetic.table, opts.synthetic, {
      '--pred': opts.pred,
      '--condition': opts.condition?.value === undefined ? opts.condition?.column : undefined,
    });
    const wantsModel = opts.model !== undefined || opts.pred !== undefined;
    const engine = await initNodeEngine();
    const model = wantsModel
      ? await resolveBlackBox(engine, { model: opts.model, pred: opts.pred }, synthetic.table, {
          modelTimeout: opts.modelTimeout,
        })
      : undefined;
    if (model) requireBinary(model, 'quality');
    const ignore = [
      ...(opts.ignore ?? []),
      ...(opts.pred !== undefined && !(opts.ignore ?? []).includes(opts.pred) ? [opts.pred] : []),
    ];
    const report = await qualityReport(real.table, synthetic.table, {
      model,
      condition: opts.condition,
      ignore,
      bins: opts.bins,
      correlation: opts.correlation,
      realName: opts.real,
      syntheticName: opts.synthetic,
      rng: new Rng(engine, opts.seed),
      ...(heldOut ? { heldOut: heldOut.table, heldOutName: opts.heldOut } : {}),
    });
    process.stdout.write(
      opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : wrapText(formatQuality(report, opts.top)),
    );
  });
