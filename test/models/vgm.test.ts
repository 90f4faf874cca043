// The VGM (src/models/ctgan/vgm.ts): planted mixtures, determinism, memory, errors, serialisation, and
// scikit-learn 1.2's BayesianGaussianMixture on Adult's numeric columns
// (test/fixtures/golden-vgm-adult.json, from tools/golden/gen_vgm.py).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import {
  activeModes,
  betaln,
  digamma,
  fitVgm,
  fitVgmFromLabels,
  lgamma,
  vgmFromJSON,
  vgmPredict,
  vgmPredictProba,
  vgmScore,
  vgmToJSON,
  type VgmModel,
} from '../../src/models/ctgan/vgm.js';
import { fixture, getEngine } from '../helpers/engine.js';

/** n draws from Σ w_k N(mu_k, sd_k²), every random number from our seeded Rng. */
function plant(e: Engine, seed: number, n: number, w: number[], mu: number[], sd: number[]): Float64Array {
  const rng = new Rng(e, seed);
  const u = rng.uniformHost(n);
  const z = e.scope(() => Float64Array.from(rng.normal([n]).data));
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let k = 0;
    let c = w[0];
    while (u[i] >= c && k < w.length - 1) c += w[++k];
    x[i] = mu[k] + sd[k] * z[i];
  }
  return x;
}

/** Active modes sorted by mean. */
function modes(m: VgmModel): { w: number; mu: number; sd: number }[] {
  return activeModes(m)
    .map((k) => ({ w: m.weights[k], mu: m.means[k], sd: m.stds[k] }))
    .sort((a, b) => a.mu - b.mu);
}

const codeOf = (code: string, re: RegExp) => (err: unknown) => {
  const e = err as { code?: string; message?: string };
  assert.equal(e.code, code, `code of: ${e.message}`);
  assert.match(e.message ?? '', re);
  return true;
};

describe('vgm: special functions', () => {
  it('digamma, lgamma, betaln agree with scipy to 1e-12', () => {
    // scipy.special 1.10 values
    const cases: [number, number, number][] = [
      [0.001, -1000.5755719318103, 6.907178885383853],
      [0.5, -1.9635100260214235, 0.5723649429247],
      [1, -0.5772156649015329, 0],
      [3.7, 1.1671535393615113, 1.428072326665388],
      [12.5, 2.4851956512749123, 18.73434751193645],
      [15061.000000000002, 9.61983070151767, 129819.87921320683],
    ];
    for (const [x, dg, lg] of cases) {
      assert.ok(
        Math.abs(digamma(x) - dg) <= 1e-12 * Math.max(1, Math.abs(dg)),
        `digamma(${x}) = ${digamma(x)}, scipy ${dg}`,
      );
      assert.ok(
        Math.abs(lgamma(x) - lg) <= 1e-12 * Math.max(1, Math.abs(lg)),
        `lgamma(${x}) = ${lgamma(x)}, scipy ${lg}`,
      );
    }
    assert.ok(Math.abs(betaln(2, 3) - Math.log(1 / 12)) < 1e-14);
  });
});

