// What `lucid audit` prints: the short text summary, the JSON projection of --format json and the
// policy's line, made from the AuditResult and the folder written (its names), as the report and
// audit.json are. The stages' brief states come from the report's sections (./sections.ts). The CLI
// only prints them. Core code: no Node imports.
import { isOutputAudit, type AnyAuditResult, type AuditResult, type OutputAuditResult } from '../audit/types.js';
import { outputAuditHeadline, verdictCountsText } from './output-html.js';
import type { CheckResult } from '../audit/policy.js';
import type { ValueFinding } from '../audit/findings.js';
import { statedFrom, statedPreferences } from '../audit/findings.js';
import { describeGanTraining } from '../audit/schedule.js';
import { attributionText } from '../audit/attribution.js';
import {
  attributeHeadline,
  attributeHeadlineText,
  familyCounts,
  fitLine,
  formatVerdictTable,
  fourFifthsText,
  impactText,
} from '../methods/metrics/index.js';
import { fmtPpSigned, jsText, MISSING, pctText as pct } from '../data/text.js';
import { TEXT_WIDTH, wrapText } from './format.js';
import { sectionsOf, type ReportSection } from './sections.js';
import { BINARY_WORDS, type SideWords } from './render.js';
import { allCaveats, sidesBrief, sidesOf, targetWords } from './sides-html.js';

/** Where the audit folder was written: the folder, its report and every file's name (the folder's order). */
export interface WrittenAudit {
  dir: string;
  report: string;
  files: string[];
}

/** The sections of `r`'s report that state a stage in brief, in the report's order (the LUCID and FALE stages). */
const briefed = (r: AnyAuditResult) =>
  sectionsOf(r).filter((s): s is ReportSection & Required<Pick<ReportSection, 'brief'>> => s.brief !== undefined);

/**
 * One value's direction as text, its figure from where statedFrom says: the canonical sets when they
 * are faithful and agree with the data in size ("Male +20.1 pp (real +25.3 pp [+24.0, +26.6], seeds
 * +18.0…+22.3)"), else the real rows, the sets as context ("Male +25.5 pp [+22.9, +28.0] (the real
 * rows; the canonical sets overstate it: +45.9 pp, seeds …)").
 */
function valueLine(v: ValueFinding, faithful: boolean, inList = true): string {
  const f = (x: number | null) =>
    v.kind === 'median'
      ? x === null
        ? MISSING.text
        : `${x > 0 ? '+' : ''}${Number(x.toPrecision(4))}`
      : fmtPpSigned(x);
  const seeds = v.canonical.seeds.length > 1 ? `, seeds ${f(v.canonical.min)}…${f(v.canonical.max)}` : '';
  // in a favour/disfavour list a median shift stands for higher values (as the report words it)
  const name = v.kind === 'median' ? (inList ? 'higher values: median shift' : 'the median shift') : v.value;
  const real = `${f(v.real.shift)} [${f(v.real.lo)}, ${f(v.real.hi)}]`;
  if (statedFrom(v, faithful) === 'canonical') return `${name} ${f(v.canonical.pooled)} (real ${real}${seeds})`;
  const ctx =
    v.status === 'overstates'
      ? 'the canonical sets overstate it'
      : v.status === 'understates'
        ? 'the canonical sets understate it'
        : v.status === 'agrees'
          ? 'the canonical sets, which misrepresent the feature'
          : `the canonical sets (${v.status})`;
  return `${name} ${real} (the real rows; ${ctx}: ${f(v.canonical.pooled)}${seeds})`;
}

/**
 * The short text summary: where the report is, the named features, each protected attribute's checked directions,
 * validity, caveats.
 */
