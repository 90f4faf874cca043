// `lucid inspect`: parse, validate, read the file, call inspectTable, print.
import { Command } from 'commander';
import { formatInspect, inspectTable } from '../../data/inspect.js';
import { addModes } from '../../models/ctgan/transformer.js';
import { initNodeEngine } from '../../node/engine.js';
import { readTable } from '../../node/read-table.js';
import { formatsHelp } from '../../data/formats.js';
import {
  formatOption,
  nonNegativeInt,
  readOptionsOf,
  withDataOptions,
  type DataCliOptions,
  DATA_FILE,
} from '../options.js';
import { wrapText } from '../../report/format.js';

interface InspectOptions extends DataCliOptions {
  data: string;
  format: 'table' | 'json';
  modes?: boolean;
  seed: number;
}

export const inspect = withDataOptions(
  new Command('inspect')
    .description(
      'show what the tool will see in a CSV file: settings, rows kept, and per column its kind, missing cells and ' +
        'categories or range',
    )
    .requiredOption('--data <file>', `the data file (${DATA_FILE})`),
)
  .addOption(formatOption(['table', 'json'], 'table'))
  .option(
    '--modes',
    "also fit each numeric column's variational Gaussian mixture and show the modes the GAN will use (weight > 0.005)",
  )
  .option('--seed <n>', 'seed of the mode fits (k-means initialisation)', nonNegativeInt, 0)
  .addHelpText(
    'after',
    `
Every other command reads data files the same way, with the same options: run this first to see what
they will see (the delimiter and header found, rows dropped for missing values, each column's kind).
Formats (--input-format, else by extension): ${formatsHelp()}.

Examples (loans-test.csv from the README's walkthrough, simulated: no data folder needed):
  lucid inspect --data loans-test.csv
  lucid inspect --data loans-test.csv --categorical hours_per_week --drop neighbourhood --format json
  lucid inspect --data loans-test.csv --modes          # the Gaussian-mixture modes LUCID-GAN will use`,
  )
  .action(async (opts: InspectOptions) => {
    const { table, report } = await readTable(opts.data, readOptionsOf(opts));
    const summary = inspectTable(table, report);
    if (opts.modes) addModes(await initNodeEngine(), table, summary, opts.seed);
    for (const w of summary.warnings) process.stderr.write(`lucid: warning: ${w}\n`);
    process.stdout.write(
      opts.format === 'json' ? JSON.stringify(summary, null, 2) + '\n' : wrapText(formatInspect(summary)),
    );
  });
