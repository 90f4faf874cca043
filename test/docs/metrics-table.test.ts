// docs/ci.md is hand-written, the metrics table is code: the two must agree. The list of rule
// metrics names every metric of METRIC_DEFS, and the table "The same policy, the label coded the other
// way" maps each metric as `recoded` in METRIC_DEFS does (a complement: its bounds mirrored).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { METRICS, recodedMetric } from '../../src/methods/metrics/index.js';

const CI = readFileSync(fileURLToPath(new URL('../../../docs/ci.md', import.meta.url)), 'utf8');

it('docs/ci.md names every metric and maps each under recoding as METRIC_DEFS does', () => {
  const list = /The metric names come from the table of metrics[\s\S]*?each of ([^.]*?) as a \*\*rate\*\*/.exec(CI);
  assert.ok(list, 'the list of metric names');
  assert.deepEqual(
    [...list[1].matchAll(/`(\w+)`/g)].map((m) => m[1]),
    METRICS,
  );
  const section = CI.slice(CI.indexOf('### The same policy, the label coded the other way'));
  const rows = [...section.matchAll(/^\| `(\w+)` \| `(\w+)` \| ([^|]+) \|$/gm)].map((m) => ({
    from: m[1],
    to: m[2],
    bounds: m[3].trim(),
  }));
  assert.deepEqual(rows.map((r) => r.from).sort(), [...METRICS].sort(), 'one row per metric');
  for (const r of rows) {
    const img = recodedMetric(r.from as (typeof METRICS)[number]);
    assert.equal(r.to, img.metric, `${r.from}`);
    assert.equal(r.bounds === 'unchanged', !img.complement, `${r.from}: ${r.bounds}`);
  }
});
