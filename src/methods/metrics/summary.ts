// The verdict table: one row per attribute (and intersection), one cell per judged metric,
// each cell the strongest verdict among the attribute's comparisons: flagged if any group is flagged,
// else inconclusive if any is, else pass if any comparison could be judged, else too little data.
// The report puts it first and the CLI prints it. Core code.
import { JUDGED_METRICS, METRIC_DEFS, type MetricName } from './definitions.js';
import { METRICS_DEFAULTS } from './group-metrics.js';
import type { AttributeResult, MetricsReport } from './types.js';
import { arrowOf, byConcern, type Comparison, type Verdict } from './verdicts.js';
import { fmtRatio, MISSING, pctText } from '../../data/text.js';

export interface VerdictCell {
  verdict: Verdict;
  /** flagged groups with their direction, disadvantaged first, then most significant (byConcern) */
  flagged: { group: string; direction: Comparison['direction']; ratio: number | null }[];
}

export interface VerdictRow {
  attribute: string;
  reference: string;
  cells: Record<MetricName, VerdictCell | null>;
  /** the legal yardsticks, in their own column: never read as a statistical verdict */
  yardsticks: Yardsticks;
}

/** A group whose ratio to the yardstick's top group is below the yardstick's 0.8. */
export interface YardstickFailure {
  group: string;
  ratio: number;
}

/**
 * The legal yardsticks of one attribute: the four-fifths rule (the favourable decision's rate over
 * the most selected group that is not small) and the NYC LL144 impact ratio (the selection rate, or
 * on scores the scoring rate, the share on the favourable side of the median score, over the highest
 * among categories of at least 2% of the rows), each failing for the groups below
 * METRICS_DEFAULTS.fourFifths (0.8). `judged` is false when no ratio could be computed.
 */
export interface Yardsticks {
  fourFifths: { against: string | null; below: YardstickFailure[]; judged: boolean };
  impact: {
    kind: AttributeResult['impact']['kind'];
    against: string | null;
    below: YardstickFailure[];
    judged: boolean;
  };
  /** either yardstick fails for some group */
  fails: boolean;
}

/** The attribute's yardsticks, lowest ratio first. */
export function yardsticksOf(a: AttributeResult): Yardsticks {
  const ff = a.fourFifths;
  const limit = METRICS_DEFAULTS.fourFifths;
  const byRatio = (x: YardstickFailure, y: YardstickFailure) => x.ratio - y.ratio || (x.group < y.group ? -1 : 1);
  const ffBelow = ff.below.map((g) => ({ group: g, ratio: ff.ratio[g] as number })).sort(byRatio);
  const imp = a.impact;
  const rated = imp.rows.filter((x) => !x.excluded && !x.suppressed && x.impactRatio !== null);
  const impBelow = rated
    .filter((x) => x.impactRatio! < limit)
    .map((x) => ({ group: x.category, ratio: x.impactRatio! }))
    .sort(byRatio);
  return {
    fourFifths: { against: ff.reference, below: ffBelow, judged: Object.values(ff.ratio).some((q) => q !== null) },
    impact: { kind: imp.kind, against: imp.highest, below: impBelow, judged: rated.length > 0 },
    fails: ffBelow.length > 0 || impBelow.length > 0,
  };
}

/**
 * A flagged comparison read from the side of the group it disadvantages (the headlines' wording): a
 * group flagged advantaged against the reference says that the reference is disadvantaged against
 * it, so the two swap and the ratio and its interval invert. The band [τ, 1/τ] is symmetric in the
 * log, so the inverted comparison is flagged exactly when the original is. A metric without a
 * favourable direction ("differs", PPV and NPV) keeps the compared group first.
 */
export interface Disadvantage {
  attribute: string;
  metric: MetricName;
  /** the group the flag disadvantages (for "differs": the compared group) */
  group: string;
  /** the group it is compared with */
  against: string;
  rate: number | null;
  againstRate: number | null;
  /** rate / againstRate */
  ratio: number | null;
  interval: { lo: number; hi: number } | null;
  direction: 'disadvantaged' | 'differs';
  /** the reference is the disadvantaged group (the comparison was flagged advantaged) */
  swapped: boolean;
  /** the comparison as the metrics state it */
  comparison: Comparison;
}

