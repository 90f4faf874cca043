// CSV outputs are safe to open in a spreadsheet ("nothing passes silently"): a text cell that begins
// with =, +, -, @, a tab or a carriage return gets a leading ' (OWASP's advice against CSV injection)
// and is then quoted as CSV requires, in every CSV the tool writes: writeCsv (predict --out, the
// audit's canonical sets, gan sample, dataset, invert), tableToCsv (browser, edge), formatMetricsCsv
// (metrics --format csv, the audit's metrics.csv), faleCsv and csvField (the audit's
// distributions.csv). Numbers, and labels that are plain numbers (-3.5, +2, -1e-3), are left alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { csvField, escapeFormula, tableToCsv } from '../../src/data/csv-write.js';
import type { Table } from '../../src/data/table.js';
import { groupMetrics } from '../../src/methods/metrics/index.js';
import { formatMetricsCsv } from '../../src/methods/metrics/format.js';
import { faleCsv, type FaleResult } from '../../src/methods/fale/fale.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { readCsv, writeCsv } from '../../src/node/csv.js';
import { saveModel } from '../../src/node/model-file.js';
import { getEngine } from '../helpers/engine.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lucid-csv-injection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const CMD = "=cmd|' /C calc'!A0";
const CMD_OUT = `'${CMD}`;

/** The fields of one comma-separated line without quoted fields. */
const fields = (line: string) => line.split(',');
/** Every field of `text` that begins with a formula character must be a plain number. */
function onlyNumbersStartWithFormulaChars(text: string): void {
  for (const line of text.trimEnd().split('\n')) {
    for (const f of fields(line))
      if (/^[=+\-@\t\r]/.test(f))
        assert.ok(Number.isFinite(Number(f)), `unescaped cell ${JSON.stringify(f)} in ${JSON.stringify(line)}`);
  }
}

describe('escapeFormula and csvField', () => {
  it('text beginning with = + - @ tab or CR gets a leading quote; plain numbers and other text are left alone', () => {
    const cases: [string, string][] = [
      [CMD, CMD_OUT],
      ['-foo', "'-foo"],
      ['+foo', "'+foo"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['\rx', "'\rx"],
      ['-', "'-"],
      ['-Infinity', "'-Infinity"],
      ['-3.5 ', "'-3.5 "],
      ['-3.5', '-3.5'],
      ['+2', '+2'],
      ['-1e-3', '-1e-3'],
      ['-.5', '-.5'],
      ['5.', '5.'],
      ['plain', 'plain'],
      ["'already", "'already"],
      ['a=b', 'a=b'],
      ['', ''],
    ];
    for (const [text, want] of cases) assert.equal(escapeFormula(text), want, JSON.stringify(text));
  });

  it('csvField escapes text, then quotes as CSV requires; numbers and booleans are never escaped', () => {
    assert.equal(csvField(CMD), CMD_OUT);
    assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvField('-a,b'), `"'-a,b"`);
    assert.equal(csvField('\rx'), `"'\rx"`);
    assert.equal(csvField('-foo'), "'-foo");
    assert.equal(csvField('-3.5'), '-3.5');
    assert.equal(csvField(-3.5), '-3.5');
    assert.equal(csvField(-1e-7), '-1e-7');
    assert.equal(csvField(-Infinity), '-Infinity');
    assert.equal(csvField(true), 'true');
    assert.equal(csvField(null), '');
    assert.equal(csvField(undefined), '');
  });
});

describe(
  "tables: writeCsv (predict --out, the audit's canonical " + 'sets) and tableToCsv write the same escaped bytes',
  () => {
    const t: Table = {
      rows: 5,
      columns: [
        {
          kind: 'categorical',
          name: 'group',
          categories: [CMD, '-foo', 'A', '-3.5', '=x,y'],
          codes: Int32Array.from([0, 1, 2, 3, 4]),
        },
        { kind: 'numeric', name: 'x', values: Float64Array.from([-3.5, 2, -0.001, -0, -1e-7]) },
        { kind: 'categorical', name: '=name', categories: ['a'], codes: Int32Array.from([0, 0, 0, 0, -1]) },
      ],
    };
    const expected = (cmd: string) =>
      [`group,x,'=name`, `${cmd},-3.5,a`, "'-foo,2,a", 'A,-0.001,a', '-3.5,-0,a', `"'=x,y",-1e-7,`, ''].join('\n');

    it('the exact text, from the core writer and the stream writer', async () => {
      assert.equal(tableToCsv(t), expected(CMD_OUT));
      // fast-csv also quotes a field holding "|" (its own rule; the same cell to a CSV reader)
      const out = new PassThrough();
      let text = '';
      out.on('data', (c: Buffer) => (text += c.toString('utf8')));
      await writeCsv(out, t);
      assert.equal(text, expected(`"${CMD_OUT}"`));
      const file = join(dir, 'table.csv');
      await writeCsv(file, t);
      assert.equal(readFileSync(file, 'utf8'), expected(`"${CMD_OUT}"`));
    });

    it('read back with lucid: the numbers are the same, a label keeps its escape', async () => {
      const file = join(dir, 'back.csv');
      await writeCsv(file, t);
      const back = (await readCsv(file)).table;
      const x = back.columns.find((c) => c.name === 'x')!;
      assert.ok(x.kind === 'numeric');
      assert.deepEqual(Array.from(x.values), [-3.5, 2, -0.001, -0, -1e-7]);
      const g = back.columns.find((c) => c.name === 'group')!;
      assert.ok(g.kind === 'categorical');
      assert.deepEqual(
        Array.from(g.codes, (k) => g.categories[k]),
        [CMD_OUT, "'-foo", 'A', '-3.5', "'=x,y"],
      );
    });
  },
);

