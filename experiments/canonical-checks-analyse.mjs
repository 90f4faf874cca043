// EXPERIMENTS.md §7: the analysis of the canonical-set checks (see canonical-checks.mjs). Every figure is
// recomputed here from the written canonical sets (canonical-{positive,negative}.csv; the `gan_seed`
// column, when present, splits them by GAN seed) and the real rows scored by the same model file;
// the audit's own figures are read only for what it stated (its Findings) and its validity.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { readCsv } from '../dist/src/node/csv.js';
import { loadBlackBox } from '../dist/src/node/blackbox.js';
import { Rng } from '../dist/src/engine/rng.js';
import { selectRows } from '../dist/src/data/table.js';
import { fidelity } from '../dist/src/audit/checks.js';
import { concatRows } from '../dist/src/data/table.js';
import { directionChecks } from './canonical-settings.mjs';
import { statedPreferences } from '../dist/src/audit/findings.js';

const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const f3 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(3));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** The sets of one run, split by GAN seed. */
async function readSets(dir) {
  const split = (t) => {
    const c = t.columns.find((x) => x.name === 'gan_seed');
    if (!c) return [t];
    const seeds = [...new Set(c.values)];
    return seeds.map((s) =>
      selectRows(
        { rows: t.rows, columns: t.columns.filter((x) => x !== c) },
        Array.from(c.values.keys()).filter((i) => c.values[i] === s),
      ),
    );
  };
  const p = split((await readCsv(join(dir, 'canonical-positive.csv'))).table);
  const n = split((await readCsv(join(dir, 'canonical-negative.csv'))).table);
  return p.map((positive, k) => ({ positive, negative: n[k] }));
}

/**
 * What the report stated as a preference. Before: the Findings' "over-represented in the positive set" value per
 * protected attribute.
 */
function stated(audit) {
  if (audit.findings) return statedPreferences(audit.findings);
  const out = [];
  for (const p of audit.protected) {
    const d = audit.canonical.distributions.find((x) => x.feature === p.column);
    if (!d) continue;
    const [s0, s1] = d.series;
    let best = -1;
    let gap = 0.005;
    for (let i = 0; i < s0.share.length; i++) {
      const g = s0.share[i] - (s1.share[i] ?? 0);
      if (g > gap) {
        gap = g;
        best = i;
      }
    }
    if (best < 0) continue;
    const value = d.kind === 'categorical' ? d.categories[best] : p.bins.labels[best];
    out.push({ feature: p.column, value, direction: 'favoured' });
  }
  return out;
}

