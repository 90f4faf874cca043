// The report's first screen adds up: each attribute's headline names the disadvantaged group first
// whichever group is the reference, and the same whichever way the label is coded; a failed legal
// yardstick is never under "no flag" and has its own column in the verdict table; the sets get one
// confidence badge, which no caveat contradicts; the "what to look at next" line follows from the findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeHeadline, attributeHeadlineText, groupMetrics } from '../../src/methods/metrics/index.js';
import { headlines, nextSteps, renderReport, setsStanding, verdictTableHtml } from '../../src/report/index.js';
import type { AuditResult } from '../../src/audit/types.js';
import { getEngine } from '../helpers/engine.js';
import { metamorphicTable, recode } from '../helpers/metamorphic.js';
import { decisions, sampleAuditResult, withMetrics } from './sample-audit.js';

/** The verdicts' headline (the first without a plant). */
const verdictLine = (r: AuditResult) => headlines(r)[0];

test(
  'the headline names the disadvantaged group first when the reference (the largest group) is the disadvantaged ' +
    'one, and when it is the advantaged one',
  () => {
    // X is the largest group, so the reference, and selected at 15% against Y's 35%: Y is flagged advantaged
    const swapped = decisions(
      [
        ['X', 600, 90],
        ['Y', 400, 140],
      ],
      false,
    ).report;
    assert.equal(swapped.attributes[0].reference.value, 'X');
    const c = swapped.attributes[0].comparisons.find((x) => x.metric === 'selection_rate')!;
    assert.equal(c.verdict, 'flagged');
    assert.equal(c.direction, 'advantaged', 'the metrics state it from the compared group');
    const h = verdictLine(withMetrics(swapped));
    assert.match(
      h,
      /<a href="#metrics-g">g<\/a>: <strong>X<\/strong> ↓ disadvantaged: selection rate 15\.0% vs 35\.0% for Y \(0\.43×\)/,
      h,
    );
    assert.doesNotMatch(h, /advantaged,|↑/);
    assert.equal(
      attributeHeadlineText(attributeHeadline(swapped.attributes[0])).split(', and')[0],
      'g: X disadvantaged: selection rate 15.0% vs 35.0% for Y (x0.43)',
    );
    // the reference is the advantaged largest group: the compared group is named first, as it is
    const plain = decisions(
      [
        ['X', 600, 210],
        ['Y', 400, 60],
      ],
      false,
    ).report;
    assert.equal(plain.attributes[0].reference.value, 'X');
    assert.match(
      verdictLine(withMetrics(plain)),
      /<a href="#metrics-g">g<\/a>: <strong>Y<\/strong> ↓ disadvantaged: selection rate 15\.0% vs 35\.0% for X \(0\.43×\)/,
    );
  },
);

test('the same headline and verdict table whichever way the label is coded', () => {
  for (const groups of [
    [
      ['X', 600, 90],
      ['Y', 400, 140],
    ],
    [
      ['X', 600, 210],
      ['Y', 400, 60],
      ['Z', 300, 100],
    ],
  ] as [string, number, number][][]) {
    const a = withMetrics(decisions(groups, false).report);
    const b = withMetrics(decisions(groups, true).report);
    assert.equal(b.metrics.attributes.favourable, 'negative');
    assert.match(verdictLine(a), /⚑ flagged/);
    assert.equal(verdictLine(b), verdictLine(a));
    assert.deepEqual(nextSteps(b), nextSteps(a));
    // the table's columns are the metrics' (TPR ↔ TNR and so on swap places); the selection rate and the yardsticks are
    // the same cells
    const sel = (html: string) =>
      (html.match(/<tr><td class="l">[\s\S]*?<\/tr>/g) ?? []).map((row) => {
        const cells = row.match(/<td[\s\S]*?<\/td>/g)!;
        return [cells[1], cells.at(-1)];
      });
    assert.deepEqual(sel(verdictTableHtml([b.metrics.attributes])), sel(verdictTableHtml([a.metrics.attributes])));
  }
});

