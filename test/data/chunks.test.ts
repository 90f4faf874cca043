// Reading in chunks (src/data/chunks.ts, readCsvChunks, readColumns): the chunks add up to the table a
// whole-file read gives (kinds, global category codes in first-seen order, the missing-value report),
// a later chunk's text in a column the first chunk found numeric is an error naming the line, and the
// metrics of a file read column-wise in chunks equal those of the whole table.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { TableAppender } from '../../src/data/chunks.js';
import type { Table } from '../../src/data/table.js';
import { lineBound, readCsv, readCsvChunks, writeCsv } from '../../src/node/csv.js';
import { readColumns } from '../../src/node/columns.js';
import { groupMetrics } from '../../src/methods/metrics/index.js';
import { getEngine } from '../helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-chunks-'));

async function chunked(
  file: string,
  rows: number,
  opts = {},
): Promise<{ table: Table; chunks: number; report: Awaited<ReturnType<typeof readCsvChunks>> }> {
  let app: TableAppender | null = null;
  let chunks = 0;
  const report = await readCsvChunks(
    file,
    opts,
    (c) => {
      chunks++;
      app ??= new TableAppender(
        c.columns.map((x) => x.name),
        10,
      );
      app.add(c);
    },
    rows,
  );
  return { table: (app as TableAppender | null)!.table(), chunks, report };
}

describe('reading a CSV in chunks', () => {
  let sim: string;
  before(async () => {
    const engine = await getEngine();
    const s = simulate(new Rng(engine, 1), { n: 1500, bias: 'proxy' });
    sim = join(dir, 'sim.csv');
    await writeCsv(sim, {
      rows: s.table.rows,
      columns: [...s.table.columns, { kind: 'numeric', name: 'p', values: s.truth.probability }],
    });
  });

  it('the chunks add up to the whole-file table, at chunk sizes that do not divide the rows', async () => {
    const whole = await readCsv(sim);
    for (const n of [1500, 512, 97]) {
      const c = await chunked(sim, n);
      assert.equal(c.chunks, Math.ceil(1500 / n));
      assert.deepEqual(
        c.table.columns.map((x) => ({ ...x })),
        whole.table.columns.map((x) => ({ ...x })),
      );
      assert.equal(c.report.rowsKept, whole.report.rowsKept);
      assert.deepEqual(c.report.missing, whole.report.missing);
      assert.equal(c.report.sha256, whole.report.sha256);
    }
    assert.ok((await lineBound(sim)) >= 1501);
  });

  it('categories first seen in a later chunk get the next codes (first-seen order of the whole file)', async () => {
    const f = join(dir, 'late.csv');
    writeFileSync(f, 'g,x\nA,1\nA,2\nB,3\nC,4\nA,5\n');
    const c = await chunked(f, 2);
    const g = c.table.columns[0];
    assert.equal(g.kind, 'categorical');
    if (g.kind === 'categorical') {
      assert.deepEqual(g.categories, ['A', 'B', 'C']);
      assert.deepEqual(Array.from(g.codes), [0, 0, 1, 2, 0]);
    }
  });

  it('missing cells: the policy applies per row in every chunk, and the report adds up', async () => {
    const f = join(dir, 'missing.csv');
    writeFileSync(f, 'g,x\nA,1\nB,\nA,3\n?,4\nB,NA\nA,6\n');
    const whole = await readCsv(f);
    const c = await chunked(f, 2);
    assert.equal(c.table.rows, whole.table.rows);
    assert.deepEqual(c.report.missing, whole.report.missing);
  });

  it('text in a column the first chunk found numeric: an error naming the line and the fix', async () => {
    const f = join(dir, 'kinds.csv');
    writeFileSync(f, 'g,x\nA,1\nB,2\nA,three\n');
    await assert.rejects(chunked(f, 2), (e: Error) => {
      assert.match(
        e.message,
        /line 4, column "x": "three" is not a number, but the first 2 rows made the column numeric/,
      );
      assert.match(e.message, /--categorical x/);
      return true;
    });
    // named by the user: the user's option is what the message names
    await assert.rejects(chunked(f, 2, { numeric: ['x'] }), /but --numeric names this column$/);
  });

  it(
    'readColumns keeps only the columns named, checks them against the header before reading, and gives the metrics ' +
      'of the whole table',
    async () => {
      await assert.rejects(readColumns(sim, {}, { '--label': 'aproved' }), /"aproved".*did you mean "approved"/s);
      const opts = { label: 'approved', positive: 'yes', pred: 'p', groups: ['sex', 'group'] };
      const got = await readColumns(
        sim,
        {},
        { '--label': opts.label, '--pred': opts.pred, '--group': opts.groups },
        256,
      );
      assert.deepEqual(
        got.table.columns.map((c) => c.name),
        ['sex', 'group', 'approved', 'p'],
      );
      assert.deepEqual(got.report.dropped, [
        'age',
        'neighbourhood',
        'education',
        'hours_per_week',
        'income',
        'debt_ratio',
      ]);
      const whole = await readCsv(sim);
      const engine = await getEngine();
      const a = groupMetrics(whole.table, { ...opts, intersect: true, rng: new Rng(engine, 5) });
      const b = groupMetrics(got.table, { ...opts, intersect: true, rng: new Rng(engine, 5) });
      assert.deepEqual(b, a);
    },
  );

  it(
    'an identifier column keeps chunk-local codes (no dictionary of every row), and decimal commas carry over to ' +
      'later chunks',
    async () => {
      const f = join(dir, 'ids.csv');
      const lines = ['id;x;g'];
      for (let i = 0; i < 3000; i++) lines.push(`p${i};${i},5;${i % 3 ? 'a' : 'b'}`);
      writeFileSync(f, lines.join('\n') + '\n');
      const whole = await readCsv(f);
      const chunks: Table[] = [];
      await readCsvChunks(f, {}, (c) => void chunks.push(c), 1000);
      assert.equal(chunks.length, 3);
      const x = (t: Table) => t.columns.find((c) => c.name === 'x')!;
      assert.equal(x(chunks[2]).kind, 'numeric');
      const wx = x(whole.table);
      assert.ok(wx.kind === 'numeric' && wx.values[2999] === 2999.5);
      const cx = x(chunks[2]);
      assert.ok(cx.kind === 'numeric' && cx.values[999] === 2999.5);
      const id = chunks[2].columns.find((c) => c.name === 'id')!;
      assert.ok(id.kind === 'categorical' && id.categories.length === 1000 && id.categories[0] === 'p2000');
      // the metrics' reader refuses an identifier among the columns it reads whole
      await assert.rejects(readColumns(f, {}, { '--group': ['id'] }, 1000), /looks like an identifier/);
    },
  );

  it("a chunk consumer's error passes through as it is (not as a read error of the file)", async () => {
    const err = Object.assign(new Error('model down'), { code: 'ECONNREFUSED' });
    await assert.rejects(
      readCsvChunks(
        sim,
        {},
        () => {
          throw err;
        },
        100,
      ),
      (e: unknown) => e === err,
    );
  });

  it(
    'more distinct labels over the file than --max-categories: the error a whole-file read gives, not one limit per ' +
      'chunk',
    async () => {
      const f = join(dir, 'many.csv');
      const lines = ['g,x'];
      for (let i = 0; i < 600; i++) lines.push(`g${Math.floor(i / 2)},${i}`);
      writeFileSync(f, lines.join('\n') + '\n');
      await assert.rejects(readCsv(f, { maxCategories: 200 }), /g/);
      await assert.rejects(chunked(f, 100, { maxCategories: 200 }), /more than 200 distinct values/);
    },
  );
});
