// Text, CSV and JSON forms of the score and regression reports (format.ts keeps the binary ones): the first line
// says the output kind and why, then the headline (the most significant disadvantaged comparison), the verdict
// table, the per-group table and the flags. Columns come from OUTPUT_METRIC_DEFS. Core code: no Node imports.
import { csvField } from '../../data/csv-write.js';
import { fmtNum, fmtRatio, MISSING } from '../../data/text.js';
import { JUDGED_METRICS, METRIC_DEFS } from './definitions.js';
import { formatMetricsTable } from './format.js';
import {
  HEADLINE_METRIC,
  outputGuidance,
  outputMetricDef,
  outputMetricsOf,
  type OutputMetricName,
} from './output-definitions.js';
import type { OutputReport } from './output-metrics.js';
import type { RegressionReport } from './regression.js';
import type { ScoreReport } from './score.js';
import { arrowOf, byConcern, type Comparison, type Verdict } from './verdicts.js';

const MARK: Record<Verdict, string> = { flagged: '!', inconclusive: '?', pass: '', 'too little data': '~' };
const num = (v: number | null | undefined) => fmtNum(v ?? null, 4);
const ratio = (v: number | null | undefined) => fmtRatio(v, MISSING.table);
const iv = (c: { lo: number | null; hi: number | null } | null | undefined) =>
  c ? ` [${num(c.lo)}, ${num(c.hi)}]` : '';

function align(rows: string[][]): string {
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => [...r[j]].length)));
  return rows.map((r) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  ')).join('\n') + '\n';
}

/** A metric's label, whichever table it is in. */
const labelOf = (m: string): string =>
  m in METRIC_DEFS ? METRIC_DEFS[m as keyof typeof METRIC_DEFS].label : outputMetricDef(m as OutputMetricName).label;
const shortOf = (m: string): string =>
  m in METRIC_DEFS ? METRIC_DEFS[m as keyof typeof METRIC_DEFS].short : outputMetricDef(m as OutputMetricName).short;

/** A comparison's figures: "x0.81 [0.70, 0.93]" on the ratio scale, "−1.2 [−2.0, −0.4]" on the difference scale. */
export function comparisonFigures(c: Comparison<string>): string {
  const level = c.level !== null ? `${(100 * (1 - c.level)).toFixed(2)}% interval ` : '';
  if (c.scale === 'difference')
    return (
      `${num(c.rate)} vs ${num(c.referenceRate)} (difference ${num(c.difference)}, ` +
      `${level}${iv(c.interval).trim()})`
    );
  return (
    `${num(c.rate)} vs ${num(c.referenceRate)} (x${ratio(c.ratio)}, ` +
    `${level}${c.interval ? `[${ratio(c.interval.lo)}, ${ratio(c.interval.hi)}]` : ''})`
  );
}

/** Every judged comparison of a report (a score's threshold view included), with its attribute. */
function allComparisons(r: OutputReport): { attribute: string; c: Comparison<string> }[] {
  const out: { attribute: string; c: Comparison<string> }[] = [];
  if (r.kind === 'score')
    for (const a of r.report.thresholdView.attributes)
      for (const c of a.comparisons) out.push({ attribute: a.column, c });
  if (r.kind === 'score' || r.kind === 'regression')
    for (const a of r.report.attributes) for (const c of a.comparisons) out.push({ attribute: a.column, c });
  if (r.kind === 'binary')
    for (const a of r.report.attributes) for (const c of a.comparisons) out.push({ attribute: a.column, c });
  return out;
}

/** The headline: the most significant flagged comparison that disadvantages a group, in one sentence. */
/** 0 for the kind's headline metric (HEADLINE_METRIC), 1 for the others. */
const headlineRank = (r: OutputReport, metric: string): number =>
  r.kind !== 'binary' && r.kind !== 'multiclass' && HEADLINE_METRIC[r.kind] === metric ? 0 : 1;

