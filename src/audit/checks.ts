// Checks of the canonical sets against the real rows: a canonical set estimates the real rows on its side
// of the decision (P(x | f(x) = 1) or P(x | f(x) = 0)), and the audited rows are a sample of both.
// Core code: no Node imports. Every draw comes from the Rng it is given.
//
// The positive canonical set estimates P(x | f(x) = 1), and the audit holds an empirical sample of the
// same distribution: the real rows the model scores positive (likewise negative). So every figure a
// canonical set gives can be checked against the data it came from.
//
// Fidelity, per feature and side (src/methods/quality/fidelity.ts): the distance between the generated
// set and the real rows the model scores on that side, beside its noise floor.
//
// Direction, per value v of a checked feature (a category, a bin, or the median of a numeric one),
// taken from the favourable side (one coding convention: the same decisions coded the other way give
// the same shifts; with --favourable positive the favourable set is the positive one):
//   canonical shift = share(v | favourable set) − share(v | unfavourable set), for each GAN seed;
//   real shift      = share(v | rows given the favourable decision) − share(v | the other rows), with its
//                     bootstrap standard error (rows resampled with replacement, both shares recomputed;
//                     CHECK_DEFAULTS.shiftResamples resamples) and, after correctShiftChecks, an interval
//                     at the corrected level of the audit's verdicts (Holm over every check).
// The median shift is median(favourable) − median(unfavourable) the same way. Status:
//   'within noise' — the real interval covers 0 (or a side has no real row): the data cannot tell the
//                    direction, so any canonical shift there is "generated only, not confirmed";
//   'agrees'       — the interval excludes 0, every seed's canonical shift has the data's sign, and the
//                    pooled canonical shift is consistent with the real one in size: inside the real
//                    interval widened by the canonical sets' own sampling noise (±z·se of the pooled
//                    sets: binomial for a share, a bootstrap of the generated rows for a median);
//   'overstates' / 'understates' — the sign agrees (every seed), the size does not: the pooled shift
//                    lies beyond (short of) the widened interval. The finding then states the real
//                    figure, the canonical one as context;
//   'disagrees'    — the interval excludes 0 and every seed shifts the other way: the sets contradict
//                    the data;
//   'unsettled'    — the interval excludes 0 but the seeds do not share a sign (or one is 0, or a
//                    seed's set on a side is empty: NaN): the sets do not settle it either way.
// The data's direction is stated for 'agrees', 'overstates' and 'understates' (findings.ts).
import { check } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import { drawSeed } from './canonical.js';
import { cellLabels, concatFloat64, type Column, type Table } from '../data/table.js';
import { FIDELITY_DEFAULTS, numbersOf, rankCodes } from '../methods/quality/fidelity.js';
import { assignBin, binLabels, quantileBins, quantileSorted } from './bins.js';
import { correctedLevel, holm, normalCdf, normalQuantile } from '../methods/metrics/verdicts.js';
import { jsDistance } from './js-distance.js';

/**
 * Distributions of one feature in two or more sets, e.g. the positive and negative canonical sets and
 * the real data. `share` values are fractions that sum to 1 per series (over the bins/categories).
 */
export interface Distribution {
  feature: string;
  kind: 'numeric' | 'categorical';
  /** numeric: k + 1 common bin edges for every series */
  edges?: number[];
  /** categorical: the k categories, in the order of `share` */
  categories?: string[];
  /**
   * series[0] and series[1] are the pair compared by `js`; any further series are reference. A reference
   * series with `of` is the real counterpart of series[of] (the real rows the model scores on that
   * side), drawn in its colour; one without is drawn in grey. `range`: per bin or category, the lowest
   * and highest share over the GAN seeds (series 0 and 1 of audits with several seeds).
   */
  series: { name: string; share: number[]; n: number; of?: number; range?: { lo: number[]; hi: number[] } }[];
  /** Jensen–Shannon distance (base-2 logs, in [0, 1]) between series[0] and series[1] over the bins/categories */
  js: number;
  /** the same for each GAN seed's pair of sets alone (on the same bins) */
  jsSeeds?: number[];
  /** the same between the real rows the model scores positive and negative (the counterparts of series 0 and 1) */
  jsReal?: number;
  /**
   * 'protected': a protected attribute the model reads; 'proxy': a protected attribute the model does not read;
   * 'feature': anything else
   */
  role: 'protected' | 'proxy' | 'feature';
}