// After sklearn's 100 iterations a Dirichlet-process mixture with concentration 0.001 has NOT
// pruned its spare components: sklearn 1.2 itself, on 12 000 draws of a 2-component mixture, keeps
// 9-10 modes with weight > 0.005 (and 9 on a single Gaussian), splitting each planted Gaussian into
// several overlapping modes; even run to its tol (~1000-1900 iterations) it may leave one Gaussian
// split in two (ours does for some seeds, sklearn for others). So "recovering" a planted component
// means that the modes the fit puts on it reproduce it: the active modes nearest (in σ units) to
// planted component j carry its weight (±0.02, the criterion), have its mean
// (weight-averaged, ±0.05σ, the criterion) and its spread (law of total variance, ±10%),
// and no active mode sits more than 3σ from its component.
describe('vgm: planted mixtures', async () => {
  const e = await getEngine();

  const cases = [
    { name: '2 components, weights 0.3/0.7', w: [0.3, 0.7], mu: [-2, 3], sd: [0.5, 1.0], n: 12000, seed: 11 },
    {
      name: '3 components, weights 0.2/0.5/0.3, different scales',
      w: [0.2, 0.5, 0.3],
      mu: [0, 10, 25],
      sd: [1, 2, 1.5],
      n: 20000,
      seed: 12,
    },
    {
      name: '3 components in the units of fnlwgt (offset 2e5, σ 1e4)',
      w: [0.25, 0.45, 0.3],
      mu: [100e3, 200e3, 300e3],
      sd: [8e3, 12e3, 10e3],
      n: 20000,
      seed: 13,
    },
    { name: '1 Gaussian', w: [1], mu: [5], sd: [2], n: 5000, seed: 14 },
  ];
  for (const c of cases) {
    for (const seed of [0, 1]) {
      it(`recovers ${c.name} (fit seed ${seed})`, () => {
        const x = plant(e, c.seed, c.n, c.w, c.mu, c.sd);
        const got = modes(fitVgm(e, x, { seed }));
        const groups = c.w.map(() => ({ w: 0, m1: 0, m2: 0 }));
        for (const g of got) {
          let j = 0;
          for (let t = 1; t < c.w.length; t++)
            if (Math.abs(g.mu - c.mu[t]) / c.sd[t] < Math.abs(g.mu - c.mu[j]) / c.sd[j]) j = t;
          assert.ok(
            Math.abs(g.mu - c.mu[j]) <= 3 * c.sd[j],
            `mode at ${g.mu} is more than 3σ from every planted component`,
          );
          groups[j].w += g.w;
          groups[j].m1 += g.w * g.mu;
          groups[j].m2 += g.w * (g.sd * g.sd + g.mu * g.mu);
        }
        groups.forEach((g, j) => {
          const what = `component ${j} (modes ${JSON.stringify(got)})`;
          assert.ok(Math.abs(g.w - c.w[j]) <= 0.02, `${what}: weight ${g.w}, planted ${c.w[j]}`);
          const mu = g.m1 / g.w;
          const sd = Math.sqrt(g.m2 / g.w - mu * mu);
          assert.ok(Math.abs(mu - c.mu[j]) <= 0.05 * c.sd[j], `${what}: mean ${mu}, planted ${c.mu[j]} (σ ${c.sd[j]})`);
          assert.ok(Math.abs(sd / c.sd[j] - 1) <= 0.1, `${what}: std ${sd}, planted ${c.sd[j]}`);
        });
      });
    }
  }
});

