// The metamorphic suites' data and the transformations that must not change a verdict:
// simulated loan decisions with a planted intersectional penalty, a model's P(approved = yes) as a
// predictions column (6 decimals, so that 1 − p is exact and no score sits on the threshold), and the
// same rows coded the other way, permuted, renamed, with categories reordered or a column in other units.
// tools/make-metamorphic-fixtures.mjs writes the Parquet copy of `metamorphicTable()` (DuckDB's writer)
// that test/fixtures/metamorphic/ holds; everything else is written by the tests themselves.
import type { CategoricalColumn, Column, Table } from '../../src/data/table.js';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import { hostRng } from './engine.js';
import assert from 'node:assert/strict';
import {
  JUDGED_METRICS,
  METRICS,
  recodedMetric,
  type Comparison,
  type GroupResult,
  type MetricName,
  type MetricsReport,
} from '../../src/methods/metrics/index.js';

export const METAMORPHIC = { rows: 1500, seed: 7, bias: 'intersectional' as const };

/** x to 6 decimals, never exactly 0.5 (a score on the threshold has no counterpart under 1 − p). */
export const round6 = (x: number): number => {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0.5 ? 0.500001 : r;
};

/**
 * The base rows: the simulator's columns (label "approved", protected sex, group and numeric age) and "p", P(approved =
 * yes).
 */
export function metamorphicTable(engine: Engine): Table {
  const sim = simulate(new Rng(engine, METAMORPHIC.seed), { n: METAMORPHIC.rows, bias: METAMORPHIC.bias });
  const p = Float64Array.from(sim.truth.probability, round6);
  return { rows: sim.table.rows, columns: [...sim.table.columns, { kind: 'numeric', name: 'p', values: p }] };
}

const col = (t: Table, name: string): Column => {
  const c = t.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
};

/**
 * The same decisions coded the other way: the label renamed `newLabel` with its two values swapped
 * (the rows approved are now "no" for denied), the score replaced by P(denied) = 1 − p, exact to 6 decimals.
 */
export function recode(t: Table, label: string, pred: string, newLabel: string, newPred: string): Table {
  return {
    rows: t.rows,
    columns: t.columns.map((c): Column => {
      if (c.name === label) {
        const l = c as CategoricalColumn;
        if (l.categories.length !== 2) throw new Error('recode: a two-valued label');
        // the same two words, each row's the other one
        return {
          kind: 'categorical',
          name: newLabel,
          categories: l.categories.slice(),
          codes: Int32Array.from(l.codes, (k) => 1 - k),
        };
      }
      if (c.name === pred && c.kind === 'numeric')
        return { kind: 'numeric', name: newPred, values: Float64Array.from(c.values, (x) => round6(1 - x)) };
      return c;
    }),
  };
}

