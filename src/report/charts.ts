// Small, deterministic SVG chart generators for the audit report and the web page. Each returns one
// standalone <svg class="chart" role="img" data-chart="…"> with a <title>, axis labels
// (<text class="axis-label">) and an in-chart legend. No ids, no scripts, no external resources.
// Core code: no Node imports, no DOM.
import type { Distribution, IntersectionHeatmap } from '../audit/types.js';
import type { ShiftStatus } from '../audit/checks.js';
import type { FaleFeature } from '../methods/fale/index.js';
import { DIRECTION_ARROW } from '../methods/metrics/verdicts.js';
import {
  OKABE_ITO,
  REFERENCE_COLOR,
  SERIES_COLORS,
  binLabel,
  escapeHtml as esc,
  finite,
  fmtJs,
  fmtNum,
  fmtPct,
  fmtPp,
  px,
  truncate,
  wrapLine,
} from './format.js';

export interface ChartOptions {
  /** chart title (default: derived from the data) */
  title?: string;
  /** a line under the title (default: derived, e.g. the JS distance) */
  subtitle?: string;
  width?: number;
  height?: number;
}

export type ChartKind =
  | 'histogram-pair'
  | 'grouped-bars'
  | 'heatmap'
  | 'line'
  | 'fale'
  | 'js-ranking'
  | 'group-rates'
  | 'ratio-curve';

const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const AXIS = '#444444';
const GRID = '#e4e4e4';
const TEXT = '#222222';
/** rough width of one character at font size 11 */
const CH = 6.2;
/**
 * a generous estimate of the drawn width of `text` at `size` px (wide sans fonts such as DejaVu Sans), for fitting text
 * into a chart
 */
const charW = (size: number, bold = false): number => size * (bold ? 0.66 : 0.6);
const textW = (text: string, size: number, bold = false): number => text.length * charW(size, bold);
/** sin and cos of the -35° rotation of x tick labels */
const SIN35 = Math.sin((35 * Math.PI) / 180);
const COS35 = Math.cos((35 * Math.PI) / 180);

/** `text` shortened with an ellipsis to fit about `width` px at `size` px. */
function fitText(text: string, width: number, size: number, bold = false): string {
  if (textW(text, size, bold) <= width) return text;
  return truncate(text, Math.max(4, Math.floor(width / charW(size, bold))));
}

const num = (v: unknown): number => (finite(v) ? v : 0);

/** The width a chart of this file was drawn at (its width attribute), in px. */
export function svgWidth(svg: string): number {
  const m = /^<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg);
  return m ? Number(m[1]) : 0;
}

