// Disparity conditional on factors the user calls legitimate (`--legitimate col,…`). Core code.
//   The rows are split into strata by the legitimate columns (categories as they are, numeric columns
//   into quintiles of the data). Within each stratum the group's selection rate is compared with the
//   reference's; the strata are combined by the Mantel–Haenszel risk ratio
//       RR_MH = Σ_s a_s n0_s / N_s  ÷  Σ_s c_s n1_s / N_s
//   (a, c: selected rows of the group and of the reference in stratum s; n1, n0 their rows; N = n1 + n0),
//   with the Greenland–Robins variance of log RR_MH for a 1 − α interval (not corrected for
//   multiplicity: it is an explanation of a verdict, not a verdict). Strata holding only one of the two
//   groups carry no comparison and drop out; the rows they hold are counted.
//   explained share = 1 − log RR_MH / log RR_crude: the part of the (log) disparity that the
//   legitimate factors account for (null when the crude ratio is 1 or either ratio is undefined).
import type { GroupIds } from './group-ids.js';
import { check } from '../../engine/errors.js';
import { quantileSorted } from '../../data/quantile.js';
import { getColumn, type Table } from '../../data/table.js';
import { normalQuantile } from './verdicts.js';
import { log as fdlog, exp as fdexp } from '../../engine/fdlibm.js';

export const CONDITIONAL_QUANTILES = 5;

export interface ConditionalRow {
  group: string;
  /** the plain selection-rate ratio against the reference */
  crude: number | null;
  /** the Mantel–Haenszel ratio within strata of the legitimate columns */
  conditional: number | null;
  ci: { lo: number; hi: number } | null;
  explainedShare: number | null;
  /** rows of the group in strata the reference also has */
  comparedRows: number;
}

export interface ConditionalDisparity {
  columns: string[];
  strata: number;
  reference: string;
  confidence: number;
  rows: ConditionalRow[];
}

/**
 * Per row, the stratum index of the legitimate columns (numeric ones in quintiles; a missing value is a stratum of its
 * own).
 */
export function strataOf(table: Table, columns: readonly string[], where: string): { id: Int32Array; count: number } {
  check(columns.length > 0, 'E_ARG', () => `${where}: --legitimate needs at least one column`);
  const keys: string[][] = [];
  for (const name of columns) {
    const c = getColumn(table, name, where, '--legitimate');
    const k: string[] = new Array(table.rows);
    if (c.kind === 'numeric') {
      const finite = Array.from(c.values)
        .filter((v) => !Number.isNaN(v))
        .sort((a, b) => a - b);
      const edges = [1, 2, 3, 4].map((q) => (finite.length ? quantileSorted(finite, q / CONDITIONAL_QUANTILES) : 0));
      for (let i = 0; i < table.rows; i++) {
        const v = c.values[i];
        k[i] = Number.isNaN(v) ? '?' : String(edges.filter((e) => v > e).length);
      }
    } else {
      for (let i = 0; i < table.rows; i++) k[i] = c.codes[i] < 0 ? '?' : String(c.codes[i]);
    }
    keys.push(k);
  }
  const index = new Map<string, number>();
  const id = new Int32Array(table.rows);
  for (let i = 0; i < table.rows; i++) {
    const key = keys.map((k) => k[i]).join('\u0000');
    let s = index.get(key);
    if (s === undefined) index.set(key, (s = index.size));
    id[i] = s;
  }
  return { id, count: index.size };
}

/** The Mantel–Haenszel selection-rate ratio of every group against `ref`, within `strata`. */
export function conditionalDisparity(
  values: readonly string[],
  gid: GroupIds,
  hit: Uint8Array,
  ref: number,
  strata: { id: Int32Array; count: number },
  columns: string[],
  confidence: number,
): ConditionalDisparity {
  const S = strata.count;
  const G = values.length;
  // n[g*S+s], a[g*S+s]: rows and selected rows of group g in stratum s
  const n = new Float64Array(G * S);
  const a = new Float64Array(G * S);
  for (let i = 0; i < gid.length; i++) {
    if (gid[i] < 0) continue;
    const o = gid[i] * S + strata.id[i];
    n[o]++;
    a[o] += hit[i];
  }
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const rows: ConditionalRow[] = [];
  const tot = (g: number, arr: Float64Array) => arr.subarray(g * S, (g + 1) * S).reduce((x, y) => x + y, 0);
  for (let g = 0; g < G; g++) {
    if (g === ref) continue;
    const r1 = tot(g, n) > 0 ? tot(g, a) / tot(g, n) : null;
    const r0 = tot(ref, n) > 0 ? tot(ref, a) / tot(ref, n) : null;
    const crude = r1 === null || r0 === null || r0 === 0 ? null : r1 / r0;
    let num = 0;
    let den = 0;
    let v = 0;
    let compared = 0;
    for (let s = 0; s < S; s++) {
      const n1 = n[g * S + s];
      const n0 = n[ref * S + s];
      if (n1 === 0 || n0 === 0) continue;
      const A = a[g * S + s];
      const C = a[ref * S + s];
      const N = n1 + n0;
      compared += n1;
      num += (A * n0) / N;
      den += (C * n1) / N;
      v += (n1 * n0 * (A + C) - A * C * N) / (N * N);
    }
    const conditional = num > 0 && den > 0 ? num / den : null;
    const se = conditional !== null ? Math.sqrt(Math.max(0, v) / (num * den)) : null;
    const ci =
      conditional !== null && se !== null
        ? { lo: fdexp(fdlog(conditional) - z * se), hi: fdexp(fdlog(conditional) + z * se) }
        : null;
    const explainedShare =
      crude !== null && conditional !== null && crude !== 1 ? 1 - fdlog(conditional) / fdlog(crude) : null;
    rows.push({ group: values[g], crude, conditional, ci, explainedShare, comparedRows: compared });
  }
  return { columns, strata: S, reference: values[ref], confidence, rows };
}