describe('vgm: determinism, memory, use', async () => {
  const e = await getEngine();
  const x = plant(e, 21, 4000, [0.4, 0.6], [0, 6], [1, 1.5]);

  it('the same seed gives the same model bit for bit; the model file round-trips exactly', () => {
    const a = fitVgm(e, x, { seed: 7 });
    const b = fitVgm(e, x, { seed: 7 });
    assert.deepEqual(vgmToJSON(b), vgmToJSON(a));
    const c = vgmFromJSON(JSON.parse(JSON.stringify(vgmToJSON(a))));
    assert.deepEqual(c, a);
    assert.deepEqual(vgmPredictProba(e, c, x), vgmPredictProba(e, a, x));
  });

  it('repeated fits do not grow memory', () => {
    fitVgm(e, x, { seed: 1 });
    const before = e.memoryBytes;
    const live = e.heap.liveBytes;
    for (let s = 0; s < 5; s++) {
      const m = fitVgm(e, x, { seed: s });
      vgmPredictProba(e, m, x);
      vgmScore(e, m, x);
    }
    assert.equal(e.memoryBytes, before);
    assert.equal(e.heap.liveBytes, live);
    assert.equal(e.arena.scopeDepth, 0);
  });

  it('predict_proba rows sum to 1; predict is their argmax; score is the mean log density', () => {
    const m = fitVgm(e, x, { seed: 2 });
    const K = m.weights.length;
    const xs = Float64Array.from([-3, 0, 2.5, 6, 12, 1e12, -1e300]);
    const p = vgmPredictProba(e, m, xs);
    assert.equal(p.length, xs.length * K);
    const lab = vgmPredict(e, m, xs);
    for (let i = 0; i < xs.length; i++) {
      let s = 0;
      let best = 0;
      for (let k = 0; k < K; k++) {
        s += p[i * K + k];
        if (p[i * K + k] > p[i * K + best]) best = k;
      }
      assert.ok(Math.abs(s - 1) < 1e-5, `row ${i} sums to ${s}`);
      assert.equal(lab[i], best);
    }
    // score against a direct f64 evaluation of sklearn's formula on a few points
    const pts = Float64Array.from([-1, 0.5, 4, 7]);
    let ll = 0;
    for (const v of pts) {
      const terms: number[] = [];
      let acc = 0;
      for (let k = 0; k < K; k++) {
        const a = m.weightConcentrationA[k];
        const b = m.weightConcentrationB[k];
        const lw = digamma(a) - digamma(a + b) + acc;
        acc += digamma(b) - digamma(a + b);
        const nu = m.degreesOfFreedom[k];
        const d = v - m.means[k];
        terms.push(
          lw -
            0.5 * Math.log(2 * Math.PI) -
            0.5 * Math.log(m.covariances[k]) -
            0.5 * Math.log(nu) -
            (0.5 * d * d) / m.covariances[k] +
            0.5 * (Math.LN2 + digamma(nu / 2) - 1 / m.meanPrecision[k]),
        );
      }
      const mx = Math.max(...terms);
      ll += mx + Math.log(terms.reduce((s, t) => s + Math.exp(t - mx), 0));
    }
    assert.ok(Math.abs(vgmScore(e, m, pts) - ll / pts.length) < 1e-5, `${vgmScore(e, m, pts)} vs ${ll / pts.length}`);
  });

  it('maxIter 0 keeps the initialisation (sklearn: lower bound −inf, not converged)', () => {
    const m = fitVgm(e, x, { maxIter: 0 });
    assert.equal(m.nIter, 0);
    assert.equal(m.converged, false);
    assert.equal(m.lowerBound, -Infinity);
    const back = vgmFromJSON(JSON.parse(JSON.stringify(vgmToJSON(m))));
    assert.equal(back.lowerBound, -Infinity);
  });

  it('handles a constant column and a column with fewer distinct values than components', () => {
    const c = fitVgm(e, new Float64Array(50).fill(3.5));
    assert.ok(
      c.weights.every(Number.isFinite) && c.means.every((v) => Math.abs(v - 3.5) < 1e-9),
      JSON.stringify(vgmToJSON(c)),
    );
    const two = Float64Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 1 : 40));
    const m = fitVgm(e, two);
    const got = modes(m);
    assert.equal(got.length, 2, JSON.stringify(got));
    assert.ok(Math.abs(got[0].mu - 1) < 0.5 && Math.abs(got[1].mu - 40) < 0.5);
    assert.ok(Math.abs(got[0].w - 1 / 3) < 0.02);
  });
});

