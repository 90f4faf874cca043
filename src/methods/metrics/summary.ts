// The verdict table (#18 item 1): one row per attribute (and intersection), one cell per judged metric,
// each cell the strongest verdict among the attribute's comparisons: flagged if any group is flagged,
// else inconclusive if any is, else pass if any comparison could be judged, else too little data.
// The report puts it first and the CLI prints it. Core code.
import { JUDGED_METRICS, type MetricName } from './definitions.js';
import type { MetricsReport } from './types.js';
import { arrowOf, byConcern, type Comparison, type Verdict } from './verdicts.js';

export interface VerdictCell {
  verdict: Verdict;
  /** flagged groups with their direction, disadvantaged first, then most significant (byConcern) */
  flagged: { group: string; direction: Comparison['direction']; ratio: number | null }[];
}

export interface VerdictRow {
  attribute: string;
  reference: string;
  cells: Record<MetricName, VerdictCell | null>;
}

const RANK: Record<Verdict, number> = { flagged: 3, inconclusive: 2, pass: 1, 'too little data': 0 };

/** The verdict table of one family of reports (an audit's attributes, then its intersection). */
export function verdictTable(reports: readonly (MetricsReport | null)[]): VerdictRow[] {
  const rows: VerdictRow[] = [];
  for (const r of reports) {
    for (const a of r?.attributes ?? []) {
      const cells = {} as Record<MetricName, VerdictCell | null>;
      for (const m of JUDGED_METRICS) {
        const cs = a.comparisons.filter((c) => c.metric === m);
        if (!cs.length) {
          cells[m] = null;
          continue;
        }
        let verdict: Verdict = 'too little data';
        for (const c of cs) if (RANK[c.verdict] > RANK[verdict]) verdict = c.verdict;
        const flagged = cs.filter((c) => c.verdict === 'flagged').sort(byConcern).map((c) => ({ group: c.group, direction: c.direction, ratio: c.ratio }));
        cells[m] = { verdict, flagged };
      }
      rows.push({ attribute: a.column, reference: a.reference.value, cells });
    }
  }
  return rows;
}

/** The cell as text, never by colour alone: "FLAGGED Female (x0.30, disadvantaged)", "inconclusive", "pass", "too little data". */
export function verdictCellText(c: VerdictCell | null, maxGroups = 2): string {
  if (!c) return '—';
  if (c.verdict !== 'flagged') return c.verdict;
  const g = c.flagged.slice(0, maxGroups).map((x) => `${x.group} ${x.ratio === null ? '' : `x${x.ratio.toFixed(2)} `}${arrowOf(x.direction)}`);
  return `FLAGGED ${g.join(', ')}${c.flagged.length > maxGroups ? ` +${c.flagged.length - maxGroups}` : ''}`;
}
