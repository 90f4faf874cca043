// Provenance and suppression in the browser page: the report the page shows states the
// uploaded file's SHA-256 (as sha256sum gives it) and rows, "browser page" with its options and every
// seed; the page's "Suppress groups under k people" field is lucid audit's --suppress-below: with k = 50
// the intersection cell Female, B (47 people in the fixture) shows no rate in the metrics tables or the
// heat map.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  auditInPage,
  browserSkip,
  chartProblems,
  pageFixture,
  reportFrame,
  ROOT,
  watchErrors,
  watchOutside,
} from '../helpers/browser.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/web/loans-300.csv');
const skip = browserSkip();

describe('browser page: provenance and suppression', { skip: skip ?? false, timeout: 180_000 }, () => {
  const fx = pageFixture();

  it("the report states the file's SHA-256, the page's options and seeds; a cell under k shows no rate", async () => {
    const page = await fx.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchErrors(page);
    const outside = watchOutside(page, fx.server.url);
    try {
      await page.goto(fx.server.url);
      await page.waitForFunction(() => document.body.dataset.state === 'idle');
      assert.match(
        (await page.getAttribute('#suppress-below-label', 'title')) ?? '',
        /^--suppress-below k: hide the figures of groups/,
        'the field says what the CLI option says',
      );
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      await page.uncheck('#protected input[value="age"]');
      await auditInPage(
        page,
        {
          epochs: '3',
          rows: '200',
          'intersection-rows': '0',
          'fale-bootstrap': '0',
          seed: '2',
          'suppress-below': '50',
        },
        120_000,
      );
      const report = await reportFrame(page);
      const prov = (await report.textContent('#provenance')) ?? '';
      const sha = createHash('sha256')
        .update(new Uint8Array(readFileSync(FIXTURE)))
        .digest('hex');
      assert.ok(prov.includes(sha), `the data file's SHA-256 in: ${prov}`);
      assert.match(prov, /loans-300\.csv — 300 rows, [\d,]+ bytes/);
      assert.match(prov, /a predictions column: there is no model file to hash/);
      assert.match(
        prov,
        /browser page, options: .*predictions column = preds; label = approved; .*protected = sex, group; .*seed = 2; .*suppress below = 50/,
      );
      assert.match(prov, /audit 2 · .*LUCID-GAN 1 of 3 \(training\) 2 · /);
      assert.match(prov, /fewer than 50 people are suppressed/);
      // Female, B: 47 people; its row in the intersection's metrics table and its heat-map cell show no rate
      const row = await report.$$eval('#metrics tr', (rs) =>
        rs.map((r) => r.textContent ?? '').filter((t) => t.startsWith('Female, B')),
      );
      assert.ok(row.length >= 1, 'the cell has its rows');
      assert.match(row[0], /suppressed \(n < 50\)/);
      // the impact table shows the cell's share of the rows (47 / 300: its n, not its outcomes) and nothing else
      assert.ok(
        row.every((t) => !/\d+\.\d%/.test(t.replace('15.7%', ''))),
        row.join(' | '),
      );
      const cell = await report.$$eval('svg[data-chart=heatmap] g.cell title', (ts) =>
        ts.map((t) => t.textContent ?? '').filter((t) => /sex = Female, group = B:/.test(t)),
      );
      assert.ok(
        cell.some((t) => /suppressed/.test(t) && !/\d%/.test(t)),
        cell.join(' | '),
      );
      // the word "suppressed" and the provenance block fit their boxes
      assert.deepEqual((await chartProblems(report)).problems, []);
      await report.$eval('#settings', (d) => ((d as HTMLDetailsElement).open = true));
      assert.ok(await report.isVisible('#provenance'), 'the provenance block opens');
      const wide = await report.$eval('#provenance', (e) => e.scrollWidth - e.clientWidth);
      assert.ok(wide <= 0, `the provenance block overflows by ${wide} px`);
      assert.deepEqual(errors, [], 'no console errors');
      assert.deepEqual(outside, [], 'no request left the page');
    } finally {
      await page.close();
    }
  });
});
