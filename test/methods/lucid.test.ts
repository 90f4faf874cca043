// LUCID (src/methods/lucid): planted preferences recovered, input gradients against float64 central
// differences, the per-sample SGD path independent of N, the reference's logging semantics, both
// loss modes, the constraints, argument errors, and the CLI end to end.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { contentChecksum } from '../../src/models/checksum.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { writeCsv } from '../../src/node/csv.js';
import { inputGradient, invert, preferProbability } from '../../src/methods/lucid/invert.js';
import { requireDifferentiable, resolvePreference } from '../../src/methods/lucid/model.js';
import { projectSimplex, snapOneHot } from '../../src/methods/lucid/project.js';
import { getEngine, hostRng } from '../helpers/engine.js';

// ── A model with a planted preference, written as a model file ────────────────────────────────────
// Features age, colour, hours, sex → encoded [age, hours, colour+blue, +green, +red, +yellow, sex+F, sex+M] (D = 8).
const COLOURS = ['blue', 'green', 'red', 'yellow'];
const D = 8;
const preprocessorJson = {
  features: ['age', 'colour', 'hours', 'sex'],
  groups: [
    { name: 'age', kind: 'numeric', start: 0, width: 1, min: 18, max: 80, decimals: 0 },
    { name: 'hours', kind: 'numeric', start: 1, width: 1, min: 10, max: 60, decimals: 0 },
    { name: 'colour', kind: 'categorical', start: 2, width: 4, categories: COLOURS },
    { name: 'sex', kind: 'categorical', start: 6, width: 2, categories: ['F', 'M'] },
  ],
};

interface Layer {
  weight: number[];
  bias: number[];
}

function modelJson(hidden: number[], layers: Layer[]) {
  const sizes = [D, ...hidden, 1];
  return {
    format: 'lucid-wasm/classifier',
    version: 1,
    label: 'outcome',
    positive: 'good',
    classes: ['bad', 'good'],
    hidden,
    preprocessor: preprocessorJson,
    layers: layers.map((l, i) => ({ in: sizes[i], out: sizes[i + 1], weight: l.weight, bias: l.bias })),
  };
}

// Logistic: green +2, every other colour −2, and a bias of −8 so that every start has far to go;
// age and hours matter a little. ‖w‖² ≈ 16 is enough for P ≥ 0.99 within 200 steps of lr 0.1.
const LOGISTIC: Layer[] = [{ weight: [0.3, -0.2, -2, 2, -2, -2, -0.25, 0.25], bias: [-8] }];
// The mirror image (bias +8): preferring "bad" has far to go.
const LOGISTIC_UP: Layer[] = [{ weight: LOGISTIC[0].weight, bias: [8] }];
// ReLU MLP, hidden [3]: unit 0 reads the colour (biased to stay active), unit 1 age, unit 2 hours and sex.
const MLP: Layer[] = [
  {
    weight: [0, 0, -2, 2, -2, -2, 0, 0, 0.8, 0, 0, 0, 0, 0, 0, 0, 0, -0.6, 0, 0, 0, 0, 0.3, -0.3],
    bias: [8.5, 0.5, 0.5],
  },
  { weight: [1, 0.4, 0.3], bias: [-16.5] },
];

/** Float64 forward of a model file's network: the logit of P(positive) for one encoded row. */
function hostLogit(layers: Layer[], x: ArrayLike<number>): number {
  let h = Array.from(x);
  layers.forEach((l, k) => {
    const nIn = h.length;
    const nOut = l.bias.length;
    const out = new Array<number>(nOut);
    for (let o = 0; o < nOut; o++) {
      let s = l.bias[o];
      for (let i = 0; i < nIn; i++) s += l.weight[o * nIn + i] * h[i];
      out[o] = k + 1 < layers.length ? Math.max(s, 0) : s;
    }
    h = out;
  });
  return h[0];
}

