// `lucid invert`: parse, check the model is differentiable, load it, call invert, write the CSV.
import { Command, InvalidArgumentError, Option } from 'commander';
import { EngineError } from '../../engine/errors.js';
import { pctText } from '../../data/text.js';
import { invert, LUCID_DEFAULTS, type LucidLoss } from '../../methods/lucid/invert.js';
import { notDifferentiableMessage } from '../../methods/lucid/model.js';
import { writeCsv } from '../../node/csv.js';
import { initNodeEngine } from '../../node/engine.js';
import { modelFileKind } from '../../node/blackbox.js';
import { loadModel } from '../../node/model-file.js';
import { requireBinary } from '../../models/contract.js';
import { nonNegativeInt, positiveInt, positiveNumber, printSummary, summaryFormat } from '../options.js';

function initRange(value: string): { low: number; high: number } {
  const m = /^uniform:([^,]+),([^,]+)$/.exec(value.trim());
  const low = m ? Number(m[1]) : NaN;
  const high = m ? Number(m[2]) : NaN;
  if (
    !m ||
    m[1].trim() === '' ||
    m[2].trim() === '' ||
    !Number.isFinite(low) ||
    !Number.isFinite(high) ||
    !(low < high)
  ) {
    throw new InvalidArgumentError('expected uniform:LOW,HIGH with LOW < HIGH, e.g. uniform:-1,1');
  }
  return { low, high };
}

interface InvertCliOptions {
  model: string;
  prefer: string;
  samples: number;
  epochs: number;
  lr: number;
  init: { low: number; high: number };
  loss: LucidLoss;
  clip?: boolean;
  projectOnehot?: boolean;
  seed: number;
  trace?: boolean;
  traceEvery?: number;
  out: string;
  format?: string;
}

const HELP_AFTER = `
Loss modes (the target is P(prefer) = 1; p below is P(prefer), z its logit):
  prob-ce   the reference's PyTorch loss. Its classifier already ends in a softmax and CrossEntropyLoss
            applies another one: cross-entropy over softmax([1-p, p]) = softplus(1 - 2p). It never falls
            below 0.313 and its gradient carries p(1-p), so it fades near p = 1 AND near p = 0: starts the
            model is sure about the other class barely move.
  logit-ce  the clean variant: cross-entropy on the logit, -log p = softplus(-z) (BCE with logits toward
            the preferred class; what the reference's Keras version computes). Pulls until p reaches 1.

Each sample's path is the reference's batch-size-1 SGD (x <- x - lr * grad of its own loss) whatever -n:
the batch loss is the SUM of the per-sample losses. The model's weights never change.

Output: one row per sample after all --epochs updates, decoded (categoricals by arg-max of their one-hot
group, numerics back in original units), then pred = P(prefer) at that input and pred_snapped = P(prefer)
with every one-hot group snapped to its arg-max (the reference's "extra epoch").

With --trace the file is the reference's log instead: for each sample (column sample, from 0) the rows of
epoch 1 and every k-th epoch (--trace-every k; default only the last epoch E), each holding the input
BEFORE that epoch's update (epoch 1 = the start, epoch E = after E-1 updates), then epoch E+1 = the last
logged row snapped to one-hot; pred = P(prefer) of each row.

Example (loans.json from the README's walkthrough, simulated: no data folder needed):
  lucid invert --model loans.json --prefer yes -n 1000 --out canonical.csv
`;

