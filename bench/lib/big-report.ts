// BENCHMARKS.md's big-data section, from bench/results/big-data.json (written by `node dist/bench/big.js`,
// a run of its own: minutes). Absent file: the section says how to make it.
import { existsSync, readFileSync } from 'node:fs';
import type { BigRun } from '../big.js';

export const BIG_RESULTS = 'bench/results/big-data.json';

interface BigDoc {
  started: string;
  node: string;
  cpu?: string;
  load: { before: number[]; after: number[] };
  runs: BigRun[];
}

export function bigDataSection(path = BIG_RESULTS): string[] {
  const lines = ['## Ten million rows (metrics and FALE, streamed)', ''];
  if (!existsSync(path)) {
    lines.push(
      `No \`${path}\`: run \`node dist/bench/big.js\` (writes a simulated file of 10,000,000 rows first), then \`npm ` +
        `run bench:write\`.`,
      '',
    );
    return lines;
  }
  const doc = JSON.parse(readFileSync(path, 'utf8')) as BigDoc;
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  lines.push(
    `Measured by \`node dist/bench/big.js\` on ${doc.started.slice(0, 16).replace('T', ' ')} UTC ` +
      `(${doc.node}${doc.cpu ? `, ${doc.cpu}` : ''}; load average before ` +
      `${doc.load.before.map((x) => x.toFixed(2)).join(', ')}, after ` +
      `${doc.load.after.map((x) => x.toFixed(2)).join(', ')}). Each row is one run in a child process of its own;` +
      ` its peak RSS is that process's. The baseline, in the same process, is a scan of the file's bytes for ` +
      `line breaks.`,
    '',
    '`metrics`: what `lucid metrics --label approved --positive yes --pred p --group sex --group group` does (the ' +
      'columns read in chunks into typed arrays; the ECE interval included). `fale`: what `lucid fale --model ' +
      'sim-model.json --label approved --positive yes --protected group=B --feature income` does (streamed in ' +
      'three passes; the model is called on 2 × 10 M modified rows and the 10 M rows as they are).',
    '',
    '| task | format | rows | file | wall s | rows/s | vs byte scan | peak RSS |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const r of doc.runs) {
    lines.push(
      `| ${r.task} | ${r.format} | ${f(r.rows)} | ${f(r.bytes / 1e6)} MB | ${f(r.ms / 1000, 1)} | ` +
        `${f(r.rows / (r.ms / 1000))} | ${f(r.ms / r.baselineMs, 1)}× | ${f(r.maxRssMB)} MB |`,
    );
  }
  lines.push(
    '',
    'Targets (#20): peak RSS ≤ 500 MB; metrics ≥ 1,000,000 rows/s from Parquet or Arrow, ≥ 300,000 rows/s from CSV.',
    '',
  );
  return lines;
}
