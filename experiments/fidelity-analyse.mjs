#!/usr/bin/env node
// EXPERIMENTS.md §11: how faithful are the canonical sets of each generator configuration,
// measured on HELD-OUT real rows (rows of the same population no GAN saw: §10.4's HELD_OUT), split by
// the audited model's decision at the audit's threshold (0.5). Recomputed from the written sets:
//
//   node experiments/fidelity-analyse.mjs --out /tmp/exp34 --labels final,B,C
//        [--datasets adult,compas,sim,adult1000] [--seeds 0,1,2]
//
// Audits are read from <out>/<label>/<dataset>/seed-<s>/ (canonical-positive.csv and
// canonical-negative.csv: the pooled sets of the three GAN seeds, gan_seed dropped; audit.json;
// run.json); data and models from <out>/data (canonical-settings.mjs). A label without a directory is
// skipped with a note. Features: the columns the sets and the real rows have in common but the label
// (so `preds` and `gan_seed` are out, the protected columns in); each one's kind is the audit's own
// (KS: numeric, TV: categorical).
//
// Per audit and side (positive: the model's P(setting.positive) > threshold):
//   1. fidelity.ts `fidelity` on the held-out rows: KS/TV of the pooled set against the held-out side
//      rows, its noise floor (95th percentile of 200 replicates of two resamples of those rows, one of
//      the set's size, one of the side's size); faithful: both sides ≤ max(floor, 0.1). Mean KS/TV over
//      features × sides (the §11.3 primary measure); Column Shapes = 1 − it.
//   2. adult1000 only: the reference, a seeded sample of the set's size from the held-out side rows
//      measured against the remaining held-out side rows, and the set against the same remaining rows
//      (fidelity.ts `meanFidelity` for both); T2 there: set ≤ reference + 0.02.
//   3. Pair Trends (SDMetrics): numeric pairs 1 − |ρ_real − ρ_set| / 2 (Pearson), other pairs 1 − TV
//      of the joint distribution with numbers in QUINTILE bins of the held-out side rows; mean over
//      pairs. pairs.ts `pairTrend` is reused for the score, but given our own encodings: its own
//      binning (and beyond.ts pairTrendsWithFloor's) is 10 equal-width bins, not §11's quintiles.
//   4. beyond.ts `detectionScore` (held-out side rows, at most 3,000 drawn, against the pooled set).
//   5. beyond.ts `privacyCheck` (train: the audited rows of the side; held-out: the held-out side rows)
//      read by `privacyHolds` (PRIVACY_RULE with its noise, §11.4) and by the rule §11.1 declared (the
//      1-point margin alone: `declaredHolds`), and its p5 ratio.
//   6. sizes: every protected value's status in audit.json's checks.shifts (EXPERIMENTS.md §10's rule); overstates,
//      understates and disagrees are misses.
//   7. the audit's wall seconds (run.json).
// The random draws come from Rngs keyed by dataset, audit seed, measure and side, not by label, so the
// configurations are compared on the same draws. Writes <out>/fidelity-summary.md and .json.
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTable } from '../dist/src/node/read-table.js';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { loadBlackBox } from '../dist/src/node/blackbox.js';
import { Rng } from '../dist/src/engine/rng.js';
import { selectRows } from '../dist/src/data/table.js';
import { quantileSorted } from '../dist/src/data/quantile.js';
import { fidelity, meanFidelity, FIDELITY_DEFAULTS } from '../dist/src/methods/quality/fidelity.js';
import { pairTrend } from '../dist/src/methods/quality/pairs.js';
import { binValues, encodeCategorical } from '../dist/src/methods/quality/metrics.js';
import { detectionScore, privacyCheck, privacyHolds, PRIVACY_RULE } from '../dist/src/methods/quality/beyond.js';
/** §11.1's privacy constraint as declared, before §11.4 added the shares' noise: the 1-point margin alone. */
const declaredPrivacy = (p) =>
  p.generated.exactShare <= p.heldOut.exactShare + PRIVACY_RULE.copyMargin &&
  (p.ratioP5 === null ? Infinity : p.ratioP5) >= PRIVACY_RULE.p5Ratio;
