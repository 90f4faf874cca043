// `lucid quality`: SDMetrics' KS-, TV-complement, correlation and contingency similarity against
// hand-computed values, the report's behaviour under known shifts, validity (predictions column and
// the built-in model), and the command as a user runs it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../../src/engine/rng.js';
import type { Engine } from '../../src/engine/engine.js';
import { simulate } from '../../src/data/simulator.js';
import { selectRows, type CategoricalColumn, type Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox, columnBlackBox } from '../../src/models/blackbox.js';
import { saveModel } from '../../src/node/model-file.js';
import { writeCsv } from '../../src/node/csv.js';
import {
  binEdges,
  contingencySimilarity,
  correlation,
  correlationSimilarity,
  encodeCategorical,
  encodeNumeric,
  formatQuality,
  ksComplement,
  ksStatistic,
  qualityReport,
  tvComplement,
  validity,
  worstPairs,
  type QualityReport,
} from '../../src/methods/quality/index.js';
import { decide, decisionRule } from '../../src/methods/metrics/decision.js';
import { getEngine, rejectsEngineError } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';
import { unwrapSummary } from '../helpers/unwrap.js';

const close = (a: number | null | undefined, b: number, what: string, tol = 1e-12) =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) <= tol, `${what}: ${a}, expected ${b}`);

const rejects = (fn: () => unknown, code: string, pattern: RegExp) => rejectsEngineError(fn, code, [pattern]);

let engine: Engine;
let sim: Table;
before(async () => {
  engine = await getEngine();
  sim = simulate(new Rng(engine, 5), { n: 1500, bias: 'proxy' }).table;
});

