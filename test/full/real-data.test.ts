// The canonical sets' checks on real tabular data (Adult and COMPAS from LUCID_DATA_DIR): `lucid audit` with its
// defaults and seeds 0–2, as a user runs it, never states a preference whose direction the real rows
// contradict, never writes a number outside its column's observed range (nor a fraction in a whole-
// number column), and keeps every canonical row the model scores on its side. Each statement is
// checked here independently of the audit's own checks: the real shift of the stated value is
// recomputed from the CSV and the model's predictions, with a normal-approximation (Wald) interval.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetAvailability, loadAdult, loadCompas } from '../../src/node/datasets.js';
import { readCsv, writeCsv } from '../../src/node/csv.js';
import { loadBlackBox } from '../../src/node/blackbox.js';
import { saveModel } from '../../src/node/model-file.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { selectRows, cellLabels, type Table } from '../../src/data/table.js';
import { assignBin } from '../../src/audit/bins.js';
import { getEngine, hostRng } from '../helpers/engine.js';
import { lucidCli } from '../helpers/sim-model.js';
import { fullSkip } from '../helpers/full.js';

const lucid = lucidCli();
const adult = datasetAvailability('adult');
const compas = datasetAvailability('compas');
const skip =
  fullSkip() ||
  (!adult.available || !compas.available
    ? `Adult/COMPAS data absent: ${adult.reason ?? ''} ${compas.reason ?? ''}`
    : false);

interface Setting {
  name: string;
  data: string;
  model: string;
  label: string;
  positive: string;
  protected: string[];
  edges?: string;
  extra: string[];
}

