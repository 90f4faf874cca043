// The canonical sets, LUCID and FALE in the report of a score, a class among k or a real value (issue #40). The sets
// are a binary audit of "side 1 (the favoured target) vs side 0 (the other)" (OutputAuditResult.sides.audit), so
// the binary report's renderers draw them (render.ts), given the targets' words in place of "positive" and
// "negative" (targetWords); the first screen says which two targets are contrasted, why, and how many rows each
// holds. The files of the sets are the binary audit's, named for the targets. Core code: no Node imports, no DOM.
import type { AuditResult, Distribution, OutputAuditResult, SidesSection } from '../audit/types.js';
import type { OutputTarget } from '../methods/metrics/targets.js';
import { pctText } from '../data/text.js';
import {
  canonicalSection,
  caveatsSection,
  faleSection,
  findings,
  intersectionsSection,
  lucidSection,
  proxySection,
  type SideWords,
} from './render.js';
import { canonicalFiles, faleFiles, intersectionFiles, lucidFiles, type SectionFiles, type SideTags } from './files.js';
import { escapeHtml as esc, fmtInt } from './format.js';

/** A target's name without its range in units: "top decile of credit_score", "class approve". */
export function shortLabel(t: OutputTarget): string {
  return t.label.replace(/ \([^()]*\)$/, '');
}

/** The words the binary renderers use for the two targets of `s` (side 1 the favoured, side 0 the other). */
export function targetWords(s: Pick<SidesSection, 'pair'>): SideWords {
  const fav = s.pair.favoured;
  const oth = s.pair.other;
  return {
    pos: shortLabel(fav),
    neg: shortLabel(oth),
    posSet: `${shortLabel(fav)} set`,
    negSet: `${shortLabel(oth)} set`,
    asPos: `in the ${fav.label}`,
    asNeg: `in the ${oth.label}`,
    realPos: `whose output is in the ${shortLabel(fav)}`,
    realNeg: `whose output is in the ${shortLabel(oth)}`,
    realNegThen: `in the ${shortLabel(oth)}`,
    realBoth: `whose output is in the ${shortLabel(fav)} and in the ${shortLabel(oth)}`,
    contrast: "the targets' contrast",
    decisionsHtml: esc(`outputs in the ${shortLabel(fav)}`),
    ownVerdicts: false,
  };
}

/**
 * The file tags of the two targets' sets: "canonical-top_decile_of_credit_score.csv", "canonical-class_approve.csv".
 */
export function targetTags(s: Pick<SidesSection, 'pair'>): SideTags {
  return { positive: shortLabel(s.pair.favoured), negative: shortLabel(s.pair.other) };
}

/** The sets' binary audit, or null when they were not drawn (`sides` absent or skipped). */
export function sidesOf(r: OutputAuditResult): SidesSection | null {
  return r.sides && !('skipped' in r.sides) ? r.sides : null;
}

/** Why there are no canonical sets: the stage's reason, or that this audit did not draw them. */
function noSets(r: OutputAuditResult): string {
  return r.sides && 'skipped' in r.sides ? r.sides.skipped : 'this audit did not draw them';
}

/**
 * The side view with its charts' series named for the targets: "positive canonical" → "top decile of credit_score
 * (canonical)", "real rows predicted positive" → "real rows in the top decile of credit_score".
 */
function relabelled(s: SidesSection): AuditResult {
  const w = targetWords(s);
  const names: Record<string, string> = {
    'positive canonical': `${w.pos} (canonical)`,
    'negative canonical': `${w.neg} (canonical)`,
    'real rows predicted positive': `real rows in the ${w.pos}`,
    'real rows predicted negative': `real rows in the ${w.neg}`,
  };
  const rename = (ds: readonly Distribution[]): Distribution[] =>
    ds.map((d) => ({ ...d, series: d.series.map((x) => ({ ...x, name: names[x.name] ?? x.name })) }));
  const a = s.audit;
  return {
    ...a,
    canonical: { ...a.canonical, distributions: rename(a.canonical.distributions) },
    proxy: { ...a.proxy, distributions: rename(a.proxy.distributions) },
  };
}

/** "top decile of credit_score (730 ≤ credit_score ≤ 850): 200 rows" */
const held = (t: OutputTarget, n: number) => `<strong>${esc(t.label)}</strong> (${fmtInt(n)} rows)`;

/**
 * The first screen's statement on the sets: which two targets are contrasted, why, and how many audited rows each
 * holds (the sets' one confidence badge is the findings' headline, as in a binary report); or why there are none.
 */
export function sidesHead(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s)
    return (
      `<section id="sides"><p class="small"><strong>Canonical sets:</strong> not drawn: ${esc(noSets(r))}.</p>` +
      `</section>`
    );
  return (
    `<section id="sides"><p><strong>Canonical sets</strong> contrast ${held(s.pair.favoured, s.rows.favoured)} ` +
    `against ${held(s.pair.other, s.rows.other)}; ${fmtInt(s.rows.neither)} audited rows are in neither. ` +
    `<span class="small">${esc(s.pair.why)}.</span></p></section>`
  );
}

/** The sets' findings: the binary findings of the side view in the targets' words (its verdicts are the output's). */
export function sidesFindings(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s)
    return (
      `<section class="findings" id="findings"><h2 style="border:0;margin-top:.4em">Findings of the canonical ` +
      `sets</h2><p>No canonical sets: ${esc(noSets(r))}.</p></section>`
    );
  return findings(relabelled(s), targetWords(s), 'Findings of the canonical sets');
}

