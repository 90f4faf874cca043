// The CSV reader's fast path (src/data/csv-fast.ts) against fast-csv alone (parser: 'fast-csv'):
// the same table, report and error on every malformed fixture and on random files (quotes, CRLF and
// CR, BOM, blank and whitespace lines, ragged rows, invalid UTF-8 and multi-byte characters at chunk
// boundaries, decimal commas, missing cells). The whole test/data and test/hostile suites also run
// under LUCID_CSV_PARSER=fast-csv (see test/data/README or the commit message).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCsv, type ReadOptions } from '../../src/node/csv.js';
import { MALFORMED } from './malformed.table.js';
import { FastSplitter } from '../../src/data/csv-fast.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/malformed/', import.meta.url));

async function outcome(file: string, opts: ReadOptions): Promise<unknown> {
  try {
    const { table, report } = await readCsv(file, opts);
    return { table, report };
  } catch (e) {
    const err = e as Error & { code?: string };
    return { error: err.message, code: err.code };
  }
}

async function same(file: string, opts: ReadOptions = {}, what = file): Promise<unknown> {
  const fast = await outcome(file, { ...opts, parser: 'auto' });
  const general = await outcome(file, { ...opts, parser: 'fast-csv' });
  assert.deepEqual(fast, general, what);
  return fast;
}

/** A small seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'a',
  'b',
  'yes',
  'no',
  'Ünïcødé',
  '東京',
  '😀x',
  ' pad ',
  '?',
  'NA',
  '',
  '1,5',
  '0,25',
  '1.234,5',
  '-3.5',
  '1e3',
  '12',
  '7',
  '0.125',
  '\u00a0x',
  'x y',
];

/** A random CSV: mostly well formed, with some of everything the reader must agree on. */
function randomCsv(r: () => number, rows: number): Uint8Array {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const d = pick([',', ';', '\t']);
  const eol = pick(['\n', '\r\n', '\r', 'mixed']);
  const cols = 2 + Math.floor(r() * 5);
  const quotes = r() < 0.4;
  const numericCol = Array.from({ length: cols }, () => r() < 0.5);
  const cell = (j: number): string => {
    if (numericCol[j] && r() < 0.9) return String(Math.round(r() * 1000) / (r() < 0.5 ? 1 : 8));
    let w = pick(WORDS);
    if (w.includes(d)) w = w.split(d).join('.');
    if (quotes && r() < 0.1) {
      const inner = pick(['q"x', `a${d}b`, 'line\nbreak', 'plain', '']);
      return `"${inner.replaceAll('"', '""')}"`;
    }
    return w;
  };
  const lineEnd = () => (eol === 'mixed' ? pick(['\n', '\r\n', '\r']) : eol);
  let text = r() < 0.2 ? '\ufeff' : '';
  if (r() < 0.7) text += Array.from({ length: cols }, (_, j) => `col${j}`).join(d) + lineEnd();
  for (let i = 0; i < rows; i++) {
    const u = r();
    if (u < 0.01)
      text += lineEnd(); // blank line
    else if (u < 0.015) text += '   ' + lineEnd(); // whitespace line
    let n = cols;
    if (r() < 0.002) n = cols + (r() < 0.5 ? -1 : 1); // ragged
    text += Array.from({ length: Math.max(1, n) }, (_, j) => cell(j % cols)).join(d) + lineEnd();
  }
  if (r() < 0.3) text = text.replace(/(\r\n|\r|\n)$/, '');
  let bytes = new TextEncoder().encode(text);
  if (r() < 0.1) {
    // invalid UTF-8 somewhere, often near a 64 KiB boundary
    const at = r() < 0.5 && bytes.length > 65536 ? 65536 - Math.floor(r() * 3) : Math.floor(r() * bytes.length);
    const out = new Uint8Array(bytes.length + 1);
    out.set(bytes.subarray(0, at));
    out[at] = 0xff;
    out.set(bytes.subarray(at), at + 1);
    bytes = out;
  }
  return bytes;
}

describe('CSV fast path', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucid-csvfast-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('agrees with fast-csv on every malformed fixture (with its options and without)', async () => {
    const files = readdirSync(fixtures);
    for (const f of files) await same(join(fixtures, f));
    for (const c of MALFORMED) await same(join(fixtures, c.file), c.opts ?? {}, c.file);
  });

  it('agrees with fast-csv on 300 random files, small and over many 64 KiB chunks', async () => {
    const r = rng(20);
    for (let k = 0; k < 300; k++) {
      const rows = k % 10 === 0 ? 4000 + Math.floor(r() * 4000) : 1 + Math.floor(r() * 60);
      const file = join(dir, `r${k}.csv`);
      writeFileSync(file, randomCsv(r, rows));
      const opts: ReadOptions =
        k % 7 === 3 ? { missing: 'drop' } : k % 11 === 5 ? { header: false } : k % 13 === 4 ? { skipLines: 1 } : {};
      await same(file, opts, `random file ${k} (${rows} rows, ${JSON.stringify(opts)})`);
    }
  });

  it('agrees when a quote, CRLF or a multi-byte character falls on a chunk boundary', async () => {
    for (const at of [65535, 65536, 65537]) {
      for (const tail of ['"q,x",1\n', '\r\n', '東京,2\n', 'ab,3\r', '\n\n']) {
        const head = 'name,v\n';
        let body = '';
        while (head.length + body.length < at - 20) body += `w${body.length % 97},${body.length % 13}\n`;
        body += 'x'.repeat(Math.max(0, at - head.length - body.length - 2)) + ',5\n';
        const file = join(dir, `b${at}.csv`);
        writeFileSync(file, head + body + tail + 'z,9\n');
        await same(file, {}, `boundary ${at} ${JSON.stringify(tail)}`);
      }
    }
  });

  it('splits lines and fields as fast-csv does for unquoted text', () => {
    const rows: string[][] = [];
    const s = new FastSplitter(',', (f) => rows.push(f));
    const enc = new TextEncoder();
    assert.equal(s.push(enc.encode('a,b\r')), null);
    assert.equal(s.push(enc.encode('\nc,d\re,')), null);
    s.end();
    assert.deepEqual(rows, [
      ['a', 'b'],
      ['c', 'd'],
      ['e', ''],
    ]);
    const rest = new FastSplitter(';', () => {}).push(enc.encode('x;1\ny;"2"\n'));
    assert.equal(new TextDecoder().decode(rest!), 'y;"2"\n');
  });

  it('rejects an unknown parser option', async () => {
    const file = join(dir, 'ok.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    await assert.rejects(readCsv(file, { parser: 'nope' as 'auto' }), /parser must be 'auto' or 'fast-csv'/);
  });
});