import { HELD_OUT, SETTINGS } from './canonical-settings.mjs';

const { values: parsed } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/exp34' },
    labels: { type: 'string', default: 'final,B,C' },
    datasets: { type: 'string', default: 'adult,compas,sim,adult1000' },
    seeds: { type: 'string', default: '0,1,2' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { out: string, labels: string, datasets: string, seeds: string }} */ (parsed);
const OUT = resolve(values.out);
const DATA = join(OUT, 'data');
const DATASETS = values.datasets.split(',').filter(Boolean);
const SEEDS = values.seeds.split(',').map(Number);
const notes = [];
const LABELS = values.labels
  .split(',')
  .filter(Boolean)
  .filter((l) => {
    if (existsSync(join(OUT, l))) return true;
    notes.push(`label ${l}: no directory ${join(OUT, l)}, skipped`);
    return false;
  });
for (const n of notes) process.stdout.write(`note: ${n}\n`);

/** §11.1's constants. */
const DETECTION_MAX_REAL = 3000;
const REFERENCE_MARGIN = 0.02;
const SIZE_MISSES = new Set(['overstates', 'understates', 'disagrees']);
/** Two-sided 95% t quantiles (0.975) for 1 … 30 degrees of freedom; above 30, 1.96. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const tQuantile = (df) => (df >= 1 && df <= 30 ? T975[df - 1] : 1.96);

const engine = await initNodeEngine();
const t0 = Date.now();

/** A 32-bit FNV-1a hash of a string: the seed of one measure's Rng (label-independent). */
function seedOf(...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
const rngFor = (...parts) => new Rng(engine, seedOf(...parts));

const mean = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
};
const median = (xs) => {
  const s = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? quantileSorted(s, 0.5) : NaN;
};
/** @param {{ dataset: string, label: string, seed: number }} r @returns {never} */
const nullReference = (r) => {
  throw new Error(`${r.dataset} ${r.label} seed ${r.seed}: no real reference measured`);
};
const f3 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3));
const f4 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(4));
const pct = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);

/** The first line of a CSV file, split (the canonical sets' headers hold no quoted commas). */
const headerOf = (file) =>
  readFileSync(file, 'utf8')
    .slice(0, 4096)
    .split(/\r?\n/)[0]
    .split(',')
    .map((x) => x.replace(/^"|"$/g, ''));

/** `t` with only `features`' columns, in their order; each must exist with the feature's kind. */
function on(t, features, what) {
  return {
    rows: t.rows,
    columns: features.map((f) => {
      const c = t.columns.find((x) => x.name === f.name);
      if (!c) throw new Error(`${what}: no column ${f.name}`);
      if (c.kind !== f.kind)
        throw new Error(`${what}: column ${f.name} is ${c.kind}, the audit measured it as ${f.kind}`);
      return c;
    }),
  };
}

const sideIndex = (yhat, side) => {
  const idx = [];
  for (let i = 0; i < yhat.length; i++) if (yhat[i] === side) idx.push(i);
  return idx;
};

/** The real rows of a setting, read and scored once: the audited rows and the held-out rows, per side. */
const settingCache = new Map();
async function settingOf(name, features, threshold) {
  const key = `${name}|${features.map((f) => `${f.name}:${f.kind}`).join(',')}|${threshold}`;
  if (settingCache.has(key)) return settingCache.get(key);
  const s = SETTINGS[name];
  const categorical = [s.label, ...features.filter((f) => f.kind === 'categorical').map((f) => f.name)];
  const model = await loadBlackBox(engine, join(DATA, s.model));
  const modelPositive = model.classes?.positive;
  // P(setting.positive): the model's P(its positive class), flipped if that class is the other one
  const flip = modelPositive !== undefined && String(modelPositive) !== String(s.positive);
  const score = async (file) => {
    const { table } = await readTable(join(DATA, file), { categorical });
    const p = await model.predict(table);
    const yhat = Uint8Array.from(p, (x) => ((flip ? 1 - x : x) > threshold ? 1 : 0));
    const t = on(table, features, `${name} ${file}`);
    return { table: t, yhat, side: { 1: sideIndex(yhat, 1), 0: sideIndex(yhat, 0) } };
  };
  const audited = await score(s.data);
  const held = await score(HELD_OUT[name]);
  const out = {
    audited,
    held,
    flip,
    sides: { 1: selectRows(held.table, held.side[1]), 0: selectRows(held.table, held.side[0]) },
    auditedSides: { 1: selectRows(audited.table, audited.side[1]), 0: selectRows(audited.table, audited.side[0]) },
  };
  settingCache.set(key, out);
  return out;
}

