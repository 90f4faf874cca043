// The fairness gate on score, multiclass and regression outputs (src/audit/policy-output.ts): the rule names derived
// from OUTPUT_METRIC_DEFS and MULTICLASS_RATES, a policy per kind passing on the simulator's fair table and failing on
// its direct one with the penalised group (and class), the errors of a rule on another kind's metric, of a class not
// in the data and of a baseline of another kind, and the Markdown, JUnit and JSON of each kind. 3,000 simulated rows.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHECK_RESULT_VERSION,
  parsePolicy,
  RULE_METRICS,
  type CheckResult,
  type CheckSettings,
} from '../../src/audit/policy.js';
import { checkOutputPolicy, type OutputSettings } from '../../src/audit/policy-output.js';
import { compareBaseline, readBaseline } from '../../src/audit/baseline.js';
import { checkJunit, checkMarkdown } from '../../src/audit/policy-format.js';
import { OUTPUT_METRICS, outputMetricDef } from '../../src/methods/metrics/output-definitions.js';
import { MULTICLASS_RATE_NAMES } from '../../src/methods/metrics/multiclass.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import type { Table } from '../../src/data/table.js';
import { type BiasKind, SIM_DECISION_ORDER, SIM_TARGETS, simulate, type SimTarget } from '../../src/data/simulator.js';
import { getEngine } from '../helpers/engine.js';
import { xmlWellFormed } from '../helpers/check-data.js';

type Kind = Exclude<SimTarget, 'binary'>;
let engine: Engine;
const tables = new Map<string, Table>();
const table = (target: Kind, bias: BiasKind): Table => {
  const key = `${target}/${bias}`;
  let t = tables.get(key);
  if (!t) tables.set(key, (t = simulate(new Rng(engine, 7), { n: 3000, bias, target }).table));
  return t;
};
const settings = (target: Kind): CheckSettings => ({
  label: SIM_TARGETS[target].label,
  positive: target === 'score' ? 'yes' : undefined,
  favourable: 'positive',
  pred: SIM_TARGETS[target].prediction,
  threshold: 0.5,
  minGroup: 30,
  onInsufficient: 'skip',
  margin: 0.02,
  bootstrap: 0,
  rng: new Rng(engine, 1),
});
const OUT: Record<Kind, OutputSettings> = {
  score: { output: 'score', favourable: 'higher' },
  multiclass: { output: 'multiclass', classOrder: [...SIM_DECISION_ORDER] },
  regression: { output: 'regression', favourable: 'higher' },
};
/** a policy per kind whose rules the direct bias (group B penalised) breaks */
const RULES: Record<Kind, unknown[]> = {
  score: [
    { metric: 'selection_rate_ratio', attribute: 'group', min: 0.75 },
    { metric: 'ks', attribute: 'group', max: 0.2 },
    { metric: 'auc', attribute: 'group', min: 0.5 },
  ],
  multiclass: [
    { metric: 'class_positivity_rate_ratio', class: 'decline', attribute: 'group', max: 1.5 },
    { metric: 'class_positivity_rate_ratio', class: 'refer', attribute: 'group', min: 0.5, max: 2 },
  ],
  regression: [
    { metric: 'mean_prediction_ratio', attribute: 'group', min: 0.85 },
    { metric: 'mean_residual_diff', attribute: 'group', maxAbs: 1500 },
    { metric: 'mae', attribute: 'group', max: 1e6 },
  ],
};
const policyOf = (kind: Kind, rules = RULES[kind], inputs: Record<string, unknown> = {}) =>
  parsePolicy({ version: 1, inputs, rules }, `${kind}.json`);
const run = (kind: Kind, bias: BiasKind, rules = RULES[kind]) =>
  checkOutputPolicy(table(kind, bias), policyOf(kind, rules), settings(kind), OUT[kind], `${kind}-${bias}.csv`);
const errorOf = (f: () => unknown, code: string, msg: RegExp) =>
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof EngineError && e.code === code, String(e));
    assert.match(e.message, msg);
    return true;
  });

before(async () => {
  engine = await getEngine();
});

