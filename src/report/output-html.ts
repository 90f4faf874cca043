// The report of an audit of a score, a class among k or a real value (OutputAuditResult): its header (the output's
// kind and why first, then what is not run), the verdict with its headline, the group metrics of its kind with
// intervals, and for a score the curve of selection-rate ratios across thresholds (charts.ts ratioCurve). The
// tables are the text formatters' (output-format.ts, multiclass-format.ts), so the report, the summary and
// `lucid metrics` say the same figures in the same words. Core code: no Node imports, no DOM.
import type { OutputAuditResult } from '../audit/types.js';
import {
  arrowOf,
  byConcern,
  JUDGED_METRICS,
  METRIC_DEFS,
  outputMetricDef,
  outputMetricsOf,
  MULTICLASS_RATE_NAMES,
  MULTICLASS_RATES,
  type Comparison,
  type MulticlassRate,
  formatMulticlassCsv,
  formatMulticlassTable,
  formatOutputCsv,
  formatRegressionTable,
  formatScoreTable,
  multiclassHeadline,
  outputHeadline,
} from '../methods/metrics/index.js';
import type { Verdict } from '../methods/metrics/verdicts.js';
import { ratioCurve } from './charts.js';
import { metricsTable, VERDICT_MARK } from './metrics-html.js';
import type { PlannedFile, SectionFiles } from './files.js';
import { escapeHtml as esc, fmtInt, fmtNum, fmtPct, fmtRatio } from './format.js';

/** The headline of an output audit: the most significant flag that disadvantages a group, or that there is none. */
export function outputAuditHeadline(r: OutputAuditResult): string {
  const m = r.metrics;
  return m.kind === 'multiclass' ? `headline: ${multiclassHeadline(m.report)}` : outputHeadline(m);
}

/** The verdict counts of the output's one Holm family. */
export function outputVerdictCounts(r: OutputAuditResult): Record<Verdict, number> {
  return r.metrics.report.verdicts.counts;
}