describe('metrics against hand-computed values', () => {
  it('KS: the largest ECDF gap, ties consumed together; missing values ignored', () => {
    // ECDFs at 1,2,3,4: real .25 .5 .75 1, synthetic 0 0 .25 .5 → gap .5
    close(ksStatistic([1, 2, 3, 4], [3, 4, 5, 6]), 0.5, 'shifted');
    close(ksComplement([1, 2, 3, 4], [3, 4, 5, 6]), 0.5, 'KS-complement');
    // at 1: 2/3 vs 1/3; at 2: 1 vs 1 → 1/3 (scipy ks_2samp gives 0.3333)
    close(ksStatistic([1, 1, 2], [1, 2, 2]), 1 / 3, 'ties');
    close(ksStatistic([2, 1, NaN, 1], [2, 1, 2]), 1 / 3, 'NaN ignored, order irrelevant');
    close(ksComplement([1, 2, 3], [3, 1, 2]), 1, 'same values');
    close(ksStatistic([1, 2], [5, 6]), 1, 'disjoint');
  });

  it('TV: ½ Σ |p − q| over the union of labels; synthetic-only categories count', () => {
    // real a .5 b .25 c .25; synthetic a .25 b .5 d .25 → Σ = .25 + .25 + .25 + .25 = 1 → TVD .5
    close(tvComplement(cat('x', ['a', 'a', 'b', 'c']), cat('x', ['a', 'b', 'b', 'd'])), 0.5, 'TV-complement');
    // codes differ between tables: matched by label
    close(tvComplement(cat('x', ['a', 'b']), cat('x', ['b', 'a'])), 1, 'by label');
    close(tvComplement(cat('x', ['a', 'a']), cat('x', ['z', 'z'])), 0, 'only synthetic-only');
  });

  it('Pearson and correlation similarity 1 − |ρ_real − ρ_syn| / 2', () => {
    // x 1..5, y 2 4 5 4 5: Σdxdy 6, Σdx² 10, Σdy² 6 → ρ = 6/√60
    close(correlation([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]), 6 / Math.sqrt(60), 'ρ');
    const x = Array.from({ length: 200 }, (_, i) => i);
    const up = x.map((v) => 3 * v + 1);
    const down = x.map((v) => -0.5 * v + 7);
    const c = correlationSimilarity({ x, y: up }, { x, y: down });
    close(c.real, 1, 'ρ real');
    close(c.synthetic, -1, 'ρ synthetic');
    close(c.score, 0, 'correlated vs anticorrelated');
    // partial correlation: y = x + z with z ⟂ x (alternating ±k)
    const z = x.map((_, i) => (i % 2 === 0 ? 60 : -60));
    const partial = x.map((v, i) => v + z[i]);
    const rho = correlation(x, partial);
    assert.ok(rho > 0.5 && rho < 0.9, `ρ ${rho}`);
    close(
      correlationSimilarity({ x, y: up }, { x, y: partial }).score,
      1 - Math.abs(1 - rho) / 2,
      'correlated vs partial',
    );
    close(
      correlationSimilarity({ x, y: down }, { x, y: partial }).score,
      1 - Math.abs(-1 - rho) / 2,
      'anticorrelated vs partial',
    );
    assert.ok(Number.isNaN(correlation([1, 1, 1], [1, 2, 3])), 'constant column: undefined');
    close(correlation([1, 2, 3, 4], [1, 3, 2, 4], 'spearman'), 0.8, 'Spearman');
  });

  it(
    'contingency similarity: 1 − TVD of the joint tables; ' + 'numeric columns in equal-width bins of the real range',
    () => {
      // real xu xv yu yu: xu .25 xv .25 yu .5; synthetic xu xu yv yu: xu .5 yu .25 yv .25 → Σ = 1 → .5
      const a = encodeCategorical(cat('a', ['x', 'x', 'y', 'y']), cat('a', ['x', 'x', 'y', 'y']));
      const b = encodeCategorical(cat('b', ['u', 'v', 'u', 'u']), cat('b', ['u', 'u', 'v', 'u']));
      close(contingencySimilarity(a, b), 0.5, 'contingency');
      close(contingencySimilarity(a, a), 1, 'self');
      // numpy.histogram_bin_edges(0..10, 10) → inner edges 1..9; right-closed bins, outer ones open
      assert.deepEqual([...binEdges([0, 10, 5])], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
      assert.deepEqual([...binEdges([3, 3], 2)], [3]);
      const e = encodeNumeric(num('n', [0, 10]), num('n', [-5, 1, 1.5, 100, NaN]));
      assert.deepEqual([...e.real], [0, 9]);
      assert.deepEqual([...e.synthetic], [0, 0, 1, 9, 10]);
      assert.equal(e.labels[0], '(-inf, 1]');
      assert.equal(e.labels[9], '(9, inf]');
    },
  );
});

describe('qualityReport', () => {
  it('identical tables score 1 everywhere', async () => {
    const r = await qualityReport(sim, sim);
    assert.equal(r.columns.length, sim.columns.length);
    assert.equal(r.columnPairTrends.pairs.length, (sim.columns.length * (sim.columns.length - 1)) / 2);
    for (const c of r.columnShapes.columns) close(c.score, 1, c.column);
    for (const p of r.columnPairTrends.pairs) close(p.score, 1, p.columns.join(' × '));
    for (const s of [
      r.overall,
      r.columnShapes.score,
      r.columnShapes.ksComplement,
      r.columnShapes.tvComplement,
      r.columnPairTrends.score,
      r.columnPairTrends.correlationSimilarity,
      r.columnPairTrends.contingencySimilarity,
    ])
      close(s, 1, 'mean');
    assert.equal(r.validity, null);
  });

  it('known shifts lower the right scores and only those', async () => {
    // age + 15 years: its KS drops; correlations ignore a shift; contingency pairs with age drop
    const shifted: Table = {
      rows: sim.rows,
      columns: sim.columns.map((c) =>
        c.name === 'age' && c.kind === 'numeric'
          ? num(
              'age',
              [...c.values].map((v) => v + 15),
            )
          : c,
      ),
    };
    const r = await qualityReport(sim, shifted);
    for (const c of r.columnShapes.columns) {
      if (c.column === 'age') assert.ok(c.score! < 0.7, `age KS-complement ${c.score}`);
      else close(c.score, 1, c.column);
    }
    for (const p of r.columnPairTrends.pairs) {
      const withAge = p.columns.includes('age');
      if (withAge && p.metric === 'ContingencySimilarity') assert.ok(p.score! < 0.9, `${p.columns} ${p.score}`);
      else close(p.score, 1, p.columns.join(' × '), 1e-9);
    }
    assert.ok(worstPairs(r.columnPairTrends.pairs, 3).every((p) => p.columns.includes('age')));

    // sex labels swapped in a third of the rows: TV of sex drops, numeric columns untouched
    const sex = sim.columns.find((c) => c.name === 'sex') as CategoricalColumn;
    const codes = sex.codes.map((k, i) => (i % 3 === 0 ? 1 - k : k));
    const flipped: Table = {
      rows: sim.rows,
      columns: sim.columns.map((c) => (c.name === 'sex' ? { ...sex, codes } : c)),
    };
    const s = await qualityReport(sim, flipped);
    const shape = (n: string) => s.columnShapes.columns.find((c) => c.column === n)!.score!;
    assert.ok(shape('sex') < 1 && shape('sex') > 0.8, `sex ${shape('sex')}`);
    for (const c of s.columnShapes.columns) if (c.column !== 'sex') close(c.score, 1, c.column);
    for (const p of s.columnPairTrends.pairs) if (!p.columns.includes('sex')) close(p.score, 1, p.columns.join(' × '));
    assert.ok(s.overall! < 1);
  });

  it('columns are matched by name: a missing or differently-typed column is an E_INPUT error naming it', async () => {
    const a = table(num('x', [1, 2, 3]), cat('c', ['a', 'b', 'a']));
    const b = table(cat('c', ['b', 'a', 'a']), num('x', [1, 2, 4]));
    const r = await qualityReport(a, b);
    assert.deepEqual(r.columns, ['x', 'c']);
    close(r.columnShapes.columns[1].score, 1, 'c by label');
    await rejects(
      () => qualityReport(a, table(num('x', [1, 2, 3]))),
      'E_INPUT',
      /^synthetic: no column "c", which real has/,
    );
    await rejects(
      () => qualityReport(table(num('x', [1, 2, 3])), b, { realName: 'A.csv', syntheticName: 'B.csv' }),
      'E_INPUT',
      /^A\.csv: no column "c", which B\.csv has/,
    );
    await rejects(
      () => qualityReport(a, table(cat('x', ['1', '2', 'x']), cat('c', ['a', 'b', 'a']))),
      'E_INPUT',
      /column "x" is numeric in real but categorical in synthetic/,
    );
    const ok = await qualityReport(a, table(num('x', [1, 2, 3])), { ignore: ['c'] });
    assert.deepEqual(ok.excluded, [{ column: 'c', reason: 'ignored' }]);
    await rejects(
      () => qualityReport(a, b, { ignore: ['nope'] }),
      'E_ARG',
      /--ignore "nope" is not a column; the columns are: x, c/,
    );
  });

  it('a constant numeric column: correlation undefined (null), left out of the means', async () => {
    const a = table(num('x', [1, 2, 3, 4]), num('k', [5, 5, 5, 5]), num('y', [1, 3, 2, 4]));
    const r = await qualityReport(a, a);
    assert.equal(r.columnPairTrends.pairs.filter((p) => p.score === null).length, 2);
    close(r.columnPairTrends.score, 1, 'mean of the defined pair');
    assert.match(formatQuality(r), /n\/a/);
  });
});

describe('validity', () => {
  it('with a predictions column: the share scored on the conditioned side of 0.5', async () => {
    const syn = table(num('x', [1, 2, 3, 4]), num('preds', [1, 1, 1, 1]), num('score', [0.9, 0.8, 0.3, 0.6]));
    const real = table(num('x', [1, 2, 3, 5]), num('preds', [0.2, 0.9, 0.1, 0.7]));
    const r = await qualityReport(real, syn, { model: columnBlackBox(syn, 'score'), ignore: ['score'] });
    const v = r.validity!;
    assert.deepEqual(r.excluded, [
      { column: 'score', reason: 'ignored' },
      { column: 'preds', reason: 'condition' },
    ]);
    assert.deepEqual(r.columns, ['x']);
    assert.equal(v.positive.valid, 3);
    close(v.rate, 0.75, 'rate');
    assert.deepEqual(v.condition, { column: 'preds', value: 1, source: 'column' });
    assert.equal(v.negative.rows, 0);
    // given value, and per-row conditions on both sides
    const w = validity([0.9, 0.2, 0.1, 0.7, 0.3], [1, 1, 0, 0, 0.5], { model: 'm', column: 'c', source: 'column' });
    assert.deepEqual(
      [w.positive.valid, w.positive.rows, w.negative.valid, w.negative.rows, w.onThreshold],
      [1, 2, 1, 2, 1],
    );
    close(w.rate, 0.5, 'rate');
    // a score exactly on the threshold is the negative decision, as decide() has it: invalid on the positive side,
    // valid on the negative, at the default threshold and at a given one
    for (const t of [0.5, 0.3]) {
      const rule = decisionRule(t, 'test');
      const e = validity([t, t, t], [1, 0, 0], { model: 'm', column: 'c', source: 'column' }, rule);
      assert.deepEqual([e.positive.valid, e.negative.valid], [0, 2], `threshold ${t}`);
      assert.deepEqual(e.positive.valid, decide(rule, [t])[0], `positive side agrees with decide at ${t}`);
    }
    close(w.meanAbsError, (0.1 + 0.8 + 0.1 + 0.7 + 0.2) / 5, 'mean |score − condition|', 1e-12);
    const g = await qualityReport(real, table(num('x', [1, 2, 3, 4]), num('score', [0.1, 0.2, 0.7, 0.4])), {
      model: columnBlackBox(table(num('score', [0.1, 0.2, 0.7, 0.4])), 'score'),
      condition: { column: 'preds', value: 0 },
      ignore: ['score'],
    });
    close(g.validity!.negative.rate, 0.75, 'given preds=0');
    assert.deepEqual(g.validity!.condition, { column: 'preds', value: 0, source: 'given' });
    // the given value must agree with the file's column; a model needs a condition
    await rejects(
      () => qualityReport(real, syn, { condition: { column: 'preds', value: 0 } }),
      'E_INPUT',
      /holds 1 at row 1, but --condition says every row was generated at 0/,
    );
    await rejects(
      () =>
        qualityReport(real, table(num('x', [1, 2, 3, 4]), num('score', [0.9, 0.8, 0.3, 0.6])), {
          model: columnBlackBox(syn, 'score'),
          ignore: ['score'],
        }),
      'E_ARG',
      /--condition preds=1/,
    );
  });

  it('with the built-in model: rows it scores above 0.5 are valid at preds=1, the others at preds=0', async () => {
    const train = simulate(new Rng(engine, 21), { n: 2000, bias: 'fair' }).table;
    const { model } = Classifier.train(engine, train, {
      label: 'approved',
      positive: 'yes',
      hidden: [],
      epochs: 15,
      valFraction: 0,
      seed: 1,
    });
    const bb = builtinBlackBox(engine, model, 'tiny.json');
    const p = model.predictProba(engine, sim);
    const above: number[] = [];
    const below: number[] = [];
    p.forEach((v, i) => (v > 0.5 ? above : below).push(i));
    assert.ok(above.length > 100 && below.length > 100, `${above.length} above, ${below.length} below`);
    const pos = await qualityReport(sim, selectRows(sim, above), {
      model: bb,
      condition: { column: 'preds', value: 1 },
    });
    close(pos.validity!.rate, 1, 'positive set');
    const neg = await qualityReport(sim, selectRows(sim, below), {
      model: bb,
      condition: { column: 'preds', value: 0 },
    });
    close(neg.validity!.rate, 1, 'negative set');
    const all = await qualityReport(sim, sim, { model: bb, condition: { column: 'preds', value: 1 } });
    close(all.validity!.rate, above.length / sim.rows, 'all rows at preds=1');
    assert.match(
      formatQuality(all),
      /validity \d+\.\d%: tiny\.json on 1500 synthetic rows generated at preds = 1 \(given\)/,
    );
    // fidelity as lucid audit measures it: the real rows the model scores positive are exactly `above`
    const fp = await qualityReport(sim, selectRows(sim, above), {
      model: bb,
      condition: { column: 'preds', value: 1 },
      rng: new Rng(engine, 1),
    });
    assert.equal(fp.fidelity!.against, 'real rows on the side of their condition');
    for (const c of fp.fidelity!.columns) {
      assert.equal(c.positive!.distance, 0, c.feature);
      assert.equal(c.positive!.realRows, above.length);
      assert.equal(c.negative, null, 'no row was generated negative');
    }
    assert.equal(fp.fidelity!.faithful, fp.fidelity!.columns.length);
    // every row at preds = 1: far from the positive real rows on what the model reads (it rewards income)
    const fa = await qualityReport(sim, sim, {
      model: bb,
      condition: { column: 'preds', value: 1 },
      rng: new Rng(engine, 1),
    });
    assert.ok(
      fa.fidelity!.columns.find((c) => c.feature === 'income')!.positive!.distance >
        fp.fidelity!.columns.find((c) => c.feature === 'income')!.positive!.floor,
    );
    assert.match(
      formatQuality(fa),
      /fidelity against real rows on the side of their condition .*\n {2}column +metric +positive side +negative side\n/,
    );
    model.dispose();
  });

  it('without a model, fidelity compares every synthetic row with every real row, with a noise floor', async () => {
    const half = (k: number) =>
      selectRows(
        sim,
        Array.from({ length: 750 }, (_, i) => 2 * i + k),
      );
    const same = await qualityReport(half(0), half(1), { rng: new Rng(engine, 2) });
    assert.equal(same.fidelity!.against, 'every real row');
    // two halves of one sample: every distance within its floor or the tolerance
    assert.equal(
      same.fidelity!.faithful,
      same.fidelity!.columns.length,
      JSON.stringify(same.fidelity!.columns.map((c) => [c.feature, c.positive!.distance, c.positive!.floor])),
    );
    const shifted = selectRows(
      sim,
      Array.from({ length: 750 }, (_, i) => 2 * i + 1),
    );
    const inc = shifted.columns.find((c) => c.name === 'income')!;
    if (inc.kind === 'numeric') inc.values = inc.values.map((v) => v * 1.5);
    const off = await qualityReport(half(0), shifted, { rng: new Rng(engine, 2) });
    const f = off.fidelity!.columns.find((c) => c.feature === 'income')!;
    assert.equal(f.faithful, false, `income ×1.5: KS ${f.positive!.distance}`);
    assert.equal(off.fidelity!.faithful, off.fidelity!.columns.length - 1);
    // no rng: no fidelity section
    assert.equal((await qualityReport(half(0), half(1))).fidelity, null);
    // an audit's canonical set carries the GAN seed of each row: not compared
    const seeded = half(1);
    const withSeed = await qualityReport(half(0), {
      rows: seeded.rows,
      columns: [...seeded.columns, num('gan_seed', new Array(seeded.rows).fill(0))],
    });
    assert.deepEqual(withSeed.excluded, [{ column: 'gan_seed', reason: 'GAN seed' }]);
  });
});

describe('lucid quality (CLI)', () => {
  const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
  const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, 'quality', ...args], { encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'lucid-quality-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const real = join(dir, 'real.csv');
  const synth = join(dir, 'synth.csv');
  const noSex = join(dir, 'nosex.csv');
  const modelFile = join(dir, 'model.json');
  before(async () => {
    const small = selectRows(
      sim,
      Array.from({ length: 300 }, (_, i) => i),
    );
    await writeCsv(real, small);
    const gen = selectRows(
      sim,
      Array.from({ length: 200 }, (_, i) => 300 + i),
    );
    const preds = num('preds', new Array(200).fill(1));
    const score = num(
      'score',
      Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0.2 : 0.8)),
    );
    await writeCsv(synth, { rows: 200, columns: [...gen.columns, preds, score] });
    await writeCsv(noSex, { rows: 200, columns: gen.columns.filter((c) => c.name !== 'sex') });
    const { model } = Classifier.train(engine, sim, {
      label: 'approved',
      positive: 'yes',
      hidden: [],
      epochs: 5,
      valFraction: 0,
    });
    await saveModel(modelFile, model);
    model.dispose();
  });

  it('--format json: every score, validity from a predictions column', () => {
    const r = lucid('--real', real, '--synthetic', synth, '--pred', 'score', '--format', 'json');
    assert.equal(r.status, 0, r.stderr);
    const q = JSON.parse(r.stdout) as QualityReport;
    assert.equal(q.columns.length, sim.columns.length);
    assert.deepEqual(q.excluded.map((e) => e.column).sort(), ['preds', 'score']);
    assert.equal(q.columnShapes.columns.length, sim.columns.length);
    assert.equal(q.columnPairTrends.pairs.length, 36);
    assert.ok(q.overall! > 0.7 && q.overall! < 1, `overall ${q.overall}`);
    close(q.validity!.rate, 0.75, 'validity');
    assert.deepEqual(q.settings, { bins: 10, correlation: 'pearson' });
    assert.equal(q.fidelity!.columns.length, sim.columns.length);
  });

  it('the table form: per-column scores, the worst pairs, validity from --model', () => {
    const r = lucid(
      '--real',
      real,
      '--synthetic',
      synth,
      '--model',
      modelFile,
      '--condition',
      'preds=1',
      '--ignore',
      'score',
      '--top',
      '3',
    );
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      unwrapSummary(r.stdout),
      /200 rows\) against .*300 rows\): 9 columns compared; not compared: score \(ignored\), preds \(condition\)\n/,
    );
    assert.match(r.stdout, /\n {2}age +numeric +KSComplement +0\.\d{4}\n/);
    assert.match(r.stdout, /\n {2}sex +categorical +TVComplement +0\.\d{4}\n/);
    assert.match(r.stdout, /the 3 worst pairs:/);
    assert.match(r.stdout, /validity \d+\.\d%: .*model\.json on 200 synthetic rows generated at preds = 1 \(given\)/);
  });

  it("relations and fidelity beyond single columns: --held-out as the privacy check's reference, else halves", () => {
    const heldOut = join(dir, 'held.csv');
    const bad = join(dir, 'held-bad.csv');
    return (async () => {
      await writeCsv(
        heldOut,
        selectRows(
          sim,
          Array.from({ length: 300 }, (_, i) => 600 + i),
        ),
      );
      await writeCsv(bad, {
        rows: 5,
        columns: selectRows(sim, [0, 1, 2, 3, 4]).columns.filter((c) => c.name !== 'age'),
      });
      const j = lucid(
        '--real',
        real,
        '--synthetic',
        synth,
        '--ignore',
        'preds,score',
        '--held-out',
        heldOut,
        '--format',
        'json',
      );
      assert.equal(j.status, 0, j.stderr);
      const q = JSON.parse(j.stdout) as QualityReport;
      assert.ok(Array.isArray(q.relations));
      const b = q.beyond!;
      assert.equal(b.privacy.against, 'held-out rows');
      assert.equal(b.privacy.rows.heldOut, 300);
      assert.equal(b.privacy.rows.train, 300);
      assert.ok(
        b.pairTrends.score > 0.5 && b.pairTrends.score <= 1 && b.pairTrends.floor > 0.5,
        JSON.stringify(b.pairTrends),
      );
      assert.ok(
        b.detection.score >= 0 && b.detection.score <= 1 && b.detection.auc > 0.2 && b.detection.auc < 0.8,
        JSON.stringify(b.detection),
      );
      // other rows of the same simulator: no copies beyond what held-out rows have
      assert.ok(b.privacy.generated.exactShare <= b.privacy.heldOut.exactShare + 0.01, JSON.stringify(b.privacy));
      const t = lucid('--real', real, '--synthetic', synth, '--ignore', 'preds,score');
      assert.equal(t.status, 0, t.stderr);
      assert.match(
        t.stdout,
        /\nbeyond single columns \(each beside its noise floor[^\n]*\n {2}pair trends 0\.\d{4} over 36 pairs \(noise floor 0\.\d{4}\)/,
      );
      assert.match(t.stdout, /\n {2}detection [01]\.\d{4} \(1 − \(2·AUC − 1\); AUC 0\.\d{4}/);
      assert.match(
        t.stdout,
        /\n {2}privacy against half of the real rows \(the other half as the training rows; give --held-out/,
      );
      const w = lucid('--real', real, '--synthetic', synth, '--ignore', 'preds,score', '--held-out', bad);
      assert.equal(w.status, 1, w.stderr);
      assert.match(w.stderr, /held-bad\.csv: no column "age", which .*real\.csv has/);
    })();
  });

  it('a column missing from one file exits 1 naming it; bad arguments exit 2', () => {
    const a = lucid('--real', real, '--synthetic', noSex);
    assert.equal(a.status, 1, a.stderr);
    assert.match(a.stderr, /^lucid: error: .*nosex\.csv: no column "sex", which .*real\.csv has/);
    assert.equal(a.stderr.trim().split('\n').length, 1);
    assert.equal(lucid('--real', real, '--synthetic', noSex, '--ignore', 'sex').status, 0);
    const b = lucid('--real', real, '--synthetic', synth, '--condition', 'preds=2');
    assert.equal(b.status, 2);
    assert.match(b.stderr, /prediction in \[0, 1\]/);
    const c = lucid('--real', real, '--synthetic', synth, '--model', modelFile, '--pred', 'score');
    assert.equal(c.status, 2);
    assert.match(c.stderr, /either --model .* or --pred/);
    const e = lucid('--real', real, '--synthetic', synth, '--pred', 'preds');
    assert.equal(e.status, 2);
    assert.match(e.stderr, /--pred preds names the condition column/);
    assert.equal(lucid('--real', real).status, 2);
    assert.equal(lucid('--real', real, '--synthetic', synth, '--format', 'xml').status, 2);
    const d = lucid('--real', real, '--synthetic', join(dir, 'nope.csv'));
    assert.equal(d.status, 1);
    assert.match(d.stderr, /nope\.csv: file not found/);
  });
});
