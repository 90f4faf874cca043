// FALE: hand-computed continuous and categorical cases (JS models whose predictions make every
// bin's change computable by hand), percentile edges against numpy, the aif360 sign, the
// reference's EOD label-misalignment bug (fixed here), --min-bin, intersectional groups, the
// bootstrap, and the command as a user runs it.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import { simulate } from '../../src/data/simulator.js';
import { selectRows, type CategoricalColumn, type NumericColumn } from '../../src/data/table.js';
import { moduleBlackBox, type BlackBox, type Row } from '../../src/models/blackbox.js';
import { datasetAvailability, loadAdult } from '../../src/node/datasets.js';
import {
  assignBins,
  categoricalOrder,
  fale,
  FALE_METRIC_FNS,
  percentileEdges,
  percentiles,
  rankSubgroups,
  unprivilegedMask,
  type FaleResult,
} from '../../src/methods/fale/index.js';
import { fixture, getEngine } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';
import { lucidCli, simFaleArgs, simModelDir } from '../helpers/sim-model.js';

const closeAll = (a: ArrayLike<number | null>, b: number[], what: string, tol = 1e-12) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < b.length; i++)
    assert.ok(a[i] !== null && Math.abs((a[i] as number) - b[i]) <= tol, `${what}[${i}]: ${a[i]}, expected ${b[i]}`);
};
const jsModel = (features: string[], f: (r: Row) => number): BlackBox =>
  moduleBlackBox({ features, predict: (rows) => rows.map(f) }, 'test model');

interface NumpyFixture {
  levels: number[];
  edges: Record<string, { percentiles: number[]; unique: number[] }>;
  small: { x: number[]; percentiles: number[] };
  ties: { x: number[]; percentiles: number[]; unique: number[] };
}

describe('percentile edges (numpy.percentile, linear)', () => {
  const np = fixture<NumpyFixture>('fale-percentiles-numpy.json');
  it('hand-checkable data: 4/9, 8/9, 2, 10/3, 46/9, 22/3, 88/9, 116/9 between 0 and 16', () => {
    const got = percentiles(np.small.x, np.levels);
    assert.deepEqual(got, np.small.percentiles); // bit-identical to numpy
    closeAll(got, [0, 4 / 9, 8 / 9, 2, 10 / 3, 46 / 9, 22 / 3, 88 / 9, 116 / 9, 16], 'by hand', 1e-12);
  });
  it('ties are deduplicated (at most 9 bins from the 10 levels)', () => {
    assert.deepEqual(percentiles(np.ties.x, np.levels), np.ties.percentiles);
    assert.deepEqual(percentileEdges(np.ties.x), np.ties.unique);
  });
  it('right-closed bins with the lowest edge included', () => {
    assert.deepEqual(
      Array.from(assignBins([1, 1.5, 2, 2.01, 3, 0.99, 3.01, NaN], [1, 2, 3])),
      [0, 0, 0, 1, 1, -1, -1, -1],
    );
  });
  const adult = datasetAvailability('adult');
  it('Adult test set: age, hours per week, education-num equal numpy (golden values committed)', {
    skip: !adult.available && `Adult data absent: ${adult.reason}`,
  }, async () => {
    const ds = await loadAdult();
    const t = ds.splits.test;
    assert.equal(t.rows, 15060);
    for (const name of ['Age', 'Hours per week', 'Education-Num', 'fnlwgt']) {
      const col = t.columns.find((c) => c.name === name) as NumericColumn;
      assert.deepEqual(percentileEdges(col.values), np.edges[name].unique, name);
    }
    assert.deepEqual(np.edges.Age.unique, [17, 23, 27, 31, 35, 39, 44, 49, 56, 90]); // the reference's age edges (§4.2)
  });
});