/** Inner quintile edges of the finite values (deduplicated: a column with ties has fewer bins). */
function quintileEdges(values) {
  const s = Float64Array.from(values).filter(Number.isFinite).sort();
  if (!s.length) return new Float64Array(0);
  return Float64Array.from(new Set([0.2, 0.4, 0.6, 0.8].map((q) => quantileSorted(s, q))));
}

/**
 * §11.1's Pair Trends of `gen` against `real` over every pair of features: pairs.ts `pairTrend`
 * (SDMetrics: Pearson correlation similarity for two numeric columns, else 1 − TV of the contingency
 * table), with numeric columns encoded in quintile bins of the real rows (not pairTrend's default of
 * 10 equal-width bins). Pairs with an undefined score (a constant column) are left out of the mean.
 */
function pairTrends(real, gen, features) {
  const enc = features.map((f, k) => {
    const rc = real.columns[k];
    const gc = gen.columns[k];
    if (f.kind === 'categorical') return encodeCategorical(rc, gc);
    const edges = quintileEdges(rc.values);
    return {
      real: binValues(rc.values, edges),
      synthetic: binValues(gc.values, edges),
      labels: new Array(edges.length + 2).fill(''),
    };
  });
  const scores = [];
  let worst = null;
  for (let i = 0; i < features.length; i++) {
    for (let j = i + 1; j < features.length; j++) {
      const p = pairTrend([real.columns[i], real.columns[j]], [gen.columns[i], gen.columns[j]], {
        correlation: 'pearson',
        encoded: [enc[i], enc[j]],
      });
      if (p.score === null) continue;
      scores.push(p.score);
      if (!worst || p.score < worst.score) worst = { a: features[i].name, b: features[j].name, score: p.score };
    }
  }
  return { score: mean(scores), pairs: scores.length, worst };
}

/** Each feature's KS/TV per side of the pooled sets against scored rows `r` (no floors: the consistency check). */
function meanFidelityPerFeature(features, r, set) {
  return features.map((f) => ({
    feature: f.name,
    positive: meanFidelity([f], selectRows(r.table, r.side[1]), new Uint8Array(r.side[1].length).fill(1), [
      { positive: set[1], negative: set[0] },
    ]),
    negative: meanFidelity([f], selectRows(r.table, r.side[0]), new Uint8Array(r.side[0].length), [
      { positive: set[1], negative: set[0] },
    ]),
  }));
}

