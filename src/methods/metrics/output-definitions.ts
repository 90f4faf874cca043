// The one table of the score and regression metrics (habit 4), in the style of METRIC_DEFS: the JSON fields, the
// text and CSV columns, the CLI's help and the verdicts of score.ts and regression.ts derive from OUTPUT_METRIC_DEFS.
// The binary metrics stay in definitions.ts; a score's threshold view takes its rates from there. Core code.
import type { Better } from './definitions.js';
import type { Direction } from './outputs.js';
import type { Scale } from './verdicts.js';

/** The output kinds with metrics in this table. */
export type ReadWholeKind = 'score' | 'regression';

/**
 * What a metric becomes when the same outputs are coded the other way (a score s → −s with the other label value
 * positive and --favourable flipped; a real value and its label negated with --favourable flipped): `metric` then
 * holds the same number, or with `negated` its negative. The judged metrics are closed under this map, so the same
 * outputs get the same verdicts however they are coded.
 */
export interface OutputRecoded {
  metric: string;
  negated?: true;
}

export interface OutputMetricDef {
  /** short column header */
  short: string;
  /** name in prose */
  label: string;
  /** one line of help */
  help: string;
  kind: ReadWholeKind;
  /**
   * the scale a comparison is tested on with a ratio tolerance (--tolerance); with --tolerance-units every judged
   * regression metric is tested on the difference scale (band ±d in the output's units)
   */
  scale: Scale;
  /** what a higher value means for the group with --favourable higher (null: no direction) */
  better: Better;
  /** `better` holds whatever the favourable direction (an AUC, an error) */
  oriented?: true;
  /** gets a verdict; the distances and descriptive figures are shown, not judged */
  judged: boolean;
  /** in the output's units (a regression's values, a score's scale): written with the value's precision */
  units?: true;
  /** the counterpart under the other coding */
  recoded: OutputRecoded;
}

export const OUTPUT_METRIC_DEFS = {
  auc: {
    short: 'AUC',
    label: 'AUC',
    help:
      "how well the score ranks the group's outcomes: P(a label-positive row scores above a label-negative one), " +
      'ties ½ (Mann–Whitney); a lower AUC disadvantages the group, whatever --favourable says',
    kind: 'score',
    scale: 'ratio',
    better: 'higher',
    oriented: true,
    judged: true,
    recoded: { metric: 'auc' },
  },
  ks: {
    short: 'KS',
    label: 'KS distance',
    help: "the largest gap between the group's and the reference's score CDFs (two-sample Kolmogorov–Smirnov)",
    kind: 'score',
    scale: 'difference',
    better: null,
    judged: false,
    recoded: { metric: 'ks' },
  },
  wasserstein: {
    short: 'W1',
    label: 'Wasserstein distance',
    help: "the mean distance a score moves to turn the group's distribution into the reference's (W1, score units)",
    kind: 'score',
    scale: 'difference',
    better: null,
    judged: false,
    units: true,
    recoded: { metric: 'wasserstein' },
  },
  mean_prediction: {
    short: 'mean',
    label: 'mean prediction',
    help: 'the mean predicted value; with --favourable higher a lower mean disadvantages the group',
    kind: 'regression',
    scale: 'ratio',
    better: 'higher',
    judged: true,
    units: true,
    recoded: { metric: 'mean_prediction', negated: true },
  },
  median_prediction: {
    short: 'median',
    label: 'median prediction',
    help: 'the median predicted value (shown, with a bootstrap interval)',
    kind: 'regression',
    scale: 'ratio',
    better: 'higher',
    judged: false,
    units: true,
    recoded: { metric: 'median_prediction', negated: true },
  },
  mean_label: {
    short: 'label',
    label: 'mean label',
    help: 'the mean true value (a property of the labels, not of the model: shown)',
    kind: 'regression',
    scale: 'ratio',
    better: null,
    judged: false,
    units: true,
    recoded: { metric: 'mean_label', negated: true },
  },
  mean_residual: {
    short: 'bias',
    label: 'mean residual',
    help:
      'the mean of prediction − label (bias); with --favourable higher a negative bias (under-prediction) ' +
      'disadvantages the group; judged on the difference scale',
    kind: 'regression',
    scale: 'difference',
    better: 'higher',
    judged: true,
    units: true,
    recoded: { metric: 'mean_residual', negated: true },
  },
  mae: {
    short: 'MAE',
    label: 'MAE',
    help: 'the mean absolute error |prediction − label|; a higher MAE disadvantages the group, whatever --favourable',
    kind: 'regression',
    scale: 'ratio',
    better: 'lower',
    oriented: true,
    judged: true,
    units: true,
    recoded: { metric: 'mae' },
  },
  ks_prediction: {
    short: 'KS',
    label: 'KS distance',
    help: "the largest gap between the group's and the reference's CDFs of predictions (Kolmogorov–Smirnov)",
    kind: 'regression',
    scale: 'difference',
    better: null,
    judged: false,
    recoded: { metric: 'ks_prediction' },
  },
  wasserstein_prediction: {
    short: 'W1',
    label: 'Wasserstein distance',
    help: "the mean distance a prediction moves to turn the group's distribution into the reference's (W1, units)",
    kind: 'regression',
    scale: 'difference',
    better: null,
    judged: false,
    units: true,
    recoded: { metric: 'wasserstein_prediction' },
  },
} as const satisfies Record<string, OutputMetricDef>;

