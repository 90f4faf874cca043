// What an audit states about its canonical sets, decided from the checks against the data
// (src/audit/checks.ts), so that no statement the real rows contradict, in direction or in size,
// reaches a reader, and no two statements contradict each other. The report, the CLI summary and the
// browser page all print these; none decides on its own. Core code.
//
// The rules (a finding is stated only where the real rows and every GAN seed agree):
// - A value's DIRECTION is stated (favoured / disfavoured) when the real rows' interval at the corrected
//   level excludes 0 and every GAN seed shifts the same way: status 'agrees', 'overstates' or
//   'understates' (checks.ts). Every shift is favourable set − unfavourable set, so the words and the
//   signs are the same however the label is coded.
// - Its SIZE: the canonical figure is given only when it is consistent with the real one (status
//   'agrees': inside the real interval widened by the sets' own noise) and the sets are faithful to the
//   feature. Otherwise the finding states the REAL figure with its interval, and the canonical one as
//   context ("overstates", "understates", or "the sets misrepresent the feature"): one confidence
//   statement per value, never a canonical size the data does not back (statedFrom).
// - 'disagrees' (every seed shifts the other way) is a DISAGREEMENT, never a preference; 'unsettled'
//   (the seeds do not share a sign) is said as such; a value the real rows cannot decide ('within
//   noise') on which every seed (at least two) gives the same sign is GENERATED ONLY.
// - The RANKING is the real rows': features ordered by the Jensen–Shannon distance between the rows the
//   model puts on each side (checks.ts realSeparation: a bootstrap interval and a permutation chance
//   level), which no GAN seed changes. The findings NAME the first FINDINGS_DEFAULTS.named features
//   that separate the sides beyond chance and whose sets are faithful on both sides; a feature the real
//   rows rank above the last named one, or in their top 3, is never dropped silently: it is named or
//   listed with why not (misrepresented by the sets, or within chance). The canonical JS is context.
import type { Distribution, FeatureFidelity, RealSeparation, ShiftCheck } from './checks.js';
import { CHECK_DEFAULTS, STATED_STATUSES } from './checks.js';

export const FINDINGS_DEFAULTS = {
  /** features named as separating the sides */
  named: CHECK_DEFAULTS.topFeatures,
  /** a feature the real rows rank this high is named, or listed with why not */
  realTop: 3,
};

export const RANKING_RULE =
  `features ranked by the real rows' separation: the Jensen–Shannon distance between the rows the model puts on ` +
  `each side of its decision, with a bootstrap interval and the level chance alone gives (decisions permuted); ` +
  `the findings name the first ${FINDINGS_DEFAULTS.named} that separate the sides beyond chance and whose ` +
  `generated values are faithful to the real rows on both sides (KS or TV distance within max(noise floor, ` +
  `${CHECK_DEFAULTS.fidelityTolerance})); a feature the real rows rank above them or in their top ` +
  `${FINDINGS_DEFAULTS.realTop} is named or listed with why not. The canonical sets' own JS is shown beside it ` +
  `as context`;

export interface ValueFinding {
  value: string;
  kind: 'share' | 'median';
  /** the canonical shift: pooled, its range over the GAN seeds, and its own sampling noise */
  canonical: { pooled: number; min: number; max: number; seeds: number[]; se: number | null };
  real: ShiftCheck['real'];
  status: ShiftCheck['status'];
}

/**
 * The real rows' ranking of a feature (every feature of the sets, in the real order) and whether it is named, and if
 * not why.
 */
export interface RankedFeature {
  feature: string;
  /** 1-based, by the real rows' JS */
  realRank: number;
  /** 1-based, by the canonical sets' pooled JS (null: no distribution) */
  canonicalRank: number | null;
  real: RealSeparation;
  /** the canonical sets' JS: pooled and over the seeds */
  canonical: { pooled: number; min: number; max: number } | null;
  faithful: boolean | null;
  named: boolean;
  /** why a feature the real rows rank high is not named (null: named, or ranked below the named ones) */
  why: 'misrepresented by the canonical sets' | 'within chance' | null;
}

