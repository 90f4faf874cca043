// and (below) the layer order of src/ and the absence of import cycles.
// The core (src/ outside src/node and src/cli) must run in any JS runtime: no Node built-in
// imports (node:*, fs, path, os, worker_threads, …: the full list is module.builtinModules), no
// require, and no Node-only globals (process, Buffer, __dirname, __filename, global, setImmediate).
// A static scan of the source with comments and string contents blanked out (so a message that
// mentions "process." does not count); every violation is reported as file:line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const src = join(root, 'src');
/** Node-facing layers: allowed to use Node. */
const EXEMPT = ['node', 'cli'].map((d) => join(src, d));

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));
const isNodeBuiltin = (spec: string) =>
  spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]);

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
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{'))
        j += text[j] === '\\' ? 2 : 1;
      wipe(i + 1, j);
      if (text[j] === '$') {
        braces.push(depth);
        i = j + 2;
        lastSig = '{';
      } else {
        i = j + 1;
        lastSig = '`';
      }
    } else if (
      c === '/' &&
      (lastSig === '' ||
        '(,=:[!&|?{};+-*%<>~^'.includes(lastSig) ||
        ['return', 'typeof', 'case', 'of', 'in'].includes(lastWord))
    ) {
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
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template, as the scan reads it
    assert.deepEqual(lines('x = `${process.argv[2]}`;'), [1]);
    // not violations: comments, messages, other modules, lookalikes
    assert.deepEqual(
      lines("// import fs from 'fs'; process.exit()\n/* Buffer */ const s = 'process.env and Buffer';"),
      [],
    );
    assert.deepEqual(lines("import { check } from './errors.js';\nimport { x } from './path.js';"), []);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template, as the scan reads it
    assert.deepEqual(lines('const r = /"process\\./; const t = `the process. ${a / b} Buffer`;'), []);
    assert.deepEqual(lines('const globalScale = 2; const q = a.process.b; globalThis.x = 1;'), []);
  });

  it('no file under src/ outside src/node and src/cli imports a Node built-in or uses a Node global', () => {
    const files = coreFiles(src);
    assert.ok(files.length > 20, `found only ${files.length} core files under ${src}`);
    const violations = files.flatMap((f) =>
      scan(readFileSync(f, 'utf8')).map(([line, what]) => `${relative(root, f)}:${line}: ${what}`),
    );
    assert.deepEqual(violations, [], `Node-only code in the core (move it to src/node):\n${violations.join('\n')}`);
  });
});

// ---------------------------------------------------------------------------------------------
// Layer order. src/ is layered; a file imports only from its own layer or a lower one, and no
// chain of imports (type-only ones included) comes back to where it started. Data sits beside the
// engine's users: it needs the engine (errors, rng, fdlibm) and nothing above it, and models read
// tables. src/index.ts and src/selfcheck.ts are the library's face ('api'): above everything core,
// below the Node layer that re-exports and runs them.
export const LAYERS = [
  'engine',
  'autograd',
  'nn',
  'data',
  'models',
  'methods',
  'audit',
  'report',
  'api',
  'node',
  'cli',
] as const;

/** The layer of a path relative to src/ ('engine/wasm.ts' → 'engine'; a file at the top → 'api'). */
export function layerOf(rel: string): string {
  const parts = rel.split('/');
  return parts.length === 1 ? 'api' : parts[0];
}

/** The relative module specifiers a file's text imports or re-exports (static, type-only and dynamic). */
export function importSpecifiers(text: string): { line: number; spec: string }[] {
  const { code, strings } = blank(text);
  const out: { line: number; spec: string }[] = [];
  for (const { at, value } of strings) {
    const before = code.slice(Math.max(0, at - 40), at);
    if (value.startsWith('.') && /(?:\bfrom|\bimport|\bimport\s*\()\s*$/.test(before))
      out.push({ line: text.slice(0, at).split('\n').length, spec: value });
  }
  return out;
}

export interface ImportEdge {
  from: string; // relative to src/, e.g. 'engine/engine.ts'
  to: string;
  line: number;
}

/** Every import that goes from a layer to a higher one (or to a folder that is not a layer). */
export function layerViolations(edges: readonly ImportEdge[], layers: readonly string[] = LAYERS): string[] {
  const rank = (rel: string) => layers.indexOf(layerOf(rel));
  const bad: string[] = [];
  for (const e of edges) {
    const a = rank(e.from);
    const b = rank(e.to);
    if (a < 0) bad.push(`${e.from}: in no layer (${layers.join(' → ')})`);
    else if (b < 0) bad.push(`${e.from}:${e.line} imports ${e.to}, which is in no layer`);
    else if (b > a)
      bad.push(`${e.from}:${e.line} (${layerOf(e.from)}) imports ${e.to} (${layerOf(e.to)}), a layer above it`);
  }
  return [...new Set(bad)];
}

/**
 * The import cycles among files (Tarjan's strongly connected components of more than one file, or a file importing
 * itself).
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    if (!next.has(e.to)) next.set(e.to, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n);
    n++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next.get(v)!.includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

function allSourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return allSourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The import edges between files under src/ (specifiers resolved, `.js` read as the `.ts` it compiles from). */
export function sourceEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const f of allSourceFiles(src)) {
    for (const { line, spec } of importSpecifiers(readFileSync(f, 'utf8'))) {
      const target = join(dirname(f), spec).replace(/\.js$/, '.ts');
      const to = relative(src, target);
      if (to.startsWith('..')) continue; // outside src/ (none today)
      edges.push({ from: relative(src, f), to, line });
    }
  }
  return edges;
}

