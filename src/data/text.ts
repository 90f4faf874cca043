// The text forms of numbers that every layer writing for people shares (the report, the CLI's
// summaries and tables, the page), and the locale-free order of category names. Each form is defined
// once; where it is shown decides only the text of a missing figure (MISSING). In data/, the lowest
// layer that needs them (category order), so that models/, methods/, audit/, report/, cli/ and the
// page import one definition. Core code: no Node imports, no DOM.

/**
 * What a missing (or not finite) figure reads as: the HTML report's dash, the CLI's summaries' words, the aligned text
 * tables' hyphen.
 */
export const MISSING = { report: '—', text: 'n/a', table: '-' } as const;

/** Whether `v` is a finite number. */
export const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Strings in UTF-16 code-unit order: the same order in every runtime and locale (unlike localeCompare). */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A fraction as a percentage, e.g. 0.4567 → "45.7%" (`unit` '' for a table's bare number); `missing` when missing. */
export function fmtPct(
  v: number | null | undefined,
  decimals = 1,
  missing: string = MISSING.report,
  unit = '%',
): string {
  return finite(v) ? `${(v * 100).toFixed(decimals)}${unit}` : missing;
}

/** A difference of fractions in percentage points with a sign, e.g. "+3.2 pp", "±0.0 pp" when it rounds to 0. */
export function fmtPp(v: number | null | undefined, decimals = 1, missing: string = MISSING.report): string {
  if (!finite(v)) return missing;
  const s = (v * 100).toFixed(decimals);
  const z = Number(s) === 0;
  return `${z ? '±' : v > 0 ? '+' : ''}${z ? (0).toFixed(decimals) : s} pp`;
}

/**
 * A difference of fractions in percentage points as the CLI and the policy check write it: "−" for a
 * minus, "±" only for exactly 0 (not rounded first, unlike fmtPp), e.g. "+3.2 pp", "−0.5 pp"; without
 * `signed`, the size alone ("0.50 pp", a margin).
 */
export function fmtPpSigned(
  v: number | null | undefined,
  decimals = 1,
  missing: string = MISSING.text,
  signed = true,
): string {
  if (!finite(v)) return missing;
  return `${signed ? (v > 0 ? '+' : v < 0 ? '−' : '±') : ''}${Math.abs(100 * v).toFixed(decimals)} pp`;
}

/** A ratio, e.g. 0.734 → "0.73". */
export function fmtRatio(v: number | null | undefined, missing: string = MISSING.report): string {
  return finite(v) ? v.toFixed(2) : missing;
}

/** A JS distance, 3 decimals. */
export const fmtJs = (v: number | null | undefined, missing: string = MISSING.report): string =>
  finite(v) ? v.toFixed(3) : missing;

/** A number with about 4 significant digits, without trailing zeros; the report's dash when missing or not finite. */
export function fmtNum(v: number | null | undefined, digits = 4): string {
  if (!finite(v)) return MISSING.report;
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-3) return v.toExponential(2).replace('e+', 'e');
  if (a >= 1000) return String(Math.round(v));
  return String(Number(v.toPrecision(digits)));
}

/** An integer with thousands separators (locale-independent), "−" for a minus. */
export function fmtInt(v: number | null | undefined): string {
  if (!finite(v)) return MISSING.report;
  const s = String(Math.round(Math.abs(v)));
  return (v < 0 ? '−' : '') + s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A percentage in the CLI's text: "45.7%", "n/a" when missing. */
export const pctText = (v: number | null | undefined): string => fmtPct(v, 1, MISSING.text);

/** A percentage in an aligned text table's cell: the bare number "45.7", "-" when missing. */
export const pctTable = (v: number | null | undefined): string => fmtPct(v, 1, MISSING.table, '');

/** A JS distance (or another score in [0, 1]) in the CLI's text: 3 decimals, "n/a" when missing. */
export const jsText = (v: number | null | undefined): string => fmtJs(v, MISSING.text);
