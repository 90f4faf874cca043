// LUCID-GAN's trainer (LUCID-GAN §3): WGAN-GP with one critic step per generator step,
// the generator loss −mean D(fake) + the conditional cross-entropy on the selected column's logits
// (+ in consistency mode λ·BCE of the fixed surrogate on the batch and the probe rows), and the epoch
// loop around it: divergence (the last good weights are kept), interruption, and checkpointed stopping.
// The trainer holds the critic and both optimizers; the model (model.ts) holds only what sampling
// needs, and calls train() from LucidGan.fit. The trainer reads the model through TrainableGan, so it
// does not import model.ts. Core code: no Node imports; every draw comes from the Rng handed in.
import type { Engine, Tensor } from '../../engine/engine.js';
import { check } from '../../engine/errors.js';
import type { Rng } from '../../engine/rng.js';
import * as o from '../../autograd/ops/index.js';
import { grad } from '../../autograd/tape.js';
import { Adam } from '../../nn/adam.js';
import { buildParams, type ParamSet } from '../../nn/module.js';
import type { DataTransformer } from '../ctgan/transformer.js';
import { applyActivation, Discriminator, type Generator, gradientPenalty } from '../ctgan/networks.js';
import type { CondSampler } from './sampler.js';
import type { Surrogate } from './surrogate.js';
import type {
  Checkpointing,
  ConsistencySpec,
  FitStatus,
  GanConfig,
  GanEpoch,
  GanHistory,
  StopRecord,
} from './config.js';

/**
 * What the trainer reads and updates of a model (a LucidGan): its generator and weights, data representation,
 * conditions, settings and history.
 */
export interface TrainableGan {
  readonly engine: Engine;
  readonly G: Generator;
  readonly params: ParamSet;
  readonly transformer: DataTransformer;
  readonly sampler: CondSampler;
  /** names of the condition columns, in input order */
  readonly conditionNames: string[];
  /** (rows, conditions) row-major: the raw training conditions */
  readonly conditionValues: Float64Array;
  readonly config: GanConfig;
  readonly history: GanHistory;
  readonly surrogate: { net: Surrogate; params: ParamSet; index: number } | null;
  readonly consistency: ConsistencySpec;
}

/** What a training run is told besides the model's settings: progress, interruption and checkpointed stopping. */
export interface TrainOptions<M> {
  onEpoch?: (e: GanEpoch) => void;
  shouldStop?: () => boolean;
  checkpoint?: Checkpointing<M>;
}

const isFiniteAll = (...xs: number[]) => xs.every(Number.isFinite);

/** Consistency mode: probe rows per generator step, as a share of the batch. */
export const PROBE_SHARE = 0.5;

export interface StepLosses {
  lossD: number;
  penalty: number;
  lossG: number;
  lossCond: number;
  /** consistency mode: the consistency term (BCE, before λ) */
  lossConsistency?: number;
}

/**
 * One model's training state: the critic, both optimizers and the transformed data. `step()` runs
 * one critic step and one generator step (the bench times epochs of it).
 */
export class GanTrainer {
  readonly D: Discriminator;
  readonly steps: number;
  private readonly dParams: ParamSet;
  private readonly optG: Adam;
  private readonly optD: Adam;
  private readonly discreteCols: { data: number; cond: number; width: number }[];

  constructor(
    readonly model: TrainableGan,
    readonly x: Float32Array,
    readonly rng: Rng,
  ) {
    const { engine, sampler, config: cfg } = model;
    const d = model.transformer.outputDim;
    this.D = new Discriminator(d + sampler.condDim + model.conditionNames.length, cfg.discriminatorDims, cfg.pac);
    this.dParams = buildParams(engine, this.D, rng);
    const adam = { lr: cfg.lr, betas: cfg.betas, weightDecay: cfg.weightDecay };
    this.optG = new Adam(model.params.trainable, adam);
    this.optD = new Adam(this.dParams.trainable, adam);
    this.discreteCols = sampler.columns.map((c, j) => ({
      data: c.dataOffset,
      cond: sampler.condOffset[j],
      width: c.categories.length,
    }));
    this.steps = Math.max(Math.floor(sampler.rows / cfg.batch), 1);
  }

