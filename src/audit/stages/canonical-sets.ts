// Stage 4 of an audit: the main canonical sets — each GAN seed's positive and negative set, drawn by
// rejection (canonical.ts), pooled — compared with each other and with the real rows on each side,
// the proxy view among them; and `sets`, which the intersectional stages draw and compare with.
import { concatRows, selectRows, type Table } from '../../data/table.js';
import type { Dependency } from '../../data/dependencies.js';
import { planDerivations, type Derivation, type Relation } from '../../data/relations.js';
import { validity, type Validity } from '../../methods/quality/index.js';
import { CANONICAL_DEFAULTS, concatScores, type CanonicalDraw } from '../canonical.js';
import { distribution, jsDistance, rankDistributions, sharesOn, type SeriesInput } from '../distance.js';
import { AUDIT_DEFAULTS } from '../options.js';
import type { AuditResult, CanonicalComparison, Distribution } from '../types.js';
import { pctText } from '../../data/text.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import { drawSide } from './draw-plan.js';
export { CORRECTION_ROUND } from './draw-plan.js';
import type { MetricsStage, Suppression } from './metrics.js';

/** One draw of both sides from every GAN seed, pooled; the validity of the pooled pair by the scorer. */
export interface PairDraw {
  perSeed: { positive: CanonicalDraw; negative: CanonicalDraw }[];
  positive: Table;
  negative: Table;
  validity: Validity | null;
}

/** How the audit draws sets and compares them with the real rows; made once, used by stages 4 to 5b. */
export interface Sets {
  /** both sides for every seed, `fix`ed categories held; every round's sampling seed is logged under `what` */
  /** rows per side and GAN seed: one number for both sides, or [negative, positive] */
  drawPair(
    fix: [string, string][],
    rows: number | readonly [number, number],
    purpose: number,
    what: string,
  ): Promise<PairDraw>;
  /** pooled sets against the real rows `realRows` on each side, with per-seed JS on the same bins */
  compare(pos: Table, neg: Table, realRows: number[], perSeed: PairDraw['perSeed'], withReal?: boolean): Distribution[];
  /** a column's role in the report: protected, proxy (protected, not read by the model) or feature */
  roleOf(c: string): Distribution['role'];
  /** the exact dependencies of the data that every drawn row must respect */
  dependencies: Dependency[];
  /** the near-exact arithmetic relations of the data, which drawn rows keep by construction */
  relations: Relation[];
  /** how the main sets (nothing fixed) derive them: the columns written from others */
  derivations: Derivation[];
}

