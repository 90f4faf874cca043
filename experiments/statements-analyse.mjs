#!/usr/bin/env node
// EXPERIMENTS.md §10: what the audits *say* about their canonical sets, before and after
// the change, from the runs of `experiments/canonical-checks.mjs run --label before|after` (§10.1).
//
//   node experiments/statements-analyse.mjs [--out out/experiments/canonical] [--labels before,after]
//        [--datasets adult,compas,sim,adult1000] [--seeds 0,1,2]
//
// Per audit (its audit.json and run.json; the real rows re-scored by the same model file):
//   Statements   stated values whose stated figure lies outside the real interval at the check's
//                corrected level widened by z·se of the pooled sets (se binomial from the pooled sets'
//                shares and sizes; medians counted apart). "before" stated the sets' figure for every
//                stated value; "after" states the sets' only where statedFrom says so.
//   Recount      (no target) each stated protected value's real shift recomputed from the rows with a
//                binomial 95% interval (no correction); the stated figure outside it widened by 1.96·se.
//   Consistency  (a) protected attributes the sets misrepresent whose stated values carry the sets'
//                size; (b) named features whose pooled JS lies outside its seeds' range, without a note.
//   Stability    the first three named features per seed.
//   Time         the audit's wall time (run.json).
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SETTINGS, protectedOf } from './canonical-settings.mjs';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { readCsv } from '../dist/src/node/csv.js';
import { loadBlackBox } from '../dist/src/node/blackbox.js';
import { assignBin } from '../dist/src/audit/bins.js';
import { cellLabels, getColumn } from '../dist/src/data/table.js';
import { normalQuantile } from '../dist/src/methods/metrics/verdicts.js';

