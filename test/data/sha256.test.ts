// The core's pure-TS SHA-256 (provenance hashes) against node:crypto: every padding boundary, data fed
// whole and in chunks of every small size, and the FIPS 180-4 examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Sha256, sha256Hex } from '../../src/data/sha256.js';

const ref = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('sha256Hex: the FIPS 180-4 examples', () => {
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(
    sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
});

test('sha256Hex agrees with node:crypto at every length around the block and padding boundaries', () => {
  const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 131 + 7) & 0xff);
  for (let n = 0; n <= 300; n++) assert.equal(sha256Hex(data.subarray(0, n)), ref(data.subarray(0, n)), `length ${n}`);
});

test("Sha256: chunked updates give the whole input's hash; length counts the bytes", () => {
  const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7919) & 0xff);
  for (const step of [1, 3, 63, 64, 65, 127, 500]) {
    const h = new Sha256();
    for (let i = 0; i < data.length; i += step) h.update(data.subarray(i, i + step));
    assert.equal(h.length, 1000);
    assert.equal(h.hex(), ref(data), `chunks of ${step}`);
  }
  const h = new Sha256().update(data);
  assert.equal(h.hex(), h.hex(), 'hex() twice gives the same digest');
  assert.throws(() => h.update(data), /after hex/);
});
