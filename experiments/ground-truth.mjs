#!/usr/bin/env node
// EXPERIMENTS.md §2: ground truth with the bias simulator. For each planted kind (fair, direct, proxy,
// intersectional) and seed: simulate training and audit data (independent draws), train the audited
// model (logistic, as `lucid demo`; proxy: trained WITHOUT sex and group), run the audit (runAudit)
// and keep the numbers the decision rule of src/audit/flags.ts reads. Writes one JSON per run to
// out/experiments/ground-truth/runs/ (so the analysis can be redone without re-running audits).
//
//   npm run build && node experiments/ground-truth.mjs [--kinds fair,direct,proxy,intersectional]
//        [--seeds 0,1,2,3,4] [--rows 2000] [--gan-epochs 80|auto] [--out out/experiments/ground-truth]
//        [--paper] [--lite] [--conditional] [--model logistic|mlp] [--set-rows 300]
// --conditional (EXPERIMENTS.md §2.6): 300-row intersection and conditional sets (one protected category
// fixed), no FALE bootstrap; stores the conditional gaps (flags.ts conditionalGaps) as `conditional`.
// --model mlp (EXPERIMENTS.md §2.7): the audited model is the built-in default MLP (TRAIN_DEFAULTS.hidden,
// 64-32, with the library's MLP learning rate and weight decay) instead of logistic regression; every
// other setting as for the logistic model. Each run also stores the audited model's positivity per
// sex × group cell of the audit data (`modelCells`; read by no rule).
// --set-rows N (EXPERIMENTS.md §2.8): rows of each intersection and conditional set (default 300).
// Then: node experiments/ground-truth-analyse.mjs
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { Rng } from '../dist/src/engine/rng.js';
import { simulate } from '../dist/src/data/simulator.js';
import { getColumn } from '../dist/src/data/table.js';
import { Classifier, TRAIN_DEFAULTS } from '../dist/src/models/classifier/index.js';
import { builtinBlackBox } from '../dist/src/models/blackbox.js';
import { runAudit } from '../dist/src/audit/run.js';
import {
  canonicalGaps,
  cellGaps,
  cellParityGaps,
  conditionalGaps,
  GROUND_TRUTH_SAMPLING,
  parityGaps,
} from '../dist/src/audit/flags.js';

