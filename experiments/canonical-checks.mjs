#!/usr/bin/env node
// EXPERIMENTS.md §7: do the canonical sets agree with the data? The protocol is declared
// in EXPERIMENTS.md §7 before any run. Three steps:
//
//   node experiments/canonical-checks.mjs prepare            # data files and the audited models (once)
//   node experiments/canonical-checks.mjs run --tree DIR --label before|after [--datasets …] [--seeds …]
//   node experiments/canonical-checks.mjs analyse --label before|after
//
// `run` calls `DIR/bin/lucid.js audit` (DIR: a checkout of the code to measure, built), so the code
// before the change and after it are run by the same command on the same files. `analyse` recomputes
// every figure from the written canonical sets and the real rows with the library's checks
// (src/audit/checks.ts): fidelity against the real rows on each side, the real conditional shifts with
// bootstrap intervals, the direction of every shift, and which shifts the report stated as preferences.
import { parseArgs } from 'node:util';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const HERE = resolve(new URL('.', import.meta.url).pathname, '..');
const { positionals, values: parsed } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string', default: 'out/experiments/canonical' },
    tree: { type: 'string', default: HERE },
    label: { type: 'string', default: 'after' },
    datasets: { type: 'string', default: 'adult,compas,sim,adult1000' },
    seeds: { type: 'string', default: '0,1,2,3,4' },
    threads: { type: 'string', default: '2' },
    extra: { type: 'string', default: '' },
    all: { type: 'boolean', default: false },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & {
 *   out: string, tree: string, label: string, datasets: string, seeds: string, threads: string, extra: string
 * }} */ (parsed);
const OUT = resolve(values.out);
const DATA = join(OUT, 'data');
const lucid = (tree, args, opts = {}) => {
  const r = spawnSync(process.execPath, [join(tree, 'bin/lucid.js'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    ...opts,
  });
  if (r.status !== 0) throw new Error(`lucid ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
};

import { SETTINGS, wagesCsv } from './canonical-settings.mjs';

function prepare() {
  mkdirSync(DATA, { recursive: true });
  const d = (f) => join(DATA, f);
  // §10.4's wages data (added later: prepared on its own when the rest is there)
  writeFileSync(d('wages-train.csv'), wagesCsv(1));
  writeFileSync(d('wages-audit.csv'), wagesCsv(2));
  lucid(HERE, [
    'model',
    'train',
    '--data',
    d('wages-train.csv'),
    '--label',
    'hired',
    '--positive',
    '1',
    '--seed',
    '0',
    '--out',
    d('wages.json'),
  ]);
  if (existsSync(d('sim.json')) && !values.all) {
    process.stdout.write(`prepared the wages data in ${DATA} (the rest is there; --all to redo it)\n`);
    return;
  }
  lucid(HERE, ['dataset', 'export', 'adult', '--split', 'train', '--out', d('adult-train.csv')]);
  lucid(HERE, ['dataset', 'export', 'adult', '--split', 'test', '--out', d('adult-test.csv')]);
  lucid(HERE, ['dataset', 'export', 'compas', '--split', 'train', '--out', d('compas-train.csv')]);
  lucid(HERE, ['dataset', 'export', 'compas', '--split', 'test', '--out', d('compas-test.csv')]);
  lucid(HERE, [
    'dataset',
    'export',
    'sim',
    '--bias',
    'direct',
    '--rows',
    '2000',
    '--seed',
    '0',
    '--out',
    d('sim-train.csv'),
  ]);
  lucid(HERE, [
    'dataset',
    'export',
    'sim',
    '--bias',
    'direct',
    '--rows',
    '2000',
    '--seed',
    '1',
    '--out',
    d('sim-audit.csv'),
  ]);
  // 1000 rows of the Adult test split, drawn without replacement with a fixed LCG (a small real data set)
  const lines = readFileSync(d('adult-test.csv'), 'utf8').trimEnd().split('\n');
  const body = lines.slice(1);
  let s = 12345;
  const idx = body.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  writeFileSync(
    d('adult-1000.csv'),
    [
      lines[0],
      ...idx
        .slice(0, 1000)
        .sort((a, b) => a - b)
        .map((i) => body[i]),
    ].join('\n') + '\n',
  );
  lucid(HERE, [
    'model',
    'train',
    '--data',
    d('adult-train.csv'),
    '--label',
    'Income',
    '--positive',
    '>50K',
    '--seed',
    '0',
    '--out',
    d('adult.json'),
  ]);
  lucid(HERE, [
    'model',
    'train',
    '--data',
    d('compas-train.csv'),
    '--label',
    'two_year_recid',
    '--positive',
    '0',
    '--categorical',
    'two_year_recid',
    '--seed',
    '0',
    '--out',
    d('compas.json'),
  ]);
  lucid(HERE, [
    'model',
    'train',
    '--data',
    d('sim-train.csv'),
    '--label',
    'approved',
    '--positive',
    'yes',
    '--hidden',
    'none',
    '--seed',
    '0',
    '--out',
    d('sim.json'),
  ]);
  process.stdout.write(`prepared ${DATA}\n`);
}

function run() {
  const tree = resolve(values.tree);
  for (const name of values.datasets.split(',')) {
    const s = SETTINGS[name];
    if (!s) throw new Error(`unknown data set ${name}`);
    for (const seed of values.seeds.split(',').map(Number)) {
      const dir = join(OUT, values.label, name, `seed-${seed}`);
      if (existsSync(join(dir, 'audit.json'))) continue;
      const args = [
        '--threads',
        values.threads,
        'audit',
        '--data',
        join(DATA, s.data),
        '--label',
        s.label,
        '--positive',
        s.positive,
        '--protected',
        s.protected,
        '--model',
        join(DATA, s.model),
        '--seed',
        String(seed),
        '--out',
        dir,
        '--quiet',
        '--format',
        'json',
      ];
      if (s.edges) args.push('--protected-edges', s.edges);
      if (name === 'compas') args.push('--categorical', 'two_year_recid');
      if (values.extra) args.push(...values.extra.split(' '));
      const t0 = Date.now();
      const r = lucid(tree, args);
      const seconds = (Date.now() - t0) / 1000;
      writeFileSync(
        join(dir, 'run.json'),
        JSON.stringify(
          {
            tree,
            label: values.label,
            dataset: name,
            seed,
            seconds,
            args,
            commit: gitCommit(tree),
            stdout: JSON.parse(r.stdout),
          },
          null,
          2,
        ),
      );
      process.stdout.write(`${values.label} ${name} seed ${seed}: ${seconds.toFixed(1)} s\n`);
    }
  }
}

function gitCommit(tree) {
  try {
    return execFileSync('git', ['-C', tree, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

const step = positionals[0];
if (step === 'prepare') prepare();
else if (step === 'run') run();
else if (step === 'analyse') {
  const { analyse } = await import('./canonical-checks-analyse.mjs');
  await analyse({
    out: OUT,
    label: values.label,
    datasets: values.datasets.split(','),
    seeds: values.seeds.split(',').map(Number),
    settings: SETTINGS,
    data: DATA,
  });
} else {
  process.stderr.write(
    'usage: node experiments/canonical-checks.mjs prepare|run|analyse [--tree DIR] [--label L] [--datasets a,b] ' +
      '[--seeds 0,1]\n',
  );
  process.exitCode = 2;
}
