// npm run bench [-- filter... ] [--json] [--rounds N] [--time MS]
//
// Tiers: kernels (GEMM GFLOP/s vs tfjs-wasm and plain JS), ops (layer forward+backward, ms),
// e2e (one WGAN-GP iteration, ms), models (LUCID 1000×200 and classifier training, ms), gan (LUCID-GAN epoch on Adult's
// test set and sampling 1000 rows, ms), data (VGM and transformer fits on Adult, ms; CSV read, MB/s), fale (FALE on
// every Adult test feature through the MLP, ms), audit (the whole default audit, each in a child process, on Adult's
// and COMPAS' test splits and a simulated 1000 × 20 set, with the stage split and the peak RSS, ms; with
// LUCID_BENCH_PAGE=1 also the browser page's default audit of its sample data in chromium, bench/page.bench.ts), torch
// (the paper-mode LUCID-GAN epoch against the same epoch in PyTorch, interleaved; optional: skipped without a python3
// that imports torch). A filter keeps the benches whose tier or name contains it (case-insensitive; several filters are
// OR-ed). --json prints one JSON object per line per measurement on stdout (everything else goes to stderr). See
// bench/README.md.
import os from 'node:os';
import { initNodeEngine } from '../src/node/engine.js';
import { e2eGroups } from './e2e.bench.js';
import { kernelGroups } from './kernels.bench.js';
import { loadTfjs, tfjsInfo } from './lib/fixtures.js';
import { type Group, measureGroup, printTable, type Row, type Tier } from './lib/runner.js';
import { type Budget, E2E_REFERENCE_MS } from './lib/sizes.js';
import { opsGroups } from './ops.bench.js';
import { dataGroups } from './data.bench.js';
import { ganGroups } from './gan.bench.js';
import { faleGroups } from './fale.bench.js';
import { modelGroups } from './models.bench.js';
import { auditGroups } from './audit.bench.js';
import { pageGroups } from './page.bench.js';
import { torchGroups } from './torch.bench.js';
import { threadGroups } from './threads.bench.js';
import { renderReport, SUMMARY_FILTERS } from './lib/report.js';
import { profileEpoch } from './lib/profile.js';
import { writeFileSync } from 'node:fs';

