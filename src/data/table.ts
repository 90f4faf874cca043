// The columnar table every data path produces and consumes. Core code: no Node imports.
//
// Numeric columns hold float64 values (NaN marks a missing cell until the missing-value policy
// has run; after it, a table handed to a model has no NaN). Categorical columns hold integer codes
// into a dictionary of category labels, in first-seen order unless a loader sorts them.
import { check, UnknownColumnError } from '../engine/errors.js';

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

/** A name folded for "did you mean": lower case, letters and digits only ("Hours per week" ~ "hours-per-week"). */
const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Levenshtein distance, stopping early once it exceeds `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The available names close to `name`: the same once folded (case, spaces, dashes), else a few edits away; closest
 * first.
 */
export function closeColumns(name: string, available: readonly string[]): string[] {
  const f = fold(name);
  // edits allowed: none for names of one or two characters (every short name is close to every other)
  const cap = f.length < 3 ? 0 : Math.max(1, Math.floor(f.length / 4));
  const near = available
    .map((a) => ({ a, d: fold(a) === f ? 0 : editDistance(fold(a), f, cap) }))
    .filter((x) => x.d <= cap && x.a !== name);
  // the same name but for case or punctuation, when there is one, is the answer
  const best = near.some((x) => x.d === 0) ? near.filter((x) => x.d === 0) : near;
  return best
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((x) => x.a);
}

/**
 * The one error for a column name that is not in the data, for every command (an UnknownColumnError,
 * exit 2): `where` (the file, or the file and option), what was asked for ("--label", "protected
 * column"), the name, the close names ("did you mean …") and every column there is.
 */
export function unknownColumn(
  name: string,
  available: readonly string[],
  where: string,
  what = 'column',
): UnknownColumnError {
  const close = closeColumns(name, available);
  const hint = close.length ? ` (did you mean ${close.map((c) => JSON.stringify(c)).join(' or ')}?)` : '';
  const list = available.length ? `the columns are: ${available.join(', ')}` : 'there are no columns';
  return new UnknownColumnError(
    `${where}: ${what} ${JSON.stringify(name)} is not a column${hint}; ${list}`,
    name,
    available,
  );
}

/** The column called `name`, or an UnknownColumnError naming `where` and listing the columns that exist. */
export function getColumn(table: Table, name: string, where = 'table', what = 'column'): Column {
  const c = table.columns.find((col) => col.name === name);
  if (!c)
    throw unknownColumn(
      name,
      table.columns.map((x) => x.name),
      where,
      what,
    );
  return c;
}

/**
 * Checks at the edge that every name given for an option is a column of `table` (read from `where`,
 * a file): `{ '--label': 'y', '--group': ['sex', 'race'] }`; undefined values are skipped.
 */
export function requireColumns(
  table: Table,
  where: string,
  wanted: Record<string, string | readonly (string | undefined)[] | undefined>,
): void {
  const names = table.columns.map((c) => c.name);
  for (const [option, value] of Object.entries(wanted)) {
    for (const n of typeof value === 'string' ? [value] : (value ?? [])) {
      if (n !== undefined && !names.includes(n)) throw unknownColumn(n, names, where, option);
    }
  }
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
      check(
        c !== undefined && c.kind === c0.kind,
        'E_ARG',
        () => `${where}: every table needs the ${c0.kind} column "${c0.name}"`,
      );
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
  return left.length
    ? { table: { rows: table.rows, columns: table.columns.filter((c) => !left.includes(c.name)) }, left }
    : { table, left };
}

/**
 * A typed array that is its buffer's only view as it is; otherwise a compact copy (structured-cloning a view copies its
 * whole buffer: what a table sent to a worker uses).
 */
export const compact = <T extends Float64Array | Int32Array>(a: T): T =>
  a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : (a.slice() as T);