export async function analyse({ out, label, datasets, seeds, settings, data }) {
  const engine = await initNodeEngine();
  const lines = [
    `# EXPERIMENTS.md §7: ${label}`,
    '',
    `Recomputed by experiments/canonical-checks-analyse.mjs from ${join(out, label)}.`,
    '',
  ];
  const rows = [];
  for (const name of datasets) {
    const s = settings[name];
    const { table } = await readCsv(join(data, s.data), name === 'compas' ? { categorical: ['two_year_recid'] } : {});
    const model = await loadBlackBox(engine, join(data, s.model));
    const p = await model.predict(table);
    const yhat = Uint8Array.from(p, (v) => (v > 0.5 ? 1 : 0));
    const features = table.columns.filter((c) => c.name !== s.label);
    const perRun = [];
    for (const seed of seeds) {
      const dir = join(out, label, name, `seed-${seed}`);
      if (!existsSync(join(dir, 'audit.json'))) continue;
      const audit = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
      const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
      const sets = await readSets(dir);
      const rng = new Rng(engine, 777 + seed);
      const fid = fidelity(
        features.map((c) => ({ name: c.name, kind: c.kind })),
        table,
        yhat,
        sets,
        rng,
      );
      const dists = fid
        .flatMap((f) => [f.positive?.distance, f.negative?.distance])
        .filter((x) => x !== undefined && x !== null);
      // the top-5 features by canonical JS of the pooled sets (the audit's own ranking rule for "before")
      const pool = (key) => concatRows(sets.map((x) => x[key]));
      const P = pool('positive');
      const N = pool('negative');
      const { checks, decided, disagree } = directionChecks(table, yhat, sets, P, N, s, rng);
      const st = stated(audit);
      const statedDis = st.filter((x) => {
        const c = checks.find((k) => k.feature === x.feature && k.value === x.value);
        return c && decided(c) && Math.sign(c.real.shift ?? NaN) !== (x.direction === 'favoured' ? 1 : -1);
      });
      const statedUnconfirmed = st.filter((x) => {
        const c = checks.find((k) => k.feature === x.feature && k.value === x.value);
        return !c || !decided(c);
      });
      // T4: every generated number inside the real range, integers where the real column is integral
      let outside = 0,
        fractions = 0;
      for (const c of features.filter((x) => x.kind === 'numeric')) {
        let lo = Infinity,
          hi = -Infinity,
          integral = true;
        for (const v of c.values) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
          if (!Number.isInteger(v)) integral = false;
        }
        for (const t of [P, N]) {
          const g = t.columns.find((x) => x.name === c.name);
          if (g?.kind !== 'numeric') throw new Error(`${c.name}: a numeric column in both sets`);
          for (const v of g.values) {
            if (v < lo || v > hi) outside++;
            if (integral && !Number.isInteger(v)) fractions++;
          }
        }
      }
      const protShift = Object.fromEntries(
        checks
          .filter((c) => c.role === 'protected' && c.kind === 'share')
          .map((c) => [`${c.feature}=${c.value}`, { pooled: c.pooled, seeds: c.canonical }]),
      );
      const draws = audit.canonical.draws ?? null;
      const acc = draws
        ? ['positive', 'negative'].map(
            (k) =>
              draws.reduce((a, d) => a + (d[k].acceptance ?? 0) * d[k].drawn, 0) /
              draws.reduce((a, d) => a + d[k].drawn, 0),
          )
        : null;
      const v = audit.canonical.validity;
      perRun.push({
        seed,
        seconds: run.seconds,
        fidelity: mean(dists),
        fidelityMax: Math.max(...dists),
        faithful: fid.filter((f) => f.faithful).length,
        features: fid.length,
        validity: v ? [v.positive.rate, v.negative.rate] : null,
        acceptance: acc,
        checks: checks.length,
        decided: checks.filter(decided).length,
        disagreements: disagree.length,
        disagreeList: disagree.map((c) => `${c.feature}=${c.value}`),
        stated: st.length,
        statedDisagreements: statedDis.length,
        statedDisList: statedDis.map((x) => `${x.feature}=${x.value}`),
        statedUnconfirmed: statedUnconfirmed.length,
        outside,
        fractions,
        protShift,
        rows: [P.rows, N.rows],
      });
    }
    if (!perRun.length) continue;
    // spread of each protected value's canonical shift across the audits, and inside an audit across its GAN seeds
    const keys = Object.keys(perRun[0].protShift);
    const across = keys.map((k) => {
      const xs = perRun.map((r) => r.protShift[k]?.pooled).filter((x) => x !== undefined);
      return { key: k, range: Math.max(...xs) - Math.min(...xs) };
    });
    const within = Math.max(
      ...perRun.flatMap((r) => Object.values(r.protShift).map((x) => Math.max(...x.seeds) - Math.min(...x.seeds))),
    );
    const worstAcross = across.reduce((a, b) => (b.range > a.range ? b : a), { key: '–', range: 0 });
    rows.push({ name, perRun, worstAcross, within });
  }
  lines.push(
    '| data | audits | mean fidelity (KS/TV; median audit, best–worst) | faithful features | validity pos / neg ' +
      '(min) | acceptance pos / neg (mean) | values checked (decided) | disagreements (all audits) | stated | ' +
      'stated disagreements | stated, not confirmed | numbers outside range / fractions | largest spread across ' +
      'audits | largest spread across GAN seeds in one audit | wall s per audit (median) |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const pr = r.perRun;
    const fids = pr.map((x) => x.fidelity);
    const vmin = pr[0].validity
      ? [Math.min(...pr.map((x) => x.validity?.[0] ?? NaN)), Math.min(...pr.map((x) => x.validity?.[1] ?? NaN))]
      : null;
    const acc = pr[0].acceptance
      ? [mean(pr.map((x) => x.acceptance?.[0] ?? NaN)), mean(pr.map((x) => x.acceptance?.[1] ?? NaN))]
      : null;
    lines.push(
      `| ${r.name} | ${pr.length} | ${f3(median(fids))} (${f3(Math.min(...fids))}–${f3(Math.max(...fids))}) | ` +
        `${median(pr.map((x) => x.faithful))} of ${pr[0].features} | ` +
        `${vmin ? `${pct(vmin[0])} / ${pct(vmin[1])}` : '–'} | ${acc ? `${pct(acc[0])} / ${pct(acc[1])}` : '–'} ` +
        `| ${pr[0].checks} (${median(pr.map((x) => x.decided))}) | ` +
        `${pr.reduce((a, x) => a + x.disagreements, 0)} | ${pr.reduce((a, x) => a + x.stated, 0)} | ` +
        `${pr.reduce((a, x) => a + x.statedDisagreements, 0)} | ` +
        `${pr.reduce((a, x) => a + x.statedUnconfirmed, 0)} | ${pr.reduce((a, x) => a + x.outside, 0)} / ` +
        `${pr.reduce((a, x) => a + x.fractions, 0)} | ${(100 * r.worstAcross.range).toFixed(1)} pp ` +
        `(${r.worstAcross.key}) | ${r.within > 0 ? `${(100 * r.within).toFixed(1)} pp` : '– (one GAN)'} | ` +
        `${median(pr.map((x) => x.seconds)).toFixed(0)} |`,
    );
  }
  lines.push('', '## Per audit', '');
  for (const r of rows) {
    for (const x of r.perRun)
      lines.push(
        `- ${r.name} seed ${x.seed}: fidelity ${f3(x.fidelity)} (worst ${f3(x.fidelityMax)}), ` +
          `${x.faithful}/${x.features} faithful; disagreements ${x.disagreements} ` +
          `(${x.disagreeList.join(', ') || 'none'}); stated ${x.stated}, stated disagreements ` +
          `${x.statedDisagreements} (${x.statedDisList.join(', ') || 'none'}); rows ${x.rows.join(' / ')}; ` +
          `${x.seconds.toFixed(0)} s`,
      );
  }
  const file = join(out, label, 'summary.md');
  writeFileSync(file, lines.join('\n') + '\n');
  writeFileSync(join(out, label, 'summary.json'), JSON.stringify(rows, null, 2));
  process.stdout.write(lines.join('\n') + '\n');
}
