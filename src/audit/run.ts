// runAudit: one call from data and a model (or a predictions column) to everything the report
// shows — group metrics, LUCID-GAN canonical sets (main, proxy view, intersections), LUCID, FALE,
// distributions with Jensen–Shannon distances, validity and caveats. Core code: no Node imports,
// so it runs in a browser or a worker as well; src/node/audit.ts writes the files.
//
// The canonical sets come from several LUCID-GANs (one per GAN seed), drawn by rejection
// (src/audit/canonical.ts) and checked against the real rows (src/audit/checks.ts); what the report
// states about them is decided from those checks (src/audit/findings.ts).
//
// Every draw is seeded from opts.seed through the project's Rng: the same data, model and options
// give the same result (timings aside).
import type { Engine } from '../engine/engine.js';
import { check, EngineError } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import type { CategoricalColumn, Column, Table } from '../data/table.js';
import { concatRows, getColumn, selectRows } from '../data/table.js';
import { findDependencies } from '../data/dependencies.js';
import type { BlackBox } from '../models/blackbox.js';
import { LucidGan, GAN_DEFAULTS, type FitStatus } from '../models/lucidgan/model.js';
import { correctTogether, groupMetrics, METRICS_DEFAULTS, type Favourable, type MetricsReport } from '../methods/metrics/index.js';
import { carriersOf, codesOf, pathOf, type Attribution } from './attribution.js';
import { fale, FALE_DEFAULTS, type ProtectedCondition } from '../methods/fale/index.js';
import { invert, LUCID_DEFAULTS } from '../methods/lucid/index.js';
import { validity, type Validity } from '../methods/quality/index.js';
import { binValues, explicitBins, quantileBins } from './bins.js';
import { cellLabels, distribution, jsDistance, rankDistributions, sharesOn, type SeriesInput } from './distance.js';
import { CANONICAL_DEFAULTS, concatScores, drawCanonical, drawSeed, ganSeedsFor, modelScorer, observedRanges, surrogateScorer, surrogateSplitSeed, type CanonicalDraw, type ConditionMode, type Scorer } from './canonical.js';
import { binnedVariable, categoricalVariable, cellVariable, CHECK_DEFAULTS, correctShiftChecks, fidelity, numericVariable, shiftChecks, type CheckVariable, type FeatureFidelity } from './checks.js';
import { buildFindings, type AuditFindings } from './findings.js';
import { checkpointing, GAN_SCHEDULES, heldOutScorer, trainingRows, type GanSchedule } from './schedule.js';
import { stratifiedSample } from './sample.js';
import type { AuditProvenance, AuditResult, CanonicalComparison, ConditionalComparison, Distribution, FaleSection, IntersectionHeatmap, LucidSection, ProtectedAttribute } from './types.js';

export const AUDIT_VERSION = '0.1.0';

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
};

export const AUDIT_DEFAULTS = {
  /** rows per canonical set */
  n: 1000,
  /** rows per set of an intersection */
  intersectionRows: 500,
  /** quantile bins of a numeric protected attribute */
  protectedBins: 4,
  /** FALE bootstrap replicates (95% bands) */
  faleBootstrap: 30,
  /** LUCID-GAN training: the paper's (see AuditOptions.ganMode) */
  ganMode: 'paper' as 'paper' | 'consistency',
  /** how long the GANs train (schedule.ts GAN_SCHEDULES; EXPERIMENTS.md §9) */
  ganSchedule: 'paper' as GanSchedule,
  /** GAN steps the automatic epoch count aims at (epochs = this / steps per epoch, within [minEpochs, maxEpochs]) */
  ganSteps: 1500,
  /** … and on data of at most `fewRows` rows (EXPERIMENTS.md §7.2: at 1000–2000 rows, 2400 steps gave 18–39% better fidelity than 1200) */
  ganStepsFewRows: 2400,
  fewRows: 2500,
  minEpochs: 10,
  maxEpochs: 600,
  /** a canonical set side scored on its own side less often than this gets a caveat */
  validityFloor: 0.8,
  /** how the generator is conditioned at sampling (EXPERIMENTS.md §7.2) */
  ganCondition: 'observed' as ConditionMode,
  /** fewer rows are refused (allowSmall overrides): a GAN, the checks and the verdicts need rows to work on */
  minRows: 100,
  /** the GANs train on a stratified sample of this many rows when the data has more (sample.ts; AuditOptions.ganRows) */
  ganRows: 50_000,
};

