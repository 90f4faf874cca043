#!/usr/bin/env node
// LUCID-GAN validity experiment: the Adult test set (15060 rows) with `preds` from
// the built-in classifier (default MLP, hidden 64,32) trained on the reference train split with
// early stopping on the reference validation split. For each epoch count and mode (paper: no
// consistency term; consistency: the default), seed 0, it reports
//   (a) the conditional loss of the last step,
//   (b) column shape of --shape-rows sampled rows (empirical cond vector, preds drawn from the
//       training rows) against the real test set: mean KS-complement (numeric), mean TV-complement
//       (categorical), and their mean over all columns (the column-shape score), via
//       src/methods/quality (columnShape);
//   (c) validity: 1000 rows at preds=1 (zero cond vector, the paper's default) scored by the audited
//       classifier, the share > 0.5; and 1000 rows at preds=0, the share < 0.5.
//
//   npm run build && node tools/experiments/gan-validity.mjs [--epochs 10,50] [--modes paper,consistency]
//        [--weight λ] [--shape-rows 15060] [--out out/gan-validity.json]
//
// The classifier is trained once and cached in out/adult-mlp.json (delete it to retrain).
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { initNodeEngine } from '../../dist/src/node/engine.js';
import { loadAdult } from '../../dist/src/node/datasets.js';
import { Classifier } from '../../dist/src/models/classifier/index.js';
import { LucidGan } from '../../dist/src/models/lucidgan/index.js';
import { getColumn } from '../../dist/src/data/table.js';
import { columnShape, validity } from '../../dist/src/methods/quality/index.js';

const { values: parsed } = parseArgs({
  options: {
    epochs: { type: 'string', default: '10,50' },
    modes: { type: 'string', default: 'paper,consistency' },
    weight: { type: 'string' },
    'shape-rows': { type: 'string', default: '15060' },
    'valid-rows': { type: 'string', default: '1000' },
    model: { type: 'string', default: 'out/adult-mlp.json' },
    out: { type: 'string', default: 'out/gan-validity.json' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { epochs: string, modes: string, model: string, out: string }} */ (parsed);
const epochsList = values.epochs.split(',').map(Number);
const modes = values.modes.split(',');
const shapeRows = Number(values['shape-rows']);
const validRows = Number(values['valid-rows']);

const engine = await initNodeEngine();
const ds = await loadAdult();
const test = ds.splits.test;
let clf;
if (existsSync(values.model)) {
  clf = Classifier.fromJSON(engine, JSON.parse(readFileSync(values.model, 'utf8')), values.model);
  console.error(`classifier: loaded ${values.model}`);
} else {
  const t0 = performance.now();
  const r = Classifier.train(engine, ds.splits.train, {
    label: 'Income',
    positive: '>50K',
    validation: ds.splits.val,
    seed: 0,
  });
  clf = r.model;
  mkdirSync(dirname(values.model), { recursive: true });
  writeFileSync(values.model, JSON.stringify(clf.toJSON()));
  console.error(
    `classifier: trained (best epoch ${r.bestEpoch}) in ${((performance.now() - t0) / 1000).toFixed(1)} s; saved ` +
      `${values.model}`,
  );
}
const preds = clf.predictProba(engine, test);
let acc = 0;
const lab = test.columns.find((c) => c.name === 'Income');
if (lab?.kind !== 'categorical') throw new Error('Adult: Income is a categorical column');
for (let i = 0; i < test.rows; i++) acc += preds[i] > 0.5 === (lab.categories[lab.codes[i]] === '>50K') ? 1 : 0;
console.error(
  `classifier: test accuracy ${(acc / test.rows).toFixed(4)}, mean preds ` +
    `${(preds.reduce((a, b) => a + b, 0) / test.rows).toFixed(4)}`,
);
const table = {
  rows: test.rows,
  columns: [...test.columns, { kind: /** @type {const} */ ('numeric'), name: 'preds', values: preds }],
};

const results = [];
for (const epochs of epochsList) {
  for (const mode of modes) {
    const t0 = performance.now();
    /** @type {import('../../dist/src/models/lucidgan/model.js').FitOptions} */
    const opts = { conditions: ['preds'], epochs, seed: 0, paper: mode === 'paper' };
    if (values.weight !== undefined) opts.consistencyWeight = Number(values.weight);
    const { model, status } = await LucidGan.fit(engine, table, opts);
    const fitS = (performance.now() - t0) / 1000;
    const h = model.history;
    const lossCond = h.lossCond[h.lossCond.length - 1];
    // (b) column shape
    const syn = model.sample({ n: shapeRows, condVector: 'empirical', seed: 1 }).table;
    const shapes = test.columns.map((c) => columnShape(c, getColumn(syn, c.name, 'the sampled rows')));
    const ks = shapes.filter((x) => x.metric === 'KSComplement').map((x) => x.score);
    const tv = shapes.filter((x) => x.metric === 'TVComplement').map((x) => x.score);
    /** @param {(number | null)[]} a */
    const mean = (a) => {
      let s = 0;
      for (const y of a) s += y ?? 0;
      return s / a.length;
    };
    // (c) validity
    /** @param {0 | 1} c */
    const side = (c) => {
      const rows = model.sample({ n: validRows, conditions: { preds: c }, condVector: 'zero', seed: 2 }).table;
      return validity(clf.predictProba(engine, rows), c, { model: 'default MLP', column: 'preds', source: 'given' });
    };
    const vp = side(1);
    const vn = side(0);
    const pos = vp.positive.rate;
    const neg = vn.negative.rate;
    const r = {
      epochs,
      mode,
      status,
      seconds: Number(fitS.toFixed(1)),
      weight: model.consistency?.weight ?? 0,
      surrogate: h.surrogate ?? null,
      lossCond,
      ksMean: mean(ks),
      ksStatMean: 1 - mean(ks),
      tvMean: mean(tv),
      tvdMean: 1 - mean(tv),
      columnShape: mean([...ks, ...tv]),
      validityPos: pos,
      validityNeg: neg,
      validityReport: { pos: vp, neg: vn },
    };
    results.push(r);
    console.error(JSON.stringify({ epochs, mode, seconds: r.seconds, lossCond, columnShape: r.columnShape, pos, neg }));
    model.dispose();
  }
}
/** @param {number | null} x */
const pct = (x) => `${(100 * Number(x)).toFixed(1)}%`;
console.log(
  `Adult test set (${test.rows} rows), preds of the default MLP (test accuracy ${(acc / test.rows).toFixed(4)}), ` +
    `seed 0; shape on ${shapeRows} sampled rows, validity on ${validRows} rows per side`,
);
console.log(
  '| epochs | mode | cond loss | mean KS stat | mean TVD | KS-compl. | TV-compl. | column shape | valid pos | valid ' +
    'neg | fit s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.epochs} | ${r.mode}${r.mode === 'consistency' ? ` (λ=${r.weight})` : ''} | ${r.lossCond.toFixed(4)} | ` +
      `${r.ksStatMean.toFixed(3)} | ${r.tvdMean.toFixed(3)} | ${r.ksMean.toFixed(3)} | ${r.tvMean.toFixed(3)} | ` +
      `${r.columnShape.toFixed(3)} | ${pct(r.validityPos)} | ${pct(r.validityNeg)} | ${r.seconds} |`,
  );
}
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(
  values.out,
  JSON.stringify(
    { data: 'adult test', rows: test.rows, shapeRows, validRows, classifierTestAccuracy: acc / test.rows, results },
    null,
    2,
  ),
);
console.error(`wrote ${values.out}`);
