// A zip archive of files held in memory, stored without compression (the browser page offers an
// audit's folder as one download). Core code: no Node imports. The layout is PKWARE's APPNOTE 6.3:
// a local header and the bytes of each file, then the central directory and its end record; names
// in UTF-8 (flag bit 11), sizes and offsets in 32 bits (no Zip64: at most 65,535 files and 4 GiB).
import { EngineError } from '../engine/errors.js';

export interface ZipEntry {
  /** the path inside the archive ("/" separates folders) */
  name: string;
  /** the file's bytes; a string is written as UTF-8 */
  data: Uint8Array | string;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** The CRC-32 of `bytes` (ISO-HDLC, as zip, gzip and PNG use it). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date of `d` (its UTC fields; 2-second steps; 1980 at the earliest). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, d.getUTCFullYear()));
  if (year !== d.getUTCFullYear()) return { time: 0, date: ((year - 1980) << 9) | (1 << 5) | 1 };
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

const MAX_U32 = 0xffffffff;
const UTF8_NAMES = 1 << 11;
const VERSION = 20;

/**
 * The archive of `entries`, each stored as it is, modified at `modified` (default 1980-01-01, so the
 * same files give the same bytes). A repeated or empty name, or an archive too large for 32-bit
 * offsets, is an E_ARG error.
 */
export function zipStored(entries: readonly ZipEntry[], modified: Date = new Date(Date.UTC(1980, 0, 1))): Uint8Array {
  if (entries.length > 0xffff)
    throw new EngineError('E_ARG', `zip: ${entries.length} files; at most 65535 fit an archive without Zip64`);
  const enc = new TextEncoder();
  const seen = new Set<string>();
  const files = entries.map((e) => {
    if (e.name === '' || seen.has(e.name))
      throw new EngineError(
        'E_ARG',
        `zip: ${e.name === '' ? 'a file has no name' : `the name ${JSON.stringify(e.name)} is given twice`}`,
      );
    seen.add(e.name);
    const data = typeof e.data === 'string' ? enc.encode(e.data) : e.data;
    return { name: enc.encode(e.name), data, crc: crc32(data) };
  });
  const localSize = files.reduce((s, f) => s + 30 + f.name.length + f.data.length, 0);
  const centralSize = files.reduce((s, f) => s + 46 + f.name.length, 0);
  if (localSize + centralSize + 22 > MAX_U32)
    throw new EngineError(
      'E_ARG',
      `zip: ${localSize + centralSize + 22} bytes; at most 4 GiB fit an archive without Zip64`,
    );
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  const { time, date } = dosTime(modified);
  let at = 0;
  const u16 = (v: number) => {
    view.setUint16(at, v, true);
    at += 2;
  };
  const u32 = (v: number) => {
    view.setUint32(at, v >>> 0, true);
    at += 4;
  };
  const bytes = (b: Uint8Array) => {
    out.set(b, at);
    at += b.length;
  };
  // the fields the local and the central header share, in the same order: flags … name length
  const common = (f: (typeof files)[number]) => {
    u16(UTF8_NAMES);
    u16(0); // stored
    u16(time);
    u16(date);
    u32(f.crc);
    u32(f.data.length);
    u32(f.data.length);
    u16(f.name.length);
  };
  const offsets: number[] = [];
  for (const f of files) {
    offsets.push(at);
    u32(0x04034b50);
    u16(VERSION);
    common(f);
    u16(0); // extra field
    bytes(f.name);
    bytes(f.data);
  }
  const central = at;
  files.forEach((f, i) => {
    u32(0x02014b50);
    u16(VERSION); // made by
    u16(VERSION); // needed
    common(f);
    u16(0); // extra field
    u16(0); // comment
    u16(0); // disk
    u16(0); // internal attributes
    u32(0); // external attributes
    u32(offsets[i]);
    bytes(f.name);
  });
  const centralBytes = at - central;
  u32(0x06054b50);
  u16(0); // this disk
  u16(0); // the central directory's disk
  u16(files.length);
  u16(files.length);
  u32(centralBytes);
  u32(central);
  u16(0); // comment
  return out;
}
