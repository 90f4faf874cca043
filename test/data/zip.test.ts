// The stored zip writer (src/data/zip.ts): its CRC-32 against a bitwise one, its layout read back by a
// parser of the central directory here and, where python3 is installed, by Python's zipfile.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, zipStored, type ZipEntry } from '../../src/data/zip.js';
import { readZip } from '../helpers/audit-files.js';

/** CRC-32 bit by bit, without a table (an independent reference for the writer's table-driven one). */
function crcBitwise(b: Uint8Array): number {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

const dir = mkdtempSync(join(tmpdir(), 'lucid-zip-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const entries: ZipEntry[] = [
  { name: 'audit/report.html', data: '<!DOCTYPE html>\n<p>ü → ✓</p>\n' },
  { name: 'audit/sex=Fémale-positive.csv', data: 'a,b\n1,2\n' },
  { name: 'audit/empty.json', data: '' },
  { name: 'audit/bytes.bin', data: Uint8Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24) },
];

describe('zipStored', () => {
  it('CRC-32: the check value, and the bitwise one on other bytes', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
    const b = entries[3].data as Uint8Array;
    assert.equal(crc32(b), crcBitwise(b));
  });

  it('every file stored with its name (UTF-8), bytes and CRC; the same files give the same archive', () => {
    const zip = zipStored(entries);
    const read = readZip(zip);
    assert.deepEqual(
      read.map((e) => e.name),
      entries.map((e) => e.name),
    );
    read.forEach((e, i) => {
      const want =
        typeof entries[i].data === 'string'
          ? new TextEncoder().encode(entries[i].data as string)
          : (entries[i].data as Uint8Array);
      assert.deepEqual(e.data, want, e.name);
      assert.equal(e.crc, crcBitwise(want), `${e.name}: CRC`);
      assert.equal(e.method, 0, 'stored');
      assert.equal(e.flags & 0x800, 0x800, 'UTF-8 names');
    });
    assert.deepEqual(zipStored(entries), zip);
  });

  it("Python's zipfile reads it: names, sizes, dates, CRCs tested", (t) => {
    if (spawnSync('python3', ['--version']).status !== 0) return t.skip('python3 is not installed');
    const file = join(dir, 'a.zip');
    writeFileSync(file, zipStored(entries, new Date(Date.UTC(2026, 11, 5, 14, 30, 58))));
    const py =
      'import zipfile,sys,json\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is ' +
      'None\nprint(json.dumps([[i.filename,i.file_size,list(i.date_time),z.read(i).decode("latin-1")[:12]] for ' +
      'i in z.infolist()]))';
    const r = spawnSync('python3', ['-c', py, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as [string, number, number[], string][];
    assert.deepEqual(
      got.map((g) => g[0]),
      entries.map((e) => e.name),
    );
    assert.deepEqual(
      got.map((g) => g[1]),
      [new TextEncoder().encode(entries[0].data as string).length, 8, 0, 70_000],
    );
    assert.deepEqual(got[0][2], [2026, 12, 5, 14, 30, 58]);
    assert.equal(got[1][3], 'a,b\n1,2\n');
  });

  it('a repeated or empty name is an error', () => {
    assert.throws(
      () =>
        zipStored([
          { name: 'a', data: '' },
          { name: 'a', data: 'x' },
        ]),
      /the name "a" is given twice/,
    );
    assert.throws(() => zipStored([{ name: '', data: '' }]), /a file has no name/);
  });
});
