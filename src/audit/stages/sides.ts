// The canonical sets of a score, a class among k or a real value (issue #40): two targets of the output (targets.ts:
// by default the top and the bottom deciles of a score or a value, the first and the last class of the class order)
// are the two sides, and the binary audit's stages run on the rows whose output is in either — LUCID-GAN conditioned on
// the side, the sets drawn by rejection against the model's own output (a generated row in neither target is kept on
// no side), checked against the real rows of each side, with the proxy view and the intersections. So every rule the
// binary sets follow (fidelity, size-consistent statements, a ranking backed by the real rows, seed stability,
// relations, privacy) holds for these sets by the same code.
//
// The side view's data: the audited rows in either target; the label becomes "the true outcome is in the favoured
// target" (a score's two-valued label is kept as it is), and the prediction the side (1 favoured, 0 the other), so
// that nothing of the output reaches the GAN but its side. LUCID and FALE are not run in it: the caller runs them on
// the output itself. Core code: no Node imports.
import { EngineError } from '../../engine/errors.js';
import { cellLabels, selectRows, type Column, type Table } from '../../data/table.js';
import { argmaxRow } from '../../models/classifier/classifier.js';
import type { BlackBox } from '../../models/blackbox.js';
import { outputOf } from '../../models/blackbox.js';
import { DEFAULT_DECISION } from '../../methods/metrics/index.js';
import { inTarget, sidesOf, targetPair, type OutputTarget, type TargetPair } from '../../methods/metrics/targets.js';
import type { Scorer } from '../canonical.js';
import type { AuditOptions } from '../options.js';
import type { AuditResult, SidesSection } from '../types.js';
import { auditContext, type AuditContext } from './context.js';

/** The binary audit's stages (run.ts), handed in so that this stage does not import the orchestrator. */
export type BinaryStages = (ctx: AuditContext, setsOnly: { lucid: string; fale: string }) => Promise<AuditResult>;

/** What LUCID's and FALE's sections of the side view say: they run on the output itself. */
const SETS_ONLY = {
  lucid: "LUCID runs on the output itself, towards the favoured target (the audit's LUCID section)",
  fale: "FALE runs on the output itself (the audit's FALE section)",
};

/** The output per row as targets read it: a score's or value's number, or a multiclass output's class index. */
export interface OutputValues {
  values: Float64Array;
  /** multiclass: the classes the indices point into */
  classes: string[] | null;
}

/** A predictions column or a model's output column (stages/output.ts modelColumn) as target values. */
export function outputValues(predCol: Column, classes: readonly string[] | null): OutputValues {
  if (classes === null) {
    const v = predCol.kind === 'numeric' ? predCol.values : Float64Array.from(cellLabels(predCol), Number);
    return { values: Float64Array.from(v), classes: null };
  }
  const all = [...classes];
  const text = cellLabels(predCol);
  // a predicted class no label holds is still a class of the output (an index past the label's)
  const values = Float64Array.from(text, (t) => {
    if (t === '') return Number.NaN;
    let k = all.indexOf(t);
    if (k < 0) k = all.push(t) - 1;
    return k;
  });
  return { values, classes: all };
}

/**
 * The generated rows' side by the model's own output (1 favoured, 0 the other, 2 neither), as canonical.ts reads it.
 */
function sideScorer(model: BlackBox, pair: TargetPair, classes: readonly string[] | null): Scorer {
  const out = outputOf(model);
  const k = out.kind === 'multiclass' ? out.classes.length : 1;
  // the model's class indices → the audit's (the label's classes first, as outputValues numbers them)
  const index = out.kind === 'multiclass' ? out.classes.map((c) => classes!.indexOf(c)) : null;
  return {
    kind: 'model',
    source: model.source,
    decision: DEFAULT_DECISION,
    score: async (t) => {
      const p = await model.predict(t);
      const values = index
        ? Float64Array.from({ length: t.rows }, (_, i) => index[argmaxRow(p, i * k, k)])
        : Float64Array.from(p);
      // 1 and 0 are the sides; 0.5 (neither) is off both (`sides` says so; validity reads it through `sides`)
      return Float64Array.from(sidesOf(pair, values), (s) => (s === 1 ? 1 : s === 0 ? 0 : 0.5));
    },
    sides: (scores) => Uint8Array.from(scores as ArrayLike<number>, (s) => (s === 1 ? 1 : s === 0 ? 0 : 2)),
  };
}

