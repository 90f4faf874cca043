// What an audit states about its canonical sets, decided from the checks against the data
// (src/audit/checks.ts), so that no statement the real rows contradict reaches a reader. The report,
// the CLI summary and the browser page all print these; none decides on its own. Core code.
//
// The rules (issue #15):
// - A value is stated as FAVOURED (DISFAVOURED) by the model's decisions only when its check
//   'agrees': the real rows' shift is positive (negative) with an interval at the corrected level (checks.ts correctShiftChecks) that excludes 0, and
//   every GAN seed's canonical shift has that sign. The shift is share in the favourable set − share
//   in the unfavourable set (checks.ts): with --favourable negative (the positive decision is the
//   unfavourable one, a high-risk score) the favourable set is the negative one, so the words and the
//   signs are the same however the label is coded.
// - A value whose check 'disagrees' is stated as a DISAGREEMENT: the sets contradict the data there;
//   nothing is inferred from them.
// - A value the real rows cannot decide ('within noise') on which every seed (at least two) gives the
//   same sign is GENERATED ONLY: shown as the GAN's estimate, not confirmed by the data, never a
//   preference.
// - Ranking: features are ranked by the JS distance between the pooled positive and negative sets.
//   The findings NAME the first FINDINGS_DEFAULTS.named features whose sets are faithful on both sides
//   (fidelity within max(noise floor, tolerance), checks.ts); a feature ranked above the last named one
//   but not faithful is listed as misrepresented instead of named. A JS distance of sets that
//   misrepresent a feature says more about the generator than about the model.
import type { Distribution, FeatureFidelity, ShiftCheck } from './checks.js';
import { CHECK_DEFAULTS } from './checks.js';

export const FINDINGS_DEFAULTS = {
  /** features named as separating the sets */
  named: CHECK_DEFAULTS.topFeatures,
};

export const RANKING_RULE = `features ranked by the Jensen–Shannon distance between the positive and negative canonical sets (all GAN seeds pooled); the findings name the first ${FINDINGS_DEFAULTS.named} whose generated values are faithful to the real rows on both sides (KS or TV distance within max(noise floor, ${CHECK_DEFAULTS.fidelityTolerance})); features ranked above them whose sets misrepresent the data are listed apart, not named`;

export interface ValueFinding {
  value: string;
  kind: 'share' | 'median';
  /** the canonical shift: pooled, and its range over the GAN seeds */
  canonical: { pooled: number; min: number; max: number; seeds: number[] };
  real: ShiftCheck['real'];
  status: ShiftCheck['status'];
}

export interface FeatureFinding {
  feature: string;
  role: Distribution['role'];
  kind: 'numeric' | 'categorical';
  /** JS between the pooled sets, its range over the seeds, and between the real rows on the two sides */
  js: { pooled: number; min: number; max: number; real: number | null };
  fidelity: FeatureFidelity | null;
  faithful: boolean;
  /** stated as preferences: the data and every seed agree */
  favoured: ValueFinding[];
  disfavoured: ValueFinding[];
  /** the sets contradict the data: never a preference */
  disagreements: ValueFinding[];
  /** the data cannot decide; every seed agrees with the others: the GAN's estimate only */
  generatedOnly: ValueFinding[];
}

export interface AuditFindings {
  rankingRule: string;
  /** which decision is favourable: 'favoured' means over-represented among the rows given it; every shift is favourable set − unfavourable set */
  favourable?: 'positive' | 'negative';
  /** the features named as separating the sets (faithful, by JS) */
  named: FeatureFinding[];
  /** ranked above the last named feature, but misrepresented by the sets: not named */
  unfaithful: FeatureFinding[];
  /** every protected attribute (the proxy ones included) */
  protected: FeatureFinding[];
}

