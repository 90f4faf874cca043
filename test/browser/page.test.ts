// The browser page (web/, built into dist-web/ by tools/build-web.mjs) in a real chromium: upload a
// CSV (or make the sample data), pick the predictions, label and protected columns (or give a model
// file: a JS module, or a built-in model.json), run the audit in the Web Worker, check the whole report
// shown in the page (verdict, findings, metrics, canonical sets with their checks, intersections, and
// with a model FALE and LUCID), the progress bar, the downloads, that nothing was logged as an error and
// that no request left the page (the data stays on the machine); bad inputs show a message.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { readZip, filesSectionPatterns, semicolonDecimalComma } from '../helpers/audit-files.js';
import {
  artifact,
  auditInPage,
  browserSkip,
  chartProblems,
  pageFixture,
  reportFrame,
  ROOT,
  textOverflow,
  watchErrors,
  watchOutside,
} from '../helpers/browser.js';

const skip = browserSkip();
const FIXTURE = path.join(ROOT, 'test/fixtures/web/loans-300.csv');
const FEATURES = readFileSync(FIXTURE, 'utf8')
  .split('\n')[0]
  .split(',')
  .filter((c) => c !== 'preds');

/**
 * What every report shown in the page holds: the verdict table, findings, metrics, canonical sets with their checks,
 * intersections.
 */
async function fullReport(report: Frame, features: string[]): Promise<void> {
  assert.ok((await report.$$eval('#verdict table.verdict-table tbody tr', (r) => r.length)) > 0, 'the verdict table');
  assert.ok((await report.$$eval('#metrics table', (t) => t.length)) > 0, 'the group metrics tables');
  assert.ok(
    (await report.$$eval('#intersections svg[data-chart=heatmap]', (t) => t.length)) > 0,
    'the intersections heat map',
  );
  // the frame is as tall as the report, and follows as its <details> open
  const folded = await report.page().evaluate(() => document.getElementById('report')!.getBoundingClientRect().height);
  await report.$$eval('details', (d) => d.forEach((x) => ((x as HTMLDetailsElement).open = true)));
  await report
    .page()
    .waitForFunction((h) => document.getElementById('report')!.getBoundingClientRect().height > h + 200, folded, {
      timeout: 5_000,
    });
  const { count, problems } = await chartProblems(report);
  assert.ok(count >= features.length + 1, `a JS ranking and one chart per generated feature (${count} charts)`);
  assert.deepEqual(problems, []);
  const captions = await report.$$eval('#canonical figcaption', (f) => f.map((x) => x.textContent ?? ''));
  assert.equal(
    captions.filter((c) => /fidelity to the real rows on each side: positive (KS|TV) /.test(c)).length,
    features.length,
    'every chart of the canonical sets gives its fidelity (its check against the real rows)',
  );
  const titles = await report.$$eval('#canonical svg.chart', (s) => s.map((x) => x.getAttribute('aria-label') ?? ''));
  assert.ok(!titles.some((t) => t.startsWith('approved:')), 'the label column is not a generated feature');
  const kinds = new Set(await report.$$eval('svg.chart', (s) => s.map((x) => x.getAttribute('data-chart'))));
  for (const k of ['js-ranking', 'histogram-pair', 'grouped-bars', 'heatmap']) assert.ok(kinds.has(k), `a ${k} chart`);
  assert.ok(
    (await report.$$eval('#canonical .counterpart', (r) => r.length)) > 0,
    'the real rows on each side are drawn',
  );
}

/**
 * The page offers every file `lucid audit --out` writes: one zip (folder <stem>-audit) and each file on
 * its own, the same names and bytes; every file the report's "Files" section names is among them.
 */
