// The HTML of the audit report's sections, each a function of the AuditResult (and the style sheet):
// ./sections.ts puts them in order, one row per section, and makes the self-contained document
// (inline CSS and SVG charts, no scripts, no external resources, deterministic for a given
// AuditResult). Core code: no Node imports, no DOM.
import { RELATION_LIMITS } from '../data/relations.js';
import { PRIVACY_RULE, privacyHolds } from '../methods/quality/beyond.js';
import type { FaleFeature } from '../methods/fale/index.js';
import type {
  AuditResult,
  BeyondSide,
  CanonicalComparison,
  Distribution,
  FaleSection,
  IntersectionHeatmap,
  ProtectedAttribute,
} from '../audit/types.js';
import { CHECK_DEFAULTS, STATED_STATUSES, type FeatureFidelity } from '../audit/checks.js';
import { statedFrom, type FeatureFinding, type ValueFinding } from '../audit/findings.js';
import { AUDIT_DEFAULTS } from '../audit/options.js';
import { anchorOf, metricsTable, rateChart, verdictFindings } from './metrics-html.js';
import {
  arrowOf,
  attributeHeadline,
  directionsPhrase,
  fitLine,
  METRIC_DEFS,
  yardstickFailureText,
  type AttributeHeadline,
  type MetricsReport,
} from '../methods/metrics/index.js';
import { plantedOutcomes, ruleVsModel } from '../audit/planted.js';
import { attributionText } from '../audit/attribution.js';
import { describeGanRows, describeGanTraining } from '../audit/schedule.js';
import { distributionChart, faleChart, heatmap, jsRanking, lineChart, svgWidth } from './charts.js';
import { provenanceBlock } from './provenance.js';
import { escapeHtml as esc, finite, fmtInt, fmtJs, fmtNum, fmtPct, fmtPp, fmtRatio } from './format.js';
// three decimals, "n/a" when missing, as the CLI's summary writes them
import { jsText as score3, MISSING } from '../data/text.js';
import { FILE_KINDS, type FileKind } from './files.js';

/** the caveats' topics as the report names them */
const CAVEAT_TOPICS: Record<AuditResult['caveats'][number]['topic'], string> = {
  validity: 'Validity',
  fidelity: 'Fidelity to the data',
  privacy: 'Privacy',
  'rare-intersection': 'Rare intersections',
  power: 'Detection power',
  'small-group': 'Small groups',
  model: 'Model',
  other: 'Other',
};

/** canonical-set charts shown at most before the rest fold into <details>: as many as fit one row */
const EXPANDED = 3;
const LUCID_EXPANDED = 3;

/**
 * The words the canonical sets' renderers use for their two sides: a binary audit's positive and negative decisions
 * (BINARY_WORDS, its report's words), or the two targets of a score, class or value (output-html.ts targetWords).
 */
export interface SideWords {
  /** a side in running text: "positive", "negative"; "top decile of credit_score" */
  pos: string;
  neg: string;
  /** its set: "positive set"; "top decile of credit_score set" */
  posSet: string;
  negSet: string;
  /** a row on its side, after "scores … of the positive set": "as positive"; "in the top decile of credit_score (…)" */
  asPos: string;
  asNeg: string;
  /** the real rows of each side, after "the real rows": "the model scores positive"; "whose output is in the …" */
  realPos: string;
  realNeg: string;
  /** the other side's rows after the first's ("… rows the model scores positive and 450 it scores negative") */
  realNegThen: string;
  /** what the sets contrast: "the decision"; "the two targets" */
  contrast: string;
  /**
   * the favourable side's rows as a subject, as HTML (a binary report's apostrophe stays as it is): "the model's
   * positive decisions"; "outputs in the top decile of …"
   */
  decisionsHtml: string;
  /** both sides' real rows, after "the real rows": "the model scores positive and negative" */
  realBoth: string;
  /**
   * whether the findings state the audit's own verdicts, LUCID, its plant and next steps (a binary audit), or only its
   * sets (a side view: the output's verdicts, LUCID and FALE are the output report's own sections)
   */
  ownVerdicts: boolean;
}

/** A binary audit's words: its report's bytes. */
export const BINARY_WORDS: SideWords = {
  pos: 'positive',
  neg: 'negative',
  posSet: 'positive set',
  negSet: 'negative set',
  asPos: 'as positive',
  asNeg: 'as negative',
  realPos: 'the model scores positive',
  realNeg: 'the model scores negative',
  realNegThen: 'it scores negative',
  contrast: 'the decision',
  decisionsHtml: "the model's positive decisions",
  realBoth: 'the model scores positive and negative',
  ownVerdicts: true,
};

/** the page's layout in px, shared by the style sheet and the charts' row fitting (oneRow) */
const LAYOUT = { mainMaxWidth: 1320, mainPadding: 28, figureGap: 14, figurePadding: 6 } as const;
/** the width of the report's content column (main's max-width less its padding), in px */
const CONTENT_WIDTH = LAYOUT.mainMaxWidth - 2 * LAYOUT.mainPadding;
/** the gap and the figure's own border and padding beside each chart, in px */
const FIGURE_EXTRA = LAYOUT.figureGap + 2 * (LAYOUT.figurePadding + 1);

/**
 * The report's style sheet (the browser page uses it for the sections it shows). Colours: the charts
 * use the Okabe–Ito palette (format.ts OKABE_ITO: --pos #0072B2 blue and --neg #E69F00 orange for the
 * positive and negative sets, #009E73 bluish green), safe for the common colour-vision deficiencies.
 * No state is told by colour alone: every verdict carries a word and a symbol (⚑ flagged, ? inconclusive,
 * ✓ pass, – too little data), the data's agreement a ✓ / ✗ badge, heat-map checks ✓ / ✗ / ~. The
 * "agrees" badge is blue, not green, so that it and the red flag are not a red–green pair.
 */
export const CSS =
  `
:root{--fg:#1d1d1f;--muted:#5b5b60;--line:#d9d9de;--bg-soft:#f6f6f8;--flag:#b3261e;--flag-bg:#fdecea;` +
  `--warn-bg:#fff6e0;--warn:#8a5a00;--pos:#0072B2;--neg:#E69F00}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);margin:0;` +
  `line-height:1.45;font-size:15px;background:#fff}
main{max-width:${LAYOUT.mainMaxWidth}px;margin:0 auto;padding:24px ${LAYOUT.mainPadding}px 60px}
h1{font-size:1.7em;margin:.2em 0 .3em}h2{font-size:1.35em;margin:2em 0 .5em;padding-top:.4em;border-top:2px solid ` +
  `var(--line)}h3{font-size:1.12em;margin:1.5em 0 .4em}h4{font-size:1em;margin:1.2em 0 .3em}
p,li{max-width:80ch}.muted{color:var(--muted)}.small{font-size:.88em}
nav.toc{background:var(--bg-soft);padding:10px 16px;border-radius:6px;margin:14px 0}nav.toc ol{margin:0;` +
  `padding-left:1.3em;columns:4 13em}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:3px 18px;margin:10px 0}dl.meta dt{font-weight:600;` +
  `color:var(--muted)}dl.meta dd{margin:0}
.findings{background:var(--bg-soft);border-left:4px solid var(--pos);padding:8px 18px 10px;margin:16px 0;` +
  `border-radius:0 6px 6px 0}
.callout{background:var(--warn-bg);border-left:4px solid #e0a000;padding:6px 14px;margin:10px 0;border-radius:0 6px ` +
  `6px 0}
.callout.ok{background:#eef7f1;border-left-color:#009E73}
table{border-collapse:collapse;margin:8px 0 14px;font-size:.9em}th,td{border:1px solid var(--line);padding:3px 8px;` +
  `text-align:right;vertical-align:top}
th{background:var(--bg-soft);font-weight:600}td.l,th.l{text-align:left}
td.flag{background:var(--flag-bg);color:var(--flag);font-weight:600}td.flag-soft{background:#f7f3ee}` +
  `.badge.soft{color:#8a6d3b}tr.rare td,tr.smallgroup td{background:#fafafa}
.alert{border:2px solid var(--flag);background:var(--flag-bg);color:var(--flag);padding:.5em .8em;margin:.6em 0;` +
  `font-weight:600}.alert.weak{border-color:var(--warn);color:var(--warn);background:#fdf8ef}
.badge{display:inline-block;font-size:.78em;padding:0 6px;border-radius:9px;margin-left:4px;border:1px solid ` +
  `currentColor;white-space:nowrap}
.badge.priv{color:#0a5f99}.badge.agree{color:#005b96}.badge.small{color:var(--warn)}.badge.flag{color:var(--flag)}` +
  `.badge.rare{color:var(--warn)}
.scroll{overflow-x:auto;max-width:100%}
.verdict-table td:not(.l) .ci{white-space:normal;max-width:11em;margin-left:auto}.verdict-table td ` +
  `a{white-space:nowrap}
.ci{display:block;color:var(--muted);font-size:.82em;white-space:nowrap}
.figs{display:flex;flex-wrap:wrap;gap:${LAYOUT.figureGap}px;align-items:flex-start}
figure{margin:6px 0;border:1px solid var(--line);border-radius:6px;padding:${LAYOUT.figurePadding}px;background:#fff;` +
  `max-width:100%}
figcaption{font-size:.85em;color:var(--muted);max-width:560px;padding:2px 4px;contain:inline-size}
svg.chart{max-width:100%;height:auto;display:block}
details{margin:8px 0}summary{cursor:pointer;font-weight:600;color:#0a5f99}
.caveat{font-size:.9em}.caveat::before{content:"⚠ ";color:var(--warn)}
ul.warnings li{color:var(--warn)}
code{background:var(--bg-soft);padding:0 4px;border-radius:3px;font-size:.92em}
.nw{white-space:nowrap}
@media (max-width:640px){.badge{white-space:normal}}
@media print{details{display:block}nav.toc{display:none}figure{break-inside:avoid}}
`;

function rankByJs(ds: readonly Distribution[]): Distribution[] {
  return ds.slice().sort((x, y) => (finite(y.js) ? y.js : -1) - (finite(x.js) ? x.js : -1));
}

/**
 * The validity of a pair of sets and, when they were drawn by rejection, the acceptance rate (the validity before
 * filtering).
 */
