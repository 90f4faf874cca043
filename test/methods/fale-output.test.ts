// FALE of a class among k and a real value (issue #40): built-in multiclass and regression models trained on the
// simulator's targets (direct bias against group B). Each measure's per-bin change must equal the measure computed
// directly on the bin's rows at its two edges (the model called here, the measure written out again), the 2-D cell
// effect its four corners', the overall value unprivileged − privileged with B below the rest; a measure that does not
// fit the kind, a multiclass model without its favourable class and a binary model given a measure are E_ARG; the
// audit's function chooses the least favoured group and adds the residual section for a real value; and the command
// runs end to end for both kinds, its binary flags refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { EngineError } from '../../src/engine/errors.js';
import type { Engine } from '../../src/engine/engine.js';
import { cellLabels, getColumn, type NumericColumn, type Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox, moduleBlackBox, type BlackBox } from '../../src/models/blackbox.js';
import {
  FALE_MEASURE_DEFS,
  FALE_MEASURES,
  fale2dOutput,
  faleCsv,
  faleOutput,
  measuresFor,
  unprivilegedMask,
} from '../../src/methods/fale/index.js';
import { modifiedTable } from '../../src/methods/fale/fale.js';
import { auditContext } from '../../src/audit/stages/context.js';
import { groupViews } from '../../src/audit/stages/metrics.js';
import { outputFaleStage } from '../../src/audit/stages/fale.js';
import { writeCsv } from '../../src/node/csv.js';
import { saveModel } from '../../src/node/model-file.js';
import { EXIT } from '../../src/cli/handle-error.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli } from '../helpers/sim-model.js';

const DROP_MC = ['merited'];
const DROP_REG = ['merited_limit'];
let engine: Engine;
let mcTable: Table;
let regTable: Table;
let mc: BlackBox;
let reg: BlackBox;
const dir = mkdtempSync(join(tmpdir(), 'lucid-fale-output-'));

const without = (t: Table, drop: string[]): Table => ({
  rows: t.rows,
  columns: t.columns.filter((c) => !drop.includes(c.name)),
});

