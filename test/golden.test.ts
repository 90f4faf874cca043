// Golden values from PyTorch 1.13 (tools/golden/gen_golden.py → test/fixtures/golden-*.json):
// (a) a CTGAN-shaped critic's WGAN-GP penalty and its gradient w.r.t. every parameter,
// (b) a CTGAN residual generator's forward and gradients with batch-norm in training mode,
// (c) ten Adam steps with weight decay.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grad, requireGrad } from '../src/autograd/tape.js';
import * as o from '../src/autograd/ops/index.js';
import type { Engine, Tensor } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { Adam } from '../src/nn/adam.js';
import { Linear, Residual } from '../src/nn/layers.js';
import { buildParams, Module } from '../src/nn/module.js';
import { assertClose, fixture, getEngine } from './helpers/engine.js';

interface T {
  shape: number[];
  data: number[];
}
type Fixture = Record<string, T>;
const num = (fx: Fixture, k: string) => fx[k] as unknown as number;

// 1e-4 relative, or 1e-5 absolute where values are tiny (the tolerance).
const ATOL = 1e-5;
const RTOL = 1e-4;

const load = (e: Engine, t: T) => e.tensor(t.data, t.shape);

describe('golden: CTGAN critic with WGAN-GP penalty (torch)', async () => {
  const e = await getEngine();
  const fx = fixture<Fixture>('golden-critic.json');
  const pac = num(fx, 'pac');
  const lambda = num(fx, 'lambda');
  const slope = num(fx, 'slope');

  it('matches outputs, penalty and every parameter gradient', () => {
    e.scope(() => {
      const names = ['W1', 'b1', 'W2', 'b2', 'W3', 'b3'];
      const P = Object.fromEntries(names.map((n) => [n, requireGrad(load(e, fx[n]))])) as Record<string, Tensor>;
      const mask = (n: string) => load(e, fx[n]);
      // x: (B/pac, pac·Din) → (B/pac, 1)
      const D = (x: Tensor, m1: Tensor, m2: Tensor) => {
        const h1 = o.mul(o.leakyRelu(o.linear(x, P.W1, P.b1), slope), m1);
        const h2 = o.mul(o.leakyRelu(o.linear(h1, P.W2, P.b2), slope), m2);
        return o.linear(h2, P.W3, P.b3);
      };
      const real = requireGrad(load(e, fx.real));
      const fake = requireGrad(load(e, fx.fake));
      const alpha = load(e, fx.alpha);
      const packs = real.shape[0] / pac;
      const yReal = D(o.reshape(real, [packs, -1]), mask('mask_real_1'), mask('mask_real_2'));
      const yFake = D(o.reshape(fake, [packs, -1]), mask('mask_fake_1'), mask('mask_fake_2'));
      const interp = o.add(o.mul(alpha, real), o.mul(o.sub(1, alpha), fake));
      const yInterp = D(o.reshape(interp, [packs, -1]), mask('mask_interp_1'), mask('mask_interp_2'));
      assertClose(yReal.data, fx.y_real.data, ATOL, RTOL, 'y_real');
      assertClose(yFake.data, fx.y_fake.data, ATOL, RTOL, 'y_fake');
      assertClose(yInterp.data, fx.y_interp.data, ATOL, RTOL, 'y_interp');

      const [g] = grad(yInterp, [interp], { createGraph: true });
      assertClose(g.data, fx.g.data, ATOL, RTOL, 'input gradient g');
      const penalty = o.mul(o.mean(o.square(o.sub(o.rowNorm(o.reshape(g, [packs, -1])), 1))), lambda);
      assertClose(penalty.data, fx.penalty.data, ATOL, RTOL, 'penalty');
      const lossD = o.neg(o.sub(o.mean(yReal), o.mean(yFake)));
      assertClose(lossD.data, fx.loss_d.data, ATOL, RTOL, 'loss_d');

      const wrt = [...names.map((n) => P[n]), real, fake];
      const dp = grad(penalty, wrt);
      names.forEach((n, i) => assertClose(dp[i].data, fx[`dpenalty_${n}`].data, ATOL, RTOL, `dpenalty/d${n}`));
      assertClose(dp[6].data, fx.dpenalty_real.data, ATOL, RTOL, 'dpenalty/dreal');
      assertClose(dp[7].data, fx.dpenalty_fake.data, ATOL, RTOL, 'dpenalty/dfake');

      const dt = grad(
        o.add(lossD, penalty),
        names.map((n) => P[n]),
      );
      names.forEach((n, i) => assertClose(dt[i].data, fx[`dtotal_${n}`].data, ATOL, RTOL, `dtotal/d${n}`));
    });
  });
});

class Generator extends Module {
  readonly r1: Residual;
  readonly r2: Residual;
  readonly out: Linear;
  constructor(din: number, hidden: number, dout: number) {
    super();
    this.r1 = this.child('r1', new Residual(din, hidden));
    this.r2 = this.child('r2', new Residual(din + hidden, hidden));
    this.out = this.child('out', new Linear(din + 2 * hidden, dout));
  }
  forward(z: Tensor): Tensor {
    return this.out.forward(this.r2.forward(this.r1.forward(z)));
  }
}

