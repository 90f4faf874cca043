// The impact-ratio table of published bias audits under NYC Local Law 144 (DCWP rules, enforced
// from 5 July 2023). Core code: no Node imports.
//   selection rate = rows given the favourable outcome / rows in the category;
//   scoring rate   = rows on the favourable side of the whole sample's median score / rows (scores);
//   impact ratio   = the category's rate / the highest rate among the categories that hold at least
//                    2% of the rows with a known value. Smaller categories are shown, with their rate,
//                    but get no impact ratio; rows with an unknown protected value are counted.
import type { GroupIds } from './group-ids.js';

export interface ImpactRow {
  category: string;
  n: number;
  /** n over the rows with a known value */
  share: number;
  rate: number | null;
  /** null for an excluded category */
  impactRatio: number | null;
  /** under the minimum share (or suppressed): shown, not in the impact ratios */
  excluded: boolean;
  /** fewer rows than --suppress-below: no rate (suppress.ts) */
  suppressed?: boolean;
}

export interface ImpactTable {
  kind: 'selection rate' | 'scoring rate';
  /** the whole sample's median score (scoring rate only) */
  median: number | null;
  /** the category with the highest rate among the included ones */
  highest: string | null;
  minShare: number;
  rows: ImpactRow[];
  /** rows left out for an unknown protected value */
  unknown: number;
}

/**
 * `gid[i]` is row i's category index (−1: unknown), `hit[i]` 1 when row i is selected (or scores on
 * the favourable side of the median).
 */
export function impactTable(
  values: readonly string[],
  gid: GroupIds,
  hit: Uint8Array,
  kind: ImpactTable['kind'],
  median: number | null,
  minShare: number,
): ImpactTable {
  const n = new Float64Array(values.length);
  const h = new Float64Array(values.length);
  let unknown = 0;
  for (let i = 0; i < gid.length; i++) {
    const g = gid[i];
    if (g < 0) {
      unknown++;
      continue;
    }
    n[g]++;
    h[g] += hit[i];
  }
  const known = gid.length - unknown;
  const rows: ImpactRow[] = values.map((v, g) => ({
    category: v,
    n: n[g],
    share: known > 0 ? n[g] / known : 0,
    rate: n[g] > 0 ? h[g] / n[g] : null,
    impactRatio: null,
    excluded: known === 0 || n[g] / known < minShare,
  }));
  let best: ImpactRow | null = null;
  for (const r of rows) if (!r.excluded && r.rate !== null && (best === null || r.rate > best.rate!)) best = r;
  if (best && best.rate! > 0)
    for (const r of rows) if (!r.excluded && r.rate !== null) r.impactRatio = r.rate / best.rate!;
  return { kind, median, highest: best?.category ?? null, minShare, rows, unknown };
}
