// From rows of text cells to a columnar Table, in one streaming pass. Core code: no Node imports.
//
// Rules (docs/data.md "Reading data"):
// - A cell is trimmed first; leading and trailing spaces are never part of a value (Adult's ", ").
// - Missing: '', '?', 'NA', 'NaN', 'null', 'None' (after trimming, case-sensitive).
// - Kind: a column is numeric when it has at least one non-missing cell and every non-missing cell
//   is a finite decimal number (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/); otherwise categorical.
//   --numeric makes a non-number an error; --categorical keeps numbers as labels.
// - Missing-value policy: 'keep' drops rows with a missing numeric cell and keeps a missing
//   categorical cell as its own category, labelled as written; 'drop' drops every row with a missing
//   cell; 'error' stops at the first missing cell.
//
// No raw strings are kept: while a column may still be numeric it fills a Float64Array, and while it
// has at most maxCategories distinct labels it also fills a code array and a dictionary. When a
// non-number arrives the float array is dropped; when the dictionary overflows while the column is
// still numeric the dictionary is dropped (a column with that many labels cannot be categorical).
import { EngineError, inputError } from '../engine/errors.js';
import { unknownColumn, type CategoricalColumn, type Column, type NumericColumn, type Table } from './table.js';
import type { Delimiter, LineEnding } from './csv-detect.js';
import { formatNumber } from './csv-write.js';
import type { FormatName } from './format-name.js';
import { isMissingTrimmed, parseCommaNumber, parseNumber, type DecimalMark } from './cells.js';

export type ColumnKind = 'numeric' | 'categorical';
/**
 * What a data position is called in messages and reports: a line (CSV, JSON Lines: the file's line) or a row (Parquet,
 * Arrow: the 1-based data row).
 */
export type RowUnit = 'line' | 'row';
export type MissingPolicy = 'keep' | 'drop' | 'error';

export const DEFAULT_MAX_CATEGORIES = 1000;
/** The longest category label accepted (`--max-label-length`): a longer one is refused, naming the line and column. */
export const DEFAULT_MAX_LABEL_LENGTH = 256;
/**
 * A text column with distinct values on at least this share of its non-missing rows (and at least IDENTIFIER_MIN_ROWS
 * of them) is an identifier.
 */
export const IDENTIFIER_SHARE = 0.95;
export const IDENTIFIER_MIN_ROWS = 20;

export interface SchemaOptions {
  /** columns that must be numeric: a non-number in them is an error */
  numeric?: readonly string[];
  /** columns kept as categorical even when every value is a number */
  categorical?: readonly string[];
  /** columns to leave out */
  drop?: readonly string[];
  /**
   * the only columns to read (all when absent), less any named by `drop`: a caller that needs a few columns of a wide
   * or long file reads only those
   */
  keep?: readonly string[];
  missing?: MissingPolicy;
  /** most distinct labels a categorical column may have (default 1000) */
  maxCategories?: number;
  /** the longest category label, in characters (default 256) */
  maxLabelLength?: number;
  /** the decimal mark (default '.'; node/csv.ts passes 'auto' for files not delimited by commas) */
  decimal?: DecimalMark;
  /** per column, a decimal mark that overrides `decimal` (a file read in chunks: the first chunk's) */
  decimalOf?: Record<string, DecimalMark>;
}

export interface ColumnMissing {
  name: string;
  kind: ColumnKind;
  /** missing cells in the rows read */
  cells: number;
  /** line of the first missing cell */
  firstLine: number;
  /** rows with a missing cell in this column that the policy dropped (a row may count for several columns) */
  rowsDropped: number;
  /** labels kept as categories (policy 'keep', categorical columns) */
  keptAs: string[];
}

export interface MissingReport {
  policy: MissingPolicy;
  /** missing cells in all kept columns */
  cells: number;
  /** rows the policy dropped */
  rowsDropped: number;
  /** line numbers of the first dropped rows (at most 10) */
  firstDroppedLines: number[];
  /** only columns with at least one missing cell */
  columns: ColumnMissing[];
}

