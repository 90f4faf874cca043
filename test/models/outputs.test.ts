// The built-in model's multiclass classifier and regressor, and what every adapter says it returns: multiclass
// training reaches a stated accuracy on separable data, the softmax cross-entropy gradient matches central
// differences, a regressor recovers a linear slope within 5%, model files of each kind round-trip (a version 1
// binary file still loads; an unknown version is refused), the same seed gives the same bytes, JS modules and ONNX
// models declare their outputs, and every bad output is one E_INPUT line naming the model, the row and the class.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/engine/engine.js';
import { grad, requireGrad } from '../../src/autograd/tape.js';
import { crossEntropy } from '../../src/autograd/ops/index.js';
import type { Column, Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import {
  asModelModule,
  builtinBlackBox,
  checkPredictions,
  columnBlackBox,
  moduleBlackBox,
  onnxBlackBox,
  onnxOutputOf,
  parseModelOutput,
  parseOnnxSidecar,
  type OrtLike,
  type OrtSessionLike,
} from '../../src/models/blackbox.js';
import { MODEL_ADAPTERS, modelOutputsHelp } from '../../src/models/adapters.js';
import { loadBlackBox } from '../../src/node/blackbox.js';
import { loadModel, saveModel, trainOutputOf } from '../../src/node/model-file.js';
import { getEngine, hostRng, rejectsEngineError } from '../helpers/engine.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lucid-outputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let engine: Engine;
before(async () => {
  engine = await getEngine();
});

const num = (name: string, values: ArrayLike<number>): Column => ({
  kind: 'numeric',
  name,
  values: Float64Array.from(values),
});
const cat = (name: string, labels: string[]): Column => {
  const categories = [...new Set(labels)].sort();
  return { kind: 'categorical', name, categories, codes: Int32Array.from(labels, (l) => categories.indexOf(l)) };
};

/** Three classes cut from two uniform features by two lines (separable: a linear model can reach 100%). */
function threeClasses(n: number, seed: number): Table {
  const rnd = hostRng(seed);
  const x1 = Array.from({ length: n }, rnd);
  const x2 = Array.from({ length: n }, rnd);
  const cls = Array.from({ length: n }, (_, i) => (x1[i] > 0.6 ? 'approve' : x2[i] > 0.5 ? 'refer' : 'decline'));
  return { rows: n, columns: [num('x1', x1), num('x2', x2), cat('decision', cls)] };
}

/** y = 2.5·x + 1 + small noise, with a categorical nuisance column. */
function linear(n: number, seed: number): Table {
  const rnd = hostRng(seed);
  const x = Array.from({ length: n }, rnd);
  const e = Array.from({ length: n }, rnd);
  const y = Array.from({ length: n }, (_, i) => 2.5 * (x[i] * 10) + 1 + (e[i] - 0.5) * 0.5);
  const g = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 'a' : 'b'));
  return {
    rows: n,
    columns: [
      num(
        'x',
        Array.from(x, (v) => v * 10),
      ),
      cat('g', g),
      num('y', y),
    ],
  };
}

