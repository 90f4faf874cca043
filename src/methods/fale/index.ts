// FALE (fairness-aware ALE): the public surface of src/methods/fale.
export {
  assignBins,
  binaryLabels,
  fale,
  faleCsv,
  faleOutput,
  outputSetup,
  FALE_DEFAULTS,
  FALE_METRIC_DEFS,
  FALE_METRICS,
  FALE_METRIC_FNS,
  percentileEdges,
  rankSubgroups,
  unprivilegedMask,
} from './fale.js';
export type {
  FairnessMetric,
  FaleFeature,
  FaleMetricDef,
  FaleMeasureInfo,
  FaleOptions,
  FaleOutputOptions,
  FaleResult,
  FaleRunInfo,
  GroupStats,
  FaleMetric,
  ProtectedCondition,
  RankedSubgroup,
} from './fale.js';
export { categoricalOrder, classicalMds1, linspace, percentiles, percentilesSorted, symmetricEigen } from './order.js';
export { faleSvg } from './svg.js';
export { accumulate2d, fale2d, fale2dOutput, fillNearest } from './fale2d.js';
export {
  checkMeasure,
  defaultMeasure,
  FALE_MEASURE_DEFS,
  FALE_MEASURES,
  measurePerPopulation,
  measuresFor,
  type FaleMeasure,
  type FaleMeasureDef,
  type FaleOutputKind,
  type MeanStats,
} from './measures.js';
export {
  faleStream,
  FALE_STREAM_DEFAULTS,
  type ChunkSource,
  type FaleStreamOptions,
  type FaleStreamResult,
} from './stream.js';
export type { Fale2dOptions, Fale2dOutputOptions, Fale2dResult, FilledCell } from './fale2d.js';
