// How an audit draws its canonical sets: from several LUCID-GANs (one per seed), each set
// drawn at prediction 1 or 0 and filtered by rejection. Core code: no Node imports.
//
// Rejection sampling: the generator trained with the published loss is sampled at the condition;
// a row is kept when the audited model (or, for a predictions column, a surrogate of it) scores it on
// the conditioned side. Before it is scored, the columns the data ties to others are written from them
// (src/data/relations.ts: an exact dependency's column from its determinant, an arithmetic relation's
// target from its terms), so drawn rows keep them by construction rather than by rejection, which
// reshaped the sets; a row is still rejected when it contradicts a dependency no derivation
// covers (src/data/dependencies.ts) or a derived number falls outside its column's observed range.
// The acceptance rate (rows the scorer puts on the conditioned side / rows drawn) is the validity
// before filtering. Draws are capped at CANONICAL_DEFAULTS.drawCap rows per row wanted: when the cap is
// hit, the set is smaller than asked and says so; it is never padded with unfiltered rows. Numbers are
// clipped into the observed range of the audited rows (the transformer's inverse). With a correction
// (correct.ts) more candidates are drawn this way and the set is resampled from them by a
// real-vs-generated classifier's odds.
import { check } from '../engine/errors.js';
import type { Engine } from '../engine/engine.js';
import { Rng } from '../engine/rng.js';
import { concatFloat64, concatRows, selectRows, type CategoricalColumn, type Table } from '../data/table.js';
import { contradictions, type Dependency } from '../data/dependencies.js';
import { derive, planDerivations, type Derivation, type Relation } from '../data/relations.js';
import type { BlackBox } from '../models/blackbox.js';
import { DEFAULT_DECISION, decide, type DecisionRule } from '../methods/metrics/index.js';
import { builtinBlackBox } from '../models/blackbox.js';
import { Classifier } from '../models/classifier/classifier.js';
import type { LucidGan, SampleResult } from '../models/lucidgan/model.js';
import { classifierWeights, CORRECTION_DEFAULTS, essShare, weightedSample, type CorrectionStats } from './correct.js';

export const CANONICAL_DEFAULTS = {
  /** GAN seed k of an audit with seed s is s + k · seedStride (k = 0: the audit's own seed) */
  seedStride: 1_000_003,
  /** most rows drawn per row wanted, per set */
  drawCap: 20,
  /** the surrogate of a predictions column: share of rows held out to measure its agreement */
  surrogateHoldout: 0.2,
};

/** The number of GANs an audit trains: a positive integer (the plan's check, and ganSeedsFor's for other callers). */
export function checkGanSeeds(k: number): void {
  check(Number.isSafeInteger(k) && k >= 1, 'E_ARG', () => `audit: ganSeeds must be a positive integer, got ${k}`);
}

/** The GAN seeds of an audit with seed `seed` and `k` GANs. */
export function ganSeedsFor(seed: number, k: number): number[] {
  checkGanSeeds(k);
  return Array.from({ length: k }, (_, i) => seed + i * CANONICAL_DEFAULTS.seedStride);
}

/**
 * The sampling seed of round `round` of draw `purpose` from the GAN with seed `ganSeed`: a mix of the
 * three (so no two draws of an audit share a stream), inside the safe integers.
 */
/** The seed of the surrogate's held-out split (the surrogate itself trains from the audit seed). */
export const surrogateSplitSeed = (seed: number): number => drawSeed(seed, 9_000_002, 0);

export function drawSeed(ganSeed: number, purpose: number, round: number): number {
  let h = (ganSeed % 2 ** 32) ^ Math.imul(purpose + 1, 0x9e3779b1) ^ Math.imul(round + 1, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) + 2 ** 32 * (Math.floor(ganSeed / 2 ** 32) % 2 ** 20);
}

/** What scores generated rows: the audited model, or a surrogate fitted to a predictions column. */
export interface Scorer {
  kind: 'model' | 'surrogate';
  source: string;
  /**
   * how a score becomes the positive decision: the audit's rule for the model, 0.5 for a surrogate (its score is
   * P(decision = 1))
   */
  decision: DecisionRule;
  score(t: Table): Promise<Float64Array>;
  /** surrogate: share of held-out rows on which it gives the same decision as the predictions column */
  agreement?: { rate: number; rows: number };
  /** frees what the scorer owns (the surrogate's weights) */
  dispose?: () => void;
  /**
   * A score, class or real value audited by two of its targets (stages/sides.ts): the side of each score — 1 the
   * favoured target, 0 the other, 2 neither (a row in neither is on no side) — instead of `decision`'s 0/1.
   */
  sides?: (scores: ArrayLike<number>) => Uint8Array;
}

