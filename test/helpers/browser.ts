// Helpers for the real-browser tests: Debian's chromium through playwright-core, a tiny static
// server, console-error capture and screenshots under test-artifacts/.
//
// Chromium: LUCID_CHROMIUM or /usr/bin/chromium. When it is missing the tests skip with a message,
// except in CI (CI=true), where a missing browser is a failure (.ci/run installs it with apt).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage, Frame, Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
export const CHROMIUM = process.env.LUCID_CHROMIUM ?? '/usr/bin/chromium';
/** CI=true: the browser and edge tests must run, a missing browser or runtime is a failure */
export const IN_CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');

/** Why the browser tests cannot run here (a skip message), or null. Throws in CI when chromium is missing. */
export function browserSkip(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const msg = `chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set LUCID_CHROMIUM`;
  if (IN_CI) throw new Error(`${msg} (CI=true: the browser tests must run in CI)`);
  return `skipped: ${msg}`;
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    // root in containers needs --no-sandbox; file:// pages may load their own files
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--allow-file-access-from-files'],
    timeout: 60_000,
  });
}

/** Collects console errors, uncaught page errors and failed requests of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error')
      errors.push(`console.error: ${m.text()} (${m.location().url}:${m.location().lineNumber})`);
  });
  page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
  page.on('worker', (w) =>
    w.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(`worker console.error: ${m.text()}`);
    }),
  );
  return errors;
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.csv': 'text/csv',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The headers that make a page cross-origin isolated (SharedArrayBuffer, so the engine can run threads). */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/**
 * Serves `dir` on 127.0.0.1 at a random port (GET only, no directory listings, no path escapes),
 * cross-origin isolated as `node tools/build-web.mjs --serve` is; `crossOriginIsolated: false`
 * serves without COOP/COEP (no SharedArrayBuffer: the single-threaded fallback).
 */
export async function serve(
  dir: string,
  opts: { crossOriginIsolated?: boolean } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const base = path.resolve(dir);
  const isolation = opts.crossOriginIsolated === false ? {} : ISOLATION_HEADERS;
  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url ?? '/', 'http://localhost');
      let file = path.resolve(base, `.${decodeURIComponent(u.pathname)}`);
      if (file !== base && !file.startsWith(base + path.sep))
        throw Object.assign(new Error('outside'), { status: 403 });
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...isolation,
      });
      res.end(body);
    } catch (e) {
      const status = (e as { status?: number }).status ?? 404;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 404 ? 'not found' : 'forbidden');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Chart checks shared by both tests: every svg.chart has a non-empty box and at least one .axis-label text. */
export async function chartProblems(page: Page | Frame): Promise<{ count: number; problems: string[] }> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const svgs = Array.from(document.querySelectorAll('svg.chart'));
    svgs.forEach((svg, i) => {
      const name = svg.getAttribute('data-chart') ?? `chart ${i + 1}`;
      const box = svg.getBoundingClientRect();
      if (!(box.width > 0 && box.height > 0))
        problems.push(`${name} #${i + 1}: empty bounding box (${box.width}×${box.height})`);
      const labels = Array.from(svg.querySelectorAll('text.axis-label')).filter(
        (t) => (t.textContent ?? '').trim() !== '',
      );
      if (labels.length === 0) problems.push(`${name} #${i + 1}: no axis label`);
      if (svg.getAttribute('role') !== 'img') problems.push(`${name} #${i + 1}: role is not img`);
      if (svg.childElementCount < 3) problems.push(`${name} #${i + 1}: hardly anything drawn`);
    });
    return { count: svgs.length, problems };
  });
}

/**
 * The built page (tools/build-web.mjs) served cross-origin isolated and a browser, made before the
 * calling suite's first test and closed after it (registers `before`/`after`); fields filled by then.
 */
export function pageFixture(): { browser: Browser; server: Awaited<ReturnType<typeof serve>> } {
  const f = {} as { browser: Browser; server: Awaited<ReturnType<typeof serve>> };
  before(async () => {
    const b = spawnSync(process.execPath, [path.join(ROOT, 'tools/build-web.mjs')], { encoding: 'utf8' });
    assert.equal(b.status, 0, `build-web failed:\n${b.stdout}${b.stderr}`);
    f.server = await serve(path.join(ROOT, 'dist-web'));
    f.browser = await launch();
  });
  after(async () => {
    await f.browser?.close();
    await f.server?.close();
  });
  return f;
}

/**
 * Text that does not fit: every SVG <text> must lie inside its <svg>'s box (1 px
 * tolerance), and no heading, paragraph, caption, list item or table cell may be wider inside than
 * its box (scrollWidth > clientWidth + 1), nor the page wider than the window. Each problem names the
 * element and its text.
 */