export {
  fidelity,
  tvLabels,
  type FeatureFidelity,
  type FidelityMetric,
  type SideFidelity,
} from '../methods/quality/fidelity.js';

export const CHECK_DEFAULTS = {
  /** bootstrap resamples of the real shifts' intervals */
  shiftResamples: 1000,
  /** two-sided level of the real shifts' intervals */
  confidence: 0.95,
  /** a feature is faithfully generated on a side within max(noise floor, this) (methods/quality/fidelity.ts) */
  fidelityTolerance: FIDELITY_DEFAULTS.tolerance,
  /** bootstrap resamples of the pooled generated rows for a canonical median shift's noise */
  canonicalResamples: 200,
  /**
   * the real rows' separation of each feature (realSeparation): bootstrap resamples and permutations of the decisions
   */
  separationResamples: 200,
  separationPermutations: 40,
  /** numeric features are checked on this many quantile bins of the real rows (deciles) */
  numericBins: 10,
  /** the features the findings name (by canonical JS) whose values are checked, besides the protected ones */
  topFeatures: 5,
};

export type ShiftStatus = 'agrees' | 'overstates' | 'understates' | 'disagrees' | 'unsettled' | 'within noise';
/** The statuses under which the data's direction is stated (the seeds share it; the size may be the real rows'). */
export const STATED_STATUSES: readonly ShiftStatus[] = ['agrees', 'overstates', 'understates'];
/** Each status in a few words, for tables and policy results (the report's sentences are its own). */
export const SHIFT_STATUS_WORDS: Record<ShiftStatus, string> = {
  agrees: 'data agrees',
  overstates: 'the sets overstate the size',
  understates: 'the sets understate the size',
  disagrees: 'data disagrees',
  unsettled: 'the seeds differ in sign',
  'within noise': 'within noise',
};

export interface RealShift {
  /** the point estimate on all rows, favourable side − unfavourable side (null when a side has no real row) */
  shift: number | null;
  /**
   * the interval at the check's corrected level (after `correctShiftChecks`; before it, the bootstrap percentile
   * interval)
   */
  lo: number | null;
  hi: number | null;
  /** the bootstrap standard error of the shift */
  se?: number | null;
  /** two-sided p-value of "no shift", 2Φ(−|shift|/se), and its Holm-adjusted value over the audit's checks */
  p?: number | null;
  pAdjusted?: number | null;
  /** the corrected level α·p/p̃: the interval's confidence is 1 − level */
  level?: number | null;
  /** real rows on each side */
  positiveRows: number;
  negativeRows: number;
  /** the share (or median) on each side (by the model's decision, as named) */
  positive: number | null;
  negative: number | null;
}

export interface ShiftCheck {
  feature: string;
  role: Distribution['role'];
  /** a category, a bin label, or "median" */
  value: string;
  kind: 'share' | 'median';
  /**
   * the canonical shift of each GAN seed's sets (in `seeds` order): favourable set − unfavourable set (see the file
   * comment)
   */
  canonical: number[];
  /** the canonical shift of all seeds' sets pooled */
  pooled: number;
  /** the shares (or medians) in the pooled positive and negative sets (by the model's decision, as named) */
  positive: number;
  negative: number;
  /**
   * the sampling standard error of `pooled` from the pooled sets' own sizes (binomial for a share, a bootstrap of the
   * generated rows for a median); null when a set is empty
   */
  canonicalSe: number | null;
  real: RealShift;
  status: ShiftStatus;
  /** seeds whose canonical shift has the sign of the real shift (0 when the real shift has none) */
  seedsWithDataSign: number;
}

/** A feature as the checks see it: each row's value index, for the real rows and for any generated set. */
export interface CheckVariable {
  feature: string;
  role: Distribution['role'];
  values: string[];
  /** value index of each real row (−1: missing) */
  real: Int32Array;
  codeOf(t: Table): Int32Array;
  /** numeric features: the raw values, for the median shift */
  numeric?: { real: Float64Array; of(t: Table): Float64Array };
}

const colOf = (t: Table, name: string): Column | undefined => t.columns.find((c) => c.name === name);

