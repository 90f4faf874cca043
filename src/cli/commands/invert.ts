// `lucid invert`: parse, check the model is differentiable, load it, call invert (a binary model, towards --prefer) or
// invertTowards (a multiclass model's --target-class, a regressor's --target-value or --band), write the CSV.
import { Command, InvalidArgumentError, Option } from 'commander';
import { check, EngineError } from '../../engine/errors.js';
import type { Engine } from '../../engine/engine.js';
import { pctText } from '../../data/text.js';
import { invert, LUCID_DEFAULTS, type LucidLoss } from '../../methods/lucid/invert.js';
import { notDifferentiableMessage } from '../../methods/lucid/model.js';
import { invertTowards, VALUE_TOLERANCE } from '../../methods/lucid/target.js';
import {
  BAND_SCALES,
  bandTarget,
  parseBand,
  type BandScale,
  type OutputTarget,
} from '../../methods/metrics/targets.js';
import type { Classifier } from '../../models/classifier/index.js';
import { writeCsv } from '../../node/csv.js';
import { initNodeEngine } from '../../node/engine.js';
import { modelFileKind } from '../../node/blackbox.js';
import { loadModel } from '../../node/model-file.js';
import { readTable } from '../../node/read-table.js';
import { finiteNumber, nonNegativeInt, positiveInt, positiveNumber, printSummary, summaryFormat } from '../options.js';

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
  prefer?: string;
  targetClass?: string;
  targetValue?: number;
  band?: string;
  bandScale: BandScale;
  data?: string;
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

Models of other outputs (lucid model train --output multiclass|regression) are inverted towards a target:
  multiclass  --target-class C: the loss is C's cross-entropy on the logits, -log softmax(z)_C.
  regression  --target-value V: the squared error to V; --band LO-HI: the squared distance to the band
              (0 inside it). Both on the model's standardised output ((y - mean) / sd of the training
              labels), so --lr fits whatever the label's units. --band-scale quantile (default) reads LO
              and HI as quantiles of the model's predictions on the rows of --data (required then);
              --band-scale units reads them in the label's units.
The descent aims a tenth of the band's width (at most 0.1 sd) inside each end, since it approaches the
target from outside. After the --epochs steps every one-hot group is snapped to its arg-max and held
while the numeric inputs take --epochs more steps, so that the snapped rows reach the target too. The
output has pred = P(C) or the predicted value, pred_snapped the same with one-hot groups snapped, and
(multiclass) class_snapped, the snapped row's predicted class. The summary's success is the share of
samples in the target after snapping: class_snapped = C, the value in the band, or within
${VALUE_TOLERANCE.regressionSd} x the training labels' sd of V. --loss is for binary models only.

