// The files an audit folder holds beside the report: each section's files (the rows of SECTIONS in
// ./sections.ts name these functions), the kinds of file in the folder's order (FILE_KINDS), and the
// text of audit.json. ./sections.ts plans the folder from them; `lucid audit --out` writes it
// (src/node/audit.ts writeAudit through auditFiles in ./audit-files.ts), the browser page offers it
// (one by one, and as a zip), and the report's "Files" section lists it, so the page offers every
// file the report names, with the same bytes. Core code: no Node imports.
import { csvField, tableToCsv } from '../data/csv-write.js';
import type { Table } from '../data/table.js';
import { withSeedColumn } from '../audit/canonical.js';
import type { AuditResult, CanonicalComparison, Distribution, OutputAuditResult } from '../audit/types.js';
import { formatMetricsCsv } from '../methods/metrics/index.js';
import { faleCsv } from '../methods/fale/index.js';
import { safeFileName } from './format.js';

/** The report's file in the folder. */
export const REPORT_FILE = 'report.html';
/** The whole result, tables as file references; always the folder's last file. */
export const RESULT_FILE = 'audit.json';

/** JSON with typed arrays as plain arrays. */
const toJson = (obj: unknown, pretty = true): string =>
  JSON.stringify(
    obj,
    (_k, v: unknown) =>
      ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v,
    pretty ? 2 : undefined,
  ) + '\n';

interface TableRef {
  file: string;
  rows: number;
  columns: string[];
}

const ref = (file: string, t: Table): TableRef => ({ file, rows: t.rows, columns: t.columns.map((c) => c.name) });

/** distributions.csv: one line per (set, feature): rank, role, kind, js, and each series' n. */
function distributionsCsv(sets: { set: string; distributions: Distribution[] }[]): string {
  const lines = ['set,rank,feature,role,kind,js,bins,series'];
  for (const s of sets) {
    s.distributions.forEach((d, i) => {
      const bins = d.kind === 'numeric' ? (d.edges?.length ?? 1) - 1 : (d.categories?.length ?? 0);
      lines.push(
        [s.set, i + 1, d.feature, d.role, d.kind, d.js, bins, d.series.map((x) => `${x.name} (n=${x.n})`).join('; ')]
          .map(csvField)
          .join(','),
      );
    });
  }
  return lines.join('\n') + '\n';
}

/**
 * What each kind of file holds: the report's Files section says it once per kind present. Their order is the folder's:
 * a section's files take their kind's place.
 */
export const FILE_KINDS = {
  metrics: 'the group metrics tables, per attribute (metrics-intersection: their intersection)',
  canonical: 'the positive and negative canonical sets (with gan_seed, the GAN each row came from)',
  intersection: 'the canonical sets per combination of protected categories, positive and negative each',
  distributions: "each feature's distribution in every set: the charts' data",
  lucid: "LUCID's canonical set and its start",
  fale: 'FALE values per protected attribute',
  bins: 'how numeric protected attributes were binned',
  report: 'this report',
  result: 'everything in this report as data (the audit result; tables as references to the files above)',
} as const;
export type FileKind = keyof typeof FILE_KINDS;

/** One planned file: its name, its kind, and its text made on demand (a writer holds one at a time). */
export interface PlannedFile {
  name: string;
  kind: FileKind;
  text: () => string;
}

/** A section's files, and what audit.json holds under the result's keys instead of their rows (table references). */
export interface SectionFiles {
  files: PlannedFile[];
  result?: Partial<Record<keyof AuditResult | keyof OutputAuditResult, unknown>>;
}

/** metrics.{json,csv}, and metrics-intersection.{json,csv} when the protected attributes intersect. */
export function metricsFiles(r: AuditResult): SectionFiles {
  const { attributes, intersection: mi } = r.metrics;
  const files: PlannedFile[] = [
    { name: 'metrics.json', kind: 'metrics', text: () => toJson(attributes) },
    { name: 'metrics.csv', kind: 'metrics', text: () => formatMetricsCsv(attributes) },
  ];
  if (mi) {
    files.push({ name: 'metrics-intersection.json', kind: 'metrics', text: () => toJson(mi) });
    files.push({ name: 'metrics-intersection.csv', kind: 'metrics', text: () => formatMetricsCsv(mi) });
  }
  return { files };
}

/** How a pair of sets' files name their sides: "positive" and "negative", or two targets' names (sides-html.ts). */
export type SideTags = { positive: string; negative: string };
const SIDE_TAGS: SideTags = { positive: 'positive', negative: 'negative' };

