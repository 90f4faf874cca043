// LUCID-GAN's settings and training records: the hyperparameters and their defaults, the consistency
// mode's specification, and what a fit records (losses, checkpoints, why it stopped). Their own file
// because both the model (model.ts) and its trainer (train.ts) read them, and the model calls the
// trainer. Core code: no Node imports.
import type { SurrogateFit } from './surrogate.js';

export interface GanConfig {
  embedding: number;
  generatorDims: number[];
  discriminatorDims: number[];
  pac: number;
  batch: number;
  epochs: number;
  lr: number;
  betas: [number, number];
  weightDecay: number;
  penaltyLambda: number;
  tau: number;
}

export const GAN_DEFAULTS: GanConfig = {
  embedding: 128,
  generatorDims: [256, 256],
  discriminatorDims: [256, 256],
  pac: 10,
  batch: 500,
  epochs: 300,
  lr: 2e-4,
  betas: [0.5, 0.9],
  weightDecay: 1e-6,
  penaltyLambda: 10,
  tau: 0.2,
};

/** Weight λ of the prediction-consistency term (chosen on Adult; see docs/methods.md "LUCID-GAN"). */
export const CONSISTENCY_WEIGHT = 5;

/**
 * The training mode: 'consistency' (the default) adds λ·BCE(sigmoid(s(fake)), c) to the generator
 * loss, s a fixed surrogate of the audited model fitted on (transformed row, condition) pairs;
 * 'paper' is LUCID-GAN as published (no such term).
 */
export interface ConsistencySpec {
  mode: 'consistency' | 'paper';
  /** the condition column the surrogate predicts (consistency mode) */
  condition: string | null;
  weight: number;
  /** the surrogate's hidden width and weights (consistency mode) */
  hidden: number;
  weights: Float32Array | null;
}

export const PAPER_MODE: ConsistencySpec = { mode: 'paper', condition: null, weight: 0, hidden: 0, weights: null };

export interface GanEpoch {
  epoch: number;
  lossG: number;
  lossD: number;
  lossCond: number;
  seconds: number;
}

export type FitStatus = 'done' | 'interrupted' | 'diverged';

export interface GanHistory {
  lossG: number[];
  lossD: number[];
  lossCond: number[];
  /** consistency mode: the per-epoch consistency term (BCE, before λ) of the last step */
  lossConsistency?: number[];
  /** consistency mode: how the surrogate fits its training pairs */
  surrogate?: SurrogateFit;
  /** with FitOptions.checkpoint: every quality check, in order */
  checkpoints?: CheckpointRecord[];
  /** with FitOptions.checkpoint: where training ended and which weights it kept */
  stop?: StopRecord;
}

/**
 * Stopping on a quality criterion instead of a fixed epoch count: every `every` generator
 * steps (at the end of the epoch that reaches them) the caller scores the generator as it stands,
 * lower being better (an audit: the distance of generated rows to real rows held out from training).
 * Training stops once `patience` checks in a row have not improved on the best score by at least
 * `minDelta` of it, or at the epoch budget; the best checkpoint's weights are kept. The score must
 * draw from its own Rng: the training stream is untouched, so checks do not change the trajectory.
 */
export interface Checkpointing<M = unknown> {
  /** generator steps between checks (rounded up to whole epochs) */
  every: number;
  /**
   * M: the model being trained (a LucidGan), scored as it stands; with an acceptance (a share in [0, 1]) when the rule
   * reads one; may be async
   */
  score: (model: M) => number | CheckScore | Promise<number | CheckScore>;
  patience: number;
  /**
   * a check counts as progress (resets the patience) when its score is below the reference score · (1 − minDelta); the
   * reference: `progressFrom`
   */
  minDelta: number;
  /**
   * the score progress is measured from: that of the last check that counted as progress (the default) or the lowest so
   * far
   */
  progressFrom?: 'last progress' | 'lowest';
  /**
   * a check also counts as progress when its acceptance rises this much above the highest so far (EXPERIMENTS.md §12:
   * R2)
   */
  acceptanceRise?: number;
  /** the weights kept: the lowest score's (the default) or the stopping check's */
  keep?: 'best' | 'last';
  /** no stop before this many steps (Infinity: train to the budget, keep the best check) */
  minSteps?: number;
}

/** A check's score (lower is better) and the acceptance a rule may also read. */
export interface CheckScore {
  score: number;
  acceptance: number;
}

export interface CheckpointRecord {
  /** generator steps done */
  steps: number;
  score: number;
  /** the acceptance the score came with, when it has one */
  acceptance?: number;
  /** wall seconds of training so far, the checks' own time left out */
  seconds: number;
  /** wall seconds of this check */
  checkSeconds: number;
}

export interface StopRecord {
  /** steps trained, and the steps of the weights kept (the best check) */
  steps: number;
  keptSteps: number;
  keptScore: number;
  /** diverged / interrupted: training ended otherwise, and the best check's weights (if any) were kept */
  reason: 'no improvement' | 'budget' | 'diverged' | 'interrupted';
}