/** What a reader saw and did: settings, rows, the missing-value policy's effect, warnings. */
export interface ReadReport {
  file: string;
  /** the file's format (src/data/formats.ts FORMATS); absent in older reports */
  format?: FormatName;
  /**
   * what firstLine, firstDroppedLines and messages count: 'line' (CSV, JSON Lines) or 'row' (Parquet, Arrow: 1-based
   * data rows)
   */
  unit?: RowUnit;
  /**
   * SHA-256 of the file's bytes as read (src/data/sha256.ts) and their number; absent when the reader did not see a
   * file
   */
  sha256?: string;
  bytes?: number;
  delimiter: Delimiter;
  header: boolean;
  bom: boolean;
  lineEnding: LineEnding;
  /** which settings were detected rather than given */
  detected: { delimiter: boolean; header: boolean };
  /** the file's columns, before --drop */
  fileColumns: string[];
  /** columns left out by --drop */
  dropped: string[];
  /** data rows in the file (blank lines and the header excluded) */
  rowsRead: number;
  /** rows in the table, after the missing-value policy */
  rowsKept: number;
  missing: MissingReport;
  warnings: string[];
  /** categorical columns most of whose values are numbers (commands refuse them as a label or protected column) */
  mostlyNumeric?: MostlyNumeric[];
  /** the decimal mark used ('auto': commas where a column reads so, see warnings) */
  decimal?: DecimalMark;
}

/** A column read as categories because of a few text cells among numbers. */
export interface MostlyNumeric {
  column: string;
  textCells: number;
  numbers: number;
  firstLines: number[];
  first: string;
}

export interface BuildResult {
  table: Table;
  rowsRead: number;
  missing: MissingReport;
  warnings: string[];
  mostlyNumeric: MostlyNumeric[];
  /** the columns read with decimal commas (decimal 'auto') */
  commaColumns?: string[];
}

const quote = (s: string) => JSON.stringify(s);
const ordinal = (n: number) =>
  `${n}${
    n % 10 === 1 && n % 100 !== 11
      ? 'st'
      : n % 10 === 2 && n % 100 !== 12
        ? 'nd'
        : n % 10 === 3 && n % 100 !== 13
          ? 'rd'
          : 'th'
  }`;

// A column's cells are stored in chunks (1024 rows, doubling up to CHUNK_ROWS, then CHUNK_ROWS
// each): no copy while the file grows, nothing allocated beyond one chunk, and the final column is
// made by copying chunk by chunk, releasing each as it is copied (a 10,000,000-row read must stay
// well under 500 MB). Codes are stored in the narrowest of Uint8, Uint16 and Int32 that holds them.
const FIRST_CHUNK = 1024;
const CHUNK_ROWS = 1 << 16;

/** Float64 cells in chunks. */
class F64Chunks {
  chunks: (Float64Array | null)[] = [];
  fills: number[] = [];
  private cur: Float64Array;
  private fill = 0;

  constructor() {
    this.cur = new Float64Array(FIRST_CHUNK);
    this.chunks.push(this.cur);
    this.fills.push(0);
  }

  push(v: number): void {
    if (this.fill === this.cur.length) {
      this.fills[this.fills.length - 1] = this.fill;
      this.cur = new Float64Array(Math.min(CHUNK_ROWS, this.cur.length * 2));
      this.chunks.push(this.cur);
      this.fills.push(0);
      this.fill = 0;
    }
    this.cur[this.fill++] = v;
  }

  /** Seals the last chunk's fill (call before reading). */
  seal(): void {
    this.fills[this.fills.length - 1] = this.fill;
  }

  /** The kept rows (all when `drop` is null) as one array; the chunks are released as they are copied. */
  take(drop: Uint8Array | null, kept: number): Float64Array {
    this.seal();
    const out = new Float64Array(kept);
    let o = 0;
    let r = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const f = this.fills[k];
      if (!drop) {
        out.set(f === c.length ? c : c.subarray(0, f), o);
        o += f;
      } else {
        for (let i = 0; i < f; i++, r++) if (!drop[r]) out[o++] = c[i];
      }
      this.chunks[k] = null;
    }
    return out;
  }
}

type CodeArray = Uint8Array | Uint16Array | Int32Array;

function codeArray(size: number, maxCode: number): CodeArray {
  return maxCode < 0x100 ? new Uint8Array(size) : maxCode < 0x10000 ? new Uint16Array(size) : new Int32Array(size);
}

/** Category codes in chunks, each in the narrowest type for the codes seen so far. */
class CodeChunks {
  chunks: (CodeArray | null)[] = [];
  fills: number[] = [];
  private cur: CodeArray;
  private fill = 0;
  /** the largest code the current chunk's type holds */
  private limit = 0xff;

  constructor() {
    this.cur = new Uint8Array(FIRST_CHUNK);
    this.chunks.push(this.cur);
    this.fills.push(0);
  }

  push(code: number): void {
    if (code > this.limit) {
      // widen the current chunk (earlier chunks keep their type)
      const wider = codeArray(this.cur.length, code);
      wider.set(this.cur.subarray(0, this.fill));
      this.cur = wider;
      this.chunks[this.chunks.length - 1] = wider;
      this.limit = wider instanceof Uint16Array ? 0xffff : 0x7fffffff;
    }
    if (this.fill === this.cur.length) {
      this.fills[this.fills.length - 1] = this.fill;
      this.cur = codeArray(Math.min(CHUNK_ROWS, this.cur.length * 2), this.limit);
      this.chunks.push(this.cur);
      this.fills.push(0);
      this.fill = 0;
    }
    this.cur[this.fill++] = code;
  }

