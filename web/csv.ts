// Browser data path: bytes of a picked file → Table, through the core reader of src/data/csv-read.ts
// (CSV with the settings the Node reader uses: csvSettings; Parquet, Arrow IPC and JSON Lines with the
// core readers of FORMATS). The whole file is in memory (a browser upload).
import type { Table } from '../src/data/table.js';
export { DATA_ACCEPT, readDataBytes as parseDataBytes, type ParsedData } from '../src/data/csv-read.js';

/** Checks that `name` is a prediction column: numeric, every value in [0, 1]. Returns an error message or null. */
export function checkPredColumn(table: Table, name: string): string | null {
  const col = table.columns.find((c) => c.name === name);
  if (!col) return `no column named "${name}"`;
  if (col.kind !== 'numeric') {
    const sample = col.categories
      .slice(0, 3)
      .map((s) => JSON.stringify(s))
      .join(', ');
    return (
      `column "${name}" is not numeric (it holds ${sample}${col.categories.length > 3 ? ', …' : ''}); the ` +
      `predictions column must hold numbers in [0, 1] (probabilities or 0/1 decisions)`
    );
  }
  const v = col.values;
  for (let i = 0; i < v.length; i++) {
    if (!(v[i] >= 0 && v[i] <= 1)) {
      return (
        `column "${name}" has the value ${v[i]} (row ${i + 1}), outside [0, 1]; the predictions column must hold ` +
        `probabilities or 0/1 decisions`
      );
    }
  }
  return null;
}