const rows = [];
for (const name of DATASETS) {
  const s = SETTINGS[name];
  if (!s || !HELD_OUT[name]) throw new Error(`unknown dataset ${name}`);
  for (const label of LABELS) {
    for (const seed of SEEDS) {
      const dir = join(OUT, label, name, `seed-${seed}`);
      const need = ['audit.json', 'canonical-positive.csv', 'canonical-negative.csv'];
      if (!need.every((f) => existsSync(join(dir, f)))) {
        if (existsSync(join(OUT, label, name)))
          notes.push(`${label} ${name} seed ${seed}: incomplete or missing, skipped`);
        continue;
      }
      const started = Date.now();
      const audit = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
      const run = existsSync(join(dir, 'run.json')) ? JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) : null;
      const threshold = audit.meta.threshold ?? 0.5;
      // features: the sets' columns the real rows have too, but the label; kinds as the audit measured them
      const realCols = audit.meta.data.columns;
      const metricOf = new Map((audit.checks.fidelity ?? []).map((f) => [f.feature, f.metric]));
      const header = headerOf(join(dir, 'canonical-positive.csv'));
      const described = header
        .filter((c) => c !== s.label && c !== 'gan_seed' && realCols.includes(c))
        .map((c) => ({
          name: c,
          kind:
            metricOf.get(c) === 'TV'
              ? /** @type {const} */ ('categorical')
              : metricOf.get(c) === 'KS'
                ? /** @type {const} */ ('numeric')
                : null,
        }));
      const unknown = described.filter((f) => f.kind === null);
      if (unknown.length)
        throw new Error(`${dir}: no fidelity metric in audit.json for ${unknown.map((f) => f.name).join(', ')}`);
      const features = described.flatMap(({ name, kind }) => (kind === null ? [] : [{ name, kind }]));
      const real = await settingOf(name, features, threshold);
      const categorical = features.filter((f) => f.kind === 'categorical').map((f) => f.name);
      const read = async (f) =>
        on(
          (await readTable(join(dir, f), { categorical, keep: features.map((x) => x.name) })).table,
          features,
          join(dir, f),
        );
      const set = { 1: await read('canonical-positive.csv'), 0: await read('canonical-negative.csv') };
      const sideName = { 1: 'positive', 0: 'negative' };

      // consistency with the audit: its split of the audited rows, and its own distances on them reproduced
      const shift0 = (audit.checks.shifts ?? []).find((c) => c.real?.positiveRows !== undefined);
      if (
        shift0 &&
        (shift0.real.positiveRows !== real.audited.side[1].length ||
          shift0.real.negativeRows !== real.audited.side[0].length)
      ) {
        notes.push(
          `${label} ${name} seed ${seed}: the audited rows split ` +
            `${real.audited.side[1].length}/${real.audited.side[0].length} here, ` +
            `${shift0.real.positiveRows}/${shift0.real.negativeRows} in audit.json`,
        );
      }
      let reproduced = null;
      if (audit.checks.fidelity?.length) {
        const own = new Map(audit.checks.fidelity.map((f) => [f.feature, f]));
        const mine = meanFidelityPerFeature(features, real.audited, set);
        reproduced = Math.max(
          0,
          ...mine.flatMap(({ feature, positive, negative }) =>
            [
              [positive, own.get(feature)?.positive?.distance],
              [negative, own.get(feature)?.negative?.distance],
            ]
              .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b))
              .map(([a, b]) => Math.abs(a - b)),
          ),
        );
        if (reproduced > 1e-9)
          notes.push(
            `${label} ${name} seed ${seed}: the audit's own KS/TV on the audited rows reproduced only to ` +
              `${reproduced.toExponential(2)}`,
          );
      }

      // 1. per-feature fidelity against the held-out rows, with noise floors
      const fid = fidelity(
        features,
        real.held.table,
        real.held.yhat,
        [{ positive: set[1], negative: set[0] }],
        rngFor(name, seed, 'fidelity'),
        { emptyFails: true },
      );
      const faithful = fid.filter((f) => f.faithful).length;
      const dist = (side) => fid.map((f) => f[side]?.distance).filter((x) => x !== undefined && Number.isFinite(x));
      const meanPos = mean(dist('positive'));
      const meanNeg = mean(dist('negative'));
      const meanBoth = mean([...dist('positive'), ...dist('negative')]);
      const perFeature = fid.map((f) => ({
        feature: f.feature,
        metric: f.metric,
        faithful: f.faithful,
        positive: f.positive && {
          distance: f.positive.distance,
          floor: f.positive.floor,
          rows: f.positive.rows,
          realRows: f.positive.realRows,
        },
        negative: f.negative && {
          distance: f.negative.distance,
          floor: f.negative.floor,
          rows: f.negative.rows,
          realRows: f.negative.realRows,
        },
      }));

      // 2. adult1000: a real sample of the set's size against the remaining held-out rows, and the set against them
      let reference = null;
      if (name === 'adult1000') {
        const rng = rngFor(name, seed, 'reference');
        const sample = {};
        const rest = {};
        const halved = [];
        for (const side of [1, 0]) {
          const idx = real.held.side[side];
          let m = set[side].rows;
          if (m >= idx.length) {
            m = Math.floor(idx.length / 2);
            halved.push(sideName[side]);
          }
          const perm = rng.permutation(idx.length);
          sample[side] = Array.from(perm.subarray(0, m), (k) => idx[k]);
          rest[side] = Array.from(perm.subarray(m), (k) => idx[k]);
        }
        const restTable = selectRows(real.held.table, [...rest[1], ...rest[0]]);
        const restYhat = new Uint8Array(rest[1].length + rest[0].length).fill(1, 0, rest[1].length);
        const refSets = [
          { positive: selectRows(real.held.table, sample[1]), negative: selectRows(real.held.table, sample[0]) },
        ];
        const ref = meanFidelity(features, restTable, restYhat, refSets);
        const setVsRest = meanFidelity(features, restTable, restYhat, [{ positive: set[1], negative: set[0] }]);
        reference = {
          reference: ref,
          set: setVsRest,
          pass: setVsRest <= ref + REFERENCE_MARGIN,
          sampleRows: { positive: sample[1].length, negative: sample[0].length },
          restRows: { positive: rest[1].length, negative: rest[0].length },
          halved,
        };
      }

      // 3–5. pair trends, detection and privacy per side
      const sides = {};
      for (const side of [1, 0]) {
        const heldSide = real.sides[side];
        const gen = set[side];
        if (heldSide.rows === 0 || gen.rows === 0) {
          sides[sideName[side]] = null;
          notes.push(
            `${label} ${name} seed ${seed}: the ${sideName[side]} side has ${heldSide.rows} held-out rows and ` +
              `${gen.rows} set rows; not measured`,
          );
          continue;
        }
        const pt = pairTrends(heldSide, gen, features);
        const rngD = rngFor(name, seed, 'detection', side);
        const realD =
          heldSide.rows > DETECTION_MAX_REAL
            ? selectRows(
                heldSide,
                Array.from(rngD.permutation(heldSide.rows).subarray(0, DETECTION_MAX_REAL)).sort((a, b) => a - b),
              )
            : heldSide;
        const det = detectionScore(realD, gen, features, rngD);
        const priv = privacyCheck(
          real.auditedSides[side],
          heldSide,
          gen,
          features,
          rngFor(name, seed, 'privacy', side),
        );
        sides[sideName[side]] = {
          heldOutRows: heldSide.rows,
          setRows: gen.rows,
          pairTrends: pt.score,
          pairs: pt.pairs,
          worstPair: pt.worst,
          detection: det.score,
          auc: det.auc,
          detectionFloor: det.floor,
          privacy: {
            holds: privacyHolds(priv),
            declaredHolds: declaredPrivacy(priv),
            ratioP5: priv.ratioP5,
            exactShare: priv.generated.exactShare,
            heldOutExactShare: priv.heldOut.exactShare,
            p5: priv.generated.p5,
            heldOutP5: priv.heldOut.p5,
          },
        };
      }

      // 6. sizes: the protected values' statuses in the audit's own checks
      const protectedChecks = (audit.checks.shifts ?? []).filter((c) => c.role === 'protected');
      const statuses = {};
      for (const c of protectedChecks) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
      const misses = protectedChecks
        .filter((c) => SIZE_MISSES.has(c.status))
        .map((c) => ({ feature: c.feature, value: c.value, status: c.status }));

      const row = {
        label,
        dataset: name,
        seed,
        features: features.length,
        faithful,
        faithfulShare: faithful / features.length,
        meanKsTv: { positive: meanPos, negative: meanNeg, both: meanBoth },
        columnShapes: 1 - meanBoth,
        reference,
        positive: sides.positive,
        negative: sides.negative,
        sizes: { values: protectedChecks.length, statuses, misses },
        seconds: run?.seconds ?? null,
        heldOutRows: { positive: real.held.side[1].length, negative: real.held.side[0].length },
        perFeature,
        auditDistancesReproduced: reproduced,
        analyseSeconds: (Date.now() - started) / 1000,
      };
      rows.push(row);
      process.stdout.write(
        `${label} ${name} seed ${seed}: faithful ${faithful}/${features.length}, mean KS/TV ${f4(meanBoth)} (+ ` +
          `${f4(meanPos)}, − ${f4(meanNeg)}), pair trends ${f3(row.positive?.pairTrends)}/` +
          `${f3(row.negative?.pairTrends)}, detection ${f3(row.positive?.detection)}/` +
          `${f3(row.negative?.detection)}, privacy ${row.positive?.privacy.holds ? 'holds' : 'FAILS'}/` +
          `${row.negative?.privacy.holds ? 'holds' : 'FAILS'}, size misses ` +
          `${misses.length}` +
          `${reference ? `, reference ${f4(reference.reference)} vs set ${f4(reference.set)}` : ''} ` +
          `(${row.analyseSeconds.toFixed(1)} s)\n`,
      );
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Summaries

