// FALE plots as one standalone SVG: a panel per feature, as the reference's FALE_plots — the FALE
// values as a red line with markers (left axis), the per-bin population split by protected group
// as paired bars (right axis), the bootstrap band when present. Core code: no Node imports.
import type { FaleFeature, FaleResult } from './fale.js';

const W = 720;
const H = 260;
const M = { left: 64, right: 64, top: 34, bottom: 58 };
const COLORS = {
  line: '#d62728',
  unpriv: '#ff7f0e',
  priv: '#1f77b4',
  band: '#d62728',
  grid: '#dddddd',
  text: '#222222',
};

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v: number): string =>
  Math.abs(v) >= 1000 || (v !== 0 && Math.abs(v) < 0.001) ? v.toPrecision(3) : String(Math.round(v * 1000) / 1000);
const px = (v: number): string => v.toFixed(1);

function panel(f: FaleFeature, y0: number, who: { u: string; p: string }): string {
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const cont = f.kind === 'continuous';
  const labels = cont ? (f.edges as number[]).map(fmt) : (f.categories as string[]);
  const P = f.values.length;
  // x positions of the points; bins sit at their upper edge's position (point k+1), categories at theirs
  const x = (k: number) => M.left + (P === 1 ? iw / 2 : (k * iw) / (P - 1));
  const lows = f.ci ? f.ci.lower.filter((v): v is number => v !== null) : [];
  const highs = f.ci ? f.ci.upper.filter((v): v is number => v !== null) : [];
  let lo = Math.min(0, ...f.values, ...lows);
  let hi = Math.max(0, ...f.values, ...highs);
  if (hi - lo < 1e-12) {
    lo -= 0.01;
    hi += 0.01;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const y = (v: number) => y0 + M.top + ih - ((v - lo) / (hi - lo)) * ih;
  const maxCount = Math.max(1, ...f.counts.unprivileged, ...f.counts.privileged);
  const yc = (c: number) => y0 + M.top + ih - (c / maxCount) * ih * 0.9;
  const out: string[] = [];
  out.push(`<g class="feature" data-feature="${esc(f.feature)}">`);
  out.push(
    `<text x="${M.left}" y="${px(y0 + 20)}" font-size="14" font-weight="bold" fill="${COLORS.text}">` +
      `${esc(f.feature)} (${f.kind})</text>`,
  );
  // axes and the zero line
  out.push(`<rect x="${M.left}" y="${px(y0 + M.top)}" width="${iw}" height="${ih}" fill="none" stroke="#888888"/>`);
  out.push(
    `<line x1="${M.left}" x2="${M.left + iw}" y1="${px(y(0))}" y2="${px(y(0))}" stroke="${COLORS.grid}" ` +
      `stroke-dasharray="4 3"/>`,
  );
  for (const v of [lo + pad, 0, hi - pad]) {
    out.push(
      `<text x="${M.left - 6}" y="${px(y(v) + 4)}" font-size="10" text-anchor="end" fill="${COLORS.text}">` +
        `${fmt(v)}</text>`,
    );
  }
  out.push(
    `<text x="${W - M.right + 6}" y="${px(yc(maxCount) + 4)}" font-size="10" fill="${COLORS.text}">${maxCount}</text>`,
  );
  // population bars: bin k at point k+1 (continuous), category k at point k
  const step = P > 1 ? iw / (P - 1) : iw;
  const bw = Math.max(2, Math.min(18, step * 0.3));
  f.counts.n.forEach((_, k) => {
    const cx = x(cont ? k + 1 : k);
    const u = f.counts.unprivileged[k];
    const p = f.counts.privileged[k];
    out.push(
      `<rect x="${px(cx - bw)}" y="${px(yc(u))}" width="${px(bw)}" height="${px(yc(0) - yc(u))}" ` +
        `fill="${COLORS.unpriv}" fill-opacity="0.45"><title>${esc(who.u)}: ${u}</title></rect>`,
    );
    out.push(
      `<rect x="${px(cx)}" y="${px(yc(p))}" width="${px(bw)}" height="${px(yc(0) - yc(p))}" fill="${COLORS.priv}" ` +
        `fill-opacity="0.45"><title>${esc(who.p)}: ${p}</title></rect>`,
    );
  });
  // the bootstrap band
  if (f.ci?.lower.every((v) => v !== null)) {
    const up = (f.ci.upper as number[]).map((v, k) => `${px(x(k))},${px(y(v))}`);
    const down = (f.ci.lower as number[]).map((v, k) => `${px(x(k))},${px(y(v))}`).reverse();
    out.push(
      `<polygon points="${[...up, ...down].join(' ')}" fill="${COLORS.band}" fill-opacity="0.15" stroke="none"/>`,
    );
  }
  // the FALE line
  const d = f.values.map((v, k) => `${k === 0 ? 'M' : 'L'}${px(x(k))},${px(y(v))}`).join(' ');
  out.push(`<path d="${d}" fill="none" stroke="${COLORS.line}" stroke-width="2"/>`);
  f.values.forEach((v, k) =>
    out.push(
      `<circle cx="${px(x(k))}" cy="${px(y(v))}" r="3" fill="${COLORS.line}"><title>${esc(labels[k])}: ` +
        `${fmt(v)}</title></circle>`,
    ),
  );
  // x labels
  labels.forEach((l, k) => {
    const tx = x(k);
    const ty = y0 + M.top + ih + 14;
    out.push(
      `<text x="${px(tx)}" y="${px(ty)}" font-size="10" text-anchor="end" transform="rotate(-30 ${px(tx)} ` +
        `${px(ty)})" fill="${COLORS.text}">${esc(l)}</text>`,
    );
  });
  out.push('</g>');
  return out.join('\n');
}

/** All features of `r` as one SVG document (a panel per feature, stacked). */
export function faleSvg(r: FaleResult): string {
  const u = r.protected.map((c) => `${c.column}=${c.value}`).join(', ');
  const who = { u: `unprivileged (${u})`, p: 'privileged (everyone else)' };
  const head = 40;
  const legend = 22;
  const height = head + legend + r.features.length * H;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif">`,
  );
  parts.push(`<rect width="${W}" height="${height}" fill="#ffffff"/>`);
  const overall = r.overall === null ? 'undefined' : r.overall.toFixed(3);
  parts.push(
    `<text x="${W / 2}" y="24" font-size="15" text-anchor="middle" fill="${COLORS.text}">FALE · ` +
      `${esc(r.metric.toUpperCase())} (unprivileged − privileged; overall ${overall}${
        r.measure ? `; in ${esc(r.measure.units)}` : ''
      }) · ${esc(u)}</text>`,
  );
  parts.push(
    `<g font-size="11" fill="${COLORS.text}"><rect x="${M.left}" y="${head - 2}" width="10" height="10" ` +
      `fill="${COLORS.unpriv}" fill-opacity="0.45"/><text x="${M.left + 14}" y="${head + 7}">${esc(who.u)}</text>` +
      `<rect x="${M.left + 260}" y="${head - 2}" width="10" height="10" fill="${COLORS.priv}" fill-opacity="0.45"/>` +
      `<text x="${M.left + 274}" y="${head + 7}">${esc(who.p)}</text></g>`,
  );
  r.features.forEach((f, i) => parts.push(panel(f, head + legend + i * H, who)));
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