function validityText(c: CanonicalComparison, w: SideWords = BINARY_WORDS): { html: string; ok: boolean } {
  const v = c.validity;
  if (!v)
    return {
      html:
        'Validity could not be checked: nothing can score the generated rows (no callable model and no surrogate), ' +
        `so the sets are not confirmed to be on their side of ${w.contrast}.`,
      ok: false,
    };
  const who =
    c.validityScorer === 'surrogate'
      ? 'the surrogate of the predictions column (not the model itself)'
      : c.validityScorer === 'model'
        ? 'the model'
        : 'the scorer';
  const pr = v.positive.rate;
  const nr = v.negative.rate;
  const ok = finite(pr) && finite(nr) && pr >= 0.99 && nr >= 0.99;
  const acc = acceptance(c);
  const drawn = acc
    ? ` They were drawn by rejection: of the rows the generator produced, ${who} put ${fmtPct(acc.positive)} of ` +
      `those drawn for the ${esc(w.posSet)} and ${fmtPct(acc.negative)} of those for the ${esc(w.negSet)} on their ` +
      `side (the validity before filtering), and only those were kept.`
    : '';
  const d = c.draws ?? [];
  const drawnAll = d.reduce((s, x) => s + x.positive.drawn + x.negative.drawn, 0);
  const clipped = d.reduce((s, x) => s + x.positive.clippedRows + x.negative.clippedRows, 0);
  const contra = d.reduce((s, x) => s + x.positive.contradicting + x.negative.contradicting, 0);
  const outside = d.reduce((s, x) => s + (x.positive.derivedOutOfRange ?? 0) + (x.negative.derivedOutOfRange ?? 0), 0);
  // only the shares that are not 0 (a list of 0.0% figures says nothing and lengthens the first screens)
  const plausParts = [
    clipped > 0
      ? `${fmtPct(clipped / drawnAll)} had a number outside its column's observed range (clipped into it)`
      : '',
    contra > 0
      ? `${fmtPct(contra / drawnAll)} contradicted an exact dependency of the data that was not derived (rejected)`
      : '',
    outside > 0 ? `${fmtPct(outside / drawnAll)} had a derived number outside its column's range (rejected)` : '',
  ].filter((x) => x);
  const plaus =
    drawnAll === 0
      ? ''
      : plausParts.length
        ? ` Of the ${fmtInt(drawnAll)} rows drawn, ${
            plausParts.length > 1
              ? `${plausParts.slice(0, -1).join(', ')} and ${plausParts[plausParts.length - 1]}`
              : plausParts[0]
          }.`
        : ` None of the ${fmtInt(drawnAll)} rows drawn was clipped or rejected for contradicting the data.`;
  const corr = d.filter((x) => x.positive.correction || x.negative.correction);
  const corrText = corr.length ? ` ${correctionText(corr)}` : '';
  const short =
    acc && (acc.kept.positive < acc.wanted.positive || acc.kept.negative < acc.wanted.negative)
      ? ` The draw cap was reached: ${fmtInt(acc.kept.positive)} of ${fmtInt(acc.wanted.positive)} ${esc(w.pos)} and ` +
        `${fmtInt(acc.kept.negative)} of ${fmtInt(acc.wanted.negative)} ${esc(w.neg)} rows.`
      : '';
  return {
    html:
      `Validity: ${who} scores ${fmtPct(pr)} of the ${esc(w.posSet)} (${fmtInt(v.positive.valid)} of ` +
      `${fmtInt(v.positive.rows)}) ${esc(w.asPos)} and ${fmtPct(nr)} of the ${esc(w.negSet)} ` +
      `(${fmtInt(v.negative.valid)} of ${fmtInt(v.negative.rows)}) ` +
      `${esc(w.asNeg)}.${drawn}${corrText}${short}${plaus}` +
      (ok
        ? ''
        : ' Rows on the wrong side mix the two sets: their differences can be too small or, where the generator is ' +
          'wrong, reversed; the checks against the data below say which.'),
    ok,
  };
}

/**
 * How the classifier correction (src/audit/correct.ts) changed the sets: candidates, effective sample share, skipped
 * sides.
 */
function correctionText(d: NonNullable<CanonicalComparison['draws']>): string {
  const st = d.flatMap((x) => [x.positive.correction, x.negative.correction]).filter((c) => c !== undefined);
  const done = st.filter((c) => !c.skipped);
  const skipped = st.filter((c) => c.skipped).map((c) => c.skipped!);
  const cand = done.reduce((s, c) => s + c.candidates, 0);
  const ess = done.length ? Math.min(...done.map((c) => c.ess)) : NaN;
  const head = done.length
    ? `Each set was then corrected: drawn from ${fmtInt(cand)} such candidates with probability ∝ a ` +
      `real-vs-generated classifier's odds (lowest effective sample share ${fmtPct(ess)}); still generated rows.`
    : '';
  return (
    head +
    (skipped.length
      ? ` ${skipped.length} of ${st.length} sets were not corrected (${[...new Set(skipped)].join('; ')}).`
      : '')
  );
}

/** the caveat topics that bear on the canonical sets themselves: one of them withholds the sets' ✓ */
const SETS_TOPICS: readonly AuditResult['caveats'][number]['topic'][] = ['validity', 'fidelity'];

/**
 * The first screen's one statement on the canonical sets, decided here only: ✓ when the scorer
 * accepted at least the validity floor of the rows drawn (or, without rejection, the sets are valid)
 * and no caveat on the sets' validity or fidelity was raised; ⚠ otherwise, with the reasons; ✗ when
 * nothing can score them. So no "✓" sits beside a caveat that says the opposite.
 */
export function setsStanding(
  r: AuditResult,
  w: SideWords = BINARY_WORDS,
): { mark: 'ok' | 'caution' | 'unknown'; html: string } {
  const c = r.canonical;
  const floor = AUDIT_DEFAULTS.validityFloor;
  const counts = SETS_TOPICS.map((t) => [t, r.caveats.filter((x) => x.topic === t).length] as const).filter(
    ([, n]) => n > 0,
  );
  const caveats = counts.map(
    ([t, n]) =>
      `<a href="#caveats">${fmtInt(n)} ${esc(CAVEAT_TOPICS[t].toLowerCase())} caveat${n === 1 ? '' : 's'}</a>`,
  );
  const acc = acceptance(c);
  const v = validityText(c, w);
  const how = '(<a href="#canonical">how the sets were drawn</a>)';
  if (!c.validity)
    return {
      mark: 'unknown',
      html:
        `<span class="badge flag">✗ validity unknown</span> Canonical sets: nothing can score the generated rows, ` +
        `so they are not confirmed to be on their side of ${esc(w.contrast)} ${how}.`,
    };
  const drawn = acc
    ? `the scorer accepted ${fmtPct(acc.positive)} of the rows drawn for the ${esc(w.posSet)} and ` +
      `${fmtPct(acc.negative)} for the ${esc(w.neg)}`
    : `the ${esc(c.validityScorer ?? 'scorer')} puts ${fmtPct(c.validity.positive.rate)} of the ${esc(w.posSet)} ` +
      `and ${fmtPct(c.validity.negative.rate)} of the ${esc(w.neg)} on their side`;
  const low = acc ? Math.min(acc.positive, acc.negative) < floor : !v.ok;
  const reasons = [
    low ? (acc ? `under ${fmtPct(floor, 0)}: weakly conditioned` : 'not every row on its side') : '',
    ...caveats,
  ].filter((x) => x);
  if (!reasons.length)
    return {
      mark: 'ok',
      html:
        `<span class="badge agree">✓ no caveat on the sets</span> Canonical sets: ${drawn} (at least ` +
        `${fmtPct(floor, 0)}) ${how}.`,
    };
  return {
    mark: 'caution',
    html:
      `<span class="badge soft">⚠ read the sets with care</span> Canonical sets: ${drawn} (${reasons.join(', ')}) ` +
      `${how}.`,
  };
}

/** Pooled acceptance of a pair of sets drawn by rejection (null when they were not). */
function acceptance(c: CanonicalComparison): {
  positive: number;
  negative: number;
  kept: { positive: number; negative: number };
  wanted: { positive: number; negative: number };
} | null {
  const d = c.draws;
  if (!d || d.length === 0 || d.some((x) => x.positive.acceptance === null)) return null;
  const rate = (k: 'positive' | 'negative') =>
    d.reduce((s, x) => s + (x[k].acceptance ?? 0) * x[k].drawn, 0) /
    Math.max(
      1,
      d.reduce((s, x) => s + x[k].drawn, 0),
    );
  const sum = (k: 'positive' | 'negative', f: 'kept' | 'wanted') => d.reduce((s, x) => s + x[k][f], 0);
  return {
    positive: rate('positive'),
    negative: rate('negative'),
    kept: { positive: sum('positive', 'kept'), negative: sum('negative', 'kept') },
    wanted: { positive: sum('positive', 'wanted'), negative: sum('negative', 'wanted') },
  };
}

function figure(svg: string, caption?: string): string {
  return `<figure>${svg}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
}

/**
 * A chart's caption: rank, role, kind, JS (with its seed range and the real rows'), and the set's fidelity against the
 * real rows.
 */
function chartCaption(d: Distribution, i: number, fid: FeatureFidelity | undefined, w: SideWords): string {
  const js =
    d.jsSeeds && d.jsSeeds.length > 1
      ? ` (GAN seeds ${fmtJs(Math.min(...d.jsSeeds))}–${fmtJs(Math.max(...d.jsSeeds))})`
      : '';
  const real = finite(d.jsReal) ? ` · real rows ${fmtJs(d.jsReal)}` : '';
  const f = fid
    ? ` · fidelity to the real rows on each side: ${fidelityBrief(fid, w)} ${
        fid.faithful
          ? '<span class="badge agree">✓ faithful</span>'
          : '<span class="badge flag">⚠ misrepresented</span>'
      }`
    : '';
  return `#${i + 1} · ${esc(d.feature)} (${esc(d.role)}, ${esc(d.kind)}) · JS ${fmtJs(d.js)}${js}${real}${f}`;
}

/** How many of these charts, in order, fit one row of the report at full width: at least one, at most `max`. */
function oneRow(svgs: readonly string[], max: number): number {
  let used = 0;
  let k = 0;
  for (const s of svgs.slice(0, max)) {
    used += svgWidth(s) + FIGURE_EXTRA;
    if (k > 0 && used > CONTENT_WIDTH) break;
    k++;
  }
  return Math.max(1, k);
}

/** The top-ranked charts that fill one row of the page (at most `max`); the rest fold into <details>. */
function distributionFigures(
  ds: readonly Distribution[],
  max: number,
  what: string,
  fidelity: readonly FeatureFidelity[] = [],
  w: SideWords = BINARY_WORDS,
): string {
  if (ds.length === 0) return `<p class="muted">No ${esc(what)} to show.</p>`;
  const svgs = ds.map((d) => distributionChart(d));
  const figs = ds.map((d, i) =>
    figure(
      svgs[i],
      chartCaption(
        d,
        i,
        fidelity.find((x) => x.feature === d.feature),
        w,
      ),
    ),
  );
  const expanded = oneRow(svgs, max);
  const head = `<div class="figs">${figs.slice(0, expanded).join('')}</div>`;
  if (figs.length <= expanded) return head;
  return (
    `${head}<details><summary>${figs.length - expanded} more ${esc(what)} (smaller JS distances)</summary><div ` +
    `class="figs">${figs.slice(expanded).join('')}</div></details>`
  );
}

/**
 * The title, one line of what was audited, and the settings and provenance folded beneath a summary
 * that states the hashes, seed and version, so the verdict table stays on the first screen.
 */
