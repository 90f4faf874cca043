// Progress on stderr for the commands that run long (audit, check, demo): the stage, how far it is,
// and for the GANs' training an estimate of its length (printed once, when a second of training has
// been timed) and the time left.
import type { StageEta } from '../audit/options.js';

/** Seconds as "45 s", "3 min 05 s". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The estimate's line: "LUCID-GAN training: about 1 min 35 s (3 LUCID-GANs × 50 epochs; at most, …)". */
export function estimateLine(eta: StageEta): string {
  return `training ${eta.what}: about ${duration(eta.total)}${eta.ceiling ? ' at most (the stopping rule may end it sooner)' : ''}, from the pace of the first ${duration(eta.total - eta.left)}`;
}

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
        process.stderr.write(`${drawn ? '\r\x1b[K' : ''}lucid: ${label}: ${estimateLine(eta)}\n`);
      }
      if (!tty) {
        if (stage !== last && stage !== 'done') process.stderr.write(`lucid: ${label}: ${stage}…\n`);
        last = stage;
        // in a log, the time left at each quarter
        if (eta && estimated && Math.floor(4 * f) > quarter && f < 1) {
          quarter = Math.floor(4 * f);
          process.stderr.write(`lucid: ${label}: ${stage} ${25 * quarter}%, about ${duration(eta.left)} left\n`);
        }
        return;
      }
      const width = 20;
      const done = Math.round(width * f);
      const left = eta && estimated ? ` · about ${duration(eta.left)} left` : '';
      process.stderr.write(`\r${`${label === 'audit' ? '' : `${label}: `}${stage.padEnd(13)} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.round(100 * f)}%${left}`}\x1b[K`);
      drawn = true;
    },
    end: () => {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}
