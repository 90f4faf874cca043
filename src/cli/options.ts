// Argument parsers for commander: each throws InvalidArgumentError with a message naming the value.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDelimiter, type Delimiter } from '../data/csv-detect.js';
import { DEFAULT_MAX_CATEGORIES, DEFAULT_MAX_LABEL_LENGTH } from '../data/schema.js';
import { unitIntervalOf } from '../data/cells.js';
import type { TableReadOptions } from '../node/read-table.js';
import { FORMATS, FORMAT_NAMES, type FormatName } from '../data/formats.js';
import { SUPPRESSION_OPTION } from '../methods/metrics/suppress.js';
import { FAVOURABLE, FIT_DEFAULTS, METRICS_DEFAULTS, THRESHOLD_MEANING } from '../methods/metrics/index.js';
import { DIRECTIONS, OUTPUT_KINDS, OUTPUT_KIND_NAMES } from '../methods/metrics/outputs.js';
import { BAND_SCALES } from '../methods/metrics/targets.js';
import { OUTPUT_OPTION_WORDS as W, type OutputOptionWords } from '../methods/metrics/output-options.js';
import { wrapText } from '../report/format.js';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

export function positiveNumber(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v <= 0)
    throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return v;
}

export function nonNegativeNumber(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0)
    throw new InvalidArgumentError(`expected a number ≥ 0, got "${value}"`);
  return v;
}

/** An integer ≥ 2 (bins, levels). */
export function intAtLeast2(value: string): number {
  const n = positiveInt(value);
  if (n < 2) throw new InvalidArgumentError(`expected an integer ≥ 2, got "${value}"`);
  return n;
}

/** A probability threshold in [0, 1]; an empty value is an error, not 0. */
export function unitInterval(value: string): number {
  const v = unitIntervalOf(value);
  if (v === null) throw new InvalidArgumentError(`expected a number in [0, 1], got "${value}"`);
  return v;
}

/**
 * The decision threshold's flag as every command offers it (its meaning from metrics/decision.ts, which the page shows
 * too).
 */
export const THRESHOLD_OPTION = {
  flag: '--threshold',
  help: THRESHOLD_MEANING,
} as const;

/** Comma-separated numbers, at least two (bin edges); an empty item is an error, not 0. */
export function numberList(value: string): number[] | null {
  const items = value.split(',').map((s) => s.trim());
  if (items.length < 2 || items.some((s) => s === '' || !Number.isFinite(Number(s)))) return null;
  return items.map(Number);
}

/** --delimiter: comma, semicolon, tab or whitespace (or the characters themselves). */
export function delimiter(value: string): Delimiter {
  const d = parseDelimiter(value);
  if (!d) throw new InvalidArgumentError(`expected comma, semicolon, tab or whitespace (or , ; \\t), got "${value}"`);
  return d;
}

/** A comma-separated list of column names. */
export function names(value: string): string[] {
  const list = value.split(',').map((s) => s.trim());
  if (list.some((s) => s === ''))
    throw new InvalidArgumentError(`expected comma-separated column names, got "${value}"`);
  return list;
}

/**
 * `--format`, defined once: every command that prints a result takes it, and json is always
 * one of its choices (the conventions test checks both). `choices` are the command's other formats.
 */
export function formatOption(choices: readonly string[], def: string, help = 'output format'): Option {
  return new Option('--format <f>', help).choices([...new Set([...choices, 'json'])]).default(def);
}

/** `--format text|json` for commands whose result is a summary of files written. */
export const summaryFormat = () =>
  formatOption(['text'], 'text', 'text, or json: the summary as one JSON object on stdout');

/** Prints a command's summary: the text lines, or `json` as one JSON object with --format json. */
export function printSummary(format: string | undefined, lines: string[], json: object): void {
  // text summaries keep to TEXT_WIDTH characters a line, as the audit's (docs/cli.md)
  process.stdout.write(
    format === 'json' ? JSON.stringify(json, null, 2) + '\n' : wrapText(lines.map((l) => `${l}\n`).join('')),
  );
}