const softplus = (v: number) => (v > 0 ? v + Math.log1p(Math.exp(-v)) : Math.log1p(Math.exp(v)));
const sig = (v: number) => 1 / (1 + Math.exp(-v));
/** The per-sample loss of the reference (prob-ce) or the clean variant (logit-ce), in float64. */
function hostLoss(z: number, positive: boolean, loss: 'prob-ce' | 'logit-ce'): number {
  const s = positive ? z : -z;
  return loss === 'logit-ce' ? softplus(-s) : softplus(1 - 2 * sig(s));
}

const codesOf = (t: Table, name: string) => {
  const c = t.columns.find((col) => col.name === name);
  assert.ok(c && c.kind === 'categorical', `column ${name}`);
  return c;
};
const share = (values: ArrayLike<number>, f: (v: number) => boolean) =>
  Array.from(values).filter(f).length / values.length;

let engine: Engine;
let logistic: Classifier;
let logisticUp: Classifier;
let mlp: Classifier;
before(async () => {
  engine = await getEngine();
  logistic = Classifier.fromJSON(engine, modelJson([], LOGISTIC), 'logistic');
  logisticUp = Classifier.fromJSON(engine, modelJson([], LOGISTIC_UP), 'logistic (bias +8)');
  mlp = Classifier.fromJSON(engine, modelJson([3], MLP), 'mlp');
});
after(() => {
  logistic.dispose();
  logisticUp.dispose();
  mlp.dispose();
});

describe('LUCID: planted preference', () => {
  for (const [name, get] of [
    ['logistic', () => logistic],
    ['ReLU MLP', () => mlp],
  ] as const) {
    it(`${name}, logit-ce: the preferred category in ≥ 95% of canonical rows, P(prefer) ≥ 0.99 on ≥ 95%`, () => {
      const r = invert(engine, get(), { prefer: 'good', n: 1000, loss: 'logit-ce', seed: 3 });
      const colour = codesOf(r.table, 'colour');
      assert.deepEqual(colour.categories, COLOURS);
      const green = share(colour.codes, (c) => c === 1);
      assert.ok(green >= 0.95, `green in ${(100 * green).toFixed(1)}% of rows`);
      const high = share(r.pred, (p) => p >= 0.99);
      assert.ok(high >= 0.95, `P ≥ 0.99 in ${(100 * high).toFixed(1)}% of rows`);
      // the table: decoded features in feature order, then pred and pred_snapped
      assert.deepEqual(
        r.table.columns.map((c) => c.name),
        ['age', 'colour', 'hours', 'sex', 'pred', 'pred_snapped'],
      );
      assert.equal(r.table.rows, 1000);
      // the uniform start covers every colour about equally: the method moved them
      const start = invert(engine, get(), { prefer: 'good', n: 1000, seed: 3, epochs: 1, lr: 1e-9 });
      assert.ok(share(codesOf(start.table, 'colour').codes, (c) => c === 1) < 0.3);
    });
  }

  it(
    "prob-ce (the reference's double softmax) reaches the preferred class too, but stalls where the model is " +
      'saturated',
    () => {
      // From a moderate start (bias −2) it finds green almost everywhere ...
      const mild = Classifier.fromJSON(
        engine,
        modelJson([], [{ weight: LOGISTIC[0].weight, bias: [-2] }]),
        'logistic (bias −2)',
      );
      try {
        const r = invert(engine, mild, { prefer: 'good', n: 1000, loss: 'prob-ce', seed: 3 });
        const green = share(codesOf(r.table, 'colour').codes, (c) => c === 1);
        assert.ok(green >= 0.9, `green in ${(100 * green).toFixed(1)}% of rows`);
        assert.ok(share(r.pred, (p) => p >= 0.5) >= 0.95);
        const l = invert(engine, mild, { prefer: 'good', n: 1000, loss: 'logit-ce', seed: 3 });
        assert.ok(share(codesOf(l.table, 'colour').codes, (c) => c === 1) >= 0.95);
      } finally {
        mild.dispose();
      }
      // ... but its gradient carries p(1 − p): a start deep in the other class (bias −8) barely moves,
      // where logit-ce (previous tests) reaches P ≥ 0.99 from the same starts.
      const r = invert(engine, logistic, { prefer: 'good', n: 1000, loss: 'prob-ce', seed: 3 });
      assert.ok(share(codesOf(r.table, 'colour').codes, (c) => c === 1) < 0.6);
      // the loss never falls below softplus(−1) ≈ 0.3133 (its minimum at p = 1)
      assert.ok(r.loss.every((v) => v > 0.3132));
    },
  );

  it('preferring the other class moves away from the planted category', () => {
    const r = invert(engine, logisticUp, { prefer: 'bad', n: 400, loss: 'logit-ce', seed: 4 });
    assert.equal(r.preference.positive, false);
    assert.ok(share(codesOf(r.table, 'colour').codes, (c) => c === 1) <= 0.05);
    assert.ok(share(r.pred, (p) => p >= 0.99) >= 0.95, 'P(bad) is high');
    // pred is P(prefer): the complement of the model's P(positive)
    const pPos = logisticUp.probaEncoded(engine, r.encoded, r.n);
    for (let i = 0; i < r.n; i++) assert.ok(Math.abs(r.pred[i] - (1 - pPos[i])) < 1e-6);
  });

  it('numerics come back in original units and follow the weights (age up, hours down)', () => {
    const r = invert(engine, logistic, { prefer: 'good', n: 200, loss: 'logit-ce', seed: 5 });
    const age = r.table.columns[0];
    assert.ok(age.kind === 'numeric');
    for (let i = 0; i < r.n; i++) assert.ok(Math.abs(age.values[i] - (18 + ((r.encoded[i * D] + 1) / 2) * 62)) < 1e-3);
    const start = invert(engine, logistic, { prefer: 'good', n: 200, seed: 5, epochs: 1, lr: 1e-9 });
    let up = 0;
    let down = 0;
    for (let i = 0; i < r.n; i++) {
      up += r.encoded[i * D] > start.encoded[i * D] ? 1 : 0;
      down += r.encoded[i * D + 1] < start.encoded[i * D + 1] ? 1 : 0;
    }
    assert.equal(up, r.n);
    assert.equal(down, r.n);
  });
});

