// Reading a file as a stream of table chunks, for data that does not fit in memory as one Table
// (metrics and FALE over ten million rows). Core code: no Node imports.
//
// Each chunk is read by its own TableBuilder (src/data/schema.ts), so a chunk's cells get exactly the
// inference, missing-value policy and errors of a whole-file read, with two rules that make the chunks
// one table:
// - the column kinds are those the first chunk inferred: later chunks read those columns as forced
//   numeric or categorical, and a text cell in a column the first chunk found numeric is an error
//   naming the line (read it with --categorical, or --numeric, to decide);
// - category codes are global: every categorical column keeps one dictionary in first-seen order
//   over the kept rows of the whole file, and a chunk's `categories` is that dictionary (it only
//   grows; the codes of earlier chunks stay valid). It differs from a whole-file read's order only
//   when a label is first seen in a row the missing-value policy drops. The dictionary is held to
//   --max-categories over the whole file, as a whole-file read holds it;
// - a column the first chunk found to be an identifier (a distinct value on nearly every row) keeps
//   chunk-local codes: a dictionary of ten million names is not kept;
// - a column the first chunk read with decimal commas is read so in every chunk.
import { EngineError, inputError } from '../engine/errors.js';
import {
  DEFAULT_MAX_CATEGORIES,
  TableBuilder,
  type BuildResult,
  type ColumnMissing,
  type MissingReport,
  type MostlyNumeric,
  type SchemaOptions,
} from './schema.js';
import type { CategoricalColumn, Column, Table } from './table.js';

/** Rows per chunk unless a reader is told otherwise: small enough for a model call, large enough to amortise it. */
export const CHUNK_ROWS = 65_536;

/** What the chunks of one file add up to: the parts of a ReadReport a whole-file read gives. */
export interface ChunkedBuild {
  rowsRead: number;
  rowsKept: number;
  chunks: number;
  missing: MissingReport;
  /** the first chunk's warnings (the kinds and identifiers were decided there) */
  warnings: string[];
  mostlyNumeric: MostlyNumeric[];
  /** the columns in the chunks, with their kinds */
  columns: { name: string; kind: Column['kind'] }[];
}

/**
 * The chunked twin of TableBuilder: rows go in through `addRow` as they do there, and every
 * `chunkRows` rows a chunk comes out (the policy applied, codes made global). `finish` returns the
 * last, partial chunk (null when there is none) and the totals.
 */
export class ChunkedTableBuilder {
  private builder: TableBuilder;
  private inChunk = 0;
  private first = true;
  private kinds = new Map<string, Column['kind']>();
  /** identifier columns (chunk-local codes) and the columns read with decimal commas, from the first chunk */
  private identifiers = new Set<string>();
  private commaColumns: string[] = [];
  /** per categorical column: the global dictionary */
  private readonly dicts = new Map<string, { index: Map<string, number>; categories: string[] }>();
  private readonly userForced: Set<string>;
  private rowsRead = 0;
  private rowsKept = 0;
  private chunks = 0;
  private missing: MissingReport | null = null;
  private warnings: string[] = [];
  private mostlyNumeric: MostlyNumeric[] = [];
  private columnsOut: { name: string; kind: Column['kind'] }[] = [];

  constructor(
    readonly file: string,
    readonly names: readonly string[],
    private readonly opts: SchemaOptions = {},
    readonly chunkRows: number = CHUNK_ROWS,
  ) {
    if (!Number.isSafeInteger(chunkRows) || chunkRows < 1)
      throw new EngineError('E_ARG', `${file}: chunk rows must be a positive integer, got ${chunkRows}`);
    this.userForced = new Set([...(opts.numeric ?? []), ...(opts.categorical ?? [])]);
    this.builder = new TableBuilder(file, names, opts);
  }

  /** Adds one data row (`line`: its line or row number in the file); returns a chunk when this row completes one. */
  addRow(fields: readonly string[], line: number): Table | null {
    try {
      this.builder.addRow(fields, line);
    } catch (e) {
      throw this.explain(e);
    }
    if (++this.inChunk < this.chunkRows) return null;
    return this.flush(false);
  }

  /** The rows since the last chunk as a chunk (null when there are none), and the totals. */
  finish(): { last: Table | null; build: ChunkedBuild } {
    const last = this.inChunk > 0 || this.first ? this.flush(true) : null;
    return {
      last,
      build: {
        rowsRead: this.rowsRead,
        rowsKept: this.rowsKept,
        chunks: this.chunks,
        missing: this.missing!,
        warnings: this.warnings,
        mostlyNumeric: this.mostlyNumeric,
        columns: this.columnsOut,
      },
    };
  }

