// The result of `runAudit`: everything the report, the CSV/JSON files and the demo read.
// Plain data only (numbers, strings, arrays, Tables), so it serialises and crosses a worker boundary.
import type { RelationCheck } from '../data/relations.js';
import type { DcrResult, DetectionResult, PairTrendsResult } from '../methods/quality/beyond.js';
export type { RelationCheck };
import type { Table } from '../data/table.js';
import type { FaleResult, ProtectedCondition } from '../methods/fale/index.js';
import type { MetricsReport, OutputReport, OutputTarget } from '../methods/metrics/index.js';
import type { Attribution } from './attribution.js';
import type { Validity } from '../methods/quality/index.js';
import type { Distribution, FeatureFidelity, ShiftCheck } from './checks.js';
import type { ConditionMode } from './canonical.js';
import type { Correction } from './correct.js';
import type { GanReuse } from './gan-reuse.js';

export type { Distribution };
import type { DrawStats } from './canonical.js';
import type { AuditFindings } from './findings.js';
import type { GanSchedule } from './schedule.js';
import type { StopRecord } from '../models/lucidgan/model.js';
import type { BlackBoxKind } from '../models/adapters.js';

/** A stop request during an audit (AuditResult.meta.interrupted). */
export interface AuditInterruption {
  /** the stage running when the request was seen (e.g. "gan") */
  stage: string;
  /** the signal, when the CLI knows it ("SIGINT", "SIGTERM") */
  signal: string | null;
  gan: { seedsAsked: number; seedsTrained: number; epochsAsked: number; epochsDone: number[] };
  /** whether the GANs' training was cut short (false: the request came after training) */
  cutShort: boolean;
  /** one sentence for the first line of the report and of the summary */
  text: string;
}

/** How a protected attribute entered the audit. */
export interface ProtectedAttribute {
  /** the column in the data */
  column: string;
  /** the column the audit groups by: `column` itself (categorical), or `${column} (binned)` for a numeric one */
  groupColumn: string;
  kind: 'categorical' | 'numeric';
  /** numeric attributes only: the bins the groups are made of */
  bins?: {
    method: 'quantile' | 'explicit';
    /** k + 1 increasing edges; bin i is (edges[i], edges[i+1]], the first also includes edges[0] */
    edges: number[];
    /** one label per bin, e.g. "(25, 37]"; these are the group values everywhere else */
    labels: string[];
    /** data rows per bin */
    counts: number[];
  };
  /** whether the audited model reads this column (false: it is only seen through proxies) */
  inModel: boolean | null;
}

/** Canonical sets sampled from LUCID-GAN at prediction 1 and 0 (optionally with categories fixed). */
export interface CanonicalComparison {
  /** (column, value) pairs fixed in the conditional vector; empty for the main sets */
  fix: [string, string][];
  /** file stem the sets are written under, e.g. "canonical" or "intersection-sex=Female-race=Black" */
  name: string;
  positive: Table;
  negative: Table;
  /** features ranked by `js`, largest first */
  distributions: Distribution[];
  /** with fix: training rows holding every fixed value, their share, and whether that is rare */
  fixTraining?: { rows: number; share: number; rare: boolean };
  /** with fix: share of generated rows (both sets together) that hold every fixed value */
  fixSatisfied?: number;
  /**
   * how often the sets are scored on their own side: by the model when callable, else by the GAN's surrogate, else null
   */
  validity: Validity | null;
  /**
   * 'model', 'surrogate' (a classifier fitted to the predictions column; --pred) or null when nothing can score rows
   */
  validityScorer: 'model' | 'surrogate' | null;
  /**
   * per GAN seed: how its positive and negative rows were drawn (rejection sampling); the sets hold them in this order
   */
  draws?: { seed: number; positive: DrawStats; negative: DrawStats }[];
}

/** One cell grid for a pair of protected attributes. */
export interface IntersectionHeatmap {
  rowAttribute: string;
  colAttribute: string;
  rowValues: string[];
  colValues: string[];
  /** [r][c]: data rows in the cell */
  n: number[][];
  /**
   * [r][c]: the model's selection rate in the data, the share of the cell's rows given the favourable decision (null
   * for an empty cell)
   */
  selectionRate: (number | null)[][];
  /**
   * [r][c]: share of the favourable canonical set in the cell minus share of the unfavourable set (with --favourable
   * positive: positive − negative; null when not generated)
   */
  canonicalShift: (number | null)[][] | null;
  /**
   * [r][c]: the direction check of the cell's shift against the real rows (AuditResult.checks.cells), null for an empty
   * cell
   */
  shiftStatus?: (ShiftCheck['status'] | null)[][];
  /** cells with fewer than `minGroupSize` data rows */
  small: [number, number][];
  /**
   * --suppress-below k: cells with fewer than k data rows (1 ≤ n < k); their selection rate and real-row check are null
   */
  suppressed?: [number, number][];
}

