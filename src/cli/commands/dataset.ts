// `lucid dataset export`: parse, load a reference data set (LUCID_DATA_DIR), write one split as CSV.
import { Command, Option } from 'commander';
import {
  ADULT_TARGET_NAMES,
  ADULT_TARGETS,
  type AdultTarget,
  adultTargetTable,
  COMPAS_EXTRA,
  splitText,
  type SplitProvenance,
} from '../../data/datasets.js';
import {
  simulate,
  BIAS_KINDS,
  type BiasKind,
  SIM_FEATURES,
  SIM_TARGET_NAMES,
  SIM_TARGETS,
  type SimTarget,
} from '../../data/simulator.js';
import type { Table } from '../../data/table.js';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { writeCsv } from '../../node/csv.js';
import { loadAdult, loadCompas } from '../../node/datasets.js';
import { initNodeEngine } from '../../node/engine.js';
import { names, nonNegativeInt, positiveInt, printSummary, summaryFormat } from '../options.js';

const TARGETS_WITH_PREDICTION = SIM_TARGET_NAMES.filter((t) => SIM_TARGETS[t].prediction !== null);

/** `--target`'s value checked against the data set's targets, the valid ones named. */
function targetOf<T extends string>(name: string, given: string | undefined, valid: readonly T[]): T | undefined {
  if (given === undefined) return undefined;
  if (!valid.includes(given as T))
    throw new EngineError('E_ARG', `--target ${given}: unknown for ${name}; expected one of ${valid.join(', ')}`);
  return given as T;
}

interface ExportCliOptions {
  split: 'train' | 'val' | 'test' | 'all';
  naming: 'reference' | 'uci';
  bias: BiasKind;
  rows: number;
  seed: number;
  score?: string;
  target?: string;
  with?: string[];
  out: string;
  format?: string;
}

const exportCommand = new Command('export')
  .description(
    'write a data set as a clean CSV: Adult or COMPAS prepared as the reference does (from LUCID_DATA_DIR), or the ' +
      'bias simulator',
  )
  .argument('<name>', 'adult, compas or sim')
  .addOption(
    new Option(
      '--split <s>',
      "adult/compas: the reference split to write (all: the rows the splits index: Adult's training file, COMPAS's " +
        'filtered rows)',
    )
      .choices(['train', 'val', 'test', 'all'])
      .default('test'),
  )
  .addOption(
    new Option('--naming <n>', 'adult: the reference\'s column names (typo "Martial Status" included) or the UCI names')
      .choices(['reference', 'uci'])
      .default('reference'),
  )
  .addOption(new Option('--bias <kind>', 'sim: the planted bias').choices([...BIAS_KINDS]).default('direct'))
  .option('--rows <n>', 'sim: rows to generate', positiveInt, 5000)
  .option('--seed <n>', 'sim: seed of the generator', nonNegativeInt, 0)
  .option(
    '--score <name>',
    "sim: also write the planted rule's P(approved = yes) as this column, a ready-made prediction column for lucid " +
      'metrics; with --target score, multiclass or regression: the name of the planted prediction, always written ' +
      `(default ${TARGETS_WITH_PREDICTION.map((t) => `${t}: ${SIM_TARGETS[t].prediction}`).join(', ')})`,
  )
  .option(
    '--target <t>',
    `what the label (and for sim the prediction) is. sim: ${SIM_TARGET_NAMES.map(
      (t) => `${t}${t === 'binary' ? ', the default' : ''}: ${SIM_TARGETS[t].help}`,
    ).join('; ')}. adult: ${ADULT_TARGET_NAMES.map(
      (t) => `${t}${t === 'income' ? ', the default' : ''}: ${ADULT_TARGETS[t].help}`,
    ).join('; ')}`,
  )
  .option(
    '--with <columns>',
    `compas: also write these columns beside the label, never as features of a model (${COMPAS_EXTRA.join(', ')}: ` +
      "ProPublica's risk decile, to audit as a score; leave it out of a model with --drop)",
    names,
  )
  .requiredOption('--out <file>', 'the CSV to write')
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
Adult: rows with "?" dropped, the test file's "." stripped from the label, the reference's split
(train 24129 / val 6033 of the training file; test = the UCI test file, 15060 rows).
COMPAS: ProPublica's filters and the five features of the reference (train 3949 / val 988 / test 1235).
The files are read from LUCID_DATA_DIR (default ../shared/data when it exists) and never written; where
to download them and what to name them: docs/data.md "Get the data". The split comes from
split_indices.json there, or is recomputed exactly without it; the summary says which.
sim: the bias simulator (approved ~ legitimate score minus a planted penalty); see docs/data.md "The bias simulator".
--target plants the same penalty in a score, a class or a credit-limit offer instead (docs/data.md "Targets"),
and gives Adult a numeric or three-class hours label (docs/data.md "Adult's targets").

