// The fairness gate's core (src/audit/policy.ts, policy-format.ts): the policy's validation (one line
// naming the file and the JSON path), the values and statuses on hand-made confusion matrices, small
// groups as insufficient data, the baseline (a check's JSON and an audit.json), the JUnit XML and the
// Markdown. In process, on a 405-row table: milliseconds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkPolicy,
  judge,
  parsePolicy,
  parsePolicyText,
  RULE_METRICS,
  type CheckSettings,
} from '../../src/audit/policy.js';
import { compareBaseline, readBaseline } from '../../src/audit/baseline.js';
import { checkJunit, checkMarkdown, xmlEscape } from '../../src/audit/policy-format.js';
import { groupMetrics, JUDGED_METRICS, METRICS } from '../../src/methods/metrics/index.js';
import { EngineError, UnknownColumnError } from '../../src/engine/errors.js';
import { gateTable, WORSE, xmlWellFormed } from '../helpers/check-data.js';
import { canonicalValues } from '../../src/audit/policy-audit.js';
import { SHIFT_STATUS_WORDS, type ShiftStatus } from '../../src/audit/checks.js';
import { sampleAuditResult } from '../report/sample-audit.js';

const S: CheckSettings = {
  label: 'y',
  positive: 'yes',
  favourable: 'positive',
  pred: 'pred',
  threshold: 0.5,
  minGroup: 30,
  onInsufficient: 'skip',
  margin: 0.02,
  bootstrap: 0,
};
const policy = (rules: unknown[], extra: Record<string, unknown> = {}) =>
  parsePolicy({ version: 1, rules, ...extra }, 'fairness.json');
const usage = (f: () => unknown, msg: string | RegExp) =>
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof EngineError && e.code === 'E_ARG', String(e));
    if (typeof msg === 'string') assert.equal(e.message, msg);
    else assert.match(e.message, msg);
    return true;
  });