/**
 * How the audit was asked for: by `lucid audit` (argv: the arguments after `lucid`, as given), by the
 * browser page (its options), or by a program calling runAudit (neither).
 */
export type AuditCommand =
  | { via: 'cli'; argv: string[] }
  | { via: 'browser page'; options: Record<string, string | number | boolean | null> }
  | { via: 'api' };

/** What the caller knows of the inputs' files: the audit itself sees only tables and a model. */
export interface AuditProvenance {
  /** SHA-256 of the data file's bytes as read (src/data/sha256.ts), and their number */
  dataSha256?: string;
  dataBytes?: number;
  /** SHA-256 of the model file's bytes (model.json, the JS module, the .onnx file) */
  modelSha256?: string;
  /** why there is no data or model hash (e.g. "generated sample data") */
  dataNote?: string;
  command?: AuditCommand;
}

/** One fixed protected category (A = a) of the paper's intersectional protocol; see AuditResult.conditional. */
export interface ConditionalComparison {
  /** [A, a]: the protected column and the value fixed in both sets */
  fixed: [string, string];
  /** rows of each of the two sets */
  rows: number;
  /** training rows holding A = a, their share, and whether that is rare */
  fixTraining?: { rows: number; share: number; rare: boolean };
  /** share of generated rows (both sets together) that hold A = a */
  fixSatisfied?: number;
  /** one per other categorical protected attribute B: positive vs negative set */
  distributions: Distribution[];
}

export interface LucidSection {
  ran: boolean;
  /** why LUCID did not run (e.g. "the model is a predictions column; LUCID needs a differentiable model") */
  reason?: string;
  /** the preferred class (towards a target of a score, a class or a real value: the target's label) */
  prefer?: string;
  n?: number;
  epochs?: number;
  /**
   * whether the descent was projected onto the data: numbers kept inside the audited rows' range, one-hot groups on the
   * simplex
   */
  projected?: boolean;
  /**
   * share of samples the model scores ≥ 0.5 for the preferred class after one-hot snapping (towards a target of a
   * score, a class or a real value: the share whose snapped output is in the target)
   */
  success?: number;
  /** LUCID's canonical set (decoded), with pred and pred_snapped */
  canonical?: Table;
  /** the uniform starting points, decoded the same way */
  start?: Table;
  /** per feature: series[0] canonical, series[1] start; ranked by js */
  distributions?: Distribution[];
  /** mean loss per epoch (towards a target: both phases, 2 × epochs, the second on the numbers, one-hot groups held) */
  loss?: number[];
}

export interface FaleSection {
  /** the protected attribute (its column) */
  attribute: string;
  /** the unprivileged group FALE compares against everyone else */
  unprivileged: ProtectedCondition[];
  /** how it was chosen, e.g. "lowest selection rate" */
  chosen: string;
  result: FaleResult;
}

/** One side's fidelity beyond single columns (src/audit/stages/beyond.ts), each figure with its noise floor. */
export interface BeyondSide {
  /** real rows the model scores on this side, and rows of the pooled set */
  realRows: number;
  generatedRows: number;
  pairTrends: PairTrendsResult;
  detection: DetectionResult;
  /**
   * distance to the closest training row: the generated rows' against real rows' held out of training,
   * or (`against: 'halves'`, every row trained the GANs) against one half of the side's rows from the
   * other; ratioP5 null when only the held-out rows' 5th percentile is 0
   */
  privacy: (Omit<DcrResult, 'ratioP5'> & { ratioP5: number | null; against: 'held out of training' | 'halves' }) | null;
}

/** The canonical sets' fidelity beyond single columns, per side (null: too few rows on it). */
export interface BeyondCheck {
  positive: BeyondSide | null;
  negative: BeyondSide | null;
}