/** A categorical feature: its values are the labels the real rows hold, in dictionary order. */
export function categoricalVariable(real: Table, feature: string, role: Distribution['role']): CheckVariable {
  const col = colOf(real, feature);
  check(col !== undefined, 'E_ARG', () => `checks: "${feature}" is not a column of the data`);
  const labels = cellLabels(col!);
  const values: string[] = [];
  const index = new Map<string, number>();
  if (col!.kind === 'categorical') for (const l of col!.categories) if (!index.has(l)) index.set(l, -1);
  for (const l of labels) if (l !== '' && !index.has(l)) index.set(l, -1);
  const present = new Set(labels);
  for (const l of index.keys())
    if (present.has(l)) {
      index.set(l, values.length);
      values.push(l);
    }
  const code = (ls: string[]) => Int32Array.from(ls, (l) => index.get(l) ?? -1);
  return {
    feature,
    role,
    values,
    real: code(labels),
    codeOf: (t) =>
      code(
        cellLabels(
          colOf(t, feature) ?? {
            kind: 'categorical',
            name: feature,
            codes: new Int32Array(t.rows).fill(-1),
            categories: [],
          },
        ),
      ),
  };
}

/** A numeric feature on given bins (a protected attribute's edges), values outside clamped to the end bins. */
export function binnedVariable(
  real: Table,
  feature: string,
  role: Distribution['role'],
  edges: readonly number[],
  labels: readonly string[] = binLabels(edges),
  withMedian = true,
): CheckVariable {
  const r = numbersOf(colOf(real, feature), real.rows);
  const bin = (v: Float64Array) => Int32Array.from(v, (x) => assignBin(x, edges, true));
  const of = (t: Table) => numbersOf(colOf(t, feature), t.rows);
  const v: CheckVariable = { feature, role, values: labels.slice(), real: bin(r), codeOf: (t) => bin(of(t)) };
  if (withMedian) v.numeric = { real: r, of };
  return v;
}

/** A numeric feature on the quantile bins (deciles by default) of the real rows, with its median. */
export function numericVariable(
  real: Table,
  feature: string,
  role: Distribution['role'],
  bins = CHECK_DEFAULTS.numericBins,
): CheckVariable {
  const r = numbersOf(colOf(real, feature), real.rows);
  const b = quantileBins(r, bins);
  return binnedVariable(real, feature, role, b.edges, b.labels, true);
}

/** The cells of two variables (e.g. a heat map's): values "a & b". */
export function cellVariable(a: CheckVariable, b: CheckVariable): CheckVariable {
  const values: string[] = [];
  for (const x of a.values) for (const y of b.values) values.push(`${x} & ${y}`);
  const join = (ca: Int32Array, cb: Int32Array) =>
    Int32Array.from(ca, (x, i) => (x < 0 || cb[i] < 0 ? -1 : x * b.values.length + cb[i]));
  return {
    feature: `${a.feature} × ${b.feature}`,
    role: a.role === 'feature' ? b.role : a.role,
    values,
    real: join(a.real, b.real),
    codeOf: (t) => join(a.codeOf(t), b.codeOf(t)),
  };
}

/** Shares per value of the rows with `side` (yhat ∈ {0, 1}) or of a whole set (side −1). */
function shares(
  codes: Int32Array,
  k: number,
  yhat: Uint8Array | null,
  side: number,
): { share: Float64Array; n: number } {
  const counts = new Float64Array(k);
  let n = 0;
  for (let i = 0; i < codes.length; i++) {
    if (yhat && yhat[i] !== side) continue;
    const c = codes[i];
    if (c < 0) continue;
    counts[c]++;
    n++;
  }
  if (n > 0) for (let j = 0; j < k; j++) counts[j] /= n;
  return { share: counts, n };
}

function median(v: Float64Array): number {
  const s = v.filter(Number.isFinite).sort();
  return s.length ? quantileSorted(s, 0.5) : NaN;
}

/** The value at sorted position `pos` (0-based) of a multiset given by counts over sorted distinct values. */
function valueAt(counts: ArrayLike<number>, distinct: Float64Array, pos: number): number {
  let cum = 0;
  for (let j = 0; j < counts.length; j++) {
    cum += counts[j];
    if (pos < cum) return distinct[j];
  }
  return NaN;
}