  dispose(): void {
    this.optG.dispose();
    this.optD.dispose();
    this.dParams.dispose();
  }

  private rowsOf(idx: Int32Array): Float32Array {
    const d = this.model.transformer.outputDim;
    const out = new Float32Array(idx.length * d);
    for (let i = 0; i < idx.length; i++) out.set(this.x.subarray(idx[i] * d, idx[i] * d + d), i * d);
    return out;
  }

  private condsOf(idx: Int32Array): Float32Array {
    const nc = this.model.conditionNames.length;
    const raw = this.model.conditionValues;
    const out = new Float32Array(idx.length * nc);
    for (let i = 0; i < idx.length; i++) for (let j = 0; j < nc; j++) out[i * nc + j] = raw[idx[i] * nc + j];
    return out;
  }

  /** Σ over discrete columns of the cross-entropy of the picked column's logits, per row, / B (CTGAN's). */
  private condLoss(raw: Tensor, cond: Tensor): Tensor {
    let total: Tensor | null = null;
    for (const c of this.discreteCols) {
      const ce = o.crossEntropy(
        o.sliceCols(raw, c.data, c.data + c.width),
        o.sliceCols(cond, c.cond, c.cond + c.width),
        'sum',
      );
      total = total ? o.add(total, ce) : ce;
    }
    return o.div(total!, raw.shape[0]);
  }

  /**
   * Consistency mode: PROBE_SHARE·B extra generator rows whose consistency condition is 0 or 1 with
   * equal odds (training rows rarely hold the extremes canonical sets are drawn at; on Adult this
   * beat conditions drawn uniformly from [0, 1]), half
   * with a zero cond vector (the paper's default for canonical sets), half with a training draw;
   * other conditions come from training rows.
   */
  private probe(): { input: Tensor; target: Tensor } {
    const { model, rng } = this;
    const { engine, sampler, config: cfg } = model;
    const s = model.surrogate!;
    const n = Math.max(2, Math.round(cfg.batch * PROBE_SHARE));
    const cd = sampler.condDim;
    const nc = model.conditionNames.length;
    const z = rng.normal([n, cfg.embedding]);
    const cond = new Float32Array(n * cd);
    const half = n >> 1;
    if (sampler.discreteCount > 0)
      cond.set(sampler.sampleTraining(n - half, rng.uniformHost(2 * (n - half))).cond, half * cd);
    const raw = this.condsOf(sampler.sampleAnyRows(n, rng.uniformHost(n)));
    const u = rng.uniformHost(n);
    const target = new Float32Array(n);
    for (let i = 0; i < n; i++) raw[i * nc + s.index] = target[i] = u[i] < 0.5 ? 0 : 1;
    return {
      input: cat(z, cd > 0 ? engine.tensor(cond, [n, cd]) : null, engine.tensor(raw, [n, nc])),
      target: engine.tensor(target, [n, 1]),
    };
  }