interface Args {
  filters: string[];
  json: boolean;
  budget: Partial<Budget>;
  /** Threads of the threaded engine (default: all cores); 1: no threaded cases. */
  threads: number;
  /** Write BENCHMARKS.md (or this file) from the run; without filters, runs the summary set. */
  write: string | null;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { filters: [], json: false, budget: {}, threads: os.availableParallelism(), write: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = (name: string) => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      const x = Number(v);
      if (!Number.isFinite(x) || x <= 0) throw new Error(`${name}: expected a positive number, got ${v}`);
      return x;
    };
    if (a === '--json') out.json = true;
    else if (a === '--write') out.write = 'BENCHMARKS.md';
    else if (a.startsWith('--write=')) out.write = a.slice('--write='.length);
    else if (a === '--rounds' || a.startsWith('--rounds=')) out.budget.rounds = Math.round(num('--rounds'));
    else if (a === '--time' || a.startsWith('--time=')) out.budget.roundTimeMs = num('--time');
    else if (a === '--threads' || a.startsWith('--threads=')) out.threads = Math.round(num('--threads'));
    else if (a === '--help' || a === '-h') {
      process.stderr.write(
        'usage: npm run bench -- [filter...] [--json] [--rounds N] [--time MS_PER_ROUND] [--threads N] ' +
          '[--write[=FILE]]\n',
      );
      process.exit(0);
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else out.filters.push(a.toLowerCase());
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadBefore = os.loadavg();
  if (args.write && args.filters.length === 0) args.filters.push(...SUMMARY_FILTERS);
  const log = (msg: string) => process.stderr.write(msg + '\n');
  // The single-threaded engine runs every bench; a threaded one (--threads, default all cores)
  // runs beside it in the GEMM groups and the GAN epoch, interleaved.
  const engine = await initNodeEngine({ threads: 1 });
  const engineT = args.threads > 1 ? await initNodeEngine({ threads: args.threads }) : undefined;

  const all: Group[] = [
    ...kernelGroups(engine, engineT),
    ...threadGroups(engine, engineT),
    ...opsGroups(engine),
    ...e2eGroups(engine),
    ...(await dataGroups(engine, log)),
    ...ganGroups(engine, log, engineT),
    ...faleGroups(engine, log, engineT),
    ...modelGroups(engine, log, engineT),
    ...auditGroups(engine, log, engineT),
    ...pageGroups(engine, log),
    ...torchGroups(engine, log, engineT),
  ];
  const selected =
    args.filters.length === 0
      ? all
      : all.filter((g) => args.filters.some((f) => g.tier.includes(f) || g.name.toLowerCase().includes(f)));
  if (selected.length === 0) {
    log(
      `no bench matches ${args.filters.join(', ')}; names are:\n  ` +
        `${all.map((g) => `${g.tier}: ${g.name}`).join('\n  ')}`,
    );
    process.exitCode = 1;
    return;
  }

  const cpu = os.cpus();
  const header = [
    `# lucid-wasm bench · kernel variant: ` +
      `${engine.variant}${engine.variant === 'relaxed' ? ' (LUCID_SIMD=plain for plain SIMD128)' : ''}`,
    `# node ${process.version} · ${cpu[0]?.model ?? 'cpu?'} × ${cpu.length} · load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} · 1 thread${engineT ? ` and ${engineT.threads} threads (GEMM, GAN epoch)` : ''}`,
  ];
  if (selected.some((g) => g.tier === 'kernels'))
    header.push(`# baselines: ${tfjsInfo(await loadTfjs())}; plain-JS loops over Float32Array`);
  // Header on stdout for the table, on stderr with --json (stdout stays one JSON object per line).
  for (const h of header) (args.json ? log : console.log)(h);

  const rows: Row[] = [];
  const t0 = performance.now();
  let current: Tier | null = null;
  const printTier = (tier: Tier) => {
    if (args.json) return;
    console.log(`\n## ${tier}`);
    printTable(rows.filter((r) => r.tier === tier));
    if (tier === 'e2e') {
      const ref = E2E_REFERENCE_MS;
      console.log(
        `reference (quoted from shared/spec/wasm-kernels.md §6, not measured here): PyTorch 1.13 CPU 1 thread ` +
          `${ref['pytorch-1.13-cpu-1t']} ms; patched tfjs-wasm ${ref['tfjs-wasm-patched']} ms; target ≤ ` +
          `${ref.target} ms`,
      );
    }
  };
  for (const g of selected) {
    if (current && g.tier !== current) printTier(current);
    current = g.tier;
    const t = performance.now();
    const out = await measureGroup(g, { variant: engine.variant, budget: args.budget, log });
    rows.push(...out);
    log(`  ${g.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    if (args.json) for (const r of out) process.stdout.write(JSON.stringify(r) + '\n');
  }
  if (current) printTier(current);
  const threads = engineT?.threads ?? 1;
  engineT?.close();
  const seconds = (performance.now() - t0) / 1000;
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  log(`# done in ${seconds.toFixed(1)} s · peak RSS ${(peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
  if (args.write) {
    // the profile runs after the measurements, on its own engine, so it cannot disturb them
    const profile = selected.some((g) => g.tier === 'gan') ? await profileEpoch(log) : null;
    const command = `node dist/bench/run.js ${process.argv.slice(2).join(' ')}`.trim();
    writeFileSync(
      args.write,
      renderReport(rows, {
        variant: engine.variant,
        threads,
        loadBefore,
        loadAfter: os.loadavg(),
        peakRssBytes,
        seconds,
        command,
        profile,
      }),
    );
    log(`# wrote ${args.write}`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