  seal(): void {
    this.fills[this.fills.length - 1] = this.fill;
  }

  /** Marks the rows whose code is a missing label in `drop`; returns how many. */
  markMissing(missingLabel: readonly boolean[], drop: Uint8Array): number {
    this.seal();
    let r = 0;
    let count = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const f = this.fills[k];
      for (let i = 0; i < f; i++, r++) {
        if (missingLabel[c[i]]) {
          drop[r] = 1;
          count++;
        }
      }
    }
    return count;
  }

  /** Marks the categories used by kept rows. */
  used(drop: Uint8Array, labels: number): Uint8Array {
    this.seal();
    const used = new Uint8Array(labels);
    let r = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const f = this.fills[k];
      for (let i = 0; i < f; i++, r++) if (!drop[r]) used[c[i]] = 1;
    }
    return used;
  }

  /** The kept rows' codes through `remap` (identity when null), as one Int32Array; chunks released as copied. */
  take(drop: Uint8Array | null, kept: number, remap: Int32Array | null): Int32Array {
    this.seal();
    const out = new Int32Array(kept);
    let o = 0;
    let r = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const f = this.fills[k];
      if (!drop && !remap) {
        out.set(f === c.length ? c : c.subarray(0, f), o);
        o += f;
      } else if (!drop) {
        for (let i = 0; i < f; i++) out[o++] = remap![c[i]];
      } else {
        for (let i = 0; i < f; i++, r++) if (!drop[r]) out[o++] = remap ? remap[c[i]] : c[i];
      }
      this.chunks[k] = null;
    }
    return out;
  }
}

/** Marks the rows whose value is NaN (a missing cell of a numeric column) in `drop`; returns how many. */
function markNaN(v: F64Chunks, drop: Uint8Array): number {
  v.seal();
  let r = 0;
  let count = 0;
  for (let k = 0; k < v.chunks.length; k++) {
    const c = v.chunks[k]!;
    const f = v.fills[k];
    for (let i = 0; i < f; i++, r++) {
      if (Number.isNaN(c[i])) {
        drop[r] = 1;
        count++;
      }
    }
  }
  return count;
}

/** One column being read. Cells arrive trimmed. */
class ColumnBuilder {
  n = 0;
  /** null once a non-number has been seen (or the column is forced categorical) */
  values: F64Chunks | null;
  /** null once the dictionary overflowed (or the column is forced numeric) */
  codes: CodeChunks | null;
  dict: Map<string, number> | null;
  labels: string[] = [];
  missingLabel: boolean[] = [];
  missingCells = 0;
  firstMissingLine = 0;
  numbers = 0;
  /** where the column stopped being numeric */
  firstText: { line: number; value: string } | null = null;
  /** non-missing cells that are not numbers, and the lines of the first few */
  textCells = 0;
  textLines: number[] = [];
  /** decimal 'auto': the values read with decimal commas, while every cell so far reads so (null otherwise) */
  comma: F64Chunks | null = null;
  commaCells = 0;
  firstComma: { line: number; value: string } | null = null;
  /** the column was read with decimal commas */
  usedComma = false;
  private readonly parse: (cell: string) => number;

  constructor(
    readonly file: string,
    readonly name: string,
    readonly forced: ColumnKind | undefined,
    readonly maxCategories: number,
    readonly maxLabelLength: number = DEFAULT_MAX_LABEL_LENGTH,
    decimal: DecimalMark = '.',
    /** what a position is called in messages: 'line' (CSV, JSON Lines) or 'row' (Parquet, Arrow) */
    readonly unit: RowUnit = 'line',
    /**
     * the file's column is typed numeric (Parquet, Arrow): every cell is a number or missing, so no labels are kept
     * unless --categorical
     */
    readonly typedNumber = false,
  ) {
    this.parse = decimal === ',' ? parseCommaNumber : parseNumber;
    if (decimal === 'auto' && forced !== 'categorical') this.comma = new F64Chunks();
    this.values = forced === 'categorical' ? null : new F64Chunks();
    const labels = forced !== 'numeric' && !(typedNumber && forced !== 'categorical');
    this.codes = labels ? new CodeChunks() : null;
    this.dict = labels ? new Map() : null;
  }

  push(cell: string, missing: boolean, line: number): void {
    this.pushParsed(cell, missing, missing ? NaN : this.parse(cell), line);
  }