/** The median of such a multiset of n values (numpy's linear interpolation, as quantileSorted). */
function medianOfCounts(counts: ArrayLike<number>, distinct: Float64Array, n: number): number {
  if (n === 0) return NaN;
  const pos = 0.5 * (n - 1);
  const lo = Math.floor(pos);
  const a = valueAt(counts, distinct, lo);
  return pos === lo ? a : a + (valueAt(counts, distinct, lo + 1) - a) * (pos - lo);
}

const sign = (x: number): number => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * A check's status (see the file comment) from the seeds' canonical shifts, the pooled one and its
 * noise, and the real shift's interval [lo, hi] at the normal quantile z; `s` is the data's sign (0:
 * the interval covers 0). Also how many seeds have the data's sign.
 */
export function shiftStatus(
  canonical: readonly number[],
  pooled: number,
  canonicalSe: number | null,
  real: { lo: number | null; hi: number | null },
  s: number,
  z: number,
): { status: ShiftStatus; seedsWithDataSign: number } {
  if (s === 0 || real.lo === null || real.hi === null) return { status: 'within noise', seedsWithDataSign: 0 };
  const withSign = canonical.filter((x) => sign(x) === s).length;
  if (withSign === canonical.length && canonical.length > 0) {
    const w = z * (canonicalSe ?? 0);
    const lo = real.lo - w;
    const hi = real.hi + w;
    if (Number.isFinite(pooled) && pooled >= lo && pooled <= hi)
      return { status: 'agrees', seedsWithDataSign: withSign };
    // beyond the widened interval on the data's side: larger in size; short of it: smaller
    const over = s > 0 ? pooled > hi : pooled < lo;
    return { status: over ? 'overstates' : 'understates', seedsWithDataSign: withSign };
  }
  if (canonical.length > 0 && canonical.every((x) => sign(x) === -s))
    return { status: 'disagrees', seedsWithDataSign: 0 };
  return { status: 'unsettled', seedsWithDataSign: withSign };
}

/** The standard error of a difference of two shares p (of n) and q (of m); null when a side is empty. */
const shareDiffSe = (p: number, n: number, q: number, m: number): number | null =>
  n > 0 && m > 0 ? Math.sqrt((p * (1 - p)) / n + (q * (1 - q)) / m) : null;

/** Counts per value (codes 0 … k−1; −1 skipped) of the rows on each side, over `rows` (a resample) or every row. */
function sideCounts(
  codes: Int32Array,
  k: number,
  yhat: Uint8Array,
  rows: Int32Array | null,
): { pos: Float64Array; neg: Float64Array; nPos: number; nNeg: number } {
  const pos = new Float64Array(k);
  const neg = new Float64Array(k);
  let nPos = 0;
  let nNeg = 0;
  const n = rows ? rows.length : codes.length;
  for (let i = 0; i < n; i++) {
    const row = rows ? rows[i] : i;
    const c = codes[row];
    if (c < 0) continue;
    if (yhat[row]) {
      pos[c]++;
      nPos++;
    } else {
      neg[c]++;
      nNeg++;
    }
  }
  return { pos, neg, nPos, nNeg };
}

/**
 * The direction check of every value of every variable: canonical shifts per seed against the real
 * shift and its bootstrap interval (see the file comment). `sets` holds each GAN seed's positive and
 * negative set; `yhat` the model's decision on each real row.
 */
