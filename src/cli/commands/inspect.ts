// `lucid inspect`: parse, validate, read the file, call inspectTable, print.
import { Command, Option } from 'commander';
import type { Delimiter } from '../../data/csv-detect.js';
import { addModes, formatInspect, inspectTable } from '../../data/inspect.js';
import { initNodeEngine } from '../../node/engine.js';
import type { MissingPolicy } from '../../data/schema.js';
import { readCsv } from '../../node/csv.js';
import { delimiter, names, nonNegativeInt, positiveInt } from '../options.js';


interface InspectOptions {
  data: string;
  delimiter?: Delimiter;
  header?: boolean;
  columns?: string[];
  numeric?: string[];
  categorical?: string[];
  drop?: string[];
  missing: MissingPolicy;
  maxCategories: number;
  format: 'table' | 'json';
  modes?: boolean;
  seed: number;
}

export const inspect = new Command('inspect')
  .description('show what the tool will see in a CSV file: settings, rows kept, and per column its kind, missing cells and categories or range')
  .requiredOption('--data <file>', 'the CSV file')
  .option('--delimiter <d>', 'comma, semicolon, tab or whitespace (runs of spaces/tabs) (default: detected)', delimiter)
  .option('--header', 'line 1 names the columns (default: detected)')
  .option('--no-header', 'line 1 is data')
  .option('--columns <names>', 'column names, comma-separated (replace the header, or name a headerless file)', names)
  .option('--numeric <names>', 'columns that must be numeric (a non-number is an error)', names)
  .option('--categorical <names>', 'columns kept as categories even when they hold numbers', names)
  .option('--drop <names>', 'columns to leave out', names)
  .addOption(new Option('--missing <policy>', 'missing values: keep (drop rows with a missing number, keep a missing label as a category), drop (drop every row with one), error').choices(['keep', 'drop', 'error']).default('keep'))
  .option('--max-categories <n>', 'most distinct labels a categorical column may have', positiveInt, 1000)
  .addOption(new Option('--format <f>', 'output format').choices(['table', 'json']).default('table'))
  .option('--modes', 'also fit each numeric column\'s variational Gaussian mixture and show the modes the GAN will use (weight > 0.005)')
  .option('--seed <n>', 'seed of the mode fits (k-means initialisation)', nonNegativeInt, 0)
  .addHelpText('after', `
Every other command reads CSV files the same way, with the same options: run this first to see what
they will see (the delimiter and header found, rows dropped for missing values, each column's kind).

Examples:
  lucid inspect --data adult.csv
  lucid inspect --data adult.data --no-header --columns age,workclass,fnlwgt,... --format json
  lucid inspect --data adult.csv --modes          # the Gaussian-mixture modes LUCID-GAN will use`)
  .action(async (opts: InspectOptions) => {
    const { table, report } = await readCsv(opts.data, {
      delimiter: opts.delimiter,
      header: opts.header,
      columns: opts.columns,
      numeric: opts.numeric,
      categorical: opts.categorical,
      drop: opts.drop,
      missing: opts.missing,
      maxCategories: opts.maxCategories,
    });
    const summary = inspectTable(table, report);
    if (opts.modes) addModes(await initNodeEngine(), table, summary, opts.seed);
    for (const w of summary.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    process.stdout.write(opts.format === 'json' ? JSON.stringify(summary, null, 2) + '\n' : formatInspect(summary));
  });