  /**
   * A number from a typed source (a Parquet or Arrow number, a JSON number): the same as a cell
   * holding its shortest round-trip text (formatNumber), without writing or parsing that text when
   * no label is needed. `v` is finite.
   */
  pushNumber(v: number, line: number): void {
    if (this.dict || this.comma) this.pushParsed(formatNumber(v), false, v, line);
    else this.pushParsed('', false, v, line);
  }

  /** A cell and the number it spells (NaN when missing or not a number). */
  private pushParsed(cell: string, missing: boolean, v: number, line: number): void {
    this.n++;
    if (missing) {
      this.missingCells++;
      if (this.firstMissingLine === 0) this.firstMissingLine = line;
    }
    if (!missing && !Number.isNaN(v)) this.numbers++;
    if (!missing && Number.isNaN(v)) {
      this.textCells++;
      if (this.textLines.length < 3) this.textLines.push(line);
    }
    if (this.comma) {
      const c = missing ? NaN : parseCommaNumber(cell);
      if (!missing && Number.isNaN(c)) this.comma = null;
      else {
        this.comma.push(c);
        if (!missing && cell.includes(',')) {
          this.commaCells++;
          this.firstComma ??= { line, value: cell };
        }
      }
    }
    if (this.values) {
      if (!missing && Number.isNaN(v)) this.becomeCategorical(cell, line);
      else this.values.push(v);
    }
    if (this.dict) {
      let code = this.dict.get(cell);
      if (code === undefined) code = this.addLabel(cell, missing, line);
      if (this.codes) this.codes.push(code);
    }
  }

  private becomeCategorical(cell: string, line: number): void {
    if (this.forced === 'numeric') {
      throw inputError(
        `${this.file}: ${this.unit} ${line}, column ${quote(this.name)}: ${quote(cell)} is not a number, but ` +
          `--numeric names this column`,
      );
    }
    this.values = null;
    this.firstText = { line, value: cell };
    if (!this.dict && !this.comma)
      throw this.tooMany(`it is categorical because ${this.unit} ${line} holds ${quote(cell)}, not a number`);
  }

  private addLabel(cell: string, missing: boolean, line: number): number {
    const dict = this.dict!;
    // a size cap, said as one (a number of any length is a number, not a label)
    if (cell.length > this.maxLabelLength && (this.forced === 'categorical' || Number.isNaN(parseNumber(cell)))) {
      throw inputError(
        `${this.file}: ${this.unit} ${line}, column ${quote(this.name)}: a category label of ` +
          `${cell.length.toLocaleString('en-US')} characters, more than the ${this.maxLabelLength} allowed (a ` +
          `size cap; raise --max-label-length, or --drop ${this.name} if it is free text)`,
      );
    }
    if (dict.size === this.maxCategories && !this.idLike()) {
      if (!this.values && !this.comma)
        throw this.tooMany(`the ${ordinal(this.maxCategories + 1)}, ${quote(cell)}, is on ${this.unit} ${line}`);
      // still possibly numeric: forget the labels; a later non-number makes this an error
      this.dict = null;
      this.codes = null;
      this.labels = [];
      this.missingLabel = [];
      return -1;
    }
    const code = dict.size;
    dict.set(cell, code);
    this.labels.push(cell);
    this.missingLabel.push(missing);
    return code;
  }

  /**
   * Text distinct on (nearly) every non-missing row so far, not forced categorical: an identifier, kept past
   * maxCategories.
   */
  idLike(): boolean {
    const filled = this.n - this.missingCells;
    // text, not numbers: a column mostly of numbers is numeric with a few bad cells, never an identifier
    return (
      this.forced !== 'categorical' &&
      this.dict !== null &&
      filled >= IDENTIFIER_MIN_ROWS &&
      this.numbers < 0.5 * filled &&
      this.dict.size >= IDENTIFIER_SHARE * filled
    );
  }

  private tooMany(why: string): EngineError {
    return inputError(
      `${this.file}: column ${quote(this.name)} has more than ${this.maxCategories} distinct values (${why}); an ` +
        `identifier or free text cannot be a category: remove it with --drop ${this.name}, group its values into ` +
        `fewer categories, or raise --max-categories`,
    );
  }

