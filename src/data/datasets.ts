// The reference preprocessing of the UCI Adult and ProPublica COMPAS data, applied to tables that
// have already been read (src/node/datasets.ts reads the files). Core code: no Node imports, so a
// browser or worker that fetched the files can run the same steps.
//
// It reproduces canonical_sets (the LUCID / LUCID-GAN reference, see the spec's §2.1):
//   Adult   the 15 UCI columns by position; rows with a missing cell ('?') dropped from each file
//           separately (30162 train, 15060 test); the '.' stripped from the test labels; labels
//           '<=50K' / '>50K'; all 14 features kept (Education and Education-Num, fnlwgt).
//   COMPAS  the ProPublica filter (days_b_screening_arrest in [−30, 30], is_recid ≠ −1,
//           c_charge_degree ≠ "O", score_text ≠ "N/A"), 6172 rows; the five default features
//           c_charge_degree, race, age_cat, sex, priors_count; label two_year_recid.
//   Splits  the exact reference row positions from split_indices.json, or recomputed (reference-split.ts).
//
// Category dictionaries are sorted (JS code-unit order, which equals Python's for these ASCII
// labels) and shared by every split of a data set, because the reference one-hot encodes the
// concatenation of its splits with pandas get_dummies, which sorts: the dummy order and the width
// (Country has 41 values although the test file has only 40) then match the reference.
//
// What it does not do: scaling, one-hot encoding or grouping; those belong to the transformer.
import { check } from '../engine/errors.js';
import { REFERENCE_SPLIT, trainTestSplit } from './reference-split.js';
import { type CategoricalColumn, type Column, type NumericColumn, selectRows, type Table } from './table.js';
import { byCodeUnit } from './text.js';

// ── Adult ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Column names. 'reference' keeps canonical_sets' names, typo "Martial Status" included, so that
 * one-hot names ("Martial Status+Married-civ-spouse") and condition columns written against the
 * reference and the LUCID-GAN figures work unchanged; it is the default. 'uci' uses the names of
 * the UCI documentation (adult.names). The label is called "Income" / "income" (the reference
 * never names it in its output: it one-hot encodes it as the columns "<=50K" and ">50K").
 */
export type AdultNaming = 'reference' | 'uci';

export interface AdultColumnSpec {
  uci: string;
  reference: string;
  kind: 'numeric' | 'categorical';
}

/** The 15 columns of adult.data / adult.test, in file order; the last is the label. */
export const ADULT_COLUMNS: readonly AdultColumnSpec[] = [
  { uci: 'age', reference: 'Age', kind: 'numeric' },
  { uci: 'workclass', reference: 'Workclass', kind: 'categorical' },
  { uci: 'fnlwgt', reference: 'fnlwgt', kind: 'numeric' },
  { uci: 'education', reference: 'Education', kind: 'categorical' },
  { uci: 'education-num', reference: 'Education-Num', kind: 'numeric' },
  { uci: 'marital-status', reference: 'Martial Status', kind: 'categorical' },
  { uci: 'occupation', reference: 'Occupation', kind: 'categorical' },
  { uci: 'relationship', reference: 'Relationship', kind: 'categorical' },
  { uci: 'race', reference: 'Race', kind: 'categorical' },
  { uci: 'sex', reference: 'Sex', kind: 'categorical' },
  { uci: 'capital-gain', reference: 'Capital Gain', kind: 'numeric' },
  { uci: 'capital-loss', reference: 'Capital Loss', kind: 'numeric' },
  { uci: 'hours-per-week', reference: 'Hours per week', kind: 'numeric' },
  { uci: 'native-country', reference: 'Country', kind: 'categorical' },
  { uci: 'income', reference: 'Income', kind: 'categorical' },
];

export const ADULT_LABELS = ['<=50K', '>50K'];

/** Feature names, label name and protected features (those the LUCID-GAN paper audits) for a naming. */
export function adultNames(naming: AdultNaming = 'reference'): {
  features: string[];
  label: string;
  protected: string[];
} {
  check(
    naming === 'reference' || naming === 'uci',
    'E_ARG',
    () => `adult: naming must be 'reference' or 'uci', got ${String(naming)}`,
  );
  const names = ADULT_COLUMNS.map((c) => c[naming]);
  const byUci = (u: string) => ADULT_COLUMNS.find((c) => c.uci === u)![naming];
  return {
    features: names.slice(0, 14),
    label: names[14],
    protected: ['race', 'sex', 'marital-status', 'relationship'].map(byUci),
  };
}

