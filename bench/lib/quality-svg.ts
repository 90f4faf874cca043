// The pictures of bench/quality.ts: one panel per data set, mean fidelity (lower is better) against
// training wall seconds. Time to quality (§9): one line per schedule and GAN seed, the weights each run
// ends with marked by a dot. Time to fidelity (§12): one line per configuration, the mean over the GAN
// seeds at each check. Plain SVG, no dependencies.
import type { FrontierRun, QualityRun } from '../quality.js';

// Okabe–Ito, as the report
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];

/** One line of a panel: its series (the colour and legend entry), its points, and a marked point with a tooltip. */
export interface Curve {
  series: string;
  points: { x: number; y: number }[];
  mark?: { x: number; y: number; title: string };
}

/** Panels of curves on a shared legend (the series in order of first appearance). */
export function curvesSvg(
  panels: readonly { title: string; curves: readonly Curve[] }[],
  o: { xLabel: string; yLabel: string; ariaLabel: string; legendWidth?: number },
): string {
  const series = [...new Set(panels.flatMap((p) => p.curves.map((c) => c.series)))];
  const W = 460,
    H = 300,
    M = { l: 52, r: 14, t: 30, b: 40 };
  const lw = o.legendWidth ?? 170;
  const perRow = Math.max(1, Math.floor((Math.max(1, panels.length) * W - M.l) / lw));
  const legendRows = Math.ceil(series.length / perRow);
  const svgPanels = panels.map((panel, i) => {
    const xs = panel.curves.flatMap((c) => c.points.map((p) => p.x));
    const ys = panel.curves.flatMap((c) => c.points.map((p) => p.y)).filter(Number.isFinite);
    const xMax = Math.max(1, ...xs) * 1.05;
    const yLo = Math.max(0, Math.min(...ys) - 0.02),
      yHi = Math.max(...ys) + 0.02;
    const X = (x: number) => M.l + (x / xMax) * (W - M.l - M.r);
    const Y = (y: number) => H - M.b - ((y - yLo) / (yHi - yLo)) * (H - M.t - M.b);
    const ticks = (lo: number, hi: number, n: number) =>
      Array.from({ length: n + 1 }, (_, k) => lo + ((hi - lo) * k) / n);
    const g: string[] = [
      `<g transform="translate(${i * W},0)">`,
      `<text x="${M.l}" y="18" font-weight="bold">${esc(panel.title)}</text>`,
    ];
    g.push(
      `<line x1="${M.l}" y1="${H - M.b}" x2="${W - M.r}" y2="${H - M.b}" stroke="#444"/><line x1="${M.l}" ` +
        `y1="${M.t}" x2="${M.l}" y2="${H - M.b}" stroke="#444"/>`,
    );
    for (const t of ticks(0, xMax, 5))
      g.push(`<text x="${X(t).toFixed(1)}" y="${H - M.b + 14}" text-anchor="middle">${t.toFixed(0)}</text>`);
    for (const t of ticks(yLo, yHi, 4))
      g.push(
        `<text x="${M.l - 4}" y="${(Y(t) + 4).toFixed(1)}" text-anchor="end">${t.toFixed(3)}</text><line x1="${M.l}" ` +
          `x2="${W - M.r}" y1="${Y(t).toFixed(1)}" y2="${Y(t).toFixed(1)}" stroke="#ddd"/>`,
      );
    g.push(`<text x="${(M.l + W - M.r) / 2}" y="${H - 6}" text-anchor="middle">${esc(o.xLabel)}</text>`);
    g.push(
      `<text transform="translate(12,${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`,
    );
    for (const c of panel.curves) {
      const colour = COLOURS[series.indexOf(c.series) % COLOURS.length];
      const pts = c.points
        .filter((p) => Number.isFinite(p.y))
        .map((p) => `${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`)
        .join(' ');
      g.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" opacity="0.8" points="${pts}"/>`);
      if (c.mark)
        g.push(
          `<circle cx="${X(c.mark.x).toFixed(1)}" cy="${Y(c.mark.y).toFixed(1)}" r="4" fill="${colour}"><title>` +
            `${esc(c.mark.title)}</title></circle>`,
        );
    }
    g.push('</g>');
    return g.join('');
  });
  const legend = series
    .map(
      (s, k) =>
        `<g transform="translate(${M.l + (k % perRow) * lw},${H + 8 + 16 * Math.floor(k / perRow)})"><rect ` +
        `width="14" height="4" y="-4" fill="${COLOURS[k % COLOURS.length]}"/><text x="20" y="0">` +
        `${esc(s)}</text></g>`,
    )
    .join('');
  const width = Math.max(1, panels.length) * W;
  const height = H + 4 + 16 * legendRows;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="${esc(o.ariaLabel)}">${svgPanels.join('')}${legend}</svg>\n`;
}

export function timeToQualitySvg(runs: readonly QualityRun[]): string {
  const panels = [...new Set(runs.map((r) => r.data))].map((d) => ({
    title: d,
    curves: runs
      .filter((r) => r.data === d)
      .map((r) => ({
        series: r.schedule,
        points: r.points.map((p) => ({ x: p.seconds, y: p.fidelity })),
        mark: {
          x: r.final.seconds,
          y: r.final.fidelity,
          title:
            `${r.schedule}, seed ${r.seed}: ${r.final.steps} steps kept, fidelity ${r.final.fidelity.toFixed(3)}, ` +
            `${r.final.seconds.toFixed(1)} s`,
        },
      })),
  }));
  return curvesSvg(panels, {
    xLabel: 'training wall seconds (one GAN seed)',
    yLabel: 'mean fidelity (KS/TV, lower is better)',
    ariaLabel: 'time to quality: mean fidelity of the canonical sets against training seconds, per schedule',
  });
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The time-to-fidelity frontier (§12): per data set, one line per configuration, the eval fidelity and training seconds
 * at each check averaged over the GAN seeds.
 */
export function frontierSvg(runs: readonly FrontierRun[]): string {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const panels = [...new Set(runs.map((r) => r.data))].map((d) => ({
    title: d,
    curves: [...new Set(runs.filter((r) => r.data === d).map((r) => r.config))].map((config) => {
      const rs = runs.filter((r) => r.data === d && r.config === config);
      const steps = [...new Set(rs.flatMap((r) => r.checks.map((c) => c.steps)))].sort((a, b) => a - b);
      const points = steps.map((st) => {
        const cs = rs.map((r) => r.checks.find((c) => c.steps === st)).filter((c) => c !== undefined);
        return { x: mean(cs.map((c) => c.seconds)), y: mean(cs.map((c) => c.eval)), steps: st, n: cs.length };
      });
      const end = points[points.length - 1];
      return {
        series: config,
        points,
        mark: {
          x: end.x,
          y: end.y,
          title:
            `${config}: ${end.steps} steps, eval fidelity ${end.y.toFixed(3)} (mean of ${end.n} seeds), ` +
            `${end.x.toFixed(1)} s`,
        },
      };
    }),
  }));
  return curvesSvg(panels, {
    xLabel: 'training wall seconds (mean over GAN seeds)',
    yLabel: 'eval fidelity (KS/TV on held-out rows, lower is better)',
    ariaLabel:
      'time to fidelity: eval fidelity of the canonical sets against training seconds, per configuration, mean over ' +
      'GAN seeds',
    legendWidth: 150,
  });
}