  kind(): ColumnKind {
    if (!this.forced && !(this.values && this.numbers > 0) && this.comma && this.commaCells > 0 && !this.usedComma) {
      // every cell reads as a number written with a decimal comma: read it so (and say so)
      this.values = this.comma;
      this.usedComma = true;
      this.numbers = this.n - this.missingCells;
      this.textCells = 0;
      this.textLines = [];
      this.firstText = null;
    }
    if (this.typedNumber && !this.dict && this.forced !== 'numeric' && this.numbers === 0) {
      // every cell missing: what a CSV of it holds (empty cells), one missing label ''
      this.dict = new Map([['', 0]]);
      this.labels = [''];
      this.missingLabel = [true];
      this.codes = new CodeChunks();
      for (let i = 0; i < this.n; i++) this.codes.push(0);
    }
    const kind = this.forced ?? (this.values && this.numbers > 0 ? 'numeric' : 'categorical');
    if (kind === 'categorical' && !this.dict) throw this.tooMany('it holds no numbers');
    // kept past maxCategories as an identifier, but not one in the end: the usual error
    if (kind === 'categorical' && this.dict!.size > this.maxCategories && !this.idLike())
      throw this.tooMany(
        `${this.dict!.size} distinct values in ${this.n - this.missingCells} rows, too many for a category and too ` +
          `few for an identifier`,
      );
    return kind;
  }

  /** Marks the rows whose cell is missing in `drop` (valid once all rows are in); returns how many. */
  markMissing(kind: ColumnKind, drop: Uint8Array): number {
    return kind === 'numeric' ? markNaN(this.values!, drop) : this.codes!.markMissing(this.missingLabel, drop);
  }
}

/**
 * Column names from a header line: trimmed, none empty (an E_INPUT error naming the file, line and
 * field; `emptyHint` is appended), a repeated name renamed name.1, name.2, … (each rename reported
 * through `renamed`, with the 0-based fields of the first and the repeated name).
 */
export function headerNames(
  file: string,
  fields: readonly string[],
  line: number,
  renamed: (name: string, to: string, first: number, second: number) => void,
  emptyHint = '',
): string[] {
  const names = fields.map((f) => f.trim());
  const empty = names.indexOf('');
  if (empty >= 0)
    throw new EngineError('E_INPUT', `${file}: line ${line}: field ${empty + 1} has no column name${emptyHint}`);
  const taken = new Set(names);
  const firstAt = new Map<string, number>();
  return names.map((n, j) => {
    const i = firstAt.get(n);
    if (i === undefined) {
      firstAt.set(n, j);
      return n;
    }
    let k = 1;
    while (taken.has(`${n}.${k}`)) k++;
    const to = `${n}.${k}`;
    taken.add(to);
    renamed(n, to, i, j);
    return to;
  });
}

/**
 * One cell from a typed source: null or undefined is a missing cell; a number is finite (or NaN: missing); booleans are
 * the labels "true" and "false".
 */
export type Cell = string | number | boolean | null | undefined;

/**
 * One field's cells for a run of rows (a Parquet row group, an Arrow record batch), as the reader
 * decoded them; only 'number' and 'dict' avoid a value per cell:
 * - number: numbers, NaN for a missing cell (a Float64Array, or an Int32Array and the like);
 * - dict: codes into labels, a negative code for a missing cell (Arrow's dictionary-encoded strings);
 * - cells: any Cell per row.
 */
export type FieldBatch =
  | { type: 'number'; values: ArrayLike<number> }
  | { type: 'dict'; codes: ArrayLike<number>; labels: readonly string[] }
  | { type: 'cells'; values: ArrayLike<Cell> };

/** How a typed source differs from a CSV file. */
export interface SourceShape {
  /** 'row' for Parquet and Arrow (default 'line') */
  unit?: RowUnit;
  /** per field of `names`: true when the file types it numeric (its cells are numbers or missing) */
  numberFields?: readonly boolean[];
}

export class TableBuilder {
  private readonly columns: ColumnBuilder[];
  readonly unit: RowUnit;
  /** field index of each kept column */
  private readonly fieldOf: number[];
  private readonly policy: MissingPolicy;
  /** line numbers as runs: from row runRow[k] on, line = row + runDelta[k] (one run in a file without blank lines) */
  private readonly runRow: number[] = [];
  private readonly runDelta: number[] = [];
  private rows = 0;

