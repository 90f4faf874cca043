// Near-exact arithmetic relations between numeric columns, found in real rows, and how generated rows
// are made to keep them and the exact dependencies (dependencies.ts) by construction (rejecting the rows that break
// them reshaped the sets). Core code: no Node imports, no random draws (the search is deterministic by construction).
//
// A relation is target = Σ coef·term + intercept, rounded to the target's decimals, holding in at least
// RELATION_LIMITS.minShare of the real rows that have every one of its cells (one data set has
// age = education + experience + 6 in 533 of 534 rows). A generator that learns each column on its own
// breaks it in nearly every row; rejecting those rows would keep almost nothing and reshape the rest.
// So the target is derived from its terms instead, and an exact dependency A → B writes B from A.
//
// The search, per target column (most variable first, so a sum is the target rather than a part):
//   - terms: subsets of 1 … maxTerms other numeric columns (fewer for wide tables), smallest first; a
//     column set already holding a relation, or containing one, is not searched again (collinear);
//   - fit: least squares on up to `sampleRows` evenly spaced rows, refitted on the rows nearest the fit
//     (trimmed 10% a round, so the ≤ 1% of rows that break the identity do not bend it), then on the
//     rows the fit holds on exactly;
//   - coefficients snapped to simple fractions (1, 1/2, 1/4, 1/5, 1/10, 1/100, 1/1000; within 0.1%)
//     when that holds on as many rows (so "+ 6" prints as 6, not 5.999999998);
//   - kept when it holds on ≥ minShare of all rows with its cells, on ≥ minShare of the rows where the
//     target is not its most common value (two columns that are both 0 on 99.5% of rows are no
//     relation), on at least minInformative such rows, and every term matters.
// "Holds" means |target − fit| ≤ half a unit of the target's last decimal (the fit rounded to the
// target's decimals gives the target), or 1e-6 of its size when the target has no fixed decimals.
import type { Column, NumericColumn, Table } from './table.js';
import { decimalPlaces } from './decimals.js';
import { contradictions, type Dependency } from './dependencies.js';

export const RELATION_LIMITS = {
  /** share of rows (with every cell of the relation) it must hold on */
  minShare: 0.99,
  /** most terms on the right-hand side: 3 up to 16 numeric columns, 2 up to 40, else 1 */
  maxTerms: 3,
  /** rows the fit is searched on (evenly spaced); every row checks a candidate */
  sampleRows: 1000,
  /** rows where the target is not its most common value that must hold it */
  minInformative: 20,
  /** numeric columns searched at most (the first ones, in table order) */
  maxColumns: 60,
};

export interface Relation {
  target: string;
  terms: { column: string; coef: number }[];
  intercept: number;
  /** the target's decimals (the derived value is rounded to them), null when it has none fixed */
  decimals: number | null;
  /** real rows with every cell of the relation, and those it holds on */
  rows: number;
  holds: number;
}

const SNAP = [1, 2, 4, 5, 10, 100, 1000];

const numericCols = (t: Table): NumericColumn[] => t.columns.filter((c): c is NumericColumn => c.kind === 'numeric');

/** The largest |target − fit| that still counts as holding (see the file comment). */
function tolerance(decimals: number | null, scale: number): number {
  return decimals === null ? 1e-6 * Math.max(1, scale) : 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-9 * Math.max(1, scale);
}

/** The relation as people write it: "age = education + experience + 6". */
export function relationText(r: Pick<Relation, 'target' | 'terms' | 'intercept'>): string {
  const num = (x: number) => String(+x.toPrecision(10));
  let s = `${r.target} =`;
  r.terms.forEach((t, i) => {
    const a = Math.abs(t.coef);
    const sign = t.coef < 0 ? ' −' : i === 0 ? '' : ' +';
    s += `${sign} ${a === 1 ? '' : `${num(a)} × `}${t.column}`;
  });
  if (r.intercept !== 0) s += ` ${r.intercept < 0 ? '−' : '+'} ${num(Math.abs(r.intercept))}`;
  return s;
}

