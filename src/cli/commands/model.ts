// `lucid model train` and `lucid model predict`: parse, validate, call trainModelFile /
// predictModelFile, print.
import { Command, InvalidArgumentError, Option } from 'commander';
import { BUILTIN_OUTPUT_KINDS, TRAIN_DEFAULTS, type BuiltinOutputKind } from '../../models/classifier/classifier.js';
import { initNodeEngine } from '../../node/engine.js';
import { pctText } from '../../data/text.js';
import { predictModelFile, trainModelFile } from '../../node/model-file.js';
import { MAX_CLASSES } from '../../methods/metrics/outputs.js';
import {
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  positiveNumber,
  printSummary,
  readOptionsOf,
  summaryFormat,
  withDataOptions,
  type DataCliOptions,
  DATA_FILE,
} from '../options.js';

function hiddenSizes(value: string): number[] {
  if (value.trim().toLowerCase() === 'none') return [];
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((s) => !/^\d+$/.test(s) || Number(s) <= 0 || Number(s) > 65536)) {
    throw new InvalidArgumentError(
      `expected layer sizes such as 64,32 (positive integers) or none (logistic regression), got "${value}"`,
    );
  }
  return parts.map(Number);
}

function fraction(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0 || v >= 1)
    throw new InvalidArgumentError(`expected a share in [0, 1), e.g. 0.2, got "${value}"`);
  return v;
}

/** The reader options every model command shares: the data options of every command (options.ts). */
const csvOptions = withDataOptions;
type CsvOptions = DataCliOptions;

interface TrainCliOptions extends CsvOptions {
  data: string;
  label: string;
  output?: BuiltinOutputKind;
  positive?: string;
  hidden?: number[];
  epochs: number;
  batch: number;
  lr?: number;
  weightDecay?: number;
  patience: number;
  seed: number;
  valFraction: number;
  out: string;
  quiet?: boolean;
  format?: string;
}

const d = TRAIN_DEFAULTS;