export function header(r: AuditResult): string {
  const m = r.meta;
  const model =
    `${esc(m.model.kind)}: ${esc(m.model.source)}${m.model.differentiable ? ' (differentiable)' : ''}` +
    (m.model.features ? ` · reads ${m.model.features.length} features` : '');
  const timings = Object.entries(m.timings ?? {})
    .filter(([, v]) => finite(v))
    .map(([k, v]) => `${esc(k)} ${v >= 1000 ? `${fmtNum(v / 1000, 3)} s` : `${fmtNum(v, 3)} ms`}`)
    .join(' · ');
  const short = (h: string) => `<code>${esc(h.slice(0, 12))}…</code>`;
  const fit = r.metrics.attributes.fit;
  // what every figure below depends on, first: an audit stopped early, a weak or inverted model
  const interrupted = m.interrupted
    ? `<p class="alert" id="interrupted" role="alert">${m.interrupted.signal ? `${esc(m.interrupted.signal)}: ` : ''}` +
      `${esc(m.interrupted.text)}</p>\n`
    : '';
  const weak = fit.weak.length
    ? `<div class="alert weak" id="weak-model"><p>A weak model: ${fit.weak.map(esc).join(' Also: ')}</p></div>\n`
    : '';
  return (
    `<header>
${interrupted}<h1>Fairness audit report</h1>
<p class="muted">${esc(m.data.source)} · ${fmtInt(m.data.rows)} rows · label <code>${esc(m.label)}</code> = <strong>` +
    `${esc(m.positive)}</strong> ` +
    `(${m.favourable === 'positive' ? 'the favourable outcome' : 'the unfavourable outcome'}) · model ` +
    `${esc(m.model.source)} · protected ${r.protected.map((p) => esc(p.column)).join(', ') || 'none'} · created ` +
    `<time class="nw" datetime="${esc(m.created)}">${esc(m.created)}</time></p>
${weak}<p class="small">Model fit: ${esc(fitLine(fit))}.</p>
<details id="settings"><summary>Settings and provenance: ` +
    `${m.data.sha256 ? `data SHA-256 ${short(m.data.sha256)}` : 'no data file hash'}, ` +
    `${m.model.sha256 ? `model SHA-256 ${short(m.model.sha256)}` : 'no model file'}, audit seed ` +
    `${esc(m.seed)}${m.threshold !== 0.5 ? `, threshold ${fmtNum(m.threshold)}` : ''}, ${esc(m.tool)} ` +
    `${esc(m.version)}${
      m.suppressBelow !== null && m.suppressBelow !== undefined
        ? `, groups under ${fmtInt(m.suppressBelow)} people suppressed`
        : ''
    }</summary>
<dl class="meta">
<dt>Data</dt><dd>${esc(m.data.source)} — ${fmtInt(m.data.rows)} rows, ${m.data.columns.length} columns</dd>
<dt>Label</dt><dd><code>${esc(m.label)}</code>, positive = <strong>${esc(m.positive)}</strong></dd>
<dt>Model</dt><dd>${model}</dd>
${
  m.model.kind === 'column' && r.metrics.attributes.predKind !== 'scores'
    ? ''
    : `<dt>Decision</dt><dd>positive when the model's score is above <strong>${fmtNum(m.threshold)}</strong> (<code>` +
      `--threshold</code>)</dd>`
}
<dt>Protected</dt><dd>${
      r.protected
        .map(
          (p) =>
            `${esc(p.column)} (${esc(p.kind)}${
              p.inModel === false
                ? ', not read by the model'
                : p.inModel === null
                  ? ', unknown whether the model reads it'
                  : ''
            })`,
        )
        .join(', ') || 'none'
    }</dd>
<dt>LUCID-GAN</dt><dd>${esc(describeGanTraining(m.gan))}; ${fmtInt(r.canonical.positive.rows)} rows per canonical ` +
    `set</dd>
<dt>Audit seed</dt><dd>${esc(m.seed)}: every seed of the audit is derived from ` +
    `it${m.gan.seeds.length ? ` (the LUCID-GANs train with ${m.gan.seeds.map((x) => esc(x)).join(', ')})` : ''}; ` +
    `all by purpose under Seeds below</dd>
<dt>Tool</dt><dd>${esc(m.tool)} ${esc(m.version)} (${esc(m.variant)})</dd>
${timings ? `<dt>Timings</dt><dd class="small">${timings}</dd>` : ''}
</dl>
${provenanceBlock(r)}
</details>
</header>`
  );
}

/** A shift in percentage points, or a median shift in the feature's units. */
function fmtShift(x: number | null | undefined, kind: ValueFinding['kind']): string {
  if (!finite(x)) return '—';
  return kind === 'median' ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${fmtNum(Math.abs(x), 4)}` : fmtPp(x);
}

/**
 * A stated value's figures, from where statedFrom says: "canonical shift +20.1 pp (GAN seeds +18.0 pp to
 * +22.3 pp); real rows +25.3 pp [+24.0 pp, +26.6 pp]" when the sets are faithful and agree in size, else
 * the real rows first and the sets as context: "real rows +25.5 pp [+22.9 pp, +28.0 pp]; the canonical
 * sets overstate it: +45.9 pp (GAN seeds …)".
 */
function shiftText(v: ValueFinding, faithful = true): string {
  const c = v.canonical;
  const seeds = c.seeds.length > 1 ? ` (GAN seeds ${fmtShift(c.min, v.kind)} to ${fmtShift(c.max, v.kind)})` : '';
  const what = v.kind === 'median' ? 'median shift' : 'shift';
  const real =
    `real rows ${fmtShift(v.real.shift, v.kind)} [${fmtShift(v.real.lo, v.kind)}, ` + `${fmtShift(v.real.hi, v.kind)}]`;
  if (statedFrom(v, faithful) === 'canonical' || !(STATED_STATUSES as readonly string[]).includes(v.status))
    return `canonical ${what} ${fmtShift(c.pooled, v.kind)}${seeds}; ${real}`;
  const ctx =
    v.status === 'overstates'
      ? 'the canonical sets overstate it'
      : v.status === 'understates'
        ? 'the canonical sets understate it'
        : 'the canonical sets, which misrepresent the feature';
  return `${real}; ${ctx}: ${fmtShift(c.pooled, v.kind)}${seeds}`;
}

/**
 * A value's name; in a favour/disfavour list a median shift stands for higher values (a negative one: higher values are
 * disfavoured).
 */
const valueName = (v: ValueFinding, inList: boolean) =>
  v.kind === 'median' ? (inList ? 'higher values' : 'the median') : esc(v.value);

/**
 * Whether every stated value of a feature is given by the canonical sets (faithful, consistent in size) or some by the
 * real rows.
 */
const allCanonical = (f: FeatureFinding) =>
  [...f.favoured, ...f.disfavoured].every((v) => statedFrom(v, f.faithful) === 'canonical');

/**
 * Preferences, disagreements, unsettled and generated-only values of one feature, as sentences: one confidence
 * statement each.
 */
function directionSentences(
  f: FeatureFinding,
  maxEach = 3,
  favourable: 'positive' | 'negative' = 'positive',
  w: SideWords = BINARY_WORDS,
): string[] {
  const out: string[] = [];
  const list = (vs: ValueFinding[], inList = false) =>
    vs
      .slice(0, maxEach)
      .map((v) => `<strong>${valueName(v, inList)}</strong> (${shiftText(v, f.faithful)})`)
      .join('; ') + (vs.length > maxEach ? `; and ${vs.length - maxEach} more` : '');
  const fav = f.favoured;
  const dis = f.disfavoured;
  if (fav.length || dis.length) {
    const parts: string[] = [];
    if (fav.length) parts.push(`favour ${list(fav, true)}`);
    if (dis.length) parts.push(`disfavour ${list(dis, true)}`);
    // the words and the shifts follow the favourable decision: shifts are favourable side − unfavourable side
    const who =
      favourable === 'negative'
        ? "the model's favourable decisions (the negative one here; shifts are the negative side − the positive side)"
        : w.decisionsHtml;
    const badge = allCanonical(f)
      ? '<span class="badge agree">✓ the sets agree with the data</span>'
      : `<span class="badge agree">the real rows</span> ${
          f.faithful
            ? '(where the sets misstate a size, the real figure is given)'
            : '(the sets misrepresent this feature: the real figures are given)'
        }`;
    out.push(`${badge} ${who} ${parts.join(', and ')}.`);
  } else out.push('No direction is confirmed by the data and the sets together.');
  if (f.disagreements.length)
    out.push(
      `<span class="badge flag">✗ the sets shift the other way from the data</span> on ${list(f.disagreements)}: not ` +
        `a finding.`,
    );
  if (f.unsettled.length)
    out.push(
      `<span class="badge soft">the GAN seeds do not share a sign</span> on ${list(f.unsettled)}: not a finding of ` +
        `the sets.`,
    );
  if (f.generatedOnly.length)
    out.push(`<span class="badge soft">generated only, not confirmed by the data</span> ${list(f.generatedOnly)}.`);
  return out;
}

/**
 * The real rows' separation first (the ranking's), then the sets' JS as context, a pooled figure outside its seeds'
 * range explained.
 */
function jsText(f: FeatureFinding): string {
  const sep = f.separation;
  const real = sep
    ? `real rows JS ${fmtJs(sep.js)} [${fmtJs(sep.lo)}, ${fmtJs(sep.hi)}] (chance ${fmtJs(sep.chance)})`
    : finite(f.js.real)
      ? `real rows JS ${fmtJs(f.js.real)}`
      : '';
  const seeds =
    f.js.max > f.js.min
      ? `, GAN seeds ` +
        `${fmtJs(f.js.min)}–${fmtJs(f.js.max)}` +
        `${f.js.outsideSeeds ? ": the pooled sets lie outside it, as the seeds' sets differ" : ''}`
      : '';
  return `${real}${real ? '; ' : ''}the canonical sets' JS ${fmtJs(f.js.pooled)}${seeds}`;
}

function fidelityBrief(fid: FeatureFidelity | null, w: SideWords = BINARY_WORDS): string {
  if (!fid) return 'not measured';
  const side = (x: FeatureFidelity['positive'], name: string) =>
    x ? `${name} ${fid.metric} ${fmtJs(x.distance)} (noise ${fmtJs(x.floor)})` : `${name} —`;
  return `${side(fid.positive, esc(w.pos))}, ${side(fid.negative, esc(w.neg))}`;
}

/** The Findings section (also shown by the browser page). */
export function findings(r: AuditResult, w: SideWords = BINARY_WORDS, title = 'Findings'): string {
  const full = findingsList(r, w);
  const heads = headlines(r, w);
  return (
    `<section class="findings" id="findings"><h2 style="border:0;margin-top:.4em">${esc(title)}</h2><ul ` +
    `class="headlines">${heads.map((h) => `<li>${h}</li>`).join('')}</ul>
${
  w.ownVerdicts
    ? `<p class="small" id="next"><strong>What to look at next:</strong> ${nextSteps(r).join('; ')}.</p>\n`
    : ''
}<details id="findings-full"><summary>Every finding in full, with its figures (${full.length})</summary><ul>` +
    `${full.map((x) => `<li>${x}</li>`).join('')}</ul></details></section>`
  );
}

