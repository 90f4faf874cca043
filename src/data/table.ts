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