const valueFinding = (c: ShiftCheck): ValueFinding => ({
  value: c.value,
  kind: c.kind,
  canonical: { pooled: c.pooled, min: Math.min(...c.canonical), max: Math.max(...c.canonical), seeds: c.canonical.slice() },
  real: c.real,
  status: c.status,
});

/** Medians first (their units are the feature's, not shares), then shares; each by the size of the real shift. */
const byMagnitude = (a: ValueFinding, b: ValueFinding) =>
  (a.kind === b.kind ? 0 : a.kind === 'median' ? -1 : 1) || Math.abs(b.real.shift ?? b.canonical.pooled) - Math.abs(a.real.shift ?? a.canonical.pooled);

/** One feature's finding from its distribution, fidelity and checks. */
export function featureFinding(d: Distribution, fid: FeatureFidelity | null, checks: readonly ShiftCheck[]): FeatureFinding {
  const mine = checks.filter((c) => c.feature === d.feature).map(valueFinding);
  const seedsAgree = (v: ValueFinding) => v.canonical.seeds.length >= 2 && v.canonical.seeds.every(Number.isFinite) && (v.canonical.min > 0 || v.canonical.max < 0);
  const agrees = mine.filter((v) => v.status === 'agrees');
  // over- and under-represented in the favourable set, by the data's sign (its interval's, as checks.ts decides the status)
  const up = agrees.filter((v) => (v.real.lo ?? 0) > 0);
  const down = agrees.filter((v) => (v.real.hi ?? 0) < 0);
  const js = d.jsSeeds && d.jsSeeds.length ? d.jsSeeds : [d.js];
  return {
    feature: d.feature,
    role: d.role,
    kind: d.kind,
    js: { pooled: d.js, min: Math.min(...js), max: Math.max(...js), real: d.jsReal ?? null },
    fidelity: fid,
    faithful: fid?.faithful ?? false,
    favoured: up.sort(byMagnitude),
    disfavoured: down.sort(byMagnitude),
    disagreements: mine.filter((v) => v.status === 'disagrees').sort(byMagnitude),
    generatedOnly: mine.filter((v) => v.status === 'within noise' && seedsAgree(v)).sort(byMagnitude),
  };
}

/**
 * The findings of an audit: `ranked` the main distributions (largest JS first), `fidelity` per feature,
 * `checks` the direction checks, `protectedColumns` the protected attributes (in the audit's order).
 */
export function buildFindings(ranked: readonly Distribution[], fidelity: readonly FeatureFidelity[], checks: readonly ShiftCheck[], protectedColumns: readonly string[], favourable: 'positive' | 'negative' = 'positive'): AuditFindings {
  const fid = (f: string) => fidelity.find((x) => x.feature === f) ?? null;
  const named: FeatureFinding[] = [];
  const unfaithful: FeatureFinding[] = [];
  for (const d of ranked) {
    if (d.role !== 'feature') continue;
    if (named.length >= FINDINGS_DEFAULTS.named) break;
    const f = featureFinding(d, fid(d.feature), checks);
    (f.faithful ? named : unfaithful).push(f);
  }
  const prot: FeatureFinding[] = [];
  for (const c of protectedColumns) {
    const d = ranked.find((x) => x.feature === c);
    if (d) prot.push(featureFinding(d, fid(c), checks));
  }
  return { rankingRule: RANKING_RULE, favourable, named, unfaithful, protected: prot };
}

/** Every value stated as a preference (favoured or disfavoured) anywhere in the findings. */
export function statedPreferences(f: AuditFindings): { feature: string; value: string; direction: 'favoured' | 'disfavoured' }[] {
  const out: { feature: string; value: string; direction: 'favoured' | 'disfavoured' }[] = [];
  for (const x of [...f.protected, ...f.named]) {
    for (const v of x.favoured) out.push({ feature: x.feature, value: v.value, direction: 'favoured' });
    for (const v of x.disfavoured) out.push({ feature: x.feature, value: v.value, direction: 'disfavoured' });
  }
  return out;
}
