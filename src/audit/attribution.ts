// Why a group is flagged: which features carry a protected attribute's disparity. Core code.
//
// ── The rule (documented in docs/methods.md "Why a group is flagged") ──────────────────────────────────────
// For a protected attribute A and every other feature X (not the label, not the predictions):
//   association(A, X) = Cramér's V of the table A × X (numeric X in deciles of the data), in [0, 1];
//   separation(X)     = the total-variation distance between X's distribution among the rows the
//                       model decides positive and among those it decides negative (same bins), in [0, 1]:
//                       how much the model's decisions go with X;
//   carried(X)        = association × separation.
// A feature scores high when it differs between A's groups AND the decisions follow it: that is the
// path a disparity takes when the model does not read A. The top features by `carried` are named.
// This is association, not causation: a named feature is where the disparity runs, not proof of why.
// Whether the model reads A: from the model's declared inputs (the proxy view). When it does and the
// model can be called, A's own effect is measured by setting A to the reference value on every row and
// counting the decisions that change (`flipShare`); below 1% A is "read with little effect".
import type { Column, Table } from '../data/table.js';
import { binValues, quantileBins } from './bins.js';
import { totalVariation } from '../methods/quality/metrics.js';
import { pctText } from '../data/text.js';

export const ATTRIBUTION_DEFAULTS = { bins: 10, carriers: 3, littleEffect: 0.01 };

export interface Carrier {
  feature: string;
  association: number;
  separation: number;
  carried: number;
}

export interface Attribution {
  /** the protected column */
  attribute: string;
  /** the metrics' group column (the binned column of a numeric attribute) */
  groupColumn: string;
  /** whether the model reads it (null: unknown, e.g. a predictions column) */
  readByModel: boolean | null;
  /** share of decisions that change when the attribute is set to the reference value (null: not measured) */
  flipShare: number | null;
  /** the features carrying most of the disparity, best first */
  carriers: Carrier[];
  /** 'direct' (read with an effect), 'correlated features' (not read, or read with little effect), 'unknown' */
  path: 'direct' | 'correlated features' | 'unknown';
}

/**
 * Per row a small integer code of `c` (categories as they are, numbers in quantile bins; −1 missing), and the number of
 * codes.
 */
export function codesOf(c: Column, bins: number): { codes: Int32Array; k: number } {
  if (c.kind === 'categorical') return { codes: Int32Array.from(c.codes), k: c.categories.length };
  const finite = Array.from(c.values).filter((v) => !Number.isNaN(v));
  if (finite.length === 0) return { codes: new Int32Array(c.values.length).fill(-1), k: 1 };
  const b = quantileBins(finite, bins);
  const { codes } = binValues(c.values, b.edges, true);
  return { codes: Int32Array.from(codes), k: b.labels.length };
}

/** Cramér's V of two code vectors (rows with a missing code left out). */
export function cramersV(a: Int32Array, ka: number, b: Int32Array, kb: number): number {
  const t = new Float64Array(ka * kb);
  const ra = new Float64Array(ka);
  const rb = new Float64Array(kb);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] < 0 || b[i] < 0) continue;
    t[a[i] * kb + b[i]]++;
    ra[a[i]]++;
    rb[b[i]]++;
    n++;
  }
  const usedA = ra.filter((x) => x > 0).length;
  const usedB = rb.filter((x) => x > 0).length;
  if (n === 0 || usedA < 2 || usedB < 2) return 0;
  let chi = 0;
  for (let i = 0; i < ka; i++) {
    for (let j = 0; j < kb; j++) {
      const e = (ra[i] * rb[j]) / n;
      if (e > 0) chi += (t[i * kb + j] - e) ** 2 / e;
    }
  }
  return Math.sqrt(chi / n / (Math.min(usedA, usedB) - 1));
}

/**
 * Total-variation distance between the code distributions of the rows with yhat 1 and yhat 0 (0 when a side is empty).
 */
export function separation(x: Int32Array, k: number, yhat: Uint8Array): number {
  const p = new Float64Array(k);
  const q = new Float64Array(k);
  let np = 0;
  let nq = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] < 0) continue;
    if (yhat[i]) {
      p[x[i]]++;
      np++;
    } else {
      q[x[i]]++;
      nq++;
    }
  }
  if (np === 0 || nq === 0) return 0;
  for (let j = 0; j < k; j++) {
    p[j] /= np;
    q[j] /= nq;
  }
  return totalVariation(p, q);
}

/** The features carrying the disparity of the attribute whose per-row codes are `attr` (see the rule above). */
export function carriersOf(
  table: Table,
  attr: { codes: Int32Array; k: number },
  yhat: Uint8Array,
  features: readonly string[],
  top: number = ATTRIBUTION_DEFAULTS.carriers,
): Carrier[] {
  const out: Carrier[] = [];
  for (const name of features) {
    const c = table.columns.find((x) => x.name === name);
    if (!c) continue;
    const x = codesOf(c, ATTRIBUTION_DEFAULTS.bins);
    const association = cramersV(attr.codes, attr.k, x.codes, x.k);
    const sep = separation(x.codes, x.k, yhat);
    out.push({ feature: name, association, separation: sep, carried: association * sep });
  }
  return out.sort((u, v) => v.carried - u.carried || (u.feature < v.feature ? -1 : 1)).slice(0, top);
}

/**
 * The path: direct when read with an effect, correlated features when not read (or with little effect), unknown
 * otherwise.
 */
export function pathOf(readByModel: boolean | null, flipShare: number | null): Attribution['path'] {
  if (readByModel === false) return 'correlated features';
  if (readByModel === true)
    return flipShare !== null && flipShare < ATTRIBUTION_DEFAULTS.littleEffect ? 'correlated features' : 'direct';
  return 'unknown';
}

const fmt = (x: number) => x.toFixed(2);

/**
 * One sentence on why the attribute behind `groupColumn` (a metrics attribute) has its disparity, or
 * '' when nothing is known (an intersection, or no attribution).
 */
export function attributionText(attribution: readonly Attribution[] | undefined, groupColumn: string): string {
  const a = attribution?.find((x) => x.groupColumn === groupColumn);
  if (!a) return '';
  const carriers = a.carriers.filter((c) => c.carried > 0);
  const named = carriers.length
    ? carriers
        .map((c) => `${c.feature} (association ${fmt(c.association)} × separation ${fmt(c.separation)})`)
        .join(', ')
    : '';
  const via = named ? `; the features that carry most of it: ${named}` : '';
  if (a.path === 'correlated features') {
    const how =
      a.readByModel === false
        ? `The model does not read ${a.attribute}`
        : `The model reads ${a.attribute} with little effect (setting it to the reference changes ` +
          `${pctText(a.flipShare ?? 0)} of the decisions)`;
    return `${how}: the disparity runs through correlated features${via}.`;
  }
  if (a.path === 'direct')
    return `The model reads ${a.attribute}${
      a.flipShare !== null ? `: setting it to the reference changes ${pctText(a.flipShare)} of the decisions` : ''
    }${named ? `; correlated features also carry it: ${named}` : ''}.`;
  return named
    ? `Whether the model reads ${a.attribute} is unknown (a predictions column); the features most associated with ` +
        `it and with the decisions: ${named}.`
    : '';
}