/** The canonical-sets section of the two targets, with what side 1 and side 0 are. */
export function sidesCanonical(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s) return `<section id="canonical"><h2>Canonical sets</h2><p>Not drawn: ${esc(noSets(r))}.</p></section>`;
  const intro =
    `<p>The two sets are drawn for the ${esc(s.pair.favoured.label)} (side 1, blue) and the ` +
    `${esc(s.pair.other.label)} (side 0, orange): the GAN learns the ${fmtInt(s.rows.favoured + s.rows.other)} ` +
    `audited rows in either target, conditioned on their side, and a drawn row is kept when the model's own ` +
    `output puts it in its target. The caveats of the sets (under Caveats) say "positive" for side 1 and ` +
    `"negative" for side 0.</p>\n`;
  return canonicalSection(relabelled(s), targetWords(s), intro);
}

export function sidesProxy(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s) return `<section id="proxy"><h2>Proxy view</h2><p class="muted">No canonical sets.</p></section>`;
  return proxySection(relabelled(s), targetWords(s));
}

export function sidesIntersections(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s) return `<section id="intersections"><h2>Intersections</h2><p class="muted">No canonical sets.</p></section>`;
  return intersectionsSection(s.audit, targetWords(s));
}

/** LUCID towards the favoured target, or why it did not run. */
export function outputLucid(r: OutputAuditResult): string {
  const s = sidesOf(r);
  return lucidSection({ lucid: r.lucid ?? NOT_RUN }, s ? targetWords(s) : NO_TARGET_WORDS);
}

/** An audit result from before LUCID ran on outputs: nothing to show but that. */
const NOT_RUN = { ran: false, reason: 'this audit did not run it' } as const;

/** Words for LUCID when no pair of targets was chosen (the favoured target is then unnamed). */
const NO_TARGET_WORDS: SideWords = {
  pos: 'favoured target',
  neg: 'other target',
  posSet: 'favoured set',
  negSet: 'other set',
  asPos: 'in the favoured target',
  asNeg: 'in the other target',
  realPos: 'whose output is in the favoured target',
  realNeg: 'whose output is in the other target',
  realNegThen: 'in the other target',
  realBoth: 'whose output is in either target',
  contrast: "the targets' contrast",
  decisionsHtml: 'outputs in the favoured target',
  ownVerdicts: false,
};

/** FALE on the output's measure per protected attribute, or why it did not run. */
export function outputFale(r: OutputAuditResult): string {
  return faleSection({
    fale: r.fale ?? [],
    faleSkipped: r.faleSkipped ?? (r.fale ? undefined : 'this audit did not run it'),
  });
}

/**
 * The sets' files named for the targets (canonical-<target>.csv, intersection-…-<target>.csv, distributions.*),
 * LUCID's and FALE's, and what audit.json holds in place of their rows.
 */
export function outputSetFiles(r: OutputAuditResult): SectionFiles {
  const s = sidesOf(r);
  const files: SectionFiles['files'] = [];
  const result: NonNullable<SectionFiles['result']> = {};
  if (s) {
    const tags = targetTags(s);
    const c = canonicalFiles(s.audit, tags);
    const i = intersectionFiles(s.audit, tags);
    // the side view's LUCID and FALE sections say they run on the output itself: no tables of their own
    files.push(...c.files, ...i.files);
    result.sides = { ...s, audit: { ...s.audit, ...c.result, ...i.result } };
  }
  if (r.lucid) {
    const l = lucidFiles({ lucid: r.lucid });
    files.push(...l.files);
    result.lucid = l.result!.lucid;
  }
  if (r.fale) {
    const f = faleFiles({ fale: r.fale });
    files.push(...f.files);
    result.fale = f.result!.fale;
  }
  return { files, result };
}

/** FALE's state in brief: the attributes explained, or why none. */
export function outputFaleBrief(r: OutputAuditResult): string {
  const f = r.fale ?? [];
  return `FALE: ${f.length ? f.map((x) => x.attribute).join(', ') : `not run (${r.faleSkipped ?? NOT_RUN.reason})`}`;
}

/**
 * The output audit's caveats and warnings with its sets' (the side view's, each marked "canonical sets:"; their words
 * are the binary audit's: "positive" is side 1, the favoured target).
 */
export function allCaveats(r: OutputAuditResult): Pick<OutputAuditResult, 'caveats' | 'warnings'> {
  const s = sidesOf(r);
  if (!s) return r;
  const mark = (t: string) => `canonical sets: ${t}`;
  return {
    caveats: [...r.caveats, ...s.audit.caveats.map((c) => ({ topic: c.topic, text: mark(c.text) }))],
    warnings: [...r.warnings, ...s.audit.warnings.map(mark)],
  };
}

export function outputCaveats(r: OutputAuditResult): string {
  return caveatsSection(allCaveats(r));
}

/** The sets' state in brief for the CLI summary and --format json. */
export function sidesBrief(r: OutputAuditResult): string {
  const s = sidesOf(r);
  if (!s) return `canonical sets: not drawn (${noSets(r)})`;
  return (
    `canonical sets: ${s.pair.favoured.label} (${s.rows.favoured} rows) against ${s.pair.other.label} ` +
    `(${s.rows.other} rows; ${s.rows.neither} in neither): ${s.pair.why}`
  );
}

/** "LUCID: ran (…)" for an output audit, in the binary brief's words. */
export function outputLucidBrief(r: OutputAuditResult): string {
  const l = r.lucid ?? NOT_RUN;
  return l.ran
    ? `LUCID: ran (${pctText(l.success)} of ${l.n} samples reach the favoured target${
        l.projected ? '; projected onto the data' : ''
      })`
    : `LUCID: not run (${l.reason})`;
}
