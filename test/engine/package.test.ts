// The package's entry points load by name, and core code imports no Node-only module (so it runs
// in browsers and workers): only src/node and src/cli may.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const distSrc = fileURLToPath(new URL('../../src/', import.meta.url));

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? jsFiles(p) : p.endsWith('.js') ? [p] : [];
  });
}

describe('package', () => {
  it('exports lucid-wasm and lucid-wasm/node by name', async () => {
    const core = await import('lucid-wasm');
    const node = await import('lucid-wasm/node');
    for (const name of [
      'initEngine',
      'grad',
      'ops',
      'DataTransformer',
      'fitVgm',
      'simulate',
      'Classifier',
      'checkPredictions',
      'lucid',
    ]) {
      assert.ok(name in core, `lucid-wasm lacks ${name}`);
    }
    for (const name of [
      'initNodeEngine',
      'spawnNodeThread',
      'readCsv',
      'writeCsv',
      'loadAdult',
      'loadModel',
      'loadBlackBox',
    ])
      assert.ok(name in node, `lucid-wasm/node lacks ${name}`);
    const e = await node.initNodeEngine();
    assert.equal(
      e.scope(() => core.ops.sum(e.tensor([1, 2, 3])).item()),
      6,
    );
  });

  it('core modules import nothing from Node (only src/node and src/cli may)', () => {
    const offenders: string[] = [];
    for (const f of jsFiles(distSrc)) {
      const rel = relative(distSrc, f);
      if (rel.startsWith('node/') || rel.startsWith('cli/')) continue;
      const text = readFileSync(f, 'utf8');
      const m = text.match(
        /from ['"](node:[^'"]+|fs|path|os|url|child_process|worker_threads|v8|stream|fast-csv|commander)['"]|import\(['"]node:/,
      );
      if (m) offenders.push(`${rel}: ${m[0]}`);
      if (/from ['"]\.\.?\/(\.\.\/)*node\//.test(text)) offenders.push(`${rel}: imports src/node`);
    }
    assert.deepEqual(offenders, []);
  });
});
