// Torch tier: lucid's paper-mode LUCID-GAN epoch on the Adult test set
// against the same WGAN-GP epoch in PyTorch, measured in the same run, round by round.
//
// The PyTorch side is bench/torch/wgan_gp.py, one long-running child process per thread setting
// (its start-up and warm-up are not timed; each timed call is one "epoch" command over stdin). Its
// shapes are lucid's: the group builds lucid's paper-mode model on the bench table first and passes
// the transformer's output width and spans, the cond-vector layout, the raw conditions, the batch and
// the step count to the script. The script's data are random (cost does not depend on the values).
//
// Optional: without a python3 that imports torch the group prints why it was skipped and measures
// nothing; PyTorch on the reference (netlib) BLAS is skipped too, since its GEMM (~4 GFLOP/s here)
// would make any ratio meaningless. No test needs it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../src/engine/engine.js';
import { LucidGan } from '../src/models/lucidgan/model.js';
import { GanTrainer } from '../src/models/lucidgan/train.js';
import { ganBenchTable } from './gan.bench.js';
import type { Case, Group, Row } from './lib/runner.js';

/** The issue's targets for lucid's threaded epoch against PyTorch's best 2-core setting (lucid / PyTorch time). */
export const TORCH_TARGETS = { best: 0.5, median: 0.6 } as const;

export const TORCH_GROUP = 'gan epoch adult paper vs pytorch';

/** Why the group measured nothing in this process (null: it was not skipped, or did not run); BENCHMARKS.md says it. */
export let torchSkipped: string | null = null;

/** bench/torch/wgan_gp.py in the checkout (this file runs as dist/bench/torch.bench.js). */
const SCRIPT = fileURLToPath(new URL('../../bench/torch/wgan_gp.py', import.meta.url));

/** One PyTorch thread setting: intra-op threads (torch.set_num_threads) and OpenBLAS threads. */
export interface TorchSetting {
  intra: number;
  blas: number;
  mode: 'same-work' | 'reference';
}

export const settingLabel = (s: TorchSetting) =>
  `${s.intra} intra-op + ${s.blas} BLAS thread${s.blas > 1 ? 's' : ''}` +
  `${s.mode === 'reference' ? ' · reference training (more work)' : ''}`;
const cores = (s: TorchSetting) => Math.max(s.intra, s.blas);

/**
 * The settings tried: 1 thread, and on two cores each way of spending them (same work as lucid), plus the reference's
 * own training at 2 + 2.
 */
export function torchSettings(parallelism = os.availableParallelism()): TorchSetting[] {
  const out: TorchSetting[] = [{ intra: 1, blas: 1, mode: 'same-work' }];
  if (parallelism >= 2) {
    out.push(
      { intra: 2, blas: 2, mode: 'same-work' },
      { intra: 1, blas: 2, mode: 'same-work' },
      { intra: 2, blas: 1, mode: 'same-work' },
    );
    out.push({ intra: 2, blas: 2, mode: 'reference' });
  }
  return out;
}

/** Prints torch's version and the BLAS libraries mapped after one matmul. */
const PROBE =
  "import torch\ntorch.ones(2, 2) @ torch.ones(2, 2)\nprint(torch.__version__)\nprint(', " +
  "'.join(sorted({l.split()[-1] for l in open('/proc/self/maps') if 'blas' in l.lower() and '.so' in l})) or " +
  "'none mapped')";

/** A BLAS worth a ratio: OpenBLAS, MKL or BLIS (not the reference netlib BLAS). */
const fastBlas = (lib: string) => /openblas|mkl|blis/i.test(lib);