export interface AuditOptions {
  /** the true label column */
  label: string;
  /** the label value counted as positive (default: the second of exactly two values, sorted) */
  positive?: string;
  /** the protected columns (categorical, or numeric: then binned) */
  protected: string[];
  /** whether the positive class is the outcome people want (default 'positive'; COMPAS' high risk: 'negative') */
  favourable?: Favourable;
  /** protected column → the reference group of its comparisons (a bin label for a numeric one); default: the largest group that is not small */
  reference?: Record<string, string>;
  /** a score above this is the audited model's positive decision (default METRICS_DEFAULTS.threshold): the metrics, the canonical sides, validity and FALE */
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
  intersectionRows?: number;
  protectedBins?: number;
  protectedEdges?: Record<string, number[]>;
  /** FALE percentile levels (default FALE_DEFAULTS.bins) */
  faleBins?: number;
  faleBootstrap?: number;
  /** LUCID steps per sample (default LUCID_DEFAULTS.epochs) */
  lucidEpochs?: number;
  onProgress?: (stage: string, fraction: number) => void;
  /** asked between GAN steps; true ends training early (the audit goes on with the model so far) */
  shouldStop?: () => boolean;
  /** LUCID-GANs trained, one per seed (default CANONICAL_DEFAULTS.ganSeeds); the figures of the sets are given with their spread */
  ganSeeds?: number;
  /**
   * Draw the canonical sets by rejection (default true): keep only rows the model (or the surrogate of a
   * predictions column) scores on the conditioned side and that contradict no exact dependency of the
   * data. false: the published sampling, every row kept (the validity then says how many are off side).
   */
  rejection?: boolean;
  /** how the generator is conditioned when the sets are drawn (canonical.ts ConditionMode; default AUDIT_DEFAULTS.ganCondition) */
  ganCondition?: ConditionMode;
  /** numeric values held by at least this share of the rows are point masses of the GAN's transformer (default TRANSFORMER_DEFAULTS.pointShare; 0: none) */
  ganPointShare?: number;
  /**
   * `--suppress-below k`: groups and intersection cells with fewer than k rows show no rate, count of
   * positives, interval or real-row figure anywhere, and get no verdict (metrics/suppress.ts; default: none)
   */
  suppressBelow?: number;
  /** the input files' hashes and the command line, from the caller (meta.data, meta.model, meta.command) */
  provenance?: AuditProvenance;
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

/** A GAN batch that suits the data: the default, or for small data the largest multiple of pac ≤ rows / 4 (at least pac). */
export function ganBatchFor(rows: number): number {
  const pac = GAN_DEFAULTS.pac;
  if (rows >= 4 * GAN_DEFAULTS.batch) return GAN_DEFAULTS.batch;
  return Math.max(pac, Math.floor(rows / 4 / pac) * pac);
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function freeName(table: Table, base: string): string {
  const names = new Set(table.columns.map((c) => c.name));
  if (!names.has(base)) return base;
  for (let i = 1; ; i++) if (!names.has(`${base}_${i}`)) return `${base}_${i}`;
}

function categorical(name: string, codes: Int32Array, categories: string[]): CategoricalColumn {
  return { kind: 'categorical', name, codes, categories };
}

/** The column `name`, or the one unknown-column error (exit 2) naming it and listing those that exist. */
function requireColumn(table: Table, name: string, what: string): Column {
  return getColumn(table, name, 'audit', what);
}

interface GroupView {
  attr: ProtectedAttribute;
  /** group label of each data row */
  dataLabels: string[];
  /** group labels of generated rows (numeric attributes binned with the same edges, clamped) */
  labelsOf(t: Table): string[];
  /** the group values, in order */
  values: string[];
}

function groupViews(table: Table, opts: AuditOptions, inModel: (c: string) => boolean | null): { views: GroupView[]; extra: Column[]; warnings: string[] } {
  const views: GroupView[] = [];
  const extra: Column[] = [];
  const warnings: string[] = [];
  for (const name of opts.protected) {
    const col = requireColumn(table, name, 'protected column');
    check(!(col.kind === 'categorical' && opts.protectedEdges?.[name]), 'E_ARG', () => `audit: edges given for "${name}", which is categorical; edges apply to numeric protected columns`);
    if (col.kind === 'categorical') {
      const present = new Set(col.codes);
      views.push({
        attr: { column: name, groupColumn: name, kind: 'categorical', inModel: inModel(name) },
        dataLabels: cellLabels(col),
        values: col.categories.filter((_, k) => present.has(k)).sort(),
        labelsOf: (t) => {
          const g = t.columns.find((c) => c.name === name);
          return g ? cellLabels(g) : new Array<string>(t.rows).fill('');
        },
      });
      continue;
    }
    const given = opts.protectedEdges?.[name];
    const bins = given ? explicitBins(given, `protected edges of "${name}"`) : quantileBins(col.values, opts.protectedBins ?? AUDIT_DEFAULTS.protectedBins);
    const { codes, counts, outside } = binValues(col.values, bins.edges);
    check(outside === 0, 'E_ARG', () => `audit: ${outside} values of "${name}" lie outside the edges [${bins.edges[0]}, ${bins.edges[bins.edges.length - 1]}]; widen the edges`);
    const groupColumn = freeName({ rows: table.rows, columns: [...table.columns, ...extra] }, `${name} (binned)`);
    extra.push(categorical(groupColumn, codes, bins.labels.slice()));
    const empty = bins.labels.filter((_, i) => counts[i] === 0);
    if (empty.length) warnings.push(`${name}: no data rows in bin(s) ${empty.join(', ')}`);
    const edges = bins.edges;
    views.push({
      attr: { column: name, groupColumn, kind: 'numeric', bins: { method: bins.method, edges: edges.slice(), labels: bins.labels.slice(), counts }, inModel: inModel(name) },
      dataLabels: Array.from(codes, (k) => bins.labels[k]),
      values: bins.labels.filter((_, i) => counts[i] > 0),
      labelsOf: (t) => {
        const g = t.columns.find((c) => c.name === name);
        if (!g) return new Array<string>(t.rows).fill('');
        const v = g.kind === 'numeric' ? g.values : Float64Array.from(cellLabels(g), Number);
        return Array.from(binValues(v, edges, true).codes, (k) => (k < 0 ? '' : bins.labels[k]));
      },
    });
  }
  return { views, extra, warnings };
}

/** What the metrics stage hands to the rest of the audit. */
export interface MetricsStage {
  predName: string;
  predCol: Column;
  features: string[] | null;
  views: GroupView[];
  extra: Column[];
  /** the data with the predictions and the binned protected columns */
  mtable: Table;
  groupCols: string[];
  attributes: MetricsReport;
  intersection: MetricsReport | null;
  positive: string;
  favourable: Favourable;
  minGroupSize: number;
  /** P(positive) per row */
  pScore: Float64Array;
  /** the decision per row: P(positive) above `threshold` */
  yhat: Uint8Array;
  threshold: number;
  attribution: Attribution[];
}

/**
 * Stages 1 and 2 of an audit: the predictions, the groups, the group metrics with their verdicts (one
 * Holm family over the attributes and the intersection) and the attribution of each attribute's
 * disparity. Exported so the flag calibration (experiments/flag-calibration.mjs) runs exactly the code
 * whose verdicts the report shows, without the GAN.
 */
export async function metricsStage(engine: Engine, table: Table, opts: AuditOptions, model: BlackBox | undefined, predGiven: string | undefined, warnings: string[], caveats: AuditResult['caveats'], lap: (stage: string) => void = () => {}): Promise<MetricsStage> {
  const seed = opts.seed ?? 0;
  const threshold = opts.threshold ?? METRICS_DEFAULTS.threshold;
  check(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1, 'E_ARG', () => `audit: threshold must be in [0, 1], got ${threshold}`);
  // ── 1. predictions ──────────────────────────────────────────────────────────────────────────
  const predName = predGiven ?? freeName(table, 'preds');
  let predCol: Column;
  if (model) {
    predCol = { kind: 'numeric', name: predName, values: await model.predict(table) };
  } else predCol = requireColumn(table, predName, 'predictions column');
  const features = model?.features ? [...model.features] : null;
  const inModel = (c: string): boolean | null => (features ? features.includes(c) : null);
  lap('score');

  // ── 2. groups and metrics ───────────────────────────────────────────────────────────────────
  const { views, extra, warnings: binWarnings } = groupViews(table, opts, inModel);
  warnings.push(...binWarnings);
  const base = model ? [...table.columns, predCol] : table.columns.slice();
  const mtable: Table = { rows: table.rows, columns: [...base, ...extra] };
  const groupCols = views.map((v) => v.attr.groupColumn);
  // a bad label or predictions column is found here: name the data it came from
  const inData = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof EngineError && e.code === 'E_INPUT') throw new EngineError('E_INPUT', `${opts.source ?? 'data'}: ${e.message}`);
      throw e;
    }
  };
  // a model's output is P(positive) even when it is exactly 0 and 1; a given column may hold labels
  const predAs = model ? ('scores' as const) : ('auto' as const);
  for (const c of Object.keys(opts.reference ?? {})) check(opts.protected.includes(c), 'E_ARG', () => `audit: the reference names "${c}", which is not among the protected columns (${opts.protected.join(', ')})`);
  for (const c of opts.legitimate ?? []) {
    requireColumn(table, c, 'legitimate column');
    check(!opts.protected.includes(c) && c !== opts.label && c !== predGiven, 'E_ARG', () => `audit: the legitimate column "${c}" is a protected, label or predictions column`);
  }
  // keyed by the metrics' group column (a numeric attribute's binned column)
  const reference: Record<string, string> = {};
  for (const v of views) if (opts.reference?.[v.attr.column] !== undefined) reference[v.attr.groupColumn] = opts.reference[v.attr.column];
  const mopts = { label: opts.label, positive: opts.positive, favourable: opts.favourable, pred: predName, predAs, threshold, groups: groupCols, reference, tolerance: opts.tolerance, minGroupSize: opts.minGroupSize, confidence: opts.confidence, legitimate: opts.legitimate, suppressBelow: opts.suppressBelow, rng: new Rng(engine, DERIVED_SEEDS.metrics(seed)) };
  const attributes = inData(() => groupMetrics(mtable, mopts));
  const intersection: MetricsReport | null = groupCols.length >= 2 ? inData(() => groupMetrics(mtable, { ...mopts, intersect: true, reference: Object.keys(reference).length === groupCols.length ? reference : undefined })) : null;
  // one family: every attribute, group, metric and the intersection (verdicts.ts)
  correctTogether(intersection ? [attributes, intersection] : [attributes]);
  const positive = attributes.positive;
  const favourable = attributes.favourable;
  const minGroupSize = attributes.minGroupSize;
  for (const r of [attributes, intersection]) {
    if (!r) continue;
    for (const a of r.attributes) {
      const small = a.groups.filter((g) => g.small);
      if (small.length) caveats.push({ topic: 'small-group', text: `${a.column}: ${small.length === 1 ? `${small[0].value} has` : `${small.length} groups have`} fewer than ${minGroupSize} rows (${small.slice(0, 5).map((g) => `${g.value}: ${g.n}`).join(', ')}${small.length > 5 ? ', …' : ''}); small groups get no verdict` });
    }
  }
  // P(positive) per row as a number in [0, 1], the GAN's condition: the scores, or, where the metrics read
  // the column as predicted labels (0/1 included, whichever of them is positive), 1 for the positive label
  const pScore: Float64Array = attributes.predKind === 'scores' && predCol.kind === 'numeric' ? predCol.values : Float64Array.from(cellLabels(predCol), (l) => (l === positive ? 1 : 0));
  const yhat = Uint8Array.from(pScore, (v) => (v > threshold ? 1 : 0));

  // why an attribute's groups differ: the features carrying it, and whether the model reads it (attribution.ts)
  const attribution: Attribution[] = [];
  {
    const protectedSet = new Set(opts.protected);
    const carriersFrom = table.columns.filter((c) => !(c.kind === 'categorical' && c.identifier)).map((c) => c.name).filter((c) => c !== opts.label && c !== predName && !protectedSet.has(c));
    for (const v of views) {
      const gcol = mtable.columns.find((c) => c.name === v.attr.groupColumn)!;
      const readByModel = v.attr.inModel;
      const ref = attributes.attributes.find((a) => a.column === v.attr.groupColumn)?.reference.value;
      let flipShare: number | null = null;
      const col = table.columns.find((c) => c.name === v.attr.column);
      if (model && readByModel === true && col?.kind === 'categorical' && ref !== undefined) {
        const k = col.categories.indexOf(ref);
        if (k >= 0) {
          const flipped: Table = { rows: table.rows, columns: table.columns.map((c) => (c === col ? { ...col, codes: new Int32Array(table.rows).fill(k) } : c)) };
          const p = await model.predict(flipped);
          let changed = 0;
          for (let i = 0; i < table.rows; i++) if ((p[i] > threshold ? 1 : 0) !== yhat[i]) changed++;
          flipShare = changed / table.rows;
        }
      }
      attribution.push({ attribute: v.attr.column, groupColumn: v.attr.groupColumn, readByModel, flipShare, carriers: carriersOf(table, codesOf(gcol, 10), yhat, carriersFrom), path: pathOf(readByModel, flipShare) });
    }
  }

  return { predName, predCol, features, views, extra, mtable, groupCols, attributes, intersection, positive, favourable, minGroupSize, pScore, yhat, threshold, attribution };
}

