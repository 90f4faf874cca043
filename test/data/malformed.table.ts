// The malformed-file corpus (test/fixtures/malformed/): one file per kind of problem, the options
// it is read with, and the exact message a user sees ({file} is the path as given). Errors exit 1
// (E_INPUT) through `lucid inspect`; warnings exit 0 with the one warning line on stderr.
import type { ReadOptions } from '../../src/node/csv.js';

export interface MalformedCase {
  file: string;
  opts?: ReadOptions;
  /** 'error': readCsv rejects with E_INPUT; 'warning': it succeeds with exactly this warning */
  kind: 'error' | 'warning';
  message: string;
  exit: number;
}

const QUOTE_HINT = 'a value holding the delimiter must be quoted';
const UTF8_HINT = 'save the file as UTF-8 (it may be Latin-1 or Windows-1252)';
const GROUP_HINT = 'an identifier or free text cannot be a category';

export const MALFORMED: readonly MalformedCase[] = [
  { file: 'does-not-exist.csv', kind: 'error', exit: 1, message: '{file}: file not found' },
  { file: 'empty.csv', kind: 'error', exit: 1, message: '{file}: the file is empty' },
  {
    file: 'bom-only.csv',
    kind: 'error',
    exit: 1,
    message: '{file}: the file is empty (it holds only a UTF-8 byte-order mark)',
  },
  { file: 'blank-lines.csv', kind: 'error', exit: 1, message: '{file}: the file holds only blank lines' },
  {
    file: 'header-only.csv',
    kind: 'error',
    exit: 1,
    message:
      '{file}: line 1 is a header (age, sex, income) but no data rows follow; if it is data, read it with --no-header',
  },
  {
    file: 'ragged-long.csv',
    kind: 'error',
    exit: 1,
    message: `{file}: line 4 has 4 fields, expected 3; ${QUOTE_HINT}`,
  },
  {
    file: 'ragged-short.csv',
    kind: 'error',
    exit: 1,
    message: `{file}: line 3 has 2 fields, expected 3; ${QUOTE_HINT}`,
  },
  // line numbers count the lines a quoted value spans
  {
    file: 'ragged-after-multiline.csv',
    kind: 'error',
    exit: 1,
    message: `{file}: line 6 has 2 fields, expected 3; ${QUOTE_HINT}`,
  },
  {
    file: 'not-a-number.csv',
    opts: { numeric: ['income'] },
    kind: 'error',
    exit: 1,
    message: '{file}: line 5, column "income": "n/a" is not a number, but --numeric names this column',
  },
  {
    file: 'unknown-column.csv',
    opts: { numeric: ['agee'] },
    kind: 'error',
    exit: 2, // a misspelt column is a usage error, like a misspelt option
    message: '{file}: --numeric "agee" is not a column (did you mean "age"?); the columns are: age, sex, income',
  },
  {
    file: 'unknown-drop-column.csv',
    opts: { drop: ['gender'] },
    kind: 'error',
    exit: 2,
    message: '{file}: --drop "gender" is not a column; the columns are: age, sex, income',
  },
  {
    file: 'duplicate-header.csv',
    kind: 'warning',
    exit: 0,
    message:
      '{file}: line 1: column name "age" appears twice (fields 1 and 3); the second is called "age.1" (name the ' +
      'columns with --columns to choose)',
  },
  {
    file: 'empty-header-name.csv',
    kind: 'error',
    exit: 1,
    message: '{file}: line 1: field 1 has no column name; name every column with --columns',
  },
  {
    file: 'columns-count.csv',
    opts: { columns: ['age', 'sex'] },
    kind: 'error',
    exit: 1,
    message: '{file}: --columns gives 2 names but line 1 has 3 fields',
  },
  {
    file: 'conflicting-kinds.csv',
    opts: { numeric: ['age'], categorical: ['age'] },
    kind: 'error',
    exit: 1,
    message: '{file}: column "age" is named by both --numeric and --categorical',
  },
  {
    file: 'drop-every-column.csv',
    opts: { drop: ['a', 'b'] },
    kind: 'error',
    exit: 1,
    message: '{file}: --drop removes every column (a, b)',
  },
  {
    file: 'too-many-categories.csv',
    opts: { maxCategories: 3 },
    kind: 'error',
    exit: 1,
    message:
      `{file}: column "city" has more than 3 distinct values (the 4th, "Delft", is on line 5); ${GROUP_HINT}: ` +
      `remove it with --drop city, group its values into fewer categories, or raise --max-categories`,
  },
  {
    file: 'too-many-late-text.csv',
    opts: { maxCategories: 3 },
    kind: 'error',
    exit: 1,
    message:
      `{file}: column "id" has more than 3 distinct values (it is categorical because line 6 holds "x17", not a ` +
      `number); ${GROUP_HINT}: remove it with --drop id, group its values into fewer categories, or raise ` +
      `--max-categories`,
  },
  {
    file: 'single-value.csv',
    kind: 'warning',
    exit: 0,
    message:
      '{file}: column "country" has the single value "NL" in every row; the GAN will exclude it (it carries no ' +
      'information)',
  },
  {
    file: 'mostly-numeric.csv',
    kind: 'warning',
    exit: 0,
    message:
      '{file}: column "age" is categorical because 1 of its 20 values are not numbers (the first on line 11: ' +
      '"forty"), though 19 are; fix or blank those values if it should be numeric (--numeric age makes them an ' +
      'error)',
  },
  {
    file: 'latin1.csv',
    kind: 'error',
    exit: 1,
    message: `{file}: not valid UTF-8 at byte offset 24 (line 3); ${UTF8_HINT}`,
  },
  {
    file: 'truncated-utf8.csv',
    kind: 'error',
    exit: 1,
    message: `{file}: not valid UTF-8 at byte offset 22 (line 3); ${UTF8_HINT}`,
  },
  {
    file: 'utf16.csv',
    kind: 'error',
    exit: 1,
    message: '{file}: the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8',
  },
  {
    file: 'nul-bytes.csv',
    kind: 'error',
    exit: 1,
    message:
      '{file}: NUL byte at byte offset 1 (line 1): this is binary data, not CSV text (UTF-16 text must be saved as ' +
      'UTF-8)',
  },
  {
    file: 'gzipped.csv',
    kind: 'error',
    exit: 1,
    message: '{file}: the file is gzip-compressed; decompress it first (gunzip)',
  },
  {
    file: 'spreadsheet.xlsx',
    kind: 'error',
    exit: 1,
    message: '{file}: the file is a zip archive (an Excel .xlsx workbook is one); export the sheet as CSV',
  },
  {
    file: 'unclosed-quote.csv',
    kind: 'error',
    exit: 1,
    message:
      '{file}: line 3: the quoted value that opens here is never closed; add the closing quote (") or double a quote ' +
      'inside the value ("")',
  },
  {
    file: 'text-after-quote.csv',
    kind: 'error',
    exit: 1,
    message:
      '{file}: line 2: "def" follows the closing quote of a quoted value; quote the whole value and write a quote ' +
      'inside it as ""',
  },
  {
    file: 'missing-error.csv',
    opts: { missing: 'error' },
    kind: 'error',
    exit: 1,
    message: '{file}: line 3, column "age": missing value "?" (--missing error)',
  },
  {
    file: 'all-rows-dropped.csv',
    kind: 'error',
    exit: 1,
    message:
      '{file}: no rows left: the missing-value policy "keep" drops all 3 data rows (rows with missing cells: age ' +
      '(numeric): 1, income (numeric): 2); --drop those columns, or fill the gaps',
  },
];

/** The `lucid inspect` arguments that mean the same as `opts`. */
export function cliArgs(opts: ReadOptions = {}): string[] {
  const args: string[] = [];
  if (opts.delimiter) args.push('--delimiter', opts.delimiter === '\t' ? 'tab' : opts.delimiter);
  if (opts.header !== undefined) args.push(opts.header ? '--header' : '--no-header');
  for (const key of ['columns', 'numeric', 'categorical', 'drop'] as const) {
    if (opts[key]) args.push(`--${key}`, opts[key]!.join(','));
  }
  if (opts.missing) args.push('--missing', opts.missing);
  if (opts.maxCategories !== undefined) args.push('--max-categories', String(opts.maxCategories));
  return args;
}
