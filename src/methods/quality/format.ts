// The table form of a quality report (`lucid quality`). Core code: no Node imports.
import type { PairTrend, QualityReport, ValiditySide } from './report.js';
import type { FeatureFidelity } from './fidelity.js';
import { PRIVACY_RULE, privacyHolds } from './beyond.js';
import { MISSING, pctText as pct } from '../../data/text.js';

const f4 = (x: number | null | undefined) =>
  x === null || x === undefined || Number.isNaN(x) ? MISSING.text : x.toFixed(4);
const f2 = (x: number | null | undefined) =>
  x === null || x === undefined || Number.isNaN(x) ? MISSING.text : x.toFixed(2);
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

function sideLine(s: ValiditySide, label: string, above: boolean): string {
  if (s.rows === 0) return `  ${label}: no rows`;
  return (
    `  ${label}: ${s.valid} of ${s.rows} rows (${pct(s.rate)}) scored ${above ? 'above' : 'below'} 0.5; mean score ` +
    `${f4(s.meanScore)}`
  );
}

/** Pairs sorted from the worst score (undefined scores last), ties in column order. */
export function worstPairs(pairs: readonly PairTrend[], k = 10): PairTrend[] {
  return pairs
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.score ?? Infinity) - (b.p.score ?? Infinity) || a.i - b.i)
    .slice(0, k)
    .map((x) => x.p);
}