  /** A later chunk's "--numeric names this column" for a column the first chunk found numeric says why. */
  private explain(e: unknown): unknown {
    const tail = ', but --numeric names this column';
    if (!(e instanceof EngineError) || this.first || !e.message.endsWith(tail)) return e;
    const name = [...this.kinds.keys()].find((n) => e.message.includes(`, column ${JSON.stringify(n)}: `));
    if (name === undefined || this.userForced.has(name)) return e;
    return inputError(
      `${e.message.slice(0, -tail.length)}, but the first ${this.chunkRows.toLocaleString('en-US')} rows made the ` +
        `column numeric (a file read in chunks keeps the first chunk's kinds); give --categorical ${name} to ` +
        `read it as categories`,
    );
  }

  private flush(final: boolean): Table | null {
    let built: BuildResult | null = null;
    if (this.inChunk > 0) {
      try {
        built = this.builder.finish();
      } catch (e) {
        // a chunk whose every row the policy drops is no chunk; a file with no row left is an error (below)
        if (!(e instanceof EngineError && /no rows left/.test(e.message))) throw e;
        built = null;
        this.rowsRead += this.inChunk;
        this.addDropped(this.inChunk);
      }
    }
    const rows = this.inChunk;
    this.inChunk = 0;
    if (built) {
      this.rowsRead += built.rowsRead;
      this.rowsKept += built.table.rows;
      this.mergeMissing(built.missing);
      if (this.first) this.decideKinds(built);
    }
    if (!final) this.builder = new TableBuilder(this.file, this.names, this.forcedOptions());
    if (!built) {
      if (final && this.rowsKept === 0) {
        throw inputError(
          `${this.file}: no rows left: the missing-value policy "${this.opts.missing ?? 'keep'}" drops all ` +
            `${this.rowsRead} data rows; use --missing keep, or --drop the emptiest columns`,
        );
      }
      return null;
    }
    void rows;
    this.chunks++;
    return { rows: built.table.rows, columns: built.table.columns.map((c) => this.globalise(c)) };
  }

  /** A chunk the policy emptied: its rows count as dropped. */
  private addDropped(n: number): void {
    if (this.missing) this.missing.rowsDropped += n;
  }

  private decideKinds(built: BuildResult): void {
    this.first = false;
    for (const c of built.table.columns) {
      this.columnsOut.push({ name: c.name, kind: c.kind });
      if (c.kind === 'categorical' && c.identifier) {
        this.identifiers.add(c.name);
        continue;
      }
      this.kinds.set(c.name, c.kind);
      if (c.kind === 'categorical') this.dicts.set(c.name, { index: new Map(), categories: [] });
    }
    this.commaColumns = built.commaColumns ?? [];
    this.warnings = built.warnings;
    this.mostlyNumeric = built.mostlyNumeric;
  }

  /**
   * Later chunks: every kept column but an identifier forced to the kind the first chunk gave it, with its decimal
   * mark.
   */
  private forcedOptions(): SchemaOptions {
    if (this.first) return this.opts;
    const numeric: string[] = [];
    const categorical: string[] = [];
    for (const [name, kind] of this.kinds) (kind === 'numeric' ? numeric : categorical).push(name);
    const decimalOf: Record<string, '.' | ','> = {};
    if (this.opts.decimal === 'auto') for (const n of numeric) decimalOf[n] = this.commaColumns.includes(n) ? ',' : '.';
    return { ...this.opts, numeric, categorical, decimalOf };
  }

  private globalise(c: Column): Column {
    if (c.kind === 'numeric' || this.identifiers.has(c.name)) return c;
    const d = this.dicts.get(c.name)!;
    const max = this.opts.maxCategories ?? DEFAULT_MAX_CATEGORIES;
    const remap = new Int32Array(c.categories.length);
    c.categories.forEach((label, k) => {
      let g = d.index.get(label);
      if (g === undefined) {
        g = d.categories.length;
        if (g === max)
          throw inputError(
            `${this.file}: column ${JSON.stringify(c.name)} has more than ${max} distinct values (the ${max + 1}th, ` +
              `${JSON.stringify(label)}, after the first ${this.rowsRead.toLocaleString('en-US')} rows); too ` +
              `many for a category: --drop it, or raise --max-categories`,
          );
        d.index.set(label, g);
        d.categories.push(label);
      }
      remap[k] = g;
    });
    const codes = c.codes;
    for (let i = 0; i < codes.length; i++) codes[i] = remap[codes[i]];
    const out: CategoricalColumn = { kind: 'categorical', name: c.name, codes, categories: d.categories };
    if (c.identifier) out.identifier = true;
    return out;
  }

