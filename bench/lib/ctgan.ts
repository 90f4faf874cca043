// One WGAN-GP iteration of an Adult-sized CTGAN, for the e2e tier: the library's generator,
// PacGAN critic and gradient penalty (src/models/ctgan/networks.ts) on fixed batch fixtures.
import * as ops from '../../src/autograd/ops/index.js';
import { grad } from '../../src/autograd/tape.js';
import type { Engine, Tensor } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { Adam } from '../../src/nn/adam.js';
import { buildParams, type ParamSet } from '../../src/nn/module.js';
import {
  applyActivation,
  Discriminator,
  Generator,
  gradientPenalty,
  type OutputSpan,
} from '../../src/models/ctgan/networks.js';
import { hostUniform } from './fixtures.js';
import { CTGAN, ctganDataDim } from './sizes.js';

export interface Span extends OutputSpan {
  start: number;
}

/** The output layout: per numeric column [tanh 1][softmax modes], then the categorical spans. */
export function ctganSpans(): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (let i = 0; i < CTGAN.numericColumns; i++) {
    spans.push({ kind: 'tanh', start: at, width: 1 });
    spans.push({ kind: 'softmax', start: at + 1, width: CTGAN.modesPerNumeric });
    at += 1 + CTGAN.modesPerNumeric;
  }
  for (const w of CTGAN.categoricalSpans) {
    spans.push({ kind: 'softmax', start: at, width: w });
    at += w;
  }
  return spans;
}

/** The model, its optimizers and batch fixtures; `criticStep` / `generatorStep` each run inside the caller's scope. */
export class WganGp {
  readonly dataDim = ctganDataDim();
  readonly spans = ctganSpans();
  readonly G: Generator;
  readonly D: Discriminator;
  readonly gParams: ParamSet;
  readonly dParams: ParamSet;
  readonly optG: Adam;
  readonly optD: Adam;
  readonly rng: Rng;
  /** Batch fixtures on the heap: real rows (N, dataDim), cond (N, condDim), class indices of the CE span. */
  readonly real: Tensor;
  readonly cond: Tensor;
  readonly ceSpan: Span;
  readonly ceTarget: Int32Array;

  constructor(
    readonly engine: Engine,
    seed = 1,
  ) {
    const c = CTGAN;
    this.rng = new Rng(engine, seed);
    this.G = new Generator(c.embedding + c.condDim, c.generatorDims, this.dataDim);
    this.D = new Discriminator(this.dataDim + c.condDim, c.criticDims, c.pac, c.leakySlope, c.dropout);
    this.gParams = buildParams(engine, this.G, this.rng);
    this.dParams = buildParams(engine, this.D, this.rng);
    const adam = { lr: c.adam.lr, betas: c.adam.betas, weightDecay: c.adam.weightDecay };
    this.optG = new Adam(this.gParams.trainable, adam);
    this.optD = new Adam(this.dParams.trainable, adam);

    // Real rows shaped like transformed data: tanh values in (−1, 1), one-hot spans.
    const n = c.batch;
    const u = hostUniform(n * (this.dataDim + 2), 99, 0, 1);
    const real = new Float32Array(n * this.dataDim);
    let q = 0;
    for (let i = 0; i < n; i++) {
      for (const s of this.spans) {
        if (s.kind === 'tanh') real[i * this.dataDim + s.start] = 2 * u[q++] - 1;
        else real[i * this.dataDim + s.start + Math.floor(u[q++] * s.width)] = 1;
      }
    }
    this.real = engine.tensor(real, [n, this.dataDim]);
    // cond: one category of the 98 discrete columns' one-hots, plus the prediction column.
    const cond = new Float32Array(n * c.condDim);
    for (let i = 0; i < n; i++) {
      cond[i * c.condDim + Math.floor(u[q++] * (c.condDim - 1))] = 1;
      cond[i * c.condDim + c.condDim - 1] = u[q++] < 0.5 ? 1 : 0;
    }
    this.cond = engine.tensor(cond, [n, c.condDim]);
    this.ceSpan = this.spans.find(
      (s) => s.kind === 'softmax' && s.start >= c.numericColumns * (1 + c.modesPerNumeric),
    )!;
    this.ceTarget = new Int32Array(n);
    const t = hostUniform(n, 1234, 0, 1);
    for (let i = 0; i < n; i++) this.ceTarget[i] = Math.floor(t[i] * this.ceSpan.width);
  }

  activate(raw: Tensor): Tensor {
    return applyActivation(raw, this.spans, this.rng, CTGAN.tau);
  }

  private noise(): Tensor {
    return this.rng.normal([CTGAN.batch, CTGAN.embedding]);
  }

  /** One critic step: WGAN loss + gradient penalty (double backward), Adam. Returns loss_d. */
  criticStep(): Tensor {
    const { engine, D, rng, real, cond } = this;
    const c = CTGAN;
    // The generator's forward is not differentiated here (CTGAN differentiates it and throws the result away).
    const fake = engine.noGrad(() => this.activate(this.G.forward(ops.concat([this.noise(), cond], 1))));
    const fakeCat = ops.concat([fake, cond], 1);
    const realCat = ops.concat([real, cond], 1);
    const yFake = D.forward(fakeCat, rng);
    const yReal = D.forward(realCat, rng);

    const penalty = gradientPenalty(D, realCat, fakeCat, rng, c.penaltyLambda);

    const lossD = ops.add(ops.neg(ops.sub(ops.mean(yReal), ops.mean(yFake))), penalty);
    this.optD.step(grad(lossD, this.dParams.trainable));
    return lossD;
  }

  /** One generator step: −mean D(fake) + cross-entropy on one span, Adam. Returns loss_g. */
  generatorStep(): Tensor {
    const { D, rng, cond } = this;
    const raw = this.G.forward(ops.concat([this.noise(), cond], 1));
    const fake = this.activate(raw);
    const y = D.forward(ops.concat([fake, cond], 1), rng);
    const s = this.ceSpan;
    const ce = ops.crossEntropy(ops.sliceCols(raw, s.start, s.start + s.width), this.ceTarget);
    const lossG = ops.add(ops.neg(ops.mean(y)), ce);
    this.optG.step(grad(lossG, this.gParams.trainable));
    return lossG;
  }

  dispose(): void {
    this.real.dispose();
    this.cond.dispose();
    for (const x of [this.gParams, this.dParams, this.optG, this.optD]) x.dispose();
  }
}
