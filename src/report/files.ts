// The files of an audit folder, one list for every runtime: `lucid audit --out` writes them
// (src/node/audit.ts writeAudit through auditFiles in ./audit-files.ts), the browser page offers them
// (one by one, and as a zip), and the report's "Files" section lists them (render.ts, from
// auditFolder's names and FILE_KINDS), so the page offers every file the report names, with the same
// bytes. This module does not render the report (render.ts imports it). Core code: no Node imports.
import { csvField, tableToCsv } from '../data/csv-write.js';
import type { Table } from '../data/table.js';
import { withSeedColumn } from '../audit/canonical.js';
import type { AuditResult, CanonicalComparison, Distribution } from '../audit/types.js';
import { formatMetricsCsv } from '../methods/metrics/index.js';
import { faleCsv } from '../methods/fale/index.js';
import { safeFileName } from './format.js';

/** The report's file in the folder. */
export const REPORT_FILE = 'report.html';
/** The whole result, tables as file references; always the folder's last file. */
export const RESULT_FILE = 'audit.json';

/** JSON with typed arrays as plain arrays. */
const toJson = (obj: unknown, pretty = true): string =>
  JSON.stringify(obj, (_k, v: unknown) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v), pretty ? 2 : undefined) + '\n';

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
      lines.push([s.set, i + 1, d.feature, d.role, d.kind, d.js, bins, d.series.map((x) => `${x.name} (n=${x.n})`).join('; ')].map(csvField).join(','));
    });
  }
  return lines.join('\n') + '\n';
}

/** What each kind of file holds: the report's Files section says it once per kind present. */
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

/**
 * The audit folder's files before report.html and audit.json, in order: metrics.{json,csv},
 * metrics-intersection.{json,csv}, canonical-{positive,negative}.csv, one pair of CSVs per intersection
 * set, distributions.{csv,json} (with the conditional sets of AuditResult.conditional as
 * "conditional-<A>=<a>"), lucid-{canonical,start}.csv, fale-<attr>.{json,csv}, protected-bins.json;
 * and `summary(names)`, what audit.json holds (the result with tables as file references).
 */
export function auditFolder(result: AuditResult): { files: PlannedFile[]; summary: (names: string[]) => unknown } {
  const files: PlannedFile[] = [];
  const file = (name: string, kind: FileKind, text: () => string) => files.push({ name, kind, text });
  const { metrics } = result;
  file('metrics.json', 'metrics', () => toJson(metrics.attributes));
  file('metrics.csv', 'metrics', () => formatMetricsCsv(metrics.attributes));
  const mi = metrics.intersection;
  if (mi) {
    file('metrics-intersection.json', 'metrics', () => toJson(mi));
    file('metrics-intersection.csv', 'metrics', () => formatMetricsCsv(mi));
  }
  // the CSV of each set, and what audit.json says of it instead of its rows
  const sets = (c: CanonicalComparison, stem: string, kind: FileKind) => {
    const refs: { positive?: TableRef; negative?: TableRef } = {};
    for (const side of ['positive', 'negative'] as const) {
      const t = withSeedColumn(c, side);
      refs[side] = ref(`${stem}-${side}.csv`, t);
      file(`${stem}-${side}.csv`, kind, () => tableToCsv(t));
    }
    return refs;
  };
  const canonical = { ...result.canonical, ...sets(result.canonical, safeFileName(result.canonical.name), 'canonical') };
  const intersections = result.intersections.map((it) => ({ ...it, sets: it.sets.map((s) => ({ ...s, ...sets(s, safeFileName(s.name), 'intersection') })) }));
  const distSets = [
    { set: 'canonical', distributions: result.canonical.distributions },
    ...result.intersections.flatMap((it) => it.sets.map((s) => ({ set: s.name, distributions: s.distributions }))),
    // the paper's protocol: one protected category fixed (set "conditional-<A>=<a>"; shares in distributions.json)
    ...(result.conditional ?? []).map((c) => ({ set: `conditional-${c.fixed[0]}=${c.fixed[1]}`, distributions: c.distributions })),
    ...(result.lucid.distributions ? [{ set: 'lucid', distributions: result.lucid.distributions }] : []),
  ];
  file('distributions.csv', 'distributions', () => distributionsCsv(distSets));
  file('distributions.json', 'distributions', () => toJson(distSets));
  const lucid: Record<string, unknown> = { ...result.lucid };
  for (const [key, t] of [['canonical', result.lucid.canonical], ['start', result.lucid.start]] as const) {
    if (!t) continue;
    lucid[key] = ref(`lucid-${key}.csv`, t);
    file(`lucid-${key}.csv`, 'lucid', () => tableToCsv(t));
  }
  const fale = result.fale.map((f) => {
    const stem = `fale-${safeFileName(f.attribute)}`;
    file(`${stem}.json`, 'fale', () => toJson(f));
    file(`${stem}.csv`, 'fale', () => faleCsv(f.result));
    return { ...f, files: [`${stem}.json`, `${stem}.csv`] };
  });
  file('protected-bins.json', 'bins', () => toJson(result.protected.map((p) => ({ column: p.column, groupColumn: p.groupColumn, kind: p.kind, inModel: p.inModel, bins: p.bins ?? null }))));
  return { files, summary: (names) => ({ ...result, canonical, intersections, lucid, fale, files: names }) };
}

/** Every file's name and kind, in the folder's order, report.html and audit.json last. */
export function auditFileNames(result: AuditResult): { name: string; kind: FileKind }[] {
  return [...auditFolder(result).files.map(({ name, kind }) => ({ name, kind })), { name: REPORT_FILE, kind: 'report' }, { name: RESULT_FILE, kind: 'result' }];
}

/** audit.json's text, given the folder's names (its own last). */
export function resultJson(summary: unknown): string {
  return toJson(summary);
}
