// Ops tier: forward + backward of single layers through the autograd ops, ms per call.
// Each call runs in engine.scope so its scratch is released.
import { grad, requireGrad } from '../src/autograd/tape.js';
import type { Engine } from '../src/engine/engine.js';
import { Rng } from '../src/engine/rng.js';
import { buildParams } from '../src/nn/module.js';
import { BatchNorm1d, Linear } from '../src/nn/layers.js';
import { hostUniform, heapTensor } from './lib/fixtures.js';
import type { Group } from './lib/runner.js';
import { OPS } from './lib/sizes.js';

export function opsGroups(engine: Engine): Group[] {
  const { batch: n, inFeatures, outFeatures } = OPS.linear;
  const { batch: nb, features } = OPS.batchNorm;
  return [
    {
      tier: 'ops',
      name: `ops linear ${n}x${inFeatures}->${outFeatures} fwd+bwd`,
      unit: 'ms',
      prepare() {
        const layer = new Linear(inFeatures, outFeatures);
        const params = buildParams(engine, layer, new Rng(engine, 1));
        // x needs its gradient too (a hidden layer): forward NT, backward dX (NN) and dW (TN), db.
        const x = requireGrad(heapTensor(engine, [n, inFeatures], hostUniform(n * inFeatures, 5)));
        const dy = heapTensor(engine, [n, outFeatures], hostUniform(n * outFeatures, 6));
        const wrt = [x, ...params.trainable];
        return {
          cases: [{
            engine: 'lucid' as const,
            impl: 'Linear.forward + grad',
            fn: () => engine.scope(() => {
              grad(layer.forward(x), wrt, { gradOutputs: [dy] });
            }),
          }],
          dispose: () => {
            x.dispose();
            dy.dispose();
            params.block.dispose();
          },
        };
      },
    },
    {
      tier: 'ops',
      name: `ops batchnorm1d ${nb}x${features} fwd+bwd`,
      unit: 'ms',
      prepare() {
        const layer = new BatchNorm1d(features);
        const params = buildParams(engine, layer, new Rng(engine, 2));
        const x = requireGrad(heapTensor(engine, [nb, features], hostUniform(nb * features, 7)));
        const dy = heapTensor(engine, [nb, features], hostUniform(nb * features, 8));
        const wrt = [x, ...params.trainable];
        return {
          cases: [{
            engine: 'lucid' as const,
            impl: 'BatchNorm1d.forward + grad',
            fn: () => engine.scope(() => {
              grad(layer.forward(x), wrt, { gradOutputs: [dy] });
            }),
          }],
          dispose: () => {
            x.dispose();
            dy.dispose();
            params.block.dispose();
          },
        };
      },
    },
  ];
}
