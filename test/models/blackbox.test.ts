// Black-box adapters: the built-in model, a JS module, ONNX and a predictions column give the same
// P(positive) for the same model, and every bad output or file is one clear E_INPUT line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import {
  asModelModule,
  checkPredictions,
  columnBlackBox,
  moduleBlackBox,
  parseOnnxSidecar,
  tableRows,
  type Row,
} from '../../src/models/blackbox.js';
import { importOnnxRuntime, loadBlackBox, modelFileKind, resolveBlackBox } from '../../src/node/blackbox.js';
import { assertClose, getEngine, rejectsEngineError } from '../helpers/engine.js';
import { miniOrt } from '../helpers/mini-onnx.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fx = (name: string) => join(root, 'test/fixtures/onnx', name);
const example = (name: string) => join(root, 'examples', name);
const tmp = mkdtempSync(join(tmpdir(), 'lucid-blackbox-'));
const write = (name: string, text: string): string => {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
};

/** `fn` rejects with an E_INPUT (or `code`) error whose message matches every pattern. */
const rejects = (fn: () => unknown, patterns: RegExp[], code = 'E_INPUT') => rejectsEngineError(fn, code, patterns);

let data: Promise<Table> | null = null;
/** Simulator rows the fixtures were not trained on (they used seed 4). */
function table(): Promise<Table> {
  data ??= getEngine().then((e) => simulate(new Rng(e, 11), { n: 2000, bias: 'proxy' }).table);
  return data;
}

let ortReal: Promise<unknown | null> | null = null;
/** onnxruntime-node or onnxruntime-web when installed, else null (the tests then use the reference evaluator only). */
function realOrt(): Promise<unknown | null> {
  ortReal ??= importOnnxRuntime('probe').catch(() => null);
  return ortReal;
}

// --- checkPredictions -------------------------------------------------------------------------

test('checkPredictions: accepts arrays and typed arrays of probabilities, returns a Float64Array copy', () => {
  const a = [0, 0.25, 1];
  const p = checkPredictions(a, 3, 'm');
  assert.ok(p instanceof Float64Array);
  assert.deepEqual([...p], a);
  const f = new Float32Array([0.5, 0.75]);
  const q = checkPredictions(f, 2, 'm');
  assert.notEqual(q.buffer, f.buffer);
  assert.deepEqual([...q], [0.5, 0.75]);
});

test('checkPredictions: wrong length, NaN and out-of-range values name the rows', async () => {
  await rejects(() => checkPredictions([0.1, 0.2], 3, 'model.mjs'), [/^model\.mjs: returned 2 predictions for 3 rows/]);
  await rejects(() => checkPredictions([0.1, NaN, 0.3], 3, 'm'), [/^m: the prediction is NaN at row 2$/]);
  const p = new Float64Array(100).fill(0.5);
  for (const i of [3, 9, 20, 21, 40, 41, 77]) p[i] = NaN;
  await rejects(() => checkPredictions(p, 100, 'm'), [/NaN at rows 4, 10, 21, 22, 41, … \(7 rows in all\)/]);
  await rejects(
    () => checkPredictions([0.5, 1.5, -0.1, 2], 4, 'm'),
    [/rows 2, 3, 4 \(3 rows in all\) are outside \(row 2 is 1.5\)/, /scores or logits: apply a sigmoid/],
  );
  await rejects(() => checkPredictions([0.5, Infinity], 2, 'm'), [/row 2 is outside \(row 2 is Infinity\)/]);
  // offset: a batch that starts at row 101
  await rejects(() => checkPredictions([0.5, 7], 2, 'm', 100), [/row 102 is outside/]);
  await rejects(() => checkPredictions([0.5], 2, 'm', 100), [/\(rows 101–102\)/]);
});

