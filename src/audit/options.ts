// What an audit is asked (AuditOptions), its defaults, and the seeds it derives from its seed. Apart
// from run.ts so the stages (src/audit/stages/) read them without importing the orchestrator.
import { GAN_DEFAULTS } from '../models/lucidgan/config.js';
import type { Favourable } from '../methods/metrics/index.js';
import type { Direction, OutputKind } from '../methods/metrics/outputs.js';
import type { BandScale } from '../methods/metrics/targets.js';
import type { BlackBox } from '../models/blackbox.js';
import { drawSeed, type ConditionMode } from './canonical.js';
import type { Correction } from './correct.js';
import type { GanSchedule } from './schedule.js';
import type { AuditProvenance } from './types.js';
import type { GanHandover, GanStore } from './gan-reuse.js';
import type { GanWorkers } from './gan-workers.js';
import type { AuditEstimate } from './gan-probe.js';

export const AUDIT_VERSION = '0.2.0';

/** The seeds an audit derives from its seed, one per purpose; meta.seeds lists each one used. */
export const DERIVED_SEEDS = {
  /** the group metrics' generator (the calibration intervals of score predictions) */
  metrics: (seed: number) => seed + 11,
  /** FALE's bootstrap replicates */
  fale: (seed: number) => seed + 7,
  /** the checks of the canonical sets against the real rows (its own stream, not seed + j) */
  checks: (seed: number) => drawSeed(seed, 9_000_001, 0),
  /** the rows held out from the GANs' training for the fast schedule's stopping rule */
  holdout: (seed: number) => drawSeed(seed, 9_000_003, 0),
  /** the rows the stopping rule generates at each check (one stream per GAN seed) */
  stopping: (ganSeed: number) => drawSeed(ganSeed, 9_000_004, 0),
  /** the GANs' stratified sample of the rows when the data has more than ganRows rows (sample.ts) */
  ganSample: (seed: number) => drawSeed(seed, 9_000_005, 0),
  /** the real rows' separation of each feature: its bootstrap and permuted decisions (checks.ts realSeparation) */
  separation: (seed: number) => drawSeed(seed, 9_000_007, 0),
  /**
   * fidelity beyond marginals: pair trends' floors, detection's folds, the privacy check's halves (stages/beyond.ts)
   */
  beyond: (seed: number) => drawSeed(seed, 9_000_008, 0),
};

export const AUDIT_DEFAULTS = {
  /** rows per canonical set */
  n: 1000,
  /** LUCID-GANs an audit trains (different seeds); every canonical figure is given with its spread over them */
  ganSeeds: 3,
  /** the most rows per side and GAN seed of an intersection's sets (each side gets intersectionBudget's share) */
  intersectionRows: 500,
  /**
   * an intersection's sets per side: perRealRow × the cell's real rows on that side, pooled over the seeds, at least
   * minRows per seed (EXPERIMENTS.md §12.5)
   */
  intersectionBudget: { perRealRow: 4, minRows: 100 },
  /** quantile bins of a numeric protected attribute */
  protectedBins: 4,
  /** FALE bootstrap replicates (95% bands) */
  faleBootstrap: 30,
  /** LUCID-GAN training: the paper's (see AuditOptions.ganMode) */
  ganMode: 'paper' as 'paper' | 'consistency',
  /**
   * how long the GANs train (schedule.ts GAN_SCHEDULES; EXPERIMENTS.md §9, §12: plateau, the frontier's choice, failed
   * §12.3's check on §11's fidelity measures, §12.6)
   */
  ganSchedule: 'paper' as GanSchedule,
  /** GAN steps the automatic epoch count aims at (epochs = this / steps per epoch, within [minEpochs, maxEpochs]) */
  ganSteps: 1500,
  /**
   * … and on data of at most `fewRows` rows (EXPERIMENTS.md §7.2: at 1000–2000 rows, 2400 steps gave 18–39% better
   * fidelity than 1200)
   */
  ganStepsFewRows: 2400,
  fewRows: 2500,
  minEpochs: 10,
  maxEpochs: 600,
  /** a canonical set side scored on its own side less often than this gets a caveat */
  validityFloor: 0.8,
  /** how the generator is conditioned at sampling (EXPERIMENTS.md §7.2; matched since §11) */
  ganCondition: 'matched' as ConditionMode,
  /**
   * numeric values held by at least this share of a column's rows are point masses of the GANs' transformer
   * (EXPERIMENTS.md §7.3, §11; 0: none)
   */
  ganPointShare: 0.05,
  /** how the main sets are corrected after their rejection draw (correct.ts; EXPERIMENTS.md §11) */
  ganCorrect: 'linear' as Correction,
  /** fewer rows are refused (allowSmall overrides): a GAN, the checks and the verdicts need rows to work on */
  minRows: 100,
  /**
   * the GANs train on a stratified sample of this many rows when the data has more (sample.ts; AuditOptions.ganRows)
   */
  ganRows: 50_000,
};