const side2 = (r, k) => [r.positive?.[k], r.negative?.[k]];
const summary = [];
for (const label of LABELS) {
  for (const name of DATASETS) {
    const rs = rows.filter((r) => r.label === label && r.dataset === name);
    if (!rs.length) continue;
    const sumF = rs.reduce((a, r) => a + r.faithful, 0);
    const sumN = rs.reduce((a, r) => a + r.features, 0);
    const meanKsTv = mean(rs.map((r) => r.meanKsTv.both));
    const pairTrendsMean = mean(rs.flatMap((r) => side2(r, 'pairTrends')));
    const pairTrendsMin = Math.min(...rs.flatMap((r) => side2(r, 'pairTrends')).filter(Number.isFinite));
    const sizeMisses = rs.reduce((a, r) => a + r.sizes.misses.length, 0);
    const privacyAll = rs.every((r) => [r.positive, r.negative].every((x) => x === null || x.privacy.holds));
    const privacyDeclaredAll = rs.every((r) =>
      [r.positive, r.negative].every((x) => x === null || x.privacy.declaredHolds),
    );
    // adult1000's runs each measured the real reference
    const refs = name === 'adult1000' ? rs.map((r) => r.reference ?? nullReference(r)) : null;
    const ref = refs
      ? {
          reference: mean(refs.map((r) => r.reference)),
          set: mean(refs.map((r) => r.set)),
          passes: refs.filter((r) => r.pass).length,
        }
      : null;
    const faithfulPooled = sumF / sumN;
    const minShare = Math.min(...rs.map((r) => r.faithfulShare));
    summary.push({
      label,
      dataset: name,
      audits: rs.length,
      faithful: sumF,
      features: sumN,
      faithfulPooled,
      minShare,
      meanKsTv,
      columnShapes: 1 - meanKsTv,
      meanKsTvPositive: mean(rs.map((r) => r.meanKsTv.positive)),
      meanKsTvNegative: mean(rs.map((r) => r.meanKsTv.negative)),
      pairTrends: pairTrendsMean,
      pairTrendsMin,
      detection: mean(rs.flatMap((r) => side2(r, 'detection'))),
      sizeMisses,
      privacyAll,
      privacyDeclaredAll,
      medianSeconds: median(rs.map((r) => r.seconds)),
      reference: ref,
      // §11.2's targets as read here (T5, time, is the bench's)
      targets: {
        T1: faithfulPooled >= 0.9 && minShare >= 0.8,
        T2: refs ? refs.every((r) => r.pass) : meanKsTv <= 0.06,
        T3: pairTrendsMean >= 0.9,
        T4: sizeMisses === 0,
      },
    });
  }
}