describe('vgm: argument and model-file errors', async () => {
  const e = await getEngine();
  const x = Float64Array.from({ length: 40 }, (_, i) => Math.sin(i) * 3);

  it('rejects NaN / Infinity in x, naming the element (E_VALUE)', () => {
    const bad = x.slice();
    bad[7] = NaN;
    assert.throws(() => fitVgm(e, bad), codeOf('E_VALUE', /fitVgm: x\[7\] is NaN/));
    bad[7] = -Infinity;
    assert.throws(() => fitVgm(e, bad), codeOf('E_VALUE', /fitVgm: x\[7\] is -Infinity/));
    const m = fitVgm(e, x, { nComponents: 3 });
    assert.throws(
      () => vgmPredictProba(e, m, Float64Array.from([1, Infinity])),
      codeOf('E_VALUE', /vgmPredictProba: x\[1\] is Infinity/),
    );
    assert.throws(() => vgmScore(e, m, Float64Array.from([NaN])), codeOf('E_VALUE', /vgmScore: x\[0\] is NaN/));
  });

  it('rejects fewer samples than components, as sklearn does (E_ARG)', () => {
    assert.throws(() => fitVgm(e, x.subarray(0, 9)), codeOf('E_ARG', /x has 9 samples but nComponents is 10/));
    assert.throws(() => fitVgm(e, x.subarray(0, 1), { nComponents: 1 }), codeOf('E_ARG', /at least 2/));
    assert.doesNotThrow(() => fitVgm(e, x.subarray(0, 10)));
  });

  it('rejects bad options (E_ARG)', () => {
    assert.throws(() => fitVgm(e, x, { nComponents: 0 }), codeOf('E_ARG', /nComponents/));
    assert.throws(() => fitVgm(e, x, { nComponents: 2.5 }), codeOf('E_ARG', /nComponents/));
    assert.throws(() => fitVgm(e, x, { weightConcentrationPrior: 0 }), codeOf('E_ARG', /weightConcentrationPrior/));
    assert.throws(() => fitVgm(e, x, { maxIter: -1 }), codeOf('E_ARG', /maxIter/));
    assert.throws(() => fitVgm(e, x, { tol: NaN }), codeOf('E_ARG', /tol/));
    assert.throws(() => fitVgm(e, x, { seed: -1 }), codeOf('E_ARG', /seed/));
    assert.throws(() => fitVgmFromLabels(e, x, new Int32Array(40).fill(10)), codeOf('E_ARG', /labels\[0\] is 10/));
  });

  it('vgmFromJSON rejects corrupt model files with a clear message (E_INPUT)', () => {
    const good = vgmToJSON(fitVgm(e, x, { nComponents: 3 })) as Record<string, unknown>;
    const with_ = (patch: Record<string, unknown>) => ({ ...good, ...patch });
    assert.throws(() => vgmFromJSON(null), codeOf('E_INPUT', /vgm model: expected a JSON object/));
    assert.throws(() => vgmFromJSON([1]), codeOf('E_INPUT', /expected a JSON object/));
    assert.throws(() => vgmFromJSON(with_({ format: 'x' })), codeOf('E_INPUT', /"format" must be "lucid-vgm"/));
    assert.throws(() => vgmFromJSON(with_({ version: 2 })), codeOf('E_INPUT', /unsupported "version" 2/));
    assert.throws(() => vgmFromJSON(with_({ nComponents: 0 })), codeOf('E_INPUT', /"nComponents"/));
    assert.throws(
      () => vgmFromJSON(with_({ means: [1, 2] })),
      codeOf('E_INPUT', /"means" must be an array of 3 numbers/),
    );
    assert.throws(
      () => vgmFromJSON(with_({ means: [1, 'a', 2] })),
      codeOf('E_INPUT', /"means"\[1\] is "a", not a finite number/),
    );
    assert.throws(
      () => vgmFromJSON(with_({ covariances: [1, -1, 2] })),
      codeOf('E_INPUT', /"covariances"\[1\] is -1, must be > 0/),
    );
    assert.throws(() => vgmFromJSON(with_({ weights: [0.5, 0.5, 0.5] })), codeOf('E_INPUT', /"weights" sum to 1.5/));
    assert.throws(
      () => vgmFromJSON(with_({ stds: [1, 1, 1] })),
      codeOf('E_INPUT', /"stds"\[\d\] = 1 is not the square root/),
    );
    assert.throws(() => vgmFromJSON(with_({ converged: 'yes' })), codeOf('E_INPUT', /"converged"/));
    assert.throws(() => vgmFromJSON(with_({ nIter: 1.5 })), codeOf('E_INPUT', /"nIter"/));
    assert.throws(
      () => vgmFromJSON(with_({ meanPrior: null })),
      codeOf('E_INPUT', /"meanPrior" must be a finite number/),
    );
    const { degreesOfFreedom: _, ...missing } = good;
    assert.throws(() => vgmFromJSON(missing), codeOf('E_INPUT', /"degreesOfFreedom" must be an array/));
  });
});

// ---------------------------------------------------------------------------------------------
// Adult vs scikit-learn.

