// LUCID: canonical sets by gradient inversion of a differentiable model (a binary decision, a class, a band).
export { invert, inputGradient, lucidLoss, preferProbability, LUCID_DEFAULTS } from './invert.js';
export type { InvertOptions, InvertResult, LucidLoss, LucidTrace } from './invert.js';
export { invertTowards, targetMismatch, VALUE_TOLERANCE } from './target.js';
export type { TargetInvertOptions, TargetInvertResult } from './target.js';
export {
  negativeLabel,
  resolvePreference,
  requireDifferentiable,
  notDifferentiableMessage,
  checkGroups,
} from './model.js';
export type { LucidFeatureGroup, LucidModel, LucidPreprocessor, MaybeDifferentiable, Preference } from './model.js';
export { projectSimplex, snapOneHot, argmax } from './project.js';
