// Progress on stderr for the commands that run long (audit, check, demo): the stage, how far it is,
// the audit's estimated time before its GANs train (timed on a few of their steps), then the estimate
// of the training from its own pace (printed once, when a second of training has been timed) and the
// time left.
import type { StageEta } from '../audit/options.js';
import type { AuditEstimate } from '../audit/estimate.js';
import { auditEstimateText, estimateText, fmtDuration, paceTimed } from '../report/format.js';

/** A progress line on stderr: redrawn on a terminal, one line per stage otherwise. */
export function progressLine(label = 'audit'): {
  onProgress: (stage: string, f: number, eta?: StageEta) => void;
  onEstimate: (e: AuditEstimate) => void;
  end: () => void;
} {
  const tty = process.stderr.isTTY === true;
  let last = '';
  let drawn = false;
  let estimated = false;
  let quarter = 0;
  return {
    onProgress: (stage, f, eta) => {
      // the estimate from the stage's own pace, once, when it has been timed long enough
      if (eta && !estimated && paceTimed(eta)) {
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
      process.stderr.write(
        `\r${
          `${label === 'audit' ? '' : `${label}: `}${stage.padEnd(13)} ` +
          `[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.round(100 * f)}%${left}`
        }\x1b[K`,
      );
      drawn = true;
    },
    onEstimate: (e) => {
      process.stderr.write(`${drawn ? '\r\x1b[K' : ''}lucid: ${label}: estimate: ${auditEstimateText(e)}\n`);
    },
    end: () => {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}