/** "2 flagged, 0 inconclusive, 5 pass, 0 too little data" */
export function verdictCountsText(r: OutputAuditResult): string {
  return Object.entries(outputVerdictCounts(r))
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

const pre = (text: string) => `<pre class="scroll small">${esc(text)}</pre>`;

/** The report's header: the output's kind and why, what is not run, the data, the model, the settings. */
export function outputHeader(r: OutputAuditResult): string {
  const m = r.meta;
  return (
    `<header>
${
  m.interrupted
    ? `<p class="alert" id="interrupted" role="alert">${m.interrupted.signal ? `${esc(m.interrupted.signal)}: ` : ''}` +
      `${esc(m.interrupted.text)}</p>\n`
    : ''
}<h1>Fairness audit report</h1>
<p class="alert weak" id="output-kind"><strong>Output: ${esc(m.output.kind)}.</strong> ${esc(m.output.reason)}.</p>
${r.notRun ? `<p id="not-run">${esc(r.notRun)}</p>\n` : ''}<p class="muted">${esc(m.data.source)} · ` +
    `${fmtInt(m.data.rows)} rows · label <code>${esc(m.label)}</code>` +
    `${m.positive !== null ? ` = <strong>${esc(m.positive)}</strong>` : ''} · favourable ${esc(m.output.favourable)} ` +
    `· model ${esc(m.model.source)} · protected ${r.protected.map((p) => esc(p.column)).join(', ') || 'none'} · ` +
    `created <time class="nw" datetime="${esc(m.created)}">${esc(m.created)}</time></p>
<details id="settings"><summary>Settings and provenance: ` +
    `${m.data.sha256 ? `data SHA-256 <code>${esc(m.data.sha256.slice(0, 12))}…</code>` : 'no data file hash'}, ` +
    `${m.model.sha256 ? `model SHA-256 <code>${esc(m.model.sha256.slice(0, 12))}…</code>` : 'no model file'}, audit ` +
    `seed ${esc(m.seed)}, ${esc(m.tool)} ${esc(m.version)}</summary>
<dl class="meta">
<dt>Seeds</dt><dd>${Object.entries(m.seeds)
      .map(([k, v]) => `${esc(k)} ${esc(v)}`)
      .join(' · ')}</dd>
<dt>Command</dt><dd><code>${esc(m.command.via === 'cli' ? `lucid ${m.command.argv.join(' ')}` : m.command.via)}` +
    `</code></dd>
</dl></details>
</header>`
  );
}

/** A judged comparison of an output audit with the verdict table's column it belongs to. */
interface Judged {
  attribute: string;
  column: string;
  c: Comparison<string>;
}

/**
 * Every judged comparison with its column, the columns in reading order: a score's AUC ratio then its threshold
 * view's metrics, a regression's judged metrics, a multiclass output's classes (in --class-order) × their rates.
 */
function judged(r: OutputAuditResult): { columns: string[]; rows: Judged[] } {
  const m = r.metrics;
  const rows: Judged[] = [];
  const label = (k: string) =>
    k in METRIC_DEFS ? METRIC_DEFS[k as keyof typeof METRIC_DEFS].label : outputMetricDef(k as never).label;
  if (m.kind === 'multiclass') {
    const order = m.report.classOrder ?? m.report.classes;
    const col = (cls: string, rate: MulticlassRate) => `${cls}: ${MULTICLASS_RATES[rate].short}`;
    const columns = order.flatMap((cls) => MULTICLASS_RATE_NAMES.map((rate) => col(cls, rate)));
    for (const a of m.report.attributes)
      for (const c of a.comparisons)
        rows.push({ attribute: a.column, column: col(c.class, c.metric as MulticlassRate), c });
    return { columns: columns.filter((col) => rows.some((x) => x.column === col)), rows };
  }
  const metrics: string[] =
    m.kind === 'score' ? [...outputMetricsOf('score', true), ...JUDGED_METRICS] : outputMetricsOf('regression', true);
  if (m.kind === 'score')
    for (const a of m.report.thresholdView.attributes)
      for (const c of a.comparisons) rows.push({ attribute: a.column, column: label(c.metric), c });
  for (const a of m.report.attributes)
    for (const c of a.comparisons) rows.push({ attribute: a.column, column: label(c.metric), c });
  return { columns: metrics.map(label).filter((col) => rows.some((x) => x.column === col)), rows };
}

/**
 * The verdict table: one row per attribute (its reference beneath), one column per judged metric (a class's rate for
 * multiclass), each cell the strongest verdict of the attribute's groups as a symbol and a word, the flagged groups
 * worst first with their direction.
 */
export function outputVerdictTableHtml(r: OutputAuditResult): string {
  const { columns, rows } = judged(r);
  const rank: Verdict[] = ['flagged', 'inconclusive', 'pass', 'too little data'];
  const attrs = r.metrics.report.attributes as readonly { column: string; reference: { value: string } }[];
  const body = attrs
    .map((a) => {
      const cells = columns.map((col) => {
        const cs = rows.filter((x) => x.attribute === a.column && x.column === col).map((x) => x.c);
        if (!cs.length) return '<td class="muted">—</td>';
        const v = rank.find((k) => cs.some((c) => c.verdict === k))!;
        const flagged = cs.filter((c) => c.verdict === 'flagged').sort(byConcern);
        const cls =
          v === 'flagged'
            ? flagged.some((c) => c.direction === 'disadvantaged')
              ? 'flag'
              : 'flag-soft'
            : v === 'inconclusive'
              ? 'flag-soft'
              : '';
        const who = flagged
          .slice(0, 2)
          .map((c) => `${esc(c.group)} ${arrowOf(c.direction)}`)
          .join(', ');
        const more = flagged.length > 2 ? ` +${flagged.length - 2}` : '';
        return (
          `<td${cls ? ` class="${cls}"` : ''}>${VERDICT_MARK[v]}` +
          `${who ? `<span class="ci">${who}${more}</span>` : ''}</td>`
        );
      });
      return (
        `<tr><td class="l">${esc(a.column)}<span class="ci">vs ${esc(a.reference.value)}</span></td>` +
        `${cells.join('')}</tr>`
      );
    })
    .join('');
  return (
    `<div class="scroll"><table class="metrics verdict-table"><thead><tr><th class="l">attribute (reference)</th>` +
    `${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table></div>`
  );
}

/** The first screen's Verdict: the headline, the verdict counts and the verdict table (one row per attribute). */
export function outputVerdictSection(r: OutputAuditResult): string {
  const m = r.metrics;
  const band: readonly [number, number] | null = m.report.verdicts.band;
  const table =
    outputVerdictTableHtml(r) +
    `<details class="small muted" id="verdict-legend"><summary>How the cells are decided</summary><p>Each cell: the ` +
    `strongest verdict of the attribute's groups against its reference (⚑ flagged: outside the band and ` +
    `significant after ${esc(m.report.verdicts.correction)}; ? inconclusive: outside, not significant; ✓ pass: ` +
    `inside; – too little data; ↓ disadvantaged, ↑ advantaged, ≠ differs, no favourable direction)` +
    `${band ? `; the ratio band [${fmtNum(band[0], 3)}, ${fmtNum(band[1], 3)}]` : ''}.` +
    `</p></details>`;
  return (
    `<section id="verdict"><h2 style="border:0;margin-top:.4em">Verdict</h2>` +
    `<p class="headline"><strong>${esc(outputAuditHeadline(r))}</strong></p>` +
    `<p class="small">${esc(m.report.verdicts.correction)}; verdict counts: ${esc(verdictCountsText(r))}.</p>` +
    `${table}</section>`
  );
}

/** The score's curve per attribute: every group but the reference, against it, across the sweep's thresholds. */
function scoreCurves(r: OutputAuditResult): string {
  const m = r.metrics;
  if (m.kind !== 'score') return '';
  const band = m.report.verdicts.band;
  return m.report.attributes
    .map((a) => {
      const thresholds = a.curve.map((p) => p.threshold);
      const others = a.groups.filter((g) => !g.reference && !g.suppressed);
      const series = others.map((g) => ({
        name: g.value,
        points: a.curve.map((p) => {
          const x = p.groups.find((q) => q.value === g.value);
          return { ratio: x?.ratio ?? null, lo: x?.interval?.lo ?? null, hi: x?.interval?.hi ?? null };
        }),
      }));
      return (
        `<figure id="curve-${esc(a.column.replace(/[^A-Za-z0-9_-]+/g, '-'))}">` +
        ratioCurve(thresholds, series, band, {
          reference: a.reference.value,
          xLabel: `threshold on ${m.report.pred} (favourable: ${m.report.favourable})`,
          title: `${a.column}: selection-rate ratio to ${a.reference.value} across thresholds`,
          subtitle: `${m.report.curve.thresholds}; ribbons: ${m.report.curve.interval}`,
        }) +
        `</figure>`
      );
    })
    .join('');
}

/** One figure with its interval beneath and, when it is compared with the reference, its verdict and ratio. */
function figureCell(
  v: number | null | undefined,
  ci: { lo: number; hi: number } | null | undefined,
  fmt: (x: number) => string,
  c: Comparison<string> | undefined,
  scale: 'ratio' | 'difference' = 'ratio',
): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '<td class="muted">—</td>';
  const interval = ci ? `<span class="ci">[${fmt(ci.lo)}, ${fmt(ci.hi)}]</span>` : '';
  const verdict = c
    ? `<span class="ci">${VERDICT_MARK[c.verdict]}${
        scale === 'difference'
          ? c.difference !== null
            ? ` Δ ${fmt(c.difference)}`
            : ''
          : c.ratio !== null
            ? ` ${fmtRatio(c.ratio)}×`
            : ''
      }` + `${c.verdict === 'flagged' ? ` ${arrowOf(c.direction)}` : ''}</span>`
    : '';
  const cls = c?.verdict === 'flagged' ? ' class="flag"' : c?.verdict === 'inconclusive' ? ' class="flag-soft"' : '';
  return `<td${cls}>${fmt(v)}${interval}${verdict}</td>`;
}

