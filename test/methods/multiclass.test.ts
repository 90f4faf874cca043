// Multiclass group metrics: hand-counted rates and confusion matrices, a planted disparity flagged and a null one
// passing, two classes against the binary report, the coding rule (renamed classes, the same verdicts; a reversed
// class order, every direction flipped), suppression and intersections, errors that name the column and row, and the
// text, CSV and JSON forms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineError } from '../../src/engine/errors.js';
import { groupMetrics } from '../../src/methods/metrics/group-metrics.js';
import {
  correctMulticlassTogether,
  multiclassFamilyCounts,
  multiclassMetrics,
  oneVsRest,
  type ClassComparison,
  type MulticlassOptions,
  type MulticlassReport,
} from '../../src/methods/metrics/multiclass.js';
import {
  formatMulticlassCsv,
  formatMulticlassTable,
  multiclassHeadline,
} from '../../src/methods/metrics/multiclass-format.js';
import { correct, wilsonInterval, type Comparison } from '../../src/methods/metrics/verdicts.js';
import { hostRng } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

const ORDER = ['approve', 'refer', 'decline'];

// Group A (6 rows), label → prediction:
//   approve→approve, approve→refer, refer→refer, refer→decline, decline→decline, decline→approve
// Group B (4 rows): approve→approve, approve→approve, refer→decline, refer→decline (no row labelled decline)
const hand = table(
  cat('y', ['approve', 'approve', 'refer', 'refer', 'decline', 'decline', 'approve', 'approve', 'refer', 'refer']),
  cat('p', ['approve', 'refer', 'refer', 'decline', 'decline', 'approve', 'approve', 'approve', 'decline', 'decline']),
  cat('g', ['A', 'A', 'A', 'A', 'A', 'A', 'B', 'B', 'B', 'B']),
);
const handOpts: MulticlassOptions = { label: 'y', pred: 'p', groups: ['g'], minGroupSize: 0, classOrder: ORDER };

