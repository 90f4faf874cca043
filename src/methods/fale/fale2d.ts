// 2-D FALE for two numeric features (the athenarc reference's "FALE-2D", adapted there from PyALE's
// 2-D ALE): the same percentile grid on both features; per cell, the fairness metric F on the
// cell's rows with both features set to each of the 4 corners, cell effect
// (F22 − F21) − (F12 − F11); empty or undefined cells filled from the nearest defined cell (on
// normalised cell centres); double cumulative sum; the 1-D main effects (moving-average form)
// subtracted; centred by the size-weighted 4-corner mean. Unlike the reference, feature 2's cell
// sizes use feature 2's own bin count. Core code: no Node imports.
import { check } from '../../engine/errors.js';
import type { BlackBox } from '../../models/blackbox.js';
import { getColumn, type NumericColumn, type Table } from '../../data/table.js';
import {
  assignBins,
  binaryLabels,
  checkFaleClasses,
  faleFitWarnings,
  faleSettings,
  runInfo,
  FALE_DEFAULTS,
  binaryStatistic,
  outputRunInfo,
  outputSetup,
  modifiedTable,
  percentileEdges,
  unprivilegedMask,
  type FaleOptions,
  type FaleOutputOptions,
  type FaleRunInfo,
  type FaleStatistic,
  type Outcomes,
} from './fale.js';

export interface Fale2dOptions
  extends Omit<FaleOptions, 'features' | 'exclude' | 'weighted' | 'bootstrap' | 'confidence' | 'rng'> {
  /** the two numeric features: rows of the grid are the first, columns the second */
  pair: [string, string];
}

/** A cell whose effect was copied from the nearest defined cell. */
export interface FilledCell {
  /** [bin of feature 1, bin of feature 2] */
  cell: [number, number];
  from: [number, number];
  reason: 'empty' | 'undefined';
}

export interface Fale2dResult extends FaleRunInfo {
  features: [string, string];
  /** the edges used for each feature (percentile, deduplicated; or explicit) */
  edges: [number[], number[]];
  /** (K1+1) × (K2+1): values[i][j] is the centred 2-D effect at (edges[0][i], edges[1][j]) */
  values: number[][];
  /** K1 × K2 cell effects as computed; null where the cell is empty or the metric undefined */
  deltas: (number | null)[][];
  /** K1 × K2 cell effects used in the accumulation (after filling) */
  filledDeltas: number[][];
  /** K1 × K2 rows per cell, in all and by group */
  cells: { n: number[][]; unprivileged: number[][]; privileged: number[][] };
  /** cells filled from their nearest defined cell */
  filled: FilledCell[];
  /** rows outside the edges of either feature (explicit edges only) */
  excluded: number;
  warnings: string[];
}

const grid = <T>(a: number, b: number, v: T): T[][] => Array.from({ length: a }, () => new Array<T>(b).fill(v));

/**
 * Fill null cells from the nearest non-null cell, on cell centres normalised by each feature's
 * edge range (Euclidean; ties go to the first in row-major order). All null: zeros.
 */
export function fillNearest(
  d: (number | null)[][],
  e1: readonly number[],
  e2: readonly number[],
): { out: number[][]; from: ([number, number] | null)[][] } {
  const K1 = e1.length - 1;
  const K2 = e2.length - 1;
  const r1 = e1[K1] - e1[0] || 1;
  const r2 = e2[K2] - e2[0] || 1;
  const c1 = Array.from({ length: K1 }, (_, i) => (e1[i] + e1[i + 1]) / 2 / r1);
  const c2 = Array.from({ length: K2 }, (_, j) => (e2[j] + e2[j + 1]) / 2 / r2);
  const defined: [number, number][] = [];
  for (let i = 0; i < K1; i++) for (let j = 0; j < K2; j++) if (d[i][j] !== null) defined.push([i, j]);
  const out = grid(K1, K2, 0);
  const from = grid<[number, number] | null>(K1, K2, null);
  for (let i = 0; i < K1; i++) {
    for (let j = 0; j < K2; j++) {
      if (d[i][j] !== null) {
        out[i][j] = d[i][j] as number;
        continue;
      }
      let best: [number, number] | null = null;
      let bd = Infinity;
      for (const [a, b] of defined) {
        const dist = (c1[a] - c1[i]) ** 2 + (c2[b] - c2[j]) ** 2;
        if (dist < bd) {
          bd = dist;
          best = [a, b];
        }
      }
      if (best) {
        out[i][j] = d[best[0]][best[1]] as number;
        from[i][j] = best;
      }
    }
  }
  return { out, from };
}