describe('the rule metrics of the other output kinds, derived from their tables', () => {
  it('a score and a regression metric with a direction in three forms, a distance in one, the labels in none', () => {
    const names = RULE_METRICS.map((m) => m.name);
    assert.equal(new Set(names).size, names.length);
    for (const m of OUTPUT_METRICS) {
      const d = outputMetricDef(m);
      const has = (n: string) => names.includes(n);
      if (d.better === null) {
        assert.equal(has(m), d.scale === 'difference', m);
        assert.ok(!has(`${m}_diff`) && !has(`${m}_ratio`), m);
      } else {
        assert.ok(has(m) && has(`${m}_diff`), m);
        // a bias judged on the difference scale changes sign: no ratio
        assert.equal(has(`${m}_ratio`), d.scale === 'ratio', m);
      }
    }
    assert.ok(!names.includes('mean_label'));
    assert.equal(RULE_METRICS.find((m) => m.name === 'mean_prediction_diff')!.kind, 'value_difference');
    assert.equal(RULE_METRICS.find((m) => m.name === 'auc_diff')!.kind, 'difference');
    for (const r of MULTICLASS_RATE_NAMES)
      for (const f of ['', '_diff', '_ratio']) assert.ok(names.includes(`class_${r}${f}`), `class_${r}${f}`);
  });

  it('a multiclass rule names its class; no other rule takes one', () => {
    errorOf(
      () => policyOf('multiclass', [{ metric: 'class_fnr', attribute: 'group', max: 0.5 }]),
      'E_ARG',
      /^multiclass\.json: rules\[0\]: gives no class: class_fnr is a rate of one class/,
    );
    errorOf(
      () => policyOf('regression', [{ metric: 'mae', class: 'x', attribute: 'group', max: 1 }]),
      'E_ARG',
      /^regression\.json: rules\[0\]\.class: mae is no rate of one class/,
    );
  });

  it("a rule on another kind's metric names the rule, its metric and the kind's metrics", () => {
    errorOf(
      () => policyOf('regression', [{ metric: 'four_fifths', attribute: 'group', min: 0.8 }], { output: 'regression' }),
      'E_ARG',
      /^regression\.json: rules\[0\]\.metric: rule "four_fifths:group": four_fifths is a metric of binary and score outputs; the output is regression \(as its inputs\.output says\): its metrics are mean_prediction, /,
    );
    // inferred from the data: a score's AUC on a regression table
    errorOf(
      () =>
        checkOutputPolicy(
          table('regression', 'fair'),
          policyOf('score', [{ metric: 'auc_ratio', attribute: 'group', min: 0.9 }]),
          settings('regression'),
          {},
          'r.csv',
        ),
      'E_ARG',
      /rules\[0\]\.metric: rule "auc_ratio:group": auc_ratio is a metric of score outputs; the output is regression \(inferred regression: .*\): its metrics are mean_prediction, mean_prediction_diff, mean_prediction_ratio, /,
    );
  });

  it('a class that is not in the data is a usage error naming the rule and the classes', () => {
    errorOf(
      () => run('multiclass', 'fair', [{ metric: 'class_fpr', class: 'reject', attribute: 'group', max: 0.5 }]),
      'E_ARG',
      /rules\[0\]\.class: rule "class_fpr\[reject\]:group" names the class "reject", .*the classes are: approve, refer, decline$/,
    );
  });
});