describe('multiclassMetrics: hand-counted', () => {
  const r = multiclassMetrics(hand, handOpts);
  const [a, b] = r.attributes[0].groups;

  it(
    'lists the classes in the class order and keeps each ' +
      'group’s confusion matrix (label rows, prediction columns)',
    () => {
      assert.deepEqual(r.classes, ORDER);
      assert.deepEqual(a.confusion, [
        [1, 1, 0],
        [0, 1, 1],
        [1, 0, 1],
      ]);
      assert.deepEqual(b.confusion, [
        [2, 0, 0],
        [0, 0, 2],
        [0, 0, 0],
      ]);
      assert.equal(a.n, 6);
      assert.equal(b.n, 4);
    },
  );

  it(
    'gives each class’s rate of receiving it, FNR and FPR ' + 'one against the rest, with counts and Wilson intervals',
    () => {
      // A, approve: predicted approve 2 of 6; labelled approve 2, missed 1 (FNR 1/2); labelled another 4, predicted
      // approve 1 (FPR 1/4)
      const ap = a.classes[0];
      assert.equal(ap.class, 'approve');
      assert.deepEqual([ap.positivity_rate.x, ap.positivity_rate.n], [2, 6]);
      assert.deepEqual([ap.fnr.x, ap.fnr.n], [1, 2]);
      assert.deepEqual([ap.fpr.x, ap.fpr.n], [1, 4]);
      assert.equal(ap.fpr.rate, 0.25);
      assert.deepEqual(ap.positivity_rate.interval, wilsonInterval(2, 6, 0.95));
      // B, decline: received 2 of 4, nobody labelled decline (FNR undefined), FPR 2/4
      const de = b.classes[2];
      assert.deepEqual([de.positivity_rate.x, de.positivity_rate.n, de.positivity_rate.rate], [2, 4, 0.5]);
      assert.deepEqual(de.fnr, { rate: null, x: 0, n: 0, interval: null });
      assert.deepEqual([de.fpr.x, de.fpr.n], [2, 4]);
      // B, refer: never predicted refer, both refer rows missed
      assert.deepEqual([b.classes[1].positivity_rate.x, b.classes[1].fnr.x, b.classes[1].fnr.n], [0, 2, 2]);
    },
  );

  it('derives the one-against-the-rest matrix from the k×k matrix', () => {
    // A's matrix flattened: rows labelled approve, refer, decline
    const m = [1, 1, 0, 0, 1, 1, 1, 0, 1];
    assert.deepEqual(oneVsRest(m, 3, 2), { tp: 1, fp: 1, fn: 1, tn: 3 });
    assert.deepEqual(oneVsRest(m, 3, 1), { tp: 1, fp: 1, fn: 1, tn: 3 });
    assert.deepEqual(oneVsRest(m, 3, 0), { tp: 1, fp: 1, fn: 1, tn: 3 });
    assert.deepEqual(oneVsRest([2, 0, 0, 0, 0, 2, 0, 0, 0], 3, 2), { tp: 0, fp: 2, fn: 0, tn: 2 });
  });

  it('compares every class and rate with the reference (the largest group) and warns of undefined rates', () => {
    assert.equal(r.attributes[0].reference.value, 'A');
    const cs = r.attributes[0].comparisons;
    assert.equal(cs.length, 3 * 3);
    assert.deepEqual(cs.map((c) => `${c.group}:${c.class}:${c.metric}:${c.sign}`).slice(0, 4), [
      'B:approve:positivity_rate:1',
      'B:approve:fnr:1',
      'B:approve:fpr:1',
      'B:refer:positivity_rate:0',
    ]);
    const fnrDecline = cs.find((c) => c.class === 'decline' && c.metric === 'fnr')!;
    assert.equal(fnrDecline.verdict, 'too little data');
    assert.match(fnrDecline.reason!, /FNR is undefined .* for B/);
    assert.ok(r.warnings.some((w) => /g = B: no rows labelled decline, the FNR of decline is undefined/.test(w)));
  });

  it('warns of a class that is never predicted', () => {
    const t = table(cat('y', ['a', 'b', 'c', 'a']), cat('p', ['a', 'b', 'b', 'a']), cat('g', ['u', 'u', 'v', 'v']));
    const w = multiclassMetrics(t, { label: 'y', pred: 'p', groups: ['g'], classOrder: null }).warnings;
    assert.ok(
      w.some((x) => /the prediction column "p" never predicts c: every group receives it at 0%/.test(x)),
      `${w}`,
    );
  });
});

/**
 * Seeded synthetic decisions: labels from `labelP`, each prediction the label with probability 0.6, else drawn from
 * the group's `predP[group]` (the planted disparity).
 */
function synthetic(seed: number, n: number, predP: Record<string, number[]>, classes = ORDER) {
  const rnd = hostRng(seed);
  const draw = (p: number[]) => {
    let u = rnd();
    for (let k = 0; k < p.length - 1; k++) if ((u -= p[k]) < 0) return k;
    return p.length - 1;
  };
  const y: number[] = [];
  const p: number[] = [];
  const g: string[] = [];
  for (const group of Object.keys(predP))
    for (let i = 0; i < n; i++) {
      const label = draw([0.4, 0.35, 0.25]);
      y.push(label);
      p.push(rnd() < 0.6 ? label : draw(predP[group]));
      g.push(group);
    }
  return { y, p, g, classes };
}
const asTable = (d: ReturnType<typeof synthetic>, names: readonly string[]) =>
  table(
    cat(
      'y',
      d.y.map((k) => names[k]),
    ),
    cat(
      'p',
      d.p.map((k) => names[k]),
    ),
    cat('sex', d.g),
  );
const asCodes = (d: ReturnType<typeof synthetic>, codes: readonly number[]) =>
  table(
    num(
      'y',
      d.y.map((k) => codes[k]),
    ),
    num(
      'p',
      d.p.map((k) => codes[k]),
    ),
    cat('sex', d.g),
  );
