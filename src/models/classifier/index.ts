// The built-in classifier and its preprocessing (core code, any runtime).
export { Preprocessor, labelOf } from './preprocess.js';
export type { FeatureGroup } from './preprocess.js';
export { Classifier, MODEL_FORMAT, MODEL_VERSION, TRAIN_DEFAULTS } from './classifier.js';
export type { EpochReport, TrainOptions, TrainResult } from './classifier.js';
