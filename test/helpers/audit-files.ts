// What the CLI and the browser page both hand out, read back for tests: a zip archive (read from its
// central directory), the names the report's "Files" section lists, and a CSV as a decimal-comma
// spreadsheet writes it. No test() calls here.
import assert from 'node:assert/strict';

export interface ZipFile {
  name: string;
  data: Uint8Array;
  crc: number;
  method: number;
  flags: number;
}

/**
 * The files of a zip archive, from its central directory (and each one's local header); an assertion fails on any
 * inconsistency.
 */
export function readZip(zip: Uint8Array): ZipFile[] {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  assert.equal(v.getUint32(eocd, true), 0x06054b50, 'the end record');
  const count = v.getUint16(eocd + 10, true);
  const size = v.getUint32(eocd + 12, true);
  let at = v.getUint32(eocd + 16, true);
  assert.equal(at + size, eocd, 'the central directory ends where the end record starts');
  const dec = new TextDecoder('utf-8', { fatal: true });
  const out: ZipFile[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(v.getUint32(at, true), 0x02014b50, `central header ${i}`);
    const flags = v.getUint16(at + 8, true);
    const method = v.getUint16(at + 10, true);
    const crc = v.getUint32(at + 16, true);
    const csize = v.getUint32(at + 20, true);
    const usize = v.getUint32(at + 24, true);
    const nlen = v.getUint16(at + 28, true);
    const xlen = v.getUint16(at + 30, true);
    const clen = v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true);
    const name = dec.decode(zip.subarray(at + 46, at + 46 + nlen));
    assert.equal(v.getUint32(local, true), 0x04034b50, `local header of ${name}`);
    assert.equal(v.getUint32(local + 14, true), crc, `${name}: the local CRC is the central one`);
    const lnlen = v.getUint16(local + 26, true);
    assert.equal(dec.decode(zip.subarray(local + 30, local + 30 + lnlen)), name);
    const start = local + 30 + lnlen + v.getUint16(local + 28, true);
    assert.equal(csize, usize, 'stored: the sizes agree');
    out.push({ name, data: zip.subarray(start, start + csize), crc, method, flags });
    at += 46 + nlen + xlen + clen;
  }
  return out;
}

/**
 * The names the report's "Files" section lists, as exact patterns ("a, b" is two names; "a, b, … (9
 * files)" names two of nine), and how many files the section accounts for in all.
 */
export function filesSection(html: string): { patterns: RegExp[]; count: number } {
  const section = /<section id="files">([\s\S]*?)<\/section>/.exec(html);
  assert.ok(section, 'the report has a Files section');
  const unescapeHtml = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const codes = [...section[1].matchAll(/<code>([^<]*)<\/code>/g)].map((m) => unescapeHtml(m[1]));
  assert.ok(codes.length > 0, 'the Files section names files');
  const pattern = (n: string) => new RegExp(`^${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  let count = 0;
  const patterns = codes.flatMap((c) => {
    const m = /^(.*), … \((\d+) files\)$/.exec(c);
    const names = (m ? m[1] : c).split(', ');
    count += m ? Number(m[2]) : names.length;
    return names.map(pattern);
  });
  return { patterns, count };
}

/** The names the report's "Files" section lists, as patterns (filesSection). */
export function filesSectionPatterns(html: string): RegExp[] {
  return filesSection(html).patterns;
}

/**
 * A comma CSV as a spreadsheet in a decimal-comma locale writes it: semicolons, decimal commas (no quoted cells in the
 * input).
 */
export function semicolonDecimalComma(csv: string): string {
  return csv
    .split('\n')
    .map((line) =>
      line
        .split(',')
        .map((f) => f.replace('.', ','))
        .join(';'),
    )
    .join('\n');
}
