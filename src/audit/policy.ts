// The fairness gate (`lucid check`): a policy file of thresholds per metric and attribute,
// checked on a data file with a predictions column, optionally against a baseline (an earlier check's
// JSON or an audit.json). Output-based rules only: the values are those of groupMetrics (the same
// rates, references, small groups, suppression and verdicts as `lucid metrics`); no GAN, no model.
// The rule metrics of score, multiclass and regression outputs are derived here from their tables too;
// policy-output.ts checks them on outputMetrics' reports.
// Core code: no Node imports (the file I/O is src/node/policy.ts, the wiring src/cli/commands/check.ts).
//
// The rule, stated once (docs/ci.md says it in words):
//   a rule is checked per group on the point value (the four-fifths rule and LL144 are point rules);
//   the interval and the metrics verdict are shown beside it, not used to pass or fail;
//   a group with fewer than minGroup rows (or suppressed), a small reference, or an undefined value is
//   "insufficient data": skipped, not failed, unless the rule (or the policy) says onInsufficient "fail";
//   with a baseline, a value that moved toward the rule's threshold by more than the margin is a
//   regression, and a regression fails the gate like a crossing does.
import { EngineError, UnknownColumnError } from '../engine/errors.js';
import { closeColumns, getColumn, type Table } from '../data/table.js';
import { isMissing } from '../data/cells.js';
import { fmtPpSigned, MISSING, pctText } from '../data/text.js';
import type { Rng } from '../engine/rng.js';
import {
  correctTogether,
  fitLine,
  groupMetrics,
  METRIC_DEFS,
  metricDef,
  METRICS,
  wilsonInterval,
  type AttributeResult,
  type Favourable,
  type MetricName,
  type MetricsReport,
  type OutputInfo,
  type Verdict,
} from '../methods/metrics/index.js';
import { OUTPUT_METRICS, outputMetricDef, type OutputMetricName } from '../methods/metrics/output-definitions.js';
import { MULTICLASS_RATE_NAMES, MULTICLASS_RATES, type MulticlassRate } from '../methods/metrics/multiclass.js';
import { DIRECTIONS, OUTPUT_KIND_NAMES, type Direction, type OutputKind } from '../methods/metrics/outputs.js';

/** The policy format this code reads (the `version` field). */
export const POLICY_VERSION = 1;
/** The result format `lucid check --format json` writes (a baseline must carry it). */
/**
 * The version of `lucid check --format json` results. 2: canonical_shift is favourable set −
 * unfavourable set, selection_rate and tnr exist; a version-1 result is still read as a baseline (its
 * canonical shifts of a favourable-negative audit turned round, baseline.ts).
 */
export const CHECK_RESULT_VERSION = 2;

export const POLICY_DEFAULTS = {
  /** a regression is a move toward the threshold by more than this (absolute, in the metric's own unit) */
  margin: 0.02,
  onInsufficient: 'skip' as OnInsufficient,
  /** an attribute column that is numeric with more distinct values than this must be binned first */
  maxNumericGroups: 20,
};

/**
 * 'value' and 'value_difference' are a group's own figure and group − reference in the output's units (a regression's
 * mean prediction, its MAE): unbounded, written as numbers, where 'rate' and 'difference' are shares and points.
 */
export type RuleKind = 'rate' | 'difference' | 'ratio' | 'distance' | 'value' | 'value_difference';
export type OnInsufficient = 'skip' | 'fail';

/**
 * The forms a rule takes of each metric of METRIC_DEFS (the one table of metrics): the allowed rule
 * metric names are derived from the two tables, never listed by hand.
 */
export const RULE_FORMS = [
  { suffix: '', kind: 'rate', help: "the group's own rate" },
  { suffix: '_diff', kind: 'difference', help: "group − reference (aif360's sign), as a fraction (0.05 = 5 pp)" },
  { suffix: '_ratio', kind: 'ratio', help: 'group / reference' },
] as const satisfies readonly { suffix: string; kind: RuleKind; help: string }[];

/**
 * The legal yardsticks groupMetrics computes (the four-fifths rule and the LL144 impact table): ratios against the most
 * selected group.
 */
export const YARDSTICKS = {
  four_fifths: {
    kind: 'ratio',
    help: 'selection rate over the most selected group that is not small (the four-fifths rule)',
  },
  impact_ratio: {
    kind: 'ratio',
    help:
      'the NYC Local Law 144 impact ratio: selection rate (scores: the share on the favourable side of the median ' +
      "score) over the highest category's, categories under 2% of rows left out",
  },
} as const satisfies Record<string, { kind: RuleKind; help: string }>;
type Yardstick = keyof typeof YARDSTICKS;

/**
 * Rule metrics on the canonical sets of a LUCID-GAN (they need a callable model and an audit; checked
 * by src/audit/policy-audit.ts on an AuditResult). The groups of canonical_shift are the attribute's
 * values; those of canonical_validity and canonical_fidelity are the two sets, "positive" and "negative".
 */
export const CANONICAL_RULES = {
  canonical_shift: {
    kind: 'difference',
    attribute: 'protected',
    help:
      "the canonical shift of a protected attribute's value: its share in the favourable canonical set − in the " +
      'unfavourable set (with --favourable positive: positive − negative; all GAN seeds pooled), as the report ' +
      "prints it; a value the audit's check marks as contradicted by the real rows, unsettled across the GAN " +
      'seeds, or misstated in size is insufficient data',
  },
  canonical_validity: {
    kind: 'rate',
    attribute: 'none',
    help:
      "the share of the rows generated for a set that the model scores on that set's side (drawn by rejection, the " +
      'default: the acceptance rate, since the kept rows are valid by construction; with --no-rejection: the ' +
      'validity)',
  },
  canonical_fidelity: {
    kind: 'distance',
    attribute: 'column',
    help:
      "the fidelity of a feature's generated values to the real rows the model scores on that side: KS (numbers) " +
      'or total variation (categories), 0 = the same',
  },
} as const satisfies Record<string, { kind: RuleKind; attribute: 'protected' | 'none' | 'column'; help: string }>;
export type CanonicalRuleName = keyof typeof CANONICAL_RULES;
/** Rule metrics that need the canonical sets of a LUCID-GAN. */
export const CANONICAL_RULE_METRICS = Object.keys(CANONICAL_RULES) as CanonicalRuleName[];
/** The two sets a canonical_validity or canonical_fidelity rule is checked on (its groups). */
export const CANONICAL_SIDES = ['positive', 'negative'] as const;

export interface RuleMetric {
  name: string;
  kind: RuleKind;
  /** the METRIC_DEFS metric, or null for a yardstick or a canonical-set metric */
  base: MetricName | null;
  yardstick: Yardstick | null;
  /** a rule on the canonical sets (needs a model and an audit), or null */
  canonical: CanonicalRuleName | null;
  /** a score or regression metric of OUTPUT_METRIC_DEFS, or null */
  output: OutputMetricName | null;
  /** a multiclass rate of MULTICLASS_RATES, checked on the class the rule names ("class"), or null */
  classRate: MulticlassRate | null;
  /** the output kinds whose data have it: a score's threshold view has every binary metric and yardstick */
  kinds: readonly OutputKind[];
  help: string;
}