/** features named per attribute in the "what to look at next" line */
const NEXT_CARRIERS = 2;

/** headline findings at most */
const HEADLINES = 6;

/**
 * The verdicts' headline, from attributeHeadline (one decision for the report, the CLI and the demo):
 * per attribute (or intersection) its most concerning flag from the side of the group it
 * disadvantages ("Female ↓ disadvantaged: selection rate 16.2% vs 33.4% for Male"), whichever group
 * is the reference; an attribute with no flag but a failed legal yardstick says that first, and is
 * never listed under "No flag"; the rest without a flag, each with its inconclusive comparisons
 * counted, or said to have too little data where nothing could be judged. Null when there is no
 * attribute; `flagged` counts the attributes with a flag or a failed yardstick.
 */
function verdictHeadline(reports: readonly (MetricsReport | null)[]): { html: string; flagged: number } | null {
  const flagged: string[] = [];
  const yardstick: string[] = [];
  const clear: string[] = [];
  const untested: string[] = [];
  let inconclusive = 0;
  const incText = (h: AttributeHeadline) =>
    h.inconclusive ? `${fmtInt(h.inconclusive)} comparison${h.inconclusive === 1 ? '' : 's'} inconclusive` : '';
  for (const rep of reports) {
    for (const a of rep?.attributes ?? []) {
      const h = attributeHeadline(a);
      const link = `<a href="#${anchorOf(a.column)}">${esc(a.column)}</a>`;
      const ys = yardstickFailureText(h.yardsticks);
      if (h.status === 'flagged') {
        const d = h.lead!;
        flagged.push(
          `${link}: <strong>${esc(d.group)}</strong> ${arrowOf(d.direction)} ${esc(d.direction)}: ` +
            `${esc(METRIC_DEFS[d.metric].label)} ${fmtPct(d.rate)} vs ${fmtPct(d.againstRate)} for ` +
            `${esc(d.against)} ` +
            `(${fmtRatio(d.ratio)}×)` +
            `${h.more ? `, and ${fmtInt(h.more)} more flag${h.more === 1 ? '' : 's'}` : ''}`,
        );
      } else if (ys) {
        const why =
          h.status === 'untested'
            ? 'too little data for a statistical verdict'
            : `no statistical verdict flags it${h.inconclusive ? `: ${incText(h)}` : ''}`;
        yardstick.push(`${link}: <span class="badge flag">✗ legal yardstick</span> ${esc(ys)} (${why})`);
      } else if (h.status === 'untested') untested.push(link);
      else {
        inconclusive += h.inconclusive;
        clear.push(
          `${link}${
            h.inconclusive ? ` (<span class="badge soft">? ${fmtInt(h.inconclusive)} inconclusive</span>)` : ''
          }`,
        );
      }
    }
  }
  if (!flagged.length && !yardstick.length && !clear.length && !untested.length) return null;
  const parts: string[] = [];
  if (flagged.length) parts.push(`<span class="badge flag">⚑ flagged</span> ${flagged.join('; ')}.`);
  if (yardstick.length) parts.push(`${yardstick.join('; ')}.`);
  // no flag is not "fair": an inconclusive comparison is a disparity too uncertain to call
  if (clear.length)
    parts.push(
      `No flag and no failed yardstick for ${clear.join(', ')}.${
        inconclusive ? ' Inconclusive: outside the band but not significant; the data cannot tell either way.' : ''
      }`,
    );
  if (untested.length)
    parts.push(
      `<span class="badge small">– too little data</span> to compare the groups of ${untested.join(', ')} (small, ` +
        `suppressed or a single group): not tested.`,
    );
  return { html: parts.join(' '), flagged: flagged.length + yardstick.length };
}

/** A protected attribute's headline: the direction the data confirms, or that none is confirmed. */
function protectedHeadline(x: FeatureFinding, favourable: 'positive' | 'negative' | undefined, w: SideWords): string {
  const names = (vs: ValueFinding[]) =>
    vs
      .slice(0, 2)
      .map((v) => `<strong>${valueName(v, true)}</strong>`)
      .join(', ') + (vs.length > 2 ? ` +${vs.length - 2}` : '');
  const link =
    `<a href="#${x.role === 'proxy' ? 'proxy' : 'canonical'}">${esc(x.feature)}</a>` +
    `${x.role === 'proxy' ? ' (not read by the model)' : ''}`;
  const parts: string[] = [];
  if (x.favoured.length) parts.push(`favour ${names(x.favoured)}`);
  if (x.disfavoured.length) parts.push(`disfavour ${names(x.disfavoured)}`);
  const who = favourable === 'negative' ? "the model's favourable (negative) decisions" : w.decisionsHtml;
  // where the figures come from, in words: the first screen's one badge on the sets is setsStanding's
  const from = allCanonical(x)
    ? '(the sets and the real rows agree)'
    : x.faithful
      ? '(from the real rows: the sets misstate the size)'
      : '(from the real rows: the sets misrepresent it)';
  if (parts.length) return `${link}: ${who} ${parts.join(' and ')} ${from}`;
  return `${link}: no direction confirmed by the data and the sets together${
    x.disagreements.length
      ? ` (the sets shift the other way on ${fmtInt(x.disagreements.length)} ` +
        `value${x.disagreements.length === 1 ? '' : 's'})`
      : ''
  }`;
}

/**
 * At most HEADLINES lines, each short and linked to its evidence: verdicts, protected attributes, separating features,
 * validity.
 */
export function headlines(r: AuditResult, w: SideWords = BINARY_WORDS): string[] {
  const f = r.findings;
  const out: string[] = [];
  if (w.ownVerdicts) {
    if (r.planted?.length) out.push(plantedHeadline(r));
    const v = verdictHeadline([r.metrics.attributes]);
    if (v) out.push(v.html);
    const iv = r.metrics.intersection ? verdictHeadline([r.metrics.intersection]) : null;
    if (iv && iv.flagged > 0) out.push(`Intersections: ${iv.html}`);
  }
  if (f.protected.length)
    out.push(
      `Protected attributes on each side of ${esc(w.contrast)}: ` +
        `${f.protected.map((x) => protectedHeadline(x, f.favourable, w)).join('; ')}.`,
    );
  const missed = f.ranking.filter((x) => x.why !== null);
  out.push(
    f.named.length
      ? `Features that separate the two sides most, by the <a href="#canonical">real rows</a> (beyond chance, ` +
          `faithfully generated): ${f.named
            .slice(0, 4)
            .map((x) => `<strong>${esc(x.feature)}</strong> JS ${fmtJs(x.separation?.js ?? x.js.real)}`)
            .join(', ')}${f.named.length > 4 ? ` and ${fmtInt(f.named.length - 4)} more` : ''}${
            missed.length ? `; not named: ${missed.map((x) => `${esc(x.feature)} (${esc(x.why!)})`).join(', ')}` : ''
          }.`
      : `No feature is named as separating the two sides (<a href="#canonical">the real rows' ranking</a>)${
          missed.length
            ? `: ${missed.map((x) => `${esc(x.feature)} (real rank ${fmtInt(x.realRank)}: ${esc(x.why!)})`).join(', ')}`
            : ''
        }.`,
  );
  const others = [...new Set(r.caveats.map((c) => c.topic))].filter((t) => !SETS_TOPICS.includes(t));
  const otherCount = r.caveats.filter((c) => others.includes(c.topic)).length;
  out.push(
    `${setsStanding(r, w).html}${
      otherCount
        ? ` <a href="#caveats">${fmtInt(otherCount)} other caveat${otherCount === 1 ? '' : 's'}</a>: ` +
          `${others.map((t) => esc(CAVEAT_TOPICS[t].toLowerCase())).join(', ')}.`
        : ''
    }`,
  );
  return out.slice(0, HEADLINES);
}

/**
 * The demo's planted headline: the rule, one sentence on the rule against the trained model, and per
 * planted group whether the audit found it (plantedOutcomes: flagged disadvantaged on the selection
 * rate), ✗ where it did not.
 */
function plantedHeadline(r: AuditResult): string {
  const prot = r.protected.map((p) => p.column);
  const outcomes = plantedOutcomes(r);
  return r
    .planted!.map((p, i) => {
      const o = outcomes[i];
      const found = o.groups
        .map((g) =>
          g.found
            ? `<span class="badge agree">✓ found</span> ${esc(g.attribute)} = <strong>${esc(g.group)}</strong> ` +
              `flagged disadvantaged on the selection rate`
            : `<span class="badge flag">✗ missed</span> ${esc(g.attribute)} = <strong>${esc(g.group)}</strong> is ` +
              `not flagged disadvantaged on the selection rate`,
        )
        .join('; ');
      return (
        `<strong>Planted in the simulated data:</strong> ${esc(p.rule)}. ` +
        `${esc(ruleVsModel(p, r.meta.model.features ?? null, prot))} ${found}.`
      );
    })
    .join(' ');
}

/**
 * "What to look at next", from the findings: for the attributes with a flag or a failed yardstick, the
 * features that carry their disparity (the attribution) and, when the audit named no legitimate factor,
 * `--legitimate` with the first of them; the split the legitimate factors gave when it did; a policy
 * for `lucid check` to hold the limits in CI; more rows where comparisons are inconclusive; the proxy
 * view where a flagged attribute is not read by the model. Nothing the findings do not support.
 */
export function nextSteps(r: AuditResult): string[] {
  const out: string[] = [];
  const prot = new Set(r.protected.flatMap((p) => [p.column, p.groupColumn]));
  const heads = r.metrics.attributes.attributes.map(attributeHeadline);
  const concern = heads.filter((h) => h.status === 'flagged' || h.yardsticks.fails);
  // short: the line sits on the first screen (the attribution in full is in the findings)
  const carriersOf = (h: AttributeHeadline) =>
    ((r.attribution ?? []).find((a) => a.groupColumn === h.attribute)?.carriers ?? [])
      .filter((c) => c.carried > 0 && !prot.has(c.feature))
      .slice(0, NEXT_CARRIERS);
  const carried = concern.map((h) => ({ h, cs: carriersOf(h) })).filter((x) => x.cs.length);
  const features = [...new Set(carried.flatMap((x) => x.cs.map((c) => c.feature)))];
  if (carried.length)
    out.push(
      `${features.map((f) => `<strong>${esc(f)}</strong>`).join(', ')}, which carry the disparity of ` +
        `${carried.map((x) => esc(x.h.attribute)).join(', ')} (<a href="#findings-full">why a group is ` +
        `flagged</a>)`,
    );
  const split = r.metrics.attributes.attributes.filter((a) => a.conditional);
  if (split.length)
    out.push(
      `the disparity the legitimate factors (${esc(split[0].conditional!.columns.join(', '))}) explain and the rest ` +
        `(<a href="#metrics-tables">the metrics tables</a>)`,
    );
  else if (carried.length)
    out.push(
      `<code>--legitimate ${esc(features[0])}</code> if it is a legitimate factor (how much of the disparity it ` +
        `explains)`,
    );
  const proxied = concern.filter((h) => r.protected.some((p) => p.groupColumn === h.attribute && p.inModel === false));
  if (proxied.length)
    out.push(
      `the <a href="#proxy">proxy view</a> for ${proxied.map((h) => esc(h.attribute)).join(', ')}, which the model ` +
        `does not read`,
    );
  if (concern.length) {
    // a policy names the protected column (a numeric one's bins are the metrics' group column)
    const failed = concern
      .map((h) => r.protected.find((p) => p.groupColumn === h.attribute && h.yardsticks.fourFifths.below.length))
      .find((p) => p);
    out.push(
      `<code>lucid check --policy</code> to hold a limit in CI` +
        `${failed ? ` (<code>four_fifths</code> fails on ${esc(failed.column)})` : ''}`,
    );
  }
  const inconclusive = heads.filter((h) => h.status === 'clear' && h.inconclusive > 0 && !h.yardsticks.fails);
  if (inconclusive.length)
    out.push(
      `more rows to settle the inconclusive comparisons of ${inconclusive.map((h) => esc(h.attribute)).join(', ')}`,
    );
  if (!out.length)
    out.push(
      heads.length
        ? 'nothing is flagged and no yardstick fails: <code>lucid check --policy</code> in CI keeps it so as the ' +
            'model changes'
        : 'no protected attribute was audited: name one with <code>--protected</code>',
    );
  return out;
}