describe('golden: CTGAN residual generator (torch)', async () => {
  const e = await getEngine();
  const fx = fixture<Fixture>('golden-generator.json');
  const spans = fx.spans as unknown as { type: string; start: number; dim: number; tau?: number }[];

  it('matches the forward, every gradient, the running statistics and eval mode', () => {
    const gen = new Generator(num(fx, 'din'), num(fx, 'hidden'), num(fx, 'dout'));
    const ps = buildParams(e, gen, new Rng(e, 0));
    const byName: Record<string, Tensor> = {
      fc1_W: ps.get('r1.fc.weight'),
      fc1_b: ps.get('r1.fc.bias'),
      bn1_gamma: ps.get('r1.bn.weight'),
      bn1_beta: ps.get('r1.bn.bias'),
      fc2_W: ps.get('r2.fc.weight'),
      fc2_b: ps.get('r2.fc.bias'),
      bn2_gamma: ps.get('r2.bn.weight'),
      bn2_beta: ps.get('r2.bn.bias'),
      out_W: ps.get('out.weight'),
      out_b: ps.get('out.bias'),
    };
    for (const [k, t] of Object.entries(byName)) t.data.set(fx[k].data);
    e.scope(() => {
      const z = requireGrad(load(e, fx.z));
      const G = load(e, fx.G);
      const logits = gen.forward(z);
      assertClose(logits.data, fx.logits.data, ATOL, RTOL, 'logits');
      const parts = spans.map((s) => {
        const x = o.sliceCols(logits, s.start, s.start + s.dim);
        return s.type === 'tanh' ? o.tanh(x) : o.gumbelSoftmax(x, s.tau!, o.sliceCols(G, s.start, s.start + s.dim));
      });
      const act = o.concat(parts);
      assertClose(act.data, fx.act.data, ATOL, RTOL, 'activated output');
      const loss = o.sum(o.mul(act, load(e, fx.R)));
      assertClose(loss.data, fx.loss.data, ATOL, RTOL, 'loss');
      const names = Object.keys(byName);
      const gs = grad(loss, [...names.map((n) => byName[n]), z]);
      names.forEach((n, i) => assertClose(gs[i].data, fx[`d_${n}`].data, ATOL, RTOL, `d${n}`));
      assertClose(gs[names.length].data, fx.d_z.data, ATOL, RTOL, 'dz');
    });
    assertClose(ps.get('r1.bn.running_mean').data, fx.bn1_running_mean.data, ATOL, RTOL, 'bn1 running mean');
    assertClose(ps.get('r1.bn.running_var').data, fx.bn1_running_var.data, ATOL, RTOL, 'bn1 running var');
    assertClose(ps.get('r2.bn.running_mean').data, fx.bn2_running_mean.data, ATOL, RTOL, 'bn2 running mean');
    assertClose(ps.get('r2.bn.running_var').data, fx.bn2_running_var.data, ATOL, RTOL, 'bn2 running var');
    gen.eval();
    e.scope(() => {
      const out = gen.forward(load(e, fx.z));
      assertClose(out.data, fx.out_eval.data, ATOL, RTOL, 'eval-mode output');
    });
    ps.block.dispose();
  });
});

describe('golden: Adam with weight decay (torch.optim.Adam)', async () => {
  const e = await getEngine();
  const fx = fixture<{ steps: number; configs: Record<string, unknown>[] }>('golden-adam.json');
  for (const [ci, c] of fx.configs.entries()) {
    it(`config ${ci}: lr ${c.lr}, betas ${c.betas}, weight decay ${c.weight_decay}`, () => {
      const cfg = c as Record<string, T> & { lr: number; betas: [number, number]; eps: number; weight_decay: number };
      const p1 = e.tensor(cfg.p1_init.data, cfg.p1_init.shape);
      const p2 = e.tensor(cfg.p2_init.data, cfg.p2_init.shape);
      const opt = new Adam([p1, p2], { lr: cfg.lr, betas: cfg.betas, eps: cfg.eps, weightDecay: cfg.weight_decay });
      const n1 = p1.size;
      const n2 = p2.size;
      for (let t = 0; t < fx.steps; t++) {
        e.scope(() => {
          const g1 = e.tensor(cfg.grads_p1.data.slice(t * n1, (t + 1) * n1), p1.shape);
          const g2 = e.tensor(cfg.grads_p2.data.slice(t * n2, (t + 1) * n2), p2.shape);
          opt.step([g1, g2]);
        });
        assertClose(p1.data, cfg.p1_after.data.slice(t * n1, (t + 1) * n1), 1e-7, 1e-6, `p1 after step ${t + 1}`);
        assertClose(p2.data, cfg.p2_after.data.slice(t * n2, (t + 1) * n2), 1e-7, 1e-6, `p2 after step ${t + 1}`);
      }
      assert.equal(opt.t, fx.steps);
      assertClose(opt.moments(0).m, cfg.exp_avg_p1.data, 1e-7, 1e-6, 'exp_avg p1');
      assertClose(opt.moments(0).v, cfg.exp_avg_sq_p1.data, 1e-9, 1e-6, 'exp_avg_sq p1');
      assertClose(opt.moments(1).m, cfg.exp_avg_p2.data, 1e-7, 1e-6, 'exp_avg p2');
      assertClose(opt.moments(1).v, cfg.exp_avg_sq_p2.data, 1e-9, 1e-6, 'exp_avg_sq p2');
      p1.dispose();
      p2.dispose();
    });
  }
});
