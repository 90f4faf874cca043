// One default audit in a process of its own, for bench/audit.bench.ts (so its peak RSS is the
// audit's, not the bench process's):
//
//   node dist/bench/audit-child.js <adult|compas|sim1000x20> --model FILE [--threads N] [--gan-epochs N]
//
// Reads the data set (bench/lib/audit-setup.ts), loads the built-in classifier the parent trained and
// saved, runs `runAudit` with the data set's options and nothing else (every other option is
// AUDIT_DEFAULTS at run time), renders the HTML report in memory (src/report renderReport, as
// writeAudit does, without writing files), and prints one JSON line on stdout:
//   wallMs (runAudit alone), timings (the result's meta.timings), gan (per seed: setup = the
//   transformer fit and transform, sampler and model, timed by wrapping LucidGan.setup; train = the
//   rest of that seed's fit; only the seeds trained on the audit's engine: those trained side by side
//   in workers are counted in gan.sideBySide), reportMs, rssBeforeMiB (before the audit), peakRssMiB (maxRSS at the
//     end).
// --gan-epochs is for smoke runs only: the audit is then not the default one (the parent marks it).
import { initNodeEngine } from '../src/node/engine.js';
import { runAudit } from '../src/audit/run.js';
import { withGanWorkers } from '../src/node/gan-workers.js';
import { LucidGan } from '../src/models/lucidgan/model.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { loadModel } from '../src/node/model-file.js';
import { renderReport } from '../src/report/index.js';
import { AUDIT_DATASETS, auditSetup, type AuditDataset } from './lib/audit-setup.js';

export interface AuditChildResult {
  dataset: AuditDataset;
  rows: number;
  columns: number;
  threads: number;
  wallMs: number;
  timings: Record<string, number>;
  /**
   * the GAN stage per seed: setup (LucidGan.setup: transformer fit + transform, sampler, model) and the training after
   * it
   */
  /**
   * sideBySide: the seeds trained in workers (gan-workers.ts), which setupMs and trainMs do not split (they cover the
   * seeds trained on the audit's engine)
   */
  gan: {
    setupMs: number[];
    trainMs: number[];
    epochs: number;
    seeds: number;
    epochsDone: number[];
    sideBySide?: number;
  };
  reportMs: number;
  reportBytes: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
  ganEpochsOverride: number | null;
}

const MiB = 2 ** 20;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const name = argv[0] as AuditDataset;
  if (!AUDIT_DATASETS.includes(name))
    throw new Error(`audit-child: first argument one of ${AUDIT_DATASETS.join(', ')}, got ${argv[0]}`);
  const opt = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const modelFile = opt('--model');
  if (!modelFile) throw new Error('audit-child: --model FILE is required');
  const threads = Number(opt('--threads') ?? 1);
  const ganEpochs = opt('--gan-epochs') !== undefined ? Number(opt('--gan-epochs')) : null;

  const engine = await initNodeEngine({ threads });
  try {
    const setup = await auditSetup(engine, name);
    const clf = await loadModel(engine, modelFile);
    const model = builtinBlackBox(engine, clf, setup.modelText);

    // The GAN stage's split: LucidGan.fit calls LucidGan.setup (the transformer fit, the transformed
    // data, the sampler, the untrained model) and then trains. Wrapping setup times it without
    // changing what it does; the training of a seed is from its setup's end to the next seed's setup
    // (the last: to the 'canonical' progress call, which comes right after the GAN stage's lap).
    const marks: { start: number; end: number }[] = [];
    const original = LucidGan.setup;
    LucidGan.setup = (...args: Parameters<typeof LucidGan.setup>) => {
      const start = performance.now();
      try {
        return original.apply(LucidGan, args);
      } finally {
        marks.push({ start, end: performance.now() });
      }
    };
    let ganEnd = NaN;
    const onProgress = (stage: string) => {
      if (stage === 'canonical' && Number.isNaN(ganEnd)) ganEnd = performance.now();
    };

    const rssBeforeMiB = process.memoryUsage.rss() / MiB;
    const t0 = performance.now();
    // as lucid audit runs it: GAN seeds side by side when that is the default and there are threads for it
    const result = await withGanWorkers(engine, undefined, (ganWorkers) =>
      runAudit(engine, setup.table, {
        ...setup.options,
        model,
        onProgress,
        ...(ganWorkers ? { ganWorkers } : {}),
        ...(ganEpochs !== null ? { ganEpochs } : {}),
      }),
    );
    const wallMs = performance.now() - t0;
    LucidGan.setup = original;
    const t1 = performance.now();
    const html = renderReport(result);
    const reportMs = performance.now() - t1;

    const setupMs = marks.map((m) => m.end - m.start);
    const trainMs = marks.map((m, k) => (k + 1 < marks.length ? marks[k + 1].start : ganEnd) - m.end);
    const out: AuditChildResult = {
      dataset: name,
      rows: setup.table.rows,
      columns: setup.table.columns.length,
      threads: engine.threads,
      wallMs,
      timings: result.meta.timings,
      gan: {
        setupMs,
        trainMs,
        epochs: result.meta.gan.epochs,
        seeds: result.meta.gan.seeds.length,
        epochsDone: result.meta.gan.epochsDone,
        sideBySide: result.meta.gan.seeds.length - marks.length,
      },
      reportMs,
      reportBytes: html.length,
      rssBeforeMiB,
      peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB,
      ganEpochsOverride: ganEpochs,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    clf.dispose();
  } finally {
    engine.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`audit-child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