const opts = (classOrder: string[] | null): MulticlassOptions => ({
  label: 'y',
  pred: 'p',
  groups: ['sex'],
  classOrder,
});
const find = (r: MulticlassReport, cls: string, metric: string, group = 'Female') =>
  r.attributes[0].comparisons.find((c) => c.class === cls && c.metric === metric && c.group === group)!;

const planted = synthetic(7, 3000, { Male: [0.4, 0.4, 0.2], Female: [0.2, 0.3, 0.5] });
const nullData = synthetic(8, 3000, { Male: [0.4, 0.4, 0.2], Female: [0.4, 0.4, 0.2] });

describe('multiclassMetrics: planted and null disparities', () => {
  it('flags Female disadvantaged in receiving the least favourable class, and says so in the headline', () => {
    const r = multiclassMetrics(asTable(planted, ORDER), opts(ORDER));
    assert.equal(r.attributes[0].reference.value, 'Female', 'the first of two equal groups in sorted order');
    // Female is the reference (equal sizes: first in sorted order), so Male is flagged advantaged in receiving decline
    const c = find(r, 'decline', 'positivity_rate', 'Male');
    assert.equal(c.verdict, 'flagged');
    assert.equal(c.direction, 'advantaged');
    assert.ok(c.ratio! < 0.8);
    assert.match(
      multiclassHeadline(r),
      /^sex: Female receives decline at ×1\.\d\d the rate of Male \(\d+\.\d% vs \d+\.\d%\)/,
    );
    // with Male named the reference, the same flag reads from Female's side
    const m = multiclassMetrics(asTable(planted, ORDER), { ...opts(ORDER), reference: { sex: 'Male' } });
    const f = find(m, 'decline', 'positivity_rate');
    assert.equal(f.verdict, 'flagged');
    assert.equal(f.direction, 'disadvantaged');
    assert.ok(Math.abs(f.ratio! * c.ratio! - 1) < 1e-12);
  });

  it('passes a null disparity: no flag anywhere', () => {
    const r = multiclassMetrics(asTable(nullData, ORDER), opts(ORDER));
    assert.equal(r.verdicts.counts.flagged, 0);
    assert.equal(find(r, 'decline', 'positivity_rate', 'Male').verdict, 'pass');
    assert.equal(r.verdicts.comparisons, 9);
    assert.match(multiclassHeadline(r), /^no statistical flag/);
  });

  it('without a class order every disparity "differs"', () => {
    const r = multiclassMetrics(asTable(planted, ORDER), opts(null));
    const outside = r.attributes[0].comparisons.filter((c) => c.direction !== null);
    assert.ok(outside.length > 0);
    for (const c of outside) assert.equal(c.direction, 'differs');
    assert.match(r.order, /every disparity "differs"/);
    assert.match(multiclassHeadline(r), /without a direction \(no --class-order\)/);
  });
});

