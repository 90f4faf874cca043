// One measurement of the big-data bench (bench/big.ts), in a process of its own so that its peak RSS
// is its own: first the baseline (the file's bytes scanned for line breaks, in this process), then the
// task. Prints one JSON line: {task, file, rows, baselineMs, ms, maxRssMB}.
//
//   node dist/bench/big-child.js metrics|fale FILE [MODEL]
import { performance } from 'node:perf_hooks';
import { Rng } from '../src/engine/rng.js';
import { initNodeEngine } from '../src/node/engine.js';
import { lineBound } from '../src/node/csv.js';
import { fileSource, readColumns } from '../src/node/columns.js';
import { groupMetrics } from '../src/methods/metrics/index.js';
import { faleStream } from '../src/methods/fale/index.js';
import { loadBlackBox } from '../src/node/blackbox.js';

const [task, file, modelFile] = process.argv.slice(2);
const engine = await initNodeEngine({ threads: 1 });
const t0 = performance.now();
await lineBound(file);
const baselineMs = performance.now() - t0;
let rows = 0;
const t1 = performance.now();
if (task === 'metrics') {
  // what `lucid metrics --label approved --positive yes --pred p --group sex --group group` does
  const { table } = await readColumns(file, {}, { '--label': 'approved', '--pred': 'p', '--group': ['sex', 'group'] });
  const r = groupMetrics(table, {
    label: 'approved',
    positive: 'yes',
    pred: 'p',
    groups: ['sex', 'group'],
    rng: new Rng(engine, 0),
  });
  rows = r.rows;
} else if (task === 'fale') {
  // what `lucid fale --model MODEL --label approved --positive yes --protected group=B --feature income` does
  const model = await loadBlackBox(engine, modelFile);
  const r = await faleStream(fileSource(file, {}), model, {
    label: 'approved',
    positive: 'yes',
    protected: [{ column: 'group', value: 'B' }],
    features: ['income'],
  });
  rows = r.rows;
} else {
  throw new Error(`unknown task ${task}`);
}
const ms = performance.now() - t1;
process.stdout.write(
  JSON.stringify({ task, file, rows, baselineMs, ms, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n',
);
process.exit(0);
