// Text forms of a MetricsReport: an aligned table for people, CSV (one row per group) for tools.
import type { Interval, MetricName, MetricsReport } from './index.js';

const NAMES: MetricName[] = ['base_rate', 'positivity_rate', 'tpr', 'fpr', 'ppv', 'accuracy'];
const SHORT: Record<MetricName, string> = { base_rate: 'base', positivity_rate: 'pos', tpr: 'TPR', fpr: 'FPR', ppv: 'PPV', accuracy: 'acc' };

const pct = (v: number | null) => (v === null ? '-' : (100 * v).toFixed(1));
const signed = (v: number | null) => (v === null ? '-' : (v >= 0 ? '+' : '') + (100 * v).toFixed(1));
const ratio = (v: number | null) => (v === null ? '-' : v.toFixed(2));
const ci = (c: Interval | undefined, f: (v: number | null) => string) => (c ? ` [${f(c.lo)}, ${f(c.hi)}]` : '');

function align(rows: string[][]): string {
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows.map((r) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  ')).join('\n') + '\n';
}

export function formatMetricsTable(r: MetricsReport): string {
  let s = `${r.rows} rows; label ${r.label} (positive "${r.positive}"); predictions ${r.pred} read as ${r.predKind === 'labels' ? 'predicted labels' : `scores, positive when > ${r.threshold}`}\n`;
  s += 'rates in %; - = undefined (no positives or no predicted positives)\n';
  for (const a of r.attributes) {
    s += `\n${a.column}: privileged ${a.privileged.value} (${a.privileged.source})\n`;
    const rows = [['group', 'n', ...NAMES.map((m) => SHORT[m])]];
    for (const g of a.groups) rows.push([g.value + (g.privileged ? ' *' : ''), String(g.n), ...NAMES.map((m) => pct(g[m]) + ci(g.ci?.[m], pct))]);
    s += align(rows);
    s += 'disparities: difference (unprivileged - privileged, points) and ratio (unprivileged / privileged; ! below 0.8)\n';
    const drows = [['group', ...NAMES.map((m) => SHORT[m])]];
    for (const g of a.groups) {
      if (g.privileged) continue;
      drows.push([g.value, ...NAMES.map((m) => {
        const d = a.disparities[m];
        const q = d.ratio[g.value];
        return `${signed(d.difference[g.value])}${ci(d.ci?.difference[g.value], signed)} x${ratio(q)}${q !== null && q < 0.8 ? '!' : ''}`;
      })]);
    }
    drows.push(['max - min', ...NAMES.map((m) => pct(a.disparities[m].max_minus_min) + ci(a.disparities[m].ci?.max_minus_min, pct))]);
    s += align(drows);
  }
  if (r.bootstrap) s += `\nintervals: ${Math.round(r.bootstrap.confidence * 100)}% bootstrap (${r.bootstrap.resamples} resamples, seed ${r.bootstrap.seed}; ${r.bootstrap.method})\n`;
  return s;
}

const csvCell = (v: string | number | boolean | null) => {
  const t = v === null ? '' : String(v);
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

/** One row per group: counts, rates, then per metric the difference and ratio to the privileged group (and CIs with bootstrap). */
export function formatMetricsCsv(r: MetricsReport): string {
  const boot = r.bootstrap !== null;
  const head = ['column', 'value', 'n', 'privileged', 'tp', 'fp', 'tn', 'fn', ...NAMES];
  for (const m of NAMES) head.push(`${m}_difference`, `${m}_ratio`);
  if (boot) for (const m of NAMES) head.push(`${m}_lo`, `${m}_hi`);
  const lines = [head.join(',')];
  for (const a of r.attributes) {
    for (const g of a.groups) {
      const row: (string | number | boolean | null)[] = [a.column, g.value, g.n, g.privileged, g.tp, g.fp, g.tn, g.fn, ...NAMES.map((m) => g[m])];
      for (const m of NAMES) row.push(g.privileged ? null : a.disparities[m].difference[g.value], g.privileged ? null : a.disparities[m].ratio[g.value]);
      if (boot) for (const m of NAMES) row.push(g.ci![m].lo, g.ci![m].hi);
      lines.push(row.map(csvCell).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
