// Nothing passes silently: a command whose promise never settles (e.g. a model that never
// answers) would let the event loop empty, and Node would exit 0 with no result and no error. The
// one guard against it, for every command (main.ts): if the loop empties while the command is
// still pending, say so on one line and exit 1.
import { EXIT } from './handle-error.js';

/** Returns `work`; until it settles, an emptied event loop is an error naming `command()`. */
export function guardResult<T>(work: Promise<T>, command: () => string): Promise<T> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  work.then(done, done);
  process.on('beforeExit', () => {
    if (settled) return;
    process.stderr.write(
      `lucid: error: ${command()} stopped without a result: a promise never settled (a model that never answers?)\n`,
    );
    process.exit(EXIT.runtime);
  });
  return work;
}