const inv = (x: number | null) => (x === null || x === 0 ? null : 1 / x);

/** One flagged comparison from the side of the group it disadvantages (see Disadvantage). */
export function disadvantageOf(attribute: string, c: Comparison): Disadvantage {
  if (c.direction === 'advantaged') {
    return {
      attribute,
      metric: c.metric,
      group: c.reference,
      against: c.group,
      rate: c.referenceRate,
      againstRate: c.rate,
      ratio: inv(c.ratio),
      interval: c.interval ? { lo: inv(c.interval.hi) ?? Infinity, hi: inv(c.interval.lo) ?? Infinity } : null,
      direction: 'disadvantaged',
      swapped: true,
      comparison: c,
    };
  }
  return {
    attribute,
    metric: c.metric,
    group: c.group,
    against: c.reference,
    rate: c.rate,
    againstRate: c.referenceRate,
    ratio: c.ratio,
    interval: c.interval,
    direction: c.direction === 'disadvantaged' ? 'disadvantaged' : 'differs',
    swapped: false,
    comparison: c,
  };
}

/**
 * The flags of one attribute from the side of the groups they disadvantage, in the order a reader
 * needs them: the favourable decision's rate (the selection rate) first, the most disadvantaged group
 * (the lowest rate) first, then the lowest ratio; then the other directed metrics, most significant
 * first (byConcern); then the metrics without a direction. The selection rate is the same number
 * however the label is coded, and every other judged metric maps onto a judged metric with the same
 * figures (METRIC_DEFS `recoded`), so the order, the groups and the figures do not depend on the
 * coding; an error rate's name does (the FDR of one coding is the FOR of the other).
 */
export function disadvantages(a: AttributeResult): Disadvantage[] {
  const flagged = a.comparisons.filter((c) => c.verdict === 'flagged');
  const ds = flagged.map((c) => disadvantageOf(a.column, c));
  const rank = (d: Disadvantage) => (d.metric === 'selection_rate' ? 0 : d.direction === 'disadvantaged' ? 1 : 2);
  const log = (d: Disadvantage) => (d.ratio === null || !(d.ratio > 0) ? 0 : Math.log(d.ratio));
  // a group flagged below the reference can be worse off than the reference is against a group flagged above it
  const rate = (d: Disadvantage) => d.rate ?? Infinity;
  const bySelection = (x: Disadvantage, y: Disadvantage) => rate(x) - rate(y) || log(x) - log(y);
  return ds.sort(
    (x, y) =>
      rank(x) - rank(y) ||
      (rank(x) === 0
        ? bySelection(x, y)
        : byConcern({ ...x.comparison, direction: x.direction }, { ...y.comparison, direction: y.direction })) ||
      (x.group < y.group ? -1 : x.group > y.group ? 1 : 0),
  );
}

/**
 * An attribute's headline, decided once for every writer (the report's Findings, the CLI, the
 * demo): its most concerning flag from the side of the group it disadvantages, else whether a legal
 * yardstick fails, else its inconclusive comparisons, else that nothing could be tested.
 */
export interface AttributeHeadline {
  attribute: string;
  reference: string;
  /**
   * flagged: a statistical flag; clear: none (inconclusive counts the comparisons too uncertain to call); untested:
   * nothing could be judged
   */
  status: 'flagged' | 'clear' | 'untested';
  /** the first flag (status flagged) */
  lead: Disadvantage | null;
  /** flags beyond the lead */
  more: number;
  inconclusive: number;
  yardsticks: Yardsticks;
}

export function attributeHeadline(a: AttributeResult): AttributeHeadline {
  const ds = disadvantages(a);
  const inconclusive = a.comparisons.filter((c) => c.verdict === 'inconclusive').length;
  const judged = a.comparisons.some((c) => c.verdict !== 'too little data');
  return {
    attribute: a.column,
    reference: a.reference.value,
    status: ds.length ? 'flagged' : judged ? 'clear' : 'untested',
    lead: ds[0] ?? null,
    more: Math.max(0, ds.length - 1),
    inconclusive,
    yardsticks: yardsticksOf(a),
  };
}