// ── Adult's derived targets ──────────────────────────────────────────────────────────────────────

export type AdultTarget = 'income' | 'hours' | 'hours3';

/** The hours3 classes, fewest hours first: part-time under 35 hours a week, full-time 35 to 45, long over 45. */
export const HOURS_CLASSES = [
  { name: 'part-time', below: 35 },
  { name: 'full-time', below: 46 },
  { name: 'long', below: Infinity },
] as const;

/**
 * The one table of Adult's targets (`lucid dataset export adult --target`): the label column per naming and how an
 * audit reads it. Every target but income takes Hours per week out of the features and writes its label last; the
 * Income column then stays, as a feature (`--drop Income` leaves it out of a model).
 */
export const ADULT_TARGETS = {
  income: {
    help: "the reference's label, Income <=50K / >50K (a binary audit)",
    label: { reference: 'Income', uci: 'income' },
    audit: "--positive '>50K' --favourable positive",
  },
  hours: {
    help: 'Hours per week as a number (a regression audit); the column leaves the features',
    label: { reference: 'Hours per week', uci: 'hours-per-week' },
    audit: '--output regression --favourable higher',
  },
  hours3: {
    help:
      'part-time (under 35 hours a week), full-time (35 to 45) or long (over 45), from Hours per week (a multiclass ' +
      'audit); Hours per week leaves the features',
    label: { reference: 'Hours class', uci: 'hours-class' },
    audit: `--output multiclass --class-order ${[...HOURS_CLASSES]
      .reverse()
      .map((c) => c.name)
      .join(',')}`,
  },
} as const satisfies Record<AdultTarget, { help: string; label: Record<AdultNaming, string>; audit: string }>;
export const ADULT_TARGET_NAMES = Object.keys(ADULT_TARGETS) as AdultTarget[];

/**
 * An Adult table (any split, either naming) with `target` as its label: income returns it as it is; hours moves
 * Hours per week to the end as the label; hours3 replaces it with its class (HOURS_CLASSES) at the end. The Income
 * column stays in its place, a feature now.
 */
export function adultTargetTable(table: Table, target: AdultTarget, naming: AdultNaming = 'reference'): Table {
  check(
    ADULT_TARGET_NAMES.includes(target),
    'E_ARG',
    () => `adult: target must be one of ${ADULT_TARGET_NAMES.join(', ')}, got ${String(target)}`,
  );
  if (target === 'income') return table;
  const hoursName = ADULT_TARGETS.hours.label[naming];
  const hours = table.columns.find((c) => c.name === hoursName);
  check(
    hours !== undefined && hours.kind === 'numeric',
    'E_INPUT',
    () => `adult: the target ${target} needs the numeric column "${hoursName}" (naming ${naming})`,
  );
  const rest = table.columns.filter((c) => c !== hours);
  if (target === 'hours') return { rows: table.rows, columns: [...rest, hours] };
  const bad = hours.values.findIndex(Number.isNaN);
  check(bad < 0, 'E_INPUT', () => `adult: "${hoursName}" is missing in row ${bad + 1}; the target ${target} needs it`);
  const dictionary = HOURS_CLASSES.map((c) => c.name as string).sort(byCodeUnit);
  const labels = Array.from(hours.values, (h) => HOURS_CLASSES.find((c) => h < c.below)!.name as string);
  return { rows: table.rows, columns: [...rest, encode(ADULT_TARGETS.hours3.label[naming], labels, dictionary)] };
}

// ── COMPAS ───────────────────────────────────────────────────────────────────────────────────────

export const COMPAS_FEATURES = ['c_charge_degree', 'race', 'age_cat', 'sex', 'priors_count'];
export const COMPAS_LABEL = 'two_year_recid';
export const COMPAS_PROTECTED = ['race', 'sex'];
const COMPAS_NUMERIC = new Set(['priors_count']);
/**
 * Columns kept beside the label but never among the default features: ProPublica's decile_score (1–10, the COMPAS
 * recidivism risk decile; the file names it twice and the first is kept, as pandas does), to audit it as a score.
 */
