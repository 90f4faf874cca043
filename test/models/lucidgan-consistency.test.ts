// LUCID-GAN's prediction-consistency mode (the default) against --paper on a small simulated
// problem: the audited model is a logistic classifier, its P(approved) the condition; the consistency
// mode must raise validity (generated rows scored on the conditioned side of 0.5), record its
// surrogate and its fit, and round-trip through the model file; --paper files hold no surrogate.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import {
  CONSISTENCY_WEIGHT,
  ganFromJSON,
  ganToJSON,
  LucidGan,
  type FitOptions,
} from '../../src/models/lucidgan/index.js';
import { getEngine } from '../helpers/engine.js';

const SMALL: Partial<FitOptions> = {
  embedding: 16,
  generatorDims: [32, 32],
  discriminatorDims: [32, 32],
  batch: 50,
  pac: 10,
};
let engine: Engine;
let table: Table;
let clf: Classifier;

before(async () => {
  engine = await getEngine();
  const sim = simulate(new Rng(engine, 3), { n: 600, bias: 'proxy' });
  clf = Classifier.train(engine, sim.table, { label: 'approved', positive: 'yes', hidden: [], seed: 0 }).model;
  const preds = clf.predictProba(engine, sim.table);
  table = {
    rows: sim.table.rows,
    columns: [
      ...sim.table.columns.filter((c) => c.name !== 'approved'),
      { kind: 'numeric', name: 'preds', values: preds },
    ],
  };
});

/** Share of rows generated at preds = c that the classifier scores on c's side of 0.5. */
function validity(m: LucidGan, c: 0 | 1): number {
  const rows = m.sample({ n: 400, conditions: { preds: c }, seed: 5 }).table;
  const s = clf.predictProba(engine, rows);
  let ok = 0;
  for (const p of s) if (c === 1 ? p > 0.5 : p < 0.5) ok++;
  return ok / s.length;
}

describe('LUCID-GAN prediction consistency', () => {
  it('raises validity over --paper; --paper files hold no surrogate; the mode round-trips', async (t) => {
    const paper = (
      await LucidGan.fit(engine, table, { ...SMALL, conditions: ['preds'], epochs: 60, seed: 1, paper: true })
    ).model;
    const cons = (await LucidGan.fit(engine, table, { ...SMALL, conditions: ['preds'], epochs: 60, seed: 1 })).model;
    try {
      const vp = [validity(paper, 1), validity(paper, 0)];
      const vc = [validity(cons, 1), validity(cons, 0)];
      t.diagnostic(`validity (pos, neg): paper ${vp.join(', ')}; consistency ${vc.join(', ')}`);
      const mean = (v: number[]) => (v[0] + v[1]) / 2;
      assert.ok(mean(vc) > mean(vp) + 0.2, `consistency ${vc} vs paper ${vp}`);
      assert.ok(vc[0] > vp[0] + 0.3 && vc[1] >= vp[1], `per side: consistency ${vc} vs paper ${vp}`);

      const pj = ganToJSON(paper) as { payload: { generators: Record<string, unknown>[] } };
      assert.deepEqual(pj.payload.generators[0].consistency, { mode: 'paper' });
      assert.ok(!JSON.stringify(pj).includes('surrogate'), 'a --paper file has no surrogate');
      assert.equal(paper.surrogate, null);
      assert.equal(paper.history.surrogate, undefined);

      assert.equal(cons.consistency.mode, 'consistency');
      assert.equal(cons.consistency.condition, 'preds');
      assert.equal(cons.consistency.weight, CONSISTENCY_WEIGHT);
      const fit = cons.history.surrogate!;
      assert.ok(
        fit.bce >= fit.bceFloor - 1e-9 && fit.bce < fit.bceFloor + 0.1 && fit.mse < 0.05 && fit.agreement > 0.8,
        JSON.stringify(fit),
      );
      assert.equal(cons.history.lossConsistency!.length, 60);
      const cj = ganToJSON(cons);
      const back = ganFromJSON(engine, JSON.parse(JSON.stringify(cj)));
      try {
        assert.deepEqual(back.consistency.mode, 'consistency');
        assert.deepEqual(back.surrogate!.params.snapshot(), cons.surrogate!.params.snapshot());
        assert.equal(JSON.stringify(ganToJSON(back)), JSON.stringify(cj));
      } finally {
        back.dispose();
      }
      // a file written before the mode existed loads as the paper's mode
      const old = ganToJSON(paper) as { payload: { generators: Record<string, unknown>[] }; checksum: string };
      delete old.payload.generators[0].consistency;
      const { fnv1a32 } = await import('../../src/models/lucidgan/codec.js');
      old.checksum = `fnv1a32:${fnv1a32(JSON.stringify(old.payload))}`;
      const legacy = ganFromJSON(engine, old);
      assert.equal(legacy.consistency.mode, 'paper');
      legacy.dispose();
    } finally {
      paper.dispose();
      cons.dispose();
    }
  });

  it('validates the consistency condition and weight', async () => {
    const scaled: Table = {
      rows: table.rows,
      columns: [
        ...table.columns,
        { kind: 'numeric', name: 'score', values: Float64Array.from({ length: table.rows }, (_, i) => i) },
      ],
    };
    const rejects = (opts: Partial<FitOptions>, re: RegExp) =>
      assert.rejects(
        LucidGan.fit(engine, scaled, { ...SMALL, conditions: ['score', 'preds'], epochs: 1, ...opts }),
        (e: unknown) => e instanceof EngineError && e.code === 'E_ARG' && re.test(e.message),
      );
    await rejects({ consistency: 'score' }, /outside \[0, 1\]/);
    await rejects({ consistency: 'nope' }, /not a condition/);
    await rejects({ consistencyWeight: -1 }, /≥ 0/);
    await rejects({ paper: true, consistencyWeight: 2 }, /--paper/);
    // the default picks the first condition in [0, 1]
    const m = (await LucidGan.fit(engine, scaled, { ...SMALL, conditions: ['score', 'preds'], epochs: 1 })).model;
    assert.equal(m.consistency.condition, 'preds');
    assert.equal(m.surrogate!.index, 1);
    m.dispose();
    // no condition in [0, 1]: the paper's mode
    const p = (await LucidGan.fit(engine, scaled, { ...SMALL, conditions: ['score'], epochs: 1 })).model;
    assert.equal(p.consistency.mode, 'paper');
    p.dispose();
  });
});