test('checkPredictions: non-arrays, non-numbers and [p0, p1] pairs are explained', async () => {
  await rejects(
    () => checkPredictions(undefined as unknown as number[], 2, 'm'),
    [/expected an array of 2 probabilities, got undefined/],
  );
  await rejects(
    () => checkPredictions({ probabilities: [0.1] } as unknown as number[], 1, 'm'),
    [/not an object holding it/],
  );
  await rejects(
    () => checkPredictions(['0.3', 0.2] as unknown as number[], 2, 'm'),
    [/row 1 is not \(row 1 is "0.3"\)/],
  );
  await rejects(
    () =>
      checkPredictions(
        [
          [0.7, 0.3],
          [0.4, 0.6],
        ] as unknown as number[],
        2,
        'm',
      ),
    [/rows 1, 2 \(2 rows in all\) are not/, /rows\.map\(r => r\[1\]\)/],
  );
});

// --- adapters agree with the built-in model they were exported from ----------------------------

test('built-in model file → kind builtin, differentiable, its features', async () => {
  const engine = await getEngine();
  const m = await loadBlackBox(engine, fx('logistic.model.json'));
  assert.equal(m.kind, 'builtin');
  assert.ok(m.differentiable);
  assert.deepEqual(m.features, [
    'age',
    'sex',
    'group',
    'neighbourhood',
    'education',
    'hours_per_week',
    'income',
    'debt_ratio',
  ]);
  const p = await m.predict(await table());
  assert.equal(p.length, 2000);
});

test('the JS module example predicts what the built-in model it was exported from predicts (1e-6)', async () => {
  const engine = await getEngine();
  const t = await table();
  const builtin = await (await loadBlackBox(engine, fx('logistic.model.json'))).predict(t);
  const js = await loadBlackBox(engine, example('logistic-model.mjs'));
  assert.equal(js.kind, 'module');
  assert.equal(js.differentiable, undefined);
  assertClose(await js.predict(t), builtin, 1e-6, 0, 'module vs built-in');
});

for (const name of ['logistic', 'mlp']) {
  test(`ONNX (${name}, reference evaluator): same predictions as the built-in model (1e-6)`, async () => {
    const engine = await getEngine();
    const t = await table();
    const builtin = await (await loadBlackBox(engine, fx(`${name}.model.json`))).predict(t);
    const onnx = await loadBlackBox(engine, fx(`${name}.onnx`), { importOnnxRuntime: async () => miniOrt });
    assert.equal(onnx.kind, 'onnx');
    assert.deepEqual(
      [...onnx.features!].sort(),
      [...(await loadBlackBox(engine, fx(`${name}.model.json`))).features!].sort(),
    );
    assertClose(await onnx.predict(t), builtin, 1e-6, 0, 'onnx (reference evaluator) vs built-in');
  });

  test(`ONNX (${name}, onnxruntime): same predictions as the built-in model (1e-6)`, async (ctx) => {
    if (!(await realOrt()))
      return ctx.skip(
        'neither onnxruntime-node nor onnxruntime-web is installed (optional); the reference evaluator test covers ' +
          'the files',
      );
    const engine = await getEngine();
    const t = await table();
    const builtin = await (await loadBlackBox(engine, fx(`${name}.model.json`))).predict(t);
    const onnx = await loadBlackBox(engine, fx(`${name}.onnx`));
    assertClose(await onnx.predict(t), builtin, 1e-6, 0, 'onnx vs built-in');
  });
}

test("a predictions column gives its values; the built-in model's predictions round-trip through one", async () => {
  const engine = await getEngine();
  const t = await table();
  const p = await (await loadBlackBox(engine, fx('logistic.model.json'))).predict(t);
  const withPred: Table = { rows: t.rows, columns: [...t.columns, { kind: 'numeric', name: 'pred', values: p }] };
  const col = await resolveBlackBox(engine, { pred: 'pred' }, withPred);
  assert.equal(col.kind, 'column');
  assert.ok(!col.features!.includes('pred'));
  assert.deepEqual(await col.predict(withPred), p);
});

// --- predictions column errors ----------------------------------------------------------------