describe('a policy per kind on the simulator: passes on fair, fails on direct for group B', () => {
  for (const kind of ['score', 'multiclass', 'regression'] as const) {
    it(`${kind}`, () => {
      const fair = run(kind, 'fair');
      assert.equal(fair.passed, true, JSON.stringify(fair.checks.filter((c) => c.fails)));
      assert.equal(fair.counts.fail, 0);
      assert.equal((fair.inputs as { output: { kind: string } }).output.kind, kind);
      const direct = run(kind, 'direct');
      assert.equal(direct.passed, false);
      const failing = direct.checks.filter((c) => c.fails);
      assert.ok(failing.length > 0);
      for (const c of failing) assert.equal(c.group, 'B', JSON.stringify(c));
      if (kind === 'multiclass') {
        // receiving decline, the least favourable class, is what the penalty moves
        assert.deepEqual(
          failing.map((c) => c.class),
          ['decline'],
        );
        assert.equal(failing[0].verdict, 'flagged');
      }
      if (kind === 'score') assert.ok(failing.some((c) => c.metric === 'ks'));
      if (kind === 'regression')
        assert.deepEqual(failing.map((c) => c.metric).sort(), ['mean_prediction_ratio', 'mean_residual_diff']);
      // the MAE's own value, in the output's units, with the interval lucid metrics shows
      const own = direct.checks.find((c) => c.metric === 'auc' || c.metric === 'mae' || c.class === 'refer')!;
      assert.ok(own.interval && own.interval.lo <= own.value! && own.value! <= own.interval.hi, JSON.stringify(own));
      assert.equal(direct.resultVersion, CHECK_RESULT_VERSION);
    });
  }

  it("the verdicts are one Holm family over every table the check reads, as a binary check's", () => {
    const comparisons = (r: CheckResult, tables: number) => {
      const m = new RegExp(`^Holm over the (\\d+) comparisons of the ${tables} tables? checked together$`).exec(
        r.verdicts.correction,
      );
      assert.ok(m, r.verdicts.correction);
      return Number(m[1]);
    };
    for (const kind of ['score', 'multiclass', 'regression'] as const) {
      const onSex = (RULES[kind] as { attribute: string }[]).map((r) => ({ ...r, attribute: 'sex' }));
      const both = run(kind, 'direct', [...RULES[kind], ...onSex]);
      const group = comparisons(run(kind, 'direct'), 1);
      const sex = comparisons(run(kind, 'direct', onSex), 1);
      // one family: its size is both tables' (per table, each would be corrected for its own only)
      assert.equal(comparisons(both, 2), group + sex, kind);
      for (const r of [both, run(kind, 'direct')]) assert.ok(r.checks.length > 0);
    }
  });

  it('the Markdown, JUnit and JSON of each kind say the kind and the failing group', () => {
    for (const kind of ['score', 'multiclass', 'regression'] as const) {
      const r = run(kind, 'direct');
      const md = checkMarkdown(r);
      assert.match(md, /^## Fairness check: FAILED\n/);
      assert.match(md, new RegExp(`predictions \`${SIM_TARGETS[kind].prediction}\`: ${kind}, as --output says`));
      assert.match(md, /\| ❌ fail \| [^|]+ \| B \|/);
      const xml = checkJunit(r, 1);
      assert.equal(xmlWellFormed(xml), null);
      assert.match(xml, /<failure type="threshold" message="group = B: /);
      if (kind === 'multiclass') assert.match(xml, /class_positivity_rate_ratio of decline/);
      // a bound in the output's units, not in points
      if (kind === 'regression') assert.ok(md.includes('| \\|·\\| ≤ 1,500 |'), md);
      const json = JSON.parse(JSON.stringify(r)) as CheckResult;
      assert.deepEqual(json.inputs, r.inputs);
    }
  });
});

it("a score policy's threshold is on the score's scale, and its binary rules read that cut", () => {
  const s = settings('score');
  const p = parsePolicy(
    { version: 1, inputs: { output: 'score', threshold: 650 }, rules: RULES.score.slice(0, 1) },
    'score.json',
  );
  errorOf(
    () => parsePolicy({ version: 1, inputs: { threshold: 650 }, rules: RULES.score.slice(0, 1) }, 'b.json'),
    'E_ARG',
    /^b\.json: inputs\.threshold: expected a number in \[0, 1\], got 650$/,
  );
  const at = (t: number) =>
    checkOutputPolicy(table('score', 'direct'), p, s, { ...OUT.score, threshold: t }, 'score-direct.csv');
  const r = at(p.inputs.threshold!);
  assert.equal((r.inputs as { threshold: number }).threshold, 650);
  // a cut below every score selects everyone: a ratio of 1
  assert.equal(at(0).checks[0].value, 1);
  assert.notEqual(r.checks[0].value, 1);
});

describe('the baseline of a kind', () => {
  it('a regression: a move toward the threshold beyond the margin regresses, in the rule units', () => {
    const kind = 'regression';
    const s = settings(kind);
    const policy = policyOf(kind);
    const base = readBaseline(JSON.parse(JSON.stringify(run(kind, 'fair'))), 'fair.json', policy, s);
    const now = run(kind, 'direct');
    compareBaseline(now, policy, base, s);
    const ratio = now.checks.find((c) => c.metric === 'mean_prediction_ratio')!;
    assert.equal(ratio.baseline?.status, 'regressed');
    assert.ok(ratio.baseline!.worse! > 0.02);
    // against itself nothing moved
    const again = run(kind, 'fair');
    compareBaseline(again, policy, base, s);
    assert.equal(again.counts.regressed, 0);
    assert.equal(again.baseline?.compared, again.checks.length);
  });

  it('a baseline of another kind is refused, saying the kinds differ', () => {
    const s = settings('score');
    const policy = policyOf('score');
    const binaryJson = JSON.parse(JSON.stringify(run('score', 'fair'))) as { inputs: Record<string, unknown> };
    // the same result stated as binary (no output kind: a result written before the kinds)
    delete binaryJson.inputs.output;
    const base = readBaseline(binaryJson, 'old.json', policy, s);
    const now = checkOutputPolicy(table('score', 'fair'), policy, s, OUT.score, 'score-fair.csv');
    errorOf(
      () => compareBaseline(now, policy, base, s),
      'E_INPUT',
      /^old\.json: the baseline was checked on a binary output, this check is on a score output: the kinds differ/,
    );
  });
});
