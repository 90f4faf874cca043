// FALE's measures for the outputs that are not a binary decision (issue #40): a multiclass model's rate of the
// favourable class, a score's or a real value's mean prediction, a real value's mean residual. Each is a difference of
// two group means (unprivileged − privileged, aif360's sign, as FALE_METRIC_DEFS) of one number per row, so one pair
// of sufficient statistics per group (rows, sum) carries every measure through FALE's bins, its bootstrap and its 2-D
// form. The one table of them: the CLI's --measure choices, its help and the kind checks derive from it. Core code: no
// Node imports.
import { check } from '../../engine/errors.js';
import type { OutputKind } from '../../models/output.js';

/** The kinds FALE takes besides a binary decision. */
export type FaleOutputKind = Exclude<OutputKind, 'binary'>;

/** One group's rows and sum of the measure's per-row value within a population (weights: bootstrap multiplicities). */
export interface MeanStats {
  n: number;
  sum: number;
}

/** What a measure's per-row value reads: the model's output row and, where needed, the row's label. */
export interface RowValueInput {
  /** the model's output: one number per row, or k probabilities per row (multiclass), row-major */
  pred: ArrayLike<number>;
  /** the output's width (k for multiclass, else 1) */
  width: number;
  /** the favourable class's index into the model's classes (multiclass) */
  favoured: number;
}

export interface FaleMeasureDef {
  /** name in prose */
  label: string;
  /** the definition as the CLI's help prints it */
  formula: string;
  /** the output kinds it applies to */
  kinds: readonly FaleOutputKind[];
  /** whether the per-row value reads the label (then a numeric label is required) */
  needsLabel: boolean;
  /** the per-row value of output row j, its label `y` (NaN when not needed) */
  value: (o: RowValueInput, j: number, y: number) => number;
  /** the measure from the two groups' statistics; null when a group is absent */
  compute: (u: MeanStats, p: MeanStats) => number | null;
}

/** unprivileged mean − privileged mean; undefined when a group has no rows. */
const meanDiff = (u: MeanStats, p: MeanStats): number | null => (u.n > 0 && p.n > 0 ? u.sum / u.n - p.sum / p.n : null);

/** The index of the largest of p[at … at+k) (the first on a tie, as the built-in model's argmaxRow). */
function argmaxAt(p: ArrayLike<number>, at: number, k: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (p[at + c] > p[at + best]) best = c;
  return best;
}

export const FALE_MEASURE_DEFS = {
  'class-rate': {
    label: "favourable class's rate difference",
    formula: 'P(yhat=c | unpriv) - P(yhat=c | priv), yhat the most probable class, c the favourable class',
    kinds: ['multiclass'],
    needsLabel: false,
    value: (o, j) => (argmaxAt(o.pred, j * o.width, o.width) === o.favoured ? 1 : 0),
    compute: meanDiff,
  },
  'mean-prediction': {
    label: 'mean prediction difference',
    formula: "mean(prediction | unpriv) - mean(prediction | priv), in the output's units",
    kinds: ['score', 'regression'],
    needsLabel: false,
    value: (o, j) => o.pred[j],
    compute: meanDiff,
  },
  'mean-residual': {
    label: 'mean residual difference',
    // a row's label stays as the feature moves, so it cancels in every bin's change: the curves are the mean
    // prediction's, and the residual says only the overall level (the help and the reading say so)
    formula:
      "mean(prediction - label | unpriv) - mean(prediction - label | priv), in the label's units (its curves are " +
      "mean-prediction's: the label cancels in each bin's change; the overall value differs)",
    kinds: ['regression'],
    needsLabel: true,
    value: (o, j, y) => o.pred[j] - y,
    compute: meanDiff,
  },
} as const satisfies Record<string, FaleMeasureDef>;

export type FaleMeasure = keyof typeof FALE_MEASURE_DEFS;
/** The measures' names, in the table's order (the CLI's --measure choices). */
export const FALE_MEASURES = Object.keys(FALE_MEASURE_DEFS) as FaleMeasure[];

/** The measures that apply to `kind`, in the table's order. */
export function measuresFor(kind: FaleOutputKind): FaleMeasure[] {
  return FALE_MEASURES.filter((m) => (FALE_MEASURE_DEFS[m].kinds as readonly string[]).includes(kind));
}

/** The default measure of a kind: the first that applies (the class rate; the mean prediction). */
export function defaultMeasure(kind: FaleOutputKind): FaleMeasure {
  return measuresFor(kind)[0];
}

/** `measure`, checked to be one of the table and to fit `kind`: an E_ARG naming it and the kind's measures. */
export function checkMeasure(measure: string, kind: FaleOutputKind): FaleMeasure {
  check(
    (FALE_MEASURES as string[]).includes(measure),
    'E_ARG',
    () => `fale: unknown --measure "${measure}"; expected ${FALE_MEASURES.join(', ')}`,
  );
  const def = FALE_MEASURE_DEFS[measure as FaleMeasure];
  check(
    (def.kinds as readonly string[]).includes(kind),
    'E_ARG',
    () =>
      `fale: --measure ${measure} is for ${def.kinds.join(' and ')} outputs; the model's output is ${kind}, whose ` +
      `measures are: ${measuresFor(kind).join(', ')}`,
  );
  return measure as FaleMeasure;
}

/**
 * The measure per population, as metricPerPopulation for the binary metrics: rows[j] belongs to population pop[j]
 * (−1 = none) with per-row value v[j], group mask u, weight w[row] (bootstrap multiplicity; 1 when absent). A
 * population with fewer than `minSize` rows, or without one of the groups, is null.
 */
export function measurePerPopulation(
  compute: FaleMeasureDef['compute'],
  P: number,
  rows: Int32Array,
  pop: Int32Array,
  v: ArrayLike<number>,
  u: Uint8Array,
  w: Float64Array | null,
  minSize: number,
): (number | null)[] {
  // su, sp: (P, 2) rows and sums of the unprivileged and privileged groups
  const su = new Float64Array(2 * P);
  const sp = new Float64Array(2 * P);
  for (let j = 0; j < rows.length; j++) {
    const k = pop[j];
    if (k < 0) continue;
    const r = rows[j];
    const wt = w ? w[r] : 1;
    if (wt === 0) continue;
    const s = u[r] ? su : sp;
    s[2 * k] += wt;
    s[2 * k + 1] += wt * v[j];
  }
  const out: (number | null)[] = new Array(P);
  for (let k = 0; k < P; k++) {
    if (su[2 * k] + sp[2 * k] < minSize) {
      out[k] = null;
      continue;
    }
    const x = compute({ n: su[2 * k], sum: su[2 * k + 1] }, { n: sp[2 * k], sum: sp[2 * k + 1] });
    out[k] = x === null || !Number.isFinite(x) ? null : x;
  }
  return out;
}
