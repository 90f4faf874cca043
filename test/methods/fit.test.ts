// The model's fit before any group (src/methods/metrics/fit.ts): the AUC and DeLong's interval, the
// stop on scores that rank the label worse than chance, the weak and constant model said first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aucOf, groupMetrics, modelFit } from '../../src/methods/metrics/index.js';
import { EngineError } from '../../src/engine/errors.js';
import { hostRng } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

/** The AUC by its definition: every positive–negative pair, ties counted half. */
function bruteAuc(y: Uint8Array, s: ArrayLike<number>): number {
  let u = 0;
  let pairs = 0;
  for (let i = 0; i < y.length; i++) {
    if (!y[i]) continue;
    for (let j = 0; j < y.length; j++) {
      if (y[j]) continue;
      pairs++;
      u += s[i] > s[j] ? 1 : s[i] === s[j] ? 0.5 : 0;
    }
  }
  return u / pairs;
}

/** n rows whose score rises with the label by `signal` (0: none), rounded to `digits` so that scores tie. */
function sample(n: number, signal: number, seed: number, digits = 2) {
  const rnd = hostRng(seed);
  const y = new Uint8Array(n);
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = rnd() < 0.4 ? 1 : 0;
    const v = Math.min(1, Math.max(0, 0.5 + signal * (y[i] ? 1 : -1) + 0.3 * (rnd() - 0.5)));
    s[i] = Math.round(v * 10 ** digits) / 10 ** digits;
  }
  return { y, s };
}

describe('aucOf', () => {
  it('is the pairwise definition, ties counted half, at sizes small and awkward', () => {
    for (const [n, signal, seed] of [
      [2, 0.2, 1],
      [7, 0.1, 2],
      [33, 0.05, 3],
      [200, 0, 4],
      [301, 0.15, 5],
    ] as const) {
      const { y, s } = sample(n, signal, seed);
      const a = aucOf(y, s);
      if (y.every((v) => v === y[0])) {
        assert.equal(a, null);
        continue;
      }
      assert.ok(Math.abs(a!.value - bruteAuc(y, s)) < 1e-15, `n ${n}: ${a!.value} vs ${bruteAuc(y, s)}`);
    }
  });

  it(
    'has the same value and interval, bit for bit, when the ' +
      'other class is named positive and the scores are 1 − p',
    () => {
      const { y, s } = sample(500, 0.08, 9, 3);
      const a = aucOf(y, s)!;
      // 1 − p to 3 decimals, exactly mirrored
      const b = aucOf(
        Uint8Array.from(y, (v) => 1 - v),
        Float64Array.from(s, (v) => Math.round((1 - v) * 1e3) / 1e3),
      )!;
      assert.deepEqual([b.value, b.se, b.ci95, b.ci99], [a.value, a.se, a.ci95, a.ci99]);
      assert.deepEqual([b.positives, b.negatives], [a.negatives, a.positives]);
    },
  );

  it("DeLong's interval covers the truth at about its level (200 samples of 400 rows)", () => {
    // a score that separates the classes by a normal shift: true AUC Φ(d / √2) with d = 1
    const truth = 0.7602499389065233;
    let covered = 0;
    for (let k = 0; k < 200; k++) {
      const rnd = hostRng(100 + k);
      const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
      const y = new Uint8Array(400);
      const s = new Float64Array(400);
      for (let i = 0; i < 400; i++) {
        y[i] = i < 160 ? 1 : 0;
        s[i] = gauss() + (y[i] ? 1 : 0);
      }
      const a = aucOf(y, s)!;
      if (a.ci95[0] <= truth && truth <= a.ci95[1]) covered++;
    }
    assert.ok(covered >= 180 && covered <= 199, `${covered} of 200 covered`);
  });
});