/** Every finding in full, as list items (the Findings section folds them under the headlines). */
function findingsList(r: AuditResult, w: SideWords): string[] {
  const f = r.findings;
  const seeds = r.checks.seeds.length;
  const out: string[] = [];
  out.push(
    `Canonical sets from ${seeds} LUCID-GAN${seeds === 1 ? '' : 's'} (seeds ` +
      `${r.checks.seeds.map((x) => esc(x)).join(', ')}), pooled; every figure is checked against the real rows ` +
      `${esc(w.realBoth)}. A direction is stated only where the real rows' interval excludes ` +
      `0 and every seed shifts the same way; the size is the sets' only where it is consistent with the real ` +
      `rows' (inside their interval widened by the sets' own noise) and the sets are faithful to the feature, ` +
      `else the real rows' size is stated and the sets' given as context. The intervals are at the corrected ` +
      `level of the report's verdicts (Holm over every checked value, family-wise error ` +
      `${fmtPct(r.metrics.attributes.verdicts.alpha, 0)}).`,
  );
  if (f.named.length) {
    out.push(
      `Features that separate the two sides most, by the real rows (beyond chance; only features the sets generate ` +
        `faithfully are named, see <a href="#canonical">Canonical sets</a>): ` +
        `${f.named.map((x) => `<strong>${esc(x.feature)}</strong> ${jsText(x)}`).join(', ')}.<ul>${f.named
          .map((x) => `<li>${esc(x.feature)}: ${directionSentences(x, 2, f.favourable, w).join(' ')}`)
          .join('')}</ul>`,
    );
  } else
    out.push(
      'No feature is named as separating the two sides: none the real rows rank high is both beyond chance and ' +
        'generated faithfully (see the ranking under Canonical sets).',
    );
  const missed = f.ranking.filter((x) => x.why !== null);
  if (missed.length)
    out.push(
      `<span class="badge soft">not named</span> ranked high by the real rows: ${missed
        .map((x) => {
          const u = f.unfaithful.find((y) => y.feature === x.feature);
          return (
            `${esc(x.feature)} (real rank ${fmtInt(x.realRank)}: ` +
            `${esc(x.why!)}${u ? `; ${jsText(u)}; fidelity ${fidelityBrief(u.fidelity, w)}` : ''})`
          );
        })
        .join('; ')}.`,
    );
  for (const x of f.protected) {
    const proxy = x.role === 'proxy' ? ' (not read by the model: a proxy effect)' : '';
    const faithful = x.faithful
      ? ''
      : ` <span class="badge soft">misrepresented by the sets</span> (${fidelityBrief(x.fidelity, w)}): stated from ` +
        `the real rows`;
    out.push(
      `Protected attribute <strong>${esc(x.feature)}</strong>${proxy}, ${jsText(x)}${faithful}: ` +
        `${directionSentences(x, 3, f.favourable, w).join(' ')}`,
    );
  }
  // a side view's verdicts, LUCID and plant are the output report's (its own sections)
  if (w.ownVerdicts)
    for (const ff of [
      ...verdictFindings(r.metrics.attributes, (a) => esc(attributionText(r.attribution, a))),
      ...verdictFindings(r.metrics.intersection, (a) => esc(attributionText(r.attribution, a))),
    ])
      out.push(`${ff}`);
  out.push(`${validityText(r.canonical, w).html}`);
  if (!w.ownVerdicts) return out;
  if (r.lucid.ran)
    out.push(
      `LUCID ran: ${fmtPct(r.lucid.success)} of its samples reach the preferred ` +
        `class${r.lucid.prefer !== undefined ? ` (${esc(r.lucid.prefer)})` : ''}${
          r.lucid.projected
            ? "; the descent was projected onto the data (numbers inside the audited rows' range, categories one-hot)"
            : ''
        }.`,
    );
  else out.push(`LUCID did not run${r.lucid.reason ? `: ${esc(r.lucid.reason)}` : ''}.`);
  if (r.planted?.length) {
    out.push(
      `<strong>Planted in the simulated data:</strong> ${r.planted
        .map((p) => {
          const dis = p.disadvantaged
            .map((o) =>
              Object.entries(o)
                .map(([k, v]) => `${esc(k)} = ${esc(v)}`)
                .join(' and '),
            )
            .join('; ');
          return (
            `${esc(p.kind)} — ${esc(p.rule)}${dis ? ` (disadvantaged: ${dis})` : ''}` +
            `${p.reads.length ? `; the rule reads ${p.reads.map(esc).join(', ')}` : ''}`
          );
        })
        .join('; ')}.`,
    );
  }
  return out;
}

export function protectedSection(r: Pick<AuditResult, 'protected'>): string {
  const rows = r.protected
    .map(
      (p) =>
        `<tr><td class="l">${esc(p.column)}</td><td class="l">${esc(p.kind)}</td><td class="l">` +
        `${esc(p.groupColumn)}</td><td class="l">` +
        `${p.inModel === true ? 'yes' : p.inModel === false ? 'no (proxy view)' : 'unknown'}</td></tr>`,
    )
    .join('');
  const binned = r.protected.filter(
    (p): p is ProtectedAttribute & { bins: NonNullable<ProtectedAttribute['bins']> } => !!p.bins,
  );
  const bins = binned
    .map((p) => {
      const total = p.bins.counts.reduce((s, x) => s + (finite(x) ? x : 0), 0);
      const trs = p.bins.labels
        .map((l, i) => {
          const n = p.bins.counts[i];
          return (
            `<tr><td class="l">${esc(l)}</td><td>${fmtNum(p.bins.edges[i])}</td><td>` +
            `${fmtNum(p.bins.edges[i + 1])}</td><td>${fmtInt(n)}</td><td>` +
            `${total > 0 && finite(n) ? fmtPct(n / total) : '—'}</td></tr>`
          );
        })
        .join('');
      return (
        `<h4>${esc(p.column)} <span class="muted small">— ${esc(p.bins.method)} bins, grouped as <code>` +
        `${esc(p.groupColumn)}</code></span></h4><div class="scroll"><table class="bins"><thead><tr><th ` +
        `class="l">group (bin)</th><th>from</th><th>to</th><th>rows</th><th>share</th></tr></thead><tbody>` +
        trs +
        '</tbody></table></div>'
      );
    })
    .join('');
  return (
    `<section id="protected"><h2>Protected attributes and their bins</h2>
<div class="scroll"><table><thead><tr><th class="l">column</th><th class="l">kind</th><th class="l">grouped by</th>` +
    `<th class="l">read by the model</th></tr></thead><tbody>` +
    `${rows || '<tr><td class="l" colspan="4">none</td></tr>'}</tbody></table></div>
${
  binned.length
    ? `<details><summary>The bins of ${binned.map((p) => esc(p.column)).join(', ')}</summary><p class="small muted">` +
      `A numeric protected attribute is grouped into bins; bin i holds values in (from, to], the first also includes ` +
      `its lower edge. The bin labels are the group names everywhere else in this report.</p>${bins}</details>`
    : '<p class="muted small">No numeric protected attributes, so no bins.</p>'
}
</section>`
  );
}

export function metricsSection(r: AuditResult): string {
  const warnings = merged([...(r.metrics.attributes?.warnings ?? []), ...(r.metrics.intersection?.warnings ?? [])]);
  const ix = r.metrics.intersection;
  const cells = ix ? ix.attributes.reduce((s, a) => s + a.groups.length, 0) : 0;
  return (
    `<section id="metrics"><h2>Group metrics</h2>
<p>The model's decisions per group in the data, beside the attribute's reference group (★, dashed line). A mark ` +
    `beside a rate is a verdict of its comparison with the reference: <strong>⚑</strong> flagged (the ratio is ` +
    `outside [${fmtRatio(r.metrics.attributes.verdicts.band[0])}, ` +
    `${fmtRatio(r.metrics.attributes.verdicts.band[1])}] and that is significant after the correction for the ` +
    `report's many comparisons), <strong>?</strong> inconclusive (outside, not significant)${
      r.metrics.attributes.favourable === 'negative'
        ? '; here the positive class is the <strong>unfavourable</strong> outcome, so the selection rate is the ' +
          "negative decision's rate"
        : ''
    }. Hatched bars are small groups (under ${fmtInt(r.metrics.attributes.minGroupSize)} rows), which get no ` +
    `verdict${
      r.metrics.attributes.suppressBelow !== null
        ? `; a group of fewer than ${fmtInt(r.metrics.attributes.suppressBelow)} people is suppressed (no figure of ` +
          `it is shown)`
        : ''
    }.</p>
<div class="figs">${r.metrics.attributes.attributes
      .map((a) => `<figure id="${anchorOf(a.column)}">${rateChart(a, r.metrics.attributes.favourable)}</figure>`)
      .join('')}</div>
<details id="metrics-tables"><summary>Every rate and verdict per group, the four-fifths yardstick, impact ratios and ` +
    `calibration (tables)</summary>
<p class="small">Ratios are group / reference; the interval beneath is at the comparison's corrected level. ` +
    `${esc(directionsPhrase())} The four-fifths column is the legal yardstick (selection rate over the most ` +
    `selected group that is not small), not a verdict.</p>
${metricsTable(r.metrics.attributes, '-tables')}</details>
${
  ix
    ? `<details id="${anchorOf(ix.attributes[0]?.column ?? 'intersection')}"><summary>Intersection: ${fmtInt(cells)} ` +
      `combinations of the protected values (chart and tables)</summary><div class="figs">` +
      `${ix.attributes.map((a) => `<figure>${rateChart(a, ix.favourable)}</figure>`).join('')}</div>` +
      `${metricsTable(ix, '-tables')}</details>`
    : ''
}
${
  warnings.length
    ? `<details><summary>${fmtInt(warnings.reduce((s, w) => s + w.count, 0))} metrics ` +
      `warning${warnings.length === 1 && warnings[0].count === 1 ? '' : 's'} (${fmtInt(warnings.length)} ` +
      `distinct)</summary>${warningList(warnings)}</details>`
    : ''
}
</section>`
  );
}

