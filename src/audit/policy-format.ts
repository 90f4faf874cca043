// The outputs of `lucid check` that CI systems display: a short Markdown summary (a job summary, a
// merge-request comment) and a JUnit XML file (one testsuite, one testcase per rule and group, and
// one per baseline comparison). Core code: strings only, no Node imports.
import { changeKind, formatValue, marginText, type CheckResult, type RuleCheck } from './policy.js';
import { SHIFT_STATUS_WORDS } from './checks.js';
import { MISSING } from '../data/text.js';

const STATUS_MARK: Record<RuleCheck['status'], string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  'insufficient data': '⚠️ insufficient data',
};

/** A Markdown table cell: no pipes or line breaks left to break the table. */
const cell = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const int = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US'));

function intervalText(c: RuleCheck): string {
  if (!c.interval) return '—';
  return `${formatValue(c.interval.lo, c.kind)} … ${formatValue(c.interval.hi, c.kind)} (${c.interval.method})`;
}

function statusText(c: RuleCheck): string {
  if (c.status === 'insufficient data')
    return `${STATUS_MARK[c.status]}${c.fails ? ' (fails: onInsufficient "fail")' : ''}`;
  return STATUS_MARK[c.status];
}

/** The summary: the outcome, what was checked against what, one row per rule and group, the baseline, the notes. */
export function checkMarkdown(r: CheckResult): string {
  const L: string[] = [];
  const c = r.counts;
  L.push(
    `## Fairness check: ${r.passed ? 'passed' : 'FAILED'}${r.audit?.interrupted ? ' (on an INTERRUPTED audit)' : ''}`,
  );
  L.push('');
  // what every value below depends on, first: an audit stopped early, a weak or inverted model
  if (r.audit?.interrupted) L.push(`**${r.audit.interrupted}**`, '');
  for (const w of r.fit?.weak ?? []) L.push(`**A weak model:** ${w.replace(/\n/g, ' ')}`, '');
  const parts = [`${c.pass} pass`, `${c.fail} fail`, `${c.insufficient} with insufficient data`];
  if (r.baseline) parts.push(`${c.regressed} regressed against the baseline`);
  L.push(
    `${c.checks} checks of ${r.policy.rules.length} rule${r.policy.rules.length === 1 ? '' : 's'}: ` +
      `${parts.join(', ')}.`,
  );
  L.push('');
  const inp = r.inputs;
  if ('output' in inp) {
    const o = inp.output;
    const side =
      o.kind === 'score'
        ? `; positive class ${code(inp.positive ?? '')}, its binary metrics at the threshold ${inp.threshold}`
        : '';
    L.push(
      `Policy ${code(r.policy.file)} on ${code(r.data.source)} (${int(r.data.rows)} rows): label ${code(inp.label)}, ` +
        `predictions ${code(inp.pred)}: ${o.reason}; favourable: ${o.favourable}${side}.`,
    );
  } else {
    const pred =
      inp.predKind === 'scores'
        ? `scores in ${code(inp.pred)}, positive above ${inp.threshold}`
        : `predicted labels in ${code(inp.pred)}`;
    L.push(
      `Policy ${code(r.policy.file)} on ${code(r.data.source)} (${int(r.data.rows)} rows): label ${code(inp.label)}, ` +
        `positive class ${code(inp.positive)} ` +
        `(${inp.favourable === 'positive' ? 'the favourable outcome' : 'the unfavourable outcome'}), ${pred}.`,
    );
  }
  L.push(
    `Each rule is checked per group on the point value; the interval and the metrics verdict beside it are context, ` +
      `not the test. A group with fewer than ${r.minGroup} rows` +
      `${r.suppressBelow ? ` (or suppressed, fewer than ${r.suppressBelow})` : ''}, a small reference or an ` +
      `undefined value is "insufficient data": it does not fail unless its rule says \`onInsufficient: "fail"\`.`,
  );
  if (!('output' in inp) && r.checks.some((x) => x.kind === 'difference' && !x.interval && x.value !== null))
    L.push('Differences get an interval with `--bootstrap <n>`.');
  if ('predKind' in inp && inp.predKind === 'scores' && r.checks.some((x) => x.metric === 'impact_ratio'))
    L.push(
      "`impact_ratio` on scores is LL144's: the scoring rate (the share on the favourable side of the median score " +
        'of all rows), not the rate on the favourable side of the threshold; `four_fifths` uses the threshold.',
    );
  if (r.audit) {
    L.push(
      `Checked on the audit of ${code(r.data.source)} (${r.audit.gan}; canonical sets of ` +
        `${int(r.audit.canonicalRows.positive)} positive and ${int(r.audit.canonicalRows.negative)} negative ` +
        `rows${r.audit.out ? `; report in ${code(r.audit.out)}` : ''}).`,
    );
    if (r.checks.some((x) => x.metric === 'canonical_shift'))
      L.push(
        `A \`canonical_shift\` is checked on the canonical sets' value; the interval beside it is the real rows' ` +
          `shift, and "${Object.values(SHIFT_STATUS_WORDS).join(' / ')}" the audit's check of the sets against ` +
          `the data: a value the data contradicts, whose seeds differ in sign or whose size the sets misstate is ` +
          `insufficient data, never a pass or a fail.`,
      );
  }
  if (r.policy.description) L.push('', `> ${r.policy.description.replace(/\n/g, ' ')}`);
  L.push('');
  L.push(
    `| result | rule | group | n | reference (n) | value | interval | threshold | ` +
      `${r.checks.some((x) => x.context) ? 'metrics verdict / audit check' : 'metrics verdict'} |`,
  );
  L.push('|---|---|---|---|---|---|---|---|---|');
  for (const x of r.checks) {
    const ref = x.reference === null ? '—' : `${x.reference} (${int(x.referenceN)})`;
    const value = formatValue(x.value, x.kind);
    const why = x.status === 'insufficient data' && x.reason ? `: ${x.reason}` : '';
    L.push(
      `| ${cell(statusText(x) + why)} | ${cell(x.rule)} | ${cell(x.group)} | ${int(x.n)} | ${cell(ref)} | ` +
        `${cell(value)} | ${cell(intervalText(x))} | ${cell(x.threshold)} | ` +
        `${x.verdict ?? (x.context ? cell(x.context) : '—')} |`,
    );
  }
  if (r.baseline) {
    const b = r.baseline;
    L.push('');
    L.push(`### Against the baseline ${code(b.source)} (${b.format}; margin ${b.margin} unless a rule sets its own)`);
    L.push('');
    L.push(
      `${b.compared} compared, ${b.regressed} regressed (moved toward the threshold by more than the margin), ` +
        `${b.missing} without a baseline value (listed, not failed).`,
    );
    L.push('');
    L.push('| result | rule | group | baseline | now | change | toward the threshold |');
    L.push('|---|---|---|---|---|---|---|');
    for (const x of r.checks) {
      const y = x.baseline;
      if (!y) continue;
      const mark =
        y.status === 'regressed'
          ? '❌ regressed'
          : y.status === 'no baseline value'
            ? `— no baseline value: ${y.reason ?? ''}`
            : y.status === 'improved'
              ? '✅ improved'
              : '✅ within margin';
      const worse =
        y.worse === null
          ? '—'
          : `${y.worse > 0 ? '+' : y.worse < 0 ? '−' : '±'}` +
            `${formatValue(Math.abs(y.worse), changeKind(x.kind), false)} (margin ` +
            `${marginText(y.margin, x.kind)})`;
      L.push(
        `| ${cell(mark)} | ${cell(x.rule)} | ${cell(x.group)} | ${cell(formatValue(y.value, x.kind))} | ` +
          `${cell(formatValue(x.value, x.kind))} | ` +
          `${y.change === null ? '—' : cell(formatValue(y.change, changeKind(x.kind)))} | ` +
          `${cell(worse)} |`,
      );
    }
    for (const n of b.notes) L.push('', `- ${n}`);
  }
  L.push('');
  const band =
    r.verdicts.band ?? `ratio band [${r.verdicts.tolerance}, ${(1 / (r.verdicts.tolerance ?? 1)).toFixed(2)}]`;
  L.push(
    `Metrics verdicts: ${band}, ${r.verdicts.correction}, family-wise error ` +
      `${Number((100 * r.verdicts.alpha).toPrecision(3))}%.`,
  );
  if (r.warnings.length) {
    L.push('');
    L.push('<details><summary>Warnings</summary>');
    L.push('');
    for (const w of r.warnings) L.push(`- ${w.replace(/\n/g, ' ')}`);
    L.push('');
    L.push('</details>');
  }
  return L.join('\n') + '\n';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are what it drops
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text for XML: the five entities escaped, and the characters XML 1.0 forbids (control characters) dropped. */
export function xmlEscape(s: string): string {
  return s
    .replace(XML_FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attr = (o: Record<string, string | number>) =>
  Object.entries(o)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

/** A rule's metric as the outputs name it: "tpr_diff", or with its class "class_fnr_ratio of decline". */
const metricText = (x: RuleCheck) => (x.class === undefined ? x.metric : `${x.metric} of ${x.class}`);

function caseName(x: RuleCheck): string {
  return `${x.attribute} = ${x.group}: ${metricText(x)} ${x.threshold}`;
}

function detail(x: RuleCheck): string {
  const ref = x.reference === null ? '' : `; reference ${x.reference} (n = ${x.referenceN ?? MISSING.text})`;
  const iv = x.interval
    ? `; interval ${formatValue(x.interval.lo, x.kind)} … ${formatValue(x.interval.hi, x.kind)} (${x.interval.method})`
    : '';
  const verdict = x.verdict ? `; metrics verdict: ${x.verdict}` : x.context ? `; ${x.context}` : '';
  return (
    `${metricText(x)} of ${x.attribute} = ${x.group} (n = ${x.n})${ref}: ${formatValue(x.value, x.kind)}, threshold ` +
    `${x.threshold}${iv}${verdict}`
  );
}

/**
 * The JUnit XML: one testsuite; a testcase per rule and group (a failure for a crossing, skipped for insufficient data)
 * and per baseline comparison.
 */
export function checkJunit(r: CheckResult, seconds = 0): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const x of r.checks) {
    const head = `    <testcase${attr({ classname: `lucid.check.${x.rule}`, name: caseName(x), time: 0 })}`;
    if (x.status === 'fail') {
      failures++;
      cases.push(
        `${head}>\n      <failure${attr({
          type: 'threshold',
          message:
            `${x.attribute} = ${x.group}: ${metricText(x)} ${formatValue(x.value, x.kind)}, outside ` +
            `${x.threshold}`,
        })}>${xmlEscape(detail(x))}</failure>\n    </testcase>`,
      );
    } else if (x.status === 'insufficient data') {
      if (x.fails) {
        failures++;
        cases.push(
          `${head}>\n      <failure${attr({
            type: 'insufficient data',
            message: `insufficient data (onInsufficient "fail"): ${x.reason ?? ''}`,
          })}>${xmlEscape(detail(x))}</failure>\n    </testcase>`,
        );
      } else {
        skipped++;
        cases.push(
          `${head}>\n      <skipped${attr({ message: `insufficient data: ${x.reason ?? 'no value'}` })}/>\n    ` +
            `</testcase>`,
        );
      }
    } else {
      cases.push(`${head}>\n      <system-out>${xmlEscape(detail(x))}</system-out>\n    </testcase>`);
    }
    const b = x.baseline;
    if (!b) continue;
    const bhead = `    <testcase${attr({
      classname: `lucid.check.${x.rule}.baseline`,
      name:
        `${x.attribute} = ${x.group}: ${metricText(x)} against the baseline (margin ` +
        `${marginText(b.margin, x.kind)})`,
      time: 0,
    })}`;
    const text = `baseline ${formatValue(b.value, x.kind)}, now ${formatValue(x.value, x.kind)}${
      b.worse === null ? '' : `, toward the threshold ${b.worse >= 0 ? '+' : '−'}${Math.abs(b.worse).toPrecision(3)}`
    } (${r.baseline?.source ?? ''})`;
    if (b.status === 'regressed') {
      failures++;
      cases.push(
        `${bhead}>\n      <failure${attr({ type: 'regression', message: `regressed: ${text}` })}>` +
          `${xmlEscape(text)}</failure>\n    </testcase>`,
      );
    } else if (b.status === 'no baseline value') {
      skipped++;
      cases.push(
        `${bhead}>\n      <skipped${attr({ message: `no baseline value: ${b.reason ?? ''}` })}/>\n    </testcase>`,
      );
    } else {
      cases.push(`${bhead}>\n      <system-out>${xmlEscape(`${b.status}: ${text}`)}</system-out>\n    </testcase>`);
    }
  }
  const suite = {
    name: `lucid check: ${r.policy.file}`,
    tests: cases.length,
    failures,
    errors: 0,
    skipped,
    time: seconds.toFixed(3),
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr({
      name: 'lucid check',
      tests: cases.length,
      failures,
      errors: 0,
      skipped,
      time: seconds.toFixed(3),
    })}>`,
    `  <testsuite${attr(suite)}>`,
    `    <properties>\n      <property${attr({ name: 'data', value: r.data.source })}/>\n      ` +
      `<property${attr({ name: 'policy', value: r.policy.file })}/>\n      ` +
      `<property${attr({ name: 'rows', value: r.data.rows })}/>\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
