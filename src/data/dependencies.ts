// Exact dependencies between columns (A → B: every row with the same A holds the same B), found in
// real rows so that generated rows contradicting them can be told apart. Adult's Education and
// Education-Num are one column written twice; a generator that learns each on its own writes pairs no
// person has (45–49% of an unconstrained generator's rows on Adult). Core code: no Node imports.
//
// A → B is kept when, in the rows given:
//   - A and B each hold 2 … DEPENDENCY_LIMITS.maxValues distinct values (categorical columns, or numeric
//     ones with that few distinct values, compared by their text), and A is not an identifier
//     (at most a fifth as many values as rows);
//   - every value of A seen on at least 2 rows holds a single value of B, and those values of A map
//     to at least two values of B (a B constant on them is no dependency worth checking);
//   - values of A seen on at least DEPENDENCY_LIMITS.minRows rows cover ≥ DEPENDENCY_LIMITS.coverage of
//     the rows (so a dependency found by chance among many rare values is not kept).
// A generated row contradicts A → B when its A is a value seen on ≥ 2 real rows and its B differs.
import type { Column, Table } from './table.js';

export const DEPENDENCY_LIMITS = { maxValues: 200, minRows: 10, coverage: 0.95 };

export interface Dependency {
  from: string;
  to: string;
  /** B's value for every A value seen on at least 2 rows */
  map: Map<string, string>;
}

const labels = (c: Column): string[] =>
  c.kind === 'categorical'
    ? Array.from(c.codes, (k) => (k < 0 ? '' : c.categories[k]))
    : Array.from(c.values, (v) => (Number.isFinite(v) ? String(v) : ''));

/** The exact dependencies among `columns` of `table` (all its columns by default). */
export function findDependencies(
  table: Table,
  columns: readonly string[] = table.columns.map((c) => c.name),
): Dependency[] {
  const L = DEPENDENCY_LIMITS;
  const cand: { name: string; labels: string[]; distinct: number }[] = [];
  for (const name of columns) {
    const c = table.columns.find((x) => x.name === name);
    if (!c) continue;
    const ls = labels(c);
    const distinct = new Set(ls.filter((l) => l !== '')).size;
    if (distinct >= 2 && distinct <= L.maxValues) cand.push({ name, labels: ls, distinct });
  }
  const out: Dependency[] = [];
  for (const a of cand) {
    if (a.distinct > table.rows / 5) continue;
    const count = new Map<string, number>();
    for (const l of a.labels) if (l !== '') count.set(l, (count.get(l) ?? 0) + 1);
    let covered = 0;
    for (const n of count.values()) if (n >= L.minRows) covered += n;
    if (covered < L.coverage * table.rows) continue;
    for (const b of cand) {
      if (b === a) continue;
      const map = new Map<string, string>();
      let ok = true;
      for (let i = 0; i < table.rows && ok; i++) {
        const x = a.labels[i];
        const y = b.labels[i];
        if (x === '' || y === '' || (count.get(x) ?? 0) < 2) continue;
        const seen = map.get(x);
        if (seen === undefined) map.set(x, y);
        else if (seen !== y) ok = false;
      }
      if (ok && new Set(map.values()).size >= 2) out.push({ from: a.name, to: b.name, map });
    }
  }
  return out;
}

/** Per row of `t`: 1 when it contradicts any of the dependencies; and how many rows contradict each. */
export function contradictions(deps: readonly Dependency[], t: Table): { rows: Uint8Array; perDependency: number[] } {
  const rows = new Uint8Array(t.rows);
  const perDependency = deps.map((d) => {
    const a = t.columns.find((c) => c.name === d.from);
    const b = t.columns.find((c) => c.name === d.to);
    if (!a || !b) return 0;
    let n = 0;
    if (a.kind === 'categorical' && b.kind === 'categorical') {
      // the same test on codes: the wanted label of each of A's categories and the label of each of
      // B's looked up once, not a label array per column per call (every drawn row passes through here)
      const want = Array.from(a.categories, (l) => d.map.get(l));
      const wantMissing = d.map.get('');
      const has = Array.from(b.categories, (l) => l);
      for (let i = 0; i < t.rows; i++) {
        const ka = a.codes[i];
        const w = ka < 0 ? wantMissing : want[ka];
        if (w === undefined) continue;
        const kb = b.codes[i];
        if ((kb < 0 ? '' : has[kb]) !== w) {
          rows[i] = 1;
          n++;
        }
      }
      return n;
    }
    const la = labels(a);
    const lb = labels(b);
    for (let i = 0; i < t.rows; i++) {
      const want = d.map.get(la[i]);
      if (want !== undefined && lb[i] !== want) {
        rows[i] = 1;
        n++;
      }
    }
    return n;
  });
  return { rows, perDependency };
}
