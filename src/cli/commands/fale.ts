// `lucid fale`: parse, read the CSV, load the model, call fale, print JSON or CSV.
import { Command, InvalidArgumentError, Option } from 'commander';
import { Rng } from '../../engine/rng.js';
import { EngineError } from '../../engine/errors.js';
import {
  fale,
  fale2d,
  fale2dOutput,
  faleCsv,
  faleOutput,
  FALE_MEASURE_DEFS,
  FALE_MEASURES,
  faleStream,
  faleSvg,
  FALE_DEFAULTS,
  FALE_METRIC_DEFS,
  FALE_METRICS,
  rankSubgroups,
  type FaleResult,
  type FaleMeasure,
  type FaleMetric,
  type ProtectedCondition,
} from '../../methods/fale/index.js';
import { fileSource } from '../../node/columns.js';
import { resolveBlackBox } from '../../node/blackbox.js';
import { outputOf, type BlackBox } from '../../models/contract.js';
import type { Table } from '../../data/table.js';
import type { Direction } from '../../methods/metrics/outputs.js';
import { requireClean, type ReadReport } from '../../node/csv.js';
import { readTable } from '../../node/read-table.js';
import { requireColumns } from '../../data/table.js';
import { initNodeEngine } from '../../node/engine.js';
import { modelTimeoutOption } from '../model-timeout.js';
import { METRICS_DEFAULTS } from '../../methods/metrics/index.js';
import {
  FAIRNESS_OPTIONS as F,
  OUTPUT_OPTIONS as O,
  readOptionsOf,
  withDataOptions,
  type DataCliOptions,
  formatOption,
  intAtLeast2,
  names,
  nonNegativeInt,
  numberList,
  DATA_FILE,
} from '../options.js';
import { modelFilePhrase } from '../../models/adapters.js';

/** --protected sex=Female or sex=Female,race=Black (every condition must hold for the unprivileged group). */
function protectedArg(value: string): ProtectedCondition[] {
  const parts = value.split(',').map((s) => s.trim());
  return parts.map((p) => {
    const m = /^([^=]+?)\s*=\s*(.+)$/.exec(p);
    if (!m)
      throw new InvalidArgumentError(
        `expected COLUMN=VALUE[,COLUMN=VALUE…] naming the unprivileged group, e.g. sex=Female, got "${value}"`,
      );
    return { column: m[1], value: m[2] };
  });
}

function edgesArg(value: string): number[] {
  const v = numberList(value);
  if (!v)
    throw new InvalidArgumentError(`expected at least two comma-separated numbers, e.g. 17,30,50,90, got "${value}"`);
  return v;
}

const collect = (value: string, prev: string[] = []): string[] => [...prev, ...names(value)];

interface FaleCliOptions extends DataCliOptions {
  modelTimeout: number;
  model?: string;
  data: string;
  label: string;
  positive?: string;
  favourable?: 'positive' | 'negative' | Direction;
  measure?: FaleMeasure;
  class?: string;
  classOrder?: string[];
  minGroup?: number;
  protected: ProtectedCondition[];
  metric: FaleMetric;
  feature?: string[];
  bins: number;
  edges?: number[];
  minBin: number;
  weighted?: boolean;
  threshold: number;
  bootstrap: number;
  seed: number;
  rank?: number;
  format: 'json' | 'csv' | 'svg';
  pair?: string[];
  modelClasses?: Record<string, string>;
  allowInvertedScores?: boolean;
}