export const COMPAS_EXTRA = ['decile_score'];
/** Every column the preprocessing reads (the filter's, the defaults' and the extras); a reader may drop the rest. */
export const COMPAS_COLUMNS_READ = [
  'id',
  'days_b_screening_arrest',
  'is_recid',
  'c_charge_degree',
  'score_text',
  ...COMPAS_FEATURES,
  COMPAS_LABEL,
  ...COMPAS_EXTRA,
];

// ── Results ──────────────────────────────────────────────────────────────────────────────────────

export type SplitName = 'train' | 'val' | 'test';

export interface Dataset {
  name: 'adult' | 'compas';
  /** feature columns, in the reference's order (every split table has these, then the label) */
  features: string[];
  /** the label column: categorical, Adult {<=50K, >50K}, COMPAS {0, 1} */
  label: string;
  /** the preferred label value: '>50K' for Adult, '0' (no recidivism) for COMPAS (the papers' positive class) */
  favourable: string;
  /**
   * How an audit reads the label: the positive class and whether it is the favourable outcome. Adult:
   * '>50K', positive. COMPAS: '1' (reoffended within two years, what a risk score predicts), negative:
   * a high-risk prediction is the unfavourable outcome.
   */
  audit: { positive: string; favourable: 'positive' | 'negative' };
  /** the protected features the LUCID-GAN paper audits */
  protected: string[];
  /** the reference splits; every table shares the same category dictionaries */
  splits: Record<SplitName, Table>;
  /** the table the split positions index into: Adult's dropna'd train file, COMPAS's filtered rows */
  source: Table;
  /** where the reference splits came from: split_indices.json, or recomputed when that file is absent */
  split: SplitProvenance;
  /**
   * columns that are neither features nor the label, row-aligned with `source` and each split (COMPAS: decile_score,
   * when the file has it); absent when there are none. Kept apart so that no model trains on them by default.
   */
  extra?: { source: Table; splits: Record<SplitName, Table> };
}

/**
 * Where a data set's splits came from, for messages, the report and audit.json: split_indices.json;
 * recomputed on the reference's rows (the same positions); or, on files whose rows are not the
 * reference's, the same draw in the reference's proportions, which is not the reference's split.
 */
export type SplitProvenance =
  | { kind: 'file'; file: string }
  | { kind: 'recomputed'; seed: number }
  | { kind: 'seeded'; seed: number; why: string };

/** The split's name as a summary or report states it. */
export function splitText(s: SplitProvenance): string {
  if (s.kind === 'file') return `the reference split (${s.file})`;
  if (s.kind === 'recomputed')
    return (
      `the reference split, recomputed (split_indices.json absent: train_test_split with seed ${s.seed}, as the ` +
      `reference)`
    );
  return `a seeded split in the reference's proportions (seed ${s.seed}), not the reference's: ${s.why}`;
}

/**
 * What the reference's files give after its preprocessing, to know that a recomputed split is the
 * reference's: Adult's rows after dropping '?', COMPAS's filtered rows (their ids' count and sum).
 */
export const REFERENCE_ROWS = { adultTrain: 30162, adultTest: 15060, compas: { n: 6172, idSum: 34003152 } } as const;

/** Why prepared Adult rows are not the reference's (a recomputed split would not be its split), or null. */
export function adultNotReference(p: PreparedAdult, where: string): string | null {
  const r = REFERENCE_ROWS;
  return p.train.rows === r.adultTrain && p.test.rows === r.adultTest
    ? null
    : `${where} gives ${p.train.rows} training and ${p.test.rows} test rows after dropping '?', the UCI files ` +
        `${r.adultTrain} and ${r.adultTest}`;
}

/** Why filtered COMPAS rows are not the reference's (by their ids' count and sum), or null. */
export function compasNotReference(p: PreparedCompas, where: string): string | null {
  const r = REFERENCE_ROWS.compas;
  let sum = 0;
  for (const id of p.ids) sum += id;
  return p.ids.length === r.n && sum === r.idSum
    ? null
    : `${where} keeps ${p.ids.length} rows after the ProPublica ` +
        `filter${p.ids.length === r.n ? ", not the reference's (their ids differ)" : `, the reference ${r.n}`}`;
}

