#!/usr/bin/env node
// EXPERIMENTS.md §1: the LUCID-GAN paper's Table 1 on the test splits, for the built-in logistic model and
// MLP, direct (all features) and proxy (without sex and race). The paper's "PR" is the label base
// rate and its "TPR" the model's precision on Adult; on COMPAS it is P(no recidivism | predicted
// recidivism) (the reference's swapped Metrics arguments). Both are listed next to
// the model's true positivity rate and TPR.
//   npm run build && node experiments/table1.mjs [--out out/experiments/table1]
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { loadAdult, loadCompas } from '../dist/src/node/datasets.js';
import { Classifier } from '../dist/src/models/classifier/index.js';
import { groupMetrics } from '../dist/src/methods/metrics/index.js';

const { values: parsed } = parseArgs({
  options: { out: { type: 'string', default: 'out/experiments/table1' }, seed: { type: 'string', default: '0' } },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { out: string, seed: string }} */ (parsed);
mkdirSync(values.out, { recursive: true });
const engine = await initNodeEngine();
const pct = (v) => (v === null || v === undefined || Number.isNaN(v) ? '' : (100 * v).toFixed(1));
for (const name of ['adult', 'compas']) {
  const ds = name === 'adult' ? await loadAdult() : await loadCompas();
  const groups = name === 'adult' ? ['Sex', 'Race', 'Relationship', 'Martial Status'] : ['sex', 'race'];
  const lab = ds.splits.test.columns.find((c) => c.name === ds.label);
  if (lab?.kind !== 'categorical') throw new Error(`${ds.label}: a categorical label`);
  const base = groupMetrics(
    { rows: ds.splits.test.rows, columns: [...ds.splits.test.columns, { ...lab, name: 'label_as_pred' }] },
    { label: ds.label, positive: ds.favourable, pred: 'label_as_pred', groups },
  );
  const csv = [
    'model,view,accuracy,attribute,group,n,base_rate(paper PR),ppv,p_fav_given_pred_unfav,positivity_rate,tpr',
  ];
  for (const model of ['logistic', 'mlp']) {
    for (const view of ['direct', 'proxy']) {
      const { model: clf } = Classifier.train(engine, ds.splits.train, {
        label: ds.label,
        positive: ds.favourable,
        validation: ds.splits.val,
        hidden: model === 'logistic' ? [] : undefined,
        drop: view === 'proxy' ? (name === 'adult' ? ['Sex', 'Race'] : ['sex', 'race']) : [],
        seed: Number(values.seed),
      });
      const preds = clf.predictProba(engine, ds.splits.test);
      clf.dispose();
      const m = groupMetrics(
        {
          rows: ds.splits.test.rows,
          columns: [
            ...ds.splits.test.columns,
            { kind: /** @type {const} */ ('numeric'), name: 'preds', values: preds },
          ],
        },
        { label: ds.label, positive: ds.favourable, pred: 'preds', groups },
      );
      let acc = 0;
      for (let i = 0; i < preds.length; i++)
        acc += preds[i] > 0.5 === (lab.categories[lab.codes[i]] === ds.favourable) ? 1 : 0;
      acc /= preds.length;
      for (const a of m.attributes) {
        const b = base.attributes.find((x) => x.column === a.column);
        if (!b) throw new Error(`${a.column}: not in the base rates`);
        for (const g of a.groups) {
          const gb = b.groups.find((x) => x.value === g.value);
          if (!gb) throw new Error(`${a.column} ${g.value}: not in the base rates`);
          csv.push(
            [
              model,
              view,
              (100 * acc).toFixed(2),
              a.column,
              JSON.stringify(g.value),
              g.n,
              pct(gb.positivity_rate),
              pct(g.ppv),
              pct(g.fn !== null && g.tn !== null && g.fn + g.tn > 0 ? g.fn / (g.fn + g.tn) : null),
              pct(g.positivity_rate),
              pct(g.tpr),
            ].join(','),
          );
        }
      }
      console.error(`${name} ${model} ${view}: accuracy ${(100 * acc).toFixed(2)}%`);
    }
  }
  writeFileSync(join(values.out, `table1-${name}.csv`), csv.join('\n') + '\n');
}