test('predictions column: a bad value, labels, a missing column, and option combinations', async () => {
  const engine = await getEngine();
  const values = Float64Array.from([0.1, 0.9, 1.2, 0.4, NaN]);
  const t: Table = { rows: 5, columns: [{ kind: 'numeric', name: 'score', values }] };
  await rejects(() => columnBlackBox(t, 'score'), [/^predictions column "score": the prediction is NaN at row 5$/]);
  values[4] = 0.5;
  await rejects(
    () => columnBlackBox(t, 'score'),
    [
      /^predictions column "score": predictions must be probabilities in \[0, 1\], but row 3 is outside \(row 3 is 1.2\)$/,
    ],
  );
  const labels: Table = {
    rows: 2,
    columns: [{ kind: 'categorical', name: 'score', codes: Int32Array.from([0, 1]), categories: ['no', 'yes'] }],
  };
  await rejects(() => columnBlackBox(labels, 'score'), [/holds labels \("no", "yes"\), not numbers/]);
  // a misspelt column is a usage error (exit 2), as in every command
  await rejects(() => columnBlackBox(t, 'nope'), [/--pred "nope" is not a column; the columns are: score/], 'E_ARG');
  await rejects(
    () => resolveBlackBox(engine, { model: 'm.json', pred: 'score' }, t),
    [/either --model .* or --pred/],
    'E_ARG',
  );
  await rejects(() => resolveBlackBox(engine, {}, t), [/no model: give --model/], 'E_ARG');
});

// --- module errors ----------------------------------------------------------------------------

test('module: rows are plain objects (numbers and labels), only the exported features; sync or async', async () => {
  const t = await table();
  const rows = tableRows(t, undefined, 0, 2);
  assert.equal(typeof rows[0].age, 'number');
  assert.ok(['Female', 'Male'].includes(rows[0].sex as string));
  const seen: Row[][] = [];
  const m = moduleBlackBox(
    asModelModule(
      {
        features: ['income', 'sex'],
        predict: async (r: Row[]) => {
          seen.push(r);
          return r.map(() => 0.5);
        },
      },
      'm.mjs',
    ),
    'm.mjs',
    { batchSize: 700 },
  );
  assert.deepEqual(m.features, ['income', 'sex']);
  const p = await m.predict(t);
  assert.equal(p.length, 2000);
  assert.deepEqual(
    seen.map((b) => b.length),
    [700, 700, 600],
  );
  assert.deepEqual(Object.keys(seen[0][0]), ['income', 'sex']);
  // CommonJS-style default export
  const cjs = asModelModule({ default: { predict: (r: Row[]) => new Float32Array(r.length) } }, 'm.cjs');
  assert.equal((await moduleBlackBox(cjs, 'm.cjs').predict(t)).length, 2000);
  // the tree-ensemble example is async and reads only its features
  const tree = await loadBlackBox(await getEngine(), example('tree-ensemble.mjs'));
  const q = await tree.predict(t);
  assert.ok(q.every((v) => v > 0 && v < 1));
});