  private mergeMissing(m: MissingReport): void {
    if (!this.missing) {
      this.missing = {
        ...m,
        firstDroppedLines: m.firstDroppedLines.slice(),
        columns: m.columns.map((c) => ({ ...c, keptAs: c.keptAs.slice() })),
      };
      return;
    }
    const t = this.missing;
    t.cells += m.cells;
    t.rowsDropped += m.rowsDropped;
    for (const l of m.firstDroppedLines) if (t.firstDroppedLines.length < 10) t.firstDroppedLines.push(l);
    for (const c of m.columns) {
      const have = t.columns.find((x) => x.name === c.name);
      if (!have) {
        t.columns.push({ ...c, keptAs: c.keptAs.slice() } as ColumnMissing);
        // in the file's column order, as a whole-file read lists them
        t.columns.sort((a, b) => this.names.indexOf(a.name) - this.names.indexOf(b.name));
        continue;
      }
      have.cells += c.cells;
      have.rowsDropped += c.rowsDropped;
      for (const k of c.keptAs) if (!have.keptAs.includes(k)) have.keptAs.push(k);
    }
  }
}

/**
 * Appends chunks' columns into one compact Table: typed arrays sized once from an upper bound of the rows, grown by
 * half when it is short.
 */
export class TableAppender {
  private n = 0;
  private cap: number;
  private readonly cols = new Map<
    string,
    | { kind: 'numeric'; values: Float64Array }
    | { kind: 'categorical'; codes: Int32Array; categories: string[]; identifier?: boolean }
  >();

  constructor(
    readonly names: readonly string[],
    rowsHint: number,
  ) {
    this.cap = Math.max(1, rowsHint);
  }

  add(chunk: Table): void {
    const need = this.n + chunk.rows;
    if (need > this.cap) this.grow(Math.max(need, Math.ceil(this.cap * 1.5)));
    for (const name of this.names) {
      const c = chunk.columns.find((x) => x.name === name);
      if (!c) throw new EngineError('E_ARG', `TableAppender: the chunk has no column "${name}"`);
      let have = this.cols.get(name);
      if (!have) {
        have =
          c.kind === 'numeric'
            ? { kind: 'numeric', values: new Float64Array(this.cap) }
            : { kind: 'categorical', codes: new Int32Array(this.cap), categories: c.categories };
        this.cols.set(name, have);
      }
      if (have.kind === 'numeric' && c.kind === 'numeric') have.values.set(c.values, this.n);
      else if (have.kind === 'categorical' && c.kind === 'categorical') {
        if (c.identifier && have.categories !== c.categories)
          throw new EngineError(
            'E_INPUT',
            `column "${name}" looks like an identifier (a distinct value on nearly every row): read in chunks, its ` +
              `codes are per chunk, so it cannot be one of the columns read whole; --drop it`,
          );
        have.codes.set(c.codes, this.n);
        have.categories = c.categories;
        if (c.identifier) have.identifier = true;
      } else throw new EngineError('E_ARG', `TableAppender: column "${name}" changed kind between chunks`);
    }
    this.n = need;
  }

  private grow(cap: number): void {
    for (const c of this.cols.values()) {
      if (c.kind === 'numeric') {
        const v = new Float64Array(cap);
        v.set(c.values.subarray(0, this.n));
        c.values = v;
      } else {
        const v = new Int32Array(cap);
        v.set(c.codes.subarray(0, this.n));
        c.codes = v;
      }
    }
    this.cap = cap;
  }

  /** The rows appended so far, as one Table (views of the arrays: no copy). */
  table(): Table {
    const columns: Column[] = this.names.map((name) => {
      const c = this.cols.get(name);
      if (!c) return { kind: 'numeric', name, values: new Float64Array(0) };
      if (c.kind === 'numeric') return { kind: 'numeric', name, values: c.values.subarray(0, this.n) };
      const out: CategoricalColumn = {
        kind: 'categorical',
        name,
        codes: c.codes.subarray(0, this.n),
        categories: c.categories,
      };
      if (c.identifier) out.identifier = true;
      return out;
    });
    return { rows: this.n, columns };
  }
}
