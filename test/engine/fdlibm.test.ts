// The host's log and exp (src/engine/fdlibm.ts): fdlibm in plain float64 arithmetic, so
// every JS engine computes the same bits. Under Node 20 they must equal Math.log and Math.exp (the
// values every seeded result of the project was made with) on every argument tried; in any runtime
// their values over a fixed set of arguments must hash to the digest Node 20 gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { exp, log } from '../../src/engine/fdlibm.js';

const NODE20 = process.versions.node.startsWith('20.');

/** Arguments: random bit patterns over every exponent, uniforms over common ranges, edges. */
function args(n: number): { logs: Float64Array; exps: Float64Array } {
  let s = 0x2545f4914f6cdd1dn;
  const M = 0xffffffffffffffffn;
  const next = () => {
    s ^= (s << 13n) & M;
    s ^= s >> 7n;
    s ^= (s << 17n) & M;
    return s;
  };
  const dv = new DataView(new ArrayBuffer(8));
  const logs: number[] = [0, -0, -1, NaN, Infinity, -Infinity, 1, Number.MIN_VALUE, Number.MAX_VALUE, 2 ** -1022];
  const exps: number[] = [
    0,
    -0,
    NaN,
    Infinity,
    -Infinity,
    709.78,
    709.7827128933841,
    -745.1332191019411,
    -745.14,
    1e-300,
    0.5 * Math.LN2,
    1.5 * Math.LN2,
  ];
  for (let i = 0; i < n; i++) {
    dv.setBigUint64(0, next());
    const bits = dv.getFloat64(0);
    const u = Number(next() >> 11n) / 2 ** 53;
    logs.push(Math.abs(bits), u, u * 100, 1 + (u - 0.5) * 1e-5, u * 2 ** -1070);
    exps.push(bits, (u - 0.5) * 1500, (u - 0.5) * 2, (u - 0.5) * 60, (u - 0.5) * 1e-7, -745 + u * 10);
  }
  return { logs: Float64Array.from(logs), exps: Float64Array.from(exps) };
}

describe('fdlibm log and exp (the host math every runtime shares)', () => {
  const { logs, exps } = args(100_000);

  it(`equal Node 20's Math.log and Math.exp on ${logs.length + exps.length} arguments`, {
    skip: NODE20 ? false : `Node ${process.versions.node}: the comparison with Math.* holds for Node 20's V8`,
  }, () => {
    const bad: string[] = [];
    for (const x of logs)
      if (!Object.is(log(x), Math.log(x)) && bad.length < 5) bad.push(`log(${x}) = ${log(x)}, Math.log ${Math.log(x)}`);
    for (const x of exps)
      if (!Object.is(exp(x), Math.exp(x)) && bad.length < 5) bad.push(`exp(${x}) = ${exp(x)}, Math.exp ${Math.exp(x)}`);
    assert.deepEqual(bad, []);
  });

  it('give the same bits as under Node 20 (a digest of every value)', () => {
    const out = new Float64Array(logs.length + exps.length);
    logs.forEach((x, i) => (out[i] = log(x)));
    exps.forEach((x, i) => (out[logs.length + i] = exp(x)));
    const digest = createHash('sha256').update(new Uint8Array(out.buffer)).digest('hex');
    assert.equal(digest, DIGEST);
  });
});

// computed under Node 20.20.2, where the values equal Math.log and Math.exp (the test above)
const DIGEST = '793a751ae3459c467809b7dab186e0716114efe31e620d2c832994428dc96afd';
