// A policy check's baseline: the values of an earlier `lucid check --format json` or audit.json,
// read with the same rules as the check itself, and the comparison that turns a move toward a
// threshold by more than the margin into a regression. Its own file because it reads both policy
// checks on data (policy.ts) and on an audit's canonical sets (policy-audit.ts), which sit below it.
// Core code: no Node imports.
import { EngineError } from '../engine/errors.js';
import type { MetricsReport } from '../methods/metrics/index.js';
import { OUTPUT_KIND_NAMES, type OutputKind } from '../methods/metrics/outputs.js';
import { canonicalValues, type AuditView } from './policy-audit.js';
import {
  auditTable,
  badness,
  CHECK_RESULT_VERSION,
  isObject,
  recount,
  ruleValues,
  type CheckResult,
  type CheckSettings,
  type Policy,
} from './policy.js';

/** A baseline as read: per (rule, group), its value, or why there is none. */
export interface Baseline {
  source: string;
  format: 'lucid check' | 'audit.json';
  /** the output kind it was checked on (binary for results and audits that do not say) */
  kind: OutputKind;
  /** key(rule id, group) → value */
  values: Map<string, { value: number | null; reason?: string }>;
  notes: string[];
}

const keyOf = (rule: string, group: string) => `${rule}\u0000${group}`;

/**
 * The audit version whose canonical shifts are favourable set − unfavourable set; earlier audits of a
 * favourable-negative model have the other sign.
 */
const ORIENTED_SINCE = '0.2.0';
const olderThan = (v: unknown, than: string) =>
  typeof v === 'string' &&
  v
    .split('.')
    .map(Number)
    .reduce((c, x, i) => c || x - Number(than.split('.')[i] ?? 0), 0) < 0;

/** The output kind a result or an audit states (`output.kind`); binary when it states none, as before the kinds. */
const kindOf = (o: unknown): OutputKind =>
  isObject(o) && OUTPUT_KIND_NAMES.includes(o.kind as OutputKind) ? (o.kind as OutputKind) : 'binary';

/** A value from a baseline: a finite number, or none (a metric the older file does not have gives undefined). */
const usable = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The baseline from parsed JSON (`source` names the file): a `lucid check --format json` result, or
 * the audit.json of `lucid audit` (its group metrics are read with the same rules). Anything else is
 * a data error (exit 1) naming the file.
 */
export function readBaseline(json: unknown, source: string, policy: Policy, s: CheckSettings): Baseline {
  const notes: string[] = [];
  const values: Baseline['values'] = new Map();
  if (isObject(json) && json.tool === 'lucid check') {
    // version 1 is read too: its canonical shifts of a favourable-negative audit were positive set − negative set
    if (!(json.resultVersion === CHECK_RESULT_VERSION || json.resultVersion === 1) || !Array.isArray(json.checks))
      throw new EngineError(
        'E_INPUT',
        `${source}: a lucid check result of version ${JSON.stringify(json.resultVersion)}; this lucid reads versions ` +
          `1 and ${CHECK_RESULT_VERSION}`,
      );
    const inp = isObject(json.inputs) ? json.inputs : {};
    const turn = json.resultVersion === 1 && inp.favourable === 'negative';
    if (turn)
      notes.push(
        'the baseline is a version-1 result, whose canonical shifts of a favourable-negative audit were positive set ' +
          '− negative set: they are read turned round, as favourable − unfavourable',
      );
    for (const [i, c] of (json.checks as unknown[]).entries()) {
      if (
        !isObject(c) ||
        typeof c.rule !== 'string' ||
        typeof c.group !== 'string' ||
        !(c.value === null || typeof c.value === 'number')
      )
        throw new EngineError('E_INPUT', `${source}: checks[${i}] is not a check (rule, group, value)`);
      const value = turn && c.metric === 'canonical_shift' && c.value !== null ? 0 - c.value : c.value;
      values.set(keyOf(c.rule, c.group), {
        value,
        ...(value === null
          ? { reason: `insufficient data there${typeof c.reason === 'string' ? `: ${c.reason}` : ''}` }
          : {}),
      });
    }
    for (const k of ['label', 'pred', 'favourable'] as const)
      if (inp[k] !== undefined && inp[k] !== s[k])
        notes.push(`the baseline's ${k} is ${JSON.stringify(inp[k])}, here ${JSON.stringify(s[k])}`);
    if (json.minGroup !== undefined && json.minGroup !== s.minGroup)
      notes.push(`the baseline's minGroup is ${String(json.minGroup)}, here ${s.minGroup}`);
    return { source, format: 'lucid check', kind: kindOf(inp.output), values, notes };
  }
  if (isObject(json) && isObject(json.meta) && isObject(json.metrics) && isObject(json.metrics.attributes)) {
    const meta = json.meta;
    const kind = kindOf(meta.output);
    const other = policy.rules.find((r) => !r.metric.kinds.includes(kind));
    if (other)
      throw new EngineError(
        'E_INPUT',
        `${source}: the baseline is an audit of a ${kind} output; rule "${other.id}" is on ${other.metric.name}, a ` +
          `metric of ${other.metric.kinds.join(' and ')} outputs: the kinds differ, so no value compares`,
      );
    const reports = [json.metrics.attributes, json.metrics.intersection].filter(isObject) as unknown as MetricsReport[];
    if (meta.label !== s.label)
      notes.push(`the audit's label is ${JSON.stringify(meta.label)}, here ${JSON.stringify(s.label)}`);
    if (meta.favourable !== undefined && meta.favourable !== s.favourable)
      notes.push(
        `the audit's favourable outcome is ${JSON.stringify(meta.favourable)}, here ${JSON.stringify(s.favourable)}`,
      );
    // an audit of version 1: its canonical shifts of a favourable-negative model were positive set − negative set
    const turn = meta.favourable === 'negative' && olderThan(meta.version, ORIENTED_SINCE);
    if (turn)
      notes.push(
        `the baseline audit was made by lucid-wasm ${String(meta.version)}, whose canonical shifts of a ` +
          `favourable-negative audit were positive set − negative set: they are read turned round, as favourable ` +
          `− unfavourable`,
      );
    for (const rule of policy.rules) {
      try {
        if (rule.metric.canonical) {
          for (const v of canonicalValues(rule, json as unknown as AuditView, s)) {
            const value =
              v.reason === undefined
                ? turn && rule.metric.canonical === 'canonical_shift' && v.value !== null
                  ? 0 - v.value
                  : v.value
                : null;
            values.set(keyOf(rule.id, v.group), {
              value,
              ...(v.reason !== undefined ? { reason: `insufficient data there: ${v.reason}` } : {}),
            });
          }
          continue;
        }
      } catch (e) {
        notes.push(`${rule.id}: the audit's canonical sets cannot be read (${(e as Error).message})`);
        continue;
      }
      const found = auditTable(
        rule,
        policy,
        reports,
        Array.isArray(json.protected) ? (json.protected as AuditView['protected']) : [],
      );
      if ('note' in found) {
        notes.push(found.note);
        continue;
      }
      // a metric an older audit does not have (selection_rate, tnr before version 2): no baseline value, said once
      const base = rule.metric.base;
      if (base !== null && found.a.groups.length > 0 && !(base in found.a.groups[0])) {
        notes.push(
          `${rule.id}: the baseline audit has no ${base} (made by lucid-wasm ${String(meta.version)}): no baseline ` +
            `value`,
        );
        continue;
      }
      try {
        for (const v of ruleValues(rule, found.a, found.r)) {
          const ok = v.reason === undefined && (v.value === null || usable(v.value));
          values.set(keyOf(rule.id, v.group), {
            value: ok ? v.value : null,
            ...(v.reason !== undefined
              ? { reason: `insufficient data there: ${v.reason}` }
              : !ok
                ? { reason: 'the baseline holds no number for it' }
                : {}),
          });
        }
      } catch (e) {
        throw new EngineError(
          'E_INPUT',
          `${source}: the audit's table of ${found.a.column} cannot be read (${(e as Error).message})`,
        );
      }
    }
    return { source, format: 'audit.json', kind, values, notes };
  }
  throw new EngineError(
    'E_INPUT',
    `${source}: not a baseline: expected the JSON of lucid check --format json (with "tool": "lucid check") or an ` +
      `audit.json of lucid audit`,
  );
}