describe('metrics: the aif360 sign (unprivileged − privileged)', () => {
  const u = { n: 4, pos: 2, predPos: 2, tp: 1, fp: 1 };
  const p = { n: 4, pos: 2, predPos: 3, tp: 2, fp: 1 };
  it('spd, eod, aod by hand', () => {
    assert.equal(FALE_METRIC_FNS.spd(u, p), 0.5 - 0.75);
    assert.equal(FALE_METRIC_FNS.eod(u, p), 0.5 - 1);
    assert.equal(FALE_METRIC_FNS.aod(u, p), 0.5 * (0.5 - 0.5 + (0.5 - 1)));
  });
  it('undefined, not 0: a group absent, or no positives for TPR, or no negatives for FPR', () => {
    const none = { n: 0, pos: 0, predPos: 0, tp: 0, fp: 0 };
    assert.equal(FALE_METRIC_FNS.spd(none, p), null);
    assert.equal(FALE_METRIC_FNS.eod({ ...u, pos: 0, tp: 0 }, p), null);
    assert.equal(FALE_METRIC_FNS.aod({ ...u, pos: 4, tp: 2, fp: 0 }, p), null);
  });
  it('overall SPD is negative when the unprivileged group is favoured less', async () => {
    const t = table(
      cat('sex', ['Female', 'Female', 'Female', 'Female', 'Male', 'Male', 'Male', 'Male']),
      num('x', [0, 0, 0, 1, 0, 1, 1, 1]),
      cat('y', ['0', '1', '0', '1', '0', '1', '0', '1']),
    );
    const r = await fale(
      t,
      jsModel(['sex', 'x'], (row) => row.x as number),
      { label: 'y', protected: [{ column: 'sex', value: 'Female' }], features: ['x'], edges: { x: [0, 1] } },
    );
    assert.equal(r.overall, 0.25 - 0.75);
    assert.equal(r.positive, '1');
    // swapping which group is unprivileged flips the sign
    const s = await fale(
      t,
      jsModel(['sex', 'x'], (row) => row.x as number),
      { label: 'y', protected: [{ column: 'sex', value: 'Male' }], features: ['x'], edges: { x: [0, 1] } },
    );
    assert.equal(s.overall, 0.75 - 0.25);
  });
});

describe('continuous FALE, by hand', () => {
  // x = 1, 2, 3, 4 for four women and four men; edges 1, 2.5, 4: bin 1 = {1, 2}, bin 2 = {3, 4}.
  // Women are predicted positive when x ≥ 4, men when x ≥ 2.5.
  // bin 1: at 1 nobody (SPD 0); at 2.5 men only (SPD 0 − 1 = −1): Δ = −1
  // bin 2: at 2.5 men only (−1); at 4 everyone (0): Δ = +1
  // accumulated 0, −1, 0; centre Σ n_k (A_k−1 + A_k)/2 / Σ n_k = (4·−½ + 4·−½)/8 = −½ → ½, −½, ½
  const t = table(
    num('x', [1, 2, 3, 4, 1, 2, 3, 4]),
    cat('sex', ['Female', 'Female', 'Female', 'Female', 'Male', 'Male', 'Male', 'Male']),
    cat('y', ['no', 'yes', 'no', 'yes', 'yes', 'no', 'yes', 'no']),
  );
  const model = jsModel(['x', 'sex'], (r) =>
    (r.sex === 'Female' ? (r.x as number) >= 4 : (r.x as number) >= 2.5) ? 1 : 0,
  );
  const opts = {
    label: 'y',
    positive: 'yes',
    protected: [{ column: 'sex', value: 'Female' }],
    features: ['x'],
    edges: { x: [1, 2.5, 4] },
  };
  it('deltas, accumulated centred values, counts by group', async () => {
    const r = await fale(t, model, opts);
    const f = r.features[0];
    assert.equal(f.kind, 'continuous');
    assert.deepEqual(f.edges, [1, 2.5, 4]);
    closeAll(f.deltas, [-1, 1], 'deltas');
    closeAll(f.values, [0.5, -0.5, 0.5], 'values');
    assert.deepEqual(f.counts, { n: [4, 4], unprivileged: [2, 2], privileged: [2, 2] });
    assert.deepEqual(f.undefined, []);
    assert.equal(f.excluded, 0);
  });
  it('--min-bin: bins with fewer rows are undefined (null) and add 0', async () => {
    const r = await fale(t, model, { ...opts, minBin: 5 });
    const f = r.features[0];
    assert.deepEqual(f.deltas, [null, null]);
    assert.deepEqual(f.undefined, [0, 1]);
    closeAll(f.values, [0, 0, 0], 'values');
    // besides the small groups and a weak model (the hand table's model barely predicts its labels): the undefined bins
    assert.equal(r.warnings.filter((w) => !/\(small\)|, small\)|^a weak model: /.test(w)).length, 1);
    // the hand table's groups are under the one small-group threshold (30 rows): said, not fatal
    assert.ok(
      r.warnings.some((w) => /the unprivileged group has \d+ rows \(< 30, small\)/.test(w)),
      r.warnings.join('; '),
    );
  });
  it('a bin lacking a group is undefined; the others still count', async () => {
    // edges 1, 2.5, 4 but the women of bin 2 removed: bin 2 has only men
    const t2 = selectRows(t, [0, 1, 4, 5, 6, 7]);
    const r = await fale(t2, model, opts);
    const f = r.features[0];
    assert.deepEqual(f.deltas, [-1, null]);
    closeAll(f.values, [2 / 3, -1 / 3, -1 / 3], 'values'); // A = 0, −1, −1; centre (4·−½ + 2·−1)/6 = −⅔
  });
});

