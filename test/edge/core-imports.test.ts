// The core (src/ outside src/node and src/cli) must run in any JS runtime: no Node built-in
// imports (node:*, fs, path, os, worker_threads, …: the full list is module.builtinModules), no
// require, and no Node-only globals (process, Buffer, __dirname, __filename, global, setImmediate).
// A static scan of the source with comments and string contents blanked out (so a message that
// mentions "process." does not count); every violation is reported as file:line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const src = join(root, 'src');
/** Node-facing layers: allowed to use Node. */
const EXEMPT = ['node', 'cli'].map((d) => join(src, d));

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]);

const NODE_GLOBALS: [RegExp, string][] = [
  [/(?<![.\w$])process\s*(?:\.|\[|\?\.)/, 'process (Node global)'],
  [/(?<![.\w$])Buffer\b/, 'Buffer (Node global)'],
  [/\b__dirname\b/, '__dirname'],
  [/\b__filename\b/, '__filename'],
  [/(?<![.\w$])require\s*\(/, 'require()'],
  [/(?<![.\w$])global\s*(?:\.|\[)/, 'global (use globalThis)'],
  [/(?<![.\w$])setImmediate\b/, 'setImmediate (Node only)'],
];

/**
 * The text with comments blanked and string/template/regex literal contents replaced by spaces
 * (newlines kept, so offsets and line numbers stay). `specs` collects the string literals with
 * their offsets, for the import scan.
 */
export function blank(text: string): { code: string; strings: { at: number; value: string }[] } {
  const out = text.split('');
  const strings: { at: number; value: string }[] = [];
  const wipe = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  let lastSig = ''; // last significant code character, to tell a regex literal from a division
  let lastWord = '';
  const braces: number[] = []; // per open template `${`: brace depth when it opened
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    const d = text[i + 1];
    if (c === '/' && d === '/') {
      const e = text.indexOf('\n', i);
      const end = e < 0 ? text.length : e;
      wipe(i, end);
      i = end;
    } else if (c === '/' && d === '*') {
      const e = text.indexOf('*/', i + 2);
      const end = e < 0 ? text.length : e + 2;
      wipe(i, end);
      i = end;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      strings.push({ at: i, value: text.slice(i + 1, j) });
      wipe(i + 1, j);
      i = j + 1;
      lastSig = c;
    } else if (c === '`' || (c === '}' && braces.length && braces[braces.length - 1] === depth)) {
      if (c === '}') braces.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      wipe(i + 1, j);
      if (text[j] === '$') {
        braces.push(depth);
        i = j + 2;
        lastSig = '{';
      } else {
        i = j + 1;
        lastSig = '`';
      }
    } else if (c === '/' && (lastSig === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSig) || ['return', 'typeof', 'case', 'of', 'in'].includes(lastWord))) {
      // a regex literal
      let j = i + 1;
      let cls = false;
      while (j < text.length && text[j] !== '\n' && (cls || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') cls = true;
        else if (text[j] === ']') cls = false;
        j++;
      }
      wipe(i + 1, j);
      i = j + 1;
      lastSig = '/';
      lastWord = '';
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (!/\s/.test(c)) {
        if (/[\w$]/.test(c)) {
          const m = /^[\w$]+/.exec(text.slice(i, i + 64))!;
          lastWord = m[0];
          lastSig = 'a';
          i += m[0].length;
          continue;
        }
        lastSig = c;
        lastWord = '';
      }
      i++;
    }
  }
  return { code: out.join(''), strings };
}

/** Violations in one file's text: [line, what]. */
export function scan(text: string): [number, string][] {
  const { code, strings } = blank(text);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: [number, string][] = [];
  // module specifiers: the string after `from`, after a bare `import`, or inside import(…)/require(…)
  for (const { at, value } of strings) {
    const before = code.slice(Math.max(0, at - 40), at);
    if (/(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*$/.test(before) && isNodeBuiltin(value)) {
      found.push([lineOf(at), `imports the Node built-in "${value}"`]);
    }
  }
  const lines = code.split('\n');
  lines.forEach((line, k) => {
    for (const [re, what] of NODE_GLOBALS) if (re.test(line)) found.push([k + 1, `uses ${what}`]);
  });
  return found.sort((a, b) => a[0] - b[0]);
}

function coreFiles(dir: string): string[] {
  if (EXEMPT.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return coreFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('the core has no Node-only imports', () => {
  it('the scanner finds what it should and nothing in comments or strings', () => {
    const lines = (t: string) => scan(t).map(([l]) => l);
    assert.deepEqual(lines("import { readFileSync } from 'node:fs';"), [1]);
    assert.deepEqual(lines('import fs from "fs";\nimport * as p from \'path\';\nexport { x } from "os";'), [1, 2, 3]);
    assert.deepEqual(lines("const w = await import('worker_threads');"), [1]);
    assert.deepEqual(lines("import 'node:process';"), [1]);
    assert.deepEqual(lines("import { Worker } from 'node:worker_threads';\nconst x = 1;"), [1]);
    assert.deepEqual(lines('const a = 1;\nif (process.env.X) f();'), [2]);
    assert.deepEqual(lines('const b = Buffer.from(s);'), [1]);
    assert.deepEqual(lines("const m = require('child_process');"), [1, 1]);
    assert.deepEqual(lines('x = `${process.argv[2]}`;'), [1]);
    // not violations: comments, messages, other modules, lookalikes
    assert.deepEqual(lines("// import fs from 'fs'; process.exit()\n/* Buffer */ const s = 'process.env and Buffer';"), []);
    assert.deepEqual(lines("import { check } from './errors.js';\nimport { x } from './path.js';"), []);
    assert.deepEqual(lines('const r = /"process\\./; const t = `the process. ${a / b} Buffer`;'), []);
    assert.deepEqual(lines('const globalScale = 2; const q = a.process.b; globalThis.x = 1;'), []);
  });

  it('no file under src/ outside src/node and src/cli imports a Node built-in or uses a Node global', () => {
    const files = coreFiles(src);
    assert.ok(files.length > 20, `found only ${files.length} core files under ${src}`);
    const violations = files.flatMap((f) => scan(readFileSync(f, 'utf8')).map(([line, what]) => `${relative(root, f)}:${line}: ${what}`));
    assert.deepEqual(violations, [], `Node-only code in the core (move it to src/node):\n${violations.join('\n')}`);
  });
});
