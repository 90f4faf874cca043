// The quality report behind `lucid quality`: column shapes, column-pair trends and validity of a
// synthetic table against the real one (SDMetrics' QualityReport conventions, plus the
// validity of LUCID-GAN's canonical sets: the share of rows the model scores on their condition's side). Core code: no
// Node imports.
import { check, EngineError, inputError } from '../../engine/errors.js';
import { getColumn, selectRows, unknownColumn, type Column, type Table } from '../../data/table.js';
import type { Rng } from '../../engine/rng.js';
import { decideOne, decide, decisionRule, type DecisionRule } from '../metrics/decision.js';
import { fidelity, FIDELITY_DEFAULTS, type FeatureFidelity } from './fidelity.js';
import type { BlackBox } from '../../models/blackbox.js';
import { PAIR_DEFAULTS, pairTrend, type PairTrend } from './pairs.js';
export { pairTrend, type PairTrend };
import {
  detectionScore,
  pairTrendsWithFloor,
  privacyCheck,
  type DcrResult,
  type DetectionResult,
  type PairTrendsResult,
} from './beyond.js';
import { findDependencies } from '../../data/dependencies.js';
import { checkRelations, findRelations } from '../../data/relations.js';
import {
  correlation,
  encodeColumn,
  ksComplement,
  categoryFrequencies,
  totalVariation,
  type CorrelationMethod,
  type EncodedColumn,
} from './metrics.js';

export const QUALITY_DEFAULTS = {
  ...PAIR_DEFAULTS,
  /** the condition column LUCID-GAN writes (`lucid gan sample`) */
  conditionColumn: 'preds',
  /** the column `lucid audit` adds to its canonical sets: the GAN seed each row came from (not compared) */
  seedColumn: 'gan_seed',
};

export interface QualityCondition {
  /** the synthetic table's condition column (the value each row was generated at) */
  column: string;
  /** the value every row was generated at; absent: read per row from `column` */
  value?: number;
}

export interface QualityOptions {
  /** the audited model; with it the report has a validity section */
  model?: BlackBox;
  /** what the rows were generated at; default: the column "preds" when the synthetic table has it */
  condition?: QualityCondition;
  /** columns left out of the comparison (they may be in one table or both) */
  ignore?: readonly string[];
  /** bins of a numeric column in a mixed pair (default 10) */
  bins?: number;
  /** correlation of numeric pairs (default pearson) */
  correlation?: CorrelationMethod;
  /** names of the two tables in messages and the report (default "real", "synthetic") */
  realName?: string;
  syntheticName?: string;
  /** with it, the report has a fidelity section (its noise floors are bootstrap draws from it) */
  rng?: Rng;
  /** real rows the generator did not train on: the privacy check's reference (else two halves of the real rows) */
  heldOut?: Table;
  heldOutName?: string;
}

/** A relation of the real rows (src/data/relations.ts) and the rows breaking it in each table. */
export interface QualityRelation {
  kind: 'dependency' | 'arithmetic';
  text: string;
  real: { rows: number; breaks: number };
  synthetic: { rows: number; breaks: number };
}

/** Fidelity beyond single columns (beyond.ts): every synthetic row against every real row. */
export interface QualityBeyond {
  pairTrends: PairTrendsResult;
  detection: DetectionResult;
  /** against the --held-out rows, or (`against: 'halves'`) one half of the real rows against the other */
  privacy: Omit<DcrResult, 'ratioP5'> & { ratioP5: number | null; against: 'held-out rows' | 'halves' };
}

/**
 * Fidelity (fidelity.ts) of the synthetic rows: against the real rows on the side of their condition when a model
 * scores both, else against every real row.
 */
export interface QualityFidelity {
  against: 'real rows on the side of their condition' | 'every real row';
  /** why the sides could not be used, when a model was given */
  note?: string;
  columns: FeatureFidelity[];
  /** columns within max(noise floor, tolerance) on every side */
  faithful: number;
  tolerance: number;
}

export interface ColumnShape {
  column: string;
  kind: 'numeric' | 'categorical';
  metric: 'KSComplement' | 'TVComplement';
  score: number | null;
  /** categorical columns: labels the synthetic data has and the real data lacks (they count in the TVD) */
  syntheticOnly?: string[];
}

export interface ValiditySide {
  /** rows generated at a condition above 0.5 (positive) or below (negative) */
  rows: number;
  /** of them, rows the model scores on the same side of 0.5 */
  valid: number;
  /** valid / rows (null without rows) */
  rate: number | null;
  /** the model's mean score on them */
  meanScore: number | null;
}

