// Metamorphic tests of the group metrics and the fairness gate: the same decisions, the
// same verdicts. Each transformation below changes how the data is written, never what the model
// decided, so the point estimates, the analytic (Katz) verdicts with every figure behind them, the
// references, the four-fifths and LL144 tables and the outcome of `lucid check` must be identical
// (test/helpers/metamorphic.ts assertSameMetrics). No GAN here: test/metamorphic/audit.test.ts has
// the canonical sets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Dictionary,
  Float64,
  Int32,
  Table as ArrowTable,
  Utf8,
  tableToIPC,
  vectorFromArray,
  type Vector,
} from 'apache-arrow';
import type { Table } from '../../src/data/table.js';
import {
  groupMetrics,
  METRICS,
  recodedMetric,
  type GroupMetricsOptions,
  type MetricName,
  type MetricsReport,
} from '../../src/methods/metrics/index.js';
import { checkPolicy, parsePolicyText, type CheckResult, type CheckSettings } from '../../src/audit/policy.js';
import { readTable } from '../../src/node/read-table.js';
import { getEngine } from '../helpers/engine.js';
import { LUCID_BIN } from '../helpers/sim-model.js';
import {
  assertSameMetrics,
  csvText,
  jsonLinesText,
  metamorphicTable,
  permuteRows,
  recode,
  renameColumns,
  reorderCategories,
  type Correspondence,
} from '../helpers/metamorphic.js';

const PARQUET = fileURLToPath(new URL('../../../test/fixtures/metamorphic/loans.parquet', import.meta.url));

/** Per attribute and for their intersection, one family each, as `lucid metrics` runs them. */
function metricsOf(t: Table, o: Coding): MetricsReport[] {
  const base: GroupMetricsOptions = {
    label: o.label,
    positive: o.positive,
    favourable: o.favourable,
    pred: o.pred,
    groups: o.groups,
  };
  return [groupMetrics(t, base), groupMetrics(t, { ...base, intersect: true })];
}

type Coding = { label: string; positive: string; favourable: 'positive' | 'negative'; pred: string; groups: string[] };
const A: Coding = { label: 'approved', positive: 'yes', favourable: 'positive', pred: 'p', groups: ['sex', 'group'] };
// the same decisions coded the other way: "denied", yes = denied, the unfavourable outcome, P(denied) = 1 − p
const B: Coding = {
  label: 'denied',
  positive: 'yes',
  favourable: 'negative',
  pred: 'p_deny',
  groups: ['sex', 'group'],
};

function assertSameReports(a: MetricsReport[], b: MetricsReport[], k: Correspondence, where: string): void {
  a.forEach((r, i) => assertSameMetrics(r, b[i], k, `${where} (${i === 0 ? 'attributes' : 'intersection'})`));
}

/**
 * A policy written for coding A, in the other coding by the metrics' own map (docs/ci.md "The same policy, the label
 * coded the other way").
 */
const POLICY_A = {
  version: 1,
  rules: [
    { id: 'sex-4/5', metric: 'four_fifths', attribute: 'sex', min: 0.8 },
    { id: 'sex-group-impact', metric: 'impact_ratio', attribute: 'sex×group', min: 0.8 },
    { id: 'group-selection', metric: 'selection_rate_ratio', attribute: 'group', min: 0.8, max: 1.25 },
    { id: 'sex-tpr', metric: 'tpr_diff', attribute: 'sex', maxAbs: 0.05 },
    { id: 'group-fpr', metric: 'fpr_ratio', attribute: 'group', min: 0.8, max: 1.25 },
    { id: 'group-for', metric: 'for_diff', attribute: 'group', max: 0.05 },
    { id: 'group-ppv', metric: 'ppv', attribute: 'group', min: 0.5 },
    { id: 'group-positivity', metric: 'positivity_rate', attribute: 'group', min: 0.15 },
    { id: 'sex-positivity-diff', metric: 'positivity_rate_diff', attribute: 'sex', min: -0.1 },
  ],
};

type Rule = { id: string; metric: string; attribute: string; min?: number; max?: number; maxAbs?: number };

/**
 * A rule in the other coding: the metric's counterpart (recodedMetric), and for a complement (the
 * positivity and base rates) its bounds mirrored: a rate v becomes 1 − v, a difference d becomes −d.
 * A ratio of a complement has no counterpart: such a rule cannot be mapped (and is not written).
 */
