// A score read whole (a credit score, a recidivism decile) against a two-valued label: the threshold view (the
// binary group metrics at one cut, from group-metrics.ts), the AUC per group compared with the reference's and
// judged, the distance between each group's and the reference's score distributions (KS, Wasserstein-1, shown with
// bootstrap intervals) and the selection-rate ratio across a sweep of thresholds (the curve). The threshold view's
// comparisons and the AUCs are one Holm family. Core code: no Node imports.
import { check } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import { getColumn, type Table } from '../../data/table.js';
import { quantileSorted } from '../../data/quantile.js';
import { fmtNum } from '../../data/text.js';
import { DECISION_DEFAULTS, positiveOf, scoreRule } from './decision.js';
import { aucSorted, bootstrapTwo, ksSorted, logRatio, sortedCopy, wassersteinSorted, type AucSe } from './distance.js';
import {
  attributes,
  correctTogether,
  countVerdicts,
  groupMetrics,
  inUnit,
  labelValues,
  metricsSettings,
  numericColumn,
  verdictsBeforeHolm,
} from './group-metrics.js';
import { outputBetterOf, type OutputMetricName } from './output-definitions.js';
import type { Direction } from './outputs.js';
import { stripJudged, suppressedGroups } from './suppress.js';
import type {
  BootstrapSummary,
  GroupMetricsOptions,
  MetricsReport,
  OutputGroupOptions,
  OutputInfo,
  VerdictsSummary,
} from './types.js';
import { judge, normalQuantile, type Comparison } from './verdicts.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';

export const SCORE_DEFAULTS = {
  /** bootstrap resamples of the KS and Wasserstein intervals */
  bootstrap: 200,
  /** the sweep cuts between distinct scores up to this many, else at the quantiles below */
  maxDistinct: 20,
  /** the sweep's quantiles of all scores: 5%, 10%, …, 95% */
  quantiles: Array.from({ length: 19 }, (_, k) => (k + 1) / 20),
};

export interface ScoreMetricsOptions
  extends OutputGroupOptions,
    Pick<GroupMetricsOptions, 'legitimate' | 'allowInvertedScores'> {
  /** the label value the score ranks high (positiveOf's rule) */
  positive?: string;
  /** which end of the score people want (default higher) */
  favourable?: Direction;
  /** the threshold view's cut, any finite number (default: 0.5 when every score is in [0, 1], else the median,
   * moved between two scores: scoreThreshold) */
  threshold?: number;
  /** resamples of the distances' percentile intervals (default SCORE_DEFAULTS.bootstrap; 0: none) */
  bootstrap?: number;
  rng: Rng;
}

export interface ScoreGroup {
  value: string;
  n: number;
  /** label-positive and label-negative rows (null when suppressed) */
  positives: number | null;
  negatives: number | null;
  reference: boolean;
  small: boolean;
  suppressed: boolean;
  /** Mann–Whitney AUC and its Hanley–McNeil SE; null without both classes or when suppressed */
  auc: number | null;
  aucSe: number | null;
  /** distances to the reference's scores (null for the reference itself and suppressed groups) */
  ks: number | null;
  wasserstein: number | null;
  /** the AUC's interval at 1 − α; the distances' bootstrap intervals (null without resamples or for the reference) */
  ci: {
    auc: { lo: number; hi: number } | null;
    ks: { lo: number; hi: number } | null;
    wasserstein: { lo: number; hi: number } | null;
  };
}

/** One threshold of the sweep: per group the selection rate (favourable side) and its ratio to the reference. */
export interface CurvePoint {
  threshold: number;
  groups: {
    value: string;
    selectionRate: number | null;
    /** selection rate / the reference's; null for the reference, a suppressed group or a reference rate of 0 */
    ratio: number | null;
    /** the Katz interval of the ratio at 1 − α, pointwise (not corrected across thresholds or groups) */
    interval: { lo: number; hi: number } | null;
  }[];
}

export interface ScoreAttribute {
  column: string;
  reference: { value: string; reason: string; source: 'given' | 'largest' };
  unknown: number;
  groups: ScoreGroup[];
  /** the AUC comparisons, judged on the ratio scale */
  comparisons: Comparison<OutputMetricName>[];
  curve: CurvePoint[];
}

