// Text forms of a MetricsReport: an aligned table for people, CSV (one row per group) for tools. Every
// column list comes from METRIC_DEFS (definitions.ts), so a new metric appears here by itself.
import { JUDGED_METRICS, METRIC_DEFS, METRICS, guidance, type MetricName } from './definitions.js';
import { verdictCellText, verdictTable } from './summary.js';
import { suppressedText } from './suppress.js';
import type { AttributeResult, Interval, MetricsReport } from './types.js';
import type { Comparison, Verdict } from './verdicts.js';
import { csvField } from '../../data/csv-write.js';
import { fitLine } from './fit.js';
import { fmtRatio, MISSING, pctTable as pct } from '../../data/text.js';

const ratio = (v: number | null | undefined) => fmtRatio(v, MISSING.table);
const ci = (c: Interval | undefined, f: (v: number | null) => string) => (c ? ` [${f(c.lo)}, ${f(c.hi)}]` : '');
const MARK: Record<Verdict, string> = { flagged: '!', inconclusive: '?', pass: '', 'too little data': '~' };

function align(rows: string[][]): string {
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows.map((r) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  ')).join('\n') + '\n';
}

/** "x0.72! disadvantaged" style cell of one comparison. */
function comparisonCell(c: Comparison | undefined): string {
  if (!c) return '';
  if (c.counts === null) return 'suppressed';
  return `x${ratio(c.ratio)}${MARK[c.verdict]}`;
}

function flaggedLines(a: AttributeResult): string[] {
  return a.comparisons
    .filter((c) => c.verdict === 'flagged')
    .map(
      (c) =>
        `  FLAGGED ${a.column} = ${c.group}: ${METRIC_DEFS[c.metric].label} ${pct(c.rate)}% vs ` +
        `${pct(c.referenceRate)}% (x${ratio(c.ratio)}, ${(100 * (1 - c.level!)).toFixed(2)}% interval ` +
        `[${ratio(c.interval!.lo)}, ${ratio(c.interval!.hi)}]): ${c.direction}`,
    );
}

/**
 * The verdict table as aligned text (the same table the report puts first). Wider than `width` with
 * the indent, its metric columns are split into blocks that fit, each beside the attribute column; when
 * not even one metric fits beside it (long names), each attribute is one line, "metric verdict; …".
 */
export function formatVerdictTable(reports: readonly (MetricsReport | null)[], indent = '', width = Infinity): string {
  const rows = verdictTable(reports);
  if (!rows.length) return '';
  const table = [['attribute (reference)', ...JUDGED_METRICS.map((m) => METRIC_DEFS[m].short)]];
  for (const row of rows)
    table.push([`${row.attribute} (${row.reference})`, ...JUDGED_METRICS.map((m) => verdictCellText(row.cells[m], 1))]);
  const w = table[0].map((_, j) => Math.max(...table.map((r) => [...r[j]].length)));
  const blockWidth = (cols: number[]) => [...indent].length + w[0] + cols.reduce((sum, j) => sum + 2 + w[j], 0);
  const blocks: number[][] = [];
  for (let j = 1; j < w.length; j++) {
    const last = blocks[blocks.length - 1];
    if (last && blockWidth([...last, j]) <= width) last.push(j);
    else blocks.push([j]);
  }
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((l) => l)
      .map((l) => indent + l);
  if (blocks.some((b) => blockWidth(b) > width)) {
    return (
      table
        .slice(1)
        .map(
          (r) =>
            `${indent}${r[0]}: ${r
              .slice(1)
              .map((cell, j) => `${table[0][j + 1]} ${cell}`)
              .join('; ')}`,
        )
        .join('\n') + '\n'
    );
  }
  return blocks.flatMap((b) => lines(align(table.map((r) => [r[0], ...b.map((j) => r[j])])))).join('\n') + '\n';
}

/** "a, b, c and 4 more" of at most `max` items (all when max is undefined). */
const some = (xs: string[], max?: number) =>
  max === undefined || xs.length <= max ? xs.join(', ') : `${xs.slice(0, max).join(', ')} and ${xs.length - max} more`;

/**
 * The four-fifths rule of one attribute in a line: the most selected group and every group below 0.8
 * with its ratio (with `max`: the lowest `max` of them, and how many more).
 */
export function fourFifthsText(a: AttributeResult, max?: number): string {
  const ff = a.fourFifths;
  const below = ff.below
    .slice()
    .sort((x, y) => (ff.ratio[x] ?? 0) - (ff.ratio[y] ?? 0))
    .map((g) => `${g} ${ratio(ff.ratio[g])}`);
  return (
    `four-fifths rule (the legal yardstick, not a verdict): selection rate against the most selected group that is ` +
    `not small${ff.reference ? ` (${ff.reference})` : ' (none: every group is small)'}; below 0.8: ` +
    `${below.length ? some(below, max) : 'none'}`
  );
}

/**
 * The LL144 impact table of one attribute in a line (with `max`: the lowest `max` impact ratios, and how many
 * categories more and excluded).
 */
export function impactText(a: AttributeResult, max?: number): string {
  const imp = a.impact;
  const head =
    `impact ratios (NYC LL144, ` +
    `${imp.kind}` +
    `${imp.median !== null ? ` on the favourable side of the median score ${imp.median.toFixed(3)}` : ''}; ` +
    `categories under ${(100 * imp.minShare).toFixed(0)}% of rows ` +
    `excluded${imp.unknown ? `; ${imp.unknown} rows with an unknown value left out` : ''})`;
  if (max === undefined)
    return `${head}: ${imp.rows
      .map((x) =>
        x.suppressed
          ? `${x.category} suppressed`
          : `${x.category} ${pct(x.rate)}% ${x.excluded ? '(excluded)' : `x${ratio(x.impactRatio)}`}`,
      )
      .join('; ')}`;
  const rated = imp.rows
    .filter((x) => !x.excluded && !x.suppressed && x.impactRatio !== null)
    .sort((x, y) => x.impactRatio! - y.impactRatio!);
  const left = imp.rows.length - rated.length;
  return `${head}: ${
    rated.length
      ? `${imp.highest ? `against ${imp.highest}; ` : ''}lowest ${some(
          rated.map((x) => `${x.category} ${ratio(x.impactRatio)}`),
          max,
        )}`
      : 'none rated'
  }${left ? `; ${left} categor${left === 1 ? 'y' : 'ies'} excluded or suppressed` : ''}`;
}

/**
 * The text report of `lucid metrics`; `width`: the verdict table's width (formatVerdictTable), Infinity for one line
 * per attribute.
 */
export function formatMetricsTable(r: MetricsReport, width = Infinity): string {
  // a weak, constant or inverted model is said first: every figure below describes it (fit.ts)
  let s = r.fit.weak.map((w) => `WEAK MODEL: ${w}\n`).join('');
  s += `model fit: ${fitLine(r.fit)}\n`;
  s +=
    `${r.rows} rows; label ${r.label} (positive "${r.positive}", ` +
    `${r.favourable === 'positive' ? 'the favourable outcome' : 'the unfavourable outcome'}); predictions ` +
    `${r.pred} read as ${r.predKind === 'labels' ? 'predicted labels' : `scores, positive when > ${r.threshold}`}` +
    `\n`;
  s += 'rates in %; - = undefined (empty denominator)\n';
  if (r.suppressBelow !== null)
    s +=
      `groups with fewer than ${r.suppressBelow} rows are suppressed (supp.): no rate, count of positives, ` +
      `interval or verdict is shown for them\n`;
  const v = r.verdicts;
  s +=
    `verdicts: ratios inside [${ratio(v.band[0])}, ${ratio(v.band[1])}] pass; outside: flagged (!) when ` +
    `significant at the corrected level, else inconclusive (?); ~ too little data (a group under ` +
    `${r.minGroupSize} rows or an undefined rate). ${v.correction}, family-wise error ` +
    `${(100 * v.alpha).toFixed(0)}%.\n`;
  s += `verdict counts: ${Object.entries(v.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}\n\n`;
  s += formatVerdictTable([r], '', width);
  for (const a of r.attributes) {
    s +=
      `\n${a.column}: reference ${a.reference.value} (${a.reference.reason})` +
      `${a.unknown ? `; ${a.unknown} rows with no value left out` : ''}\n`;
    const rows = [['group', 'n', ...METRICS.map((m) => METRIC_DEFS[m].short)]];
    for (const g of a.groups)
      rows.push([
        g.value +
          (g.reference ? ' *' : '') +
          (g.suppressed ? ` (${suppressedText(r.suppressBelow!)})` : g.small ? ' (small)' : ''),
        String(g.n),
        ...METRICS.map((m) => (g.suppressed ? 'supp.' : pct(g[m]) + ci(g.ci?.[m], pct))),
      ]);
    s += align(rows);
    const others = a.groups.filter((g) => !g.reference);
    if (others.length) {
      s += `ratios to ${a.reference.value} and verdicts:\n`;
      const drows = [['group', ...JUDGED_METRICS.map((m) => METRIC_DEFS[m].short), '4/5']];
      for (const g of others) {
        drows.push([
          g.value,
          ...JUDGED_METRICS.map((m) =>
            comparisonCell(a.comparisons.find((c) => c.group === g.value && c.metric === m)),
          ),
          fourFifthsCell(a, g.value),
        ]);
      }
      s += align(drows);
      for (const l of flaggedLines(a)) s += l + '\n';
    }
    s += `${fourFifthsText(a)}\n`;
    s += `${impactText(a)}\n`;
    if (a.calibration)
      s +=
        `calibration (ECE by ` +
        `group${r.bootstrap || a.calibration.some((c) => c.ci) ? ', 95% bootstrap interval' : ''}): ${a.calibration
          .map(
            (c) =>
              `${c.group} ${c.suppressed ? 'suppressed' : ratio(c.ece)}` +
              `${c.ci ? ` [${ratio(c.ci.lo)}, ${ratio(c.ci.hi)}]` : ''}`,
          )
          .join('; ')}\n`;
    if (a.conditional) {
      const cd = a.conditional;
      s +=
        `selection-rate ratio to ${cd.reference} within ${cd.strata} strata of ${cd.columns.join(', ')} ` +
        `(Mantel-Haenszel): ${cd.rows
          .map(
            (x) =>
              `${x.group} crude x${ratio(x.crude)}, conditional x${ratio(x.conditional)}` +
              `${x.ci ? ` [${ratio(x.ci.lo)}, ${ratio(x.ci.hi)}]` : ''}` +
              `${x.explainedShare !== null ? `, ${(100 * x.explainedShare).toFixed(0)}% explained` : ''}`,
          )
          .join('; ')}\n`;
    }
  }
  s +=
    '\nhow to read: ' +
    JUDGED_METRICS.filter((m) => METRIC_DEFS[m].better !== null)
      .map((m) => guidance(m, r.favourable))
      .join('; ') +
    '.\n';
  if (r.bootstrap)
    s +=
      `intervals of the rates: ${Math.round(r.bootstrap.confidence * 100)}% bootstrap (${r.bootstrap.resamples} ` +
      `resamples, seed ${r.bootstrap.seed}; ${r.bootstrap.method})\n`;
  return s;
}

function fourFifthsCell(a: AttributeResult, value: string): string {
  const q = a.fourFifths.ratio[value];
  return q === null || q === undefined ? '-' : `${ratio(q)}${a.fourFifths.below.includes(value) ? ' below' : ''}`;
}

/**
 * One row per group: counts, rates, then per judged metric the difference, ratio and verdict against the reference (and
 * CIs with bootstrap).
 */
export function formatMetricsCsv(r: MetricsReport): string {
  const boot = r.bootstrap !== null;
  const supp = r.suppressBelow !== null;
  const head = ['column', 'value', 'n', 'reference', 'small', 'tp', 'fp', 'tn', 'fn', ...METRICS];
  for (const m of METRICS) head.push(`${m}_difference`, `${m}_ratio`);
  for (const m of JUDGED_METRICS) head.push(`${m}_verdict`, `${m}_p_adjusted`);
  head.push('four_fifths_ratio', 'impact_ratio');
  if (boot) for (const m of METRICS) head.push(`${m}_lo`, `${m}_hi`);
  // with --suppress-below: the last column says which rows are suppressed (their figures are empty)
  if (supp) head.push('suppressed');
  const lines = [head.join(',')];
  for (const a of r.attributes) {
    for (const g of a.groups) {
      const row: (string | number | boolean | null | undefined)[] = [
        a.column,
        g.value,
        g.n,
        g.reference,
        g.small,
        g.tp,
        g.fp,
        g.tn,
        g.fn,
        ...METRICS.map((m: MetricName) => g[m]),
      ];
      for (const m of METRICS)
        row.push(
          g.reference ? null : a.disparities[m].difference[g.value],
          g.reference ? null : a.disparities[m].ratio[g.value],
        );
      for (const m of JUDGED_METRICS) {
        const c = a.comparisons.find((x) => x.group === g.value && x.metric === m);
        row.push(c?.verdict ?? null, c?.pAdjusted ?? null);
      }
      row.push(a.fourFifths.ratio[g.value], a.impact.rows.find((x) => x.category === g.value)?.impactRatio ?? null);
      if (boot) for (const m of METRICS) row.push(g.ci?.[m].lo ?? null, g.ci?.[m].hi ?? null);
      if (supp) row.push(g.suppressed ? suppressedText(r.suppressBelow!) : '');
      lines.push(row.map(csvField).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