function recodeRule(r: Rule): Rule {
  const m = /^(.*?)(_diff|_ratio)?$/.exec(r.metric)!;
  const base = m[1] as MetricName;
  const form = m[2] ?? '';
  // four_fifths and impact_ratio are on the favourable decision already
  if (!(METRICS as readonly string[]).includes(base)) return r;
  const img = recodedMetric(base);
  const out: Rule = { ...r, metric: `${img.metric}${form}` };
  if (!img.complement) return out;
  assert.notEqual(form, '_ratio', `${r.metric}: a ratio of a complement has no counterpart`);
  const flip = (v: number | undefined) => (v === undefined ? undefined : form === '' ? 1 - v : -v);
  const { min, max } = r;
  delete out.min;
  delete out.max;
  if (max !== undefined) out.min = flip(max);
  if (min !== undefined) out.max = flip(min);
  return out;
}

function checkOf(t: Table, rules: Rule[], o: Coding): CheckResult {
  const policy = parsePolicyText(JSON.stringify({ ...POLICY_A, rules }), 'policy.json');
  const s: CheckSettings = {
    label: o.label,
    positive: o.positive,
    favourable: o.favourable,
    pred: o.pred,
    threshold: 0.5,
    minGroup: 30,
    onInsufficient: 'skip',
    margin: 0.02,
    bootstrap: 0,
  };
  return checkPolicy(t, policy, s, 'data');
}

/**
 * The check's outcome, rule by rule and group by group, with the value each compared (to 12 decimals: a complement's 1
 * − v is the one figure not bit for bit).
 */
function outcome(r: CheckResult, complementOf: (rule: string) => boolean) {
  return {
    passed: r.passed,
    counts: r.counts,
    checks: r.checks.map((c) => ({
      rule: c.rule,
      group: c.group,
      status: c.status,
      reference: c.reference,
      n: c.n,
      value:
        c.value === null
          ? null
          : complementOf(c.rule)
            ? Number((c.kind === 'rate' ? 1 - c.value : -c.value).toFixed(12))
            : Number(c.value.toFixed(12)),
      verdict: c.verdict,
    })),
  };
}

