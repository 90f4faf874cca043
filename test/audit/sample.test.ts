// The GANs' stratified sample (--gan-rows): the allocation sums exactly and is proportional
// within rounding, every non-empty stratum is represented, the draw is seeded; an audit with more rows
// than ganRows trains on the sample and says so, one with at most ganRows rows is unchanged.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../../src/models/blackbox.js';
import { AUDIT_DEFAULTS, runAudit, type AuditOptions } from '../../src/audit/run.js';
import { allocate, stratifiedSample } from '../../src/audit/sample.js';
import { describeGanTraining, describeSampling } from '../../src/audit/schedule.js';
import { CORRECTION_DEFAULTS } from '../../src/audit/correct.js';
import type { AuditResult } from '../../src/audit/types.js';
import { renderReport } from '../../src/report/sections.js';
import { writeAudit } from '../../src/node/audit.js';
import { getEngine } from '../helpers/engine.js';

let engine: Engine;
let data: Table;
let clf: Classifier;

before(async () => {
  engine = await getEngine();
  data = simulate(new Rng(engine, 31), { n: 3000, bias: 'direct' }).table;
  clf = Classifier.train(engine, simulate(new Rng(engine, 30), { n: 1200, bias: 'direct' }).table, {
    label: 'approved',
    positive: 'yes',
    hidden: [],
    epochs: 20,
    valFraction: 0,
    seed: 1,
  }).model;
});

describe('allocate', () => {
  it('sums exactly to the total, proportional within rounding, never more than a stratum holds', () => {
    const sizes = [1234, 567, 89, 10, 2100, 0, 3];
    const N = sizes.reduce((s, x) => s + x, 0);
    for (const total of [7, 50, 333, 1000, 4002, N]) {
      const a = allocate(sizes, total);
      assert.equal(
        a.reduce((s, x) => s + x, 0),
        total,
        `total ${total}`,
      );
      sizes.forEach((n, i) => assert.ok(a[i] <= n, `stratum ${i} of ${n} rows gets ${a[i]}`));
      assert.equal(a[5], 0, 'an empty stratum gets none');
      sizes.forEach((n, i) => {
        if (n > 0) assert.ok(a[i] >= 1, `non-empty stratum ${i} is represented at total ${total}`);
      });
    }
    // without the one-row floor in play, every stratum is within 1 of its proportional share
    const a = allocate(sizes, 1000);
    sizes.forEach((n, i) =>
      assert.ok(Math.abs(a[i] - (1000 * n) / N) < 1, `stratum ${i}: ${a[i]} vs ${(1000 * n) / N}`),
    );
    assert.deepEqual(allocate([5, 5, 5], 4), [2, 1, 1], 'largest remainder, ties to the earlier stratum');
  });

  it('gives each non-empty stratum a row when the total allows, taking it from the most over-allocated', () => {
    // proportional shares 0.1, 0.1, 9.8 of 10: floors 0, 0, 9 and one by remainder → 0, 0, 10; then one each
    assert.deepEqual(allocate([1, 1, 98], 10), [1, 1, 8]);
    // fewer rows than strata: proportional only, some strata without a row
    assert.deepEqual(allocate([1, 1, 1, 97], 2), [0, 0, 0, 2]);
    assert.throws(
      () => allocate([3, 4], 8),
      (e: unknown) => e instanceof EngineError && /cannot draw 8 rows from 7/.test(e.message),
    );
  });
});

describe('stratifiedSample', () => {
  it('draws exactly total distinct rows, the allocated number from each stratum, deterministically', () => {
    const n = 3000;
    // strata of the simulator's rows: sex × group × the true decision
    const sex = data.columns.find((c) => c.name === 'sex')!;
    const group = data.columns.find((c) => c.name === 'group')!;
    const label = data.columns.find((c) => c.name === 'approved')!;
    assert.ok(sex.kind === 'categorical' && group.kind === 'categorical' && label.kind === 'categorical');
    const G = group.categories.length;
    const stratum = Int32Array.from(
      { length: n },
      (_, i) => (label.codes[i] * sex.categories.length + sex.codes[i]) * G + group.codes[i],
    );
    const strata = 2 * sex.categories.length * G;
    const s = stratifiedSample(engine, stratum, strata, 1000, 7);
    assert.equal(s.rows.length, 1000);
    assert.equal(new Set(s.rows).size, 1000, 'no row twice');
    assert.ok(
      s.rows.every((r, i) => i === 0 || r > s.rows[i - 1]),
      "in the data's row order",
    );
    const got = new Array<number>(strata).fill(0);
    for (const r of s.rows) got[stratum[r]]++;
    assert.deepEqual(got, s.taken);
    s.sizes.forEach((m, k) => {
      assert.ok(
        Math.abs(s.taken[k] - (1000 * m) / n) < 1 || (m > 0 && s.taken[k] === 1),
        `stratum ${k}: ${s.taken[k]} of ${m}`,
      );
      if (m > 0) assert.ok(s.taken[k] >= 1);
    });
    assert.deepEqual(stratifiedSample(engine, stratum, strata, 1000, 7), s, 'same seed, same sample');
    assert.notDeepEqual(
      stratifiedSample(engine, stratum, strata, 1000, 8).rows,
      s.rows,
      'another seed, another sample',
    );
  });
});

