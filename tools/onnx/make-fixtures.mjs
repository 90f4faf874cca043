// Regenerates the black-box adapter fixtures (run after `npm run build`; needs python3-onnx):
//
//   node tools/onnx/make-fixtures.mjs
//
// 1. trains two built-in classifiers on the bias simulator (seed 4, 4000 rows, proxy bias): a
//    logistic regression (--hidden none) and a small MLP (hidden 8), and saves them as
//    test/fixtures/onnx/{logistic,mlp}.model.json;
// 2. exports each to test/fixtures/onnx/{logistic,mlp}.onnx with its sidecar .onnx.json
//    (tools/onnx/make_model.py, run by /usr/bin/python3 or $PYTHON);
// 3. writes examples/logistic-model.json, the logistic model's coefficients in the readable form
//    examples/logistic-model.mjs reads.
// test/models/blackbox.test.ts checks that the built-in, ONNX and JS-module forms predict alike.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initNodeEngine } from '../../dist/src/node/engine.js';
import { Rng } from '../../dist/src/engine/rng.js';
import { simulate } from '../../dist/src/data/simulator.js';
import { Classifier } from '../../dist/src/models/classifier/index.js';

// Debian's interpreter, where python3-onnx lives (a pyenv or venv python3 may lack it); PYTHON overrides
const python = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const root = fileURLToPath(new URL('../../', import.meta.url));
const out = `${root}test/fixtures/onnx/`;
mkdirSync(out, { recursive: true });

const engine = await initNodeEngine();
const sim = simulate(new Rng(engine, 4), { n: 4000, bias: 'proxy' });

const models = {
  logistic: { hidden: [], epochs: 30 },
  mlp: { hidden: [8], epochs: 15 },
};
/**
 * The parts of a model file (Classifier.toJSON) this script reads.
 * @typedef {{ label: string, positive: string, layers: { weight: number[], bias: number[] }[], preprocessor: { groups:
 * ({ kind: 'numeric', name: string, start: number, min: number, max: number } | { kind: 'categorical', name: string,
 * start: number, categories: string[] })[] } }} ModelFile
 */
/** @type {Record<string, ModelFile>} */
const saved = {};
for (const [name, opts] of Object.entries(models)) {
  const { model, history } = Classifier.train(engine, sim.table, {
    label: sim.label,
    positive: sim.favourable,
    seed: 0,
    ...opts,
  });
  const json = model.toJSON();
  saved[name] = /** @type {ModelFile} */ (json);
  writeFileSync(`${out}${name}.model.json`, `${JSON.stringify(json)}\n`);
  const last = history[history.length - 1];
  console.log(`${name}: ${history.length} epochs, val accuracy ${last.valAccuracy.toFixed(3)}`);
  execFileSync(python, [`${root}tools/onnx/make_model.py`, `${out}${name}.model.json`, `${out}${name}.onnx`], {
    stdio: 'inherit',
  });
}

// The logistic model's coefficients, per column, for the JS example.
const m = saved.logistic;
const w = m.layers[0].weight;
const example = {
  about:
    "A logistic regression over the bias simulator's columns, exported from test/fixtures/onnx/logistic.model.json " +
    'by tools/onnx/make-fixtures.mjs. z = intercept + Σ weight·(2(x − min)/(max − min) − 1) over the numeric ' +
    "columns + the weight of each categorical column's label; P(approved = yes) = 1/(1 + e^−z).",
  label: m.label,
  positive: m.positive,
  intercept: m.layers[0].bias[0],
  numeric: m.preprocessor.groups
    .filter((g) => g.kind === 'numeric')
    .map((g) => ({ name: g.name, min: g.min, max: g.max, weight: w[g.start] })),
  categorical: m.preprocessor.groups
    .filter((g) => g.kind === 'categorical')
    .map((g) => ({ name: g.name, weights: Object.fromEntries(g.categories.map((c, k) => [c, w[g.start + k]])) })),
};
writeFileSync(`${root}examples/logistic-model.json`, `${JSON.stringify(example, null, 2)}\n`);
console.log('wrote examples/logistic-model.json');
