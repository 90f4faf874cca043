import { METRIC_DEFS } from '../../src/methods/metrics/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  distributionChart,
  escapeHtml,
  faleChart,
  fmtNum,
  fmtPct,
  fmtPp,
  groupedBars,
  groupRates,
  heatmap,
  histogramPair,
  selectionScale,
  rateChart,
  transposeHeatmap,
  jsRanking,
  lineChart,
  metricsTable,
  niceTicks,
} from '../../src/report/index.js';
import { dist, sampleAuditResult } from './sample-audit.js';

function structural(svg: string, kind: string): void {
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" class="chart"/);
  assert.match(svg, new RegExp(`data-chart="${kind}"`));
  assert.match(svg, /role="img"/);
  assert.match(svg, /aria-label="[^"]+"/);
  assert.match(svg, /<title>[^<]+<\/title>/);
  assert.match(svg, /<text class="axis-label"/);
  assert.match(svg, /<\/svg>$/);
  assert.ok(!svg.includes('NaN'), 'NaN');
  assert.ok(!/\bid="/.test(svg), 'no ids (many charts share one page)');
  assert.equal((svg.match(/<svg\b/g) ?? []).length, 1);
}

test(
  'histogramPair: bars per bin for the pair, the real counterparts as ticks over their bars, a grey step outline ' +
    'for another reference, axis labels',
  () => {
    const d = dist(
      'hours-per-week',
      'feature',
      { edges: [1, 20, 40, 60, 99] },
      [1, 2, 3, 4],
      [4, 3, 2, 1],
      [1, 1, 1, 1],
    );
    d.series.push({ name: 'all real rows', share: [0.25, 0.25, 0.25, 0.25], n: 3000 });
    const svg = histogramPair(d);
    structural(svg, 'histogram-pair');
    assert.equal(
      (svg.match(/<rect x="[^"]+" y="[^"]+" width="[^"]+" height="[^"]+" fill="#(0072B2|E69F00)" fill-opacity/g) ?? [])
        .length,
      8,
    );
    // each counterpart: one tick per bin (4 "M…H…" moves) in its bar's dark shade
    const ticks = [
      ...svg.matchAll(/<path class="reference counterpart" d="([^"]+)" fill="none" stroke="(#[0-9a-f]+)"/g),
    ];
    assert.deepEqual(
      ticks.map((m) => m[2]),
      ['#003f63', '#8a5200'],
    );
    for (const m of ticks) assert.equal((m[1].match(/M/g) ?? []).length, 4);
    assert.match(svg, /<path class="reference" d="[^"]+" fill="none" stroke="#6b6b6b"/, 'the plain reference is grey');
    assert.match(svg, />% of rows</);
    assert.match(svg, /class="axis-label"[^>]*>hours-per-week</);
    assert.match(svg, /JS distance, positive canonical vs negative canonical: 0\.\d{3}/);
    assert.match(svg, /real rows predicted positive/);
    assert.equal(distributionChart(d), svg);
  },
);

test('the spread over GAN seeds: a whisker on every bar that has one, and on the JS ranking', () => {
  const d = dist('sex', 'protected', { categories: ['F', 'M'] }, [30, 70], [50, 50], [40, 60]);
  d.series[0].range = { lo: [0.25, 0.6], hi: [0.35, 0.75] };
  d.series[1].range = { lo: [0.45, 0.45], hi: [0.55, 0.55] };
  const svg = groupedBars(d);
  const w = [...svg.matchAll(/<line class="seed-range" x1="([\d.]+)" x2="([\d.]+)" y1="([\d.]+)" y2="([\d.]+)"/g)];
  assert.equal(w.length, 4);
  assert.ok(
    w.every((m) => m[1] === m[2] && Number(m[3]) > Number(m[4])),
    'vertical, from the lowest share up to the highest',
  );
  assert.match(svg, /25–35% over the GAN seeds/);
  const h = histogramPair({
    ...dist('x', 'feature', { edges: [0, 1, 2] }, [1, 3], [3, 1]),
    series: [
      { name: 'p', share: [0.25, 0.75], n: 4, range: { lo: [0.2, 0.7], hi: [0.3, 0.8] } },
      { name: 'n', share: [0.75, 0.25], n: 4 },
    ],
  });
  assert.equal((h.match(/class="seed-range"/g) ?? []).length, 2, 'only the series with a range');
  const r = jsRanking([{ ...d, jsSeeds: [0.1, 0.3, 0.2] }]);
  assert.match(r, /<line class="seed-range"[^>]*><title>sex: 0\.100–0\.300 over the GAN seeds/);
  assert.doesNotMatch(
    groupedBars(dist('sex', 'protected', { categories: ['F', 'M'] }, [30, 70], [50, 50])),
    /seed-range/,
    'none without seeds',
  );
});

test('groupedBars: a real counterpart is a tick across its own bar only', () => {
  const d = dist('sex', 'protected', { categories: ['F', 'M'] }, [30, 70], [50, 50], [40, 60]);
  const svg = groupedBars(d);
  const bars = [
    ...svg.matchAll(
      /<rect x="([\d.]+)" y="[^"]+" width="([\d.]+)" height="[^"]+" fill="#(0072B2|E69F00)" fill-opacity/g,
    ),
  ];
  const ticks = [
    ...svg.matchAll(/<line class="reference counterpart" x1="([\d.]+)" x2="([\d.]+)"[^>]*stroke="(#[0-9a-f]+)"/g),
  ];
  assert.equal(ticks.length, 4);
  // the first tick (real positive, category F) spans the first (blue) bar and not the orange one
  const [b0, b1] = bars;
  assert.ok(
    Number(ticks[0][1]) <= Number(b0[1]) &&
      Number(ticks[0][2]) >= Number(b0[1]) + Number(b0[2]) - 1 &&
      Number(ticks[0][2]) <= Number(b1[1]) + 1,
  );
  assert.equal(ticks[0][3], '#003f63');
});

test('groupedBars: one group per category, escaped categories, many categories capped', () => {
  const d = dist('occ', 'feature', { categories: ['a', '<script>x</script>', 'c'] }, [1, 2, 3], [3, 2, 1]);
  const svg = groupedBars(d);
  structural(svg, 'grouped-bars');
  assert.ok(!svg.includes('<script>'));
  assert.ok(svg.includes('&lt;script&gt;x&lt;/script&gt;'));
  assert.equal(distributionChart(d), svg);
  const many = dist(
    'country',
    'feature',
    { categories: Array.from({ length: 45 }, (_, i) => `country-${i}`) },
    Array.from({ length: 45 }, (_, i) => i + 1),
    Array.from({ length: 45 }, () => 1),
  );
  const s2 = groupedBars(many);
  structural(s2, 'grouped-bars');
  assert.match(s2, /15 smaller categories not shown/);
});

test('distribution charts: all-zero, empty and mismatched shares draw without NaN', () => {
  for (const d of [
    {
      feature: 'z',
      kind: 'numeric' as const,
      edges: [0, 0],
      series: [
        { name: 'a', share: [0], n: 0 },
        { name: 'b', share: [0], n: 0 },
      ],
      js: NaN,
      role: 'feature' as const,
    },
    {
      feature: 'z',
      kind: 'numeric' as const,
      series: [{ name: 'a', share: [], n: 0 }],
      js: 0,
      role: 'feature' as const,
    },
    {
      feature: 'z',
      kind: 'categorical' as const,
      categories: [],
      series: [
        { name: 'a', share: [], n: 0 },
        { name: 'b', share: [], n: 0 },
      ],
      js: 0,
      role: 'feature' as const,
    },
    {
      feature: 'z',
      kind: 'categorical' as const,
      categories: ['x', 'y'],
      series: [
        { name: 'a', share: [NaN, 1], n: 1 },
        { name: 'b', share: [0.5], n: 2 },
      ],
      js: 0.3,
      role: 'proxy' as const,
    },
  ]) {
    const svg = distributionChart(d);
    structural(svg, d.kind === 'numeric' ? 'histogram-pair' : 'grouped-bars');
  }
});

test('heatmap: cells with value and n, small cells hatched, empty cells grey, diverging legend for the shift', () => {
  const h = sampleAuditResult().intersections[0].heatmap;
  const svg = heatmap(h);
  structural(svg, 'heatmap');
  assert.equal((svg.match(/<g class="cell/g) ?? []).length, 8);
  assert.equal((svg.match(/<g class="cell small/g) ?? []).length, 2);
  assert.equal((svg.match(/class="cell[^"]*empty/g) ?? []).length, 1);
  assert.match(svg, /n=754/);
  assert.match(svg, /36\.1%/);
  assert.match(svg, /class="hatch"/);
  const s2 = heatmap(h, { value: 'shift' });
  structural(s2, 'heatmap');
  assert.match(s2, /\+16\.0 pp/);
  assert.match(s2, /more in favourable set/);
  // all-null grid
  const empty = { ...h, selectionRate: h.selectionRate.map((r) => r.map(() => null)), canonicalShift: null };
  structural(heatmap(empty), 'heatmap');
  structural(heatmap(empty, { value: 'shift' }), 'heatmap');
});

test('faleChart: line, band with gaps, undefined bins, population bars, axis labels', () => {
  const [cont, catf] = sampleAuditResult().fale[0].result.features;
  const svg = faleChart(cont, { metric: 'spd' });
  structural(svg, 'fale');
  assert.match(svg, />FALE of SPD</);
  assert.match(svg, /class="fale-line"/);
  assert.equal((svg.match(/class="band"/g) ?? []).length, 1);
  assert.equal((svg.match(/class="undefined-bin"/g) ?? []).length, 1);
  assert.equal((svg.match(/fill="#E69F00"><title>/g) ?? []).length, cont.counts.n.length);
  assert.match(svg, />rows</);
  const s2 = faleChart(catf, { metric: 'eod' });
  structural(s2, 'fale');
  assert.match(s2, />FALE of EOD</);
  assert.match(s2, /class="axis-label"[^>]*>education</);
  // a band that is null in the middle splits into two runs
  const gap = {
    ...cont,
    ci: { level: 0.9, replicates: 10, lower: [0, 0, null, 0, 0, 0, 0], upper: [1, 1, null, 1, 1, 1, 1] },
  };
  assert.equal((faleChart(gap).match(/class="band"/g) ?? []).length, 2);
  // single point, nothing defined
  const one = {
    feature: 'x',
    kind: 'categorical' as const,
    categories: ['only'],
    values: [0],
    deltas: [null],
    counts: { n: [0], unprivileged: [0], privileged: [0] },
    undefined: [0],
  };
  structural(faleChart(one), 'fale');
});

test('lineChart and jsRanking', () => {
  const svg = lineChart([{ name: 'loss', values: [1, 0.5, null, 0.2] }], { xLabel: 'epoch', yLabel: 'mean loss' });
  structural(svg, 'line');
  // the series' path breaks at the null: two move commands in its own d attribute (not the axis's)
  const series = /<path d="([^"]*)" fill="none" stroke="#0072B2"/.exec(svg);
  assert.ok(series, 'the series path');
  assert.equal((series[1].match(/M/g) ?? []).length, 2);
  structural(lineChart([{ name: 'loss', values: [] }], { xLabel: 'epoch', yLabel: 'mean loss' }), 'line');
  const r = sampleAuditResult();
  const js = jsRanking(r.canonical.distributions);
  structural(js, 'js-ranking');
  for (const d of r.canonical.distributions) assert.ok(js.includes(`>${d.feature}<`), d.feature);
  structural(jsRanking([]), 'js-ranking');
});

test('metricsTable: groups as %, the reference, verdicts, CIs, every metric of METRIC_DEFS', () => {
  const html = metricsTable(sampleAuditResult().metrics.attributes);
  assert.match(html, /<table class="metrics groups">/);
  assert.match(html, /<table class="metrics verdicts">/);
  assert.match(html, /★ reference/);
  assert.match(html, /⚑ disadvantaged/);
  assert.match(html, /\[9\.0%, 15\.0%\]/);
  assert.match(html, /below 4\/5/);
  for (const m of Object.values(METRIC_DEFS)) assert.ok(html.includes(`>${m.label}</th>`), m.label);
  assert.ok(!html.includes('NaN'));
  assert.ok(!html.includes('<svg'));
});

test('formatting helpers', () => {
  assert.equal(escapeHtml('<a href="x">&\'</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
  assert.equal(fmtPct(0.4567), '45.7%');
  assert.equal(fmtPct(null), '—');
  assert.equal(fmtPct(NaN), '—');
  assert.equal(fmtPp(-0.123), '-12.3 pp');
  assert.equal(fmtPp(0.0001), '±0.0 pp');
  assert.equal(fmtNum(37.5), '37.5');
  assert.equal(fmtNum(123456), '123456');
  assert.equal(fmtNum(0.123456), '0.1235');
  assert.deepEqual(niceTicks(0, 37), [0, 10, 20, 30, 40]);
  assert.deepEqual(niceTicks(0, 0), [-1, -0.5, 0, 0.5, 1]);
});

test(
  'groupRates: a bar and an interval per group and panel, the reference dashed, marks as symbols, small groups ' +
    'hatched, a scale of its own per panel',
  () => {
    const svg = groupRates({
      attribute: 'Race',
      panels: ['positivity rate', 'FPR'],
      confidence: 0.95,
      intervalName: 'Wilson',
      groups: [
        {
          value: 'White',
          n: 900,
          reference: true,
          small: false,
          rates: [0.06, 0.02],
          intervals: [
            { lo: 0.05, hi: 0.07 },
            { lo: 0.015, hi: 0.03 },
          ],
          marks: [null, null],
        },
        {
          value: 'Black',
          n: 80,
          reference: false,
          small: false,
          rates: [0.02, 0.01],
          intervals: [
            { lo: 0.005, hi: 0.06 },
            { lo: 0.002, hi: 0.04 },
          ],
          marks: ['disadvantaged', 'inconclusive'],
        },
        {
          value: 'Other',
          n: 9,
          reference: false,
          small: true,
          rates: [null, 0.5],
          intervals: [null, { lo: 0.2, hi: 0.8 }],
          marks: [null, null],
        },
      ],
    });
    structural(svg, 'group-rates');
    assert.match(svg, /class="legend"/);
    assert.equal((svg.match(/<g class="rate/g) ?? []).length, 6);
    assert.equal((svg.match(/class="interval"/g) ?? []).length, 5, 'one whisker per defined interval');
    assert.equal((svg.match(/class="reference"/g) ?? []).length, 2, 'the reference rate in each panel');
    assert.match(svg, />2\.0% ⚑↓</);
    assert.match(svg, />1\.0% \?</);
    assert.match(svg, /★ White/);
    assert.match(svg, /<g class="rate small"><title>Race = Other: positivity rate —, n = 9 \(small group\)/);
    assert.match(svg, /class="hatch"/);
    // the positivity panel ends at 7.5%, not 100%: 6% and 2% are far apart; FPR's scale ignores the small group's 80%
    assert.match(svg, />7\.5%<\/text>/);
    assert.match(svg, />2\.5%<\/text>/);
    assert.doesNotMatch(svg, />100%</);
    assert.match(svg, />› 50%<\/text><\/g>/, "the small group's value is written, marked as cut, where its bar is cut");
    assert.match(
      svg,
      /aria-label="[^"]*; flagged: Black positivity rate disadvantaged"/,
      'the flags in words for screen readers',
    );
    assert.match(svg, /none: pass/, 'the key says what an unmarked bar means');
  },
);

test(
  'rateChart: the charted metrics of METRIC_DEFS with Wilson intervals from the counts, verdict marks from the ' +
    'comparisons',
  () => {
    const a = sampleAuditResult().metrics.attributes.attributes[0];
    const svg = rateChart(a, 'positive');
    structural(svg, 'group-rates');
    for (const m of Object.values(METRIC_DEFS).filter((d) => 'chart' in d))
      assert.ok(svg.includes(`>${m.label}</text>`), m.label);
    const g = a.groups.find((x) => !x.reference)!;
    const x = g.tp! + g.fp!;
    const n = g.n;
    assert.ok(svg.includes(`selection rate ${fmtPct(g.selection_rate)} [`), 'the rate in the tooltip');
    assert.ok(n > 0 && x >= 0);
    const flagged = a.comparisons.filter(
      (c) => ['selection_rate', 'tpr', 'fpr'].includes(c.metric) && c.verdict === 'flagged',
    );
    assert.equal((svg.match(/⚑[↓↑≠]</g) ?? []).length, flagged.length, 'one mark per flagged comparison');
  },
);

test(
  'selectionScale and the heat map: the colour scale ends at a round number above the largest rate; the grid runs ' +
    'the longer attribute down',
  () => {
    assert.equal(selectionScale(0.06), 0.1);
    assert.equal(selectionScale(0.2), 0.2);
    assert.equal(selectionScale(0.38), 0.5);
    assert.equal(selectionScale(0.9), 1);
    const h = sampleAuditResult().intersections[0].heatmap;
    const top = Math.max(...h.selectionRate.flat().filter((v): v is number => v !== null));
    const svg = heatmap(h);
    assert.ok(svg.includes(`>${fmtPct(selectionScale(top), 0)}</text>`), 'the legend top');
    const t = transposeHeatmap(h);
    assert.deepEqual([t.rowAttribute, t.colAttribute], [h.colAttribute, h.rowAttribute]);
    assert.equal(t.n[1][0], h.n[0][1]);
    assert.equal(t.selectionRate[1][0], h.selectionRate[0][1]);
    assert.deepEqual(transposeHeatmap(t), h);
    // rows are the attribute with more values
    const rows = (svg.match(/<text class="tick" x="[^"]+" y="[^"]+" text-anchor="end" font-size="10.5">/g) ?? [])
      .length;
    assert.equal(rows, Math.max(h.rowValues.length, h.colValues.length));
  },
);
