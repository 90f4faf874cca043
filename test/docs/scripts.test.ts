// The .mjs scripts in tools/ and experiments/ import the library through dist/ (built modules), so a
// moved or renamed export breaks them without breaking the build. This test reads every script's
// import statements (static ones and `await import('...')` with a destructured binding), imports
// each internal module, and asserts that every name a script takes from it exists. The scripts
// themselves are never run (they do their work on import); a module of another script
// (experiments/canonical-settings.mjs) is read for its `export` declarations instead.
// tsconfig.scripts.json type-checks the same scripts; this test needs no type information.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT_DIRS = ['tools', 'experiments'];

/** One import of a script: where from, and the names taken (`*` for a namespace, `default`). */
interface ScriptImport {
  specifier: string;
  names: string[];
}

function scriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return scriptFiles(p);
    return name.endsWith('.mjs') ? [p] : [];
  });
}

/** `a`, `b as c` → the exported names a, b. */
const bindingNames = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) =>
      s
        .split(/\s+as\s+/)[0]
        .split(':')[0]
        .trim(),
    );

/**
 * The imports of a script's source: `import {…} from`, `import * as`, default imports and `const {…} = await
 * import(…)`.
 */
function parseImports(src: string): ScriptImport[] {
  const out: ScriptImport[] = [];
  const code = src.replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/^import\s+([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    const clause = m[1];
    const names: string[] = [];
    const braces = /\{([\s\S]*)\}/.exec(clause);
    if (braces) names.push(...bindingNames(braces[1]));
    if (/\*\s+as\s+\w+/.test(clause)) names.push('*');
    if (/^\s*[A-Za-z_$][\w$]*\s*(,|$)/.test(clause)) names.push('default');
    out.push({ specifier: m[2], names });
  }
  for (const m of code.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) out.push({ specifier: m[1], names: [] });
  for (const m of code.matchAll(/\{([^{}]*)\}\s*=\s*await\s+import\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ specifier: m[2], names: bindingNames(m[1]) });
  return out;
}

/** The names a script module declares with `export const|let|function|class NAME` or `export { … }`. */
function declaredExports(src: string): Set<string> {
  const names = new Set<string>();
  for (const m of src.matchAll(/^export\s+(?:async\s+)?(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)/gm))
    names.add(m[1]);
  for (const m of src.matchAll(/^export\s*\{([^}]*)\}/gm))
    for (const s of m[1].split(','))
      if (s.trim())
        names.add(
          s
            .trim()
            .split(/\s+as\s+/)
            .pop()!
            .trim(),
        );
  return names;
}

const scripts = SCRIPT_DIRS.flatMap((d) => scriptFiles(join(ROOT, d))).sort();

describe("the scripts' imports of the library exist", () => {
  it('finds the scripts and their internal imports', () => {
    assert.ok(scripts.length >= 17, `only ${scripts.length} scripts under ${SCRIPT_DIRS.join(', ')}`);
    const internal = scripts.flatMap((s) =>
      parseImports(readFileSync(s, 'utf8')).filter((i) => i.specifier.startsWith('.')),
    );
    assert.ok(internal.length >= 30, `only ${internal.length} internal imports: the parser misses some`);
  });

  it('parses the import forms the scripts use', () => {
    const src =
      "import { a, b as c } from '../dist/x.js';\nimport * as ns from '../dist/y.js';\nimport d, { e } from " +
      "'./z.mjs';\nimport {\n  f,\n  g,\n} from '../dist/w.js';\nconst { h } = await import('../dist/v.js');" +
      "\n// import { no } from '../dist/comment.js';";
    assert.deepEqual(parseImports(src), [
      { specifier: '../dist/x.js', names: ['a', 'b'] },
      { specifier: '../dist/y.js', names: ['*'] },
      { specifier: './z.mjs', names: ['e', 'default'] },
      { specifier: '../dist/w.js', names: ['f', 'g'] },
      { specifier: '../dist/v.js', names: ['h'] },
    ]);
  });

  for (const script of scripts) {
    const rel = relative(ROOT, script);
    it(rel, async () => {
      const missing: string[] = [];
      for (const imp of parseImports(readFileSync(script, 'utf8'))) {
        if (!imp.specifier.startsWith('.')) continue; // node: builtins and packages
        const target = resolve(dirname(script), imp.specifier);
        const where = `${rel}: '${imp.specifier}'`;
        if (target.endsWith('.mjs')) {
          // another script: read, never run
          const exported = declaredExports(readFileSync(target, 'utf8'));
          for (const n of imp.names) if (n !== '*' && !exported.has(n)) missing.push(`${where} has no export ${n}`);
          continue;
        }
        let mod: Record<string, unknown>;
        try {
          mod = (await import(pathToFileURL(target).href)) as Record<string, unknown>;
        } catch (e) {
          missing.push(`${where} does not load (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
          continue;
        }
        for (const n of imp.names) if (n !== '*' && !(n in mod)) missing.push(`${where} has no export ${n}`);
      }
      assert.deepEqual(missing, []);
    });
  }
});