/** A python that imports torch: LUCID_PYTHON, else python3 on PATH, else /usr/bin/python3 (Debian's python3-torch). */
export function findTorch(): { python: string; version: string; blas: string } | { reason: string } {
  const tried: string[] = [];
  const candidates = process.env.LUCID_PYTHON ? [process.env.LUCID_PYTHON] : ['python3', '/usr/bin/python3'];
  for (const python of [...new Set(candidates)]) {
    const r = spawnSync(python, ['-c', PROBE], {
      encoding: 'utf8',
      timeout: 120_000,
      env: torchEnv({ intra: 1, blas: 1, mode: 'same-work' }, blasDir()),
    });
    if (r.status === 0) {
      const [version, blas] = r.stdout.trim().split('\n');
      return { python, version, blas: blas ?? 'unknown' };
    }
    const why = r.error ? r.error.message : (r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`);
    tried.push(`${python}: ${why}`);
  }
  return {
    reason: `no python imports torch (${tried.join('; ')}); install Debian's python3-torch or set LUCID_PYTHON`,
  };
}

/**
 * The folder whose libblas.so.3 the children load first (LD_LIBRARY_PATH): LUCID_TORCH_BLAS_DIR, else
 * Debian's OpenBLAS (libopenblas0-pthread) when installed; null: whatever the system's libblas.so.3 is.
 */
export function blasDir(): string | null {
  const dirs = [
    process.env.LUCID_TORCH_BLAS_DIR,
    '/usr/lib/x86_64-linux-gnu/openblas-pthread',
    '/usr/lib/aarch64-linux-gnu/openblas-pthread',
  ];
  for (const d of dirs) if (d && existsSync(join(d, 'libblas.so.3'))) return d;
  return null;
}

/** A child's environment: its thread counts, and the BLAS folder first on LD_LIBRARY_PATH. */
function torchEnv(setting: TorchSetting, blas: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OMP_NUM_THREADS: String(setting.intra),
    OPENBLAS_NUM_THREADS: String(setting.blas),
  };
  // GNU OpenMP's threads spin while waiting for work; on 2 cores that starves OpenBLAS's threads
  // (an epoch at 2 + 2 threads took 41 s instead of 2.2 s under load), so they sleep instead.
  env.OMP_WAIT_POLICY = 'PASSIVE';
  if (blas) env.LD_LIBRARY_PATH = [blas, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return env;
}

export interface TorchInfo {
  torch: string;
  threads: number;
  mode: string;
  blas: string;
  steps: number;
  generatorParams: number;
  criticParams: number;
}

/** One long-running wgan_gp.py: `epoch()` sends "epoch" and waits for its reply. */
class TorchChild {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  /** lines that came before anyone asked (the ready line of a child built while another was awaited) */
  private readonly lines: string[] = [];
  private stderr = '';
  private exited: string | null = null;

  constructor(
    python: string,
    shapes: object,
    readonly setting: TorchSetting,
    blas: string | null,
  ) {
    this.proc = spawn(
      python,
      [SCRIPT, '--shapes', JSON.stringify(shapes), '--threads', String(setting.intra), '--mode', setting.mode],
      { env: torchEnv(setting, blas), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.proc.stderr.on('data', (b: Buffer) => (this.stderr = (this.stderr + b.toString()).slice(-4000)));
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w(line);
      else this.lines.push(line);
    });
    this.proc.on('exit', (code, signal) => {
      this.exited =
        `exited (${signal ?? code})` +
        `${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
      for (const w of this.waiting.splice(0)) w('');
    });
  }

  private next(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const take = (line: string) => {
        if (!line)
          return reject(new Error(`wgan_gp.py (${settingLabel(this.setting)}) ${this.exited ?? 'closed its output'}`));
        try {
          resolve(JSON.parse(line) as Record<string, unknown>);
        } catch {
          reject(new Error(`wgan_gp.py (${settingLabel(this.setting)}): not JSON: ${line}`));
        }
      };
      const early = this.lines.shift();
      if (early !== undefined) return take(early);
      if (this.exited) return reject(new Error(`wgan_gp.py (${settingLabel(this.setting)}) ${this.exited}`));
      this.waiting.push(take);
    });
  }

  async ready(): Promise<TorchInfo> {
    return (await this.next()) as unknown as TorchInfo;
  }

  async epoch(): Promise<number> {
    const reply = this.next();
    this.proc.stdin.write('epoch\n');
    const r = await reply;
    if (typeof r.ms !== 'number') throw new Error(`wgan_gp.py (${settingLabel(this.setting)}): ${JSON.stringify(r)}`);
    return r.ms;
  }

  close(): void {
    if (this.exited) return;
    this.proc.stdin.end('quit\n');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    timer.unref();
    this.proc.on('exit', () => clearTimeout(timer));
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/**
 * The ratio rows (lucid / PyTorch epoch time, lower is better for lucid) of one group's samples, one
 * sample per case per round in round order: for each lucid case, against PyTorch at 1 thread and
 * against PyTorch's best 2-core setting (of the same-work ones; per statistic the fastest setting,
 * and per round the fastest setting of that round). Stats: best (min / min), median (median /
 * median) and round-median (the median over rounds of that round's ratio).
 */
export function ratioRows(cases: Case[], samples: number[][], bench: string): Row[] {
  const lucid = cases.map((c, i) => ({ c, s: samples[i] })).filter((x) => x.c.engine === 'lucid');
  const torch = cases
    .map((c, i) => ({ c, s: samples[i], setting: c.extra?.setting as TorchSetting | undefined }))
    .filter((x) => x.c.engine === 'pytorch' && x.setting?.mode === 'same-work');
  const one = torch.filter((t) => cores(t.setting!) === 1);
  const two = torch.filter((t) => cores(t.setting!) === 2);
  const rows: Row[] = [];
  for (const l of lucid) {
    for (const [what, pool] of [
      ['PyTorch 1 thread', one],
      ['PyTorch best 2-core setting', two],
    ] as const) {
      if (pool.length === 0 || l.s.length === 0) continue;
      const bestT = Math.min(...pool.map((t) => Math.min(...t.s)));
      const medT = Math.min(...pool.map((t) => median(t.s)));
      const bestSetting = pool.find((t) => median(t.s) === medT)!;
      const rounds = Math.min(l.s.length, ...pool.map((t) => t.s.length));
      const perRound = Array.from({ length: rounds }, (_, r) => l.s[r] / Math.min(...pool.map((t) => t.s[r])));
      const values = { best: Math.min(...l.s) / bestT, median: median(l.s) / medT, 'round-median': median(perRound) };
      for (const stat of ['best', 'median', 'round-median'] as const) {
        rows.push({
          tier: 'torch',
          bench: `${bench} · ratio`,
          engine: 'lucid',
          impl: `${l.c.impl.split(' · ')[0]} / ${what}`,
          stat,
          value: Number(values[stat].toPrecision(3)),
          unit: '×',
          threads: Number(l.c.extra?.threads ?? 1),
          variant: '',
          samples: rounds,
          against: what,
          againstSetting: settingLabel(bestSetting.setting!),
          perRound: perRound.map((x) => Number(x.toPrecision(3))),
          ...(what === 'PyTorch best 2-core setting' && Number(l.c.extra?.threads) > 1
            ? { target: stat === 'best' ? TORCH_TARGETS.best : TORCH_TARGETS.median }
            : {}),
        });
      }
    }
  }
  return rows;
}

/** `engineT`: the threaded engine (its epoch runs as a second lucid case). */
export function torchGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  return [
    {
      tier: 'torch',
      name: TORCH_GROUP,
      unit: 'ms',
      async: true,
      // one epoch per case per round: 7 rounds as the paper-mode gan group (an epoch varies by ±30 % on this VM)
      budget: { rounds: 7 },
      async prepare() {
        const py = findTorch();
        if ('reason' in py) {
          torchSkipped = py.reason;
          log(`  torch: skipped: ${py.reason}`);
          return { cases: [] };
        }
        const blas = blasDir();
        if (!fastBlas(py.blas)) {
          torchSkipped =
            `PyTorch's GEMM would run on ${py.blas}, the reference BLAS (~4 GFLOP/s here), not a baseline worth a ` +
            `ratio; install Debian's libopenblas0-pthread or set LUCID_TORCH_BLAS_DIR to a folder holding ` +
            `OpenBLAS's libblas.so.3`;
          log(`  torch: skipped: ${torchSkipped}`);
          return { cases: [] };
        }
        const owned: { model: LucidGan; trainer: GanTrainer }[] = [];
        const children: TorchChild[] = [];
        const dispose = () => {
          for (const c of children) c.close();
          for (const o of owned) {
            o.trainer.dispose();
            o.model.dispose();
          }
        };
        try {
          const engines = engineT ? [engine, engineT] : [engine];
          let source = '';
          let simulated = false;
          for (const e of engines) {
            const t = await ganBenchTable(e, log);
            source = t.source;
            simulated = t.simulated;
            const { model, x, rng } = LucidGan.setup(e, t.table, { conditions: ['preds'], seed: 0, paper: true });
            owned.push({ model, trainer: new GanTrainer(model, x, rng) });
          }
          const { model, trainer } = owned[0];
          const cfg = model.config;
          const sampler = model.sampler;
          const shapes = {
            rows: sampler.rows,
            steps: trainer.steps,
            batch: cfg.batch,
            embedding: cfg.embedding,
            generatorDims: cfg.generatorDims,
            discriminatorDims: cfg.discriminatorDims,
            pac: cfg.pac,
            lr: cfg.lr,
            betas: cfg.betas,
            weightDecay: cfg.weightDecay,
            penaltyLambda: cfg.penaltyLambda,
            tau: cfg.tau,
            dataDim: model.transformer.outputDim,
            condDim: sampler.condDim,
            rawConditions: model.conditionNames.length,
            spans: model.transformer.spans.map((s) => ({ kind: s.kind, width: s.width })),
            discrete: sampler.columns.map((c, j) => ({
              data: c.dataOffset,
              cond: sampler.condOffset[j],
              width: c.categories.length,
            })),
          };
          log(
            `  torch: ${py.python} (torch ${py.version}); shapes from lucid's paper-mode model on ${source}: data ` +
              `${shapes.dataDim}, cond ${shapes.condDim} + ${shapes.rawConditions} raw, ${shapes.rows} rows, ` +
              `${shapes.steps} steps of batch ${shapes.batch}`,
          );
          for (const s of torchSettings()) children.push(new TorchChild(py.python, shapes, s, blas));
          const infos: TorchInfo[] = [];
          for (const c of children) infos.push(await c.ready()); // the children build and warm up in parallel
          const lib = infos[0].blas;
          if (!fastBlas(lib)) {
            torchSkipped =
              `PyTorch's GEMM ran on ${lib} in a child though the probe found ${py.blas}; not a baseline worth a ` +
              `ratio`;
            log(`  torch: skipped: ${torchSkipped}`);
            dispose();
            return { cases: [] };
          }
          log(`  torch: BLAS ${lib}`);
          const dataNote = simulated ? `SIMULATED rows (not Adult) · ${source}` : source;
          const common = {
            source,
            simulated,
            shapes: {
              dataDim: shapes.dataDim,
              condDim: shapes.condDim,
              rawConditions: shapes.rawConditions,
              rows: shapes.rows,
              steps: shapes.steps,
              batch: shapes.batch,
            },
          };
          const cases: Case[] = owned.map((o, i) => {
            const threads = engines[i].threads;
            return {
              engine: 'lucid' as const,
              impl: `${threads} thread${threads > 1 ? 's' : ''} · paper mode · ${o.trainer.steps} steps · ${dataNote}`,
              extra: { ...common, threads },
              fn: () => {
                for (let k = 0; k < o.trainer.steps; k++) o.trainer.step();
              },
            };
          });
          children.forEach((c, i) =>
            cases.push({
              engine: 'pytorch' as const,
              impl: `torch ${infos[i].torch} · ${settingLabel(c.setting)}`,
              extra: {
                ...common,
                threads: cores(c.setting),
                setting: c.setting,
                blas: infos[i].blas,
                data: "random rows at lucid's shapes (cost does not depend on the values)",
              },
              fn: async () => void (await c.epoch()),
            }),
          );
          return { cases, dispose, derive: (samples: number[][]) => ratioRows(cases, samples, TORCH_GROUP) };
        } catch (e) {
          dispose();
          throw e;
        }
      },
    },
  ];
}