/** A group of any kind's table: its value, rows, and whether it is the reference, small or suppressed. */
interface FigureGroup {
  value: string;
  n: number;
  reference: boolean;
  small: boolean;
  suppressed: boolean;
  ci?: object | null;
}

/** A group's first cell: its value, ★ for the reference, its rows, and whether it is small or suppressed. */
const groupCell = (g: FigureGroup) =>
  `<td class="l">${esc(g.value)}${g.reference ? ' ★' : ''}${
    g.suppressed
      ? ' <span class="badge small">suppressed</span>'
      : g.small
        ? ' <span class="badge small">small</span>'
        : ''
  }</td><td>${g.suppressed ? '—' : fmtInt(g.n)}</td>`;

/**
 * The group metrics per attribute as HTML tables (one row per group, the reference ★, each figure with its interval
 * and, where judged, its verdict against the reference): a score's and a regression's metrics by OUTPUT_METRIC_DEFS,
 * a multiclass output's rates per class in --class-order.
 */
export function outputGroupTables(r: OutputAuditResult): string {
  const m = r.metrics;
  const table = (column: string, head: string[], rows: string[]) =>
    `<h4>${esc(column)}</h4><div class="scroll"><table class="metrics output-groups"><thead><tr>` +
    `<th class="l">group</th><th>rows</th>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>` +
    `${rows.join('')}</tbody></table></div>`;
  if (m.kind === 'multiclass') {
    const rep = m.report;
    const order = rep.classOrder ?? rep.classes;
    return rep.attributes
      .map((a) => {
        const head = order.flatMap((cls) =>
          MULTICLASS_RATE_NAMES.map((k) => `${esc(cls)}: ${MULTICLASS_RATES[k].short}`),
        );
        const rows = a.groups.map((g) => {
          const cells = order.flatMap((cls) => {
            const rates = g.classes.find((x) => x.class === cls);
            return MULTICLASS_RATE_NAMES.map((k) =>
              figureCell(
                rates?.[k].rate,
                rates?.[k].interval,
                (x) => fmtPct(x),
                a.comparisons.find((c) => c.group === g.value && c.class === cls && c.metric === k),
              ),
            );
          });
          return `<tr>${groupCell(g)}${cells.join('')}</tr>`;
        });
        return table(a.column, head, rows);
      })
      .join('');
  }
  const metrics = outputMetricsOf(m.kind);
  // a regression judged in its units (--tolerance-units) compares every metric by its difference
  const units = m.kind === 'regression' && m.report.verdicts.mode === 'units';
  const scaleOf = (k: string) => (units ? 'difference' : outputMetricDef(k as never).scale);
  const fmtOf = (k: string) => (x: number) => (outputMetricDef(k as never).units ? fmtNum(x, 5) : fmtNum(x, 3));
  // a score's and a regression's groups hold their figures under the metrics' names (OUTPUT_METRIC_DEFS)
  const attrs: readonly {
    column: string;
    groups: readonly FigureGroup[];
    comparisons: readonly Comparison<string>[];
  }[] = m.report.attributes;
  const tables = attrs
    .map((a) => {
      const head = metrics.map((k) => esc(outputMetricDef(k).short));
      const rows = a.groups.map((g) => {
        const ci = g.ci as Record<string, { lo: number; hi: number } | null> | undefined;
        const figures = g as unknown as Record<string, number | null>;
        const cells = metrics.map((k) =>
          figureCell(
            figures[k],
            ci?.[k],
            fmtOf(k),
            a.comparisons.find((c) => c.group === g.value && c.metric === k),
            scaleOf(k),
          ),
        );
        return `<tr>${groupCell(g)}${cells.join('')}</tr>`;
      });
      return table(a.column, head, rows);
    })
    .join('');
  // a score's threshold view is a binary report: the binary tables show it
  const view =
    m.kind === 'score'
      ? `<details id="threshold-view"><summary>The threshold view: the binary metrics at the threshold ` +
        `${fmtNum(m.report.threshold.value)} on ${esc(m.report.pred)} (favourable: ${esc(m.report.favourable)})` +
        `</summary>` +
        `${metricsTable(m.report.thresholdView, '-threshold')}</details>`
      : '';
  return tables + view;
}

