// The commands on Parquet, Arrow IPC and JSON Lines files as a user runs them: the same output as the
// CSV of the same data, and a damaged file is one line on stderr, exit 1, no stack.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../../../test/fixtures/columnar/', import.meta.url));
// run in the fixtures folder, so file names in the output are the same for every format
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: fixtures });
const metrics = (file: string, ...more: string[]) =>
  lucid(
    'metrics',
    '--data',
    file,
    '--label',
    'approved',
    '--positive',
    'true',
    '--pred',
    'score',
    '--group',
    'sex',
    '--format',
    'json',
    ...more,
  );

describe('lucid on columnar files', () => {
  it('metrics --data x.parquet (and .arrow, .jsonl) gives what the CSV gives', () => {
    const csv = metrics('people.csv');
    assert.equal(csv.status, 0, csv.stderr);
    const strip = (out: string) =>
      JSON.stringify(JSON.parse(out), (k, v) => (k === 'source' || k === 'file' ? undefined : v));
    for (const f of ['people.parquet', 'people-zstd.parquet', 'people.arrow', 'people.jsonl']) {
      const r = metrics(f);
      assert.equal(r.status, 0, `${f}: ${r.stderr}`);
      assert.equal(strip(r.stdout), strip(csv.stdout), f);
    }
  });

  it('a damaged Parquet file: exit 1, one line on stderr, no stack', () => {
    const r = metrics('truncated.parquet');
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^lucid: error: truncated\.parquet: not a Parquet file, or a damaged one \(.*\)\n$/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('a CSV option with a Parquet file: usage error, exit 2; --input-format reads any name', () => {
    const r = metrics('people.parquet', '--delimiter', 'tab');
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^lucid: error: people\.parquet: --delimiter is a CSV option, but the file is read as Apache Parquet; leave it out\n$/,
    );
    const wrong = metrics('people.csv', '--input-format', 'jsonl');
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /^lucid: error: people\.csv: line 1: not valid JSON \(/);
  });

  it('inspect says the format and counts rows; --help lists every format', () => {
    const r = lucid('inspect', '--data', join(fixtures, 'people.arrows'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /format: arrow\n/);
    assert.match(r.stdout, /age \(numeric\): 1 missing cell, first on row 3/);
    const help = lucid('inspect', '--help').stdout;
    for (const ext of ['.parquet', '.arrow', '.feather', '.jsonl', '.ndjson', '.csv'])
      assert.ok(help.includes(ext), ext);
  });
});
