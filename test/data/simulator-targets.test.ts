// The simulator's targets: binary keeps its bytes; score, multiclass and regression plant the bias kind's penalty in
// the prediction only, at the sizes docs/data.md "Targets" states (population ratios at 100,000 rows), the same
// people under every target, and the same bytes for the same seed.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { Rng } from '../../src/engine/rng.js';
import { EngineError } from '../../src/engine/errors.js';
import {
  type BiasKind,
  SIM_DECISION_ORDER,
  SIM_DECISIONS,
  SIM_FEATURES,
  SIM_REDLINED,
  SIM_TARGETS,
  type SimTarget,
  simulate,
  type Simulation,
} from '../../src/data/simulator.js';
import { type CategoricalColumn, getColumn, type NumericColumn, type Table } from '../../src/data/table.js';
import { sha256Hex } from '../../src/data/sha256.js';
import { writeCsv } from '../../src/node/csv.js';
import { getEngine } from '../helpers/engine.js';

const N = 100_000;
const SEED = 5;
/** the tolerance band of the verdicts: a population ratio inside it is no disparity by construction */
const BAND = { lo: 0.8, hi: 1.25 };

let engine: Engine;
let dir: string;
const cache = new Map<string, Simulation>();
const sim = (target: SimTarget, bias: BiasKind): Simulation => {
  const key = `${target}/${bias}`;
  let s = cache.get(key);
  if (!s) cache.set(key, (s = simulate(new Rng(engine, SEED), { n: N, bias, target })));
  return s;
};

async function csvHash(t: Table, name: string): Promise<string> {
  const f = join(dir, name);
  await writeCsv(f, t);
  return sha256Hex(new Uint8Array(readFileSync(f)));
}

type Rows = (i: number) => boolean;
function groupsOf(s: Simulation): Record<'A' | 'B' | 'F' | 'M' | 'FB' | 'MA' | 'MB' | 'FA', Rows> {
  const sex = getColumn(s.table, 'sex') as CategoricalColumn;
  const grp = getColumn(s.table, 'group') as CategoricalColumn;
  const f = sex.categories.indexOf('Female');
  const b = grp.categories.indexOf('B');
  const F = (i: number) => sex.codes[i] === f;
  const B = (i: number) => grp.codes[i] === b;
  return {
    A: (i) => !B(i),
    B,
    F,
    M: (i) => !F(i),
    FB: (i) => F(i) && B(i),
    MA: (i) => !F(i) && !B(i),
    MB: (i) => !F(i) && B(i),
    FA: (i) => F(i) && !B(i),
  };
}

/**
 * The main metric of each target as a ratio of a group to its reference, oriented so that below 1 is a disadvantage
 * (docs/data.md "Targets"): score, the share at or above the median score of all rows, group over reference;
 * multiclass, the share receiving decline, reference over group; regression, the mean offer, group over reference.
 */
function mainRatio(s: Simulation): (group: Rows, reference: Rows) => number {
  const m = rateOf(s, s.target === 'multiclass' ? 'decline' : 'approve');
  return s.target === 'multiclass' ? (g, ref) => m(ref) / m(g) : (g, ref) => m(g) / m(ref);
}

/** The per-group value behind mainRatio; for multiclass the share receiving `cls`. */
function rateOf(s: Simulation, cls: string): (rows: Rows) => number {
  const pred = getColumn(s.table, s.prediction!);
  const n = s.table.rows;
  if (s.target === 'score') {
    const v = (pred as NumericColumn).values;
    const median = Float64Array.from(v).sort()[n >> 1];
    return (rows) => share(n, rows, (i) => v[i] >= median);
  }
  if (s.target === 'multiclass') {
    const c = pred as CategoricalColumn;
    const k = c.categories.indexOf(cls);
    return (rows) => share(n, rows, (i) => c.codes[i] === k);
  }
  const v = (pred as NumericColumn).values;
  return (rows) => {
    let k = 0;
    let sum = 0;
    for (let i = 0; i < n; i++)
      if (rows(i)) {
        k++;
        sum += v[i];
      }
    return sum / k;
  };
}

function share(n: number, rows: Rows, hit: Rows): number {
  let k = 0;
  let h = 0;
  for (let i = 0; i < n; i++)
    if (rows(i)) {
      k++;
      if (hit(i)) h++;
    }
  return h / k;
}

const TARGETS = ['score', 'multiclass', 'regression'] as const;
/** direct at the default strength: group B's main ratio is below this (measured 0.31, 1 / 2.38 = 0.42, 0.56) */
const DIRECT_BELOW = { score: 0.45, multiclass: 0.55, regression: 0.65 } as const;
/** intersectional: the cell (Female, B) against (Male, A) is below this (measured 0.23, 1 / 2.69 = 0.37, 0.52) */
const CELL_BELOW = { score: 0.4, multiclass: 0.5, regression: 0.6 } as const;

