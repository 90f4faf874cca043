// The fairness gate on an audit: a policy checked against an AuditResult, for `lucid check
// --model` (which runs the audit) and `lucid audit --policy`. Output-based rules read the audit's
// group-metrics tables (the same ruleValues as on a data file); canonical-set rules read the canonical
// sets and the audit's checks of them against the real rows (src/audit/checks.ts), the quantities the
// report prints:
//   canonical_shift    per value of a protected attribute: the pooled canonical shift (share in the
//                      favourable set − share in the unfavourable set), with the real rows' shift and its
//                      corrected interval beside it; a value whose check 'disagrees' (the sets contradict
//                      the data), or whose size the sets misstate (overstates, understates), or on which the GAN seeds
//                      do not share a sign (unsettled), is insufficient data with the reason, never a pass or a fail;
//                      a value with no check (suppressed) or a small group is insufficient data too;
//   canonical_validity per set: the share of the rows generated for it that the model scores on its
//                      side (with rejection sampling the acceptance rate, the kept rows being valid by
//                      construction; without it the validity); unknown when nothing scores the rows;
//   canonical_fidelity per feature and set: its KS / TV distance to the real rows on that side, with
//                      the noise floor beside it.
// Core code: no Node imports.
import { EngineError } from '../engine/errors.js';
import type { AuditResult } from './types.js';
import { SHIFT_STATUS_WORDS } from './checks.js';
import { fmtPpSigned } from '../data/text.js';
import {
  auditTable,
  CANONICAL_SIDES,
  CHECK_RESULT_VERSION,
  emptyRuleValue,
  formatValue,
  judge,
  policySummary,
  recount,
  ruleValues,
  uncounted,
  type CheckResult,
  type CheckSettings,
  type Policy,
  type PolicyRule,
  type RuleCheck,
  type RuleValue,
  requireKind,
} from './policy.js';

/** What the canonical rules read of an audit (an AuditResult, or the audit.json written from one). */
export type AuditView = Pick<AuditResult, 'checks' | 'canonical' | 'protected' | 'metrics' | 'meta'>;

/** A shift as the policy check writes a difference (formatValue's): 2 decimals, "n/a" when missing or not finite. */
const pp = (v: number | null | undefined) => fmtPpSigned(v, 2);

/** The acceptance rate of a side of the main sets' draws (rows scored on their side before rejection), or null. */
function acceptance(a: AuditView, side: 'positive' | 'negative'): { rate: number; drawn: number } | null {
  const d = a.canonical.draws;
  if (!d?.length || d.some((x) => x[side].acceptance === null)) return null;
  const drawn = d.reduce((t, x) => t + x[side].drawn, 0);
  return { rate: d.reduce((t, x) => t + (x[side].acceptance ?? 0) * x[side].drawn, 0) / Math.max(1, drawn), drawn };
}

