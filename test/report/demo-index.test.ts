// What the demo found against what was planted (plantedOutcomes): the one decision the demo's
// "found:" line, its index page and the report's planted headline all read; ✗ said where the audit
// misses it; one sentence on the planted rule against the trained model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foundText, plantedOutcomes, ruleVsModel } from '../../src/audit/planted.js';
import { demoIndexHtml, headlines } from '../../src/report/index.js';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { getEngine } from '../helpers/engine.js';
import { decisions, sampleAuditResult, withMetrics } from './sample-audit.js';

const entry = (r: ReturnType<typeof sampleAuditResult>) => ({
  title: 'direct bias',
  href: 'direct/report.html',
  result: r,
});

test(
  'a planted group flagged disadvantaged on the selection rate is found: the index, the found line and the report ' +
    'say ✓',
  () => {
    const r = sampleAuditResult();
    const [o] = plantedOutcomes(r);
    assert.equal(o.matches, true);
    assert.deepEqual(
      o.groups.map((g) => [g.attribute, g.group, g.found?.metric]),
      [['sex', 'Female', 'selection_rate']],
    );
    const line = foundText(o);
    assert.match(
      line,
      /^sex = Female flagged disadvantaged: selection rate 12\.0% vs 29\.0% for Male \(x0\.41\); also flagged disadvantaged \(not planted\): age \(binned\): \[17, 28\] disadvantaged: selection rate/,
    );
    const html = demoIndexHtml([entry(r)]);
    assert.match(html, /<a href="direct\/report\.html">direct bias<\/a>/);
    assert.match(html, /<strong>✓ the audit finds what was planted<\/strong>/);
    assert.match(
      html,
      /✓ found: sex = Female is flagged disadvantaged: selection rate 12\.0% vs 29\.0% for Male \(x0\.41\)/,
    );
    assert.match(html, /The audit finds what was planted in 1 of 1 report\./);
    assert.match(
      headlines(r)[0],
      /<span class="badge agree">✓ found<\/span> sex = <strong>Female<\/strong> flagged disadvantaged on the selection rate/,
    );
  },
);

test(
  'a planted group the audit does not flag is said to be ' + 'missed (✗), in the index, the found line and the report',
  () => {
    const r = sampleAuditResult();
    r.planted = [
      {
        kind: 'direct',
        rule: 'P(income = >50K) lowered by 0.15 for sex = Male',
        disadvantaged: [{ sex: 'Male' }],
        reads: ['sex'],
      },
    ];
    const [o] = plantedOutcomes(r);
    assert.equal(o.matches, false);
    assert.equal(o.groups[0].found, null);
    assert.match(
      foundText(o),
      /^sex = Male MISSED: not flagged disadvantaged on the selection rate; also flagged disadvantaged \(not planted\): sex: Female disadvantaged/,
    );
    const html = demoIndexHtml([entry(r), entry(sampleAuditResult())]);
    assert.match(html, /<strong>✗ the audit misses what was planted<\/strong>/);
    assert.match(html, /✗ missed: sex = Male is not flagged disadvantaged on the selection rate/);
    assert.match(html, /The audit finds what was planted in 1 of 2 reports\./);
    assert.match(
      headlines(r)[0],
      /<span class="badge flag">✗ missed<\/span> sex = <strong>Male<\/strong> is not flagged/,
    );
    // flagged, but advantaged: not found
    const adv = sampleAuditResult();
    const sex = adv.metrics.attributes.attributes[0];
    sex.comparisons = sex.comparisons.map((c) =>
      c.metric === 'selection_rate' ? { ...c, direction: 'advantaged' as const } : c,
    );
    assert.equal(
      plantedOutcomes(adv)[0].groups[0].found,
      null,
      'Female flagged advantaged is not Female found disadvantaged',
    );
  },
);

