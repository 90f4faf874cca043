// Lines stay within the formatter's width (biome.json's lineWidth) in every file Biome formats, except a
// line with a URL and one that only a regular-expression literal takes over: `npm run format` splits
// long strings, templates and comments (tools/split-long-lines.mjs), and what it splits keeps its value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TOOL = path.join(ROOT, 'tools/split-long-lines.mjs');

/** the codemod's exports this test uses (tools/ is JavaScript, outside this build) */
interface SplitTool {
  WIDTH: number;
  splitSource(file: string, text: string): string;
}

describe('line width', () => {
  it('no line of a formatted file is over the width, outside the exemptions (file:line listed)', () => {
    const r = spawnSync(process.execPath, [TOOL, '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });

  it('split strings, templates and comments: the same values, and lines within the width', async () => {
    const tool = (await import(pathToFileURL(TOOL).href)) as SplitTool;
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const source = [
      `const x = 7, y = 'ab', z = [1, 2];`,
      `export const a = '${words(40)} \\'q\\' \\u00e9 \\x41 \\u{1F600} 😀 ${words(20)}';`,
      `export const b = "${words(30)} it's \\"quoted\\" ${words(20)}";`,
      `export const c = \`${words(20)} \${x} ${words(10)} \${y.length > 1 ? \`nested \${y} ${words(25)}\` : ''} ` +
        `${words(20)}\`;`,
      `export const d = \`\n${words(40)}\n\${z.map((v) => \`<b>\${v}</b>\`).join('')} ${words(40)};{}\n\`;`,
      `export const e = 3 * '${words(40)}'.length - 1;`,
      `export const f = ['${words(40)}'.toUpperCase(), typeof '${words(40)}'];`,
      `// ${words(60)}`,
      `export const g = { v: 1 }; // ${words(40)}`,
      `/** ${words(50)} */`,
      `export const h = 1;`,
    ].join('\n');
    const split = tool.splitSource('sample.mjs', source);
    assert.notEqual(split, source);
    const dir = mkdtempSync(path.join(tmpdir(), 'lucid-split-'));
    try {
      writeFileSync(path.join(dir, 'before.mjs'), source);
      writeFileSync(path.join(dir, 'after.mjs'), split);
      const before = (await import(pathToFileURL(path.join(dir, 'before.mjs')).href)) as Record<string, unknown>;
      const after = (await import(pathToFileURL(path.join(dir, 'after.mjs')).href)) as Record<string, unknown>;
      assert.deepEqual(after, before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // the codemod's piece lengths assume Biome lays them out; alone, every comment line is already within
    const comments = split.split('\n').filter((l) => /^\s*(\/\/|\/\*\*|\*)/.test(l));
    assert.ok(comments.length > 4, split);
    for (const l of comments) assert.ok([...l].length <= tool.WIDTH, l);
  });
});
