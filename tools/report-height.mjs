#!/usr/bin/env node
// How tall a report is: the full page and each main section, in Debian's chromium (playwright-core),
// with every <details> folded as the report opens. The report should open at about 8 screens.
//   node tools/report-height.mjs <report.html> [width=1400]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, width = '1400'] = process.argv.slice(2);
const chromiumPath = process.env.LUCID_CHROMIUM ?? '/usr/bin/chromium';
if (!file || !existsSync(file)) {
  console.error('usage: node tools/report-height.mjs <report.html> [width]');
  process.exit(2);
}
if (!existsSync(chromiumPath)) {
  console.error(
    `report-height: chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set LUCID_CHROMIUM`,
  );
  process.exit(1);
}
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
  await page.goto(pathToFileURL(path.resolve(file)).href);
  const r = await page.evaluate(() => ({
    total: document.documentElement.scrollHeight,
    parts: Array.from(document.querySelectorAll('main > header, main > section, main > nav')).map((s) => [
      s.id || s.tagName.toLowerCase(),
      Math.round(s.getBoundingClientRect().height),
    ]),
  }));
  console.log(
    `${file} at ${width} px: ${r.total} px (${(r.total / 900).toFixed(1)} screens of 900 px), every <details> folded`,
  );
  for (const [id, h] of r.parts) console.log(`${String(h).padStart(7)} px  ${id}`);
} finally {
  await browser.close();
}