/**
 * The group metrics of the output's kind: a score's curves, the tables per attribute and group with intervals and
 * verdicts, and the text tables (what `lucid metrics` prints) folded beneath.
 */
export function outputMetricsSection(r: OutputAuditResult): string {
  const m = r.metrics;
  const text =
    m.kind === 'score'
      ? formatScoreTable(m)
      : m.kind === 'regression'
        ? formatRegressionTable(m)
        : formatMulticlassTable(m.report);
  return (
    `<section id="metrics"><h2>Group metrics (${esc(m.kind)})</h2>${scoreCurves(r)}` +
    `<p class="small">Per group, each figure with its interval beneath; where it is judged against the ` +
    `reference (★), its verdict and ratio (⚑ flagged, ? inconclusive, ✓ pass, – too little data; ↓ ` +
    `disadvantaged, ↑ advantaged).</p>${outputGroupTables(r)}` +
    `<details id="metrics-text"><summary>The same tables as text (as <code>lucid metrics</code> prints them)` +
    `</summary>${pre(text)}</details></section>`
  );
}

/** metrics.csv (the kind's CSV) and metrics.json (its typed report with the output's kind and why). */
export function outputMetricsFiles(r: OutputAuditResult): SectionFiles {
  const m = r.metrics;
  const files: PlannedFile[] = [
    {
      name: 'metrics.json',
      kind: 'metrics',
      text: () => JSON.stringify({ output: m.output, ...m.report }, null, 2) + '\n',
    },
    {
      name: 'metrics.csv',
      kind: 'metrics',
      text: () => (m.kind === 'multiclass' ? formatMulticlassCsv(m.report) : formatOutputCsv(m)),
    },
  ];
  return { files };
}
