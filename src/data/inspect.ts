// What the tool will see in a file: the summary `lucid inspect` prints. Core code: no Node imports.
import { delimiterName } from './csv-detect.js';
import type { ColumnKind, MissingReport, ReadReport } from './schema.js';
import type { Table } from './table.js';

export interface CategoryCount {
  label: string;
  count: number;
}

export interface ColumnSummary {
  name: string;
  kind: ColumnKind;
  /** missing cells in the rows read (before the policy) */
  missing: number;
  /** categorical: every category with its row count, most frequent first (ties in first-seen order) */
  categories?: CategoryCount[];
  /** numeric: range over the kept rows */
  min?: number;
  max?: number;
  /** numeric, with --modes: the kept modes of the column's VGM (weight > 0.005), by mean */
  modes?: Mode[];
}

export interface Mode {
  weight: number;
  mean: number;
  std: number;
}

export interface InspectSummary {
  file: string;
  /** rows after the missing-value policy */
  rows: number;
  rowsRead: number;
  /** the file's format, and what positions count ('line' or 'row') */
  format: string;
  unit: string;
  settings: {
    delimiter: string;
    header: boolean;
    bom: boolean;
    lineEnding: string;
    detected: { delimiter: boolean; header: boolean };
  };
  dropped: string[];
  missing: MissingReport;
  warnings: string[];
  columns: ColumnSummary[];
}

function categoryCounts(codes: Int32Array, categories: readonly string[]): CategoryCount[] {
  const counts = new Array<number>(categories.length).fill(0);
  for (let i = 0; i < codes.length; i++) counts[codes[i]]++;
  return categories.map((label, k) => ({ label, count: counts[k] })).sort((a, b) => b.count - a.count);
}

/** The summary of a table as read, with the reader's report. */
export function inspectTable(table: Table, report: ReadReport): InspectSummary {
  const missingOf = new Map(report.missing.columns.map((c) => [c.name, c.cells]));
  const columns = table.columns.map((col): ColumnSummary => {
    const base = { name: col.name, kind: col.kind, missing: missingOf.get(col.name) ?? 0 };
    if (col.kind === 'categorical') return { ...base, categories: categoryCounts(col.codes, col.categories) };
    let min = Infinity;
    let max = -Infinity;
    for (const v of col.values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { ...base, min, max };
  });
  return {
    file: report.file,
    rows: table.rows,
    rowsRead: report.rowsRead,
    format: report.format ?? 'csv',
    unit: report.unit ?? 'line',
    settings: {
      delimiter: delimiterName(report.delimiter),
      header: report.header,
      bom: report.bom,
      lineEnding: report.lineEnding,
      detected: report.detected,
    },
    dropped: report.dropped,
    missing: report.missing,
    warnings: report.warnings,
    columns,
  };
}

const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.replace(/y$/, 'ie') + 's'}`;
const label = (s: string) => (s === '' || /^\s|\s$|[,"]/.test(s) ? JSON.stringify(s) : s);

/** How the missing-value policy treated each column, one line each. */
function missingLines(m: MissingReport, unit: string): string[] {
  if (m.cells === 0) return ['missing values: none'];
  const out = [
    `missing values (policy "${m.policy}"): ${plural(m.cells, 'cell')}; ${plural(m.rowsDropped, 'row')} dropped`,
  ];
  for (const c of m.columns) {
    const effect =
      c.keptAs.length > 0
        ? `kept as ${c.keptAs.length === 1 ? 'category' : 'categories'} ` +
          `${c.keptAs.map((k) => JSON.stringify(k)).join(', ')}`
        : `${plural(c.rowsDropped, 'row')} dropped`;
    out.push(`  ${c.name} (${c.kind}): ${plural(c.cells, 'missing cell')}, first on ${unit} ${c.firstLine}; ${effect}`);
  }
  if (m.firstDroppedLines.length > 0) {
    out.push(
      `  dropped rows are ${unit === 'row' ? 'rows' : 'on lines'} ` +
        `${m.firstDroppedLines.join(', ')}${m.rowsDropped > m.firstDroppedLines.length ? ', …' : ''}`,
    );
  }
  return out;
}

const g4 = (x: number) => Number(x.toPrecision(4));

function valuesText(c: ColumnSummary, maxCategories = 8): string {
  if (c.kind === 'numeric') {
    const range = `min ${c.min}, max ${c.max}`;
    if (!c.modes) return range;
    if (c.modes.length === 0) return `${range}; no modes (a single value)`;
    return (
      `${range}; ${plural(c.modes.length, 'mode')}: ` +
      `${c.modes.map((m) => `μ ${g4(m.mean)} σ ${g4(m.std)} w ${m.weight.toFixed(3)}`).join(', ')}`
    );
  }
  const cats = c.categories!;
  const shown = cats.slice(0, maxCategories).map((k) => `${label(k.label)} ${k.count}`);
  const more = cats.length > maxCategories ? `, … ${cats.length - maxCategories} more` : '';
  return `${plural(cats.length, 'category')}: ${shown.join(', ')}${more}`;
}

/** The summary as readable text (the `--format table` output). */
export function formatInspect(s: InspectSummary): string {
  const given = (detected: boolean) => (detected ? 'detected' : 'given');
  const lines = [
    `${s.file}: ${plural(s.rowsRead, 'data row')} read, ${s.rows} kept; ${plural(s.columns.length, 'column')}`,
    s.format !== 'csv'
      ? `format: ${s.format}`
      : `settings: delimiter ${s.settings.delimiter} (${given(s.settings.detected.delimiter)}), ` +
        `header ${s.settings.header ? 'yes' : 'no'} (${given(s.settings.detected.header)}), ` +
        `${s.settings.lineEnding} line ends, ${s.settings.bom ? 'UTF-8 BOM' : 'no BOM'}`,
  ];
  if (s.dropped.length > 0) lines.push(`columns dropped (--drop): ${s.dropped.join(', ')}`);
  lines.push(...missingLines(s.missing, s.unit), '');
  const nameW = Math.max(6, ...s.columns.map((c) => c.name.length));
  lines.push(`${'column'.padEnd(nameW)}  ${'kind'.padEnd(11)}  ${'missing'.padStart(7)}  values`);
  for (const c of s.columns) {
    lines.push(`${c.name.padEnd(nameW)}  ${c.kind.padEnd(11)}  ${String(c.missing).padStart(7)}  ${valuesText(c)}`);
  }
  return lines.join('\n') + '\n';
}
