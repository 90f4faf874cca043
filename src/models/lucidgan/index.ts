export { LucidGan, GAN_DEFAULTS, CONSISTENCY_WEIGHT, RARE_ROWS, RARE_SHARE } from './model.js';
export type {
  Checkpointing,
  CheckpointRecord,
  StopRecord,
  ConsistencySpec,
  FitOptions,
  FitResult,
  FitStatus,
  GanConfig,
  GanEpoch,
  GanHistory,
  SampleOptions,
  SampleResult,
} from './model.js';
export { CondSampler } from './sampler.js';
export type { CondDraw, DiscreteColumn } from './sampler.js';
export {
  ganFromJSON,
  ganSetFromJSON,
  ganSetToJSON,
  ganToJSON,
  GAN_FORMAT,
  GAN_VERSION,
  type GanMember,
  type GanSetProvenance,
} from './format.js';
export { SURROGATE_DEFAULTS } from './surrogate.js';
export type { SurrogateFit } from './surrogate.js';