export interface AuditResult {
  /**
   * lucid-wasm version, kernel variant, seed, settings, wall times per stage (ms); gan.rows = the GAN's training rows
   */
  meta: {
    tool: string;
    version: string;
    variant: string;
    created: string;
    seed: number;
    /**
     * sha256: of the data file's bytes as read (null when the caller gave none, e.g. a table built in memory; then
     * `note`)
     */
    data: {
      source: string;
      rows: number;
      columns: string[];
      sha256: string | null;
      bytes: number | null;
      note?: string;
    };
    label: string;
    positive: string;
    /** whether the positive class is the favourable outcome */
    favourable: 'positive' | 'negative';
    /** a score above this is the model's positive decision (--threshold) */
    threshold: number;
    /** sha256: of the model file's bytes (null for a predictions column, which has no model file: `note` says so) */
    model: {
      kind: BlackBoxKind;
      source: string;
      features: string[] | null;
      differentiable: boolean;
      sha256: string | null;
      note?: string;
    };
    /** epochs asked for; the GAN seeds, with the epochs each completed; whether the sets were drawn by rejection */
    gan: {
      epochs: number;
      mode: 'consistency' | 'paper';
      rows: number;
      seeds: number[];
      epochsDone: number[];
      rejection: boolean;
      /** the training schedule (schedule.ts), the real rows held out from training for its stopping rule, the batch */
      schedule: GanSchedule;
      heldOut: number;
      batch: number;
      /** per seed, where the stopping rule ended training and which check's weights it kept (null: no stopping rule) */
      stops: (StopRecord | null)[];
      /** AuditOptions.ganRows: the most rows a GAN trains on (more rows in the data: a stratified sample) */
      ganRows: number;
      /**
       * The stratified sample the GANs trained on (the fast schedule's held-out rows taken out of it), or
       * null when the data has at most ganRows rows (every row). strata: the stratifying columns
       * ("decision" and each protected attribute's group column); strataCount: the non-empty strata;
       * represented: how many of them have a row in the sample (all when rows ≥ strataCount).
       */
      sample: { rows: number; of: number; strata: string[]; strataCount: number; represented: number } | null;
      /**
       * how the sets were drawn: the condition mode, the transformer's point-mass share, the correction (absent in
       * older audits)
       */
      sampling?: { condition: ConditionMode; pointShare: number; correct: Correction; candidates?: number };
      /**
       * the generators were not trained by this audit but reused (gan-reuse.ts): from where, and the hashes of what
       * they were trained on; absent or null: trained here
       */
      reused?: GanReuse | null;
    };
    timings: Record<string, number>;
    /** how the audit was asked for: the command line (`lucid audit …`), the browser page's options, or a program */
    command: AuditCommand;
    /** every seed the audit used, by purpose: the audit seed and each one derived from it (run.ts) */
    seeds: Record<string, number>;
    /** --suppress-below k (null: nothing suppressed) */
    suppressBelow: number | null;
    /**
     * the audit was asked to stop (Ctrl-C, SIGTERM) and finished early: what was cut short (null: it ran to the end);
     * the report's and the summary's first line
     */
    interrupted: AuditInterruption | null;
  };
  protected: ProtectedAttribute[];
  /** group metrics per protected attribute (one report, one attribute each) and for their intersection */
  metrics: { attributes: MetricsReport; intersection: MetricsReport | null };
  /** per protected attribute: whether the model reads it and the features that carry its disparity (attribution.ts) */
  attribution: Attribution[];
  /** the main positive and negative canonical sets (nothing fixed), every GAN seed's rows pooled */
  canonical: CanonicalComparison;
  /**
   * The canonical sets checked against the real rows (src/audit/checks.ts): fidelity per feature and
   * side; the direction check of every protected value and of every value of the features the
   * findings rank highest; the same for each intersection cell of the heat maps.
   */
  checks: {
    seeds: number[];
    fidelity: FeatureFidelity[];
    shifts: ShiftCheck[];
    cells: ShiftCheck[];
    /** exact dependencies of the data (generated rows keep them: see `relations`) */
    dependencies: { from: string; to: string }[];
    /**
     * every exact dependency and near-exact arithmetic relation of the data, how the main canonical
     * sets keep it, and the rows that break it among the real rows and each pooled set; absent in
     * older audits, which did not check relations
     */
    relations?: RelationCheck[];
    /** pair trends, detection and privacy of the main sets per side, with noise floors; absent in older audits */
    beyond?: BeyondCheck;
    /** the observed range of every numeric column: generated values are clipped into it */
    ranges: Record<string, [number, number]>;
    /** --pred: the surrogate that scores generated rows, and its agreement with the column on held-out rows */
    surrogate?: { rate: number; rows: number };
  };
  /** what the report states about the canonical sets, decided from `checks` (src/audit/findings.ts) */
  findings: AuditFindings;
  /** protected columns the model does not read; their canonical distributions are the proxy view */
  proxy: { columns: string[]; distributions: Distribution[] };
  /** one per pair of protected attributes and each observed combination of their values */
  intersections: { pair: [string, string]; heatmap: IntersectionHeatmap; sets: CanonicalComparison[] }[];
  /**
   * LUCID-GAN's own intersectional protocol (paper §4, Fig. 4): for each categorical protected attribute
   * A and each observed value a, a positive and a negative canonical set (`intersectionRows` rows each)
   * sampled with A = a fixed in the conditional vector; `distributions` holds every OTHER categorical
   * protected attribute B in those two sets (series[0] positive, series[1] negative, `js` between them;
   * no real-data series). The conditional gap d_{B=v | A=a} = positive share − negative share is what
   * `conditionalGaps` (flags.ts) reads. Absent with intersectionRows = 0 or fewer than two categorical
   * protected attributes the GAN can fix.
   */
  conditional?: ConditionalComparison[];
  lucid: LucidSection;
  /** FALE per protected attribute (empty with a predictions column: FALE needs a callable model) */
  fale: FaleSection[];
  faleSkipped?: string;
  /** caveats stated next to the figures: validity, rare intersections, small groups */
  caveats: {
    topic: 'validity' | 'fidelity' | 'privacy' | 'rare-intersection' | 'power' | 'small-group' | 'model' | 'other';
    text: string;
  }[];
  warnings: string[];
  /** set by the demo: what was planted in the simulated data */
  planted?: { kind: string; rule: string; disadvantaged: Record<string, string>[]; reads: string[] }[];
}

