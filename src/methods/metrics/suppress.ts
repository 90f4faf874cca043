// Small-cell suppression (`--suppress-below k`): a group with fewer than k people keeps its name and
// its row count, and nothing else that comes from its people's outcomes — no rate, no count of
// positives (the confusion matrix, a comparison's numerators and denominators), no interval, no
// calibration bin, no impact or four-fifths ratio, no verdict ('too little data', reason
// "suppressed (n < k)"). A comparison against a suppressed reference shows no figure either (its
// ratios would give the reference's rates back). It runs inside groupMetrics, at the source, so no
// writer downstream (report, CSV, JSON, CLI summary) can show what is not there.
// Primary suppression only: a suppressed group's figures can still be worked out by difference from
// published totals of a coarser table (an attribute's groups against the intersection's cells);
// docs/report.md "Suppression" says so. Core code: no Node imports.
import { METRICS } from './definitions.js';
import type { AttributeResult, GroupResult, Interval } from './types.js';
import type { Comparison } from './verdicts.js';

/**
 * The option, defined once for every front end: `lucid metrics`, `lucid audit` (src/cli/options.ts) and the browser
 * page.
 */
export const SUPPRESSION_OPTION = {
  flag: '--suppress-below',
  /** what it does, as the CLI help and the page's field say it */
  help:
    'hide the figures of groups and intersection cells with fewer than k people: no rate, count of positives, ' +
    'interval or verdict, only "suppressed (n < k)" (default: nothing hidden)',
} as const;

/** The text every output shows in place of a suppressed figure. */
export const suppressedText = (k: number): string => `suppressed (n < ${k})`;

/** Per group value, whether it is suppressed under `k` (no suppression: k null or 0). */
export function suppressedGroups(sizes: readonly number[], k: number | null | undefined): boolean[] {
  return sizes.map((n) => !!k && n < k);
}

const NO_INTERVAL: Interval = { lo: null, hi: null };

function stripGroup(g: GroupResult): void {
  g.suppressed = true;
  g.small = true;
  g.tp = g.fp = g.tn = g.fn = null;
  for (const m of METRICS) g[m] = null;
  delete g.ci;
}

/** Strips, in place, every figure of a comparison whose group (or, `referenceToo`, whose reference) is suppressed. */
export function stripComparison(c: Comparison, reason: string, referenceToo: boolean): void {
  c.rate = null;
  if (referenceToo) c.referenceRate = null;
  c.difference = null;
  c.ratio = null;
  c.counts = null;
  c.logRatio = c.se = c.p = c.pAdjusted = c.level = null;
  c.interval = null;
  c.verdict = 'too little data';
  c.direction = null;
  c.reason = reason;
}

/**
 * Strips, in place, a comparison judged on a score's or a regression's figures (verdicts.ts judge) when its group or
 * its reference is suppressed: the suppressed side's figure, everything worked out from both, and the verdict.
 */
export function stripJudged(c: Comparison<string>, groupSuppressed: boolean, referenceSuppressed: boolean, k: number) {
  if (!groupSuppressed && !referenceSuppressed) return;
  c.rate = groupSuppressed ? null : c.rate;
  c.referenceRate = referenceSuppressed ? null : c.referenceRate;
  c.difference = c.ratio = c.logRatio = c.se = c.p = null;
  c.estimate = null;
  c.verdict = 'too little data';
  c.direction = null;
  c.reason = suppressedText(k);
}

/**
 * Strips, in place, every figure of the suppressed groups of `a` (and every comparison figure when
 * its reference is suppressed). `suppressed[g]` follows `a.groups`.
 */
export function suppressAttribute(a: AttributeResult, suppressed: readonly boolean[], k: number): void {
  if (!suppressed.some((x) => x)) return;
  const text = suppressedText(k);
  const isSup = new Set(a.groups.filter((_, g) => suppressed[g]).map((g) => g.value));
  const refSup = isSup.has(a.reference.value);
  a.groups.forEach((g, i) => {
    if (suppressed[i]) stripGroup(g);
  });
  for (const c of a.comparisons) {
    if (refSup) stripComparison(c, `the reference ${c.reference} is ${text}`, true);
    else if (isSup.has(c.group)) stripComparison(c, `${c.group} is ${text}`, false);
  }
  for (const m of METRICS) {
    const d = a.disparities[m];
    for (const v of Object.keys(d.difference)) {
      if (!refSup && !isSup.has(v)) continue;
      d.difference[v] = null;
      d.ratio[v] = null;
      if (d.ci) {
        d.ci.difference[v] = NO_INTERVAL;
        d.ci.ratio[v] = NO_INTERVAL;
      }
    }
  }
  for (const v of isSup) {
    a.fourFifths.selectionRate[v] = null;
    a.fourFifths.ratio[v] = null;
  }
  a.fourFifths.below = a.fourFifths.below.filter((v) => !isSup.has(v));
  // impact: a suppressed category is shown without a rate and is never the highest (the others' ratios would give its
  // rate)
  const imp = a.impact;
  for (const r of imp.rows) {
    if (!isSup.has(r.category)) continue;
    r.rate = null;
    r.impactRatio = null;
    r.excluded = true;
    r.suppressed = true;
  }
  if (imp.highest !== null && isSup.has(imp.highest)) {
    let best: (typeof imp.rows)[number] | null = null;
    for (const r of imp.rows) if (!r.excluded && r.rate !== null && (best === null || r.rate > best.rate!)) best = r;
    for (const r of imp.rows)
      r.impactRatio = best && best.rate! > 0 && !r.excluded && r.rate !== null ? r.rate / best.rate! : null;
    imp.highest = best?.category ?? null;
  }
  for (const c of a.calibration ?? []) {
    if (!isSup.has(c.group)) continue;
    c.bins = [];
    c.ece = null;
    c.ci = null;
    c.suppressed = true;
  }
  if (a.conditional) {
    for (const r of a.conditional.rows) {
      if (!refSup && !isSup.has(r.group)) continue;
      r.crude = r.conditional = r.explainedShare = null;
      r.ci = null;
    }
  }
}
