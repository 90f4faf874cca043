// The columnar table every data path produces and consumes. Core code: no Node imports.
//
// Numeric columns hold float64 values (NaN marks a missing cell until the missing-value policy
// has run; after it, a table handed to a model has no NaN). Categorical columns hold integer codes
// into a dictionary of category labels, in first-seen order unless a loader sorts them.
import { check } from '../engine/errors.js';

export interface NumericColumn {
  kind: 'numeric';
  name: string;
  values: Float64Array;
}

export interface CategoricalColumn {
  kind: 'categorical';
  name: string;
  /** codes[i] indexes `categories`; −1 marks a missing cell before the policy has run */
  codes: Int32Array;
  categories: string[];
  /**
   * set by the reader: text with a distinct value on (nearly) every row, an identifier rather than a
   * category; the GAN and the built-in model leave it out (a callable model still gets it)
   */
  identifier?: boolean;
}

export type Column = NumericColumn | CategoricalColumn;

export interface Table {
  rows: number;
  columns: Column[];
}

/** The column called `name`, or an E_INPUT error listing the columns that exist. */
export function getColumn(table: Table, name: string, where = 'table'): Column {
  const c = table.columns.find((col) => col.name === name);
  check(c, 'E_INPUT', () => `${where}: no column named "${name}"; the columns are: ${table.columns.map((x) => x.name).join(', ')}`);
  return c;
}

/** A new table with the rows at `index` (in that order). */
export function selectRows(table: Table, index: ArrayLike<number>): Table {
  const n = index.length;
  const columns = table.columns.map((c): Column => {
    if (c.kind === 'numeric') {
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) v[i] = c.values[index[i]];
      return { kind: 'numeric', name: c.name, values: v };
    }
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = c.codes[index[i]];
    return { kind: 'categorical', name: c.name, codes, categories: c.categories.slice() };
  });
  return { rows: n, columns };
}

/** A new table with only the named columns, in the given order. */
export function selectColumns(table: Table, names: readonly string[], where = 'table'): Table {
  return { rows: table.rows, columns: names.map((n) => getColumn(table, n, where)) };
}

/** The value of a cell as the user wrote it (category label or number). */
export function cell(col: Column, row: number): string | number {
  if (col.kind === 'numeric') return col.values[row];
  const k = col.codes[row];
  return k < 0 ? '' : col.categories[k];
}

/**
 * The rows of several tables with the same column names and kinds, one after the other. Categorical
 * codes are mapped by label onto the first table's dictionary (labels it lacks are appended).
 */
export function concatRows(tables: readonly Table[], where = 'concatRows'): Table {
  check(tables.length > 0, 'E_ARG', () => `${where}: no tables to concatenate`);
  const first = tables[0];
  const rows = tables.reduce((s, t) => s + t.rows, 0);
  const columns = first.columns.map((c0): Column => {
    const parts = tables.map((t) => {
      const c = t.columns.find((x) => x.name === c0.name);
      check(c !== undefined && c.kind === c0.kind, 'E_ARG', () => `${where}: every table needs the ${c0.kind} column "${c0.name}"`);
      return c!;
    });
    if (c0.kind === 'numeric') {
      const values = new Float64Array(rows);
      let at = 0;
      for (const p of parts) {
        values.set((p as NumericColumn).values, at);
        at += (p as NumericColumn).values.length;
      }
      return { kind: 'numeric', name: c0.name, values };
    }
    const categories = c0.categories.slice();
    const index = new Map(categories.map((l, i) => [l, i]));
    const codes = new Int32Array(rows);
    let at = 0;
    for (const p of parts as CategoricalColumn[]) {
      const lut = p.categories.map((l) => {
        let k = index.get(l);
        if (k === undefined) {
          k = categories.length;
          categories.push(l);
          index.set(l, k);
        }
        return k;
      });
      for (let i = 0; i < p.codes.length; i++) codes[at + i] = p.codes[i] < 0 ? -1 : lut[p.codes[i]];
      at += p.codes.length;
    }
    return { kind: 'categorical', name: c0.name, codes, categories };
  });
  return { rows, columns };
}

/** Each row's value as text: the category label, or the number as String() writes it ('' when missing). */
export function cellLabels(c: Column): string[] {
  if (c.kind === 'categorical') return Array.from(c.codes, (k) => (k < 0 ? '' : c.categories[k]));
  return Array.from(c.values, (v) => (Number.isNaN(v) ? '' : String(v)));
}

/** Float64Arrays one after the other (e.g. the scores or the values of several tables' rows). */
export function concatFloat64(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The table without its identifier-like columns (`CategoricalColumn.identifier`), and their names. */
export function withoutIdentifiers(table: Table): { table: Table; left: string[] } {
  const left = table.columns.filter((c) => c.kind === 'categorical' && c.identifier).map((c) => c.name);
  return left.length ? { table: { rows: table.rows, columns: table.columns.filter((c) => !left.includes(c.name)) }, left } : { table, left };
}