export interface Validity {
  model: string;
  condition: { column: string; value: number | null; source: 'given' | 'column' };
  rows: number;
  positive: ValiditySide;
  negative: ValiditySide;
  /** rows whose condition is exactly 0.5 (on the threshold: counted on neither side) */
  onThreshold: number;
  /** all valid rows / all counted rows */
  rate: number | null;
  /** mean |score − condition| over all rows (conditional fidelity) */
  meanAbsError: number;
  /** correlation of score and condition when the condition varies, else null */
  correlation: number | null;
}

export interface QualityReport {
  real: { name: string; rows: number };
  synthetic: { name: string; rows: number };
  settings: { bins: number; correlation: CorrelationMethod };
  /** the columns compared, in the real table's order */
  columns: string[];
  /** columns left out, with the reason */
  excluded: { column: string; reason: string }[];
  /** mean of the column-shape and pair-trend scores (null when neither exists) */
  overall: number | null;
  columnShapes: {
    score: number | null;
    ksComplement: number | null;
    tvComplement: number | null;
    columns: ColumnShape[];
  };
  columnPairTrends: {
    score: number | null;
    correlationSimilarity: number | null;
    contingencySimilarity: number | null;
    /** every pair, in column order */
    pairs: PairTrend[];
  };
  validity: Validity | null;
  fidelity: QualityFidelity | null;
  /** the real rows' exact dependencies and arithmetic relations, and the rows breaking each */
  relations: QualityRelation[];
  /** pair trends, detection and privacy with noise floors (with an rng, as the fidelity section) */
  beyond: QualityBeyond | null;
}

const q = (s: string) => JSON.stringify(s);

function mean(xs: readonly (number | null)[]): number | null {
  let s = 0;
  let k = 0;
  for (const x of xs) {
    if (x === null || Number.isNaN(x)) continue;
    s += x;
    k++;
  }
  return k === 0 ? null : s / k;
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** Scores of a column of one table against the same column of the other (KS- or TV-complement). */
export function columnShape(real: Column, synthetic: Column): ColumnShape {
  check(
    real.kind === synthetic.kind,
    'E_INPUT',
    () => `column ${q(real.name)} is ${real.kind} in the real data but ${synthetic.kind} in the synthetic data`,
  );
  if (real.kind === 'numeric') {
    return {
      column: real.name,
      kind: 'numeric',
      metric: 'KSComplement',
      score: orNull(ksComplement(real.values, (synthetic as typeof real).values)),
    };
  }
  const f = categoryFrequencies(real, synthetic as typeof real);
  return {
    column: real.name,
    kind: 'categorical',
    metric: 'TVComplement',
    score: 1 - totalVariation(f.real, f.synthetic),
    syntheticOnly: f.syntheticOnly,
  };
}

/**
 * Agreement of a model's decisions with the conditions the rows were generated at: a row generated above
 * 0.5 is valid when `rule` decides it positive, one generated below 0.5 when it decides it negative (a
 * score on the threshold is negative, as everywhere else). The rule defaults to DECISION_DEFAULTS'.
 */
export function validity(
  scores: ArrayLike<number>,
  condition: number | ArrayLike<number>,
  what: { model: string; column: string; source: 'given' | 'column' },
  rule: DecisionRule = decisionRule(undefined, 'validity'),
): Validity {
  const decideRow = (p: number) => decideOne(rule, p);
  const n = scores.length;
  const cond = (i: number) => (typeof condition === 'number' ? condition : condition[i]);
  if (typeof condition !== 'number')
    check(condition.length === n, 'E_ARG', () => `validity: ${n} scores but ${condition.length} conditions`);
  const side = () => ({ rows: 0, valid: 0, sum: 0 });
  const pos = side();
  const neg = side();
  let onThreshold = 0;
  let abs = 0;
  for (let i = 0; i < n; i++) {
    const c = cond(i);
    const p = scores[i];
    abs += Math.abs(p - c);
    if (c > 0.5) {
      pos.rows++;
      pos.sum += p;
      if (decideRow(p) === 1) pos.valid++;
    } else if (c < 0.5) {
      neg.rows++;
      neg.sum += p;
      if (decideRow(p) === 0) neg.valid++;
    } else onThreshold++;
  }
  const out = (s: ReturnType<typeof side>): ValiditySide => ({
    rows: s.rows,
    valid: s.valid,
    rate: s.rows > 0 ? s.valid / s.rows : null,
    meanScore: s.rows > 0 ? s.sum / s.rows : null,
  });
  let corr: number | null = null;
  if (typeof condition !== 'number') {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, condition[i]);
      hi = Math.max(hi, condition[i]);
    }
    if (hi > lo) {
      const r = correlation(condition, scores); // NaN when the scores are constant
      corr = Number.isNaN(r) ? null : r;
    }
  }
  const constant =
    typeof condition === 'number' ? condition : n > 0 && corr === null && isConstant(condition) ? condition[0] : null;
  const counted = pos.rows + neg.rows;
  return {
    model: what.model,
    condition: { column: what.column, value: constant, source: what.source },
    rows: n,
    positive: out(pos),
    negative: out(neg),
    onThreshold,
    rate: counted > 0 ? (pos.valid + neg.valid) / counted : null,
    meanAbsError: n > 0 ? abs / n : NaN,
    correlation: corr,
  };
}