describe('the reference label-misalignment bug (EOD), fixed', () => {
  // Rows of bin 2 come first in the table. The reference sorts rows by bin and then assigns the
  // label column in the original order, so bin 1 gets bin 2's labels.
  // Model: positive when w = 1 and x > 0.5. Edges 0, 1, 2.
  // bin 1 (r4..r7): at x=0 nobody (EOD 0 − 0 = 0); at x=1 the w=1 rows: women's positive r4 (w=1) → TPR 1,
  //   men's positive r7 (w=0) → TPR 0: EOD 1, Δ = +1.
  // bin 2 (r0..r3): predictions the same at both edges: Δ = 0.
  // With the reference's labels bin 1 gets y = 0, 1, 1, 0: women's positive r5 (w=0) → 0, men's r6 (w=1) → 1: Δ = −1.
  const t = table(
    num('x', [1.5, 2, 1.2, 1.8, 0.2, 0.4, 0.6, 1]),
    cat('sex', ['Female', 'Female', 'Male', 'Male', 'Female', 'Female', 'Male', 'Male']),
    num('w', [1, 0, 1, 0, 1, 0, 1, 0]),
    cat('y', ['0', '1', '1', '0', '1', '0', '0', '1']),
  );
  const model = jsModel(['x', 'sex', 'w'], (r) => (r.w === 1 && (r.x as number) > 0.5 ? 1 : 0));
  const opts = {
    label: 'y',
    positive: '1',
    protected: [{ column: 'sex', value: 'Female' }],
    metric: 'eod' as const,
    features: ['x'],
    edges: { x: [0, 1, 2] },
  };
  it("ours keeps each row's own label: Δ = +1, 0", async () => {
    const f = (await fale(t, model, opts)).features[0];
    closeAll(f.deltas, [1, 0], 'deltas');
    closeAll(f.values, [-0.75, 0.25, 0.25], 'values');
  });
  it("the reference's scrambled labels would give Δ₁ = −1", async () => {
    const order = [4, 5, 6, 7, 0, 1, 2, 3]; // rows sorted by bin (stable)
    const sorted = selectRows(t, order);
    const y = t.columns[3] as CategoricalColumn;
    sorted.columns[3] = { ...y, codes: y.codes.slice() }; // labels in the original order: misaligned
    const f = (await fale(sorted, model, opts)).features[0];
    closeAll(f.deltas, [-1, 0], 'deltas with misaligned labels');
  });
});