export function modelScorer(model: BlackBox, decision: DecisionRule = DEFAULT_DECISION): Scorer {
  return { kind: 'model', source: model.source, decision, score: (t) => model.predict(t) };
}

/**
 * A surrogate of a predictions column: the built-in classifier (default MLP) trained to reproduce the
 * decisions `yhat` from `features` of `table`, its agreement measured on a seeded held-out share of
 * the rows, then refitted on every row. Null when the decisions are all one class.
 */
export function surrogateScorer(
  engine: Engine,
  table: Table,
  features: readonly string[],
  yhat: Uint8Array,
  seed: number,
): Scorer | null {
  const pos = yhat.reduce((s, y) => s + y, 0);
  if (pos === 0 || pos === yhat.length || table.rows < 20) return null;
  const target = '__lucid_decision__';
  const label: CategoricalColumn = {
    kind: 'categorical',
    name: target,
    codes: Int32Array.from(yhat),
    categories: ['0', '1'],
  };
  const cols = features.map((f) => table.columns.find((c) => c.name === f)).filter((c) => c !== undefined);
  const t: Table = { rows: table.rows, columns: [...cols, label] };
  const perm = new Rng(engine, surrogateSplitSeed(seed)).permutation(t.rows);
  const nHold = Math.max(1, Math.round(t.rows * CANONICAL_DEFAULTS.surrogateHoldout));
  const hold = selectRows(t, perm.subarray(0, nHold));
  const fit = selectRows(t, perm.subarray(nHold));
  const probe = Classifier.train(engine, fit, {
    label: target,
    positive: '1',
    seed,
    where: 'surrogate of the predictions',
  });
  let agree = 0;
  try {
    const p = probe.model.predictProba(engine, hold, 'surrogate');
    const hy = (hold.columns[hold.columns.length - 1] as CategoricalColumn).codes;
    for (let i = 0; i < hold.rows; i++) if ((p[i] > 0.5 ? 1 : 0) === hy[i]) agree++;
  } finally {
    probe.model.dispose();
  }
  // the surrogate itself: every row, as many epochs as the held-out fit chose (no rows left to stop on)
  const final = Classifier.train(engine, t, {
    label: target,
    positive: '1',
    seed,
    valFraction: 0,
    epochs: Math.max(1, probe.bestEpoch),
    where: 'surrogate of the predictions',
  }).model;
  const box = builtinBlackBox(engine, final, 'the surrogate of the predictions column');
  return {
    kind: 'surrogate',
    source: box.source,
    decision: DEFAULT_DECISION,
    score: (x) => box.predict(x),
    agreement: { rate: agree / hold.rows, rows: hold.rows },
    dispose: () => final.dispose(),
  };
}

/** How one set was drawn. */
export interface DrawStats {
  /** rows asked for and rows kept */
  wanted: number;
  kept: number;
  /** rows generated */
  drawn: number;
  /**
   * of the drawn rows, the share the scorer puts on the conditioned side: the validity before filtering (null without a
   * scorer)
   */
  acceptance: number | null;
  /** drawn rows that contradicted an exact dependency of the data the draw could not derive (rejected) */
  contradicting: number;
  /**
   * drawn rows where a column derived from others (a relation of the data) fell outside its observed range (rejected);
   * absent in older audits, which did not derive columns
   */
  derivedOutOfRange?: number;
  /** drawn rows with a number clipped into its column's observed range */
  clippedRows: number;
  /** the draw cap was reached before `wanted` rows were kept */
  capped: boolean;
  /** the classifier correction (correct.ts), when one was asked for */
  correction?: CorrectionStats;
}

export interface CanonicalDraw {
  /** the kept rows (at most `wanted`) */
  table: Table;
  /** the scorer's P(positive) of each kept row (null without a scorer) */
  scores: Float64Array | null;
  stats: DrawStats;
  fixTraining?: SampleResult['fixTraining'];
  /** with fix: share of the kept rows holding every fixed value */
  fixSatisfied?: number;
}

/**
 * How the generator is conditioned when a set is drawn:
 * - 'extreme': the paper's: the prediction condition is exactly 1 (positive set) or 0 (negative), the
 *   cond vector all zeros (a state training never shows the generator);
 * - 'observed': the prediction condition of each row is the score of a real row the model puts on that
 *   side (so the set estimates P(x | f(x) = side), not P(x | score = 1)), the cond vector all zeros;
 * - 'matched': as training conditions the generator, on rows of that side: each generated row takes a
 *   real row of the side, its score as the condition and its category in a random discrete column as
 *   the cond vector (a fixed intersection keeps its fixed cond vector).
 */
export type ConditionMode = 'extreme' | 'observed' | 'matched';
export const CONDITION_MODES: readonly ConditionMode[] = ['extreme', 'observed', 'matched'];

