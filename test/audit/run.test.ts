// runAudit end to end on small simulated data: the result's shape, the planted direction in the
// metrics, determinism, LUCID's start set, and the predictions-column path.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { intersectionPowerCaveat, lucidStart, runAudit } from '../../src/audit/run.js';
import { intersectionBudget } from '../../src/audit/stages/intersections.js';
import { CANONICAL_DEFAULTS } from '../../src/audit/canonical.js';
import { statedPreferences } from '../../src/audit/findings.js';
import { normalQuantile } from '../../src/methods/metrics/verdicts.js';
import type { AuditResult } from '../../src/audit/types.js';
import type { Table } from '../../src/data/table.js';
import { simulate } from '../../src/data/simulator.js';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { builtinBlackBox } from '../../src/models/blackbox.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { invert } from '../../src/methods/lucid/index.js';
import { getEngine } from '../helpers/engine.js';

let engine: Engine;
let data: Table;
let clf: Classifier;
let result: AuditResult;
const SMALL = { ganEpochs: 4, n: 200, intersectionRows: 60, faleBootstrap: 3, lucidEpochs: 20, seed: 3 };

const audit = () =>
  runAudit(engine, data, {
    label: 'approved',
    positive: 'yes',
    protected: ['sex', 'group', 'age'],
    model: builtinBlackBox(engine, clf, 'sim model'),
    protectedEdges: { age: [18, 35, 50, 80] },
    ...SMALL,
  });

before(async () => {
  engine = await getEngine();
  data = simulate(new Rng(engine, 21), { n: 2000, bias: 'direct' }).table;
  const train = simulate(new Rng(engine, 20), { n: 2000, bias: 'direct' }).table;
  clf = Classifier.train(engine, train, {
    label: 'approved',
    positive: 'yes',
    hidden: [],
    epochs: 30,
    valFraction: 0,
    seed: 1,
  }).model;
  result = await audit();
});