/** Solves the k×k system a·x = b in place (partial pivoting); null when it is singular. */
function solve(a: Float64Array, b: Float64Array, k: number): Float64Array | null {
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, Math.abs(a[i * k + i]));
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r * k + c]) > Math.abs(a[p * k + c])) p = r;
    if (!(Math.abs(a[p * k + c]) > 1e-10 * Math.max(scale, 1e-300))) return null;
    if (p !== c) {
      for (let j = 0; j < k; j++) [a[c * k + j], a[p * k + j]] = [a[p * k + j], a[c * k + j]];
      [b[c], b[p]] = [b[p], b[c]];
    }
    for (let r = c + 1; r < k; r++) {
      const f = a[r * k + c] / a[c * k + c];
      if (f === 0) continue;
      for (let j = c; j < k; j++) a[r * k + j] -= f * a[c * k + j];
      b[r] -= f * b[c];
    }
  }
  const x = new Float64Array(k);
  for (let r = k - 1; r >= 0; r--) {
    let s = b[r];
    for (let j = r + 1; j < k; j++) s -= a[r * k + j] * x[j];
    x[r] = s / a[r * k + r];
  }
  return x;
}

/** Least squares y ≈ Σ coef·x + intercept on the rows `use` (centred for stability); null when singular. */
function fit(
  y: Float64Array,
  xs: Float64Array[],
  use: ArrayLike<number>,
): { coef: Float64Array; intercept: number } | null {
  const k = xs.length;
  const n = use.length;
  if (n <= k) return null;
  const mx = new Float64Array(k);
  let my = 0;
  for (let i = 0; i < n; i++) {
    const r = use[i];
    my += y[r];
    for (let j = 0; j < k; j++) mx[j] += xs[j][r];
  }
  my /= n;
  for (let j = 0; j < k; j++) mx[j] /= n;
  const g = new Float64Array(k * k); // g: (k, k) centred Gram matrix
  const h = new Float64Array(k); // h: (k) centred X'y
  for (let i = 0; i < n; i++) {
    const r = use[i];
    const dy = y[r] - my;
    for (let a = 0; a < k; a++) {
      const da = xs[a][r] - mx[a];
      h[a] += da * dy;
      for (let b = a; b < k; b++) g[a * k + b] += da * (xs[b][r] - mx[b]);
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) g[a * k + b] = g[b * k + a];
  const coef = solve(g, h, k);
  if (!coef) return null;
  let intercept = my;
  for (let j = 0; j < k; j++) intercept -= coef[j] * mx[j];
  return { coef, intercept };
}

/** Rows of `rows` on which the relation holds. */
function holding(
  y: Float64Array,
  xs: Float64Array[],
  coef: ArrayLike<number>,
  intercept: number,
  tol: number,
  rows: ArrayLike<number>,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let f = intercept;
    for (let j = 0; j < xs.length; j++) f += coef[j] * xs[j][r];
    if (Math.abs(y[r] - f) <= tol) out.push(r);
  }
  return out;
}

/**
 * c snapped to the simplest fraction in SNAP within `tol` of it, else c. Loose on purpose: a rounded
 * target bends the least-squares fit in the fourth decimal, and a snapped fit is only kept when it
 * holds on at least as many rows as the unsnapped one.
 */
function snap(c: number, tol: number): number {
  for (const d of SNAP) {
    const s = Math.round(c * d) / d;
    if (Math.abs(s - c) <= tol) return s;
  }
  return c;
}

function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield acc.slice();
    return;
  }
  for (let i = start; i < n; i++) {
    acc.push(i);
    yield* subsets(n, k, i + 1, acc);
    acc.pop();
  }
}