describe("lucid metrics --format csv, lucid model predict --out, the audit's metrics.csv and fale CSV", () => {
  // a group column with a formula label and a text label beginning with "-", a numeric column with -3.5
  const data = join(dir, 'scored.csv');
  const labels = [CMD, '-foo', 'plain'];
  let table: Table;
  before(async () => {
    const lines = ['group,x,y,pred'];
    for (let i = 0; i < 300; i++) {
      const y = (i * 37) % 11 < 5 ? 1 : 0;
      const pred = (i * 13) % 7 < 2 + (i % 3) ? 1 - y : y;
      lines.push(`${labels[i % 3]},${i % 2 ? -3.5 : (i % 17) / 4},${y},${pred}`);
    }
    writeFileSync(data, lines.join('\n') + '\n');
    table = (await readCsv(data)).table;
  });

  it('lucid metrics --format csv: the group labels escaped, every number as before', () => {
    const r = lucid(
      'metrics',
      '--data',
      data,
      '--label',
      'y',
      '--positive',
      '1',
      '--pred',
      'pred',
      '--group',
      'group',
      '--format',
      'csv',
    );
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n').slice(1);
    assert.deepEqual(
      rows.map((l) => fields(l).slice(0, 2)).sort(),
      [
        ['group', CMD_OUT],
        ['group', "'-foo"],
        ['group', 'plain'],
      ].sort(),
    );
    assert.ok(!r.stdout.includes(`,${CMD},`));
    onlyNumbersStartWithFormulaChars(r.stdout);
    assert.ok(
      rows.some((l) => fields(l).some((f) => /^-\d/.test(f))),
      'some negative difference, written as a number',
    );
  });

  it("formatMetricsCsv (the audit's metrics.csv) writes the same", () => {
    const report = groupMetrics(table, { label: 'y', positive: '1', pred: 'pred', groups: ['group'] });
    const text = formatMetricsCsv(report);
    assert.equal(
      text,
      lucid(
        'metrics',
        '--data',
        data,
        '--label',
        'y',
        '--positive',
        '1',
        '--pred',
        'pred',
        '--group',
        'group',
        '--format',
        'csv',
      ).stdout,
    );
    assert.match(text, new RegExp(`^group,${CMD_OUT.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')},100,`, 'm'));
  });

  it("faleCsv (fale --format csv, the audit's fale-*.csv): categories escaped, edges and values numbers", () => {
    const r = {
      features: [
        {
          feature: 'group',
          kind: 'categorical',
          categories: [CMD, '-foo'],
          values: [-3.5, 0.25],
          deltas: [0, 3.75],
          counts: { n: [1, 2], unprivileged: [1, 1], privileged: [0, 1] },
          undefined: [],
        },
        {
          feature: '-x',
          kind: 'continuous',
          edges: [-3.5, 1],
          values: [0, -0.5],
          deltas: [-0.5],
          counts: { n: [3], unprivileged: [1], privileged: [2] },
          undefined: [],
        },
      ],
    } as unknown as FaleResult;
    assert.deepEqual(faleCsv(r).split('\n').slice(1, 5), [
      `group,categorical,0,${CMD_OUT},-3.5,0,1,1,0,false,,`,
      "group,categorical,1,'-foo,0.25,3.75,2,1,1,false,,",
      "'-x,continuous,0,-3.5,0,,,,,,,",
      "'-x,continuous,1,1,-0.5,-0.5,3,1,2,false,,",
    ]);
  });

  it('lucid model predict --out: the labels escaped, the numbers (-3.5, the predictions) as before', async () => {
    const engine = await getEngine();
    const model = Classifier.train(engine, table, {
      label: 'y',
      positive: '1',
      hidden: [],
      epochs: 2,
      valFraction: 0,
      seed: 0,
    }).model;
    const modelFile = join(dir, 'model.json');
    await saveModel(modelFile, model);
    model.dispose();
    const out = join(dir, 'predicted.csv');
    const r = lucid('model', 'predict', '--model', modelFile, '--data', data, '--out', out);
    assert.equal(r.status, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(lines[0], 'group,x,y,pred,preds');
    // (fast-csv quotes a field holding "|")
    assert.deepEqual(
      lines.slice(1, 4).map((l) => fields(l).slice(0, 2)),
      [
        [`"${CMD_OUT}"`, '0'],
        ["'-foo", '-3.5'],
        ['plain', '0.5'],
      ],
    );
    onlyNumbersStartWithFormulaChars(lines.join('\n'));
    // the input's cells, but for the escapes, come back byte for byte
    const input = readFileSync(data, 'utf8').trimEnd().split('\n');
    const quoted = (s: string) => (s.includes('|') ? `"${s}"` : s);
    for (let i = 1; i < 30; i++)
      assert.equal(
        lines[i].slice(0, lines[i].lastIndexOf(',')),
        quoted(escapeFormula(input[i].split(',')[0])) + input[i].slice(input[i].indexOf(',')),
      );
  });
});
