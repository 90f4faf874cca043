// A chart's title and subtitle wrap onto as many lines as they need instead of being shortened with an
// ellipsis: the chart grows by the extra lines and its body moves down beneath them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramPair, svgWidth } from '../../src/report/charts.js';
import { dist } from './sample-audit.js';

const d = dist('hours-per-week', 'feature', { edges: [1, 20, 40, 99] }, [2, 5, 3], [4, 4, 2], [3, 5, 2]);
const drawn = (svg: string, cls: string) => {
  const m = new RegExp(`<text class="${cls}"[^>]*>([\\s\\S]*?)</text>`).exec(svg);
  assert.ok(m, `no ${cls}`);
  return {
    lines: m[1]
      .split(/<tspan[^>]*>/)
      .map((x) => x.replace(/<[^>]*>/g, ''))
      .filter((x) => x !== ''),
    markup: m[1],
  };
};
const height = (svg: string) => Number(/^<svg\b[^>]*?\sheight="([\d.]+)"/.exec(svg)![1]);

test('a long subtitle wraps in full, the chart grows by its extra lines and the body moves down', () => {
  const subtitle =
    "bar: the rate; whisker: the group's own 95% Wilson interval (not the test); dashed: the reference ★; and a few " +
    'words more to need a third line';
  const short = histogramPair(d, { subtitle: 'short' });
  const long = histogramPair(d, { subtitle });
  const s = drawn(long, 'chart-subtitle');
  assert.ok(s.lines.length >= 2, `the subtitle is on ${s.lines.length} line(s)`);
  assert.equal(
    s.lines.join(' '),
    subtitle.replace(/'/g, '&#39;'),
    'every word of the subtitle is drawn, none shortened',
  );
  assert.doesNotMatch(long, /…<\/t/);
  const extra = height(long) - height(short);
  assert.equal(extra, (s.lines.length - 1) * 13);
  assert.match(long, new RegExp(`viewBox="0 0 ${svgWidth(long)} ${height(long)}"`));
  assert.match(long, new RegExp(`<g transform="translate\\(0 ${extra}\\)">`));
  // a short subtitle changes nothing
  assert.doesNotMatch(short, /<tspan|translate\(0 /);
});

test('a title longer than the chart wraps too, and the subtitle goes below its last line', () => {
  const title = 'a feature whose name is far longer than any chart is wide, as column names in real data sets can be';
  const svg = histogramPair(d, { title, subtitle: 'short' });
  const t = drawn(svg, 'chart-title');
  assert.ok(t.lines.length >= 2);
  assert.equal(t.lines.join(' '), title);
  const y = Number(/<text class="chart-subtitle" x="[\d.]+" y="([\d.]+)"/.exec(svg)![1]);
  assert.equal(y, 32 + (t.lines.length - 1) * 16);
});

test(
  "long category names are drawn whole: a heat map's rows " + 'and columns wrap, grouped bars keep up to 40 characters',
  async () => {
    const { heatmap, groupedBars } = await import('../../src/report/charts.js');
    const { sampleAuditResult } = await import('./sample-audit.js');
    const h0 = sampleAuditResult().intersections[0].heatmap;
    const longCol = 'Outlying territories of the US (Guam, USVI)';
    const longRow = 'living with relatives abroad, never married';
    const h = { ...h0, colValues: [longCol, ...h0.colValues.slice(1)], rowValues: [longRow, ...h0.rowValues.slice(1)] };
    const text = (svg: string) =>
      svg
        .replace(/<title>[\s\S]*?<\/title>/g, '')
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ');
    for (const svg of [heatmap(h), heatmap(h, { value: 'shift' })]) {
      for (const v of [longCol, longRow]) assert.ok(text(svg).includes(v), `${v} is drawn whole`);
      assert.doesNotMatch(text(svg), /…/);
    }
    assert.ok(height(heatmap(h)) > height(heatmap(h0)), 'a wrapped column label makes the map taller');
    const cat = 'Never married, living with relatives';
    const d = dist('marital-status', 'feature', { categories: [cat, 'Divorced', 'Widowed'] }, [5, 3, 2], [2, 4, 4]);
    assert.ok(text(groupedBars(d)).includes(cat));
  },
);