describe('categorical FALE, by hand', () => {
  // Categories b, a, c (first-seen order); z: a ∈ {0, 1}, b ∈ {1, 2}, c ∈ {2, 3}, each sex alike, so
  // the KS distances are a–b ½, b–c ½, a–c 1 (sex's TV distance 0): MDS orders a, b, c.
  // a has 8 rows, b and c 4. Model: positive when cat = b, a man and z ≥ 1.
  // Originals: SPD(a) = 0, SPD(b) = 0 − 1 = −1, SPD(c) = 0.
  // a→b: a's rows as b: men z ∈ {0,0,1,1} → ½, women 0: −½ − 0 = −½ (up); b's rows as a: 0: −1 − 0 = −1 (down)
  //   simple mean −¾; count-weighted (8·−½ + 4·−1)/12 = −⅔
  // b→c: b as c: 0 − (−1) = 1; c as b: men z ≥ 1 → 1: 0 − (−1) = 1: Δ = 1
  // simple: A = 0, −¾, ¼; mean (8·0 + 4·−¾ + 4·¼)/16 = −⅛ → ⅛, −⅝, ⅜
  // weighted: A = 0, −⅔, ⅓; mean −1/12 → 1/12, −7/12, 5/12
  const rows: [string, string, number][] = [
    ['b', 'Female', 1],
    ['b', 'Female', 2],
    ['b', 'Male', 1],
    ['b', 'Male', 2],
    ['a', 'Female', 0],
    ['a', 'Female', 0],
    ['a', 'Female', 1],
    ['a', 'Female', 1],
    ['a', 'Male', 0],
    ['a', 'Male', 0],
    ['a', 'Male', 1],
    ['a', 'Male', 1],
    ['c', 'Female', 2],
    ['c', 'Female', 3],
    ['c', 'Male', 2],
    ['c', 'Male', 3],
  ];
  const t = table(
    cat(
      'cat',
      rows.map((r) => r[0]),
    ),
    cat(
      'sex',
      rows.map((r) => r[1]),
    ),
    num(
      'z',
      rows.map((r) => r[2]),
    ),
    cat(
      'y',
      rows.map((_, i) => (i % 2 ? 'yes' : 'no')),
    ),
  );
  const model = jsModel(['cat', 'sex', 'z'], (r) =>
    r.cat === 'b' && r.sex === 'Male' && (r.z as number) >= 1 ? 1 : 0,
  );
  const opts = { label: 'y', protected: [{ column: 'sex', value: 'Female' }], features: ['cat'] };
  it('MDS order on the KS / TV distances', () => {
    const col = t.columns[0] as CategoricalColumn;
    const { order, distances } = categoricalOrder(t, col, [0, 1, 2], [t.columns[1], t.columns[2]]);
    assert.deepEqual(
      order.map((k) => col.categories[k]),
      ['a', 'b', 'c'],
    );
    closeAll(distances[0], [0, 0.5, 0.5], 'd(b, ·)'); // codes: b, a, c
    closeAll(distances[1], [0.5, 0, 1], 'd(a, ·)');
  });
  it('simple mean of the up and down moves (the reference)', async () => {
    const f = (await fale(t, model, opts)).features[0];
    assert.equal(f.kind, 'categorical');
    assert.deepEqual(f.categories, ['a', 'b', 'c']);
    closeAll(f.deltas, [0, -0.75, 1], 'deltas');
    closeAll(f.values, [0.125, -0.625, 0.375], 'values');
    assert.deepEqual(f.counts, { n: [8, 4, 4], unprivileged: [4, 2, 2], privileged: [4, 2, 2] });
  });
  it('subgroup ranking: |f| / max|f| · b + s / N · (10 − b)', async () => {
    const r = await fale(t, model, opts); // values ⅛, −⅝, ⅜; sizes 8, 4, 4 of 16
    const b4 = rankSubgroups(r, 4); // a: 0.2·4 + 0.5·6 = 3.8; b: 4 + 1.5 = 5.5; c: 0.6·4 + 1.5 = 3.9
    assert.deepEqual(
      b4.map((x) => x.subgroup),
      ['b', 'c', 'a'],
    );
    closeAll(
      b4.map((x) => x.score),
      [5.5, 3.9, 3.8],
      'scores',
      1e-12,
    );
    assert.deepEqual(
      rankSubgroups(r, 0).map((x) => x.subgroup),
      ['a', 'b', 'c'],
    );
    assert.throws(() => rankSubgroups(r, 11), /trade-off b/);
  });
  it('count-weighted (--weighted, ALEPlot)', async () => {
    const f = (await fale(t, model, { ...opts, weighted: true })).features[0];
    closeAll(f.deltas, [0, -2 / 3, 1], 'deltas');
    closeAll(f.values, [1 / 12, -7 / 12, 5 / 12], 'values');
  });
});

describe('intersectional protected group and the bootstrap', () => {
  let engine: Engine;
  before(async () => {
    engine = await getEngine();
  });
  it('sex=Female,race=Black: the unprivileged group meets both conditions', () => {
    const t = table(
      cat('sex', ['Female', 'Female', 'Male', 'Male']),
      cat('race', ['Black', 'White', 'Black', 'White']),
    );
    assert.deepEqual(
      Array.from(
        unprivilegedMask(t, [
          { column: 'sex', value: 'Female' },
          { column: 'race', value: 'Black' },
        ]),
      ),
      [1, 0, 0, 0],
    );
    assert.throws(() => unprivilegedMask(t, [{ column: 'sex', value: 'female' }]), /no row has that value/);
  });
  it('seeded percentile bands, the same for the same seed', async () => {
    const sim = simulate(new Rng(engine, 3), { n: 600, bias: 'direct' }).table;
    const model = jsModel(
      ['income', 'sex'],
      (r) => 1 / (1 + Math.exp(-((Math.log(r.income as number) - 10.5) * 2 - (r.sex === 'Female' ? 0.5 : 0)))),
    );
    const run = (seed: number) =>
      fale(sim, model, {
        label: 'approved',
        positive: 'yes',
        protected: [{ column: 'sex', value: 'Female' }],
        features: ['income'],
        bootstrap: 20,
        rng: new Rng(engine, seed),
      });
    const a = await run(7);
    const b = await run(7);
    const ci = a.features[0].ci!;
    assert.equal(ci.replicates, 20);
    assert.equal(ci.lower.length, a.features[0].values.length);
    assert.deepEqual(a.features[0].ci, b.features[0].ci);
    ci.lower.forEach((lo, k) => assert.ok(lo === null || lo <= (ci.upper[k] as number), `band ${k}`));
  });
});