  /** One critic step and one generator step. A non-finite loss skips the update it belongs to. */
  step(): StepLosses {
    const { model, rng, D } = this;
    const { engine, sampler, config: cfg, G } = model;
    const d = model.transformer.outputDim;
    const cd = sampler.condDim;
    const nc = model.conditionNames.length;
    const B = cfg.batch;
    const spans = model.transformer.spans;
    // ---- critic step
    const dLoss = engine.scope(() => {
      const z = rng.normal([B, cfg.embedding]);
      let c1: Tensor | null = null,
        c2: Tensor | null = null;
      let realIdx: Int32Array;
      let fakeCond: Float32Array;
      if (sampler.discreteCount > 0) {
        const draw = sampler.sampleTraining(B, rng.uniformHost(2 * B));
        const rows = sampler.sampleRows(draw.column, draw.category, rng.uniformHost(B));
        const perm = rng.permutation(B);
        const cond2 = new Float32Array(B * cd);
        realIdx = new Int32Array(B);
        for (let i = 0; i < B; i++) {
          cond2.set(draw.cond.subarray(perm[i] * cd, perm[i] * cd + cd), i * cd);
          realIdx[i] = rows[perm[i]];
        }
        c1 = engine.tensor(draw.cond, [B, cd]);
        c2 = engine.tensor(cond2, [B, cd]);
        fakeCond = this.condsOf(rows); // the conditions of the rows matching c1, un-permuted
      } else {
        realIdx = sampler.sampleAnyRows(B, rng.uniformHost(B));
        const perm = rng.permutation(B);
        fakeCond = this.condsOf(Int32Array.from(perm, (p) => realIdx[p]));
      }
      const pFake = nc ? engine.tensor(fakeCond, [B, nc]) : null;
      const pReal = nc ? engine.tensor(this.condsOf(realIdx), [B, nc]) : null;
      const fake = engine.noGrad(() => applyActivation(G.forward(cat(z, c1, pFake)), spans, rng, cfg.tau));
      const fakeCat = cat(fake, c1, pFake);
      const realCat = cat(engine.tensor(this.rowsOf(realIdx), [B, d]), c2, pReal);
      const yFake = D.forward(fakeCat, rng);
      const yReal = D.forward(realCat, rng);
      const wd = o.neg(o.sub(o.mean(yReal), o.mean(yFake)));
      const penalty = gradientPenalty(D, realCat, fakeCat, rng, cfg.penaltyLambda);
      const total = o.add(wd, penalty);
      const lossD = wd.item();
      const pen = penalty.item();
      if (isFiniteAll(lossD, pen)) this.optD.step(grad(total, this.dParams.trainable));
      return { lossD, pen };
    });
    if (!isFiniteAll(dLoss.lossD, dLoss.pen))
      return { lossD: dLoss.lossD, penalty: dLoss.pen, lossG: NaN, lossCond: NaN };
    // ---- generator step
    const gLoss = engine.scope(() => {
      const z = rng.normal([B, cfg.embedding]);
      let c1: Tensor | null = null;
      let rows: Int32Array;
      if (sampler.discreteCount > 0) {
        const draw = sampler.sampleTraining(B, rng.uniformHost(2 * B));
        rows = sampler.sampleRows(draw.column, draw.category, rng.uniformHost(B));
        c1 = engine.tensor(draw.cond, [B, cd]);
      } else rows = sampler.sampleAnyRows(B, rng.uniformHost(B));
      const p = nc ? engine.tensor(this.condsOf(rows), [B, nc]) : null;
      const s = model.surrogate;
      const probe = s ? this.probe() : null;
      // consistency mode: the probe rows run through the generator with the batch, then only the consistency term sees
      // them
      const rawAll = G.forward(probe ? o.concat([cat(z, c1, p), probe.input], 0) : cat(z, c1, p));
      const fakeAll = applyActivation(rawAll, spans, rng, cfg.tau);
      const raw = probe ? o.sliceRows(rawAll, 0, B) : rawAll;
      const fake = probe ? o.sliceRows(fakeAll, 0, B) : fakeAll;
      const y = D.forward(cat(fake, c1, p), rng);
      const adv = o.neg(o.mean(y));
      const ce = c1 ? this.condLoss(raw, c1) : null;
      let total = ce ? o.add(adv, ce) : adv;
      let lossConsistency: number | undefined;
      if (s) {
        // λ·BCE(sigmoid(s(fake)), c): the fixed surrogate's score of each generated row against its condition
        const c = o.concat([o.sliceCols(p!, s.index, s.index + 1), probe!.target], 0);
        const term = o.bceWithLogits(s.net.forward(fakeAll), c);
        lossConsistency = term.item();
        total = o.add(total, o.mul(term, model.consistency.weight));
      }
      const lossG = total.item();
      const lossCond = ce ? ce.item() : 0;
      if (isFiniteAll(lossG, lossCond)) this.optG.step(grad(total, model.params.trainable));
      return { lossG, lossCond, lossConsistency };
    });
    return { lossD: dLoss.lossD, penalty: dLoss.pen, ...gLoss };
  }
}

