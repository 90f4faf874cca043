// readCsv and writeCsv on real files: dialects, overrides, streaming across chunks, round trips.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { readCsv, writeCsv, type ReadOptions } from '../../src/node/csv.js';
import { tableToCsv } from '../../src/data/csv-write.js';
import type { CategoricalColumn, NumericColumn, Table } from '../../src/data/table.js';
import { hostRng } from '../helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-csv-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Uint8Array) => {
  const p = join(dir, `f${n++}.csv`);
  writeFileSync(p, content);
  return p;
};
const read = (content: string | Uint8Array, opts?: ReadOptions) => readCsv(file(content), opts);
const values = (t: Table) =>
  t.columns.map((c) => (c.kind === 'numeric' ? Array.from(c.values) : Array.from(c.codes, (k) => c.categories[k])));

/** Same columns, kinds, and values bit for bit (so −0 and 0 differ). */
function assertSameTable(a: Table, b: Table) {
  assert.equal(b.rows, a.rows);
  assert.deepEqual(
    b.columns.map((c) => [c.name, c.kind]),
    a.columns.map((c) => [c.name, c.kind]),
  );
  a.columns.forEach((c, j) => {
    const d = b.columns[j];
    if (c.kind === 'numeric')
      assert.deepEqual(
        new Uint8Array((d as NumericColumn).values.buffer),
        new Uint8Array(c.values.buffer),
        `${c.name}: numbers differ`,
      );
    else assert.deepEqual(values({ rows: b.rows, columns: [d] }), values({ rows: a.rows, columns: [c] }), c.name);
  });
}

describe('readCsv: dialects', () => {
  const expected = [
    [39, 41],
    ['Male', 'Female'],
    [1.5, 2.5],
  ];

  for (const [what, content] of [
    ['comma', 'age,sex,income\n39,Male,1.5\n41,Female,2.5\n'],
    ['semicolon', 'age;sex;income\n39;Male;1.5\n41;Female;2.5\n'],
    ['tab', 'age\tsex\tincome\n39\tMale\t1.5\n41\tFemale\t2.5\n'],
    ['whitespace runs', 'age   sex income\n 39  Male   1.5  \n41\tFemale 2.5\n'],
    ['BOM and CRLF', '\uFEFFage,sex,income\r\n39,Male,1.5\r\n41,Female,2.5\r\n'],
    ['CR line ends, no final line end', 'age,sex,income\r39,Male,1.5\r41,Female,2.5'],
    ['blank lines and spaces around values', '\nage, sex, income\n\n39, Male, 1.5\n  \n41, Female, 2.5\n\n'],
  ] as const) {
    it(what, async () => {
      const { table, report } = await read(content);
      assert.deepEqual(
        table.columns.map((c) => c.name),
        ['age', 'sex', 'income'],
      );
      assert.deepEqual(values(table), expected);
      assert.equal(report.header, true);
    });
  }

  it('reports the settings it used', async () => {
    const { report } = await read('\uFEFFa;b\r\n1;x\r\n2;y\r\n');
    assert.deepEqual(
      [report.delimiter, report.header, report.bom, report.lineEnding, report.rowsRead, report.rowsKept],
      [';', true, true, 'CRLF', 2, 2],
    );
  });

  it('quoted fields with delimiters, quotes and newlines; line numbers count the spanned lines', async () => {
    const { table } = await read('id,note\n1,"a, b"\n2,"two\nlines"\n3,"say ""hi"""\n');
    assert.deepEqual(values(table)[1], ['a, b', 'two\nlines', 'say "hi"']);
    await assert.rejects(read('id,note\n1,"a\nb\nc"\n2\n'), /line 5 has 1 field, expected 2/);
  });

  it('overrides: --no-header with --columns, --columns renaming a header, a forced delimiter', async () => {
    const a = await read('39,Male\n41,Female\n', { header: false, columns: ['age', 'sex'] });
    assert.deepEqual([a.table.rows, a.table.columns.map((c) => c.name)], [2, ['age', 'sex']]);
    const b = await read('39,Male\n41,Female\n');
    assert.deepEqual(
      b.table.columns.map((c) => c.name),
      ['c1', 'c2'],
    );
    const c = await read('x,y\n1,2\n', { columns: ['p', 'q'] });
    assert.deepEqual([c.table.rows, c.table.columns.map((k) => k.name)], [1, ['p', 'q']]);
    const d = await read('a,b;c\n1,2;3\n', { delimiter: ';' });
    assert.deepEqual(
      d.table.columns.map((k) => k.name),
      ['a,b', 'c'],
    );
    const e = await read('age,sex\n39,Male\n', { header: false });
    assert.equal(e.table.rows, 2);
  });

  it('skipLines ignores a preamble', async () => {
    const { table } = await read('|1x3 Cross validator\n39, Male\n41, Female\n', {
      skipLines: 1,
      header: false,
      delimiter: ',',
    });
    assert.deepEqual(values(table), [
      [39, 41],
      ['Male', 'Female'],
    ]);
  });
});

