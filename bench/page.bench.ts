// The browser page's default audit of its sample data (target: ≤ 60 s on one thread, ≤ 30 s when
// cross-origin isolated), in Debian's chromium through playwright-core: the page served without
// cross-origin isolation (one kernel thread), its sample data (1,000 simulated loans), every option
// left at its default, Run, until the report is shown. Cases: GAN seeds one after another (the
// baseline, ?gan-side-by-side=off) and side by side (?gan-side-by-side=on: a Web Worker per core,
// which needs no shared memory), and the page cross-origin isolated (threaded engine, side by side as
// the default). A sample is the worker's time of runAudit and the report's rendering (its `done`
// message); the log also gives the estimate the page showed before Run, to compare with it. Opt-in
// (LUCID_BENCH_PAGE=1: minutes per round), interleaved, 2 rounds; skipped without chromium or dist-web/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { Engine } from '../src/engine/engine.js';
import type { Group } from './lib/runner.js';
import { CHROMIUM, launch, ROOT, serve } from '../test/helpers/browser.js';

/**
 * One default audit of the sample data on the page at `url`: the audit's seconds (the worker's) and the estimate shown
 * before Run.
 */
async function pageAudit(
  browser: Browser,
  url: string,
): Promise<{ seconds: number; estimate: string; engine: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    await page.click('#sample');
    await page.waitForFunction(() => document.body.dataset.state === 'loaded', undefined, { timeout: 120_000 });
    await page.waitForFunction(
      () => /Estimate before the run: /.test(document.getElementById('run-info')?.textContent ?? ''),
      undefined,
      { timeout: 120_000 },
    );
    const estimate = (await page.textContent('#run-info')) ?? '';
    await page.click('#train');
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, {
      timeout: 1_800_000,
      polling: 1000,
    });
    if ((await page.evaluate(() => document.body.dataset.state)) !== 'done')
      throw new Error(`the page's audit failed: ${(await page.textContent('#error')) ?? ''}`);
    const seconds = Number(await page.evaluate(() => document.body.dataset.seconds));
    return { seconds, estimate, engine: (await page.textContent('#engine-info')) ?? '' };
  } finally {
    await page.close();
  }
}

export function pageGroups(_engine: Engine, log: (m: string) => void): Group[] {
  if (process.env.LUCID_BENCH_PAGE !== '1') return [];
  return [
    {
      tier: 'audit',
      name: 'page default sample audit',
      unit: 'ms',
      async: true,
      warmup: false,
      budget: { rounds: 2 },
      async prepare() {
        if (!existsSync(CHROMIUM)) {
          log(`  page: skipped: chromium not found at ${CHROMIUM}`);
          return { cases: [] };
        }
        if (!existsSync(path.join(ROOT, 'dist-web', 'index.html'))) {
          log('  page: skipped: dist-web/ is not built (node tools/build-web.mjs)');
          return { cases: [] };
        }
        const browser = await launch();
        const plain = await serve(path.join(ROOT, 'dist-web'), { crossOriginIsolated: false });
        const isolated = await serve(path.join(ROOT, 'dist-web'));
        const timed = (label: string, url: string) => async () => {
          const r = await pageAudit(browser, url);
          log(
            `  page ${label}: ${r.seconds.toFixed(1)} s; ${r.engine.trim()}; shown before Run: ` +
              `${r.estimate.replace(/^.*?Estimate before the run: /, '').replace(/\. Cancel.*$/, '')}`,
          );
          return r.seconds * 1000;
        };
        return {
          cases: [
            {
              engine: 'lucid' as const,
              impl: 'not isolated (1 thread), GAN seeds one after another',
              baseline: true,
              fn: timed('1 thread, one after another', `${plain.url}?gan-side-by-side=off`),
            },
            {
              engine: 'lucid' as const,
              impl: 'not isolated (1 thread), GAN seeds side by side',
              fn: timed('1 thread, side by side', `${plain.url}?gan-side-by-side=on`),
            },
            {
              engine: 'lucid' as const,
              impl: 'cross-origin isolated (threads), the default',
              fn: timed('isolated, default', isolated.url),
            },
          ],
          dispose: async () => {
            await browser.close();
            await plain.close();
            await isolated.close();
          },
        };
      },
    },
  ];
}
