// The `lucid` program: every command, wired (nothing parsed here). main.ts runs it; the conventions
// tests walk it (test/cli), so a new command is checked as soon as it is added here.
import { Command, InvalidArgumentError, type Option } from 'commander';
import { isThreadCount, MAX_THREADS } from '../engine/threads.js';
import { AUDIT_VERSION } from '../audit/options.js';
import { CommandLineError } from './handle-error.js';
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
  .description(
    'lucid-wasm: locate unfairness in machine-learning models (LUCID, LUCID-GAN, FALE) in any JavaScript runtime',
  )
  .version(AUDIT_VERSION)
  .option('--debug', 'print the stack trace with an error message')
  .option(
    '--threads <n>',
    'kernel threads (default: LUCID_THREADS, else the number of cores; 1 = single-threaded; results are identical)',
    (v: string) => {
      const n = Number(v);
      if (!isThreadCount(n)) throw new InvalidArgumentError(`expected an integer in 1..${MAX_THREADS}`);
      return n;
    },
  )
  .exitOverride();

program.addCommand(auditCommand);
program.addCommand(check);
program.addCommand(dataset);
program.addCommand(demo);
program.addCommand(faleCommand);
program.addCommand(gan);
program.addCommand(inspect);
program.addCommand(invertCommand);
program.addCommand(metrics);
program.addCommand(model);
program.addCommand(quality);
program.addCommand(selfcheck);

/** `command`'s name as a user types it: "lucid model train". */
function commandLine(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

const REQUIRED = new WeakMap<Command, readonly Option[]>();

/** The options `command` requires (commander's `mandatory` flag is off: checkRequiredOptionsLast checks them). */
export const requiredOptions = (command: Command): readonly Option[] =>
  REQUIRED.get(command) ?? command.options.filter((o) => o.mandatory);

/**
 * Commander checks required options before unknown ones, so a misspelt `--protect` would be reported
 * as a missing `--protected`: each command's required options are checked instead just before its
 * action runs, after commander has rejected unknown options and missing arguments.
 */
function checkRequiredOptionsLast(command: Command): void {
  const required: Option[] = command.options.filter((o) => o.mandatory);
  REQUIRED.set(command, required);
  if (required.length === 0) return;
  for (const o of required) o.makeOptionMandatory(false);
  command.hook('preAction', (cmd) => {
    const missing = required.find((o) => cmd.getOptionValue(o.attributeName()) === undefined);
    if (missing)
      cmd.error(`error: required option '${missing.flags}' not specified`, {
        code: 'commander.missingMandatoryOptionValue',
      });
  });
}

// Commander's own errors (unknown option or command, bad choice, missing argument or option) reach
// the one error handler as CommandLineErrors that know their command, instead of being printed here.
for (const c of [
  program,
  ...(function all(cs: readonly Command[]): Command[] {
    return cs.flatMap((x) => [x, ...all(x.commands)]);
  })(program.commands),
]) {
  c.exitOverride((err) => {
    throw new CommandLineError(err, commandLine(c));
  });
  c.configureOutput({ outputError: () => {} });
  checkRequiredOptionsLast(c);
}

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