interface GoldFit {
  seed: number;
  n_modes: number;
  weights: number[];
  means: number[];
  stds: number[];
  score: number;
  n_iter: number;
}
interface GoldFixed {
  weights: number[];
  means: number[];
  covariances: number[];
  lower_bound: number;
  lb_trace: number[];
  n_iter: number;
  converged: boolean;
  score: number;
  probe_x: number[];
  probe_proba: number[][];
  probe_score_samples: number[];
}
interface Gold {
  rows: number;
  columns: Record<string, { fits: GoldFit[]; fixed_init: GoldFixed }>;
}

const ADULT_POS: Record<string, number> = {
  age: 0,
  fnlwgt: 2,
  'education-num': 4,
  'capital-gain': 10,
  'capital-loss': 11,
  'hours-per-week': 12,
};

/** The Adult test file's numeric columns, rows with '?' dropped; null when the data is absent. */
function adultColumns(): Record<string, Float64Array> | null {
  const root = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
  const dir = process.env.LUCID_DATA_DIR || join(root, '..', 'shared', 'data');
  const file = join(dir, 'adult', 'adult.test');
  if (!existsSync(file)) return null;
  const rows: string[][] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.trim().split(', ');
    if (f.length !== 15 || !/^\d+$/.test(f[0]) || f.includes('?')) continue; // header, `|1x3` line, missing values
    rows.push(f);
  }
  const out: Record<string, Float64Array> = {};
  for (const [c, p] of Object.entries(ADULT_POS)) out[c] = Float64Array.from(rows, (r) => Number(r[p]));
  return out;
}

/** sklearn's deterministic initialisation in tools/golden/gen_vgm.py: label = ⌊rank·K/N⌋ (stable ranks). */
function quantileLabels(x: Float64Array, K: number): Int32Array {
  const n = x.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b);
  const lab = new Int32Array(n);
  idx.forEach((i, r) => {
    lab[i] = Math.floor((r * K) / n);
  });
  return lab;
}

