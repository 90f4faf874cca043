// CTGAN's data transformer (Xu et al. 2019, §4.2 "mode-specific normalization"), written from the
// paper: each numeric column is modelled by a variational Gaussian mixture; a value x becomes
// (x − μ_k)/(4σ_k), clipped to [−0.99, 0.99], plus a one-hot of its mode k, where k is sampled
// from the mixture's responsibilities with our seeded generator. Categorical columns become
// one-hot vectors. The inverse maps generated rows back to values and labels, keeping every number
// inside its column's observed range and at its decimals (integers stay integers).
//
// Core code (no Node imports). The fitted transformer serialises to JSON so a saved model samples
// without refitting.
//
// Shapes: N rows, D = Σ column widths; a numeric column with m kept modes is 1 + m wide.
import type { Engine } from '../../engine/engine.js';
import { check, EngineError } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import type { OutputSpan } from './networks.js';
import type { Column, Table } from '../../data/table.js';
import { decimalPlaces, MAX_DECIMALS } from '../../data/decimals.js';
import type { InspectSummary } from '../../data/inspect.js';
import { activeModes, fitVgm, type VgmModel, vgmFromJSON, vgmPredictProba, vgmToJSON } from './vgm.js';

/** How far from a mode's mean a value may lie before its normalised scalar is clipped (CTGAN's 4σ). */
const STD_MULTIPLIER = 4;
const CLIP = 0.99;

export interface NumericInfo {
  kind: 'numeric';
  name: string;
  /**
   * Point masses: values so frequent (≥ TRANSFORMER_DEFAULTS.pointShare of the rows) that they are
   * modes of their own, before the mixture's: a value equal to one is one-hot on it with scalar 0,
   * and the inverse gives it back exactly. A mixture component cannot hold a spike: its posterior
   * variance never falls below the prior's share (on Adult's Capital Loss, 95% zeros became a mode
   * of σ 13, so generated "zeros" spread over ±50), and heaped values (40 hours a week) blur into
   * their neighbours. Off by default (TRANSFORMER_DEFAULTS.pointShare); absent in files without them.
   */
  points?: number[];
  /** the mixture over the values that are not point masses */
  vgm: VgmModel;
  /** indices into the mixture's components that are kept (weight > threshold), in component order */
  modes: number[];
  /**
   * Decimal places every training value has (0 for whole numbers, up to 6), or null when the
   * values are not that regular. The inverse rounds to it, so generated ages are whole years and
   * a round trip is exact on such columns.
   */
  decimals: number | null;
  /**
   * The smallest and largest training value: the inverse clips generated values into it, so no
   * generated age is below the youngest person in the data and no amount of money is negative when
   * none was (CTGAN's RDT enforces the same min/max). Absent in files written before it existed.
   */
  range?: [number, number];
}

export interface CategoricalInfo {
  kind: 'categorical';
  name: string;
  categories: string[];
}

/** A column holding a single value: not modelled (width 0), restored as that value by the inverse. */
export interface ConstantInfo {
  kind: 'constant';
  name: string;
  value: number | string;
  /** the column kind it had in the input table */
  of: 'numeric' | 'categorical';
}

export type ColumnInfo = NumericInfo | CategoricalInfo | ConstantInfo;

export const TRANSFORMER_DEFAULTS = {
  maxModes: 10,
  weightThreshold: 0.005,
  /**
   * a value held by at least this share of a numeric column's rows is a point mass (0: none, the
   * default: EXPERIMENTS.md §7.3 measured 0.05 and it missed its declared rule)
   */
  pointShare: 0,
  /** at most this many point masses per column (the most frequent) */
  maxPoints: 10,
};

export interface TransformerOptions {
  /** mixture components per numeric column (CTGAN's max_clusters) */
  maxModes?: number;
  /**
   * a value held by at least this share of a numeric column's rows is a point mass (default
   * TRANSFORMER_DEFAULTS.pointShare; 0: none)
   */
  pointShare?: number;
  /** modes with a weight above this are kept */
  weightThreshold?: number;
  /** seed of the mixture fits (k-means initialisation) */
  seed?: number;
}

export interface TransformReport {
  /** per numeric column, how many values were clipped to ±0.99 (farther than 3.96σ from their mode) */
  clipped: Record<string, number>;
}

