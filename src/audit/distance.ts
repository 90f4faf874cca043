// Distributions of a feature over several sets on common bins/categories, and the Jensen–Shannon
// distance between two of them. Core code: no Node imports.
//
// Numeric features: NUMERIC_BINS equal-width bins over [lo, hi], where lo (hi) is the lowest 1st
// (highest 99th) percentile among the series, so the bins cover the bulk of the real data and of
// both canonical sets while single outliers do not stretch them; values beyond fall into the end
// bins. A numeric protected attribute uses its protected bins instead (the groups of the report).
// Categorical features: shares per category, categories in the first series' dictionary order,
// then any category only another series holds.
import { cellLabels, type Column } from '../data/table.js';
import type { Distribution } from './types.js';
import { assignBin, quantileSorted } from './bins.js';

export { cellLabels };

export const NUMERIC_BINS = 20;

import { jsDistance } from './js-distance.js';

export { jsDistance };

export interface SeriesInput {
  name: string;
  column: Column;
  /** a reference series that is the real counterpart of series[of] (see Distribution.series) */
  of?: number;
}

/** A numeric column's values (a categorical one's labels parsed as numbers). */
function numbers(c: Column): Float64Array {
  if (c.kind === 'numeric') return c.values;
  return Float64Array.from(c.codes, (k) => (k < 0 ? NaN : Number(c.categories[k])));
}

/** Common equal-width edges for numeric series (see the file comment). */
export function commonEdges(series: readonly ArrayLike<number>[], bins = NUMERIC_BINS): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of series) {
    const s = Float64Array.from(Array.from(v).filter(Number.isFinite)).sort();
    if (s.length === 0) continue;
    lo = Math.min(lo, quantileSorted(s, 0.01));
    hi = Math.max(hi, quantileSorted(s, 0.99));
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (!(hi > lo)) return [lo - 0.5, lo + 0.5];
  const edges: number[] = [];
  for (let i = 0; i <= bins; i++) edges.push(i === bins ? hi : lo + ((hi - lo) * i) / bins);
  return edges;
}

const withOf = (s: Distribution['series'][number], input: SeriesInput): Distribution['series'][number] =>
  input.of === undefined ? s : { ...s, of: input.of };

/** One feature's distributions; series[0] and series[1] are compared by `js`. */
export function distribution(
  feature: string,
  series: readonly SeriesInput[],
  role: Distribution['role'],
  opts: { edges?: number[]; bins?: number; kind?: 'numeric' | 'categorical' } = {},
): Distribution {
  const kind = opts.kind ?? (series[0].column.kind === 'numeric' ? 'numeric' : 'categorical');
  if (kind === 'numeric') {
    const vals = series.map((s) => numbers(s.column));
    const edges = opts.edges ?? commonEdges(vals, opts.bins);
    const out = vals.map((v, j) => {
      const counts = new Array<number>(edges.length - 1).fill(0);
      let n = 0;
      for (let i = 0; i < v.length; i++) {
        const b = assignBin(v[i], edges, true);
        if (b >= 0) {
          counts[b]++;
          n++;
        }
      }
      return withOf({ name: series[j].name, share: counts.map((c) => (n > 0 ? c / n : 0)), n }, series[j]);
    });
    return {
      feature,
      kind,
      edges,
      series: out,
      js: out.length >= 2 ? jsDistance(out[0].share, out[1].share) : 0,
      role,
    };
  }
  const labs = series.map((s) => cellLabels(s.column));
  const categories: string[] = [];
  const seen = new Set<string>();
  const add = (l: string) => {
    if (l !== '' && !seen.has(l)) {
      seen.add(l);
      categories.push(l);
    }
  };
  for (const s of series) if (s.column.kind === 'categorical') s.column.categories.forEach(add);
  for (const l of labs) l.forEach(add);
  const index = new Map(categories.map((c, i) => [c, i]));
  const out = labs.map((l, j) => {
    const counts = new Array<number>(categories.length).fill(0);
    let n = 0;
    for (const x of l) {
      const k = index.get(x);
      if (k !== undefined) {
        counts[k]++;
        n++;
      }
    }
    return withOf({ name: series[j].name, share: counts.map((c) => (n > 0 ? c / n : 0)), n }, series[j]);
  });
  // drop categories no series holds (a dictionary may list labels absent from these rows)
  const keep = categories.map((_, i) => out.some((s) => s.share[i] > 0));
  const cats = categories.filter((_, i) => keep[i]);
  for (const s of out) s.share = s.share.filter((_, i) => keep[i]);
  return {
    feature,
    kind,
    categories: cats,
    series: out,
    js: out.length >= 2 ? jsDistance(out[0].share, out[1].share) : 0,
    role,
  };
}

/** Shares of `column`'s rows on the bins (numeric) or categories of `d` (rows outside them left out). */
export function sharesOn(d: Distribution, column: Column): number[] {
  if (d.kind === 'numeric') {
    const edges = d.edges ?? [];
    const counts = new Array<number>(Math.max(0, edges.length - 1)).fill(0);
    let n = 0;
    const v = numbers(column);
    for (let i = 0; i < v.length; i++) {
      const b = assignBin(v[i], edges, true);
      if (b >= 0) {
        counts[b]++;
        n++;
      }
    }
    return counts.map((c) => (n > 0 ? c / n : 0));
  }
  const cats = d.categories ?? [];
  const index = new Map(cats.map((c, i) => [c, i]));
  const counts = new Array<number>(cats.length).fill(0);
  let n = 0;
  for (const l of cellLabels(column)) {
    const k = index.get(l);
    if (k !== undefined) {
      counts[k]++;
      n++;
    }
  }
  return counts.map((c) => (n > 0 ? c / n : 0));
}

/** Largest `js` first (ties by feature name, so the order is stable). */
export function rankDistributions(d: Distribution[]): Distribution[] {
  return d.sort((a, b) => b.js - a.js || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
}