/** One rule's values on an audit's canonical sets, one per group (a value, or a set). */
export function canonicalValues(rule: PolicyRule, a: AuditView, s: Pick<CheckSettings, 'minGroup'>): RuleValue[] {
  const m = rule.metric;
  const wanted = (g: string) => !rule.groups || rule.groups.includes(g);
  const base = (group: string, n: number): RuleValue => emptyRuleValue(rule, group, n);
  const out: RuleValue[] = [];
  if (m.canonical === 'canonical_validity') {
    const v = a.canonical.validity;
    for (const side of CANONICAL_SIDES) {
      if (!wanted(side)) continue;
      const acc = acceptance(a, side);
      const c = base(`${side} set`, 0);
      if (!v) {
        c.reason = 'nothing can score the generated rows: their validity is unknown';
      } else if (a.meta.gan.rejection && acc) {
        c.n = acc.drawn;
        c.value = acc.rate;
        c.context =
          `acceptance: rows drawn scored ${side}, before rejection; the ${v[side].rows} kept rows: ` +
          `${formatValue(v[side].rate, 'rate')} (by the ${a.canonical.validityScorer})`;
      } else {
        c.n = v[side].rows;
        c.value = v[side].rate;
        c.context =
          `validity by the ` +
          `${a.canonical.validityScorer}` +
          `${a.meta.gan.rejection ? '' : ' (every generated row kept: --no-rejection)'}`;
        if (c.value === null) c.reason = `the ${side} set has no rows`;
      }
      out.push(c);
    }
    return out;
  }
  const column = rule.columns[0];
  if (m.canonical === 'canonical_fidelity') {
    const f = a.checks.fidelity.find((x) => x.feature === column);
    if (!f)
      throw new EngineError(
        'E_ARG',
        `${rule.path}.attribute: "${column}" is not a generated feature of the audit (the label and the predictions ` +
          `are not generated); the features are: ${a.checks.fidelity.map((x) => x.feature).join(', ')}`,
      );
    for (const side of CANONICAL_SIDES) {
      if (!wanted(side)) continue;
      const sd = f[side];
      const c = base(`${side} set`, sd?.realRows ?? 0);
      if (!sd) c.reason = `no real row (or no generated row) is on the ${side} side`;
      else {
        c.value = sd.distance;
        c.context =
          `${f.metric}; noise floor ${sd.floor.toFixed(3)}; seeds ` +
          `${Math.min(...sd.perSeed).toFixed(3)}–${Math.max(...sd.perSeed).toFixed(3)}; ` +
          `${f.faithful ? 'faithful' : 'not faithful'} (both sides within max(floor, 0.1))`;
      }
      out.push(c);
    }
    return out;
  }
  // canonical_shift: every value of the protected attribute the checks hold (shares; the median of a numeric one is in
  // its own unit, left out)
  const prot = a.protected.find((p) => p.column === column || p.groupColumn === column);
  if (!prot)
    throw new EngineError(
      'E_ARG',
      `${rule.path}.attribute: "${column}" is not a protected attribute of the audit ` +
        `(${a.protected.map((p) => p.column).join(', ')}); a canonical_shift rule is on a protected column`,
    );
  const table = a.metrics.attributes.attributes.find((x) => x.column === prot.groupColumn);
  const groups = table
    ? table.groups.map((g) => ({ value: g.value, n: g.n, suppressed: g.suppressed }))
    : (prot.bins?.labels ?? []).map((value, i) => ({ value, n: prot.bins!.counts[i], suppressed: false }));
  const checks = a.checks.shifts.filter((x) => x.feature === prot.column && x.kind === 'share');
  for (const g of groups) {
    if (!wanted(g.value)) continue;
    const c = base(g.value, g.n);
    const k = checks.find((x) => x.value === g.value);
    if (g.suppressed) c.reason = `${g.value} is suppressed: no check against its real rows`;
    else if (!k) c.reason = `${g.value} has no check against the real rows`;
    else {
      c.value = Number.isFinite(k.pooled) ? k.pooled : null;
      if (k.real.lo !== null && k.real.hi !== null)
        c.interval = {
          lo: k.real.lo,
          hi: k.real.hi,
          method:
            `the real rows' shift ` +
            `${pp(k.real.shift)}${k.real.level ? `, at the corrected level ${k.real.level.toPrecision(2)}` : ''}`,
        };
      const seeds =
        k.canonical.length > 1 ? `; seeds ${pp(Math.min(...k.canonical))}…${pp(Math.max(...k.canonical))}` : '';
      c.context = `${SHIFT_STATUS_WORDS[k.status]}${seeds}`;
      if (k.status === 'disagrees')
        c.reason =
          `contradicted by the data: the real rows' shift is ${pp(k.real.shift)} [${pp(k.real.lo)}, ` +
          `${pp(k.real.hi)}], and every GAN seed gives the other sign`;
      else if (k.status === 'unsettled')
        c.reason =
          `the GAN seeds do not share a sign ` +
          `(${k.canonical.map((x) => pp(x)).join(', ')}); the real rows' shift is ` +
          `${pp(k.real.shift)} [${pp(k.real.lo)}, ${pp(k.real.hi)}]`;
      else if (k.status === 'overstates' || k.status === 'understates')
        c.reason =
          `the canonical sets ${k.status === 'overstates' ? 'overstate' : 'understate'} the size: the real rows' ` +
          `shift is ${pp(k.real.shift)} [${pp(k.real.lo)}, ${pp(k.real.hi)}], the sets' ${pp(k.pooled)}, outside ` +
          `that interval widened by the sets' own noise`;
      else if (g.n < s.minGroup) c.reason = `${g.value} has ${g.n} rows (fewer than ${s.minGroup})`;
      else if (c.value === null) c.reason = 'a canonical set is empty';
    }
    out.push(c);
  }
  return out;
}

/**
 * The audit's reference per protected column for a policy: the policy's inputs.reference and its
 * rules' references, under `given` (the command line's --reference). An audit has one reference per
 * column, so two that differ are a usage error, raised before the audit runs.
 */
export function policyReferences(
  policy: Policy,
  given: Record<string, string> = {},
): Record<string, string> | undefined {
  const out: Record<string, string> = { ...given };
  const from: Record<string, string> = Object.fromEntries(Object.keys(given).map((c) => [c, '--reference']));
  const add = (c: string, v: string, where: string) => {
    if (out[c] !== undefined && out[c] !== v)
      throw new EngineError(
        'E_ARG',
        `${policy.file}: ${where}: the reference of ${c} is "${v}", but ${from[c]} gives "${out[c]}": an audit has ` +
          `one reference per column`,
      );
    if (out[c] === undefined) {
      out[c] = v;
      from[c] = `${policy.file} ${where}`;
    }
  };
  for (const [c, v] of Object.entries(policy.inputs.reference ?? {})) add(c, v, `inputs.reference.${c}`);
  for (const r of policy.rules)
    for (const [c, v] of Object.entries(r.reference ?? {})) add(c, v, `${r.path}.reference`);
  return Object.keys(out).length ? out : undefined;
}

