#!/usr/bin/env node
// EXPERIMENTS.md §1 and §3: the LUCID-GAN paper's §4 on Adult and COMPAS, and the canonical-set validity.
//   direct:  the built-in classifier trained on the train split (early stopping on the val split) with
//            every feature; LUCID-GAN trained on the TEST split plus the model's predictions;
//            1000 rows at preds=1 and 1000 at preds=0 (zero cond vector, the paper's); Fig. 2.
//   proxy:   the same, the classifier trained WITHOUT Sex and Race; the GAN still models them; Fig. 3.
//   direct also gives Fig. 4 (intersectional): 1000 positive rows with Sex fixed Male / Female, and
//            with Sex plus Marital Status = Married-civ-spouse (Adult) or age_cat = Greater than 45
//            (COMPAS) fixed; the Race distribution of each (and the negative sets for contrast).
//   Table 1: per group of the protected features, the label base rate (the paper's "PR", see docs/methods.md "Group
//     metrics"),
//            the model's precision (the paper's "TPR"), and the model's true positivity rate and TPR.
//   Validity: share of the positive set the audited model scores > 0.5 and of the negative set < 0.5.
//   LUCID (direct view; the paper's light-green bars in Fig. 2 and its Fig. 5): 1000 samples by gradient
//            descent on the model's input from U[-1, 1) (the reference's defaults: 200 steps, lr 0.1,
//            prob-ce); per shown feature, its distribution beside the uniform start and the test data
//            (lucid-<feature>.svg), and the Jensen–Shannon distance to the test data of LUCID's positive
//            set and of LUCID-GAN's (the paper's realism claim).
//
//   npm run build && node experiments/lucid-gan-paper.mjs --dataset adult|compas --model logistic|mlp
//        --view direct|proxy [--mode consistency|paper] [--epochs N] [--seed 0] [--out out/experiments/lucid-gan]
// Writes <out>/<dataset>-<model>-<view>-<mode>/: summary.json, distributions.csv, table1.csv,
// intersections.csv, fig2/fig3 SVGs (one per feature), fig4 SVGs.
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { loadAdult, loadCompas } from '../dist/src/node/datasets.js';
import { Classifier } from '../dist/src/models/classifier/index.js';
import { LucidGan } from '../dist/src/models/lucidgan/index.js';
import { groupMetrics } from '../dist/src/methods/metrics/index.js';
import { validity } from '../dist/src/methods/quality/index.js';
import { distribution } from '../dist/src/audit/distance.js';
import { getColumn } from '../dist/src/data/table.js';
import { lucidStart } from '../dist/src/audit/run.js';
import { invert } from '../dist/src/methods/lucid/index.js';
import { distributionChart, groupedBars } from '../dist/src/report/index.js';

const { values: parsed } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'adult' },
    model: { type: 'string', default: 'logistic' },
    view: { type: 'string', default: 'direct' },
    mode: { type: 'string', default: 'consistency' },
    epochs: { type: 'string' },
    seed: { type: 'string', default: '0' },
    n: { type: 'string', default: '1000' },
    out: { type: 'string', default: 'out/experiments/lucid-gan' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & {
 *   dataset: string, model: string, view: string, mode: string, seed: string, n: string, out: string
 * }} */ (parsed);
const seed = Number(values.seed);
const n = Number(values.n);
const isAdult = values.dataset === 'adult';
const epochs = Number(values.epochs ?? (isAdult ? 50 : 300));
const paper = values.mode === 'paper';
const tag = `${values.dataset}-${values.model}-${values.view}-${values.mode}`;
const dir = join(values.out, tag);
mkdirSync(dir, { recursive: true });
const t0 = performance.now();
const lap = () => (performance.now() - t0) / 1000;

const engine = await initNodeEngine();
const ds = isAdult ? await loadAdult() : await loadCompas();
const P = isAdult
  ? {
      sex: 'Sex',
      race: 'Race',
      shown: ['Sex', 'Race', 'Martial Status', 'Relationship', 'Age', 'Education-Num', 'Hours per week'],
      groups: ['Sex', 'Race', 'Relationship', 'Martial Status'],
      third: ['Martial Status', 'Married-civ-spouse'],
    }
  : {
      sex: 'sex',
      race: 'race',
      shown: ['sex', 'race', 'age_cat', 'priors_count', 'c_charge_degree'],
      groups: ['sex', 'race'],
      third: ['age_cat', 'Greater than 45'],
    };