describe('the built-in multiclass classifier', () => {
  it('reaches at least 95% accuracy on held-out separable data (3 classes, softmax regression)', () => {
    const { model, history } = Classifier.train(engine, threeClasses(3000, 1), {
      label: 'decision',
      output: 'multiclass',
      hidden: [],
      epochs: 150,
      seed: 3,
    });
    try {
      assert.deepEqual(model.classes, ['approve', 'decline', 'refer']);
      assert.deepEqual(model.modelOutput, { kind: 'multiclass', classes: ['approve', 'decline', 'refer'] });
      const ev = model.evaluate(engine, threeClasses(2000, 2));
      assert.ok(ev.accuracy >= 0.95, `held-out accuracy ${ev.accuracy}`);
      assert.ok(history.every((h) => h.valAccuracy >= 0 && h.valAccuracy <= 1 && Number.isFinite(h.valLoss)));
      // probabilities: k per row, each row sums to 1
      const p = model.predictOutput(engine, threeClasses(50, 4));
      assert.equal(p.length, 150);
      for (let i = 0; i < 50; i++) assert.ok(Math.abs(p[i * 3] + p[i * 3 + 1] + p[i * 3 + 2] - 1) < 1e-9);
    } finally {
      model.dispose();
    }
  });

  it('its softmax cross-entropy gradient with respect to the input matches central differences', () => {
    const { model } = Classifier.train(engine, threeClasses(600, 5), {
      label: 'decision',
      output: 'multiclass',
      hidden: [],
      epochs: 5,
      seed: 1,
    });
    try {
      const n = 4;
      const D = model.dim;
      const rnd = hostRng(9);
      const x0 = Float64Array.from({ length: n * D }, () => rnd() * 2 - 1);
      const y = [0, 2, 1, 2];
      const lossAt = (x: Float64Array): number =>
        engine.scope(() => engine.noGrad(() => crossEntropy(model.logits(engine.tensor(x, [n, D])), y).item()));
      const g = engine.scope(() => {
        const x = requireGrad(engine.tensor(x0, [n, D]));
        return Float64Array.from(grad(crossEntropy(model.logits(x), y), [x])[0].data);
      });
      const h = 1e-2;
      for (let j = 0; j < n * D; j++) {
        const up = x0.slice();
        const down = x0.slice();
        up[j] += h;
        down[j] -= h;
        const fd = (lossAt(up) - lossAt(down)) / (2 * h);
        assert.ok(Math.abs(g[j] - fd) <= 2e-3 + 2e-2 * Math.abs(fd), `element ${j}: autograd ${g[j]}, FD ${fd}`);
      }
      // not all zero: the check could not pass on a dead gradient
      assert.ok(g.some((v) => Math.abs(v) > 1e-3));
    } finally {
      model.dispose();
    }
  });
});

describe('the built-in regressor', () => {
  it('recovers a linear relation: the slope within 5% (y = 2.5·x + 1), in the label units', () => {
    const { model, history } = Classifier.train(engine, linear(2000, 1), {
      label: 'y',
      output: 'regression',
      hidden: [],
      epochs: 100,
      seed: 2,
    });
    try {
      assert.equal(model.kind, 'regression');
      assert.ok(history.every((h) => Number.isNaN(h.valAccuracy)));
      const probe: Table = { rows: 2, columns: [num('x', [2, 8]), cat('g', ['b', 'b'])] };
      const [a, b] = model.predictOutput(engine, probe);
      const slope = (b - a) / 6;
      assert.ok(Math.abs(slope / 2.5 - 1) < 0.05, `slope ${slope}`);
      assert.ok(Math.abs(a - 6) < 0.5, `prediction at x = 2: ${a}, expected about 6 (label units)`);
      const ev = model.evaluate(engine, linear(500, 3));
      assert.ok(ev.rmse !== undefined && ev.rmse < 0.5, `rmse ${ev.rmse}`);
    } finally {
      model.dispose();
    }
  });

  it('refuses a categorical label and --positive', () => {
    const t = threeClasses(100, 1);
    assert.throws(
      () => Classifier.train(engine, t, { label: 'decision', output: 'regression', epochs: 1 }),
      /label column "decision" holds labels, not numbers; a regression model needs a numeric label/,
    );
    assert.throws(
      () => Classifier.train(engine, t, { label: 'decision', output: 'multiclass', positive: 'refer', epochs: 1 }),
      /--positive names the class of a binary model; a multiclass model has none/,
    );
  });
});