/**
 * Adult's reference split recomputed: val = 20% of the training file's rows after dropping '?'
 * (data/reference-split.ts).
 */
export function recomputedAdultSplit(nTrain: number): SplitIndices['adult'] {
  const [train, val] = trainTestSplit(
    Array.from({ length: nTrain }, (_, i) => i),
    REFERENCE_SPLIT.val,
    REFERENCE_SPLIT.seed,
  );
  return { nTrain, train, val };
}

/** COMPAS's reference split recomputed over the filtered rows: test 20%, then val 20% of the rest. */
export function recomputedCompasSplit(ids: ArrayLike<number>): SplitIndices['compas'] {
  const n = ids.length;
  const [rest, test] = trainTestSplit(
    Array.from({ length: n }, (_, i) => i),
    REFERENCE_SPLIT.test,
    REFERENCE_SPLIT.seed,
  );
  const [train, val] = trainTestSplit(rest, REFERENCE_SPLIT.val, REFERENCE_SPLIT.seed);
  return { n, ids: Array.from(ids), train, val, test };
}

// ── Column conversion ────────────────────────────────────────────────────────────────────────────

/**
 * Cell labels a raw column holds, trimmed, with null for a missing cell. The UCI files separate
 * fields with ", ", so a reader that does not trim leaves a leading space; '?' is the UCI missing
 * marker and '' an empty field, whether or not the reader already recognised them.
 */
function rawLabels(col: Column): (string | null)[] {
  const out = new Array<string | null>(col.kind === 'numeric' ? col.values.length : col.codes.length);
  if (col.kind === 'numeric') {
    for (let i = 0; i < out.length; i++) out[i] = Number.isNaN(col.values[i]) ? null : String(col.values[i]);
    return out;
  }
  const labels = col.categories.map((c) => {
    const t = c.trim();
    return t === '' || t === '?' ? null : t;
  });
  for (let i = 0; i < out.length; i++) out[i] = col.codes[i] < 0 ? null : labels[col.codes[i]];
  return out;
}

/** Numeric values of a raw column (NaN = missing), parsing labels when the reader kept it categorical. */
function rawNumbers(col: Column, where: string): Float64Array {
  if (col.kind === 'numeric') return col.values;
  const labels = rawLabels(col);
  const out = new Float64Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const s = labels[i];
    if (s === null) {
      out[i] = NaN;
      continue;
    }
    const v = Number(s);
    check(
      Number.isFinite(v),
      'E_INPUT',
      () => `${where}: column "${col.name}", row ${i + 1} of the table read: "${s}" is not a number`,
    );
    out[i] = v;
  }
  return out;
}

/** A categorical column over a sorted dictionary, from per-row labels (no missing left). */
function encode(name: string, labels: readonly string[], dictionary: readonly string[]): CategoricalColumn {
  const index = new Map(dictionary.map((c, k) => [c, k]));
  const codes = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) codes[i] = index.get(labels[i])!;
  return { kind: 'categorical', name, codes, categories: dictionary.slice() };
}

/** The sorted union of the labels seen in several label arrays. */
function sortedDictionary(...parts: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>();
  for (const p of parts) for (const s of p) seen.add(s);
  return [...seen].sort(byCodeUnit);
}

// ── Adult preprocessing ──────────────────────────────────────────────────────────────────────────

interface AdultPart {
  numbers: Map<number, Float64Array>;
  labels: Map<number, string[]>;
  rows: number;
  dropped: number;
}