export function outputHeadline(r: OutputReport): string {
  // an advantaged group's flag is read from the side of the group it disadvantages (the reference), as the binary and
  // multiclass headlines read it: a report whose reference is the disadvantaged group still has a headline
  const flagged = allComparisons(r)
    .filter((x) => x.c.verdict === 'flagged' && (x.c.direction === 'disadvantaged' || x.c.direction === 'advantaged'))
    .sort((a, b) => headlineRank(r, a.c.metric) - headlineRank(r, b.c.metric) || byConcern(a.c, b.c));
  if (!flagged.length) {
    const any = allComparisons(r).filter((x) => x.c.verdict === 'flagged').length;
    return any
      ? `headline: no group is flagged as disadvantaged (${any} flag${any > 1 ? 's' : ''} without a direction)`
      : 'headline: no comparison is flagged';
  }
  const { attribute, c: first } = flagged[0];
  const c = first.direction === 'advantaged' ? fromReferenceSide(first) : first;
  const who = first.direction === 'advantaged' ? `${c.group} (the reference)` : c.group;
  return (
    `headline: ${attribute} = ${who} is disadvantaged: ${labelOf(c.metric)} ${comparisonFigures(c)} against ` +
    `${c.reference}, flagged (Holm-adjusted p ${c.pAdjusted !== null ? c.pAdjusted.toPrecision(2) : '-'})` +
    (flagged.length > 1 ? `; ${flagged.length - 1} more flag${flagged.length > 2 ? 's' : ''} with a direction` : '')
  );
}

/** A comparison read the other way round: the reference against the group (ratio and interval inverted). */
function fromReferenceSide(c: Comparison<string>): Comparison<string> {
  const inv = (v: number | null) => (v === null || v === 0 ? null : 1 / v);
  const iv = c.interval;
  return {
    ...c,
    group: c.reference,
    reference: c.group,
    rate: c.referenceRate,
    referenceRate: c.rate,
    difference: c.difference === null ? null : -c.difference,
    ratio: inv(c.ratio),
    interval:
      iv === null
        ? null
        : c.scale === 'difference'
          ? { lo: -iv.hi, hi: -iv.lo }
          : { lo: inv(iv.hi) ?? Infinity, hi: inv(iv.lo) ?? Infinity },
    direction: 'disadvantaged',
  };
}

/** The verdict table: one row per attribute, one cell per judged metric, the strongest verdict and flagged groups. */
export function outputVerdictTable(r: OutputReport, width = Infinity): string {
  const metrics: string[] =
    r.kind === 'score'
      ? [...outputMetricsOf('score', true), ...JUDGED_METRICS]
      : r.kind === 'regression'
        ? outputMetricsOf('regression', true)
        : [...JUDGED_METRICS];
  const attrs: readonly { column: string; reference: { value: string } }[] = r.report.attributes;
  const rank: Verdict[] = ['flagged', 'inconclusive', 'pass', 'too little data'];
  const table = [['attribute (reference)', ...metrics.map(shortOf)]];
  for (const a of attrs) {
    const cs = allComparisons(r).filter((x) => x.attribute === a.column);
    table.push([
      `${a.column} (${a.reference.value})`,
      ...metrics.map((m) => {
        const mine = cs.filter((x) => x.c.metric === m).map((x) => x.c);
        if (!mine.length) return '';
        const v = rank.find((k) => mine.some((c) => c.verdict === k))!;
        const flags = mine
          .filter((c) => c.verdict === 'flagged')
          .sort(byConcern)
          .map((c) => `${c.group}${arrowOf(c.direction)}`);
        return v === 'flagged' ? `flagged ${flags.slice(0, 1).join('')}${flags.length > 1 ? ' +' : ''}` : v;
      }),
    ]);
  }
  return splitToWidth(table, width);
}