/**
 * From the K1 × K2 cell effects and cell sizes: double cumulative sum (zeros on the first row and
 * column), minus the 1-D main effects (moving-average form, as ALEPlot / PyALE), centred by the
 * size-weighted mean of each cell's 4 corners.
 */
export function accumulate2d(delta: number[][], n: number[][]): number[][] {
  const K1 = delta.length;
  const K2 = K1 > 0 ? delta[0].length : 0;
  const A = grid(K1 + 1, K2 + 1, 0);
  for (let i = 1; i <= K1; i++)
    for (let j = 1; j <= K2; j++) A[i][j] = delta[i - 1][j - 1] + A[i - 1][j] + A[i][j - 1] - A[i - 1][j - 1];
  // main effect of feature 1: per bin i, the row difference averaged over adjacent grid columns, weighted by n[i][j]
  const f1 = new Array<number>(K1 + 1).fill(0);
  for (let i = 0; i < K1; i++) {
    let num = 0;
    let den = 0;
    for (let j = 0; j < K2; j++) {
      const avg = (A[i + 1][j] - A[i][j] + (A[i + 1][j + 1] - A[i][j + 1])) / 2;
      num += n[i][j] * avg;
      den += n[i][j];
    }
    f1[i + 1] = f1[i] + (den > 0 ? num / den : 0);
  }
  // main effect of feature 2: per bin j, weighted by n[i][j] over feature 1's bins (K1 of them)
  const f2 = new Array<number>(K2 + 1).fill(0);
  for (let j = 0; j < K2; j++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i < K1; i++) {
      const avg = (A[i][j + 1] - A[i][j] + (A[i + 1][j + 1] - A[i + 1][j])) / 2;
      num += n[i][j] * avg;
      den += n[i][j];
    }
    f2[j + 1] = f2[j] + (den > 0 ? num / den : 0);
  }
  const F = A.map((row, i) => row.map((v, j) => v - f1[i] - f2[j]));
  let num = 0;
  let den = 0;
  for (let i = 0; i < K1; i++) {
    for (let j = 0; j < K2; j++) {
      num += (n[i][j] * (F[i][j] + F[i + 1][j] + F[i][j + 1] + F[i + 1][j + 1])) / 4;
      den += n[i][j];
    }
  }
  const c = den > 0 ? num / den : 0;
  return F.map((row) => row.map((v) => v - c));
}

/** 2-D FALE of two numeric features of `table` for `model` (called on the rows at each cell corner). */
export async function fale2d(table: Table, model: BlackBox, opts: Fale2dOptions): Promise<Fale2dResult> {
  const { metricOpt, metric, decision, minBin } = faleSettings(opts);
  const cols = pairColumns(table, opts);
  const { y, positive, values } = binaryLabels(table, opts.label, opts.positive);
  checkFaleClasses(model, opts, values, positive);
  // every row as it is, scored first: scores that rank the label worse than chance stop here (metrics/fit.ts)
  const scores = await model.predict(table);
  const fitWarnings = faleFitWarnings(y, scores, decision, values, positive, opts, model.source);
  const u = unprivilegedMask(table, opts.protected);
  const stat = binaryStatistic(metric, decision, y);
  return grid2d(table, model, opts, cols, { stat, u, scores, minBin, warnings: fitWarnings }, (overall) =>
    runInfo(table, u, opts, metricOpt, positive, decision, overall),
  );
}

