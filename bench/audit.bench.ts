// Audit tier: the time cost of the default `lucid audit` on the Adult test split (15,060 rows) at the
// threaded engine's thread count (2 on this machine), against the audit as it ran before issue #15 —
// one LUCID-GAN, every generated row kept, no point masses, the paper's condition — run in the same
// process, interleaved (its ratio is the cost of the checks against the data). Both audit the built-in
// classifier (default MLP) trained on the Adult train split. Without the Adult files the group is
// skipped and says why: simulated rows would not measure what the issue asks.
import type { Engine } from '../src/engine/engine.js';
import { runAudit, type AuditOptions } from '../src/audit/run.js';
import { builtinBlackBox, type BlackBox } from '../src/models/blackbox.js';
import { Classifier } from '../src/models/classifier/classifier.js';
import { datasetAvailability, loadAdult } from '../src/node/datasets.js';
import type { Table } from '../src/data/table.js';
import type { Group } from './lib/runner.js';
import { GROUND_TRUTH_SAMPLING } from '../src/audit/flags.js';

/** The audit before issue #15, as options of today's code (the ground truth's sampling, flags.ts). */
export const AUDIT_BEFORE: Partial<AuditOptions> = { ...GROUND_TRUTH_SAMPLING };

export function auditGroups(engine: Engine, log: (m: string) => void, engineT?: Engine): Group[] {
  const e = engineT ?? engine;
  return [{
    tier: 'audit',
    name: 'audit adult test default',
    unit: 'ms',
    async: true,
    warmup: false,
    budget: { rounds: 2 },
    async prepare() {
      const adult = datasetAvailability('adult');
      if (!adult.available) {
        log(`  audit: skipped: the Adult data is absent (${adult.reason}); this group measures the audit on Adult only`);
        return { cases: [] };
      }
      const ds = await loadAdult();
      const clf = Classifier.train(e, ds.splits.train, { label: ds.label, positive: ds.favourable, validation: ds.splits.val, seed: 0 }).model;
      const model: BlackBox = builtinBlackBox(e, clf, 'built-in MLP trained on the Adult train split');
      const table: Table = ds.splits.test;
      const base: AuditOptions = { label: ds.label, positive: ds.favourable, protected: ['Sex', 'Race', 'Age'], protectedEdges: { Age: [16, 30, 50, 90] }, model, seed: 0 };
      const threads = e.threads;
      return {
        cases: [
          { engine: 'lucid' as const, impl: `before #15: 1 GAN, no rejection · ${threads} threads`, baseline: true, extra: { threads }, fn: async () => void (await runAudit(e, table, { ...base, ...AUDIT_BEFORE })) },
          { engine: 'lucid' as const, impl: `default: 3 GANs, rejection, checks · ${threads} threads`, extra: { threads }, fn: async () => void (await runAudit(e, table, base)) },
        ],
        dispose: () => clf.dispose(),
      };
    },
  }];
}