/** The rows in a seeded random order (Fisher–Yates with the suites' host generator). */
export function permuteRows(t: Table, seed: number): { table: Table; order: Int32Array } {
  const rnd = hostRng(seed);
  const order = Int32Array.from({ length: t.rows }, (_, i) => i);
  for (let i = t.rows - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const columns = t.columns.map(
    (c): Column =>
      c.kind === 'numeric'
        ? { ...c, values: Float64Array.from(order, (i) => c.values[i]) }
        : { ...c, codes: Int32Array.from(order, (i) => c.codes[i]) },
  );
  return { table: { rows: t.rows, columns }, order };
}

/** Columns renamed by `names` (old → new); the others kept. */
export function renameColumns(t: Table, names: Record<string, string>): Table {
  return { rows: t.rows, columns: t.columns.map((c) => ({ ...c, name: names[c.name] ?? c.name })) };
}

/** Every categorical column's dictionary reversed (the codes follow): the same labels, in another order. */
export function reorderCategories(t: Table): Table {
  return {
    rows: t.rows,
    columns: t.columns.map((c): Column => {
      if (c.kind !== 'categorical') return c;
      const k = c.categories.length;
      return {
        ...c,
        categories: c.categories.slice().reverse(),
        codes: Int32Array.from(c.codes, (x) => (x < 0 ? x : k - 1 - x)),
      };
    }),
  };
}

/** One numeric column in other units (× factor, an exact scale for the simulator's integers). */
export function scaleColumn(t: Table, name: string, factor: number): Table {
  const c = col(t, name);
  if (c.kind !== 'numeric') throw new Error(`${name} is not numeric`);
  return {
    rows: t.rows,
    columns: t.columns.map((x) => (x === c ? { ...c, values: Float64Array.from(c.values, (v) => v * factor) } : x)),
  };
}

/** A cell's text: numbers in their shortest round-trip form, with a decimal comma when asked. */
function cellText(c: Column, i: number, decimalComma: boolean): string {
  if (c.kind === 'numeric') {
    const s = String(c.values[i]);
    return decimalComma ? s.replace('.', ',') : s;
  }
  return c.codes[i] < 0 ? '' : c.categories[c.codes[i]];
}

/**
 * CSV text with `delimiter` (";" with decimal commas for the European form); labels hold no delimiter, quote or mark.
 */
export function csvText(t: Table, delimiter: ',' | ';', decimalComma: boolean): string {
  const lines = [t.columns.map((c) => c.name).join(delimiter)];
  for (let i = 0; i < t.rows; i++) lines.push(t.columns.map((c) => cellText(c, i, decimalComma)).join(delimiter));
  return lines.join('\n') + '\n';
}

/** JSON Lines: one object per row, numbers as numbers. */
export function jsonLinesText(t: Table): string {
  const out: string[] = [];
  for (let i = 0; i < t.rows; i++) {
    const o: Record<string, number | string | null> = {};
    for (const c of t.columns)
      o[c.name] = c.kind === 'numeric' ? c.values[i] : c.codes[i] < 0 ? null : c.categories[c.codes[i]];
    out.push(JSON.stringify(o));
  }
  return out.join('\n') + '\n';
}

// ── comparing two results that must be the same ─────────────────────────────────────────────────

/** How the second result names what the first calls `column` and `value`, and whether it is the other coding. */
export interface Correspondence {
  column?: (column: string) => string;
  value?: (column: string, value: string) => string;
  /** the other coding of the same decisions: metrics map by recodedMetric (a complement compared as 1 − x) */
  recoded?: boolean;
  /** the rows are in another order: sums of floats (calibration) may differ in the last bits */
  reordered?: boolean;
}

const idCol = (c: string) => c;
const idVal = (_c: string, v: string) => v;

/** The metric of the second result that holds what `m` holds in the first, and whether as 1 − x. */
export function imageOf(m: MetricName, recoded: boolean | undefined): { metric: MetricName; complement: boolean } {
  return recoded ? recodedMetric(m) : { metric: m, complement: false };
}

/** An intersection's group ("Female, B, (45, 60]") into its parts: split at ", " outside a bin label's brackets. */
function splitKey(key: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < key.length; i++) {
    const ch = key[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (depth === 0 && ch === ',' && key[i + 1] === ' ') {
      parts.push(key.slice(start, i));
      start = i + 2;
    }
  }
  parts.push(key.slice(start));
  return parts;
}

/**
 * Asserts that two metrics reports say the same (one decision, one verdict): the point estimates, the analytic (Katz)
 * verdicts with every figure behind them, the references, the four-fifths and LL144 tables and the
 * model's fit, bit for bit (a complement under recoding to 1e-12, the only arithmetic that differs).
 */
export function assertSameMetrics(a: MetricsReport, b: MetricsReport, k: Correspondence, where: string): void {
  const colOf = k.column ?? idCol;
  const valOf = k.value ?? idVal;
  assert.equal(b.rows, a.rows, `${where}: rows`);
  // the AUC's classes swap under recoding (its positives are the other class's rows), its value and interval do not
  const fit = (r: MetricsReport) => [
    r.fit.accuracy,
    r.fit.favourableShare,
    r.fit.majority.share,
    r.fit.auc?.value,
    r.fit.auc?.se,
    r.fit.auc?.ci95,
    r.fit.auc?.ci99,
    r.fit.weak.length,
    r.fit.inverted,
  ];
  assert.deepEqual(fit(b), fit(a), `${where}: the model's fit`);
  assert.deepEqual(
    [b.verdicts.comparisons, b.verdicts.counts, b.verdicts.band],
    [a.verdicts.comparisons, a.verdicts.counts, a.verdicts.band],
    `${where}: the verdicts' family`,
  );
  assert.equal(b.attributes.length, a.attributes.length, `${where}: attributes`);
  for (const A of a.attributes) {
    const colB = A.column.split(' × ').map(colOf).join(' × ');
    const B = b.attributes.find((x) => x.column === colB);
    assert.ok(B, `${where}: attribute ${A.column} as ${colB}`);
    const w = `${where}: ${A.column}`;
    const cols = A.column.split(' × ');
    const vOf = (v: string) =>
      cols.length === 1
        ? valOf(cols[0], v)
        : splitKey(v)
            .map((x, j) => valOf(cols[j], x))
            .join(', ');
    assert.deepEqual(
      [B.reference.value, B.reference.source, B.unknown],
      [vOf(A.reference.value), A.reference.source, A.unknown],
      `${w}: the reference`,
    );
    assert.equal(B.groups.length, A.groups.length, `${w}: groups`);
    for (const g of A.groups) {
      const h: GroupResult | undefined = B.groups.find((x) => x.value === vOf(g.value));
      assert.ok(h, `${w}: group ${g.value}`);
      assert.deepEqual(
        [h.n, h.small, h.suppressed, h.reference],
        [g.n, g.small, g.suppressed, g.reference],
        `${w} = ${g.value}: size`,
      );
      for (const m of METRICS) {
        const img = imageOf(m, k.recoded);
        const x = g[m];
        const y: number | null = h[img.metric];
        if (img.complement)
          assert.ok(
            (x === null && y === null) || (x !== null && y !== null && Math.abs(x + y - 1) < 1e-12),
            `${w} = ${g.value}: ${m} ${x} vs 1 − ${img.metric} ${y}`,
          );
        else {
          assert.equal(y, x, `${w} = ${g.value}: ${m} as ${img.metric}`);
          if (g.value !== A.reference.value) {
            assert.equal(
              B.disparities[img.metric].ratio[h.value],
              A.disparities[m].ratio[g.value],
              `${w} = ${g.value}: ${m} ratio`,
            );
            assert.equal(
              B.disparities[img.metric].difference[h.value],
              A.disparities[m].difference[g.value],
              `${w} = ${g.value}: ${m} difference`,
            );
          }
        }
      }
    }
    assert.equal(B.comparisons.length, A.comparisons.length, `${w}: comparisons`);
    for (const c of A.comparisons) {
      const img = imageOf(c.metric, k.recoded);
      // the coding convention: every judged metric's image is judged and holds the same number
      assert.ok(
        !img.complement && (JUDGED_METRICS as readonly string[]).includes(img.metric),
        `${w}: the judged ${c.metric} has no judged counterpart holding the same number ` +
          `(${img.metric}${img.complement ? ', a complement' : ''})`,
      );
      const d: Comparison | undefined = B.comparisons.find((x) => x.group === vOf(c.group) && x.metric === img.metric);
      assert.ok(d, `${w} = ${c.group}: ${c.metric} as ${img.metric}`);
      const fig = (x: Comparison) => [
        x.verdict,
        x.direction,
        x.rate,
        x.referenceRate,
        x.ratio,
        x.difference,
        x.counts,
        x.logRatio,
        x.se,
        x.p,
        x.pAdjusted,
        x.level,
        x.interval,
        x.reason === undefined,
        x.fourFifths?.ratio,
        x.fourFifths?.below,
      ];
      assert.deepEqual(fig(d), fig(c), `${w} = ${c.group}: the ${c.metric} comparison as ${img.metric}`);
      assert.equal(d.reference, vOf(c.reference), `${w} = ${c.group}: ${c.metric} reference`);
    }
    const ff = (x: typeof A.fourFifths, map: (v: string) => string) => ({
      reference: x.reference === null ? null : map(x.reference),
      below: x.below.map(map),
      ratio: Object.fromEntries(Object.entries(x.ratio).map(([g, r]) => [map(g), r])),
      selectionRate: Object.fromEntries(Object.entries(x.selectionRate).map(([g, r]) => [map(g), r])),
    });
    assert.deepEqual(
      ff(B.fourFifths, (v) => v),
      ff(A.fourFifths, vOf),
      `${w}: four-fifths`,
    );
    const imp = (x: typeof A.impact, map: (v: string) => string) => ({
      kind: x.kind,
      highest: x.highest === null ? null : map(x.highest),
      unknown: x.unknown,
      rows: x.rows
        .map((r) => ({ ...r, category: map(r.category) }))
        .sort((p, q) => (p.category < q.category ? -1 : p.category > q.category ? 1 : 0)),
    });
    assert.deepEqual(
      imp(B.impact, (v) => v),
      imp(A.impact, vOf),
      `${w}: LL144 impact table`,
    );
    assert.equal(B.impact.median === null, A.impact.median === null, `${w}: LL144 median`);
    if (!k.recoded) {
      assert.equal(B.impact.median, A.impact.median, `${w}: LL144 median`);
      // calibration's bins are equal-width in the score, which 1 − p does not mirror at the bin edges: compared as it
      // is only
      assert.equal(B.calibration?.length ?? null, A.calibration?.length ?? null, `${w}: calibration`);
      for (const c of A.calibration ?? []) {
        const e = B.calibration!.find((x) => x.group === vOf(c.group))!;
        assert.ok(
          e.ece === c.ece || (k.reordered && e.ece !== null && c.ece !== null && Math.abs(e.ece - c.ece) < 1e-12),
          `${w} = ${c.group}: ECE ${c.ece} vs ${e.ece}`,
        );
      }
    }
  }
}
