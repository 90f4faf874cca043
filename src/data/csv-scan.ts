// Byte-level checks on a CSV stream, before any text is parsed. Core code: no Node imports.
//
// fast-csv decodes invalid UTF-8 into U+FFFD silently and reports quoting errors without a line
// number (and only after buffering the rest of the file for an unclosed quote), so these checks
// run on the bytes first: they know the byte offset and line of every problem.
import { type EngineError, inputError } from '../engine/errors.js';
import type { Delimiter } from './csv-detect.js';

const QUOTE = 0x22;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Rejects files that are not UTF-8 text by their first bytes (compressed, a spreadsheet, UTF-16)
 * and reports whether a UTF-8 byte-order mark is present.
 */
export function sniffBytes(head: Uint8Array, file: string): { bom: boolean } {
  const b = head;
  if (b[0] === 0x1f && b[1] === 0x8b)
    throw inputError(`${file}: the file is gzip-compressed; decompress it first (gunzip)`);
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) {
    throw inputError(`${file}: the file is a zip archive (an Excel .xlsx workbook is one); export the sheet as CSV`);
  }
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) {
    throw inputError(`${file}: the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8`);
  }
  return { bom: b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf };
}

/** Length of a UTF-8 sequence cut off at the end of `b` (0 when `b` ends on a character boundary). */
export function utf8CutTail(b: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, b.length); k++) {
    const c = b[b.length - k];
    if ((c & 0xc0) === 0x80) continue; // continuation byte: look further back
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/**
 * Offset of the first byte in `b` that does not belong to valid UTF-8 (overlong forms, surrogates
 * and code points above U+10FFFF are invalid, as for TextDecoder with fatal: true), or −1.
 */
export function findInvalidUtf8(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i; // cut off at the end
    const c1 = b[i + 1];
    if (c1 < lo || c1 > hi) return i;
    for (let k = 2; k <= need; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return -1;
}

/** 1-based line of byte `offset` in `b` (LF, CRLF and CR end lines), counting from `firstLine`. */
export function lineAt(b: Uint8Array, offset: number, firstLine = 1): number {
  let line = firstLine;
  for (let i = 0; i < offset; i++) {
    if (b[i] === LF) line++;
    else if (b[i] === CR && b[i + 1] !== LF) line++;
  }
  return line;
}

/** The largest value a cell may hold, quoted or not (a size cap: longer values are refused as such). */
export const MAX_FIELD_BYTES = 1 << 20;
/** @deprecated the old name of MAX_FIELD_BYTES */
export const MAX_QUOTED_BYTES = MAX_FIELD_BYTES;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3;
const AFTER_CLOSE = 4;

/**
 * Follows fast-csv's quoting rules over the bytes (a field whose first non-blank byte is a quote is
 * quoted; "" inside it is a quote) and throws E_INPUT with the line for: text after a closing quote,
 * a quote never closed, a quoted value over MAX_QUOTED_BYTES. Also counts lines and rejects NUL bytes.
 */
export class QuoteScanner {
  /** current 1-based line */
  line = 1;
  /** bytes seen so far */
  offset = 0;
  private state = FIELD_START;
  private prevCR = false;
  private quoteLine = 0;
  private quotedBytes = 0;
  /** line breaks inside the open quoted value (a value that swallowed lines lacks a closing quote) */
  private quotedBreaks = 0;
  private fieldBytes = 0;
  private readonly ws: boolean;
  private readonly d: number;

  constructor(
    readonly file: string,
    delimiter: Delimiter,
  ) {
    this.ws = delimiter === 'whitespace';
    this.d = this.ws ? -1 : delimiter.charCodeAt(0);
  }

  feed(b: Uint8Array): void {
    // most chunks hold no quote and no NUL: count their lines with native searches and run the byte
    // loop only over their last field (the state it leaves is the one the full loop would leave)
    if (
      !this.ws &&
      this.state <= UNQUOTED &&
      this.fieldBytes + b.length <= MAX_FIELD_BYTES &&
      b.indexOf(QUOTE) < 0 &&
      b.indexOf(0) < 0
    ) {
      let k = b.length - 1;
      while (k >= 0 && b[k] !== this.d && b[k] !== LF && b[k] !== CR) k--;
      if (k >= 0) {
        let lines = 0;
        for (let i = b.indexOf(LF); i >= 0 && i <= k; i = b.indexOf(LF, i + 1)) lines++;
        // a CR followed by an LF: one line end, counted at the LF (b[k + 1] is never an LF)
        for (let i = b.indexOf(CR); i >= 0 && i <= k; i = b.indexOf(CR, i + 1)) if (b[i + 1] !== LF) lines++;
        if (this.prevCR && b[0] === LF) lines--;
        this.line += lines;
        this.prevCR = b[k] === CR;
        this.state = FIELD_START;
        this.offset += k + 1;
        this.slowFeed(b.subarray(k + 1));
        return;
      }
    }
    this.slowFeed(b);
  }

  private slowFeed(b: Uint8Array): void {
    const { ws, d } = this;
    let { state, line, prevCR, quotedBytes, fieldBytes } = this;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      const delim = ws ? c === SPACE || c === TAB : c === d;
      const brk = c === LF || c === CR;
      switch (state) {
        case FIELD_START:
          if (c === QUOTE) {
            state = QUOTED;
            this.quoteLine = line;
            quotedBytes = 0;
            this.quotedBreaks = 0;
          } else if (c === 0) throw this.nul(i);
          else if (!(delim || brk || c === SPACE || c === TAB)) {
            state = UNQUOTED;
            fieldBytes = 1;
          }
          break;
        case UNQUOTED:
          if (delim || brk) state = FIELD_START;
          else if (c === 0) throw this.nul(i);
          else if (++fieldBytes > MAX_FIELD_BYTES) throw this.tooLong(line, false);
          break;
        case QUOTED:
          if (c === QUOTE) state = QUOTE_SEEN;
          else if (++quotedBytes > MAX_FIELD_BYTES) throw this.tooLong(this.quoteLine, true);
          else if (c === 0) throw this.nul(i);
          else if (c === LF) this.quotedBreaks++;
          break;
        case QUOTE_SEEN:
        case AFTER_CLOSE:
          if (c === QUOTE && state === QUOTE_SEEN) state = QUOTED;
          else if (delim || brk) state = FIELD_START;
          else if (c === SPACE || c === TAB) state = AFTER_CLOSE;
          else throw this.afterClose(line, b, i);
          break;
      }
      if (c === LF) {
        if (!prevCR) line++;
        prevCR = false;
      } else if (c === CR) {
        line++;
        prevCR = true;
      } else prevCR = false;
    }
    Object.assign(this, { state, line, prevCR, quotedBytes, fieldBytes });
    this.offset += b.length;
  }

  /** Call at the end of the input. */
  end(): void {
    if (this.state === QUOTED) {
      throw inputError(
        `${this.file}: line ${this.quoteLine}: the quoted value that opens here is never closed; add the closing ` +
          `quote (") or double a quote inside the value ("")`,
      );
    }
  }

  /**
   * A value over the size cap: said as a size cap; a quoted one that swallowed lines probably lacks its closing quote.
   */
  private tooLong(line: number, quoted: boolean): EngineError {
    const cap = `a value longer than ${MAX_FIELD_BYTES / (1 << 20)} MiB, the most a cell may hold (a size cap)`;
    if (quoted && this.quotedBreaks > 0) {
      return inputError(
        `${this.file}: line ${line}: the quoted value that opens here runs on over ${this.quotedBreaks} line breaks ` +
          `and is ${cap}; a closing quote is probably missing`,
      );
    }
    return inputError(
      `${this.file}: line ${line}: ${cap}; a cell of this size is not tabular data (shorten or --drop the column)`,
    );
  }

  private nul(i: number): EngineError {
    return inputError(
      `${this.file}: NUL byte at byte offset ${this.offset + i} (line ${this.line}): this is binary data, not CSV ` +
        `text (UTF-16 text must be saved as UTF-8)`,
    );
  }

  private afterClose(line: number, b: Uint8Array, i: number): EngineError {
    let j = i;
    while (
      j < b.length &&
      j < i + 12 &&
      b[j] !== LF &&
      b[j] !== CR &&
      b[j] !== QUOTE &&
      !(this.ws ? b[j] === SPACE || b[j] === TAB : b[j] === this.d)
    )
      j++;
    const text = new TextDecoder().decode(b.subarray(i, Math.max(j, i + 1)));
    return inputError(
      `${this.file}: line ${line}: ${JSON.stringify(text)} follows the closing quote of a quoted value; quote the ` +
        `whole value and write a quote inside it as ""`,
    );
  }
}

/**
 * Rewrites whitespace-delimited bytes (Statlog style: runs of spaces and tabs between fields,
 * maybe at line starts and ends) as tab-delimited bytes for fast-csv. Quoted fields pass unchanged.
 */
export class WhitespaceCollapser {
  private inQuote = false;
  private lineStart = true;
  private pending = false;
  /** the last byte closed a quoted run: a quote now is the second half of "" */
  private justClosed = false;

  push(b: Uint8Array): Uint8Array {
    const out = new Uint8Array(b.length);
    let o = 0;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (this.inQuote) {
        out[o++] = c;
        if (c === QUOTE) {
          this.inQuote = false;
          this.justClosed = true;
        }
        continue;
      }
      if (c === SPACE || c === TAB) {
        this.pending = true;
      } else if (c === LF || c === CR) {
        this.pending = false;
        this.lineStart = true;
        out[o++] = c;
      } else {
        if (this.pending && !this.lineStart) out[o++] = TAB;
        if (c === QUOTE && (this.pending || this.lineStart || this.justClosed)) this.inQuote = true;
        this.pending = false;
        this.lineStart = false;
        out[o++] = c;
      }
      this.justClosed = false;
    }
    return out.subarray(0, o);
  }
}