/** Identical messages merged, each with how often it occurred. */
function merged(messages: readonly string[]): { text: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([text, count]) => ({ text, count }));
}

/** Merged messages as a list, each with its count when it occurred more than once. */
function messageList(ms: readonly { text: string; count: number }[], listClass: string, itemClass = ''): string {
  return `<ul${listClass ? ` class="${listClass}"` : ''}>${ms
    .map(
      (m) =>
        `<li${itemClass ? ` class="${itemClass}"` : ''}>${esc(m.text)}` +
        `${m.count > 1 ? ` <span class="muted">(×${fmtInt(m.count)})</span>` : ''}</li>`,
    )
    .join('')}</ul>`;
}

const warningList = (ws: readonly { text: string; count: number }[]) => messageList(ws, 'warnings');

/** With a --gan-rows sample: what the GANs trained on and what the rest of the report uses (empty without one). */
export function sampleNote(r: AuditResult): string {
  const g = r.meta.gan;
  if (!g.sample) return '';
  return (
    ` Each GAN trained on ${esc(describeGanRows(g))}, drawn with its own seed (<code>--gan-rows</code> ` +
    `${fmtInt(g.ganRows)}); the real-row ticks, the checks against the data, the metrics, the intersections and ` +
    `FALE use all ${fmtInt(g.sample.of)} rows.`
  );
}

/**
 * The relations of the data (exact dependencies, arithmetic identities) and how often the real rows
 * and each canonical set break them: derived ones are kept by construction, others by rejection.
 */
function relationsTable(r: AuditResult, w: SideWords): string {
  const rel = r.checks.relations ?? [];
  if (rel.length === 0) return '';
  const share = (x: { rows: number; breaks: number }) =>
    x.rows > 0
      ? `${fmtPct(x.breaks / x.rows)} <span class="small">(${fmtInt(x.breaks)} of ${fmtInt(x.rows)})</span>`
      : '–';
  const rows = rel
    .map(
      (x) =>
        `<tr><td>${esc(x.text)}</td><td>${
          x.kept === 'derived'
            ? `derived: ${esc(x.target)} written from ${x.inputs.map(esc).join(', ')}`
            : 'rows breaking it rejected'
        }</td><td>${share(x.real)}</td><td>${share(x.positive)}</td><td>${share(x.negative)}</td></tr>`,
    )
    .join('');
  return (
    `<details><summary>Relations of the data kept in the sets (${fmtInt(rel.length)})</summary><p class="small">` +
    `Columns the real rows tie to others: an exact dependency (every row with the same value of one column has ` +
    `the same value of the other) or an arithmetic identity holding on at least ` +
    `${fmtPct(RELATION_LIMITS.minShare, 0)} of the rows. The generator learns each column on its own and would ` +
    `break them, so a derived column is written from its inputs in every drawn row. Beside each, the share of ` +
    `rows breaking it.</p>
<div class="scroll"><table><thead><tr><th>relation</th><th>kept by</th><th>real rows breaking it</th><th>` +
    `${esc(w.posSet)}</th><th>${esc(w.negSet)}</th></tr></thead><tbody>${rows}</tbody></table></div></details>`
  );
}

/**
 * The sets' fidelity beyond single columns (checks.beyond): pair trends, detection and privacy per
 * side, each beside its noise floor from real rows alone, with a reading.
 */
function beyondTable(r: AuditResult, w: SideWords): string {
  const b = r.checks.beyond;
  if (!b || (!b.positive && !b.negative)) return '';
  const sides = [b.positive, b.negative];
  const cell = (f: (s: BeyondSide) => string) => sides.map((s) => `<td>${s ? f(s) : '–'}</td>`).join('');
  const within = (ok: boolean) =>
    ok ? '<span class="badge agree">within noise</span>' : '<span class="badge soft">beyond noise</span>';
  const rows = [
    `<tr><td>Pair trends (1 = every pair of columns varies together as in the real rows)</td>${cell(
      (s) =>
        `${score3(s.pairTrends.score)} <span class="small">(noise floor ${score3(s.pairTrends.floor)}; worst ` +
        `${s.pairTrends.worst
          .slice(0, 2)
          .map((w) => `${esc(w.a)} × ${esc(w.b)} ${score3(w.similarity)}`)
          .join(', ')})</span> ${within(s.pairTrends.score >= s.pairTrends.floor)}`,
    )}</tr>`,
    `<tr><td>Detection (1 = a classifier cannot tell the set from the real rows; 1 − (2·AUC − 1), on rows it did not ` +
      `train on)</td>${cell(
        (s) =>
          `${score3(s.detection.score)} <span class="small">(AUC ${score3(s.detection.auc)}; real rows against real ` +
          `rows ≥ ${score3(s.detection.floor)})</span> ${within(s.detection.score >= s.detection.floor)}`,
      )}</tr>`,
    `<tr><td>Privacy: exact copies of a training row, and the 5th percentile of the distance to the closest one, ` +
      `against real rows the GANs did not train on</td>${cell((s) => {
        const p = s.privacy;
        if (!p) return '–';
        const ok = privacyHolds(p);
        return (
          `${fmtPct(p.generated.exactShare)} copies (held-out ${fmtPct(p.heldOut.exactShare)}); distance ` +
          `${score3(p.generated.p5)} (held-out ${score3(p.heldOut.p5)}, ` +
          `${p.ratioP5 === null ? MISSING.text : `${p.ratioP5.toFixed(2)}×`})${
            p.against === 'halves'
              ? ' <span class="small">(every row trained the GANs: one half of the real rows against the other)</span>'
              : ''
          } ${
            ok
              ? '<span class="badge agree">no sign of copying</span>'
              : '<span class="badge flag">closer than held-out rows</span>'
          }`
        );
      })}</tr>`,
  ].join('');
  return (
    `<details><summary>Fidelity beyond single columns: pair trends, detection, privacy</summary><p class="small">The ` +
    `charts compare one column at a time; these compare the rows whole, on each side of the decision, against the ` +
    `real rows ${w.ownVerdicts ? 'the model scores' : 'the output puts'} on that side (every such row, though most ` +
    `trained the GANs). Each figure stands beside its noise floor: the same figure between two samples of the real ` +
    `rows, so "within noise" means no worse than a second real sample would be. A copy or near-copy of a training ` +
    `row is a privacy risk if the sets are published: the check reads "no sign of copying" unless the set has more ` +
    `than ${fmtPct(PRIVACY_RULE.copyMargin, 0)} more exact copies than held-out real rows, beyond the two shares' ` +
    `sampling noise (${PRIVACY_RULE.z} standard errors: on discrete data most fresh rows are copies too), or its ` +
    `5th-percentile distance is under ${PRIVACY_RULE.p5Ratio}× theirs.</p>
<div class="scroll"><table><thead><tr><th>measure</th><th>${esc(w.posSet)} (${fmtInt(sides[0]?.generatedRows ?? 0)} ` +
    `rows; ${fmtInt(sides[0]?.realRows ?? 0)} real)</th><th>${esc(w.negSet)} ` +
    `(${fmtInt(sides[1]?.generatedRows ?? 0)} rows; ${fmtInt(sides[1]?.realRows ?? 0)} real)</th></tr></thead><tbody>` +
    `${rows}</tbody></table></div></details>`
  );
}

/**
 * The canonical-sets section: validity, the JS ranking, every chart with its fidelity (also shown by the browser page).
 */
export function canonicalSection(r: AuditResult, w: SideWords = BINARY_WORDS, intro = ''): string {
  const c = r.canonical;
  const ranked = rankByJs(c.distributions);
  const v = validityText(c, w);
  const seeds = r.checks.seeds.length;
  const tol = r.findings.rankingRule;
  return (
    `<section id="canonical"><h2>Canonical sets, ranked by Jensen–Shannon distance</h2>
${intro}<p>LUCID-GAN (${fmtInt(seeds)} GAN seed${seeds === 1 ? '' : 's'}, pooled) generated ` +
    `${fmtInt(c.positive.rows)} rows ${esc(w.realPos)} and ${fmtInt(c.negative.rows)} ${esc(w.realNegThen)}. The ` +
    `features whose distributions differ most between the two sets are what ${esc(w.contrast)} hinges on; bars are ` +
    `the sets, ticks the real rows on each side.${sampleNote(r)}</p>
<details><summary>How to read these charts and their fidelity</summary><p>LUCID-GAN (${fmtInt(seeds)} GAN ` +
    `seed${seeds === 1 ? '' : 's'}, pooled) generated ${fmtInt(c.positive.rows)} rows ${esc(w.realPos)} and ` +
    `${fmtInt(c.negative.rows)} ${esc(w.realNegThen)}. Each chart shows the ${esc(w.posSet)} (blue bars) and the ` +
    `${esc(w.negSet)} (orange bars); the dark blue and dark orange ticks are the <em>real</em> rows ` +
    `${esc(w.realBoth)}, which the sets estimate. A thin black line on a bar spans its lowest to highest share over ` +
    `the GAN seeds. Features are ranked by the Jensen–Shannon distance between the two sets (0 = identical, 1 = ` +
    `disjoint), given with its range over the GAN seeds and the same distance between the real rows on the two ` +
    `sides.</p>
<p class="small">Fidelity, under each chart: how far each set is from the real rows on its side (KS distance for ` +
    `numbers, total variation for categories: the largest difference in probability the two give any threshold or ` +
    `any set of categories), beside its noise floor (the same distance between two resamples of the real rows, 95th ` +
    `percentile). It is measured against every audited row the model scores on that side, not only the rows the GAN ` +
    `trained on. A feature is faithful when both sides are within max(noise floor, ` +
    `${fmtNum(CHECK_DEFAULTS.fidelityTolerance)}); ${esc(tol)}.</p></details>
<div class="callout${v.ok ? ' ok' : ''}">${v.html}</div>
${relationsTable(r, w)}
${beyondTable(r, w)}
${realRankingTable(r)}
<figure>${jsRanking(ranked, {
      max: 12,
      ...(w.ownVerdicts ? {} : { xLabel: "Jensen–Shannon distance (the two targets' sets)" }),
    })}</figure>
${distributionFigures(ranked, EXPANDED, 'features', r.checks.fidelity, w)}
</section>`
  );
}

/**
 * The real rows' ranking of the features beside the canonical sets': what the findings name, and why a high one is not
 * named.
 */