/** The binary forms in the output's units (a regression's figures): own value, group − reference, group / reference. */
const UNITS_KIND: Record<RuleKind, RuleKind> = {
  rate: 'value',
  difference: 'value_difference',
  ratio: 'ratio',
  distance: 'distance',
  value: 'value',
  value_difference: 'value_difference',
};

/**
 * The rules of OUTPUT_METRIC_DEFS: a metric with a direction takes the three forms (in the output's units when the
 * table says so; no ratio of a metric the table judges on the difference scale, a bias whose sign can change); a
 * distance without a direction (KS, W1) is a 'distance' rule on the group's own value; a figure of the labels (the
 * mean label) is no rule of the model.
 */
function outputRuleMetrics(m: OutputMetricName): RuleMetric[] {
  const d = outputMetricDef(m);
  const common = { base: null, yardstick: null, canonical: null, output: m, classRate: null, kinds: [d.kind] };
  if (d.better === null)
    return d.scale === 'difference' ? [{ ...common, name: m, kind: 'distance', help: `${d.label}: ${d.help}` }] : [];
  return RULE_FORMS.filter((f) => !(f.kind === 'ratio' && d.scale === 'difference')).map(
    (f): RuleMetric => ({
      ...common,
      name: `${m}${f.suffix}`,
      kind: d.units ? UNITS_KIND[f.kind] : f.kind,
      help: `${d.label}: ${d.units && f.kind === 'difference' ? "group − reference, in the output's units" : f.help}`,
    }),
  );
}

/** The rule metric name of a multiclass rate's form: class_positivity_rate, class_fnr_diff, class_fpr_ratio. */
const classRuleName = (rate: MulticlassRate, suffix: string) => `class_${rate}${suffix}`;

/**
 * Every metric name a rule may use: each metric of METRIC_DEFS in each form, then the yardsticks, then the
 * canonical-set metrics.
 */
export const RULE_METRICS: readonly RuleMetric[] = [
  ...METRICS.flatMap((m) =>
    RULE_FORMS.map(
      (f): RuleMetric => ({
        name: `${m}${f.suffix}`,
        kind: f.kind,
        base: m,
        yardstick: null,
        canonical: null,
        output: null,
        classRate: null,
        kinds: ['binary', 'score'],
        help: `${METRIC_DEFS[m].label}: ${f.help}`,
      }),
    ),
  ),
  ...(Object.keys(YARDSTICKS) as Yardstick[]).map(
    (y): RuleMetric => ({
      name: y,
      kind: YARDSTICKS[y].kind,
      base: null,
      yardstick: y,
      canonical: null,
      output: null,
      classRate: null,
      kinds: ['binary', 'score'],
      help: YARDSTICKS[y].help,
    }),
  ),
  ...CANONICAL_RULE_METRICS.map(
    (c): RuleMetric => ({
      name: c,
      kind: CANONICAL_RULES[c].kind,
      base: null,
      yardstick: null,
      canonical: c,
      output: null,
      classRate: null,
      kinds: ['binary'],
      help: CANONICAL_RULES[c].help,
    }),
  ),
  ...OUTPUT_METRICS.flatMap(outputRuleMetrics),
  ...MULTICLASS_RATE_NAMES.flatMap((rate) =>
    RULE_FORMS.map(
      (f): RuleMetric => ({
        name: classRuleName(rate, f.suffix),
        kind: f.kind,
        base: null,
        yardstick: null,
        canonical: null,
        output: null,
        classRate: rate,
        kinds: ['multiclass'],
        help: `the ${MULTICLASS_RATES[rate].words('the rule\'s "class"')}: ${f.help}`,
      }),
    ),
  ),
];

/** The rule metrics of one output kind, by name. */
export const ruleMetricsOf = (kind: OutputKind): string[] =>
  RULE_METRICS.filter((m) => m.kinds.includes(kind)).map((m) => m.name);

/** The rules of `policy` on canonical sets (they need --model: an audit). */
export const canonicalRules = (policy: Policy): PolicyRule[] => policy.rules.filter((r) => r.metric.canonical !== null);

export interface PolicyRule {
  /** the rule's name in every output (given, else metric:attribute, made unique) */
  id: string;
  /** where it is in the file: "rules[2]" */
  path: string;
  metric: RuleMetric;
  /** as written: "Sex" or "Sex×Race" */
  attribute: string;
  /** the columns of the attribute (two or more: their intersection) */
  columns: string[];
  min?: number;
  max?: number;
  maxAbs?: number;
  /**
   * column → reference value (difference and ratio rules only); default: the inputs' reference, else the largest group
   * that is not small
   */
  reference?: Record<string, string>;
  /** the groups to check (as the output names them; an intersection's as "Female, Black"); default every group */
  groups?: string[];
  onInsufficient?: OnInsufficient;
  margin?: number;
  description?: string;
  /** a multiclass rate's class: "decline" */
  class?: string;
}

export interface PolicyInputs {
  label?: string;
  positive?: string;
  /** positive|negative (binary) or higher|lower (score, regression) */
  favourable?: Favourable | Direction;
  pred?: string;
  /** binary: P(positive)'s cut in [0, 1]; with output "score": any number */
  threshold?: number;
  /** the output kind the policy was written for: every rule's metric must be one of that kind's */
  output?: OutputKind;
  /** multiclass: the classes, most favourable first */
  classOrder?: string[];
  /** regression: the metrics verdicts' band ±d in the output's units */
  toleranceUnits?: number;
  /** column → reference value for every rule on that column without its own */
  reference?: Record<string, string>;
}

export interface Policy {
  /** the file it was read from, as given (every message names it) */
  file: string;
  version: number;
  description?: string;
  inputs: PolicyInputs;
  minGroup?: number;
  suppressBelow?: number;
  onInsufficient?: OnInsufficient;
  margin?: number;
  rules: PolicyRule[];
}

/** A usage error in a policy file: "fairness.json: rules[2].metric: …" (exit 2). */
const bad = (file: string, path: string, msg: string) =>
  new EngineError('E_ARG', `${file}: ${path ? `${path}: ` : ''}${msg}`);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const hint = (name: string, names: readonly string[]) => {
  const close = closeColumns(name, names);
  return close.length ? ` (did you mean ${close.map((c) => JSON.stringify(c)).join(' or ')}?)` : '';
};

/**
 * The metric names, as one line: "m, m_diff, m_ratio for m in …; four_fifths, impact_ratio; canonical_shift, … (with a
 * model)".
 */
export function ruleMetricList(): string {
  return (
    `${RULE_FORMS.map((f) => `m${f.suffix}`).join(', ')} for m in ${METRICS.join(', ')}; ` +
    `${Object.keys(YARDSTICKS).join(', ')}; ${CANONICAL_RULE_METRICS.join(', ')} (canonical sets: need a model); on ` +
    `a score also ${otherKindList('score')}; on a multiclass output (with "class") ${otherKindList('multiclass')}; ` +
    `on a regression ${otherKindList('regression')}`
  );
}

