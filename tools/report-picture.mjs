#!/usr/bin/env node
// The picture of the report in the README: run `lucid audit` on the 300-row sample
// (test/fixtures/web/loans-300.csv, its predictions column, as test/browser/report.test.ts does, with a
// few more GAN epochs so the sets say something), open report.html in Debian's chromium through
// playwright-core, and screenshot the first screen (1400×900, not the full page) to docs/report.png.
// Needs the compiled tree (npm run build) and chromium (/usr/bin/chromium or LUCID_CHROMIUM).
//   node tools/report-picture.mjs [out.png] [--gan-epochs N]
// About 10 s on 2 cores.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const epochsAt = args.indexOf('--gan-epochs');
const epochs = epochsAt >= 0 ? args[epochsAt + 1] : '20';
const out = path.resolve(
  args.find((a, i) => !a.startsWith('--') && i !== epochsAt + 1) ?? path.join(root, 'docs/report.png'),
);
const chromiumPath = process.env.LUCID_CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(path.join(root, 'dist/src/cli/main.js'))) {
  console.error('report-picture: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
if (!existsSync(chromiumPath)) {
  console.error(
    `report-picture: chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set ` +
      `LUCID_CHROMIUM`,
  );
  process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), 'lucid-picture-'));
try {
  const audit = [
    path.join(root, 'bin/lucid.js'),
    'audit',
    '--data',
    'test/fixtures/web/loans-300.csv',
    '--label',
    'approved',
    '--positive',
    'yes',
    '--protected',
    'sex,group,age',
    '--pred',
    'preds',
    '--gan-epochs',
    epochs,
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
  // run from the package root, so the report names the data by its relative path
  const r = spawnSync(process.execPath, audit, { cwd: root, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) {
    console.error(`report-picture: lucid audit failed (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
    process.exit(1);
  }
  const { chromium } = await import('playwright-core');
  // the launch flags of test/helpers/browser.ts
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--allow-file-access-from-files'],
    timeout: 60_000,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(path.join(dir, 'report.html')).href, { waitUntil: 'load' });
    await page.screenshot({ path: out, fullPage: false });
  } finally {
    await browser.close();
  }
  console.log(
    `report-picture: wrote ${path.relative(process.cwd(), out) || out} (${Math.round(statSync(out).size / 1024)} KB; ` +
      `${epochs} GAN epochs)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