test('module: missing file, no predict export, a throwing predict, wrong output, bad files', async () => {
  const engine = await getEngine();
  const t = await table();
  await rejects(() => loadBlackBox(engine, join(tmp, 'absent.mjs')), [/absent\.mjs: model module not found$/]);
  const noPredict = write('no-predict.mjs', 'export const score = 1;\nexport function fit() {}\n');
  await rejects(
    () => loadBlackBox(engine, noPredict),
    [/no-predict\.mjs: the module does not export a function "predict" \(its exports: fit, score\)/],
  );
  const throws = write('throws.mjs', 'export function predict(rows) { throw new Error("weights not loaded"); }\n');
  const m = await loadBlackBox(engine, throws);
  await rejects(() => m.predict(t), [/throws\.mjs: predict threw: weights not loaded$/]);
  const short = write('short.mjs', 'export const predict = (rows) => rows.slice(1).map(() => 0.5);\n');
  await rejects(
    async () => (await loadBlackBox(engine, short)).predict(t),
    [/short\.mjs: predict: returned 1999 predictions for 2000 rows/],
  );
  const nan = write(
    'nan.mjs',
    'export const predict = async (rows) => rows.map((r, i) => (i % 100 === 7 ? NaN : 0.5));\n',
  );
  await rejects(
    async () => (await loadBlackBox(engine, nan)).predict(t),
    [/nan\.mjs: predict: the prediction is NaN at rows 8, 108, 208, 308, 408, … \(20 rows in all\)/],
  );
  const logits = write('logits.mjs', 'export const predict = (rows) => rows.map((r) => r.income / 10 - 4);\n');
  await rejects(
    async () => (await loadBlackBox(engine, logits)).predict(t),
    [/logits\.mjs: predict: predictions must be probabilities in \[0, 1\], but rows \d+/, /apply a sigmoid/],
  );
  const pairs = write('pairs.mjs', 'export const predict = (rows) => rows.map(() => [0.4, 0.6]);\n');
  await rejects(async () => (await loadBlackBox(engine, pairs)).predict(t), [/rows\.map\(r => r\[1\]\)/]);
  const syntax = write('syntax.mjs', 'export function predict(rows) { return rows.map(( }\n');
  await rejects(() => loadBlackBox(engine, syntax), [/syntax\.mjs: cannot load the module: SyntaxError/]);
  const badFeatures = write(
    'features.mjs',
    'export const features = "age";\nexport const predict = (r) => r.map(() => 0.5);\n',
  );
  await rejects(
    () => loadBlackBox(engine, badFeatures),
    [/features\.mjs: the export "features" must be a non-empty array/],
  );
  const lacks = write(
    'lacks.mjs',
    'export const features = ["salary"];\nexport const predict = (r) => r.map(() => 0.5);\n',
  );
  await rejects(
    async () => (await loadBlackBox(engine, lacks)).predict(t),
    [/lacks\.mjs: the data lacks the column "salary"; the columns are: age, /],
  );
  const ts = write('model.ts', 'export function predict(rows: unknown[]): number[] { return rows.map(() => 0.5); }\n');
  await rejects(() => loadBlackBox(engine, ts), [/model\.ts: Node cannot import TypeScript directly/]);
  await rejects(() => loadBlackBox(engine, 'model.pkl'), [/model\.pkl: unknown kind of model \(extension "\.pkl"\)/]);
  assert.equal(modelFileKind('a/b/Model.ONNX'), 'onnx');
  await rejects(
    () => loadBlackBox(engine, fx('logistic.onnx.json')),
    [/logistic\.onnx\.json: is the sidecar of an ONNX model; give the \.onnx file/],
  );
  await rejects(() => loadBlackBox(engine, join(tmp, 'absent.json')), [/absent\.json: model file not found$/]);
});

test('module: a throw in a later batch names its rows', async () => {
  const t = await table();
  let calls = 0;
  const m = moduleBlackBox(
    asModelModule(
      {
        predict: (r: Row[]) => {
          if (++calls === 2) throw new Error('timeout');
          return r.map(() => 0.5);
        },
      },
      'api.mjs',
    ),
    'api.mjs',
    { batchSize: 1500 },
  );
  await rejects(() => m.predict(t), [/^api\.mjs: predict threw \(rows 1501–2000\): timeout$/]);
});

// --- ONNX errors ------------------------------------------------------------------------------