describe('lucid fale (CLI)', () => {
  const lucid = lucidCli('fale');
  const fx = simModelDir('lucid-fale-');
  const base = () => simFaleArgs(fx);

  it('--format json: a continuous and a categorical feature', () => {
    const r = lucid(...base(), '--feature', 'age', '--feature', 'neighbourhood', '--metric', 'eod');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as FaleResult;
    assert.equal(out.metric, 'eod');
    assert.equal(out.rows, 1200);
    const [age, hood] = out.features;
    const ageCol = fx.table.columns.find((c) => c.name === 'age') as NumericColumn;
    assert.deepEqual(age.edges, percentileEdges(ageCol.values));
    assert.equal(age.values.length, age.edges!.length);
    assert.equal(
      age.counts.n.reduce((s, x) => s + x, 0),
      1200,
    );
    assert.equal(hood.kind, 'categorical');
    assert.equal(hood.categories!.length, 6);
    assert.equal(
      hood.counts.unprivileged.reduce((s, x) => s + x, 0),
      out.counts.unprivileged,
    );
    const wsum = hood.values.reduce((s, v, k) => s + v * hood.counts.n[k], 0);
    assert.ok(Math.abs(wsum) < 1e-9, `categorical values are centred: ${wsum}`);
  });
  it('--format csv, --edges, intersectional --protected', () => {
    const r = lucid(
      ...base().slice(0, -1),
      'sex=Female,group=B',
      '--feature',
      'age',
      '--edges',
      '30,45,60',
      '--format',
      'csv',
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(
      lines[0],
      'feature,kind,point,x,value,delta,n,n_unprivileged,n_privileged,undefined,ci_lower,ci_upper',
    );
    assert.equal(lines.length, 1 + 3);
    assert.match(lines[1], /^age,continuous,0,30,/);
  });
  it('--rank adds the subgroup ranking to the JSON', () => {
    const r = lucid(...base(), '--feature', 'age', '--rank', '10');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as FaleResult & {
      ranking: { b: number; subgroups: { feature: string; subgroup: string; value: number; score: number }[] };
    };
    assert.equal(out.ranking.b, 10);
    const top = out.ranking.subgroups[0];
    assert.equal(top.score, 10);
    assert.equal(Math.abs(top.value), Math.max(...out.features[0].values.slice(1).map(Math.abs)));
    assert.match(top.subgroup, /^[[(][\d.]+, [\d.]+\]$/);
  });
  it('--format svg: one panel per feature with the line and the group bars', () => {
    const r = lucid(...base(), '--feature', 'age,neighbourhood', '--format', 'svg', '--bootstrap', '5');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(r.stdout, /<\/svg>\n$/);
    assert.equal((r.stdout.match(/<g class="feature"/g) ?? []).length, 2);
    assert.equal((r.stdout.match(/<path /g) ?? []).length, 2);
    assert.ok(!r.stdout.includes('NaN'), 'no NaN coordinates');
  });
  it('usage errors: empty items in --edges and an empty --threshold are errors, not 0', () => {
    for (const [opt, v, msg] of [
      ['--edges', '0,,5', /expected at least two comma-separated numbers/],
      ['--edges', ',17,30', /expected at least two comma-separated numbers/],
      ['--threshold', '', /expected a number in \[0, 1\]/],
    ] as const) {
      const r = lucid(...base(), '--feature', 'age', opt, v);
      assert.equal(r.status, 2, `${opt} "${v}": ${r.stderr}`);
      assert.match(r.stderr, msg);
    }
  });

  it('usage errors: --pred is not an option of fale (it calls the model), --edges with two features', () => {
    const p = lucid('--pred', 'score', ...base(), '--feature', 'age');
    assert.equal(p.status, 2);
    assert.match(p.stderr, /unknown option '--pred'/);
    assert.doesNotMatch(lucid('--help').stdout, /--pred/);
    const e = lucid(...base(), '--feature', 'age,hours', '--edges', '1,2');
    assert.equal(e.status, 2);
    assert.match(e.stderr, /--edges needs exactly one --feature/);
  });
});