Examples (the first two make the README walkthrough's files):
  lucid dataset export sim --bias intersectional --rows 6000 --seed 1 --out loans-train.csv
  lucid dataset export sim --bias intersectional --rows 4000 --seed 2 --out loans-test.csv
  lucid dataset export sim --bias proxy --rows 10000 --seed 1 --out sim.csv
  lucid dataset export sim --rows 100000 --score p_approved --out sim-scored.csv   # with a prediction column for ` +
      `lucid metrics (10,000,000 rows: 0.7 GB)
  lucid dataset export sim --target score --rows 20000 --out sim-score.csv   # repaid and the planted credit_score

With the Adult and COMPAS files in LUCID_DATA_DIR (where to get them: docs/data.md "Get the data"):
  lucid dataset export adult --split train --out adult-train.csv
  lucid dataset export adult --split test --out adult-test.csv
  lucid dataset export compas --split test --out compas-test.csv
  lucid dataset export compas --split test --with decile_score --out compas-deciles.csv   # decile_score beside the ` +
      `label
  lucid dataset export adult --split test --target hours3 --out adult-hours3-test.csv`,
  )
  .action(async (name: string, opts: ExportCliOptions) => {
    let table: Table;
    let what: string;
    let split: SplitProvenance | undefined;
    if (name !== 'sim' && name !== 'adult' && name !== 'compas')
      throw new EngineError('E_ARG', `dataset export: unknown data set "${name}"; expected adult, compas or sim`);
    if (name === 'compas' && opts.target !== undefined)
      throw new EngineError('E_ARG', '--target is for sim and adult; compas has one label, two_year_recid');
    if (name !== 'compas' && opts.with !== undefined)
      throw new EngineError('E_ARG', `--with is for compas (${COMPAS_EXTRA.join(', ')})`);
    let target: SimTarget | AdultTarget | undefined;
    if (name === 'sim') {
      const simTarget = targetOf(name, opts.target, SIM_TARGET_NAMES);
      if (simTarget !== 'binary') target = simTarget;
      if (opts.score !== undefined && [...SIM_FEATURES, SIM_TARGETS[simTarget ?? 'binary'].label].includes(opts.score))
        throw new EngineError('E_ARG', `--score ${opts.score}: the simulator already has a column of that name`);
      const engine = await initNodeEngine();
      const s = simulate(new Rng(engine, opts.seed), {
        n: opts.rows,
        bias: opts.bias,
        ...(simTarget === undefined ? {} : { target: simTarget }),
        ...(opts.score === undefined ? {} : { prediction: opts.score }),
      });
      table = s.table;
      what =
        s.target === 'binary'
          ? `the bias simulator (${opts.bias}: ${s.truth.rule})`
          : `the bias simulator (${opts.bias}, target ${s.target}: ${s.truth.rule}; audit it with --label ${s.label} ` +
            `--pred ${s.prediction} ${SIM_TARGETS[s.target].audit})`;
    } else if (opts.score !== undefined) {
      throw new EngineError('E_ARG', '--score is for the simulator (dataset export sim)');
    } else {
      const naming = opts.naming === 'uci' ? 'uci' : undefined;
      // the arguments are checked before the data is read: a wrong --target is a usage error with or without the data
      const adultTarget = name === 'adult' ? targetOf(name, opts.target, ADULT_TARGET_NAMES) : undefined;
      const unknown = (opts.with ?? []).filter((c) => !COMPAS_EXTRA.includes(c));
      if (unknown.length > 0)
        throw new EngineError(
          'E_ARG',
          `--with ${unknown.join(',')}: not a column compas can add; it can add ${COMPAS_EXTRA.join(', ')}`,
        );
      const d = name === 'adult' ? await loadAdult({ naming }) : await loadCompas();
      table = opts.split === 'all' ? d.source : d.splits[opts.split];
      let label = d.label;
      let audit = `--positive '${d.audit.positive}' --favourable ${d.audit.favourable}`;
      if (adultTarget !== undefined && adultTarget !== 'income') {
        target = adultTarget;
        table = adultTargetTable(table, adultTarget, naming);
        label = ADULT_TARGETS[adultTarget].label[naming ?? 'reference'];
        audit = ADULT_TARGETS[adultTarget].audit;
      }
      if (opts.with !== undefined) {
        const extra = d.extra ? (opts.split === 'all' ? d.extra.source : d.extra.splits[opts.split]) : null;
        const added = opts.with.map((c) => {
          const col = extra?.columns.find((x) => x.name === c);
          if (!col) throw new EngineError('E_INPUT', `--with ${c}: the COMPAS file read has no column "${c}"`);
          return col;
        });
        table = { rows: table.rows, columns: [...table.columns, ...added] };
        audit +=
          `; audit ${opts.with[0]} as a score with --pred ${opts.with[0]} --output score --positive 1 ` +
          `--favourable lower (a high decile predicts reoffending), and leave ${opts.with.join(', ')} out of a ` +
          `model with --drop ${opts.with.join(',')}`;
      }
      what =
        `${name} ${opts.split === 'all' ? 'all rows' : `${opts.split} split`} (label ${label}; audit it with ` +
        `${audit}), from ${splitText(d.split)}`;
      split = d.split;
    }
    await writeCsv(opts.out, table);
    printSummary(opts.format, [`lucid: wrote ${opts.out}: ${table.rows} rows of ${what}`], {
      out: opts.out,
      name,
      rows: table.rows,
      ...(target === undefined ? {} : { target }),
      columns: table.columns.map((c) => c.name),
      ...(split ? { split } : {}),
    });
  });

export const dataset = new Command('dataset')
  .description('reference data sets as clean CSV files (Adult, COMPAS, the bias simulator)')
  .addCommand(exportCommand.exitOverride());