test(
  'simulated loans coded both ways (the metamorphic rows): a given disadvantaged reference is named first, and the ' +
    'headlines agree',
  async () => {
    const t = metamorphicTable(await getEngine());
    const opts = { groups: ['sex', 'group'], reference: { group: 'B' } };
    const a = groupMetrics(t, { label: 'approved', positive: 'yes', pred: 'p', ...opts });
    const b = groupMetrics(recode(t, 'approved', 'p', 'denied', 'p_deny'), {
      label: 'denied',
      positive: 'yes',
      favourable: 'negative',
      pred: 'p_deny',
      ...opts,
    });
    const group = a.attributes.find((x) => x.column === 'group')!;
    assert.ok(
      group.comparisons.some(
        (c) =>
          c.group === 'A' && c.metric === 'selection_rate' && c.verdict === 'flagged' && c.direction === 'advantaged',
      ),
      'A flagged advantaged against the given reference B',
    );
    const ha = verdictLine(withMetrics(a));
    assert.match(
      ha,
      /<a href="#metrics-group">group<\/a>: <strong>B<\/strong> ↓ disadvantaged: selection rate 14\.9% vs 29\.4% for A \(0\.51×\)/,
      ha,
    );
    assert.equal(verdictLine(withMetrics(b)), ha);
    assert.deepEqual(
      b.attributes.map((x) => attributeHeadlineText(attributeHeadline(x))),
      a.attributes.map((x) => attributeHeadlineText(attributeHeadline(x))),
    );
  },
);