describe('LUCID: gradients and the update rule', () => {
  for (const [name, layers, get] of [
    ['logistic', LOGISTIC, () => logistic],
    ['ReLU MLP', MLP, () => mlp],
  ] as const) {
    for (const loss of ['prob-ce', 'logit-ce'] as const) {
      for (const prefer of ['good', 'bad']) {
        it(`${name}, ${loss}, prefer ${prefer}: input gradient = float64 central differences`, () => {
          const rnd = hostRng(11);
          const n = 12;
          const x = Float32Array.from({ length: n * D }, () => 2 * rnd() - 1);
          const { loss: total, grad } = inputGradient(engine, get(), x, n, prefer, loss);
          const positive = prefer === 'good';
          let hostTotal = 0;
          const h = 1e-5;
          for (let i = 0; i < n; i++) {
            const row = Array.from(x.subarray(i * D, (i + 1) * D), Number);
            hostTotal += hostLoss(hostLogit(layers, row), positive, loss);
            for (let j = 0; j < D; j++) {
              const plus = row.slice();
              const minus = row.slice();
              plus[j] += h;
              minus[j] -= h;
              const fd =
                (hostLoss(hostLogit(layers, plus), positive, loss) -
                  hostLoss(hostLogit(layers, minus), positive, loss)) /
                (2 * h);
              const g = grad[i * D + j];
              assert.ok(
                Math.abs(g - fd) <= 1e-5 + 1e-3 * Math.abs(fd),
                `row ${i}, input ${j}: autodiff ${g}, central difference ${fd}`,
              );
            }
          }
          assert.ok(Math.abs(total - hostTotal) < 1e-4 * Math.max(1, hostTotal), `loss ${total} vs ${hostTotal}`);
        });
      }
    }
  }

  it('each sample follows plain per-sample SGD, x ← x − lr·∇ℓ(x), whatever N (sum, not mean)', () => {
    const epochs = 30;
    const lr = 0.25;
    const one = invert(engine, mlp, { prefer: 'good', n: 1, epochs, lr, seed: 9, traceEvery: 1 });
    const many = invert(engine, mlp, { prefer: 'good', n: 50, epochs, lr, seed: 9, traceEvery: 1 });
    // the seeded start of row 0 is the same for every N, and so is its whole trajectory
    const L = epochs + 1;
    for (let e = 0; e < L; e++) {
      for (let j = 0; j < D; j++) {
        const a = one.trace!.encoded[e * D + j];
        const b = many.trace!.encoded[e * D + j];
        assert.ok(Math.abs(a - b) <= 1e-6, `epoch ${e + 1}, input ${j}: alone ${a}, in a batch of 50 ${b}`);
      }
    }
    for (let j = 0; j < D; j++) assert.ok(Math.abs(one.encoded[j] - many.encoded[j]) <= 1e-6);
    // and it is the float64 per-sample SGD of the reference (batch size 1), from the same start
    const x = Array.from(one.trace!.encoded.subarray(0, D), Number);
    for (let e = 0; e < epochs; e++) {
      const g = x.map((_, j) => {
        const p = x.slice();
        const m = x.slice();
        p[j] += 1e-6;
        m[j] -= 1e-6;
        return (hostLoss(hostLogit(MLP, p), true, 'prob-ce') - hostLoss(hostLogit(MLP, m), true, 'prob-ce')) / 2e-6;
      });
      for (let j = 0; j < D; j++) x[j] -= lr * g[j];
    }
    for (let j = 0; j < D; j++)
      assert.ok(Math.abs(one.encoded[j] - x[j]) < 1e-4, `input ${j}: ${one.encoded[j]} vs float64 SGD ${x[j]}`);
  });

  it('the same seed gives the same canonical set bit for bit; another seed another one', () => {
    const a = invert(engine, mlp, { prefer: 'good', n: 20, epochs: 20, seed: 1 });
    const b = invert(engine, mlp, { prefer: 'good', n: 20, epochs: 20, seed: 1 });
    const c = invert(engine, mlp, { prefer: 'good', n: 20, epochs: 20, seed: 2 });
    assert.deepEqual(a.encoded, b.encoded);
    assert.notDeepEqual(a.encoded, c.encoded);
  });

  it('starts uniformly in [low, high) and the loss curve falls', () => {
    const r = invert(engine, mlp, {
      prefer: 'good',
      n: 500,
      epochs: 50,
      init: { low: -3, high: 2 },
      seed: 0,
      traceEvery: 0,
    });
    const x0 = r.trace!.encoded;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < r.n; i++)
      for (let j = 0; j < D; j++) {
        const v = x0[i * 3 * D + j];
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    assert.ok(lo >= -3 && lo < -2.9 && hi < 2 && hi > 1.9, `start range [${lo}, ${hi}]`);
    assert.equal(r.loss.length, 50);
    assert.ok(r.loss[49] < r.loss[0]);
  });
});

