// The audit report in a real chromium: run `lucid audit` on a tiny data set (predictions column,
// 2 GAN epochs), open report.html from disk, and check every chart rendered with a non-empty box and
// axis labels, nothing was logged as an error and nothing was fetched from outside the page.
// No text sticks out of its SVG or its HTML box at 1400 and 800 px.
// Artefacts: test-artifacts/report.png (full-page screenshot), report-1400.png and report-800.png
// (full page at those widths; their heights are printed as diagnostics) and test-artifacts/report.html.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import {
  artifact,
  browserSkip,
  chartProblems,
  launch,
  pngSize,
  ROOT,
  textOverflow,
  watchErrors,
} from '../helpers/browser.js';

const skip = browserSkip();
const DATA = path.join(ROOT, 'test/fixtures/web/loans-300.csv');
const BIN = path.join(ROOT, 'bin/lucid.js');

describe('audit report (report.html) in chromium', { skip: skip ?? false, timeout: 120_000 }, () => {
  let browser: Browser;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lucid-report-'));
    const args = [
      BIN,
      'audit',
      '--data',
      DATA,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--protected',
      'sex,group,age',
      '--pred',
      'preds',
      '--gan-epochs',
      '2',
      '-n',
      '300',
      '--intersection-rows',
      '100',
      '--fale-bootstrap',
      '0',
      '--seed',
      '1',
      '--quiet',
      '--out',
      dir,
    ];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 90_000 });
    assert.equal(r.status, 0, `lucid audit failed (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
    copyFileSync(path.join(dir, 'report.html'), artifact('report.html'));
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every chart renders with axis labels, no console errors, no outside requests', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    const outside: string[] = [];
    page.on('request', (req) => {
      const u = req.url();
      if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:')) outside.push(u);
    });
    try {
      await page.goto(pathToFileURL(path.join(dir, 'report.html')).href, { waitUntil: 'load' });
      const { count, problems } = await chartProblems(page);
      assert.ok(count > 0, 'the report has charts');
      assert.deepEqual(problems, []);
      const kinds = new Set(await page.$$eval('svg.chart', (s) => s.map((x) => x.getAttribute('data-chart'))));
      for (const k of ['js-ranking', 'histogram-pair', 'grouped-bars', 'heatmap'])
        assert.ok(kinds.has(k), `a ${k} chart (kinds: ${[...kinds].join(', ')})`);
      // SVG text is laid out: an axis label has a real box
      const labelBoxes = await page.$$eval('svg.chart text.axis-label', (t) =>
        t.map((x) => (x as SVGGraphicsElement).getBBox().width),
      );
      assert.ok(
        labelBoxes.every((w) => w > 0),
        'every axis label has a width',
      );
      assert.match(await page.title(), /\S/);
      await page.screenshot({ path: artifact('report.png'), fullPage: true });
      assert.deepEqual(errors, [], 'no console errors');
      assert.deepEqual(outside, [], 'the report is self-contained');
    } finally {
      await page.close();
    }
  });

  for (const width of [1400, 800]) {
    it(
      `at ${width} px no text sticks out of its chart or ` + `its box; full-page screenshot report-${width}.png`,
      async (t) => {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const errors = watchErrors(page);
        try {
          await page.goto(pathToFileURL(path.join(dir, 'report.html')).href, { waitUntil: 'load' });
          const shot = await page.screenshot({ path: artifact(`report-${width}.png`), fullPage: true });
          const size = pngSize(shot);
          t.diagnostic(`report-${width}.png: ${size.width} × ${size.height} px`);
          assert.equal(size.width, width);
          assert.deepEqual(await textOverflow(page), [], `text that does not fit at ${width} px`);
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      },
    );
  }
});