describe('vgm vs scikit-learn 1.2 on Adult (test file, 15060 rows)', async () => {
  const e = await getEngine();
  const gold = fixture<Gold>('golden-vgm-adult.json');
  const cols = adultColumns();
  const skip = cols ? false : 'Adult data not found: set LUCID_DATA_DIR (or put adult/adult.test under ../shared/data)';

  // Same start (a deterministic initialisation both can reproduce): the maths must agree.
  // Tolerances: the E-step runs in f32 (≈1e-7 relative per responsibility and log-responsibility)
  // and sklearn in f64. The lower bound is a sum over the N samples of r·log r terms, so it may
  // differ by ≈1e-7·|log r| per sample: we allow 1e-6 nats per sample (15 mnats on Adult;
  // measured ≤ 5.8 mnats, on capital-gain). That can move sklearn's |Δ lower bound| < 1e-3
  // convergence test by a few iterations (allowed 5, measured ≤ 3), which leaves weights within
  // 1e-4 and means/covariances within 0.5% (measured ≤ 5e-5, 2.2e-3σ, 0.3%); score 1e-4 nats/sample
  // (measured ≤ 3e-6), predict_proba 0.01 (measured ≤ 5e-3).
  for (const c of Object.keys(ADULT_POS)) {
    it(`${c}: from sklearn's start, the same trajectory and model`, { skip }, () => {
      const x = cols![c];
      assert.equal(x.length, gold.rows);
      const g = gold.columns[c].fixed_init;
      const lab = quantileLabels(x, 10);
      for (let it = 1; it <= 3; it++) {
        const lb = fitVgmFromLabels(e, x, lab, { maxIter: it }).lowerBound;
        const want = g.lb_trace[it - 1];
        assert.ok(Math.abs(lb - want) <= 1e-6 * x.length, `lower bound after ${it} iterations: ${lb}, sklearn ${want}`);
      }
      const m = fitVgmFromLabels(e, x, lab);
      assert.equal(m.converged, g.converged, 'converged');
      assert.ok(Math.abs(m.nIter - g.n_iter) <= 5, `n_iter ${m.nIter}, sklearn ${g.n_iter}`);
      for (let k = 0; k < 10; k++) {
        const sd = Math.sqrt(g.covariances[k]);
        assert.ok(Math.abs(m.weights[k] - g.weights[k]) <= 1e-4, `weight ${k}: ${m.weights[k]} vs ${g.weights[k]}`);
        assert.ok(
          Math.abs(m.means[k] - g.means[k]) <= 0.005 * sd,
          `mean ${k}: ${m.means[k]} vs ${g.means[k]} (σ ${sd})`,
        );
        assert.ok(
          Math.abs(m.covariances[k] / g.covariances[k] - 1) <= 0.005,
          `covariance ${k}: ${m.covariances[k]} vs ${g.covariances[k]}`,
        );
      }
      // per-sample allowance as above, plus tol for each iteration the stopping point may move by
      assert.ok(
        Math.abs(m.lowerBound - g.lower_bound) <= 1e-6 * x.length + 5e-3,
        `lower bound ${m.lowerBound} vs ${g.lower_bound}`,
      );
      assert.ok(Math.abs(vgmScore(e, m, x) - g.score) <= 1e-4, `score ${vgmScore(e, m, x)} vs ${g.score}`);
      const p = vgmPredictProba(e, m, Float64Array.from(g.probe_x));
      g.probe_proba.forEach((row, i) =>
        row.forEach((v, k) => {
          assert.ok(
            Math.abs(p[i * 10 + k] - v) <= 0.01,
            `predict_proba(${g.probe_x[i]})[${k}] = ${p[i * 10 + k]}, sklearn ${v}`,
          );
        }),
      );
      g.probe_score_samples.forEach((v, i) => {
        const s = vgmScore(e, m, Float64Array.of(g.probe_x[i]));
        // in the tails the log density is dominated by ½(x − m)²/σ², so it inherits the covariance tolerance (0.5%)
        assert.ok(Math.abs(s - v) <= 1e-4 + 0.005 * Math.abs(v), `score_samples(${g.probe_x[i]}) = ${s}, sklearn ${v}`);
      });
    });
  }

  // Our own k-means initialisation (seeded from our Rng, so not sklearn's random stream): compare
  // with the spread of sklearn's fits over random_state 0..9.
  // - Active modes (weight > 0.005): within sklearn's range over its seeds. For our seeds 0..4 this
  //   holds exactly (no ±1 needed); sklearn itself moves by up to 2 modes between seeds
  //   (capital-gain 5..7), so the count is a property of the local optimum, not of the maths.
  // - Mean log-likelihood: no worse than sklearn's worst seed by more than 0.01 nats/sample and no
  //   better than its best seed by more than 0.02. sklearn's own seeds span up to 0.31 nats/sample
  //   (education-num: 16 integer values, the score depends on which get a spike component) and
  //   0.09 (hours-per-week); on the continuous columns its seeds agree to 1e-3. 0.01 is 10× the
  //   spread of the well-conditioned columns and far below the spread of the multimodal ones; the
  //   upper margin admits better local optima (measured: education-num reaches −0.3658 against
  //   sklearn's best −0.3812, since VB maximises the lower bound, not the likelihood).
  for (const c of Object.keys(ADULT_POS)) {
    it(`${c}: active modes and mean log-likelihood within sklearn's range over seeds`, { skip }, () => {
      const x = cols![c];
      const fits = gold.columns[c].fits;
      const lo = Math.min(...fits.map((f) => f.n_modes));
      const hi = Math.max(...fits.map((f) => f.n_modes));
      const worst = Math.min(...fits.map((f) => f.score));
      const best = Math.max(...fits.map((f) => f.score));
      for (let seed = 0; seed < 5; seed++) {
        const m = fitVgm(e, x, { seed });
        const n = activeModes(m).length;
        const s = vgmScore(e, m, x);
        assert.ok(n >= lo && n <= hi, `seed ${seed}: ${n} active modes, sklearn ${lo}..${hi}`);
        assert.ok(
          s >= worst - 0.01 && s <= best + 0.02,
          `seed ${seed}: mean log-likelihood ${s}, sklearn ${worst}..${best}`,
        );
      }
    });
  }
});
