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
// data
export type { Table, Column, NumericColumn, CategoricalColumn } from './data/table.js';
export { getColumn, selectRows, selectColumns, cell } from './data/table.js';
export { detectCsv } from './data/csv-detect.js';
export { TableBuilder, MISSING_TOKENS, DEFAULT_MAX_CATEGORIES } from './data/schema.js';
export type { SchemaOptions, ReadReport, MissingReport, MissingPolicy } from './data/schema.js';
export { inspectTable, formatInspect, addModes } from './data/inspect.js';
export type { InspectSummary, ColumnSummary } from './data/inspect.js';
export { fitVgm, vgmPredictProba, vgmScore, activeModes, vgmToJSON, vgmFromJSON } from './data/vgm.js';
export type { VgmModel, VgmOptions } from './data/vgm.js';
export { DataTransformer } from './data/transformer.js';
export type { ColumnInfo, TransformerOptions, TransformReport } from './data/transformer.js';
export { simulate, simulatorScores, BIAS_KINDS } from './data/simulator.js';
export type { BiasKind, Simulation, SimulateOptions } from './data/simulator.js';
export { prepareAdult, prepareCompas, parseSplitIndices, adultDataset, compasDataset, adultNames } from './data/datasets.js';
export type { Dataset } from './data/datasets.js';
// models and methods
export { checkPredictions, builtinBlackBox, columnBlackBox, moduleBlackBox, onnxBlackBox, parseOnnxSidecar } from './models/blackbox.js';
export type { BlackBox, BlackBoxKind, ModelModule, OnnxSidecar } from './models/blackbox.js';
export { Generator, Discriminator, gradientPenalty, applyActivation } from './models/ctgan/networks.js';
export type { OutputSpan } from './models/ctgan/networks.js';
export * as lucid from './methods/lucid/index.js';
