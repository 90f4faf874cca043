// Formatting helpers shared by the report and its charts. Core code: no Node imports, no DOM.

/**
 * A file name from any text: letters, digits, ".", "_", "-" and "=" kept, anything else "_" (the audit folder's names,
 * src/report/files.ts).
 */
export function safeFileName(s: string): string {
  const t = s.replace(/[^A-Za-z0-9._=-]+/g, '_').replace(/^[.]+/, '_');
  return t.slice(0, 150) || '_';
}

/** Escape a string for HTML text and attribute values (also safe inside SVG). */
export function escapeHtml(s: unknown): string {
  return String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// the shared number forms, defined once below the layers that write for people
export { byCodeUnit, finite, fmtInt, fmtJs, fmtNum, fmtPct, fmtPp, fmtRatio, MISSING } from '../data/text.js';
import { fmtNum } from '../data/text.js';

/** Pixel coordinate with one decimal (deterministic, compact). */
export function px(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 10) / 10;
  return String(r === 0 ? 0 : r);
}

/** Cut a label to `max` characters with an ellipsis. */
export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1))}…`;
}

/** The label of numeric bin i of `edges`: "[a, b]" for the first, "(a, b]" after. */
export function binLabel(edges: readonly number[], i: number): string {
  return `${i === 0 ? '[' : '('}${fmtNum(edges[i])}, ${fmtNum(edges[i + 1])}]`;
}

/** Okabe–Ito colour-blind-safe palette. */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  black: '#000000',
} as const;

/** Series colours: the compared pair first (positive, negative), then further series. */
export const SERIES_COLORS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.green,
  OKABE_ITO.purple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.vermillion,
];
export const REFERENCE_COLOR = '#6b6b6b';

/** Seconds as "45 s", "3 min 05 s" (the CLI's and the page's estimates of an audit's time). */
export function fmtDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * Whether a stage's pace has been timed long enough to estimate from (a second: an earlier pace is mostly start-up).
 */
export const paceTimed = (eta: { left: number; total: number }): boolean => eta.total - eta.left >= 1;

/**
 * The estimate of a stage's length (the GANs' training), in words: "training 3 LUCID-GANs × 50 epochs: about 1 min 35
 * s, from the pace of the first 5 s".
 */
export function estimateText(eta: { left: number; total: number; ceiling: boolean; what: string }): string {
  return (
    `training ${eta.what}: about ` +
    `${fmtDuration(eta.total)}${eta.ceiling ? ' at most (the stopping rule may end it sooner)' : ''}, from the ` +
    `pace of the first ${fmtDuration(eta.total - eta.left)}`
  );
}

/**
 * The estimate made before the GANs train (audit/estimate.ts), in words: "about 2 min 05 s, 1 min 58 s of it training 3
 * LUCID-GANs × 50 epochs of 32 steps (timed on a few of its steps)".
 */
export function auditEstimateText(e: { seconds: number; ganSeconds: number; ceiling: boolean; what: string }): string {
  return (
    `about ${fmtDuration(e.seconds)}${e.ceiling ? ' at most' : ''}, ${fmtDuration(e.ganSeconds)} of it training ` +
    `${e.what} (timed on a few of its steps)`
  );
}

/** The width the CLI's text summaries keep to, in characters (a terminal or a log shows them whole). */
export const TEXT_WIDTH = 120;

/**
 * One line of text as lines of at most `width` characters (code points): broken at spaces, each
 * continuation indented `hang` spaces more than the line's own indent; a word longer than a whole line
 * is cut across lines rather than shortened, so nothing is lost.
 */
export function wrapLine(line: string, width = TEXT_WIDTH, hang = 4): string[] {
  const len = (s: string) => [...s].length;
  if (len(line) <= width) return [line];
  const lead = /^ */.exec(line)![0];
  const cont = lead + ' '.repeat(hang);
  const out: string[] = [];
  let cur = lead;
  let empty = true; // nothing but the indent on `cur` yet
  const place = (word: string) => {
    let w = word;
    for (;;) {
      const room = width - len(cur) - (empty ? 0 : 1);
      if (len(w) <= room) {
        cur += (empty ? '' : ' ') + w;
        empty = false;
        return;
      }
      if (!empty) {
        out.push(cur);
        cur = cont;
        empty = true;
        continue;
      }
      // a word wider than a whole line: cut it (a path, a long category) across lines
      const cps = [...w];
      const fit = Math.max(1, room);
      out.push(cur + cps.slice(0, fit).join(''));
      w = cps.slice(fit).join('');
      cur = cont;
    }
  };
  // a unit stays with its number: "+22.0 pp…", "126.7 s" are not broken before the unit
  const words: string[] = [];
  for (const word of line.slice(lead.length).split(' ')) {
    if (word === '') continue;
    if (words.length && /^(pp|s)(\W|$)/.test(word) && /\d$/.test(words[words.length - 1]))
      words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  for (const word of words) place(word);
  if (!empty) out.push(cur);
  return out;
}

/** Every line of `text` wrapped by wrapLine (the trailing newline, if any, kept). */
export function wrapText(text: string, width = TEXT_WIDTH, hang = 4): string {
  const nl = text.endsWith('\n');
  const body = (nl ? text.slice(0, -1) : text)
    .split('\n')
    .flatMap((l) => wrapLine(l, width, hang))
    .join('\n');
  return nl ? `${body}\n` : body;
}