Example (loans.json from the README's walkthrough, simulated: no data folder needed):
  lucid invert --model loans.json --prefer yes -n 1000 --out canonical.csv
Towards a regressor's top decile (a simulated credit limit):
  lucid dataset export sim --target regression --out limits.csv
  lucid model train --data limits.csv --label offered_limit --drop merited_limit --out limit.json
  lucid invert --model limit.json --band 0.9-1 --data limits.csv --out top-decile.csv
`;

/** The options that name a target of a multiclass or regression model, and the kind each reads. */
const TARGET_OPTIONS = [
  { key: 'targetClass', flag: '--target-class', kind: 'multiclass' },
  { key: 'targetValue', flag: '--target-value', kind: 'regression' },
  { key: 'band', flag: '--band', kind: 'regression' },
] as const;

/** The target a multiclass or regression model is inverted towards, from the options; E_ARG naming the option. */
/** The descent's settings as the command line gives them, for a preferred class and a target alike. */
function descentOf(opts: InvertCliOptions) {
  const traced = opts.trace === true || opts.traceEvery !== undefined;
  return {
    n: opts.samples,
    epochs: opts.epochs,
    lr: opts.lr,
    init: opts.init,
    clip: opts.clip === true,
    projectOneHot: opts.projectOnehot === true,
    seed: opts.seed,
    traceEvery: traced ? (opts.traceEvery ?? 0) : undefined,
  };
}

async function targetOf(engine: Engine, model: Classifier, opts: InvertCliOptions, bandScaleGiven: boolean) {
  const kind = model.kind;
  const given = TARGET_OPTIONS.filter((o) => opts[o.key] !== undefined);
  for (const o of given)
    check(
      o.kind === kind,
      'E_ARG',
      () =>
        `invert: ${o.flag} reads a ${o.kind} model; ${opts.model} is a ${kind} model: ` +
        (kind === 'multiclass' ? 'give --target-class' : 'give --target-value or --band'),
    );
  check(
    opts.prefer === undefined,
    'E_ARG',
    () =>
      `invert: --prefer reads a binary classifier; ${opts.model} is a ${kind} model: ` +
      (kind === 'multiclass' ? 'give --target-class' : 'give --target-value or --band'),
  );
  check(given.length === 1, 'E_ARG', () =>
    given.length === 0
      ? `invert: ${opts.model} is a ${kind} model: give ` +
        (kind === 'multiclass' ? '--target-class <class>' : '--target-value <v> or --band <lo-hi>')
      : `invert: give one of ${given.map((o) => o.flag).join(' and ')}, not both`,
  );
  check(bandScaleGiven === false || opts.band !== undefined, 'E_ARG', () => 'invert: --band-scale reads --band');
  if (kind === 'multiclass') {
    const c = opts.targetClass!;
    const index = model.classes.indexOf(c);
    check(
      index >= 0,
      'E_ARG',
      () =>
        `invert: --target-class "${c}" is not a class of ${opts.model}; its classes are: ${model.classes.join(', ')}`,
    );
    check(opts.data === undefined, 'E_ARG', () => 'invert: --data gives the rows of a quantile --band only');
    return { kind: 'class', class: c, index, label: `class ${c}` } satisfies OutputTarget;
  }
  const label = model.label;
  if (opts.targetValue !== undefined) {
    check(opts.data === undefined, 'E_ARG', () => 'invert: --data gives the rows of a quantile --band only');
    const v = opts.targetValue;
    return { ...bandTarget({ lo: v, hi: v, scale: 'units' }, new Float64Array([v]), label), label: `${label} = ${v}` };
  }
  const spec = parseBand(opts.band!, opts.bandScale, 'invert');
  if (spec.scale === 'units') {
    check(opts.data === undefined, 'E_ARG', () => 'invert: --data gives the rows of a quantile --band only');
    return bandTarget(spec, new Float64Array([spec.lo, spec.hi]), label);
  }
  check(
    opts.data !== undefined,
    'E_ARG',
    () =>
      `invert: --band "${opts.band}" is read in quantiles of the model's predictions: give --data (the rows) or ` +
      '--band-scale units',
  );
  const { table } = await readTable(opts.data!);
  const sorted = model.predictOutput(engine, table, opts.data).sort();
  return bandTarget(spec, sorted, label);
}

