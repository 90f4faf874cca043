// Training-by-sampling (CTGAN, Xu et al. 2019 §4.3; LUCID-GAN §3.3) with the offsets done right.
//
// The conditional vector is one one-hot group per discrete column, in the transformer's column
// order; group j starts at condOffset[j] in the cond vector and its category span starts at
// dataOffset[j] in the transformed data. A training cond vector picks a discrete column uniformly,
// then a category with probability ∝ log(count + 1), and sets that one entry; the real rows of the
// step are drawn uniformly among the rows holding that category.
//
// Every draw takes host uniforms from the caller (which get them from the model's one Rng).
import { check, EngineError } from '../../engine/errors.js';
import { log as fdlog } from '../../engine/fdlibm.js';

export interface DiscreteColumn {
  name: string;
  categories: string[];
  /** per training row, the index into `categories` */
  codes: Int32Array;
  /** where the column's one-hot span starts in a transformed row */
  dataOffset: number;
}

export interface CondDraw {
  /** (n, condDim) row-major */
  cond: Float32Array;
  /** per row, the discrete column picked (index into the sampler's columns) */
  column: Int32Array;
  /** per row, the category picked within that column */
  category: Int32Array;
}

export class CondSampler {
  readonly columns: readonly DiscreteColumn[];
  /** where each discrete column's group starts in the cond vector */
  readonly condOffset: Int32Array;
  readonly condDim: number;
  readonly rows: number;
  /** per column, per category: the training rows holding it */
  private readonly rowsOf: Int32Array[][];
  /** per column, the cumulative log-frequency distribution over its categories */
  private readonly logCdf: Float64Array[];
  /** per column, per category: training count */
  readonly counts: Int32Array[];

  constructor(columns: readonly DiscreteColumn[], rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.condOffset = new Int32Array(columns.length);
    let at = 0;
    columns.forEach((c, j) => {
      this.condOffset[j] = at;
      at += c.categories.length;
      check(
        c.codes.length === rows,
        'E_SHAPE',
        () => `sampler: column "${c.name}" has ${c.codes.length} codes for ${rows} rows`,
      );
    });
    this.condDim = at;
    this.counts = columns.map((c) => {
      const k = new Int32Array(c.categories.length);
      for (let i = 0; i < rows; i++) k[c.codes[i]]++;
      return k;
    });
    this.rowsOf = columns.map((c, j) => {
      const lists = Array.from(this.counts[j], (n) => new Int32Array(n));
      const fill = new Int32Array(c.categories.length);
      for (let i = 0; i < rows; i++) lists[c.codes[i]][fill[c.codes[i]]++] = i;
      return lists;
    });
    this.logCdf = this.counts.map((k) => {
      const cdf = new Float64Array(k.length);
      let total = 0;
      for (let i = 0; i < k.length; i++) cdf[i] = total += fdlog(k[i] + 1);
      for (let i = 0; i < k.length; i++) cdf[i] /= total;
      return cdf;
    });
  }

  get discreteCount(): number {
    return this.columns.length;
  }

  /** The log-frequency probability of each category of column j (for tests and reports). */
  logFrequency(j: number): Float64Array {
    const cdf = this.logCdf[j];
    return cdf.map((v, i) => v - (i === 0 ? 0 : cdf[i - 1]));
  }

  /** Training cond vectors: 2 uniforms per row (column, then category). Requires ≥ 1 discrete column. */
  sampleTraining(n: number, u: Float64Array): CondDraw {
    check(
      this.columns.length > 0 && u.length >= 2 * n,
      'E_ARG',
      () => 'sampler: no discrete columns, or too few uniforms',
    );
    const cond = new Float32Array(n * this.condDim);
    const column = new Int32Array(n);
    const category = new Int32Array(n);
    const m = this.columns.length;
    for (let i = 0; i < n; i++) {
      const j = Math.min(m - 1, Math.floor(u[2 * i] * m));
      const cdf = this.logCdf[j];
      const r = u[2 * i + 1];
      let k = 0;
      while (k < cdf.length - 1 && r >= cdf[k]) k++;
      column[i] = j;
      category[i] = k;
      cond[i * this.condDim + this.condOffset[j] + k] = 1;
    }
    return { cond, column, category };
  }

