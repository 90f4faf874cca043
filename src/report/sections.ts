// The audit report's sections, one table: each row's anchor, its title in the table of contents, its
// HTML, the files it writes beside the report and a stage's state in brief. The report's body and
// contents, the audit folder's files (in FILE_KINDS' order), audit.json's table references and its
// list of files, the report's Files section, and the stages' line of the text summary and their keys
// in --format json (./summary.ts) all derive from it; showing a new stage is a row here
// (docs/report.md "Showing a new audit stage"). Core code: no Node imports, no DOM.
import { isOutputAudit, type AnyAuditResult, type AuditResult, type OutputAuditResult } from '../audit/types.js';
import type { OutputKind } from '../methods/metrics/outputs.js';
import { outputHeader, outputMetricsFiles, outputMetricsSection, outputVerdictSection } from './output-html.js';
import { verdictTableHtml } from './metrics-html.js';
import {
  outputFale,
  outputFaleBrief,
  outputLucid,
  outputLucidBrief,
  outputSetFiles,
  sidesCanonical,
  sidesFindings,
  sidesHead,
  sidesIntersections,
  outputCaveats,
  sidesProxy,
} from './sides-html.js';
import {
  canonicalSection,
  caveatsSection,
  CSS,
  faleSection,
  filesSection,
  findings,
  header,
  howToReadSection,
  intersectionsSection,
  lucidSection,
  metricsSection,
  protectedSection,
  proxySection,
} from './render.js';
import {
  binsFiles,
  canonicalFiles,
  faleFiles,
  FILE_KINDS,
  intersectionFiles,
  lucidFiles,
  metricsFiles,
  REPORT_FILE,
  RESULT_FILE,
  type FileKind,
  type PlannedFile,
  type SectionFiles,
} from './files.js';
import { escapeHtml as esc } from './format.js';
import { pctText } from '../data/text.js';

/** One file of the folder by name and kind, as the Files section lists it. */
export interface FileEntry {
  name: string;
  kind: FileKind;
}

export interface ReportSection {
  /** the section's anchor in the report */
  id: string;
  /** its entry in the table of contents */
  title: string;
  /** the output kinds whose report has it (default: binary only; the other kinds' audits are their group metrics) */
  kinds?: readonly OutputKind[];
  /** on the first screen, above the table of contents (the verdict table) */
  aboveContents?: true;
  /** its HTML; `files` is the folder's every file (the Files section lists them) */
  html: (r: AnyAuditResult, files: readonly FileEntry[]) => string;
  /** the files it writes beside the report, each of a kind in FILE_KINDS, and their references in audit.json */
  files?: (r: AnyAuditResult) => SectionFiles;
  /**
   * a stage's state in brief: `text` joins the text summary's line of stages ("LUCID: ran (…); FALE:
   * sex, race"), `json` is its value under the row's id in `lucid audit --format json`
   */
  brief?: { text: (r: AnyAuditResult) => string; json: (r: AnyAuditResult) => unknown };
}

/** A binary section's function on any result: the rows' kinds keep it to binary audits (sectionsOf). */
const binary =
  <A extends unknown[], T>(f: (r: AuditResult, ...a: A) => T) =>
  (r: AnyAuditResult, ...a: A): T =>
    f(r as AuditResult, ...a);
/** … and a section of the other kinds' audits */
const other =
  <A extends unknown[], T>(f: (r: OutputAuditResult, ...a: A) => T) =>
  (r: AnyAuditResult, ...a: A): T =>
    f(r as OutputAuditResult, ...a);
const METRICS_ONLY: readonly OutputKind[] = ['score', 'multiclass', 'regression'];
const EVERY_KIND: readonly OutputKind[] = ['binary', ...METRICS_ONLY];