describe('the audit with --gan-rows', () => {
  const base = (): AuditOptions => ({
    label: 'approved',
    positive: 'yes',
    protected: ['sex', 'group', 'age'],
    protectedEdges: { age: [18, 35, 50, 80] },
    model: builtinBlackBox(engine, clf, 'm'),
    n: 100,
    intersectionRows: 20,
    faleBootstrap: 0,
    lucidEpochs: 1,
    ganSeeds: 1,
    ganEpochs: 2,
    seed: 4,
  });
  /** audit.json as written, without the run's timings and date */
  async function auditJson(r: AuditResult): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'lucid-ganrows-'));
    try {
      await writeAudit(dir, r);
      const j = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
      delete j.meta.timings;
      delete j.meta.created;
      return JSON.stringify(j);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('no sampling when ganRows ≥ rows: the same audit.json as without the option', async () => {
    const plain = await runAudit(engine, data, base());
    assert.equal(plain.meta.gan.ganRows, AUDIT_DEFAULTS.ganRows);
    assert.equal(plain.meta.gan.sample, null);
    assert.equal(plain.meta.gan.rows, 3000);
    const same = await runAudit(engine, data, { ...base(), ganRows: 3000 });
    const a = JSON.parse(await auditJson(plain));
    const b = JSON.parse(await auditJson(same));
    assert.equal(b.meta.gan.ganRows, 3000);
    a.meta.gan.ganRows = b.meta.gan.ganRows;
    assert.equal(JSON.stringify(a), JSON.stringify(b), 'only meta.gan.ganRows differs');
    assert.ok(!Object.keys(plain.meta.seeds).some((k) => /sample/.test(k)), 'no sample seed logged');
    assert.doesNotMatch(describeGanTraining(plain.meta.gan), /sample/);
    assert.doesNotMatch(renderReport(plain), /stratified sample/);
  });

  it(
    'more rows than ganRows: the GANs train on the sample, ' + 'everything else on every row; same seed, same bytes',
    async () => {
      const r = await runAudit(engine, data, { ...base(), ganRows: 1000 });
      const g = r.meta.gan;
      assert.equal(g.rows, 1000);
      assert.deepEqual(g.sample, {
        rows: 1000,
        of: 3000,
        strata: ['decision', 'sex', 'group', 'age (binned)'],
        strataCount: g.sample!.strataCount,
        represented: g.sample!.strataCount,
      });
      assert.ok(g.sample!.strataCount > 8, `${g.sample!.strataCount} strata`);
      assert.ok(Object.keys(r.meta.seeds).includes("the GANs' stratified sample of the rows"));
      // the metrics and the checks count every row
      assert.equal(r.meta.data.rows, 3000);
      assert.equal(
        r.metrics.attributes.attributes[0].groups.reduce((s, x) => s + x.n, 0),
        3000,
      );
      const side = r.checks.fidelity[0].positive!.realRows + r.checks.fidelity[0].negative!.realRows;
      assert.equal(side, 3000, 'fidelity against every real row of each side');
      const text = describeGanTraining(g);
      assert.equal(
        text,
        'LUCID-GAN (paper loss) × 1 seed on a stratified sample of 1,000 of 3,000 rows (strata: decision × sex × ' +
          'group × age (binned)), 2 epochs (the published schedule); ' +
          describeSampling(g.sampling!),
      );
      assert.deepEqual(g.sampling, {
        condition: AUDIT_DEFAULTS.ganCondition,
        pointShare: AUDIT_DEFAULTS.ganPointShare,
        correct: AUDIT_DEFAULTS.ganCorrect,
        ...(AUDIT_DEFAULTS.ganCorrect !== 'none' ? { candidates: CORRECTION_DEFAULTS.factor } : {}),
      });
      assert.equal(
        describeSampling({ condition: 'matched', pointShare: 0.05, correct: 'classifier', candidates: 4 }),
        'sets: matched condition, point masses ≥ 5%, classifier correction from 4× candidates',
      );
      const html = renderReport(r);
      assert.ok(html.includes(text), 'the settings state it');
      assert.ok(
        html.includes(
          'Each GAN trained on a stratified sample of 1,000 of 3,000 rows (strata: decision × sex × group × age ' +
            '(binned)), drawn with its own seed (<code>--gan-rows</code> 1,000); the real-row ticks, the checks ' +
            'against the data, the metrics, the intersections and FALE use all 3,000 rows.',
        ),
      );
      const again = await runAudit(engine, data, { ...base(), ganRows: 1000 });
      assert.equal(await auditJson(again), await auditJson(r), 'same seed, same audit.json');
      const other = await runAudit(engine, data, { ...base(), ganRows: 1000, seed: 5 });
      assert.notEqual(
        other.meta.seeds["the GANs' stratified sample of the rows"],
        r.meta.seeds["the GANs' stratified sample of the rows"],
      );
    },
  );

  it('the fast schedule holds its rows out of the sample', async () => {
    const r = await runAudit(engine, data, { ...base(), ganRows: 1000, ganSchedule: 'fast', ganEpochs: 2 });
    const g = r.meta.gan;
    assert.ok(g.heldOut > 0);
    assert.equal(g.rows + g.heldOut, 1000);
    assert.match(
      describeGanTraining(g),
      new RegExp(
        `^LUCID-GAN \\(paper loss\\) × 1 seed on ${g.rows} rows of a stratified sample of 1,000 of 3,000 rows ` +
          `\\(strata: decision × sex × group × age \\(binned\\)\\), checked every 150 steps on the fidelity to ` +
          `${g.heldOut} held-out rows`,
      ),
    );
  });

  it('refuses a ganRows that is not a positive integer', async () => {
    for (const v of [0, -1, 1.5, NaN])
      await assert.rejects(
        runAudit(engine, data, { ...base(), ganRows: v }),
        (e: unknown) => e instanceof EngineError && /ganRows must be a positive integer/.test(e.message),
        String(v),
      );
  });
});
