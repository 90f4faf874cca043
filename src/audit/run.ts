// runAudit: one call from data and a model (or a predictions column) to everything the report
// shows — group metrics, LUCID-GAN canonical sets (main, proxy view, intersections), LUCID, FALE,
// distributions with Jensen–Shannon distances, validity and caveats. Core code: no Node imports,
// so it runs in a browser or a worker as well; src/node/audit.ts writes the files.
//
// Every draw is seeded from opts.seed through the project's Rng: the same data, model and options
// give the same result (timings aside).
import type { Engine } from '../engine/engine.js';
import { check, EngineError } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import type { CategoricalColumn, Column, Table } from '../data/table.js';
import { selectRows } from '../data/table.js';
import type { BlackBox } from '../models/blackbox.js';
import { LucidGan, GAN_DEFAULTS, type FitStatus, type SampleResult } from '../models/lucidgan/model.js';
import { groupMetrics, METRICS_DEFAULTS, type MetricsReport } from '../methods/metrics/index.js';
import { fale, FALE_DEFAULTS, type ProtectedCondition } from '../methods/fale/index.js';
import { invert, LUCID_DEFAULTS } from '../methods/lucid/index.js';
import { validity, type Validity } from '../methods/quality/index.js';
import { binValues, explicitBins, quantileBins } from './bins.js';
import { cellLabels, distribution, rankDistributions, type SeriesInput } from './distance.js';
import type { AuditResult, CanonicalComparison, ConditionalComparison, Distribution, FaleSection, IntersectionHeatmap, LucidSection, ProtectedAttribute } from './types.js';

export const AUDIT_VERSION = '0.1.0';

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
  /** GAN steps the automatic epoch count aims at (epochs = this / steps per epoch, within [minEpochs, maxEpochs]) */
  ganSteps: 1500,
  minEpochs: 10,
  maxEpochs: 300,
  /** a canonical set side scored on its own side less often than this gets a caveat */
  validityFloor: 0.8,
};

export interface AuditOptions {
  /** the true label column */
  label: string;
  /** the label value counted as positive (default: the second of exactly two values, sorted) */
  positive?: string;
  /** the protected columns (categorical, or numeric: then binned) */
  protected: string[];
  /** the model to audit: called on the data (and on the canonical sets for validity, FALE) */
  model?: BlackBox;
  /** without a callable model: the column holding the model's predictions (P(positive), 0/1, or labels) */
  pred?: string;
  /** where the data came from (shown in the report; default "data") */
  source?: string;
  /** GAN epochs (default: about AUDIT_DEFAULTS.ganSteps generator steps, see ganEpochsFor) */
  ganEpochs?: number;
  /** GAN batch (default GAN_DEFAULTS.batch, lowered for small data) */
  ganBatch?: number;
  /**
   * How LUCID-GAN is trained: 'paper' (the default: the published training) or 'consistency' (adds the
   * prediction-consistency term of `lucid gan fit`: valid sets, but on the bias simulator they collapse
   * so far that fair models get flagged; EXPERIMENTS.md §2)
   */
  ganMode?: 'paper' | 'consistency';
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
}

