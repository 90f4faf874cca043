// Runs every row of ops.table.ts: forward vs float64 reference, gradcheck, gradgradcheck.
import { describe, it } from 'node:test';
import { grad, requireGrad } from '../../src/autograd/tape.js';
import * as o from '../../src/autograd/ops/index.js';
import type { Tensor } from '../../src/engine/engine.js';
import { assertClose, getEngine, hostRng } from '../helpers/engine.js';
import * as f from '../helpers/ref.js';
import { rows } from './ops.table.js';

function sample(spec: { shape: number[]; lo?: number; hi?: number; gap?: number }, rnd: () => number): f.R {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const lo = spec.lo ?? -1;
  const hi = spec.hi ?? 1;
  const gap = spec.gap ?? 0;
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v: number;
    do v = Math.fround(lo + (hi - lo) * rnd());
    while (Math.abs(v) < gap);
    data[i] = v;
  }
  return { shape: spec.shape, data };
}

const weights = (n: number, rnd: () => number) => Float64Array.from({ length: n }, () => Math.fround(rnd() * 2 - 1));

describe('op table', async () => {
  const e = await getEngine();
  for (const [k, row] of rows.entries()) {
    it(row.name, () => {
      const rnd = hostRng(1000 + k);
      const xs64 = row.inputs.map((s) => sample(s, rnd));
      const expected = row.ref(xs64);
      e.scope(() => {
        const xs = xs64.map((x) => requireGrad(e.tensor(x.data, x.shape)));
        const out = row.op(e, xs);
        const shape =
          out.shape.length === 0 && expected.shape.length === 0 ? true : out.shape.join() === expected.shape.join();
        if (!shape) throw new Error(`${row.name}: shape [${out.shape}], reference [${expected.shape}]`);
        assertClose(out.data, expected.data, 1e-5, 1e-4, `${row.name} forward`);
        if (row.grad === false) return;

        // gradcheck: d/dx sum(op(x)·w) against central differences of the float64 reference
        const w = weights(out.size, rnd);
        const wt = e.tensor(w, out.shape);
        const loss = o.sum(o.mul(out, wt));
        const gs = grad(loss, xs);
        const fd = f.fdGrad(row.ref, xs64, w);
        gs.forEach((g, i) => assertClose(g.data, fd[i], 2e-4, 2e-3, `${row.name} gradient of input ${i}`));

        if (!row.gradgrad) return;
        // gradgradcheck: d/dx Σᵢ sum(gᵢ·sᵢ) where g = ∇ sum(op(x)·w), built with createGraph
        const ss = xs64.map((x) => weights(x.data.length, rnd));
        const g1 = grad(o.sum(o.mul(row.op(e, xs), wt)), xs, { createGraph: true });
        let l2: Tensor | null = null;
        g1.forEach((g, i) => {
          const term = o.sum(o.mul(g, e.tensor(ss[i], g.shape)));
          l2 = l2 ? o.add(l2, term) : term;
        });
        const gg = l2 && (l2 as Tensor).requiresGrad ? grad(l2, xs) : xs.map((x) => e.zeros(x.shape));
        const G = (ys: f.R[]) => {
          const inner = f.fdGrad(row.ref, ys, w, 1e-5);
          let s = 0;
          inner.forEach((gi, i) => gi.forEach((v, j) => (s += v * ss[i][j])));
          return f.r([], [s]);
        };
        const fd2 = f.fdGrad(G, xs64, Float64Array.of(1), 1e-3);
        gg.forEach((g, i) => assertClose(g.data, fd2[i], 5e-4, 5e-3, `${row.name} second derivative of input ${i}`));
      });
    });
  }
});