/** Aligned rows, their columns after the first split into blocks that fit `width`, each beside the first column. */
function splitToWidth(table: string[][], width: number): string {
  const w = table[0].map((_, j) => Math.max(...table.map((r) => [...r[j]].length)));
  const blocks: number[][] = [];
  for (let j = 1; j < w.length; j++) {
    const last = blocks[blocks.length - 1];
    const fits = (cols: number[]) => w[0] + cols.reduce((sum, k) => sum + 2 + w[k], 0) <= width;
    if (last && fits([...last, j])) last.push(j);
    else blocks.push([j]);
  }
  return blocks.map((b) => align(table.map((r) => [r[0], ...b.map((j) => r[j])]))).join('');
}

function flagLines(r: OutputReport): string[] {
  return allComparisons(r)
    .filter((x) => x.c.verdict === 'flagged')
    .sort((a, b) => byConcern(a.c, b.c))
    .map(
      (x) =>
        `  FLAGGED ${x.attribute} = ${x.c.group}: ${labelOf(x.c.metric)} ${comparisonFigures(x.c)}: ${x.c.direction}`,
    );
}

function verdictsLine(v: { correction: string; alpha: number; counts: Record<Verdict, number> }): string {
  return (
    `${v.correction}, family-wise error ${(100 * v.alpha).toFixed(0)}%; verdict counts: ` +
    `${Object.entries(v.counts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}\n`
  );
}

/** The score report as text (see the file's head), the threshold view's binary table last. */
export function formatScoreTable(o: OutputReport & { kind: 'score' }, width = Infinity): string {
  const r: ScoreReport = o.report;
  let s = `output: ${o.output.reason}\n`;
  s +=
    `${r.rows} rows; label ${r.label} (positive "${r.positive}"); scores ${r.pred}, favourable ${r.favourable} ` +
    `(${r.favourable === 'higher' ? 'high' : 'low'} scores are the outcome people want)\n`;
  s += `threshold view at ${num(r.threshold.value)}: ${r.threshold.reason}\n`;
  if (r.calibrationNote) s += `${r.calibrationNote}\n`;
  s += `${outputHeadline(o)}\n`;
  s +=
    `verdicts (AUC ratios and the threshold view's rates inside [${ratio(r.verdicts.band[0])}, ` +
    `${ratio(r.verdicts.band[1])}] pass): `;
  s += verdictsLine(r.verdicts);
  s += outputVerdictTable(o, width);
  for (const a of r.attributes) {
    s += `\n${a.column} (reference ${a.reference.value}: ${a.reference.reason})\n`;
    const rows = [['group', 'n', 'AUC', 'AUC ratio', 'KS', 'W1']];
    for (const g of a.groups) {
      const c = a.comparisons.find((x) => x.group === g.value);
      rows.push([
        g.value + (g.reference ? ' (ref)' : ''),
        String(g.n),
        g.suppressed ? 'supp.' : num(g.auc),
        c ? `x${ratio(c.ratio)}${MARK[c.verdict]}` : '',
        g.ks === null ? '' : `${num(g.ks)}${iv(g.ci?.ks)}`,
        g.wasserstein === null ? '' : `${num(g.wasserstein)}${iv(g.ci?.wasserstein)}`,
      ]);
    }
    s += align(rows);
    s += `  ${outputGuidance('auc', r.favourable)}; KS and W1 (score units) are shown, not judged\n`;
    s +=
      `  selection-rate ratio to ${a.reference.value} across thresholds (${r.curve.thresholds}; ` +
      `${r.curve.interval}):\n`;
    const others = a.groups.filter((g) => !g.reference);
    const crow = [['threshold', ...others.map((g) => g.value)]];
    for (const p of a.curve)
      crow.push([num(p.threshold), ...others.map((g) => ratio(p.groups.find((x) => x.value === g.value)?.ratio))]);
    s += align(crow)
      .split('\n')
      .filter((l) => l)
      .map((l) => `  ${l}`)
      .join('\n');
    s += '\n';
  }
  const flags = flagLines(o);
  if (flags.length) s += `\n${flags.join('\n')}\n`;
  s += `\nthe threshold view (the binary metrics at ${num(r.threshold.value)}):\n`;
  s += formatMetricsTable(r.thresholdView, width);
  return s;
}