/** Imports from one CLI command to another: a command is wiring only, what two share lives in cli/ or below. */
export function commandCrossImports(edges: readonly ImportEdge[]): string[] {
  const isCommand = (rel: string) => rel.startsWith('cli/commands/');
  return edges
    .filter((e) => isCommand(e.from) && isCommand(e.to) && e.from !== e.to)
    .map((e) => `${e.from}:${e.line} imports the command ${e.to}`);
}

describe('layer order', () => {
  const e = (from: string, to: string, line = 1): ImportEdge => ({ from, to, line });

  it('the checker finds back-edges, unknown layers and cycles, and passes a clean graph', () => {
    assert.deepEqual(
      layerViolations([
        e('nn/module.ts', 'engine/engine.ts'),
        e('cli/main.ts', 'node/csv.ts'),
        e('report/render.ts', 'audit/types.ts'),
      ]),
      [],
    );
    assert.deepEqual(layerViolations([e('engine/engine.ts', 'autograd/tape.ts', 11)]), [
      'engine/engine.ts:11 (engine) imports autograd/tape.ts (autograd), a layer above it',
    ]);
    assert.equal(layerViolations([e('data/transformer.ts', 'models/ctgan/networks.ts')]).length, 1);
    assert.equal(layerViolations([e('audit/run.ts', 'node/csv.ts')]).length, 1);
    assert.equal(layerViolations([e('index.ts', 'cli/main.ts')]).length, 1);
    assert.equal(layerViolations([e('widgets/x.ts', 'engine/engine.ts')]).length, 1);
    assert.deepEqual(importCycles([e('a.ts', 'b.ts'), e('b.ts', 'c.ts')]), []);
    assert.deepEqual(importCycles([e('a.ts', 'b.ts'), e('b.ts', 'c.ts'), e('c.ts', 'a.ts'), e('c.ts', 'd.ts')]), [
      ['a.ts', 'b.ts', 'c.ts'],
    ]);
    assert.deepEqual(importCycles([e('a.ts', 'a.ts')]), [['a.ts']]);
    assert.equal(layerOf('index.ts'), 'api');
    assert.equal(layerOf('methods/metrics/index.ts'), 'methods');
  });

  it('reads static, type-only, re-export and dynamic imports, not strings or comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "const d = await import('./d.js');",
      "// import { z } from './z.js';",
      "const msg = 'from ./y.js';",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    assert.deepEqual(
      importSpecifiers(text).map((s) => `${s.line}:${s.spec}`),
      ['1:./a.js', '2:../b.js', '3:./c.js', '4:./d.js'],
    );
  });

  it(`every import in src/ goes down or sideways (${LAYERS.join(' → ')})`, () => {
    const edges = sourceEdges();
    assert.ok(edges.length > 200, `found only ${edges.length} imports under ${src}`);
    const bad = layerViolations(edges);
    assert.deepEqual(bad, [], `imports against the layer order:\n${bad.join('\n')}`);
  });

  it('no command imports another command (cli/commands/ is wiring only)', () => {
    assert.deepEqual(commandCrossImports([e('cli/commands/demo.ts', 'cli/commands/audit.ts', 18)]), [
      'cli/commands/demo.ts:18 imports the command cli/commands/audit.ts',
    ]);
    assert.deepEqual(
      commandCrossImports([e('cli/commands/demo.ts', 'cli/progress.ts'), e('cli/program.ts', 'cli/commands/demo.ts')]),
      [],
    );
    const bad = commandCrossImports(sourceEdges());
    assert.deepEqual(bad, [], bad.join('\n'));
  });

  it('no import cycles among the files of src/ (type-only imports included)', () => {
    const cycles = importCycles(sourceEdges());
    assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' ↔ ')).join('\n')}`);
  });
});
