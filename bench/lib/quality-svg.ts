// The time-to-quality picture (bench/quality.ts): one panel per data set, mean fidelity (lower is
// better) against training wall seconds, one line per schedule and GAN seed, the weights each run
// ends with marked by a dot. Plain SVG, no dependencies.
import type { QualityRun } from '../quality.js';

// Okabe–Ito, as the report
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];

export function timeToQualitySvg(runs: readonly QualityRun[]): string {
  const datasets = [...new Set(runs.map((r) => r.data))];
  const schedules = [...new Set(runs.map((r) => r.schedule))];
  const W = 460, H = 300, M = { l: 52, r: 14, t: 30, b: 40 };
  const panels = datasets.map((d, i) => {
    const rs = runs.filter((r) => r.data === d);
    const xs = rs.flatMap((r) => r.points.map((p) => p.seconds));
    const ys = rs.flatMap((r) => r.points.map((p) => p.fidelity)).filter(Number.isFinite);
    const xMax = Math.max(1, ...xs) * 1.05;
    const yLo = Math.max(0, Math.min(...ys) - 0.02), yHi = Math.max(...ys) + 0.02;
    const X = (x: number) => M.l + (x / xMax) * (W - M.l - M.r);
    const Y = (y: number) => H - M.b - ((y - yLo) / (yHi - yLo)) * (H - M.t - M.b);
    const ticks = (lo: number, hi: number, n: number) => Array.from({ length: n + 1 }, (_, k) => lo + ((hi - lo) * k) / n);
    const g: string[] = [`<g transform="translate(${i * W},0)">`, `<text x="${M.l}" y="18" font-weight="bold">${esc(d)}</text>`];
    g.push(`<line x1="${M.l}" y1="${H - M.b}" x2="${W - M.r}" y2="${H - M.b}" stroke="#444"/><line x1="${M.l}" y1="${M.t}" x2="${M.l}" y2="${H - M.b}" stroke="#444"/>`);
    for (const t of ticks(0, xMax, 5)) g.push(`<text x="${X(t).toFixed(1)}" y="${H - M.b + 14}" text-anchor="middle">${t.toFixed(0)}</text>`);
    for (const t of ticks(yLo, yHi, 4)) g.push(`<text x="${M.l - 4}" y="${(Y(t) + 4).toFixed(1)}" text-anchor="end">${t.toFixed(3)}</text><line x1="${M.l}" x2="${W - M.r}" y1="${Y(t).toFixed(1)}" y2="${Y(t).toFixed(1)}" stroke="#ddd"/>`);
    g.push(`<text x="${(M.l + W - M.r) / 2}" y="${H - 6}" text-anchor="middle">training wall seconds (one GAN seed)</text>`);
    g.push(`<text transform="translate(12,${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle">mean fidelity (KS/TV, lower is better)</text>`);
    for (const r of rs) {
      const c = COLOURS[schedules.indexOf(r.schedule) % COLOURS.length];
      const pts = r.points.filter((p) => Number.isFinite(p.fidelity)).map((p) => `${X(p.seconds).toFixed(1)},${Y(p.fidelity).toFixed(1)}`).join(' ');
      g.push(`<polyline fill="none" stroke="${c}" stroke-width="1.5" opacity="0.8" points="${pts}"/>`);
      g.push(`<circle cx="${X(r.final.seconds).toFixed(1)}" cy="${Y(r.final.fidelity).toFixed(1)}" r="4" fill="${c}"><title>${esc(`${r.schedule}, seed ${r.seed}: ${r.final.steps} steps kept, fidelity ${r.final.fidelity.toFixed(3)}, ${r.final.seconds.toFixed(1)} s`)}</title></circle>`);
    }
    g.push('</g>');
    return g.join('');
  });
  const legend = schedules.map((s, k) => `<g transform="translate(${M.l + k * 170},${H + 8})"><rect width="14" height="4" y="-4" fill="${COLOURS[k % COLOURS.length]}"/><text x="20" y="0">${esc(s)}</text></g>`).join('');
  const width = Math.max(1, datasets.length) * W;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + 20}" viewBox="0 0 ${width} ${H + 20}" font-family="sans-serif" font-size="11" role="img" aria-label="time to quality: mean fidelity of the canonical sets against training seconds, per schedule">${panels.join('')}${legend}</svg>\n`;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