/** One Adult file: positional columns, missing rows dropped, labels checked. */
function adultPart(raw: Table, where: string): AdultPart {
  check(
    raw.columns.length === ADULT_COLUMNS.length,
    'E_INPUT',
    () =>
      `${where}: expected ${ADULT_COLUMNS.length} columns (14 features and the income label, in UCI order: ` +
      `${ADULT_COLUMNS.map((c) => c.uci).join(', ')}), found ${raw.columns.length}` +
      (raw.columns.length === 1 ? '; is the file comma-separated?' : ''),
  );
  const numbers = new Map<number, Float64Array>();
  const labels = new Map<number, (string | null)[]>();
  ADULT_COLUMNS.forEach((spec, j) => {
    if (spec.kind === 'numeric') numbers.set(j, rawNumbers(raw.columns[j], where));
    else labels.set(j, rawLabels(raw.columns[j]));
  });
  // dropna over all 15 columns, as the reference does on each file
  const keep: number[] = [];
  for (let i = 0; i < raw.rows; i++) {
    let ok = true;
    for (const v of numbers.values()) ok &&= !Number.isNaN(v[i]);
    for (const v of labels.values()) ok &&= v[i] !== null;
    if (ok) keep.push(i);
  }
  const part: AdultPart = { numbers: new Map(), labels: new Map(), rows: keep.length, dropped: raw.rows - keep.length };
  for (const [j, v] of numbers)
    part.numbers.set(
      j,
      Float64Array.from(keep, (i) => v[i]),
    );
  for (const [j, v] of labels)
    part.labels.set(
      j,
      keep.map((i) => v[i]!),
    );
  // labels: the test file writes '>50K.'; strip the '.' (the train file has none, so stripping both is the same)
  const lab = part.labels.get(ADULT_COLUMNS.length - 1)!;
  for (let r = 0; r < lab.length; r++) {
    const l = lab[r].endsWith('.') ? lab[r].slice(0, -1) : lab[r];
    check(
      ADULT_LABELS.includes(l),
      'E_INPUT',
      () => `${where}: the income label "${lab[r]}" is neither <=50K nor >50K (a trailing '.' is allowed)`,
    );
    lab[r] = l;
  }
  return part;
}

export interface PreparedAdult {
  /** adult.data after dropna: 30162 rows on the UCI file */
  train: Table;
  /** adult.test after dropna: 15060 rows on the UCI file */
  test: Table;
  /** rows removed for a missing cell in each file */
  dropped: { train: number; test: number };
}

/**
 * The reference preprocessing of adult.data and adult.test, given as raw tables whose 15 columns are
 * in UCI file order (names are ignored: files with and without a header line name them differently).
 * `where` names the files in error messages.
 */
export function prepareAdult(
  raw: { train: Table; test: Table },
  opts: { naming?: AdultNaming; where?: { train: string; test: string } } = {},
): PreparedAdult {
  const naming = opts.naming ?? 'reference';
  adultNames(naming); // validates naming
  const where = opts.where ?? { train: 'adult.data', test: 'adult.test' };
  const tr = adultPart(raw.train, where.train);
  const te = adultPart(raw.test, where.test);
  const build = (p: AdultPart): Table => ({
    rows: p.rows,
    columns: ADULT_COLUMNS.map((spec, j): Column => {
      const name = spec[naming];
      if (spec.kind === 'numeric') return { kind: 'numeric', name, values: p.numbers.get(j)! } satisfies NumericColumn;
      return encode(name, p.labels.get(j)!, sortedDictionary(tr.labels.get(j)!, te.labels.get(j)!));
    }),
  });
  return { train: build(tr), test: build(te), dropped: { train: tr.dropped, test: te.dropped } };
}

// ── COMPAS preprocessing ─────────────────────────────────────────────────────────────────────────

export interface PreparedCompas {
  /** the filtered rows (6172 on the ProPublica file): the five features, then two_year_recid */
  table: Table;
  /** the `id` of each kept row, to compare with the reference's ids_of_filtered_rows */
  ids: Int32Array;
  /** rows before filtering (the reader's count when given, else the raw table's) */
  rawRows: number;
  /** the COMPAS_EXTRA columns the raw table has, for the filtered rows (numeric); none when it has none */
  extra: Table;
}

/**
 * The ProPublica filter and the default COMPAS columns. The raw table is compas-scores-two-years.csv
 * with its header names; where a name occurs twice (priors_count, decile_score), the first column
 * is used, like pandas.
 */
