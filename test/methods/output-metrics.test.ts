// Scores and real values: the estimators against hand-computed values, the band test on both scales, planted and
// null disparities, the coding rule (the same outputs coded the other way get the same verdicts), the errors, and
// `lucid metrics` for each kind through the built CLI.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../../src/engine/rng.js';
import { correct, normalQuantile } from '../../src/methods/metrics/verdicts.js';
import {
  aucSe,
  aucSorted,
  bandTest,
  judge,
  ksSorted,
  logRatioSe,
  meanVar,
  wassersteinSorted,
  welchSe,
  outputMetrics,
  JUDGED_METRICS,
  regressionMetrics,
  scoreMetrics,
  OUTPUT_METRIC_DEFS,
  OUTPUT_METRICS,
  type RegressionReport,
  type ScoreReport,
} from '../../src/methods/metrics/index.js';
import { getEngine } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} ≉ ${b}`);

/** A seeded stream of standard normals (xorshift32 + Box–Muller): test data, not an audit's draws. */
function normals(seed: number) {
  let x = seed >>> 0 || 1;
  const u = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return (x + 0.5) / 4294967296;
  };
  return { u, z: () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()) };
}

describe('estimators against hand-computed values', () => {
  it('AUC by Mann–Whitney (ties ½) and its Hanley–McNeil SE', () => {
    const a = aucSorted([2, 4, 6, 8], [1, 3, 3, 5])!;
    // 2 beats 1; 4 beats 1, 3, 3; 6 and 8 beat all four: 12 of 16 pairs
    assert.equal(a.value, 0.75);
    // A = 0.75: Q1 = 0.6, Q2 = 2·0.5625/1.75; var = [A(1−A) + 3(Q1 − A²) + 3(Q2 − A²)] / 16
    const q2 = 1.125 / 1.75;
    close(a.se, Math.sqrt((0.1875 + 3 * (0.6 - 0.5625) + 3 * (q2 - 0.5625)) / 16));
    assert.equal(aucSorted([3], [3])!.value, 0.5);
    assert.equal(aucSorted([1, 3], [3, 3])!.value, 0.25);
    assert.equal(aucSorted([], [1]), null);
    // symmetric in the two classes: the same SE whichever is named positive
    assert.equal(aucSe(0.8, 30, 70), aucSe(0.8, 70, 30));
    // equal classes: Hanley & McNeil's own formula
    const A = 0.8;
    const [Q1, Q2] = [A / (2 - A), (2 * A * A) / (1 + A)];
    close(aucSe(A, 50, 50), Math.sqrt((A * (1 - A) + 49 * (Q1 - A * A) + 49 * (Q2 - A * A)) / 2500));
  });

  it('KS and Wasserstein-1 of two small samples', () => {
    // CDFs of [1, 2, 3] and [2, 4]: gaps 1/3 on [1, 2), 1/6 on [2, 3), 1/2 on [3, 4)
    assert.equal(ksSorted([1, 2, 3], [2, 4]), 0.5);
    close(wassersteinSorted([1, 2, 3], [2, 4]), 1);
    assert.equal(ksSorted([1, 2], [1, 2]), 0);
    assert.equal(wassersteinSorted([1, 2], [1, 2]), 0);
    // a shift by c moves W1 by c
    close(wassersteinSorted([0, 1, 5], [3, 4, 8]), 3);
    assert.equal(ksSorted([0, 1, 5], [10, 11]), 1);
  });

  it('Welch and delta-method standard errors', () => {
    const a = meanVar([1, 2, 3]);
    const b = meanVar([2, 4]);
    assert.deepEqual([a.mean, a.variance, b.mean, b.variance], [2, 1, 3, 2]);
    close(welchSe(a, b), Math.sqrt(1 / 3 + 2 / 2));
    close(logRatioSe(a, b), Math.sqrt(1 / (3 * 4) + 2 / (2 * 9)));
  });
});

describe('the band test on both scales', () => {
  it('p = 1 inside the band, 2Φ(−δ/se) outside', () => {
    assert.deepEqual(bandTest(0.1, 1, -0.2, 0.2), { outside: false, p: 1 });
    const t = bandTest(-3, 1, -1, 1);
    assert.equal(t.outside, true);
    close(t.p, 0.0455, 1e-3);
  });

  it(
    'a difference-scale comparison: its interval is estimate ' + '± z·se at the corrected level, with its direction',
    () => {
      const settings = { scale: 'difference' as const, band: [-1, 1] as [number, number], better: 'higher' as const };
      const c = judge(
        'mean_residual',
        'b',
        100,
        'a',
        100,
        {
          value: -4,
          referenceValue: 0,
          estimate: -4,
          se: 0.5,
        },
        { ...settings, minGroupSize: 30 },
      );
      const d = judge(
        'mean_residual',
        'c',
        100,
        'a',
        100,
        {
          value: 0.5,
          referenceValue: 0,
          estimate: 0.5,
          se: 0.5,
        },
        { ...settings, minGroupSize: 30 },
      );
      const small = judge(
        'mean_residual',
        'e',
        10,
        'a',
        100,
        {
          value: 9,
          referenceValue: 0,
          estimate: 9,
          se: 0.5,
        },
        { ...settings, minGroupSize: 30 },
      );
      const m = correct([c, d, small], 0.05);
      assert.equal(m, 2);
      assert.equal(c.verdict, 'flagged');
      assert.equal(c.direction, 'disadvantaged');
      assert.equal(c.logRatio, null);
      const z = normalQuantile(1 - c.level! / 2);
      assert.deepEqual(c.interval, { lo: -4 - z * 0.5, hi: -4 + z * 0.5 });
      assert.equal(d.verdict, 'pass');
      assert.equal(small.verdict, 'too little data');
      assert.match(small.reason!, /e has 10 rows/);
    },
  );
});

/** Two groups a (2n rows) and b (n rows), a score and its label; b's scores carry `noise` more noise (a lower AUC). */
function scoreData(n: number, seed: number, noiseB: number, shiftB: number) {
  const r = normals(seed);
  const g: string[] = [];
  const y: string[] = [];
  const s: number[] = [];
  for (let i = 0; i < 3 * n; i++) {
    const b = i % 3 === 0;
    const pos = r.u() < 0.4;
    g.push(b ? 'b' : 'a');
    y.push(pos ? 'yes' : 'no');
    s.push(600 + (pos ? 60 : 0) + (b ? shiftB : 0) + 40 * r.z() + (b ? noiseB * r.z() : 0));
  }
  return { g, y, s };
}

describe('scoreMetrics', () => {
  it(
    'a planted AUC disparity is flagged (disadvantaged), a ' + 'null one passes; the threshold and calibration say why',
    async () => {
      const engine = await getEngine();
      const planted = scoreData(1500, 7, 200, 0);
      const t = table(cat('g', planted.g), cat('y', planted.y), num('s', planted.s));
      const r = scoreMetrics(t, { label: 'y', pred: 's', groups: ['g'], rng: new Rng(engine, 1), bootstrap: 20 });
      const auc = r.attributes[0].comparisons[0];
      assert.equal(auc.metric, 'auc');
      assert.equal(auc.verdict, 'flagged');
      assert.equal(auc.direction, 'disadvantaged');
      assert.match(r.threshold.reason, /median/);
      assert.match(r.calibrationNote!, /\[0, 1\]/);
      assert.equal(r.thresholdView.attributes[0].calibration, null);
      const b = r.attributes[0].groups.find((x) => x.value === 'b')!;
      assert.ok(b.ci!.ks!.lo <= b.ks! && b.ks! <= b.ci!.ks!.hi);
      // the curve: 19 quantile thresholds, the reference's ratio null
      assert.equal(r.attributes[0].curve.length, 19);
      assert.equal(r.attributes[0].curve[0].groups.find((x) => x.value === 'a')!.ratio, null);

      const nul = scoreData(1500, 11, 0, 0);
      const t0 = table(cat('g', nul.g), cat('y', nul.y), num('s', nul.s));
      const r0 = scoreMetrics(t0, { label: 'y', pred: 's', groups: ['g'], rng: new Rng(engine, 1), bootstrap: 0 });
      assert.equal(r0.attributes[0].comparisons[0].verdict, 'pass');
      assert.equal(r0.verdicts.counts.flagged, 0);
      // one Holm family: the AUC and the threshold view's comparisons of every judged binary metric
      assert.equal(r0.verdicts.comparisons, r0.thresholdView.verdicts.comparisons);
      assert.equal(r0.verdicts.comparisons, 1 + JUDGED_METRICS.length);
    },
  );

  it(
    'the coding rule: s → −s, the other label positive, ' + 'favourable flipped, threshold → −t: the same verdicts',
    async () => {
      const engine = await getEngine();
      const d = scoreData(800, 5, 60, -30);
      const t = 612.34567;
      const r = scoreMetrics(table(cat('g', d.g), cat('y', d.y), num('s', d.s)), {
        label: 'y',
        pred: 's',
        groups: ['g'],
        threshold: t,
        rng: new Rng(engine, 1),
        bootstrap: 0,
      });
      const f = scoreMetrics(
        table(
          cat('g', d.g),
          cat('y', d.y),
          num(
            's',
            d.s.map((x) => -x),
          ),
        ),
        {
          label: 'y',
          pred: 's',
          groups: ['g'],
          positive: 'no',
          favourable: 'lower',
          threshold: -t,
          rng: new Rng(engine, 1),
          bootstrap: 0,
        },
      );
      const [a, b] = [r.attributes[0].comparisons[0], f.attributes[0].comparisons[0]];
      assert.equal(a.rate, b.rate);
      assert.equal(a.se, b.se);
      assert.deepEqual([a.verdict, a.direction, a.p], [b.verdict, b.direction, b.p]);
      const sel = (x: ScoreReport) =>
        x.thresholdView.attributes[0].comparisons.find((c) => c.metric === 'selection_rate')!;
      assert.deepEqual(
        [sel(r).rate, sel(r).verdict, sel(r).direction],
        [sel(f).rate, sel(f).verdict, sel(f).direction],
      );
      const gb = (x: ScoreReport) => x.attributes[0].groups.find((g) => g.value === 'b')!;
      close(gb(r).ks!, gb(f).ks!, 1e-12);
      close(gb(r).wasserstein!, gb(f).wasserstein!, 1e-9);
      assert.deepEqual(r.verdicts.counts, f.verdicts.counts);
    },
  );

  it(
    'integer scores: the default cut lies between two scores, the same cut under either coding, so the coding rule ' +
      'holds with ties; a given cut on a score warns',
    async () => {
      const engine = await getEngine();
      const d = scoreData(800, 5, 60, -30);
      const s = d.s.map((x) => Math.round(x / 25)); // about 20 distinct values, many rows on each
      const named = (t?: number) =>
        scoreMetrics(table(cat('g', d.g), cat('y', d.y), num('s', s)), {
          label: 'y',
          pred: 's',
          groups: ['g'],
          threshold: t,
          rng: new Rng(engine, 1),
          bootstrap: 0,
        });
      const r = named();
      const t = r.threshold.value;
      assert.ok(!s.includes(t), `the default cut ${t} is a score some row holds`);
      assert.match(r.threshold.reason, /moved halfway to the next score below it/);
      const f = scoreMetrics(
        table(
          cat('g', d.g),
          cat('y', d.y),
          num(
            's',
            s.map((x) => -x),
          ),
        ),
        {
          label: 'y',
          pred: 's',
          groups: ['g'],
          positive: 'no',
          favourable: 'lower',
          // no threshold: the recoded run's own default cut is the same cut, read from the other end
          rng: new Rng(engine, 1),
          bootstrap: 0,
        },
      );
      assert.equal(f.threshold.value, -t);
      const view = (x: ScoreReport) =>
        x.thresholdView.attributes[0].comparisons.map((c) => [c.rate, c.ratio, c.verdict, c.direction]);
      const other = (x: ScoreReport) => new Map(x.thresholdView.attributes[0].comparisons.map((c) => [c.metric, c]));
      // selection rate on selection rate, TPR on TNR, …: the same figures under the other coding
      const fo = other(f);
      const { recodedMetric } = await import('../../src/methods/metrics/index.js');
      for (const c of r.thresholdView.attributes[0].comparisons) {
        const m = recodedMetric(c.metric);
        const g = fo.get(m.metric)!;
        assert.deepEqual([c.verdict, c.direction], [g.verdict, g.direction], c.metric);
        if (!m.complement) assert.equal(c.rate, g.rate, c.metric);
      }
      assert.equal(view(r).length, view(f).length);
      // the curve's cuts lie between scores too: the same selection rates read from either end
      assert.ok(r.attributes[0].curve.every((p) => !s.includes(p.threshold)));
      // the cut as given, on a score that rows hold: a warning says what changes with the coding
      const held = named(s[0]);
      assert.ok(
        held.warnings.some((w) => /score exactly .*decided "not above" here/.test(w)),
        held.warnings.join('\n'),
      );
      assert.ok(!r.warnings.some((w) => /score exactly/.test(w)));
    },
  );

  it('errors name the column and the row', async () => {
    const engine = await getEngine();
    const rng = new Rng(engine, 1);
    const t = table(cat('g', ['a', 'b', 'a']), cat('y', ['no', 'yes', 'no']), num('s', [3, NaN, 7]));
    assert.throws(
      () => scoreMetrics(t, { label: 'y', pred: 's', groups: ['g'], rng }),
      (e: Error & { code?: string }) => e.code === 'E_INPUT' && /"s".*data row 2/.test(e.message),
    );
    assert.throws(
      () => scoreMetrics(t, { label: 'y', pred: 'nope', groups: ['g'], rng }),
      (e: Error & { code?: string }) => e.code === 'E_ARG' && /--pred "nope" is not a column/.test(e.message),
    );
  });
});

/** Two groups and a real value; b's predictions are `biasB` lower than its labels. */
function regressionData(n: number, seed: number, biasB: number, level = 50) {
  const r = normals(seed);
  const g: string[] = [];
  const y: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < 3 * n; i++) {
    const b = i % 3 === 0;
    const v = level + 8 * r.z();
    g.push(b ? 'b' : 'a');
    y.push(v);
    p.push(v + 3 * r.z() + (b ? biasB : 0));
  }
  return { g, y, p };
}

const verdictsOf = (r: RegressionReport) =>
  r.attributes[0].comparisons.map((c) => `${c.metric} ${c.group} ${c.verdict} ${c.direction}`);

describe('regressionMetrics', () => {
  it(
    'a planted bias is flagged (under-prediction ' + 'disadvantages), a null one passes; units and ratio modes',
    async () => {
      const engine = await getEngine();
      const d = regressionData(600, 3, -6);
      const t = table(cat('g', d.g), num('y', d.y), num('p', d.p));
      const units = regressionMetrics(t, {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        toleranceUnits: 2,
        rng: new Rng(engine, 1),
      });
      const bias = units.attributes[0].comparisons.find((c) => c.metric === 'mean_residual')!;
      assert.deepEqual([bias.verdict, bias.direction, bias.scale], ['flagged', 'disadvantaged', 'difference']);
      assert.deepEqual(bias.band, [-2, 2]);
      const ratio = regressionMetrics(t, { label: 'y', pred: 'p', groups: ['g'], rng: new Rng(engine, 1) });
      const mean = ratio.attributes[0].comparisons.find((c) => c.metric === 'mean_prediction')!;
      assert.equal(mean.scale, 'ratio');
      // the bias band in ratio mode: ±(1 − τ)·|the reference's mean label|
      const refLabel = ratio.attributes[0].groups.find((g) => g.reference)!.mean_label!;
      close(ratio.attributes[0].biasBand[1], 0.2 * Math.abs(refLabel));
      const n0 = regressionData(600, 4, 0);
      const r0 = regressionMetrics(table(cat('g', n0.g), num('y', n0.y), num('p', n0.p)), {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        toleranceUnits: 2,
        rng: new Rng(engine, 1),
      });
      assert.equal(r0.verdicts.counts.flagged, 0);
    },
  );

  it('the coding rule: negated and favourable flipped (units), scaled by 1000 (ratio): the same verdicts', async () => {
    const engine = await getEngine();
    const d = regressionData(500, 9, -4);
    const run = (y: number[], p: number[], o: object) =>
      regressionMetrics(table(cat('g', d.g), num('y', y), num('p', p)), {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        rng: new Rng(engine, 1),
        bootstrap: 0,
        ...o,
      });
    const u = run(d.y, d.p, { toleranceUnits: 1.5 });
    const neg = run(
      d.y.map((x) => -x),
      d.p.map((x) => -x),
      { toleranceUnits: 1.5, favourable: 'lower' },
    );
    assert.deepEqual(verdictsOf(u), verdictsOf(neg));
    assert.ok(verdictsOf(u).some((v) => v.includes('flagged disadvantaged')));
    const m = u.attributes[0].comparisons.find((c) => c.metric === 'mean_prediction')!;
    const mn = neg.attributes[0].comparisons.find((c) => c.metric === 'mean_prediction')!;
    assert.equal(m.estimate, -mn.estimate!);
    assert.equal(m.se, mn.se);
    const r = run(d.y, d.p, {});
    const k = run(
      d.y.map((x) => 1000 * x),
      d.p.map((x) => 1000 * x),
      {},
    );
    assert.deepEqual(verdictsOf(r), verdictsOf(k));
  });

  it(
    'errors: a prediction < 0 in ratio mode, a non-numeric ' + 'prediction, a missing cell; 0 is a prediction',
    async () => {
      const engine = await getEngine();
      const rng = new Rng(engine, 1);
      const g = cat('g', ['a', 'b', 'a', 'b']);
      const t = table(g, num('y', [1, 2, 3, 4]), num('p', [1, -2, 3, 4]));
      assert.throws(
        () => regressionMetrics(t, { label: 'y', pred: 'p', groups: ['g'], rng }),
        (e: Error & { code?: string }) => e.code === 'E_ARG' && /"p".*data row 2.*--tolerance-units/.test(e.message),
      );
      // an offer of 0 (a declined applicant) is a value: the ratio of means needs no positive row, only a positive mean
      const zero = regressionMetrics(table(g, num('y', [1, 2, 3, 4]), num('p', [0, 2, 3, 4])), {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        minGroupSize: 1,
        rng,
      });
      assert.equal(zero.attributes[0].groups.find((x) => x.value === 'a')!.mean_prediction, 1.5);
      const t2 = table(g, num('y', [1, 2, 3, 4]), cat('p', ['1', 'x', '3', '4']));
      assert.throws(
        () => regressionMetrics(t2, { label: 'y', pred: 'p', groups: ['g'], toleranceUnits: 1, rng }),
        (e: Error & { code?: string }) => e.code === 'E_ARG' && /"p".*"x".*data row 2/.test(e.message),
      );
      const t3 = table(g, num('y', [1, NaN, 3, 4]), num('p', [1, 2, 3, 4]));
      assert.throws(
        () => regressionMetrics(t3, { label: 'y', pred: 'p', groups: ['g'], toleranceUnits: 1, rng }),
        (e: Error & { code?: string }) => e.code === 'E_INPUT' && /label "y".*data row 2/.test(e.message),
      );
    },
  );
});

describe('scores in [0, 1] and the binary comparisons', () => {
  it(
    '--output score on P(positive): the default threshold ' + '0.5, calibration kept; binary comparisons gain no field',
    async () => {
      const engine = await getEngine();
      const d = scoreData(200, 13, 0, 0);
      const p = d.s.map((x) => 1 / (1 + Math.exp(-(x - 630) / 40)));
      const t = table(cat('g', d.g), cat('y', d.y), num('p', p));
      const r = outputMetrics(t, {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        output: 'score',
        favourable: 'higher',
        rng: new Rng(engine, 1),
      });
      assert.equal(r.kind, 'score');
      if (r.kind !== 'score') return;
      assert.equal(r.report.threshold.value, 0.5);
      assert.match(r.report.threshold.reason, /every score is in \[0, 1\]/);
      assert.equal(r.report.calibrationNote, null);
      assert.ok(r.report.thresholdView.attributes[0].calibration !== null);
      const bin = outputMetrics(t, { label: 'y', pred: 'p', groups: ['g'], rng: new Rng(engine, 1) });
      assert.equal(bin.kind, 'binary');
      for (const c of bin.report.attributes[0].comparisons)
        for (const k of ['scale', 'estimate', 'band', 'sizes']) assert.ok(!(k in c), k);
    },
  );

  it('small and suppressed groups get no verdict and, suppressed, no figure', async () => {
    const engine = await getEngine();
    const d = regressionData(100, 6, -5);
    const g = d.g.map((x, i) => (i < 12 ? 'c' : x));
    const r = regressionMetrics(table(cat('g', g), num('y', d.y), num('p', d.p)), {
      label: 'y',
      pred: 'p',
      groups: ['g'],
      toleranceUnits: 1,
      suppressBelow: 20,
      rng: new Rng(engine, 1),
    });
    const c = r.attributes[0].groups.find((x) => x.value === 'c')!;
    assert.deepEqual([c.suppressed, c.mean_prediction, c.mae, c.ci], [true, null, null, undefined]);
    for (const x of r.attributes[0].comparisons.filter((x) => x.group === 'c'))
      assert.deepEqual([x.verdict, x.rate, x.p, x.reason], ['too little data', null, null, 'suppressed (n < 20)']);
  });
});

describe('outputMetrics and the table', () => {
  it(
    'dispatches on the inferred kind and says why; --positive ' + 'keeps the binary reading of a many-valued label',
    async () => {
      const engine = await getEngine();
      const d = regressionData(100, 2, 0);
      const t = table(cat('g', d.g), num('y', d.y), num('p', d.p));
      const r = outputMetrics(t, {
        label: 'y',
        pred: 'p',
        groups: ['g'],
        toleranceUnits: 1,
        favourable: 'higher',
        rng: new Rng(engine, 1),
      });
      assert.equal(r.kind, 'regression');
      assert.match(r.output.reason, /^inferred regression/);
      assert.throws(
        () =>
          outputMetrics(t, { label: 'y', pred: 'p', groups: ['g'], favourable: 'positive', rng: new Rng(engine, 1) }),
        /higher or lower/,
      );
      const three = table(
        cat('g', ['a', 'b', 'a', 'b']),
        cat('y', ['x', 'y', 'z', 'x']),
        cat('p', ['x', 'y', 'y', 'z']),
      );
      const b = outputMetrics(three, { label: 'y', pred: 'p', positive: 'y', groups: ['g'], rng: new Rng(engine, 1) });
      assert.equal(b.kind, 'binary');
      assert.match(b.output.reason, /--positive "y"/);
    },
  );

  it('every judged metric of the table is closed under the other coding', () => {
    for (const m of OUTPUT_METRICS) {
      const d = OUTPUT_METRIC_DEFS[m];
      assert.ok(OUTPUT_METRICS.includes(d.recoded.metric as never), m);
      if (d.judged) assert.equal(OUTPUT_METRIC_DEFS[d.recoded.metric as typeof m].judged, true, m);
    }
  });
});

describe('lucid metrics for scores and real values (CLI)', () => {
  const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
  const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, 'metrics', ...args], { encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'lucid-outputs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const sd = scoreData(300, 21, 100, -20);
  const scoreFile = join(dir, 'score.csv');
  writeFileSync(scoreFile, `g,y,s\n${sd.g.map((g, i) => `${g},${sd.y[i]},${sd.s[i].toFixed(2)}`).join('\n')}\n`);
  const rd = regressionData(300, 22, -6, 5000);
  const regFile = join(dir, 'reg.csv');
  writeFileSync(
    regFile,
    `g,y,p\n${rd.g.map((g, i) => `${g},${rd.y[i].toFixed(2)},${rd.p[i].toFixed(2)}`).join('\n')}\n`,
  );

  it('a score: text says the kind first, JSON carries the output, the AUC and the curve', () => {
    const t = lucid(
      '--data',
      scoreFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      's',
      '--group',
      'g',
      '--bootstrap',
      '20',
    );
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stdout.split('\n')[0], /^output: inferred score: /);
    assert.match(t.stdout, /headline: /);
    assert.match(t.stdout, /threshold view at /);
    const j = lucid(
      '--data',
      scoreFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      's',
      '--group',
      'g',
      '--format',
      'json',
    );
    assert.equal(j.status, 0, j.stderr);
    const r = JSON.parse(j.stdout) as ScoreReport;
    assert.equal(r.output.kind, 'score');
    assert.equal(r.attributes[0].comparisons[0].metric, 'auc');
    assert.ok(r.attributes[0].curve.length > 0);
    const c = lucid(
      '--data',
      scoreFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      's',
      '--group',
      'g',
      '--format',
      'csv',
    );
    assert.match(c.stdout.split('\n')[0], /^column,value,n,reference,small,suppressed,auc,ks,wasserstein,/);
  });

  it('a score or a real value without --favourable is a usage error, never read one way by default', () => {
    for (const [file, pred] of [
      [scoreFile, 's'],
      [regFile, 'p'],
    ]) {
      const r = lucid('--data', file, '--label', 'y', '--pred', pred, '--group', 'g');
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /output needs --favourable higher or lower/);
      assert.equal(r.stdout, '');
    }
  });

  it("a real value: text and JSON; --favourable positive is refused in the kind's words", () => {
    const t = lucid(
      '--data',
      regFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--tolerance-units',
      '2',
    );
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stdout.split('\n')[0], /^output: inferred regression: /);
    assert.match(t.stdout, /headline: g = b is disadvantaged/);
    const j = lucid(
      '--data',
      regFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--format',
      'json',
    );
    assert.equal(j.status, 0, j.stderr);
    const r = JSON.parse(j.stdout) as RegressionReport;
    assert.equal(r.output.kind, 'regression');
    assert.equal(r.verdicts.mode, 'ratio');
    const bad = lucid(
      '--data',
      regFile,
      '--favourable',
      'higher',
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--favourable',
      'positive',
    );
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /regression output takes --favourable higher or lower/);
  });
});

describe("the headline states the kind's main comparison first", () => {
  it('score: the selection rate at the threshold view; regression: the mean prediction', async () => {
    const { simulate, SIM_TARGETS } = await import('../../src/data/simulator.js');
    const { outputHeadline } = await import('../../src/methods/metrics/index.js');
    const engine = await getEngine();
    for (const [target, words] of [
      ['score', /^headline: group = B is disadvantaged: selection rate /],
      ['regression', /^headline: group = B is disadvantaged: mean prediction /],
    ] as const) {
      const sim = simulate(new Rng(engine, 7), { n: 3000, bias: 'direct', target });
      const r = outputMetrics(sim.table, {
        label: SIM_TARGETS[target].label,
        pred: SIM_TARGETS[target].prediction!,
        groups: ['sex', 'group'],
        favourable: 'higher',
        ...(target === 'score' ? { positive: 'yes' } : {}),
        rng: new Rng(engine, 1),
      });
      assert.equal(r.kind, target);
      // other flags on the same group (AUC, FNR; MAE, bias) are at least as significant in this sample: the
      // headline still leads with what the output gives the group
      assert.match(outputHeadline(r), words);
      // the disadvantaged group as the reference: its flags are "advantaged" for A, read from B's side
      const flipped = outputMetrics(sim.table, {
        label: SIM_TARGETS[target].label,
        pred: SIM_TARGETS[target].prediction!,
        groups: ['group'],
        reference: { group: 'B' },
        favourable: 'higher',
        ...(target === 'score' ? { positive: 'yes' } : {}),
        rng: new Rng(engine, 1),
      });
      assert.match(
        outputHeadline(flipped),
        new RegExp(
          String(words.source).replace('B is', 'B \\(the reference\\) is').replace(/ $/, '') + '.* against A,',
        ),
      );
    }
  });
});
