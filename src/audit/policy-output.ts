// The fairness gate on an output of any kind: the kind from outputs.ts (given, or inferred with a stated reason),
// then a binary output checked by checkPolicy exactly as before, and a score, multiclass or regression output by
// outputMetrics and the same rule: a rule is checked per group on the point value, the metrics verdict and
// interval are shown beside it, small or suppressed groups and undefined values are insufficient data.
// A score's binary rules (selection_rate_ratio, four_fifths, …) read its threshold view, a binary report.
// Core code: no Node imports.
import { check, EngineError } from '../engine/errors.js';
import type { Table } from '../data/table.js';
import type { Rng } from '../engine/rng.js';
import {
  correctMulticlassTogether,
  correctTogether,
  FAVOURABLE,
  outputChoice,
  outputMetrics,
  type Favourable,
  type JudgedReport,
  type OutputReport,
} from '../methods/metrics/index.js';
import { outputMetricDef } from '../methods/metrics/output-definitions.js';
import { MULTICLASS_RATES } from '../methods/metrics/multiclass.js';
import { normalQuantile } from '../methods/metrics/verdicts.js';
import type { OutputKind } from '../methods/metrics/outputs.js';
import {
  attributeOptions,
  CHECK_RESULT_VERSION,
  checkPolicy,
  emptyRuleValue,
  judge,
  policySummary,
  recount,
  requireKind,
  ruleValues,
  runsPerAttribute,
  uncounted,
  validateAgainstData,
  type CheckResult,
  type CheckSettings,
  type Policy,
  type PolicyRule,
  type RuleCheck,
  type RuleValue,
} from './policy.js';

/** What an output of another kind than binary reads beside CheckSettings, as given (each kind has its defaults). */
export interface OutputSettings {
  /** `--output` or the policy's inputs.output; inferred when absent */
  output?: OutputKind;
  /** positive|negative or higher|lower, as given */
  favourable?: string;
  /** a score's cut (any number), as given; binary takes CheckSettings.threshold */
  threshold?: number;
  classOrder?: string[];
  toleranceUnits?: number;
  /** the seeded generator of a score's or a real value's resamples (CheckSettings.rng, when set, wins) */
  rng?: Rng;
}

/** One group's figure of one metric, read from any kind's report. */
interface Figure {
  value: string;
  n: number;
  small: boolean;
  suppressed: boolean;
  figure: number | null;
  interval: { lo: number; hi: number } | null;
}

/** A group's figure of a rule's metric, with its interval; a suppressed group counts as small (no value judged). */
function figureOf(
  g: { value: string; n: number; small: boolean; suppressed: boolean },
  figure: number | null,
  interval: Figure['interval'],
): Figure {
  return { value: g.value, n: g.n, small: g.small || g.suppressed, suppressed: g.suppressed, figure, interval };
}

/** The metrics verdict of one group's comparison (metric and class fixed), with its interval and scale. */
interface FigureComparison {
  verdict: RuleCheck['verdict'];
  interval: { lo: number; hi: number } | null;
  level: number | null;
}

/**
 * The values of a rule on per-group figures (the rule's metric of one output kind): its own value ('rate', 'value'),
 * its distance to the reference ('distance': the group's own figure, the reference left out), or group − reference
 * and group / reference; `cmpScale` is the scale the metrics verdicts were tested on (their interval is shown beside
 * the rule's form on the same scale).
 */
function figureValues(
  rule: PolicyRule,
  figures: Figure[],
  reference: string,
  minGroup: number,
  suppressBelow: number | null,
  what: string,
  ownMethod: string,
  cmpOf: (group: string) => FigureComparison | undefined,
  cmpScale: 'ratio' | 'difference' | null,
): RuleValue[] {
  const kind = rule.metric.kind;
  const small = (f: Figure) =>
    f.suppressed
      ? `${f.value} is suppressed (fewer than ${suppressBelow} rows)`
      : `${f.value} has ${f.n} rows (fewer than ${minGroup})`;
  const ref = figures.find((f) => f.value === reference)!;
  const out: RuleValue[] = [];
  for (const f of figures) {
    if (rule.groups && !rule.groups.includes(f.value)) continue;
    const c = emptyRuleValue(rule, f.value, f.n);
    if (rule.class !== undefined) c.class = rule.class;
    if (kind === 'rate' || kind === 'value') {
      c.value = f.figure;
      if (f.small) c.reason = small(f);
      else if (c.value === null) c.reason = `the ${what} of ${f.value} is undefined`;
      else if (f.interval) c.interval = { ...f.interval, method: ownMethod };
      out.push(c);
      continue;
    }
    if (f.value === reference) continue;
    c.reference = reference;
    c.referenceN = ref.n;
    const cmp = cmpOf(f.value);
    if (kind === 'distance') {
      c.value = f.figure;
      if (f.interval) c.interval = { ...f.interval, method: ownMethod };
    } else {
      const [a, b] = [f.figure, ref.figure];
      c.value = a === null || b === null ? null : kind === 'ratio' ? (b === 0 ? null : a / b) : a - b;
      if (cmp) c.verdict = cmp.verdict;
      const sameScale = (kind === 'ratio') === (cmpScale === 'ratio');
      if (cmp?.interval && cmp.level !== null && sameScale)
        c.interval = {
          ...cmp.interval,
          method: `the metrics interval at the Holm-corrected level ${cmp.level.toPrecision(2)}`,
        };
    }
    if (f.small) c.reason = small(f);
    else if (ref.small) c.reason = `the reference ${small(ref)}`;
    else if (c.value === null)
      c.reason =
        `the ${what} ${kind === 'distance' ? '' : `${kind.replace('value_', '')} `}is undefined for ` +
        `${f.value}${kind === 'ratio' ? " (or the reference's value is 0)" : ''}`;
    out.push(c);
  }
  return out;
}