function open(kind: ChartKind, w: number, h: number, label: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="${kind}" role="img" ` +
    `aria-label="${esc(label)}" width="${px(w)}" height="${px(h)}" viewBox="0 0 ${px(w)} ${px(h)}" ` +
    `font-family="${esc(FONT)}" font-size="11" fill="${TEXT}"><title>${esc(label)}</title><rect width="${px(w)}" ` +
    `height="${px(h)}" fill="#ffffff"/>`
  );
}

/** A chart's heading and the height it takes beyond one line of title and one of subtitle. */
interface Heading {
  svg: string;
  extra: number;
}

const TITLE_LINE = 16;
const SUBTITLE_LINE = 13;

/**
 * The title and subtitle; with the chart's width `w`, each wraps onto as many lines as it needs (never
 * shortened: a clipped subtitle hid what its whiskers mean); close() moves the chart below them down.
 */
function heading(title: string, subtitle: string | undefined, left: number, w?: number): Heading {
  const room = w === undefined ? Infinity : w - left - 6;
  const lines = (text: string, size: number, bold = false) =>
    room === Infinity ? [text] : wrapLine(text, Math.max(8, Math.floor(room / charW(size, bold))), 0);
  const tl = lines(title, 13, true);
  const tspans = (ls: string[], step: number) =>
    ls.map((l, i) => (i === 0 ? esc(l) : `<tspan x="${px(left)}" dy="${step}">${esc(l)}</tspan>`)).join('');
  let s =
    `<text class="chart-title" x="${px(left)}" y="17" font-size="13" font-weight="600">` +
    `${tspans(tl, TITLE_LINE)}</text>`;
  const titleExtra = (tl.length - 1) * TITLE_LINE;
  let extra = titleExtra;
  if (subtitle) {
    const sl = lines(subtitle, 11);
    s +=
      `<text class="chart-subtitle" x="${px(left)}" y="${px(32 + titleExtra)}" font-size="11" fill="#555555">` +
      `${tspans(sl, SUBTITLE_LINE)}</text>`;
    extra += (sl.length - 1) * SUBTITLE_LINE;
  }
  return { svg: s, extra };
}

/**
 * The chart's markup, `out` being [open(…), the heading's svg, …the body]: a heading of more than a
 * line each moves the body down by its extra height, and the chart grows by as much.
 */
function close(out: string[], head: Heading): string {
  if (head.extra <= 0) return `${out.join('')}</svg>`;
  const grow = (v: string) => px(Number(v) + head.extra);
  const top = out[0]
    .replace(/^(<svg\b[^>]*?\sheight=")([\d.]+)"/, (_, a: string, h: string) => `${a}${grow(h)}"`)
    .replace(/(viewBox="0 0 [\d.]+ )([\d.]+)"/, (_, a: string, h: string) => `${a}${grow(h)}"`)
    .replace(/(<rect width="[\d.]+" height=")([\d.]+)"/, (_, a: string, h: string) => `${a}${grow(h)}"`);
  return `${top}${out[1]}<g transform="translate(0 ${px(head.extra)})">${out.slice(2).join('')}</g></svg>`;
}

function axisLabelX(text: string, cx: number, y: number): string {
  return (
    `<text class="axis-label" x="${px(cx)}" y="${px(y)}" text-anchor="middle" font-size="11.5">` + `${esc(text)}</text>`
  );
}

function axisLabelY(text: string, x: number, cy: number): string {
  return (
    `<text class="axis-label" x="${px(x)}" y="${px(cy)}" text-anchor="middle" font-size="11.5" ` +
    `transform="rotate(-90 ${px(x)} ${px(cy)})">${esc(text)}</text>`
  );
}

interface LegendItem {
  name: string;
  color: string;
  style: 'fill' | 'line' | 'dash' | 'band' | 'hatch';
}

/**
 * A one-row legend starting at (x, y); wraps onto further rows when wider than `maxW`. Returns markup and height used.
 */
function legend(items: LegendItem[], x: number, y: number, maxW: number): { svg: string; height: number } {
  const out: string[] = ['<g class="legend">'];
  let cx = x;
  let cy = y;
  for (const it of items) {
    const label = truncate(it.name, 40);
    const w = 18 + label.length * CH + 14;
    if (cx > x && cx + w > x + maxW) {
      cx = x;
      cy += 16;
    }
    if (it.style === 'fill')
      out.push(`<rect x="${px(cx)}" y="${px(cy - 9)}" width="12" height="10" fill="${it.color}"/>`);
    else if (it.style === 'band')
      out.push(
        `<rect x="${px(cx)}" y="${px(cy - 9)}" width="12" height="10" fill="${it.color}" fill-opacity="0.2" ` +
          `stroke="${it.color}" stroke-opacity="0.4"/>`,
      );
    else if (it.style === 'hatch')
      out.push(
        `<rect x="${px(cx)}" y="${px(cy - 9)}" width="12" height="10" fill="#ffffff" stroke="#555555"/>` +
          `${hatchLines(cx, cy - 9, 12, 10, 4)}`,
      );
    else
      out.push(
        `<line x1="${px(cx)}" x2="${px(cx + 14)}" y1="${px(cy - 4)}" y2="${px(cy - 4)}" stroke="${it.color}" ` +
          `stroke-width="2"${it.style === 'dash' ? ' stroke-dasharray="4 2"' : ''}/>`,
      );
    out.push(`<text x="${px(cx + 18)}" y="${px(cy)}">${esc(label)}</text>`);
    cx += w;
  }
  out.push('</g>');
  return { svg: out.join(''), height: cy - y + 16 };
}

/** Diagonal hatch lines inside a rectangle (no pattern ids, so many charts can share a page). */
function hatchLines(x: number, y: number, w: number, h: number, step = 7, color = '#555555'): string {
  const segs: string[] = [];
  for (let t = step; t < w + h; t += step) {
    // the line x + y' = t (in local coords) clipped to the rectangle
    const x1 = Math.max(0, t - h);
    const y1 = t - x1;
    const x2 = Math.min(w, t);
    const y2 = t - x2;
    segs.push(`M${px(x + x1)},${px(y + y1)}L${px(x + x2)},${px(y + y2)}`);
  }
  return (
    `<path class="hatch" d="${segs.join('')}" stroke="${color}" stroke-width="0.8" stroke-opacity="0.7" ` +
    `fill="none"/>`
  );
}

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!finite(lo) || !finite(hi)) return [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi - lo < 1e-12) {
    const d = Math.abs(lo) > 1e-12 ? Math.abs(lo) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0, v = start; v <= end + step * 1e-6 && i < 50; i++, v = start + i * step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Horizontal grid lines and left tick labels for a y scale. */
function yGrid(
  ticks: number[],
  y: (v: number) => number,
  x0: number,
  x1: number,
  label: (v: number) => string,
): string {
  return ticks
    .map(
      (t) =>
        `<line x1="${px(x0)}" x2="${px(x1)}" y1="${px(y(t))}" y2="${px(y(t))}" stroke="${GRID}"/><text class="tick" ` +
        `x="${px(x0 - 5)}" y="${px(y(t) + 3.5)}" text-anchor="end" font-size="10">${esc(label(t))}</text>`,
    )
    .join('');
}

function frame(x0: number, y0: number, w: number, h: number): string {
  return `<path class="axis" d="M${px(x0)},${px(y0)}V${px(y0 + h)}H${px(x0 + w)}" fill="none" stroke="${AXIS}"/>`;
}

/** Tick label under the x axis, rotated when asked. */
function xTick(text: string, x: number, y: number, rotate: boolean, full?: string): string {
  const t = full && full !== text ? `<title>${esc(full)}</title>` : '';
  return rotate
    ? `<text class="tick" x="${px(x)}" y="${px(y)}" text-anchor="end" font-size="10" transform="rotate(-35 ${px(x)} ` +
        `${px(y)})">${t}${esc(text)}</text>`
    : `<text class="tick" x="${px(x)}" y="${px(y)}" text-anchor="middle" font-size="10">${t}${esc(text)}</text>`;
}

function jsSubtitle(d: Distribution): string {
  const a = d.series[0]?.name ?? 'series 1';
  const b = d.series[1]?.name ?? 'series 2';
  return `JS distance, ${a} vs ${b}: ${fmtJs(d.js)}`;
}

/** The dark shade a real counterpart of series 0 or 1 is drawn in (see Distribution.series `of`). */
const COUNTERPART_COLORS = ['#003f63', '#8a5200'];

/**
 * A thin vertical line over bar `b` of series `s` from its lowest to its highest share over the GAN seeds ('' without a
 * range).
 */
function seedWhisker(d: Distribution, s: number, b: number, cx: number, y: (v: number) => number): string {
  const r = d.series[s]?.range;
  if (!r || !finite(r.lo[b]) || !finite(r.hi[b])) return '';
  const lo = 100 * r.lo[b];
  const hi = 100 * r.hi[b];
  return (
    `<line class="seed-range" x1="${px(cx)}" x2="${px(cx)}" y1="${px(y(lo))}" y2="${px(y(hi))}" stroke="#222222" ` +
    `stroke-width="1.2"><title>${esc(d.series[s].name)}: ${fmtNum(lo, 3)}–${fmtNum(hi, 3)}% over the GAN ` +
    `seeds</title></line>`
  );
}

/** Colour and dash of reference series s: its counterpart's shade, or grey (dashed after the first grey one). */
function referenceStyle(d: Distribution, s: number): { color: string; dash: boolean } {
  const of = d.series[s].of;
  if (of === 0 || of === 1) return { color: COUNTERPART_COLORS[of], dash: false };
  const greyBefore = d.series.slice(2, s).filter((x) => x.of !== 0 && x.of !== 1).length;
  return { color: REFERENCE_COLOR, dash: greyBefore > 0 };
}

function seriesLegend(d: Distribution): LegendItem[] {
  return d.series.map((s, i) => {
    if (i < 2) return { name: `${s.name} (n=${fmtNum(s.n)})`, color: SERIES_COLORS[i], style: 'fill' as const };
    const r = referenceStyle(d, i);
    return {
      name: `${s.name} (n=${fmtNum(s.n)})`,
      color: r.color,
      style: r.dash ? ('dash' as const) : ('line' as const),
    };
  });
}

/**
 * A numeric feature: the compared pair (series 0 and 1) as side-by-side bars per bin, any further
 * series (e.g. the real data) as grey step outlines; y is % of rows per bin. Bins are drawn at
 * equal widths and labelled by their edges (quantile bins need not be equally wide).
 */
export function histogramPair(d: Distribution, opts: ChartOptions = {}): string {
  const edges = d.edges ?? [];
  const k = Math.max(1, edges.length - 1, ...d.series.map((s) => s.share.length));
  const W = opts.width ?? 530;
  const title = opts.title ?? d.feature;
  const subtitle = opts.subtitle ?? jsSubtitle(d);
  const lg = legend(seriesLegend(d), 56, 50, W - 70);
  // the last edge's label is centred on the frame's right edge: room for its half (a "100000" is wider than 14 px)
  const lastEdge = edges.length ? fmtNum(edges[edges.length - 1], 3) : '';
  const M = {
    left: 56,
    right: Math.max(14, Math.ceil(textW(lastEdge, 10) / 2) + 2),
    top: 50 + lg.height + 4,
    bottom: 56,
  };
  const H = opts.height ?? 250 + lg.height;
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const share = (s: number, b: number) => num(d.series[s]?.share[b]) * 100;
  let max = 0;
  d.series.forEach((x, s) => {
    for (let b = 0; b < k; b++) max = Math.max(max, share(s, b), 100 * num(x.range?.hi[b]));
  });
  const ticks = niceTicks(0, Math.max(max, 1));
  const top = ticks[ticks.length - 1];
  const y = (v: number) => M.top + ih - (v / top) * ih;
  const bw = iw / k;
  const out: string[] = [open('histogram-pair', W, H, `${title}: distribution (% of rows) by series; ${subtitle}`)];
  const head = heading(title, subtitle, M.left, W);
  out.push(head.svg, lg.svg);
  out.push(yGrid(ticks, y, M.left, M.left + iw, (t) => `${fmtNum(t)}%`));
  const pairs = Math.min(2, d.series.length);
  const barW = (bw * 0.8) / Math.max(1, pairs);
  for (let b = 0; b < k; b++) {
    for (let s = 0; s < pairs; s++) {
      const v = share(s, b);
      const x = M.left + b * bw + bw * 0.1 + s * barW;
      const lab = edges.length > b + 1 ? binLabel(edges, b) : `bin ${b + 1}`;
      out.push(
        `<rect x="${px(x)}" y="${px(y(v))}" width="${px(Math.max(0.5, barW - 0.5))}" ` +
          `height="${px(M.top + ih - y(v))}" fill="${SERIES_COLORS[s]}" fill-opacity="0.85"><title>` +
          `${esc(d.series[s].name)}, ${esc(lab)}: ${fmtNum(v, 3)}%</title></rect>`,
      );
      out.push(seedWhisker(d, s, b, x + (barW - 0.5) / 2, y));
    }
  }
  // reference series: a real counterpart of bar series j as a tick across each of j's bars; others as step outlines
  for (let s = 2; s < d.series.length; s++) {
    const r = referenceStyle(d, s);
    const of = d.series[s].of;
    if ((of === 0 || of === 1) && of < pairs) {
      let p = '';
      for (let b = 0; b < k; b++) {
        const x = M.left + b * bw + bw * 0.1 + of * barW;
        p += `M${px(x - 1)},${px(y(share(s, b)))}H${px(x + barW + 0.5)}`;
      }
      out.push(
        `<path class="reference counterpart" d="${p}" fill="none" stroke="${r.color}" stroke-width="2"><title>` +
          `${esc(d.series[s].name)}</title></path>`,
      );
      continue;
    }
    let p = '';
    for (let b = 0; b < k; b++) {
      const yy = px(y(share(s, b)));
      p += `${b === 0 ? 'M' : 'L'}${px(M.left + b * bw)},${yy}H${px(M.left + (b + 1) * bw)}`;
    }
    out.push(
      `<path class="reference" d="${p}" fill="none" stroke="${r.color}" ` +
        `stroke-width="1.6"${r.dash ? ' stroke-dasharray="4 2"' : ''}><title>${esc(d.series[s].name)}</title>` +
        `</path>`,
    );
  }
  out.push(frame(M.left, M.top, iw, ih));
  // edge labels, thinned to about 8
  const every = Math.max(1, Math.ceil((k + 1) / 8));
  const labels = edges.map((e) => fmtNum(e, 3));
  const rotate = labels.some((l) => l.length * CH > bw * every * 0.9);
  for (let i = 0; i < edges.length; i += every) {
    const x = M.left + i * bw;
    out.push(`<line x1="${px(x)}" x2="${px(x)}" y1="${px(M.top + ih)}" y2="${px(M.top + ih + 4)}" stroke="${AXIS}"/>`);
    out.push(xTick(labels[i], x, M.top + ih + 15, rotate));
  }
  out.push(axisLabelX(d.feature, M.left + iw / 2, H - 8));
  out.push(axisLabelY('% of rows', 14, M.top + ih / 2));
  return close(out, head);
}

const MAX_CATEGORIES = 30;
/** the longest category label a chart draws whole */
const LABEL_MAX = 40;

/**
 * A categorical feature: grouped bars per category for the compared pair, further series as grey
 * marks across the group; y is % of rows. Beyond 30 categories, the 30 largest are shown.
 */
export function groupedBars(d: Distribution, opts: ChartOptions = {}): string {
  const cats0 = d.categories ?? [];
  const m0 = Math.max(cats0.length, ...d.series.map((s) => s.share.length), 0);
  const share = (s: number, c: number) => num(d.series[s]?.share[c]) * 100;
  let idx = Array.from({ length: m0 }, (_, i) => i);
  let hidden = 0;
  if (m0 > MAX_CATEGORIES) {
    const peak = (c: number) => Math.max(share(0, c), share(1, c));
    idx = idx
      .slice()
      .sort((a, b) => peak(b) - peak(a) || a - b)
      .slice(0, MAX_CATEGORIES)
      .sort((a, b) => a - b);
    hidden = m0 - MAX_CATEGORIES;
  }
  const m = Math.max(1, idx.length);
  const names = idx.map((c) => cats0[c] ?? `category ${c + 1}`);
  const pairs = Math.min(2, d.series.length);
  const groupW = Math.max(28, pairs * 13 + 12);
  const title = opts.title ?? d.feature;
  const subtitle = opts.subtitle ?? jsSubtitle(d) + (hidden ? ` · ${hidden} smaller categories not shown` : '');
  // category names up to 40 characters whole (rotated when they do not fit their group); longer ones shortened, whole
  // in the tooltip
  const short = names.map((n) => truncate(n, LABEL_MAX));
  const W = opts.width ?? Math.max(530, Math.min(1100, 70 + m * groupW));
  const rotate = short.some((l) => l.length * CH > ((W - 70) / m) * 0.95);
  const bottom = rotate ? 30 + Math.min(LABEL_MAX, Math.max(...short.map((s) => s.length), 1)) * CH * 0.62 : 40;
  const lg = legend(seriesLegend(d), 56, 50, W - 70);
  // rotated labels end at their group's centre and run down-left: the left margin makes room for them
  let left = 56;
  if (rotate) {
    for (let pass = 0; pass < 2; pass++) {
      const g = (W - left - 14) / m;
      left = Math.max(56, ...short.map((l, j) => Math.ceil(textW(l, 10) * COS35 + 6 - (j + 0.5) * g)));
    }
  }
  const M = { left, right: 14, top: 50 + lg.height + 4, bottom };
  const H = opts.height ?? 200 + lg.height + bottom;
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  let max = 0;
  d.series.forEach((x, s) => idx.forEach((c) => (max = Math.max(max, share(s, c), 100 * num(x.range?.hi[c])))));
  const ticks = niceTicks(0, Math.max(max, 1));
  const top = ticks[ticks.length - 1];
  const y = (v: number) => M.top + ih - (v / top) * ih;
  const gw = iw / m;
  const barW = Math.min(22, (gw * 0.78) / Math.max(1, pairs));
  const out: string[] = [open('grouped-bars', W, H, `${title}: share of rows per category by series; ${subtitle}`)];
  const head = heading(title, subtitle, M.left, W);
  out.push(head.svg, lg.svg);
  out.push(yGrid(ticks, y, M.left, M.left + iw, (t) => `${fmtNum(t)}%`));
  idx.forEach((c, j) => {
    const cx = M.left + (j + 0.5) * gw;
    const x0 = cx - (pairs * barW) / 2;
    for (let s = 0; s < pairs; s++) {
      const v = share(s, c);
      out.push(
        `<rect x="${px(x0 + s * barW)}" y="${px(y(v))}" width="${px(Math.max(0.5, barW - 1))}" ` +
          `height="${px(M.top + ih - y(v))}" fill="${SERIES_COLORS[s]}" fill-opacity="0.85"><title>` +
          `${esc(d.series[s].name)}, ${esc(names[j])}: ${fmtNum(v, 3)}%</title></rect>`,
      );
      out.push(seedWhisker(d, s, c, x0 + s * barW + (barW - 1) / 2, y));
    }
    for (let s = 2; s < d.series.length; s++) {
      const yy = px(y(share(s, c)));
      const r = referenceStyle(d, s);
      const of = d.series[s].of;
      // a real counterpart: a tick across its own bar; other references: a line across the group
      const [xa, xb] =
        (of === 0 || of === 1) && of < pairs
          ? [x0 + of * barW - 1.5, x0 + (of + 1) * barW + 0.5]
          : [x0 - 3, x0 + pairs * barW + 2];
      out.push(
        `<line class="reference${of === 0 || of === 1 ? ' counterpart' : ''}" x1="${px(xa)}" x2="${px(xb)}" ` +
          `y1="${yy}" y2="${yy}" stroke="${r.color}" stroke-width="2"${r.dash ? ' stroke-dasharray="4 2"' : ''}>` +
          `<title>${esc(d.series[s].name)}, ${esc(names[j])}: ${fmtNum(share(s, c), 3)}%</title></line>`,
      );
    }
    out.push(xTick(short[j], cx, M.top + ih + 14, rotate, names[j]));
  });
  out.push(frame(M.left, M.top, iw, ih));
  out.push(axisLabelX(d.feature, M.left + iw / 2, H - 6));
  out.push(axisLabelY('% of rows', 14, M.top + ih / 2));
  return close(out, head);
}

/** A distribution chart: histogramPair for numeric features, groupedBars for categorical ones. */
export function distributionChart(d: Distribution, opts: ChartOptions = {}): string {
  return d.kind === 'numeric' ? histogramPair(d, opts) : groupedBars(d, opts);
}

/** Horizontal bars of the JS distance per feature (largest first), coloured by role. */
export function jsRanking(
  dists: readonly Distribution[],
  opts: ChartOptions & { max?: number; xLabel?: string } = {},
): string {
  const all = dists.slice().sort((a, b) => num(b.js) - num(a.js));
  const shown = all.slice(0, opts.max ?? 25);
  const names = shown.map((d) => truncate(d.feature, LABEL_MAX));
  const left = Math.max(60, 16 + Math.max(0, ...names.map((n) => n.length)) * CH + 22);
  const W = opts.width ?? 620;
  const roleColor = { feature: OKABE_ITO.blue, protected: OKABE_ITO.vermillion, proxy: OKABE_ITO.purple } as const;
  const roles = (['feature', 'protected', 'proxy'] as const).filter((r) => shown.some((d) => d.role === r));
  const lg = legend(
    roles.map((r) => ({
      name:
        r === 'feature'
          ? 'feature'
          : r === 'protected'
            ? 'protected (model reads it)'
            : 'proxy (model does not read it)',
      color: roleColor[r],
      style: 'fill' as const,
    })),
    left,
    50,
    W - left - 10,
  );
  const M = { left, right: 40, top: 50 + lg.height + 4, bottom: 40 };
  const rowH = 18;
  const H = opts.height ?? M.top + M.bottom + Math.max(1, shown.length) * rowH;
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const ticks = niceTicks(
    0,
    Math.max(0.05, ...shown.map((d) => Math.max(num(d.js), ...(d.jsSeeds ?? []).filter(finite)))),
    5,
  );
  const top = ticks[ticks.length - 1];
  const x = (v: number) => M.left + (v / top) * iw;
  const title = opts.title ?? 'Features ranked by Jensen–Shannon distance';
  const subtitle =
    opts.subtitle ??
    (all.length > shown.length ? `top ${shown.length} of ${all.length} features` : `${all.length} features`);
  const out: string[] = [open('js-ranking', W, H, `${title}; ${subtitle}`)];
  const head = heading(title, subtitle, 14, W);
  out.push(head.svg, lg.svg);
  for (const t of ticks)
    out.push(
      `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${px(M.top)}" y2="${px(M.top + ih)}" stroke="${GRID}"/><text ` +
        `class="tick" x="${px(x(t))}" y="${px(M.top + ih + 13)}" text-anchor="middle" font-size="10">` +
        `${fmtNum(t)}</text>`,
    );
  const rh = ih / Math.max(1, shown.length);
  shown.forEach((d, i) => {
    const yy = M.top + i * rh;
    const v = num(d.js);
    out.push(
      `<text class="tick" x="${px(M.left - 5)}" y="${px(yy + rh / 2 + 3.5)}" text-anchor="end" font-size="10.5">` +
        `${d.feature.length > 24 ? `<title>${esc(d.feature)}</title>` : ''}${esc(names[i])}</text>`,
    );
    out.push(
      `<rect x="${px(M.left)}" y="${px(yy + rh * 0.15)}" width="${px(x(v) - M.left)}" height="${px(rh * 0.7)}" ` +
        `fill="${roleColor[d.role] ?? OKABE_ITO.blue}"><title>${esc(d.feature)}: ${fmtJs(d.js)}</title></rect>`,
    );
    const seeds = d.jsSeeds?.filter(finite) ?? [];
    if (seeds.length > 1)
      out.push(
        `<line class="seed-range" x1="${px(x(Math.min(...seeds)))}" x2="${px(x(Math.max(...seeds)))}" ` +
          `y1="${px(yy + rh / 2)}" y2="${px(yy + rh / 2)}" stroke="#222222" stroke-width="1.2"><title>` +
          `${esc(d.feature)}: ${fmtJs(Math.min(...seeds))}–${fmtJs(Math.max(...seeds))} over the GAN ` +
          `seeds</title></line>`,
      );
    out.push(
      `<text x="${px(x(Math.max(v, ...seeds)) + 4)}" y="${px(yy + rh / 2 + 3.5)}" font-size="10">${fmtJs(d.js)}</text>`,
    );
  });
  out.push(frame(M.left, M.top, iw, ih));
  out.push(axisLabelX(opts.xLabel ?? 'Jensen–Shannon distance (positive vs negative set)', M.left + iw / 2, H - 8));
  out.push(axisLabelY('feature', 12, M.top + ih / 2));
  return close(out, head);
}

/**
 * A comparison's mark on a group's bar: a flag (with its direction) or an inconclusive result; text, never colour
 * alone.
 */
export type RateMark = 'disadvantaged' | 'advantaged' | 'differs' | 'inconclusive' | 'too little data' | null;

export interface RateGroup {
  value: string;
  n: number;
  reference: boolean;
  small: boolean;
  /** per panel: the rate (null where undefined) */
  rates: (number | null)[];
  /** per panel: its interval (null where undefined) */
  intervals: ({ lo: number; hi: number } | null)[];
  /** per panel: the verdict mark of the comparison with the reference */
  marks: RateMark[];
  /** written where a rate is missing instead of "—", e.g. "suppressed" */
  note?: string;
}

export interface GroupRatesData {
  attribute: string;
  /** the panels' names, e.g. ["selection rate", "TPR", "FPR"] */
  panels: string[];
  groups: RateGroup[];
  /** the intervals' confidence, e.g. 0.95 */
  confidence: number;
  /** what the intervals are, for the subtitle, e.g. "Wilson" */
  intervalName: string;
}

/** vermillion darkened for text on white (contrast ≥ 4.5) */
const FLAG_TEXT = '#a03d00';
const MARK_TEXT: Record<Exclude<RateMark, null>, string> = {
  disadvantaged: `⚑${DIRECTION_ARROW.disadvantaged}`,
  advantaged: `⚑${DIRECTION_ARROW.advantaged}`,
  differs: `⚑${DIRECTION_ARROW.differs}`,
  inconclusive: '?',
  'too little data': '–',
};
const isFlag = (m: RateMark): boolean => m === 'disadvantaged' || m === 'advantaged' || m === 'differs';

/**
 * Rates per group of one attribute, one panel per metric (fairlearn's MetricFrame.by_group plot):
 * a bar per group with its interval as a whisker, the reference group's rate as a dashed line, small
 * groups hatched, and each flagged or inconclusive comparison marked with a symbol beside the value.
 * Each panel has its own scale from 0 to a round number above its largest interval, so that 6% and
 * 20% do not look alike.
 */
export function groupRates(d: GroupRatesData, opts: ChartOptions = {}): string {
  const G = d.groups.length;
  const P = Math.max(1, d.panels.length);
  // group names up to about 40 characters whole (an intersection's "Asian-Pac-Islander, (28, 37]"); longer ones
  // shortened, whole in the tooltip
  const names = d.groups.map((g) => fitText(`${g.reference ? '★ ' : ''}${g.value}`, 260, 10.5));
  const counts = d.groups.map((g) => `n ${fmtNum(g.n)}`);
  const left =
    14 + Math.max(40, ...names.map((n) => textW(n, 10.5))) + 8 + Math.max(30, ...counts.map((c) => textW(c, 9))) + 8;
  const pw = opts.width ? Math.max(110, (opts.width - left - 10) / P - 14) : 120;
  const gap = 14;
  const W = opts.width ?? Math.ceil(left + P * (pw + gap) + 6);
  const rowH = 19;
  const title = opts.title ?? `${d.attribute}: rates per group`;
  const subtitle =
    opts.subtitle ??
    `bar: the rate; whisker: the group's own ${Math.round(d.confidence * 100)}% ${d.intervalName} interval (not the ` +
      `test); dashed: the reference ★`;
  // the flags in words for screen readers, which get no colour, position or symbol key
  const flags = d.groups.flatMap((g) =>
    g.marks.map((m, p) => (isFlag(m) ? `${g.value} ${d.panels[p]} ${m}` : null)).filter((x): x is string => x !== null),
  );
  const spoken = flags.length
    ? `; flagged: ${flags.slice(0, 8).join(', ')}${flags.length > 8 ? ` and ${flags.length - 8} more` : ''}`
    : '; nothing flagged';
  const items: LegendItem[] = [
    { name: 'rate', color: OKABE_ITO.blue, style: 'fill' },
    { name: 'reference ★', color: OKABE_ITO.skyBlue, style: 'fill' },
    { name: `${Math.round(d.confidence * 100)}% interval`, color: '#222222', style: 'line' },
    { name: 'reference rate', color: '#222222', style: 'dash' },
  ];
  if (d.groups.some((g) => g.marks.includes('disadvantaged')))
    items.push({ name: 'flagged: disadvantaged', color: OKABE_ITO.vermillion, style: 'fill' });
  if (d.groups.some((g) => g.small)) items.push({ name: 'small group', color: '#555555', style: 'hatch' });
  const lg = legend(items, 14, 50, W - 28);
  const top = 50 + lg.height + 18;
  // the key of the marks, on one line or two where the chart is narrow
  const keyParts = [
    `marks: ${MARK_TEXT.disadvantaged} ${MARK_TEXT.advantaged} ${MARK_TEXT.differs} flagged (disadvantaged, ` +
      `advantaged, differs)`,
    `? inconclusive · – too little data · none: pass · › cut at the scale's end`,
  ];
  const keyLines = textW(keyParts.join(' · '), 10) <= W - 28 ? [keyParts.join(' · ')] : keyParts;
  const bottom = 28 + 13 * keyLines.length;
  const H = opts.height ?? top + Math.max(1, G) * rowH + bottom;
  const ih = Math.max(1, G) * rowH;
  const out: string[] = [open('group-rates', W, H, `${title}; ${subtitle}${spoken}`)];
  const head = heading(title, subtitle, 14, W);
  out.push(head.svg, lg.svg);
  d.groups.forEach((g, i) => {
    const yy = top + i * rowH + rowH / 2 + 3.5;
    const full = `${g.reference ? '★ ' : ''}${g.value}`;
    out.push(
      `<text class="tick" x="${px(14)}" y="${px(yy)}" font-size="10.5"${g.reference ? ' font-weight="600"' : ''}>` +
        `${names[i] !== full ? `<title>${esc(full)}</title>` : ''}${esc(names[i])}</text>`,
    );
    out.push(
      `<text class="tick" x="${px(left - 8)}" y="${px(yy)}" text-anchor="end" font-size="9" fill="#555555">` +
        `${esc(counts[i])}${g.small ? ' ⚠' : ''}</text>`,
    );
  });
  const valueRoom = 46;
  d.panels.forEach((name, p) => {
    const x0 = left + p * (pw + gap);
    const hiOf = (g: RateGroup) => Math.max(num(g.rates[p]), num(g.intervals[p]?.hi));
    // the scale follows the groups that are not small: a small group's wide interval would squash the rest (its bar is
    // cut at the end, its value written)
    const scaled = d.groups.some((g) => !g.small) ? d.groups.filter((g) => !g.small) : d.groups;
    const ticks = niceTicks(0, Math.max(0.01, ...scaled.map(hiOf)), 3);
    const tmax = ticks[ticks.length - 1];
    const iw = pw - valueRoom;
    const x = (v: number) => x0 + (Math.max(0, Math.min(tmax, v)) / tmax) * iw;
    out.push(
      `<text class="panel-title" x="${px(x0)}" y="${px(top - 8)}" font-size="11" font-weight="600">` +
        `${esc(fitText(name, pw, 11, true))}</text>`,
    );
    for (const t of ticks)
      out.push(
        `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${px(top)}" y2="${px(top + ih)}" stroke="${GRID}"/><text ` +
          `class="tick" x="${px(x(t))}" y="${px(top + ih + 12)}" text-anchor="middle" font-size="9.5">` +
          `${esc(fmtPct(t, Number.isInteger(Math.round(t * 1e6) / 1e4) ? 0 : 1))}</text>`,
      );
    d.groups.forEach((g, i) => {
      const yy = top + i * rowH;
      const v = g.rates[p];
      const ci = g.intervals[p];
      const mark = g.marks[p];
      const tip =
        `${d.attribute} = ${g.value}: ${name} ${fmtPct(v)}${ci ? ` [${fmtPct(ci.lo)}, ${fmtPct(ci.hi)}]` : ''}, n ` +
        `= ${fmtNum(g.n)}${g.reference ? ' (reference)' : ''}${g.small ? ' (small group)' : ''}` +
        `${mark ? ` — ${isFlag(mark) ? `flagged: ${mark}` : mark}` : ''}`;
      out.push(`<g class="rate${g.small ? ' small' : ''}${mark ? ` ${mark}` : ''}"><title>${esc(tip)}</title>`);
      if (finite(v)) {
        const fill = g.reference ? OKABE_ITO.skyBlue : mark === 'disadvantaged' ? OKABE_ITO.vermillion : OKABE_ITO.blue;
        const bw = Math.max(0.5, x(v) - x0);
        out.push(
          `<rect x="${px(x0)}" y="${px(yy + 4)}" width="${px(bw)}" height="${px(rowH - 8)}" ` +
            `fill="${g.small ? '#ffffff' : fill}"${g.small ? ` stroke="${fill}"` : ''}/>`,
        );
        if (g.small) out.push(hatchLines(x0, yy + 4, bw, rowH - 8, 4, fill));
      }
      if (ci) {
        const cy = yy + rowH / 2;
        out.push(
          `<path class="interval" d="M${px(x(ci.lo))},${px(cy)}H${px(x(ci.hi))}M${px(x(ci.lo))},${px(cy - 4)}V` +
            `${px(cy + 4)}M${px(x(ci.hi))},${px(cy - 4)}V${px(cy + 4)}" stroke="#222222" stroke-width="1.1" ` +
            `fill="none"/>`,
        );
      }
      // a bar or whisker past the panel's scale (a small group's) is cut at its end: "›" says so
      const cut = hiOf(g) > tmax * (1 + 1e-9);
      const label =
        `${cut ? '› ' : ''}${finite(v) ? fmtPct(v, v < 0.1 ? 1 : 0) : (g.note ?? '—')}` +
        `${mark ? ` ${MARK_TEXT[mark]}` : ''}`;
      out.push(
        `<text x="${px(Math.min(x0 + iw, x(hiOf(g))) + 4)}" y="${px(yy + rowH / 2 + 3.5)}" ` +
          `font-size="9.5"${isFlag(mark) ? ` font-weight="600" fill="${FLAG_TEXT}"` : ''}>${esc(label)}</text>` +
          `</g>`,
      );
    });
    const ref = d.groups.find((g) => g.reference);
    const rv = ref?.rates[p];
    if (finite(rv))
      out.push(
        `<line class="reference" x1="${px(x(rv))}" x2="${px(x(rv))}" y1="${px(top - 2)}" y2="${px(top + ih + 2)}" ` +
          `stroke="#222222" stroke-dasharray="3 2"/>`,
      );
    out.push(frame(x0, top, iw, ih));
  });
  keyLines.forEach((k, i) => {
    const shown = fitText(k, W - 28, 10);
    out.push(
      `<text class="axis-label" x="${px(14)}" y="${px(H - 8 - 13 * (keyLines.length - 1 - i))}" font-size="10" ` +
        `fill="#555555">${shown !== k ? `<title>${esc(k)}</title>` : ''}${esc(shown)}</text>`,
    );
  });
  return close(out, head);
}

export interface LineSeries {
  name: string;
  /** y values at x = 1, 2, …; null / non-finite values leave a gap */
  values: readonly (number | null)[];
  color?: string;
}

/** An SVG path through the finite values (index → x, value → y), lifting the pen at each missing one. */
function gappedPath(values: readonly (number | null)[], x: (i: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (!finite(v)) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${px(x(i))},${px(y(v))}`;
    pen = true;
  });
  return d;
}

/** A small line chart (e.g. a loss curve) over x = 1..n. */
export function lineChart(
  series: readonly LineSeries[],
  opts: ChartOptions & { xLabel: string; yLabel: string },
): string {
  const W = opts.width ?? 520;
  const H = opts.height ?? 240;
  const title = opts.title ?? opts.yLabel;
  const lg = legend(
    series.map((s, i) => ({
      name: s.name,
      color: s.color ?? SERIES_COLORS[i % SERIES_COLORS.length],
      style: 'line' as const,
    })),
    60,
    50,
    W - 70,
  );
  const M = { left: 60, right: 16, top: 50 + lg.height + 2, bottom: 42 };
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const n = Math.max(1, ...series.map((s) => s.values.length));
  const vals = series.flatMap((s) => s.values.filter(finite));
  const lo = vals.length ? Math.min(...vals) : 0;
  const hi = vals.length ? Math.max(...vals) : 1;
  const yt = niceTicks(lo, hi, 4);
  const y0 = yt[0];
  const y1 = yt[yt.length - 1];
  const y = (v: number) => M.top + ih - ((v - y0) / (y1 - y0 || 1)) * ih;
  const x = (i: number) => M.left + (n === 1 ? iw / 2 : (i / (n - 1)) * iw);
  const out: string[] = [open('line', W, H, `${title}; ${opts.xLabel} vs ${opts.yLabel}`)];
  const head = heading(title, opts.subtitle, M.left, W);
  out.push(head.svg, lg.svg);
  out.push(yGrid(yt, y, M.left, M.left + iw, (t) => fmtNum(t)));
  const xt = niceTicks(1, Math.max(2, n), 6).filter((t) => t >= 1 && t <= n && Number.isInteger(t));
  for (const t of xt)
    out.push(
      `<text class="tick" x="${px(x(t - 1))}" y="${px(M.top + ih + 13)}" text-anchor="middle" font-size="10">` +
        `${fmtNum(t)}</text>`,
    );
  series.forEach((s, si) => {
    const color = s.color ?? SERIES_COLORS[si % SERIES_COLORS.length];
    const d = gappedPath(s.values, x, y);
    if (d)
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8"><title>${esc(s.name)}</title></path>`);
    if (s.values.filter(finite).length === 1) {
      const i = s.values.findIndex(finite);
      out.push(`<circle cx="${px(x(i))}" cy="${px(y(s.values[i] as number))}" r="2.5" fill="${color}"/>`);
    }
  });
  out.push(frame(M.left, M.top, iw, ih));
  out.push(axisLabelX(opts.xLabel, M.left + iw / 2, H - 8));
  out.push(axisLabelY(opts.yLabel, 14, M.top + ih / 2));
  return close(out, head);
}

