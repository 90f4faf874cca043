// Audit tier: the whole default `lucid audit` (`runAudit` with nothing but the data set's label,
// positive class, protected columns and edges, and seed 0: every other option is AUDIT_DEFAULTS at
// run time, so the group follows later changes of the defaults), end to end, on three data sets
// (bench/lib/audit-setup.ts): the Adult test split (the README walkthrough), the COMPAS test split
// (as experiments/canonical-checks.mjs) and a simulated set of 1000 rows × 20 columns. The
// targets: ≤ 15 s, ≤ 5 s and ≤ 8 s on 2 threads, and a peak RSS of the Adult audit ≤ 300 MB.
//
// Each audit runs in a child process of its own (bench/audit-child.ts, at the threaded engine's
// thread count), so its peak RSS is its own; the sample is the child's time of runAudit alone (not
// the process start, the data load or the model load). The child also reports the stage split
// (meta.timings; the GAN stage's transformer setup and training per seed) and the report rendering.
// The classifier is trained here, saved to a temporary model file and loaded by the child, as
// `lucid audit --model` would. One round per data set (one Adult audit is minutes; --rounds
// overrides), no warm-up. Without a data set's files its group is skipped and says why.
//
// LUCID_BENCH_AUDIT_GAN_EPOCHS=N: smoke runs only; every audit trains N GAN epochs, and the rows
// (and BENCHMARKS.md) say it is not the default audit.
// LUCID_BENCH_AUDIT_BEFORE=1: also the earlier defaults (AUDIT_PRESETS: before #15, before #35) against
// today's default, in this process, interleaved, 2 rounds; and on 2 or more threads, today's default with
// its GAN seeds one after another against side by side (EXPERIMENTS.md §12.8).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../src/engine/engine.js';
import { runAudit, type AuditOptions } from '../src/audit/run.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { saveModel } from '../src/node/model-file.js';
import type { Group, Prepared } from './lib/runner.js';
import { GROUND_TRUTH_SAMPLING } from '../src/audit/flags.js';
import {
  AUDIT_DATASETS,
  AUDIT_DATASET_TEXT,
  auditDatasetMissing,
  auditSetup,
  type AuditDataset,
  type AuditSetup,
} from './lib/audit-setup.js';
import type { AuditChildResult } from './audit-child.js';
import type { AuditResult } from '../src/audit/types.js';
import { DirGanStore } from '../src/node/gan-cache.js';
import { withGanWorkers } from '../src/node/gan-workers.js';

/**
 * The audit before it drew from several GANs with rejection, as options of today's code (the ground truth's sampling,
 * flags.ts).
 */
export const AUDIT_BEFORE: Partial<AuditOptions> = { ...GROUND_TRUTH_SAMPLING };

/** The default audit of b27342d (the classifier correction's), pinned as options of today's code. */
export const AFTER_35: Partial<AuditOptions> = {
  ganCondition: 'matched',
  ganPointShare: 0.05,
  ganCorrect: 'linear',
  ganSchedule: 'paper',
  ganMode: 'paper',
  ganSeeds: 3,
};

/** The bench name of a data set's end-to-end audit (bench/lib/report.ts reads these rows). */
export const auditBenchName = (name: AuditDataset) => `audit default ${name}`;

const CHILD = fileURLToPath(new URL('./audit-child.js', import.meta.url));

/** The GAN-epoch override of smoke runs (LUCID_BENCH_AUDIT_GAN_EPOCHS), or null: the default audit. */
function smokeEpochs(): number | null {
  const v = process.env.LUCID_BENCH_AUDIT_GAN_EPOCHS;
  if (v === undefined || v === '') return null;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`LUCID_BENCH_AUDIT_GAN_EPOCHS: expected a positive integer, got ${v}`);
  return n;
}

