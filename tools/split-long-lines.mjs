#!/usr/bin/env node
// @ts-check
// The lines the formatter leaves over its width: Biome breaks code but never a string, a template or a
// comment. This splits them without changing what the program does:
//   - a long string literal becomes a concatenation of pieces in the same quotes ('…' + '…');
//   - a long template literal becomes a concatenation of template pieces, cut in its text, never inside a
//     `${}`; a `${}` too long for a line gets a line break inside it, which Biome then lays out;
//   - a long `//` comment or comment block is rewrapped (a trailing `//` comment moves above its line).
// Each piece keeps its source text (escapes are never cut), so the values are identical. Exempt, as data:
// a line with a URL, and a line that only a regular-expression literal takes over the width (splitting one
// means rewriting it as a string for new RegExp). The files are those of biome.json's files.includes.
//
//   node tools/split-long-lines.mjs --write   biome check --write, split, and again until nothing is left
//   node tools/split-long-lines.mjs --check   print each line still over the width (file:line: length), exit 1 if any
//
// Between passes Biome lays the pieces out, so a later pass sees the columns they really start at.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = JSON.parse(readFileSync(path.join(ROOT, 'biome.json'), 'utf8'));
/** the formatter's width: lines longer than this (in code points) are what this tool fixes and reports */
export const WIDTH = /** @type {number} */ (CONFIG.formatter.lineWidth);
const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/\S/i;
const MAX_PASSES = 6;
/** the shortest literal worth splitting: shorter ones are not what makes a line long */
const MIN_LITERAL = 24;
/** the shortest piece a cut leaves before it */
const MIN_PIECE = 10;

/**
 * The files biome.json formats: its files.includes holds `dir/**\/*.ext` patterns and `!path` exclusions
 * (a folder or a file), the only shapes this reads; anything else is an error here, not a silent skip.
 * @returns {string[]} paths from the repository root, sorted
 */
export function formattedFiles() {
  /** @type {string[]} */
  const includes = CONFIG.files.includes;
  const excluded = includes.filter((p) => p.startsWith('!')).map((p) => p.slice(1).replace(/\/$/, ''));
  /** @type {Set<string>} */
  const out = new Set();
  for (const p of includes.filter((x) => !x.startsWith('!'))) {
    const m = /^([\w.-]+(?:\/[\w.-]+)*)\/\*\*\/\*\.(\w+)$/.exec(p);
    if (!m) throw new Error(`biome.json files.includes: ${p} is not of the form dir/**/*.ext`);
    const [, dir, ext] = m;
    /** @param {string} rel */
    const walk = (rel) => {
      if (!existsSync(path.join(ROOT, rel))) return;
      for (const e of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
        const child = `${rel}/${e.name}`;
        if (e.name === 'node_modules' || excluded.some((x) => child === x || child.startsWith(`${x}/`))) continue;
        if (e.isDirectory()) walk(child);
        else if (e.name.endsWith(`.${ext}`)) out.add(child);
      }
    };
    walk(dir);
  }
  return [...out].sort();
}

/** @param {string} s */
const width = (s) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * @param {string} file
 * @param {string} text
 */
const parse = (file, text) =>
  ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );

/**
 * Every node of a kind, in source order.
 * @template {ts.Node} T
 * @param {ts.SourceFile} sf
 * @param {(n: ts.Node) => n is T} is
 * @returns {T[]}
 */
