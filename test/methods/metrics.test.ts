// Group metrics: hand-computed confusion matrices, sign conventions, intersections, bootstrap, the
// CLI, and the LUCID-GAN paper's Table 1 (label base rates: the reference swapped its Metrics arguments) on
// ../shared/data.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { groupMetrics, rates, type GroupMetricsOptions } from '../../src/methods/metrics/index.js';
import { writeCsv } from '../../src/node/csv.js';
import { datasetAvailability, loadAdult, loadCompas } from '../../src/node/datasets.js';
import { getEngine } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

// Group A: y = 1 1 1 0 0 0, ŷ = 1 1 0 1 0 0 → TP 2, FN 1, FP 1, TN 2
// Group B: y = 0 0 0 0,     ŷ = 1 0 0 0     → TP 0, FN 0, FP 1, TN 3 (no positives: TPR undefined)
// Group C: y = 1 1 0 0,     ŷ = 0 0 0 0     → TP 0, FN 2, FP 0, TN 2 (no predicted positives: PPV undefined)
const hand = table(
  num('y', [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0]),
  num('p', [0.9, 0.8, 0.3, 0.7, 0.1, 0.5, 0.6, 0.2, 0.4, 0, 0.1, 0.2, 0.3, 0.4]),
  cat('g', ['A', 'A', 'A', 'A', 'A', 'A', 'B', 'B', 'B', 'B', 'C', 'C', 'C', 'C']),
  cat('h', ['u', 'v', 'u', 'v', 'u', 'v', 'u', 'v', 'u', 'v', 'u', 'v', 'u', 'v']),
);
const base: GroupMetricsOptions = { label: 'y', pred: 'p', groups: ['g'], minGroupSize: 0 };
const close = (a: number | null, b: number | null, eps = 1e-12) => {
  if (a === null || b === null) return assert.equal(a, b);
  assert.ok(Math.abs(a - b) <= eps, `${a} vs ${b}`);
};

describe('the decision rule given whole or by its threshold', () => {
  it('groupMetrics decides the same with decision as with the threshold, and refuses both', () => {
    const byThreshold = groupMetrics(hand, { ...base, threshold: 0.35 });
    const byRule = groupMetrics(hand, { ...base, decision: { kind: 'probability', threshold: 0.35 } });
    assert.deepEqual(byRule, byThreshold);
    // 0.35 moves rows 0.4 and 0.5 of group A and B to the positive side: not the default's groups
    assert.notDeepEqual(byThreshold.attributes[0].groups, groupMetrics(hand, base).attributes[0].groups);
    assert.throws(
      () => groupMetrics(hand, { ...base, threshold: 0.35, decision: { kind: 'probability', threshold: 0.35 } }),
      (e: EngineError) => e.code === 'E_ARG' && /give a decision rule or a threshold, not both/.test(e.message),
    );
  });
});

