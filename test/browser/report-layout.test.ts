// Every page of a demo run (the three reports and the index) read at a phone's, a small laptop's and a
// desktop's width, 390, 800 and 1400 px, with every <details> block open: no sideways page scroll, and
// no clipped text: nothing sticks out of its box or its chart, nothing is cut off by overflow or an
// ellipsis, no chart title or label is shortened to a tooltip. Wide tables may scroll inside their own
// box. Artefacts: test-artifacts/layout-<page>-<width>.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { artifact, browserSkip, clippedText, launch, ROOT, watchErrors } from '../helpers/browser.js';

const skip = browserSkip();
const BIN = path.join(ROOT, 'bin/lucid.js');
const PAGES = ['direct/report.html', 'proxy/report.html', 'intersectional/report.html', 'index.html'];
const WIDTHS = [390, 800, 1400];

describe("the demo's reports at 390, 800 and 1400 px", { skip: skip ?? false, timeout: 600_000 }, () => {
  let browser: Browser;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lucid-layout-'));
    // the demo as a newcomer runs it, with no data folder (few GAN epochs: the layout, not the sets, is tested)
    const r = spawnSync(process.execPath, [BIN, 'demo', '--out', dir, '--gan-epochs', '3', '--quiet'], {
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, LUCID_DATA_DIR: path.join(dir, 'no-data-here') },
    });
    assert.equal(r.status, 0, `lucid demo failed (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
    for (const p of PAGES) assert.ok(existsSync(path.join(dir, p)), `the demo wrote ${p}`);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    it(`at ${width} px: no sideways scroll and no clipped text on any page, every block open`, async () => {
      const problems: string[] = [];
      for (const p of PAGES) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const errors = watchErrors(page);
        try {
          await page.goto(pathToFileURL(path.join(dir, p)).href, { waitUntil: 'load' });
          await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.setAttribute('open', '')));
          for (const x of await clippedText(page)) problems.push(`${p}: ${x}`);
          problems.push(...errors.map((e) => `${p}: ${e}`));
          await page.screenshot({
            path: artifact(`layout-${p.replace(/\/.*$|\.html$/g, '')}-${width}.png`),
            fullPage: width === 390,
          });
        } finally {
          await page.close();
        }
      }
      assert.deepEqual(problems, [], `at ${width} px`);
    });
  }
});