/** Paired differences (b − a) of the per-audit mean KS/TV over the audits both labels have (same dataset and seed). */
function compare(a, b) {
  const key = (r) => `${r.dataset}|${r.seed}`;
  const A = new Map(rows.filter((r) => r.label === a).map((r) => [key(r), r]));
  const d = [];
  const pairs = [];
  for (const r of rows.filter((x) => x.label === b)) {
    const base = A.get(key(r));
    if (!base) continue;
    d.push(r.meanKsTv.both - base.meanKsTv.both);
    pairs.push(key(r));
  }
  const n = d.length;
  const m = mean(d);
  if (n < 2)
    return { a, b, n, meanDiff: n ? m : null, lo: null, hi: null, verdict: 'n/a (fewer than 2 paired audits)', pairs };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const t = tQuantile(n - 1);
  const lo = m - (t * sd) / Math.sqrt(n);
  const hi = m + (t * sd) / Math.sqrt(n);
  // lower mean KS/TV is better: b is better than a when the whole interval is below 0
  const verdict = hi < 0 ? `${b} better` : lo > 0 ? `${b} worse` : 'tie';
  return { a, b, n, df: n - 1, t, meanDiff: m, sd, lo, hi, verdict, pairs };
}
const comparisons = [];
const seen = new Set();
const pairList = [...LABELS.slice(1).map((l) => [LABELS[0], l]), ...LABELS.slice(1).map((l, i) => [LABELS[i], l])];
for (const [a, b] of pairList) {
  if (seen.has(`${a}|${b}`)) continue;
  seen.add(`${a}|${b}`);
  comparisons.push(compare(a, b));
}