/**
 * Audits a model (or a column of its predictions) on `table`. See AuditResult (types.ts) for what
 * comes back; the steps: score the data, group metrics, LUCID-GAN conditioned on the predictions,
 * the positive/negative canonical sets, the proxy view, intersections, LUCID, FALE, caveats.
 */
export async function runAudit(engine: Engine, table: Table, opts: AuditOptions): Promise<AuditResult> {
  const tStart = now();
  const timings: Record<string, number> = {};
  let tStage = tStart;
  const lap = (stage: string) => {
    const t = now();
    timings[stage] = Math.round(t - tStage);
    tStage = t;
  };
  const progress = (stage: string, f: number) => opts.onProgress?.(stage, Math.min(1, Math.max(0, f)));
  const seed = opts.seed ?? 0;
  check(Number.isSafeInteger(seed) && seed >= 0, 'E_ARG', () => `audit: seed must be a non-negative integer, got ${seed}`);
  const n = opts.n ?? AUDIT_DEFAULTS.n;
  const nInter = opts.intersectionRows ?? AUDIT_DEFAULTS.intersectionRows;
  check(Number.isSafeInteger(n) && n > 0, 'E_ARG', () => `audit: n must be a positive integer, got ${n}`);
  check(Number.isSafeInteger(nInter) && nInter >= 0, 'E_ARG', () => `audit: intersectionRows must be a non-negative integer, got ${nInter}`);
  const ganRowsMax = opts.ganRows ?? AUDIT_DEFAULTS.ganRows;
  check(Number.isSafeInteger(ganRowsMax) && ganRowsMax > 0, 'E_ARG', () => `audit: ganRows must be a positive integer, got ${ganRowsMax}`);
  check(table.rows > 0, 'E_INPUT', () => 'audit: the data has no rows');
  check(opts.protected.length > 0, 'E_ARG', () => 'audit: name at least one protected column');
  check(new Set(opts.protected).size === opts.protected.length, 'E_ARG', () => `audit: a protected column is named twice (${opts.protected.join(', ')})`);

  const model = opts.model && opts.model.kind !== 'column' ? opts.model : undefined;
  const predGiven = opts.pred ?? undefined;
  check(model !== undefined || predGiven !== undefined, 'E_ARG', () => 'audit: give a model to call or the name of a predictions column (pred)');
  check(!(model && predGiven !== undefined), 'E_ARG', () => 'audit: give either a model or a predictions column, not both');
  requireColumn(table, opts.label, 'label');
  for (const p of opts.protected) {
    requireColumn(table, p, 'protected column');
    check(p !== opts.label && p !== predGiven, 'E_ARG', () => `audit: "${p}" is the label or the predictions column; name protected columns`);
  }
  if (predGiven !== undefined) requireColumn(table, predGiven, 'predictions column');
  for (const c of Object.keys(opts.protectedEdges ?? {})) {
    check(opts.protected.includes(c), 'E_ARG', () => `audit: protected edges name "${c}", which is not among the protected columns (${opts.protected.join(', ')})`);
  }
  const warnings: string[] = [];
  const caveats: AuditResult['caveats'] = [];

  const minRows = AUDIT_DEFAULTS.minRows;
  check(opts.allowSmall || table.rows >= minRows, 'E_INPUT', () => `audit: the data has ${table.rows} rows; an audit needs at least ${minRows} (a GAN, the checks and the verdicts cannot work on fewer); --allow-small runs it anyway, every small group marked`);
  progress('score', 0);
  const ms = await metricsStage(engine, table, opts, model, predGiven, warnings, caveats, lap);
  const { predName, predCol, features, views, extra, mtable, attributes, intersection, positive, favourable, minGroupSize, pScore, yhat, threshold, attribution } = ms;
  lap('metrics');
  // --suppress-below: the protected values and the heat-map cells with fewer than k people; no figure
  // from their real rows is shown (metrics/suppress.ts strips the metrics themselves)
  const k = attributes.suppressBelow ?? 0;
  const suppressedValues = new Map<string, Set<string>>();
  for (const v of views) {
    const a = attributes.attributes.find((x) => x.column === v.attr.groupColumn);
    const s = new Set((a?.groups ?? []).filter((g) => g.suppressed).map((g) => g.value));
    if (s.size) suppressedValues.set(v.attr.column, s);
  }
  /** "A × B" → the "a & b" cells with 1 ≤ n < k */
  const suppressedCells = new Map<string, Set<string>>();
  if (k > 0) {
    for (let i = 0; i < views.length; i++) {
      for (let j = i + 1; j < views.length; j++) {
        const count = new Map<string, number>();
        for (let r = 0; r < table.rows; r++) {
          const key = `${views[i].dataLabels[r]} & ${views[j].dataLabels[r]}`;
          count.set(key, (count.get(key) ?? 0) + 1);
        }
        suppressedCells.set(`${views[i].attr.column} × ${views[j].attr.column}`, new Set([...count].filter(([, c]) => c < k).map(([key]) => key)));
      }
    }
  }
  // every seed used, by purpose, in the order used (meta.seeds)
  const seedLog: Record<string, number> = { audit: seed };
  if (attributes.predKind === 'scores') seedLog['group metrics (calibration intervals)'] = DERIVED_SEEDS.metrics(seed);
  // degenerate inputs get an error, not a report that looks complete (docs/models.md "Refused audits")
  let decidedPositive = 0;
  for (let i = 0; i < yhat.length; i++) decidedPositive += yhat[i];
  check(decidedPositive > 0 && decidedPositive < yhat.length, 'E_INPUT', () => `audit: the model decides all ${yhat.length} rows ${decidedPositive > 0 ? 'positive' : 'negative'}: there is no ${decidedPositive > 0 ? 'negative' : 'positive'} canonical set to draw and no decision to compare between groups (a constant model, or a threshold that every score is on one side of)`);
  for (const a of attributes.attributes) {
    check(opts.allowSmall || a.groups.some((g) => !g.small), 'E_INPUT', () => `audit: every group of ${a.column} has fewer than ${minGroupSize} rows (${a.groups.slice(0, 4).map((g) => `${g.value}: ${g.n}`).join(', ')}${a.groups.length > 4 ? ', …' : ''}): no comparison can get a verdict; give fewer bins, --min-group, or --allow-small`);
  }

  // ── 3. LUCID-GAN: one per GAN seed ──────────────────────────────────────────────────────────
  // identifier-like columns (the reader marks them) carry no pattern a GAN can learn: left out, as the reader warned
  const ganColumns: Column[] = table.columns.filter((c) => c.name !== opts.label && c.name !== predName && !(c.kind === 'categorical' && c.identifier));
  const ganFeatureTable: Table = { rows: table.rows, columns: ganColumns.slice() };
  const allGanRows: Table = { rows: table.rows, columns: [...ganColumns, { kind: 'numeric', name: predName, values: pScore }] };
  // the fast schedule holds real rows out of the GANs' training to stop on (schedule.ts)
  const schedule = opts.ganSchedule ?? AUDIT_DEFAULTS.ganSchedule;
  check(schedule in GAN_SCHEDULES, 'E_ARG', () => `audit: ganSchedule must be one of ${Object.keys(GAN_SCHEDULES).join(', ')}, got ${String(schedule)}`);
  const scheduleDef = GAN_SCHEDULES[schedule];
  // more rows than ganRows: the GANs get a stratified sample (decision × protected groups; sample.ts)
  const strataNames = ['decision', ...views.map((v) => v.attr.groupColumn)];
  let sample: { rows: Int32Array; represented: number; nonEmpty: number } | null = null;
  if (table.rows > ganRowsMax) {
    const { codes, strata } = strataOf(yhat, views);
    const s = stratifiedSample(engine, codes, strata, ganRowsMax, DERIVED_SEEDS.ganSample(seed));
    seedLog['the GANs\' stratified sample of the rows'] = DERIVED_SEEDS.ganSample(seed);
    const represented = s.taken.filter((x) => x > 0).length;
    sample = { rows: s.rows, represented, nonEmpty: strata };
    if (represented < strata) warnings.push(`the GANs' sample of ${ganRowsMax} rows cannot hold a row of each of the ${strata} non-empty strata (${strataNames.join(' × ')}): ${strata - represented} have none; give a larger --gan-rows`);
  }
  /** the rows the GANs see (the sample, or every row), as indices into the table; schedule.ts works inside them */
  const ganData: Int32Array | null = sample ? sample.rows : null;
  const train = trainingRows(engine, ganData ? Uint8Array.from(ganData, (i) => yhat[i]) : yhat, scheduleDef, DERIVED_SEEDS.holdout(seed));
  const toTable = (rows: Int32Array): Int32Array => (ganData ? Int32Array.from(rows, (i) => ganData[i]) : rows);
  const held = train.held ? toTable(train.held) : null;
  if (held) seedLog['rows held out from the GANs\' training (the stopping rule)'] = DERIVED_SEEDS.holdout(seed);
  /** the GANs' training rows: indices into the table */
  const ganRows: Int32Array = toTable(train.rows);
  const ganTable: Table = held || ganData ? selectRows(allGanRows, ganRows) : allGanRows;
  const batch = opts.ganBatch ?? ganBatchFor(ganTable.rows);
  const epochs = opts.ganEpochs ?? ganEpochsFor(ganTable.rows, batch);
  const ganSeeds = ganSeedsFor(seed, opts.ganSeeds ?? CANONICAL_DEFAULTS.ganSeeds);
  const rejection = opts.rejection ?? true;
  // what scores generated rows: the model, or for a predictions column a surrogate fitted to it
  let scorer: Scorer | null = null;
  if (model) scorer = modelScorer(model, threshold);
  else {
    progress('surrogate', 0);
    scorer = surrogateScorer(engine, table, ganColumns.map((c) => c.name), yhat, seed);
    if (scorer) {
      seedLog['surrogate of the predictions (hold-out split)'] = surrogateSplitSeed(seed);
      seedLog['surrogate of the predictions (training)'] = seed;
    }
    if (!scorer) caveats.push({ topic: 'validity', text: 'the predictions are all one class (or there are fewer than 20 rows): no surrogate of them could be fitted, so nothing scores the generated rows and their validity is unknown' });
    lap('surrogate');
  }
  const range = observedRanges(ganFeatureTable);
  // the GANs' training rows on each side (indices into ganTable): the observed condition's pools
  const [negRows, posRows] = train.side;
  const heldTable = held ? selectRows(table, held) : null;
  const heldYhat = held ? Uint8Array.from(held, (i) => yhat[i]) : null;
  const gans: LucidGan[] = [];
  try {
    progress('gan', 0);
    for (let k = 0; k < ganSeeds.length; k++) {
      const score = heldTable ? heldOutScorer({ features: ganColumns.map((c) => ({ name: c.name, kind: c.kind })), held: heldTable, heldYhat: heldYhat!, trainSide: [negRows, posRows], range, seed: DERIVED_SEEDS.stopping(ganSeeds[k]) }) : null;
      const cp = checkpointing(scheduleDef, score);
      if (cp) seedLog[`LUCID-GAN ${k + 1} of ${ganSeeds.length} (stopping rule's rows)`] = DERIVED_SEEDS.stopping(ganSeeds[k]);
      const fit = await LucidGan.fit(engine, ganTable, {
        ...(cp ? { checkpoint: cp } : {}),
        ...(scheduleDef.dims ? { generatorDims: scheduleDef.dims, discriminatorDims: scheduleDef.dims } : {}),
        conditions: [predName],
        epochs,
        batch,
        seed: ganSeeds[k],
        paper: (opts.ganMode ?? AUDIT_DEFAULTS.ganMode) === 'paper',
        where: opts.source ?? 'data',
        onEpoch: (e) => progress('gan', (k + e.epoch / Math.max(1, epochs)) / ganSeeds.length),
        shouldStop: opts.shouldStop,
        ...(opts.ganPointShare !== undefined ? { pointShare: opts.ganPointShare } : {}),
      });
      gans.push(fit.model);
      seedLog[`LUCID-GAN ${k + 1} of ${ganSeeds.length} (training)`] = ganSeeds[k];
      const which = ganSeeds.length > 1 ? ` (GAN seed ${ganSeeds[k]})` : '';
      const status: FitStatus = fit.status;
      if (status === 'diverged') warnings.push(`LUCID-GAN training${which} diverged (${fit.message ?? 'a non-finite loss'}); its sets come from the last good epoch`);
      if (status === 'interrupted') {
        warnings.push(`LUCID-GAN training${which} stopped early after ${fit.model.epochsDone} of ${epochs} epochs; the canonical sets come from ${k + 1} of ${ganSeeds.length} GAN seeds, the last one trained that far`);
        break;
      }
    }
    const seeds = ganSeeds.slice(0, gans.length);
    lap('gan');

    // ── 4. the main canonical sets: every seed's, by rejection, pooled ─────────────────────────
    progress('canonical', 0);
    const dependencies = findDependencies(ganFeatureTable);
    const condition = opts.ganCondition ?? AUDIT_DEFAULTS.ganCondition;
    if (condition !== 'extreme') {
      for (const [rows, side] of [[posRows, 'positive'], [negRows, 'negative']] as const) {
        if (rows.length === 0) warnings.push(`the model scores no row ${side}: the ${side} canonical set is conditioned as in the paper (prediction exactly ${side === 'positive' ? 1 : 0}), and nothing about it can be checked against real rows`);
      }
    }
    /** one side's draw from GAN k; every round's sampling seed is logged under `what` */
    const draw = (k: number, side: 0 | 1, fix: [string, string][], rows: number, purpose: number, what: string): Promise<CanonicalDraw> =>
      drawCanonical(gans[k], {
        side, condition, sideRows: side === 1 ? posRows : negRows, predName, fix, rows,
        seedOf: (round) => {
          const s = drawSeed(seeds[k], purpose, round);
          seedLog[`${what}, ${side === 1 ? 'positive' : 'negative'} set, GAN ${k + 1}, draw round ${round + 1}`] = s;
          return s;
        },
        scorer: rejection ? scorer : null, threshold: scorer?.threshold ?? threshold, range, dependencies,
      });
    /** both sides for every seed; their scores by the scorer (the filter's, or scored now without rejection) */
    const drawPair = async (fix: [string, string][], rows: number, purpose: number, what: string) => {
      const perSeed: { positive: CanonicalDraw; negative: CanonicalDraw }[] = [];
      for (let k = 0; k < gans.length; k++) perSeed.push({ positive: await draw(k, 1, fix, rows, purpose, what), negative: await draw(k, 0, fix, rows, purpose + 1, what) });
      const positive = concatRows(perSeed.map((d) => d.positive.table), 'canonical set');
      const negative = concatRows(perSeed.map((d) => d.negative.table), 'canonical set');
      let v: Validity | null = null;
      if (scorer) {
        const sp = rejection ? concatScores(perSeed.map((d) => d.positive.scores!)) : await scorer.score(positive);
        const sn = rejection ? concatScores(perSeed.map((d) => d.negative.scores!)) : await scorer.score(negative);
        const scores = new Float64Array(sp.length + sn.length);
        scores.set(sp);
        scores.set(sn, sp.length);
        const cond = new Float64Array(scores.length);
        cond.fill(1, 0, sp.length);
        v = validity(scores, cond, { model: scorer.kind === 'model' ? scorer.source : 'the surrogate of the predictions column', column: predName, source: 'given' }, scorer.threshold);
      }
      return { perSeed, positive, negative, validity: v };
    };
    const roleOf = (c: string): Distribution['role'] => {
      const v = views.find((x) => x.attr.column === c);
      if (!v) return 'feature';
      return v.attr.inModel === false ? 'proxy' : 'protected';
    };
    const onSide = (rows: ArrayLike<number>, side: number) => Array.from(rows).filter((i) => yhat[i] === side);
    const allRows = Array.from({ length: table.rows }, (_, i) => i);
    /**
     * pooled sets against the real rows on each side; per-seed JS on the same bins. No real series for a
     * suppressed cell's sets (withReal false), nor for a protected attribute with a suppressed value
     * (its shares among the real rows on a side would give that group's count back)
     */
    const compare = (pos: Table, neg: Table, realRows: number[], perSeed: { positive: CanonicalDraw; negative: CanonicalDraw }[], withReal = true): Distribution[] => {
      const realPos = selectRows(table, onSide(realRows, 1));
      const realNeg = selectRows(table, onSide(realRows, 0));
      const out: Distribution[] = [];
      for (const c of pos.columns) {
        if (c.name === predName) continue;
        const nc = neg.columns.find((x) => x.name === c.name);
        if (!nc) continue;
        const series: SeriesInput[] = [{ name: 'positive canonical', column: c }, { name: 'negative canonical', column: nc }];
        const rp = realPos.columns.find((x) => x.name === c.name);
        const rn = realNeg.columns.find((x) => x.name === c.name);
        if (rp && rn && withReal && !suppressedValues.has(c.name)) series.push({ name: 'real rows predicted positive', column: rp, of: 0 }, { name: 'real rows predicted negative', column: rn, of: 1 });
        const v = views.find((x) => x.attr.column === c.name);
        const edges = v?.attr.bins?.edges;
        const o = edges ? { edges, kind: 'numeric' as const } : {};
        const d = distribution(c.name, series, roleOf(c.name), o);
        if (series.length === 4) d.jsReal = jsDistance(d.series[2].share, d.series[3].share);
        if (perSeed.length > 1) {
          // each seed's pair on the pooled bins: its JS, and each bar's range over the seeds
          const seedShares = perSeed.map((s) => (['positive', 'negative'] as const).map((k) => {
            const col = s[k].table.columns.find((x) => x.name === c.name);
            return col && s[k].table.rows > 0 ? sharesOn(d, col) : null;
          }));
          d.jsSeeds = seedShares.map(([a, b]) => (a && b ? jsDistance(a, b) : NaN));
          for (const j of [0, 1]) {
            const rows = seedShares.map((x) => x[j]).filter((x): x is number[] => x !== null);
            if (rows.length) d.series[j].range = { lo: d.series[j].share.map((_, b) => Math.min(...rows.map((r) => r[b]))), hi: d.series[j].share.map((_, b) => Math.max(...rows.map((r) => r[b]))) };
          }
        }
        out.push(d);
      }
      return rankDistributions(out);
    };
    const main = await drawPair([], n, 0, 'main canonical sets');
    const posMain = main.positive;
    const negMain = main.negative;
    const canonical: CanonicalComparison = {
      fix: [],
      name: 'canonical',
      positive: posMain,
      negative: negMain,
      distributions: compare(posMain, negMain, allRows, main.perSeed),
      validity: main.validity,
      validityScorer: scorer ? scorer.kind : null,
      draws: main.perSeed.map((d, k) => ({ seed: seeds[k], positive: d.positive.stats, negative: d.negative.stats })),
    };
    drawCaveats(caveats, 'the main canonical sets', canonical.draws!, rejection, scorer !== null);
    if (!scorer) caveats.push({ topic: 'validity', text: 'nothing can score the canonical sets: their validity is unknown' });
    else if (scorer.kind === 'surrogate') caveats.push({ topic: 'validity', text: `the generated rows are scored by a surrogate of the predictions column (the built-in classifier fitted to it), not by the model itself; it gives the column's decision on ${(100 * scorer.agreement!.rate).toFixed(1)}% of ${scorer.agreement!.rows} held-out rows` });
    const proxyColumns = views.filter((v) => v.attr.inModel === false).map((v) => v.attr.column);
    const proxy = { columns: proxyColumns, distributions: canonical.distributions.filter((d) => proxyColumns.includes(d.feature)) };
    lap('canonical');

    // ── 4b. the sets checked against the real rows ─────────────────────────────────────────────
    progress('checks', 0);
    // its own stream (not seed + j, which the transformer's mixture fits use)
    const checkRng = new Rng(engine, DERIVED_SEEDS.checks(seed));
    seedLog['checks against the real rows'] = DERIVED_SEEDS.checks(seed);
    const setsBySeed = main.perSeed.map((d) => ({ positive: d.positive.table, negative: d.negative.table }));
    const fid = fidelity(ganColumns.map((c) => ({ name: c.name, kind: c.kind })), table, yhat, setsBySeed, checkRng, { emptyFails: true });
    const fidOf = (f: string) => fid.find((x) => x.feature === f) ?? null;
    // the features the findings can name: by JS until CHECK_DEFAULTS.topFeatures faithful ones
    const checked: string[] = [];
    let faithfulSeen = 0;
    for (const d of canonical.distributions) {
      if (d.role !== 'feature' || faithfulSeen >= CHECK_DEFAULTS.topFeatures) continue;
      checked.push(d.feature);
      if (fidOf(d.feature)?.faithful) faithfulSeen++;
    }
    const vars: CheckVariable[] = views.map((v) => viewVariable(v, table, roleOf(v.attr.column)));
    for (const f of checked) {
      const c = table.columns.find((x) => x.name === f)!;
      vars.push(c.kind === 'numeric' ? numericVariable(table, f, 'feature') : categoricalVariable(table, f, 'feature'));
    }
    // suppressed values and cells are not checked against their real rows (a check's real shares are counts of their people)
    const shifts = shiftChecks(vars, yhat, setsBySeed, checkRng).filter((x) => !suppressedValues.get(x.feature)?.has(x.value));
    const pairVars: [number, number][] = [];
    for (let i = 0; i < views.length; i++) for (let j = i + 1; j < views.length; j++) pairVars.push([i, j]);
    const cells = (pairVars.length ? shiftChecks(pairVars.map(([i, j]) => cellVariable(vars[i], vars[j])), yhat, setsBySeed, checkRng) : []).filter((x) => !suppressedCells.get(x.feature)?.has(x.value));
    // the same corrected level as the verdicts: Holm over every check of the audit
    correctShiftChecks([shifts, cells], attributes.verdicts.alpha);
    const findings = buildFindings(canonical.distributions, fid, shifts, views.map((v) => v.attr.column), favourable);
    checkCaveats(caveats, findings, fid);
    lap('checks');

    // ── 5. intersections ──────────────────────────────────────────────────────────────────────
    const intersections: AuditResult['intersections'] = [];
    const pairs: [GroupView, GroupView][] = pairVars.map(([i, j]) => [views[i], views[j]]);
    const posLabels = views.map((v) => v.labelsOf(posMain));
    const negLabels = views.map((v) => v.labelsOf(negMain));
    const discrete = new Set(gans[0].sampler.columns.map((c) => c.name));
    let setIndex = 0;
    const totalSets = pairs.reduce((s, [a, b]) => s + a.values.length * b.values.length, 0);
    progress('intersections', 0);
    for (const [A, B] of pairs) {
      const ia = views.indexOf(A);
      const ib = views.indexOf(B);
      const heatmap = buildHeatmap(A, B, yhat, minGroupSize, posLabels[ia], posLabels[ib], negLabels[ia], negLabels[ib], k);
      const cellFeature = `${A.attr.column} × ${B.attr.column}`;
      heatmap.shiftStatus = heatmap.rowValues.map((a, r) => heatmap.colValues.map((b, c) => (heatmap.n[r][c] > 0 ? cells.find((x) => x.feature === cellFeature && x.value === `${a} & ${b}`)?.status ?? null : null)));
      const sets: CanonicalComparison[] = [];
      const fixable = A.attr.kind === 'categorical' && B.attr.kind === 'categorical' && discrete.has(A.attr.column) && discrete.has(B.attr.column);
      if (!fixable && nInter > 0) {
        const which = [A, B].filter((v) => v.attr.kind === 'numeric').map((v) => v.attr.column);
        warnings.push(`${A.attr.column} × ${B.attr.column}: no intersectional canonical sets (${which.join(' and ')} ${which.length === 1 ? 'is' : 'are'} numeric; the GAN can fix only categories); the heatmap is shown`);
      }
      if (fixable && nInter > 0) {
        // the data rows of each cell, found once: A's value and B's value joined by a NUL
        const cellRows = new Map<string, number[]>();
        for (let i = 0; i < table.rows; i++) {
          const key = `${A.dataLabels[i]}\u0000${B.dataLabels[i]}`;
          const rs = cellRows.get(key);
          if (rs) rs.push(i);
          else cellRows.set(key, [i]);
        }
        for (let r = 0; r < A.values.length; r++) {
          for (let c = 0; c < B.values.length; c++) {
            if (heatmap.n[r][c] === 0) continue;
            const fix: [string, string][] = [[A.attr.column, A.values[r]], [B.attr.column, B.values[c]]];
            const name = `intersection-${A.attr.column}=${A.values[r]}-${B.attr.column}=${B.values[c]}`;
            const pair = await drawPair(fix, nInter, 2 + 2 * setIndex, name);
            const kept = pair.positive.rows + pair.negative.rows;
            const held = (key: 'positive' | 'negative') => pair.perSeed.reduce((s, d) => s + (d[key].fixSatisfied ?? 0) * d[key].table.rows, 0);
            const set: CanonicalComparison = {
              fix,
              name,
              positive: pair.positive,
              negative: pair.negative,
              distributions: compare(pair.positive, pair.negative, cellRows.get(`${A.values[r]}\u0000${B.values[c]}`) ?? [], pair.perSeed, !(heatmap.n[r][c] < k)),
              fixTraining: pair.perSeed[0].positive.fixTraining,
              fixSatisfied: kept > 0 ? (held('positive') + held('negative')) / kept : 0,
              validity: pair.validity,
              validityScorer: scorer ? scorer.kind : null,
              draws: pair.perSeed.map((d, k) => ({ seed: seeds[k], positive: d.positive.stats, negative: d.negative.stats })),
            };
            sets.push(set);
            const combo = fix.map(([k, x]) => `${k}=${x}`).join(', ');
            if (set.fixTraining?.rare) caveats.push({ topic: 'rare-intersection', text: `${combo}: only ${set.fixTraining.rows} training rows (${(100 * set.fixTraining.share).toFixed(1)}%); its canonical sets are an extrapolation (${(100 * set.fixSatisfied!).toFixed(0)}% of generated rows hold both values)` });
            drawCaveats(caveats, `the sets of ${combo}`, set.draws!, rejection, scorer !== null);
            setIndex++;
            progress('intersections', setIndex / Math.max(1, totalSets));
          }
        }
      }
      intersections.push({ pair: [A.attr.column, B.attr.column], heatmap, sets });
    }
    if (intersections.length) caveats.push({ topic: 'power', text: intersectionPowerCaveat(table.rows) });
    lap('intersections');

    // ── 5b. the paper's intersectional protocol: one protected category fixed, the others compared ──
    // For each categorical protected A and observed value a: positive and negative sets with A = a
    // fixed; every other categorical protected B's distribution in them (EXPERIMENTS.md §2.6).
    let conditional: ConditionalComparison[] | undefined;
    const fixableViews = views.filter((v) => v.attr.kind === 'categorical' && discrete.has(v.attr.column));
    if (nInter > 0 && fixableViews.length >= 2) {
      conditional = [];
      let k = 0;
      for (const A of fixableViews) {
        for (const a of A.values) {
          const fix: [string, string][] = [[A.attr.column, a]];
          const pair = await drawPair(fix, nInter, 1_000_000 + 2 * k++, `conditional-${A.attr.column}=${a}`);
          const distributions: Distribution[] = [];
          for (const B of fixableViews) {
            if (B === A) continue;
            const pc = pair.positive.columns.find((c) => c.name === B.attr.column);
            const nc = pair.negative.columns.find((c) => c.name === B.attr.column);
            if (!pc || !nc) continue;
            distributions.push(distribution(B.attr.column, [{ name: 'positive canonical', column: pc }, { name: 'negative canonical', column: nc }], roleOf(B.attr.column)));
          }
          const c: ConditionalComparison = { fixed: [A.attr.column, a], rows: Math.min(pair.positive.rows, pair.negative.rows), distributions };
          const ft = pair.perSeed[0].positive.fixTraining;
          if (ft) c.fixTraining = ft;
          const kept = pair.positive.rows + pair.negative.rows;
          const held = pair.perSeed.reduce((s, d) => s + (d.positive.fixSatisfied ?? 0) * d.positive.table.rows + (d.negative.fixSatisfied ?? 0) * d.negative.table.rows, 0);
          c.fixSatisfied = kept > 0 ? held / kept : 0;
          conditional.push(c);
        }
      }
    }
    lap('conditional');

    // ── 6. LUCID ───────────────────────────────────────────────────────────────────────────────
    progress('lucid', 0);
    const lucid = runLucid(engine, model, n, seed, opts.lucidEpochs ?? LUCID_DEFAULTS.epochs, (c) => (views.some((v) => v.attr.column === c) ? 'protected' : 'feature'), range);
    if (lucid.ran) seedLog['LUCID (uniform start and descent)'] = seed;
    if (!lucid.ran) caveats.push({ topic: 'model', text: `LUCID did not run: ${lucid.reason}` });
    lap('lucid');

    // ── 7. FALE ────────────────────────────────────────────────────────────────────────────────
    const faleSections: FaleSection[] = [];
    let faleSkipped: string | undefined;
    if (!model) {
      faleSkipped = 'the model is a predictions column; FALE calls the model on modified rows, so it needs a callable model';
      caveats.push({ topic: 'model', text: `predictions column: no FALE and no LUCID (both need the model itself); ${scorer ? 'generated rows are scored by a surrogate of the predictions' : 'the validity of the generated rows is unknown'}` });
    } else {
      const protectedSet = new Set(opts.protected);
      const feats = (features ?? table.columns.map((c) => c.name).filter((c) => c !== opts.label)).filter((f) => !protectedSet.has(f) && f !== predName && !extra.some((e) => e.name === f));
      if (feats.length === 0) faleSkipped = 'the model reads no feature besides the protected ones';
      else {
        const rng = new Rng(engine, DERIVED_SEEDS.fale(seed));
        if ((opts.faleBootstrap ?? AUDIT_DEFAULTS.faleBootstrap) > 0) seedLog['FALE bootstrap'] = DERIVED_SEEDS.fale(seed);
        for (let k = 0; k < views.length; k++) {
          progress('fale', k / views.length);
          const v = views[k];
          const attr = attributes.attributes.find((a) => a.column === v.attr.groupColumn)!;
          // the group with the lowest selection rate (the favourable outcome's rate) among groups that are not small
          const sel = attr.fourFifths.selectionRate;
          const pool = attr.groups.some((g) => !g.small) ? attr.groups.filter((g) => !g.small) : attr.groups;
          let low = pool[0];
          for (const g of pool) if ((sel[g.value] ?? Infinity) < (sel[low.value] ?? Infinity)) low = g;
          const unprivileged: ProtectedCondition[] = [{ column: v.attr.groupColumn, value: low.value }];
          const result = await fale(mtable, model, {
            label: opts.label,
            positive,
            protected: unprivileged,
            features: feats,
            exclude: [predName, ...extra.map((e) => e.name)],
            bins: opts.faleBins ?? FALE_DEFAULTS.bins,
            bootstrap: opts.faleBootstrap ?? AUDIT_DEFAULTS.faleBootstrap,
            rng,
            favourable,
            minGroupSize,
            threshold,
          });
          const rate = sel[low.value] === null || sel[low.value] === undefined ? '?' : `${(100 * sel[low.value]!).toFixed(1)}%`;
          faleSections.push({ attribute: v.attr.column, unprivileged, chosen: `lowest selection rate (the ${favourable === 'positive' ? 'positive' : 'negative'} decision's rate) among groups that are not small (${v.attr.groupColumn} = ${low.value}: ${rate}); everyone else is privileged`, result });
        }
      }
    }
    lap('fale');
    progress('done', 1);
    timings.total = Math.round(now() - tStart);

    const result: AuditResult = {
      meta: {
        tool: 'lucid-wasm',
        version: AUDIT_VERSION,
        variant: engine.variant,
        created: new Date().toISOString(),
        seed,
        data: {
          source: opts.source ?? 'data',
          rows: table.rows,
          columns: table.columns.map((c) => c.name),
          sha256: opts.provenance?.dataSha256 ?? null,
          bytes: opts.provenance?.dataBytes ?? null,
          ...(opts.provenance?.dataSha256 ? {} : { note: opts.provenance?.dataNote ?? 'no file hash: the caller gave the table, not the file it was read from' }),
        },
        label: opts.label,
        positive,
        favourable,
        threshold,
        model: {
          kind: model ? model.kind : 'column',
          source: model ? model.source : `predictions column "${predName}"`,
          features,
          differentiable: model?.differentiable !== undefined,
          sha256: model ? opts.provenance?.modelSha256 ?? null : null,
          ...(model ? (opts.provenance?.modelSha256 ? {} : { note: 'no file hash: the caller gave the model, not its file' }) : { note: 'a predictions column: there is no model file to hash (the column is part of the data file)' }),
        },
        gan: {
          epochs, mode: gans[0].consistency.mode, rows: ganTable.rows, seeds, epochsDone: gans.map((g) => g.epochsDone), rejection: rejection && scorer !== null,
          schedule, heldOut: held ? held.length : 0, batch,
          stops: gans.map((g) => g.history.stop ?? null),
          ganRows: ganRowsMax,
          sample: sample ? { rows: sample.rows.length, of: table.rows, strata: strataNames, strataCount: sample.nonEmpty, represented: sample.represented } : null,
        },
        timings,
        command: opts.provenance?.command ?? { via: 'api' },
        seeds: seedLog,
        suppressBelow: attributes.suppressBelow,
      },
      protected: views.map((v) => v.attr),
      metrics: { attributes, intersection },
      attribution,
      canonical,
      checks: { seeds, fidelity: fid, shifts, cells, dependencies: dependencies.map((d) => ({ from: d.from, to: d.to })), ranges: range, ...(scorer?.agreement ? { surrogate: scorer.agreement } : {}) },
      findings,
      proxy,
      intersections,
      ...(conditional ? { conditional } : {}),
      lucid,
      fale: faleSections,
      caveats,
      warnings: [...warnings, ...attributes.warnings.filter((w) => !w.endsWith('no verdict'))],
    };
    if (faleSkipped !== undefined) result.faleSkipped = faleSkipped;
    return result;
  } finally {
    for (const g of gans) g.dispose();
    scorer?.dispose?.();
  }
}

