#!/usr/bin/env node
// Collects the LUCID-GAN paper runs (out/experiments/lucid-gan/*/summary.json), their wall times
// (out/experiments/runs.json) and FALE (out/experiments/fale/summary.json) into
// out/experiments/summary.md: the tables EXPERIMENTS.md quotes. `npm run experiment:summary`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = 'out/experiments';
const lg = join(root, 'lucid-gan');
const S = existsSync(lg)
  ? readdirSync(lg)
      .filter((d) => existsSync(join(lg, d, 'summary.json')))
      .map((d) => JSON.parse(readFileSync(join(lg, d, 'summary.json'), 'utf8')))
  : [];
const runs = existsSync(join(root, 'runs.json')) ? JSON.parse(readFileSync(join(root, 'runs.json'), 'utf8')) : [];
const wall = (tag) =>
  runs
    .filter((r) =>
      r.command.includes(
        tag
          .split('-')
          .join(' ')
          .replace(/^(\w+) (\w+) (\w+) (\w+)$/, '--dataset $1 --model $2 --view $3 --mode $4'),
      ),
    )
    .map((r) => r.seconds)
    .pop();
const pct = (x) => (x === null || x === undefined ? '-' : (100 * x).toFixed(1));
const pp = (x) => (x >= 0 ? '+' : '') + (100 * x).toFixed(1);
const md = [];
const order = (a, b) =>
  a.dataset.localeCompare(b.dataset) ||
  a.view.localeCompare(b.view) ||
  a.model.localeCompare(b.model) ||
  a.mode.localeCompare(b.mode);
S.sort(order);

md.push('### Runs: accuracy, GAN losses, validity, time');
md.push('');
md.push(
  '| dataset | model | view | GAN mode | epochs | test acc. | loss_g / loss_d / loss_cond (last step) | valid pos ' +
    '(score > 0.5 at preds=1) | valid neg (< 0.5 at preds=0) | mean score pos / neg | GAN fit s | run s (wall, ' +
    'incl. model, sampling) |',
);
md.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const s of S)
  md.push(
    `| ${s.dataset} | ${s.model} | ${s.view} | ${s.mode} | ${s.gan.epochs} | ${pct(s.testAccuracy)} | ` +
      `${s.gan.lossG?.toFixed(3)} / ${s.gan.lossD?.toFixed(3)} / ${s.gan.lossCond?.toFixed(4)} | ` +
      `${pct(s.validity.positive)} | ${pct(s.validity.negative)} | ${s.validity.meanScorePositive.toFixed(3)} / ` +
      `${s.validity.meanScoreNegative.toFixed(3)} | ${s.gan.seconds.toFixed(1)} | ` +
      `${wall(s.tag) ?? s.seconds.toFixed(1)} |`,
  );
md.push('');

