#!/usr/bin/env node
// Times LUCID (src/methods/lucid/invert.ts) on an Adult-sized MLP: 1000 samples × 200 SGD steps,
// all samples in one batch. Not a test: run after `npm run build`.
//
//   node tools/time-lucid.mjs [model.json | --adult] [--n 1000] [--epochs 200] [--repeats 5] [--loss prob-ce|logit-ce]
//
// Without a model it builds the built-in classifier's default network (hidden 64, 32) over Adult's
// encoding (6 numerics + 98 one-hot columns = 104 inputs) with seeded random weights: the cost of a
// step does not depend on the weights' values. `--adult` trains the built-in classifier on Adult's
// reference train/validation split first (the data as for the tests: LUCID_DATA_DIR or
// ../shared/data) and also prints its test accuracy and the canonical set's protected columns. With
// a file (e.g. from `lucid model train`) it times that model. LUCID_SIMD=plain times the plain
// SIMD128 build instead of the relaxed-SIMD (FMA) one.
//
// Reports the best and median wall time of `repeats` runs of invert() (initialisation, the steps,
// the final and snapped predictions and decoding), the time per step, and the same work done one
// sample at a time (the reference's schedule) on the same engine as the in-process baseline.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { adultShapedModel as adultShapedModelOf } from '../dist/bench/models.bench.js';
import { Classifier } from '../dist/src/models/classifier/classifier.js';
import { invert } from '../dist/src/methods/lucid/invert.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: 'string', default: '1000' },
    epochs: { type: 'string', default: '200' },
    repeats: { type: 'string', default: '5' },
    loss: { type: 'string', default: 'prob-ce' },
    adult: { type: 'boolean', default: false },
  },
});
const n = Number(values.n);
const epochs = Number(values.epochs);
const repeats = Number(values.repeats);
const loss = values.loss;
if (loss !== 'prob-ce' && loss !== 'logit-ce') throw new Error('--loss: prob-ce or logit-ce');
const engine = await initNodeEngine();

// the same model the bench's LUCID case uses (bench/models.bench.ts)
const adultShapedModel = () => adultShapedModelOf(engine);

let model;
let what;
let adult = null;
if (values.adult) {
  const { loadAdult } = await import('../dist/src/node/datasets.js');
  adult = await loadAdult();
  const t0 = performance.now();
  const trained = Classifier.train(engine, adult.splits.train, {
    label: adult.label,
    positive: adult.favourable,
    validation: adult.splits.val,
  });
  model = trained.model;
  const acc = model.evaluate(engine, adult.splits.test).accuracy;
  what =
    `Adult MLP trained here (${((performance.now() - t0) / 1000).toFixed(1)} s, best epoch ${trained.bestEpoch}, ` +
    `test accuracy ${(100 * acc).toFixed(1)}%)`;
} else if (positionals[0]) {
  model = Classifier.fromJSON(engine, JSON.parse(readFileSync(positionals[0], 'utf8')), positionals[0]);
  what = positionals[0];
} else {
  model = adultShapedModel();
  what = 'Adult-shaped MLP (random weights)';
}
console.log(
  `kernels: ${engine.variant}; model: ${what}; D = ${model.dim}, hidden [${model.hidden.join(', ')}]; ${n} samples × ` +
    `${epochs} steps, loss ${loss}`,
);
invert(engine, model, { prefer: 'positive', n: 50, epochs: 5, loss }); // warm-up
const times = [];
let last;
for (let r = 0; r < repeats; r++) {
  const t0 = performance.now();
  last = invert(engine, model, { prefer: 'positive', n, epochs, loss, seed: r });
  times.push(performance.now() - t0);
}
if (!last) throw new Error('--repeats: at least 1');
times.sort((a, b) => a - b);
const med = times[Math.floor(times.length / 2)];
const high = last.pred.filter((p) => p >= 0.5).length / n;
console.log(
  `invert(): best ${times[0].toFixed(0)} ms, median ${med.toFixed(0)} ms over ${repeats} runs (descent alone ` +
    `${last.ms.toFixed(0)} ms; ${((1000 * last.ms) / epochs).toFixed(0)} µs per step of ${n} samples)`,
);
console.log(
  `P(${model.positive}) ≥ 0.5 after the descent in ${(100 * high).toFixed(1)}% of ` +
    `samples${adult ? '' : ' (random weights: only a sanity check)'}`,
);
if (adult) {
  for (const name of adult.protected) {
    const col = last.table.columns.find((c) => c.name === name);
    if (col?.kind !== 'categorical') throw new Error(`${name}: a categorical column of the canonical set`);
    const counts = col.categories
      .map((c, k) => /** @type {[string, number]} */ ([c, col.codes.filter((v) => v === k).length]))
      .sort((a, b) => b[1] - a[1]);
    console.log(`  canonical ${name}: ${counts.map(([c, k]) => `${c} ${((100 * k) / n).toFixed(1)}%`).join(', ')}`);
  }
}
// Baseline in the same process: the reference's schedule (each sample alone, batch size 1) on the
// same engine and model, for a subset of samples; the ratio compares time per sample.
const alone = Math.min(50, n);
const tAlone = performance.now();
for (let i = 0; i < alone; i++) invert(engine, model, { prefer: 'positive', n: 1, epochs, loss, seed: 1000 + i });
const perSampleAlone = (performance.now() - tAlone) / alone;
const perSampleBatched = times[0] / n;
console.log(
  `baseline, one sample at a time (the reference's schedule) on this engine: ${perSampleAlone.toFixed(1)} ms per ` +
    `sample (${alone} samples); batched: ${perSampleBatched.toFixed(3)} ms per sample → ` +
    `${(perSampleAlone / perSampleBatched).toFixed(0)}× faster`,
);
console.log('reference: PyTorch 9 s for 100 samples (one at a time); Keras 24 min for 1000');