/**
 * The CSV file of one side of a pair of sets: "canonical-positive.csv", "intersection-sex=F-group=B-negative.csv";
 * with `tags`, the side's tag in place of its sign ("canonical-class_approve.csv").
 */
export const setFileName = (c: { name: string }, side: 'positive' | 'negative', tags = SIDE_TAGS): string =>
  `${safeFileName(c.name)}-${safeFileName(tags[side])}.csv`;

/** The CSV of each side of a pair of sets (with gan_seed), and what audit.json says of them instead of their rows. */
function setFiles(
  c: CanonicalComparison,
  kind: FileKind,
  files: PlannedFile[],
  tags: SideTags,
): { positive: TableRef; negative: TableRef } {
  const refs = {} as { positive: TableRef; negative: TableRef };
  for (const side of ['positive', 'negative'] as const) {
    const t = withSeedColumn(c, side);
    const name = setFileName(c, side, tags);
    refs[side] = ref(name, t);
    files.push({ name, kind, text: () => tableToCsv(t) });
  }
  return refs;
}

/**
 * canonical-{positive,negative}.csv, and distributions.{csv,json}: every set's distributions, the
 * charts' data (the intersections' sets, the conditional sets of AuditResult.conditional as
 * "conditional-<A>=<a>" and LUCID's too).
 */
export function canonicalFiles(result: AuditResult, tags = SIDE_TAGS): SectionFiles {
  const files: PlannedFile[] = [];
  const canonical = { ...result.canonical, ...setFiles(result.canonical, 'canonical', files, tags) };
  const distSets = [
    { set: 'canonical', distributions: result.canonical.distributions },
    ...result.intersections.flatMap((it) => it.sets.map((s) => ({ set: s.name, distributions: s.distributions }))),
    // the paper's protocol: one protected category fixed (set "conditional-<A>=<a>"; shares in distributions.json)
    ...(result.conditional ?? []).map((c) => ({
      set: `conditional-${c.fixed[0]}=${c.fixed[1]}`,
      distributions: c.distributions,
    })),
    ...(result.lucid.distributions ? [{ set: 'lucid', distributions: result.lucid.distributions }] : []),
  ];
  files.push({ name: 'distributions.csv', kind: 'distributions', text: () => distributionsCsv(distSets) });
  files.push({ name: 'distributions.json', kind: 'distributions', text: () => toJson(distSets) });
  return { files, result: { canonical } };
}

/** One pair of CSVs per set with a combination of protected values fixed. */
export function intersectionFiles(result: AuditResult, tags = SIDE_TAGS): SectionFiles {
  const files: PlannedFile[] = [];
  const intersections = result.intersections.map((it) => ({
    ...it,
    sets: it.sets.map((s) => ({ ...s, ...setFiles(s, 'intersection', files, tags) })),
  }));
  return { files, result: { intersections } };
}

/** lucid-{canonical,start}.csv when LUCID ran. */
export function lucidFiles(result: Pick<AuditResult, 'lucid'>): SectionFiles {
  const files: PlannedFile[] = [];
  const lucid: Record<string, unknown> = { ...result.lucid };
  for (const [key, t] of [
    ['canonical', result.lucid.canonical],
    ['start', result.lucid.start],
  ] as const) {
    if (!t) continue;
    lucid[key] = ref(`lucid-${key}.csv`, t);
    files.push({ name: `lucid-${key}.csv`, kind: 'lucid', text: () => tableToCsv(t) });
  }
  return { files, result: { lucid } };
}

/** fale-<attr>.{json,csv} per protected attribute FALE explained. */
export function faleFiles(result: Pick<AuditResult, 'fale'>): SectionFiles {
  const files: PlannedFile[] = [];
  const fale = result.fale.map((f) => {
    const stem = `fale-${safeFileName(f.attribute)}`;
    files.push({ name: `${stem}.json`, kind: 'fale', text: () => toJson(f) });
    files.push({ name: `${stem}.csv`, kind: 'fale', text: () => faleCsv(f.result) });
    return { ...f, files: [`${stem}.json`, `${stem}.csv`] };
  });
  return { files, result: { fale } };
}

/** protected-bins.json: how each protected attribute was grouped. */
export function binsFiles(result: Pick<AuditResult, 'protected'>): SectionFiles {
  const text = () =>
    toJson(
      result.protected.map((p) => ({
        column: p.column,
        groupColumn: p.groupColumn,
        kind: p.kind,
        inModel: p.inModel,
        bins: p.bins ?? null,
      })),
    );
  return { files: [{ name: 'protected-bins.json', kind: 'bins', text }] };
}

/** audit.json's text: the result with the sections' table references, and the folder's names (its own last). */
export function resultJson(summary: unknown): string {
  return toJson(summary);
}