/** The near-exact linear relations among the numeric columns of `table` (see the file comment). */
export function findRelations(table: Table, columns: readonly string[] = table.columns.map((c) => c.name)): Relation[] {
  const L = RELATION_LIMITS;
  const want = new Set(columns);
  interface Cand {
    name: string;
    v: Float64Array;
    variance: number;
    mode: number;
    decimals: number | null;
    scale: number;
    complete: boolean;
  }
  const cands: Cand[] = [];
  for (const c of numericCols(table)) {
    if (!want.has(c.name) || cands.length >= L.maxColumns) continue;
    const finite = c.values.filter(Number.isFinite);
    if (finite.length < Math.max(30, 0.5 * table.rows)) continue;
    const count = new Map<number, number>();
    let mean = 0;
    let scale = 0;
    for (const x of finite) {
      count.set(x, (count.get(x) ?? 0) + 1);
      mean += x;
      scale = Math.max(scale, Math.abs(x));
    }
    if (count.size < 3) continue;
    mean /= finite.length;
    let variance = 0;
    for (const x of finite) variance += (x - mean) ** 2;
    let mode = NaN;
    let best = 0;
    for (const [x, n] of count) if (n > best) [mode, best] = [x, n];
    cands.push({
      name: c.name,
      v: c.values,
      variance: variance / finite.length,
      mode,
      decimals: decimalPlaces(finite),
      scale,
      complete: finite.length === table.rows,
    });
  }
  const m = cands.length;
  const maxTerms = Math.min(L.maxTerms, m <= 16 ? 3 : m <= 40 ? 2 : 1, m - 1);
  const order = cands.map((_, i) => i).sort((a, b) => cands[b].variance - cands[a].variance || a - b);
  const evenly = (rows: number[]): number[] => {
    const step = Math.max(1, rows.length / L.sampleRows);
    const out: number[] = [];
    for (let p = 0; p < rows.length && out.length < L.sampleRows; p += step) out.push(rows[Math.floor(p)]);
    return out;
  };
  const allRows = Array.from({ length: table.rows }, (_, i) => i);
  const allSample = evenly(allRows);
  const found: Relation[] = [];
  const sets: Set<string>[] = [];
  const containsFound = (names: string[]) => sets.some((s) => [...s].every((x) => names.includes(x)));
  for (const ti of order) {
    const t = cands[ti];
    const others = order.filter((j) => j !== ti);
    let done = false;
    for (let k = 1; k <= maxTerms && !done; k++) {
      for (const pick of subsets(others.length, k)) {
        const terms = pick.map((p) => cands[others[p]]);
        const names = [t.name, ...terms.map((x) => x.name)];
        if (containsFound(names)) continue;
        // rows with every cell of the relation (all rows, shared, when none is missing); the search
        // sample evenly spaced among them
        const complete = t.complete && terms.every((x) => x.complete);
        const rows = complete
          ? allRows
          : allRows.filter((r) => Number.isFinite(t.v[r]) && terms.every((x) => Number.isFinite(x.v[r])));
        if (rows.length < Math.max(30, 0.5 * table.rows)) continue;
        const sample = complete ? allSample : evenly(rows);
        const xs = terms.map((x) => x.v);
        const tol = tolerance(t.decimals, t.scale);
        // the fit and its snapped twin (a rounded target sits half a unit from the fit on many rows, so
        // a fit off in the tenth decimal misses them where the snapped one does not): the one holding
        // on more rows, on the sample, then refitted on its rows and judged on every row
        const better = (g: { coef: ArrayLike<number>; intercept: number }, on: ArrayLike<number>) => {
          const a = { coef: Array.from(g.coef), intercept: g.intercept };
          const b = {
            coef: a.coef.map((c) => snap(c, 1e-3 * Math.max(1, Math.abs(c)))),
            intercept: snap(a.intercept, 1e-3 * Math.max(1, t.scale)),
          };
          const ha = holding(t.v, xs, a.coef, a.intercept, tol, on);
          const hb = holding(t.v, xs, b.coef, b.intercept, tol, on);
          return hb.length >= ha.length ? { ...b, hold: hb } : { ...a, hold: ha };
        };
        // the trimmed fit on `on` rows, and whether it (or its snapped twin) holds on ≥ `share` of them
        const attempt = (on: number[], share: number) => {
          let use = on;
          let f = fit(t.v, xs, use);
          for (let round = 0; round < 4 && f; round++) {
            const cur = f;
            const res = use.map((r) => {
              let p = cur.intercept;
              for (let j = 0; j < k; j++) p += cur.coef[j] * xs[j][r];
              return Math.abs(t.v[r] - p);
            });
            const cut = Float64Array.from(res).sort()[Math.floor(0.9 * (res.length - 1))];
            const kept = use.filter((_, i) => res[i] <= cut);
            if (kept.length <= k + 1 || kept.length === use.length) break;
            use = kept;
            f = fit(t.v, xs, use);
          }
          if (!f) return null;
          const b = better(f, on);
          return b.hold.length >= share * on.length ? b : null;
        };
        // a cheap screen on 1 row in 10 of the sample first (most column sets hold no relation)
        if (
          !attempt(
            sample.filter((_, i) => i % 10 === 0),
            0.9,
          )
        )
          continue;
        const first = attempt(sample, 0.97);
        if (!first) continue;
        const refit = fit(t.v, xs, first.hold);
        const cands2 = [better(first, rows), ...(refit ? [better(refit, rows)] : [])];
        const { coef, intercept, hold } = cands2.reduce((x, y) => (y.hold.length > x.hold.length ? y : x));
        if (hold.length < L.minShare * rows.length) continue;
        // rows where the target is not its most common value: the relation must hold there too
        const informative = rows.filter((r) => t.v[r] !== t.mode);
        const holdSet = new Set(hold);
        const infoHold = informative.filter((r) => holdSet.has(r)).length;
        if (informative.length < L.minInformative || infoHold < L.minShare * informative.length) continue;
        // every term matters: its coefficient moves the target by more than the tolerance over its spread
        if (terms.some((x, j) => Math.abs(coef[j]) * Math.sqrt(x.variance) <= tol)) continue;
        // written as people would: added terms first, then subtracted ones, each in table order
        const written = terms
          .map((x, j) => ({ column: x.name, coef: coef[j], at: cands.indexOf(x) }))
          .sort((a, b) => Number(a.coef < 0) - Number(b.coef < 0) || a.at - b.at);
        found.push({
          target: t.name,
          terms: written.map(({ column, coef }) => ({ column, coef })),
          intercept,
          decimals: t.decimals,
          rows: rows.length,
          holds: hold.length,
        });
        sets.push(new Set(names));
        done = true;
        break;
      }
    }
  }
  return found;
}

