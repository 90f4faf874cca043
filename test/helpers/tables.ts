// Small hand-written tables for tests: column builders with first-seen category order.
import type { CategoricalColumn, Column, NumericColumn, Table } from '../../src/data/table.js';

export const num = (name: string, values: number[]): NumericColumn => ({
  kind: 'numeric',
  name,
  values: Float64Array.from(values),
});

/** A categorical column; categories in first-seen order unless a dictionary is given. */
export function cat(name: string, labels: string[], dictionary?: string[]): CategoricalColumn {
  const categories = dictionary ? dictionary.slice() : [...new Set(labels)];
  return { kind: 'categorical', name, codes: Int32Array.from(labels, (l) => categories.indexOf(l)), categories };
}

export const table = (...columns: Column[]): Table => ({
  rows: columns[0].kind === 'numeric' ? columns[0].values.length : columns[0].codes.length,
  columns,
});
