// Progress on stderr for the commands that run long (audit, check, demo): the stage, how far it is,
// and for the GANs' training an estimate of its length (printed once, when a second of training has
// been timed) and the time left.
import type { StageEta } from '../audit/options.js';
import { estimateText, fmtDuration } from '../report/format.js';

/** A progress line on stderr: redrawn on a terminal, one line per stage otherwise. */
export function progressLine(label = 'audit'): { onProgress: (stage: string, f: number, eta?: StageEta) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let last = '';
  let drawn = false;
  let estimated = false;
  let quarter = 0;
  return {
    onProgress: (stage, f, eta) => {
      // the estimate, once, when a second of the stage has been timed (an earlier pace is mostly start-up)
      if (eta && !estimated && eta.total - eta.left >= 1) {
        estimated = true;
        process.stderr.write(`${drawn ? '\r\x1b[K' : ''}lucid: ${label}: ${estimateText(eta)}\n`);
      }
      if (!tty) {
        if (stage !== last && stage !== 'done') process.stderr.write(`lucid: ${label}: ${stage}…\n`);
        last = stage;
        // in a log, the time left at each quarter
        if (eta && estimated && Math.floor(4 * f) > quarter && f < 1) {
          quarter = Math.floor(4 * f);
          process.stderr.write(`lucid: ${label}: ${stage} ${25 * quarter}%, about ${fmtDuration(eta.left)} left\n`);
        }
        return;
      }
      const width = 20;
      const done = Math.round(width * f);
      const left = eta && estimated ? ` · about ${fmtDuration(eta.left)} left` : '';
      process.stderr.write(`\r${`${label === 'audit' ? '' : `${label}: `}${stage.padEnd(13)} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.round(100 * f)}%${left}`}\x1b[K`);
      drawn = true;
    },
    end: () => {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}