export interface ScoreReport {
  output: OutputInfo;
  rows: number;
  label: string;
  positive: string;
  favourable: Direction;
  pred: string;
  threshold: { value: number; reason: string };
  /** the binary group metrics at the threshold (selection rate, error rates, four-fifths, LL144, calibration) */
  thresholdView: MetricsReport;
  /** why calibration is absent from the threshold view (scores outside [0, 1]); null when it is there */
  calibrationNote: string | null;
  attributes: ScoreAttribute[];
  curve: { thresholds: string; interval: string };
  verdicts: VerdictsSummary;
  bootstrap: BootstrapSummary | null;
  minGroupSize: number;
  suppressBelow: number | null;
  warnings: string[];
}

/** The label as 0/1 per row (1: the positive value), the positive value and the label's values. */
function binaryOutcome(table: Table, label: string, given: string | undefined) {
  const values = labelValues(table, label);
  check(
    values.length === 2,
    'E_ARG',
    () =>
      `metrics: a score is ranked against a two-valued label; "${label}" has ${values.length} values ` +
      `(${values.slice(0, 6).join(', ')})`,
  );
  const positive = positiveOf(values, given, label);
  const c = getColumn(table, label, 'metrics', '--label');
  const y = new Uint8Array(table.rows);
  if (c.kind === 'numeric') for (let i = 0; i < y.length; i++) y[i] = String(c.values[i]) === positive ? 1 : 0;
  else for (let i = 0; i < y.length; i++) y[i] = c.categories[c.codes[i]] === positive ? 1 : 0;
  return { y, positive, values };
}

/**
 * A cut that no row sits on: `t` itself when no score equals it, else moved halfway to the neighbouring distinct score
 * on the unfavourable side, so that the rows holding `t` fall on the favourable side. A row on a cut is "not above"
 * as named and "above" coded the other way (−s > −t), so a cut that scores hold would decide those rows differently
 * under the two codings; the rows holding it go to the favourable side under both (favourable higher: s > (p + t)/2,
 * i.e. s ≥ t; coded the other way, favourable lower on −s: −s ≤ −t, the same rows). `sorted`: every score, ascending.
 */
export function offCut(sorted: Float64Array, t: number, favourable: Direction): number {
  const i = lowerBound(sorted, t);
  if (i >= sorted.length || sorted[i] !== t) return t;
  const j = lowerBound(sorted, nextUp(t));
  const below = i > 0 ? sorted[i - 1] : null;
  const above = j < sorted.length ? sorted[j] : null;
  if (favourable === 'higher') return below !== null ? (below + t) / 2 : above !== null ? t - (above - t) / 2 : t - 0.5;
  return above !== null ? (t + above) / 2 : below !== null ? t + (t - below) / 2 : t + 0.5;
}

/** The first index of `sorted` whose value is ≥ x. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest double above x. */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  if (x === 0) return Number.MIN_VALUE;
  u[0] += x > 0 ? 1n : -1n;
  return b[0];
}

/**
 * The threshold view's cut and why: the one given, else 0.5 for scores in [0, 1], else the median score moved off the
 * scores that rows hold to the unfavourable side of them (offCut), so that the same decisions coded the other way get
 * the same cut and the same verdicts.
 */
export function scoreThreshold(
  sorted: Float64Array,
  given: number | undefined,
  favourable: Direction,
): { value: number; reason: string } {
  if (given !== undefined) return { value: scoreRule(given, 'metrics').threshold, reason: 'as --threshold says' };
  if (inUnit(sorted))
    return {
      value: DECISION_DEFAULTS.threshold,
      reason: `every score is in [0, 1], so the default ${DECISION_DEFAULTS.threshold}`,
    };
  const m = quantileSorted(sorted, 0.5);
  const t = offCut(sorted, m, favourable);
  if (t === m) return { value: m, reason: 'the median score (the scores leave [0, 1]; give --threshold to choose)' };
  return {
    value: t,
    reason: `the median score ${fmtNum(m)}, which rows hold, moved halfway to the next score ${
      favourable === 'higher' ? 'below' : 'above'
    } it so that those rows are on the favourable side (the scores leave [0, 1]; give --threshold to choose)`,
  };
}