describe('model files of each kind', () => {
  const kinds = [
    { kind: 'multiclass', table: () => threeClasses(400, 7), label: 'decision' },
    { kind: 'regression', table: () => linear(400, 7), label: 'y' },
    { kind: 'binary', table: () => linear(400, 7), label: 'g' },
  ] as const;
  for (const k of kinds) {
    it(`${k.kind}: train → save → load gives the same predictions, and the same seed the same bytes`, async () => {
      const t = k.table();
      const opts = { label: k.label, output: k.kind, hidden: [8], epochs: 6, seed: 5 };
      const a = Classifier.train(engine, t, opts).model;
      const b = Classifier.train(engine, t, opts).model;
      const file = join(dir, `${k.kind}.json`);
      try {
        assert.equal(JSON.stringify(a.toJSON()), JSON.stringify(b.toJSON()), 'same seed, same bytes');
        await saveModel(file, a);
        const json = JSON.parse(readFileSync(file, 'utf8'));
        assert.equal(json.version, k.kind === 'binary' ? 1 : 2);
        assert.equal(json.output, k.kind === 'binary' ? undefined : k.kind);
        const back = await loadModel(engine, file);
        try {
          assert.equal(back.kind, k.kind);
          assert.deepEqual([...back.predictOutput(engine, t)], [...a.predictOutput(engine, t)]);
          const box = builtinBlackBox(engine, back, file);
          assert.equal(box.output?.kind, k.kind);
          assert.equal(
            box.differentiable,
            back,
            'every built-in kind is differentiable (LUCID inverts towards a target)',
          );
          assert.equal((await box.predict(t)).length, t.rows * (k.kind === 'multiclass' ? 3 : 1));
        } finally {
          back.dispose();
        }
      } finally {
        a.dispose();
        b.dispose();
      }
    });
  }

  it('a version 1 binary file (written before output kinds) loads and writes back the same fields', async () => {
    // a fixture from before model files had a checksum: everything else is written back as it was read
    const file = join(root, 'test/fixtures/onnx/mlp.model.json');
    const m = await loadModel(engine, file, { warn: () => {} });
    try {
      assert.equal(m.kind, 'binary');
      const { checksum: _, ...written } = m.toJSON() as Record<string, unknown>;
      assert.equal(JSON.stringify(written), JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    } finally {
      m.dispose();
    }
  });

  it('an unknown version, an output in a version 1 file and a bad target are one clear line each', () => {
    const t = linear(200, 1);
    const m = Classifier.train(engine, t, { label: 'y', output: 'regression', hidden: [], epochs: 2 }).model;
    try {
      const json = m.toJSON() as Record<string, unknown>;
      const load = (o: object) => () => Classifier.fromJSON(engine, o, 'm.json');
      assert.throws(load({ ...json, version: 3 }), /^EngineError: m\.json: model format version 3 is not supported/);
      assert.throws(load({ ...json, version: 3 }), /reads versions 1 and 2\)$/);
      assert.throws(load({ ...json, version: 1 }), /field "output" belongs to version 2 files/);
      assert.throws(load({ ...json, output: 'score' }), /field "output" must be one of "binary", "multiclass"/);
      assert.throws(load({ ...json, target: { mean: 1, sd: 0 } }), /field "target" must be \{ mean, sd \}/);
    } finally {
      m.dispose();
    }
  });
});

describe('lucid model train: the inferred output', () => {
  it('two values → binary; more → multiclass; many numbers → regression; --positive → binary', () => {
    assert.equal(trainOutputOf(cat('y', ['a', 'b', 'a']), undefined, undefined).kind, 'binary');
    const mc = trainOutputOf(cat('y', ['a', 'b', 'c']), undefined, undefined);
    assert.equal(mc.reason, 'inferred multiclass: the label "y" has 3 values (choose with --output)');
    assert.equal(trainOutputOf(num('y', [1, 2, 3, 4, 5]), undefined, undefined).kind, 'multiclass');
    const many = Array.from({ length: 21 }, (_, i) => i / 2);
    assert.equal(trainOutputOf(num('y', many), undefined, undefined).kind, 'regression');
    assert.equal(trainOutputOf(cat('y', ['a', 'b', 'c']), undefined, 'a').kind, 'binary');
    assert.deepEqual(trainOutputOf(num('y', many), 'multiclass', undefined), {
      kind: 'multiclass',
      reason: 'multiclass, as --output says',
      given: true,
    });
  });
});

