// Adam with torch.optim.Adam semantics (not AdamW): weight decay is added to the gradient, and
// the bias corrections are torch's. The moments live in two persistent blocks laid out like the
// parameters.
import type { Block, Tensor } from '../engine/engine.js';
import { check } from '../engine/errors.js';

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
}

export class Adam {
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  /** Steps taken so far (torch's `step` state). */
  t = 0;
  private readonly m: Tensor[];
  private readonly v: Tensor[];
  private readonly blocks: Block[];

  constructor(
    readonly params: Tensor[],
    opts: AdamOptions = {},
  ) {
    this.lr = opts.lr ?? 1e-3;
    [this.beta1, this.beta2] = opts.betas ?? [0.9, 0.999];
    this.eps = opts.eps ?? 1e-8;
    this.weightDecay = opts.weightDecay ?? 0;
    check(this.lr > 0, 'E_ARG', () => `Adam: lr must be > 0, got ${this.lr}`);
    check(
      this.beta1 >= 0 && this.beta1 < 1 && this.beta2 >= 0 && this.beta2 < 1,
      'E_ARG',
      () => `Adam: betas must be in [0, 1), got ${this.beta1}, ${this.beta2}`,
    );
    check(this.eps >= 0 && this.weightDecay >= 0, 'E_ARG', () => 'Adam: eps and weightDecay must be ≥ 0');
    check(params.length > 0, 'E_ARG', () => 'Adam: no parameters');
    const e = params[0].engine;
    const bytes = params.reduce((a, p) => a + p.size * 4, 0);
    const blocks = [e.block(bytes), e.block(bytes)];
    this.blocks = blocks;
    const lay = (b: Block) => {
      let off = 0;
      return params.map((p) => {
        const t = e.inBlock(b, off, p.shape);
        e.k.f32_fill(t.ptr, t.size, 0);
        off += p.size * 4;
        return t;
      });
    };
    this.m = lay(blocks[0]);
    this.v = lay(blocks[1]);
  }

  /** One update of every parameter with its gradient (same order and shapes as `params`). */
  step(grads: Tensor[]): void {
    check(
      grads.length === this.params.length,
      'E_ARG',
      () => `Adam.step: ${grads.length} gradients for ${this.params.length} parameters`,
    );
    this.t++;
    const bc1 = 1 - this.beta1 ** this.t;
    const bc2 = 1 - this.beta2 ** this.t;
    const stepSize = this.lr / bc1;
    const bc2sqrt = Math.sqrt(bc2);
    this.params.forEach((p, i) => {
      const g = grads[i];
      check(
        g.size === p.size,
        'E_SHAPE',
        () => `Adam.step: gradient ${i} has shape [${g.shape}], parameter has [${p.shape}]`,
      );
      p.engine.k.f32_adam(
        p.ptr,
        g.ptr,
        this.m[i].ptr,
        this.v[i].ptr,
        p.size,
        stepSize,
        this.beta1,
        this.beta2,
        this.eps,
        this.weightDecay,
        bc2sqrt,
      );
    });
  }

  /** Releases the moment blocks. */
  dispose(): void {
    for (const b of this.blocks) b.dispose();
  }

  /** First and second moments of parameter i (copies), for checks against torch. */
  moments(i: number): { m: Float32Array; v: Float32Array } {
    return { m: this.m[i].toArray(), v: this.v[i].toArray() };
  }
}
