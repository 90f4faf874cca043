// The mean, composed from sum (reduce.ts) and mul (elementwise.ts). Not in reduce.ts: elementwise's
// broadcasting gradients reduce with sumTo, so reduce.ts stays below elementwise.ts and imports none of it.
import { check } from '../../engine/errors.js';
import type { Tensor } from '../../engine/engine.js';
import { mul } from './elementwise.js';
import { sum } from './reduce.js';

/** Mean of all elements, or over one axis (see sum). */
export function mean(x: Tensor, axis?: 0 | 1, keepDim = false): Tensor {
  const count = axis === undefined ? x.size : x.shape[axis];
  check(count > 0, 'E_SHAPE', () => `mean: empty tensor [${x.shape}]`);
  return mul(sum(x, axis, keepDim), 1 / count);
}
