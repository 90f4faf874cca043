export { LucidGan, GAN_DEFAULTS, RARE_ROWS, RARE_SHARE } from './model.js';
export type { FitOptions, FitResult, FitStatus, GanConfig, GanEpoch, GanHistory, SampleOptions, SampleResult } from './model.js';
export { CondSampler } from './sampler.js';
export type { CondDraw, DiscreteColumn } from './sampler.js';
export { ganFromJSON, ganToJSON, GAN_FORMAT, GAN_VERSION } from './format.js';
