// A real value (a salary offer, a credit limit) against its true value: per group the mean and median prediction,
// the mean label, the mean residual (prediction − label: bias) and the MAE with intervals; the mean prediction, the
// bias and the MAE compared with the reference's and judged (one Holm family); the distance between the groups'
// predicted distributions shown with bootstrap intervals. The band is a ratio (--tolerance τ: [τ, 1/τ]) or in the
// output's units (--tolerance-units d: [−d, d]). Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import type { Table } from '../../data/table.js';
import { quantileSorted } from '../../data/quantile.js';
import { log as fdlog } from '../../engine/fdlibm.js';
import {
  bootstrapOne,
  bootstrapTwo,
  ksSorted,
  logRatio,
  logRatioSe,
  meanVar,
  wassersteinSorted,
  welchSe,
} from './distance.js';
import {
  attributes,
  chooseReference,
  correctTogether,
  countVerdicts,
  metricsSettings,
  numericColumn,
} from './group-metrics.js';
import { outputBetterOf, outputMetricDef, outputMetricsOf, type OutputMetricName } from './output-definitions.js';
import type { Direction } from './outputs.js';
import { stripJudged, suppressedGroups } from './suppress.js';
import type { BootstrapSummary, OutputGroupOptions, OutputInfo } from './types.js';
import { judge, normalQuantile, type Comparison, type Estimate, type Verdict } from './verdicts.js';

export const REGRESSION_DEFAULTS = {
  /** bootstrap resamples of the median's and the distances' intervals */
  bootstrap: 200,
};

/** label: the true value, pred: the prediction (both numeric) */
export interface RegressionMetricsOptions extends OutputGroupOptions {
  /** which end of the value people want (default higher) */
  favourable?: Direction;
  /**
   * τ in (0, 1): the band [τ, 1/τ] on ratios (default 0.8); the bias's band is ±(1 − τ)·|the reference's mean label|
   */
  tolerance?: number;
  /** d > 0: every judged comparison on the difference scale with the band [−d, d] in the output's units */
  toleranceUnits?: number;
  /** resamples of the median's and the distances' percentile intervals (default 200; 0: none) */
  bootstrap?: number;
  rng: Rng;
}

/** The regression metrics of one group, by their names in OUTPUT_METRIC_DEFS (null when suppressed or undefined). */
export type RegressionFigures = Record<
  | 'mean_prediction'
  | 'median_prediction'
  | 'mean_label'
  | 'mean_residual'
  | 'mae'
  | 'ks_prediction'
  | 'wasserstein_prediction',
  number | null
>;

export interface RegressionGroup extends RegressionFigures {
  value: string;
  n: number;
  reference: boolean;
  small: boolean;
  suppressed: boolean;
  /** intervals at 1 − α: normal for the means, seeded percentile bootstrap for the median and the distances */
  ci?: Partial<Record<keyof RegressionFigures, { lo: number; hi: number } | null>>;
}

export interface RegressionAttribute {
  column: string;
  reference: { value: string; reason: string; source: 'given' | 'largest' };
  unknown: number;
  groups: RegressionGroup[];
  comparisons: Comparison<OutputMetricName>[];
  /** the bias's band in units: ±d, or ±(1 − τ)·|the reference's mean label| */
  biasBand: [number, number];
}

export interface RegressionReport {
  output: OutputInfo;
  rows: number;
  label: string;
  pred: string;
  favourable: Direction;
  attributes: RegressionAttribute[];
  verdicts: {
    /** 'ratio': --tolerance τ on ratios; 'units': --tolerance-units d on differences */
    mode: 'ratio' | 'units';
    tolerance: number | null;
    toleranceUnits: number | null;
    /** the band of the ratio-scale comparisons ([τ, 1/τ]); null in units mode */
    band: [number, number] | null;
    alpha: number;
    correction: string;
    comparisons: number;
    test: string;
    /** how the bias's band was set */
    biasBand: string;
    counts: Record<Verdict, number>;
  };
  bootstrap: BootstrapSummary | null;
  minGroupSize: number;
  suppressBelow: number | null;
  warnings: string[];
}

/** The per-row quantity whose mean each judged metric is: the prediction, the residual, the absolute residual. */
const SAMPLE_OF = { mean_prediction: 'pred', mean_residual: 'res', mae: 'abs' } as const;

type Stats = { n: number; mean: number; variance: number };

/**
 * The regression metrics of `opts.pred` against the numeric `opts.label` per --group attribute (or their
 * intersection): see the file's head. References, small groups, suppression and unknown protected values follow
 * groupMetrics.
 */