describe('modelFit', () => {
  const o = {
    positive: 'yes',
    negative: 'no',
    favourable: 'positive' as const,
    label: 'approved',
    what: 'the scores in "p"',
  };

  it(
    'stops on scores that rank the label worse than chance beyond noise, saying which class they probably give and ' +
      'how to say so',
    () => {
      const { y, s } = sample(600, 0.1, 11);
      const inverted = Float64Array.from(s, (v) => 1 - v);
      const yhat = Uint8Array.from(inverted, (v) => (v > 0.5 ? 1 : 0));
      assert.throws(
        () => modelFit(y, yhat, inverted, o),
        (e: unknown) =>
          e instanceof EngineError &&
          e.code === 'E_ARG' &&
          /worse than chance \(AUC 0\.\d+, 99% interval/.test(e.message) &&
          /probability of "no", not of the positive class "yes"/.test(e.message) &&
          /--positive "no"/.test(e.message) &&
          /--allow-inverted-scores/.test(e.message),
      );
      const kept = modelFit(y, yhat, inverted, { ...o, allowInverted: true });
      assert.equal(kept.inverted, true);
      assert.match(kept.weak[0], /every direction below may be reversed/);
      // the right way round: no stop, not weak
      const ok = modelFit(
        y,
        Uint8Array.from(s, (v) => (v > 0.5 ? 1 : 0)),
        s,
        o,
      );
      assert.deepEqual([ok.inverted, ok.weak], [false, []]);
      assert.ok(ok.auc!.value > 0.8);
    },
  );

  it(
    'a weak model: decisions ≥ 95% one way while the label ' +
      'is far from that one-sided, or an AUC within noise of 0.5',
    () => {
      const { y, s } = sample(1000, 0.1, 12);
      // nearly everyone approved (scores in [0.25, 0.75], threshold 0.26): about 98% one way, the label's majority
      // about 60%
      const oneWay = modelFit(
        y,
        Uint8Array.from(s, (v) => (v > 0.26 ? 1 : 0)),
        s,
        o,
      );
      assert.match(
        oneWay.weak.join(' '),
        /it decides 9\d\.\d% of the rows "yes", while the label's majority \("no"\) is only [56]\d\.\d%/,
      );
      // a constant model
      const constant = modelFit(y, new Uint8Array(1000).fill(1), new Float64Array(1000).fill(0.9), o);
      assert.match(constant.weak[0], /a constant model: it decides every row "yes"/);
      // scores unrelated to the label
      const noise = sample(400, 0, 13);
      const chance = modelFit(
        noise.y,
        Uint8Array.from(noise.s, (v) => (v > 0.5 ? 1 : 0)),
        noise.s,
        o,
      );
      assert.match(
        chance.weak.join(' '),
        /no better than chance within noise \(AUC 0\.\d+, 95% interval \[0\.\d+, 0\.\d+\]\)/,
      );
      // a label that is itself 96% one way: deciding 97% one way is no sign of weakness
      const skew = new Uint8Array(1000).map((_, i) => (i < 40 ? 1 : 0));
      const good = Float64Array.from(skew, (v, i) => (v ? 0.9 : i % 30 === 0 ? 0.6 : 0.1));
      const fine = modelFit(
        skew,
        Uint8Array.from(good, (v) => (v > 0.5 ? 1 : 0)),
        good,
        o,
      );
      assert.deepEqual(fine.weak, []);
    },
  );

  it('groupMetrics: the fit in the report; an inverted column stops lucid metrics unless allowed', () => {
    const { y, s } = sample(300, 0.12, 14);
    const t = table(
      cat(
        'approved',
        Array.from(y, (v) => (v ? 'yes' : 'no')),
      ),
      num(
        'p',
        Array.from(s, (v) => 1 - v),
      ),
      cat(
        'g',
        Array.from(y, (_, i) => (i % 3 ? 'a' : 'b')),
      ),
    );
    assert.throws(
      () => groupMetrics(t, { label: 'approved', positive: 'yes', pred: 'p', groups: ['g'] }),
      /the scores in "p" rank the label "approved" worse than chance/,
    );
    const r = groupMetrics(t, {
      label: 'approved',
      positive: 'yes',
      pred: 'p',
      groups: ['g'],
      allowInvertedScores: true,
    });
    assert.equal(r.fit.inverted, true);
    // predicted labels are in the label's own coding: no stop, said as weak
    const labels = table(
      cat(
        'approved',
        Array.from(y, (v) => (v ? 'yes' : 'no')),
      ),
      cat(
        'pred',
        Array.from(y, (v, i) => ((v ? i % 10 < 8 : i % 10 >= 8) ? 'no' : 'yes')),
      ),
      cat(
        'g',
        Array.from(y, (_, i) => (i % 3 ? 'a' : 'b')),
      ),
    );
    const l = groupMetrics(labels, { label: 'approved', positive: 'yes', pred: 'pred', groups: ['g'] });
    assert.equal(l.fit.aucOf, 'decisions');
    assert.match(l.fit.weak[0], /its decisions agree with the label less often than chance would/);
  });
});
