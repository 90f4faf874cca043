// Per-feature distributions of the positive and negative canonical sets, with the uploaded data as a
// reference series, on the report's common bins (src/audit/distance.ts), ranked by JS distance.
import { distribution, rankDistributions } from '../src/audit/distance.js';
import type { Distribution } from '../src/audit/types.js';
import type { Table } from '../src/data/table.js';

export const POSITIVE = 'positive (pred = 1)';
export const NEGATIVE = 'negative (pred = 0)';
export const DATA = 'uploaded data';

/** One Distribution per column of `positive` except `skip`, largest JS distance first. */
export function compareSets(positive: Table, negative: Table, data: Table | null, skip: readonly string[]): Distribution[] {
  const out: Distribution[] = [];
  for (const pc of positive.columns) {
    if (skip.includes(pc.name)) continue;
    const nc = negative.columns.find((c) => c.name === pc.name);
    if (!nc || nc.kind !== pc.kind) continue;
    const dc = data?.columns.find((c) => c.name === pc.name);
    const series = [{ name: POSITIVE, column: pc }, { name: NEGATIVE, column: nc }];
    if (dc && dc.kind === pc.kind) series.push({ name: DATA, column: dc });
    out.push(distribution(pc.name, series, 'feature'));
  }
  return rankDistributions(out);
}