/**
 * Each row's stratum for the GANs' sample: the model's decision crossed with every protected
 * attribute's group (its bin for a numeric one; a row without a group value is a group of its own).
 * Only the combinations that occur are strata, numbered in the order of their mixed-radix code
 * (decision first, then the attributes in the order given, each by its sorted group values).
 */
function strataOf(yhat: Uint8Array, views: readonly GroupView[]): { codes: Int32Array; strata: number } {
  const key = Float64Array.from(yhat);
  let span = 2;
  for (const v of views) {
    const index = new Map(v.values.map((x, i) => [x, i]));
    const radix = v.values.length + 1;
    for (let i = 0; i < key.length; i++) key[i] = key[i] * radix + (index.get(v.dataLabels[i]) ?? v.values.length);
    span *= radix;
  }
  check(span <= Number.MAX_SAFE_INTEGER, 'E_ARG', () => 'audit: too many combinations of the decision and the protected groups to stratify the GANs\' sample on');
  const distinct = [...new Set(key)].sort((x, y) => x - y);
  const dense = new Map(distinct.map((k, i) => [k, i]));
  return { codes: Int32Array.from(key, (k) => dense.get(k)!), strata: distinct.length };
}

/** A protected attribute's groups as a check variable (a numeric one: its bins, with the median). */
function viewVariable(v: GroupView, table: Table, role: Distribution['role']): CheckVariable {
  if (v.attr.kind === 'numeric' && v.attr.bins) return binnedVariable(table, v.attr.column, role, v.attr.bins.edges, v.attr.bins.labels);
  const index = new Map(v.values.map((x, i) => [x, i]));
  const code = (ls: string[]) => Int32Array.from(ls, (l) => index.get(l) ?? -1);
  return { feature: v.attr.column, role, values: v.values.slice(), real: code(v.dataLabels), codeOf: (t) => code(v.labelsOf(t)) };
}