describe('what each adapter says it returns', () => {
  it('the adapter table has an output line per kind, and the help lists them', () => {
    for (const a of MODEL_ADAPTERS) assert.ok(a.output.length > 20, a.kind);
    const help = modelOutputsHelp();
    for (const a of MODEL_ADAPTERS) assert.ok(help.includes(a.output), a.kind);
  });

  it('a JS module declares regression or multiclass by an export; without it, binary', async () => {
    const rows: Table = { rows: 2, columns: [num('x', [1, 2])] };
    const reg = asModelModule({ predict: (r: { x: number }[]) => r.map((o) => o.x * 10), output: 'regression' }, 'r');
    assert.deepEqual(reg.output, { kind: 'regression' });
    assert.deepEqual([...(await moduleBlackBox(reg, 'r.mjs').predict(rows))], [10, 20]);
    const classes = ['approve', 'refer', 'decline'];
    const mc = asModelModule(
      { predict: (r: unknown[]) => r.map(() => [0.5, 0.3, 0.2]), output: { kind: 'multiclass', classes } },
      'm',
    );
    const box = moduleBlackBox(mc, 'm.mjs', { batchSize: 1 });
    assert.deepEqual(box.output, { kind: 'multiclass', classes });
    assert.deepEqual([...(await box.predict(rows))], [0.5, 0.3, 0.2, 0.5, 0.3, 0.2]);
    assert.equal(asModelModule({ predict: () => [] }, 'b').output, undefined);
  });

  it('so does a module file loaded in its worker thread', async () => {
    const reg = join(dir, 'reg.mjs');
    writeFileSync(
      reg,
      "export const output = 'regression';\nexport const predict = (rows) => rows.map((r) => r.x * 3);\n",
    );
    const mc = join(dir, 'mc.mjs');
    writeFileSync(
      mc,
      "export const output = { kind: 'multiclass', classes: ['a', 'b'] };\n" +
        'export function predict(rows) { return rows.map((r) => [r.x / 4, 1 - r.x / 4]); }\n',
    );
    const rows: Table = { rows: 2, columns: [num('x', [1, 2])] };
    const r = await loadBlackBox(engine, reg);
    assert.deepEqual(r.output, { kind: 'regression' });
    assert.deepEqual([...(await r.predict(rows))], [3, 6]);
    const m = await loadBlackBox(engine, mc);
    assert.deepEqual(m.output, { kind: 'multiclass', classes: ['a', 'b'] });
    assert.deepEqual([...(await m.predict(rows))], [0.25, 0.75, 0.5, 0.5]);
  });

  it('an ONNX output: K > 2 columns → multiclass (named by the sidecar, else 0 … K−1); outputKind for the rest', () => {
    const base = { format: 'lucid-onnx-input', version: 1, columns: [{ name: 'x', type: 'numeric' }] };
    const sc = (extra: object) => parseOnnxSidecar({ ...base, ...extra }, 's.json');
    assert.deepEqual(onnxOutputOf(sc({}), 1, 'm.onnx'), { kind: 'binary' });
    assert.deepEqual(onnxOutputOf(sc({}), 3, 'm.onnx'), { kind: 'multiclass', classes: ['0', '1', '2'] });
    assert.deepEqual(onnxOutputOf(sc({ classes: ['a', 'b', 'c'] }), 3, 'm.onnx'), {
      kind: 'multiclass',
      classes: ['a', 'b', 'c'],
    });
    assert.deepEqual(onnxOutputOf(sc({ outputColumn: 1 }), 2, 'm.onnx'), { kind: 'binary' });
    assert.deepEqual(onnxOutputOf(sc({ outputKind: 'regression' }), 1, 'm.onnx'), { kind: 'regression' });
    assert.deepEqual(onnxOutputOf(sc({ outputKind: 'score' }), 1, 'm.onnx'), { kind: 'score' });
    assert.throws(
      () => onnxOutputOf(sc({ classes: ['a', 'b'] }), 3, 'm.onnx'),
      /m\.onnx: the sidecar names 2 classes \(a, b\), but the output has 3 columns/,
    );
    assert.throws(() => onnxOutputOf(sc({ outputKind: 'multiclass' }), 1, 'm.onnx'), /one probability per class/);
    assert.throws(() => sc({ outputKind: 'ordinal' }), /s\.json: field "outputKind" must be one of "binary"/);
    assert.throws(() => sc({ outputKind: 'regression', positive: 'yes' }), /field "positive" names the class/);
    assert.throws(() => sc({ outputKind: 'multiclass', positive: 'yes' }), /field "positive" names the class/);
    // K = 2 is scikit-learn's binary export [P(0), P(1)]: binary (predict asks for outputColumn) unless declared
    assert.deepEqual(onnxOutputOf(sc({}), 2, 'm.onnx'), { kind: 'binary' });
    assert.deepEqual(onnxOutputOf(sc({ outputKind: 'multiclass' }), 2, 'm.onnx'), {
      kind: 'multiclass',
      classes: ['0', '1'],
    });
    // a positive class beside an output read as class probabilities: refused, naming both ways out
    assert.throws(
      () => onnxOutputOf(sc({ positive: 'yes' }), 3, 'm.onnx'),
      /^EngineError: m\.onnx: the sidecar names "positive" "yes", but the output has 3 columns, read as a multiclass/,
    );
  });

  it('an ONNX model with a K = 2 output and no outputColumn: predict asks which column holds P(positive)', async () => {
    const { ort, session } = fakeOrt(2, (x) => [1 - x, x]);
    const sc = parseOnnxSidecar(
      { format: 'lucid-onnx-input', version: 1, columns: [{ name: 'x', type: 'numeric' }] },
      's.json',
    );
    const box = onnxBlackBox(ort, session, sc, 'm.onnx', { width: 2 });
    assert.equal(box.output, undefined);
    await rejectsEngineError(() => box.predict({ rows: 1, columns: [num('x', [0.5])] }), 'E_INPUT', [
      /^m\.onnx: output "p" has 2 columns; the sidecar must say which holds P\(positive\) in "outputColumn"/,
    ]);
  });

  /** A fake onnxruntime whose one output is (N, K) from `f` per row. */
  const fakeOrt = (k: number, f: (x: number) => number[]): { ort: OrtLike; session: OrtSessionLike } => {
    const ort: OrtLike = {
      Tensor: class {
        constructor(
          readonly type: string,
          readonly data: Float32Array | Float64Array,
          readonly dims: readonly number[],
        ) {}
      } as unknown as OrtLike['Tensor'],
      InferenceSession: { create: async () => session },
    };
    const session: OrtSessionLike = {
      inputNames: ['x'],
      outputNames: ['p'],
      run: async (feeds) => {
        const t = feeds.x as { data: Float32Array; dims: number[] };
        const out = Array.from(t.data).flatMap(f);
        return { p: { dims: [t.dims[0], k], data: Float32Array.from(out) } };
      },
    };
    return { ort, session };
  };

  it('an ONNX model with K columns predicts N×K class probabilities, and its loader learns K by a probe', async () => {
    const sidecar = { format: 'lucid-onnx-input', version: 1, columns: [{ name: 'x', type: 'numeric' }] };
    const { ort, session } = fakeOrt(3, (x) => [x, (1 - x) / 2, (1 - x) / 2]);
    const sc = parseOnnxSidecar({ ...sidecar, classes: ['lo', 'mid', 'hi'] }, 's.json');
    const box = onnxBlackBox(ort, session, sc, 'm.onnx');
    assert.deepEqual(box.output, { kind: 'multiclass', classes: ['lo', 'mid', 'hi'] });
    const rows: Table = { rows: 2, columns: [num('x', [0.5, 0.25])] };
    const p = await box.predict(rows);
    assert.deepEqual([...p], [0.5, 0.25, 0.25, 0.25, 0.375, 0.375]);
    // from a file, without classes: the probe finds 3 columns
    const file = join(dir, 'm.onnx');
    writeFileSync(file, 'not read by the fake runtime');
    writeFileSync(`${file}.json`, JSON.stringify(sidecar));
    const loaded = await loadBlackBox(engine, file, { importOnnxRuntime: async () => ort });
    assert.deepEqual(loaded.output, { kind: 'multiclass', classes: ['0', '1', '2'] });
    // rows that do not sum to 1: named by the model, the row and the classes
    const bad = fakeOrt(3, (x) => [x, x, x]);
    const badBox = onnxBlackBox(bad.ort, bad.session, sc, 'm.onnx');
    await rejectsEngineError(() => badBox.predict(rows), 'E_INPUT', [
      /^m\.onnx: row 1: the class probabilities \(lo, mid, hi\) sum to 1\.5, not 1 \(within 0\.000001\)/,
    ]);
  });

  it('a column of real values is read as regression when the metrics layer says so', async () => {
    const t: Table = { rows: 2, columns: [num('pred', [120.5, -3])] };
    const box = columnBlackBox(t, 'pred', { kind: 'regression' });
    assert.deepEqual(box.output, { kind: 'regression' });
    assert.deepEqual([...(await box.predict(t))], [120.5, -3]);
    assert.throws(() => columnBlackBox(t, 'pred'), /must be probabilities in \[0, 1\]/);
  });
});