export function shiftChecks(
  vars: readonly CheckVariable[],
  yhat: Uint8Array,
  sets: readonly { positive: Table; negative: Table }[],
  rng: Rng,
  opts: { resamples?: number; confidence?: number; favourable?: 'positive' | 'negative' } = {},
): ShiftCheck[] {
  const R = opts.resamples ?? CHECK_DEFAULTS.shiftResamples;
  const conf = opts.confidence ?? CHECK_DEFAULTS.confidence;
  check(Number.isSafeInteger(R) && R >= 1, 'E_ARG', () => `checks: resamples must be a positive integer, got ${R}`);
  check(conf > 0 && conf < 1, 'E_ARG', () => `checks: confidence must be in (0, 1), got ${conf}`);
  check(sets.length > 0, 'E_ARG', () => "checks: give at least one seed's canonical sets");
  const N = yhat.length;
  for (const v of vars)
    check(
      v.real.length === N,
      'E_SHAPE',
      () => `checks: "${v.feature}" has ${v.real.length} real rows, the predictions ${N}`,
    );

  // the canonical side: per seed and pooled
  interface Canon {
    perSeed: number[][];
    pooled: number[];
    pos: number[];
    neg: number[];
    nPos: number;
    nNeg: number;
    medianSets: [Float64Array, Float64Array] | null;
  }
  const canon: Canon[] = vars.map((v) => {
    const k = v.values.length;
    const perSeed = v.values.map(() => [] as number[]);
    const sumPos = new Float64Array(k),
      sumNeg = new Float64Array(k);
    let tp = 0,
      tn = 0;
    const medPos: Float64Array[] = [],
      medNeg: Float64Array[] = [];
    const medSeed: number[] = [];
    for (const s of sets) {
      const p = shares(v.codeOf(s.positive), k, null, -1);
      const q = shares(v.codeOf(s.negative), k, null, -1);
      // a seed whose set on either side is empty has no shift (NaN): it can never agree with the data
      const both = p.n > 0 && q.n > 0;
      for (let j = 0; j < k; j++) {
        perSeed[j].push(both ? p.share[j] - q.share[j] : NaN);
        sumPos[j] += p.share[j] * p.n;
        sumNeg[j] += q.share[j] * q.n;
      }
      tp += p.n;
      tn += q.n;
      if (v.numeric) {
        const a = v.numeric.of(s.positive);
        const b = v.numeric.of(s.negative);
        medPos.push(a);
        medNeg.push(b);
        medSeed.push(median(a) - median(b));
      }
    }
    const pos = Array.from(sumPos, (x) => (tp > 0 ? x / tp : NaN));
    const neg = Array.from(sumNeg, (x) => (tn > 0 ? x / tn : NaN));
    const pooled = pos.map((x, j) => x - neg[j]);
    let medianSets: [Float64Array, Float64Array] | null = null;
    if (v.numeric) {
      perSeed.push(medSeed);
      medianSets = [concatFloat64(medPos), concatFloat64(medNeg)];
      const mp = median(medianSets[0]),
        mn = median(medianSets[1]);
      pos.push(mp);
      neg.push(mn);
      pooled.push(mp - mn);
    }
    return { perSeed, pooled, pos, neg, nPos: tp, nNeg: tn, medianSets };
  });

  // the real side: point estimates and bootstrap replicates, from counts per value on each side
  const ranks = vars.map((v) => (v.numeric ? rankCodes(v.numeric.real) : null));
  const stats = (
    v: CheckVariable,
    vi: number,
    rows: Int32Array | null,
  ): { shares: number[]; pos: number[]; neg: number[]; nPos: number; nNeg: number } => {
    const k = v.values.length;
    const c = sideCounts(v.real, k, yhat, rows);
    const pos = Array.from(c.pos, (x) => (c.nPos > 0 ? x / c.nPos : 0));
    const neg = Array.from(c.neg, (x) => (c.nNeg > 0 ? x / c.nNeg : 0));
    if (v.numeric) {
      const rk = ranks[vi]!;
      const m = sideCounts(rk.code, rk.distinct.length, yhat, rows);
      pos.push(medianOfCounts(m.pos, rk.distinct, m.nPos));
      neg.push(medianOfCounts(m.neg, rk.distinct, m.nNeg));
    }
    return { shares: pos.map((x, j) => x - neg[j]), pos, neg, nPos: c.nPos, nNeg: c.nNeg };
  };
  const point = vars.map((v, vi) => stats(v, vi, null));
  const reps = vars.map((v) =>
    Array.from({ length: v.values.length + (v.numeric ? 1 : 0) }, () => new Float64Array(R)),
  );
  // The resamples, fused (the figures are those of `stats` on each resample, bit for bit): every
  // variable's counts (and a numeric one's rank counts) are blocks of one Float64Array, and each real
  // row's slot in every block (its value's count on its side, −1 when missing) is found once, so a
  // resample is one pass over its rows that adds 1 to a few precomputed slots, with no per-resample
  // allocation. Counts are small integers, so the order they are added in cannot change a figure.
  // (It replaced one sideCounts pass per variable and resample plus the arrays stats builds: most
  // of the checks stage.)
  interface Block {
    off: number;
    k: number;
  }
  const blocks: Block[] = [];
  let width = 0;
  const addBlock = (k: number): Block => {
    const b = { off: width, k };
    width += 2 * k;
    blocks.push(b);
    return b;
  };
  const shareBlock = vars.map((v) => addBlock(v.values.length));
  const rankBlock = vars.map((v, vi) => (v.numeric ? addBlock(ranks[vi]!.distinct.length) : null));
  const T = blocks.length;
  // each block's codes, in the order the blocks were added
  const slotCodes: Int32Array[] = [
    ...vars.map((v) => v.real),
    ...vars.flatMap((v, vi) => (v.numeric ? [ranks[vi]!.code] : [])),
  ];
  // slot of row i in block t: off + code, + k on the negative side (the positive counts come first)
  const slots = new Int32Array(N * T);
  for (let t = 0; t < T; t++) {
    const { off, k } = blocks[t];
    const codes = slotCodes[t];
    for (let i = 0; i < N; i++) {
      const c = codes[i];
      slots[i * T + t] = c < 0 ? -1 : off + c + (yhat[i] ? 0 : k);
    }
  }
  // int32 counts: half the footprint of float64 ones in the cache-missing adds below; same values
  const counts = new Int32Array(width);
  const idx = new Int32Array(N);
  const mult = new Int32Array(N);
  for (let r = 0; r < R; r++) {
    const u = rng.uniformHost(N);
    for (let i = 0; i < N; i++) idx[i] = Math.min(N - 1, Math.floor(u[i] * N));
    // how often each row is drawn, then one sequential pass over the rows' slots
    mult.fill(0);
    for (let i = 0; i < N; i++) mult[idx[i]]++;
    counts.fill(0);
    for (let i = 0; i < N; i++) {
      const w = mult[i];
      if (w === 0) continue;
      const base = i * T;
      for (let t = 0; t < T; t++) {
        const s = slots[base + t];
        if (s >= 0) counts[s] += w;
      }
    }
    for (let vi = 0; vi < vars.length; vi++) {
      const { off, k } = shareBlock[vi];
      let nPos = 0;
      let nNeg = 0;
      for (let j = 0; j < k; j++) {
        nPos += counts[off + j];
        nNeg += counts[off + k + j];
      }
      const both = nPos > 0 && nNeg > 0;
      const rv = reps[vi];
      for (let j = 0; j < k; j++) {
        const p = nPos > 0 ? counts[off + j] / nPos : 0;
        const q = nNeg > 0 ? counts[off + k + j] / nNeg : 0;
        rv[j][r] = both ? p - q : NaN;
      }
      const rb = rankBlock[vi];
      if (rb) {
        const distinct = ranks[vi]!.distinct;
        const mp = counts.subarray(rb.off, rb.off + rb.k);
        const mn = counts.subarray(rb.off + rb.k, rb.off + 2 * rb.k);
        let mPos = 0;
        let mNeg = 0;
        for (let j = 0; j < rb.k; j++) {
          mPos += mp[j];
          mNeg += mn[j];
        }
        rv[k][r] = both ? medianOfCounts(mp, distinct, mPos) - medianOfCounts(mn, distinct, mNeg) : NaN;
      }
    }
  }

  // the canonical sets' own noise of a median shift: a bootstrap of the pooled generated rows, from a
  // stream of its own (derived from the checks' seed and the variable), so that the real rows' draws,
  // and every real figure, are those of the audits before the sets' own noise was added
  const medianSe = canon.map((c, vi) => {
    if (!c.medianSets) return null;
    const crng = new Rng(rng.engine, drawSeed(rng.seed, 9_000_006, vi));
    const [a, b] = c.medianSets.map((x) => x.filter(Number.isFinite));
    if (a.length === 0 || b.length === 0) return null;
    const Rc = CHECK_DEFAULTS.canonicalResamples;
    const draws = new Float64Array(Rc);
    const sa = new Float64Array(a.length);
    const sb = new Float64Array(b.length);
    for (let r = 0; r < Rc; r++) {
      const ua = crng.uniformHost(a.length);
      const ub = crng.uniformHost(b.length);
      for (let i = 0; i < a.length; i++) sa[i] = a[Math.min(a.length - 1, Math.floor(ua[i] * a.length))];
      for (let i = 0; i < b.length; i++) sb[i] = b[Math.min(b.length - 1, Math.floor(ub[i] * b.length))];
      draws[r] = quantileSorted(sa.slice().sort(), 0.5) - quantileSorted(sb.slice().sort(), 0.5);
    }
    let m = 0;
    for (const d of draws) m += d;
    m /= Rc;
    let ss = 0;
    for (const d of draws) ss += (d - m) * (d - m);
    return Math.sqrt(ss / (Rc - 1));
  });

  const out: ShiftCheck[] = [];
  const alpha = 1 - conf;
  const zConf = normalQuantile(1 - alpha / 2);
  // every shift from the favourable side: positive − negative, or its negation with --favourable negative
  const sg = opts.favourable === 'negative' ? -1 : 1;
  // 0 − x, not −x: a zero shift stays +0 (the same bytes as the other coding's)
  const o = (x: number) => (sg === 1 ? x : 0 - x);
  vars.forEach((v, vi) => {
    const names = v.numeric ? [...v.values, 'median'] : v.values;
    names.forEach((value, j) => {
      const pt = point[vi];
      const defined = pt.nPos > 0 && pt.nNeg > 0;
      const shift = defined ? o(pt.pos[j] - pt.neg[j]) : null;
      const finiteReps = Array.from(reps[vi][j], o).filter(Number.isFinite);
      const sorted = Float64Array.from(finiteReps).sort();
      const mean = finiteReps.reduce((a, b) => a + b, 0) / Math.max(1, finiteReps.length);
      const se =
        defined && finiteReps.length > 1
          ? Math.sqrt(finiteReps.reduce((a, b) => a + (b - mean) ** 2, 0) / (finiteReps.length - 1))
          : null;
      const lo = defined && sorted.length ? quantileSorted(sorted, alpha / 2) : null;
      const hi = defined && sorted.length ? quantileSorted(sorted, 1 - alpha / 2) : null;
      const c = canon[vi];
      const perSeed = c.perSeed[j].map(o);
      // the data's sign is the interval's (a discrete median's point estimate can sit on its edge)
      const s = lo !== null && hi !== null ? (lo > 0 ? 1 : hi < 0 ? -1 : 0) : 0;
      const isMedian = !!v.numeric && j === v.values.length;
      const canonicalSe = isMedian ? medianSe[vi] : shareDiffSe(c.pos[j], c.nPos, c.neg[j], c.nNeg);
      const pooled = o(c.pooled[j]);
      const { status, seedsWithDataSign: withSign } = shiftStatus(perSeed, pooled, canonicalSe, { lo, hi }, s, zConf);
      out.push({
        feature: v.feature,
        role: v.role,
        value,
        kind: value === 'median' && j === v.values.length ? 'median' : 'share',
        canonical: perSeed.slice(),
        pooled,
        positive: c.pos[j],
        negative: c.neg[j],
        canonicalSe,
        real: {
          shift,
          lo,
          hi,
          se,
          positiveRows: pt.nPos,
          negativeRows: pt.nNeg,
          positive: pt.nPos > 0 ? pt.pos[j] : null,
          negative: pt.nNeg > 0 ? pt.neg[j] : null,
        },
        status,
        seedsWithDataSign: withSign,
      });
    });
  });
  return out;
}

