// --suppress-below k (metrics/suppress.ts): a group of 3 people among 400 keeps its name and n and
// nothing else — no rate, count of positives, interval, calibration bin, four-fifths or impact ratio,
// verdict — in the MetricsReport itself, its JSON, CSV and text, and `lucid metrics`' output; the
// other groups' figures are unchanged; without the option nothing changes.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../../src/engine/rng.js';
import {
  formatMetricsCsv,
  formatMetricsTable,
  groupMetrics,
  METRICS,
  type GroupMetricsOptions,
  type MetricsReport,
} from '../../src/methods/metrics/index.js';
import { writeCsv } from '../../src/node/csv.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli } from '../helpers/sim-model.js';
import { cat, num, table } from '../helpers/tables.js';
import type { Table } from '../../src/data/table.js';

/**
 * Groups A and B (200 rows each) and Z (3 rows: scores 0.9, 0.2, 0.3 → positivity 1/3; labels yes, yes, no → base rate
 * 2/3).
 */
function data(zRows = 3, zScores = [0.9, 0.2, 0.3], zLabels = ['yes', 'yes', 'no']): Table {
  const g: string[] = [];
  const h: string[] = [];
  const y: string[] = [];
  const p: number[] = [];
  for (let i = 0; i < 400; i++) {
    const a = i < 200;
    g.push(a ? 'A' : 'B');
    h.push(i % 2 ? 'u' : 'v');
    y.push((a ? i % 5 < 3 : i % 4 < 1) ? 'yes' : 'no');
    p.push((((i * 37) % 100) / 100) * (a ? 1 : 0.8) + (y[i] === 'yes' ? 0.1 : 0));
  }
  for (let j = 0; j < zRows; j++) {
    g.push('Z');
    h.push(j % 2 ? 'u' : 'v');
    y.push(zLabels[j % zLabels.length]);
    p.push(zScores[j % zScores.length]);
  }
  return table(
    cat('g', g),
    cat('h', h),
    cat('y', y, ['no', 'yes']),
    num(
      'p',
      p.map((v) => Math.min(1, v)),
    ),
  );
}

/** Z's positivity (1/3) and base rate (2/3) as the outputs would print them. */
const LEAKS = ['0.3333', '0.6666', '33.3', '66.7'];

const leaked = (text: string) => LEAKS.filter((s) => text.includes(s));

const z = (r: MetricsReport) => r.attributes[0].groups.find((x) => x.value === 'Z')!;

