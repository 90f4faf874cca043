// Threads in the browser page: served cross-origin isolated (COOP + COEP), the training
// worker runs the engine on 2 threads (nested module workers over one shared WebAssembly.Memory);
// served without those headers (no SharedArrayBuffer) it falls back to one thread. Both runs audit
// the same CSV with the same seed and epochs, and their canonical-set downloads must be
// byte-identical: the threaded engine gives the single-threaded engine's results bit for bit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { auditInPage, browserSkip, launch, ROOT, serve, watchErrors } from '../helpers/browser.js';

const skip = browserSkip();
const FIXTURE = path.join(ROOT, 'test/fixtures/web/loans-300.csv');

interface Run {
  isolated: boolean;
  /** the page's words on its engine before the run */
  before: string;
  threads: string | undefined;
  engine: string;
  positive: string;
  negative: string;
  errors: string[];
}

describe('browser page: threads when cross-origin isolated, one thread otherwise', {
  skip: skip ?? false,
  timeout: 120_000,
}, () => {
  let browser: Browser;
  let isolated: Awaited<ReturnType<typeof serve>>;
  let plain: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    const b = spawnSync(process.execPath, [path.join(ROOT, 'tools/build-web.mjs')], { encoding: 'utf8' });
    assert.equal(b.status, 0, `build-web failed:\n${b.stdout}${b.stderr}`);
    isolated = await serve(path.join(ROOT, 'dist-web'));
    plain = await serve(path.join(ROOT, 'dist-web'), { crossOriginIsolated: false });
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await isolated?.close();
    await plain?.close();
  });

  /** Trains the fixture on the page at `url` (asking for 2 threads) and returns the downloads. */
  async function train(url: string): Promise<Run> {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    try {
      await page.goto(`${url}?threads=2`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle');
      // said before the run: the page's engine and its threads
      await page.waitForFunction(() => /^Engine: /.test(document.getElementById('run-info')?.textContent ?? ''));
      const before = (await page.textContent('#run-info')) ?? '';
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      await page.selectOption('#pred', 'preds');
      await auditInPage(page, { epochs: '2', rows: '200', seed: '7' }, 60_000);
      const csv = (id: string) =>
        page.evaluate(async (a) => (await fetch((document.getElementById(a) as HTMLAnchorElement).href)).text(), id);
      return {
        isolated: await page.evaluate(() => globalThis.crossOriginIsolated),
        threads: await page.evaluate(() => document.body.dataset.threads),
        engine: (await page.textContent('#engine-info')) ?? '',
        before,
        positive: await csv('dl-positive'),
        negative: await csv('dl-negative'),
        errors,
      };
    } finally {
      await page.close();
    }
  }

  it('trains on 2 threads when isolated, on 1 without isolation, with byte-identical canonical sets', async () => {
    const threaded = await train(isolated.url);
    assert.equal(threaded.isolated, true, 'COOP + COEP make the page cross-origin isolated');
    assert.equal(threaded.threads, '2', threaded.engine);
    assert.match(threaded.engine, /\b2 threads\b/);
    assert.deepEqual(threaded.errors, [], 'no console errors (threads)');

    const single = await train(plain.url);
    assert.equal(single.isolated, false);
    assert.equal(single.threads, '1', single.engine);
    assert.match(single.engine, /1 thread \(the page is not cross-origin isolated\)/);
    // GAN seeds side by side on both: Web Workers need no shared memory, so the fallback trains on 2 cores too
    assert.match(
      single.before,
      /^Engine: .*1 thread \(the page is not cross-origin isolated\); GAN seeds side by side, 2 at once\./,
      'said before the run',
    );
    assert.match(threaded.before, /^Engine: .*2 threads; GAN seeds side by side, 2 at once\./, 'said before the run');
    assert.deepEqual(single.errors, [], 'no console errors (fallback)');

    // 200 rows per GAN seed at most (rejection sampling may stop at its cap), three seeds by default
    const rows = threaded.positive.trim().split('\n').length - 1;
    assert.ok(rows > 0 && rows <= 600, `${rows} rows`);
    assert.equal(threaded.positive, single.positive, 'positive set: threaded = single-threaded, byte for byte');
    assert.equal(threaded.negative, single.negative, 'negative set: threaded = single-threaded, byte for byte');
    assert.notEqual(threaded.positive, threaded.negative);
  });
});
