// CSV dialect detection from the first chunk of a file. Core code: no Node imports.
//
// Rules (docs/data.md "Reading data"):
// - BOM: a leading U+FEFF is noted and skipped.
// - Delimiter: each candidate (tab, semicolon, comma, runs of spaces/tabs) splits the sampled lines,
//   respecting quotes. A candidate qualifies when every sampled line gives the same number (≥ 2) of
//   fields; the first qualifying one in that order wins, because the earlier a character is in the
//   list the less often it occurs inside values (a semicolon file may hold decimal commas; a comma
//   file holds spaces). When none qualifies (a ragged file) the one of tab, semicolon and comma whose
//   most common field count (≥ 2) covers the most lines wins, so the ragged line is then reported;
//   otherwise (a one-column file) comma.
// - Header: line 1 is a header when none of its fields is a number and either some column below is
//   numeric, or (an all-text file) its fields are distinct, not missing, and none reappears in its
//   column below.
// - Line ends: the first line end in the sample (LF, CRLF or CR); any of them is read.
import { EngineError } from '../engine/errors.js';
import { isMissing, parseNumber } from './cells.js';

export type Delimiter = ',' | ';' | '\t' | 'whitespace';
export type LineEnding = 'LF' | 'CRLF' | 'CR';

/** Candidates in order of preference (see the rule above). */
export const DELIMITERS: readonly Delimiter[] = ['\t', ';', ',', 'whitespace'];

const NAMES: Record<Delimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', whitespace: 'whitespace' };

/** A readable name: comma, semicolon, tab, whitespace. */
export function delimiterName(d: Delimiter): string {
  return NAMES[d];
}

/** Parses a user's delimiter: ',' or comma, ';' or semicolon, a tab, '\t' or tab, whitespace or space. */
export function parseDelimiter(s: string): Delimiter | undefined {
  const k = s.trim() === '' && s.includes('\t') ? '\t' : s.trim().toLowerCase();
  const table: Record<string, Delimiter> = {
    ',': ',',
    comma: ',',
    ';': ';',
    semicolon: ';',
    '\t': '\t',
    '\\t': '\t',
    tab: '\t',
    whitespace: 'whitespace',
    space: 'whitespace',
    spaces: 'whitespace',
  };
  return table[k];
}

export interface DetectOptions {
  /** names the input in messages */
  file?: string;
  /** given settings are used as they are; the others are detected */
  delimiter?: Delimiter;
  header?: boolean;
  /** false when `text` is only the start of the file (its last line may be cut) */
  complete?: boolean;
  /** lines examined (default 200) */
  maxLines?: number;
}

export interface Detection {
  bom: boolean;
  delimiter: Delimiter;
  header: boolean;
  lineEnding: LineEnding;
  /** which settings were detected rather than given */
  detected: { delimiter: boolean; header: boolean };
  /** the sampled lines split with the chosen delimiter, fields trimmed, blank lines skipped */
  sample: string[][];
}

const QUOTE = 34;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;

/**
 * Splits text into records of raw fields with fast-csv's quoting rules: a field whose first
 * non-space character is a quote is quoted, "" inside it is a quote, and newlines inside it are
 * content. Blank lines give no record. With `complete` false the last record is dropped unless the
 * text ends with a line end (it may be cut). `starts`, when given, receives the index in `text` where
 * each record starts.
 */
export function splitRecords(
  text: string,
  delimiter: Delimiter,
  maxRecords = Infinity,
  complete = true,
  starts?: number[],
): string[][] {
  const ws = delimiter === 'whitespace';
  const d = ws ? -1 : delimiter.charCodeAt(0);
  const n = text.length;
  const at = (i: number) => (i < n ? text.charCodeAt(i) : -1);
  const isDelim = (c: number) => (ws ? c === SPACE || c === TAB : c === d);
  const isEnd = (c: number) => c === LF || c === CR || c === -1;
  const pastBreak = (i: number) => (at(i) === CR && at(i + 1) === LF ? i + 2 : i + 1);
  const records: string[][] = [];
  let lastCut = false;
  let i = 0;
  while (i < n && records.length < maxRecords) {
    const start = i;
    const fields: string[] = [];
    let cut: boolean;
    for (;;) {
      while ((at(i) === SPACE || at(i) === TAB) && at(i) !== d) i++;
      if (isEnd(at(i))) {
        // after a delimiter this is an empty last field; in whitespace mode, trailing blanks
        if (!ws) fields.push('');
        cut = at(i) === -1;
        i = pastBreak(i);
        break;
      }
      const [value, next] = at(i) === QUOTE ? quotedField(text, i + 1) : [null, i];
      let j = next;
      while (!isDelim(at(j)) && !isEnd(at(j))) j++;
      // text after a closing quote is a quoting error fast-csv reports; detection only needs counts
      fields.push(value ?? text.slice(i, j));
      i = j;
      if (isEnd(at(i))) {
        cut = at(i) === -1;
        i = pastBreak(i);
        break;
      }
      i++;
    }
    if (fields.length > 1 || (fields.length === 1 && fields[0].trim() !== '')) {
      records.push(fields);
      starts?.push(start);
      lastCut = cut;
    }
  }
  if (!complete && i >= n && lastCut) {
    records.pop();
    starts?.pop();
  }
  return records;
}

