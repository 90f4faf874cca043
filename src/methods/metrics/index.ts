// Output-based group metrics (`lucid metrics`): the module's face, re-exports only. What is where:
// - definitions.ts: the METRICS table, the one place a metric is defined (formats, report, policy
//   and FALE derive their lists from it);
// - group-metrics.ts: groupMetrics, references, bootstrap CIs; types.ts: the report's shapes;
// - verdicts.ts, summary.ts, suppress.ts, impact.ts, calibration.ts, conditional.ts, format.ts.
export {
  METRICS,
  METRIC_DEFS,
  JUDGED_METRICS,
  CHARTED_METRICS,
  FAVOURABLE,
  betterOf,
  directionsPhrase,
  guidance,
  judgedPhrase,
  metricDef,
  rates,
  recodedMetric,
  type MetricName,
  type Rates,
  type Favourable,
  type Counts,
} from './definitions.js';
export {
  VERDICTS,
  wilsonInterval,
  arrowOf,
  byConcern,
  DIRECTION_ARROW,
  type Comparison,
  type Verdict,
} from './verdicts.js';
export type { ImpactTable, ImpactRow } from './impact.js';
export type { GroupCalibration, ReliabilityBin } from './calibration.js';
export type { ConditionalDisparity, ConditionalRow } from './conditional.js';
export {
  verdictTable,
  verdictCellText,
  yardsticksOf,
  disadvantageOf,
  disadvantages,
  attributeHeadline,
  attributeHeadlineText,
  disadvantageFigures,
  disadvantageText,
  yardstickFailureText,
  type VerdictRow,
  type VerdictCell,
  type Yardsticks,
  type YardstickFailure,
  type Disadvantage,
  type AttributeHeadline,
} from './summary.js';
export { suppressedText, SUPPRESSION_OPTION } from './suppress.js';
export { formatMetricsTable, formatMetricsCsv, formatVerdictTable, fourFifthsText, impactText } from './format.js';
export type {
  AttributeResult,
  Disparity,
  FourFifths,
  GroupMetricsOptions,
  GroupResult,
  Interval,
  MetricsReport,
} from './types.js';
export {
  METRICS_DEFAULTS,
  INTERSECTION_JOIN,
  chooseReference,
  correctTogether,
  familyCounts,
  groupMetrics,
  labelValues,
  metricsSettings,
} from './group-metrics.js';
export {
  binaryLabel,
  decide,
  decideOne,
  decisionKinds,
  decisionRule,
  defaultPositive,
  modelOrPred,
  positiveOf,
  DECISION_DEFAULTS,
  DEFAULT_DECISION,
  ruleOf,
  THRESHOLD_MEANING,
  type DecisionRule,
  type ModelOrPredWords,
} from './decision.js';
export { aucOf, fitLine, modelFit, FIT_DEFAULTS, type Auc, type ModelFit } from './fit.js';
export {
  bandTest,
  judge,
  type Estimate,
  type FlagDirection,
  type JudgeSettings,
  type Scale,
} from './verdicts.js';
export { scoreRule } from './decision.js';
export { attributes, countVerdicts, inUnit, numericColumn, type Attr, type JudgedReport } from './group-metrics.js';
export type { OutputInfo } from './types.js';
// the score, regression and read-whole outputs: one table (output-definitions.ts), one entry point (output-metrics.ts)
export {
  OUTPUT_METRIC_DEFS,
  OUTPUT_METRICS,
  outputBetterOf,
  outputGuidance,
  outputMetricDef,
  outputMetricsHelp,
  outputMetricsOf,
  type OutputMetricDef,
  type OutputMetricName,
  type OutputRecoded,
  type ReadWholeKind,
} from './output-definitions.js';
export {
  aucSe,
  aucSorted,
  bootstrapOne,
  bootstrapTwo,
  ksSorted,
  logRatioSe,
  meanVar,
  wassersteinSorted,
  welchSe,
  type AucSe,
} from './distance.js';
export {
  SCORE_DEFAULTS,
  scoreMetrics,
  rowsOnCut,
  scoreThreshold,
  sweepThresholds,
  type CurvePoint,
  type ScoreAttribute,
  type ScoreGroup,
  type ScoreMetricsOptions,
  type ScoreReport,
} from './score.js';
export {
  REGRESSION_DEFAULTS,
  regressionMetrics,
  type RegressionAttribute,
  type RegressionGroup,
  type RegressionMetricsOptions,
  type RegressionReport,
} from './regression.js';
export { outputChoice, outputMetrics, type OutputMetricsOptions, type OutputReport } from './output-metrics.js';
export {
  comparisonFigures,
  formatOutputCsv,
  formatRegressionTable,
  formatScoreTable,
  outputHeadline,
  outputVerdictTable,
} from './output-format.js';
export {
  classOrderText,
  correctMulticlassTogether,
  multiclassFamilyCounts,
  multiclassMetrics,
  MULTICLASS_RATE_NAMES,
  MULTICLASS_RATES,
  oneVsRest,
  type ClassComparison,
  type ClassRate,
  type MulticlassAttribute,
  type MulticlassGroup,
  type MulticlassOptions,
  type MulticlassRate,
  type MulticlassReport,
} from './multiclass.js';
export {
  classDisadvantageOf,
  classDisadvantages,
  classDisadvantageText,
  formatMulticlassCsv,
  formatMulticlassTable,
  multiclassHeadline,
  type ClassDisadvantage,
} from './multiclass-format.js';
export * from './targets.js';
