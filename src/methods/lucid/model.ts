// What LUCID needs from a model: a differentiable logit over the encoded input and the encoding's
// feature groups. The built-in Classifier (src/models/classifier) satisfies it structurally; tests
// build tiny hand-made models with the same shape. Core code: no Node imports.
import type { Tensor } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import type { Table } from '../../data/table.js';
import type { FeatureGroup } from '../../models/classifier/preprocess.js';
import { kindName } from '../../models/adapters.js';

/**
 * One feature's columns in the encoded input (numeric: width 1, scaled to [−1, 1], with min and max the
 * original-unit values mapped to −1 and 1, needed for InvertOptions.bounds; categorical: a one-hot
 * group): the built-in preprocessor's FeatureGroup, less what only its decoder uses.
 */
export type LucidFeatureGroup = Omit<FeatureGroup, 'decimals'>;

export interface LucidPreprocessor {
  readonly groups: readonly LucidFeatureGroup[];
  readonly dim: number;
  /**
   * Encoded rows (n × dim, row-major) back to a table: numerics inverse-scaled (rounded to their decimals with
   * `round`), categoricals arg-max.
   */
  decode(x: Float32Array, n: number, opts?: { round?: boolean }): Table;
}

/**
 * A model whose raw outputs are differentiable with respect to its encoded input: a binary classifier's logit (what
 * `invert` reads), or, as the built-in model says with `kind`, a multiclass classifier's k logits or a regressor's
 * standardised value (what `invertTowards` reads).
 */
export interface LucidModel {
  readonly preprocessor: LucidPreprocessor;
  /** The label column the model predicts. */
  readonly label: string;
  /** The class whose probability the logit gives. */
  readonly positive: string;
  /** The other class, when the model knows it (the built-in classifier does). */
  readonly negative?: string;
  /** Both classes, when the model names them this way instead. */
  readonly classes?: readonly string[];
  /** What it was trained for (default binary). */
  readonly kind?: 'binary' | 'multiclass' | 'regression';
  /** A regressor's label standardisation: it outputs (y − mean) / sd. */
  readonly target?: { readonly mean: number; readonly sd: number } | null;
  /**
   * (N, D) encoded inputs → (N, 1) logit of P(positive) (a multiclass model's (N, k) logits in `classes`' order, a
   * regressor's (N, 1) standardised value); recorded by autodiff, no state changes.
   */
  logits(x: Tensor): Tensor;
}

/** The model's other class label, or null when it does not say (or has several other classes). */
export function negativeLabel(model: LucidModel): string | null {
  if (typeof model.negative === 'string') return model.negative;
  const others = model.classes?.filter((c) => c !== model.positive) ?? [];
  // With more than two classes the logit still gives P(positive); "the other class" is all the rest.
  return others.length === 1 ? others[0] : null;
}

export interface Preference {
  /** The preferred class label (or 'positive'/'negative' when the model does not name its other class). */
  label: string;
  /** Whether it is the model's positive class (the logit's sign is flipped otherwise). */
  positive: boolean;
}

/**
 * Resolves `prefer`: a class label of the model (checked first), or the words 'positive' / 'negative'.
 * Anything else is an E_ARG error that lists the two classes.
 */
export function resolvePreference(model: LucidModel, prefer: string, where = 'invert'): Preference {
  const neg = negativeLabel(model);
  if (prefer === model.positive) return { label: model.positive, positive: true };
  if (neg !== null && prefer === neg) return { label: neg, positive: false };
  if (prefer === 'positive') return { label: model.positive, positive: true };
  if (prefer === 'negative') return { label: neg ?? `not ${model.positive}`, positive: false };
  const classes =
    neg === null ? `"${model.positive}" and "negative" (every other class)` : `"${neg}" and "${model.positive}"`;
  throw new EngineError(
    'E_ARG',
    `${where}: --prefer "${prefer}" is not a class of the model's label "${model.label}"; its classes are ${classes}`,
  );
}

/** Checks that the groups tile [0, dim) and that categorical groups name their categories. */
export function checkGroups(pre: LucidPreprocessor, where = 'invert'): void {
  let next = 0;
  for (const g of pre.groups) {
    check(
      g.start === next && g.width >= 1,
      'E_INPUT',
      () =>
        `${where}: the model's feature groups do not tile its input (group "${g.name}" starts at ${g.start}, ` +
        `expected ${next})`,
    );
    check(
      g.kind === 'numeric' ? g.width === 1 : true,
      'E_INPUT',
      () => `${where}: numeric feature "${g.name}" has width ${g.width}, expected 1`,
    );
    next += g.width;
  }
  check(
    next === pre.dim,
    'E_INPUT',
    () => `${where}: the model's feature groups cover ${next} inputs, its input has ${pre.dim}`,
  );
}

/** A black box as the adapters describe it: LUCID can use it only when it exposes a differentiable classifier. */
export interface MaybeDifferentiable {
  /** the adapter's kind: one of the registry's (src/models/adapters.ts), or any word */
  kind?: string;
  /** Where it came from (a file name), for the message. */
  source?: string;
  differentiable?: LucidModel;
}

/** The differentiable model behind a black box, or the E_ARG error that points to LUCID-GAN. */
export function requireDifferentiable(bb: MaybeDifferentiable): LucidModel {
  if (bb.differentiable) return bb.differentiable;
  throw new EngineError('E_ARG', notDifferentiableMessage(bb.source ?? 'the model', bb.kind ?? 'black-box'));
}

/** "LUCID needs gradients; <source> is a <kind> model; use LUCID-GAN (lucid gan fit/sample) instead" */
export function notDifferentiableMessage(source: string, kind: string): string {
  const name = kindName(kind);
  const article = /^[aeio]/i.test(name) || /^(ONNX|MJS)/.test(name) ? 'an' : 'a';
  return `LUCID needs gradients; ${source} is ${article} ${name} model; use LUCID-GAN (lucid gan fit/sample) instead`;
}