const { values: parsed } = parseArgs({
  options: {
    out: { type: 'string', default: 'out/experiments/canonical' },
    labels: { type: 'string', default: 'before,after' },
    datasets: { type: 'string', default: 'adult,compas,sim,adult1000' },
    seeds: { type: 'string', default: '0,1,2' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { out: string, labels: string, datasets: string, seeds: string }} */ (parsed);
const OUT = resolve(values.out);
const DATA = join(OUT, 'data');
const pp = (x) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const engine = await initNodeEngine();
const realCache = new Map();
/** The real rows of a setting, scored: labels per protected column (binned as the audit bins) and the decisions. */
async function realOf(name, audit) {
  if (realCache.has(name)) return realCache.get(name);
  const s = SETTINGS[name];
  const { table } = await readCsv(join(DATA, s.data), name === 'compas' ? { categorical: [s.label] } : {});
  const model = await loadBlackBox(engine, join(DATA, s.model));
  const p = await model.predict(table);
  const favourable = audit.meta.favourable ?? 'positive';
  const yFav = Uint8Array.from(p, (x) =>
    (x > audit.meta.threshold ? 1 : 0) === (favourable === 'positive' ? 1 : 0) ? 1 : 0,
  );
  const { edges } = protectedOf(s);
  const labels = {};
  for (const c of protectedOf(s).columns) {
    const col = getColumn(table, c);
    const bins = audit.protected.find((x) => x.column === c)?.bins;
    labels[c] =
      edges[c] && bins && col.kind === 'numeric'
        ? Array.from(col.values, (v) => bins.labels[assignBin(v, bins.edges, true)])
        : cellLabels(col);
  }
  const out = { yFav, labels };
  realCache.set(name, out);
  return out;
}

/** The binomial standard error of a difference of two shares p (of n) and q (of m). */
const seDiff = (p, n, q, m) => (n > 0 && m > 0 ? Math.sqrt((p * (1 - p)) / n + (q * (1 - q)) / m) : null);

const rows = [];
for (const label of values.labels.split(',')) {
  for (const name of values.datasets.split(',')) {
    for (const seed of values.seeds.split(',').map(Number)) {
      const dir = join(OUT, label, name, `seed-${seed}`);
      if (!existsSync(join(dir, 'audit.json'))) continue;
      const a = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
      const run = existsSync(join(dir, 'run.json')) ? JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) : null;
      const f = a.findings;
      const nPos = a.canonical.positive.rows;
      const nNeg = a.canonical.negative.rows;
      const fav = a.meta.favourable ?? 'positive';
      const [nF, nU] = fav === 'positive' ? [nPos, nNeg] : [nNeg, nPos];
      const real = await realOf(name, a);
      let stated = 0;
      let inconsistent = 0;
      let medians = 0;
      let recounted = 0;
      let recountOut = 0;
      const examples = [];
      for (const x of [...f.protected, ...f.named]) {
        for (const v of [...x.favoured, ...x.disfavoured]) {
          stated++;
          const check = a.checks.shifts.find((c) => c.feature === x.feature && c.value === v.value);
          // the figure stated: the sets' in the 'before' tree for every stated value; after, where statedFrom says so
          const fromSets = label === 'before' ? true : x.faithful && v.status === 'agrees';
          const figure = fromSets ? v.canonical.pooled : v.real.shift;
          if (v.kind === 'median') {
            medians++;
            continue;
          }
          const [pf, pu] = fav === 'positive' ? [check.positive, check.negative] : [check.negative, check.positive];
          const se = check.canonicalSe ?? seDiff(pf, nF, pu, nU);
          const z = check.real.level ? normalQuantile(1 - check.real.level / 2) : 1.96;
          const w = z * (se ?? 0);
          if (fromSets && !(figure >= check.real.lo - w && figure <= check.real.hi + w)) {
            inconsistent++;
            if (examples.length < 4)
              examples.push(
                `${x.feature} = ${v.value} ${pp(figure)} vs real ${pp(check.real.shift)} [${pp(check.real.lo)}, ` +
                  `${pp(check.real.hi)}]`,
              );
          }
          // the independent recount: protected values only (their labels are the audit's)
          const lab = real.labels[x.feature];
          if (!lab) continue;
          recounted++;
          let nf = 0,
            nu = 0,
            hf = 0,
            hu = 0;
          for (let i = 0; i < lab.length; i++) {
            if (real.yFav[i]) {
              nf++;
              if (lab[i] === v.value) hf++;
            } else {
              nu++;
              if (lab[i] === v.value) hu++;
            }
          }
          const rf = hf / nf;
          const ru = hu / nu;
          const shift = rf - ru;
          const seR = seDiff(rf, nf, ru, nu);
          const w2 = 1.96 * ((seR ?? 0) + (fromSets ? (se ?? 0) : 0));
          if (!(figure >= shift - w2 && figure <= shift + w2)) recountOut++;
        }
      }
      // (a) misrepresented protected attributes stated with the sets' sizes
      const misStated = f.protected
        .filter(
          (x) =>
            !x.faithful &&
            x.favoured.length + x.disfavoured.length > 0 &&
            (label === 'before' || [...x.favoured, ...x.disfavoured].some((v) => v.status === 'agrees' && x.faithful)),
        )
        .map((x) => x.feature);
      // (b) named features whose pooled JS is outside its seeds' range, without a note
      const outside = f.named.filter((x) => x.js.pooled < x.js.min - 1e-12 || x.js.pooled > x.js.max + 1e-12);
      const unnoted = outside.filter((x) => !x.js.outsideSeeds).map((x) => x.feature);
      rows.push({
        label,
        name,
        seed,
        stated,
        inconsistent,
        medians,
        recounted,
        recountOut,
        examples,
        misStated,
        outside: outside.map((x) => x.feature),
        unnoted,
        named: f.named.slice(0, 3).map((x) => x.feature),
        seconds: run?.seconds ?? null,
      });
    }
  }
}

const L = [];
L.push(
  '| label | setting | seed | stated | inconsistent in size | medians (apart) | recounted | outside the recount | ' +
    "misrepresented & stated with the sets' size | named, pooled JS outside seeds (unnoted) | named (first 3) | " +
    'seconds |',
);
L.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  L.push(
    `| ${r.label} | ${r.name} | ${r.seed} | ${r.stated} | ${r.inconsistent} | ${r.medians} | ${r.recounted} | ` +
      `${r.recountOut} | ${r.misStated.join(', ') || '0'} | ${r.outside.length} (${r.unnoted.length}) | ` +
      `${r.named.join(', ') || '—'} | ${r.seconds === null ? '–' : r.seconds.toFixed(1)} |`,
  );
L.push('');
for (const label of values.labels.split(',')) {
  const rs = rows.filter((r) => r.label === label);
  if (!rs.length) continue;
  const sum = (k) => rs.reduce((s, r) => s + r[k], 0);
  L.push(
    `**${label}**: ${rs.length} audits; stated ${sum('stated')}, inconsistent in size ${sum('inconsistent')} ` +
      `(medians apart: ${sum('medians')}); recount: ${sum('recountOut')} of ${sum('recounted')} outside; ` +
      `misrepresented and stated with the sets' size in ${rs.filter((r) => r.misStated.length).length} audits; ` +
      `pooled JS outside its seeds' range unnoted: ${rs.reduce((s, r) => s + r.unnoted.length, 0)}.`,
  );
  for (const name of values.datasets.split(',')) {
    const ns = rs.filter((r) => r.name === name);
    if (!ns.length) continue;
    const same = ns.every((r) => JSON.stringify(r.named) === JSON.stringify(ns[0].named));
    L.push(
      `- ${name}: named (first 3) per seed ${ns.map((r) => `[${r.named.join(', ')}]`).join(' ')}: ` +
        `${same ? 'the same' : 'they differ'}; wall time median ` +
        `${median(ns.map((r) => r.seconds).filter((x) => x !== null)).toFixed(1)} s${
          ns.some((r) => r.examples.length)
            ? `; e.g. ${ns
                .flatMap((r) => r.examples)
                .slice(0, 3)
                .join('; ')}`
            : ''
        }`,
    );
  }
  L.push('');
}
const text = L.join('\n') + '\n';
writeFileSync(join(OUT, 'statements-summary.md'), text);
process.stdout.write(text);
