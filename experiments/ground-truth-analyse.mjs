#!/usr/bin/env node
// EXPERIMENTS.md §2: reads the runs of experiments/ground-truth.mjs and applies the decision rule of
// src/audit/flags.ts (K = 3; band from the fair-mode runs; a fair run is judged against the band of
// the OTHER fair runs, leave-one-out, so it is not judged by a band it helped make).
// Writes <dir>/summary.md (the tables EXPERIMENTS.md quotes), <dir>/flags.csv, <dir>/bands.json and
// <dir>/gap-group-B.svg.
//   node experiments/ground-truth-analyse.mjs [--dir out/experiments/ground-truth]
import { parseArgs } from 'node:util';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellParityGaps, decideAll, fairBands, FLAG_K } from '../dist/src/audit/flags.js';

const { values: parsed } = parseArgs({ options: { dir: { type: 'string', default: 'out/experiments/ground-truth' } } });
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & { dir: string }} */ (parsed);
const load = (sub) => {
  const d = join(values.dir, sub);
  if (!existsSync(d)) return [];
  return readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(d, f), 'utf8')))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.seed - b.seed);
};
/** A sex × group heatmap from a run's stored `modelCells` (cells "Female & A", counts of P > 0.5). */
function heatmapOfCells(cells) {
  const split = cells.map((c) => c.cell.split(' & '));
  const rowValues = [...new Set(split.map((s) => s[0]))].sort();
  const colValues = [...new Set(split.map((s) => s[1]))].sort();
  const n = rowValues.map(() => colValues.map(() => 0));
  const selectionRate = rowValues.map(() => colValues.map(() => /** @type {number | null} */ (null)));
  cells.forEach((c, i) => {
    const r = rowValues.indexOf(split[i][0]);
    const k = colValues.indexOf(split[i][1]);
    n[r][k] = c.n;
    selectionRate[r][k] = c.n > 0 ? c.predPos / c.n : null;
  });
  return { rowAttribute: 'sex', colAttribute: 'group', rowValues, colValues, n, selectionRate };
}
const runs = load('runs');
const paperRuns = load('runs-paper');
const kinds = ['direct', 'proxy', 'intersectional', 'fair'];
const md = [];
function analyse(runs, title, bandsFile, flagsFile) {
  md.push(`## ${title}`);
  md.push('');
  const fair = runs.filter((r) => r.kind === 'fair');
  const faleStats = (r) =>
    r.fale.flatMap((f) =>
      f.features.map((x) => ({
        key: `${f.attribute}=${f.unprivileged.map((u) => u.value).join('&')}: ${x.feature}`,
        d: -x.range,
        sdBinomial: 0,
      })),
    );
  const sets = { canonical: (r) => r.gaps, cells: (r) => r.cells, parity: (r) => r.parity, fale: faleStats };
  // §2.6: the paper's intersectional protocol (one protected category fixed), when the runs stored it
  const withConditional = runs.some((r) => r.conditional?.length);
  if (withConditional) sets.conditional = (r) => r.conditional ?? [];
  // §2.9: the metrics signal at the intersection (cell positivity vs the rest), from the stored cell counts
  const withCellParity = runs.length > 0 && runs.every((r) => r.cellParity || r.modelCells);
  if (withCellParity)
    sets.cellParity = (r) =>
      r.cellParity ?? cellParityGaps({ intersections: [{ heatmap: heatmapOfCells(r.modelCells) }] });
  const bandsFor = (exclude) =>
    Object.fromEntries(Object.entries(sets).map(([k, f]) => [k, fairBands(fair.filter((r) => r !== exclude).map(f))]));
  const allBands = bandsFor(null);
  writeFileSync(
    join(values.dir, bandsFile),
    JSON.stringify(Object.fromEntries(Object.entries(allBands).map(([k, m]) => [k, Object.fromEntries(m)])), null, 1),
  );

  const rows = [];
  const csv = ['kind,seed,signal,key,d,lower,upper,flagged,favoured'];
  for (const r of runs) {
    const bands = r.kind === 'fair' ? bandsFor(r) : allBands;
    const dec = Object.fromEntries(Object.entries(sets).map(([k, f]) => [k, decideAll(f(r), bands[k])]));
    for (const [k, ds] of Object.entries(dec))
      for (const d of ds)
        csv.push(
          [
            r.kind,
            r.seed,
            k,
            JSON.stringify(d.key),
            d.d.toFixed(4),
            d.lower.toFixed(4),
            d.upper.toFixed(4),
            d.flagged,
            d.favoured,
          ].join(','),
        );
    rows.push({ r, dec });
  }
  writeFileSync(join(values.dir, flagsFile), csv.join('\n') + '\n');

  const fmt = (x) => (x >= 0 ? '+' : '') + x.toFixed(3);
  const flagged = (ds) => ds.filter((d) => d.flagged).map((d) => d.key);
  md.push(
    `Decision rule: src/audit/flags.ts, K = ${FLAG_K}; band from the ${fair.length} fair-mode runs (leave-one-out ` +
      `for the fair runs themselves).`,
  );
  md.push('');
  md.push('### Bands (all fair runs)');
  md.push('');
  md.push('| signal | key | fair mean | fair sd | runs |');
  md.push('|---|---|---|---|---|');
  for (const [k, m] of Object.entries(allBands))
    for (const b of m.values())
      if (k !== 'fale' || /B: neighbourhood|Female: hours/.test(b.key))
        md.push(`| ${k} | ${b.key} | ${fmt(b.mean)} | ${b.sd.toFixed(3)} | ${b.runs} |`);
  md.push('');
  md.push('### Per run');
  md.push('');
  md.push(
    '| kind | seed | d(group=B) [lower edge] | d(sex=Female) [lower edge] | d(Female & B) [lower edge] | canonical ' +
      'flags (attribute values) | cell flags | parity flags | FALE flags | validity pos / neg | s |',
  );
  md.push('|---|---|---|---|---|---|---|---|---|---|---|');
  const get = (ds, key) => ds.find((d) => d.key === key);
  const cellKey = 'sex=Female & group=B';
  const show = (d) => (d ? `${fmt(d.d)} [${fmt(d.lower)}]${d.flagged ? ' **F**' : ''}` : '-');
  for (const { r, dec } of rows) {
    md.push(
      `| ${r.kind} | ${r.seed} | ${show(get(dec.canonical, 'group=B'))} | ${show(get(dec.canonical, 'sex=Female'))} ` +
        `| ${show(get(dec.cells, cellKey))} | ${flagged(dec.canonical).join(', ') || 'none'} | ` +
        `${flagged(dec.cells).join(', ') || 'none'} | ${flagged(dec.parity).join(', ') || 'none'} | ` +
        `${flagged(dec.fale).join('; ') || 'none'} | ` +
        `${r.validity ? `${(100 * r.validity.pos).toFixed(1)} / ${(100 * r.validity.neg).toFixed(1)}` : '-'} | ` +
        `${r.seconds.toFixed(1)} |`,
    );
  }
  md.push('');
  md.push('### Targets');
  md.push('');
  md.push('| target | result |');
  md.push('|---|---|');
  const of = (kind, pred) => {
    const rs = rows.filter((x) => x.r.kind === kind);
    return `${rs.filter(pred).length}/${rs.length}`;
  };
  const has = (ds, key) => ds.some((d) => d.key === key && d.flagged);
  md.push(`| direct: group=B flagged (canonical gap) | ${of('direct', (x) => has(x.dec.canonical, 'group=B'))} |`);
  md.push(
    `| direct: sex flagged (not planted) | ` +
      `${of('direct', (x) => x.dec.canonical.some((d) => d.flagged && d.key.startsWith('sex=')))} |`,
  );
  md.push(
    `| proxy: group=B flagged in the proxy view (model without sex, group) | ` +
      `${of('proxy', (x) => has(x.dec.canonical, 'group=B'))} |`,
  );
  md.push(
    `| proxy: sex flagged (not planted) | ` +
      `${of('proxy', (x) => x.dec.canonical.some((d) => d.flagged && d.key.startsWith('sex=')))} |`,
  );
  md.push(`| intersectional: cell Female & B flagged | ${of('intersectional', (x) => has(x.dec.cells, cellKey))} |`);
  md.push(
    `| intersectional: another cell flagged | ` +
      `${of('intersectional', (x) => x.dec.cells.some((d) => d.flagged && d.key !== cellKey))} |`,
  );
  md.push(
    `| intersectional: found at Female & B and not elsewhere (cells) | ${of(
      'intersectional',
      (x) => has(x.dec.cells, cellKey) && !x.dec.cells.some((d) => d.flagged && d.key !== cellKey),
    )} |`,
  );
  md.push(
    `| intersectional: marginal flags (group=B / sex=Female) | ` +
      `${of('intersectional', (x) => has(x.dec.canonical, 'group=B'))} / ` +
      `${of('intersectional', (x) => has(x.dec.canonical, 'sex=Female'))} |`,
  );
  md.push(
    `| fair: any canonical or cell flag (leave-one-out band) | ` +
      `${of('fair', (x) => x.dec.canonical.some((d) => d.flagged) || x.dec.cells.some((d) => d.flagged))} |`,
  );
  md.push(
    `| metrics (SPD) direct / proxy / intersectional group=B flagged | ` +
      `${of('direct', (x) => has(x.dec.parity, 'group=B'))} / ` +
      `${of('proxy', (x) => has(x.dec.parity, 'group=B'))} / ` +
      `${of('intersectional', (x) => has(x.dec.parity, 'group=B'))} |`,
  );
  md.push(`| metrics (SPD) fair: any flag | ${of('fair', (x) => x.dec.parity.some((d) => d.flagged))} |`);
  md.push(
    `| FALE (range of a feature's curve beyond the fair band) fair: any flag | ` +
      `${of('fair', (x) => x.dec.fale.some((d) => d.flagged))} |`,
  );
  md.push('');
  if (withConditional) {
    // §2.6 (declared before these runs): conditional gaps d_{B=v | A=a}
    const ck = {
      fb: 'sex=Female → group=B',
      bf: 'group=B → sex=Female',
      mb: 'sex=Male → group=B',
      af: 'group=A → sex=Female',
    };
    md.push('### Conditional gaps (§2.6: one protected category fixed; positive minus negative share)');
    md.push('');
    md.push('| signal | key | fair mean | fair sd | runs |');
    md.push('|---|---|---|---|---|');
    for (const b of allBands.conditional.values())
      md.push(`| conditional | ${b.key} | ${fmt(b.mean)} | ${b.sd.toFixed(3)} | ${b.runs} |`);
    md.push('');
    md.push(
      `| kind | seed | ${Object.values(ck)
        .map((k) => `d(${k}) [lower edge]`)
        .join(' | ')} | conditional flags | fix held (per set) |`,
    );
    md.push(
      `|---|---|${Object.values(ck)
        .map(() => '---')
        .join('|')}|---|---|`,
    );
    for (const { r, dec } of rows) {
      const held = (r.conditionalSets ?? [])
        .map(
          (c) =>
            `${c.fixed[0]}=${c.fixed[1]} ` +
            `${c.fixSatisfied === undefined ? '-' : (100 * c.fixSatisfied).toFixed(0) + '%'}`,
        )
        .join(', ');
      md.push(
        `| ${r.kind} | ${r.seed} | ${Object.values(ck)
          .map((k) => show(get(dec.conditional, k)))
          .join(' | ')} | ${flagged(dec.conditional).join(', ') || 'none'} | ${held} |`,
      );
    }
    md.push('');
    md.push('| target (§2.6) | result |');
    md.push('|---|---|');
    md.push(
      `| intersectional: sex=Female → group=B flagged | ` +
        `${of('intersectional', (x) => has(x.dec.conditional, ck.fb))} |`,
    );
    md.push(
      `| intersectional: group=B → sex=Female flagged | ` +
        `${of('intersectional', (x) => has(x.dec.conditional, ck.bf))} |`,
    );
    md.push(
      `| intersectional: found (either of the two) | ` +
        `${of('intersectional', (x) => has(x.dec.conditional, ck.fb) || has(x.dec.conditional, ck.bf))} |`,
    );
    md.push(
      `| intersectional: sex=Male → group=B flagged (elsewhere) | ` +
        `${of('intersectional', (x) => has(x.dec.conditional, ck.mb))} |`,
    );
    md.push(
      `| intersectional: group=A → sex=Female flagged (elsewhere) | ` +
        `${of('intersectional', (x) => has(x.dec.conditional, ck.af))} |`,
    );
    md.push(
      `| intersectional: found and not elsewhere | ${of(
        'intersectional',
        (x) =>
          (has(x.dec.conditional, ck.fb) || has(x.dec.conditional, ck.bf)) &&
          !has(x.dec.conditional, ck.mb) &&
          !has(x.dec.conditional, ck.af),
      )} |`,
    );
    for (const k of ['direct', 'proxy'])
      md.push(
        `| ${k}: sex=Female → group=B / sex=Male → group=B flagged | ${of(k, (x) => has(x.dec.conditional, ck.fb))} ` +
          `/ ${of(k, (x) => has(x.dec.conditional, ck.mb))} |`,
      );
    md.push(
      `| fair: any conditional flag (leave-one-out) | ${of('fair', (x) => x.dec.conditional.some((d) => d.flagged))} |`,
    );
    md.push('');
  }
  if (withCellParity) {
    // §2.9 (declared before it was computed): each cell's positivity minus the rest's, the same rule
    md.push('### The metrics signal at the intersection (§2.9: cell positivity minus the rest of the rows)');
    md.push('');
    md.push('| key | fair mean | fair sd | runs |');
    md.push('|---|---|---|---|');
    for (const b of allBands.cellParity.values())
      md.push(`| ${b.key} | ${fmt(b.mean)} | ${b.sd.toFixed(3)} | ${b.runs} |`);
    md.push('');
    const keys = [...allBands.cellParity.keys()];
    md.push(`| kind | seed | ${keys.map((k) => `d(${k}) [lower edge]`).join(' | ')} | flags |`);
    md.push(`|---|---|${keys.map(() => '---').join('|')}|---|`);
    for (const { r, dec } of rows)
      md.push(
        `| ${r.kind} | ${r.seed} | ${keys.map((k) => show(get(dec.cellParity, k))).join(' | ')} | ` +
          `${flagged(dec.cellParity).join(', ') || 'none'} |`,
      );
    md.push('');
    md.push('| target (§2.9) | result |');
    md.push('|---|---|');
    md.push(`| intersectional: Female & B flagged | ${of('intersectional', (x) => has(x.dec.cellParity, cellKey))} |`);
    md.push(
      `| intersectional: another cell flagged | ` +
        `${of('intersectional', (x) => x.dec.cellParity.some((d) => d.flagged && d.key !== cellKey))} |`,
    );
    md.push(
      `| intersectional: found and not elsewhere | ${of(
        'intersectional',
        (x) => has(x.dec.cellParity, cellKey) && !x.dec.cellParity.some((d) => d.flagged && d.key !== cellKey),
      )} |`,
    );
    for (const k of ['direct', 'proxy'])
      md.push(
        `| ${k}: Female & B / Male & B flagged; a group A cell flagged | ` +
          `${of(k, (x) => has(x.dec.cellParity, cellKey))} / ` +
          `${of(k, (x) => has(x.dec.cellParity, 'sex=Male & group=B'))}; ` +
          `${of(k, (x) => x.dec.cellParity.some((d) => d.flagged && d.key.endsWith('group=A')))} |`,
      );
    md.push(
      `| fair: any cell flagged (leave-one-out) | ${of('fair', (x) => x.dec.cellParity.some((d) => d.flagged))} |`,
    );
    md.push('');
  }
  return { rows, allBands, fair };
}
const A = runs.length ? analyse(runs, 'Consistency mode (the default until §2.5)', 'bands.json', 'flags.csv') : null;
const Bp = paperRuns.length
  ? analyse(
      paperRuns,
      'Paper mode (no consistency term; runs-paper: --lite in §2 = no intersection sets, no FALE bootstrap; ' +
        '--conditional in §2.6 = 300-row intersection and conditional sets, no FALE bootstrap)',
      'bands-paper.json',
      'flags-paper.csv',
    )
  : null;
