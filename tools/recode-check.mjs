#!/usr/bin/env node
// One decision, one verdict, on any data file: the same decisions coded the other way must get the same
// verdicts. Reads a scored file (a label and a predictions column of P(positive)), codes it the other
// way in memory (the label's two values swapped in meaning: the other value named positive,
// --favourable flipped, the scores 1 − p), runs the group metrics on both
// (each attribute and their intersection, as lucid metrics and lucid audit do), and compares them with
// the metamorphic suites' comparator (test/helpers/metamorphic.ts): every point estimate, Katz
// verdict, reference, four-fifths and LL144 figure. Prints the flagged comparisons of both codings
// side by side, mapped, and exits 1 on any difference.
// 1 − p is exact only to a fixed number of decimals: both codings read the scores rounded to
// --decimals (default 6), so that p and 1 − p are mirror images and no score ties in one coding only.
//   npm run build && node tools/recode-check.mjs --data scored.csv --label Income --positive '>50K' --pred preds
//     --group Sex,Race [--favourable positive] [--decimals 6]
import { parseArgs } from 'node:util';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { readTable } from '../dist/src/node/read-table.js';
import { groupMetrics, labelValues, positiveOf, recodedMetric } from '../dist/src/methods/metrics/index.js';
import { assertSameMetrics } from '../dist/test/helpers/metamorphic.js';

const { values: o } = parseArgs({
  options: {
    data: { type: 'string' },
    label: { type: 'string' },
    positive: { type: 'string' },
    favourable: { type: 'string', default: 'positive' },
    pred: { type: 'string' },
    group: { type: 'string' },
    threshold: { type: 'string', default: '0.5' },
    decimals: { type: 'string', default: '6' },
  },
});
/** @param {'data' | 'label' | 'pred' | 'group'} k */
const required = (k) => {
  const v = o[k];
  if (!v) throw new Error(`--${k} is required`);
  return v;
};
const [data, label, pred, group] = [required('data'), required('label'), required('pred'), required('group')];
await initNodeEngine();
const { table } = await readTable(data);
const groups = group.split(',');
const values = labelValues(table, label);
const positive = positiveOf(values, o.positive, label);
if (values.length !== 2) throw new Error(`the label has ${values.length} values; recoding needs two`);
const other = values.find((v) => v !== positive);
if (other === undefined) throw new Error(`the label's two values are both ${positive}`);
const favourable = o.favourable;
if (favourable !== 'positive' && favourable !== 'negative') throw new Error('--favourable: positive or negative');
const t = Number(o.threshold);
const pc = table.columns.find((c) => c.name === pred);
const lc = table.columns.find((c) => c.name === label);
if (pc?.kind !== 'numeric') throw new Error(`${pred}: a numeric score column`);
const decimals = Number(o.decimals);
const scale = 10 ** decimals;
const p = Float64Array.from(pc.values, (v) => Math.round(v * scale) / scale);
const onThreshold = Array.from(p).filter((v) => v === t).length;
const q = Float64Array.from(p, (v) => Math.round((1 - v) * scale) / scale);
/** @param {import('../dist/src/data/table.js').Column} c */
const codes = (c) =>
  c.kind === 'categorical'
    ? {
        ...c,
        codes: Int32Array.from(c.codes, (k) =>
          k < 0
            ? k
            : c.categories[k] === positive
              ? c.categories.indexOf(other)
              : c.categories[k] === other
                ? c.categories.indexOf(positive)
                : k,
        ),
      }
    : {
        ...c,
        values: Float64Array.from(c.values, (v) =>
          String(v) === positive ? Number(other) : String(v) === other ? Number(positive) : v,
        ),
      };
const named = {
  rows: table.rows,
  columns: table.columns.map((c) =>
    c === pc ? { kind: /** @type {const} */ ('numeric'), name: c.name, values: p } : c,
  ),
};
const recoded = {
  rows: table.rows,
  columns: table.columns.map((c) =>
    c === pc ? { kind: /** @type {const} */ ('numeric'), name: c.name, values: q } : c === lc ? codes(c) : c,
  ),
};
// the decisions must be the same rows: p > t and 1 − p > 1 − t
const flip = favourable === 'positive' ? 'negative' : 'positive';
/**
 * @param {import('../dist/src/data/table.js').Table} tab @param {string} pos @param {'positive' | 'negative'} fav
 * @param {number} thr
 */
const run = (tab, pos, fav, thr) => {
  const base = { label: label, positive: pos, favourable: fav, pred: pred, threshold: thr, groups };
  return [groupMetrics(tab, base), ...(groups.length > 1 ? [groupMetrics(tab, { ...base, intersect: true })] : [])];
};
const a = run(named, positive, favourable, t);
const b = run(recoded, positive, flip, 1 - t);
/** @param {import('../dist/src/methods/metrics/index.js').MetricsReport[]} reps @param {boolean} map */
const flagged = (reps, map) =>
  reps.flatMap((r) =>
    r.attributes.flatMap((x) =>
      x.comparisons
        .filter((c) => c.verdict === 'flagged')
        .map(
          (c) =>
            `${x.column}: ${c.group} ${map ? recodedMetric(c.metric).metric : c.metric} x${c.ratio?.toFixed(3)} ` +
            `${c.direction}`,
        ),
    ),
  );
console.log(
  `${data}: ${table.rows} rows; coding A: positive "${positive}", favourable ${favourable}, ${pred} (to ${decimals} ` +
    `decimals) > ${t}; coding B: the label's values swapped, favourable ${flip}, 1 − ${pred} > ` +
    `${1 - t}${onThreshold ? `; ${onThreshold} scores sit on the threshold (no counterpart)` : ''}`,
);
let ok = true;
a.forEach((r, i) => {
  try {
    assertSameMetrics(r, b[i], { recoded: true }, i === 0 ? 'attributes' : 'intersection');
  } catch (e) {
    ok = false;
    console.log(
      `DIFFERENT (${i === 0 ? 'attributes' : 'intersection'}): ` +
        `${String(e instanceof Error ? e.message : e).split('\n')[0]}`,
    );
  }
});
const fa = flagged(a, true).sort();
const fb = flagged(b, false).sort();
console.log(
  `comparisons per coding: ${a.reduce((s, r) => s + r.verdicts.comparisons, 0) / a.length} in the family; flagged: A ` +
    `${fa.length}, B ${fb.length}; the same once mapped: ${JSON.stringify(fa) === JSON.stringify(fb)}`,
);
for (let i = 0; i < Math.max(fa.length, fb.length); i++)
  console.log(`  A (as B names it) ${fa[i] ?? '—'}  |  B ${fb[i] ?? '—'}`);
console.log(
  ok && JSON.stringify(fa) === JSON.stringify(fb)
    ? 'IDENTICAL: every estimate, verdict, reference, four-fifths and LL144 figure'
    : 'NOT IDENTICAL',
);
process.exit(ok ? 0 : 1);