export const invertCommand = new Command('invert')
  .description(
    "LUCID: gradient descent on a differentiable model's input (from uniform random starts) until it predicts the " +
      'preferred class; writes the canonical set',
  )
  .requiredOption(
    '--model <file>',
    'a built-in model file (model.json from lucid model train); ONNX and JS-module models have no gradients: use ' +
      'LUCID-GAN',
  )
  .requiredOption(
    '--prefer <label>',
    "the preferred class: the model's positive label or its other one (or the words positive / negative)",
  )
  .option('-n, --samples <n>', 'canonical rows to generate (all run as one batch)', positiveInt, LUCID_DEFAULTS.n)
  .option('--epochs <n>', 'SGD steps per sample', positiveInt, LUCID_DEFAULTS.epochs)
  .option(
    '--lr <x>',
    "SGD learning rate (per sample: the loss is summed over the batch, so N does not change a sample's path)",
    positiveNumber,
    LUCID_DEFAULTS.lr,
  )
  .addOption(
    new Option(
      '--init <range>',
      'starting points, uniform:LOW,HIGH per encoded input (numerics are scaled to [-1, 1], one-hot inputs are 0/1)',
    )
      .argParser(initRange)
      .default(LUCID_DEFAULTS.init, 'uniform:-1,1'),
  )
  .addOption(
    new Option('--loss <mode>', "prob-ce (the reference's double softmax) or logit-ce (the clean variant); see below")
      .choices(['prob-ce', 'logit-ce'])
      .default(LUCID_DEFAULTS.loss),
  )
  .option(
    '--clip',
    'after each step (and at the start) clamp numeric inputs to [-1, 1], the training range, and one-hot inputs to ' +
      '[0, 1]',
  )
  .option(
    '--project-onehot',
    'after each step (and at the start) project each categorical group onto the probability simplex (>= 0, sums to 1;' +
      ' the nearest such point)',
  )
  .option('--seed <n>', 'seed of the starting points (same seed, same output)', nonNegativeInt, LUCID_DEFAULTS.seed)
  .option('--trace', "write the reference's log instead of the canonical set (see below)")
  .option(
    '--trace-every <k>',
    'log epoch 1 and every k-th epoch (implies --trace; rows = samples x (epochs/k + 2))',
    positiveInt,
  )
  .requiredOption('--out <file>', 'the CSV to write: the canonical set (or the trace)')
  .addOption(summaryFormat())
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: InvertCliOptions) => {
    const kind = modelFileKind(opts.model);
    if (kind !== 'builtin') throw new EngineError('E_ARG', notDifferentiableMessage(opts.model, kind));
    const engine = await initNodeEngine();
    const model = await loadModel(engine, opts.model);
    try {
      requireBinary({ source: opts.model, output: model.modelOutput }, 'invert');
    } catch (e) {
      model.dispose();
      throw e;
    }
    const traced = opts.trace === true || opts.traceEvery !== undefined;
    const r = invert(engine, model, {
      prefer: opts.prefer,
      n: opts.samples,
      epochs: opts.epochs,
      lr: opts.lr,
      init: opts.init,
      loss: opts.loss,
      clip: opts.clip === true,
      projectOneHot: opts.projectOnehot === true,
      seed: opts.seed,
      traceEvery: traced ? (opts.traceEvery ?? 0) : undefined,
    });
    await writeCsv(opts.out, r.trace ? r.trace.table : r.table);
    const share = (p: Float64Array, t: number) => p.filter((v) => v >= t).length / p.length;
    const shareAbove = (p: Float64Array, t: number) => pctText(share(p, t));
    const what = r.trace
      ? `the trace of ${r.n} samples (epochs ${r.trace.epochs.join(', ')}; ${r.trace.table.rows} rows)`
      : `${r.n} canonical rows for ${model.label} = "${r.preference.label}"`;
    printSummary(
      opts.format,
      [
        `lucid: wrote ${what} to ${opts.out}`,
        `  P(${r.preference.label}) >= 0.5 in ${shareAbove(r.pred, 0.5)}, >= 0.99 in ${shareAbove(r.pred, 0.99)}; ` +
          `with one-hot groups snapped: >= 0.5 in ${shareAbove(r.predSnapped, 0.5)}  (${opts.epochs} steps, ` +
          `${(r.ms / 1000).toFixed(2)} s)`,
      ],
      {
        out: opts.out,
        prefer: r.preference.label,
        samples: r.n,
        epochs: opts.epochs,
        loss: opts.loss,
        rows: r.trace ? r.trace.table.rows : r.n,
        trace: r.trace ? r.trace.epochs : null,
        shareAbove05: share(r.pred, 0.5),
        shareAbove099: share(r.pred, 0.99),
        snappedShareAbove05: share(r.predSnapped, 0.5),
        finalLoss: r.loss[r.loss.length - 1],
        seconds: r.ms / 1000,
      },
    );
  });