function isConstant(v: ArrayLike<number>): boolean {
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false;
  return true;
}

function labelsOf(col: Column): string {
  if (col.kind === 'numeric') return 'numbers';
  const shown = col.categories.slice(0, 3).map(q).join(', ');
  return `labels ${shown}${col.categories.length > 3 ? ', …' : ''}`;
}

/** The condition column's values (numbers in [0, 1]), checked. */
function conditionValues(table: Table, column: string, where: string): Float64Array {
  const col = getColumn(
    table,
    column,
    where,
    `--condition (or give the value the rows were generated at, e.g. --condition ${column}=1)`,
  );
  if (col.kind !== 'numeric')
    throw inputError(
      `${where}: condition column ${q(column)} holds ${labelsOf(col)}; it must hold the prediction each row was ` +
        `generated at, in [0, 1]`,
    );
  for (let i = 0; i < table.rows; i++) {
    const v = col.values[i];
    if (!(v >= 0 && v <= 1))
      throw inputError(
        `${where}: condition column ${q(column)}, row ${i + 1}: ${Number.isNaN(v) ? 'missing' : v} is not a ` +
          `prediction in [0, 1]`,
      );
  }
  return col.values;
}

/**
 * Compares a synthetic table with the real one. Columns are matched by name (every compared column
 * must be in both tables and of the same kind; else an E_INPUT error naming it). The condition
 * column and `ignore` are left out. With `model`, the synthetic rows are scored and validity is the
 * share scored on the side of 0.5 they were generated at.
 */
