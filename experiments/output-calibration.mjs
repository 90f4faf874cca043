#!/usr/bin/env node
// EXPERIMENTS.md §13: the false-alarm rate, the power and the coding invariance of the verdicts of the output kinds
// beyond binary decisions (score, multiclass, regression) on the bias simulator's planted outputs. `run` audits each
// seed's sample as named and coded the other way, with `outputMetrics` (what `lucid metrics --output …` prints) and
// SIM_TARGETS' flags, and the same comparisons on a 200,000-row population; it writes one JSON per audit. `analyse`
// counts against §13.1's null and targets T1–T4.
//
//   npx tsc -p tsconfig.json && node experiments/output-calibration.mjs run --target score|multiclass|regression
//        [--kinds fair,direct,proxy,intersectional] [--seeds 0-19] [--rows 2000] [--population 200000]
//        [--codings as-named,recoded] [--out out/experiments/outputs]
//   node experiments/output-calibration.mjs analyse [--out out/experiments/outputs]
//
// One audit is one Holm family, as §8's: the comparisons of sex and group and those of their intersection (two
// reports of outputMetrics, as `lucid metrics` gives them without and with --intersect) corrected together by
// correctTogether, the library's correction of an audit's attributes and intersection. Each comparison also keeps the
// verdict of its own report's family (`verdictAlone`), for the record. The bootstraps of the figures no verdict reads
// (a score's KS and Wasserstein intervals, a real value's median and distances) keep their defaults in the audit and
// are off on the population, where only the compared values are read.
import { parseArgs } from 'node:util';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { values: parsed, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: 'string', default: 'score' },
    kinds: { type: 'string', default: 'fair,direct,proxy,intersectional' },
    seeds: { type: 'string', default: '0-19' },
    rows: { type: 'string', default: '2000' },
    population: { type: 'string', default: '200000' },
    codings: { type: 'string', default: 'as-named,recoded' },
    // score coded the other way: 'given' passes −t (§13.1), 'default' lets the recoded run take its own default cut
    'recoded-cut': { type: 'string', default: 'given' },
    out: { type: 'string', default: 'out/experiments/outputs' },
  },
});
// parseArgs's types (@types/node 20) leave an option that has a default possibly undefined
const values = /** @type {typeof parsed & {
 *   target: string, kinds: string, seeds: string, rows: string, population: string, codings: string, out: string,
 *   'recoded-cut': string
 * }} */ (parsed);
const runsDir = join(values.out, 'runs');
const seedList = (s) =>
  s.split(',').flatMap((p) => {
    const m = /^(\d+)-(\d+)$/.exec(p);
    if (!m) return [Number(p)];
    return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
  });

const TOL = 0.8;
const inBand = (r) => r !== null && r >= TOL && r <= 1 / TOL;
const INTERSECTION = 'sex × group';

