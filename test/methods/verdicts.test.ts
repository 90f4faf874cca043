// Verdicts: the band test and its error rate, Holm, references that are never small, the
// favourable direction, the LL144 impact table, calibration by group, the conditional disparity.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import {
  chooseReference,
  correctTogether,
  groupMetrics,
  type GroupMetricsOptions,
} from '../../src/methods/metrics/index.js';
import {
  compare,
  correct,
  normalCdf,
  normalQuantile,
  type Comparison,
  type VerdictSettings,
} from '../../src/methods/metrics/verdicts.js';
import { getEngine } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

const S: VerdictSettings = { tolerance: 0.8, alpha: 0.05, minGroupSize: 30, favourable: 'positive' };
// a confusion matrix whose positivity rate is x/n (every predicted positive a true positive)
const counts = (x: number, n: number) => ({ tp: x, fp: 0, tn: n - x, fn: 0 });

/** A small LCG so these tests need no engine. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

describe('normal distribution helpers', () => {
  it('Φ and Φ⁻¹ match tabulated values', () => {
    assert.ok(Math.abs(normalCdf(1.959963985) - 0.975) < 2e-7);
    assert.ok(Math.abs(normalCdf(-3) - 0.001349898) < 2e-7);
    assert.ok(Math.abs(normalQuantile(0.975) - 1.959963985) < 1e-6);
    assert.ok(Math.abs(normalQuantile(1e-6) + 4.753424309) < 1e-5);
    assert.ok(Math.abs(normalQuantile(0.5)) < 1e-6);
  });
});

describe('compare and correct: the band test', () => {
  it(
    'inside the band passes with p = 1; far outside with many ' +
      'rows is flagged; outside with few rows is inconclusive',
    () => {
      const inside = compare('positivity_rate', 'B', counts(90, 200), 'A', counts(100, 200), S);
      assert.equal(inside.p, 1);
      assert.equal(inside.verdict, 'pass');
      const far = compare('positivity_rate', 'B', counts(200, 1000), 'A', counts(500, 1000), S);
      const few = compare('positivity_rate', 'B', counts(12, 40), 'A', counts(20, 40), S);
      correct([far, few], 0.05);
      assert.equal(far.verdict, 'flagged');
      assert.equal(far.direction, 'disadvantaged');
      assert.ok(far.interval!.hi < 0.8, 'the interval at the corrected level lies outside the band');
      assert.equal(few.verdict, 'inconclusive');
      assert.ok(few.interval!.hi >= 0.8);
    },
  );

  it('small groups and undefined rates get "too little data" with the reason', () => {
    const small = compare('positivity_rate', 'B', counts(1, 20), 'A', counts(100, 200), S);
    assert.equal(small.verdict, 'too little data');
    assert.match(small.reason!, /B has 20 rows \(< 30\)/);
    const undef = compare('ppv', 'B', counts(0, 100), 'A', counts(50, 100), S);
    assert.equal(undef.verdict, 'too little data');
    assert.match(undef.reason!, /undefined/);
    const named = compare('positivity_rate', 'B', counts(10, 100), 'A', counts(5, 10), S, true);
    assert.match(named.reason!, /the reference A has 10 rows \(< 30\), as named/);
  });

  it('a higher ratio is flagged too (both directions), and the direction follows --favourable', () => {
    const hi = compare('positivity_rate', 'B', counts(600, 1000), 'A', counts(200, 1000), S);
    const hiNeg = compare('positivity_rate', 'B', counts(600, 1000), 'A', counts(200, 1000), {
      ...S,
      favourable: 'negative',
    });
    const fpr = compare('fpr', 'B', { tp: 0, fp: 100, tn: 900, fn: 0 }, 'A', { tp: 0, fp: 300, tn: 700, fn: 0 }, S);
    const fnr = compare('fnr', 'B', { tp: 700, fp: 0, tn: 0, fn: 300 }, 'A', { tp: 900, fp: 0, tn: 0, fn: 100 }, S);
    const ppv = compare('ppv', 'B', { tp: 200, fp: 800, tn: 0, fn: 0 }, 'A', { tp: 600, fp: 400, tn: 0, fn: 0 }, S);
    correct([hi, hiNeg, fpr, fnr, ppv], 0.05);
    assert.deepEqual([hi.verdict, hi.direction], ['flagged', 'advantaged']);
    assert.deepEqual([hiNeg.verdict, hiNeg.direction], ['flagged', 'disadvantaged']);
    // a lower FPR is a disadvantage when the positive outcome is favourable (more favourable errors go to the others)
    assert.deepEqual([fpr.verdict, fpr.direction], ['flagged', 'disadvantaged']);
    // a higher FNR disadvantages the group
    assert.deepEqual([fnr.verdict, fnr.direction], ['flagged', 'disadvantaged']);
    assert.deepEqual([ppv.verdict, ppv.direction], ['flagged', 'differs']);
  });

  it('Holm: adjusted p-values, and the interval at the corrected level agrees with the verdict', () => {
    const cs = [0.01, 0.04, 0.03, 0.005].map(
      (p) => ({ p, logRatio: -1, se: 0.3, verdict: 'inconclusive' }) as unknown as Comparison,
    );
    correct(cs, 0.05);
    const adj = cs.map((c) => c.pAdjusted!);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => assert.ok(Math.abs(adj[i] - v) < 1e-12, `${adj[i]} vs ${v}`));
    assert.deepEqual(
      cs.map((c) => c.verdict),
      ['flagged', 'inconclusive', 'inconclusive', 'flagged'],
    );
    // the corrected level is α·p/p̃
    assert.ok(Math.abs(cs[0].level! - (0.05 * 0.01) / 0.03) < 1e-12);
    const rnd = lcg(3);
    const many: Comparison[] = [];
    for (let k = 0; k < 60; k++) {
      const n = 40 + Math.floor(rnd() * 400);
      const x = Math.floor(rnd() * n * 0.5) + 1;
      many.push(compare('positivity_rate', `g${k}`, counts(x, n), 'A', counts(Math.floor(n * 0.5), n), S));
    }
    correct(many, 0.05);
    for (const c of many) {
      if (c.verdict === 'pass') continue;
      const outside = c.interval!.hi < 0.8 || c.interval!.lo > 1.25;
      assert.equal(
        c.verdict === 'flagged',
        outside,
        `${c.group}: ${c.verdict} with interval [${c.interval!.lo}, ${c.interval!.hi}]`,
      );
    }
  });

  it('the error rate: a true ratio exactly at the band edge is flagged in at most α of 400 repetitions', () => {
    // the hardest null: the true ratio is 0.8 (inside the band, just). A test of ratio = 1 would flag
    // it in nearly every repetition at this size.
    const rnd = lcg(11);
    let flagged = 0;
    const reps = 400;
    for (let r = 0; r < reps; r++) {
      let a = 0;
      let b = 0;
      for (let i = 0; i < 2000; i++) {
        if (rnd() < 0.4) a++;
        if (rnd() < 0.5) b++;
      }
      const c = compare('positivity_rate', 'B', counts(a, 2000), 'A', counts(b, 2000), S);
      correct([c], 0.05);
      if (c.verdict === 'flagged') flagged++;
    }
    assert.ok(flagged / reps <= 0.05, `flagged ${flagged} of ${reps}`);
  });
});

describe('references', () => {
  it('the largest group that is not small, never a tiny group with the highest rate', () => {
    const r = chooseReference(['19', '30', '45'], [2, 100, 50], 30);
    assert.equal(r.value, '30');
    assert.equal(r.source, 'largest');
    assert.match(r.reason, /largest group that is not small; n = 100/);
    assert.equal(chooseReference(['a', 'b'], [3, 5], 30).value, 'b');
    assert.match(chooseReference(['a', 'b'], [3, 5], 30).reason, /every group has fewer than 30 rows/);
    assert.equal(chooseReference(['a', 'b'], [3, 500], 30, 'a').value, 'a');
  });

  it(
    'groupMetrics: the reference, the four-fifths rule ' + 'among groups that are not small, unknown values counted',
    () => {
      // 'tiny': 2 rows, both positive; 'big': 400 rows at 50%; 'mid': 300 rows at 20%; 4 rows with no group
      const g: (string | null)[] = [];
      const p: number[] = [];
      const y: number[] = [];
      const add = (v: string | null, n: number, pos: number) => {
        for (let i = 0; i < n; i++) {
          g.push(v);
          p.push(i < pos ? 0.9 : 0.1);
          y.push(i % 2);
        }
      };
      add('tiny', 2, 2);
      add('big', 400, 200);
      add('mid', 300, 60);
      add(null, 4, 4);
      const cats = ['tiny', 'big', 'mid'];
      const t = table(num('y', y), num('p', p), {
        kind: 'categorical',
        name: 'grp',
        codes: Int32Array.from(g, (v) => (v === null ? -1 : cats.indexOf(v))),
        categories: cats,
      });
      const r = groupMetrics(t, { label: 'y', pred: 'p', groups: ['grp'] });
      const a = r.attributes[0];
      assert.equal(a.reference.value, 'big');
      assert.equal(a.unknown, 4);
      assert.equal(a.fourFifths.reference, 'big');
      assert.deepEqual(a.fourFifths.below, ['mid']);
      assert.equal(a.fourFifths.ratio.tiny, null);
      assert.ok(a.comparisons.filter((c) => c.group === 'tiny').every((c) => c.verdict === 'too little data'));
      const mid = a.comparisons.find((c) => c.group === 'mid' && c.metric === 'selection_rate')!;
      assert.equal(mid.verdict, 'flagged');
      assert.equal(mid.direction, 'disadvantaged');
      // LL144: 'tiny' holds 2 of 702 known rows (< 2%): shown, excluded from impact ratios
      const tiny = a.impact.rows.find((x) => x.category === 'tiny')!;
      assert.equal(tiny.excluded, true);
      assert.equal(tiny.impactRatio, null);
      assert.equal(a.impact.highest, 'big');
      assert.equal(a.impact.unknown, 4);
      assert.ok(Math.abs(a.impact.rows.find((x) => x.category === 'mid')!.impactRatio! - 0.4) < 1e-12);
      // favourable negative: the selection rate is the negative decision's rate
      const n = groupMetrics(t, { label: 'y', pred: 'p', groups: ['grp'], favourable: 'negative' });
      assert.equal(n.attributes[0].fourFifths.reference, 'mid');
      assert.deepEqual(n.attributes[0].fourFifths.below, ['big']);
      assert.equal(
        n.attributes[0].comparisons.find((c) => c.group === 'mid' && c.metric === 'selection_rate')!.direction,
        'advantaged',
      );
      // one family across reports: the count of comparisons is the sum
      const r2 = groupMetrics(t, { label: 'y', pred: 'p', groups: ['grp'] });
      const before = r.verdicts.comparisons;
      correctTogether([r, r2]);
      assert.equal(r.verdicts.comparisons, 2 * before);
      assert.match(r.verdicts.correction, /Holm over the \d+ comparisons of 2 tables together/);
    },
  );
});

describe('unknown protected values', () => {
  it('a group written as a missing token (kept by the reader as a category) is unknown: left out and counted', () => {
    const t = table(
      num('y', [1, 0, 1, 0, 1, 0]),
      num('p', [0.9, 0.1, 0.9, 0.1, 0.9, 0.1]),
      cat('g', ['a', 'a', '', 'b', 'NA', 'b']),
    );
    const r = groupMetrics(t, { label: 'y', pred: 'p', groups: ['g'], minGroupSize: 1 });
    assert.deepEqual(
      r.attributes[0].groups.map((g) => g.value),
      ['a', 'b'],
    );
    assert.equal(r.attributes[0].unknown, 2);
    assert.equal(r.attributes[0].impact.unknown, 2);
  });
});

describe('numeric bins in numeric order', () => {
  it('bin labels sort by their lower edge, not as text; plain text still sorts as text', () => {
    const t = table(
      num('y', [1, 0, 1, 0, 1, 0]),
      num('p', [0.9, 0.1, 0.9, 0.1, 0.9, 0.1]),
      cat('age', ['(30, 50]', '(50, 90]', '[16, 30]', '(30, 50]', '(50, 90]', '[16, 30]']),
      cat('c', ['b', 'a', 'c', 'b', 'a', 'c']),
    );
    const r = groupMetrics(t, { label: 'y', pred: 'p', groups: ['age', 'c'], minGroupSize: 0 });
    assert.deepEqual(
      r.attributes[0].groups.map((g) => g.value),
      ['[16, 30]', '(30, 50]', '(50, 90]'],
    );
    assert.deepEqual(
      r.attributes[1].groups.map((g) => g.value),
      ['a', 'b', 'c'],
    );
    const x = groupMetrics(t, { label: 'y', pred: 'p', groups: ['age', 'c'], intersect: true, minGroupSize: 0 });
    assert.equal(x.attributes[0].groups[0].value.startsWith('[16, 30]'), true);
  });
});

describe('calibration and the conditional disparity', () => {
  it('ECE is near 0 for a calibrated group and large for a miscalibrated one, with a seeded interval', async () => {
    const rnd = lcg(5);
    const y: number[] = [];
    const p: number[] = [];
    const g: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const s = rnd();
      const grp = i % 2 ? 'cal' : 'off';
      const truth = grp === 'cal' ? s : Math.min(1, s * 0.5);
      y.push(rnd() < truth ? 1 : 0);
      p.push(s);
      g.push(grp);
    }
    const t = table(num('y', y), num('p', p), cat('g', g));
    const engine = await getEngine();
    const r = groupMetrics(t, { label: 'y', pred: 'p', groups: ['g'], rng: new Rng(engine, 1) });
    const cal = r.attributes[0].calibration!;
    const byName = Object.fromEntries(cal.map((c) => [c.group, c]));
    assert.ok(byName.cal.ece! < 0.05, `calibrated ECE ${byName.cal.ece}`);
    assert.ok(byName.off.ece! > 0.2, `miscalibrated ECE ${byName.off.ece}`);
    assert.ok(byName.off.ci!.lo! <= byName.off.ece! && byName.off.ece! <= byName.off.ci!.hi!);
    const again = groupMetrics(t, { label: 'y', pred: 'p', groups: ['g'], rng: new Rng(engine, 1) });
    assert.deepEqual(again.attributes[0].calibration, cal);
    // scores: the LL144 table uses the scoring rate above the sample's median
    assert.equal(r.attributes[0].impact.kind, 'scoring rate');
    assert.ok(Math.abs(r.attributes[0].impact.median! - 0.5) < 0.05);
  });

  it('--legitimate: a disparity wholly explained by a legitimate stratum has a conditional ratio of 1', () => {
    // group B is mostly in stratum "low", where everyone is selected at 20%; "high" selects 60% of everyone
    const g: string[] = [];
    const s: string[] = [];
    const p: number[] = [];
    const y: number[] = [];
    const add = (grp: string, st: string, n: number, sel: number) => {
      for (let i = 0; i < n; i++) {
        g.push(grp);
        s.push(st);
        p.push(i < sel ? 1 : 0);
        y.push(i % 2);
      }
    };
    add('A', 'high', 400, 240);
    add('A', 'low', 100, 20);
    add('B', 'high', 100, 60);
    add('B', 'low', 400, 80);
    const t = table(num('y', y), num('p', p), cat('g', g), cat('stratum', s));
    const opts: GroupMetricsOptions = {
      label: 'y',
      pred: 'p',
      groups: ['g'],
      legitimate: ['stratum'],
      reference: { g: 'A' },
    };
    const r = groupMetrics(t, opts);
    const row = r.attributes[0].conditional!.rows[0];
    assert.ok(Math.abs(row.crude! - 140 / 260) < 1e-12);
    assert.ok(Math.abs(row.conditional! - 1) < 1e-12);
    assert.ok(Math.abs(row.explainedShare! - 1) < 1e-12);
    assert.ok(row.ci!.lo < 1 && row.ci!.hi > 1);
    assert.throws(() => groupMetrics(t, { ...opts, legitimate: ['g'] }), /also a --group column/);
  });
});

describe('wilsonInterval', () => {
  it('matches the textbook values, keeps exact ends at 0 and n, and stays inside [0, 1]', async () => {
    const { wilsonInterval } = await import('../../src/methods/metrics/index.js');
    // 5 of 10 at 95%: [0.2366, 0.7634] (Wilson 1927; Newcombe 1998, table I)
    const a = wilsonInterval(5, 10)!;
    assert.ok(Math.abs(a.lo - 0.2366) < 1e-4 && Math.abs(a.hi - 0.7634) < 1e-4, JSON.stringify(a));
    // 0 of 10: [0, 0.2775]; 10 of 10: [0.7225, 1]
    const z = wilsonInterval(0, 10)!;
    assert.equal(z.lo, 0);
    assert.ok(Math.abs(z.hi - 0.2775) < 1e-4, JSON.stringify(z));
    const f = wilsonInterval(10, 10)!;
    assert.equal(f.hi, 1);
    assert.ok(Math.abs(f.lo - 0.7225) < 1e-4, JSON.stringify(f));
    // 1 of 1: wide, not a point
    const one = wilsonInterval(1, 1)!;
    assert.ok(one.lo < 0.25 && one.hi === 1);
    // 99% is wider than 95%
    const w99 = wilsonInterval(30, 100, 0.99)!;
    const w95 = wilsonInterval(30, 100, 0.95)!;
    assert.ok(w99.lo < w95.lo && w99.hi > w95.hi);
    assert.equal(wilsonInterval(0, 0), null);
    assert.equal(wilsonInterval(3, 2), null);
  });
});
