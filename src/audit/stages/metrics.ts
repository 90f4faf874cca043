// Stages 1 and 2 of an audit: the model's predictions, the protected attributes' groups (a numeric
// one binned), the group metrics with their verdicts and the attribution of each disparity; then what
// the rest of the audit needs from them: the cells --suppress-below hides, and the refusal of inputs
// that leave nothing to compare.
import { check } from '../../engine/errors.js';
import { Rng } from '../../engine/rng.js';
import type { CategoricalColumn, Column, Table } from '../../data/table.js';
import {
  correctTogether,
  decide,
  groupMetrics,
  type Favourable,
  type MetricsReport,
} from '../../methods/metrics/index.js';
import { carriersOf, codesOf, pathOf, type Attribution } from '../attribution.js';
import { binValues, explicitBins, quantileBins } from '../bins.js';
import { cellLabels } from '../distance.js';
import { inData, type AuditPlan } from '../plan.js';
import type { ProtectedAttribute } from '../types.js';
import { requireColumn, type AuditContext } from './context.js';

function freeName(table: Table, base: string): string {
  const names = new Set(table.columns.map((c) => c.name));
  if (!names.has(base)) return base;
  for (let i = 1; ; i++) if (!names.has(`${base}_${i}`)) return `${base}_${i}`;
}

function categorical(name: string, codes: Int32Array, categories: string[]): CategoricalColumn {
  return { kind: 'categorical', name, codes, categories };
}

export interface GroupView {
  attr: ProtectedAttribute;
  /** group label of each data row */
  dataLabels: string[];
  /** group labels of generated rows (numeric attributes binned with the same edges, clamped) */
  labelsOf(t: Table): string[];
  /** the group values, in order */
  values: string[];
}

export function groupViews(
  table: Table,
  plan: AuditPlan,
  inModel: (c: string) => boolean | null,
): { views: GroupView[]; extra: Column[]; warnings: string[] } {
  const views: GroupView[] = [];
  const extra: Column[] = [];
  const warnings: string[] = [];
  for (const name of plan.protected) {
    const col = requireColumn(table, name, 'protected column');
    check(
      !(col.kind === 'categorical' && plan.protectedEdges[name]),
      'E_ARG',
      () => `audit: edges given for "${name}", which is categorical; edges apply to numeric protected columns`,
    );
    if (col.kind === 'categorical') {
      const present = new Set(col.codes);
      views.push({
        attr: { column: name, groupColumn: name, kind: 'categorical', inModel: inModel(name) },
        dataLabels: cellLabels(col),
        values: col.categories.filter((_, k) => present.has(k)).sort(),
        labelsOf: (t) => {
          const g = t.columns.find((c) => c.name === name);
          return g ? cellLabels(g) : new Array<string>(t.rows).fill('');
        },
      });
      continue;
    }
    const given = plan.protectedEdges[name];
    const bins = given
      ? explicitBins(given, `protected edges of "${name}"`)
      : quantileBins(col.values, plan.protectedBins);
    const { codes, counts, outside } = binValues(col.values, bins.edges);
    check(
      outside === 0,
      'E_ARG',
      () =>
        `audit: ${outside} values of "${name}" lie outside the edges [${bins.edges[0]}, ` +
        `${bins.edges[bins.edges.length - 1]}]; widen the edges`,
    );
    const groupColumn = freeName({ rows: table.rows, columns: [...table.columns, ...extra] }, `${name} (binned)`);
    extra.push(categorical(groupColumn, codes, bins.labels.slice()));
    const empty = bins.labels.filter((_, i) => counts[i] === 0);
    if (empty.length) warnings.push(`${name}: no data rows in bin(s) ${empty.join(', ')}`);
    const edges = bins.edges;
    views.push({
      attr: {
        column: name,
        groupColumn,
        kind: 'numeric',
        bins: { method: bins.method, edges: edges.slice(), labels: bins.labels.slice(), counts },
        inModel: inModel(name),
      },
      dataLabels: Array.from(codes, (k) => bins.labels[k]),
      values: bins.labels.filter((_, i) => counts[i] > 0),
      labelsOf: (t) => {
        const g = t.columns.find((c) => c.name === name);
        if (!g) return new Array<string>(t.rows).fill('');
        const v = g.kind === 'numeric' ? g.values : Float64Array.from(cellLabels(g), Number);
        return Array.from(binValues(v, edges, true).codes, (k) => (k < 0 ? '' : bins.labels[k]));
      },
    });
  }
  return { views, extra, warnings };
}

/** What the metrics stage hands to the rest of the audit. */
export interface MetricsStage {
  predName: string;
  predCol: Column;
  features: string[] | null;
  views: GroupView[];
  extra: Column[];
  /** the data with the predictions and the binned protected columns */
  mtable: Table;
  groupCols: string[];
  attributes: MetricsReport;
  intersection: MetricsReport | null;
  positive: string;
  favourable: Favourable;
  minGroupSize: number;
  /** P(positive) per row */
  pScore: Float64Array;
  /** the decision per row: the plan's decision rule on pScore */
  yhat: Uint8Array;
  attribution: Attribution[];
}

