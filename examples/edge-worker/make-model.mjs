// Trains a small demo LUCID-GAN on the bias simulator's loan data (with its true P(approved) as
// the "preds" condition) and saves it as dist-edge/model.lgan, where the bundled worker's config
// expects it. Needs `npm run build`.
//   node examples/edge-worker/make-model.mjs [--epochs 30] [--out dist-edge/model.lgan]
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initEngine, Rng, simulate, lucidgan } from '../../dist/src/index.js';
import { saveGan } from '../../dist/src/node/gan-file.js';

const args = process.argv.slice(2);
/** @type {(name: string, dflt: string) => string} */
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const epochs = Number(opt('--epochs', '30'));
const out = opt('--out', fileURLToPath(new URL('../../dist-edge/model.lgan', import.meta.url)));

const engine = await initEngine({ variant: 'simd' });
const sim = simulate(new Rng(engine, 1), { n: 2000, bias: 'proxy' });
/** @type {import('../../dist/src/data/table.js').Table} */
const table = {
  rows: sim.table.rows,
  columns: [...sim.table.columns, { kind: 'numeric', name: 'preds', values: sim.truth.probability }],
};
const t0 = Date.now();
const { model, status } = await lucidgan.LucidGan.fit(engine, table, {
  embedding: 32,
  generatorDims: [64, 64],
  discriminatorDims: [64, 64],
  batch: 200,
  conditions: ['preds'],
  epochs,
  seed: 7,
});
mkdirSync(dirname(out), { recursive: true });
await saveGan(out, model, status);
console.log(`trained ${epochs} epochs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${status}); wrote ${out}`);