/** What the inverse clipped into the columns' ranges. */
export interface InverseReport {
  /** per numeric column, how many generated values lay outside its range and were clipped into it */
  clipped: Record<string, number>;
  /** rows with at least one clipped value */
  rowsClipped: number;
}

/** Mode slots of a numeric column: its point masses, then its mixture modes. */
const slots = (c: NumericInfo): number => (c.points?.length ?? 0) + c.modes.length;

/** Width of a column in a transformed row: 1 + slots for a numeric one, one per category, 0 for a constant. */
export const columnWidth = (c: ColumnInfo): number =>
  c.kind === 'numeric' ? 1 + slots(c) : c.kind === 'categorical' ? c.categories.length : 0;
const width = columnWidth;

/** The point masses of a column: values with at least `share` of the rows (and 2 rows), at most `max`, ascending. */
function pointMasses(values: Float64Array, share: number, max: number): number[] {
  if (!(share > 0)) return [];
  const count = new Map<number, number>();
  for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
  const need = Math.max(2, share * values.length);
  return [...count.entries()]
    .filter(([, k]) => k >= need)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, max)
    .map(([v]) => v)
    .sort((a, b) => a - b);
}

/** The share of a number column's rows a point mass needs to be modelled as one: in [0, 1). */
export function checkPointShare(pointShare: number): void {
  check(
    Number.isFinite(pointShare) && pointShare >= 0 && pointShare < 1,
    'E_ARG',
    () => `transformer: pointShare must be in [0, 1), got ${pointShare}`,
  );
}

export class DataTransformer {
  private constructor(readonly columns: readonly ColumnInfo[]) {}