/** One group's selection-rate ratio to the reference at each threshold of a sweep, with its pointwise interval. */
export interface RatioCurveSeries {
  name: string;
  /** per threshold (the chart's `thresholds`, same order): the ratio and its interval, null where undefined */
  points: readonly { ratio: number | null; lo: number | null; hi: number | null }[];
}

/**
 * The selection-rate ratios of a score's groups to the reference across thresholds: x = the threshold (the score's
 * scale), y = the ratio on a log axis (a ratio and its inverse equally far from 1), the band [τ, 1/τ] shaded, each
 * group's line with its pointwise interval as a ribbon of its colour. Ratios and interval ends are clamped into the
 * drawn range, which always holds the band.
 */
export function ratioCurve(
  thresholds: readonly number[],
  series: readonly RatioCurveSeries[],
  band: readonly [number, number],
  opts: ChartOptions & { xLabel: string; reference: string },
): string {
  const W = opts.width ?? 560;
  const H = opts.height ?? 280;
  const title = opts.title ?? `Selection-rate ratio to ${opts.reference} across thresholds`;
  const colors = series.map((_, i) => SERIES_COLORS[i % SERIES_COLORS.length]);
  const lg = legend(
    [
      { name: `band [${fmtNum(band[0], 3)}, ${fmtNum(band[1], 3)}]`, color: '#2e7d32', style: 'band' as const },
      ...series.map((s, i) => ({ name: s.name, color: colors[i], style: 'line' as const })),
    ],
    60,
    50,
    W - 70,
  );
  const M = { left: 60, right: 16, top: 50 + lg.height + 2, bottom: 42 };
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  // the y range on the log scale: the band, every ratio, and the intervals within [1/8, 8] (wider ones are clamped)
  const logs = [Math.log(band[0]), Math.log(band[1])];
  for (const s of series)
    for (const p of s.points)
      for (const v of [p.ratio, p.lo, p.hi])
        if (finite(v) && v > 0) logs.push(Math.max(-Math.log(8), Math.min(Math.log(8), Math.log(v))));
  const lo = Math.min(...logs) - 0.05;
  const hi = Math.max(...logs) + 0.05;
  const y = (v: number) => M.top + ih - ((Math.min(hi, Math.max(lo, Math.log(v))) - lo) / (hi - lo)) * ih;
  const x0 = thresholds.length ? Math.min(...thresholds) : 0;
  const x1 = thresholds.length ? Math.max(...thresholds) : 1;
  const x = (t: number) => M.left + (x1 === x0 ? iw / 2 : ((t - x0) / (x1 - x0)) * iw);
  const out: string[] = [open('ratio-curve', W, H, `${title}; ${opts.xLabel} vs the ratio (log scale)`)];
  const head = heading(title, opts.subtitle, M.left, W);
  out.push(head.svg, lg.svg);
  const ticks = [0.125, 0.25, 0.5, 0.8, 1, 1.25, 2, 4, 8].filter((t) => Math.log(t) >= lo && Math.log(t) <= hi);
  out.push(yGrid(ticks, y, M.left, M.left + iw, (t) => `×${fmtNum(t, 3)}`));
  out.push(
    `<rect class="band" x="${px(M.left)}" y="${px(y(band[1]))}" width="${px(iw)}" ` +
      `height="${px(y(band[0]) - y(band[1]))}" fill="#2e7d32" fill-opacity="0.12"><title>the band: ratios inside ` +
      `[${fmtNum(band[0], 3)}, ${fmtNum(band[1], 3)}] pass</title></rect>`,
  );
  out.push(
    `<line x1="${px(M.left)}" x2="${px(M.left + iw)}" y1="${px(y(1))}" y2="${px(y(1))}" stroke="${AXIS}" ` +
      `stroke-dasharray="3 3"/>`,
  );
  for (const t of niceTicks(x0, x1, 6).filter((t) => t >= x0 && t <= x1))
    out.push(
      `<text class="tick" x="${px(x(t))}" y="${px(M.top + ih + 13)}" text-anchor="middle" font-size="10">` +
        `${fmtNum(t, 3)}</text>`,
    );
  series.forEach((s, si) => {
    // the ribbon: runs of thresholds with an interval, the upper ends left to right and the lower ends back
    let run: number[] = [];
    const flush = () => {
      if (run.length > 1) {
        const up = run.map((i) => `${px(x(thresholds[i]))},${px(y(s.points[i].hi as number))}`);
        const down = run.map((i) => `${px(x(thresholds[i]))},${px(y(s.points[i].lo as number))}`).reverse();
        out.push(
          `<path class="ribbon" d="M${up.join('L')}L${down.join('L')}Z" fill="${colors[si]}" fill-opacity="0.15"/>`,
        );
      }
      run = [];
    };
    s.points.forEach((p, i) => {
      if (finite(p.lo) && finite(p.hi) && p.lo > 0 && p.hi > 0) run.push(i);
      else flush();
    });
    flush();
    const d = gappedPath(
      s.points.map((p) => (finite(p.ratio) && p.ratio > 0 ? p.ratio : null)),
      (i) => x(thresholds[i]),
      y,
    );
    if (d)
      out.push(
        `<path d="${d}" fill="none" stroke="${colors[si]}" stroke-width="1.8"><title>${esc(s.name)}</title></path>`,
      );
  });
  out.push(frame(M.left, M.top, iw, ih));
  out.push(axisLabelX(opts.xLabel, M.left + iw / 2, H - 8));
  out.push(axisLabelY(`ratio to ${opts.reference} (log)`, 14, M.top + ih / 2));
  return close(out, head);
}