/** The regression report as text (see the file's head). */
export function formatRegressionTable(o: OutputReport & { kind: 'regression' }, width = Infinity): string {
  const r: RegressionReport = o.report;
  const v = r.verdicts;
  let s = `output: ${o.output.reason}\n`;
  s +=
    `${r.rows} rows; label ${r.label} (the true value); predictions ${r.pred}, favourable ${r.favourable} ` +
    `(${r.favourable === 'higher' ? 'high' : 'low'} values are the outcome people want)\n`;
  s += `${outputHeadline(o)}\n`;
  s +=
    v.mode === 'units'
      ? `verdicts: differences inside ±${v.toleranceUnits} (the output's units) pass; `
      : `verdicts: ratios inside [${ratio(v.band![0])}, ${ratio(v.band![1])}] pass, the bias inside ${v.biasBand}; `;
  s += verdictsLine(v);
  s += outputVerdictTable(o, width);
  const shown = outputMetricsOf('regression');
  for (const a of r.attributes) {
    s += `\n${a.column} (reference ${a.reference.value}: ${a.reference.reason}; bias band ±${num(a.biasBand[1])})\n`;
    const rows = [['group', 'n', ...shown.map((m) => outputMetricDef(m).short)]];
    for (const g of a.groups) {
      rows.push([
        g.value + (g.reference ? ' (ref)' : ''),
        String(g.n),
        ...shown.map((m) => {
          if (g.suppressed) return 'supp.';
          const c = a.comparisons.find((x) => x.group === g.value && x.metric === m);
          return `${num(g[m as keyof typeof g] as number | null)}${c ? MARK[c.verdict] : ''}`;
        }),
      ]);
    }
    s += align(rows);
    for (const m of outputMetricsOf('regression', true)) s += `  ${outputGuidance(m, r.favourable)}\n`;
  }
  const flags = flagLines(o);
  if (flags.length) s += `\n${flags.join('\n')}\n`;
  return s;
}

/**
 * One row per group: its figures (every metric of the kind in the table), their intervals, then per judged metric
 * the verdict, the tested estimate and the Holm-adjusted p-value. The score's threshold view has its own CSV
 * (formatMetricsCsv).
 */
export function formatOutputCsv(o: OutputReport & { kind: 'score' | 'regression' }): string {
  const kind = o.kind;
  const metrics = outputMetricsOf(kind);
  const judged = outputMetricsOf(kind, true);
  const head = ['column', 'value', 'n', 'reference', 'small', 'suppressed', ...metrics];
  for (const m of metrics) head.push(`${m}_lo`, `${m}_hi`);
  for (const m of judged) head.push(`${m}_estimate`, `${m}_se`, `${m}_verdict`, `${m}_direction`, `${m}_p_adjusted`);
  const lines = [head.join(',')];
  for (const a of o.report.attributes) {
    for (const g of a.groups) {
      const fig = (m: OutputMetricName): number | null => (g as unknown as Record<string, number | null>)[m] ?? null;
      const ci = (g as { ci?: Record<string, { lo: number; hi: number } | null> }).ci;
      const row: (string | number | boolean | null)[] = [
        a.column,
        g.value,
        g.n,
        g.reference,
        g.small,
        g.suppressed,
        ...metrics.map(fig),
      ];
      for (const m of metrics) {
        // the score's AUC interval is the comparison's; its per-group figure carries the SE instead
        const c = ci?.[m];
        row.push(c?.lo ?? null, c?.hi ?? null);
      }
      for (const m of judged) {
        const c = (a.comparisons as Comparison<string>[]).find((x) => x.group === g.value && x.metric === m);
        row.push(c?.estimate ?? null, c?.se ?? null, c?.verdict ?? null, c?.direction ?? null, c?.pAdjusted ?? null);
      }
      lines.push(row.map(csvField).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
