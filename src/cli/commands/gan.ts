// `lucid gan fit` and `lucid gan sample`: parse, validate, call fitGanFile / sampleGanFile, print.
import { Command, InvalidArgumentError, Option } from 'commander';
import { Interrupted, withInterrupt, type StopSignal } from '../interrupt.js';
import { EngineError } from '../../engine/errors.js';
import { pctText as pct } from '../../data/text.js';
import { CONSISTENCY_WEIGHT, GAN_DEFAULTS, RARE_ROWS, RARE_SHARE, type GanEpoch } from '../../models/lucidgan/model.js';
import { initNodeEngine } from '../../node/engine.js';
import { fitGanFile, sampleGanFile } from '../../node/gan-file.js';
import {
  names,
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  printSummary,
  readOptionsOf,
  summaryFormat,
  withDataOptions,
  type DataCliOptions,
  DATA_FILE,
} from '../options.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

type CsvOptions = DataCliOptions;

interface FitCliOptions extends CsvOptions {
  data: string;
  condition: string[];
  discrete?: string[];
  epochs: number;
  batch: number;
  seed: number;
  paper?: boolean;
  consistency?: string;
  consistencyWeight?: number;
  quiet?: boolean;
  out: string;
  format?: string;
}

function conditionName(value: string): string {
  if (value.trim() === '' || value.includes('='))
    throw new InvalidArgumentError(
      `expected a column name (fit takes names; values go to "lucid gan sample"), got "${value}"`,
    );
  return value.trim();
}