/** A stage's time, estimated from how fast it has gone so far (seconds). */
export interface StageEta {
  /** seconds left, and the whole stage's estimated seconds */
  left: number;
  total: number;
  /** the estimate is a ceiling (a stopping rule may end training sooner) */
  ceiling: boolean;
  /** what is being timed, in words ("3 LUCID-GANs × 50 epochs") */
  what: string;
}

export interface AuditOptions {
  /** the true label column */
  label: string;
  /** the label value counted as positive (default: the second of exactly two values, sorted) */
  positive?: string;
  /** the protected columns (categorical, or numeric: then binned) */
  protected: string[];
  /**
   * whether the positive class is the outcome people want (default 'positive'; COMPAS' high risk: 'negative'); for a
   * score or a real value, which end people want (higher, the default, or lower)
   */
  favourable?: Favourable | Direction;
  /**
   * what the predictions are (`--output`): a model's declared kind, which this may confirm; a predictions column's,
   * inferred when absent (output-plan.ts). Score, multiclass and regression audits are their group metrics alone.
   */
  output?: OutputKind;
  /** multiclass: every class, most favourable first (`--class-order`) */
  classOrder?: string[];
  /** regression: differences inside [−d, d] in the output's units pass (`--tolerance-units`) */
  toleranceUnits?: number;
  /**
   * score and regression: the bands whose canonical sets are drawn (`--band lo-hi`, at most two; default the top and
   * the bottom deciles), read on `bandScale` (`--band-scale`, default quantile)
   */
  bands?: string[];
  bandScale?: BandScale;
  /** multiclass: the classes whose canonical sets are drawn (`--class`, at most two; default the class order's ends) */
  targetClasses?: string[];
  /**
   * protected column → the reference group of its comparisons (a bin label for a numeric one); default: the largest
   * group that is not small
   */
  reference?: Record<string, string>;
  /**
   * a score above this is the audited model's positive decision (default METRICS_DEFAULTS.threshold): the metrics, the
   * canonical sides, validity and FALE
   */
  threshold?: number;
  /** τ: ratios inside [τ, 1/τ] pass (default METRICS_DEFAULTS.tolerance) */
  tolerance?: number;
  /** groups with fewer rows are small: no verdict, never a default reference (default METRICS_DEFAULTS.minGroupSize) */
  minGroupSize?: number;
  /** 1 − the family-wise error rate of the report's flags (default METRICS_DEFAULTS.confidence) */
  confidence?: number;
  /** columns the user considers legitimate: the selection-rate disparity is also given within their strata */
  legitimate?: string[];
  /** run on fewer rows than AUDIT_DEFAULTS.minRows, or when every group is small (default false: an error) */
  allowSmall?: boolean;
  /** the model to audit: called on the data (and on the canonical sets for validity, FALE) */
  model?: BlackBox;
  /**
   * `--model-classes`: the model's classes as the data codes them (model class → label value, e.g.
   * { yes: '1', no: '0' }); the model's positive class, so mapped, must be the audit's (checkModelClasses)
   */
  modelClasses?: Record<string, string>;
  /**
   * `--allow-inverted-scores`: scores that rank the label worse than chance beyond noise are audited as given
   * (metrics/fit.ts)
   */
  allowInvertedScores?: boolean;
  /** without a callable model: the column holding the model's predictions (P(positive), 0/1, or labels) */
  pred?: string;
  /** where the data came from (shown in the report; default "data") */
  source?: string;
  /** GAN epochs (default: about ganStepsFor(rows) generator steps, see ganEpochsFor) */
  ganEpochs?: number;
  /** GAN batch (default GAN_DEFAULTS.batch, lowered for small data) */
  ganBatch?: number;
  /**
   * How LUCID-GAN is trained: 'paper' (the default: the published training) or 'consistency' (adds the
   * prediction-consistency term of `lucid gan fit`: valid sets, but on the bias simulator they collapse
   * so far that fair models get flagged; EXPERIMENTS.md §2)
   */
  ganMode?: 'paper' | 'consistency';
  /**
   * How long the GANs train: 'paper' (the published schedule: ganEpochs, or about ganStepsFor(rows)
   * steps, on every row) or 'fast' (that budget as a ceiling, stopped on the fidelity to real rows held
   * out from training; schedule.ts). Default AUDIT_DEFAULTS.ganSchedule.
   */
  ganSchedule?: GanSchedule;
  /**
   * At most this many rows to train each LUCID-GAN on (default AUDIT_DEFAULTS.ganRows): data with more
   * rows gives the GANs a stratified sample of exactly this many (the model's decision × the protected
   * attributes' groups, proportional allocation; sample.ts), drawn with its own seed
   * (DERIVED_SEEDS.ganSample). The fast schedule's held-out rows come out of the sample. Everything
   * else (metrics, the checks of the sets against the real rows, intersections, FALE) uses every row.
   */
  ganRows?: number;
  seed?: number;
  /** rows per canonical set (default 1000) */
  n?: number;
  /**
   * the most rows per side and GAN seed of an intersection's sets (default AUDIT_DEFAULTS.intersectionRows; 0: none);
   * the conditional sets have exactly this many
   */
  intersectionRows?: number;
  protectedBins?: number;
  protectedEdges?: Record<string, number[]>;
  /** FALE percentile levels (default FALE_DEFAULTS.bins) */
  faleBins?: number;
  faleBootstrap?: number;
  /** LUCID steps per sample (default LUCID_DEFAULTS.epochs) */
  lucidEpochs?: number;
  /**
   * the stage and how far it is; during the GANs' training also the time left (StageEta), once the first epoch has been
   * timed
   */
  onProgress?: (stage: string, fraction: number, eta?: StageEta) => void;
  /**
   * before the GANs train (not when they are reused): the audit's time, estimated from a probe of their steps
   * (estimate.ts)
   */
  onEstimate?: (e: AuditEstimate) => void;
  /** asked between GAN steps; true ends training early (the audit goes on with the model so far) */
  shouldStop?: () => boolean;
  /**
   * LUCID-GANs trained, one per seed (default AUDIT_DEFAULTS.ganSeeds); the figures of the sets are given with their
   * spread
   */
  ganSeeds?: number;
  /**
   * Draw the canonical sets by rejection (default true): keep only rows the model (or the surrogate of a
   * predictions column) scores on the conditioned side and that contradict no exact dependency of the
   * data. false: the published sampling, every row kept (the validity then says how many are off side).
   */
  rejection?: boolean;
  /**
   * how the generator is conditioned when the sets are drawn (canonical.ts ConditionMode; default
   * AUDIT_DEFAULTS.ganCondition)
   */
  ganCondition?: ConditionMode;
  /**
   * numeric values held by at least this share of the rows are point masses of the GAN's transformer (default
   * AUDIT_DEFAULTS.ganPointShare; 0: none)
   */
  ganPointShare?: number;
  /**
   * how the main canonical sets are corrected after their rejection draw (correct.ts Correction; default
   * AUDIT_DEFAULTS.ganCorrect)
   */
  ganCorrect?: Correction;
  /**
   * with ganCorrect 'classifier': candidates drawn per row of a main set (default CORRECTION_DEFAULTS.factor; at least
   * 2)
   */
  ganCandidates?: number;
  /**
   * `--suppress-below k`: groups and intersection cells with fewer than k rows show no rate, count of
   * positives, interval or real-row figure anywhere, and get no verdict (metrics/suppress.ts; default: none)
   */
  suppressBelow?: number;
  /** the input files' hashes and the command line, from the caller (meta.data, meta.model, meta.command) */
  provenance?: AuditProvenance;
  /**
   * A cache of trained generators (gan-reuse.ts): the set under the audit's key (its rows, the model's
   * scores, the GAN options, the version) is reused, and a set trained here is stored under it.
   * Default: none (the CLI gives its per-user folder; the browser none).
   */
  ganCache?: GanStore;
  /** a set of trained generators handed over (`--gan FILE`): used instead of training; it must carry the audit's key */
  ganSet?: GanHandover;
  /**
   * Workers that train GAN seeds side by side, one core each (gan-workers.ts; the Node layer gives them
   * on 2 or more threads). The generators are byte-identical to those trained one after another. Used
   * for schedules without a stopping check; default: none (one after another on the audit's engine).
   */
  ganWorkers?: GanWorkers;
}

/** The generator steps the automatic epoch count aims at for `rows` training rows. */
export function ganStepsFor(rows: number): number {
  return rows <= AUDIT_DEFAULTS.fewRows ? AUDIT_DEFAULTS.ganStepsFewRows : AUDIT_DEFAULTS.ganSteps;
}

/** GAN epochs for `rows` training rows: about ganStepsFor(rows) steps, within [minEpochs, maxEpochs]. */
export function ganEpochsFor(rows: number, batch: number = GAN_DEFAULTS.batch): number {
  const perEpoch = Math.max(1, Math.floor(rows / batch));
  const d = AUDIT_DEFAULTS;
  return Math.min(d.maxEpochs, Math.max(d.minEpochs, Math.round(ganStepsFor(rows) / perEpoch)));
}

/**
 * A GAN batch that suits the data: the default, or for small data the largest multiple of pac ≤ rows / 4 (at least
 * pac).
 */
export function ganBatchFor(rows: number): number {
  const pac = GAN_DEFAULTS.pac;
  if (rows >= 4 * GAN_DEFAULTS.batch) return GAN_DEFAULTS.batch;
  return Math.max(pac, Math.floor(rows / 4 / pac) * pac);
}