describe('groupMetrics: hand-computed confusion matrices', () => {
  it('rates per group, p > 0.5 (0.5 itself is negative), undefined rates are null', () => {
    const r = groupMetrics(hand, base);
    assert.equal(r.predKind, 'scores');
    assert.equal(r.positive, '1');
    const [a, b, c] = r.attributes[0].groups;
    assert.deepEqual([a.tp, a.fp, a.tn, a.fn, a.n], [2, 1, 2, 1, 6]);
    close(a.base_rate, 0.5);
    close(a.positivity_rate, 0.5);
    close(a.tpr, 2 / 3);
    close(a.fpr, 1 / 3);
    close(a.ppv, 2 / 3);
    close(a.accuracy, 4 / 6);
    assert.deepEqual([b.tp, b.fp, b.tn, b.fn], [0, 1, 3, 0]);
    assert.equal(b.tpr, null);
    close(b.fpr, 0.25);
    close(b.ppv, 0);
    close(b.base_rate, 0);
    assert.equal(c.ppv, null);
    close(c.tpr, 0);
    close(c.positivity_rate, 0);
    assert.ok(r.warnings.some((w) => /g = B: no positive labels, TPR and FNR are undefined/.test(w)));
    assert.ok(r.warnings.some((w) => /g = C: no predicted positives, PPV and FDR are undefined/.test(w)));
    // the new rates of group A: FNR 1/3, FDR 1/3, NPV 2/3, FOR 1/3
    close(a.fnr, 1 / 3);
    close(a.fdr, 1 / 3);
    close(a.npv, 2 / 3);
    close(a.for, 1 / 3);
    assert.deepEqual(rates(0, 0, 0, 0, 'positive'), {
      base_rate: null,
      selection_rate: null,
      positivity_rate: null,
      tpr: null,
      tnr: null,
      fnr: null,
      fpr: null,
      ppv: null,
      fdr: null,
      npv: null,
      for: null,
      accuracy: null,
    });
  });

  it('a prediction column of label values, a threshold, a --positive', () => {
    const t = table(
      cat('y', ['no', 'yes', 'yes', 'no']),
      cat('yh', ['yes', 'yes', 'no', 'no']),
      cat('g', ['a', 'a', 'b', 'b']),
    );
    const r = groupMetrics(t, { label: 'y', pred: 'yh', groups: ['g'], minGroupSize: 0 });
    assert.equal(r.predKind, 'labels');
    assert.equal(r.positive, 'yes');
    assert.deepEqual(
      r.attributes[0].groups.map((g) => [g.tp, g.fp, g.tn, g.fn]),
      [
        [1, 1, 0, 0],
        [0, 0, 1, 1],
      ],
    );
    const neg = groupMetrics(t, { label: 'y', pred: 'yh', groups: ['g'], positive: 'no', minGroupSize: 0 });
    assert.deepEqual(
      neg.attributes[0].groups.map((g) => [g.tp, g.fp, g.tn, g.fn]),
      [
        [0, 0, 1, 1],
        [1, 1, 0, 0],
      ],
    );
    const r2 = groupMetrics(hand, { ...base, threshold: 0.35 });
    assert.equal(r2.attributes[0].groups[1].fp, 2); // B: 0.6 and 0.4 above 0.35
  });

  it('0/1 predictions with "0" the positive label: labels by default, P(positive) with predAs "scores"', () => {
    const t = table(num('y', [0, 0]), num('p', [0, 0]), cat('g', ['a', 'a']));
    // read as labels, p = 0 is the positive label "0": both rows true positives
    const asLabels = groupMetrics(t, { label: 'y', positive: '0', pred: 'p', groups: ['g'], minGroupSize: 0 });
    assert.equal(asLabels.predKind, 'labels');
    assert.equal(asLabels.attributes[0].groups[0].tp, 2);
    // read as P(positive), p = 0 is "not positive": both rows false negatives
    const asScores = groupMetrics(t, {
      label: 'y',
      positive: '0',
      pred: 'p',
      predAs: 'scores',
      groups: ['g'],
      minGroupSize: 0,
    });
    assert.equal(asScores.predKind, 'scores');
    assert.equal(asScores.attributes[0].groups[0].fn, 2);
  });

  it('errors: bad --pred values, unknown columns, --positive not a label value', () => {
    const t = table(num('y', [0, 1]), num('p', [0.2, 1.7]), cat('g', ['a', 'b']));
    assert.throws(
      () => groupMetrics(t, { label: 'y', pred: 'p', groups: ['g'] }),
      (e: EngineError) => e.code === 'E_INPUT' && /neither a value of the label/.test(e.message),
    );
    assert.throws(
      () => groupMetrics(hand, { ...base, groups: ['nope'] }),
      (e: EngineError) =>
        e.code === 'E_ARG' && /metrics: --group "nope" is not a column; the columns are/.test(e.message),
    );
    assert.throws(
      () => groupMetrics(hand, { ...base, positive: '7' }),
      (e: EngineError) => e.code === 'E_ARG',
    );
    assert.throws(
      () => groupMetrics(hand, { ...base, reference: { g: 'Z' } }),
      (e: EngineError) => e.code === 'E_ARG' && /has no rows/.test(e.message),
    );
  });
});

