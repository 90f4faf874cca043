// The `lucid` command: wiring only. Each subcommand is one file in commands/, the program in program.ts.
import { CommanderError, type Command } from 'commander';
import { handleError } from './handle-error.js';
import { guardResult } from './no-result.js';
import { program } from './program.js';
import { setDefaultThreads } from '../node/engine.js';

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

/**
 * `lucid help frob`: commander prints the program's help and reports a missing command; say instead
 * that frob is not a command. `args`: the arguments after the global options (--debug, --threads n).
 */
function unknownHelpTopic(args: string[]): CommanderError | null {
  let i = 0;
  while (args[i] === '--debug' || args[i] === '--threads') i += args[i] === '--threads' ? 2 : 1;
  const topic = args[i] === 'help' ? args[i + 1] : undefined;
  if (topic === undefined || topic.startsWith('-') || program.commands.some((c) => c.name() === topic)) return null;
  return new CommanderError(2, 'commander.unknownCommand', `error: unknown command '${topic}'`);
}

const helpError = unknownHelpTopic(process.argv.slice(2));
// a command that never settles (the loop empties while it is pending) is an error, not exit 0
if (helpError) handleError(helpError, process.argv.includes('--debug'));
else
  guardResult(program.parseAsync(process.argv), () => running).catch((err: unknown) =>
    handleError(err, program.opts().debug === true),
  );