async function offersEveryFile(page: Page, reportHtml: string, stem: string): Promise<void> {
  const offered = await page.evaluate(async () => {
    const text = async (a: HTMLAnchorElement) => (await fetch(a.href)).text();
    const links = await Promise.all(
      Array.from(document.querySelectorAll<HTMLAnchorElement>('#files a'), async (a) => ({
        name: a.textContent ?? '',
        download: a.download,
        text: await text(a),
      })),
    );
    const zipA = document.getElementById('dl-zip') as HTMLAnchorElement;
    const bytes = new Uint8Array(await (await fetch(zipA.href)).arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return {
      links,
      zipName: zipA.download,
      zip: btoa(bin),
      positive: await text(document.getElementById('dl-positive') as HTMLAnchorElement),
    };
  });
  const names = offered.links.map((l) => l.name);
  assert.equal(offered.zipName, `${stem}-audit.zip`);
  const zip = readZip(new Uint8Array(Buffer.from(offered.zip, 'base64')));
  assert.deepEqual(
    zip.map((f) => f.name),
    names.map((n) => `${stem}-audit/${n}`),
    'the zip holds the files listed one by one',
  );
  const dec = new TextDecoder();
  zip.forEach((f, i) =>
    assert.equal(dec.decode(f.data), offered.links[i].text, `${f.name}: the same bytes in the zip and on its own`),
  );
  assert.deepEqual(
    offered.links.map((l) => l.download),
    names.map((n) => `${stem}-${n}`),
  );
  for (const must of [
    'report.html',
    'audit.json',
    'canonical-positive.csv',
    'canonical-negative.csv',
    'metrics.csv',
    'metrics.json',
    'distributions.csv',
  ])
    assert.ok(names.includes(must), `${must} is offered`);
  assert.equal(offered.links.find((l) => l.name === 'report.html')?.text, reportHtml);
  assert.equal(offered.links.find((l) => l.name === 'canonical-positive.csv')?.text, offered.positive);
  assert.deepEqual(
    JSON.parse(offered.links.find((l) => l.name === 'audit.json')!.text).files,
    names,
    'audit.json lists the files offered',
  );
  for (const p of filesSectionPatterns(reportHtml))
    assert.ok(
      names.some((n) => p.test(n)),
      `the report's Files section names ${p}, which the page does not offer (${names.join(', ')})`,
    );
}

describe('browser page (dist-web) in chromium', { skip: skip ?? false, timeout: 180_000 }, () => {
  const fx = pageFixture();

  async function open(query = ''): Promise<{ page: Page; errors: string[] }> {
    const page = await fx.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(fx.server.url + query);
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    return { page, errors };
  }

  it(
    'audits a small CSV in the worker: the findings, the checks against the data, charts with their fidelity, ' +
      'downloads',
    async () => {
      const { page, errors } = await open();
      const outside = watchOutside(page, fx.server.url);
      try {
        await page.setInputFiles('#file', FIXTURE);
        await page.waitForFunction(() => document.body.dataset.state === 'loaded');
        assert.equal(await page.inputValue('#pred'), 'preds', 'the predictions column is guessed');
        assert.equal(await page.inputValue('#label'), 'approved', 'the label column is guessed');
        const ticked = await page.$$eval('#protected input:checked', (b) =>
          b.map((x) => (x as HTMLInputElement).value),
        );
        assert.deepEqual(ticked, ['age', 'sex', 'group'], 'protected columns guessed by name');
        assert.match((await page.textContent('#file-info')) ?? '', /300 rows, 10 columns/);
        await page.uncheck('#protected input[value="age"]');
        await auditInPage(
          page,
          { epochs: '3', rows: '300', 'intersection-rows': '50', 'fale-bootstrap': '0', seed: '1' },
          90_000,
        );
        // the results, below the options, are brought into view
        const view = await page.evaluate(() => ({
          top: document.getElementById('results')!.getBoundingClientRect().top,
          scrolled: scrollY,
        }));
        assert.ok(
          view.scrolled > 0 && Math.abs(view.top) <= 2,
          `the results are scrolled to the top of the window: ${JSON.stringify(view)}`,
        );
        assert.equal(
          await page.evaluate(() => (document.getElementById('progress') as HTMLProgressElement).value),
          100,
          'the progress bar reached its end',
        );
        assert.match((await page.textContent('#summary')) ?? '', /LUCID-GAN 3 epochs × 3 seeds/);

        // the checks against the data, said at the top; the findings say only what the data confirms
        const checks = await page.$eval('#checks', (e) => ({
          text: e.textContent ?? '',
          dis: (e as HTMLElement).dataset.disagreements,
          unf: (e as HTMLElement).dataset.unfaithful,
        }));
        assert.ok(checks.dis !== undefined && checks.unf !== undefined);
        if (Number(checks.dis) > 0) assert.match(checks.text, /disagree with the data on \d+ value/);
        const report = await reportFrame(page);
        const findings = (await report.textContent('#findings')) ?? '';
        assert.match(findings, /Canonical sets from 3 LUCID-GANs/);
        assert.match(findings, /Protected attribute sex/);
        assert.match(findings, /Protected attribute group/);
        assert.match(findings, /validity: the surrogate of the predictions column/i);

        const features = FEATURES.filter((f) => f !== 'approved');
        await fullReport(report, features);
        assert.equal(await page.$$eval('svg.chart', (s) => s.length), 0, 'the charts are in the report frame');
        // no text sticks out of its box on the page itself, nor in the report in its frame (every <details> open)
        assert.deepEqual(await textOverflow(page), [], 'the page');
        assert.deepEqual(await textOverflow(report), [], 'the report in the page');

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
        const html = await page.evaluate(async () =>
          (await fetch((document.getElementById('dl-report') as HTMLAnchorElement).href)).text(),
        );
        assert.match(html, /^<!DOCTYPE html>/);
        assert.match(html, /id="findings"/);
        assert.equal(
          html,
          await page.$eval('#report', (f) => (f as HTMLIFrameElement).srcdoc),
          'the download is the report shown',
        );
        await offersEveryFile(page, html, 'loans-300');
        await page.screenshot({ path: artifact('page.png'), fullPage: true });
        assert.deepEqual(errors, [], 'no console errors');
        assert.deepEqual(outside, [], 'no request left the page');
      } finally {
        await page.close();
      }
    },
  );

  // a JS model: the same contract as `lucid audit --model m.mjs` (predict(rows), optional features)
  const JS_MODEL =
    `export const features = ['income', 'debt_ratio', 'group'];
export function predict(rows) {
  return rows.map((r) => 1 / (1 + Math.exp(-((r.income - 45) / 8 - 4 * (r.debt_ratio - 0.3) - (r.group === 'B' ? 0.8 ` +
    `: 0)))));
}
`;
  for (const kind of ['a JS module', 'a built-in model.json'] as const) {
    it(
      `the whole audit in the page with ${kind}: metrics, canonical sets with their checks, intersections, ` +
        `FALE${kind === 'a JS module' ? '' : ' and LUCID'}; report.html offered; nothing leaves the page`,
      async () => {
        const { page, errors } = await open();
        const outside = watchOutside(page, fx.server.url);
        const tmp = mkdtempSync(path.join(tmpdir(), 'lucid-page-model-'));
        try {
          let model: { name: string; mimeType: string; buffer: Buffer };
          if (kind === 'a JS module')
            model = { name: 'model.mjs', mimeType: 'text/javascript', buffer: Buffer.from(JS_MODEL) };
          else {
            const file = path.join(tmp, 'model.json');
            const r = spawnSync(
              process.execPath,
              [
                path.join(ROOT, 'bin/lucid.js'),
                'model',
                'train',
                '--data',
                FIXTURE,
                '--label',
                'approved',
                '--positive',
                'yes',
                '--drop',
                'preds',
                '--hidden',
                'none',
                '--epochs',
                '20',
                '--val-fraction',
                '0',
                '--quiet',
                '--out',
                file,
              ],
              { encoding: 'utf8' },
            );
            assert.equal(r.status, 0, r.stderr);
            model = { name: 'model.json', mimeType: 'application/json', buffer: readFileSync(file) };
          }
          await page.setInputFiles('#file', FIXTURE);
          await page.waitForFunction(() => document.body.dataset.state === 'loaded');
          await page.setInputFiles('#model', model);
          await page.waitForSelector('#model-info:not([hidden])');
          assert.match(
            (await page.textContent('#model-info')) ?? '',
            new RegExp(`${model.name}.*predictions column is left out`),
          );
          await page.uncheck('#protected input[value="age"]');
          await auditInPage(
            page,
            { epochs: '2', 'gan-seeds': '1', rows: '200', 'intersection-rows': '50', 'fale-bootstrap': '0', seed: '1' },
            90_000,
          );
          const report = await reportFrame(page);
          await fullReport(
            report,
            FEATURES.filter((f) => f !== 'approved'),
          );
          const validity = (await report.textContent('#canonical')) ?? '';
          assert.match(
            validity,
            /Validity: the model scores \d/,
            "the sets' validity is scored by the model itself (not a surrogate)",
          );
          // FALE: one section per protected attribute with its charts
          assert.ok((await report.$$eval('#fale svg[data-chart=fale]', (s) => s.length)) > 0, 'FALE charts');
          const lucid = (await report.textContent('#lucid')) ?? '';
          if (kind === 'a JS module')
            assert.match(lucid, /LUCID did not run: the model \(module: model\.mjs\) gives no gradients/);
          else {
            assert.doesNotMatch(lucid, /did not run/);
            assert.ok((await report.$$eval('#lucid svg.chart', (s) => s.length)) > 0, 'LUCID charts');
          }
          const html = await page.evaluate(async () => {
            const a = document.getElementById('dl-report') as HTMLAnchorElement;
            return { name: a.download, text: await (await fetch(a.href)).text() };
          });
          assert.match(html.name, /report\.html$/);
          for (const id of ['verdict', 'findings', 'metrics', 'canonical', 'intersections', 'lucid', 'fale'])
            assert.match(html.text, new RegExp(`<section[^>]* id="${id}"`), `report.html has the ${id} section`);
          assert.equal(
            html.text,
            await page.$eval('#report', (f) => (f as HTMLIFrameElement).srcdoc),
            'the download is the report shown',
          );
          if (kind === 'a JS module') await page.screenshot({ path: artifact('page-model.png'), fullPage: true });
          assert.deepEqual(errors, [], 'no console errors');
          assert.deepEqual(outside, [], 'no request left the page');
        } finally {
          await page.close();
          rmSync(tmp, { recursive: true, force: true });
        }
      },
    );
  }

  it(
    "the positive class: the label's values, the second by default as lucid audit; the other one with these scores " +
      'stops with the inverted-scores message, unless allowed',
    async () => {
      const { page, errors } = await open();
      try {
        await page.setInputFiles('#file', FIXTURE);
        await page.waitForFunction(() => document.body.dataset.state === 'loaded');
        assert.deepEqual(await page.$$eval('#positive option', (os) => os.map((o) => (o as HTMLOptionElement).value)), [
          'no',
          'yes',
        ]);
        assert.equal(await page.inputValue('#positive'), 'yes');
        // preds is P(approved = yes): named the probability of "no", it ranks the label worse than chance
        await page.selectOption('#positive', 'no');
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
        assert.match(
          (await page.textContent('#error')) ?? '',
          /rank the label "approved" worse than chance \(AUC 0\.\d+, 99% interval/,
        );
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it('a JS module without predict shows an error message naming the file', async () => {
    const { page, errors } = await open();
    try {
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      await page.setInputFiles('#model', {
        name: 'bad.mjs',
        mimeType: 'text/javascript',
        buffer: Buffer.from('export const score = 1;\n'),
      });
      await page.waitForSelector('#model-info:not([hidden])');
      await page.click('#train');
      await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
      assert.match(
        (await page.textContent('#error')) ?? '',
        /bad\.mjs: the module does not export a function "predict" \(its exports: score\)/,
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it(
    'a JS module whose predict never returns is stopped after the model timeout, with a message naming it; the next ' +
      'audit runs',
    async () => {
      const { page, errors } = await open('?model-timeout=2');
      try {
        await page.setInputFiles('#file', FIXTURE);
        await page.waitForFunction(() => document.body.dataset.state === 'loaded');
        await page.setInputFiles('#model', {
          name: 'stuck.mjs',
          mimeType: 'text/javascript',
          buffer: Buffer.from('export function predict(rows) { for (;;) {} }\n'),
        });
        await page.waitForSelector('#model-info:not([hidden])');
        const t0 = Date.now();
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
        const waited = (Date.now() - t0) / 1000;
        assert.match(
          (await page.textContent('#error')) ?? '',
          /stuck\.mjs: the model took longer than 2 s one call of predict and was stopped; it may be stuck in an endless loop/,
        );
        assert.equal(await page.evaluate(() => document.body.dataset.state), 'error');
        assert.ok(waited < 20, `stopped after ${waited.toFixed(1)} s`);
        assert.equal(await page.isEnabled('#train'), true, 'the page can audit again');
        // a working model audits in a new worker
        await page.setInputFiles('#model', {
          name: 'ok.mjs',
          mimeType: 'text/javascript',
          buffer: Buffer.from(
            'export function predict(rows) { return rows.map((r) => (Number(r.income ?? 0) > 50 ? 0.9 : 0.1)); }\n',
          ),
        });
        await page.waitForSelector('#model-info:not([hidden])');
        await auditInPage(page, {}, 150_000);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it(
    "reads a Parquet upload (DuckDB's writer, zstd) through the core readers, as the CSV: the same columns and " +
      'guesses; it audits; a damaged one is a message',
    async () => {
      const { page, errors } = await open();
      try {
        const accept = (await page.getAttribute('#file', 'accept')) ?? '';
        for (const ext of ['.csv', '.parquet', '.arrow', '.jsonl'])
          assert.ok(accept.split(',').includes(ext), `accept lists ${ext}: ${accept}`);
        await page.setInputFiles('#file', path.join(ROOT, 'test/fixtures/columnar/loans-300.parquet'));
        await page.waitForFunction(() => document.body.dataset.state === 'loaded');
        assert.equal(await page.inputValue('#pred'), 'preds');
        assert.equal(await page.inputValue('#label'), 'approved');
        const ticked = await page.$$eval('#protected input:checked', (b) =>
          b.map((x) => (x as HTMLInputElement).value),
        );
        assert.deepEqual(ticked, ['age', 'sex', 'group']);
        assert.match(
          (await page.textContent('#file-info')) ?? '',
          /loans-300\.parquet \(Apache Parquet\).*300 rows, 10 columns/,
        );
        await page.uncheck('#protected input[value="age"]');
        await auditInPage(
          page,
          { epochs: '1', 'gan-seeds': '1', rows: '100', 'intersection-rows': '0', 'fale-bootstrap': '0' },
          90_000,
        );
        const report = await reportFrame(page);
        assert.ok(
          (await report.$$eval('#verdict table.verdict-table tbody tr', (r) => r.length)) > 0,
          'the verdict table',
        );
        await page.setInputFiles('#file', path.join(ROOT, 'test/fixtures/columnar/truncated.parquet'));
        await page.waitForSelector('#error:not([hidden])');
        assert.match(
          (await page.textContent('#error')) ?? '',
          /truncated\.parquet: not a Parquet file, or a damaged one/,
        );
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it(
    'reads a semicolon file with decimal commas as the CLI does (numbers), and offers as protected columns only ' +
      'candidates: not the label, the predictions or an identifier',
    async () => {
      const { page, errors } = await open();
      try {
        // loans-300 as a decimal-comma spreadsheet writes it, with an identifier column in front
        const lines = semicolonDecimalComma(readFileSync(FIXTURE, 'utf8')).trimEnd().split('\n');
        const text = lines.map((l, i) => `${i === 0 ? 'id' : `C-${1000 + i}`};${l}`).join('\n') + '\n';
        await page.setInputFiles('#file', {
          name: 'loans-semicolon.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(text),
        });
        await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state ?? ''));
        assert.equal(
          await page.evaluate(() => document.body.dataset.state),
          'loaded',
          (await page.textContent('#error')) ?? '',
        );
        const info = (await page.textContent('#file-info')) ?? '';
        assert.match(info, /loans-semicolon\.csv \(delimiter ";"\): 300 rows, 11 columns/);
        for (const col of ['income', 'debt_ratio', 'preds'])
          assert.match(info, new RegExp(`${col} \\(numeric\\)`), `${col} is read as numbers: ${info}`);
        assert.match((await page.textContent('#warnings')) ?? '', /column "income" is read with decimal commas/);
        assert.equal(await page.isVisible('#error'), false, 'no "no column holds predictions"');
        assert.equal(await page.inputValue('#pred'), 'preds');
        assert.equal(await page.inputValue('#label'), 'approved');
        const offered = () => page.$$eval('#protected input', (b) => b.map((x) => (x as HTMLInputElement).value));
        const ticked = () =>
          page.$$eval('#protected input:checked', (b) => b.map((x) => (x as HTMLInputElement).value));
        assert.deepEqual(
          await offered(),
          FEATURES.filter((f) => f !== 'approved'),
          'not id (an identifier), approved (the label) or preds',
        );
        assert.deepEqual(await ticked(), ['age', 'sex', 'group']);
        // another label: the list follows it, the ticks stay
        await page.selectOption('#label', 'sex');
        assert.deepEqual(
          await offered(),
          FEATURES.filter((f) => f !== 'sex'),
          'the label approved is offered once it is not the label',
        );
        assert.deepEqual(await ticked(), ['age', 'group']);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it(
    'the decision threshold: lucid audit --threshold, ' + 'stated in the report; a value outside [0, 1] is refused',
    async () => {
      const { page, errors } = await open();
      try {
        await page.setInputFiles('#file', FIXTURE);
        await page.waitForFunction(() => document.body.dataset.state === 'loaded');
        assert.match(
          (await page.getAttribute('#threshold-label', 'title')) ?? '',
          /^--threshold: P\(positive\) above which a row is predicted positive/,
        );
        assert.equal(await page.inputValue('#threshold'), '0.5');
        await page.fill('#threshold', '1.5');
        await page.click('#train');
        await page.waitForSelector('#error:not([hidden])');
        assert.match(
          (await page.textContent('#error')) ?? '',
          /Decision threshold must be a number from 0 to 1, got "1\.5"/,
        );
        await page.uncheck('#protected input[value="age"]');
        await auditInPage(
          page,
          {
            threshold: '0.3',
            epochs: '1',
            'gan-seeds': '1',
            rows: '100',
            'intersection-rows': '0',
            'fale-bootstrap': '0',
          },
          90_000,
        );
        const report = await reportFrame(page);
        const html = await report.content();
        assert.match(html, /positive when the model's score is above <strong>0\.3<\/strong>/);
        assert.match(html, /seed 0, threshold 0\.3,/);
        // each sex's selection rate in the report is its share of preds above 0.3 in the file (not above 0.5)
        const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
        const head = lines[0].split(',');
        const rows = lines.slice(1).map((l) => l.split(','));
        for (const sex of ['Female', 'Male']) {
          const g = rows.filter((r) => r[head.indexOf('sex')] === sex).map((r) => Number(r[head.indexOf('preds')]));
          const at = (t: number) => `${((100 * g.filter((p) => p > t).length) / g.length).toFixed(1)}%`;
          assert.notEqual(at(0.3), at(0.5), 'the fixture separates the two thresholds');
          assert.ok(html.includes(`sex = ${sex}: selection rate ${at(0.3)} [`), `${sex}: ${at(0.3)} in the rate chart`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it(
    'makes its sample data: simulated loans with a ' + "planted bias and a model's predictions, ready to audit",
    async () => {
      const { page, errors } = await open();
      try {
        await page.click('#sample');
        await page.waitForFunction(() => document.body.dataset.state === 'loaded', undefined, { timeout: 60_000 });
        assert.match(
          (await page.textContent('#file-info')) ?? '',
          /sample-loans\.csv .*penalises group = B.*: 1000 rows, 10 columns/,
        );
        assert.equal(await page.inputValue('#pred'), 'preds');
        assert.equal(await page.inputValue('#label'), 'approved');
        assert.deepEqual(
          await page.$$eval('#protected input:checked', (b) => b.map((x) => (x as HTMLInputElement).value)),
          ['sex', 'group'],
        );
        assert.equal(await page.inputValue('#epochs'), '', "the default length: the audit's own");
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    },
  );

  it('Cancel stops training after the current step and still shows the sets of the last model', async () => {
    const { page, errors } = await open();
    try {
      await page.setInputFiles('#file', FIXTURE);
      await page.waitForFunction(() => document.body.dataset.state === 'loaded');
      await page.fill('#epochs', '500');
      await page.fill('#rows', '100');
      await page.fill('#intersection-rows', '0');
      // before the run: what it runs on (threads; at one thread, why)
      await page.waitForFunction(() => /^Engine: /.test(document.getElementById('run-info')?.textContent ?? ''));
      assert.match(
        (await page.textContent('#run-info')) ?? '',
        /^Engine: (relaxed SIMD|SIMD128), (\d+ threads|1 thread \(.+\))(; GAN seeds side by side, \d+ at once)?\. .*Cancel ends it early/,
      );
      // and, before Run, the estimate of the audit the options describe (a few of its GAN steps timed), with the Cancel
      // button in view
      await page.waitForFunction(
        () =>
          /Estimate before the run: about (\d+ s|\d+ min \d\d s), (\d+ s|\d+ min \d\d s) of it training 3 LUCID-GANs × 500 epochs of \d+ steps? \(timed on a few of its steps\)\. Cancel ends it early/.test(
            document.getElementById('run-info')?.textContent ?? '',
          ),
        undefined,
        { timeout: 30_000 },
      );
      assert.ok(await page.isVisible('#cancel'), 'the Cancel button is in view before the run');
      await page.click('#train');
      // during training: the estimate, and a status whose share is the bar's
      await page.waitForFunction(
        () =>
          /Estimate: training 3 LUCID-GANs × 500 epochs: about \d+/.test(
            document.getElementById('run-info')?.textContent ?? '',
          ),
        undefined,
        { timeout: 60_000 },
      );
      const agree = await page.evaluate(() => ({
        bar: (document.getElementById('progress') as HTMLProgressElement).value,
        text: document.getElementById('status')?.textContent ?? '',
      }));
      assert.match(
        agree.text,
        new RegExp(`^${agree.bar}% · training LUCID-GAN · about \\d+ (s|min \\d\\d s) left$`),
        JSON.stringify(agree),
      );
      await page.waitForFunction(
        () =>
          document.body.dataset.stage === 'gan' &&
          (document.getElementById('progress') as HTMLProgressElement).value >= 9,
        undefined,
        { timeout: 60_000 },
      );
      await page.click('#cancel');
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, {
        timeout: 60_000,
      });
      assert.equal(
        await page.evaluate(() => document.body.dataset.state),
        'done',
        (await page.textContent('#error')) ?? '',
      );
      assert.match((await page.textContent('#summary')) ?? '', /cancelled/);
      const report = await reportFrame(page);
      // one after another: the first GAN, trained that far; side by side (2 cores): the first wave's two
      const sideBySide = /GAN seeds side by side, 2 at once/.test((await page.textContent('#run-info')) ?? '');
      assert.match(
        (await report.textContent('#findings')) ?? '',
        sideBySide ? /Canonical sets from 2 LUCID-GANs \(seeds 0, 1000003\)/ : /Canonical sets from 1 LUCID-GAN/,
        'the audit goes on with the GANs trained so far',
      );
      assert.ok((await chartProblems(report)).count > 0);
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
        await page.setInputFiles('#file', {
          name: 'bad.csv',
          mimeType: 'text/csv',
          buffer: Buffer.isBuffer(content) ? content : Buffer.from(content),
        });
        await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state ?? ''));
        if (pick) {
          await page.selectOption('#pred', pick);
          await page.click('#train');
        }
        await page.waitForSelector('#error:not([hidden])');
        assert.match((await page.textContent('#error')) ?? '', message);
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