export type OutputMetricName = keyof typeof OUTPUT_METRIC_DEFS;
export const OUTPUT_METRICS = Object.keys(OUTPUT_METRIC_DEFS) as OutputMetricName[];

/** The table's row, widened (optional fields readable). */
export const outputMetricDef = (m: OutputMetricName): OutputMetricDef => OUTPUT_METRIC_DEFS[m] as OutputMetricDef;

/**
 * The comparison a kind's headline states first when it is flagged, as the binary headline puts the selection rate
 * first: what the output gives a group (the favourable decision's rate at a score's threshold view, the mean
 * prediction of a real value), before how well it fits the group's labels.
 */
export const HEADLINE_METRIC: Record<ReadWholeKind, string> = {
  score: 'selection_rate',
  regression: 'mean_prediction',
};

/** The metrics of one output kind, in the table's order; `judged` keeps the judged ones only. */
export function outputMetricsOf(kind: ReadWholeKind, judged?: boolean): OutputMetricName[] {
  return OUTPUT_METRICS.filter(
    (m) => outputMetricDef(m).kind === kind && (judged === undefined || outputMetricDef(m).judged === judged),
  );
}

/** What a higher value of `m` means for the group under `favourable` (the oriented ones do not flip). */
export function outputBetterOf(m: OutputMetricName, favourable: Direction): Better {
  const d = outputMetricDef(m);
  if (d.better === null || favourable === 'higher' || d.oriented) return d.better;
  return d.better === 'higher' ? 'lower' : 'higher';
}

/** A sentence on how to read a difference in `m` under `favourable`. */
export function outputGuidance(m: OutputMetricName, favourable: Direction): string {
  const d = outputMetricDef(m);
  if (!d.judged) return `the ${d.label} is shown, not judged`;
  const b = outputBetterOf(m, favourable);
  if (m === 'mean_residual')
    return b === 'higher'
      ? 'a negative bias (under-prediction) disadvantages the group'
      : 'a positive bias (over-prediction) disadvantages the group';
  return b === 'higher' ? `a lower ${d.label} disadvantages the group` : `a higher ${d.label} disadvantages the group`;
}

/** The table as help lines, one per metric of `kind`: "  AUC  judged  …help". */
export function outputMetricsHelp(kind: ReadWholeKind): string {
  return outputMetricsOf(kind)
    .map((m) => {
      const d = outputMetricDef(m);
      return `  ${d.label} (${d.short}, ${d.judged ? `judged, ${d.scale} scale` : 'shown'}): ${d.help}`;
    })
    .join('\n');
}