const HELP_AFTER =
  `
For each feature, FALE shows how a group-fairness statistic changes with the feature's value
(Giannopoulos et al.; reference behaviour of the athenarc implementation, with its EOD/AOD label
misalignment fixed). Metrics use aif360's sign, unprivileged - privileged:
${FALE_METRICS.map((m) => `  ${m}  ${FALE_METRIC_DEFS[m].formula}`).join('\n')}
A row is predicted positive when the model's P(positive) > --threshold. The metrics are taken on the
favourable decision: with --favourable negative, yhat=1 above reads "given the favourable (negative)
decision" and TPR the true rate of the favourable class, so below 0 the unprivileged group is
disadvantaged whichever label value is named positive (the same decisions coded the other way give the
same curves). Before FALE moves any row, the model's recorded positive class is checked against
--positive (--model-classes maps it) and its scores against the label (--allow-inverted-scores).

Continuous (numeric) features: edges numpy.percentile(x, linspace(0, 100, --bins)), deduplicated;
bins (e_k-1, e_k], the lowest edge included. Each bin's rows are set to its lower and upper edge and
the model is called; delta = F(upper) - F(lower) on the bin's rows, with their own labels. Values are
the cumulative sum from 0, centred by the size-weighted mean of bin midpoints.
Categorical features: categories ordered by classical MDS on summed KS / TV distances to the other
columns; adjacent moves up and down averaged (simple mean, or count-weighted with --weighted);
centred by the frequency-weighted mean.
Undefined bins (a group absent, no positives for TPR, fewer than --min-bin rows) are null and add 0.
2-D (--pair A,B, two numeric features, JSON only): the same percentile grid on both; per cell the
metric on the cell's rows with both features at each of the 4 corners, effect
(F(hi,hi) - F(hi,lo)) - (F(lo,hi) - F(lo,lo)); empty or undefined cells take the nearest defined
cell's effect (normalised cell centres; listed in "filled"); double cumulative sum, minus the 1-D
main effects, centred by the size-weighted 4-corner mean.

Scores, classes among k and real values: a model whose output is not a binary decision (its kind is the
model's own) takes a --measure instead of --metric, a difference of group means, unprivileged - privileged:
${FALE_MEASURES.map((m) => `  ${m}  (${FALE_MEASURE_DEFS[m].kinds.join(', ')})  ${FALE_MEASURE_DEFS[m].formula}`).join(
  '\n',
)}
The default is the kind's first. A multiclass model needs its favourable class c: --class c, or
--class-order (most favourable first; c is its first); yhat is the class of largest probability (the first
on a tie). A score or a real value needs --favourable higher|lower, which says which sign disadvantages the
unprivileged group. The bins, moves, accumulation, centring, --bootstrap bands and --pair are FALE's own;
--positive, --threshold, --metric, --model-classes and --allow-inverted-scores read a binary decision and are
refused.
These models are read whole (not in chunks). The JSON states the measure, its units and how to read it;
the CSV adds the columns measure and units.

Examples (loans.json and loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid fale --model loans.json --data loans-test.csv --label approved --positive yes --protected sex=Female ` +
  `--feature income
  lucid fale --model loans.json --data loans-test.csv --label approved --positive yes --protected sex=Female,group=B ` +
  `--metric eod --format csv
`;

/** The options fale() and faleStream() share, from the command line. */
function faleOptions(opts: FaleCliOptions) {
  return {
    label: opts.label,
    positive: opts.positive,
    // higher and lower are refused before a binary classifier's FALE (refuseOutputOptions)
    favourable: opts.favourable as 'positive' | 'negative' | undefined,
    minGroupSize: opts.minGroup,
    protected: opts.protected,
    metric: opts.metric,
    features: opts.feature,
    bins: opts.bins,
    edges: opts.edges && opts.feature ? { [opts.feature[0]]: opts.edges } : undefined,
    minBin: opts.minBin,
    weighted: opts.weighted === true,
    threshold: opts.threshold,
    modelClasses: opts.modelClasses,
    allowInvertedScores: opts.allowInvertedScores === true,
  };
}