describe('two classes against the binary report', () => {
  // yes/no decisions with a planted selection disparity and a null one (the second attribute)
  const rnd = hostRng(11);
  const y: string[] = [];
  const p: string[] = [];
  const sex: string[] = [];
  const band: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const s = i % 2 ? 'F' : 'M';
    const label = rnd() < 0.5 ? 'yes' : 'no';
    y.push(label);
    p.push(rnd() < 0.7 ? label : rnd() < (s === 'F' ? 0.1 : 0.6) ? 'yes' : 'no');
    sex.push(s);
    band.push(rnd() < 0.5 ? 'x' : 'z');
  }
  const t = table(cat('y', y), cat('p', p), cat('sex', sex), cat('band', band));
  const bin = groupMetrics(t, { label: 'y', pred: 'p', groups: ['sex', 'band'], positive: 'yes' });
  const mc = multiclassMetrics(t, { label: 'y', pred: 'p', groups: ['sex', 'band'], classOrder: ['yes', 'no'] });
  // alone in a family of one, so that the interval is at the same level in both reports
  const alone = (c: Comparison) => {
    const x = structuredClone(c);
    correct([x], bin.verdicts.alpha);
    return x;
  };

  for (const [ai, metric, binary] of [
    [0, 'positivity_rate', 'selection_rate'],
    [1, 'positivity_rate', 'selection_rate'],
    [0, 'fnr', 'fnr'],
    [0, 'fpr', 'fpr'],
  ] as const)
    it(`receiving yes: ${metric} of ${bin.attributes[ai].column} equals the binary ${binary}`, () => {
      const b = bin.attributes[ai].comparisons.find((c) => c.metric === binary)!;
      const m = mc.attributes[ai].comparisons.find((c) => c.class === 'yes' && c.metric === metric)!;
      for (const k of [
        'group',
        'reference',
        'rate',
        'referenceRate',
        'ratio',
        'logRatio',
        'se',
        'p',
        'direction',
      ] as const)
        assert.equal(m[k], b[k], k);
      assert.equal(m.verdict, b.verdict);
      assert.deepEqual(alone(m).interval, alone(b).interval);
    });

  it('the planted attribute is flagged disadvantaged, the null one passes', () => {
    const sel = (ai: number) =>
      mc.attributes[ai].comparisons.find((c) => c.class === 'yes' && c.metric === 'positivity_rate')!;
    // F is the reference (equal sizes: first in sorted order): M, selected more often, is flagged advantaged
    assert.equal(sel(0).group, 'M');
    assert.equal(sel(0).verdict, 'flagged');
    assert.equal(sel(0).direction, 'advantaged');
    assert.equal(sel(1).verdict, 'pass');
  });
});

describe('the coding rule', () => {
  // codes whose numeric order, the names' text order and the class order all differ: 1 approve, 2 refer, 0 decline
  const codes = [1, 2, 0];
  const key = (c: ClassComparison, name: (cls: string) => string) => `${c.group}|${name(c.class)}|${c.metric}`;
  const summary = (r: MulticlassReport, name: (cls: string) => string) =>
    new Map(
      r.attributes[0].comparisons.map((c) => [key(c, name), [c.verdict, c.direction, c.p, c.pAdjusted, c.ratio]]),
    );
  const byName = (cls: string) => cls;
  const byCode = (cls: string) => ORDER[codes.indexOf(Number(cls))];

  it('renaming the classes (codes 1/2/0 vs approve/refer/decline, the matching order) gives identical verdicts', () => {
    const named = multiclassMetrics(asTable(planted, ORDER), opts(ORDER));
    const coded = multiclassMetrics(asCodes(planted, codes), opts(codes.map(String)));
    assert.deepEqual(coded.classes, ['1', '2', '0']);
    assert.deepEqual(summary(coded, byCode), summary(named, byName));
    assert.ok(named.verdicts.counts.flagged > 0);
    assert.equal(multiclassHeadline(coded), multiclassHeadline(named).replace(/decline/g, '0'));
    // and without an order: the same, every disparity "differs"
    assert.deepEqual(
      summary(multiclassMetrics(asCodes(planted, codes), opts(null)), byCode),
      summary(multiclassMetrics(asTable(planted, ORDER), opts(null)), byName),
    );
  });

  it('reversing the class order turns every directed disadvantaged into advantaged and back', () => {
    const fwd = multiclassMetrics(asTable(planted, ORDER), opts(ORDER));
    const rev = multiclassMetrics(asTable(planted, ORDER), opts([...ORDER].reverse()));
    const flip = { disadvantaged: 'advantaged', advantaged: 'disadvantaged', differs: 'differs' } as const;
    let directed = 0;
    for (const c of fwd.attributes[0].comparisons) {
      const d = find(rev, c.class, c.metric, c.group);
      assert.equal(d.verdict, c.verdict);
      assert.equal(d.p, c.p);
      assert.equal(d.direction, c.direction === null ? null : flip[c.direction], `${c.class} ${c.metric}`);
      if (c.direction === 'disadvantaged' || c.direction === 'advantaged') directed++;
    }
    assert.ok(directed >= 2, 'the data has directed flags to flip');
  });
});