/** Caveats on how a pair of sets was drawn: low acceptance, the draw cap, clipped and contradicting rows. */
function drawCaveats(caveats: AuditResult['caveats'], what: string, draws: NonNullable<CanonicalComparison['draws']>, rejection: boolean, scored: boolean): void {
  const floor = AUDIT_DEFAULTS.validityFloor;
  for (const side of ['positive', 'negative'] as const) {
    const st = draws.map((d) => d[side]);
    const drawn = st.reduce((s, x) => s + x.drawn, 0);
    const kept = st.reduce((s, x) => s + x.kept, 0);
    const wanted = st.reduce((s, x) => s + x.wanted, 0);
    const acc = scored ? st.reduce((s, x) => s + (x.acceptance ?? 0) * x.drawn, 0) / Math.max(1, drawn) : null;
    if (acc !== null && acc < floor) {
      caveats.push({
        topic: 'validity',
        text: rejection
          ? `${what}: only ${(100 * acc).toFixed(1)}% of the rows drawn for the ${side} set were scored ${side} (the generator is weakly conditioned); the set keeps only those`
          : `${what}: only ${(100 * acc).toFixed(1)}% of the ${side} rows are scored ${side} (< ${100 * floor}%); read their distributions with care`,
      });
    }
    if (kept < wanted) caveats.push({ topic: 'validity', text: `${what}: the ${side} set holds ${kept} of the ${wanted} rows asked for: the draw cap (${CANONICAL_DEFAULTS.drawCap} rows drawn per row wanted) was reached; it is not padded with rows scored on the other side` });
    const contra = st.reduce((s, x) => s + x.contradicting, 0);
    if (drawn > 0 && contra / drawn >= 0.01) caveats.push({ topic: 'fidelity', text: `${what}: ${(100 * contra / drawn).toFixed(1)}% of the rows drawn for the ${side} set contradicted an exact dependency of the data (e.g. two columns that always agree) and were rejected` });
    const clipped = st.reduce((s, x) => s + x.clippedRows, 0);
    if (drawn > 0 && clipped / drawn >= 0.01) caveats.push({ topic: 'fidelity', text: `${what}: ${(100 * clipped / drawn).toFixed(1)}% of the rows drawn for the ${side} set had a number outside its column's observed range, clipped into it` });
  }
}

