// The score's curve of selection-rate ratios across thresholds (charts.ts ratioCurve): a log ratio axis (a ratio and
// its inverse equally far from 1), the band [τ, 1/τ] shaded, each group's line broken where its ratio is undefined and
// its pointwise interval drawn as a ribbon of its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ratioCurve } from '../../src/report/charts.js';

const gridY = (svg: string, label: string): number => {
  const m = new RegExp(`y1="([\\d.]+)"[^>]*/><text class="tick"[^>]*>${label}</text>`).exec(svg);
  assert.ok(m, `grid line ${label}`);
  return Number(m[1]);
};

describe('ratioCurve', () => {
  const thresholds = [1, 2, 3, 4, 5];
  const svg = ratioCurve(
    thresholds,
    [
      {
        name: 'B',
        points: [0.5, 0.6, null, 0.7, 0.8].map((r) => ({
          ratio: r,
          lo: r === null ? null : r * 0.8,
          hi: r === null ? null : r * 1.25,
        })),
      },
      { name: 'C', points: thresholds.map(() => ({ ratio: 1.1, lo: null, hi: null })) },
    ],
    [0.8, 1.25],
    { xLabel: 'threshold', reference: 'A' },
  );

  it('draws the ratio on a log axis: ×0.8 and ×1.25 are equally far from ×1, ×0.5 and ×2 likewise', () => {
    const one = gridY(svg, '×1');
    assert.ok(Math.abs(gridY(svg, '×0.8') - one - (one - gridY(svg, '×1.25'))) < 0.2);
    assert.ok(Math.abs(gridY(svg, '×0.5') - one) > Math.abs(gridY(svg, '×0.8') - one));
  });

  it('shades the band between its ends and draws a ribbon for each run of intervals', () => {
    const band = /<rect class="band" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/.exec(svg)!;
    assert.ok(Math.abs(Number(band[1]) - gridY(svg, '×1.25')) < 0.2);
    assert.ok(Math.abs(Number(band[1]) + Number(band[2]) - gridY(svg, '×0.8')) < 0.2);
    // B's intervals: thresholds 1–2 and 4–5 (3 has none); C has none
    assert.equal(svg.match(/class="ribbon"/g)?.length, 2);
  });

  it("breaks a group's line where its ratio is undefined", () => {
    const b = /<path d="([^"]+)" fill="none" stroke="[^"]+" stroke-width="1.8"><title>B<\/title>/.exec(svg)!;
    assert.equal(b[1].match(/M/g)?.length, 2);
    assert.match(svg, /data-chart="ratio-curve"/);
  });
});
