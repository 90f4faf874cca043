// FALE over data read in chunks (ten million rows in bounded memory). Core code: no Node imports.
//
// The result is that of fale() on the whole table (the same edges, populations and counts: every sum
// is of whole rows, so the order of the chunks does not change a bit), read in passes over a
// ChunkSource:
//   1. the rows, the label's values (to find the positive one) and the protected groups' sizes;
//   2. per continuous feature, its values (one feature's Float64Array at a time) for the percentile
//      edges; the first of these passes also keeps an evenly spaced sample of at most `orderRows`
//      rows for the categorical features' MDS order (every row when there are no more: then the order
//      is the whole-table order);
//   3. one pass that calls the model on the rows as they are: its scores against the label (fit.ts:
//      scores that rank the label worse than chance stop FALE before any row is moved), and each
//      row's label and decision, which the next pass reads;
//   4. one pass that calls the model per chunk on each feature's bin members at their lower and upper
//      edges (categories: moved up and down), counting per population.
// Memory: one chunk, one feature column, the sample, the counts, and a score, label and decision per
// row (10 bytes a row; the scores are freed after pass 3). Bootstrap bands need every row's
// weight in each replicate: they stay with fale() on a table in memory.
import { decide } from '../metrics/decision.js';
import { check, EngineError } from '../../engine/errors.js';
import type { BlackBox } from '../../models/blackbox.js';
import { labelOf } from '../../models/classifier/preprocess.js';
import { getColumn, type CategoricalColumn, type Column, type Table } from '../../data/table.js';
import { categoricalOrder } from './order.js';
import {
  accumulate,
  assignBins,
  binaryLabels,
  categoricalDeltas,
  centreCategorical,
  centreContinuous,
  checkFaleClasses,
  emptyStats,
  FALE_DEFAULTS,
  faleFitWarnings,
  faleSettings,
  featurePlan,
  featureWarnings,
  modifiedTable,
  noRowHas,
  percentileEdges,
  runInfo,
  unprivilegedMask,
  type FairnessMetric,
  type FaleFeature,
  type FaleOptions,
  type FaleResult,
  type GroupStats,
} from './fale.js';

/**
 * Data that can be read from the start as often as needed, a chunk at a time (chunks share column kinds and category
 * codes; src/data/chunks.ts).
 */
export interface ChunkSource {
  read(onChunk: (chunk: Table) => void | Promise<void>): Promise<void>;
}

export const FALE_STREAM_DEFAULTS = {
  /** rows of the evenly spaced sample the categorical order is computed on */
  orderRows: 50_000,
};

export interface FaleStreamOptions extends Omit<FaleOptions, 'bootstrap' | 'rng' | 'confidence'> {
  /** rows of the sample for the categorical order (default 50,000; all rows when there are fewer) */
  orderRows?: number;
}

export interface FaleStreamResult extends FaleResult {
  stream: { chunks: number; passes: number; orderSample: { rows: number; of: number } | null };
}

/** Population stats, accumulated over chunks: per population the unprivileged and privileged group. */
class PopStats {
  readonly u: GroupStats[];
  readonly p: GroupStats[];
  constructor(readonly P: number) {
    this.u = Array.from({ length: P }, emptyStats);
    this.p = Array.from({ length: P }, emptyStats);
  }
  /** rows[j] (a chunk row) in population pop[j] (−1: none), predicted yhat[j]. */
  add(rows: Int32Array, pop: Int32Array, yhat: Uint8Array, y: Uint8Array, u: Uint8Array): void {
    for (let j = 0; j < rows.length; j++) {
      const k = pop[j];
      if (k < 0) continue;
      const r = rows[j];
      const s = u[r] ? this.u[k] : this.p[k];
      s.n++;
      if (y[r]) s.pos++;
      if (yhat[j]) {
        s.predPos++;
        if (y[r]) s.tp++;
        else s.fp++;
      }
    }
  }
  /** metricPerPopulation's rule on the accumulated stats. */
  metric(metric: FairnessMetric, minSize: number): (number | null)[] {
    return this.u.map((a, k) => {
      if (a.n + this.p[k].n < minSize) return null;
      const v = metric(a, this.p[k]);
      return v === null || !Number.isFinite(v) ? null : v;
    });
  }
}

