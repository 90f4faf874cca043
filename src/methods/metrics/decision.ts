// The rules every command shares about a model's output, each said once: how a score becomes a
// decision (DecisionRule, by the output's kind), which label value is the positive class, and that
// an audit is given a model to call or a column of its predictions, never both. `lucid metrics`,
// `lucid fale`, `lucid check`, the audit (audit/plan.ts) and the browser page take them from here.
// Core code: no Node imports. Below the audit layer on purpose: metrics and FALE decide too.
import { check } from '../../engine/errors.js';

/**
 * How a model's output becomes the positive (1) or negative (0) decision:
 *   probability — the output is P(positive) and a row is positive when it is above the threshold (sklearn's predict
 *                 at 0.5); the threshold is in [0, 1];
 *   score       — a score on any scale (a decile, a 300–850 credit score) cut at any finite threshold: positive when
 *                 above it (the threshold view of a score read whole, score.ts).
 * Outputs of other kinds are further members of this union, each with its row in DECISION_KINDS.
 */
export type DecisionRule = { kind: 'probability'; threshold: number } | { kind: 'score'; threshold: number };
export type DecisionKind = DecisionRule['kind'];

/** Each output kind's decision for one score; decide() and decideOne() dispatch on `rule.kind`. */
const DECISION_KINDS: { [K in DecisionKind]: (rule: Extract<DecisionRule, { kind: K }>) => (score: number) => 0 | 1 } =
  {
    probability: (rule) => {
      const t = rule.threshold;
      return (p) => (p > t ? 1 : 0);
    },
    score: (rule) => {
      const t = rule.threshold;
      return (s) => (s > t ? 1 : 0);
    },
  };

/** The output kinds with a decision, in DECISION_KINDS' order. */
export const decisionKinds = (): DecisionKind[] => Object.keys(DECISION_KINDS) as DecisionKind[];

export const DECISION_DEFAULTS = {
  /** P(positive) above which a row is decided positive */
  threshold: 0.5,
};

/** The default rule: a probability's at DECISION_DEFAULTS.threshold. */
export const DEFAULT_DECISION: DecisionRule = { kind: 'probability', threshold: DECISION_DEFAULTS.threshold };

/** What the threshold means, in the words of the CLI's --threshold help and the page's threshold field. */
export const THRESHOLD_MEANING = "P(positive) above which a row is predicted positive (the model's decision)";

/**
 * The decision rule of a probability output: `threshold` (default DECISION_DEFAULTS.threshold), which
 * must be in [0, 1]; an error names `where` (the command or the API: "metrics", "fale", "audit").
 */
export function decisionRule(threshold: number | undefined, where: string): DecisionRule {
  const t = threshold ?? DECISION_DEFAULTS.threshold;
  check(Number.isFinite(t) && t >= 0 && t <= 1, 'E_ARG', () => `${where}: threshold must be in [0, 1], got ${t}`);
  return { kind: 'probability', threshold: t };
}

/** The decision rule of a score on any scale: positive above `threshold`, any finite number. */
export function scoreRule(threshold: number, where: string): DecisionRule {
  check(Number.isFinite(threshold), 'E_ARG', () => `${where}: threshold must be a finite number, got ${threshold}`);
  return { kind: 'score', threshold };
}

/**
 * The rule of options that name it either whole (`decision`, as the audit's plan hands it on) or by a
 * probability's threshold (`threshold`, the command line's form), checked once; not both.
 */
export function ruleOf(opts: { decision?: DecisionRule; threshold?: number }, where: string): DecisionRule {
  check(
    opts.decision === undefined || opts.threshold === undefined,
    'E_ARG',
    () => `${where}: give a decision rule or a threshold, not both`,
  );
  return opts.decision ?? decisionRule(opts.threshold, where);
}

/** The rule's decision function, from its kind's row (the row's type is checked against its kind in the table). */
const decider = (rule: DecisionRule): ((score: number) => 0 | 1) =>
  (DECISION_KINDS[rule.kind] as (r: DecisionRule) => (score: number) => 0 | 1)(rule);

/** The decision (0/1) for one score. */
export function decideOne(rule: DecisionRule, score: number): 0 | 1 {
  return decider(rule)(score);
}

/** The decision (0/1) per score. */
export function decide(rule: DecisionRule, scores: ArrayLike<number>): Uint8Array {
  const one = decider(rule);
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = one(scores[i]);
  return out;
}

/** The positive class when none is named: the second of exactly two label values in reading order, else none. */
export function defaultPositive(values: readonly string[]): string | undefined {
  return values.length === 2 ? values[1] : undefined;
}

/**
 * The one rule for the positive class (every command): the value given, which must occur in the label;
 * else, with exactly two values, the second in reading order.
 */
export function positiveOf(
  values: readonly string[],
  given: string | undefined,
  label: string,
  where = 'metrics',
): string {
  if (given === undefined) {
    const d = defaultPositive(values);
    check(
      d !== undefined,
      'E_ARG',
      () =>
        `${where}: the label "${label}" has ${values.length} values (${values.slice(0, 8).join(', ')}); name the ` +
        `positive one with --positive`,
    );
    return d!;
  }
  check(
    values.includes(given),
    'E_ARG',
    () =>
      `${where}: --positive "${given}" is not a value of the label "${label}"; its values are: ${values.join(', ')}`,
  );
  return given;
}

/** The label as 0/1 per row: 1 where the row's label is `positive`. */
export function binaryLabel(labels: ArrayLike<string>, positive: string): Uint8Array {
  const y = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) y[i] = labels[i] === positive ? 1 : 0;
  return y;
}

/** How each caller words the model-or-predictions rule: its flags or its option names. */
export interface ModelOrPredWords {
  /** neither was given */
  none: string;
  /** both were given */
  both: string;
}

/**
 * The model-or-predictions rule: exactly one of a model to call and a column of its predictions.
 * Returns which was given; an E_ARG error in the caller's words otherwise.
 */
export function modelOrPred(
  given: { model?: unknown; pred?: string | null },
  words: ModelOrPredWords,
): 'model' | 'pred' {
  const hasModel = given.model !== undefined && given.model !== null;
  const hasPred = given.pred !== undefined && given.pred !== null;
  check(hasModel || hasPred, 'E_ARG', () => words.none);
  check(!(hasModel && hasPred), 'E_ARG', () => words.both);
  return hasModel ? 'model' : 'pred';
}
