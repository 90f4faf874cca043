#!/usr/bin/env node
// EXPERIMENTS.md §7.2: how to condition the generator when drawing canonical sets, and how long to
// train on few rows. For each setting (files from `canonical-checks.mjs prepare`) and each of the audit's
// three GAN seeds (audit seed 0): train LUCID-GAN as the audit does, and after each checkpoint draw the
// positive and negative sets with every condition mode (rejection sampling, as the audit), then measure
// fidelity and direction disagreements on the pooled sets of the three seeds with the audit's checks.
//
//   node experiments/gan-schedule.mjs [--datasets adult1000,compas,sim] [--steps 300,600,1200,2400,4800]
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { readCsv } from '../dist/src/node/csv.js';
import { loadBlackBox } from '../dist/src/node/blackbox.js';
import { Rng } from '../dist/src/engine/rng.js';
import { LucidGan } from '../dist/src/models/lucidgan/model.js';
import { GanTrainer } from '../dist/src/models/lucidgan/train.js';
import { findDependencies } from '../dist/src/data/dependencies.js';
import { ganBatchFor } from '../dist/src/audit/run.js';
import {
  CONDITION_MODES,
  drawCanonical,
  drawSeed,
  ganSeedsFor,
  modelScorer,
  observedRanges,
} from '../dist/src/audit/canonical.js';
import { fidelity } from '../dist/src/audit/checks.js';
import { concatRows } from '../dist/src/data/table.js';
import { DEFAULT_DECISION } from '../dist/src/methods/metrics/decision.js';
import { directionChecks, SETTINGS } from './canonical-settings.mjs';