/** Runs one audit in a child process; its JSON line. */
function runChild(
  name: AuditDataset,
  modelFile: string,
  threads: number,
  ganEpochs: number | null,
): Promise<AuditChildResult> {
  const args = [CHILD, name, '--model', modelFile, '--threads', String(threads)];
  if (ganEpochs !== null) args.push('--gan-epochs', String(ganEpochs));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`audit-child ${name} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as AuditChildResult);
      } catch (e) {
        reject(new Error(`audit-child ${name}: no JSON result (${String(e)}): ${out.slice(0, 200)}`));
      }
    });
  });
}

function endToEnd(name: AuditDataset, engine: Engine, log: (m: string) => void, threads: number): Group {
  return {
    tier: 'audit',
    name: auditBenchName(name),
    unit: 'ms',
    async: true,
    warmup: false,
    budget: { rounds: 1 },
    async prepare() {
      const missing = auditDatasetMissing(name);
      if (missing) {
        log(`  ${auditBenchName(name)}: skipped: ${missing}`);
        return { cases: [] };
      }
      const ganEpochs = smokeEpochs();
      if (ganEpochs !== null)
        log(
          `  ${auditBenchName(name)}: SMOKE RUN, ${ganEpochs} GAN epochs (LUCID_BENCH_AUDIT_GAN_EPOCHS): not the ` +
            `default audit`,
        );
      const setup = await auditSetup(engine, name);
      const clf = setup.train(engine);
      const dir = mkdtempSync(join(os.tmpdir(), 'lucid-bench-audit-'));
      const modelFile = join(dir, `${name}.json`);
      await saveModel(modelFile, clf);
      clf.dispose();
      // filled in by each round: the report reads the stage split and the RSS from the rows
      const rounds: AuditChildResult[] = [];
      const extra: Record<string, unknown> = {
        threads,
        dataset: name,
        what: AUDIT_DATASET_TEXT[name],
        rows: setup.table.rows,
        columns: setup.table.columns.length,
        ganEpochsOverride: ganEpochs,
        rounds,
      };
      return {
        cases: [
          {
            engine: 'lucid' as const,
            impl:
              ganEpochs === null
                ? `default audit · ${threads} threads`
                : `SMOKE: ${ganEpochs} GAN epochs · ${threads} threads`,
            extra,
            fn: async () => {
              const r = await runChild(name, modelFile, threads, ganEpochs);
              rounds.push(r);
              const t = r.timings;
              log(
                `  ${name}: audit ${(r.wallMs / 1000).toFixed(1)} s (gan ${((t.gan ?? 0) / 1000).toFixed(1)} s: ` +
                  `setup ${r.gan.setupMs.map((x) => x.toFixed(0)).join('/')} ms, train ` +
                  `${r.gan.trainMs.map((x) => (x / 1000).toFixed(1)).join('/')} s, ${r.gan.seeds} × ` +
                  `${r.gan.epochs} epochs${r.gan.sideBySide ? `, ${r.gan.sideBySide} of them side by side` : ''})` +
                  `, report ${r.reportMs.toFixed(0)} ms, peak RSS ${r.peakRssMiB.toFixed(0)} MiB`,
              );
              return r.wallMs;
            },
          },
        ],
        dispose: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

/**
 * Earlier defaults kept runnable (options of today's code), each timed against today's default in this
 * process, interleaved, 2 rounds (opt-in: LUCID_BENCH_AUDIT_BEFORE=1), with the fidelity of each run's
 * sets (their mean KS/TV against the real rows on each side, and the features within tolerance: the
 * audit's own checks):
 * - before #15 (EXPERIMENTS.md §7): 1 GAN, no rejection (the ground truth's sampling, flags.ts), on Adult;
 * - before #35 (EXPERIMENTS.md §11): the generator of d285cb0's default audit (observed condition, no
 *   point masses, no correction), on Adult, COMPAS and the simulated set; the ratios' baseline;
 * - after #35: the default after issue #35 (matched condition, point masses, the linear correction,
 *   the published schedule), pinned, so it stays runnable when the default moves.
 * With them, `re-audit`: today's default with its generators reused from a cache (filled before the
 * rounds, untimed): a re-audit should cost little more than its metrics.
 */
export const AUDIT_PRESETS = {
  'before #15': { options: AUDIT_BEFORE, text: '1 GAN, no rejection', datasets: ['adult'] as AuditDataset[] },
  'before #35': {
    options: {
      ganCondition: 'observed',
      ganPointShare: 0,
      ganCorrect: 'none',
      ganSchedule: 'paper',
      ganMode: 'paper',
      ganSeeds: 3,
    } as Partial<AuditOptions>,
    text: "d285cb0's default audit",
    datasets: [...AUDIT_DATASETS],
  },
  'after #35': { options: AFTER_35, text: 'the default after #35 (b27342d)', datasets: [...AUDIT_DATASETS] },
};

/**
 * The fidelity of an audit's main sets by its own checks: mean KS/TV over features and sides, and the features within
 * tolerance.
 */
export function setsFidelity(r: AuditResult): { meanKsTv: number; faithful: number; features: number } {
  const d = r.checks.fidelity
    .flatMap((f) => [f.positive?.distance, f.negative?.distance])
    .filter((x): x is number => x !== undefined && Number.isFinite(x));
  return {
    meanKsTv: d.reduce((a, b) => a + b, 0) / Math.max(1, d.length),
    faithful: r.checks.fidelity.filter((f) => f.faithful).length,
    features: r.checks.fidelity.length,
  };
}

/**
 * An in-process group of audits of one data set (2 rounds, interleaved, no warm-up): skipped with a
 * message without its files; otherwise the data set and the built-in classifier trained on it, handed
 * to `cases` (the classifier is freed after the rounds, with what `cases` frees).
 */
function inProcessGroup(
  engine: Engine,
  log: (m: string) => void,
  e: Engine,
  name: AuditDataset,
  title: string,
  cases: (setup: AuditSetup, base: AuditOptions) => Promise<Prepared> | Prepared,
): Group {
  return {
    tier: 'audit',
    name: `audit ${name} ${title}`,
    unit: 'ms',
    async: true,
    warmup: false,
    budget: { rounds: 2 },
    async prepare() {
      const missing = auditDatasetMissing(name);
      if (missing) {
        log(`  audit ${name} ${title}: skipped: ${missing}`);
        return { cases: [] };
      }
      const setup = await auditSetup(engine, name);
      const clf = setup.train(e);
      const prepared = await cases(setup, { ...setup.options, model: builtinBlackBox(e, clf, setup.modelText) });
      return {
        ...prepared,
        dispose: () => {
          prepared.dispose?.();
          clf.dispose();
        },
      };
    },
  };
}

function presetVsDefault(engine: Engine, log: (m: string) => void, e: Engine, name: AuditDataset): Group {
  const presets = (Object.keys(AUDIT_PRESETS) as (keyof typeof AUDIT_PRESETS)[]).filter((p) =>
    AUDIT_PRESETS[p].datasets.includes(name),
  );
  return inProcessGroup(engine, log, e, name, 'presets vs default', async (setup, base) => {
    const threads = e.threads;
    const dir = mkdtempSync(join(os.tmpdir(), 'lucid-bench-reaudit-'));
    const cache = new DirGanStore(dir);
    // the re-audit's cache, filled before the rounds (untimed)
    await runAudit(e, setup.table, { ...base, ganCache: cache });
    // today's default as lucid audit runs it (GAN seeds side by side when that is the default); the
    // earlier defaults as they ran then (one after another)
    const timed = (label: string, options: Partial<AuditOptions>, today = false) => {
      const fidelity: ReturnType<typeof setsFidelity>[] = [];
      return {
        extra: { threads, fidelity },
        fn: async () => {
          const r = await withGanWorkers(e, today ? undefined : false, (ganWorkers) =>
            runAudit(e, setup.table, { ...base, ...options, ...(ganWorkers ? { ganWorkers } : {}) }),
          );
          const f = setsFidelity(r);
          fidelity.push(f);
          log(
            `  audit ${name} ${label}: ${(r.meta.timings.total / 1000).toFixed(1)} s, sets' mean KS/TV ` +
              `${f.meanKsTv.toFixed(3)}, ${f.faithful}/${f.features} features faithful`,
          );
        },
      };
    };
    return {
      cases: [
        ...presets.map((p) => ({
          engine: 'lucid' as const,
          impl: `${p}: ${AUDIT_PRESETS[p].text} · ${threads} threads`,
          baseline: p === 'before #35',
          ...timed(p, AUDIT_PRESETS[p].options),
        })),
        { engine: 'lucid' as const, impl: `default: ${threads} threads`, ...timed('default', {}, true) },
        {
          engine: 'lucid' as const,
          impl: `re-audit: the default, generators reused · ${threads} threads`,
          ...timed('re-audit', { ganCache: cache }, true),
        },
      ],
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    };
  });
}

