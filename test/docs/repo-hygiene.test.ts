// What a fresh clone shows a newcomer before any command runs: `npm ci` without warnings about
// dependencies' install scripts, the demo's output folder ignored by git, and documents that say
// each thing once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { demo } from '../../src/cli/commands/demo.js';
import { docFiles } from '../helpers/docs.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (rel: string) => readFileSync(ROOT + rel, 'utf8');

describe('repository hygiene', () => {
  it(
    'every dependency with an install script has a decision ' +
      'in package.json allowScripts (npm warns about the rest)',
    () => {
      const lock = JSON.parse(read('package-lock.json')) as {
        packages: Record<string, { hasInstallScript?: boolean }>;
      };
      const allow = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
      const withScripts = Object.entries(lock.packages)
        .filter(([key, p]) => key !== '' && p.hasInstallScript === true)
        .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
      assert.ok(withScripts.length > 0, 'the lock file lists no install scripts: the check would be empty');
      const undecided = withScripts.filter(
        (name) => !(name in allow) && !Object.keys(allow).some((k) => k.startsWith(`${name}@`)),
      );
      assert.deepEqual(
        undecided,
        [],
        `add them to allowScripts (npm install-scripts approve|deny ${undecided.join(' ')})`,
      );
    },
  );

  it("the demo's default output folder is in .gitignore", () => {
    const out = demo.options.find((o) => o.long === '--out')?.defaultValue as string | undefined;
    assert.ok(out, 'lucid demo has a default --out');
    const folder = out.replace(/^\.\//, '').replace(/\/$/, '');
    const lines = read('.gitignore')
      .split('\n')
      .map((l) => l.trim());
    assert.ok(
      lines.some((l) => l === `${folder}/` || l === `/${folder}/` || l === folder || l === `/${folder}`),
      `.gitignore does not list ${folder}/`,
    );
  });

  it('no document repeats a sentence (80 characters or more, outside code blocks)', () => {
    const repeats: string[] = [];
    for (const file of docFiles(ROOT)) {
      const prose = read(file)
        .replace(/```[\s\S]*?```/g, '')
        .replace(/\s+/g, ' ');
      const seen = new Set<string>();
      for (const sentence of prose.split(/(?<=[.!?])\s+/)) {
        const s = sentence.trim();
        if (s.length < 80) continue;
        if (seen.has(s)) repeats.push(`${file}: ${s.slice(0, 100)}…`);
        seen.add(s);
      }
    }
    assert.deepEqual(repeats, []);
  });
});