const { values: parsed } = parseArgs({
  options: {
    out: { type: 'string', default: 'out/experiments/canonical' },
    datasets: { type: 'string', default: 'adult1000,compas,sim' },
    steps: { type: 'string', default: '300,600,1200,2400,4800' },
    seed: { type: 'string', default: '0' },
    // §7.3: the transformer's point-mass share (0: none); the results go to schedule-points<share>/
    'point-share': { type: 'string' },
    modes: { type: 'string' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { out: string, datasets: string, steps: string, seed: string }} */ (parsed);
const OUT = resolve(values.out);
const DATA = join(OUT, 'data');
const checkpoints = values.steps.split(',').map(Number);
const pointShare = values['point-share'] === undefined ? undefined : Number(values['point-share']);
// drawCanonical checks each mode
const MODES = values.modes
  ? /** @type {import('../dist/src/audit/canonical.js').ConditionMode[]} */ (values.modes.split(','))
  : CONDITION_MODES;
const engine = await initNodeEngine();
const results = [];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

for (const name of values.datasets.split(',')) {
  const s = SETTINGS[name];
  const { table } = await readCsv(join(DATA, s.data), name === 'compas' ? { categorical: ['two_year_recid'] } : {});
  const model = await loadBlackBox(engine, join(DATA, s.model));
  const p = await model.predict(table);
  const yhat = Uint8Array.from(p, (v) => (v > 0.5 ? 1 : 0));
  const predName = 'preds';
  const feats = table.columns.filter((c) => c.name !== s.label);
  const ganTable = {
    rows: table.rows,
    columns: [...feats, { kind: /** @type {const} */ ('numeric'), name: predName, values: p }],
  };
  const featTable = { rows: table.rows, columns: feats };
  const range = observedRanges(featTable);
  const dependencies = findDependencies(featTable);
  const scorer = modelScorer(model);
  const posRows = Int32Array.from(yhat.keys()).filter((i) => yhat[i] === 1);
  const negRows = Int32Array.from(yhat.keys()).filter((i) => yhat[i] === 0);
  const batch = ganBatchFor(table.rows);
  const seeds = ganSeedsFor(Number(values.seed), 3);
  // sets[checkpoint][mode] = one { positive, negative } per GAN seed
  const sets = checkpoints.map(() =>
    Object.fromEntries(
      MODES.map((m) => [
        m,
        /** @type {{
         *   positive: import('../dist/src/data/table.js').Table,
         *   negative: import('../dist/src/data/table.js').Table
         * }[]} */ ([]),
      ]),
    ),
  );
  const accept = checkpoints.map(() =>
    Object.fromEntries(MODES.map((m) => [m, /** @type {(number | null)[][]} */ ([])])),
  );
  const t0 = Date.now();
  for (const gs of seeds) {
    const {
      model: gan,
      x,
      rng,
    } = LucidGan.setup(engine, ganTable, {
      conditions: [predName],
      epochs: 1,
      batch,
      seed: gs,
      paper: true,
      where: name,
      ...(pointShare !== undefined ? { pointShare } : {}),
    });
    const trainer = new GanTrainer(gan, x, rng);
    let done = 0;
    try {
      for (let c = 0; c < checkpoints.length; c++) {
        while (done < checkpoints[c]) {
          trainer.step();
          done++;
        }
        for (const mode of MODES) {
          const draw = (side, purpose) =>
            drawCanonical(gan, {
              side,
              condition: mode,
              sideRows: side === 1 ? posRows : negRows,
              predName,
              fix: [],
              rows: 1000,
              seedOf: (r) => drawSeed(gs, purpose, r),
              scorer,
              decision: DEFAULT_DECISION,
              range,
              dependencies,
            });
          const pos = await draw(1, 0);
          const neg = await draw(0, 1);
          sets[c][mode].push({ positive: pos.table, negative: neg.table });
          accept[c][mode].push([pos.stats.acceptance, neg.stats.acceptance]);
        }
        process.stderr.write(`${name} GAN seed ${gs}: ${done} steps (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
      }
    } finally {
      trainer.dispose();
      gan.dispose();
    }
  }
  for (let c = 0; c < checkpoints.length; c++) {
    for (const mode of MODES) {
      const ss = sets[c][mode];
      const rng = new Rng(engine, 4242);
      const fid = fidelity(
        feats.map((f) => ({ name: f.name, kind: f.kind })),
        table,
        yhat,
        ss,
        rng,
      );
      const d = fid
        .flatMap((f) => [f.positive?.distance, f.negative?.distance])
        .filter((v) => v !== undefined && v !== null);
      const P = concatRows(ss.map((x) => x.positive));
      const N = concatRows(ss.map((x) => x.negative));
      const { checks, decided, disagree: dis } = directionChecks(table, yhat, ss, P, N, s, rng);
      const protDis = dis.filter((k) => k.role === 'protected');
      const acc = accept[c][mode];
      const row = {
        dataset: name,
        steps: checkpoints[c],
        mode,
        fidelity: mean(d),
        faithful: fid.filter((f) => f.faithful).length,
        features: fid.length,
        disagreements: dis.length,
        protectedDisagreements: protDis.length,
        checks: checks.length,
        decided: checks.filter(decided).length,
        acceptance: [mean(acc.map((a) => a[0])), mean(acc.map((a) => a[1]))],
        disagreeList: dis.map((k) => `${k.feature}=${k.value}`),
      };
      results.push(row);
      process.stdout.write(
        `${name}\t${checkpoints[c]}\t${mode}\tfid ${row.fidelity.toFixed(3)}\tfaithful ` +
          `${row.faithful}/${row.features}\tdis ${row.disagreements} (prot ${row.protectedDisagreements}) of ` +
          `${row.decided}\tacc ${row.acceptance.map((a) => a.toFixed(2)).join('/')}\n`,
      );
    }
  }
}
const sub = pointShare === undefined ? 'schedule' : `schedule-points${pointShare}`;
mkdirSync(join(OUT, sub), { recursive: true });
writeFileSync(join(OUT, sub, 'results.json'), JSON.stringify(results, null, 2));
