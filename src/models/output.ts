// What a model returns, in the words every adapter uses: the output kinds (the audit's --output; the metrics of each
// kind live in src/methods/metrics/outputs.ts, which re-exports OutputKind from here so that a model can say its kind
// without importing a layer above it) and a model's declared output with, for a multiclass model, its classes.
// Core code: no Node imports.
import { inputError } from '../engine/errors.js';

/** The output kinds, in the order of `--output`'s help. */
export type OutputKind = 'binary' | 'score' | 'multiclass' | 'regression';

/**
 * What a model's predict returns, per row of the table it is given:
 *   binary      P(positive class), one number in [0, 1] per row (every model before output kinds existed);
 *   score       one number per row on any scale (a credit score, a risk decile);
 *   multiclass  one probability per class, the row's k numbers summing to 1, row-major N×k in `classes`' order;
 *   regression  one real value per row, in the label's units.
 */
export type ModelOutput =
  | { readonly kind: 'binary' }
  | { readonly kind: 'score' }
  | { readonly kind: 'multiclass'; readonly classes: readonly string[] }
  | { readonly kind: 'regression' };

/** The output of a model that does not say (a caller's own black box): binary, as every model was before. */
export const BINARY_OUTPUT: ModelOutput = { kind: 'binary' };

/** The kinds a model can declare, in `--output`'s order. */
export const MODEL_OUTPUT_KINDS: readonly OutputKind[] = ['binary', 'score', 'multiclass', 'regression'];

/** The numbers predict returns per row: k for a multiclass model, 1 otherwise. */
export function outputWidth(o: ModelOutput): number {
  return o.kind === 'multiclass' ? o.classes.length : 1;
}

/** "multiclass (approve, refer, decline)", "regression": the output in a message. */
export function outputText(o: ModelOutput): string {
  return o.kind === 'multiclass' ? `multiclass (${o.classes.join(', ')})` : o.kind;
}

/**
 * A model's declaration of its output, as a JS module exports it (`export const output = 'regression'` or
 * `{ kind: 'multiclass', classes: ['approve', 'refer', 'decline'] }`) or a sidecar records it: the kind's name, or an
 * object with `kind` and, for multiclass, at least two distinct class names. Anything else is one E_INPUT line naming
 * `where` (the module or the sidecar's field) and what it holds.
 */
export function parseModelOutput(v: unknown, where: string): ModelOutput {
  const kinds = MODEL_OUTPUT_KINDS.map((k) => `"${k}"`).join(', ');
  const shown = typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : typeof v;
  const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const kind = typeof v === 'string' ? v : o?.kind;
  if (typeof kind !== 'string' || !(MODEL_OUTPUT_KINDS as readonly string[]).includes(kind)) {
    throw inputError(
      `${where} must be one of ${kinds} or { kind: 'multiclass', classes: [...] }, got ` +
        `${o ? `{ kind: ${typeof o.kind === 'string' ? JSON.stringify(o.kind) : String(o.kind)} }` : shown}`,
    );
  }
  if (kind !== 'multiclass') return { kind: kind as Exclude<OutputKind, 'multiclass'> };
  const classes = o?.classes;
  if (
    !Array.isArray(classes) ||
    classes.length < 2 ||
    !classes.every((c) => typeof c === 'string' && c !== '') ||
    new Set(classes).size !== classes.length
  ) {
    throw inputError(
      `${where}: a multiclass output names its classes in the order of its probabilities: { kind: 'multiclass', ` +
        `classes: ['approve', 'refer', 'decline'] } (at least two distinct non-empty names)`,
    );
  }
  return { kind: 'multiclass', classes: (classes as string[]).slice() };
}