  /**
   * `file` prefixes every message; `names` are the file's columns in field order (validated:
   * non-empty and distinct). Options naming a column are checked against `names` here.
   */
  constructor(
    readonly file: string,
    readonly names: readonly string[],
    opts: SchemaOptions = {},
    shape: SourceShape = {},
  ) {
    this.unit = shape.unit ?? 'line';
    const maxCategories = opts.maxCategories ?? DEFAULT_MAX_CATEGORIES;
    if (!Number.isSafeInteger(maxCategories) || maxCategories < 1) {
      throw inputError(`${file}: --max-categories must be a positive integer, got ${maxCategories}`);
    }
    const maxLabelLength = opts.maxLabelLength ?? DEFAULT_MAX_LABEL_LENGTH;
    if (!Number.isSafeInteger(maxLabelLength) || maxLabelLength < 1) {
      throw inputError(`${file}: --max-label-length must be a positive integer, got ${maxLabelLength}`);
    }
    this.policy = opts.missing ?? 'keep';
    if (!['keep', 'drop', 'error'].includes(this.policy)) {
      throw inputError(`${file}: --missing must be keep, drop or error, got ${quote(String(this.policy))}`);
    }
    const numeric = this.namedSet(opts.numeric, '--numeric');
    const categorical = this.namedSet(opts.categorical, '--categorical');
    const drop = this.namedSet(opts.drop, '--drop');
    const keep = opts.keep ? this.namedSet(opts.keep, 'keep') : null;
    for (const n of numeric) {
      if (categorical.has(n))
        throw inputError(`${file}: column ${quote(n)} is named by both --numeric and --categorical`);
    }
    this.columns = [];
    this.fieldOf = [];
    names.forEach((name, i) => {
      if (drop.has(name) || (keep && !keep.has(name))) return;
      const forced = numeric.has(name) ? 'numeric' : categorical.has(name) ? 'categorical' : undefined;
      this.columns.push(
        new ColumnBuilder(
          file,
          name,
          forced,
          maxCategories,
          maxLabelLength,
          opts.decimalOf?.[name] ?? opts.decimal ?? '.',
          this.unit,
          shape.numberFields?.[i] ?? false,
        ),
      );
      this.fieldOf.push(i);
    });
    if (this.columns.length === 0)
      throw inputError(
        keep
          ? `${file}: keep names no column that --drop leaves (${names.join(', ')})`
          : `${file}: --drop removes every column (${names.join(', ')})`,
      );
  }

  private namedSet(list: readonly string[] | undefined, option: string): Set<string> {
    const set = new Set<string>();
    for (const n of list ?? []) {
      if (!this.names.includes(n)) {
        throw unknownColumn(n, this.names, this.file, option);
      }
      set.add(n);
    }
    return set;
  }

  /** Adds one data row; `line` is its 1-based line number in the file (for messages). */
  addRow(fields: readonly string[], line: number): void {
    if (fields.length !== this.names.length) {
      throw inputError(
        `${this.file}: line ${line} has ${fields.length} field${fields.length === 1 ? '' : 's'}, expected ` +
          `${this.names.length}; a value holding the delimiter must be quoted`,
      );
    }
    this.lineAt(this.rows++, line);
    for (let j = 0; j < this.columns.length; j++) {
      const col = this.columns[j];
      const cell = fields[this.fieldOf[j]].trim();
      const missing = isMissingTrimmed(cell);
      if (missing && this.policy === 'error') {
        throw inputError(
          `${this.file}: line ${line}, column ${quote(col.name)}: missing value ${quote(cell)} (--missing error)`,
        );
      }
      col.push(cell, missing, line);
    }
  }

  /** Row `r` is on line (or row) `line`: stored as runs of rows whose line is row + delta. */
  private lineAt(r: number, line: number): void {
    if (this.runDelta.length === 0 || this.runDelta[this.runDelta.length - 1] !== line - r) {
      this.runRow.push(r);
      this.runDelta.push(line - r);
    }
  }

  /** Adds one row of typed cells (a JSON Lines object's values, in `names` order); `line` as in addRow. */
  addCells(cells: ArrayLike<Cell>, line: number): void {
    this.lineAt(this.rows++, line);
    for (let j = 0; j < this.columns.length; j++) this.pushCell(this.columns[j], cells[this.fieldOf[j]], line);
  }

  /**
   * Adds `rows` rows given field by field (one FieldBatch per name, in `names` order), numbered from
   * `first` on; cells go in row by row, so the first problem reported is the one a CSV of the same
   * data would report.
   */
  addBatch(fields: readonly FieldBatch[], rows: number, first: number): void {
    if (fields.length !== this.names.length)
      throw new EngineError('E_ARG', `addBatch: ${fields.length} fields for ${this.names.length} columns`);
    // rows r0 … r0 + rows − 1 are lines first … first + rows − 1: one run
    this.lineAt(this.rows, first);
    this.rows += rows;
    const cols = this.columns;
    const batches = this.fieldOf.map((f) => fields[f]);
    // dictionary labels trimmed and checked for missing tokens once per batch, not once per cell
    const dicts = batches.map((b) =>
      b.type === 'dict'
        ? { cells: b.labels.map((l) => l.trim()), missing: b.labels.map((l) => isMissingTrimmed(l.trim())) }
        : null,
    );
    for (let i = 0; i < rows; i++) {
      const line = first + i;
      for (let j = 0; j < cols.length; j++) {
        const b = batches[j];
        if (b.type === 'number') {
          const v = b.values[i];
          if (Number.isFinite(v)) cols[j].pushNumber(v, line);
          else this.pushCell(cols[j], Number.isNaN(v) ? null : v, line);
        } else if (b.type === 'dict') {
          const k = b.codes[i];
          if (k < 0) this.pushCell(cols[j], null, line);
          else {
            const d = dicts[j]!;
            this.pushText(cols[j], d.cells[k], d.missing[k], line);
          }
        } else this.pushCell(cols[j], b.values[i], line);
      }
    }
  }

