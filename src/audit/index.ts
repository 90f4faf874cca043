// The audit: one call (runAudit) from data and a model to everything the report shows. Core code.
export { runAudit, ganEpochsFor, ganStepsFor, ganBatchFor, lucidStart, AUDIT_DEFAULTS, AUDIT_VERSION } from './run.js';
export type { AuditOptions, AuditPlan } from './run.js';
export { auditPlan } from './run.js';
export { jsDistance, distribution, commonEdges, rankDistributions, NUMERIC_BINS } from './distance.js';
export type { SeriesInput } from './distance.js';
export { quantileBins, explicitBins, assignBin, binValues, binLabels, quantileSorted, formatEdge } from './bins.js';
export type { Bins } from './bins.js';
export type * from './types.js';