/** 2-D FALE of an output measure (faleOutput's measures: a score, a class among k, a real value). */
export interface Fale2dOutputOptions
  extends Omit<FaleOutputOptions, 'features' | 'exclude' | 'weighted' | 'bootstrap' | 'confidence' | 'rng'> {
  pair: [string, string];
}

/** fale2d for a model whose output is a score, a class among k or a real value, with a measure of FALE_MEASURE_DEFS. */
export async function fale2dOutput(table: Table, model: BlackBox, opts: Fale2dOutputOptions): Promise<Fale2dResult> {
  const setup = outputSetup(table, model, opts);
  const minBin = opts.minBin ?? FALE_DEFAULTS.minBin;
  const cols = pairColumns(table, opts);
  const scores = await model.predict(table);
  const u = unprivilegedMask(table, opts.protected);
  return grid2d(table, model, opts, cols, { stat: setup.stat, u, scores, minBin, warnings: [] }, (overall) =>
    outputRunInfo(table, u, opts, setup, overall),
  );
}

/** The pair's two numeric columns, checked (two different numeric features, not the label; edges only for them). */
function pairColumns(table: Table, opts: Pick<Fale2dOptions, 'pair' | 'label' | 'edges'>): NumericColumn[] {
  check(
    Array.isArray(opts.pair) && opts.pair.length === 2 && opts.pair[0] !== opts.pair[1],
    'E_ARG',
    () => 'fale: --pair needs two different features, e.g. --pair age,hours-per-week',
  );
  const cols = opts.pair.map((f) => {
    const c = getColumn(table, f, 'fale', '--pair');
    check(
      c.kind === 'numeric',
      'E_ARG',
      () => `fale: --pair: "${f}" is categorical; 2-D FALE needs two numeric features`,
    );
    check(f !== opts.label, 'E_ARG', () => `fale: --pair: "${f}" is the label`);
    return c as NumericColumn;
  });
  for (const f of Object.keys(opts.edges ?? {}))
    check(opts.pair.includes(f), 'E_ARG', () => `fale: edges given for "${f}", which is not in the pair`);
  return cols;
}