const fmtLoss = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : String(x));
const fmtTime = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`
      : `${s.toFixed(0)}s`;

/** Progress: a one-line bar on a TTY, else one JSON line per epoch. */
function progress(epochs: number): { onEpoch: (e: GanEpoch) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let total = 0;
  let drawn = false;
  return {
    onEpoch: (e) => {
      total += e.seconds;
      if (!tty) {
        process.stderr.write(
          `${JSON.stringify({
            epoch: e.epoch,
            loss_g: e.lossG,
            loss_d: e.lossD,
            loss_cond: e.lossCond,
            seconds: Number(e.seconds.toFixed(4)),
          })}\n`,
        );
        return;
      }
      const width = 20;
      const done = Math.round((width * e.epoch) / epochs);
      const eta = (total / e.epoch) * (epochs - e.epoch);
      const line =
        `epoch ${e.epoch}/${epochs} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ETA ${fmtTime(eta)}  G ` +
        `${fmtLoss(e.lossG)}  D ${fmtLoss(e.lossD)}  cond ${fmtLoss(e.lossCond)}`;
      const cols = process.stderr.columns ?? 120;
      process.stderr.write(`\r${line.slice(0, cols - 1)}\x1b[K`);
      drawn = true;
    },
    end: () => {
      if (drawn) process.stderr.write('\n');
    },
  };
}

/** The data options of every command (options.ts). */
const csvOptions = withDataOptions;

const fit = csvOptions(
  new Command('fit')
    .description("train a LUCID-GAN (CTGAN conditioned on the audited model's prediction) on a CSV file and save it")
    .requiredOption(
      '--data <file>',
      `the training data (${DATA_FILE}): the features, any extra columns to analyse, and the prediction column(s)`,
    )
    .option(
      '--condition <column>',
      'a numeric column fed raw to generator and critic as a condition, e.g. the model\'s P(positive) "preds" ' +
        '(repeat for more)',
      (v: string, prev: string[]) => collect(conditionName(v), prev),
      [] as string[],
    )
    .option(
      '--discrete <names>',
      'columns in the conditional vector, comma-separated (default: every categorical column; numeric ones listed ' +
        'become categorical)',
      names,
    ),
)
  .option(
    '--epochs <n>',
    'training epochs (steps per epoch: rows / batch, at least 1)',
    nonNegativeInt,
    GAN_DEFAULTS.epochs,
  )
  .option('--batch <n>', `rows per step; a multiple of pac = ${GAN_DEFAULTS.pac}`, positiveInt, GAN_DEFAULTS.batch)
  .option('--seed <n>', 'seed of every draw (same seed and data: the same model file, bit for bit)', nonNegativeInt, 0)
  .option('--paper', "the paper's training: no prediction-consistency term (see below)")
  .option(
    '--consistency <column>',
    'the condition (values in [0, 1]) the consistency term ties generated rows to (default: the first condition in ' +
      '[0, 1])',
    conditionName,
  )
  .option(
    '--consistency-weight <λ>',
    `weight of the consistency term (default ${CONSISTENCY_WEIGHT}; 0 turns it off)`,
    nonNegativeNumber,
  )
  .option('--quiet', 'no progress output')
  .requiredOption('--out <file>', 'the model file to write (.lgan, JSON)')
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
Training follows LUCID-GAN and CTGAN: WGAN-GP (lambda 10), PacGAN critic (pac 10), Adam lr 2e-4,
betas (0.5, 0.9), weight decay 1e-6, training-by-sampling with log-frequency, and the conditional
cross-entropy loss. Condition columns are not generated: they are fed raw to both networks.

Prediction consistency (the default; --paper turns it off): before training, a small MLP surrogate
of the audited model (D-64-1) is fitted to the (transformed row, condition) pairs, i.e. to the
predictions in the data file, never the model itself; during training it stays fixed and the
generator loss gains λ·BCE(surrogate(generated row), condition), so canonical sets are scored as
conditioned. It applies to a condition with values in [0, 1] (a probability). The model file
records the mode and the surrogate; the loss history records the surrogate's fit.

Progress goes to stderr: a progress bar on a terminal, else one JSON line per epoch
{"epoch", "loss_g", "loss_d", "loss_cond", "seconds"}. Ctrl-C ends training after the current step
and saves a checkpoint to --out. A NaN or infinite loss stops training, saves the last good epoch's
weights to --out and exits with an error.

Proxy analysis: the GAN may be given columns the audited model never saw; they are simply extra
columns in the data file. E.g. a model trained without "sex": score the data with it, keep "sex" in
the file, and the canonical sets show which sexes the model's decisions favour through proxies.

Example (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv   # appends "preds"
  lucid gan fit --data scored.csv --condition preds --epochs 50 --out loans.lgan`,
  )
  .action(async (opts: FitCliOptions) => {
    const engine = await initNodeEngine();
    const t0 = performance.now();
    const bar = opts.quiet ? null : progress(opts.epochs);
    // Ctrl-C: finish the current step, save a checkpoint; a second Ctrl-C exits at once.
    let r: Awaited<ReturnType<typeof fitGanFile>>;
    let signal: StopSignal | null;
    try {
      ({ value: r, signal } = await withInterrupt(
        `finishing the current step and saving a checkpoint to ${opts.out}`,
        (shouldStop) =>
          fitGanFile(engine, {
            data: opts.data,
            out: opts.out,
            read: readOptionsOf(opts),
            conditions: opts.condition,
            discrete: opts.discrete,
            epochs: opts.epochs,
            batch: opts.batch,
            seed: opts.seed,
            paper: opts.paper,
            consistency: opts.consistency,
            consistencyWeight: opts.consistencyWeight,
            onEpoch: bar?.onEpoch,
            shouldStop,
          }),
        () => bar?.end(),
      ));
    } finally {
      bar?.end();
    }
    const m = r.model;
    for (const w of r.report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    if (r.status === 'diverged') {
      m.dispose();
      throw new EngineError('E_VALUE', `${r.message}; wrote that checkpoint to ${opts.out}`);
    }
    const disc = m.sampler.columns.map((c) => c.name);
    if (r.status === 'interrupted') process.stderr.write(`lucid: ${r.message}; saved the checkpoint\n`);
    const cm = m.consistency;
    const sf = m.history.surrogate;
    printSummary(
      opts.format,
      [
        `lucid: trained LUCID-GAN for ${m.epochsDone} ` +
          `epochs${r.status === 'interrupted' ? ' (the last one partly)' : ''} on ${m.sampler.rows} rows in ${s} ` +
          `s (conditions: ${m.conditionNames.join(', ') || 'none'}; discrete: ${disc.join(', ') || 'none'})`,
        cm.mode === 'consistency'
          ? `lucid: mode: prediction consistency on ${cm.condition} (λ ${cm.weight}; surrogate BCE ` +
            `${sf ? sf.bce.toFixed(4) : '?'}, floor ${sf ? sf.bceFloor.toFixed(4) : '?'}, side agreement ` +
            `${sf ? pct(sf.agreement) : '?'})`
          : `lucid: mode: paper (no consistency term${opts.paper ? '' : '; no condition with values in [0, 1]'})`,
        `lucid: wrote ${opts.out}`,
      ],
      {
        out: opts.out,
        status: r.status,
        epochs: m.epochsDone,
        rows: m.sampler.rows,
        seconds: Number(s),
        conditions: m.conditionNames,
        discrete: disc,
        mode: cm.mode,
        consistency:
          cm.mode === 'consistency' ? { condition: cm.condition, weight: cm.weight, surrogate: sf ?? null } : null,
        lastLoss: {
          g: m.history.lossG.at(-1) ?? null,
          d: m.history.lossD.at(-1) ?? null,
          cond: m.history.lossCond.at(-1) ?? null,
        },
      },
    );
    const done = m.epochsDone;
    m.dispose();
    // a checkpoint saved on request is not a finished training: exit 130 after it is written
    if (signal)
      throw new Interrupted(
        `training stopped after ${done} of ${opts.epochs} epochs; the checkpoint is written to ${opts.out}`,
        signal,
      );
  });

interface SampleCliOptions {
  model: string;
  n: number;
  condition: [string, number[]][];
  fix: [string, string][];
  condVector: 'zero' | 'empirical';
  seed: number;
  out: string;
  format?: string;
}

function conditionValue(value: string, prev: [string, number[]][] = []): [string, number[]][] {
  const i = value.indexOf('=');
  const name = value.slice(0, i).trim();
  const list = value
    .slice(i + 1)
    .split(',')
    .map((s) => s.trim());
  const nums = list.map(Number);
  if (i <= 0 || list.some((s) => s === '') || nums.some((x) => !Number.isFinite(x))) {
    throw new InvalidArgumentError(
      `expected COLUMN=VALUE (a number, or comma-separated numbers, one per row), e.g. preds=1, got "${value}"`,
    );
  }
  return [...prev, [name, nums]];
}

function fixValue(value: string, prev: [string, string][] = []): [string, string][] {
  const i = value.indexOf('=');
  if (i <= 0 || i === value.length - 1)
    throw new InvalidArgumentError(`expected COLUMN=CATEGORY, e.g. sex=Female, got "${value}"`);
  return [...prev, [value.slice(0, i).trim(), value.slice(i + 1).trim()]];
}

const sample = new Command('sample')
  .description('generate rows (a canonical set) from a LUCID-GAN model file')
  .requiredOption('--model <file>', 'a model file written by lucid gan fit')
  .requiredOption('-n <rows>', 'rows to generate', positiveInt)
  .option(
    '--condition <col=value>',
    "a condition's value: a constant (preds=1) or one value per row (preds=0,0.5,1 with -n 3); repeat per condition. " +
      'A condition not given is drawn from training rows (those matching --fix when given)',
    conditionValue,
    [] as [string, number[]][],
  )
  .option(
    '--fix <col=category>',
    "fix a discrete column's category in the conditional vector; repeat to fix several together (intersectional)",
    fixValue,
    [] as [string, string][],
  )
  .addOption(
    new Option('--cond-vector <mode>', 'the conditional vector when nothing is fixed')
      .choices(['zero', 'empirical'])
      .default('zero'),
  )
  .option('--seed <n>', 'seed of the noise (same model and seed: the same rows)', nonNegativeInt, 0)
  .requiredOption('--out <file>', 'the CSV to write: the generated columns, then the condition columns')
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
Conditional vector (--cond-vector), when no --fix is given:
  zero       all zeros: no category is asked for (the paper's setup for canonical sets; a state never
             seen in training, where exactly one category is always set)
  empirical  true frequencies: per row, a random training row and a random discrete column, with that
             row's category set (and the row's own conditions when none are given)