function realRankingTable(r: AuditResult): string {
  const rows = r.findings.ranking ?? [];
  if (!rows.length) return '';
  const row = (x: (typeof rows)[number]) =>
    `<tr${x.named ? ' class="named"' : ''}><td>${fmtInt(x.realRank)}</td><td class="l">${esc(x.feature)}</td><td>` +
    `${fmtJs(x.real.js)} <span class="ci">[${fmtJs(x.real.lo)}, ${fmtJs(x.real.hi)}]</span></td><td>` +
    `${fmtJs(x.real.chance)}</td><td>${
      x.canonical
        ? `${fmtJs(x.canonical.pooled)} <span class="ci">(${fmtJs(x.canonical.min)}–${fmtJs(x.canonical.max)})</span>`
        : '—'
    }</td><td>${x.canonicalRank === null ? '—' : fmtInt(x.canonicalRank)}</td><td>` +
    `${x.faithful === null ? '—' : x.faithful ? '✓' : '✗'}</td><td class="l">` +
    `${x.named ? '<strong>named</strong>' : x.why ? esc(x.why) : ''}</td></tr>`;
  const head =
    '<thead><tr><th>real rank</th><th class="l">feature</th><th>real rows\' JS [95% interval]</th><th title="the ' +
    "95th percentile of the real rows' JS with the decisions permuted\">chance</th><th>canonical sets' JS " +
    '(GAN seeds)</th><th>canonical rank</th><th title="faithfully generated on both sides">faithful</th><th ' +
    'class="l">in the findings</th></tr></thead>';
  return (
    `<details id="real-ranking"><summary>The features by the real rows' separation, beside the canonical sets' ` +
    `ranking (${fmtInt(rows.length)} features)</summary>
<p class="small">${esc(r.findings.rankingRule)}.</p>
<div class="scroll"><table class="metrics ranking">${head}<tbody>${rows.slice(0, 12).map(row).join('')}${
      rows.length > 12
        ? `</tbody></table></div><details><summary>${fmtInt(rows.length - 12)} more</summary><div class="scroll">` +
          `<table class="metrics ranking">${head}<tbody>${rows.slice(12).map(row).join('')}`
        : ''
    }</tbody></table></div>${rows.length > 12 ? '</details>' : ''}</details>`
  );
}

export function proxySection(r: AuditResult, w: SideWords = BINARY_WORDS): string {
  const p = r.proxy;
  const body = p.columns.length
    ? `<p>The model does not read ${p.columns.map((c) => `<strong>${esc(c)}</strong>`).join(', ')}. Yet the GAN ` +
      `generates this column together with the others, so its distribution in the ${esc(w.pos)} and ` +
      `${esc(w.neg)} canonical sets shows whether the model's ${w.ownVerdicts ? 'decisions' : 'outputs'} follow it ` +
      `<em>through other features</em> (proxies): a large JS distance means the model treats these groups ` +
      `differently without seeing the attribute.</p>
${distributionFigures(rankByJs(p.distributions), EXPANDED, 'proxy attributes', r.checks.fidelity, w)}`
    : '<p class="muted">Every protected attribute is read by the model (or it is unknown which columns the model ' +
      'reads), so there is no separate proxy view; the protected attributes appear among the canonical-set ' +
      'charts above.</p>';
  return `<section id="proxy"><h2>Proxy view</h2>${body}</section>`;
}

function heatmapFigures(h: IntersectionHeatmap): string {
  const figs = [
    figure(
      heatmap(h, { value: 'selection' }),
      h.suppressed?.length ? 'Cells marked "suppressed" have too few people to show their rate.' : undefined,
    ),
  ];
  if (h.canonicalShift) {
    const dis = h.shiftStatus
      ? h.shiftStatus
          .flatMap((row, r) =>
            row.map((st, c) => (st === 'disagrees' ? `${h.rowValues[r]} & ${h.colValues[c]}` : null)),
          )
          .filter((x) => x !== null)
      : [];
    const note = dis.length
      ? `Marked ✗ and outlined (${dis.map((x) => esc(x)).join(', ')}): the data contradicts the shift; not findings.`
      : h.shiftStatus
        ? "No cell's shift is contradicted by the data."
        : '';
    figs.push(figure(heatmap(h, { value: 'shift' }), note || undefined));
  }
  return `<div class="figs">${figs.join('')}</div>`;
}

function fixText(fix: [string, string][]): string {
  return fix.map(([k, v]) => `${esc(k)} = ${esc(v)}`).join(', ') || 'nothing fixed';
}

export function intersectionsSection(r: AuditResult, w: SideWords = BINARY_WORDS): string {
  if (r.intersections.length === 0)
    return (
      '<section id="intersections"><h2>Intersections</h2><p class="muted">Fewer than two protected attributes: no ' +
      'intersections.</p></section>'
    );
  const parts = r.intersections.map(({ pair, heatmap: h, sets }) => {
    const rows = sets
      .map((s) => {
        const top = rankByJs(s.distributions).slice(0, 3);
        const ft = s.fixTraining;
        const v = s.validity;
        const acc = acceptance(s);
        const vtext = acc
          ? `${fmtPct(acc.positive)} / ${fmtPct(acc.negative)}${
              acc.kept.positive < acc.wanted.positive || acc.kept.negative < acc.wanted.negative
                ? ` <span class="badge small" title="the draw cap was reached">${fmtInt(acc.kept.positive)} / ` +
                  `${fmtInt(acc.kept.negative)} rows</span>`
                : ''
            }`
          : v
            ? `${fmtPct(v.positive.rate)} / ${fmtPct(v.negative.rate)}`
            : '—';
        return (
          `<tr${ft?.rare ? ' class="rare"' : ''}><td class="l">` +
          `${fixText(s.fix)}${ft?.rare ? '<span class="badge rare">rare</span>' : ''}</td><td>` +
          `${ft ? `${fmtInt(ft.rows)} <span class="muted small">(${fmtPct(ft.share)})</span>` : '—'}</td><td>` +
          `${fmtPct(s.fixSatisfied)}</td><td>${vtext}</td><td class="l">` +
          `${top.map((d) => `${esc(d.feature)} <span class="muted">${fmtJs(d.js)}</span>`).join(', ') || '—'}` +
          `</td></tr>`
        );
      })
      .join('');
    return `<h3>${esc(pair[0])} × ${esc(pair[1])}</h3>${heatmapFigures(h)}
${
  sets.length
    ? `<details><summary>Canonical sets per combination (${fmtInt(sets.length)})</summary><div class="scroll"><table ` +
      `class="combos"><thead><tr><th class="l">combination</th><th>training rows</th><th title="share of generated ` +
      `rows that hold every fixed value">fix satisfied</th><th title="share of the rows drawn that the model scored ` +
      `on their side (rejection sampling keeps only those); without rejection, the validity">acceptance (pos / ` +
      `neg)</th><th class="l">top features by JS</th></tr></thead><tbody>${rows}</tbody></table></div></details>`
    : '<p class="muted small">No canonical sets were generated per combination.</p>'
}`;
  });
  return (
    `<section id="intersections"><h2>Intersections</h2>
<p>For each pair of protected attributes: the model's selection rate (${
      w.ownVerdicts
        ? 'the share given the favourable decision'
        : `among the rows in either target, the share the output puts in the ${esc(w.pos)}`
    }) per ` +
    `combination of values in the data (n = its rows; hatched: a small group, grey: empty), and its canonical ` +
    `shift, the combination's share of the favourable canonical set minus its share of the unfavourable ` +
    `one${r.meta.favourable === 'negative' ? ' (here the negative set minus the positive set)' : ''}${
      w.ownVerdicts ? '' : ` (the favourable set is the ${esc(w.posSet)}, the unfavourable the ${esc(w.negSet)})`
    } (orange: ` +
    `more among favourable decisions, purple: among unfavourable ones). Beside each n, the shift's check against ` +
    `the real rows: ✓ agrees, ✗ disagrees, ~ within noise. A shift marked ✗ and outlined with a dashed line is ` +
    `contradicted by the real rows: their interval at the corrected level excludes 0 and at least one GAN seed's ` +
    `shift has the other sign. Folded beneath: canonical sets with the combination fixed, their training rows (a ` +
    `rare combination gives the GAN little to learn from) and the features that separate them.</p>
${parts.join('\n')}
${conditionalTable(r, w)}
</section>`
  );
}

/**
 * The paper's intersectional protocol: one protected category fixed, the other protected attributes' shares in the
 * positive and negative set.
 */
function conditionalTable(r: AuditResult, w: SideWords): string {
  const cs = r.conditional ?? [];
  if (cs.length === 0) return '';
  const rows: string[] = [];
  for (const c of cs) {
    const [a, av] = c.fixed;
    const ft = c.fixTraining;
    for (const d of c.distributions) {
      const [pos, neg] = d.series;
      const cats = d.categories ?? [];
      cats.forEach((v, k) => {
        const p = pos?.share[k];
        const q = neg?.share[k];
        // favourable set − unfavourable set, as every shift of the report (one coding convention)
        const diff = finite(p) && finite(q) ? (r.meta.favourable === 'negative' ? q - p : p - q) : null;
        rows.push(
          `<tr${ft?.rare ? ' class="rare"' : ''}><td class="l">${esc(a)} = ` +
            `${esc(av)}${ft?.rare ? '<span class="badge rare">rare</span>' : ''}</td><td class="l">` +
            `${esc(d.feature)} = ${esc(v)}</td><td>${fmtPct(p)}</td><td>${fmtPct(q)}</td><td>${fmtPp(diff)}</td>` +
            (k === 0
              ? `<td rowspan="${cats.length}">${fmtJs(d.js)}</td><td rowspan="${cats.length}">` +
                `${fmtPct(c.fixSatisfied)}</td>`
              : '') +
            '</tr>',
        );
      });
    }
  }
  if (rows.length === 0) return '';
  const n = cs[0].rows;
  return (
    `<details><summary>One attribute fixed (the LUCID-GAN paper's protocol): ${fmtInt(cs.length)} sets</summary>
<p class="small">For each protected value a: a ${esc(w.pos)} and a ${esc(w.neg)} canonical set (${fmtInt(n)} rows ` +
    `each) sampled with A = a fixed; then the share of each value of another protected attribute B in the two sets. ` +
    `The difference is the favourable set's share − the unfavourable ` +
    `set's${r.meta.favourable === 'negative' ? ' (the negative set − the positive set here)' : ''}: a negative ` +
    `difference means that, with A = a fixed, the model's favourable decisions come with fewer B = v than its ` +
    `unfavourable ones.</p>
<div class="scroll"><table class="conditional"><thead><tr><th class="l">with A = a fixed</th><th class="l">B = v</th>` +
    `<th>share in ${esc(w.posSet)}</th><th>share in ${esc(w.negSet)}</th><th>difference (favourable − ` +
    `unfavourable)</th><th>JS (B)</th><th title="share of generated rows that hold A = a">fix satisfied</th></tr>` +
    `</thead><tbody>${rows.join('')}</tbody></table></div></details>`
  );
}