export function prepareCompas(raw: Table, opts: { where?: string; rawRows?: number } = {}): PreparedCompas {
  const where = opts.where ?? 'compas-scores-two-years.csv';
  const col = (name: string): Column => {
    const c = raw.columns.find((x) => x.name.trim() === name);
    check(
      c,
      'E_INPUT',
      () =>
        `${where}: no column "${name}" (needed by the ProPublica filter or the default features); the file has: ` +
        `${raw.columns.map((x) => x.name).join(', ')}`,
    );
    return c;
  };
  const days = rawNumbers(col('days_b_screening_arrest'), where);
  const isRecid = rawNumbers(col('is_recid'), where);
  const degree = rawLabels(col('c_charge_degree'));
  const scoreText = rawLabels(col('score_text'));
  const id = rawNumbers(col('id'), where);
  // pandas semantics: a comparison with a missing value is false, so a missing
  // days_b_screening_arrest drops the row while a missing is_recid or score_text does not.
  const keep: number[] = [];
  for (let i = 0; i < raw.rows; i++) {
    if (days[i] >= -30 && days[i] <= 30 && isRecid[i] !== -1 && degree[i] !== 'O' && scoreText[i] !== 'N/A')
      keep.push(i);
  }
  const missing = (name: string, bad: number) => () =>
    `${where}: column "${name}" is missing in the row with id ${id[keep[bad]]}, which the ProPublica filter keeps`;
  const keptNumbers = (name: string): Column => {
    const v = rawNumbers(col(name), where);
    const values = Float64Array.from(keep, (i) => v[i]);
    const bad = values.findIndex(Number.isNaN);
    check(bad < 0, 'E_INPUT', missing(name, bad));
    return { kind: 'numeric', name, values };
  };
  const columns: Column[] = [...COMPAS_FEATURES, COMPAS_LABEL].map((name): Column => {
    if (COMPAS_NUMERIC.has(name)) return keptNumbers(name);
    const all = rawLabels(col(name));
    const labels = keep.map((i) => all[i]);
    const bad = labels.indexOf(null);
    check(bad < 0, 'E_INPUT', missing(name, bad));
    return encode(name, labels as string[], sortedDictionary(labels as string[]));
  });
  const label = columns.at(-1) as CategoricalColumn;
  check(
    label.categories.every((c) => c === '0' || c === '1'),
    'E_INPUT',
    () =>
      `${where}: ${COMPAS_LABEL} must be 0 or 1; found ` +
      `${label.categories.filter((c) => c !== '0' && c !== '1').join(', ')}`,
  );
  const extra: Column[] = COMPAS_EXTRA.filter((name) => raw.columns.some((x) => x.name.trim() === name)).map(
    keptNumbers,
  );
  return {
    table: { rows: keep.length, columns },
    ids: Int32Array.from(keep, (i) => id[i]),
    rawRows: opts.rawRows ?? raw.rows,
    extra: { rows: keep.length, columns: extra },
  };
}

// ── Splits ───────────────────────────────────────────────────────────────────────────────────────

export interface SplitIndices {
  adult: { nTrain: number; train: number[]; val: number[] };
  compas: { n: number; ids: number[]; train: number[]; val: number[]; test: number[] };
}

/**
 * Validates split_indices.json: every list holds integer positions, the splits of a data set are
 * disjoint and together cover 0 … n−1 (so no row is lost or used twice).
 */
