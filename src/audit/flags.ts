// Flag decisions for an audit: is the gap the canonical sets show for a protected value larger than
// what an audit of a model WITHOUT planted bias shows? Pure functions over AuditResult numbers; core
// code (no Node imports).
//
// ── The decision rule (fixed before any planted-bias result was looked at; EXPERIMENTS.md §2) ──
// For a protected attribute a and one of its values v, the canonical gap is
//     d(a, v) = P_pos(a = v) − P_neg(a = v)
// the share of the positive canonical set holding v minus the share of the negative set holding v
// (negative d: the model's positive decisions come with fewer v's than its negative ones; v is
// disfavoured). For an intersection cell (a = v, b = w) the same with both values
// (`IntersectionHeatmap.canonicalShift`). With --favourable negative every gap is taken the other way
// round, favourable set − unfavourable set, as the audit's shifts are (one decision, one verdict); the experiments of
// EXPERIMENTS.md §2 are all favourable positive, where nothing changes.
//
// A reference band comes from audits of models trained on data with NO planted bias (the simulator's
// `fair` mode, several seeds). Those models still show gaps, since the fair rule rewards education,
// hours and income, which differ by group and sex; the band holds that legitimate gap plus the
// audit's seed-to-seed noise:
//     centre m = mean of d over the fair runs, spread s = their sample standard deviation (n − 1).
// A value is FLAGGED (disfavoured beyond the band) when
//     d < m − h,   h = max(K · s, K · σ_bin)
// with K = 3 and σ_bin = sqrt(p(1 − p)(1/n_pos + 1/n_neg)) the binomial sampling sd of a difference of
// two shares of sizes n_pos, n_neg at the pooled share p (so a band estimated from a handful of fair
// runs that happen to agree can never be narrower than the sampling noise of the canonical sets
// themselves). `favoured` is the mirror image (d > m + h), reported but not what "flagged" means.
// An attribute is flagged when any of its values is. One-sided, because a planted penalty pushes the
// penalised value's gap down; the mirror value of a binary attribute then rises, and counting both
// would count one finding twice.
//
// The same rule is applied to the group metrics' statistical-parity difference (selection rate of v
// minus the rate of everyone else, from the audited model's predictions on the data) with σ_bin from
// the group sizes, and reported next to the canonical flags.
import type { AuditResult, IntersectionHeatmap } from './types.js';

/**
 * How the canonical sets of §2's ground truth were drawn (before audits drew from several GANs with rejection): one
 * LUCID-GAN, every generated row kept, the paper's condition, no point masses. The bands above come from such runs, so
 * a decision against them must draw its sets the same way (experiments/ground-truth.mjs and its CI test).
 */
export const GROUND_TRUTH_SAMPLING = {
  ganSeeds: 1,
  rejection: false,
  ganCondition: 'extreme',
  ganPointShare: 0,
  ganCorrect: 'none',
  ganSchedule: 'paper',
} as const;

/** K in h = max(K·s, K·σ_bin). */
export const FLAG_K = 3;

/** One signed statistic for one protected value (or cell) of one audit. */
export interface GapStat {
  /** "group=B" or "sex=Female & group=B" */
  key: string;
  /** the signed gap d */
  d: number;
  /** binomial sampling sd of d */
  sdBinomial: number;
}

/** The fair-mode reference for one key. */
export interface Band {
  key: string;
  mean: number;
  /** sample sd (n − 1) over the fair runs; 0 with fewer than 2 runs */
  sd: number;
  runs: number;
}

export interface FlagDecision {
  key: string;
  d: number;
  /** the lower edge m − h */
  lower: number;
  /** the upper edge m + h */
  upper: number;
  /** the half-width h */
  halfWidth: number;
  flagged: boolean;
  favoured: boolean;
}

const binSd = (p: number, n1: number, n2: number): number =>
  n1 > 0 && n2 > 0 ? Math.sqrt(Math.max(0, p * (1 - p)) * (1 / n1 + 1 / n2)) : 0;

/**
 * +1, or −1 when the negative decision is the favourable one: every gap is favourable set − unfavourable set, as the
 * heat map's (one coding convention).
 */
const orientation = (result: { meta?: { favourable?: 'positive' | 'negative' } }): 1 | -1 =>
  result.meta?.favourable === 'negative' ? -1 : 1;

/**
 * Canonical gaps d(a, v) for every categorical protected attribute's values, from the main canonical sets (favourable −
 * unfavourable).
 */
export function canonicalGaps(result: AuditResult): GapStat[] {
  const out: GapStat[] = [];
  const sg = orientation(result);
  const dists = result.canonical.distributions;
  for (const attr of result.protected) {
    const dist = dists.find((d) => d.feature === attr.column);
    if (!dist?.categories) continue;
    const [pos, neg] = dist.series;
    dist.categories.forEach((v, k) => {
      const p = (pos.share[k] * pos.n + neg.share[k] * neg.n) / Math.max(1, pos.n + neg.n);
      out.push({
        key: `${attr.column}=${v}`,
        d: sg * (pos.share[k] - neg.share[k]),
        sdBinomial: binSd(p, pos.n, neg.n),
      });
    });
  }
  return out;
}

/**
 * Cell shifts of every intersection heatmap (share of the favourable set in the cell minus the unfavourable set's, as
 * the heat map holds them).
 */