const drop = values.view === 'proxy' ? [P.sex, P.race] : [];
const hidden = values.model === 'logistic' ? [] : undefined;
const { model: clf, bestEpoch } = Classifier.train(engine, ds.splits.train, {
  label: ds.label,
  positive: ds.favourable,
  validation: ds.splits.val,
  hidden,
  drop,
  seed,
});
const test = ds.splits.test;
const preds = clf.predictProba(engine, test);
const lab = test.columns.find((c) => c.name === ds.label);
if (lab?.kind !== 'categorical') throw new Error(`${ds.label}: a categorical label`);
let acc = 0;
for (let i = 0; i < test.rows; i++) acc += preds[i] > 0.5 === (lab.categories[lab.codes[i]] === ds.favourable) ? 1 : 0;
acc /= test.rows;
const tModel = lap();
console.error(
  `${tag}: classifier ${values.model}${drop.length ? ` without ${drop.join(', ')}` : ''}: test accuracy ` +
    `${(100 * acc).toFixed(2)}% (best epoch ${bestEpoch}), ${tModel.toFixed(1)} s`,
);

// ── Table 1 ────────────────────────────────────────────────────────────────────────────────────
const scored = {
  rows: test.rows,
  columns: [...test.columns, { kind: /** @type {const} */ ('numeric'), name: 'preds', values: preds }],
};
const withLabel = { rows: test.rows, columns: [...test.columns, { ...lab, name: 'label_as_pred' }] };
const mModel = groupMetrics(scored, { label: ds.label, positive: ds.favourable, pred: 'preds', groups: P.groups });
const mBase = groupMetrics(withLabel, {
  label: ds.label,
  positive: ds.favourable,
  pred: 'label_as_pred',
  groups: P.groups,
});
const t1 = [
  'attribute,group,n,base_rate_pct(paper PR),model_ppv_pct(paper ' +
    'TPR),model_positivity_pct,model_tpr_pct,model_accuracy_pct',
];
const pct = (v) => (v === null || v === undefined ? '' : (100 * v).toFixed(1));
for (const a of mModel.attributes) {
  const b = mBase.attributes.find((x) => x.column === a.column);
  if (!b) throw new Error(`${a.column}: not in the base rates`);
  for (const g of a.groups) {
    const gb = b.groups.find((x) => x.value === g.value);
    if (!gb) throw new Error(`${a.column} ${g.value}: not in the base rates`);
    t1.push(
      [
        a.column,
        JSON.stringify(g.value),
        g.n,
        pct(gb.positivity_rate),
        pct(g.ppv),
        pct(g.positivity_rate),
        pct(g.tpr),
        pct(g.accuracy),
      ].join(','),
    );
  }
}
writeFileSync(join(dir, 'table1.csv'), t1.join('\n') + '\n');

// ── LUCID-GAN on the test split + predictions ──────────────────────────────────────────────────
const ganTable = {
  rows: test.rows,
  columns: [
    ...test.columns.filter((c) => c.name !== ds.label),
    { kind: /** @type {const} */ ('numeric'), name: 'preds', values: preds },
  ],
};
const tg = performance.now();
const { model: gan, status } = await LucidGan.fit(engine, ganTable, { conditions: ['preds'], epochs, seed, paper });
const ganSeconds = (performance.now() - tg) / 1000;
const h = gan.history;
const last = (a) => (a?.length ? a[a.length - 1] : null);
console.error(
  `${tag}: LUCID-GAN ${paper ? 'paper' : 'consistency'} ${epochs} epochs: ${status}, ${ganSeconds.toFixed(1)} s; ` +
    `loss_g ${last(h.lossG)?.toFixed(3)} loss_d ${last(h.lossD)?.toFixed(3)} loss_cond ` +
    `${last(h.lossCond)?.toFixed(4)}`,
);

const sample = (cond, fix, s) => gan.sample({ n, conditions: { preds: cond }, fix, condVector: 'zero', seed: s });
const pos = sample(1, [], seed + 1).table;
const neg = sample(0, [], seed + 2).table;
const sPos = clf.predictProba(engine, pos);
const sNeg = clf.predictProba(engine, neg);
const scores = new Float64Array(2 * n);
scores.set(sPos);
scores.set(sNeg, n);
const cond = new Float64Array(2 * n);
cond.fill(1, 0, n);
const v = validity(scores, cond, { model: tag, column: 'preds', source: 'given' });
console.error(
  `${tag}: validity positive ${(100 * (v.positive.rate ?? NaN)).toFixed(1)}% (mean score ` +
    `${(v.positive.meanScore ?? NaN).toFixed(3)}), negative ${(100 * (v.negative.rate ?? NaN)).toFixed(1)}% ` +
    `(mean ${(v.negative.meanScore ?? NaN).toFixed(3)})`,
);