describe('groups: suppression, small groups, intersections, unknown values', () => {
  const d = synthetic(5, 400, { Male: [0.4, 0.4, 0.2], Female: [0.2, 0.3, 0.5] });
  const base = asTable(d, ORDER);
  // a third, tiny group and a second attribute with a missing value
  const n = base.rows;
  const sex = d.g.map((g, i) => (i < 10 ? 'Other' : g));
  const age = d.g.map((_, i) => (i === 20 ? '?' : i % 3 ? 'young' : 'old'));
  const t = table(base.columns[0], base.columns[1], cat('sex', sex), cat('age', age));
  assert.equal(t.rows, n);

  it('suppresses a group under --suppress-below: no rate, matrix or verdict, only its size', () => {
    const r = multiclassMetrics(t, { ...opts(ORDER), suppressBelow: 20 });
    const other = r.attributes[0].groups.find((g) => g.value === 'Other')!;
    assert.equal(other.suppressed, true);
    assert.equal(other.n, 10);
    assert.equal(other.confusion, null);
    for (const c of other.classes) assert.equal(c.positivity_rate.rate, null);
    for (const c of r.attributes[0].comparisons.filter((x) => x.group === 'Other')) {
      assert.equal(c.counts, null);
      assert.equal(c.verdict, 'too little data');
      assert.equal(c.reason, 'Other is suppressed (n < 20)');
    }
    const rows = formatMulticlassCsv(r)
      .split('\n')
      .filter((l) => l.startsWith('sex,Other,'));
    assert.equal(rows.length, 3 * 3);
    // count, denominator, rate, lo, hi, difference, ratio: empty; the verdict and why
    for (const l of rows)
      assert.match(l, /^sex,Other,10,false,true,\w+,-?\d,\w+,,,,,,,,too little data,,,suppressed \(n < 20\)$/);
  });

  it('a small group gets no verdict; a named small reference none for anyone', () => {
    const r = multiclassMetrics(t, opts(ORDER));
    for (const c of r.attributes[0].comparisons.filter((x) => x.group === 'Other'))
      assert.match(c.reason!, /Other has 10 rows \(< 30\)/);
    const s = multiclassMetrics(t, { ...opts(ORDER), reference: { sex: 'Other' } });
    assert.ok(s.attributes[0].comparisons.every((c) => c.verdict === 'too little data'));
    assert.match(multiclassHeadline(s), /too little data/);
  });

  it('intersects attributes, leaves out unknown values, and corrects every comparison together', () => {
    const r = multiclassMetrics(t, { ...opts(ORDER), groups: ['sex', 'age'] });
    assert.deepEqual(
      r.attributes.map((a) => [a.column, a.unknown]),
      [
        ['sex', 0],
        ['age', 1],
      ],
    );
    const tested = r.attributes.flatMap((a) => a.comparisons).filter((c) => c.p !== null).length;
    assert.equal(r.verdicts.comparisons, tested);
    const x = multiclassMetrics(t, { ...opts(ORDER), groups: ['sex', 'age'], intersect: true });
    assert.equal(x.attributes[0].column, 'sex × age');
    assert.ok(x.attributes[0].groups.some((g) => g.value === 'Female, old'));
    // the attributes and the intersection as one family: Holm over all of them, so no p-value adjusts less
    const before = r.attributes.flatMap((a) => a.comparisons.map((c) => c.pAdjusted));
    correctMulticlassTogether([r, x]);
    const family = tested + x.attributes[0].comparisons.filter((c) => c.p !== null).length;
    assert.equal(r.verdicts.comparisons, family);
    assert.equal(x.verdicts.comparisons, family);
    assert.match(r.verdicts.correction, /Holm over the \d+ comparisons of 2 tables together/);
    r.attributes
      .flatMap((a) => a.comparisons.map((c) => c.pAdjusted))
      .forEach((p, i) => assert.ok(p === null || p >= before[i]!, `${p} < ${before[i]}`));
    const counts = multiclassFamilyCounts([r, x]);
    assert.equal(
      counts.flagged + counts.inconclusive + counts.pass + counts['too little data'],
      r.attributes.concat(x.attributes).flatMap((a) => a.comparisons).length,
    );
  });
});

