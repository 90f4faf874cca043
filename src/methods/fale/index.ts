// FALE (fairness-aware ALE): the public surface of src/methods/fale.
export {
  assignBins,
  binaryLabels,
  fale,
  faleCsv,
  FALE_DEFAULTS,
  METRICS,
  percentileEdges,
  rankSubgroups,
  unprivilegedMask,
} from './fale.js';
export type { FairnessMetric, FaleFeature, FaleOptions, FaleResult, GroupStats, MetricName, ProtectedCondition, RankedSubgroup } from './fale.js';
export { categoricalOrder, classicalMds1, linspace, percentiles, percentilesSorted, symmetricEigen } from './order.js';
export { faleSvg } from './svg.js';
