#!/usr/bin/env node
// Runs every LUCID-GAN paper configuration one after the other (one process each, so one failing
// run does not stop the rest), then FALE, and writes out/experiments/runs.json with the wall time of
// each. `npm run experiment:paper [-- --only adult]`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { only: { type: 'string' }, skipFale: { type: 'boolean', default: false } } });
// Most important first (the logistic model is the paper's); paper mode is run for the direct view
// only (the validity comparison of EXPERIMENTS.md §3); FALE is cheap and runs after the logistic runs.
const g = (dataset, model, view, mode) => [
  'experiments/lucid-gan-paper.mjs',
  '--dataset',
  dataset,
  '--model',
  model,
  '--view',
  view,
  '--mode',
  mode,
];
// every dataset, then every mode within it (adult consistency, adult paper, compas consistency, …)
const grid = (model, view, modes) => ['adult', 'compas'].flatMap((d) => modes.map((m) => g(d, model, view, m)));
const runs = [...grid('logistic', 'direct', ['consistency', 'paper']), ...grid('logistic', 'proxy', ['consistency'])];
if (!values.skipFale) runs.push(['experiments/fale-paper.mjs']);
runs.push(
  ...grid('mlp', 'direct', ['consistency', 'paper']),
  ...grid('mlp', 'proxy', ['consistency']),
  ...grid('logistic', 'proxy', ['paper']),
);
mkdirSync('out/experiments', { recursive: true });
const file = 'out/experiments/runs.json';
const log = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
for (const args of runs) {
  if (values.only && !args.includes(values.only)) continue;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  const seconds = (performance.now() - t0) / 1000;
  log.push({
    command: `node ${args.join(' ')}`,
    seconds: +seconds.toFixed(1),
    status: r.status,
    finished: new Date().toISOString(),
  });
  writeFileSync(file, JSON.stringify(log, null, 1));
  console.error(`[run-paper] ${args.join(' ')}: exit ${r.status}, ${seconds.toFixed(1)} s`);
}