export function sets(ctx: AuditContext, ms: MetricsStage, gs: GanStage, supp: Suppression): Sets {
  const { table, warnings, seedLog } = ctx;
  const { predName, views, yhat } = ms;
  const { gans, seeds, ganFeatureTable, posRows, negRows, scorer, rejection, plan } = gs;
  const suppressedValues = supp.values;
  const { dependencies, relations, protectedColumns, condition } = plan;
  const derivations = planDerivations(dependencies, relations, ganFeatureTable, new Set(), protectedColumns);
  if (condition !== 'extreme') {
    for (const [rows, side] of [
      [posRows, 'positive'],
      [negRows, 'negative'],
    ] as const) {
      if (rows.length === 0)
        warnings.push(
          `the model scores no row ${side}: the ${side} canonical set is conditioned as in the paper (prediction ` +
            `exactly ${side === 'positive' ? 1 : 0}), and nothing about it can be checked against real rows`,
        );
    }
  }
  /** one side's draw from GAN k; every round's sampling seed is logged under `what` */
  const draw = (
    k: number,
    side: 0 | 1,
    fix: [string, string][],
    rows: number,
    purpose: number,
    what: string,
  ): Promise<CanonicalDraw> =>
    drawSide(
      plan,
      gans[k],
      seeds[k],
      side,
      fix,
      rows,
      purpose,
      (name, s) => (seedLog[`${what}, ${side === 1 ? 'positive' : 'negative'} set, GAN ${k + 1}, ${name}`] = s),
    );
  /** both sides for every seed; their scores by the scorer (the filter's, or scored now without rejection) */
  const drawPair = async (
    fix: [string, string][],
    rows: number | readonly [number, number],
    purpose: number,
    what: string,
  ) => {
    const [negRowsWanted, posRowsWanted] = typeof rows === 'number' ? [rows, rows] : rows;
    const perSeed: { positive: CanonicalDraw; negative: CanonicalDraw }[] = [];
    for (let k = 0; k < gans.length; k++)
      perSeed.push({
        positive: await draw(k, 1, fix, posRowsWanted, purpose, what),
        negative: await draw(k, 0, fix, negRowsWanted, purpose + 1, what),
      });
    const positive = concatRows(
      perSeed.map((d) => d.positive.table),
      'canonical set',
    );
    const negative = concatRows(
      perSeed.map((d) => d.negative.table),
      'canonical set',
    );
    let v: Validity | null = null;
    if (scorer) {
      let sp = rejection ? concatScores(perSeed.map((d) => d.positive.scores!)) : await scorer.score(positive);
      let sn = rejection ? concatScores(perSeed.map((d) => d.negative.scores!)) : await scorer.score(negative);
      // two targets of a score, class or value: a row in neither is valid on neither side
      if (scorer.sides) {
        const on = scorer.sides;
        sp = Float64Array.from(on(sp), (x) => (x === 1 ? 1 : 0));
        sn = Float64Array.from(on(sn), (x) => (x === 0 ? 0 : 1));
      }
      const scores = new Float64Array(sp.length + sn.length);
      scores.set(sp);
      scores.set(sn, sp.length);
      const cond = new Float64Array(scores.length);
      cond.fill(1, 0, sp.length);
      v = validity(
        scores,
        cond,
        {
          model: scorer.kind === 'model' ? scorer.source : 'the surrogate of the predictions column',
          column: predName,
          source: 'given',
        },
        scorer.decision,
      );
    }
    return { perSeed, positive, negative, validity: v };
  };
  const roleOf = (c: string): Distribution['role'] => {
    const v = views.find((x) => x.attr.column === c);
    if (!v) return 'feature';
    return v.attr.inModel === false ? 'proxy' : 'protected';
  };
  const onSide = (rows: ArrayLike<number>, side: number) => Array.from(rows).filter((i) => yhat[i] === side);
  /**
   * pooled sets against the real rows on each side; per-seed JS on the same bins. No real series for a
   * suppressed cell's sets (withReal false), nor for a protected attribute with a suppressed value
   * (its shares among the real rows on a side would give that group's count back)
   */
  const compare = (
    pos: Table,
    neg: Table,
    realRows: number[],
    perSeed: { positive: CanonicalDraw; negative: CanonicalDraw }[],
    withReal = true,
  ): Distribution[] => {
    const realPos = selectRows(table, onSide(realRows, 1));
    const realNeg = selectRows(table, onSide(realRows, 0));
    const out: Distribution[] = [];
    for (const c of pos.columns) {
      if (c.name === predName) continue;
      const nc = neg.columns.find((x) => x.name === c.name);
      if (!nc) continue;
      const series: SeriesInput[] = [
        { name: 'positive canonical', column: c },
        { name: 'negative canonical', column: nc },
      ];
      const rp = realPos.columns.find((x) => x.name === c.name);
      const rn = realNeg.columns.find((x) => x.name === c.name);
      if (rp && rn && withReal && !suppressedValues.has(c.name))
        series.push(
          { name: 'real rows predicted positive', column: rp, of: 0 },
          { name: 'real rows predicted negative', column: rn, of: 1 },
        );
      const v = views.find((x) => x.attr.column === c.name);
      const edges = v?.attr.bins?.edges;
      const o = edges ? { edges, kind: 'numeric' as const } : {};
      const d = distribution(c.name, series, roleOf(c.name), o);
      if (series.length === 4) d.jsReal = jsDistance(d.series[2].share, d.series[3].share);
      if (perSeed.length > 1) {
        // each seed's pair on the pooled bins: its JS, and each bar's range over the seeds
        const seedShares = perSeed.map((s) =>
          (['positive', 'negative'] as const).map((k) => {
            const col = s[k].table.columns.find((x) => x.name === c.name);
            return col && s[k].table.rows > 0 ? sharesOn(d, col) : null;
          }),
        );
        d.jsSeeds = seedShares.map(([a, b]) => (a && b ? jsDistance(a, b) : NaN));
        for (const j of [0, 1]) {
          const rows = seedShares.map((x) => x[j]).filter((x): x is number[] => x !== null);
          if (rows.length)
            d.series[j].range = {
              lo: d.series[j].share.map((_, b) => Math.min(...rows.map((r) => r[b]))),
              hi: d.series[j].share.map((_, b) => Math.max(...rows.map((r) => r[b]))),
            };
        }
      }
      out.push(d);
    }
    return rankDistributions(out);
  };
  return { drawPair, compare, roleOf, dependencies, relations, derivations };
}

/** The main sets and the proxy view (stage 4). */
export interface CanonicalStage {
  main: PairDraw;
  canonical: CanonicalComparison;
  proxy: AuditResult['proxy'];
}