/** The rule metrics of a kind other than binary, as one list (a score's binary ones are said once, above). */
const otherKindList = (kind: OutputKind) =>
  RULE_METRICS.filter((m) => m.kinds.includes(kind) && !m.kinds.includes('binary'))
    .map((m) => m.name)
    .join(', ');

/**
 * A usage error when a rule's metric does not exist for the output kind `kind` (`why`: how the kind was decided),
 * naming the rule, its metric and the kind's metrics.
 */
export function requireKind(policy: Policy, kind: OutputKind, why: string): void {
  for (const r of policy.rules)
    if (!r.metric.kinds.includes(kind))
      throw bad(
        policy.file,
        `${r.path}.metric`,
        `rule "${r.id}": ${r.metric.name} is a metric of ${r.metric.kinds.join(' and ')} outputs; the output is ` +
          `${kind} (${why}): its metrics are ${ruleMetricsOf(kind).join(', ')}`,
      );
}

/** The policy from the text of its file; a syntax error names the line and column. */
export function parsePolicyText(text: string, file: string): Policy {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    let where = '';
    if (at) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      where = ` at line ${line}, column ${Number(at[1]) - before.lastIndexOf('\n')}`;
    }
    throw bad(file, '', `not valid JSON${where} (${msg.split('\n')[0]}); a policy is a JSON object, see docs/ci.md`);
  }
  return parsePolicy(json, file);
}

function keysOf(
  o: Record<string, unknown>,
  allowed: readonly string[],
  file: string,
  path: string,
  what: string,
): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      throw bad(
        file,
        path ? `${path}.${k}` : k,
        `not a key of ${what}${hint(k, allowed)}; the keys are: ${allowed.join(', ')}`,
      );
  }
}

function str(v: unknown, file: string, path: string): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw bad(file, path, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function num(v: unknown, file: string, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw bad(file, path, `expected a number, got ${JSON.stringify(v)}`);
  return v;
}

function int(v: unknown, file: string, path: string, least: number): number {
  const n = num(v, file, path);
  if (!Number.isSafeInteger(n) || n < least)
    throw bad(file, path, `expected an integer ≥ ${least}, got ${JSON.stringify(v)}`);
  return n;
}

function oneOf<T extends string>(v: unknown, choices: readonly T[], file: string, path: string): T {
  if (typeof v !== 'string' || !choices.includes(v as T))
    throw bad(file, path, `expected ${choices.map((c) => JSON.stringify(c)).join(' or ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

/** "Sex×Race" (or "Sex × Race") → ["Sex", "Race"]. */
export const attributeColumns = (attribute: string): string[] => attribute.split('×').map((s) => s.trim());

const RULE_KEYS = [
  'id',
  'class',
  'description',
  'metric',
  'attribute',
  'min',
  'max',
  'maxAbs',
  'reference',
  'groups',
  'onInsufficient',
  'margin',
] as const;
const TOP_KEYS = [
  'version',
  'description',
  'inputs',
  'minGroup',
  'suppressBelow',
  'onInsufficient',
  'margin',
  'rules',
] as const;
const INPUT_KEYS = [
  'label',
  'positive',
  'favourable',
  'pred',
  'threshold',
  'reference',
  'output',
  'classOrder',
  'toleranceUnits',
] as const;

function referenceOf(v: unknown, columns: string[], file: string, path: string): Record<string, string> {
  if (typeof v === 'string') {
    if (columns.length > 1)
      throw bad(
        file,
        path,
        `an intersection's reference is an object with a value per column, e.g. ` +
          `${JSON.stringify(Object.fromEntries(columns.map((c) => [c, '…'])))}`,
      );
    return { [columns[0]]: str(v, file, path) };
  }
  if (!isObject(v))
    throw bad(file, path, `expected a group value (a string) or an object column → value, got ${JSON.stringify(v)}`);
  const keys = Object.keys(v);
  for (const k of keys)
    if (!columns.includes(k))
      throw bad(file, `${path}.${k}`, `not a column of the attribute (${columns.join(', ')})${hint(k, columns)}`);
  for (const c of columns)
    if (!(c in v)) throw bad(file, path, `gives no value for ${c}: an intersection's reference names every column`);
  return Object.fromEntries(columns.map((c) => [c, str(v[c], file, `${path}.${c}`)]));
}