// ── Fig. 2 / Fig. 3: distributions of the shown features ──────────────────────────────────────
/** @param {import('../dist/src/data/table.js').Table} t @param {string} name */
const col = (t, name) => getColumn(t, name, 'lucid-gan-paper');
/** @param {import('../dist/src/data/table.js').Table} t @param {string} name */
const catCol = (t, name) => {
  const c = col(t, name);
  if (c.kind !== 'categorical') throw new Error(`${name}: a categorical column`);
  return c;
};
/**
 * A distribution's bins as labels: its categories, or its numeric bins as (lo, hi]. @param
 * {import('../dist/src/audit/types.js').Distribution} d
 */
const binLabels = (d) => {
  if (d.categories) return d.categories;
  const edges = d.edges ?? [];
  return edges.slice(0, -1).map((e, k) => `(${+e.toFixed(2)}, ${+edges[k + 1].toFixed(2)}]`);
};
const dcsv = ['feature,bin,positive_share,negative_share,real_share,gap_pos_minus_neg'];
const dists = [];
for (const f of P.shown) {
  const d = distribution(
    f,
    [
      { name: 'positive canonical (preds=1)', column: col(pos, f) },
      { name: 'negative canonical (preds=0)', column: col(neg, f) },
      { name: 'test data', column: col(test, f) },
    ],
    drop.includes(f) ? 'proxy' : P.groups.includes(f) ? 'protected' : 'feature',
  );
  dists.push(d);
  const labels = binLabels(d);
  labels.forEach((b, k) =>
    dcsv.push(
      [
        f,
        JSON.stringify(b),
        d.series[0].share[k].toFixed(4),
        d.series[1].share[k].toFixed(4),
        d.series[2].share[k].toFixed(4),
        (d.series[0].share[k] - d.series[1].share[k]).toFixed(4),
      ].join(','),
    ),
  );
  const fig = values.view === 'proxy' ? 'fig3' : 'fig2';
  writeFileSync(
    join(dir, `${fig}-${f.replace(/[^A-Za-z0-9]+/g, '_')}.svg`),
    distributionChart(d, { title: `${values.dataset} ${values.view} (${values.model}, ${values.mode}): ${f}` }),
  );
}
writeFileSync(join(dir, 'distributions.csv'), dcsv.join('\n') + '\n');

// ── Fig. 4: intersectional (direct view only) ─────────────────────────────────────────────────
const inter = [];
if (values.view === 'direct') {
  const icsv = ['fixed,set,rows,fix_satisfied,fix_training_rows,race,share'];
  const sexes = catCol(test, P.sex).categories;
  let k = 0;
  for (const extra of [[], [P.third]]) {
    for (const sx of sexes) {
      const fix = /** @type {[string, string][]} */ ([[P.sex, sx], ...extra]);
      for (const [side, c] of /** @type {[string, number][]} */ ([
        ['positive', 1],
        ['negative', 0],
      ])) {
        const r = gan.sample({ n, conditions: { preds: c }, fix, seed: seed + 50 + k++ });
        const rc = catCol(r.table, P.race);
        const counts = new Map();
        for (let i = 0; i < r.table.rows; i++) {
          const l = rc.categories[rc.codes[i]];
          counts.set(l, (counts.get(l) ?? 0) + 1);
        }
        const sc = clf.predictProba(engine, r.table);
        let ok = 0;
        for (const s of sc) ok += (c === 1 ? s > 0.5 : s < 0.5) ? 1 : 0;
        const fixed = fix.map(([a, b]) => `${a}=${b}`).join(' & ');
        for (const race of rc.categories)
          icsv.push(
            [
              JSON.stringify(fixed),
              side,
              r.table.rows,
              r.fixSatisfied?.toFixed(3),
              r.fixTraining?.rows,
              JSON.stringify(race),
              ((counts.get(race) ?? 0) / r.table.rows).toFixed(4),
            ].join(','),
          );
        inter.push({
          fixed,
          side,
          fixSatisfied: r.fixSatisfied,
          fixTraining: r.fixTraining,
          validity: ok / r.table.rows,
          race: Object.fromEntries(rc.categories.map((x) => [x, (counts.get(x) ?? 0) / r.table.rows])),
        });
      }
    }
  }
  writeFileSync(join(dir, 'intersections.csv'), icsv.join('\n') + '\n');
  // Fig. 4 as grouped bars: the race distribution of the positive sets, one series per fixed sex
  for (const extra of [[], [P.third]]) {
    const sets = inter.filter((x) => x.side === 'positive' && x.fixed.split(' & ').length === 1 + extra.length);
    const races = catCol(test, P.race).categories;
    /** @type {import('../dist/src/audit/types.js').Distribution} */
    const d = {
      feature: P.race,
      kind: 'categorical',
      categories: races,
      series: sets.map((x) => ({ name: `positive, ${x.fixed}`, share: races.map((r) => x.race[r] ?? 0), n })),
      js: 0,
      role: 'protected',
    };
    writeFileSync(
      join(dir, `fig4-${extra.length ? 'sex-and-' + extra[0][0].replace(/[^A-Za-z0-9]+/g, '_') : 'sex'}.svg`),
      groupedBars(d, {
        title:
          `${values.dataset}: race in the positive canonical set, ` +
          `${extra.length ? `${extra[0][0]}=${extra[0][1]} and ` : ''}sex fixed`,
        subtitle: 'share of 1000 generated rows per race',
      }),
    );
  }
}