const inBand = (r: number, what: string) =>
  assert.ok(r >= BAND.lo && r <= BAND.hi, `${what}: ratio ${r.toFixed(3)} should be inside [0.8, 1.25]`);
const below = (r: number, bound: number, what: string) =>
  assert.ok(r < bound, `${what}: ratio ${r.toFixed(3)} should be below ${bound}`);

describe('simulator targets', () => {
  before(async () => {
    engine = await getEngine();
    dir = mkdtempSync(join(tmpdir(), 'lucid-simtargets-'));
  });

  it('binary keeps its bytes: the CSV of each bias kind hashes as before targets existed', async () => {
    // sha256 of the CSV of simulate(Rng(11), {n: 3000, bias}) with P(approved = yes) appended as "p", written by the
    // simulator as it was before the targets were added
    const before = {
      fair: '96706a2cfbe5e556f2d142dea293c6e358959e897152810c2385fef4e87039a9',
      direct: 'fb1f70ef494ccc9a1a4a3b5f516e438f96c9771a6c069949db47ba995d81f593',
      proxy: '9f2e80f9797a2e955718e54fdca21f297cc40713709fabe71172bd562d270d3e',
      intersectional: 'f749ca35e5c1efb31343470ad1b0c46e848182909d3eeceb258fdcad833dd9f6',
    };
    for (const [bias, hash] of Object.entries(before) as [BiasKind, string][]) {
      for (const target of [undefined, 'binary'] as const) {
        const s = simulate(new Rng(engine, 11), { n: 3000, bias, ...(target ? { target } : {}) });
        const t = {
          rows: s.table.rows,
          columns: [...s.table.columns, { kind: 'numeric' as const, name: 'p', values: s.truth.probability }],
        };
        assert.equal(await csvHash(t, `b-${bias}.csv`), hash, `${bias}, target ${target ?? 'absent'}`);
      }
      // the named prediction is the same column, under its name
      const named = simulate(new Rng(engine, 11), { n: 3000, bias, prediction: 'p' });
      assert.equal(named.prediction, 'p');
      assert.equal(await csvHash(named.table, `n-${bias}.csv`), hash);
    }
  });

  it(
    'the same seed gives the same bytes, the same people ' + 'under every target, and another seed other rows',
    async () => {
      const people = (t: Table) => ({ rows: t.rows, columns: t.columns.filter((c) => SIM_FEATURES.includes(c.name)) });
      const features = await csvHash(people(simulate(new Rng(engine, 3), { n: 5000, bias: 'proxy' }).table), 'f.csv');
      for (const target of TARGETS) {
        const a = simulate(new Rng(engine, 3), { n: 5000, bias: 'proxy', target });
        const b = simulate(new Rng(engine, 3), { n: 5000, bias: 'proxy', target });
        const c = simulate(new Rng(engine, 4), { n: 5000, bias: 'proxy', target });
        assert.deepEqual(
          a.table.columns.map((x) => x.name),
          [...SIM_FEATURES, SIM_TARGETS[target].label, SIM_TARGETS[target].prediction],
        );
        const h = await csvHash(a.table, `${target}-a.csv`);
        assert.equal(await csvHash(b.table, `${target}-b.csv`), h, target);
        assert.notEqual(await csvHash(c.table, `${target}-c.csv`), h, target);
        assert.equal(await csvHash(people(a.table), `${target}-f.csv`), features, `${target}: the same people`);
      }
    },
  );

  it('the label reads the legitimate features only: the same under every bias kind', () => {
    for (const target of TARGETS) {
      const label = (b: BiasKind) => getColumn(sim(target, b).table, SIM_TARGETS[target].label);
      const fair = label('fair');
      for (const b of ['direct', 'proxy', 'intersectional'] as const)
        assert.deepEqual(label(b), fair, `${target} ${b}`);
    }
  });

  it('fair: the main metric of every target is inside the band for group and sex', () => {
    for (const target of TARGETS) {
      const s = sim(target, 'fair');
      const r = mainRatio(s);
      const g = groupsOf(s);
      inBand(r(g.B, g.A), `${target} fair B/A`);
      inBand(r(g.F, g.M), `${target} fair Female/Male`);
      assert.equal(s.truth.target.penalty, 0);
      assert.equal(
        s.truth.target.penalisedRows.reduce((a, x) => a + x, 0),
        0,
      );
    }
  });

  it('direct: group B far outside the band on the main metric; sex inside', () => {
    for (const target of TARGETS) {
      const s = sim(target, 'direct');
      const r = mainRatio(s);
      const g = groupsOf(s);
      below(r(g.B, g.A), DIRECT_BELOW[target], `${target} direct B/A`);
      inBand(r(g.F, g.M), `${target} direct Female/Male`);
    }
    // the penalty moves group B down: fewer approvals too (measured 0.15)
    const approve = rateOf(sim('multiclass', 'direct'), 'approve');
    const g = groupsOf(sim('multiclass', 'direct'));
    below(approve(g.B) / approve(g.A), 0.3, 'multiclass direct approve B/A');
  });

  it('proxy: group B outside the band, the penalty on exactly the redlined neighbourhoods', () => {
    for (const target of TARGETS) {
      const s = sim(target, 'proxy');
      const r = mainRatio(s);
      const g = groupsOf(s);
      below(r(g.B, g.A), BAND.lo, `${target} proxy B/A`);
      const hood = getColumn(s.table, 'neighbourhood') as CategoricalColumn;
      const rows = s.truth.target.penalisedRows;
      for (let i = 0; i < s.table.rows; i++)
        assert.equal(rows[i] === 1, SIM_REDLINED.includes(hood.categories[hood.codes[i]]), `${target} row ${i}`);
    }
  });

  it(
    'intersectional: only the cell (Female, B) is penalised, ' +
      'far outside the band; (Male, B) and (Female, A) inside',
    () => {
      for (const target of TARGETS) {
        const s = sim(target, 'intersectional');
        const r = mainRatio(s);
        const g = groupsOf(s);
        below(r(g.FB, g.MA), CELL_BELOW[target], `${target} (Female, B) / (Male, A)`);
        inBand(r(g.MB, g.MA), `${target} (Male, B) / (Male, A)`);
        inBand(r(g.FA, g.MA), `${target} (Female, A) / (Male, A)`);
        const rows = s.truth.target.penalisedRows;
        for (let i = 0; i < s.table.rows; i++) assert.equal(rows[i] === 1, g.FB(i), `${target} row ${i}`);
      }
    },
  );

  it('truth records the penalty per target; the outputs keep their ranges', () => {
    // 50 points per logit of L on the score; the share 1 − exp(−0.35·1.5) off the value
    for (const t of ['score', 'multiclass'] as const) {
      assert.equal(sim(t, 'direct').truth.target.penalty, 75, t);
      assert.equal(sim(t, 'direct').truth.target.unit, 'points', t);
    }
    const share = sim('regression', 'direct').truth.target;
    assert.equal(share.unit, 'share');
    assert.ok(Math.abs(share.penalty - (1 - Math.exp(-0.525))) < 1e-12, String(share.penalty));
    assert.deepEqual(sim('score', 'direct').truth.disadvantaged, [{ group: 'B' }]);
    const score = (getColumn(sim('score', 'direct').table, 'credit_score') as NumericColumn).values;
    assert.ok(score.every((x) => Number.isInteger(x) && x >= 300 && x <= 850));
    const offer = (getColumn(sim('regression', 'direct').table, 'offered_limit') as NumericColumn).values;
    assert.ok(offer.every((x) => Number.isInteger(x) && x > 0));
    // under fair the classes are about a third each
    const dec = getColumn(sim('multiclass', 'fair').table, 'decision') as CategoricalColumn;
    assert.deepEqual(dec.categories, SIM_DECISIONS);
    for (const c of SIM_DECISION_ORDER) {
      const k = dec.categories.indexOf(c);
      const p = dec.codes.reduce((a, x) => a + (x === k ? 1 : 0), 0) / N;
      assert.ok(p > 0.28 && p < 0.38, `${c}: ${p}`);
    }
    assert.equal(sim('multiclass', 'fair').favourable, 'approve');
    assert.equal(sim('regression', 'fair').favourable, 'higher');
  });

  it('refuses an unknown target naming the valid ones, threshold decisions off binary, and a taken name', () => {
    const isArg = (re: RegExp) => (e: unknown) => e instanceof EngineError && e.code === 'E_ARG' && re.test(e.message);
    const rng = () => new Rng(engine, 1);
    assert.throws(
      () => simulate(rng(), { n: 10, bias: 'fair', target: 'ordinal' as SimTarget }),
      isArg(/target must be one of binary, score, multiclass, regression, got ordinal/),
    );
    assert.throws(
      () => simulate(rng(), { n: 10, bias: 'fair', target: 'score', decision: 'threshold' }),
      isArg(/decision 'threshold' is for the binary target/),
    );
    assert.throws(
      () => simulate(rng(), { n: 10, bias: 'fair', target: 'regression', prediction: 'income' }),
      isArg(/"income" is already a column/),
    );
    assert.throws(
      () => simulate(rng(), { n: 10, bias: 'fair', prediction: 'approved' }),
      isArg(/"approved" is already a column/),
    );
  });

  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});