function parseRule(r: unknown, i: number, file: string): PolicyRule {
  const path = `rules[${i}]`;
  if (!isObject(r))
    throw bad(file, path, `expected an object {metric, attribute, min/max/maxAbs, …}, got ${JSON.stringify(r)}`);
  keysOf(r, RULE_KEYS, file, path, 'a rule');
  if (r.metric === undefined) throw bad(file, path, `gives no metric; the metrics are: ${ruleMetricList()}`);
  const name = str(r.metric, file, `${path}.metric`);
  const metric = RULE_METRICS.find((m) => m.name === name);
  if (!metric)
    throw bad(
      file,
      `${path}.metric`,
      `"${name}" is not a metric${hint(
        name,
        RULE_METRICS.map((m) => m.name),
      )}; the metrics are: ${ruleMetricList()}`,
    );
  const canon = metric.canonical ? CANONICAL_RULES[metric.canonical] : null;
  let attribute: string;
  if (canon?.attribute === 'none') {
    if (r.attribute !== undefined)
      throw bad(
        file,
        `${path}.attribute`,
        `${name} is a measure of the canonical sets, not of an attribute: leave attribute out (its groups are ` +
          `${CANONICAL_SIDES.join(' and ')})`,
      );
    attribute = 'canonical sets';
  } else {
    if (r.attribute === undefined)
      throw bad(
        file,
        path,
        canon
          ? `gives no attribute (${canon.attribute === 'protected' ? 'a protected column' : 'a column of the data'})`
          : 'gives no attribute (a column, or an intersection such as "Sex×Race")',
      );
    attribute = str(r.attribute, file, `${path}.attribute`);
  }
  const columns = canon?.attribute === 'none' ? [] : attributeColumns(attribute);
  if (columns.some((c) => c === ''))
    throw bad(
      file,
      `${path}.attribute`,
      `"${attribute}" has an empty column name; an intersection is written "Sex×Race"`,
    );
  if (new Set(columns).size !== columns.length)
    throw bad(file, `${path}.attribute`, `"${attribute}" names a column twice`);
  if (canon && columns.length > 1)
    throw bad(
      file,
      `${path}.attribute`,
      `${name} is checked on one column; "${attribute}" is an intersection (the heat map's cells of lucid audit are ` +
        `not rule groups)`,
    );
  const rule: PolicyRule = { id: '', path, metric, attribute, columns };
  if (r.id !== undefined) rule.id = str(r.id, file, `${path}.id`);
  if (metric.classRate !== null) {
    if (r.class === undefined)
      throw bad(file, path, `gives no class: ${name} is a rate of one class, e.g. "class": "decline"`);
    rule.class = str(r.class, file, `${path}.class`);
  } else if (r.class !== undefined)
    throw bad(
      file,
      `${path}.class`,
      `${name} is no rate of one class; a multiclass output's rules are ${ruleMetricsOf('multiclass').join(', ')}`,
    );
  if (r.description !== undefined) rule.description = str(r.description, file, `${path}.description`);
  const unit = metric.kind === 'difference' ? ' (fractions: 5 pp is 0.05)' : '';
  const inUnits = metric.kind === 'value' || metric.kind === 'value_difference';
  const range = (key: 'min' | 'max', lo: number, hi: number) => {
    if (r[key] === undefined) return;
    const v = num(r[key], file, `${path}.${key}`);
    if (v < lo || v > hi)
      throw bad(file, `${path}.${key}`, `${v} is outside [${lo}, ${hi}], the range of a ${metric.kind}${unit}`);
    rule[key] = v;
  };
  // a distance in the output's units (W1) has no upper end; a figure in units no end at all
  const [lo, hi] = inUnits
    ? [-Infinity, Infinity]
    : metric.kind === 'distance' && metric.output !== null && outputMetricDef(metric.output).units
      ? [0, Infinity]
      : metric.kind === 'rate' || metric.kind === 'distance'
        ? [0, 1]
        : metric.kind === 'difference'
          ? [-1, 1]
          : [0, Infinity];
  range('min', lo, hi);
  range('max', lo, hi);
  if (r.maxAbs !== undefined) {
    if (metric.kind !== 'difference' && metric.kind !== 'value_difference')
      throw bad(
        file,
        `${path}.maxAbs`,
        `maxAbs bounds a difference; ${name} is a ${metric.kind}: give min and/or ` +
          `max${metric.kind === 'ratio' ? ' (e.g. "min": 0.8, "max": 1.25)' : ''}`,
      );
    const v = num(r.maxAbs, file, `${path}.maxAbs`);
    if (v < 0 || (v > 1 && !inUnits))
      throw bad(file, `${path}.maxAbs`, `${v} is outside [0, 1], the range of |a difference|${unit}`);
    if (rule.min !== undefined || rule.max !== undefined)
      throw bad(file, `${path}.maxAbs`, 'give maxAbs, or min and/or max, not both');
    rule.maxAbs = v;
  }
  if (rule.min === undefined && rule.max === undefined && rule.maxAbs === undefined)
    throw bad(
      file,
      path,
      `gives no threshold: add min and/or max${metric.kind.includes('difference') ? ', or maxAbs' : ''}`,
    );
  if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max)
    throw bad(file, `${path}.max`, `${rule.max} is below min ${rule.min}`);
  if (r.reference !== undefined) {
    if (canon)
      throw bad(
        file,
        `${path}.reference`,
        `${name} compares the positive and negative canonical sets: it takes no reference`,
      );
    if (metric.kind === 'rate' || metric.kind === 'value')
      throw bad(
        file,
        `${path}.reference`,
        `${name} is each group's own ${metric.kind === 'rate' ? 'rate' : 'value'}: it has no reference`,
      );
    if (metric.yardstick)
      throw bad(
        file,
        `${path}.reference`,
        `${name} is by definition against the most selected group: it takes no reference`,
      );
    rule.reference = referenceOf(r.reference, columns, file, `${path}.reference`);
  }
  if (r.groups !== undefined) {
    if (!Array.isArray(r.groups) || r.groups.length === 0)
      throw bad(file, `${path}.groups`, `expected a non-empty list of group values, got ${JSON.stringify(r.groups)}`);
    rule.groups = r.groups.map((g, j) => str(g, file, `${path}.groups[${j}]`));
    if (canon && canon.attribute !== 'protected') {
      rule.groups.forEach((g, j) => {
        if (!(CANONICAL_SIDES as readonly string[]).includes(g))
          throw bad(
            file,
            `${path}.groups[${j}]`,
            `"${g}" is not a set; the groups of ${name} are ` +
              `${CANONICAL_SIDES.map((x) => JSON.stringify(x)).join(' and ')}`,
          );
      });
    }
  }
  if (r.onInsufficient !== undefined)
    rule.onInsufficient = oneOf(r.onInsufficient, ['skip', 'fail'] as const, file, `${path}.onInsufficient`);
  if (r.margin !== undefined) {
    rule.margin = num(r.margin, file, `${path}.margin`);
    if (rule.margin < 0) throw bad(file, `${path}.margin`, `expected a number ≥ 0, got ${rule.margin}`);
  }
  return rule;
}

/** The policy from parsed JSON; every error is one line naming the file and the JSON path of the bad entry. */
export function parsePolicy(json: unknown, file: string): Policy {
  if (!isObject(json))
    throw bad(
      file,
      '',
      `expected a JSON object {"version": ${POLICY_VERSION}, "rules": […]}, got ` +
        `${Array.isArray(json) ? 'an array' : JSON.stringify(json)}`,
    );
  keysOf(json, TOP_KEYS, file, '', 'a policy');
  if (json.version === undefined)
    throw bad(file, '', `gives no version; this lucid reads "version": ${POLICY_VERSION}`);
  if (json.version !== POLICY_VERSION)
    throw bad(
      file,
      'version',
      `${JSON.stringify(json.version)} is not a policy version this lucid reads (${POLICY_VERSION})`,
    );
  const policy: Policy = { file, version: POLICY_VERSION, inputs: {}, rules: [] };
  if (json.description !== undefined) policy.description = str(json.description, file, 'description');
  if (json.inputs !== undefined) {
    const inp = json.inputs;
    if (!isObject(inp))
      throw bad(file, 'inputs', `expected an object {label, positive, pred, …}, got ${JSON.stringify(inp)}`);
    keysOf(inp, INPUT_KEYS, file, 'inputs', 'inputs');
    for (const k of ['label', 'positive', 'pred'] as const)
      if (inp[k] !== undefined) policy.inputs[k] = str(inp[k], file, `inputs.${k}`);
    if (inp.output !== undefined) policy.inputs.output = oneOf(inp.output, OUTPUT_KIND_NAMES, file, 'inputs.output');
    const out = policy.inputs.output;
    if (inp.favourable !== undefined)
      policy.inputs.favourable =
        out === 'score' || out === 'regression'
          ? oneOf(inp.favourable, DIRECTIONS, file, 'inputs.favourable')
          : out === undefined
            ? oneOf(inp.favourable, ['positive', 'negative', ...DIRECTIONS] as const, file, 'inputs.favourable')
            : oneOf(inp.favourable, ['positive', 'negative'] as const, file, 'inputs.favourable');
    if (inp.threshold !== undefined) {
      const t = num(inp.threshold, file, 'inputs.threshold');
      // a score's cut is on its own scale
      if (out !== 'score' && (t < 0 || t > 1))
        throw bad(file, 'inputs.threshold', `expected a number in [0, 1], got ${t}`);
      policy.inputs.threshold = t;
    }
    if (inp.classOrder !== undefined) {
      if (!Array.isArray(inp.classOrder) || inp.classOrder.length < 2)
        throw bad(file, 'inputs.classOrder', `expected a list of classes, most favourable first`);
      policy.inputs.classOrder = inp.classOrder.map((c, j) => str(c, file, `inputs.classOrder[${j}]`));
    }
    if (inp.toleranceUnits !== undefined) {
      const d = num(inp.toleranceUnits, file, 'inputs.toleranceUnits');
      if (d <= 0) throw bad(file, 'inputs.toleranceUnits', `expected a number > 0, got ${d}`);
      policy.inputs.toleranceUnits = d;
    }
    if (inp.reference !== undefined) {
      if (!isObject(inp.reference))
        throw bad(
          file,
          'inputs.reference',
          `expected an object column → reference value, got ${JSON.stringify(inp.reference)}`,
        );
      policy.inputs.reference = Object.fromEntries(
        Object.entries(inp.reference).map(([c, v]) => [c, str(v, file, `inputs.reference.${c}`)]),
      );
    }
  }
  if (json.minGroup !== undefined) policy.minGroup = int(json.minGroup, file, 'minGroup', 0);
  if (json.suppressBelow !== undefined) policy.suppressBelow = int(json.suppressBelow, file, 'suppressBelow', 1);
  if (json.onInsufficient !== undefined)
    policy.onInsufficient = oneOf(json.onInsufficient, ['skip', 'fail'] as const, file, 'onInsufficient');
  if (json.margin !== undefined) {
    policy.margin = num(json.margin, file, 'margin');
    if (policy.margin < 0) throw bad(file, 'margin', `expected a number ≥ 0, got ${policy.margin}`);
  }
  if (!Array.isArray(json.rules) || json.rules.length === 0)
    throw bad(file, 'rules', `expected a non-empty list of rules, got ${JSON.stringify(json.rules)}`);
  policy.rules = json.rules.map((r, i) => parseRule(r, i, file));
  // ids: the given ones must be unique; a derived one is metric:attribute, numbered when it repeats
  const given = new Map<string, number>();
  policy.rules.forEach((r, i) => {
    if (!r.id) return;
    if (given.has(r.id)) throw bad(file, `rules[${i}].id`, `"${r.id}" is also the id of rules[${given.get(r.id)}]`);
    given.set(r.id, i);
  });
  const used = new Set(given.keys());
  for (const r of policy.rules) {
    if (r.id) continue;
    const stem =
      `${r.metric.name}${r.class !== undefined ? `[${r.class}]` : ''}:${r.attribute}` +
      `${r.reference ? `@${Object.values(r.reference).join(', ')}` : ''}`;
    let id = stem;
    for (let k = 2; used.has(id); k++) id = `${stem}#${k}`;
    used.add(id);
    r.id = id;
  }
  if (policy.inputs.output !== undefined) requireKind(policy, policy.inputs.output, 'as its inputs.output says');
  return policy;
}