  private pushText(col: ColumnBuilder, cell: string, missing: boolean, line: number): void {
    if (missing && this.policy === 'error') {
      throw inputError(
        `${this.file}: ${this.unit} ${line}, column ${quote(col.name)}: missing value ${quote(cell)} (--missing error)`,
      );
    }
    col.push(cell, missing, line);
  }

  /** One typed cell, read as a CSV cell holding its text would be. */
  private pushCell(col: ColumnBuilder, v: Cell, line: number): void {
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
      if (this.policy === 'error')
        throw inputError(
          `${this.file}: ${this.unit} ${line}, column ${quote(col.name)}: missing value ` +
            `(${v === null || v === undefined ? 'null' : 'NaN'}) (--missing error)`,
        );
      col.push('', true, line);
    } else if (typeof v === 'number') {
      if (Number.isFinite(v)) col.pushNumber(v, line);
      else if (col.typedNumber)
        throw inputError(`${this.file}: ${this.unit} ${line}, column ${quote(col.name)}: ${v} is not a finite number`);
      else this.pushText(col, String(v), false, line);
    } else if (typeof v === 'boolean') {
      this.pushText(col, v ? 'true' : 'false', false, line);
    } else if (typeof v === 'string') {
      const cell = v.trim();
      this.pushText(col, cell, isMissingTrimmed(cell), line);
    } else {
      throw inputError(
        `${this.file}: ${this.unit} ${line}, column ${quote(col.name)}: a ` +
          `${typeof v === 'object' ? 'nested value' : typeof v}, not a number, text or boolean`,
      );
    }
  }

  get rowsRead(): number {
    return this.rows;
  }

  /** The line of data row `r`. */
  private lineOf(r: number): number {
    let lo = 0;
    let hi = this.runRow.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runRow[mid] <= r) lo = mid;
      else hi = mid - 1;
    }
    return r + this.runDelta[lo];
  }

  /** Applies the missing-value policy and returns the table, its missing-value report and warnings. */
  finish(): BuildResult {
    const n = this.rows;
    const kinds = this.columns.map((c) => c.kind());
    const dropped = new Int32Array(this.columns.length);
    // rows dropped by the policy, marked column by column (a row may count for several columns)
    let drop: Uint8Array | null = null;
    this.columns.forEach((c, j) => {
      if (!(this.policy === 'drop' || kinds[j] === 'numeric') || c.missingCells === 0) return;
      drop ??= new Uint8Array(n);
      dropped[j] = c.markMissing(kinds[j], drop);
    });
    const firstDroppedLines: number[] = [];
    let rowsDropped = 0;
    if (drop) {
      const d: Uint8Array = drop;
      for (let r = 0; r < n; r++) {
        if (!d[r]) continue;
        rowsDropped++;
        if (firstDroppedLines.length < 10) firstDroppedLines.push(this.lineOf(r));
      }
      if (rowsDropped === 0) drop = null;
    }
    const kept = n - rowsDropped;
    const missing = this.missingReport(kinds, dropped, rowsDropped, firstDroppedLines);
    if (kept === 0) throw this.nothingLeft(kinds, dropped);
    const columns = this.columns.map((c, j) =>
      kinds[j] === 'numeric' ? numericColumn(c, drop, kept) : categoricalColumn(c, drop, kept, c.idLike()),
    );
    const table: Table = { rows: kept, columns };
    return {
      table,
      rowsRead: n,
      missing,
      warnings: this.warnings(table),
      mostlyNumeric: this.mostlyNumeric(),
      commaColumns: this.columns.filter((c) => c.usedComma).map((c) => c.name),
    };
  }

  private missingReport(
    kinds: ColumnKind[],
    dropped: Int32Array,
    rowsDropped: number,
    firstDroppedLines: number[],
  ): MissingReport {
    const columns: ColumnMissing[] = [];
    let cells = 0;
    this.columns.forEach((c, j) => {
      if (c.missingCells === 0) return;
      cells += c.missingCells;
      const keptAs =
        this.policy === 'keep' && kinds[j] === 'categorical' ? c.labels.filter((_, k) => c.missingLabel[k]) : [];
      columns.push({
        name: c.name,
        kind: kinds[j],
        cells: c.missingCells,
        firstLine: c.firstMissingLine,
        rowsDropped: dropped[j],
        keptAs,
      });
    });
    return { policy: this.policy, cells, rowsDropped, firstDroppedLines, columns };
  }

  private nothingLeft(kinds: ColumnKind[], dropped: Int32Array): EngineError {
    const culprits = this.columns
      .map((c, j) => ({ c, j }))
      .filter(({ j }) => dropped[j] > 0)
      .map(({ c, j }) => `${c.name} (${kinds[j]}): ${dropped[j]}`)
      .join(', ');
    const fix =
      this.policy === 'drop'
        ? 'use --missing keep, or --drop the emptiest columns'
        : '--drop those columns, or fill the gaps';
    return inputError(
      `${this.file}: no rows left: the missing-value policy "${this.policy}" drops all ${this.rows} data rows (rows ` +
        `with missing cells: ${culprits}); ${fix}`,
    );
  }

  /** Categorical columns most of whose values are numbers: a few text cells turned a numeric column into categories. */
  mostlyNumeric(): MostlyNumeric[] {
    return this.columns
      .filter(
        (b) => b.firstText && b.numbers >= 0.5 * (b.n - b.missingCells) && b.forced !== 'categorical' && !b.values,
      )
      .map((b) => ({
        column: b.name,
        textCells: b.textCells,
        numbers: b.numbers,
        firstLines: b.textLines.slice(),
        first: b.firstText!.value,
      }));
  }

  private warnings(table: Table): string[] {
    const out: string[] = [];
    table.columns.forEach((col, j) => {
      const b = this.columns[j];
      if (col.kind === 'categorical' && b.firstText && b.numbers >= 0.5 * (b.n - b.missingCells)) {
        out.push(
          `${this.file}: column ${quote(col.name)} is categorical because ${b.textCells} of its ` +
            `${b.n - b.missingCells} values are not numbers (the first on ` +
            `${this.unit}${b.textLines.length > 1 ? 's' : ''} ${b.textLines.join(', ')}: ` +
            `${quote(b.firstText.value)}), though ${b.numbers} are; fix or blank those values if it should be ` +
            `numeric (--numeric ${col.name} makes them an error)`,
        );
      }
      if (b.usedComma && b.firstComma) {
        out.push(
          `${this.file}: column ${quote(col.name)} is read with decimal commas (line ${b.firstComma.line}: ` +
            `${quote(b.firstComma.value)} is ${parseCommaNumber(b.firstComma.value)}); give --decimal . to keep ` +
            `such cells as text`,
        );
      }
      if (col.kind === 'categorical' && col.identifier) {
        out.push(
          `${this.file}: column ${quote(col.name)} looks like an identifier (${col.categories.length} distinct ` +
            `values in ${col.codes.length} rows): the GAN and the built-in model leave it out (a model you call ` +
            `still gets it); give --categorical ${col.name} to keep it as a category, or --drop ${col.name}`,
        );
      }
      const single = singleValue(col);
      if (single !== null) {
        out.push(
          `${this.file}: column ${quote(col.name)} has the single value ${quote(single)} in every row; the GAN will ` +
            `exclude it (it carries no information)`,
        );
      }
    });
    return out;
  }
}