test(
  'a failed four-fifths rule never sits under "no flag": the headline says it failed, and the verdict table has a ' +
    'column for it',
  async () => {
    // the metamorphic rows: sex has no statistical flag (inconclusive) while Female's four-fifths ratio is 0.61
    const t = metamorphicTable(await getEngine());
    const reports = [
      groupMetrics(t, { label: 'approved', positive: 'yes', pred: 'p', groups: ['sex', 'group'] }),
      groupMetrics(recode(t, 'approved', 'p', 'denied', 'p_deny'), {
        label: 'denied',
        positive: 'yes',
        favourable: 'negative',
        pred: 'p_deny',
        groups: ['sex', 'group'],
      }),
    ];
    for (const m of reports) {
      const sex = m.attributes.find((x) => x.column === 'sex')!;
      assert.ok(!sex.comparisons.some((c) => c.verdict === 'flagged'), 'no statistical flag on sex');
      assert.deepEqual(sex.fourFifths.below, ['Female']);
      const r = withMetrics(m);
      const h = verdictLine(r);
      const clause = h.slice(h.indexOf('<a href="#metrics-sex">'));
      assert.match(
        clause,
        /^<a href="#metrics-sex">sex<\/a>: <span class="badge flag">✗ legal yardstick<\/span> the four-fifths rule fails: Female 0\.61 of Male(&#39;|')s; the LL144 impact ratio( \(scoring rate\))? is below 0\.80: Female 0\.69 of Male(&#39;|')s \(no statistical verdict flags it/,
      );
      // the first screen never puts sex under "no flag", and neither does the full list of findings
      const html = renderReport(r);
      const first = html.slice(0, html.indexOf('<details id="findings-full">'));
      assert.doesNotMatch(first, /no flag[^.]*sex|sex<\/a> \(<span class="badge soft">/i);
      const full = html.slice(
        html.indexOf('<details id="findings-full">'),
        html.indexOf('</section>', html.indexOf('<details id="findings-full">')),
      );
      const sexLine = full.split('<li>').find((l) => l.includes('sex: the four-fifths rule'))!;
      assert.ok(sexLine, 'the full findings state the yardstick');
      assert.match(sexLine, /^<span class="badge flag">✗ legal yardstick<\/span> sex: the four-fifths rule fails/);
      assert.doesNotMatch(sexLine, /no flag/i);
      // the verdict table: sex's statistical cells are not flagged, its yardstick cell is ✗
      const row = verdictTableHtml([m]).match(/<tr><td class="l"><a href="#metrics-sex">[\s\S]*?<\/tr>/)![0];
      assert.doesNotMatch(row, /⚑ flagged/);
      assert.match(
        row,
        /<td class="flag" title="the four-fifths rule fails: Female 0\.61 of Male(&#39;|')s; the LL144 impact ratio( \(scoring rate\))? is below 0\.80: Female 0\.69 of Male(&#39;|')s"><a href="#metrics-sex">✗ fails<\/a><span class="ci">Female&nbsp;0\.61<\/span><\/td><\/tr>$/,
      );
      assert.match(verdictTableHtml([m]), /<th title="[^"]*legal yardsticks[^"]*">4\/5, LL144<\/th>/);
      assert.equal(
        attributeHeadlineText(attributeHeadline(sex)),
        "sex: no statistical flag (3 inconclusive), but the four-fifths rule fails: Female 0.61 of Male's; the LL144 " +
          "impact ratio (scoring rate) is below 0.80: Female 0.69 of Male's",
      );
    }
    // several groups below: the lowest named, the others counted; both yardsticks alike said once
    const many = decisions(
      [
        ['X', 600, 240],
        ['Y', 400, 120],
        ['Z', 300, 60],
      ],
      false,
    ).report;
    assert.match(
      verdictTableHtml([many]),
      /<td class="flag" title="the four-fifths rule and the LL144 impact ratio( \(scoring rate\))? fail: Z 0\.50, Y 0\.75 of X(&#39;|')s"><a href="#metrics-g">✗ fails<\/a><span class="ci">Z&nbsp;0\.50<\/span><\/td>/,
    );
    // a long group name is written whole (the cell wraps; nothing is cut)
    const long = decisions(
      [
        ['Some-long group name', 600, 240],
        ['Amer-Indian-Eskimo', 400, 60],
      ],
      false,
    ).report;
    assert.match(
      verdictTableHtml([long]),
      /<span class="ci">Amer-Indian-Eskimo&nbsp;0\.37<\/span>/,
      'the group is written whole',
    );
    // every group at least 0.8: ✓, and the headline has no yardstick to state
    const fine = decisions(
      [
        ['X', 600, 180],
        ['Y', 400, 118],
      ],
      false,
    ).report;
    assert.match(verdictTableHtml([fine]), /<td><a href="#metrics-g">✓ holds<\/a><\/td>/);
    assert.doesNotMatch(verdictLine(withMetrics(fine)), /yardstick<\/span>/);
  },
);

/** The badges of one headline, as their text. */
const badges = (h: string) => [...h.matchAll(/<span class="badge[^"]*">([^<]*)<\/span>/g)].map((m) => m[1]);

test('one confidence statement on the sets, derived in one place: no ✓ beside a caveat that says otherwise', () => {
  const r = sampleAuditResult();
  r.planted = undefined;
  const line = () => headlines(r).at(-1)!;
  // the sample: 51% accepted for the positive set and a validity caveat
  assert.equal(setsStanding(r).mark, 'caution');
  assert.deepEqual(badges(line()), ['⚠ read the sets with care']);
  assert.match(line(), /under 80%: weakly conditioned, <a href="#caveats">1 validity caveat<\/a>/);
  // well conditioned, but a validity caveat remains: still no ✓
  for (const d of r.canonical.draws!) {
    d.positive.acceptance = 0.95;
    d.negative.acceptance = 0.95;
  }
  assert.equal(setsStanding(r).mark, 'caution');
  assert.doesNotMatch(line(), /✓/);
  // no caveat on the sets' validity or fidelity: ✓
  r.caveats = r.caveats.filter((c) => c.topic !== 'validity');
  assert.equal(setsStanding(r).mark, 'ok');
  assert.deepEqual(badges(line()), ['✓ no caveat on the sets']);
  assert.match(
    line(),
    /<a href="#caveats">4 other caveats<\/a>: rare intersections, detection power, small groups, model\./,
  );
  // a fidelity caveat withdraws it
  r.caveats.push({
    topic: 'fidelity',
    text: 'the main canonical sets: 3.0% of the rows drawn for the positive set were clipped',
  });
  assert.equal(setsStanding(r).mark, 'caution');
  assert.doesNotMatch(line(), /✓/);
  // nothing can score them
  r.canonical.validity = null;
  assert.equal(setsStanding(r).mark, 'unknown');
  assert.deepEqual(badges(line()), ['✗ validity unknown']);
});

test("no headline carries a ✓ badge beside a ⚠ or ✗ one, and only the sets' line speaks for the sets", () => {
  const variants: AuditResult[] = [sampleAuditResult()];
  const noCaveats = sampleAuditResult();
  noCaveats.caveats = [];
  variants.push(noCaveats);
  const unfaithful = sampleAuditResult();
  for (const x of unfaithful.findings.protected) x.faithful = false;
  variants.push(unfaithful);
  for (const r of variants) {
    r.planted = undefined;
    const hs = headlines(r);
    for (const h of hs) {
      const bs = badges(h);
      assert.ok(!(bs.some((b) => b.startsWith('✓')) && bs.some((b) => /^[⚠✗]/.test(b))), h);
    }
    // the sets' one badge is in their line; the protected attributes' line says in words where its figures come from
    const sets = hs.filter((h) => badges(h).some((b) => /sets|validity/.test(b)));
    assert.equal(sets.length, 1, hs.join('\n'));
    assert.deepEqual(badges(hs.find((h) => h.startsWith('Protected attributes'))!), []);
  }
});

test('"what to look at next" follows from the findings', () => {
  const r = sampleAuditResult();
  const html = renderReport(r);
  assert.match(html, /<p class="small" id="next"><strong>What to look at next:<\/strong> /);
  assert.ok(
    html.indexOf('id="next"') < html.indexOf('<details id="findings-full">'),
    'on the first screen, before the findings in full',
  );
  const steps = nextSteps(r);
  // sex is flagged; the attribution says hours-per-week carries it: look there, and try it as a legitimate factor
  assert.equal(
    steps[0],
    '<strong>hours-per-week</strong>, <strong>marital-status</strong>, which carry the disparity of sex, age ' +
      '(binned) (<a href="#findings-full">why a group is flagged</a>)',
  );
  assert.ok(
    steps.includes(
      '<code>--legitimate hours-per-week</code> if it is a legitimate factor (how much of the disparity it explains)',
    ),
    steps.join('\n'),
  );
  // age is not read by the model: the proxy view
  assert.ok(
    steps.includes('the <a href="#proxy">proxy view</a> for age (binned), which the model does not read'),
    steps.join('\n'),
  );
  // sex fails the four-fifths rule: a policy that holds it, on the protected column
  assert.ok(
    steps.includes('<code>lucid check --policy</code> to hold a limit in CI (<code>four_fifths</code> fails on sex)'),
    steps.join('\n'),
  );

  // no carrier named by the attribution: no feature to look at and no --legitimate to try
  const bare = sampleAuditResult();
  for (const a of bare.attribution) a.carriers = [];
  assert.ok(!nextSteps(bare).some((s) => /--legitimate|carry the disparity/.test(s)), nextSteps(bare).join('\n'));

  // the audit already split the disparity by a legitimate factor: point at the split, do not suggest the option
  const split = sampleAuditResult();
  split.metrics.attributes.attributes[0].conditional = {
    reference: 'Male',
    columns: ['hours-per-week'],
    strata: 5,
    confidence: 0.95,
    rows: [],
  };
  assert.ok(!nextSteps(split).some((s) => s.includes('--legitimate')));
  assert.ok(
    nextSteps(split).some((s) =>
      s.startsWith('the disparity the legitimate factors (hours-per-week) explain and the rest'),
    ),
  );

  // nothing flagged and no yardstick failing: no disparity to chase, no example policy that fails
  const fair = decisions(
    [
      ['X', 600, 180],
      ['Y', 400, 118],
    ],
    false,
  ).report;
  assert.ok(!fair.attributes[0].comparisons.some((c) => c.verdict === 'flagged'));
  assert.ok(!fair.attributes[0].fourFifths.below.length);
  const fairSteps = nextSteps(withMetrics(fair));
  assert.ok(!fairSteps.some((s) => /--legitimate|carry the disparity|fails on|proxy/.test(s)), fairSteps.join('\n'));
  assert.match(fairSteps.join(), /nothing is flagged and no yardstick fails/);
});

test('the headline leads with the group with the lowest favourable rate, not the lowest ratio to the reference', () => {
  // X, the reference, at 30%; Y flagged below it at 18% (0.60 of X); Z flagged above it at 60%: X is at 0.50 of Z, but
  // Y is the worst off
  for (const flip of [false, true]) {
    const r = decisions(
      [
        ['X', 2000, 600],
        ['Y', 1500, 270],
        ['Z', 1000, 600],
      ],
      flip,
    ).report;
    const sel = r.attributes[0].comparisons.filter((c) => c.metric === 'selection_rate');
    assert.deepEqual(
      sel.map((c) => [c.group, c.verdict, c.direction]),
      [
        ['Y', 'flagged', 'disadvantaged'],
        ['Z', 'flagged', 'advantaged'],
      ],
    );
    const h = attributeHeadline(r.attributes[0]);
    assert.equal(
      attributeHeadlineText(h).split(', and')[0],
      'g: Y disadvantaged: selection rate 18.0% vs 30.0% for X (x0.60)',
    );
    assert.equal(
      h.more,
      1 + r.attributes[0].comparisons.filter((c) => c.metric !== 'selection_rate' && c.verdict === 'flagged').length,
    );
  }
});