export const faleCommand = withDataOptions(
  new Command('fale')
    .description(
      'fairness-aware ALE: how a fairness metric (unprivileged − privileged) changes along each feature, by calling ' +
        'the model on modified rows',
    )
    .requiredOption('--model <file>', `the audited model (${modelFilePhrase()}); FALE calls it on modified rows`)
    .requiredOption('--data <file>', `the audit data (${DATA_FILE})`),
)
  .requiredOption('--label <column>', 'the true label column')
  .addOption(F.positive())
  .addOption(O.favourable())
  .addOption(F.modelClasses())
  .addOption(F.allowInvertedScores())
  .addOption(F.minGroup(METRICS_DEFAULTS.minGroupSize))
  .requiredOption(
    '--protected <spec>',
    'the unprivileged group, COLUMN=VALUE[,COLUMN=VALUE…] (all must hold); everyone else is privileged',
    protectedArg,
  )
  .addOption(new Option('--metric <m>', 'fairness metric').choices(FALE_METRICS).default(FALE_DEFAULTS.metric))
  .addOption(
    new Option(
      '--measure <m>',
      "a score, multiclass or regression model: the measure (default: the kind's first; see below)",
    ).choices(FALE_MEASURES),
  )
  .option('--class <c>', 'multiclass: the favourable class (default: the first of --class-order)')
  .addOption(O.classOrder())
  .option(
    '--feature <names>',
    'features to explain (repeatable or comma-separated; default: every model input but the label and protected ' +
      'columns)',
    collect,
  )
  .option(
    '--bins <n>',
    'percentile levels linspace(0, 100, n) for numeric features (at most n - 1 bins)',
    intAtLeast2,
    FALE_DEFAULTS.bins,
  )
  .option(
    '--pair <a,b>',
    '2-D FALE of two numeric features, e.g. --pair Age,"Hours per week" (JSON only; instead of --feature)',
    (v: string) => {
      const p = names(v);
      if (p.length !== 2) throw new InvalidArgumentError(`expected two comma-separated feature names, got "${v}"`);
      return p;
    },
  )
  .option(
    '--edges <list>',
    'explicit bin edges for the one numeric --feature, e.g. 17,30,50,90 (rows outside are left out)',
    edgesArg,
  )
  .option(
    '--min-bin <n>',
    'bins (categories) with fewer rows are reported undefined',
    nonNegativeInt,
    FALE_DEFAULTS.minBin,
  )
  .option(
    '--weighted',
    'categorical: average the up and down moves count-weighted (ALEPlot) instead of the simple mean',
  )
  .addOption(F.threshold(FALE_DEFAULTS.threshold))
  .option('--bootstrap <n>', 'bootstrap replicates for 95% percentile bands (0 = none)', nonNegativeInt, 0)
  .option('--seed <n>', 'seed of the bootstrap', nonNegativeInt, 0)
  .addOption(modelTimeoutOption())
  .option(
    '--rank <b>',
    "add the reference's subgroup ranking with trade-off b in [0, 10] (score = |FALE| / max|FALE| * b + size / N * " +
      '(10 - b))',
    (v: string) => {
      const x = Number(v);
      if (v.trim() === '' || !Number.isFinite(x) || x < 0 || x > 10)
        throw new InvalidArgumentError(`expected a number in [0, 10], got "${v}"`);
      return x;
    },
  )
  .addOption(formatOption(['json', 'csv', 'svg'], 'json', 'output format (--rank: JSON only)'))
  .addHelpText('after', HELP_AFTER)
  .action(async (opts: FaleCliOptions, cmd: Command) => {
    const given = (o: string) => cmd.getOptionValueSource(o) === 'cli';
    if (opts.rank !== undefined && opts.format !== 'json')
      throw new EngineError('E_ARG', '--rank adds a ranking to the JSON output; use --format json');
    if (opts.edges && (opts.feature?.length ?? 0) !== 1)
      throw new EngineError('E_ARG', '--edges needs exactly one --feature (the numeric feature they cut)');
    if (opts.pair) {
      if (opts.feature || opts.edges || opts.rank !== undefined || opts.bootstrap > 0 || opts.weighted)
        throw new EngineError('E_ARG', '--pair takes none of --feature, --edges, --rank, --bootstrap, --weighted');
      if (opts.format !== 'json') throw new EngineError('E_ARG', '--pair writes JSON only; use --format json');
    }
    const wanted = {
      '--label': opts.label,
      '--protected': opts.protected.map((c) => c.column),
      '--feature': opts.feature,
      '--pair': opts.pair,
    };
    const engine = await initNodeEngine();
    const clean = (report: ReadReport) => {
      requireClean(report, [opts.label, ...opts.protected.map((c) => c.column)], 'the label or --protected');
      for (const w of report.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    };
    let result: FaleResult;
    /** A binary classifier takes none of the options of the other outputs. */
    const refuseOutputOptions = (model: BlackBox) => {
      for (const o of ['measure', 'class', 'classOrder'])
        if (opts[o as keyof FaleCliOptions] !== undefined)
          throw new EngineError(
            'E_ARG',
            `fale: --${o === 'classOrder' ? 'class-order' : o} is for score, multiclass and regression models; ` +
              `${model.source} is a binary classifier (use --metric)`,
          );
      if (opts.favourable === 'higher' || opts.favourable === 'lower')
        throw new EngineError(
          'E_ARG',
          `fale: --favourable ${opts.favourable} is for a score or a real value; ${model.source} is a binary ` +
            `classifier: --favourable positive or negative`,
        );
    };
    /** A score, multiclass or regression model: its FALE with the measure, on the whole table (null: 2-D, written). */
    const outputRun = async (model: BlackBox, table: Table): Promise<FaleResult | null> => {
      const kind = outputOf(model).kind;
      const binaryOnly = [
        ['positive', '--positive'],
        ['threshold', '--threshold'],
        ['metric', '--metric'],
        ['modelClasses', '--model-classes'],
        ['allowInvertedScores', '--allow-inverted-scores'],
      ].filter(([o]) => given(o));
      if (binaryOnly.length > 0)
        throw new EngineError(
          'E_ARG',
          `fale: ${binaryOnly.map((b) => b[1]).join(', ')} read${binaryOnly.length === 1 ? 's' : ''} a binary ` +
            `decision; ${model.source} is a ${kind} model: give --measure ${FALE_MEASURES.filter((m) =>
              (FALE_MEASURE_DEFS[m].kinds as readonly string[]).includes(kind),
            ).join('|')}`,
        );
      const shared = {
        label: opts.label,
        protected: opts.protected,
        minGroupSize: opts.minGroup,
        measure: opts.measure,
        favouredClass: opts.class,
        classOrder: opts.classOrder,
        direction: opts.favourable as Direction | undefined,
        bins: opts.bins,
        edges: opts.edges && opts.feature ? { [opts.feature[0]]: opts.edges } : undefined,
        minBin: opts.minBin,
      };
      if (opts.pair) {
        const r2 = await fale2dOutput(table, model, { ...shared, pair: [opts.pair[0], opts.pair[1]] });
        for (const w of r2.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
        process.stdout.write(JSON.stringify(r2, null, 2) + '\n');
        return null;
      }
      return faleOutput(table, model, {
        ...shared,
        features: opts.feature,
        weighted: opts.weighted === true,
        bootstrap: opts.bootstrap,
        rng: new Rng(engine, opts.seed),
      });
    };
    const readWhole = async () => {
      const { table, report } = await readTable(opts.data, readOptionsOf(opts));
      requireColumns(table, opts.data, wanted);
      clean(report);
      return table;
    };
    if (opts.pair || opts.bootstrap > 0) {
      // the 2-D grid and the bootstrap replicates need every row in memory
      const table = await readWhole();
      const model = await resolveBlackBox(engine, { model: opts.model }, table, { modelTimeout: opts.modelTimeout });
      if (outputOf(model).kind !== 'binary') {
        const r = await outputRun(model, table);
        if (r === null) return;
        result = r;
      } else if (opts.pair) {
        refuseOutputOptions(model);
        const { features: _f, edges: _e, weighted: _w, ...shared } = faleOptions(opts);
        const r2 = await fale2d(table, model, { ...shared, pair: [opts.pair[0], opts.pair[1]] });
        for (const w of r2.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
        process.stdout.write(JSON.stringify(r2, null, 2) + '\n');
        return;
      } else {
        refuseOutputOptions(model);
        result = await fale(table, model, {
          ...faleOptions(opts),
          bootstrap: opts.bootstrap,
          rng: new Rng(engine, opts.seed),
        });
      }
    } else {
      // streamed: the file is read in chunks, in a few passes (src/methods/fale/stream.ts): memory is bounded by a
      // chunk, not the file
      const model = await resolveBlackBox(
        engine,
        { model: opts.model },
        { rows: 0, columns: [] },
        { modelTimeout: opts.modelTimeout },
      );
      if (outputOf(model).kind !== 'binary') {
        // faleStream reads a binary decision: the other outputs are read whole (--pair has read it whole above)
        result = (await outputRun(model, await readWhole())) as FaleResult;
      } else {
        refuseOutputOptions(model);
        const source = fileSource(
          opts.data,
          {
            ...readOptionsOf(opts),
            onColumns: (names) =>
              requireColumns(
                { rows: 0, columns: names.map((name) => ({ kind: 'numeric', name, values: new Float64Array(0) })) },
                opts.data,
                wanted,
              ),
          },
          clean,
        );
        // the same JSON as fale() on the whole table: how it was read is no part of the result (a sampled order is a
        // warning)
        const { stream: _read, ...rest } = await faleStream(source, model, faleOptions(opts));
        result = rest;
      }
    }
    for (const w of result.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    const json =
      opts.rank !== undefined
        ? { ...result, ranking: { b: opts.rank, subgroups: rankSubgroups(result, opts.rank) } }
        : result;
    process.stdout.write(
      opts.format === 'csv'
        ? faleCsv(result)
        : opts.format === 'svg'
          ? faleSvg(result)
          : JSON.stringify(json, null, 2) + '\n',
    );
  });