const colOf = (t: Table, name: string): Column | undefined => t.columns.find((c) => c.name === name);

/**
 * The relation's value on row r of the columns given (NaN when a cell is missing), rounded to the target's decimals.
 */
function derivedValue(r: Relation, xs: Float64Array[], row: number): number {
  let f = r.intercept;
  for (let j = 0; j < xs.length; j++) f += r.terms[j].coef * xs[j][row];
  if (r.decimals !== null) {
    const s = 10 ** r.decimals;
    f = Math.round(f * s) / s;
  }
  return f;
}

/** Rows of `t` with every cell of the relation, and those that break it. */
export function relationBreaks(r: Relation, t: Table): { rows: number; breaks: number } {
  const y = colOf(t, r.target);
  const xs = r.terms.map((x) => colOf(t, x.column));
  if (y?.kind !== 'numeric' || xs.some((x) => x?.kind !== 'numeric')) return { rows: 0, breaks: 0 };
  const xv = xs.map((x) => (x as NumericColumn).values);
  let scale = 0;
  for (const v of y.values) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  const tol = tolerance(r.decimals, scale);
  let rows = 0;
  let breaks = 0;
  for (let i = 0; i < t.rows; i++) {
    if (!Number.isFinite(y.values[i]) || xv.some((x) => !Number.isFinite(x[i]))) continue;
    rows++;
    let f = r.intercept;
    for (let j = 0; j < xv.length; j++) f += r.terms[j].coef * xv[j][i];
    if (!(Math.abs(y.values[i] - f) <= tol)) breaks++;
  }
  return { rows, breaks };
}

