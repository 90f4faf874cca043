// The audit as `lucid audit` and `lucid check --model` run it: a progress line on stderr (unless
// quiet), Ctrl-C or SIGTERM ending LUCID-GAN training early (the audit finishes with the model so far),
// the command line recorded in the report, and every warning of the reader and of the audit on stderr.
// An audit that was asked to stop is marked (meta.interrupted, the report's first line), its outputs
// are written by `finish`, and then the command exits 130: an interrupted audit is never a pass.
import type { Engine } from '../engine/engine.js';
import { isOutputAudit, type AnyAuditResult, type AuditResult } from '../audit/types.js';
import { interruption } from '../audit/stages/result.js';
import { outputInterruption } from '../audit/stages/output.js';
import { auditAnyFile, auditFile, type AuditFileOptions } from '../node/audit.js';
import type { ReadReport } from '../node/csv.js';
import { Interrupted, interruptScope } from './interrupt.js';
import { progressLine } from './progress.js';
import { wrapText } from '../report/format.js';

type ProgressOptions = Omit<AuditFileOptions, 'onProgress' | 'onEstimate' | 'shouldStop' | 'provenance'>;

/** The audit of a binary decision with progress (`lucid check --model`). */
export function auditWithProgress<R>(
  engine: Engine,
  opts: ProgressOptions,
  ui: { label?: string; quiet?: boolean },
  finish: (out: { result: AuditResult; read: ReadReport }) => Promise<R>,
): Promise<R> {
  return withProgress(engine, opts, ui, auditFile, finish);
}

/** The audit of an output of any kind with progress (`lucid audit`). */
export function auditAnyWithProgress<R>(
  engine: Engine,
  opts: ProgressOptions,
  ui: { label?: string; quiet?: boolean },
  finish: (out: { result: AnyAuditResult; read: ReadReport }) => Promise<R>,
): Promise<R> {
  return withProgress(engine, opts, ui, auditAnyFile, finish);
}

async function withProgress<R, T extends AnyAuditResult>(
  engine: Engine,
  opts: ProgressOptions,
  ui: { label?: string; quiet?: boolean },
  file: (engine: Engine, opts: AuditFileOptions) => Promise<{ result: T; read: ReadReport }>,
  finish: (out: { result: T; read: ReadReport }) => Promise<R>,
): Promise<R> {
  const bar = ui.quiet ? null : progressLine(ui.label);
  const scope = interruptScope(
    'ending LUCID-GAN training early and finishing the audit with it; its report will be marked interrupted',
    () => bar?.end(),
  );
  try {
    const out = await file(engine, {
      ...opts,
      onProgress: bar?.onProgress,
      onEstimate: bar?.onEstimate,
      shouldStop: scope.shouldStop,
      // the command line as given, after `lucid` (the report shows it shell-quoted)
      provenance: { command: { via: 'cli', argv: process.argv.slice(2) } },
    });
    bar?.end();
    for (const w of [...out.read.warnings, ...out.result.warnings])
      process.stderr.write(wrapText(`lucid: warning: ${w}\n`));
    const sig = scope.signal();
    const result: AnyAuditResult = out.result;
    const meta = result.meta;
    // the signal that stopped it (the core knows only that it was asked to stop); one that came after
    // the audit's last step still marks it (an output audit's: its canonical sets' GANs, when it drew sets)
    if (sig)
      meta.interrupted = {
        ...(meta.interrupted ??
          (isOutputAudit(result)
            ? outputInterruption(result.sides ?? { skipped: '' }, 'done')!
            : interruption(
                'done',
                result.meta.gan.epochsDone,
                result.meta.gan.seeds.length,
                result.meta.gan.epochs,
                false,
              )!)),
        signal: sig,
      };
    const value = await finish(out);
    const late = scope.signal();
    if (late)
      throw new Interrupted(
        meta.interrupted
          ? `${meta.interrupted.text} Its outputs are written and marked interrupted.`
          : 'asked to stop while the outputs were written; they are complete, but the run did not finish on its own.',
        late,
      );
    return value;
  } finally {
    bar?.end();
    scope.end();
  }
}
