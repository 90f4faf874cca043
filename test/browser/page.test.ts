// The browser page (web/, built into dist-web/ by tools/build-web.mjs) in a real chromium: upload a
// CSV (or make the sample data), pick the predictions, label and protected columns, run the audit in
// the Web Worker, check the findings, the checks against the data, the charts with their fidelity, the
// progress bar, the downloads and that nothing was logged as an error; bad inputs show a message.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { artifact, browserSkip, chartProblems, pageFixture, ROOT, watchErrors } from '../helpers/browser.js';

const skip = browserSkip();
const FIXTURE = path.join(ROOT, 'test/fixtures/web/loans-300.csv');
const FEATURES = readFileSync(FIXTURE, 'utf8').split('\n')[0].split(',').filter((c) => c !== 'preds');

describe('browser page (dist-web) in chromium', { skip: skip ?? false, timeout: 120_000 }, () => {
  const fx = pageFixture();

  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await fx.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(fx.server.url);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    return { page, errors };
  }

  it('audits a small CSV in the worker: the findings, the checks against the data, charts with their fidelity, downloads', async () => {
    const { page, errors } = await open();
    try {
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      assert.equal(await page.inputValue('#pred'), 'preds', 'the predictions column is guessed');
      assert.equal(await page.inputValue('#label'), 'approved', 'the label column is guessed');
      const ticked = await page.$$eval('#protected input:checked', (b) => b.map((x) => (x as HTMLInputElement).value));
      assert.deepEqual(ticked, ['age', 'sex', 'group'], 'protected columns guessed by name');
      assert.match(await page.textContent('#file-info') ?? '', /300 rows, 10 columns/);
      await page.uncheck('#protected input[value="age"]');
      await page.fill('#epochs', '3');
      await page.fill('#rows', '300');
      await page.fill('#seed', '1');
      await page.click('#train');
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 90_000 });
      const state = await page.evaluate(() => document.body.dataset.state);
      assert.equal(state, 'done', `the audit failed: ${await page.textContent('#error')}`);
      assert.equal(await page.evaluate(() => (document.getElementById('progress') as HTMLProgressElement).value), 100, 'the progress bar reached its end');
      assert.match(await page.textContent('#summary') ?? '', /LUCID-GAN 3 epochs × 3 seeds/);

      // the checks against the data, said at the top; the findings say only what the data confirms
      const checks = await page.$eval('#checks', (e) => ({ text: e.textContent ?? '', dis: (e as HTMLElement).dataset.disagreements, unf: (e as HTMLElement).dataset.unfaithful }));
      assert.ok(checks.dis !== undefined && checks.unf !== undefined);
      if (Number(checks.dis) > 0) assert.match(checks.text, /disagree with the data on \d+ value/);
      const findings = await page.textContent('#findings') ?? '';
      assert.match(findings, /Canonical sets from 3 LUCID-GANs/);
      assert.match(findings, /Protected attribute sex/);
      assert.match(findings, /Protected attribute group/);
      assert.match(findings, /validity: the surrogate of the predictions column/i);

      const { count, problems } = await chartProblems(page);
      const features = FEATURES.filter((f) => f !== 'approved');
      assert.equal(count, features.length + 1, 'a JS ranking and one chart per generated feature');
      assert.deepEqual(problems, []);
      const captions = await page.$$eval('#charts figcaption', (f) => f.map((x) => x.textContent ?? ''));
      assert.equal(captions.filter((c) => /fidelity to the real rows on each side: positive (KS|TV) /.test(c)).length, features.length, 'every chart gives its fidelity');
      const kinds = await page.$$eval('svg.chart', (s) => s.map((x) => x.getAttribute('data-chart')));
      assert.deepEqual(new Set(kinds), new Set(['js-ranking', 'histogram-pair', 'grouped-bars']));
      assert.ok(await page.$$eval('#charts .counterpart', (r) => r.length) > 0, 'the real rows on each side are drawn');

      // the downloads: the sets as CSV with the GAN seed of every row, and the whole report
      for (const which of ['positive', 'negative']) {
        const csv = await page.evaluate(async (id) => {
          const a = document.getElementById(id) as HTMLAnchorElement;
          return a.href.startsWith('blob:') ? (await fetch(a.href)).text() : `not a blob URL: ${a.href}`;
        }, `dl-${which}`);
        const lines = csv.trim().split('\n');
        const head = lines[0].split(',');
        assert.ok(head.includes('preds') && head[head.length - 1] === 'gan_seed', lines[0]);
        assert.ok(lines.length > 1);
      }
      const html = await page.evaluate(async () => (await fetch((document.getElementById('dl-report') as HTMLAnchorElement).href)).text());
      assert.match(html, /^<!DOCTYPE html>/);
      assert.match(html, /id="findings"/);
      await page.screenshot({ path: artifact('page.png'), fullPage: true });
      assert.deepEqual(errors, [], 'no console errors');
    } finally {
      await page.close();
    }
  });

  it('makes its sample data: simulated loans with a planted bias and a model\'s predictions, ready to audit', async () => {
    const { page, errors } = await open();
    try {
      await page.click('#sample');
      await page.waitForFunction(() => document.body.dataset.state === 'loaded', undefined, { timeout: 60_000 });
      assert.match(await page.textContent('#file-info') ?? '', /sample-loans\.csv .*penalises group = B.*: 1000 rows, 10 columns/);
      assert.equal(await page.inputValue('#pred'), 'preds');
      assert.equal(await page.inputValue('#label'), 'approved');
      assert.deepEqual(await page.$$eval('#protected input:checked', (b) => b.map((x) => (x as HTMLInputElement).value)), ['sex', 'group']);
      assert.equal(await page.inputValue('#epochs'), '', 'the default length: the audit\'s own');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('Cancel stops training after the current step and still shows the sets of the last model', async () => {
    const { page, errors } = await open();
    try {
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      await page.fill('#epochs', '500');
      await page.fill('#rows', '100');
      await page.click('#train');
      await page.waitForFunction(() => document.body.dataset.stage === 'gan' && (document.getElementById('progress') as HTMLProgressElement).value >= 9, undefined, { timeout: 60_000 });
      await page.click('#cancel');
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', (await page.textContent('#error')) ?? '');
      assert.match(await page.textContent('#summary') ?? '', /cancelled/);
      assert.match(await page.textContent('#findings') ?? '', /Canonical sets from 1 LUCID-GAN/, 'the audit goes on with the first GAN, trained that far');
      assert.ok((await chartProblems(page)).count > 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  const bad: [string, string | Buffer, string | null, RegExp][] = [
    ['a zip archive', Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00garbage', 'latin1'), null, /zip archive/],
    ['binary data', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10]), null, /Cannot read this file/],
    ['a ragged CSV', 'age,sex,preds\n30,F,0.5\n40,M\n50,F,0.2\n', null, /line 3 has 2 fields, expected 3/],
    ['a text predictions column', 'age,sex,preds\n30,F,0.5\n40,M,0.1\n50,F,0.2\n', 'sex', /"sex" is not numeric/],
    ['predictions outside [0, 1]', 'age,score\n30,0.5\n40,7\n50,0.2\n', 'score', /value 7 .*outside \[0, 1\]/],
  ];
  for (const [what, content, pick, message] of bad) {
    it(`${what} shows an error message in the page, no crash`, async () => {
      const { page, errors } = await open();
      try {
        await page.setInputFiles('#file', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
        await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state ?? ''));
        if (pick) {
          await page.selectOption('#pred', pick);
          await page.click('#train');
        }
        await page.waitForSelector('#error:not([hidden])');
        assert.match(await page.textContent('#error') ?? '', message);
        assert.equal(await page.evaluate(() => document.body.dataset.state), 'error');
        assert.equal(await page.$$eval('svg.chart', (s) => s.length), 0);
        if (what === 'a ragged CSV') await page.screenshot({ path: artifact('page-bad-input.png') });
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

