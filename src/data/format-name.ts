// The input formats' names: the keys of FORMATS (formats.ts), whose rows hold everything else about
// a format. In its own file, below the readers and the schema, so that a reader or a ReadReport can
// name its format without importing the table that imports the readers.
export type FormatName = 'csv' | 'parquet' | 'arrow' | 'jsonl';