describe('the policy: names from the METRICS table, validation at the edge', () => {
  it('every metric of METRIC_DEFS has a rate, _diff and _ratio form, and the yardsticks are there', () => {
    const names = RULE_METRICS.map((m) => m.name);
    for (const m of METRICS) for (const f of ['', '_diff', '_ratio']) assert.ok(names.includes(`${m}${f}`), `${m}${f}`);
    assert.ok(names.includes('four_fifths') && names.includes('impact_ratio'));
    assert.equal(new Set(names).size, names.length);
    assert.equal(RULE_METRICS.find((m) => m.name === 'tpr_diff')!.kind, 'difference');
    assert.ok(JUDGED_METRICS.length > 0);
  });

  it('an unknown metric names the file, the JSON path and the close name', () => {
    usage(
      () =>
        policy([
          { metric: 'four_fifths', attribute: 'sex', min: 0.8 },
          { metric: 'tpr_diff', attribute: 'race', maxAbs: 0.05 },
          { metric: 'tpr_dif', attribute: 'race', maxAbs: 0.05 },
        ]),
      /^fairness\.json: rules\[2\]\.metric: "tpr_dif" is not a metric \(did you mean "tpr_diff"\?\); the metrics are: m, m_diff, m_ratio for m in base_rate, /,
    );
  });

  it('every malformed entry is one line with its path', () => {
    const cases: [unknown, string | RegExp][] = [
      [[], /^fairness\.json: expected a JSON object/],
      [{ rules: [] }, 'fairness.json: gives no version; this lucid reads "version": 1'],
      [{ version: 2, rules: [] }, 'fairness.json: version: 2 is not a policy version this lucid reads (1)'],
      [{ version: 1, rules: [] }, 'fairness.json: rules: expected a non-empty list of rules, got []'],
      [{ version: 1, rule: [] }, /^fairness\.json: rule: not a key of a policy \(did you mean "rules"\?\)/],
      [
        { version: 1, inputs: { labels: 'y' }, rules: [{}] },
        /^fairness\.json: inputs\.labels: not a key of inputs \(did you mean "label"\?\)/,
      ],
      [
        { version: 1, inputs: { threshold: 2 }, rules: [{}] },
        'fairness.json: inputs.threshold: expected a number in [0, 1], got 2',
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_diff', attribute: 'sex', maxabs: 0.05 }] },
        /^fairness\.json: rules\[0\]\.maxabs: not a key of a rule \(did you mean "maxAbs"\?\)/,
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_diff', attribute: 'sex' }] },
        'fairness.json: rules[0]: gives no threshold: add min and/or max, or maxAbs',
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_diff', attribute: 'sex', maxAbs: 5 }] },
        'fairness.json: rules[0].maxAbs: 5 is outside [0, 1], the range of |a difference| (fractions: 5 pp is 0.05)',
      ],
      [
        { version: 1, rules: [{ metric: 'four_fifths', attribute: 'sex', maxAbs: 0.1 }] },
        /^fairness\.json: rules\[0\]\.maxAbs: maxAbs bounds a difference; four_fifths is a ratio/,
      ],
      [
        { version: 1, rules: [{ metric: 'four_fifths', attribute: 'sex', min: 0.8, reference: 'M' }] },
        /^fairness\.json: rules\[0\]\.reference: four_fifths is by definition against the most selected group/,
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_ratio', attribute: 'sex', min: 1.2, max: 0.8 }] },
        'fairness.json: rules[0].max: 0.8 is below min 1.2',
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_ratio', attribute: 'sex×race', min: 0.8, reference: 'M' }] },
        /^fairness\.json: rules\[0\]\.reference: an intersection's reference is an object/,
      ],
      [
        { version: 1, rules: [{ metric: 'tpr_ratio', attribute: 'sex', min: 0.8, groups: ['F', 3] }] },
        'fairness.json: rules[0].groups[1]: expected a non-empty string, got 3',
      ],
      [
        { version: 1, rules: [{ metric: 'canonical_validity', attribute: 'sex', min: 0.9 }] },
        /^fairness\.json: rules\[0\]\.attribute: canonical_validity is a measure of the canonical sets, not of an attribute/,
      ],
      [
        { version: 1, rules: [{ metric: 'canonical_shift', attribute: 'sex×race', maxAbs: 0.1 }] },
        /^fairness\.json: rules\[0\]\.attribute: canonical_shift is checked on one column/,
      ],
      [
        { version: 1, rules: [{ metric: 'canonical_fidelity', attribute: 'age', max: 0.1, groups: ['pos'] }] },
        /^fairness\.json: rules\[0\]\.groups\[0\]: "pos" is not a set; the groups of canonical_fidelity are "positive" and "negative"/,
      ],
      [
        {
          version: 1,
          rules: [
            { id: 'a', metric: 'tpr', attribute: 'sex', min: 0.5 },
            { id: 'a', metric: 'fpr', attribute: 'sex', max: 0.5 },
          ],
        },
        'fairness.json: rules[1].id: "a" is also the id of rules[0]',
      ],
    ];
    for (const [json, msg] of cases) usage(() => parsePolicy(json, 'fairness.json'), msg);
  });

  it('a JSON syntax error names the file (and the line and column where the parser gives a position)', () => {
    usage(
      () => parsePolicyText('{\n  "version": 1,\n  "rules": [,]\n}\n', 'p.json'),
      /^p\.json: not valid JSON( at line 3, column 13)? \(Unexpected token.*\); a policy is a JSON object, see docs\/ci\.md$/,
    );
  });

  it('ids: given, else metric:attribute, numbered when they repeat', () => {
    const p = policy([
      { metric: 'tpr', attribute: 'sex', min: 0.5 },
      { metric: 'tpr', attribute: 'sex', min: 0.6 },
      { metric: 'tpr_diff', attribute: 'sex', reference: 'F', maxAbs: 0.1 },
    ]);
    assert.deepEqual(
      p.rules.map((r) => r.id),
      ['tpr:sex', 'tpr:sex#2', 'tpr_diff:sex@F'],
    );
  });
});

