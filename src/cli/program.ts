// The `lucid` program: every command, wired (nothing parsed here). main.ts runs it; the conventions
// tests walk it (test/cli), so a new command is checked as soon as it is added here.
import { Command, InvalidArgumentError } from 'commander';
import { isThreadCount, MAX_THREADS } from '../engine/threads.js';
import { AUDIT_VERSION } from '../audit/options.js';
import { auditCommand } from './commands/audit.js';
import { check } from './commands/check.js';
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

export const program = new Command('lucid')
  .description('lucid-wasm: locate unfairness in machine-learning models (LUCID, LUCID-GAN, FALE) in any JavaScript runtime')
  .version(AUDIT_VERSION)
  .option('--debug', 'print the stack trace with an error message')
  .option('--threads <n>', 'kernel threads (default: LUCID_THREADS, else the number of cores; 1 = single-threaded; results are identical)', (v: string) => {
    const n = Number(v);
    if (!isThreadCount(n)) throw new InvalidArgumentError(`expected an integer in 1..${MAX_THREADS}`);
    return n;
  })
  .exitOverride()
  .showHelpAfterError();

program.addCommand(auditCommand.exitOverride());
program.addCommand(check.exitOverride());
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

/** Every runnable command (those without subcommands), as the path a user types: ['gan', 'fit']. */
export function leafCommands(root: Command = program): { path: string[]; command: Command }[] {
  const out: { path: string[]; command: Command }[] = [];
  const walk = (c: Command, path: string[]) => {
    if (c.commands.length === 0) out.push({ path, command: c });
    for (const sub of c.commands) walk(sub, [...path, sub.name()]);
  };
  for (const c of root.commands) walk(c, [c.name()]);
  return out;
}
