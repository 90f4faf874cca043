// Text forms of a MulticlassReport (multiclass.ts): the headline, an aligned table for people (per attribute, per
// class the rates of each group, then the ratios and verdicts) and CSV for tools (one row per attribute, group, class
// and rate). The report object itself is the JSON form: plain numbers, strings, arrays and nulls. Core code.
import { csvField } from '../../data/csv-write.js';
import { fmtRatio, MISSING, pctTable as pct, pctText } from '../../data/text.js';
import { classSign } from './outputs.js';
import { suppressedText } from './suppress.js';
import {
  MULTICLASS_RATES,
  MULTICLASS_RATE_NAMES,
  type ClassComparison,
  type ClassRate,
  type MulticlassAttribute,
  type MulticlassRate,
  type MulticlassReport,
} from './multiclass.js';
import { arrowOf, type Verdict } from './verdicts.js';

const ratio = (v: number | null | undefined) => fmtRatio(v, MISSING.table);
const MARK: Record<Verdict, string> = { flagged: '!', inconclusive: '?', pass: '', 'too little data': '~' };

/**
 * A flagged comparison from the side of the group it disadvantages, as the binary headlines read one (summary.ts
 * disadvantageOf): a group flagged advantaged says that the reference is disadvantaged against it, so the two swap
 * and the ratio inverts (the band is symmetric in the log, so the swapped comparison is flagged exactly when the
 * original is). A comparison without a direction ("differs") keeps the compared group first.
 */
export interface ClassDisadvantage {
  attribute: string;
  class: string;
  metric: MulticlassRate;
  group: string;
  against: string;
  rate: number | null;
  againstRate: number | null;
  ratio: number | null;
  direction: 'disadvantaged' | 'differs';
  comparison: ClassComparison;
}

const inv = (x: number | null) => (x === null || x === 0 ? null : 1 / x);

export function classDisadvantageOf(attribute: string, c: ClassComparison): ClassDisadvantage {
  const swap = c.direction === 'advantaged';
  return {
    attribute,
    class: c.class,
    metric: c.metric as MulticlassRate,
    group: swap ? c.reference : c.group,
    against: swap ? c.group : c.reference,
    rate: swap ? c.referenceRate : c.rate,
    againstRate: swap ? c.rate : c.referenceRate,
    ratio: swap ? inv(c.ratio) : c.ratio,
    direction: c.direction === 'differs' ? 'differs' : 'disadvantaged',
    comparison: c,
  };
}

/**
 * The flags of the report from the side of the groups they disadvantage, most concerning first: as the binary
 * headlines put the selection rate first, the rate of receiving a class (the treatment) before its error rates;
 * directed before "differs"; then the most significant (Holm-adjusted p), then the largest |log ratio| (Holm ties
 * often), then the rate and the class in the report's order (the same order whatever the classes are called, with the
 * matching class order).
 */
export function classDisadvantages(r: MulticlassReport): ClassDisadvantage[] {
  const ds = r.attributes.flatMap((a) =>
    a.comparisons.filter((c) => c.verdict === 'flagged').map((c) => classDisadvantageOf(a.column, c)),
  );
  const rank = (d: ClassDisadvantage) =>
    (d.direction === 'disadvantaged' ? 0 : 2) + (d.metric === 'positivity_rate' ? 0 : 1);
  const classRank = (d: ClassDisadvantage) => r.classes.indexOf(d.class);
  return ds.sort(
    (x, y) =>
      rank(x) - rank(y) ||
      (x.comparison.pAdjusted ?? 1) - (y.comparison.pAdjusted ?? 1) ||
      Math.abs(y.comparison.logRatio ?? 0) - Math.abs(x.comparison.logRatio ?? 0) ||
      MULTICLASS_RATE_NAMES.indexOf(x.metric) - MULTICLASS_RATE_NAMES.indexOf(y.metric) ||
      classRank(x) - classRank(y),
  );
}

/**
 * "Female receives decline at ×1.90 the rate of Male (30.1% vs 15.9%)": a flag in words, the disadvantaged group
 * first; a flag without a direction says why it has none.
 */