/** The report's sections in reading order. */
export const SECTIONS: readonly ReportSection[] = [
  {
    id: 'verdict',
    title: 'Verdict',
    aboveContents: true,
    html: binary((r) => verdictTableHtml([r.metrics.attributes, r.metrics.intersection])),
  },
  { id: 'verdict', title: 'Verdict', kinds: METRICS_ONLY, aboveContents: true, html: other(outputVerdictSection) },
  // the two targets the canonical sets contrast, on the first screen with the sets' one badge
  { id: 'sides', title: 'Targets contrasted', kinds: METRICS_ONLY, aboveContents: true, html: other(sidesHead) },
  { id: 'findings', title: 'Findings', html: binary((r) => findings(r)) },
  { id: 'findings', title: 'Findings of the canonical sets', kinds: METRICS_ONLY, html: other(sidesFindings) },
  { id: 'metrics', title: 'Group metrics', html: binary(metricsSection), files: binary(metricsFiles) },
  {
    id: 'metrics',
    title: 'Group metrics',
    kinds: METRICS_ONLY,
    html: other(outputMetricsSection),
    files: other(outputMetricsFiles),
  },
  { id: 'canonical', title: 'Canonical sets', html: binary((r) => canonicalSection(r)), files: binary(canonicalFiles) },
  {
    id: 'canonical',
    title: 'Canonical sets',
    kinds: METRICS_ONLY,
    html: other(sidesCanonical),
    // every table of the sets, LUCID and FALE: audit.json's `sides`, `lucid` and `fale` are one section's references
    files: other(outputSetFiles),
  },
  { id: 'proxy', title: 'Proxy view', html: binary((r) => proxySection(r)) },
  { id: 'proxy', title: 'Proxy view', kinds: METRICS_ONLY, html: other(sidesProxy) },
  {
    id: 'protected',
    title: 'Protected attributes and bins',
    kinds: EVERY_KIND,
    html: protectedSection,
    files: binsFiles,
  },
  {
    id: 'intersections',
    title: 'Intersections',
    html: binary((r) => intersectionsSection(r)),
    files: binary(intersectionFiles),
  },
  { id: 'intersections', title: 'Intersections', kinds: METRICS_ONLY, html: other(sidesIntersections) },
  {
    id: 'lucid',
    title: 'LUCID',
    html: binary((r) => lucidSection(r)),
    files: binary(lucidFiles),
    brief: {
      text: binary(
        (r) =>
          `LUCID: ${
            r.lucid.ran
              ? `ran (${pctText(r.lucid.success)} of ${r.lucid.n} samples reach the preferred ` +
                `class${r.lucid.projected ? '; projected onto the data' : ''})`
              : `not run (${r.lucid.reason})`
          }`,
      ),
      json: binary((r) => r.lucid.ran),
    },
  },
  // towards the favoured target; its tables are written by the canonical row's files (outputSetFiles)
  {
    id: 'lucid',
    title: 'LUCID',
    kinds: METRICS_ONLY,
    html: other(outputLucid),
    brief: { text: other(outputLucidBrief), json: other((r) => r.lucid?.ran ?? false) },
  },
  {
    id: 'fale',
    title: 'FALE',
    html: binary(faleSection),
    files: binary(faleFiles),
    brief: {
      text: binary(
        (r) =>
          `FALE: ${
            r.fale.length ? r.fale.map((x) => x.attribute).join(', ') : `not run (${r.faleSkipped ?? 'no attribute'})`
          }`,
      ),
      json: binary((r) => r.fale.map((f) => f.attribute)),
    },
  },
  {
    id: 'fale',
    title: 'FALE',
    kinds: METRICS_ONLY,
    html: other(outputFale),
    brief: { text: other(outputFaleBrief), json: other((r) => (r.fale ?? []).map((f) => f.attribute)) },
  },
  { id: 'caveats', title: 'Caveats and warnings', html: binary(caveatsSection) },
  { id: 'caveats', title: 'Caveats and warnings', kinds: METRICS_ONLY, html: other(outputCaveats) },
  { id: 'how-to-read', title: 'How to read this report', html: howToReadSection },
  { id: 'files', title: 'Files', kinds: EVERY_KIND, html: (_r, files) => filesSection(files) },
];

/** The output kind of an audit's result. */
export const kindOf = (r: AnyAuditResult): OutputKind => (isOutputAudit(r) ? r.kind : 'binary');

/** The sections of `r`'s report: the rows whose kinds hold its output's kind, in reading order. */
export function sectionsOf(r: AnyAuditResult): ReportSection[] {
  const kind = kindOf(r);
  return SECTIONS.filter((s) => (s.kinds ?? ['binary']).includes(kind));
}

const KIND_ORDER = Object.keys(FILE_KINDS) as FileKind[];

/**
 * The audit folder's files before report.html and audit.json, every section's in FILE_KINDS' order
 * (within a kind, in the sections' order), and `summary(names)`, what audit.json holds: the result
 * with each section's table references in place of its rows, and the folder's names.
 */
export function auditFolder(result: AnyAuditResult): { files: PlannedFile[]; summary: (names: string[]) => unknown } {
  const files: PlannedFile[] = [];
  // the result's keys keep their places in audit.json; only their values become references
  const refs: Record<string, unknown> = {};
  for (const s of sectionsOf(result)) {
    const made = s.files?.(result);
    if (!made) continue;
    files.push(...made.files);
    Object.assign(refs, made.result);
  }
  files.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return { files, summary: (names) => ({ ...result, ...refs, files: names }) };
}

/** Every file's name and kind, in the folder's order, report.html and audit.json last. */
export function auditFileNames(result: AnyAuditResult): FileEntry[] {
  return [
    ...auditFolder(result).files.map(({ name, kind }) => ({ name, kind })),
    { name: REPORT_FILE, kind: 'report' },
    { name: RESULT_FILE, kind: 'result' },
  ];
}

/** The whole audit as one self-contained HTML document (inline CSS and SVG; no scripts, no network). */
export function renderReport(result: AnyAuditResult): string {
  const r = result;
  const files = auditFileNames(r);
  const sections = sectionsOf(r);
  const part = (s: ReportSection) => s.html(r, files);
  const title = `${r.meta.interrupted ? 'INTERRUPTED — ' : ''}Fairness audit — ${r.meta.data.source}`;
  return (
    `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(r.meta.tool)} ${esc(r.meta.version)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${isOutputAudit(r) ? outputHeader(r) : header(r)}
${sections
  .filter((s) => s.aboveContents)
  .map(part)
  .join('\n')}
<nav class="toc"><ol>${sections.map((s) => `<li><a href="#${s.id}">${esc(s.title)}</a></li>`).join('')}</ol></nav>
${sections
  .filter((s) => !s.aboveContents)
  .map(part)
  .join('\n')}
<footer class="muted small"><p>Generated by ${esc(r.meta.tool)} ${esc(r.meta.version)} on <time class="nw" ` +
    `datetime="${esc(r.meta.created)}">${esc(r.meta.created)}</time> (audit seed ${esc(r.meta.seed)}).</p>` +
    `</footer>
</main>
</body>
</html>
`
  );
}
