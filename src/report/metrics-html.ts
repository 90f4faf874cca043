// The group-metrics part of the report: per attribute the rates, the verdict of every comparison
// against the reference, the four-fifths yardstick, the LL144 impact table, calibration by group and
// the conditional disparity; and the verdict lines of the Findings. Every metric list comes from
// METRIC_DEFS. Core code: no Node imports, no DOM.
import {
  arrowOf,
  byConcern,
  CHARTED_METRICS,
  guidance,
  JUDGED_METRICS,
  METRIC_DEFS,
  metricDef,
  METRICS,
  METRICS_DEFAULTS,
  suppressedText,
  verdictTable,
  wilsonInterval,
  type AttributeResult,
  type Comparison,
  type Counts,
  type Favourable,
  type Interval,
  type MetricsReport,
  type Verdict,
  type Yardsticks,
  yardstickFailureText,
  yardsticksOf,
} from '../methods/metrics/index.js';
import { groupRates, type RateMark } from './charts.js';
import { escapeHtml as esc, finite, fmtInt, fmtNum, fmtPct, fmtRatio } from './format.js';

function pctCell(v: number | null | undefined, ci: Interval | undefined): string {
  const c =
    ci && (finite(ci.lo) || finite(ci.hi)) ? `<span class="ci">[${fmtPct(ci.lo)}, ${fmtPct(ci.hi)}]</span>` : '';
  return `<td>${fmtPct(v)}${c}</td>`;
}

const levelText = (c: Comparison) => (c.level !== null ? `${fmtNum(100 * (1 - c.level), 4)}%` : '');

/** One comparison as a table cell: ratio, verdict badge, the interval at its corrected level. */
function verdictCell(c: Comparison | undefined, r: MetricsReport): string {
  if (!c) return '<td>—</td>';
  if (c.counts === null)
    return (
      `<td class="muted" title="${esc(c.reason ?? '')}"><span class="badge small">– ` +
      `${esc(suppressedText(r.suppressBelow ?? 0))}</span></td>`
    );
  const iv = c.interval
    ? `<span class="ci">${levelText(c)}: [${fmtRatio(c.interval.lo)}, ${fmtRatio(c.interval.hi)}]</span>`
    : '';
  const title = esc(
    `${METRIC_DEFS[c.metric].label} ${fmtPct(c.rate)} vs ${fmtPct(c.referenceRate)}` +
      `${c.counts ? ` (${c.counts.x}/${c.counts.n} vs ${c.counts.xRef}/${c.counts.nRef})` : ''}` +
      `${c.pAdjusted !== null ? `; Holm-adjusted p ${fmtNum(c.pAdjusted, 3)}` : ''}` +
      `${c.reason ? `; ${c.reason}` : ''}; ${guidance(c.metric, r.favourable)}`,
  );
  switch (c.verdict) {
    case 'flagged': {
      const cls = c.direction === 'disadvantaged' ? 'flag' : 'flag-soft';
      return (
        `<td class="${cls}" title="${title}">${fmtRatio(c.ratio)}× <span class="badge flag">⚑ ` +
        `${esc(c.direction ?? 'flagged')}</span>${iv}</td>`
      );
    }
    case 'inconclusive':
      return (
        `<td class="flag-soft" title="${title}">${fmtRatio(c.ratio)}× <span class="badge soft">? ` +
        `inconclusive</span>${iv}</td>`
      );
    case 'pass':
      return `<td title="${title}">${fmtRatio(c.ratio)}× <span class="badge agree">✓ pass</span></td>`;
    default:
      return (
        `<td class="muted" title="${title}">${fmtRatio(c.ratio)}× <span class="badge small">– too little ` +
        `data</span></td>`
      );
  }
}

