// The documentation's links: every relative link in README.md and docs/**/*.md, inline
// [text](path#anchor), image ![alt](path) or reference definition [label]: path, must name a file or
// folder that exists, and an anchor into a markdown file must be the GitHub-style slug of one of its
// headings (or an <a id/name> in it). Links inside fenced code blocks and inline code are not links.
// External links (http, https, mailto) are only checked syntactically. Each problem is reported as
// file:line: [text](target): what is wrong.
// Also: the README stays at most 300 lines, and .ci/run runs the README's test command.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docFiles } from '../helpers/docs.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The text with fenced code blocks and inline code spans blanked (same length, line breaks kept). */
export function blankCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (fence === null && m) {
      fence = m[1];
      lines[i] = blank(lines[i]);
      continue;
    }
    if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      lines[i] = blank(lines[i]);
    }
  }
  // inline code: a run of n backticks up to the next run of exactly n
  return lines.join('\n').replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (s) => blank(s));
}

/** GitHub's heading anchor (github-slugger): the rendered text, lower-cased, punctuation removed, spaces → '-'. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // HTML tags
    .replace(/[`*]/g, '') // code and emphasis marks
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown file offers: its headings' slugs (duplicates numbered as GitHub does) and <a id/name>. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const plain = text.split('\n');
  const blanked = blankCode(text).split('\n');
  for (let i = 0; i < plain.length; i++) {
    if (!/^ {0,3}#{1,6}\s/.test(blanked[i])) continue; // a heading outside code
    const m = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(plain[i]);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+[^>]*\b(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

export interface Link {
  file: string;
  line: number;
  text: string;
  target: string;
}

/** The links of one markdown file (`file` is its path from the root, for messages). */
export function linksOf(file: string, text: string): Link[] {
  const src = blankCode(text);
  const lineAt = (offset: number) => src.slice(0, offset).split('\n').length;
  const out: Link[] = [];
  // [text](target "title"), ![alt](target); the text may hold one level of brackets and line breaks
  const inline =
    /!?\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const m of src.matchAll(inline)) {
    out.push({ file, line: lineAt(m.index!), text: m[0].replace(/\s+/g, ' '), target: m[2].replace(/^<|>$/g, '') });
  }
  for (const m of src.matchAll(/^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)/gm)) {
    out.push({ file, line: lineAt(m.index!), text: m[0], target: m[2].replace(/^<|>$/g, '') });
  }
  return out;
}