export function parseSplitIndices(json: unknown, where = 'split_indices.json'): SplitIndices {
  const obj = (v: unknown, path: string): Record<string, unknown> => {
    check(
      v !== null && typeof v === 'object' && !Array.isArray(v),
      'E_INPUT',
      () => `${where}: ${path} must be an object`,
    );
    return v as Record<string, unknown>;
  };
  const int = (v: unknown, path: string): number => {
    check(
      Number.isSafeInteger(v) && (v as number) >= 0,
      'E_INPUT',
      () => `${where}: ${path} must be a non-negative integer, got ${JSON.stringify(v)}`,
    );
    return v as number;
  };
  const list = (v: unknown, path: string): number[] => {
    check(Array.isArray(v), 'E_INPUT', () => `${where}: ${path} must be a list of row positions`);
    return v.map((x, k) => int(x, `${path}[${k}]`));
  };
  const partition = (n: number, parts: Record<string, number[]>, path: string): void => {
    const seen = new Uint8Array(n);
    for (const [name, idx] of Object.entries(parts)) {
      for (const i of idx) {
        check(i < n, 'E_INPUT', () => `${where}: ${path}.${name} has position ${i}, beyond the ${n} rows`);
        check(!seen[i], 'E_INPUT', () => `${where}: ${path}: position ${i} appears twice (in ${name})`);
        seen[i] = 1;
      }
    }
    const total = Object.values(parts).reduce((a, p) => a + p.length, 0);
    check(total === n, 'E_INPUT', () => `${where}: ${path}: the splits cover ${total} of ${n} rows`);
  };
  const root = obj(json, 'the file');
  const a = obj(root.adult, 'adult');
  const c = obj(root.compas, 'compas');
  const adult = {
    nTrain: int(a.n_train_after_dropna, 'adult.n_train_after_dropna'),
    train: list(a.train, 'adult.train'),
    val: list(a.val, 'adult.val'),
  };
  partition(adult.nTrain, { train: adult.train, val: adult.val }, 'adult');
  const compas = {
    n: int(c.n_filtered, 'compas.n_filtered'),
    ids: list(c.ids_of_filtered_rows, 'compas.ids_of_filtered_rows'),
    train: list(c.train, 'compas.train'),
    val: list(c.val, 'compas.val'),
    test: list(c.test, 'compas.test'),
  };
  check(
    compas.ids.length === compas.n,
    'E_INPUT',
    () => `${where}: compas.ids_of_filtered_rows has ${compas.ids.length} ids, n_filtered is ${compas.n}`,
  );
  partition(compas.n, { train: compas.train, val: compas.val, test: compas.test }, 'compas');
  return { adult, compas };
}

/** The Adult data set with the reference splits: train/val from the dropna'd train file, test = the UCI test file. */
export function adultDataset(
  prepared: PreparedAdult,
  splits: SplitIndices['adult'],
  naming: AdultNaming = 'reference',
  where = 'adult.data',
  split: SplitProvenance = { kind: 'file', file: 'split_indices.json' },
): Dataset {
  check(
    prepared.train.rows === splits.nTrain,
    'E_INPUT',
    () =>
      `${where}: ${prepared.train.rows} rows remain after dropping rows with '?', but the reference splits index ` +
      `${splits.nTrain}; is this the UCI adult.data file?`,
  );
  const names = adultNames(naming);
  return {
    name: 'adult',
    features: names.features,
    label: names.label,
    favourable: '>50K',
    audit: { positive: '>50K', favourable: 'positive' },
    protected: names.protected,
    splits: {
      train: selectRows(prepared.train, splits.train),
      val: selectRows(prepared.train, splits.val),
      test: prepared.test,
    },
    source: prepared.train,
    split,
  };
}

/**
 * The COMPAS data set with the reference splits. The filtered rows must be exactly the reference's
 * (compared by `id`), otherwise the positions would silently point at other people.
 */
export function compasDataset(
  prepared: PreparedCompas,
  splits: SplitIndices['compas'],
  where = 'compas-scores-two-years.csv',
  split: SplitProvenance = { kind: 'file', file: 'split_indices.json' },
): Dataset {
  const { ids } = prepared;
  check(
    ids.length === splits.n,
    'E_INPUT',
    () =>
      `${where}: the ProPublica filter keeps ${ids.length} of ${prepared.rawRows} rows, the reference kept ` +
      `${splits.n}; is this ProPublica's compas-scores-two-years.csv?`,
  );
  const first = ids.findIndex((v, k) => v !== splits.ids[k]);
  check(
    first < 0,
    'E_INPUT',
    () =>
      `${where}: filtered row ${first} has id ${ids[first]}, the reference's has id ${splits.ids[first]}; the rows ` +
      `are not the reference's`,
  );
  const t = prepared.table;
  const x = prepared.extra;
  return {
    name: 'compas',
    features: COMPAS_FEATURES.slice(),
    label: COMPAS_LABEL,
    favourable: '0',
    audit: { positive: '1', favourable: 'negative' },
    protected: COMPAS_PROTECTED.slice(),
    splits: { train: selectRows(t, splits.train), val: selectRows(t, splits.val), test: selectRows(t, splits.test) },
    source: t,
    split,
    ...(x.columns.length === 0
      ? {}
      : {
          extra: {
            source: x,
            splits: {
              train: selectRows(x, splits.train),
              val: selectRows(x, splits.val),
              test: selectRows(x, splits.test),
            },
          },
        }),
  };
}