/** Caveats from the checks: features misrepresented by the sets, and directions the sets get wrong. */
function checkCaveats(caveats: AuditResult['caveats'], f: AuditFindings, fid: readonly FeatureFidelity[]): void {
  const bad = fid.filter((x) => !x.faithful).map((x) => x.feature);
  if (bad.length) caveats.push({ topic: 'fidelity', text: `the canonical sets misrepresent ${bad.length} of ${fid.length} features against the real rows on their side (KS or TV distance above max(noise floor, ${CHECK_DEFAULTS.fidelityTolerance})): ${bad.join(', ')}; their charts are marked and they are not named as findings` });
  // a share shift in percentage points, a median shift in the feature's units
  const f1 = (x: number | null, kind: 'share' | 'median') => (x === null || !Number.isFinite(x) ? 'n/a' : kind === 'median' ? String(Number(x.toPrecision(4))) : `${(100 * x).toFixed(1)} pp`);
  for (const x of f.protected) {
    for (const v of x.disagreements) caveats.push({ topic: 'fidelity', text: `${x.feature} = ${v.kind === 'median' ? 'the median' : v.value}: the canonical sets disagree with the data (canonical ${v.kind === 'median' ? 'median ' : ''}shift ${f1(v.canonical.pooled, v.kind)}, real ${f1(v.real.shift, v.kind)} [${f1(v.real.lo, v.kind)}, ${f1(v.real.hi, v.kind)}]); it is not stated as a preference` });
  }
}