function numericColumn(c: ColumnBuilder, drop: Uint8Array | null, kept: number): NumericColumn {
  return { kind: 'numeric', name: c.name, values: c.values!.take(drop, kept) };
}

/** Codes of the kept rows, renumbered so categories seen only in dropped rows disappear (first-seen order stays). */
function categoricalColumn(
  c: ColumnBuilder,
  drop: Uint8Array | null,
  kept: number,
  identifier: boolean,
): CategoricalColumn {
  const src = c.codes!;
  let categories: string[];
  let remap: Int32Array | null = null;
  if (!drop) {
    // every label was seen in a kept row
    categories = c.labels.slice();
  } else {
    const used = src.used(drop, c.labels.length);
    remap = new Int32Array(c.labels.length);
    categories = [];
    c.labels.forEach((label, k) => {
      if (!used[k]) return;
      remap![k] = categories.length;
      categories.push(label);
    });
  }
  const codes = src.take(drop, kept, remap);
  return identifier
    ? { kind: 'categorical', name: c.name, codes, categories, identifier: true }
    : { kind: 'categorical', name: c.name, codes, categories };
}

/** The one value a column holds in every row, or null. */
function singleValue(col: Column): string | null {
  if (col.kind === 'categorical') return col.categories.length === 1 ? col.categories[0] : null;
  const v = col.values;
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return null;
  return v.length > 0 ? String(v[0]) : null;
}
