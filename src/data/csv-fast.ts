// The CSV reader's fast path: lines without quotes, split on a one-byte delimiter. Core code: no
// Node imports.
//
// The bytes arrive checked (valid UTF-8, cut on character boundaries, no NUL, BOM stripped: the
// ByteGuard of src/node/csv.ts). For a line that holds no quote, fast-csv's fields are the line split
// on the delimiter, but for whitespace the reader trims anyway (fast-csv drops the blanks in front of
// a field that is empty), so splitting the decoded text with String.prototype.split gives the same
// rows. The first quote ends the fast path: the bytes from the start of its line on go to fast-csv.
export type ByteDelimiter = ',' | ';' | '\t';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const LINE_END = /\r\n|\r|\n/;

export class FastSplitter {
  private rest = '';
  private readonly dec = new TextDecoder('utf-8', { ignoreBOM: true });
  /** set once a quote was met: the rest of the input is not this splitter's */
  handedOff = false;

  constructor(
    private readonly delimiter: ByteDelimiter,
    /** one call per line, in order (a blank line gives [''] or ['   ']) */
    private readonly onRow: (fields: string[]) => void,
  ) {}

  /**
   * Splits the complete lines of the input so far. Returns null, or once the input holds a quote, the
   * bytes from the start of the line that holds it to the end of `b`: the caller gives them, and all
   * later input, to the general parser.
   */
  push(b: Uint8Array): Uint8Array | null {
    if (this.handedOff) throw new Error('FastSplitter: input after the hand-off');
    const q = b.indexOf(QUOTE);
    if (q < 0) {
      const s = this.rest + this.dec.decode(b);
      const end = completeEnd(s);
      this.rest = s.slice(end);
      if (end > 0) this.lines(s.slice(0, end));
      return null;
    }
    this.handedOff = true;
    let t = q - 1;
    while (t >= 0 && b[t] !== LF && b[t] !== CR) t--;
    if (t < 0) {
      // the quote's line began in earlier input: give back its bytes too
      const head = new TextEncoder().encode(this.rest);
      this.rest = '';
      const out = new Uint8Array(head.length + b.length);
      out.set(head);
      out.set(b, head.length);
      return out;
    }
    this.lines(this.rest + this.dec.decode(b.subarray(0, t + 1)));
    this.rest = '';
    return b.subarray(t + 1);
  }

  /** The end of the input: its last line, if it has no line end. */
  end(): void {
    if (this.handedOff || this.rest === '') return;
    const s = this.rest;
    this.rest = '';
    const c = s.charCodeAt(s.length - 1);
    this.lines(c === CR || c === LF ? s : s + '\n');
  }

  /** `text` ends with a line end. */
  private lines(text: string): void {
    const lines = text.indexOf('\r') < 0 ? text.split('\n') : text.split(LINE_END);
    const d = this.delimiter;
    const n = lines.length - 1;
    for (let i = 0; i < n; i++) this.onRow(lines[i].split(d));
  }
}

/**
 * Length of the part of `s` made of complete lines: up to its last line end, but a CR at the very end
 * waits (an LF may follow in the next chunk, and CRLF is one line end).
 */
function completeEnd(s: string): number {
  let last = Math.max(s.lastIndexOf('\n'), s.lastIndexOf('\r'));
  if (last < 0) return 0;
  if (last === s.length - 1 && s.charCodeAt(last) === CR) {
    last = last === 0 ? -1 : Math.max(s.lastIndexOf('\n', last - 1), s.lastIndexOf('\r', last - 1));
  }
  return last + 1;
}