/** A free column name: `base`, else `base_1`, `base_2`, …. */
export function freeName(table: Table, base: string): string {
  const names = new Set(table.columns.map((c) => c.name));
  if (!names.has(base)) return base;
  for (let i = 1; ; i++) if (!names.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** The label of the side view: 1 where the true outcome is in the favoured target (a score's label kept). */
function sideLabel(
  label: Column,
  kind: 'score' | 'multiclass' | 'regression',
  favoured: OutputTarget,
  classes: readonly string[] | null,
  score: { positive: string; higher: boolean } | null,
): Column {
  const text = cellLabels(label);
  if (kind === 'score') {
    // a score ranks its label: high scores go with the positive value. The favoured side is the high end when higher
    // is favourable, the low end when lower is; the side view's label goes the favoured side's way in both
    const codes = Int32Array.from(text, (t) => (t === '' ? -1 : (t === score!.positive) === score!.higher ? 1 : 0));
    return { kind: 'categorical', name: label.name, codes, categories: ['0', '1'] };
  }
  const codes = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const t = text[i];
    const v = kind === 'multiclass' ? classes!.indexOf(t) : t === '' ? Number.NaN : Number(t);
    codes[i] = t === '' ? -1 : inTarget(favoured, v) ? 1 : 0;
  }
  return { kind: 'categorical', name: label.name, codes, categories: ['0', '1'] };
}

/**
 * The canonical sets of the output's two targets (see the file's head), or why they are not drawn. `predCol` is the
 * output per audited row (the model's column, or the predictions column), `predInTable` whether it is a column of the
 * data (then it leaves the side view's features).
 */
export async function sidesStage(
  ctx: AuditContext,
  o: {
    kind: 'score' | 'multiclass' | 'regression';
    predCol: Column;
    predInTable: boolean;
    /** the audit's options as given (the side view's are made from them) */
    options: AuditOptions;
    stages: BinaryStages;
    /** the audit's bins of each numeric protected column: the side view groups its rows the same way */
    edges: Record<string, number[]>;
  },
): Promise<SidesSection | { skipped: string }> {
  const { engine, table, plan } = ctx;
  const out = plan.output;
  const model = plan.model;
  const declared = model ? outputOf(model) : null;
  // a model's classes first (its probabilities' order), then any the label or the class order hold besides
  const classes =
    o.kind !== 'multiclass'
      ? null
      : [
          ...new Set([
            ...(declared?.kind === 'multiclass' ? declared.classes : []),
            ...(out.classOrder ?? []),
            ...distinct(o.predCol, plan.label, table),
          ]),
        ];
  const ov = outputValues(o.predCol, classes);
  // bands that meet on tied outputs are known only now, after the group metrics: the sets are then not drawn, and the
  // report says why, rather than the audit's work being lost to a usage error
  let pair: ReturnType<typeof targetPair>;
  try {
    pair = targetPair({
      kind: o.kind,
      // the model's output is its prediction of the label; a predictions column is named as it is
      output: o.predInTable ? o.predCol.name : `predicted ${plan.label}`,
      values: ov.values,
      classes: ov.classes ?? undefined,
      classOrder: out.classOrder,
      direction: out.direction ?? undefined,
      bands: out.bands,
      classNames: out.targetClasses,
      where: 'audit',
    });
  } catch (e) {
    if (e instanceof EngineError && e.code === 'E_ARG') return { skipped: e.message.replace(/^audit: /, '') };
    throw e;
  }
  if ('none' in pair) return { skipped: pair.none };
  const side = sidesOf(pair, ov.values);
  const rows: number[] = [];
  let favoured = 0;
  let other = 0;
  for (let i = 0; i < side.length; i++) {
    if (side[i] === 1) favoured++;
    else if (side[i] === 0) other++;
    else continue;
    rows.push(i);
  }
  const counts = { favoured, other, neither: side.length - favoured - other };
  const min = 2;
  if (favoured < min || other < min)
    return {
      skipped:
        `the ${favoured < min ? pair.favoured.label : pair.other.label} holds ${Math.min(favoured, other)} of the ` +
        `${side.length} audited rows: there are no real rows to draw and check its canonical set against`,
    };
  // the side view: the rows in either target, the side as the prediction, the label read as the favoured target
  const sideName = freeName(table, 'canonical_side');
  const labelCol = table.columns.find((c) => c.name === plan.label)!;
  const columns = table.columns
    .filter((c) => !(o.predInTable && c.name === o.predCol.name))
    .map((c) =>
      c.name === plan.label
        ? sideLabel(
            labelCol,
            o.kind,
            pair.favoured,
            ov.classes,
            o.kind === 'score' ? { positive: plan.positive, higher: out.direction !== 'lower' } : null,
          )
        : c,
    );
  const sideTable = selectRows(
    {
      rows: table.rows,
      columns: [
        ...columns,
        { kind: 'numeric', name: sideName, values: Float64Array.from(side, (s) => (s === 1 ? 1 : 0)) },
      ],
    },
    rows,
  );
  const opts: AuditOptions = {
    ...o.options,
    label: plan.label,
    positive: '1',
    favourable: 'positive',
    output: 'binary',
    pred: sideName,
    model: undefined,
    threshold: undefined,
    classOrder: undefined,
    toleranceUnits: undefined,
    bands: undefined,
    bandScale: undefined,
    targetClasses: undefined,
    modelClasses: undefined,
    protectedEdges: { ...o.options.protectedEdges, ...o.edges },
    // the side view's rows are a subset of the file: its hash is not theirs
    provenance: o.options.provenance && {
      ...o.options.provenance,
      dataSha256: undefined,
      dataBytes: undefined,
      dataNote: "the rows of the output's two targets, taken from the audited data",
    },
    onProgress: (stage, f, eta) => ctx.progress(stage, f, eta),
  };
  let sub: AuditContext;
  try {
    sub = auditContext(engine, sideTable, opts);
  } catch (e) {
    if (e instanceof EngineError && (e.code === 'E_INPUT' || e.code === 'E_ARG'))
      return { skipped: `the side view of the two targets cannot be audited: ${e.message.replace(/^audit: /, '')}` };
    throw e;
  }
  if (model) sub.scorer = sideScorer(model, pair, ov.classes);
  else if (counts.neither > 0)
    ctx.caveats.push({
      topic: 'validity',
      text:
        `canonical sets: a predictions column has no model to score generated rows, so a surrogate fitted to the ` +
        `rows of the two targets tells them apart; it cannot say that a generated row is in neither, so the sets may ` +
        `hold rows whose output would fall between the ${pair.favoured.label} and the ${pair.other.label}`,
    });
  // which protected columns the model reads: the proxy view's roles
  if (model?.features) sub.modelFeatures = model.features;
  let audit: AuditResult;
  try {
    audit = await o.stages(sub, SETS_ONLY);
  } catch (e) {
    // the side view's own refusals (every row on one side, too few rows, a one-valued label) leave the output's audit
    // whole: its sets are not drawn, and the report says why
    if (e instanceof EngineError && (e.code === 'E_INPUT' || e.code === 'E_ARG'))
      return { skipped: `the side view of the two targets cannot be audited: ${e.message.replace(/^audit: /, '')}` };
    throw e;
  }
  for (const [k, v] of Object.entries(sub.seedLog)) if (k !== 'audit') ctx.seedLog[`canonical sets: ${k}`] = v;
  // the sets' stages, within the outer 'sets' lap (LUCID and FALE run outside it)
  for (const [k, v] of Object.entries(sub.timings))
    if (k !== 'total' && k !== 'lucid' && k !== 'fale') ctx.timings[`sets: ${k}`] = v;
  return {
    pair: { favoured: pair.favoured, other: pair.other, ordered: pair.ordered, why: pair.why },
    rows: counts,
    sideColumn: sideName,
    audit,
  };
}

/** A predictions column's classes: the label's values, then any the predictions hold besides. */
function distinct(pred: Column, label: string, table: Table): string[] {
  const seen: string[] = [];
  const add = (c: Column) => {
    for (const t of new Set(cellLabels(c))) if (t !== '' && !seen.includes(t)) seen.push(t);
  };
  add(table.columns.find((c) => c.name === label)!);
  add(pred);
  return seen;
}