if (paperRuns.length || runs.length) {
  md.push(
    `### Validity on the simulator (main canonical sets, 1000 rows each, scored by the audited model: ` +
      `${[...runs, ...paperRuns][0]?.settings?.model ?? 'logistic'})`,
  );
  md.push('');
  md.push('| kind | consistency (default): pos / neg, mean over seeds [min–max] | paper mode: pos / neg [min–max] |');
  md.push('|---|---|---|');
  const agg = (rs, side) => {
    const xs = rs.filter((r) => r.validity).map((r) => 100 * r.validity[side]);
    if (!xs.length) return '-';
    return (
      `${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} ` +
      `[${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`
    );
  };
  for (const k of kinds) {
    const a = runs.filter((r) => r.kind === k);
    const b = paperRuns.filter((r) => r.kind === k);
    md.push(
      `| ${k} | ${agg(a, 'pos')} / ${agg(a, 'neg')} (${a.length} seeds) | ${agg(b, 'pos')} / ${agg(b, 'neg')} ` +
        `(${b.length} seeds) |`,
    );
  }
  md.push('');
}
// §2.7: the audited model's positivity per sex × group cell of the audit data (runs that stored it; read by no rule)
const withCells = [...runs, ...paperRuns].filter((r) => r.modelCells);
if (withCells.length) {
  const cells = [...new Set(withCells.flatMap((r) => r.modelCells.map((c) => c.cell)))].sort();
  md.push('### The audited model on the audit data: positivity (P > 0.5) per cell, 5 seeds pooled [label rate]');
  md.push('');
  md.push(`| kind | ${cells.join(' | ')} |`);
  md.push(`|---|${cells.map(() => '---').join('|')}|`);
  for (const k of kinds) {
    const rs = withCells.filter((r) => r.kind === k);
    if (!rs.length) continue;
    const pct = (cell, f) => {
      const cs = rs.map((r) => r.modelCells.find((c) => c.cell === cell)).filter(Boolean);
      const n = cs.reduce((a, c) => a + c.n, 0);
      return ((100 * cs.reduce((a, c) => a + c[f], 0)) / n).toFixed(1);
    };
    md.push(`| ${k} | ${cells.map((c) => `${pct(c, 'predPos')}% [${pct(c, 'labelPos')}%]`).join(' | ')} |`);
  }
  md.push('');
}
writeFileSync(join(values.dir, 'summary.md'), md.join('\n'));