/** The 2-D grid of `cols` with a prepared statistic: fale2d's cells, filling, accumulation and centring. */
async function grid2d(
  table: Table,
  model: BlackBox,
  opts: Pick<Fale2dOptions, 'bins' | 'edges'>,
  cols: NumericColumn[],
  prep: { stat: FaleStatistic; u: Uint8Array; scores: Float64Array; minBin: number; warnings: string[] },
  info: (overall: number | null) => FaleRunInfo,
): Promise<Fale2dResult> {
  const { stat, u, scores, minBin } = prep;
  const [n1, n2] = cols.map((c) => c.name);
  const bins = opts.bins ?? FALE_DEFAULTS.bins;
  const edges = cols.map((c) => {
    const ex = opts.edges?.[c.name];
    if (!ex) return percentileEdges(c.values, bins);
    const e = [...new Set(ex)].sort((a, b) => a - b);
    check(e.length >= 2, 'E_ARG', () => `fale: edges for "${c.name}" need at least two distinct values`);
    return e;
  }) as [number[], number[]];
  const [e1, e2] = edges;
  const K1 = e1.length - 1;
  const K2 = e2.length - 1;
  const warnings: string[] = prep.warnings;
  check(
    K1 >= 1 && K2 >= 1,
    'E_ARG',
    () =>
      `fale: --pair: the percentiles of ${K1 < 1 ? n1 : n2} collapse to one value; 2-D FALE needs at least two edges ` +
      `per feature`,
  );
  const b1 = assignBins(cols[0].values, e1);
  const b2 = assignBins(cols[1].values, e2);
  const members: number[] = [];
  for (let i = 0; i < table.rows; i++) if (b1[i] >= 0 && b2[i] >= 0) members.push(i);
  const m = members.length;
  const cell = Int32Array.from(members, (r) => b1[r] * K2 + b2[r]);
  // one model call: the members at corner (lo, lo), (hi, lo), (lo, hi), (hi, hi) of their cell
  const rows = new Int32Array(4 * m);
  const pop = new Int32Array(4 * m);
  for (let c = 0; c < 4; c++) {
    for (let j = 0; j < m; j++) {
      rows[c * m + j] = members[j];
      pop[c * m + j] = cell[j];
    }
  }
  const corner = (j: number) => Math.floor(j / m); // 0: (lo, lo), 1: (hi, lo), 2: (lo, hi), 3: (hi, hi)
  let yhat: Outcomes = new Uint8Array(0);
  if (m > 0) {
    const mod = modifiedTable(table, rows, n1, (j) => e1[b1[rows[j]] + (corner(j) & 1)]);
    const v2 = (mod.columns.find((c) => c.name === n2) as NumericColumn).values;
    for (let j = 0; j < 4 * m; j++) v2[j] = e2[b2[rows[j]] + (corner(j) >> 1)];
    yhat = stat.outcome(await model.predict(mod), rows);
  }
  const F = [0, 1, 2, 3].map((c) =>
    stat.perPopulation(
      K1 * K2,
      rows.subarray(c * m, (c + 1) * m),
      pop.subarray(c * m, (c + 1) * m),
      yhat.subarray(c * m, (c + 1) * m),
      u,
      null,
      minBin,
    ),
  );
  const n = grid(K1, K2, 0);
  const nu = grid(K1, K2, 0);
  for (const r of members) {
    n[b1[r]][b2[r]]++;
    if (u[r]) nu[b1[r]][b2[r]]++;
  }
  const deltas = grid<number | null>(K1, K2, null);
  for (let i = 0; i < K1; i++) {
    for (let j = 0; j < K2; j++) {
      const k = i * K2 + j;
      const [f11, f21, f12, f22] = F.map((f) => f[k]);
      deltas[i][j] = f11 === null || f21 === null || f12 === null || f22 === null ? null : f22 - f12 - (f21 - f11);
    }
  }
  const { out: filledDeltas, from } = fillNearest(deltas, e1, e2);
  const filled: FilledCell[] = [];
  for (let i = 0; i < K1; i++) {
    for (let j = 0; j < K2; j++) {
      if (deltas[i][j] !== null) continue;
      const src = from[i][j];
      if (src) filled.push({ cell: [i, j], from: src, reason: n[i][j] === 0 ? 'empty' : 'undefined' });
    }
  }
  const empty = filled.filter((f) => f.reason === 'empty').length;
  if (filled.length > 0)
    warnings.push(
      `${n1} × ${n2}: ${empty} empty and ${filled.length - empty} undefined cell(s) (a group absent, no positives ` +
        `for TPR/FPR, or under --min-bin rows) filled from the nearest defined cell`,
    );
  if (filled.length === 0 && deltas.some((row) => row.some((d) => d === null)))
    warnings.push(`${n1} × ${n2}: no cell has a defined metric; every effect is 0`);
  const all = Int32Array.from({ length: table.rows }, (_, i) => i);
  const overall = stat.perPopulation(1, all, new Int32Array(table.rows), stat.outcome(scores, all), u, null, 1)[0];
  return {
    ...info(overall),
    features: [n1, n2],
    edges,
    values: accumulate2d(filledDeltas, n),
    deltas,
    filledDeltas,
    cells: { n, unprivileged: nu, privileged: n.map((row, i) => row.map((x, j) => x - nu[i][j])) },
    filled,
    excluded: table.rows - m,
    warnings,
  };
}