const iota = (n: number) => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
};

/** The rows of `t` at `rows`, as a table (for the sample). */
function pick(t: Table, rows: readonly number[]): Table {
  return modifiedTable(t, Int32Array.from(rows), '', () => 0);
}

/** Tables appended row-wise (the sample's pieces; categories are global, so codes carry over). */
function concat(parts: Table[]): Table | null {
  if (parts.length === 0) return null;
  const rows = parts.reduce((n, t) => n + t.rows, 0);
  const columns = parts[0].columns.map((c, j): Column => {
    if (c.kind === 'numeric') {
      const v = new Float64Array(rows);
      let o = 0;
      for (const t of parts) {
        v.set((t.columns[j] as { values: Float64Array }).values, o);
        o += t.rows;
      }
      return { kind: 'numeric', name: c.name, values: v };
    }
    const codes = new Int32Array(rows);
    let o = 0;
    for (const t of parts) {
      codes.set((t.columns[j] as CategoricalColumn).codes, o);
      o += t.rows;
    }
    return {
      kind: 'categorical',
      name: c.name,
      codes,
      categories: (parts[parts.length - 1].columns[j] as CategoricalColumn).categories,
    };
  });
  return { rows, columns };
}

/**
 * FALE of each feature, reading `source` in passes (see the top of the file). The options and the
 * result are fale()'s, without the bootstrap; `stream` says how it was read.
 */