--fix sets every listed category in one vector. Training never sets more than one, so intersections
are outside the training distribution: the report gives how often the combination occurred in
training (rare: fewer than ${RARE_ROWS} rows or under ${RARE_SHARE * 100}% of them) and the share of generated rows
that hold every fixed value.

Proxy analysis: columns the audited model never saw (e.g. the true "sex" when the model was trained
without it) are generated like any other, if they were in the data given to lucid gan fit.

Generated numbers are clipped into each column's training range (saved in the model file since issue
#15) and rounded to the decimals the training values had, so whole numbers stay whole; the summary
says how many values and rows were clipped. lucid audit samples the same way and also rejects rows
the model scores on the other side (see lucid audit --help).

Examples (loans.lgan as in the example of lucid gan fit --help):
  lucid model predict --model loans.json --data loans-test.csv --out scored.csv
  lucid gan fit --data scored.csv --condition preds --epochs 50 --out loans.lgan
  lucid gan sample --model loans.lgan -n 1000 --condition preds=1 --out positive.csv
  lucid gan sample --model loans.lgan -n 1000 --condition preds=0 --out negative.csv
  lucid gan sample --model loans.lgan -n 1000 --condition preds=1 --fix sex=Female --fix group=B --out pos-fb.csv`,
  )
  .action(async (opts: SampleCliOptions) => {
    const engine = await initNodeEngine();
    const conditions: Record<string, number[]> = {};
    for (const [name, values] of opts.condition) {
      if (name in conditions) throw new EngineError('E_ARG', `--condition: "${name}" is given twice`);
      conditions[name] = values;
    }
    const t0 = performance.now();
    const r = await sampleGanFile(engine, {
      model: opts.model,
      out: opts.out,
      n: opts.n,
      conditions,
      fix: opts.fix,
      condVector: opts.condVector,
      seed: opts.seed,
    });
    const s = ((performance.now() - t0) / 1000).toFixed(2);
    if (r.drawnConditions.length) {
      process.stderr.write(
        `lucid: note: ${r.drawnConditions.join(', ')} not given; drawn from training ` +
          `rows${opts.fix.length ? ' holding the fixed values' : ''}\n`,
      );
    }
    const lines: string[] = [];
    if (r.fixTraining) {
      const combo = opts.fix.map(([c, v]) => `${c}=${v}`).join(', ');
      const t = r.fixTraining;
      lines.push(
        `lucid: ${combo}: ${t.rows} of ${r.model.sampler.rows} training rows (${pct(t.share)}); ` +
          `${pct(r.fixSatisfied!)} of the generated rows hold every fixed value`,
      );
      if (t.rows === 0)
        process.stderr.write(
          `lucid: warning: ${combo} never occurs in the training data; the generated rows are an ` +
            `extrapolation${r.drawnConditions.length ? ' (conditions drawn from all training rows)' : ''}\n`,
        );
      else if (t.rare)
        process.stderr.write(
          `lucid: warning: ${combo} is rare in the training data (${t.rows} rows, ${pct(t.share)}; rare: < ` +
            `${RARE_ROWS} rows or < ${RARE_SHARE * 100}%)\n`,
        );
    }
    const clippedCols = Object.entries(r.clipped).filter(([, k]) => k > 0);
    lines.push(
      `lucid: wrote ${opts.out}: ${opts.n} rows in ${s} s` +
        (r.rowsClipped > 0
          ? `; ${r.rowsClipped} rows (${pct(r.rowsClipped / opts.n)}) had a number clipped into its training range ` +
            `(${clippedCols.map(([c, k]) => `${c} ${k}`).join(', ')})`
          : ''),
    );
    printSummary(opts.format, lines, {
      out: opts.out,
      rows: opts.n,
      seconds: Number(s),
      conditions,
      drawnConditions: r.drawnConditions,
      fix: opts.fix,
      fixTraining: r.fixTraining ?? null,
      fixSatisfied: r.fixSatisfied ?? null,
      clipped: r.clipped,
      rowsClipped: r.rowsClipped,
    });
    r.model.dispose();
  });

export const gan = new Command('gan')
  .description(
    "LUCID-GAN: train a conditional tabular GAN on data with the audited model's predictions, and sample canonical " +
      'sets from it',
  )
  .addCommand(fit.exitOverride())
  .addCommand(sample.exitOverride());
