// The files of an audit folder, one list for every runtime: `lucid audit --out` writes them
// (src/node/audit.ts writeAudit) and the browser page offers them (one by one, and as a zip), so the
// page offers every file the report's "Files" section names, with the same bytes. Core code: no Node
// imports.
import { csvField, tableToCsv } from '../data/csv-write.js';
import type { Table } from '../data/table.js';
import { withSeedColumn } from '../audit/canonical.js';
import type { AuditResult, CanonicalComparison, Distribution } from '../audit/types.js';
import { formatMetricsCsv } from '../methods/metrics/index.js';
import { faleCsv } from '../methods/fale/index.js';
import { renderReport } from './render.js';
import { safeFileName } from './format.js';

/** One file of the audit folder: its name in the folder and its text (UTF-8). */
export interface AuditFile {
  name: string;
  text: string;
}

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

/**
 * The files of the audit folder, one at a time (a caller writing them holds one file's text at a
 * time): metrics.{json,csv}, metrics-intersection.{json,csv}, canonical-{positive,negative}.csv,
 * one pair of CSVs per intersection set, distributions.{csv,json} (with the conditional sets of
 * AuditResult.conditional as "conditional-<A>=<a>"), lucid-{canonical,start}.csv,
 * fale-<attr>.{json,csv}, protected-bins.json, report.html and, last, audit.json (the whole result
 * with tables as file references and the list of files).
 */
export function* auditFiles(result: AuditResult): Generator<AuditFile> {
  const names: string[] = [];
  const file = (name: string, text: string): AuditFile => {
    names.push(name);
    return { name, text };
  };
  const { metrics } = result;
  yield file('metrics.json', toJson(metrics.attributes));
  yield file('metrics.csv', formatMetricsCsv(metrics.attributes));
  if (metrics.intersection) {
    yield file('metrics-intersection.json', toJson(metrics.intersection));
    yield file('metrics-intersection.csv', formatMetricsCsv(metrics.intersection));
  }
  // the CSV of each set, and what audit.json says of it instead of its rows
  function* sets(c: CanonicalComparison, stem: string, refs: { positive?: TableRef; negative?: TableRef }): Generator<AuditFile> {
    for (const side of ['positive', 'negative'] as const) {
      const t = withSeedColumn(c, side);
      refs[side] = ref(`${stem}-${side}.csv`, t);
      yield file(`${stem}-${side}.csv`, tableToCsv(t));
    }
  }
  const canonicalRefs: { positive?: TableRef; negative?: TableRef } = {};
  yield* sets(result.canonical, safeFileName(result.canonical.name), canonicalRefs);
  const canonical = { ...result.canonical, ...canonicalRefs };
  const intersections = [];
  for (const it of result.intersections) {
    const setsOut = [];
    for (const s of it.sets) {
      const refs: { positive?: TableRef; negative?: TableRef } = {};
      yield* sets(s, safeFileName(s.name), refs);
      setsOut.push({ ...s, ...refs });
    }
    intersections.push({ ...it, sets: setsOut });
  }
  const distSets = [
    { set: 'canonical', distributions: result.canonical.distributions },
    ...result.intersections.flatMap((it) => it.sets.map((s) => ({ set: s.name, distributions: s.distributions }))),
    // the paper's protocol: one protected category fixed (set "conditional-<A>=<a>"; shares in distributions.json)
    ...(result.conditional ?? []).map((c) => ({ set: `conditional-${c.fixed[0]}=${c.fixed[1]}`, distributions: c.distributions })),
    ...(result.lucid.distributions ? [{ set: 'lucid', distributions: result.lucid.distributions }] : []),
  ];
  yield file('distributions.csv', distributionsCsv(distSets));
  yield file('distributions.json', toJson(distSets));
  const lucid: Record<string, unknown> = { ...result.lucid };
  for (const [key, t] of [['canonical', result.lucid.canonical], ['start', result.lucid.start]] as const) {
    if (!t) continue;
    lucid[key] = ref(`lucid-${key}.csv`, t);
    yield file(`lucid-${key}.csv`, tableToCsv(t));
  }
  const fale = [];
  for (const f of result.fale) {
    const stem = `fale-${safeFileName(f.attribute)}`;
    yield file(`${stem}.json`, toJson(f));
    yield file(`${stem}.csv`, faleCsv(f.result));
    fale.push({ ...f, files: [`${stem}.json`, `${stem}.csv`] });
  }
  yield file('protected-bins.json', toJson(result.protected.map((p) => ({ column: p.column, groupColumn: p.groupColumn, kind: p.kind, inModel: p.inModel, bins: p.bins ?? null }))));
  yield file(REPORT_FILE, renderReport(result));
  names.push(RESULT_FILE);
  const summary = { ...result, canonical, intersections, lucid, fale, files: names };
  yield { name: RESULT_FILE, text: toJson(summary) };
}