test(
  'a planted reference group is found when another group is flagged advantaged against it; a planted combination ' +
    'at its intersection, whatever the order of its attributes',
  () => {
    // X is the largest group, the reference, and the one selected less: Y is flagged advantaged
    const r = withMetrics(
      decisions(
        [
          ['X', 600, 90],
          ['Y', 400, 140],
        ],
        false,
      ).report,
    );
    r.planted = [{ kind: 'direct', rule: 'X penalised', disadvantaged: [{ g: 'X' }], reads: ['g'] }];
    const [o] = plantedOutcomes(r);
    assert.equal(o.matches, true);
    assert.equal(o.groups[0].found!.swapped, true);
    assert.equal(
      foundText(o),
      'g = X flagged disadvantaged: selection rate 15.0% vs 35.0% for Y (x0.43); no other group flagged ' +
        'disadvantaged on the selection rate',
    );
    // the cells of a planted group at the intersection are the plant seen finer, not other findings
    const cells = sampleAuditResult();
    const [c] = plantedOutcomes(cells);
    assert.ok(c.others.length > 0);
    assert.ok(
      !c.others.some((f) => f.attribute === 'sex × age (binned)' && f.group.startsWith('Female, ')),
      c.others.map((f) => `${f.attribute} ${f.group}`).join('; '),
    );
    assert.ok(
      c.others.some((f) => f.attribute === 'age (binned)'),
      'an attribute the plant does not name is another finding',
    );
    // the sample's intersection "sex × age (binned)": planted with its attributes the other way round
    const s = sampleAuditResult();
    s.planted = [
      {
        kind: 'intersectional',
        rule: 'young women penalised',
        disadvantaged: [{ 'age (binned)': '[17, 28]', sex: 'Female' }],
        reads: ['sex', 'age'],
      },
    ];
    const [i] = plantedOutcomes(s);
    assert.deepEqual(
      [i.groups[0].attribute, i.groups[0].group, i.matches],
      ['sex × age (binned)', 'Female, [17, 28]', true],
    );
  },
);

test(
  'the planted rule against the trained model, in one ' + "sentence, from the columns the simulator's rule reads",
  async () => {
    const engine = await getEngine();
    const direct = simulate(new Rng(engine, 1), { n: 50, bias: 'direct' });
    const all = direct.table.columns.map((c) => c.name).filter((c) => c !== direct.label);
    assert.deepEqual(direct.truth.reads, ['income', 'education', 'debt_ratio', 'group']);
    const p = {
      kind: 'direct',
      rule: direct.truth.rule,
      disadvantaged: direct.truth.disadvantaged,
      reads: direct.truth.reads,
    };
    const s = ruleVsModel(p, all, direct.protected);
    assert.equal(
      s,
      'The planted rule reads 4 columns (income, education, debt_ratio, group); the model trained on its decisions ' +
        'reads 8 (age, sex, neighbourhood and hours_per_week too), so its decisions can differ by sex, which the ' +
        'rule does not use, through the columns that go with it or a weight it learnt: what was planted is group = ' +
        'B disadvantaged.',
    );
    assert.equal(s.split(/[.:;] [A-Z]/).length, 1, 'one sentence');
    // the proxy model is trained without the protected columns
    const proxy = simulate(new Rng(engine, 1), { n: 50, bias: 'proxy' });
    const pp = {
      kind: 'proxy',
      rule: proxy.truth.rule,
      disadvantaged: proxy.truth.disadvantaged,
      reads: proxy.truth.reads,
    };
    assert.match(
      ruleVsModel(
        pp,
        all.filter((c) => !proxy.protected.includes(c)),
        proxy.protected,
      ),
      /reads 4 columns \(income, education, debt_ratio, neighbourhood\); the model trained on its decisions reads 6 \(age and hours_per_week too; not sex or group\), so its decisions can differ by sex and group, which the rule does not use, through the columns that go with them:/,
    );
    // the intersectional rule reads both protected columns
    const inter = simulate(new Rng(engine, 1), { n: 50, bias: 'intersectional' });
    const ip = {
      kind: 'intersectional',
      rule: inter.truth.rule,
      disadvantaged: inter.truth.disadvantaged,
      reads: inter.truth.reads,
    };
    assert.match(
      ruleVsModel(ip, all, inter.protected),
      /reads 5 columns \(income, education, debt_ratio, sex, group\); the model trained on its decisions reads 8 \(age, neighbourhood and hours_per_week too\), so its decisions can differ by sex and group each on their own/,
    );
  },
);
