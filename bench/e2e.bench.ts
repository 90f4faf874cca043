// E2E tier: one full WGAN-GP iteration (critic step + generator step) of an Adult-sized CTGAN
// at batch 500, ms per iteration, plus each step alone. Reference figures from the spec are
// attached to the iteration rows (quoted, not measured here).
import type { Engine } from '../src/engine/engine.js';
import { WganGp } from './lib/ctgan.js';
import type { Group } from './lib/runner.js';
import { CTGAN, E2E_REFERENCE_MS } from './lib/sizes.js';

export function e2eGroups(engine: Engine): Group[] {
  const base = `e2e wgan-gp b${CTGAN.batch}`;
  return [
    {
      tier: 'e2e',
      name: `${base} iteration`,
      unit: 'ms',
      // ~100 ms per call: longer rounds, and no "slow case" capping.
      budget: { roundTimeMs: 500, warmupMs: 1000, slowMs: Infinity },
      prepare() {
        const m = new WganGp(engine, 1);
        let sink = 0;
        return {
          cases: [
            {
              engine: 'lucid' as const,
              impl: 'critic + generator step',
              bench: `${base} iteration`,
              extra: { reference: E2E_REFERENCE_MS },
              fn: () =>
                engine.scope(() => {
                  sink += m.criticStep().item();
                  sink += m.generatorStep().item();
                }),
            },
            {
              engine: 'lucid' as const,
              impl: 'critic step',
              bench: `${base} critic step`,
              fn: () =>
                engine.scope(() => {
                  sink += m.criticStep().item();
                }),
            },
            {
              engine: 'lucid' as const,
              impl: 'generator step',
              bench: `${base} generator step`,
              fn: () =>
                engine.scope(() => {
                  sink += m.generatorStep().item();
                }),
            },
          ],
          check: () => (Number.isFinite(sink) ? null : `a loss is not finite (${sink})`),
          dispose: () => m.dispose(),
        };
      },
    },
  ];
}