describe("LUCID: the trace (the reference's logging semantics)", () => {
  it('epoch e holds the input before update e; epoch E + 1 is the last logged row snapped', () => {
    const E = 10;
    const r = invert(engine, mlp, { prefer: 'good', n: 6, epochs: E, seed: 7, traceEvery: 1 });
    const t = r.trace!;
    assert.deepEqual(t.epochs, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const L = t.epochs.length;
    // epoch 1 = the initial draw
    const x0 = new Rng(engine, 7).uniformHost(6 * D);
    for (let i = 0; i < 6; i++)
      for (let j = 0; j < D; j++) {
        assert.ok(Math.abs(t.encoded[i * L * D + j] - (2 * x0[i * D + j] - 1)) < 1e-6);
      }
    // epoch e = the result of e − 1 updates
    for (const e of [2, 5, 10]) {
      const shorter = invert(engine, mlp, { prefer: 'good', n: 6, epochs: e - 1, seed: 7 });
      for (let i = 0; i < 6; i++) {
        assert.deepEqual(
          t.encoded.subarray((i * L + e - 1) * D, (i * L + e) * D),
          shorter.encoded.subarray(i * D, (i + 1) * D),
          `epoch ${e}, sample ${i}`,
        );
      }
    }
    // the final result has E updates, one more than the epoch-E row (never logged, as in the reference)
    const last = t.encoded.subarray((L - 2) * D, (L - 1) * D);
    assert.notDeepEqual(Array.from(last), Array.from(r.encoded.subarray(0, D)));
    // epoch E + 1: the epoch-E row with its one-hot groups snapped, evaluated again
    for (let i = 0; i < 6; i++) {
      const row = t.encoded.slice((i * L + E - 1) * D, (i * L + E) * D);
      snapOneHot(row, 1, D, logistic.preprocessor.groups);
      assert.deepEqual(t.encoded.subarray((i * L + E) * D, (i * L + E + 1) * D), row);
    }
    // pred = P(prefer) of each logged row
    const p = preferProbability(engine, mlp, t.encoded, 6 * L, resolvePreference(mlp, 'good'));
    for (let k = 0; k < p.length; k++) assert.ok(Math.abs(p[k] - t.pred[k]) < 1e-6);
    // the decoded table: sample, epoch, the features, pred; sample-major
    assert.deepEqual(
      t.table.columns.map((c) => c.name),
      ['sample', 'epoch', 'age', 'colour', 'hours', 'sex', 'pred'],
    );
    assert.equal(t.table.rows, 6 * L);
    const [s, ep] = t.table.columns;
    assert.ok(s.kind === 'numeric' && ep.kind === 'numeric');
    assert.deepEqual(Array.from(s.values.subarray(0, L + 1)), [...Array(L).fill(0), 1]);
    assert.deepEqual(Array.from(ep.values.subarray(0, L)), t.epochs);
  });

  it('traceEvery k logs epoch 1 and the multiples of k; 0 logs only 1 and E (the reference default)', () => {
    const a = invert(engine, mlp, { prefer: 'good', n: 3, epochs: 10, seed: 1, traceEvery: 3 });
    assert.deepEqual(a.trace!.epochs, [1, 3, 6, 9, 11]);
    // the extra epoch snaps the last LOGGED row (epoch 9 here)
    const L = 5;
    const row9 = a.trace!.encoded.slice(3 * D, 4 * D);
    snapOneHot(row9, 1, D, mlp.preprocessor.groups);
    assert.deepEqual(a.trace!.encoded.subarray(4 * D, 5 * D), row9);
    assert.equal(a.trace!.table.rows, 3 * L);
    const b = invert(engine, mlp, { prefer: 'good', n: 3, epochs: 200, seed: 1, traceEvery: 0 });
    assert.deepEqual(b.trace!.epochs, [1, 200, 201]);
    assert.equal(invert(engine, mlp, { prefer: 'good', n: 3, epochs: 5 }).trace, undefined);
  });
});

describe('LUCID: snapping, clipping and the simplex projection', () => {
  it('pred_snapped is P(prefer) after every one-hot group is snapped to its arg-max', () => {
    const r = invert(engine, mlp, { prefer: 'good', n: 50, epochs: 40, seed: 2 });
    const p = preferProbability(engine, mlp, r.snapped, r.n, r.preference);
    assert.deepEqual(Array.from(r.predSnapped), Array.from(p));
    for (let i = 0; i < r.n; i++) {
      for (const [s, w] of [
        [2, 4],
        [6, 2],
      ]) {
        const g = Array.from(r.snapped.subarray(i * D + s, i * D + s + w));
        assert.equal(
          g.reduce((a, b) => a + b, 0),
          1,
        );
        assert.ok(g.every((v) => v === 0 || v === 1));
      }
      assert.equal(r.snapped[i * D], r.encoded[i * D], 'numerics are not snapped');
    }
  });

  it('clip keeps numerics in [−1, 1] and one-hot inputs in [0, 1] at every logged row', () => {
    const plain = invert(engine, logistic, { prefer: 'good', n: 100, loss: 'logit-ce', seed: 3 });
    assert.ok(
      plain.encoded.some((v) => v > 1.5 || v < -1.5),
      'without --clip inputs leave the box',
    );
    const r = invert(engine, logistic, {
      prefer: 'good',
      n: 100,
      loss: 'logit-ce',
      seed: 3,
      clip: true,
      traceEvery: 1,
    });
    for (const x of [r.encoded, r.trace!.encoded]) {
      for (let k = 0; k < x.length; k++) {
        const j = k % D;
        if (j < 2) assert.ok(x[k] >= -1 && x[k] <= 1);
        else assert.ok(x[k] >= 0 && x[k] <= 1);
      }
    }
    assert.ok(share(codesOf(r.table, 'colour').codes, (c) => c === 1) >= 0.95);
    // decoded numerics stay within the fitted range
    const age = r.table.columns[0];
    assert.ok(age.kind === 'numeric' && age.values.every((v) => v >= 18 - 1e-4 && v <= 80 + 1e-4));
  });

  it('projectSimplex: each group lands on the simplex, keeps its order, and is the nearest such point', () => {
    const groups = logistic.preprocessor.groups;
    const rnd = hostRng(5);
    const n = 200;
    const x = Float32Array.from({ length: n * D }, () => 4 * rnd() - 2);
    const y = x.slice();
    projectSimplex(y, n, D, groups);
    for (let i = 0; i < n; i++) {
      assert.equal(y[i * D], x[i * D]);
      for (const [s, w] of [
        [2, 4],
        [6, 2],
      ]) {
        const g = Array.from(y.subarray(i * D + s, i * D + s + w));
        assert.ok(Math.abs(g.reduce((a, b) => a + b, 0) - 1) < 1e-5 && g.every((v) => v >= 0));
        // KKT: y = max(x − θ, 0) for one θ, so the positive entries share x − y
        const diffs = g.map((v, k) => (v > 0 ? x[i * D + s + k] - v : NaN)).filter((v) => !Number.isNaN(v));
        for (const dd of diffs) assert.ok(Math.abs(dd - diffs[0]) < 1e-5);
        // zeros only where x is at most θ
        g.forEach((v, k) => {
          if (v === 0) assert.ok(x[i * D + s + k] <= diffs[0] + 1e-5);
        });
      }
    }
    // a point already on the simplex stays put
    const on = new Float32Array(D);
    on.set([0.1, 0.2, 0.3, 0.4], 2);
    on.set([1, 0], 6);
    const z = on.slice();
    projectSimplex(z, 1, D, groups);
    for (let k = 0; k < D; k++) assert.ok(Math.abs(z[k] - on[k]) < 1e-6);
  });

  it('--project-onehot keeps every group on the simplex (start included) and still finds the category', () => {
    const r = invert(engine, mlp, {
      prefer: 'good',
      n: 200,
      loss: 'logit-ce',
      seed: 6,
      projectOneHot: true,
      traceEvery: 0,
    });
    for (const x of [r.encoded, r.trace!.encoded]) {
      const rows = x.length / D;
      for (let i = 0; i < rows; i++) {
        for (const [s, w] of [
          [2, 4],
          [6, 2],
        ]) {
          const g = Array.from(x.subarray(i * D + s, i * D + s + w));
          assert.ok(Math.abs(g.reduce((a, b) => a + b, 0) - 1) < 1e-5 && g.every((v) => v >= 0), `row ${i}: ${g}`);
        }
      }
    }
    assert.ok(share(codesOf(r.table, 'colour').codes, (c) => c === 1) >= 0.95);
  });
});

describe('LUCID: errors', () => {
  it('--prefer must be one of the two classes; the message lists them', () => {
    assert.throws(
      () => invert(engine, mlp, { prefer: 'great', n: 2 }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'E_ARG' &&
        e.message ===
          'invert: --prefer "great" is not a class of the model\'s label "outcome"; its classes are "bad" and "good"',
    );
    assert.equal(resolvePreference(mlp, 'positive').label, 'good');
    assert.equal(resolvePreference(mlp, 'negative').label, 'bad');
    assert.deepEqual(resolvePreference(mlp, 'bad'), { label: 'bad', positive: false });
  });

  it('bad options are E_ARG errors naming the option', () => {
    const bad: [object, RegExp][] = [
      [{ n: 0 }, /n must be a positive integer/],
      [{ epochs: 1.5 }, /epochs must be a positive integer/],
      [{ lr: -1 }, /lr must be a positive number/],
      [{ init: { low: 1, high: 1 } }, /init range must be finite with low < high/],
      [{ loss: 'mse' }, /loss must be prob-ce or logit-ce/],
      [{ seed: -2 }, /seed must be a non-negative integer/],
      [{ traceEvery: 0.5 }, /traceEvery must be a non-negative integer/],
    ];
    for (const [o, re] of bad) {
      assert.throws(
        () => invert(engine, mlp, { prefer: 'good', ...o }),
        (e: unknown) => e instanceof EngineError && e.code === 'E_ARG' && re.test(e.message),
      );
    }
  });

  it('a black box without gradients is refused with a pointer to LUCID-GAN', () => {
    assert.equal(requireDifferentiable({ kind: 'built-in', differentiable: mlp }), mlp);
    assert.throws(
      () => requireDifferentiable({ kind: 'ONNX', source: 'model.onnx' }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'E_ARG' &&
        e.message ===
          'LUCID needs gradients; model.onnx is an ONNX model; use LUCID-GAN (lucid gan fit/sample) instead',
    );
  });

  it('memory does not grow across steps (each step runs in a scope)', () => {
    invert(engine, mlp, { prefer: 'good', n: 300, epochs: 5 });
    const before = engine.memoryBytes;
    invert(engine, mlp, { prefer: 'good', n: 300, epochs: 300 });
    assert.equal(engine.memoryBytes, before);
  });
});

// ── The command line ──────────────────────────────────────────────────────────────────────────────
const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

const BYTES_CANONICAL = 'dbce335d8a20de4ad01e1c825655124fb19872c9823b645203b0987a5a5b6343';
const BYTES_TRACE = 'bbdc1556e903cf04b938823cc354fbdfccb69df590c360fb7cf5701fc522f6a5';

describe('lucid invert', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-invert-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const planted = join(dir, 'planted.json');
  // signed as lucid model train signs its files (a file without a checksum loads with a warning)
  const plantedJson = modelJson([3], MLP);
  writeFileSync(planted, JSON.stringify({ ...plantedJson, checksum: contentChecksum(plantedJson) }));

  // The bytes of a binary inversion as they were before LUCID inverted towards other targets (issue #40): a canonical
  // set projected onto the data and a trace, fixed seeds (sha256 of the CSVs, taken on the code before the change).
  it("keeps a binary model's bytes: the canonical set and the trace", () => {
    const sha = (f: string) => createHash('sha256').update(readFileSync(f, 'utf8')).digest('hex');
    const a = join(dir, 'bytes-canonical.csv');
    const b = join(dir, 'bytes-trace.csv');
    const ra = lucid(
      'invert',
      '--model',
      planted,
      '--prefer',
      'good',
      '-n',
      '200',
      '--seed',
      '4',
      '--clip',
      '--project-onehot',
      '--out',
      a,
    );
    assert.equal(ra.status, 0, ra.stderr);
    const rb = lucid(
      'invert',
      '--model',
      planted,
      '--prefer',
      'bad',
      '--loss',
      'logit-ce',
      '-n',
      '20',
      '--trace-every',
      '50',
      '--seed',
      '2',
      '--out',
      b,
    );
    assert.equal(rb.status, 0, rb.stderr);
    assert.deepEqual([sha(a), sha(b)], [BYTES_CANONICAL, BYTES_TRACE]);
  });

  it('writes the canonical set: decoded features, pred and pred_snapped', () => {
    const out = join(dir, 'canonical.csv');
    const r = lucid(
      'invert',
      '--model',
      planted,
      '--prefer',
      'good',
      '-n',
      '300',
      '--loss',
      'logit-ce',
      '--seed',
      '4',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'age,colour,hours,sex,pred,pred_snapped');
    assert.equal(lines.length, 301);
    const rows = lines.slice(1).map((l) => l.split(','));
    assert.ok(
      share(
        rows.map((f) => (f[1] === 'green' ? 1 : 0)),
        (v) => v === 1,
      ) >= 0.95,
    );
    assert.ok(
      share(
        rows.map((f) => Number(f[4])),
        (p) => p >= 0.99,
      ) >= 0.95,
    );
    assert.match(r.stdout, /300 canonical rows for outcome = "good"/);
  });

  it("--trace writes sample and epoch columns with the reference's epochs", () => {
    const out = join(dir, 'trace.csv');
    const r = lucid(
      'invert',
      '--model',
      planted,
      '--prefer',
      'good',
      '-n',
      '4',
      '--epochs',
      '20',
      '--trace-every',
      '10',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'sample,epoch,age,colour,hours,sex,pred');
    assert.deepEqual(
      lines.slice(1, 5).map((l) => l.split(',').slice(0, 2).join(',')),
      ['0,1', '0,10', '0,20', '0,21'],
    );
    assert.equal(lines.length, 1 + 4 * 4);
    const t = lucid('invert', '--model', planted, '--prefer', 'good', '-n', '2', '--trace', '--out', out);
    assert.equal(t.status, 0, t.stderr);
    assert.deepEqual(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[1]),
      ['1', '200', '201', '1', '200', '201'],
    );
  });

  it('argument errors: --prefer, the init range, a model without gradients', () => {
    const out = join(dir, 'x.csv');
    const a = lucid('invert', '--model', planted, '--prefer', '>50K', '--out', out);
    assert.equal(a.status, 2);
    assert.equal(
      a.stderr,
      'lucid: error: invert: --prefer ">50K" is not a class of the model\'s label "outcome"; its classes are "bad" ' +
        'and "good"\n',
    );
    const b = lucid('invert', '--model', planted, '--prefer', 'good', '--init', 'normal:0,1', '--out', out);
    assert.equal(b.status, 2);
    assert.match(
      b.stderr,
      /--init <range>' argument 'normal:0,1' is invalid\. expected uniform:LOW,HIGH with LOW < HIGH/,
    );
    for (const [file, kind] of [
      ['m.onnx', 'an ONNX'],
      ['m.mjs', 'a JS module'],
    ]) {
      const p = join(dir, file);
      writeFileSync(p, '');
      const c = lucid('invert', '--model', p, '--prefer', 'good', '--out', out);
      assert.equal(c.status, 2, c.stderr);
      assert.equal(
        c.stderr,
        `lucid: error: LUCID needs gradients; ${p} is ${kind} model; use LUCID-GAN (lucid gan fit/sample) instead\n`,
      );
    }
    const h = lucid('invert', '--help');
    assert.match(h.stdout, /prob-ce/);
    assert.match(h.stdout, /logit-ce/);
  });

  it('end to end on a model trained on simulated data: the canonical set avoids the penalised group', async () => {
    const sim = simulate(new Rng(engine, 1), { n: 4000, bias: 'direct', strength: 3 });
    const { model } = Classifier.train(engine, sim.table, {
      label: 'approved',
      positive: 'yes',
      hidden: [16],
      epochs: 40,
      seed: 0,
    });
    const file = join(dir, 'sim.json');
    writeFileSync(file, JSON.stringify(model.toJSON()));
    model.dispose();
    const out = join(dir, 'sim-canonical.csv');
    const r = lucid('invert', '--model', file, '--prefer', 'yes', '-n', '500', '--seed', '1', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const g = header.indexOf('group');
    assert.ok(g >= 0, header.join(','));
    const groupA = share(
      lines.slice(1).map((l) => (l.split(',')[g] === 'A' ? 1 : 0)),
      (v) => v === 1,
    );
    assert.ok(groupA >= 0.9, `group A (not penalised) in ${(100 * groupA).toFixed(1)}% of the canonical rows`);
    // and the same data written as CSV is no model: a clear input error
    const csv = join(dir, 'sim.csv');
    await writeCsv(csv, sim.table);
    const bad = lucid('invert', '--model', csv, '--prefer', 'yes', '--out', out);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /^lucid: error: /);
  });
});
