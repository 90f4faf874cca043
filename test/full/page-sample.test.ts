// The browser page's default training length passes the checks on the page's own
// sample data (simulated loans, group = B penalised): with every default (the audit's epoch count,
// three GAN seeds), no protected value's canonical shift disagrees with the data, and the planted bias
// is stated as a finding the data confirms (group = B disfavoured).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { artifact, browserSkip, pageFixture, watchErrors } from '../helpers/browser.js';
import { fullSkip } from '../helpers/full.js';

const skip = fullSkip() || browserSkip() || false;

describe('browser page: the default length on the sample data', { skip, timeout: 1_800_000 }, () => {
  const fx = pageFixture();

  it('finds the planted bias, confirmed by the data, with no protected value contradicted', async () => {
    const page = await fx.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchErrors(page);
    try {
      await page.goto(fx.server.url);
      await page.waitForFunction(() => document.body.dataset.state === 'idle');
      await page.click('#sample');
      await page.waitForFunction(() => document.body.dataset.state === 'loaded', undefined, { timeout: 120_000 });
      await page.click('#train');
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, {
        timeout: 1_500_000,
        polling: 1000,
      });
      assert.equal(
        await page.evaluate(() => document.body.dataset.state),
        'done',
        (await page.textContent('#error')) ?? '',
      );
      // the page shows the whole report in a frame (#report); its Findings section is the report's
      const findings = await page.frameLocator('#report').locator('#findings').innerHTML();
      const attr = (name: string) => {
        const m = new RegExp(`Protected attribute <strong>${name}</strong>.*?</li>`, 's').exec(findings);
        assert.ok(m, `no finding for ${name}`);
        return m[0];
      };
      const group = attr('group');
      assert.match(
        group,
        /✓ the sets agree with the data<\/span> the model's positive decisions .*disfavour <strong>B<\/strong>/s,
        group,
      );
      for (const a of ['group', 'sex'])
        assert.doesNotMatch(attr(a), /the sets shift the other way from the data/, `${a}: ${attr(a)}`);
      await page.screenshot({ path: artifact('page-sample-default.png'), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