/** The typed group metrics of a score, multiclass or regression output (outputMetrics' report, its kind and why). */
export type MetricsOnlyReport = Exclude<OutputReport, { kind: 'binary' }>;

/**
 * The result of an audit of a score, a class among k or a real value: its group metrics (outputMetrics, one Holm
 * family over the attributes), the canonical sets of two of its targets (`sides`), LUCID and FALE on the output, and
 * what was not run (`notRun`, one sentence with the reasons; empty when everything ran).
 */
export interface OutputAuditResult {
  /** the output's kind, the discriminant from AuditResult (which has none: binary) */
  kind: MetricsOnlyReport['kind'];
  meta: Omit<AuditResult['meta'], 'positive' | 'favourable' | 'threshold' | 'gan'> & {
    /** the kind, why, and its favourable direction or class order (the summary's and the report's first line) */
    output: { kind: MetricsOnlyReport['kind']; reason: string; favourable: string };
    /** score: the positive label value; null for multiclass and regression */
    positive: string | null;
  };
  protected: ProtectedAttribute[];
  /** the group metrics of the output's kind, per protected attribute */
  metrics: MetricsOnlyReport;
  /** what the audit did not run, with why, in one sentence (stages/output.ts notRunText); empty when all ran */
  notRun: string;
  /** the canonical sets of two targets of the output, or why they were not drawn */
  sides?: SidesSection | { skipped: string };
  /** LUCID towards the favoured target, through the model */
  lucid?: LucidSection;
  /** FALE per protected attribute on the output's measure (empty with a predictions column) */
  fale?: FaleSection[];
  faleSkipped?: string;
  caveats: AuditResult['caveats'];
  warnings: string[];
}

/**
 * The canonical sets of a score, class or value (stages/sides.ts): the two targets contrasted, how many audited rows
 * each holds, and the binary audit of side 1 (favoured) against side 0 on the rows in either — its canonical sets,
 * their checks, the proxy view and the intersections (its LUCID and FALE sections say they run on the output itself).
 */
export interface SidesSection {
  pair: { favoured: OutputTarget; other: OutputTarget; ordered: boolean; why: string };
  rows: { favoured: number; other: number; neither: number };
  /** the side view's prediction column: 1 in the favoured target, 0 in the other */
  sideColumn: string;
  audit: AuditResult;
}

/** Any audit's result: a binary one (AuditResult) or one of the other kinds (OutputAuditResult, with `kind`). */
export type AnyAuditResult = AuditResult | OutputAuditResult;

/** Whether `r` is an audit of a score, multiclass or regression output. */
export function isOutputAudit(r: AnyAuditResult): r is OutputAuditResult {
  return 'kind' in r && r.kind !== undefined;
}
