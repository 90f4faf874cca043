// One entry point for the group metrics of every output kind: the kind from outputs.ts (given, or inferred with a
// stated reason), then binary → groupMetrics (unchanged), score → scoreMetrics, regression → regressionMetrics,
// multiclass → multiclassMetrics. Every report says which kind it audits and why. Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import { getColumn, type Table } from '../../data/table.js';
import { FAVOURABLE, type Favourable } from './definitions.js';
import { groupMetrics } from './group-metrics.js';
import { directionOf, outputKindOf, type OutputKind, type OutputKindChoice } from './outputs.js';
import { multiclassMetrics, type MulticlassReport } from './multiclass.js';
import { regressionMetrics, type RegressionReport } from './regression.js';
import { scoreMetrics, type ScoreReport } from './score.js';
import type { GroupMetricsOptions, MetricsReport, OutputGroupOptions, OutputInfo } from './types.js';

export interface OutputMetricsOptions
  extends OutputGroupOptions,
    Pick<GroupMetricsOptions, 'legitimate' | 'allowInvertedScores'> {
  /** the output kind (`--output`); inferred from the columns when absent */
  output?: OutputKind;
  /** binary and score: the positive label value */
  positive?: string;
  /** positive|negative (binary) or higher|lower (score, regression); each kind's default when absent */
  favourable?: string;
  /** multiclass: the classes, most favourable first (`--class-order`) */
  classOrder?: string[];
  /** binary: P(positive)'s cut in [0, 1]; score: any finite cut (default 0.5 for scores in [0, 1], else the median) */
  threshold?: number;
  /** regression: the band ±d in the output's units instead of the ratio band */
  toleranceUnits?: number;
  /** resamples: binary rates (default 0), score and regression distances (default 200) */
  bootstrap?: number;
  rng: Rng;
}

/** A report of one output kind, with the kind and why (`output`). */
export type OutputReport =
  | { kind: 'binary'; output: OutputInfo; report: MetricsReport }
  | { kind: 'score'; output: OutputInfo; report: ScoreReport }
  | { kind: 'regression'; output: OutputInfo; report: RegressionReport }
  | { kind: 'multiclass'; output: OutputInfo; report: MulticlassReport };

/**
 * The output kind of the options' columns. `--positive` without `--output` keeps today's binary reading of a label
 * with more than two values (the named class against the rest) where the inference would say multiclass or
 * regression, or finds no kind.
 */
export function outputChoice(table: Table, opts: Pick<OutputMetricsOptions, 'label' | 'pred' | 'output' | 'positive'>) {
  const label = getColumn(table, opts.label, 'metrics', '--label');
  const pred = getColumn(table, opts.pred, 'metrics', '--pred');
  const binaryByPositive = (why: string): OutputKindChoice => ({
    kind: 'binary',
    reason: `binary: --positive "${opts.positive}" names the positive class, the other label values negative (${why})`,
    labelValues: [],
  });
  if (opts.output === undefined && opts.positive !== undefined) {
    let inferred: OutputKindChoice;
    try {
      inferred = outputKindOf(label, pred);
    } catch (e) {
      if (e instanceof EngineError) return binaryByPositive('no other kind fits the columns');
      throw e;
    }
    if (inferred.kind === 'multiclass' || inferred.kind === 'regression')
      return binaryByPositive(`without it: ${inferred.reason}`);
    return inferred;
  }
  return outputKindOf(label, pred, opts.output);
}

/** The group metrics of the output kind the options' columns hold (see the file's head). */
export function outputMetrics(table: Table, opts: OutputMetricsOptions): OutputReport {
  const choice = outputChoice(table, opts);
  const common = {
    label: opts.label,
    pred: opts.pred,
    groups: opts.groups,
    intersect: opts.intersect,
    reference: opts.reference,
    privileged: opts.privileged,
    confidence: opts.confidence,
    tolerance: opts.tolerance,
    minGroupSize: opts.minGroupSize,
    suppressBelow: opts.suppressBelow,
    rng: opts.rng,
  };
  const notFor = (flag: string, what: unknown, kinds: string) =>
    check(what === undefined, 'E_ARG', () => `metrics: ${flag} is for ${kinds} outputs; this one is ${choice.reason}`);
  switch (choice.kind) {
    case 'binary': {
      notFor('--class-order', opts.classOrder, 'multiclass');
      notFor('--tolerance-units', opts.toleranceUnits, 'regression');
      const favourable = (opts.favourable ?? 'positive') as Favourable;
      check(
        FAVOURABLE.includes(favourable),
        'E_ARG',
        () =>
          `--favourable ${favourable} is for scores and real values; a binary decision takes --favourable positive ` +
          `or negative (whether the --positive class is the outcome people want)`,
      );
      const report = groupMetrics(table, {
        ...common,
        positive: opts.positive,
        favourable,
        threshold: opts.threshold,
        legitimate: opts.legitimate,
        bootstrap: opts.bootstrap ?? 0,
        allowInvertedScores: opts.allowInvertedScores,
      });
      return { kind: 'binary', output: { kind: 'binary', reason: choice.reason, favourable }, report };
    }
    case 'score': {
      notFor('--class-order', opts.classOrder, 'multiclass');
      notFor('--tolerance-units', opts.toleranceUnits, 'regression');
      const favourable = directionOf('score', opts.favourable);
      const output: OutputInfo = { kind: 'score', reason: choice.reason, favourable };
      const report = scoreMetrics(
        table,
        {
          ...common,
          positive: opts.positive,
          favourable,
          threshold: opts.threshold,
          legitimate: opts.legitimate,
          bootstrap: opts.bootstrap,
          allowInvertedScores: opts.allowInvertedScores,
        },
        output,
      );
      return { kind: 'score', output, report };
    }
    case 'regression': {
      notFor('--class-order', opts.classOrder, 'multiclass');
      notFor('--threshold', opts.threshold, 'binary and score');
      notFor('--positive', opts.positive, 'binary and score');
      notFor('--legitimate', opts.legitimate, 'binary and score');
      const favourable = directionOf('regression', opts.favourable);
      const output: OutputInfo = { kind: 'regression', reason: choice.reason, favourable };
      const report = regressionMetrics(
        table,
        { ...common, favourable, toleranceUnits: opts.toleranceUnits, bootstrap: opts.bootstrap },
        output,
      );
      return { kind: 'regression', output, report };
    }
    case 'multiclass': {
      notFor('--threshold', opts.threshold, 'binary and score');
      notFor('--positive', opts.positive, 'binary and score');
      notFor('--legitimate', opts.legitimate, 'binary and score');
      notFor('--tolerance-units', opts.toleranceUnits, 'regression');
      check(
        opts.favourable === undefined,
        'E_ARG',
        () =>
          `metrics: --favourable is for binary decisions, scores and real values; a multiclass output takes ` +
          `--class-order, most favourable class first`,
      );
      const { rng: _rng, ...rest } = common;
      const report = multiclassMetrics(table, { ...rest, classOrder: opts.classOrder ?? null });
      const output: OutputInfo = {
        kind: 'multiclass',
        reason: choice.reason,
        favourable: report.classOrder === null ? 'no class order' : report.classOrder.join(' > '),
      };
      return { kind: 'multiclass', output, report };
    }
  }
}
