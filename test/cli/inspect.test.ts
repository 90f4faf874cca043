// `lucid inspect` as a user runs it: the JSON and table forms, options passed through, bad arguments.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lucid-inspect-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'people.csv');
writeFileSync(data, 'age;sex;income;id\r\n39;Male;1.5;1\r\n?;Female;2.5;2\r\n41;?;3;3\r\n52;Female;4;4\r\n');

describe('lucid inspect', () => {
  it('--format json: rows after the policy, per-column kind, missing, categories or range, settings', () => {
    const r = lucid('inspect', '--data', data, '--format', 'json', '--drop', 'id');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const s = JSON.parse(r.stdout);
    assert.equal(s.rows, 3);
    assert.equal(s.rowsRead, 4);
    assert.deepEqual(s.settings, {
      delimiter: 'semicolon',
      header: true,
      bom: false,
      lineEnding: 'CRLF',
      detected: { delimiter: true, header: true },
    });
    assert.deepEqual(s.dropped, ['id']);
    assert.deepEqual(s.columns, [
      { name: 'age', kind: 'numeric', missing: 1, min: 39, max: 52 },
      {
        name: 'sex',
        kind: 'categorical',
        missing: 1,
        categories: [
          { label: 'Male', count: 1 },
          { label: 'Female', count: 1 },
          { label: '?', count: 1 },
        ],
      },
      { name: 'income', kind: 'numeric', missing: 0, min: 1.5, max: 4 },
    ]);
    assert.equal(s.missing.policy, 'keep');
    assert.equal(s.missing.rowsDropped, 1);
    assert.deepEqual(s.missing.firstDroppedLines, [3]);
  });

  it('the table form shows settings, the missing-value effects and one line per column', () => {
    const r = lucid('inspect', '--data', data, '--missing', 'drop', '--categorical', 'id');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /4 data rows read, 2 kept; 4 columns/);
    assert.match(r.stdout, /delimiter semicolon \(detected\), header yes \(detected\), CRLF line ends, no BOM/);
    assert.match(r.stdout, /missing values \(policy "drop"\): 2 cells; 2 rows dropped/);
    assert.match(r.stdout, /sex \(categorical\): 1 missing cell, first on line 4; 1 row dropped/);
    assert.match(r.stdout, /\nage +numeric +1 {2}min 39, max 52\n/);
    assert.match(r.stdout, /\nid +categorical +0 {2}2 categories: 1 1, 4 1\n/);
  });

  it('--no-header, --columns and --delimiter reach the reader', () => {
    const r = lucid(
      'inspect',
      '--data',
      data,
      '--no-header',
      '--delimiter',
      'semicolon',
      '--columns',
      'a,b,c,d',
      '--format',
      'json',
    );
    assert.equal(r.status, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.deepEqual(
      s.columns.map((c: { name: string; kind: string }) => [c.name, c.kind]),
      [
        ['a', 'categorical'],
        ['b', 'categorical'],
        ['c', 'categorical'],
        ['d', 'categorical'],
      ],
    );
    assert.deepEqual(s.settings.detected, { delimiter: false, header: false });
  });

  it("bad option values exit 2 with commander's message; --help offers --modes", () => {
    const a = lucid('inspect', '--data', data, '--delimiter', 'pipe');
    assert.equal(a.status, 2);
    assert.match(
      a.stderr,
      /--delimiter <d>' argument 'pipe' is invalid\. expected comma, semicolon, tab or whitespace/,
    );
    const b = lucid('inspect', '--data', data, '--missing', 'ignore');
    assert.equal(b.status, 2);
    assert.match(b.stderr, /Allowed choices are keep, drop, error/);
    const c = lucid('inspect');
    assert.equal(c.status, 2);
    assert.match(c.stderr, /required option '--data <file>' not specified/);
    assert.match(lucid('inspect', '--help').stdout, /--modes +also fit each numeric column/);
  });
});