export async function qualityReport(real: Table, synthetic: Table, opts: QualityOptions = {}): Promise<QualityReport> {
  const realName = opts.realName ?? 'real';
  const synName = opts.syntheticName ?? 'synthetic';
  const bins = opts.bins ?? QUALITY_DEFAULTS.bins;
  const method = opts.correlation ?? QUALITY_DEFAULTS.correlation;
  check(Number.isInteger(bins) && bins >= 2, 'E_ARG', () => `quality: bins must be an integer ≥ 2, got ${bins}`);
  check(real.rows > 0, 'E_INPUT', () => `${realName}: no data rows`);
  check(synthetic.rows > 0, 'E_INPUT', () => `${synName}: no data rows`);

  const has = (t: Table, n: string) => t.columns.some((c) => c.name === n);
  const excluded: { column: string; reason: string }[] = [];
  const skip = new Set<string>();
  for (const n of opts.ignore ?? []) {
    if (!has(real, n) && !has(synthetic, n))
      throw unknownColumn(
        n,
        [...new Set([...real.columns, ...synthetic.columns].map((c) => c.name))],
        `${realName} and ${synName}`,
        '--ignore',
      );
    if (!skip.has(n)) excluded.push({ column: n, reason: 'ignored' });
    skip.add(n);
  }

  // the condition: given, or the default column when the synthetic table has it
  let condition = opts.condition;
  if (!condition && has(synthetic, QUALITY_DEFAULTS.conditionColumn))
    condition = { column: QUALITY_DEFAULTS.conditionColumn };
  if (opts.model && !condition) {
    throw new EngineError(
      'E_ARG',
      `validity needs the prediction the synthetic rows were generated at: give --condition ` +
        `${QUALITY_DEFAULTS.conditionColumn}=1 (or =0), or --condition COLUMN when ${synName} holds it per row`,
    );
  }
  let condValues: number | Float64Array | undefined;
  if (condition) {
    check(
      condition.value === undefined || (condition.value >= 0 && condition.value <= 1),
      'E_ARG',
      () => `--condition ${condition!.column}=${condition!.value}: the value must be a prediction in [0, 1]`,
    );
    if (condition.value !== undefined) {
      condValues = condition.value;
      if (has(synthetic, condition.column)) {
        const v = conditionValues(synthetic, condition.column, synName);
        const bad = v.findIndex((x) => x !== condition!.value);
        if (bad >= 0)
          throw inputError(
            `${synName}: condition column ${q(condition.column)} holds ${v[bad]} at row ${bad + 1}, but --condition ` +
              `says every row was generated at ${condition.value}; give --condition ${condition.column} to read ` +
              `it per row`,
          );
      }
    } else if (opts.model) {
      condValues = conditionValues(synthetic, condition.column, synName);
    }
    if ((has(real, condition.column) || has(synthetic, condition.column)) && !skip.has(condition.column)) {
      excluded.push({ column: condition.column, reason: 'condition' });
      skip.add(condition.column);
    }
  }

  // an audit's canonical sets say which GAN seed each row came from: not a column of the data
  if (
    has(synthetic, QUALITY_DEFAULTS.seedColumn) &&
    !has(real, QUALITY_DEFAULTS.seedColumn) &&
    !skip.has(QUALITY_DEFAULTS.seedColumn)
  ) {
    excluded.push({ column: QUALITY_DEFAULTS.seedColumn, reason: 'GAN seed' });
    skip.add(QUALITY_DEFAULTS.seedColumn);
  }

  // columns matched by name
  const realCols = real.columns.filter((c) => !skip.has(c.name));
  const synCols = synthetic.columns.filter((c) => !skip.has(c.name));
  const synByName = new Map(synCols.map((c) => [c.name, c]));
  const realByName = new Set(realCols.map((c) => c.name));
  const missingInSyn = realCols.filter((c) => !synByName.has(c.name)).map((c) => c.name);
  const missingInReal = synCols.filter((c) => !realByName.has(c.name)).map((c) => c.name);
  const list = (ns: string[]) => `${ns.length === 1 ? 'column' : 'columns'} ${ns.map(q).join(', ')}`;
  if (missingInSyn.length > 0)
    throw inputError(
      `${synName}: no ${list(missingInSyn)}, which ${realName} has; columns are matched by name (leave a column out ` +
        `with --ignore)`,
    );
  if (missingInReal.length > 0)
    throw inputError(
      `${realName}: no ${list(missingInReal)}, which ${synName} has; columns are matched by name (leave a column out ` +
        `with --ignore)`,
    );
  for (const c of realCols) {
    const s = synByName.get(c.name)!;
    if (c.kind !== s.kind) {
      throw inputError(
        `column ${q(c.name)} is ${c.kind} in ${realName} but ${s.kind} in ${synName} ` +
          `(${labelsOf(c.kind === 'numeric' ? s : c)}); read both the same way with --categorical ${c.name} or ` +
          `--numeric ${c.name}`,
      );
    }
  }
  const pairsOf = realCols.map((c) => [c, synByName.get(c.name)!] as [Column, Column]);
  const realT: Table = { rows: real.rows, columns: realCols };
  const synT: Table = { rows: synthetic.rows, columns: synCols };

  // column shapes
  const shapes = pairsOf.map(([r, s]) => columnShape(r, s));
  const numericShapes = shapes.filter((s) => s.kind === 'numeric').map((s) => s.score);
  const categoricalShapes = shapes.filter((s) => s.kind === 'categorical').map((s) => s.score);

  // column-pair trends (numeric columns of mixed pairs binned once)
  const encoded = new Map<string, EncodedColumn>();
  const enc = (r: Column, s: Column) => {
    let e = encoded.get(r.name);
    if (!e) encoded.set(r.name, (e = encodeColumn(r, s, bins)));
    return e;
  };
  const pairs: PairTrend[] = [];
  for (let i = 0; i < pairsOf.length; i++) {
    for (let j = i + 1; j < pairsOf.length; j++) {
      const [ra, sa] = pairsOf[i];
      const [rb, sb] = pairsOf[j];
      const numericPair = ra.kind === 'numeric' && rb.kind === 'numeric';
      pairs.push(
        pairTrend([ra, rb], [sa, sb], {
          bins,
          correlation: method,
          encoded: numericPair ? undefined : [enc(ra, sa), enc(rb, sb)],
        }),
      );
    }
  }
  const corrScores = pairs.filter((p) => p.metric === 'CorrelationSimilarity').map((p) => p.score);
  const contScores = pairs.filter((p) => p.metric === 'ContingencySimilarity').map((p) => p.score);

  // the model's decision: no threshold option here, so the default rule
  const decision = decisionRule(undefined, 'quality');
  // validity
  let valid: Validity | null = null;
  if (opts.model && condition && condValues !== undefined) {
    const scores = await opts.model.predict(synthetic);
    check(
      scores.length === synthetic.rows,
      'E_INPUT',
      () => `${opts.model!.source}: returned ${scores.length} predictions for ${synthetic.rows} rows`,
    );
    valid = validity(
      scores,
      condValues,
      {
        model: opts.model.source,
        column: condition.column,
        source: condition.value === undefined ? 'column' : 'given',
      },
      decision,
    );
  }

  // fidelity, with noise floors: on the side of each row's condition when the model scores the real rows too
  let fid: QualityFidelity | null = null;
  if (opts.rng) {
    const features = realCols.map((c) => ({ name: c.name, kind: c.kind }));
    let note: string | undefined;
    let sided: { yhat: Uint8Array; sets: { positive: Table; negative: Table } } | null = null;
    if (opts.model && condValues !== undefined) {
      try {
        const p = await opts.model.predict(real);
        const yhat = decide(decision, p);
        const side = (i: number) => (typeof condValues === 'number' ? condValues : condValues![i]);
        const rows = (f: (c: number) => boolean) =>
          Array.from({ length: synthetic.rows }, (_, i) => i).filter((i) => f(side(i)));
        sided = {
          yhat,
          sets: {
            positive: selectRows(
              synT,
              rows((c) => c > 0.5),
            ),
            negative: selectRows(
              synT,
              rows((c) => c < 0.5),
            ),
          },
        };
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        note =
          `the model could not score ${realName} (${e.message}), so the synthetic rows are compared with every ` +
          `real row`;
      }
    }
    const columns = sided
      ? fidelity(features, realT, sided.yhat, [sided.sets], opts.rng)
      : fidelity(
          features,
          realT,
          new Uint8Array(real.rows).fill(1),
          [{ positive: synT, negative: selectRows(synT, []) }],
          opts.rng,
        );
    fid = {
      against: sided ? 'real rows on the side of their condition' : 'every real row',
      columns,
      faithful: columns.filter((c) => c.faithful).length,
      tolerance: FIDELITY_DEFAULTS.tolerance,
      ...(note ? { note } : {}),
    };
  }

  // the real rows' relations, and how often each table breaks them
  const deps = findDependencies(realT);
  const rels = findRelations(realT);
  const relations: QualityRelation[] = checkRelations(deps, rels, [], realT, { positive: synT, negative: synT }).map(
    (c) => ({ kind: c.kind, text: c.text, real: c.real, synthetic: c.positive }),
  );

  // beyond single columns, with noise floors from the real rows
  let beyond: QualityBeyond | null = null;
  if (opts.rng) {
    const features = realCols.map((c) => ({ name: c.name, kind: c.kind }));
    const pairTrends = pairTrendsWithFloor(realT, synT, features, opts.rng, { bins });
    const detection = detectionScore(realT, synT, features, opts.rng);
    let held: Table | null = null;
    if (opts.heldOut) {
      const hn = opts.heldOutName ?? 'held-out';
      for (const c of realCols) {
        const h = opts.heldOut.columns.find((x) => x.name === c.name);
        if (!h)
          throw inputError(
            `${hn}: no column ${q(c.name)}, which ${realName} has; the held-out rows must have the real data's columns`,
          );
        if (h.kind !== c.kind)
          throw inputError(
            `column ${q(c.name)} is ${c.kind} in ${realName} but ${h.kind} in ${hn}; read both the same way with ` +
              `--categorical ${c.name} or --numeric ${c.name}`,
          );
      }
      check(opts.heldOut.rows > 0, 'E_INPUT', () => `${hn}: no data rows`);
      held = opts.heldOut;
    }
    const { halves, ...privacy } = privacyCheck(realT, held, synT, features, opts.rng);
    beyond = { pairTrends, detection, privacy: { ...privacy, against: halves ? 'halves' : 'held-out rows' } };
  }

  const shapeScore = mean(shapes.map((s) => s.score));
  const pairScore = mean(pairs.map((p) => p.score));
  return {
    real: { name: realName, rows: real.rows },
    synthetic: { name: synName, rows: synthetic.rows },
    settings: { bins, correlation: method },
    columns: realCols.map((c) => c.name),
    excluded,
    overall: mean([shapeScore, pairScore]),
    columnShapes: {
      score: shapeScore,
      ksComplement: mean(numericShapes),
      tvComplement: mean(categoricalShapes),
      columns: shapes,
    },
    columnPairTrends: {
      score: pairScore,
      correlationSimilarity: mean(corrScores),
      contingencySimilarity: mean(contScores),
      pairs,
    },
    validity: valid,
    fidelity: fid,
    relations,
    beyond,
  };
}