export function auditSummary(r: AnyAuditResult, w: WrittenAudit, top = 5): string {
  if (isOutputAudit(r)) return outputSummary(r, w, top);
  const lines: string[] = [];
  const fit = r.metrics.attributes.fit;
  // first what every figure below depends on: an audit stopped early, a weak or inverted model
  const stop = r.meta.interrupted;
  if (stop) lines.push(`lucid: ${stop.signal ? `${stop.signal}: ` : ''}${stop.text}`);
  for (const x of fit.weak) lines.push(`lucid: WEAK MODEL: ${x}`);
  lines.push(
    `lucid: wrote ${w.report} (and ${w.files.length - 1} CSV/JSON files in ` +
      `${w.dir})${stop ? ', marked interrupted' : ''}`,
  );
  lines.push(
    `  data: ${r.meta.data.rows} rows; model: ${r.meta.model.source}; ${describeGanTraining(r.meta.gan)}; ` +
      `${(r.meta.timings.total / 1000).toFixed(1)} s`,
  );
  lines.push(`  model fit: ${fitLine(fit)}`);
  lines.push(...setsLines(r, top, BINARY_WORDS));
  const mv = r.metrics.attributes.verdicts;
  const mc = familyCounts([r.metrics.attributes, r.metrics.intersection]);
  lines.push(
    `  group metrics: ${mc.flagged} flagged, ${mc.inconclusive} inconclusive, ${mc.pass} pass, ` +
      `${mc['too little data']} with too little data (band [${mv.band[0].toFixed(2)}, ${mv.band[1].toFixed(2)}]; ` +
      `${mv.correction.split(' (')[0]}, family-wise error ${Math.round(100 * mv.alpha)}%)`,
  );
  lines.push(formatVerdictTable([r.metrics.attributes, r.metrics.intersection], '    ', TEXT_WIDTH).replace(/\n$/, ''));
  if (r.meta.suppressBelow !== null) {
    const sup = [r.metrics.attributes, r.metrics.intersection].flatMap((rep) =>
      (rep?.attributes ?? []).flatMap((a) =>
        a.groups.filter((g) => g.suppressed).map((g) => `${a.column} = ${g.value}`),
      ),
    );
    lines.push(
      `  suppressed (fewer than ${r.meta.suppressBelow} people; no figure shown): ` +
        `${sup.length ? sup.join('; ') : 'none'}`,
    );
  }
  for (const rep of [r.metrics.attributes, r.metrics.intersection]) {
    for (const a of rep?.attributes ?? []) {
      const fl = a.comparisons.filter((c) => c.verdict === 'flagged');
      // the report's headline: the disadvantaged group first whichever group is the reference, and a
      // failed yardstick never under "no flag"
      const h = attributeHeadline(a);
      // a flag names the group it is against; otherwise the reference the verdicts were judged against
      lines.push(`  ${attributeHeadlineText(h)}${h.status === 'flagged' ? '' : ` (reference ${a.reference.value})`}`);
      // the legal yardsticks beneath, whatever the verdicts are
      lines.push(`    ${fourFifthsText(a, 4)}`);
      lines.push(`    ${impactText(a, 4)}`);
      const why = fl.length ? attributionText(r.attribution, a.column) : '';
      if (why) lines.push(`    ${why}`);
    }
  }
  lines.push(
    `  ${briefed(r)
      .map((s) => s.brief.text(r))
      .join('; ')}`,
  );
  if (r.caveats.length) {
    lines.push(`  caveats (${r.caveats.length}):`);
    for (const c of r.caveats.slice(0, 5)) lines.push(`    - ${c.text}`);
    if (r.caveats.length > 5) lines.push(`    … ${r.caveats.length - 5} more in the report`);
  }
  return wrapText(lines.join('\n') + '\n');
}

/**
 * The canonical sets' lines of the summary: the features that separate the two sides most, each protected attribute's
 * checked directions, and how the sets were drawn, in `w`'s words (a binary audit's sides, or two targets').
 */