/** One way a generated column is written from others: an exact dependency or an arithmetic relation. */
export type Derivation = { kind: 'dependency'; dependency: Dependency } | { kind: 'relation'; relation: Relation };

export const derivationTarget = (d: Derivation): string =>
  d.kind === 'dependency' ? d.dependency.to : d.relation.target;
export const derivationInputs = (d: Derivation): string[] =>
  d.kind === 'dependency' ? [d.dependency.from] : d.relation.terms.map((t) => t.column);

/**
 * Which dependencies and relations generated rows are written by, in order: a column is derived at
 * most once, never from a derived column nor into a column another derivation reads (so one pass in
 * this order keeps them all), and never into a `fixed` column (a set drawn with a value held keeps
 * it). Preferred, in turn: relations (nothing else keeps them), dependencies read from a categorical
 * column (the generator writes categories exactly, and a number rarely matches a label), dependencies
 * whose target is not `protectedCols` (the generator conditions on those). What is left is kept by
 * rejection.
 */
export function planDerivations(
  deps: readonly Dependency[],
  rels: readonly Relation[],
  table: Table,
  fixed: ReadonlySet<string> = new Set(),
  protectedCols: ReadonlySet<string> = new Set(),
): Derivation[] {
  const kindOf = (name: string) => colOf(table, name)?.kind;
  const cands: { d: Derivation; rank: number; at: number }[] = [];
  rels.forEach((r, at) => cands.push({ d: { kind: 'relation', relation: r }, rank: 0, at }));
  deps.forEach((dep, at) =>
    cands.push({
      d: { kind: 'dependency', dependency: dep },
      rank: 1 + (kindOf(dep.from) === 'categorical' ? 0 : 2) + (protectedCols.has(dep.to) ? 1 : 0),
      at,
    }),
  );
  cands.sort((a, b) => a.rank - b.rank || a.at - b.at);
  const derived = new Set<string>();
  const read = new Set<string>();
  const plan: Derivation[] = [];
  for (const { d } of cands) {
    const target = derivationTarget(d);
    const inputs = derivationInputs(d);
    if (fixed.has(target) || derived.has(target) || read.has(target) || inputs.some((x) => derived.has(x))) continue;
    plan.push(d);
    derived.add(target);
    for (const x of inputs) read.add(x);
  }
  return plan;
}

/**
 * `t` with each planned column written from its inputs (a new table; the other columns shared), and
 * per row whether a derived number fell outside its column's observed `range` (such a row has no real
 * counterpart; the caller rejects it). A row whose inputs are missing, or whose dependency input is a
 * value the real rows did not tie down, keeps the generated cell.
 */
export function derive(
  plan: readonly Derivation[],
  t: Table,
  range: Record<string, readonly [number, number]> = {},
): { table: Table; outOfRange: Uint8Array } {
  const outOfRange = new Uint8Array(t.rows);
  if (plan.length === 0) return { table: t, outOfRange };
  const columns = t.columns.slice();
  const at = (name: string) => columns.findIndex((c) => c.name === name);
  for (const d of plan) {
    const ti = at(derivationTarget(d));
    if (ti < 0) continue;
    const target = columns[ti];
    if (d.kind === 'relation') {
      const xs = d.relation.terms.map((x) => columns[at(x.column)]);
      if (target.kind !== 'numeric' || xs.some((x) => x?.kind !== 'numeric')) continue;
      const xv = xs.map((x) => (x as NumericColumn).values);
      const values = target.values.slice();
      const rg = range[target.name];
      for (let i = 0; i < t.rows; i++) {
        if (xv.some((x) => !Number.isFinite(x[i]))) continue;
        const v = derivedValue(d.relation, xv, i);
        values[i] = v;
        if (rg && (v < rg[0] || v > rg[1])) outOfRange[i] = 1;
      }
      columns[ti] = { kind: 'numeric', name: target.name, values };
      continue;
    }
    const a = columns[at(d.dependency.from)];
    if (!a) continue;
    const map = d.dependency.map;
    if (target.kind === 'categorical') {
      const codeOf = new Map(target.categories.map((l, k) => [l, k]));
      const codes = target.codes.slice();
      for (let i = 0; i < t.rows; i++) {
        const w = map.get(labelAt(a, i));
        if (w === undefined) continue;
        const k = codeOf.get(w);
        if (k !== undefined) codes[i] = k;
      }
      columns[ti] = { ...target, codes };
    } else {
      const values = target.values.slice();
      for (let i = 0; i < t.rows; i++) {
        const w = map.get(labelAt(a, i));
        if (w !== undefined && w !== '') values[i] = Number(w);
      }
      columns[ti] = { kind: 'numeric', name: target.name, values };
    }
  }
  return { table: { rows: t.rows, columns }, outOfRange };
}

