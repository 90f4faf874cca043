#!/usr/bin/env node
// Times the VGM fit (src/models/ctgan/vgm.ts) per Adult numeric column, as CTGAN's transformer fits it
// (15060 rows of adult.test after dropping '?'). Not a test: run after `npm run build`.
//
//   node tools/time-vgm.mjs [repeats]        (LUCID_DATA_DIR as for the tests; LUCID_SIMD=plain for the plain build)
//
// Reports, per column, the best of `repeats` fits (default 5) with seed 0, the k-means part of it
// (maxIter 0), the iterations run, and the total over the six columns.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initNodeEngine } from '../dist/src/node/engine.js';
import { activeModes, fitVgm } from '../dist/src/models/ctgan/vgm.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = join(process.env.LUCID_DATA_DIR || join(root, '..', 'shared', 'data'), 'adult', 'adult.test');
if (!existsSync(file)) {
  console.error(`time-vgm: ${file} not found (set LUCID_DATA_DIR)`);
  process.exit(1);
}
const pos = { age: 0, fnlwgt: 2, 'education-num': 4, 'capital-gain': 10, 'capital-loss': 11, 'hours-per-week': 12 };
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .map((l) => l.trim().split(', '))
  .filter((f) => f.length === 15 && /^\d+$/.test(f[0]) && !f.includes('?'));
const repeats = Number(process.argv[2] ?? 5);
const e = await initNodeEngine();
console.log(`kernels: ${e.variant}; ${rows.length} rows; best of ${repeats}`);
/** @template T @param {() => T} f @returns {[number, T]} the best time and the last result */
const best = (f) => {
  let t = Infinity;
  /** @type {T | undefined} */
  let r;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    r = f();
    t = Math.min(t, performance.now() - t0);
  }
  return [t, /** @type {T} */ (r)];
};
fitVgm(
  e,
  Float64Array.from(rows, (r) => +r[0]),
  { seed: 0 },
); // warm-up (wasm tier-up)
let total = 0;
for (const [c, p] of Object.entries(pos)) {
  const x = Float64Array.from(rows, (r) => +r[p]);
  const [t, m] = best(() => fitVgm(e, x, { seed: 0 }));
  const [tk] = best(() => fitVgm(e, x, { seed: 0, maxIter: 0 }));
  total += t;
  console.log(
    `${c.padEnd(15)} ${t.toFixed(1).padStart(7)} ms  (k-means + init ${tk.toFixed(1)} ms, ${m.nIter} iterations, ` +
      `${((t - tk) / m.nIter).toFixed(2)} ms/iteration, ${activeModes(m).length} modes)`,
  );
}
console.log(`total for the 6 columns: ${total.toFixed(1)} ms`);
