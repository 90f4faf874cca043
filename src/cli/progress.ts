// Progress on stderr for the commands that run long (audit, check, demo).
/** A progress line on stderr: redrawn on a terminal, one line per stage otherwise. */
export function progressLine(label = 'audit'): { onProgress: (stage: string, f: number) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let last = '';
  let drawn = false;
  return {
    onProgress: (stage, f) => {
      if (!tty) {
        if (stage !== last && stage !== 'done') process.stderr.write(`lucid: ${label}: ${stage}…\n`);
        last = stage;
        return;
      }
      const width = 20;
      const done = Math.round(width * f);
      process.stderr.write(`\r${`${label === 'audit' ? '' : `${label}: `}${stage.padEnd(13)} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.round(100 * f)}%`}\x1b[K`);
      drawn = true;
    },
    end: () => {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}

