// Synthetic-data quality (SDMetrics conventions) and the validity of canonical sets.
export {
  MISSING_LABEL,
  ksStatistic,
  ksComplement,
  categoryFrequencies,
  totalVariation,
  tvComplement,
  correlation,
  correlationSimilarity,
  encodeCategorical,
  encodeNumeric,
  encodeColumn,
  binEdges,
  contingencySimilarity,
} from './metrics.js';
export type { CorrelationMethod, EncodedColumn } from './metrics.js';
export { qualityReport, columnShape, pairTrend, validity, QUALITY_DEFAULTS } from './report.js';
export type {
  QualityOptions,
  QualityCondition,
  QualityReport,
  ColumnShape,
  PairTrend,
  Validity,
  ValiditySide,
} from './report.js';
export { formatQuality, worstPairs } from './format.js';
