// Reverse-mode autodiff whose backward rules are ops themselves.
//
// An op is defined once, forward and backward together (defineOp). Its backward is written with
// other ops, so running it while the engine records (grad(..., {createGraph: true})) builds a graph
// of the gradient that can be differentiated again: WGAN-GP's gradient penalty needs exactly that.
// An op whose backward is a fused first-order kernel declares `twice: false`; its gradients then
// carry a guard node that throws E_GRAD if anything tries to differentiate through them, so a
// second derivative is refused instead of silently wrong.
import { check, EngineError } from '../engine/errors.js';
import type { TapeNode, Tensor } from '../engine/engine.js';

export interface OpCtx<A> {
  readonly inputs: readonly Tensor[];
  readonly attrs: A;
  /** The forward result (set after forward returns), for rules such as d tanh = 1 − y². */
  out: Tensor;
  /** Which inputs need a gradient in this backward pass; rules may skip the others. */
  needsGrad: readonly boolean[];
  /** Extra tensors a forward keeps for its backward (e.g. batch-norm's x̂). */
  saved: Tensor[];
}

export interface OpDef<A> {
  readonly name: string;
  forward(ctx: OpCtx<A>, inputs: readonly Tensor[], attrs: A): Tensor;
  /** One gradient (or null for "zero / not needed") per tensor input, each of that input's shape. */
  backward(ctx: OpCtx<A>, dy: Tensor): (Tensor | null)[];
  /** False when backward is not itself differentiable (default true). */
  twice?: boolean;
}

export interface Node extends TapeNode {
  readonly op: OpDef<unknown>;
  readonly ctx: OpCtx<unknown>;
}

export type Op<A> = (inputs: readonly Tensor[], attrs: A) => Tensor;

/** Makes an op: forward runs without recording; the result records one node if any input needs a gradient. */
export function defineOp<A = undefined>(def: OpDef<A>): Op<A> {
  return (inputs, attrs) => {
    const engine = inputs[0].engine;
    const prev = engine.recording;
    const record = prev && inputs.some((t) => t.requiresGrad);
    const ctx: OpCtx<A> = { inputs, attrs, out: undefined as unknown as Tensor, needsGrad: [], saved: [] };
    engine.recording = false;
    let out: Tensor;
    try {
      out = def.forward(ctx, inputs, attrs);
    } finally {
      engine.recording = prev;
    }
    ctx.out = out;
    if (record) {
      out.requiresGrad = true;
      const node: Node = { op: def as OpDef<unknown>, inputs, ctx: ctx as OpCtx<unknown> };
      out.node = node;
    }
    return out;
  };
}

export interface GradOptions {
  /** Seeds for each output (default: ones; a scalar output needs none). */
  gradOutputs?: Tensor[];
  /** Record the backward pass so the returned gradients can be differentiated again. */
  createGraph?: boolean;
}

/**
 * Gradients of the outputs with respect to `inputs` (one tensor per input, of its shape; zeros
 * when an input does not influence the outputs).
 * @example const [dW] = grad(loss, [W]);
 */