describe('metamorphic: the same decisions get the same verdicts', () => {
  let t: Table;
  let base: MetricsReport[];
  const dir = mkdtempSync(join(tmpdir(), 'lucid-mm-'));
  before(async () => {
    t = metamorphicTable(await getEngine());
    base = metricsOf(t, A);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the base rows flag something, so that every comparison below tests verdicts that exist', () => {
    const flagged = base.flatMap((r) =>
      r.attributes.flatMap((a) => a.comparisons.filter((c) => c.verdict === 'flagged')),
    );
    assert.ok(flagged.length >= 3, `${flagged.length} flags`);
    assert.ok(
      base[1].attributes[0].comparisons.some(
        (c) =>
          c.group === 'Female, B' &&
          c.metric === 'selection_rate' &&
          c.verdict === 'flagged' &&
          c.direction === 'disadvantaged',
      ),
      'the planted cell',
    );
    assert.ok(
      base[0].attributes.some((a) => a.fourFifths.below.length > 0),
      'a four-fifths failure',
    );
  });

  it(
    'the label coded the other way (the other value positive, --favourable flipped, scores 1 − p): the same ' +
      'verdicts, references, directions and yardsticks',
    () => {
      const r = recode(t, 'approved', 'p', 'denied', 'p_deny');
      assertSameReports(base, metricsOf(r, B), { recoded: true }, 'recoded');
      // and back: recoding twice is the identity
      assertSameReports(base, metricsOf(recode(r, 'denied', 'p_deny', 'approved', 'p'), A), {}, 'recoded twice');
    },
  );

  it('the rows permuted', () => {
    assertSameReports(base, metricsOf(permuteRows(t, 3).table, A), { reordered: true }, 'permuted');
  });

  it('the columns renamed (odd names: spaces, punctuation, non-ASCII)', () => {
    const names: Record<string, string> = {
      sex: 'Sex (self-reported)',
      group: 'grp/ethnicité',
      approved: 'Approved?',
      p: 'score %',
    };
    const r = renameColumns(t, names);
    assertSameReports(
      base,
      metricsOf(r, {
        label: names.approved,
        positive: 'yes',
        favourable: 'positive',
        pred: names.p,
        groups: [names.sex, names.group],
      }),
      { column: (c) => names[c] ?? c },
      'renamed',
    );
  });

  it('the categories reordered in every dictionary', () => {
    assertSameReports(base, metricsOf(reorderCategories(t), A), {}, 'reordered categories');
  });

  it(
    'CSV, Parquet (DuckDB), Arrow IPC (apache-arrow) and JSON Lines, and a semicolon CSV with decimal commas: the ' +
      'same table, the same verdicts',
    async () => {
      const csv = join(dir, 'loans.csv');
      writeFileSync(csv, csvText(t, ',', false));
      const semi = join(dir, 'loans-eu.csv');
      writeFileSync(semi, csvText(t, ';', true));
      assert.match(readFileSync(semi, 'utf8').split('\n')[1], /;\d+,\d+;/, 'decimal commas written');
      const jsonl = join(dir, 'loans.jsonl');
      writeFileSync(jsonl, jsonLinesText(t));
      const arrow = join(dir, 'loans.arrow');
      const cols: Record<string, Vector<Float64> | Vector<Dictionary<Utf8, Int32>>> = {};
      for (const c of t.columns)
        cols[c.name] =
          c.kind === 'numeric'
            ? vectorFromArray(Array.from(c.values), new Float64())
            : vectorFromArray(
                Array.from(c.codes, (k) => c.categories[k]),
                new Dictionary(new Utf8(), new Int32()),
              );
      writeFileSync(arrow, tableToIPC(new ArrowTable(cols), 'file'));
      const fromCsv = (await readTable(csv)).table;
      for (const file of [PARQUET, arrow, jsonl, semi]) {
        const read = (await readTable(file)).table;
        // the same cells: the Parquet fixture is the base rows (else run tools/make-metamorphic-fixtures.mjs)
        for (const c of fromCsv.columns) {
          const d = read.columns.find((x) => x.name === c.name)!;
          assert.ok(d, `${file}: column ${c.name}`);
          const cells = (x: typeof c) =>
            x.kind === 'numeric' ? Array.from(x.values) : Array.from(x.codes, (k) => x.categories[k]);
          assert.deepEqual(
            cells(d),
            cells(c),
            `${file}: the cells of ${c.name} (for the Parquet fixture: node tools/make-metamorphic-fixtures.mjs)`,
          );
        }
        assertSameReports(base, metricsOf(read, A), {}, file);
      }
    },
  );

  it(
    'lucid check: a policy and its counterpart in the other coding give the same outcome, rule by rule and group by ' +
      'group',
    () => {
      const rulesB = POLICY_A.rules.map(recodeRule);
      // the map is not the identity: the error rates and the complement's bounds change names and sides
      assert.deepEqual(
        rulesB.map((r) => r.metric),
        [
          'four_fifths',
          'impact_ratio',
          'selection_rate_ratio',
          'tnr_diff',
          'fnr_ratio',
          'fdr_diff',
          'npv',
          'positivity_rate',
          'positivity_rate_diff',
        ],
      );
      assert.deepEqual([rulesB[7].max, rulesB[7].min, rulesB[8].max], [0.85, undefined, 0.1]);
      const a = checkOf(t, POLICY_A.rules, A);
      const b = checkOf(recode(t, 'approved', 'p', 'denied', 'p_deny'), rulesB, B);
      const complement = (id: string) => /positivity/.test(id);
      assert.deepEqual(
        outcome(b, complement),
        outcome(a, () => false),
      );
      assert.equal(a.passed, false, 'the base policy fails somewhere, so the outcome tests a failure too');
      assert.ok(a.counts.pass > 0, 'and passes somewhere');
    },
  );

  it(
    'lucid check as a user runs it: the two codings exit ' + 'alike, and the four-fifths and LL144 tables are the same',
    () => {
      const fa = join(dir, 'a.csv');
      const fb = join(dir, 'b.csv');
      writeFileSync(fa, csvText(t, ',', false));
      writeFileSync(fb, csvText(recode(t, 'approved', 'p', 'denied', 'p_deny'), ',', false));
      const pa = join(dir, 'pa.json');
      const pb = join(dir, 'pb.json');
      writeFileSync(pa, JSON.stringify({ ...POLICY_A, inputs: { label: 'approved', positive: 'yes', pred: 'p' } }));
      writeFileSync(
        pb,
        JSON.stringify({
          ...POLICY_A,
          inputs: { label: 'denied', positive: 'yes', favourable: 'negative', pred: 'p_deny' },
          rules: POLICY_A.rules.map(recodeRule),
        }),
      );
      const run = (data: string, policy: string) =>
        spawnSync(process.execPath, [LUCID_BIN, 'check', '--data', data, '--policy', policy, '--format', 'json'], {
          encoding: 'utf8',
        });
      const ra = run(fa, pa);
      const rb = run(fb, pb);
      assert.equal(ra.status, 3, ra.stderr);
      assert.equal(rb.status, ra.status, rb.stderr);
      const ja = JSON.parse(ra.stdout) as CheckResult;
      const jb = JSON.parse(rb.stdout) as CheckResult;
      assert.deepEqual(jb.counts, ja.counts);
      assert.deepEqual(
        jb.checks.filter((c) => /four|impact|selection/.test(c.rule)),
        ja.checks.filter((c) => /four|impact|selection/.test(c.rule)),
      );
    },
  );
});
