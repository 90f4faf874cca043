// The canonical sets of a score, a class or a real value (stages/sides.ts): the two targets of the output are the
// sides of the binary stages, on the rows whose output is in either. Checked here on the simulator's planted regression
// output, audited through a built-in regressor: the side view holds exactly the rows the model puts in each band, every
// generated row kept in a set is one the model itself puts in that set's band (rejection by the model's own output, a
// row in neither band on no side), the planted group is stated disfavoured with the real rows backing it, and the
// options of targets are refused where they do not fit — before any work.
import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox, type BlackBox } from '../../src/models/blackbox.js';
import { runAnyAudit } from '../../src/audit/run.js';
import { isOutputAudit, type OutputAuditResult, type SidesSection } from '../../src/audit/types.js';
import { inTarget } from '../../src/methods/metrics/targets.js';
import { getEngine } from '../helpers/engine.js';

let engine: Engine;
let data: Table;
let box: BlackBox;
let dispose: () => void;
let result: OutputAuditResult;

/** A small, quick audit: one GAN seed, few epochs, small sets, no intersections' sets. */
const QUICK = {
  toleranceUnits: 1000,
  ganSeeds: 1,
  ganEpochs: 30,
  n: 300,
  intersectionRows: 0,
  faleBootstrap: 0,
  lucidEpochs: 20,
};

before(async () => {
  engine = await getEngine();
  const sim = simulate(new Rng(engine, 11), { n: 1500, bias: 'direct', target: 'regression' });
  // the model reads the features and the group (direct bias), not the planted output itself
  data = { rows: sim.table.rows, columns: sim.table.columns.filter((c) => c.name !== 'offered_limit') };
  const train: Table = {
    rows: sim.table.rows,
    columns: sim.table.columns.filter((c) => c.name !== 'merited_limit'),
  };
  const { model } = Classifier.train(engine, train, {
    label: 'offered_limit',
    output: 'regression',
    epochs: 40,
    seed: 3,
  });
  dispose = () => model.dispose();
  box = builtinBlackBox(engine, model, 'the test regressor');
  const r = await runAnyAudit(engine, data, {
    label: 'merited_limit',
    model: box,
    favourable: 'higher',
    protected: ['group', 'sex'],
    seed: 4,
    ...QUICK,
  });
  assert.ok(isOutputAudit(r));
  result = r;
});

after(() => dispose?.());

describe('canonical sets of a real value: the top and bottom deciles', () => {
  it(
    'contrasts the top decile with the bottom one, favoured ' + 'first, on exactly the rows the model puts in them',
    async () => {
      assert.ok(result.sides && !('skipped' in result.sides), 'the sets are drawn');
      const s = result.sides as SidesSection;
      assert.match(s.pair.favoured.label, /^top decile of /);
      assert.match(s.pair.other.label, /^bottom decile of /);
      const out = await box.predict(data);
      let fav = 0;
      let oth = 0;
      for (const v of out) {
        if (inTarget(s.pair.favoured, v)) fav++;
        else if (inTarget(s.pair.other, v)) oth++;
      }
      assert.deepEqual(s.rows, { favoured: fav, other: oth, neither: data.rows - fav - oth });
      assert.equal(s.audit.meta.data.rows, fav + oth);
    },
  );

  it("keeps in each set only generated rows the model itself puts in that set's band", async () => {
    const s = result.sides as SidesSection;
    const { positive, negative } = s.audit.canonical;
    assert.ok(positive.rows > 0 && negative.rows > 0);
    const strip = (t: Table): Table => ({ rows: t.rows, columns: t.columns.filter((c) => c.name !== s.sideColumn) });
    for (const [set, target] of [
      [positive, s.pair.favoured],
      [negative, s.pair.other],
    ] as const) {
      const v = await box.predict(strip(set));
      const off = Array.from(v).filter((x) => !inTarget(target, x)).length;
      assert.equal(off, 0, `${off} rows of the ${target.label} set are outside it by the model`);
    }
  });

  it('states the planted group disfavoured, backed by the real rows of the two bands', () => {
    const s = result.sides as SidesSection;
    const group = s.audit.findings.protected.find((p) => p.feature === 'group');
    assert.ok(group, 'group is among the protected findings');
    const disfavoured = (group.disfavoured ?? []).map((x) => `${x.value}:${x.status}`);
    assert.ok(
      disfavoured.some((x) => /^B:(agrees|overstates|understates)$/.test(x)),
      `B disfavoured with a status the rows back: ${disfavoured.join(', ')}`,
    );
  });
});

