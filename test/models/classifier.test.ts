// The built-in classifier: it learns the bias simulator's rule, the same seed gives the same weights
// bit for bit, the logits are differentiable with respect to the input only, the model file round
// trip keeps every prediction, corrupt model files are one exact E_INPUT line, and argument errors.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { grad, requireGrad } from '../../src/autograd/tape.js';
import { sum } from '../../src/autograd/ops/index.js';
import { simulate } from '../../src/data/simulator.js';
import { selectRows, type Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { loadModel, saveModel } from '../../src/node/model-file.js';
import { getEngine } from '../helpers/engine.js';

let engine: Engine;
let trainSet: Table;
let testSet: Table;
let bayes: number;
const dir = mkdtempSync(join(tmpdir(), 'lucid-classifier-'));
before(async () => {
  engine = await getEngine();
  trainSet = simulate(new Rng(engine, 1), { n: 4000, bias: 'proxy' }).table;
  const test = simulate(new Rng(engine, 2), { n: 4000, bias: 'proxy' });
  testSet = test.table;
  // accuracy of the true rule σ(S) > 0.5 on the sampled decisions: no model can expect more
  const approved = testSet.columns.find((c) => c.name === 'approved')!;
  assert.ok(approved.kind === 'categorical');
  let ok = 0;
  test.truth.probability.forEach(
    (p, i) => (ok += (p > 0.5 ? 1 : 0) === (approved.categories[approved.codes[i]] === 'yes' ? 1 : 0) ? 1 : 0),
  );
  bayes = ok / testSet.rows;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const expectInput = (msg: string) => (e: unknown) => {
  assert.ok(e instanceof EngineError, String(e));
  assert.equal(e.code, 'E_INPUT');
  assert.equal(e.message, msg);
  return true;
};

describe('Classifier.train', () => {
  it("learns the simulator: within 1.5 points of the true rule's accuracy on fresh rows (MLP and logistic)", () => {
    for (const hidden of [[64, 32], []]) {
      const t0 = performance.now();
      const { model, history, bestEpoch, trainRows, valRows } = Classifier.train(engine, trainSet, {
        label: 'approved',
        positive: 'yes',
        hidden,
        epochs: 60,
        seed: 0,
      });
      const ms = performance.now() - t0;
      const { accuracy } = model.evaluate(engine, testSet);
      assert.equal(trainRows, 3200);
      assert.equal(valRows, 800);
      assert.ok(bestEpoch >= 1 && bestEpoch <= history.length);
      assert.ok(
        accuracy >= bayes - 0.015 && accuracy >= 0.74,
        `hidden [${hidden}]: accuracy ${accuracy.toFixed(4)}, true rule ${bayes.toFixed(4)}`,
      );
      assert.ok(ms < 5000, `${ms} ms`);
      assert.deepEqual([model.label, model.positive, model.classes], ['approved', 'yes', ['no', 'yes']]);
      assert.equal(model.preprocessor.features.includes('approved'), false);
      model.dispose();
    }
  });

  it('a deterministic rule (decision: threshold) is learned to ≥ 95%', () => {
    const tr = simulate(new Rng(engine, 3), { n: 4000, bias: 'direct', decision: 'threshold' }).table;
    const te = simulate(new Rng(engine, 4), { n: 2000, bias: 'direct', decision: 'threshold' }).table;
    const { model } = Classifier.train(engine, tr, { label: 'approved', epochs: 60 });
    const { accuracy } = model.evaluate(engine, te);
    assert.ok(accuracy >= 0.95, `accuracy ${accuracy}`);
    model.dispose();
  });

  it('same seed, same weights bit for bit; another seed, other weights', () => {
    const opts = { label: 'approved', hidden: [16], epochs: 8, seed: 7 };
    const a = Classifier.train(engine, trainSet, opts);
    const b = Classifier.train(engine, trainSet, opts);
    const c = Classifier.train(engine, trainSet, { ...opts, seed: 8 });
    assert.deepEqual(a.model.params.snapshot(), b.model.params.snapshot());
    assert.deepEqual(a.history, b.history);
    assert.notDeepEqual(a.model.params.snapshot(), c.model.params.snapshot());
    for (const r of [a, b, c]) r.model.dispose();
  });

  it("early stopping keeps the best epoch's weights; without validation every epoch runs", () => {
    const epochs: number[] = [];
    const { model, history, bestEpoch } = Classifier.train(engine, trainSet, {
      label: 'approved',
      hidden: [64],
      lr: 0.05,
      epochs: 200,
      patience: 3,
      onEpoch: (e) => epochs.push(e.epoch),
    });
    assert.deepEqual(
      epochs,
      history.map((h) => h.epoch),
    );
    assert.ok(history.length < 200, 'stopped early');
    assert.equal(history.length, bestEpoch + 3);
    const best = Math.min(...history.map((h) => h.valLoss));
    assert.equal(history[bestEpoch - 1].valLoss, best);
    // the kept weights reproduce the best epoch's validation loss: evaluate on the same split
    model.dispose();
    const all = Classifier.train(engine, trainSet, { label: 'approved', hidden: [], epochs: 3, valFraction: 0 });
    assert.equal(all.history.length, 3);
    assert.equal(all.bestEpoch, 3);
    assert.ok(Number.isNaN(all.history[0].valLoss));
    assert.equal(all.trainRows, 4000);
    all.model.dispose();
  });

  it('the scaling is fitted on the training rows only, not on the validation rows', () => {
    const val = selectRows(trainSet, [0, 1, 2]);
    const age = val.columns.find((c) => c.name === 'age')!;
    assert.ok(age.kind === 'numeric');
    age.values[0] = 500;
    const trainAge = trainSet.columns.find((c) => c.name === 'age')!;
    assert.ok(trainAge.kind === 'numeric');
    const { model, valRows } = Classifier.train(engine, trainSet, {
      label: 'approved',
      hidden: [],
      epochs: 1,
      validation: val,
    });
    assert.equal(valRows, 3);
    const g = model.preprocessor.groups.find((x) => x.name === 'age')!;
    assert.equal(g.max, Math.max(...trainAge.values));
    assert.equal(g.min, Math.min(...trainAge.values));
    model.dispose();
    // the internal split too: a 500-year-old in the table sets the maximum only when it is a training row
    const small = selectRows(
      trainSet,
      Array.from({ length: 200 }, (_, i) => i),
    );
    const a = small.columns.find((c) => c.name === 'age')!;
    assert.ok(a.kind === 'numeric');
    a.values[17] = 500;
    const maxima = new Set<number>();
    for (let seed = 0; seed < 10; seed++) {
      const r = Classifier.train(engine, small, { label: 'approved', hidden: [], epochs: 1, valFraction: 0.5, seed });
      maxima.add(r.model.preprocessor.groups.find((x) => x.name === 'age')!.max!);
      r.model.dispose();
    }
    assert.ok(maxima.has(500) && maxima.size > 1, `maxima ${[...maxima]}`);
  });

  it('logits are differentiable with respect to the input only, and agree with probaEncoded', () => {
    const { model } = Classifier.train(engine, trainSet, { label: 'approved', hidden: [8], epochs: 2 });
    const x = model.preprocessor.encode(selectRows(testSet, [0, 1, 2, 3, 4]));
    const p = model.probaEncoded(engine, x, 5);
    engine.scope(() => {
      const xt = requireGrad(engine.tensor(x, [5, model.dim]));
      const z = model.logits(xt);
      assert.deepEqual(z.shape, [5, 1]);
      for (let i = 0; i < 5; i++) assert.ok(Math.abs(1 / (1 + Math.exp(-z.data[i])) - p[i]) < 1e-12);
      const [g] = grad(sum(z), [xt]);
      assert.deepEqual(g.shape, [5, model.dim]);
      assert.ok(g.data.some((v) => v !== 0));
      assert.ok(
        model.params.trainable.every((t) => !t.requiresGrad),
        'parameters are frozen after training',
      );
      assert.throws(() => grad(sum(z), [model.params.trainable[0]]), /does not require a gradient/);
    });
    model.dispose();
  });

  it('argument and data errors', () => {
    const args = (opts: object, msg: RegExp) =>
      assert.throws(
        () => Classifier.train(engine, trainSet, { label: 'approved', ...opts }),
        (e: unknown) => e instanceof EngineError && e.code === 'E_ARG' && msg.test(e.message),
      );
    args({ hidden: [0] }, /hidden sizes must be positive integers/);
    args({ epochs: 0 }, /epochs must be a positive integer/);
    args({ lr: -1 }, /lr must be a positive number/);
    args({ valFraction: 1 }, /valFraction must be in \[0, 1\)/);
    args({ positive: 'maybe' }, /positive value "maybe" does not occur in label column "approved" \(values: no, yes\)/);
    args(
      { label: 'neighbourhood' },
      /label column "neighbourhood" has 6 values \(Eastfield, .*Westbrook\); say which is positive/,
    );
    assert.throws(
      () => Classifier.train(engine, trainSet, { label: 'approve' }),
      (e: EngineError) =>
        e.code === 'E_ARG' &&
        e.message ===
          'train: label "approve" is not a column (did you mean "approved"?); the columns are: age, sex, group, ' +
            'neighbourhood, education, hours_per_week, income, debt_ratio, approved',
    );
    assert.throws(
      () => Classifier.train(engine, trainSet, { label: 'approved', drop: ['nope'] }),
      /train: drop "nope" is not a column/,
    );
    // one-vs-rest with --positive on a many-valued label works
    const { model } = Classifier.train(engine, trainSet, {
      label: 'neighbourhood',
      positive: 'Eastfield',
      hidden: [],
      epochs: 1,
      drop: ['approved'],
    });
    assert.equal(model.classes.length, 6);
    assert.equal(model.preprocessor.features.includes('approved'), false);
    model.dispose();
  });
});

describe('model files', () => {
  let model: Classifier;
  let good: Record<string, unknown>;
  before(() => {
    model = Classifier.train(engine, trainSet, { label: 'approved', hidden: [8, 4], epochs: 5, seed: 3 }).model;
    good = JSON.parse(JSON.stringify(model.toJSON()));
  });
  after(() => model.dispose());

  it('train → save → load gives identical predictions and weights', async () => {
    const file = join(dir, 'model.json');
    await saveModel(file, model);
    const back = await loadModel(engine, file);
    assert.deepEqual(back.params.snapshot(), model.params.snapshot());
    assert.deepEqual(back.predictProba(engine, testSet), model.predictProba(engine, testSet));
    assert.deepEqual(
      [back.label, back.positive, back.hidden, back.classes],
      [model.label, model.positive, model.hidden, model.classes],
    );
    assert.deepEqual(back.preprocessor.groups, model.preprocessor.groups);
    back.dispose();
  });

  it('a corrupt file is one E_INPUT line naming the file and the field', async () => {
    const write = (name: string, text: string) => {
      const f = join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    // biome-ignore lint/suspicious/noExplicitAny: a model file's JSON, bent into each corrupt shape below
    const variant = (mutate: (o: Record<string, any>) => void) => {
      const o = JSON.parse(JSON.stringify(good));
      mutate(o);
      return JSON.stringify(o);
    };
    const cases: [string, string, string][] = [
      ['missing.json', '', 'missing.json: file not found'],
      [
        'notjson.json',
        '{"format": ',
        'notjson.json: not a JSON file (Unexpected end of JSON input); a model file is what "lucid model train" writes',
      ],
      ['array.json', '[1, 2]', 'array.json: not a lucid-wasm model (expected a JSON object)'],
      [
        'format.json',
        variant((o) => (o.format = 'ctgan')),
        'format.json: not a lucid-wasm model (format is "ctgan", expected "lucid-wasm/classifier")',
      ],
      [
        'noformat.json',
        variant((o) => delete o.format),
        'noformat.json: not a lucid-wasm model (format is missing, expected "lucid-wasm/classifier")',
      ],
      [
        'version.json',
        variant((o) => (o.version = 3)),
        'version.json: model format version 3 is not supported (this lucid-wasm reads versions 1 and 2)',
      ],
      [
        'positive.json',
        variant((o) => (o.positive = 'maybe')),
        'positive.json: field "positive" must be one of the classes',
      ],
      [
        'hidden.json',
        variant((o) => (o.hidden = [8, -4])),
        'hidden.json: field "hidden" must be an array of positive integers',
      ],
      [
        'layers.json',
        variant((o) => o.layers.pop()),
        'layers.json: field "layers" must be an array of 3 layers (hidden sizes [8,4] and one output)',
      ],
      [
        'noweights.json',
        variant((o) => delete o.layers[1].weight),
        'noweights.json: field "layers[1].weight" must be an array of 32 finite numbers (4×8), got nothing',
      ],
      [
        'short.json',
        variant((o) => o.layers[0].weight.pop()),
        `short.json: field "layers[0].weight" must be an array of ${8 * model.dim} finite numbers (8×${model.dim}), ` +
          `got ${8 * model.dim - 1} numbers`,
      ],
      [
        'nan.json',
        variant((o) => (o.layers[2].bias = [null])),
        'nan.json: field "layers[2].bias" must be an array of 1 finite numbers, got null at position 0',
      ],
      ['in.json', variant((o) => (o.layers[1].in = 9)), 'in.json: field "layers[1].in" must be 8'],
      [
        'groups.json',
        variant((o) => (o.preprocessor.groups[0].min = 'young')),
        'groups.json: field "preprocessor.groups[0].min" must be a finite number',
      ],
    ];
    for (const [name, text, msg] of cases) {
      const file = name === 'missing.json' ? join(dir, name) : write(name, text);
      await assert.rejects(loadModel(engine, file), expectInput(msg.replace(/^[^:]+/, file)));
    }
    await assert.rejects(loadModel(engine, dir), expectInput(`${dir}: is a directory, not a file`));
  });
});