describe('errors name the column, the row and the value', () => {
  const code = (e: EngineError, c: string, re: RegExp) => e.code === c && re.test(e.message);
  it('an unknown class in the predictions', () => {
    const t = table(cat('y', ['a', 'b', 'c']), cat('p', ['a', 'b', 'maybe']), cat('g', ['u', 'v', 'u']));
    assert.throws(
      () => multiclassMetrics(t, { label: 'y', pred: 'p', groups: ['g'], classOrder: null }),
      (e: EngineError) => code(e, 'E_INPUT', /prediction column "p" holds "maybe" at data row 3, which is not a class/),
    );
  });
  it('a missing prediction (NaN, or an empty cell)', () => {
    const t = table(num('y', [0, 1, 2]), num('p', [0, NaN, 2]), cat('g', ['u', 'v', 'u']));
    assert.throws(
      () => multiclassMetrics(t, { label: 'y', pred: 'p', groups: ['g'], classOrder: null }),
      (e: EngineError) => code(e, 'E_INPUT', /prediction column "p" has a missing value in data row 2/),
    );
    const u = table(cat('y', ['a', 'b', 'c']), cat('p', ['a', 'b', '']), cat('g', ['u', 'v', 'u']));
    assert.throws(
      () => multiclassMetrics(u, { label: 'y', pred: 'p', groups: ['g'], classOrder: null }),
      (e: EngineError) => code(e, 'E_INPUT', /prediction column "p" has a missing value in data row 3/),
    );
  });
  it('a missing label', () => {
    const t = table(num('y', [0, NaN, 2]), num('p', [0, 1, 2]), cat('g', ['u', 'v', 'u']));
    assert.throws(
      () => multiclassMetrics(t, { label: 'y', pred: 'p', groups: ['g'], classOrder: null }),
      (e: EngineError) => code(e, 'E_INPUT', /label "y" has a missing value in data row 2/),
    );
  });
  it('a class order that leaves out a class or names another', () => {
    assert.throws(
      () => multiclassMetrics(hand, { ...handOpts, classOrder: ['approve', 'decline'] }),
      (e: EngineError) => code(e, 'E_ARG', /--class-order must name every class.*leaves out: refer/),
    );
    assert.throws(
      () => multiclassMetrics(hand, { ...handOpts, classOrder: ['approve', 'refer', 'decline', 'later'] }),
      (e: EngineError) => code(e, 'E_ARG', /--class-order names "later", which is not a class of the label/),
    );
  });
});

describe('text, CSV and JSON', () => {
  const r = multiclassMetrics(asTable(planted, ORDER), { ...opts(ORDER), reference: { sex: 'Male' } });
  it('the text states the class order, the headline, each class’s rates and the verdicts', () => {
    const s = formatMulticlassTable(r);
    assert.match(s, /class order \(most favourable first\): approve > refer > decline/);
    assert.match(s, /refer lies between them, so its disparities "differ"/);
    assert.match(s, /headline: sex: Female receives decline at ×1\.\d\d the rate of Male/);
    assert.match(s, /class decline \(least favourable\):\ngroup +n +receive +FNR +FPR\n/);
    assert.match(s, /\nFemale +decline +×1\.\d\d! ↓/);
    assert.match(s, /FLAGGED sex = Female: rate of receiving decline/);
    assert.match(
      formatMulticlassTable(multiclassMetrics(asTable(planted, ORDER), opts(null))),
      /every disparity "differs"/,
    );
  });
  it('the CSV has one row per attribute, group, class and rate, with the comparison beside it', () => {
    const lines = formatMulticlassCsv(r).trim().split('\n');
    assert.equal(lines.length, 1 + 2 * 3 * 3);
    assert.match(lines[0], /^column,value,n,reference,small,class,class_sign,metric,count,denominator,rate,lo,hi,/);
    const row = lines.find((l) => l.startsWith('sex,Female,') && l.includes(',decline,-1,positivity_rate,'))!;
    assert.match(row, /,flagged,disadvantaged,/);
  });
  it('the report is its own JSON', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  });
});
