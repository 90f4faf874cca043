// The audit's time told before its GANs train (audit/estimate.ts): what the estimate
// holds and how it is worded, that the audit gives it once before training (never for reused
// generators), and that estimating changes no figure of the audit. Its accuracy is measured, not
// tested here (timed tests are not allowed).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../../src/models/blackbox.js';
import { runAudit, type AuditOptions } from '../../src/audit/run.js';
import { estimateAudit, type AuditEstimate } from '../../src/audit/estimate.js';
import type { GanStore } from '../../src/audit/gan-reuse.js';
import type { AuditResult } from '../../src/audit/types.js';
import { ganBatchFor, ganEpochsFor } from '../../src/audit/options.js';
import { NodeGanWorkers } from '../../src/node/gan-workers.js';
import { getEngine } from '../helpers/engine.js';

describe("the audit's estimate", () => {
  let engine: Engine;
  let clf: Classifier;
  let base: AuditOptions;
  const data = () => simulate(new Rng(engine, 21), { n: 900, bias: 'proxy' }).table;
  before(async () => {
    engine = await getEngine();
    clf = Classifier.train(engine, simulate(new Rng(engine, 20), { n: 900, bias: 'proxy' }).table, {
      label: 'approved',
      positive: 'yes',
      hidden: [],
      epochs: 10,
      valFraction: 0,
      seed: 1,
    }).model;
    base = {
      label: 'approved',
      positive: 'yes',
      protected: ['sex'],
      model: builtinBlackBox(engine, clf, 'model'),
      seed: 5,
      ganSeeds: 2,
      ganEpochs: 3,
      n: 100,
      intersectionRows: 0,
      faleBootstrap: 0,
      lucidEpochs: 5,
    };
  });
  const figures = (r: AuditResult) =>
    JSON.stringify({ ...r, meta: { ...r.meta, timings: undefined, created: undefined } });

  it(
    'before a run: the default length for the rows, a ' + 'positive time of which the GANs are most, and words for it',
    async () => {
      const t = data();
      const e = await estimateAudit(engine, t, { label: 'approved', ganSeeds: 3 });
      const rows = t.rows;
      const batch = ganBatchFor(rows);
      assert.equal(e.what, `3 LUCID-GANs × ${ganEpochsFor(rows, batch)} epochs of ${Math.floor(rows / batch)} steps`);
      assert.ok(e.probes.engine!.stepSeconds > 0 && e.probes.engine!.setupSeconds > 0 && Number.isFinite(e.seconds));
      assert.equal(e.probes.worker, null, 'no workers: no worker probe');
      assert.ok(e.ganSeconds < e.seconds && e.ganSeconds > 0.9 * e.seconds);
      assert.equal(e.ceiling, false);
      // more epochs, more time; a stopping schedule is a ceiling
      const longer = await estimateAudit(engine, t, {
        label: 'approved',
        ganSeeds: 3,
        ganEpochs: 10 * ganEpochsFor(rows, batch),
      });
      assert.ok(longer.ganSeconds > 3 * e.ganSeconds, `${longer.ganSeconds} against ${e.ganSeconds}`);
      assert.equal((await estimateAudit(engine, t, { label: 'approved', ganSchedule: 'plateau' })).ceiling, true);
    },
  );

  it(
    'with GAN workers, the probe runs where the GANs ' + 'will: whole waves in a worker, the rest on the engine',
    async () => {
      const workers = new NodeGanWorkers(2);
      try {
        const t = data();
        const two = await estimateAudit(engine, t, { label: 'approved', ganSeeds: 2, ganWorkers: workers });
        assert.ok(two.probes.worker!.stepSeconds > 0);
        assert.equal(two.probes.engine, null, 'both seeds side by side: no engine probe');
        const three = await estimateAudit(engine, t, { label: 'approved', ganSeeds: 3, ganWorkers: workers });
        assert.ok(three.probes.worker && three.probes.engine, 'two side by side, the third on the engine');
        // a stopping schedule never trains side by side
        assert.equal(
          (
            await estimateAudit(engine, t, {
              label: 'approved',
              ganSeeds: 2,
              ganSchedule: 'plateau',
              ganWorkers: workers,
            })
          ).probes.worker,
          null,
        );
      } finally {
        workers.close();
      }
    },
  );

  it('the audit gives it once, before its GANs train, and it changes no figure', async () => {
    const got: AuditEstimate[] = [];
    const events: string[] = [];
    const r = await runAudit(engine, data(), {
      ...base,
      onEstimate: (e) => {
        got.push(e);
        events.push('estimate');
      },
      onProgress: (s, f) => void (s === 'gan' && f > 0 && events.push('epoch')),
    });
    assert.equal(got.length, 1);
    assert.equal(events[0], 'estimate');
    assert.equal(got[0].what, `2 LUCID-GANs × 3 epochs of ${Math.floor(r.meta.gan.rows / r.meta.gan.batch)} steps`);
    assert.equal(figures(r), figures(await runAudit(engine, data(), base)));
  });

  it('is not given for generators reused from the cache', async () => {
    const mem = new Map<string, string>();
    const store: GanStore = { get: async (k) => mem.get(k) ?? null, put: async (k, v) => void mem.set(k, v) };
    await runAudit(engine, data(), { ...base, ganCache: store });
    let asked = 0;
    const r = await runAudit(engine, data(), { ...base, ganCache: store, onEstimate: () => void asked++ });
    assert.equal(r.meta.gan.reused?.from, 'cache');
    assert.equal(asked, 0);
  });
});