/**
 * Stages 1 and 2 of an audit: the predictions, the groups, the group metrics with their verdicts (one
 * Holm family over the attributes and the intersection) and the attribution of each attribute's
 * disparity. Exported so the flag calibration (experiments/flag-calibration.mjs) runs exactly the code
 * whose verdicts the report shows, without the GAN.
 */
export async function metricsStage(ctx: AuditContext): Promise<MetricsStage> {
  const { table, plan, warnings, caveats, lap } = ctx;
  const { model, pred: predGiven, decision } = plan;
  // ── 1. predictions ──────────────────────────────────────────────────────────────────────────
  const predName = predGiven ?? freeName(table, 'preds');
  let predCol: Column;
  if (model) {
    predCol = { kind: 'numeric', name: predName, values: await model.predict(table) };
  } else predCol = requireColumn(table, predName, 'predictions column');
  // the side view of a score's, class's or value's two targets has no model but knows the one whose output it reads
  const read = model?.features ?? ctx.modelFeatures;
  const features = read ? [...read] : null;
  const inModel = (c: string): boolean | null => (features ? features.includes(c) : null);
  lap('score');

  // ── 2. groups and metrics ───────────────────────────────────────────────────────────────────
  const { views, extra, warnings: binWarnings } = groupViews(table, plan, inModel);
  warnings.push(...binWarnings);
  const base = model ? [...table.columns, predCol] : table.columns.slice();
  const mtable: Table = { rows: table.rows, columns: [...base, ...extra] };
  const groupCols = views.map((v) => v.attr.groupColumn);
  // a model's output is P(positive) even when it is exactly 0 and 1; a given column may hold labels
  const predAs = model ? ('scores' as const) : ('auto' as const);
  // keyed by the metrics' group column (a numeric attribute's binned column)
  const reference: Record<string, string> = {};
  for (const v of views)
    if (plan.reference?.[v.attr.column] !== undefined) reference[v.attr.groupColumn] = plan.reference[v.attr.column];
  const mopts = {
    label: plan.label,
    positive: plan.positive,
    favourable: plan.favourable,
    pred: predName,
    predAs,
    decision,
    groups: groupCols,
    reference,
    tolerance: plan.tolerance,
    minGroupSize: plan.minGroupSize,
    confidence: plan.confidence,
    legitimate: plan.legitimate,
    suppressBelow: plan.suppressBelow,
    allowInvertedScores: plan.allowInvertedScores,
    ...(model ? { predWhat: `the scores of ${model.source}` } : {}),
    rng: new Rng(ctx.engine, plan.seeds.metrics),
  };
  // a bad label or predictions column is found here: name the data it came from
  const attributes = inData(plan.source, () => groupMetrics(mtable, mopts));
  const intersection: MetricsReport | null =
    groupCols.length >= 2
      ? inData(plan.source, () =>
          groupMetrics(mtable, {
            ...mopts,
            intersect: true,
            reference: Object.keys(reference).length === groupCols.length ? reference : undefined,
          }),
        )
      : null;
  // one family: every attribute, group, metric and the intersection (verdicts.ts)
  correctTogether(intersection ? [attributes, intersection] : [attributes]);
  const positive = attributes.positive;
  const favourable = attributes.favourable;
  const minGroupSize = attributes.minGroupSize;
  for (const r of [attributes, intersection]) {
    if (!r) continue;
    for (const a of r.attributes) {
      const small = a.groups.filter((g) => g.small);
      if (small.length)
        caveats.push({
          topic: 'small-group',
          text:
            `${a.column}: ${small.length === 1 ? `${small[0].value} has` : `${small.length} groups have`} fewer ` +
            `than ${minGroupSize} rows (${small
              .slice(0, 5)
              .map((g) => `${g.value}: ${g.n}`)
              .join(', ')}${small.length > 5 ? ', …' : ''}); small groups get no verdict`,
        });
    }
  }
  // P(positive) per row as a number in [0, 1], the GAN's condition: the scores, or, where the metrics read
  // the column as predicted labels (0/1 included, whichever of them is positive), 1 for the positive label
  const pScore: Float64Array =
    attributes.predKind === 'scores' && predCol.kind === 'numeric'
      ? predCol.values
      : Float64Array.from(cellLabels(predCol), (l) => (l === positive ? 1 : 0));
  const yhat = decide(decision, pScore);

  // why an attribute's groups differ: the features carrying it, and whether the model reads it (attribution.ts)
  const attribution: Attribution[] = [];
  {
    const protectedSet = new Set(plan.protected);
    const carriersFrom = table.columns
      .filter((c) => !(c.kind === 'categorical' && c.identifier))
      .map((c) => c.name)
      .filter((c) => c !== plan.label && c !== predName && !protectedSet.has(c));
    for (const v of views) {
      const gcol = mtable.columns.find((c) => c.name === v.attr.groupColumn)!;
      const readByModel = v.attr.inModel;
      const ref = attributes.attributes.find((a) => a.column === v.attr.groupColumn)?.reference.value;
      let flipShare: number | null = null;
      const col = table.columns.find((c) => c.name === v.attr.column);
      if (model && readByModel === true && col?.kind === 'categorical' && ref !== undefined) {
        const k = col.categories.indexOf(ref);
        if (k >= 0) {
          const flipped: Table = {
            rows: table.rows,
            columns: table.columns.map((c) => (c === col ? { ...col, codes: new Int32Array(table.rows).fill(k) } : c)),
          };
          const flippedYhat = decide(decision, await model.predict(flipped));
          let changed = 0;
          for (let i = 0; i < table.rows; i++) if (flippedYhat[i] !== yhat[i]) changed++;
          flipShare = changed / table.rows;
        }
      }
      attribution.push({
        attribute: v.attr.column,
        groupColumn: v.attr.groupColumn,
        readByModel,
        flipShare,
        carriers: carriersOf(table, codesOf(gcol, 10), yhat, carriersFrom),
        path: pathOf(readByModel, flipShare),
      });
    }
  }

  return {
    predName,
    predCol,
    features,
    views,
    extra,
    mtable,
    groupCols,
    attributes,
    intersection,
    positive,
    favourable,
    minGroupSize,
    pScore,
    yhat,
    attribution,
  };
}