describe('groupMetrics: disparity conventions', () => {
  it('aif360 difference is group − reference; fairlearn is max − min; ratio is group / reference', () => {
    // minGroupSize 1: the hand table's groups are tiny, and max − min leaves small groups out
    const r = groupMetrics(hand, { ...base, reference: { g: 'A' }, minGroupSize: 1 });
    const a = r.attributes[0];
    assert.equal(a.reference.value, 'A');
    assert.equal(a.reference.source, 'given');
    const pos = a.disparities.positivity_rate; // A 0.5, B 0.25, C 0
    close(pos.difference.B, -0.25);
    close(pos.difference.C, -0.5);
    close(pos.ratio.B, 0.5);
    close(pos.ratio.C, 0);
    // the four-fifths rule: against the most selected group (A), B and C below 0.8
    assert.deepEqual(a.fourFifths.below, ['B', 'C']);
    assert.equal(a.fourFifths.reference, 'A');
    close(pos.max_minus_min, 0.5);
    const tpr = a.disparities.tpr; // A 2/3, B null, C 0
    assert.equal(tpr.difference.B, null);
    close(tpr.difference.C, -2 / 3);
    close(tpr.max_minus_min, 2 / 3); // over the defined groups only
    const br = a.disparities.base_rate; // A 0.5, B 0, C 0.5
    close(br.difference.C, 0);
    close(br.ratio.C, 1);
    // reference C: the sign flips, ratio with a reference rate of 0 is undefined
    const rc = groupMetrics(hand, { ...base, reference: { g: 'C' }, minGroupSize: 1 });
    close(rc.attributes[0].disparities.positivity_rate.difference.A, 0.5);
    assert.equal(rc.attributes[0].disparities.positivity_rate.ratio.A, null);
  });

  it('without --reference, the largest group that is not small, and the output says why', () => {
    const r = groupMetrics(hand, { ...base, minGroupSize: 1 });
    assert.equal(r.attributes[0].reference.value, 'A'); // A 6 rows, B 4, C 4
    assert.match(r.attributes[0].reference.reason, /largest group that is not small; n = 6/);
    assert.equal(r.attributes[0].groups.filter((g) => g.reference).length, 1);
    // the old name still works
    assert.equal(groupMetrics(hand, { ...base, privileged: { g: 'B' } }).attributes[0].reference.value, 'B');
  });

  it('--intersect: the Cartesian product, one attribute; several groups without it are separate attributes', () => {
    const sep = groupMetrics(hand, { ...base, groups: ['g', 'h'] });
    assert.deepEqual(
      sep.attributes.map((a) => a.column),
      ['g', 'h'],
    );
    const x = groupMetrics(hand, { ...base, groups: ['g', 'h'], intersect: true, reference: { g: 'A', h: 'u' } });
    assert.equal(x.attributes.length, 1);
    assert.equal(x.attributes[0].column, 'g × h');
    assert.deepEqual(
      x.attributes[0].groups.map((g) => [g.value, g.n]),
      [
        ['A, u', 3],
        ['A, v', 3],
        ['B, u', 2],
        ['B, v', 2],
        ['C, u', 2],
        ['C, v', 2],
      ],
    );
    const au = x.attributes[0].groups[0]; // rows 0 2 4: y 1 1 0, ŷ 1 0 0
    assert.deepEqual([au.tp, au.fp, au.tn, au.fn], [1, 0, 1, 1]);
    assert.equal(x.attributes[0].reference.value, 'A, u');
    assert.throws(
      () => groupMetrics(hand, { ...base, groups: ['g', 'h'], intersect: true, reference: { g: 'A' } }),
      /for every --group column/,
    );
  });

  it('small groups are warned about (n < 30 by default) and get no verdict', () => {
    const r = groupMetrics(hand, { label: 'y', pred: 'p', groups: ['g'] });
    assert.ok(
      r.warnings.some((w) => /g: 3 groups have fewer than 30 rows \(A: 6, B: 4, C: 4\); they get no verdict/.test(w)),
      r.warnings.join('\n'),
    );
    assert.ok(r.attributes[0].comparisons.every((c) => c.verdict === 'too little data'));
  });
});