export async function faleStream(
  source: ChunkSource,
  model: BlackBox,
  opts: FaleStreamOptions,
): Promise<FaleStreamResult> {
  if ((opts as FaleOptions).bootstrap)
    throw new EngineError(
      'E_ARG',
      'fale: bootstrap bands need the rows in memory; they are not computed on data read in chunks',
    );
  const { metricOpt, metric, decision, minBin } = faleSettings(opts);
  const orderRows = opts.orderRows ?? FALE_STREAM_DEFAULTS.orderRows;
  check(
    Number.isSafeInteger(orderRows) && orderRows >= 1,
    'E_ARG',
    () => `fale: the order sample must be a positive number of rows, got ${orderRows}`,
  );

  // pass 1: rows, label values, group sizes, the columns
  let N = 0;
  let chunks = 0;
  let first: Table | null = null;
  const labelValues = new Set<string>();
  const hits = opts.protected.map(() => 0);
  let nu = 0;
  await source.read((t) => {
    first ??= t;
    chunks++;
    N += t.rows;
    const col = getColumn(t, opts.label, 'fale', '--label');
    for (let i = 0; i < t.rows; i++) {
      const l = labelOf(col, i);
      if (l === null)
        throw new EngineError(
          'E_INPUT',
          `fale: label column "${opts.label}", row ${N - t.rows + i + 1}: missing value`,
        );
      labelValues.add(l);
    }
    const u = unprivilegedMask(t, opts.protected, hits);
    for (let i = 0; i < u.length; i++) nu += u[i];
  });
  check(opts.protected.length > 0, 'E_ARG', () => 'fale: give the unprivileged group, e.g. --protected sex=Female');
  check(first !== null && N > 0, 'E_INPUT', () => 'fale: the data has no rows');
  const head = first as unknown as Table;
  opts.protected.forEach((c, j) => {
    if (hits[j] === 0) throw noRowHas(head, c);
  });
  // the positive label as binaryLabels decides it, on a table holding each value once
  const lc = getColumn(head, opts.label);
  const values = [...labelValues];
  const probe: Table = {
    rows: values.length,
    columns: [
      lc.kind === 'numeric'
        ? { kind: 'numeric', name: opts.label, values: Float64Array.from(values.map(Number)) }
        : { kind: 'categorical', name: opts.label, codes: iota(values.length), categories: values },
    ],
  };
  const { positive, values: classes } = binaryLabels(probe, opts.label, opts.positive);
  checkFaleClasses(model, opts, classes, positive);

  const { candidates, features } = featurePlan(head, model, opts);
  const continuous = features.filter((f) => getColumn(head, f).kind === 'numeric');
  const categorical = features.filter((f) => getColumn(head, f).kind === 'categorical');
  let passes = 1;

  // pass 2: each continuous feature's edges (the first pass also takes the sample)
  const edgesOf = new Map<string, number[]>();
  const sampleParts: Table[] = [];
  const wantSample = categorical.length > 0;
  const takeSample = (t: Table, offset: number) => {
    const rows: number[] = [];
    for (let i = 0; i < t.rows; i++) {
      const r = offset + i;
      if (N <= orderRows || Math.floor(((r + 1) * orderRows) / N) > Math.floor((r * orderRows) / N)) rows.push(i);
    }
    if (rows.length) sampleParts.push(pick(t, rows));
  };
  const todo = continuous.filter((f) => !opts.edges?.[f]);
  for (const f of continuous) {
    const e = opts.edges?.[f];
    if (e) {
      const edges = [...new Set(e)].sort((a, b) => a - b);
      check(edges.length >= 2, 'E_ARG', () => `fale: --edges for "${f}" needs at least two distinct values`);
      edgesOf.set(f, edges);
    }
  }
  for (let k = 0; k < Math.max(todo.length, wantSample ? 1 : 0); k++) {
    const f = todo[k];
    const v = f !== undefined ? new Float64Array(N) : null;
    let o = 0;
    await source.read((t) => {
      if (v) v.set((getColumn(t, f) as { values: Float64Array }).values, o);
      if (k === 0 && wantSample) takeSample(t, o);
      o += t.rows;
    });
    passes++;
    if (v) edgesOf.set(f, percentileEdges(v, opts.bins ?? FALE_DEFAULTS.bins));
  }
  const sample = concat(sampleParts);

  // the categorical orders, on the sample
  const orders = new Map<string, number[]>();
  for (const f of categorical) {
    const col = getColumn(sample!, f) as CategoricalColumn;
    const present = new Int32Array(col.categories.length);
    for (let i = 0; i < sample!.rows; i++) if (col.codes[i] >= 0) present[col.codes[i]]++;
    const cats: number[] = [];
    present.forEach((c, k) => {
      if (c > 0) cats.push(k);
    });
    orders.set(
      f,
      categoricalOrder(
        sample!,
        col,
        cats,
        candidates.map((c) => getColumn(sample!, c.name)).filter((c) => c.name !== f),
      ).order,
    );
  }

  // the final dictionaries (first-seen order over the file, so every pass's codes agree): a chunk's own
  // dictionary holds only the categories seen so far, and a row may be moved to one seen later
  const finalCats = new Map<string, string[]>();
  if (sample) for (const c of sample.columns) if (c.kind === 'categorical') finalCats.set(c.name, c.categories);
  const withFinalCats = (chunk: Table): Table =>
    finalCats.size === 0
      ? chunk
      : {
          rows: chunk.rows,
          columns: chunk.columns.map((c) =>
            c.kind === 'categorical' && finalCats.has(c.name) && !c.identifier
              ? { ...c, categories: finalCats.get(c.name)! }
              : c,
          ),
        };

  // pass 3: the model on every row as it is: its scores against the label before any row is moved
  // (scores that rank it worse than chance stop here: metrics/fit.ts), and the decisions pass 4 reuses
  const yAll = new Uint8Array(N);
  let fitWarnings: string[];
  let baseAll: Uint8Array;
  {
    // in this block only, so the scores (8 bytes a row) are freed before pass 4
    const scores = new Float64Array(N);
    let o = 0;
    await source.read(async (chunk) => {
      const t = withFinalCats(chunk);
      const lcol = getColumn(t, opts.label);
      for (let i = 0; i < t.rows; i++) yAll[o + i] = labelOf(lcol, i) === positive ? 1 : 0;
      scores.set(await model.predict(t), o);
      o += t.rows;
    });
    passes++;
    fitWarnings = faleFitWarnings(yAll, scores, decision, classes, positive, opts, model.source);
    baseAll = decide(decision, scores);
  }

  // pass 4: the model on each chunk with every feature moved
  const overall = new PopStats(1);
  const cont = new Map<
    string,
    { K: number; lo: PopStats; hi: PopStats; n: number[]; nu: number[]; excluded: number }
  >();
  for (const f of continuous) {
    const K = edgesOf.get(f)!.length - 1;
    cont.set(f, {
      K,
      lo: new PopStats(K),
      hi: new PopStats(K),
      n: new Array<number>(K).fill(0),
      nu: new Array<number>(K).fill(0),
      excluded: 0,
    });
  }
  const cat = new Map<
    string,
    { order: number[]; orig: PopStats; moved: PopStats; n: number[]; nu: number[]; seen: Set<number> }
  >();
  for (const f of categorical) {
    const order = orders.get(f)!;
    cat.set(f, {
      order,
      orig: new PopStats(order.length),
      moved: new PopStats(2 * order.length),
      n: new Array<number>(order.length).fill(0),
      nu: new Array<number>(order.length).fill(0),
      seen: new Set(),
    });
  }
  let offset = 0;
  await source.read(async (chunk) => {
    const t = withFinalCats(chunk);
    // y and the decisions per chunk, from pass 3 (against the positive label of the whole file: a chunk may hold no
    // positive row)
    const y = yAll.subarray(offset, offset + t.rows);
    const base = baseAll.subarray(offset, offset + t.rows);
    offset += t.rows;
    const u = unprivilegedMask(
      t,
      opts.protected,
      opts.protected.map(() => 0),
    );
    const all = iota(t.rows);
    overall.add(all, new Int32Array(t.rows), base, y, u);
    for (const f of continuous) {
      const s = cont.get(f)!;
      const edges = edgesOf.get(f)!;
      const col = getColumn(t, f) as { values: Float64Array };
      const bin = assignBins(col.values, edges);
      const members: number[] = [];
      for (let i = 0; i < t.rows; i++) if (bin[i] >= 0) members.push(i);
      s.excluded += t.rows - members.length;
      const m = members.length;
      for (const r of members) {
        s.n[bin[r]]++;
        if (u[r]) s.nu[bin[r]]++;
      }
      if (s.K < 1 || m === 0) continue;
      const rows = new Int32Array(2 * m);
      const pop = new Int32Array(2 * m);
      for (let j = 0; j < m; j++) {
        rows[j] = rows[m + j] = members[j];
        pop[j] = pop[m + j] = bin[members[j]];
      }
      const yhat = decide(
        decision,
        await model.predict(modifiedTable(t, rows, f, (j) => (j < m ? edges[pop[j]] : edges[pop[j] + 1]))),
      );
      s.lo.add(rows.subarray(0, m), pop.subarray(0, m), yhat.subarray(0, m), y, u);
      s.hi.add(rows.subarray(m), pop.subarray(m), yhat.subarray(m), y, u);
    }
    for (const f of categorical) {
      const s = cat.get(f)!;
      const col = getColumn(t, f) as CategoricalColumn;
      const K = s.order.length;
      const rank = new Int32Array(col.categories.length).fill(-1);
      s.order.forEach((c, j) => (rank[c] = j));
      const mv: number[] = [];
      const mvPop: number[] = [];
      const mvTo: number[] = [];
      const catPop = new Int32Array(t.rows);
      for (let i = 0; i < t.rows; i++) {
        const code = col.codes[i];
        const j = code >= 0 && code < rank.length ? rank[code] : -1;
        catPop[i] = j;
        if (code >= 0 && j < 0) s.seen.add(code);
        if (j < 0) continue;
        s.n[j]++;
        if (u[i]) s.nu[j]++;
        if (j + 1 < K) {
          mv.push(i);
          mvPop.push(2 * j);
          mvTo.push(s.order[j + 1]);
        }
        if (j > 0) {
          mv.push(i);
          mvPop.push(2 * j + 1);
          mvTo.push(s.order[j - 1]);
        }
      }
      s.orig.add(all, catPop, base, y, u);
      if (mv.length === 0) continue;
      const rows = Int32Array.from(mv);
      const yhat = decide(decision, await model.predict(modifiedTable(t, rows, f, (j) => mvTo[j])));
      s.moved.add(rows, Int32Array.from(mvPop), yhat, y, u);
    }
  });
  passes++;

  const warnings: string[] = fitWarnings;
  const minGroup = opts.minGroupSize ?? 30;
  if (nu < minGroup)
    warnings.push(`the unprivileged group has ${nu} rows (< ${minGroup}, small): its FALE curves are unreliable`);
  if (N - nu < minGroup)
    warnings.push(`everyone else is ${N - nu} rows (< ${minGroup}, small): the FALE curves are unreliable`);
  const out: FaleFeature[] = [];
  for (const f of features) {
    let r: FaleFeature;
    if (cont.has(f)) {
      const s = cont.get(f)!;
      const fLo = s.lo.metric(metric, minBin);
      const fHi = s.hi.metric(metric, minBin);
      const deltas = fLo.map((a, k) => (a === null || fHi[k] === null ? null : (fHi[k] as number) - a));
      r = {
        feature: f,
        kind: 'continuous',
        edges: edgesOf.get(f)!,
        values: centreContinuous(accumulate(deltas, true), s.n),
        deltas,
        counts: { n: s.n, unprivileged: s.nu, privileged: s.n.map((x, k) => x - s.nu[k]) },
        undefined: deltas.flatMap((d, k) => (d === null ? [k] : [])),
      };
      if (opts.edges?.[f]) r.excluded = s.excluded;
    } else {
      const s = cat.get(f)!;
      const fOrig = s.orig.metric(metric, minBin);
      const fMoved = s.moved.metric(metric, minBin);
      const deltas = categoricalDeltas(fOrig, fMoved, s.n, opts.weighted === true);
      const categories = (getColumn(sample!, f) as CategoricalColumn).categories;
      r = {
        feature: f,
        kind: 'categorical',
        categories: s.order.map((c) => categories[c]),
        values: centreCategorical(accumulate(deltas.slice(1), true), s.n),
        deltas,
        counts: { n: s.n, unprivileged: s.nu, privileged: s.n.map((x, k) => x - s.nu[k]) },
        undefined: deltas.flatMap((d, k) => (d === null ? [k] : [])),
      };
      if (sample!.rows < N)
        warnings.push(
          `${f}: the categories are ordered on an evenly spaced sample of ${sample!.rows.toLocaleString('en-US')} of ` +
            `the ${N.toLocaleString('en-US')} rows (the counts and moves use every row)`,
        );
      if (s.seen.size > 0)
        warnings.push(
          `${f}: ${s.seen.size} categor${s.seen.size === 1 ? 'y' : 'ies'} outside the order sample ` +
            `(${orderRows.toLocaleString('en-US')} rows) are left out of its FALE`,
        );
    }
    warnings.push(...featureWarnings(f, r));
    out.push(r);
  }
  // runInfo reads the row count and the unprivileged mask's size: give it the totals
  const info = runInfo(
    { rows: N, columns: [] },
    countMask(N, nu),
    opts,
    metricOpt,
    positive,
    decision,
    overall.metric(metric, 1)[0],
  );
  return {
    ...info,
    features: out,
    warnings,
    stream: { chunks, passes, orderSample: categorical.length > 0 ? { rows: sample!.rows, of: N } : null },
  };
}

/** A mask of `n` rows with `ones` ones (runInfo counts them). */
function countMask(n: number, ones: number): Uint8Array {
  const m = new Uint8Array(n);
  m.fill(1, 0, ones);
  return m;
}
