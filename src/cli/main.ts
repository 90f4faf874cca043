// The `lucid` command: wiring only. Each subcommand is one file in commands/.
import { Command, InvalidArgumentError } from 'commander';
import { isThreadCount, MAX_THREADS } from '../engine/threads.js';
import { auditCommand } from './commands/audit.js';
import { dataset } from './commands/dataset.js';
import { demo } from './commands/demo.js';
import { faleCommand } from './commands/fale.js';
import { gan } from './commands/gan.js';
import { inspect } from './commands/inspect.js';
import { metrics } from './commands/metrics.js';
import { invertCommand } from './commands/invert.js';
import { model } from './commands/model.js';
import { quality } from './commands/quality.js';
import { selfcheck } from './commands/selfcheck.js';
import { handleError } from './handle-error.js';
import { setDefaultThreads } from '../node/engine.js';

const program = new Command('lucid')
  .description('lucid-wasm: locate unfairness in machine-learning models (LUCID, LUCID-GAN, FALE) in any JavaScript runtime')
  .version('0.1.0')
  .option('--debug', 'print the stack trace with an error message')
  .option('--threads <n>', 'kernel threads (default: LUCID_THREADS, else the number of cores; 1 = single-threaded; results are identical)', (v: string) => {
    const n = Number(v);
    if (!isThreadCount(n)) throw new InvalidArgumentError(`expected an integer in 1..${MAX_THREADS}`);
    return n;
  })
  .exitOverride()
  .showHelpAfterError();

program.addCommand(auditCommand.exitOverride());
program.addCommand(dataset.exitOverride());
program.addCommand(demo.exitOverride());
program.addCommand(faleCommand.exitOverride());
program.addCommand(gan.exitOverride());
program.addCommand(inspect.exitOverride());
program.addCommand(invertCommand.exitOverride());
program.addCommand(metrics.exitOverride());
program.addCommand(model.exitOverride());
program.addCommand(quality.exitOverride());
program.addCommand(selfcheck.exitOverride());

program.hook('preAction', () => {
  const threads = program.opts().threads as number | undefined;
  if (threads !== undefined) setDefaultThreads(threads);
});

process.on('SIGINT', () => process.exit(130));

program.parseAsync(process.argv).catch((err: unknown) => handleError(err, program.opts().debug === true));