/** Per-column scores, the pair summary (the `top` worst pairs and the means) and validity. */
export function formatQuality(r: QualityReport, top = 10): string {
  const shapes = r.columnShapes;
  const trends = r.columnPairTrends;
  const lines: string[] = [
    `${r.synthetic.name} (${plural(r.synthetic.rows, 'row')}) against ${r.real.name} ` +
      `(${plural(r.real.rows, 'row')}): ${plural(r.columns.length, 'column')} compared` +
      (r.excluded.length > 0 ? `; not compared: ${r.excluded.map((e) => `${e.column} (${e.reason})`).join(', ')}` : ''),
    `overall ${f4(r.overall)} (mean of column shapes and column-pair trends; 1 is best)`,
    '',
  ];
  const nNum = shapes.columns.filter((c) => c.kind === 'numeric').length;
  const nCat = shapes.columns.length - nNum;
  lines.push(
    `column shapes ${f4(shapes.score)}: KS-complement ${f4(shapes.ksComplement)} over ` +
      `${plural(nNum, 'numeric column')}, TV-complement ${f4(shapes.tvComplement)} over ` +
      `${plural(nCat, 'categorical column')}`,
  );
  const nameW = Math.max(6, ...shapes.columns.map((c) => c.column.length));
  lines.push(`  ${'column'.padEnd(nameW)}  ${'kind'.padEnd(11)}  ${'metric'.padEnd(12)}  ${'score'.padStart(6)}`);
  for (const c of shapes.columns) {
    const extra =
      c.syntheticOnly && c.syntheticOnly.length > 0
        ? `  synthetic-only: ${c.syntheticOnly.slice(0, 5).join(', ')}${c.syntheticOnly.length > 5 ? ', …' : ''}`
        : '';
    lines.push(
      `  ${c.column.padEnd(nameW)}  ${c.kind.padEnd(11)}  ${c.metric.padEnd(12)}  ${f4(c.score).padStart(6)}${extra}`,
    );
  }
  lines.push('');
  const nCorr = trends.pairs.filter((p) => p.metric === 'CorrelationSimilarity').length;
  const nCont = trends.pairs.length - nCorr;
  lines.push(
    `column-pair trends ${f4(trends.score)} over ${plural(trends.pairs.length, 'pair')}: correlation similarity ` +
      `(${r.settings.correlation}) ${f4(trends.correlationSimilarity)} over ${plural(nCorr, 'numeric pair')}, ` +
      `contingency similarity ${f4(trends.contingencySimilarity)} over ${plural(nCont, 'other pair')} (numeric ` +
      `columns in ${r.settings.bins} equal-width bins of the real range)`,
  );
  const worst = worstPairs(trends.pairs, top);
  if (worst.length > 0) {
    lines.push(
      `  the ${worst.length === trends.pairs.length ? plural(worst.length, 'pair') : `${worst.length} worst pairs`}:`,
    );
    const names = worst.map((p) => `${p.columns[0]} × ${p.columns[1]}`);
    const w = Math.max(...names.map((n) => n.length));
    worst.forEach((p, i) => {
      const rho =
        p.metric === 'CorrelationSimilarity'
          ? `  ρ real ${f2(p.realCorrelation)}, synthetic ${f2(p.syntheticCorrelation)}`
          : '';
      lines.push(`  ${names[i].padEnd(w)}  ${p.metric.padEnd(21)}  ${f4(p.score).padStart(6)}${rho}`);
    });
  }
  lines.push('');
  const fd = r.fidelity;
  if (fd) {
    lines.push(
      `fidelity against ${fd.against} (KS for numeric columns, TV for categorical ones; 0 is best; noise: the 95th ` +
        `percentile of the same distance between two resamples of the real rows): ${fd.faithful} of ` +
        `${plural(fd.columns.length, 'column')} within max(noise, ${fd.tolerance})` +
        (fd.note ? `\n  note: ${fd.note}` : ''),
    );
    const w = Math.max(6, ...fd.columns.map((c) => c.feature.length));
    const side = (x: FeatureFidelity['positive']) => (x ? `${f4(x.distance)} (noise ${f4(x.floor)})` : MISSING.text);
    const sided = fd.against !== 'every real row';
    lines.push(
      `  ${'column'.padEnd(w)}  metric  ${sided ? 'positive side'.padEnd(22) + '  negative side' : 'distance'}`,
    );
    for (const c of fd.columns)
      lines.push(
        `  ${c.feature.padEnd(w)}  ${c.metric.padEnd(6)}  ` +
          `${sided ? `${side(c.positive).padEnd(22)}  ${side(c.negative)}` : side(c.positive)}` +
          `${c.faithful ? '' : '  ⚠ beyond the noise and the tolerance'}`,
      );
    lines.push('');
  }
  if (r.relations.length) {
    lines.push(
      `relations of ${r.real.name} (exact dependencies, and arithmetic identities on at least 99% of its rows): rows ` +
        `breaking each`,
    );
    const w = Math.max(8, ...r.relations.map((x) => x.text.length));
    const share = (x: { rows: number; breaks: number }) =>
      x.rows > 0 ? `${pct(x.breaks / x.rows)} (${x.breaks} of ${x.rows})` : MISSING.text;
    lines.push(`  ${'relation'.padEnd(w)}  ${'real'.padEnd(22)}  synthetic`);
    for (const x of r.relations)
      lines.push(
        `  ${x.text.padEnd(w)}  ${share(x.real).padEnd(22)}  ${share(x.synthetic)}${
          x.synthetic.rows > 0 &&
          x.synthetic.breaks / x.synthetic.rows > (x.real.rows > 0 ? x.real.breaks / x.real.rows : 0) + 0.01
            ? '  ⚠ broken more often than in the real rows'
            : ''
        }`,
      );
    lines.push('');
  }
  const b = r.beyond;
  if (b) {
    lines.push(
      'beyond single columns (each beside its noise floor: the same figure between two samples of the real rows):',
    );
    const pt = b.pairTrends;
    lines.push(
      `  pair trends ${f4(pt.score)} over ${plural(pt.pairs, 'pair')} (noise floor ` +
        `${f4(pt.floor)})${pt.score < pt.floor ? '  ⚠ below the noise floor' : ''}; worst: ${
          pt.worst
            .slice(0, 3)
            .map((x) => `${x.a} × ${x.b} ${f4(x.similarity)}`)
            .join(', ') || MISSING.text
        }`,
    );
    const d = b.detection;
    lines.push(
      `  detection ${f4(d.score)} (1 − (2·AUC − 1); AUC ${f4(d.auc)} of a logistic regression on rows it did not ` +
        `train on; real rows against real rows ≥ ${f4(d.floor)})` +
        `${d.score < d.floor ? '  ⚠ below the noise floor: the rows can be told apart' : ''}`,
    );
    const p = b.privacy;
    const ok = privacyHolds(p);
    lines.push(
      `  privacy against ${
        p.against === 'halves'
          ? 'half of the real rows (the other half as the training rows; give --held-out for rows the generator did ' +
            'not train on)'
          : 'the held-out rows'
      }: exact copies ${pct(p.generated.exactShare)} (held-out ${pct(p.heldOut.exactShare)}); 5th percentile ` +
        `of the distance to the closest training row ${f4(p.generated.p5)} (held-out ${f4(p.heldOut.p5)}, ratio ` +
        `${p.ratioP5 === null ? MISSING.text : f2(p.ratioP5)})${
          ok
            ? ': no sign of copying'
            : `  ⚠ closer to the training rows than held-out rows (more than ${pct(PRIVACY_RULE.copyMargin)} extra ` +
              `copies beyond ${PRIVACY_RULE.z} standard errors, or under ${PRIVACY_RULE.p5Ratio}× their distance)`
        }`,
    );
    lines.push('');
  }
  const v = r.validity;
  if (!v) {
    lines.push('validity: not measured (give --model FILE or --pred COLUMN, and --condition)');
  } else {
    const cond =
      v.condition.value !== null
        ? `${v.condition.column} = ` +
          `${v.condition.value}${v.condition.source === 'given' ? ' (given)' : ' (read from the column)'}`
        : `${v.condition.column} per row`;
    lines.push(`validity ${pct(v.rate)}: ${v.model} on ${plural(v.rows, 'synthetic row')} generated at ${cond}`);
    if (v.positive.rows > 0 || v.negative.rows === 0) lines.push(sideLine(v.positive, 'generated above 0.5', true));
    if (v.negative.rows > 0) lines.push(sideLine(v.negative, 'generated below 0.5', false));
    if (v.onThreshold > 0)
      lines.push(`  ${plural(v.onThreshold, 'row')} generated at exactly 0.5 (counted on neither side)`);
    lines.push(
      `  mean |score − condition| ` +
        `${f4(v.meanAbsError)}` +
        `${v.correlation !== null ? `; correlation of score and condition ${f4(v.correlation)}` : ''}`,
    );
  }
  return lines.join('\n') + '\n';
}
