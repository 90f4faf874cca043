// BENCHMARKS.md's time-to-quality section, from bench/results/time-to-quality.json (written by
// `node dist/bench/quality.js`, a run of its own: minutes per data set). Absent file: the section says
// how to make it.
import { existsSync, readFileSync } from 'node:fs';
import type { FrontierDoc, QualityRun } from '../quality.js';

export const QUALITY_RESULTS = 'bench/results/time-to-quality.json';

interface QualityDoc {
  started: string;
  threads: number;
  node: string;
  cpu?: string;
  load: { before: number[]; after: number[] };
  runs: QualityRun[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function qualitySection(path = QUALITY_RESULTS): string[] {
  const lines = ['## Time to quality (LUCID-GAN schedules)', ''];
  if (!existsSync(path)) {
    lines.push(
      `No \`${path}\`: run \`node dist/bench/quality.js\` (needs the Adult and COMPAS files), then \`npm run ` +
        `bench:write\`.`,
      '',
    );
    return lines;
  }
  const doc = JSON.parse(readFileSync(path, 'utf8')) as QualityDoc;
  lines.push(
    `Measured by \`node dist/bench/quality.js\` on ${doc.started.slice(0, 16).replace('T', ' ')} UTC (${doc.threads} ` +
      `threads, ${doc.node}; load average before ${doc.load.before.map((x) => x.toFixed(2)).join(', ')}, after ` +
      `${doc.load.after.map((x) => x.toFixed(2)).join(', ')}). Protocol and decision: EXPERIMENTS.md §9.`,
    '',
    'Quality is the canonical sets drawn as the default audit draws them (observed condition, rejection through the ' +
      'model, 1,000 rows per side) against every real row of the split on their side: the mean KS/TV over ' +
      "features and sides (lower is better), and the rejection sampler's acceptance (positive / negative side). " +
      "Time is one GAN seed's training wall time, its schedule's own checks included, the measuring left out. " +
      'Each cell: the mean over the GAN seeds (range).',
    '',
    '| data | schedule | steps trained | steps kept | training s | fidelity | acceptance pos / neg | time vs paper |',
    '|---|---|---|---|---|---|---|---|',
  );
  const datasets = [...new Set(doc.runs.map((r) => r.data))];
  const schedules = [...new Set(doc.runs.map((r) => r.schedule))];
  const rng = (xs: number[], d: number) =>
    `${mean(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
  for (const d of datasets) {
    const paper = doc.runs.filter((r) => r.data === d && r.schedule === 'paper');
    const paperTime = median(paper.map((r) => r.final.seconds));
    for (const s of schedules) {
      const rs = doc.runs.filter((r) => r.data === d && r.schedule === s);
      if (!rs.length) continue;
      const t = rs.map((r) => r.final.seconds);
      lines.push(
        `| ${d} | ${s} | ${rng(
          rs.map((r) => r.stoppedAt ?? r.final.steps),
          0,
        )} | ${rng(
          rs.map((r) => r.final.steps),
          0,
        )} | ${rng(t, 1)} | ${rng(
          rs.map((r) => r.final.fidelity),
          3,
        )} | ${(100 * mean(rs.map((r) => r.final.acceptance[0]))).toFixed(0)}% / ` +
          `${(100 * mean(rs.map((r) => r.final.acceptance[1]))).toFixed(0)}% | ` +
          `${paper.length && s !== 'paper' ? `${(median(t) / paperTime).toFixed(2)}× (median)` : '–'} |`,
      );
    }
  }
  lines.push(
    '',
    '![time to quality](bench/results/time-to-quality.svg)',
    '',
    "The first run (EXPERIMENTS.md §9.2: `paper`, `fast` and `fast, width 128` on audit seed 0's GAN seeds) is in " +
      '`bench/results/time-to-quality-s9.2.json` and `.svg`.',
    '',
  );
  // the curves as numbers: fidelity at each measured point, the paper schedule's seed mean
  lines.push(
    "The paper schedule's curve (mean over seeds at each measured step; seconds: the median):",
    '',
    '| data | steps | training s | fidelity | acceptance pos / neg |',
    '|---|---|---|---|---|',
  );
  for (const d of datasets) {
    const paper = doc.runs.filter((r) => r.data === d && r.schedule === 'paper');
    const steps = [...new Set(paper.flatMap((r) => r.points.map((p) => p.steps)))].sort((a, b) => a - b);
    for (const st of steps) {
      const ps = paper
        .map((r) => r.points.find((p) => p.steps === st))
        .filter((p): p is NonNullable<typeof p> => p !== undefined);
      lines.push(
        `| ${d} | ${st} | ${median(ps.map((p) => p.seconds)).toFixed(1)} | ` +
          `${mean(ps.map((p) => p.fidelity)).toFixed(3)} | ` +
          `${(100 * mean(ps.map((p) => p.acceptance[0]))).toFixed(0)}% / ` +
          `${(100 * mean(ps.map((p) => p.acceptance[1]))).toFixed(0)}% |`,
      );
    }
  }
  lines.push('');
  return lines;
}

export const FRONTIER_RESULTS = 'bench/results/frontier.json';

/**
 * §12's table: per setting, configuration and rule, the mean over the GAN seeds, against the reference (`base, fixed
 * 1`).
 */
export function frontierTable(doc: FrontierDoc): string[] {
  const d = doc.decision;
  if (!d) return ['The run did not finish: no decision in the file.'];
  const lines = [
    '| data | configuration | rule | steps kept (mean) | eval fidelity (range) | in-sample | acceptance pos / neg | ' +
      'median s | vs reference | (a) fidelity ≤ ref + tol | (b) acceptance ≥ ref − 5 |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  for (const c of d.cells) {
    const os = doc.runs
      .filter((r) => r.data === c.setting && r.config === c.config)
      .map((r) => r.rules.find((o) => o.rule === c.rule)!);
    const isRef = c.config === d.reference.config && c.rule === d.reference.rule;
    lines.push(
      `| ${c.setting} | ${c.config} | ${c.rule} | ${mean(os.map((o) => o.keptSteps)).toFixed(0)} | ` +
        `${c.evalMean.toFixed(3)} (${c.evalMin.toFixed(3)}–${c.evalMax.toFixed(3)}) | ` +
        `${mean(os.map((o) => o.inSample)).toFixed(3)} | ${pct(mean(os.map((o) => o.acceptance[0])))} / ` +
        `${pct(mean(os.map((o) => o.acceptance[1])))} | ${c.secondsMedian.toFixed(1)} | ` +
        `${isRef ? 'reference' : `${c.ratio.toFixed(2)}×`} | ${
          isRef
            ? '–'
            : `${c.fidelityOk ? 'yes' : 'no'} (${c.diffMean >= 0 ? '+' : ''}${c.diffMean.toFixed(3)}, tol ` +
              `${c.tolerance.toFixed(3)})`
        } | ${isRef ? '–' : c.acceptanceOk ? 'yes' : 'no'} |`,
    );
  }
  return lines;
}

/**
 * BENCHMARKS.md's time-to-fidelity section, from bench/results/frontier.json (`node dist/bench/quality.js --frontier`).
 */
export function frontierSection(path = FRONTIER_RESULTS): string[] {
  const lines = ['## Time to fidelity (issue #36)', ''];
  if (!existsSync(path)) {
    lines.push(
      `No \`${path}\`: run \`node dist/bench/quality.js --frontier\` (needs the Adult and COMPAS files), then \`npm ` +
        `run bench:write\`.`,
      '',
    );
    return lines;
  }
  const doc = JSON.parse(readFileSync(path, 'utf8')) as FrontierDoc;
  const loads = doc.runs.map((r) => r.load);
  const when = (s?: string) => (s ? s.slice(0, 16).replace('T', ' ') : '?');
  lines.push(
    `Measured by \`${doc.command}\` from ${when(doc.started)} to ${when(doc.finished)} UTC (${doc.threads} threads, ` +
      `${doc.node}; load average before ${doc.load.before.map((x) => x.toFixed(2)).join(', ')}, after ` +
      `${(doc.load.after ?? []).map((x) => x.toFixed(2)).join(', ')}; at the start of the runs ` +
      `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on 2 cores, so the seconds compare ` +
      `within a setting only). Protocol and decision rule: EXPERIMENTS.md §12; the results, what they mean and ` +
      `where the run differs from the protocol: §12.4.`,
    '',
    `${(100 * doc.holdout.share).toFixed(0)}% of each setting's rows are held out of everything (split by the ` +
      `model's decision, seed \`${doc.holdout.seedText}\`); the GANs train on the rest, to the audit's step ` +
      `budget, checked every ${doc.every} steps rounded up to whole epochs. At each check the sets are drawn as ` +
      `today's default audit draws them (matched condition, rejection through the model, the linear correction ` +
      `from 4× candidates against the training rows of the side, ${doc.setRows} rows per side): the eval ` +
      `fidelity is their mean KS/TV over features and sides against the held-out rows (lower is better), the ` +
      `in-sample score the same against the training rows. A rule's seconds: training seconds at its stop plus ` +
      `the checks it read; a fixed fraction reads none. Each cell: the mean over the GAN seeds; seconds: the ` +
      `median; the last two columns: §12.3's (a) and (b) (the paired mean difference to the reference and its ` +
      `tolerance).`,
    '',
    ...frontierTable(doc),
    '',
  );
  // the frontier's choice was then checked on §11's fidelity measures, as §12.3 required (§12.6)
  if (doc.decision)
    lines.push(
      `**Decision (§12.3):** ${doc.decision.text} **Not adopted:** the check §12.3 required, on issue #35's measures ` +
        `over 12 audits, found it worse beyond noise (mean KS/TV +0.005 [+0.001, +0.009]; EXPERIMENTS.md §12.6), ` +
        `so the default stays \`paper\`; \`--gan-schedule plateau\` is the option.`,
      '',
    );
  lines.push('![time to fidelity](bench/results/frontier.svg)', '');
  return lines;
}