/** GAN epochs for `rows` training rows: about AUDIT_DEFAULTS.ganSteps steps, within [minEpochs, maxEpochs]. */
export function ganEpochsFor(rows: number, batch: number = GAN_DEFAULTS.batch): number {
  const perEpoch = Math.max(1, Math.floor(rows / batch));
  const d = AUDIT_DEFAULTS;
  return Math.min(d.maxEpochs, Math.max(d.minEpochs, Math.round(d.ganSteps / perEpoch)));
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

/** A clear E_ARG naming a column that does not exist and listing those that do. */
function requireColumn(table: Table, name: string, what: string): Column {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new EngineError('E_ARG', `audit: ${what} "${name}" is not a column of the data; the columns are: ${table.columns.map((x) => x.name).join(', ')}`);
  return c;
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

  // ── 1. predictions ──────────────────────────────────────────────────────────────────────────
  progress('score', 0);
  const predName = predGiven ?? freeName(table, 'preds');
  let predCol: Column;
  if (model) {
    predCol = { kind: 'numeric', name: predName, values: await model.predict(table) };
  } else predCol = requireColumn(table, predName, 'predictions column');
  const features = model?.features ? [...model.features] : null;
  const inModel = (c: string): boolean | null => (features ? features.includes(c) : null);
  lap('score');

  // ── 2. groups and metrics ───────────────────────────────────────────────────────────────────
  progress('metrics', 0);
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
  const attributes = inData(() => groupMetrics(mtable, { label: opts.label, positive: opts.positive, pred: predName, predAs, groups: groupCols }));
  const intersection: MetricsReport | null = groupCols.length >= 2 ? inData(() => groupMetrics(mtable, { label: opts.label, positive: opts.positive, pred: predName, predAs, groups: groupCols, intersect: true })) : null;
  const positive = attributes.positive;
  const minGroupSize = attributes.minGroupSize;
  for (const r of [attributes, intersection]) {
    if (!r) continue;
    for (const a of r.attributes) for (const g of a.groups) if (g.n < minGroupSize) caveats.push({ topic: 'small-group', text: `${a.column} = ${g.value} has only ${g.n} rows (< ${minGroupSize}): its rates are unreliable` });
  }
  // P(positive) per row as a number in [0, 1], the GAN's condition: the scores, or, where the metrics read
  // the column as predicted labels (0/1 included, whichever of them is positive), 1 for the positive label
  const pScore: Float64Array = attributes.predKind === 'scores' && predCol.kind === 'numeric' ? predCol.values : Float64Array.from(cellLabels(predCol), (l) => (l === positive ? 1 : 0));
  const yhat = Uint8Array.from(pScore, (v) => (v > METRICS_DEFAULTS.threshold ? 1 : 0));
  lap('metrics');

  // ── 3. LUCID-GAN ────────────────────────────────────────────────────────────────────────────
  const ganColumns: Column[] = table.columns.filter((c) => c.name !== opts.label && c.name !== predName);
  ganColumns.push({ kind: 'numeric', name: predName, values: pScore });
  const ganTable: Table = { rows: table.rows, columns: ganColumns };
  const batch = opts.ganBatch ?? ganBatchFor(table.rows);
  const epochs = opts.ganEpochs ?? ganEpochsFor(table.rows, batch);
  progress('gan', 0);
  const fit = await LucidGan.fit(engine, ganTable, {
    conditions: [predName],
    epochs,
    batch,
    seed,
    paper: (opts.ganMode ?? AUDIT_DEFAULTS.ganMode) === 'paper',
    where: opts.source ?? 'data',
    onEpoch: (e) => progress('gan', e.epoch / Math.max(1, epochs)),
    shouldStop: opts.shouldStop,
  });
  const gan = fit.model;
  try {
    const status: FitStatus = fit.status;
    if (status === 'interrupted') warnings.push(`LUCID-GAN training stopped early after ${gan.epochsDone} of ${epochs} epochs; the canonical sets come from that model`);
    if (status === 'diverged') warnings.push(`LUCID-GAN training diverged (${fit.message ?? 'a non-finite loss'}); the canonical sets come from the last good epoch`);
    lap('gan');

    // ── 4. the main canonical sets ────────────────────────────────────────────────────────────
    progress('canonical', 0);
    const scoreRows = async (t: Table): Promise<{ scores: Float64Array | null; scorer: 'model' | 'surrogate' | null }> => {
      if (model) return { scores: await model.predict(t), scorer: 'model' };
      const s = surrogateScores(engine, gan, t, seed);
      return { scores: s, scorer: s ? 'surrogate' : null };
    };
    const validityOf = async (pos: Table, neg: Table): Promise<{ v: Validity | null; scorer: 'model' | 'surrogate' | null }> => {
      const a = await scoreRows(pos);
      const b = await scoreRows(neg);
      if (!a.scores || !b.scores) return { v: null, scorer: null };
      const scores = new Float64Array(pos.rows + neg.rows);
      scores.set(a.scores);
      scores.set(b.scores, pos.rows);
      const cond = new Float64Array(scores.length);
      cond.fill(1, 0, pos.rows);
      const what = a.scorer === 'model' ? model!.source : 'the LUCID-GAN surrogate of the predictions';
      return { v: validity(scores, cond, { model: what, column: predName, source: 'given' }), scorer: a.scorer };
    };
    const roleOf = (c: string): Distribution['role'] => {
      const v = views.find((x) => x.attr.column === c);
      if (!v) return 'feature';
      return v.attr.inModel === false ? 'proxy' : 'protected';
    };
    const compare = (pos: Table, neg: Table, real: Table): Distribution[] => {
      const out: Distribution[] = [];
      for (const c of pos.columns) {
        if (c.name === predName) continue;
        const nc = neg.columns.find((x) => x.name === c.name);
        const rc = real.columns.find((x) => x.name === c.name);
        if (!nc) continue;
        const series: SeriesInput[] = [{ name: 'positive canonical', column: c }, { name: 'negative canonical', column: nc }];
        if (rc) series.push({ name: 'real data', column: rc });
        const v = views.find((x) => x.attr.column === c.name);
        const edges = v?.attr.bins?.edges;
        out.push(distribution(c.name, series, roleOf(c.name), edges ? { edges, kind: 'numeric' } : {}));
      }
      return rankDistributions(out);
    };
    const sample = (cond: number, fix: [string, string][], rows: number, s: number): SampleResult =>
      gan.sample({ n: rows, conditions: { [predName]: cond }, fix, condVector: 'zero', seed: s });
    const posMain = sample(1, [], n, seed + 1).table;
    const negMain = sample(0, [], n, seed + 2).table;
    const mainValidity = await validityOf(posMain, negMain);
    const canonical: CanonicalComparison = {
      fix: [],
      name: 'canonical',
      positive: posMain,
      negative: negMain,
      distributions: compare(posMain, negMain, table),
      validity: mainValidity.v,
      validityScorer: mainValidity.scorer,
    };
    validityCaveats(caveats, 'the main canonical sets', mainValidity.v);
    if (!mainValidity.v) caveats.push({ topic: 'validity', text: 'nothing can score the canonical sets (no callable model, and the GAN has no surrogate of the predictions outside --gan-mode consistency): their validity is unknown' });
    else if (mainValidity.scorer === 'surrogate') caveats.push({ topic: 'validity', text: 'validity is measured with the LUCID-GAN surrogate (a small network fitted to the predictions column), not with the model itself' });
    const proxyColumns = views.filter((v) => v.attr.inModel === false).map((v) => v.attr.column);
    const proxy = { columns: proxyColumns, distributions: canonical.distributions.filter((d) => proxyColumns.includes(d.feature)) };
    lap('canonical');

    // ── 5. intersections ──────────────────────────────────────────────────────────────────────
    const intersections: AuditResult['intersections'] = [];
    const pairs: [GroupView, GroupView][] = [];
    for (let i = 0; i < views.length; i++) for (let j = i + 1; j < views.length; j++) pairs.push([views[i], views[j]]);
    const posLabels = views.map((v) => v.labelsOf(posMain));
    const negLabels = views.map((v) => v.labelsOf(negMain));
    const discrete = new Set(gan.sampler.columns.map((c) => c.name));
    let setIndex = 0;
    const totalSets = pairs.reduce((s, [a, b]) => s + a.values.length * b.values.length, 0);
    progress('intersections', 0);
    for (const [A, B] of pairs) {
      const ia = views.indexOf(A);
      const ib = views.indexOf(B);
      const heatmap = buildHeatmap(A, B, yhat, minGroupSize, posLabels[ia], posLabels[ib], negLabels[ia], negLabels[ib]);
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
            const s0 = seed + 100 + 2 * setIndex;
            const pos = sample(1, fix, nInter, s0);
            const neg = sample(0, fix, nInter, s0 + 1);
            const real = selectRows(table, cellRows.get(`${A.values[r]}\u0000${B.values[c]}`) ?? []);
            const v = await validityOf(pos.table, neg.table);
            const name = `intersection-${A.attr.column}=${A.values[r]}-${B.attr.column}=${B.values[c]}`;
            const set: CanonicalComparison = {
              fix,
              name,
              positive: pos.table,
              negative: neg.table,
              distributions: compare(pos.table, neg.table, real),
              fixTraining: pos.fixTraining,
              fixSatisfied: ((pos.fixSatisfied ?? 0) + (neg.fixSatisfied ?? 0)) / 2,
              validity: v.v,
              validityScorer: v.scorer,
            };
            sets.push(set);
            const combo = fix.map(([k, x]) => `${k}=${x}`).join(', ');
            if (pos.fixTraining?.rare) caveats.push({ topic: 'rare-intersection', text: `${combo}: only ${pos.fixTraining.rows} training rows (${(100 * pos.fixTraining.share).toFixed(1)}%); its canonical sets are an extrapolation (${(100 * set.fixSatisfied!).toFixed(0)}% of generated rows hold both values)` });
            validityCaveats(caveats, `the sets of ${combo}`, v.v);
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
          const s0 = seed + 5000 + 2 * k++;
          const pos = sample(1, fix, nInter, s0);
          const neg = sample(0, fix, nInter, s0 + 1);
          const distributions: Distribution[] = [];
          for (const B of fixableViews) {
            if (B === A) continue;
            const pc = pos.table.columns.find((c) => c.name === B.attr.column);
            const nc = neg.table.columns.find((c) => c.name === B.attr.column);
            if (!pc || !nc) continue;
            distributions.push(distribution(B.attr.column, [{ name: 'positive canonical', column: pc }, { name: 'negative canonical', column: nc }], roleOf(B.attr.column)));
          }
          const c: ConditionalComparison = { fixed: [A.attr.column, a], rows: nInter, distributions };
          if (pos.fixTraining) c.fixTraining = pos.fixTraining;
          if (pos.fixSatisfied !== undefined || neg.fixSatisfied !== undefined) c.fixSatisfied = ((pos.fixSatisfied ?? 0) + (neg.fixSatisfied ?? 0)) / 2;
          conditional.push(c);
        }
      }
    }
    lap('conditional');

    // ── 6. LUCID ───────────────────────────────────────────────────────────────────────────────
    progress('lucid', 0);
    const lucid = runLucid(engine, model, n, seed, opts.lucidEpochs ?? LUCID_DEFAULTS.epochs, (c) => (views.some((v) => v.attr.column === c) ? 'protected' : 'feature'));
    if (!lucid.ran) caveats.push({ topic: 'model', text: `LUCID did not run: ${lucid.reason}` });
    lap('lucid');

    // ── 7. FALE ────────────────────────────────────────────────────────────────────────────────
    const faleSections: FaleSection[] = [];
    let faleSkipped: string | undefined;
    if (!model) {
      faleSkipped = 'the model is a predictions column; FALE calls the model on modified rows, so it needs a callable model';
      caveats.push({ topic: 'model', text: `predictions column: no FALE and no LUCID (both need the model itself); validity ${mainValidity.scorer === 'surrogate' ? 'by the GAN\'s surrogate' : 'unknown'}` });
    } else {
      const protectedSet = new Set(opts.protected);
      const feats = (features ?? table.columns.map((c) => c.name).filter((c) => c !== opts.label)).filter((f) => !protectedSet.has(f) && f !== predName && !extra.some((e) => e.name === f));
      if (feats.length === 0) faleSkipped = 'the model reads no feature besides the protected ones';
      else {
        const rng = new Rng(engine, seed + 7);
        for (let k = 0; k < views.length; k++) {
          progress('fale', k / views.length);
          const v = views[k];
          const attr = attributes.attributes.find((a) => a.column === v.attr.groupColumn)!;
          let low = attr.groups[0];
          for (const g of attr.groups) if ((g.positivity_rate ?? Infinity) < (low.positivity_rate ?? Infinity)) low = g;
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
          });
          const rate = low.positivity_rate === null ? '?' : `${(100 * low.positivity_rate).toFixed(1)}%`;
          faleSections.push({ attribute: v.attr.column, unprivileged, chosen: `lowest positivity rate (${v.attr.groupColumn} = ${low.value}: ${rate}); everyone else is privileged`, result });
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
        data: { source: opts.source ?? 'data', rows: table.rows, columns: table.columns.map((c) => c.name) },
        label: opts.label,
        positive,
        model: {
          kind: model ? model.kind : 'column',
          source: model ? model.source : `predictions column "${predName}"`,
          features,
          differentiable: model?.differentiable !== undefined,
        },
        gan: { epochs: gan.epochsDone, mode: gan.consistency.mode, rows: table.rows },
        timings,
      },
      protected: views.map((v) => v.attr),
      metrics: { attributes, intersection },
      canonical,
      proxy,
      intersections,
      ...(conditional ? { conditional } : {}),
      lucid,
      fale: faleSections,
      caveats,
      warnings: [...warnings, ...attributes.warnings.filter((w) => !caveats.some((c) => c.text === w))],
    };
    if (faleSkipped !== undefined) result.faleSkipped = faleSkipped;
    return result;
  } finally {
    gan.dispose();
  }
}