describe('target options', () => {
  it('are refused where they do not fit the output, before any work', async () => {
    const isArg = (e: unknown) => e instanceof EngineError && e.code === 'E_ARG';
    const base = { label: 'merited_limit', model: box, favourable: 'higher' as const, protected: ['group'], ...QUICK };
    await assert.rejects(runAnyAudit(engine, data, { ...base, targetClasses: ['a'] }), isArg);
    await assert.rejects(runAnyAudit(engine, data, { ...base, bands: ['0.9-1', '0-0.1', '0.4-0.5'] }), /at most twice/);
    await assert.rejects(runAnyAudit(engine, data, { ...base, bands: ['2-3'] }), /--band-scale units/);
  });
});

describe('FALE of a real value in the audit', () => {
  it('accumulates the mean prediction per protected attribute, the group with the lowest mean as unprivileged', () => {
    assert.equal(result.faleSkipped, undefined);
    const fale = result.fale ?? [];
    assert.deepEqual(
      fale.map((f) => f.attribute),
      ['group', 'sex'],
    );
    const g = fale.find((f) => f.attribute === 'group')!;
    assert.deepEqual(g.unprivileged, [{ column: 'group', value: 'B' }]);
    assert.equal(g.result.measure?.name, 'mean-prediction');
  });
});

describe('LUCID of a real value in the audit', () => {
  it('inverts towards the favoured band through the regressor, its success the share that lands in it', () => {
    const l = result.lucid;
    assert.ok(l?.ran, `LUCID ran: ${l?.reason}`);
    const s = result.sides as SidesSection;
    assert.equal(l.prefer, s.pair.favoured.label);
    assert.ok(l.success !== undefined && l.success >= 0 && l.success <= 1);
    assert.equal(result.notRun, '');
  });
});

describe('a stop request during the sets', () => {
  it('marks the output audit interrupted and runs neither LUCID nor FALE after it', async () => {
    let training = false;
    const r = await runAnyAudit(engine, data, {
      label: 'merited_limit',
      model: box,
      favourable: 'higher',
      protected: ['group'],
      seed: 4,
      ...QUICK,
      ganEpochs: 400,
      onProgress: (stage) => {
        if (stage === 'gan') training = true;
      },
      shouldStop: () => training,
    });
    assert.ok(isOutputAudit(r));
    assert.ok(r.meta.interrupted, 'marked interrupted');
    assert.ok(r.meta.interrupted.cutShort, 'the GANs were cut short');
    assert.equal(r.lucid?.ran, false);
    assert.match(r.faleSkipped ?? '', /asked to stop/);
    assert.match(r.notRun, /LUCID: the audit was asked to stop/);
  });
});

describe('deciles that meet on tied outputs', () => {
  it('leave the sets undrawn with the reason, the group metrics whole', async () => {
    const sim = simulate(new Rng(engine, 12), { n: 600, bias: 'direct', target: 'score' });
    // a coarse score: nine rows in ten hold the middle value, so its top and bottom deciles meet there
    const coarse = Float64Array.from({ length: sim.table.rows }, (_, i) => (i % 20 === 0 ? 4 : i % 20 === 1 ? 6 : 5));
    const t: Table = {
      rows: sim.table.rows,
      columns: [
        ...sim.table.columns.filter((c) => c.name !== 'credit_score'),
        { kind: 'numeric', name: 'coarse', values: coarse },
      ],
    };
    const r = await runAnyAudit(engine, t, {
      label: 'repaid',
      positive: 'yes',
      pred: 'coarse',
      output: 'score',
      favourable: 'higher',
      protected: ['group'],
      ...QUICK,
      toleranceUnits: undefined,
    });
    assert.ok(isOutputAudit(r));
    assert.ok(r.sides && 'skipped' in r.sides);
    assert.match(r.sides.skipped, /overlap in units: the output has few distinct values/);
    assert.ok(r.metrics.report.attributes.length > 0, 'the group metrics are there');
    assert.match(r.notRun, /canonical sets/);
  });
});