export function cellGaps(result: AuditResult): GapStat[] {
  const out: GapStat[] = [];
  const nPos = result.canonical.positive.rows;
  const nNeg = result.canonical.negative.rows;
  for (const { heatmap: h } of result.intersections) {
    if (!h.canonicalShift) continue;
    const total = h.n.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);
    for (let r = 0; r < h.rowValues.length; r++) {
      for (let c = 0; c < h.colValues.length; c++) {
        const d = h.canonicalShift[r][c];
        if (d === null) continue;
        // pooled share is not in the heatmap; the data's share of the cell is a fair stand-in
        const p = total > 0 ? h.n[r][c] / total : 0;
        out.push({
          key: `${h.rowAttribute}=${h.rowValues[r]} & ${h.colAttribute}=${h.colValues[c]}`,
          d,
          sdBinomial: binSd(p, nPos, nNeg),
        });
      }
    }
  }
  return out;
}

/**
 * Conditional gaps of the paper's intersectional protocol (EXPERIMENTS.md §2.6, declared before it ran):
 * with A = a fixed in both canonical sets, d_{B=v | A=a} = share of B = v in the positive set minus its
 * share in the negative set, for every other categorical protected B and value v. Key
 * "A=a → B=v" (e.g. "sex=Female → group=B"). σ_bin from the pooled share and the two sets' sizes.
 * Judged with the same `fairBands` / `decide` as the canonical gaps. Empty without `result.conditional`.
 */
export function conditionalGaps(
  result: Pick<AuditResult, 'conditional'> & { meta?: { favourable?: 'positive' | 'negative' } },
): GapStat[] {
  const out: GapStat[] = [];
  const sg = orientation(result);
  for (const c of result.conditional ?? []) {
    const [a, av] = c.fixed;
    for (const dist of c.distributions) {
      if (!dist.categories) continue;
      const [pos, neg] = dist.series;
      dist.categories.forEach((v, k) => {
        const p = (pos.share[k] * pos.n + neg.share[k] * neg.n) / Math.max(1, pos.n + neg.n);
        out.push({
          key: `${a}=${av} → ${dist.feature}=${v}`,
          d: sg * (pos.share[k] - neg.share[k]),
          sdBinomial: binSd(p, pos.n, neg.n),
        });
      });
    }
  }
  return out;
}

/** Statistical-parity difference of each protected value against everyone else (model predictions on the data). */
export function parityGaps(result: AuditResult): GapStat[] {
  const out: GapStat[] = [];
  for (const a of result.metrics.attributes.attributes) {
    const attr = result.protected.find((p) => p.groupColumn === a.column);
    if (attr?.kind !== 'categorical') continue;
    const total = a.groups.reduce((s, g) => s + g.n, 0);
    const posTotal = a.groups.reduce((s, g) => s + (g.selection_rate ?? 0) * g.n, 0);
    for (const g of a.groups) {
      if (g.selection_rate === null || g.n === total) continue;
      const rest = (posTotal - g.selection_rate * g.n) / (total - g.n);
      const p = posTotal / total;
      out.push({
        key: `${attr.column}=${g.value}`,
        d: g.selection_rate - rest,
        sdBinomial: binSd(p, g.n, total - g.n),
      });
    }
  }
  return out;
}

/**
 * Statistical-parity difference of each intersection cell against every other row (EXPERIMENTS.md
 * §2.9, declared before it was computed): the heatmap's selection rate of the cell minus the rate of
 * the rest of the data, σ_bin from the pooled rate and the two row counts. Key as `cellGaps`. Empty
 * cells and a cell holding every row are skipped.
 */
export function cellParityGaps(result: {
  intersections: {
    heatmap: Pick<
      IntersectionHeatmap,
      'rowAttribute' | 'colAttribute' | 'rowValues' | 'colValues' | 'n' | 'selectionRate'
    >;
  }[];
}): GapStat[] {
  const out: GapStat[] = [];
  for (const { heatmap: h } of result.intersections) {
    let total = 0;
    let posTotal = 0;
    h.n.forEach((row, r) =>
      row.forEach((n, c) => {
        total += n;
        posTotal += n * (h.selectionRate[r][c] ?? 0);
      }),
    );
    for (let r = 0; r < h.rowValues.length; r++) {
      for (let c = 0; c < h.colValues.length; c++) {
        const n = h.n[r][c];
        const rate = h.selectionRate[r][c];
        if (rate === null || n === 0 || n === total) continue;
        const rest = (posTotal - rate * n) / (total - n);
        out.push({
          key: `${h.rowAttribute}=${h.rowValues[r]} & ${h.colAttribute}=${h.colValues[c]}`,
          d: rate - rest,
          sdBinomial: binSd(posTotal / total, n, total - n),
        });
      }
    }
  }
  return out;
}

/** The fair-mode band per key from the gaps of several fair runs. */
export function fairBands(runs: GapStat[][]): Map<string, Band> {
  const byKey = new Map<string, number[]>();
  for (const run of runs) for (const g of run) byKey.set(g.key, [...(byKey.get(g.key) ?? []), g.d]);
  const out = new Map<string, Band>();
  for (const [key, xs] of byKey) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
    out.set(key, { key, mean, sd, runs: xs.length });
  }
  return out;
}

/** The decision for one gap against its band (null when the band has no such key). */
export function decide(g: GapStat, band: Band | undefined, k: number = FLAG_K): FlagDecision | null {
  if (!band) return null;
  const h = Math.max(k * band.sd, k * g.sdBinomial);
  const lower = band.mean - h;
  const upper = band.mean + h;
  return { key: g.key, d: g.d, lower, upper, halfWidth: h, flagged: g.d < lower, favoured: g.d > upper };
}

/** Decisions for every gap that has a band. */
export function decideAll(gaps: GapStat[], bands: Map<string, Band>, k: number = FLAG_K): FlagDecision[] {
  const out: FlagDecision[] = [];
  for (const g of gaps) {
    const r = decide(g, bands.get(g.key), k);
    if (r) out.push(r);
  }
  return out;
}
