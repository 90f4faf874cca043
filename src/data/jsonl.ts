// JSON Lines to Tables: one JSON object per line, streamed block by block (never the whole file as
// one string). Core code: no Node imports.
//
// Columns are the first object's keys, in its order. A later line may leave a key out (a missing
// cell) but not bring a new one (an error naming the line and key: a misspelt key would otherwise
// become a column of missing values). Values: strings (the same inference as a CSV cell), numbers,
// booleans (the labels "true"/"false") and null (missing); an object or array is an error naming the
// line and key. Blank lines are skipped; line numbers count every line of the file. The bytes are
// checked to be UTF-8 as a CSV file's are.
import { EngineError, inputError } from '../engine/errors.js';
import { findInvalidUtf8, sniffBytes } from './csv-scan.js';
import { TableBuilder, type Cell, type SchemaOptions } from './schema.js';
import { checkNames, typedReport, type ByteSource, type ReadResult } from './typed-read.js';
import { closeColumns } from './table.js';

const quote = (s: string) => JSON.stringify(s);

class JsonLines {
  builder: TableBuilder | null = null;
  private index = new Map<string, number>();
  private names: string[] = [];
  private cells: Cell[] = [];
  private firstLine = 0;

  constructor(
    readonly file: string,
    readonly opts: SchemaOptions,
  ) {}

  line(text: string, line: number): void {
    if (text.trim() === '') return;
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw inputError(
        `${this.file}: line ${line}: not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
      );
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw inputError(
        `${this.file}: line ${line}: a JSON ${obj === null ? 'null' : Array.isArray(obj) ? 'array' : typeof obj}, ` +
          `not an object; JSON Lines holds one object per line`,
      );
    }
    const o = obj as Record<string, unknown>;
    if (!this.builder) {
      this.names = Object.keys(o);
      if (this.names.length === 0)
        throw inputError(`${this.file}: line ${line}: an empty object; the first line's keys name the columns`);
      checkNames(this.file, this.names);
      this.names.forEach((n, i) => this.index.set(n, i));
      this.builder = new TableBuilder(this.file, this.names, this.opts, { unit: 'line' });
      this.cells = new Array<Cell>(this.names.length);
      this.firstLine = line;
    }
    const cells = this.cells.fill(undefined);
    for (const k in o) {
      const j = this.index.get(k);
      if (j === undefined) {
        const close = closeColumns(k, this.names);
        throw inputError(
          `${this.file}: line ${line}: the key ${quote(k)} is not one of line ${this.firstLine}'s ` +
            `keys${close.length ? ` (did you mean ${close.map(quote).join(' or ')}?)` : ''}, which name the ` +
            `columns: ${this.names.join(', ')}`,
        );
      }
      const v = o[k];
      if (v !== null && typeof v === 'object')
        throw inputError(
          `${this.file}: line ${line}, key ${quote(k)}: a nested value ` +
            `(${Array.isArray(v) ? 'an array' : 'an object'}); lucid reads flat values: strings, numbers, ` +
            `booleans and null`,
        );
      cells[j] = v as Cell;
    }
    this.builder.addCells(cells, line);
  }
}

/**
 * Reads JSON Lines into a Table; every problem is one E_INPUT line naming the file and line (and the key or column
 * where there is one).
 */
export async function readJsonLines(src: ByteSource, file: string, opts: SchemaOptions = {}): Promise<ReadResult> {
  if (src.byteLength === 0) throw inputError(`${file}: the file is empty`);
  const reader = new JsonLines(file, opts);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let carry = new Uint8Array(0);
  /** file offset of carry[0], and the line it starts */
  let base = 0;
  let line = 1;
  let first = true;
  const block = (b: Uint8Array, last: boolean) => {
    // the complete lines of b (all of it at the end)
    const end = last ? b.length : b.lastIndexOf(0x0a) + 1;
    if (end === 0) return b;
    const part = b.subarray(0, end);
    let text: string;
    try {
      text = decoder.decode(part);
    } catch {
      const bad = findInvalidUtf8(part);
      let at = line;
      for (let i = 0; i < bad; i++) if (part[i] === 0x0a) at++;
      throw inputError(
        `${file}: not valid UTF-8 at byte offset ${base + bad} (line ${at}); save the file as UTF-8 (it may be ` +
          `Latin-1 or Windows-1252)`,
      );
    }
    const lines = text.split('\n');
    if (!last || lines[lines.length - 1] === '') lines.pop();
    for (const l of lines) {
      reader.line(l.endsWith('\r') ? l.slice(0, -1) : l, line);
      line++;
    }
    base += end;
    return b.subarray(end);
  };
  try {
    for await (const chunk of src.chunks()) {
      let b = chunk;
      if (first && b.length > 0) {
        first = false;
        sniffBytes(b.subarray(0, 64 * 1024), file);
        if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
          b = b.subarray(3);
          base = 3;
        }
      }
      if (carry.length) {
        const joined = new Uint8Array(carry.length + b.length);
        joined.set(carry);
        joined.set(b, carry.length);
        b = joined;
      }
      carry = Uint8Array.from(block(b, false));
      if (carry.length > 64 * 1024 * 1024)
        throw inputError(`${file}: line ${line} is longer than 64 MiB; JSON Lines holds one object per line`);
    }
    block(carry, true);
  } catch (e) {
    if (e instanceof EngineError) throw e;
    throw inputError(`${file}: cannot read the file (${e instanceof Error ? e.message : String(e)})`);
  }
  const builder = reader.builder;
  if (!builder) throw inputError(`${file}: the file holds only blank lines`);
  const built = builder.finish();
  return { table: built.table, report: typedReport(file, 'jsonl', builder, built) };
}