before(async () => {
  engine = await getEngine();
  mcTable = simulate(new Rng(engine, 4), { n: 900, bias: 'direct', target: 'multiclass' }).table;
  regTable = simulate(new Rng(engine, 4), { n: 900, bias: 'direct', target: 'regression' }).table;
  const m1 = Classifier.train(engine, mcTable, {
    label: 'decision',
    output: 'multiclass',
    drop: DROP_MC,
    hidden: [16],
    epochs: 40,
    seed: 1,
  }).model;
  const m2 = Classifier.train(engine, regTable, {
    label: 'offered_limit',
    output: 'regression',
    drop: DROP_REG,
    hidden: [16],
    epochs: 40,
    seed: 1,
  }).model;
  mc = builtinBlackBox(engine, m1, 'mc.json');
  reg = builtinBlackBox(engine, m2, 'reg.json');
  await writeCsv(join(dir, 'mc.csv'), mcTable);
  await writeCsv(join(dir, 'reg.csv'), regTable);
  await saveModel(join(dir, 'mc.json'), m1);
  await saveModel(join(dir, 'reg.json'), m2);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The most probable class of each row of N×k probabilities (the first on a tie), written out again here. */
function classes(p: Float64Array, k: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < p.length / k; i++) {
    let b = 0;
    for (let c = 1; c < k; c++) if (p[i * k + c] > p[i * k + b]) b = c;
    out.push(b);
  }
  return out;
}

/**
 * mean over the unprivileged rows − mean over the others, of per-row values `v` of rows `rows` (u: the table's mask).
 */
function gap(v: number[], rows: number[], u: Uint8Array): number {
  let su = 0;
  let nu = 0;
  let sp = 0;
  let np = 0;
  rows.forEach((r, j) => {
    if (u[r]) {
      su += v[j];
      nu++;
    } else {
      sp += v[j];
      np++;
    }
  });
  return su / nu - sp / np;
}

/** The per-row values of `measure` for the model's output on `t`, whose rows are `rows` of `full`. */
async function rowValues(model: BlackBox, t: Table, measure: string, rows: number[], full: Table): Promise<number[]> {
  const p = await model.predict(t);
  if (measure === 'class-rate') return classes(p, 3).map((c) => (c === 0 ? 1 : 0)); // class 0: approve
  if (measure === 'mean-prediction') return Array.from(p);
  const y = (getColumn(full, 'offered_limit') as NumericColumn).values;
  return Array.from(p, (x, j) => x - y[rows[j]]);
}

const CASES = [
  { measure: 'class-rate', model: () => mc, table: () => without(mcTable, DROP_MC), label: 'decision' },
  { measure: 'mean-prediction', model: () => reg, table: () => without(regTable, DROP_REG), label: 'offered_limit' },
  { measure: 'mean-residual', model: () => reg, table: () => without(regTable, DROP_REG), label: 'offered_limit' },
] as const;

describe('FALE output measures against a direct computation on the bin rows', () => {
  it('the table: every measure has a label, a formula and kinds; each non-binary kind has one', () => {
    for (const m of FALE_MEASURES) {
      const d = FALE_MEASURE_DEFS[m];
      assert.ok(d.label && d.formula && d.kinds.length > 0, m);
    }
    assert.deepEqual(measuresFor('multiclass'), ['class-rate']);
    assert.deepEqual(measuresFor('regression'), ['mean-prediction', 'mean-residual']);
    assert.deepEqual(measuresFor('score'), ['mean-prediction']);
  });

  for (const c of CASES)
    it(`${c.measure}: each income bin's change is the measure at its upper edge minus at its lower edge`, async () => {
      const t = c.table();
      const protectedGroup = [{ column: 'group', value: 'B' }];
      const r = await faleOutput(t, c.model(), {
        label: c.label,
        protected: protectedGroup,
        features: ['income'],
        measure: c.measure,
        favouredClass: c.measure === 'class-rate' ? 'approve' : undefined,
        direction: c.measure === 'class-rate' ? undefined : 'higher',
        bins: 6,
      });
      assert.equal(r.metric, c.measure);
      assert.equal(r.measure?.name, c.measure);
      const f = r.features[0];
      const edges = f.edges as number[];
      const u = unprivilegedMask(t, protectedGroup);
      const income = (getColumn(t, 'income') as NumericColumn).values;
      let checked = 0;
      for (let k = 0; k < edges.length - 1; k++) {
        const rows: number[] = [];
        for (let i = 0; i < t.rows; i++)
          if ((k === 0 ? income[i] >= edges[0] : income[i] > edges[k]) && income[i] <= edges[k + 1]) rows.push(i);
        const idx = Int32Array.from(rows);
        const at = async (e: number) =>
          gap(
            await rowValues(
              c.model(),
              modifiedTable(t, idx, 'income', () => e),
              c.measure,
              rows,
              t,
            ),
            rows,
            u,
          );
        const want = (await at(edges[k + 1])) - (await at(edges[k]));
        assert.equal(f.counts.n[k], rows.length, `bin ${k}: rows`);
        assert.ok(Math.abs((f.deltas[k] as number) - want) <= 1e-9 * Math.max(1, Math.abs(want)), `bin ${k}`);
        checked++;
      }
      assert.ok(checked >= 4);
      // the accumulated (centred) curve rises by the deltas
      const scale = Math.max(1, ...f.values.map(Math.abs));
      for (let k = 0; k < f.deltas.length; k++)
        assert.ok(Math.abs(f.values[k + 1] - f.values[k] - (f.deltas[k] as number)) < 1e-9 * scale, `step ${k}`);
    });

  it('the sign: overall is unprivileged − privileged, and the planted penalty puts group B below', async () => {
    const t = without(regTable, DROP_REG);
    const u = unprivilegedMask(t, [{ column: 'group', value: 'B' }]);
    const all = Array.from({ length: t.rows }, (_, i) => i);
    const r = await faleOutput(t, reg, {
      label: 'offered_limit',
      protected: [{ column: 'group', value: 'B' }],
      features: ['age'],
      direction: 'higher',
    });
    assert.equal(r.metric, 'mean-prediction'); // the kind's default
    const direct = gap(Array.from(await reg.predict(t)), all, u);
    assert.ok(Math.abs((r.overall as number) - direct) < 1e-9 * Math.abs(direct));
    assert.ok((r.overall as number) < 0, `B's mean limit is lower: ${r.overall}`);
    assert.match(r.reading, /below 0/);
    const m = await faleOutput(without(mcTable, DROP_MC), mc, {
      label: 'decision',
      protected: [{ column: 'group', value: 'B' }],
      features: ['age'],
      classOrder: ['approve', 'refer', 'decline'],
    });
    assert.equal(m.measure?.class, 'approve'); // the first of the class order
    assert.ok((m.overall as number) < 0, `B receives approve less often: ${m.overall}`);
    // lower favourable reads the other sign
    const low = await faleOutput(t, reg, {
      label: 'offered_limit',
      protected: [{ column: 'group', value: 'B' }],
      features: ['age'],
      direction: 'lower',
    });
    assert.equal(low.overall, r.overall);
    assert.match(low.reading, /above 0/);
  });

  it(
    'mean-residual: its overall is the residual gap; its ' + "curves are the mean prediction's (the label cancels)",
    async () => {
      const t = without(regTable, DROP_REG);
      const prot = [{ column: 'group', value: 'B' }];
      const opts = {
        label: 'offered_limit',
        protected: prot,
        features: ['income', 'education'],
        direction: 'higher' as const,
      };
      const res = await faleOutput(t, reg, { ...opts, measure: 'mean-residual' });
      const pred = await faleOutput(t, reg, { ...opts, measure: 'mean-prediction' });
      const y = (getColumn(t, 'offered_limit') as NumericColumn).values;
      const p = await reg.predict(t);
      const all = Array.from({ length: t.rows }, (_, i) => i);
      const direct = gap(
        Array.from(p, (x, i) => x - y[i]),
        all,
        unprivilegedMask(t, prot),
      );
      assert.ok(Math.abs((res.overall as number) - direct) < 1e-9 * Math.max(1, Math.abs(direct)));
      assert.notEqual(res.overall, pred.overall);
      res.features.forEach((f, k) =>
        f.values.forEach((v, i) => assert.ok(Math.abs(v - pred.features[k].values[i]) < 1e-6, `${f.feature} ${i}`)),
      );
      assert.match(res.reading, /the curves are the mean prediction's/);
    },
  );

  it('2-D: a cell effect is the measure at its four corners, (hi,hi) − (hi,lo) − ((lo,hi) − (lo,lo))', async () => {
    const t = without(regTable, DROP_REG);
    const prot = [{ column: 'group', value: 'B' }];
    const r = await fale2dOutput(t, reg, {
      label: 'offered_limit',
      protected: prot,
      pair: ['income', 'debt_ratio'],
      measure: 'mean-prediction',
      direction: 'higher',
      bins: 4,
    });
    assert.equal(r.measure?.name, 'mean-prediction');
    const [e1, e2] = r.edges;
    const u = unprivilegedMask(t, prot);
    const x1 = (getColumn(t, 'income') as NumericColumn).values;
    const x2 = (getColumn(t, 'debt_ratio') as NumericColumn).values;
    const inBin = (x: number, e: number[], k: number) => (k === 0 ? x >= e[0] : x > e[k]) && x <= e[k + 1];
    let checked = 0;
    for (let i = 0; i < e1.length - 1; i++)
      for (let j = 0; j < e2.length - 1; j++) {
        if (r.deltas[i][j] === null) continue;
        const rows: number[] = [];
        for (let q = 0; q < t.rows; q++) if (inBin(x1[q], e1, i) && inBin(x2[q], e2, j)) rows.push(q);
        const at = async (a: number, b: number) => {
          const m = modifiedTable(t, Int32Array.from(rows), 'income', () => a);
          (getColumn(m, 'debt_ratio') as NumericColumn).values.fill(b);
          return gap(Array.from(await reg.predict(m)), rows, u);
        };
        const want =
          (await at(e1[i + 1], e2[j + 1])) -
          (await at(e1[i + 1], e2[j])) -
          ((await at(e1[i], e2[j + 1])) - (await at(e1[i], e2[j])));
        assert.ok(Math.abs((r.deltas[i][j] as number) - want) <= 1e-9 * Math.max(1, Math.abs(want)), `cell ${i},${j}`);
        checked++;
      }
    assert.ok(checked >= 4);
  });

  it('the bootstrap gives bands, the same for the same seed', async () => {
    const t = without(mcTable, DROP_MC);
    const run = (seed: number) =>
      faleOutput(t, mc, {
        label: 'decision',
        protected: [{ column: 'group', value: 'B' }],
        features: ['income', 'education'],
        favouredClass: 'approve',
        bootstrap: 8,
        rng: new Rng(engine, seed),
      });
    const a = await run(3);
    const b = await run(3);
    assert.deepEqual(a, b);
    for (const f of a.features) {
      assert.equal(f.ci?.replicates, 8);
      assert.ok(f.ci?.lower.some((x) => x !== null));
    }
  });

  it('a measure that does not fit the kind, no favourable class, a binary model: E_ARG naming it', async () => {
    const t = without(regTable, DROP_REG);
    const base = { label: 'offered_limit', protected: [{ column: 'group', value: 'B' }], features: ['age'] };
    const argError = (re: RegExp) => (e: unknown) =>
      e instanceof EngineError && e.code === 'E_ARG' && re.test(e.message);
    await assert.rejects(
      faleOutput(t, reg, { ...base, measure: 'class-rate', direction: 'higher' }),
      argError(/--measure class-rate is for multiclass outputs; the model's output is regression/),
    );
    const m = without(mcTable, DROP_MC);
    await assert.rejects(
      faleOutput(m, mc, { ...base, label: 'decision', measure: 'mean-residual' }),
      argError(/--measure mean-residual is for regression outputs/),
    );
    await assert.rejects(faleOutput(m, mc, { ...base, label: 'decision' }), argError(/needs its favourable class/));
    await assert.rejects(
      faleOutput(m, mc, { ...base, label: 'decision', favouredClass: 'maybe' }),
      argError(/"maybe"/),
    );
    await assert.rejects(faleOutput(t, reg, base), argError(/--favourable higher or lower/));
    const binary = moduleBlackBox({ features: ['age'], predict: (rows) => rows.map(() => 0.5) }, 'binary model');
    await assert.rejects(
      faleOutput(t, binary, { ...base, direction: 'higher' }),
      argError(/binary classifier; its measures are the binary metrics/),
    );
  });

  it('CSV names the measure and its units on every line', async () => {
    const r = await faleOutput(without(regTable, DROP_REG), reg, {
      label: 'offered_limit',
      protected: [{ column: 'group', value: 'B' }],
      features: ['income'],
      measure: 'mean-residual',
      direction: 'higher',
    });
    const lines = faleCsv(r).trim().split('\n');
    assert.match(lines[0], /,ci_upper,measure,units$/);
    for (const l of lines.slice(1)) assert.match(l, /,mean-residual,"the units of the label ""offered_limit"""$/);
  });
});

describe("the audit's FALE of a class among k and a real value", () => {
  async function stage(
    kind: 'multiclass' | 'regression',
    extra: { direction?: 'higher' | 'lower'; favouredClass?: string },
  ) {
    const full = kind === 'multiclass' ? without(mcTable, DROP_MC) : without(regTable, DROP_REG);
    const model = kind === 'multiclass' ? mc : reg;
    const label = kind === 'multiclass' ? 'decision' : 'offered_limit';
    const ctx = auditContext(engine, full, {
      model,
      label,
      protected: ['sex', 'group'],
      ...(kind === 'multiclass' ? { classOrder: ['approve', 'refer', 'decline'] } : { favourable: 'higher' as const }),
      faleBins: 5,
      faleBootstrap: 0,
      seed: 2,
    } as Parameters<typeof auditContext>[2]);
    const { views, extra: binned } = groupViews(full, ctx.plan, () => true);
    // the prediction column as the output audit writes it: the most probable class, or the number
    const p = await model.predict(full);
    const pred =
      kind === 'multiclass'
        ? {
            kind: 'categorical' as const,
            name: 'preds',
            codes: Int32Array.from(classes(p, 3)),
            categories: ['approve', 'decline', 'refer'],
          }
        : { kind: 'numeric' as const, name: 'preds', values: Float64Array.from(p) };
    const mtable: Table = { rows: full.rows, columns: [...full.columns, pred, ...binned] };
    const out = await outputFaleStage(ctx, {
      kind,
      views,
      mtable,
      predName: 'preds',
      features: ['age', 'income', 'education'],
      exclude: binned.map((c) => c.name),
      minGroupSize: 30,
      ...extra,
    });
    return { out, mtable, p };
  }

  it('multiclass: the group that receives the favourable class least is unprivileged, per attribute', async () => {
    const { out, mtable } = await stage('multiclass', { favouredClass: 'approve' });
    assert.equal(out.skipped, undefined);
    assert.deepEqual(
      out.sections.map((s) => s.attribute),
      ['sex', 'group'],
    );
    const g = out.sections[1];
    assert.deepEqual(g.unprivileged, [{ column: 'group', value: 'B' }]);
    assert.match(g.chosen, /lowest rate of the favourable class approve/);
    assert.equal(g.result.measure?.name, 'class-rate');
    // the chosen sex is the one with the lower approve rate on the audited rows
    const sex = cellLabels(getColumn(mtable, 'sex'));
    const preds = cellLabels(getColumn(mtable, 'preds'));
    const rate = (s: string) => {
      const rows = sex.flatMap((x, i) => (x === s ? [i] : []));
      return rows.filter((i) => preds[i] === 'approve').length / rows.length;
    };
    const lower = rate('Female') < rate('Male') ? 'Female' : 'Male';
    assert.deepEqual(out.sections[0].unprivileged, [{ column: 'sex', value: lower }]);
  });

  it('regression: the lowest mean prediction is unprivileged, the highest with lower favourable', async () => {
    const { out } = await stage('regression', { direction: 'higher' });
    // no residual section: its curves would be the mean prediction's (the label cancels in every change)
    assert.deepEqual(
      out.sections.map((s) => `${s.attribute}:${s.result.metric}`),
      ['sex:mean-prediction', 'group:mean-prediction'],
    );
    assert.deepEqual(out.sections[1].unprivileged, [{ column: 'group', value: 'B' }]);
    assert.match(out.sections[1].chosen, /lowest mean prediction \(higher is favourable\)/);
    assert.ok((out.sections[1].result.overall as number) < 0);
    const lower = await stage('regression', { direction: 'lower' });
    assert.deepEqual(lower.out.sections[1].unprivileged, [{ column: 'group', value: 'A' }]);
    assert.match(lower.out.sections[1].chosen, /highest mean prediction \(lower is favourable\)/);
  });

  it('without the favourable class or the direction it says why it did not run', async () => {
    assert.match((await stage('multiclass', {})).out.skipped ?? '', /favourable class/);
    assert.match((await stage('regression', {})).out.skipped ?? '', /direction/);
  });
});

describe('lucid fale of a class among k and a real value', () => {
  const fale = lucidCli('fale');
  it('multiclass: JSON with the measure, its class and units', () => {
    const r = fale(
      '--model',
      join(dir, 'mc.json'),
      '--data',
      join(dir, 'mc.csv'),
      '--label',
      'decision',
      '--drop',
      'merited',
      '--protected',
      'group=B',
      '--class-order',
      'approve,refer,decline',
      '--feature',
      'income',
      '--bins',
      '5',
    );
    assert.equal(r.status, EXIT.ok, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.metric, 'class-rate');
    assert.equal(j.measure.class, 'approve');
    assert.match(j.measure.units, /rates of class approve/);
    assert.ok(j.overall < 0);
    assert.equal(j.positive, undefined);
  });
  it('regression: CSV with the residual; --pair JSON; wrong measure, binary flags: exit 2', () => {
    const args = [
      '--model',
      join(dir, 'reg.json'),
      '--data',
      join(dir, 'reg.csv'),
      '--label',
      'offered_limit',
      '--drop',
      'merited_limit',
      '--protected',
      'group=B',
    ];
    const r = fale(
      ...args,
      '--favourable',
      'higher',
      '--measure',
      'mean-residual',
      '--feature',
      'income',
      '--format',
      'csv',
    );
    assert.equal(r.status, EXIT.ok, r.stderr);
    assert.match(r.stdout.split('\n')[0], /,measure,units$/);
    const p = fale(...args, '--favourable', 'higher', '--pair', 'income,debt_ratio', '--bins', '4');
    assert.equal(p.status, EXIT.ok, p.stderr);
    assert.equal(JSON.parse(p.stdout).measure.name, 'mean-prediction');
    const bad = fale(...args, '--favourable', 'higher', '--measure', 'class-rate');
    assert.equal(bad.status, EXIT.usage);
    assert.match(bad.stderr, /--measure class-rate is for multiclass outputs/);
    const thr = fale(...args, '--favourable', 'higher', '--threshold', '0.3');
    assert.equal(thr.status, EXIT.usage);
    assert.match(thr.stderr, /--threshold reads a binary decision/);
    const dir0 = fale(...args, '--favourable', 'positive');
    assert.equal(dir0.status, EXIT.usage);
    assert.match(dir0.stderr, /higher or lower/);
  });
});