export function classDisadvantageText(d: ClassDisadvantage, r: Pick<MulticlassReport, 'classOrder'>): string {
  const figures = `(${pctText(d.rate)} vs ${pctText(d.againstRate)})`;
  const x = `×${ratio(d.ratio)}`;
  const s =
    d.metric === 'positivity_rate'
      ? `${d.group} receives ${d.class} at ${x} the rate of ${d.against} ${figures}`
      : `${d.group}: ${MULTICLASS_RATES[d.metric].words(d.class)} at ${x} that of ${d.against} ${figures}`;
  if (d.direction === 'disadvantaged') return s;
  return `${s}, a difference without a direction (${
    r.classOrder === null ? 'no --class-order' : `${d.class} lies between the ends of the class order`
  })`;
}

/** The report's headline: its most concerning flag, else how many comparisons were inconclusive or untested. */
export function multiclassHeadline(r: MulticlassReport): string {
  const ds = classDisadvantages(r);
  if (ds.length)
    return (
      `${ds[0].attribute}: ${classDisadvantageText(ds[0], r)}` +
      `${ds.length > 1 ? `, and ${ds.length - 1} more flag${ds.length === 2 ? '' : 's'}` : ''}`
    );
  const v = r.verdicts.counts;
  const judged = v.pass + v.inconclusive + v.flagged;
  if (judged === 0) return 'too little data to compare the groups (not tested)';
  return `no statistical flag${v.inconclusive ? ` (${v.inconclusive} inconclusive)` : ''}`;
}

function align(rows: string[][]): string {
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => [...r[j]].length)));
  return (
    rows
      .map((r) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j] + c.length - [...c].length))).join('  '))
      .join('\n') + '\n'
  );
}

const rateCell = (x: ClassRate) =>
  x.rate === null ? pct(null) : `${pct(x.rate)} [${pct(x.interval!.lo)}, ${pct(x.interval!.hi)}]`;

/** "×0.52! ↓": a comparison's ratio, its verdict's mark and, outside the band, its direction. */
function comparisonCell(c: ClassComparison | undefined): string {
  if (!c) return '';
  if (c.counts === null) return 'suppressed';
  return `×${ratio(c.ratio)}${MARK[c.verdict]}${c.direction ? ` ${arrowOf(c.direction)}` : ''}`;
}

/** What a class is in the class order, for its table's title. */
function classRole(r: MulticlassReport, c: string): string {
  if (r.classOrder === null) return '';
  const s = classSign(r.classOrder, c);
  return s === 1 ? ' (most favourable)' : s === -1 ? ' (least favourable)' : ' (between: no direction)';
}

function attributeText(r: MulticlassReport, a: MulticlassAttribute): string {
  let s =
    `\n${a.column}: reference ${a.reference.value} (${a.reference.reason})` +
    `${a.unknown ? `; ${a.unknown} rows with no value left out` : ''}\n`;
  r.classes.forEach((cls, c) => {
    s += `class ${cls}${classRole(r, cls)}:\n`;
    const rows = [['group', 'n', ...MULTICLASS_RATE_NAMES.map((m) => MULTICLASS_RATES[m].short)]];
    for (const g of a.groups)
      rows.push([
        g.value +
          (g.reference ? ' *' : '') +
          (g.suppressed ? ` (${suppressedText(r.suppressBelow!)})` : g.small ? ' (small)' : ''),
        String(g.n),
        ...MULTICLASS_RATE_NAMES.map((m) => (g.suppressed ? 'supp.' : rateCell(g.classes[c][m]))),
      ]);
    s += align(rows);
  });
  const others = a.groups.filter((g) => !g.reference);
  if (!others.length) return s;
  s += `ratios to ${a.reference.value} and verdicts:\n`;
  const rows = [['group', 'class', ...MULTICLASS_RATE_NAMES.map((m) => MULTICLASS_RATES[m].short)]];
  for (const g of others)
    for (const cls of r.classes)
      rows.push([
        g.value,
        cls,
        ...MULTICLASS_RATE_NAMES.map((m) =>
          comparisonCell(a.comparisons.find((c) => c.group === g.value && c.class === cls && c.metric === m)),
        ),
      ]);
  s += align(rows);
  for (const c of a.comparisons.filter((x) => x.verdict === 'flagged'))
    s +=
      `  FLAGGED ${a.column} = ${c.group}: ${MULTICLASS_RATES[c.metric as MulticlassRate].words(c.class)} ` +
      `${pct(c.rate)}% vs ${pct(c.referenceRate)}% (×${ratio(c.ratio)}, ${(100 * (1 - c.level!)).toFixed(2)}% ` +
      `interval [${ratio(c.interval!.lo)}, ${ratio(c.interval!.hi)}]): ${c.direction}\n`;
  return s;
}

