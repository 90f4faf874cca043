// Parquet, Arrow IPC and JSON Lines read into the same Table as the CSV of the same data, on files
// written by other libraries' writers (DuckDB, apache-arrow: tools/make-columnar-fixtures.mjs), and
// their one-line errors.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTable, type TableReadOptions } from '../../src/node/read-table.js';
import { readParquet } from '../../src/data/parquet.js';
import { readArrow } from '../../src/data/arrow.js';
import { readJsonLines } from '../../src/data/jsonl.js';
import { bytesSource, type ByteSource, type ReadResult } from '../../src/data/typed-read.js';
import { FORMATS, acceptList, formatOfName } from '../../src/data/formats.js';
import { EngineError } from '../../src/engine/errors.js';
import { UnknownColumnError } from '../../src/engine/errors.js';
import type { ReadReport } from '../../src/data/schema.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/columnar/', import.meta.url));
const fx = (f: string) => join(fixtures, f);
const dir = mkdtempSync(join(tmpdir(), 'lucid-columnar-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const temp = (content: string | Uint8Array, ext: string) => {
  const p = join(dir, `f${n++}${ext}`);
  writeFileSync(p, content);
  return p;
};

/**
 * Everything a Table and its report say, with positions as 1-based data rows (a CSV's line 2 is row 1) and the file
 * name taken out.
 */
function summary(r: ReadResult, lineOfRow1: number) {
  const row = (k: number) => k - lineOfRow1 + 1;
  const rep: ReadReport = r.report;
  return {
    rows: r.table.rows,
    columns: r.table.columns.map((c) =>
      c.kind === 'numeric'
        ? { name: c.name, kind: c.kind, values: Array.from(c.values) }
        : {
            name: c.name,
            kind: c.kind,
            categories: c.categories,
            codes: Array.from(c.codes),
            identifier: c.identifier ?? false,
          },
    ),
    rowsRead: rep.rowsRead,
    missing: {
      ...rep.missing,
      firstDroppedLines: rep.missing.firstDroppedLines.map(row),
      columns: rep.missing.columns.map((c) => ({ ...c, firstLine: row(c.firstLine) })),
    },
    warnings: rep.warnings.map((w) => w.replace(rep.file, 'FILE').replace(/(line|row)s? [\d, ]+/g, 'POS')),
    fileColumns: rep.fileColumns,
    dropped: rep.dropped,
  };
}

const TYPED = [
  ['people.parquet', 'parquet', 1],
  ['people-zstd.parquet', 'parquet', 1],
  ['people-gzip.parquet', 'parquet', 1],
  ['people.arrow', 'arrow', 1],
  ['people.arrows', 'arrow', 1],
  ['people.jsonl', 'jsonl', 1],
] as const;

async function rejects(p: Promise<unknown>, re: RegExp, code = 'E_INPUT') {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof EngineError, `not an EngineError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, re);
    assert.ok(!e.message.includes('\n'), `more than one line: ${e.message}`);
    return true;
  });
}

describe('typed formats read as their CSV', () => {
  for (const opts of [
    {},
    { categorical: ['age'] },
    { missing: 'drop' as const },
    { numeric: ['code'], drop: ['id'] },
    { maxCategories: 2, drop: ['grp'] },
  ] satisfies TableReadOptions[]) {
    it(`the same Table and missing report as people.csv, options ${JSON.stringify(opts)}`, async () => {
      const csv = summary(await readTable(fx('people.csv'), opts), 2);
      for (const [f, format, first] of TYPED) {
        const r = await readTable(fx(f), opts);
        assert.equal(r.report.format, format, f);
        assert.equal(r.report.unit, format === 'jsonl' ? 'line' : 'row', f);
        assert.deepEqual(summary(r, first), csv, f);
      }
    });
  }

  it(
    'the kinds: int64, int32, double and numeric text are numbers; booleans and dictionary strings labels; null and ' +
      '"NA" missing',
    async () => {
      const { table, report } = await readTable(fx('people.parquet'));
      assert.deepEqual(
        table.columns.map((c) => `${c.name}:${c.kind}`),
        [
          'id:numeric',
          'age:numeric',
          'income:numeric',
          'sex:categorical',
          'grp:categorical',
          'code:numeric',
          'approved:categorical',
          'score:numeric',
        ],
      );
      const grp = report.missing.columns.find((c) => c.name === 'grp')!;
      assert.deepEqual(grp.keptAs, ['', 'NA']);
      assert.equal(grp.firstLine, 4);
    },
  );

  it("--categorical on a numeric column: labels are the numbers' shortest text, as in the CSV", async () => {
    const { table } = await readTable(fx('people.arrow'), { categorical: ['income', 'id'] });
    const income = table.columns.find((c) => c.name === 'income')!;
    assert.equal(income.kind, 'categorical');
    // row 3 (38000) is dropped for its missing age; row 4's null income is kept as the label ''
    assert.deepEqual(income.kind === 'categorical' && income.categories.slice(0, 4), [
      '52000.5',
      '61000.25',
      '',
      '70500.75',
    ]);
    const id = table.columns.find((c) => c.name === 'id')!;
    assert.deepEqual(id.kind === 'categorical' && id.categories[0], '5000000001');
  });

  it("the report hashes the file's bytes, for every format", async () => {
    for (const f of ['people.csv', ...TYPED.map((t) => t[0])]) {
      const bytes = readFileSync(fx(f));
      const { report } = await readTable(fx(f));
      assert.equal(report.sha256, createHash('sha256').update(new Uint8Array(bytes)).digest('hex'), f);
      assert.equal(report.bytes, bytes.length, f);
    }
  });

  it('the runtime-neutral readers over bytes in memory give what readTable gives', async () => {
    const readers = { parquet: readParquet, arrow: readArrow, jsonl: readJsonLines };
    for (const [f, format] of TYPED) {
      const viaFile = await readTable(fx(f));
      const viaBytes = await readers[format](bytesSource(new Uint8Array(readFileSync(fx(f)))), fx(f), {});
      assert.deepEqual(summary(viaBytes, 1), summary(viaFile, 1), f);
    }
  });

  it('Arrow streams and JSON Lines are read as the bytes arrive, across any chunk boundary', async () => {
    const chunked = (bytes: Uint8Array, size: number): ByteSource => ({
      ...bytesSource(bytes),
      async *chunks() {
        for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
      },
    });
    for (const [f, read] of [
      ['people.arrows', readArrow],
      ['people.jsonl', readJsonLines],
      ['people.arrow', readArrow],
    ] as const) {
      const bytes = new Uint8Array(readFileSync(fx(f)));
      const whole = summary(await read(bytesSource(bytes), f, {}), 1);
      for (const size of [1, 7, 64])
        assert.deepEqual(summary(await read(chunked(bytes, size), f, {}), 1), whole, `${f} in chunks of ${size}`);
    }
  });

  it('the format comes from the extension, --input-format, or the first bytes', async () => {
    assert.equal(formatOfName('x.PARQUET'), 'parquet');
    assert.equal(formatOfName('x.feather'), 'arrow');
    assert.equal(formatOfName('x.ndjson'), 'jsonl');
    assert.equal(formatOfName('adult.data'), 'csv');
    assert.equal(formatOfName('x.bin'), null);
    const p = join(dir, 'data.bin');
    copyFileSync(fx('people.parquet'), p);
    assert.equal((await readTable(p)).report.format, 'parquet');
    copyFileSync(fx('people.arrows'), p);
    assert.equal((await readTable(p)).report.format, 'arrow');
    const j = temp(new Uint8Array(readFileSync(fx('people.jsonl'))), '.log');
    assert.equal((await readTable(j, { format: 'jsonl' })).report.format, 'jsonl');
    assert.ok(FORMATS.every((f) => f.extensions.every((e) => acceptList().includes(e))));
  });
});

describe('typed formats: errors, one line naming the file, row or line, and column', () => {
  it('a truncated Parquet file, a truncated Arrow file, an empty file, a CSV named .parquet', async () => {
    await rejects(readTable(fx('truncated.parquet')), /truncated\.parquet: not a Parquet file, or a damaged one \(/);
    await rejects(
      readTable(fx('truncated.arrow')),
      /truncated\.arrow: not an Arrow IPC file or stream, or a damaged one \(/,
    );
    await rejects(readTable(temp('', '.parquet')), /: the file is empty$/);
    await rejects(
      readTable(temp('a,b\n1,2\n', '.arrow')),
      /not an Arrow IPC file or stream \(it does not start with ARROW1/,
    );
    await rejects(readTable(temp('a,b\n1,2\n', '.parquet')), /not a Parquet file, or a damaged one/);
  });

  it('nested, date and int64 columns beyond 2^53', async () => {
    await rejects(readTable(fx('nested-list.parquet')), /column "ages" is nested \(a list\); .*--drop ages$/);
    await rejects(readTable(fx('nested-struct.parquet')), /column "person" is nested \(a struct\)/);
    await rejects(readTable(fx('date.parquet')), /column "day" holds dates or times \(DATE\)/);
    // a dropped nested or date column is not read at all
    assert.equal((await readTable(fx('nested-list.parquet'), { drop: ['ages'] })).table.columns.length, 1);
    await rejects(
      readTable(fx('int64-unsafe.parquet')),
      /int64-unsafe\.parquet: row 3, column "big": the integer 9007204254740996 is beyond ±9007199254740991/,
    );
    await rejects(
      readTable(fx('int64-unsafe.arrow')),
      /int64-unsafe\.arrow: row 3, column "id": the integer 9007199254740993 is beyond/,
    );
  });

  it('--missing error, --numeric on text, unknown columns with "did you mean"', async () => {
    await rejects(
      readTable(fx('people.parquet'), { missing: 'error' }),
      /people\.parquet: row 3, column "age": missing value \(null\) \(--missing error\)$/,
    );
    await rejects(
      readTable(fx('people.arrow'), { missing: 'error', drop: ['age', 'income'] }),
      /people\.arrow: row 4, column "grp": missing value \(null\)/,
    );
    await rejects(
      readTable(fx('people.jsonl'), { missing: 'error' }),
      /people\.jsonl: line 3, column "age": missing value \(null\)/,
    );
    await rejects(
      readTable(fx('people.arrows'), { numeric: ['sex'] }),
      /people\.arrows: row 1, column "sex": "Male" is not a number, but --numeric names this column$/,
    );
    for (const f of ['people.parquet', 'people.arrow', 'people.jsonl']) {
      await assert.rejects(
        readTable(fx(f), { categorical: ['incme'] }),
        (e: unknown) =>
          e instanceof UnknownColumnError &&
          /--categorical "incme" is not a column \(did you mean "income"\?\)/.test(e.message),
      );
    }
  });

  it('CSV-only options with another format are a usage error', async () => {
    await rejects(
      readTable(fx('people.parquet'), { delimiter: ';' }),
      /people\.parquet: --delimiter is a CSV option, but the file is read as Apache Parquet; leave it out$/,
      'E_ARG',
    );
    await rejects(
      readTable(fx('people.jsonl'), { header: false, decimal: ',' }),
      /--header\/--no-header, --decimal are CSV options/,
      'E_ARG',
    );
  });

  it(
    'JSON Lines: malformed JSON, a nested value, an unknown key, not an object, invalid UTF-8; blank lines and a ' +
      'BOM are fine',
    async () => {
      await rejects(
        readTable(temp('{"a": 1, "b": "x"}\n{"a": 2, "b": }\n', '.jsonl')),
        /\.jsonl: line 2: not valid JSON \(/,
      );
      await rejects(
        readTable(temp('{"a": 1, "b": "x"}\n{"a": 2, "b": {"c": 1}}\n', '.jsonl')),
        /\.jsonl: line 2, key "b": a nested value \(an object\)/,
      );
      await rejects(readTable(temp('{"a": 1, "b": [1]}\n', '.jsonl')), /line 1, key "b": a nested value \(an array\)/);
      await rejects(
        readTable(temp('{"age": 1, "b": "x"}\n\n{"agе": 2}\n', '.jsonl')),
        /line 3: the key "agе" is not one of line 1's keys \(did you mean "age"\?\), which name the columns: age, b$/,
      );
      await rejects(readTable(temp('[1, 2]\n', '.jsonl')), /line 1: a JSON array, not an object/);
      await rejects(
        readTable(
          temp(new Uint8Array([...Buffer.from('{"a": "x"}\n{"a": "'), 0xe9, ...Buffer.from('"}\n')]), '.jsonl'),
        ),
        /not valid UTF-8 at byte offset 18 \(line 2\)/,
      );
      const ok = await readTable(temp('\ufeff{"a": 1, "b": "x"}\r\n\r\n{"b": "y", "a": 2}\n{"a": 3}', '.jsonl'));
      assert.deepEqual(
        ok.table.columns.map((c) => (c.kind === 'numeric' ? Array.from(c.values) : c.categories)),
        [
          [1, 2, 3],
          ['x', 'y', ''],
        ],
      );
      assert.equal(ok.report.missing.columns[0].firstLine, 4);
      await rejects(readTable(temp('\n\n', '.jsonl')), /holds only blank lines/);
    },
  );
});