/** COLUMN=VALUE (repeatable): the reference group of a column. */
export function referenceArg(value: string, prev: Record<string, string> = {}): Record<string, string> {
  const m = /^([^=]+?)\s*=\s*(.+)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected COLUMN=VALUE, e.g. sex=Male, got "${value}"`);
  return { ...prev, [m[1]]: m[2].trim() };
}

/** `--model-classes yes=1,no=0`: the model's classes as the data codes them (model class = data value). */
export function classMapArg(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const m = /^([^=]+?)\s*=\s*(.+)$/.exec(part.trim());
    if (!m)
      throw new InvalidArgumentError(
        `expected MODEL_CLASS=DATA_VALUE pairs, comma-separated, e.g. yes=1,no=0, got "${value}"`,
      );
    if (out[m[1]] !== undefined)
      throw new InvalidArgumentError(`the model class "${m[1]}" is mapped twice in "${value}"`);
    out[m[1]] = m[2].trim();
  }
  return out;
}

/** τ in (0, 1). */
export function tolerance(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v <= 0 || v >= 1)
    throw new InvalidArgumentError(`expected a number in (0, 1), e.g. 0.8 for the band [0.8, 1.25], got "${value}"`);
  return v;
}

/**
 * The fairness options, defined once (habit 4): metrics, fale and audit take the ones they use, and
 * their help comes from here. Defaults and choices come from the metrics module (METRICS_DEFAULTS,
 * FAVOURABLE); the numeric defaults are passed in, because commands may differ.
 */
export const FAIRNESS_OPTIONS = {
  positive: () =>
    new Option(
      '--positive <value>',
      'the label value that is the positive class (default: the second of exactly two values, sorted); --favourable ' +
        'says whether it is the outcome people want',
    ),
  favourable: () =>
    new Option(
      '--favourable <which>',
      'whether the --positive class is the outcome people want: positive (a loan) or negative (a high-risk score); ' +
        "it sets every metric's direction",
    )
      .choices([...FAVOURABLE])
      .default(METRICS_DEFAULTS.favourable),
  reference: () =>
    new Option(
      '--reference <column=value>',
      'the reference group of a column for differences, ratios and verdicts (repeat per column; default: the largest ' +
        'group that is not small)',
    ).argParser(referenceArg),
  privileged: () =>
    new Option('--privileged <column=value>', 'the old name of --reference').argParser(referenceArg).hideHelp(),
  tolerance: (d: number) =>
    new Option(
      '--tolerance <t>',
      `ratios inside [t, 1/t] pass (default ${d}: [${d}, ${(1 / d).toFixed(2)}]); outside, a significant ratio is ` +
        `flagged in either direction`,
    ).argParser(tolerance),
  minGroup: (d: number) =>
    new Option(
      '--min-group <n>',
      `groups with fewer rows are small: no verdict, never a default reference (default ${d})`,
    ).argParser(positiveInt),
  threshold: (d: number) =>
    new Option(`${THRESHOLD_OPTION.flag} <p>`, THRESHOLD_OPTION.help).argParser(unitInterval).default(d),
  legitimate: () =>
    new Option(
      '--legitimate <names>',
      'columns you consider legitimate factors: the selection-rate disparity is also given within their strata ' +
        '(explained vs unexplained)',
    ).argParser(names),
  suppressBelow: () => new Option(`${SUPPRESSION_OPTION.flag} <k>`, SUPPRESSION_OPTION.help).argParser(positiveInt),
  modelClasses: () =>
    new Option(
      '--model-classes <map>',
      "the model's classes as the data codes them, MODEL_CLASS=DATA_VALUE comma-separated (e.g. yes=1,no=0): the " +
        "model's positive class, so mapped, must be the --positive class (a model file records its classes; a " +
        'mismatch is an error before the model is called)',
    ).argParser(classMapArg),
  allowInvertedScores: () =>
    new Option(
      '--allow-inverted-scores',
      `audit scores that rank the label worse than chance (AUC ≤ ${FIT_DEFAULTS.invertedAuc} with its 99% interval ` +
        `below 0.5) as given, with a warning; without it they stop the run, since they probably give the ` +
        `probability of the other class`,
    ),
} as const;

export type FairnessOptionName = keyof typeof FAIRNESS_OPTIONS;

/** Any finite number (a score's threshold: the decision rule checks its range for the output kind). */
export function finiteNumber(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v)) throw new InvalidArgumentError(`expected a number, got "${value}"`);
  return v;
}

/** A commander option from its words (shared with the browser page: methods/metrics/output-options.ts). */
const wordsOption = (w: OutputOptionWords) => new Option(`${w.flag} ${w.arg}`, w.help);

/**
 * The options of an output of any kind (`lucid metrics`), defined once: the kind, its favourable direction, the
 * class order and the band in units; choices and help from outputs.ts's OUTPUT_KINDS.
 */
export const OUTPUT_OPTIONS = {
  output: () =>
    new Option(
      '--output <kind>',
      `what the predictions are (default: inferred from the label and --pred, and said): ${OUTPUT_KIND_NAMES.map(
        (k) => `${k}: ${OUTPUT_KINDS[k].help}`,
      ).join('; ')}`,
    ).choices([...OUTPUT_KIND_NAMES]),
  favourable: () =>
    new Option(
      '--favourable <which>',
      `which outcome people want, by the output's kind: ${OUTPUT_KIND_NAMES.filter((k) => k !== 'multiclass')
        .map((k) => `${k} ${OUTPUT_KINDS[k].favourable}`)
        .join(
          '; ',
        )} (default positive for a binary decision; a score or a real value must name higher or lower); it sets ` +
        "every metric's direction",
    ).choices([...FAVOURABLE, ...DIRECTIONS]),
  classOrder: () => wordsOption(W.classOrder).argParser(names),
  toleranceUnits: () => wordsOption(W.toleranceUnits).argParser(positiveNumber),
  band: () => wordsOption(W.band).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
  bandScale: () => wordsOption(W.bandScale).choices([...BAND_SCALES]),
  targetClass: () =>
    wordsOption(W.targetClass).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
  threshold: () =>
    new Option(
      `${THRESHOLD_OPTION.flag} <t>`,
      `${THRESHOLD_OPTION.help}; for a score any number, the cut of its threshold view (default ` +
        `${METRICS_DEFAULTS.threshold}, or for a score outside [0, 1] its median)`,
    ).argParser(finiteNumber),
} as const;

/** What commander gives for FAIRNESS_OPTIONS (threshold aside: its default makes it required where used). */
export interface FairnessCliOptions {
  favourable?: string;
  modelClasses?: Record<string, string>;
  allowInvertedScores?: boolean;
  reference?: Record<string, string>;
  privileged?: Record<string, string>;
  tolerance?: number;
  minGroup?: number;
  legitimate?: string[];
  suppressBelow?: number;
}

/**
 * The options that say how groups are compared (the reference, the tolerance band, small groups,
 * legitimate factors, suppression), in the order of their help; every command that judges groups
 * takes them all, so they are added here once.
 */
export function withGroupComparisonOptions(cmd: Command): Command {
  return cmd
    .addOption(FAIRNESS_OPTIONS.reference())
    .addOption(FAIRNESS_OPTIONS.privileged())
    .addOption(FAIRNESS_OPTIONS.tolerance(METRICS_DEFAULTS.tolerance))
    .addOption(FAIRNESS_OPTIONS.minGroup(METRICS_DEFAULTS.minGroupSize))
    .addOption(FAIRNESS_OPTIONS.legitimate())
    .addOption(FAIRNESS_OPTIONS.suppressBelow());
}

/** The parsed fairness options, with --privileged folded into --reference. */
export function fairnessValues(opts: FairnessCliOptions) {
  return {
    favourable: (opts.favourable ?? 'positive') as 'positive' | 'negative',
    reference:
      opts.reference || opts.privileged ? { ...(opts.privileged ?? {}), ...(opts.reference ?? {}) } : undefined,
    tolerance: opts.tolerance,
    minGroupSize: opts.minGroup,
    legitimate: opts.legitimate,
    suppressBelow: opts.suppressBelow,
    allowInvertedScores: opts.allowInvertedScores === true,
  };
}

/** How numbers are written in a file: '.', ',' or auto. */
function decimalMark(value: string): '.' | ',' | 'auto' {
  const v = value.trim();
  if (v === '.' || v === ',' || v === 'auto') return v;
  if (v === 'comma') return ',';
  if (v === 'point' || v === 'dot') return '.';
  throw new InvalidArgumentError(`expected . (decimal point), , (decimal comma) or auto, got "${value}"`);
}

/**
 * The data options, defined once (habit 4): every command that reads a data file takes all of them,
 * with the same meaning (docs/data.md "Reading data"). `withDataOptions(cmd)` adds them; `readOptionsOf`
 * turns the parsed values into the reader's options.
 */
export const DATA_OPTIONS = [
  () =>
    new Option(
      '--input-format <name>',
      `the data file's format (default: by extension: ` +
        `${FORMATS.map((f) => `${f.name} ${f.extensions.join(' ')}`).join('; ')}; else by its first bytes, else ` +
        `csv)`,
    ).choices([...FORMAT_NAMES]),
  () =>
    new Option(
      '--delimiter <d>',
      'CSV: comma, semicolon, tab or whitespace (runs of spaces/tabs) (default: detected)',
    ).argParser(delimiter),
  () => new Option('--header', 'CSV: line 1 names the columns (default: detected)'),
  () => new Option('--no-header', 'CSV: line 1 is data'),
  () =>
    new Option(
      '--columns <names>',
      'CSV: column names, comma-separated (replace the header, or name a headerless file)',
    ).argParser(names),
  () => new Option('--numeric <names>', 'columns that must be numeric (a non-number is an error)').argParser(names),
  () => new Option('--categorical <names>', 'columns kept as categories even when they hold numbers').argParser(names),
  () => new Option('--drop <names>', 'columns to leave out, comma-separated').argParser(names),
  () =>
    new Option(
      '--missing <policy>',
      'missing values: keep (drop rows with a missing number, keep a missing label as a category), drop (drop every ' +
        'row with one), error',
    )
      .choices(['keep', 'drop', 'error'])
      .default('keep'),
  () =>
    new Option('--max-categories <n>', 'most distinct labels a categorical column may have')
      .argParser(positiveInt)
      .default(DEFAULT_MAX_CATEGORIES),
  () =>
    new Option(
      '--max-label-length <n>',
      'longest category label, in characters (a longer one is an error naming the line and column)',
    )
      .argParser(positiveInt)
      .default(DEFAULT_MAX_LABEL_LENGTH),
  () =>
    new Option(
      '--decimal <mark>',
      'CSV: decimal mark: . (point), , (comma) or auto (default: auto when the delimiter is not a comma: a column ' +
        'whose numbers all read with decimal commas is read so, and said)',
    ).argParser(decimalMark),
] as const;