describe('groupMetrics: bootstrap', () => {
  // 400 rows, two groups with different rates
  const n = 400;
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const g = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 'F' : 'M'));
  const y = g.map((v) => (rnd() < (v === 'M' ? 0.4 : 0.2) ? 1 : 0));
  const p = y.map((v) => Math.min(1, Math.max(0, 0.5 + (v ? 0.25 : -0.25) + (rnd() - 0.5) * 0.8)));
  const t = table(num('y', y), num('p', p), cat('sex', g));

  it('same seed, same intervals; another seed, other intervals; intervals contain the point estimates', async () => {
    const engine = await getEngine();
    const run = (seed: number) =>
      groupMetrics(t, {
        label: 'y',
        pred: 'p',
        groups: ['sex'],
        reference: { sex: 'M' },
        bootstrap: 300,
        rng: new Rng(engine, seed),
      });
    const a = run(7);
    const b = run(7);
    const c = run(8);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.attributes[0].groups[0].ci, c.attributes[0].groups[0].ci);
    assert.deepEqual(a.bootstrap?.seed, 7);
    const attr = a.attributes[0];
    const inside = (v: number | null, ci: { lo: number | null; hi: number | null }) =>
      v === null || (ci.lo! <= v && v <= ci.hi!);
    for (const grp of attr.groups)
      for (const m of ['base_rate', 'positivity_rate', 'tpr', 'fpr', 'ppv', 'accuracy'] as const)
        assert.ok(inside(grp[m], grp.ci![m]), `${grp.value} ${m}`);
    for (const m of ['base_rate', 'positivity_rate', 'tpr', 'fpr', 'ppv', 'accuracy'] as const) {
      const d = attr.disparities[m];
      assert.ok(inside(d.difference.F, d.ci!.difference.F), `diff ${m}`);
      assert.ok(inside(d.ratio.F, d.ci!.ratio.F), `ratio ${m}`);
      // max − min is |difference| for two groups: its percentile interval is biased upward when the
      // groups are close (documented), so containment is checked where the groups clearly differ
      if (m === 'base_rate' || m === 'positivity_rate')
        assert.ok(inside(d.max_minus_min, d.ci!.max_minus_min), `max-min ${m}`);
      assert.ok(d.ci!.max_minus_min.lo! >= 0);
      assert.ok(d.ci!.difference.F.lo! < d.ci!.difference.F.hi!);
    }
    assert.throws(
      () => groupMetrics(t, { label: 'y', pred: 'p', groups: ['sex'], bootstrap: 10 }),
      /needs a seeded rng/,
    );
  });
});

