// `lucid dataset export`: parse, load a reference data set (LUCID_DATA_DIR), write one split as CSV.
import { Command, Option } from 'commander';
import { splitText, type SplitProvenance } from '../../data/datasets.js';
import { simulate, BIAS_KINDS, type BiasKind } from '../../data/simulator.js';
import type { Table } from '../../data/table.js';
import { EngineError } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import { writeCsv } from '../../node/csv.js';
import { loadAdult, loadCompas } from '../../node/datasets.js';
import { initNodeEngine } from '../../node/engine.js';
import { nonNegativeInt, positiveInt, printSummary, summaryFormat } from '../options.js';

interface ExportCliOptions {
  split: 'train' | 'val' | 'test' | 'all';
  naming: 'reference' | 'uci';
  bias: BiasKind;
  rows: number;
  seed: number;
  score?: string;
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
      'metrics',
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

Examples (the first two make the README walkthrough's files):
  lucid dataset export sim --bias intersectional --rows 6000 --seed 1 --out loans-train.csv
  lucid dataset export sim --bias intersectional --rows 4000 --seed 2 --out loans-test.csv
  lucid dataset export sim --bias proxy --rows 10000 --seed 1 --out sim.csv
  lucid dataset export sim --rows 100000 --score p_approved --out sim-scored.csv   # with a prediction column for ` +
      `lucid metrics (10,000,000 rows: 0.7 GB)

With the Adult and COMPAS files in LUCID_DATA_DIR (where to get them: docs/data.md "Get the data"):
  lucid dataset export adult --split train --out adult-train.csv
  lucid dataset export adult --split test --out adult-test.csv
  lucid dataset export compas --split test --out compas-test.csv`,
  )
  .action(async (name: string, opts: ExportCliOptions) => {
    let table: Table;
    let what: string;
    let split: SplitProvenance | undefined;
    if (name === 'sim') {
      const engine = await initNodeEngine();
      const s = simulate(new Rng(engine, opts.seed), { n: opts.rows, bias: opts.bias });
      table = s.table;
      if (opts.score !== undefined) {
        if (table.columns.some((c) => c.name === opts.score))
          throw new EngineError('E_ARG', `--score ${opts.score}: the simulator already has a column of that name`);
        table = {
          rows: table.rows,
          columns: [...table.columns, { kind: 'numeric' as const, name: opts.score, values: s.truth.probability }],
        };
      }
      what = `the bias simulator (${opts.bias}: ${s.truth.rule})`;
    } else if (opts.score !== undefined) {
      throw new EngineError('E_ARG', '--score is for the simulator (dataset export sim)');
    } else if (name === 'adult' || name === 'compas') {
      const d =
        name === 'adult' ? await loadAdult({ naming: opts.naming === 'uci' ? 'uci' : undefined }) : await loadCompas();
      table = opts.split === 'all' ? d.source : d.splits[opts.split];
      what =
        `${name} ${opts.split === 'all' ? 'all rows' : `${opts.split} split`} (label ${d.label}; audit it with ` +
        `--positive '${d.audit.positive}' --favourable ${d.audit.favourable}), from ${splitText(d.split)}`;
      split = d.split;
    } else {
      throw new EngineError('E_ARG', `dataset export: unknown data set "${name}"; expected adult, compas or sim`);
    }
    await writeCsv(opts.out, table);
    printSummary(opts.format, [`lucid: wrote ${opts.out}: ${table.rows} rows of ${what}`], {
      out: opts.out,
      name,
      rows: table.rows,
      columns: table.columns.map((c) => c.name),
      ...(split ? { split } : {}),
    });
  });

export const dataset = new Command('dataset')
  .description('reference data sets as clean CSV files (Adult, COMPAS, the bias simulator)')
  .addCommand(exportCommand.exitOverride());
