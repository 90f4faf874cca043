// Ops tier: forward + backward of single layers through the autograd ops, ms per call.
// Each call runs in engine.scope so its scratch is released.
import { grad, requireGrad } from '../src/autograd/tape.js';
import type { Engine, Tensor } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { buildParams, type Module } from '../src/nn/module.js';
import { BatchNorm1d, Linear } from '../src/nn/layers.js';
import { hostUniform, heapTensor } from './lib/fixtures.js';
import type { Group } from './lib/runner.js';
import { OPS } from './lib/sizes.js';

/**
 * One layer's forward and the gradient w.r.t. its input and parameters (the input needs its
 * gradient too, as a hidden layer's does). x: (n, inFeatures), dy: (n, outFeatures).
 */
function layerGroup(
  engine: Engine,
  name: string,
  impl: string,
  layer: Module & { forward(x: Tensor): Tensor },
  n: number,
  inFeatures: number,
  outFeatures: number,
  seed: number,
): Group {
  return {
    tier: 'ops',
    name,
    unit: 'ms',
    prepare() {
      const params = buildParams(engine, layer, new Rng(engine, seed));
      const x = requireGrad(heapTensor(engine, [n, inFeatures], hostUniform(n * inFeatures, 2 * seed + 3)));
      const dy = heapTensor(engine, [n, outFeatures], hostUniform(n * outFeatures, 2 * seed + 4));
      const wrt = [x, ...params.trainable];
      return {
        cases: [
          {
            engine: 'lucid' as const,
            impl,
            fn: () =>
              engine.scope(() => {
                grad(layer.forward(x), wrt, { gradOutputs: [dy] });
              }),
          },
        ],
        dispose: () => {
          x.dispose();
          dy.dispose();
          params.block.dispose();
        },
      };
    },
  };
}

export function opsGroups(engine: Engine): Group[] {
  const { batch: n, inFeatures, outFeatures } = OPS.linear;
  const { batch: nb, features } = OPS.batchNorm;
  return [
    // forward NT, backward dX (NN) and dW (TN), db
    layerGroup(
      engine,
      `ops linear ${n}x${inFeatures}->${outFeatures} fwd+bwd`,
      'Linear.forward + grad',
      new Linear(inFeatures, outFeatures),
      n,
      inFeatures,
      outFeatures,
      1,
    ),
    layerGroup(
      engine,
      `ops batchnorm1d ${nb}x${features} fwd+bwd`,
      'BatchNorm1d.forward + grad',
      new BatchNorm1d(features),
      nb,
      features,
      features,
      2,
    ),
  ];
}
