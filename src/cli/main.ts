// The `lucid` command: wiring only. Each subcommand is one file in commands/, the program in program.ts.
import type { Command } from 'commander';
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

// a command that never settles (the loop empties while it is pending) is an error, not exit 0
guardResult(program.parseAsync(process.argv), () => running).catch((err: unknown) => handleError(err, program.opts().debug === true));
