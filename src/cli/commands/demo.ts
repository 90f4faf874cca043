// `lucid demo`: audits of models trained on data with known (planted) discrimination — the bias
// simulator by default, or Adult / COMPAS from LUCID_DATA_DIR. Wiring only: the work is runDemo
// (src/node/demo.ts).
import { Command, Option } from 'commander';
import { DEMO_SIM, runDemo, type DemoOptions } from '../../node/demo.js';
import { initNodeEngine } from '../../node/engine.js';
import { nonNegativeInt, positiveInt, summaryFormat } from '../options.js';
import { progressLine } from '../progress.js';
import { AUDIT_SEED_HELP } from '../audit-options.js';
import { wrapText } from '../../report/format.js';

interface DemoCliOptions {
  out: string;
  dataset: DemoOptions['dataset'];
  seed: number;
  ganEpochs?: number;
  quiet?: boolean;
  format?: string;
}

export const demo = new Command('demo')
  .description(
    'the fairness demo: audit models trained on data with planted direct, proxy and intersectional bias (or on Adult ' +
      '/ COMPAS) and write HTML reports',
  )
  .option('--out <dir>', 'the folder to write the reports to', './lucid-demo')
  .addOption(
    new Option('--dataset <name>', 'sim: the embedded bias simulator; adult, compas: from LUCID_DATA_DIR')
      .choices(['sim', 'adult', 'compas'])
      .default('sim'),
  )
  .option(
    '--seed <n>',
    `${AUDIT_SEED_HELP}. The demo also trains its model with s, and sim simulates the training rows with seed s and ` +
      `the audited rows with s + 1`,
    nonNegativeInt,
    0,
  )
  .option(
    '--gan-epochs <n>',
    `LUCID-GAN epochs (default: ${DEMO_SIM.ganEpochs} for sim; the audit's default for adult/compas)`,
    positiveInt,
  )
  .option('--quiet', 'no progress on stderr')
  .addOption(summaryFormat())
  .addHelpText(
    'after',
    `
sim (the default): three audits of a logistic model, each trained on ${DEMO_SIM.rows} simulated loan decisions
and audited on ${DEMO_SIM.rows} more, with protected columns sex and group:
  direct          the decision rule penalises group = B
  proxy           it penalises the neighbourhoods where group B lives; the model is trained without
                  sex and group, so the report's proxy view shows whom it disfavours
  intersectional  it penalises women of group B only
Reports: DIR/direct, DIR/proxy, DIR/intersectional (report.html each) and DIR/index.html.
adult, compas: the built-in classifier trained on the reference train split, the test split audited
with protected Sex and Race (COMPAS: sex and race). The data: LUCID_DATA_DIR, the folder holding
adult/ and compas/ (docs/data.md "Get the data").
The engine self-check that used to be the demo is now \`lucid selfcheck\`.

Example:
  lucid demo --out lucid-demo        # then open lucid-demo/index.html in a browser`,
  )
  .action(async (opts: DemoCliOptions) => {
    const engine = await initNodeEngine();
    const json = opts.format === 'json';
    const log = (s: string) => {
      if (!json) process.stdout.write(wrapText(s));
    };
    const summary = await runDemo(engine, {
      out: opts.out,
      dataset: opts.dataset,
      seed: opts.seed,
      ganEpochs: opts.ganEpochs,
      argv: process.argv.slice(2),
      log,
      progress: opts.quiet ? undefined : progressLine,
    });
    if (json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  });