/**
 * The same corrected level as the group-metric verdicts (methods/metrics/verdicts.ts), in place: the
 * real shifts of every family (an audit's value checks and its cell checks) are tested together for
 * "no shift" with p = 2Φ(−|shift|/se) (se the bootstrap standard error), Holm-corrected at α; each
 * check's interval becomes shift ± z·se at its corrected level α·p/p̃ and its status is decided from
 * it. So a canonical-set statement needs the same evidence against chance as a flag.
 */
export function correctShiftChecks(families: ShiftCheck[][], alpha: number = 1 - CHECK_DEFAULTS.confidence): number {
  const all = families.flat().filter((c) => c.real.shift !== null && c.real.se !== null && c.real.se !== undefined);
  const m = all.length;
  for (const c of all) {
    const z = c.real.se! > 0 ? Math.abs(c.real.shift!) / c.real.se! : c.real.shift !== 0 ? Infinity : 0;
    c.real.p = Math.min(1, 2 * normalCdf(-z));
  }
  const adjusted = holm(all.map((c) => c.real.p!));
  all.forEach((c, i) => {
    c.real.pAdjusted = adjusted[i];
    const level = correctedLevel(alpha, c.real.p!, adjusted[i], m);
    const z = normalQuantile(1 - level / 2);
    c.real.level = level;
    c.real.lo = c.real.shift! - z * c.real.se!;
    c.real.hi = c.real.shift! + z * c.real.se!;
    const s = c.real.pAdjusted! <= alpha ? Math.sign(c.real.shift!) : 0;
    const st = shiftStatus(c.canonical, c.pooled, c.canonicalSe, c.real, s, z);
    c.status = st.status;
    c.seedsWithDataSign = st.seedsWithDataSign;
  });
  for (const c of families.flat()) {
    if (c.real.shift === null || c.real.se === null || c.real.se === undefined) {
      c.status = 'within noise';
      c.seedsWithDataSign = 0;
    }
  }
  return m;
}