// ── LUCID beside LUCID-GAN (direct view): Fig. 2's light-green bars, Fig. 5 ────────────────────
let lucid = null;
if (values.view === 'direct') {
  const tl = performance.now();
  const r = invert(engine, clf, { prefer: 'positive', n, seed });
  const start = lucidStart(engine, clf.preprocessor, n, seed);
  let ok = 0;
  for (const p of r.predSnapped) ok += p >= 0.5 ? 1 : 0;
  const lcsv = ['feature,bin,lucid_positive_share,uniform_start_share,real_share'];
  const realism = [];
  for (const f of P.shown) {
    const d = distribution(
      f,
      [
        { name: 'LUCID positive', column: col(r.table, f) },
        { name: 'uniform start', column: col(start, f) },
        { name: 'test data', column: col(test, f) },
      ],
      P.groups.includes(f) ? 'protected' : 'feature',
    );
    const labels = binLabels(d);
    labels.forEach((b, k) =>
      lcsv.push(
        [
          f,
          JSON.stringify(b),
          d.series[0].share[k].toFixed(4),
          d.series[1].share[k].toFixed(4),
          d.series[2].share[k].toFixed(4),
        ].join(','),
      ),
    );
    writeFileSync(
      join(dir, `lucid-${f.replace(/[^A-Za-z0-9]+/g, '_')}.svg`),
      distributionChart(d, { title: `${values.dataset} (${values.model}): LUCID's positive set, ${f}` }),
    );
    // realism: each positive set against the test data, binned together
    const jsGan = distribution(
      f,
      [
        { name: 'LUCID-GAN positive', column: col(pos, f) },
        { name: 'test data', column: col(test, f) },
      ],
      'feature',
    ).js;
    const jsLucid = distribution(
      f,
      [
        { name: 'LUCID positive', column: col(r.table, f) },
        { name: 'test data', column: col(test, f) },
      ],
      'feature',
    ).js;
    realism.push({
      feature: f,
      jsGanToReal: jsGan,
      jsLucidToReal: jsLucid,
      lucidPositive: d.series[0].share,
      uniformStart: d.series[1].share,
      real: d.series[2].share,
      categories: d.categories,
      edges: d.edges,
    });
  }
  writeFileSync(join(dir, 'lucid.csv'), lcsv.join('\n') + '\n');
  lucid = {
    n,
    epochs: r.loss.length,
    success: ok / n,
    finalLoss: r.loss[r.loss.length - 1],
    seconds: (performance.now() - tl) / 1000,
    realism,
  };
  console.error(
    `${tag}: LUCID ${n}×${r.loss.length}: ${(100 * lucid.success).toFixed(1)}% of snapped rows scored positive, ` +
      `${lucid.seconds.toFixed(1)} s; JS to the test data (LUCID-GAN / LUCID): ` +
      `${realism.map((x) => `${x.feature} ${x.jsGanToReal.toFixed(2)}/${x.jsLucidToReal.toFixed(2)}`).join(', ')}`,
  );
}

const summary = {
  tag,
  dataset: values.dataset,
  model: values.model,
  view: values.view,
  mode: values.mode,
  drop,
  seed,
  testAccuracy: acc,
  bestEpoch,
  gan: { epochs, status, seconds: ganSeconds, lossG: last(h.lossG), lossD: last(h.lossD), lossCond: last(h.lossCond) },
  validity: {
    positive: v.positive.rate,
    negative: v.negative.rate,
    meanScorePositive: v.positive.meanScore,
    meanScoreNegative: v.negative.meanScore,
  },
  distributions: dists.map((d) => ({
    feature: d.feature,
    js: d.js,
    categories: d.categories,
    edges: d.edges,
    positive: d.series[0].share,
    negative: d.series[1].share,
    real: d.series[2].share,
  })),
  intersections: inter,
  lucid,
  seconds: lap(),
};
writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1));
console.error(`${tag}: done in ${summary.seconds.toFixed(1)} s -> ${dir}`);
gan.dispose();
clf.dispose();