const x2 = (v: number | null) => fmtRatio(v, MISSING.table);

/** "selection rate 16.2% vs 33.4% for Male (x0.49)": a flag's figures, the disadvantaged group's rate first. */
export function disadvantageFigures(d: Disadvantage): string {
  return (
    `${METRIC_DEFS[d.metric].label} ${pctText(d.rate)} vs ${pctText(d.againstRate)} for ${d.against} ` +
    `(x${x2(d.ratio)})`
  );
}

/**
 * "Female disadvantaged: selection rate 16.2% vs 33.4% for Male (x0.49)": a flag in words, the disadvantaged group
 * first.
 */
export function disadvantageText(d: Disadvantage): string {
  return `${d.group} ${d.direction}: ${disadvantageFigures(d)}`;
}

/**
 * "the four-fifths rule fails: Female 0.75 of Male's" — the yardsticks that fail, lowest ratio first,
 * one clause when both fail for the same groups with the same ratios; '' when none fails.
 */
export function yardstickFailureText(y: Yardsticks, max = 2): string {
  const list = (fs: YardstickFailure[], against: string | null) =>
    `${fs
      .slice(0, max)
      .map((f) => `${f.group} ${x2(f.ratio)}`)
      .join(', ')}${fs.length > max ? ` and ${fs.length - max} more` : ''}${against ? ` of ${against}'s` : ''}`;
  const ff = y.fourFifths.below.length ? list(y.fourFifths.below, y.fourFifths.against) : '';
  const imp = y.impact.below.length ? list(y.impact.below, y.impact.against) : '';
  // on scores LL144 rates the share above the median score, not the decision: its ratios differ from the four-fifths
  // rule's
  const ll144 = `the LL144 impact ratio${y.impact.kind === 'scoring rate' ? ' (scoring rate)' : ''}`;
  if (ff && ff === imp) return `the four-fifths rule and ${ll144} fail: ${ff}`;
  return [
    ff ? `the four-fifths rule fails: ${ff}` : '',
    imp ? `${ll144} is below ${x2(METRICS_DEFAULTS.fourFifths)}: ${imp}` : '',
  ]
    .filter((x) => x)
    .join('; ');
}

/** The attribute's headline as one line of text (the CLI's and the demo's wording of the report's headline). */
export function attributeHeadlineText(h: AttributeHeadline): string {
  const ys = yardstickFailureText(h.yardsticks);
  // a flag's yardsticks are in the verdict table's column; the headline states them where no flag does
  if (h.status === 'flagged')
    return (
      `${h.attribute}: ` +
      `${disadvantageText(h.lead!)}${h.more ? `, and ${h.more} more flag${h.more === 1 ? '' : 's'}` : ''}`
    );
  if (h.status === 'untested')
    return `${h.attribute}: too little data to compare its groups (not tested)${ys ? `; ${ys}` : ''}`;
  return (
    `${h.attribute}: no statistical flag${h.inconclusive ? ` (${h.inconclusive} inconclusive)` : ''}` +
    `${ys ? `, but ${ys}` : ''}`
  );
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
        const flagged = cs
          .filter((c) => c.verdict === 'flagged')
          .sort(byConcern)
          .map((c) => ({ group: c.group, direction: c.direction, ratio: c.ratio }));
        cells[m] = { verdict, flagged };
      }
      rows.push({ attribute: a.column, reference: a.reference.value, cells, yardsticks: yardsticksOf(a) });
    }
  }
  return rows;
}

/**
 * The cell as text, never by colour alone: "FLAGGED Female (x0.30, disadvantaged)", "inconclusive", "pass", "too little
 * data".
 */
export function verdictCellText(c: VerdictCell | null, maxGroups = 2): string {
  if (!c) return '—';
  if (c.verdict !== 'flagged') return c.verdict;
  const g = c.flagged
    .slice(0, maxGroups)
    .map((x) => `${x.group} ${x.ratio === null ? '' : `x${x.ratio.toFixed(2)} `}${arrowOf(x.direction)}`);
  return `FLAGGED ${g.join(', ')}${c.flagged.length > maxGroups ? ` +${c.flagged.length - maxGroups}` : ''}`;
}