// ------------------------------------------------------------------------------------------------
// Output

const yes = (x) => (x ? 'yes' : 'NO');
const L = [];
L.push('# §11 fidelity on held-out real rows (experiments/fidelity-analyse.mjs)', '');
L.push(
  `Held-out rows split by the audited model's decision; features: the sets' columns but the label; faithful: both ` +
    `sides ≤ max(noise floor, ${FIDELITY_DEFAULTS.tolerance}).`,
  '',
);
if (notes.length) L.push(...notes.map((n) => `- note: ${n}`), '');
L.push('## Per audit', '');
L.push(
  '| label | data | seed | faithful | mean KS/TV + | − | both | pair trends + | − | detection + | − | privacy + | − ' +
    '| size misses | seconds |',
);
L.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const priv = (x) =>
  x
    ? `${x.privacy.holds ? 'holds' : 'FAILS'}${
        x.privacy.declaredHolds === x.privacy.holds
          ? ''
          : ` (declared rule: ${x.privacy.declaredHolds ? 'holds' : 'fails'})`
      } (${f3(x.privacy.ratioP5)})`
    : '–';
for (const r of rows) {
  const miss = r.sizes.misses.length
    ? `${r.sizes.misses.length}: ${r.sizes.misses.map((m) => `${m.feature}=${m.value} ${m.status}`).join('; ')}`
    : '0';
  L.push(
    `| ${r.label} | ${r.dataset} | ${r.seed} | ${r.faithful}/${r.features} | ${f4(r.meanKsTv.positive)} | ` +
      `${f4(r.meanKsTv.negative)} | ${f4(r.meanKsTv.both)} | ${f3(r.positive?.pairTrends)} | ` +
      `${f3(r.negative?.pairTrends)} | ${f3(r.positive?.detection)} | ${f3(r.negative?.detection)} | ` +
      `${priv(r.positive)} | ${priv(r.negative)} | ${miss} | ${r.seconds === null ? '–' : r.seconds.toFixed(1)} |`,
  );
}
const refRows = rows.flatMap((r) => (r.reference ? [{ ...r, reference: r.reference }] : []));
if (refRows.length) {
  L.push(
    '',
    "### adult1000: the real reference (a sample of the set's size from the held-out side rows; both against the " +
      'remaining held-out rows)',
    '',
  );
  L.push('| label | seed | set mean KS/TV | reference | set ≤ reference + 0.02 |', '|---|---|---|---|---|');
  for (const r of refRows)
    L.push(
      `| ${r.label} | ${r.seed} | ${f4(r.reference.set)} | ${f4(r.reference.reference)} | ${yes(r.reference.pass)} |`,
    );
}
L.push('', '## Per label × data (3 audits each)', '');
L.push(
  '| label | data | audits | faithful pooled | min audit | mean KS/TV | Column Shapes | pair trends (min side) | ' +
    'detection | size misses | privacy all hold (declared rule) | median s | T1 | T2 | T3 | T4 |',
);
L.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const x of summary) {
  const t2 = x.reference
    ? `${yes(x.targets.T2)} (set ${f4(x.reference.set)} vs ref ${f4(x.reference.reference)})`
    : yes(x.targets.T2);
  L.push(
    `| ${x.label} | ${x.dataset} | ${x.audits} | ${x.faithful}/${x.features} (${pct(x.faithfulPooled)}) | ` +
      `${pct(x.minShare)} | ${f4(x.meanKsTv)} | ${pct(x.columnShapes)} | ${f3(x.pairTrends)} ` +
      `(${f3(x.pairTrendsMin)}) | ${f3(x.detection)} | ${x.sizeMisses} | ${yes(x.privacyAll)} ` +
      `(${yes(x.privacyDeclaredAll)}) | ${Number.isFinite(x.medianSeconds) ? x.medianSeconds.toFixed(1) : '–'} | ` +
      `${yes(x.targets.T1)} | ${t2} | ${yes(x.targets.T3)} | ${yes(x.targets.T4)} |`,
  );
}
for (const label of LABELS) {
  const rs = rows.filter((r) => r.label === label);
  if (!rs.length) continue;
  L.push(
    '',
    `**${label}**: ${rs.length} audits; mean KS/TV ${f4(mean(rs.map((r) => r.meanKsTv.both)))}; faithful ` +
      `${rs.reduce((a, r) => a + r.faithful, 0)}/${rs.reduce((a, r) => a + r.features, 0)}; size misses ` +
      `${rs.reduce((a, r) => a + r.sizes.misses.length, 0)}; privacy held in ` +
      `${rs.filter((r) => [r.positive, r.negative].every((x) => x === null || x.privacy.holds)).length} of ` +
      `${rs.length}.`,
  );
}
// the issue's anchors' terms, per data set and side (means over the label's audits)
L.push('', "## In the anchors' terms, per data set and side (mean over the audits; held-out rows)", '');
L.push(
  '| label | data | side | Column Shapes | Pair Trends | detection | DCR: exact copies (held-out) | DCR: p5 ratio |',
  '|---|---|---|---|---|---|---|---|',
);
for (const label of LABELS) {
  for (const name of DATASETS) {
    const rs = rows.filter((r) => r.label === label && r.dataset === name);
    if (!rs.length) continue;
    for (const side of ['positive', 'negative']) {
      const xs = rs.map((r) => r[side]).filter((x) => x);
      const m = (f) => mean(xs.map(f).filter((v) => v !== null && Number.isFinite(v)));
      L.push(
        `| ${label} | ${name} | ${side} | ${pct(1 - mean(rs.map((r) => r.meanKsTv[side])))} | ` +
          `${pct(m((x) => x.pairTrends))} | ${f3(m((x) => x.detection))} | ` +
          `${pct(m((x) => x.privacy.exactShare))} (${pct(m((x) => x.privacy.heldOutExactShare))}) | ` +
          `${f3(m((x) => x.privacy.ratioP5))} |`,
      );
    }
  }
}
if (comparisons.length) {
  L.push(
    '',
    '## Decision rule: paired difference of the per-audit mean KS/TV (second − first; negative = second better)',
    '',
  );
  L.push(
    '| first | second | paired audits | mean difference | 95% t-interval | verdict |',
    '|---|---|---|---|---|---|',
  );
  for (const c of comparisons)
    L.push(
      `| ${c.a} | ${c.b} | ${c.n} | ${c.meanDiff === null ? '–' : f4(c.meanDiff)} | ` +
        `${c.lo === null ? '–' : `[${f4(c.lo)}, ${f4(c.hi)}] (t ${c.t}, ${c.df} df)`} | ${c.verdict} |`,
    );
}
const seconds = (Date.now() - t0) / 1000;
L.push('', `(analysis: ${seconds.toFixed(1)} s)`);
const text = L.join('\n') + '\n';
writeFileSync(join(OUT, 'fidelity-summary.md'), text);
writeFileSync(
  join(OUT, 'fidelity-summary.json'),
  JSON.stringify(
    { labels: LABELS, datasets: DATASETS, seeds: SEEDS, notes, audits: rows, summary, comparisons, seconds },
    null,
    1,
  ),
);
process.stdout.write('\n' + text + `wrote ${join(OUT, 'fidelity-summary.md')} and .json\n`);