export interface DrawOptions {
  /** 1: the positive set (prediction 1), 0: the negative one */
  side: 0 | 1;
  condition: ConditionMode;
  /** the GAN's training rows the model puts on this side (for 'observed' and 'matched') */
  sideRows: Int32Array;
  /** the GAN's prediction condition */
  predName: string;
  fix: [string, string][];
  rows: number;
  /** the sampling seed of each round */
  seedOf: (round: number) => number;
  scorer: Scorer | null;
  /** how a score becomes the decision: the audit's rule, or the scorer's own (a surrogate's) */
  decision: DecisionRule;
  /** observed range per numeric column */
  range: Record<string, readonly [number, number]>;
  dependencies: readonly Dependency[];
  /** the near-exact arithmetic relations of the data: derived, with dependencies, rather than rejected */
  relations?: readonly Relation[];
  /** the protected columns (a dependency is derived into one only when no other way keeps it) */
  protectedColumns?: ReadonlySet<string>;
  /** most rows drawn (default rows · CANONICAL_DEFAULTS.drawCap, times the correction's factor with one) */
  cap?: number;
  /**
   * The classifier correction (correct.ts): factor (default CORRECTION_DEFAULTS.factor) × rows candidates are drawn as
   * the set would be, and the set is `rows` of them resampled by a real-vs-generated classifier's
   * odds. real: the real rows of the side (the GAN's training rows); features: the columns it reads.
   */
  correct?: { real: Table; features: readonly string[]; seed: number; factor?: number; hidden?: number[] };
}

/** Draws one canonical set by rejection (see the file comment). Deterministic for the given seeds. */
export async function drawCanonical(gan: LucidGan, o: DrawOptions): Promise<CanonicalDraw> {
  // rows to keep by rejection: the set's, or the correction's candidates
  const factor = o.correct ? (o.correct.factor ?? CORRECTION_DEFAULTS.factor) : 1;
  const want = o.rows * factor;
  const cap = o.cap ?? want * CANONICAL_DEFAULTS.drawCap;
  const parts: Table[] = [];
  const scoreParts: Float64Array[] = [];
  let kept = 0;
  let drawn = 0;
  let accepted = 0;
  let contradicting = 0;
  let clippedRows = 0;
  let derivedOutOfRange = 0;
  // the scorer gives P(positive) (the model's, or the surrogate's of the decision), decided by the draw's rule
  const rule = o.decision;
  // the columns written from others (planned on the first draw's columns; a fixed column never)
  let plan: Derivation[] | null = null;
  let fixTraining: SampleResult['fixTraining'];
  // the real rows a generated row is conditioned like: the side's, holding the fixed values when any do
  let pool: Int32Array | null = null;
  if (o.condition !== 'extreme' && o.sideRows.length > 0) {
    pool = o.sideRows;
    if (o.fix.length) {
      const holding = new Set(gan.sampler.matchingRows(gan.sampler.resolveFix(o.fix)));
      const both = o.sideRows.filter((r) => holding.has(r));
      if (both.length > 0) pool = both;
    }
  }
  for (let round = 0; kept < want && drawn < cap; round++) {
    const need = want - kept;
    // the first round draws what is wanted; later ones what the acceptance so far suggests, plus 10%
    const rate = drawn > 0 ? Math.max(kept / drawn, 1 / CANONICAL_DEFAULTS.drawCap) : 1;
    const m = Math.min(cap - drawn, Math.max(need, Math.ceil((need / rate) * 1.1)));
    let rows: Int32Array | undefined;
    if (pool) {
      const p = pool;
      const u = new Rng(gan.engine, o.seedOf(round) + 1).uniformHost(m);
      rows = Int32Array.from(u, (x) => p[Math.min(p.length - 1, Math.floor(x * p.length))]);
    }
    const s = gan.sample({
      n: m,
      conditions: rows ? {} : { [o.predName]: o.side },
      rows,
      fix: o.fix,
      condVector: rows && o.condition === 'matched' && o.fix.length === 0 ? 'rows' : 'zero',
      seed: o.seedOf(round),
      range: o.range,
    });
    fixTraining ??= s.fixTraining;
    drawn += m;
    clippedRows += s.rowsClipped;
    plan ??= planDerivations(
      o.dependencies,
      o.relations ?? [],
      s.table,
      new Set(o.fix.map(([c]) => c)),
      o.protectedColumns,
    );
    const { table: drawnRows, outOfRange } = derive(plan, s.table, o.range);
    const bad = o.dependencies.length ? contradictions(o.dependencies, drawnRows).rows : null;
    const scores = o.scorer ? await o.scorer.score(drawnRows) : null;
    const decided = scores ? (o.scorer!.sides ? o.scorer!.sides(scores) : decide(rule, scores)) : null;
    const keep: number[] = [];
    for (let i = 0; i < m; i++) {
      const onSide = decided === null || decided[i] === o.side;
      if (onSide) accepted++;
      if (bad?.[i]) contradicting++;
      if (outOfRange[i]) derivedOutOfRange++;
      if (onSide && !bad?.[i] && !outOfRange[i] && kept + keep.length < want) keep.push(i);
    }
    if (keep.length) {
      parts.push(selectRows(drawnRows, keep));
      if (scores) scoreParts.push(Float64Array.from(keep, (i) => scores[i]));
      kept += keep.length;
    }
  }
  let table = parts.length
    ? concatRows(parts, 'canonical set')
    : selectRows(
        gan.sample({
          n: 1,
          conditions: { [o.predName]: o.side },
          fix: o.fix,
          condVector: 'zero',
          seed: o.seedOf(0),
          range: o.range,
        }).table,
        [],
      );
  let scores = o.scorer ? (scoreParts.length ? concatScores(scoreParts) : new Float64Array(0)) : null;
  let correction: CorrectionStats | undefined;
  if (o.correct) {
    const candidates = kept;
    const skip =
      o.correct.real.rows < CORRECTION_DEFAULTS.minReal
        ? `${o.correct.real.rows} real rows on the side (fewer than ${CORRECTION_DEFAULTS.minReal})`
        : candidates < 2 * o.rows
          ? `${candidates} candidates for ${o.rows} rows (the draw cap was reached)`
          : null;
    let pick: Int32Array;
    if (skip) {
      pick = Int32Array.from({ length: Math.min(o.rows, candidates) }, (_, i) => i);
      correction = { candidates, ess: 1, skipped: skip };
    } else {
      const realMax = o.rows * CORRECTION_DEFAULTS.realPerRow;
      const { weights, meanReal } = classifierWeights(
        gan.engine,
        o.correct.real,
        table,
        o.correct.features,
        o.correct.seed,
        { realMax, ...(o.correct.hidden ? { hidden: o.correct.hidden } : {}) },
      );
      pick = weightedSample(gan.engine, weights, o.rows, o.correct.seed + 3);
      correction = { candidates, ess: essShare(weights), meanReal };
    }
    table = selectRows(table, pick);
    if (scores) scores = Float64Array.from(pick, (i) => scores![i]);
    kept = pick.length;
  }
  const out: CanonicalDraw = {
    table,
    scores,
    stats: {
      wanted: o.rows,
      kept,
      drawn,
      acceptance: o.scorer && drawn > 0 ? accepted / drawn : null,
      contradicting,
      derivedOutOfRange,
      clippedRows,
      capped: kept < o.rows,
      ...(correction ? { correction } : {}),
    },
  };
  if (o.fix.length) {
    if (fixTraining) out.fixTraining = fixTraining;
    out.fixSatisfied = satisfied(table, o.fix);
  }
  return out;
}