function buildHeatmap(A: GroupView, B: GroupView, yhat: Uint8Array, minGroupSize: number, posA: string[], posB: string[], negA: string[], negB: string[], suppressBelow = 0): IntersectionHeatmap {
  const R = A.values.length;
  const C = B.values.length;
  const ra = new Map(A.values.map((v, i) => [v, i]));
  const cb = new Map(B.values.map((v, i) => [v, i]));
  const grid = () => Array.from({ length: R }, () => new Array<number>(C).fill(0));
  const n = grid();
  const pos = grid();
  for (let i = 0; i < yhat.length; i++) {
    const r = ra.get(A.dataLabels[i]);
    const c = cb.get(B.dataLabels[i]);
    if (r === undefined || c === undefined) continue;
    n[r][c]++;
    pos[r][c] += yhat[i];
  }
  const share = (la: string[], lb: string[]) => {
    const g = grid();
    for (let i = 0; i < la.length; i++) {
      const r = ra.get(la[i]);
      const c = cb.get(lb[i]);
      if (r !== undefined && c !== undefined) g[r][c]++;
    }
    return g.map((row) => row.map((x) => (la.length > 0 ? x / la.length : 0)));
  };
  const sp = share(posA, posB);
  const sn = share(negA, negB);
  const small: [number, number][] = [];
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) if (n[r][c] < minGroupSize) small.push([r, c]);
  // --suppress-below: a non-empty cell with fewer people has no rate (the canonical shift is generated data, not people)
  const suppressed: [number, number][] = [];
  if (suppressBelow > 0) for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) if (n[r][c] > 0 && n[r][c] < suppressBelow) suppressed.push([r, c]);
  const isSup = (r: number, c: number) => suppressed.some(([a, b]) => a === r && b === c);
  return {
    rowAttribute: A.attr.column,
    colAttribute: B.attr.column,
    rowValues: A.values.slice(),
    colValues: B.values.slice(),
    n,
    positivityRate: n.map((row, r) => row.map((x, c) => (x > 0 && !isSup(r, c) ? pos[r][c] / x : null))),
    canonicalShift: sp.map((row, r) => row.map((x, c) => x - sn[r][c])),
    small,
    ...(suppressBelow > 0 ? { suppressed } : {}),
  };
}