/** A rule's values on a score, multiclass or regression report of its attribute (`run`). */
function outputRuleValues(rule: PolicyRule, run: Exclude<OutputReport, { kind: 'binary' }>): RuleValue[] {
  const m = rule.metric;
  if (run.kind === 'score') {
    const r = run.report;
    // the threshold view is a binary report: its rules are read as on a binary output
    if (m.output === null) return ruleValues(rule, r.thresholdView.attributes[0], r.thresholdView);
    const a = r.attributes[0];
    const metric = m.output as 'auc' | 'ks' | 'wasserstein';
    // an AUC's Hanley–McNeil interval, AUC ± z·SE, at the report's confidence (1 − alpha), as its other intervals
    const confidence = 1 - r.verdicts.alpha;
    const z = normalQuantile(1 - r.verdicts.alpha / 2);
    const figures = a.groups.map((g) =>
      figureOf(
        g,
        g[metric],
        metric === 'auc'
          ? g.auc !== null && g.aucSe !== null
            ? { lo: Math.max(0, g.auc - z * g.aucSe), hi: Math.min(1, g.auc + z * g.aucSe) }
            : null
          : (g.ci?.[metric] ?? null),
      ),
    );
    return figureValues(
      rule,
      figures,
      a.reference.value,
      r.minGroupSize,
      r.suppressBelow,
      outputMetricDef(metric).label,
      metric === 'auc'
        ? `Hanley–McNeil ${Number((100 * confidence).toPrecision(3))}%`
        : `bootstrap ${100 * (r.bootstrap?.confidence ?? 0.95)}%`,
      (group) => a.comparisons.find((x) => x.metric === metric && x.group === group),
      'ratio',
    );
  }
  if (run.kind === 'regression') {
    const r = run.report;
    const a = r.attributes[0];
    const metric = m.output as 'mean_prediction' | 'median_prediction' | 'mean_residual' | 'mae';
    const def = outputMetricDef(metric);
    const figures = a.groups.map((g) => figureOf(g, g[metric], g.ci?.[metric] ?? null));
    return figureValues(
      rule,
      figures,
      a.reference.value,
      r.minGroupSize,
      r.suppressBelow,
      def.label,
      'as lucid metrics shows it',
      (group) => a.comparisons.find((x) => x.metric === metric && x.group === group),
      r.verdicts.mode === 'units' || def.scale === 'difference' ? 'difference' : 'ratio',
    );
  }
  const r = run.report;
  const a = r.attributes[0];
  const rate = m.classRate!;
  const cls = rule.class!;
  const figures = a.groups.map((g) => {
    const x = g.classes.find((y) => y.class === cls)![rate];
    return figureOf(g, x.rate, x.interval);
  });
  return figureValues(
    rule,
    figures,
    a.reference.value,
    r.minGroupSize,
    r.suppressBelow,
    MULTICLASS_RATES[rate].words(cls),
    `Wilson ${Number((100 * r.confidence).toPrecision(3))}%`,
    (group) => a.comparisons.find((x) => x.metric === rate && x.class === cls && x.group === group),
    'ratio',
  );
}

/**
 * Checks every rule of `policy` on `table` for the output kind its columns hold (given in `o.output` or the policy's
 * inputs.output, else inferred): a binary output by checkPolicy (its bytes as before), the others by outputMetrics,
 * once per attribute and reference. A rule whose metric the kind does not have is a usage error naming it.
 */