const { values: parsed } = parseArgs({
  options: {
    kinds: { type: 'string', default: 'fair,direct,proxy,intersectional' },
    seeds: { type: 'string', default: '0,1,2,3,4' },
    rows: { type: 'string', default: '2000' },
    'gan-epochs': { type: 'string', default: '80' },
    out: { type: 'string', default: 'out/experiments/ground-truth' },
    paper: { type: 'boolean', default: false },
    lite: { type: 'boolean', default: false },
    // §2.6: 300-row intersection + conditional sets (the paper's protocol), no FALE bootstrap
    conditional: { type: 'boolean', default: false },
    // §2.7: the audited model (logistic = hidden [], mlp = the library default TRAIN_DEFAULTS.hidden)
    model: { type: 'string', default: 'logistic' },
    // §2.8: rows of each intersection / conditional set
    'set-rows': { type: 'string', default: '300' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & {
 *   kinds: string, seeds: string, rows: string, 'gan-epochs': string, out: string, model: string, 'set-rows': string
 * }} */ (parsed);
// simulate checks each kind
const kinds = /** @type {import('../dist/src/data/simulator.js').BiasKind[]} */ (values.kinds.split(','));
const seeds = values.seeds.split(',').map(Number);
const rows = Number(values.rows);
if (values.model !== 'logistic' && values.model !== 'mlp')
  throw new Error(`--model must be logistic or mlp, got ${values.model}`);
const setRows = Number(values['set-rows']);
if (!Number.isInteger(setRows) || setRows < 1)
  throw new Error(`--set-rows must be a positive integer, got ${values['set-rows']}`);
const hidden = values.model === 'mlp' ? TRAIN_DEFAULTS.hidden.slice() : [];
// 'auto': the audit's own default (ganEpochsFor: about 1500 generator steps, 2400 on few rows)
const ganEpochs = values['gan-epochs'] === 'auto' ? undefined : Number(values['gan-epochs']);
const runsDir = join(values.out, values.paper ? 'runs-paper' : 'runs');
mkdirSync(runsDir, { recursive: true });

/** The experiment's settings; the CI test (test/experiments/ground-truth.test.ts) uses the same. */
export function settingsFor(seed) {
  return { trainSeed: 1000 + seed, auditSeed: 2000 + seed, auditRngSeed: seed };
}

/** The audited model's positivity (P > 0.5) and the label rate per sex × group cell of the audit data. */
function cellPositivity(clf, data) {
  const p = clf.predictProba(engine, data.table, 'ground-truth');
  const [sex, group, label] = ['sex', 'group', data.label].map((name) => {
    const c = getColumn(data.table, name);
    if (c.kind !== 'categorical') throw new Error(`${name}: a categorical column of the simulator`);
    return c;
  });
  const acc = new Map();
  for (let i = 0; i < data.table.rows; i++) {
    const key = `${sex.categories[sex.codes[i]]} & ${group.categories[group.codes[i]]}`;
    const a = acc.get(key) ?? { cell: key, n: 0, predPos: 0, labelPos: 0 };
    a.n++;
    a.predPos += p[i] > 0.5 ? 1 : 0;
    a.labelPos += label.categories[label.codes[i]] === data.favourable ? 1 : 0;
    acc.set(key, a);
  }
  return [...acc.values()].sort((a, b) => a.cell.localeCompare(b.cell));
}

const engine = await initNodeEngine();
for (const kind of kinds) {
  for (const seed of seeds) {
    const t0 = performance.now();
    const s = settingsFor(seed);
    const train = simulate(new Rng(engine, s.trainSeed), { n: rows, bias: kind });
    const data = simulate(new Rng(engine, s.auditSeed), { n: rows, bias: kind });
    const drop = kind === 'proxy' ? train.protected.slice() : [];
    const { model: clf } = Classifier.train(engine, train.table, {
      label: train.label,
      positive: train.favourable,
      drop,
      hidden,
      epochs: 40,
      valFraction: 0,
      seed,
    });
    let r;
    let modelCells;
    try {
      r = await runAudit(engine, data.table, {
        label: data.label,
        positive: data.favourable,
        protected: data.protected,
        model: builtinBlackBox(engine, clf, `${values.model} (${kind}${drop.length ? ', without sex, group' : ''})`),
        seed: s.auditRngSeed,
        ganEpochs,
        ganMode: values.paper ? 'paper' : 'consistency',
        // §2's sampling (one GAN, every row kept), which its bands and results are about
        ...GROUND_TRUTH_SAMPLING,
        n: 1000,
        intersectionRows: values.lite ? 0 : setRows,
        faleBootstrap: values.lite || values.conditional ? 0 : 20,
      });
      modelCells = cellPositivity(clf, data);
    } finally {
      clf.dispose();
    }
    const sec = (performance.now() - t0) / 1000;
    const fale = r.fale.map((f) => ({
      attribute: f.attribute,
      unprivileged: f.unprivileged,
      overall: f.result.overall,
      features: f.result.features.map((x) => ({
        feature: x.feature,
        range: Math.max(...x.values) - Math.min(...x.values),
        values: x.values,
        categories: x.categories,
        edges: x.edges,
      })),
    }));
    const out = {
      kind,
      seed,
      settings: {
        ...s,
        rows,
        setRows,
        ganEpochs: r.meta.gan.epochs,
        paper: values.paper,
        model: values.model,
        hidden,
        drop,
      },
      truth: { rule: data.truth.rule, disadvantaged: data.truth.disadvantaged, reads: data.truth.reads },
      gaps: canonicalGaps(r),
      cells: cellGaps(r),
      parity: parityGaps(r),
      conditional: conditionalGaps(r),
      // §2.9: each sex × group cell's positivity minus the rest's (the heatmap's rates)
      cellParity: cellParityGaps(r),
      conditionalSets: (r.conditional ?? []).map((c) => ({
        fixed: c.fixed,
        rows: c.rows,
        fixTraining: c.fixTraining,
        fixSatisfied: c.fixSatisfied,
      })),
      validity: r.canonical.validity
        ? { pos: r.canonical.validity.positive.rate, neg: r.canonical.validity.negative.rate }
        : null,
      distributions: r.canonical.distributions.map((d) => ({
        feature: d.feature,
        role: d.role,
        js: d.js,
        categories: d.categories,
        series: d.series.map((x) => ({ name: x.name, share: x.share, n: x.n })),
      })),
      fale,
      modelCells,
      timings: r.meta.timings,
      seconds: sec,
    };
    writeFileSync(join(runsDir, `${kind}-${seed}.json`), JSON.stringify(out, null, 1));
    const g = [...out.gaps, ...out.conditional].map((x) => `${x.key} ${x.d.toFixed(3)}`).join(', ');
    console.log(
      `${kind} seed ${seed}: ${sec.toFixed(1)} s; validity ${
        out.validity
          ? `${(100 * (out.validity.pos ?? NaN)).toFixed(1)}/${(100 * (out.validity.neg ?? NaN)).toFixed(1)}`
          : '-'
      }; gaps ${g}`,
    );
  }
}