/** What a data file may be, for the commands' --data help: "CSV, Parquet, Arrow IPC or JSON Lines" (from FORMATS). */
export const DATA_FILE = ((k: string[]) => `${k.slice(0, -1).join(', ')} or ${k[k.length - 1]}`)(
  FORMATS.map((f) => f.label.split(' (')[0].replace(/^Apache /, '')),
);

/** The parsed data options. */
export interface DataCliOptions {
  inputFormat?: FormatName;
  delimiter?: Delimiter;
  header?: boolean;
  columns?: string[];
  numeric?: string[];
  categorical?: string[];
  drop?: string[];
  missing?: 'keep' | 'drop' | 'error';
  maxCategories?: number;
  maxLabelLength?: number;
  decimal?: '.' | ',' | 'auto';
}

/** Adds every data option to `cmd`. */
export function withDataOptions(cmd: Command): Command {
  for (const o of DATA_OPTIONS) cmd.addOption(o());
  return cmd;
}

/** The reader's options from the parsed data options (`decimal: 'auto'` is the reader's default, so it is left out). */
export function readOptionsOf(o: DataCliOptions): TableReadOptions {
  return {
    ...(o.inputFormat ? { format: o.inputFormat } : {}),
    delimiter: o.delimiter,
    header: o.header,
    columns: o.columns,
    numeric: o.numeric,
    categorical: o.categorical,
    drop: o.drop,
    missing: o.missing,
    maxCategories: o.maxCategories,
    maxLabelLength: o.maxLabelLength,
    ...(o.decimal && o.decimal !== 'auto' ? { decimal: o.decimal } : {}),
  };
}