describe('--suppress-below in groupMetrics', async () => {
  const engine = await getEngine();
  const opts = (o: Partial<GroupMetricsOptions> = {}): GroupMetricsOptions => ({
    label: 'y',
    positive: 'yes',
    pred: 'p',
    groups: ['g'],
    minGroupSize: 2,
    bootstrap: 20,
    rng: new Rng(engine, 3),
    ...o,
  });

  it('without it: nothing is suppressed, and Z has its figures and verdicts (the leak checks below can fail)', () => {
    const r = groupMetrics(data(), opts());
    assert.equal(r.suppressBelow, null);
    assert.ok(r.attributes[0].groups.every((x) => !x.suppressed));
    assert.equal(z(r).positivity_rate, 1 / 3);
    assert.equal(z(r).tp, 1);
    const json = JSON.stringify(r);
    assert.deepEqual(leaked(json).sort(), ['0.3333', '0.6666'].sort());
    assert.ok(leaked(formatMetricsTable(r)).includes('33.3'));
    assert.ok(
      r.attributes[0].comparisons.some((c) => c.group === 'Z' && c.verdict !== 'too little data'),
      'Z is judged at --min-group 2',
    );
    // k = 0 is the same as no option
    assert.deepEqual(JSON.parse(JSON.stringify(groupMetrics(data(), opts({ suppressBelow: 0 })))), JSON.parse(json));
  });

  it('with k = 5: Z keeps its name and n, nothing else, in the report and in its JSON, CSV and text', () => {
    const plain = groupMetrics(data(), opts());
    const r = groupMetrics(data(), opts({ suppressBelow: 5 }));
    assert.equal(r.suppressBelow, 5);
    const a = r.attributes[0];
    const g = z(r);
    assert.equal(g.suppressed, true);
    assert.equal(g.small, true);
    assert.equal(g.n, 3);
    assert.deepEqual([g.tp, g.fp, g.tn, g.fn], [null, null, null, null]);
    for (const m of METRICS) assert.equal(g[m], null, m);
    assert.equal(g.ci, undefined);
    for (const c of a.comparisons.filter((x) => x.group === 'Z')) {
      assert.equal(c.verdict, 'too little data');
      assert.equal(c.counts, null);
      assert.equal(c.rate, null);
      assert.equal(c.ratio, null);
      assert.equal(c.interval, null);
      assert.match(c.reason!, /suppressed \(n < 5\)/);
    }
    for (const m of METRICS) {
      assert.equal(a.disparities[m].difference.Z, null);
      assert.equal(a.disparities[m].ratio.Z, null);
    }
    assert.equal(a.fourFifths.selectionRate.Z, null);
    assert.equal(a.fourFifths.ratio.Z, null);
    const imp = a.impact.rows.find((x) => x.category === 'Z')!;
    assert.deepEqual([imp.rate, imp.impactRatio, imp.suppressed], [null, null, true]);
    const cal = a.calibration!.find((x) => x.group === 'Z')!;
    assert.deepEqual([cal.bins.length, cal.ece, cal.ci, cal.suppressed], [0, null, null, true]);
    assert.ok(!r.warnings.some((w) => /no positive labels|no predicted positives/.test(w) && w.includes('Z')));
    assert.ok(r.warnings.some((w) => /1 group has fewer than 5 rows \(Z\): suppressed/.test(w)));
    // the other groups are untouched
    for (const v of ['A', 'B'])
      assert.deepEqual(
        a.groups.find((x) => x.value === v),
        plain.attributes[0].groups.find((x) => x.value === v),
      );
    // … and so are their comparisons, but for Holm's correction, whose family lost Z's comparisons
    const core = (cs: typeof a.comparisons) =>
      cs
        .filter((c) => c.group !== 'Z')
        .map((c) => [c.metric, c.group, c.rate, c.referenceRate, c.ratio, c.counts, c.p]);
    assert.deepEqual(core(a.comparisons), core(plain.attributes[0].comparisons));
    // nothing of Z in any output
    const csv = formatMetricsCsv(r);
    const text = formatMetricsTable(r);
    for (const [what, s] of [
      ['json', JSON.stringify(r)],
      ['csv', csv],
      ['text', text],
    ] as const)
      assert.deepEqual(leaked(s), [], what);
    const head = csv.split('\n')[0].split(',');
    const row = csv
      .split('\n')
      .find((l) => l.startsWith('g,Z,'))!
      .split(',');
    assert.equal(head[head.length - 1], 'suppressed');
    assert.equal(row[row.length - 1], 'suppressed (n < 5)');
    for (const k of ['tp', 'fp', 'tn', 'fn', ...METRICS]) assert.equal(row[head.indexOf(k)], '', k);
    assert.match(text, /Z \(suppressed \(n < 5\)\)\s+3\s+supp\./);
  });

  it(
    "the intersection: its cells under k are suppressed; a suppressed reference takes its comparisons' figures with " +
      'it',
    () => {
      const r = groupMetrics(data(), opts({ groups: ['g', 'h'], intersect: true, suppressBelow: 5 }));
      const cells = r.attributes[0].groups.filter((x) => x.value.startsWith('Z'));
      assert.deepEqual(
        cells.map((x) => [x.value, x.n, x.suppressed]),
        [
          ['Z, u', 1, true],
          ['Z, v', 2, true],
        ],
      );
      const ref = groupMetrics(data(), opts({ reference: { g: 'Z' }, suppressBelow: 5 }));
      const a = ref.attributes[0];
      assert.equal(a.reference.value, 'Z');
      assert.ok(
        a.comparisons.every(
          (c) => c.verdict === 'too little data' && c.counts === null && c.referenceRate === null && c.ratio === null,
        ),
      );
      assert.ok(METRICS.every((m) => Object.values(a.disparities[m].ratio).every((x) => x === null)));
      assert.deepEqual(leaked(JSON.stringify(ref)), []);
    },
  );

  it("a suppressed category is never the highest of the impact table (the others' ratios would give its rate)", () => {
    // Z: 9 rows, all selected (2.2% of the rows, so it counts in the impact ratios when shown)
    const t = data(9, [0.99], ['yes']);
    const plain = groupMetrics(t, opts({ bootstrap: 0 }));
    assert.equal(plain.attributes[0].impact.highest, 'Z');
    const r = groupMetrics(t, opts({ bootstrap: 0, suppressBelow: 10 }));
    const imp = r.attributes[0].impact;
    assert.notEqual(imp.highest, 'Z');
    const best = imp.rows.find((x) => x.category === imp.highest)!;
    assert.equal(best.impactRatio, 1);
    assert.ok(
      imp.rows.every((x) =>
        x.category === 'Z' ? x.rate === null && x.impactRatio === null : x.impactRatio === x.rate! / best.rate!,
      ),
    );
  });
});

describe('lucid metrics --suppress-below', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-suppress-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'scored.csv');
  await writeCsv(file, data());
  const lucid = lucidCli('metrics');
  const args = [
    '--data',
    file,
    '--label',
    'y',
    '--positive',
    'yes',
    '--pred',
    'p',
    '--group',
    'g',
    '--group',
    'h',
    '--min-group',
    '2',
  ];

  it("no format prints Z's figures; without the option every format does", () => {
    for (const format of ['table', 'csv', 'json']) {
      const plain = lucid(...args, '--format', format);
      assert.equal(plain.status, 0, plain.stderr);
      assert.ok(leaked(plain.stdout).length > 0, `without the option the ${format} output shows Z's rates`);
      const r = lucid(...args, '--suppress-below', '5', '--format', format);
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(leaked(r.stdout + r.stderr), [], format);
      assert.match(r.stdout, /suppressed/);
    }
    const j = JSON.parse(lucid(...args, '--suppress-below', '5', '--format', 'json').stdout) as MetricsReport;
    assert.equal(j.suppressBelow, 5);
    assert.equal(j.attributes[0].groups.find((x) => x.value === 'Z')!.suppressed, true);
  });

  it('k must be a positive integer', () => {
    for (const bad of ['0', '-1', '2.5', 'x']) {
      const r = lucid(...args, '--suppress-below', bad);
      assert.notEqual(r.status, 0, bad);
      assert.match(r.stderr, /suppress-below/);
    }
  });
});
