// The reference preprocessing of a model's inputs (canonical_sets' data loaders), fitted once and carried in the model
// file: categorical features become one-hot groups (categories sorted by code unit, as pandas
// get_dummies sorts them) and numeric features are min-max scaled to [−1, 1] with the minimum and
// maximum of the table it was fitted on (the training split only), as scikit-learn's
// MinMaxScaler(feature_range=(−1, 1)): values outside the fitted range fall outside [−1, 1].
//
// Input-vector order is the reference's: every numeric feature first (in feature order), then one
// one-hot group per categorical feature (in feature order). `groups` lists them in that order, with
// each group's start and width in the vector. Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import type { CategoricalColumn, Column, Table } from '../../data/table.js';
import { byCodeUnit } from '../../data/text.js';

export interface FeatureGroup {
  /** the feature (column) name */
  name: string;
  kind: 'numeric' | 'categorical';
  /** first position in the encoded vector */
  start: number;
  /** 1 for a numeric feature, the number of categories for a categorical one */
  width: number;
  /** categorical: the labels of the one-hot positions, sorted */
  categories?: string[];
  /** numeric: the fitted minimum and maximum (original units) */
  min?: number;
  max?: number;
  /** numeric: most decimals a fitted value had (decode can round to them) */
  decimals?: number;
}

/** Decimal places of a number as JS prints it (1.25 → 2, 3 → 0, 1e-7 → 7), capped at 12. */
function decimalsOf(v: number): number {
  if (!Number.isFinite(v) || Number.isInteger(v)) return 0;
  const s = String(Math.abs(v));
  const e = s.indexOf('e-');
  if (e >= 0) {
    const mant = s.slice(0, e);
    const dot = mant.indexOf('.');
    return Math.min(12, Number(s.slice(e + 2)) + (dot >= 0 ? mant.length - dot - 1 : 0));
  }
  const dot = s.indexOf('.');
  return dot >= 0 ? Math.min(12, s.length - dot - 1) : 0;
}

/** The label of a cell of either kind, as a model sees categories ('' for a missing code). */
export function labelOf(col: Column, row: number): string | null {
  if (col.kind === 'categorical') {
    const k = col.codes[row];
    return k < 0 ? null : col.categories[k];
  }
  const v = col.values[row];
  return Number.isNaN(v) ? null : String(v);
}

/** The labels of a categorical column's dictionary, sorted. */
function categoriesOf(col: CategoricalColumn): string[] {
  return [...new Set(col.categories)].sort(byCodeUnit);
}

export class Preprocessor {
  private constructor(
    readonly features: readonly string[],
    readonly groups: readonly FeatureGroup[],
    readonly dim: number,
  ) {}

