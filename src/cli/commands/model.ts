// `lucid model train` and `lucid model predict`: parse, validate, call trainModelFile /
// predictModelFile, print.
import { Command, InvalidArgumentError, Option } from 'commander';
import { TRAIN_DEFAULTS } from '../../models/classifier/classifier.js';
import { initNodeEngine } from '../../node/engine.js';
import { pctText } from '../../data/text.js';
import { predictModelFile, trainModelFile } from '../../node/model-file.js';
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
      'train the built-in classifier (an MLP, or logistic regression with --hidden none) on a CSV file and save it ' +
        'with its preprocessing',
    )
    .requiredOption(
      '--data <file>',
      `the training data (${DATA_FILE}); every column but the label (and --drop) is a feature`,
    )
    .requiredOption('--label <column>', 'the column to predict')
    .option(
      '--positive <value>',
      'the label value predicted as 1 (default with two values: the second in sorted order; required with more)',
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

Example (loans-train.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model train --data loans-train.csv --label approved --positive yes --out loans.json`,
  )
  .action(async (opts: TrainCliOptions) => {
    const engine = await initNodeEngine();
    const t0 = performance.now();
    const r = await trainModelFile(engine, {
      data: opts.data,
      out: opts.out,
      read: readOptionsOf(opts),
      label: opts.label,
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
                  : `  val loss ${e.valLoss.toFixed(4)}  val accuracy ${pctText(e.valAccuracy)}\n`),
            ),
    });
    const m = r.model;
    for (const w of r.report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
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
        hidden: m.hidden,
        inputs: m.dim,
        features: m.preprocessor.features,
        trainRows: r.trainRows,
        valRows: r.valRows,
        epochs: r.history.length,
        bestEpoch: r.bestEpoch,
        valAccuracy: r.valRows > 0 ? r.best.valAccuracy : null,
        valLoss: r.valRows > 0 ? r.best.valLoss : null,
        trainLoss: r.best.trainLoss,
        seconds,
      },
    );
    m.dispose();
  });

interface PredictCliOptions extends CsvOptions {
  model: string;
  data: string;
  column: string;
  out: string;
  format?: string;
}

const predict = csvOptions(
  new Command('predict')
    .description("append the model's P(positive class) to every row of a CSV file")
    .requiredOption('--model <file>', 'a model file written by lucid model train')
    .requiredOption(
      '--data <file>',
      `the data (${DATA_FILE}); it needs the model's feature columns (others are kept as they are)`,
    ),
)
  .option('--column <name>', 'name of the appended column (P(positive) per row)', 'preds')
  .requiredOption('--out <file>', "the CSV to write: the data's columns and the predictions")
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
Rows are read as in lucid inspect; the model's feature columns must be there (others are copied as they
are). A category the model never saw, or a missing number, is an error naming the row and column, so
the output has one row per input row; --missing drop leaves rows with a missing value out instead (with
a warning).

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
  .description('the built-in classifier: train one on a CSV file, or predict with one')
  .addCommand(train.exitOverride())
  .addCommand(predict.exitOverride());