/**
 * Compares every check with the baseline, in place: a move toward the threshold by more than the margin is a
 * regression, and fails.
 */
export function compareBaseline(result: CheckResult, policy: Policy, baseline: Baseline, s: CheckSettings): void {
  const kind: OutputKind = 'output' in result.inputs ? result.inputs.output.kind : 'binary';
  if (baseline.kind !== kind)
    throw new EngineError(
      'E_INPUT',
      `${baseline.source}: the baseline was checked on a ${baseline.kind} output, this check is on a ${kind} output: ` +
        `the kinds differ, so no value compares (give a baseline of the same output kind)`,
    );
  const rules = new Map(policy.rules.map((r) => [r.id, r]));
  let compared = 0;
  let missing = 0;
  for (const c of result.checks) {
    const rule = rules.get(c.rule)!;
    const margin = rule.margin ?? s.margin;
    const b = baseline.values.get(keyOf(c.rule, c.group));
    if (!b || !usable(b.value) || c.value === null || c.status === 'insufficient data') {
      missing++;
      c.baseline = {
        value: b && usable(b.value) ? b.value : null,
        change: null,
        worse: null,
        margin,
        status: 'no baseline value',
        reason: !b
          ? 'the baseline has no value for this rule and group'
          : !usable(b.value)
            ? (b.reason ?? 'insufficient data there')
            : 'insufficient data here',
      };
      continue;
    }
    compared++;
    const worse = badness(rule, c.value) - badness(rule, b.value);
    // rounding: a value that did not move is not a regression of 1e-17
    const w = Math.abs(worse) < 1e-12 ? 0 : worse;
    const status = w > margin ? 'regressed' : w < 0 ? 'improved' : 'within margin';
    c.baseline = { value: b.value, change: c.value - b.value, worse: w, margin, status };
    if (status === 'regressed') c.fails = true;
  }
  const here = new Set(result.checks.map((c) => keyOf(c.rule, c.group)));
  const gone = [...baseline.values.keys()].filter((k) => !here.has(k)).map((k) => k.replace('\u0000', ' / '));
  const notes = [...baseline.notes];
  if (gone.length)
    notes.push(
      `${gone.length} baseline value${gone.length > 1 ? 's have' : ' has'} no check here: ` +
        `${gone.slice(0, 5).join('; ')}${gone.length > 5 ? '; …' : ''}`,
    );
  result.baseline = {
    source: baseline.source,
    format: baseline.format,
    margin: s.margin,
    compared,
    regressed: result.checks.filter((c) => c.baseline?.status === 'regressed').length,
    missing,
    notes,
  };
  recount(result);
}