/** What --suppress-below hides from the sets' comparisons with the real rows. */
export interface Suppression {
  /** k: cells with 1 ≤ n < k people are suppressed (0: none) */
  k: number;
  /** protected column → its suppressed values */
  values: Map<string, Set<string>>;
  /** "A × B" → the "a & b" cells with 1 ≤ n < k */
  cells: Map<string, Set<string>>;
}

/**
 * --suppress-below: the protected values and the heat-map cells with fewer than k people; no figure
 * from their real rows is shown (metrics/suppress.ts strips the metrics themselves).
 */
export function suppression(table: Table, ms: MetricsStage): Suppression {
  const { views, attributes } = ms;
  const k = attributes.suppressBelow ?? 0;
  const suppressedValues = new Map<string, Set<string>>();
  for (const v of views) {
    const a = attributes.attributes.find((x) => x.column === v.attr.groupColumn);
    const s = new Set((a?.groups ?? []).filter((g) => g.suppressed).map((g) => g.value));
    if (s.size) suppressedValues.set(v.attr.column, s);
  }
  const suppressedCells = new Map<string, Set<string>>();
  if (k > 0) {
    for (let i = 0; i < views.length; i++) {
      for (let j = i + 1; j < views.length; j++) {
        const count = new Map<string, number>();
        for (let r = 0; r < table.rows; r++) {
          const key = `${views[i].dataLabels[r]} & ${views[j].dataLabels[r]}`;
          count.set(key, (count.get(key) ?? 0) + 1);
        }
        suppressedCells.set(
          `${views[i].attr.column} × ${views[j].attr.column}`,
          new Set([...count].filter(([, c]) => c < k).map(([key]) => key)),
        );
      }
    }
  }
  return { k, values: suppressedValues, cells: suppressedCells };
}

/**
 * Refuses inputs that leave nothing to compare (docs/models.md "Refused audits"): one decision for every row, or only
 * small groups.
 */
export function refuseDegenerate(plan: AuditPlan, ms: MetricsStage): void {
  const { yhat, attributes, minGroupSize } = ms;
  let decidedPositive = 0;
  for (let i = 0; i < yhat.length; i++) decidedPositive += yhat[i];
  check(
    decidedPositive > 0 && decidedPositive < yhat.length,
    'E_INPUT',
    () =>
      `audit: the model decides all ${yhat.length} rows ${decidedPositive > 0 ? 'positive' : 'negative'}: there is ` +
      `no ${decidedPositive > 0 ? 'negative' : 'positive'} canonical set to draw and no decision to compare ` +
      `between groups (a constant model, or a threshold that every score is on one side of)`,
  );
  for (const a of attributes.attributes) {
    check(
      plan.allowSmall || a.groups.some((g) => !g.small),
      'E_INPUT',
      () =>
        `audit: every group of ${a.column} has fewer than ${minGroupSize} rows (${a.groups
          .slice(0, 4)
          .map((g) => `${g.value}: ${g.n}`)
          .join(
            ', ',
          )}${a.groups.length > 4 ? ', …' : ''}): no comparison can get a verdict; give fewer bins, --min-group, or ` +
        `--allow-small`,
    );
  }
}