/** Float64Arrays one after the other (the kept rows' scores of several draws). */
export const concatScores = concatFloat64;

/** Share of rows holding every fixed (column, label). */
function satisfied(t: Table, fix: [string, string][]): number {
  if (t.rows === 0) return 0;
  let ok = 0;
  const cols = fix.map(([name, label]) => {
    const c = t.columns.find((x) => x.name === name);
    return c && c.kind === 'categorical' ? { codes: c.codes, code: c.categories.indexOf(label) } : null;
  });
  for (let i = 0; i < t.rows; i++) if (cols.every((c) => c !== null && c.code >= 0 && c.codes[i] === c.code)) ok++;
  return ok / t.rows;
}

/** The smallest and largest value of every numeric column (columns without a finite value left out). */
export function observedRanges(t: Table): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const c of t.columns) {
    if (c.kind !== 'numeric') continue;
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of c.values) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo <= hi) out[c.name] = [lo, hi];
  }
  return out;
}

/**
 * One side of a comparison as written for people: its rows with a last column `gan_seed`, the seed of
 * the GAN each row came from (the pooled rows are in seed order). Unchanged without per-seed draws.
 */
export function withSeedColumn(
  c: { positive: Table; negative: Table; draws?: { seed: number; positive: DrawStats; negative: DrawStats }[] },
  side: 'positive' | 'negative',
): Table {
  const t = c[side];
  if (!c.draws || c.draws.length === 0) return t;
  const seeds = new Float64Array(t.rows);
  let at = 0;
  for (const d of c.draws) {
    seeds.fill(d.seed, at, Math.min(t.rows, at + d[side].kept));
    at += d[side].kept;
  }
  const name = t.columns.some((x) => x.name === 'gan_seed') ? 'gan_seed_' : 'gan_seed';
  return { rows: t.rows, columns: [...t.columns, { kind: 'numeric', name, values: seeds }] };
}