function nodesOf(sf, is) {
  /** @type {T[]} */
  const out = [];
  /** @param {ts.Node} n */
  const visit = (n) => {
    if (is(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * Lines of a text with their start offsets.
 * @param {string} text
 */
function lineTable(text) {
  const lines = text.split('\n');
  /** @type {number[]} */
  const starts = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return { lines, starts };
}

/**
 * The offset in `line` of the first code point past the width.
 * @param {string} line
 */
function overflowIndex(line) {
  let n = 0;
  for (let i = 0; i < line.length; ) {
    if (n === WIDTH) return i;
    i += /** @type {number} */ (line.codePointAt(i)) > 0xffff ? 2 : 1;
    n++;
  }
  return line.length;
}

/**
 * The lines over the width that no exemption covers, as 0-based line numbers.
 * @param {string} file
 * @param {string} text
 * @returns {number[]}
 */
export function longLines(file, text) {
  const { lines, starts } = lineTable(text);
  const long = lines.flatMap((l, i) => (width(l) > WIDTH && !URL_RE.test(l) ? [i] : []));
  if (long.length === 0) return long;
  const regexes = nodesOf(parse(file, text), ts.isRegularExpressionLiteral);
  return long.filter((i) => {
    const [from, to] = [starts[i], starts[i] + lines[i].length];
    const inRegex = regexes
      .filter((r) => r.getStart() < to && r.end > from)
      .reduce((n, r) => n + width(text.slice(Math.max(from, r.getStart()), Math.min(to, r.end))), 0);
    return width(lines[i]) - inRegex > WIDTH;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Literals

/** @typedef {{ start: number, end: number, text: string }} Edit */
/** @typedef {ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression} Literal */
/** @typedef {{ at: number, end: number, kind: 'text' | 'space' | 'mark' | 'newline' | 'span' }} Atom */

/**
 * The source's atoms between `from` and `to` (raw literal text): an escape sequence, a code point, a newline.
 * @param {string} src
 * @param {number} from
 * @param {number} to
 * @returns {Atom[]}
 */
function textAtoms(src, from, to) {
  /** @type {Atom[]} */
  const out = [];
  for (let i = from; i < to; ) {
    const c = src[i];
    let end = i + 1;
    /** @type {Atom['kind']} */
    let kind = 'text';
    if (c === '\\') {
      const d = src[i + 1];
      if (d === 'u' && src[i + 2] === '{') end = src.indexOf('}', i) + 1;
      else if (d === 'u') end = i + 6;
      else if (d === 'x') end = i + 4;
      else if (d === '\r' && src[i + 2] === '\n') end = i + 3;
      else end = i + 2;
      if (d === '\n' || d === '\r') kind = 'newline';
    } else if (c === '\n') kind = 'newline';
    else if (c === ' ') kind = 'space';
    else if ('>;,)}|'.includes(c)) kind = 'mark';
    else if (/** @type {number} */ (src.codePointAt(i)) > 0xffff) end = i + 2;
    out.push({ at: i, end, kind });
    i = end;
  }
  return out;
}

/**
 * Where a literal cannot become a concatenation: a type, a module name, a property's name, `as const`,
 * a tagged template, a directive.
 * @param {ts.Node} node
 */
function splittable(node) {
  const p = node.parent;
  if (
    ts.isLiteralTypeNode(p) ||
    ts.isImportDeclaration(p) ||
    ts.isExportDeclaration(p) ||
    ts.isExternalModuleReference(p)
  )
    return false;
  if (ts.isTaggedTemplateExpression(p) || ts.isModuleDeclaration(p) || ts.isImportTypeNode(p)) return false;
  if (
    (ts.isPropertyAssignment(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertySignature(p) ||
      ts.isEnumMember(p)) &&
    p.name === node
  )
    return false;
  if (ts.isAsExpression(p) && p.type.getText() === 'const') return false;
  if (ts.isExpressionStatement(p) && ts.isStringLiteral(node)) return false;
  return true;
}

/**
 * Whether a concatenation in this literal's place needs parentheses to mean the same.
 * @param {ts.Node} node
 */
function needsParens(node) {
  const p = node.parent;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    const higher = [
      ts.SyntaxKind.MinusToken,
      ts.SyntaxKind.AsteriskToken,
      ts.SyntaxKind.SlashToken,
      ts.SyntaxKind.PercentToken,
      ts.SyntaxKind.AsteriskAsteriskToken,
    ];
    return higher.includes(op);
  }
  return !(
    ts.isParenthesizedExpression(p) ||
    ts.isVariableDeclaration(p) ||
    ts.isPropertyAssignment(p) ||
    ts.isPropertyDeclaration(p) ||
    ts.isParameter(p) ||
    ts.isBindingElement(p) ||
    ts.isCallExpression(p) ||
    ts.isNewExpression(p) ||
    ts.isArrayLiteralExpression(p) ||
    ts.isReturnStatement(p) ||
    ts.isThrowStatement(p) ||
    ts.isArrowFunction(p) ||
    ts.isTemplateSpan(p) ||
    ts.isConditionalExpression(p) ||
    ts.isExpressionStatement(p) ||
    ts.isCaseClause(p) ||
    ts.isSpreadElement(p) ||
    ts.isElementAccessExpression(p) ||
    ts.isComputedPropertyName(p)
  );
}

/**
 * The atoms of a literal's contents: text atoms, and for a template each `${…}` as one atom.
 * @param {Literal} node
 * @param {string} src
 * @returns {Atom[]}
 */
function literalAtoms(node, src) {
  const start = node.getStart();
  if (!ts.isTemplateExpression(node)) return textAtoms(src, start + 1, node.end - 1);
  const out = textAtoms(src, start + 1, node.head.end - 2);
  for (const span of node.templateSpans) {
    const close = span.literal.getStart();
    out.push({ at: span.expression.pos - 2, end: close + 1, kind: 'span' });
    out.push(...textAtoms(src, close + 1, span.literal.end - (ts.isTemplateTail(span.literal) ? 1 : 2)));
  }
  return out;
}

/**
 * The cuts that bring a literal's lines under the width, and the `${}` that get a line break inside.
 * A cut is an offset between two atoms; the pieces after a cut start at `next` (the column a continued
 * operand takes), plus the opening quote.
 * @param {Atom[]} atoms
 * @param {number} col the column of the literal's first character
 * @param {number} next the column of the pieces after the first
 */
function plan(atoms, col, next) {
  const limit = WIDTH - 3; // room for the closing quote and ' +' (or the ',' ';' ')' after the last piece)
  /** @type {number[]} */
  const cuts = [];
  /** @type {number[]} */
  const breakSpans = [];
  let c = col + 1;
  /** @type {{ index: number, col: number, score: number }[]} */
  let candidates = [];
  let segmentStart = c;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i];
    const len = a.kind === 'span' ? a.end - a.at : width(atomText(a));
    if (a.kind === 'span' && currentSource.slice(a.at, a.end).includes('\n')) {
      // a `${}` already on several lines: its first line ends the line it starts on; its other lines are
      // its literals' business; go on after its '}'
      const head = currentSource.indexOf('\n', a.at) - a.at;
      if (c + head > limit && candidates.length > 0 && c > segmentStart) cuts.push(a.at);
      c = a.end - 1 - currentSource.lastIndexOf('\n', a.end - 1);
      segmentStart = c;
      candidates = [];
      continue;
    }
    if (a.kind === 'newline') {
      c = 0;
      segmentStart = 0;
      candidates = [];
      continue;
    }
    // a `${}` too long for any line gets a line break after its `${`: only that much must fit here
    const tooLong = a.kind === 'span' && len > limit - next - 1;
    // the best cut: the latest of the highest score in the segment's second half (else anywhere in it), never
    // one that leaves a piece shorter than MIN_PIECE; again while the atom still does not fit
    while (c + (tooLong ? 2 : len) > limit) {
      const room = limit - segmentStart;
      const fit = candidates.filter((k) => k.col - segmentStart >= MIN_PIECE);
      const late = fit.filter((k) => k.col - segmentStart >= room / 2);
      const pool = late.length > 0 ? late : fit;
      if (pool.length === 0) break;
      const best = pool.reduce((x, y) => (y.score >= x.score ? y : x));
      cuts.push(atoms[best.index].at);
      c = next + 1 + (c - best.col);
      segmentStart = next + 1;
      candidates = candidates
        .filter((k) => k.index > best.index)
        .map((k) => ({ ...k, col: next + 1 + (k.col - best.col) }));
    }
    if (tooLong) {
      // go on after its closing brace, which Biome puts at the start of a line
      breakSpans.push(a.at + 2);
      c = next + 2;
      segmentStart = c;
      candidates = [];
      if (i + 1 < atoms.length && atoms[i + 1].kind !== 'newline') candidates.push({ index: i + 1, col: c, score: 2 });
      continue;
    }
    c += len;
    if (i + 1 < atoms.length && atoms[i + 1].kind !== 'newline') {
      const n = atoms[i + 1];
      const t = atomText(a);
      const score =
        a.kind === 'space' || (a.kind === 'mark' && '>;}'.includes(t))
          ? 3
          : a.kind === 'mark' || a.kind === 'span' || n.kind === 'span'
            ? 2
            : 1;
      // never between a space and the word before it, nor leaving a piece of spaces only
      if (!(n.kind === 'space' && score < 3)) candidates.push({ index: i + 1, col: c, score });
    }
  }
  return { cuts, breakSpans };
}

/** @type {string} */
let currentSource = '';
/** @param {Atom} a */
const atomText = (a) => currentSource.slice(a.at, a.end);

/**
 * One pass over a file's literals: the insertions that split those on its long lines. Insertions, not
 * replacements, so that a template and a literal inside one of its `${}` can both be split in one pass.
 * A line whose text past the width is code after a literal (a test's name, then `async () => {`) gets
 * its longest literal cut once near the middle, so that Biome can break the call.
 * @param {string} file
 * @param {string} text
 * @returns {Edit[]}
 */
function literalEdits(file, text) {
  const long = new Set(longLines(file, text));
  if (long.size === 0) return [];
  currentSource = text;
  const sf = parse(file, text);
  const { lines, starts } = lineTable(text);
  const lineOf = (/** @type {number} */ pos) => sf.getLineAndCharacterOfPosition(pos).line;
  /** @type {Edit[]} */
  const edits = [];
  /** @type {Map<number, Literal[]>} the splittable literals on each long line */
  const onLine = new Map();
  /** @param {ts.Node} n */
  const visit = (n) => {
    const literal = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);
    if (literal && splittable(n) && n.end - n.getStart() >= MIN_LITERAL) {
      const start = n.getStart();
      for (let l = lineOf(start); l <= lineOf(n.end); l++)
        if (long.has(l)) onLine.set(l, [...(onLine.get(l) ?? []), n]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  /** @type {Set<Literal>} */
  const done = new Set();
  for (const [l, nodes] of onLine) {
    const over = starts[l] + overflowIndex(lines[l]);
    // a template whose line here is wholly inside one of its `${}` is not this line's business: the literals
    // in that `${}` are (its own pieces are laid out anew once they are split)
    const [from, to] = [starts[l], starts[l] + lines[l].length];
    const own = nodes.filter(
      (n) =>
        !ts.isTemplateExpression(n) ||
        !n.templateSpans.some((s) => s.expression.getStart() <= from && s.expression.end >= to),
    );
    const crossing = own.filter((n) => n.getStart() < over && n.end > over);
    const chosen =
      crossing.length > 0 || own.length === 0
        ? own
        : [own.reduce((a, b) => (b.end - b.getStart() > a.end - a.getStart() ? b : a))];
    for (const n of chosen) {
      if (done.has(n)) continue;
      const run = runOf(n, text);
      for (const m of run) done.add(m);
      const start = run[0].getStart();
      const end = run[run.length - 1].end;
      const first = lineOf(start);
      const indent = /** @type {RegExpExecArray} */ (/^\s*/.exec(lines[first]))[0].length;
      const col = start - starts[first];
      const atLineStart = lines[first].slice(0, col).trim() === '';
      // a run of pieces is cut again as one literal, so that a second pass does not leave stubs
      const joined = run.length > 1 ? joinRun(run, text) : null;
      const source = joined ? joined.text : text;
      currentSource = source;
      const atoms = literalAtoms(joined ? joined.node : n, source);
      // a run was laid out by Biome: its pieces stay where they are. A literal's first piece moves to the next
      // line when Biome breaks there (an argument, a return), or stays
      const second = run.length > 1 ? run[1].getStart() - starts[lineOf(run[1].getStart())] : 0;
      let { cuts, breakSpans } = joined
        ? plan(atoms, col, second)
        : plan(atoms, atLineStart ? col : Math.min(col, indent + 4), indent + 6);
      if (!joined && cuts.length === 0 && breakSpans.length === 0 && col < WIDTH / 2)
        ({ cuts, breakSpans } = plan(atoms, col, indent + 6));
      if (crossing.length === 0 && cuts.length === 0 && !joined) cuts = middleCut(atoms);
      currentSource = text;
      if (cuts.length === 0 && breakSpans.length === 0) continue;
      const q = source[joined ? joined.node.getStart() : start];
      /** @type {Edit[]} */
      const inserts = [
        ...cuts.map((at) => ({ start: at, end: at, text: `${q} +\n${q}` })),
        ...breakSpans.map((at) => ({ start: at, end: at, text: '\n' })),
      ];
      if (joined) {
        // the same cuts as the pieces it has: nothing to do here (a literal inside it may have some)
        if (breakSpans.length === 0 && cuts.join() === joined.cuts.join()) continue;
        const from = joined.node.getStart();
        const body = applyEdits(source, inserts).slice(
          from,
          joined.node.end + inserts.reduce((k, e) => k + e.text.length, 0),
        );
        edits.push({ start, end, text: body });
        continue;
      }
      edits.push(...inserts);
      if (cuts.length > 0 && needsParens(n)) {
        edits.push({ start, end: start, text: '(' });
        edits.push({ start: n.end, end: n.end, text: ')' });
      }
    }
  }
  // a run replaced whole takes the edits inside it with it: the next pass sees them again
  const whole = edits.filter((e) => e.end > e.start);
  return edits.filter(
    (e) => !whole.some((w) => w !== e && e.start >= w.start && e.end <= w.end && (e.start > w.start || e.end < w.end)),
  );
}

/**
 * The literals beside `n` in its `+` chain that join it into one literal: strings (in any quotes) with strings,
 * templates with templates, never past a piece whose text ends a line (a deliberate cut).
 * @param {Literal} n
 * @param {string} src
 * @returns {Literal[]}
 */
function runOf(n, src) {
  const plus = (/** @type {ts.Node} */ e) =>
    ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken;
  /** @type {ts.Node} */
  let top = n;
  while (plus(top.parent)) top = top.parent;
  /** @type {ts.Node[]} */
  const operands = [];
  /** @param {ts.Node} e */
  const flatten = (e) => {
    if (ts.isBinaryExpression(e) && plus(e)) {
      flatten(e.left);
      operands.push(e.right);
    } else operands.push(e);
  };
  flatten(top);
  const kind = (/** @type {ts.Node} */ e) =>
    ts.isStringLiteral(e) ? 's' : ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e) ? 't' : '';
  const endsLine = (/** @type {ts.Node} */ e) => /(\\n|\n)$/.test(src.slice(e.getStart() + 1, e.end - 1));
  const at = operands.indexOf(n);
  let [a, b] = [at, at];
  while (a > 0 && kind(operands[a - 1]) === kind(n) && !endsLine(operands[a - 1])) a--;
  while (b + 1 < operands.length && kind(operands[b + 1]) === kind(n) && !endsLine(operands[b])) b++;
  return /** @type {Literal[]} */ (operands.slice(a, b + 1));
}

/**
 * A run of literals as one: its text (wrapped in parentheses, to parse) and the literal's node in it. Strings take the
 * first piece's quotes, the others' quotes escaped or unescaped to match, so each piece's value is unchanged.
 * @param {Literal[]} run
 * @param {string} src
 * @returns {{ text: string, node: Literal, cuts: number[] }} cuts: where the pieces met, in `text`
 */
function joinRun(run, src) {
  const q = src[run[0].getStart()];
  const inner = run.map((m) => {
    const raw = src.slice(m.getStart() + 1, m.end - 1);
    const from = src[m.getStart()];
    if (from === q) return raw;
    return raw.replace(/\\([\s\S])|(['"])/g, (all, esc, quote) =>
      esc !== undefined ? (esc === from ? from : all) : quote === q ? `\\${q}` : quote,
    );
  });
  const text = `(${q}${inner.join('')}${q})`;
  const sf = ts.createSourceFile('run.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const statement = /** @type {ts.ExpressionStatement} */ (sf.statements[0]);
  const node = /** @type {Literal} */ (/** @type {ts.ParenthesizedExpression} */ (statement.expression).expression);
  /** @type {number[]} */
  const cuts = [];
  let at = 2; // after '(' and the opening quote
  for (const piece of inner.slice(0, -1)) cuts.push((at += piece.length));
  return { text, node, cuts };
}

/**
 * One cut at the space nearest the middle of a literal's text (outside any `${}`), or none.
 * @param {Atom[]} atoms
 * @returns {number[]}
 */
function middleCut(atoms) {
  const mid = (atoms[0].at + atoms[atoms.length - 1].end) / 2;
  const spaces = atoms.filter((a, i) => a.kind === 'space' && i + 1 < atoms.length && atoms[i + 1].kind === 'text');
  if (spaces.length === 0) return [];
  const best = spaces.reduce((a, b) => (Math.abs(b.end - mid) < Math.abs(a.end - mid) ? b : a));
  return [best.end];
}

/**
 * @param {string} text
 * @param {Edit[]} edits
 */
function applyEdits(text, edits) {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Comments

/** @typedef {{ text: string, comment: number }} Line  comment: the id of the comment the line is wholly in, or -1 */

const LIST_ITEM = /^(?:[-*•] |\d+[.)] |\([a-z0-9]+\) )/;
const DIRECTIVE = /^(?:@ts-|biome-ignore|eslint|#!|\/ <reference)/;

/**
 * One pass over a file's comments: long `//` lines and comment-block lines rewrapped, long trailing `//`
 * comments moved above their line, long one-line blocks opened onto several lines.
 * @param {string} file
 * @param {string} text
 * @returns {string}
 */
function rewrapComments(file, text) {
  const long = longLines(file, text);
  if (long.length === 0) return text;
  const sf = parse(file, text);
  const { lines: raw, starts } = lineTable(text);
  /** @type {ts.CommentRange[]} */
  const comments = [];
  const seen = new Set();
  /** @param {ts.Node} n */
  const visit = (n) => {
    for (const c of [
      ...(ts.getLeadingCommentRanges(text, n.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, n.end) ?? []),
    ]) {
      if (!seen.has(c.pos)) {
        seen.add(c.pos);
        comments.push(c);
      }
    }
    for (const child of n.getChildren(sf)) visit(child);
  };
  visit(sf);
  const literals = nodesOf(sf, (n) => ts.isTemplateExpression(n) || ts.isNoSubstitutionTemplateLiteral(n));
  const lineOf = (/** @type {number} */ pos) => sf.getLineAndCharacterOfPosition(pos).line;
  /** @type {Line[]} */
  const lines = raw.map((t) => ({ text: t, comment: -1 }));
  comments.forEach((c, id) => {
    const [first, last] = [lineOf(c.pos), lineOf(c.end)];
    const alone = raw[first].slice(0, c.pos - starts[first]).trim() === '';
    for (let l = first; l <= last; l++) {
      const whole = (l > first || alone) && (l < last || raw[l].slice(c.end - starts[l]).trim() === '');
      if (whole) lines[l].comment = c.kind === ts.SyntaxKind.SingleLineCommentTrivia ? -2 : id;
    }
  });
  for (const i of [...long].reverse()) {
    const at = starts[i] + overflowIndex(raw[i]);
    const c = comments.find((x) => at >= x.pos && at < x.end);
    if (!c) continue;
    const line = lines[i].text;
    const indent = /** @type {RegExpExecArray} */ (/^\s*/.exec(line))[0];
    const before = line.slice(0, c.pos - starts[i]);
    const oneLine = lineOf(c.pos) === i && lineOf(c.end) === i;
    const after = oneLine ? line.slice(c.end - starts[i]) : '';
    if (c.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      const body = text.slice(c.pos + 2, c.end);
      if (DIRECTIVE.test(body.trimStart())) continue;
      if (before.trim() === '') {
        wrap(lines, i, `${indent}//`);
        continue;
      }
      // a trailing comment goes above its line, unless the line starts inside a template's text
      if (literals.some((l) => starts[i] > l.getStart() && starts[i] < l.end)) continue;
      lines[i] = { text: before.trimEnd(), comment: -1 };
      lines.splice(i, 0, { text: `${indent}//${body}`, comment: comments.length + i });
      wrap(lines, i, `${indent}//`);
    } else if (oneLine) {
      if (before.trim() !== '' || after.trim() !== '') continue;
      const full = text.slice(c.pos, c.end);
      const open = full.startsWith('/**') ? '/**' : '/*';
      const body = full.slice(open.length, -2).trim();
      lines.splice(
        i,
        1,
        { text: `${indent}${open}`, comment: 0 },
        { text: `${indent} * ${body}`, comment: 0 },
        { text: `${indent} */`, comment: 0 },
      );
      wrap(lines, i + 1, `${indent} *`);
    } else if (/^\s*\*( |$)/.test(line)) {
      wrap(lines, i, /** @type {RegExpExecArray} */ (/^\s*\*/.exec(line))[0]);
    }
  }
  return lines.map((l) => l.text).join('\n');
}

/**
 * Brings line i (`marker` then a space then the words) under the width: the words past the last space
 * that fits go to the start of the next line when it continues the same paragraph of the same comment,
 * else onto a new line; that line is then wrapped in turn.
 * @param {Line[]} lines
 * @param {number} i
 * @param {string} marker the line's start up to its words, less the space after it ('  //', '   *')
 */
function wrap(lines, i, marker) {
  const line = lines[i].text;
  if (width(line) <= WIDTH || !line.startsWith(marker) || URL_RE.test(line)) return;
  const lead = /** @type {RegExpExecArray} */ (/^ */.exec(line.slice(marker.length)))[0];
  const prefix = marker + lead;
  const words = line.slice(prefix.length);
  if (DIRECTIVE.test(words) || words.startsWith('|')) return;
  const room = WIDTH - width(prefix);
  let cut = -1;
  for (let k = words.indexOf(' '); k !== -1; k = words.indexOf(' ', k + 1)) {
    if (width(words.slice(0, k)) > room) break;
    if (words.slice(0, k).trim() !== '' && words[k + 1] !== ' ') cut = k;
  }
  if (cut === -1) return;
  const head = words.slice(0, cut).trimEnd();
  const rest = words.slice(cut + 1).trimStart();
  // a line indented past the marker's one space (a command, code) is never joined with the next; its rest
  // goes on a line of its own, indented two more
  const verbatim = lead.length > 1;
  const item = LIST_ITEM.exec(head);
  const cont = prefix + (verbatim ? '  ' : item ? ' '.repeat(item[0].length) : '');
  lines[i] = { ...lines[i], text: prefix + head };
  const next = lines[i + 1];
  const nextWords = next?.text.startsWith(cont) ? next.text.slice(cont.length) : '';
  const joins =
    !verbatim &&
    next !== undefined &&
    next.comment === lines[i].comment &&
    nextWords !== '' &&
    !nextWords.startsWith(' ') &&
    !LIST_ITEM.test(nextWords) &&
    !/^(?:@|```|\||\*\/)/.test(nextWords) &&
    !rest.endsWith('*/');
  if (joins) lines[i + 1] = { ...next, text: `${cont}${rest} ${nextWords}` };
  else lines.splice(i + 1, 0, { text: cont + rest, comment: lines[i].comment });
  wrap(lines, i + 1, marker);
}

// ---------------------------------------------------------------------------------------------------------

function biome() {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'biome');
  const r = spawnSync(bin, ['check', '--write', '--max-diagnostics=0'], { cwd: ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
}

/**
 * One pass over one file's text, without Biome: its long literals split, then its long comments rewrapped.
 * @param {string} file the path, for the parser's choice of TypeScript or JavaScript
 * @param {string} text
 * @returns {string}
 */
export function splitSource(file, text) {
  return rewrapComments(file, applyEdits(text, literalEdits(file, text)));
}

/**
 * One pass: split the literals, then rewrap the comments, of every file with a long line.
 * @returns {number} the files changed
 */
function pass() {
  let changed = 0;
  for (const file of formattedFiles()) {
    const abs = path.join(ROOT, file);
    const text = readFileSync(abs, 'utf8');
    const out = splitSource(file, text);
    if (out !== text) {
      writeFileSync(abs, out);
      changed++;
    }
  }
  return changed;
}

/** Each line over the width: `file:line: length`. */
function report() {
  /** @type {string[]} */
  const out = [];
  for (const file of formattedFiles()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const lines = text.split('\n');
    for (const i of longLines(file, text)) out.push(`${file}:${i + 1}: ${width(lines[i])} characters`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const mode = process.argv[2];
  if (mode === '--write') {
    biome();
    for (let p = 1; p <= MAX_PASSES; p++) {
      const changed = pass();
      biome();
      if (changed === 0) break;
      process.stderr.write(`split-long-lines: pass ${p}, ${changed} files\n`);
    }
    const left = report();
    if (left.length > 0)
      process.stdout.write(
        `${left.join('\n')}\n${left.length} lines over ${WIDTH} characters are left to split by hand\n`,
      );
  } else if (mode === '--check') {
    const left = report();
    if (left.length > 0) {
      process.stdout.write(
        `${left.join('\n')}\n${left.length} lines over ${WIDTH} characters: npm run format splits strings and ` +
          `comments\n`,
      );
      process.exitCode = 1;
    }
  } else {
    process.stderr.write('usage: node tools/split-long-lines.mjs --write | --check\n');
    process.exitCode = 2;
  }
}