export function regressionMetrics(table: Table, opts: RegressionMetricsOptions, output?: OutputInfo): RegressionReport {
  const favourable = opts.favourable ?? 'higher';
  check(
    favourable === 'higher' || favourable === 'lower',
    'E_ARG',
    () => `metrics: a real value's favourable direction is higher or lower, got ${String(favourable)}`,
  );
  const B = opts.bootstrap ?? REGRESSION_DEFAULTS.bootstrap;
  check(
    Number.isSafeInteger(B) && B >= 0,
    'E_ARG',
    () => `metrics: bootstrap must be a non-negative integer, got ${B}`,
  );
  check(opts.rng !== undefined, 'E_ARG', () => 'metrics: the regression metrics need a seeded rng');
  const { confidence, tolerance, minGroupSize, suppressBelow: k } = metricsSettings({ ...opts, favourable: undefined });
  const d = opts.toleranceUnits;
  check(
    d === undefined || (Number.isFinite(d) && d > 0),
    'E_ARG',
    () => `metrics: --tolerance-units must be a positive number (the band ±d in the output's units), got ${d}`,
  );
  const units = d !== undefined;
  check(table.rows > 0, 'E_INPUT', () => 'metrics: the data has no rows');
  const pred = numericColumn(table, opts.pred, '--pred', 'the prediction column');
  const label = numericColumn(table, opts.label, '--label', 'the label');
  if (!units) {
    // a prediction of 0 (a declined applicant's limit) is a value like any other; a negative one makes a ratio of
    // means meaningless (its sign can change), and a group whose mean is 0 gets no ratio, with its reason (below)
    const bad = pred.findIndex((x) => !(x >= 0));
    if (bad >= 0)
      throw new EngineError(
        'E_ARG',
        `metrics: a ratio tolerance compares mean predictions as ratios, which needs every prediction ≥ 0; the ` +
          `prediction column "${opts.pred}" holds ${pred[bad]} at data row ${bad + 1}: give --tolerance-units <d> ` +
          `(the band ±d in the output's units)`,
      );
  }
  const alpha = 1 - confidence;
  const z = normalQuantile(1 - alpha / 2);
  const ratioBand: [number, number] = [fdlog(tolerance), -fdlog(tolerance)];
  const warnings: string[] = [];
  const attrs = attributes(table, opts);
  const results: RegressionAttribute[] = attrs.map((a) => {
    const G = a.values.length;
    const sizes = new Array<number>(G).fill(0);
    for (let i = 0; i < a.gid.length; i++) if (a.gid[i] >= 0) sizes[a.gid[i]]++;
    const sup = suppressedGroups(sizes, k);
    const ref = chooseReference(a.values, sizes, minGroupSize, a.given, sup);
    const r = ref.index;
    const p = a.values.map((_, g) => new Float64Array(sizes[g]));
    const yv = a.values.map((_, g) => new Float64Array(sizes[g]));
    const fill = new Array<number>(G).fill(0);
    for (let i = 0; i < a.gid.length; i++) {
      const g = a.gid[i];
      if (g < 0) continue;
      p[g][fill[g]] = pred[i];
      yv[g][fill[g]++] = label[i];
    }
    const res = p.map((pg, g) => pg.map((x, i) => x - yv[g][i]));
    const abs = res.map((rg) => rg.map(Math.abs));
    const sp = p.map((pg) => Float64Array.from(pg).sort());
    const st = {
      pred: p.map(meanVar),
      label: yv.map(meanVar),
      res: res.map(meanVar),
      abs: abs.map(meanVar),
    };
    const normal = (s: Stats) =>
      s.n > 0
        ? {
            lo: s.mean - (z * Math.sqrt(s.variance)) / Math.sqrt(s.n),
            hi: s.mean + (z * Math.sqrt(s.variance)) / Math.sqrt(s.n),
          }
        : null;
    const median = (v: Float64Array) => quantileSorted(v, 0.5);
    const groups: RegressionGroup[] = a.values.map((v, g) => {
      const base = {
        value: v,
        n: sizes[g],
        reference: g === r,
        small: sizes[g] < minGroupSize || sup[g],
        suppressed: sup[g],
      };
      if (sup[g] || sizes[g] === 0)
        return {
          ...base,
          mean_prediction: null,
          median_prediction: null,
          mean_label: null,
          mean_residual: null,
          mae: null,
          ks_prediction: null,
          wasserstein_prediction: null,
        };
      const other = g !== r && !sup[r] && sizes[r] > 0;
      return {
        ...base,
        mean_prediction: st.pred[g].mean,
        median_prediction: median(sp[g]),
        mean_label: st.label[g].mean,
        mean_residual: st.res[g].mean,
        mae: st.abs[g].mean,
        ks_prediction: other ? ksSorted(sp[g], sp[r]) : null,
        wasserstein_prediction: other ? wassersteinSorted(sp[g], sp[r]) : null,
        ci: {
          mean_prediction: normal(st.pred[g]),
          median_prediction: bootstrapOne(sp[g], median, B, opts.rng, confidence),
          mean_label: normal(st.label[g]),
          mean_residual: normal(st.res[g]),
          mae: normal(st.abs[g]),
          ...(other
            ? {
                ks_prediction: bootstrapTwo(sp[g], sp[r], ksSorted, B, opts.rng, confidence),
                wasserstein_prediction: bootstrapTwo(sp[g], sp[r], wassersteinSorted, B, opts.rng, confidence),
              }
            : {}),
        },
      };
    });
    const refLabel = sizes[r] > 0 ? st.label[r].mean : NaN;
    const biasHalf = units ? d! : (1 - tolerance) * Math.abs(refLabel);
    const biasBand: [number, number] = [-biasHalf, biasHalf];
    /** the estimate of a comparison of two groups' means, on the metric's scale in this mode */
    const estimate = (which: 'pred' | 'res' | 'abs', ratio: boolean, g: number, what: string): Estimate => {
      const a1 = st[which][g];
      const b1 = st[which][r];
      const value = sizes[g] > 0 ? a1.mean : null;
      const referenceValue = sizes[r] > 0 ? b1.mean : null;
      if (value === null || referenceValue === null) return { value, referenceValue, estimate: null, se: null };
      if (!ratio) return { value, referenceValue, estimate: value - referenceValue, se: welchSe(a1, b1) };
      if (!(value > 0 && referenceValue > 0))
        return {
          value,
          referenceValue,
          estimate: null,
          se: null,
          undefinedReason: `the ${what} is 0 for ${value > 0 ? ref.value : a.values[g]}: it has no ratio`,
        };
      return { value, referenceValue, estimate: logRatio(value, referenceValue), se: logRatioSe(a1, b1) };
    };
    const comparisons: Comparison<OutputMetricName>[] = [];
    // the judged rows of the table, each the mean of one per-row quantity; its scale from the table unless in units
    const JUDGED = outputMetricsOf('regression', true).map((m) => ({
      m,
      which: SAMPLE_OF[m as keyof typeof SAMPLE_OF],
      ratio: !units && outputMetricDef(m).scale === 'ratio',
    }));
    a.values.forEach((v, g) => {
      if (g === r) return;
      for (const j of JUDGED) {
        const c = judge(
          j.m,
          v,
          sizes[g],
          ref.value,
          sizes[r],
          estimate(j.which, j.ratio, g, outputMetricDef(j.m).label),
          {
            scale: j.ratio ? 'ratio' : 'difference',
            band: j.ratio ? ratioBand : j.m === 'mean_residual' ? biasBand : [-d!, d!],
            better: outputBetterOf(j.m, favourable),
            minGroupSize,
          },
          ref.source === 'given',
        );
        stripJudged(c, sup[g], sup[r], k);
        comparisons.push(c);
      }
    });
    const small = a.values.filter((_, g) => sizes[g] < minGroupSize && !sup[g]);
    if (small.length)
      warnings.push(
        `${a.column}: ${small.length} group${small.length > 1 ? 's have' : ' has'} fewer than ${minGroupSize} rows ` +
          `(${small.slice(0, 4).join(', ')}${small.length > 4 ? ', …' : ''}); ` +
          `${small.length > 1 ? 'they get' : 'it gets'} no verdict`,
      );
    if (a.unknown > 0) warnings.push(`${a.column}: ${a.unknown} rows have no value and are left out of its tables`);
    return {
      column: a.column,
      reference: { value: ref.value, reason: ref.reason, source: ref.source },
      unknown: a.unknown,
      groups,
      comparisons,
      biasBand,
    };
  });
  const report: RegressionReport = {
    output: output ?? { kind: 'regression', reason: 'regression, as the caller says', favourable },
    rows: table.rows,
    label: opts.label,
    pred: opts.pred,
    favourable,
    attributes: results,
    verdicts: {
      mode: units ? 'units' : 'ratio',
      tolerance: units ? null : tolerance,
      toleranceUnits: units ? d! : null,
      band: units ? null : [tolerance, 1 / tolerance],
      alpha,
      correction: '',
      comparisons: 0,
      test: units
        ? 'differences of means with Welch standard errors, band ±d; p = 2Φ(−δ/se) of "the difference is inside the ' +
          'band"'
        : 'mean prediction and MAE: log ratio of means with the delta-method SE, band [τ, 1/τ]; bias: difference of ' +
          'means with the Welch SE; p = 2Φ(−δ/se) of "inside the band"',
      biasBand: units
        ? `±${d} (--tolerance-units)`
        : `±(1 − ${tolerance})·|the reference group's mean label|, per attribute`,
      counts: countVerdicts([]),
    },
    bootstrap:
      B > 0
        ? {
            resamples: B,
            seed: opts.rng.seed,
            confidence,
            method: 'percentile, each group (and the reference) resampled within itself: the median and the distances',
          }
        : null,
    minGroupSize,
    suppressBelow: k > 0 ? k : null,
    warnings,
  };
  correctTogether([report], 'this table (every attribute, group and judged metric)');
  return report;
}