function runLucid(engine: Engine, model: BlackBox | undefined, n: number, seed: number, epochs: number, role: (c: string) => Distribution['role'], range: Record<string, readonly [number, number]>): LucidSection {
  if (!model) return { ran: false, reason: 'the model is a predictions column; LUCID needs a differentiable model' };
  const clf = model.differentiable;
  if (!clf) return { ran: false, reason: `the model (${model.kind}: ${model.source}) gives no gradients; LUCID needs the built-in classifier` };
  // projected onto the data: numbers inside the audited rows' range, one-hot groups on the simplex, numbers rounded to their decimals
  const r = invert(engine, clf, { prefer: 'positive', n, epochs, seed, clip: true, bounds: range, projectOneHot: true, round: true });
  const start = lucidStart(engine, clf.preprocessor, n, seed);
  let ok = 0;
  for (const p of r.predSnapped) if (p >= 0.5) ok++;
  const distributions = rankDistributions(
    clf.preprocessor.groups.map((g) => {
      const a = r.table.columns.find((c) => c.name === g.name)!;
      const b = start.columns.find((c) => c.name === g.name)!;
      return distribution(g.name, [{ name: 'LUCID canonical', column: a }, { name: 'uniform start', column: b }], role(g.name));
    }),
  );
  return {
    ran: true,
    projected: true,
    prefer: r.preference.label,
    n,
    epochs,
    success: ok / n,
    canonical: r.table,
    start,
    distributions,
    loss: Array.from(r.loss),
  };
}

/** LUCID's starting points, decoded: the same U[low, high) draw invert makes from `seed` (default init, no clip/projection). */
export function lucidStart(engine: Engine, pre: { dim: number; decode(x: Float32Array, n: number): Table }, n: number, seed: number): Table {
  const { low, high } = LUCID_DEFAULTS.init;
  const x = engine.empty([n, pre.dim]);
  let a: Float32Array;
  try {
    new Rng(engine, seed).fill('rng_uniform', x);
    a = x.toArray();
  } finally {
    x.dispose();
  }
  for (let i = 0; i < a.length; i++) a[i] = Math.fround(a[i] * (high - low)) + low;
  return pre.decode(a, n);
}


/**
 * What a missing intersectional signal means at this data size. The figures are the ground truth of
 * EXPERIMENTS.md §2.2 and §2.8 (bias simulator, a penalty planted on one cell of 15% of the rows, the
 * heat map's canonical shift against a fair-model band): found in 0 of 5 audits with 2000 rows, 3 of 5
 * with 10,000; the positivity per cell against the rest (§2.9): 1–2 of 5 and 5 of 5.
 */
export function intersectionPowerCaveat(rows: number): string {
  return `${rows} rows: on simulated data with a penalty planted on one intersection holding 15% of the rows, the heat map's canonical shift located it in 0 of 5 audits with 2000 rows and 3 of 5 with 10,000, the model's positivity per cell (the intersection metrics) in 1–2 of 5 and 5 of 5 (EXPERIMENTS.md §2.8, §2.9); a cell that does not stand out here is not evidence that the model treats it like the others`;
}