export function checkOutputPolicy(
  table: Table,
  policy: Policy,
  s: CheckSettings,
  o: OutputSettings,
  where: string,
): CheckResult {
  const output = o.output ?? policy.inputs.output;
  let choice: ReturnType<typeof outputChoice>;
  try {
    choice = outputChoice(table, { label: s.label, pred: s.pred, output, positive: s.positive });
  } catch (e) {
    // columns no kind fits stay groupMetrics' to refuse, in its words, as before the other kinds existed
    if (e instanceof EngineError && output === undefined && o.favourable === undefined)
      return checkPolicy(table, policy, s, where);
    throw e;
  }
  requireKind(policy, choice.kind, choice.reason);
  const notFor = (flag: string, given: unknown, kinds: string) =>
    check(given === undefined, 'E_ARG', () => `check: ${flag} is for ${kinds} outputs; this one is ${choice.reason}`);
  if (choice.kind !== 'multiclass') notFor('--class-order', o.classOrder, 'multiclass');
  if (choice.kind === 'binary') {
    notFor('--tolerance-units', o.toleranceUnits, 'regression');
    const favourable = o.favourable ?? s.favourable;
    check(
      FAVOURABLE.includes(favourable as Favourable),
      'E_ARG',
      () =>
        `--favourable ${favourable} is for scores and real values; a binary decision takes --favourable positive ` +
        `or negative (whether the --positive class is the outcome people want)`,
    );
    check(
      s.threshold >= 0 && s.threshold <= 1,
      'E_ARG',
      () =>
        `--threshold ${s.threshold}: a binary decision's cut of P(positive) is in [0, 1]; a score on another scale ` +
        `is checked with --output score`,
    );
    return checkPolicy(table, policy, { ...s, favourable: favourable as Favourable }, where);
  }
  validateAgainstData(table, policy, s, where);
  const rng = s.rng ?? o.rng;
  check(rng !== undefined, 'E_ARG', () => `check: a ${choice.kind} output needs a seeded rng`);
  const { perRule, runs: reports } = runsPerAttribute(policy, (rule, reference) => {
    const report = outputMetrics(table, {
      label: s.label,
      pred: s.pred,
      output,
      positive: s.positive,
      favourable: o.favourable,
      classOrder: o.classOrder,
      threshold: o.threshold,
      toleranceUnits: o.toleranceUnits,
      ...attributeOptions(rule, reference, s),
      rng: rng!,
    });
    if (report.kind === 'binary') throw new EngineError('E_ARG', `check: ${choice.reason} read as binary`);
    return report;
  });
  // one family over every table the check reads (a score's with its threshold view), as a binary check and lucid
  // metrics correct every attribute together: per table, more rules would mean more chances of a false fail
  const tables = `the ${reports.length} table${reports.length > 1 ? 's' : ''} checked`;
  if (reports[0].kind === 'multiclass')
    correctMulticlassTogether(reports.map((r) => (r as Extract<typeof r, { kind: 'multiclass' }>).report));
  else
    correctTogether(
      reports.flatMap((r): JudgedReport[] =>
        r.kind === 'score' ? [r.report.thresholdView, r.report] : r.kind === 'regression' ? [r.report] : [],
      ),
      tables,
    );
  const checks: RuleCheck[] = [];
  for (const { rule, run } of perRule) {
    const attr = run.report.attributes[0];
    const groups = attr.groups.map((g) => g.value);
    rule.groups?.forEach((g, j) => {
      if (!groups.includes(g))
        throw new EngineError(
          'E_ARG',
          `${policy.file}: ${rule.path}.groups[${j}]: "${g}" is not a group of ${attr.column} in ${where}; the ` +
            `groups are: ${groups.slice(0, 20).join('; ')}`,
        );
    });
    if (run.kind === 'multiclass' && !run.report.classes.includes(rule.class!))
      throw new EngineError(
        'E_ARG',
        `${policy.file}: ${rule.path}.class: rule "${rule.id}" names the class "${rule.class}", which is not a class ` +
          `of ${s.label} or ${s.pred} in ${where}; the classes are: ${run.report.classes.join(', ')}`,
      );
    for (const v of outputRuleValues(rule, run)) checks.push(judge(rule, v, s));
  }
  const first = reports[0];
  const warnings = [
    ...new Set(
      reports.flatMap((r) => [...r.report.warnings, ...(r.kind === 'score' ? r.report.thresholdView.warnings : [])]),
    ),
  ];
  for (const { rule } of perRule)
    if (!checks.some((c) => c.rule === rule.id))
      warnings.push(`${rule.id}: checks no group (its only group is the reference)`);
  const v = first.report.verdicts;
  const band =
    first.kind === 'regression' && first.report.verdicts.mode === 'units'
      ? `band ±${first.report.verdicts.toleranceUnits} in the output's units`
      : `ratio band [${v.tolerance}, ${(1 / (v.tolerance ?? 1)).toFixed(2)}]`;
  // a score's fit is its threshold view's; the other kinds have none (the closing fields in uncounted's order)
  const fit =
    first.kind === 'score'
      ? first.report.thresholdView.fit
      : { line: `no model fit for a ${first.kind} output`, weak: [] };
  const result: CheckResult = {
    tool: 'lucid check',
    resultVersion: CHECK_RESULT_VERSION,
    policy: policySummary(policy, s),
    data: { source: where, rows: table.rows },
    inputs: {
      label: s.label,
      pred: s.pred,
      output: first.output,
      ...(first.kind === 'score' ? { positive: first.report.positive, threshold: first.report.threshold.value } : {}),
    },
    minGroup: s.minGroup,
    suppressBelow: s.suppressBelow ?? null,
    verdicts: {
      tolerance: v.tolerance,
      alpha: v.alpha,
      correction: `Holm over the ${first.report.verdicts.comparisons} comparisons of ${tables} together`,
      band,
    },
    ...uncounted(checks, warnings, fit),
  };
  recount(result);
  return result;
}