// validity over seeds (seed 0 from lucid-gan/, further seeds from lucid-gan-seeds/s*/; experiments/validity-seeds.sh)
{
  const seedsRoot = join(root, 'lucid-gan-seeds');
  const all = S.map((s) => ({ ...s }));
  if (existsSync(seedsRoot))
    for (const sd of readdirSync(seedsRoot))
      for (const t of readdirSync(join(seedsRoot, sd))) {
        const f = join(seedsRoot, sd, t, 'summary.json');
        if (existsSync(f)) all.push(JSON.parse(readFileSync(f, 'utf8')));
      }
  const groups = new Map();
  for (const s of all.filter((x) => x.view === 'direct')) {
    const k = `${s.dataset}|${s.model}|${s.mode}|${s.gan.epochs}`;
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  md.push('### Validity by seed (direct view; the seed drives the classifier and the GAN)');
  md.push('');
  md.push('| dataset | model | GAN mode | epochs | seeds | valid pos per seed | valid neg per seed | mean pos / neg |');
  md.push('|---|---|---|---|---|---|---|---|');
  for (const [k, xs] of [...groups].sort()) {
    xs.sort((a, b) => a.seed - b.seed);
    const [dataset, model, mode, epochs] = k.split('|');
    const m = (side) => ((100 * xs.reduce((a, x) => a + x.validity[side], 0)) / xs.length).toFixed(1);
    md.push(
      `| ${dataset} | ${model} | ${mode} | ${epochs} | ${xs.map((x) => x.seed).join(', ')} | ` +
        `${xs.map((x) => pct(x.validity.positive)).join(', ')} | ` +
        `${xs.map((x) => pct(x.validity.negative)).join(', ')} | ${m('positive')} / ${m('negative')} |`,
    );
  }
  md.push('');
}

// gaps of the protected categories: positive share − negative share (percentage points)
md.push(
  '### Canonical gaps: share in the positive set − share in the negative set (percentage points), 1000 rows each',
);
md.push('');
const cats = (s, f) => s.distributions.find((d) => d.feature === f);
const meanOf = (d, which) => {
  if (!d.edges) return null;
  let m = 0;
  d[which].forEach((w, k) => (m += (w * (d.edges[k] + d.edges[k + 1])) / 2));
  return m;
};
for (const ds of ['adult', 'compas']) {
  const rows = S.filter((s) => s.dataset === ds);
  if (!rows.length) continue;
  const feats = rows[0].distributions.map((d) => d.feature);
  md.push(`**${ds}**`);
  md.push('');
  md.push(`| feature = value | ${rows.map((s) => `${s.model} ${s.view} ${s.mode}`).join(' | ')} |`);
  md.push(`|---|${rows.map(() => '---').join('|')}|`);
  for (const f of feats) {
    const d0 = cats(rows[0], f);
    if (d0.categories) {
      for (const c of d0.categories) {
        const cells = rows.map((s) => {
          const d = cats(s, f);
          const k = d.categories.indexOf(c);
          return k < 0 ? '-' : pp(d.positive[k] - d.negative[k]);
        });
        md.push(`| ${f} = ${c} | ${cells.join(' | ')} |`);
      }
    } else {
      md.push(
        `| ${f}: mean pos / neg (real) | ${rows
          .map((s) => {
            const d = cats(s, f);
            return (
              `${(meanOf(d, 'positive') ?? NaN).toFixed(1)} / ${(meanOf(d, 'negative') ?? NaN).toFixed(1)} ` +
              `(${(meanOf(d, 'real') ?? NaN).toFixed(1)})`
            );
          })
          .join(' | ')} |`,
      );
    }
  }
  md.push('');
}

md.push('### Fig. 4: race in canonical sets with sex (and a third value) fixed, direct view');
md.push('');
for (const s of S.filter((x) => x.view === 'direct' && x.intersections.length)) {
  const races = Object.keys(s.intersections[0].race);
  md.push(`**${s.tag}**`);
  md.push('');
  md.push(`| fixed | set | fix held | training rows | valid | ${races.join(' | ')} |`);
  md.push(`|---|---|---|---|---|${races.map(() => '---').join('|')}|`);
  for (const x of s.intersections)
    md.push(
      `| ${x.fixed} | ${x.side} | ${pct(x.fixSatisfied)} | ${x.fixTraining?.rows ?? '-'} | ${pct(x.validity)} | ` +
        `${races.map((r) => pct(x.race[r])).join(' | ')} |`,
    );
  md.push('');
}

const fp = join(root, 'fale', 'summary.json');
if (existsSync(fp)) {
  const F = JSON.parse(readFileSync(fp, 'utf8'));
  md.push('### FALE (SPD, sex = Female unprivileged), Adult test file');
  md.push('');
  for (const m of F) {
    md.push(
      `**${m.model}**: overall SPD ${m.overall.toFixed(4)} (${m.seconds.toFixed(1)} s with 200 bootstrap replicates)`,
    );
    md.push('');
    for (const f of m.features) {
      md.push(`| ${f.feature} | ${f.edges.map((e) => +e.toFixed(2)).join(' | ')} |`);
      md.push(`|---|${f.edges.map(() => '---').join('|')}|`);
      md.push(`| FALE | ${f.values.map((v) => v.toFixed(3)).join(' | ')} |`);
      if (f.ci)
        md.push(
          `| 95% band | ${f.values
            .map((_, k) => (f.ci.lower[k] === null ? '-' : `${f.ci.lower[k].toFixed(3)}…${f.ci.upper[k].toFixed(3)}`))
            .join(' | ')} |`,
        );
      md.push(
        `| rows in bin (F/M) | – | ` +
          `${f.counts.unprivileged.map((u, k) => `${u}/${f.counts.privileged[k]}`).join(' | ')} |`,
      );
      md.push('');
    }
  }
}
writeFileSync(join(root, 'summary.md'), md.join('\n'));
console.log(md.join('\n'));
