// Row-wise softmax / log-softmax (forward kernels, backward in ops) and Gumbel-softmax.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import { defineOp } from '../tape.js';
import { add, div, exp, mul, sub } from './elementwise.js';
import { sum } from './reduce.js';

const Softmax = defineOp<undefined>({
  name: 'softmax',
  forward(_ctx, [x]) {
    const [n, d] = x.shape;
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_softmax_rows(out.ptr, d, x.ptr, d, n, d);
    return out;
  },
  // dx = y ⊙ (dy − Σⱼ dy ⊙ y)
  backward: (ctx, dy) => [mul(ctx.out, sub(dy, sum(mul(dy, ctx.out), 1, true)))],
});

const LogSoftmax = defineOp<undefined>({
  name: 'logSoftmax',
  forward(_ctx, [x]) {
    const [n, d] = x.shape;
    const out = x.engine.empty(x.shape);
    x.engine.k.f32_log_softmax_rows(out.ptr, d, x.ptr, d, n, d);
    return out;
  },
  // dx = dy − softmax(x) ⊙ Σⱼ dy
  backward: (ctx, dy) => [sub(dy, mul(exp(ctx.out), sum(dy, 1, true)))],
});

const rows = (op: string, x: Tensor) =>
  check(x.rank === 2, 'E_SHAPE', () => `${op}: x must be (N, D), got [${x.shape}]`);

/** Softmax over each row of a (N, D) tensor. */
export function softmax(x: Tensor): Tensor {
  rows('softmax', x);
  return Softmax([x], undefined);
}

/** log(softmax(x)) over each row, computed stably. */
export function logSoftmax(x: Tensor): Tensor {
  rows('logSoftmax', x);
  return LogSoftmax([x], undefined);
}

/**
 * softmax((logits + g) / tau) with Gumbel noise g (N, D) drawn by the caller from a seeded Rng,
 * as in torch.nn.functional.gumbel_softmax(hard=False).
 */
export function gumbelSoftmax(logits: Tensor, tau: number, gumbel: Tensor): Tensor {
  check(tau > 0 && Number.isFinite(tau), 'E_ARG', () => `gumbelSoftmax: tau must be > 0, got ${tau}`);
  check(
    gumbel.size === logits.size,
    'E_SHAPE',
    () => `gumbelSoftmax: noise [${gumbel.shape}] does not match logits [${logits.shape}]`,
  );
  return softmax(div(add(logits, gumbel), tau));
}
