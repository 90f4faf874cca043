#!/usr/bin/env node
// Trains the built-in classifier on the reference splits of Adult and COMPAS and prints validation
// and test accuracy, so the figures in docs/models.md ("The built-in classifier") can be reproduced
// with one command:
//
//   npm run build && node tools/train-reference-models.mjs [--seeds 0,1,2] [--only adult|compas] [--refit] [--json]
//
// Needs the data under ../shared/data (or LUCID_DATA_DIR). For each data set, each architecture
// (logistic regression: hidden none; the default MLP: hidden 64,32) and each seed, one protocol or,
// with --refit, two:
//
//   split    train on the reference train split, early stopping on the reference validation split
//            (Adult 24129 / 6033 rows, COMPAS 3949 / 988); the scaler is fitted on the train split
//            only, exactly as canonical_sets does;
//   refit    then retrain on train + validation (Adult 30162, COMPAS 4937 rows) for the epoch count
//            the split protocol chose, without a validation split (the usual "refit on all training
//            data" step; the scaler is then fitted on train + validation).
//
// Test accuracy is on the UCI test file (15060 rows) and the COMPAS reference test split (1235).
// Every hyperparameter is the library default (TRAIN_DEFAULTS), chosen on the validation splits only.
import { parseArgs } from 'node:util';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { datasetAvailability, loadAdult, loadCompas } from '../dist/src/node/datasets.js';
import { Classifier, TRAIN_DEFAULTS } from '../dist/src/models/classifier/index.js';

const { values: parsed } = parseArgs({
  options: {
    seeds: { type: 'string', default: '0' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
    refit: { type: 'boolean', default: false },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { seeds: string }} */ (parsed);
const seeds = values.seeds.split(',').map(Number);

/** Rows of two tables with the same columns and dictionaries (the loaders share them across splits). */
/**
 * @param {import('../dist/src/data/table.js').Table} a @param {import('../dist/src/data/table.js').Table} b @returns
 * {import('../dist/src/data/table.js').Table}
 */
function concatRows(a, b) {
  return {
    rows: a.rows + b.rows,
    columns: a.columns.map((c, j) => {
      const d = b.columns[j];
      if (c.kind !== d.kind) throw new Error(`column ${c.name}: kinds differ`);
      if (c.kind === 'numeric' && d.kind === 'numeric') {
        const v = new Float64Array(a.rows + b.rows);
        v.set(c.values);
        v.set(d.values, a.rows);
        return { ...c, values: v };
      }
      if (c.kind !== 'categorical' || d.kind !== 'categorical') throw new Error(`column ${c.name}: kinds differ`);
      if (c.categories.join('\u0000') !== d.categories.join('\u0000'))
        throw new Error(`column ${c.name}: dictionaries differ`);
      const codes = new Int32Array(a.rows + b.rows);
      codes.set(c.codes);
      codes.set(d.codes, a.rows);
      return { ...c, codes };
    }),
  };
}

const engine = await initNodeEngine();
/**
 * @typedef {{ data: string, model: string, seed: number, protocol: string, trainRows: number, epochs: number, kept:
 * number, val: number, test: number, seconds: number }} Row
 */
/** @type {Row[]} */
const results = [];
/** @param {number} x */
const pct = (x) => (100 * x).toFixed(2).padStart(6);
/** @param {string} s */
const out = (s) => values.json || process.stdout.write(s);

out(
  `kernels: ${engine.variant}; defaults: hidden ${TRAIN_DEFAULTS.hidden.join(',')}, epochs ≤ ` +
    `${TRAIN_DEFAULTS.epochs}, batch ${TRAIN_DEFAULTS.batch}, lr ${TRAIN_DEFAULTS.lr} (logistic ` +
    `${TRAIN_DEFAULTS.lrLogistic}), weight decay ${TRAIN_DEFAULTS.weightDecay} (logistic ` +
    `${TRAIN_DEFAULTS.weightDecayLogistic}), patience ${TRAIN_DEFAULTS.patience}\n\n`,
);
/** @param {Row} r */
function printRow(r) {
  out(
    `${r.data.padEnd(7)} ${r.model.padEnd(9)} ${String(r.seed).padStart(4)}  ${r.protocol.padEnd(8)}  ` +
      `${String(r.trainRows).padStart(10)}  ${String(r.epochs).padStart(6)} (${String(r.kept).padStart(3)})   ` +
      `${Number.isNaN(r.val) ? '     —' : pct(r.val)}   ${pct(r.test)}  ${r.seconds.toFixed(1).padStart(5)} s\n`,
  );
}
out('data    model     seed  protocol  train rows  epochs (kept)   val acc  test acc  time\n');

for (const name of /** @type {const} */ (['adult', 'compas'])) {
  if (values.only && values.only !== name) continue;
  const avail = datasetAvailability(name);
  if (!avail.available) {
    out(`${name}: skipped: ${avail.reason}\n`);
    continue;
  }
  const d = name === 'adult' ? await loadAdult() : await loadCompas();
  const { train, val, test } = d.splits;
  const trainVal = concatRows(train, val);
  for (const [model, hidden] of /** @type {[string, number[]][]} */ ([
    ['logistic', []],
    ['mlp', TRAIN_DEFAULTS.hidden],
  ])) {
    for (const seed of seeds) {
      const base = { label: d.label, positive: d.favourable, hidden, seed };
      let t0 = performance.now();
      const a = Classifier.train(engine, train, { ...base, validation: val });
      const msA = performance.now() - t0;
      const rowA = {
        data: name,
        model,
        seed,
        protocol: 'split',
        trainRows: a.trainRows,
        epochs: a.history.length,
        kept: a.bestEpoch,
        val: a.model.evaluate(engine, val).accuracy,
        test: a.model.evaluate(engine, test).accuracy,
        seconds: msA / 1000,
      };
      a.model.dispose();
      if (!values.refit) {
        results.push(rowA);
        printRow(rowA);
        continue;
      }
      t0 = performance.now();
      const b = Classifier.train(engine, trainVal, { ...base, valFraction: 0, epochs: a.bestEpoch });
      const msB = performance.now() - t0;
      const rowB = {
        data: name,
        model,
        seed,
        protocol: 'refit',
        trainRows: b.trainRows,
        epochs: b.history.length,
        kept: b.bestEpoch,
        val: NaN,
        test: b.model.evaluate(engine, test).accuracy,
        seconds: msB / 1000,
      };
      b.model.dispose();
      for (const r of [rowA, rowB]) {
        results.push(r);
        printRow(r);
      }
    }
  }
}

if (seeds.length > 1 && !values.json) {
  out('\nmeans over seeds:\n');
  const keys = [...new Set(results.map((r) => `${r.data} ${r.model} ${r.protocol}`))];
  for (const k of keys) {
    const rs = results.filter((r) => `${r.data} ${r.model} ${r.protocol}` === k);
    /** @param {(r: Row) => number} f */
    const m = (f) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
    out(
      `  ${k.padEnd(24)} test ${pct(m((r) => r.test))}%  (min ${pct(Math.min(...rs.map((r) => r.test)))}, max ` +
        `${pct(Math.max(...rs.map((r) => r.test)))})  val ` +
        `${rs[0].protocol === 'split' ? pct(m((r) => r.val)) + '%' : '—'}  time ` +
        `${m((r) => r.seconds).toFixed(1)} s\n`,
    );
  }
}
if (values.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n');