  /**
   * Fits the encoding on `table`: numeric columns get their min and max over its rows (no NaN
   * allowed), categorical columns a one-hot group over their dictionary, sorted (a label the
   * dictionary holds but no row uses still gets a position, as pandas does over the concatenated
   * splits, so Adult gives the reference's 104 columns).
   */
  static fit(table: Table, features: string[], where = 'preprocess'): Preprocessor {
    check(features.length > 0, 'E_INPUT', () => `${where}: no feature columns to encode`);
    check(
      new Set(features).size === features.length,
      'E_ARG',
      () => `${where}: a feature is listed twice (${features.join(', ')})`,
    );
    check(table.rows > 0, 'E_INPUT', () => `${where}: the table has no rows to fit on`);
    const cols = requireColumns(table, features, where);
    const groups: FeatureGroup[] = [];
    let start = 0;
    for (const col of cols) {
      if (col.kind !== 'numeric') continue;
      let min = Infinity;
      let max = -Infinity;
      let decimals = 0;
      const v = col.values;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (Number.isNaN(x)) throw nanError(where, col.name, i);
        if (x < min) min = x;
        if (x > max) max = x;
        if (decimals < 12 && !Number.isInteger(x)) decimals = Math.max(decimals, decimalsOf(x));
      }
      groups.push({ name: col.name, kind: 'numeric', start: start++, width: 1, min, max, decimals });
    }
    for (const col of cols) {
      if (col.kind !== 'categorical') continue;
      const categories = categoriesOf(col);
      check(categories.length > 0, 'E_INPUT', () => `${where}: column "${col.name}" has no categories`);
      groups.push({ name: col.name, kind: 'categorical', start, width: categories.length, categories });
      start += categories.length;
    }
    return new Preprocessor(features.slice(), groups, start);
  }

  /** Names of the encoded columns, as the reference names them ("Sex+Male"; a numeric keeps its name). */
  get columnNames(): string[] {
    const out: string[] = [];
    for (const g of this.groups) {
      if (g.kind === 'numeric') out.push(g.name);
      else for (const c of g.categories!) out.push(`${g.name}+${c}`);
    }
    return out;
  }

  /**
   * (N, D) row-major encoding of `table`'s feature columns (other columns are ignored). A missing
   * feature column, a missing or non-numeric value, or a category not seen at fit time is an
   * E_INPUT error naming the column, the row (1-based, of the table) and the value.
   */
  encode(table: Table, where = 'encode'): Float32Array {
    // Fast path: the same values written row block by row block (every group of ENCODE_BLOCK rows
    // before the next rows), so the writes stay in cache instead of one strided pass over the whole
    // matrix per column. An audit encodes every generated row and every FALE table through here. Any
    // error sends it to the column-by-column loop below, which throws the error it always threw.
    try {
      return this.encodeBlocked(table, where);
    } catch {
      return this.encodeByColumn(table, where);
    }
  }

  private encodeBlocked(table: Table, where: string): Float32Array {
    const cols = requireColumns(table, this.features, where);
    const byName = new Map(cols.map((c) => [c.name, c]));
    const n = table.rows;
    const D = this.dim;
    const out = new Float32Array(n * D);
    // per group: a numeric's values and scaling, or a categorical's codes mapped to the fitted dictionary
    const plans = this.groups.map((g) => {
      const col = byName.get(g.name)!;
      if (g.kind === 'numeric') {
        const { scale, offset } = scaling(g);
        return {
          numeric: true,
          start: g.start,
          values: numericValues(col, where),
          scale,
          offset,
          codes: null as Int32Array | null,
          map: null as Int32Array | null,
        };
      }
      if (col.kind !== 'categorical') throw new Error('labels of a numeric column: the column loop handles them');
      const index = new Map(g.categories!.map((c, k) => [c, k]));
      return {
        numeric: false,
        start: g.start,
        values: null as Float64Array | null,
        scale: 0,
        offset: 0,
        codes: col.codes,
        map: Int32Array.from(col.categories, (c) => index.get(c) ?? -1),
      };
    });
    for (let b0 = 0; b0 < n; b0 += ENCODE_BLOCK) {
      const b1 = Math.min(n, b0 + ENCODE_BLOCK);
      for (const p of plans) {
        const start = p.start;
        if (p.numeric) {
          const values = p.values!;
          const { scale, offset } = p;
          for (let i = b0; i < b1; i++) {
            const x = values[i];
            if (Number.isNaN(x)) throw new Error('NaN');
            out[i * D + start] = x * scale + offset;
          }
        } else {
          const codes = p.codes!;
          const map = p.map!;
          for (let i = b0; i < b1; i++) {
            const code = codes[i];
            const k = code < 0 ? -1 : map[code];
            if (k < 0) throw new Error('missing or unseen');
            out[i * D + start + k] = 1;
          }
        }
      }
    }
    return out;
  }

  private encodeByColumn(table: Table, where: string): Float32Array {
    const cols = requireColumns(table, this.features, where);
    const byName = new Map(cols.map((c) => [c.name, c]));
    const n = table.rows;
    const D = this.dim;
    const out = new Float32Array(n * D);
    for (const g of this.groups) {
      const col = byName.get(g.name)!;
      if (g.kind === 'numeric') {
        const values = numericValues(col, where);
        const { scale, offset } = scaling(g);
        for (let i = 0; i < n; i++) {
          const x = values[i];
          if (Number.isNaN(x)) throw nanError(where, g.name, i);
          out[i * D + g.start] = x * scale + offset;
        }
      } else {
        const index = new Map(g.categories!.map((c, k) => [c, k]));
        if (col.kind === 'categorical') {
          // map the table's dictionary once, then the codes
          const map = col.categories.map((c) => index.get(c) ?? -1);
          for (let i = 0; i < n; i++) {
            const code = col.codes[i];
            if (code < 0) throw new EngineError('E_INPUT', `${where}: column "${g.name}", row ${i + 1}: missing value`);
            const k = map[code];
            if (k < 0) throw unseen(where, g, i, col.categories[code]);
            out[i * D + g.start + k] = 1;
          }
        } else {
          for (let i = 0; i < n; i++) {
            const label = labelOf(col, i);
            if (label === null)
              throw new EngineError('E_INPUT', `${where}: column "${g.name}", row ${i + 1}: missing value`);
            const k = index.get(label);
            if (k === undefined) throw unseen(where, g, i, label);
            out[i * D + g.start + k] = 1;
          }
        }
      }
    }
    return out;
  }

  /**
   * The table an encoded (N, D) matrix stands for: numerics inverse-scaled to original units
   * (rounded to the decimals the fitted values had when `round`), categoricals by the arg-max of
   * their group (first position on ties). Columns in feature order.
   */
  decode(x: Float32Array, n: number, opts: { round?: boolean } = {}): Table {
    const D = this.dim;
    check(
      Number.isInteger(n) && n >= 0 && x.length === n * D,
      'E_SHAPE',
      () => `decode: ${x.length} values are not ${n} rows of ${D}`,
    );
    const byName = new Map(this.groups.map((g) => [g.name, g]));
    const columns = this.features.map((name): Column => {
      const g = byName.get(name)!;
      if (g.kind === 'numeric') {
        const { scale, offset } = scaling(g);
        const values = new Float64Array(n);
        const p = opts.round ? 10 ** (g.decimals ?? 0) : 0;
        for (let i = 0; i < n; i++) {
          const v = (x[i * D + g.start] - offset) / scale;
          values[i] = p ? Math.round(v * p) / p : v;
        }
        return { kind: 'numeric', name, values };
      }
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        let best = 0;
        let bv = x[i * D + g.start];
        for (let k = 1; k < g.width; k++) {
          const v = x[i * D + g.start + k];
          if (v > bv) {
            bv = v;
            best = k;
          }
        }
        codes[i] = best;
      }
      return { kind: 'categorical', name, codes, categories: g.categories!.slice() };
    });
    return { rows: n, columns };
  }

  toJSON(): object {
    return {
      features: this.features.slice(),
      groups: this.groups.map((g) =>
        g.kind === 'numeric'
          ? {
              name: g.name,
              kind: g.kind,
              start: g.start,
              width: g.width,
              min: g.min,
              max: g.max,
              decimals: g.decimals ?? 0,
            }
          : { name: g.name, kind: g.kind, start: g.start, width: g.width, categories: g.categories!.slice() },
      ),
    };
  }

  /** Validates a serialised preprocessor; a bad field is an E_INPUT error naming `where` and the field. */
  static fromJSON(obj: unknown, where: string): Preprocessor {
    const bad = (field: string, what: string): never => {
      throw new EngineError('E_INPUT', `${where}: field "${field}" ${what}`);
    };
    if (!isObject(obj)) bad('preprocessor', 'must be an object');
    const o = obj as Record<string, unknown>;
    const features = o.features;
    if (!Array.isArray(features) || features.length === 0 || !features.every((f) => typeof f === 'string'))
      bad('preprocessor.features', 'must be a non-empty array of column names');
    const fs = features as string[];
    if (new Set(fs).size !== fs.length) bad('preprocessor.features', 'names a column twice');
    const groupsIn = o.groups;
    if (!Array.isArray(groupsIn) || groupsIn.length !== fs.length)
      bad('preprocessor.groups', `must be an array of ${fs.length} groups (one per feature)`);
    const groups: FeatureGroup[] = [];
    let start = 0;
    let seenCategorical = false;
    (groupsIn as unknown[]).forEach((gi, i) => {
      const f = `preprocessor.groups[${i}]`;
      if (!isObject(gi)) bad(f, 'must be an object');
      const g = gi as Record<string, unknown>;
      if (typeof g.name !== 'string' || !fs.includes(g.name)) bad(`${f}.name`, 'must be one of the features');
      if (groups.some((h) => h.name === g.name)) bad(`${f}.name`, `repeats the feature "${String(g.name)}"`);
      if (g.start !== start) bad(`${f}.start`, `must be ${start}`);
      const name = g.name as string;
      if (g.kind === 'numeric') {
        if (seenCategorical) bad(`${f}.kind`, 'numeric groups must come before the one-hot groups');
        if (g.width !== 1) bad(`${f}.width`, 'must be 1 for a numeric feature');
        if (typeof g.min !== 'number' || !Number.isFinite(g.min)) bad(`${f}.min`, 'must be a finite number');
        if (typeof g.max !== 'number' || !Number.isFinite(g.max) || (g.max as number) < (g.min as number))
          bad(`${f}.max`, 'must be a finite number ≥ min');
        const decimals = g.decimals ?? 0;
        if (!Number.isInteger(decimals) || (decimals as number) < 0 || (decimals as number) > 12)
          bad(`${f}.decimals`, 'must be an integer in [0, 12]');
        groups.push({
          name,
          kind: 'numeric',
          start,
          width: 1,
          min: g.min as number,
          max: g.max as number,
          decimals: decimals as number,
        });
        start += 1;
      } else if (g.kind === 'categorical') {
        seenCategorical = true;
        const cats = g.categories;
        if (!Array.isArray(cats) || cats.length === 0 || !cats.every((c) => typeof c === 'string'))
          bad(`${f}.categories`, 'must be a non-empty array of labels');
        if (new Set(cats as string[]).size !== (cats as string[]).length) bad(`${f}.categories`, 'repeats a label');
        if (g.width !== (cats as string[]).length)
          bad(`${f}.width`, `must be ${(cats as string[]).length} (the number of categories)`);
        groups.push({
          name,
          kind: 'categorical',
          start,
          width: (cats as string[]).length,
          categories: (cats as string[]).slice(),
        });
        start += (cats as string[]).length;
      } else bad(`${f}.kind`, 'must be "numeric" or "categorical"');
    });
    return new Preprocessor(fs.slice(), groups, start);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** x·scale + offset maps [min, max] to [−1, 1] (scikit-learn's MinMaxScaler; a constant column maps to −1). */
function scaling(g: FeatureGroup): { scale: number; offset: number } {
  const range = g.max! - g.min!;
  const scale = 2 / (range === 0 ? 1 : range);
  return { scale, offset: -1 - g.min! * scale };
}

function requireColumns(table: Table, names: readonly string[], where: string): Column[] {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const missing = names.filter((n) => !byName.has(n));
  check(
    missing.length === 0,
    'E_INPUT',
    () =>
      `${where}: the data lacks the column${missing.length > 1 ? 's' : ''} ` +
      `${missing.map((m) => `"${m}"`).join(', ')}; the columns are: ` +
      `${table.columns.map((c) => c.name).join(', ')}`,
  );
  return names.map((n) => byName.get(n)!);
}

function nanError(where: string, column: string, row: number): EngineError {
  return new EngineError(
    'E_INPUT',
    `${where}: column "${column}", row ${row + 1}: missing value (NaN); a model needs a number in every row`,
  );
}

function unseen(where: string, g: FeatureGroup, row: number, label: string): EngineError {
  return new EngineError(
    'E_INPUT',
    `${where}: column "${g.name}", row ${row + 1}: category "${label}" was not seen in training (known: ` +
      `${g.categories!.join(', ')})`,
  );
}

/** Values of a column the model reads as numbers; a categorical column is accepted when every label is a number. */
/** rows per block of Preprocessor.encode's fast path */
const ENCODE_BLOCK = 256;

function numericValues(col: Column, where: string): Float64Array {
  if (col.kind === 'numeric') return col.values;
  const c = col as CategoricalColumn;
  const parsed = c.categories.map((s) =>
    /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s.trim()) ? Number(s) : NaN,
  );
  const out = new Float64Array(c.codes.length);
  for (let i = 0; i < out.length; i++) {
    const k = c.codes[i];
    if (k < 0) {
      out[i] = NaN;
      continue;
    }
    const v = parsed[k];
    if (Number.isNaN(v))
      throw new EngineError(
        'E_INPUT',
        `${where}: column "${c.name}", row ${i + 1}: "${c.categories[k]}" is not a number, and the model reads this ` +
          `column as numbers`,
      );
    out[i] = v;
  }
  return out;
}