/** The text report of a multiclass output: what was read, the class order, the verdict rule, the headline, tables. */
export function formatMulticlassTable(r: MulticlassReport): string {
  const v = r.verdicts;
  let s =
    `${r.rows} rows; label ${r.label} with ${r.classes.length} classes (${r.classes.join(', ')}); predictions ` +
    `${r.pred} read as predicted classes (multiclass: each class against the rest)\n`;
  s += `${r.order}\n`;
  s +=
    `rates in % with ${(100 * r.confidence).toFixed(0)}% Wilson intervals; receive = share of the group predicted ` +
    `the class; FNR = labelled the class, predicted another; FPR = labelled another class, predicted it; - = ` +
    `undefined (empty denominator)\n`;
  if (r.suppressBelow !== null)
    s +=
      `groups with fewer than ${r.suppressBelow} rows are suppressed (supp.): no rate, count, interval or verdict ` +
      `is shown for them\n`;
  s +=
    `verdicts: ratios inside [${ratio(v.band[0])}, ${ratio(v.band[1])}] pass; outside: flagged (!) when ` +
    `significant at the corrected level, else inconclusive (?); ~ too little data (a group under ` +
    `${r.minGroupSize} rows or an undefined rate); ↓ disadvantaged, ↑ advantaged, ≠ differs (no direction). ` +
    `${v.correction}, family-wise error ${(100 * v.alpha).toFixed(0)}%.\n`;
  s += `verdict counts: ${Object.entries(v.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}\n`;
  s += `headline: ${multiclassHeadline(r)}\n`;
  for (const a of r.attributes) s += attributeText(r, a);
  for (const w of r.warnings) s += `warning: ${w}\n`;
  return s;
}

/**
 * One row per attribute, group, class and rate: the rate with its count, denominator and Wilson interval, and for a
 * group other than the reference its ratio, verdict, direction and Holm-adjusted p-value.
 */
export function formatMulticlassCsv(r: MulticlassReport): string {
  const supp = r.suppressBelow !== null;
  const head = [
    'column',
    'value',
    'n',
    'reference',
    'small',
    'class',
    'class_sign',
    'metric',
    'count',
    'denominator',
    'rate',
    'lo',
    'hi',
    'difference',
    'ratio',
    'verdict',
    'direction',
    'p_adjusted',
  ];
  if (supp) head.push('suppressed');
  const lines = [head.join(',')];
  for (const a of r.attributes)
    for (const g of a.groups)
      r.classes.forEach((cls, c) => {
        for (const m of MULTICLASS_RATE_NAMES) {
          const x = g.classes[c][m];
          const cmp = a.comparisons.find((y) => y.group === g.value && y.class === cls && y.metric === m);
          const row: (string | number | boolean | null | undefined)[] = [
            a.column,
            g.value,
            g.n,
            g.reference,
            g.small,
            cls,
            classSign(r.classOrder, cls),
            m,
            x.x,
            x.n,
            x.rate,
            x.interval?.lo ?? null,
            x.interval?.hi ?? null,
            cmp?.difference ?? null,
            cmp?.ratio ?? null,
            cmp?.verdict ?? null,
            cmp?.direction ?? null,
            cmp?.pAdjusted ?? null,
          ];
          if (supp) row.push(g.suppressed ? suppressedText(r.suppressBelow!) : '');
          lines.push(row.map(csvField).join(','));
        }
      });
  return lines.join('\n') + '\n';
}