describe('bad outputs are one E_INPUT line naming the model, the row and the class', () => {
  const classes = ['approve', 'refer', 'decline'];
  const mc = { kind: 'multiclass', classes } as const;

  it('a module declaring an unknown output', () => {
    for (const output of ['ordinal', { kind: 'ranking' }, 7])
      assert.throws(
        () => asModelModule({ predict: () => [], output }, 'model.mjs'),
        /^EngineError: model\.mjs: the export "output" must be one of "binary", "score", "multiclass", "regression"/,
      );
    assert.throws(
      () => asModelModule({ predict: () => [], output: { kind: 'multiclass', classes: ['a'] } }, 'model.mjs'),
      /model\.mjs: the export "output": a multiclass output names its classes/,
    );
    assert.throws(() => parseModelOutput({ kind: 'multiclass', classes: ['a', 'a'] }, 'x'), /at least two distinct/);
  });

  it('probabilities that do not sum to 1, a NaN, a value outside [0, 1], a short row', () => {
    const at = (p: unknown, pattern: RegExp) =>
      assert.throws(
        () => checkPredictions(p as number[], 2, 'model.mjs: predict', 10, mc),
        (e: Error) => pattern.test(e.message) && !e.message.includes('\n'),
      );
    at([0.2, 0.3, 0.5, 0.2, 0.3, 0.4], /^model\.mjs: predict: row 12: the class probabilities .* sum to 0\.9/);
    at(
      [
        [0.2, 0.3, 0.5],
        [0.2, Number.NaN, 0.8],
      ],
      /^model\.mjs: predict: row 12, class "refer": the probability is NaN$/,
    );
    at([0.2, 0.3, 0.5, 1.2, -0.2, 0], /^model\.mjs: predict: row 12, class "approve": 1\.2 is not a probability/);
    at([[0.2, 0.8], [1]], /^model\.mjs: predict: row 11 is \[0\.2, 0\.8\]; a multiclass output gives 3/);
    at([0.2, 0.8], /returned 2 predictions for 2 rows \(rows 11–12\); expected 2 rows of 3 class probabilities/);
    at(
      [
        [0.2, 0.3, 0.5],
        [0.2, '0.3', 0.5],
      ],
      /row 12, class "refer": the probability is "0\.3", not a number/,
    );
    // within 1e-6 of 1 passes
    const ok = checkPredictions([0.2, 0.3, 0.5 + 5e-7, 1, 0, 0], 2, 'm', 0, mc);
    assert.equal(ok.length, 6);
  });

  it('a regression or score output: NaN or an infinity, named by row', () => {
    assert.throws(
      () => checkPredictions([1, Number.NaN, 3], 3, 'model.mjs: predict', 0, { kind: 'regression' }),
      /^EngineError: model\.mjs: predict: a regression output must be one finite number per row, but row 2 is not \(row 2 is NaN\)$/,
    );
    assert.throws(
      () => checkPredictions([Infinity, 2], 2, 'scores', 0, { kind: 'score' }),
      /scores: a score output must be one finite number per row, but row 1 is not \(row 1 is Infinity\)/,
    );
    assert.deepEqual([...checkPredictions([-5, 700], 2, 's', 0, { kind: 'score' })], [-5, 700]);
  });
});