/**
 * EXPERIMENTS.md §12.8: today's default audit with its GAN seeds one after another (the baseline) and
 * side by side (a fresh pool of workers per audit, as the CLI starts one), in this process,
 * interleaved, 2 rounds (opt-in: LUCID_BENCH_AUDIT_BEFORE=1). Each run's sets' fidelity is logged: the
 * two must agree exactly (the generators are byte-identical).
 */
function sideBySideVsNot(engine: Engine, log: (m: string) => void, e: Engine, name: AuditDataset): Group {
  return inProcessGroup(engine, log, e, name, 'GAN seeds side by side', (setup, base) => {
    const threads = e.threads;
    const timed = (label: string, sideBySide: boolean) => async () => {
      // a fresh pool per audit, as the CLI starts one
      const r = await withGanWorkers(e, sideBySide, (ganWorkers) =>
        runAudit(e, setup.table, { ...base, ...(ganWorkers ? { ganWorkers } : {}) }),
      );
      const f = setsFidelity(r);
      log(
        `  audit ${name} ${label}: ${(r.meta.timings.total / 1000).toFixed(1)} s (GAN stage ` +
          `${(r.meta.timings.gan / 1000).toFixed(1)} s), sets' mean KS/TV ${f.meanKsTv.toFixed(6)}, ` +
          `${f.faithful}/${f.features} features faithful`,
      );
    };
    return {
      cases: [
        {
          engine: 'lucid' as const,
          impl: `default, GAN seeds one after another · ${threads} threads`,
          baseline: true,
          extra: { threads },
          fn: timed('one after another', false),
        },
        {
          engine: 'lucid' as const,
          impl: `default, GAN seeds side by side · ${threads} threads`,
          extra: { threads },
          fn: timed('side by side', true),
        },
      ],
    };
  });
}

export function auditGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  const e = engineT ?? engine;
  const groups = AUDIT_DATASETS.map((name) => endToEnd(name, engine, log, e.threads));
  if (process.env.LUCID_BENCH_AUDIT_BEFORE === '1') {
    for (const name of AUDIT_DATASETS) groups.push(presetVsDefault(engine, log, e, name));
    if (e.threads >= 2) for (const name of AUDIT_DATASETS) groups.push(sideBySideVsNot(engine, log, e, name));
  }
  return groups;
}