export async function canonicalStage(
  ctx: AuditContext,
  ms: MetricsStage,
  gs: GanStage,
  s: Sets,
): Promise<CanonicalStage> {
  const { table, caveats } = ctx;
  const { n } = ctx.plan;
  const { views } = ms;
  ctx.progress('canonical', 0);
  const { seeds, scorer, rejection } = gs;
  const { drawPair, compare } = s;
  const allRows = Array.from({ length: table.rows }, (_, i) => i);
  const main = await drawPair([], n, 0, 'main canonical sets');
  const posMain = main.positive;
  const negMain = main.negative;
  const canonical: CanonicalComparison = {
    fix: [],
    name: 'canonical',
    positive: posMain,
    negative: negMain,
    distributions: compare(posMain, negMain, allRows, main.perSeed),
    validity: main.validity,
    validityScorer: scorer ? scorer.kind : null,
    draws: main.perSeed.map((d, k) => ({ seed: seeds[k], positive: d.positive.stats, negative: d.negative.stats })),
  };
  drawCaveats(caveats, 'the main canonical sets', canonical.draws!, rejection, scorer !== null);
  if (!scorer)
    caveats.push({ topic: 'validity', text: 'nothing can score the canonical sets: their validity is unknown' });
  else if (scorer.kind === 'surrogate')
    caveats.push({
      topic: 'validity',
      text:
        `the generated rows are scored by a surrogate of the predictions column (the built-in classifier fitted to ` +
        `it), not by the model itself; it gives the column's decision on ` +
        `${pctText(scorer.agreement!.rate)} of ${scorer.agreement!.rows} held-out rows`,
    });
  const proxyColumns = views.filter((v) => v.attr.inModel === false).map((v) => v.attr.column);
  const proxy = {
    columns: proxyColumns,
    distributions: canonical.distributions.filter((d) => proxyColumns.includes(d.feature)),
  };
  return { main, canonical, proxy };
}

/**
 * Caveats on how a pair of sets was drawn: low acceptance, the draw cap, clipped, contradicting and
 * derived-out-of-range rows.
 */
export function drawCaveats(
  caveats: AuditResult['caveats'],
  what: string,
  draws: NonNullable<CanonicalComparison['draws']>,
  rejection: boolean,
  scored: boolean,
): void {
  const floor = AUDIT_DEFAULTS.validityFloor;
  for (const side of ['positive', 'negative'] as const) {
    const st = draws.map((d) => d[side]);
    const drawn = st.reduce((s, x) => s + x.drawn, 0);
    const kept = st.reduce((s, x) => s + x.kept, 0);
    const wanted = st.reduce((s, x) => s + x.wanted, 0);
    const acc = scored ? st.reduce((s, x) => s + (x.acceptance ?? 0) * x.drawn, 0) / Math.max(1, drawn) : null;
    if (acc !== null && acc < floor) {
      caveats.push({
        topic: 'validity',
        text: rejection
          ? `${what}: only ${pctText(acc)} of the rows drawn for the ${side} set were scored ${side} (the ` +
            `generator is weakly conditioned); the set keeps only those`
          : `${what}: only ${pctText(acc)} of the ${side} rows are scored ${side} (< ${100 * floor}%); ` +
            `read their distributions with care`,
      });
    }
    if (kept < wanted)
      caveats.push({
        topic: 'validity',
        text:
          `${what}: the ${side} set holds ${kept} of the ${wanted} rows asked for: the draw cap ` +
          `(${CANONICAL_DEFAULTS.drawCap} rows drawn per row wanted) was reached; it is not padded with rows ` +
          `scored on the other side`,
      });
    const contra = st.reduce((s, x) => s + x.contradicting, 0);
    if (drawn > 0 && contra / drawn >= 0.01)
      caveats.push({
        topic: 'fidelity',
        text:
          `${what}: ${((100 * contra) / drawn).toFixed(1)}% of the rows drawn for the ${side} set contradicted an ` +
          `exact dependency of the data (e.g. two columns that always agree) and were rejected`,
      });
    const outside = st.reduce((s, x) => s + (x.derivedOutOfRange ?? 0), 0);
    if (drawn > 0 && outside / drawn >= 0.01)
      caveats.push({
        topic: 'fidelity',
        text:
          `${what}: ${((100 * outside) / drawn).toFixed(1)}% of the rows drawn for the ${side} set had a column ` +
          `derived from others (a relation of the data) outside its observed range, and were rejected`,
      });
    const clipped = st.reduce((s, x) => s + x.clippedRows, 0);
    if (drawn > 0 && clipped / drawn >= 0.01)
      caveats.push({
        topic: 'fidelity',
        text:
          `${what}: ${((100 * clipped) / drawn).toFixed(1)}% of the rows drawn for the ${side} set had a number ` +
          `outside its column's observed range, clipped into it`,
      });
  }
}