export const invertCommand = new Command('invert')
  .description(
    "LUCID: gradient descent on a differentiable model's input (from uniform random starts) until it predicts the " +
      "preferred class (or a multiclass model's target class, a regressor's target value or band); writes the " +
      'canonical set',
  )
  .requiredOption(
    '--model <file>',
    'a built-in model file (model.json from lucid model train); ONNX and JS-module models have no gradients: use ' +
      'LUCID-GAN',
  )
  .option(
    '--prefer <label>',
    "a binary model (required): the preferred class, the model's positive label or its other one (or the words " +
      'positive / negative)',
  )
  .option('--target-class <class>', 'a multiclass model: the class to invert towards (see below)')
  .option(
    '--target-value <v>',
    "a regression model: the value to invert towards, in the label's units (see below)",
    finiteNumber,
  )
  .option('--band <lo-hi>', 'a regression model: the band of its prediction to invert towards, e.g. 0.9-1 (see below)')
  .addOption(
    new Option(
      '--band-scale <scale>',
      "how --band is read: quantiles of the model's predictions on --data's rows, or the label's units",
    )
      .choices([...BAND_SCALES])
      .default('quantile'),
  )
  .option('--data <file>', 'the rows whose predictions give the quantiles of --band (needed for a quantile band only)')
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
  .action(async (opts: InvertCliOptions, cmd: Command) => {
    const kind = modelFileKind(opts.model);
    if (kind !== 'builtin') throw new EngineError('E_ARG', notDifferentiableMessage(opts.model, kind));
    const engine = await initNodeEngine();
    const model = await loadModel(engine, opts.model);
    if (model.kind !== 'binary') {
      try {
        await invertTarget(engine, model, opts, cmd);
      } finally {
        model.dispose();
      }
      return;
    }
    try {
      for (const o of [...TARGET_OPTIONS, { key: 'data', flag: '--data', kind: 'regression' } as const])
        check(
          opts[o.key] === undefined,
          'E_ARG',
          () => `invert: ${o.flag} reads a ${o.kind} model; ${opts.model} is a binary classifier: give --prefer`,
        );
      check(
        cmd.getOptionValueSource('bandScale') !== 'cli',
        'E_ARG',
        () =>
          `invert: --band-scale reads a regression model's --band; ${opts.model} is a binary classifier: give --prefer`,
      );
      check(
        opts.prefer !== undefined,
        'E_ARG',
        () => `invert: ${opts.model} is a binary classifier: give --prefer <label>, the preferred class`,
      );
    } catch (e) {
      model.dispose();
      throw e;
    }
    const r = invert(engine, model, { prefer: opts.prefer!, loss: opts.loss, ...descentOf(opts) });
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

/** A multiclass model towards --target-class, a regressor towards --target-value or --band: the CSV and the summary. */
async function invertTarget(engine: Engine, model: Classifier, opts: InvertCliOptions, cmd: Command): Promise<void> {
  check(
    cmd.getOptionValueSource('loss') !== 'cli',
    'E_ARG',
    () => `invert: --loss chooses a binary classifier's loss; ${opts.model} is a ${model.kind} model`,
  );
  const target = await targetOf(engine, model, opts, cmd.getOptionValueSource('bandScale') === 'cli');
  const r = invertTowards(engine, model, { target, ...descentOf(opts) });
  await writeCsv(opts.out, r.trace ? r.trace.table : r.table);
  const what = r.trace
    ? `the trace of ${r.n} samples (epochs ${r.trace.epochs.join(', ')}; ${r.trace.table.rows} rows)`
    : `${r.n} canonical rows for ${model.label}: ${target.label}`;
  const within = r.tolerance > 0 ? ` (within ${Number(r.tolerance.toPrecision(4))})` : '';
  printSummary(
    opts.format,
    [
      `lucid: wrote ${what} to ${opts.out}`,
      `  in the target with one-hot groups snapped: ${pctText(r.success)}${within}  (${opts.epochs} steps, then ` +
        `${opts.epochs} on the numbers with one-hot groups held; ${(r.ms / 1000).toFixed(2)} s)`,
    ],
    {
      out: opts.out,
      target: target.label,
      output: r.output,
      ...(target.kind === 'band'
        ? { lo: target.lo, hi: target.hi, ...(target.open ? { open: target.open } : {}) }
        : { class: target.kind === 'class' ? target.class : null }),
      tolerance: r.tolerance,
      samples: r.n,
      epochs: opts.epochs,
      rows: r.trace ? r.trace.table.rows : r.n,
      trace: r.trace ? r.trace.epochs : null,
      success: r.success,
      finalLoss: r.loss[r.loss.length - 1],
      seconds: r.ms / 1000,
    },
  );
}