  /** One training row per (column, category) pair, uniformly among the rows holding it: 1 uniform per row. */
  sampleRows(column: Int32Array, category: Int32Array, u: Float64Array): Int32Array {
    const out = new Int32Array(column.length);
    for (let i = 0; i < column.length; i++) {
      const list = this.rowsOf[column[i]][category[i]];
      out[i] = list[Math.min(list.length - 1, Math.floor(u[i] * list.length))];
    }
    return out;
  }

  /** Rows drawn uniformly from all training rows: 1 uniform per row. */
  sampleAnyRows(n: number, u: Float64Array): Int32Array {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.min(this.rows - 1, Math.floor(u[i] * this.rows));
    return out;
  }

  /**
   * True-frequency cond vectors (upstream draws from the log-frequency table flattened across
   * all columns instead): a random training row, a random discrete
   * column, the one-hot of that row's category. 2 uniforms per row; also returns the rows picked.
   */
  sampleEmpirical(n: number, u: Float64Array): CondDraw & { row: Int32Array } {
    const row = new Int32Array(n);
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      row[i] = Math.min(this.rows - 1, Math.floor(u[2 * i] * this.rows));
      v[i] = u[2 * i + 1];
    }
    return { ...this.condOfRows(row, v), row };
  }

  /**
   * Cond vectors of given training rows, as training builds them: per row a random discrete column
   * (1 uniform each) and the one-hot of that row's category in it (all zeros without discrete columns).
   */
  condOfRows(row: ArrayLike<number>, u: ArrayLike<number>): CondDraw {
    const n = row.length;
    const cond = new Float32Array(n * this.condDim);
    const column = new Int32Array(n);
    const category = new Int32Array(n);
    const m = this.columns.length;
    for (let i = 0; i < n; i++) {
      if (m === 0) continue;
      const j = Math.min(m - 1, Math.floor(u[i] * m));
      const k = this.columns[j].codes[row[i]];
      column[i] = j;
      category[i] = k;
      cond[i * this.condDim + this.condOffset[j] + k] = 1;
    }
    return { cond, column, category };
  }

  /**
   * Resolves `fix` (column → label) to (column index, category index) pairs. Unknown columns or
   * labels, and a column given twice, are E_ARG errors that list what exists.
   */
  resolveFix(fix: readonly (readonly [string, string])[]): { column: number; category: number }[] {
    const seen = new Set<number>();
    return fix.map(([name, value]) => {
      const j = this.columns.findIndex((c) => c.name === name);
      if (j < 0) {
        const names = this.columns.map((c) => c.name);
        throw new EngineError(
          'E_ARG',
          `fix: "${name}" is not a discrete column of this model; ${
            names.length ? `the discrete columns are: ${names.join(', ')}` : 'the model has no discrete columns'
          }`,
        );
      }
      check(!seen.has(j), 'E_ARG', () => `fix: column "${name}" is fixed twice`);
      seen.add(j);
      const k = this.columns[j].categories.indexOf(value);
      check(
        k >= 0,
        'E_ARG',
        () =>
          `fix: "${value}" is not a category of "${name}"; its categories are: ` +
          `${this.columns[j].categories.join(', ')}`,
      );
      return { column: j, category: k };
    });
  }

  /** The one cond vector with every fixed entry set (the intersectional mode). */
  fixedCond(fix: readonly { column: number; category: number }[]): Float32Array {
    const cond = new Float32Array(this.condDim);
    for (const f of fix) cond[this.condOffset[f.column] + f.category] = 1;
    return cond;
  }

  /** Training rows holding every fixed value. */
  matchingRows(fix: readonly { column: number; category: number }[]): Int32Array {
    // plain loops over the fixed columns' codes (no closure per row): drawCanonical and every
    // sample() round with a fix call this over all training rows
    const codes = fix.map((f) => this.columns[f.column].codes);
    const cats = fix.map((f) => f.category);
    const keep = new Uint8Array(this.rows);
    let count = 0;
    for (let i = 0; i < this.rows; i++) {
      let ok = 1;
      for (let j = 0; j < codes.length; j++) {
        if (codes[j][i] !== cats[j]) {
          ok = 0;
          break;
        }
      }
      keep[i] = ok;
      count += ok;
    }
    const out = new Int32Array(count);
    for (let i = 0, at = 0; i < this.rows; i++) if (keep[i]) out[at++] = i;
    return out;
  }
}
