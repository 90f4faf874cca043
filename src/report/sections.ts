// The audit report's sections, one table: each row's anchor, its title in the table of contents, its
// HTML, the files it writes beside the report and a stage's state in brief. The report's body and
// contents, the audit folder's files (in FILE_KINDS' order), audit.json's table references and its
// list of files, the report's Files section, and the stages' line of the text summary and their keys
// in --format json (./summary.ts) all derive from it; showing a new stage is a row here
// (docs/report.md "Showing a new audit stage"). Core code: no Node imports, no DOM.
import type { AuditResult } from '../audit/types.js';
import { verdictTableHtml } from './metrics-html.js';
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
  /** on the first screen, above the table of contents (the verdict table) */
  aboveContents?: true;
  /** its HTML; `files` is the folder's every file (the Files section lists them) */
  html: (r: AuditResult, files: readonly FileEntry[]) => string;
  /** the files it writes beside the report, each of a kind in FILE_KINDS, and their references in audit.json */
  files?: (r: AuditResult) => SectionFiles;
  /**
   * a stage's state in brief: `text` joins the text summary's line of stages ("LUCID: ran (…); FALE:
   * sex, race"), `json` is its value under the row's id in `lucid audit --format json`
   */
  brief?: { text: (r: AuditResult) => string; json: (r: AuditResult) => unknown };
}

/** The report's sections in reading order. */
export const SECTIONS: readonly ReportSection[] = [
  {
    id: 'verdict',
    title: 'Verdict',
    aboveContents: true,
    html: (r) => verdictTableHtml([r.metrics.attributes, r.metrics.intersection]),
  },
  { id: 'findings', title: 'Findings', html: findings },
  { id: 'metrics', title: 'Group metrics', html: metricsSection, files: metricsFiles },
  { id: 'canonical', title: 'Canonical sets', html: canonicalSection, files: canonicalFiles },
  { id: 'proxy', title: 'Proxy view', html: proxySection },
  { id: 'protected', title: 'Protected attributes and bins', html: protectedSection, files: binsFiles },
  { id: 'intersections', title: 'Intersections', html: intersectionsSection, files: intersectionFiles },
  {
    id: 'lucid',
    title: 'LUCID',
    html: lucidSection,
    files: lucidFiles,
    brief: {
      text: (r) =>
        `LUCID: ${
          r.lucid.ran
            ? `ran (${pctText(r.lucid.success)} of ${r.lucid.n} samples reach the preferred ` +
              `class${r.lucid.projected ? '; projected onto the data' : ''})`
            : `not run (${r.lucid.reason})`
        }`,
      json: (r) => r.lucid.ran,
    },
  },
  {
    id: 'fale',
    title: 'FALE',
    html: faleSection,
    files: faleFiles,
    brief: {
      text: (r) =>
        `FALE: ${
          r.fale.length ? r.fale.map((x) => x.attribute).join(', ') : `not run (${r.faleSkipped ?? 'no attribute'})`
        }`,
      json: (r) => r.fale.map((f) => f.attribute),
    },
  },
  { id: 'caveats', title: 'Caveats and warnings', html: caveatsSection },
  { id: 'how-to-read', title: 'How to read this report', html: howToReadSection },
  { id: 'files', title: 'Files', html: (_r, files) => filesSection(files) },
];

const KIND_ORDER = Object.keys(FILE_KINDS) as FileKind[];

/**
 * The audit folder's files before report.html and audit.json, every section's in FILE_KINDS' order
 * (within a kind, in the sections' order), and `summary(names)`, what audit.json holds: the result
 * with each section's table references in place of its rows, and the folder's names.
 */
export function auditFolder(result: AuditResult): { files: PlannedFile[]; summary: (names: string[]) => unknown } {
  const files: PlannedFile[] = [];
  // the result's keys keep their places in audit.json; only their values become references
  const refs: Record<string, unknown> = {};
  for (const s of SECTIONS) {
    const made = s.files?.(result);
    if (!made) continue;
    files.push(...made.files);
    Object.assign(refs, made.result);
  }
  files.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return { files, summary: (names) => ({ ...result, ...refs, files: names }) };
}

/** Every file's name and kind, in the folder's order, report.html and audit.json last. */
export function auditFileNames(result: AuditResult): FileEntry[] {
  return [
    ...auditFolder(result).files.map(({ name, kind }) => ({ name, kind })),
    { name: REPORT_FILE, kind: 'report' },
    { name: RESULT_FILE, kind: 'result' },
  ];
}

/** The whole audit as one self-contained HTML document (inline CSS and SVG; no scripts, no network). */
export function renderReport(result: AuditResult): string {
  const r = result;
  const files = auditFileNames(r);
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
${header(r)}
${SECTIONS.filter((s) => s.aboveContents)
  .map(part)
  .join('\n')}
<nav class="toc"><ol>${SECTIONS.map((s) => `<li><a href="#${s.id}">${esc(s.title)}</a></li>`).join('')}</ol></nav>
${SECTIONS.filter((s) => !s.aboveContents)
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