// ── checking ────────────────────────────────────────────────────────────────────────────────────────

/** What the check reads: the policy's inputs, with the command line's over them. */
export interface CheckSettings {
  label: string;
  positive?: string;
  favourable: Favourable;
  pred: string;
  threshold: number;
  minGroup: number;
  suppressBelow?: number;
  onInsufficient: OnInsufficient;
  margin: number;
  /** bootstrap resamples for intervals of differences (0: none) and the generator they come from */
  bootstrap: number;
  rng?: Rng;
  /** `--allow-inverted-scores`: scores ranking the label worse than chance are checked as given (metrics/fit.ts) */
  allowInvertedScores?: boolean;
}

export type CheckStatus = 'pass' | 'fail' | 'insufficient data';

export interface BaselineCompare {
  /** the baseline's value (null: none comparable) */
  value: number | null;
  /** now − baseline */
  change: number | null;
  /** how far the value moved toward the rule's threshold (positive: worse) */
  worse: number | null;
  margin: number;
  status: 'regressed' | 'within margin' | 'improved' | 'no baseline value';
  reason?: string;
}

export interface RuleCheck {
  rule: string;
  metric: string;
  kind: RuleKind;
  attribute: string;
  group: string;
  /** the reference group of a difference or ratio; the most selected group of a yardstick; null for a rate */
  reference: string | null;
  n: number;
  referenceN: number | null;
  value: number | null;
  /** the interval shown beside the value (never used to pass or fail) */
  interval: { lo: number; hi: number; method: string } | null;
  /** the metrics verdict of the same comparison (judged metrics' differences and ratios), for context */
  verdict: Verdict | null;
  /**
   * canonical-set rules: the audit's check beside the value (e.g. "data agrees", "KS, noise floor 0.041, faithful"),
   * for context
   */
  context?: string;
  /** a multiclass rule's class (the rate of receiving it, or its FNR or FPR) */
  class?: string;
  /** the threshold as text: "≥ 0.8", "|·| ≤ 0.05" */
  threshold: string;
  status: CheckStatus;
  /** whether it fails the gate: a crossing, or insufficient data under onInsufficient "fail", or a regression */
  fails: boolean;
  reason?: string;
  baseline?: BaselineCompare;
}

/** The inputs of a check on a score, multiclass or regression output: its kind, why, and its favourable side. */
export interface OutputInputs {
  label: string;
  pred: string;
  output: OutputInfo;
  /** a score: the positive label value and the cut of its threshold view */
  positive?: string;
  threshold?: number;
}

export interface CheckResult {
  tool: 'lucid check';
  resultVersion: number;
  policy: {
    file: string;
    version: number;
    description?: string;
    rules: {
      id: string;
      metric: string;
      kind: RuleKind;
      attribute: string;
      threshold: string;
      onInsufficient: OnInsufficient;
      margin: number;
      description?: string;
      /** a multiclass rule's class */
      class?: string;
    }[];
  };
  data: { source: string; rows: number };
  /** the metrics' inputs, as the metrics report states them (a score, multiclass or regression output: its kind) */
  inputs: Pick<MetricsReport, 'label' | 'positive' | 'favourable' | 'pred' | 'predKind' | 'threshold'> | OutputInputs;
  minGroup: number;
  suppressBelow: number | null;
  /**
   * how the metrics verdicts shown beside the values were reached (binary: one Holm family over every table checked);
   * `band` in words for an output of another kind (a regression's may be in its units)
   */
  verdicts: { tolerance: number | null; alpha: number; correction: string; band?: string };
  checks: RuleCheck[];
  baseline: {
    source: string;
    format: 'lucid check' | 'audit.json';
    margin: number;
    compared: number;
    regressed: number;
    missing: number;
    notes: string[];
  } | null;
  counts: { checks: number; pass: number; fail: number; insufficient: number; regressed: number; failing: number };
  passed: boolean;
  warnings: string[];
  /** the model's fit (metrics/fit.ts): one line, and why it is weak (said first in the summary; empty: it is not) */
  fit: { line: string; weak: string[] };
  /**
   * checked on an audit (lucid check --model, lucid audit --policy): how its canonical sets were made, and whether it
   * was interrupted (its first line)
   */
  audit?: { gan: string; canonicalRows: { positive: number; negative: number }; out?: string; interrupted?: string };
}

