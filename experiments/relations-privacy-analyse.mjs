#!/usr/bin/env node
// EXPERIMENTS.md §10.4: do the canonical sets keep the data's relations, and
// do they copy rows? Recounted from each audit's written sets and the real files, the same way for every
// tree (older trees record no relations):
//
//   node experiments/relations-privacy-analyse.mjs --out /tmp/exp34 [--labels before,final] [--seeds 0,1,2]
//
// Relations: the dependencies and arithmetic relations of the audited rows on the GAN's columns, and
// per pooled set the share of rows breaking each minus the real rows' share (the largest per audit).
// Privacy: every canonical row's distance to the closest audited row against the same for up to 2,000
// held-out rows of the same population no GAN saw (privacyDcr). Writes relations-privacy.md and .json.
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTable } from '../dist/src/node/read-table.js';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { Rng } from '../dist/src/engine/rng.js';
import { concatRows } from '../dist/src/data/table.js';
import { findDependencies } from '../dist/src/data/dependencies.js';
import { checkRelations, findRelations } from '../dist/src/data/relations.js';
import { privacyDcr, PRIVACY_RULE } from '../dist/src/methods/quality/beyond.js';
import { HELD_OUT, SETTINGS } from './canonical-settings.mjs';

const { values: parsed } = parseArgs({
  options: {
    out: { type: 'string', default: 'out/experiments/canonical' },
    labels: { type: 'string', default: 'before,final' },
    datasets: { type: 'string', default: 'adult,compas,sim,adult1000,wages' },
    seeds: { type: 'string', default: '0,1,2' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { out: string, labels: string, datasets: string, seeds: string }} */ (parsed);
const OUT = resolve(values.out);
const DATA = join(OUT, 'data');
const engine = await initNodeEngine();
const pct = (x) => (x === null || !Number.isFinite(x) ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const pp = (x) => (x === null || !Number.isFinite(x) ? 'n/a' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} pt`);

const rows = [];
for (const name of values.datasets.split(',')) {
  const s = SETTINGS[name];
  const dataCache = new Map();
  for (const label of values.labels.split(',')) {
    for (const seed of values.seeds.split(',').map(Number)) {
      const dir = join(OUT, label, name, `seed-${seed}`);
      if (!existsSync(join(dir, 'audit.json'))) continue;
      const audit = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
      const features = audit.checks.fidelity.map((f) => f.feature);
      // the audited rows and the held-out rows on the GAN's columns, each read once per setting
      if (!dataCache.has('real')) {
        const real = (await readTable(join(DATA, s.data))).table;
        const cats = real.columns.filter((c) => c.kind === 'categorical').map((c) => c.name);
        const held = (await readTable(join(DATA, HELD_OUT[name]), { categorical: cats.filter((c) => c !== s.label) }))
          .table;
        dataCache.set('real', real).set('held', held).set('cats', cats);
      }
      const cats = dataCache.get('cats');
      const on = (t) => ({
        rows: t.rows,
        columns: features.map((f) => {
          const c = t.columns.find((x) => x.name === f);
          if (!c) throw new Error(`${name}: no column ${f}`);
          return c;
        }),
      });
      const real = on(dataCache.get('real'));
      const held = on(dataCache.get('held'));
      const read = async (f) =>
        on((await readTable(join(dir, f), { categorical: cats.filter((c) => features.includes(c)) })).table);
      const pos = await read('canonical-positive.csv');
      const neg = await read('canonical-negative.csv');
      // relations: recounted; the audit's own where it has them
      const deps = findDependencies(real);
      const rels = findRelations(real);
      const checks = checkRelations(deps, rels, [], real, { positive: pos, negative: neg });
      const share = (x) => (x.rows > 0 ? x.breaks / x.rows : 0);
      const excess = checks.map((c) => ({
        text: c.text,
        real: share(c.real),
        positive: share(c.positive),
        negative: share(c.negative),
        excess: Math.max(share(c.positive), share(c.negative)) - share(c.real),
      }));
      const worst = excess.reduce(
        (m, x) => (m === null || x.excess > m.excess ? x : m),
        /** @type {(typeof excess)[number] | null} */ (null),
      );
      const own = audit.checks.relations ?? null;
      // privacy on held-out rows: both sets pooled against the audited rows
      const gen = concatRows([pos, neg], 'canonical sets');
      const dcr = privacyDcr(
        real,
        held,
        gen,
        features.map((f) => ({ name: f, kind: real.columns.find((c) => c.name === f).kind })),
        new Rng(engine, 0),
      );
      const privacyOk =
        dcr.generated.exactShare <= dcr.heldOut.exactShare + PRIVACY_RULE.copyMargin &&
        dcr.ratioP5 >= PRIVACY_RULE.p5Ratio;
      const draws = audit.canonical.draws ?? [];
      const drawn = draws.reduce((a, d) => a + d.positive.drawn + d.negative.drawn, 0);
      const kept = draws.reduce((a, d) => a + d.positive.kept + d.negative.kept, 0);
      const contradicting = draws.reduce((a, d) => a + d.positive.contradicting + d.negative.contradicting, 0);
      const b = audit.checks.beyond ?? null;
      const side = (x) =>
        x
          ? {
              pairTrends: x.pairTrends.score,
              pairFloor: x.pairTrends.floor,
              detection: x.detection.score,
              detectionFloor: x.detection.floor,
              auc: x.detection.auc,
            }
          : null;
      rows.push({
        dataset: name,
        label,
        seed,
        relations: excess,
        worst,
        own,
        relationsOk: worst === null || worst.excess <= 0.01,
        privacy: {
          generated: dcr.generated,
          heldOut: dcr.heldOut,
          ratioP5: dcr.ratioP5,
          rows: dcr.rows,
          trainTotal: dcr.trainTotal,
        },
        privacyOk,
        drawsPerKept: kept ? drawn / kept : null,
        contradictingShare: drawn ? contradicting / drawn : null,
        beyond: b ? { positive: side(b.positive), negative: side(b.negative) } : null,
      });
      process.stdout.write(
        `${label} ${name} seed ${seed}: relations ${worst ? `${worst.text} ${pp(worst.excess)}` : 'none'}; copies ` +
          `${pct(dcr.generated.exactShare)} (held-out ${pct(dcr.heldOut.exactShare)}), p5 ratio ` +
          `${dcr.ratioP5.toFixed(2)}\n`,
      );
    }
  }
}

const md = [
  '# §10.4 relations and privacy (recounted from the written sets)',
  '',
  '| data | tree | seed | relation with the largest excess | real | positive | negative | excess | copies (held-out) ' +
    '| p5 (held-out) | ratio | drawn per kept | contradicting drawn |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of rows) {
  const w = r.worst;
  md.push(
    `| ${r.dataset} | ${r.label} | ${r.seed} | ${w ? w.text : '(none)'} | ${w ? pct(w.real) : ''} | ` +
      `${w ? pct(w.positive) : ''} | ${w ? pct(w.negative) : ''} | ` +
      `${w ? pp(w.excess) : ''}${r.relationsOk ? '' : ' ✗'} | ${pct(r.privacy.generated.exactShare)} ` +
      `(${pct(r.privacy.heldOut.exactShare)}) | ${r.privacy.generated.p5.toFixed(4)} ` +
      `(${r.privacy.heldOut.p5.toFixed(4)}) | ${r.privacy.ratioP5.toFixed(2)}${r.privacyOk ? '' : ' ✗'} | ` +
      `${r.drawsPerKept === null ? 'n/a' : r.drawsPerKept.toFixed(2)} | ${pct(r.contradictingShare)} |`,
  );
}
md.push(
  '',
  "## The audit's own figures beyond single columns (final tree; floor in brackets)",
  '',
  '| data | seed | pair trends + | pair trends − | detection + | detection − |',
  '|---|---|---|---|---|---|',
);
for (const r of rows.flatMap((x) => (x.beyond ? [{ ...x, beyond: x.beyond }] : []))) {
  const f = (x, k, fl) => (x ? `${x[k].toFixed(3)} (${x[fl].toFixed(3)})` : 'n/a');
  md.push(
    `| ${r.dataset} | ${r.seed} | ${f(r.beyond.positive, 'pairTrends', 'pairFloor')} | ` +
      `${f(r.beyond.negative, 'pairTrends', 'pairFloor')} | ` +
      `${f(r.beyond.positive, 'detection', 'detectionFloor')} | ` +
      `${f(r.beyond.negative, 'detection', 'detectionFloor')} |`,
  );
}
for (const label of values.labels.split(',')) {
  const mine = rows.filter((r) => r.label === label);
  if (!mine.length) continue;
  md.push(
    '',
    `**${label}**: relations within 1 point in ${mine.filter((r) => r.relationsOk).length} of ${mine.length} audits; ` +
      `privacy rule held in ${mine.filter((r) => r.privacyOk).length} of ${mine.length}.`,
  );
}
writeFileSync(join(OUT, 'relations-privacy.md'), md.join('\n') + '\n');
writeFileSync(join(OUT, 'relations-privacy.json'), JSON.stringify(rows, null, 1));
process.stdout.write(`wrote ${join(OUT, 'relations-privacy.md')}\n`);