function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  const u = Math.min(1, Math.max(0, finite(t) ? t : 0));
  return `#${pa
    .map((v, i) =>
      Math.round(v + (pb[i] - v) * u)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Sequential (light → dark blue) colour for t in [0, 1]. */
export function sequentialColor(t: number): string {
  return t < 0.5 ? mix('#f2f7fb', '#6baed6', t * 2) : mix('#6baed6', '#08306b', (t - 0.5) * 2);
}

/** Diverging colour for t in [−1, 1]: purple (negative) – near white – orange (positive); colour-blind safe (PuOr). */
export function divergingColor(t: number): string {
  const v = Math.max(-1, Math.min(1, finite(t) ? t : 0));
  return v < 0 ? mix('#f7f7f7', '#542788', -v) : mix('#f7f7f7', '#b35806', v);
}

function isDark(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}

/** The same grid with rows and columns swapped. */
export function transposeHeatmap(h: IntersectionHeatmap): IntersectionHeatmap {
  const t = <T>(m: T[][]): T[][] => h.colValues.map((_, c) => h.rowValues.map((_, r) => m[r]?.[c] as T));
  return {
    rowAttribute: h.colAttribute,
    colAttribute: h.rowAttribute,
    rowValues: h.colValues,
    colValues: h.rowValues,
    n: t(h.n),
    selectionRate: t(h.selectionRate),
    canonicalShift: h.canonicalShift ? t(h.canonicalShift) : null,
    ...(h.shiftStatus ? { shiftStatus: t(h.shiftStatus) } : {}),
    small: h.small.map(([r, c]) => [c, r] as [number, number]),
    ...(h.suppressed ? { suppressed: h.suppressed.map(([r, c]) => [c, r] as [number, number]) } : {}),
  };
}

/** The top of the selection-rate colour scale: the smallest of 10%, 20%, 25%, 50%, 75% and 100% at or above `max`. */
export function selectionScale(max: number): number {
  const m = finite(max) ? max : 1;
  return [0.1, 0.2, 0.25, 0.5, 0.75, 1].find((t) => m <= t + 1e-12) ?? 1;
}

/**
 * The symbol of a heat-map cell's check against the real rows (beside its n): the status is never shown by colour
 * alone.
 */
export const SHIFT_MARK: Record<ShiftStatus, string> = {
  agrees: '✓',
  overstates: '↑?',
  understates: '↓?',
  disagrees: '✗',
  unsettled: '±',
  'within noise': '~',
};

export interface HeatmapOptions extends ChartOptions {
  /**
   * which value fills the cells: the model's selection rate in the data, or the canonical shift (favourable set −
   * unfavourable set)
   */
  value?: 'selection' | 'shift';
}

/**
 * A grid of a pair of protected attributes: each cell shows its value and its data rows (n); cells with
 * fewer than minGroupSize rows are hatched, empty cells grey. The selection rate uses a sequential scale from 0
 * to selectionScale(largest rate), the canonical shift a diverging scale symmetric around 0; a colour legend sits on
 * the right.
 */
export function heatmap(h0: IntersectionHeatmap, opts: HeatmapOptions = {}): string {
  // the attribute with more values runs down the rows: rows cost height, columns cost width, which pages lack
  const h = h0.colValues.length > h0.rowValues.length ? transposeHeatmap(h0) : h0;
  const which = opts.value ?? 'selection';
  const grid = which === 'shift' ? h.canonicalShift : h.selectionRate;
  const R = h.rowValues.length;
  const C = h.colValues.length;
  const small = new Set(h.small.map(([r, c]) => `${r},${c}`));
  // --suppress-below: the selection map shows no rate for these cells, only "suppressed"
  const suppressed = new Set((h.suppressed ?? []).map(([r, c]) => `${r},${c}`));
  const cell = (r: number, c: number): number | null => {
    const v = grid?.[r]?.[c];
    return finite(v) ? v : null;
  };
  let amax = 0;
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) amax = Math.max(amax, Math.abs(cell(r, c) ?? 0));
  // selection: 0 to a round number above the largest rate, not to 100%, so that 6% and 20% differ
  const span = which === 'shift' ? Math.max(amax, 0.01) : selectionScale(amax);
  const color = (v: number) => (which === 'shift' ? divergingColor(v / span) : sequentialColor(v / span));
  const label = (v: number) => (which === 'shift' ? fmtPp(v) : fmtPct(v));
  // long values wrap onto lines of their row or column instead of being shortened
  const rowLines = h.rowValues.map((v) => wrapLine(v, 22, 0));
  const colLines = h.colValues.map((v) => wrapLine(v, 18, 0));
  const cw = Math.max(76, Math.min(120, 8 + Math.max(0, ...colLines.flat().map((n) => [...n].length)) * CH));
  const ch = 38;
  const left = 40 + Math.max(20, ...rowLines.flat().map((n) => [...n].length * CH)) + 8;
  const legendW = 150;
  const top = 58;
  const bottom = 48;
  const TICK_LINE = 12;
  const colExtra = (Math.max(1, ...colLines.map((l) => l.length)) - 1) * TICK_LINE;
  const H = opts.height ?? top + Math.max(1, R) * ch + bottom + 18 + colExtra;
  const lines = (ls: string[], x: number) =>
    ls.map((l, i) => (i === 0 ? esc(l) : `<tspan x="${px(x)}" dy="${TICK_LINE}">${esc(l)}</tspan>`)).join('');
  const title =
    opts.title ??
    (which === 'shift'
      ? `Canonical shift: ${h.rowAttribute} × ${h.colAttribute}`
      : `Selection rate: ${h.rowAttribute} × ${h.colAttribute}`);
  const subtitle =
    opts.subtitle ??
    (which === 'shift'
      ? 'share of the favourable canonical set minus share of the unfavourable set, per cell'
      : "the model's selection rate in the data per cell (the share given the favourable decision); n = data rows");
  // wide enough for the cells and the legend (the title and subtitle wrap within it)
  const W = opts.width ?? Math.ceil(Math.max(380, left + Math.max(1, C) * cw + legendW + 10));
  const out: string[] = [open('heatmap', W, H, `${title}; ${subtitle}`)];
  const head = heading(title, subtitle, 14, W);
  out.push(head.svg);
  for (let r = 0; r < R; r++) {
    const yy = top + r * ch;
    out.push(
      `<text class="tick" x="${px(left - 6)}" y="${px(yy + ch / 2 + 4 - ((rowLines[r].length - 1) * TICK_LINE) / 2)}` +
        `" text-anchor="end" font-size="10.5">${lines(rowLines[r], left - 6)}</text>`,
    );
    for (let c = 0; c < C; c++) {
      const xx = left + c * cw;
      const v = cell(r, c);
      const n = h.n?.[r]?.[c];
      const fill = v === null ? '#e9e9e9' : color(v);
      const tc = v !== null && isDark(fill) ? '#ffffff' : TEXT;
      const isSmall = small.has(`${r},${c}`);
      // the shift map marks cells whose shift the real rows contradict
      const status = which === 'shift' ? (h.shiftStatus?.[r]?.[c] ?? null) : null;
      const disagrees = status === 'disagrees';
      // the check's status as a symbol, never by the outline's colour alone
      const mark = status ? ` ${SHIFT_MARK[status]}` : '';
      const supp = which === 'selection' && suppressed.has(`${r},${c}`);
      const tip = `${h.rowAttribute} = ${h.rowValues[r]}, ${h.colAttribute} = ${h.colValues[c]}: ${
        supp ? 'suppressed (fewer people than the suppression threshold)' : v === null ? 'no value' : label(v)
      }, n = ${fmtNum(n)}${isSmall ? ' (small group)' : ''}${status ? `; the real rows: ${status}` : ''}${
        disagrees
          ? ' (every GAN seed shifts against the real rows: not a finding)'
          : status === 'unsettled'
            ? ' (the GAN seeds do not share a sign: not a finding)'
            : status === 'overstates' || status === 'understates'
              ? ` (the direction agrees; the shift ${status} the real rows' size)`
              : ''
      }`;
      out.push(`<g class="cell${isSmall ? ' small' : ''}${v === null ? ' empty' : ''}"><title>${esc(tip)}</title>`);
      out.push(`<rect x="${px(xx)}" y="${px(yy)}" width="${px(cw - 2)}" height="${px(ch - 2)}" fill="${fill}"/>`);
      if (isSmall) out.push(hatchLines(xx, yy, cw - 2, ch - 2, 7, tc === '#ffffff' ? '#ffffff' : '#555555'));
      out.push(
        `<text x="${px(xx + (cw - 2) / 2)}" y="${px(yy + 16)}" text-anchor="middle" font-size="11.5" ` +
          `font-weight="600" fill="${tc}">${supp ? 'suppressed' : v === null ? '—' : esc(label(v))}</text>`,
      );
      out.push(
        `<text x="${px(xx + (cw - 2) / 2)}" y="${px(yy + 29)}" text-anchor="middle" font-size="9.5" fill="${tc}">` +
          `n=${fmtNum(n)}${isSmall ? ' ⚠' : ''}${mark}</text>`,
      );
      if (disagrees)
        out.push(
          `<rect class="disagrees" x="${px(xx + 1.5)}" y="${px(yy + 1.5)}" width="${px(cw - 5)}" ` +
            `height="${px(ch - 5)}" fill="none" stroke="#b3261e" stroke-width="2.5" stroke-dasharray="5 3"/>`,
        );
      out.push('</g>');
    }
  }
  for (let c = 0; c < C; c++) {
    const cx = left + c * cw + (cw - 2) / 2;
    out.push(
      `<text class="tick" x="${px(cx)}" y="${px(top + R * ch + 12)}" text-anchor="middle" font-size="10">` +
        `${lines(colLines[c], cx)}</text>`,
    );
  }
  out.push(axisLabelX(h.colAttribute, left + (C * cw) / 2, top + R * ch + 30 + colExtra));
  out.push(axisLabelY(h.rowAttribute, 14, top + (R * ch) / 2));
  // colour legend: 10 steps
  const lx = left + C * cw + 22;
  const steps = 10;
  const lh = Math.max(80, Math.min(160, R * ch));
  const sh = lh / steps;
  out.push(
    `<g class="legend"><text x="${px(lx)}" y="${px(top - 6)}" font-size="10">` +
      `${which === 'shift' ? 'shift (pp)' : 'selection'}</text>`,
  );
  for (let i = 0; i < steps; i++) {
    // top = high
    const t = 1 - (i + 0.5) / steps;
    const v = which === 'shift' ? (t * 2 - 1) * span : t * span;
    out.push(`<rect x="${px(lx)}" y="${px(top + i * sh)}" width="14" height="${px(sh + 0.3)}" fill="${color(v)}"/>`);
  }
  const ends = which === 'shift' ? [span, 0, -span] : [span, span / 2, 0];
  ends.forEach((v, i) =>
    out.push(
      `<text x="${px(lx + 18)}" y="${px(top + (i * lh) / 2 + 4)}" font-size="10">` +
        `${esc(which === 'shift' ? fmtPp(v) : fmtPct(v, Number.isInteger(Math.round(v * 1e6) / 1e4) ? 0 : 1))}` +
        `</text>`,
    ),
  );
  if (which === 'shift') {
    out.push(`<text x="${px(lx)}" y="${px(top + lh + 14)}" font-size="9.5">↑ more in favourable set</text>`);
    out.push(`<text x="${px(lx)}" y="${px(top + lh + 26)}" font-size="9.5">↓ more in unfavourable set</text>`);
  }
  const hy = top + lh + (which === 'shift' ? 36 : 14);
  if (hy + 12 < H) {
    out.push(
      `<rect x="${px(lx)}" y="${px(hy)}" width="14" height="10" fill="#ffffff" stroke="#555555"/>` +
        `${hatchLines(lx, hy, 14, 10, 4)}<text x="${px(lx + 18)}" y="${px(hy + 9)}" font-size="9.5">small ` +
        `group</text>`,
    );
  }
  if (which === 'shift' && h.shiftStatus?.some((row) => row.includes('disagrees')) && hy + 28 < H) {
    out.push(
      `<rect x="${px(lx)}" y="${px(hy + 16)}" width="14" height="10" fill="none" stroke="#b3261e" stroke-width="2" ` +
        `stroke-dasharray="4 2"/><text x="${px(lx + 18)}" y="${px(hy + 25)}" font-size="9.5">` +
        `${SHIFT_MARK.disagrees} data disagrees</text>`,
    );
  }
  out.push('</g>');
  return close(out, head);
}

export interface FaleChartOptions extends ChartOptions {
  /** the metric name for the y label, e.g. "spd" */
  metric?: string;
  /** how to name the unprivileged group in the legend */
  unprivileged?: string;
  privileged?: string;
}

/**
 * One FALE feature: the accumulated FALE values over the edges (continuous) or categories, the
 * bootstrap band where defined (null bounds leave gaps), undefined bins shaded and marked ×, and per
 * bin the rows of the unprivileged and privileged groups as bars in a panel beneath.
 */
export function faleChart(f: FaleFeature, opts: FaleChartOptions = {}): string {
  const cont = f.kind === 'continuous';
  const P = Math.max(1, f.values.length);
  const labels = cont ? (f.edges ?? []).map((e) => fmtNum(e, 3)) : (f.categories ?? []).map((c) => truncate(c, 16));
  const full = cont ? labels : (f.categories ?? []);
  const metric = (opts.metric ?? 'metric').toUpperCase();
  // three charts of up to eight points fit beside each other on a report page
  const W = opts.width ?? Math.max(380, Math.min(1000, 90 + P * 40));
  const items: LegendItem[] = [{ name: `FALE of ${metric}`, color: OKABE_ITO.black, style: 'line' }];
  if (f.ci)
    items.push({ name: `${Math.round(f.ci.level * 100)}% bootstrap band`, color: OKABE_ITO.black, style: 'band' });
  items.push({ name: opts.unprivileged ?? 'unprivileged rows', color: OKABE_ITO.orange, style: 'fill' });
  items.push({ name: opts.privileged ?? 'privileged rows', color: OKABE_ITO.blue, style: 'fill' });
  if (f.undefined.length) items.push({ name: 'undefined bin', color: '#999999', style: 'hatch' });
  const lg = legend(items, 64, 50, W - 80);
  const rotate = labels.some((l) => l.length * CH > ((W - 80) / P) * 0.9);
  // room below for the rotated labels (they run down-left from their point) and the axis label, and
  // on the right for half the last label when it stands upright under the panel's right end
  const longest = Math.max(1, ...labels.map((l) => textW(l, 10)));
  const lastHalf = labels.length ? textW(labels[labels.length - 1], 10) / 2 + 4 : 0;
  const M = {
    left: 64,
    right: rotate || !cont ? 16 : Math.max(16, Math.ceil(lastHalf)),
    top: 50 + lg.height + 4,
    bottom: rotate ? Math.max(70, Math.ceil(14 + longest * SIN35 + 30)) : 44,
  };
  const ihTop = 150;
  const gap = 14;
  const ihBar = 70;
  const H = opts.height ?? M.top + ihTop + gap + ihBar + M.bottom;
  const iw = W - M.left - M.right;
  // x: points evenly spaced; continuous bins span [x(b), x(b + 1)], categories sit at their point
  const pad = cont ? 0 : iw / (2 * P);
  const x = (k: number) => M.left + pad + (P === 1 ? (iw - 2 * pad) / 2 : (k * (iw - 2 * pad)) / (P - 1));
  const vals = f.values.filter(finite);
  const band = [...(f.ci?.lower ?? []), ...(f.ci?.upper ?? [])].filter(finite);
  const yt = niceTicks(Math.min(0, ...vals, ...band), Math.max(0, ...vals, ...band), 4);
  const y0 = yt[0];
  const y1 = yt[yt.length - 1];
  const y = (v: number) => M.top + ihTop - ((v - y0) / (y1 - y0 || 1)) * ihTop;
  const title = opts.title ?? `${f.feature} (${f.kind})`;
  const out: string[] = [open('fale', W, H, `FALE of ${metric} over ${f.feature}; ${opts.subtitle ?? ''}`)];
  const head = heading(title, opts.subtitle, M.left, W);
  out.push(head.svg, lg.svg);
  out.push(yGrid(yt, y, M.left, M.left + iw, (t) => fmtNum(t)));
  out.push(
    `<line class="zero" x1="${px(M.left)}" x2="${px(M.left + iw)}" y1="${px(y(0))}" y2="${px(y(0))}" ` +
      `stroke="#888888" stroke-dasharray="4 3"/>`,
  );
  // undefined bins
  const nb = f.counts.n.length;
  for (const b of f.undefined) {
    if (b < 0 || b >= Math.max(nb, f.deltas.length)) continue;
    let a: number;
    let w: number;
    if (cont) {
      a = x(b);
      w = x(b + 1) - x(b);
    } else {
      w = Math.min(36, iw / P);
      a = x(b) - w / 2;
    }
    out.push(
      `<g class="undefined-bin"><title>${esc(cont ? `bin ${full[b] ?? ''}–${full[b + 1] ?? ''}` : (full[b] ?? ''))}: ` +
        `undefined (too few rows in a group)</title><rect x="${px(a)}" y="${px(M.top)}" width="${px(w)}" ` +
        `height="${ihTop}" fill="#f0f0f0"/>${hatchLines(a, M.top, w, ihTop, 9, '#bbbbbb')}`,
    );
    out.push(
      `<text x="${px(a + w / 2)}" y="${px(M.top + 12)}" text-anchor="middle" font-size="11" fill="#777777">×</text>` +
        `</g>`,
    );
  }
  // the band, in runs of defined points
  if (f.ci) {
    const lo = f.ci.lower;
    const hi = f.ci.upper;
    let run: number[] = [];
    const flush = () => {
      if (run.length >= 1) {
        const pts =
          run.length === 1
            ? [
                `${px(x(run[0]) - 3)},${px(y(hi[run[0]] as number))}`,
                `${px(x(run[0]) + 3)},${px(y(hi[run[0]] as number))}`,
                `${px(x(run[0]) + 3)},${px(y(lo[run[0]] as number))}`,
                `${px(x(run[0]) - 3)},${px(y(lo[run[0]] as number))}`,
              ]
            : [
                ...run.map((k) => `${px(x(k))},${px(y(hi[k] as number))}`),
                ...run
                  .slice()
                  .reverse()
                  .map((k) => `${px(x(k))},${px(y(lo[k] as number))}`),
              ];
        out.push(
          `<polygon class="band" points="${pts.join(' ')}" fill="${OKABE_ITO.black}" fill-opacity="0.13" ` +
            `stroke="none"/>`,
        );
      }
      run = [];
    };
    for (let k = 0; k < P; k++) {
      if (finite(lo[k]) && finite(hi[k])) run.push(k);
      else flush();
    }
    flush();
  }
  const d = gappedPath(f.values, x, y);
  if (d) out.push(`<path class="fale-line" d="${d}" fill="none" stroke="${OKABE_ITO.black}" stroke-width="2"/>`);
  f.values.forEach((v, k) => {
    if (!finite(v)) return;
    const ci =
      f.ci && finite(f.ci.lower[k]) && finite(f.ci.upper[k])
        ? ` [${fmtNum(f.ci.lower[k])}, ${fmtNum(f.ci.upper[k])}]`
        : '';
    out.push(
      `<circle cx="${px(x(k))}" cy="${px(y(v))}" r="3" fill="${OKABE_ITO.black}"><title>` +
        `${esc(full[k] ?? String(k))}: ${fmtNum(v)}${ci}</title></circle>`,
    );
  });
  out.push(frame(M.left, M.top, iw, ihTop));
  out.push(axisLabelY(`FALE of ${metric}`, 14, M.top + ihTop / 2));
  // population panel
  const by = M.top + ihTop + gap;
  const maxC = Math.max(1, ...f.counts.unprivileged.map(num), ...f.counts.privileged.map(num));
  const yc = (c: number) => by + ihBar - (c / maxC) * ihBar;
  out.push(
    `<line x1="${px(M.left)}" x2="${px(M.left + iw)}" y1="${px(by)}" y2="${px(by)}" stroke="${GRID}"/><text ` +
      `class="tick" x="${px(M.left - 5)}" y="${px(by + 4)}" text-anchor="end" font-size="10">` +
      `${fmtNum(maxC)}</text><text class="tick" x="${px(M.left - 5)}" y="${px(by + ihBar + 3)}" ` +
      `text-anchor="end" font-size="10">0</text>`,
  );
  for (let b = 0; b < nb; b++) {
    const cx = cont ? (x(b) + x(b + 1)) / 2 : x(b);
    const slot = cont ? x(b + 1) - x(b) : (iw - 2 * pad) / Math.max(1, P - 1) || iw / 2;
    const bw = Math.max(2, Math.min(16, slot * 0.35));
    const u = num(f.counts.unprivileged[b]);
    const p = num(f.counts.privileged[b]);
    const lab = cont ? `${full[b] ?? ''}–${full[b + 1] ?? ''}` : (full[b] ?? '');
    out.push(
      `<rect x="${px(cx - bw)}" y="${px(yc(u))}" width="${px(bw)}" height="${px(by + ihBar - yc(u))}" ` +
        `fill="${OKABE_ITO.orange}"><title>${esc(lab)}: ${esc(opts.unprivileged ?? 'unprivileged')} ${fmtNum(u)} ` +
        `rows</title></rect>`,
    );
    out.push(
      `<rect x="${px(cx)}" y="${px(yc(p))}" width="${px(bw)}" height="${px(by + ihBar - yc(p))}" ` +
        `fill="${OKABE_ITO.blue}"><title>${esc(lab)}: ${esc(opts.privileged ?? 'privileged')} ${fmtNum(p)} ` +
        `rows</title></rect>`,
    );
  }
  out.push(frame(M.left, by, iw, ihBar));
  out.push(axisLabelY('rows', 30, by + ihBar / 2));
  // x tick labels under the population panel
  const every = Math.max(1, Math.ceil(P / 14));
  for (let k = 0; k < labels.length; k += every) out.push(xTick(labels[k], x(k), by + ihBar + 14, rotate, full[k]));
  out.push(axisLabelX(cont ? `${f.feature} (bin edges)` : f.feature, M.left + iw / 2, H - 8));
  return close(out, head);
}