/** The threshold of a rule as text, in the metric's unit. */
export function thresholdText(r: Pick<PolicyRule, 'min' | 'max' | 'maxAbs'>, kind: RuleKind): string {
  const f = (v: number) => formatValue(v, kind);
  if (r.maxAbs !== undefined)
    return `|·| ≤ ${formatValue(r.maxAbs, kind === 'value_difference' ? 'value' : 'difference', false)}`;
  if (r.min !== undefined && r.max !== undefined) return `${f(r.min)} … ${f(r.max)}`;
  return r.min !== undefined ? `≥ ${f(r.min)}` : `≤ ${f(r.max!)}`;
}

/** A value in its unit: a rate as a percentage, a difference in percentage points, a ratio as a number. */
export function formatValue(v: number | null, kind: RuleKind, signed = true): string {
  if (v === null) return MISSING.text;
  if (kind === 'value' || kind === 'value_difference') {
    // the output's units (a credit limit, years): six significant digits, the sign of a difference always said
    const t = Math.abs(v).toLocaleString('en-US', { maximumSignificantDigits: 6 });
    return `${v < 0 ? '−' : kind === 'value_difference' && signed && v > 0 ? '+' : ''}${t}`;
  }
  if (kind === 'distance') return v.toFixed(3);
  if (kind === 'rate') return pctText(v);
  if (kind === 'difference') return fmtPpSigned(v, 2, MISSING.text, signed);
  return `${v < 0 ? '−' : ''}${Math.abs(v).toFixed(3)}`;
}

/** A baseline margin in the unit of the rule's values: percentage points for rates and differences. */
export const marginText = (m: number, kind: RuleKind): string =>
  kind === 'ratio' || kind === 'distance' || kind === 'value' || kind === 'value_difference'
    ? String(m)
    : formatValue(m, 'difference', false);

/** The kind a change of a rule's value is written in: a rate's change in points, a value's in the output's units. */
export const changeKind = (kind: RuleKind): RuleKind =>
  kind === 'rate' ? 'difference' : kind === 'value' ? 'value_difference' : kind;

/** Whether `v` satisfies the rule. */
/**
 * Rounding slack of a comparison: a share difference that is exactly 0.1 may be computed as 0.10000000000000003, which
 * is no crossing of 0.1.
 */
const SLACK = 1e-12;
const within = (r: PolicyRule, v: number) =>
  r.maxAbs !== undefined
    ? Math.abs(v) <= r.maxAbs + SLACK
    : (r.min === undefined || v >= r.min - SLACK) && (r.max === undefined || v <= r.max + SLACK);

/** How far `v` is toward (positive: past) the rule's nearer bound: what "worse" measures. */
export function badness(r: PolicyRule, v: number): number {
  if (r.maxAbs !== undefined) return Math.abs(v);
  if (r.min !== undefined && r.max !== undefined) return Math.max(r.min - v, v - r.max);
  return r.min !== undefined ? -v : v;
}

/** The attribute's name in the metrics output ("Sex × Race" for an intersection). */
export const attributeKey = (columns: readonly string[]) => columns.join(' × ');

/**
 * The values of one rule on one attribute's metrics (`a`, from groupMetrics), one per group: the same
 * function reads the data checked now and an audit.json baseline.
 */
export type RuleValue = Omit<RuleCheck, 'status' | 'fails' | 'threshold' | 'baseline'>;

/** A rule's value for one group before anything is measured: every measurement null, for the caller to fill. */
export function emptyRuleValue(rule: PolicyRule, group: string, n: number): RuleValue {
  return {
    rule: rule.id,
    metric: rule.metric.name,
    kind: rule.metric.kind,
    attribute: rule.attribute,
    group,
    reference: null,
    n,
    referenceN: null,
    value: null,
    interval: null,
    verdict: null,
  };
}

export function ruleValues(rule: PolicyRule, a: AttributeResult, report: MetricsReport): RuleValue[] {
  const m = rule.metric;
  const minGroup = report.minGroupSize;
  const byValue = new Map(a.groups.map((g) => [g.value, g]));
  const out: RuleValue[] = [];
  const base = (group: string, n: number): RuleValue => emptyRuleValue(rule, group, n);
  const smallReason = (value: string, n: number, suppressed: boolean) =>
    suppressed
      ? `${value} is suppressed (fewer than ${report.suppressBelow} rows)`
      : `${value} has ${n} rows (fewer than ${minGroup})`;
  const refGroup = byValue.get(a.reference.value)!;
  const wanted = (v: string) => !rule.groups || rule.groups.includes(v);
  for (const g of a.groups) {
    if (!wanted(g.value)) continue;
    const c = base(g.value, g.n);
    if (m.yardstick === 'four_fifths') {
      c.reference = a.fourFifths.reference;
      c.referenceN = c.reference === null ? null : byValue.get(c.reference)!.n;
      c.value = a.fourFifths.ratio[g.value] ?? null;
      if (g.small) c.reason = smallReason(g.value, g.n, g.suppressed);
      else if (c.reference === null) c.reason = `every group of ${a.column} is small: there is no most selected group`;
      else if (c.value === null) c.reason = `the most selected group's selection rate is 0`;
    } else if (m.yardstick === 'impact_ratio') {
      const row = a.impact.rows.find((x) => x.category === g.value)!;
      c.reference = a.impact.highest;
      c.referenceN = c.reference === null ? null : byValue.get(c.reference)!.n;
      c.value = row.impactRatio;
      if (g.small) c.reason = smallReason(g.value, g.n, g.suppressed);
      else if (row.excluded)
        c.reason =
          `${g.value} holds ${pctText(row.share)} of the rows, under LL144's ` +
          `${100 * a.impact.minShare}%: no impact ratio`;
      else if (c.value === null) c.reason = "the highest category's rate is 0";
    } else if (m.kind === 'rate') {
      const metric = m.base!;
      c.value = g[metric];
      if (g.small) c.reason = smallReason(g.value, g.n, g.suppressed);
      else if (c.value === null)
        c.reason = `the ${METRIC_DEFS[metric].label} of ${g.value} is undefined (no rows in its denominator)`;
      else if (g.tp !== null) {
        const counts = { tp: g.tp, fp: g.fp!, tn: g.tn!, fn: g.fn! };
        const w = wilsonInterval(
          metricDef(metric).num(counts, report.favourable),
          metricDef(metric).den(counts, report.favourable),
        );
        if (w) c.interval = { ...w, method: 'Wilson 95%' };
      }
    } else {
      if (g.value === a.reference.value) continue;
      const metric = m.base!;
      c.reference = a.reference.value;
      c.referenceN = refGroup.n;
      const d = a.disparities[metric];
      c.value = m.kind === 'difference' ? (d.difference[g.value] ?? null) : (d.ratio[g.value] ?? null);
      const cmp = a.comparisons.find((x) => x.metric === metric && x.group === g.value);
      if (cmp) c.verdict = cmp.verdict;
      if (g.small) c.reason = smallReason(g.value, g.n, g.suppressed);
      else if (refGroup.small)
        c.reason = `the reference ${smallReason(refGroup.value, refGroup.n, refGroup.suppressed)}`;
      else if (c.value === null)
        c.reason =
          `the ${METRIC_DEFS[metric].label} ${m.kind} is undefined for ${g.value} (an empty ` +
          `denominator${m.kind === 'ratio' ? ", or the reference's rate is 0" : ''})`;
      else {
        const boot = m.kind === 'difference' ? d.ci?.difference[g.value] : d.ci?.ratio[g.value];
        if (boot && boot.lo !== null && boot.hi !== null)
          c.interval = {
            lo: boot.lo,
            hi: boot.hi,
            method: `bootstrap ${100 * (report.bootstrap?.confidence ?? 0.95)}%`,
          };
        else if (m.kind === 'ratio' && cmp?.interval && cmp.level !== null)
          c.interval = { ...cmp.interval, method: `Katz at the Holm-corrected level ${cmp.level.toPrecision(2)}` };
      }
    }
    out.push(c);
  }
  return out;
}

