// lucid-wasm: the public library API. Runs in any JS runtime (no Node-only imports below here).
export { Engine, Tensor, Block, initEngine, sizeOf } from './engine/engine.js';
export type { Shape } from './engine/engine.js';
export { EngineError, check } from './engine/errors.js';
export type { ErrorCode } from './engine/errors.js';
export { Rng } from './engine/rng.js';
export { relaxedSimdSupported, BinOp, UnOp } from './engine/wasm.js';
export type { Kernels, LoadOptions, Variant } from './engine/wasm.js';
export { grad, defineOp, requireGrad } from './autograd/tape.js';
export type { GradOptions, OpDef, OpCtx } from './autograd/tape.js';
export * as ops from './autograd/ops/index.js';
export { Module, Param, ParamSet, buildParams } from './nn/module.js';
export { Linear, BatchNorm1d, Dropout, Residual } from './nn/layers.js';
export { Adam } from './nn/adam.js';
export type { AdamOptions } from './nn/adam.js';
export { Classifier, Preprocessor, MODEL_FORMAT, MODEL_VERSION, TRAIN_DEFAULTS } from './models/classifier/index.js';
export type { FeatureGroup, EpochReport, TrainOptions, TrainResult } from './models/classifier/index.js';