export interface FeatureFinding {
  feature: string;
  role: Distribution['role'];
  kind: 'numeric' | 'categorical';
  /**
   * JS between the pooled sets, its range over the seeds, and between the real rows on the two sides; outsideSeeds: the
   * pooled JS is outside its seeds' range (the seeds' sets differ, so pooling them blurs or sharpens the difference)
   */
  js: { pooled: number; min: number; max: number; real: number | null; outsideSeeds: boolean };
  /** the real rows' separation of this feature, when measured */
  separation: RealSeparation | null;
  fidelity: FeatureFidelity | null;
  faithful: boolean;
  /** stated: the data's direction, every seed with it (the size from statedFrom) */
  favoured: ValueFinding[];
  disfavoured: ValueFinding[];
  /** every seed shifts the other way: never a preference */
  disagreements: ValueFinding[];
  /** the data has a direction, the seeds do not share one: not a finding of the sets */
  unsettled: ValueFinding[];
  /** the data cannot decide; every seed agrees with the others: the GAN's estimate only */
  generatedOnly: ValueFinding[];
}

export interface AuditFindings {
  rankingRule: string;
  /**
   * which decision is favourable: 'favoured' means over-represented among the rows given it; every shift is favourable
   * set − unfavourable set
   */
  favourable?: 'positive' | 'negative';
  /** the features named as separating the sides (by the real rows, beyond chance, faithful sets) */
  named: FeatureFinding[];
  /**
   * ranked by the real rows above the last named feature or in their top 3, but misrepresented by the sets: not named
   */
  unfaithful: FeatureFinding[];
  /** every feature in the real rows' order, with the canonical order beside it and why a high one is not named */
  ranking: RankedFeature[];
  /** every protected attribute (the proxy ones included) */
  protected: FeatureFinding[];
}

/**
 * Where a stated value's figure comes from: the canonical sets when they are faithful to the feature and agree with the
 * data in size, else the real rows (the sets as context).
 */
export function statedFrom(v: ValueFinding, faithful: boolean): 'canonical' | 'real' {
  return faithful && v.status === 'agrees' ? 'canonical' : 'real';
}

const valueFinding = (c: ShiftCheck): ValueFinding => ({
  value: c.value,
  kind: c.kind,
  canonical: {
    pooled: c.pooled,
    min: Math.min(...c.canonical),
    max: Math.max(...c.canonical),
    seeds: c.canonical.slice(),
    se: c.canonicalSe ?? null,
  },
  real: c.real,
  status: c.status,
});

/** Medians first (their units are the feature's, not shares), then shares; each by the size of the real shift. */
const byMagnitude = (a: ValueFinding, b: ValueFinding) =>
  (a.kind === b.kind ? 0 : a.kind === 'median' ? -1 : 1) ||
  Math.abs(b.real.shift ?? b.canonical.pooled) - Math.abs(a.real.shift ?? a.canonical.pooled);

/** One feature's finding from its distribution, fidelity, checks and real separation. */
export function featureFinding(
  d: Distribution,
  fid: FeatureFidelity | null,
  checks: readonly ShiftCheck[],
  separation: RealSeparation | null = null,
): FeatureFinding {
  const mine = checks.filter((c) => c.feature === d.feature).map(valueFinding);
  const seedsAgree = (v: ValueFinding) =>
    v.canonical.seeds.length >= 2 &&
    v.canonical.seeds.every(Number.isFinite) &&
    (v.canonical.min > 0 || v.canonical.max < 0);
  const stated = mine.filter((v) => (STATED_STATUSES as readonly string[]).includes(v.status));
  // the data's sign (its interval's, as checks.ts decides the status)
  const up = stated.filter((v) => (v.real.lo ?? 0) > 0);
  const down = stated.filter((v) => (v.real.hi ?? 0) < 0);
  const js = d.jsSeeds?.length ? d.jsSeeds.filter(Number.isFinite) : [d.js];
  const min = js.length ? Math.min(...js) : d.js;
  const max = js.length ? Math.max(...js) : d.js;
  return {
    feature: d.feature,
    role: d.role,
    kind: d.kind,
    js: {
      pooled: d.js,
      min,
      max,
      real: d.jsReal ?? null,
      outsideSeeds: js.length > 1 && (d.js < min - 1e-12 || d.js > max + 1e-12),
    },
    separation,
    fidelity: fid,
    faithful: fid?.faithful ?? false,
    favoured: up.sort(byMagnitude),
    disfavoured: down.sort(byMagnitude),
    disagreements: mine.filter((v) => v.status === 'disagrees').sort(byMagnitude),
    unsettled: mine.filter((v) => v.status === 'unsettled').sort(byMagnitude),
    generatedOnly: mine.filter((v) => v.status === 'within noise' && seedsAgree(v)).sort(byMagnitude),
  };
}