/** Every problem with the links of `files` (paths from `root`), as "file:line: [text](target): why". */
export function checkLinks(root: string, files: string[]): { links: number; problems: string[] } {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (abs: string) => {
    if (!anchorCache.has(abs)) anchorCache.set(abs, anchors(readFileSync(abs, 'utf8')));
    return anchorCache.get(abs)!;
  };
  let count = 0;
  for (const file of files) {
    const abs = path.join(root, file);
    for (const link of linksOf(file, readFileSync(abs, 'utf8'))) {
      count++;
      const where = `${link.file}:${link.line}: ${link.text}`;
      const t = link.target;
      if (t === '') {
        problems.push(`${where}: empty link target`);
        continue;
      }
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(t);
      if (scheme) {
        const s = scheme[1].toLowerCase();
        if (s === 'http' || s === 'https') {
          let ok = false;
          try {
            ok =
              new URL(t).hostname.includes('.') ||
              new URL(t).hostname === 'localhost' ||
              /^\d+(\.\d+){3}$/.test(new URL(t).hostname);
          } catch {
            ok = false;
          }
          if (!ok || /\s/.test(t)) problems.push(`${where}: not a well-formed ${s} URL`);
        } else if (s !== 'mailto') {
          problems.push(`${where}: scheme "${s}:" is neither a relative path nor http(s)/mailto`);
        }
        continue;
      }
      if (t.startsWith('/')) {
        problems.push(`${where}: absolute path; write it relative to ${link.file}`);
        continue;
      }
      const hash = t.indexOf('#');
      const rel = hash < 0 ? t : t.slice(0, hash);
      const anchor = hash < 0 ? '' : t.slice(hash + 1);
      let decoded: string;
      try {
        decoded = decodeURIComponent(rel);
      } catch {
        problems.push(`${where}: bad %-encoding`);
        continue;
      }
      const targetAbs = rel === '' ? abs : path.resolve(path.dirname(abs), decoded);
      const shown = path.relative(root, targetAbs) || '.';
      if (!existsSync(targetAbs)) {
        problems.push(`${where}: ${shown} does not exist`);
        continue;
      }
      if (hash < 0) continue;
      if (anchor === '') {
        problems.push(`${where}: empty anchor`);
        continue;
      }
      // anchors into other files are not checked
      if (!targetAbs.endsWith('.md') || !statSync(targetAbs).isFile()) continue;
      const known = anchorsOf(targetAbs);
      let a: string;
      try {
        a = decodeURIComponent(anchor);
      } catch {
        problems.push(`${where}: bad %-encoding in the anchor`);
        continue;
      }
      if (!known.has(a)) {
        const near = [...known].filter((k) => k.includes(a.slice(0, 6)) || a.includes(k)).slice(0, 3);
        problems.push(
          `${where}: ${shown} has no heading with the slug "${a}"` +
            `${near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(', ')}?)` : ''}`,
        );
      }
    }
  }
  return { links: count, problems };
}

describe('documentation links (README.md, docs/**/*.md)', () => {
  it('every relative link names an existing file and, into markdown, an existing heading', () => {
    const files = docFiles(ROOT);
    assert.ok(files.length > 1, `the docs/ files are there (${files.join(', ')})`);
    const { links, problems } = checkLinks(ROOT, files);
    assert.ok(links > 20, `links were found (${links})`);
    assert.equal(problems.length, 0, `${problems.length} broken link(s):\n${problems.join('\n')}`);
  });

  it('the checker finds what is broken (a missing file, a missing heading, a bad URL) and ignores code', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lucid-links-'));
    try {
      mkdirSync(path.join(dir, 'docs'));
      writeFileSync(
        path.join(dir, 'README.md'),
        [
          '# Top',
          '',
          '## What it is, and what it is not',
          '',
          '[ok](docs/a.md#the-a-heading) [ok too](#what-it-is-and-what-it-is-not) ![pic](docs/a.md)',
          '[gone](docs/missing.md) [no heading](docs/a.md#nothing-here) [web](https://example.org/x) [bad web](https://)',
          '`[in code](nowhere.md)`',
          '```',
          '[in a fence](nowhere.md)',
          '# not a heading',
          '```',
          '[spans',
          'lines](docs/a.md#dup-1) [self](#top)',
          '',
        ].join('\n'),
      );
      writeFileSync(
        path.join(dir, 'docs/a.md'),
        '# The A heading\n\n## Dup\n\n## Dup\n\n[back](../README.md#not-a-heading)\n',
      );
      const { links, problems } = checkLinks(dir, docFiles(dir));
      assert.equal(links, 10);
      assert.deepEqual(problems, [
        'README.md:6: [gone](docs/missing.md): docs/missing.md does not exist',
        'README.md:6: [no heading](docs/a.md#nothing-here): docs/a.md has no heading with the slug "nothing-here"',
        'README.md:6: [bad web](https://): not a well-formed https URL',
        'docs/a.md:7: [back](../README.md#not-a-heading): README.md has no heading with the slug "not-a-heading"',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GitHub slugs: punctuation and code marks dropped, spaces to hyphens', () => {
    assert.equal(slug('Models: the built-in classifier'), 'models-the-built-in-classifier');
    assert.equal(slug('In a browser, a worker, or an edge runtime'), 'in-a-browser-a-worker-or-an-edge-runtime');
    assert.equal(slug('The bias simulator (`src/data/simulator.ts`)'), 'the-bias-simulator-srcdatasimulatorts');
    assert.equal(slug('Synthetic-data quality'), 'synthetic-data-quality');
  });

  it('the README is at most 300 lines, and .ci/run runs its test command', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 300, `README.md has ${lines} lines; at most 300 (move the rest to docs/)`);
    const first = /```sh\n([\s\S]*?)```/.exec(readme);
    assert.ok(first, 'README.md opens with a sh block of its commands');
    const test = first[1].split('\n').find((l) => /#\s*check it/.test(l));
    assert.ok(test, `the README's commands include the test command ("# check it"):\n${first[1]}`);
    const steps = test
      .replace(/#.*$/, '')
      .trim()
      .split(/\s*&&\s*/);
    assert.deepEqual(steps, ['npm ci', 'npm test']);
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    let at = -1;
    for (const s of steps) {
      const i = ci.indexOf(s, at + 1);
      assert.ok(i > at, `.ci/run runs "${s}" (after the README's previous step)`);
      at = i;
    }
  });
});
