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
import { guardResult } from './no-result.js';
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

/** The command being run ("audit", "model predict"), for the no-result guard. */
let running = 'lucid';

program.hook('preAction', (_program, action) => {
  const threads = program.opts().threads as number | undefined;
  if (threads !== undefined) setDefaultThreads(threads);
  const path: string[] = [];
  for (let c: Command | null = action; c && c !== program; c = c.parent) path.unshift(c.name());
  if (path.length > 0) running = path.join(' ');
});

process.on('SIGINT', () => process.exit(130));

// a command that never settles (the loop empties while it is pending) is an error, not exit 0
guardResult(program.parseAsync(process.argv), () => running).catch((err: unknown) => handleError(err, program.opts().debug === true));