/**
 * Row i of c as a dependency's map reads it: the category label, or the number as String() writes it ('' when
 * missing or not finite).
 */
function labelAt(c: Column, i: number): string {
  return c.kind === 'categorical'
    ? c.codes[i] < 0
      ? ''
      : c.categories[c.codes[i]]
    : Number.isFinite(c.values[i])
      ? String(c.values[i])
      : '';
}

/** A relation of the data (src/data/relations.ts) checked in the generated rows. */
export interface RelationCheck {
  kind: 'dependency' | 'arithmetic';
  /** as people write it: "age = education + experience + 6", "Education-Num follows from Education" */
  text: string;
  target: string;
  inputs: string[];
  /**
   * how generated rows keep it: the target written from its inputs, or rows that break it rejected
   * (a dependency whose reverse is derived, or one into a column a derivation reads)
   */
  kept: 'derived' | 'rejection';
  /** rows with every cell of the relation, and those that break it */
  real: { rows: number; breaks: number };
  positive: { rows: number; breaks: number };
  negative: { rows: number; breaks: number };
}

/** A dependency as people write it. */
export const dependencyText = (d: Pick<Dependency, 'from' | 'to'>): string => `${d.to} follows from ${d.from}`;

/**
 * Every dependency and relation of the data, how generated rows keep it (`plan`: derived; else by
 * rejection) and the rows breaking it among `real` and each of `sets`.
 */
export function checkRelations(
  deps: readonly Dependency[],
  rels: readonly Relation[],
  plan: readonly Derivation[],
  real: Table,
  sets: { positive: Table; negative: Table },
): RelationCheck[] {
  const planned = (d: Dependency | Relation) =>
    plan.some((p) => (p.kind === 'dependency' ? p.dependency : p.relation) === d);
  const depBreaks = (d: Dependency, t: Table) => {
    const a = colOf(t, d.from);
    const b = colOf(t, d.to);
    if (!a || !b) return { rows: 0, breaks: 0 };
    // rows whose determinant is a value the real rows tie down: the rows the dependency speaks of
    let rows = 0;
    for (let i = 0; i < t.rows; i++) if (d.map.has(labelAt(a, i))) rows++;
    return { rows, breaks: contradictions([d], t).perDependency[0] };
  };
  return [
    ...rels.map(
      (r): RelationCheck => ({
        kind: 'arithmetic',
        text: relationText(r),
        target: r.target,
        inputs: r.terms.map((t) => t.column),
        kept: planned(r) ? 'derived' : 'rejection',
        real: relationBreaks(r, real),
        positive: relationBreaks(r, sets.positive),
        negative: relationBreaks(r, sets.negative),
      }),
    ),
    ...deps.map(
      (d): RelationCheck => ({
        kind: 'dependency',
        text: dependencyText(d),
        target: d.to,
        inputs: [d.from],
        kept: planned(d) ? 'derived' : 'rejection',
        real: depBreaks(d, real),
        positive: depBreaks(d, sets.positive),
        negative: depBreaks(d, sets.negative),
      }),
    ),
  ];
}