/** Rows whose score is exactly `t`: decided "not above" as named, "above" coded the other way. */
export function rowsOnCut(score: ArrayLike<number>, t: number): number {
  let k = 0;
  for (let i = 0; i < score.length; i++) if (score[i] === t) k++;
  return k;
}

/**
 * The sweep's thresholds: between each pair of adjacent distinct scores when there are few, else the 5%, 10%, …, 95%
 * quantiles of all scores moved off the scores rows hold (offCut): no row sits on a cut, so the curve is the same
 * under either coding.
 */
export function sweepThresholds(
  sortedScores: Float64Array,
  favourable: Direction,
): { thresholds: number[]; how: string } {
  const distinct: number[] = [];
  for (let i = 0; i < sortedScores.length && distinct.length <= SCORE_DEFAULTS.maxDistinct; i++)
    if (i === 0 || sortedScores[i] !== sortedScores[i - 1]) distinct.push(sortedScores[i]);
  if (distinct.length <= SCORE_DEFAULTS.maxDistinct) {
    const cuts = distinct.slice(1).map((x, k) => (distinct[k] + x) / 2);
    return { thresholds: cuts, how: `halfway between each pair of the ${distinct.length} distinct scores` };
  }
  const qs = [
    ...new Set(SCORE_DEFAULTS.quantiles.map((q) => offCut(sortedScores, quantileSorted(sortedScores, q), favourable))),
  ];
  return { thresholds: qs, how: 'the 5%, 10%, …, 95% quantiles of all scores (moved off the scores rows hold)' };
}