export async function textOverflow(page: Page | Frame): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const short = (s: string | null) => {
      const t = (s ?? '').replace(/\s+/g, ' ').trim();
      return JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t);
    };
    const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0;
    Array.from(document.querySelectorAll('svg')).forEach((svg, i) => {
      if (!visible(svg) || svg.closest('svg') !== svg) return;
      const box = svg.getBoundingClientRect();
      const name = svg.getAttribute('data-chart') ?? svg.getAttribute('class') ?? 'svg';
      for (const t of Array.from(svg.querySelectorAll('text'))) {
        // the drawn text: without the <title> tooltip a shortened label carries
        const drawn = Array.from(t.childNodes)
          .filter((c) => c.nodeName.toLowerCase() !== 'title')
          .map((c) => c.textContent ?? '')
          .join('');
        if (!drawn.trim()) continue;
        const r = t.getBoundingClientRect();
        const out: string[] = [];
        if (r.left < box.left - 1) out.push(`${(box.left - r.left).toFixed(1)} px past the left`);
        if (r.right > box.right + 1) out.push(`${(r.right - box.right).toFixed(1)} px past the right`);
        if (r.top < box.top - 1) out.push(`${(box.top - r.top).toFixed(1)} px past the top`);
        if (r.bottom > box.bottom + 1) out.push(`${(r.bottom - box.bottom).toFixed(1)} px past the bottom`);
        if (out.length)
          problems.push(`svg ${name} #${i + 1}: text ${short(drawn)} sticks out of its svg (${out.join(', ')})`);
      }
    });
    const html = 'h1, h2, h3, h4, p, li, figcaption, caption, summary, th, td, dt, dd, label, .callout';
    for (const e of Array.from(document.querySelectorAll<HTMLElement>(html))) {
      if (!visible(e) || e.closest('svg')) continue;
      if (e.scrollWidth > e.clientWidth + 1)
        problems.push(
          `<${e.tagName.toLowerCase()}${e.id ? ` id=${e.id}` : ''}> ${short(e.textContent)} overflows its box ` +
            `horizontally (scrollWidth ${e.scrollWidth} > clientWidth ${e.clientWidth})`,
        );
    }
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1)
      problems.push(`the page is wider than the window (scrollWidth ${doc.scrollWidth} > ${doc.clientWidth})`);
    return problems;
  });
}

/**
 * Text a reader cannot read whole: textOverflow's problems, plus any element that hides what overflows
 * it (overflow hidden or clip, or text-overflow ellipsis) while holding more than it shows, SVG text
 * shortened with an ellipsis (its full text at most in a tooltip <title>), a <time> broken across
 * lines (a timestamp is one token), and a page that scrolls sideways
 * (document.scrollingElement wider than the window; a table scrolling inside its own overflow-x:auto
 * box is not page scroll).
 */
export async function clippedText(page: Page | Frame): Promise<string[]> {
  const problems = await textOverflow(page);
  problems.push(
    ...(await page.evaluate(() => {
      const out: string[] = [];
      const short = (s: string | null) => {
        const t = (s ?? '').replace(/\s+/g, ' ').trim();
        return JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t);
      };
      const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0;
      for (const e of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        if (!visible(e) || e.closest('svg')) continue;
        const st = getComputedStyle(e);
        const hides = ['hidden', 'clip'].includes(st.overflowX) || st.textOverflow === 'ellipsis';
        if (hides && e.scrollWidth > e.clientWidth + 1)
          out.push(
            `<${e.tagName.toLowerCase()}${e.className ? ` class=${e.className}` : ''}> ${short(e.textContent)} is ` +
              `clipped (scrollWidth ${e.scrollWidth} > clientWidth ${e.clientWidth}, overflow ${st.overflowX}, ` +
              `text-overflow ${st.textOverflow})`,
          );
      }
      for (const t of Array.from(document.querySelectorAll('svg text'))) {
        if (!visible(t)) continue;
        const title = Array.from(t.children).find((c) => c.nodeName.toLowerCase() === 'title');
        const drawn = Array.from(t.childNodes)
          .filter((c) => c !== title)
          .map((c) => c.textContent ?? '')
          .join('')
          .trim();
        if (drawn.endsWith('…'))
          out.push(
            `svg text ${short(drawn)} is ` +
              `shortened${title ? ` (the whole text, ${short(title.textContent)}, only in its tooltip)` : ''}`,
          );
      }
      for (const t of Array.from(document.querySelectorAll('time'))) {
        if (visible(t) && t.getClientRects().length > 1)
          out.push(`<time> ${short(t.textContent)} is broken across ${t.getClientRects().length} lines`);
      }
      const root = document.scrollingElement ?? document.documentElement;
      if (root.scrollWidth > window.innerWidth)
        out.push(`the page scrolls sideways (scrollWidth ${root.scrollWidth} > window ${window.innerWidth})`);
      return out;
    })),
  );
  return problems;
}

/** Width and height in pixels of a PNG (its IHDR chunk). */
export function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG image');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The report frame of the browser page (#report, the whole report as `lucid audit` writes it). */
export async function reportFrame(page: Page): Promise<Frame> {
  const frame = await (await page.$('#report'))?.contentFrame();
  assert.ok(frame, 'the page has its report frame');
  return frame;
}

/**
 * Fills the page's audit settings (`fields`: input id → value), runs the audit and waits until it ends;
 * fails with the page's error message unless it is done.
 */
export async function auditInPage(page: Page, fields: Record<string, string>, timeout: number): Promise<void> {
  for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, value);
  await page.click('#train');
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state ?? ''), undefined, {
    timeout,
  });
  assert.equal(
    await page.evaluate(() => document.body.dataset.state),
    'done',
    `the audit failed: ${await page.textContent('#error')}`,
  );
}

/**
 * Records every request of a page that goes anywhere but `origin` (blob: and data: URLs stay in the page), and every
 * non-GET request.
 */
export function watchOutside(page: Page, origin: string): string[] {
  const outside: string[] = [];
  page.on('request', (r) => {
    const u = r.url();
    const inPage = u.startsWith(origin) || u.startsWith('blob:') || u.startsWith('data:') || u.startsWith('about:');
    if (!inPage || r.method() !== 'GET') outside.push(`${r.method()} ${u}`);
  });
  return outside;
}