function attributeTables(a: AttributeResult, r: MetricsReport, idSuffix: string): string {
  const out: string[] = [];
  out.push(
    `<h4 id="${anchorOf(a.column)}${idSuffix}">${esc(a.column)} <span class="muted small">— reference: ` +
      `${esc(a.reference.value)} (${esc(a.reference.reason)})` +
      `${a.unknown ? ` · ${fmtInt(a.unknown)} rows with no value left out` : ''}</span></h4>`,
  );
  out.push('<table class="metrics groups"><thead><tr><th class="l">group</th><th>n</th>');
  for (const m of METRICS) out.push(`<th title="${esc(METRIC_DEFS[m].help)}">${esc(METRIC_DEFS[m].label)}</th>`);
  out.push('</tr></thead><tbody>');
  for (const g of a.groups) {
    const badges =
      (g.reference ? '<span class="badge priv">★ reference</span>' : '') +
      (g.suppressed
        ? `<span class="badge small">⚠ suppressed</span>`
        : g.small
          ? `<span class="badge small">⚠ small (&lt; ${fmtInt(r.minGroupSize)})</span>`
          : '');
    out.push(
      `<tr${g.small ? ' class="smallgroup"' : ''}><td class="l">${esc(g.value)}${badges}</td><td>${fmtInt(g.n)}</td>`,
    );
    if (g.suppressed)
      out.push(`<td class="l muted" colspan="${METRICS.length}">${esc(suppressedText(r.suppressBelow ?? 0))}</td>`);
    else for (const m of METRICS) out.push(pctCell(g[m], g.ci?.[m]));
    out.push('</tr>');
  }
  out.push('</tbody></table>');
  const others = a.groups.filter((g) => !g.reference);
  if (others.length) {
    out.push(`<table class="metrics verdicts"><thead><tr><th class="l">ratio to ${esc(a.reference.value)}</th>`);
    for (const m of JUDGED_METRICS)
      out.push(`<th title="${esc(guidance(m, r.favourable))}">${esc(METRIC_DEFS[m].label)}</th>`);
    out.push(
      '<th title="selection rate over the most selected group that is not small; the legal yardstick, not a verdict">' +
        'four-fifths</th></tr></thead><tbody>',
    );
    for (const g of others) {
      out.push(`<tr><td class="l">${esc(g.value)}</td>`);
      for (const m of JUDGED_METRICS)
        out.push(
          verdictCell(
            a.comparisons.find((c) => c.group === g.value && c.metric === m),
            r,
          ),
        );
      const q = a.fourFifths.ratio[g.value];
      out.push(
        `<td>${
          q === null || q === undefined
            ? '—'
            : `${fmtRatio(q)}×` +
              `${a.fourFifths.below.includes(g.value) ? ' <span class="badge soft">below 4/5</span>' : ''}`
        }</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  out.push(
    `<details><summary>Impact ratios in the NYC Local Law 144 form (${esc(a.impact.kind)})</summary>` +
      `${impactHtml(a)}</details>`,
  );
  if (a.calibration)
    out.push(
      `<details><summary>Calibration by group (expected calibration error)</summary>${calibrationHtml(a)}</details>`,
    );
  if (a.conditional) out.push(conditionalHtml(a));
  return out.join('');
}

function impactHtml(a: AttributeResult): string {
  const t = a.impact;
  const rows = t.rows
    .map(
      (x) =>
        `<tr${x.excluded ? ' class="smallgroup"' : ''}><td class="l">` +
        `${esc(x.category)}${x.category === t.highest ? ' <span class="badge priv">highest</span>' : ''}</td>` +
        `<td>${fmtInt(x.n)}</td><td>${fmtPct(x.share)}</td><td>` +
        `${x.suppressed ? 'suppressed' : fmtPct(x.rate)}</td><td>${
          x.suppressed
            ? 'suppressed'
            : x.excluded
              ? `excluded (&lt; ${fmtPct(t.minShare, 0)} of rows)`
              : fmtRatio(x.impactRatio)
        }</td></tr>`,
    )
    .join('');
  const what =
    t.kind === 'scoring rate'
      ? `the share of the category on the favourable side of the whole sample's median score (${fmtNum(t.median)})`
      : 'the share of the category given the favourable outcome';
  return (
    `<p class="small">Rate: ${what}. Impact ratio: the rate over the highest rate among categories holding at ` +
    `least ${fmtPct(t.minShare, 0)} of the rows; smaller categories are shown and left out. ${fmtInt(t.unknown)} ` +
    `rows had an unknown value and are left out.</p><table><thead><tr><th class="l">category</th><th>n</th><th>` +
    `share</th><th>${esc(t.kind)}</th><th>impact ratio</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function calibrationHtml(a: AttributeResult): string {
  const cal = a.calibration!;
  const rows = cal
    .map(
      (c) =>
        `<tr><td class="l">${esc(c.group)}</td><td>${fmtInt(c.n)}</td><td>` +
        `${c.suppressed ? 'suppressed' : fmtNum(c.ece, 3)}` +
        `${c.ci ? `<span class="ci">[${fmtNum(c.ci.lo, 3)}, ${fmtNum(c.ci.hi, 3)}]</span>` : ''}</td><td ` +
        `class="l small">${c.bins
          .filter((b) => b.n > 0)
          .map(
            (b) =>
              `${fmtNum(b.lo, 1)}–${fmtNum(b.hi, 1)}: ${fmtPct(b.positiveShare)} positive at mean score ` +
              `${fmtPct(b.meanScore)} (n ${fmtInt(b.n)})`,
          )
          .join('; ')}</td></tr>`,
    )
    .join('');
  return (
    `<p class="small">A calibrated score means the same chance of the positive label in every group. ECE: the ` +
    `row-weighted mean of |share positive − mean score| over ${cal[0]?.bins.length ?? 0} equal-width score bins, ` +
    `with a 95% bootstrap interval; it is biased upwards on few rows.</p><table><thead><tr><th class="l">` +
    `group</th><th>n</th><th>ECE</th><th class="l">reliability (per bin)</th></tr></thead><tbody>${rows}</tbody>` +
    `</table>`
  );
}

function conditionalHtml(a: AttributeResult): string {
  const c = a.conditional!;
  const rows = c.rows
    .map(
      (x) =>
        `<tr><td class="l">${esc(x.group)}</td><td>${fmtRatio(x.crude)}×</td><td>` +
        `${fmtRatio(x.conditional)}×` +
        `${x.ci ? `<span class="ci">[${fmtRatio(x.ci.lo)}, ${fmtRatio(x.ci.hi)}]</span>` : ''}</td><td>` +
        `${x.explainedShare === null ? '—' : fmtPct(x.explainedShare, 0)}</td><td>` +
        `${fmtInt(x.comparedRows)}</td></tr>`,
    )
    .join('');
  return (
    `<p class="small"><strong>Explained and unexplained disparity.</strong> Selection-rate ratio to ` +
    `${esc(c.reference)}: as it is (crude), and within ${fmtInt(c.strata)} strata of the factors named ` +
    `legitimate (${c.columns.map(esc).join(', ')}; numeric ones in quintiles), combined by the Mantel–Haenszel ` +
    `ratio with a ${fmtPct(c.confidence, 0)} interval (not corrected for multiplicity). The explained share is ` +
    `the part of the log ratio the legitimate factors account for.</p><table><thead><tr><th class="l">group</th>` +
    `<th>crude</th><th>within strata (unexplained)</th><th>explained</th><th>rows compared</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`
  );
}

/**
 * Group metrics as HTML: how the verdicts were reached, then per attribute the rates per group
 * (reference ★, small groups marked, bootstrap CIs beneath when present) and the verdict table.
 */
export function metricsTable(report: MetricsReport, idSuffix = ''): string {
  const out: string[] = ['<div class="metrics-report">'];
  const how =
    report.predKind === 'scores' ? `scores read as positive above ${fmtNum(report.threshold)}` : 'predicted labels';
  const v = report.verdicts;
  out.push(
    `<p class="muted small">${fmtInt(report.rows)} rows · label <code>${esc(report.label)}</code> = ` +
      `${esc(report.positive)} ` +
      `(${report.favourable === 'positive' ? 'the favourable outcome' : 'the unfavourable outcome'}) · predictions ` +
      `<code>${esc(report.pred)}</code> (${esc(how)}) · groups under ${fmtInt(report.minGroupSize)} rows are small ` +
      `and get no verdict · ratios inside [${fmtRatio(v.band[0])}, ${fmtRatio(v.band[1])}] pass; ` +
      `${esc(v.correction)}, family-wise error ${fmtPct(v.alpha, 0)}` +
      (report.bootstrap
        ? ` · ${Math.round(report.bootstrap.confidence * 100)}% bootstrap intervals of the rates from ` +
          `${fmtInt(report.bootstrap.resamples)} resamples (seed ${esc(report.bootstrap.seed)}; ` +
          `${esc(report.bootstrap.method)})`
        : '') +
      '</p>',
  );
  for (const a of report.attributes) out.push(`<div class="scroll">${attributeTables(a, report, idSuffix)}</div>`);
  out.push('</div>');
  return out.join('');
}

/** confidence of the rate charts' whiskers (per group, not corrected: the verdicts carry the correction) */
const CHART_CONFIDENCE = 0.95;

/**
 * One attribute's rates as a chart: per group and charted metric, the rate with its Wilson interval
 * from the group's own counts, and the comparison's verdict as a mark.
 */
export function rateChart(a: AttributeResult, favourable: Favourable): string {
  // a small group is hatched, which says "too little data" already
  const markOf = (g: AttributeResult['groups'][number], m: (typeof CHARTED_METRICS)[number]): RateMark => {
    const c = a.comparisons.find((x) => x.group === g.value && x.metric === m);
    if (!c || g.small) return null;
    return c.verdict === 'flagged' ? (c.direction ?? 'differs') : c.verdict === 'pass' ? null : c.verdict;
  };
  return groupRates({
    attribute: a.column,
    panels: CHARTED_METRICS.map((m) => METRIC_DEFS[m].label),
    confidence: CHART_CONFIDENCE,
    intervalName: 'Wilson',
    groups: a.groups.map((g) => ({
      value: g.value,
      n: g.n,
      reference: g.reference,
      small: g.small,
      rates: CHARTED_METRICS.map((m) => g[m]),
      // a suppressed group has no counts, so no interval either
      intervals: CHARTED_METRICS.map((m) =>
        g.tp === null || g.fp === null || g.tn === null || g.fn === null
          ? null
          : wilsonInterval(
              metricDef(m).num(g as Counts, favourable),
              metricDef(m).den(g as Counts, favourable),
              CHART_CONFIDENCE,
            ),
      ),
      ...(g.suppressed ? { note: 'suppressed' } : {}),
      marks: CHARTED_METRICS.map((m) => markOf(g, m)),
    })),
  });
}

/** The id of an attribute's metrics tables (the verdict table links to it). */
export const anchorOf = (column: string): string => `metrics-${column.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/**
 * The legal yardsticks' cell of the verdict table: ✗ fails with the lowest group below 0.8 when the
 * four-fifths rule or the LL144 impact ratio fails, ✓ holds when they were computed and hold, – when
 * neither could be computed. Its own column, so a failed yardstick is never read as a verdict's pass.
 * The group is written whole (a long name wraps in the cell; nothing is cut).
 */
export function yardstickCell(y: Yardsticks, link: string): string {
  if (y.fails) {
    // one short line, as the verdicts' cells: the lowest group of the four-fifths rule (else LL144's); every group in
    // the title and the tables
    const [prefix, fs] = y.fourFifths.below.length ? ['', y.fourFifths.below] : ['LL144: ', y.impact.below];
    const g = fs[0].group;
    return (
      `<td class="flag" title="${esc(yardstickFailureText(y, Infinity))}"><a href="${link}">✗ fails</a><span ` +
      `class="ci">${prefix}${esc(g)}&nbsp;${fmtRatio(fs[0].ratio)}</span></td>`
    );
  }
  if (!y.fourFifths.judged && !y.impact.judged) return `<td class="muted"><a href="${link}">– too little data</a></td>`;
  return `<td><a href="${link}">✓ holds</a></td>`;
}

/** A verdict table cell's word, after a symbol, so that the verdict never rests on colour alone. */
export const VERDICT_MARK: Record<Verdict, string> = {
  flagged: '⚑ flagged',
  inconclusive: '? inconclusive',
  pass: '✓ pass',
  'too little data': '– too little data',
};

/**
 * The verdict table: one row per attribute and intersection, one column per judged metric, each cell
 * the strongest verdict of that attribute and metric, as a symbol and a word (never colour alone), linked
 * to the attribute's tables; then the legal yardsticks (four-fifths, LL144) in a column of their own.
 */
export function verdictTableHtml(reports: readonly (MetricsReport | null)[]): string {
  const rows = verdictTable(reports);
  if (!rows.length) return '';
  const r0 = reports.find((r) => r) as MetricsReport;
  const head =
    JUDGED_METRICS.map((m) => `<th title="${esc(guidance(m, r0.favourable))}">${esc(METRIC_DEFS[m].label)}</th>`).join(
      '',
    ) +
    `<th title="the four-fifths rule (the favourable decision's rate over the most selected group that is not small) ` +
    `and the NYC LL144 impact ratio (on scores: the share above the median score): the legal yardsticks, not a ` +
    `statistical verdict">4/5, LL144</th>`;
  const body = rows
    .map((row) => {
      const cells =
        JUDGED_METRICS.map((m) => {
          const c = row.cells[m];
          if (!c) return '<td class="muted">—</td>';
          const cls =
            c.verdict === 'flagged'
              ? c.flagged.some((x) => x.direction === 'disadvantaged')
                ? 'flag'
                : 'flag-soft'
              : c.verdict === 'inconclusive'
                ? 'flag-soft'
                : '';
          const mark = VERDICT_MARK[c.verdict];
          // one or two groups, short enough that nine columns fit the page; the rest as a count
          const named = c.flagged.slice(0, c.flagged.slice(0, 2).reduce((s, x) => s + x.group.length, 0) <= 24 ? 2 : 1);
          const who =
            named.map((x) => `${esc(x.group)} ${arrowOf(x.direction)}`).join(', ') +
            (c.flagged.length > named.length ? ` +${c.flagged.length - named.length}` : '');
          return (
            `<td${cls ? ` class="${cls}"` : ''}><a href="#${anchorOf(row.attribute)}">${mark}</a>` +
            `${who ? `<span class="ci">${who}</span>` : ''}</td>`
          );
        }).join('') + yardstickCell(row.yardsticks, `#${anchorOf(row.attribute)}`);
      return (
        `<tr><td class="l"><a href="#${anchorOf(row.attribute)}">${esc(row.attribute)}</a><span class="ci">vs ` +
        `${esc(row.reference)}</span></td>${cells}</tr>`
      );
    })
    .join('');
  const v = r0.verdicts;
  return (
    `<section id="verdict"><h2 style="border:0;margin-top:.4em">Verdict</h2><div class="scroll"><table ` +
    `class="metrics verdict-table"><thead><tr><th class="l">attribute (reference)</th>${head}</tr></thead><tbody>` +
    `${body}</tbody></table></div><details class="small muted" id="verdict-legend"><summary>How the cells are ` +
    `decided</summary><p>Each metric's cell: the strongest verdict of the attribute's groups against the ` +
    `reference (⚑ flagged: outside [${fmtRatio(v.band[0])}, ${fmtRatio(v.band[1])}] and significant, ` +
    `${esc(v.correction.split(' (')[0])}, family-wise error ${fmtPct(v.alpha, 0)}; ? inconclusive: outside, not ` +
    `significant; ✓ pass: inside; – too little data; ↓ disadvantaged, ↑ advantaged, ≠ differs, no favourable ` +
    `direction). The last column is no verdict: the legal yardsticks, ✗ where a group's four-fifths ratio (the ` +
    `favourable decision's rate to the most selected group's; the lowest beneath) or LL144 impact ratio (the ` +
    `selection rate, or on scores the share above the median score, to the highest-rate category's) is under ` +
    `${fmtRatio(METRICS_DEFAULTS.fourFifths)}, whatever the verdicts say. Click a cell for its table.</p>` +
    `</details></section>`
  );
}

/** groups named per attribute in a Findings line (the tables list them all) */
const FINDINGS_MAX = 6;

/** The Findings lines of the verdicts: per attribute the flagged comparisons, worst first, and what is inconclusive. */
export function verdictFindings(r: MetricsReport | null, why?: (attribute: string) => string): string[] {
  if (!r) return [];
  const out: string[] = [];
  for (const a of r.attributes) {
    const flagged = a.comparisons.filter((c) => c.verdict === 'flagged').sort(byConcern);
    const inconclusive = a.comparisons.filter((c) => c.verdict === 'inconclusive').length;
    const ff = a.fourFifths.below.length
      ? ` Four-fifths rule (the legal yardstick): selection rate below 0.8 of ${esc(a.fourFifths.reference)}'s for ` +
        `${a.fourFifths.below.slice(0, FINDINGS_MAX).map(esc).join(', ')}${
          a.fourFifths.below.length > FINDINGS_MAX ? ` and ${a.fourFifths.below.length - FINDINGS_MAX} more` : ''
        }.`
      : '';
    if (!flagged.length) {
      // an inconclusive disparity or a four-fifths hit still gets its explanation
      const why0 = why && (inconclusive || ff) ? why(a.column) : '';
      const inc = inconclusive
        ? ` (${fmtInt(inconclusive)} comparison${inconclusive === 1 ? '' : 's'} outside the band but not ` +
          `significant: inconclusive)`
        : '';
      const ys = yardstickFailureText(yardsticksOf(a), FINDINGS_MAX);
      // a failed yardstick first, never under "no flag": the statistical verdicts and the legal yardstick are two
      // statements
      if (ys)
        out.push(
          `<span class="badge flag">✗ legal yardstick</span> ${esc(a.column)}: ${esc(ys)}; no statistical verdict ` +
            `flags it against ${esc(a.reference.value)}${inc}.${why0 ? ` ${why0}` : ''}`,
        );
      else out.push(`${esc(a.column)}: no flag against ${esc(a.reference.value)}${inc}.${why0 ? ` ${why0}` : ''}`);
      continue;
    }
    const items = flagged
      .slice(0, FINDINGS_MAX)
      .map(
        (c) =>
          `<strong>${esc(c.group)}</strong> ${esc(METRIC_DEFS[c.metric].label)} ${fmtPct(c.rate)} vs ` +
          `${fmtPct(c.referenceRate)} (${fmtRatio(c.ratio)}×, ${levelText(c)} interval ` +
          `[${fmtRatio(c.interval!.lo)}, ${fmtRatio(c.interval!.hi)}]; ${esc(c.direction)})`,
      );
    const more = flagged.length - FINDINGS_MAX;
    const extra = why ? why(a.column) : '';
    out.push(
      `<span class="badge flag">⚑ flagged</span> ${esc(a.column)} against ${esc(a.reference.value)}: ` +
        `${items.join('; ')}${more > 0 ? `; and ${fmtInt(more)} more (see the metrics tables)` : ''}.` +
        `${inconclusive ? ` ${fmtInt(inconclusive)} more inconclusive.` : ''}${ff}${extra ? ` ${extra}` : ''}`,
    );
  }
  return out;
}