describe('runAudit (built-in model, direct bias on group)', () => {
  it('fills every section', () => {
    const r = result;
    assert.equal(r.meta.model.kind, 'builtin');
    assert.equal(r.meta.model.differentiable, true);
    assert.equal(r.meta.positive, 'yes');
    assert.equal(r.meta.gan.epochs, 4);
    // three GAN seeds by default: the audit's seed, then seed + k · stride
    assert.deepEqual(r.meta.gan.seeds, [3, 3 + CANONICAL_DEFAULTS.seedStride, 3 + 2 * CANONICAL_DEFAULTS.seedStride]);
    assert.deepEqual(r.meta.gan.epochsDone, [4, 4, 4]);
    assert.equal(r.meta.gan.rejection, true);
    for (const k of ['score', 'metrics', 'gan', 'canonical', 'checks', 'intersections', 'lucid', 'fale', 'total'])
      assert.equal(typeof r.meta.timings[k], 'number', k);
    assert.equal(r.metrics.attributes.attributes.length, 3);
    assert.ok(r.metrics.intersection);
    // every seed's rows, pooled; drawn by rejection, so every kept row is scored on its side
    const draws = r.canonical.draws!;
    assert.equal(draws.length, 3);
    assert.equal(
      r.canonical.positive.rows,
      draws.reduce((a, d) => a + d.positive.kept, 0),
    );
    assert.equal(
      r.canonical.negative.rows,
      draws.reduce((a, d) => a + d.negative.kept, 0),
    );
    for (const d of draws) {
      for (const st of [d.positive, d.negative]) {
        assert.equal(st.wanted, 200);
        assert.ok(st.kept === 200 || (st.capped && st.drawn >= 200 * CANONICAL_DEFAULTS.drawCap), JSON.stringify(st));
        assert.ok(st.acceptance !== null && st.acceptance >= 0 && st.acceptance <= 1);
      }
    }
    assert.equal(r.canonical.validityScorer, 'model');
    assert.equal(r.canonical.validity!.positive.rate, 1);
    assert.equal(r.canonical.validity!.negative.rate, 1);
    const feats = r.canonical.distributions.map((d) => d.feature);
    assert.ok(!feats.includes('preds') && !feats.includes('approved'));
    assert.ok(feats.includes('neighbourhood') && feats.includes('age'));
    for (let i = 1; i < r.canonical.distributions.length; i++)
      assert.ok(r.canonical.distributions[i - 1].js >= r.canonical.distributions[i].js);
    for (const d of r.canonical.distributions) {
      assert.deepEqual(
        d.series.map((x) => [x.name, x.of]),
        [
          ['positive canonical', undefined],
          ['negative canonical', undefined],
          ['real rows predicted positive', 0],
          ['real rows predicted negative', 1],
        ],
      );
      assert.equal(d.jsSeeds!.length, 3);
      assert.ok(d.jsReal! >= 0 && d.jsReal! <= 1);
      assert.equal(d.role, ['sex', 'group', 'age'].includes(d.feature) ? 'protected' : 'feature');
    }
    // no generated number outside the data's range; whole numbers where the data has them
    for (const t of [r.canonical.positive, r.canonical.negative, r.lucid.canonical!]) {
      for (const c of t.columns) {
        const real = data.columns.find((x) => x.name === c.name);
        if (c.kind !== 'numeric' || !real || real.kind !== 'numeric') continue;
        const lo = Math.min(...real.values);
        const hi = Math.max(...real.values);
        assert.ok(
          c.values.every((v) => v >= lo && v <= hi),
          `${c.name} inside [${lo}, ${hi}]`,
        );
        if (real.values.every(Number.isInteger)) assert.ok(c.values.every(Number.isInteger), `${c.name} whole`);
      }
    }
    assert.equal(r.lucid.projected, true);
    // the checks: fidelity of every generated column, the direction of every protected value (age: its bins and median)
    assert.deepEqual(
      r.checks.fidelity.map((f) => f.feature).sort(),
      data.columns
        .map((c) => c.name)
        .filter((c) => c !== 'approved')
        .sort(),
    );
    const values = (f: string) => r.checks.shifts.filter((c) => c.feature === f).map((c) => c.value);
    assert.deepEqual(values('sex').sort(), ['Female', 'Male']);
    assert.deepEqual(values('age'), ['[18, 35]', '(35, 50]', '(50, 80]', 'median']);
    for (const c of r.checks.shifts) {
      assert.equal(c.canonical.length, 3);
      assert.ok(['agrees', 'overstates', 'understates', 'disagrees', 'unsettled', 'within noise'].includes(c.status));
      assert.ok(c.canonicalSe === null || c.canonicalSe > 0, `${c.feature}=${c.value}: the pooled sets' noise`);
      assert.ok(c.real.lo! <= c.real.shift! && c.real.shift! <= c.real.hi!, `${c.feature}=${c.value}`);
    }
    assert.deepEqual(
      r.findings.protected.map((f) => f.feature),
      ['sex', 'group', 'age'],
    );
    assert.ok(r.checks.cells.length > 0 && r.checks.cells.every((c) => c.feature.includes(' × ')));
    assert.deepEqual(r.proxy.columns, []);
    // age is numeric: binned with the given edges, the distribution uses them
    const age = r.protected.find((p) => p.column === 'age')!;
    assert.equal(age.groupColumn, 'age (binned)');
    assert.deepEqual(age.bins!.labels, ['[18, 35]', '(35, 50]', '(50, 80]']);
    assert.equal(
      age.bins!.counts.reduce((a, b) => a + b, 0),
      2000,
    );
    assert.deepEqual(r.canonical.distributions.find((d) => d.feature === 'age')!.edges, [18, 35, 50, 80]);
    // intersections: three pairs; sets only for sex × group (age is numeric)
    assert.equal(r.intersections.length, 3);
    const sg = r.intersections.find((i) => i.pair[0] === 'sex' && i.pair[1] === 'group')!;
    assert.equal(sg.sets.length, 4);
    for (const s of sg.sets) {
      assert.equal(
        s.positive.rows,
        s.draws!.reduce((a, d) => a + d.positive.kept, 0),
      );
      assert.ok(s.positive.rows <= 180);
      assert.ok(s.fixTraining && s.fixSatisfied !== undefined);
      assert.match(s.name, /^intersection-sex=(Female|Male)-group=(A|B)$/);
    }
    assert.deepEqual(
      sg.heatmap.n.flat().reduce((a, b) => a + b, 0),
      2000,
    );
    assert.equal(r.intersections.find((i) => i.pair[1] === 'age')!.sets.length, 0);
    assert.ok(r.warnings.some((w) => /age is numeric/.test(w)));
    // the heat maps come with what the ground truth says about their power at this size
    assert.deepEqual(
      r.caveats.filter((c) => c.topic === 'power').map((c) => c.text),
      [intersectionPowerCaveat(2000)],
    );
    assert.match(intersectionPowerCaveat(2000), /^2000 rows: .*0 of 5 audits with 2000 rows and 3 of 5 with 10,000/);
    // LUCID and FALE ran
    assert.equal(r.lucid.ran, true);
    assert.equal(r.lucid.canonical!.rows, 200);
    assert.equal(r.lucid.start!.rows, 200);
    assert.equal(r.lucid.loss!.length, 20);
    assert.equal(r.fale.length, 3);
    for (const f of r.fale) {
      assert.match(f.chosen, /lowest selection rate \(the positive decision's rate\) among groups that are not small/);
      assert.ok(f.result.features.every((x) => !['sex', 'group', 'age', 'preds'].includes(x.feature)));
      assert.ok(f.result.features.length > 0);
    }
  });

  it(
    "samples the paper's one-category-fixed sets: one per " +
      'categorical protected value, the other attribute compared',
    () => {
      const cs = result.conditional!;
      assert.ok(cs, 'conditional is present');
      // sex and group are categorical (age is numeric: not fixed, not compared): 2 + 2 fixed values
      assert.deepEqual(
        cs.map((c) => c.fixed),
        [
          ['sex', 'Female'],
          ['sex', 'Male'],
          ['group', 'A'],
          ['group', 'B'],
        ],
      );
      for (const c of cs) {
        assert.ok(c.rows > 0 && c.rows <= 180);
        assert.ok(c.fixTraining && c.fixTraining.rows > 0 && c.fixTraining.share > 0 && c.fixTraining.share < 1);
        assert.ok(c.fixSatisfied !== undefined && c.fixSatisfied >= 0 && c.fixSatisfied <= 1);
        const other = c.fixed[0] === 'sex' ? 'group' : 'sex';
        assert.deepEqual(
          c.distributions.map((d) => d.feature),
          [other],
        );
        const d = c.distributions[0];
        assert.equal(d.kind, 'categorical');
        assert.deepEqual([...d.categories!].sort(), other === 'sex' ? ['Female', 'Male'] : ['A', 'B']);
        assert.deepEqual(
          d.series.map((x) => x.name),
          ['positive canonical', 'negative canonical'],
        );
        for (const x of d.series) {
          assert.ok(x.n >= c.rows);
          assert.ok(
            Math.abs(x.share.reduce((a, b) => a + b, 0) - 1) < 1e-9,
            `${c.fixed.join('=')}: ${x.name} shares sum to 1`,
          );
        }
        assert.ok(d.js >= 0 && d.js <= 1);
      }
      assert.equal(typeof result.meta.timings.conditional, 'number');
    },
  );

  it('has no conditional sets without intersection rows', async () => {
    const r = await runAudit(engine, data, {
      label: 'approved',
      positive: 'yes',
      protected: ['sex', 'group'],
      model: builtinBlackBox(engine, clf, 'm'),
      ...SMALL,
      intersectionRows: 0,
      faleBootstrap: 0,
      lucidEpochs: 1,
    });
    assert.equal(r.conditional, undefined);
  });

  it(
    "states as a preference only what the real rows and every GAN seed agree on; the size is the sets' only where " +
      "it is consistent with the data's",
    () => {
      const stated = statedPreferences(result.findings);
      for (const p of stated) {
        const c = result.checks.shifts.find((x) => x.feature === p.feature && x.value === p.value)!;
        assert.ok(['agrees', 'overstates', 'understates'].includes(c.status), `${p.feature}=${p.value}: ${c.status}`);
        assert.equal(p.status, c.status);
        // a canonical size stated only when consistent with the real interval widened by the sets' noise, and the sets
        // are faithful
        if (p.from === 'canonical') {
          assert.equal(c.status, 'agrees');
          const z = normalQuantile(1 - c.real.level! / 2);
          const w = z * (c.canonicalSe ?? 0);
          assert.ok(
            c.pooled >= c.real.lo! - w - 1e-12 && c.pooled <= c.real.hi! + w + 1e-12,
            `${p.feature}=${p.value}: ${c.pooled} inside [${c.real.lo} − ${w}, ${c.real.hi} + ${w}]`,
          );
        } else
          assert.ok(
            c.status !== 'agrees' || !result.checks.fidelity.find((f) => f.feature === p.feature)!.faithful,
            `${p.feature}=${p.value}: stated from the real rows`,
          );
        const sign = p.direction === 'favoured' ? 1 : -1;
        assert.ok(
          sign * c.real.lo! > 0 && sign * c.real.hi! > 0,
          `${p.feature}=${p.value}: the real interval is on the stated side`,
        );
        assert.ok(
          c.canonical.every((x) => sign * x > 0),
          `${p.feature}=${p.value}: every seed`,
        );
      }
      // and every disagreement is said as one
      const dis = result.checks.shifts.filter(
        (c) => c.status === 'disagrees' && result.findings.protected.some((f) => f.feature === c.feature),
      );
      for (const c of dis)
        assert.ok(
          result.findings.protected
            .find((f) => f.feature === c.feature)!
            .disagreements.some((v) => v.value === c.value),
        );
    },
  );

  it(
    'with one GAN seed and no rejection, draws as published: ' +
      'every row kept, the validity says how many are off side',
    async () => {
      const r = await runAudit(engine, data, {
        label: 'approved',
        positive: 'yes',
        protected: ['sex', 'group'],
        model: builtinBlackBox(engine, clf, 'm'),
        ...SMALL,
        intersectionRows: 0,
        faleBootstrap: 0,
        lucidEpochs: 1,
        ganSeeds: 1,
        rejection: false,
      });
      assert.deepEqual(r.meta.gan.seeds, [3]);
      assert.equal(r.meta.gan.rejection, false);
      assert.equal(r.canonical.positive.rows, 200);
      assert.equal(r.canonical.draws![0].positive.acceptance, null);
      assert.ok(r.canonical.validity!.positive.rate! < 1, 'a 4-epoch generator puts some rows on the wrong side');
      assert.equal(r.canonical.distributions[0].jsSeeds, undefined);
      // the same GAN and draws as the first seed of the default audit, before filtering
      assert.equal(
        r.checks.shifts.every((c) => c.canonical.length === 1),
        true,
      );
    },
  );

  it('the metrics show the planted direction: group B has the lower positivity rate, FALE compares B', () => {
    const g = result.metrics.attributes.attributes.find((a) => a.column === 'group')!;
    const rate = (v: string) => g.groups.find((x) => x.value === v)!.selection_rate!;
    assert.ok(rate('B') < rate('A'), `B ${rate('B')} vs A ${rate('A')}`);
    assert.equal(g.reference.value, 'A');
    const f = result.fale.find((x) => x.attribute === 'group')!;
    assert.deepEqual(f.unprivileged, [{ column: 'group', value: 'B' }]);
  });

  it('is deterministic: the same seed gives identical canonical sets and distributions', async () => {
    const again = await audit();
    const cols = (t: Table) =>
      t.columns.map((c) => (c.kind === 'numeric' ? Array.from(c.values) : Array.from(c.codes, (k) => c.categories[k])));
    assert.deepEqual(cols(again.canonical.positive), cols(result.canonical.positive));
    assert.deepEqual(cols(again.canonical.negative), cols(result.canonical.negative));
    assert.deepEqual(cols(again.intersections[0].sets[3].positive), cols(result.intersections[0].sets[3].positive));
    assert.deepEqual(again.canonical.distributions, result.canonical.distributions);
    assert.deepEqual(again.conditional, result.conditional);
    assert.deepEqual(
      again.fale.map((f) => f.result),
      result.fale.map((f) => f.result),
    );
  });

  it("LUCID's start set is the first logged epoch of its trace (the input before update 1)", () => {
    const r = invert(engine, clf, { prefer: 'positive', n: 50, epochs: 3, seed: 9, traceEvery: 0 });
    const start = lucidStart(engine, clf.preprocessor, 50, 9);
    const t = r.trace!.table;
    const epoch = t.columns.find((c) => c.name === 'epoch')!;
    const rows: number[] = [];
    for (let i = 0; i < t.rows; i++) if (epoch.kind === 'numeric' && epoch.values[i] === 1) rows.push(i);
    assert.equal(rows.length, 50);
    for (const c of start.columns) {
      const tc = t.columns.find((x) => x.name === c.name)!;
      rows.forEach((row, i) => {
        if (c.kind === 'numeric' && tc.kind === 'numeric')
          assert.equal(c.values[i], tc.values[row], `${c.name} row ${i}`);
        else if (c.kind === 'categorical' && tc.kind === 'categorical')
          assert.equal(c.categories[c.codes[i]], tc.categories[tc.codes[row]], `${c.name} row ${i}`);
      });
    }
  });
});

describe('runAudit with a predictions column', () => {
  it(
    'runs without LUCID and FALE, says why, no proxy inference; generated rows are scored by a surrogate fitted to ' +
      'the column, with its held-out agreement',
    async () => {
      const preds = clf.predictProba(engine, data);
      const scored: Table = {
        rows: data.rows,
        columns: [...data.columns, { kind: 'numeric', name: 'p', values: preds }],
      };
      const r = await runAudit(engine, scored, {
        label: 'approved',
        positive: 'yes',
        protected: ['sex', 'group'],
        pred: 'p',
        ...SMALL,
      });
      assert.equal(r.meta.model.kind, 'column');
      assert.equal(r.meta.model.features, null);
      // provenance: a predictions column has no model file to hash; a table given in memory has no file either
      assert.equal(r.meta.model.sha256, null);
      assert.match(r.meta.model.note!, /predictions column: there is no model file/);
      assert.equal(r.meta.data.sha256, null);
      assert.match(r.meta.data.note!, /no file hash/);
      assert.deepEqual(r.meta.command, { via: 'api' });
      assert.equal(r.meta.suppressBelow, null);
      // the surrogate's seeds are among every seed used; no LUCID or FALE seed (neither ran)
      assert.equal(r.meta.seeds['surrogate of the predictions (training)'], r.meta.seed);
      assert.ok('surrogate of the predictions (hold-out split)' in r.meta.seeds);
      assert.ok(!Object.keys(r.meta.seeds).some((k) => /LUCID \(|FALE/.test(k)));
      assert.equal(r.lucid.ran, false);
      assert.match(r.lucid.reason!, /predictions column/);
      assert.deepEqual(r.fale, []);
      assert.match(r.faleSkipped!, /callable model/);
      assert.ok(r.protected.every((p) => p.inModel === null));
      assert.deepEqual(r.proxy.columns, []);
      assert.equal(r.meta.gan.mode, 'paper');
      assert.equal(r.canonical.validityScorer, 'surrogate');
      // the surrogate reproduces a logistic model's decisions on held-out rows
      assert.ok(r.checks.surrogate!.rate > 0.9, `agreement ${r.checks.surrogate!.rate}`);
      assert.equal(r.checks.surrogate!.rows, 400);
      assert.ok(
        r.caveats.some(
          (c) => c.topic === 'validity' && /surrogate of the predictions column .* held-out rows/.test(c.text),
        ),
      );
      assert.ok(r.caveats.some((c) => c.topic === 'model' && /predictions column/.test(c.text)));
      assert.ok(!r.canonical.distributions.some((d) => d.feature === 'p'));
      assert.equal(r.canonical.validity!.positive.rate, 1);
      // all one class: there is no negative canonical set to draw: an error, not a report
      const one: Table = {
        rows: data.rows,
        columns: [...data.columns, { kind: 'numeric', name: 'p', values: new Float64Array(data.rows).fill(0.9) }],
      };
      await assert.rejects(
        runAudit(engine, one, {
          label: 'approved',
          positive: 'yes',
          protected: ['sex', 'group'],
          pred: 'p',
          ...SMALL,
          ganSeeds: 1,
          intersectionRows: 0,
        }),
        /the model decides all 2000 rows positive: there is no negative canonical set to draw/,
      );
    },
  );

  it(
    'reads a 0/1 predictions column as labels the way ' + 'the metrics do, also when the positive label is "0"',
    async () => {
      // label and predictions as numbers 0/1 with "0" the favourable value (COMPAS's convention)
      const preds = clf.predictProba(engine, data);
      const lab = data.columns.find((c) => c.name === 'approved')!;
      const y = Float64Array.from({ length: data.rows }, (_, i) =>
        lab.kind === 'categorical' && lab.categories[lab.codes[i]] === 'yes' ? 0 : 1,
      );
      const p = Float64Array.from(preds, (v) => (v > 0.5 ? 0 : 1));
      const t: Table = {
        rows: data.rows,
        columns: [
          ...data.columns.filter((c) => c.name !== 'approved'),
          { kind: 'numeric', name: 'y', values: y },
          { kind: 'numeric', name: 'p', values: p },
        ],
      };
      const r = await runAudit(engine, t, {
        label: 'y',
        positive: '0',
        protected: ['sex', 'group'],
        pred: 'p',
        ...SMALL,
      });
      assert.equal(r.metrics.attributes.predKind, 'labels');
      // the heat map's positivity per cell (from the audit's ŷ) is the metrics' positivity of the same rows
      const h = r.intersections[0].heatmap;
      const cells = r.metrics.intersection!.attributes[0].groups;
      for (let i = 0; i < h.rowValues.length; i++) {
        for (let j = 0; j < h.colValues.length; j++) {
          const g = cells.find((x) => x.value === `${h.rowValues[i]}, ${h.colValues[j]}`)!;
          assert.ok(
            Math.abs((h.selectionRate[i][j] as number) - g.selection_rate!) < 1e-12,
            `${g.value}: heat map ${h.selectionRate[i][j]}, metrics ${g.selection_rate}`,
          );
        }
      }
    },
  );

  it('refuses protected edges for a column that is not protected (the library, not only the CLI)', async () => {
    await assert.rejects(
      runAudit(engine, data, {
        label: 'approved',
        protected: ['sex'],
        model: builtinBlackBox(engine, clf, 'm'),
        protectedEdges: { age: [18, 50, 80] },
        ...SMALL,
      }),
      (e: Error) => /protected edges name "age", which is not among the protected columns \(sex\)/.test(e.message),
    );
  });

  it('names a missing column and lists the available ones', async () => {
    await assert.rejects(
      runAudit(engine, data, {
        label: 'approved',
        protected: ['gender'],
        model: builtinBlackBox(engine, clf, 'm'),
        ...SMALL,
      }),
      (e: Error) => /protected column "gender" is not a column.*the columns are: age, sex, group/.test(e.message),
    );
  });
});

describe("the intersections' draw budget (EXPERIMENTS.md §12.5)", () => {
  it(
    "each side gets 4× the cell's real rows on it, pooled " +
      'over the seeds, at least 100, at most --intersection-rows',
    () => {
      assert.equal(intersectionBudget(0, 3, 500), 100);
      assert.equal(intersectionBudget(30, 3, 500), 100);
      assert.equal(intersectionBudget(90, 3, 500), 120);
      assert.equal(intersectionBudget(1000, 3, 500), 500);
      assert.equal(intersectionBudget(1000, 3, 40), 40);
      assert.equal(intersectionBudget(10, 1, 500), 100);
      assert.equal(intersectionBudget(100, 1, 500), 400);
    },
  );

  it(
    "an audit draws each cell's sets by it, side by side, " + "from the cell's real rows and the model's decisions",
    async () => {
      const r = await runAudit(engine, data, {
        label: 'approved',
        positive: 'yes',
        protected: ['sex', 'group'],
        model: builtinBlackBox(engine, clf, 'sim model'),
        ganEpochs: 1,
        n: 50,
        intersectionRows: 300,
        faleBootstrap: 0,
        lucidEpochs: 1,
        seed: 3,
      });
      const p = clf.predictProba(engine, data);
      const col = (name: string) => data.columns.find((c) => c.name === name)!;
      const label = (name: string, i: number) => {
        const c = col(name);
        return c.kind === 'categorical' ? c.categories[c.codes[i]] : String(c.values[i]);
      };
      const sets = r.intersections.flatMap((x) => x.sets);
      assert.ok(sets.length >= 4);
      const wanted = new Set<number>();
      for (const s of sets) {
        const rows = [...p.keys()].filter((i) => s.fix.every(([c, v]) => label(c, i) === v));
        const pos = rows.filter((i) => p[i] > 0.5).length;
        for (const d of s.draws!) {
          assert.equal(d.positive.wanted, intersectionBudget(pos, 3, 300), s.name);
          assert.equal(d.negative.wanted, intersectionBudget(rows.length - pos, 3, 300), s.name);
          wanted.add(d.positive.wanted).add(d.negative.wanted);
        }
      }
      assert.ok(wanted.size > 1, `the budget differs between cells and sides: ${[...wanted]}`);
    },
  );
});
