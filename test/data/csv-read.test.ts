// The CLI and the browser page read a CSV file the same way: the page's whole-file reader
// (src/data/csv-read.ts readDataBytes) and the CLI's streaming one (src/node/read-table.ts readTable)
// take their settings from one function (csvSettings), so a semicolon file with decimal commas is
// numbers in both, and the same bad bytes give the same message.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTable } from '../../src/node/read-table.js';
import { csvSettings, readDataBytes } from '../../src/data/csv-read.js';
import type { Table } from '../../src/data/table.js';
import { ROOT } from '../helpers/browser.js';
import { semicolonDecimalComma } from '../helpers/audit-files.js';
import { MALFORMED } from './malformed.table.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-csv-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LOANS = join(ROOT, 'test/fixtures/web/loans-300.csv');

/** A table as plain data: names, kinds, values (numbers) or labels (categories), for deepEqual. */
function shape(t: Table) {
  return {
    rows: t.rows,
    columns: t.columns.map((c) =>
      c.kind === 'numeric'
        ? { name: c.name, kind: c.kind, values: Array.from(c.values) }
        : {
            name: c.name,
            kind: c.kind,
            labels: Array.from(c.codes, (k) => (k < 0 ? null : c.categories[k])),
            identifier: c.identifier ?? false,
          },
    ),
  };
}

async function both(name: string, content: string | Uint8Array) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const cli = await readTable(path).then(
    (r) => ({
      table: r.table,
      warnings: r.report.warnings,
      mostlyNumeric: (r.report.mostlyNumeric ?? []).map((m) => m.column),
      delimiter: r.report.delimiter,
      decimal: r.report.decimal,
    }),
    (e: Error) => ({ error: e.message }),
  );
  const page = await readDataBytes(new Uint8Array(readFileSync(path)), path).then(
    (r) => ({ table: r.table, warnings: r.warnings, mostlyNumeric: r.mostlyNumeric, how: r.how }),
    (e: Error) => ({ error: e.message }),
  );
  return { cli, page };
}

describe('one CSV reader configuration for the CLI and the browser page', () => {
  it(
    'a semicolon file with decimal commas: the same table ' + 'in both, numbers where the comma file has numbers',
    async () => {
      const text = semicolonDecimalComma(readFileSync(LOANS, 'utf8'));
      assert.match(
        text.split('\n')[1],
        /^\d+;\w+;\w;\w+;\w+;\d+;\d+,\d;\d,\d+;\w+;\d,\d+$/,
        'the fixture is semicolon-delimited with decimal commas',
      );
      const { cli, page } = await both('loans-semicolon.csv', text);
      assert.ok(
        'table' in cli && 'table' in page,
        JSON.stringify({ cli: 'error' in cli && cli.error, page: 'error' in page && page.error }),
      );
      assert.equal(cli.delimiter, ';');
      assert.equal(cli.decimal, 'auto');
      assert.equal(page.how, 'delimiter ";"');
      assert.deepEqual(shape(page.table), shape(cli.table), 'the page reads the table the CLI reads');
      assert.deepEqual(page.warnings, cli.warnings, 'and says the same about it');
      for (const col of ['income', 'debt_ratio', 'preds']) {
        assert.equal(page.table.columns.find((c) => c.name === col)?.kind, 'numeric', `${col} is numbers`);
        assert.ok(
          page.warnings.some((w) => w.includes(`column "${col}" is read with decimal commas`)),
          `a warning names ${col}`,
        );
      }
      // the same numbers as the comma-delimited original
      const original = await readTable(LOANS);
      assert.deepEqual(shape(page.table), shape(original.table));
    },
  );

  it('the settings come from one function: a comma file never looks for decimal commas, any other file does', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    const at = (s: string) => csvSettings(bytes(s), bytes(s).length, 'f.csv');
    assert.equal(at('a;b\n1,5;x\n').decimal, 'auto');
    assert.equal(at('a\tb\n1,5\tx\n').decimal, 'auto');
    assert.equal(at('a,b\n1.5,x\n').decimal, '.');
    assert.equal(
      csvSettings(bytes('a;b\n1,5;x\n'), 10, 'f.csv', { decimal: '.' }).decimal,
      '.',
      'a given mark is kept',
    );
  });

  const cases: [string, string | Uint8Array][] = [
    [
      'BOM, CRLF, quoted cells with the delimiter',
      '\uFEFFname;score;note\r\n"a;b";0,5;x\r\nc;1,25;"say ""hi"""\r\nd;2;y\r\n',
    ],
    ['a tab file with decimal commas and a missing cell', 'x\ty\tg\n1,5\t2\ta\n\t3\tb\n2,25\t4,5\t?\n'],
    [
      'numbers with a few text cells, semicolons',
      `age;g\n${Array.from({ length: 30 }, (_, i) => `${i === 4 ? 'unknown' : `${20 + i},5`};${'ab'[i % 2]}`).join(
        '\n',
      )}\n`,
    ],
    ['an unclosed quote', 'a;b\n1;"open\n2;3\n'],
    ['text after a closing quote', 'a;b\n1;"x"y\n2;3\n'],
    ['a NUL byte', new Uint8Array([0x61, 0x3b, 0x62, 0x0a, 0x31, 0x3b, 0x00, 0x0a])],
    ['bytes that are not UTF-8', new Uint8Array([0x61, 0x3b, 0x62, 0x0a, 0x31, 0x3b, 0xe9, 0x0a])],
    ['a ragged line', 'a;b;c\n1;2;3\n4;5\n'],
    ['an empty file', ''],
    ['a gzip file', new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0])],
  ];
  // the CLI's hints that name its own options (the page has none of them): the page says the rest
  const CLI_HINTS = [
    '; if it is data, read it with --no-header',
    ' (name the columns with --columns to choose)',
    '; name every column with --columns',
  ];
  const withoutHints = (s: string) => CLI_HINTS.reduce((t, h) => t.replace(h, ''), s);

  it(
    'the malformed-file corpus read with default options: the same table, warnings or message, but the hints naming ' +
      'CLI options',
    async () => {
      const corpus = join(ROOT, 'test/fixtures/malformed');
      const cases = MALFORMED.filter((c) => !c.opts && existsSync(join(corpus, c.file)));
      assert.ok(cases.length >= 15, `${cases.length} cases`);
      for (const c of cases) {
        const path = join(corpus, c.file);
        const cli = await readTable(path).then(
          (r) => ({ table: shape(r.table), warnings: r.report.warnings.map(withoutHints) }),
          (e: Error) => ({ error: withoutHints(e.message) }),
        );
        const page = await readDataBytes(new Uint8Array(readFileSync(path)), path).then(
          (r) => ({ table: shape(r.table), warnings: r.warnings }),
          (e: Error) => ({ error: e.message }),
        );
        assert.deepEqual(page, cli, c.file);
      }
    },
  );

  for (const [what, content] of cases) {
    it(`${what}: the same table or the same message`, async () => {
      const { cli, page } = await both(`case-${what.replace(/\W+/g, '-')}.csv`, content);
      if ('error' in cli) return assert.deepEqual(page, cli);
      assert.ok('table' in page, 'error' in page ? page.error : '');
      assert.deepEqual(shape(page.table), shape(cli.table));
      assert.deepEqual(page.warnings, cli.warnings);
      assert.deepEqual(page.mostlyNumeric, cli.mostlyNumeric);
    });
  }
});