/**
 * How far apart the real rows on the two sides of the decision are, per feature (the ranking the
 * findings name features by, which the data backs and no GAN seed changes): the Jensen–Shannon
 * distance between the rows the model puts on each side, on the variable's values (a numeric feature:
 * deciles of the real rows), with a bootstrap percentile interval, and `chance`: the 95th percentile of
 * the same distance with the decisions permuted, what the rows' sizes alone give.
 */
export interface RealSeparation {
  feature: string;
  js: number;
  lo: number;
  hi: number;
  chance: number;
  /** the interval's lower end above chance: the sides differ beyond what their sizes alone give */
  beyondChance: boolean;
}

/** JS of the count vectors a (positive side) and b (negative side) of length k at `off` in `counts`. */
function jsOfCounts(counts: Int32Array | Float64Array, off: number, k: number): number {
  return jsDistance(counts.subarray(off, off + k), counts.subarray(off + k, off + 2 * k));
}

/** See RealSeparation; `resamples` bootstrap draws and `permutations` permuted decisions, from `rng`. */
export function realSeparation(
  vars: readonly CheckVariable[],
  yhat: Uint8Array,
  rng: Rng,
  opts: { resamples?: number; permutations?: number; confidence?: number } = {},
): RealSeparation[] {
  const R = opts.resamples ?? CHECK_DEFAULTS.separationResamples;
  const P = opts.permutations ?? CHECK_DEFAULTS.separationPermutations;
  const conf = opts.confidence ?? CHECK_DEFAULTS.confidence;
  const N = yhat.length;
  // one block per variable: its positive-side counts, then its negative-side counts
  const offs: number[] = [];
  let width = 0;
  for (const v of vars) {
    offs.push(width);
    width += 2 * v.values.length;
  }
  const counts = new Int32Array(width);
  const tally = (side: ArrayLike<number>, mult: Int32Array | null) => {
    counts.fill(0);
    for (let i = 0; i < N; i++) {
      const w = mult ? mult[i] : 1;
      if (w === 0) continue;
      const neg = side[i] ? 0 : 1;
      vars.forEach((v, vi) => {
        const c = v.real[i];
        if (c >= 0) counts[offs[vi] + c + neg * v.values.length] += w;
      });
    }
    return vars.map((v, vi) => jsOfCounts(counts, offs[vi], v.values.length));
  };
  const point = tally(yhat, null);
  const boot = vars.map(() => new Float64Array(R));
  const mult = new Int32Array(N);
  for (let r = 0; r < R; r++) {
    const u = rng.uniformHost(N);
    mult.fill(0);
    for (let i = 0; i < N; i++) mult[Math.min(N - 1, Math.floor(u[i] * N))]++;
    tally(yhat, mult).forEach((x, vi) => (boot[vi][r] = x));
  }
  const perm = vars.map(() => new Float64Array(P));
  const shuffled = Uint8Array.from(yhat);
  for (let p = 0; p < P; p++) {
    const u = rng.uniformHost(N);
    for (let i = N - 1; i > 0; i--) {
      const j = Math.min(i, Math.floor(u[i] * (i + 1)));
      const t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    tally(shuffled, null).forEach((x, vi) => (perm[vi][p] = x));
  }
  const a = (1 - conf) / 2;
  return vars.map((v, vi) => {
    const b = boot[vi].slice().sort();
    const lo = quantileSorted(b, a);
    const hi = quantileSorted(b, 1 - a);
    const chance = quantileSorted(perm[vi].slice().sort(), 0.95);
    return { feature: v.feature, js: point[vi], lo, hi, chance, beyondChance: lo > chance };
  });
}