  /** Fits one mixture per numeric column and records every categorical column's categories. */
  static fit(engine: Engine, table: Table, opts: TransformerOptions = {}): DataTransformer {
    const maxModes = opts.maxModes ?? TRANSFORMER_DEFAULTS.maxModes;
    const threshold = opts.weightThreshold ?? TRANSFORMER_DEFAULTS.weightThreshold;
    const pointShare = opts.pointShare ?? TRANSFORMER_DEFAULTS.pointShare;
    checkPointShare(pointShare);
    check(table.rows > 0, 'E_INPUT', () => 'transformer: the table has no rows');
    const infos = table.columns.map((col, j): ColumnInfo => {
      const constant = constantValue(col);
      if (constant !== null) return { kind: 'constant', name: col.name, value: constant, of: col.kind };
      if (col.kind === 'categorical') {
        for (let i = 0; i < table.rows; i++) {
          check(
            col.codes[i] >= 0,
            'E_INPUT',
            () =>
              `transformer: column "${col.name}" has a missing cell at row ${i + 1}; apply a missing-value policy ` +
              `first`,
          );
        }
        return { kind: 'categorical', name: col.name, categories: col.categories.slice() };
      }
      for (let i = 0; i < table.rows; i++) {
        check(
          Number.isFinite(col.values[i]),
          'E_INPUT',
          () => `transformer: column "${col.name}" has a non-finite value at row ${i + 1}`,
        );
      }
      // point masses first; the mixture models the other values (when fewer than two distinct remain, they are points
      // too)
      const points = pointMasses(col.values, pointShare, TRANSFORMER_DEFAULTS.maxPoints);
      const isPoint = new Set(points);
      let rest = col.values.filter((v) => !isPoint.has(v));
      if (points.length > 0 && new Set(rest).size < 2) {
        for (const v of new Set(rest)) points.push(v);
        points.sort((a, b) => a - b);
        rest = new Float64Array(0);
      }
      const fitOn = rest.length > 0 ? rest : col.values;
      const vgm = fitVgm(engine, fitOn, { nComponents: Math.min(maxModes, fitOn.length), seed: (opts.seed ?? 0) + j });
      const modes = rest.length > 0 ? activeModes(vgm, threshold) : [];
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of col.values) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      const info: NumericInfo = {
        kind: 'numeric',
        name: col.name,
        vgm,
        modes,
        decimals: decimalPlaces(col.values),
        range: [lo, hi],
      };
      if (points.length) info.points = points;
      return info;
    });
    return new DataTransformer(infos);
  }

  /** Total width D of a transformed row. */
  get outputDim(): number {
    return this.columns.reduce((a, c) => a + width(c), 0);
  }

  /** The activation of each output span, for the generator: tanh for scalars, softmax for modes and categories. */
  get spans(): OutputSpan[] {
    const out: OutputSpan[] = [];
    for (const c of this.columns) {
      if (c.kind === 'numeric') {
        out.push({ kind: 'tanh', width: 1 });
        out.push({ kind: 'softmax', width: slots(c) });
      } else if (c.kind === 'categorical') out.push({ kind: 'softmax', width: c.categories.length });
    }
    return out;
  }

  /** Names of the columns excluded from modelling because they hold a single value. */
  get constantColumns(): string[] {
    return this.columns.filter((c) => c.kind === 'constant').map((c) => c.name);
  }

  /**
   * (N, D) row-major float32 matrix of the table, columns in fit order. The mode of each numeric
   * value is sampled from its responsibilities with `rng` (after adding 1e-6 to each, so a value
   * never lands on a mode of zero probability only through rounding).
   */
  transform(engine: Engine, table: Table, rng: Rng): { data: Float32Array; report: TransformReport } {
    const n = table.rows;
    const d = this.outputDim;
    const out = new Float32Array(n * d);
    const report: TransformReport = { clipped: {} };
    let at = 0;
    for (const info of this.columns) {
      const col = findColumn(table, info.name);
      if (info.kind === 'constant') continue;
      if (info.kind === 'categorical') {
        check(
          col.kind === 'categorical',
          'E_INPUT',
          () => `transformer: column "${info.name}" was categorical when fitted, now numeric`,
        );
        // Map this table's codes to the fitted dictionary by label, so tables with their own
        // dictionaries (another file, another order) transform consistently.
        const lut = col.categories.map((label) => info.categories.indexOf(label));
        for (let i = 0; i < n; i++) {
          const k = col.codes[i] < 0 ? -1 : lut[col.codes[i]];
          if (k < 0) {
            const label = col.codes[i] < 0 ? '(missing)' : col.categories[col.codes[i]];
            throw new EngineError(
              'E_INPUT',
              `transformer: column "${info.name}", row ${i + 1}: category "${label}" was not seen when the ` +
                `transformer was fitted (known: ${info.categories.slice(0, 20).join(', ')}` +
                `${info.categories.length > 20 ? ', …' : ''})`,
            );
          }
          out[i * d + at + k] = 1;
        }
        at += info.categories.length;
        continue;
      }
      check(
        col.kind === 'numeric',
        'E_INPUT',
        () => `transformer: column "${info.name}" was numeric when fitted, now categorical`,
      );
      const x = col.values;
      for (let i = 0; i < n; i++) {
        check(
          Number.isFinite(x[i]),
          'E_INPUT',
          () => `transformer: column "${info.name}", row ${i + 1}: value ${x[i]} is not a finite number`,
        );
      }
      const K = info.vgm.weights.length;
      const m = info.modes.length;
      const points = info.points ?? [];
      const P = points.length;
      const pointAt = new Map(points.map((v, k) => [v, k]));
      const proba = m > 0 ? vgmPredictProba(engine, info.vgm, x) : new Float64Array(0); // (N, K)
      const u = rng.uniformHost(n);
      let clipped = 0;
      const p = new Float64Array(m);
      for (let i = 0; i < n; i++) {
        const pk = pointAt.get(x[i]);
        if (pk !== undefined) {
          // a point mass: its own slot, scalar 0
          out[i * d + at + 1 + pk] = 1;
          continue;
        }
        check(
          m > 0,
          'E_INPUT',
          () =>
            `transformer: column "${info.name}", row ${i + 1}: ${x[i]} is none of the values it was fitted on ` +
            `(${points.join(', ')})`,
        );
        let total = 0;
        for (let j = 0; j < m; j++) {
          p[j] = proba[i * K + info.modes[j]] + 1e-6;
          total += p[j];
        }
        // inverse-CDF draw of the mode from the renormalised kept responsibilities
        let r = u[i] * total;
        let k = 0;
        while (k < m - 1 && r >= p[k]) r -= p[k++];
        const comp = info.modes[k];
        let v = (x[i] - info.vgm.means[comp]) / (STD_MULTIPLIER * info.vgm.stds[comp]);
        if (v > CLIP || v < -CLIP) {
          clipped++;
          v = v > 0 ? CLIP : -CLIP;
        }
        out[i * d + at] = v;
        out[i * d + at + 1 + P + k] = 1;
      }
      report.clipped[info.name] = clipped;
      at += 1 + P + m;
    }
    return { data: out, report };
  }

  /**
   * Maps (N, D) generated rows back to a table: a numeric value is v·4σ_k + μ_k with k the arg-max
   * mode and v clipped to [−1, 1], then clipped into the column's range (the training range, or
   * `opts.range[name]` when given) and rounded to its decimals; a category is the arg-max of its span.
   * `opts.report` receives the counts of clipped values (per column) and rows.
   */
  inverse(
    data: Float32Array,
    n: number,
    opts: { range?: Record<string, readonly [number, number]>; report?: InverseReport } = {},
  ): Table {
    const d = this.outputDim;
    check(
      data.length === n * d,
      'E_SHAPE',
      () => `transformer.inverse: ${data.length} values are not ${n} rows of ${d}`,
    );
    let at = 0;
    const rowClipped = opts.report ? new Uint8Array(n) : null;
    const columns = this.columns.map((info): Column => {
      if (info.kind === 'constant') {
        if (info.of === 'numeric')
          return { kind: 'numeric', name: info.name, values: new Float64Array(n).fill(info.value as number) };
        return { kind: 'categorical', name: info.name, codes: new Int32Array(n), categories: [String(info.value)] };
      }
      if (info.kind === 'categorical') {
        const w = info.categories.length;
        const codes = new Int32Array(n);
        for (let i = 0; i < n; i++) codes[i] = argmax(data, i * d + at, w);
        at += w;
        return { kind: 'categorical', name: info.name, codes, categories: info.categories.slice() };
      }
      const m = info.modes.length;
      const points = info.points ?? [];
      const P = points.length;
      const values = new Float64Array(n);
      const range = opts.range?.[info.name] ?? info.range;
      const lo = range ? range[0] : -Infinity;
      const hi = range ? range[1] : Infinity;
      let clipped = 0;
      // hoisted out of the row loop (the same values): the modes, the mixture and roundTo's factor
      const modes = info.modes;
      const stds = info.vgm.stds;
      const means = info.vgm.means;
      const decimals = info.decimals;
      const f = decimals === null ? 1 : 10 ** decimals;
      for (let i = 0; i < n; i++) {
        const slot = argmax(data, i * d + at + 1, P + m);
        if (slot < P) {
          values[i] = points[slot];
          continue;
        }
        const v = Math.min(1, Math.max(-1, data[i * d + at]));
        const comp = modes[slot - P];
        // rounded first (a value that rounds into the range is not clipped); the range ends are
        // training values, so they have the column's decimals already (roundTo, its factor hoisted)
        const raw = v * STD_MULTIPLIER * stds[comp] + means[comp];
        let x = decimals === null ? raw : Math.round(raw * f) / f;
        if (x < lo || x > hi) {
          clipped++;
          if (rowClipped) rowClipped[i] = 1;
          x = x < lo ? lo : hi;
        }
        values[i] = x;
      }
      if (opts.report) opts.report.clipped[info.name] = clipped;
      at += 1 + P + m;
      return { kind: 'numeric', name: info.name, values };
    });
    if (opts.report && rowClipped) opts.report.rowsClipped = rowClipped.reduce((a, b) => a + b, 0);
    return { rows: n, columns };
  }

  toJSON(): object {
    return {
      format: 'lucid-wasm/data-transformer',
      version: 1,
      columns: this.columns.map((c) => (c.kind === 'numeric' ? { ...c, vgm: vgmToJSON(c.vgm) } : c)),
    };
  }

  static fromJSON(obj: unknown, where = 'model file'): DataTransformer {
    const bad = (why: string): never => {
      throw new EngineError('E_INPUT', `${where}: the data transformer is corrupt (${why})`);
    };
    const o = obj as { format?: unknown; version?: unknown; columns?: unknown };
    if (!o || typeof o !== 'object' || o.format !== 'lucid-wasm/data-transformer')
      bad('not a lucid-wasm data transformer');
    if (o.version !== 1) bad(`unsupported version ${String(o.version)}`);
    if (!Array.isArray(o.columns) || o.columns.length === 0) bad('no columns');
    const columns = (o.columns as unknown[]).map((c, i): ColumnInfo => {
      const x = c as Record<string, unknown>;
      if (!x || typeof x.name !== 'string') return bad(`column ${i} has no name`);
      if (x.kind === 'categorical') {
        if (
          !Array.isArray(x.categories) ||
          x.categories.length === 0 ||
          !x.categories.every((s) => typeof s === 'string')
        )
          bad(`column "${x.name}" has no valid categories`);
        return { kind: 'categorical', name: x.name, categories: x.categories as string[] };
      }
      if (x.kind === 'constant') {
        if (
          (x.of !== 'numeric' && x.of !== 'categorical') ||
          (typeof x.value !== 'number' && typeof x.value !== 'string')
        )
          bad(`column "${x.name}" has an invalid constant`);
        return {
          kind: 'constant',
          name: x.name,
          value: x.value as number | string,
          of: x.of as 'numeric' | 'categorical',
        };
      }
      if (x.kind !== 'numeric') return bad(`column "${x.name}" has unknown kind ${String(x.kind)}`);
      const vgm = vgmFromJSON(x.vgm);
      const modes = x.modes;
      const pts = x.points;
      if (
        pts !== undefined &&
        (!Array.isArray(pts) || pts.length === 0 || !pts.every((v) => typeof v === 'number' && Number.isFinite(v)))
      )
        bad(`column "${x.name}" has invalid point masses`);
      if (
        !Array.isArray(modes) ||
        (modes.length === 0 && pts === undefined) ||
        !modes.every((k) => Number.isInteger(k) && k >= 0 && k < vgm.weights.length)
      )
        bad(`column "${x.name}" has invalid modes`);
      const decimals = x.decimals;
      if (
        decimals !== null &&
        !(Number.isInteger(decimals) && (decimals as number) >= 0 && (decimals as number) <= MAX_DECIMALS)
      )
        bad(`column "${x.name}" has invalid decimals`);
      const info: NumericInfo = {
        kind: 'numeric',
        name: x.name,
        vgm,
        modes: modes as number[],
        decimals: decimals as number | null,
      };
      if (x.range !== undefined) {
        const r = x.range as unknown[];
        const ok =
          Array.isArray(r) &&
          r.length === 2 &&
          typeof r[0] === 'number' &&
          typeof r[1] === 'number' &&
          Number.isFinite(r[0]) &&
          Number.isFinite(r[1]) &&
          r[0] <= r[1];
        if (!ok) bad(`column "${x.name}" has an invalid range`);
        info.range = [r[0] as number, r[1] as number];
      }
      if (pts !== undefined) info.points = (pts as number[]).slice();
      return info;
    });
    return new DataTransformer(columns);
  }
}

