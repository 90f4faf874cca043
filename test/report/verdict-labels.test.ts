// No verdict by colour alone (a reader who cannot tell the colours apart): every verdict kind renders a word and a
// symbol in the verdict table and in the metrics tables (a pass too, not an uncoloured cell), and every status of a
// heat-map cell's check against the real rows carries its symbol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  groupMetrics,
  verdictCellText,
  verdictTable,
  VERDICTS,
  type MetricsReport,
  type Verdict,
} from '../../src/methods/metrics/index.js';
import { metricsTable, verdictTableHtml } from '../../src/report/metrics-html.js';
import { heatmap, SHIFT_MARK } from '../../src/report/charts.js';
import type { ShiftStatus } from '../../src/audit/checks.js';
import { cat, table } from '../helpers/tables.js';
import { sampleAuditResult } from './sample-audit.js';

/** What each verdict must say, in the verdict table and in the metrics tables. */
const VERDICT_TABLE_LABEL: Record<Verdict, string> = {
  flagged: '⚑ flagged',
  inconclusive: '? inconclusive',
  pass: '✓ pass',
  'too little data': '– too little data',
};
const METRICS_TABLE_LABEL: Record<Verdict, string> = {
  flagged: '⚑ disadvantaged',
  inconclusive: '? inconclusive',
  pass: '✓ pass',
  'too little data': '– too little data',
};

function report(): MetricsReport {
  const g = [...new Array<string>(100).fill('A'), ...new Array<string>(100).fill('B')];
  const y = g.map((_, i) => (i % 3 === 0 ? 'yes' : 'no'));
  const p = g.map((_, i) => (i % 4 === 0 ? 'yes' : 'no'));
  return groupMetrics(table(cat('g', g), cat('y', y, ['no', 'yes']), cat('p', p, ['no', 'yes'])), {
    label: 'y',
    positive: 'yes',
    pred: 'p',
    groups: ['g'],
    minGroupSize: 10,
  });
}

/** The report with every comparison given verdict `v` (a flagged one disadvantaged, with an interval). */
function withVerdict(v: Verdict): MetricsReport {
  const r = structuredClone(report());
  for (const c of r.attributes[0].comparisons) {
    c.verdict = v;
    c.direction = v === 'flagged' ? 'disadvantaged' : null;
    if (v === 'flagged') Object.assign(c, { pAdjusted: 0.001, level: 0.001, interval: { lo: 0.3, hi: 0.6 } });
  }
  return r;
}

const cellsOf = (html: string, tableClass: string): string[] => {
  const t = html.slice(html.indexOf(`class="${tableClass}`));
  const body = t.slice(t.indexOf('<tbody>'), t.indexOf('</tbody>'));
  // the first cell of a row names the group or attribute; the rest are verdict cells (the metrics table's last:
  // four-fifths)
  return (body.match(/<tr>[\s\S]*?<\/tr>/g) ?? []).flatMap((row) => (row.match(/<td[\s\S]*?<\/td>/g) ?? []).slice(1));
};

test('every verdict kind has its word and symbol in the verdict table, the metrics tables and the text', () => {
  for (const v of VERDICTS) {
    const r = withVerdict(v);
    // the verdict table's last column is the legal yardsticks' (not a verdict)
    const vt = cellsOf(verdictTableHtml([r]), 'metrics verdict-table').slice(0, -1);
    assert.ok(vt.length >= 6, `verdict table cells for ${v}`);
    for (const c of vt) assert.ok(c.includes(VERDICT_TABLE_LABEL[v]), `${v}: ${c}`);
    const mt = cellsOf(metricsTable(r), 'metrics verdicts').slice(0, -1);
    assert.ok(mt.length >= 6, `metrics table cells for ${v}`);
    for (const c of mt) assert.ok(c.includes(METRICS_TABLE_LABEL[v]), `${v}: ${c}`);
    // the text form (CLI): a word for every verdict
    for (const row of verdictTable([r]))
      for (const cell of Object.values(row.cells))
        if (cell) assert.match(verdictCellText(cell), v === 'flagged' ? /^FLAGGED / : new RegExp(`^${v}$`));
  }
});

test("a heat-map cell's check against the real rows is a symbol beside its n, not only an outline", () => {
  const h = sampleAuditResult().intersections[0].heatmap;
  const statuses: ShiftStatus[] = ['agrees', 'overstates', 'understates', 'disagrees', 'unsettled', 'within noise'];
  for (const st of statuses) {
    const svg = heatmap(
      { ...h, shiftStatus: h.n.map((row) => row.map((n) => (n > 0 ? st : null))) },
      { value: 'shift' },
    );
    const nLines = (svg.match(/>n=[^<]*</g) ?? []).filter((l) => !l.startsWith('>n=0 ') && l !== '>n=0<');
    assert.ok(nLines.length > 0);
    for (const l of nLines) assert.ok(l.includes(SHIFT_MARK[st]), `${st}: ${l}`);
    assert.equal(new Set(Object.values(SHIFT_MARK)).size, statuses.length, 'a different symbol for every status');
  }
  // the selection map carries no check symbol
  assert.ok(!(heatmap(h, { value: 'selection' }).match(/>n=[^<]*</g) ?? []).some((l) => /[✓✗~±?]/.test(l)));
});
