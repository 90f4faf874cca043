// The audit as `lucid audit` and `lucid check --model` run it: a progress line on stderr (unless
// quiet), Ctrl-C ending LUCID-GAN training early (the audit finishes with the model so far), the
// command line recorded in the report, and every warning of the reader and of the audit on stderr.
import type { Engine } from '../engine/engine.js';
import type { AuditResult } from '../audit/types.js';
import { auditFile, type AuditFileOptions } from '../node/audit.js';
import type { ReadReport } from '../node/csv.js';
import { withInterrupt } from './interrupt.js';
import { progressLine } from './progress.js';

export async function auditWithProgress(
  engine: Engine,
  opts: Omit<AuditFileOptions, 'onProgress' | 'shouldStop' | 'provenance'>,
  ui: { label?: string; quiet?: boolean },
): Promise<{ result: AuditResult; read: ReadReport }> {
  const bar = ui.quiet ? null : progressLine(ui.label);
  let out;
  try {
    out = await withInterrupt('ending LUCID-GAN training early and finishing the audit with it', (shouldStop) => auditFile(engine, {
      ...opts,
      onProgress: bar?.onProgress,
      shouldStop,
      // the command line as given, after `lucid` (the report shows it shell-quoted)
      provenance: { command: { via: 'cli', argv: process.argv.slice(2) } },
    }), () => bar?.end());
  } finally {
    bar?.end();
  }
  for (const w of [...out.read.warnings, ...out.result.warnings]) process.stderr.write(`lucid: warning: ${w}\n`);
  return out;
}