function validityCaveats(caveats: AuditResult['caveats'], what: string, v: Validity | null): void {
  if (!v) return;
  const floor = AUDIT_DEFAULTS.validityFloor;
  for (const [side, s] of [['positive', v.positive], ['negative', v.negative]] as const) {
    if (s.rate !== null && s.rate < floor) caveats.push({ topic: 'validity', text: `${what}: only ${(100 * s.rate).toFixed(1)}% of the ${side} rows are scored ${side} (< ${100 * floor}%); read their distributions with care` });
  }
}

function buildHeatmap(A: GroupView, B: GroupView, yhat: Uint8Array, minGroupSize: number, posA: string[], posB: string[], negA: string[], negB: string[]): IntersectionHeatmap {
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
  return {
    rowAttribute: A.attr.column,
    colAttribute: B.attr.column,
    rowValues: A.values.slice(),
    colValues: B.values.slice(),
    n,
    positivityRate: n.map((row, r) => row.map((x, c) => (x > 0 ? pos[r][c] / x : null))),
    canonicalShift: sp.map((row, r) => row.map((x, c) => x - sn[r][c])),
    small,
  };
}

/** P(positive) of generated rows by the GAN's consistency surrogate (null without one). */
function surrogateScores(engine: Engine, gan: LucidGan, t: Table, seed: number): Float64Array | null {
  const s = gan.surrogate;
  if (!s) return null;
  const cols = t.columns.filter((c) => !gan.conditionNames.includes(c.name));
  const { data: x } = gan.transformer.transform(engine, { rows: t.rows, columns: cols }, new Rng(engine, seed + 3));
  const d = gan.transformer.outputDim;
  const z = engine.scope(() => engine.noGrad(() => s.net.forward(engine.tensor(x, [t.rows, d])).data.slice()));
  return Float64Array.from(z, (v) => 1 / (1 + Math.exp(-v)));
}

function runLucid(engine: Engine, model: BlackBox | undefined, n: number, seed: number, epochs: number, role: (c: string) => Distribution['role']): LucidSection {
  if (!model) return { ran: false, reason: 'the model is a predictions column; LUCID needs a differentiable model' };
  const clf = model.differentiable;
  if (!clf) return { ran: false, reason: `the model (${model.kind}: ${model.source}) gives no gradients; LUCID needs the built-in classifier` };
  const r = invert(engine, clf, { prefer: 'positive', n, epochs, seed });
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