// strip plot of d(group=B) per kind with the fair band, one file per GAN mode
function strip(rows, allBands, title, file) {
  const get = (ds, key) => ds.find((d) => d.key === key);
  const W = 560,
    H = 230,
    L = 110,
    R = 20,
    T = 40,
    B = 30;
  const all = rows.map((x) => get(x.dec.canonical, 'group=B')).filter(Boolean);
  const lo = Math.min(-1, ...all.map((d) => d.d)),
    hi = Math.max(0.6, ...all.map((d) => d.d));
  const X = (v) => L + ((v - lo) / (hi - lo)) * (W - L - R);
  const band = allBands.canonical.get('group=B');
  const h = Math.max(FLAG_K * band.sd, ...all.map((d) => d.halfWidth));
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11"><rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="16" font-size="12" font-weight="600">${title}: canonical gap d(group=B) per seed</text>`,
    `<rect x="${X(band.mean - h)}" y="${T}" width="${X(band.mean + h) - X(band.mean - h)}" height="${H - T - B}" ` +
      `fill="#ddd"/>`,
    `<line x1="${X(band.mean)}" x2="${X(band.mean)}" y1="${T}" y2="${H - B}" stroke="#888"/>`,
  ];
  kinds.forEach((k, i) => {
    const y = T + 15 + i * ((H - T - B - 20) / 3);
    svg.push(`<text x="${L - 8}" y="${y + 4}" text-anchor="end">${k}</text>`);
    for (const x of rows.filter((q) => q.r.kind === k)) {
      const d = get(x.dec.canonical, 'group=B');
      if (d)
        svg.push(
          `<circle cx="${X(d.d).toFixed(1)}" cy="${y}" r="4" fill="${d.flagged ? '#d55e00' : '#0072b2'}" ` +
            `fill-opacity="0.8"/>`,
        );
    }
  });
  for (const t of [-1, -0.5, 0, 0.5])
    if (t >= lo && t <= hi) svg.push(`<text x="${X(t)}" y="${H - 10}" text-anchor="middle">${t}</text>`);
  svg.push(
    `<text x="${L}" y="32" fill="#555">grey: fair-mode band m ± h (src/audit/flags.ts); orange: flagged</text></svg>`,
  );
  writeFileSync(join(values.dir, file), svg.join(''));
}
if (A) strip(A.rows, A.allBands, 'consistency mode', 'gap-group-B.svg');
if (Bp) strip(Bp.rows, Bp.allBands, 'paper mode', 'gap-group-B-paper.svg');
console.log(md.join('\n'));