/** Rows of `sorted` above t (binary search). */
function countAbove(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** The Katz interval of (x/n)/(xr/nr) at `z` (0.5 added to the counts, 1 to the sizes, at a zero or full count). */
function katzInterval(x: number, n: number, xr: number, nr: number, z: number): { lo: number; hi: number } | null {
  if (n === 0 || nr === 0) return null;
  const fix = x === 0 || x === n || xr === 0 || xr === nr;
  const [a, an, b, bn] = fix ? [x + 0.5, n + 1, xr + 0.5, nr + 1] : [x, n, xr, nr];
  const lr = fdlog(a / an) - fdlog(b / bn);
  const se = Math.sqrt(1 / a - 1 / an + 1 / b - 1 / bn);
  return { lo: fdexp(lr - z * se), hi: fdexp(lr + z * se) };
}

/**
 * The score metrics of `opts.pred` against the two-valued `opts.label`, per --group attribute (or their
 * intersection): see the file's head. References, small groups, suppression and unknown protected values follow
 * groupMetrics (the threshold view's reference is every view's).
 */
export function scoreMetrics(table: Table, opts: ScoreMetricsOptions, output?: OutputInfo): ScoreReport {
  const favourable = opts.favourable ?? 'higher';
  check(
    favourable === 'higher' || favourable === 'lower',
    'E_ARG',
    () => `metrics: a score's favourable direction is higher or lower, got ${String(favourable)}`,
  );
  const B = opts.bootstrap ?? SCORE_DEFAULTS.bootstrap;
  check(
    Number.isSafeInteger(B) && B >= 0,
    'E_ARG',
    () => `metrics: bootstrap must be a non-negative integer, got ${B}`,
  );
  check(opts.rng !== undefined, 'E_ARG', () => 'metrics: the score metrics need a seeded rng');
  const { confidence, tolerance, minGroupSize, suppressBelow: k } = metricsSettings({ ...opts, favourable: undefined });
  check(table.rows > 0, 'E_INPUT', () => 'metrics: the data has no rows');
  const score = numericColumn(table, opts.pred, '--pred', 'the score column');
  const { y, positive } = binaryOutcome(table, opts.label, opts.positive);
  const sortedAll = sortedCopy(score);
  const threshold = scoreThreshold(sortedAll, opts.threshold, favourable);
  const onCut = rowsOnCut(score, threshold.value);
  const thresholdView = groupMetrics(table, {
    label: opts.label,
    positive,
    favourable: favourable === 'higher' ? 'positive' : 'negative',
    pred: opts.pred,
    predAs: 'scores',
    decision: { kind: 'score', threshold: threshold.value },
    groups: opts.groups,
    intersect: opts.intersect,
    reference: opts.reference,
    privileged: opts.privileged,
    rng: opts.rng,
    confidence,
    tolerance,
    minGroupSize,
    legitimate: opts.legitimate,
    suppressBelow: opts.suppressBelow,
    allowInvertedScores: opts.allowInvertedScores,
  });
  const calibrationNote = inUnit(score)
    ? null
    : 'calibration by group needs scores in [0, 1] (read as P(positive)); these leave [0, 1], so it is not computed';
  const alpha = 1 - confidence;
  const z = normalQuantile(1 - alpha / 2);
  const band: [number, number] = [fdlog(tolerance), -fdlog(tolerance)];
  const sweep = sweepThresholds(sortedAll, favourable);
  const attrs = attributes(table, opts);
  const results: ScoreAttribute[] = attrs.map((a, ai) => {
    const G = a.values.length;
    const sizes = new Array<number>(G).fill(0);
    for (let i = 0; i < a.gid.length; i++) if (a.gid[i] >= 0) sizes[a.gid[i]]++;
    const sup = suppressedGroups(sizes, k);
    const ref = thresholdView.attributes[ai].reference;
    const r = a.values.indexOf(ref.value);
    // per group: all scores, the positives' and the negatives', ascending
    const all = a.values.map((_, g) => new Float64Array(sizes[g]));
    const npos = new Array<number>(G).fill(0);
    for (let i = 0; i < a.gid.length; i++) if (a.gid[i] >= 0 && y[i]) npos[a.gid[i]]++;
    const pos = a.values.map((_, g) => new Float64Array(npos[g]));
    const neg = a.values.map((_, g) => new Float64Array(sizes[g] - npos[g]));
    const fill = new Array<number>(G).fill(0);
    const fp = new Array<number>(G).fill(0);
    const fn = new Array<number>(G).fill(0);
    for (let i = 0; i < a.gid.length; i++) {
      const g = a.gid[i];
      if (g < 0) continue;
      all[g][fill[g]++] = score[i];
      if (y[i]) pos[g][fp[g]++] = score[i];
      else neg[g][fn[g]++] = score[i];
    }
    all.forEach((v) => v.sort());
    pos.forEach((v) => v.sort());
    neg.forEach((v) => v.sort());
    const aucs: (AucSe | null)[] = a.values.map((_, g) => (sup[g] ? null : aucSorted(pos[g], neg[g])));
    const groups: ScoreGroup[] = a.values.map((v, g) => {
      const other = g !== r && !sup[g] && !sup[r];
      return {
        value: v,
        n: sizes[g],
        positives: sup[g] ? null : npos[g],
        negatives: sup[g] ? null : sizes[g] - npos[g],
        reference: g === r,
        small: sizes[g] < minGroupSize || sup[g],
        suppressed: sup[g],
        auc: aucs[g]?.value ?? null,
        aucSe: aucs[g]?.se ?? null,
        ks: other ? ksSorted(all[g], all[r]) : null,
        wasserstein: other ? wassersteinSorted(all[g], all[r]) : null,
        ci: {
          // the AUC's normal interval at 1 − α (Hanley–McNeil SE), inside [0, 1]
          auc: aucs[g]
            ? { lo: Math.max(0, aucs[g].value - z * aucs[g].se), hi: Math.min(1, aucs[g].value + z * aucs[g].se) }
            : null,
          ks: other && B > 0 ? bootstrapTwo(all[g], all[r], ksSorted, B, opts.rng, confidence) : null,
          wasserstein: other && B > 0 ? bootstrapTwo(all[g], all[r], wassersteinSorted, B, opts.rng, confidence) : null,
        },
      };
    });
    const comparisons: Comparison<OutputMetricName>[] = [];
    a.values.forEach((v, g) => {
      if (g === r) return;
      const A = aucs[g];
      const R = aucs[r];
      const c = judge(
        'auc' as OutputMetricName,
        v,
        sizes[g],
        ref.value,
        sizes[r],
        {
          value: A?.value ?? null,
          referenceValue: R?.value ?? null,
          estimate: A && R && A.value > 0 && R.value > 0 ? logRatio(A.value, R.value) : null,
          se:
            A && R && A.value > 0 && R.value > 0
              ? Math.sqrt((A.se / A.value) ** 2 + (R.se / R.value) ** 2) // delta method: var log A ≈ var A / A²
              : null,
          undefinedReason:
            !A || !R
              ? `the AUC needs label-positive and label-negative rows in both groups (${!A ? v : ref.value} lacks one)`
              : 'an AUC of 0 has no log ratio',
        },
        { scale: 'ratio', band, better: outputBetterOf('auc', favourable), minGroupSize },
        ref.source === 'given',
      );
      stripJudged(c, sup[g], sup[r], k);
      comparisons.push(c);
    });
    // the curve: per threshold, per group the favourable side's rate and its ratio to the reference's
    const curve: CurvePoint[] = sweep.thresholds.map((t) => {
      const sel = (g: number) => {
        const above = countAbove(all[g], t);
        return favourable === 'higher' ? above : sizes[g] - above;
      };
      const xr = sel(r);
      return {
        threshold: t,
        groups: a.values.map((v, g) => {
          if (sup[g]) return { value: v, selectionRate: null, ratio: null, interval: null };
          const x = sel(g);
          const rate = sizes[g] > 0 ? x / sizes[g] : null;
          const rr = sizes[r] > 0 && !sup[r] ? xr / sizes[r] : null;
          const other = g !== r && rate !== null && rr !== null && rr > 0;
          return {
            value: v,
            selectionRate: rate,
            ratio: other ? rate! / rr! : null,
            interval: other ? katzInterval(x, sizes[g], xr, sizes[r], z) : null,
          };
        }),
      };
    });
    return { column: a.column, reference: ref, unknown: a.unknown, groups, comparisons, curve };
  });
  const report: ScoreReport = {
    output: output ?? { kind: 'score', reason: 'score, as the caller says', favourable },
    rows: table.rows,
    label: opts.label,
    positive,
    favourable,
    pred: opts.pred,
    threshold,
    thresholdView,
    calibrationNote,
    attributes: results,
    curve: {
      thresholds: sweep.how,
      interval:
        `Katz interval of the ratio at ${Math.round(100 * confidence)}%, pointwise (not corrected for the ` + `sweep)`,
    },
    verdicts: verdictsBeforeHolm(
      tolerance,
      alpha,
      'AUC: log ratio to the reference with the delta-method SE from Hanley & McNeil (1982); the threshold view: ' +
        'the binary log-ratio (Katz) test; each of "the ratio is inside the band", p = 2Φ(−δ/se)',
    ),
    bootstrap:
      B > 0
        ? {
            resamples: B,
            seed: opts.rng.seed,
            confidence,
            method: 'percentile, each group and the reference resampled within themselves (KS and Wasserstein)',
          }
        : null,
    minGroupSize,
    suppressBelow: k > 0 ? k : null,
    warnings: [
      ...(onCut > 0
        ? [
            `${onCut} row${onCut > 1 ? 's' : ''} score exactly ${fmtNum(threshold.value)}, the threshold view's cut: ` +
              `decided "not above" here, they would be decided the other way with the scores coded the other way ` +
              `(−s > −t); a cut between two scores decides them the same under both`,
          ]
        : []),
      ...thresholdView.warnings,
    ],
  };
  correctTogether([thresholdView, report], "the threshold view's tables and the AUC comparisons");
  // the score's counts are the whole family's (the threshold view's keep its own)
  report.verdicts.counts = countVerdicts([
    ...thresholdView.attributes.flatMap((a) => a.comparisons),
    ...results.flatMap((a) => a.comparisons),
  ]);
  return report;
}
