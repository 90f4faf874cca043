#!/usr/bin/env node
// Issue #8 §2: ground truth with the bias simulator. For each planted kind (fair, direct, proxy,
// intersectional) and seed: simulate training and audit data (independent draws), train the audited
// model (logistic, as `lucid demo`; proxy: trained WITHOUT sex and group), run the audit (runAudit)
// and keep the numbers the decision rule of src/audit/flags.ts reads. Writes one JSON per run to
// out/experiments/ground-truth/runs/ (so the analysis can be redone without re-running audits).
//
//   npm run build && node experiments/ground-truth.mjs [--kinds fair,direct,proxy,intersectional]
//        [--seeds 0,1,2,3,4] [--rows 2000] [--gan-epochs 80|auto] [--out out/experiments/ground-truth]
//        [--paper] [--lite] [--conditional]
// --conditional (EXPERIMENTS.md §2.6): 300-row intersection and conditional sets (one protected category
// fixed), no FALE bootstrap; stores the conditional gaps (flags.ts conditionalGaps) as `conditional`.
// Then: node experiments/ground-truth-analyse.mjs
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { Rng } from '../dist/src/engine/rng.js';
import { simulate } from '../dist/src/data/simulator.js';
import { Classifier } from '../dist/src/models/classifier/index.js';
import { builtinBlackBox } from '../dist/src/models/blackbox.js';
import { runAudit } from '../dist/src/audit/run.js';
import { canonicalGaps, cellGaps, conditionalGaps, parityGaps } from '../dist/src/audit/flags.js';

const { values } = parseArgs({
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
  },
});
const kinds = values.kinds.split(',');
const seeds = values.seeds.split(',').map(Number);
const rows = Number(values.rows);
// 'auto': the audit's own default (ganEpochsFor: about 1500 generator steps)
const ganEpochs = values['gan-epochs'] === 'auto' ? undefined : Number(values['gan-epochs']);
const runsDir = join(values.out, values.paper ? 'runs-paper' : 'runs');
mkdirSync(runsDir, { recursive: true });

/** The experiment's settings; the CI test (test/experiments/ground-truth.test.ts) uses the same. */
export function settingsFor(seed) {
  return { trainSeed: 1000 + seed, auditSeed: 2000 + seed, auditRngSeed: seed };
}

const engine = await initNodeEngine();
for (const kind of kinds) {
  for (const seed of seeds) {
    const t0 = performance.now();
    const s = settingsFor(seed);
    const train = simulate(new Rng(engine, s.trainSeed), { n: rows, bias: kind });
    const data = simulate(new Rng(engine, s.auditSeed), { n: rows, bias: kind });
    const drop = kind === 'proxy' ? train.protected.slice() : [];
    const { model: clf } = Classifier.train(engine, train.table, { label: train.label, positive: train.favourable, drop, hidden: [], epochs: 40, valFraction: 0, seed });
    let r;
    try {
      r = await runAudit(engine, data.table, {
        label: data.label,
        positive: data.favourable,
        protected: data.protected,
        model: builtinBlackBox(engine, clf, `logistic (${kind}${drop.length ? ', without sex, group' : ''})`),
        seed: s.auditRngSeed,
        ganEpochs,
        ganMode: values.paper ? 'paper' : 'consistency',
        n: 1000,
        intersectionRows: values.lite ? 0 : 300,
        faleBootstrap: values.lite || values.conditional ? 0 : 20,
      });
    } finally {
      clf.dispose();
    }
    const sec = (performance.now() - t0) / 1000;
    const fale = r.fale.map((f) => ({
      attribute: f.attribute,
      unprivileged: f.unprivileged,
      overall: f.result.overall,
      features: f.result.features.map((x) => ({ feature: x.feature, range: Math.max(...x.values) - Math.min(...x.values), values: x.values, categories: x.categories, edges: x.edges })),
    }));
    const out = {
      kind,
      seed,
      settings: { ...s, rows, ganEpochs: r.meta.gan.epochs, paper: values.paper, model: 'logistic', drop },
      truth: { rule: data.truth.rule, disadvantaged: data.truth.disadvantaged, reads: data.truth.reads },
      gaps: canonicalGaps(r),
      cells: cellGaps(r),
      parity: parityGaps(r),
      conditional: conditionalGaps(r),
      conditionalSets: (r.conditional ?? []).map((c) => ({ fixed: c.fixed, rows: c.rows, fixTraining: c.fixTraining, fixSatisfied: c.fixSatisfied })),
      validity: r.canonical.validity ? { pos: r.canonical.validity.positive.rate, neg: r.canonical.validity.negative.rate } : null,
      distributions: r.canonical.distributions.map((d) => ({ feature: d.feature, role: d.role, js: d.js, categories: d.categories, series: d.series.map((x) => ({ name: x.name, share: x.share, n: x.n })) })),
      fale,
      timings: r.meta.timings,
      seconds: sec,
    };
    writeFileSync(join(runsDir, `${kind}-${seed}.json`), JSON.stringify(out, null, 1));
    const g = [...out.gaps, ...out.conditional].map((x) => `${x.key} ${x.d.toFixed(3)}`).join(', ');
    console.log(`${kind} seed ${seed}: ${sec.toFixed(1)} s; validity ${out.validity ? `${(100 * out.validity.pos).toFixed(1)}/${(100 * out.validity.neg).toFixed(1)}` : '-'}; gaps ${g}`);
  }
}
