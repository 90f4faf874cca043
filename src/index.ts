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
// the CSV settings every reader takes (the Node reader's and the browser page's), and the in-memory reader of any
// format
export { csvSettings, readCsvBytes, readDataBytes, CSV_SAMPLE_BYTES } from './data/csv-read.js';
export { zipStored, crc32, type ZipEntry } from './data/zip.js';
export { tableToCsv, cellText, csvText, csvField, escapeFormula, formatNumber } from './data/csv-write.js';
export { TableBuilder, DEFAULT_MAX_CATEGORIES } from './data/schema.js';
export { MISSING_TOKENS } from './data/cells.js';
export type {
  SchemaOptions,
  ReadReport,
  MissingReport,
  MissingPolicy,
  Cell,
  FieldBatch,
  RowUnit,
} from './data/schema.js';
export { FORMATS, FORMAT_NAMES, formatOfName, formatByName, acceptList } from './data/formats.js';
export type { Format, FormatName } from './data/formats.js';
export { readParquet } from './data/parquet.js';
export { readArrow } from './data/arrow.js';
export { readJsonLines } from './data/jsonl.js';
export { bytesSource } from './data/typed-read.js';
export type { ByteSource, ReadResult, FormatReader } from './data/typed-read.js';
export { inspectTable, formatInspect } from './data/inspect.js';
export type { InspectSummary, ColumnSummary } from './data/inspect.js';
export { fitVgm, vgmPredictProba, vgmScore, activeModes, vgmToJSON, vgmFromJSON } from './models/ctgan/vgm.js';
export type { VgmModel, VgmOptions } from './models/ctgan/vgm.js';
export { DataTransformer, addModes } from './models/ctgan/transformer.js';
export type { ColumnInfo, TransformerOptions, TransformReport } from './models/ctgan/transformer.js';
export { simulate, simulatorScores, BIAS_KINDS } from './data/simulator.js';
export type { BiasKind, Simulation, SimulateOptions } from './data/simulator.js';
export {
  prepareAdult,
  prepareCompas,
  parseSplitIndices,
  adultDataset,
  compasDataset,
  adultNames,
} from './data/datasets.js';
export type { Dataset } from './data/datasets.js';
// models and methods
export { checkPredictions, builtinBlackBox, columnBlackBox, moduleBlackBox } from './models/blackbox.js';
export type { BlackBox, BlackBoxKind, ModelModule } from './models/blackbox.js';
export { onnxBlackBox, parseOnnxSidecar } from './models/onnx.js';
export type { OnnxSidecar } from './models/onnx.js';
export { Generator, Discriminator, gradientPenalty, applyActivation } from './models/ctgan/networks.js';
export type { OutputSpan } from './models/ctgan/networks.js';
export * as lucid from './methods/lucid/index.js';
export * as quality from './methods/quality/index.js';
export * as fale from './methods/fale/index.js';
export * as lucidgan from './models/lucidgan/index.js';
export * as audit from './audit/index.js';
export * as metrics from './methods/metrics/index.js';
export * as report from './report/index.js';
