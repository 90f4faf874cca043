// Modules own parameters; a ParamSet puts all of a model's parameters (and buffers such as
// batch-norm running statistics) in ONE persistent block, llm.c style: saving, loading and
// zeroing are single copies, and the optimizer can later treat the block as one vector.
import { type Block, type Engine, type Shape, sizeOf, type Tensor } from '../engine/engine.js';
import { check, EngineError } from '../engine/errors.js';
import type { Rng } from '../engine/rng.js';
import { BinOp } from '../engine/wasm.js';

export type Init =
  | { kind: 'uniform'; bound: number } // U(−bound, bound)
  | { kind: 'normal'; std: number }
  | { kind: 'const'; value: number };

export class Param {
  private t: Tensor | null = null;
  constructor(
    readonly name: string,
    readonly shape: Shape,
    readonly init: Init,
    readonly trainable: boolean,
  ) {}

  get tensor(): Tensor {
    if (!this.t)
      throw new EngineError(
        'E_LIFETIME',
        `parameter ${this.name}: not allocated yet (call buildParams on the model first)`,
      );
    return this.t;
  }

  bind(t: Tensor): void {
    this.t = t;
  }
}

export abstract class Module {
  training = true;
  private readonly own: Param[] = [];
  private readonly children: [string, Module][] = [];

  protected param(name: string, shape: Shape, init: Init): Param {
    const p = new Param(name, shape, init, true);
    this.own.push(p);
    return p;
  }

  protected buffer(name: string, shape: Shape, value: number): Param {
    const p = new Param(name, shape, { kind: 'const', value }, false);
    this.own.push(p);
    return p;
  }

  protected child<M extends Module>(name: string, m: M): M {
    this.children.push([name, m]);
    return m;
  }

  /** Every parameter and buffer, depth-first in declaration order. */
  namedParams(): Param[] {
    const out: Param[] = [...this.own];
    for (const [, m] of this.children) out.push(...m.namedParams());
    return out;
  }

  /** Dotted names aligned with namedParams(). */
  paramNames(prefix = ''): string[] {
    const out = this.own.map((p) => prefix + p.name);
    for (const [name, m] of this.children) out.push(...m.paramNames(`${prefix}${name}.`));
    return out;
  }

  train(on = true): this {
    this.training = on;
    for (const [, m] of this.children) m.train(on);
    return this;
  }

  eval(): this {
    return this.train(false);
  }
}

export class ParamSet {
  constructor(
    readonly engine: Engine,
    readonly block: Block,
    readonly params: readonly Param[],
    readonly names: readonly string[],
  ) {}

  /** Trainable parameter tensors, in a fixed order (the order of gradients and optimizer state). */
  get trainable(): Tensor[] {
    return this.params.filter((p) => p.trainable).map((p) => p.tensor);
  }

  /** Number of floats in the block (parameters and buffers). */
  get floatCount(): number {
    return this.params.reduce((a, p) => a + sizeOf(p.shape), 0);
  }

  /** Copy of the whole block (for checkpoints and determinism checks). */
  snapshot(): Float32Array {
    return this.engine.view(this.block.ptr, this.floatCount).slice();
  }

  restore(values: Float32Array): void {
    check(
      values.length === this.floatCount,
      'E_SHAPE',
      () => `params: snapshot has ${values.length} floats, model has ${this.floatCount}`,
    );
    this.engine.view(this.block.ptr, this.floatCount).set(values);
  }

  dispose(): void {
    this.block.dispose();
  }

  get(name: string): Tensor {
    const i = this.names.indexOf(name);
    check(i >= 0, 'E_ARG', () => `params: no parameter named ${name} (have ${this.names.join(', ')})`);
    return this.params[i].tensor;
  }
}

/** Allocates one block for all of `model`'s parameters and buffers and initialises them from rng in order. */
export function buildParams(engine: Engine, model: Module, rng: Rng): ParamSet {
  const params = model.namedParams();
  const names = model.paramNames();
  const bytes = params.reduce((a, p) => a + sizeOf(p.shape) * 4, 0);
  const block = engine.block(bytes);
  let off = 0;
  for (const p of params) {
    const t = engine.inBlock(block, off, p.shape);
    t.requiresGrad = p.trainable;
    p.bind(t);
    off += sizeOf(p.shape) * 4;
    const init = p.init;
    if (init.kind === 'const') engine.k.f32_fill(t.ptr, t.size, init.value);
    else if (init.kind === 'uniform') {
      rng.fill('rng_uniform', t);
      engine.k.f32_scale(t.ptr, t.ptr, 2 * init.bound, t.size);
      engine.k.f32_binary_scalar(BinOp.sub, 0, t.ptr, t.ptr, init.bound, t.size);
    } else {
      rng.fill('rng_normal', t);
      engine.k.f32_scale(t.ptr, t.ptr, init.std, t.size);
    }
  }
  return new ParamSet(engine, block, params, names);
}