describe('lucid metrics (CLI)', () => {
  const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
  const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, 'metrics', ...args], { encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'lucid-metrics-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'hand.csv');

  it('--format json: the per-group objects and disparities', async () => {
    await writeCsv(file, hand);
    const r = lucid(
      '--data',
      file,
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--reference',
      'g=A',
      '--format',
      'json',
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /g = B: no positive labels/);
    const j = JSON.parse(r.stdout);
    const b = j.attributes[0].groups[1];
    for (const k of ['column', 'value', 'n', 'base_rate', 'positivity_rate', 'tpr', 'fpr', 'ppv', 'accuracy'])
      assert.ok(k in b, k);
    assert.equal(b.column, 'g');
    assert.equal(b.value, 'B');
    assert.equal(b.tpr, null);
    assert.equal(j.attributes[0].disparities.positivity_rate.difference.B, -0.25);
  });

  it('table and csv forms, --intersect, --bootstrap with --seed', () => {
    const t = lucid(
      '--data',
      file,
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--group',
      'h',
      '--intersect',
      '--bootstrap',
      '50',
      '--seed',
      '3',
    );
    assert.equal(t.status, 0, t.stderr);
    assert.match(
      t.stdout,
      /g × h: reference A, u \(the largest group, n = 3; every group has fewer than 30 rows, so no comparison gets a verdict\)/,
    );
    assert.match(t.stdout, /95% bootstrap \(50 resamples, seed 3/);
    // the verdict table first: every cell a word; its metric columns in blocks that keep to 120 characters
    const heads = t.stdout.match(/^attribute \(reference\) .*$/gm) ?? [];
    assert.deepEqual(
      heads.flatMap((h) => h.replace('attribute (reference)', '').trim().split(/ +/)),
      ['sel', 'TPR', 'TNR', 'FNR', 'FPR', 'PPV', 'FDR', 'NPV', 'FOR'],
    );
    for (const l of t.stdout.split('\n')) assert.ok([...l].length <= 120, l);
    assert.match(t.stdout, /g × h \(A, u\) +too little data/);
    assert.match(t.stderr, /g × h: 6 groups have fewer than 30 rows/);
    const t2 = lucid(
      '--data',
      file,
      '--label',
      'y',
      '--pred',
      'p',
      '--group',
      'g',
      '--group',
      'h',
      '--intersect',
      '--bootstrap',
      '50',
      '--seed',
      '3',
    );
    assert.equal(t2.stdout, t.stdout);
    const c = lucid('--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--format', 'csv');
    assert.equal(c.status, 0, c.stderr);
    const lines = c.stdout.trim().split('\n');
    assert.equal(lines.length, 4);
    assert.match(
      lines[0],
      /^column,value,n,reference,small,tp,fp,tn,fn,base_rate,selection_rate,positivity_rate,tpr,tnr,fnr,fpr,ppv,fdr,npv,for,accuracy,/,
    );
    assert.match(lines[2], /^g,B,4,false,true,0,1,3,0,0,0.25,0.25,,0.75,,0.25,0,1,1,0,0.75,/);
  });

  it('errors are one line with a non-zero status', () => {
    const cases: [string[], RegExp][] = [
      [['--data', file, '--label', 'y', '--pred', 'p', '--group', 'zz'], /--group "zz" is not a column/],
      [
        ['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--threshold', '2'],
        /metrics: threshold must be in \[0, 1\], got 2/,
      ],
      [['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--privileged', 'g'], /expected COLUMN=VALUE/],
      [['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--reference', 'g'], /expected COLUMN=VALUE/],
      [
        ['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--tolerance', '1.25'],
        /expected a number in \(0, 1\)/,
      ],
      [
        ['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--favourable', 'yes'],
        /Allowed choices are positive, negative/,
      ],
      [
        ['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--legitimate', 'nope'],
        /--legitimate "nope" is not a column/,
      ],
      [
        ['--data', file, '--label', 'y', '--pred', 'p', '--group', 'g', '--reference', 'zz=a'],
        /hand\.csv: --reference "zz" is not a column; the columns are: y, p, g, h/,
      ],
      [['--data', file, '--label', 'y', '--pred', 'p', '--group', 'y'], /names the label or prediction column/],
      [['--data', join(dir, 'missing.csv'), '--label', 'y', '--pred', 'p', '--group', 'g'], /file not found/],
      [['--data', file, '--label', 'y', '--pred', 'p'], /--group/],
    ];
    for (const [args, re] of cases) {
      const r = lucid(...args);
      assert.equal(r.status, /file not found/.test(re.source) ? 1 : 2, args.join(' '));
      assert.match(r.stderr, re);
      assert.equal(r.stdout, '');
    }
  });
});

describe("the LUCID-GAN paper's Table 1 (label base rates, spec §4.1)", () => {
  const pct = (v: number | null) => Math.round(1000 * v!) / 10;
  const byValue = (r: ReturnType<typeof groupMetrics>, ai = 0) =>
    Object.fromEntries(r.attributes[ai].groups.map((g) => [g.value, [g.n, pct(g.base_rate)]]));

  it('Adult test set (15060 rows): base rates by sex, relationship, race, marital status and sex × race', async (t) => {
    const avail = datasetAvailability('adult');
    if (!avail.available) return t.skip(`Adult data absent: ${avail.reason}`);
    const adult = await loadAdult();
    const test = adult.splits.test;
    assert.equal(test.rows, 15060);
    // the label as its own "prediction": the base rate is then what the reference printed as "pr"
    const run = (groups: string[], intersect = false) =>
      groupMetrics(test, {
        label: adult.label,
        positive: '>50K',
        pred: adult.label,
        groups,
        intersect,
        minGroupSize: 0,
      });
    const r = run(['Sex', 'Relationship', 'Race', 'Martial Status']);
    assert.deepEqual(byValue(r, 0), { Female: [4913, 11.3], Male: [10147, 31.0] });
    assert.equal(r.attributes[0].groups.find((g) => g.value === 'Male')!.tp, 3143);
    assert.equal(r.attributes[0].groups.find((g) => g.value === 'Female')!.tp, 557);
    const rel = byValue(r, 1);
    assert.deepEqual(rel, {
      Husband: [6203, 45.6],
      'Not-in-family': [3976, 10.2],
      'Other-relative': [460, 3.3],
      'Own-child': [2160, 1.9],
      Unmarried: [1576, 5.6],
      Wife: [685, 47.0],
    });
    assert.deepEqual(byValue(r, 2), {
      'Amer-Indian-Eskimo': [149, 12.8],
      'Asian-Pac-Islander': [408, 29.7],
      Black: [1411, 11.9],
      Other: [122, 19.7],
      White: [12970, 26.0],
    });
    const ms = byValue(r, 3);
    assert.deepEqual(ms, {
      Divorced: [2083, 9.7],
      'Married-AF-spouse': [11, 36.4],
      'Married-civ-spouse': [6990, 45.3],
      'Married-spouse-absent': [182, 12.6],
      'Never-married': [4872, 4.7],
      Separated: [472, 7.0],
      Widowed: [450, 9.1],
    });
    const x = byValue(run(['Sex', 'Race'], true));
    assert.equal(x['Male, White'][1], 32.1);
    assert.equal(x['Female, White'][1], 12.1);
    assert.equal(x['Male, Black'][1], 17.5);
    assert.equal(x['Female, Black'][1], 6.0);
    // overall base rate 24.57%
    const all = r.attributes[0].groups.reduce((s, g) => s + g.tp!, 0) / 15060;
    assert.equal(Math.round(10000 * all) / 100, 24.57);
    // train file (30162 rows = train + val splits): Male 31.4, Female 11.4
    const trainCounts = new Map<string, [number, number]>();
    for (const split of [adult.splits.train, adult.splits.val]) {
      const rr = groupMetrics(split, {
        label: adult.label,
        positive: '>50K',
        pred: adult.label,
        groups: ['Sex'],
        minGroupSize: 0,
      });
      for (const g of rr.attributes[0].groups) {
        const [n0, p0] = trainCounts.get(g.value) ?? [0, 0];
        trainCounts.set(g.value, [n0 + g.n, p0 + g.tp!]);
      }
    }
    assert.equal(Math.round((1000 * trainCounts.get('Male')![1]) / trainCounts.get('Male')![0]) / 10, 31.4);
    assert.equal(Math.round((1000 * trainCounts.get('Female')![1]) / trainCounts.get('Female')![0]) / 10, 11.4);
  });

  it('COMPAS test split (1235 rows): the no-recidivism base rates the reference printed as "pr"', async (t) => {
    const avail = datasetAvailability('compas');
    if (!avail.available) return t.skip(`COMPAS data absent: ${avail.reason}`);
    const compas = await loadCompas();
    const test = compas.splits.test;
    assert.equal(test.rows, 1235);
    const r = groupMetrics(test, {
      label: compas.label,
      positive: '0',
      pred: compas.label,
      groups: ['race', 'sex'],
      minGroupSize: 0,
    });
    assert.deepEqual(byValue(r, 0), {
      'African-American': [610, 49.2],
      Asian: [7, 71.4],
      Caucasian: [438, 61.9],
      Hispanic: [112, 62.5],
      'Native American': [5, 60.0],
      Other: [63, 54.0],
    });
    assert.deepEqual(byValue(r, 1), { Female: [228, 62.7], Male: [1007, 53.6] });
  });
});
