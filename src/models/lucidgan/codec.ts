// Binary arrays as base64 text (little-endian, exact); the model file's FNV-1a checksum is re-exported
// from src/models/checksum.ts (model.json uses it too).
// Core code: no Node imports (no Buffer), so a browser or worker reads the same files.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function bytesOf(a: Float32Array | Float64Array | Int32Array): Uint8Array {
  const copy = a.slice();
  const bytes = new Uint8Array(copy.buffer);
  if (!littleEndian)
    for (let i = 0; i < bytes.length; i += a.BYTES_PER_ELEMENT) bytes.subarray(i, i + a.BYTES_PER_ELEMENT).reverse();
  return bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (b0 << 16) | (b1 << 8) | b2;
    chunk +=
      ALPHABET[(n >> 18) & 63] +
      ALPHABET[(n >> 12) & 63] +
      (i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=') +
      (i + 2 < bytes.length ? ALPHABET[n & 63] : '=');
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  parts.push(chunk);
  return parts.join('');
}

/** Decodes base64; null when the text is not valid base64. */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const c = text.charCodeAt(i + j);
      let v: number;
      if (c === 61 && i + j >= text.length - pad) v = 0;
      else {
        v = c < 128 ? LOOKUP[c] : -1;
        if (v < 0) return null;
      }
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

function fromBytes<T extends Float32Array | Float64Array | Int32Array>(
  bytes: Uint8Array,
  make: (b: ArrayBuffer) => T,
  size: number,
): T | null {
  if (bytes.length % size !== 0) return null;
  const copy = bytes.slice();
  if (!littleEndian) for (let i = 0; i < copy.length; i += size) copy.subarray(i, i + size).reverse();
  return make(copy.buffer);
}

export const f32ToBase64 = (a: Float32Array): string => encodeBase64(bytesOf(a));
export const f64ToBase64 = (a: Float64Array): string => encodeBase64(bytesOf(a));
export const i32ToBase64 = (a: Int32Array): string => encodeBase64(bytesOf(a));

export function base64ToF32(text: string): Float32Array | null {
  const b = decodeBase64(text);
  return b && fromBytes(b, (x) => new Float32Array(x), 4);
}
export function base64ToF64(text: string): Float64Array | null {
  const b = decodeBase64(text);
  return b && fromBytes(b, (x) => new Float64Array(x), 8);
}
export function base64ToI32(text: string): Int32Array | null {
  const b = decodeBase64(text);
  return b && fromBytes(b, (x) => new Int32Array(x), 4);
}

/** The model file's checksum (shared with model.json: src/models/checksum.ts). */
export { fnv1a32 } from '../checksum.js';