/** [a | cond | raw] with empty parts left out */
function cat(a: Tensor, cond: Tensor | null, raw: Tensor | null): Tensor {
  const parts = [a];
  if (cond) parts.push(cond);
  if (raw) parts.push(raw);
  return parts.length === 1 ? a : o.concat(parts, 1);
}

/**
 * The most training time (ms) between two yields to the event loop when training can be stopped: how long a stop
 * request can wait.
 */
export const YIELD_EVERY_MS = 25;

export async function train<M extends TrainableGan>(
  model: M,
  x: Float32Array,
  rng: Rng,
  opts: TrainOptions<M>,
): Promise<{ status: FitStatus; message?: string }> {
  const trainer = new GanTrainer(model, x, rng);
  const steps = trainer.steps;
  let good = model.params.snapshot();
  const yieldNow = opts.shouldStop ? () => new Promise<void>((r) => setTimeout(r, 0)) : null;
  let lastYield = performance.now();
  const push = (l: StepLosses) => {
    model.history.lossG.push(l.lossG);
    model.history.lossD.push(l.lossD);
    model.history.lossCond.push(l.lossCond);
    if (model.history.lossConsistency) model.history.lossConsistency.push(l.lossConsistency ?? NaN);
  };
  const cp = opts.checkpoint;
  if (cp) {
    check(
      Number.isSafeInteger(cp.every) && cp.every > 0,
      'E_ARG',
      () => `gan: checkpoint.every must be a positive integer, got ${cp.every}`,
    );
    check(
      Number.isSafeInteger(cp.patience) && cp.patience > 0,
      'E_ARG',
      () => `gan: checkpoint.patience must be a positive integer, got ${cp.patience}`,
    );
    check(
      cp.minDelta >= 0 && cp.minDelta < 1,
      'E_ARG',
      () => `gan: checkpoint.minDelta must be in [0, 1), got ${cp.minDelta}`,
    );
    model.history.checkpoints = [];
  }
  check(
    cp?.minSteps === undefined || cp.minSteps >= 0,
    'E_ARG',
    () => `gan: checkpoint.minSteps must be a non-negative number, got ${cp!.minSteps}`,
  );
  /** the lowest finite score so far and its weights (kept at the end) */
  let best: { score: number; steps: number; weights: Float32Array } | null = null;
  /** the score progress is measured from (Checkpointing.progressFrom), and the highest acceptance so far */
  let progressScore = Infinity;
  let bestAcceptance = -Infinity;
  let waits = 0;
  let stepsDone = 0;
  let nextCheck = cp ? cp.every : Infinity;
  let trainSeconds = 0;
  const bestSteps = (): number | null => (cp && best ? best.steps : null);
  /** ends a checkpointed run: the best check's weights back in the model (when there is one), and the record */
  const finish = (reason: StopRecord['reason'], current: { score: number; steps: number } | null): void => {
    if (!cp) return;
    // a rule that keeps the stopping check's weights keeps them when it stops or reaches the budget
    const keepLast = cp.keep === 'last' && current !== null;
    if (!keepLast && best && best.steps !== stepsDone) model.params.restore(best.weights);
    const kept = keepLast ? current : (best ?? current ?? { score: NaN, steps: stepsDone });
    model.history.stop = { steps: stepsDone, keptSteps: kept.steps, keptScore: kept.score, reason };
  };
  /** the check after an epoch; true: stop */
  const checkpoint = async (weights: Float32Array, last: boolean): Promise<boolean> => {
    const t = performance.now();
    const got = await cp!.score(model);
    const { score, acceptance } = typeof got === 'number' ? { score: got, acceptance: undefined } : got;
    const checkSeconds = (performance.now() - t) / 1000;
    model.history.checkpoints!.push({
      steps: stepsDone,
      score,
      ...(acceptance !== undefined ? { acceptance } : {}),
      seconds: trainSeconds,
      checkSeconds,
    });
    nextCheck = stepsDone + cp!.every;
    // a score that cannot be computed (NaN) is no evidence either way: it neither resets nor uses up the patience
    if (Number.isFinite(score)) {
      if (best === null || score < best.score) best = { score, steps: stepsDone, weights };
      const better = score < progressScore * (1 - cp!.minDelta);
      const rose =
        cp!.acceptanceRise !== undefined &&
        acceptance !== undefined &&
        Number.isFinite(acceptance) &&
        acceptance > bestAcceptance + cp!.acceptanceRise;
      if (better || rose) waits = 0;
      else waits++;
      if (cp!.progressFrom === 'lowest') progressScore = Math.min(progressScore, score);
      else if (better) progressScore = score;
    }
    if (acceptance !== undefined && Number.isFinite(acceptance)) bestAcceptance = Math.max(bestAcceptance, acceptance);
    const stop = waits >= cp!.patience && stepsDone >= (cp!.minSteps ?? 0);
    if (stop || last) finish(stop ? 'no improvement' : 'budget', { score, steps: stepsDone });
    return stop;
  };
  try {
    for (let epoch = 1; epoch <= model.config.epochs; epoch++) {
      const t0 = performance.now();
      let last: StepLosses | null = null;
      for (let step = 0; step < steps; step++) {
        const l = trainer.step();
        const bad = !isFiniteAll(l.lossD, l.penalty)
          ? `loss_d is ${isFiniteAll(l.lossD) ? `finite but the gradient penalty is ${l.penalty}` : l.lossD}`
          : !isFiniteAll(l.lossG)
            ? `loss_g is ${l.lossG}`
            : !isFiniteAll(l.lossCond)
              ? `loss_cond is ${l.lossCond}`
              : null;
        if (bad) {
          model.params.restore(good);
          finish('diverged', null);
          return {
            status: 'diverged',
            message: `training diverged at epoch ${epoch}, step ${step + 1}: ${bad}; kept the weights of ${
              bestSteps() !== null ? `the best check (step ${bestSteps()})` : `the last completed epoch (${epoch - 1})`
            }`,
          };
        }
        last = l;
        if (yieldNow) {
          // a yield lets a signal (or a worker's stop message) in; it costs setTimeout's clamp (about
          // 1 ms), so it is taken once per YIELD_EVERY_MS of training, while the flag is read every step
          if (performance.now() - lastYield >= YIELD_EVERY_MS) {
            await yieldNow();
            lastYield = performance.now();
          }
          if (opts.shouldStop!()) {
            push(l);
            finish('interrupted', null);
            return { status: 'interrupted', message: `interrupted at epoch ${epoch}, step ${step + 1} of ${steps}` };
          }
        }
      }
      const w = model.params.snapshot();
      if (!w.every(Number.isFinite)) {
        model.params.restore(good);
        finish('diverged', null);
        return {
          status: 'diverged',
          message:
            `training diverged at epoch ${epoch}: a generator weight is not finite; kept the weights of ` +
            `${bestSteps() !== null ? `the best check (step ${bestSteps()})` : `epoch ${epoch - 1}`}`,
        };
      }
      good = w;
      // CTGAN reports the last step's losses of each epoch.
      push(last!);
      const seconds = (performance.now() - t0) / 1000;
      stepsDone += steps;
      trainSeconds += seconds;
      opts.onEpoch?.({ epoch, lossG: last!.lossG, lossD: last!.lossD, lossCond: last!.lossCond, seconds });
      const lastEpoch = epoch === model.config.epochs;
      if (cp && (stepsDone >= nextCheck || lastEpoch) && (await checkpoint(w, lastEpoch))) break;
    }
    return { status: 'done' };
  } finally {
    trainer.dispose();
  }
}
