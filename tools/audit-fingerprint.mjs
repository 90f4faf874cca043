// A refactor's check that runAudit still does what it did: two small fixed-seed audits (a built-in
// model with three protected attributes, a numeric one binned, --suppress-below, a stratified GAN
// sample and the fast schedule; and a predictions column with the surrogate, two GAN seeds, no
// rejection), each result serialised without its timings and creation time, and SHA-256 of each
// and of the progress sequence. Run it on the build before and after a change and compare.
//
//   node tools/audit-fingerprint.mjs [--out DIR]     (after npm run build; DIR gets the two JSON files)
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAudit } from '../dist/src/audit/run.js';
import { simulate } from '../dist/src/data/simulator.js';
import { Rng } from '../dist/src/engine/rng.js';
import { builtinBlackBox } from '../dist/src/models/blackbox.js';
import { Classifier } from '../dist/src/models/classifier/classifier.js';
import { initNodeEngine } from '../dist/src/node/engine.js';

const outAt = process.argv.indexOf('--out');
const out = outAt > 0 ? process.argv[outAt + 1] : null;
const engine = await initNodeEngine();
const data = simulate(new Rng(engine, 21), { n: 2000, bias: 'direct' }).table;
const train = simulate(new Rng(engine, 20), { n: 2000, bias: 'direct' }).table;
const clf = Classifier.train(engine, train, {
  label: 'approved',
  positive: 'yes',
  hidden: [],
  epochs: 30,
  valFraction: 0,
  seed: 1,
}).model;
const SMALL = { ganEpochs: 4, n: 150, intersectionRows: 50, faleBootstrap: 3, lucidEpochs: 20, seed: 3 };
/** @param {import('../dist/src/audit/types.js').AuditResult} r */
const serialise = (r) =>
  JSON.stringify(r, (k, v) =>
    k === 'timings' || k === 'created'
      ? undefined
      : ArrayBuffer.isView(v)
        ? Array.from(/** @type {ArrayBufferView & ArrayLike<number>} */ (v))
        : v,
  );
/** @type {string[]} */
const progress = [];
const runs = {
  model: () =>
    runAudit(engine, data, {
      label: 'approved',
      positive: 'yes',
      protected: ['sex', 'group', 'age'],
      model: builtinBlackBox(engine, clf, 'sim model'),
      protectedEdges: { age: [18, 35, 50, 80] },
      suppressBelow: 30,
      ganRows: 1500,
      ganSchedule: 'fast',
      ...SMALL,
      onProgress: (s, f) => progress.push(`${s}:${f.toFixed(3)}`),
    }),
  pred: async () => {
    const p = await builtinBlackBox(engine, clf, 'm').predict(data);
    const t = {
      rows: data.rows,
      columns: [...data.columns, { kind: /** @type {const} */ ('numeric'), name: 'score', values: p }],
    };
    return runAudit(engine, t, {
      label: 'approved',
      positive: 'yes',
      protected: ['sex', 'group'],
      pred: 'score',
      ...SMALL,
      ganSeeds: 2,
      rejection: false,
    });
  },
};
/** @param {string} s */
const sha = (s) => createHash('sha256').update(s).digest('hex');
if (out) mkdirSync(out, { recursive: true });
/** @type {Record<string, unknown>} */
const summary = {};
for (const [name, run] of Object.entries(runs)) {
  const r = await run();
  const s = serialise(r);
  summary[name] = { sha256: sha(s), timings: Object.keys(r.meta.timings), seeds: Object.keys(r.meta.seeds).length };
  if (out) writeFileSync(join(out, `${name}.json`), s);
}
summary.progress = sha(progress.join(','));
clf.dispose();
process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
