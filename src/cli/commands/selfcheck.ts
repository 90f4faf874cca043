// `lucid selfcheck`: parse, validate, call runSelfCheck, print.
import { Command, Option } from 'commander';
import { runSelfCheck } from '../../selfcheck.js';
import { initNodeEngine } from '../../node/engine.js';
import { pctText } from '../../data/text.js';
import { nonNegativeInt, positiveInt, summaryFormat } from '../options.js';

export const selfcheck = new Command('selfcheck')
  .description(
    'engine self-check (formerly lucid demo): train a small MLP on generated data (two classes, a disc inside a ' +
      'square) and print its loss curve',
  )
  .option('--steps <n>', 'training steps', positiveInt, 1500)
  .option('--seed <n>', 'random seed (same seed, same output, bit for bit)', nonNegativeInt, 0)
  .addOption(summaryFormat())
  .addOption(new Option('--json', 'the old name of --format json').hideHelp())
  .addHelpText(
    'after',
    `
The engine self-check that \`lucid demo\` used to run: a small MLP learns a disc inside a square with
the wasm kernels, autodiff and Adam; the loss should fall and the held-out accuracy pass 95%.

Example:
  lucid selfcheck --steps 600 --seed 3`,
  )
  .action(async (o: { steps: number; seed: number; json?: boolean; format?: string }) => {
    // --format json, as every other command; --json is kept as its old name
    const opts = { ...o, json: o.json === true || o.format === 'json' };
    const engine = await initNodeEngine();
    if (!opts.json)
      process.stdout.write(
        `lucid-wasm engine self-check (kernels: ` +
          `${engine.variant === 'relaxed' ? 'SIMD128 + relaxed-SIMD FMA' : 'SIMD128'})\n`,
      );
    const r = runSelfCheck(engine, {
      steps: opts.steps,
      seed: opts.seed,
      every: Math.max(1, Math.round(opts.steps / 15)),
      onProgress: opts.json
        ? undefined
        : (s, loss) =>
            process.stdout.write(
              `  step ${String(s).padStart(6)}  loss ${loss.toFixed(4)}  ${'#'.repeat(Math.round(loss * 60))}\n`,
            ),
    });
    if (opts.json) {
      process.stdout.write(JSON.stringify(r) + '\n');
      return;
    }
    process.stdout.write(
      `accuracy: train ${pctText(r.trainAccuracy)}, held-out ${pctText(r.testAccuracy)}  ` + `(${r.ms} ms)\n`,
    );
  });