/**
 * The protected columns an audit needs for a policy: every rule's attribute columns but canonical_fidelity's, in order
 * of appearance.
 */
export function policyProtected(policy: Policy): string[] {
  return [
    ...new Set(policy.rules.filter((r) => r.metric.canonical !== 'canonical_fidelity').flatMap((r) => r.columns)),
  ];
}

/** Usage errors before an audit runs: a rule whose attribute is not among the audit's protected columns. */
export function validateForAudit(policy: Policy, protectedColumns: readonly string[]): void {
  for (const r of policy.rules) {
    if (r.metric.canonical === 'canonical_fidelity') continue;
    for (const c of r.columns) {
      if (!protectedColumns.includes(c) && !protectedColumns.includes(c.replace(/ \(binned\)$/, ''))) {
        throw new EngineError(
          'E_ARG',
          `${policy.file}: ${r.path}.attribute: "${c}" is not among the audit's --protected ` +
            `(${protectedColumns.join(', ')}): a rule under lucid audit is on a protected attribute (add it to ` +
            `--protected)`,
        );
      }
    }
  }
}

/**
 * Checks every rule of `policy` against an audit (`where`: the data file, for messages). The metrics
 * verdicts shown beside output rules are the audit's (one Holm family over its attributes and
 * intersection). `s` gives minGroup, onInsufficient and margin; the label, positive class, favourable
 * outcome and threshold are the audit's.
 */
export function checkPolicyOnAudit(a: AuditView, policy: Policy, s: CheckSettings, where: string): CheckResult {
  // the audit's metrics tables are a binary decision's (a score's AUC or a class's rate is not in them)
  requireKind(policy, 'binary', "an audit's metrics are those of a binary decision");
  const reports = [a.metrics.attributes, a.metrics.intersection].filter((r): r is NonNullable<typeof r> => r !== null);
  const checks: RuleCheck[] = [];
  const warnings: string[] = [];
  for (const rule of policy.rules) {
    let values: RuleValue[];
    if (rule.metric.canonical) values = canonicalValues(rule, a, s);
    else {
      const found = auditTable(rule, policy, reports, a.protected);
      if ('note' in found) {
        checks.push(
          judge(
            rule,
            {
              rule: rule.id,
              metric: rule.metric.name,
              kind: rule.metric.kind,
              attribute: rule.attribute,
              group: '(none)',
              reference: null,
              n: 0,
              referenceN: null,
              value: null,
              interval: null,
              verdict: null,
              reason: found.note.replace(`${rule.id}: `, ''),
            },
            s,
          ),
        );
        continue;
      }
      const groups = found.a.groups.map((g) => g.value);
      rule.groups?.forEach((g, j) => {
        if (!groups.includes(g))
          throw new EngineError(
            'E_ARG',
            `${policy.file}: ${rule.path}.groups[${j}]: "${g}" is not a group of ${found.a.column} in the audit of ` +
              `${where}; the groups are: ${groups.slice(0, 20).join('; ')}`,
          );
      });
      values = ruleValues(rule, found.a, found.r);
    }
    for (const v of values) checks.push(judge(rule, v, s));
    if (!values.length) warnings.push(`${rule.id}: checks no group`);
  }
  const first = a.metrics.attributes;
  const result: CheckResult = {
    tool: 'lucid check',
    resultVersion: CHECK_RESULT_VERSION,
    policy: policySummary(policy, s),
    data: { source: where, rows: a.meta.data.rows },
    inputs: {
      label: a.meta.label,
      positive: a.meta.positive,
      favourable: a.meta.favourable,
      pred: `the model's predictions (${a.meta.model.source})`,
      predKind: first.predKind,
      threshold: a.meta.threshold,
    },
    minGroup: first.minGroupSize,
    suppressBelow: a.meta.suppressBelow,
    verdicts: {
      tolerance: first.verdicts.tolerance,
      alpha: first.verdicts.alpha,
      correction: `the audit's: ${first.verdicts.correction}`,
    },
    ...uncounted(checks, warnings, first.fit),
    audit: {
      ...(a.meta.interrupted
        ? {
            interrupted:
              `${a.meta.interrupted.signal ? `${a.meta.interrupted.signal}: ` : ''}` + `${a.meta.interrupted.text}`,
          }
        : {}),
      gan:
        `${a.meta.gan.seeds.length} GAN seed${a.meta.gan.seeds.length > 1 ? 's' : ''}, ${a.meta.gan.epochs} epochs ` +
        `(${a.meta.gan.schedule} schedule), trained on ${a.meta.gan.rows} rows`,
      canonicalRows: { positive: a.canonical.positive.rows, negative: a.canonical.negative.rows },
    },
  };
  recount(result);
  return result;
}
