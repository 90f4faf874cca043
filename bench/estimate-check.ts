// How close the audit's estimate (src/audit/estimate.ts, shown before its GANs train) comes to the
// audit's time, on the bench's data sets:
//
//   node dist/bench/estimate-check.js <adult|compas|sim1000x20> [--threads N] [--side-by-side on|off]
//
// Trains the data set's built-in classifier, then runs the default audit as lucid audit does (GAN
// seeds side by side when that is on and there are threads) with onEstimate, and prints the estimate
// against runAudit's seconds (and the GAN stage's). One audit per call: a measurement, not a test.
import { initNodeEngine } from '../src/node/engine.js';
import { runAudit } from '../src/audit/run.js';
import type { AuditEstimate } from '../src/audit/estimate.js';
import { builtinBlackBox } from '../src/models/blackbox.js';
import { withGanWorkers } from '../src/node/gan-workers.js';
import { AUDIT_DATASETS, auditDatasetMissing, auditSetup, type AuditDataset } from './lib/audit-setup.js';

const argv = process.argv.slice(2);
const name = argv[0] as AuditDataset;
const opt = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
if (!AUDIT_DATASETS.includes(name)) {
  console.error(
    `usage: node dist/bench/estimate-check.js <${AUDIT_DATASETS.join('|')}> [--threads N] [--side-by-side on|off]`,
  );
  process.exit(2);
}
const missing = auditDatasetMissing(name);
if (missing) {
  console.error(`estimate-check: ${missing}`);
  process.exit(1);
}
const threads = Number(opt('--threads') ?? 2);
const sideBySide = opt('--side-by-side') === undefined ? undefined : opt('--side-by-side') === 'on';
const engine = await initNodeEngine({ threads });
const setup = await auditSetup(engine, name);
const clf = setup.train(engine);
let estimate: AuditEstimate | null = null;
const t0 = performance.now();
const r = await withGanWorkers(engine, sideBySide, (ganWorkers) =>
  runAudit(engine, setup.table, {
    ...setup.options,
    model: builtinBlackBox(engine, clf, setup.modelText),
    ...(ganWorkers ? { ganWorkers } : {}),
    onEstimate: (e) => void (estimate = e),
  }),
);
const seconds = (performance.now() - t0) / 1000;
const e = estimate as AuditEstimate | null;
if (!e) throw new Error('the audit gave no estimate');
const gan = r.meta.timings.gan / 1000;
console.log(
  `${name}, ${threads} thread${threads === 1 ? '' : 's'}, side by side ${sideBySide ?? 'default'}: estimate ` +
    `${e.seconds.toFixed(1)} s (GANs ${e.ganSeconds.toFixed(1)} s), actual ${seconds.toFixed(1)} s (GANs ` +
    `${gan.toFixed(1)} s): ${((e.seconds / seconds - 1) * 100).toFixed(0)}% (GANs ` +
    `${((e.ganSeconds / gan - 1) * 100).toFixed(0)}%); ${e.what}`,
);
clf.dispose();
process.exit(0);