describe('checkPolicy on known confusion matrices', () => {
  const t = gateTable();

  it(
    'four-fifths, a TPR difference, a rate: values, thresholds, ' + 'pass and fail, small groups as insufficient data',
    () => {
      const p = policy([
        { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.8 },
        { id: 'tpr', metric: 'tpr_diff', attribute: 'sex', reference: 'M', maxAbs: 0.05 },
        { id: 'sel', metric: 'selection_rate', attribute: 'sex', min: 0.2 },
      ]);
      const r = checkPolicy(t, p, S, 'd.csv');
      const get = (rule: string, group: string) => r.checks.find((c) => c.rule === rule && c.group === group)!;
      assert.ok(Math.abs(get('ff', 'F').value! - 0.6) < 1e-12);
      assert.equal(get('ff', 'F').status, 'fail');
      assert.equal(get('ff', 'F').reference, 'M');
      assert.equal(get('ff', 'M').status, 'pass');
      assert.equal(get('ff', 'X').status, 'insufficient data');
      assert.match(get('ff', 'X').reason!, /X has 5 rows \(fewer than 30\)/);
      assert.equal(get('ff', 'X').fails, false);
      assert.ok(Math.abs(get('tpr', 'F').value! + 0.175) < 1e-12);
      assert.equal(get('tpr', 'F').status, 'fail');
      assert.equal(get('tpr', 'F').n, 200);
      assert.equal(get('tpr', 'F').referenceN, 200);
      assert.equal(
        get('tpr', 'F').verdict,
        'inconclusive',
        'the metrics verdict is context: 0.625/0.8 = 0.78, outside the band, not significant',
      );
      assert.equal(
        r.checks.some((c) => c.rule === 'tpr' && c.group === 'M'),
        false,
        'the reference is not compared with itself',
      );
      const sel = get('sel', 'F');
      assert.equal(sel.status, 'pass');
      assert.ok(sel.interval && sel.interval.lo < 0.3 && sel.interval.hi > 0.3 && sel.interval.method === 'Wilson 95%');
      assert.equal(r.passed, false);
      assert.deepEqual({ ...r.counts }, { checks: 8, pass: 3, fail: 2, insufficient: 3, regressed: 0, failing: 2 });
    },
  );

  it('onInsufficient "fail" (on the rule or the policy) fails a small group; groups limits the checks', () => {
    const p = policy([{ metric: 'four_fifths', attribute: 'sex', min: 0.5, onInsufficient: 'fail' }]);
    const r = checkPolicy(t, p, S, 'd.csv');
    assert.equal(r.checks.find((c) => c.group === 'X')!.fails, true);
    assert.equal(r.passed, false);
    const q = policy([{ metric: 'four_fifths', attribute: 'sex', min: 0.5, groups: ['F', 'M'] }], {
      onInsufficient: 'fail',
    });
    const r2 = checkPolicy(t, q, { ...S, onInsufficient: 'fail' }, 'd.csv');
    assert.deepEqual(
      r2.checks.map((c) => c.group),
      ['F', 'M'],
    );
    assert.equal(r2.passed, true);
  });

  it("a ratio of a judged metric carries the verdict's interval; an intersection is checked cell by cell", () => {
    const p = policy([
      { metric: 'tpr_ratio', attribute: 'sex', reference: 'M', min: 0.5 },
      {
        metric: 'positivity_rate_ratio',
        attribute: 'sex×race',
        reference: { sex: 'M', race: 'A' },
        min: 0.5,
        groups: ['F, A', 'F, B'],
      },
    ]);
    const r = checkPolicy(t, p, S, 'd.csv');
    const f = r.checks.find((c) => c.metric === 'tpr_ratio' && c.group === 'F')!;
    assert.ok(Math.abs(f.value! - 0.78125) < 1e-12);
    assert.ok(f.interval && f.interval.lo < f.value! && f.interval.hi > f.value!);
    assert.match(f.interval!.method, /Katz at the Holm-corrected level/);
    assert.deepEqual(
      r.checks.filter((c) => c.attribute === 'sex×race').map((c) => [c.group, c.reference]),
      [
        ['F, A', 'M, A'],
        ['F, B', 'M, A'],
      ],
    );
  });

  it('the data: an unknown attribute column, group or reference is a usage error naming the policy path', () => {
    assert.throws(
      () => checkPolicy(t, policy([{ metric: 'tpr', attribute: 'Sex', min: 0.5 }]), S, 'd.csv'),
      (e: unknown) =>
        e instanceof UnknownColumnError &&
        e.message ===
          'fairness.json: rules[0].attribute: "Sex" is not a column of d.csv (did you mean "sex"?); the columns are: ' +
            'sex, race, y, pred',
    );
    usage(
      () => checkPolicy(t, policy([{ metric: 'tpr', attribute: 'sex', min: 0.5, groups: ['f'] }]), S, 'd.csv'),
      'fairness.json: rules[0].groups[0]: "f" is not a group of sex in d.csv (did you mean "F"?); the groups are: F; ' +
        'M; X',
    );
    usage(
      () => checkPolicy(t, policy([{ metric: 'tpr_diff', attribute: 'sex', min: -0.1, reference: 'm' }]), S, 'd.csv'),
      /^fairness\.json: rules\[0\]\.reference: "m" is not a value of sex in d\.csv \(did you mean "M"\?\)/,
    );
    usage(
      () => checkPolicy(t, policy([{ metric: 'tpr', attribute: 'y', min: 0.5 }]), S, 'd.csv'),
      /rules\[0\]\.attribute: "y" is the label column/,
    );
  });
});

