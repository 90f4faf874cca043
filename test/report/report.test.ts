import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faleSpread, headlines, renderReport } from '../../src/report/index.js';
import { degenerateAuditResult, dist, expectedChartCount, sampleAuditResult } from './sample-audit.js';
import { unwrapSummary } from '../helpers/unwrap.js';

/** Every <svg …>…</svg> in `html`. */
const svgs = (html: string): string[] => html.match(/<svg\b[\s\S]*?<\/svg>/g) ?? [];
const charts = (html: string): string[] => svgs(html).filter((s) => /^<svg[^>]*\bclass="chart"/.test(s));

test('renderReport: a complete HTML document with every section', () => {
  const html = renderReport(sampleAuditResult());
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<\/html>\n$/);
  for (const id of [
    'findings',
    'metrics',
    'canonical',
    'proxy',
    'protected',
    'intersections',
    'lucid',
    'fale',
    'caveats',
    'how-to-read',
    'files',
  ]) {
    assert.match(html, new RegExp(`<section[^>]*id="${id}"`), `section ${id}`);
  }
  // header facts
  for (const s of [
    'adult-sample.csv',
    '3,000 rows',
    '&gt;50K',
    'paper loss',
    '2026-11-29T12:00:00.000Z',
    'lucid-wasm 0.1.0',
    'Seed',
  ])
    assert.ok(html.includes(s), s);
  // findings: top features, protected direction, four-fifths flag, planted
  assert.match(html, /Planted in the simulated data/);
  // findings: only directions the data confirms are preferences; disagreements and generated-only values are said as
  // such
  const findings = html.slice(html.indexOf('id="findings"'), html.indexOf('</section>', html.indexOf('id="findings"')));
  assert.match(
    findings,
    /✓ the sets agree with the data<\/span> the model's positive decisions favour <strong>Male<\/strong> \(canonical shift \+24\.0 pp \(GAN seeds \+22\.0 pp to \+26\.0 pp\); real rows \+21\.0 pp \[\+18\.0 pp, \+24\.0 pp\]\)/,
  );
  assert.match(findings, /✗ the sets shift the other way from the data<\/span> on <strong>\(28, 37\]<\/strong>/);
  assert.match(findings, /generated only, not confirmed by the data<\/span> <strong>\(48, 90\]<\/strong>/);
  assert.match(findings, /favour <strong>higher values<\/strong> \(canonical median shift \+9/);
  // a negative median shift: higher values are disfavoured (never "disfavour lower values")
  const r2 = sampleAuditResult();
  const ageF = r2.findings.protected.find((f) => f.feature === 'age')!;
  const med = ageF.favoured.find((v) => v.kind === 'median')!;
  ageF.favoured = ageF.favoured.filter((v) => v !== med);
  ageF.disfavoured.unshift({
    ...med,
    canonical: { ...med.canonical, pooled: -9, min: -10, max: -8, seeds: [-9, -10, -8] },
    real: { ...med.real, shift: -7, lo: -9, hi: -5 },
  });
  const f2 = renderReport(r2);
  assert.match(f2, /disfavour <strong>higher values<\/strong> \(canonical median shift −9/);
  assert.doesNotMatch(f2, /lower values/);
  // the real rows' ranking beside the canonical one: capital-gain is misrepresented (✗), ranked below the named
  // features
  assert.match(html, /<table class="metrics ranking">/);
  assert.match(
    html,
    /<td class="l">capital-gain<\/td><td>0\.129 <span class="ci">\[0\.129, 0\.129\]<\/span><\/td><td>0\.000<\/td><td>0\.254 <span class="ci">\(0\.239–0\.267\)<\/span><\/td><td>5<\/td><td>✗<\/td>/,
  );
  assert.ok(!/favour[^.]*\(28, 37\]/.test(findings), 'a disagreement is never a preference');
  assert.ok(!findings.includes('lower bounds'));
  assert.match(
    findings,
    /drawn by rejection: of the rows the generator produced, the model put 51\.0% of those drawn for the positive set/,
  );
  assert.ok(!findings.includes('corrected: drawn from'), 'no correction text without a correction');
  // the classifier correction: the candidates, the lowest effective sample share, the sets not corrected
  const rc = sampleAuditResult();
  rc.canonical.draws![0].positive.correction = { candidates: 4000, ess: 0.42, meanReal: 0.4 };
  rc.canonical.draws![0].negative.correction = { candidates: 4000, ess: 0.7, meanReal: 0.45 };
  rc.canonical.draws![1].positive.correction = {
    candidates: 1200,
    ess: 1,
    skipped: '20 real rows on the side (fewer than 50)',
  };
  const fc = renderReport(rc);
  assert.match(
    fc,
    /corrected: drawn from 8,000 such candidates with probability ∝ a real-vs-generated classifier's odds \(lowest effective sample share 42\.0%\)/,
  );
  assert.match(fc, /1 of 3 sets were not corrected \(20 real rows on the side \(fewer than 50\)\)/);
  // only the shares that are not 0 (the sample has no derived number out of range)
  assert.match(
    findings,
    /Of the [\d,]+ rows drawn, \d+\.\d% had a number outside its column's observed range \(clipped into it\) and \d+\.\d% contradicted an exact dependency of the data that was not derived \(rejected\)\./,
  );
  assert.ok(!findings.includes('had a derived number outside'));
  // the relations of the data: how each is kept, and the rows breaking it, real and generated
  assert.match(html, /<summary>Relations of the data kept in the sets \(2\)<\/summary>/);
  // fidelity beyond single columns: each figure beside its floor, with a reading per side
  assert.match(html, /<summary>Fidelity beyond single columns: pair trends, detection, privacy<\/summary>/);
  assert.match(
    html,
    /<td>0\.912 <span class="small">\(noise floor 0\.951; worst age × marital-status 0\.710, sex × relationship 0\.780\)<\/span> <span class="badge soft">beyond noise<\/span><\/td><td>0\.955 <span class="small">\(noise floor 0\.948;[^<]*<\/span> <span class="badge agree">within noise<\/span>/,
  );
  assert.match(
    html,
    /<td>0\.410 <span class="small">\(AUC 0\.795; real rows against real rows ≥ 0\.830\)<\/span> <span class="badge soft">beyond noise<\/span>/,
  );
  assert.match(
    html,
    /0\.0% copies \(held-out 0\.2%\); distance 0\.031 \(held-out 0\.030, 1\.03×\)[^<]*<span class="small">\(every row trained the GANs[^<]*<\/span> <span class="badge agree">no sign of copying<\/span>/,
  );
  assert.match(
    html,
    /4\.0% copies \(held-out 0\.1%\); distance 0\.010 \(held-out 0\.028, 0\.36×\)[^<]*<span class="small">[^<]*<\/span> <span class="badge flag">closer than held-out rows<\/span>/,
  );
  assert.match(
    html,
    /<tr><td>age = education-num \+ experience \+ 6<\/td><td>derived: age written from education-num, experience<\/td><td>0\.2% <span class="small">\(2 of 1,000\)<\/span><\/td><td>0\.0% <span class="small">\(0 of 1,000\)<\/span><\/td>/,
  );
  assert.match(
    html,
    /⚑ flagged<\/span> sex against Male: <strong>Female<\/strong> selection rate 12\.0% vs 29\.0% \(0\.41×, [\d.]+% interval \[0\.3\d, 0\.5\d\]; disadvantaged\)/,
  );
  assert.match(html, /Four-fifths rule \(the legal yardstick\): selection rate below 0\.8 of Male's for Female/);
  // metrics: the reference marked, flagged cells, CIs, small groups, the LL144 table
  assert.match(html, /★ reference/);
  assert.match(html, /<td class="flag" title="[^"]*">0\.41× <span class="badge flag">⚑ disadvantaged/);
  assert.match(html, /Impact ratios in the NYC Local Law 144 form/);
  assert.match(html, /class="ci"/);
  assert.match(html, /⚠ small/);
  // protected bins table
  assert.match(html, /<table class="bins">/);
  assert.ok(html.includes('(28, 37]'));
  // intersections: combination table with a rare row; the power caveat folded under its topic in the caveats section
  assert.match(html, /<tr class="rare">/);
  const cav = html.slice(
    html.indexOf('<section id="caveats"'),
    html.indexOf('</section>', html.indexOf('<section id="caveats"')),
  );
  assert.match(
    cav,
    /<details><summary>Detection power \(1\)<\/summary><ul><li class="caveat">3000 rows: a planted intersection was located in 0 of 5 simulator audits/,
  );
  // LUCID and FALE
  assert.match(html, /96\.4%/);
  assert.match(html, /FALE of SPD/);
  // no external resources, no scripts
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  assert.doesNotMatch(html, /<link\b/);
});

test('renderReport: chart count, and every chart is accessible and has axis labels', () => {
  const r = sampleAuditResult();
  const html = renderReport(r);
  const cs = charts(html);
  assert.equal(cs.length, expectedChartCount(r));
  assert.equal(cs.length, 1 + 7 + 1 + 2 + 4 + 2 + 3);
  assert.equal(svgs(html).length, cs.length, 'no non-chart svgs');
  const kinds = new Map<string, number>();
  for (const s of cs) {
    const open = s.slice(0, s.indexOf('>'));
    assert.match(open, /role="img"/);
    assert.match(open, /aria-label="[^"]+"/);
    const kind = /data-chart="([a-z-]+)"/.exec(open)?.[1];
    assert.ok(kind, open);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    assert.match(s, /<title>[^<]+<\/title>/);
    assert.match(s, /<text class="axis-label"[^>]*>[^<]+<\/text>/, `axis label in ${kind}`);
    assert.match(s, /class="legend"/, `legend in ${kind}`);
  }
  assert.deepEqual(Object.fromEntries([...kinds].sort()), {
    fale: 2,
    'group-rates': 3,
    'grouped-bars': 6,
    heatmap: 2,
    'histogram-pair': 5,
    'js-ranking': 1,
    line: 1,
  });
});

test('renderReport: strings from the data are escaped', () => {
  const html = renderReport(sampleAuditResult());
  assert.ok(!html.includes('<script>alert'));
  assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  const r = sampleAuditResult();
  r.meta.data.source = '<img src=x onerror=alert(1)>.csv';
  r.protected[0].column = 'a"b<c>';
  r.caveats.push({ topic: 'other', text: '<b>bold</b>' });
  r.intersections[0].heatmap.rowValues[0] = '<i>F</i>';
  const h2 = renderReport(r);
  assert.ok(!h2.includes('<img'));
  assert.ok(!h2.includes('<b>bold'));
  assert.ok(!h2.includes('<i>F'));
  assert.ok(!h2.includes('a"b<c>'));
});

test('renderReport: deterministic', () => {
  assert.equal(renderReport(sampleAuditResult()), renderReport(sampleAuditResult()));
  assert.equal(renderReport(degenerateAuditResult()), renderReport(degenerateAuditResult()));
});

test('renderReport: degenerate inputs render without NaN or Infinity', () => {
  const r = degenerateAuditResult();
  const html = renderReport(r);
  assert.ok(!html.includes('NaN'), 'NaN in output');
  assert.ok(!html.includes('Infinity'), 'Infinity in output');
  assert.ok(!html.includes('>undefined'));
  assert.match(html, /LUCID did not run: the model is a predictions column/);
  assert.match(html, /FALE was not run: FALE needs a callable model/);
  assert.match(html, /Validity could not be checked/);
  assert.equal(charts(html).length, expectedChartCount(r));
  for (const s of charts(html)) assert.match(s, /class="axis-label"/);
});

test('renderReport: no proxies, no intersections, no metrics rows', () => {
  const r = degenerateAuditResult();
  r.proxy = { columns: [], distributions: [] };
  r.intersections = [];
  r.protected = [];
  r.canonical.distributions = [];
  r.metrics.attributes.attributes = [];
  const html = renderReport(r);
  assert.ok(!html.includes('NaN'));
  assert.match(html, /no separate proxy view/);
  assert.match(html, /no intersections/);
  assert.equal(charts(html).length, 1); // the (empty) JS ranking
});

test(
  'findings name at most six flagged comparisons per attribute, most significant first; the header separates ' +
    'training rows from set size',
  () => {
    const r = sampleAuditResult();
    const a = r.metrics.attributes.attributes[0];
    const template = a.comparisons.find((c) => c.metric === 'selection_rate')!;
    // ten groups, each flagged on the positivity rate, adjusted p-values 1e-10 … 1e-1
    a.comparisons = [];
    for (let i = 0; i < 10; i++) {
      a.comparisons.push({
        ...template,
        group: `g${i}`,
        verdict: 'flagged',
        direction: 'disadvantaged',
        pAdjusted: 10 ** (-10 + i),
        level: 0.01,
        interval: { lo: 0.3, hi: 0.6 },
        ratio: 0.5,
      });
    }
    const html = renderReport(r);
    const line = html
      .split('\n')
      .find((l) => l.includes('⚑ flagged') && l.includes('<strong>g0</strong>') && l.includes('<strong>g1</strong>'))!;
    assert.ok(line, 'a findings line for the attribute');
    assert.ok(line.indexOf('<strong>g0</strong>') < line.indexOf('<strong>g1</strong>'), 'most significant first');
    assert.ok(!line.includes('<strong>g6</strong>'), 'at most six named');
    assert.match(line, /and 4 more/);
    assert.match(line, /99% interval \[0\.30, 0\.60\]; disadvantaged/);
    // why: sex is read with little effect, so the disparity runs through correlated features
    assert.match(
      line,
      /reads sex with little effect .*runs through correlated features; the features that carry most of it: hours-per-week/,
    );
    assert.match(
      html,
      new RegExp(
        `on ${r.meta.gan.rows.toLocaleString('en-US')} rows, ${r.meta.gan.epochs} epochs \\(the published ` +
          `schedule\\); ${r.canonical.positive.rows.toLocaleString('en-US')} rows per canonical set`,
      ),
    );
  },
);

test(
  'renderReport: the one-attribute-fixed table (paper protocol) in the intersections section, escaped, no NaN, no ' +
    'extra chart',
  () => {
    const r = sampleAuditResult();
    const before = charts(renderReport(r)).length;
    r.conditional = [
      {
        fixed: ['sex', 'Female'],
        rows: 500,
        fixTraining: { rows: 900, share: 0.3, rare: false },
        fixSatisfied: 0.92,
        distributions: [dist('group', 'protected', { categories: ['A', 'B'] }, [0.8, 0.2], [0.6, 0.4])],
      },
      {
        fixed: ['<b>x</b>', 'a"b'],
        rows: 500,
        fixTraining: { rows: 3, share: 0.001, rare: true },
        distributions: [dist('r<i>', 'proxy', { categories: ['<script>v</script>'] }, [1], [1])],
      },
    ];
    const html = renderReport(r);
    const sec = /<section id="intersections">[\s\S]*?<\/section>/.exec(html)![0];
    assert.match(sec, /One attribute fixed/);
    assert.match(sec, /<table class="conditional">/);
    assert.match(sec, /500 rows each/);
    // sex = Female fixed: group = B 20.0% of the positive set, 40.0% of the negative, −20 pp
    assert.match(
      sec,
      /<td class="l">sex = Female<\/td><td class="l">group = B<\/td><td>20\.0%<\/td><td>40\.0%<\/td><td>-20\.0 pp<\/td>/,
    );
    assert.match(
      sec,
      /<td class="l">sex = Female<\/td><td class="l">group = A<\/td><td>80\.0%<\/td><td>60\.0%<\/td><td>\+20\.0 pp<\/td><td rowspan="2">[^<]+<\/td><td rowspan="2">92\.0%<\/td>/,
    );
    // escaping; a rare fix is badged; missing fixSatisfied is a dash, not NaN
    assert.ok(!html.includes('<b>x</b>') && !html.includes('<script>v') && !html.includes('r<i>'));
    assert.ok(sec.includes('&lt;b&gt;x&lt;/b&gt; = a&quot;b'));
    assert.match(
      sec,
      /<tr class="rare"><td class="l">&lt;b&gt;x&lt;\/b&gt; = a&quot;b<span class="badge rare">rare<\/span>/,
    );
    assert.ok(!html.includes('NaN') && !html.includes('Infinity'));
    assert.equal(charts(html).length, before);
    assert.equal(charts(html).length, expectedChartCount(r));
    // degenerate shares (empty sets): dashes, no NaN
    const d = degenerateAuditResult();
    d.conditional = [
      {
        fixed: ['sex', 'Male'],
        rows: 0,
        distributions: [
          {
            feature: 'group',
            kind: 'categorical',
            categories: ['A'],
            series: [
              { name: 'p', share: [NaN], n: 0 },
              { name: 'n', share: [NaN], n: 0 },
            ],
            js: NaN,
            role: 'protected',
          },
        ],
      },
    ];
    const dh = renderReport(d);
    assert.match(dh, /<table class="conditional">/);
    assert.ok(!dh.includes('NaN'));
    // without conditional sets: no table
    assert.doesNotMatch(renderReport(sampleAuditResult()), /class="conditional"/);
  },
);

test(
  'the verdict table comes first: attribute × judged metric, ' + 'symbol and word in every cell, linked to the tables',
  async () => {
    const { JUDGED_METRICS, METRIC_DEFS, verdictTable } = await import('../../src/methods/metrics/index.js');
    const r = sampleAuditResult();
    const html = renderReport(r);
    const v = html.indexOf('<section id="verdict">');
    assert.ok(v > 0 && v < html.indexOf('id="findings"'), 'before the findings');
    const sec = html.slice(v, html.indexOf('</section>', v));
    for (const m of JUDGED_METRICS) assert.ok(sec.includes(`>${METRIC_DEFS[m].label}</th>`), m);
    // sex: Female is flagged disadvantaged on the positivity rate (12% vs 29%)
    assert.match(sec, /<td class="flag"><a href="#metrics-sex">⚑ flagged<\/a><span class="ci">Female ↓<\/span><\/td>/);
    assert.match(
      html,
      /<figure id="metrics-sex"><svg[^>]*data-chart="group-rates"/,
      "the link target exists: the attribute's rate chart",
    );
    assert.ok(html.includes('<h4 id="metrics-sex-tables">'), 'and its tables');
    const rows = verdictTable([r.metrics.attributes, r.metrics.intersection]);
    assert.deepEqual(
      rows.map((x) => x.attribute),
      ['sex', 'age (binned)', 'sex × age (binned)'],
    );
    // a cell's verdict is the strongest of its comparisons
    const sexPos = rows[0].cells.selection_rate!;
    assert.equal(sexPos.verdict, 'flagged');
    assert.deepEqual(
      sexPos.flagged.map((x) => x.group),
      ['Female'],
    );
    // never colour alone: every cell has a word; the last column is the legal yardsticks', never a verdict's
    const rowsHtml = sec.match(/<tr><td class="l">[\s\S]*?<\/tr>/g) ?? [];
    assert.equal(rowsHtml.length, 3);
    for (const row of rowsHtml) {
      const cells =
        row.match(/<td(?: class="(?:flag|flag-soft|muted)")?(?: title="[^"]*")?><a [^>]*>[^<]*<\/a>/g) ?? [];
      assert.equal(cells.length, JUDGED_METRICS.length + 1, row);
      for (const cell of cells.slice(0, -1)) assert.match(cell, /flagged|inconclusive|pass|too little data/);
      assert.match(cells.at(-1)!, />(✗ fails|✓ holds|– too little data)</);
    }
    // sex: Female's four-fifths ratio is below 0.8 (12% vs 29%): ✗ in the yardsticks' column, every failure in its
    // title
    assert.match(
      rowsHtml[0],
      /<td class="flag" title="the four-fifths rule and the LL144 impact ratio( \(scoring rate\))? fail: Female 0\.41 of Male(&#39;|')s"><a href="#metrics-sex">✗ fails<\/a><span class="ci">Female&nbsp;0\.41<\/span><\/td><\/tr>$/,
    );
  },
);

test(
  'Findings: at most six short headlines, each linked ' + 'to its evidence, before every finding in full (folded)',
  () => {
    const r = sampleAuditResult();
    const hs = headlines(r);
    assert.ok(hs.length >= 3 && hs.length <= 6, String(hs.length));
    for (const h of hs.filter((x) => !x.startsWith('<strong>Planted'))) assert.match(h, /<a href="#[a-z-]+"/, h);
    // the verdict headline names the most significant flag of each attribute and its reference
    const sex = r.metrics.attributes.attributes.find((a) => a.column === 'sex')!;
    const worst = sex.comparisons.filter((c) => c.verdict === 'flagged').sort((a, b) => a.pAdjusted! - b.pAdjusted!)[0];
    assert.ok(
      hs.some(
        (h) =>
          h.includes(`<a href="#metrics-sex">sex</a>: <strong>${worst.group}</strong>`) &&
          h.includes(`for ${sex.reference.value}`),
      ),
    );
    const html = renderReport(r);
    const f = html.slice(html.indexOf('id="findings"'), html.indexOf('</section>', html.indexOf('id="findings"')));
    assert.ok(f.indexOf('<ul class="headlines">') < f.indexOf('<details id="findings-full">'));
    // a protected attribute's direction is a headline only where the data agrees
    const sexF = r.findings.protected.find((x) => x.feature === 'sex')!;
    const h = hs.find((x) => x.startsWith('Protected attributes on each side of the decision:'))!;
    if (sexF.favoured.length) assert.match(h, /favour <strong>Male<\/strong>[^;]*\(the sets and the real rows agree\)/);
    // where the figure comes from is said in words: the one badge on the sets is the sets' line's
    assert.doesNotMatch(h, /class="badge/);
    // misrepresented by the sets: the real rows state it
    sexF.faithful = false;
    assert.match(
      headlines(r).find((x) => x.startsWith('Protected attributes'))!,
      /favour <strong>Male<\/strong>[^;]*\(from the real rows: the sets misrepresent it\)/,
    );
    sexF.favoured = [];
    sexF.disfavoured = [];
    assert.match(
      headlines(r).find((x) => x.startsWith('Protected attributes'))!,
      /sex<\/a>: no direction confirmed by the data and the sets together/,
    );
  },
);

test('identical warnings and caveats are merged with their count; every list of them is folded', () => {
  const r = sampleAuditResult();
  for (let i = 0; i < 8; i++) r.warnings.push('the same validity warning');
  for (let i = 0; i < 3; i++) r.caveats.push({ topic: 'validity', text: 'the same caveat' });
  const html = renderReport(r);
  assert.equal((html.match(/the same validity warning/g) ?? []).length, 1);
  assert.match(html, /the same validity warning <span class="muted">\(×8\)<\/span>/);
  assert.equal((html.match(/the same caveat/g) ?? []).length, 1);
  assert.match(html, /the same caveat <span class="muted">\(×3\)<\/span>/);
  const cav = html.slice(
    html.indexOf('<section id="caveats"'),
    html.indexOf('</section>', html.indexOf('<section id="caveats"')),
  );
  assert.doesNotMatch(cav.replace(/<details>[\s\S]*?<\/details>/g, ''), /<li/, 'no list item outside a <details>');
});

test('faleSpread: a curve that moves where the rows are outranks a wilder one over nearly empty categories', () => {
  const base = { kind: 'categorical' as const, deltas: [], undefined: [] };
  const steady = {
    ...base,
    feature: 'a',
    categories: ['x', 'y'],
    values: [-0.1, 0.1],
    counts: { n: [500, 500], unprivileged: [250, 250], privileged: [250, 250] },
  };
  const wild = {
    ...base,
    feature: 'b',
    categories: ['x', 'y', 'z'],
    values: [0, -0.9, 0.9],
    counts: { n: [998, 1, 1], unprivileged: [499, 0, 1], privileged: [499, 1, 0] },
  };
  assert.ok(faleSpread(steady) > faleSpread(wild), `${faleSpread(steady)} vs ${faleSpread(wild)}`);
  assert.ok(Math.abs(faleSpread(steady) - 0.1) < 1e-12);
  assert.equal(faleSpread({ ...steady, values: [Number.NaN, Number.NaN] }), -1);
});

test('Findings: an attribute with no flag but inconclusive comparisons is not said to be fine', () => {
  const r = sampleAuditResult();
  const a = r.metrics.attributes.attributes[0];
  a.comparisons = a.comparisons.map((c) => (c.verdict === 'flagged' ? { ...c, verdict: 'inconclusive' as const } : c));
  const inc = a.comparisons.filter((c) => c.verdict === 'inconclusive').length;
  assert.ok(inc > 0);
  // sex's four-fifths ratio is below 0.8 (12% vs 29%): the yardstick is said, never "no flag"
  const h0 = headlines(r).find((x) => x.includes(`<a href="#metrics-${a.column}">${a.column}</a>:`))!;
  assert.match(
    h0,
    new RegExp(
      `<a href="#metrics-${a.column}">${a.column}</a>: <span class="badge flag">✗ legal yardstick</span> the ` +
        `four-fifths rule and the LL144 impact ratio( \\(scoring rate\\))? fail: Female 0\\.41 of Male(&#39;|')s ` +
        `\\(no statistical verdict flags it: ${inc} comparisons inconclusive\\)`,
    ),
    h0,
  );
  assert.doesNotMatch(h0, /no flag/i);
  // without the yardstick's failure: "no flag", with the inconclusive comparisons counted
  const g = a.groups.find((x) => x.value === 'Female')!;
  a.fourFifths = { ...a.fourFifths, ratio: { ...a.fourFifths.ratio, Female: 0.9 }, below: [] };
  a.impact = { ...a.impact, rows: a.impact.rows.map((x) => (x.category === g.value ? { ...x, impactRatio: 0.9 } : x)) };
  const h = headlines(r).find((x) => x.includes('No flag'))!;
  assert.ok(
    h.includes(
      `No flag and no failed yardstick for <a href="#metrics-${a.column}">${a.column}</a> (<span class="badge soft">` +
        `? ${inc} inconclusive</span>)`,
    ),
    h,
  );
  assert.match(h, /the data cannot tell either way/);
});

test(
  'Findings: the headline names the most concerning flag from the side of the group it disadvantages (the ' +
    'selection rate first, then the most significant), in words; an attribute with nothing to judge is "not ' +
    'tested", never "no flag"',
  () => {
    const r = sampleAuditResult();
    const a = r.metrics.attributes.attributes[0];
    const t = a.comparisons.find((c) => c.metric === 'selection_rate')!;
    a.comparisons = [
      {
        ...t,
        group: 'adv',
        metric: 'fpr',
        verdict: 'flagged',
        direction: 'advantaged',
        pAdjusted: 1e-40,
        rate: 0.3,
        referenceRate: 0.1,
        ratio: 3,
      },
      {
        ...t,
        group: 'dis',
        metric: 'tpr',
        verdict: 'flagged',
        direction: 'disadvantaged',
        pAdjusted: 1e-5,
        ratio: 0.5,
      },
    ];
    r.planted = undefined;
    const h = headlines(r)[0];
    // "adv" is advantaged against the reference Male: Male is the disadvantaged group, named first, the ratio inverted
    assert.match(
      h,
      new RegExp(
        `<a href="#metrics-${a.column}">${a.column}</a>: <strong>Male</strong> ↓ disadvantaged: FPR 10\\.0% vs ` +
          `30\\.0% for adv \\(0\\.33×\\)`,
      ),
      h,
    );
    assert.match(h, /and 1 more flag[^s]/);
    // a selection-rate flag comes first, however significant the others
    a.comparisons.push({
      ...t,
      group: 'sel',
      verdict: 'flagged',
      direction: 'disadvantaged',
      pAdjusted: 1e-3,
      rate: 0.2,
      referenceRate: 0.29,
      ratio: 0.69,
    });
    assert.match(
      headlines(r)[0],
      new RegExp(
        `<a href="#metrics-${a.column}">${a.column}</a>: <strong>sel</strong> ↓ disadvantaged: selection rate ` +
          `20\\.0% vs 29\\.0% for Male \\(0\\.69×\\), and 2 more flags`,
      ),
    );
    a.comparisons.pop();
    // every comparison "too little data": not tested
    a.comparisons = a.comparisons.map((c) => ({ ...c, verdict: 'too little data' as const, direction: null }));
    // its failed yardstick is still said, never "not tested" alone
    assert.match(
      headlines(r)[0],
      new RegExp(
        `<a href="#metrics-${a.column}">${a.column}</a>: <span class="badge flag">✗ legal yardstick</span> the ` +
          `four-fifths rule .*?\\(too little data for a statistical verdict\\)`,
      ),
    );
    a.fourFifths = { ...a.fourFifths, ratio: {}, below: [] };
    a.impact = { ...a.impact, rows: [] };
    const h2 = headlines(r)[0];
    assert.ok(!h2.includes(`No flag for <a href="#metrics-${a.column}">`), h2);
    assert.match(
      h2,
      new RegExp(`too little data</span> to compare the groups of <a href="#metrics-${a.column}">${a.column}</a>`),
    );
  },
);

test('the header states the decision threshold; one other than 0.5 is in the summary line too', () => {
  const r = sampleAuditResult();
  assert.match(
    renderReport(r),
    /<dt>Decision<\/dt><dd>positive when the model's score is above <strong>0\.5<\/strong>/,
  );
  assert.doesNotMatch(renderReport(r).slice(0, renderReport(r).indexOf('</summary>')), /threshold/);
  r.meta.threshold = 0.7;
  const html = renderReport(r);
  assert.match(html.slice(0, html.indexOf('</summary>')), /seed 42, threshold 0\.7,/);
});

test(
  'what every figure depends on comes first: an interrupted audit on the first line, a weak model before the ' +
    'verdicts; the CLI summary the same',
  async () => {
    const { auditSummary } = await import('../../src/report/summary.js');
    const { interruption } = await import('../../src/audit/stages/result.js');
    const plain = renderReport(sampleAuditResult());
    assert.doesNotMatch(plain, /id="interrupted"|id="weak-model"/);
    assert.match(plain, /<p class="small">Model fit: accuracy \d+\.\d% \(the label(&#39;|')s majority/);
    const r = sampleAuditResult();
    r.meta.interrupted = { ...interruption('gan', [22], 3, 250, true)!, signal: 'SIGTERM' };
    r.metrics.attributes.fit.weak = [
      'it decides 98.2% of the rows ">50K", while the label\'s majority ("<=50K") is only 75.4%: …',
    ];
    const html = renderReport(r);
    assert.match(html, /<title>INTERRUPTED — Fairness audit/);
    assert.match(
      html,
      /<header>\n<p class="alert" id="interrupted" role="alert">SIGTERM: INTERRUPTED during the LUCID-GAN training: the audit was finished early with 1 of 3 LUCID-GANs trained \(epochs 22 of 250\)/,
    );
    const weakAt = html.indexOf('id="weak-model"');
    assert.ok(weakAt > 0 && weakAt < html.indexOf('id="verdict"'), 'the weak model before the verdict table');
    const lines = unwrapSummary(
      auditSummary(r, { dir: 'out', report: 'out/report.html', files: ['report.html', 'audit.json'] }),
    ).split('\n');
    assert.match(lines[0], /^lucid: SIGTERM: INTERRUPTED during the LUCID-GAN training/);
    assert.match(lines[1], /^lucid: WEAK MODEL: it decides 98\.2% of the rows/);
    assert.match(lines[2], /^lucid: wrote out\/report\.html .*, marked interrupted$/);
    assert.ok(
      lines.some((l) => /^ {4}four-fifths rule \(the legal yardstick, not a verdict\): .*below 0\.8: /.test(l)),
      'four-fifths beside the verdicts',
    );
    assert.ok(
      lines.some((l) => /^ {4}impact ratios \(NYC LL144, /.test(l)),
      'LL144 beside the verdicts',
    );
  },
);
