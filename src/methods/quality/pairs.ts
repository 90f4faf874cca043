// One pair of columns' trend score, as SDMetrics' QualityReport chooses it (Column Pair Trends): the
// correlation similarity of two numeric columns, else the contingency similarity with numeric columns
// binned on the real rows. Used by the quality report and by the pair-trend noise floors (beyond.ts).
// Core code: no Node imports.
import type { Column } from '../../data/table.js';
import {
  contingencySimilarity,
  correlationSimilarity,
  encodeColumn,
  type CorrelationMethod,
  type EncodedColumn,
} from './metrics.js';

export const PAIR_DEFAULTS = {
  /** equal-width bins of the real data for a numeric column in a mixed pair (SDMetrics' num_discrete_bins) */
  bins: 10,
  correlation: 'pearson' as CorrelationMethod,
};

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

export interface PairTrend {
  columns: [string, string];
  metric: 'CorrelationSimilarity' | 'ContingencySimilarity';
  /** null when undefined (a correlation of a constant column); left out of the means */
  score: number | null;
  /** numeric pairs: the correlations */
  realCorrelation?: number | null;
  syntheticCorrelation?: number | null;
}

/** The pair score of two columns present in both tables, as SDMetrics' QualityReport chooses it. */
export function pairTrend(
  real: [Column, Column],
  synthetic: [Column, Column],
  opts: { bins?: number; correlation?: CorrelationMethod; encoded?: [EncodedColumn, EncodedColumn] } = {},
): PairTrend {
  const [a, b] = real;
  const [sa, sb] = synthetic;
  const columns: [string, string] = [a.name, b.name];
  if (a.kind === 'numeric' && b.kind === 'numeric' && sa.kind === 'numeric' && sb.kind === 'numeric') {
    const c = correlationSimilarity(
      { x: a.values, y: b.values },
      { x: sa.values, y: sb.values },
      opts.correlation ?? PAIR_DEFAULTS.correlation,
    );
    return {
      columns,
      metric: 'CorrelationSimilarity',
      score: orNull(c.score),
      realCorrelation: orNull(c.real),
      syntheticCorrelation: orNull(c.synthetic),
    };
  }
  const bins = opts.bins ?? PAIR_DEFAULTS.bins;
  const [ea, eb] = opts.encoded ?? [encodeColumn(a, sa, bins), encodeColumn(b, sb, bins)];
  return { columns, metric: 'ContingencySimilarity', score: orNull(contingencySimilarity(ea, eb)) };
}