function setsLines(r: AuditResult, top: number, w: SideWords): string[] {
  const lines: string[] = [];
  const f = r.findings;
  lines.push(
    `  features that separate the two sides of ${w.contrast} most, by the real rows (Jensen–Shannon distance ` +
      "[interval], chance level; the canonical sets' JS, seeds), named when beyond chance and faithfully " +
      'generated:',
  );
  for (const x of f.named.slice(0, top)) {
    const sep = x.separation;
    lines.push(
      `    ${x.feature.padEnd(24)} real ${jsText(sep ? sep.js : x.js.real)}` +
        `${sep ? ` [${jsText(sep.lo)}, ${jsText(sep.hi)}], chance ${jsText(sep.chance)}` : ''}; sets ` +
        `${jsText(x.js.pooled)} (${jsText(x.js.min)}–${jsText(x.js.max)}` +
        `${x.js.outsideSeeds ? "; pooled outside the seeds' range: their sets differ" : ''})`,
    );
  }
  if (f.named.length === 0)
    lines.push(
      '    none: no feature the real rows rank high is both beyond chance and generated faithfully (see the report)',
    );
  const notNamed = f.ranking.filter((x) => x.why !== null);
  if (notNamed.length)
    lines.push(`  not named: ${notNamed.map((x) => `${x.feature} (real rank ${x.realRank}: ${x.why})`).join(', ')}`);
  if (f.favourable === 'negative')
    lines.push(
      '  (the favourable decision is the negative one: "favours" means more often among the negative decisions; ' +
        'shifts are negative side − positive side, the favourable side first)',
    );
  for (const x of f.protected) {
    const parts = (
      [
        ['favours', x.favoured],
        ['disfavours', x.disfavoured],
      ] as const
    )
      .filter(([, values]) => values.length)
      .map(
        ([verb, values]) =>
          `${verb} ${values
            .slice(0, 3)
            .map((v) => valueLine(v, x.faithful))
            .join('; ')}`,
      );
    const head = x.faithful
      ? 'the sets and the data agree in direction'
      : 'the real rows (the sets misrepresent this attribute)';
    lines.push(
      `  ${x.feature}${x.role === 'proxy' ? ' (proxy)' : ''}: ${
        parts.length ? `${head}: ${parts.join('; ')}` : 'no direction confirmed by the data and the sets together'
      }`,
    );
    if (x.disagreements.length)
      lines.push(
        `    the sets shift the other way from the data (not findings): ${x.disagreements
          .slice(0, 4)
          .map((v) => valueLine(v, false, false))
          .join('; ')}`,
      );
    if (x.unsettled.length)
      lines.push(
        `    the GAN seeds do not share a sign (not findings of the sets): ${x.unsettled
          .slice(0, 4)
          .map((v) => valueLine(v, false, false))
          .join('; ')}`,
      );
  }
  const v = r.canonical.validity;
  const d = r.canonical.draws;
  const acc = d?.every((x) => x.positive.acceptance !== null)
    ? (k: 'positive' | 'negative') =>
        d.reduce((s, x) => s + (x[k].acceptance ?? 0) * x[k].drawn, 0) /
        Math.max(
          1,
          d.reduce((s, x) => s + x[k].drawn, 0),
        )
    : null;
  // drawn by rejection, the kept rows are valid by construction: the acceptance is the informative figure
  lines.push(
    v
      ? acc
        ? `  drawn by rejection: the ${r.canonical.validityScorer} accepted ${pct(acc('positive'))} of the rows ` +
          `drawn for the ${w.posSet} and ${pct(acc('negative'))} for the ${w.neg} (the kept rows are on their ` +
          `side by construction)`
        : `  validity (${r.canonical.validityScorer}, every generated row kept): ${w.posSet} ` +
          `${pct(v.positive.rate)}, ${w.negSet} ${pct(v.negative.rate)}`
      : '  validity: unknown (nothing can score the generated rows)',
  );
  return lines;
}

/**
 * The summary of a score, multiclass or regression audit: its output's kind and why first, what is not run, the
 * headline, the verdict counts, where the report is, the caveats.
 */
function outputSummary(r: OutputAuditResult, w: WrittenAudit, top: number): string {
  const lines: string[] = [];
  const stop = r.meta.interrupted;
  if (stop) lines.push(`lucid: ${stop.signal ? `${stop.signal}: ` : ''}${stop.text}`);
  lines.push(`lucid: output: ${r.meta.output.reason}`);
  if (r.notRun) lines.push(`lucid: ${r.notRun}`);
  lines.push(
    `lucid: ${outputAuditHeadline(r)}`,
    `  verdicts (${r.metrics.report.verdicts.correction}): ${verdictCountsText(r)}`,
    `lucid: ${sidesBrief(r)}`,
  );
  // the sets' findings as a binary audit states them, in the targets' words
  const s = sidesOf(r);
  if (s) lines.push(...setsLines(s.audit, top, targetWords(s)));
  lines.push(
    `  ${briefed(r)
      .map((x) => x.brief.text(r))
      .join('; ')}`,
  );
  lines.push(`lucid: wrote ${w.report} (and ${w.files.length - 1} CSV/JSON files in ${w.dir})`);
  const { caveats } = allCaveats(r);
  if (caveats.length) {
    lines.push(`  caveats (${caveats.length}):`);
    for (const c of caveats.slice(0, 5)) lines.push(`    - ${c.text}`);
    if (caveats.length > 5) lines.push(`    … ${caveats.length - 5} more in the report`);
  }
  return wrapText(lines.join('\n') + '\n');
}