/**
 * The features in the real rows' order: by `separation` where it was measured, else by the real rows'
 * JS on the distributions' bins (no interval: beyond chance when above 0).
 */
function realOrder(
  features: readonly Distribution[],
  separation: readonly RealSeparation[] | undefined,
): RealSeparation[] {
  const out = features.map((d): RealSeparation => {
    const s = separation?.find((x) => x.feature === d.feature);
    if (s) return s;
    const js = d.jsReal ?? 0;
    return { feature: d.feature, js, lo: js, hi: js, chance: 0, beyondChance: js > 0 };
  });
  return out.sort((a, b) => b.js - a.js || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
}

/**
 * The findings of an audit: `ranked` the main distributions (largest canonical JS first), `fidelity` per
 * feature, `checks` the direction checks, `protectedColumns` the protected attributes (in the audit's
 * order), `separation` the real rows' separation of each feature (checks.ts realSeparation).
 */
export function buildFindings(
  ranked: readonly Distribution[],
  fidelity: readonly FeatureFidelity[],
  checks: readonly ShiftCheck[],
  protectedColumns: readonly string[],
  favourable: 'positive' | 'negative' = 'positive',
  separation?: readonly RealSeparation[],
): AuditFindings {
  const fid = (f: string) => fidelity.find((x) => x.feature === f) ?? null;
  const sep = (f: string) => separation?.find((x) => x.feature === f) ?? null;
  const features = ranked.filter((d) => d.role === 'feature');
  const order = realOrder(features, separation);
  const named: FeatureFinding[] = [];
  for (const s of order) {
    if (named.length >= FINDINGS_DEFAULTS.named) break;
    const d = features.find((x) => x.feature === s.feature)!;
    if (s.beyondChance && fid(s.feature)?.faithful) named.push(featureFinding(d, fid(s.feature), checks, s));
  }
  const lastNamed = named.length ? order.findIndex((s) => s.feature === named[named.length - 1].feature) : -1;
  const reach = Math.max(lastNamed, FINDINGS_DEFAULTS.realTop - 1);
  const ranking: RankedFeature[] = order.map((s, i) => {
    const d = features.find((x) => x.feature === s.feature)!;
    const f = fid(s.feature);
    const isNamed = named.some((n) => n.feature === s.feature);
    const js = d.jsSeeds?.length ? d.jsSeeds.filter(Number.isFinite) : [d.js];
    return {
      feature: s.feature,
      realRank: i + 1,
      canonicalRank: features.indexOf(d) + 1,
      real: s,
      canonical: { pooled: d.js, min: js.length ? Math.min(...js) : d.js, max: js.length ? Math.max(...js) : d.js },
      faithful: f ? f.faithful : null,
      named: isNamed,
      why:
        isNamed || i > reach
          ? null
          : !f?.faithful
            ? 'misrepresented by the canonical sets'
            : !s.beyondChance
              ? 'within chance'
              : null,
    };
  });
  const unfaithful = ranking
    .filter((r) => r.why === 'misrepresented by the canonical sets')
    .map((r) => featureFinding(features.find((x) => x.feature === r.feature)!, fid(r.feature), checks, r.real));
  const prot: FeatureFinding[] = [];
  for (const c of protectedColumns) {
    const d = ranked.find((x) => x.feature === c);
    if (d) prot.push(featureFinding(d, fid(c), checks, sep(c)));
  }
  return { rankingRule: RANKING_RULE, favourable, named, unfaithful, ranking, protected: prot };
}

/**
 * Every value stated as a preference (favoured or disfavoured) anywhere in the findings, with where its figure comes
 * from.
 */
export function statedPreferences(f: AuditFindings): {
  feature: string;
  value: string;
  direction: 'favoured' | 'disfavoured';
  status: ShiftCheck['status'];
  from: 'canonical' | 'real';
}[] {
  const out: {
    feature: string;
    value: string;
    direction: 'favoured' | 'disfavoured';
    status: ShiftCheck['status'];
    from: 'canonical' | 'real';
  }[] = [];
  for (const x of [...f.protected, ...f.named]) {
    for (const v of x.favoured)
      out.push({
        feature: x.feature,
        value: v.value,
        direction: 'favoured',
        status: v.status,
        from: statedFrom(v, x.faithful),
      });
    for (const v of x.disfavoured)
      out.push({
        feature: x.feature,
        value: v.value,
        direction: 'disfavoured',
        status: v.status,
        from: statedFrom(v, x.faithful),
      });
  }
  return out;
}