/** The value of a quoted field whose content starts at `i`, and the index after its closing quote. */
function quotedField(text: string, i: number): [string, number] {
  let v = '';
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return [v + text.slice(i), text.length];
    v += text.slice(i, q);
    if (text.charCodeAt(q + 1) !== QUOTE) return [v, q + 1];
    v += '"';
    i = q + 2;
  }
}

function firstLineEnding(text: string): LineEnding {
  const m = /\r\n|\n|\r/.exec(text);
  return m === null || m[0] === '\n' ? 'LF' : m[0] === '\r\n' ? 'CRLF' : 'CR';
}

/** The candidate the rule above picks for these records per delimiter. */
function chooseDelimiter(split: (d: Delimiter) => string[][]): Delimiter {
  let best: Delimiter = ',';
  let bestCover = 0;
  for (const d of DELIMITERS) {
    const counts = split(d).map((r) => r.length);
    if (counts.length === 0) continue;
    const freq = new Map<number, number>();
    for (const c of counts) freq.set(c, (freq.get(c) ?? 0) + 1);
    if (freq.size === 1 && counts[0] >= 2) return d;
    // spaces inside values are too common to trust a partial split on them
    if (d === 'whitespace') continue;
    for (const [width, k] of freq) {
      if (width >= 2 && k > bestCover) {
        best = d;
        bestCover = k;
      }
    }
  }
  return best;
}

const isNumber = (s: string) => !Number.isNaN(parseNumber(s));

/** The header rule above, applied to trimmed records. */
export function looksLikeHeader(records: readonly string[][]): boolean {
  if (records.length === 0) return false;
  const [first, ...rest] = records;
  if (first.some(isNumber)) return false;
  const below = rest.filter((r) => r.length === first.length);
  const numericBelow = first.some((_, j) => {
    const cells = below.map((r) => r[j]).filter((s) => !isMissing(s));
    return cells.length > 0 && cells.every(isNumber);
  });
  if (numericBelow) return true;
  if (first.some((s) => isMissing(s)) || new Set(first).size !== first.length) return false;
  return first.every((name, j) => below.every((r) => r[j] !== name));
}

/** Detects the settings not given in `opts` from the start of a file (see the rules above). */
export function detectCsv(text: string, opts: DetectOptions = {}): Detection {
  const file = opts.file ?? 'input';
  const complete = opts.complete ?? true;
  const maxLines = opts.maxLines ?? 200;
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  if (complete && body.length === 0) {
    throw new EngineError(
      'E_INPUT',
      bom ? `${file}: the file is empty (it holds only a UTF-8 byte-order mark)` : `${file}: the file is empty`,
    );
  }
  const cache = new Map<Delimiter, string[][]>();
  const split = (d: Delimiter) => {
    let r = cache.get(d);
    if (!r) cache.set(d, (r = splitRecords(body, d, maxLines, complete)));
    return r;
  };
  const delimiter = opts.delimiter ?? chooseDelimiter(split);
  const sample = split(delimiter).map((r) => r.map((f) => f.trim()));
  if (complete && sample.length === 0) throw new EngineError('E_INPUT', `${file}: the file holds only blank lines`);
  return {
    bom,
    delimiter,
    header: opts.header ?? looksLikeHeader(sample),
    lineEnding: firstLineEnding(body),
    detected: { delimiter: opts.delimiter === undefined, header: opts.header === undefined },
    sample,
  };
}