/** The distinct values of a group column as groupMetrics names them (missing tokens left out). */
function columnValues(table: Table, column: string): string[] {
  const c = getColumn(table, column, 'check');
  const vs =
    c.kind === 'numeric'
      ? [
          ...new Set(
            Array.from(c.values)
              .filter((v) => !Number.isNaN(v))
              .map(String),
          ),
        ]
      : c.categories.filter((_, k) => c.codes.includes(k));
  return vs.filter((v) => !isMissing(v));
}

/**
 * Checks the policy's columns against the data (`where`: the data file, for messages): the label and
 * prediction columns, every rule's attribute columns, references and groups. Usage errors (exit 2)
 * naming the policy file and the JSON path.
 */
export function validateAgainstData(table: Table, policy: Policy, s: CheckSettings, where: string): void {
  const names = table.columns.map((c) => c.name);
  const col = (name: string, path: string) => {
    if (!names.includes(name))
      throw new UnknownColumnError(
        `${policy.file}: ${path}: "${name}" is not a column of ${where}${hint(name, names)}; the columns are: ` +
          `${names.join(', ')}`,
        name,
        names,
      );
  };
  const values = new Map<string, string[]>();
  const valuesOf = (c: string) => {
    const known = values.get(c);
    if (known !== undefined) return known;
    const v = columnValues(table, c);
    values.set(c, v);
    return v;
  };
  for (const [c, v] of Object.entries(policy.inputs.reference ?? {})) {
    col(c, `inputs.reference.${c}`);
    if (!valuesOf(c).includes(v))
      throw bad(
        policy.file,
        `inputs.reference.${c}`,
        `"${v}" is not a value of ${c} in ${where}${hint(v, valuesOf(c))}; its values are: ` +
          `${valuesOf(c).slice(0, 20).join(', ')}`,
      );
  }
  for (const r of policy.rules) {
    for (const c of r.columns) {
      col(c, `${r.path}.attribute`);
      if (c === s.label || c === s.pred)
        throw bad(
          policy.file,
          `${r.path}.attribute`,
          `"${c}" is the ${c === s.label ? 'label' : 'prediction'} column; an attribute is a protected column`,
        );
      const column = getColumn(table, c, 'check');
      const k = valuesOf(c).length;
      if (column.kind === 'numeric' && k > POLICY_DEFAULTS.maxNumericGroups)
        throw bad(
          policy.file,
          `${r.path}.attribute`,
          `${c} is numeric with ${k} distinct values; lucid check does not bin: add a column of bins (e.g. age ` +
            `bands) and name it`,
        );
    }
    for (const [c, v] of Object.entries(r.reference ?? {})) {
      if (!valuesOf(c).includes(v))
        throw bad(
          policy.file,
          `${r.path}.reference${r.columns.length > 1 ? `.${c}` : ''}`,
          `"${v}" is not a value of ${c} in ${where}${hint(v, valuesOf(c))}; its values are: ` +
            `${valuesOf(c).slice(0, 20).join(', ')}`,
        );
    }
  }
}

/** A usage error when the policy has canonical-set rules and `what` (the command as run) has no model to audit. */
export function requireNoCanonical(policy: Policy, what: string): void {
  const c = canonicalRules(policy);
  if (!c.length) return;
  const r = c[0];
  throw bad(
    policy.file,
    `${r.path}.metric`,
    `rule "${r.id}" is a ${r.metric.name} ` +
      `rule${c.length > 1 ? ` (and ${c.length - 1} more canonical-set rule${c.length > 2 ? 's' : ''})` : ''}: it ` +
      `needs the canonical sets of a LUCID-GAN, which ${what} cannot make: give --model <file> (the model to ` +
      `audit; lucid check then runs lucid audit's GAN, minutes on large data: see --gan-schedule fast and ` +
      `--gan-rows)`,
  );
}

/**
 * The reference a rule's attribute is computed against: the rule's, else the inputs', else none (the largest group that
 * is not small).
 */
export function referenceFor(rule: PolicyRule, policy: Policy): Record<string, string> | undefined {
  if (rule.reference) return rule.reference;
  const given = policy.inputs.reference ?? {};
  const cols = rule.columns.filter((c) => given[c] !== undefined);
  // an intersection takes the inputs' references only when every column has one
  return cols.length === rule.columns.length ? Object.fromEntries(cols.map((c) => [c, given[c]])) : undefined;
}

/** The check's final status of one value. */
/** The policy as a check result states it: its file, version and rules with their thresholds. */
export function policySummary(policy: Policy, s: CheckSettings): CheckResult['policy'] {
  return {
    file: policy.file,
    version: policy.version,
    ...(policy.description ? { description: policy.description } : {}),
    rules: policy.rules.map((r) => ({
      id: r.id,
      metric: r.metric.name,
      kind: r.metric.kind,
      attribute: r.attribute,
      threshold: thresholdText(r, r.metric.kind),
      onInsufficient: r.onInsufficient ?? s.onInsufficient,
      margin: r.margin ?? s.margin,
      ...(r.description ? { description: r.description } : {}),
      ...(r.class !== undefined ? { class: r.class } : {}),
    })),
  };
}

export function judge(rule: PolicyRule, v: RuleValue, s: CheckSettings): RuleCheck {
  const onInsufficient = rule.onInsufficient ?? s.onInsufficient;
  const threshold = thresholdText(rule, rule.metric.kind);
  if (v.reason !== undefined || v.value === null)
    return { ...v, threshold, status: 'insufficient data', fails: onInsufficient === 'fail' };
  const ok = within(rule, v.value);
  return { ...v, threshold, status: ok ? 'pass' : 'fail', fails: !ok };
}

/**
 * One metrics run per attribute and reference, made by `make` on the first rule that needs it and shared by the rules
 * after it: each rule with its run, and the runs in the order they were made.
 */
export function runsPerAttribute<R>(
  policy: Policy,
  make: (rule: PolicyRule, reference: Record<string, string> | undefined) => R,
): { perRule: { rule: PolicyRule; run: R }[]; runs: R[] } {
  const runs = new Map<string, R>();
  const perRule = policy.rules.map((rule) => {
    const reference = referenceFor(rule, policy);
    const key = JSON.stringify([rule.columns, reference ?? null]);
    let run = runs.get(key);
    if (run === undefined) {
      run = make(rule, reference);
      runs.set(key, run);
    }
    return { rule, run };
  });
  return { perRule, runs: [...runs.values()] };
}