describe('the baseline', () => {
  const p = policy([
    { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5 },
    { id: 'tpr', metric: 'tpr_diff', attribute: 'sex', reference: 'M', maxAbs: 0.35 },
    { id: 'new', metric: 'fpr', attribute: 'race', max: 0.5 },
  ]);
  const before = checkPolicy(gateTable(), p, S, 'old.csv');
  // the baseline as it goes through a file: JSON text, here without the rule "new"
  const json = JSON.parse(JSON.stringify({ ...before, checks: before.checks.filter((c) => c.rule !== 'new') }));

  it('the same data: nothing regressed; a rule with no baseline value is listed, not failed', () => {
    const now = checkPolicy(gateTable(), p, S, 'd.csv');
    compareBaseline(now, p, readBaseline(json, 'old.json', p, S), S);
    assert.equal(now.passed, true);
    assert.equal(now.counts.regressed, 0);
    const nb = now.checks.find((c) => c.rule === 'new')!.baseline!;
    assert.equal(nb.status, 'no baseline value');
    assert.equal(nb.reason, 'the baseline has no value for this rule and group');
    assert.equal(now.baseline!.compared, 3, 'ff F, ff M, tpr F (ff X is insufficient data)');
  });

  it(
    'worse beyond the margin fails though no threshold is ' +
      'crossed; a rule\'s own margin wins; better is "improved"',
    () => {
      // F: four-fifths 0.6 → 0.5 (min 0.5: still passes), TPR diff −17.5 pp → −30 pp (maxAbs 35 pp: passes)
      const now = checkPolicy(gateTable(WORSE), p, S, 'd.csv');
      assert.equal(now.counts.fail, 0);
      compareBaseline(now, p, readBaseline(json, 'old.json', p, S), S);
      const ff = now.checks.find((c) => c.rule === 'ff' && c.group === 'F')!;
      assert.equal(ff.baseline!.status, 'regressed');
      assert.ok(Math.abs(ff.baseline!.worse! - 0.1) < 1e-12);
      assert.equal(ff.fails, true);
      assert.equal(now.checks.find((c) => c.rule === 'tpr')!.baseline!.status, 'regressed');
      assert.equal(now.passed, false);
      assert.equal(now.counts.regressed, 2);
      const lax = policy([{ id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5, margin: 0.15 }]);
      const again = checkPolicy(gateTable(WORSE), lax, S, 'd.csv');
      compareBaseline(again, lax, readBaseline(json, 'old.json', lax, S), S);
      assert.equal(again.passed, true);
      assert.equal(again.checks.find((c) => c.group === 'F')!.baseline!.status, 'within margin');
      // the other way round: the old data against the worse one is an improvement
      const worseJson = JSON.parse(JSON.stringify(checkPolicy(gateTable(WORSE), p, S, 'w.csv')));
      const back = checkPolicy(gateTable(), p, S, 'd.csv');
      compareBaseline(back, p, readBaseline(worseJson, 'w.json', p, S), S);
      assert.equal(back.checks.find((c) => c.rule === 'ff' && c.group === 'F')!.baseline!.status, 'improved');
    },
  );

  it('an audit.json is read with the same rules (its metrics tables); a different reference is not comparable', () => {
    const attributes = groupMetrics(gateTable(), {
      label: 'y',
      positive: 'yes',
      pred: 'pred',
      groups: ['sex', 'race'],
    });
    const audit = JSON.parse(
      JSON.stringify({
        meta: { tool: 'lucid-wasm', label: 'y', favourable: 'positive' },
        metrics: { attributes, intersection: null },
      }),
    );
    const q = policy([
      { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5 },
      { id: 'tpr', metric: 'tpr_diff', attribute: 'sex', reference: 'F', maxAbs: 0.35 },
      { id: 'x', metric: 'tpr', attribute: 'sex×race', min: 0.1 },
    ]);
    const b = readBaseline(audit, 'audit.json', q, S);
    assert.equal(b.format, 'audit.json');
    assert.ok(Math.abs(b.values.get('ff\u0000F')!.value! - 0.6) < 1e-12);
    assert.ok(
      b.notes.some((n) => /^tpr: the audit's reference of sex is (M|F), the rule's F: not comparable$/.test(n)) ||
        b.values.has('tpr\u0000M'),
    );
    assert.ok(b.notes.some((n) => /^x: the audit has no table of sex × race/.test(n)));
    const now = checkPolicy(gateTable(WORSE), q, S, 'd.csv');
    compareBaseline(now, q, b, S);
    assert.equal(now.checks.find((c) => c.rule === 'ff' && c.group === 'F')!.baseline!.status, 'regressed');
  });

  it(
    "baselines of result version 1: a version-1 result's canonical shifts of a favourable-negative audit are turned " +
      'round; an older audit.json without selection_rate gives no baseline value, never NaN',
    () => {
      const v1 = {
        tool: 'lucid check',
        resultVersion: 1,
        inputs: { label: 'y', favourable: 'negative' },
        checks: [
          { rule: 'cs', metric: 'canonical_shift', group: 'F', value: 0.12 },
          { rule: 'ff', metric: 'four_fifths', group: 'F', value: 0.7 },
        ],
      };
      const q = policy([
        { id: 'cs', metric: 'canonical_shift', attribute: 'sex', maxAbs: 0.2 },
        { id: 'ff', metric: 'four_fifths', attribute: 'sex', min: 0.5 },
      ]);
      const b = readBaseline(v1, 'v1.json', q, { ...S, favourable: 'negative' });
      assert.deepEqual([b.values.get('cs\u0000F')!.value, b.values.get('ff\u0000F')!.value], [-0.12, 0.7]);
      assert.ok(b.notes.some((n) => /version-1 result.*turned round/.test(n)));
      // the same file under favourable positive: nothing to turn
      assert.equal(
        readBaseline({ ...v1, inputs: { label: 'y', favourable: 'positive' } }, 'v1.json', q, S).values.get(
          'cs\u0000F',
        )!.value,
        0.12,
      );
      // an audit.json whose groups have no selection_rate (lucid-wasm 0.1.0)
      const attributes = groupMetrics(gateTable(), { label: 'y', positive: 'yes', pred: 'pred', groups: ['sex'] });
      const old = JSON.parse(
        JSON.stringify({
          meta: { tool: 'lucid-wasm', version: '0.1.0', label: 'y', favourable: 'positive' },
          metrics: { attributes, intersection: null },
        }),
      );
      for (const a of old.metrics.attributes.attributes) for (const g of a.groups) delete g.selection_rate;
      const sel = policy([
        { id: 'sel', metric: 'selection_rate', attribute: 'sex', min: 0.1 },
        { id: 'selr', metric: 'selection_rate_ratio', attribute: 'sex', min: 0.5 },
      ]);
      const ob = readBaseline(old, 'audit.json', sel, S);
      assert.equal(ob.values.size, 0);
      assert.ok(
        ob.notes.some((n) =>
          /^sel: the baseline audit has no selection_rate \(made by lucid-wasm 0\.1\.0\): no baseline value$/.test(n),
        ),
        ob.notes.join('; '),
      );
      const now = checkPolicy(gateTable(), sel, S, 'd.csv');
      compareBaseline(now, sel, ob, S);
      assert.ok(now.checks.every((c) => c.baseline!.status === 'no baseline value'));
    },
  );

  it('anything else is a data error naming the file', () => {
    assert.throws(
      () => readBaseline({ hello: 1 }, 'b.json', p, S),
      (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && /^b\.json: not a baseline/.test(e.message),
    );
    assert.throws(
      () => readBaseline({ tool: 'lucid check', resultVersion: 9, checks: [] }, 'b.json', p, S),
      /b\.json: a lucid check result of version 9; this lucid reads versions 1 and 2/,
    );
  });
});

describe('the outputs', () => {
  const p = policy([
    { id: 'ff <&> "q"', metric: 'four_fifths', attribute: 'sex', min: 0.8 },
    { id: 'tpr', metric: 'tpr_diff', attribute: 'sex', reference: 'M', maxAbs: 0.05 },
  ]);
  const r = checkPolicy(gateTable(), p, S, 'd|1.csv');

  it(
    'JUnit: well-formed XML, one testsuite, a testcase per rule and group, failure for a crossing, skipped for ' +
      'insufficient data',
    () => {
      const xml = checkJunit(r, 1.5);
      assert.equal(xmlWellFormed(xml), null);
      assert.equal((xml.match(/<testsuite /g) ?? []).length, 1);
      assert.equal((xml.match(/<testcase /g) ?? []).length, r.checks.length);
      assert.equal((xml.match(/<failure /g) ?? []).length, 2);
      assert.equal((xml.match(/<skipped /g) ?? []).length, 2);
      assert.match(
        xml,
        /<testsuite name="lucid check: fairness\.json" tests="5" failures="2" errors="0" skipped="2" time="1\.500">/,
      );
      assert.match(xml, /classname="lucid\.check\.ff &lt;&amp;&gt; &quot;q&quot;"/);
      // the checker itself catches what it should
      assert.notEqual(xmlWellFormed('<a><b></a></b>'), null);
      assert.notEqual(xmlWellFormed('<a x="1 & 2"/>'), null);
      assert.notEqual(xmlWellFormed('<a/><b/>'), null);
      assert.equal(xmlEscape('a\u0001<b>'), 'a&lt;b&gt;');
    },
  );

  it('with a baseline, a testcase per comparison too', () => {
    const now = checkPolicy(gateTable(WORSE), p, S, 'd.csv');
    compareBaseline(now, p, readBaseline(JSON.parse(JSON.stringify(r)), 'old.json', p, S), S);
    const xml = checkJunit(now);
    assert.equal(xmlWellFormed(xml), null);
    assert.equal((xml.match(/<testcase /g) ?? []).length, 2 * now.checks.length);
    assert.match(xml, /<failure type="regression" message="regressed: baseline 0\.600, now 0\.500/);
  });

  it('Markdown: the outcome, what was checked against what, value, threshold, n, and no broken table cells', () => {
    const md = checkMarkdown(r);
    assert.match(md, /^## Fairness check: FAILED\n\n5 checks of 2 rules: 1 pass, 2 fail, 2 with insufficient data\./);
    assert.match(md, /\| ❌ fail \| ff &lt;&amp;&gt; "q" \| F \| 200 \| M \(200\) \| 0\.600 \| — \| ≥ 0\.800 \| — \|/);
    assert.match(
      md,
      /\| ❌ fail \| tpr \| F \| 200 \| M \(200\) \| −17\.50 pp \| — \| \\\|·\\\| ≤ 5\.00 pp \| inconclusive \|/,
    );
    assert.match(md, /⚠️ insufficient data: X has 5 rows \(fewer than 30\)/);
    assert.match(md, /on `d\|1\.csv`/);
    for (const line of md.split('\n').filter((l) => l.startsWith('| ')))
      assert.equal(line.replace(/\\\|/g, '').split('|').length, 11, line);
  });

  it('Markdown: a weak model and an interrupted audit are said first', () => {
    assert.doesNotMatch(checkMarkdown(r), /weak model|INTERRUPTED/);
    const w = {
      ...r,
      fit: { ...r.fit, weak: ['a constant model: it decides every row "yes"'] },
      audit: {
        gan: '1 GAN seed',
        canonicalRows: { positive: 10, negative: 10 },
        interrupted: 'SIGINT: INTERRUPTED during the LUCID-GAN training: …',
      },
    };
    const md = checkMarkdown(w);
    assert.match(
      md,
      /^## Fairness check: FAILED \(on an INTERRUPTED audit\)\n\n\*\*SIGINT: INTERRUPTED during the LUCID-GAN training: …\*\*\n\n\*\*A weak model:\*\* a constant model: it decides every row "yes"\n\n5 checks/,
    );
  });
});

describe('a value on the bound', () => {
  it(
    'passes when only rounding puts it past (0.8 − 0.7 = 0.10000000000000009 is no crossing of 0.1), and fails a ' +
      'hair beyond',
    () => {
      const p = policy([
        { metric: 'tpr_diff', attribute: 'sex', maxAbs: 0.1 },
        { metric: 'four_fifths', attribute: 'sex', min: 0.8 },
      ]);
      const v = { group: 'b', n: 100, value: 0.8 - 0.7 } as unknown as Parameters<typeof judge>[1];
      assert.ok(0.8 - 0.7 > 0.1);
      assert.equal(judge(p.rules[0], v, S).status, 'pass');
      assert.equal(judge(p.rules[0], { ...v, value: 0.1 + 1e-9 }, S).status, 'fail');
      assert.equal(judge(p.rules[1], { ...v, value: 0.8 - 1e-15 }, S).status, 'pass');
      assert.equal(judge(p.rules[1], { ...v, value: 0.79 }, S).status, 'fail');
    },
  );
});

describe("canonical_shift rules read the audit's check of each value", () => {
  it(
    'a value whose size the sets misstate, whose seeds differ in sign or that the data contradicts is insufficient ' +
      'data, with the reason; an agreeing one is judged',
    () => {
      const a = sampleAuditResult();
      const set = (value: string, status: ShiftStatus) => {
        const k = a.checks.shifts.find((x) => x.feature === 'sex' && x.value === value && x.kind === 'share')!;
        k.status = status;
      };
      const rule = policy([{ metric: 'canonical_shift', attribute: 'sex', maxAbs: 0.5 }]).rules[0];
      const expect: [ShiftStatus, RegExp | null][] = [
        ['agrees', null],
        ['within noise', null],
        ['overstates', /^the canonical sets overstate the size: the real rows' shift is /],
        ['understates', /^the canonical sets understate the size: /],
        ['unsettled', /^the GAN seeds do not share a sign /],
        ['disagrees', /^contradicted by the data: /],
      ];
      for (const [status, reason] of expect) {
        set('Female', status);
        const v = canonicalValues(rule, a, S).find((x) => x.group === 'Female')!;
        assert.ok(v.context?.startsWith(SHIFT_STATUS_WORDS[status]), `${status}: ${v.context}`);
        if (reason) assert.match(v.reason ?? '', reason, status);
        else assert.equal(v.reason, undefined, `${status}: ${v.reason}`);
        assert.equal(judge(rule, v, S).status, reason ? 'insufficient data' : 'pass', status);
      }
    },
  );
});