test('ONNX: a missing runtime gives the install message (injected loader, and the real one when absent)', async () => {
  const engine = await getEngine();
  const missing = async () => {
    throw Object.assign(
      new Error("Cannot find package 'onnxruntime-node' imported from /x/dist/src/node/blackbox.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  };
  await rejects(
    () => loadBlackBox(engine, fx('logistic.onnx'), { importOnnxRuntime: missing }),
    [
      /logistic\.onnx: ONNX models run on the optional package onnxruntime-node \(or onnxruntime-web\), and neither is installed; install one with "npm install onnxruntime-web" or "npm install onnxruntime-node"/,
    ],
  );
  const broken = async () => {
    throw new Error('libonnxruntime.so.1: cannot open shared object file');
  };
  await rejects(
    () => loadBlackBox(engine, fx('logistic.onnx'), { importOnnxRuntime: broken }),
    [/onnxruntime-node is installed but failed to load: libonnxruntime/],
  );
  await rejects(
    () => loadBlackBox(engine, fx('logistic.onnx'), { importOnnxRuntime: async () => ({ version: 1 }) }),
    [/does not provide InferenceSession/],
  );
  if (!(await realOrt()))
    await rejects(() => loadBlackBox(engine, fx('logistic.onnx')), [/neither is installed; install one with/]);
});

test('ONNX: missing or corrupt sidecar, bad fields, a corrupt model, unmapped data', async () => {
  const engine = await getEngine();
  const t = await table();
  const mini = { importOnnxRuntime: async () => miniOrt };
  const onnxBytes = new Uint8Array(readFileSync(fx('logistic.onnx')));
  const alone = write('alone.onnx', '');
  writeFileSync(alone, onnxBytes);
  await rejects(
    () => loadBlackBox(engine, alone, mini),
    [/alone\.onnx\.json: sidecar not found; an ONNX model needs a JSON file next to it/],
  );
  const model = join(tmp, 'm.onnx');
  writeFileSync(model, onnxBytes);
  write('m.onnx.json', '{"format": "lucid-onnx-input", ');
  await rejects(() => loadBlackBox(engine, model, mini), [/m\.onnx\.json: the sidecar is not valid JSON/]);
  const good = JSON.parse(readFileSync(fx('logistic.onnx.json'), 'utf8'));
  const variants: [object, RegExp][] = [
    [{ ...good, format: 'x' }, /field "format" must be "lucid-onnx-input"/],
    [{ ...good, version: 2 }, /field "version" must be 1/],
    [{ ...good, columns: [] }, /field "columns" must be a non-empty array/],
    [
      { ...good, columns: [{ name: 'age', type: 'log' }] },
      /field "columns\[0\]\.type" must be "numeric", "onehot" or "ordinal"/,
    ],
    [
      { ...good, columns: [{ name: 'sex', type: 'onehot', categories: ['F', 'F'] }] },
      /field "columns\[0\]\.categories" repeats a label/,
    ],
    [
      { ...good, columns: [{ name: 'age', type: 'numeric', scale: 'x' }] },
      /field "columns\[0\]\.scale" must be a finite number/,
    ],
    [{ ...good, dtype: 'int8' }, /field "dtype" must be "float32" or "float64"/],
  ];
  for (const [obj, re] of variants) {
    await rejects(() => parseOnnxSidecar(obj, 'sc.json'), [new RegExp(`^sc\\.json: ${re.source}`)]);
  }
  write('m.onnx.json', JSON.stringify({ ...good, input: 'features' }));
  await rejects(
    () => loadBlackBox(engine, model, mini),
    [/m\.onnx: the sidecar's input "features" is not an input of the model \(its inputs: x\)/],
  );
  write('m.onnx.json', JSON.stringify({ ...good, output: 'label' }));
  await rejects(
    () => loadBlackBox(engine, model, mini),
    [/m\.onnx: the sidecar's output "label" is not an output of the model \(its outputs: p\)/],
  );
  // a sidecar mapping a column the data lacks, and a category the sidecar does not know
  write(
    'm.onnx.json',
    JSON.stringify({
      ...good,
      columns: good.columns.map((c: { name: string }) => (c.name === 'income' ? { ...c, name: 'salary' } : c)),
    }),
  );
  await rejects(
    async () => (await loadBlackBox(engine, model, mini)).predict(t),
    [/m\.onnx: the data lacks the column "salary" the sidecar maps/],
  );
  write(
    'm.onnx.json',
    JSON.stringify({
      ...good,
      columns: good.columns.map((c: { name: string; categories?: string[] }) =>
        c.name === 'sex' ? { ...c, categories: ['Female'] } : c,
      ),
    }),
  );
  await rejects(
    async () => (await loadBlackBox(engine, model, mini)).predict(t),
    [/column "sex", row \d+: category "Male" is not in the sidecar's categories \(Female\)/],
  );
  // the sidecar's width disagrees with the model's input (the runtime's error, wrapped)
  write('m.onnx.json', JSON.stringify({ ...good, columns: good.columns.slice(1) }));
  await rejects(
    async () => (await loadBlackBox(engine, model, mini)).predict(t),
    [/m\.onnx: onnxruntime failed to run the model on 2000 rows of 18 inputs/],
  );
  const corrupt = write('corrupt.onnx', 'not a protobuf');
  write('corrupt.onnx.json', JSON.stringify(good));
  await rejects(() => loadBlackBox(engine, corrupt, mini), [/corrupt\.onnx: onnxruntime cannot load the model/]);
  if (await realOrt())
    await rejects(() => loadBlackBox(engine, corrupt), [/corrupt\.onnx: onnxruntime cannot load the model/]);
});

test(
  'ONNX adapter: ordinal and numeric-as-label columns, ' + 'float64 input, an (N, 2) output with outputColumn',
  async () => {
    const t: Table = {
      rows: 3,
      columns: [
        {
          kind: 'categorical',
          name: 'edu',
          codes: Int32Array.from([2, 0, 1]),
          categories: ['Master', 'Secondary', 'Bachelor'],
        },
        { kind: 'numeric', name: 'kids', values: Float64Array.from([0, 2, 1]) },
        { kind: 'numeric', name: 'x', values: Float64Array.from([10, 20, 30]) },
      ],
    };
    const sc = parseOnnxSidecar(
      {
        format: 'lucid-onnx-input',
        version: 1,
        dtype: 'float64',
        outputColumn: 1,
        columns: [
          { name: 'edu', type: 'ordinal', categories: ['Secondary', 'Bachelor', 'Master'] },
          { name: 'kids', type: 'onehot', categories: ['0', '1', '2'] },
          { name: 'x', type: 'numeric', scale: 0.01 },
        ],
      },
      'sc.json',
    );
    assert.equal(sc.width, 5);
    let fed: { type: string; data: Float64Array; dims: number[] } | null = null;
    const session = {
      inputNames: ['in'],
      outputNames: ['probabilities', 'label'],
      async run(feeds: Record<string, unknown>) {
        fed = feeds.in as typeof fed;
        const n = fed!.dims[0];
        // column 1 = the numeric input (x · 0.01), column 0 its complement
        const data = new Float32Array(2 * n);
        for (let i = 0; i < n; i++) [data[2 * i], data[2 * i + 1]] = [1 - fed!.data[i * 5 + 4], fed!.data[i * 5 + 4]];
        return {
          probabilities: { dims: [n, 2], data },
          label: { dims: [n], data: BigInt64Array.from({ length: n }, () => 2n) },
        };
      },
    };
    const { onnxBlackBox } = await import('../../src/models/blackbox.js');
    const m = onnxBlackBox(miniOrt, session, sc, 'm.onnx', { batchSize: 2 });
    const p = await m.predict(t);
    assertClose(p, [0.1, 0.2, 0.3], 1e-7, 0, 'probabilities column 1');
    assert.equal(fed!.type, 'float64');
    // the last batch: row 3 (Secondary = 0, kids 1 → [0, 1, 0], 30 · 0.01)
    assert.deepEqual([...fed!.data], [0, 0, 1, 0, 0.3]);
    const noColumn = onnxBlackBox(miniOrt, session, { ...sc, outputColumn: undefined }, 'm.onnx');
    await rejects(
      () => noColumn.predict(t),
      [/output "probabilities" has 2 columns; the sidecar must say which holds P\(positive\) in "outputColumn"/],
    );
    const labelOut = onnxBlackBox(miniOrt, session, { ...sc, output: 'label' }, 'm.onnx');
    await rejects(
      () => labelOut.predict(t),
      [
        /^m\.onnx: predictions must be probabilities in \[0, 1\], but rows 1, 2, 3 \(3 rows in all\) are outside \(row 1 is 2\)$/,
      ],
    );
    assert.throws(
      () => onnxBlackBox(miniOrt, { ...session, inputNames: ['a', 'b'] }, sc, 'm.onnx'),
      /the model has 2 inputs \(a, b\); the sidecar must name one in "input"/,
    );
  },
);