export function lucidSection(r: Pick<AuditResult, 'lucid'>, w: SideWords = BINARY_WORDS): string {
  const l = r.lucid;
  if (!l.ran)
    return (
      `<section id="lucid"><h2>LUCID</h2><p>LUCID did not run${l.reason ? `: ${esc(l.reason)}` : '.'}</p>` +
      `</section>`
    );
  const dists = rankByJs(l.distributions ?? []);
  const loss = l.loss?.length
    ? figure(
        lineChart([{ name: 'mean loss', values: l.loss }], {
          title: 'LUCID loss',
          xLabel: 'epoch',
          yLabel: 'mean loss',
        }),
        'Mean loss per epoch of the gradient ascent towards the preferred class.',
      )
    : '';
  return (
    `<section id="lucid"><h2>LUCID</h2>
<p>LUCID starts from ${l.n !== undefined ? fmtInt(l.n) : 'a set of'} uniformly random points and moves them by ` +
    `gradient ascent on the model's input until the model prefers ${
      l.prefer !== undefined
        ? `<strong>${esc(l.prefer)}</strong>, the ${w.ownVerdicts ? 'favourable decision' : 'favoured target'}`
        : w.ownVerdicts
          ? 'the favourable decision'
          : `the favoured target (${esc(w.pos)})`
    }${l.epochs !== undefined ? ` (${fmtInt(l.epochs)} epochs)` : ''}. Its canonical set shows what the model ` +
    `looks for, free of the data's distribution; each chart compares it with the uniform start (the first series ` +
    `is the canonical set, the second the start).</p>
<p>Success: <strong>${fmtPct(l.success)}</strong> of the samples ${
      w.ownVerdicts ? 'are scored ≥ 0.5 for the preferred class' : `reach the ${esc(w.pos)}`
    } after one-hot snapping.</p>
${distributionFigures(dists, LUCID_EXPANDED, 'LUCID features')}
${loss ? `<details><summary>LUCID's loss per epoch</summary><div class="figs">${loss}</div></details>` : ''}
</section>`
  );
}

/**
 * How much the FALE curve moves where the rows are: the row-weighted standard deviation of its values
 * (a point weighs the rows of its category, or of the bins beside an edge), so that a wild curve over
 * near-empty categories does not outrank a steady one over most of the data.
 */
export function faleSpread(f: FaleFeature): number {
  const n = f.counts.n;
  const w = f.values.map((_, k) => (f.kind === 'categorical' ? (n[k] ?? 0) : ((n[k - 1] ?? 0) + (n[k] ?? 0)) / 2));
  let sw = 0;
  let m = 0;
  f.values.forEach((v, k) => {
    if (finite(v)) {
      sw += w[k];
      m += w[k] * v;
    }
  });
  if (!(sw > 0)) return -1;
  m /= sw;
  let ss = 0;
  f.values.forEach((v, k) => {
    if (finite(v)) ss += w[k] * (v - m) ** 2;
  });
  return Math.sqrt(ss / sw);
}

/**
 * One protected attribute's FALE charts, the one whose curve moves most where the rows are first (curves of three
 * points or more before shorter ones).
 */
function faleFigures(s: FaleSection): { lead: string | null; rest: string[]; caption: string } {
  const res = s.result;
  const u = s.unprivileged.map((c) => `${c.column} = ${c.value}`).join(' and ');
  const metric = res.metric;
  // a curve over a single bin (two edges, or one category) says nothing about where along the feature: last
  const shape = (f: FaleFeature) => (f.values.filter(finite).length >= (f.kind === 'continuous' ? 3 : 2) ? 1 : 0);
  const ranked = res.features.slice().sort((a, b) => shape(b) - shape(a) || faleSpread(b) - faleSpread(a));
  const caption =
    `<strong>${esc(u)}</strong> vs everyone else · ${esc(metric.toUpperCase())} on all rows <strong>` +
    `${fmtNum(res.overall)}</strong> · ${fmtInt(res.counts.unprivileged)} and ${fmtInt(res.counts.privileged)} ` +
    `rows`;
  const figs = ranked.map((f) =>
    figure(
      faleChart(f, {
        metric,
        unprivileged: `unprivileged (${u})`,
        privileged: 'privileged (everyone else)',
        subtitle: `${metric.toUpperCase()} (unprivileged − privileged) as ${f.feature} changes`,
      }),
      `${caption} · ${esc(f.feature)}: ${
        f.undefined.length
          ? `${f.undefined.length} undefined bin${f.undefined.length === 1 ? '' : 's'} (marked ×, hatched)`
          : 'every bin defined'
      }${
        f.ci
          ? ` · ${Math.round(f.ci.level * 100)}% band from ${fmtInt(f.ci.replicates)} bootstrap replicates (gaps ` +
            `where undefined)`
          : ''
      }${finite(f.excluded) && f.excluded > 0 ? ` · ${fmtInt(f.excluded)} rows outside the edges left out` : ''}`,
    ),
  );
  return { lead: figs[0] ?? null, rest: figs.slice(1), caption };
}

export function faleSection(r: Pick<AuditResult, 'fale' | 'faleSkipped'>): string {
  if (!r.fale.length)
    return (
      `<section id="fale"><h2>FALE</h2><p>FALE was not run${r.faleSkipped ? `: ${esc(r.faleSkipped)}` : '.'}</p>` +
      `</section>`
    );
  const parts = r.fale.map((s) => ({ s, ...faleFigures(s) }));
  const folded = parts
    .map(({ s, rest }) => {
      const w = s.result.warnings;
      const more = rest.length
        ? `<details><summary>${fmtInt(rest.length)} more FALE chart${rest.length === 1 ? '' : 's'} for ` +
          `${esc(s.attribute)} (smaller changes of the metric where the rows are)</summary><div class="figs">` +
          `${rest.join('')}</div></details>`
        : '';
      const warns = w.length
        ? `<details><summary>${fmtInt(w.length)} FALE warning${w.length === 1 ? '' : 's'} for ` +
          `${esc(s.attribute)}</summary>${warningList(merged(w))}</details>`
        : '';
      return more + warns;
    })
    .join('');
  return (
    `<section id="fale"><h2>FALE</h2>
<p>FALE (fairness-aware accumulated local effects) shows how the fairness metric between the unprivileged group and ` +
    `everyone else changes as one feature moves, other features held as they are: a rising line means larger ` +
    `values of the feature push the metric up. Bars beneath show how many rows of each group fall in each bin; ` +
    `bins with too few rows are undefined. Per protected attribute, the feature along which the metric moves ` +
    `most (row-weighted) is shown; the others fold beneath.</p>
<div class="figs">` +
    `${parts.map((p) => p.lead ?? `<p class="muted">${esc(p.s.attribute)}: no features explained.</p>`).join('')}` +
    `</div>
<p class="small muted">Unprivileged groups: ${parts
      .map(
        ({ s }) =>
          `${esc(s.attribute)}: ${esc(s.unprivileged.map((c) => `${c.column} = ${c.value}`).join(' and '))}, chosen ` +
          `by ${esc(s.chosen)}`,
      )
      .join('; ')}.</p>
${folded}</section>`
  );
}

/**
 * The folder's files grouped by kind, in its order (the names the file plan gives: the same list the CLI writes and the
 * page offers).
 */
function filesList(files: readonly { name: string; kind: FileKind }[]): string {
  const byKind = new Map<FileKind, string[]>();
  for (const f of files) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f.name]);
  const names = (ns: string[]) =>
    ns.length > 4 ? `${ns.slice(0, 2).join(', ')}, … (${fmtInt(ns.length)} files)` : ns.join(', ');
  return (
    `<ul class="small">` +
    `${[...byKind].map(([k, ns]) => `<li><code>${esc(names(ns))}</code> — ` + `${esc(FILE_KINDS[k])}</li>`).join('')}` +
    `</ul>`
  );
}

export function caveatsSection(r: Pick<AuditResult, 'caveats' | 'warnings'>): string {
  const topics = CAVEAT_TOPICS;
  // one folded list per topic, identical caveats merged with their count
  const byTopic = new Map<string, string[]>();
  for (const c of r.caveats) byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), c.text]);
  const caveats = byTopic.size
    ? `<p>${fmtInt(r.caveats.length)} caveat${r.caveats.length === 1 ? '' : 's'}: ${[...byTopic]
        .map(([t, cs]) => `${esc(topics[t as keyof typeof topics] ?? t)} ${fmtInt(cs.length)}`)
        .join(' · ')}.</p>` +
      [...byTopic]
        .map(
          ([t, cs]) =>
            `<details><summary>${esc(topics[t as keyof typeof topics] ?? t)} (${fmtInt(cs.length)})</summary>` +
            `${messageList(merged(cs), '', 'caveat')}</details>`,
        )
        .join('')
    : '<p class="muted">No caveats were raised.</p>';
  const ws = merged(r.warnings);
  const warnings = ws.length
    ? `<details><summary>${fmtInt(r.warnings.length)} warning${r.warnings.length === 1 ? '' : 's'} ` +
      `(${fmtInt(ws.length)} distinct)</summary>${warningList(ws)}</details>`
    : '';
  return `<section id="caveats"><h2>Caveats and warnings</h2>${caveats}${warnings}</section>`;
}

export function howToReadSection(): string {
  return (
    `<section id="how-to-read"><h2>How to read this report</h2>
<details><summary>What each part of the report shows, and what it does not</summary>
<ul>
<li><strong>Group metrics</strong> describe the model's decisions on the data as it is. A ratio below 0.8 ` +
    `(four-fifths) is a common screening flag, not a verdict; small groups give unstable rates, and bootstrap ` +
    `intervals (when shown) give their uncertainty.</li>
<li><strong>Canonical sets</strong> are rows a generative model (LUCID-GAN) produces for which the model predicts ` +
    `positive or negative. Features whose distributions differ most between the two sets (large Jensen–Shannon ` +
    `distance) are what the model's decision hinges on. A protected attribute that differs strongly is a sign of ` +
    `disparate treatment; if the model does not read it, the difference comes through proxies.</li>
<li><strong>Validity</strong> tells how many generated rows the model really scores on their side. The sets are ` +
    `drawn by rejection, so it is 100% when the model can be called; the acceptance rate says how often the ` +
    `generator got the side right before filtering.</li>
<li><strong>Fidelity and direction checks</strong> compare every canonical figure with the real rows the model ` +
    `scores on each side. A preference is stated only where the real rows confirm its direction and every GAN ` +
    `seed agrees; where they contradict it, the report says so; where they cannot tell, the GAN's estimate is ` +
    `marked "generated only".</li>
<li><strong>Heat maps</strong> show intersections: a cell can be disadvantaged even when each attribute alone looks ` +
    `fair. Hatched cells are small.</li>
<li><strong>LUCID</strong> shows the model's preferences starting from uniform noise, independent of the data's ` +
    `distribution.</li>
<li><strong>FALE</strong> shows where along a feature the fairness metric changes; look at the bars beneath before ` +
    `trusting a bin.</li>
<li>This report is generated: it shows associations in the model's behaviour, not their causes or whether they are ` +
    `justified.</li>
</ul></details></section>`
  );
}

/** The Files section: `files`, the folder's names and kinds in its order (sections.ts auditFileNames). */
export function filesSection(files: readonly { name: string; kind: FileKind }[]): string {
  return (
    `<section id="files"><h2>Files</h2><details><summary>Written beside this report</summary>` +
    `${filesList(files)}</details></section>`
  );
}