describe('readCsv: streaming past the 64 KiB sample', () => {
  const rows = 6000;
  const body = Array.from({ length: rows }, (_, i) => `${i},naïve-€-𝄞-${i % 7},${(i * 0.1).toFixed(1)}`).join('\n');

  it('multi-byte characters split across chunk boundaries read intact', async () => {
    const { table } = await read(`id,label,x\n${body}\n`);
    assert.equal(table.rows, rows);
    assert.equal((table.columns[1] as CategoricalColumn).categories.length, 7);
    assert.equal((table.columns[1] as CategoricalColumn).categories[3], 'naïve-€-𝄞-3');
  });

  it('an invalid byte far into the file is reported with its byte offset and line', async () => {
    const head = new TextEncoder().encode(`id,label,x\n${body}\n`);
    const bytes = new Uint8Array(head.length + 6);
    bytes.set(head);
    bytes.set([0x37, 0x2c, 0xff, 0x2c, 0x31, 0x0a], head.length);
    await assert.rejects(readCsv(file(bytes)), {
      message: new RegExp(`not valid UTF-8 at byte offset ${head.length + 2} \\(line ${rows + 2}\\)`),
    });
  });

  it('an unclosed quote far into the file names the line where it opens', async () => {
    await assert.rejects(read(`id,label,x\n${body}\n9,"open,1\n10,b,2\n`), {
      message: new RegExp(`line ${rows + 2}: the quoted value that opens here is never closed`),
    });
  });

  it('a ragged row far into the file names its line', async () => {
    await assert.rejects(read(`id,label,x\n${body}\n9,b\n`), {
      message: new RegExp(`line ${rows + 2} has 2 fields, expected 3`),
    });
  });
});

describe('writeCsv: round trip', () => {
  function trickyTable(): Table {
    const rnd = hostRng(7);
    const m = 400;
    const specials = [
      0.1 + 0.2,
      1 / 3,
      -0,
      0,
      5e-324,
      2.2250738585072014e-308,
      1.7976931348623157e308,
      -1e21,
      123456789012345680000,
      1e-7,
      100,
      -2.5,
    ];
    const x = new Float64Array(m);
    for (let i = 0; i < m; i++)
      x[i] = i < specials.length ? specials[i] : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20);
    const labels = [
      'plain',
      'with, comma',
      'with "quotes"',
      'two\nlines',
      'semi;colon',
      'tab\there',
      'ünï€ødé 𝄞',
      '?',
      'x',
    ];
    const codes = new Int32Array(m);
    for (let i = 0; i < m; i++) codes[i] = i % labels.length;
    return {
      rows: m,
      columns: [
        { kind: 'numeric', name: 'x', values: x } as NumericColumn,
        { kind: 'categorical', name: 'label, quoted', codes, categories: labels } as CategoricalColumn,
      ],
    };
  }

  for (const delimiter of [',', ';', '\t'] as const) {
    it(`write → read gives the same values bit for bit (delimiter ${JSON.stringify(delimiter)})`, async () => {
      const t = trickyTable();
      const p = join(dir, `rt${n++}.csv`);
      await writeCsv(p, t, { delimiter });
      const { table } = await readCsv(p);
      assertSameTable(t, table);
    });
  }

  it('read → write → read of a messy file is identical', async () => {
    const first = await read('\uFEFFage;city;score\r\n39;"Den Haag; Centrum";0,5\r\n?;Leiden;1,25\r\n41;?;"2,0"\r\n');
    const p = join(dir, `rt${n++}.csv`);
    await writeCsv(p, first.table);
    const second = await readCsv(p);
    assertSameTable(first.table, second.table);
  });

  it('writes to a stream without closing it; header optional', async () => {
    const out = new PassThrough();
    let text = '';
    out.setEncoding('utf8').on('data', (c: string) => (text += c));
    const t: Table = { rows: 2, columns: [{ kind: 'numeric', name: 'a', values: new Float64Array([1, -0]) }] };
    await writeCsv(out, t);
    await writeCsv(out, t, { header: false });
    assert.equal(out.writableEnded, false);
    assert.equal(text, 'a\n1\n-0\n1\n-0\n');
  });

  it('numbers are written in their shortest round-trip form', async () => {
    const p = join(dir, `rt${n++}.csv`);
    await writeCsv(p, {
      rows: 3,
      columns: [{ kind: 'numeric', name: 'v', values: new Float64Array([0.1 + 0.2, 1e21, 0.1]) }],
    });
    assert.equal(readFileSync(p, 'utf8'), 'v\n0.30000000000000004\n1e+21\n0.1\n');
  });
});

describe('tableToCsv (core: the browser page and the edge worker) writes what writeCsv writes', () => {
  it('the same bytes for quoting, missing cells, −0, NaN and long floats', async () => {
    const t: Table = {
      rows: 4,
      columns: [
        { kind: 'numeric', name: 'x, with comma', values: Float64Array.from([-0, NaN, 0.1 + 0.2, 1e21]) },
        {
          kind: 'categorical',
          name: 'label',
          categories: ['a "quoted" one', 'line\nbreak', 'plain'],
          codes: Int32Array.from([0, 1, -1, 2]),
        },
      ],
    };
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString('utf8')));
    await writeCsv(out, t);
    assert.equal(tableToCsv(t), text);
    assert.equal(tableToCsv(t).split('\n')[1], '-0,"a ""quoted"" one"');
  });
});