/** The metrics options of a rule's attribute (its columns, intersected when several) and the check's settings. */
export function attributeOptions(rule: PolicyRule, reference: Record<string, string> | undefined, s: CheckSettings) {
  return {
    groups: rule.columns,
    intersect: rule.columns.length > 1,
    reference,
    minGroupSize: s.minGroup,
    suppressBelow: s.suppressBelow,
    bootstrap: s.bootstrap,
    allowInvertedScores: s.allowInvertedScores,
  };
}

/**
 * Checks every rule of `policy` on `table` (a data file with a predictions column; `where` names it).
 * groupMetrics runs once per attribute and reference; its verdicts are corrected together (one Holm
 * family over every table checked).
 */
export function checkPolicy(table: Table, policy: Policy, s: CheckSettings, where: string): CheckResult {
  requireNoCanonical(policy, 'lucid check without --model');
  validateAgainstData(table, policy, s, where);
  const { perRule, runs } = runsPerAttribute(policy, (rule, reference) => {
    const report = groupMetrics(table, {
      label: s.label,
      positive: s.positive,
      favourable: s.favourable,
      pred: s.pred,
      threshold: s.threshold,
      ...attributeOptions(rule, reference, s),
      rng: s.rng,
    });
    return { report, attr: report.attributes[0] };
  });
  const reports = runs.map((r) => r.report);
  correctTogether(reports);
  const checks: RuleCheck[] = [];
  for (const { rule, run } of perRule) {
    const groups = run.attr.groups.map((g) => g.value);
    rule.groups?.forEach((g, j) => {
      if (!groups.includes(g))
        throw bad(
          policy.file,
          `${rule.path}.groups[${j}]`,
          `"${g}" is not a group of ${run.attr.column} in ${where}${hint(g, groups)}; the groups are: ` +
            `${groups.slice(0, 20).join('; ')}`,
        );
    });
    for (const v of ruleValues(rule, run.attr, run.report)) checks.push(judge(rule, v, s));
  }
  const first = reports[0];
  const warnings = [...new Set(reports.flatMap((r) => r.warnings))];
  for (const { rule } of perRule)
    if (!checks.some((c) => c.rule === rule.id))
      warnings.push(`${rule.id}: checks no group (its only group is the reference)`);
  const result: CheckResult = {
    tool: 'lucid check',
    resultVersion: CHECK_RESULT_VERSION,
    policy: policySummary(policy, s),
    data: { source: where, rows: table.rows },
    inputs: {
      label: s.label,
      positive: first.positive,
      favourable: s.favourable,
      pred: s.pred,
      predKind: first.predKind,
      threshold: first.threshold,
    },
    minGroup: s.minGroup,
    suppressBelow: s.suppressBelow ?? null,
    verdicts: {
      tolerance: first.verdicts.tolerance,
      alpha: first.verdicts.alpha,
      correction:
        `Holm over the ${first.verdicts.comparisons} comparisons of the ${reports.length} ` +
        `table${reports.length > 1 ? 's' : ''} checked together`,
    },
    ...uncounted(checks, warnings, first.fit),
  };
  recount(result);
  return result;
}

/**
 * A result's closing fields as both checks build them, in the result's key order: the checks and warnings, no
 * baseline yet, counts and verdict for recount to set, and the model's fit.
 */
export function uncounted(
  checks: RuleCheck[],
  warnings: string[],
  /** the model's fit, or its line and notes as written (an output kind without a fit says so) */
  fit: MetricsReport['fit'] | CheckResult['fit'],
): Pick<CheckResult, 'checks' | 'baseline' | 'counts' | 'passed' | 'warnings' | 'fit'> {
  return {
    checks,
    baseline: null,
    counts: { checks: 0, pass: 0, fail: 0, insufficient: 0, regressed: 0, failing: 0 },
    passed: true,
    warnings,
    fit: 'line' in fit ? fit : { line: fitLine(fit), weak: fit.weak },
  };
}

export function recount(r: CheckResult): void {
  const c = r.checks;
  r.counts = {
    checks: c.length,
    pass: c.filter((x) => x.status === 'pass').length,
    fail: c.filter((x) => x.status === 'fail').length,
    insufficient: c.filter((x) => x.status === 'insufficient data').length,
    regressed: c.filter((x) => x.baseline?.status === 'regressed').length,
    failing: c.filter((x) => x.fails).length,
  };
  r.passed = r.counts.failing === 0;
}

// ── the baseline ────────────────────────────────────────────────────────────────────────────────────

/**
 * The audit's metrics table of an output rule's attribute (a numeric protected column is found under
 * its group column, "Age (binned)", by either name), or a note saying why there is none comparable.
 */
export function auditTable(
  rule: PolicyRule,
  policy: Policy,
  reports: MetricsReport[],
  prot: readonly { column: string; groupColumn: string }[],
): { r: MetricsReport; a: AttributeResult } | { note: string } {
  const key = attributeKey(rule.columns.map((c) => prot.find((p) => p.column === c)?.groupColumn ?? c));
  const all = reports.flatMap((r) => (Array.isArray(r.attributes) ? r.attributes.map((a) => ({ r, a })) : []));
  const found = all.find(({ a }) => isObject(a) && a.column === key);
  if (!found)
    return {
      note: `${rule.id}: the audit has no table of ${key} (its attributes: ${all.map(({ a }) => a.column).join(', ')})`,
    };
  const want = referenceFor(rule, policy);
  const wantValue = want ? rule.columns.map((c) => want[c]).join(', ') : null;
  if (
    (rule.metric.kind === 'difference' || rule.metric.kind === 'ratio') &&
    !rule.metric.yardstick &&
    wantValue !== null &&
    found.a.reference.value !== wantValue
  ) {
    return {
      note:
        `${rule.id}: the audit's reference of ${key} is ${found.a.reference.value}, the rule's ${wantValue}: not ` +
        `comparable`,
    };
  }
  return found;
}

/** A failing policy (exit 3, EXIT.policy in src/cli/handle-error.ts), raised after every output is written. */
export class PolicyFailure extends Error {
  readonly counts: CheckResult['counts'];
  constructor(message: string, counts: CheckResult['counts']) {
    super(message);
    this.name = 'PolicyFailure';
    this.counts = counts;
  }
}

/**
 * The one line a failing check says: "fairness policy failed: 2 of 9 checks fail, 1 regression (fairness.json on
 * scored.csv)".
 */
export function failureLine(r: CheckResult): string {
  const parts = [
    `${r.counts.fail} of ${r.counts.checks} check${r.counts.checks === 1 ? '' : 's'} ` +
      `cross${r.counts.fail === 1 ? 'es' : ''} a threshold`,
  ];
  const insufficientFails = r.checks.filter((c) => c.fails && c.status === 'insufficient data').length;
  if (insufficientFails) parts.push(`${insufficientFails} with insufficient data (onInsufficient "fail")`);
  if (r.counts.regressed)
    parts.push(`${r.counts.regressed} regression${r.counts.regressed > 1 ? 's' : ''} against ${r.baseline!.source}`);
  return `fairness policy failed: ${parts.join(', ')} (${r.policy.file} on ${r.data.source})`;
}