describe('lucid audit on real data, seeds 0–2', { skip, timeout: 3_600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-real-'));
  const settings: Setting[] = [];
  after(() => rmSync(dir, { recursive: true, force: true }));

  before(async () => {
    const engine = await getEngine();
    // Adult: 1000 rows of the test split (a small real data set), the model trained on the train split
    const a = await loadAdult();
    const rnd = hostRng(1);
    const idx = Array.from({ length: a.splits.test.rows }, (_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const k = Math.floor(rnd() * (i + 1));
      [idx[i], idx[k]] = [idx[k], idx[i]];
    }
    idx.length = 1000;
    idx.sort((x, y) => x - y);
    await writeCsv(join(dir, 'adult.csv'), selectRows(a.splits.test, idx));
    const am = Classifier.train(engine, a.splits.train, {
      label: a.label,
      positive: a.favourable,
      validation: a.splits.val,
      seed: 0,
    }).model;
    await saveModel(join(dir, 'adult.json'), am);
    am.dispose();
    settings.push({
      name: 'adult-1000',
      data: join(dir, 'adult.csv'),
      model: join(dir, 'adult.json'),
      label: a.label,
      positive: a.favourable,
      protected: ['Sex', 'Race', 'Age'],
      edges: 'Age=16,30,50,90',
      extra: [],
    });
    // COMPAS: the test split (1235 rows)
    const c = await loadCompas();
    await writeCsv(join(dir, 'compas.csv'), c.splits.test);
    const cm = Classifier.train(engine, c.splits.train, {
      label: c.label,
      positive: c.favourable,
      validation: c.splits.val,
      seed: 0,
    }).model;
    await saveModel(join(dir, 'compas.json'), cm);
    cm.dispose();
    settings.push({
      name: 'compas',
      data: join(dir, 'compas.csv'),
      model: join(dir, 'compas.json'),
      label: c.label,
      positive: c.favourable,
      protected: ['sex', 'race', 'age_cat'],
      extra: ['--categorical', c.label],
    });
  });

  it(
    'states no preference the real rows contradict, writes no number outside the observed range, keeps only rows on ' +
      'their side',
    async () => {
      const engine = await getEngine();
      const report: string[] = [];
      for (const s of settings) {
        const { table } = await readCsv(s.data, s.extra.length ? { categorical: [s.label] } : {});
        const model = await loadBlackBox(engine, s.model);
        const yhat = Array.from(await model.predict(table), (p) => (p > 0.5 ? 1 : 0));
        const edges = s.edges ? s.edges.split('=')[1].split(',').map(Number) : null;
        for (const seed of [0, 1, 2]) {
          const out = join(dir, `${s.name}-${seed}`);
          const args = [
            'audit',
            '--data',
            s.data,
            '--label',
            s.label,
            '--positive',
            s.positive,
            '--protected',
            s.protected.join(','),
            '--model',
            s.model,
            '--seed',
            String(seed),
            '--out',
            out,
            '--quiet',
            '--format',
            'json',
            ...s.extra,
          ];
          if (s.edges) args.push('--protected-edges', s.edges);
          const r = lucid(...args);
          assert.equal(r.status, 0, r.stderr);
          const j = JSON.parse(r.stdout) as { preferences: { feature: string; value: string; direction: string }[] };
          const audit = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
          // every stated preference, recomputed from the rows
          for (const p of j.preferences) {
            const col = table.columns.find((c) => c.name === p.feature)!;
            let labels: string[];
            if (col.kind === 'numeric' && p.feature === 'Age' && edges)
              labels = Array.from(
                col.values,
                (v) =>
                  audit.protected.find((x: { column: string }) => x.column === 'Age').bins.labels[
                    assignBin(v, edges, true)
                  ],
              );
            else labels = cellLabels(col);
            if (p.value === 'median') continue; // a median is checked by the audit's bootstrap; here only shares
            // decile bins of numeric features: the audit's own coding
            if (col.kind === 'numeric' && !(p.feature === 'Age' && edges)) continue;
            const n1 = yhat.filter((y) => y === 1).length;
            const n0 = yhat.length - n1;
            const p1 = labels.filter((l, i) => l === p.value && yhat[i] === 1).length / n1;
            const p0 = labels.filter((l, i) => l === p.value && yhat[i] === 0).length / n0;
            const shift = p1 - p0;
            const se = Math.sqrt((p1 * (1 - p1)) / n1 + (p0 * (1 - p0)) / n0);
            const sign = p.direction === 'favoured' ? 1 : -1;
            assert.ok(
              sign * shift > -1.96 * se,
              `${s.name} seed ${seed}: "${p.feature} = ${p.value}" stated ${p.direction}, the real rows shift ` +
                `${(100 * shift).toFixed(1)} pp (se ${(100 * se).toFixed(1)})`,
            );
          }
          report.push(`${s.name} seed ${seed}: ${j.preferences.length} preferences stated`);
          // every generated number inside the audited rows' range; whole numbers stay whole
          for (const side of ['positive', 'negative']) {
            const { table: t } = await readCsv(join(out, `canonical-${side}.csv`));
            assert.ok(t.rows > 0);
            for (const c of t.columns) {
              const real = table.columns.find((x) => x.name === c.name);
              if (real?.kind !== 'numeric' || c.kind !== 'numeric') continue;
              const lo = Math.min(...real.values);
              const hi = Math.max(...real.values);
              assert.ok(
                c.values.every((v) => v >= lo && v <= hi),
                `${s.name} seed ${seed}: ${side} ${c.name} outside [${lo}, ${hi}]`,
              );
              if (real.values.every(Number.isInteger))
                assert.ok(c.values.every(Number.isInteger), `${s.name} seed ${seed}: ${side} ${c.name} has fractions`);
            }
          }
          // validity: every kept row is scored on its side by the model itself
          for (const side of ['positive', 'negative'] as const) {
            const { table: t } = await readCsv(join(out, `canonical-${side}.csv`));
            const p = await model.predict(t as Table);
            const ok = Array.from(p).filter((v) => v > 0.5 === (side === 'positive')).length / t.rows;
            assert.ok(ok >= 0.99, `${s.name} seed ${seed}: ${side} validity ${ok}`);
          }
        }
      }
      writeFileSync(join(dir, 'summary.txt'), report.join('\n'));
    },
  );
});