function findColumn(table: Table, name: string): Column {
  const c = table.columns.find((x) => x.name === name);
  if (!c)
    throw new EngineError(
      'E_INPUT',
      `transformer: the table has no column "${name}" (it has: ${table.columns.map((x) => x.name).join(', ')})`,
    );
  return c;
}

function constantValue(col: Column): number | string | null {
  if (col.kind === 'numeric') {
    const v = col.values;
    if (v.length === 0) return null;
    for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return null;
    return v[0];
  }
  const c = col.codes;
  if (c.length === 0 || c[0] < 0) return null;
  for (let i = 1; i < c.length; i++) if (c[i] !== c[0]) return null;
  return col.categories[c[0]];
}

function argmax(a: Float32Array, start: number, n: number): number {
  // the best value kept in a local (not re-read each step): the same first arg-max, NaN included
  // (a NaN best is never beaten, a NaN value never wins); the inverse runs this on every generated value
  let best = 0;
  let bestValue = a[start];
  for (let j = 1; j < n; j++) {
    const v = a[start + j];
    if (v > bestValue) {
      best = j;
      bestValue = v;
    }
  }
  return best;
}

/**
 * Adds to each numeric column the modes the data transformer will use: the components of its
 * variational Gaussian mixture (10 components, Dirichlet-process prior) with weight > 0.005.
 * A column holding a single value has no modes (the GAN excludes it).
 */
export function addModes(engine: Engine, table: Table, summary: InspectSummary, seed = 0): void {
  table.columns.forEach((col, j) => {
    if (col.kind !== 'numeric') return;
    const target = summary.columns.find((c) => c.name === col.name)!;
    const v = col.values;
    if (v.length === 0 || v.every((x) => x === v[0])) {
      target.modes = [];
      return;
    }
    const m = fitVgm(engine, v, { nComponents: Math.min(10, v.length), seed: seed + j });
    target.modes = activeModes(m)
      .map((k) => ({ weight: m.weights[k], mean: m.means[k], std: m.stds[k] }))
      .sort((a, b) => a.mean - b.mean);
  });
}