const train = csvOptions(
  new Command('train')
    .description(
      'train the built-in model (an MLP, or a linear model with --hidden none) on a CSV file and save it with its ' +
        'preprocessing: a binary or multiclass classifier, or a regressor',
    )
    .requiredOption(
      '--data <file>',
      `the training data (${DATA_FILE}); every column but the label (and --drop) is a feature`,
    )
    .requiredOption('--label <column>', 'the column to predict')
    .addOption(
      new Option(
        '--output <kind>',
        'what to train: binary (P(positive)), multiclass (one probability per class) or regression (a real value); ' +
          `default inferred from the label: two values → binary, more → multiclass, a numeric label with more than ` +
          `${MAX_CLASSES} distinct values → regression (printed)`,
      ).choices(BUILTIN_OUTPUT_KINDS),
    )
    .option(
      '--positive <value>',
      'binary only: the label value predicted as 1 (default with two values: the second in sorted order; with more, ' +
        'it trains one class against the rest)',
    ),
)
  .addOption(
    new Option('--hidden <sizes>', 'hidden layer sizes, e.g. 64,32, or none for logistic regression')
      .argParser(hiddenSizes)
      .default(undefined, d.hidden.join(',')),
  )
  .option('--epochs <n>', 'most epochs', positiveInt, d.epochs)
  .option('--batch <n>', 'mini-batch rows', positiveInt, d.batch)
  .addOption(
    new Option('--lr <x>', 'Adam learning rate')
      .argParser(positiveNumber)
      .default(undefined, `${d.lr}; ${d.lrLogistic} with --hidden none`),
  )
  .addOption(
    new Option('--weight-decay <x>', 'L2 weight decay')
      .argParser(nonNegativeNumber)
      .default(undefined, `${d.weightDecay}; ${d.weightDecayLogistic} with --hidden none`),
  )
  .option(
    '--val-fraction <x>',
    'share of the rows held out for early stopping (0: none, train every epoch)',
    fraction,
    d.valFraction,
  )
  .option(
    '--patience <n>',
    "stop after this many epochs without a lower validation loss (the best epoch's weights are kept)",
    positiveInt,
    d.patience,
  )
  .option(
    '--seed <n>',
    'seed of the validation split, initialisation and shuffles (same seed, same model)',
    nonNegativeInt,
    d.seed,
  )
  .requiredOption('--out <file>', 'the model file to write (JSON)')
  .option('--quiet', 'no per-epoch progress')
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
The model file carries the preprocessing: numeric columns min-max scaled to [-1, 1] on the training rows
(the validation rows excluded), categorical columns one-hot (labels sorted). Numeric columns come first.
It records what the model returns: binary (binary cross-entropy; a version 1 file, as ever), multiclass (one logit
per class, softmax cross-entropy; the classes in sorted order) or regression (mean squared error on the label
standardised on the training rows; its mean and sd are stored, so predictions are in the label's units). Early
stopping keeps the epoch of lowest validation loss (BCE, cross-entropy or MSE).

Example (loans-train.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model train --data loans-train.csv --label approved --positive yes --out loans.json
  lucid model train --data loans-train.csv --label income --drop approved --out income.json   # inferred regression
  lucid model train --data loans-train.csv --label education --drop approved --out edu.json   # inferred multiclass`,
  )
  .action(async (opts: TrainCliOptions) => {
    const engine = await initNodeEngine();
    const t0 = performance.now();
    const r = await trainModelFile(engine, {
      data: opts.data,
      out: opts.out,
      read: readOptionsOf(opts),
      label: opts.label,
      output: opts.output,
      positive: opts.positive,
      hidden: opts.hidden,
      epochs: opts.epochs,
      batch: opts.batch,
      lr: opts.lr,
      weightDecay: opts.weightDecay,
      patience: opts.patience,
      seed: opts.seed,
      valFraction: opts.valFraction,
      onEpoch: opts.quiet
        ? undefined
        : (e) =>
            process.stderr.write(
              `  epoch ${String(e.epoch).padStart(4)}  train loss ${e.trainLoss.toFixed(4)}` +
                (Number.isNaN(e.valLoss)
                  ? '\n'
                  : Number.isNaN(e.valAccuracy)
                    ? `  val loss ${e.valLoss.toFixed(4)}\n`
                    : `  val loss ${e.valLoss.toFixed(4)}  val accuracy ${pctText(e.valAccuracy)}\n`),
            ),
    });
    const m = r.model;
    for (const w of r.report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    // the kind is said when it was guessed (a --positive already chose binary)
    if (!r.output.given && opts.positive === undefined) process.stderr.write(`lucid: note: ${r.output.reason}\n`);
    if (m.kind !== 'binary') {
      printTrainedOther(opts, r, (performance.now() - t0) / 1000);
      m.dispose();
      return;
    }
    if (r.positiveDefaulted) {
      process.stderr.write(
        `lucid: note: positive class "${m.positive}" (the second of the label's values ` +
          `${m.classes.map((c) => `"${c}"`).join(', ')} in sorted order; choose with --positive)\n`,
      );
    }
    const arch =
      m.hidden.length === 0 ? `logistic regression on ${m.dim} inputs` : `MLP ${[m.dim, ...m.hidden, 1].join(' → ')}`;
    const seconds = (performance.now() - t0) / 1000;
    printSummary(
      opts.format,
      [
        `lucid: trained ${arch} for "${m.label}" = "${m.positive}" on ${r.trainRows} rows in ${seconds.toFixed(1)} s`,
        r.valRows > 0
          ? `  kept epoch ${r.bestEpoch} of ${r.history.length} (lowest validation loss): validation accuracy ` +
            `${pctText(r.best.valAccuracy)}, loss ${r.best.valLoss.toFixed(4)} on ${r.valRows} held-out rows`
          : `  ${r.history.length} epochs, no validation split; final training loss ${r.best.trainLoss.toFixed(4)}`,
        `lucid: wrote ${opts.out} (features: ${m.preprocessor.features.join(', ')})`,
      ],
      {
        out: opts.out,
        label: m.label,
        positive: m.positive,
        ...trainingFields(r),
        valAccuracy: r.valRows > 0 ? r.best.valAccuracy : null,
        valLoss: r.valRows > 0 ? r.best.valLoss : null,
        trainLoss: r.best.trainLoss,
        seconds,
      },
    );
    m.dispose();
  });

/** The JSON summary's fields every model kind shares: its shape and how the training went. */
function trainingFields(r: Awaited<ReturnType<typeof trainModelFile>>) {
  const m = r.model;
  return {
    hidden: m.hidden,
    inputs: m.dim,
    features: m.preprocessor.features,
    trainRows: r.trainRows,
    valRows: r.valRows,
    epochs: r.history.length,
    bestEpoch: r.bestEpoch,
  };
}

/** The summary of a multiclass model or a regressor (a binary model's is the action's own, unchanged). */
function printTrainedOther(opts: TrainCliOptions, r: Awaited<ReturnType<typeof trainModelFile>>, seconds: number) {
  const m = r.model;
  const width = m.kind === 'multiclass' ? m.classes.length : 1;
  const arch =
    m.hidden.length === 0
      ? `${m.kind === 'multiclass' ? 'softmax regression' : 'linear regression'} on ${m.dim} inputs`
      : `MLP ${[m.dim, ...m.hidden, width].join(' → ')}`;
  const what =
    m.kind === 'multiclass'
      ? `a multiclass model of "${m.label}" (${width} classes: ${m.classes.join(', ')})`
      : `a regression model of "${m.label}"`;
  // a regressor's validation loss is the MSE of the standardised label: its root times sd is in the label's units
  const rmse = m.target && r.valRows > 0 ? Math.sqrt(r.best.valLoss) * m.target.sd : NaN;
  printSummary(
    opts.format,
    [
      `lucid: trained ${arch}, ${what}, on ${r.trainRows} rows in ${seconds.toFixed(1)} s`,
      r.valRows === 0
        ? `  ${r.history.length} epochs, no validation split; final training loss ${r.best.trainLoss.toFixed(4)}`
        : m.kind === 'multiclass'
          ? `  kept epoch ${r.bestEpoch} of ${r.history.length} (lowest validation loss): validation accuracy ` +
            `${pctText(r.best.valAccuracy)}, cross-entropy ${r.best.valLoss.toFixed(4)} on ${r.valRows} held-out rows`
          : `  kept epoch ${r.bestEpoch} of ${r.history.length} (lowest validation loss): validation RMSE ` +
            `${rmse.toPrecision(4)} (the label's units; MSE ${r.best.valLoss.toFixed(4)} of the standardised ` +
            `label) on ${r.valRows} held-out rows`,
      `lucid: wrote ${opts.out} (features: ${m.preprocessor.features.join(', ')})`,
    ],
    {
      out: opts.out,
      output: m.kind,
      label: m.label,
      ...(m.kind === 'multiclass' ? { classes: m.classes } : { target: m.target }),
      ...trainingFields(r),
      valAccuracy: r.valRows > 0 && m.kind === 'multiclass' ? r.best.valAccuracy : null,
      valLoss: r.valRows > 0 ? r.best.valLoss : null,
      ...(m.kind === 'regression' ? { valRmse: r.valRows > 0 ? rmse : null } : {}),
      trainLoss: r.best.trainLoss,
      seconds,
    },
  );
}

interface PredictCliOptions extends CsvOptions {
  model: string;
  data: string;
  column: string;
  out: string;
  format?: string;
}

const predict = csvOptions(
  new Command('predict')
    .description(
      "append the model's predictions to every row of a CSV file: P(positive class), the predicted value, or the " +
        'predicted class and its probabilities',
    )
    .requiredOption('--model <file>', 'a model file written by lucid model train')
    .requiredOption(
      '--data <file>',
      `the data (${DATA_FILE}); it needs the model's feature columns (others are kept as they are)`,
    ),
)
  .option(
    '--column <name>',
    'name of the appended column: P(positive) per row (binary), the value (regression), or the predicted class ' +
      '(multiclass, followed by one probability column per class, <name>_<class>)',
    'preds',
  )
  .requiredOption('--out <file>', "the CSV to write: the data's columns and the predictions")
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
Rows are read as in lucid inspect; the model's feature columns must be there (others are copied as they
are). A category the model never saw, or a missing number, is an error naming the row and column, so
the output has one row per input row; --missing drop leaves rows with a missing value out instead (with
a warning).

What is appended follows what the model file records (lucid model train --output): a binary model's
P(positive); a regressor's value in the label's units; a multiclass model's most probable class (the
first in the model's class order on a tie), then its probability of each class as <column>_<class>.

Example (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv   # appends "preds"`,
  )
  .action(async (opts: PredictCliOptions) => {
    const engine = await initNodeEngine();
    const r = await predictModelFile(engine, {
      model: opts.model,
      data: opts.data,
      out: opts.out,
      column: opts.column,
      read: readOptionsOf(opts),
    });
    for (const w of r.report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    if (r.report.missing.rowsDropped > 0) {
      const n = r.report.missing.rowsDropped;
      process.stderr.write(
        `lucid: warning: ${n} row${n === 1 ? '' : 's'} with missing values left out (--missing ` +
          `${r.report.missing.policy}): the output has ${r.rows} row${r.rows === 1 ? '' : 's'}, not ` +
          `${r.rows + n}\n`,
      );
    }
    const m = r.model;
    if (m.kind !== 'binary') {
      const said =
        m.kind === 'multiclass'
          ? `the predicted class of "${m.label}" and ${r.columns.length - 1} probability columns ` +
            `(${r.columns.slice(1).join(', ')}); predicted shares ${m.classes
              .map((c, j) => `${c} ${pctText(r.classShares![j])}`)
              .join(', ')}`
          : `the predicted "${m.label}"; mean ${r.mean!.toPrecision(4)}`;
      printSummary(opts.format, [`lucid: wrote ${opts.out}: ${r.rows} rows with column "${r.column}" = ${said}`], {
        out: opts.out,
        rows: r.rows,
        output: m.kind,
        column: r.column,
        columns: r.columns,
        label: m.label,
        ...(m.kind === 'multiclass' ? { classes: m.classes, classShares: r.classShares } : { mean: r.mean }),
        rowsDropped: r.report.missing.rowsDropped,
      });
      m.dispose();
      return;
    }
    printSummary(
      opts.format,
      [
        `lucid: wrote ${opts.out}: ${r.rows} rows with column "${r.column}" = P(${r.model.label} = ` +
          `"${r.model.positive}"); ${pctText(r.positiveRate)} above 0.5`,
      ],
      {
        out: opts.out,
        rows: r.rows,
        column: r.column,
        label: r.model.label,
        positive: r.model.positive,
        positiveRate: r.positiveRate,
        rowsDropped: r.report.missing.rowsDropped,
      },
    );
    r.model.dispose();
  });

export const model = new Command('model')
  .description('the built-in model (classifier or regressor): train one on a CSV file, or predict with one')
  .addCommand(train.exitOverride())
  .addCommand(predict.exitOverride());
