// The shapes of a metrics report (what groupMetrics returns and the formatters, summary and
// suppression read): their own file, below all of them, so none imports the implementation.
import type { Rng } from '../../engine/rng.js';
import type { GroupCalibration } from './calibration.js';
import type { ConditionalDisparity } from './conditional.js';
import type { DecisionRule } from './decision.js';
import type { Favourable, MetricName, Rates } from './definitions.js';
import type { ImpactTable } from './impact.js';
import type { ModelFit } from './fit.js';
import type { Comparison, Verdict } from './verdicts.js';

export interface GroupMetricsOptions {
  label: string;
  /** the label value that is the positive class; default: the second of exactly two values in sorted order */
  positive?: string;
  /**
   * whether the positive class is the outcome people want (a loan: positive) or not (a high-risk score: negative);
   * default positive
   */
  favourable?: Favourable;
  /** the prediction column: predicted labels (values of the label), 0/1, or P(positive) in [0, 1] */
  pred: string;
  /**
   * 'auto' (default): values of the label are read as predicted labels, anything else as scores;
   * 'scores': always P(positive) (a model's output, which may happen to be exactly 0 and 1)
   */
  predAs?: 'auto' | 'scores';
  /** a score column is read as predicted positive when score > threshold (default 0.5) */
  threshold?: number;
  /** instead of `threshold`: the decision rule itself (decision.ts), as the audit's plan holds it */
  decision?: DecisionRule;
  /** the protected columns */
  groups: string[];
  /** one attribute: the Cartesian product of `groups` (non-empty cells only) */
  intersect?: boolean;
  /** column → reference value (`--reference`, alias `--privileged`); for an intersection every column must be given */
  reference?: Record<string, string>;
  /** @deprecated the old name of `reference` */
  privileged?: Record<string, string>;
  /** bootstrap resamples for percentile intervals of the rates (0: none); verdicts never need them */
  bootstrap?: number;
  /** the seeded generator the resamples are drawn from (required with bootstrap, and for the ECE interval of scores) */
  rng?: Rng;
  /** 1 − α for the verdicts and the intervals */
  confidence?: number;
  /** τ in (0, 1): ratios inside [τ, 1/τ] pass */
  tolerance?: number;
  minGroupSize?: number;
  /** columns whose strata the disparity is also given conditional on (`--legitimate`) */
  legitimate?: string[];
  /**
   * `--suppress-below k`: a group with fewer than k rows is suppressed (suppress.ts): no rate, count of
   * positives or interval of it leaves this function, and it gets no verdict (default: none)
   */
  suppressBelow?: number;
  /**
   * `--allow-inverted-scores`: scores that rank the label worse than chance beyond noise are audited as given, with a
   * warning, instead of stopping (fit.ts)
   */
  allowInvertedScores?: boolean;
  /**
   * what the predictions are, in messages (default: the column: 'the scores in "p"'); an audit with a model names the
   * model
   */
  predWhat?: string;
}

export interface Interval {
  lo: number | null;
  hi: number | null;
}

export interface GroupResult extends Rates {
  column: string;
  value: string;
  n: number;
  /** the confusion matrix; null when suppressed */
  tp: number | null;
  fp: number | null;
  tn: number | null;
  fn: number | null;
  /** the reference of differences, ratios and verdicts */
  reference: boolean;
  /** fewer rows than minGroupSize, or suppressed */
  small: boolean;
  /** fewer rows than the report's suppressBelow: every rate, count and interval is null or absent */
  suppressed: boolean;
  ci?: Record<MetricName, Interval>;
}

export interface Disparity {
  /** group − reference, per other group value (aif360's sign) */
  difference: Record<string, number | null>;
  /** group / reference; null when undefined or the reference value is 0 */
  ratio: Record<string, number | null>;
  /** max − min over the groups that are not small, where the metric is defined (fairlearn's difference) */
  max_minus_min: number | null;
  ci?: { difference: Record<string, Interval>; ratio: Record<string, Interval>; max_minus_min: Interval };
}

/**
 * The four-fifths rule: each group's selection rate (the favourable outcome's rate) over the most selected group's,
 * among groups that are not small.
 */
export interface FourFifths {
  /** the most selected group that is not small (null when every group is small) */
  reference: string | null;
  /** per group: selection rate */
  selectionRate: Record<string, number | null>;
  /** per group: selection rate / the reference's (null for small groups) */
  ratio: Record<string, number | null>;
  /** the groups below 0.8 (never a small one) */
  below: string[];
}

export interface AttributeResult {
  column: string;
  reference: { value: string; reason: string; source: 'given' | 'largest' };
  /** rows left out because a protected value is missing */
  unknown: number;
  groups: GroupResult[];
  disparities: Record<MetricName, Disparity>;
  /** one per (group other than the reference, judged metric), with its verdict */
  comparisons: Comparison[];
  fourFifths: FourFifths;
  /** the NYC Local Law 144 table (selection rate, or scoring rate for scores) */
  impact: ImpactTable;
  /** per group, for score predictions only */
  calibration: GroupCalibration[] | null;
  /** with `legitimate`: the selection-rate disparity within strata of those columns */
  conditional: ConditionalDisparity | null;
}

export interface MetricsReport {
  rows: number;
  label: string;
  positive: string;
  favourable: Favourable;
  pred: string;
  /** how the prediction column was read */
  predKind: 'labels' | 'scores';
  threshold: number | null;
  /** how well the predictions fit the label, before any group: accuracy, AUC, weak or inverted (fit.ts) */
  fit: ModelFit;
  attributes: AttributeResult[];
  /** how the verdicts were reached */
  verdicts: VerdictsSummary;
  bootstrap: BootstrapSummary | null;
  minGroupSize: number;
  /**
   * `--suppress-below k`: groups with fewer rows carry no rate, count of positives or interval (null: nothing
   * suppressed)
   */
  suppressBelow: number | null;
  warnings: string[];
}

/**
 * The options every output kind's group metrics share (score, regression and multiclass, and outputMetrics in front of
 * them): the columns, the protected attributes and their references, and the verdicts' settings, as GroupMetricsOptions
 * documents them.
 */
export type OutputGroupOptions = Pick<
  GroupMetricsOptions,
  | 'label'
  | 'pred'
  | 'groups'
  | 'intersect'
  | 'reference'
  | 'privileged'
  | 'confidence'
  | 'tolerance'
  | 'minGroupSize'
  | 'suppressBelow'
>;

/** How a report's verdicts were reached: the ratio band [τ, 1/τ], the level, the correction and the tallies. */
export interface VerdictsSummary {
  tolerance: number;
  band: [number, number];
  alpha: number;
  correction: string;
  comparisons: number;
  test: string;
  counts: Record<Verdict, number>;
}

/** The bootstrap behind a report's percentile intervals. */
export interface BootstrapSummary {
  resamples: number;
  seed: number;
  confidence: number;
  method: string;
}

/**
 * Which output kind a report audits and why (outputs.ts's outputKindOf), with its favourable direction: every output
 * but the binary one carries it (the binary report keeps its fields; `lucid metrics` says its kind beside it).
 */
export interface OutputInfo {
  kind: 'binary' | 'score' | 'multiclass' | 'regression';
  /** one sentence: "inferred score: the prediction column "decile" holds numbers outside [0, 1] and …" */
  reason: string;
  /** positive|negative for binary, higher|lower for score and regression, the class order for multiclass */
  favourable: string;
}