export function grad(outputs: Tensor | Tensor[], inputs: Tensor[], opts: GradOptions = {}): Tensor[] {
  const outs = Array.isArray(outputs) ? outputs : [outputs];
  check(outs.length > 0, 'E_ARG', () => 'grad: no outputs');
  const engine = outs[0].engine;
  for (const [i, t] of inputs.entries()) {
    check(t.requiresGrad, 'E_GRAD', () => `grad: input ${i} (shape [${t.shape}]) does not require a gradient`);
  }
  for (const [i, t] of outs.entries()) {
    check(
      t.requiresGrad,
      'E_GRAD',
      () => `grad: output ${i} (shape [${t.shape}]) does not depend on any tensor that requires a gradient`,
    );
  }

  // Topological order (inputs before outputs) over the recorded graph.
  const order: Tensor[] = [];
  const seen = new Set<Tensor>();
  const stack: [Tensor, number][] = outs.map((t) => [t, 0]);
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [t, i] = top;
    if (i === 0 && seen.has(t)) {
      stack.pop();
      continue;
    }
    seen.add(t);
    const ins = t.node ? t.node.inputs : [];
    if (i < ins.length) {
      top[1]++;
      const c = ins[i];
      if (c.requiresGrad && !seen.has(c)) stack.push([c, 0]);
    } else {
      stack.pop();
      order.push(t);
    }
  }

  // Only tensors on a path to a requested input take part.
  const wanted = new Set(inputs);
  const needed = new Set<Tensor>();
  for (const t of order) {
    if (wanted.has(t) || t.node?.inputs.some((c) => needed.has(c))) needed.add(t);
  }

  const grads = new Map<Tensor, Tensor>();
  const seeds = opts.gradOutputs;
  if (seeds)
    check(seeds.length === outs.length, 'E_ARG', () => `grad: ${seeds.length} gradOutputs for ${outs.length} outputs`);
  outs.forEach((t, i) => {
    const s = seeds ? seeds[i] : engine.ones(t.shape);
    check(
      sameShape(s.shape, t.shape),
      'E_SHAPE',
      () => `grad: gradOutputs[${i}] has shape [${s.shape}], output has [${t.shape}]`,
    );
    accumulate(grads, t, s);
  });

  const createGraph = opts.createGraph ?? false;
  const prev = engine.recording;
  try {
    for (let k = order.length - 1; k >= 0; k--) {
      const t = order[k];
      const node = t.node as Node | null; // only defineOp and guardOnce (below) set t.node, always to a Node
      if (!node || !needed.has(t)) continue;
      const dy = grads.get(t);
      if (!dy) continue;
      const ctx = node.ctx as OpCtx<unknown> & { needsGrad: boolean[] };
      ctx.needsGrad = node.inputs.map((c) => c.requiresGrad && needed.has(c));
      const twice = node.op.twice !== false;
      engine.recording = createGraph && twice;
      let gs = node.op.backward(ctx, dy);
      if (createGraph && !twice) gs = gs.map((g) => (g ? guardOnce(g, node, dy) : g));
      engine.recording = createGraph;
      check(
        gs.length === node.inputs.length,
        'E_GRAD',
        () => `${node.op.name}: backward returned ${gs.length} gradients for ${node.inputs.length} inputs`,
      );
      node.inputs.forEach((c, i) => {
        const g = gs[i];
        if (!g || !ctx.needsGrad[i]) return;
        check(
          sameShape(g.shape, c.shape),
          'E_GRAD',
          () => `${node.op.name}: gradient ${i} has shape [${g.shape}], input has [${c.shape}]`,
        );
        accumulate(grads, c, g);
      });
    }
  } finally {
    engine.recording = prev;
  }
  return inputs.map((t) => grads.get(t) ?? engine.zeros(t.shape));
}

function accumulate(grads: Map<Tensor, Tensor>, t: Tensor, g: Tensor): void {
  const prev = grads.get(t);
  grads.set(t, prev ? addGrads(prev, g) : g);
}

const sameShape = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((d, i) => d === b[i]);

// Gradient accumulation is an op, so accumulated gradients stay differentiable under createGraph.
const AddGrads = defineOp<undefined>({
  name: 'addGrads',
  forward(_ctx, [a, b]) {
    const out = a.engine.empty(a.shape);
    a.engine.k.f32_binary(0, out.ptr, a.ptr, b.ptr, a.size);
    return out;
  },
  backward: (_ctx, dy) => [dy, dy],
});
const addGrads = (a: Tensor, b: Tensor) => AddGrads([a, b], undefined);

// The guard placed on gradients of a once-differentiable op under createGraph.
function guardOnce(g: Tensor, node: Node, dy: Tensor): Tensor {
  const deps = [dy, ...node.inputs].filter((t) => t.requiresGrad);
  if (deps.length === 0) return g;
  const out = g.detach();
  out.requiresGrad = true;
  const op: OpDef<undefined> = {
    name: `${node.op.name}Backward`,
    forward: () => out,
    backward: () => {
      throw new EngineError(
        'E_GRAD',
        `${node.op.name}: not twice-differentiable; its gradient cannot be differentiated again (grad with ` +
          `createGraph reached it)`,
      );
    },
  };
  const guard: Node = {
    op: op as OpDef<unknown>,
    inputs: deps,
    ctx: { inputs: deps, attrs: undefined, out, needsGrad: [], saved: [] },
  };
  out.node = guard;
  return out;
}

/** Marks a tensor as a leaf that gradients are taken with respect to. Returns it. */
export function requireGrad(t: Tensor): Tensor {
  check(t.node === null, 'E_GRAD', () => 'requireGrad: only leaf tensors (not results of ops) can be marked');
  t.requiresGrad = true;
  return t;
}