/** The canonical sets of an output audit in brief: the targets, their rows, what the findings name and state. */
function outputSetsJson(r: OutputAuditResult): unknown {
  const s = sidesOf(r);
  if (!s) return { skipped: r.sides && 'skipped' in r.sides ? r.sides.skipped : null };
  const a = s.audit;
  return {
    pair: s.pair,
    rows: s.rows,
    named: a.findings.named.map((x) => x.feature),
    unfaithful: a.findings.unfaithful.map((x) => x.feature),
    preferences: statedPreferences(a.findings),
    validity: a.canonical.validity
      ? {
          scorer: a.canonical.validityScorer,
          favoured: a.canonical.validity.positive.rate,
          other: a.canonical.validity.negative.rate,
        }
      : null,
    proxy: a.proxy.columns,
  };
}

/** `--format json`: the audit's outcome in brief, the written folder, and the policy's result when one was checked. */
export function auditJson(r: AnyAuditResult, written: WrittenAudit, check: CheckResult | null): string {
  if (isOutputAudit(r))
    return (
      JSON.stringify(
        {
          output: r.meta.output,
          notRun: r.notRun,
          headline: outputAuditHeadline(r),
          report: written.report,
          files: written.files,
          metrics: { output: r.metrics.output, ...r.metrics.report },
          sets: outputSetsJson(r),
          ...Object.fromEntries(briefed(r).map((s) => [s.id, s.brief.json(r)])),
          caveats: allCaveats(r).caveats,
          timings: r.meta.timings,
          ...(check ? { policy: check } : {}),
        },
        null,
        2,
      ) + '\n'
    );
  return (
    JSON.stringify(
      {
        interrupted: r.meta.interrupted,
        fit: r.metrics.attributes.fit,
        report: written.report,
        files: written.files,
        top: r.canonical.distributions.slice(0, 5).map((d) => ({
          feature: d.feature,
          role: d.role,
          js: d.js,
          jsSeeds: d.jsSeeds ?? [d.js],
          jsReal: d.jsReal ?? null,
        })),
        named: r.findings.named.map((x) => x.feature),
        unfaithful: r.findings.unfaithful.map((x) => x.feature),
        preferences: statedPreferences(r.findings),
        disagreements: r.checks.shifts
          .filter((c) => c.status === 'disagrees')
          .map((c) => ({ feature: c.feature, value: c.value })),
        validity: r.canonical.validity
          ? {
              scorer: r.canonical.validityScorer,
              positive: r.canonical.validity.positive.rate,
              negative: r.canonical.validity.negative.rate,
            }
          : null,
        draws: r.canonical.draws ?? null,
        proxy: r.proxy.columns,
        verdicts: {
          counts: familyCounts([r.metrics.attributes, r.metrics.intersection]),
          comparisons: r.metrics.attributes.verdicts.comparisons,
          correction: r.metrics.attributes.verdicts.correction,
        },
        flagged: [r.metrics.attributes, r.metrics.intersection].flatMap((rep) =>
          (rep?.attributes ?? []).flatMap((a) =>
            a.comparisons
              .filter((c) => c.verdict === 'flagged')
              .map((c) => ({
                attribute: a.column,
                reference: c.reference,
                group: c.group,
                metric: c.metric,
                ratio: c.ratio,
                interval: c.interval,
                level: c.level,
                direction: c.direction,
                fourFifths: c.fourFifths ?? null,
              })),
          ),
        ),
        attribution: r.attribution.map((a) => ({
          attribute: a.attribute,
          path: a.path,
          readByModel: a.readByModel,
          flipShare: a.flipShare,
          carriers: a.carriers.map((c) => c.feature),
        })),
        ...Object.fromEntries(briefed(r).map((s) => [s.id, s.brief.json(r)])),
        caveats: r.caveats,
        timings: r.meta.timings,
        ...(check ? { policy: check } : {}),
      },
      null,
      2,
    ) + '\n'
  );
}

/** The policy's line under the text summary (`markdown`: where its Markdown summary was written, if anywhere). */
export function policyLine(check: CheckResult, markdown?: string): string {
  return wrapText(
    `  policy ${check.policy.file}: ${check.passed ? 'passed' : 'FAILED'}: ${check.counts.pass} pass, ` +
      `${check.counts.fail} fail, ${check.counts.insufficient} with insufficient ` +
      `data${check.baseline ? `, ${check.counts.regressed} regressed` : ''} of ${check.counts.checks} ` +
      `checks${markdown ? ` (summary: ${markdown})` : ''}\n`,
  );
}
