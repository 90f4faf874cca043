// The browser page audits a score, classes or a real value (issue #40): the kind is inferred from the columns and
// said (as lucid audit says it), the kind's fields are shown (favourable higher|lower, the class order, the targets of
// the canonical sets), the worker runs runAnyAudit and the page shows the report lucid audit writes for the kind (its
// output line, verdict and group metrics), with the canonical sets of the two targets in the page's summary; a band
// that does not parse, a class not in the data and a kind that does not fit the columns are said as messages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { artifact, auditInPage, browserSkip, pageFixture, reportFrame, ROOT, watchErrors } from '../helpers/browser.js';

const skip = browserSkip();
const DIR = mkdtempSync(path.join(tmpdir(), 'lucid-page-outputs-'));
/** the simulator's data of each target (docs/data.md "Targets"), 300 rows with a planted penalty on group B */
const data = (target: string) => path.join(DIR, `${target}.csv`);

/** A stack trace's marks: an error's name with a colon, or a frame "at f (file:line)". */
const STACK = /\b(?:Type|Reference|Range|Syntax)?Error:|\bat \S+ \(|\.js:\d+/;

describe('browser page: scores, classes and real values', { skip: skip ?? false, timeout: 300_000 }, () => {
  const fx = pageFixture();
  before(() => {
    for (const target of ['score', 'multiclass', 'regression']) {
      const r = spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'bin/lucid.js'),
          'dataset',
          'export',
          'sim',
          '--target',
          target,
          '--bias',
          'direct',
          '--rows',
          '300',
          '--seed',
          '1',
          '--out',
          data(target),
        ],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
    }
    // a built-in multiclass model of the merited class (lucid model train infers the kind from the label)
    const m = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'bin/lucid.js'),
        'model',
        'train',
        '--data',
        data('multiclass'),
        '--label',
        'merited',
        '--drop',
        'decision',
        '--hidden',
        'none',
        '--epochs',
        '20',
        '--quiet',
        '--out',
        path.join(DIR, 'merited.json'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(m.status, 0, m.stderr);
  });
  after(() => rmSync(DIR, { recursive: true, force: true }));

  async function load(target: string, pred: string, label: string): Promise<{ page: Page; errors: string[] }> {
    const page = await fx.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(fx.server.url);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    await page.setInputFiles('#file', data(target));
    await page.waitForFunction(() => document.body.dataset.state === 'loaded');
    await page.selectOption('#pred', pred);
    await page.selectOption('#label', label);
    // one protected column: group, whose rows B carry the planted penalty
    for (const c of await page.$$eval('#protected input:checked', (b) => b.map((x) => (x as HTMLInputElement).value)))
      if (c !== 'group') await page.uncheck(`#protected input[value="${c}"]`);
    await page.check('#protected input[value="group"]');
    return { page, errors };
  }

  const FAST = { epochs: '3', 'gan-seeds': '1', rows: '100', 'intersection-rows': '0', 'fale-bootstrap': '0' };

  it(
    'a score: inferred and said, favourable higher, two ' + 'bands; the report of a score and the sets of its bands',
    async () => {
      const { page, errors } = await load('score', 'credit_score', 'repaid');
      try {
        assert.match((await page.textContent('#output-info')) ?? '', /^Output: inferred score: /);
        assert.equal(await page.isVisible('#targets'), true, 'the targets of the canonical sets are asked for');
        assert.equal(await page.isVisible('#band-scale'), true);
        assert.equal(await page.isVisible('#class-order'), false, 'no class order for a score');
        // no favourable end by default: a default would read a risk score the wrong way round
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])');
        assert.match(
          (await page.textContent('#error')) ?? '',
          /Choose the favourable end of the score: higher or lower/,
        );
        await page.selectOption('#favourable', 'higher');
        // the top and bottom 40%: 300 rows give the default deciles 61 rows, fewer than an audit of the sets needs
        await page.fill('#targets', '0.6-1, 0-0.4');
        await auditInPage(page, FAST, 240_000);
        const summary = (await page.textContent('#summary')) ?? '';
        assert.match(summary, /output inferred score: /);
        assert.match(
          summary,
          /Canonical sets of quantiles 0\.6–1 of credit_score .* against quantiles 0–0\.4 of credit_score/,
        );
        assert.match(summary, /LUCID-GAN 3 epochs × 1 seed/);
        const report = await reportFrame(page);
        assert.match((await report.textContent('#output-kind')) ?? '', /Output: score\./);
        assert.match((await report.textContent('#metrics h2')) ?? '', /Group metrics \(score\)/);
        assert.ok((await report.$$eval('#verdict table.verdict-table tbody tr', (r) => r.length)) > 0, 'verdict table');
        assert.ok((await report.$$eval('#metrics svg[data-chart]', (s) => s.length)) > 0, "the score's curve");
        // the report shown is the one offered, and audit.json says the kind
        const files = await page.$$eval('#files a', (a) => a.map((x) => x.textContent ?? ''));
        for (const f of ['report.html', 'audit.json', 'metrics.json', 'metrics.csv']) assert.ok(files.includes(f), f);
        const json = await page.evaluate(async () => {
          const a = Array.from(document.querySelectorAll<HTMLAnchorElement>('#files a')).find(
            (x) => x.textContent === 'audit.json',
          )!;
          return (await fetch(a.href)).text();
        });
        const audit = JSON.parse(json) as { kind: string; meta: { command: { options: Record<string, unknown> } } };
        assert.equal(audit.kind, 'score');
        assert.equal(audit.meta.command.options.favourable, 'higher');
        assert.match(String(audit.meta.command.options.output), /^inferred: inferred score/);
        await page.screenshot({ path: artifact('page-score.png'), fullPage: true });
        assert.deepEqual(errors, [], 'no console errors');
      } finally {
        await page.close();
      }
    },
  );

  it('classes: the class order and two classes given; the report of a multiclass output', async () => {
    const { page, errors } = await load('multiclass', 'decision', 'merited');
    try {
      assert.match((await page.textContent('#output-info')) ?? '', /^Output: inferred multiclass: /);
      assert.equal(await page.isVisible('#favourable'), false, 'a multiclass output takes a class order instead');
      // the label's classes: no positive class, but one may be named (the decision "this value or not")
      assert.equal(await page.inputValue('#positive'), '');
      await page.selectOption('#positive', 'approve');
      assert.match(
        (await page.textContent('#output-info')) ?? '',
        /^Output: binary: --positive "approve" names the positive class/,
      );
      await page.selectOption('#positive', '');
      await page.selectOption('#output', 'multiclass');
      assert.equal(await page.isVisible('#positive'), false, 'a multiclass output chosen takes no positive class');
      await page.fill('#class-order', 'approve, refer, decline');
      await page.fill('#targets', 'approve, decline');
      await auditInPage(page, FAST, 240_000);
      assert.match(
        (await page.textContent('#summary')) ?? '',
        /Canonical sets of class approve .* against class decline/,
      );
      const report = await reportFrame(page);
      assert.match((await report.textContent('#output-kind')) ?? '', /Output: multiclass\./);
      assert.match((await report.textContent('#metrics h2')) ?? '', /Group metrics \(multiclass\)/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it("a multiclass model.json: its declared kind said before the run, the model's classes audited", async () => {
    const { page, errors } = await load('multiclass', 'decision', 'merited');
    try {
      await page.setInputFiles('#model', path.join(DIR, 'merited.json'));
      await page.waitForSelector('#model-info:not([hidden])');
      assert.match((await page.textContent('#output-info')) ?? '', /^Output: multiclass: the model file declares it\./);
      assert.equal(await page.isVisible('#class-order'), true);
      await page.fill('#class-order', 'approve,refer,decline');
      await auditInPage(page, FAST, 240_000);
      assert.match(
        (await page.textContent('#summary')) ?? '',
        /Canonical sets of class approve .* against class decline/,
      );
      const report = await reportFrame(page);
      assert.match(
        (await report.textContent('#output-kind')) ?? '',
        /Output: multiclass\. multiclass: the model declares it/,
      );
      assert.match((await report.textContent('#metrics h2')) ?? '', /Group metrics \(multiclass\)/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('a real value: inferred regression, favourable higher, tolerance in units; its report', async () => {
    const { page, errors } = await load('regression', 'offered_limit', 'merited_limit');
    try {
      assert.match((await page.textContent('#output-info')) ?? '', /^Output: inferred regression: /);
      assert.equal(await page.isVisible('#tolerance-units'), true);
      await page.selectOption('#favourable', 'higher');
      await page.fill('#tolerance-units', '500');
      await auditInPage(page, FAST, 240_000);
      // the default deciles of 300 rows are too few rows to audit their sets: the page says so, as the report does
      assert.match(
        (await page.textContent('#checks')) ?? '',
        /^No canonical sets: .*the data has \d+ rows; an audit needs at least 100/,
      );
      const report = await reportFrame(page);
      assert.match((await report.textContent('#output-kind')) ?? '', /Output: regression\./);
      assert.match((await report.textContent('#metrics h2')) ?? '', /Group metrics \(regression\)/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  const bad: [string, string, string, string, Record<string, string>, RegExp][] = [
    [
      'a band that does not parse',
      'score',
      'credit_score',
      'repaid',
      { targets: '0.9 to 1' },
      /--band "0.9 to 1" is not two numbers lo-hi/,
    ],
    [
      'a quantile band outside [0, 1]',
      'score',
      'credit_score',
      'repaid',
      { targets: '700-850' },
      /read in quantiles, which lie in \[0, 1\]/,
    ],
    [
      'three bands',
      'score',
      'credit_score',
      'repaid',
      { targets: '0-0.1, 0.4-0.6, 0.9-1' },
      /give one or two bands, got 3/,
    ],
    [
      'a class not in the data',
      'multiclass',
      'decision',
      'merited',
      { targets: 'maybe' },
      /"maybe" is not a class of the output; its classes are: approve, decline, refer/,
    ],
    [
      'a class order naming a class not in the data',
      'multiclass',
      'decision',
      'merited',
      { 'class-order': 'approve,maybe,decline,refer' },
      /--class-order names "maybe", which is not a class of the label/,
    ],
    [
      'a kind that does not fit',
      'score',
      'credit_score',
      'repaid',
      { '#output': 'regression' },
      /--output regression does not fit the columns: .*regression needs a numeric label/,
    ],
  ];
  for (const [what, target, pred, label, fields, message] of bad)
    it(`${what} is said as a message, not a stack trace; nothing runs`, async () => {
      const { page, errors } = await load(target, pred, label);
      try {
        if (target !== 'multiclass') await page.selectOption('#favourable', 'higher');
        for (const [id, value] of Object.entries(fields))
          if (id.startsWith('#')) await page.selectOption(id, value);
          else await page.fill(`#${id}`, value);
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])');
        const text = (await page.textContent('#error')) ?? '';
        assert.match(text, message);
        assert.doesNotMatch(text, STACK);
        assert.equal(await page.evaluate(() => document.body.dataset.state), 'error');
        assert.equal(await page.isVisible('#results'), false);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

  it(
    'numbers outside [0, 1] against a two-valued label are ' + 'a score, as lucid audit infers; chosen binary, refused',
    async () => {
      const page = await fx.browser.newPage();
      try {
        await page.goto(fx.server.url);
        await page.waitForFunction(() => document.body.dataset.state === 'idle');
        const csv = 'age,y,score\n30,a,0.5\n40,b,7\n50,a,0.2\n';
        await page.setInputFiles('#file', { name: 's.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state ?? ''));
        await page.selectOption('#pred', 'score');
        await page.selectOption('#label', 'y');
        assert.match(
          (await page.textContent('#output-info')) ?? '',
          /inferred score: the prediction column "score" holds numbers outside \[0, 1\]/,
        );
        await page.selectOption('#output', 'binary');
        assert.match((await page.textContent('#output-info')) ?? '', /--output binary does not fit the columns/);
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])');
        assert.match((await page.textContent('#error')) ?? '', /--output binary does not fit the columns/);
      } finally {
        await page.close();
      }
    },
  );
});