/** SIM_TARGETS' `lucid metrics` flags ("--output score --positive yes …") as outputMetrics' options. */
function flagsAsOptions(flags) {
  const words = flags.trim().split(/\s+/);
  /** @type {Record<string, unknown>} */
  const o = {};
  for (let i = 0; i < words.length; i += 2) {
    const name = words[i].replace(/^--/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    o[name] = name === 'classOrder' ? words[i + 1].split(',') : words[i + 1];
  }
  return o;
}

/** A comparison's key across codings: attribute, group, class (multiclass) and metric. */
const keyOf = (c) => `${c.attribute}|${c.group}|${c.class ?? ''}|${c.metric}`;

async function run() {
  const { initNodeEngine } = await import('../dist/src/node/engine.js');
  const { Rng } = await import('../dist/src/engine/rng.js');
  const { simulate, SIM_TARGETS, SIM_DECISIONS } = await import('../dist/src/data/simulator.js');
  const { outputMetrics, correctTogether } = await import('../dist/src/methods/metrics/index.js');
  const { scoreThreshold } = await import('../dist/src/methods/metrics/score.js');
  const { sortedCopy } = await import('../dist/src/methods/metrics/distance.js');
  mkdirSync(runsDir, { recursive: true });
  const engine = await initNodeEngine();
  const target = /** @type {'score' | 'multiclass' | 'regression'} */ (values.target);
  if (!['score', 'multiclass', 'regression'].includes(target))
    throw new Error(`output-calibration: --target is score, multiclass or regression, got ${target}`);
  const spec = SIM_TARGETS[target];
  const named = flagsAsOptions(spec.audit);
  const label = spec.label;
  const pred = /** @type {string} */ (spec.prediction);
  const rows = Number(values.rows);
  const popRows = Number(values.population);

  /**
   * The table and the options of one coding (EXPERIMENTS.md §13.1): score — s → −s, the other label value positive,
   * favourable flipped, the threshold −t (t the default cut of the scores as named); multiclass — the classes renamed
   * to their codes 0/1/2 (numbers, as a CSV of codes reads) with the matching class order; regression — the label
   * and the prediction ×1000.
   */
  function coded(table, coding) {
    if (coding === 'as-named') return { table, opts: { ...named } };
    const col = (name) => table.columns.find((c) => c.name === name);
    const replace = (repl) => ({ rows: table.rows, columns: table.columns.map((c) => repl[c.name] ?? c) });
    if (target === 'score') {
      const s = col(pred).values;
      const t = scoreThreshold(sortedCopy(s), undefined, /** @type {"higher" | "lower"} */ (named.favourable)).value;
      const labelCol = col(label);
      const other = labelCol.categories.find((v) => v !== named.positive);
      return {
        table: replace({ [pred]: { kind: 'numeric', name: pred, values: Float64Array.from(s, (v) => -v) } }),
        opts: {
          ...named,
          positive: other,
          favourable: named.favourable === 'higher' ? 'lower' : 'higher',
          ...(values['recoded-cut'] === 'default' ? {} : { threshold: -t }),
        },
      };
    }
    if (target === 'multiclass') {
      const num = (c) => ({ kind: 'numeric', name: c.name, values: Float64Array.from(c.codes, (k) => k) });
      const code = (name) => String(SIM_DECISIONS.indexOf(name));
      return {
        table: replace({ [label]: num(col(label)), [pred]: num(col(pred)) }),
        opts: { ...named, classOrder: /** @type {string[]} */ (named.classOrder).map(code) },
      };
    }
    const times = (c) => ({ kind: 'numeric', name: c.name, values: Float64Array.from(c.values, (v) => v * 1000) });
    return { table: replace({ [label]: times(col(label)), [pred]: times(col(pred)) }), opts: { ...named } };
  }

  /**
   * One audit of `table`: sex and group, and their intersection, one Holm family. `refs` fixes the references (the
   * population's are the audit's); `bootstrap` 0 turns off the intervals no verdict reads. Returns the comparisons.
   */
  function audit(table, opts, refs, bootstrap, seed) {
    const common = {
      label,
      pred,
      ...opts,
      groups: ['sex', 'group'],
      rng: new Rng(engine, seed),
      ...(bootstrap === undefined || target === 'multiclass' ? {} : { bootstrap }),
    };
    const a = outputMetrics(table, { ...common, ...(refs ? { reference: refs.attributes } : {}) });
    const i = outputMetrics(table, {
      ...common,
      intersect: true,
      ...(refs ? { reference: refs.intersection } : {}),
    });
    const parts = (r) => (r.kind === 'score' ? [r.report.thresholdView, r.report] : [r.report]);
    const judged = (r) =>
      parts(r).flatMap((p) =>
        p.attributes.flatMap((at) =>
          at.comparisons.map((c) => ({ attribute: at.column, c, biasBand: at.biasBand ?? null })),
        ),
      );
    const alone = new Map(
      judged(a)
        .concat(judged(i))
        .map(({ c }) => [c, c.verdict]),
    );
    correctTogether([...parts(a), ...parts(i)]);
    const comparisons = judged(a)
      .concat(judged(i))
      .map(({ attribute, c, biasBand }) => ({
        attribute,
        group: c.group,
        reference: c.reference,
        metric: c.metric,
        ...(c.class !== undefined ? { class: c.class } : {}),
        scale: c.scale ?? 'ratio',
        ratio: c.ratio,
        difference: c.difference,
        band: c.scale === 'difference' ? biasBand : null,
        pAdjusted: c.pAdjusted,
        verdict: c.verdict,
        verdictAlone: alone.get(c),
        direction: c.direction,
      }));
    const refOf = (r) => Object.fromEntries(r.report.attributes.map((at) => [at.column, at.reference.value]));
    const ri = refOf(i)[INTERSECTION].split(', ');
    return {
      comparisons,
      refs: { attributes: refOf(a), intersection: { sex: ri[0], group: ri[1] } },
      threshold: a.kind === 'score' ? a.report.threshold.value : null,
    };
  }

  // simulate checks each kind
  for (const kind of /** @type {import('../dist/src/data/simulator.js').BiasKind[]} */ (values.kinds.split(','))) {
    for (const seed of seedList(values.seeds)) {
      const t0 = performance.now();
      const data = simulate(new Rng(engine, 2000 + seed), { n: rows, bias: kind, target });
      const pop = simulate(new Rng(engine, 3000 + seed), { n: popRows, bias: kind, target });
      const simSeconds = (performance.now() - t0) / 1000;
      for (const coding of values.codings.split(',')) {
        const t1 = performance.now();
        const d = coded(data.table, coding);
        const au = audit(d.table, d.opts, null, undefined, seed);
        const auditSeconds = (performance.now() - t1) / 1000;
        const p = coded(pop.table, coding);
        const po = audit(p.table, p.opts, au.refs, 0, seed);
        const popOf = new Map(po.comparisons.map((c) => [keyOf(c), c]));
        const comparisons = au.comparisons.map((c) => {
          const q = popOf.get(keyOf(c));
          const isNull =
            q === undefined
              ? false
              : c.scale === 'difference'
                ? q.difference !== null && q.band !== null && Math.abs(q.difference) <= q.band[1]
                : inBand(q.ratio);
          return {
            ...c,
            population: q ? { ratio: q.ratio, difference: q.difference, band: q.band } : null,
            null: isNull,
          };
        });
        const out = {
          target,
          kind,
          seed,
          rows,
          population: popRows,
          coding,
          options: d.opts,
          threshold: au.threshold,
          populationThreshold: po.threshold,
          references: au.refs,
          family: comparisons.length,
          comparisons,
          seconds: { simulate: simSeconds, audit: auditSeconds, total: (performance.now() - t1) / 1000 + simSeconds },
        };
        const file = `${target}-${kind}-${rows}-${seed}${coding === 'recoded' ? '-recoded' : ''}.json`;
        writeFileSync(join(runsDir, file), JSON.stringify(out));
        const fl = comparisons.filter((c) => c.verdict === 'flagged');
        process.stdout.write(
          `${target} ${kind} ${rows} seed ${seed} ${coding}: ${fl.length} flagged ` +
            `(${fl.filter((c) => c.null).length} false alarms) of ${out.family}; audit ${auditSeconds.toFixed(2)} s, ` +
            `total ${out.seconds.total.toFixed(1)} s\n`,
        );
      }
    }
  }
}

/** The kind's main comparison (§13.1 T2): score — the threshold view's selection rate; multiclass — the rate of
 * receiving the least favourable class; regression — the mean prediction. */
function isMain(r, c) {
  const place =
    r.kind === 'intersectional'
      ? c.attribute === INTERSECTION && c.group === 'Female, B'
      : c.attribute === 'group' && c.group === 'B';
  if (!place) return false;
  if (r.target === 'score') return c.metric === 'selection_rate';
  if (r.target === 'regression') return c.metric === 'mean_prediction';
  const order = r.options.classOrder;
  return c.metric === 'positivity_rate' && c.class === order[order.length - 1];
}

// each recoded comparison's name as named: the threshold view's binary metrics mapped as §8.3 (TPR ↔ TNR, FNR ↔ FPR,
// PPV ↔ NPV, FDR ↔ FOR), a class's code back to its name
const IMAGE = { tpr: 'tnr', tnr: 'tpr', fnr: 'fpr', fpr: 'fnr', ppv: 'npv', npv: 'ppv', fdr: 'for', for: 'fdr' };
const CLASS_NAME = { 0: 'approve', 1: 'decline', 2: 'refer' };

function analyse() {
  const all = readdirSync(runsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(runsDir, f), 'utf8')));
  const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const pct = (a, b) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : '—'}%)`;
  const fmt = (x, d = 3) => (x === null || x === undefined ? '—' : Number(x).toPrecision(d));
  const lines = [];
  for (const target of ['score', 'multiclass', 'regression']) {
    const ofTarget = all.filter((r) => r.target === target);
    if (!ofTarget.length) continue;
    const runs = ofTarget.filter((r) => r.coding === 'as-named');
    const recoded = ofTarget.filter((r) => r.coding === 'recoded');
    lines.push(`## ${target}`, '');
    for (const field of ['verdict', 'verdictAlone']) {
      const flagged = (c) => c[field] === 'flagged';
      const falseAlarms = (r) => r.comparisons.filter((c) => flagged(c) && c.null);
      const mainOf = (r) => r.comparisons.find((c) => isMain(r, c));
      const missText = (r, m) => {
        const main = m ? `${m.verdict} ${m.direction ?? ''}, ×${fmt(m.ratio)}, p̃ ${fmt(m.pAdjusted)}` : 'absent';
        const fa = falseAlarms(r).length;
        return `seed ${r.seed} (${main}${fa ? `, ${fa} false alarm(s)` : ''})`;
      };
      const found = (r) => {
        const m = mainOf(r);
        return m !== undefined && flagged(m) && m.direction === 'disadvantaged';
      };
      lines.push(
        field === 'verdict'
          ? 'One audit, one Holm family (sex, group and their intersection corrected together, as §8):'
          : 'For the record, each report its own Holm family (sex and group; the intersection), as `lucid metrics` ' +
              'prints them without and with --intersect:',
        '',
        '| bias | rows | audits | any false alarm | main found | main found, no false alarm | flags per audit ' +
          '(median) | null comparisons per audit (median) | family | audit s (median) | wall s (median) |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
      );
      const groups = new Map();
      for (const r of runs) {
        const k = `${['fair', 'direct', 'proxy', 'intersectional'].indexOf(r.kind)} ${String(r.rows).padStart(6)}`;
        groups.set(k, [...(groups.get(k) ?? []), r]);
      }
      let anyFalse = 0;
      const falseList = [];
      const missList = [];
      for (const [, rs] of [...groups].sort()) {
        const { kind, rows } = rs[0];
        const fa = rs.filter((r) => falseAlarms(r).length > 0);
        anyFalse += fa.length;
        const hit = rs.filter(found);
        const clean = hit.filter((r) => falseAlarms(r).length === 0);
        lines.push(
          `| ${kind} | ${rows} | ${rs.length} | ${pct(fa.length, rs.length)} | ` +
            `${kind === 'fair' ? '—' : pct(hit.length, rs.length)} | ` +
            `${kind === 'fair' ? '—' : pct(clean.length, rs.length)} | ` +
            `${med(rs.map((r) => r.comparisons.filter(flagged).length))} | ` +
            `${med(rs.map((r) => r.comparisons.filter((c) => c.null).length))} | ${rs[0].family} | ` +
            `${med(rs.map((r) => r.seconds.audit)).toFixed(2)} | ${med(rs.map((r) => r.seconds.total)).toFixed(1)} |`,
        );
        for (const r of fa)
          falseList.push(
            `${kind} ${rows} seed ${r.seed}: ${falseAlarms(r)
              .map(
                (c) =>
                  `${c.attribute}=${c.group} ${c.class ? `${c.class} ` : ''}${c.metric} ` +
                  (c.scale === 'difference'
                    ? `${fmt(c.difference)} (population ${fmt(c.population?.difference)}, band ±` +
                      `${fmt(c.population?.band?.[1])})`
                    : `×${fmt(c.ratio)} (population ×${fmt(c.population?.ratio)})`) +
                  ` ${c.direction}`,
              )
              .join('; ')}`,
          );
        if (kind !== 'fair') {
          // the main comparison over the bias's runs: its adjusted p, best (smallest) and median, and the runs missed
          const mains = rs.map((r) => ({ r, m: mainOf(r) }));
          const ps = mains.map(({ m }) => m?.pAdjusted ?? 1);
          const missed = mains.filter(({ r }) => !found(r) || falseAlarms(r).length > 0);
          missList.push(
            `${kind} ${rows}: main comparison's ratio median ×${fmt(med(mains.map(({ m }) => m?.ratio ?? 0)))}, ` +
              `adjusted p best ${fmt(Math.min(...ps))}, median ${fmt(med(ps))}` +
              (missed.length
                ? `; not found, or found with a false alarm: ${missed.map(({ r, m }) => missText(r, m)).join(', ')}`
                : ''),
          );
        }
      }
      lines.push('', `Audits with any false alarm: ${pct(anyFalse, runs.length)}.`);
      if (falseList.length) lines.push('', 'False alarms:', ...falseList.map((d) => `- ${d}`));
      lines.push('', 'Main comparison:', ...missList.map((d) => `- ${d}`), '');
    }
    if (recoded.length) {
      // T4: the same comparisons flagged with the same directions; whether the ratios are equal to the last bit too
      const flagsOf = (r, map) =>
        r.comparisons
          .filter((c) => c.verdict === 'flagged')
          .map((c) => {
            const metric = map && target === 'score' ? (IMAGE[c.metric] ?? c.metric) : c.metric;
            const cls = map && target === 'multiclass' ? CLASS_NAME[c.class] : c.class;
            return `${c.attribute}|${c.group}|${cls ?? ''}|${metric}|${c.direction}`;
          })
          .sort();
      let same = 0;
      let sameRatios = 0;
      const differ = [];
      for (const r of recoded) {
        const n = runs.find((x) => x.kind === r.kind && x.rows === r.rows && x.seed === r.seed);
        if (!n) continue;
        const a = flagsOf(n, false);
        const b = flagsOf(r, true);
        if (JSON.stringify(a) === JSON.stringify(b) && n.family === r.family) {
          same++;
          const ratios = (x) =>
            x.comparisons
              .filter((c) => c.verdict === 'flagged')
              .map((c) => (c.scale === 'difference' ? null : c.ratio))
              .sort();
          if (JSON.stringify(ratios(n)) === JSON.stringify(ratios(r))) sameRatios++;
        } else {
          const onlyA = a.filter((x) => !b.includes(x));
          const onlyB = b.filter((x) => !a.includes(x));
          differ.push(
            `${r.kind} ${r.rows} seed ${r.seed}: as named only ${onlyA.join('; ') || '—'}; recoded only ` +
              `${onlyB.join('; ') || '—'}`,
          );
        }
      }
      lines.push(
        `Coded the other way: ${same} of ${recoded.length} runs flag exactly the same comparisons with the same ` +
          `directions (${sameRatios} of them with the same flagged ratios to the last bit).`,
      );
      if (differ.length) lines.push('', 'Runs that differ:', ...differ.map((d) => `- ${d}`));
      lines.push('');
    }
  }
  const text = lines.join('\n') + '\n';
  writeFileSync(join(values.out, 'summary.md'), text);
  process.stdout.write(text);
}

if (positionals[0] === 'run') await run();
else if (positionals[0] === 'analyse') analyse();
else {
  process.stderr.write('usage: node experiments/output-calibration.mjs run|analyse [options]\n');
  process.exit(2);
}
